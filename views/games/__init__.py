"""One UI module per game, `views/games/<game id>.py`, same shape as `vabanque.py`:
status_line, seat_summary, is_my_turn, board_body, seat_body (see docs/views.md)."""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from types import ModuleType

from companion.games import GAMES

_HERE = Path(__file__).parent

#: Games that have a UI module (a game appears on the setup screen only once it has one).
UIS: tuple[str, ...] = tuple(g for g in GAMES if (_HERE / f"{g}.py").exists())


@cache
def get(game_id: str) -> ModuleType:
    return importlib.import_module(f"views.games.{game_id}")
