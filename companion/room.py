"""Rooms: one game at one table. Seats and tokens, the version, the durable action log, fan-out.

One writer per room: submissions are serialised by an asyncio lock. An accepted action is
appended to the log (committed with fsync, on the store's writer thread) before any listener,
including the sender, hears of it. The state is the replay of the log.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import secrets
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from pydantic import BaseModel, ValidationError

from companion.engine import BOARD, AnyGame, Audience, Outcome, RuleError, Ruling
from companion.games import GAMES
from companion.i18n import validation_problems
from companion.store import AsyncStore, LogEntry, RoomRecord, SeatRecord, Store, TableLink, now

log = logging.getLogger(__name__)

#: How a submission reached the room: a seat's own phone, the host board acting for the current
#: player (public actions only), or pass-and-play on the host board for a player without a phone.
Channel = Literal["seat", "host", "pass"]

LOG_FORMAT: Final = "table-referee-log"
#: 4: the host's own table entries (Corruption's deal, Chicago Poker's tiles and deck cards,
#: Règlement's seating at random) name no seat (`by: null`); a seat takes back only what it sent
#: itself (channel "seat" or "pass"); replay checks each entry's channel as the live room does;
#: 3: Règlement shuffles the set-aside cards into a new pile as the last card of the pile is drawn
#: (the rulebook; 1 and 2: only when a draw found the pile short; see initial_logged);
#: 2: completing a hidden phase waits for a logged `reveal` (or every seat's `ready`), and a seat
#: may take back its own latest action; 1: completing the phase revealed at once (apply_logged).
LOG_FORMAT_VERSION = 4
READABLE_FORMAT_VERSIONS = (1, 2, 3, 4)
#: the first format whose replay checks who sent each entry on which channel (see channel_refusal)
CHANNELS_CHECKED_FROM = 4
#: channels on which a seat sends its own actions: its phone, or the tablet passed to it
OWN_CHANNELS = ("seat", "pass")
RECENT_RULINGS = 40


class Rejected(Exception):
    """A submission the room or the engine refused. Nothing changed."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


class Accepted(BaseModel):
    version: int
    seq: int
    duplicate: bool = False
    rulings: tuple[Ruling, ...] = ()


class ExportedEntry(BaseModel):
    seq: int
    kind: Literal["action", "undo"]
    #: the action (its `type` names it; see the game's action models), or {"count": n} for the
    #: host's undo, {"count": 1, "seat": s} for seat s taking back its own latest action;
    #: secret fields are absent in a redacted export
    payload: dict[str, Any]
    channel: Channel
    at: float


class ExportedRoom(BaseModel):
    id: str
    game: str
    setup: dict[str, Any]
    seed: int
    created: float


class ExportedLog(BaseModel):
    """A room's log as exported from the host board (documented in docs/log.schema.json)."""

    format: Literal["table-referee-log"] = LOG_FORMAT
    format_version: int = LOG_FORMAT_VERSION
    #: true only once the game has ended: then every secret is included and it can be replayed
    complete: bool
    room: ExportedRoom
    entries: list[ExportedEntry]
    #: the game's result once it has ended; None (null, or absent) while it runs, or in a log
    #: written without one: a replay computes it (companion.history.result_refusal)
    result: dict[str, Any] | None = None


RoomEventKind = Literal["version", "presence", "seats", "requests", "next"]


@dataclass(frozen=True)
class RoomEvent:
    """What changed: the game ("version"), who is connected ("presence"), seat links and the
    devices holding them ("seats"), other devices' requests for seats ("requests"), or "Play
    again" made the room that follows this one ("next")."""

    kind: RoomEventKind
    version: int


#: seconds a phone must have been away (its socket gone: a flat battery, out of range) before the
#: host board may play its seat behind the privacy screen; a phone whose screen just went off
#: is back within a few seconds. (Tests about something else, whose pages come and go at
#: machine speed, set REFEREE_AWAY_PLAY_SECONDS high: see tests/conftest.py.)
AWAY_PLAY_SECONDS = float(os.environ.get("REFEREE_AWAY_PLAY_SECONDS", "20"))
#: seconds the host board has to answer a device's request for a seat before it lapses
SEAT_REQUEST_SECONDS = 180.0
#: seconds after a request was refused, lapsed or withdrawn before that seat can be asked for again
SEAT_REQUEST_QUIET_SECONDS = 10.0

RequestOutcome = Literal["open", "allowed", "refused", "expired", "withdrawn"]


@dataclass(eq=False)
class SeatRequest:
    """A device asking for a seat another device holds (companion.room `Room.ask_for_seat`)."""

    seat: int
    #: the asking device's fingerprint
    device: str
    #: when it asked (time.monotonic)
    asked: float
    outcome: RequestOutcome = "open"
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


Listener = Callable[[RoomEvent], Coroutine[Any, Any, None]]


def new_token() -> str:
    """A secret link token: 128 bits from the OS's CSPRNG."""
    return secrets.token_urlsafe(16)


#: the longest device secret a device may bring (ours are 22 characters): anything else is junk
DEVICE_SECRET_MAX = 64


def device_fingerprint(secret: str) -> str:
    """What the host keeps of a device's secret: its SHA-256 (the secret itself stays on the device)."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def valid_device_secret(given: object) -> bool:
    return isinstance(given, str) and 16 <= len(given) <= DEVICE_SECRET_MAX


def channel_refusal(game: AnyGame, action: Any, channel: str, seat: int | None) -> Rejected | None:
    """Who may send what on which channel (the live room, and replay from format 4): host-only
    actions only from the host board; the host board enters only public actions; a seat's
    channel carries only that seat's own actions. `seat` is the sending seat (None: the host)."""
    host_only = game.host_only(action)
    if host_only is not None and channel != "host":
        return Rejected(host_only)
    if channel in OWN_CHANNELS and action.by != seat:
        return Rejected("room.err.not_your_seat", mine=seat, seat=action.by)
    if channel == "host" and not game.is_public(action):
        return Rejected("room.err.secret_on_board", seat=action.by)
    return None


def same_secret(secret: str, given: object) -> bool:
    """Constant-time comparison of a token with what a link or a device brought. Compared as
    bytes: compare_digest refuses a str with non-ASCII characters (a crafted link) with an error."""
    if not isinstance(given, str):
        return False
    return secrets.compare_digest(secret.encode(), given.encode("utf-8", "surrogatepass"))


def idempotency_key(channel: str, seat: int | None, based_on_version: int, action: dict[str, Any]) -> str:
    """Derived from what the device was shown (seat, view version) and the intent, so the same tap
    repeated after a reconnect is the same submission."""
    intent = json.dumps(action, sort_keys=True, separators=(",", ":"))
    raw = f"{channel}|{seat}|{based_on_version}|{intent}"
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


class TakeBackStatus(BaseModel):
    """Whether a seat may take back its own latest action now, and if not, why (a message code)."""

    available: bool
    refusal: str | None = None


def initial_logged(game: AnyGame, setup: BaseModel, seed: int, format_version: int) -> Any:
    """The game's first state as a log of this format version reads it: a game whose rules a
    later format changed (`read_as_format`, optional) keeps an older log's rules."""
    state = game.initial_state(setup, seed)
    read_as = getattr(game, "read_as_format", None)
    return state if read_as is None else read_as(state, format_version)


def apply_logged(game: AnyGame, state: Any, action: Any, format_version: int) -> Outcome[Any]:
    """Apply an action as a log of this format version reads it. In format 1 the action completing
    a hidden phase revealed at once: the reveal is folded into that action's outcome."""
    outcome = game.apply(state, action)
    # A reveal may lead to the next one (a shootout won, the next due at once): all of it then.
    while format_version == 1 and game.awaiting_reveal(outcome.state):
        revealed = game.reveal(outcome.state)
        outcome = Outcome(state=revealed.state, rulings=outcome.rulings + revealed.rulings, reveals=True)
    return outcome


def sent_by(entry: LogEntry, seat: int) -> bool:
    """Whether `seat` sent this action itself (its phone, or the tablet passed to it): what it
    may take back. A move the host board entered for it is the host's to undo."""
    return entry.kind == "action" and entry.channel in OWN_CHANNELS and entry.payload.get("by") == seat


def take_back_refusal(entries: list[LogEntry], outcomes: list[Outcome[Any]], seat: int) -> str | None:
    """Why `seat` may not take back its latest action now (a message code), or None: it may while
    that action is the latest in effect, it sent it itself, and it revealed nothing."""
    # Only the actions since the last reveal count: an older one can never come back, and
    # saying so all round long (a reason under a greyed button) would only be noise.
    since = max((i for i, o in enumerate(outcomes) if o.reveals), default=-1)
    if not any(sent_by(e, seat) for e in entries[max(since, 0):]):
        return "room.err.take_back_nothing"
    if since == len(entries) - 1:  # this seat's own action was the reveal (its "ready")
        return "room.err.take_back_revealed"
    if not sent_by(entries[-1], seat):
        last = entries[-1]
        if last.kind == "action" and last.payload.get("by") == seat:
            return "room.err.take_back_host_entered"  # its move, entered for it on the host board
        return "room.err.take_back_later"
    return None


def undone_seat(payloads: list[dict[str, Any]]) -> int | None:
    """The seat of the latest of these actions that names one (the host's table actions do not)."""
    return next((p["by"] for p in reversed(payloads) if p.get("by") is not None), None)


def undo_ruling(undo: dict[str, Any], undone: list[dict[str, Any]]) -> Ruling:
    """What the board says of an undo entry's payload, given the payloads of the actions it undid:
    a seat took back a move (never which), or the host undid the latest actions."""
    if undo.get("seat") is not None:
        return Ruling(code="room.taken_back", params={"seat": undo["seat"]})
    seat = undone_seat(undone)
    if seat is None:
        return Ruling(code="room.undone_table", params={"count": undo["count"]})
    return Ruling(code="room.undone", params={"seat": seat, "count": undo["count"]})


@dataclass
class Replay:
    """The effective history of a game: states[i] is the state after i effective actions."""

    states: list[Any]
    outcomes: list[Outcome[Any]]
    entries: list[LogEntry]

    @property
    def state(self) -> Any:
        return self.states[-1]


def replay(
    game: AnyGame,
    setup: BaseModel,
    seed: int,
    entries: Iterable[LogEntry],
    format_version: int = LOG_FORMAT_VERSION,
    told: Callable[[int, Iterable[Ruling]], None] | None = None,
    forgot: Callable[[Iterable[int]], None] | None = None,
) -> Replay:
    """Fold a log into states. Undo entries pop the latest effective actions.

    `told(seq, rulings)` hears every ruling the room told as the log was written, in order: the
    opening ones (seq 0), each action's, each undo's notice; `forgot(seqs)` hears, before an
    undo's notice, the seqs of the actions it undid (their rulings are no longer in effect)."""
    result = Replay(states=[initial_logged(game, setup, seed, format_version)], outcomes=[], entries=[])
    if told is not None and hasattr(game, "opening_rulings"):  # what the board says before the first action
        told(0, game.opening_rulings(result.state))
    for entry in entries:
        if entry.kind == "undo":
            count = entry.payload["count"]
            undone = result.entries[-count:]
            if forgot is not None:
                forgot([e.seq for e in undone])
            if told is not None:
                told(entry.seq, [undo_ruling(entry.payload, [e.payload for e in undone])])
            for _ in range(count):
                result.states.pop()
                result.outcomes.pop()
                result.entries.pop()
            continue
        action = game.action_adapter.validate_python(entry.payload)
        outcome = apply_logged(game, result.state, action, format_version)
        result.states.append(outcome.state)
        result.outcomes.append(outcome)
        result.entries.append(entry)
        if told is not None:
            told(entry.seq, outcome.rulings)
    return result


@dataclass
class Room:
    id: str
    game_id: str
    setup: Any
    seed: int
    created: float
    seats: list[SeatRecord]
    store: AsyncStore
    log_entries: list[LogEntry] = field(default_factory=list)
    history: Replay | None = None
    keys: dict[str, int] = field(default_factory=dict)
    recent: list[tuple[int, Ruling]] = field(default_factory=list)
    presence: dict[int, int] = field(default_factory=dict)
    #: listener -> priority; lower is told first (the shared board before the phones)
    listeners: dict[Listener, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: a finished game imported from an exported log: read only (no seats, no actions, no undo)
    archived: bool = False
    #: how this room's log reads (LOG_FORMAT_VERSION when it was created; see apply_logged)
    format_version: int = LOG_FORMAT_VERSION
    #: the table QR code's secret and options (companion.store.TableLink); set by the Host
    table: TableLink = field(default_factory=lambda: TableLink(secret=new_token()))
    #: other devices' requests for claimed seats, by seat (in memory: a restart forgets them)
    requests: dict[int, SeatRequest] = field(default_factory=dict)
    #: per seat, when a new request may be made again (after one was answered or lapsed)
    _request_quiet: dict[int, float] = field(default_factory=dict, repr=False)
    request_seconds: float = SEAT_REQUEST_SECONDS
    #: seconds a claimed seat's phone must have been away before the board may play it
    away_play_seconds: float = AWAY_PLAY_SECONDS
    #: per seat, since when its phone has been away (time.monotonic)
    _away_since: dict[int, float] = field(default_factory=dict, repr=False)
    _loaded_at: float = field(default_factory=time.monotonic, repr=False)
    request_quiet_seconds: float = SEAT_REQUEST_QUIET_SECONDS
    #: the projections of the current state drawn so far, by audience (see view)
    _views: dict[Audience, BaseModel] = field(default_factory=dict, repr=False)
    _viewed_state: Any = field(default=None, repr=False)

    # -- construction --

    @property
    def game(self) -> AnyGame:
        return GAMES[self.game_id]

    @classmethod
    def restore(cls, record: RoomRecord, seats: list[SeatRecord], entries: list[LogEntry], store: AsyncStore) -> Room:
        game = GAMES[record.game]
        setup = game.setup_model.model_validate(record.setup)
        room = cls(
            id=record.id,
            game_id=record.game,
            setup=setup,
            seed=record.seed,
            created=record.created,
            seats=seats,
            store=store,
            format_version=record.format_version,
        )
        room.log_entries = list(entries)
        # The board's "What just happened" as the live room had it: the undo notices, not the rulings of undone actions.
        room.history = replay(game, setup, record.seed, entries, record.format_version, told=room._remember, forgot=room._forget)
        # Keys of actions in effect and of take-backs: an undone action's tap may be sent again.
        room.keys = {e.key: e.seq for e in [*room.history.entries, *(e for e in entries if e.kind == "undo")] if e.key}
        return room

    # -- reading --

    @property
    def version(self) -> int:
        return len(self.log_entries)

    @property
    def state(self) -> Any:
        assert self.history is not None
        return self.history.state

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.setup.players]

    @property
    def over(self) -> bool:
        return self.game.result(self.state) is not None

    def view(self, audience: Audience = BOARD) -> BaseModel:
        """The current state as `audience` sees it. Drawn once per state and audience: every
        page of the room redraws after an action, and each phone reads the board's view too
        (projections are immutable and depend on the state alone)."""
        state = self.state
        if state is not self._viewed_state:
            self._views, self._viewed_state = {}, state
        view = self._views.get(audience)
        if view is None:
            if audience.kind == "seat" and audience.seat is not None and 0 <= audience.seat < len(self.seats):
                # a phone's view is the board's with its own part (one public projection a state)
                view = self.game.seat_view(state, audience.seat, self.view(BOARD))
            else:
                view = self.game.project(state, audience)
            self._views[audience] = view
        return view

    def recent_rulings(self) -> list[Ruling]:
        return [r for _, r in self.recent]

    def seat_for_token(self, token: str | None) -> int | None:
        if not token:
            return None
        for seat in self.seats:
            if same_secret(seat.token, token):
                return seat.seat
        return None

    def token_valid(self, seat: int, token: str | None) -> bool:
        return same_secret(self.seats[seat].token, token)

    def _remember(self, seq: int, rulings: Iterable[Ruling]) -> None:
        self.recent.extend((seq, r) for r in rulings)
        del self.recent[:-RECENT_RULINGS]

    def _forget(self, seqs: Iterable[int]) -> None:
        """Drop the rulings of undone actions: "What just happened" lists only actions in effect
        (their undo's notice says that something was undone, and by whom, never what)."""
        gone = set(seqs)
        self.recent = [(seq, r) for seq, r in self.recent if seq not in gone]

    # -- fan-out --

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self.subscribe_first(listener, priority=1)

    def subscribe_first(self, listener: Listener, priority: int = 0) -> Callable[[], None]:
        """Subscribe with a priority: listeners are told in priority order (the board, which
        everyone at the table watches, before the phones)."""
        self.listeners[listener] = priority

        def unsubscribe() -> None:
            self.listeners.pop(listener, None)

        return unsubscribe

    def _notify(self, kind: RoomEventKind) -> None:
        event = RoomEvent(kind=kind, version=self.version)
        for listener in sorted(self.listeners, key=self.listeners.__getitem__):
            task = asyncio.get_running_loop().create_task(listener(event))
            task.add_done_callback(_log_failure)

    def set_presence(self, seat: int, delta: int) -> None:
        was = self.connected(seat)
        self.presence[seat] = max(0, self.presence.get(seat, 0) + delta)
        if was and not self.connected(seat):
            self._away_since[seat] = time.monotonic()
            # the board offers "Play here" once the phone has been away a while: told then
            asyncio.get_running_loop().call_later(self.away_play_seconds, self._notify, "presence")
        elif self.connected(seat):
            self._away_since.pop(seat, None)
        self._notify("presence")

    def connected(self, seat: int) -> bool:
        return self.presence.get(seat, 0) > 0

    def playable_here(self, seat: int) -> bool:
        """Whether the host board may play this seat behind its privacy screen: a seat no device
        holds, or one whose device has been away (disconnected) for `away_play_seconds` (a phone
        out of battery). The one exception to "a seat answers its device only": the phone coming
        back takes over again."""
        if not self.seats[seat].claimed:
            return True
        # a phone not back since the host started has been away since then
        since = self._away_since.get(seat, self._loaded_at)
        return not self.connected(seat) and time.monotonic() - since >= self.away_play_seconds

    # -- writing --

    def parse(self, raw: dict[str, Any]) -> Any:
        try:
            return self.game.action_adapter.validate_python(raw)
        except ValidationError as exc:
            code, params = validation_problems(exc)[0]
            raise Rejected("room.err.bad_action", problem={"code": code, "params": params}) from None

    async def submit(
        self,
        raw: dict[str, Any],
        *,
        channel: Channel,
        seat: int | None,
        based_on_version: int,
    ) -> Accepted:
        """Validate, log durably, apply, then tell everyone. Raises Rejected (nothing changes)."""
        if self.archived:
            raise Rejected("room.err.archived")
        action = self.parse(raw)
        refusal = channel_refusal(self.game, action, channel, seat)
        if refusal is not None:
            raise refusal
        canonical = action.model_dump(mode="json")
        key = idempotency_key(channel, seat, based_on_version, canonical)
        async with self.lock:
            if key in self.keys:
                return Accepted(version=self.version, seq=self.keys[key], duplicate=True)
            if based_on_version != self.version:
                raise Rejected("room.err.stale", version=self.version)
            try:
                outcome = apply_logged(self.game, self.state, action, self.format_version)
            except RuleError as err:
                raise Rejected(err.code, **err.params) from None
            entry = LogEntry(seq=self.version + 1, kind="action", payload=canonical, channel=channel, key=key, at=now())
            await self.store.call("append", self.id, entry)
            # Durable: now the room may change and tell.
            self.log_entries.append(entry)
            assert self.history is not None
            self.history.states.append(outcome.state)
            self.history.outcomes.append(outcome)
            self.history.entries.append(entry)
            self.keys[key] = entry.seq
            self._remember(entry.seq, outcome.rulings)
            self._notify("version")
            return Accepted(version=self.version, seq=entry.seq, rulings=outcome.rulings)

    def undoable(self) -> int:
        """How many of the latest actions may be undone (never across a reveal)."""
        assert self.history is not None
        count = 0
        for outcome in reversed(self.history.outcomes):
            if outcome.reveals:
                break
            count += 1
        return count

    async def undo(self, count: int = 1, *, based_on_version: int | None = None) -> Accepted:
        """The host undoes the latest `count` actions. `based_on_version`: the version the host
        saw when it tapped Undo; a tap on an Undo drawn before the latest change (a hurried double
        tap) is refused as stale, never applied to an action the host did not see."""
        if self.archived:
            raise Rejected("room.err.archived")
        async with self.lock:
            if based_on_version is not None and based_on_version != self.version:
                raise Rejected("room.err.stale", version=self.version)
            assert self.history is not None
            if not self.history.outcomes:
                raise Rejected("room.err.nothing_to_undo")
            if count < 1 or count > self.undoable():
                raise Rejected("room.err.undo_reveal" if self.undoable() < count else "room.err.nothing_to_undo")
            undone = [e.payload for e in self.history.entries[-count:]]
            entry = LogEntry(seq=self.version + 1, kind="undo", payload={"count": count}, channel="host", at=now())
            return await self._append_undo(entry, count, undo_ruling(entry.payload, undone))

    async def _append_undo(self, entry: LogEntry, count: int, ruling: Ruling) -> Accepted:
        """Log an undo durably, then drop the undone actions (and their idempotency keys: a tap
        sent again after an undo is a new submission, not a duplicate of nothing) and tell."""
        assert self.history is not None
        await self.store.call("append", self.id, entry)
        self.log_entries.append(entry)
        gone: list[int] = []
        for _ in range(count):
            self.history.states.pop()
            self.history.outcomes.pop()
            undone = self.history.entries.pop()
            gone.append(undone.seq)
            if undone.key is not None:
                self.keys.pop(undone.key, None)
        if entry.key is not None:
            self.keys[entry.key] = entry.seq
        self._forget(gone)
        self._remember(entry.seq, [ruling])
        self._notify("version")
        return Accepted(version=self.version, seq=entry.seq, rulings=(ruling,))

    def take_back_status(self, seat: int) -> TakeBackStatus:
        """May this seat take back its own latest action now? Only while it is the latest action
        in effect and it revealed nothing (a take-back never shows what it took back)."""
        assert self.history is not None
        if self.archived:
            return TakeBackStatus(available=False, refusal="room.err.take_back_nothing")
        refusal = take_back_refusal(self.history.entries, self.history.outcomes, seat)
        return TakeBackStatus(available=refusal is None, refusal=refusal)

    async def take_back(self, seat: int, *, based_on_version: int, channel: Literal["seat", "pass"] = "seat") -> Accepted:
        """Undo exactly this seat's latest action (see take_back_status), logged with the seat as
        its sender. The ruling names the seat, never the action. Raises Rejected."""
        if self.archived:
            raise Rejected("room.err.archived")
        key = idempotency_key(channel, seat, based_on_version, {"take_back": seat})
        async with self.lock:
            if key in self.keys:
                return Accepted(version=self.version, seq=self.keys[key], duplicate=True)
            if based_on_version != self.version:
                raise Rejected("room.err.stale", version=self.version)
            status = self.take_back_status(seat)
            if status.refusal is not None:
                raise Rejected(status.refusal)
            entry = LogEntry(
                seq=self.version + 1, kind="undo", payload={"count": 1, "seat": seat}, channel=channel, key=key, at=now()
            )
            return await self._append_undo(entry, 1, undo_ruling(entry.payload, []))

    # -- a seat is one device's --

    def holds(self, seat: int, device: str) -> bool:
        """Whether this device (its secret) holds the seat."""
        held = self.seats[seat].device
        return held is not None and secrets.compare_digest(held, device_fingerprint(device))

    def answers(self, seat: int, token: str | None, device: str) -> bool:
        """Whether the seat answers this device now: its link is current and the seat is bound to
        this device (a seat no device holds answers none until it is claimed)."""
        return 0 <= seat < len(self.seats) and self.token_valid(seat, token) and self.holds(seat, device)

    async def claim(self, seat: int, device: str) -> bool:
        """A device brings the seat's valid link: it takes the seat if no device holds it (a new
        seat, a reissued link, a seat claimed before seats were bound to devices). True when this
        device holds the seat; False when another one does (then it may ask the host board)."""
        async with self.lock:  # two devices opening one link at once: the first gets it
            record = self.seats[seat]
            if record.device is None:
                record = record.model_copy(update={"claimed": True, "device": device_fingerprint(device)})
                await self.store.call("set_seat", self.id, record)
                self.seats[seat] = record
                self._notify("seats")
                return True
        return self.holds(seat, device)

    def request(self, seat: int) -> SeatRequest | None:
        """The open request of another device for this seat, if any."""
        request = self.requests.get(seat)
        return request if request is not None and request.outcome == "open" else None

    async def ask_for_seat(self, seat: int, device: str, now_: float | None = None) -> SeatRequest:
        """Another device opened this claimed seat's link: the host board is asked (Allow /
        Refuse). One open request per seat: the same device asking again gets its own request
        back; another device is refused while one is open, and any device for a short while after
        one was answered or lapsed (a device that keeps asking costs the others nothing)."""
        if self.archived:
            raise Rejected("room.err.archived")
        at = time.monotonic() if now_ is None else now_
        fingerprint = device_fingerprint(device)
        open_request = self.request(seat)
        if open_request is not None:
            if secrets.compare_digest(open_request.device, fingerprint):
                return open_request
            raise Rejected("seat.err.request_waiting", seat=seat)
        quiet_until = self._request_quiet.get(seat, 0.0)
        if at < quiet_until:
            raise Rejected("seat.err.request_soon", seat=seat, seconds=max(1, round(quiet_until - at)))
        request = SeatRequest(seat=seat, device=fingerprint, asked=at)
        self.requests[seat] = request
        loop = asyncio.get_running_loop()
        request.timer = loop.call_later(self.request_seconds, self._lapse_request, request)
        self._notify("requests")
        return request

    def _lapse_request(self, request: SeatRequest) -> None:
        if self.requests.get(request.seat) is request and request.outcome == "open":
            self._close_request(request, "expired")

    def _close_request(self, request: SeatRequest, outcome: RequestOutcome) -> None:
        request.outcome = outcome
        if request.timer is not None:
            request.timer.cancel()
            request.timer = None
        self.requests.pop(request.seat, None)
        if outcome != "allowed":
            self._request_quiet[request.seat] = time.monotonic() + self.request_quiet_seconds
        self._notify("requests")

    async def answer_request(self, seat: int, allow: bool) -> None:
        """The host board's answer: Allow moves the seat to the asking device (the device on it
        is signed out at once, as by a new link); Refuse leaves it where it is."""
        request = self.request(seat)
        if request is None:
            raise Rejected("seat.err.request_gone", seat=seat)
        if allow:
            async with self.lock:
                record = self.seats[seat].model_copy(update={"claimed": True, "device": request.device})
                await self.store.call("set_seat", self.id, record)
                self.seats[seat] = record
            self._close_request(request, "allowed")
            self._notify("seats")
        else:
            self._close_request(request, "refused")

    async def withdraw_request(self, request: SeatRequest) -> None:
        """The asking device left its page: its request goes (the board stops asking)."""
        if self.requests.get(request.seat) is request and request.outcome == "open":
            self._close_request(request, "withdrawn")

    # -- the table QR code: one scan, then a tap on a free seat --

    def table_secret_valid(self, given: object) -> bool:
        return not self.archived and self.table.free_seats and same_secret(self.table.secret, given)

    @property
    def started(self) -> bool:
        """A player's first move is in the log (an undo does not make it new again). The host's
        own table entries before it (Corruption's deal, Chicago Poker's tiles, entered as the box
        is opened) start nothing: phones may still pick their seats from the table QR code."""
        return any(e.kind == "action" and e.payload.get("by") is not None for e in self.log_entries)

    def free_seats(self) -> list[int]:
        """Seats the free-seat page offers: before the first action only, never a claimed one or
        one played on the tablet (pass-and-play)."""
        if self.started or not self.table.free_seats or self.archived:
            return []
        return [s.seat for s in self.seats if not s.claimed and s.seat not in self.table.pass_seats]

    async def claim_free(self, seat: int, device: str) -> str:
        """Claim a free seat from the table page for this device: its token, for the phone to
        keep. Raises Rejected when the seat is no longer offered (taken meanwhile, or the game
        started)."""
        async with self.lock:  # two phones tapping the same seat: one gets it
            if seat not in self.free_seats():
                raise Rejected("table.err.seat_gone", seat=seat)
            record = self.seats[seat].model_copy(update={"claimed": True, "device": device_fingerprint(device)})
            await self.store.call("set_seat", self.id, record)
            self.seats[seat] = record
        self._notify("seats")
        return record.token

    async def mark_pass_and_play(self, seat: int) -> None:
        """This seat plays on the tablet: the free-seat page stops offering it."""
        if seat in self.table.pass_seats:
            return
        link = self.table.model_copy(update={"pass_seats": tuple(sorted({*self.table.pass_seats, seat}))})
        await self.store.call("set_table_link", self.id, link)
        self.table = link
        self._notify("seats")

    async def reissue(self, seat: int) -> str:
        """A new link for a seat; the old one stops working and its phone is signed out."""
        if self.archived:
            raise Rejected("room.err.archived")
        record = SeatRecord(seat=seat, token=new_token(), claimed=False)
        await self.store.call("set_seat", self.id, record)
        self.seats[seat] = record
        request = self.request(seat)
        if request is not None:  # asked with the old link: nothing left to allow
            self._close_request(request, "refused")
        self._notify("seats")
        return record.token

    # -- export --

    def export(self, complete: bool) -> dict[str, Any]:
        """The log as JSON: redacted while the game runs; complete (every secret) once over."""
        if complete and not self.over:
            raise Rejected("room.err.no_rights")
        entries = []
        for entry in self.log_entries:
            payload = entry.payload
            if entry.kind == "action" and not complete:
                payload = self.game.redact(self.game.action_adapter.validate_python(payload))
            entries.append(ExportedEntry(seq=entry.seq, kind=entry.kind, payload=payload, channel=entry.channel, at=entry.at))
        exported = ExportedLog(
            format_version=self.format_version,
            complete=complete,
            room=ExportedRoom(
                id=self.id,
                game=self.game_id,
                setup=self.setup.model_dump(mode="json"),
                seed=self.seed,
                created=self.created,
            ),
            entries=entries,
            result=self.game.result(self.state),
        )
        return exported.model_dump(mode="json")


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("room listener failed", exc_info=task.exception())


def replay_export(data: dict[str, Any]) -> tuple[Any, Any]:
    """Replay a complete exported log; returns (game, final state)."""
    if data.get("format") != LOG_FORMAT:
        raise ValueError("not a table-referee log")
    log = ExportedLog.model_validate(data)
    if not log.complete:
        raise ValueError("this log has its secrets removed (exported while the game ran); it cannot be replayed")
    game = GAMES.get(log.room.game)
    if game is None:
        raise ValueError(f"unknown game {log.room.game}")
    setup = game.setup_model.model_validate(log.room.setup)
    if log.format_version not in READABLE_FORMAT_VERSIONS:
        raise ValueError(f"unknown log format version {log.format_version}")
    entries = [LogEntry(seq=e.seq, kind=e.kind, payload=e.payload, channel=e.channel, at=e.at) for e in log.entries]
    return game, replay(game, setup, log.room.seed, entries, log.format_version).state


class Host:
    """All rooms of one host process, restored from the store at start."""

    def __init__(self, store: Store):
        self.store = AsyncStore(store)
        self.token = store.host_token()
        self.rooms: dict[str, Room] = {}
        #: finished games imported from exported logs (companion.history.import_log): history only, never rooms
        self.imported: dict[str, Room] = {}
        self.listeners: set[Callable[[], Coroutine[Any, Any, None]]] = set()
        #: one import at a time: the duplicate check and the insert are one step
        self.importing = asyncio.Lock()
        #: "Play again" tapped twice (or on two boards) makes one new room
        self._playing_again = asyncio.Lock()
        imported = store.imported()
        for record in store.rooms():
            room = Room.restore(record, store.seats(record.id), store.log(record.id), self.store)
            if record.id in imported:
                room.archived = True
                self.imported[record.id] = room
            else:
                self.rooms[record.id] = room
                link = store.table_link(record.id)
                if link is None:  # a room from before table QR codes: its secret, kept from now on
                    link = TableLink(secret=new_token())
                    store.set_table_link(record.id, link)
                room.table = link

    def is_host(self, token: str | None) -> bool:
        return same_secret(self.token, token)

    def subscribe(self, listener: Callable[[], Coroutine[Any, Any, None]]) -> Callable[[], None]:
        self.listeners.add(listener)
        return lambda: self.listeners.discard(listener)

    async def create_room(
        self,
        game_id: str,
        setup_raw: dict[str, Any],
        seed: int | None = None,
        *,
        free_seats: bool = True,
        devices: Sequence[str | None] = (),
    ) -> Room:
        """A new room. `devices`: per seat, the fingerprint of a device already holding it (Play
        again: each phone keeps its seat in the next game)."""
        game = GAMES.get(game_id)
        if game is None:
            raise Rejected("room.err.unknown_game", game=game_id)
        try:
            setup = game.setup_model.model_validate(setup_raw)
        except ValidationError as exc:
            code, params = validation_problems(exc)[0]
            raise Rejected("room.err.invalid_setup", problem={"code": code, "params": params}) from None
        room_id = secrets.token_hex(3)
        while room_id in self.rooms or room_id in self.imported:
            room_id = secrets.token_hex(3)
        record = RoomRecord(
            id=room_id,
            game=game_id,
            setup=setup.model_dump(mode="json"),
            seed=secrets.randbits(63) if seed is None else seed,
            created=now(),
            format_version=LOG_FORMAT_VERSION,
        )
        held = list(devices) + [None] * len(setup.players)
        seats = [
            SeatRecord(seat=i, token=new_token(), claimed=held[i] is not None, device=held[i]) for i in range(len(setup.players))
        ]
        link = TableLink(secret=new_token(), free_seats=free_seats)
        await self.store.call("create_room", record, seats, link)
        room = Room.restore(record, seats, [], self.store)
        room.table = link
        self.rooms[room_id] = room
        for listener in list(self.listeners):
            asyncio.get_running_loop().create_task(listener()).add_done_callback(_log_failure)
        return room

    async def play_again(self, room: Room) -> Room:
        """A new room of the same game, players, seats and house rules (a new seed) after a
        finished one; the old room stays (it is in the history) and names the new one, so each
        of its phones moves to its own seat there (views/seat.py). Made once: asked again, the
        same new room."""
        if room.archived or not room.over:
            raise Rejected("table.err.not_over")
        async with self._playing_again:
            following = self.rooms.get(room.table.next_room or "")
            if following is not None:
                return following
            following = await self.create_room(
                room.game_id,
                room.setup.model_dump(mode="json"),
                free_seats=room.table.free_seats,
                devices=[s.device for s in room.seats],
            )
            if room.table.pass_seats:  # who played on the tablet still does
                following.table = following.table.model_copy(update={"pass_seats": room.table.pass_seats})
                await self.store.call("set_table_link", following.id, following.table)
            link = room.table.model_copy(update={"next_room": following.id})
            await self.store.call("set_table_link", room.id, link)
            room.table = link
        room._notify("next")
        return following

    async def add_imported(self, record: RoomRecord, entries: list[LogEntry], source_id: str) -> Room:
        """Keep a finished game read from a checked log (companion.history.import_log checks it and
        holds `importing`): under a new id (the log's own may be taken), stored as one
        transaction, read only."""
        room_id = secrets.token_hex(3)
        while room_id in self.rooms or room_id in self.imported:
            room_id = secrets.token_hex(3)
        record = record.model_copy(update={"id": room_id})
        room = await asyncio.to_thread(Room.restore, record, [], entries, self.store)
        await self.store.call("import_room", record, entries, source_id[:200], now())
        room.archived = True
        self.imported[room_id] = room
        for listener in list(self.listeners):
            asyncio.get_running_loop().create_task(listener()).add_done_callback(_log_failure)
        return room

    def close(self) -> None:
        self.store.close()
