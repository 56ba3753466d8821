"""Vabanque: every illegal action is refused with its own code and leaves the state unchanged.

Four players, Adriano first (order A, B, C, D), 9 tables, pawns A1 B3 C5 D7 unless a test
plays on. The message of every error code must render in English with the error's params.
"""

from __future__ import annotations

import string
from typing import Any

import pytest

from companion.engine import RuleError
from companion.games.vabanque import GAME, MESSAGES, MovePawn, NextRound, PlaceCard, PlaceChip, Ready, Reveal
from companion.i18n import translator
from tests.games.test_vabanque_golden import NAMES, A, B, C, Casino, D

ERROR_CODES = sorted(code for code in MESSAGES if code.startswith("vabanque.err."))


def rejected(g: Casino, action: Any, code: str) -> RuleError:
    """`action` must be refused with `code`, change nothing, and explain itself in words."""
    before = g.state
    dumped = before.model_dump_json()
    with pytest.raises(RuleError) as caught:
        GAME.apply(before, action)
    error = caught.value
    assert error.code == code
    assert g.state is before and before.model_dump_json() == dumped
    text = translator("en").t(code, NAMES[:4], **error.params)
    assert "{" not in text
    fields = {f.split(".")[0] for _, f, _, _ in string.Formatter().parse(MESSAGES[code]) if f}
    assert fields <= set(error.params), f"{code} lacks {fields - set(error.params)}"
    return error


def to_cards(g: Casino) -> None:
    """Play round 1's sixteen chips, all on table 2."""
    while g.state.phase == "chips":
        (seat,) = GAME.waiting_for(g.state)
        g.do(PlaceChip(by=seat, table=2))


def to_moves(g: Casino) -> None:
    to_cards(g)
    g.cards(*[(seat, 2, card) for card in ("raise", "bluff", "cheat") for seat in (A, B, C, D)])


def to_payout(g: Casino) -> None:
    to_moves(g)
    g.moves((A, 0), (B, 0), (C, 0), (D, 0))


def to_end(g: Casino) -> None:
    to_payout(g)
    for _ in range(3):
        g.next_round()
        while g.state.phase == "chips":
            (seat,) = GAME.waiting_for(g.state)
            g.do(PlaceChip(by=seat, table=2))
        g.cards(*[(seat, 2, card) for card in ("raise", "bluff", "cheat") for seat in g.state.order])
        g.moves(*[(seat, 0) for seat in g.state.order])
    assert g.state.phase == "over"


# --- out of turn --------------------------------------------------------------------------------


def test_out_of_turn_in_every_phase() -> None:
    g = Casino(4)
    error = rejected(g, PlaceChip(by=B, table=1), "vabanque.err.not_your_turn")
    assert error.params == {"expected": A}
    assert "Adriano" in translator("en").t(error.code, NAMES[:4], **error.params)
    g.chips((A, 1))
    rejected(g, PlaceChip(by=A, table=1), "vabanque.err.not_your_turn")  # no second chip in a row
    rejected(g, PlaceChip(by=D, table=1), "vabanque.err.not_your_turn")

    g = Casino(4)
    to_cards(g)
    rejected(g, PlaceCard(by=C, table=4, card="raise"), "vabanque.err.not_your_turn")
    g.cards((A, 4, "raise"))
    rejected(g, PlaceCard(by=A, table=4, card="bluff"), "vabanque.err.not_your_turn")

    g = Casino(4)
    to_moves(g)
    error = rejected(g, MovePawn(by=D, steps=1), "vabanque.err.not_your_turn")
    assert error.params == {"expected": A}
    g.moves((A, 1), (B, 1))
    rejected(g, MovePawn(by=B, steps=1), "vabanque.err.not_your_turn")


# --- cards --------------------------------------------------------------------------------------


def test_a_card_can_be_placed_once_per_round() -> None:
    g = Casino(4)
    to_cards(g)
    g.cards((A, 4, "cheat"), (B, 4, "raise"), (C, 4, "bluff"), (D, 4, "cheat"))
    error = rejected(g, PlaceCard(by=A, table=6, card="cheat"), "vabanque.err.card_used")
    assert error.params == {"card": "cheat"}
    g.cards((A, 6, "raise"), (B, 6, "bluff"), (C, 6, "raise"), (D, 6, "raise"))
    rejected(g, PlaceCard(by=A, table=6, card="raise"), "vabanque.err.card_used")
    rejected(g, PlaceCard(by=A, table=6, card="cheat"), "vabanque.err.card_used")
    g.cards((A, 8, "bluff"))
    rejected(g, PlaceCard(by=B, table=8, card="bluff"), "vabanque.err.card_used")
    rejected(g, PlaceCard(by=B, table=8, card="raise"), "vabanque.err.card_used")


def test_cards_come_back_next_round() -> None:
    g = Casino(4)
    to_payout(g)
    g.next_round()
    while g.state.phase == "chips":
        (seat,) = GAME.waiting_for(g.state)
        g.do(PlaceChip(by=seat, table=4))
    first = g.state.order[0]
    g.do(PlaceCard(by=first, table=4, card="cheat"))  # placed in round 1, back in hand
    assert g.state.phase == "cards"


# --- pawn moves ---------------------------------------------------------------------------------


@pytest.mark.parametrize("steps", [5, 9, -1, -4])
def test_a_pawn_moves_0_to_4_tables(steps: int) -> None:
    g = Casino(4)
    to_moves(g)
    error = rejected(g, MovePawn(by=A, steps=steps), "vabanque.err.move_too_far")
    assert error.params == {"steps": steps}


def test_the_four_table_move_is_allowed_and_wraps() -> None:
    g = Casino(4)
    to_moves(g)
    g.moves((A, 4), (B, 4), (C, 4))
    assert g.state.pawns[:3] == (5, 7, 9)
    g.moves((D, 4))  # 7 → 8, 9, 1, 2
    assert g.state.pawns == (5, 7, 9, 2)


# --- tables -------------------------------------------------------------------------------------


@pytest.mark.parametrize("table", [0, 10, -1, 100])
def test_unknown_table_for_chips_and_cards(table: int) -> None:
    g = Casino(4)
    error = rejected(g, PlaceChip(by=A, table=table), "vabanque.err.unknown_table")
    assert error.params == {"table": table, "tables": 9}
    to_cards(g)
    rejected(g, PlaceCard(by=A, table=table, card="raise"), "vabanque.err.unknown_table")


def test_tables_one_and_last_are_valid() -> None:
    g = Casino(6)  # 12 tables
    g.chips((A, 1), (B, 12))
    rejected(g, PlaceChip(by=C, table=13), "vabanque.err.unknown_table")
    assert g.state.chips[0] == (5,) and g.state.chips[11] == (5,)


# --- phases -------------------------------------------------------------------------------------


def test_wrong_phase() -> None:
    g = Casino(4)
    # chips phase
    error = rejected(g, PlaceCard(by=A, table=1, card="raise"), "vabanque.err.wrong_phase")
    assert error.params == {"phase": "chips"}
    rejected(g, NextRound(by=A), "vabanque.err.wrong_phase")
    rejected(g, MovePawn(by=A, steps=1), "vabanque.err.wrong_phase")
    # cards phase
    to_cards(g)
    rejected(g, PlaceChip(by=A, table=1), "vabanque.err.wrong_phase")
    rejected(g, MovePawn(by=A, steps=0), "vabanque.err.wrong_phase")
    rejected(g, NextRound(by=B), "vabanque.err.wrong_phase")
    # moves phase
    g = Casino(4)
    to_moves(g)
    rejected(g, PlaceCard(by=A, table=1, card="raise"), "vabanque.err.wrong_phase")
    rejected(g, PlaceChip(by=A, table=1), "vabanque.err.wrong_phase")
    rejected(g, NextRound(by=A), "vabanque.err.wrong_phase")
    # payout display
    g = Casino(4)
    to_payout(g)
    error = rejected(g, PlaceChip(by=g.state.order[0], table=1), "vabanque.err.wrong_phase")
    assert error.params == {"phase": "payout"}
    rejected(g, PlaceCard(by=A, table=1, card="raise"), "vabanque.err.wrong_phase")
    rejected(g, MovePawn(by=A, steps=0), "vabanque.err.wrong_phase")


# --- seats and the end --------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 4, 5, 99])
def test_unknown_seat(seat: int) -> None:
    g = Casino(4)
    error = rejected(g, PlaceChip(by=seat, table=1), "vabanque.err.unknown_seat")
    assert error.params == {"seat": seat}
    to_payout(g)
    rejected(g, NextRound(by=seat), "vabanque.err.unknown_seat")


def test_nothing_after_the_game_is_over() -> None:
    g = Casino(4)
    to_end(g)
    for action in (
        NextRound(by=A),
        PlaceChip(by=g.state.order[0], table=1),
        PlaceCard(by=B, table=1, card="bluff"),
        MovePawn(by=C, steps=0),
        PlaceChip(by=9, table=1),
    ):
        rejected(g, action, "vabanque.err.game_over")


# --- messages -----------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ERROR_CODES)
def test_every_error_template_renders(code: str) -> None:
    """Each error template renders with the params its error carries (a sample of each)."""
    sample = {
        "vabanque.err.game_over": {},
        "vabanque.err.wrong_phase": {"phase": "chips"},
        "vabanque.err.not_your_turn": {"expected": B},
        "vabanque.err.unknown_table": {"table": 0, "tables": 9},
        "vabanque.err.card_used": {"card": "raise"},
        "vabanque.err.move_too_far": {"steps": 5},
        "vabanque.err.unknown_seat": {"seat": 7},
        "vabanque.err.already_ready": {},
        "vabanque.err.host_reveals": {},
        "vabanque.err.host_starts_round": {},
    }
    assert code in sample, f"new error code {code}: add a test for it"
    text = translator("en").t(code, NAMES[:4], **sample[code])
    assert text and "{" not in text


def test_every_error_code_is_produced_by_some_action() -> None:
    """No error code in MESSAGES is dead: each comes out of a real illegal action."""
    seen = set()
    g = Casino(4)
    for action in (PlaceChip(by=B, table=1), PlaceChip(by=A, table=0), PlaceChip(by=7, table=1), NextRound(by=A)):
        with pytest.raises(RuleError) as caught:
            GAME.apply(g.state, action)
        seen.add(caught.value.code)
    to_moves(g)
    with pytest.raises(RuleError) as caught:
        GAME.apply(g.state, MovePawn(by=A, steps=5))
    seen.add(caught.value.code)
    g = Casino(4)
    to_cards(g)
    g.cards((A, 1, "raise"), (B, 1, "raise"), (C, 1, "raise"), (D, 1, "raise"))
    with pytest.raises(RuleError) as caught:
        GAME.apply(g.state, PlaceCard(by=A, table=1, card="raise"))
    seen.add(caught.value.code)
    g = Casino(4)
    to_moves(g)
    g.do(MovePawn(by=A, steps=0)), g.do(MovePawn(by=B, steps=0)), g.do(MovePawn(by=C, steps=0)), g.do(MovePawn(by=D, steps=0))
    g.do(Ready(by=B))
    with pytest.raises(RuleError) as caught:
        GAME.apply(g.state, Ready(by=B))
    seen.add(caught.value.code)
    # the host board's actions: the room refuses them from a phone with the engine's reason
    seen.update(code for code in (GAME.host_only(Reveal()), GAME.host_only(NextRound())) if code is not None)
    assert GAME.host_only(Ready(by=B)) is None
    g = Casino(4)
    to_end(g)
    with pytest.raises(RuleError) as caught:
        GAME.apply(g.state, NextRound(by=A))
    seen.add(caught.value.code)
    assert seen == set(ERROR_CODES)
