"""Règlement de comptes: setup, one story per mechanic, end conditions, tie-breaks, house rules,
the private rules helper and bad input.

Positions are on the default (reconstructed) board. Its geometry, for reading the stories:
seats run clockwise A B C ... Q #1 R #2 ... #12 (then A again); facing pairs are A-#2, B-R,
C-#1, D-Q, E-P, F-O, G-N, H-M, I-L, J-K, #12-#3, #11-#4, #10-#5, #9-#6, #8-#7. Bars D and L,
restaurants G and R, gambling C and O, cash register B, glasses E and N, knife P, revolver F,
X seats J, K, #7 and #8.
"""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from companion.engine import BOARD, RuleError, seat_audience
from companion.games.reglement import (
    DECK_SIZE,
    GAME,
    MESSAGES,
    Alerte,
    Boum,
    Discard,
    EndTurn,
    Knife,
    Move,
    NoteHand,
    OrderCake,
    Pan,
    PassCake,
    Pills,
    PlaceGangster,
    PresetGangster,
    income,
)
from companion.games.reglement_board import default_board
from tests.games.test_reglement_helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    at,
    codes,
    killed,
    make_setup,
    play,
    position,
    refused,
)

# --- setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "gang", "bank"),
    [
        (3, {"parrain": 1, "flingueur": 2, "lame": 2, "cogneur": 5}, 120_000),
        (4, {"parrain": 1, "flingueur": 1, "lame": 2, "cogneur": 3}, 90_000),
        (5, {"parrain": 1, "flingueur": 1, "lame": 1, "cogneur": 3}, 70_000),
        # the rulebook's erratum: 1 Flingueur, not 2, at six players
        (6, {"parrain": 1, "flingueur": 1, "lame": 1, "cogneur": 2}, 60_000),
    ],
)
def test_each_player_count_gets_its_gangs_and_bank(n, gang, bank):
    state = GAME.initial_state(make_setup(n), seed=1)
    for player in range(n):
        kinds = [g.kind for g in state.gangsters if g.owner == player]
        assert {k: kinds.count(k) for k in gang} == gang and len(kinds) == sum(gang.values())
    assert state.bank == bank and state.money == (0,) * n
    assert state.draw_pile == DECK_SIZE - 5 * n


def place_next(state):
    """The placer seats their first unseated gangster on the first empty seat."""
    player = state.placer
    gangster = next(g for g in state.gangsters if g.owner == player and g.seat is None)
    taken = {g.seat for g in state.gangsters}
    seat = next(s for s in state.setup.board.ids if s not in taken)
    return GAME.apply(state, PlaceGangster(by=player, kind=gangster.kind, seat=seat))


def test_free_seating_runs_counter_clockwise_and_the_last_placer_starts():
    """Three players; green-less table. Red is the youngest and places first; then one gangster
    at a time counter-clockwise: red, yellow, blue, red, ... The last to place (blue) starts."""
    state = GAME.initial_state(make_setup(3, first_placer=RED), seed=1)
    assert GAME.opening_rulings(state)[0].code == "reglement.seating_started"
    placers = []
    while state.phase == "seating":
        placers.append(state.placer)
        assert GAME.waiting_for(state) == (state.placer,)
        outcome = place_next(state)
        state = outcome.state
    assert placers == [RED, YELLOW, BLUE] * 10
    assert state.phase == "play" and state.turn == BLUE and state.turn_number == 1
    assert codes(outcome.rulings)[-3:] == ["reglement.seating_done", "reglement.turn_started", "reglement.income"]
    assert all(g.seat for g in state.gangsters)


def test_whole_gang_seating_house_rule():
    state = GAME.initial_state(make_setup(3, first_placer=YELLOW, seating_order="whole_gang"), seed=1)
    placers = []
    while state.phase == "seating":
        placers.append(state.placer)
        state = place_next(state).state
    assert placers == [YELLOW] * 10 + [BLUE] * 10 + [RED] * 10
    assert state.turn == RED


def test_the_first_placer_is_drawn_from_the_seed_when_not_given():
    drawn = {GAME.initial_state(make_setup(4), seed=seed).placer for seed in range(40)}
    assert drawn == {0, 1, 2, 3}
    assert GAME.initial_state(make_setup(4), seed=7) == GAME.initial_state(make_setup(4), seed=7)


def preset_for(n):
    ids = iter(default_board().ids)
    state = GAME.initial_state(make_setup(n), seed=0)
    return tuple(PresetGangster(player=g.owner, kind=g.kind, seat=next(ids)) for g in state.gangsters)


def test_a_preset_seating_starts_with_yellow():
    """The table saved a seating earlier; with it the rulebook's order applies: yellow starts."""
    preset = preset_for(3)
    state = GAME.initial_state(make_setup(3, seating="preset", preset=preset), seed=0)
    assert state.phase == "play" and state.turn == YELLOW and state.turn_number == 1
    assert all(at(state, p.seat) for p in preset)
    assert state.money[YELLOW] == income(state, YELLOW).total > 0
    # yellow's gangsters took A to J: the register B doubles the first income
    assert codes(GAME.opening_rulings(state)) == [
        "reglement.preset_seating",
        "reglement.turn_started",
        "reglement.income_doubled",
    ]
    chosen = GAME.initial_state(make_setup(3, seating="preset", preset=preset, first_player=BLUE), seed=0)
    assert chosen.turn == BLUE


def test_a_preset_must_match_the_gangs():
    preset = preset_for(3)
    with pytest.raises(ValidationError, match="gives Yellow 0 Parrain, not 1"):
        make_setup(3, seating="preset", preset=preset[1:])
    with pytest.raises(ValidationError, match="two gangsters on seat A"):
        make_setup(3, seating="preset", preset=(preset[0].model_copy(update={"seat": "A"}),) + preset[1:-1] + (preset[-1].model_copy(update={"seat": "A"}),))
    with pytest.raises(ValidationError, match="not on this board"):
        make_setup(3, seating="preset", preset=(preset[0].model_copy(update={"seat": "Z9"}),) + preset[1:])


# --- step 1: cakes -----------------------------------------------------------------------------


def test_a_cake_passed_along_then_blown_up_by_boum():
    """Yellow orders a cake in front of red's Cogneur at F. Red passes it on: clockwise it would
    land on his own Flingueur at H, so he sends it counter-clockwise to the nearest gangster,
    yellow's Parrain at B. Blue then plays Boum! on it: A, B and C are blown up, yellow's only
    gangster dies, yellow is out, and the cake goes back to its (out) owner."""
    state = position(
        {"B": "yellow Parrain", "F": "red Cogneur", "H": "red Flingueur", "K": "blue Parrain", "M": "blue Cogneur"},
        n=3,
        turn="yellow",
    )
    state, _ = play(state, OrderCake(by=YELLOW, seat="F"), EndTurn(by=YELLOW))
    assert state.cakes[YELLOW] == "F"
    state, rulings = play(state, PassCake(by=RED, cake_seat="F", direction="counterclockwise"), EndTurn(by=RED))
    assert state.cakes[YELLOW] == "B"
    assert rulings[0].code == "reglement.played_pass_cake_counterclockwise"
    state, rulings = play(state, Boum(by=BLUE, cake_seat="B"))
    assert killed(rulings) == ["B"]
    assert "reglement.player_out" in codes(rulings)
    assert state.cakes[YELLOW] is None and state.out_moment[YELLOW] is not None
    state, rulings = play(state, EndTurn(by=BLUE))
    assert state.turn == RED  # yellow, out, is skipped


def test_your_own_cake_kills_your_own_gangsters_and_can_knock_you_out():
    """Red's cake sits between his two last gangsters. At the start of red's turn it explodes:
    both die, red is out before collecting any income, and the turn passes to blue."""
    state = position(
        {"A": "yellow Parrain", "C": "red Parrain", "E": "red Cogneur", "K": "blue Parrain"},
        n=3,
        cakes={"red": "D"},
        turn="yellow",
        discarded=True,
    )
    state, rulings = play(state, EndTurn(by=YELLOW))
    assert killed(rulings) == ["C", "E"]
    assert state.turn == BLUE and state.money[RED] == 0
    assert "reglement.player_out" in codes(rulings)


def test_passing_a_cake_skips_a_gangster_who_already_has_one():
    """Blue's cake is at F. Clockwise the nearest gangster is at G, but red's own cake sits
    there: the cake goes on to the next gangster, at H (house rule "skip", the default). With the
    house rule "blocked" that way is refused."""
    table = {"F": "yellow Cogneur", "G": "yellow Parrain", "H": "red Parrain", "K": "blue Parrain"}
    state = position(table, n=3, cakes={"blue": "F", "red": "G"}, turn="yellow")
    assert play(state, PassCake(by=YELLOW, cake_seat="F", direction="clockwise"))[0].cakes[BLUE] == "H"
    blocked = position(table, n=3, cakes={"blue": "F", "red": "G"}, turn="yellow", pass_onto_cake="blocked")
    assert refused(blocked, PassCake(by=YELLOW, cake_seat="F", direction="clockwise")) == "reglement.err.pass_nowhere"


def test_a_cake_can_be_ordered_onto_an_empty_seat_and_blows_up_the_neighbours():
    """Yellow orders a cake on the empty seat L, between red's Parrain at K and blue's at M."""
    state = position({"A": "yellow Parrain", "K": "red Parrain", "M": "blue Parrain"}, n=3, turn="yellow")
    state, _ = play(state, OrderCake(by=YELLOW, seat="L"), EndTurn(by=YELLOW))
    state, _ = play(state, Discard(by=RED), EndTurn(by=RED), Discard(by=BLUE))
    assert at(state, "K") and at(state, "M")  # the cake waits for yellow's next turn
    state, rulings = play(state, EndTurn(by=BLUE))
    assert killed(rulings) == ["K", "M"]
    # red and blue were both knocked out by it: yellow is the last one standing
    assert state.phase == "over" and state.ended_by == "last_player"


# --- step 2: income ------------------------------------------------------------------------------


def test_monopoly_plus_register_is_4000_doubled():
    """Red holds both gambling houses (C and O) and the cash register (B); his Parrain is dead:
    4,000 for the monopoly, doubled = 8,000. With the Parrain alive: (1,000 + 4,000) × 2."""
    table = {"B": "red Cogneur", "C": "red Cogneur", "O": "red Lame", "K": "yellow Parrain", "M": "blue Parrain"}
    state = position(table, n=3, turn="yellow", discarded=True)
    state, rulings = play(state, EndTurn(by=YELLOW))
    assert state.money[RED] == 8000
    assert rulings[-1].params == {"seat": RED, "amount": 8000, "parrain_amount": 0, "business_amount": 4000, "at": "B"}
    with_parrain = position({**table, "A": "red Parrain"}, n=3)
    assert income(with_parrain, RED).total == 10_000


def test_sleeping_gangsters_earn_nothing():
    """Red's Parrain, his man at the register and his man on bar D are all asleep: no income.
    With the house rule sleepers_earn="yes" they would bring (1,000 + 1,000) × 2."""
    table = {"A": "red Parrain asleep", "B": "red Cogneur asleep", "D": "red Cogneur asleep", "K": "yellow Parrain"}
    assert income(position(table, n=3), RED).total == 0
    assert income(position(table, n=3, sleepers_earn="yes"), RED).total == 4000


def test_the_bank_running_dry_mid_payment_ends_the_game():
    """The bank holds 1,500; red is owed 2,000 (bar D doubled by the register). Red takes the
    1,500 and the game ends at once."""
    state = position(
        {"B": "red Cogneur", "D": "red Cogneur", "K": "yellow Parrain", "M": "blue Parrain"},
        n=3,
        money={"yellow": 50_000, "red": 40_000, "blue": 28_500},
        bank=1_500,
        turn="yellow",
        discarded=True,
    )
    state, rulings = play(state, EndTurn(by=YELLOW))
    assert state.money[RED] == 41_500 and state.bank == 0
    assert codes(rulings)[-4:] == [
        "reglement.income_doubled",
        "reglement.bank_short",
        "reglement.game_over_bank_empty",
        "reglement.winners",
    ]
    assert GAME.result(state) == {"money": [50_000, 41_500, 28_500], "winners": [YELLOW]}
    assert GAME.waiting_for(state) == () and GAME.random_action(state, None) is None


# --- step 3: knives, guns, pills, moves, Alerte! -------------------------------------------------


def test_a_lame_stabs_a_neighbour_and_any_gangster_at_the_knife_seat_can_too():
    state = position(
        {"A": "yellow Lame", "B": "red Cogneur", "P": "yellow Cogneur", "O": "blue Parrain", "M": "blue Lame"},
        n=3,
    )
    targets = {(t.from_seat, t.seat) for o in GAME.options(state, YELLOW) if o.card == "knife" for t in o.targets}
    assert targets == {("A", "B"), ("P", "O")}
    state, rulings = play(state, Knife(by=YELLOW, target="O"))  # the engine finds the knife at P
    assert killed(rulings) == ["O"] and rulings[0].params["from_at"] == "P"


def test_a_second_pill_kills_a_sleeper():
    """Blue pours pills for red's Lame at E and red's Parrain at N: both fall asleep. Before
    red's turn comes round to wake them, yellow pours another for the Lame at E: he never wakes."""
    state = position(
        {"E": "red Lame", "N": "red Parrain", "A": "red Cogneur", "K": "yellow Parrain", "M": "blue Parrain"},
        n=3,
        turn="blue",
    )
    state, rulings = play(state, Pills(by=BLUE, targets=("E", "N")))
    assert codes(rulings) == ["reglement.played_pills", "reglement.fell_asleep", "reglement.fell_asleep"]
    assert at(state, "E") == "red Lame asleep"
    state, _ = play(state, EndTurn(by=BLUE))  # yellow's turn
    helper = {t.seat: t for o in GAME.options(state, YELLOW) if o.card == "pills" for t in o.targets}
    assert helper["E"].asleep and helper["E"].kills  # the helper warns: this pill kills
    state, rulings = play(state, Pills(by=YELLOW, targets=("E",)))
    assert codes(rulings) == ["reglement.played_pills", "reglement.killed_by_pill"]
    assert at(state, "E") is None and at(state, "N") == "red Parrain asleep"


def test_sleepers_wake_at_the_end_of_their_owners_turn_and_cannot_act_before():
    state = position({"A": "red Lame asleep", "B": "yellow Cogneur", "K": "blue Parrain"}, n=3, turn="red")
    assert refused(state, Knife(by=RED, target="B", from_seat="A")) == "reglement.err.asleep_cannot_kill"
    assert refused(state, Move(by=RED, from_seat="A", to_seat="L")) == "reglement.err.asleep_cannot_move"
    state, rulings = play(state, Discard(by=RED), EndTurn(by=RED))
    assert at(state, "A") == "red Lame"
    assert "reglement.woke" in codes(rulings)


def test_optional_wake_up_house_rule():
    table = {"A": "red Lame asleep", "E": "red Cogneur asleep", "K": "blue Parrain", "M": "yellow Parrain"}
    state = position(table, n=3, turn="red", discarded=True, wake_up="optional")
    state, _ = play(state, EndTurn(by=RED, wake=("E",)))
    assert at(state, "A") == "red Lame asleep" and at(state, "E") == "red Cogneur"
    state = position(table, n=3, turn="red", discarded=True, wake_up="optional")
    assert refused(state, EndTurn(by=RED, wake=("K",))) == "reglement.err.not_your_sleeper"


def test_a_sleeping_flingueur_cannot_shoot():
    """Red's Flingueur at D faces blue's Cogneur at Q, but he is asleep."""
    state = position({"D": "red Flingueur asleep", "Q": "blue Cogneur", "K": "yellow Parrain"}, n=3, turn="red")
    assert refused(state, Pan(by=RED, target="Q", from_seat="D")) == "reglement.err.asleep_cannot_kill"
    assert refused(state, Pan(by=RED, target="Q")) == "reglement.err.out_of_reach"
    assert not next(o for o in GAME.options(state, RED) if o.card == "pan").targets


def test_pan_is_refused_from_an_x_seat_unless_the_seat_has_a_revolver():
    """Red's Flingueur at J (an X seat) faces blue at K: he cannot shoot. His Flingueur at I
    shoots L across the table. On a board where J also has a revolver, the one at J may shoot."""
    table = {"J": "red Flingueur", "K": "blue Cogneur", "I": "red Flingueur", "L": "blue Parrain", "A": "yellow Parrain"}
    state = position(table, n=3, turn="red")
    assert refused(state, Pan(by=RED, target="K", from_seat="J")) == "reglement.err.x_seat"
    shots = {(t.from_seat, t.seat) for o in GAME.options(state, RED) if o.card == "pan" for t in o.targets}
    assert shots == {("I", "L")}
    board = default_board().with_seat("J", revolver=True)
    armed = position(table, turn="red", setup=make_setup(3, board=board))
    state, rulings = play(armed, Pan(by=RED, target="K", from_seat="J"))
    assert killed(rulings) == ["K"]


def test_alerte_reseats_everyone_one_at_a_time_counter_clockwise_from_its_player():
    """Four players. Blue plays Alerte!: every gangster leaves the table. Blue seats first, then
    red, yellow, green, blue, ... counter-clockwise, each player dropping out of the round once
    their gang is seated (yellow has 1 gangster, red 2, blue 3, green 2). Pills and cakes stay.
    Blue may then play a Déplacement, but no second action card."""
    state = position(
        {
            "A": "yellow Parrain",
            "B": "red Parrain",
            "C": "red Cogneur asleep",
            "D": "blue Parrain",
            "E": "blue Lame",
            "F": "blue Cogneur",
            "G": "green Parrain",
            "H": "green Lame",
        },
        n=4,
        cakes={"yellow": "K"},
        turn="blue",
    )
    state, rulings = play(state, Alerte(by=BLUE))
    assert state.phase == "alerte" and not any(g.seat for g in state.gangsters)
    assert state.cakes[YELLOW] == "K"
    order = []
    empty = iter(["#1", "#2", "#3", "#4", "#5", "#6", "#7", "#8"])
    while state.phase == "alerte":
        player = state.placer
        order.append(player)
        assert refused(state, Discard(by=player)) == "reglement.err.wrong_phase"
        kind = next(g.kind for g in state.gangsters if g.owner == player and g.alive and g.seat is None)
        state, _ = play(state, PlaceGangster(by=player, kind=kind, seat=next(empty)))
    assert order == [BLUE, RED, YELLOW, GREEN, BLUE, RED, GREEN, BLUE]
    assert any(g.asleep and g.owner == RED and g.seat for g in state.gangsters)  # still asleep
    assert refused(state, Knife(by=BLUE, target="#2")) == "reglement.err.second_action"
    state, _ = play(state, Move(by=BLUE, from_seat="#1", to_seat="L"), EndTurn(by=BLUE))
    assert at(state, "L") == "blue Parrain" and state.turn == GREEN


def test_alerte_house_rules_wake_everyone_return_cakes_and_remove_the_card():
    state = position(
        {"A": "yellow Parrain asleep", "B": "red Parrain", "C": "blue Parrain"},
        n=3,
        cakes={"red": "K"},
        turn="blue",
        alerte_pills="removed",
        alerte_cakes="returned",
        alerte_card="leaves_game",
    )
    state, _ = play(state, Alerte(by=BLUE))
    assert not any(g.asleep for g in state.gangsters) and state.cakes == (None, None, None)
    assert state.removed_cards == 1


def test_moves_go_to_empty_seats_only():
    state = position({"A": "yellow Parrain", "B": "yellow Cogneur", "K": "red Parrain", "M": "blue Parrain"}, n=3)
    assert refused(state, Move(by=YELLOW, from_seat="A", to_seat="B")) == "reglement.err.seat_taken"
    assert refused(state, Move(by=YELLOW, from_seat="K", to_seat="L")) == "reglement.err.not_your_gangster"
    state, _ = play(state, Move(by=YELLOW, from_seat="A", to_seat="L"), Move(by=YELLOW, from_seat="L", to_seat="D"))
    assert at(state, "D") == "yellow Parrain" and state.cards_played == ("move", "move")


# --- card order and drawing ------------------------------------------------------------------------

THREE = {"A": "yellow Lame", "B": "red Cogneur", "K": "blue Parrain", "M": "blue Cogneur", "E": "red Parrain"}


def test_one_action_then_one_move_or_two_moves_never_more():
    state = position(THREE, n=3)
    after_action, _ = play(state, Knife(by=YELLOW, target="B"))
    assert refused(after_action, OrderCake(by=YELLOW, seat="C")) == "reglement.err.second_action"
    after_both, _ = play(after_action, Move(by=YELLOW, from_seat="A", to_seat="C"))
    assert refused(after_both, Move(by=YELLOW, from_seat="C", to_seat="D")) == "reglement.err.card_limit"
    after_move, _ = play(state, Move(by=YELLOW, from_seat="A", to_seat="C"))
    assert refused(after_move, OrderCake(by=YELLOW, seat="C")) == "reglement.err.action_after_move"
    assert refused(after_move, Discard(by=YELLOW)) == "reglement.err.discard_after_play"
    discarded, _ = play(state, Discard(by=YELLOW))
    assert refused(discarded, Move(by=YELLOW, from_seat="A", to_seat="C")) == "reglement.err.already_discarded"
    assert refused(discarded, Discard(by=YELLOW)) == "reglement.err.already_discarded"
    assert refused(state, EndTurn(by=YELLOW)) == "reglement.err.nothing_played"


def test_drawing_back_up_reshuffles_the_set_aside_cards_when_the_pile_runs_out():
    state = position(THREE, n=3, turn="yellow").model_copy(update={"draw_pile": 1, "set_aside": 29})
    state, rulings = play(state, Knife(by=YELLOW, target="B"), Move(by=YELLOW, from_seat="A", to_seat="C"))
    assert state.set_aside == 31
    state, rulings = play(state, EndTurn(by=YELLOW))
    assert "reglement.reshuffled" in codes(rulings)
    # 1 card from the old pile, 1 from the 31 reshuffled: 30 left, nothing set aside
    assert (state.draw_pile, state.set_aside) == (30, 0)


# --- the end ---------------------------------------------------------------------------------------


def test_the_last_player_with_gangsters_takes_the_rest_of_the_bank():
    """Blue is already out. Yellow's Lame at J stabs red's last gangster at K: only yellow has
    gangsters left, and takes everything left in the bank."""
    state = position(
        {"J": "yellow Lame", "K": "red Cogneur"},
        n=3,
        money={"yellow": 10_000, "red": 30_000, "blue": 20_000},
        out={"blue": (3, 2)},
    )
    state, rulings = play(state, Knife(by=YELLOW, target="K", from_seat="J"))
    assert state.phase == "over" and state.ended_by == "last_player"
    assert state.money == (70_000, 30_000, 20_000) and state.bank == 0
    assert GAME.result(state) == {"money": [70_000, 30_000, 20_000], "winners": [YELLOW]}
    assert "reglement.game_over_last_player" in codes(rulings)


def test_the_last_gangsters_blown_up_together_end_the_game():
    """Blue is out but his cake is still on the table at B; it no longer explodes by itself.
    Yellow (A) and red (C) have one gangster each, on both sides of it. Yellow plays Boum! on it:
    both die in the one blast and the game ends."""
    state = position(
        {"A": "yellow Parrain", "C": "red Parrain"},
        n=3,
        cakes={"blue": "B"},
        money={"yellow": 5_000, "red": 9_000, "blue": 2_000},
        out={"blue": (1, 3)},
    )
    state, rulings = play(state, Boum(by=YELLOW, cake_seat="B"))
    assert killed(rulings) == ["A", "C"]
    assert state.ended_by == "all_dead" and state.winners == (RED,) and state.tiebreak == "money"


def test_tie_on_money_goes_to_the_gang_that_stayed_in_play_longest():
    state = position(
        {"A": "yellow Parrain", "C": "red Parrain"},
        n=3,
        cakes={"blue": "B"},
        money={"yellow": 5_000, "red": 5_000, "blue": 5_000},
        out={"blue": (1, 3)},
    )
    state, rulings = play(state, Boum(by=YELLOW, cake_seat="B"))
    # yellow and red went out together, after blue: they tie on survival too, and on gangsters
    assert state.winners == (YELLOW, RED) and state.tiebreak == "shared"
    assert "reglement.tiebreak_shared" in codes(rulings)
    # a richer table: blue tied with red but blue went out earlier
    state = position(
        {"A": "yellow Parrain", "C": "red Parrain"},
        n=3,
        cakes={"blue": "B"},
        money={"yellow": 1_000, "red": 5_000, "blue": 5_000},
        out={"blue": (1, 3)},
    )
    state, rulings = play(state, Boum(by=YELLOW, cake_seat="B"))
    assert state.winners == (RED,) and state.tiebreak == "survival"
    assert "reglement.tiebreak_survival" in codes(rulings)


def test_tied_and_out_together_the_one_with_more_gangsters_at_the_end_wins():
    """Red's cake at B explodes at his turn: it kills his Parrain at C and yellow's two
    gangsters at A and B, the last of both gangs. Same money, same moment: yellow had two
    gangsters on the table, red one."""
    state = position(
        {"A": "yellow Parrain", "B": "yellow Cogneur", "C": "red Parrain"},
        n=3,
        cakes={"red": "B"},
        money={"yellow": 4_000, "red": 4_000, "blue": 1_000},
        out={"blue": (1, 3)},
        turn="yellow",
        discarded=True,
    )
    state, rulings = play(state, EndTurn(by=YELLOW))
    assert state.ended_by == "all_dead"
    assert state.winners == (YELLOW,) and state.tiebreak == "gangsters"
    assert "reglement.tiebreak_gangsters" in codes(rulings)


@pytest.mark.parametrize(
    ("rule", "winners", "tiebreak"), [("living_gangsters", (RED,), "gangsters"), ("shared", (YELLOW, RED), "shared")]
)
def test_tied_players_both_still_in_play(rule, winners, tiebreak):
    """Red's Parrain earns the bank's last 1,000: the bank is empty and the game ends with yellow
    and red on 10,000 each, both still in play. By default the one with more living gangsters
    (red, 2 against 1) wins; with the house rule "shared" they share the win."""
    state = position(
        {"A": "yellow Parrain", "C": "red Parrain", "H": "red Cogneur", "K": "blue Parrain"},
        n=3,
        money={"yellow": 10_000, "red": 9_000, "blue": 1_000},
        bank=1_000,
        turn="yellow",
        discarded=True,
        tie_in_play=rule,
    )
    state, _ = play(state, EndTurn(by=YELLOW))
    assert state.ended_by == "bank_empty" and state.money == (10_000, 10_000, 1_000)
    assert state.winners == winners and state.tiebreak == tiebreak


# --- house rules for the blast, the knife's reach and targets -------------------------------------


def test_blast_house_rule_also_kills_the_seat_facing_the_cake():
    table = {"A": "yellow Lame", "E": "yellow Cogneur", "F": "yellow Parrain", "O": "red Parrain", "K": "blue Parrain"}
    plain = position(table, n=3, cakes={"red": "F"}, turn="yellow")
    assert killed(play(plain, Boum(by=YELLOW, cake_seat="F"))[1]) == ["E", "F"]
    facing = position(table, n=3, cakes={"red": "F"}, turn="blue", blast="neighbours_and_facing")
    assert killed(play(facing, Boum(by=BLUE, cake_seat="F"))[1]) == ["E", "F", "O"]


def test_skip_empty_seats_house_rule_lets_knife_and_blast_reach_past_empty_seats():
    table = {"A": "yellow Lame", "D": "red Cogneur", "K": "blue Parrain", "M": "blue Cogneur"}
    strict = position(table, n=3)
    assert refused(strict, Knife(by=YELLOW, target="D", from_seat="A")) == "reglement.err.not_next_to"
    skipping = position(table, n=3, empty_neighbour="skip")
    assert killed(play(skipping, Knife(by=YELLOW, target="D", from_seat="A"))[1]) == ["D"]
    # red's cake at H has empty seats on both sides: strictly it kills nobody, skipping it
    # reaches red's Cogneur at D and blue's Parrain at K
    assert killed(play(position(table, n=3, cakes={"red": "H"}), Boum(by=YELLOW, cake_seat="H"))[1]) == []
    blast = position(table, n=3, cakes={"red": "H"}, empty_neighbour="skip")
    assert killed(play(blast, Boum(by=YELLOW, cake_seat="H"))[1]) == ["D", "K"]


def test_own_targets_house_rule():
    table = {"A": "yellow Lame", "B": "yellow Cogneur", "K": "blue Parrain", "M": "red Parrain"}
    assert refused(position(table, n=3), Knife(by=YELLOW, target="B")) == "reglement.err.own_gangster"
    state, rulings = play(position(table, n=3, own_targets="allowed"), Knife(by=YELLOW, target="B"))
    assert killed(rulings) == ["B"]


def test_exactly_three_pills_house_rule():
    table = {"E": "red Lame", "N": "blue Parrain", "A": "yellow Parrain", "K": "red Parrain"}
    state = position(table, n=3, pills_per_card="exactly_3")
    # only two opponents sit at glasses, so exactly two it must be
    assert refused(state, Pills(by=YELLOW, targets=("E",))) == "reglement.err.pill_count"
    assert play(state, Pills(by=YELLOW, targets=("E", "N")))[0].gangsters


def test_boumed_cake_removed_house_rule():
    table = {"A": "yellow Parrain", "K": "red Parrain", "M": "blue Parrain"}
    state = position(table, n=3, cakes={"red": "D"}, turn="yellow", discarded=False, boumed_cake="removed")
    state, rulings = play(state, Boum(by=YELLOW, cake_seat="D"), EndTurn(by=YELLOW))
    assert "reglement.cake_exploded_gone" in codes(rulings)
    assert refused(state, OrderCake(by=RED, seat="C")) == "reglement.err.cake_gone"


# --- the private rules helper and the hand note --------------------------------------------------


def test_the_helper_lists_every_target_for_the_player_only():
    """Red's Flingueur at D faces blue's Cogneur at Q: "Pan!: you can shoot Blue's Cogneur at Q
    from your Flingueur at D". Only red's own phone shows it."""
    state = position(
        {"D": "red Flingueur", "Q": "blue Cogneur", "A": "yellow Parrain", "C": "red Parrain"}, n=3, turn="red"
    )
    mine = GAME.project(state, seat_audience(RED))
    pan = next(o for o in mine.my_options if o.card == "pan")
    assert pan.playable_now
    assert [(t.seat, t.owner, t.kind, t.from_seat, t.from_kind) for t in pan.targets] == [
        ("Q", BLUE, "cogneur", "D", "flingueur")
    ]
    assert GAME.project(state, BOARD).my_options is None and GAME.project(state, BOARD).me is None
    theirs = GAME.project(state, seat_audience(BLUE))
    blue_pan = next(o for o in theirs.my_options if o.card == "pan")
    assert not blue_pan.playable_now and blue_pan.blocked == "reglement.err.not_your_turn"
    # every helper target is accepted by the engine
    for option in mine.my_options:
        for target in option.targets:
            if option.card in ("knife", "pan"):
                GAME.apply(state, (Knife if option.card == "knife" else Pan)(by=RED, target=target.seat, from_seat=target.from_seat))


def test_the_hand_note_is_private_and_follows_played_cards():
    state = position(THREE, n=3)
    note = NoteHand(by=YELLOW, cards=("knife", "move", "move", "boum", "pan"))
    assert not GAME.is_public(note) and "cards" not in GAME.redact(note)
    outcome = GAME.apply(state, note)
    assert outcome.rulings == ()
    state = outcome.state
    assert GAME.project(state, seat_audience(YELLOW)).me.hand == note.cards
    assert GAME.project(state, seat_audience(RED)).me.hand == ()
    state, _ = play(state, Knife(by=YELLOW, target="B"))
    assert GAME.project(state, seat_audience(YELLOW)).me.hand == ("move", "move", "boum", "pan")
    moves = next(o for o in GAME.project(state, seat_audience(YELLOW)).my_options if o.card == "move")
    assert moves.in_hand == 2
    assert refused(state, NoteHand(by=YELLOW, cards=("move",) * 6)) == "reglement.err.hand_too_big"


# --- bad input ------------------------------------------------------------------------------------

BAD_TABLE = {
    "A": "yellow Lame",
    "B": "yellow Cogneur",
    "C": "red Cogneur",
    "D": "yellow Flingueur",
    "Q": "red Cogneur",
    "J": "yellow Flingueur",
    "K": "blue Cogneur",
    "E": "red Lame",
    "H": "yellow Parrain asleep",
    "N": "blue Parrain",
    "#5": "red Parrain",
}


def bad_state(**fields):
    return position(BAD_TABLE, n=3, cakes={"yellow": "#9", "red": "#3"}, **fields)


@pytest.mark.parametrize(
    ("action", "code", "fields"),
    [
        # the list
        (Knife(by=YELLOW, target="B", from_seat="A"), "reglement.err.own_gangster", {}),
        (Pan(by=YELLOW, target="K", from_seat="J"), "reglement.err.x_seat", {}),
        (Pills(by=YELLOW, targets=("C",)), "reglement.err.no_glass", {}),
        (Move(by=YELLOW, from_seat="H", to_seat="L"), "reglement.err.asleep_cannot_move", {}),
        (Move(by=YELLOW, from_seat="A", to_seat="L"), "reglement.err.card_limit", {"cards_played": ("knife", "move")}),
        # and the rest
        (Knife(by=RED, target="A"), "reglement.err.not_your_turn", {}),
        (Knife(by=7, target="A"), "reglement.err.unknown_player", {}),
        (Knife(by=YELLOW, target="Z9"), "reglement.err.no_such_seat", {}),
        (Knife(by=YELLOW, target="L"), "reglement.err.empty_seat", {}),
        (Knife(by=YELLOW, target="E", from_seat="C"), "reglement.err.not_your_gangster", {}),
        (Knife(by=YELLOW, target="E", from_seat="D"), "reglement.err.no_blade", {}),
        (Knife(by=YELLOW, target="Q", from_seat="A"), "reglement.err.not_next_to", {}),
        (Knife(by=YELLOW, target="K"), "reglement.err.out_of_reach", {}),
        (Knife(by=YELLOW, target="C", from_seat="H"), "reglement.err.asleep_cannot_kill", {}),
        (Pan(by=YELLOW, target="C", from_seat="B"), "reglement.err.no_gun", {}),
        (Pan(by=YELLOW, target="K", from_seat="D"), "reglement.err.not_facing", {}),
        (Pills(by=YELLOW, targets=()), "reglement.err.pill_count", {}),
        (Pills(by=YELLOW, targets=("E", "N", "C", "Q")), "reglement.err.pill_count", {}),
        (Pills(by=YELLOW, targets=("E", "E")), "reglement.err.pill_twice", {}),
        (Pills(by=YELLOW, targets=("N", "L")), "reglement.err.empty_seat", {}),
        (OrderCake(by=YELLOW, seat="C"), "reglement.err.cake_on_table", {}),
        (Boum(by=YELLOW, cake_seat="L"), "reglement.err.no_cake_there", {}),
        (Boum(by=YELLOW, cake_seat="#9"), "reglement.err.own_cake", {}),
        (PassCake(by=YELLOW, cake_seat="#9", direction="clockwise"), "reglement.err.own_cake", {}),
        (Move(by=YELLOW, from_seat="A", to_seat="B"), "reglement.err.seat_taken", {}),
        (Knife(by=YELLOW, target="C", from_seat="B"), "reglement.err.second_action", {"cards_played": ("boum",)}),
        (Knife(by=YELLOW, target="C", from_seat="B"), "reglement.err.action_after_move", {"cards_played": ("move",)}),
        (Discard(by=YELLOW), "reglement.err.discard_after_play", {"cards_played": ("move",)}),
        (Move(by=YELLOW, from_seat="A", to_seat="L"), "reglement.err.already_discarded", {"discarded": True}),
        (EndTurn(by=YELLOW), "reglement.err.nothing_played", {}),
        (EndTurn(by=YELLOW, wake=("H",)), "reglement.err.wake_automatic", {"discarded": True}),
        (PlaceGangster(by=YELLOW, kind="cogneur", seat="L"), "reglement.err.wrong_phase", {}),
    ],
)
def test_bad_input_is_refused_with_its_own_code_and_changes_nothing(action, code, fields):
    assert refused(bad_state(**fields), action) == code


def test_seating_bad_input():
    state = GAME.initial_state(make_setup(3, first_placer=RED), seed=0)
    assert refused(state, PlaceGangster(by=YELLOW, kind="cogneur", seat="A")) == "reglement.err.not_your_turn"
    assert refused(state, PlaceGangster(by=RED, kind="cogneur", seat="Z9")) == "reglement.err.no_such_seat"
    assert refused(state, Knife(by=RED, target="A")) == "reglement.err.wrong_phase"
    state, _ = play(state, PlaceGangster(by=RED, kind="parrain", seat="A"))
    assert refused(state, PlaceGangster(by=YELLOW, kind="cogneur", seat="A")) == "reglement.err.seat_taken"
    state, _ = play(state, *(PlaceGangster(by=p, kind="parrain", seat=s) for p, s in ((YELLOW, "B"), (BLUE, "C"))))
    assert refused(state, PlaceGangster(by=RED, kind="parrain", seat="D")) == "reglement.err.none_left_to_place"


def test_a_finished_game_refuses_everything_and_an_out_player_cannot_note_a_hand():
    state = position({"J": "yellow Lame", "K": "red Cogneur"}, n=3, out={"blue": (1, 1)})
    assert refused(state, NoteHand(by=BLUE, cards=())) == "reglement.err.player_out"
    state, _ = play(state, Knife(by=YELLOW, target="K"))
    assert refused(state, EndTurn(by=YELLOW)) == "reglement.err.game_over"


def test_error_messages_name_what_is_wrong():
    """Every template's fields are filled by the error's params."""
    with pytest.raises(RuleError) as error:
        GAME.apply(bad_state(), Pan(by=YELLOW, target="K", from_seat="J"))
    template = re.sub(r"\{(\w+):[^{}]+\}", r"{\1}", MESSAGES[error.value.code])
    assert template.format(**error.value.params) == "Your Flingueur at J sits on a seat marked X and cannot shoot."


@pytest.mark.parametrize(
    ("players", "gangs"),
    [
        (3, ("yellow", "red", "blue")),
        (4, ("yellow", "red", "blue", "green")),
        (5, ("yellow", "red", "blue", "green", "orange")),
        (6, ("yellow", "red", "blue", "green", "orange", "purple")),
    ],
)
def test_the_gangs_played_are_the_rulebooks_for_the_player_count(players: int, gangs: tuple[str, ...]) -> None:
    """RULES 4.3 (the box's gangs, 4.2: yellow, red and blue hold 10 gangsters, green 7, orange 6,
    violet 5): each player count plays these gangs, the only ones with a player's share."""
    assert GAME.player_colours(players) == gangs
