"""A device that opens the link of a seat another device holds: it gets nothing of the seat, only
that the seat is in use and that the host board is asked (companion.room `Room.ask_for_seat`).
The host board allows (the seat moves here and opens) or refuses; a request nobody answers lapses.
A device that lost its seat to another one may ask for it back from here too."""

from __future__ import annotations

from typing import TYPE_CHECKING

import flet as ft

from companion.room import Rejected, Room, RoomEvent, SeatRequest
from views.common import ACCENT, MUTED, PlainScreen, banner, big_button, handler, label, tagged
from views.i18n import Translator
from views.screen import refresh_page

if TYPE_CHECKING:
    from views.session import PageSession


class SeatRequestScreen(PlainScreen):
    def __init__(self, session: PageSession, tr: Translator, room: Room, *, seat: int, token: str, device: str, ask_now: bool):
        self.session = session
        self.page = session.page
        self.tr = tr
        self.room = room
        self.seat = seat
        self.token = token
        self.device = device
        #: the link was opened just now (ask at once) rather than the seat found moved (ask on a tap)
        self.ask_now = ask_now
        self.request: SeatRequest | None = None
        #: how the last request ended ("refused", "expired"), or why asking was refused (a text)
        self.outcome: str | None = None
        self.refusal: str | None = None

    @property
    def screen_key(self) -> str:
        return f"seat-request:{self.room.id}:{self.seat}"

    async def open(self) -> None:
        self._unsubscribe = self.room.subscribe(self.on_room_event)
        if self.ask_now:
            await self.ask()
        else:
            await self.render()

    async def close(self) -> None:
        if self.request is not None:
            await self.room.withdraw_request(self.request)  # left the page: the board stops asking
        await super().close()

    async def ask(self) -> None:
        try:
            self.request = await self.room.ask_for_seat(self.seat, self.device)
            self.outcome = self.refusal = None
        except Rejected as rejection:
            self.refusal = self.tr.error(rejection.code, rejection.params, self.room.names)
        await self.render()

    async def on_room_event(self, event: RoomEvent) -> None:
        if event.kind not in ("seats", "requests"):
            return
        if self.room.answers(self.seat, self.token, self.device):
            self.request = None
            await self.session.enter_seat(self.room, self.token)  # allowed: the seat opens here
            return
        if self.request is not None and self.request.outcome != "open":
            self.outcome, self.request = self.request.outcome, None
        await refresh_page(self.page, self.render)

    def build(self) -> list[ft.Control]:
        tr, names = self.tr, self.room.names
        width = min(float(self.page.width or 390) - 24, 520)
        if not self.room.token_valid(self.seat, self.token):
            items: list[ft.Control] = [tagged("invalid-link", label(tr.t("ui.invalid_link"), 20))]
        else:
            asking = self.request is not None and self.request.outcome == "open"
            title = "seat.in_use_title" if self.ask_now else "seat.moved_here_title"
            items = [label(tr.t(f"game.{self.room.game_id}"), 20, MUTED), tagged("seat-request-title", label(tr.t(title, names, seat=self.seat), 26, ACCENT, ft.FontWeight.BOLD))]
            if self.refusal:
                items.append(banner(self.refusal))
            if self.outcome in ("refused", "expired"):
                items.append(tagged(f"seat-request-{self.outcome}", label(tr.t(f"seat.{self.outcome}"), 18)))
            if asking:
                items.append(tagged("seat-request-waiting", label(tr.t("seat.asking"), 18)))
                items.append(ft.ProgressRing(width=36, height=36))
            else:
                items.append(label(tr.t("seat.ask_hint"), 16, MUTED))
                items.append(big_button(tr.t("seat.ask_button"), handler(self.ask), ident="seat-request-ask", width=width))
        return [
            ft.Container(
                alignment=ft.Alignment.TOP_CENTER,
                expand=True,
                content=tagged("seat-request-page", ft.Container(width=width, padding=12, content=ft.Column(items, spacing=14))),
            )
        ]
