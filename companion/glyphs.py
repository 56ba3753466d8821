"""Which characters the app's screens can draw: those of its own font (assets/fonts, DejaVu Sans,
served with the app so nothing is fetched at run time). The app ships no emoji font (a colour
emoji font is 10 MB or more, a first visit's weight twice over), so a name with a character the
font lacks (an emoji, a Chinese character) is refused where it is typed, saying which, instead of
showing an empty box on every device (docs/decisions/names-the-font-draws.md).
The covered code points are listed in assets/fonts/coverage.txt (tools/font_coverage.py)."""

from __future__ import annotations

import bisect
import unicodedata
from functools import lru_cache
from pathlib import Path

COVERAGE_PATH = Path(__file__).resolve().parent.parent / "assets" / "fonts" / "coverage.txt"


@lru_cache(maxsize=1)
def _ranges() -> tuple[tuple[int, ...], tuple[int, ...]]:
    starts: list[int] = []
    ends: list[int] = []
    for line in COVERAGE_PATH.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            start, end = line.split("-")
            starts.append(int(start, 16))
            ends.append(int(end, 16))
    return tuple(starts), tuple(ends)


def drawn(char: str) -> bool:
    """Whether the app's font draws this character. Invisible format characters (a zero-width
    joiner, a variation selector) draw nothing anywhere, so they count as drawn."""
    if unicodedata.category(char) == "Cf" or 0xFE00 <= ord(char) <= 0xFE0F:
        return True
    starts, ends = _ranges()
    at = bisect.bisect_right(starts, ord(char)) - 1
    return at >= 0 and ord(char) <= ends[at]


def undrawable(text: str) -> str:
    """The characters of `text` the app's font cannot draw, each once, in order ("" if none)."""
    seen: list[str] = []
    for char in text:
        if not drawn(char) and char not in seen:
            seen.append(char)
    return "".join(seen)
