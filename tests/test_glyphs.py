"""The characters the app's font draws (companion/glyphs.py, assets/fonts/coverage.txt): the list
is the fonts' own, and a name with a character they lack is refused where it is typed, saying
which (docs/decisions/names-the-font-draws.md)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from pydantic import ValidationError

from companion.glyphs import undrawable
from companion.players import Player


def test_the_coverage_file_is_the_fonts_own() -> None:
    done = subprocess.run([sys.executable, "tools/font_coverage.py", "--check"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("text", "missing"),
    [("Anna", ""), ("Борис", ""), ("Éloïse ♠", ""), ("Dov 🎲", "🎲"), ("🎲 Dov 🎲", "🎲"), ("中文 x", "中文"), ("Ann\u200dа\ufe0f", "")],
)
def test_characters_the_font_lacks_are_named(text: str, missing: str) -> None:
    assert undrawable(text) == missing


def test_a_name_the_screens_cannot_show_is_refused() -> None:
    with pytest.raises(ValidationError) as refused:
        Player(name="Dov 🎲", colour="red")
    assert "🎲" in str(refused.value)
    assert Player(name="Зоя ♦", colour="blue").name == "Зоя ♦"
