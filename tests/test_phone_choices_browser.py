"""A phone's secret choice, in real Chromium at 390x844 (a common phone): the card buttons are one
size and in fixed places whatever their names in the language (Russian "Повышение" beside "Блеф"
made the first twice as wide, so the finger's place told the card), a tap leaves no trace on the
tapped one beyond the owner's ring, and every casino table of the table picker is on screen
without scrolling.

Run: `uv run pytest tests/test_phone_choices_browser.py -q` (marker `browser`, Debian's chromium)."""

from __future__ import annotations

import io
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import VABANQUE_SEED
from tests.harness.browser import WAIT_MS, enable_semantics, ident, launch
from tests.harness.server import RefereeServer, prepare_rooms
from views.common import SECRET_FACE
from views.i18n import translator

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 390, "height": 844}
SEAT = 1
#: the largest game: six players, twelve tables (the most a table picker shows)
PLAYERS = [{"name": n, "colour": c} for n, c in zip(("Анастасия", "Bruno", "Élodie", "Dmitri", "Hugo", "Yvonne"), ("red", "blue", "green", "yellow", "purple", "orange"))]
CARDS = ("raise", "bluff", "cheat")
LOCALES = {"en": "en-US", "fr": "fr-FR", "ru": "ru-RU"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, dict[str, str], str, int]]:
    """Vabanque rooms waiting for SEAT's first card (one per language: each test's browser is
    another device, and a seat taken by one device is not opened on another), and one waiting
    for SEAT's first chip."""
    data_dir = tmp_path_factory.mktemp("referee-choices")

    async def script(host: Any) -> tuple[dict[str, str], str, int]:
        setup = {"players": PLAYERS, "first_player": SEAT}
        card_paths = {}
        for lang in LOCALES:
            cards = await host.create_room("vabanque", setup, seed=VABANQUE_SEED)
            while cards.view().phase == "chips":
                current = cards.view().waiting_for[0]
                await cards.submit({"type": "place_chip", "by": current, "table": 1 + cards.version % 12}, channel="host", seat=None, based_on_version=cards.version)
            assert cards.view().phase == "cards" and cards.view().waiting_for == (SEAT,)
            assert len(cards.view().tables) == 12
            card_paths[lang] = f"/join/{cards.id}/{cards.seats[SEAT].token}"
        chips = await host.create_room("vabanque", setup, seed=VABANQUE_SEED)
        assert chips.view().phase == "chips" and chips.view().waiting_for == (SEAT,)
        return card_paths, f"/join/{chips.id}/{chips.seats[SEAT].token}", len(chips.view().tables)

    card_paths, chips_path, tables = prepare_rooms(data_dir, script)
    with RefereeServer(data_dir) as server:
        yield server, card_paths, chips_path, tables


def boxes(page: Any, names: list[str]) -> dict[str, dict[str, float]]:
    out = {}
    for name in names:
        box = ident(page, name).bounding_box()
        assert box is not None, name
        out[name] = box
    return out


def crop(png: bytes, box: dict[str, float], inset: float) -> bytes:
    """The pixels inside `box` less `inset` px on every side (the ring is the owner's mark)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    area = (round(box["x"] + inset), round(box["y"] + inset), round(box["x"] + box["width"] - inset), round(box["y"] + box["height"] - inset))
    return image.crop(area).tobytes()


def settled_screenshot(page: Any, attempts: int = 40) -> bytes:
    """A screenshot once the canvas has stopped changing (two in a row alike): the accessibility
    tree can be ahead of the painted frame on a loaded machine."""
    last = page.screenshot()
    for _ in range(attempts):
        shot = page.screenshot()
        if shot == last:
            return shot
        last = shot
    raise AssertionError("the page never stopped changing")


def untouched_screenshot(page: Any, cards: dict[str, dict[str, float]], seconds: float = 5.0) -> bytes:
    """The reference picture: a settled screenshot in which every card shows its plain face
    inside (with the pointer off them). Twice in CI a card still showed a lighter shade left by
    the "show" tap when the picture was taken; the shade is no part of what is tested (a trace
    of the tap on a card), so it is waited out, bounded."""
    from PIL import Image

    face = tuple(int(SECRET_FACE[i : i + 2], 16) for i in (1, 3, 5))
    deadline = time.monotonic() + seconds
    while True:
        page.mouse.move(1, 1)
        shot = settled_screenshot(page)
        image = Image.open(io.BytesIO(shot)).convert("RGB")
        if all(image.getpixel((round(b["x"] + 11), round(b["y"] + 11))) == face for b in cards.values()) or time.monotonic() > deadline:
            return shot
        page.wait_for_timeout(200)


def ringed(page: Any, box: dict[str, float], unpicked: bytes, attempts: int = 40) -> bytes:
    """A settled screenshot once the card in `box` looks other than in `unpicked` (its ring is
    drawn: the redraw after the pick has been painted)."""
    for _ in range(attempts):
        shot = settled_screenshot(page)
        if crop(shot, box, 0) != crop(unpicked, box, 0):
            return shot
    raise AssertionError(f"no ring was drawn on the picked card at {box}")


def open_phone(browser: Any, server: RefereeServer, path: str, lang: str) -> Any:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=VIEWPORT, locale=LOCALES[lang], has_touch=True, is_mobile=True, device_scale_factor=1)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto(server.url(path))
    enable_semantics(page)
    expect(ident(page, "your-turn")).to_be_visible(timeout=WAIT_MS)
    return page


@pytest.mark.parametrize("lang", ["ru", "fr", "en"])
def test_card_buttons_are_one_size_in_fixed_places(served: tuple[RefereeServer, dict[str, str], str, int], lang: str) -> None:
    from playwright.sync_api import expect, sync_playwright

    server, card_paths, _chips, tables = served
    tr = translator(lang)
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = open_phone(browser, server, card_paths[lang], lang)
            ident(page, "show-private").tap()
            names = [f"card-{c}" for c in CARDS]
            for name in names:
                expect(ident(page, name)).to_be_visible(timeout=WAIT_MS)
            for card in CARDS:  # the labels are this language's, whole (not cut off)
                expect(ident(page, f"card-{card}")).to_contain_text(tr.t(f"vabanque.card.{card}"))
            before = boxes(page, names)
            sizes = {(round(b["width"], 1), round(b["height"], 1)) for b in before.values()}
            assert len(sizes) == 1, before  # one size, whatever the label
            width, height = sizes.pop()
            assert width >= 48 and height >= 48
            assert len({round(b["y"], 1) for b in before.values()}) == 1  # one row
            lefts = sorted(b["x"] for b in before.values())
            assert lefts[1] - lefts[0] == pytest.approx(lefts[2] - lefts[1], abs=0.5)  # even steps
            assert all(b["x"] >= 0 and b["x"] + b["width"] <= VIEWPORT["width"] for b in before.values())
            # the pointer off the cards first: the "show" tap above left it where a card now is, and
            # a picture taken with it there may hold that card's hover shade (seen once in CI)
            shot = untouched_screenshot(page, before)

            # A tap (a finger, as on a phone): the picked card is ringed for its owner; nothing
            # else changes on it (no ink, hover or focus overlay) and the buttons keep their places.
            picked = page.get_by_text(tr.t("vabanque.pick_table_hidden"))
            for _attempt in range(3):  # a tap landing during a redraw is dropped: tap until it took
                ident(page, "card-bluff").tap()
                try:
                    expect(picked).to_be_visible(timeout=WAIT_MS // 3)
                    break
                except AssertionError:
                    continue
            expect(picked).to_be_visible(timeout=WAIT_MS)
            expect(ident(page, "seat-table-1")).to_be_visible(timeout=WAIT_MS)
            after = boxes(page, names)
            assert after == before
            later = ringed(page, after["card-bluff"], shot)
            inset = 10 + 1  # the ring and its rounded corners (radius 10), and antialiasing
            for name in names:
                assert crop(later, after[name], inset) == crop(shot, before[name], inset), f"{name} looks different inside after the tap on card-bluff"
            # the screenshot is of the new state: the picked card has its ring, the others do not
            assert crop(later, after["card-bluff"], 0) != crop(shot, before["card-bluff"], 0)
            for name in ("card-raise", "card-cheat"):
                assert crop(later, after[name], 0) == crop(shot, before[name], 0), f"{name} changed after the tap on card-bluff"

            # A mouse (a tablet handed round, a laptop): the pointer stays over the clicked card,
            # and still no hover or focus highlight marks it; the ring moves to it.
            for attempt in range(3):  # (a click landing during a redraw is dropped, as a tap)
                ident(page, "card-cheat").click()
                try:
                    clicked = ringed(page, before["card-cheat"], shot, attempts=15)
                    break
                except AssertionError:
                    if attempt == 2:
                        raise
            assert boxes(page, names) == before
            assert crop(clicked, before["card-cheat"], 0) != crop(shot, before["card-cheat"], 0), "the ring did not move to the clicked card"
            for name in names:
                assert crop(clicked, before[name], inset) == crop(shot, before[name], inset), f"{name} looks different inside after the click on card-cheat"
            for name in ("card-raise", "card-bluff"):
                assert crop(clicked, before[name], 0) == crop(shot, before[name], 0), f"{name} keeps a mark after the click on card-cheat"

            # Every table of the table picker is on screen, whole, without scrolling.
            for n in range(1, tables + 1):
                box = ident(page, f"seat-table-{n}").bounding_box()
                assert box is not None, n
                assert 0 <= box["y"] and box["y"] + box["height"] <= VIEWPORT["height"], f"table {n} is below the fold ({box})"
        finally:
            browser.close()


def table_boxes(page: Any, tables: int) -> list[Any]:
    """The table buttons' boxes once the page's layout has settled with every one on the first
    screen, or as they are when WAIT_MS runs out (a CI run once measured a layout still being
    laid out: table 1 at y = 1056, where every later run found it on screen)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    first = True
    while True:
        found = [ident(page, f"seat-table-{n}").bounding_box() for n in range(1, tables + 1)]
        on_screen = all(b is not None and 0 <= b["y"] and b["y"] + b["height"] <= VIEWPORT["height"] for b in found)
        if first and not on_screen:
            # Its cause is not known (not reproduced in some 25 runs, several under load): say what
            # the page held, in the warnings summary, passing or not.
            layout = page.evaluate(
                "() => [innerWidth, innerHeight, Array.from(document.querySelectorAll('[flt-semantics-identifier]'))"
                ".map(e => [e.getAttribute('flt-semantics-identifier'), Math.round(e.getBoundingClientRect().y)])]"
            )
            warnings.warn(f"chip picker first measured below the fold: table 1 at {found[0]}; window and nodes: {layout}", stacklevel=2)
        first = False
        if on_screen or time.monotonic() > deadline:
            return found
        page.wait_for_timeout(200)


def test_every_table_of_the_chip_picker_is_on_the_first_screen(served: tuple[RefereeServer, dict[str, str], str, int]) -> None:
    from playwright.sync_api import expect, sync_playwright

    server, _cards, chips_path, tables = served
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            page = open_phone(browser, server, chips_path, "ru")
            expect(ident(page, f"seat-table-{tables}")).to_be_visible(timeout=WAIT_MS)
            widths = set()
            for n, box in enumerate(table_boxes(page, tables), start=1):
                assert box is not None, n
                assert 0 <= box["y"] and box["y"] + box["height"] <= VIEWPORT["height"], f"table {n} is below the fold ({box})"
                assert box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORT["width"], f"table {n} is off the side ({box})"
                assert box["width"] >= 48 and box["height"] >= 48, f"table {n} is too small to tap ({box})"
                widths.add(round(box["width"], 1))
            assert len(widths) == 1
        finally:
            browser.close()
