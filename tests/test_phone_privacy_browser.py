"""The hold-to-peek privacy of a phone, in real Chromium against the real server: the seat's cards
are neither in the page's accessibility tree nor in anything the server sent while the pad is not
held; they are there while it is held, and gone again after the release, or a lift after sliding
off every choice.
The phone also buzzes once (navigator.vibrate, spied on) as its turn starts.

Run: `uv run pytest tests/test_phone_privacy_browser.py -q` (marker `browser`, Debian's chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import VABANQUE_SEED, vabanque_setup
from tests.harness.browser import PHONE_VIEWPORT, WAIT_MS, device_script, enable_semantics, ident, launch
from tests.harness.flet_inprocess import decode_frames, strings_in
from tests.harness.server import RefereeServer, prepare_rooms

pytestmark = pytest.mark.browser

SEAT = 1
CHIPS = [2, 4, 6, 1, 7, 3, 5, 2, 4, 6, 1, 3]
CARD_NAMES = ("Raise", "Bluff", "Cheat")
#: Flutter's web engine turns HapticFeedback.vibrate into navigator.vibrate(50): count the calls.
VIBRATE_SPY = """
window.__vibrations = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true,
  value: function (pattern) { window.__vibrations.push(pattern); return true; },
});
"""
#: everything a screen reader can read: the semantics tree's text and labels, and announcements
PAGE_TEXT = """() => {
  const parts = [];
  for (const root of document.querySelectorAll("flt-semantics-host, flt-announcement-host")) {
    parts.push(root.textContent);
    root.querySelectorAll("[aria-label]").forEach((node) => parts.push(node.getAttribute("aria-label")));
  }
  return parts.join("\\n");
}"""


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


def names_in(text: str) -> set[str]:
    return {name for name in CARD_NAMES if name in text}


def names_sent(frames: list[bytes], since: int = 0) -> set[str]:
    strings = [s for frame in decode_frames(frames[since:]) for s in strings_in(frame)]
    return {name for name in CARD_NAMES if any(name in s for s in strings)}


def test_cards_only_while_held(served: tuple[RefereeServer, str, str]) -> None:
    from playwright.sync_api import expect, sync_playwright

    server, room, token = served
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            context = browser.new_context(viewport=PHONE_VIEWPORT, locale="en-US", has_touch=True)
            context.add_init_script(device_script(token))  # the seat's one phone in every test here
            context.set_default_timeout(WAIT_MS)
            context.add_init_script(VIBRATE_SPY)
            page = context.new_page()
            frames: list[bytes] = []
            page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(data) if isinstance(data, bytes) else None))
            page.goto(server.url(f"/join/{room}/{token}"))
            enable_semantics(page)
            expect(ident(page, "your-turn")).to_be_visible(timeout=WAIT_MS)
            pad = ident(page, "hold-private")
            expect(pad).to_be_visible(timeout=WAIT_MS)
            expect(page.get_by_text("Hold here to see your cards")).to_be_visible()

            # Not held: no card in the page's text, nor in a single frame the server sent.
            assert frames, "no websocket frame was captured: the check below would prove nothing"
            assert names_in(page.evaluate(PAGE_TEXT)) == set()
            assert names_sent(frames) == set()
            expect(ident(page, "card-raise")).to_have_count(0)

            # The turn started as the page opened: one short vibration.
            page.wait_for_function("window.__vibrations.length >= 1", timeout=WAIT_MS)

            box = pad.bounding_box()
            assert box is not None and box["height"] >= 48 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE_VIEWPORT["width"]
            centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

            touch = context.new_cdp_session(page)

            def finger(kind: str, x: float, y: float) -> None:
                points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
                touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

            for ending in ("release", "slide off", "touch release"):
                mark = len(frames)
                if ending.startswith("touch"):
                    finger("touchStart", *centre)
                else:
                    page.mouse.move(*centre)
                    page.mouse.down()
                expect(ident(page, "card-raise")).to_be_visible(timeout=WAIT_MS)  # held: the cards are there
                expect(page.get_by_text("Let go to hide your cards")).to_be_visible()
                assert names_in(page.evaluate(PAGE_TEXT)) == set(CARD_NAMES), ending
                assert names_sent(frames, mark) == set(CARD_NAMES), ending
                held_upto = len(frames)
                if ending == "slide off":  # the finger slides off every choice: hidden as it lifts
                    page.mouse.move(centre[0], centre[1] + 200, steps=8)
                    page.mouse.up()
                    expect(ident(page, "card-raise")).to_have_count(0, timeout=WAIT_MS)
                else:
                    if ending.startswith("touch"):
                        finger("touchEnd", *centre)  # a real touch: the page's scroller also bids for it
                    else:
                        page.mouse.up()
                    expect(ident(page, "card-raise")).to_have_count(0, timeout=WAIT_MS)
                expect(page.get_by_text("Hold here to see your cards")).to_be_visible()
                assert names_in(page.evaluate(PAGE_TEXT)) == set(), ending
                # what hid them removed controls by id: no card name travelled again
                assert len(frames) > held_upto and names_sent(frames, held_upto) == set(), ending

            # Redraws within the same turn did not buzz again.
            assert page.evaluate("window.__vibrations") == [50]
        finally:
            browser.close()


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
