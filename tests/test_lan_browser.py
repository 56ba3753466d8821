"""The app reached by a name, as phones on the LAN reach it: not a secure context.

Loopback (127.0.0.1, localhost) is a secure context for Chromium; a LAN address is not, so
features that need one (clipboard, service workers, ...) silently differ. Here Chromium maps
`table-host.test` to 127.0.0.1 (`--host-resolver-rules`, tests/harness/browser.py `hosts=`), the
server names that address in its links (`--public-url`), and the board, a seat joined from the
board's QR code, and the check page all work through it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from companion.network import CAUSES
from tests.conftest import VABANQUE_PLAYERS, VABANQUE_SEED, vabanque_setup
from tests.harness.browser import BOARD_VIEWPORT, PHONE_VIEWPORT, chromium, enable_semantics, ident
from tests.harness.qr import decode_qr
from tests.harness.server import RefereeServer, free_port, prepare_rooms
from views.i18n import translator

pytestmark = pytest.mark.browser

NAME = "table-host.test"
SEAT = 1
SEAT_NAME = VABANQUE_PLAYERS[SEAT]["name"]
TABLE = 3


@pytest.fixture(scope="module")
def lan(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, str, str, list[str]]]:
    data_dir = tmp_path_factory.mktemp("referee-lan")

    async def script(host: Any) -> tuple[str, list[str]]:
        # Bruno starts: his phone places the first chip.
        room = await host.create_room("vabanque", vabanque_setup(first_player=SEAT), seed=VABANQUE_SEED)
        return room.id, [s.token for s in room.seats]

    room, tokens = prepare_rooms(data_dir, script)
    port = free_port()
    public = f"http://{NAME}:{port}"
    with RefereeServer(data_dir, port, public_url=public) as server:
        yield server, public, room, tokens


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(hosts={NAME: "127.0.0.1"}) as launched:
        yield launched


def qr_codes_painted(page: Any, expected: dict[str, str], timeout: float = 30.0) -> bool:
    """Screenshots until every expected QR code (its identifier -> the text it must hold)
    decodes, each read from the page's picture cropped to its own node with a margin, as a camera
    held over it would (images paint a moment after their semantics node exists). On a timeout
    the message says where each node was and what the whole page and each crop held."""
    deadline = time.monotonic() + timeout
    found: dict[str, list[str]] = {}
    while True:
        shot = page.screenshot()
        for identifier, text in expected.items():
            if text in found.get(identifier, ()):
                continue
            box = ident(page, identifier).bounding_box()
            if box is None:
                continue
            margin = 24
            clip = {"x": max(0, box["x"] - margin), "y": max(0, box["y"] - margin), "width": box["width"] + 2 * margin, "height": box["height"] + 2 * margin}
            found[identifier] = decode_qr(page.screenshot(clip=clip))
        if all(text in found.get(identifier, ()) for identifier, text in expected.items()):
            return True
        if time.monotonic() > deadline:
            boxes = {identifier: ident(page, identifier).bounding_box() for identifier in expected}
            raise AssertionError(f"QR codes not read: crops read {found}, the whole page {decode_qr(shot)}; nodes {boxes}; viewport {page.viewport_size}; expected {expected}")
        page.wait_for_timeout(200)


def table_secret(server: RefereeServer, room: str) -> str:
    """The room's table QR code secret, read from the running server's store."""
    from companion.store import Store

    store = Store(server.data_dir / "referee.sqlite3")
    try:
        link = store.table_link(room)
    finally:
        store.close()
    assert link is not None
    return link.secret


def not_secure_at(page: Any, public: str) -> None:
    assert page.evaluate("location.origin") == public
    assert page.evaluate("window.isSecureContext") is False


def test_board_and_seat_work_through_a_lan_name(lan: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    server, public, room, tokens = lan
    tablet = browser.new_context(viewport=BOARD_VIEWPORT)
    phone = browser.new_context(viewport=PHONE_VIEWPORT)
    try:
        board = tablet.new_page()
        board.goto(f"{public}/room/{room}?k={server.host_token}")
        enable_semantics(board)
        expect(ident(board, f"seat-{SEAT}")).to_be_visible()
        not_secure_at(board, public)

        # Join help names the address phones use.
        ident(board, "join-help").click()
        expect(ident(board, "join-help-panel")).to_be_visible()
        expect(ident(board, "join-address")).to_contain_text(public)
        expect(ident(board, "check-address")).to_contain_text(f"{public}/check")
        # Its QR codes paint on this page, which is not a secure context (they are SVG: no
        # raster image paints there, see views/common.py qr_svg).
        # (on a room's board, its join QR code is the table's: phones pick a free seat)
        secret = table_secret(server, room)
        assert qr_codes_painted(board, {"join-qr": f"{public}/table/{room}/{secret}", "check-qr": f"{public}/check"})
        ident(board, "close-join-help").click()
        expect(ident(board, "join-help-panel")).to_have_count(0)

        # The seat's QR code paints on this page too and names the LAN address; the phone
        # opens the link it encodes and claims the seat.
        ident(board, f"seat-{SEAT}").click()
        expect(ident(board, f"seat-qr-{SEAT}")).to_be_visible()
        url = f"{public}/join/{room}/{tokens[SEAT]}"
        assert qr_codes_painted(board, {f"seat-qr-{SEAT}": url})
        page = phone.new_page()
        page.goto(url)
        enable_semantics(page)
        expect(page.get_by_text(SEAT_NAME, exact=False).first).to_be_visible()
        expect(ident(page, "your-turn")).to_be_visible()
        assert page.evaluate("location.pathname") == f"/seat/{room}"
        not_secure_at(page, public)
        # the seat token was stored on the phone even without a secure context
        assert page.evaluate("Object.keys(localStorage).some(k => k.includes('referee.seat.'))")

        # The seat plays: its chip reaches the board.
        expect(ident(board, "notice")).to_contain_text(f"{SEAT_NAME} joined ✓")
        expect(ident(board, "close-qr")).to_have_count(0)  # the seat's QR code closed by itself
        ident(page, f"seat-table-{TABLE}").click()
        expect(ident(page, "your-turn")).to_have_count(0)
        # the tile's name holds its number and total; its text nodes are the pawns standing on it
        total = translator("en").t("vabanque.table_total", total=5)
        expect(ident(board, f"table-{TABLE}")).to_have_accessible_name(re.compile(re.escape(total) + "$"))
    finally:
        tablet.close()
        phone.close()


def test_check_page_renders_through_a_lan_name(lan: Any, browser: Any) -> None:
    server, public, _room, _tokens = lan
    # A French phone: the page follows Accept-Language.
    phone = browser.new_context(viewport=PHONE_VIEWPORT, locale="fr-FR", java_script_enabled=False)
    try:
        page = phone.new_page()
        response = page.goto(f"{public}/check")
        assert response is not None and response.status == 200
        tr = translator("fr")
        assert page.locator("#reached").inner_text().endswith(tr.t("lan.check.title"))
        body = page.locator("body").inner_text()
        assert tr.t("lan.check.host", address=public) in body
        assert tr.t("lan.check.phone", address="127.0.0.1") in body
        assert page.locator("#causes li").count() == len(CAUSES)
        assert page.locator("#open-game").get_attribute("href") == f"{public}/"
    finally:
        phone.close()
