"""Corruption: the rulebook's worked example and one story per mechanic (docs/rules/corruption.md).

Seats are P1, P2, ... in clockwise order (seat 0 is P1). `Table.play` keeps the story readable:
when it is not yet the named player's turn, the players in between put their smallest bribe
under a "filler" contract the story does not care about.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine import BOARD, Outcome, RuleError, seat_audience
from companion.games.corruption import (
    BODIES,
    GAME,
    AssignSwiss,
    ChooseFaceUp,
    DealContracts,
    HitTarget,
    NewContract,
    PeekCard,
    PlayCard,
    ReportBribe,
    Reveal,
    Setup,
    load_catalogue,
    remember_contract,
)
from companion.players import Player

P1, P2, P3, P4 = 0, 1, 2, 3
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black")

#: Contract values other than the Monument's are not known (docs/rules/corruption.md#setup): these are chosen.
RULEBOOK_DEAL = {
    "city_hall": [("Monument", 100_000), ("Opera House", 600_000)],
    "county_seat": [("Stadium", 500_000), ("Subway", 800_000)],
    "capitol": [("University", 400_000), ("Airport", 700_000)],
}


def players(n: int) -> tuple[Player, ...]:
    return tuple(Player(name=f"P{i + 1}", colour=COLOURS[i]) for i in range(n))


class Table:
    """A game driven like a story: deal, play cards, make the award-phase choices."""

    def __init__(self, n: int = 3, *, seed: int = 7, first_player: int | None = 0, filler: str | None = "Airport", **rules: Any):
        self.state = GAME.initial_state(Setup(players=players(n), first_player=first_player, **rules), seed)
        self.filler = filler
        self.actions: list[Any] = []
        self.outcomes: list[Outcome] = []

    # -- driving --

    def do(self, action: Any) -> Outcome:
        outcome = GAME.apply(self.state, action)
        self.state = outcome.state
        self.actions.append(action)
        self.outcomes.append(outcome)
        if self.state.phase == "reveal":
            # The last card reveals nothing: the host board's reveal follows (the stories are
            # about the awards; tests/games/test_corruption_reveal.py is about the reveal).
            assert not outcome.reveals and not GAME.revealed(self.state)
            return self.do(Reveal())
        return outcome

    def deal(self, deal: dict[str, list[tuple[str, int]]] | None = None, by: int = 0) -> Outcome:
        deal = deal or RULEBOOK_DEAL
        new = tuple(NewContract(body=body, name=name, value=value) for body in BODIES for name, value in deal[body])
        return self.do(DealContracts(by=by, contracts=new))

    def id(self, name: str) -> int:
        """The contract of that name on the table (the newest if a name repeats)."""
        return max(c.id for c in self.state.contracts if c.name == name)

    def play(self, seat: int, card: Any, where: str) -> int:
        """`seat` puts `card` under the contract named `where`, or on a body's Swiss account when
        `where` is a body; returns the card's index in the round's play order."""
        self.fill_until(seat)
        swiss = where in BODIES
        face_up = not swiss and bool(GAME.legal(self.state, seat).face_up)
        location = where if swiss else self.id(where)
        index = len(self.state.placements)
        self.do(PlayCard(by=seat, card=card, location=location, face_up=face_up))
        return index

    def fill_until(self, seat: int | None) -> None:
        while self.state.phase == "corruption" and GAME.current_seat(self.state) != seat:
            current = GAME.current_seat(self.state)
            assert self.filler is not None, "this story plays every card itself"
            smallest = min(c for c in GAME.hand(self.state, current) if isinstance(c, int))
            face_up = bool(GAME.legal(self.state, current).face_up)
            self.do(PlayCard(by=current, card=smallest, location=self.id(self.filler), face_up=face_up))

    def finish_corruption(self) -> None:
        self.fill_until(None)

    # -- reading --

    def view(self, audience: Any = BOARD) -> Any:
        return GAME.project(self.state, audience)

    def award(self, name: str) -> Any:
        return next(a for a in self.state.awards if a.contract == self.id(name))

    def codes(self, since: int = 0) -> list[str]:
        return [r.code for o in self.outcomes[since:] for r in o.rulings]

    def rulings(self, code: str) -> list[dict[str, Any]]:
        return [r.params for o in self.outcomes for r in o.rulings if r.code == code]


def expect_error(table: Table, action: Any, code: str) -> None:
    before = table.state.model_dump_json()
    with pytest.raises(RuleError) as caught:
        GAME.apply(table.state, action)
    assert caught.value.code == code
    assert table.state.model_dump_json() == before


# --- the rulebook's worked example ------------------------------------------------------------


def play_rulebook_round(table: Table) -> None:
    """RECONSTRUCTION. The rulebook's figures are lost: these placements and contract values
    (only the Monument's $100,000 is known) were chosen to produce exactly its stated outcome.

    Four players, round 1, P1 leads; each player's first card is face up. City Hall holds the
    Monument and the Opera House, the County Seat the Stadium and the Subway, the Capitol the
    University and the Airport. P1's $8,000 is the first bribe on City Hall's Swiss account;
    P3 adds a $2,000 Swiss bribe there later. P4 sends a district attorney to the Opera House.
    On the Airport P1 and P3 each bid $10,000, P2 $6,000, P4 $2,000, and P3 plays a reporter
    before P4 does. Nobody plays a hit man.
    """
    turns = [
        # P1                        P2                          P3                          P4
        [(10000, "Airport"), (10000, "University"), (6000, "Stadium"), (10000, "Subway")],
        [(8000, "city_hall"), (6000, "Airport"), (10000, "Airport"), ("da", "Opera House")],
        [(4000, "Stadium"), (8000, "Subway"), (8000, "Opera House"), (6000, "University")],
        [(2000, "Opera House"), (2000, "Monument"), (2000, "city_hall"), (2000, "Airport")],
        [(6000, "Subway"), (4000, "University"), ("reporter", "Airport"), ("reporter", "Airport")],
        [(1000, "University"), (1000, "Stadium"), (1000, "Subway"), (1000, "Monument")],
    ]
    for turn in turns:
        for seat, (card, where) in enumerate(turn):
            table.play(seat, card, where)


def test_golden_rulebook_example() -> None:
    table = Table(4, filler=None)
    table.deal()
    play_rulebook_round(table)
    reveal = table.outcomes[-1]
    assert isinstance(table.actions[-1], Reveal) and reveal.reveals, "the host's reveal after the last card shows every card"
    assert table.state.phase == "awards"

    # 1. Swiss: P1's $8,000, the first bribe on City Hall's account, is assigned first.
    pending = table.view().pending
    assert (pending.kind, pending.seat) == ("swiss", P1)
    assert set(pending.options) == {table.id("Monument"), table.id("Opera House")}
    assert GAME.waiting_for(table.state) == (P1,)
    out = table.do(AssignSwiss(by=P1, contract=table.id("Monument")))
    assert out.rulings[0].code == "corruption.swiss_assigned"
    assert out.rulings[0].params.items() >= {"seat": P1, "face_amount": 8000, "amount": 4000, "contract": "Monument"}.items()
    assert GAME.waiting_for(table.state) == (P3,)
    table.do(AssignSwiss(by=P3, contract=table.id("Monument")))

    # 2. No hit man. 3. The DA cancels the Opera House. 4. Reporters on the Airport, in play order.
    cancelled = table.rulings("corruption.cancelled")
    assert [(r["contract"], r["seats"]) for r in cancelled] == [("Opera House", [P4])]
    pending = table.view().pending
    assert (pending.kind, pending.seat, pending.contract) == ("report", P3, table.id("Airport"))
    p1_ten = next(p.index for p in table.state.placements if p.seat == P1 and p.card == 10000)
    p3_ten = next(p.index for p in table.state.placements if p.seat == P3 and p.card == 10000)
    table.do(ReportBribe(by=P3, bribe=p1_ten))
    assert GAME.waiting_for(table.state) == (P4,)
    assert p1_ten not in table.view().pending.options, "a removed bribe cannot be removed again"
    table.do(ReportBribe(by=P4, bribe=p3_ten))
    assert [(r["seat"], r["target_seat"], r["amount"]) for r in table.rulings("corruption.reported")] == [
        (P3, P1, 10000),
        (P4, P3, 10000),
    ]

    # 5. Awards.
    assert table.state.phase == "round_over"
    assert table.award("Monument").winner == P1
    assert table.award("Monument").totals == (4000, 2000, 1000, 1000)  # P3's $2,000 Swiss counts $1,000
    assert table.award("Opera House").outcome == "cancelled"
    assert table.award("Stadium").winner == P3
    assert table.award("Subway").winner == P4
    assert table.award("University").winner == P2
    assert table.award("Airport").winner == P2
    assert table.award("Airport").totals == (0, 6000, 0, 2000)
    assert table.view().score == (100_000, 1_100_000, 500_000, 800_000)
    # "Player 2 will be the leading player in the second round."
    assert table.state.order == (P2, P3, P4, P1)
    assert table.rulings("corruption.next_leader")[-1]["seat"] == P2

    # The deferred Opera House stays in City Hall's column, left of the two new contracts.
    table.deal({b: [(f"{b} new 1", 300_000), (f"{b} new 2", 300_000)] for b in BODIES}, by=P3)
    city_hall = table.view().bodies[0]
    assert [c.name for c in city_hall.contracts] == ["Opera House", "city_hall new 1", "city_hall new 2"]
    assert city_hall.contracts[0].deferred
    assert GAME.waiting_for(table.state) == (P2,)


def test_golden_board_shows_only_face_up_cards_before_the_reveal() -> None:
    table = Table(4, filler=None)
    table.deal()
    play_rulebook_round(table)
    # Rewind to just before the reveal: every card placed, the round waits for the host.
    state = Table(4, filler=None).state
    for action in table.actions[:-1]:
        state = GAME.apply(state, action).state
    assert state.phase == "reveal" and GAME.awaiting_reveal(state)
    board = GAME.project(state, BOARD)
    assert board.awaiting_reveal and board.board_legal.reveal
    seen = {(p.seat, p.ordinal): p.card for b in board.bodies for p in (*b.swiss, *(q for c in b.contracts for q in c.placements))}
    assert seen[(P1, 1)] == 10000 and seen[(P4, 1)] == 10000  # first cards face up
    assert all(card is None for (seat, ordinal), card in seen.items() if ordinal > 1)
    assert [p.seat for p in board.bodies[0].swiss] == [P1, P3]  # Swiss backs, in play order
    assert not board.revealed


def test_story_swiss_bribe_sent_to_a_contract_a_da_cancels_is_wasted() -> None:
    """The rulebook's warning: had P1 sent the $8,000 Swiss bribe to the Opera House, the DA would
    cancel it there and the Monument would go to P2's $2,000 (P3's and P4's count $1,000)."""
    table = Table(4, filler=None)
    table.deal()
    play_rulebook_round(table)
    table.do(AssignSwiss(by=P1, contract=table.id("Opera House")))
    table.do(AssignSwiss(by=P3, contract=table.id("Monument")))
    p1_ten = next(p.index for p in table.state.placements if p.seat == P1 and p.card == 10000)
    p3_ten = next(p.index for p in table.state.placements if p.seat == P3 and p.card == 10000)
    table.do(ReportBribe(by=P3, bribe=p1_ten))
    table.do(ReportBribe(by=P4, bribe=p3_ten))
    assert table.award("Opera House").outcome == "cancelled"
    assert table.award("Monument").winner == P2
    assert table.award("Monument").totals == (0, 2000, 1000, 1000)
    assert table.view().score[P1] == 0


# --- hit men -------------------------------------------------------------------------------------


def test_story_hit_man_kills_the_hit_man_that_would_have_killed_the_da() -> None:
    """P3 leads. On the Subway P3 plays a hit man first, then P1 a district attorney, then P2 a
    hit man and later a $10,000 bribe. P2 hopes to kill the DA and win; P3 strikes first and
    kills P2's hit man, which never acts; the DA survives and the Subway is cancelled."""
    table = Table(3, first_player=P3)
    table.deal()
    p3_hitman = table.play(P3, "hitman", "Subway")
    p1_da = table.play(P1, "da", "Subway")
    p2_hitman = table.play(P2, "hitman", "Subway")
    table.play(P2, 10000, "Subway")
    table.finish_corruption()

    pending = table.view().pending
    assert (pending.kind, pending.seat, pending.placement) == ("hit", P3, p3_hitman)
    assert set(pending.options) == {p1_da, p2_hitman}
    table.do(HitTarget(by=P3, target=p2_hitman))
    assert table.rulings("corruption.hit_hitman") == [
        {"seat": P3, "target_seat": P2, "contract": "Subway", "placement": p2_hitman}
    ]
    assert table.rulings("corruption.hitman_dead")[0]["seat"] == P2
    assert table.award("Subway").outcome == "cancelled"
    assert table.state.phase == "round_over"
    assert "Subway" not in [c.name for c in table.state.won[P2]]
    assert table.view().score[P2] == 0


def test_story_a_hit_man_that_acted_stays_a_target() -> None:
    """Same table, but P3 kills the DA: P2's hit man then must kill P3's hit man, the only
    character left on the Subway, and P2's $10,000 wins it."""
    table = Table(3, first_player=P3)
    table.deal()
    p3_hitman = table.play(P3, "hitman", "Subway")
    p1_da = table.play(P1, "da", "Subway")
    p2_hitman = table.play(P2, "hitman", "Subway")
    table.play(P2, 10000, "Subway")
    table.finish_corruption()
    table.do(HitTarget(by=P3, target=p1_da))
    pending = table.view().pending
    assert (pending.seat, pending.placement, pending.options) == (P2, p2_hitman, (p3_hitman,))
    table.do(HitTarget(by=P2, target=p3_hitman))
    assert table.award("Subway").winner == P2


def test_story_hit_man_without_a_target_is_discarded() -> None:
    """P1's hit man goes to the Opera House, where nobody plays a character. It is discarded
    without asking P1, and it has left the game: P1 cannot play it in round 2."""
    table = Table(3)
    table.deal()
    table.play(P1, "hitman", "Opera House")
    table.play(P2, 6000, "Opera House")
    table.finish_corruption()
    assert table.rulings("corruption.hitman_no_target") == [{"seat": P1, "contract": "Opera House"}]
    assert table.state.phase == "round_over", "nothing was left to choose"
    assert table.award("Opera House").winner == P2
    table.deal({b: [(f"{b} 2a", 200_000), (f"{b} 2b", 200_000)] for b in BODIES})
    table.filler = "capitol 2b"
    assert "hitman" not in GAME.project(table.state, seat_audience(P1)).me.hand
    table.fill_until(P1)
    expect_error(table, PlayCard(by=P1, card="hitman", location=table.id("Stadium"), face_up=False), "corruption.err.card_not_held")


def test_story_own_cards_are_targets_unless_the_house_rule_protects_them() -> None:
    """P1 plays a hit man and a DA on the Opera House, nobody else a character. By the literal
    rule the hit man must kill P1's own DA; with "own cards immune" it is discarded and the DA
    cancels the contract."""
    for immune in (False, True):
        table = Table(3, own_cards_immune=immune)
        table.deal()
        hitman = table.play(P1, "hitman", "Opera House")
        da = table.play(P1, "da", "Opera House")
        table.finish_corruption()
        if immune:
            assert table.rulings("corruption.hitman_no_target")[0]["seat"] == P1
            assert table.award("Opera House").outcome == "cancelled"
        else:
            pending = table.view().pending
            assert (pending.seat, pending.placement, pending.options) == (P1, hitman, (da,))
            table.do(HitTarget(by=P1, target=da))
            assert table.award("Opera House").outcome == "no_bribes"


def test_story_immune_house_rule_rejects_killing_your_own_card() -> None:
    table = Table(3, own_cards_immune=True)
    table.deal()
    table.play(P1, "hitman", "Opera House")
    reporter = table.play(P2, "reporter", "Opera House")
    table.play(P3, 1000, "Monument")
    own_da = table.play(P1, "da", "Opera House")
    table.finish_corruption()
    assert table.view().pending.options == (reporter,)
    expect_error(table, HitTarget(by=P1, target=own_da), "corruption.err.target_immune")
    expect_error(table, HitTarget(by=P1, target=0), "corruption.err.bad_target")  # itself


# --- reporters and deferred contracts ------------------------------------------------------------


def play_reporter_tie(table: Table) -> tuple[int, int]:
    """P1 bids $8,000 and later $4,000 on the Stadium, P2 $8,000. P3's reporter removes P1's
    $4,000: both stand at $8,000, nobody wins, the Stadium is deferred."""
    table.deal()
    table.play(P1, 8000, "Stadium")
    table.play(P2, 8000, "Stadium")
    reporter = table.play(P3, "reporter", "Stadium")
    p1_four = table.play(P1, 4000, "Stadium")
    table.finish_corruption()
    return reporter, p1_four


def test_story_reporter_removes_the_leaders_bribe_to_create_a_tie() -> None:
    table = Table(3)
    reporter, p1_four = play_reporter_tie(table)
    pending = table.view().pending
    assert (pending.kind, pending.seat, pending.placement) == ("report", P3, reporter)
    assert pending.may_pass
    table.do(ReportBribe(by=P3, bribe=p1_four))
    assert table.award("Stadium").outcome == "tied"
    assert table.award("Stadium").totals[:2] == (8000, 8000)
    assert table.rulings("corruption.tied") == [
        {"contract": "Stadium", "contract_id": table.id("Stadium"), "seats": [P1, P2], "amount": 8000}
    ]
    assert all(c.name != "Stadium" for won in table.state.won for c in won)


def test_story_deferred_contract_is_won_in_a_later_round_with_a_swiss_bribe() -> None:
    """Round 2: the tied Stadium (and the unbribed Subway) are still in the County Seat's
    column, left of two new contracts. P2 puts $10,000 on the County Seat's Swiss account and sends it to the Stadium
    ($5,000); P1's upright $4,000 is not enough. P2 wins the Stadium dealt in round 1."""
    table = Table(3)
    _, p1_four = play_reporter_tie(table)
    table.do(ReportBribe(by=P3, bribe=p1_four))
    table.deal({b: [(f"{b} 2a", 200_000), (f"{b} 2b", 200_000)] for b in BODIES})
    table.filler = "capitol 2b"
    county = table.view().bodies[1]
    assert [(c.name, c.deferred) for c in county.contracts] == [
        ("Stadium", True),
        ("Subway", True),  # nobody bribed for it in round 1
        ("county_seat 2a", False),
        ("county_seat 2b", False),
    ]
    table.play(P1, 4000, "Stadium")
    table.play(P2, 10000, "county_seat")
    table.finish_corruption()
    pending = table.view().pending
    assert (pending.kind, pending.seat) == ("swiss", P2)
    assert table.id("Stadium") in pending.options, "deferred contracts take Swiss bribes too"
    table.do(AssignSwiss(by=P2, contract=table.id("Stadium")))
    assert table.award("Stadium").winner == P2
    assert table.award("Stadium").totals[:2] == (4000, 5000)
    stadium = next(c for c in table.state.won[P2] if c.name == "Stadium")
    assert stadium.dealt_round == 1


def test_story_reporter_may_decline_unless_the_house_rule_forces_a_removal() -> None:
    table = Table(3)
    play_reporter_tie(table)
    table.do(ReportBribe(by=P3, bribe=None))
    assert table.rulings("corruption.report_declined")[0]["seat"] == P3
    assert table.award("Stadium").winner == P1

    forced = Table(3, reporter_optional=False)
    play_reporter_tie(forced)
    assert not forced.view().pending.may_pass
    expect_error(forced, ReportBribe(by=P3, bribe=None), "corruption.err.must_remove")


def test_story_reporter_cannot_remove_a_swiss_bribe() -> None:
    """P2 sends a Swiss bribe to the Stadium; P3's reporter may remove only upright bribes."""
    table = Table(3)
    table.deal()
    table.play(P1, 8000, "Stadium")
    swiss = table.play(P2, 6000, "county_seat")
    table.play(P3, "reporter", "Stadium")
    table.finish_corruption()
    table.do(AssignSwiss(by=P2, contract=table.id("Stadium")))
    assert table.view().pending.kind == "report"
    assert swiss not in table.view().pending.options
    expect_error(table, ReportBribe(by=P3, bribe=swiss), "corruption.err.bad_bribe")


def test_story_award_order_house_rule_changes_who_chooses_first() -> None:
    """P1 puts a Swiss bribe on the Capitol account, then P2 one on City Hall's. By location
    (French text) City Hall's account is resolved first, so P2 chooses first; by play order
    (English text) P1 does."""
    first_chooser = {}
    for order in ("location", "play"):
        table = Table(3, resolution_order=order)
        table.deal()
        table.play(P1, 8000, "capitol")
        table.play(P2, 6000, "city_hall")
        table.finish_corruption()
        first_chooser[order] = table.view().pending.seat
    assert first_chooser == {"location": P2, "play": P1}


# --- face-up schedules ----------------------------------------------------------------------------


def face_up_ordinals(table: Table, seat: int) -> list[int]:
    return [p.ordinal for p in table.state.placements if p.seat == seat and p.face_up]


def play_four_rounds(table: Table, check_round: Any) -> None:
    for round_number in range(1, 5):
        table.deal({b: [(f"{b} {round_number}a", 300_000), (f"{b} {round_number}b", 300_000)] for b in BODIES})
        table.filler = f"capitol {round_number}b"
        table.finish_corruption()
        while table.state.phase == "awards":
            table.do(GAME.random_action(table.state, random.Random(0)))
        check_round(round_number, table)


@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        ("standard", {1: [1], 2: [1, 2], 3: [1, 2, 3], 4: [1, 2, 3, 4]}),
        ("down_the_river", {1: [3], 2: [3, 4], 3: [2, 3, 4], 4: [2, 3, 4, 5]}),
        ("closed", {1: [], 2: [], 3: [], 4: []}),
    ],
)
def test_story_face_up_schedules(variant: str, expected: dict[int, list[int]]) -> None:
    def check(round_number: int, table: Table) -> None:
        for seat in range(3):
            assert face_up_ordinals(table, seat) == expected[round_number], (round_number, seat)

    table = Table(3, variant=variant)
    play_four_rounds(table, check)
    assert table.state.phase == "over"


def test_story_a_swiss_card_uses_up_a_face_up_slot() -> None:
    """Round 1: P1's first card goes to a Swiss account, face down; P1's second card is face
    down too, because the one face-up slot was the first card."""
    table = Table(3)
    table.deal()
    assert GAME.legal(table.state, P1).face_up is True
    expect_error(table, PlayCard(by=P1, card=8000, location="capitol", face_up=True), "corruption.err.must_be_face_down")
    table.play(P1, 8000, "capitol")
    table.fill_until(P1)
    assert GAME.legal(table.state, P1).face_up is False
    expect_error(table, PlayCard(by=P1, card=6000, location=table.id("Monument"), face_up=True), "corruption.err.must_be_face_down")
    assert face_up_ordinals(table, P1) == []


def test_story_free_stud_leader_chooses_the_face_up_cards() -> None:
    """Free Stud: after the deal the leading player picks the face-up card numbers; only they
    may, and only numbers 1 to 6 once each. The next round's leader chooses again."""
    table = Table(3, variant="free_stud", first_player=P2)
    table.deal()
    assert table.state.phase == "stud" and GAME.waiting_for(table.state) == (P2,)
    assert GAME.legal(table.state, P2).choose_face_up and not GAME.legal(table.state, P1).choose_face_up
    expect_error(table, ChooseFaceUp(by=P1, slots=(1,)), "corruption.err.not_leader")
    expect_error(table, ChooseFaceUp(by=P2, slots=(0, 2)), "corruption.err.bad_slots")
    expect_error(table, ChooseFaceUp(by=P2, slots=(2, 2)), "corruption.err.bad_slots")
    expect_error(table, ChooseFaceUp(by=P2, slots=(7,)), "corruption.err.bad_slots")
    assert GAME.is_public(ChooseFaceUp(by=P2, slots=(1,)))
    table.do(ChooseFaceUp(by=P2, slots=(5, 2)))
    assert table.view().face_up_slots == (2, 5)
    table.finish_corruption()
    for seat in range(3):
        assert face_up_ordinals(table, seat) == [2, 5]
    while table.state.phase == "awards":
        table.do(GAME.random_action(table.state, random.Random(1)))
    leader = table.state.order[0]
    table.deal({b: [(f"{b} 2a", 300_000), (f"{b} 2b", 300_000)] for b in BODIES})
    assert GAME.waiting_for(table.state) == (leader,)
    table.do(ChooseFaceUp(by=leader, slots=()))
    table.filler = "capitol 2b"
    table.finish_corruption()
    assert all(not p.face_up for p in table.state.placements)


def test_story_closed_variant_has_no_characters() -> None:
    table = Table(3, variant="closed")
    table.deal()
    me = GAME.project(table.state, seat_audience(P1)).me
    assert sorted(me.hand) == [1000, 2000, 4000, 6000, 8000, 10000]
    expect_error(table, PlayCard(by=P1, card="da", location=table.id("Monument"), face_up=False), "corruption.err.card_not_held")
    assert GAME.legal(table.state, P1).face_up is False


# --- Little Black Book ---------------------------------------------------------------------------


def test_story_little_black_book_peeks() -> None:
    """Three players with the Little Black Book. P1's face-down $8,000 is under the Opera
    House, P2 has a face-down card on City Hall's Swiss account. P3 looks at P1's card: only
    P3's phone learns it is $8,000; the board and P2 only see that P3 peeked at that card.
    A Swiss card, a face-up card, one's own card and a card already seen cannot be peeked at,
    and two peeks are all a player has for the whole game."""
    table = Table(3, little_black_book=True)
    table.deal()
    table.play(P1, 10000, "Monument")
    table.play(P2, 10000, "Stadium")
    own = table.play(P3, 10000, "Subway")
    p1_secret = table.play(P1, 8000, "Opera House")
    p2_swiss = table.play(P2, 6000, "city_hall")
    own_down = table.play(P3, 1000, "Subway")
    face_up = 0

    expect_error(table, PeekCard(by=P3, placement=p2_swiss), "corruption.err.peek_swiss")
    expect_error(table, PeekCard(by=P3, placement=face_up), "corruption.err.peek_face_up")
    expect_error(table, PeekCard(by=P3, placement=own_down), "corruption.err.peek_own")
    expect_error(table, PeekCard(by=P3, placement=99), "corruption.err.unknown_placement")
    assert not GAME.is_public(PeekCard(by=P3, placement=p1_secret))

    out = table.do(PeekCard(by=P3, placement=p1_secret))  # not P3's turn: peeks come any time
    assert out.rulings[0].params == {"seat": P3, "owner_seat": P1, "contract": "Opera House", "placement": p1_secret}
    assert "8000" not in str([r.model_dump() for r in out.rulings]), "a ruling never tells the peeked card"

    def card_on_board(audience: Any) -> Any:
        view = GAME.project(table.state, audience)
        return next(p for c in view.bodies[0].contracts for p in c.placements if p.index == p1_secret)

    assert card_on_board(BOARD).card is None and card_on_board(BOARD).peeked_by == (P3,)
    p3 = GAME.project(table.state, seat_audience(P3)).me
    assert any(k.placement == p1_secret and k.card == 8000 and k.via == "peek" for k in p3.known_cards)
    p2 = GAME.project(table.state, seat_audience(P2)).me
    assert all(k.seat == P2 for k in p2.known_cards)
    assert table.view().peeks_left == (2, 2, 1)
    expect_error(table, PeekCard(by=P3, placement=p1_secret), "corruption.err.peek_again")
    assert own_down not in GAME.legal(table.state, P3).peek and own not in GAME.legal(table.state, P3).peek

    second = table.play(P1, 6000, "Opera House")
    table.do(PeekCard(by=P3, placement=second))
    third = table.play(P1, 4000, "Airport")
    expect_error(table, PeekCard(by=P3, placement=third), "corruption.err.no_peeks_left")
    table.finish_corruption()
    expect_error(table, PeekCard(by=P2, placement=third), "corruption.err.wrong_phase")

    # Two per game, not per round.
    while table.state.phase == "awards":
        table.do(GAME.random_action(table.state, random.Random(2)))
    table.deal({b: [(f"{b} 2a", 200_000), (f"{b} 2b", 200_000)] for b in BODIES})
    assert table.view().peeks_left == (2, 2, 0)

    plain = Table(3)
    plain.deal()
    hidden = plain.play(P1, 8000, "Opera House")
    hidden = plain.play(P1, 6000, "Opera House")
    expect_error(plain, PeekCard(by=P2, placement=hidden), "corruption.err.no_black_book")


# --- leading player ------------------------------------------------------------------------------


def blank_round(table: Table, round_number: int) -> None:
    table.deal({b: [(f"{b} {round_number}a", 300_000), (f"{b} {round_number}b", 300_000)] for b in BODIES})


def test_story_leading_player_by_value_then_by_contract_count() -> None:
    """Round 1 (P1 leads): P1's DA cancels the filler Airport. P2 wins the Opera House
    ($600,000), P3 the Monument and the Stadium ($100,000 + $500,000): equal value, P3 has
    more contracts, so P3 leads round 2. Round 2: P1 wins the Subway ($800,000), deferred
    since round 1, and leads round 3 on value despite having fewer contracts than P3."""
    table = Table(3)
    table.deal()
    table.play(P1, "da", "Airport")
    table.play(P2, 10000, "Opera House")
    table.play(P3, 10000, "Monument")
    table.play(P3, 8000, "Stadium")
    table.finish_corruption()
    assert table.state.phase == "round_over"
    assert table.view().score == (0, 600_000, 600_000)
    assert table.state.order == (P3, P1, P2)

    blank_round(table, 2)
    assert GAME.current_seat(table.state) == P3
    table.play(P2, "da", "Airport")
    table.play(P1, 10000, "Subway")
    table.finish_corruption()
    assert table.view().score == (800_000, 600_000, 600_000)
    assert [len(w) for w in table.state.won] == [1, 1, 2]
    assert table.state.order == (P1, P2, P3)


def tie_after_round_one(first_player: int, seed: int = 7, **rules: Any) -> Table:
    """P2 wins the Opera House and P3 the Stadium, both $600,000: a full tie."""
    deal = dict(RULEBOOK_DEAL, county_seat=[("Stadium", 600_000), ("Subway", 800_000)])
    table = Table(3, first_player=first_player, seed=seed, **rules)
    table.deal(deal)
    table.play(P3 if first_player == P3 else P1, "da", "Airport")
    table.play(P2, 10000, "Opera House")
    table.play(P3, 10000, "Stadium")
    table.finish_corruption()
    assert table.view().score == (0, 600_000, 600_000)
    return table


def test_story_leading_player_tie_clockwise_house_rule() -> None:
    """Clockwise: the first tied player after the previous leader leads, so the previous
    leader does not keep the lead when tied."""
    assert tie_after_round_one(P1, leader_tie="clockwise").state.order[0] == P2
    assert tie_after_round_one(P2, leader_tie="clockwise").state.order[0] == P3
    assert tie_after_round_one(P3, leader_tie="clockwise").state.order[0] == P2
    ruling = tie_after_round_one(P2, leader_tie="clockwise").rulings("corruption.leader_tie_clockwise")[0]
    assert ruling == {"seats": [P2, P3], "seat": P3, "previous_seat": P2}


def test_story_leading_player_tie_drawn_at_random_from_the_seed() -> None:
    leaders = {seed: tie_after_round_one(P1, seed=seed).state.order[0] for seed in range(16)}
    assert set(leaders.values()) == {P2, P3}, "either tied player may be drawn, never another"
    assert tie_after_round_one(P1, seed=3).state.order[0] == leaders[3], "the draw is replayable"


def test_round_one_leader_is_chosen_or_drawn() -> None:
    assert Table(5, first_player=P4).state.order == (3, 4, 0, 1, 2)
    drawn = {Table(5, first_player=None, seed=s).state.order[0] for s in range(30)}
    assert drawn == {0, 1, 2, 3, 4}


def test_story_characters_are_used_once_per_game() -> None:
    """P1 plays the DA in round 1 and both reporters by round 2; none of them comes back."""
    table = Table(3)
    table.deal()
    table.play(P1, "da", "Monument")
    table.play(P1, "reporter", "Opera House")
    table.finish_corruption()
    while table.state.phase == "awards":
        table.do(GAME.random_action(table.state, random.Random(3)))
    assert table.view().characters_gone[P1] == ("da", "reporter")
    blank_round(table, 2)
    table.filler = "capitol 2b"
    hand = GAME.project(table.state, seat_audience(P1)).me.hand
    assert hand.count("reporter") == 1 and "da" not in hand and "hitman" in hand
    table.play(P1, "reporter", "Stadium")
    table.fill_until(P1)
    expect_error(table, PlayCard(by=P1, card="reporter", location=table.id("Stadium"), face_up=True), "corruption.err.card_not_held")


# --- the end -------------------------------------------------------------------------------------


def test_final_winner_tie_break_by_contract_count() -> None:
    """docs/rules/corruption.md#end: equal value -> more contracts wins; still equal -> shared win."""
    from companion.games.corruption import Contract

    def c(value: int, cid: int) -> Contract:
        return Contract(id=cid, body="capitol", name=f"C{cid}", value=value, dealt_round=1)

    winners, tied = GAME.winners(((c(600_000, 1),), (c(100_000, 2), c(500_000, 3)), (c(200_000, 4),)))
    assert (winners, tied) == ([1], [0, 1])
    winners, tied = GAME.winners(((c(600_000, 1),), (c(600_000, 2),), ()))
    assert (winners, tied) == ([0, 1], [])


def test_full_scripted_game_result() -> None:
    table = Table(3, variant="standard")
    play_four_rounds(table, lambda r, t: None)
    result = GAME.result(table.state)
    assert result is not None
    scores = [sum(c.value for c in won) for won in table.state.won]
    assert result["score"] == scores
    assert result["contracts"] == [len(w) for w in table.state.won]
    best = max(scores)
    assert set(result["winners"]) <= {s for s in range(3) if scores[s] == best}
    assert GAME.random_action(table.state, random.Random(0)) is None
    assert GAME.waiting_for(table.state) == ()


# --- catalogue -------------------------------------------------------------------------------------


def test_catalogue_ships_known_names_with_known_values_only() -> None:
    catalogue = load_catalogue()
    values = {e.name: e.value for e in catalogue.contracts}
    assert values["Monument"] == 100_000
    assert values["Elementary School"] == 100_000
    assert values["Hydro-Electric Dam"] == 1_200_000
    for name in ("Opera House", "Stadium", "Subway", "University", "Airport"):
        assert values[name] is None, f"{name}'s value is unknown (docs/rules/corruption.md#setup)"
    assert catalogue.value_range == (100_000, 1_200_000)
    remembered = remember_contract(catalogue, " stadium ", 500_000)
    assert {e.name: e.value for e in remembered.contracts}["Stadium"] == 500_000
    added = remember_contract(catalogue, "Harbour", 900_000)
    assert added.contracts[-1].name == "Harbour" and len(added.contracts) == len(catalogue.contracts) + 1
    with pytest.raises(ValueError):
        remember_contract(catalogue, "Stadium", 50)
