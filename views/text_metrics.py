"""How wide a text is drawn in the app's font (DejaVu Sans, assets/fonts), measured on the server
with Pillow: a view sizes a control that cannot wrap (a drop-down's field) to what it must show,
and tests check that no such text is cut. Flutter lays the same font out to within a pixel or two
of these widths (tests/test_setup_layout_browser.py compares them)."""

from __future__ import annotations

import functools
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

#: Material 3's body text (a field's text) spaces its letters 0.5 px apart
BODY_LETTER_SPACING = 0.5
#: what a drop-down's field takes beside its text (Material 3, measured in Chromium): 16 px of
#: padding before the text, the 48 px arrow button after it, and a few pixels of slack
DROPDOWN_CHROME = 76


@functools.lru_cache(maxsize=16)
def _font(size: float, bold: bool) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(BOLD if bold else REGULAR), size)


@functools.lru_cache(maxsize=4096)
def text_width(text: str, size: float = 16, bold: bool = False, letter_spacing: float = 0.0) -> float:
    """The advance width in logical pixels of `text` on one line at `size` px, each letter
    followed by `letter_spacing` px."""
    return float(_font(size, bold).getlength(text)) + letter_spacing * len(text)


def fits_dropdown(text: str, width: float, size: float = 16) -> bool:
    """Whether a drop-down `width` px wide shows `text` whole in its field at `size` px."""
    return text_width(text, size, letter_spacing=BODY_LETTER_SPACING) <= width - DROPDOWN_CHROME
