"""Chicago Poker engine: scenario stories, one per mechanic, and bad input.

Seats: A = 0, B = 1, C = 2, D = 3. Cards are written "9c1": value 9, colour c1.
Businesses are numbered in the order their tiles are entered.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine import BOARD, RuleError, seat_audience
from companion.games.chicago_poker import (
    GAME,
    MESSAGES,
    Bribe,
    Bribed,
    Card,
    ChooseShootout,
    Draw,
    EndTurn,
    Limousine,
    Liquidation,
    Placed,
    PlayFaceDown,
    PlayFaceUp,
    PoliceRaid,
    Reinforce,
    RevealDeckCard,
    RevealTile,
    Revolver,
    Setup,
    State,
    Tile,
    face_of,
)
from companion.i18n import Translator
from companion.players import Player
from companion.room import apply_logged

A, B, C, D = 0, 1, 2, 3
NAMES = ("Ada", "Bea", "Cyd", "Dex", "Eve", "Fay")
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange")


def card(text: str) -> Card:
    value, colour = text.split("c")
    return Card(value=int(value), colour=f"c{colour}")


def translator() -> Translator:
    tr = Translator("en")
    tr.messages = {**tr.messages, **MESSAGES}
    return tr


class Table:
    """A game driven by actions, keeping every outcome for the assertions."""

    def __init__(self, tiles: tuple[str, ...], players: int = 2, first: int = 0, seed: int = 7, **rules: Any):
        setup = Setup(
            players=tuple(Player(name=NAMES[i], colour=COLOURS[i]) for i in range(players)),
            first_player=first,
            **rules,
        )
        self.state: State = GAME.initial_state(setup, seed)
        self.outcomes: list[Any] = []
        self.rng = random.Random(seed)
        for kind in tiles:
            self.do(RevealTile(by=first, kind=kind))

    # acting

    def do(self, action: Any) -> Any:
        """Apply `action` and, when a shootout or a round of picks then waits for the reveal,
        the reveal with it: these stories are about what the reveal resolves, so they read as a
        format-1 log (companion.room.apply_logged); the reveal itself: test_reveal_* below."""
        outcome = apply_logged(GAME, self.state, action, 1)
        self.state = outcome.state
        self.outcomes.append(outcome)
        return outcome

    def play(self, seat: int, business: int, text: str) -> Any:
        """Play a card with the face its position demands (face down: from the phone)."""
        column = self.state.business(business).columns[seat]
        face = face_of(self.state.business(business).kind, len(column) + 1)
        cls = PlayFaceUp if face == "up" else PlayFaceDown
        return self.do(cls(by=seat, business=business, card=card(text)))

    def draw(self, seat: int, times: int = 1) -> None:
        for _ in range(times):
            self.do(Draw(by=seat))

    def end(self, seat: int) -> Any:
        return self.do(EndTurn(by=seat))

    def idle(self, seat: int, at: tuple[int, ...]) -> Any:
        """A turn that changes nothing that matters: draws, and fresh cards at `at` (never a 5th)."""
        while self.state.actions_left:
            room = [b for b in at if len(self.state.business(b).columns[seat]) < 4]
            if (self.state.hands[seat] <= 5 or not room) and GAME.can_draw(self.state, seat):
                self.draw(seat)
            elif room and self.state.hands[seat] > 0:
                business = min(room, key=lambda b: len(self.state.business(b).columns[seat]))
                fresh = [c for c in GAME.free_cards(self.state, seat) if c.value >= 10]
                pick = self.rng.choice(fresh)
                self.play(seat, business, f"{pick.value}c{pick.colour[1]}")
            else:
                break  # cannot draw and nowhere to play: the turn may end early
        return self.end(seat)

    def refuse(self, action: Any, code: str) -> RuleError:
        """The action is refused with `code`, and nothing changes."""
        before = self.state.model_dump_json()
        with pytest.raises(RuleError) as caught:
            GAME.apply(self.state, action)
        assert caught.value.code == code
        assert code in MESSAGES
        translator().error(code, caught.value.params, NAMES)  # the message renders
        assert self.state.model_dump_json() == before
        return caught.value

    # surgery (only to set up a position the story starts from)

    def give(self, seat: int, *kinds: str) -> None:
        """`seat` already controls these businesses (won in earlier shootouts)."""
        controlled = list(self.state.controlled)
        controlled[seat] += tuple(Tile(id=90 + len(controlled[seat]) + i, kind=k) for i, k in enumerate(kinds))
        self.state = self.state.model_copy(update={"controlled": tuple(controlled)})

    # looking

    def codes(self, outcome: Any = None) -> list[str]:
        outcome = outcome or self.outcomes[-1]
        return [r.code.removeprefix("chicago_poker.") for r in outcome.rulings]

    def ruling(self, name: str, outcome: Any = None) -> dict[str, Any]:
        outcome = outcome or self.outcomes[-1]
        return next(r.params for r in outcome.rulings if r.code == f"chicago_poker.{name}")

    def board(self) -> Any:
        return GAME.project(self.state, BOARD)

    def seat(self, seat: int) -> Any:
        return GAME.project(self.state, seat_audience(seat))


def lone_shootout(t: Table, cards: list[str], business: int = 1, other: int = 2) -> Any:
    """A (first player) plays 5 cards at `business` over turns 1, 3 and 5 while B idles at
    `other`; the end of B's turn 6 starts A's turn 7 with the shootout. Returns that outcome."""
    t.play(A, business, cards[0])
    t.end(A)
    t.idle(B, at=(other,))
    for text in cards[1:4]:
        t.play(A, business, text)
    t.end(A)
    t.idle(B, at=(other,))
    t.play(A, business, cards[4])
    t.draw(A, 2)
    t.end(A)
    return t.idle(B, at=(other,))


# --- setup and turns --------------------------------------------------------------------------


def test_opening_tiles_by_player_count():
    """2-3 players: 2 businesses, 4 players: 3, 5-6 players: 4; then the first player starts."""
    for players, open_count in ((2, 2), (3, 2), (4, 3), (5, 4), (6, 4)):
        setup = Setup(players=tuple(Player(name=NAMES[i], colour=COLOURS[i]) for i in range(players)))
        state = GAME.initial_state(setup, 3)
        assert state.phase == "tiles" and state.tiles_to_enter == open_count
        assert state.hands == (5,) * players
        assert state.deck == 81 - 5 * players
        for _ in range(open_count):
            state = GAME.apply(state, RevealTile(by=0, kind="brewery")).state
        assert state.phase == "actions" and len(state.businesses) == open_count
        assert state.current == state.order[0]
    tactical = Setup(players=(Player(name="Ada", colour="red"), Player(name="Bea", colour="blue")), special_cards=False)
    assert GAME.initial_state(tactical, 1).deck == 75 - 10


def test_random_first_player_comes_from_the_seed():
    setup = Setup(players=tuple(Player(name=NAMES[i], colour=COLOURS[i]) for i in range(4)))
    firsts = {GAME.initial_state(setup, seed).order[0] for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert GAME.initial_state(setup, 5).order == GAME.initial_state(setup, 5).order


def test_first_turns_have_one_then_two_actions_then_three():
    """The first player has 1 action, the second 2, then everyone 3."""
    t = Table(("brewery", "jazz_club"), players=3)
    assert t.state.actions_left == 1
    t.draw(A)
    t.refuse(Draw(by=A), "chicago_poker.err.no_actions_left")
    t.end(A)
    assert (t.state.current, t.state.actions_left) == (B, 2)
    t.draw(B, 2)
    t.refuse(PlayFaceUp(by=B, business=1, card=card("3c3")), "chicago_poker.err.no_actions_left")
    t.end(B)
    assert (t.state.current, t.state.actions_left) == (C, 3)
    t.draw(C)
    t.play(C, 1, "4c4")
    t.draw(C)
    t.end(C)
    assert (t.state.current, t.state.actions_left) == (A, 3)
    assert t.state.hands == (6, 7, 6)


def test_hand_limit_eight_in_the_middle_of_a_turn():
    """At most 7 cards at the END of the turn: 8 in between is fine; a draw is refused only
    when the actions left can no longer bring the hand back to 7."""
    t = Table(("brewery", "jazz_club"))
    t.draw(A)  # 6
    t.end(A)
    t.draw(B, 2)  # 7
    t.end(B)
    t.draw(A)  # 7, 2 actions left
    t.draw(A)  # 8, 1 action left: still fine, one play brings it back to 7
    assert t.state.hands[A] == 8
    t.refuse(Draw(by=A), "chicago_poker.err.hand_limit")  # 9 with 0 actions: never 7 again
    t.refuse(EndTurn(by=A), "chicago_poker.err.hand_over_limit")
    t.play(A, 1, "5c1")
    assert t.state.hands[A] == 7
    t.end(A)
    # B at 7 with 3 actions: draw to 8, then a draw to 9 with 1 action left is refused.
    t.draw(B)
    t.refuse(Draw(by=B), "chicago_poker.err.hand_limit")
    t.play(B, 1, "6c2")
    t.play(B, 2, "6c3")
    t.end(B)
    assert t.state.hands == (7, 6)


def test_turn_is_exactly_its_actions_unless_the_player_cannot_draw():
    t = Table(("brewery", "jazz_club"))
    t.refuse(EndTurn(by=A), "chicago_poker.err.actions_left")
    t.draw(A)
    t.end(A)
    t.draw(B, 2)  # B has 7
    t.end(B)
    t.draw(A, 2)  # A has 8, 1 action left: A cannot draw, so may stop... but not with 8 cards
    t.refuse(EndTurn(by=A), "chicago_poker.err.hand_over_limit")


def test_a_player_who_may_not_draw_may_end_early():
    """The app cannot see whether a hand holds a playable card: with a draw impossible, the
    player may end the turn with actions left."""
    t = Table(("brewery", "jazz_club"))
    t.draw(A)
    t.end(A)
    t.draw(B, 2)
    t.end(B)
    t.draw(A)  # 7 cards, 2 actions left: a draw would still be allowed (8, then one play)
    t.refuse(EndTurn(by=A), "chicago_poker.err.actions_left")
    t.play(A, 1, "1c1")
    t.draw(A)  # 7 cards, 0 left
    t.end(A)
    t.draw(B)  # B: 8, 2 left
    t.play(B, 1, "2c1")  # 7, 1 left: drawing would leave 8 at the end
    assert not GAME.can_draw(t.state, B)
    assert GAME.legal(t.state, B).end_turn
    t.end(B)


def test_no_draw_to_eight_without_a_place_to_play():
    """A's columns are full at both businesses (set up directly). With 7 cards and 3 actions
    A may not draw: no gangster card could be placed to get back to 7, and the app cannot
    count on special cards it cannot see. A may end the turn at once."""
    t = Table(("brewery", "jazz_club"))
    t.draw(A)
    t.end(A)
    t.draw(B, 2)
    t.end(B)
    full = {1: [card(f"{v}c1") for v in range(1, 6)], 2: [card(f"{v}c2") for v in range(1, 6)]}
    businesses = tuple(
        b.model_copy(update={"columns": (tuple(Placed(card=c, face_up=False) for c in full[b.id]), ())})
        for b in t.state.businesses
    )
    t.state = t.state.model_copy(update={"businesses": businesses, "hands": (7, 7)})
    assert GAME.free_slots(t.state, A) == 0
    t.refuse(Draw(by=A), "chicago_poker.err.hand_limit")
    t.end(A)
    # B has room (10 places): B may draw to 8 with actions left to play.
    t.draw(B)
    assert t.state.hands[B] == 8


def test_revolver_gives_two_more_actions():
    t = Table(("brewery", "jazz_club"))
    t.draw(A)
    t.end(A)
    t.draw(B, 2)
    t.end(B)
    outcome = t.do(Revolver(by=A))
    assert t.codes(outcome) == ["revolver"]
    assert t.state.actions_left == 4  # 3 - 1 + 2
    assert t.state.hands[A] == 5 and t.state.discard_specials == ("revolver",)
    t.draw(A, 2)
    t.play(A, 1, "1c1")
    t.play(A, 1, "2c1")
    t.refuse(Draw(by=A), "chicago_poker.err.no_actions_left")
    t.refuse(Revolver(by=A), "chicago_poker.err.no_actions_left")
    t.end(A)
    # The only Revolver is in the discard pile.
    t.refuse(Revolver(by=B), "chicago_poker.err.special_gone")


def test_faces_follow_the_business_pattern():
    """Speakeasy DDUUU, jazz club UUUDD, brewery UUUUU, gambling house UDUDU."""
    assert [face_of("speakeasy", n) for n in range(1, 6)] == ["down", "down", "up", "up", "up"]
    assert [face_of("jazz_club", n) for n in range(1, 6)] == ["up", "up", "up", "down", "down"]
    assert [face_of("brewery", n) for n in range(1, 6)] == ["up"] * 5
    assert [face_of("gambling_house", n) for n in range(1, 6)] == ["up", "down", "up", "down", "up"]
    t = Table(("speakeasy", "gambling_house"))
    t.refuse(PlayFaceUp(by=A, business=1, card=card("7c1")), "chicago_poker.err.wrong_face")
    outcome = t.do(PlayFaceDown(by=A, business=1, card=card("7c1")))
    assert t.codes(outcome) == ["played_face_down"]
    assert "7" not in str(outcome.rulings)
    assert t.board().businesses[0].columns[A].cards[0].card is None
    assert t.seat(A).me.face_down[0].card == card("7c1")
    assert t.seat(B).me.face_down == ()
    assert not GAME.is_public(PlayFaceDown(by=A, business=1, card=card("7c1")))
    assert "card" not in GAME.redact(PlayFaceDown(by=A, business=1, card=card("7c1")))


def test_deck_runs_out_and_the_discard_pile_becomes_the_deck():
    t = Table(("brewery", "jazz_club"))
    t.state = t.state.model_copy(update={"deck": 0, "discard": (card("1c1"), card("2c2")), "discard_specials": ("bribe",)})
    outcome = t.do(Draw(by=A))
    assert t.codes(outcome) == ["deck_reshuffled", "drew"]
    assert (t.state.deck, t.state.discard, t.state.discard_specials) == (2, (), ())
    t.end(A)
    # The reshuffled cards may be played again.
    t.play(B, 1, "1c1")
    t.state = t.state.model_copy(update={"deck": 0, "discard": (), "discard_specials": ()})
    t.refuse(Draw(by=B), "chicago_poker.err.deck_empty")
    t.end(B)  # nothing to draw: B may stop early


# --- shootouts ----------------------------------------------------------------------------------


def test_shootout_won_with_fewer_than_five_cards():
    """A fills the brewery with five odd cards (2, 4, 6, 9, 11: high card) and marks it. B has
    only three cards there, but they are three 12s. At the start of A's next turn the shootout
    is resolved: every card is shown, and B's three of a kind beats A's high card. B takes the
    brewery, the eight cards are discarded and a new tile is entered before A acts."""
    t = Table(("brewery", "jazz_club"))
    t.play(A, 1, "2c1")
    t.end(A)
    t.play(B, 1, "12c1")
    t.play(B, 1, "12c2")
    t.end(B)
    for text in ("4c2", "6c3", "9c4"):
        t.play(A, 1, text)
    t.end(A)
    t.play(B, 1, "12c3")
    t.draw(B, 2)
    t.end(B)
    fifth = t.play(A, 1, "11c5")
    assert t.codes(fifth) == ["played_face_up", "marker_placed"]
    assert t.board().businesses[0].columns[A].marker
    t.draw(A, 2)
    t.end(A)
    # B still plays before the shootout: the business stays open until A's next turn.
    t.draw(B, 3)
    outcome = t.end(B)
    assert outcome.reveals
    assert t.codes(outcome) == [
        "turn_ended",
        "turn_started",
        "shootout",
        "shootout_hand",
        "shootout_hand",
        "won_category",
        "business_taken",
        "enter_tile",
    ]
    assert t.ruling("won_category", outcome) == {"seat": B, "hand": "three_of_a_kind", "other": "high_card"}
    shootout = t.board().shootouts[0]
    assert [(e.seat, e.category, len(e.cards)) for e in shootout.entries] == [
        (B, "three_of_a_kind", 3),
        (A, "high_card", 5),
    ]
    assert (shootout.winner, shootout.decided_by) == (B, "category")
    assert t.state.controlled == ((), (Tile(id=1, kind="brewery"),))
    assert len(t.state.discard) == 8 and t.state.markers == ()
    assert [b.id for b in t.state.businesses] == [2]
    assert t.state.phase == "tiles" and GAME.waiting_for(t.state) == (A,)
    t.do(RevealTile(by=A, kind="speakeasy"))
    assert t.state.phase == "actions" and t.state.current == A and t.state.actions_left == 3
    assert [b.id for b in t.state.businesses] == [2, 3]
    assert GAME.result(t.state) is None


def test_a_tie_is_broken_by_reinforcements_over_two_rounds():
    """At the jazz club (UUUDD) A and B both build a pair of 9s with 4, 3, 2, in other colours;
    A completes five cards first and marks the business, B completes five later (a marker too).
    At the start of A's turn the shootout shows the hands: an exact tie. A and B each pick a
    card on their phone; the board waits for them and shows nothing of the picks. Round 1:
    both send a 10: still tied. Round 2: A sends a 13 against B's 8: A wins the jazz club.
    The reinforcements are discarded and both draw replacements."""
    t = Table(("jazz_club", "speakeasy"), players=3)
    t.play(A, 1, "9c1")
    t.end(A)
    t.play(B, 1, "9c3")
    t.draw(B)
    t.end(B)
    t.play(C, 2, "15c5")
    t.draw(C, 2)
    t.end(C)
    t.play(A, 1, "9c2")
    t.play(A, 1, "2c1")
    t.play(A, 1, "3c1")  # A's 4th card at a jazz club: face down
    t.end(A)
    t.play(B, 1, "9c4")
    t.play(B, 1, "2c2")
    t.play(B, 1, "3c2")
    t.end(B)
    t.idle(C, at=(2,))
    t.play(A, 1, "4c1")  # A's 5th: the marker
    t.draw(A, 2)
    t.end(A)
    t.play(B, 1, "4c2")  # B's 5th: a marker as well (house rule "marker")
    assert [(m.seat, m.business) for m in t.state.markers] == [(A, 1), (B, 1)]
    t.draw(B, 2)
    t.end(B)
    outcome = t.idle(C, at=(2,))
    hands_before = t.state.hands
    assert outcome.reveals
    assert t.ruling("tied", outcome) == {"seats": [A, B], "hand": "pair", "ranks": "9, 4, 3, 2"}
    assert t.state.phase == "reinforce" and GAME.waiting_for(t.state) == (A, B)
    assert t.board().reinforcement.round == 1
    assert all(c.face_up for c in t.board().businesses[0].columns[A].cards)
    # Only the tied players may pick.
    t.refuse(Reinforce(by=C, card=card("10c5")), "chicago_poker.err.not_in_tie")

    first = t.do(Reinforce(by=A, card=card("10c1")))
    assert first.rulings == () and not first.reveals
    assert GAME.waiting_for(t.state) == (B,)
    assert t.board().reinforcement.picked == (A,)
    assert t.seat(A).me.my_pick.card == card("10c1")
    assert t.seat(B).me.my_pick is None and "10c1" not in t.board().model_dump_json()
    t.refuse(Reinforce(by=A, card=card("11c1")), "chicago_poker.err.already_picked")
    reveal = t.do(Reinforce(by=B, card=card("10c2")))
    assert reveal.reveals
    assert t.codes(reveal) == [
        "reinforcement_card",
        "reinforcement_card",
        "replacements",
        "still_tied",
        "reinforcement_round",
    ]
    assert t.state.phase == "reinforce" and t.board().reinforcement.round == 2

    t.do(Reinforce(by=B, card=card("8c3")))
    final = t.do(Reinforce(by=A, card=card("13c1")))
    assert t.ruling("won_reinforcement", final) == {"seat": A, "value": 13}
    shootout = t.state.shootouts[-1]
    assert (shootout.winner, shootout.decided_by) == (A, "reinforcement")
    assert [[(p.seat, p.card.value) for p in r.picks] for r in shootout.rounds] == [[(A, 10), (B, 10)], [(A, 13), (B, 8)]]
    assert t.state.controlled[A] == (Tile(id=1, kind="jazz_club"),)
    assert t.state.hands == hands_before  # each reinforcement was replaced by a draw
    assert {card("10c1"), card("10c2"), card("8c3"), card("13c1")} <= set(t.state.discard)
    assert t.state.phase == "tiles"


def test_reinforcement_from_the_deck_and_special_cards():
    """B declares no gangster card to send: the top card of the deck is turned up for B and
    entered by anyone (it is public). A special card sent as a reinforcement is refused by
    default; with the house rule "zero" it is worth 0."""
    t = _tied_pair_of_nines(special_reinforcement="forbidden")
    t.refuse(Reinforce(by=A, special="revolver"), "chicago_poker.err.special_reinforcement")
    t.refuse(Reinforce(by=A, special="revolver", no_gangster=True), "chicago_poker.err.special_reinforcement")
    t.refuse(Reinforce(by=A, card=card("9c1")), "chicago_poker.err.card_taken")  # on the table
    t.refuse(Reinforce(by=A, card=card("5c1"), special="revolver"), "chicago_poker.err.one_card")
    t.do(Reinforce(by=A, card=card("5c1")))
    before_deck = t.state.deck
    outcome = t.do(Reinforce(by=B))
    assert t.codes(outcome) == ["deck_cards_needed"]
    assert t.state.phase == "deck_card" and GAME.waiting_for(t.state) == (B,)
    assert t.board().board_legal.deck_card_for == (B,)
    assert GAME.is_public(RevealDeckCard(by=A, seat=B, card=card("7c5")))
    t.refuse(RevealDeckCard(by=A, seat=A, card=card("7c5")), "chicago_poker.err.no_deck_card_for")
    reveal = t.do(RevealDeckCard(by=A, seat=B, card=card("7c5")))
    assert t.codes(reveal)[:3] == ["deck_card", "reinforcement_card", "reinforcement_card"]
    assert t.ruling("deck_card", reveal) == {"seat": B, "card": "7·c5"}
    assert t.ruling("won_reinforcement", reveal) == {"seat": B, "value": 7}
    assert t.state.deck == before_deck - 2  # B's deck card, A's replacement

    z = _tied_pair_of_nines(special_reinforcement="zero")
    z.do(Reinforce(by=A, special="police_raid"))
    outcome = z.do(Reinforce(by=B, card=card("1c5")))
    assert z.ruling("reinforcement_special", outcome) == {"seat": A, "special": "police_raid"}
    assert z.ruling("won_reinforcement", outcome) == {"seat": B, "value": 1}
    assert "police_raid" in z.state.discard_specials


def test_forced_special_reinforcement_counts_zero_after_confirmation():
    """docs/rules/chicago_poker.md#reinforcements's reading, the default: a special card is not allowed as a reinforcement;
    if forced (the player confirms they hold no gangster card: the app cannot see hands), it is
    accepted and worth 0."""
    t = _tied_pair_of_nines()
    assert t.state.setup.special_reinforcement == "if_forced"
    t.refuse(Reinforce(by=A, special="revolver"), "chicago_poker.err.special_unless_forced")
    assert t.state.picks == ()
    t.do(Reinforce(by=A, special="revolver", no_gangster=True))
    outcome = t.do(Reinforce(by=B, card=card("1c5")))
    assert t.ruling("reinforcement_special", outcome) == {"seat": A, "special": "revolver"}
    assert t.ruling("won_reinforcement", outcome) == {"seat": B, "value": 1}  # 1 beats the special's 0
    assert "revolver" in t.state.discard_specials


def test_empty_hand_reinforcement_house_rules():
    """A tied player with no card in hand is not waited for: by default the top card of the
    deck is turned up for them; with the house rule "out" they drop out of the tie."""
    t = _tied_pair_of_nines(empty_a=True)
    assert GAME.waiting_for(t.state) == (B,)
    t.do(Reinforce(by=B, card=card("1c5")))
    assert t.state.phase == "deck_card" and GAME.waiting_for(t.state) == (A,)
    outcome = t.do(RevealDeckCard(by=B, seat=A, card="limousine"))  # a special card: worth 0
    assert t.ruling("deck_card_special", outcome) == {"seat": A, "special": "limousine"}
    assert t.ruling("won_reinforcement", outcome) == {"seat": B, "value": 1}
    assert t.state.hands[A] == 0  # nothing from hand, nothing to replace

    out = _tied_pair_of_nines(empty_a=True, empty_hand_reinforcement="out")
    outcome = out.do(Reinforce(by=B, card=card("1c5")))
    assert out.codes(outcome)[:2] == ["reinforcement_none", "reinforcement_card"]
    assert out.ruling("won_reinforcement", outcome) == {"seat": B, "value": 1}


def _tied_pair_of_nines(empty_a: bool = False, **rules: Any) -> Table:
    """A and B tie at the brewery, each with a pair of 9s and a 2 (A marks it; B idles at 2)."""
    t = Table(("brewery", "jazz_club"), **rules)
    t.play(A, 1, "9c1")
    t.end(A)
    t.play(B, 1, "9c2")
    t.play(B, 1, "9c3")
    t.end(B)
    t.play(A, 1, "9c4")
    t.play(A, 1, "2c1")
    t.play(A, 1, "3c3")
    t.end(A)
    t.play(B, 1, "2c2")
    t.play(B, 1, "3c4")
    t.draw(B)
    t.end(B)
    t.play(A, 1, "4c4")
    t.draw(A, 2)
    t.end(A)
    t.play(B, 1, "4c2")  # B's 5th card: a marker for B too
    t.draw(B, 2)
    if empty_a:  # set-up: A has played or lost every card by now
        t.state = t.state.model_copy(update={"hands": (0, t.state.hands[B])})
    t.end(B)
    assert t.state.phase == "reinforce"
    return t


def test_several_shootouts_the_player_chooses_the_order_and_stops_at_victory():
    """A completes five cards at two businesses in the same turn. At the start of A's next
    turn A chooses which shootout comes first. A already controls two speakeasies, so taking
    the speakeasy (business 2) wins the game, and the other shootout is never resolved."""
    t = Table(("brewery", "speakeasy", "jazz_club"), players=4)
    t.give(A, "speakeasy", "speakeasy")
    everywhere = (1, 2, 3)  # the others never reach 5 cards, nor beat a straight flush
    a_turns = [
        ["1c1@1"],
        ["2c1@1", "3c1@1", "1c2@2"],
        ["2c2@2", "draw", "draw"],
        ["3c2@2", "4c1@1", "draw"],
        ["4c2@2", "draw", "draw"],
        ["5c1@1", "5c2@2", "draw"],  # two fifth cards: two markers
    ]
    for i, steps in enumerate(a_turns):
        for step in steps:
            if step == "draw":
                t.draw(A)
            else:
                text, business = step.split("@")
                t.play(A, int(business), text)
        t.end(A)
        for seat in (B, C, D) if i < len(a_turns) - 1 else (B, C):
            t.idle(seat, at=everywhere)
    assert [(m.seat, m.business) for m in t.state.markers] == [(A, 1), (A, 2)]
    outcome = t.idle(D, at=everywhere)
    assert t.codes(outcome)[-1] == "choose_shootout"
    assert t.state.phase == "choose_shootout" and GAME.waiting_for(t.state) == (A,)
    assert t.board().board_legal.shootouts == (1, 2)
    t.refuse(ChooseShootout(by=A, business=3), "chicago_poker.err.no_shootout_there")
    t.refuse(ChooseShootout(by=B, business=1), "chicago_poker.err.not_your_turn")
    t.refuse(Draw(by=A), "chicago_poker.err.wrong_phase")
    final = t.do(ChooseShootout(by=A, business=2))
    assert t.codes(final)[-1] == "victory_same_type"
    assert GAME.result(t.state) == {"score": [3, 0, 0, 0], "winners": [A]}
    assert t.state.business(1) is not None  # never resolved
    t.refuse(Draw(by=A), "chicago_poker.err.game_over")
    assert GAME.random_action(t.state, random.Random(1)) is None


def test_several_shootouts_in_marking_order_by_house_rule():
    t = Table(("brewery", "gambling_house"), marker_order="placed_first")
    a_turns = [
        ["1c1@1"],
        ["2c1@1", "1c2@2", "2c2@2"],
        ["3c1@1", "draw", "draw"],
        ["3c2@2", "4c1@1", "draw"],
        ["4c2@2", "draw", "draw"],
        ["5c2@2", "5c1@1", "draw"],  # business 2 is marked first
    ]
    for steps in a_turns:
        for step in steps:
            if step == "draw":
                t.draw(A)
            else:
                text, business = step.split("@")
                t.play(A, int(business), text)
        last = t.end(A)
        last = t.idle(B, at=(1, 2))
    outcome = last
    assert t.ruling("shootout", outcome)["business"] == 2
    t.do(RevealTile(by=A, kind="brewery"))  # replaces business 2; then business 1 follows
    assert [s.business for s in t.state.shootouts] == [2, 1]


# --- special cards ------------------------------------------------------------------------------


def test_limousine_fills_a_business_to_five():
    """A has three cards at the brewery and two face-down cards at the speakeasy. The
    Limousine drives both speakeasy cards to the brewery, in the order A chooses: there every
    card is face up, so they are turned over for all to see, and A's fifth card at the
    brewery places a shootout marker (house rule, by analogy with playing a 5th card)."""
    t = _limousine_story()
    outcome = t.do(Limousine(by=A, source=2, destination=1, positions=(2, 1)))
    assert outcome.reveals
    assert t.codes(outcome) == ["limousine", "limousine_turned_up", "marker_placed"]
    assert t.ruling("limousine_turned_up", outcome)["cards"] == "2·c2, 1·c2"
    column = t.board().businesses[0].columns[A]
    assert [c.card.value for c in column.cards] == [5, 6, 7, 2, 1] and column.marker
    assert all(c.face_up for c in column.cards)
    assert t.state.business(2).columns[A] == ()
    assert t.state.hands[A] == 0 and t.state.discard_specials == ("limousine",)

    no_marker = _limousine_story(limousine_marker="none")
    outcome = no_marker.do(Limousine(by=A, source=2, destination=1, positions=(1, 2)))
    assert no_marker.codes(outcome) == ["limousine", "limousine_turned_up"]
    assert no_marker.state.markers == ()


def _limousine_story(**rules: Any) -> Table:
    t = Table(("brewery", "speakeasy"), **rules)
    t.play(A, 1, "5c1")
    t.end(A)
    t.draw(B, 2)
    t.end(B)
    t.play(A, 1, "6c1")
    t.play(A, 1, "7c1")
    t.play(A, 2, "1c2")
    t.end(A)
    t.play(B, 2, "14c4")
    t.play(B, 2, "13c4")
    t.play(B, 1, "12c4")
    t.end(B)
    t.draw(A)
    t.play(A, 2, "2c2")
    return t


def test_limousine_refusals():
    t = _limousine_story()
    t.refuse(Limousine(by=A, source=2, destination=2, positions=(1,)), "chicago_poker.err.same_business")
    t.refuse(Limousine(by=A, source=2, destination=1, positions=()), "chicago_poker.err.limousine_cards")
    t.refuse(Limousine(by=A, source=2, destination=1, positions=(1, 1)), "chicago_poker.err.limousine_cards")
    t.refuse(Limousine(by=A, source=2, destination=1, positions=(3,)), "chicago_poker.err.limousine_cards")
    t.refuse(Limousine(by=A, source=7, destination=1, positions=(1,)), "chicago_poker.err.unknown_business")


def test_limousine_cannot_overfill_a_column():
    t = Table(("brewery", "jazz_club"))
    t.play(A, 1, "1c1")
    t.end(A)
    t.idle(B, at=(2,))
    for text in ("2c1", "3c1", "4c1"):
        t.play(A, 1, text)
    t.end(A)
    t.idle(B, at=(2,))
    t.draw(A, 2)
    t.play(A, 2, "1c2")
    t.end(A)
    t.idle(B, at=(2,))
    t.play(A, 2, "2c2")
    t.refuse(Limousine(by=A, source=2, destination=1, positions=(1, 2)), "chicago_poker.err.limousine_too_many")
    t.do(Limousine(by=A, source=2, destination=1, positions=(2,)))
    assert [m.seat for m in t.state.markers] == [A]


def test_limousine_cannot_move_cards_under_a_marker():
    t = Table(("brewery", "jazz_club"))
    lone_shootout_before_resolution(t)
    t.draw(A)
    t.refuse(Limousine(by=A, source=1, destination=2, positions=(5,)), "chicago_poker.err.limousine_under_marker")


def test_liquidation_refused_under_a_marker():
    """A completes five cards at the brewery and marks it. B plays Liquidation on A there:
    refused, A's cards are protected. B may pick another victim at the same business: C, whose
    last card there is discarded."""
    t = Table(("brewery", "jazz_club"), players=3)
    t.play(A, 1, "1c1")
    t.end(A)
    t.draw(B, 2)
    t.end(B)
    t.play(C, 1, "14c1")
    t.play(C, 1, "14c2")
    t.draw(C)
    t.end(C)
    for text in ("2c1", "3c1", "4c1"):
        t.play(A, 1, text)
    t.end(A)
    t.idle(B, at=(2,))
    t.idle(C, at=(2,))
    t.play(A, 1, "5c1")
    t.draw(A, 2)
    t.end(A)
    t.refuse(Liquidation(by=B, business=1, target=A), "chicago_poker.err.target_under_marker")
    t.refuse(Liquidation(by=B, business=1, target=B), "chicago_poker.err.not_another_player")
    t.refuse(Liquidation(by=B, business=2, target=A), "chicago_poker.err.no_cards_there")
    outcome = t.do(Liquidation(by=B, business=1, target=C))
    assert t.ruling("liquidation", outcome) == {"seat": B, "target": C, "business": 1, "card": "14·c2"}
    assert t.state.business(1).columns[C] == (t.state.business(1).columns[C][0],)
    assert card("14c2") in t.state.discard and t.state.discard_specials == ("liquidation",)
    assert not outcome.reveals  # the card was face up already


def test_liquidating_a_face_down_card_makes_it_public():
    t = Table(("speakeasy", "brewery"))
    t.play(A, 1, "8c3")  # face down
    t.end(A)
    outcome = t.do(Liquidation(by=B, business=1, target=A))
    assert outcome.reveals and t.ruling("liquidation", outcome)["card"] == "8·c3"
    assert t.board().discard == (card("8c3"),)


def test_police_raid_is_seen_only_by_the_raider():
    """B plays two cards face down at the speakeasy. A plays a Police Raid on B there: A's
    phone shows B's two cards; the board, C and B's own view show that a raid happened and
    nothing more. In a second game where B's face-down cards differ, every view but A's and
    B's is identical."""
    first, second = _raid_story("6c2", "11c4"), _raid_story("7c3", "12c1")
    assert [len(r.cards) for r in first.seat(A).me.raids] == [1, 2]
    raid = first.seat(A).me.raids[-1]
    assert (raid.business, raid.target) == (1, B)
    assert raid.cards == ((1, card("6c2")), (2, card("11c4")))
    assert first.ruling("police_raid") == {"seat": A, "target": B, "business": 1, "count": 2}
    assert first.outcomes[-1].reveals
    assert first.seat(B).me.raids == () and first.seat(C).me.raids == ()
    assert first.board().model_dump_json() == second.board().model_dump_json()
    assert first.seat(C).model_dump_json() == second.seat(C).model_dump_json()
    assert first.seat(A).model_dump_json() != second.seat(A).model_dump_json()
    assert [o.rulings for o in first.outcomes] == [o.rulings for o in second.outcomes]


def _raid_story(down1: str, down2: str) -> Table:
    t = Table(("speakeasy", "brewery"), players=3, first=B)
    t.play(B, 1, down1)
    t.end(B)
    t.play(C, 2, "1c1")
    t.play(C, 2, "2c1")
    t.end(C)
    t.draw(A)
    t.do(PoliceRaid(by=A, business=1, target=B))
    t.draw(A)
    t.end(A)
    t.play(B, 1, down2)
    t.draw(B, 2)
    t.end(B)
    t.draw(C, 3)
    t.end(C)
    t.do(PoliceRaid(by=A, business=1, target=B))
    return t


def test_bribe_takes_a_card_from_the_discard_pile():
    """After B's three 12s took the brewery, A bribes: A takes the 11 from the discard pile
    (a secret choice on A's phone), and the rest of the pile is shuffled into the deck. Only
    A's phone knows the card is in A's hand; B cannot enter it; A can play it."""
    t = Table(("brewery", "jazz_club"))
    for step in _fewer_cards_story():
        step(t)
    t.do(RevealTile(by=A, kind="speakeasy"))
    pile = len(t.state.discard)
    deck = t.state.deck
    t.refuse(Bribe(by=A, card=card("15c5")), "chicago_poker.err.not_in_discard")
    t.refuse(Bribe(by=A), "chicago_poker.err.bribe_must_take")
    outcome = t.do(Bribe(by=A, card=card("11c5")))
    assert t.codes(outcome) == ["bribe"]
    assert "11" not in str(outcome.rulings)
    assert not GAME.is_public(Bribe(by=A, card=card("11c5")))
    assert GAME.redact(Bribe(by=A, card=card("11c5"))) == {"type": "bribe", "by": A}
    assert t.state.discard == () and t.state.discard_specials == ("bribe",)
    assert t.state.deck == deck + pile - 1
    assert t.seat(A).me.bribed[0].card == card("11c5")
    assert t.seat(B).me.bribed == () and "11·c5" not in t.board().model_dump_json()
    t.play(A, 2, "11c5")
    assert t.state.bribed == ()
    t.draw(A)
    t.end(A)
    t.refuse(PlayFaceUp(by=B, business=2, card=card("11c5")), "chicago_poker.err.card_taken")


def test_a_hand_holding_only_bribed_cards_gives_only_those():
    """A's one card in hand is the 11 A's Bribe took: A cannot play another card or a special
    card from that hand (it was accepted, and the 11 stayed 'in hand' after the hand was
    empty: property-test seed 203542374). The 11 itself is played; then anything goes again."""
    t = Table(("brewery", "jazz_club"))
    for step in _fewer_cards_story():
        step(t)
    t.do(RevealTile(by=A, kind="speakeasy"))
    t.do(Bribe(by=A, card=card("11c5")))
    t.state = t.state.model_copy(update={"hands": (1, t.state.hands[B])})  # set-up: the 11 is all A holds
    assert GAME.hand_options(t.state, A) == ([card("11c5")], [])
    t.refuse(PlayFaceUp(by=A, business=2, card=card("13c3")), "chicago_poker.err.card_not_in_hand")
    t.refuse(Revolver(by=A), "chicago_poker.err.special_not_in_hand")
    t.play(A, 2, "11c5")
    assert t.state.bribed == () and t.state.hands[A] == 0
    t.draw(A)
    cards, specials = GAME.hand_options(t.state, A)
    assert card("13c3") in cards and "revolver" in specials


def test_a_reinforcement_from_a_hand_of_bribed_cards_and_the_deck_card_after_it():
    """B's whole hand is a card B's Bribe took: B's reinforcement is that card or nothing; if
    B sends nothing, the top card of the deck cannot be that card (it is in B's hand), and
    the simulation never offers it."""
    t = _tied_pair_of_nines()
    t.do(Reinforce(by=A, card=card("5c1")))
    t.state = t.state.model_copy(update={"hands": (t.state.hands[A], 1), "bribed": (Bribed(seat=B, card=card("8c3")),)})
    t.refuse(Reinforce(by=B, card=card("1c5")), "chicago_poker.err.card_not_in_hand")
    t.do(Reinforce(by=B))
    assert t.state.phase == "deck_card"
    t.refuse(RevealDeckCard(by=A, seat=B, card=card("8c3")), "chicago_poker.err.card_taken")
    rng = random.Random(3)
    offered = {GAME.random_action(t.state, rng).card for _ in range(400)}
    assert card("8c3") not in offered and card("7c5") in offered


def test_which_card_a_bribe_took_does_not_leak():
    """B played the Revolver earlier, so the discard pile holds it and eight gangsters. In one
    game A bribes the Revolver, in the other the 11: the board and B's phone cannot tell."""
    views = []
    for taken in (Bribe(by=A, special="revolver"), Bribe(by=A, card=card("11c5"))):
        t = Table(("brewery", "jazz_club"))
        steps = _fewer_cards_story()
        steps[-2] = lambda t: (t.do(Revolver(by=B)), t.draw(B, 4))  # instead of three draws
        for step in steps:
            step(t)
        t.do(RevealTile(by=A, kind="speakeasy"))
        assert "revolver" in t.state.discard_specials
        outcome = t.do(taken)
        assert t.seat(A).me.bribed[0] == t.state.bribed[0]
        seen = [t.board().model_dump_json(), t.seat(B).model_dump_json(), outcome.rulings, GAME.redact(taken)]
        t.draw(A, 2)
        t.end(A)
        assert "revolver" in t.seat(B).my_legal.specials  # B's phone still offers it
        views.append(seen + [t.board().model_dump_json(), t.seat(B).model_dump_json()])
    assert views[0] == views[1]


def _fewer_cards_story():
    """The actions of test_shootout_won_with_fewer_than_five_cards, as steps."""
    return [
        lambda t: t.play(A, 1, "2c1"),
        lambda t: t.end(A),
        lambda t: t.play(B, 1, "12c1"),
        lambda t: t.play(B, 1, "12c2"),
        lambda t: t.end(B),
        lambda t: t.play(A, 1, "4c2"),
        lambda t: t.play(A, 1, "6c3"),
        lambda t: t.play(A, 1, "9c4"),
        lambda t: t.end(A),
        lambda t: t.play(B, 1, "12c3"),
        lambda t: t.draw(B, 2),
        lambda t: t.end(B),
        lambda t: t.play(A, 1, "11c5"),
        lambda t: t.draw(A, 2),
        lambda t: t.end(A),
        lambda t: t.draw(B, 3),
        lambda t: t.end(B),
    ]


def test_bribe_with_an_empty_discard_pile_and_the_hand_limit():
    t = Table(("brewery", "jazz_club"))
    outcome = t.do(Bribe(by=A))
    assert t.codes(outcome) == ["bribe_empty"] and t.state.hands[A] == 4
    t.end(A)
    t.draw(B, 2)
    t.end(B)
    # A: 4 cards; draw to 5, 6 ... a Bribe is a draw for the hand limit.
    t.state = t.state.model_copy(update={"hands": (8, 7), "discard": (card("1c1"),), "actions_left": 1})
    t.refuse(Bribe(by=A, card=card("1c1")), "chicago_poker.err.special_gone")  # the only Bribe is gone
    t.state = t.state.model_copy(update={"discard_specials": ()})
    t.refuse(Bribe(by=A, card=card("1c1")), "chicago_poker.err.hand_limit")


def test_special_cards_variant():
    t = Table(("brewery", "jazz_club"), special_cards=False)
    t.refuse(Revolver(by=A), "chicago_poker.err.no_special_cards")
    assert GAME.legal(t.state, A).specials == ()


def test_a_second_police_raid_exists_but_not_a_third():
    t = Table(("speakeasy", "brewery"), players=3, first=B)
    t.play(B, 1, "3c3")
    t.end(B)
    t.do(PoliceRaid(by=C, business=1, target=B))
    t.do(PoliceRaid(by=C, business=1, target=B))
    t.end(C)
    t.refuse(PoliceRaid(by=A, business=1, target=B), "chicago_poker.err.special_gone")


# --- markers ------------------------------------------------------------------------------------


def test_later_filler_gets_a_marker_and_protection_by_house_rule():
    """A marks the brewery; B completes five cards there too. By default B takes a marker as
    well and C cannot liquidate B there; with the house rule "none" B gets no marker."""
    for rule, protected in (("marker", True), ("none", False)):
        t = Table(("brewery", "jazz_club"), players=3, later_markers=rule)
        t.play(A, 1, "9c1")
        t.end(A)
        t.play(B, 1, "9c2")
        t.play(B, 1, "9c3")
        t.end(B)
        t.idle(C, at=(2,))
        for text in ("9c4", "2c1", "3c3"):
            t.play(A, 1, text)
        t.end(A)
        t.play(B, 1, "2c2")
        t.play(B, 1, "3c4")
        t.draw(B)
        t.end(B)
        t.idle(C, at=(2,))
        t.play(A, 1, "4c4")
        t.draw(A, 2)
        t.end(A)
        fifth = t.play(B, 1, "4c2")
        t.draw(B, 2)
        t.end(B)
        assert [m.seat for m in t.state.markers] == ([A, B] if protected else [A])
        if protected:
            assert t.codes(fifth)[-1] == "marker_placed"
            t.refuse(Liquidation(by=C, business=1, target=B), "chicago_poker.err.target_under_marker")
        else:
            assert t.codes(fifth)[-1] == "marker_not_placed"
            t.do(Liquidation(by=C, business=1, target=B))
            assert len(t.state.business(1).columns[B]) == 4


# --- victory ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("held", "kind", "rules", "code", "count"),
    [
        (("speakeasy", "speakeasy"), "speakeasy", {}, "victory_same_type", 3),
        (("speakeasy", "jazz_club", "brewery"), "gambling_house", {}, "victory_four_types", 4),
        (("speakeasy", "speakeasy", "jazz_club", "jazz_club"), "brewery", {}, "victory_any", 5),
        (("speakeasy",), "speakeasy", {"short_game": True}, "victory_same_type", 2),
        (("speakeasy", "jazz_club"), "brewery", {"short_game": True}, "victory_any", 3),
    ],
)
def test_victory_conditions(held, kind, rules, code, count):
    """A already controls `held`; A alone fills a business of type `kind` and takes it."""
    t = Table((kind, "jazz_club"), **rules)
    t.give(A, *held)
    outcome = lone_shootout(t, ["1c1", "3c2", "5c3", "7c4", "9c5"])
    assert t.codes(outcome)[-3:] == ["won_alone", "business_taken", code]
    assert t.ruling(code, outcome) == {"seat": A, "count": count}
    assert t.state.phase == "over" and t.board().winners == (A,)
    assert GAME.result(t.state) == {"score": [len(held) + 1, 0], "winners": [A]}
    assert GAME.waiting_for(t.state) == ()


def test_no_victory_yet():
    """Three businesses of three types is not enough in the full game."""
    t = Table(("brewery", "jazz_club"))
    t.give(A, "speakeasy", "jazz_club")
    outcome = lone_shootout(t, ["1c1", "3c2", "5c3", "7c4", "9c5"])
    assert t.codes(outcome)[-1] == "enter_tile" and t.state.phase == "tiles"
    assert GAME.result(t.state) is None


def test_the_last_business_wins_when_no_tiles_are_left():
    """All 20 tiles are out (set up directly: 18 already taken, A holds four of them). A takes
    the brewery: one business is left and no tile replaces it. B then takes the last business,
    the jazz club, and wins although A controls more."""
    t = Table(("brewery", "jazz_club"))
    others = ["speakeasy"] * 5 + ["jazz_club"] * 4 + ["brewery"] * 4 + ["gambling_house"] * 5
    t.state = t.state.model_copy(update={"tiles": t.state.tiles + tuple(others)})
    t.give(A, "speakeasy", "speakeasy", "jazz_club")
    t.play(A, 1, "1c1")
    t.end(A)
    t.play(B, 2, "15c1")
    t.play(B, 2, "15c2")
    t.end(B)
    for text in ("3c2", "5c3", "7c4"):
        t.play(A, 1, text)
    t.end(A)
    t.play(B, 2, "14c1")
    t.draw(B, 2)
    t.end(B)
    t.play(A, 1, "9c5")
    t.draw(A, 2)
    t.end(A)
    t.play(B, 2, "14c2")
    t.play(B, 2, "13c1")  # B's 5th at the jazz club: marker
    t.draw(B)
    outcome = t.end(B)
    assert t.codes(outcome)[-2:] == ["won_alone", "business_taken"]
    assert t.state.phase == "actions" and [b.id for b in t.state.businesses] == [2]
    assert len(t.state.controlled[A]) == 4
    t.draw(A, 3)
    outcome = t.end(A)
    assert t.codes(outcome)[-3:] == ["won_alone", "business_taken", "victory_last_business"]
    assert GAME.result(t.state) == {"score": [4, 1], "winners": [B]}


# --- bad input ----------------------------------------------------------------------------------


def test_sixth_card_at_a_business():
    t = Table(("brewery", "jazz_club"))
    lone_shootout_before_resolution(t)
    t.draw(A)
    t.refuse(PlayFaceUp(by=A, business=1, card=card("15c1")), "chicago_poker.err.column_full")


def lone_shootout_before_resolution(t: Table) -> None:
    t.play(A, 1, "1c1")
    t.end(A)
    t.idle(B, at=(2,))
    for text in ("2c1", "3c1", "4c1"):
        t.play(A, 1, text)
    t.end(A)
    t.idle(B, at=(2,))
    t.play(A, 1, "6c1")


def test_duplicate_card_is_refused_wherever_it_is():
    t = Table(("brewery", "speakeasy"))
    t.play(A, 1, "9c1")
    t.end(A)
    error = t.refuse(PlayFaceUp(by=B, business=1, card=card("9c1")), "chicago_poker.err.card_taken")
    assert error.params == {"card": "9·c1", "where": "table"}
    t.play(B, 2, "10c1")  # face down at the speakeasy: the app still knows it
    t.refuse(PlayFaceDown(by=B, business=2, card=card("10c1")), "chicago_poker.err.card_taken")
    t.draw(B)
    t.end(B)
    t.state = t.state.model_copy(update={"discard": (card("1c2"),)})
    error = t.refuse(PlayFaceUp(by=A, business=1, card=card("1c2")), "chicago_poker.err.card_taken")
    assert error.params["where"] == "discard"


def test_special_card_on_a_business():
    t = Table(("brewery", "speakeasy"))
    t.refuse(PlayFaceUp(by=A, business=1, card="revolver"), "chicago_poker.err.special_on_business")
    t.refuse(PlayFaceDown(by=A, business=2, card="bribe"), "chicago_poker.err.special_on_business")


def test_other_refusals():
    t = Table(("brewery", "speakeasy"), players=3)
    t.refuse(Draw(by=B), "chicago_poker.err.not_your_turn")
    t.refuse(Draw(by=5), "chicago_poker.err.unknown_seat")
    t.refuse(PlayFaceUp(by=A, business=9, card=card("1c1")), "chicago_poker.err.unknown_business")
    t.refuse(RevealTile(by=A, kind="brewery"), "chicago_poker.err.wrong_phase")
    t.refuse(Reinforce(by=A, card=card("1c1")), "chicago_poker.err.wrong_phase")
    t.refuse(RevealDeckCard(by=A, seat=A, card=card("1c1")), "chicago_poker.err.wrong_phase")
    t.refuse(ChooseShootout(by=A, business=1), "chicago_poker.err.wrong_phase")
    t.refuse(PoliceRaid(by=A, business=1, target=7), "chicago_poker.err.unknown_seat")
    t.state = t.state.model_copy(update={"hands": (0, 5, 5)})
    t.refuse(PlayFaceUp(by=A, business=1, card=card("1c1")), "chicago_poker.err.empty_hand")
    t.refuse(Revolver(by=A), "chicago_poker.err.empty_hand")


def test_tiles_of_a_type_run_out():
    setup = Setup(players=(Player(name="Ada", colour="red"), Player(name="Bea", colour="blue")))
    state = GAME.initial_state(setup, 1).model_copy(update={"tiles": ("brewery",) * 5})
    with pytest.raises(RuleError) as caught:
        GAME.apply(state, RevealTile(by=0, kind="brewery"))
    assert caught.value.code == "chicago_poker.err.no_tile_of_type"
    assert GAME.legal(state, 0).tiles == ("speakeasy", "jazz_club", "gambling_house")


def test_setup_validation():
    players = (Player(name="Ada", colour="red"), Player(name="Bea", colour="blue"))
    with pytest.raises(ValueError):
        Setup(players=players[:1])
    with pytest.raises(ValueError):
        Setup(players=players, hand_ranking="custom", custom_ranking=("pair",) * 11)
    with pytest.raises(ValueError):
        Setup(players=players, bosses=("al_capone",))
    with pytest.raises(ValueError):
        Setup(players=players, first_player=2)
    setup = Setup(players=players, bosses=("al_capone", "bugs_moran"))
    assert GAME.project(GAME.initial_state(setup, 1), BOARD).bosses == ("al_capone", "bugs_moran")
    for field, values in GAME.house_rules.items():
        assert getattr(Setup(players=players), field) == values[0]
        for value in values:
            Setup(players=players, **{field: value})
