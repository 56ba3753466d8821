"""Vabanque (Colovini & Faidutti, 2001): chips, secret character cards, pawns, payouts.

Rules: docs/rules/vabanque.md. Tables are numbered 1..T clockwise, table 1 being the first
player's starting table (the physical tables carry no numbers).

Module shape (same in every game): Setup, actions, State, views, MESSAGES, the engine class
with initial_state / apply / project / waiting_for / is_public / redact / result /
random_action, and GAME.
"""

from __future__ import annotations

import random
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, TypeAdapter, ValidationInfo, field_validator

from companion.engine import (
    Audience,
    Model,
    Outcome,
    RuleError,
    Ruling,
    announced,
    rng_for,
    seat_ready,
)
from companion.players import Colour, Player, check_players
from companion.standings import Detail, Standing, ranked

# --- setup -------------------------------------------------------------------------------------

TABLES_BY_PLAYERS = {3: 7, 4: 9, 5: 10, 6: 12}
CHIP_VALUE_BY_ROUND = {1: 5, 2: 10, 3: 20, 4: 50}
#: Chips of the round's value each player places (the box has 4/3/2/1 per player).
CHIPS_PER_PLAYER_BY_ROUND = {1: 4, 2: 3, 3: 2, 4: 1}
ROUNDS = 4
MAX_MOVE = 4
PAYOUT_UNIT = 1000

Card = Literal["raise", "bluff", "cheat"]
CARDS: tuple[Card, ...] = ("raise", "bluff", "cheat")


class Setup(Model):
    players: tuple[Player, ...]
    #: seat index of the first player; None draws one at random (recorded through the seed)
    first_player: int | None = None
    #: house rule (docs/rules/vabanque.md#payout): "additive" = chips × (1 + raises) [rulebook];
    #: "doubling" = chips × 2^raises (one review of the 2021 edition)
    raise_rule: Literal["additive", "doubling"] = "additive"

    @field_validator("players")
    @classmethod
    def _players(cls, players: tuple[Player, ...]) -> tuple[Player, ...]:
        return check_players(players, 3, 6)

    @field_validator("first_player")
    @classmethod
    def _first(cls, value: int | None, info: ValidationInfo) -> int | None:
        players = info.data.get("players", ())
        if value is not None and not 0 <= value < len(players):
            raise ValueError("the first player must be one of the players")
        return value


HOUSE_RULES: dict[str, tuple[str, ...]] = {"raise_rule": ("additive", "doubling")}

# --- actions -----------------------------------------------------------------------------------


class PlaceChip(Model):
    type: Literal["place_chip"] = "place_chip"
    by: int
    table: int


class PlaceCard(Model):
    """Secret: only the owner's phone (or pass-and-play) may send it."""

    type: Literal["place_card"] = "place_card"
    by: int
    table: int
    card: Card


class MovePawn(Model):
    type: Literal["move_pawn"] = "move_pawn"
    by: int
    steps: int


class NextRound(Model):
    """Close the payout display and start the next round: the host board only (`host_only`);
    phones say `Ready` instead. `by` is None from the host board (logs of format 1 name the seat
    whose phone tapped it, when anyone could)."""

    type: Literal["next_round"] = "next_round"
    by: int | None = None


class Reveal(Model):
    """The host board reveals the round once every pawn has moved: the payout (`host_only`)."""

    type: Literal["reveal"] = "reveal"
    by: None = None


class Ready(Model):
    """A seat is ready: for the reveal (phase "reveal") or for the next round (phase "payout").
    The last seat to be ready reveals, or starts the next round, with this action."""

    type: Literal["ready"] = "ready"
    by: int


Action = Annotated[PlaceChip | PlaceCard | MovePawn | NextRound | Reveal | Ready, Field(discriminator="type")]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)

# --- state -------------------------------------------------------------------------------------

#: "reveal": every pawn has moved; the round waits for the host's `reveal` or everyone's `ready`
Phase = Literal["chips", "cards", "moves", "reveal", "payout", "over"]


class CardPlacement(Model):
    seat: int
    table: int
    card: Card


class TablePayout(Model):
    """A table's payout, public once revealed (only tables with a pawn are revealed)."""

    table: int
    chips: int
    raises: int
    value: int
    cards: tuple[CardPlacement, ...]
    pawns: tuple[int, ...]
    #: (seat, amount) per pawn owner paid, in seat order
    pawn_paid: tuple[tuple[int, int], ...]
    pawn_blocked: tuple[int, ...]
    #: (seat, amount) per cheat card
    cheat_paid: tuple[tuple[int, int], ...]


class State(Model):
    setup: Setup
    seed: int
    round: int = 1
    phase: Phase = "chips"
    order: tuple[int, ...]
    #: how many turns of the current phase have been taken
    step: int = 0
    chips: tuple[tuple[int, ...], ...]
    pawns: tuple[int, ...]
    money: tuple[int, ...]
    placements: tuple[CardPlacement, ...] = ()
    #: payouts of the round just resolved (shown during "payout" and at the end)
    payouts: tuple[TablePayout, ...] = ()
    #: the order before the last re-ordering, for explaining tie reversals
    previous_order: tuple[int, ...] = ()
    #: 0 or more re-ordering and result rulings of the last payout
    round_rulings: tuple[Ruling, ...] = ()
    #: seats that said they are ready, in phases "reveal" and "payout"
    ready: tuple[int, ...] = ()
    #: per resolved round, what each seat was paid (for the final standings)
    round_gains: tuple[tuple[int, ...], ...] = ()

    @property
    def players(self) -> int:
        return len(self.setup.players)

    @property
    def tables(self) -> int:
        return TABLES_BY_PLAYERS[self.players]


# --- views -------------------------------------------------------------------------------------


class TableView(Model):
    number: int
    chips: tuple[int, ...]
    total: int
    pawns: tuple[int, ...]
    #: owners of face-down cards, in placement order (the board never learns which card)
    card_backs: tuple[int, ...]
    #: the table's payout, present once revealed this round
    payout: TablePayout | None = None


class SeatPrivate(Model):
    seat: int
    cards_in_hand: tuple[Card, ...]
    my_placements: tuple[CardPlacement, ...]


class LegalMoves(Model):
    tables: tuple[int, ...] = ()
    cards: tuple[Card, ...] = ()
    #: (steps, destination table)
    moves: tuple[tuple[int, int], ...] = ()
    next_round: bool = False
    #: the host board may reveal now (board_legal only)
    reveal: bool = False
    #: this seat may say it is ready (my_legal; on board_legal: some seat still may)
    ready: bool = False


class View(Model):
    game: Literal["vabanque"] = "vabanque"
    players: tuple[Player, ...]
    round: int
    rounds: int = ROUNDS
    phase: Phase
    order: tuple[int, ...]
    waiting_for: tuple[int, ...]
    chip_value: int
    chips_left: int
    tables: tuple[TableView, ...]
    money: tuple[int, ...]
    payouts: tuple[TablePayout, ...]
    round_rulings: tuple[Ruling, ...]
    winners: tuple[int, ...] = ()
    raise_rule: Literal["additive", "doubling"] = "additive"
    #: every pawn has moved and the round waits for the reveal (phase "reveal")
    awaiting_reveal: bool = False
    #: seats that said they are ready (phases "reveal" and "payout")
    ready: tuple[int, ...] = ()
    #: legal choices of the player whose turn it is, for public actions the board may enter
    board_legal: LegalMoves
    #: present only in a seat's own projection
    me: SeatPrivate | None = None
    my_legal: LegalMoves | None = None


# --- messages (English templates; catalogues translate them) -----------------------------------

MESSAGES: dict[str, str] = {
    # rulings
    "vabanque.chip_placed": "{seat:seat} put a {value} chip on table {table}.",
    "vabanque.card_placed": "{seat:seat} placed a card face down at table {table}.",
    "vabanque.pawn_moved": "{seat:seat} moved {steps:plural:one=# table|other=# tables} to table {table}.",
    "vabanque.pawn_stayed": "{seat:seat} stayed at table {table}.",
    "vabanque.phase_cards": "All chips are placed. Now each player places a character card, three times round.",
    "vabanque.phase_moves": "All cards are placed. Now each player may move their pawn up to 4 tables clockwise.",
    "vabanque.table_value": "Table {table}: chips {chips} × {factor} for {raises:plural:one=# raise|other=# raises} = {value}, paid × 1,000.",
    "vabanque.table_no_cards": "Table {table}: no cards; value {value}.",
    "vabanque.pawn_paid": "{seat:seat}'s pawn is paid {amount:money}.",
    "vabanque.pawn_blocked": "{seat:seat}'s pawn gets nothing: {cheats:seats} cheated here.",
    "vabanque.cheat_paid": "{seat:seat}'s Cheat takes {amount:money} for {count:plural:one=# opponent pawn|other=# opponent pawns}.",
    "vabanque.cheat_idle": "{seat:seat}'s Cheat finds no opponent pawn and earns nothing.",
    "vabanque.tables_secret": "{count:plural:one=# table without a pawn stays|other=# tables without a pawn stay} secret.",
    "vabanque.new_order": "New turn order by money: {seats:seats}.",
    "vabanque.tie_reversed": "{seats:seats} have equal money: their order is reversed.",
    "vabanque.round_started": "Round {round} begins: {value} chips, {seat:seat} starts.",
    "vabanque.game_over": "The game is over. Winner: {seats:seats} with {amount:money}.",
    "vabanque.ready": "{seat:seat} is ready.",
    "vabanque.revealed": "The host revealed the cards.",
    "vabanque.all_ready": "Everyone is ready: the cards are revealed.",
    "vabanque.all_ready_next": "Everyone is ready for the next round.",
    # errors
    "vabanque.err.game_over": "The game is over.",
    "vabanque.err.wrong_phase": "That is not possible now: the game is in the {phase} phase.",
    "vabanque.err.not_your_turn": "It is {expected:seat}'s turn, not yours.",
    "vabanque.err.unknown_table": "There is no table {table}; tables are numbered 1 to {tables}.",
    "vabanque.err.card_used": "You have already placed your {card:label=vabanque.card} card this round.",
    "vabanque.err.move_too_far": "A pawn moves 0 to 4 tables clockwise, not {steps}.",
    "vabanque.err.unknown_seat": "There is no player {seat}.",
    "vabanque.err.already_ready": "You are already ready; the others are awaited.",
    "vabanque.err.host_reveals": "Only the host board reveals the cards: tap Ready when you are ready.",
    "vabanque.err.host_starts_round": "Only the host board starts the next round: tap Ready when you are done with the payout.",
    # names
    "vabanque.card.raise": "Raise",
    "vabanque.card.bluff": "Bluff",
    "vabanque.card.cheat": "Cheat",
    "vabanque.phase.chips": "chips",
    "vabanque.phase.cards": "cards",
    "vabanque.phase.moves": "pawn moves",
    "vabanque.phase.reveal": "reveal",
    "vabanque.phase.payout": "payout",
    "vabanque.phase.over": "game over",
    "vabanque.rule.raise_rule": "Raise cards",
    "vabanque.rule.raise_rule.additive": "each Raise adds the chips once: ×2, ×3, ×4 (rulebook)",
    "vabanque.rule.raise_rule.doubling": "each Raise doubles: ×2, ×4, ×8 (one 2021 review)",
}


#: the phase each turn action belongs to
TURN_PHASES: dict[type[Model], Phase] = {PlaceChip: "chips", PlaceCard: "cards", MovePawn: "moves"}


# --- the engine --------------------------------------------------------------------------------


def table_value(chips: int, raises: int, raise_rule: str) -> int:
    """Rulebook: chips × (1 + raises). House rule "doubling": chips × 2^raises."""
    if raise_rule == "doubling":
        return chips * (1 << raises)  # 2**raises, an int (** of ints is typed int | float)
    return chips * (1 + raises)


def next_order(order: tuple[int, ...], money: tuple[int, ...]) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """Richest first; equal money reverses the tied players' previous relative order.

    Returns the new order and the groups whose order was reversed (for the rulings).
    """
    position = {seat: i for i, seat in enumerate(order)}
    new = sorted(order, key=lambda seat: (-money[seat], -position[seat]))
    reversed_groups: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for seat in new:
        if money[seat] in seen:
            continue
        group = tuple(s for s in new if money[s] == money[seat])
        seen.add(money[seat])
        if len(group) > 1:
            reversed_groups.append(group)
    return tuple(new), reversed_groups


class Vabanque:
    id: ClassVar[str] = "vabanque"
    setup_model = Setup
    action_model = Action
    action_adapter = ACTION_ADAPTER
    state_model = State
    view_model = View
    messages = MESSAGES
    house_rules = HOUSE_RULES
    min_players, max_players = 3, 6

    def player_colours(self, players: int) -> tuple[Colour, ...] | None:
        return None  # (each player's pieces come in any of the app's colours)

    # -- setup --

    def initial_state(self, setup: Setup, seed: int) -> State:
        n = len(setup.players)
        first = setup.first_player
        if first is None:
            first = rng_for(seed, "first_player").randrange(n)
        order = tuple((first + i) % n for i in range(n))
        pawns = [0] * n
        # The first player's pawn is table 1; each next pawn clockwise two tables further.
        for i, seat in enumerate(order):
            pawns[seat] = (2 * i) % TABLES_BY_PLAYERS[n] + 1
        return State(
            setup=setup,
            seed=seed,
            order=order,
            chips=tuple(() for _ in range(TABLES_BY_PLAYERS[n])),
            pawns=tuple(pawns),
            money=(0,) * n,
            previous_order=order,
        )

    # -- turn helpers --

    def turns_in_phase(self, state: State) -> int:
        n = state.players
        if state.phase == "chips":
            return n * CHIPS_PER_PLAYER_BY_ROUND[state.round]
        if state.phase == "cards":
            return n * len(CARDS)
        if state.phase == "moves":
            return n
        return 0

    def current_seat(self, state: State) -> int | None:
        if state.phase in ("chips", "cards", "moves"):
            return state.order[state.step % state.players]
        return None

    def waiting_for(self, state: State) -> tuple[int, ...]:
        seat = self.current_seat(state)
        if seat is not None:
            return (seat,)
        if state.phase in ("reveal", "payout"):
            return tuple(s for s in state.order if s not in state.ready)
        return ()

    def awaiting_reveal(self, state: State) -> bool:
        return state.phase == "reveal"

    def cards_in_hand(self, state: State, seat: int) -> tuple[Card, ...]:
        used = {p.card for p in state.placements if p.seat == seat}
        return tuple(c for c in CARDS if c not in used)

    # -- apply --

    def apply(self, state: State, action: Action) -> Outcome[State]:
        if state.phase == "over":
            raise RuleError("vabanque.err.game_over")
        if action.by is not None and not 0 <= action.by < state.players:
            raise RuleError("vabanque.err.unknown_seat", seat=action.by)
        if isinstance(action, NextRound):
            if state.phase != "payout":
                raise RuleError("vabanque.err.wrong_phase", phase=state.phase)
            return self._start_round(state)
        if isinstance(action, Reveal):
            if state.phase != "reveal":
                raise RuleError("vabanque.err.wrong_phase", phase=state.phase)
            return announced(self.reveal(state), Ruling(code="vabanque.revealed"))
        if isinstance(action, Ready):
            return self._ready(state, action)
        expected_phase = TURN_PHASES[type(action)]
        if state.phase != expected_phase:
            raise RuleError("vabanque.err.wrong_phase", phase=state.phase)
        expected = self.current_seat(state)
        if action.by != expected:
            raise RuleError("vabanque.err.not_your_turn", expected=expected)
        if isinstance(action, PlaceChip):
            return self._place_chip(state, action)
        if isinstance(action, PlaceCard):
            return self._place_card(state, action)
        return self._move_pawn(state, action)

    def _check_table(self, state: State, table: int) -> None:
        if not 1 <= table <= state.tables:
            raise RuleError("vabanque.err.unknown_table", table=table, tables=state.tables)

    def _advance(self, state: State, **changes: Any) -> tuple[State, list[Ruling]]:
        """Count the turn; move to the next phase when everyone is done."""
        state = state.model_copy(update={**changes, "step": state.step + 1})
        if state.step < self.turns_in_phase(state):
            return state, []
        if state.phase == "chips":
            return state.model_copy(update={"phase": "cards", "step": 0}), [Ruling(code="vabanque.phase_cards")]
        if state.phase == "cards":
            return state.model_copy(update={"phase": "moves", "step": 0}), [Ruling(code="vabanque.phase_moves")]
        return state, []

    def _place_chip(self, state: State, action: PlaceChip) -> Outcome[State]:
        self._check_table(state, action.table)
        value = CHIP_VALUE_BY_ROUND[state.round]
        chips = list(state.chips)
        chips[action.table - 1] = chips[action.table - 1] + (value,)
        ruling = Ruling(code="vabanque.chip_placed", params={"seat": action.by, "value": value, "table": action.table})
        new, more = self._advance(state, chips=tuple(chips))
        return Outcome(state=new, rulings=(ruling, *more))

    def _place_card(self, state: State, action: PlaceCard) -> Outcome[State]:
        self._check_table(state, action.table)
        if action.card not in self.cards_in_hand(state, action.by):
            raise RuleError("vabanque.err.card_used", card=action.card)
        placement = CardPlacement(seat=action.by, table=action.table, card=action.card)
        # The ruling is public: it names the table, never the card.
        ruling = Ruling(code="vabanque.card_placed", params={"seat": action.by, "table": action.table})
        new, more = self._advance(state, placements=state.placements + (placement,))
        return Outcome(state=new, rulings=(ruling, *more))

    def _move_pawn(self, state: State, action: MovePawn) -> Outcome[State]:
        if not 0 <= action.steps <= MAX_MOVE:
            raise RuleError("vabanque.err.move_too_far", steps=action.steps)
        pawns = list(state.pawns)
        pawns[action.by] = (pawns[action.by] - 1 + action.steps) % state.tables + 1
        code = "vabanque.pawn_moved" if action.steps else "vabanque.pawn_stayed"
        ruling = Ruling(code=code, params={"seat": action.by, "steps": action.steps, "table": pawns[action.by]})
        new, _ = self._advance(state, pawns=tuple(pawns))
        if new.step < self.turns_in_phase(new):
            return Outcome(state=new, rulings=(ruling,))
        # The last move reveals nothing: the round waits for the host's reveal or everyone's ready.
        return Outcome(state=new.model_copy(update={"phase": "reveal", "step": 0, "ready": ()}), rulings=(ruling,))

    def reveal(self, state: State) -> Outcome[State]:
        paid, rulings = self._payout(state)
        return Outcome(state=paid.model_copy(update={"ready": ()}), rulings=tuple(rulings), reveals=True)

    def _ready(self, state: State, action: Ready) -> Outcome[State]:
        if state.phase not in ("reveal", "payout"):
            raise RuleError("vabanque.err.wrong_phase", phase=state.phase)
        if state.phase == "reveal":
            return seat_ready(state, action.by, state.players, "vabanque", self.reveal, "vabanque.all_ready")
        return seat_ready(state, action.by, state.players, "vabanque", self._start_round, "vabanque.all_ready_next")

    # -- payout --

    def pay_table(self, state: State, table: int) -> TablePayout:
        cards = tuple(p for p in state.placements if p.table == table)
        pawns = tuple(seat for seat in range(state.players) if state.pawns[seat] == table)
        chips = sum(state.chips[table - 1])
        raises = sum(1 for p in cards if p.card == "raise")
        value = table_value(chips, raises, state.setup.raise_rule)
        cheaters = [p.seat for p in cards if p.card == "cheat"]
        pawn_paid, pawn_blocked = [], []
        for seat in pawns:
            if any(c != seat for c in cheaters):
                pawn_blocked.append(seat)
            else:
                pawn_paid.append((seat, PAYOUT_UNIT * value))
        cheat_paid = [(c, PAYOUT_UNIT * value * sum(1 for s in pawns if s != c)) for c in cheaters]
        return TablePayout(
            table=table,
            chips=chips,
            raises=raises,
            value=value,
            cards=cards,
            pawns=pawns,
            pawn_paid=tuple(pawn_paid),
            pawn_blocked=tuple(pawn_blocked),
            cheat_paid=tuple(cheat_paid),
        )

    def _payout(self, state: State) -> tuple[State, list[Ruling]]:
        money = list(state.money)
        payouts: list[TablePayout] = []
        rulings: list[Ruling] = []
        for table in range(1, state.tables + 1):
            if table not in state.pawns:
                continue
            payout = self.pay_table(state, table)
            payouts.append(payout)
            rulings.extend(self.explain_table(payout, state.setup.raise_rule))
            for seat, amount in payout.pawn_paid + payout.cheat_paid:
                money[seat] += amount
        secret = state.tables - len(payouts)
        if secret:
            rulings.append(Ruling(code="vabanque.tables_secret", params={"count": secret}))
        money_t = tuple(money)
        order_rulings: list[Ruling] = []
        new_order, reversed_groups = next_order(state.order, money_t)
        phase: Phase = "payout"
        if state.round < ROUNDS:
            # A new order only matters when another round follows.
            for group in reversed_groups:
                order_rulings.append(Ruling(code="vabanque.tie_reversed", params={"seats": list(group)}))
        if state.round == ROUNDS:
            phase = "over"
            best = max(money_t)
            winners = [s for s in range(state.players) if money_t[s] == best]
            order_rulings.append(Ruling(code="vabanque.game_over", params={"seats": winners, "amount": best}))
        else:
            order_rulings.append(Ruling(code="vabanque.new_order", params={"seats": list(new_order)}))
        new = state.model_copy(
            update={
                "phase": phase,
                "step": 0,
                "money": money_t,
                "payouts": tuple(payouts),
                "previous_order": state.order,
                "order": new_order if phase == "payout" else state.order,
                "round_rulings": tuple(order_rulings),
                "round_gains": (*state.round_gains, tuple(m - old for m, old in zip(money_t, state.money))),
            }
        )
        return new, rulings + order_rulings

    def explain_table(self, payout: TablePayout, raise_rule: str) -> list[Ruling]:
        factor = payout.value // payout.chips if payout.chips else table_value(1, payout.raises, raise_rule)
        rulings = [
            Ruling(
                code="vabanque.table_value",
                params={"table": payout.table, "chips": payout.chips, "raises": payout.raises, "factor": factor, "value": payout.value},
            )
        ]
        cheaters = [c for c, _ in payout.cheat_paid]
        for seat, amount in payout.pawn_paid:
            rulings.append(Ruling(code="vabanque.pawn_paid", params={"seat": seat, "amount": amount, "table": payout.table}))
        for seat in payout.pawn_blocked:
            others = [c for c in cheaters if c != seat]
            rulings.append(Ruling(code="vabanque.pawn_blocked", params={"seat": seat, "cheats": others, "table": payout.table}))
        for seat, amount in payout.cheat_paid:
            count = sum(1 for s in payout.pawns if s != seat)
            code = "vabanque.cheat_paid" if count else "vabanque.cheat_idle"
            rulings.append(Ruling(code=code, params={"seat": seat, "amount": amount, "count": count, "table": payout.table}))
        return rulings

    def _start_round(self, state: State) -> Outcome[State]:
        new = state.model_copy(
            update={
                "round": state.round + 1,
                "phase": "chips",
                "step": 0,
                "placements": (),
                "payouts": (),
                "round_rulings": (),
                "ready": (),
            }
        )
        ruling = Ruling(
            code="vabanque.round_started",
            params={"round": new.round, "value": CHIP_VALUE_BY_ROUND[new.round], "seat": new.order[0]},
        )
        return Outcome(state=new, rulings=(ruling,))

    # -- projection: the one place deciding what each audience sees --

    def legal(self, state: State, seat: int) -> LegalMoves:
        if state.phase in ("reveal", "payout"):
            return LegalMoves(ready=seat not in state.ready)
        if self.current_seat(state) != seat:
            return LegalMoves()
        all_tables = tuple(range(1, state.tables + 1))
        if state.phase == "chips":
            return LegalMoves(tables=all_tables)
        if state.phase == "cards":
            return LegalMoves(tables=all_tables, cards=self.cards_in_hand(state, seat))
        if state.phase == "moves":
            here = state.pawns[seat]
            return LegalMoves(moves=tuple((s, (here - 1 + s) % state.tables + 1) for s in range(MAX_MOVE + 1)))
        return LegalMoves()

    def project(self, state: State, audience: Audience) -> View:
        revealed = {p.table: p for p in state.payouts}
        tables = []
        for number in range(1, state.tables + 1):
            payout = revealed.get(number)
            tables.append(
                TableView(
                    number=number,
                    chips=state.chips[number - 1],
                    total=sum(state.chips[number - 1]),
                    pawns=tuple(s for s in range(state.players) if state.pawns[s] == number),
                    card_backs=tuple(p.seat for p in state.placements if p.table == number),
                    payout=payout,
                )
            )
        current = self.current_seat(state)
        board_legal = self.legal(state, current) if current is not None and state.phase != "cards" else LegalMoves(
            next_round=state.phase == "payout",
            reveal=state.phase == "reveal",
            ready=state.phase in ("reveal", "payout") and len(state.ready) < state.players,
        )
        winners: tuple[int, ...] = ()
        if state.phase == "over":
            best = max(state.money)
            winners = tuple(s for s in range(state.players) if state.money[s] == best)
        view = View(
            players=state.setup.players,
            round=state.round,
            phase=state.phase,
            order=state.order,
            waiting_for=self.waiting_for(state),
            chip_value=CHIP_VALUE_BY_ROUND[state.round],
            chips_left=self.turns_in_phase(state) - state.step if state.phase == "chips" else 0,
            tables=tuple(tables),
            money=state.money,
            payouts=state.payouts,
            round_rulings=state.round_rulings,
            winners=winners,
            raise_rule=state.setup.raise_rule,
            awaiting_reveal=state.phase == "reveal",
            ready=state.ready,
            board_legal=board_legal,
        )
        if audience.kind == "seat" and audience.seat is not None:
            return self.seat_view(state, audience.seat, view)
        return view

    def seat_view(self, state: State, seat: int, board: View) -> View:
        """`seat`'s view drawn from the board's (`board`, `project(state, BOARD)`): its own
        part added. The room draws every phone's view from its one board view this way."""
        me = SeatPrivate(
            seat=seat,
            cards_in_hand=self.cards_in_hand(state, seat),
            my_placements=tuple(p for p in state.placements if p.seat == seat),
        )
        return board.model_copy(update={"me": me, "my_legal": self.legal(state, seat)})

    # -- room hooks --

    def is_public(self, action: Action) -> bool:
        return not isinstance(action, PlaceCard)

    def host_only(self, action: Action) -> str | None:
        if isinstance(action, Reveal):
            return "vabanque.err.host_reveals"
        if isinstance(action, NextRound):
            return "vabanque.err.host_starts_round"
        return None

    def redact(self, action: Action) -> dict[str, Any]:
        data = action.model_dump()
        if isinstance(action, PlaceCard):
            data.pop("card")
        return data

    def result(self, state: State) -> dict[str, Any] | None:
        if state.phase != "over":
            return None
        best = max(state.money)
        return {
            "money": list(state.money),
            "winners": [s for s in range(state.players) if state.money[s] == best],
        }

    def standings(self, state: State) -> tuple[Standing, ...] | None:
        """Most money wins, equal richest share the win (docs/rules/vabanque.md#end); how: paid per round."""
        result = self.result(state)
        if result is None:
            return None
        details = [
            [Detail(code="standing.vabanque.round", params={"round": r + 1, "amount": gains[seat]}) for r, gains in enumerate(state.round_gains)]
            for seat in range(state.players)
        ]
        return ranked([(m,) for m in state.money], state.money, result["winners"], "money", details)

    def random_action(self, state: State, rng: random.Random) -> Action | None:
        if state.phase == "over":
            return None
        if state.phase in ("reveal", "payout"):
            return Ready(by=rng.choice(self.waiting_for(state)))
        seat = self.current_seat(state)
        assert seat is not None
        legal = self.legal(state, seat)
        if state.phase == "chips":
            return PlaceChip(by=seat, table=rng.choice(legal.tables))
        if state.phase == "cards":
            return PlaceCard(by=seat, table=rng.choice(legal.tables), card=rng.choice(legal.cards))
        return MovePawn(by=seat, steps=rng.choice(legal.moves)[0])


GAME = Vabanque()
