"""The Règlement host board opened on a phone: the long table cut into pieces that fit, tiles wide
enough to tap, the turn's buttons under the player's name; on a tablet, one table as before.

In process (the controls' geometry as sent to Flutter), and in headless Chromium (where Flutter
laid them out: nothing off the right edge of a 360 px screen). The browser test is marked
`browser` and needs Debian's /usr/bin/chromium.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import flet as ft
import pytest

from companion.games.reglement_board import default_board
from tests.harness.browser import PHONE_VIEWPORT, WAIT_MS, chromium, enable_semantics, ident
from tests.harness.flet_inprocess import FakeBrowser
from tests.harness.server import RefereeServer, prepare_rooms
from tests.test_reglement_views import PHONE, SEED, make_world, preset_setup
from views.app import LANG_KEY
from views.games.reglement.board import PHONE_TILE

SEATS = default_board().ids


def chair_geometry(tab: Any) -> dict[str, tuple[ft.Stack, float, float]]:
    """Seat id -> (the drawing piece it sits in, its left edge in it, its tile's width)."""
    out = {}
    for seat in SEATS:
        chair = tab.find(f"chair-{seat}")
        assert chair is not None, f"chair-{seat} missing: {tab.identifiers()}"
        placed = chair.parent
        piece = placed.parent
        assert isinstance(piece, ft.Stack), type(piece)
        out[seat] = (piece, float(placed.left), float(chair.content.width))
    return out


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
async def test_the_tablets_prompt_keeps_the_name_whole_in_every_language(lang: str, make_host: Any, harness_factory: Any) -> None:
    """On a 1280 px tablet the turn's buttons stand beside the player's name only where the
    three fit, measured in the app's font: in French they squeezed the name into a column of
    letters ("Yvet / te / joue"). The choice holds for the whole turn: the set-aside button's
    going does not move the table."""
    world = await make_world(make_host, harness_factory, f"prompt-{lang}")
    board = await world.harness.open(f"/room/{world.room.id}?k={world.host.token}", browser=FakeBrowser(f"tablet-{lang}", storage={LANG_KEY: lang}), name="board")
    prompt = board.find("prompt")
    assert prompt is not None and board.has("end-turn") and board.has("discard")
    if lang != "en":
        assert isinstance(prompt.content, ft.Column), f"{lang}: the buttons go under the name"
    layout = type(prompt.content)
    await board.click("card-pan")
    await board.click("chair-P")  # a card played: the set-aside button goes
    prompt = board.find("prompt")
    assert prompt is not None and not board.has("discard") and type(prompt.content) is layout


async def test_phone_board_cuts_the_table_into_pieces_that_fit(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "phone-board")
    board = await world.harness.open(f"/room/{world.room.id}?k={world.host.token}", name="board", **PHONE)
    geometry = chair_geometry(board)
    pieces = {id(piece): piece for piece, _left, _w in geometry.values()}
    assert len(pieces) > 1, "at 360 px the 15 seats a side need more than one piece"
    room = PHONE["width"] - 24  # the board page's padding
    for seat, (piece, left, width) in geometry.items():
        assert width >= PHONE_TILE, f"{seat}: a {width:.0f} px tile is too narrow to tap"
        assert piece.width <= room and left >= 0 and left + width <= piece.width + 0.01, (seat, left, width, piece.width)
    # facing seats stay straight across in the same piece (the ring reads piece by piece)
    for seat, opposite in (("#8", "#7"), ("A", "#2"), ("J", "K")):
        assert geometry[seat][0] is geometry[opposite][0] and geometry[seat][1] == geometry[opposite][1]
    # the turn's buttons sit under the name, not beside it, and still work like the seats
    prompt = board.find("prompt")
    assert isinstance(prompt.content, ft.Column) and "Yvette plays" in board.text(prompt)
    assert board.find("end-turn") is not None and board.find("discard") is not None
    await board.click("card-pan")
    version = world.room.version
    await board.click("chair-P")  # Yvette's Flingueur at E shoots Gaston's Lame at P
    assert world.room.version == version + 1
    assert "plays Pan!" in board.text()


async def test_tablet_board_keeps_one_table(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "tablet-board")
    board = await world.harness.open(f"/room/{world.room.id}?k={world.host.token}", name="board")
    geometry = chair_geometry(board)
    assert len({id(piece) for piece, _left, _w in geometry.values()}) == 1
    assert isinstance(board.find("prompt").content, ft.Row)


# --------------------------------------------------------------------------------------------
# in Chromium: nothing off the screen's edge
# --------------------------------------------------------------------------------------------

#: a node's rectangle on screen, or null when Flutter has not made its node
RECT_JS = """(id) => { const e = document.querySelector(`[flt-semantics-identifier="${id}"]`);
    if (!e) return null; const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; }"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, str]]:
    data_dir = tmp_path_factory.mktemp("reglement-phone-board")

    async def script(host: Any) -> str:
        room = await host.create_room("reglement", preset_setup(), seed=SEED)
        return room.id

    room = prepare_rooms(data_dir, script)
    server = RefereeServer(data_dir)
    server.start()
    try:
        yield server, room
    finally:
        server.stop()


@pytest.mark.browser
def test_phone_board_fits_the_screen_in_chromium(served: Any) -> None:
    from playwright.sync_api import expect

    server, room = served
    with chromium() as browser:
        context = browser.new_context(viewport=PHONE_VIEWPORT)
        context.set_default_timeout(WAIT_MS)
        try:
            page = context.new_page()
            page.goto(server.url(f"/room/{room}", k=server.host_token))
            enable_semantics(page)
            expect(ident(page, "end-turn")).to_be_attached()
            # the first piece of the table (the left end) is on screen under the prompt
            page.wait_for_function(f"() => ({RECT_JS})('chair-#7') !== null", timeout=WAIT_MS)
            # the prompt is a line of text and two buttons, not a column of letters
            prompt = page.evaluate(RECT_JS, "prompt")
            assert prompt["bottom"] - prompt["top"] < 260, prompt
            screen = PHONE_VIEWPORT["width"]
            for node in ("prompt", "end-turn", "discard", "bank", "chair-#8", "chair-#12", "chair-#7", "chair-#3"):
                rect = page.evaluate(RECT_JS, node)
                assert rect is not None, f"{node} not drawn"
                assert 0 <= rect["left"] and rect["right"] <= screen, f"{node} runs off the screen: {rect}"
            for chair in ("chair-#8", "chair-#12"):
                assert page.evaluate(RECT_JS, chair)["width"] >= PHONE_TILE
        finally:
            context.close()
