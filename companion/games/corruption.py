"""Corruption (Faidutti, 1999/2000): secret bribes, Swiss accounts at half value, hit men,
district attorneys, reporters, contract awards.

Rules: docs/rules/corruption.md. The three government bodies sit left to right as City Hall,
County Seat, Capitol. Contracts come from the physical deck: each round whoever deals enters the
six new contracts (name, value, column); deferred contracts stay in their column, to the left of
the new ones (column order is deal order, so contract ids increase left to right).

A round: deal -> (Free Stud: the leading player picks the face-up slots) -> corruption (six cards
each, clockwise from the leading player) -> awards (the reveal, then the players' choices in the
rulebook's order: Swiss assignments, hit men, district attorneys, reporters, awards) -> round over.

Module shape (same in every game): Setup, actions, State, views, MESSAGES, the engine class
with initial_state / apply / project / waiting_for / is_public / redact / result /
random_action, and GAME.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, TypeAdapter, field_validator

from companion.engine import (
    Audience,
    Model,
    Outcome,
    RuleError,
    Ruling,
    reveal_request,
    rng_for,
)
from companion.players import Colour, Player, check_players
from companion.standings import Detail, Standing, ranked

# --- setup -------------------------------------------------------------------------------------

ROUNDS = 4
CARDS_PER_ROUND = 6
MIN_PLAYERS, MAX_PLAYERS = 3, 7

Body = Literal["city_hall", "county_seat", "capitol"]
#: Left to right on the table; resolution runs in this order (docs/rules/corruption.md#setup).
BODIES: tuple[Body, ...] = ("city_hall", "county_seat", "capitol")
NEW_CONTRACTS_PER_BODY = 2
CONTRACT_MIN_VALUE, CONTRACT_MAX_VALUE = 100_000, 1_200_000
CONTRACT_NAME_MAX = 40

Character = Literal["da", "reporter", "hitman"]
BribeValue = Literal[1000, 2000, 4000, 6000, 8000, 10000]
Card = BribeValue | Character
#: A Swiss bribe counts half: the value printed sideways on the card.
BRIBES: tuple[BribeValue, ...] = (1000, 2000, 4000, 6000, 8000, 10000)
#: Each player's characters for the whole game: a played character leaves the game.
CHARACTERS: tuple[Character, ...] = ("da", "reporter", "reporter", "hitman")
CARD_ORDER: tuple[Card, ...] = (*BRIBES, "da", "reporter", "hitman")

#: Where a card goes: a contract id (upright, under that contract) or a body (its Swiss account).
Location = int | Body

Variant = Literal["standard", "down_the_river", "free_stud", "closed"]
VARIANTS: tuple[Variant, ...] = ("standard", "down_the_river", "free_stud", "closed")
#: Down the River: the face-up card positions (1-based, the player's own play order) by round.
DOWN_THE_RIVER_SLOTS = {1: (3,), 2: (3, 4), 3: (2, 3, 4), 4: (2, 3, 4, 5)}
PEEKS_PER_PLAYER = 2


class Setup(Model):
    players: tuple[Player, ...]
    variant: Variant = "standard"
    #: Little Black Book add-on (two peeks per player per game); combines with any variant
    little_black_book: bool = False
    #: seat index of round 1's leading player; None draws one at random (recorded through the seed)
    first_player: int | None = None
    #: house rule (docs/rules/corruption.md#resolution-order): "location" = French text, left to right, Swiss account first,
    #: then contracts, play order within a location; "play" = English text, global play order
    resolution_order: Literal["location", "play"] = "location"
    #: house rule (docs/rules/corruption.md#leading-player): leading-player tie left after value and contract count:
    #: "random" among the tied, or "clockwise" = first tied player clockwise after the previous leader
    leader_tie: Literal["random", "clockwise"] = "random"
    #: house rule (docs/rules/corruption.md#hit-men): a hit man may not kill its owner's own cards
    own_cards_immune: bool = False
    #: house rule (docs/rules/corruption.md#reporters): a reporter's owner may decline to remove a bribe
    reporter_optional: bool = True

    @field_validator("players")
    @classmethod
    def _players(cls, players: tuple[Player, ...]) -> tuple[Player, ...]:
        return check_players(players, MIN_PLAYERS, MAX_PLAYERS)

    @field_validator("first_player")
    @classmethod
    def _first(cls, value: int | None, info: Any) -> int | None:
        players = info.data.get("players", ())
        if value is not None and not 0 <= value < len(players):
            raise ValueError("the first player must be one of the players")
        return value


HOUSE_RULES: dict[str, tuple[Any, ...]] = {
    # the setup choices the setup form offers (variant and add-on first, then the house rules)
    "variant": VARIANTS,
    "little_black_book": (False, True),
    "resolution_order": ("location", "play"),
    "leader_tie": ("random", "clockwise"),
    "own_cards_immune": (False, True),
    "reporter_optional": (True, False),
}

# --- actions -----------------------------------------------------------------------------------


class NewContract(Model):
    body: Body
    name: str = Field(max_length=200)
    value: int


class DealContracts(Model):
    """Whoever deals enters the six new contracts (two per body). Public."""

    type: Literal["deal_contracts"] = "deal_contracts"
    #: the seat that entered it, or None: the host board entered it for the table (log format 4)
    by: int | None = None
    contracts: tuple[NewContract, ...]


class ChooseFaceUp(Model):
    """Free Stud: the leading player chooses which card positions (1..6) go face up. Public."""

    type: Literal["choose_face_up"] = "choose_face_up"
    by: int
    slots: tuple[int, ...]


class PlayCard(Model):
    """Place one card. `face_up` must match the round's schedule (the phone reads it from
    `my_legal.face_up`): a face-down placement is secret, a face-up one public."""

    type: Literal["play_card"] = "play_card"
    by: int
    card: Card
    location: Location
    face_up: bool


class PeekCard(Model):
    """Little Black Book: look at a face-down card under a contract. Only the peeker learns it."""

    type: Literal["peek"] = "peek"
    by: int
    #: the card's number in this round's play order (PlacementView.index)
    placement: int


class AssignSwiss(Model):
    """Award step 1: send the pending Swiss bribe to a contract of the same body."""

    type: Literal["assign_swiss"] = "assign_swiss"
    by: int
    contract: int


class HitTarget(Model):
    """Award step 2: the pending hit man kills this character (a placement index)."""

    type: Literal["hit"] = "hit"
    by: int
    target: int


class ReportBribe(Model):
    """Award step 4: the pending reporter removes this upright bribe, or none (if optional)."""

    type: Literal["report"] = "report"
    by: int
    bribe: int | None


class Reveal(Model):
    """The host board turns every card up once all are placed: the award phase (`host_only`)."""

    type: Literal["reveal"] = "reveal"
    by: None = None


class Ready(Model):
    """A seat is ready for the reveal (phase "reveal"); the last one reveals with this action."""

    type: Literal["ready"] = "ready"
    by: int


Action = Annotated[
    DealContracts | ChooseFaceUp | PlayCard | PeekCard | AssignSwiss | HitTarget | ReportBribe | Reveal | Ready,
    Field(discriminator="type"),
]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
#: the kind of pending award choice each choice action answers
AWARD_KINDS: dict[type[Model], str] = {AssignSwiss: "swiss", HitTarget: "hit", ReportBribe: "report"}

# --- state -------------------------------------------------------------------------------------

#: "reveal": every card is placed; the round waits for the host's `reveal` or everyone's `ready`
Phase = Literal["deal", "stud", "corruption", "reveal", "awards", "round_over", "over"]
AwardStage = Literal["swiss", "hit_men", "attorneys", "reporters", "awards"]


class Contract(Model):
    id: int
    body: Body
    name: str
    value: int
    dealt_round: int


class Placement(Model):
    #: number in this round's play order (0-based), the card's identity in later actions
    index: int
    seat: int
    #: the owner's own card number this round (1..6), which the face-up schedule counts
    ordinal: int
    card: Card
    location: Location
    face_up: bool

    @property
    def swiss(self) -> bool:
        return isinstance(self.location, str)


class PeekRecord(Model):
    seat: int
    round: int
    placement: int


class SwissChoice(Model):
    placement: int
    contract: int


class HitRecord(Model):
    hitman: int
    #: the killed card, or None when the hit man had no target or was dead before acting
    target: int | None


class Removal(Model):
    reporter: int
    #: the removed bribe, or None (declined, nothing to remove, reporter dead or contract cancelled)
    bribe: int | None


class Award(Model):
    contract: int
    outcome: Literal["won", "tied", "no_bribes", "cancelled"]
    #: per seat: upright bribes left + assigned Swiss bribes at half value (zeros if cancelled)
    totals: tuple[int, ...]
    winner: int | None = None


class State(Model):
    setup: Setup
    seed: int
    round: int = 1
    phase: Phase = "deal"
    #: this round's play order, leading player first (after the awards: the next round's)
    order: tuple[int, ...]
    face_up_slots: tuple[int, ...] = ()
    #: contracts on the table in column order (deferred ones first); after the awards, the
    #: round's won contracts stay listed until the next deal so the board can show the result
    contracts: tuple[Contract, ...] = ()
    next_contract_id: int = 1
    won: tuple[tuple[Contract, ...], ...]
    #: characters played in earlier rounds, per seat (they have left the game)
    characters_gone: tuple[tuple[Character, ...], ...]
    placements: tuple[Placement, ...] = ()
    peeks: tuple[PeekRecord, ...] = ()
    stage: AwardStage = "swiss"
    swiss_choices: tuple[SwissChoice, ...] = ()
    hits: tuple[HitRecord, ...] = ()
    cancelled: tuple[int, ...] = ()
    removals: tuple[Removal, ...] = ()
    awards: tuple[Award, ...] = ()
    #: the public rulings of this round's award phase, for the board to step through
    award_log: tuple[Ruling, ...] = ()
    #: seats that said they are ready for the reveal (phase "reveal")
    ready: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.setup.players)


# --- views -------------------------------------------------------------------------------------


class PlacementView(Model):
    index: int
    seat: int
    ordinal: int
    face_up: bool
    swiss: bool
    #: None while the card is hidden from this audience's public part (face down, not revealed)
    card: Card | None = None
    #: seats that used a Little Black Book on this card (public: the board shows the peek)
    peeked_by: tuple[int, ...] = ()
    assigned_to: int | None = None
    killed: bool = False
    removed: bool = False


class ContractView(Model):
    id: int
    name: str
    value: int
    body: Body
    dealt_round: int
    deferred: bool
    placements: tuple[PlacementView, ...]
    award: Award | None = None


class BodyView(Model):
    body: Body
    swiss: tuple[PlacementView, ...]
    contracts: tuple[ContractView, ...]


class Pending(Model):
    """The award-phase choice the game waits for (public: every card is revealed by then)."""

    kind: Literal["swiss", "hit", "report"]
    seat: int
    #: the acting card (Swiss bribe, hit man or reporter)
    placement: int
    #: the contract the acting card lies under (None for a Swiss bribe)
    contract: int | None
    #: contract ids (swiss) or placement indices (hit, report)
    options: tuple[int, ...]
    may_pass: bool = False


class KnownCard(Model):
    placement: int
    seat: int
    card: Card
    via: Literal["own", "peek"]


class SeatPrivate(Model):
    seat: int
    hand: tuple[Card, ...]
    known_cards: tuple[KnownCard, ...]


class LegalMoves(Model):
    deal: bool = False
    choose_face_up: bool = False
    cards: tuple[Card, ...] = ()
    #: where `cards` may go: any card under these contracts, bribes also on these Swiss accounts
    contracts: tuple[int, ...] = ()
    swiss: tuple[Body, ...] = ()
    #: whether the next card goes face up under a contract (Swiss cards are always face down)
    face_up: bool | None = None
    peek: tuple[int, ...] = ()
    swiss_contracts: tuple[int, ...] = ()
    hit_targets: tuple[int, ...] = ()
    report_targets: tuple[int, ...] = ()
    may_pass: bool = False
    #: the host board may reveal now (board_legal only)
    reveal: bool = False
    #: this seat may say it is ready (my_legal; on board_legal: some seat still may)
    ready: bool = False


class View(Model):
    game: Literal["corruption"] = "corruption"
    players: tuple[Player, ...]
    variant: Variant
    little_black_book: bool
    round: int
    rounds: int = ROUNDS
    phase: Phase
    order: tuple[int, ...]
    turn: int | None
    waiting_for: tuple[int, ...]
    face_up_slots: tuple[int, ...]
    bodies: tuple[BodyView, ...]
    cards_placed: tuple[int, ...]
    score: tuple[int, ...]
    contracts_won: tuple[tuple[Contract, ...], ...]
    characters_gone: tuple[tuple[Character, ...], ...]
    peeks_left: tuple[int, ...]
    revealed: bool
    stage: AwardStage | None
    pending: Pending | None
    award_log: tuple[Ruling, ...]
    winners: tuple[int, ...] = ()
    #: every card is placed and the round waits for the reveal (phase "reveal")
    awaiting_reveal: bool = False
    #: seats that said they are ready for the reveal
    ready: tuple[int, ...] = ()
    #: legal choices the board may enter (public actions only)
    board_legal: LegalMoves
    #: present only in a seat's own projection
    me: SeatPrivate | None = None
    my_legal: LegalMoves | None = None


# --- messages (English templates; catalogues translate them) -----------------------------------

MESSAGES: dict[str, str] = {
    # rulings: the round
    "corruption.contracts_dealt": "Round {round}: six new contracts are on the table. {seat:seat} leads.",
    "corruption.face_up_slots": "This round, each player's cards number {slots} go face up (never on a Swiss account).",
    "corruption.all_face_down": "This round every card goes face down.",
    "corruption.stud_waiting": "Free Stud: {seat:seat} chooses which cards go face up this round.",
    "corruption.played_bribe": "{seat:seat} plays a {amount:money} bribe under the {contract}.",
    "corruption.played_da": "{seat:seat} plays a district attorney under the {contract}.",
    "corruption.played_reporter": "{seat:seat} plays a reporter under the {contract}.",
    "corruption.played_hitman": "{seat:seat} plays a hit man under the {contract}.",
    "corruption.played_hidden": "{seat:seat} plays a card face down under the {contract}.",
    "corruption.played_swiss.city_hall": "{seat:seat} puts a card face down on the City Hall Swiss account.",
    "corruption.played_swiss.county_seat": "{seat:seat} puts a card face down on the County Seat Swiss account.",
    "corruption.played_swiss.capitol": "{seat:seat} puts a card face down on the Capitol Swiss account.",
    "corruption.peeked": "{seat:seat} uses a Little Black Book on {owner_seat:seat}'s face-down card under the {contract}.",
    # rulings: the award phase
    "corruption.revealed": "All cards are revealed. Now awarding the contracts.",
    "corruption.ready": "{seat:seat} is ready.",
    "corruption.host_revealed": "The host revealed the cards.",
    "corruption.all_ready": "Everyone is ready: the cards are revealed.",
    "corruption.swiss_assigned": "{seat:seat} sends a {face_amount:money} Swiss bribe to the {contract}: it counts half, {amount:money}.",
    "corruption.hit_da": "{seat:seat}'s hit man on the {contract} kills {target_seat:seat}'s district attorney.",
    "corruption.hit_reporter": "{seat:seat}'s hit man on the {contract} kills {target_seat:seat}'s reporter.",
    "corruption.hit_hitman": "{seat:seat}'s hit man on the {contract} kills {target_seat:seat}'s hit man.",
    "corruption.hitman_no_target": "{seat:seat}'s hit man on the {contract} has no target and is discarded.",
    "corruption.hitman_dead": "{seat:seat}'s hit man on the {contract} was killed before acting.",
    "corruption.cancelled": "The {contract} is cancelled by the district attorney of {seats:seats}; it is deferred to the next round.",
    "corruption.reported": "{seat:seat}'s reporter on the {contract} removes {target_seat:seat}'s {amount:money} bribe.",
    "corruption.report_declined": "{seat:seat}'s reporter on the {contract} removes nothing.",
    "corruption.reporter_nothing": "{seat:seat}'s reporter on the {contract} finds no bribe to remove.",
    "corruption.reporter_dead": "{seat:seat}'s reporter on the {contract} was killed.",
    "corruption.won": "{seat:seat} wins the {contract} ({value_amount:money}) with {amount:money} against {runner_up_amount:money}.",
    "corruption.tied": "The {contract} is tied at {amount:money} between {seats:seats}: nobody wins it, it is deferred.",
    "corruption.no_bribes": "Nobody bribed for the {contract}: it is deferred.",
    "corruption.next_leader": "{seat:seat} leads round {round} with {amount:money} in {count:plural:one=# contract|other=# contracts}.",
    "corruption.leader_tie_random": "{seats:seats} are tied for the lead; the draw picks {seat:seat}.",
    "corruption.leader_tie_clockwise": "{seats:seats} are tied for the lead; {seat:seat} is the first of them clockwise after {previous_seat:seat}.",
    "corruption.game_over": "The game is over. Winner: {seats:seats} with {amount:money}.",
    "corruption.final_tiebreak": "{seats:seats} were tied at {amount:money}; the most contracts ({count}) decides.",
    # errors
    "corruption.err.game_over": "The game is over.",
    "corruption.err.unknown_seat": "There is no player {seat}.",
    "corruption.err.already_ready": "You are already ready; the others are awaited.",
    "corruption.err.host_reveals": "Only the host board reveals the cards: tap Ready when you are ready.",
    "corruption.err.wrong_phase": "That is not possible now: the game is at {phase:label=corruption.phase}.",
    "corruption.err.not_your_turn": "It is {expected:seat}'s turn, not yours.",
    "corruption.err.deal_count": "Deal exactly six contracts, two under each government body.",
    "corruption.err.contract_name": "A contract needs a name of 1 to {max} characters.",
    "corruption.err.contract_value": "A contract is worth {min_amount:money} to {max_amount:money}, not {amount:money}.",
    "corruption.err.not_leader": "Only {expected:seat}, the leading player, chooses which cards go face up.",
    "corruption.err.bad_slots": "Face-up cards are chosen among card numbers 1 to 6, each at most once.",
    "corruption.err.six_cards_placed": "You have already placed your six cards this round.",
    "corruption.err.card_not_held": "You do not hold that card now.",
    "corruption.err.unknown_contract": "There is no contract {contract} on the table.",
    "corruption.err.character_on_swiss": "Only bribes go on a Swiss account: Switzerland has no district attorneys, reporters or hit men.",
    "corruption.err.must_be_face_up": "Your card number {ordinal} goes face up this round.",
    "corruption.err.must_be_face_down": "Your card number {ordinal} goes face down.",
    "corruption.err.no_black_book": "This game is played without the Little Black Book.",
    "corruption.err.no_peeks_left": "You have used both your Little Black Book cards.",
    "corruption.err.unknown_placement": "There is no card number {placement} on the table.",
    "corruption.err.peek_swiss": "A Little Black Book cannot look at a card on a Swiss account.",
    "corruption.err.peek_face_up": "That card is face up: everyone can see it.",
    "corruption.err.peek_own": "That card is yours: you know it already.",
    "corruption.err.peek_again": "You have already looked at that card.",
    "corruption.err.wrong_step": "That choice is not the one being resolved now; the game is waiting for {expected:seat}.",
    "corruption.err.not_your_choice": "It is {expected:seat}'s choice, not yours.",
    "corruption.err.swiss_wrong_body": "A Swiss bribe can only go to a contract of the same government body.",
    "corruption.err.bad_target": "A hit man kills a district attorney, reporter or other hit man under the same contract.",
    "corruption.err.target_immune": "With this house rule a hit man cannot kill its owner's own cards.",
    "corruption.err.bad_bribe": "A reporter removes one upright bribe under the same contract (never a Swiss bribe).",
    "corruption.err.must_remove": "With this house rule the reporter must remove a bribe.",
    # names
    "corruption.card.da": "District attorney",
    "corruption.card.reporter": "Reporter",
    "corruption.card.hitman": "Hit man",
    "corruption.card.bribe": "Bribe",
    "corruption.body.city_hall": "City Hall",
    "corruption.body.county_seat": "County Seat",
    "corruption.body.capitol": "Capitol",
    "corruption.swiss_account": "Swiss account",
    "corruption.variant.standard": "Standard",
    "corruption.variant.down_the_river": "Down the River",
    "corruption.variant.free_stud": "Free Stud",
    "corruption.variant.closed": "Closed",
    "corruption.little_black_book": "Little Black Book",
    "corruption.phase.deal": "deal",
    "corruption.phase.stud": "face-up choice",
    "corruption.phase.corruption": "bribes",
    "corruption.phase.reveal": "reveal",
    "corruption.phase.awards": "awards",
    "corruption.phase.round_over": "round over",
    "corruption.phase.over": "game over",
    "corruption.stage.swiss": "Swiss bribes",
    "corruption.stage.hit_men": "hit men",
    "corruption.stage.attorneys": "district attorneys",
    "corruption.stage.reporters": "reporters",
    "corruption.stage.awards": "awards",
    "corruption.outcome.won": "won",
    "corruption.outcome.tied": "tied, deferred",
    "corruption.outcome.no_bribes": "no bribes, deferred",
    "corruption.outcome.cancelled": "cancelled, deferred",
    "corruption.house.resolution_order": "Award order",
    "corruption.house.resolution_order.location": "left to right, location by location (French text)",
    "corruption.house.resolution_order.play": "in the order cards were played (English text)",
    "corruption.house.leader_tie": "Tie for leading player",
    "corruption.house.leader_tie.random": "drawn at random",
    "corruption.house.leader_tie.clockwise": "first clockwise after the previous leader",
    "corruption.house.own_cards_immune": "Hit men spare their owner's cards",
    "corruption.house.reporter_optional": "A reporter may remove nothing",
    # the setup choices: one label per HOUSE_RULES entry and per value (the setup form, and the rule card's house rules)
    "corruption.rule.variant": "Variant",
    "corruption.rule.variant.standard": "Standard: card 1; 1-2; 1-3; 1-4 face up",
    "corruption.rule.variant.down_the_river": "Down the River: card 3; 3-4; 2-4; 2-5 face up",
    "corruption.rule.variant.free_stud": "Free Stud: the leading player chooses each round",
    "corruption.rule.variant.closed": "Closed: no characters, every card face down",
    "corruption.rule.little_black_book": "Little Black Book (two peeks each)",
    "corruption.rule.little_black_book.False": "without",
    "corruption.rule.little_black_book.True": "with the Little Black Book",
    "corruption.rule.resolution_order": "Award order",
    "corruption.rule.resolution_order.location": "left to right, location by location (French text, recommended)",
    "corruption.rule.resolution_order.play": "in the order cards were played (English text)",
    "corruption.rule.leader_tie": "Tie for leading player",
    "corruption.rule.leader_tie.random": "drawn at random (recommended)",
    "corruption.rule.leader_tie.clockwise": "first clockwise after the previous leader",
    "corruption.rule.own_cards_immune": "Hit men and their owner's cards",
    "corruption.rule.own_cards_immune.False": "a hit man may kill its owner's cards (recommended)",
    "corruption.rule.own_cards_immune.True": "a hit man spares its owner's cards",
    "corruption.rule.reporter_optional": "Reporters",
    "corruption.rule.reporter_optional.True": "a reporter may remove nothing (recommended)",
    "corruption.rule.reporter_optional.False": "a reporter must remove a bribe if there is one",
}


# --- the engine --------------------------------------------------------------------------------


def scheduled_slots(variant: str, round_number: int) -> tuple[int, ...]:
    """Face-up card positions for a round (Free Stud is chosen at the table, not here)."""
    if variant == "standard":
        return tuple(range(1, round_number + 1))
    if variant == "down_the_river":
        return DOWN_THE_RIVER_SLOTS[round_number]
    return ()


def swiss_value(bribe: int) -> int:
    return bribe // 2


def score_of(won: tuple[Contract, ...]) -> int:
    return sum(c.value for c in won)


class Corruption:
    id: ClassVar[str] = "corruption"
    setup_model = Setup
    action_model = Action
    action_adapter = ACTION_ADAPTER
    state_model = State
    view_model = View
    messages = MESSAGES
    house_rules = HOUSE_RULES
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS

    def player_colours(self, players: int) -> tuple[Colour, ...] | None:
        return None  # (each player's pieces come in any of the app's colours)

    # -- setup --

    def initial_state(self, setup: Setup, seed: int) -> State:
        n = len(setup.players)
        first = setup.first_player
        if first is None:
            first = rng_for(seed, "first_player").randrange(n)
        return State(
            setup=setup,
            seed=seed,
            order=tuple((first + i) % n for i in range(n)),
            won=((),) * n,
            characters_gone=((),) * n,
        )

    # -- small queries --

    def contract(self, state: State, contract_id: int) -> Contract | None:
        return next((c for c in state.contracts if c.id == contract_id), None)

    def placement(self, state: State, index: int) -> Placement | None:
        return state.placements[index] if 0 <= index < len(state.placements) else None

    def placed(self, state: State, seat: int) -> int:
        return sum(1 for p in state.placements if p.seat == seat)

    def current_seat(self, state: State) -> int | None:
        if state.phase != "corruption":
            return None
        return state.order[len(state.placements) % state.players]

    def hand(self, state: State, seat: int) -> tuple[Card, ...]:
        """Cards the seat still holds this round: unplayed bribes and characters not yet used."""
        played = Counter(p.card for p in state.placements if p.seat == seat)
        held: Counter[Card] = Counter(BRIBES)
        if state.setup.variant != "closed":
            held.update(CHARACTERS)
            held.subtract(state.characters_gone[seat])
        held.subtract(played)
        return tuple(card for card in CARD_ORDER for _ in range(max(0, held[card])))

    def next_face_up(self, state: State, seat: int) -> bool:
        """Does the seat's next card go face up when placed under a contract?"""
        return self.placed(state, seat) + 1 in state.face_up_slots

    def next_leader(self, state: State, won: tuple[tuple[Contract, ...], ...]) -> tuple[int, list[Ruling]]:
        """Most contract value, then most contracts; a remaining tie per the house rule."""
        n = state.players
        key = [(score_of(won[s]), len(won[s])) for s in range(n)]
        best = max(key)
        tied = [s for s in range(n) if key[s] == best]
        rulings: list[Ruling] = []
        if len(tied) == 1:
            leader = tied[0]
        elif state.setup.leader_tie == "clockwise":
            previous = state.order[0]
            leader = next(s for s in ((previous + k) % n for k in range(1, n + 1)) if s in tied)
            rulings.append(
                Ruling(
                    code="corruption.leader_tie_clockwise",
                    params={"seats": tied, "seat": leader, "previous_seat": previous},
                )
            )
        else:
            leader = rng_for(state.seed, "leader", state.round + 1).choice(tied)
            rulings.append(Ruling(code="corruption.leader_tie_random", params={"seats": tied, "seat": leader}))
        return leader, rulings

    # -- waiting --

    def waiting_for(self, state: State) -> tuple[int, ...]:
        if state.phase in ("deal", "round_over"):
            return tuple(state.order)  # whoever deals enters the contracts
        if state.phase == "stud":
            return (state.order[0],)
        if state.phase == "corruption":
            seat = self.current_seat(state)
            return (seat,) if seat is not None else ()
        if state.phase == "awards":
            pending = self.pending(state)
            return (pending.seat,) if pending else ()
        if state.phase == "reveal":
            return tuple(s for s in state.order if s not in state.ready)
        return ()

    def awaiting_reveal(self, state: State) -> bool:
        return state.phase == "reveal"

    # -- apply --

    def apply(self, state: State, action: Action) -> Outcome[State]:
        if state.phase == "over":
            raise RuleError("corruption.err.game_over")
        if action.by is not None and not 0 <= action.by < state.players:
            raise RuleError("corruption.err.unknown_seat", seat=action.by)
        if isinstance(action, (Reveal, Ready)):
            return reveal_request(state, action, "corruption", self.reveal)
        if isinstance(action, DealContracts):
            return self._deal(state, action)
        if isinstance(action, ChooseFaceUp):
            return self._choose_face_up(state, action)
        if isinstance(action, PlayCard):
            return self._play(state, action)
        if isinstance(action, PeekCard):
            return self._peek(state, action)
        return self._award_choice(state, action)

    def _deal(self, state: State, action: DealContracts) -> Outcome[State]:
        if state.phase not in ("deal", "round_over"):
            raise RuleError("corruption.err.wrong_phase", phase=state.phase)
        per_body = Counter(c.body for c in action.contracts)
        if len(action.contracts) != NEW_CONTRACTS_PER_BODY * len(BODIES) or any(
            per_body[b] != NEW_CONTRACTS_PER_BODY for b in BODIES
        ):
            raise RuleError("corruption.err.deal_count")
        for dealt_contract in action.contracts:
            if not 1 <= len(dealt_contract.name.strip()) <= CONTRACT_NAME_MAX:
                raise RuleError("corruption.err.contract_name", max=CONTRACT_NAME_MAX)
            if not CONTRACT_MIN_VALUE <= dealt_contract.value <= CONTRACT_MAX_VALUE:
                raise RuleError(
                    "corruption.err.contract_value",
                    amount=dealt_contract.value,
                    min_amount=CONTRACT_MIN_VALUE,
                    max_amount=CONTRACT_MAX_VALUE,
                )
        round_number = state.round if state.phase == "deal" else state.round + 1
        won_ids = {c.id for seat_won in state.won for c in seat_won}
        staying = [c for c in state.contracts if c.id not in won_ids]
        # New contracts go to the right of the deferred ones in their column.
        dealt = sorted(action.contracts, key=lambda c: BODIES.index(c.body))
        new_contracts = [
            Contract(id=state.next_contract_id + i, body=c.body, name=c.name.strip(), value=c.value, dealt_round=round_number)
            for i, c in enumerate(dealt)
        ]
        contracts = sorted(staying + new_contracts, key=lambda c: (BODIES.index(c.body), c.id))
        free_stud = state.setup.variant == "free_stud"
        slots = () if free_stud else scheduled_slots(state.setup.variant, round_number)
        new = state.model_copy(
            update={
                "round": round_number,
                "phase": "stud" if free_stud else "corruption",
                "face_up_slots": slots,
                "contracts": tuple(contracts),
                "next_contract_id": state.next_contract_id + len(new_contracts),
                "placements": (),
                "stage": "swiss",
                "swiss_choices": (),
                "hits": (),
                "cancelled": (),
                "removals": (),
                "awards": (),
                "award_log": (),
            }
        )
        rulings = [Ruling(code="corruption.contracts_dealt", params={"round": round_number, "seat": new.order[0]})]
        if free_stud:
            rulings.append(Ruling(code="corruption.stud_waiting", params={"seat": new.order[0]}))
        else:
            rulings.append(self._slots_ruling(slots))
        return Outcome(state=new, rulings=tuple(rulings))

    def _slots_ruling(self, slots: tuple[int, ...]) -> Ruling:
        if not slots:
            return Ruling(code="corruption.all_face_down")
        return Ruling(code="corruption.face_up_slots", params={"slots": ", ".join(map(str, slots))})

    def _choose_face_up(self, state: State, action: ChooseFaceUp) -> Outcome[State]:
        if state.phase != "stud":
            raise RuleError("corruption.err.wrong_phase", phase=state.phase)
        if action.by != state.order[0]:
            raise RuleError("corruption.err.not_leader", expected=state.order[0])
        if len(set(action.slots)) != len(action.slots) or any(not 1 <= s <= CARDS_PER_ROUND for s in action.slots):
            raise RuleError("corruption.err.bad_slots")
        slots = tuple(sorted(action.slots))
        new = state.model_copy(update={"phase": "corruption", "face_up_slots": slots})
        return Outcome(state=new, rulings=(self._slots_ruling(slots),))

    def _play(self, state: State, action: PlayCard) -> Outcome[State]:
        seat = action.by
        if state.phase in ("corruption", "awards") and self.placed(state, seat) >= CARDS_PER_ROUND:
            raise RuleError("corruption.err.six_cards_placed")
        if state.phase != "corruption":
            raise RuleError("corruption.err.wrong_phase", phase=state.phase)
        expected = self.current_seat(state)
        if seat != expected:
            raise RuleError("corruption.err.not_your_turn", expected=expected)
        if action.card not in self.hand(state, seat):
            raise RuleError("corruption.err.card_not_held")
        contract = None
        if isinstance(action.location, str):
            if isinstance(action.card, str):
                raise RuleError("corruption.err.character_on_swiss")
        else:
            contract = self.contract(state, action.location)
            if contract is None:
                raise RuleError("corruption.err.unknown_contract", contract=action.location)
        ordinal = self.placed(state, seat) + 1
        # Bank secrecy: a Swiss card is face down even in a face-up slot (it still uses the slot).
        face_up = contract is not None and ordinal in state.face_up_slots
        if action.face_up != face_up:
            code = "corruption.err.must_be_face_up" if face_up else "corruption.err.must_be_face_down"
            raise RuleError(code, ordinal=ordinal)
        placement = Placement(
            index=len(state.placements),
            seat=seat,
            ordinal=ordinal,
            card=action.card,
            location=action.location,
            face_up=face_up,
        )
        rulings = [self._play_ruling(placement, contract)]
        new = state.model_copy(update={"placements": state.placements + (placement,)})
        if len(new.placements) < CARDS_PER_ROUND * state.players:
            return Outcome(state=new, rulings=tuple(rulings))
        # Everyone has placed six cards: the round waits for the host's reveal or everyone's ready.
        return Outcome(state=new.model_copy(update={"phase": "reveal", "ready": ()}), rulings=tuple(rulings))

    def reveal(self, state: State) -> Outcome[State]:
        """All cards are revealed and the award phase starts."""
        new = state.model_copy(update={"phase": "awards", "stage": "swiss", "ready": ()})
        new, more = self._advance_awards(new, [Ruling(code="corruption.revealed")])
        return Outcome(state=new, rulings=tuple(more), reveals=True)

    def _play_ruling(self, placement: Placement, contract: Contract | None) -> Ruling:
        """Public: a face-down card's ruling names where it went, never what it is."""
        if contract is None:
            return Ruling(code=f"corruption.played_swiss.{placement.location}", params={"seat": placement.seat})
        params: dict[str, Any] = {"seat": placement.seat, "contract": contract.name, "contract_id": contract.id}
        if not placement.face_up:
            return Ruling(code="corruption.played_hidden", params=params)
        if isinstance(placement.card, int):
            return Ruling(code="corruption.played_bribe", params={**params, "amount": placement.card})
        return Ruling(code=f"corruption.played_{placement.card}", params=params)

    def peeks_left(self, state: State, seat: int) -> int:
        if not state.setup.little_black_book:
            return 0
        return PEEKS_PER_PLAYER - sum(1 for p in state.peeks if p.seat == seat)

    def peek_targets(self, state: State, seat: int) -> tuple[int, ...]:
        if state.phase != "corruption" or self.peeks_left(state, seat) <= 0:
            return ()
        seen = {p.placement for p in state.peeks if p.seat == seat and p.round == state.round}
        return tuple(
            p.index
            for p in state.placements
            if not p.swiss and not p.face_up and p.seat != seat and p.index not in seen
        )

    def _peek(self, state: State, action: PeekCard) -> Outcome[State]:
        seat = action.by
        if not state.setup.little_black_book:
            raise RuleError("corruption.err.no_black_book")
        if state.phase != "corruption":
            raise RuleError("corruption.err.wrong_phase", phase=state.phase)
        if self.peeks_left(state, seat) <= 0:
            raise RuleError("corruption.err.no_peeks_left")
        target = self.placement(state, action.placement)
        if target is None:
            raise RuleError("corruption.err.unknown_placement", placement=action.placement)
        if target.swiss:
            raise RuleError("corruption.err.peek_swiss")
        if target.face_up:
            raise RuleError("corruption.err.peek_face_up")
        if target.seat == seat:
            raise RuleError("corruption.err.peek_own")
        if action.placement not in self.peek_targets(state, seat):
            raise RuleError("corruption.err.peek_again")
        contract = self.contract(state, target.location)  # type: ignore[arg-type]
        assert contract is not None
        record = PeekRecord(seat=seat, round=state.round, placement=target.index)
        new = state.model_copy(update={"peeks": state.peeks + (record,)})
        ruling = Ruling(
            code="corruption.peeked",
            params={"seat": seat, "owner_seat": target.seat, "contract": contract.name, "placement": target.index},
        )
        return Outcome(state=new, rulings=(ruling,))

    # -- the award phase --

    def resolution_order(self, state: State, placements: list[Placement]) -> list[Placement]:
        """Location order (French text) or global play order (English text, house rule)."""
        if state.setup.resolution_order == "play":
            return sorted(placements, key=lambda p: p.index)

        def rank(p: Placement) -> tuple[int, int, int, int]:
            if isinstance(p.location, str):
                return (BODIES.index(p.location), 0, 0, p.index)
            contract = self.contract(state, p.location)
            assert contract is not None
            return (BODIES.index(contract.body), 1, contract.id, p.index)

        return sorted(placements, key=rank)

    def killed(self, state: State) -> set[int]:
        return {h.target for h in state.hits if h.target is not None}

    def removed(self, state: State) -> set[int]:
        return {r.bribe for r in state.removals if r.bribe is not None}

    def swiss_options(self, state: State, bribe: Placement) -> tuple[int, ...]:
        return tuple(c.id for c in state.contracts if c.body == bribe.location)

    def hit_options(self, state: State, hitman: Placement) -> tuple[int, ...]:
        dead = self.killed(state)
        return tuple(
            p.index
            for p in state.placements
            if p.location == hitman.location
            and isinstance(p.card, str)
            and p.index != hitman.index
            and p.index not in dead
            and not (state.setup.own_cards_immune and p.seat == hitman.seat)
        )

    def report_options(self, state: State, reporter: Placement) -> tuple[int, ...]:
        gone = self.removed(state)
        return tuple(
            p.index
            for p in state.placements
            if p.location == reporter.location and isinstance(p.card, int) and p.index not in gone
        )

    def pending(self, state: State) -> Pending | None:
        """The choice the award phase waits for (None outside it). `_advance_awards` has already
        resolved everything automatic before it, so the first unresolved card is a real choice."""
        if state.phase != "awards":
            return None
        if state.stage == "swiss":
            done = {s.placement for s in state.swiss_choices}
            for p in self.resolution_order(state, [p for p in state.placements if p.swiss]):
                if p.index not in done:
                    return Pending(kind="swiss", seat=p.seat, placement=p.index, contract=None, options=self.swiss_options(state, p))
        if state.stage == "hit_men":
            done = {h.hitman for h in state.hits}
            for p in self.resolution_order(state, [p for p in state.placements if p.card == "hitman"]):
                if p.index not in done:
                    return Pending(kind="hit", seat=p.seat, placement=p.index, contract=p.location, options=self.hit_options(state, p))  # type: ignore[arg-type]
        if state.stage == "reporters":
            done = {r.reporter for r in state.removals}
            for p in self.resolution_order(state, [p for p in state.placements if p.card == "reporter"]):
                if p.index not in done:
                    return Pending(
                        kind="report",
                        seat=p.seat,
                        placement=p.index,
                        contract=p.location,  # type: ignore[arg-type]
                        options=self.report_options(state, p),
                        may_pass=state.setup.reporter_optional,
                    )
        return None

    def _award_choice(self, state: State, action: AssignSwiss | HitTarget | ReportBribe) -> Outcome[State]:
        if state.phase != "awards":
            raise RuleError("corruption.err.wrong_phase", phase=state.phase)
        pending = self.pending(state)
        assert pending is not None  # the award phase always rests on a choice
        expected_kind = AWARD_KINDS[type(action)]
        if pending.kind != expected_kind:
            raise RuleError("corruption.err.wrong_step", expected=pending.seat)
        if action.by != pending.seat:
            raise RuleError("corruption.err.not_your_choice", expected=pending.seat)
        actor = state.placements[pending.placement]
        if isinstance(action, AssignSwiss):
            contract = self.contract(state, action.contract)
            if contract is None:
                raise RuleError("corruption.err.unknown_contract", contract=action.contract)
            if action.contract not in pending.options:
                raise RuleError("corruption.err.swiss_wrong_body")
            assert isinstance(actor.card, int)
            new = state.model_copy(
                update={"swiss_choices": state.swiss_choices + (SwissChoice(placement=actor.index, contract=contract.id),)}
            )
            ruling = Ruling(
                code="corruption.swiss_assigned",
                params={
                    "seat": actor.seat,
                    "face_amount": actor.card,
                    "amount": swiss_value(actor.card),
                    "contract": contract.name,
                    "contract_id": contract.id,
                },
            )
        elif isinstance(action, HitTarget):
            if action.target not in pending.options:
                target = self.placement(state, action.target)
                if (
                    state.setup.own_cards_immune
                    and target is not None
                    and target.seat == actor.seat
                    and target.location == actor.location
                    and isinstance(target.card, str)
                    and target.index != actor.index
                ):
                    raise RuleError("corruption.err.target_immune")
                raise RuleError("corruption.err.bad_target")
            victim = state.placements[action.target]
            new = state.model_copy(update={"hits": state.hits + (HitRecord(hitman=actor.index, target=victim.index),)})
            ruling = Ruling(
                code=f"corruption.hit_{victim.card}",
                params={"seat": actor.seat, "target_seat": victim.seat, "contract": self._name(state, actor), "placement": victim.index},
            )
        else:
            if action.bribe is None:
                if not pending.may_pass:
                    raise RuleError("corruption.err.must_remove")
                new = state.model_copy(update={"removals": state.removals + (Removal(reporter=actor.index, bribe=None),)})
                ruling = Ruling(code="corruption.report_declined", params={"seat": actor.seat, "contract": self._name(state, actor)})
            else:
                if action.bribe not in pending.options:
                    raise RuleError("corruption.err.bad_bribe")
                bribe = state.placements[action.bribe]
                new = state.model_copy(
                    update={"removals": state.removals + (Removal(reporter=actor.index, bribe=bribe.index),)}
                )
                ruling = Ruling(
                    code="corruption.reported",
                    params={
                        "seat": actor.seat,
                        "target_seat": bribe.seat,
                        "amount": bribe.card,
                        "contract": self._name(state, actor),
                        "placement": bribe.index,
                    },
                )
        new = new.model_copy(update={"award_log": new.award_log + (ruling,)})
        new, more = self._advance_awards(new, [])
        return Outcome(state=new, rulings=(ruling, *more))

    def _name(self, state: State, placement: Placement) -> str:
        contract = self.contract(state, placement.location)  # type: ignore[arg-type]
        assert contract is not None
        return contract.name

    def _advance_awards(self, state: State, rulings: list[Ruling]) -> tuple[State, list[Ruling]]:
        """Resolve every automatic step until a player must choose or the round is over."""
        log = list(rulings)
        while True:
            if state.stage == "swiss":
                if self.pending(state) is not None:
                    break
                state = state.model_copy(update={"stage": "hit_men"})
            elif state.stage == "hit_men":
                pending = self.pending(state)
                if pending is None:
                    state = state.model_copy(update={"stage": "attorneys"})
                    continue
                hitman = state.placements[pending.placement]
                dead = hitman.index in self.killed(state)
                if not dead and pending.options:
                    break
                # A dead hit man never acts; one without a target is simply discarded.
                code = "corruption.hitman_dead" if dead else "corruption.hitman_no_target"
                log.append(Ruling(code=code, params={"seat": hitman.seat, "contract": self._name(state, hitman)}))
                state = state.model_copy(update={"hits": state.hits + (HitRecord(hitman=hitman.index, target=None),)})
            elif state.stage == "attorneys":
                killed = self.killed(state)
                cancelled: list[int] = []
                for contract in state.contracts:
                    owners = [
                        p.seat
                        for p in state.placements
                        if p.location == contract.id and p.card == "da" and p.index not in killed
                    ]
                    if owners:
                        cancelled.append(contract.id)
                        log.append(
                            Ruling(
                                code="corruption.cancelled",
                                params={"seats": sorted(set(owners)), "contract": contract.name, "contract_id": contract.id},
                            )
                        )
                state = state.model_copy(update={"cancelled": tuple(cancelled), "stage": "reporters"})
            elif state.stage == "reporters":
                pending = self.pending(state)
                if pending is None:
                    state = state.model_copy(update={"stage": "awards"})
                    continue
                reporter = state.placements[pending.placement]
                dead = reporter.index in self.killed(state)
                on_cancelled = reporter.location in state.cancelled
                if not dead and not on_cancelled and pending.options:
                    break
                if dead:
                    log.append(Ruling(code="corruption.reporter_dead", params={"seat": reporter.seat, "contract": self._name(state, reporter)}))
                elif not on_cancelled:
                    log.append(Ruling(code="corruption.reporter_nothing", params={"seat": reporter.seat, "contract": self._name(state, reporter)}))
                state = state.model_copy(update={"removals": state.removals + (Removal(reporter=reporter.index, bribe=None),)})
            else:
                state, more = self._finish_round(state)
                log.extend(more)
                break
        return state.model_copy(update={"award_log": state.award_log + tuple(log)}), log

    def totals(self, state: State, contract: Contract) -> tuple[int, ...]:
        """Per seat: upright bribes not removed by a reporter, plus Swiss bribes at half value."""
        totals = [0] * state.players
        gone = self.removed(state)
        for p in state.placements:
            if p.location == contract.id and isinstance(p.card, int) and p.index not in gone:
                totals[p.seat] += p.card
        for choice in state.swiss_choices:
            if choice.contract == contract.id:
                bribe = state.placements[choice.placement]
                assert isinstance(bribe.card, int)
                totals[bribe.seat] += swiss_value(bribe.card)
        return tuple(totals)

    def _finish_round(self, state: State) -> tuple[State, list[Ruling]]:
        rulings: list[Ruling] = []
        awards: list[Award] = []
        won = [list(w) for w in state.won]
        for contract in state.contracts:
            if contract.id in state.cancelled:
                awards.append(Award(contract=contract.id, outcome="cancelled", totals=(0,) * state.players))
                continue
            totals = self.totals(state, contract)
            best = max(totals)
            leaders = [s for s in range(state.players) if totals[s] == best]
            params: dict[str, Any] = {"contract": contract.name, "contract_id": contract.id}
            if best == 0:
                awards.append(Award(contract=contract.id, outcome="no_bribes", totals=totals))
                rulings.append(Ruling(code="corruption.no_bribes", params=params))
            elif len(leaders) > 1:
                awards.append(Award(contract=contract.id, outcome="tied", totals=totals))
                rulings.append(Ruling(code="corruption.tied", params={**params, "seats": leaders, "amount": best}))
            else:
                winner = leaders[0]
                runner_up = max([t for s, t in enumerate(totals) if s != winner], default=0)
                awards.append(Award(contract=contract.id, outcome="won", totals=totals, winner=winner))
                won[winner].append(contract)
                rulings.append(
                    Ruling(
                        code="corruption.won",
                        params={
                            **params,
                            "seat": winner,
                            "amount": best,
                            "value_amount": contract.value,
                            "runner_up_amount": runner_up,
                        },
                    )
                )
        won_t = tuple(tuple(w) for w in won)
        # Characters played this round leave the game, whether or not they acted.
        gone = [list(g) for g in state.characters_gone]
        for p in state.placements:
            if isinstance(p.card, str):
                gone[p.seat].append(p.card)
        update: dict[str, Any] = {
            "awards": tuple(awards),
            "won": won_t,
            "characters_gone": tuple(tuple(g) for g in gone),
        }
        if state.round == ROUNDS:
            winners, tiebreak = self.winners(won_t)
            best_score = score_of(won_t[winners[0]])
            if tiebreak:
                rulings.append(
                    Ruling(
                        code="corruption.final_tiebreak",
                        params={"seats": tiebreak, "amount": best_score, "count": len(won_t[winners[0]])},
                    )
                )
            rulings.append(Ruling(code="corruption.game_over", params={"seats": winners, "amount": best_score}))
            return state.model_copy(update={**update, "phase": "over"}), rulings
        leader, tie_rulings = self.next_leader(state, won_t)
        n = state.players
        update["order"] = tuple((leader + i) % n for i in range(n))
        rulings.extend(tie_rulings)
        rulings.append(
            Ruling(
                code="corruption.next_leader",
                params={"seat": leader, "round": state.round + 1, "amount": score_of(won_t[leader]), "count": len(won_t[leader])},
            )
        )
        return state.model_copy(update={**update, "phase": "round_over"}), rulings

    def winners(self, won: tuple[tuple[Contract, ...], ...]) -> tuple[list[int], list[int]]:
        """Highest value; a tie goes to the most contracts, then is shared (docs/rules/corruption.md#end).

        Returns the winners and, when the contract count decided, the players tied on value."""
        best = max(score_of(w) for w in won)
        tied = [s for s, w in enumerate(won) if score_of(w) == best]
        most = max(len(won[s]) for s in tied)
        winners = [s for s in tied if len(won[s]) == most]
        return winners, (tied if len(winners) < len(tied) else [])

    # -- projection: the one place deciding what each audience sees --

    def revealed(self, state: State) -> bool:
        return state.phase in ("awards", "round_over", "over")

    def _placement_views(self, state: State) -> dict[int, PlacementView]:
        """Every card on the table as the public sees it (the card only once face up or revealed)."""
        revealed = self.revealed(state)
        assigned = {c.placement: c.contract for c in state.swiss_choices}
        killed, removed = self.killed(state), self.removed(state)
        peeked: dict[int, list[int]] = {}
        for k in state.peeks:
            if k.round == state.round:
                peeked.setdefault(k.placement, []).append(k.seat)
        return {
            p.index: PlacementView(
                index=p.index,
                seat=p.seat,
                ordinal=p.ordinal,
                face_up=p.face_up,
                swiss=p.swiss,
                card=p.card if (p.face_up or revealed) else None,
                peeked_by=tuple(peeked.get(p.index, ())),
                assigned_to=assigned.get(p.index),
                killed=p.index in killed,
                removed=p.index in removed,
            )
            for p in state.placements
        }

    def legal(self, state: State, seat: int) -> LegalMoves:
        """What this seat may do now, from its own point of view (includes its hand)."""
        if state.phase in ("deal", "round_over"):
            return LegalMoves(deal=True)
        if state.phase == "stud":
            return LegalMoves(choose_face_up=seat == state.order[0])
        if state.phase == "reveal":
            return LegalMoves(ready=seat not in state.ready)
        if state.phase == "corruption":
            peek = self.peek_targets(state, seat)
            if self.current_seat(state) != seat:
                return LegalMoves(peek=peek)
            hand = tuple(dict.fromkeys(self.hand(state, seat)))
            return LegalMoves(
                cards=hand,
                contracts=tuple(c.id for c in state.contracts),
                swiss=BODIES if any(isinstance(c, int) for c in hand) else (),
                face_up=self.next_face_up(state, seat),
                peek=peek,
            )
        return self._award_legal(state, seat)

    def _award_legal(self, state: State, seat: int) -> LegalMoves:
        pending = self.pending(state)
        if pending is None or pending.seat != seat:
            return LegalMoves()
        if pending.kind == "swiss":
            return LegalMoves(swiss_contracts=pending.options)
        if pending.kind == "hit":
            return LegalMoves(hit_targets=pending.options)
        return LegalMoves(report_targets=pending.options, may_pass=pending.may_pass)

    def board_legal(self, state: State) -> LegalMoves:
        """Public actions the board may enter. For a face-up card the board cannot know the
        hand (face-down cards are secret), so it offers every card not publicly gone."""
        if state.phase in ("deal", "round_over"):
            return LegalMoves(deal=True)
        if state.phase == "stud":
            return LegalMoves(choose_face_up=True)
        if state.phase == "reveal":
            return LegalMoves(reveal=True, ready=len(state.ready) < state.players)
        if state.phase == "corruption":
            seat = self.current_seat(state)
            assert seat is not None
            if not self.next_face_up(state, seat):
                return LegalMoves(face_up=False)
            shown = Counter(p.card for p in state.placements if p.seat == seat and p.face_up)
            possible: Counter[Card] = Counter(BRIBES)
            if state.setup.variant != "closed":
                possible.update(CHARACTERS)
                possible.subtract(state.characters_gone[seat])
            possible.subtract(shown)
            return LegalMoves(
                cards=tuple(c for c in CARD_ORDER if possible[c] > 0),
                contracts=tuple(c.id for c in state.contracts),
                face_up=True,
            )
        pending = self.pending(state)
        return self._award_legal(state, pending.seat) if pending else LegalMoves()

    def project(self, state: State, audience: Audience) -> View:
        revealed = self.revealed(state)
        cards = self._placement_views(state)
        bodies = []
        awards = {a.contract: a for a in state.awards}
        for body in BODIES:
            swiss = tuple(cards[p.index] for p in state.placements if p.location == body)
            contracts = tuple(
                ContractView(
                    id=c.id,
                    name=c.name,
                    value=c.value,
                    body=c.body,
                    dealt_round=c.dealt_round,
                    deferred=c.dealt_round < state.round,
                    placements=tuple(cards[p.index] for p in state.placements if p.location == c.id),
                    award=awards.get(c.id),
                )
                for c in state.contracts
                if c.body == body
            )
            bodies.append(BodyView(body=body, swiss=swiss, contracts=contracts))
        n = state.players
        view = View(
            players=state.setup.players,
            variant=state.setup.variant,
            little_black_book=state.setup.little_black_book,
            round=state.round,
            phase=state.phase,
            order=state.order,
            turn=self.current_seat(state),
            waiting_for=self.waiting_for(state),
            face_up_slots=state.face_up_slots,
            bodies=tuple(bodies),
            cards_placed=tuple(self.placed(state, s) for s in range(n)),
            score=tuple(score_of(w) for w in state.won),
            contracts_won=state.won,
            characters_gone=state.characters_gone,
            peeks_left=tuple(self.peeks_left(state, s) for s in range(n)),
            revealed=revealed,
            stage=state.stage if state.phase == "awards" else None,
            pending=self.pending(state),
            award_log=state.award_log,
            winners=tuple(self.winners(state.won)[0]) if state.phase == "over" else (),
            awaiting_reveal=state.phase == "reveal",
            ready=state.ready,
            board_legal=self.board_legal(state),
        )
        if audience.kind == "seat" and audience.seat is not None:
            return self.seat_view(state, audience.seat, view)
        return view

    def seat_view(self, state: State, seat: int, board: View) -> View:
        """`seat`'s view drawn from the board's (`board`, `project(state, BOARD)`): its own
        part added. The room draws every phone's view from its one board view this way."""
        known = [KnownCard(placement=p.index, seat=seat, card=p.card, via="own") for p in state.placements if p.seat == seat]
        for peek in state.peeks:
            if peek.seat == seat and peek.round == state.round and state.phase != "round_over":
                target = state.placements[peek.placement]
                known.append(KnownCard(placement=target.index, seat=target.seat, card=target.card, via="peek"))
        me = SeatPrivate(seat=seat, hand=self.hand(state, seat), known_cards=tuple(known))
        return board.model_copy(update={"me": me, "my_legal": self.legal(state, seat)})

    # -- room hooks --

    def is_public(self, action: Action) -> bool:
        if isinstance(action, PlayCard):
            return action.face_up
        # A peek's target is public (the board shows it); what it shows is the peeker's alone,
        # so only the peeker's phone (or pass-and-play) may send it.
        return not isinstance(action, PeekCard)

    def host_only(self, action: Action) -> str | None:
        return "corruption.err.host_reveals" if isinstance(action, Reveal) else None

    def redact(self, action: Action) -> dict[str, Any]:
        data = action.model_dump()
        if isinstance(action, PlayCard) and not action.face_up:
            data.pop("card")
        return data

    def result(self, state: State) -> dict[str, Any] | None:
        if state.phase != "over":
            return None
        return {
            "score": [score_of(w) for w in state.won],
            "contracts": [len(w) for w in state.won],
            "winners": self.winners(state.won)[0],
        }

    def standings(self, state: State) -> tuple[Standing, ...] | None:
        """Highest value of won contracts, then more contracts, then shared (docs/rules/corruption.md#end);
        how: every contract won, with its round and value."""
        result = self.result(state)
        if result is None:
            return None
        details = [
            [Detail(code="standing.corruption.contracts", params={"n": len(won)})]
            + [Detail(code="standing.corruption.contract", params={"name": c.name, "round": c.dealt_round, "amount": c.value}) for c in won]
            for won in state.won
        ]
        keys = [(score_of(won), len(won)) for won in state.won]
        return ranked(keys, result["score"], result["winners"], "score", details)

    def random_action(self, state: State, rng: random.Random) -> Action | None:
        if state.phase == "over":
            return None
        n = state.players
        if state.phase in ("deal", "round_over"):
            contracts = tuple(
                NewContract(body=body, name=f"Contract {state.next_contract_id + 2 * b + k}", value=rng.randint(1, 12) * 100_000)
                for b, body in enumerate(BODIES)
                for k in range(NEW_CONTRACTS_PER_BODY)
            )
            return DealContracts(by=rng.randrange(n), contracts=contracts)
        if state.phase == "reveal":
            return Ready(by=rng.choice(self.waiting_for(state)))
        if state.phase == "stud":
            slots = rng.sample(range(1, CARDS_PER_ROUND + 1), rng.randint(0, CARDS_PER_ROUND))
            return ChooseFaceUp(by=state.order[0], slots=tuple(sorted(slots)))
        if state.phase == "corruption":
            peeks = [(s, i) for s in range(n) for i in self.peek_targets(state, s)]
            if peeks and rng.random() < 0.15:
                peeker, index = rng.choice(peeks)
                return PeekCard(by=peeker, placement=index)
            seat = self.current_seat(state)
            assert seat is not None
            card = rng.choice(tuple(dict.fromkeys(self.hand(state, seat))))
            locations: list[Location] = [c.id for c in state.contracts]
            if isinstance(card, int):
                locations.extend(BODIES)
            location = rng.choice(locations)
            face_up = not isinstance(location, str) and self.next_face_up(state, seat)
            return PlayCard(by=seat, card=card, location=location, face_up=face_up)
        pending = self.pending(state)
        assert pending is not None
        if pending.kind == "swiss":
            return AssignSwiss(by=pending.seat, contract=rng.choice(pending.options))
        if pending.kind == "hit":
            return HitTarget(by=pending.seat, target=rng.choice(pending.options))
        choices: list[int | None] = list(pending.options)
        if pending.may_pass:
            choices.append(None)
        return ReportBribe(by=pending.seat, bribe=rng.choice(choices))


GAME = Corruption()


# --- contract catalogue (for the deal screen; never read by apply) -----------------------------

CATALOGUE_PATH = Path(__file__).resolve().parents[2] / "assets" / "corruption_contracts.json"


class CatalogueEntry(Model):
    name: str = Field(min_length=1, max_length=CONTRACT_NAME_MAX)
    name_fr: str | None = None
    name_ru: str | None = None
    #: None until someone types it from the physical card
    value: int | None = Field(default=None, ge=CONTRACT_MIN_VALUE, le=CONTRACT_MAX_VALUE)
    source: str = ""


class Catalogue(Model):
    note: str = ""
    value_range: tuple[int, int] = (CONTRACT_MIN_VALUE, CONTRACT_MAX_VALUE)
    contracts: tuple[CatalogueEntry, ...]


def load_catalogue(path: Path = CATALOGUE_PATH) -> Catalogue:
    return Catalogue.model_validate(json.loads(path.read_text(encoding="utf-8")))


def remember_contract(catalogue: Catalogue, name: str, value: int) -> Catalogue:
    """The catalogue with `name` at `value` (added if new): a value typed from a card once is
    offered next time. The caller saves it (the engine does no I/O)."""
    name = name.strip()
    entries = list(catalogue.contracts)
    for i, entry in enumerate(entries):
        if name.casefold() in (entry.name.casefold(), (entry.name_fr or "").casefold(), (entry.name_ru or "").casefold()):
            entries[i] = CatalogueEntry.model_validate({**entry.model_dump(), "value": value})
            break
    else:
        entries.append(CatalogueEntry(name=name, value=value, source="typed at the table"))
    return catalogue.model_copy(update={"contracts": tuple(entries)})
