"""Règlement de comptes: step 4, the wake-up, with the house rule wake_up="choose".

The rulebook: "Dans le cas où l'un des membres de votre gang s'est assoupi précédemment, vous
pouvez maintenant le réveiller" (step 4), and in the orange scenario "Vous réveillez l'un de vos
hommes installé à la place N". docs/rules/reglement.md#wake-up takes the automatic reading (everyone wakes,
the default); "choose" is the option where, after drawing, the player picks which of their own
sleepers wake (any, all or none), as a `wake` action the whole table waits on.

Positions are on the default board (see test_reglement.py for its geometry) and reuse the
rulebook's illustrated position from test_reglement_scenarios.py.
"""

from __future__ import annotations

import random

import pytest

from companion.engine import BOARD, seat_audience
from companion.games.reglement import (
    ACTION_ADAPTER,
    GAME,
    Boum,
    Discard,
    EndTurn,
    Knife,
    Move,
    State,
    Wake,
)
from tests.games.scale import seeds
from tests.games.test_reglement_helpers import BLUE, ORANGE, RED, VIOLET, YELLOW, at, codes, make_setup, play, position, refused
from tests.games.test_reglement_scenarios import ILLUSTRATED_CAKES, ILLUSTRATED_MONEY, ILLUSTRATED_TABLE

#: the illustrated position, plus an orange Flingueur asleep at #1 (pilled at a glass earlier and
#: re-seated by an Alerte!, which leaves pills on their gangsters): orange has two sleepers
TABLE = {**ILLUSTRATED_TABLE, "#1": "orange Flingueur asleep"}


def orange_turn(**fields: object) -> State:
    return position(TABLE, cakes=ILLUSTRATED_CAKES, money=ILLUSTRATED_MONEY, turn="orange", wake_up="choose", **fields)


def test_orange_chooses_to_wake_his_man_at_n_and_lets_the_other_sleep_on():
    """The orange scenario with the choice: Boum! on red's cake kills yellow's gangster at A; the
    cards drawn, the turn waits for orange, who wakes his man at N ("l'un de vos hommes") and
    lets the Flingueur at #1 sleep on."""
    state = orange_turn()
    state, rulings = play(state, Boum(by=ORANGE, cake_seat="#12"))
    assert at(state, "A") is None
    pile = state.draw_pile

    state, rulings = play(state, EndTurn(by=ORANGE))
    assert codes(rulings) == ["reglement.drew", "reglement.wake_step"]
    assert rulings[-1].params == {"seat": ORANGE, "ats": "#1, N"}
    # the cards are drawn (step 3's end) and the turn waits at step 4, for orange alone
    assert state.phase == "wake" and state.turn == ORANGE and state.draw_pile == pile - 1
    assert GAME.waiting_for(state) == (ORANGE,)
    assert at(state, "N") == "orange Cogneur asleep" and at(state, "#1") == "orange Flingueur asleep"

    # what everyone sees: the step, who chooses, among which sleepers (the pills are public)
    board = GAME.project(state, BOARD)
    assert board.phase == "wake" and board.waiting_for == (ORANGE,)
    assert board.wake_up == "choose" and board.wake_choices == ("#1", "N")
    assert board.turn_options is None  # no card is entered during the wake-up
    assert board.turn_log[-1].code == "reglement.wake_step"
    mine = GAME.project(state, seat_audience(ORANGE))
    assert mine.wake_choices == ("#1", "N")
    assert mine.me is not None and not mine.me.can_end_turn and not mine.me.can_discard
    assert GAME.project(state, seat_audience(VIOLET)).wake_choices == ("#1", "N")

    state, rulings = play(state, Wake(by=ORANGE, seats=("N",)))
    assert codes(rulings)[:3] == ["reglement.woke", "reglement.slept_on", "reglement.turn_started"]
    assert rulings[0].params == {"seat": ORANGE, "ats": "N"}
    assert rulings[1].params == {"seat": ORANGE, "ats": "#1"}
    assert at(state, "N") == "orange Cogneur" and at(state, "#1") == "orange Flingueur asleep"
    assert state.phase == "play" and state.turn == VIOLET
    # the new turn's log starts with orange's wake-up, as it does with the automatic rule
    assert state.turn_log[0].code == "reglement.woke"
    assert GAME.project(state, BOARD).wake_choices == ()


def test_violet_wakes_his_lame_and_a_player_with_nobody_asleep_skips_the_step():
    """The violet scenario: his Lame at E is asleep, so he stabs from the knife seat P; at step 4
    he wakes the Lame. Yellow, with nobody asleep, ends the turn without a wake-up step."""
    state = position(TABLE, cakes=ILLUSTRATED_CAKES, money=ILLUSTRATED_MONEY, turn="violet", wake_up="choose")
    state, _ = play(state, Knife(by=VIOLET, target="O", from_seat="P"), EndTurn(by=VIOLET))
    assert state.phase == "wake" and GAME.project(state, BOARD).wake_choices == ("E",)
    state, rulings = play(state, Wake(by=VIOLET, seats=("E",)))
    assert at(state, "E") == "violet Lame" and "reglement.slept_on" not in codes(rulings)
    assert state.turn == YELLOW and state.phase == "play"

    assert not GAME.sleepers(state, YELLOW)
    state, rulings = play(state, Discard(by=YELLOW), EndTurn(by=YELLOW))
    assert "reglement.wake_step" not in codes(rulings) and "reglement.woke" not in codes(rulings)
    assert state.phase == "play" and state.turn == RED


def test_waking_nobody_keeps_every_sleeper_asleep_and_they_still_cannot_act():
    state = position(TABLE, turn="orange", discarded=True, wake_up="choose")  # no cakes on the table
    state, _ = play(state, EndTurn(by=ORANGE))
    state, rulings = play(state, Wake(by=ORANGE, seats=()))
    assert "reglement.woke" not in codes(rulings)
    assert next(r for r in rulings if r.code == "reglement.slept_on").params["ats"] == "#1, N"
    # orange's next turn: the sleepers are still asleep and cannot move
    while state.turn != ORANGE:
        state = pass_and_wake_all(state)
    assert at(state, "N") == "orange Cogneur asleep"
    assert refused(state, Move(by=ORANGE, from_seat="N", to_seat="L")) == "reglement.err.asleep_cannot_move"


def pass_and_wake_all(state: State) -> State:
    """The current player sets a card aside, ends the turn and, if asked, wakes everyone."""
    player = state.turn
    state, _ = play(state, Discard(by=player), EndTurn(by=player))
    if state.phase == "wake":
        state, _ = play(state, Wake(by=player, seats=tuple(GAME.sleepers(state, player))))
    return state


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (Boum(by=ORANGE, cake_seat="Q"), "reglement.err.wrong_phase"),
        (Discard(by=ORANGE), "reglement.err.wrong_phase"),
        (EndTurn(by=ORANGE), "reglement.err.wrong_phase"),
        (Wake(by=VIOLET, seats=()), "reglement.err.not_your_turn"),
        (Wake(by=ORANGE, seats=("N", "N")), "reglement.err.wake_twice"),
        (Wake(by=ORANGE, seats=("Z9",)), "reglement.err.no_such_seat"),
        (Wake(by=ORANGE, seats=("E",)), "reglement.err.not_your_sleeper"),  # violet's sleeper
        (Wake(by=ORANGE, seats=("C",)), "reglement.err.not_your_sleeper"),  # orange, awake
        (Wake(by=ORANGE, seats=("L",)), "reglement.err.not_your_sleeper"),  # nobody there
        (Wake(by=9, seats=()), "reglement.err.unknown_player"),
    ],
)
def test_bad_input_during_the_wake_step(action, code):
    state, _ = play(orange_turn(discarded=True), EndTurn(by=ORANGE))
    assert state.phase == "wake"
    assert refused(state, action) == code


def test_the_choice_belongs_to_its_step_and_its_rule():
    # "choose": not during the cards, and not as part of end_turn
    state = orange_turn(discarded=True)
    assert refused(state, Wake(by=ORANGE, seats=("N",))) == "reglement.err.not_waking"
    assert refused(state, EndTurn(by=ORANGE, wake=("N",))) == "reglement.err.wake_is_a_step"
    # the recommended rule: everyone wakes on their own, nothing to choose
    auto = position(TABLE, cakes=ILLUSTRATED_CAKES, turn="orange", discarded=True)
    assert refused(auto, Wake(by=ORANGE, seats=("N",))) == "reglement.err.wake_automatic"
    auto, rulings = play(auto, EndTurn(by=ORANGE))
    assert auto.phase == "play" and auto.turn == VIOLET
    assert next(r for r in rulings if r.code == "reglement.woke").params["ats"] == "#1, N"
    assert GAME.project(auto, BOARD).wake_choices == ()


def test_the_older_optional_rule_still_chooses_with_end_turn():
    """Recorded games with wake_up="optional" replay as they were played: the choice rides on
    end_turn (None wakes everyone), there is no wake step, and a `wake` action is refused."""
    table = {"A": "red Lame asleep", "E": "red Cogneur asleep", "K": "blue Parrain", "M": "yellow Parrain"}
    state = position(table, n=3, turn="red", discarded=True, wake_up="optional")
    assert GAME.project(state, BOARD).wake_choices == ("A", "E")  # to send with end_turn
    assert refused(state, Wake(by=RED, seats=("E",))) == "reglement.err.wake_with_end_turn"
    everyone, rulings = play(state, EndTurn(by=RED))
    assert everyone.phase == "play" and everyone.turn == BLUE
    assert at(everyone, "A") == "red Lame" and at(everyone, "E") == "red Cogneur"
    assert next(r for r in rulings if r.code == "reglement.woke").params["ats"] == "A, E"
    some, _ = play(state, EndTurn(by=RED, wake=("E",)))
    assert at(some, "A") == "red Lame asleep" and at(some, "E") == "red Cogneur"


def test_the_setup_screen_offers_choose_and_no_longer_optional():
    assert GAME.house_rules["wake_up"] == ("automatic", "choose")
    assert make_setup(3).wake_up == "automatic"  # the recommended reading stays the default
    assert make_setup(3, wake_up="optional").wake_up == "optional"  # still accepted for old games


def simulate(n: int, seed: int, wake_up: str) -> tuple[State, list[object]]:
    state = GAME.initial_state(make_setup(n, wake_up=wake_up), seed)
    rng = random.Random(seed)
    actions = []
    while (action := GAME.random_action(state, rng)) is not None:
        state = GAME.apply(state, action).state
        actions.append(action)
        assert len(actions) < 3000
    return state, actions


def test_random_games_take_the_choice_and_replay_the_same():
    """Seeded random games with "choose" reach the wake step and choose all, some or none; the
    same actions, through JSON, replay to the same game."""
    kinds = set()
    for seed in seeds(6):
        state, actions = simulate(3 + seed % 4, seed, "choose")
        replay = GAME.initial_state(make_setup(3 + seed % 4, wake_up="choose"), seed)
        before = replay
        for action in actions:
            if isinstance(action, Wake):
                sleepers = GAME.sleepers(before, action.by)
                kinds.add("all" if len(action.seats) == len(sleepers) else ("none" if not action.seats else "some"))
            before = replay = GAME.apply(replay, ACTION_ADAPTER.validate_json(ACTION_ADAPTER.dump_json(action))).state
        assert replay == state and state.phase == "over"
    assert {"all", "none"} <= kinds  # (a partial choice needs two sleepers: see the orange story)


def test_random_games_with_the_older_optional_rule_end():
    state, actions = simulate(4, 3, "optional")
    assert state.phase == "over"
    assert any(isinstance(a, EndTurn) and a.wake is not None for a in actions)
    assert not any(isinstance(a, Wake) for a in actions)
