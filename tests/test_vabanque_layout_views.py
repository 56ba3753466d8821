"""Vabanque's board, drawn in-process (no browser): the ring of tables is the same in every phase
at every screen size and player count, and a revealed table's cards are in words (issue #15).

tests/test_vabanque_layout_browser.py measures the same on screen, on a tablet, in Chromium.
"""

from __future__ import annotations

import random

import flet as ft
import pytest

from companion.engine import BOARD
from companion.games.vabanque import GAME, TABLES_BY_PLAYERS, Setup
from tests.harness.flet_inprocess import walk_controls
from views.games.vabanque import board as ui
from views.i18n import Translator
from views.screen import GameContext

COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]
#: the board's width as views/board.py hands it to the game (a tablet's 1280 px less its seat
#: panel; a 360 px phone less its margins), and the window's height
SCREENS = {"tablet": (904.0, 800.0), "phone": (336.0, 780.0)}


def ctx(tr: Translator, players: int, width: float, height: float) -> GameContext:
    return GameContext(tr=tr, names=[f"P{i}" for i in range(players)], colours=COLOURS[:players], width=width, height=height, seat=None, acts_for_current=True, submit=None, ui={}, rerender=None)


def ring(body: ft.Control) -> dict[int, tuple[float, float, float]]:
    """{table: (left, top, side)} of the ring's tiles, as drawn."""
    out = {}
    for control in walk_controls(body):
        if isinstance(control, ft.Container) and isinstance(control.content, ft.Semantics) and (control.content.identifier or "").startswith("table-"):
            tile = control.content.content
            out[int(control.content.identifier.removeprefix("table-"))] = (control.left, control.top, tile.width)
    return out


def texts(body: ft.Control) -> list[str]:
    return [c.value for c in walk_controls(body) if isinstance(c, ft.Text) and isinstance(c.value, str)]


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_the_ring_is_the_same_in_every_phase(players: int, screen: str) -> None:
    tr = Translator("en")
    width, height = SCREENS[screen]
    state = GAME.initial_state(Setup.model_validate({"players": [{"name": f"P{i}", "colour": c} for i, c in enumerate(COLOURS[:players])]}), 3)
    rng = random.Random(players)
    rings: dict[str, dict[int, tuple[float, float, float]]] = {}
    while state.phase != "over" and len(rings) < 5:
        view = GAME.project(state, BOARD)
        if view.phase not in rings:
            body = ui.board_body(ctx(tr, players, width, height), view, None)
            rings[view.phase] = ring(body)
        action = GAME.random_action(state, rng)
        assert action is not None
        state = GAME.apply(state, action).state
    assert set(rings) == {"chips", "cards", "moves", "reveal", "payout"}, set(rings)
    first = rings["chips"]
    assert len(first) == TABLES_BY_PLAYERS[players], first
    for phase, tiles in rings.items():
        assert tiles == first, f"{screen}, {players} players: the ring changed in the {phase} phase"
    if screen == "tablet":
        # 40 px tokens need tiles of about twice that: the tablet's smallest (12 tables) too
        assert min(side for _l, _t, side in first.values()) >= 90, first


def test_revealed_cards_are_words_and_the_totals_are_labelled() -> None:
    """At the payout the revealed tables name their cards ("● Raise", not "R") and every table
    says what its number is ("chips: 10", not "Σ 10"), in each language."""
    for lang in ("en", "fr", "ru"):
        tr = Translator(lang)
        state = GAME.initial_state(Setup.model_validate({"players": [{"name": f"P{i}", "colour": c} for i, c in enumerate(COLOURS[:4])]}), 7)
        rng = random.Random(5)
        while state.phase != "payout":
            action = GAME.random_action(state, rng)
            assert action is not None
            state = GAME.apply(state, action).state
        view = GAME.project(state, BOARD)
        drawn = texts(ui.board_body(ctx(tr, 4, *SCREENS["tablet"]), view, None))
        assert not [t for t in drawn if "Σ" in t], drawn
        for table in view.tables:
            assert tr.t("vabanque.table_total", total=table.total) in drawn
        revealed = [c for t in view.tables if t.payout is not None for c in t.payout.cards]
        assert revealed
        names = {tr.t(f"vabanque.card.{c}") for c in ("raise", "bluff", "cheat")}
        for card in revealed:
            assert f"{ui.glyph(COLOURS[card.seat])} {tr.t(f'vabanque.card.{card.card}')}" in drawn, (lang, card)
        # no initial alone
        assert not [t for t in drawn if len(t) == 1 and any(t == n[:1] for n in names)], drawn
