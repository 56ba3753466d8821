"""Règlement de comptes: the dinner table as validated data.

The rulebook's board picture is lost (docs/rules/reglement.md#the-board), so a board is configuration: a JSON file
listing the seats in clockwise ring order with their printed marks, and which seats face each
other across the table. `assets/reglement_board_default.json` is a reconstruction that satisfies
every fact the rulebook's worked scenarios pin down; owners of the box can edit it seat by seat
(`with_seat`, `with_facing`) or load their own (`load_board`). A game records the board it is
played on (it sits inside the game's Setup).

Validation messages name the problem in words a host can act on ("the board has 3 bar seats
(D, L, M); it needs exactly 2"). Each is a code of `MESSAGES` with parameters (`Problem`), so a
page shows it in the reader's language; pydantic errors carry them (`PydanticCustomError` whose
type is the code and whose context holds the parameters, see `companion.i18n.validation_problems`)
while their English text stays the message for logs and tests.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import Field, PrivateAttr, field_validator, model_validator
from pydantic_core import PydanticCustomError

from companion.engine import Model
from companion.translation import MessageTranslator

BOARD_FORMAT: Final = "reglement-de-comptes-board/1"

Business = Literal["bar", "restaurant", "gambling"]
BUSINESSES: tuple[Business, ...] = ("bar", "restaurant", "gambling")
SEATS_PER_BUSINESS = 2
#: The fewest gangsters any game seats (4 players × 7); a smaller board cannot host any game.
MIN_SEATS = 28

DEFAULT_BOARD_PATH = Path(__file__).resolve().parents[2] / "assets" / "reglement_board_default.json"

MESSAGES: dict[str, str] = {
    "reglement.board.err.seat_name": "a seat needs a name",
    "reglement.board.err.repeated_names": "seat names must be unique: {ids} appear more than once",
    "reglement.board.err.too_few_seats": "the board has {count:plural:one=# seat|other=# seats}; it needs at least {minimum}, the fewest gangsters a game seats",
    "reglement.board.err.business_none": "the board has 0 {business:label=reglement.business} seats; it needs exactly {wanted}",
    # one code per business: the count agrees with the business's name in every language
    "reglement.board.err.bar_count": "the board has {count:plural:one=# bar seat|other=# bar seats} ({ids}); it needs exactly {wanted}",
    "reglement.board.err.restaurant_count": "the board has {count:plural:one=# restaurant seat|other=# restaurant seats} ({ids}); it needs exactly {wanted}",
    "reglement.board.err.gambling_count": "the board has {count:plural:one=# gambling house seat|other=# gambling house seats} ({ids}); it needs exactly {wanted}",
    "reglement.board.err.register_none": "the board has 0 cash register seats; it needs exactly 1",
    "reglement.board.err.register_count": "the board has {count:plural:one=# cash register seat|other=# cash register seats} ({ids}); it needs exactly 1",
    "reglement.board.err.facing_unknown": "the facing pair {a}–{b} names seat {at}, which is not on the board",
    "reglement.board.err.faces_itself": "seat {at} cannot face itself",
    "reglement.board.err.faces_several": "seat {at} faces {count:plural:one=# seat|other=# seats} ({ids}); a seat faces at most one",
    "reglement.board.err.too_small": "the board has {count:plural:one=# seat|other=# seats} but {players:plural:one=# player brings|other=# players bring} {gangsters:plural:one=# gangster|other=# gangsters}",
}


#: The English templates `Problem.english` words problems from: this module's, and the Règlement
#: game's (its setup problems and the labels they name), which companion.games.reglement adds when
#: it is imported (it imports this module, so this one cannot import it; nor companion.i18n, which
#: reads every game's messages).
ENGLISH: dict[str, str] = dict(MESSAGES)


@cache
def _english() -> MessageTranslator:
    return MessageTranslator("en", ENGLISH)


class Problem(Model):
    """One validation problem: a message code (this module's or the game's) and its parameters."""

    code: str
    params: dict[str, Any] = Field(default_factory=dict)

    def english(self) -> str:
        return _english().t(self.code, **self.params)

    def error(self) -> PydanticCustomError:
        """The pydantic error for this problem: its type is the code, its context the params."""
        return PydanticCustomError(self.code, self.english().replace("{", "(").replace("}", ")"), self.params)


def problems_error(problems: list[Problem]) -> PydanticCustomError:
    """One pydantic error holding several problems (`validation_problems` lists them again)."""
    if len(problems) == 1:
        return problems[0].error()
    english = "\n".join(p.english() for p in problems).replace("{", "(").replace("}", ")")
    return PydanticCustomError("problems", english, {"problems": [p.model_dump() for p in problems]})


Direction = Literal["clockwise", "counterclockwise"]
STEP: dict[str, int] = {"clockwise": 1, "counterclockwise": -1}


class BoardSeat(Model):
    """One printed seat and the marks in front of it."""

    id: str = Field(min_length=1, max_length=8)
    business: Business | None = None
    #: the cash register (comptable) seat: doubles its holder's income
    cash_register: bool = False
    #: a glass: sleeping pills can only reach gangsters at glass seats
    glass: bool = False
    #: a knife: any gangster here may stab a neighbour with Coup de couteau
    knife: bool = False
    #: a revolver: any gangster here may shoot the facing seat with Pan!
    revolver: bool = False
    #: the X mark: a Flingueur here cannot shoot with Pan! (a revolver seat still can)
    no_shoot: bool = False
    #: optional drawing hint, 0..1 across the board picture (left to right, top to bottom)
    x: float | None = Field(default=None, ge=0, le=1)
    y: float | None = Field(default=None, ge=0, le=1)

    @field_validator("id")
    @classmethod
    def _strip(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise Problem(code="reglement.board.err.seat_name").error()
        return value


class Board(Model):
    """A whole table. `seats` run clockwise around the ring (the last seat neighbours the first)."""

    format: Literal["reglement-de-comptes-board/1"] = BOARD_FORMAT
    name: str = "board"
    #: True for a board rebuilt from indirect evidence rather than copied from a real box
    reconstructed: bool = False
    #: True once someone checked it against a physical copy
    verified: bool = False
    #: which reading of the evidence a reconstruction picked (free text)
    reading: str = ""
    notes: tuple[str, ...] = ()
    seats: tuple[BoardSeat, ...]
    #: pairs of seats facing each other across the table; a seat in no pair faces nobody
    facing: tuple[tuple[str, str], ...] = ()

    _index: dict[str, int] = PrivateAttr(default_factory=dict)
    _faces: dict[str, str] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _validate(self) -> Board:
        problems = board_problems(self)
        if problems:
            raise problems_error(problems)
        return self

    def model_post_init(self, context: Any) -> None:
        self._index = {seat.id: i for i, seat in enumerate(self.seats)}
        faces: dict[str, str] = {}
        for a, b in self.facing:
            faces[a], faces[b] = b, a
        self._faces = faces

    # -- geometry --

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(seat.id for seat in self.seats)

    def has(self, seat_id: str) -> bool:
        return seat_id in self._index

    def seat(self, seat_id: str) -> BoardSeat:
        return self.seats[self._index[seat_id]]

    def index(self, seat_id: str) -> int:
        return self._index[seat_id]

    def step(self, seat_id: str, direction: Direction | int) -> str:
        """The seat next to `seat_id` going one seat clockwise (+1) or counter-clockwise (-1)."""
        delta = STEP[direction] if isinstance(direction, str) else direction
        return self.seats[(self._index[seat_id] + delta) % len(self.seats)].id

    def neighbours(self, seat_id: str) -> tuple[str, str]:
        """(counter-clockwise neighbour, clockwise neighbour)."""
        return self.step(seat_id, -1), self.step(seat_id, 1)

    def faces(self, seat_id: str) -> str | None:
        """The seat straight across the table, or None."""
        return self._faces.get(seat_id)

    def businesses(self, business: Business) -> tuple[str, ...]:
        return tuple(seat.id for seat in self.seats if seat.business == business)

    # -- editing (each returns a new, validated board) --

    def with_seat(self, seat_id: str, **marks: Any) -> Board:
        """A copy with one seat's marks changed (e.g. `glass=True`, `business="bar"`)."""
        if not self.has(seat_id):
            raise ValueError(f"there is no seat {seat_id} on this board")
        seats = [seat.model_dump() for seat in self.seats]
        seats[self._index[seat_id]].update(marks)
        return Board.model_validate({**self.model_dump(), "seats": seats})

    def with_facing(self, seat_id: str, other: str | None) -> Board:
        """A copy where `seat_id` faces `other` (None: nobody); old partners face nobody."""
        touched = {seat_id, other} - {None}
        pairs = [pair for pair in self.facing if not touched & set(pair)]
        if other is not None:
            pairs.append((seat_id, other))
        return Board.model_validate({**self.model_dump(), "facing": pairs})


def board_problems(board: Board) -> list[Problem]:
    """Everything wrong with a board, each naming the problem (empty when fine)."""
    problems: list[Problem] = []
    ids = [seat.id for seat in board.seats]
    repeated = sorted(i for i, count in Counter(ids).items() if count > 1)
    if repeated:
        problems.append(Problem(code="reglement.board.err.repeated_names", params={"ids": ", ".join(repeated)}))
    if len(ids) < MIN_SEATS:
        problems.append(Problem(code="reglement.board.err.too_few_seats", params={"count": len(ids), "minimum": MIN_SEATS}))
    for business in BUSINESSES:
        holders = [seat.id for seat in board.seats if seat.business == business]
        if not holders:
            problems.append(Problem(code="reglement.board.err.business_none", params={"business": business, "wanted": SEATS_PER_BUSINESS}))
        elif len(holders) != SEATS_PER_BUSINESS:
            params = {"count": len(holders), "ids": ", ".join(holders), "wanted": SEATS_PER_BUSINESS}
            problems.append(Problem(code=f"reglement.board.err.{business}_count", params=params))
    registers = [seat.id for seat in board.seats if seat.cash_register]
    if not registers:
        problems.append(Problem(code="reglement.board.err.register_none"))
    elif len(registers) != 1:
        problems.append(Problem(code="reglement.board.err.register_count", params={"count": len(registers), "ids": ", ".join(registers)}))
    known = set(ids)
    partners: dict[str, list[str]] = {}
    for a, b in board.facing:
        for seat_id in (a, b):
            if seat_id not in known:
                problems.append(Problem(code="reglement.board.err.facing_unknown", params={"a": a, "b": b, "at": seat_id}))
        if a == b:
            problems.append(Problem(code="reglement.board.err.faces_itself", params={"at": a}))
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)
    for seat_id, others in partners.items():
        if len(others) > 1:
            params = {"at": seat_id, "count": len(others), "ids": ", ".join(others)}
            problems.append(Problem(code="reglement.board.err.faces_several", params=params))
    return problems


def check_board_for_players(board: Board, players: int, gangsters: int) -> None:
    """Raise a validation error when the board cannot seat every gangster of this player count."""
    if len(board.seats) < gangsters:
        params = {"count": len(board.seats), "players": players, "gangsters": gangsters}
        raise Problem(code="reglement.board.err.too_small", params=params).error()


def load_board(path: str | Path) -> Board:
    """Read and validate a board file (raises pydantic.ValidationError naming the problem)."""
    return Board.model_validate_json(Path(path).read_text(encoding="utf-8"))


@cache
def default_board() -> Board:
    """The reconstructed default board shipped in assets/ (read once, at first use)."""
    return load_board(DEFAULT_BOARD_PATH)
