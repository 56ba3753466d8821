"""A Vabanque phone at twice the text size, in real Chromium against the real server: on a 360 px
phone, in Russian, the controls of a card turn (the pad, "Show my cards", the rule card) stay whole
and on screen. The pad's privacy itself (the secrets only while held or shown, in every game) is
tests/test_pad_browser.py's.

Run: `uv run pytest tests/test_phone_text_size_browser.py -q` (marker `browser`, Debian's chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import VABANQUE_SEED, vabanque_setup
from tests.harness.browser import WAIT_MS, device_script, enable_semantics, ident, launch
from tests.harness.server import RefereeServer, prepare_rooms

pytestmark = pytest.mark.browser

SEAT = 1
CHIPS = [2, 4, 6, 1, 7, 3, 5, 2, 4, 6, 1, 3]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, str, str]]:
    """A Vabanque room whose chips are placed: it waits for SEAT's first card."""
    data_dir = tmp_path_factory.mktemp("referee-peek")

    async def script(host: Any) -> tuple[str, str]:
        room = await host.create_room("vabanque", vabanque_setup(first_player=SEAT), seed=VABANQUE_SEED)
        for table in CHIPS:
            current = room.view().waiting_for[0]
            await room.submit({"type": "place_chip", "by": current, "table": table}, channel="host", seat=None, based_on_version=room.version)
        assert room.view().phase == "cards" and room.view().waiting_for == (SEAT,)
        return room.id, room.seats[SEAT].token

    room, token = prepare_rooms(data_dir, script)
    with RefereeServer(data_dir) as server:
        yield server, room, token


#: the browser's text size at 200 % (what a user's font-size setting does to the root font size);
#: Flutter's web engine reads it as the text scale factor, and Flet's texts grow with it
DOUBLE_TEXT = "document.addEventListener('DOMContentLoaded', () => { document.documentElement.style.fontSize = '32px'; });"
#: the controls a player needs on a card turn
ESSENTIAL = ("your-turn", "hold-private", "show-private", "rules")


def test_double_text_size_at_360_px_keeps_every_control_whole(served: tuple[RefereeServer, str, str]) -> None:
    """At 2x text on a 360 px phone, in Russian (the longest labels), the essential controls stay
    on screen, at least 48 px tall, and grow with their text instead of cutting it off."""
    from playwright.sync_api import expect, sync_playwright

    server, room, token = served
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            # tall enough that nothing needs scrolling: the width is what is being tested
            context = browser.new_context(viewport={"width": 360, "height": 1800}, locale="ru-RU")
            context.set_default_timeout(WAIT_MS)
            context.add_init_script(DOUBLE_TEXT)
            context.add_init_script(device_script(token))  # the seat's one phone in every test here
            page = context.new_page()
            page.goto(server.url(f"/join/{room}/{token}"))
            enable_semantics(page)
            expect(ident(page, "your-turn")).to_be_visible(timeout=WAIT_MS)
            expect(ident(page, "hold-private")).to_be_visible(timeout=WAIT_MS)
            assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "32px"
            boxes = {}
            for identifier in ESSENTIAL:
                node = ident(page, identifier)
                expect(node).to_have_count(1)
                box = node.bounding_box()
                assert box is not None, identifier
                boxes[identifier] = box
                assert box["x"] >= 0 and box["x"] + box["width"] <= 360 + 0.5, (identifier, box)
                assert box["height"] >= 48, (identifier, box)
            # Nothing a test or a screen reader can find sticks out on the right.
            overflow = page.evaluate("""() => [...document.querySelectorAll('[flt-semantics-identifier]')]
                .map((n) => [n.getAttribute('flt-semantics-identifier'), n.getBoundingClientRect().right])
                .filter(([, right]) => right > 360.5)""")
            assert overflow == [], overflow
            # The text really is doubled (34 px "Your turn" is about 72 px tall at 1x)...
            assert boxes["your-turn"]["height"] >= 100, boxes["your-turn"]
            # ...and the hold pad's long Russian label wraps onto several lines inside it: the pad
            # grew (at 1x it is about 90 px) rather than cutting its text off.
            assert boxes["hold-private"]["height"] >= 150, boxes["hold-private"]
        finally:
            browser.close()
