"""What a screen may use of its browser tab's session, and the pieces of it a screen names:
the host's settings (AppConfig), the phone's storage (PhoneStorage) and its keys.

The session itself (views/app.py TabSession) picks the screen for each route, so it imports every
screen; the screens import this module instead, and none of them imports views/app.py.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import flet as ft

from companion.network import JoinAddress, JoinAddresses
from views.app_window import WindowPages
from views.away import AwayNotes

if TYPE_CHECKING:
    from companion.room import Host, Room

log = logging.getLogger(__name__)

SEAT_KEY = "referee.seat.{room}"
LANG_KEY = "referee.lang"
#: the device's own secret: the seats it claims answer it (companion.room `Room.claim`)
DEVICE_KEY = "referee.device"


class AppConfig:
    """The running host's settings, shared by every page of the host process."""

    def __init__(self, base_url: str, data_dir: Path | None = None, addresses: Sequence[JoinAddress] = ()):
        #: the join addresses; the one in use can change while the host runs (Join help's picker)
        self.join = JoinAddresses(current=base_url.rstrip("/"), choices=list(addresses))
        #: the host's data directory (saved boards, seating presets); None = the shipped defaults only
        self.data_dir = data_dir
        #: the sessions of this host process that have not expired yet (connected or waiting for
        #: their device to come back: main.SESSION_TIMEOUT_SECONDS); /healthz counts them
        self.sessions: set[Any] = set()
        #: devices whose session expired with picks or typing not sent (told when they return)
        self.away = AwayNotes()
        #: the app window's pages (app mode, views/app_window.py): closed when the host stops
        self.windows = WindowPages()

    @property
    def base_url(self) -> str:
        """The address phones use to reach this host now, e.g. http://192.168.1.20:8550."""
        return self.join.current


class PhoneStorage:
    """The browser's storage for this origin (SharedPreferences), answering even when the client
    does not: a call that times out is retried once on a fresh service (after a host restart the
    reconnecting client may ignore a service it believes it already has), then gives up with None
    instead of crashing the page."""

    TIMEOUT = 3.0

    def __init__(self) -> None:
        self.service = ft.SharedPreferences()
        # Replaced services stay registered: a late answer to a dead one must find its control,
        # or Flet's receive loop raises and drops the whole connection.
        self._retired: list[ft.SharedPreferences] = []

    async def _call(self, method: str, *args: Any) -> Any:
        for attempt in range(2):
            try:
                return await asyncio.wait_for(getattr(self.service, method)(*args), self.TIMEOUT)
            except Exception:  # timeout, or the client answered with an error
                log.warning("phone storage %s failed (attempt %d)", method, attempt + 1, exc_info=True)
                self._retired.append(self.service)
                self.service = ft.SharedPreferences()
        raise StorageUnavailable(method)

    async def get(self, key: str) -> Any:
        return await self._call("get", key)

    async def set(self, key: str, value: str) -> None:
        await self._call("set", key, value)

    async def remove(self, key: str) -> None:
        try:
            await self._call("remove", key)
        except StorageUnavailable:
            pass  # the token is revoked on the host anyway


class StorageUnavailable(Exception):
    pass


class PageSession(Protocol):
    """One browser tab, as its screen sees it (views/app.py TabSession is the one there is)."""

    page: ft.Page
    host: Host
    config: AppConfig
    prefs: PhoneStorage
    #: the tab's language
    lang: str
    #: the page is the app's own window (app mode)
    window: bool

    def http_url(self, path: str) -> str:
        """The address of one of this host's plain-HTTP pages (export, import)."""
        ...

    async def set_language(self, lang: str) -> None: ...

    async def enter_seat(self, room: Room, token: str) -> None:
        """This phone takes the seat `token` opens, then the seat page opens."""
        ...

    async def device(self) -> str:
        """This device's secret, from its storage (made and kept there the first time)."""
        ...
