"""The errors of the table QR code (one scan, then a tap on a free seat) and of a seat held by one
device (another device asks the host board for it), which companion.room raises (`Room.claim_free`,
`Room.ask_for_seat`, `Host.play_again`). The pages' words for them (the seat picker, seat requests,
"Play again", the BG Stats QR code) are the views' labels: views/labels/pages.py."""

from __future__ import annotations

MESSAGES: dict[str, str] = {
    "table.err.seat_gone": "{seat:seat} is no longer free. Pick another seat, or ask the host.",
    "table.err.not_over": "The game is not over yet.",
    # a seat is one device's: another device asks the host board
    "seat.err.request_waiting": "Another device is already asking for {seat:seat}'s seat. Ask the host, or try again in a few minutes.",
    "seat.err.request_soon": "The host board has just answered a request for this seat. Ask again in {seconds} s.",
    "seat.err.request_gone": "That request is no longer open.",
}
