"""Issue #15, "arm's length", drawn in-process: a disabled button looks disabled whatever its
colour (a step viewer's Next on its last step, Undo after a reveal), a killed or removed
Corruption card keeps its value readable (struck through, its mark beside it, never over it), and
Chicago Poker's business strip says what it means ("3 up · 2 down") in each language."""

from __future__ import annotations

import flet as ft
import pytest

from tests.harness.flet_inprocess import walk_controls
from views.common import ACCENT, BUTTON_TEXT_PADDING, DISABLED_FILL, DISABLED_TEXT, big_button
from views.games.chicago_poker import pieces as chicago_poker
from views.games.corruption import pieces as corruption
from views.i18n import Translator
from views.screen import GameContext


def buttons(control: ft.Control) -> list[ft.Button]:
    return [c for c in walk_controls(control) if isinstance(c, ft.Button)]


def test_a_disabled_button_is_dim_whatever_its_colour() -> None:
    for colour in (ACCENT, "#B0BEC5", "#E53935"):
        (on,) = buttons(big_button("Next", None, colour=colour))
        (off,) = buttons(big_button("Next", None, colour=colour, disabled=True))
        assert on.bgcolor == colour and not on.disabled
        assert off.disabled and off.bgcolor == DISABLED_FILL and off.content.content.color == DISABLED_TEXT


def test_a_long_label_makes_a_button_taller_instead_of_being_cut() -> None:
    # no fixed height: the label's padding makes 56 px for one line, and a second line adds to it
    (button,) = buttons(big_button("Отменить последнее действие", None, width=300))
    assert button.height is None
    assert button.content.padding.top == button.content.padding.bottom == BUTTON_TEXT_PADDING


def ctx(tr: Translator, width: float = 904.0) -> GameContext:
    return GameContext(tr=tr, names=["Alice", "Bruno", "Chloé"], colours=["red", "blue", "green"], width=width, height=800.0, seat=None, acts_for_current=True, submit=None, ui={}, rerender=None)


@pytest.mark.parametrize("card", [10_000, "reporter", "hitman", "da"])
def test_a_struck_corruption_card_keeps_its_value_readable(card: object) -> None:
    tr = Translator("en")
    short = corruption.card_short(ctx(tr), card)
    struck = corruption.card_tile(ctx(tr), 0, card, size=46, crossed=True)
    texts = [c for c in walk_controls(struck) if isinstance(c, ft.Text)]
    value = [t for t in texts if t.value == short]
    assert value, [t.value for t in texts]
    # struck through, and nothing written over it (the old ✗ was a text the card's size over it)
    assert value[0].style is not None and value[0].style.decoration == ft.TextDecoration.LINE_THROUGH
    assert [t.value for t in texts if t is not value[0]] == [corruption.glyph("red")]
    # its mark: an icon at the card's corner, half outside it
    marks = [c for c in walk_controls(struck) if isinstance(c, ft.Container) and isinstance(c.content, ft.Icon)]
    assert len(marks) == 1 and marks[0].right < 0 and marks[0].top < 0
    # a card not struck: the same value, no strike, no mark
    plain = corruption.card_tile(ctx(tr), 0, card, size=46)
    assert [t.value for t in walk_controls(plain) if isinstance(t, ft.Text)][0] == short
    assert not [c for c in walk_controls(plain) if isinstance(c, ft.Icon)]


@pytest.mark.parametrize(
    ("lang", "pattern", "legend"),
    [
        ("en", "UUUDD", "3 up · 2 down"),
        ("en", "DDUUU", "2 down · 3 up"),
        ("en", "UUUUU", "5 up"),
        ("en", "UDUDU", "3 up · 2 down"),
        ("fr", "UUUDD", "3 visibles · 2 cachées"),
        ("ru", "UUUDD", "3 открытые · 2 закрытые"),
        ("ru", "DDUUU", "2 закрытые · 3 открытые"),
        ("ru", "UUUUU", "5 открытых"),
    ],
)
def test_the_business_strip_has_its_legend(lang: str, pattern: str, legend: str) -> None:
    tr = Translator(lang)
    assert chicago_poker.pattern_legend(tr, pattern) == legend
    strip = chicago_poker.pattern_pips(pattern, 16, chicago_poker.pattern_legend(tr, pattern))
    assert legend in [t.value for t in walk_controls(strip) if isinstance(t, ft.Text)]
