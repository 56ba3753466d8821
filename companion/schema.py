"""The JSON Schema of an exported log, generated from the models the host itself reads a log with
(`uv run python -m companion.schema` writes docs/log.schema.json; a test keeps it current).

A complete log is one game's: its `room.game` picks the setup and the action shapes of that game
(each game's pydantic models, the discriminated union its engine validates every entry with). A
redacted log (exported while the game ran) has its secret fields left out, so its payloads are
only said to name an action `type` of some game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, TypeAdapter, create_model

from companion.games import GAMES
from companion.history import RESULT_MODELS
from companion.room import LOG_FORMAT, READABLE_FORMAT_VERSIONS, Channel

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "docs" / "log.schema.json"

LOG_DESCRIPTION = """\
A game's log as the host board exports it (Export log), and as `main.py import` and the host's
import page read it. Conventions for a person or program writing one:
- Seats are numbered from 0 in `room.setup.players` order, which is the clockwise seating order
  round the table. Every seat number in an action (`by`, `target`, `seat`, ...) is such an index.
- `by` is the seat the action is from: the player whose phone sent it, or for whom the host board
  or pass-and-play entered it. The host board's own table actions (`reveal`, and Vabanque's
  `next_round` since format 2) have `by: null`.
- `channel` says how it reached the host: "seat" (that seat's own phone; `by` is that seat),
  "host" (the host board, for public actions only), "pass" (pass-and-play on the host board, for a
  player without a phone; `by` is that player).
- Entries are numbered `seq` 1, 2, 3 ... with no gap, in the order the host accepted them. Each
  entry is replayed on the game as it stood after the entries before it and must be legal then:
  the log is checked entry by entry, and the first illegal one is named in the refusal.
- An undo entry (`kind: "undo"`) takes back the latest `count` actions still in effect; it never
  reaches back across an action that revealed hidden information. With `seat` (format 2), it is
  that seat taking back its own latest action (`count` is then 1).
- `at` and `room.created` are seconds since 1970 (UTC). `room.seed` (a 64-bit signed integer)
  decides everything random in the game (first player, tie-breaks): the same seed and the same
  actions give the same game.
- `complete` true: the log has every secret in it (each action whole), so each entry can be
  checked; the game in it may or may not have ended (the host board exports a complete log once
  the game has ended; a log written by hand or cut short may stop mid-game). `complete` false: a
  log exported while the game ran, its secret fields left out: it can be neither replayed nor
  imported.
- `result` is the game's result once it has ended: each game's own fields (its `...Result`
  definition; lists are per seat in seat order, `winners` are seat numbers in ascending order;
  key order does not matter). It may be left out (or null): `main.py replay` checks the rules,
  computes the result and prints it. A result that is recorded must be exactly the one the
  entries give (a replay refuses another, showing both field by field), and none while the game
  has not ended. An import keeps only a finished game, and needs its result recorded.
- `format_version` 1: the action completing a hidden phase revealed at once; 2: the game then
  waits for the host's `reveal` or every seat's `ready`, and seats may take back a move; 3: in
  Règlement the set-aside cards are shuffled into a new pile as soon as the last card of the pile
  is drawn (in 1 and 2, only when a draw found the pile short); 4: the host's own table entries
  (Corruption's `deal_contracts`, Chicago Poker's `reveal_tile` and `reveal_deck_card`,
  Règlement's `seat_random`, entered on the host board) have `by: null`; a seat's undo (`seat`)
  takes back only an action that seat sent itself (channel "seat" or "pass"); and every entry is
  checked against the channel rules above (in 2 and 3: host-only actions and secret actions on
  the host channel; in 1 only the latter)."""

GAME_CONVENTIONS: dict[str, str] = {
    "vabanque": (
        "Vabanque. Tables are numbered 1 to N clockwise (N = 7, 9, 10, 12 for 3, 4, 5, 6 players). "
        "`move_pawn.steps` is how many tables the pawn moves clockwise (0 to 4)."
    ),
    "corruption": (
        "Corruption. A `location` is a contract's `id` (numbered from 1 as contracts are dealt) "
        "or the name of a body (`city_hall`, `county_seat`, `capitol`) for a card played on the "
        "body itself. `placement` and `target` are a card's number in the round's play order "
        "(from 0); `choose_face_up.slots` are card positions 1 to 6 of the Free Stud."
    ),
    "chicago_poker": (
        "Chicago Poker. Businesses are numbered 1, 2, 3 ... in the order their tiles were entered "
        "(`reveal_tile`); a number is never reused. A gangster card is `{value, colour}` with "
        "colours `c1` to `c5`; a special card is named by its kind. `limousine.positions` are "
        "column positions, 1 = the first card played there."
    ),
    "reglement": (
        "Règlement de comptes. Seats of the dinner table are named as on the board recorded in "
        "`room.setup.board` (its `seats`, in clockwise ring order); action fields such as "
        "`seat`, `target`, `from_seat`, `cake_seat` name those seats, not players."
    ),
}


COMPLETE_DESCRIPTION = (
    "true: every secret is in the log, so it can be replayed entry by entry; the game in it may "
    "or may not have ended"
)
RESULT_DESCRIPTION = (
    "the game's result once it has ended (absent or null: none recorded, and a replay computes "
    "it); when recorded, exactly the one the entries give; an import needs it"
)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# The entry kinds, named: mypy cannot tell `Literal["undo"]` written inside a call from a string
# annotation. (Literals of values known only at run time, a game's id or the log's formats, are
# read by pydantic; a type checker cannot read them: their lines say so.)
UndoKind = Literal["undo"]
ActionKind = Literal["action"]


class UndoPayload(_Strict):
    """How many of the latest actions in effect are undone; with `seat`, that seat took back its
    own latest action (format 2)."""

    count: int = Field(ge=1)
    seat: int | None = Field(default=None, ge=0)


def _common_entry_fields() -> dict[str, Any]:
    return {
        "seq": (int, Field(ge=1, description="1, 2, 3 ... in the order the host accepted the entries")),
        "channel": (Channel, Field(description="how it reached the host: the seat's phone, the host board, pass-and-play")),
        "at": (float, Field(description="when the host accepted it, in seconds since 1970 (UTC)")),
    }


UndoEntry = create_model(
    "UndoEntry",
    __base__=_Strict,
    __doc__="The host's undo of the latest actions (or a seat's take-back of its own).",
    kind=(UndoKind, ...),
    payload=(UndoPayload, ...),
    **_common_entry_fields(),
)


def _pascal(game_id: str) -> str:
    return "".join(part.title() for part in game_id.split("_"))


def _complete_log_model(game_id: str, game: Any) -> type[BaseModel]:
    name = _pascal(game_id)
    action_entry = create_model(
        f"{name}ActionEntry",
        __base__=_Strict,
        __doc__=f"An action of {game_id}: its `type` names it, its fields are those of that action.",
        kind=(ActionKind, ...),
        payload=(game.action_model, ...),
        **_common_entry_fields(),
    )
    room = create_model(
        f"{name}Room",
        __base__=_Strict,
        __doc__=f"The room the game was played in: {game_id}, its players and house rules, its seed.",
        id=(str, Field(description="the room's id on the host that exported it")),
        game=(Literal[game_id], ...),  # type: ignore[arg-type]  # a Literal of a run-time value
        setup=(game.setup_model, ...),
        seed=(int, Field(ge=-(2**63), lt=2**63)),
        created=(float, Field(description="when the room was created, in seconds since 1970 (UTC)")),
    )
    entry = Annotated[action_entry | UndoEntry, Field(discriminator="kind")]
    return create_model(
        f"{name}Log",
        __base__=_Strict,
        __doc__=GAME_CONVENTIONS[game_id],
        format=(Literal[LOG_FORMAT], ...),  # type: ignore[arg-type]  # a Literal of a run-time value
        format_version=(Literal[READABLE_FORMAT_VERSIONS], ...),  # type: ignore[arg-type]  # a Literal of a run-time value
        complete=(Literal[True], Field(description=COMPLETE_DESCRIPTION)),
        room=(room, ...),
        entries=(list[entry], ...),
        result=(RESULT_MODELS[game_id] | None, Field(default=None, description=RESULT_DESCRIPTION)),  # type: ignore[arg-type]  # a union of a run-time value
    )


class RedactedActionPayload(BaseModel):
    """An action with its secret fields left out (a face-down card, a hidden pick)."""

    model_config = ConfigDict(extra="allow")
    type: str


class RedactedRoom(_Strict):
    id: str
    game: str
    setup: dict[str, Any]
    seed: int
    created: float


RedactedActionEntry = create_model(
    "RedactedActionEntry",
    __base__=_Strict,
    kind=(ActionKind, ...),
    payload=(RedactedActionPayload, ...),
    **_common_entry_fields(),
)
_RedactedEntry = Annotated[RedactedActionEntry | UndoEntry, Field(discriminator="kind")]


class RedactedLog(_Strict):
    """Exported while the game ran: secrets removed, not importable. Its actions are those of
    the game named by `room.game`, without their secret fields."""

    format: Literal["table-referee-log"]
    format_version: Literal[READABLE_FORMAT_VERSIONS]  # type: ignore[valid-type]
    complete: Literal[False] = Field(description="false: secret fields left out; neither replayable nor importable")
    room: RedactedRoom
    entries: list[_RedactedEntry]
    result: dict[str, Any] | None = None


def _which(log: Any) -> str:
    """The branch a log belongs to: redacted, or its game's (for validation in Python)."""
    if not isinstance(log, dict) or log.get("complete") is not True:
        return "redacted"
    room = log.get("room")
    return str(room.get("game")) if isinstance(room, dict) else "redacted"


def log_adapter() -> TypeAdapter[Any]:
    """Every kind of log: one complete log model per game, and the redacted log."""
    branches = [Annotated[_complete_log_model(gid, game), Tag(gid)] for gid, game in sorted(GAMES.items())]
    branches.append(Annotated[RedactedLog, Tag("redacted")])
    return TypeAdapter(Annotated[Union[tuple(branches)], Discriminator(_which)])  # type: ignore[arg-type]  # noqa: UP007 (a union of a run-time tuple)


def log_schema_dict() -> dict[str, Any]:
    schema = log_adapter().json_schema()
    # An action's `type` has a default in Python, but the engine needs it to tell the actions
    # apart: in a log it is required.
    for definition in schema.get("$defs", {}).values():
        if "const" in definition.get("properties", {}).get("type", {}):
            required = definition.setdefault("required", [])
            if "type" not in required:
                required.insert(0, "type")
    # Two games' models of the same name (Setup, EndTurn ...) are told apart by the game's name.
    text = json.dumps(schema)
    for game_id in GAMES:
        text = text.replace(f"companion__games__{game_id}__", _pascal(game_id))
    schema = json.loads(text)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Table referee game log",
        "description": LOG_DESCRIPTION,
        **schema,
    }


def log_schema() -> str:
    return json.dumps(log_schema_dict(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    SCHEMA_PATH.write_text(log_schema(), encoding="utf-8")
    print(f"wrote {SCHEMA_PATH}")
