"""A phone's secret entries of several steps, in real Chromium at 390x844 with real touch events,
in English, French and Russian: hold the pad, slide onto the first step (a Corruption card, a
Chicago Poker card's value), lift. The step is picked and the cards stay shown, with every control
of the steps that follow on the first screen, so taps finish the entry with no scrolling. Chicago
Poker's reinforcement entry fits the first screen too, "Send this card" included, and its play
buttons say their business's whole name; its face-down pad says what it does, and the entry names
the card made.

Pictures of each entry: `ENTRY_SHOTS=<dir>`.

Run: `uv run pytest tests/test_first_screen_entries_browser.py -q` (marker `browser`, Debian's
chromium)."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.harness.browser import WAIT_MS, enable_semantics, ident, launch
from tests.harness.server import RefereeServer, prepare_rooms
from tests.harness.touch import Finger, centre
from tests.test_chicago_poker_views import OPENING, SEED, cp_setup
from views.games.chicago_poker.pieces import PLAY_BUTTON_CHROME
from views.i18n import translator
from views.text_metrics import text_width

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LANGS = {"en": "en-US", "fr": "fr-FR", "ru": "ru-RU"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, dict[tuple[str, str], str]]]:
    """Per language (each browser is a new device, and a seat answers the first device that opens
    it): a Corruption seat to place its card, Chicago Poker's Ada to play her face-down card at the
    jazz club, and Bea to choose her reinforcement. The seats' paths by (entry, language)."""
    from tools.screenshots import chicago_poker, corruption

    data_dir = tmp_path_factory.mktemp("referee-entries")

    async def script(host: Any) -> dict[tuple[str, str], str]:
        paths = {}
        for lang in LANGS:
            scene, _ = await corruption(host)
            paths["corruption", lang] = f"/join/{scene.room}/{scene.seat_token}"
            room = await host.create_room("chicago_poker", cp_setup(), seed=SEED)
            for raw in OPENING:
                await room.submit(raw, channel="host", seat=None, based_on_version=room.version)
            assert room.view().phase == "actions" and room.view().current == 0
            paths["face-down", lang] = f"/join/{room.id}/{room.seats[0].token}"
            reinforcement, _ = await chicago_poker(host)
            paths["reinforcement", lang] = f"/join/{reinforcement.room}/{reinforcement.seat_token}"
        return paths

    paths = prepare_rooms(data_dir, script)
    with RefereeServer(data_dir) as server:
        yield server, paths


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = launch(pw)
        try:
            yield launched
        finally:
            launched.close()


def open_phone(browser: Any, server: RefereeServer, path: str, lang: str) -> tuple[Any, Any]:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE, locale=LANGS[lang], has_touch=True, is_mobile=True, device_scale_factor=1)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(server.url(path))
    enable_semantics(page)
    expect(ident(page, "hold-private")).to_be_visible(timeout=WAIT_MS)
    return context, page


def identifiers(page: Any, prefix: str) -> list[str]:
    """The accessibility nodes whose identifier starts with `prefix`, in page order."""
    found: list[str] = page.evaluate(
        "(prefix) => Array.from(document.querySelectorAll('[flt-semantics-identifier]'))"
        ".map(e => e.getAttribute('flt-semantics-identifier')).filter(i => i.startsWith(prefix))",
        prefix,
    )
    return list(dict.fromkeys(found))


def assert_on_first_screen(page: Any, names: list[str]) -> None:
    assert names, "nothing to measure"
    for name in names:
        box = ident(page, name).bounding_box()
        assert box is not None, name
        assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 0.5, f"{name} is below the fold: {box}"
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, f"{name} is off the side: {box}"


def settled_centre(page: Any, locator: Any) -> tuple[float, float]:
    """The centre of `locator` once it has stopped moving (the same box twice, 150 ms apart): a
    page still laying itself out moves the pad from under a finger put down on it."""
    from playwright.sync_api import expect

    expect(locator).to_be_visible()
    last = None
    for _ in range(40):
        box = locator.bounding_box()
        if box is not None and box == last:
            break
        last = box
        page.wait_for_timeout(150)
    return centre(locator)


def hold(finger: Finger, page: Any, shown_by: str) -> None:
    """Put the finger on the pad until the cards show (`shown_by` appears). A hold that showed
    nothing within 10 s (a loaded 2-core machine) is lifted and tried again, twice."""
    from playwright.sync_api import expect

    for attempt in range(3):
        finger.down(settled_centre(page, ident(page, "hold-private")))
        try:
            expect(ident(page, shown_by)).to_be_visible(timeout=10_000)
            return
        except AssertionError:
            finger.lift()
            if attempt == 2:
                raise


def hold_slide_lift(context: Any, page: Any, target: str, shown_by: str) -> None:
    """Hold the pad, slide onto `target`, lift: it is picked. Chromium on a loaded 2-core machine
    now and then cancels a drag just after it starts (the cards then hide and the player holds
    again): so does this, once."""
    from playwright.sync_api import expect

    finger = Finger(context, page)
    for attempt in range(2):
        hold(finger, page, shown_by)
        finger.slide(centre(ident(page, target)), steps=16)
        finger.lift()
        try:
            expect(ident(page, target)).to_have_attribute("aria-current", "true", timeout=10_000)
            return
        except AssertionError:
            if attempt:
                raise


def picture(page: Any, name: str) -> None:
    wanted = os.environ.get("ENTRY_SHOTS")
    if wanted:
        Path(wanted).mkdir(parents=True, exist_ok=True)
        page.wait_for_timeout(1000)  # the canvas paints after the accessibility tree
        page.screenshot(path=str(Path(wanted) / f"{name}.png"))


@pytest.mark.parametrize("lang", list(LANGS))
def test_corruption_card_then_its_place_in_one_screen(served: tuple[RefereeServer, dict[tuple[str, str], str]], browser: Any, lang: str) -> None:
    from playwright.sync_api import expect

    server, paths = served
    context, page = open_phone(browser, server, paths["corruption", lang], lang)
    finger = Finger(context, page)
    hold(finger, page, "card-choices")
    cards = [name for name in identifiers(page, "card-") if name != "card-choices"]
    finger.lift()
    expect(ident(page, "card-choices")).to_have_count(0)  # a lift on the pad hides the cards
    # a bribe: the most places (each body's Swiss account besides the contracts)
    bribe = next(name for name in cards if name.removeprefix("card-").isdigit())
    hold_slide_lift(context, page, bribe, shown_by="card-choices")
    # the card is picked and the cards stay shown: its places, under the pad, all in view
    places = identifiers(page, "loc-")
    assert {"loc-city_hall", "loc-county_seat", "loc-capitol"} <= set(places), places
    picture(page, f"corruption-{lang}")
    assert_on_first_screen(page, places)
    turn = ident(page, "your-turn")
    expect(turn).to_be_visible()
    page.mouse.click(*centre(ident(page, places[0])))
    expect(turn).to_have_count(0)  # placed: the turn has passed
    context.close()


@pytest.mark.parametrize("lang", list(LANGS))
def test_chicago_face_down_card_from_the_pad_in_one_screen(served: tuple[RefereeServer, dict[tuple[str, str], str]], browser: Any, lang: str) -> None:
    from playwright.sync_api import expect

    server, paths = served
    context, page = open_phone(browser, server, paths["face-down", lang], lang)
    tr = translator(lang)
    # the pad says what it does
    expect(page.get_by_text(tr.t("chicago_poker.ui.pad_enter_face_down"))).to_be_visible()
    facts = ident(page, "my-facts").text_content()
    hold_slide_lift(context, page, "value-5", shown_by="value-5")
    colours = [f"colour-c{n}" for n in range(1, 6)]
    plays = identifiers(page, "play-")
    plays.remove("play-card")
    assert plays, "no business to play at"
    picture(page, f"chicago-face-down-{lang}")
    assert_on_first_screen(page, [f"value-{n}" for n in range(1, 16)] + colours + plays)
    # each play button is wide enough for its business's whole name, in this language (a button
    # two to a row cut "Business 1 (brewery)" short)
    for name in plays:
        number = int(name.removeprefix("play-"))
        whole = tr.t("chicago_poker.ui.play_at", business=number, kind="jazz_club" if number == 1 else "speakeasy")
        expect(ident(page, name)).to_contain_text(whole)
        box = ident(page, name).bounding_box()
        assert box is not None
        # on as many lines as the button's width needs for it (a name cut short takes one);
        # Flutter lays the font out a few pixels narrower than Pillow measures it
        lines = math.ceil((text_width(whole, 17, bold=True) - 6) / (box["width"] - PLAY_BUTTON_CHROME + 4))
        assert box["height"] >= 16 + (lines * 17 + 15) * 1.1, f"{name} is too low for {whole!r} on {lines} line(s): {box}"
    page.mouse.click(*centre(ident(page, "colour-c3")))
    expect(ident(page, "colour-c3")).to_have_attribute("aria-current", "true")
    # the card is made: the entry names it
    made = tr.t("chicago_poker.ui.chosen", card=tr.t("chicago_poker.ui.card", value=5, colour="c3"))
    expect(ident(page, "play-card")).to_have_attribute("aria-label", re.compile(re.escape(made)))
    page.mouse.click(*centre(ident(page, "play-1")))
    expect(ident(page, "value-5")).to_have_count(0)  # accepted: the cards hide, one action fewer
    expect(ident(page, "my-facts")).not_to_have_text(facts or "")
    context.close()


@pytest.mark.parametrize("lang", list(LANGS))
def test_chicago_reinforcement_entry_in_one_screen(served: tuple[RefereeServer, dict[tuple[str, str], str]], browser: Any, lang: str) -> None:
    from playwright.sync_api import expect

    server, paths = served
    context, page = open_phone(browser, server, paths["reinforcement", lang], lang)
    hold_slide_lift(context, page, "value-7", shown_by="value-7")
    colours = [f"colour-c{n}" for n in range(1, 6)]
    picture(page, f"chicago-reinforcement-{lang}")
    assert_on_first_screen(page, [f"value-{n}" for n in range(1, 16)] + colours + ["reinforce-send"])
    page.mouse.click(*centre(ident(page, "colour-c2")))
    expect(ident(page, "colour-c2")).to_have_attribute("aria-current", "true")
    send = ident(page, "reinforce-send")
    expect(send).to_be_enabled()
    picture(page, f"chicago-reinforcement-ready-{lang}")
    assert_on_first_screen(page, ["reinforce-send"])  # where the finger goes next
    page.mouse.click(*centre(send))
    expect(ident(page, "value-7")).to_have_count(0)  # sent: accepted, the cards hide
    # both sent: the round waits for its reveal, and what it turns up and "I'm ready" are the
    # first thing on the phone (under the businesses they were a scroll away)
    expect(ident(page, "ready")).to_be_visible()
    picture(page, f"chicago-reinforcement-sent-{lang}")
    assert_on_first_screen(page, ["reveal-subject", "ready"])
    context.close()
