"""The contract every game engine implements.

A game is a module-level object satisfying :class:`Game`. It is pure: no I/O, no clocks, no
global randomness. The room layer owns persistence, identity and fan-out; the engine owns rules.

    state = game.initial_state(setup, seed)
    outcome = game.apply(state, action)        # raises RuleError; never mutates `state`
    view = game.project(outcome.state, BOARD)  # or seat_audience(n)

Actions carry their sender (`by`, a seat index). The room has already checked that the device
sending it may speak for that seat; the engine checks whether that seat may do it now.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, Literal, Protocol, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class Model(BaseModel):
    """Base for every engine model: immutable, strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Ruling(Model):
    """One structured record of what happened and why.

    `code` names an English message template registered with the game (see `MESSAGES`);
    `params` fill it. Views render rulings in the reader's language; engines never format text.
    Parameter naming convention understood by the renderer: `seat`, `seats`, `*_seat` are seat
    indices (rendered as player names), `amount` / `*_amount` are money.
    """

    code: str
    params: dict[str, Any] = Field(default_factory=dict)


class RuleError(Exception):
    """A rejected action: a stable code a test can assert, params for the player's message."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"RuleError({self.code!r}, {self.params!r})"


class Audience(Model):
    """Who a projection is for. The host sees the board view (host rights are controls)."""

    kind: Literal["board", "seat"]
    seat: int | None = None


BOARD = Audience(kind="board")


def seat_audience(seat: int) -> Audience:
    return Audience(kind="seat", seat=seat)


StateT = TypeVar("StateT", bound=Model)
ActionT = TypeVar("ActionT", bound=Model)
SetupT = TypeVar("SetupT", bound=Model)
#: an outcome's state: any game's (unbound, so pydantic takes the engine's state as it is)
OutcomeStateT = TypeVar("OutcomeStateT")


class Outcome(Model, Generic[OutcomeStateT]):
    """Result of applying one action.

    `reveals` is true when this action made hidden information public (a payout, a shootout,
    an award phase): undo never goes back across such an action.
    """

    state: OutcomeStateT
    rulings: tuple[Ruling, ...] = ()
    reveals: bool = False


class Game(Protocol[SetupT, StateT, ActionT]):
    """What a game module exposes (see docs/engine.md). `GAMES` holds the four as `AnyGame`,
    `Game[Any, Any, Any]`: a room reads a game's setup, state and actions through this contract
    whatever the game; `companion.games` checks each engine against it with its own types.

    Two methods are optional, looked up with `getattr`: `opening_rulings(state)`, what the board
    says before the first action, and `read_as_format(state, format_version)`, the first state as
    a log of an older format reads it (`companion.room.initial_logged`)."""

    id: ClassVar[str]
    #: pydantic model of the setup (players, variants, house rules with recommended defaults)
    setup_model: type[SetupT]
    #: validates a raw action (a log entry, a submission) into one of the action models
    action_adapter: TypeAdapter[ActionT]
    #: English templates of the game's rulings, its errors and the names they use (cards,
    #: phases, house rules); its pages' labels live with its views (views/labels/<game>.py)
    messages: dict[str, str]
    #: {setup field: its allowed values} for the setup screen and the rule card
    house_rules: dict[str, tuple[Any, ...]]

    @property
    def action_model(self) -> object:
        """The discriminated union of actions (field `type`), as a type expression (read only: a
        union's type is no plain class)."""
        ...

    def player_colours(self, players: int) -> tuple[str, ...] | None:
        """The colours (`companion.players.Colour`) the box's pieces allow for this many players,
        in the order the setup screen gives them out; None when any of the app's colours will do."""
        ...

    def initial_state(self, setup: SetupT, seed: int) -> StateT: ...

    def apply(self, state: StateT, action: ActionT) -> Outcome[StateT]: ...

    def project(self, state: StateT, audience: Audience) -> BaseModel: ...

    def seat_view(self, state: StateT, seat: int, board: Any) -> BaseModel:
        """`project(state, seat_audience(seat))` drawn from `board`, `project(state, BOARD)`."""
        ...

    def waiting_for(self, state: StateT) -> tuple[int, ...]:
        """Seats the game is waiting on right now (empty when over)."""
        ...

    def is_public(self, action: ActionT) -> bool:
        """True if the host board may enter this action for the acting player."""
        ...

    def redact(self, action: ActionT) -> dict[str, Any]:
        """The action as the host log and running export show it (secrets removed)."""
        ...

    def result(self, state: StateT) -> dict[str, Any] | None:
        """Public final result (scores per seat, winners) once over, else None."""
        ...

    def standings(self, state: StateT) -> tuple[Any, ...] | None:
        """Once over, one `companion.standings.Standing` per seat, best first (ranks by the
        game's tie rules, rank 1 = the winners) with how each got there; else None."""
        ...

    def random_action(self, state: StateT, rng: random.Random) -> ActionT | None:
        """A uniformly chosen legal action for simulation, or None when the game is over."""
        ...

    def awaiting_reveal(self, state: StateT) -> bool:
        """True while hidden placements are complete and wait for the `reveal` action (the host
        board's) or for every seat's `ready`."""
        ...

    def reveal(self, state: StateT) -> Outcome[StateT]:
        """Perform the reveal the state waits for, without the rulings announcing who asked for it.
        Replays of format-1 logs (written when completing a phase revealed at once) call it right
        after the completing action (`companion.room.apply_logged`)."""
        ...

    def host_only(self, action: ActionT) -> str | None:
        """The refusal code when only the host board may send this action (a reveal, starting the
        next round), else None. The room refuses it from phones with that code."""
        ...


#: any of the games, as a room reads it (`companion.games.GAMES`)
AnyGame = Game[Any, Any, Any]


def announced(outcome: Outcome[OutcomeStateT], *rulings: Ruling) -> Outcome[OutcomeStateT]:
    """The outcome with `rulings` said first (who asked for a reveal, before what it shows)."""
    return outcome.model_copy(update={"rulings": (*rulings, *outcome.rulings)})


class ReadyState(Protocol):
    """What `seat_ready` and `reveal_request` read of a game's state: the seats that are ready,
    the phase, the player count; a pydantic model's copy."""

    @property
    def ready(self) -> tuple[int, ...]: ...

    @property
    def phase(self) -> str: ...

    @property
    def players(self) -> int: ...

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self: ...


class HostReveal(Protocol):
    """A game's `reveal` action: the host board's."""

    @property
    def type(self) -> Literal["reveal"]: ...


class SeatReady(Protocol):
    """A game's `ready` action: a seat's."""

    @property
    def type(self) -> Literal["ready"]: ...

    @property
    def by(self) -> int: ...


ReadyT = TypeVar("ReadyT", bound=ReadyState)


def seat_ready(state: ReadyT, seat: int, players: int, game_id: str, complete: Callable[[ReadyT], Outcome[ReadyT]], all_ready: str) -> Outcome[ReadyT]:
    """`seat` says it is ready (`state.ready` lists who is); the last seat's ready performs
    `complete(state) -> Outcome` (the reveal, the next round) inside this same action, announced
    by the ruling `all_ready`."""
    if seat in state.ready:
        raise RuleError(f"{game_id}.err.already_ready")
    ruling = Ruling(code=f"{game_id}.ready", params={"seat": seat})
    if len(state.ready) + 1 < players:
        return Outcome(state=state.model_copy(update={"ready": (*state.ready, seat)}), rulings=(ruling,))
    return announced(complete(state), ruling, Ruling(code=all_ready))


def reveal_request(state: ReadyT, action: HostReveal | SeatReady, game_id: str, reveal: Callable[[ReadyT], Outcome[ReadyT]]) -> Outcome[ReadyT]:
    """A game's reveal phase answers two actions: the host board's `reveal` (announced by
    `<game>.host_revealed`), or one seat's `ready`, the last of which reveals (`<game>.all_ready`).
    `reveal(state) -> Outcome` is the game's own reveal."""
    if state.phase != "reveal":
        raise RuleError(f"{game_id}.err.wrong_phase", phase=state.phase)
    if action.type == "reveal":
        return announced(reveal(state), Ruling(code=f"{game_id}.host_revealed"))
    return seat_ready(state, action.by, state.players, game_id, reveal, f"{game_id}.all_ready")


def rng_for(seed: int, *salt: object) -> random.Random:
    """A deterministic generator for one decision, derived from the room seed.

    Engines never keep a generator in state: each random decision (first player, a tie-break)
    derives its own from the seed and a salt naming the decision, so replays are exact.
    """
    return random.Random(f"{seed}:" + ":".join(map(str, salt)))
