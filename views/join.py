"""The table QR code's page (/table/<room>/<secret>): on a phone, the room's free seats; a tap
claims one, the phone keeps its token like a seat link's, and the seat page opens.

Seats are offered only before the game's first action, never a claimed one nor one played on the
tablet (companion.room `Room.free_seats`); afterwards the page says to scan the seat's own QR
code on the board. A wrong or missing secret never reaches this page (views/app.py shows the
plain invalid-link page). The page follows the room: a seat taken on another phone disappears.
A phone that already has a seat in the room is taken straight to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.room import Rejected, Room, RoomEvent
from views.common import ACCENT, COLOUR_HEX, MUTED, PlainScreen, banner, big_button, centered_message, glyph, handler, label, tagged, text_on
from views.i18n import Translator
from views.screen import refresh_page

if TYPE_CHECKING:
    from views.session import PageSession


def table_url(base_url: str, room: Room) -> str:
    """The address the table QR code names."""
    return f"{base_url}/table/{room.id}/{room.table.secret}"


class TableScreen(PlainScreen):
    def __init__(self, session: PageSession, tr: Translator, room: Room):
        self.session = session
        self.page = session.page
        self.tr = tr
        self.room = room
        self.error: str | None = None
        self._claiming = False

    async def open(self) -> None:
        from views.session import SEAT_KEY, StorageUnavailable

        try:
            stored = await self.session.prefs.get(SEAT_KEY.format(room=self.room.id))
        except StorageUnavailable:
            stored = None
        seat = self.room.seat_for_token(stored) if isinstance(stored, str) else None
        if seat is not None and self.room.answers(seat, stored, await self.session.device()):
            # This phone already has its seat here (scanned again): straight to it.
            self.page.navigate(f"/seat/{self.room.id}")
            return
        self._unsubscribe = self.room.subscribe(self.on_room_event)
        await self.render()

    async def on_room_event(self, event: RoomEvent) -> None:
        if event.kind in ("seats", "version") and not self._claiming:
            await refresh_page(self.page, self.render)

    @property
    def screen_key(self) -> str:
        return f"table:{self.room.id}"

    def build(self) -> list[ft.Control]:
        tr = self.tr
        names = self.room.names
        width = min(float(self.page.width or 390) - 24, 520)
        items: list[ft.Control] = [label(tr.t(f"game.{self.room.game_id}"), 22, MUTED), label(tr.t("table.title"), 30, ACCENT, ft.FontWeight.BOLD)]
        if self.error:
            items.append(banner(self.error))
        free = self.room.free_seats()
        if self.room.started:
            items.append(tagged("table-started", centered_message(tr.t("table.started"))))
        elif not free:
            items.append(tagged("table-full", centered_message(tr.t("table.no_free_seats"))))
        else:
            items.append(label(tr.t("table.pick_seat"), 18))
            colours = [p.colour for p in self.room.setup.players]
            for seat in free:
                # in the player's colour with their shape, as on the board and the seat pages
                colour = colours[seat]
                items.append(
                    big_button(
                        f"{glyph(colour)} {tr.t('table.seat_button', names, seat=seat)}",
                        handler(self.claim, seat),
                        ident=f"claim-{seat}",
                        width=width,
                        colour=COLOUR_HEX[colour],
                        text_colour=text_on(colour),
                    )
                )
        return [
            ft.Container(
                alignment=ft.Alignment.TOP_CENTER,
                expand=True,
                content=tagged("table-page", ft.Container(width=width, content=ft.Column(items, spacing=14, scroll=ft.ScrollMode.AUTO))),
            )
        ]

    async def claim(self, seat: int) -> None:
        self._claiming = True
        try:
            token = await self.room.claim_free(seat, await self.session.device())
        except Rejected as rejection:
            self._claiming = False
            self.error = self.tr.error(rejection.code, rejection.params, self.room.names)
            await self.render()
            return
        await self.session.enter_seat(self.room, token)
