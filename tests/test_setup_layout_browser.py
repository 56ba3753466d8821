"""The host's setup form on a 1280 x 800 tablet, in real Chromium, in every language (issue 15):

- "Create the room" is on screen without scrolling, for every game with its default options;
- no house rule's choice is cut: every choice of every rule fits the drop-down's field as drawn
  (its measured box), or the chosen one is also written out whole beside it;
- the page is drawn in the app's font from its first frame (DejaVu, loaded before the client
  draws: views/flet_patches/fonts.py, 7): a text's box is as wide as DejaVu lays it out, not as the
  client's fallback Roboto would, and every letter of the heading is painted (its ink, column by
  column, matches the font's own rendering: a missing letter leaves a gap where ink should be).

Run: `uv run pytest tests/test_setup_layout_browser.py -q`.
"""

from __future__ import annotations

import io
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from companion.games import GAMES
from tests.harness.browser import BOARD_VIEWPORT, WAIT_MS, chromium, enable_semantics, ident
from tests.harness.server import RefereeServer
from views.games import UIS
from views.home import RULE_TEXT_SIZES
from views.i18n import translator
from views.text_metrics import fits_dropdown, text_width

pytestmark = pytest.mark.browser

LANGS = ("en", "fr", "ru")
#: the page's background (views/common.py FELT)
FELT = (0x0B, 0x3D, 0x2E)
#: Material 3's default text style (bodyMedium) spaces letters 0.25 px apart
TEXT_LETTER_SPACING = 0.25


@pytest.fixture(scope="module")
def server() -> Any:
    with tempfile.TemporaryDirectory(prefix="setup-layout-") as tmp:
        server = RefereeServer(Path(tmp))
        server.start()
        try:
            yield server
        finally:
            server.stop()


@pytest.fixture(scope="module")
def browser() -> Any:
    with chromium() as browser:
        yield browser


def open_home(browser: Any, server: RefereeServer, lang: str, said: list[str] | None = None) -> Any:
    """The host's home page, in `lang`. `said`: collects what the page's console says of fonts
    (Flutter's "Failed to load font ..." when a font of its manifest did not load)."""
    context = browser.new_context(viewport=BOARD_VIEWPORT)
    page = context.new_page()
    if said is not None:
        page.on("console", lambda message: said.append(f"{message.type}: {message.text}") if "font" in message.text.lower() else None)
    page.goto(server.url("/", k=server.host_token or "", lang=lang), timeout=WAIT_MS)
    enable_semantics(page)
    ident(page, "setup-game").wait_for(timeout=WAIT_MS)
    return page


def pick_game(page: Any, name: str, first_rule: str) -> None:
    """Open the game menu and choose `name`, until the game's first house rule shows (a tap
    landing during a redraw is dropped)."""
    from playwright.sync_api import expect

    for _attempt in range(3):
        ident(page, "setup-game").click()
        option = page.get_by_role("button", name=name, exact=True).last
        try:
            expect(option).to_be_visible(timeout=5000)
            option.click()
            expect(ident(page, f"rule-{first_rule}")).to_be_attached(timeout=10_000)
            return
        except AssertionError:
            continue
    raise AssertionError(f"could not choose {name}")


def width_sources(text: Any) -> str:
    """For a failure message: where a text's measured width comes from. Its box is the
    accessibility node's span, scaled by the web client to the node's size (Flutter's layout of
    the text): `transform` none means the span was never scaled, and its width is the browser's
    own font's, not Flutter's."""
    return str(
        text.evaluate(
            "e => `Flutter's layout: ${e.parentElement.style.width}; the span: ${e.offsetWidth} px "
            "in the browser's font, scaled by ${e.style.transform || 'nothing'}`"
        )
    )


def ink_columns(image: Image.Image, background: tuple[int, int, int], threshold: int = 60) -> list[bool]:
    """Per pixel column: whether any pixel in it is far from the background colour."""
    rgb = image.convert("RGB")
    width, height = rgb.size
    pixels = rgb.load()
    return [
        any(sum(abs(a - b) for a, b in zip(pixels[x, y], background, strict=True)) > threshold for y in range(height))
        for x in range(width)
    ]


def painted(page: Any, box: dict[str, float], what: str) -> list[bool]:
    """The ink columns of `box` once painted: the canvas paints after the accessibility tree
    (which gave the box), so the box is photographed until it has ink and two pictures in a row
    are the same."""
    previous = b""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        picture = page.screenshot(clip=box)
        columns = ink_columns(Image.open(io.BytesIO(picture)), FELT)
        if picture == previous and any(columns):
            return columns
        previous = picture
        page.wait_for_timeout(300)
    raise AssertionError(f"{what!r} was never painted (or never stopped changing)")


def trimmed(columns: list[bool]) -> list[bool]:
    first = columns.index(True)
    last = len(columns) - 1 - columns[::-1].index(True)
    return columns[first : last + 1]


def font_rendering(text: str, size: int, letter_spacing: float, bold: bool) -> list[bool]:
    """The ink columns of `text` drawn by Pillow in DejaVu Sans, letter by letter with spacing
    (bold: with a stroke, as the client thickens the regular face)."""
    from views.text_metrics import _font

    font = _font(size, False)
    width = int(text_width(text, size, letter_spacing=letter_spacing)) + 8
    image = Image.new("L", (width, size * 2), 0)
    draw = ImageDraw.Draw(image)
    x = 0.0
    for char in text:
        draw.text((x, size // 4), char, font=font, fill=255, stroke_width=1 if bold else 0)
        x += font.getlength(char) + letter_spacing
    return trimmed([any(image.getpixel((cx, cy)) > 100 for cy in range(image.height)) for cx in range(image.width)])


def blank_runs(columns: list[bool]) -> list[int]:
    """The lengths of the runs of blank columns between inked ones."""
    runs, current = [], 0
    for inked in columns:
        if inked:
            if current:
                runs.append(current)
            current = 0
        else:
            current += 1
    return runs


def painted_like_the_font(drawn: list[bool], font: list[bool]) -> str | None:
    """None when a text's ink looks like the font's rendering of it; else what differs. A letter
    not painted leaves a blank as wide as the letter, wider than any gap (a space) the text has."""
    widest, allowed = max(blank_runs(drawn), default=0), max(blank_runs(font), default=0) + 4
    if widest > allowed:
        return f"a blank {widest} px wide inside the text (the font's widest gap: {allowed - 4} px)"
    inked, expected = sum(drawn), sum(font)
    if inked < 0.8 * expected:
        return f"{inked} inked columns, the font has {expected}"
    return None


@pytest.mark.parametrize("lang", LANGS)
def test_setup_form_fits_a_tablet(server: RefereeServer, browser: Any, lang: str) -> None:
    tr = translator(lang)
    fonts_said: list[str] = []
    page = open_home(browser, server, lang, fonts_said)
    try:
        # the text is laid out in DejaVu (Roboto, the client's fallback, is about 10 % narrower)
        heading = tr.t("ui.house_rules")
        expected = text_width(heading, 18, letter_spacing=TEXT_LETTER_SPACING)
        # Once seen under a loaded machine (the full suite): the first layout in the fallback,
        # then DejaVu. What a player must get is the page in DejaVu, so it is waited for, bounded.
        deadline = time.monotonic() + 10
        while True:
            box = page.get_by_text(heading, exact=True).bounding_box()
            assert box is not None
            if abs(box["width"] - expected) <= 3 or time.monotonic() > deadline:
                break
            page.wait_for_timeout(200)
        assert abs(box["width"] - expected) <= 3, (
            f"{heading!r}: {box['width']:.1f} px wide, DejaVu lays it out {expected:.1f} px "
            f"({width_sources(page.get_by_text(heading, exact=True))}; the console of fonts: {fonts_said or 'nothing'})"
        )
        # every letter of the headings painted: their ink, column by column, is the font's
        for text, size, bold in ((tr.t("ui.app_title"), 30, True), (tr.t("ui.host_board"), 18, False)):
            box = page.get_by_text(text, exact=True).bounding_box()
            assert box is not None
            drawn = trimmed(painted(page, box, text))
            problem = painted_like_the_font(drawn, font_rendering(text, size, TEXT_LETTER_SPACING, bold))
            assert problem is None, f"{text!r} is painted unlike DejaVu draws it, letters missing? {problem}"

        for game_id in UIS:
            game = GAMES[game_id]
            rules = list(game.house_rules)
            if game_id != next(iter(UIS)):
                pick_game(page, tr.t(f"game.{game_id}"), rules[0])
            create = ident(page, "create-room")
            create.wait_for(timeout=WAIT_MS)
            box = create.bounding_box()
            assert box is not None
            assert box["y"] >= 0 and box["y"] + box["height"] <= BOARD_VIEWPORT["height"], f"{lang} {game_id}: Create the room at {box} is not on screen"
            assert box["x"] + box["width"] <= BOARD_VIEWPORT["width"]
            defaults = game.setup_model.model_fields
            for rule, values in game.house_rules.items():
                box = ident(page, f"rule-{rule}").bounding_box()
                assert box is not None, f"{lang} {game_id}: no rule-{rule}"
                texts = [tr.t(f"{game_id}.rule.{rule}.{v}") for v in values]
                if any(all(fits_dropdown(t, box["width"], size) for t in texts) for size in RULE_TEXT_SIZES):
                    continue  # every choice fits the field as drawn
                chosen = tr.t(f"{game_id}.rule.{rule}.{defaults[rule].default}")
                assert page.get_by_text(chosen, exact=True).count() >= 1, f"{lang} {game_id} {rule}: {chosen!r} cut in a {box['width']:.0f} px field and not written out"
    finally:
        page.context.close()
