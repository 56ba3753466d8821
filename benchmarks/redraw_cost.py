"""What one action costs each page of a table, in process (no server, no sockets), in one run:
pages drawing their unchanged parts again (views/sections.py off, the baseline) against pages
reusing them ("parts": the wrappers around them still built at every drawing, the page diffed
whole) and reusing the wrappers too, sending each changed child alone ("on": `Sections.group`),
over the same seeded game, for each game asked (all four by default, side by side).

    uv run python benchmarks/redraw_cost.py [--game vabanque ...] [--players 4] [--actions 120] [--seed 7]

One room, the host board at 1280x800 and one phone per seat at 390x844 (the phones keep their
private section closed, as a table mostly does). Each action is a random legal one, entered on
the channel a table uses (the host's own entries and reveals on the host channel, a seat's
actions on its seat's), and the pages are drawn before the next. Per action it prints the CPU
time of the whole table (board and phones: build, Flet's diff, the encoding of the frames), the
bytes each kind of page was sent (median and p95), and on the board the parts built and reused
(the hit rate). The ratios are the numbers to read: all runs are in this one process. The garbage
collector's work is not timed (`collector_aside`): at CPython's default thresholds it was 17-32 %
of the table's CPU here, landing on whichever drawing ran when the heap crossed a threshold.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flet.controls.object_patch import ObjectPatch  # noqa: E402

from benchmarks.latency import MIRRORS  # noqa: E402
from companion.games import GAMES  # noqa: E402
from companion.room import Host  # noqa: E402
from companion.store import Store  # noqa: E402
from tests.harness.flet_inprocess import FakeBrowser, FletHarness  # noqa: E402
from views import flet_patches, sections  # noqa: E402
from views.app import AppConfig, build_main  # noqa: E402

#: controls Flet's diff put on the page (new, or rebuilt and matched to the shown one) since the
#: start: the work a drawing costs in Flet, counted, so it does not move with the machine's speed
CONTROLS_SENT = [0]


def counting_sent_controls() -> None:
    original = ObjectPatch.from_diff.__func__

    def from_diff(cls: Any, *args: Any, **kwargs: Any) -> Any:
        patch, added, removed = original(cls, *args, **kwargs)
        CONTROLS_SENT[0] += len(added)
        return patch, added, removed

    ObjectPatch.from_diff = classmethod(from_diff)  # type: ignore[method-assign]

PLAYERS = [{"name": n, "colour": c} for n, c in [("Anna", "red"), ("Boris", "blue"), ("Chloe", "green"), ("Dmitri", "yellow"), ("Emma", "purple"), ("Farid", "orange")]]


@contextlib.contextmanager
def collector_aside() -> Iterator[None]:
    """The garbage collector's work kept out of what is timed: none during, the collections due
    run after it. When a collection falls is an accident of the heap (which the harness's kept
    frames grow, game after game), not a cost of the drawing it falls in; rooms.py measures the
    server's collections, at its thresholds. (A full collection just before each timed drawing
    made every drawing 30-40 % slower: it leaves the caches cold.)"""
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def percentile(values: list[int], share: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(share * len(ordered)))]) if ordered else 0.0


def screen_of(tab: Any) -> Any:
    return tab.page.on_route_change.__self__.screen  # the tab's session (views/app.py)


#: the host's own entries for the table (the random player gives them a seat: the table does not)
#: the host board's own entries for the table: the click drivers' (latency.MIRRORS), and Règlement's
#: "seat everyone at random" (the mirrors play a preset seating; these tables seat freely)
HOST_ENTRIES = frozenset({"seat_random", *(entry for mirror in MIRRORS.values() for entry in mirror.HOST_ENTRIES)})


def next_action(room: Any, rng: random.Random) -> tuple[dict[str, Any], int | None] | None:
    """A random legal action as the table enters it, with the seat that sends it (None: the host
    board). A reveal waits for the host or every phone: the host taps it here, at once."""
    game = room.game
    if game.awaiting_reveal(room.state):
        return {"type": "reveal"}, None
    if room.game_id == "vabanque" and room.state.phase == "payout":
        return {"type": "next_round"}, None
    action = game.random_action(room.state, rng)
    if action is None:
        return None
    raw = action.model_dump(mode="json")
    if raw["type"] in HOST_ENTRIES:
        raw["by"] = None
    return raw, raw.get("by")


async def play(game_id: str, players: int, actions: int, seed: int, reuse: bool, groups: bool = True, mechanism: str = "parts") -> dict[str, Any]:
    sections.REUSE = reuse
    sections.GROUPS = groups
    sections.MECHANISM = mechanism
    with tempfile.TemporaryDirectory() as data:
        host = Host(Store(Path(data) / "referee.sqlite3"))
        harness = FletHarness(build_main(host, AppConfig(base_url="http://192.168.1.20:8550")))
        room = await host.create_room(game_id, {"players": PLAYERS[:players]}, seed=seed, free_seats=False)
        board = await harness.open(f"/room/{room.id}?k={host.token}", name="board", width=1280, height=800)
        phones = []
        for seat in room.seats:
            phones.append(await harness.open(f"/join/{room.id}/{seat.token}", browser=FakeBrowser(f"phone-{seat.seat}"), name=f"phone-{seat.seat}", width=390, height=844))
        await harness.settle()
        rng = random.Random(seed)
        cpu: list[float] = []
        board_bytes: list[int] = []
        phone_bytes: list[int] = []
        built = reused = 0
        sent: list[int] = []
        board_sections = screen_of(board).sections
        gc.collect()
        for _ in range(actions):
            entry = next_action(room, rng)
            if entry is None:
                break
            raw, by = entry
            marks = [tab.mark() for tab in (board, *phones)]
            before_built, before_reused = board_sections.total_built, board_sections.total_reused
            before_sent = CONTROLS_SENT[0]
            with collector_aside():
                start = time.process_time()
                await room.submit(raw, channel="host" if by is None else "seat", seat=by, based_on_version=room.version)
                await harness.settle()
                cpu.append((time.process_time() - start) * 1000)
            board_bytes.append(sum(len(f) for f in board.frames_since(marks[0])))
            phone_bytes.extend(sum(len(f) for f in tab.frames_since(mark)) for tab, mark in zip(phones, marks[1:], strict=True))
            sent.append(CONTROLS_SENT[0] - before_sent)
            built += board_sections.total_built - before_built
            reused += board_sections.total_reused - before_reused
        await harness.aclose()
        host.close()
    return {
        "actions": len(cpu),
        "cpu_median": statistics.median(cpu),
        "cpu_mean": statistics.fmean(cpu),
        "board_bytes": (statistics.median(board_bytes), percentile(board_bytes, 0.95)),
        "phone_bytes": (statistics.median(phone_bytes), percentile(phone_bytes, 0.95)),
        "built": built / max(1, len(cpu)),
        "sent": statistics.fmean(sent) if sent else 0.0,
        "reused": reused / max(1, len(cpu)),
    }


def show(name: str, r: dict[str, Any]) -> None:
    hit = r["reused"] / max(1e-9, r["reused"] + r["built"])
    print(
        f"{name:>5}: {r['actions']} actions, table CPU per action median {r['cpu_median']:.1f} ms (mean {r['cpu_mean']:.1f}); "
        f"board bytes median/p95 {r['board_bytes'][0]:.0f}/{r['board_bytes'][1]:.0f}; phone bytes {r['phone_bytes'][0]:.0f}/{r['phone_bytes'][1]:.0f}; "
        f"board parts per action built {r['built']:.1f}, reused {r['reused']:.1f} (hit rate {hit:.0%}); "
        f"controls put through Flet's diff per action (all pages) {r['sent']:.0f}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", nargs="+", choices=sorted(GAMES), default=["vabanque", "corruption", "chicago_poker", "reglement"], help="games to play (default: all four)")
    parser.add_argument("--players", type=int, default=4, choices=range(3, 7))
    parser.add_argument("--actions", type=int, default=120)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each mode, alternated; the fastest of each is shown (default 3)")
    args = parser.parse_args()
    flet_patches.apply()
    counting_sent_controls()
    modes = {"off": (False, False, "parts"), "parts": (True, False, "parts"), "on": (True, True, "parts"), "components": (True, True, "components")}
    best: dict[str, dict[str, dict[str, Any]]] = {}
    for game_id in args.game:
        await play(game_id, args.players, 10, args.seed, True)  # warm-up: imports, caches
        # alternated, so a slower stretch of the machine does not land on one mode only
        runs: dict[str, list[dict[str, Any]]] = {name: [] for name in modes}
        for _ in range(args.repeat):
            for name, (reuse, groups, mechanism) in modes.items():
                runs[name].append(await play(game_id, args.players, args.actions, args.seed, reuse, groups, mechanism))
        best[game_id] = {name: min(results, key=lambda r: r["cpu_mean"]) for name, results in runs.items()}
        print(f"-- {game_id}")
        for name, r in best[game_id].items():
            show(name, r)
        off = best[game_id]["off"]
        for name in ("parts", "on", "components"):
            r = best[game_id][name]
            print(
                f"ratio {name}/off: CPU per action {r['cpu_median'] / off['cpu_median']:.2f}x (mean {r['cpu_mean'] / off['cpu_mean']:.2f}x), "
                f"controls through the diff {r['sent'] / max(1e-9, off['sent']):.2f}x, board bytes {r['board_bytes'][0] / max(1, off['board_bytes'][0]):.2f}x"
            )
    if len(best) > 1:
        # the games side by side, as the table plays them ("on"), each against the first
        first = args.game[0]
        print(f"\n{'game':<14} {'CPU/action mean':>16} {'vs ' + first:>16} {'vs its own off':>15} {'phone B med/p95':>16} {'board B med':>12}")
        for game_id, results in best.items():
            on, off = results["on"], results["off"]
            print(
                f"{game_id:<14} {on['cpu_mean']:>13.1f} ms {on['cpu_mean'] / best[first]['on']['cpu_mean']:>15.2f}x {on['cpu_mean'] / off['cpu_mean']:>14.2f}x "
                f"{on['phone_bytes'][0]:>8.0f}/{on['phone_bytes'][1]:<7.0f} {on['board_bytes'][0]:>12.0f}"
            )


if __name__ == "__main__":
    asyncio.run(main())
