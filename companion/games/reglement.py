"""Règlement de comptes (Dominique Ehrhard, Parker 1999): gangsters at a dinner table.

Rules: docs/rules/reglement.md (from the French rulebook). The board is data
(`companion/games/reglement_board.py`); the game's Setup carries the board it is played on.

The action cards are physical: players hold them in their hands and the app never deals them.
It learns a card when it is played (a public action naming the card and its targets), and keeps
count of the draw pile and the set-aside pile. The only secret the app holds is a player's
optional private note of the cards in their hand (`note_hand`, sent from their phone), which the
private rules helper (`View.my_options`) uses; nothing else about a hand is ever known.

A turn: (1) the player's own cake, if on the table, explodes (its seat and both neighbours die);
(2) income from the bank; (3) cards: one action card then optionally one Déplacement, or one or
two Déplacements, or set one card aside (then `end_turn`, which draws back up to five);
(4) the player's sleepers wake. Steps 1 and 2 are automatic; so is step 4 unless the table plays
the wake-up house rule "choose" (the rulebook's "vous pouvez maintenant le réveiller"): then,
once the cards are drawn, the turn waits in phase "wake" for the player's `wake` action naming
which of their sleepers wake (any, all or none). A player with nobody asleep skips it.

No action reveals a secret (the hand note is never shown to anyone else), so `Outcome.reveals`
stays False: a card played on the table can be taken back with the host's undo.

Module shape (same in every game): Setup, actions, State, views, MESSAGES, the engine class
with initial_state / apply / project / waiting_for / is_public / redact / result /
random_action, and GAME.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Annotated, Any, ClassVar, Literal, assert_never

from pydantic import Field, TypeAdapter, field_validator, model_validator

from companion.engine import Audience, Model, Outcome, RuleError, Ruling, rng_for
from companion.games.reglement_board import (
    BUSINESSES,
    ENGLISH,
    Board,
    Business,
    Direction,
    Problem,
    check_board_for_players,
    default_board,
)
from companion.players import Colour, Player, check_players
from companion.standings import Detail, Standing, ranked

# --- constants (docs/rules/reglement.md#setup, #income) -------------------------------------------

Kind = Literal["parrain", "flingueur", "lame", "cogneur"]
KINDS: tuple[Kind, ...] = ("parrain", "flingueur", "lame", "cogneur")
KIND_NAMES: dict[str, str] = {
    "parrain": "Parrain",
    "flingueur": "Flingueur",
    "lame": "Lame d'Acier",
    "cogneur": "Cogneur",
}
#: gangsters per player by player count, in KINDS order (6 players: the erratum's 1 Flingueur)
GANG_BY_PLAYERS: dict[int, tuple[int, int, int, int]] = {
    3: (1, 2, 2, 5),
    4: (1, 1, 2, 3),
    5: (1, 1, 1, 3),
    6: (1, 1, 1, 2),
}
BANK_BY_PLAYERS = {3: 120_000, 4: 90_000, 5: 70_000, 6: 60_000}
#: the preset seating's turn order starts with yellow (rulebook "Installation")
PRESET_FIRST_COLOUR = "yellow"
#: the box's gangs, largest first (RULES 4.2: yellow, red and blue have 10 gangsters, green 7,
#: orange 6, violet 5): n players play the first n (RULES 4.3), the only gangs with enough
#: pieces for each player's share (GANG_BY_PLAYERS)
GANG_COLOURS: tuple[Colour, ...] = ("yellow", "red", "blue", "green", "orange", "purple")

CardType = Literal["knife", "pan", "order_cake", "pass_cake", "boum", "pills", "alerte", "move"]
CARDS: tuple[CardType, ...] = ("knife", "pan", "order_cake", "pass_cake", "boum", "pills", "alerte", "move")
CARD_NAMES: dict[str, str] = {
    "knife": "Coup de couteau",
    "pan": "Pan!",
    "order_cake": "Commander un gâteau",
    "pass_cake": "Faites passer le gâteau",
    "boum": "Boum!",
    "pills": "Cocktail et somnifère",
    "alerte": "Alerte!",
    "move": "Déplacement",
}
DECK: dict[CardType, int] = {
    "pills": 6,
    "boum": 4,
    "order_cake": 8,
    "move": 16,
    "pan": 9,
    "knife": 9,
    "pass_cake": 6,
    "alerte": 2,
}
DECK_SIZE = sum(DECK.values())  # 60
HAND_SIZE = 5
MAX_PILLS = 3

PARRAIN_INCOME = 1_000
SEAT_INCOME = 1_000
MONOPOLY_INCOME = 4_000
REGISTER_FACTOR = 2


# --- setup -------------------------------------------------------------------------------------


class PresetGangster(Model):
    """One gangster of a saved seating: whose (player seat index), which type, on which seat."""

    player: int
    kind: Kind
    seat: str


class Setup(Model):
    players: tuple[Player, ...]
    #: the table this game is played on (recorded with the game)
    board: Board = Field(default_factory=default_board)
    #: "free": one gangster at a time counter-clockwise from `first_placer`, last placer starts;
    #: "preset": the gangsters start on `preset` (a seating the table saved earlier)
    seating: Literal["free", "preset"] = "free"
    #: free seating: the youngest player, who places first; None draws one through the seed
    first_placer: int | None = None
    preset: tuple[PresetGangster, ...] = ()
    #: preset seating: who starts; None = the yellow player if any, else seat 0
    first_player: int | None = None

    # house rules (docs/rules/reglement.md#house-rules); each default is the recommended reading
    #: the blast of a cake: its seat and both neighbours, or also the seat facing it
    blast: Literal["neighbours", "neighbours_and_facing"] = "neighbours"
    #: knife and blast reach only the adjacent seats ("no_skip"), or skip empty seats
    empty_neighbour: Literal["no_skip", "skip"] = "no_skip"
    #: Faites passer onto a gangster who already has a cake: skip on to the next gangster, or refuse
    pass_onto_cake: Literal["skip", "blocked"] = "skip"
    #: a cake blown up by Boum! returns to its owner, or leaves the game
    boumed_cake: Literal["returns", "removed"] = "returns"
    #: Alerte!: pills stay on their gangsters, or everyone wakes
    alerte_pills: Literal["stay", "removed"] = "stay"
    #: Alerte!: cakes stay on their seats, or go back to their owners
    alerte_cakes: Literal["stay", "returned"] = "stay"
    #: the played Alerte! card is set aside like any card (reshuffled later), or leaves the game
    alerte_card: Literal["reshuffled", "leaves_game"] = "reshuffled"
    #: sleeping gangsters (Parrain, business seats, cash register) earn nothing, or still earn
    sleepers_earn: Literal["no", "yes"] = "no"
    #: Coup de couteau and Pan! only hit opponents ("un adversaire"), or may hit your own
    own_targets: Literal["forbidden", "allowed"] = "forbidden"
    #: Cocktail et somnifère: 1 to 3 gangsters, or exactly 3 (fewer only if fewer can be reached)
    pills_per_card: Literal["up_to_3", "exactly_3"] = "up_to_3"
    #: step 4: all your sleepers wake; or "choose": after drawing, you pick which wake (the
    #: `wake` action, phase "wake"). "optional" is the older form of the same choice, carried by
    #: end_turn.wake (None wakes them all); it is kept so recorded games replay, not offered.
    wake_up: Literal["automatic", "choose", "optional"] = "automatic"
    #: free seating and Alerte! re-seating: one gangster at a time, or a whole gang at a time
    seating_order: Literal["one_at_a_time", "whole_gang"] = "one_at_a_time"
    #: money tied and both still in play: more living gangsters wins, or the win is shared
    tie_in_play: Literal["living_gangsters", "shared"] = "living_gangsters"

    @field_validator("players")
    @classmethod
    def _players(cls, players: tuple[Player, ...]) -> tuple[Player, ...]:
        return check_players(players, 3, 6)

    @model_validator(mode="after")
    def _fits(self) -> Setup:
        n = len(self.players)
        check_board_for_players(self.board, n, n * sum(GANG_BY_PLAYERS[n]))
        for name in ("first_placer", "first_player"):
            value = getattr(self, name)
            if value is not None and not 0 <= value < n:
                raise Problem(code=f"reglement.setup.err.{name}").error()
        if self.seating == "free" and self.preset:
            raise Problem(code="reglement.setup.err.preset_but_free").error()
        if self.seating == "preset":
            self._check_preset(n)
        return self

    def _check_preset(self, n: int) -> None:
        seats = [g.seat for g in self.preset]
        for seat in seats:
            if not self.board.has(seat):
                raise Problem(code="reglement.setup.err.preset_seat", params={"at": seat}).error()
        repeated = sorted(s for s, count in Counter(seats).items() if count > 1)
        if repeated:
            raise Problem(code="reglement.setup.err.preset_twice", params={"ids": ", ".join(repeated)}).error()
        if any(not 0 <= g.player < n for g in self.preset):
            raise Problem(code="reglement.setup.err.preset_player").error()
        counts = Counter((g.player, g.kind) for g in self.preset)
        for player in range(n):
            for kind, wanted in zip(KINDS, GANG_BY_PLAYERS[n], strict=True):
                if counts[(player, kind)] != wanted:
                    params = {"name": self.players[player].name, "count": counts[(player, kind)], "kind": kind, "wanted": wanted}
                    raise Problem(code="reglement.setup.err.preset_gang", params=params).error()


HOUSE_RULES: dict[str, tuple[str, ...]] = {
    "blast": ("neighbours", "neighbours_and_facing"),
    "empty_neighbour": ("no_skip", "skip"),
    "pass_onto_cake": ("skip", "blocked"),
    "boumed_cake": ("returns", "removed"),
    "alerte_pills": ("stay", "removed"),
    "alerte_cakes": ("stay", "returned"),
    "alerte_card": ("reshuffled", "leaves_game"),
    "sleepers_earn": ("no", "yes"),
    "own_targets": ("forbidden", "allowed"),
    "pills_per_card": ("up_to_3", "exactly_3"),
    # "optional" (Setup.wake_up) is left out: "choose" replaces it on the setup screen
    "wake_up": ("automatic", "choose"),
    "seating_order": ("one_at_a_time", "whole_gang"),
    "tie_in_play": ("living_gangsters", "shared"),
}

# --- actions -----------------------------------------------------------------------------------


class PlaceGangster(Model):
    """Free seating or Alerte! re-seating: put one of your unseated gangsters on an empty seat."""

    type: Literal["place"] = "place"
    by: int
    kind: Kind
    seat: str


class SeatAtRandom(Model):
    """Free seating in one tap: the app seats every gangster still waiting, at random, in the
    order free seating takes (one at a time counter-clockwise from `by`, the player placing now;
    or a whole gang at a time), so the last to place starts as usual. The draws come from the
    game's seed and the seating so far, so replaying the log seats everyone the same way."""

    type: Literal["seat_random"] = "seat_random"
    #: the seat that entered it, or None: the host board entered it for the table (log format 4)
    by: int | None = None


class Knife(Model):
    """Coup de couteau: kill the gangster at `target`, next to your Lame or knife seat `from_seat`
    (None: the engine finds one of yours that reaches)."""

    type: Literal["knife"] = "knife"
    by: int
    target: str
    from_seat: str | None = None


class Pan(Model):
    """Pan!: kill the gangster at `target`, facing your Flingueur or revolver seat `from_seat`."""

    type: Literal["pan"] = "pan"
    by: int
    target: str
    from_seat: str | None = None


class OrderCake(Model):
    """Commander un gâteau: put your cake on `seat`; it explodes at the start of your next turn."""

    type: Literal["order_cake"] = "order_cake"
    by: int
    seat: str


class PassCake(Model):
    """Faites passer le gâteau: move the opponent's cake at `cake_seat` to the nearest gangster
    in `direction`."""

    type: Literal["pass_cake"] = "pass_cake"
    by: int
    cake_seat: str
    direction: Direction


class Boum(Model):
    """Boum!: explode the opponent's cake at `cake_seat` now."""

    type: Literal["boum"] = "boum"
    by: int
    cake_seat: str


class Pills(Model):
    """Cocktail et somnifère: a pill for each gangster at `targets` (1 to 3 glass seats)."""

    type: Literal["pills"] = "pills"
    by: int
    targets: tuple[str, ...]


class Alerte(Model):
    """Alerte!: every gangster leaves the table; re-seating starts with you, counter-clockwise."""

    type: Literal["alerte"] = "alerte"
    by: int


class Move(Model):
    """Déplacement: move your awake gangster from `from_seat` to the empty seat `to_seat`."""

    type: Literal["move"] = "move"
    by: int
    from_seat: str
    to_seat: str


class Discard(Model):
    """Play nothing this turn: set one card aside (face down, so the app never learns it)."""

    type: Literal["discard"] = "discard"
    by: int


class EndTurn(Model):
    """Draw back up to five and end the turn. `wake`: with the older wake-up rule "optional", the
    seats of the sleepers to wake (None: all of them); with "choose" the `wake` action follows."""

    type: Literal["end_turn"] = "end_turn"
    by: int
    wake: tuple[str, ...] | None = None


class Wake(Model):
    """Step 4 with the wake-up house rule "choose": the seats of your sleepers who wake now
    (any of them, all, or none: empty); the others sleep on."""

    type: Literal["wake"] = "wake"
    by: int
    seats: tuple[str, ...] = ()


class NoteHand(Model):
    """Secret: the player's private note of the cards in their hand, for their phone's helper.
    Only the owner's phone may send it; it never changes the game."""

    type: Literal["note_hand"] = "note_hand"
    by: int
    cards: tuple[CardType, ...]


Action = Annotated[
    PlaceGangster | SeatAtRandom | Knife | Pan | OrderCake | PassCake | Boum | Pills | Alerte | Move | Discard | EndTurn | Wake | NoteHand,
    Field(discriminator="type"),
]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)

CARD_ACTIONS: dict[type, CardType] = {
    Knife: "knife",
    Pan: "pan",
    OrderCake: "order_cake",
    PassCake: "pass_cake",
    Boum: "boum",
    Pills: "pills",
    Alerte: "alerte",
    Move: "move",
}

# --- state -------------------------------------------------------------------------------------

#: "wake": step 4 with the house rule wake_up="choose", the turn's player chooses who wakes
Phase = Literal["seating", "play", "alerte", "wake", "over"]
EndReason = Literal["last_player", "bank_empty", "all_dead"]
TieBreak = Literal["money", "survival", "gangsters", "shared"]


class Gangster(Model):
    owner: int
    kind: Kind
    #: the seat id, or None while waiting to be seated (and once dead)
    seat: str | None = None
    asleep: bool = False
    alive: bool = True


class State(Model):
    setup: Setup
    seed: int
    phase: Phase
    gangsters: tuple[Gangster, ...]
    #: per player: the seat their cake is on, or None (in front of them, or gone)
    cakes: tuple[str | None, ...]
    #: per player: the cake left the game (house rule boumed_cake="removed")
    cakes_gone: tuple[bool, ...]
    money: tuple[int, ...]
    bank: int
    #: whose turn it is; during Alerte! re-seating, who played it; None during free seating
    turn: int | None = None
    turn_number: int = 0
    #: free seating and Alerte! re-seating: who places the next gangster
    placer: int | None = None
    #: cards played so far this turn, in order
    cards_played: tuple[CardType, ...] = ()
    discarded: bool = False
    draw_pile: int
    set_aside: int = 0
    #: when the set-aside cards become the new pile: as the last card of the pile is drawn (the
    #: rulebook), or only once a draw finds the pile short (logs of format 1 and 2 read so)
    reshuffle: Literal["last_card_drawn", "pile_short"] = "last_card_drawn"
    #: Alerte! cards out of the game (house rule alerte_card="leaves_game")
    removed_cards: int = 0
    #: SECRET: each player's private note of their hand (shown only in their own projection)
    hands: tuple[tuple[CardType, ...], ...]
    #: counts kill events, to tell who stayed in play longest
    moment: int = 0
    #: per player: the kill event that eliminated them (None: still in play)
    out_moment: tuple[int | None, ...]
    #: per player: how many gangsters they had on the table just before being eliminated
    out_gangsters: tuple[int, ...]
    ended_by: EndReason | None = None
    winners: tuple[int, ...] = ()
    tiebreak: TieBreak | None = None
    #: PUBLIC: the rulings since the current turn began (from the action that started it, so the
    #: previous player's wake-up comes first), for the board's step-by-step display; during
    #: seating, the seating so far. The initial state holds the opening rulings.
    turn_log: tuple[Ruling, ...] = ()
    #: index in `turn_log` of the first ruling of the latest action
    turn_log_new: int = 0

    @property
    def players(self) -> int:
        return len(self.setup.players)

    @property
    def board(self) -> Board:
        return self.setup.board


# --- views -------------------------------------------------------------------------------------


class SeatView(Model):
    id: str
    business: Business | None
    cash_register: bool
    glass: bool
    knife: bool
    revolver: bool
    no_shoot: bool
    faces: str | None
    x: float | None
    y: float | None
    #: index into View.gangsters of the gangster sitting here
    gangster: int | None
    #: the player whose cake is on this seat
    cake: int | None


class GangsterView(Model):
    index: int
    owner: int
    kind: Kind
    seat: str | None
    asleep: bool
    alive: bool


class GangView(Model):
    """A player's public standing."""

    seat: int
    money: int
    in_play: bool
    living: int
    asleep: int
    #: gangsters waiting to be seated (free seating, Alerte!), by type
    unseated: tuple[Kind, ...]
    cake_seat: str | None
    cake_in_hand: bool
    cake_gone: bool
    cards_in_hand: int


class Target(Model):
    """One legal use of a card right now, for the private rules helper."""

    card: CardType
    #: the victim's seat (knife, pan, pills), the cake's seat (boum, pass_cake), the seat a cake
    #: is ordered to (order_cake), or the destination (move)
    seat: str | None = None
    #: who owns the gangster or cake at `seat`, and the gangster's type
    owner: int | None = None
    kind: Kind | None = None
    asleep: bool = False
    #: your gangster doing it (knife, pan, move) and its type
    from_seat: str | None = None
    from_kind: Kind | None = None
    direction: Direction | None = None
    #: pass_cake: where the cake lands
    to_seat: str | None = None
    #: gangster indices this would kill (blasts, a second pill)
    kills: tuple[int, ...] = ()


class CardOptions(Model):
    card: CardType
    #: may the player play this card at this moment (their turn, card order)?
    playable_now: bool
    #: the error code explaining why not (None when playable)
    blocked: str | None = None
    #: copies in the player's private hand note
    in_hand: int = 0
    targets: tuple[Target, ...] = ()


class SeatPrivate(Model):
    seat: int
    #: the player's private note of their hand
    hand: tuple[CardType, ...]
    can_discard: bool
    can_end_turn: bool
    #: what they would earn if their income were paid now
    income_now: int


class View(Model):
    game: Literal["reglement"] = "reglement"
    players: tuple[Player, ...]
    board_name: str
    board_reconstructed: bool
    board_verified: bool
    phase: Phase
    turn: int | None
    turn_number: int
    waiting_for: tuple[int, ...]
    placer: int | None
    seats: tuple[SeatView, ...]
    gangsters: tuple[GangsterView, ...]
    gangs: tuple[GangView, ...]
    bank: int
    cards_played: tuple[CardType, ...]
    discarded: bool
    draw_pile: int
    set_aside: int
    removed_cards: int
    ended_by: EndReason | None
    winners: tuple[int, ...]
    tiebreak: TieBreak | None
    #: the rulings since the current turn began (public; see State.turn_log)
    turn_log: tuple[Ruling, ...] = ()
    #: index in `turn_log` of the first ruling of the latest action
    turn_log_new: int = 0
    #: the table's wake-up rule (public, like every house rule): how step 4 goes
    wake_up: Literal["automatic", "choose", "optional"] = "automatic"
    #: the seats of the current player's sleepers, among which they choose who wakes: in the wake
    #: step (house rule "choose"), or with the older "optional" rule during their turn (sent with
    #: end_turn). Public: the pills lie on the table for everyone to see.
    wake_choices: tuple[str, ...] = ()
    #: the board's projection only: what the current player may do with each card right now,
    #: from the public table alone (no hand note), so the host board can highlight legal targets
    turn_options: tuple[CardOptions, ...] | None = None
    #: present only in a seat's own projection
    me: SeatPrivate | None = None
    my_options: tuple[CardOptions, ...] | None = None


# --- messages (English templates; catalogues translate them) -----------------------------------

MESSAGES: dict[str, str] = {
    # rulings
    "reglement.seating_started": "Free seating: {seat:seat} places first, then one gangster at a time counter-clockwise.",
    "reglement.seating_started_gangs": "Free seating: {seat:seat} places their whole gang first, then the others counter-clockwise.",
    "reglement.gangster_placed": "{seat:seat} seats their {kind:label=reglement.kind} at {at}.",
    "reglement.seated_at_random": "{seat:seat} has the app seat every gangster still waiting, at random: copy the board onto the table.",
    "reglement.board_seated_at_random": "The board seats every gangster still waiting, at random: copy the board onto the table.",
    "reglement.seating_done": "Everyone is seated. {seat:seat} placed last and starts; play runs clockwise.",
    "reglement.preset_seating": "The gangsters take their preset seats. {seat:seat} starts; play runs clockwise.",
    "reglement.turn_started": "Turn {number}: {seat:seat} plays.",
    "reglement.cake_exploded": "{owner_seat:seat}'s cake explodes at {at} and goes back to its owner.",
    "reglement.cake_exploded_gone": "{owner_seat:seat}'s cake explodes at {at} and leaves the game.",
    "reglement.blast_nobody": "Nobody was sitting in the blast.",
    "reglement.killed": "{owner_seat:seat}'s {kind:label=reglement.kind} at {at} is killed.",
    "reglement.killed_by_pill": "{owner_seat:seat}'s {kind:label=reglement.kind} at {at} was already asleep: the second pill kills him.",
    "reglement.fell_asleep": "{owner_seat:seat}'s {kind:label=reglement.kind} at {at} falls asleep.",
    "reglement.player_out": "{seat:seat} has no gangsters left and is out; their money still counts.",
    "reglement.income": "{seat:seat} earns {amount:money} (Parrain {parrain_amount:money}, businesses {business_amount:money}).",
    "reglement.income_doubled": "{seat:seat} earns {amount:money}: Parrain {parrain_amount:money} and businesses {business_amount:money}, doubled by the cash register at {at}.",
    "reglement.income_none": "{seat:seat} earns nothing this turn.",
    "reglement.bank_short": "The bank holds only {amount:money} of the {due_amount:money} due: {seat:seat} takes what is left.",
    "reglement.played_knife": "{seat:seat} plays Coup de couteau: their {from_kind:label=reglement.kind} at {from_at} stabs {target_seat:seat}'s {kind:label=reglement.kind} at {at}.",
    "reglement.played_pan": "{seat:seat} plays Pan!: their {from_kind:label=reglement.kind} at {from_at} shoots {target_seat:seat}'s {kind:label=reglement.kind} at {at}.",
    "reglement.played_order_cake": "{seat:seat} orders a cake at {at}; it explodes at the start of their next turn.",
    "reglement.played_pass_cake_clockwise": "{seat:seat} passes {owner_seat:seat}'s cake clockwise from {from_at} to {at}.",
    "reglement.played_pass_cake_counterclockwise": "{seat:seat} passes {owner_seat:seat}'s cake counter-clockwise from {from_at} to {at}.",
    "reglement.played_boum": "{seat:seat} plays Boum! on {owner_seat:seat}'s cake at {at}.",
    "reglement.played_pills": "{seat:seat} plays Cocktail et somnifère on {ats}.",
    "reglement.played_alerte": "{seat:seat} plays Alerte!: every gangster leaves the table. Re-seating starts with {seat:seat}, counter-clockwise.",
    "reglement.alerte_done": "Everyone is back at the table. {seat:seat} may still play a Déplacement.",
    "reglement.played_move": "{seat:seat} moves their {kind:label=reglement.kind} from {from_at} to {at}.",
    "reglement.discarded": "{seat:seat} plays nothing and sets one card aside.",
    "reglement.drew": "{seat:seat} draws {count:plural:one=# card|other=# cards} back up to 5.",
    "reglement.reshuffled": "The draw pile is empty: {count:plural:one=the # set-aside card is|other=the # set-aside cards are} shuffled into a new pile.",
    "reglement.woke": "{seat:seat}'s gangsters at {ats} wake up.",
    "reglement.wake_step": "Wake-up: {seat:seat} chooses which of their sleeping gangsters wake (at {ats}).",
    "reglement.slept_on": "{seat:seat} lets their gangsters at {ats} sleep on.",
    "reglement.game_over_last_player": "Only {seat:seat} still has gangsters and takes the {amount:money} left in the bank.",
    "reglement.game_over_bank_empty": "The bank is empty: the game is over.",
    "reglement.game_over_all_dead": "The last gangsters died in one explosion: the game is over.",
    "reglement.winners": "Winner: {seats:seats} with {amount:money}.",
    "reglement.tiebreak_survival": "Tied on money: {seats:seats} won because their gang stayed in play longest.",
    "reglement.tiebreak_gangsters": "Tied on money and survival: {seats:seats} won with more gangsters on the table.",
    "reglement.tiebreak_shared": "Tied on every count: {seats:seats} share the win.",
    # errors
    "reglement.err.nothing_to_reveal": "Nothing is hidden in this game: there is nothing to reveal.",
    "reglement.err.game_over": "The game is over.",
    "reglement.err.unknown_player": "There is no player {seat}.",
    # setup problems (shown when a game cannot start; see reglement_board.Problem)
    "reglement.setup.err.first_placer": "the first placer must be one of the players",
    "reglement.setup.err.first_player": "the first player must be one of the players",
    "reglement.setup.err.preset_but_free": "a preset seating was given but seating is free",
    "reglement.setup.err.preset_seat": "the preset uses seat {at}, which is not on this board",
    "reglement.setup.err.preset_twice": "the preset puts two gangsters on seat {ids}",
    "reglement.setup.err.preset_player": "the preset names a player who is not in this game",
    "reglement.setup.err.preset_gang": "the preset gives {name} {count} {kind:label=reglement.kind}, not {wanted}",
    "reglement.err.wrong_phase": "That is not possible now: the game is at {phase:label=reglement.phase}.",
    "reglement.err.not_your_turn": "It is {expected:seat}'s turn, not yours.",
    "reglement.err.no_such_seat": "There is no seat {at} on this board.",
    "reglement.err.seat_taken": "Seat {at} is not empty.",
    "reglement.err.none_left_to_place": "You have no {kind:label=reglement.kind} left to seat.",
    "reglement.err.card_limit": "Two cards have already been played this turn.",
    "reglement.err.second_action": "Only one action card per turn: the second card must be a Déplacement.",
    "reglement.err.action_after_move": "After a Déplacement, no action card may be played this turn.",
    "reglement.err.already_discarded": "A card was set aside this turn: no card can be played too.",
    "reglement.err.discard_after_play": "A card was played this turn: none can be set aside too.",
    "reglement.err.nothing_played": "Play a card or set one aside before ending the turn.",
    "reglement.err.empty_seat": "Nobody is sitting at {at}.",
    "reglement.err.own_gangster": "The gangster at {at} is one of yours: this card only hits opponents.",
    "reglement.err.not_your_gangster": "The gangster at {at} is not one of yours.",
    "reglement.err.asleep_cannot_kill": "Your gangster at {at} is asleep: a sleeping gangster cannot kill.",
    "reglement.err.asleep_cannot_move": "Your gangster at {at} is asleep: a sleeping gangster cannot move.",
    "reglement.err.no_blade": "Your {kind:label=reglement.kind} at {at} has no knife: only a Lame d'Acier or a gangster at a knife seat can stab.",
    "reglement.err.not_next_to": "{at} is not next to your gangster at {from_at}.",
    "reglement.err.no_gun": "Your {kind:label=reglement.kind} at {at} cannot shoot: only a Flingueur or a gangster at a revolver seat can.",
    "reglement.err.x_seat": "Your Flingueur at {at} sits on a seat marked X and cannot shoot.",
    "reglement.err.not_facing": "{at} is not facing your gangster at {from_at}.",
    "reglement.err.out_of_reach": "None of your awake gangsters can reach {at} with {card:label=reglement.card}.",
    "reglement.err.cake_on_table": "Your cake is already on the table at {at}.",
    "reglement.err.cake_gone": "Your cake has left the game.",
    "reglement.err.seat_has_cake": "There is already a cake at {at}.",
    "reglement.err.no_cake_there": "There is no cake at {at}.",
    "reglement.err.own_cake": "The cake at {at} is yours: this card only works on an opponent's cake.",
    "reglement.err.pass_nowhere": "The cake at {at} cannot be passed that way: there is no gangster without a cake to pass it to.",
    "reglement.err.pill_count": "Cocktail et somnifère takes {low} to {high} different gangsters, not {count}.",
    "reglement.err.pill_twice": "At most one pill per gangster per card: {at} is named twice.",
    "reglement.err.no_glass": "There is no glass at {at}: pills only reach gangsters with a glass in front of them.",
    "reglement.err.wake_automatic": "Your sleepers all wake up on their own; there is nothing to choose.",
    "reglement.err.not_your_sleeper": "There is no sleeping gangster of yours at {at}.",
    "reglement.err.not_waking": "Nobody is choosing who wakes now: that comes at the end of a turn, after drawing.",
    "reglement.err.wake_with_end_turn": "At this table you choose who wakes as you end your turn.",
    "reglement.err.wake_is_a_step": "At this table you choose who wakes after drawing, as a step of its own.",
    "reglement.err.wake_twice": "{at} is named twice: each sleeper wakes once.",
    "reglement.err.player_out": "You are out of the game.",
    "reglement.err.hand_too_big": "A hand holds at most 5 cards, not {count}.",
    # names
    "reglement.kind.parrain": "Parrain",
    "reglement.kind.flingueur": "Flingueur",
    "reglement.kind.lame": "Lame d'Acier",
    "reglement.kind.cogneur": "Cogneur",
    **{f"reglement.card.{card}": name for card, name in CARD_NAMES.items()},
    "reglement.business.bar": "bar",
    "reglement.business.restaurant": "restaurant",
    "reglement.business.gambling": "gambling house",
    "reglement.mark.cash_register": "cash register",
    "reglement.mark.glass": "glass",
    "reglement.mark.knife": "knife",
    "reglement.mark.revolver": "revolver",
    "reglement.mark.no_shoot": "X (no shooting)",
    "reglement.mark.faces": "faces",
    "reglement.direction.clockwise": "clockwise",
    "reglement.direction.counterclockwise": "counter-clockwise",
    "reglement.phase.seating": "seating",
    "reglement.phase.play": "play",
    "reglement.phase.alerte": "Alerte! re-seating",
    "reglement.phase.wake": "wake-up",
    "reglement.phase.over": "game over",
    "reglement.end.last_player": "one gang left",
    "reglement.end.bank_empty": "the bank is empty",
    "reglement.end.all_dead": "the last gangsters were blown up",
    # the house rules: one label per rule and per value (the setup form, and the rule card's house rules)
    "reglement.rule.blast": "Blast of a cake",
    "reglement.rule.blast.neighbours": "its seat and both neighbours (recommended)",
    "reglement.rule.blast.neighbours_and_facing": "also the seat facing it",
    "reglement.rule.empty_neighbour": "Empty seat next to a knife or a blast",
    "reglement.rule.empty_neighbour.no_skip": "only the adjacent seats count (recommended)",
    "reglement.rule.empty_neighbour.skip": "skip empty seats to the nearest gangster",
    "reglement.rule.pass_onto_cake": "Passing a cake onto a gangster who has one",
    "reglement.rule.pass_onto_cake.skip": "skip on to the next gangster (recommended)",
    "reglement.rule.pass_onto_cake.blocked": "not allowed that way",
    "reglement.rule.boumed_cake": "A cake blown up by Boum!",
    "reglement.rule.boumed_cake.returns": "returns to its owner (recommended)",
    "reglement.rule.boumed_cake.removed": "leaves the game",
    "reglement.rule.alerte_pills": "Alerte!: sleeping pills",
    "reglement.rule.alerte_pills.stay": "stay on their gangsters (recommended)",
    "reglement.rule.alerte_pills.removed": "are removed: everyone wakes",
    "reglement.rule.alerte_cakes": "Alerte!: cakes on the table",
    "reglement.rule.alerte_cakes.stay": "stay on their seats (recommended)",
    "reglement.rule.alerte_cakes.returned": "go back to their owners",
    "reglement.rule.alerte_card": "The played Alerte! card",
    "reglement.rule.alerte_card.reshuffled": "is set aside like any card (recommended)",
    "reglement.rule.alerte_card.leaves_game": "leaves the game",
    "reglement.rule.sleepers_earn": "Sleeping gangsters earn",
    "reglement.rule.sleepers_earn.no": "nothing (recommended)",
    "reglement.rule.sleepers_earn.yes": "as if awake",
    "reglement.rule.own_targets": "Coup de couteau and Pan! on your own gangsters",
    "reglement.rule.own_targets.forbidden": "forbidden: opponents only (recommended)",
    "reglement.rule.own_targets.allowed": "allowed",
    "reglement.rule.pills_per_card": "Cocktail et somnifère",
    "reglement.rule.pills_per_card.up_to_3": "1 to 3 gangsters (recommended)",
    "reglement.rule.pills_per_card.exactly_3": "exactly 3 when 3 can be reached",
    "reglement.rule.wake_up": "Wake-up at the end of a turn",
    "reglement.rule.wake_up.automatic": "all your sleepers wake (recommended)",
    "reglement.rule.wake_up.optional": "you choose who wakes",
    "reglement.rule.wake_up.choose": "you choose who wakes: any, all or none",
    "reglement.rule.seating_order": "Seating (free and after Alerte!)",
    "reglement.rule.seating_order.one_at_a_time": "one gangster at a time (recommended)",
    "reglement.rule.seating_order.whole_gang": "a whole gang at a time",
    "reglement.rule.tie_in_play": "Tied on money, both still in play",
    "reglement.rule.tie_in_play.living_gangsters": "more living gangsters wins (recommended)",
    "reglement.rule.tie_in_play.shared": "the win is shared",
}
# Problem.english words the setup problems (and the labels they name) from these too.
ENGLISH.update(MESSAGES)


# --- pure helpers on a state ---------------------------------------------------------------------


def seated(state: State) -> dict[str, int]:
    """Seat id -> index of the living gangster sitting there."""
    return {g.seat: i for i, g in enumerate(state.gangsters) if g.alive and g.seat is not None}


def cakes_on_table(state: State) -> dict[str, int]:
    """Seat id -> owner of the cake on it."""
    return {seat: owner for owner, seat in enumerate(state.cakes) if seat is not None}


def in_play(state: State, player: int) -> bool:
    return state.out_moment[player] is None


def living(state: State, player: int) -> list[int]:
    return [i for i, g in enumerate(state.gangsters) if g.alive and g.owner == player]


def hand_count(state: State, player: int) -> int:
    """Cards in a hand: 5, less what the current player has used this turn; 0 once out."""
    if not in_play(state, player):
        return 0
    if player == state.turn:
        return HAND_SIZE - len(state.cards_played) - int(state.discarded)
    return HAND_SIZE


class Income(Model):
    parrain: int
    businesses: int
    #: the cash register seat held by an earning gangster, if any
    cash_register: str | None
    total: int


def income(state: State, player: int) -> Income:
    """docs/rules/reglement.md#income: Parrain 1,000; per business 1,000 a seat or 4,000 for both; register ×2."""
    earning = [
        g
        for g in state.gangsters
        if g.owner == player and g.alive and g.seat is not None and (not g.asleep or state.setup.sleepers_earn == "yes")
    ]
    parrain = PARRAIN_INCOME if any(g.kind == "parrain" for g in earning) else 0
    held = [state.board.seat(g.seat) for g in earning if g.seat is not None]
    businesses = 0
    for business in BUSINESSES:
        count = sum(1 for seat in held if seat.business == business)
        businesses += MONOPOLY_INCOME if count >= 2 else SEAT_INCOME * count
    register = next((seat.id for seat in held if seat.cash_register), None)
    base = parrain + businesses
    return Income(
        parrain=parrain, businesses=businesses, cash_register=register, total=base * (REGISTER_FACTOR if register else 1)
    )


def nearest_occupied(state: State, seat: str, direction: Direction | int) -> str | None:
    """The first seat holding a gangster going round from `seat` (not `seat` itself)."""
    occupied = seated(state)
    here = seat
    for _ in range(len(state.board.seats) - 1):
        here = state.board.step(here, direction)
        if here in occupied:
            return here
    return None


def sides(state: State, seat: str) -> tuple[str | None, str | None]:
    """The seats a knife or a blast reaches either side of `seat`: the adjacent seats, or with
    the house rule empty_neighbour="skip" the nearest gangster each way."""
    if state.setup.empty_neighbour == "skip":
        return nearest_occupied(state, seat, -1), nearest_occupied(state, seat, 1)
    return state.board.neighbours(seat)


def blast_seats(state: State, cake_seat: str) -> tuple[str, ...]:
    """The cake's seat between its two sides (in ring order), and (house rule) the seat facing it."""
    left, right = sides(state, cake_seat)
    seats = [left, cake_seat, right]
    if state.setup.blast == "neighbours_and_facing":
        seats.append(state.board.faces(cake_seat))
    return tuple(dict.fromkeys(s for s in seats if s is not None))


def pass_destination(state: State, cake_seat: str, direction: Direction) -> str | None:
    """Where Faites passer le gâteau lands: the nearest gangster that way without a cake."""
    occupied, cakes = seated(state), cakes_on_table(state)
    here = cake_seat
    for _ in range(len(state.board.seats) - 1):
        here = state.board.step(here, direction)
        if here not in occupied:
            continue
        if here not in cakes:
            return here
        if state.setup.pass_onto_cake == "blocked":
            return None
    return None


def can_stab(state: State, gangster: Gangster) -> bool:
    """A Lame d'Acier, or any gangster at a knife seat (awake or not: callers check that)."""
    return gangster.seat is not None and (gangster.kind == "lame" or state.board.seat(gangster.seat).knife)


def can_shoot(state: State, gangster: Gangster) -> bool:
    """Any gangster at a revolver seat, or a Flingueur not sitting on an X seat."""
    if gangster.seat is None:
        return False
    seat = state.board.seat(gangster.seat)
    return seat.revolver or (gangster.kind == "flingueur" and not seat.no_shoot)


def attack_reach(state: State, card: CardType, seat: str) -> tuple[str, ...]:
    """Seats a knife (either side) or a gun (the facing seat) at `seat` can hit."""
    if card == "knife":
        return tuple(dict.fromkeys(s for s in sides(state, seat) if s is not None and s != seat))
    facing = state.board.faces(seat)
    return (facing,) if facing is not None else ()


def pill_low_high(state: State, reachable: int) -> tuple[int, int]:
    """How many pills one card gives: 1 to 3, or (house rule) exactly 3 unless fewer opponents
    sit at glasses."""
    if state.setup.pills_per_card == "exactly_3":
        exact = max(1, min(MAX_PILLS, reachable))
        return exact, exact
    return 1, MAX_PILLS


# --- the engine --------------------------------------------------------------------------------


class Reglement:
    id: ClassVar[str] = "reglement"
    setup_model = Setup
    action_model = Action
    action_adapter = ACTION_ADAPTER
    state_model = State
    view_model = View
    messages = MESSAGES
    house_rules = HOUSE_RULES
    min_players, max_players = 3, 6

    def player_colours(self, players: int) -> tuple[Colour, ...] | None:
        return GANG_COLOURS[:players]

    # -- setup --

    def initial_state(self, setup: Setup, seed: int) -> State:
        state, rulings = self._opening(setup, seed)
        return state.model_copy(update={"turn_log": tuple(rulings), "turn_log_new": 0})

    def opening_rulings(self, state: State) -> tuple[Ruling, ...]:
        """What the board shows for the initial state (initial_state itself returns no rulings):
        who seats first, or, with a preset seating, the first turn's start and income."""
        return tuple(self._opening(state.setup, state.seed)[1])

    def _log(self, before: State, after: State, rulings: list[Ruling]) -> State:
        """Keep the public turn log: an action that starts a turn starts it afresh (with its own
        rulings, so the previous player's draw and wake-up come first); any other action appends.
        A secret action (note_hand) has no rulings and leaves it alone."""
        if not rulings:
            return after
        if any(r.code == "reglement.turn_started" for r in rulings):
            return after.model_copy(update={"turn_log": tuple(rulings), "turn_log_new": 0})
        return after.model_copy(
            update={"turn_log": before.turn_log + tuple(rulings), "turn_log_new": len(before.turn_log)}
        )

    def _opening(self, setup: Setup, seed: int) -> tuple[State, list[Ruling]]:
        n = len(setup.players)
        gangsters = tuple(
            Gangster(owner=player, kind=kind)
            for player in range(n)
            for kind, count in zip(KINDS, GANG_BY_PLAYERS[n], strict=True)
            for _ in range(count)
        )
        state = State(
            setup=setup,
            seed=seed,
            phase="seating",
            gangsters=gangsters,
            cakes=(None,) * n,
            cakes_gone=(False,) * n,
            money=(0,) * n,
            bank=BANK_BY_PLAYERS[n],
            draw_pile=DECK_SIZE - HAND_SIZE * n,
            hands=((),) * n,
            out_moment=(None,) * n,
            out_gangsters=(0,) * n,
        )
        if setup.seating == "preset":
            return self._seat_preset(state)
        first = setup.first_placer
        if first is None:
            first = rng_for(seed, "first_placer").randrange(n)
        whole = setup.seating_order == "whole_gang"
        code = "reglement.seating_started_gangs" if whole else "reglement.seating_started"
        return state.model_copy(update={"placer": first}), [Ruling(code=code, params={"seat": first})]

    def _seat_preset(self, state: State) -> tuple[State, list[Ruling]]:
        setup = state.setup
        gangsters = list(state.gangsters)
        for placement in setup.preset:
            index = next(
                i
                for i, g in enumerate(gangsters)
                if g.owner == placement.player and g.kind == placement.kind and g.seat is None
            )
            gangsters[index] = gangsters[index].model_copy(update={"seat": placement.seat})
        first = setup.first_player
        if first is None:
            colours = [p.colour for p in setup.players]
            first = colours.index(PRESET_FIRST_COLOUR) if PRESET_FIRST_COLOUR in colours else 0
        state = state.model_copy(update={"gangsters": tuple(gangsters)})
        rulings = [Ruling(code="reglement.preset_seating", params={"seat": first})]
        return self._begin_turn(state, first, rulings), rulings

    # -- who acts --

    def waiting_for(self, state: State) -> tuple[int, ...]:
        if state.phase in ("seating", "alerte"):
            return (state.placer,) if state.placer is not None else ()
        if state.phase in ("play", "wake") and state.turn is not None:
            return (state.turn,)
        return ()

    # -- apply --

    def apply(self, state: State, action: Action) -> Outcome[State]:
        if state.phase == "over":
            raise RuleError("reglement.err.game_over")
        if action.by is not None and not 0 <= action.by < state.players:
            raise RuleError("reglement.err.unknown_player", seat=action.by)
        rulings: list[Ruling] = []
        match action:
            case PlaceGangster():
                new = self._place(state, action, rulings)
            case SeatAtRandom():
                new = self._seat_random(state, action, rulings)
            case Knife() | Pan():
                new = self._attack(state, action, rulings)
            case OrderCake():
                new = self._order_cake(state, action, rulings)
            case PassCake():
                new = self._pass_cake(state, action, rulings)
            case Boum():
                new = self._boum(state, action, rulings)
            case Pills():
                new = self._pills(state, action, rulings)
            case Alerte():
                new = self._alerte(state, action, rulings)
            case Move():
                new = self._move(state, action, rulings)
            case Discard():
                new = self._discard(state, action, rulings)
            case EndTurn():
                new = self._end_turn(state, action, rulings)
            case Wake():
                new = self._wake(state, action, rulings)
            case NoteHand():
                new = self._note_hand(state, action, rulings)
            case _:
                assert_never(action)
        return Outcome(state=self._log(state, new, rulings), rulings=tuple(rulings))

    # validation helpers (each raises before anything changes)

    def _seat_id(self, state: State, seat: str) -> str:
        if not state.board.has(seat):
            raise RuleError("reglement.err.no_such_seat", at=seat)
        return seat

    def _occupant(self, state: State, seat: str) -> int:
        index = seated(state).get(self._seat_id(state, seat))
        if index is None:
            raise RuleError("reglement.err.empty_seat", at=seat)
        return index

    def _own_awake(self, state: State, player: int, seat: str, asleep_code: str) -> int:
        index = self._occupant(state, seat)
        gangster = state.gangsters[index]
        if gangster.owner != player:
            raise RuleError("reglement.err.not_your_gangster", at=seat)
        if gangster.asleep:
            raise RuleError(asleep_code, at=seat)
        return index

    def card_problem(self, state: State, player: int, card: CardType) -> RuleError | None:
        """Why `player` may not play `card` at this moment (turn and card order), or None."""
        if state.phase == "over":
            return RuleError("reglement.err.game_over")
        if state.phase != "play":
            return RuleError("reglement.err.wrong_phase", phase=state.phase)
        if player != state.turn:
            return RuleError("reglement.err.not_your_turn", expected=state.turn)
        if state.discarded:
            return RuleError("reglement.err.already_discarded")
        played = state.cards_played
        if len(played) >= 2:
            return RuleError("reglement.err.card_limit")
        if card != "move" and played:
            code = "reglement.err.action_after_move" if "move" in played else "reglement.err.second_action"
            return RuleError(code)
        return None

    def _check_card(self, state: State, player: int, card: CardType) -> None:
        problem = self.card_problem(state, player, card)
        if problem is not None:
            raise problem

    def _check_turn(self, state: State, player: int) -> None:
        if state.phase != "play":
            raise RuleError("reglement.err.wrong_phase", phase=state.phase)
        if player != state.turn:
            raise RuleError("reglement.err.not_your_turn", expected=state.turn)

    # -- seating (free seating and Alerte! re-seating) --

    def unseated(self, state: State, player: int) -> list[int]:
        return [i for i, g in enumerate(state.gangsters) if g.owner == player and g.alive and g.seat is None]

    def _next_placer(self, state: State, current: int) -> int | None:
        """Counter-clockwise from `current`, the next player with a gangster still to seat."""
        if state.setup.seating_order == "whole_gang" and self.unseated(state, current):
            return current
        for step in range(1, state.players + 1):
            player = (current - step) % state.players
            if self.unseated(state, player):
                return player
        return None

    def _place(self, state: State, action: PlaceGangster, rulings: list[Ruling]) -> State:
        if state.phase not in ("seating", "alerte"):
            raise RuleError("reglement.err.wrong_phase", phase=state.phase)
        if action.by != state.placer:
            raise RuleError("reglement.err.not_your_turn", expected=state.placer)
        seat = self._seat_id(state, action.seat)
        if seat in seated(state):
            raise RuleError("reglement.err.seat_taken", at=seat)
        index = next((i for i in self.unseated(state, action.by) if state.gangsters[i].kind == action.kind), None)
        if index is None:
            raise RuleError("reglement.err.none_left_to_place", kind=action.kind)
        gangsters = list(state.gangsters)
        gangsters[index] = gangsters[index].model_copy(update={"seat": seat})
        state = state.model_copy(update={"gangsters": tuple(gangsters)})
        rulings.append(
            Ruling(code="reglement.gangster_placed", params={"seat": action.by, "kind": action.kind, "at": seat})
        )
        placer = self._next_placer(state, action.by)
        if placer is not None:
            return state.model_copy(update={"placer": placer})
        state = state.model_copy(update={"placer": None})
        if state.phase == "seating":
            rulings.append(Ruling(code="reglement.seating_done", params={"seat": action.by}))
            return self._begin_turn(state, action.by, rulings)
        rulings.append(Ruling(code="reglement.alerte_done", params={"seat": state.turn}))
        return state.model_copy(update={"phase": "play"})

    def _seat_random(self, state: State, action: SeatAtRandom, rulings: list[Ruling]) -> State:
        """Each gangster still waiting, in free seating's order: a random one of the placer's on a
        random empty seat, placed as `place` would (the same rulings, the same end of seating)."""
        if state.phase != "seating":
            raise RuleError("reglement.err.wrong_phase", phase=state.phase)
        if action.by is not None and action.by != state.placer:
            raise RuleError("reglement.err.not_your_turn", expected=state.placer)
        rng = rng_for(state.seed, "seat_random", len(seated(state)))
        if action.by is None:
            rulings.append(Ruling(code="reglement.board_seated_at_random"))
        else:
            rulings.append(Ruling(code="reglement.seated_at_random", params={"seat": action.by}))
        while state.phase == "seating" and state.placer is not None:
            player = state.placer
            index = rng.choice(self.unseated(state, player))
            empty = [s for s in state.board.ids if s not in seated(state)]
            place = PlaceGangster(by=player, kind=state.gangsters[index].kind, seat=rng.choice(empty))
            state = self._place(state, place, rulings)
        return state

    # -- turn steps 1, 2 and 4 --

    def _next_in_play(self, state: State, after: int) -> int:
        for step in range(1, state.players + 1):
            player = (after + step) % state.players
            if in_play(state, player):
                return player
        raise AssertionError("no player in play")  # the game ends before this can happen

    def _begin_turn(self, state: State, player: int, rulings: list[Ruling]) -> State:
        state = state.model_copy(
            update={
                "phase": "play",
                "turn": player,
                "turn_number": state.turn_number + 1,
                "cards_played": (),
                "discarded": False,
            }
        )
        rulings.append(Ruling(code="reglement.turn_started", params={"seat": player, "number": state.turn_number}))
        # step 1: the cake this player ordered last turn explodes
        if state.cakes[player] is not None:
            state = self._explode(state, player, rulings, boum=False)
            if state.phase == "over":
                return state
            if not in_play(state, player):
                return self._begin_turn(state, self._next_in_play(state, player), rulings)
        # step 2: income
        return self._pay_income(state, player, rulings)

    def _pay_income(self, state: State, player: int, rulings: list[Ruling]) -> State:
        earned = income(state, player)
        if earned.total == 0:
            rulings.append(Ruling(code="reglement.income_none", params={"seat": player}))
            return state
        paid = min(earned.total, state.bank)
        money = list(state.money)
        money[player] += paid
        params = {
            "seat": player,
            "amount": paid,
            "parrain_amount": earned.parrain,
            "business_amount": earned.businesses,
        }
        if earned.cash_register:
            rulings.append(Ruling(code="reglement.income_doubled", params={**params, "at": earned.cash_register}))
        else:
            rulings.append(Ruling(code="reglement.income", params=params))
        state = state.model_copy(update={"money": tuple(money), "bank": state.bank - paid})
        if paid < earned.total:
            rulings.append(
                Ruling(code="reglement.bank_short", params={"seat": player, "amount": paid, "due_amount": earned.total})
            )
        if state.bank == 0:
            return self._finish(state, "bank_empty", rulings)
        return state

    def _explode(self, state: State, owner: int, rulings: list[Ruling], *, boum: bool) -> State:
        seat = state.cakes[owner]
        assert seat is not None
        gone = boum and state.setup.boumed_cake == "removed"
        code = "reglement.cake_exploded_gone" if gone else "reglement.cake_exploded"
        rulings.append(Ruling(code=code, params={"owner_seat": owner, "at": seat}))
        victims = blast_seats(state, seat)
        cakes = list(state.cakes)
        cakes[owner] = None
        cakes_gone = list(state.cakes_gone)
        cakes_gone[owner] = cakes_gone[owner] or gone
        state = state.model_copy(update={"cakes": tuple(cakes), "cakes_gone": tuple(cakes_gone)})
        if not any(s in seated(state) for s in victims):
            rulings.append(Ruling(code="reglement.blast_nobody"))
        return self._kill(state, victims, rulings)

    def _kill(self, state: State, seats: tuple[str, ...], rulings: list[Ruling], code: str = "reglement.killed") -> State:
        """Kill whoever sits at `seats` (one event), then record eliminations and check the end."""
        occupied = seated(state)
        victims = [occupied[s] for s in seats if s in occupied]
        if not victims:
            return state
        before = [len(living(state, p)) for p in range(state.players)]
        hands_before = [hand_count(state, p) for p in range(state.players)]
        gangsters = list(state.gangsters)
        for index in victims:
            g = gangsters[index]
            rulings.append(Ruling(code=code, params={"owner_seat": g.owner, "kind": g.kind, "at": g.seat}))
            gangsters[index] = g.model_copy(update={"alive": False, "seat": None, "asleep": False})
        moment = state.moment + 1
        state = state.model_copy(update={"gangsters": tuple(gangsters), "moment": moment})
        out_moment, out_gangsters = list(state.out_moment), list(state.out_gangsters)
        hands, set_aside = list(state.hands), state.set_aside
        for player in range(state.players):
            if out_moment[player] is None and not living(state, player):
                out_moment[player] = moment
                out_gangsters[player] = before[player]
                set_aside += hands_before[player]  # an eliminated player's cards are set aside
                hands[player] = ()
                rulings.append(Ruling(code="reglement.player_out", params={"seat": player}))
        state = state.model_copy(
            update={
                "out_moment": tuple(out_moment),
                "out_gangsters": tuple(out_gangsters),
                "hands": tuple(hands),
                "set_aside": set_aside,
            }
        )
        remaining = [p for p in range(state.players) if in_play(state, p)]
        if not remaining:
            return self._finish(state, "all_dead", rulings)
        if len(remaining) == 1:
            last = remaining[0]
            money = list(state.money)
            money[last] += state.bank
            rulings.append(Ruling(code="reglement.game_over_last_player", params={"seat": last, "amount": state.bank}))
            state = state.model_copy(update={"money": tuple(money), "bank": 0})
            return self._finish(state, "last_player", rulings)
        return state

    # -- step 3: the cards --

    def _played(self, state: State, card: CardType, player: int) -> State:
        """Count the card as played this turn; it goes to the set-aside pile."""
        hands = list(state.hands)
        if card in hands[player]:
            mine = list(hands[player])
            mine.remove(card)
            hands[player] = tuple(mine)
        leaves = card == "alerte" and state.setup.alerte_card == "leaves_game"
        return state.model_copy(
            update={
                "cards_played": state.cards_played + (card,),
                "set_aside": state.set_aside + (0 if leaves else 1),
                "removed_cards": state.removed_cards + (1 if leaves else 0),
                "hands": tuple(hands),
            }
        )

    def _after_card(self, state: State, rulings: list[Ruling]) -> State:
        """A player knocked out during their own turn ends it at once (their cards are set aside)."""
        if state.phase == "play" and state.turn is not None and not in_play(state, state.turn):
            return self._begin_turn(state, self._next_in_play(state, state.turn), rulings)
        return state

    def armed(self, state: State, player: int, card: CardType) -> list[int]:
        """Awake gangsters of `player` able to use a knife (card "knife") or a gun ("pan")."""
        able = can_stab if card == "knife" else can_shoot
        return [
            i for i, g in enumerate(state.gangsters) if g.owner == player and g.alive and not g.asleep and able(state, g)
        ]

    def find_sources(self, state: State, player: int, card: CardType, target: str) -> list[int]:
        """Awake gangsters of `player` who can hit `target` with a knife or a gun."""
        return [
            i
            for i in self.armed(state, player, card)
            if target in attack_reach(state, card, state.gangsters[i].seat)  # type: ignore[arg-type]
        ]

    def _attack(self, state: State, action: Knife | Pan, rulings: list[Ruling]) -> State:
        card = CARD_ACTIONS[type(action)]
        self._check_card(state, action.by, card)
        victim = self._occupant(state, action.target)
        target_owner = state.gangsters[victim].owner
        if target_owner == action.by and state.setup.own_targets == "forbidden":
            raise RuleError("reglement.err.own_gangster", at=action.target)
        if action.from_seat is None:
            sources = self.find_sources(state, action.by, card, action.target)
            if not sources:
                raise RuleError("reglement.err.out_of_reach", at=action.target, card=card)
            source = sources[0]
        else:
            source = self._own_awake(state, action.by, action.from_seat, "reglement.err.asleep_cannot_kill")
            self._check_source(state, card, source, action.target)
        shooter = state.gangsters[source]
        rulings.append(
            Ruling(
                code=f"reglement.played_{card}",
                params={
                    "seat": action.by,
                    "from_kind": shooter.kind,
                    "from_at": shooter.seat,
                    "target_seat": target_owner,
                    "kind": state.gangsters[victim].kind,
                    "at": action.target,
                },
            )
        )
        state = self._played(state, card, action.by)
        state = self._kill(state, (action.target,), rulings)
        return self._after_card(state, rulings)

    def _check_source(self, state: State, card: CardType, source: int, target: str) -> None:
        gangster = state.gangsters[source]
        seat = gangster.seat
        assert seat is not None
        if card == "knife":
            if not can_stab(state, gangster):
                raise RuleError("reglement.err.no_blade", at=seat, kind=gangster.kind)
            if target not in attack_reach(state, card, seat):
                raise RuleError("reglement.err.not_next_to", at=target, from_at=seat)
            return
        if not can_shoot(state, gangster):
            if gangster.kind == "flingueur":
                raise RuleError("reglement.err.x_seat", at=seat)
            raise RuleError("reglement.err.no_gun", at=seat, kind=gangster.kind)
        if target not in attack_reach(state, card, seat):
            raise RuleError("reglement.err.not_facing", at=target, from_at=seat)

    def _order_cake(self, state: State, action: OrderCake, rulings: list[Ruling]) -> State:
        self._check_card(state, action.by, "order_cake")
        if state.cakes_gone[action.by]:
            raise RuleError("reglement.err.cake_gone")
        if state.cakes[action.by] is not None:
            raise RuleError("reglement.err.cake_on_table", at=state.cakes[action.by])
        seat = self._seat_id(state, action.seat)
        if seat in cakes_on_table(state):
            raise RuleError("reglement.err.seat_has_cake", at=seat)
        cakes = list(state.cakes)
        cakes[action.by] = seat
        rulings.append(Ruling(code="reglement.played_order_cake", params={"seat": action.by, "at": seat}))
        state = self._played(state, "order_cake", action.by)
        return state.model_copy(update={"cakes": tuple(cakes)})

    def _opponent_cake(self, state: State, player: int, cake_seat: str) -> int:
        seat = self._seat_id(state, cake_seat)
        owner = cakes_on_table(state).get(seat)
        if owner is None:
            raise RuleError("reglement.err.no_cake_there", at=seat)
        if owner == player:
            raise RuleError("reglement.err.own_cake", at=seat)
        return owner

    def _pass_cake(self, state: State, action: PassCake, rulings: list[Ruling]) -> State:
        self._check_card(state, action.by, "pass_cake")
        owner = self._opponent_cake(state, action.by, action.cake_seat)
        destination = pass_destination(state, action.cake_seat, action.direction)
        if destination is None:
            raise RuleError("reglement.err.pass_nowhere", at=action.cake_seat)
        cakes = list(state.cakes)
        cakes[owner] = destination
        rulings.append(
            Ruling(
                code=f"reglement.played_pass_cake_{action.direction}",
                params={
                    "seat": action.by,
                    "owner_seat": owner,
                    "from_at": action.cake_seat,
                    "at": destination,
                },
            )
        )
        state = self._played(state, "pass_cake", action.by)
        return state.model_copy(update={"cakes": tuple(cakes)})

    def _boum(self, state: State, action: Boum, rulings: list[Ruling]) -> State:
        self._check_card(state, action.by, "boum")
        owner = self._opponent_cake(state, action.by, action.cake_seat)
        rulings.append(
            Ruling(code="reglement.played_boum", params={"seat": action.by, "owner_seat": owner, "at": action.cake_seat})
        )
        state = self._played(state, "boum", action.by)
        state = self._explode(state, owner, rulings, boum=True)
        return self._after_card(state, rulings)

    def pill_targets(self, state: State, player: int) -> list[int]:
        """Opponent gangsters sitting at a glass seat (asleep ones too: a second pill kills)."""
        return [
            i
            for i, g in enumerate(state.gangsters)
            if g.alive and g.seat is not None and g.owner != player and state.board.seat(g.seat).glass
        ]

    def _pills(self, state: State, action: Pills, rulings: list[Ruling]) -> State:
        self._check_card(state, action.by, "pills")
        low, high = pill_low_high(state, len(self.pill_targets(state, action.by)))
        if not low <= len(action.targets) <= high:
            raise RuleError("reglement.err.pill_count", low=low, high=high, count=len(action.targets))
        repeated = [s for s, count in Counter(action.targets).items() if count > 1]
        if repeated:
            raise RuleError("reglement.err.pill_twice", at=repeated[0])
        for seat in action.targets:
            index = self._occupant(state, seat)
            if state.gangsters[index].owner == action.by:
                raise RuleError("reglement.err.own_gangster", at=seat)
            if not state.board.seat(seat).glass:
                raise RuleError("reglement.err.no_glass", at=seat)
        rulings.append(Ruling(code="reglement.played_pills", params={"seat": action.by, "ats": ", ".join(action.targets)}))
        state = self._played(state, "pills", action.by)
        occupied = seated(state)
        gangsters = list(state.gangsters)
        second_pill: list[str] = []
        for seat in action.targets:
            g = gangsters[occupied[seat]]
            if g.asleep:
                second_pill.append(seat)
            else:
                gangsters[occupied[seat]] = g.model_copy(update={"asleep": True})
                rulings.append(
                    Ruling(code="reglement.fell_asleep", params={"owner_seat": g.owner, "kind": g.kind, "at": seat})
                )
        state = state.model_copy(update={"gangsters": tuple(gangsters)})
        state = self._kill(state, tuple(second_pill), rulings, code="reglement.killed_by_pill")
        return self._after_card(state, rulings)

    def _alerte(self, state: State, action: Alerte, rulings: list[Ruling]) -> State:
        self._check_card(state, action.by, "alerte")
        rulings.append(Ruling(code="reglement.played_alerte", params={"seat": action.by}))
        state = self._played(state, "alerte", action.by)
        wake = state.setup.alerte_pills == "removed"
        gangsters = tuple(
            g.model_copy(update={"seat": None, "asleep": g.asleep and not wake}) if g.alive else g
            for g in state.gangsters
        )
        cakes = state.cakes if state.setup.alerte_cakes == "stay" else (None,) * state.players
        state = state.model_copy(update={"gangsters": gangsters, "cakes": cakes, "phase": "alerte"})
        # the card's player seats first, then counter-clockwise
        placer = action.by if self.unseated(state, action.by) else self._next_placer(state, action.by)
        return state.model_copy(update={"placer": placer})

    def _move(self, state: State, action: Move, rulings: list[Ruling]) -> State:
        self._check_card(state, action.by, "move")
        index = self._own_awake(state, action.by, action.from_seat, "reglement.err.asleep_cannot_move")
        destination = self._seat_id(state, action.to_seat)
        if destination in seated(state):
            raise RuleError("reglement.err.seat_taken", at=destination)
        gangsters = list(state.gangsters)
        gangsters[index] = gangsters[index].model_copy(update={"seat": destination})
        rulings.append(
            Ruling(
                code="reglement.played_move",
                params={
                    "seat": action.by,
                    "kind": gangsters[index].kind,
                    "from_at": action.from_seat,
                    "at": destination,
                },
            )
        )
        state = self._played(state, "move", action.by)
        return state.model_copy(update={"gangsters": tuple(gangsters)})

    def _discard(self, state: State, action: Discard, rulings: list[Ruling]) -> State:
        self._check_turn(state, action.by)
        if state.discarded:
            raise RuleError("reglement.err.already_discarded")
        if state.cards_played:
            raise RuleError("reglement.err.discard_after_play")
        rulings.append(Ruling(code="reglement.discarded", params={"seat": action.by}))
        return state.model_copy(update={"discarded": True, "set_aside": state.set_aside + 1})

    def sleepers(self, state: State, player: int) -> dict[str, int]:
        """Seat id -> index of each of `player`'s sleeping gangsters on the table (in gangster
        order, which the wake-up rulings of recorded games follow)."""
        return {g.seat: i for i, g in enumerate(state.gangsters) if g.owner == player and g.alive and g.asleep and g.seat}

    def _end_turn(self, state: State, action: EndTurn, rulings: list[Ruling]) -> State:
        self._check_turn(state, action.by)
        if not state.cards_played and not state.discarded:
            raise RuleError("reglement.err.nothing_played")
        sleepers = self.sleepers(state, action.by)
        if action.wake is not None:
            if state.setup.wake_up == "automatic":
                raise RuleError("reglement.err.wake_automatic")
            if state.setup.wake_up == "choose":
                raise RuleError("reglement.err.wake_is_a_step")
            for seat in action.wake:
                if seat not in sleepers:
                    raise RuleError("reglement.err.not_your_sleeper", at=seat)
        # draw back up to five (step 3's end)
        state = self._draw(state, len(state.cards_played) + int(state.discarded), action.by, rulings)
        if state.setup.wake_up == "choose" and sleepers:
            # step 4 waits for the player's choice (nobody asleep: the step does not concern them)
            rulings.append(Ruling(code="reglement.wake_step", params={"seat": action.by, "ats": ", ".join(sleepers)}))
            return state.model_copy(update={"phase": "wake"})
        # step 4: own sleepers wake
        waking = [seat for seat in sleepers if action.wake is None or seat in action.wake]
        state = self._wake_up(state, action.by, waking, rulings)
        return self._begin_turn(state, self._next_in_play(state, action.by), rulings)

    def _wake_up(self, state: State, player: int, seats: list[str], rulings: list[Ruling]) -> State:
        """Take the pills off `player`'s sleepers at `seats` (the tokens go back to the pool)."""
        if not seats:
            return state
        sleepers = self.sleepers(state, player)
        gangsters = list(state.gangsters)
        for seat in seats:
            gangsters[sleepers[seat]] = gangsters[sleepers[seat]].model_copy(update={"asleep": False})
        rulings.append(Ruling(code="reglement.woke", params={"seat": player, "ats": ", ".join(seats)}))
        return state.model_copy(update={"gangsters": tuple(gangsters)})

    def _wake(self, state: State, action: Wake, rulings: list[Ruling]) -> State:
        """Step 4 with the house rule "choose": the named sleepers wake, the others sleep on."""
        if state.phase != "wake":
            if state.setup.wake_up == "automatic":
                raise RuleError("reglement.err.wake_automatic")
            if state.setup.wake_up == "optional":
                raise RuleError("reglement.err.wake_with_end_turn")
            raise RuleError("reglement.err.not_waking")
        if action.by != state.turn:
            raise RuleError("reglement.err.not_your_turn", expected=state.turn)
        repeated = [s for s, count in Counter(action.seats).items() if count > 1]
        if repeated:
            raise RuleError("reglement.err.wake_twice", at=repeated[0])
        sleepers = self.sleepers(state, action.by)
        for seat in action.seats:
            self._seat_id(state, seat)
            if seat not in sleepers:
                raise RuleError("reglement.err.not_your_sleeper", at=seat)
        waking = [seat for seat in sleepers if seat in action.seats]
        staying = [seat for seat in sleepers if seat not in action.seats]
        state = self._wake_up(state.model_copy(update={"phase": "play"}), action.by, waking, rulings)
        if staying:
            rulings.append(Ruling(code="reglement.slept_on", params={"seat": action.by, "ats": ", ".join(staying)}))
        return self._begin_turn(state, self._next_in_play(state, action.by), rulings)

    def read_as_format(self, state: State, format_version: int) -> State:
        """A log of format 1 or 2 reshuffles as it was written: when a draw finds the pile short."""
        return state.model_copy(update={"reshuffle": "pile_short"}) if format_version < 3 else state

    def _draw(self, state: State, count: int, player: int, rulings: list[Ruling]) -> State:
        pile, aside = state.draw_pile, state.set_aside
        rulings.append(Ruling(code="reglement.drew", params={"seat": player, "count": count}))
        if state.reshuffle == "pile_short":
            if pile < count:
                count -= pile
                pile, aside = aside, 0
                rulings.append(Ruling(code="reglement.reshuffled", params={"count": pile}))
            pile -= min(count, pile)
        else:
            # "Lorsque la dernière carte de la pioche est utilisée, mélangez les cartes que vous
            # avez mises de côté": the pile is never left empty while cards are set aside
            drawn = min(count, pile)
            pile, count = pile - drawn, count - drawn
            if pile == 0 and aside:
                pile, aside = aside, 0
                rulings.append(Ruling(code="reglement.reshuffled", params={"count": pile}))
                pile -= min(count, pile)
        return state.model_copy(
            update={"draw_pile": pile, "set_aside": aside, "cards_played": (), "discarded": False}
        )

    def _note_hand(self, state: State, action: NoteHand, rulings: list[Ruling]) -> State:
        if not in_play(state, action.by):
            raise RuleError("reglement.err.player_out")
        if len(action.cards) > HAND_SIZE:
            raise RuleError("reglement.err.hand_too_big", count=len(action.cards))
        hands = list(state.hands)
        hands[action.by] = action.cards
        # no ruling: rulings are public and this note is secret
        return state.model_copy(update={"hands": tuple(hands)})

    # -- the end --

    def rank_key(self, state: State, player: int) -> tuple[int, float, int]:
        """docs/rules/reglement.md#end: money, then how long the gang stayed in play, then gangsters on the
        table at elimination (still in play: living gangsters, house rule tie_in_play)."""
        out = state.out_moment[player]
        if out is None:
            count = len(living(state, player)) if state.setup.tie_in_play == "living_gangsters" else 0
            return state.money[player], float("inf"), count
        return state.money[player], float(out), state.out_gangsters[player]

    def _finish(self, state: State, reason: EndReason, rulings: list[Ruling]) -> State:
        if reason != "last_player":
            rulings.append(Ruling(code=f"reglement.game_over_{reason}"))
        keys = [self.rank_key(state, p) for p in range(state.players)]
        best = max(keys)
        winners = tuple(p for p in range(state.players) if keys[p] == best)
        tied_on_money = [p for p in range(state.players) if keys[p][0] == best[0]]
        tied_on_survival = [p for p in tied_on_money if keys[p][1] == best[1]]
        if len(tied_on_money) == 1:
            tiebreak: TieBreak = "money"
        elif len(tied_on_survival) == 1:
            tiebreak = "survival"
        elif len(winners) == 1:
            tiebreak = "gangsters"
        else:
            tiebreak = "shared"
        rulings.append(Ruling(code="reglement.winners", params={"seats": list(winners), "amount": best[0]}))
        if tiebreak != "money":
            rulings.append(Ruling(code=f"reglement.tiebreak_{tiebreak}", params={"seats": list(winners)}))
        return state.model_copy(
            update={
                "phase": "over",
                "ended_by": reason,
                "winners": winners,
                "tiebreak": tiebreak,
                "placer": None,
            }
        )

    # -- the private rules helper --

    def targets(self, state: State, player: int, card: CardType) -> tuple[Target, ...]:
        """Every legal target of `card` for `player` on the table as it is now (ignoring whose
        turn it is: see `card_problem` for that)."""
        if state.phase in ("seating", "over") or not in_play(state, player):
            return ()
        occupied = seated(state)
        cakes = cakes_on_table(state)
        gangsters = state.gangsters
        out: list[Target] = []

        def victim(seat: str, **fields: Any) -> Target:
            g = gangsters[occupied[seat]]
            return Target(card=card, seat=seat, owner=g.owner, kind=g.kind, asleep=g.asleep, **fields)

        def blast_victims(cake_seat: str) -> tuple[int, ...]:
            return tuple(occupied[s] for s in blast_seats(state, cake_seat) if s in occupied)

        if state.phase == "alerte" and card != "move":
            return ()  # during re-seating only the Déplacement that follows is left to plan
        if card in ("knife", "pan"):
            for i in self.armed(state, player, card):
                g = gangsters[i]
                assert g.seat is not None
                for seat in attack_reach(state, card, g.seat):
                    if seat not in occupied:
                        continue
                    if gangsters[occupied[seat]].owner == player and state.setup.own_targets == "forbidden":
                        continue
                    out.append(victim(seat, from_seat=g.seat, from_kind=g.kind, kills=(occupied[seat],)))
        elif card == "order_cake":
            if state.cakes[player] is None and not state.cakes_gone[player]:
                for seat in state.board.ids:
                    if seat not in cakes:
                        out.append(Target(card=card, seat=seat, owner=player, kills=blast_victims(seat)))
        elif card == "pass_cake":
            for seat, owner in cakes.items():
                if owner == player:
                    continue
                for direction in ("counterclockwise", "clockwise"):
                    landing = pass_destination(state, seat, direction)
                    if landing is not None:
                        out.append(
                            Target(
                                card=card,
                                seat=seat,
                                owner=owner,
                                direction=direction,
                                to_seat=landing,
                                kills=blast_victims(landing),
                            )
                        )
        elif card == "boum":
            for seat, owner in cakes.items():
                if owner != player:
                    out.append(Target(card=card, seat=seat, owner=owner, kills=blast_victims(seat)))
        elif card == "pills":
            for i in self.pill_targets(state, player):
                sleeper_seat = gangsters[i].seat
                assert sleeper_seat is not None
                out.append(victim(sleeper_seat, kills=(i,) if gangsters[i].asleep else ()))
        elif card == "alerte":
            out.append(Target(card=card))
        elif card == "move":
            empty = [seat for seat in state.board.ids if seat not in occupied]
            for g in gangsters:
                if g.owner == player and g.alive and not g.asleep and g.seat is not None:
                    for seat in empty:
                        out.append(Target(card=card, seat=seat, from_seat=g.seat, from_kind=g.kind))
        return tuple(out)

    def options(self, state: State, player: int, *, with_hand: bool = True) -> tuple[CardOptions, ...]:
        noted = Counter(state.hands[player]) if with_hand else Counter()
        result = []
        for card in CARDS:
            problem = self.card_problem(state, player, card)
            result.append(
                CardOptions(
                    card=card,
                    playable_now=problem is None,
                    blocked=problem.code if problem else None,
                    in_hand=noted[card],
                    targets=self.targets(state, player, card),
                )
            )
        return tuple(result)

    def wake_choices(self, state: State) -> tuple[str, ...]:
        """The current player's sleepers they choose among: in the wake step, or during their
        turn with the older "optional" rule (to send with end_turn)."""
        if state.turn is None:
            return ()
        if state.phase == "wake" or (state.phase == "play" and state.setup.wake_up == "optional"):
            return tuple(self.sleepers(state, state.turn))
        return ()

    # -- projection: the one place deciding what each audience sees --

    def project(self, state: State, audience: Audience) -> View:
        occupied = seated(state)
        cakes = cakes_on_table(state)
        board = state.board
        seats = tuple(
            SeatView(
                id=s.id,
                business=s.business,
                cash_register=s.cash_register,
                glass=s.glass,
                knife=s.knife,
                revolver=s.revolver,
                no_shoot=s.no_shoot,
                faces=board.faces(s.id),
                x=s.x,
                y=s.y,
                gangster=occupied.get(s.id),
                cake=cakes.get(s.id),
            )
            for s in board.seats
        )
        gangsters = tuple(
            GangsterView(index=i, owner=g.owner, kind=g.kind, seat=g.seat, asleep=g.asleep, alive=g.alive)
            for i, g in enumerate(state.gangsters)
        )
        gangs = tuple(
            GangView(
                seat=p,
                money=state.money[p],
                in_play=in_play(state, p),
                living=len(living(state, p)),
                asleep=sum(1 for g in state.gangsters if g.owner == p and g.alive and g.asleep),
                unseated=tuple(state.gangsters[i].kind for i in self.unseated(state, p)),
                cake_seat=state.cakes[p],
                cake_in_hand=state.cakes[p] is None and not state.cakes_gone[p],
                cake_gone=state.cakes_gone[p],
                cards_in_hand=hand_count(state, p),
            )
            for p in range(state.players)
        )
        view = View(
            players=state.setup.players,
            board_name=board.name,
            board_reconstructed=board.reconstructed,
            board_verified=board.verified,
            phase=state.phase,
            turn=state.turn,
            turn_number=state.turn_number,
            waiting_for=self.waiting_for(state),
            placer=state.placer,
            seats=seats,
            gangsters=gangsters,
            gangs=gangs,
            bank=state.bank,
            cards_played=state.cards_played,
            discarded=state.discarded,
            draw_pile=state.draw_pile,
            set_aside=state.set_aside,
            removed_cards=state.removed_cards,
            ended_by=state.ended_by,
            winners=state.winners,
            tiebreak=state.tiebreak,
            turn_log=state.turn_log,
            turn_log_new=state.turn_log_new,
            wake_up=state.setup.wake_up,
            wake_choices=self.wake_choices(state),
        )
        if audience.kind != "seat" and state.phase in ("play", "alerte") and state.turn is not None:
            view = view.model_copy(update={"turn_options": self.options(state, state.turn, with_hand=False)})
        if audience.kind == "seat" and audience.seat is not None and 0 <= audience.seat < state.players:
            return self.seat_view(state, audience.seat, view)
        return view

    def seat_view(self, state: State, seat: int, board: View) -> View:
        """`seat`'s view drawn from the board's (`board`, `project(state, BOARD)`): the board's
        own turn options taken out, this seat's own part added. The room draws every phone's
        view from its one board view this way."""
        my_turn = state.phase == "play" and state.turn == seat
        me = SeatPrivate(
            seat=seat,
            hand=state.hands[seat],
            can_discard=my_turn and not state.cards_played and not state.discarded,
            can_end_turn=my_turn and bool(state.cards_played or state.discarded),
            income_now=income(state, seat).total,
        )
        board_only = {"turn_options": View.model_fields["turn_options"].default}
        return board.model_copy(update={**board_only, "me": me, "my_options": self.options(state, seat)})

    # -- room hooks --

    def is_public(self, action: Action) -> bool:
        return not isinstance(action, NoteHand)

    def awaiting_reveal(self, state: State) -> bool:
        return False  # nothing is ever hidden on the table (see the module docstring)

    def reveal(self, state: State) -> Outcome[State]:
        raise RuleError("reglement.err.nothing_to_reveal")

    def host_only(self, action: Action) -> str | None:
        return None

    def redact(self, action: Action) -> dict[str, Any]:
        data = action.model_dump()
        if isinstance(action, NoteHand):
            data.pop("cards")
        return data

    def result(self, state: State) -> dict[str, Any] | None:
        if state.phase != "over":
            return None
        return {"money": list(state.money), "winners": list(state.winners)}

    def standings(self, state: State) -> tuple[Standing, ...] | None:
        """Most money; then who stayed in play longest, then gangsters on the table (at
        elimination, or living), then shared (docs/rules/reglement.md#end); how: money and survival."""
        result = self.result(state)
        if result is None:
            return None
        n = len(state.money)
        living = [sum(1 for g in state.gangsters if g.owner == p and g.alive) for p in range(n)]
        keys, details = [], []
        for p in range(n):
            out = state.out_moment[p]
            gangsters = living[p] if out is None else state.out_gangsters[p]
            keys.append((state.money[p], float("inf") if out is None else out, gangsters))
            details.append(
                [Detail(code="standing.reglement.in_play", params={"n": gangsters})]
                if out is None
                else [Detail(code="standing.reglement.out", params={"n": gangsters})]
            )
        return ranked(keys, state.money, result["winners"], "money", details)

    def random_action(self, state: State, rng: random.Random) -> Action | None:
        """Seating: a random unseated gangster on a random empty seat. Play: deal the player a
        random five-card hand by the deck's proportions, then play one of its cards that has a
        target (or set one aside); after a card, end the turn or play a Déplacement. Wake-up
        (house rule "choose", or "optional" at the end of the turn): a random set of sleepers."""
        if state.phase == "over":
            return None
        if state.phase in ("seating", "alerte"):
            player = state.placer
            assert player is not None
            kinds = sorted({state.gangsters[i].kind for i in self.unseated(state, player)}, key=KINDS.index)
            empty = [s for s in state.board.ids if s not in seated(state)]
            return PlaceGangster(by=player, kind=rng.choice(kinds), seat=rng.choice(empty))
        player = state.turn
        assert player is not None
        if state.phase == "wake":
            sleepers = list(self.sleepers(state, player))
            return Wake(by=player, seats=tuple(rng.sample(sleepers, rng.randint(0, len(sleepers)))))
        hand = rng.choices(list(DECK), weights=list(DECK.values()), k=HAND_SIZE - len(state.cards_played))
        playable = sorted(
            {c for c in hand if self.card_problem(state, player, c) is None and self.targets(state, player, c)},
            key=CARDS.index,
        )
        started = bool(state.cards_played or state.discarded)
        choices: list[CardType | Literal["end_turn", "discard"]] = [*playable, "end_turn" if started else "discard"]
        if not started and playable:
            choices.remove("discard")  # a hand with a usable card rarely passes
        choice = rng.choice(choices)
        if choice == "end_turn":
            sleepers = list(self.sleepers(state, player))
            if state.setup.wake_up == "optional" and sleepers and rng.random() < 0.5:
                return EndTurn(by=player, wake=tuple(rng.sample(sleepers, rng.randint(0, len(sleepers)))))
            return EndTurn(by=player)
        if choice == "discard":
            return Discard(by=player)
        return self._random_card(state, player, choice, rng)

    def _random_card(self, state: State, player: int, card: CardType, rng: random.Random) -> Action:
        targets = self.targets(state, player, card)
        if card == "pills":
            seats = [t.seat for t in targets if t.seat is not None]  # each pill's target is a seat
            low, high = pill_low_high(state, len(seats))
            return Pills(by=player, targets=tuple(rng.sample(seats, rng.randint(low, min(high, len(seats))))))
        target = rng.choice(targets)
        if card == "alerte":
            return Alerte(by=player)
        # every other card's target is a seat; a pass_cake's also a direction, a move's a gangster
        assert target.seat is not None
        if card == "knife":
            return Knife(by=player, target=target.seat, from_seat=target.from_seat)
        if card == "pan":
            return Pan(by=player, target=target.seat, from_seat=target.from_seat)
        if card == "order_cake":
            return OrderCake(by=player, seat=target.seat)
        if card == "pass_cake":
            assert target.direction is not None
            return PassCake(by=player, cake_seat=target.seat, direction=target.direction)
        if card == "boum":
            return Boum(by=player, cake_seat=target.seat)
        assert target.from_seat is not None
        return Move(by=player, from_seat=target.from_seat, to_seat=target.seat)


GAME = Reglement()
