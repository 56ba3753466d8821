"""The base of every room page: subscribes to the room, re-renders from a fresh projection,
submits actions against the version it showed, and shows rejections on this device only."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import TYPE_CHECKING, Any, Literal

import flet as ft
from flet.components.component import Renderer

from views.away import is_position
# (GameContext is this module's name too: screens and tests import it here)
from views.context import GameContext  # noqa: F401
from views.i18n import Translator
from views.sections import CHECK as CHECK_SECTIONS, Sections, duplicate_sibling_keys
from views.common import COLOUR_HEX, glyph, show_screen, text_on

from companion.engine import BOARD, Audience
from companion.room import Rejected, Room, RoomEvent

if TYPE_CHECKING:
    from views.session import PageSession

log = logging.getLogger(__name__)


async def refresh_page(page: ft.Page, render: Any) -> None:
    """Re-render a page from a room or host event.

    The event arrives in a task started by whichever session changed the room, so hop onto this
    page's own context. A disconnected page is skipped: it re-renders when it reconnects.
    """
    if page.session.connection is None:
        return
    page.run_task(render)


#: Seconds during which taps on controls acting for a player are refused after that player
#: became the one acted for (another player finished). A hurried second tap by someone whose eyes
#: are still on the last player comes up to about 1 s after the first; the window counts from the
#: server's drawing, which reaches a phone on a busy Wi-Fi up to ~0.3 s later. So 1.5 s: every
#: such tap is refused, and a player who has read the new name (a glance, then a deliberate tap)
#: is rarely held up. (docs/decisions/handover-window.md. Tests about something else, which tap
#: for one player after another at machine speed, set REFEREE_HANDOVER_SECONDS=0: see
#: tests/conftest.py; it turns off both windows.)
HANDOVER_SECONDS = float(os.environ.get("REFEREE_HANDOVER_SECONDS", "1.5"))
#: Seconds during which, after this device's own action, a tap for the same player is taken for the
#: second tap of a double tap and refused. A double tap's second tap comes 50-350 ms after the
#: first (measured in Chromium and reported from phones); a deliberate next action (a second card
#: drawn) comes from about 0.8 s on. The window opens when the page is drawn after the first tap,
#: so a second tap that waited behind the first one's processing is still inside it.
DOUBLE_TAP_SECONDS = 0.5
#: seconds a refused tap's message stays once its window has closed (read, then it goes)
REFUSAL_AFTER_WINDOW = 1.5
#: seconds after a drawing during which a tap on a control it replaced is answered (see tap_missed):
#: a finger's tap and its way to the server take well under this
MISSED_TAP_SECONDS = 2.0


class Handover:
    """Which players this page's act-for controls act for, and the short window after that
    changes (see HANDOVER_SECONDS).

    Controls acting for a player are keyed by that player (`GameContext.act_key`), so their ids
    change with the player: a tap already on its way to the previous player's button cannot be
    taken by the next player's. During the window, though, the new player's controls take over
    the keys (so the ids) of the previous drawing's act-for controls, in drawing order: they
    refuse every tap, and a tap still addressed to a previous control reaches one that says so
    ("Now Gus: tap again"), not a control removed from the page, whose event Flet drops without
    a word. When the window ends the page is drawn again with the player's own keys."""

    def __init__(self, *, hands_over: bool, on_window: Any):
        #: the board acts for whoever plays; a phone only for its own seat
        self.hands_over = hands_over
        self.on_window = on_window
        #: seats acted for, and the act-for keys in drawing order, of the page last drawn
        self.shown: frozenset[int] = frozenset()
        self.shown_keys: list[str] = []
        self._drawing: set[int] = set()
        self._drawing_keys: list[str] = []
        #: this device's own action was accepted since the last drawing
        self.acted = False
        #: the open window: the seat it protects, until when, and the keys its controls take over;
        #: "player": the player acted for changed; "again": this device acted, the same player acts on
        self.seat: int | None = None
        self.kind: Literal["player", "again"] = "player"
        self.until = 0.0
        self.inherited: list[str] = []
        self._inheriting = 0
        #: the seats acted for just before the window opened (their own controls may still be
        #: shown during it, refusing: see slot)
        self.previous: frozenset[int] = frozenset()
        #: the page shown was drawn while the window was open (so with `previous`'s controls)
        self.drawn_in_window = False

    def is_open(self) -> bool:
        return self.seat is not None and time.monotonic() < self.until

    def refuses(self, seat: Any) -> bool:
        """A tap for `seat` is refused during the window for the player it protects; and for one
        acted for before it who no longer is, as long as the page shown was drawn during the
        window (their control is still there, see slot: the clock may have closed the window
        before the page is drawn again)."""
        if seat in self.previous and seat not in self.shown and self.drawn_in_window:
            return True
        return self.is_open() and seat == self.seat

    def slot(self, seat: int) -> int:
        """The player whose own controls stand for `seat`'s now, for controls mounted per player
        (Vabanque's tap targets): during a window handed over to `seat`, the previous player's
        (their ids stay, and refuse every tap, as inherited keys do), else `seat`'s."""
        if self.is_open() and seat == self.seat and len(self.previous) == 1:
            return next(iter(self.previous))
        return seat

    def begin(self) -> None:
        self._drawing = set()
        self._drawing_keys = []
        self._inheriting = 0

    def acts_for(self, seat: int) -> None:
        """This drawing acts for `seat`: the window opens if that is a new player (on the board),
        or the same one again right after this device's own action."""
        self._drawing.add(seat)
        if self.is_open() and seat == self.seat:
            return
        new_player = self.hands_over and self.shown and seat not in self.shown
        again = self.acted and seat in self.shown
        if new_player:
            self.open(seat, HANDOVER_SECONDS, "player")
        elif again and HANDOVER_SECONDS > 0:
            self.open(seat, DOUBLE_TAP_SECONDS, "again")

    def key(self, base: str, seat: int) -> str:
        """The key of a control acting for `seat` in this drawing: its own (`base@seat`), or during
        the window the next key of the previous drawing's act-for controls. Never one that another
        control of this drawing holds or may still take: two controls with one key among siblings
        make Flet's diff send moves the client cannot apply."""
        self.acts_for(seat)
        key = f"{base}@{seat}"
        if self.is_open() and seat == self.seat and self._inheriting < len(self.inherited):
            key = self.inherited[self._inheriting]
            self._inheriting += 1
        elif key in self._drawing_keys or (self.is_open() and key in self.inherited):
            key = f"{key}~{len(self._drawing_keys)}"
        self._drawing_keys.append(key)
        return key

    def open(self, seat: int, seconds: float, kind: Literal["player", "again"]) -> None:
        if seconds <= 0:
            return
        if not self.is_open():  # a window opened during another keeps the controls shown before both
            self.previous = self.shown if kind == "player" else frozenset()
        self.seat = seat
        self.kind = kind
        self.inherited = list(self.shown_keys)
        self.until = time.monotonic() + seconds
        self.on_window(seconds)

    def checkpoint(self) -> tuple[Any, ...]:
        """What a drawing has asked of the handover so far (see Sections: a reused part's keys
        are asked for again, and given back when they differ)."""
        return (set(self._drawing), list(self._drawing_keys), self._inheriting, self.seat, self.kind, self.until, list(self.inherited), self.previous)

    def restore(self, saved: tuple[Any, ...]) -> None:
        drawing, keys, self._inheriting, self.seat, self.kind, self.until, inherited, self.previous = saved
        self._drawing, self._drawing_keys, self.inherited = set(drawing), list(keys), list(inherited)

    def end(self) -> None:
        self.shown = frozenset(self._drawing)
        self.drawn_in_window = self.is_open()
        if not self.is_open():
            self.shown_keys = self._drawing_keys
        self.acted = False


class RoomScreen:
    channel: Literal["seat", "host", "pass"] = "host"
    #: order in which screens hear of a change (0 = first: the board everyone watches)
    priority: int = 0
    #: set by open(): this device lost unsent input while away (views/away.py)
    away_notice = False
    #: the page acts for whichever player's turn it is (the host board), not for one seat
    acts_for_others: bool = True

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
        #: a presence drawing is queued; the presence last drawn, and when (see _presence_redraw)
        self._presence_queued = False
        self._shown_presence: tuple[bool, ...] = ()
        self._drawn_at = 0.0
        #: when the device last came back on a new connection (Flet sent it the page whole)
        self._reconnected_at = float("-inf")
        self.error: str | None = None
        self.ui: dict[str, Any] = {}
        self._unsubscribe: Any = None
        self.handover = Handover(hands_over=self.acts_for_others, on_window=self._handover_opened)
        self._handover_timer: asyncio.TimerHandle | None = None
        #: a refused tap's message (handover_message) and the timer that takes it away
        self._refusal_shown: str | None = None
        self._refusal_timer: asyncio.TimerHandle | None = None
        #: when this device's last tap was accepted
        self._accepted_at = float("-inf")
        #: one tap of this device at a time: a second tap is judged once the first is decided
        self._tap_lock = asyncio.Lock()
        #: the parts of the last drawing, reused where they are drawn from the same props
        self.sections = Sections(type(self).__name__)

    # -- lifecycle --

    async def open(self) -> None:
        self.away_notice = self.session.config.away.take(self)
        self.closed = False
        self._unsubscribe = self.room.subscribe_first(self.on_room_event, priority=self.priority)
        await self.render()

    async def close(self) -> None:
        self.closed = True
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None

    async def connected(self, up: bool) -> None:
        if up:
            self._reconnected_at = time.monotonic()
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
        if event.kind == "presence":
            if not self._presence_queued:
                self._presence_queued = True
                self.page.run_task(self._presence_redraw)
            return
        if self._redraw_queued:
            return  # a burst of changes is drawn once, from the room as it is when drawing starts
        self._redraw_queued = True
        self.page.run_task(self._queued_redraw)

    #: seconds between two drawings for presence alone: a phone in a reconnect loop flips its
    #: seat's presence dozens of times a second, and each drawing is the whole board
    PRESENCE_EVERY = 0.5

    def presence_now(self) -> tuple[bool, ...]:
        return tuple(self.room.connected(seat) for seat in range(len(self.room.seats)))

    async def _presence_redraw(self) -> None:
        """Presence changes are drawn together, at most once per PRESENCE_EVERY, and not at all
        when the seats are back as drawn (a reconnect: away, then connected again)."""
        await asyncio.sleep(max(0.0, self._drawn_at + self.PRESENCE_EVERY - time.monotonic()))
        self._presence_queued = False
        if self.page.session.connection is None:
            self.missed = True
        elif self.presence_now() != self._shown_presence:
            await self.render()

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
            submit=self.submit_shown,
            ui=self.ui,
            rerender=self.render,
            data_dir=self.session.config.data_dir,
            board_view=self.view(BOARD) if seat is not None else None,
            version=self.shown_version,
            handover=self.handover,
            sections=self.sections,
        )

    async def submit_shown(self, raw: dict[str, Any]) -> bool:
        """`submit` for the controls of a drawing: it sends the version shown when the tap
        arrives, which is the drawing the finger saw. A control reused from an earlier drawing
        (views/sections.py) is one the page still shows unchanged; a tap reaching this page
        before it has drawn the room's newer version is refused as made on an older drawing
        (see tap_refused)."""
        return await self.submit(raw, seen=self.shown_version)

    #: set once the page has moved on to another screen: a redraw still queued for this one (the
    #: tap that said "Play again", a presence change) must not paint the old room over the new
    closed = False

    async def render(self) -> None:
        if self.closed:
            return
        self.missed = False
        self.shown_version = self.room.version
        self._shown_presence, self._drawn_at = self.presence_now(), time.monotonic()
        self.handover.begin()
        self.sections.begin(self.layout())
        try:
            with Renderer().with_context():  # parts drawn as Flet components (views/sections.py MECHANISM)
                controls = self.build()
        except BaseException:
            self.sections.end(complete=False)
            raise
        self.handover.end()
        self.sections.end()
        self.sections.before_sending()
        shown = self.page.controls
        same_top = len(controls) == len(shown) and all(new is old for new, old in zip(controls, shown))
        self.sections.send_swaps(self.page.session, shown[0] if same_top and len(shown) == 1 else None)
        if same_top:
            # the page's top is the one shown (a reused group): what changed under it was sent
            # above, in one patch of it; no update of the whole page, no diff of it
            self.sections.check_placed(self.page.session, unsent=controls)
            if CHECK_SECTIONS:
                for problem in duplicate_sibling_keys(self.page):
                    log.error("%s: %s", type(self).__name__, problem)
            return
        show_screen(self.page, controls, self.screen_key)
        self.sections.check_placed(self.page.session)
        if CHECK_SECTIONS:
            for problem in duplicate_sibling_keys(self.page):
                log.error("%s: %s", type(self).__name__, problem)

    @property
    def screen_key(self) -> str:
        """What show_screen keys this page's top controls with (a top group is keyed alike)."""
        return f"{type(self).__name__}:{self.room.id}"

    def build(self) -> list[ft.Control]:  # pragma: no cover - abstract
        raise NotImplementedError

    def layout(self) -> Any:
        """How this page is put together now, beyond its parts (views/sections.py reuses parts
        within one layout only): what is drawn over or instead of the game."""
        return None

    def view(self, audience: Audience) -> Any:
        return self.room.view(audience)

    # -- acting --

    def submission(self) -> tuple[str, int | None]:
        """The channel and the seat this screen speaks for."""
        return self.channel, None

    async def submit(self, raw: dict[str, Any], *, seen: int | None = None) -> bool:
        """Send an action made on the drawing of version `seen` (default: the one shown now).
        Refused here, with the reason on this device, when the finger saw another state than the
        room's (the tap was meant for what was on screen before) or during a handover window."""
        channel, seat = self.submission()
        based_on = self.shown_version if seen is None else seen
        async with self._tap_lock:
            if self.tap_refused(raw, based_on):
                host_double = based_on == self.room.version and not self.handover.refuses(raw.get("by"))
                if based_on != self.room.version:
                    await self.render()  # the state the room moved to (and its handover window) first
                self.error = self.handover_message(host_double)
                self._refusal_shown = self.error
                # the refusal is about this window: it goes with it (never left over a reveal)
                self._clear_refusal_later(max(self.handover.until - time.monotonic(), 0.0) + REFUSAL_AFTER_WINDOW)
                await self.render()
                return False
            try:
                await self.room.submit(raw, channel=channel, seat=seat, based_on_version=based_on)
            except Rejected as rejection:
                self.error = self.tr.error(rejection.code, rejection.params, self.names)
                await self.render()
                return False
            self.handover.acted = True
            self._accepted_at = time.monotonic()
        self.error = None
        # Drawn after the screens already told of the change (the board first), not before them;
        # this screen's own copy of the room event is then skipped (see on_room_event).
        self._accepting = True
        self.page.run_task(self._after_accepted)
        return True

    async def take_back(self, seen: int) -> bool:
        """Take back this seat's own latest action (the phone's "Take back my move"), against the
        version the finger saw; refused with the reason on this device."""
        channel, seat = self.submission()
        if seat is None or channel == "host":
            return False
        async with self._tap_lock:
            try:
                await self.room.take_back(seat, based_on_version=seen, channel=channel)
            except Rejected as rejection:
                self.error = self.tr.error(rejection.code, rejection.params, self.names)
                await self.render()
                return False
            # The move is undone whole: a pick made for it (Vabanque's card waiting for its table)
            # must not stay on the page, hidden, as a half-made choice a neighbour can see.
            for key in [k for k in self.ui if not is_position(k)]:
                del self.ui[key]
        self.error = None
        self._accepting = True
        self.page.run_task(self._after_accepted)
        return True

    def tap_refused(self, raw: dict[str, Any], based_on: int) -> bool:
        """A tap made on an older drawing than the room's (the second tap of a double tap, or one
        made while someone else acted) must not act, nor a tap for the player just handed over to
        during the handover window."""
        return based_on != self.room.version or self.handover.refuses(raw.get("by")) or self.second_host_tap(raw)

    def second_host_tap(self, raw: dict[str, Any]) -> bool:
        """On the board, a host entry (for no player: a business tile, a reveal) within a double
        tap's length of this device's own accepted action: the second tap of a double tap, landed
        on what the first one brought up under the finger (Chicago Poker's Reveal, then the new
        tiles drawn where it was: a tile nobody turned up was entered). A deliberate next entry
        (a tile turned up on the table, then tapped) comes seconds later."""
        return HANDOVER_SECONDS > 0 and self.acts_for_others and raw.get("by") is None and time.monotonic() - self._accepted_at < DOUBLE_TAP_SECONDS

    def handover_cue(self, ctx: GameContext) -> ft.Control | None:
        """While the window is open, a small "Now Gus" floating over the page (nothing moves; a
        phone's top edge, a board's bottom edge): who the controls act for now, and that they are
        not live yet. A part: the page's redraws during the window do not send it again."""
        seat = self.handover.seat
        # only for a change of player: the half second after one's own tap needs no words
        if not self.handover.is_open() or seat is None or self.handover.kind != "player":
            return None
        text = self.tr.t("ui.handover_now", self.names, seat=seat)
        colour = self.colours[seat]

        def cue() -> ft.Control:
            badge = ft.Semantics(
                identifier="handover-now",
                key="handover-now",
                live_region=True,
                content=ft.Container(
                    bgcolor=COLOUR_HEX[colour],
                    border_radius=8,
                    padding=ft.Padding.symmetric(horizontal=10, vertical=4),
                    content=ft.Text(f"{glyph(colour)} {text}", size=16, weight=ft.FontWeight.BOLD, color=text_on(colour)),
                ),
            )
            return ft.Row([badge], alignment=ft.MainAxisAlignment.END, key="handover-row")

        return ctx.part("handover-row", (seat, text, colour), cue)

    def handover_message(self, host_double: bool = False) -> str:
        """Why a tap was refused, in words about the tap: a double tap (`host_double`: a host
        entry's second tap, see second_host_tap), a new player, or a game that had moved on."""
        if host_double or (self.handover.is_open() and self.handover.kind == "again"):
            return self.tr.t("ui.tapped_twice")
        if not self.acts_for_others and time.monotonic() - self._accepted_at < DOUBLE_TAP_SECONDS + REFUSAL_AFTER_WINDOW:
            # a phone's own tap just acted: the one refused is its second (it raced the redraw)
            return self.tr.t("ui.tapped_twice")
        seat = self.handover.seat if self.handover.is_open() else None
        if seat is None and self.acts_for_others and len(self.handover.shown) == 1:
            seat = next(iter(self.handover.shown))
        if seat is None:
            return self.tr.t("ui.moved_on")
        return self.tr.t("ui.handover", self.names, seat=seat)

    async def tap_missed(self) -> None:
        """A tap reached a control this page no longer holds (or holds hidden): the page was drawn
        again between the finger and the server (a double tap's window ending, another player's
        action), and Flet drops such an event without a word. Nothing was done: say so, as a
        refused tap is said. A page quiet for longer than that (a stray or forged event) says
        nothing. So does a tap that came back with a reconnected device: not drawn since, the page
        it holds is the one Flet sent it whole, so the tap was aimed at what the old connection
        showed, a tap re-sent by a retrying client whose answer was lost (it acted, or was refused,
        already)."""
        if self.closed or time.monotonic() - self._drawn_at > MISSED_TAP_SECONDS or self._reconnected_at > self._drawn_at:
            return
        message = self.tr.t("ui.tap_missed")
        if self.error == message:
            return  # said already: a burst of taps draws the page once
        self.error = self._refusal_shown = message
        self._clear_refusal_later(REFUSAL_AFTER_WINDOW + DOUBLE_TAP_SECONDS)
        await self.render()

    def _clear_refusal_later(self, seconds: float) -> None:
        if self._refusal_timer is not None:
            self._refusal_timer.cancel()

        def clear() -> None:
            self._refusal_timer = None
            if self.error is not None and self.error == self._refusal_shown:
                self.error = self._refusal_shown = None
                if self.page.session.connection is not None:
                    self.page.run_task(self.render)
                else:
                    self.missed = True

        self._refusal_timer = asyncio.get_running_loop().call_later(seconds, clear)

    def _handover_opened(self, seconds: float) -> None:
        """Draw the page again as the window ends: the controls get their player's keys."""
        if self._handover_timer is not None:
            self._handover_timer.cancel()

        def ended() -> None:
            self._handover_timer = None
            if self.page.session.connection is not None:
                self.page.run_task(self.render)
            else:
                self.missed = True  # drawn when it reconnects

        self._handover_timer = asyncio.get_running_loop().call_later(seconds + 0.05, ended)

    async def _after_accepted(self) -> None:
        await self.yield_to_board()
        self._accepting = False
        await self.after_accepted()

    async def after_accepted(self) -> None:
        await self.render()
