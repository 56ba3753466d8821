"""Strings of the table QR code (one scan, then a tap on a free seat), of seat claims and links,
and of the end screen ("Play again", the BG Stats QR code). The logic lives in companion.room
(`Room.free_seats`, `Room.claim_free`, `Host.play_again`) and companion.bgstats."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "table.title": "Pick your seat",
    "table.pick_seat": "Tap your name: this phone becomes your seat.",
    "table.seat_button": "I am {seat:seat}",
    "table.no_free_seats": "Every seat is taken. Ask the host if yours should be free.",
    "table.started": "The game has started, so seats are no longer picked here. Ask the host to show your seat's QR code on the board and scan it.",
    "table.err.seat_gone": "{seat:seat} is no longer free. Pick another seat, or ask the host.",
    "table.err.not_over": "The game is not over yet.",
    "table.joined": "{seat:seat} joined ✓",
    "table.seat_joined": "joined ✓",
    "table.joined_hint": "No QR code is needed for this seat any more. A lost phone? The link button gives the seat a new one.",
    "table.seat_free": "free",
    "table.join_title": "Scan to pick your seat",
    "table.join_hint": "One QR code for the whole table: each phone picks a free seat.",
    "table.confirm_reissue_title": "Give {seat:seat} a new link?",
    "table.confirm_reissue_body": "The phone on this seat now is signed out at once; {seat:seat} then scans the new QR code.",
    "table.confirm_reissue_yes": "Yes, give a new link",
    "table.cancel": "Cancel",
    "table.signed_out": "This phone was signed out: the host gave this seat a new link. To get back in, ask the host to show your seat's QR code on the board, and scan it.",
    "table.option.free_seats": "Table QR code: phones pick a free seat",
    "table.option.free_seats.True": "On: one QR code for the table",
    "table.option.free_seats.False": "Off: each seat's own QR code only",
    "table.play_again": "Play again",
    "table.play_again_hint": "Same game, players, seats and house rules: every phone moves to its seat.",
    "table.bgstats_title": "Keep this play in BG Stats",
    "table.bgstats_hint": "Scan with a phone that has BG Stats: it opens this play for import.",
}
