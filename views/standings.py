"""The end of a game: final standings on the board and on every phone, "Play again" and the
BG Stats QR code on the host board. Drawn from `game.standings(state)` (companion/standings.py)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import flet as ft

from companion.bgstats import bgstats_link, room_play
from companion.engine import Ruling
from companion.standings import Standing, detail_text, place, rank_of
from views.common import ACCENT, INK, MUTED, PANEL, big_button, label, player_chip, qr_svg, tagged
from views.i18n import Translator


def figure(tr: Translator, row: Standing) -> str:
    return tr.money(row.score) if row.kind == "money" else tr.t("standing.score", n=row.score)


def place_text(tr: Translator, rows: Sequence[Standing], row: Standing) -> str:
    shared = sum(1 for other in rows if other.rank == row.rank) > 1
    text = place(tr, row.rank)
    return f"{text} ({tr.t('standing.shared')})" if shared else text


def standings_table(tr: Translator, names: list[str], colours: list[str], rows: Sequence[Standing], *, width: float, size: int = 20) -> ft.Control:
    """Rank, name, money or score, and how each player got there, best first."""
    items: list[ft.Control] = [label(tr.t("standing.title"), size + 6, ACCENT, ft.FontWeight.BOLD)]
    for row in rows:
        head = ft.Row(
            [
                label(place_text(tr, rows, row), size, ACCENT if row.winner else INK, ft.FontWeight.BOLD),
                player_chip(tr, names, colours, row.seat, size - 2),
                label(figure(tr, row), size, INK, ft.FontWeight.BOLD),
            ],
            wrap=True,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        how = [label("• " + detail_text(tr, names, d), size - 5, MUTED) for d in row.details]
        items.append(
            tagged(
                f"standing-{row.seat}",
                ft.Container(
                    bgcolor=PANEL,
                    border_radius=10,
                    padding=10,
                    width=width,
                    content=ft.Column([head, *how], spacing=2, tight=True),
                ),
            )
        )
    return tagged("final-standings", ft.Column(items, spacing=8, tight=True))


def how_it_ended(recent: Sequence[tuple[int, Ruling]]) -> list[Ruling]:
    """Why the game ended, from the room's latest rulings (`Room.recent`: action number, ruling):
    the final action's rulings from its game-over one on (every game's codes say "game_over" or
    "victory": "The bank is empty: the game is over." "Winner: Anna with 55,000."), else its last."""
    if not recent:
        return []
    final = [ruling for seq, ruling in recent if seq == recent[-1][0]]
    ends = [i for i, ruling in enumerate(final) if "game_over" in ruling.code or "victory" in ruling.code]
    return final[ends[0] :] if ends else final[-1:]


def my_place(tr: Translator, rows: Sequence[Standing], seat: int, *, width: float) -> ft.Control:
    """The phone's headline: "You came 3rd" (and "You won!" for a winner)."""
    row = rank_of(rows, seat)
    lines = [tr.t("standing.you_came", place=place_text(tr, rows, row))]
    if row.winner:
        lines.insert(0, tr.t("standing.you_won"))
    return tagged(
        "my-place",
        ft.Container(
            bgcolor=ACCENT,
            border_radius=12,
            padding=14,
            width=width,
            alignment=ft.Alignment.CENTER,
            content=ft.Column(
                [ft.Text(line, size=30, weight=ft.FontWeight.BOLD, color="#111111", text_align=ft.TextAlign.CENTER) for line in lines],
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                tight=True,
            ),
        ),
    )


#: BG Stats QR codes drawn so far (link -> SVG), the latest few: a play's link is a large QR
#: code (~130 ms to draw for six players), made once, off the event loop (`draw_bgstats_qr`)
_BGSTATS_QR: OrderedDict[str, bytes] = OrderedDict()
BGSTATS_QR_KEPT = 16


def room_link(room: Any) -> str | None:
    play = room_play(room)
    return bgstats_link(play) if play is not None else None


def bgstats_qr(link: str) -> bytes | None:
    """The QR code of `link` if drawn already, else None (then `draw_bgstats_qr` it)."""
    return _BGSTATS_QR.get(link)


async def draw_bgstats_qr(link: str) -> None:
    svg = await asyncio.to_thread(qr_svg, link)
    _BGSTATS_QR[link] = svg
    while len(_BGSTATS_QR) > BGSTATS_QR_KEPT:
        _BGSTATS_QR.popitem(last=False)


def end_actions(tr: Translator, room: Any, *, width: float, on_play_again: Callable[[Any], Awaitable[None]]) -> ft.Control:
    """The host board's end panel: "Play again" and the BG Stats QR code of this play (once
    drawn: until then its place says so)."""
    link = room_link(room)
    items: list[ft.Control] = [
        big_button(tr.t("table.play_again"), on_play_again, ident="play-again"),
        label(tr.t("table.play_again_hint"), 15, MUTED),
    ]
    if link is not None:
        size = max(180, min(320, width - 40))
        svg = bgstats_qr(link)
        items += [
            label(tr.t("table.bgstats_title"), 18, ACCENT, ft.FontWeight.BOLD),
            label(tr.t("table.bgstats_hint"), 15, MUTED),
            tagged("bgstats-qr", ft.Image(src=svg, width=size, height=size, semantics_label=tr.t("table.bgstats_title")))
            if svg is not None
            else tagged("bgstats-qr-drawing", ft.ProgressRing()),
        ]
    return tagged("end-actions", ft.Column(items, spacing=8, tight=True))
