"""Chicago Poker (Cathala & Faidutti, 2007): gangsters at businesses, poker shootouts.

Rules: docs/rules/chicago_poker.md (from a machine translation of the Russian rulebook).

The physical deck, hands and tile stack stay on the table: the app never knows what is drawn.
It counts hand sizes (every draw is an action), the deck and the tiles, and learns a card's
identity when the card is played (face up: a public action; face down: a secret action sent
from the owner's phone), picked as a reinforcement (secret until revealed) or turned from the
deck. Each of the 75 gangster cards exists once, so a card already on the table, in the
discard pile or otherwise known to be somewhere is refused: that catches entry mistakes.

Businesses are numbered 1..20 in the order their tiles are turned up (the tiles carry no
numbers). Within a business each player's cards form a column, numbered 1..5 from the first
card played.

Readings where the rulebook is silent (besides the Setup house rules):
* The hand limit: a draw (or a Bribe, which also brings a card in) is refused only when the
  actions left, each placing one gangster card where the player still has room, could not
  bring the hand back to 7. A player who may not draw may end the turn with actions left
  (the app cannot see whether their hand holds a playable card); otherwise a turn is exactly
  its actions.
* The discard pile is face up: a liquidated face-down card becomes public.
* Reinforcements change hand sizes only when the round is revealed (a pick is secret, and so
  is whether the player had a gangster card to send). A player who sends the top card of the
  deck draws no replacement. If nobody can send anything, a lot decides (from the seed).
* Bribe: the taken card joins the hand (known only to its owner's phone), the rest of the
  pile is shuffled into the deck, then the Bribe card is discarded.
* Marker supply is not tracked: the first marker at a business always triggers the shootout.

Module shape (same in every game): Setup, actions, State, views, MESSAGES, the engine class
with initial_state / apply / project / waiting_for / is_public / redact / result /
random_action, and GAME.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, TypeAdapter, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from companion.engine import Audience, Model, Outcome, RuleError, Ruling, reveal_request, rng_for
from companion.games.poker_hands import (
    RARITY_RANKING,
    RECOMMENDED_RANKING,
    Category,
    Hand,
    best_of,
    check_ranking,
    evaluate,
    strength,
)
from companion.players import Colour as PlayerColour
from companion.players import Player, check_players
from companion.standings import Detail, Standing, ranked

# --- constants (docs/rules/chicago_poker.md#components to #gangster-cards) -----------------------

BusinessType = Literal["speakeasy", "jazz_club", "brewery", "gambling_house"]
BUSINESS_TYPES: tuple[BusinessType, ...] = ("speakeasy", "jazz_club", "brewery", "gambling_house")
TILES_PER_TYPE = 5
TOTAL_TILES = TILES_PER_TYPE * len(BUSINESS_TYPES)
#: face of a player's n-th card at a business: U face up, D face down
PATTERNS: dict[str, str] = {
    "speakeasy": "DDUUU",
    "jazz_club": "UUUDD",
    "brewery": "UUUUU",
    "gambling_house": "UDUDU",
}
OPEN_BUSINESSES_BY_PLAYERS = {2: 2, 3: 2, 4: 3, 5: 4, 6: 4}

Colour = Literal["c1", "c2", "c3", "c4", "c5"]
#: The colour names are unknown (docs/rules/chicago_poker.md#components): generic ids, labelled in MESSAGES.
COLOURS: tuple[Colour, ...] = ("c1", "c2", "c3", "c4", "c5")
VALUES = range(1, 16)
GANGSTER_CARDS = len(VALUES) * len(COLOURS)

SpecialKind = Literal["liquidation", "police_raid", "limousine", "revolver", "bribe"]
SPECIAL_COPIES: dict[str, int] = {"liquidation": 1, "police_raid": 2, "limousine": 1, "revolver": 1, "bribe": 1}
SPECIAL_KINDS: tuple[SpecialKind, ...] = ("liquidation", "police_raid", "limousine", "revolver", "bribe")

BOSSES = ("al_capone", "frankie_yale", "hymie_weiss", "bugs_moran", "dion_obanion", "johnny_torrio")
Boss = Literal["al_capone", "frankie_yale", "hymie_weiss", "bugs_moran", "dion_obanion", "johnny_torrio"]

STARTING_HAND = 5
HAND_LIMIT = 7
ACTIONS_PER_TURN = 3
#: the first player's first turn has 1 action, the second player's first turn 2
FIRST_TURNS_ACTIONS = (1, 2)
REVOLVER_BONUS = 2
COLUMN_MAX = 5
LIMOUSINE_MAX = 4

#: (same type, four different types, any) needed to win; None: not a condition
VICTORY = {"full": (3, 4, 5), "short": (2, None, 3)}

Face = Literal["up", "down"]


# --- setup -------------------------------------------------------------------------------------


class Setup(Model):
    players: tuple[Player, ...]
    #: optional boss per player (no powers; shown on the board)
    bosses: tuple[Boss, ...] = ()
    #: seat index of the first player; None draws one at random (recorded through the seed)
    first_player: int | None = None
    #: variant (docs/rules/chicago_poker.md#winning): win with 2 of a type or any 3
    short_game: bool = False
    #: variant (docs/rules/chicago_poker.md#components): False removes the 6 special cards ("tactical" game)
    special_cards: bool = True
    #: hand order (docs/rules/chicago_poker.md#hand-order; the summary card's is unknown): "recommended",
    #: "rarity" (rarer is higher), or "custom" (`custom_ranking`, checked against the card)
    hand_ranking: Literal["recommended", "rarity", "custom"] = "recommended"
    #: the table's own order, highest first; used when hand_ranking is "custom"
    custom_ranking: tuple[Category, ...] = RECOMMENDED_RANKING
    #: docs/rules/chicago_poker.md#shootout-markers: a player filling a business that already has a marker also takes one ("marker",
    #: their 5 cards are then protected) or not ("none"); either way the first marker triggers
    later_markers: Literal["marker", "none"] = "marker"
    #: docs/rules/chicago_poker.md#shootouts: several of your shootouts at the start of your turn: you choose the order, or the
    #: one marked first goes first
    marker_order: Literal["choose", "placed_first"] = "choose"
    #: docs/rules/chicago_poker.md#reinforcements: a tied player who cannot send a gangster card turns up the top card of the deck
    #: ("deck_top"), or drops out of the tie ("out")
    empty_hand_reinforcement: Literal["deck_top", "out"] = "deck_top"
    #: docs/rules/chicago_poker.md#reinforcements: a special card sent as a reinforcement is not allowed but, if forced (the player
    #: confirms they hold no gangster card), worth 0 ("if_forced", the recommended reading); always
    #: refused ("forbidden"); or always allowed, worth 0 ("zero")
    special_reinforcement: Literal["if_forced", "forbidden", "zero"] = "if_forced"
    #: docs/rules/chicago_poker.md#special-cards: a 5th card brought by Limousine places a shootout marker ("marker") or not ("none")
    limousine_marker: Literal["marker", "none"] = "marker"

    @field_validator("players")
    @classmethod
    def _players(cls, players: tuple[Player, ...]) -> tuple[Player, ...]:
        return check_players(players, 2, 6)

    @field_validator("bosses")
    @classmethod
    def _bosses(cls, bosses: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        players = info.data.get("players", ())
        if bosses and len(bosses) != len(players):
            raise ValueError("choose one boss per player, or none")
        if len(set(bosses)) != len(bosses):
            raise ValueError("two players have the same boss")
        return bosses

    @field_validator("first_player")
    @classmethod
    def _first(cls, value: int | None, info: ValidationInfo) -> int | None:
        players = info.data.get("players", ())
        if value is not None and not 0 <= value < len(players):
            raise ValueError("the first player must be one of the players")
        return value

    @field_validator("custom_ranking")
    @classmethod
    def _ranking(cls, ranking: tuple[str, ...]) -> tuple[str, ...]:
        # a coded error, so the setup form can say which hand is missing or listed twice
        missing = [c for c in RECOMMENDED_RANKING if c not in ranking]
        if missing:
            raise PydanticCustomError("chicago_poker.err.ranking_missing", "a hand category is missing", {"hand": missing[0], "count": len(RECOMMENDED_RANKING)})
        twice = [c for c in RECOMMENDED_RANKING if ranking.count(c) > 1]
        if twice:
            raise PydanticCustomError("chicago_poker.err.ranking_twice", "a hand category is listed twice", {"hand": twice[0], "count": len(RECOMMENDED_RANKING)})
        return check_ranking(ranking)

    @property
    def ranking(self) -> tuple[Category, ...]:
        """The hand categories in force, highest first."""
        return {"recommended": RECOMMENDED_RANKING, "rarity": RARITY_RANKING}.get(self.hand_ranking, self.custom_ranking)


HOUSE_RULES: dict[str, tuple[Any, ...]] = {
    "short_game": (False, True),
    "special_cards": (True, False),
    # "custom": Setup.custom_ranking, edited in the setup form (views/games/chicago_poker/setup.py)
    "hand_ranking": ("recommended", "rarity", "custom"),
    "later_markers": ("marker", "none"),
    "marker_order": ("choose", "placed_first"),
    "empty_hand_reinforcement": ("deck_top", "out"),
    "special_reinforcement": ("if_forced", "forbidden", "zero"),
    "limousine_marker": ("marker", "none"),
}


# --- cards -------------------------------------------------------------------------------------


class Card(Model):
    value: int = Field(ge=1, le=15)
    colour: Colour

    def label(self) -> str:
        return f"{self.value}·{self.colour}"

    def pair(self) -> tuple[int, str]:
        return (self.value, self.colour)


def cards_label(cards: Sequence[Card]) -> str:
    return ", ".join(card.label() for card in cards) or "—"


ALL_CARDS: tuple[Card, ...] = tuple(Card(value=v, colour=c) for v in VALUES for c in COLOURS)


# --- actions -----------------------------------------------------------------------------------


class RevealTile(Model):
    """A business tile was turned up from the stack (anyone may enter it)."""

    type: Literal["reveal_tile"] = "reveal_tile"
    #: the seat that entered it, or None: the host board entered it for the table (log format 4)
    by: int | None = None
    kind: BusinessType


class Draw(Model):
    type: Literal["draw"] = "draw"
    by: int


class PlayFaceUp(Model):
    """A gangster card played face up. `card` may name a special card only to be refused."""

    type: Literal["play_face_up"] = "play_face_up"
    by: int
    business: int
    card: Card | SpecialKind


class PlayFaceDown(Model):
    """Secret: a gangster card played face down, entered on the owner's phone only."""

    type: Literal["play_face_down"] = "play_face_down"
    by: int
    business: int
    card: Card | SpecialKind


class Liquidation(Model):
    type: Literal["liquidation"] = "liquidation"
    by: int
    business: int
    target: int


class PoliceRaid(Model):
    type: Literal["police_raid"] = "police_raid"
    by: int
    business: int
    target: int


class Limousine(Model):
    """Move 1 to 4 of your cards (by column position, 1 = first played) in the order given."""

    type: Literal["limousine"] = "limousine"
    by: int
    source: int
    destination: int
    positions: tuple[int, ...]


class Revolver(Model):
    type: Literal["revolver"] = "revolver"
    by: int


class Bribe(Model):
    """Secret: which card was taken from the discard pile (at most one of card/special)."""

    type: Literal["bribe"] = "bribe"
    by: int
    card: Card | None = None
    special: SpecialKind | None = None


class EndTurn(Model):
    type: Literal["end_turn"] = "end_turn"
    by: int


class ChooseShootout(Model):
    """With several shootouts due, the marker owner names the business resolved next."""

    type: Literal["choose_shootout"] = "choose_shootout"
    by: int
    business: int


class Reinforce(Model):
    """Secret: a tied player's reinforcement. Neither card nor special: "I have no gangster
    card to send" (the top card of the deck is turned up instead, or the player drops out)."""

    type: Literal["reinforce"] = "reinforce"
    by: int
    card: Card | None = None
    special: SpecialKind | None = None
    #: the player confirms they hold no gangster card (a special card is then forced, house rule
    #: "if_forced"; the app cannot see hands)
    no_gangster: bool = False


class Reveal(Model):
    """The host board resolves the reveal the game waits for (a shootout, or a round of
    reinforcement picks): `host_only`."""

    type: Literal["reveal"] = "reveal"
    by: None = None


class Ready(Model):
    """A seat is ready for the reveal the game waits for; the last one reveals with this action."""

    type: Literal["ready"] = "ready"
    by: int


class RevealDeckCard(Model):
    """The top card of the deck, turned up as `seat`'s reinforcement (anyone may enter it)."""

    type: Literal["reveal_deck_card"] = "reveal_deck_card"
    #: the seat that entered it, or None: the host board entered it for the table (log format 4)
    by: int | None = None
    seat: int
    card: Card | SpecialKind


Action = Annotated[
    RevealTile
    | Draw
    | PlayFaceUp
    | PlayFaceDown
    | Liquidation
    | PoliceRaid
    | Limousine
    | Revolver
    | Bribe
    | EndTurn
    | ChooseShootout
    | Reinforce
    | RevealDeckCard
    | Reveal
    | Ready,
    Field(discriminator="type"),
]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)
SECRET_ACTIONS = (PlayFaceDown, Bribe, Reinforce)
SpecialAction = Liquidation | PoliceRaid | Limousine | Revolver | Bribe
SPECIAL_ACTIONS: dict[type[Model], SpecialKind] = {
    Liquidation: "liquidation",
    PoliceRaid: "police_raid",
    Limousine: "limousine",
    Revolver: "revolver",
    Bribe: "bribe",
}

# --- state -------------------------------------------------------------------------------------

#: "reveal": a shootout is due or every reinforcement pick is in; the game waits for the host's
#: `reveal` or everyone's `ready` (State.pending_reveal says which)
Phase = Literal["tiles", "choose_shootout", "reinforce", "deck_card", "reveal", "actions", "over"]
PendingReveal = Literal["shootout", "reinforcements"]


class Placed(Model):
    card: Card
    face_up: bool


class Business(Model):
    id: int
    kind: BusinessType
    #: one column per seat, in play order (position 1 first)
    columns: tuple[tuple[Placed, ...], ...]


class Marker(Model):
    seat: int
    business: int


class Tile(Model):
    """A business a player controls."""

    id: int
    kind: BusinessType


class Raid(Model):
    """What a Police Raid showed the raider: the target's face-down cards (position, card)."""

    raider: int
    business: int
    target: int
    cards: tuple[tuple[int, Card], ...]


class Bribed(Model):
    """A card a Bribe took from the discard pile: known (privately) to be in `seat`'s hand."""

    seat: int
    card: Card | None = None
    special: SpecialKind | None = None


PickSource = Literal["hand", "special", "deck", "none"]


class Pick(Model):
    """A reinforcement. Secret until the round is revealed."""

    seat: int
    #: hand: a gangster card from hand; special: a special card (worth 0); deck: the top card
    #: of the deck (card filled when turned up); none: nothing to send (drops out)
    source: PickSource
    card: Card | None = None
    special: SpecialKind | None = None

    def value(self) -> int:
        if self.source == "none":
            return -1
        return self.card.value if self.card is not None else 0


class ShootoutEntry(Model):
    seat: int
    cards: tuple[Card, ...]
    category: Category
    ranks: tuple[int, ...]


class ReinforcementRound(Model):
    picks: tuple[Pick, ...]


Decision = Literal["alone", "category", "tiebreak", "reinforcement", "lot"]


class Shootout(Model):
    """A shootout, public from the moment it starts (every card is turned face up)."""

    business: int
    kind: BusinessType
    #: the marker owner who resolved it
    called_by: int
    #: every player with cards there, best hand first
    entries: tuple[ShootoutEntry, ...]
    #: seats tied for the best hand (reinforcements decide between them)
    tied: tuple[int, ...] = ()
    rounds: tuple[ReinforcementRound, ...] = ()
    winner: int | None = None
    decided_by: Decision | None = None


class State(Model):
    setup: Setup
    seed: int
    phase: Phase = "tiles"
    #: seats clockwise from the first player
    order: tuple[int, ...]
    #: turns started so far (0: the opening tiles are being entered)
    turn: int = 0
    actions_left: int = 0
    hands: tuple[int, ...]
    deck: int
    discard: tuple[Card, ...] = ()
    discard_specials: tuple[SpecialKind, ...] = ()
    #: every tile turned up so far, in order: business id n is tiles[n - 1]
    tiles: tuple[BusinessType, ...] = ()
    #: tiles the table must enter now (opening businesses, or the replacement after a shootout)
    tiles_to_enter: int = 0
    businesses: tuple[Business, ...] = ()
    markers: tuple[Marker, ...] = ()
    controlled: tuple[tuple[Tile, ...], ...]
    raids: tuple[Raid, ...] = ()
    bribed: tuple[Bribed, ...] = ()
    #: the shootout being resolved (during reinforcements, and while a new tile is entered)
    shootout: Shootout | None = None
    #: the current reinforcement round: tied seats and their secret picks so far
    reinforcing: tuple[int, ...] = ()
    picks: tuple[Pick, ...] = ()
    shootouts: tuple[Shootout, ...] = ()
    winners: tuple[int, ...] = ()
    #: the ruling code that ended the game
    end_reason: str | None = None
    #: in phase "reveal": what the reveal resolves, and for a shootout, where
    pending_reveal: PendingReveal | None = None
    reveal_business: int | None = None
    #: seats that said they are ready for the reveal
    ready: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.setup.players)

    @property
    def current(self) -> int | None:
        """The seat whose turn it is (None before the first turn and once over)."""
        if self.turn == 0 or self.phase == "over":
            return None
        return self.order[(self.turn - 1) % self.players]

    def business(self, business_id: int) -> Business | None:
        return next((b for b in self.businesses if b.id == business_id), None)


# --- views -------------------------------------------------------------------------------------


class CardView(Model):
    face_up: bool
    #: None for a card the audience sees from the back
    card: Card | None = None


class ColumnView(Model):
    seat: int
    cards: tuple[CardView, ...]
    marker: bool
    #: face of this seat's next card here; None when the column is full
    next_face: Face | None


class BusinessView(Model):
    id: int
    kind: BusinessType
    pattern: str
    columns: tuple[ColumnView, ...]
    #: True while this business's shootout is being resolved (all its cards are face up)
    in_shootout: bool = False


class ReinforcementView(Model):
    business: int
    round: int
    seats: tuple[int, ...]
    #: who has sent their pick (never what)
    picked: tuple[int, ...]
    #: top cards of the deck turned up for this round (public)
    deck_cards: tuple[Pick, ...]


class HiddenCard(Model):
    business: int
    position: int
    card: Card


class SeatPrivate(Model):
    seat: int
    hand_size: int
    #: my own face-down cards on the table
    face_down: tuple[HiddenCard, ...]
    #: what my Police Raids showed me
    raids: tuple[Raid, ...]
    #: cards my Bribes took into my hand
    bribed: tuple[Bribed, ...]
    #: my reinforcement pick, before the reveal
    my_pick: Pick | None = None


class LegalMoves(Model):
    draw: bool = False
    end_turn: bool = False
    #: (business, face) where the seat's next gangster card may go
    play: tuple[tuple[int, Face], ...] = ()
    specials: tuple[SpecialKind, ...] = ()
    #: businesses whose shootout may be resolved next
    shootouts: tuple[int, ...] = ()
    reinforce: bool = False
    #: tile types that may come up now
    tiles: tuple[BusinessType, ...] = ()
    #: seats whose top-of-deck reinforcement must be entered
    deck_card_for: tuple[int, ...] = ()
    #: the host board may reveal now (board_legal only)
    reveal: bool = False
    #: this seat may say it is ready (my_legal; on board_legal: some seat still may)
    ready: bool = False


class View(Model):
    game: Literal["chicago_poker"] = "chicago_poker"
    players: tuple[Player, ...]
    bosses: tuple[Boss, ...]
    phase: Phase
    order: tuple[int, ...]
    turn: int
    current: int | None
    actions_left: int
    waiting_for: tuple[int, ...]
    hands: tuple[int, ...]
    hand_limit: int = HAND_LIMIT
    deck: int
    discard: tuple[Card, ...]
    discard_specials: tuple[SpecialKind, ...]
    tiles_left: int
    #: (type, tiles of it still in the stack)
    tiles_left_by_type: tuple[tuple[BusinessType, int], ...]
    tiles_to_enter: int
    businesses: tuple[BusinessView, ...]
    controlled: tuple[tuple[Tile, ...], ...]
    score: tuple[int, ...]
    shootout: Shootout | None
    reinforcement: ReinforcementView | None
    shootouts: tuple[Shootout, ...]
    winners: tuple[int, ...]
    end_reason: str | None
    hand_ranking: tuple[Category, ...]
    short_game: bool
    special_cards: bool
    #: house rules the pages need to phrase the reinforcement choices
    special_reinforcement: Literal["if_forced", "forbidden", "zero"] = "if_forced"
    empty_hand_reinforcement: Literal["deck_top", "out"] = "deck_top"
    #: a shootout or a reinforcement round waits for the reveal (phase "reveal")
    awaiting_reveal: bool = False
    pending_reveal: PendingReveal | None = None
    #: the business whose shootout waits for the reveal
    reveal_business: int | None = None
    #: seats that said they are ready for the reveal
    ready: tuple[int, ...] = ()
    #: public actions the board may enter now
    board_legal: LegalMoves
    #: present only in a seat's own projection
    me: SeatPrivate | None = None
    my_legal: LegalMoves | None = None


# --- messages (English templates; catalogues translate them) -----------------------------------

MESSAGES: dict[str, str] = {
    # rulings
    "chicago_poker.tile_revealed": "A {kind:label=chicago_poker.business} is open: business {business}.",
    "chicago_poker.enter_tile": "Turn up a new business tile and enter its type.",
    "chicago_poker.last_tile": "That was the last business tile: play goes on with the open businesses.",
    "chicago_poker.turn_started": "{seat:seat}'s turn: {actions:plural:one=# action|other=# actions}.",
    "chicago_poker.drew": "{seat:seat} recruits: draws a card ({hand:plural:one=# card|other=# cards} in hand).",
    "chicago_poker.deck_reshuffled": "The deck is empty: the discard pile ({count:plural:one=# card|other=# cards}) is shuffled into a new deck.",
    "chicago_poker.played_face_up": "{seat:seat} plays {card:cards=chicago_poker.ui.card} face up at business {business} (card {position}).",
    "chicago_poker.played_face_down": "{seat:seat} plays a card face down at business {business} (card {position}).",
    "chicago_poker.marker_placed": "{seat:seat} has 5 cards at business {business}: shootout marker, resolved at the start of {seat:seat}'s next turn.",
    "chicago_poker.marker_not_placed": "{seat:seat} has 5 cards at business {business}, which already has a marker: no new marker (house rule).",
    "chicago_poker.liquidation": "{seat:seat} plays Liquidation: {target:seat} discards their last card at business {business}, {card:cards=chicago_poker.ui.card}.",
    "chicago_poker.police_raid": "{seat:seat} plays Police Raid on {target:seat} at business {business} and looks at their {count:plural:one=# face-down card|other=# face-down cards}.",
    "chicago_poker.limousine": "{seat:seat} plays Limousine: {count:plural:one=# card moves|other=# cards move} from business {source} to business {destination}.",
    "chicago_poker.limousine_turned_up": "Turned face up at business {destination}: {cards:cards=chicago_poker.ui.card}.",
    "chicago_poker.revolver": "{seat:seat} plays Revolver: 2 more actions ({actions:plural:one=# action left|other=# actions left}).",
    "chicago_poker.bribe": "{seat:seat} plays Bribe: takes a card from the discard pile, then the discard pile is shuffled into the deck.",
    "chicago_poker.bribe_empty": "{seat:seat} plays Bribe, but the discard pile is empty.",
    "chicago_poker.turn_ended": "{seat:seat} ends the turn with {hand:plural:one=# card|other=# cards} in hand.",
    "chicago_poker.ready": "{seat:seat} is ready.",
    "chicago_poker.host_revealed": "The host revealed the cards.",
    "chicago_poker.all_ready": "Everyone is ready: the cards are revealed.",
    "chicago_poker.phase.reveal": "reveal",
    "chicago_poker.ui.reveal_shootout": "Shootout due at business {business}: reveal when everyone is ready",
    "chicago_poker.ui.reveal_reinforcements": "Every reinforcement is chosen: reveal when everyone is ready",
    "chicago_poker.choose_shootout": "{seat:seat} has shootouts due at businesses {businesses}: {seat:seat} chooses which comes first.",
    "chicago_poker.shootout": "Shootout at business {business} ({kind:label=chicago_poker.business}), called by {seat:seat}: every card there is turned face up.",
    "chicago_poker.shootout_hand": "{seat:seat}: {cards:cards=chicago_poker.ui.card}: {hand:label=chicago_poker.hand} ({ranks}).",
    "chicago_poker.won_alone": "{seat:seat} is alone at business {business} and takes it.",
    "chicago_poker.won_category": "{seat:seat} wins: {hand:label=chicago_poker.hand} beats {other:label=chicago_poker.hand}.",
    "chicago_poker.won_tiebreak": "{seat:seat} wins with the higher {hand:label=chicago_poker.hand}: {ranks} against {other_ranks}.",
    "chicago_poker.tied": "{seats:seats} tie with {hand:label=chicago_poker.hand} ({ranks}): reinforcements! Each sends one card from hand, chosen on their phone.",
    "chicago_poker.reinforcement_round": "Reinforcement round {round} begins: {seats:seats} each choose a card.",
    "chicago_poker.deck_cards_needed": "{seats:seats} send the top card of the deck: turn it up and enter it.",
    "chicago_poker.deck_card": "Top card of the deck for {seat:seat}: {card:cards=chicago_poker.ui.card}.",
    "chicago_poker.deck_card_special": "Top card of the deck for {seat:seat}: {special:label=chicago_poker.special}, worth 0.",
    "chicago_poker.reinforcement_card": "{seat:seat} sends {card:cards=chicago_poker.ui.card} ({value}).",
    "chicago_poker.reinforcement_special": "{seat:seat} sends a special card, {special:label=chicago_poker.special}, worth 0.",
    "chicago_poker.reinforcement_none": "{seat:seat} has no reinforcement to send.",
    "chicago_poker.replacements": "{seats:seats} draw a replacement card.",
    "chicago_poker.won_reinforcement": "{seat:seat} wins the shootout with the highest reinforcement ({value}).",
    "chicago_poker.still_tied": "{seats:seats} are still tied at {value}: another round of reinforcements.",
    "chicago_poker.won_lot": "Nobody among {seats:seats} can send a reinforcement: {seat:seat} wins by lot.",
    "chicago_poker.business_taken": "{seat:seat} takes business {business} ({kind:label=chicago_poker.business}) and now controls {count}. {cards:plural:one=The # card there is|other=The # cards there are} discarded.",
    "chicago_poker.victory_same_type": "{seat:seat} controls {count:plural:one=# business|other=# businesses} of one type and wins the game.",
    "chicago_poker.victory_four_types": "{seat:seat} controls all four types of business and wins the game.",
    "chicago_poker.victory_any": "{seat:seat} controls {count:plural:one=# business|other=# businesses} and wins the game.",
    "chicago_poker.victory_last_business": "No tiles are left and {seat:seat} took the last business: {seat:seat} wins the game.",
    # errors
    "chicago_poker.err.game_over": "The game is over.",
    "chicago_poker.err.unknown_seat": "There is no player {seat}.",
    "chicago_poker.err.wrong_phase": "That is not possible now: the game is at {phase:label=chicago_poker.phase}.",
    "chicago_poker.err.not_your_turn": "It is {expected:seat}'s turn, not yours.",
    "chicago_poker.err.no_actions_left": "You have used all your actions this turn: end your turn.",
    "chicago_poker.err.unknown_business": "There is no open business {business}.",
    "chicago_poker.err.column_full": "You already have 5 cards at business {business}: that is the most allowed.",
    "chicago_poker.err.wrong_face": "Your card {position} at this {kind:label=chicago_poker.business} goes face {face:label=chicago_poker.face}.",
    "chicago_poker.err.card_taken": "{card:cards=chicago_poker.ui.card} is already {where:label=chicago_poker.where}: each card exists once. Check the card.",
    "chicago_poker.err.card_not_in_hand": "Your hand holds only what your Bribe took (shown on your page): {card:cards=chicago_poker.ui.card} is not in it.",
    "chicago_poker.err.special_not_in_hand": "Your hand holds only what your Bribe took (shown on your page): it has no {special:label=chicago_poker.special} card.",
    "chicago_poker.err.special_on_business": "A special card is never placed at a business: play it as a special card.",
    "chicago_poker.err.empty_hand": "You have no card in hand.",
    "chicago_poker.err.hand_limit": "You may not take that card: with {hand:plural:one=# card|other=# cards} and {actions:plural:one=# action|other=# actions} left you could not get back to 7 by the end of your turn.",
    "chicago_poker.err.deck_empty": "The deck and the discard pile are both empty: there is nothing to draw.",
    "chicago_poker.err.hand_over_limit": "You have {hand:plural:one=# card|other=# cards}: play cards until you have at most 7 before ending your turn.",
    "chicago_poker.err.actions_left": "You still have {actions:plural:one=# action|other=# actions}: a turn is exactly 3 actions.",
    "chicago_poker.err.no_special_cards": "This game is played without special cards.",
    "chicago_poker.err.special_gone": "Every {special:label=chicago_poker.special} card is in the discard pile or known to be elsewhere.",
    "chicago_poker.err.not_another_player": "Choose another player, not yourself.",
    "chicago_poker.err.no_cards_there": "{target:seat} has no cards at business {business}.",
    "chicago_poker.err.target_under_marker": "{target:seat}'s cards at business {business} are under a shootout marker: they cannot be liquidated.",
    "chicago_poker.err.same_business": "The Limousine must go to another business.",
    "chicago_poker.err.limousine_under_marker": "Your cards at business {business} are under a shootout marker: they cannot move.",
    "chicago_poker.err.limousine_cards": "Choose 1 to 4 different cards of yours at business {business} (positions 1 to {count}).",
    "chicago_poker.err.limousine_too_many": "You would have {count:plural:one=# card|other=# cards} at business {business}: at most 5.",
    "chicago_poker.err.not_in_discard": "{card:cards=chicago_poker.ui.card} is not in the discard pile.",
    "chicago_poker.err.special_not_in_discard": "No {special:label=chicago_poker.special} card is in the discard pile.",
    "chicago_poker.err.bribe_must_take": "Take one card from the discard pile.",
    "chicago_poker.err.one_card": "Choose one card, not two.",
    "chicago_poker.err.no_tiles_left": "No business tiles are left in the stack.",
    "chicago_poker.err.no_tile_of_type": "All 5 {kind:label=chicago_poker.business} tiles are already out.",
    "chicago_poker.err.no_shootout_there": "You have no shootout due at business {business}.",
    "chicago_poker.err.not_in_tie": "You are not in this tie.",
    "chicago_poker.err.already_ready": "You are already ready; the others are awaited.",
    "chicago_poker.err.host_reveals": "Only the host board reveals the cards: tap Ready when you are ready.",
    "chicago_poker.err.already_picked": "You have already sent your reinforcement.",
    "chicago_poker.err.special_reinforcement": "A special card has no value: it cannot be sent as a reinforcement (house rule).",
    "chicago_poker.err.special_unless_forced": "A special card may be sent only if you hold no gangster card: confirm that you hold none.",
    "chicago_poker.err.no_deck_card_for": "No top card of the deck is awaited for {seat:seat}.",
    "chicago_poker.err.ranking_missing": "Your own hand order must list all {count:num} hands once each: {hand:label=chicago_poker.hand} is missing.",
    "chicago_poker.err.ranking_twice": "Your own hand order must list all {count:num} hands once each: {hand:label=chicago_poker.hand} is listed twice.",
    # the house rules: one label per rule and per value (the setup form, and the rule card's house rules)
    "chicago_poker.rule.short_game": "Game length",
    "chicago_poker.rule.short_game.False": "full: 3 of a type, 4 types or any 5 businesses",
    "chicago_poker.rule.short_game.True": "short: 2 of a type or any 3 businesses",
    "chicago_poker.rule.special_cards": "Special cards",
    "chicago_poker.rule.special_cards.True": "with the 6 special cards",
    "chicago_poker.rule.special_cards.False": "without (tactical game, 75 gangsters only)",
    "chicago_poker.rule.hand_ranking": "Hand order (check your summary card)",
    "chicago_poker.rule.hand_ranking.recommended": "poker order: Chicago Poker, straight flush, four, full house, flush, rainbow, straight...",
    "chicago_poker.rule.hand_ranking.rarity": "by rarity: Chicago Poker, straight flush, rainbow, four, flush, full house, straight...",
    "chicago_poker.rule.hand_ranking.custom": "our own order (edited in the setup)",
    "chicago_poker.rule.later_markers": "Second player to fill a marked business",
    "chicago_poker.rule.later_markers.marker": "also takes a marker: their cards are protected",
    "chicago_poker.rule.later_markers.none": "takes no marker",
    "chicago_poker.rule.marker_order": "Several shootouts at the start of a turn",
    "chicago_poker.rule.marker_order.choose": "the player chooses the order",
    "chicago_poker.rule.marker_order.placed_first": "the first marked goes first",
    "chicago_poker.rule.empty_hand_reinforcement": "Reinforcement with no card to send",
    "chicago_poker.rule.empty_hand_reinforcement.deck_top": "turn up the top card of the deck",
    "chicago_poker.rule.empty_hand_reinforcement.out": "that player drops out of the tie",
    "chicago_poker.rule.special_reinforcement": "Special card as a reinforcement",
    "chicago_poker.rule.special_reinforcement.forbidden": "not allowed",
    "chicago_poker.rule.special_reinforcement.if_forced": "not allowed; if forced (no gangster card in hand), worth 0",
    "chicago_poker.rule.special_reinforcement.zero": "allowed, worth 0",
    "chicago_poker.rule.limousine_marker": "Limousine bringing a 5th card",
    "chicago_poker.rule.limousine_marker.marker": "places a shootout marker",
    "chicago_poker.rule.limousine_marker.none": "places no marker",
    # names
    "chicago_poker.business.speakeasy": "speakeasy",
    "chicago_poker.business.jazz_club": "jazz club",
    "chicago_poker.business.brewery": "brewery",
    "chicago_poker.business.gambling_house": "gambling house",
    "chicago_poker.hand.chicago_poker": "Chicago Poker",
    "chicago_poker.hand.straight_flush": "straight flush",
    "chicago_poker.hand.rainbow_straight": "rainbow straight",
    "chicago_poker.hand.four_of_a_kind": "four of a kind",
    "chicago_poker.hand.full_house": "full house",
    "chicago_poker.hand.flush": "flush",
    "chicago_poker.hand.straight": "straight",
    "chicago_poker.hand.three_of_a_kind": "three of a kind",
    "chicago_poker.hand.two_pairs": "two pairs",
    "chicago_poker.hand.pair": "pair",
    "chicago_poker.hand.high_card": "high card",
    "chicago_poker.special.liquidation": "Liquidation",
    "chicago_poker.special.police_raid": "Police Raid",
    "chicago_poker.special.limousine": "Limousine",
    "chicago_poker.special.revolver": "Revolver",
    "chicago_poker.special.bribe": "Bribe",
    "chicago_poker.colour.c1": "colour 1",
    "chicago_poker.colour.c2": "colour 2",
    "chicago_poker.colour.c3": "colour 3",
    "chicago_poker.colour.c4": "colour 4",
    "chicago_poker.colour.c5": "colour 5",
    "chicago_poker.boss.al_capone": "Al Capone",
    "chicago_poker.boss.frankie_yale": "Frankie Yale",
    "chicago_poker.boss.hymie_weiss": "Hymie Weiss",
    "chicago_poker.boss.bugs_moran": "Bugs Moran",
    "chicago_poker.boss.dion_obanion": "Dion O'Banion",
    "chicago_poker.boss.johnny_torrio": "Johnny Torrio",
    "chicago_poker.phase.tiles": "entering business tiles",
    "chicago_poker.phase.choose_shootout": "choosing a shootout",
    "chicago_poker.phase.reinforce": "reinforcements",
    "chicago_poker.phase.deck_card": "turning up deck cards for reinforcements",
    "chicago_poker.phase.actions": "a player's actions",
    "chicago_poker.phase.over": "game over",
    "chicago_poker.where.table": "on the table",
    "chicago_poker.where.discard": "in the discard pile",
    "chicago_poker.where.hand": "in a player's hand (taken with a Bribe)",
    "chicago_poker.where.reinforcement": "sent as a reinforcement",
    "chicago_poker.face.up": "up",
    "chicago_poker.face.down": "down",
    "chicago_poker.decided.alone": "alone at the business",
    "chicago_poker.decided.category": "better hand",
    "chicago_poker.decided.tiebreak": "higher cards in the same hand",
    "chicago_poker.decided.reinforcement": "reinforcements",
    "chicago_poker.decided.lot": "drawn by lot",
    # how a card is read out: rulings and errors say cards with it ({card:cards=chicago_poker.ui.card}),
    # and the pages too
    "chicago_poker.ui.card": "{value} of {colour:label=chicago_poker.colour}",
}


# --- helpers -----------------------------------------------------------------------------------


def face_of(kind: str, position: int) -> Face:
    """Face of a player's `position`-th card (1-based) at a business of type `kind`."""
    return "up" if PATTERNS[kind][position - 1] == "U" else "down"


def victory(kinds: Sequence[str], short_game: bool) -> tuple[str, int] | None:
    """The victory condition these controlled businesses meet: (ruling code, count) or None."""
    same, different, any_count = VICTORY["short" if short_game else "full"]
    counts = Counter(kinds)
    if counts and max(counts.values()) >= same:
        return "chicago_poker.victory_same_type", max(counts.values())
    if different is not None and len(counts) >= different:
        return "chicago_poker.victory_four_types", len(counts)
    if len(kinds) >= any_count:
        return "chicago_poker.victory_any", len(kinds)
    return None


def ranks_label(ranks: Sequence[int]) -> str:
    return ", ".join(map(str, ranks))


class _Log:
    """Rulings and the reveal flag collected while one action is applied."""

    def __init__(self) -> None:
        self.rulings: list[Ruling] = []
        self.reveals = False

    def add(self, name: str, **params: Any) -> None:
        self.rulings.append(Ruling(code=f"chicago_poker.{name}", params=params))


def _put(state: State, **changes: Any) -> State:
    return state.model_copy(update=changes)


def _replace_business(state: State, business: Business) -> tuple[Business, ...]:
    return tuple(business if b.id == business.id else b for b in state.businesses)


def _with_column(business: Business, seat: int, column: tuple[Placed, ...]) -> Business:
    columns = list(business.columns)
    columns[seat] = column
    return business.model_copy(update={"columns": tuple(columns)})


def _add_to(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    out = list(values)
    out[seat] += delta
    return tuple(out)


# --- the engine --------------------------------------------------------------------------------


class ChicagoPoker:
    id: ClassVar[str] = "chicago_poker"
    setup_model = Setup
    action_model = Action
    action_adapter = ACTION_ADAPTER
    state_model = State
    view_model = View
    messages = MESSAGES
    house_rules = HOUSE_RULES
    min_players, max_players = 2, 6

    def player_colours(self, players: int) -> tuple[PlayerColour, ...] | None:
        return None  # (each player's pieces come in any of the app's colours)

    # -- setup --

    def initial_state(self, setup: Setup, seed: int) -> State:
        n = len(setup.players)
        first = setup.first_player
        if first is None:
            first = rng_for(seed, "first_player").randrange(n)
        total = GANGSTER_CARDS + (sum(SPECIAL_COPIES.values()) if setup.special_cards else 0)
        return State(
            setup=setup,
            seed=seed,
            order=tuple((first + i) % n for i in range(n)),
            hands=(STARTING_HAND,) * n,
            deck=total - STARTING_HAND * n,
            tiles_to_enter=OPEN_BUSINESSES_BY_PLAYERS[n],
            controlled=((),) * n,
        )

    # -- where things are --

    def total_cards(self, state: State) -> int:
        return GANGSTER_CARDS + (sum(SPECIAL_COPIES.values()) if state.setup.special_cards else 0)

    def card_place(self, state: State, card: Card, seat: int | None = None) -> str | None:
        """Where a gangster card is known to be, if anywhere (`seat`'s own bribed cards excepted)."""
        key = card.pair()
        if any(placed.card.pair() == key for b in state.businesses for column in b.columns for placed in column):
            return "table"
        if any(c.pair() == key for c in state.discard):
            return "discard"
        if any(b.card is not None and b.card.pair() == key and b.seat != seat for b in state.bribed):
            return "hand"
        if any(p.card is not None and p.card.pair() == key for p in state.picks):
            return "reinforcement"
        return None

    def specials_available(self, state: State, kind: str, seat: int | None = None) -> int:
        """Copies of a special card that may be in `seat`'s hand (or the deck)."""
        if not state.setup.special_cards:
            return 0
        known = state.discard_specials.count(kind)
        known += sum(1 for b in state.bribed if b.special == kind and b.seat != seat)
        known += sum(1 for p in state.picks if p.special == kind)
        return SPECIAL_COPIES[kind] - known

    def free_cards(self, state: State, seat: int | None = None) -> list[Card]:
        """Gangster cards not known to be anywhere: they may be in a hand or the deck."""
        known = {placed.card.pair() for b in state.businesses for column in b.columns for placed in column}
        known.update(c.pair() for c in state.discard)
        known.update(b.card.pair() for b in state.bribed if b.card is not None and b.seat != seat)
        known.update(p.card.pair() for p in state.picks if p.card is not None)
        return [card for card in ALL_CARDS if card.pair() not in known]

    def hand_options(self, state: State, seat: int) -> tuple[list[Card], list[SpecialKind]]:
        """The gangster cards and special kinds `seat` may hold: when every card in the hand is
        one a Bribe took, only those; otherwise anything not known to be elsewhere."""
        known = [b for b in state.bribed if b.seat == seat]
        if known and len(known) >= state.hands[seat]:
            return [b.card for b in known if b.card is not None], [b.special for b in known if b.special is not None]
        return self.free_cards(state, seat), [k for k in SPECIAL_KINDS if self.specials_available(state, k, seat) > 0]

    def marked(self, state: State, seat: int, business_id: int) -> bool:
        return any(m.seat == seat and m.business == business_id for m in state.markers)

    def shootouts_due(self, state: State, seat: int) -> tuple[int, ...]:
        due: list[int] = []
        for marker in state.markers:
            if marker.seat == seat and marker.business not in due:
                due.append(marker.business)
        return tuple(due)

    def free_slots(self, state: State, seat: int) -> int:
        """Gangster cards `seat` could still place at the open businesses."""
        return sum(COLUMN_MAX - len(b.columns[seat]) for b in state.businesses)

    def can_get_back(self, state: State, seat: int, hand: int, actions: int) -> bool:
        """Could `actions` more plays bring `hand` to 7? Each play needs a free place at a
        business (the app cannot count on special cards it cannot see)."""
        return hand - min(actions, self.free_slots(state, seat)) <= HAND_LIMIT

    def can_draw(self, state: State, seat: int) -> bool:
        """A draw is refused only when the actions left could not bring the hand back to 7."""
        if state.deck + len(state.discard) + len(state.discard_specials) == 0:
            return False
        return self.can_get_back(state, seat, state.hands[seat] + 1, state.actions_left - 1)

    def waiting_for(self, state: State) -> tuple[int, ...]:
        if state.phase == "over":
            return ()
        if state.phase == "tiles":
            return (state.current if state.current is not None else state.order[0],)
        if state.phase == "reinforce":
            picked = {p.seat for p in state.picks}
            return tuple(s for s in state.reinforcing if s not in picked)
        if state.phase == "deck_card":
            return tuple(p.seat for p in state.picks if p.source == "deck" and p.card is None and p.special is None)
        if state.phase == "reveal":
            return tuple(s for s in state.order if s not in state.ready)
        assert state.current is not None
        return (state.current,)

    # -- apply --

    def apply(self, state: State, action: Action) -> Outcome[State]:
        if state.phase == "over":
            raise RuleError("chicago_poker.err.game_over")
        if action.by is not None and not 0 <= action.by < state.players:
            raise RuleError("chicago_poker.err.unknown_seat", seat=action.by)
        if isinstance(action, (Reveal, Ready)):
            return reveal_request(state, action, "chicago_poker", self.reveal)
        log = _Log()
        if isinstance(action, RevealTile):
            new = self._reveal_tile(state, action, log)
        elif isinstance(action, ChooseShootout):
            new = self._choose_shootout(state, action, log)
        elif isinstance(action, Reinforce):
            new = self._reinforce(state, action, log)
        elif isinstance(action, RevealDeckCard):
            new = self._reveal_deck_card(state, action, log)
        else:
            self._check_turn_action(state, action)
            if isinstance(action, Draw):
                new = self._draw(state, action, log)
            elif isinstance(action, (PlayFaceUp, PlayFaceDown)):
                new = self._play(state, action, log)
            elif isinstance(action, EndTurn):
                new = self._end_turn(state, action, log)
            else:
                new = self._special(state, action, log)
        return Outcome(state=new, rulings=tuple(log.rulings), reveals=log.reveals)

    def _check_turn_action(self, state: State, action: Action) -> None:
        if state.phase != "actions":
            raise RuleError("chicago_poker.err.wrong_phase", phase=state.phase)
        if action.by != state.current:
            raise RuleError("chicago_poker.err.not_your_turn", expected=state.current)
        if not isinstance(action, EndTurn) and state.actions_left < 1:
            raise RuleError("chicago_poker.err.no_actions_left")

    def _business(self, state: State, business_id: int) -> Business:
        business = state.business(business_id)
        if business is None:
            raise RuleError("chicago_poker.err.unknown_business", business=business_id)
        return business

    def _check_free(self, state: State, card: Card, seat: int | None) -> None:
        where = self.card_place(state, card, seat)
        if where is not None:
            raise RuleError("chicago_poker.err.card_taken", card=card.label(), where=where)

    def _check_in_hand(self, state: State, seat: int, card: Card | None = None, special: str | None = None) -> None:
        """A hand made only of cards a Bribe took cannot give anything else (the card tracking
        would otherwise keep a card 'in hand' after the hand is empty)."""
        cards, specials = self.hand_options(state, seat)
        if card is not None and card not in cards:
            raise RuleError("chicago_poker.err.card_not_in_hand", card=card.label())
        if special is not None and special not in specials:
            raise RuleError("chicago_poker.err.special_not_in_hand", special=special)

    def _forget_bribed(self, state: State, seat: int, card: Card | None = None, special: str | None = None) -> tuple[Bribed, ...]:
        """A card of `seat`'s known through a Bribe has left their hand."""
        bribed = list(state.bribed)
        for i, entry in enumerate(bribed):
            if entry.seat == seat and ((card is not None and entry.card == card) or (special is not None and entry.special == special)):
                del bribed[i]
                break
        return tuple(bribed)

    def _take_from_deck(self, state: State, log: _Log) -> State:
        """One card leaves the deck; an empty deck is first rebuilt from the discard pile."""
        if state.deck == 0:
            count = len(state.discard) + len(state.discard_specials)
            log.add("deck_reshuffled", count=count)
            state = _put(state, deck=count, discard=(), discard_specials=())
        return _put(state, deck=state.deck - 1)

    # tiles

    def _reveal_tile(self, state: State, action: RevealTile, log: _Log) -> State:
        if state.phase != "tiles":
            raise RuleError("chicago_poker.err.wrong_phase", phase=state.phase)
        if len(state.tiles) >= TOTAL_TILES:
            raise RuleError("chicago_poker.err.no_tiles_left")  # pragma: no cover - phase guards it
        if state.tiles.count(action.kind) >= TILES_PER_TYPE:
            raise RuleError("chicago_poker.err.no_tile_of_type", kind=action.kind)
        business = Business(id=len(state.tiles) + 1, kind=action.kind, columns=((),) * state.players)
        state = _put(
            state,
            tiles=state.tiles + (action.kind,),
            businesses=state.businesses + (business,),
            tiles_to_enter=state.tiles_to_enter - 1,
        )
        log.add("tile_revealed", kind=action.kind, business=business.id)
        if len(state.tiles) == TOTAL_TILES:
            log.add("last_tile")
        if state.tiles_to_enter > 0:
            return state
        if state.turn == 0:
            return self._begin_turn(state, log)
        return self._next_shootout_or_actions(state, log)

    # turns

    def _begin_turn(self, state: State, log: _Log) -> State:
        turn = state.turn + 1
        actions = FIRST_TURNS_ACTIONS[turn - 1] if turn <= len(FIRST_TURNS_ACTIONS) else ACTIONS_PER_TURN
        state = _put(state, turn=turn, actions_left=actions, phase="actions")
        log.add("turn_started", seat=state.current, actions=actions)
        return self._next_shootout_or_actions(state, log)

    def _next_shootout_or_actions(self, state: State, log: _Log) -> State:
        """At the start of a turn, resolve the player's shootouts before their actions."""
        seat = state.current
        assert seat is not None
        due = self.shootouts_due(state, seat)
        if not due:
            return _put(state, phase="actions", shootout=None)
        if len(due) == 1 or state.setup.marker_order == "placed_first":
            return self._await_reveal(state, "shootout", due[0])
        log.add("choose_shootout", seat=seat, businesses=", ".join(map(str, due)))
        return _put(state, phase="choose_shootout", shootout=None)

    def _draw(self, state: State, action: Draw, log: _Log) -> State:
        if state.deck + len(state.discard) + len(state.discard_specials) == 0:
            raise RuleError("chicago_poker.err.deck_empty")
        if not self.can_draw(state, action.by):
            raise RuleError("chicago_poker.err.hand_limit", hand=state.hands[action.by], actions=state.actions_left)
        state = self._take_from_deck(state, log)
        state = _put(state, hands=_add_to(state.hands, action.by, 1), actions_left=state.actions_left - 1)
        log.add("drew", seat=action.by, hand=state.hands[action.by])
        return state

    def _end_turn(self, state: State, action: EndTurn, log: _Log) -> State:
        hand = state.hands[action.by]
        if hand > HAND_LIMIT:
            raise RuleError("chicago_poker.err.hand_over_limit", hand=hand)
        # The app cannot see whether the hand holds a playable card, so a player who may not
        # draw may stop early; otherwise a turn is exactly its actions.
        if state.actions_left > 0 and self.can_draw(state, action.by):
            raise RuleError("chicago_poker.err.actions_left", actions=state.actions_left)
        log.add("turn_ended", seat=action.by, hand=hand)
        return self._begin_turn(_put(state, actions_left=0), log)

    # gangster cards

    def _play(self, state: State, action: PlayFaceUp | PlayFaceDown, log: _Log) -> State:
        if isinstance(action.card, str):
            raise RuleError("chicago_poker.err.special_on_business")
        if state.hands[action.by] < 1:
            raise RuleError("chicago_poker.err.empty_hand")
        business = self._business(state, action.business)
        column = business.columns[action.by]
        if len(column) >= COLUMN_MAX:
            raise RuleError("chicago_poker.err.column_full", business=business.id)
        position = len(column) + 1
        face = face_of(business.kind, position)
        wanted: Face = "up" if isinstance(action, PlayFaceUp) else "down"
        if face != wanted:
            raise RuleError("chicago_poker.err.wrong_face", position=position, kind=business.kind, face=face)
        self._check_free(state, action.card, action.by)
        self._check_in_hand(state, action.by, card=action.card)
        business = _with_column(business, action.by, column + (Placed(card=action.card, face_up=face == "up"),))
        state = _put(
            state,
            businesses=_replace_business(state, business),
            hands=_add_to(state.hands, action.by, -1),
            actions_left=state.actions_left - 1,
            bribed=self._forget_bribed(state, action.by, card=action.card),
        )
        if face == "up":
            log.add("played_face_up", seat=action.by, card=action.card.label(), business=business.id, position=position)
        else:  # the ruling is public: it never names a face-down card
            log.add("played_face_down", seat=action.by, business=business.id, position=position)
        if position == COLUMN_MAX:
            state = self._place_marker(state, action.by, business.id, log)
        return state

    def _place_marker(self, state: State, seat: int, business_id: int, log: _Log) -> State:
        already = any(m.business == business_id for m in state.markers)
        if already and state.setup.later_markers == "none":
            log.add("marker_not_placed", seat=seat, business=business_id)
            return state
        log.add("marker_placed", seat=seat, business=business_id)
        return _put(state, markers=state.markers + (Marker(seat=seat, business=business_id),))

    # special cards

    def _special(self, state: State, action: SpecialAction, log: _Log) -> State:
        kind = SPECIAL_ACTIONS[type(action)]
        if not state.setup.special_cards:
            raise RuleError("chicago_poker.err.no_special_cards")
        if state.hands[action.by] < 1:
            raise RuleError("chicago_poker.err.empty_hand")
        if self.specials_available(state, kind, action.by) < 1:
            raise RuleError("chicago_poker.err.special_gone", special=kind)
        self._check_in_hand(state, action.by, special=kind)
        # The effect validates first; then the special card goes to the discard pile.
        if isinstance(action, Liquidation):
            state = self._liquidation(state, action, log)
        elif isinstance(action, PoliceRaid):
            state = self._police_raid(state, action, log)
        elif isinstance(action, Limousine):
            state = self._limousine(state, action, log)
        elif isinstance(action, Revolver):
            state = self._revolver(state, action, log)
        else:
            state = self._bribe(state, action, log)
        return _put(
            state,
            hands=_add_to(state.hands, action.by, -1),
            actions_left=state.actions_left - 1 + (REVOLVER_BONUS if kind == "revolver" else 0),
            discard_specials=state.discard_specials + (kind,),
            bribed=self._forget_bribed(state, action.by, special=kind),
        )

    def _victim(self, state: State, action: Liquidation | PoliceRaid) -> Business:
        business = self._business(state, action.business)
        if action.target == action.by:
            raise RuleError("chicago_poker.err.not_another_player")
        if not 0 <= action.target < state.players:
            raise RuleError("chicago_poker.err.unknown_seat", seat=action.target)
        if not business.columns[action.target]:
            raise RuleError("chicago_poker.err.no_cards_there", target=action.target, business=business.id)
        return business

    def _liquidation(self, state: State, action: Liquidation, log: _Log) -> State:
        business = self._victim(state, action)
        if self.marked(state, action.target, business.id):
            raise RuleError("chicago_poker.err.target_under_marker", target=action.target, business=business.id)
        column = business.columns[action.target]
        last = column[-1]
        # The discard pile is face up: a face-down card liquidated becomes public.
        log.reveals = log.reveals or not last.face_up
        business = _with_column(business, action.target, column[:-1])
        log.add("liquidation", seat=action.by, target=action.target, business=business.id, card=last.card.label())
        return _put(state, businesses=_replace_business(state, business), discard=state.discard + (last.card,))

    def _police_raid(self, state: State, action: PoliceRaid, log: _Log) -> State:
        business = self._victim(state, action)
        seen = tuple((i + 1, p.card) for i, p in enumerate(business.columns[action.target]) if not p.face_up)
        # Only the raider's projection shows the cards; the ruling says how many, not which.
        log.reveals = True  # the raider has seen hidden cards: no undo across this
        log.add("police_raid", seat=action.by, target=action.target, business=business.id, count=len(seen))
        raid = Raid(raider=action.by, business=business.id, target=action.target, cards=seen)
        return _put(state, raids=state.raids + (raid,))

    def _limousine(self, state: State, action: Limousine, log: _Log) -> State:
        source = self._business(state, action.source)
        destination = self._business(state, action.destination)
        if source.id == destination.id:
            raise RuleError("chicago_poker.err.same_business")
        if self.marked(state, action.by, source.id):
            raise RuleError("chicago_poker.err.limousine_under_marker", business=source.id)
        column = source.columns[action.by]
        positions = action.positions
        if (
            not 1 <= len(positions) <= LIMOUSINE_MAX
            or len(set(positions)) != len(positions)
            or not all(1 <= p <= len(column) for p in positions)
        ):
            raise RuleError("chicago_poker.err.limousine_cards", business=source.id, count=len(column))
        target = destination.columns[action.by]
        if len(target) + len(positions) > COLUMN_MAX:
            raise RuleError("chicago_poker.err.limousine_too_many", business=destination.id, count=len(target) + len(positions))
        moved = [column[p - 1].card for p in positions]
        staying = tuple(placed for i, placed in enumerate(column) if i + 1 not in positions)
        arrived: list[Placed] = []
        turned_up: list[Card] = []
        for offset, card in enumerate(moved):
            up = face_of(destination.kind, len(target) + offset + 1) == "up"
            was_up = column[positions[offset] - 1].face_up
            if up and not was_up:
                turned_up.append(card)
            arrived.append(Placed(card=card, face_up=up))
        source = _with_column(source, action.by, staying)
        destination = _with_column(destination, action.by, target + tuple(arrived))
        state = _put(state, businesses=_replace_business(_put(state, businesses=_replace_business(state, source)), destination))
        log.add("limousine", seat=action.by, count=len(moved), source=source.id, destination=destination.id)
        if turned_up:
            log.reveals = True
            log.add("limousine_turned_up", destination=destination.id, cards=cards_label(turned_up))
        if len(target) < COLUMN_MAX and len(target) + len(moved) == COLUMN_MAX and state.setup.limousine_marker == "marker":
            state = self._place_marker(state, action.by, destination.id, log)
        return state

    def _revolver(self, state: State, action: Revolver, log: _Log) -> State:
        log.add("revolver", seat=action.by, actions=state.actions_left - 1 + REVOLVER_BONUS)
        return state

    def _bribe(self, state: State, action: Bribe, log: _Log) -> State:
        if action.card is not None and action.special is not None:
            raise RuleError("chicago_poker.err.one_card")
        pile_size = len(state.discard) + len(state.discard_specials)
        if action.card is not None and action.card not in state.discard:
            raise RuleError("chicago_poker.err.not_in_discard", card=action.card.label())
        if action.special is not None and action.special not in state.discard_specials:
            raise RuleError("chicago_poker.err.special_not_in_discard", special=action.special)
        taken = action.card is not None or action.special is not None
        if pile_size and not taken:
            raise RuleError("chicago_poker.err.bribe_must_take")
        # Taking a card is like drawing one for the hand limit (the Bribe card leaves, one comes).
        if taken and not self.can_get_back(state, action.by, state.hands[action.by], state.actions_left - 1):
            raise RuleError("chicago_poker.err.hand_limit", hand=state.hands[action.by], actions=state.actions_left)
        if not taken:
            log.add("bribe_empty", seat=action.by)
            return state
        log.add("bribe", seat=action.by)
        # The taken card joins the hand (known to its owner); the rest is shuffled into the deck.
        return _put(
            state,
            hands=_add_to(state.hands, action.by, 1),
            deck=state.deck + pile_size - 1,
            discard=(),
            discard_specials=(),
            bribed=state.bribed + (Bribed(seat=action.by, card=action.card, special=action.special),),
        )

    # shootouts

    def _choose_shootout(self, state: State, action: ChooseShootout, log: _Log) -> State:
        if state.phase != "choose_shootout":
            raise RuleError("chicago_poker.err.wrong_phase", phase=state.phase)
        if action.by != state.current:
            raise RuleError("chicago_poker.err.not_your_turn", expected=state.current)
        if action.business not in self.shootouts_due(state, action.by):
            raise RuleError("chicago_poker.err.no_shootout_there", business=action.business)
        return self._await_reveal(state, "shootout", action.business)

    # the reveal: never a side effect of the action that makes it due

    def awaiting_reveal(self, state: State) -> bool:
        return state.phase == "reveal"

    def _await_reveal(self, state: State, pending: PendingReveal, business: int | None = None) -> State:
        return _put(state, phase="reveal", pending_reveal=pending, reveal_business=business, ready=())

    def reveal(self, state: State) -> Outcome[State]:
        log = _Log()
        return Outcome(state=self._resolve_reveal(state, log), rulings=tuple(log.rulings), reveals=log.reveals)

    def _resolve_reveal(self, state: State, log: _Log) -> State:
        pending, business = state.pending_reveal, state.reveal_business
        if pending == "shootout":
            assert business is not None
            return self._shootout(_put(state, phase="actions", pending_reveal=None, reveal_business=None, ready=()), business, log)
        return self._reveal_round(_put(state, phase="reinforce", pending_reveal=None, ready=()), log)

    def _shootout(self, state: State, business_id: int, log: _Log) -> State:
        business = state.business(business_id)
        assert business is not None and state.current is not None
        ranking = state.setup.ranking
        log.reveals = True
        log.add("shootout", business=business.id, kind=business.kind, seat=state.current)
        # Every card there is turned face up.
        columns = tuple(tuple(p.model_copy(update={"face_up": True}) for p in column) for column in business.columns)
        business = business.model_copy(update={"columns": columns})
        state = _put(state, businesses=_replace_business(state, business))  # the same player's turn
        called_by = state.current
        assert called_by is not None
        hands = {seat: [c.card.pair() for c in column] for seat, column in enumerate(columns) if column}
        entries = []
        for seat, cards in hands.items():
            hand = evaluate(cards, ranking)
            entries.append(
                ShootoutEntry(seat=seat, cards=tuple(c.card for c in columns[seat]), category=hand.category, ranks=hand.ranks)
            )
        entries.sort(key=lambda e: (strength(Hand(e.category, e.ranks), ranking), -e.seat), reverse=True)
        for entry in entries:
            log.add(
                "shootout_hand",
                seat=entry.seat,
                cards=cards_label(entry.cards),
                hand=entry.category,
                ranks=ranks_label(entry.ranks),
            )
        best = best_of(hands, ranking)
        shootout = Shootout(business=business.id, kind=business.kind, called_by=called_by, entries=tuple(entries), tied=best)
        state = _put(state, shootout=shootout)
        if len(best) == 1:
            top = entries[0]
            if len(entries) == 1:
                log.add("won_alone", seat=top.seat, business=business.id)
                return self._award(state, top.seat, "alone", log)
            second = entries[1]
            if second.category != top.category:
                log.add("won_category", seat=top.seat, hand=top.category, other=second.category)
                return self._award(state, top.seat, "category", log)
            log.add(
                "won_tiebreak",
                seat=top.seat,
                hand=top.category,
                ranks=ranks_label(top.ranks),
                other_ranks=ranks_label(second.ranks) or "—",
            )
            return self._award(state, top.seat, "tiebreak", log)
        top = entries[0]
        log.add("tied", seats=list(best), hand=top.category, ranks=ranks_label(top.ranks))
        return self._start_round(state, best, log)

    def _start_round(self, state: State, seats: tuple[int, ...], log: _Log) -> State:
        """A reinforcement round: players with no card in hand cannot pick (docs/rules/chicago_poker.md#reinforcements)."""
        empty: PickSource = "deck" if state.setup.empty_hand_reinforcement == "deck_top" else "none"
        picks = tuple(Pick(seat=s, source=empty) for s in seats if state.hands[s] == 0)
        state = _put(state, phase="reinforce", reinforcing=seats, picks=picks)
        assert state.shootout is not None
        waiting = self.waiting_for(state)
        if not waiting:
            return self._picks_complete(state, log)
        log.add("reinforcement_round", round=len(state.shootout.rounds) + 1, seats=list(waiting))
        return state

    def _reinforce(self, state: State, action: Reinforce, log: _Log) -> State:
        if state.phase != "reinforce":
            raise RuleError("chicago_poker.err.wrong_phase", phase=state.phase)
        if action.by not in state.reinforcing:
            raise RuleError("chicago_poker.err.not_in_tie")
        if any(p.seat == action.by for p in state.picks):
            raise RuleError("chicago_poker.err.already_picked")
        if action.card is not None and action.special is not None:
            raise RuleError("chicago_poker.err.one_card")
        if action.card is not None or action.special is not None:
            if state.hands[action.by] < 1:
                raise RuleError("chicago_poker.err.empty_hand")  # pragma: no cover - auto-picked
        if action.card is not None:
            self._check_free(state, action.card, action.by)
            self._check_in_hand(state, action.by, card=action.card)
            pick = Pick(seat=action.by, source="hand", card=action.card)
        elif action.special is not None:
            if state.setup.special_reinforcement == "forbidden":
                raise RuleError("chicago_poker.err.special_reinforcement")
            if state.setup.special_reinforcement == "if_forced" and not action.no_gangster:
                raise RuleError("chicago_poker.err.special_unless_forced")
            if self.specials_available(state, action.special, action.by) < 1:
                raise RuleError("chicago_poker.err.special_gone", special=action.special)
            self._check_in_hand(state, action.by, special=action.special)
            pick = Pick(seat=action.by, source="special", special=action.special)
        else:
            empty: PickSource = "deck" if state.setup.empty_hand_reinforcement == "deck_top" else "none"
            pick = Pick(seat=action.by, source=empty)
        state = _put(state, picks=state.picks + (pick,))
        if self.waiting_for(state):
            return state  # nothing public changes but who has picked
        return self._picks_complete(state, log)

    def _picks_complete(self, state: State, log: _Log) -> State:
        """All picks are in: deck cards are turned up one by one, then everything is revealed."""
        pending = [p.seat for p in state.picks if p.source == "deck" and p.card is None and p.special is None]
        if pending and state.deck + len(state.discard) + len(state.discard_specials) > 0:
            log.add("deck_cards_needed", seats=pending)
            return _put(state, phase="deck_card")
        # Nothing left to turn up: those players have nothing to send.
        picks = tuple(
            p.model_copy(update={"source": "none"}) if p.seat in pending else p for p in state.picks
        )
        return self._await_reveal(_put(state, picks=picks), "reinforcements")

    def _reveal_deck_card(self, state: State, action: RevealDeckCard, log: _Log) -> State:
        if state.phase != "deck_card":
            raise RuleError("chicago_poker.err.wrong_phase", phase=state.phase)
        if action.seat not in self.waiting_for(state):
            raise RuleError("chicago_poker.err.no_deck_card_for", seat=action.seat)
        if isinstance(action.card, str):
            if self.specials_available(state, action.card) < 1:
                raise RuleError("chicago_poker.err.special_gone", special=action.card)
            filled: dict[str, Card | SpecialKind | None] = {"card": None, "special": action.card}
        else:
            self._check_free(state, action.card, None)  # a deck card is in nobody's hand
            filled = {"card": action.card, "special": None}
        state = self._take_from_deck(state, log)
        picks = tuple(p.model_copy(update=filled) if p.seat == action.seat else p for p in state.picks)
        state = _put(state, picks=picks)
        log.reveals = True
        if isinstance(action.card, str):
            log.add("deck_card_special", seat=action.seat, special=action.card)
        else:
            log.add("deck_card", seat=action.seat, card=action.card.label())
        if self.waiting_for(state) and state.deck + len(state.discard) + len(state.discard_specials) > 0:
            return state
        return self._picks_complete(_put(state, phase="reinforce"), log)

    def _reveal_round(self, state: State, log: _Log) -> State:
        """Reveal the picks at once; highest value wins; the rest go again."""
        assert state.shootout is not None
        log.reveals = True
        picks = tuple(sorted(state.picks, key=lambda p: state.reinforcing.index(p.seat)))
        for pick in picks:
            if pick.source == "none":
                log.add("reinforcement_none", seat=pick.seat)
            elif pick.card is not None:
                log.add("reinforcement_card", seat=pick.seat, card=pick.card.label(), value=pick.value())
            else:
                log.add("reinforcement_special", seat=pick.seat, special=pick.special)
        # The reinforcements are discarded; those who sent a card from hand draw a replacement.
        hands = list(state.hands)
        bribed = state.bribed
        for pick in picks:
            if pick.source in ("hand", "special"):
                hands[pick.seat] -= 1
                bribed = self._forget_bribed(_put(state, bribed=bribed), pick.seat, pick.card, pick.special)
        shootout = state.shootout.model_copy(update={"rounds": state.shootout.rounds + (ReinforcementRound(picks=picks),)})
        state = _put(
            state,
            hands=tuple(hands),
            bribed=bribed,
            discard=state.discard + tuple(p.card for p in picks if p.card is not None),
            discard_specials=state.discard_specials + tuple(p.special for p in picks if p.special is not None),
            picks=(),
            shootout=shootout,
        )
        drawers = []
        for pick in picks:
            if pick.source in ("hand", "special") and state.deck + len(state.discard) + len(state.discard_specials) > 0:
                state = self._take_from_deck(state, log)
                state = _put(state, hands=_add_to(state.hands, pick.seat, 1))
                drawers.append(pick.seat)
        if drawers:
            log.add("replacements", seats=drawers)
        best = max(p.value() for p in picks)
        top = tuple(p.seat for p in picks if p.value() == best)
        if len(top) == 1:
            log.add("won_reinforcement", seat=top[0], value=best)
            return self._award(state, top[0], "reinforcement", log)
        if best < 0:
            # Nobody can ever send anything: draw lots (recorded through the seed).
            winner = rng_for(state.seed, "reinforcement_lot", shootout.business, len(shootout.rounds)).choice(top)
            log.add("won_lot", seats=list(top), seat=winner)
            return self._award(state, winner, "lot", log)
        log.add("still_tied", seats=list(top), value=best)
        return self._start_round(state, top, log)

    def _award(self, state: State, winner: int, decided_by: Decision, log: _Log) -> State:
        shootout = state.shootout
        assert shootout is not None
        business = state.business(shootout.business)
        assert business is not None
        cards = tuple(p.card for column in business.columns for p in column)
        controlled = list(state.controlled)
        controlled[winner] = controlled[winner] + (Tile(id=business.id, kind=business.kind),)
        done = shootout.model_copy(update={"winner": winner, "decided_by": decided_by})
        state = _put(
            state,
            businesses=tuple(b for b in state.businesses if b.id != business.id),
            markers=tuple(m for m in state.markers if m.business != business.id),
            discard=state.discard + cards,
            controlled=tuple(controlled),
            shootout=done,
            shootouts=state.shootouts + (done,),
            reinforcing=(),
            picks=(),
        )
        log.add(
            "business_taken",
            seat=winner,
            business=business.id,
            kind=business.kind,
            count=len(controlled[winner]),
            cards=len(cards),
        )
        won = victory([t.kind for t in controlled[winner]], state.setup.short_game)
        if won is not None:
            code, count = won
            log.rulings.append(Ruling(code=code, params={"seat": winner, "count": count}))
            return _put(state, phase="over", winners=(winner,), end_reason=code, actions_left=0)
        if len(state.tiles) < TOTAL_TILES:
            log.add("enter_tile")
            return _put(state, phase="tiles", tiles_to_enter=1)
        if not state.businesses:
            log.add("victory_last_business", seat=winner)
            return _put(
                state, phase="over", winners=(winner,), end_reason="chicago_poker.victory_last_business", actions_left=0
            )
        return self._next_shootout_or_actions(state, log)

    # -- projection: the one place deciding what each audience sees --

    def legal(self, state: State, seat: int, public_only: bool = False) -> LegalMoves:
        if state.phase == "reveal":
            if public_only:  # the board's choices
                return LegalMoves(reveal=True, ready=len(state.ready) < state.players)
            return LegalMoves(ready=seat not in state.ready)
        if state.phase == "tiles":
            return LegalMoves(tiles=tuple(k for k in BUSINESS_TYPES if state.tiles.count(k) < TILES_PER_TYPE))
        if state.phase == "deck_card":
            return LegalMoves(deck_card_for=self.waiting_for(state))
        if state.phase == "reinforce":
            return LegalMoves(reinforce=not public_only and seat in self.waiting_for(state))
        if state.phase == "choose_shootout" and seat == state.current:
            return LegalMoves(shootouts=self.shootouts_due(state, seat))
        if state.phase != "actions" or seat != state.current:
            return LegalMoves()
        hand = state.hands[seat]
        can_end = hand <= HAND_LIMIT and (state.actions_left == 0 or not self.can_draw(state, seat))
        if state.actions_left == 0:
            return LegalMoves(end_turn=can_end)
        play: list[tuple[int, Face]] = []
        if hand > 0:
            for business in state.businesses:
                column = business.columns[seat]
                if len(column) < COLUMN_MAX:
                    face = face_of(business.kind, len(column) + 1)
                    if face == "up" or not public_only:
                        play.append((business.id, face))
        specials: tuple[SpecialKind, ...] = ()
        if hand > 0 and state.setup.special_cards:
            # Only the public discard pile counts here: which card a Bribe took is secret.
            specials = tuple(
                k
                for k in SPECIAL_KINDS
                if state.discard_specials.count(k) < SPECIAL_COPIES[k] and not (public_only and k == "bribe")
            )
        return LegalMoves(draw=self.can_draw(state, seat), end_turn=can_end, play=tuple(play), specials=specials)

    def project(self, state: State, audience: Audience) -> View:
        seat = audience.seat if audience.kind == "seat" else None
        in_shootout = state.shootout.business if state.shootout is not None and state.shootout.winner is None else None
        businesses = []
        for business in state.businesses:
            columns = []
            for owner, column in enumerate(business.columns):
                columns.append(
                    ColumnView(
                        seat=owner,
                        # A face-down card shows its back, even to its owner (their `me` lists it).
                        cards=tuple(CardView(face_up=p.face_up, card=p.card if p.face_up else None) for p in column),
                        marker=self.marked(state, owner, business.id),
                        next_face=face_of(business.kind, len(column) + 1) if len(column) < COLUMN_MAX else None,
                    )
                )
            businesses.append(
                BusinessView(
                    id=business.id,
                    kind=business.kind,
                    pattern=PATTERNS[business.kind],
                    columns=tuple(columns),
                    in_shootout=business.id == in_shootout,
                )
            )
        reinforcement = None
        if (state.phase in ("reinforce", "deck_card") or state.pending_reveal == "reinforcements") and state.shootout is not None:
            reinforcement = ReinforcementView(
                business=state.shootout.business,
                round=len(state.shootout.rounds) + 1,
                seats=state.reinforcing,
                picked=tuple(s for s in state.reinforcing if any(p.seat == s for p in state.picks)),
                deck_cards=tuple(
                    p for p in state.picks if p.source == "deck" and (p.card is not None or p.special is not None)
                ),
            )
        current = state.current
        board_legal = self.legal(state, current if current is not None else state.order[0], public_only=True)
        view = View(
            players=state.setup.players,
            bosses=state.setup.bosses,
            phase=state.phase,
            order=state.order,
            turn=state.turn,
            current=current,
            actions_left=state.actions_left,
            waiting_for=self.waiting_for(state),
            hands=state.hands,
            deck=state.deck,
            discard=state.discard,
            discard_specials=state.discard_specials,
            tiles_left=TOTAL_TILES - len(state.tiles),
            tiles_left_by_type=tuple((k, TILES_PER_TYPE - state.tiles.count(k)) for k in BUSINESS_TYPES),
            tiles_to_enter=state.tiles_to_enter if state.phase == "tiles" else 0,
            businesses=tuple(businesses),
            controlled=state.controlled,
            score=tuple(len(c) for c in state.controlled),
            shootout=state.shootout,
            reinforcement=reinforcement,
            shootouts=state.shootouts,
            winners=state.winners,
            end_reason=state.end_reason,
            hand_ranking=state.setup.ranking,
            short_game=state.setup.short_game,
            special_cards=state.setup.special_cards,
            special_reinforcement=state.setup.special_reinforcement,
            empty_hand_reinforcement=state.setup.empty_hand_reinforcement,
            awaiting_reveal=state.phase == "reveal",
            pending_reveal=state.pending_reveal,
            reveal_business=state.reveal_business,
            ready=state.ready,
            board_legal=board_legal,
        )
        if seat is None:
            return view
        return self.seat_view(state, seat, view)

    def seat_view(self, state: State, seat: int, board: View) -> View:
        """`seat`'s view drawn from the board's (`board`, `project(state, BOARD)`): its own
        part added. The room draws every phone's view from its one board view this way."""
        face_down = tuple(
            HiddenCard(business=b.id, position=i + 1, card=p.card)
            for b in state.businesses
            for i, p in enumerate(b.columns[seat])
            if not p.face_up
        )
        me = SeatPrivate(
            seat=seat,
            hand_size=state.hands[seat],
            face_down=face_down,
            raids=tuple(r for r in state.raids if r.raider == seat),
            bribed=tuple(b for b in state.bribed if b.seat == seat),
            my_pick=next((p for p in state.picks if p.seat == seat), None),
        )
        return board.model_copy(update={"me": me, "my_legal": self.legal(state, seat)})

    # -- room hooks --

    def is_public(self, action: Action) -> bool:
        return not isinstance(action, SECRET_ACTIONS)

    def host_only(self, action: Action) -> str | None:
        return "chicago_poker.err.host_reveals" if isinstance(action, Reveal) else None

    def redact(self, action: Action) -> dict[str, Any]:
        data = action.model_dump()
        if isinstance(action, SECRET_ACTIONS):
            data.pop("card", None)
            data.pop("special", None)
        return data

    def result(self, state: State) -> dict[str, Any] | None:
        if state.phase != "over":
            return None
        return {"score": [len(c) for c in state.controlled], "winners": list(state.winners)}

    # -- simulation --

    def standings(self, state: State) -> tuple[Standing, ...] | None:
        """Most businesses controlled; the game's own verdict decides the winners (docs/rules/chicago_poker.md#winning);
        how: the businesses each player controls, by kind."""
        result = self.result(state)
        if result is None:
            return None
        details = [
            [Detail(code="standing.chicago_poker.businesses", params={"n": len(tiles)})]
            + [
                Detail(code="standing.chicago_poker.business", params={"kind": kind, "n": sum(1 for t in tiles if t.kind == kind)})
                for kind in BUSINESS_TYPES
                if any(t.kind == kind for t in tiles)
            ]
            for tiles in state.controlled
        ]
        return ranked([(len(tiles),) for tiles in state.controlled], result["score"], result["winners"], "score", details)

    def random_action(self, state: State, rng: random.Random) -> Action | None:
        """A legal action, biased towards filling columns so that simulated games end."""
        if state.phase == "over":
            return None
        if state.phase == "tiles":
            left = [k for k in BUSINESS_TYPES for _ in range(TILES_PER_TYPE - state.tiles.count(k))]
            return RevealTile(by=self.waiting_for(state)[0], kind=rng.choice(left))
        if state.phase == "reveal":
            return Ready(by=rng.choice(self.waiting_for(state)))
        if state.phase == "choose_shootout":
            assert state.current is not None
            return ChooseShootout(by=state.current, business=rng.choice(self.shootouts_due(state, state.current)))
        if state.phase == "reinforce":
            seat = rng.choice(self.waiting_for(state))
            free, specials = self.hand_options(state, seat)
            if state.setup.special_reinforcement == "zero" and rng.random() < 0.1:
                if specials:
                    return Reinforce(by=seat, special=rng.choice(specials))
            if free and rng.random() < 0.95:
                return Reinforce(by=seat, card=rng.choice(free))
            return Reinforce(by=seat)
        if state.phase == "deck_card":
            seat = self.waiting_for(state)[0]
            options: list[Card | SpecialKind] = list(self.free_cards(state))  # from the deck: in nobody's hand
            options += [k for k in SPECIAL_KINDS if self.specials_available(state, k) > 0]
            return RevealDeckCard(by=seat, seat=seat, card=rng.choice(options))
        return self._random_turn_action(state, rng)

    def _random_turn_action(self, state: State, rng: random.Random) -> Action:
        seat = state.current
        assert seat is not None
        if state.actions_left == 0:
            return EndTurn(by=seat)
        legal = self.legal(state, seat)
        # The simulation knows where every copy is (a phone's list only knows the public pile).
        free, held = self.hand_options(state, seat)
        specials = [k for k in legal.specials if k in held]
        if legal.play and free and rng.random() < 0.75:
            # Prefer the business where this player already has the most cards.
            weights = [(len(self._business(state, b).columns[seat]) + 1) ** 2 for b, _ in legal.play]
            business, face = rng.choices(legal.play, weights=weights)[0]
            card = rng.choice(free)
            # Mostly copy the value another player has at this position, so that
            # simulated shootouts also end in ties and reinforcements.
            target = state.business(business)
            assert target is not None
            position = len(target.columns[seat])
            mirrors = {c[position].card.value for c in target.columns if len(c) > position}
            same_value = [c for c in free if c.value in mirrors]
            if same_value and rng.random() < 0.8:
                card = rng.choice(same_value)
            return (PlayFaceUp if face == "up" else PlayFaceDown)(by=seat, business=business, card=card)
        if specials and rng.random() < 0.15:
            special = self._random_special(state, seat, rng.choice(specials), rng)
            if special is not None:
                return special
        if legal.draw:
            return Draw(by=seat)
        if legal.play and free:
            business, face = rng.choice(legal.play)
            return (PlayFaceUp if face == "up" else PlayFaceDown)(by=seat, business=business, card=rng.choice(free))
        for kind in specials:
            special = self._random_special(state, seat, kind, rng)
            if special is not None:
                return special
        return EndTurn(by=seat)

    def _random_special(self, state: State, seat: int, kind: SpecialKind, rng: random.Random) -> Action | None:
        if kind == "revolver":
            return Revolver(by=seat)
        if kind == "bribe":
            if not self.can_get_back(state, seat, state.hands[seat], state.actions_left - 1):
                return None
            pile: list[Card | SpecialKind] = [*state.discard, *state.discard_specials]
            if not pile:
                return Bribe(by=seat)
            taken = rng.choice(pile)
            return Bribe(by=seat, special=taken) if isinstance(taken, str) else Bribe(by=seat, card=taken)
        if kind in ("liquidation", "police_raid"):
            targets = [
                (b.id, t)
                for b in state.businesses
                for t in range(state.players)
                if t != seat and b.columns[t] and (kind == "police_raid" or not self.marked(state, t, b.id))
            ]
            if not targets:
                return None
            business, target = rng.choice(targets)
            cls = Liquidation if kind == "liquidation" else PoliceRaid
            return cls(by=seat, business=business, target=target)
        # limousine
        moves = [
            (s, d)
            for s in state.businesses
            for d in state.businesses
            if s.id != d.id
            and s.columns[seat]
            and not self.marked(state, seat, s.id)
            and len(d.columns[seat]) < COLUMN_MAX
        ]
        if not moves:
            return None
        source, destination = rng.choice(moves)
        room = min(LIMOUSINE_MAX, COLUMN_MAX - len(destination.columns[seat]), len(source.columns[seat]))
        positions = rng.sample(range(1, len(source.columns[seat]) + 1), rng.randint(1, room))
        return Limousine(by=seat, source=source.id, destination=destination.id, positions=tuple(positions))


GAME = ChicagoPoker()
