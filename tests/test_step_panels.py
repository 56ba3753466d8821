"""Panels that show what just happened (issue 31), drawn in-process: a step panel opens on the
newest step of every new set of steps (views/steps.py, shared by the four games), "I'm ready"
says what it leads to (views/reveal.py), Vabanque's revealed tables hold their cards' words, and
Corruption names a hit man's or a reporter's targets as the table sees them.

The games' own walks through such states are in tests/test_chicago_poker_views.py (a shootout
won, shown again), tests/test_reglement_views.py (a cake explosion) and
tests/test_corruption_views.py (the awards under way, then done).
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import flet as ft
import pytest

from companion.engine import BOARD
from companion.games.vabanque import GAME, Setup
from tests.harness.flet_inprocess import walk_controls
from views.context import GameContext
from views.games.corruption import choices as corruption_choices
from views.games.vabanque import board as vabanque_board
from views.games.vabanque import pieces as ui
from views.i18n import Translator
from views.reveal import ready_panel
from views.steps import go_to_step, shown_step
from views.text_metrics import text_width

COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]
#: the board's width as views/board.py hands it to the game (a tablet's 1280 px less its seat
#: panel; a 360 px phone less its margins), and the window's height
SCREENS = {"tablet": (904.0, 800.0), "phone": (336.0, 780.0)}


def context(lang: str = "en", players: int = 4, width: float = 904.0, height: float = 800.0, seat: int | None = None) -> GameContext:
    return GameContext(
        tr=Translator(lang), names=[f"P{i}" for i in range(players)], colours=COLOURS[:players], width=width, height=height,
        seat=seat, acts_for_current=seat is None, submit=None, ui={}, rerender=None,
    )


def texts(body: ft.Control) -> list[str]:
    return [c.value for c in walk_controls(body, shown_only=True) if isinstance(c, ft.Text) and isinstance(c.value, str)]


def test_a_new_set_of_steps_opens_on_its_newest() -> None:
    ctx = context()
    key = "game.step"
    # a set arrives: its newest step; a redraw keeps it
    assert shown_step(ctx, key, ("turn", 1), 4) == 3
    assert shown_step(ctx, key, ("turn", 1), 4) == 3
    # the page steps back, and redraws keep where it went
    go_to_step(ctx, key, ("turn", 1), 4, 0)
    assert shown_step(ctx, key, ("turn", 1), 4) == 0
    go_to_step(ctx, key, ("turn", 1), 4, -3)
    assert shown_step(ctx, key, ("turn", 1), 4) == 0  # clamped
    # the set grows (an action's new rulings): the newest again, wherever the page was
    assert shown_step(ctx, key, ("turn", 1), 6) == 5
    # another set of as many steps (the next turn, a shootout won): its newest
    go_to_step(ctx, key, ("turn", 1), 6, 1)
    assert shown_step(ctx, key, ("turn", 2), 6) == 5
    # no steps: nothing kept
    assert shown_step(ctx, "other.step", ("turn", 2), 0) == 0 and "other.step" not in ctx.ui


def payout_view(players: int, seed: int) -> Any:
    state = GAME.initial_state(Setup.model_validate({"players": [{"name": f"P{i}", "colour": c} for i, c in enumerate(COLOURS[:players])]}), seed)
    rng = random.Random(seed)
    while state.phase != "payout":
        action = GAME.random_action(state, rng)
        assert action is not None
        state = GAME.apply(state, action).state
    return GAME.project(state, BOARD)


def test_vabanque_payout_opens_on_its_last_step() -> None:
    view = payout_view(4, 7)
    ctx = context()
    steps = ui.payout_steps(view)
    drawn = texts(ui.payout_panel(ctx, view))
    assert f"Step {len(steps)} of {len(steps)}" in drawn
    assert any("Round 1 in short" in t for t in drawn), drawn


def card_labels(body: ft.Control) -> list[tuple[float, ft.Container, ft.Text]]:
    """(the felt's width inside the tile's border and padding, a card, its words) on every
    revealed tile of the ring."""
    out = []
    for control in walk_controls(body):
        if isinstance(control, ft.Semantics) and (control.identifier or "").startswith("table-"):
            face: Any = control.content.controls[0]  # type: ignore[union-attr]
            inner = face.width - 2 * (face.border.left.width + face.padding)
            for card in walk_controls(face):
                text = getattr(card, "content", None)
                if isinstance(card, ft.Container) and isinstance(text, ft.Text) and isinstance(text.value, str) and text.value[:2] in {ui.glyph(c) + " " for c in COLOURS}:
                    out.append((inner, card, text))
    return out


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_vabanque_revealed_words_fit_their_tiles(lang: str) -> None:
    """Every revealed card's words fit inside its tile (the border as drawn when the table's
    step is shown included), on one line; where no size fits (a phone-sized board, a long
    Russian word on a small tile) they wrap inside a card no wider than the tile."""
    checked = 0
    for players in (3, 4, 6):
        for seed in range(3):
            view = payout_view(players, seed)
            for screen, (width, height) in SCREENS.items():
                ctx = context(lang, players, width, height)
                total = len(ui.payout_steps(view))
                for index in range(total):  # each table highlighted in turn, then the summary
                    go_to_step(ctx, ui.STEP_KEY, view.round, total, index)
                    for inner, card, text in card_labels(vabanque_board.board_body(ctx, view, None)):
                        checked += 1
                        if text.no_wrap:
                            assert text_width(text.value, text.size, bold=True) + vabanque_board.CARD_EDGES[0] <= inner, (screen, players, text.value, text.size, inner)
                            assert text.size is not None and text.size >= vabanque_board.SMALLEST_WORDS
                        else:  # words too long for the tile even at the smallest size
                            assert card.width is not None and card.width <= inner
    assert checked


def test_ready_says_what_it_leads_to() -> None:
    for lang, reveal, next_round in (
        ("en", "When everyone is ready, the cards are turned up.", "When everyone is ready, the next round begins."),
        ("fr", "Quand tout le monde est prêt, les cartes sont retournées.", "Quand tout le monde est prêt, la manche suivante commence."),
        ("ru", "Когда все будут готовы, карты откроются.", "Когда все будут готовы, начнётся следующий раунд."),
    ):
        ctx = context(lang, seat=1)
        for awaiting, line in ((True, reveal), (False, next_round)):
            view = SimpleNamespace(my_legal=SimpleNamespace(ready=True), ready=(0,), awaiting_reveal=awaiting)
            panel = ready_panel(ctx, view, 1)
            assert panel is not None and line in texts(panel), (lang, awaiting)
        # once ready, no button and no line about it
        view = SimpleNamespace(my_legal=SimpleNamespace(ready=False), ready=(0, 1), awaiting_reveal=True)
        panel = ready_panel(ctx, view, 1)
        assert panel is not None and reveal not in texts(panel)


def test_corruption_targets_are_named_as_the_table_sees_them() -> None:
    """Whose card, what, under which contract; two reporters of one player under one contract
    told apart by the order they were played; never a card number."""
    ctx = context("en", players=3)
    subway = SimpleNamespace(name="Subway")
    placements = {
        3: (SimpleNamespace(seat=2, card="reporter"), subway),
        5: (SimpleNamespace(seat=1, card="da"), subway),
        8: (SimpleNamespace(seat=2, card="reporter"), subway),
    }
    options = (3, 5, 8)
    names = [corruption_choices.target_text(ctx, placements, i, options) for i in options]
    assert names == [
        "P2's Reporter under the Subway, played earlier",
        "P1's District attorney under the Subway",
        "P2's Reporter under the Subway, played later",
    ], names
    assert not any("#" in n for n in names)
