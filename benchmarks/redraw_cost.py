"""What one action costs each page of a table, in process (no server, no sockets), in one run:
pages drawing their unchanged parts again (views/sections.py off, the baseline) against pages
reusing them ("parts": the wrappers around them still built at every drawing, the page diffed
whole) and reusing the wrappers too, sending each changed child alone ("on": `Sections.group`),
over the same seeded Vabanque game.

    uv run python benchmarks/redraw_cost.py [--players 4] [--actions 120] [--seed 7]

One room, the host board at 1280x800 and one phone per seat at 390x844 (the phones keep their
private section closed, as a table mostly does). Each action is a random legal one, sent on its
seat's channel, and the pages are drawn before the next. Per action it prints the CPU time of the
whole table (board and phones: build, Flet's diff, the encoding of the frames), the bytes each
kind of page was sent (median and p95), and on the board the parts built and reused (the hit
rate). The ratios to "off" are the numbers to read: all runs are in this one process.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flet.controls.object_patch import ObjectPatch  # noqa: E402

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


def percentile(values: list[int], share: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(share * len(ordered)))]) if ordered else 0.0


def screen_of(tab: Any) -> Any:
    return tab.page.on_route_change.__self__.screen  # the tab's session (views/app.py)


async def play(players: int, actions: int, seed: int, reuse: bool, groups: bool = True) -> dict[str, Any]:
    sections.REUSE = reuse
    sections.GROUPS = groups
    with tempfile.TemporaryDirectory() as data:
        host = Host(Store(Path(data) / "referee.sqlite3"))
        harness = FletHarness(build_main(host, AppConfig(base_url="http://192.168.1.20:8550")))
        room = await host.create_room("vabanque", {"players": PLAYERS[:players]}, seed=seed, free_seats=False)
        board = await harness.open(f"/room/{room.id}?k={host.token}", name="board", width=1280, height=800)
        phones = []
        for seat in room.seats:
            phones.append(await harness.open(f"/join/{room.id}/{seat.token}", browser=FakeBrowser(f"phone-{seat.seat}"), name=f"phone-{seat.seat}", width=390, height=844))
        await harness.settle()
        game = GAMES["vabanque"]
        rng = random.Random(seed)
        cpu: list[float] = []
        board_bytes: list[int] = []
        phone_bytes: list[int] = []
        built = reused = 0
        sent: list[int] = []
        board_sections = screen_of(board).sections
        gc.collect()
        for _ in range(actions):
            action = game.random_action(room.state, rng)
            if action is None:
                break
            marks = [tab.mark() for tab in (board, *phones)]
            before_built, before_reused = board_sections.total_built, board_sections.total_reused
            before_sent = CONTROLS_SENT[0]
            start = time.process_time()
            by = action.by
            await room.submit(action.model_dump(), channel="seat", seat=by, based_on_version=room.version)
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
        f"{name:>4}: {r['actions']} actions, table CPU per action median {r['cpu_median']:.1f} ms (mean {r['cpu_mean']:.1f}); "
        f"board bytes median/p95 {r['board_bytes'][0]:.0f}/{r['board_bytes'][1]:.0f}; phone bytes {r['phone_bytes'][0]:.0f}/{r['phone_bytes'][1]:.0f}; "
        f"board parts per action built {r['built']:.1f}, reused {r['reused']:.1f} (hit rate {hit:.0%}); "
        f"controls put through Flet's diff per action (all pages) {r['sent']:.0f}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4, choices=range(3, 7))
    parser.add_argument("--actions", type=int, default=120)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each mode, alternated; the fastest of each is shown (default 3)")
    args = parser.parse_args()
    flet_patches.apply()
    counting_sent_controls()
    await play(args.players, 10, args.seed, True)  # warm-up: imports, caches
    # alternated, so a slower stretch of the machine does not land on one mode only
    runs: dict[str, list[dict[str, Any]]] = {"off": [], "parts": [], "on": []}
    for _ in range(args.repeat):
        runs["off"].append(await play(args.players, args.actions, args.seed, False))
        runs["parts"].append(await play(args.players, args.actions, args.seed, True, groups=False))
        runs["on"].append(await play(args.players, args.actions, args.seed, True))
    best = {name: min(results, key=lambda r: r["cpu_mean"]) for name, results in runs.items()}
    for name, r in best.items():
        show(name, r)
    off = best["off"]
    for name in ("parts", "on"):
        r = best[name]
        print(
            f"ratio {name}/off: CPU per action {r['cpu_median'] / off['cpu_median']:.2f}x (mean {r['cpu_mean'] / off['cpu_mean']:.2f}x), "
            f"controls through the diff {r['sent'] / max(1e-9, off['sent']):.2f}x, board bytes {r['board_bytes'][0] / max(1, off['board_bytes'][0]):.2f}x"
        )


if __name__ == "__main__":
    asyncio.run(main())
