"""Languages per device, in real Chromium: a phone whose browser prefers Russian opens its seat in
Russian with nothing stored; the tablet is switched to French through its language menu; both
play the same game, each in its own language.

Run: `uv run pytest tests/test_language_browser.py -q` (marker `browser`, Debian's chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import VABANQUE_PLAYERS, VABANQUE_SEED, vabanque_setup
from tests.harness.browser import BOARD_VIEWPORT, PHONE_VIEWPORT, WAIT_MS, enable_semantics, ident, launch
from tests.harness.server import RefereeServer, prepare_rooms
from views.i18n import translator

pytestmark = pytest.mark.browser

RU, FR, EN = translator("ru"), translator("fr"), translator("en")
NAMES = [p["name"] for p in VABANQUE_PLAYERS]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, str, list[str]]]:
    data_dir = tmp_path_factory.mktemp("referee-lang")

    async def script(host: Any) -> tuple[str, list[str]]:
        room = await host.create_room("vabanque", vabanque_setup(first_player=0), seed=VABANQUE_SEED)
        return room.id, [s.token for s in room.seats]

    room, tokens = prepare_rooms(data_dir, script)
    with RefereeServer(data_dir) as server:
        yield server, room, tokens


def test_phone_in_russian_by_default_and_board_in_french_by_choice(served: tuple[RefereeServer, str, list[str]]) -> None:
    from playwright.sync_api import expect, sync_playwright

    server, room, tokens = served
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            # The phone: a Russian browser, nothing stored on it.
            phone_context = browser.new_context(viewport=PHONE_VIEWPORT, locale="ru-RU")
            phone_context.set_default_timeout(WAIT_MS)
            phone = phone_context.new_page()
            phone.goto(server.url(f"/join/{room}/{tokens[0]}"))
            enable_semantics(phone)
            expect(ident(phone, "your-turn")).to_contain_text(RU.t("ui.your_turn"), timeout=WAIT_MS)
            expect(phone.get_by_text(RU.t("ui.peek_hold"), exact=False)).to_be_visible(timeout=WAIT_MS)
            assert phone.evaluate("localStorage.getItem('flutter.referee.lang')") is None  # followed, not stored

            # The tablet: an English browser, switched to French in the language menu.
            tablet_context = browser.new_context(viewport=BOARD_VIEWPORT, locale="en-US")
            tablet_context.set_default_timeout(WAIT_MS)
            board = tablet_context.new_page()
            board.goto(server.url("/", k=server.host_token))
            enable_semantics(board)
            expect(board.get_by_text(EN.t("ui.host_board"))).to_be_visible(timeout=WAIT_MS)
            choose_language(board, "Français")
            expect(board.get_by_text(FR.t("ui.host_board"))).to_be_visible(timeout=WAIT_MS)
            # The room's board, opened afterwards on the tablet, is French too (the choice is stored).
            board.goto(server.url(f"/room/{room}", k=server.host_token))
            enable_semantics(board)
            expect(board.get_by_text(FR.t("ui.host_board"))).to_be_visible(timeout=WAIT_MS)
            expect(board.get_by_text(EN.t("ui.host_board"))).to_have_count(0)

            # The host enters the first chip for the phone's player (the board acts for the current
            # player): the phone is redrawn, still in Russian, now waiting for the next player.
            ident(board, "table-2").click()
            waiting = RU.t("ui.waiting_for", NAMES, seats=[1])
            expect(phone.get_by_text(waiting)).to_be_visible(timeout=WAIT_MS)
            expect(phone.get_by_text(FR.t("ui.waiting_for", NAMES, seats=[1]))).to_have_count(0)
            expect(board.get_by_text(FR.t("ui.host_board"))).to_be_visible()
            # (the storage key checked on the phone above is the one a choice really writes)
            assert "fr" in (board.evaluate("localStorage.getItem('flutter.referee.lang')") or "")
        finally:
            browser.close()


def choose_language(page: Any, name: str) -> None:
    """Open the language menu and pick the language called `name` (in its own language: "Français").
    The menu is the header's dropdown: the first one on the home page, and the only one there
    without a test identifier."""
    from playwright.sync_api import expect

    menu = page.locator("[aria-expanded]:not([flt-semantics-identifier])").first
    expect(menu).to_be_visible(timeout=WAIT_MS)
    option = page.get_by_role("button", name=name, exact=True)
    for _attempt in range(3):  # a tap landing during a redraw is dropped: open it until it shows
        menu.click()
        try:
            expect(option).to_be_visible(timeout=5000)
            break
        except AssertionError:
            continue
    option.click()
