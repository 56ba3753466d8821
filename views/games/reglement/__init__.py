"""Règlement de comptes on screen: the long dinner table (board) and a player's gang, rules helper
and hand note (phone).

Everything is drawn from the projection (`companion/games/reglement.py` View). The cards are
physical and played face up: the host board enters the current player's plays (pick the card,
tap the seat), and a player may also play from their phone's rules helper, which lists only the
targets that are legal right now (`my_options`). The board highlights legal targets from
`turn_options`, which its projection computes from the public table alone.

View state (a selected card, chosen seats, the ruling being shown) lives in `ctx.ui`, keyed by
turn and cards played so it resets by itself; it is never a game action.
"""

from __future__ import annotations

from companion.games.reglement import View
from views.games import GameUI
from views.games.reglement.board import board_body
from views.games.reglement.phone import seat_body
from views.games.reglement.pieces import is_my_turn, seat_summary, status_line
from views.games.reglement.setup import setup_fields, setup_load, setup_values

UI: GameUI[View] = GameUI(
    status_line=status_line,
    seat_summary=seat_summary,
    is_my_turn=is_my_turn,
    board_body=board_body,
    seat_body=seat_body,
    setup_fields=setup_fields,
    setup_values=setup_values,
    setup_load=setup_load,
)
