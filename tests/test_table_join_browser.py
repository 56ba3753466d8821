"""Real Chromium against the real server: one QR code for the table, and the end of a game.

Run: `uv run pytest tests/test_table_join_browser.py -q` (marker `browser`; needs Debian's
chromium at /usr/bin/chromium, else the tests FAIL: they are required in CI).

Room A is new: a phone scans the board's table QR code (decoded from a screenshot), picks a free
seat, the board announces it and closes that seat's QR dialog; after the first action the page
offers no seat; wrong or missing secrets get the plain invalid-link page; re-issuing the seat
asks first and signs the phone out. Room B is finished: standings on the board and the phones,
then "Play again" takes every phone to its seat in the new room without a scan.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import VABANQUE_PLAYERS, VABANQUE_SEED, vabanque_setup
from tests.harness.browser import BOARD_VIEWPORT, WAIT_MS, chromium, enable_semantics, ident
from tests.harness.server import RefereeServer, prepare_rooms
from tests.test_browser import wait_for_qr

pytestmark = pytest.mark.browser

PHONE_VIEWPORT = {"width": 390, "height": 844}
NAMES = [p["name"] for p in VABANQUE_PLAYERS]
SEAT = 1


@dataclass
class Served:
    server: RefereeServer
    fresh: str
    secret: str
    finished: str
    finished_tokens: list[str]
    places: dict[int, int]

    def url(self, path: str, **query: str) -> str:
        return self.server.url(path, **query)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    data_dir = tmp_path_factory.mktemp("referee-table")

    async def script(host: Any) -> tuple[str, str, str, list[str], dict[int, int]]:
        fresh = await host.create_room("vabanque", vabanque_setup(), seed=VABANQUE_SEED)
        done = await host.create_room("vabanque", vabanque_setup(), seed=VABANQUE_SEED + 1)
        rng = random.Random(5)
        while (action := done.game.random_action(done.state, rng)) is not None:
            await done.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=done.version)
        places = {row.seat: row.rank for row in done.game.standings(done.state)}
        return fresh.id, fresh.table.secret, done.id, [s.token for s in done.seats], places

    fresh, secret, finished, tokens, places = prepare_rooms(data_dir, script)
    with RefereeServer(data_dir) as server:
        yield Served(server, fresh, secret, finished, tokens, places)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def new_page(browser: Any, viewport: dict[str, int]) -> Any:
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(WAIT_MS)
    return context.new_page()


def open_at(page: Any, url: str) -> Any:
    page.goto(url)
    enable_semantics(page)
    return page


def test_one_scan_claims_a_free_seat_until_the_game_starts(served: Served, browser: Any) -> None:
    from playwright.sync_api import expect

    board = open_at(new_page(browser, BOARD_VIEWPORT), served.url(f"/room/{served.fresh}", k=served.server.host_token or ""))
    expect(ident(board, "table-qr")).to_be_visible()
    url, _png = wait_for_qr(board)  # the only QR code on the board: the table's
    assert url == served.url(f"/table/{served.fresh}/{served.secret}")
    # the host opens Bruno's own QR code meanwhile: the claim closes it
    ident(board, f"seat-{SEAT}").click()
    expect(ident(board, f"seat-qr-{SEAT}")).to_be_visible()

    phone = open_at(new_page(browser, PHONE_VIEWPORT), url)
    for seat in range(3):
        expect(ident(phone, f"claim-{seat}")).to_be_visible()
    ident(phone, f"claim-{SEAT}").click()
    expect(phone).to_have_url(re.compile(rf"/seat/{served.fresh}$"))
    expect(phone.get_by_text(NAMES[SEAT], exact=False).first).to_be_visible()
    expect(ident(phone, "rules")).to_be_visible()

    expect(ident(board, "notice")).to_contain_text(f"{NAMES[SEAT]} joined ✓")
    expect(ident(board, f"seat-qr-{SEAT}")).to_have_count(0)
    expect(ident(board, "close-qr")).to_have_count(0)

    # wrong or missing secret: the plain page, nothing of the room
    other = new_page(browser, PHONE_VIEWPORT)
    for path in (f"/table/{served.fresh}/{served.secret[:-2]}zz", f"/table/{served.fresh}"):
        open_at(other, served.url(path))
        expect(ident(other, "invalid-link")).to_be_visible()
        expect(other.get_by_text("Ask the host", exact=False)).to_be_visible()
        for name in NAMES:
            expect(other.get_by_text(name, exact=False)).to_have_count(0)

    # the first action (a chip, entered on the board for whoever starts): no seat offered any more
    ident(board, "table-1").click()
    expect(ident(board, "table-qr")).to_have_count(0)
    open_at(other, url)
    expect(ident(other, "table-started")).to_be_visible()
    expect(other.locator('[flt-semantics-identifier^="claim-"]')).to_have_count(0)
    other.context.close()

    # the host revokes Bruno's claim: asked first, then his phone is signed out and told how back
    ident(board, f"reissue-{SEAT}").click()
    expect(ident(board, "confirm-reissue")).to_be_visible()
    ident(board, "confirm-reissue-yes").click()
    expect(ident(phone, "signed-out")).to_be_visible()
    # how to get back in, and nothing of the game: not even whose seat it was
    expect(phone.get_by_text("ask the host to show your seat's QR code", exact=False)).to_be_visible()
    expect(phone.get_by_text(NAMES[SEAT], exact=False)).to_have_count(0)
    phone.context.close()
    board.context.close()


def test_standings_everywhere_then_play_again_moves_every_phone(served: Served, browser: Any) -> None:
    from playwright.sync_api import expect

    board = open_at(new_page(browser, BOARD_VIEWPORT), served.url(f"/room/{served.finished}", k=served.server.host_token or ""))
    expect(ident(board, "final-standings")).to_be_visible()
    for seat in range(3):
        expect(ident(board, f"standing-{seat}")).to_be_visible()
    expect(ident(board, "bgstats-qr")).to_be_visible()
    phones = {}
    for seat in (0, 2):
        page = open_at(new_page(browser, PHONE_VIEWPORT), served.url(f"/join/{served.finished}/{served.finished_tokens[seat]}"))
        place = {1: "1st", 2: "2nd", 3: "3rd"}[served.places[seat]]
        expect(ident(page, "my-place")).to_contain_text(f"You came {place}")
        expect(ident(page, "hold-private")).to_have_count(0)
        expect(ident(page, "show-private")).to_have_count(0)
        phones[seat] = page

    ident(board, "play-again").click()
    expect(board).to_have_url(re.compile(rf"/room/(?!{served.finished})[0-9a-f]{{6}}\?k="))
    following = re.search(r"/room/([0-9a-f]{6})", board.url).group(1)
    for seat, page in phones.items():
        expect(page).to_have_url(re.compile(rf"/seat/{following}$"))
        expect(ident(page, "my-place")).to_have_count(0)
        expect(ident(page, "rules")).to_be_visible()
        expect(page.get_by_text(NAMES[seat], exact=False).first).to_be_visible()
        # the phone's own storage holds the new seat: a fresh tab opens it with no token in the link
        fresh = open_at(page.context.new_page(), served.url(f"/seat/{following}"))
        expect(ident(fresh, "rules")).to_be_visible()
        expect(ident(fresh, "invalid-link")).to_have_count(0)
        fresh.close()
    # the new board sees both phones in their seats
    for seat in phones:
        expect(ident(board, f"seat-{seat}")).to_have_attribute("aria-label", re.compile(r"(?<!dis)connected"))
    for page in [board, *phones.values()]:
        page.context.close()


def test_the_rooms_page_fits_a_390_px_phone(served: Served, browser: Any) -> None:
    """The host's rooms page on a phone: its header (Join help, language) and every room's Open
    button lie inside the screen, none cut off at the right edge."""
    from playwright.sync_api import expect

    page = open_at(new_page(browser, PHONE_VIEWPORT), served.url("/", k=served.server.host_token or ""))
    width = PHONE_VIEWPORT["width"]
    for identifier in ("join-help", f"open-{served.fresh}", f"open-{served.finished}"):
        control = ident(page, identifier)
        control.scroll_into_view_if_needed()
        expect(control).to_be_visible()
        box = control.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (identifier, box)
    page.context.close()
