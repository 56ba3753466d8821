"""Vabanque's ring of tables keeps its place and size in every phase on a 1280 x 800 tablet
(issue #15: the ring shrank by 40 % when the move buttons appeared, and the reveal panel pushed
tables 5-6 below the screen's bottom edge).

One game (the same players, seed and random play) is stopped in each phase, a room for each:
chips, cards, moves (the board's move buttons), reveal (its Reveal button) and payout (its
steps). In real Chromium, each table tile's box (`table-N`) is read from the accessibility
tree; every phase must draw the same boxes, every tile wholly inside the window, and the
phase's own controls beside the ring, never over or above it.

Run: `uv run pytest tests/test_vabanque_layout_browser.py -q -s` (`-s` prints the boxes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.harness.browser import BOARD_VIEWPORT, chromium
from tests.harness.server import RefereeServer, prepare_rooms
from tests.test_accessibility_browser import open_page, settled_nodes
from tools.screenshots import play_randomly_until

pytestmark = pytest.mark.browser

PLAYERS = [("Adriano", "red"), ("Benedetta", "blue"), ("Carlotta", "green"), ("Dmitri", "yellow")]
#: each phase: when the random game stops, and the board's control that shows the phase is drawn
PHASES: dict[str, tuple[Any, str | None]] = {
    "chips": (lambda room: room.view().phase == "chips" and room.state.step >= 5, None),
    "cards": (lambda room: room.view().phase == "cards" and room.state.step >= 5, None),
    "moves": (lambda room: room.view().phase == "moves" and room.state.step >= 1, "move-0"),
    "reveal": (lambda room: room.view().phase == "reveal", "reveal"),
    "payout": (lambda room: room.view().phase == "payout", "step-next"),
}
TABLE_ID = re.compile(r"^table-(\d+)$")


@pytest.fixture(scope="module")
def rooms(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, dict[str, str]]]:
    data_dir = tmp_path_factory.mktemp("vabanque-layout")
    setup = {"players": [{"name": n, "colour": c} for n, c in PLAYERS], "first_player": 0}

    async def script(host: Any) -> dict[str, str]:
        out = {}
        for phase, (reached, _control) in PHASES.items():
            room = await host.create_room("vabanque", setup, seed=7)
            await play_randomly_until(room, lambda room=room, reached=reached: reached(room), seed=5)
            out[phase] = room.id
        return out

    ids = prepare_rooms(data_dir, script)
    server = RefereeServer(data_dir)
    server.start()
    try:
        yield server, ids
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def boxes_of(browser: Any, server: RefereeServer, room: str, control: str | None) -> tuple[dict[int, tuple[float, ...]], list[dict[str, Any]]]:
    """The board's table tiles ({number: (x, y, w, h)}) once the phase's control is drawn, and
    every node of the page."""
    page = open_page(browser, server.url(f"/room/{room}", k=server.host_token or ""), BOARD_VIEWPORT, PLAYERS[0][0])
    try:
        for _ in range(3):
            nodes = settled_nodes(page)
            if control is None or any(n["id"] == control for n in nodes):
                break
        tiles = {int(m.group(1)): (n["x"], n["y"], n["w"], n["h"]) for n in nodes if (m := TABLE_ID.match(n["id"]))}
        return tiles, nodes
    finally:
        page.context.close()


def test_the_ring_keeps_its_place_and_size_in_every_phase(rooms: tuple[RefereeServer, dict[str, str]], browser: Any) -> None:
    server, ids = rooms
    seen: dict[str, dict[int, tuple[float, ...]]] = {}
    for phase, (_reached, control) in PHASES.items():
        tiles, nodes = boxes_of(browser, server, ids[phase], control)
        print(f"\n{phase}: " + "  ".join(f"{n}:{x:.0f},{y:.0f} {w:.0f}x{h:.0f}" for n, (x, y, w, h) in sorted(tiles.items())))
        assert sorted(tiles) == list(range(1, 10)), (phase, sorted(tiles))  # four players: nine tables
        # wholly in the window: none pushed below its bottom edge (nor cut by it)
        outside = [n for n, (x, y, w, h) in tiles.items() if x < 0 or y < 0 or x + w > BOARD_VIEWPORT["width"] or y + h > BOARD_VIEWPORT["height"]]
        assert not outside, f"{phase}: tables {outside} are not wholly on the screen: {tiles}"
        # the tablet's tokens stay 40 px: a tile that holds them is at least twice that
        assert min(w for _x, _y, w, _h in tiles.values()) >= 100, (phase, tiles)
        if control is not None:
            # the phase's controls are drawn, beside the ring (right of every tile), not over it
            ring_right = max(x + w for x, _y, w, _h in tiles.values())
            found = [n for n in nodes if n["id"] == control]
            assert found, f"{phase}: no {control!r} on the board"
            assert all(n["x"] >= ring_right for n in found), (phase, control, found, ring_right)
        seen[phase] = tiles
    first = seen["chips"]
    for phase, tiles in seen.items():
        moved = {n: (first[n], box) for n, box in tiles.items() if any(abs(a - b) > 0.5 for a, b in zip(first[n], box, strict=True))}
        assert not moved, f"{phase}: tables moved or changed size since the chips phase: {moved}"
