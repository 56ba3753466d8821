"""The rulebook's six worked scenarios ("Scénarios de jeu"), as golden tests on the default board.

The rulebook tells six alternative turns, one per colour, read off one pictured position (its
picture is lost). The default board (assets/reglement_board_default.json) picks that reading:
the scenarios are alternatives from ONE state, rebuilt below as `ILLUSTRATED`. Every fact the
six stories state about that position is placed here and nothing contradicts another story:

    A yellow Cogneur        B red Cogneur (register)  C orange Cogneur (gambling)
    D red Flingueur (bar)   E violet Lame, asleep     F blue Cogneur (revolver, faces O)
    G blue Lame (restaurant) H green Parrain          I green Flingueur
    J blue Flingueur (X)    K red Lame (X)            L empty (bar)
    M green Cogneur         N orange Cogneur, asleep  O orange Parrain (gambling)
    P violet Cogneur (knife) Q red Cogneur            R violet Parrain (restaurant)
    #4 yellow Flingueur     #6 blue Cogneur           #9 green Lame
    cakes: red's at #12 (next to A), yellow's at M, blue's at Q

Yellow's, red's and blue's Parrains are dead (none of them earns a Parrain's 1,000). Six
players sit clockwise yellow, red, blue, green, orange, violet. Each scenario begins when the
previous player ends their turn (so steps 1 and 2 run through the engine).
"""

from __future__ import annotations

import pytest

from companion.engine import RuleError, seat_audience
from companion.games.reglement import GAME, Boum, EndTurn, Knife, Move, OrderCake, Pan, PassCake, income
from tests.games.test_reglement_helpers import (
    BLUE,
    GREEN,
    ORANGE,
    RED,
    VIOLET,
    YELLOW,
    at,
    codes,
    killed,
    pass_turn,
    play,
    position,
)

ILLUSTRATED_TABLE = {
    "A": "yellow Cogneur",
    "B": "red Cogneur",
    "C": "orange Cogneur",
    "D": "red Flingueur",
    "E": "violet Lame asleep",
    "F": "blue Cogneur",
    "G": "blue Lame",
    "H": "green Parrain",
    "I": "green Flingueur",
    "J": "blue Flingueur",
    "K": "red Lame",
    "M": "green Cogneur",
    "N": "orange Cogneur asleep",
    "O": "orange Parrain",
    "P": "violet Cogneur",
    "Q": "red Cogneur",
    "R": "violet Parrain",
    "#4": "yellow Flingueur",
    "#6": "blue Cogneur",
    "#9": "green Lame",
}
ILLUSTRATED_CAKES = {"red": "#12", "yellow": "M", "blue": "Q"}
ILLUSTRATED_MONEY = {"yellow": 3000, "red": 5000, "blue": 4000, "green": 2000, "orange": 6000, "violet": 1000}
BANK = 60_000 - sum(ILLUSTRATED_MONEY.values())
ORDER = ("yellow", "red", "blue", "green", "orange", "violet")


def turn_of(colour: str):
    """The illustrated position, at the moment `colour`'s turn begins."""
    previous = ORDER[(ORDER.index(colour) - 1) % 6]
    state = position(
        ILLUSTRATED_TABLE, cakes=ILLUSTRATED_CAKES, money=ILLUSTRATED_MONEY, turn=previous, discarded=True
    )
    outcome = GAME.apply(state, EndTurn(by=ORDER.index(previous)))
    assert outcome.state.turn == ORDER.index(colour)
    return outcome.state, list(outcome.rulings)


def test_the_illustrated_position_is_one_consistent_six_player_table():
    state = position(ILLUSTRATED_TABLE, cakes=ILLUSTRATED_CAKES, money=ILLUSTRATED_MONEY)
    assert state.bank == BANK == 39_000
    # no seat holds two gangsters, every colour still has a gang of at most 5 (6-player game)
    for colour in range(6):
        assert 1 <= sum(1 for g in state.gangsters if g.owner == colour and g.alive) <= 5


def test_red_scenario():
    """You are red. Step 1: your cake explodes, killing an opponent at A. Step 2: you earn
    1,000 for bar D, doubled by your Cogneur at the register B. Step 3: you pass blue's cake on
    so that it does not explode in front of your gangster at Q."""
    state, rulings = turn_of("red")
    assert killed(rulings) == ["A"]
    assert at(state, "A") is None and state.cakes[RED] is None  # the cake is back in front of red
    assert state.money[RED] == 5000 + 2000
    income_ruling = next(r for r in rulings if r.code.startswith("reglement.income"))
    assert income_ruling.code == "reglement.income_doubled"
    assert income_ruling.params == {"seat": RED, "amount": 2000, "parrain_amount": 0, "business_amount": 1000, "at": "B"}

    # the helper shows both ways of passing blue's cake; only clockwise spares Q
    helper = GAME.project(state, seat_audience(RED)).my_options
    passes = {t.direction: t for o in helper if o.card == "pass_cake" for t in o.targets}
    assert passes["counterclockwise"].to_seat == "P"
    assert passes["clockwise"].to_seat == "R"
    q_index = next(i for i, g in enumerate(state.gangsters) if g.seat == "Q")
    assert q_index in passes["counterclockwise"].kills and q_index not in passes["clockwise"].kills

    state, _ = play(state, PassCake(by=RED, cake_seat="Q", direction="clockwise"), EndTurn(by=RED))
    # blue's turn: the cake now explodes at R, and red's gangster at Q lives
    assert state.turn == BLUE
    assert at(state, "Q") == "red Cogneur"
    assert at(state, "R") is None


def test_yellow_scenario():
    """You are yellow. Step 1: your cake explodes, killing two opponents at M and N. Step 2:
    you earn nothing: your Parrain is dead and you hold no business. Step 3: you order a cake in
    front of blue's gangster at J, hoping to kill I, J and K next turn."""
    state, rulings = turn_of("yellow")
    assert killed(rulings) == ["M", "N"]
    assert "reglement.income_none" in codes(rulings)
    assert state.money[YELLOW] == 3000

    helper = GAME.project(state, seat_audience(YELLOW)).my_options
    order_j = next(t for o in helper if o.card == "order_cake" for t in o.targets if t.seat == "J")
    assert sorted(state.gangsters[i].seat for i in order_j.kills) == ["I", "J", "K"]

    state, _ = play(state, OrderCake(by=YELLOW, seat="J"), EndTurn(by=YELLOW))
    # the others play on (red's cake kills A, blue's kills P and Q) ...
    while state.turn != YELLOW:
        state = pass_turn(state)
    # ... and at yellow's next turn the cake at J does what yellow hoped
    assert [at(state, s) for s in "IJK"] == [None, None, None]
    assert at(state, "#4") == "yellow Flingueur"  # yellow is still in the game


def test_orange_scenario():
    """You are orange. Step 1: your cake is not on the table. Step 2: you earn 5,000: 1,000 for
    your Parrain at O and 4,000 for the monopoly of the gambling houses O and C. Step 3: Boum! on
    red's cake kills the yellow gangster at A. Step 4: your man at N wakes up."""
    state, rulings = turn_of("orange")
    assert killed(rulings) == []
    assert state.money[ORANGE] == 6000 + 5000 and state.bank == BANK - 5000
    assert next(r for r in rulings if r.code == "reglement.income").params["business_amount"] == 4000

    state, rulings = play(state, Boum(by=ORANGE, cake_seat="#12"))
    assert killed(rulings) == ["A"]
    assert state.cakes[RED] is None  # back in front of red

    assert at(state, "N") == "orange Cogneur asleep"
    state, rulings = play(state, EndTurn(by=ORANGE))
    assert at(state, "N") == "orange Cogneur"
    woke = next(r for r in rulings if r.code == "reglement.woke")
    assert woke.params == {"seat": ORANGE, "ats": "N"}


def test_violet_scenario():
    """You are violet. Step 2: you earn 2,000 (1,000 for your Parrain at R, 1,000 for the
    restaurant he holds). Step 3: your Lame at E is asleep, so you stab with the knife in front
    of your gangster at P, killing the orange Parrain at O. Step 4: your gangster at E wakes."""
    state, rulings = turn_of("violet")
    assert state.money[VIOLET] == 1000 + 2000
    assert next(r for r in rulings if r.code == "reglement.income").params == {
        "seat": VIOLET,
        "amount": 2000,
        "parrain_amount": 1000,
        "business_amount": 1000,
    }
    helper = GAME.project(state, seat_audience(VIOLET)).my_options
    stabs = {(t.from_seat, t.seat) for o in helper if o.card == "knife" for t in o.targets}
    assert stabs == {("P", "O"), ("P", "Q")}  # nothing from the sleeping Lame at E

    with pytest.raises(RuleError) as refused:
        GAME.apply(state, Knife(by=VIOLET, target="D", from_seat="E"))
    assert refused.value.code == "reglement.err.asleep_cannot_kill"

    state, rulings = play(state, Knife(by=VIOLET, target="O", from_seat="P"))
    assert killed(rulings) == ["O"]
    assert rulings[0].params["kind"] == "parrain" and rulings[0].params["target_seat"] == ORANGE

    state, _ = play(state, EndTurn(by=VIOLET))
    assert at(state, "E") == "violet Lame"


def test_blue_scenario():
    """You are blue. Step 1: your cake explodes, killing the gangsters at P and Q. Step 2: you
    earn 1,000 for the restaurant at G. Step 3: Pan!: your gangster at F takes the revolver and
    shoots the Parrain at O."""
    state, rulings = turn_of("blue")
    assert killed(rulings) == ["P", "Q"]
    assert at(state, "R") == "violet Parrain"  # Q and R are not neighbours on this board
    assert state.money[BLUE] == 4000 + 1000

    helper = GAME.project(state, seat_audience(BLUE)).my_options
    shots = [(t.from_seat, t.seat) for o in helper if o.card == "pan" for t in o.targets]
    assert shots == [("F", "O")]  # the Flingueur at J sits on an X seat

    state, rulings = play(state, Pan(by=BLUE, target="O", from_seat="F"))
    assert killed(rulings) == ["O"]
    assert rulings[0].params["from_kind"] == "cogneur"


def test_green_scenario():
    """You are green. Step 2: your Parrain at H brings 1,000. Step 3: a Déplacement takes him
    to L, hoping he lives to earn 1,000 more for owning a bar next turn."""
    state, _ = turn_of("green")
    assert state.money[GREEN] == 2000 + 1000
    state, _ = play(state, Move(by=GREEN, from_seat="H", to_seat="L"))
    assert at(state, "L") == "green Parrain" and at(state, "H") is None
    assert income(state, GREEN).total == 1000 + 1000
