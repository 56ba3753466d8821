"""What a table's taps cost, in process: the games played as benchmarks/rooms.py's driver plays
them (every tap of an action, on the device that enters it), where redraw_cost.py submits each
action whole. Where rooms.py's figures differ from redraw_cost.py's, this says which taps.

    uv run python benchmarks/tap_cost.py [--game vabanque ...] [--actions 80] [--seed 7] [--repeat 2]

One room of 4 players per game (the host board at 1280x800, a phone per seat at 390x844), random
legal actions from the game's mirror (benchmarks/latency.py MIRRORS: the same seeds and clicks as
rooms.py), each clicked as a player does: the pad opened (`show-private`), the local choices (a
card, a value), then the tap that sends the action. The double-tap and handover windows are off
(a real table waits them out; rooms.py's driver does too). Per tap: the CPU time of the whole
table (the event, the engine and the log, every page drawn: build, Flet's diff, encoding), the
controls put through Flet's diff (new, or rebuilt and matched: machine-independent), and the
bytes sent to all pages. Printed per game and per step (opening the pad, a local choice, the tap
that sends each kind of action), then the games side by side against the first one. The CPU is
the fastest of `--repeat` alternated runs, the garbage collector's work left out
(redraw_cost.py's `collector_aside`); the counts and bytes do not move between runs (read them
first: this machine's CPU time moves by 10-20 % between runs, the ratios within one run less).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# no window in which a device's next tap is refused (views/screen.py): a player waits it out,
# this drives at machine speed (set before views.screen is imported)
os.environ["REFEREE_HANDOVER_SECONDS"] = "0"
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.latency import MIRRORS, server_env  # noqa: E402
from benchmarks.redraw_cost import CONTROLS_SENT, PLAYERS, collector_aside, counting_sent_controls  # noqa: E402
from companion.room import Host  # noqa: E402
from companion.store import Store  # noqa: E402
from tests.harness.flet_inprocess import FakeBrowser, FletHarness, Tab  # noqa: E402
from views import flet_patches  # noqa: E402
from views.app import AppConfig, build_main  # noqa: E402

OPEN_PAD = "show-private"


def chosen(tab: Tab, ident: str) -> bool:
    """A local choice already made (the pad open, the card still picked): not tapped again, as
    rooms.py's driver does not."""
    if ident == OPEN_PAD:
        return tab.has("hide-private")
    if ident == "deal-open":
        return tab.has("deal-form")
    semantics = tab.find(ident)
    return semantics is not None and bool(getattr(semantics, "selected", False))


@contextlib.contextmanager
def patched_environ(values: dict[str, str]) -> Iterator[None]:
    """The environment a game's server needs (Corruption: its catalogue), for this table only."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def step_name(action_type: str, ident: str, last: bool) -> str:
    if ident == OPEN_PAD:
        return "open the pad"
    return f"send: {action_type}" if last else f"choose: {action_type}"


async def play(game_id: str, players: int, actions: int, seed: int) -> dict[str, Any]:
    """One table through `actions` random actions: per step, (CPU ms, controls, bytes) of each tap."""
    with tempfile.TemporaryDirectory() as data, patched_environ(server_env(game_id, Path(data))):
        host = Host(Store(Path(data) / "referee.sqlite3"))
        harness = FletHarness(build_main(host, AppConfig(base_url="http://192.168.1.20:8550")))
        setup = {"players": PLAYERS[:players]}
        room = await host.create_room(game_id, setup, seed=seed, free_seats=False)
        board = await harness.open(f"/room/{room.id}?k={host.token}", name="board", width=1280, height=800)
        phones = [
            await harness.open(f"/join/{room.id}/{seat.token}", browser=FakeBrowser(f"phone-{seat.seat}"), name=f"phone-{seat.seat}", width=390, height=844)
            for seat in room.seats
        ]
        await harness.settle()
        mirror = MIRRORS[game_id](setup, seed)
        rng = random.Random(seed)
        steps: dict[str, list[tuple[float, int, int]]] = defaultdict(list)
        per_action: list[float] = []
        gc.collect()
        for _ in range(actions):
            action = mirror.random_action(rng) if not mirror.over else None
            if action is None:
                break
            seat = mirror.device_for(action)
            tab = board if seat is None else phones[seat]
            clicks = mirror.clicks_for(action)
            spent = 0.0
            for i, ident in enumerate(clicks):
                last = i == len(clicks) - 1
                if not last and chosen(tab, ident):
                    continue
                semantics = tab.find(ident)
                target = tab.clickable_in(semantics) if semantics is not None else None
                if target is None:
                    raise AssertionError(f"{game_id}: {tab.name} has no {ident!r} to tap for {action!r}")
                marks = [t.mark() for t in (board, *phones)]
                sent_before = CONTROLS_SENT[0]
                with collector_aside():
                    start = time.process_time()
                    await tab.session.dispatch_event(target._i, "click", None)
                    await harness.settle()
                    cpu = (time.process_time() - start) * 1000
                spent += cpu
                sent = sum(len(f) for t, mark in zip((board, *phones), marks, strict=True) for f in t.frames_since(mark))
                steps[step_name(action.type, ident, last)].append((cpu, CONTROLS_SENT[0] - sent_before, sent))
            mirror.apply(action)
            if room.state != mirror.state:
                raise AssertionError(f"{game_id}: the room did not take {action!r} as the mirror did")
            per_action.append(spent)
        harness.check()
        await harness.aclose()
        host.close()
    return {"actions": len(per_action), "cpu": statistics.fmean(per_action), "steps": dict(steps)}


def totals(result: dict[str, Any]) -> tuple[float, float]:
    """Controls through the diff and bytes, per action."""
    every = [tap for taps in result["steps"].values() for tap in taps]
    n = max(1, result["actions"])
    return sum(t[1] for t in every) / n, sum(t[2] for t in every) / n


def show(game_id: str, result: dict[str, Any]) -> None:
    controls, sent = totals(result)
    print(f"-- {game_id}: {result['actions']} actions; per action CPU {result['cpu']:.1f} ms, controls through the diff {controls:.0f}, bytes {sent:,.0f}")
    spent = sum(t[0] for taps in result["steps"].values() for t in taps)
    for name, taps in sorted(result["steps"].items(), key=lambda kv: -sum(t[0] for t in kv[1])):
        cpu = [t[0] for t in taps]
        print(
            f"   {name:<32} taps {len(taps):>3}  CPU per tap {statistics.fmean(cpu):5.1f} ms ({100 * sum(cpu) / spent:4.1f} % of all)  "
            f"controls {statistics.fmean(t[1] for t in taps):5.0f}  bytes {statistics.fmean(t[2] for t in taps):7,.0f}"
        )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", nargs="+", choices=sorted(MIRRORS), default=["vabanque", "corruption", "chicago_poker", "reglement"], help="games to play (default: all four)")
    parser.add_argument("--players", type=int, default=4, choices=range(3, 7))
    parser.add_argument("--actions", type=int, default=80)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=2, help="runs per game, alternated between the games; the fastest is shown (default 2)")
    args = parser.parse_args()
    flet_patches.apply()
    counting_sent_controls()
    for game_id in args.game:
        await play(game_id, args.players, 8, args.seed)  # warm-up: imports, caches
    runs: dict[str, list[dict[str, Any]]] = {game_id: [] for game_id in args.game}
    for _ in range(args.repeat):
        for game_id in args.game:
            runs[game_id].append(await play(game_id, args.players, args.actions, args.seed))
    best = {game_id: min(results, key=lambda r: r["cpu"]) for game_id, results in runs.items()}
    for game_id, result in best.items():
        show(game_id, result)
    first = args.game[0]
    print(f"\n{'game':<14} {'CPU/action':>11} {'vs ' + first:>14} {'controls/action':>16} {'bytes/action':>13}")
    for game_id, result in best.items():
        controls, sent = totals(result)
        print(f"{game_id:<14} {result['cpu']:>8.1f} ms {result['cpu'] / best[first]['cpu']:>13.2f}x {controls:>16.0f} {sent:>13,.0f}")


if __name__ == "__main__":
    asyncio.run(main())
