"""Game history: summaries of finished games, their step-by-step replay, and the checks an
imported log must pass. Pure: no Flet, no I/O (the host's store is reached through companion.room).

A finished game is either a room of this host whose game has ended, or a game imported from a
complete exported log (`Host.imported`, read only). Both replay from their log the same way.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

from babel.dates import format_datetime
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from companion.engine import BOARD, AnyGame, RuleError, Ruling
from companion.games import GAMES
from companion.room import (
    CHANNELS_CHECKED_FROM,
    LOG_FORMAT,
    LOG_FORMAT_VERSION,
    OWN_CHANNELS,
    READABLE_FORMAT_VERSIONS,
    ExportedLog,
    Rejected,
    apply_logged,
    channel_refusal,
    initial_logged,
    replay_export,
    sent_by,
)
from companion.store import LogEntry, RoomRecord

if TYPE_CHECKING:
    from companion.i18n import Translator
    from companion.room import Host, Room

#: Strings of the import page and of import refusals, and what the command line says of a replay
#: (codes -> English); the history pages' labels are the views' (views/labels/pages.py).
MESSAGES: dict[str, str] = {
    "history.back": "Back to the finished games",
    "history.import_title": "Import a finished game",
    "history.import_help": "Choose a complete log (exported from the host board once the game had ended). It is checked action by action before it is kept.",
    "history.import_button": "Import",
    "history.import_done": "Imported: {game}, {players}. It is now in the finished games.",
    "history.import_refused": "Not imported: {reason}",
    "history.err.bad_json": "The file is not readable JSON ({detail}).",
    "history.err.too_big": "The file is too large for a game log.",
    "history.err.not_a_log": "The file is not a table referee game log.",
    "history.err.version": "This log was written in format version {version}; this host reads version {expected}.",
    "history.err.malformed": "The log is damaged: {detail}",
    "history.err.redacted": "This log has its secrets removed (exported while the game was running): its hidden moves cannot be checked, so it can be neither replayed nor imported. A log exported once the game has ended has every secret in it.",
    "history.err.unknown_game": "The log is of an unknown game ({game}).",
    "history.err.setup": "The players and rules in the log do not fit {game:label=game}: {detail}",
    "history.err.missing_entry": "Entry {n:num} is missing from the log.",
    "history.err.bad_undo": "Entry {n:num} undoes actions that could not be undone.",
    "history.err.not_an_action": "Entry {n:num} is not an action of {game:label=game}: {detail}",
    "history.err.illegal": "Entry {n:num} breaks the rules: {reason}",
    "history.err.wrong_channel": "Entry {n:num} came from a device that may not send it ({channel}): {reason}",
    "history.err.unfinished": "The game in this log has not ended: only a finished game can be imported.",
    "history.replay_unfinished": "The game in this log has not ended: this is the state after its last entry.",
    "history.replay_result_computed": "The log records no result: the result above is computed from its actions (an import needs it recorded in the log).",
    "history.err.result_mismatch": "The log's recorded result is not the one its actions give (field by field):",
    "history.result_field_differs": "{field}: recorded {recorded}, computed {computed}",
    "history.result_field_same": "{field}: {value} in both",
    "history.result_absent": "(absent)",
    "history.err.result_missing": "This log records no result. An import keeps a finished game with the result it checked against the actions, so the log must record it; its actions give: {result}",
    "history.err.result_unfinished": "The log records a result, but the game in it has not ended after its last entry: leave `result` out (or null) to replay it as it stands.",
    "history.err.replay": "The log cannot be replayed: {detail}",
    "history.err.already_here": "This game is already on this host ({room}).",
    "room.err.archived": "This game is finished and archived: it cannot be played on.",
}

#: An exported log bigger than this is refused unread (a long game is well under 1 MB).
MAX_LOG_BYTES = 8 * 1024 * 1024
#: An upload (the log plus a browser form's multipart framing) bigger than this is refused.
MAX_UPLOAD_BYTES = MAX_LOG_BYTES + 64 * 1024
#: More entries than this are refused before any is replayed: the longest games take a few
#: hundred actions, and every entry is replayed again at each start of the host.
MAX_LOG_ENTRIES = 10_000
#: Dates a log may carry (seconds since 1970): anything outside cannot be shown as a date.
LATEST_TIME = datetime(3000, 1, 1, tzinfo=UTC).timestamp()
#: What SQLite stores as an integer (a seed outside it cannot be kept).
SEED_RANGE = range(-(2**63), 2**63)


# -- each game's result (what a log's `result` records; described in docs/log.schema.json) --


class _Result(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


#: a seat number (0 = the first player of `room.setup.players`)
_Seat = Annotated[int, Field(ge=0)]


class VabanqueResult(_Result):
    """Vabanque's result, as the host writes it: `{"money": [140000, 90000, 140000], "winners": [0, 2]}`.
    Lists are per seat, in seat order; key order does not matter."""

    money: list[int] = Field(description="each seat's money at the end of the last round, in seat order")
    winners: list[_Seat] = Field(min_length=1, description="the seats with the most money, in ascending order (several when equal)")


class CorruptionResult(_Result):
    """Corruption's result, as the host writes it: `{"score": [2100000, 900000, 2100000],
    "contracts": [3, 2, 4], "winners": [2]}`. Lists are per seat, in seat order; key order does
    not matter."""

    score: list[int] = Field(description="the total value of the contracts each seat won, in seat order")
    contracts: list[int] = Field(description="how many contracts each seat won, in seat order")
    winners: list[_Seat] = Field(
        min_length=1,
        description="the seats with the highest score; on a tie the most contracts, then shared; in ascending order",
    )


class ChicagoPokerResult(_Result):
    """Chicago Poker's result, as the host writes it: `{"score": [3, 1, 2], "winners": [0]}`.
    Lists are per seat, in seat order; key order does not matter."""

    score: list[int] = Field(description="how many businesses each seat controls at the end, in seat order")
    winners: list[_Seat] = Field(
        min_length=1,
        max_length=1,
        description="the one seat that won: it met a victory condition, or took the last business",
    )


class ReglementResult(_Result):
    """Règlement de comptes' result, as the host writes it: `{"money": [13000, 107000, 0],
    "winners": [1]}`. Lists are per seat, in seat order; key order does not matter."""

    money: list[int] = Field(description="each seat's money at the end, in seat order")
    winners: list[_Seat] = Field(
        min_length=1,
        description="the seats with the most money; on a tie who stayed in play longest, then the most gangsters, then shared; in ascending order",
    )


#: {game id: the model of its `result(state)`} (tests/test_log_contract.py checks each engine's
#: results against it)
RESULT_MODELS: dict[str, type[_Result]] = {
    "vabanque": VabanqueResult,
    "corruption": CorruptionResult,
    "chicago_poker": ChicagoPokerResult,
    "reglement": ReglementResult,
}


# -- summaries --


class GameSummary(BaseModel):
    """One line of the finished games list."""

    room_id: str
    game: str
    players: list[str]
    colours: list[str]
    winners: list[int]
    started: float
    #: when the last action was recorded (the one that ended the game)
    finished: float
    actions: int
    #: the last round played, for games counted in rounds; else None
    rounds: int | None
    imported: bool


def summarize(room: Room) -> GameSummary | None:
    """The summary of a finished game, or None while it runs."""
    result = room.game.result(room.state)
    if result is None:
        return None
    assert room.history is not None
    view = room.view(BOARD)
    rounds = getattr(view, "round", None)
    return GameSummary(
        room_id=room.id,
        game=room.game_id,
        players=room.names,
        colours=[p.colour for p in room.setup.players],
        winners=list(result.get("winners", [])),
        started=room.created,
        finished=room.log_entries[-1].at if room.log_entries else room.created,
        actions=len(room.history.outcomes),
        rounds=rounds if isinstance(rounds, int) else None,
        imported=room.archived,
    )


def finished_games(host: Host) -> list[GameSummary]:
    """Every finished game on this host, its own and imported ones, the latest ended first."""
    summaries = [summarize(room) for room in [*host.rooms.values(), *host.imported.values()]]
    return sorted((s for s in summaries if s is not None), key=lambda s: s.finished, reverse=True)


def finished_room(host: Host, room_id: str) -> Room | None:
    """The finished game with this id (own or imported), None if unknown or still running."""
    room = host.rooms.get(room_id) or host.imported.get(room_id)
    return room if room is not None and room.over else None


def format_when(tr: Translator, timestamp: float) -> str:
    """A date and time in the reader's language, in the host's time zone."""
    moment = datetime.fromtimestamp(timestamp).astimezone()
    return format_datetime(moment, format="medium", locale=tr.locale)


# -- replay, one action at a time --


@dataclass(frozen=True)
class ReplayStep:
    """The game after `index` effective actions (0 = before the first one)."""

    index: int
    state: Any
    #: what the board said about this step's action (for step 0, the game's opening rulings)
    rulings: tuple[Ruling, ...]
    #: the seat that acted (None for step 0)
    by: int | None
    #: actions undone by the host just before this one (they are not part of the game)
    undone_before: int


def replay_steps(room: Room) -> list[ReplayStep]:
    """Every step of a game's effective history, in order; the last one is the final state."""
    history = room.history
    assert history is not None
    opening = tuple(room.game.opening_rulings(history.states[0])) if hasattr(room.game, "opening_rulings") else ()
    undone = _undone_before(room.log_entries, [e.seq for e in history.entries])
    steps = [ReplayStep(index=0, state=history.states[0], rulings=opening, by=None, undone_before=0)]
    for i, (outcome, entry) in enumerate(zip(history.outcomes, history.entries), start=1):
        steps.append(
            ReplayStep(index=i, state=history.states[i], rulings=tuple(outcome.rulings), by=entry.payload.get("by"), undone_before=undone.get(entry.seq, 0))
        )
    return steps


def _undone_before(entries: Sequence[LogEntry], effective: Sequence[int]) -> dict[int, int]:
    """{seq of an effective action: how many actions the host undid right before it}."""
    kept = set(effective)
    counts: dict[int, int] = {}
    pending = 0
    for entry in entries:
        if entry.kind == "undo":
            pending += int(entry.payload.get("count", 0))
        elif entry.seq in kept:
            if pending:
                counts[entry.seq] = pending
            pending = 0
    return counts


# -- checking a log before it is imported --


@dataclass(frozen=True)
class CheckedLog:
    log: ExportedLog
    #: every entry, as the room itself writes them (canonical payloads)
    entries: list[LogEntry]
    #: the game's Setup model (any game's, as `game` is)
    setup: Any
    #: the actions in effect (those undone removed), and the state after them
    effective: list[LogEntry]
    state: Any

    @property
    def game(self) -> AnyGame:
        return GAMES[self.log.room.game]


def game_identity(game_id: str, setup: BaseModel, seed: int, effective: Sequence[LogEntry]) -> str:
    """What makes two logs the same game: the game, its setup, its seed and the actions in effect.
    Dates, room ids, channels and undone actions are left out: a log whose `created` or `at` was
    edited is still the same game (and a seed is 63 random bits: another game never shares it)."""
    content = {"game": game_id, "setup": setup.model_dump(mode="json"), "seed": seed, "actions": [e.payload for e in effective]}
    return hashlib.sha256(_canonical(content).encode()).hexdigest()


def parse_log(data: bytes | str | dict[str, Any]) -> dict[str, Any]:
    """Bytes or text of a JSON file -> its object; refused with a specific code when it is not."""
    if isinstance(data, dict):
        return data
    if isinstance(data, (bytes, bytearray)) and len(data) > MAX_LOG_BYTES:
        raise Rejected("history.err.too_big")
    try:
        parsed = json.loads(data)
    except UnicodeDecodeError:
        raise Rejected("history.err.bad_json", detail="not UTF-8 text") from None
    except RecursionError:
        raise Rejected("history.err.bad_json", detail="nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise Rejected("history.err.bad_json", detail=f"line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    if not isinstance(parsed, dict):
        raise Rejected("history.err.not_a_log")
    return parsed


def check_log(data: bytes | str | dict[str, Any]) -> CheckedLog:
    """Everything an imported log must be: a complete log of a known game whose every entry is
    legal in turn, that ends the game with the result it records. Raises Rejected naming the
    first problem found."""
    raw = parse_log(data)
    checked = read_log(raw)
    game = checked.game
    result = game.result(checked.state)
    if result is None:
        raise Rejected("history.err.unfinished")
    refusal = result_refusal(result, checked.log.result, needed=True)
    if refusal is not None:
        raise refusal
    # The same log through the room's own replay (what Room.restore does): must agree.
    try:
        _, state = replay_export(raw)
    except ValueError as exc:
        raise Rejected("history.err.replay", detail=str(exc)) from None
    if _canonical(game.result(state)) != _canonical(result):
        raise Rejected("history.err.replay", detail="the room's replay of it ends with another result")
    return checked


def result_refusal(computed: dict[str, Any] | None, recorded: dict[str, Any] | None, *, needed: bool) -> Rejected | None:
    """Whether a log's recorded result stands against the one its actions give (`computed`,
    None while the game has not ended). A log may record none (`result` absent or null): a
    replay checks the rules and computes it; an import (`needed`) keeps a finished game with the
    result it checked, so there it must be recorded. A recorded result is the computed one
    exactly (field by field, whatever the key order), and none while the game runs."""
    if computed is None:
        return None if recorded is None else Rejected("history.err.result_unfinished")
    if recorded is None:
        return Rejected("history.err.result_missing", result=json.dumps(computed, ensure_ascii=False)) if needed else None
    if _canonical(computed) != _canonical(recorded):
        return Rejected("history.err.result_mismatch", recorded=recorded, computed=computed)
    return None


def result_lines(tr: Translator, recorded: dict[str, Any], computed: dict[str, Any]) -> list[str]:
    """Both results, one line per field (the computed result's fields first, in its order)."""
    absent = object()

    def shown(value: Any) -> str:
        return tr.t("history.result_absent") if value is absent else json.dumps(value, ensure_ascii=False)

    lines = []
    for field in [*computed, *(k for k in recorded if k not in computed)]:
        mine, theirs = recorded.get(field, absent), computed.get(field, absent)
        if mine is not absent and theirs is not absent and _canonical(mine) == _canonical(theirs):
            lines.append(tr.t("history.result_field_same", field=field, value=shown(theirs)))
        else:
            lines.append(tr.t("history.result_field_differs", field=field, recorded=shown(mine), computed=shown(theirs)))
    return lines


def read_log(data: bytes | str | dict[str, Any]) -> CheckedLog:
    """Replay a complete log entry by entry, checking each as the room checked it when it was
    played (what `main.py replay` runs; it may stop before the game ends). Raises Rejected
    naming the first problem found."""
    raw = parse_log(data)
    if raw.get("format") != LOG_FORMAT:
        raise Rejected("history.err.not_a_log")
    version = raw.get("format_version")
    if type(version) is not int or version not in READABLE_FORMAT_VERSIONS:  # `true == 1` in Python
        raise Rejected("history.err.version", version=str(raw.get("format_version"))[:20], expected=str(LOG_FORMAT_VERSION))
    if isinstance(raw.get("entries"), list) and len(raw["entries"]) > MAX_LOG_ENTRIES:
        raise Rejected("history.err.too_big")
    try:
        log = ExportedLog.model_validate(raw)
    except (ValidationError, RecursionError) as exc:
        detail = _first_error(exc) if isinstance(exc, ValidationError) else "nested too deeply"
        raise Rejected("history.err.malformed", detail=detail) from None
    if not _is_date(log.room.created):
        raise Rejected("history.err.malformed", detail="room.created: not a date")
    if log.room.seed not in SEED_RANGE:
        raise Rejected("history.err.malformed", detail="room.seed: out of range")
    if not log.complete:
        raise Rejected("history.err.redacted")
    game = GAMES.get(log.room.game)
    if game is None:
        raise Rejected("history.err.unknown_game", game=log.room.game)
    try:
        setup = game.setup_model.model_validate(log.room.setup)
    except ValidationError as exc:
        raise Rejected("history.err.setup", game=game.id, detail=_first_error(exc)) from None
    # Replay entry by entry, as the room accepted them: numbered 1, 2, ... with no gap; an undo
    # never reaches across a reveal.
    states = [initial_logged(game, setup, log.room.seed, log.format_version)]
    effective: list[LogEntry] = []
    reveals: list[bool] = []
    #: the seat of each effective action (None for the host's table actions)
    senders: list[int | None] = []
    entries: list[LogEntry] = []
    for expected, exported in enumerate(log.entries, start=1):
        if exported.seq != expected:
            raise Rejected("history.err.missing_entry", n=expected)
        if not _is_date(exported.at):
            raise Rejected("history.err.malformed", detail=f"entries.{expected - 1}.at: not a date")
        # Kept as the room itself writes them (canonical payloads): nothing else of the file is stored.
        entry = LogEntry(seq=exported.seq, kind=exported.kind, payload=exported.payload, channel=exported.channel, at=exported.at)
        if entry.kind == "undo":
            count = entry.payload.get("count")
            undoable = len(reveals) - (max(i for i, r in enumerate(reveals) if r) + 1 if any(reveals) else 0)
            if type(count) is not int or count < 1 or count > undoable:
                raise Rejected("history.err.bad_undo", n=expected)
            payload: dict[str, Any] = {"count": count}
            if "seat" in entry.payload:  # a seat took back its own latest action
                seat = entry.payload["seat"]
                if log.format_version < 2 or count != 1 or type(seat) is not int or senders[-1] != seat:
                    raise Rejected("history.err.bad_undo", n=expected)
                if log.format_version >= CHANNELS_CHECKED_FROM and (entry.channel not in OWN_CHANNELS or not sent_by(effective[-1], seat)):
                    # a seat takes back only what it sent itself, from its own channel
                    raise Rejected("history.err.bad_undo", n=expected)
                payload["seat"] = seat
            del states[-count:], reveals[-count:], senders[-count:], effective[-count:]
            entry = entry.model_copy(update={"payload": payload})
        else:
            try:
                action = game.action_adapter.validate_python(entry.payload)
            except ValidationError as exc:
                raise Rejected("history.err.not_an_action", n=expected, game=game.id, detail=_first_error(exc)) from None
            refusal = logged_channel_refusal(game, action, entry.channel, log.format_version)
            if refusal is not None:
                names = [p.name for p in setup.players]
                raise Rejected("history.err.wrong_channel", n=expected, channel=entry.channel, reason=refusal.code, reason_params=refusal.params, names=names)
            try:
                outcome = apply_logged(game, states[-1], action, log.format_version)
            except RuleError as err:
                names = [p.name for p in setup.players]
                raise Rejected("history.err.illegal", n=expected, reason=err.code, reason_params=err.params, names=names) from None
            states.append(outcome.state)
            reveals.append(outcome.reveals)
            senders.append(action.by)
            entry = entry.model_copy(update={"payload": action.model_dump(mode="json")})
            effective.append(entry)
        entries.append(entry)
    return CheckedLog(log=log, entries=entries, setup=setup, effective=effective, state=states[-1])


def logged_channel_refusal(game: Any, action: Any, channel: str, format_version: int) -> Rejected | None:
    """Whether the live room of this log's format would have refused this action on this channel.
    A log records the channel, not the device's seat: an action on a seat's channel is taken as
    sent by the seat it names. Format 1 had no host-only actions (any phone started the next round)."""
    refusal = channel_refusal(game, action, channel, action.by if channel in OWN_CHANNELS else None)
    if refusal is not None and format_version == 1 and game.host_only(action) is not None:
        return None
    return refusal


async def import_log(host: Host, data: bytes | str | dict[str, Any]) -> Room:
    """Add a finished game to `host` from a complete exported log (bytes, text or parsed JSON).

    The log is checked entry by entry (`check_log`); a refused one raises Rejected with a
    specific `history.err.*` code and changes nothing. The game gets a new id (the log's own may
    be taken) and is stored as one transaction (`Host.add_imported`)."""
    async with host.importing:
        # Replaying a long log takes a while: off the event loop, the table plays on meanwhile.
        checked = await asyncio.to_thread(check_log, data)
        exported = checked.log.room
        # The same game is the same content (game, setup, seed, actions), whatever its dates.
        identity = await asyncio.to_thread(game_identity, exported.game, checked.setup, exported.seed, checked.effective)
        for other in [*host.rooms.values(), *host.imported.values()]:
            assert other.history is not None
            if game_identity(other.game_id, other.setup, other.seed, other.history.entries) == identity:
                raise Rejected("history.err.already_here", room=other.id)
        record = RoomRecord(
            id=exported.id,
            game=exported.game,
            setup=exported.setup,
            seed=exported.seed,
            created=exported.created,
            format_version=checked.log.format_version,
        )
        return await host.add_imported(record, checked.entries, exported.id)


def replay_summary(checked: CheckedLog) -> dict[str, Any]:
    """What `main.py replay` prints: the game, the players, whether it is over, its result
    (computed from the actions: a log may record none) and the final public state (the board
    view). Refused when the log records another result than its actions give (see result_refusal)."""
    game, state = checked.game, checked.state
    result = game.result(state)
    refusal = result_refusal(result, checked.log.result, needed=False)
    if refusal is not None:
        raise refusal
    names = [p.name for p in checked.setup.players]
    board = game.project(state, BOARD)
    summary: dict[str, Any] = {"game": game.id, "players": names, "over": result is not None, "result": result}
    if hasattr(board, "money"):
        summary["money"] = dict(zip(names, board.money))
    summary["board"] = board.model_dump(mode="json")
    return summary


def refusal_text(tr: Translator, refusal: Rejected) -> str:
    """A refusal in the reader's words; a rule broken by an entry is named in the game's terms."""
    params = dict(refusal.params)
    if refusal.code == "history.err.result_mismatch":
        lines = result_lines(tr, params["recorded"], params["computed"])
        return "\n".join([tr.t(refusal.code), *(f"  {line}" for line in lines)])
    if refusal.code in ("history.err.illegal", "history.err.wrong_channel"):
        params["reason"] = tr.t(params["reason"], params.pop("names", ()), **params.pop("reason_params", {}))
    return tr.t(refusal.code, (), **params)


def _first_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    return f"{where}: {first.get('msg')}" if where else str(first.get("msg"))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _is_date(timestamp: float) -> bool:
    return math.isfinite(timestamp) and 0 <= timestamp < LATEST_TIME


# -- the import page (plain HTML, served by main.py: an upload needs nothing from the Flet client) --


def log_from_upload(content_type: str, body: bytes) -> bytes:
    """The log file's bytes from a POST body: a browser form's multipart upload (read with the
    standard library's MIME parser) or a raw JSON body (curl, scripts)."""
    if len(body) > MAX_UPLOAD_BYTES:
        raise Rejected("history.err.too_big")
    if not content_type.lower().startswith("multipart/form-data"):
        return body
    from email.parser import BytesParser
    from email.policy import HTTP

    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode("latin-1") + body)
    for part in message.iter_parts() if message.is_multipart() else ():
        if part.get_param("name", header="content-disposition") == "log":
            payload = part.get_payload(decode=True)  # bytes, or None for an empty part
            return payload if isinstance(payload, bytes) else b""
    raise Rejected("history.err.not_a_log")


_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ background:#0B3D2E; color:#F1F8E9; font-family:"DejaVu Sans",sans-serif; font-size:20px; margin:24px; }}
main {{ max-width:760px; margin:auto; }}
a, button {{ display:inline-block; min-height:56px; padding:14px 22px; border-radius:10px; border:0; font-size:20px;
  font-weight:bold; background:#B0BEC5; color:#111; text-decoration:none; box-sizing:border-box; margin:8px 8px 8px 0; }}
button {{ background:#FFD54F; cursor:pointer; }}
input[type=file] {{ font-size:20px; margin:16px 0; color:#F1F8E9; }}
.result {{ padding:14px; border-radius:8px; color:#111; font-weight:bold; white-space:pre-line; }}
.ok {{ background:#A5D6A7; }} .refused {{ background:#FF8A80; }}
</style></head>
<body><main>
<h1>{title}</h1>
{result}
<p>{help}</p>
<form method="post" enctype="multipart/form-data" action="{action}">
<input type="file" name="log" accept=".json,application/json" required id="log"><br>
<button type="submit" id="import">{button}</button>
</form>
<a href="{back}" id="history">{back_label}</a>
</main></body></html>
"""


def import_page_html(tr: Translator, host_query: str, *, done: str | None = None, refused: str | None = None) -> str:
    """The import form, with the outcome of the last upload when there was one."""
    from html import escape

    result = ""
    if done is not None:
        result = f'<p class="result ok" id="result" role="status">{escape(done)}</p>'
    elif refused is not None:
        result = f'<p class="result refused" id="result" role="alert">{escape(refused)}</p>'
    lang_query = f"{host_query}&lang={tr.lang}"
    return _PAGE.format(
        lang=tr.lang,
        title=escape(tr.t("history.import_title")),
        result=result,
        help=escape(tr.t("history.import_help")),
        action=escape(f"/import{lang_query}"),
        button=escape(tr.t("history.import_button")),
        back=escape(f"/history{lang_query}"),
        back_label=escape(tr.t("history.back")),
    )


def import_done_text(tr: Translator, room: Room) -> str:
    return tr.t("history.import_done", game=tr.t(f"game.{room.game_id}"), players=tr.list(room.names))
