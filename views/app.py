"""The Flet entry point: one session per browser tab, routed to a page.

Routes (the host token travels as `?k=` so a restarted host's tablet link keeps working):
  /                      rooms (host with ?k=, read-only spectator list without)
  /room/<id>             a room's board (host board with ?k=, spectator board without)
  /join/<id>/<token>     a seat link from a QR code: stores the token on the phone, then /seat/<id>
  /seat/<id>             the seat page; the token comes from the phone's storage for this room

Seat identity comes from our own durable token, never from the Flet session (a phone whose IP
changes, or a restarted server, gets a new session).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit

import flet as ft

from companion.i18n import LANGUAGES, translator
from companion.room import Host
from views.board import BoardScreen
from views.common import centered_message, setup_page
from views.home import HomeScreen
from views.seat import SeatScreen

log = logging.getLogger(__name__)

SEAT_KEY = "referee.seat.{room}"
LANG_KEY = "referee.lang"


@dataclass(frozen=True)
class AppConfig:
    #: the address phones use to reach this host, e.g. http://192.168.1.20:8550
    base_url: str


def parse_route(route: str) -> tuple[list[str], dict[str, str]]:
    split = urlsplit(route or "/")
    parts = [p for p in split.path.split("/") if p]
    query = {k: v[0] for k, v in parse_qs(split.query).items()}
    return parts, query


def build_main(host: Host, config: AppConfig):
    async def main(page: ft.Page) -> None:
        await PageSession(page, host, config).start()

    return main


class PageSession:
    """One browser tab: picks the screen for the route, owns its language and storage."""

    def __init__(self, page: ft.Page, host: Host, config: AppConfig):
        self.page = page
        self.host = host
        self.config = config
        self.screen: Any = None
        self.prefs = ft.SharedPreferences()
        self.lang = "en"

    async def start(self) -> None:
        setup_page(self.page, translator(self.lang).t("ui.app_title"))
        stored = await self.prefs.get(LANG_KEY)
        if isinstance(stored, str) and stored in LANGUAGES:
            self.lang = stored
        self.page.on_route_change = self.on_route_change
        self.page.on_connect = self.on_connect
        self.page.on_disconnect = self.on_disconnect
        self.page.on_close = self.on_close
        self.page.on_resize = self.on_resize
        await self.show(self.page.route)

    async def on_route_change(self, event: ft.RouteChangeEvent) -> None:
        await self.show(event.route)

    async def on_connect(self, _event: Any) -> None:
        if self.screen is not None:
            await self.screen.connected(True)

    async def on_disconnect(self, _event: Any) -> None:
        if self.screen is not None:
            await self.screen.connected(False)

    async def on_close(self, _event: Any) -> None:
        await self.leave()

    async def on_resize(self, _event: Any) -> None:
        if self.screen is not None:
            await self.screen.render()

    async def leave(self) -> None:
        if self.screen is not None:
            await self.screen.close()
            self.screen = None

    async def set_language(self, lang: str) -> None:
        if lang not in LANGUAGES:
            return
        self.lang = lang
        await self.prefs.set(LANG_KEY, lang)
        if self.screen is not None:
            self.screen.tr = translator(lang)
            await self.screen.render()

    async def show(self, route: str) -> None:
        await self.leave()
        parts, query = parse_route(route)
        tr = translator(self.lang)
        token = query.get("k")
        is_host = self.host.is_host(token)
        host_query = f"?k={token}" if is_host else ""
        if not parts:
            self.screen = HomeScreen(self, tr, is_host=is_host, host_query=host_query)
        elif parts[0] == "room" and len(parts) == 2 and parts[1] in self.host.rooms:
            self.screen = BoardScreen(self, tr, self.host.rooms[parts[1]], is_host=is_host, host_query=host_query)
        elif parts[0] == "join" and len(parts) == 3:
            room = self.host.rooms.get(parts[1])
            if room is None or room.seat_for_token(parts[2]) is None:
                return self.invalid_link()
            await self.prefs.set(SEAT_KEY.format(room=room.id), parts[2])
            self.page.navigate(f"/seat/{room.id}")
            return
        elif parts[0] == "seat" and len(parts) == 2:
            room = self.host.rooms.get(parts[1])
            stored = await self.prefs.get(SEAT_KEY.format(room=parts[1])) if room else None
            seat = room.seat_for_token(stored) if room and isinstance(stored, str) else None
            if room is None or seat is None:
                return self.invalid_link()
            self.screen = SeatScreen(self, tr, room, seat=seat, token=stored)
        else:
            return self.invalid_link()
        await self.screen.open()

    def invalid_link(self) -> None:
        """A wrong, revoked or unknown link: a plain message and no game data at all."""
        tr = translator(self.lang)
        self.page.controls.clear()
        self.page.add(ft.Semantics(identifier="invalid-link", content=centered_message(tr.t("ui.invalid_link"))))
        self.page.update()
