"""Corruption on screen: the three government bodies with their Swiss accounts and contracts
(board), and a player's hand, placements, peeks and award choices (phone).

Everything drawn comes from the projection given (`View` of companion/games/corruption.py); the
board's projection never holds a face-down card, so nothing hidden can be drawn there. The
contract catalogue (assets/corruption_contracts.json) feeds the deal form; values typed at the
table are remembered in it off the event loop (asyncio.to_thread).
"""

from __future__ import annotations

from companion.games.corruption import View
from views.games import GameUI
from views.games.corruption.board import board_body
from views.games.corruption.phone import seat_body
from views.games.corruption.pieces import is_my_turn, seat_summary, status_line
from views.games.corruption.setup import setup_fields, setup_load, setup_values

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
