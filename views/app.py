"""The Flet entry point: one session per browser tab, routed to a page.

Routes (the host token travels as `?k=` so a restarted host's tablet link keeps working):
  /                      rooms (host with ?k=, read-only spectator list without)
  /room/<id>             a room's board (host board with ?k=, spectator board without)
  /join/<id>/<token>     a seat link from a QR code: a claim. The device takes the seat if no device
                         holds it (the phone keeps the token, then /seat/<id>); another device gets
                         views/seat_request.py (the host board allows or refuses)
  /table/<id>/<secret>   the table QR code: the room's free seats; a tap claims one (views/join.py)
  /seat/<id>             the seat page; the token comes from the phone's storage for this room, and
                         the seat answers only the device that holds it (its secret, also stored)
  /boards                the host's Règlement board editor (host only: needs ?k=)
  /history               finished games, /history/<id> one replayed step by step (host only)

Seat identity comes from our own durable token and device secret, never from the Flet session (a
phone whose IP changes, or a restarted server, gets a new session).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

import flet as ft

from companion.i18n import LANGUAGES
from companion.history import finished_room
from companion.room import Host, new_token, valid_device_secret
from views.board import BoardScreen
from views.boards import BoardsScreen
from views.flet_patches.hardening import when_a_tap_misses, when_events_dropped
from views.common import centered_message, setup_page
from views.history import HistoryScreen, ReplayScreen
from views.home import HomeScreen
from views.i18n import translator
from views.memory import reclaim_soon
from views.join import TableScreen
from views.seat import SeatScreen
from views.screen import RoomScreen
from views.seat_request import SeatRequestScreen
from views.app_window import ScreenAwake, is_app_window, leaving_the_screen_stops_the_table
# (AppConfig and the storage keys are this module's names too: main.py and the tests import them here)
from views.session import DEVICE_KEY, LANG_KEY, SEAT_KEY, AppConfig, PageSession, PhoneStorage, StorageUnavailable  # noqa: F401

log = logging.getLogger(__name__)

def parse_route(route: str) -> tuple[list[str], dict[str, str]]:
    split = urlsplit(route or "/")
    parts = [p for p in split.path.split("/") if p]
    query = {k: v[0] for k, v in parse_qs(split.query).items()}
    return parts, query


def language_for(tags: Sequence[str]) -> str:
    """Our language for a device's ordered preferences ("ru-RU", "fr", "de-CH", ...): the first
    one we have, English when none is."""
    for tag in tags:
        primary = str(tag).replace("_", "-").split("-")[0].lower()
        if primary in LANGUAGES:
            return primary
    return "en"


def build_main(host: Host, config: AppConfig):
    # Every page sends its own changes (RoomScreen.render: what changed, in one patch): Flet's
    # auto-update after each event would diff the whole page again for nothing (13 % of the
    # server's CPU at ten tables). Off for the whole app, before any session, as Flet documents.
    ft.context.disable_auto_update()

    async def main(page: ft.Page) -> None:
        session = TabSession(page, host, config)
        try:
            await session.start()
        finally:
            session.started = True
            session.release_if_closed()

    return main


class TabSession(PageSession):
    """One browser tab: picks the screen for the route, owns its language and storage (what a
    screen may use of it: views/session.py PageSession)."""

    def __init__(self, page: ft.Page, host: Host, config: AppConfig):
        self.page = page
        self.host = host
        self.config = config
        self.screen: Any = None
        self.prefs = PhoneStorage()
        #: this device's secret, once read from its storage (see device)
        self._device: str | None = None
        self._resize_queued = False
        self._resized_at = 0.0
        #: the session expired (its device stayed away longer than the session timeout)
        self.closed = False
        #: start() has returned (until then its awaits keep the page alive, expired or not)
        self.started = False
        self.lang = "en"
        #: this page is the app's own window (app mode): host rights come from its connection
        self.window = is_app_window(page)
        #: the screen is kept on while the window shows a running game
        self.awake = ScreenAwake() if self.window else None
        #: rooms whose board this window has said leaving the screen stops the table (once each)
        self.warned_rooms: set[str] = set()
        #: the route the screen was last shown for (see on_connect)
        self.route_shown: str | None = None

    async def start(self) -> None:
        # First, before anything is awaited: a device that never answers the storage calls below
        # may be gone, and its session expired, before they give up.
        self.page.on_close = self.on_close
        self.config.sessions.add(self)
        if self.window:
            self.config.windows.add(self.page)
        setup_page(self.page, translator(self.lang).t("ui.app_title"))
        try:
            stored = await self.prefs.get(LANG_KEY)
        except StorageUnavailable:
            stored = None
        if isinstance(stored, str) and stored in LANGUAGES:
            self.lang = stored
        elif parse_route(self.page.route)[1].get("lang") not in LANGUAGES:
            # Nothing chosen on this device (a stored choice or ?lang= wins): its own language.
            self.lang = await self.device_language()
        self.page.on_route_change = self.on_route_change
        self.page.on_connect = self.on_connect
        self.page.on_disconnect = self.on_disconnect
        self.page.on_resize = self.on_resize
        when_events_dropped(self.page, self.too_many_events)
        when_a_tap_misses(self.page, self.tap_missed)
        await self.show(self.page.route)

    #: seconds to wait for the browser to say which languages it prefers
    DEVICE_INFO_TIMEOUT = 3.0

    async def device_language(self) -> str:
        """The first of the browser's preferred languages that we have (navigator.languages, as
        Flet's web client reports them through get_device_info), else English."""
        try:
            info = await asyncio.wait_for(self.page.get_device_info(), self.DEVICE_INFO_TIMEOUT)
        except Exception:  # no answer, or an answer Flet could not read: English it is
            log.warning("device language unavailable", exc_info=True)
            return "en"
        tags = [getattr(locale, "language_code", "") for locale in getattr(info, "locales", None) or []]
        tags += list(getattr(info, "languages", None) or [])
        return language_for(tags)

    def http_url(self, path: str) -> str:
        """The address of one of this host's plain-HTTP pages (export, import): relative in a
        browser (the page's own origin); in the app window, which has no origin, the LAN address
        (the system browser opens it)."""
        return f"{self.config.base_url}{path}" if self.window else path

    async def on_route_change(self, event: ft.RouteChangeEvent) -> None:
        if event.route == self.route_shown and self.screen is not None:
            return  # shown already, by on_connect: showing it again would replace every control
        await self.show(event.route)

    async def on_connect(self, _event: Any) -> None:
        """A device back on this session. A tab that loaded another address comes back to its
        tab's session (Flet keeps the session id in the tab) with the new route, and Flet sends it
        this session's page whole: the screen of the address it left. Flet's route change that
        should follow can be lost (it drops one for the route of its last route change, and the
        route may have changed while no handler listened), so the page's route decides here: CI
        saw a tablet stay on the previous room's board for 20 s after opening another room's."""
        if self.page.route and self.page.route != self.route_shown:
            await self.show(self.page.route)
        elif self.screen is not None:
            await self.screen.connected(True)

    async def on_disconnect(self, _event: Any) -> None:
        if self.screen is not None:
            await self.screen.connected(False)

    async def on_close(self, _event: Any) -> None:
        self.closed = True
        if self.screen is not None:
            self.config.away.session_expired(self.screen)
        self.release_if_closed()
        self.config.windows.discard(self.page)
        if self.awake is not None:
            self.awake.stop()
        await self.leave()

    def release_if_closed(self) -> None:
        """Once expired and out of start(), the session is gone: give its memory back."""
        if self.closed and self.started and self in self.config.sessions:
            self.config.sessions.discard(self)
            reclaim_soon()  # the expired session is a reference cycle (views/memory.py)

    #: seconds a new size must hold before the page is drawn for it: a rotating phone or a
    #: window being dragged sends a storm of resizes, and each drawing is the whole page
    RESIZE_SETTLE = 0.15

    async def on_resize(self, _event: Any) -> None:
        self._resized_at = time.monotonic()
        if not self._resize_queued:  # one drawing per storm, from the size when it settles
            self._resize_queued = True
            self.page.run_task(self._draw_resized)

    async def _draw_resized(self) -> None:
        while (left := self._resized_at + self.RESIZE_SETTLE - time.monotonic()) > 0:
            await asyncio.sleep(left)
        self._resize_queued = False
        if self.screen is not None:
            await self.screen.render()

    async def too_many_events(self) -> None:
        """This device's events came too fast and some were dropped (views/flet_patches/hardening.py)."""
        self.page.show_dialog(ft.SnackBar(ft.Text(translator(self.lang).t("ui.too_many_events")), duration=ft.Duration(seconds=8)))

    async def tap_missed(self) -> None:
        """A tap reached a control the page no longer holds (views/flet_patches/hardening.py)."""
        if isinstance(self.screen, RoomScreen):
            await self.screen.tap_missed()

    async def leave(self) -> None:
        if self.screen is not None:
            await self.screen.close()
            self.screen = None

    async def set_language(self, lang: str) -> None:
        if lang not in LANGUAGES:
            return
        self.lang = lang
        try:
            await self.prefs.set(LANG_KEY, lang)
        except StorageUnavailable:
            pass  # the choice still holds for this tab
        if self.screen is not None:
            self.screen.tr = translator(lang)
            await self.screen.render()

    async def show(self, route: str) -> None:
        self.route_shown = route
        await self.leave()
        if self.closed:
            return  # expired while waiting for the device: nothing may subscribe to a room now
        parts, query = parse_route(route)
        if query.get("lang") in LANGUAGES and query["lang"] != self.lang:
            # A link may name the language (?lang=fr); the device remembers it.
            await self.set_language(query["lang"])
        tr = translator(self.lang)
        # The app's own window is the host (its connection says so, never its register frame).
        token = self.host.token if self.window else query.get("k")
        is_host = self.host.is_host(token)
        host_query = f"?k={token}" if is_host else ""
        if not parts:
            self.screen = HomeScreen(self, tr, is_host=is_host, host_query=host_query)
        elif parts[0] == "room" and len(parts) == 2 and parts[1] in self.host.rooms:
            self.screen = BoardScreen(self, tr, self.host.rooms[parts[1]], is_host=is_host, host_query=host_query)
        elif parts[0] == "boards" and len(parts) == 1:
            if not is_host:
                return self.invalid_link()
            self.screen = BoardsScreen(self, tr, host_query=host_query)
        elif parts[0] == "history" and len(parts) in (1, 2):
            # The host's archive: a non-host sees the plain invalid-link page, no game data.
            finished = finished_room(self.host, parts[1]) if len(parts) == 2 else None
            if not is_host or (len(parts) == 2 and finished is None):
                return self.invalid_link()
            if finished is None:
                self.screen = HistoryScreen(self, tr, host_query=host_query)
            else:
                self.screen = ReplayScreen(self, tr, finished, host_query=host_query)
        elif parts[0] == "join" and len(parts) == 3:
            # a seat's link is a claim: the first device takes the seat; another one asks the board
            room = self.host.rooms.get(parts[1])
            seat = room.seat_for_token(parts[2]) if room is not None else None
            if room is None or seat is None:
                return self.invalid_link()
            device = await self.device()
            if self.closed:
                return
            if await room.claim(seat, device):
                return await self.enter_seat(room, parts[2])
            self.screen = SeatRequestScreen(self, tr, room, seat=seat, token=parts[2], device=device, ask_now=True)
        elif parts[0] == "table" and len(parts) == 3:
            room = self.host.rooms.get(parts[1])
            if room is None or not room.table_secret_valid(parts[2]):
                return self.invalid_link()
            self.screen = TableScreen(self, tr, room)
        elif parts[0] == "seat" and len(parts) == 2:
            room = self.host.rooms.get(parts[1])
            try:
                stored = await self.prefs.get(SEAT_KEY.format(room=parts[1])) if room else None
            except StorageUnavailable:
                return self.storage_failed()
            seat = room.seat_for_token(stored) if room and isinstance(stored, str) else None
            if room is None or seat is None:
                return self.invalid_link()
            device = await self.device()
            if self.closed:
                return
            if await room.claim(seat, device):  # (a seat claimed before seats had devices binds here)
                self.screen = SeatScreen(self, tr, room, seat=seat, token=stored, device=device)
            else:  # the seat moved to another device: this one may ask the board for it back
                self.screen = SeatRequestScreen(self, tr, room, seat=seat, token=stored, device=device, ask_now=False)
        else:
            return self.invalid_link()
        await self.screen.open()
        if self.awake is not None:  # the app window: the screen stays on while a game runs
            room = self.screen.room if isinstance(self.screen, BoardScreen) else None
            await self.awake.follow(room)
            if room is not None and not room.over and room.id not in self.warned_rooms and leaving_the_screen_stops_the_table():
                self.warned_rooms.add(room.id)  # before the phones join: while it matters, it is said
                self.page.show_dialog(
                    ft.SnackBar(
                        ft.Semantics(identifier="leaving-stops-table", content=ft.Text(tr.t("ui.leaving_stops_table"))),
                        duration=ft.Duration(seconds=30),
                        show_close_icon=True,
                    )
                )

    async def enter_seat(self, room: Any, token: str) -> None:
        """This phone takes the seat `token` opens (a seat link, a claim on the table page, a
        move to the next game): the phone's storage keeps the token, then the seat page opens."""
        try:
            await self.prefs.set(SEAT_KEY.format(room=room.id), token)
        except StorageUnavailable:
            # The phone cannot remember the seat: play on from the token itself, in this tab.
            seat = room.seat_for_token(token)
            if seat is None:
                return self.invalid_link()
            await self.leave()
            self.screen = SeatScreen(self, translator(self.lang), room, seat=seat, token=token, device=await self.device())
            await self.screen.open()
            return
        # Take the token out of the address bar; the phone's storage remembers it.
        self.page.navigate(f"/seat/{room.id}")

    async def device(self) -> str:
        """This browser's device secret (128 bits): kept in its storage, so every tab of it, and
        every session after a reload, a new Wi-Fi address or a host restart, reads the same one;
        made the first time. A browser without storage gets one for this tab's session only (a
        reload there is a new device, which asks the host board for its seat)."""
        if self._device is not None:
            return self._device
        try:
            stored = await self.prefs.get(DEVICE_KEY)
            storage = True
        except StorageUnavailable:
            stored, storage = None, False
        if valid_device_secret(stored):
            self._device = stored
            return stored
        made = new_token()
        self._device = made
        if storage:
            try:
                await self.prefs.set(DEVICE_KEY, made)
            except StorageUnavailable:
                pass  # this tab keeps it for its session
        return made

    def storage_failed(self) -> None:
        tr = translator(self.lang)

        async def retry(_event: Any) -> None:
            await self.show(self.page.route)

        self.page.controls.clear()
        self.page.add(
            ft.Semantics(
                identifier="storage-failed",
                key="storage-failed",
                content=ft.Column(
                    [centered_message(tr.t("ui.storage_failed")), ft.Button(tr.t("ui.retry"), on_click=retry, height=56)],
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                ),
            )
        )
        self.page.update()

    def invalid_link(self) -> None:
        """A wrong, revoked or unknown link: a plain message and no game data at all."""
        tr = translator(self.lang)
        self.page.controls.clear()
        self.page.add(ft.Semantics(identifier="invalid-link", key="invalid-link", content=centered_message(tr.t("ui.invalid_link"))))
        self.page.update()
