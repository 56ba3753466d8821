"""A player's phone: only this seat's own projection, a clear "your turn", its own errors."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.engine import seat_audience
from companion.room import Room, RoomEvent
from views import games as game_uis
from views.context import GameContext
from views.i18n import Translator
from views.screen import RoomScreen
from views.standings import how_it_ended, my_place, standings_table
from views.rule_cards import rules_button, rules_page
from views.reveal import ready_panel, take_back_slot
from views.common import handler, message_layer, message_overlay, role, tagged, PEEK_KEY, PEEK_SHOWN_SECONDS, ACCENT, COLOUR_HEX, INK, MUTED, banner, centered_message, glyph, label, language_menu, peek_catcher, text_on

if TYPE_CHECKING:
    from views.session import PageSession

log = logging.getLogger(__name__)


class SeatScreen(RoomScreen):
    channel = "seat"
    priority = 1
    acts_for_others = False
    #: a phone shows neither who is connected nor which seats are taken; it does show that
    #: another device asked for its seat ("requests")
    watches = frozenset({"version", "requests"})
    #: the rule card is up: drawn instead of the game (so no secret is on the page)
    show_rules = False
    #: the other device's request whose note the player closed (its `asked` time)
    request_seen: float | None = None

    def __init__(self, session: PageSession, tr: Translator, room: Room, *, seat: int, token: str, device: str):
        super().__init__(session, tr, room)
        self.seat = seat
        self.token = token
        #: this device's secret: the seat answers it only while the seat is bound to it
        self.device = device
        self.signed_out = False
        self.online = False
        self._peek_timer: asyncio.TimerHandle | None = None
        #: whether the page last drawn said "Your turn" (the phone buzzes once when a turn starts)
        self.my_turn = False
        self._turn_announced = False
        self.haptics: ft.HapticFeedback | None = None

    def submission(self) -> tuple[str, int | None]:
        return "seat", self.seat

    async def open(self) -> None:
        self.page.on_app_lifecycle_state_change = self.on_lifecycle
        self.haptics = ft.HapticFeedback()
        if not self.answered():
            self.signed_out = True  # the seat moved on while this page was being opened
            self.page.controls.clear()
            self.page.add(self.signed_out_page())
            self.page.update()
            return
        if self.room.table.next_room:  # "Play again" happened while this phone was away
            await self.move_to_next()
            return
        await super().open()
        await self.connected(True)

    async def close(self) -> None:
        self.ui[PEEK_KEY] = False  # leaving: nothing to redraw hidden (see connected)
        self._cancel_peek_timer()
        await self.connected(False)
        await super().close()

    async def connected(self, up: bool) -> None:
        if not up and self.ui.get(PEEK_KEY) and not self.signed_out:
            # The socket dropped (screen off, tab closed, Wi-Fi lost): the phone left the page and
            # a release may never come. Hidden now, since a reconnect is sent what the session holds.
            await self.hide_private()
        if up != self.online and not self.signed_out:
            self.online = up
            self.room.set_presence(self.seat, 1 if up else -1)
        if up and self.room.table.next_room and not self.signed_out:
            await self.move_to_next()  # "Play again" happened while this phone was away
            return
        await super().connected(up)

    async def on_room_event(self, event: RoomEvent) -> None:
        if event.kind == "seats" and not self.answered():
            await self.sign_out()
            return
        if event.kind == "next":
            if self.closed or self.page.session.connection is None:
                return  # a page away or gone: it moves when it comes back (connected, open)
            self.page.run_task(self.move_to_next)
            return
        await super().on_room_event(event)

    def answered(self) -> bool:
        """The seat still answers this device: its link is current and it is bound to it."""
        return self.room.answers(self.seat, self.token, self.device)

    def signed_out_page(self) -> ft.Control:
        """Why this device lost its seat: a new link (reissued), or the board moved the seat to
        another device (a request it allowed)."""
        moved = self.room.token_valid(self.seat, self.token)
        text = self.tr.t("seat.moved_away" if moved else "table.signed_out", self.names, seat=self.seat)
        return ft.Semantics(identifier="signed-out", key="signed-out", content=centered_message(text))

    async def sign_out(self) -> None:
        """The host re-issued this seat, or moved it to another device: this one loses it at once."""
        if self.signed_out:
            return
        if self.online:
            self.online = False
            self.room.set_presence(self.seat, -1)
        self.signed_out = True
        self._cancel_peek_timer()
        await super().close()
        # The page is replaced before anything is awaited: a phone that is away reconnects to
        # whatever the session holds, and forgetting the token can wait seconds for it.
        moved = self.room.token_valid(self.seat, self.token)
        self.page.controls.clear()
        self.page.add(self.signed_out_page())
        self.page.update()
        if not moved:  # a revoked link is of no use any more (a moved seat's may ask for it back)
            await self.session.prefs.remove(f"referee.seat.{self.room.id}")

    #: seconds the cards stay open without a tap, or held without a release reaching the host
    PEEK_SECONDS = PEEK_SHOWN_SECONDS


    async def on_lifecycle(self, event: ft.AppLifecycleStateChangeEvent) -> None:
        # The phone left the page (screen off, other app, other tab): hide the secrets at once.
        if event.state not in (ft.AppLifecycleState.SHOW, ft.AppLifecycleState.RESUME) and self.ui.get(PEEK_KEY):
            await self.hide_private()

    def _cancel_peek_timer(self) -> None:
        timer = getattr(self, "_peek_timer", None)
        if timer is not None:
            timer.cancel()
        self._peek_timer = None

    async def hide_private(self) -> None:
        self.ui[PEEK_KEY] = False
        self._cancel_peek_timer()
        await self.render()

    def _peek_expired(self) -> None:
        self._peek_timer = None
        if self.ui.get(PEEK_KEY) and not self.signed_out:
            self.page.run_task(self.hide_private)

    def context(self, seat: int | None, acts_for_current: bool):
        ctx = super().context(seat, acts_for_current)
        ctx.rerender = self.rerender_after_tap
        return ctx

    async def rerender_after_tap(self) -> None:
        """A tap on this phone redraws it: the player is at the open cards (entering a card takes
        several taps), so they get their full time again."""
        self._cancel_peek_timer()
        await self.render()

    async def on_language(self, event: ft.Event) -> None:
        # this phone only: its own storage and page (the board and other phones keep theirs)
        await self.session.set_language(event.control.value)

    async def after_accepted(self) -> None:
        self.ui[PEEK_KEY] = False
        self.away_notice = False  # said once; the player has moved on
        self._cancel_peek_timer()
        await super().after_accepted()

    async def render(self) -> None:
        if self.signed_out:
            return  # the signed-out page stays; nothing of the game is drawn again
        if self.ui.get(PEEK_KEY) and self._peek_timer is None:
            # A timer, not a task: the cards close by themselves if the phone is put down open.
            self._peek_timer = asyncio.get_running_loop().call_later(self.PEEK_SECONDS, self._peek_expired)
        elif not self.ui.get(PEEK_KEY):
            self._cancel_peek_timer()  # closed by a release or a tap: the next opening gets its full time
        await super().render()
        if self.my_turn and not self._turn_announced:
            self._turn_announced = True
            self.page.run_task(self.buzz)
        elif not self.my_turn:
            self._turn_announced = False

    async def buzz(self) -> None:
        """A short vibration as this seat's turn starts. On the web, Flutter maps it to
        navigator.vibrate(50 ms) where the browser has it (Android Chrome, after the player has
        touched the page once); elsewhere it does nothing. Never holds up the page."""
        if self.haptics is None:
            return
        try:
            await asyncio.wait_for(self.haptics.vibrate(), 5)
        except Exception:  # an old client, or no answer: the big prompt is still there
            log.info("vibration not available on seat %s's phone", self.seat, exc_info=True)

    async def toggle_rules(self, _event: object = None) -> None:
        """Open or close the rule card. Opening closes the peek: back in the game, the cards are
        hidden again; the game is redrawn current, since every update kept rendering."""
        self.show_rules = not self.show_rules
        if self.show_rules:
            await self.hide_private()  # closes the peek and redraws
        else:
            await self.render()

    async def submit(self, raw: dict, *, seen: int | None = None) -> bool:
        if self.signed_out or not self.answered():
            await self.sign_out()
            return False
        return await super().submit(raw, seen=seen)

    def build(self) -> list[ft.Control]:
        tr = self.tr
        ui = game_uis.get(self.room.game_id)
        view = self.view(seat_audience(self.seat))
        ctx = self.context(seat=self.seat, acts_for_current=False)
        ctx.width = min(ctx.width - 24, 560)
        my_turn = self.seat in view.waiting_for and len(view.waiting_for) >= 1 and ui.is_my_turn(view, self.seat)
        self.my_turn = my_turn
        if self.seat in view.waiting_for:
            self.handover.acts_for(self.seat)  # a second action in a row is protected too
        if self.show_rules:
            notice = tr.t("ui.your_turn") if my_turn else None
            return rules_page(tr, self.room.game_id, self.room.setup, width=ctx.width, on_back=self.toggle_rules, notice=notice)
        summary = ui.seat_summary(ctx, view, self.seat)
        items: list[ft.Control] = [ctx.part("seat-header", summary, lambda: seat_header(ctx, self.seat, summary))]
        # its own row: a 360 px header has no room left beside a long name and the summary
        items.append(ctx.part("rules-bar", self.session.lang, self.rules_bar))
        # mounted through the game, shown on this seat's turns: a turn's start sends a flag
        items.append(ctx.part("your-turn", my_turn, lambda: your_turn(ctx, visible=my_turn)))
        if not my_turn and view.waiting_for and len(view.waiting_for) < len(self.names):  # not "everyone"
            waiting = self.waiting_text(ui, ctx, view)
            items.append(ctx.part("waiting-for", waiting, lambda: label(waiting, 18, MUTED)))
        standings = self.room.game.standings(self.room.state)
        take_back = self.room.take_back_status(self.seat) if standings is None else None
        # "Take back my move" while it may be used: at the top, by the waiting message that
        # replaced "Your turn", in view without scrolling right after the move (below a long
        # public table it sat past a phone's bottom edge). Drawn alike whatever the move was.
        # While this seat still acts (Chicago Poker's second action, a second Swiss assignment)
        # it stays below the game: at the top it would push the controls from under the finger
        # that just tapped, and a second tap would land on something else.
        on_top = take_back is not None and take_back.available and not my_turn
        if take_back is not None:
            items.append(self.take_back_row(ctx, take_back, "top", on_top))
        if standings is None:
            # "I'm ready" and what the reveal turns up: the next step of every player at once, at
            # the top (under a long public table, Chicago Poker's shootout and its button were a
            # scroll away); it stays there until the reveal, ready said or not, so nothing moves
            # under a finger that just tapped it
            ready = ready_panel(ctx, view, self.seat, ui.reveal_subject(ctx, view))
            if ready is not None:
                items.append(role("ready-panel", ready))
        # the page: what comes and goes at the top, the game, what comes and goes under it (each
        # a group: a line appearing at the top is sent alone, and never moves the game)
        top = ctx.group("seat-top", None, items, lambda items: ft.Column(items, spacing=12))
        bottom: list[ft.Control] = []
        if standings is not None:
            # The end: where this player came, and the table's standings; nothing left to peek at.
            # under it, why the game ended, as the board's log says it
            ending = how_it_ended(self.room.recent)
            body = [
                my_place(tr, standings, self.seat, width=ctx.width),
                *([tagged("game-ending", ft.Column([label(tr.ruling(r, self.names), 18, INK, ft.FontWeight.BOLD) for r in ending], spacing=4, tight=True))] if ending else []),
                standings_table(tr, self.names, self.colours, standings, width=ctx.width, size=18),
            ]
        else:
            body = [role("seat-body", ui.seat_body(ctx, view))]
            # below the game, so its coming and going never moves what the finger just tapped; a
            # greyed take-back (another action came) too: its reason is no news worth the top
            assert take_back is not None
            below = not on_top and (take_back.available or take_back.refusal not in (None, "room.err.take_back_nothing"))
            bottom.append(self.take_back_row(ctx, take_back, "bottom", below))
        page = ctx.group(
            "seat-page",
            None,
            [top, *body, ctx.group("seat-bottom", None, bottom, lambda items: ft.Column(items, spacing=12))],
            lambda items: ft.Container(
                alignment=ft.Alignment.TOP_CENTER,
                expand=True,
                content=ft.Container(width=ctx.width, content=ft.Column(items, spacing=12, scroll=ft.ScrollMode.AUTO, expand=True)),
            ),
        )
        messages = [banner(self.error, on_dismiss=handler(self.dismiss_error))] if self.error else []
        request = self.room.request(self.seat)
        if request is not None and request.asked != self.request_seen:
            # someone opened this seat's link on another device: the board decides (never silently);
            # a tap closes the note for this request (it stays open up to minutes), a new one says it again
            messages.append(banner(tr.t("seat.asked_for", self.names, seat=self.seat), ACCENT, ident="seat-asked-for", on_dismiss=handler(self.dismiss_request_note)))
        if self.away_notice:
            messages.append(banner(tr.t("ui.away_cleared"), ACCENT, ident="away-notice", on_dismiss=handler(self.dismiss_error)))
        cue = self.handover_cue(ctx)
        if cue is not None:
            messages.insert(0, cue)
        # (the catcher's handlers use only the page's `ui` and `rerender`, alike at every drawing)
        catcher = ctx.group("peek-catcher", None, [page], lambda body: peek_catcher(ctx, body[0]))
        layer = ctx.group("messages", None, messages, message_layer)
        return [ctx.group(f"{self.screen_key}:0", None, [catcher, layer], lambda layers: message_overlay(layers[0], layers[1]))]

    def layout(self) -> Any:
        return (self.show_rules, self.signed_out)

    def rules_bar(self) -> ft.Control:
        bar = [language_menu(self.tr, self.session.lang, self.on_language, ident="seat-language"), rules_button(self.tr, self.toggle_rules)]
        return ft.Row(bar, alignment=ft.MainAxisAlignment.END, wrap=True)

    def take_back_row(self, ctx: GameContext, status: Any, where: str, shown: bool) -> ft.Control:
        """"Take back my move" (or why not), at the page's top or bottom (`where`, each drawn for
        the whole game, `shown` in at most one). Its tap takes back this seat's latest action as
        of the drawing shown when the tap arrives (the one the finger saw: see submit_shown)."""
        return take_back_slot(ctx, status, where, shown, handler(self.take_back_shown))

    async def take_back_shown(self) -> bool:
        return await self.take_back(self.shown_version)

    async def dismiss_request_note(self) -> None:
        request = self.room.request(self.seat)
        self.request_seen = request.asked if request is not None else None
        await self.render()

    async def dismiss_error(self) -> None:
        self.error = None
        self.away_notice = False
        await self.render()

    async def move_to_next(self) -> None:
        """"Play again" made the next room: this phone's seat there, without a scan (the valid
        token of this seat here is what entitles it to the seat there)."""
        following = self.session.host.rooms.get(self.room.table.next_room or "")
        if following is None or self.signed_out or not self.answered():
            return
        await self.session.enter_seat(following, following.seats[self.seat].token)

    def waiting_text(self, ui, ctx, view) -> str:
        """Who the game waits for, never this phone's own player by name. A seat waited for alone
        whose turn has not started waits for something the board enters first (the game's
        `waiting_text` says what, when it has one)."""
        others = [s for s in view.waiting_for if s != self.seat]
        if self.seat not in view.waiting_for:
            return self.tr.t("ui.waiting_for", self.names, seats=others)
        said = ui.waiting_text(ctx, view, self.seat)
        if said:
            return said
        return self.tr.t("ui.waiting_for_you_and", self.names, seats=others) if others else self.tr.t("ui.turn_after_board")


def seat_header(ctx: GameContext, seat: int, summary: str) -> ft.Control:
    """The phone's top line in its player's colour: shape, name and the game's summary."""
    colour = ctx.colours[seat]
    return ft.Container(
        bgcolor=COLOUR_HEX[colour],
        border_radius=10,
        padding=10,
        # wraps instead of running off a 360 px screen when the text is enlarged
        content=ft.Row(
            [
                ft.Text(f"{glyph(colour)} {ctx.names[seat]}", size=22, weight=ft.FontWeight.BOLD, color=text_on(colour)),
                ft.Text(summary, size=20, weight=ft.FontWeight.BOLD, color=text_on(colour)),
            ],
            wrap=True,
            alignment=ft.MainAxisAlignment.SPACE_BETWEEN,
        ),
    )


def your_turn(ctx: GameContext, visible: bool = True) -> ft.Control:
    """"Your turn": the whole width, large and dark on yellow, seen at a glance across the table."""
    return ft.Semantics(
        identifier="your-turn",
        key="your-turn",
        visible=visible,
        live_region=True,
        content=ft.Container(
            bgcolor=ACCENT,
            border_radius=12,
            padding=ft.Padding.symmetric(horizontal=14, vertical=8),
            width=ctx.width,
            alignment=ft.Alignment.CENTER,
            content=ft.Text(ctx.tr.t("ui.your_turn"), size=34, weight=ft.FontWeight.BOLD, color="#111111", text_align=ft.TextAlign.CENTER),
        ),
    )
