"""What the table QR code and the end screen cost a board redraw, in one run (in process, no
server): the host board of a new room with its table QR code against the same board with the
free-seat page off (the baseline), and the finished room's end screen (standings, Play again,
BG Stats QR code) against the same room's board before its last action.

    uv run python benchmarks/end_screens.py [--repeat N]

Prints the median build time of each and the ratio to its baseline; the first drawing of each
QR code (not cached yet) is printed on its own.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.room import Host  # noqa: E402
from companion.store import Store  # noqa: E402
from tests.harness.flet_inprocess import FletHarness  # noqa: E402
from views.app import AppConfig, build_main  # noqa: E402
from views.common import qr_svg  # noqa: E402
from views.standings import draw_bgstats_qr, room_link  # noqa: E402

PLAYERS = [{"name": n, "colour": c} for n, c in [("Anna", "red"), ("Boris", "blue"), ("Chloe", "green"), ("Dmitri", "yellow"), ("Emma", "purple"), ("Farid", "orange")]]


def median_build_ms(screen: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        screen.build()  # type: ignore[attr-defined]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def main(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as data:
        host = Host(Store(Path(data) / "referee.sqlite3"))
        harness = FletHarness(build_main(host, AppConfig(base_url="http://192.168.1.20:8550")))
        on = await host.create_room("vabanque", {"players": PLAYERS}, seed=1)
        off = await host.create_room("vabanque", {"players": PLAYERS}, seed=1, free_seats=False)
        qr_svg.cache_clear()
        start = time.perf_counter()
        board_on = await harness.open(f"/room/{on.id}?k={host.token}")
        first_open = (time.perf_counter() - start) * 1000
        board_off = await harness.open(f"/room/{off.id}?k={host.token}")
        with_qr = median_build_ms(harness_screen(harness, board_on), repeat)
        without = median_build_ms(harness_screen(harness, board_off), repeat)
        url = f"http://192.168.1.20:8550/table/{on.id}/{on.table.secret}"
        drawn = statistics.median(timed(lambda: qr_svg.__wrapped__(url)) for _ in range(repeat))
        cached = statistics.median(timed(lambda: qr_svg(url)) for _ in range(repeat))
        print(f"table QR code: drawn {drawn:.2f} ms, from the cache {cached:.4f} ms, ratio {drawn / cached:.0f}")
        print(f"new room's host board build: with the table QR code {with_qr:.2f} ms, free-seat page off {without:.2f} ms, ratio {with_qr / without:.2f} (first open with the QR drawn: {first_open:.0f} ms)")

        done = await host.create_room("vabanque", {"players": PLAYERS}, seed=2)
        rng = random.Random(2)
        while True:
            action = done.game.random_action(done.state, rng)
            if done.game.result(done.game.apply(done.state, action).state) is not None:
                break
            await done.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=done.version)
        board = await harness.open(f"/room/{done.id}?k={host.token}")
        before = median_build_ms(harness_screen(harness, board), repeat)
        await done.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=done.version)
        link = room_link(done)
        assert link is not None
        start = time.perf_counter()
        await draw_bgstats_qr(link)
        drawing = (time.perf_counter() - start) * 1000
        await harness.settle()
        after = median_build_ms(harness_screen(harness, board), repeat)
        print(f"6-player end screen build: {after:.2f} ms against {before:.2f} ms before the last action, ratio {after / before:.2f}; drawing its BG Stats QR code once ({len(link)} chars, off the event loop): {drawing:.0f} ms")
        await harness.aclose()
        host.close()


def timed(fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return (time.perf_counter() - start) * 1000


def harness_screen(harness: FletHarness, tab: object) -> object:
    """The BoardScreen behind a tab (the page session's current screen)."""
    import gc

    from views.board import BoardScreen

    page = tab.page  # type: ignore[attr-defined]
    return next(o for o in gc.get_objects() if isinstance(o, BoardScreen) and o.page is page)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    asyncio.run(main(parser.parse_args().repeat))
