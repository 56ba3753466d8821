"""The table views of every game, one shape: `views/games/<game id>/` holds `board.py` (the
board's body), `phone.py` (a seat's body), `setup.py` (the game's own setup fields) and
`pieces.py` (what both draw: cards, panels), and its `__init__.py` names them in a `GameUI`, the
one thing the shared screens (views/board.py, views/seat.py, views/home.py, views/history.py)
call. A reader who knows one game's views knows where everything is in the others
(docs/views.md)."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from companion.games import GAMES

if TYPE_CHECKING:
    import flet as ft

    from views.context import GameContext, SetupContext

#: a game's projection (its `View` model: companion/games/<game>.py)
V = TypeVar("V")


def no_waiting_text(ctx: GameContext, view: object, seat: int) -> str | None:
    return None


def no_rounds(view: object) -> tuple[int, int] | None:
    return None


def no_reveal_subject(ctx: GameContext, view: object) -> str | None:
    return None


def no_setup_fields(ctx: SetupContext) -> list[ft.Control]:
    return []


def no_setup_values(ctx: SetupContext) -> dict[str, Any]:
    return {}


async def no_setup_load(ctx: SetupContext) -> None:
    return None


@dataclass(frozen=True)
class GameUI(Generic[V]):
    """What the shared screens call of a game's table views, the same for every game."""

    #: the board's header line: turn, phase, what is left
    status_line: Callable[[GameContext, V], ft.Control]
    #: a seat's few words beside its name (money, hand, score)
    seat_summary: Callable[[GameContext, V, int], str]
    #: whether `seat` is the one the table waits for now (its phone says "Your turn")
    is_my_turn: Callable[[V, int], bool]
    #: the board's body; `reveal` is the reveal panel when one is due (views/reveal.py), put
    #: where the game's board keeps its place
    board_body: Callable[[GameContext, V, ft.Control | None], ft.Control]
    #: a seat's body: its private section and the public table
    seat_body: Callable[[GameContext, V], ft.Control]
    #: what a seat waited for alone waits for, when the board enters it first (else None)
    waiting_text: Callable[[GameContext, V, int], str | None] = no_waiting_text
    #: (round, rounds) of a game played in rounds, for the rooms list; None otherwise
    rounds: Callable[[V], tuple[int, int] | None] = no_rounds
    #: what the reveal the table waits for turns up, said on the board and every phone (None:
    #: the choices everyone made, which "Everyone has chosen" says)
    reveal_subject: Callable[[GameContext, V], str | None] = no_reveal_subject
    #: the setup form's own fields, their values for the setup, and what they load first
    setup_fields: Callable[[SetupContext], list[ft.Control]] = no_setup_fields
    setup_values: Callable[[SetupContext], dict[str, Any]] = no_setup_values
    setup_load: Callable[[SetupContext], Awaitable[None]] = no_setup_load


#: Games that have table views (a game appears on the setup screen only once it has them).
UIS: tuple[str, ...] = tuple(g for g in GAMES if importlib.util.find_spec(f"views.games.{g}") is not None)


@cache
def get(game_id: str) -> GameUI[Any]:  # Any: the game named at run time; it is given its own room's projection
    ui = importlib.import_module(f"views.games.{game_id}").UI
    assert isinstance(ui, GameUI), game_id
    return ui
