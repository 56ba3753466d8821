"""Chicago Poker on screen: the businesses with every player's column (board), the player's hand
size, card entry, special cards and reinforcements (phone).

The board shows only public things: face-up cards, the backs of face-down ones, markers, hand
sizes, controlled tiles, the shootout being resolved (stepped through by tapping: a view state
in ctx.ui). The host board enters public entries for the current player: business tiles, face-up
cards, draws, the end of a turn, the order of shootouts, top cards of the deck. A face-down card,
a Bribe and a reinforcement are entered only on the owner's phone.
"""

from __future__ import annotations

from companion.games.chicago_poker import View
from views.games import GameUI
from views.games.chicago_poker.board import board_body
from views.games.chicago_poker.phone import seat_body, waiting_text
from views.games.chicago_poker.pieces import is_my_turn, reveal_subject, seat_summary, status_line
from views.games.chicago_poker.setup import setup_fields, setup_load, setup_values

UI: GameUI[View] = GameUI(
    status_line=status_line,
    seat_summary=seat_summary,
    is_my_turn=is_my_turn,
    board_body=board_body,
    seat_body=seat_body,
    waiting_text=waiting_text,
    reveal_subject=reveal_subject,
    setup_fields=setup_fields,
    setup_values=setup_values,
    setup_load=setup_load,
)
