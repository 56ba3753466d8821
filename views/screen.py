"""The base of every room page: subscribes to the room, re-renders from a fresh projection,
submits actions against the version it showed, and shows rejections on this device only."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import flet as ft

from views.common import show_screen

from companion.engine import Audience
from companion.i18n import Translator
from companion.room import Rejected, Room, RoomEvent

if TYPE_CHECKING:
    from views.app import PageSession

log = logging.getLogger(__name__)


async def refresh_page(page: ft.Page, render: Any) -> None:
    """Re-render a page from a room or host event.

    The event arrives in a task started by whichever session changed the room, so hop onto this
    page's own context. A disconnected page is skipped: it re-renders when it reconnects.
    """
    if page.session.connection is None:
        return
    page.run_task(render)


@dataclass
class GameContext:
    """What a game's UI module needs to draw one audience's view and send actions."""

    tr: Translator
    names: list[str]
    colours: list[str]
    width: float
    height: float
    #: the seat whose private view this is (phone or pass-and-play), else None
    seat: int | None
    #: may enter public actions for the current player (the host board)
    acts_for_current: bool
    submit: Any
    ui: dict[str, Any] = field(default_factory=dict)
    rerender: Any = None
    #: the host's data directory (saved boards, presets), None when the host has none
    data_dir: Path | None = None


class RoomScreen:
    channel: Literal["seat", "host", "pass"] = "host"
    #: order in which screens hear of a change (0 = first: the board everyone watches)
    priority: int = 0
    #: set by open(): this device lost unsent input while away (views/away.py)
    away_notice = False

    def __init__(self, session: PageSession, tr: Translator, room: Room):
        self.session = session
        self.page = session.page
        self.tr = tr
        self.room = room
        self.shown_version = -1
        self.missed = False
        self._accepting = False
        #: a redraw is queued and has not started: later events need no redraw of their own
        self._redraw_queued = False
        self.error: str | None = None
        self.ui: dict[str, Any] = {}
        self._unsubscribe: Any = None

    # -- lifecycle --

    async def open(self) -> None:
        self.away_notice = self.session.config.away.take(self)
        self._unsubscribe = self.room.subscribe_first(self.on_room_event, priority=self.priority)
        await self.render()

    async def close(self) -> None:
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None

    async def connected(self, up: bool) -> None:
        # Flet re-sends the current page on a reconnect: draw again only if something was missed
        # (a redraw replaces every control, and a tap landing on a replaced control is lost).
        if up and (self.missed or self.shown_version != self.room.version):
            await self.render()

    #: the kinds of room event that change what this screen shows
    watches: frozenset[str] = frozenset({"version", "presence", "seats"})

    async def on_room_event(self, event: RoomEvent) -> None:
        if event.kind not in self.watches or self._accepting:
            return
        if event.kind == "version" and event.version <= self.shown_version:
            return  # already drawn (this device's own action re-rendered it)
        if self.page.session.connection is None:
            self.missed = True  # drawn when it reconnects
            return
        if self._redraw_queued:
            return  # a burst of changes is drawn once, from the room as it is when drawing starts
        self._redraw_queued = True
        self.page.run_task(self._queued_redraw)

    #: loop turns a phone's redraw waits before it starts (see yield_to_board)
    BOARD_FIRST_TURNS = 3

    async def yield_to_board(self) -> None:
        """Let the board's frame reach the wire before this screen renders.

        The board renders first, but Flet's send loop only wakes after every task already
        queued: without this, its frame would leave after every phone of the room had rendered.
        Measured with benchmarks/rooms.py (R=1 median, R=10 p95: see README "Measured")."""
        if self.priority > 0:
            for _ in range(self.BOARD_FIRST_TURNS):
                await asyncio.sleep(0)

    async def _queued_redraw(self) -> None:
        await self.yield_to_board()
        self._redraw_queued = False  # events until here are drawn by this render
        await self.render()

    # -- drawing --

    @property
    def names(self) -> list[str]:
        return self.room.names

    @property
    def colours(self) -> list[str]:
        return [p.colour for p in self.room.setup.players]

    def context(self, seat: int | None, acts_for_current: bool) -> GameContext:
        return GameContext(
            tr=self.tr,
            names=self.names,
            colours=self.colours,
            width=float(self.page.width or 1024),
            height=float(self.page.height or 768),
            seat=seat,
            acts_for_current=acts_for_current,
            submit=self.submit,
            ui=self.ui,
            rerender=self.render,
            data_dir=self.session.config.data_dir,
        )

    async def render(self) -> None:
        self.missed = False
        self.shown_version = self.room.version
        controls = self.build()
        show_screen(self.page, controls, f"{type(self).__name__}:{self.room.id}")

    def build(self) -> list[ft.Control]:  # pragma: no cover - abstract
        raise NotImplementedError

    def view(self, audience: Audience) -> Any:
        return self.room.view(audience)

    # -- acting --

    def submission(self) -> tuple[str, int | None]:
        """The channel and the seat this screen speaks for."""
        return self.channel, None

    async def submit(self, raw: dict[str, Any]) -> bool:
        channel, seat = self.submission()
        try:
            await self.room.submit(raw, channel=channel, seat=seat, based_on_version=self.shown_version)
        except Rejected as rejection:
            self.error = self.tr.error(rejection.code, rejection.params, self.names)
            await self.render()
            return False
        self.error = None
        # Drawn after the screens already told of the change (the board first), not before them;
        # this screen's own copy of the room event is then skipped (see on_room_event).
        self._accepting = True
        self.page.run_task(self._after_accepted)
        return True

    async def _after_accepted(self) -> None:
        await self.yield_to_board()
        self._accepting = False
        await self.after_accepted()

    async def after_accepted(self) -> None:
        await self.render()
