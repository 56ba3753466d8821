"""Vabanque on screen: the circle of casino tables (board) and the player's choices (phone)."""

from __future__ import annotations

from companion.games.vabanque import View
from views.games import GameUI
from views.games.vabanque.board import board_body
from views.games.vabanque.phone import seat_body
from views.games.vabanque.pieces import is_my_turn, seat_summary, status_line
from views.games.vabanque.setup import setup_fields, setup_load, setup_values

UI: GameUI[View] = GameUI(
    status_line=status_line,
    seat_summary=seat_summary,
    is_my_turn=is_my_turn,
    board_body=board_body,
    seat_body=seat_body,
    rounds=lambda view: (view.round, view.rounds),
    setup_fields=setup_fields,
    setup_values=setup_values,
    setup_load=setup_load,
)
