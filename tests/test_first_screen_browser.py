"""The first screen holds what the table does first (issue 31), in real Chromium:

- the host board at 1280 x 800, in every game with every seat count it allows: the table QR code
  decodes from a screenshot (whole, not cut by the seat list), "Undo last action" and "Export
  log" are inside the viewport;
- join help fits the screen (its Close button in view) on the tablet and on a 390 x 844 phone;
- the rooms page's cards wrap instead of running off the right edge;
- the setup form's refusal moves nothing (no layout shift).

One server with a room per game and seat count, one Chromium. Screenshots go to
$FIRST_SCREEN_SHOTS when set (to look at them).

Run: `uv run pytest -n 0 tests/test_first_screen_browser.py -q`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games import GAMES
from tests.harness.browser import BOARD_VIEWPORT, WAIT_MS, chromium, enable_semantics, ident
from tests.harness.qr import decode_qr
from tests.harness.server import RefereeServer, prepare_rooms

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
NAMES = ["Ada", "Bea", "Cyd", "Dov", "Eve", "Fay", "Gus"]
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange", "black"]
#: every game with every seat count it allows
CASES = [(game_id, n) for game_id in ("chicago_poker", "corruption", "vabanque", "reglement") for n in range(GAMES[game_id].min_players, GAMES[game_id].max_players + 1)]
SHOTS = os.environ.get("FIRST_SCREEN_SHOTS")


def shot(page: Any, name: str) -> bytes:
    png = page.screenshot()
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        (Path(SHOTS) / f"{name}.png").write_bytes(png)
    return png


def settle(page: Any) -> None:
    """When screenshots are kept: until the canvas has painted what the accessibility tree
    already holds (two pictures in a row the same)."""
    if not SHOTS:
        return
    previous = b""
    for _ in range(20):
        page.wait_for_timeout(300)
        picture = page.screenshot()
        if picture == previous:
            return
        previous = picture


def inside(box: dict[str, float] | None, viewport: dict[str, int]) -> bool:
    return box is not None and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= viewport["width"] and box["y"] + box["height"] <= viewport["height"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, dict[tuple[str, int], str]]]:
    data_dir = tmp_path_factory.mktemp("first-screen")

    async def script(host: Any) -> dict[tuple[str, int], str]:
        rooms = {}
        for game_id, n in CASES:
            players = [{"name": NAMES[i], "colour": COLOURS[i]} for i in range(n)]
            room = await host.create_room(game_id, {"players": players, "first_player": 0}, seed=31)
            rooms[game_id, n] = room.id
        return rooms

    rooms = prepare_rooms(data_dir, script)
    with RefereeServer(data_dir) as server:
        yield server, rooms


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def tablet_context(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=BOARD_VIEWPORT)
    context.set_default_timeout(WAIT_MS)
    yield context
    context.close()


@pytest.fixture
def tablet(tablet_context: Any) -> Iterator[Any]:
    """A tab of its own for each test: one tab going through the 21 boards one after another
    held each Flutter app's memory until its collector ran (its renderer grew from 0.2 to 1 GB),
    and in a CI run on 2 loaded cores a screenshot of the 18th board never came (30 s)."""
    page = tablet_context.new_page()
    yield page
    page.close()


def wait_for_qr(page: Any, name: str, prefix: str, timeout: float = 20.0, server: RefereeServer | None = None) -> str:
    """Screenshots until the room's table QR code decodes (the canvas paints a moment after the
    page's accessibility tree: the previous room's board may still be on screen)."""
    deadline = time.monotonic() + timeout
    texts: list[str] = []
    while True:
        png = shot(page, name)
        texts = decode_qr(png)
        if texts and texts[0].startswith(prefix):
            assert len(texts) == 1, texts
            return texts[0]
        if time.monotonic() > deadline:
            # what the page held, for the next time this happens (seen once in CI, on a loaded
            # machine, not reproduced here: the QR code's place and what was drawn around it)
            nodes = page.evaluate(
                "() => Array.from(document.querySelectorAll('[flt-semantics-identifier]')).map(e => { const r = e.getBoundingClientRect();"
                " return [e.getAttribute('flt-semantics-identifier'), Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; })"
            )
            # (seen twice in CI: the previous room's board still shown 20 s after the tab opened
            # this room's address, its own session reused; views/app.py on_connect since)
            said = [line for line in (server.output if server is not None else []) if "Traceback" in line or "ERROR" in line or "WARNING" in line][-10:]
            raise AssertionError(
                f"{name}: the table QR code could not be decoded from the board's 1280x800 screenshot (read: {texts}); address {page.url}; "
                f"server said {said}; {painted(png, page)}; page: {nodes}"
            )
        page.wait_for_timeout(200)


def painted(png: bytes, page: Any) -> str:
    """For a failure message: what the screenshot holds where the QR code's node is (seen once
    in CI with the right room's board and nothing decoded: not painted yet, covered, or cut)."""
    import io

    from PIL import Image

    box = ident(page, "table-qr").bounding_box()
    if box is None:
        return "no table-qr box"
    image = Image.open(io.BytesIO(png)).convert("L")
    region = image.crop((int(box["x"]), int(box["y"]), int(box["x"] + box["width"]), int(box["y"] + box["height"])))
    pixels = list(region.getdata())
    dark = sum(1 for p in pixels if p < 96) / max(1, len(pixels))
    light = sum(1 for p in pixels if p > 160) / max(1, len(pixels))
    return f"QR box {box}: {dark:.0%} dark and {light:.0%} light pixels (a painted QR code: about 35 / 60)"


@pytest.mark.parametrize(("game_id", "seats"), CASES)
def test_the_table_qr_code_undo_and_export_are_on_the_first_screen(game_id: str, seats: int, served: Any, tablet: Any) -> None:
    from playwright.sync_api import expect

    server, rooms = served
    room = rooms[game_id, seats]
    page = tablet
    page.goto(server.url(f"/room/{room}", k=server.host_token or ""))
    enable_semantics(page)
    expect(ident(page, f"seat-{seats - 1}")).to_be_attached()
    url = wait_for_qr(page, f"board-{game_id}-{seats}", f"{server.base}/table/{room}/", server=server)
    assert url == f"{server.base}/table/{room}/" + url.rsplit("/", 1)[1]
    undo = ident(page, "undo")
    expect(undo).to_be_visible()
    assert inside(undo.bounding_box(), BOARD_VIEWPORT), undo.bounding_box()
    export = page.get_by_role("button", name="Export log")
    assert inside(export.bounding_box(), BOARD_VIEWPORT), export.bounding_box()


@pytest.mark.parametrize("viewport", [BOARD_VIEWPORT, PHONE], ids=["tablet", "phone"])
def test_join_help_fits_the_screen_and_joins_by_the_table_qr_code(viewport: dict[str, int], served: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    server, rooms = served
    room = rooms["corruption", 7]
    context = browser.new_context(viewport=viewport)
    try:
        page = context.new_page()
        page.goto(server.url(f"/room/{room}", k=server.host_token or ""))
        enable_semantics(page)
        ident(page, "join-help").click()
        close = ident(page, "close-join-help")
        expect(close).to_be_visible()
        assert inside(close.bounding_box(), viewport), close.bounding_box()
        expect(ident(page, "join-qr")).to_be_attached()
        settle(page)
        shot(page, f"join-help-{viewport['width']}")
        close.click()
        expect(ident(page, "join-help-panel")).to_have_count(0)
    finally:
        context.close()


def test_rooms_page_cards_wrap_and_the_setup_refusal_moves_nothing(served: Any, tablet: Any) -> None:
    from playwright.sync_api import expect

    server, rooms = served
    page = tablet
    page.goto(server.url("/", k=server.host_token or ""))
    enable_semantics(page)
    expect(ident(page, "setup-game")).to_be_visible()
    cards = ident(page, "room-cards")
    expect(cards).to_be_visible()
    assert cards.bounding_box()["x"] + cards.bounding_box()["width"] <= BOARD_VIEWPORT["width"], cards.bounding_box()
    # the newest first: the first row's cards are whole, none past the right edge
    newest = list(rooms.values())[::-1]
    tops = []
    for room in newest[:4]:
        opened = ident(page, f"open-{room}")
        expect(opened).to_be_attached()
        box = opened.bounding_box()
        assert box is not None and box["x"] + box["width"] <= BOARD_VIEWPORT["width"], (room, box)
        tops.append(box["y"])
    assert max(tops[:3]) < tops[3] - 100, tops  # three to a row, the fourth wrapped under them
    assert inside(ident(page, f"open-{newest[0]}").bounding_box(), BOARD_VIEWPORT)
    settle(page)
    shot(page, "rooms")

    # two rows named alike: the refusal names the rows, and the form does not move
    for i, name in enumerate(["Ada", "Bea", "Ada"]):
        field = page.locator(f'input[aria-label="Name of player {i + 1}"]')
        field.click()
        field.fill(name)
    ident(page, "player-name-3").click()  # leave the third field: its words are drawn
    try:
        expect(page.get_by_text("Same name as row 3")).to_be_visible()
    finally:
        shot(page, "setup-twice")
    before = ident(page, "player-name-1").bounding_box(), ident(page, "create-room").bounding_box()
    ident(page, "create-room").click()
    expect(ident(page, "setup-error")).to_be_visible()
    expect(ident(page, "setup-error")).to_contain_text("rows 1 and 3")
    shot(page, "setup-refused")
    after = ident(page, "player-name-1").bounding_box(), ident(page, "create-room").bounding_box()
    assert before == after, (before, after)
