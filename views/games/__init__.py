"""One UI module per game, same shape: status_line, seat_summary, is_my_turn, board_body, seat_body."""

from __future__ import annotations

from types import ModuleType

from views.games import vabanque

UIS: dict[str, ModuleType] = {"vabanque": vabanque}


def get(game_id: str) -> ModuleType:
    return UIS[game_id]
