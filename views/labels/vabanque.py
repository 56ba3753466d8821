"""Vabanque's screen labels (codes -> English): the words views/games/vabanque/ puts on its
prompts, buttons and panels. The game's rulings, errors and the names they use (cards, phases,
house rules) are the engine's: `MESSAGES` of companion/games/vabanque.py. `views.i18n` gives the
pages one translator for both.
"""

from __future__ import annotations

LABELS: dict[str, str] = {
    # prompts, buttons and panels
    "vabanque.chips_left": "{count:plural:one=# chip|other=# chips} of {value} left",
    "vabanque.prompt.chips": "Place a chip of {value} on a table",
    "vabanque.prompt.cards": "Place a character card face down",
    "vabanque.prompt.moves": "Move your pawn 0 to 4 tables clockwise",
    #: the shared board's words for the same step: no "your" there, the player is named
    "vabanque.board_prompt.moves": "{seat:seat}: move the pawn 0 to 4 tables clockwise",
    "vabanque.prompt.reveal": "Every pawn has moved: reveal when everyone is ready",
    "vabanque.prompt.payout": "Payout",
    "vabanque.prompt.over": "Game over",
    "vabanque.cards_on_phone": "Cards are chosen secretly on the player's phone.",
    "vabanque.tap_table": "Tap the table where the chip goes.",
    "vabanque.board_move_for": "Move {seat:seat}'s pawn:",
    "vabanque.start_round": "Start round {round}",
    "vabanque.next_round_on_board": "The host board starts round {round} when the table is ready.",
    "vabanque.payout_title": "Payout of round\u00a0{round}",
    "vabanque.stay": "Stay (table {table})",
    "vabanque.move": "+{steps} → table {table}",
    "vabanque.pick_card": "Choose a card, then a table",
    "vabanque.pick_table": "{card:label=vabanque.card}: now choose its table",
    "vabanque.pick_table_hidden": "Card chosen. Now tap its table:",
    "vabanque.my_hand": "Cards in your hand: {cards}",
    "vabanque.placed_at": "{card:label=vabanque.card} at table {table}",
    "vabanque.my_placements": "Your cards on the tables: {placements}",
    "vabanque.tables": "Tables: chips, pawns, face-down cards",
    "vabanque.table_total": "chips: {total}",
    # the round in short, on the payout screen (pieces.round_summary)
    "vabanque.summary.title": "Round {round} in short",
    "vabanque.summary.line": "{seat:seat} {amount}: {reasons}",
    "vabanque.summary.pawn_paid": "pawn paid at table {table}",
    "vabanque.summary.cheat_took": "{cheater:seat}'s Cheat took table {table}",
    "vabanque.summary.cheated": "Cheat at table {table}",
    "vabanque.summary.no_pawn": "no pawn at a paying table",
}
