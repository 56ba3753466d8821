"""The board: the shared tablet (host, with rights) or a read-only spectator screen.

It renders only the board projection. The host's rights are controls (seat QR codes, new links,
undo, export, entering public actions for the current player, pass-and-play), never more of
the game: the host is usually a player too.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.engine import BOARD, seat_audience
from companion.room import Rejected, Room, RoomEvent
from views import games as game_uis
from views.context import GameContext
from views.common import (
    PEEK_KEY,
    peek_catcher,
    ACCENT,
    FELT,
    INK,
    MUTED,
    PANEL,
    banner,
    big_button,
    handler,
    icon_button,
    label,
    message_layer,
    message_overlay,
    player_chip,
    qr_svg,
    role,
    tagged,
)
from views.i18n import Translator
from views.join import table_url
from views.lan import JoinHelp
from views.reveal import reveal_panel
from views.standings import bgstats_qr, draw_bgstats_qr, end_actions, room_link, standings_table
from views.screen import DOUBLE_TAP_SECONDS, RoomScreen
from views.sound import BoardSounds
from views.rule_cards import rules_button, rules_page

if TYPE_CHECKING:
    from views.session import PageSession


#: the host board's end panel ("Play again", BG Stats) goes beside the final standings from this
#: main-column width up, in a column this wide
END_BESIDE = 800
END_COLUMN = 360
#: the pass-and-play button beside a seat: its icon over its caption
PASS_BUTTON_WIDTH = 80
#: the table QR code's side on a tablet's side column, beside its title (decodes from a
#: screenshot; leaves the column's height to the seats)
TABLE_QR_BESIDE = 150


class BoardScreen(RoomScreen):
    channel = "host"
    #: what the board shows changes with the game, presence, seats and devices asking for seats
    watches = frozenset({"version", "presence", "seats", "requests"})

    def __init__(self, session: PageSession, tr: Translator, room: Room, *, is_host: bool, host_query: str):
        super().__init__(session, tr, room)
        self.is_host = is_host
        self.host_query = host_query
        self.qr_seat: int | None = None
        #: pass-and-play: the seat using the tablet now, and whether its choices are shown
        self.pass_seat: int | None = None
        self.pass_revealed = False
        self.notice: str | None = None
        #: the room's version when a "joined ✓" notice was shown (it goes at the next action)
        self._joined_notice_at: int | None = None
        self.show_log = False
        #: the rule card is up, instead of the board (live updates keep redrawing whichever is up)
        self.show_rules = False
        self.join_help = JoinHelp(session, self.render, join_url=self.table_join_url, instead=self.join_instead) if is_host else None
        #: the seat whose new link waits for the host's confirmation
        self.confirm_seat: int | None = None
        #: seats seen claimed at the last drawing (a new claim is announced, its QR code closed)
        self._claimed = {s.seat for s in room.seats if s.claimed}
        #: the BG Stats link whose QR code is being drawn
        self._drawing_qr: str | None = None
        #: when this board last undid an action (a second tap that soon is a double tap's)
        self._undone_at = float("-inf")
        #: the host board's optional sounds (off until the host taps them on)
        self.sounds = BoardSounds() if is_host else None

    def submission(self) -> tuple[str, int | None]:
        if self.pass_seat is not None and self.pass_revealed:
            return "pass", self.pass_seat
        return "host", None

    async def submit(self, raw: dict[str, Any], *, seen: int | None = None) -> bool:
        if not self.is_host:
            self.error = self.tr.t("ui.host_only")
            await self.render()
            return False
        return await super().submit(raw, seen=seen)

    async def after_accepted(self) -> None:
        self.ui.pop(PEEK_KEY, None)
        if self.pass_seat is not None:
            # Hide the player's choices as soon as they are made.
            self.pass_seat = None
            self.pass_revealed = False
        await self.render()

    def table_join_url(self) -> str | None:
        """The table QR code's address while its free-seat page offers seats, else None."""
        return table_url(self.session.config.base_url, self.room) if self.room.free_seats() else None

    def join_instead(self) -> str:
        """Join help's words when the table QR code offers no seat (a phone scanning the host's
        bare address got a read-only list: a dead end): a seat's own QR code, or its new link."""
        if any(not record.claimed for record in self.room.seats):
            return self.tr.t("lan.help.by_seat")
        return self.tr.t("lan.help.seats_taken")

    async def on_room_event(self, event: RoomEvent) -> None:
        if event.kind == "next" and self.room.table.next_room:
            # "Play again": every board of this room follows to the new one.
            self.page.navigate(f"/room/{self.room.table.next_room}{self.host_query}")
            return
        await super().on_room_event(event)

    async def render(self) -> None:
        self.phone_back()
        claimed = {s.seat for s in self.room.seats if s.claimed}
        joined = sorted(claimed - self._claimed)
        self._claimed = claimed
        if joined:
            self.notice = " ".join(self.tr.t("table.joined", self.names, seat=s) for s in joined)
            self._joined_notice_at = self.room.version
            if self.qr_seat in joined:
                self.qr_seat = None  # the seat is taken: its QR code has done its job
            if self.join_help is not None:
                self.join_help.notice = self.notice
                if self.join_help.shown and self.join_help.join_url and not self.room.free_seats():
                    self.join_help.shown = False  # the table QR code has done its job: every seat is taken
        elif self.notice is not None and self._joined_notice_at is not None and self.room.version > self._joined_notice_at:
            # "Anna joined ✓" has been read once the game moves on: it must not cover the title
            # all game (a clock would make what the board shows depend on timing)
            self.notice = self._joined_notice_at = None
            if self.join_help is not None:
                self.join_help.notice = None
        if self.is_host and self.room.over:
            link = room_link(self.room)
            if link is not None and bgstats_qr(link) is None and link != self._drawing_qr:
                self._drawing_qr = link
                self.page.run_task(self.draw_end_qr, link)
        if self.sounds is not None:
            self.sounds.observe(self.view(BOARD), self.page)
        await super().render()

    async def draw_end_qr(self, link: str) -> None:
        """The BG Stats QR code, drawn off the event loop, then shown."""
        await draw_bgstats_qr(link)
        await self.render()

    # -- building --

    def build(self) -> list[ft.Control]:
        tr = self.tr
        ui = game_uis.get(self.room.game_id)
        if self.pass_seat is not None:
            return [self.pass_and_play(ui)]
        if self.show_rules:
            width = min(float(self.page.width or 1024) - 24, 720)
            return rules_page(tr, self.room.game_id, self.room.setup, width=width, on_back=self.toggle_rules)
        view = self.view(BOARD)
        ctx = self.context(seat=None, acts_for_current=self.is_host)
        if self.is_host and len(view.waiting_for) == 1:
            self.handover.acts_for(view.waiting_for[0])
        wide = ctx.width >= 900
        # The status shares the title's line only where it gets enough room; otherwise the header
        # wraps and the status takes a line of its own (a Russian status at 900 px was squeezed
        # into a column of letters).
        one_line_header = ctx.width >= 1200
        side_width = 340 if wide else ctx.width - 24
        ctx.width = ctx.width - side_width - 36 if wide else ctx.width - 24
        # (the parts' handlers are this screen's own methods: a reused button acts as a new one)
        # a game's status is one Text: drawn, then the one shown is kept while its words are the same
        # (anything else is never taken for the one shown: the shown part holds it, so no new
        # control has its id)
        line = ui.status_line(ctx, view)
        status = ctx.part("header-status-line", line.value if isinstance(line, ft.Text) else id(line), lambda: line)
        if one_line_header:
            status = ctx.group("header-status", None, [status], lambda inside: ft.Container(inside[0], expand=True, alignment=ft.Alignment.CENTER_RIGHT))
        header = ctx.group(
            "header",
            one_line_header,
            [
                ctx.part("header-back", None, lambda: icon_button(ft.Icons.ARROW_BACK, tr.t("ui.back"), handler(self.back), colour=INK)),
                ctx.part("header-game", None, lambda: label(tr.t(f"game.{self.room.game_id}"), 26, weight=ft.FontWeight.BOLD)),
                ctx.part("header-room", None, lambda: label(self.room.id, 14, MUTED)),
                ctx.part("header-role", None, lambda: label(tr.t("ui.host_board") if self.is_host else tr.t("ui.spectator"), 14, MUTED)),
                # wide: the status takes the room left and wraps inside it (a long French or
                # Russian status would push the buttons off screen); narrow (a phone): the
                # header itself wraps (a wrapping row cannot hold an expanding control)
                status,
                ctx.part("header-rules", None, lambda: rules_button(tr, self.toggle_rules)),
                *([ctx.part("header-sound", self.sounds.on, self.sound_button)] if self.sounds is not None else []),
                *([ctx.part("header-join-help", None, lambda: self.join_help.button(tr))] if self.join_help else []),
            ],
            lambda items: ft.Row(items, wrap=not one_line_header, run_spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        )
        main: list[ft.Control] = []
        # the game's board puts the reveal where its board keeps its place (views/games)
        reveal = reveal_panel(ctx, view, ui.reveal_subject(ctx, view))
        standings = self.room.game.standings(self.room.state)
        if standings is not None:
            if self.is_host and ctx.width >= END_BESIDE:
                # on a tablet "Play again" and the BG Stats QR code stand beside the standings:
                # under them they fell below the screen's bottom edge, cut mid-sentence
                table_width = min(ctx.width - END_COLUMN - 12, 720)
                main.append(
                    ft.Row(
                        key="standings-row",
                        controls=[
                            standings_table(tr, self.names, self.colours, standings, width=table_width),
                            ft.Container(end_actions(tr, self.room, width=END_COLUMN, on_play_again=handler(self.play_again)), width=END_COLUMN),
                        ],
                        spacing=12,
                        vertical_alignment=ft.CrossAxisAlignment.START,
                    )
                )
            else:
                main.append(role("standings", standings_table(tr, self.names, self.colours, standings, width=min(ctx.width, 720))))
                if self.is_host:
                    main.append(role("end-actions", end_actions(tr, self.room, width=min(ctx.width, 720), on_play_again=handler(self.play_again))))
        main.append(role("board-body", ui.board_body(ctx, view, reveal)))
        side = self.side_panel(ctx, view, ui, side_width, fixed=wide)
        body: ft.Control
        if wide:
            column = ctx.group("main-column", None, main, lambda main: ft.Column(main, expand=True, scroll=ft.ScrollMode.AUTO))
            body = ctx.group("body", wide, [column, side], lambda items: ft.Row(items, expand=True, vertical_alignment=ft.CrossAxisAlignment.START))
        else:
            body = ctx.group("body", wide, [*main, side], lambda items: ft.Column(items, expand=True, scroll=ft.ScrollMode.AUTO))
        page = ctx.group("page", None, [header, body], lambda items: ft.Column(items, expand=True))
        # The messages float over the bottom edge, left of a tablet's side column: at the top they
        # hid the title and the status (a phone) or the board's first table (a tablet).
        right = side_width + 12 if wide else 0
        messages = ctx.group("messages", right, self.messages(ctx, requests_beside=wide), lambda shown: message_layer(shown, at_bottom=True, right=right))
        overlay = ctx.group(f"{self.screen_key}:0", None, [page, messages], lambda layers: message_overlay(layers[0], layers[1]))
        controls: list[ft.Control] = [overlay]
        if self.confirm_seat is not None:
            controls = [ft.Stack([ft.Column(controls, expand=True), self.confirm_overlay()], expand=True)]
        elif self.qr_seat is not None:
            controls = [ft.Stack([ft.Column(controls, expand=True), self.qr_overlay(ctx)], expand=True)]
        elif self.join_help and self.join_help.shown:
            controls = [self.join_help.over(tr, ft.Column(controls, expand=True))]
        return controls

    def layout(self) -> Any:
        return (
            self.pass_seat,
            self.pass_revealed,
            self.show_rules,
            self.confirm_seat is not None,
            self.qr_seat is not None,
            bool(self.join_help and self.join_help.shown),
        )

    def messages(self, ctx: GameContext, *, requests_beside: bool = False) -> list[ft.Control]:
        """This board's own error and notice, floating over the page's bottom edge (see
        message_overlay). A device's request for a seat floats with them unless `requests_beside`:
        a tablet's side column holds it, over the seats (floating, it hid the tables at the
        bottom of the board for as long as it waited)."""
        out: list[ft.Control] = []
        cue = self.handover_cue(ctx)
        if cue is not None:
            out.append(cue)
        if self.error:
            out.append(banner(self.error, on_dismiss=handler(self.dismiss_messages)))
        if self.notice:
            out.append(banner(self.notice, ACCENT, ident="notice", on_dismiss=handler(self.dismiss_messages)))
        if self.away_notice:
            out.append(banner(self.tr.t("ui.away_cleared"), ACCENT, ident="away-notice", on_dismiss=handler(self.dismiss_messages)))
        if self.is_host and not requests_beside:
            out.extend(self.seat_requests())
        return out

    def seat_requests(self) -> list[ft.Control]:
        return [self.seat_request(seat) for seat in sorted(self.room.requests) if self.room.request(seat) is not None]

    def seat_request(self, seat: int) -> ft.Control:
        """Another device asks for a seat: the host board allows or refuses (Room.answer_request)."""
        tr = self.tr
        return ft.Semantics(
            identifier=f"seat-request-{seat}",
            key=f"seat-request-{seat}",
            live_region=True,
            content=ft.Container(
                bgcolor=PANEL,
                border=ft.Border.all(3, ACCENT),
                border_radius=12,
                padding=12,
                content=ft.Column(
                    [
                        ft.Row([player_chip(tr, self.names, self.colours, seat, 18), label(tr.t("seat.request_on_board", self.names, seat=seat), 20, INK, ft.FontWeight.BOLD)], wrap=True),
                        label(tr.t("seat.request_hint"), 15, MUTED),
                        ft.Row(
                            [
                                big_button(tr.t("seat.allow"), handler(self.answer_request, seat, True), ident=f"seat-request-allow-{seat}", key=f"seat-request-allow-{seat}"),
                                big_button(tr.t("seat.refuse"), handler(self.answer_request, seat, False), ident=f"seat-request-refuse-{seat}", colour="#B0BEC5", key=f"seat-request-refuse-{seat}"),
                            ],
                            wrap=True,
                        ),
                    ],
                    spacing=8,
                    tight=True,
                ),
            ),
        )

    async def answer_request(self, seat: int, allow: bool) -> None:
        if not self.is_host:
            return
        try:
            await self.room.answer_request(seat, allow)
        except Rejected as rejection:  # answered on another board, or lapsed meanwhile
            self.error = self.tr.error(rejection.code, rejection.params, self.names)
        await self.render()

    def undo_refusal(self) -> str:
        """Why Undo is greyed out."""
        assert self.room.history is not None
        if self.room.history.outcomes and self.room.history.outcomes[-1].reveals:
            return self.tr.t("ui.undo_after_reveal")
        return self.tr.t("ui.undo_none")

    async def dismiss_messages(self) -> None:
        self.error = self.notice = None
        self.away_notice = False
        await self.render()

    def side_panel(self, ctx: GameContext, view: Any, ui: Any, width: float, *, fixed: bool = False) -> ft.Control:
        """The seats, the table QR code, Undo and Export, the latest rulings. `fixed`: a column
        as tall as the screen (a tablet), whose first screen holds what the table does first:
        the table QR code, whole, and Undo and Export stay at its top; the seats and the rulings
        scroll under them (with six or seven seats listed the QR code was cut off and Undo fell
        below the fold)."""
        tr = self.tr
        top: list[ft.Control] = []
        join_url = self.table_join_url() if self.is_host else None
        if join_url is not None:
            # one QR code for the table: each phone picks a free seat (views/join.py)
            size = TABLE_QR_BESIDE if fixed else min(width - 24, 240)
            top.append(ctx.part("table-join", (join_url, size, fixed), lambda: self.table_join(join_url, size, beside=fixed)))
        if self.is_host:
            undo_left = self.room.undoable()
            export_url = self.session.http_url(f"/export/{self.room.id}.json{self.host_query}")
            top.append(ctx.part("undo-export", (undo_left == 0, export_url), lambda: self.undo_and_export(undo_left == 0, export_url)))
            if undo_left == 0:
                why = self.undo_refusal()
                top.append(ctx.part("undo-why", why, lambda: tagged("undo-why", label(why, 14, MUTED))))
            if fixed:
                top.extend(self.seat_requests())
        rest: list[ft.Control] = [ctx.part("seats-title", None, lambda: label(tr.t("ui.seats"), 18, ACCENT, ft.FontWeight.BOLD))]
        for seat in range(len(self.names)):
            rest.append(self.seat_row(ctx, view, ui, seat))
        rest.append(ctx.part("rulings-title", None, lambda: label(tr.t("ui.last_rulings"), 18, ACCENT, ft.FontWeight.BOLD)))
        rulings = [ctx.part(key, ruling, lambda ruling=ruling: label(tr.ruling(ruling, self.names), 15, INK)) for key, ruling in reversed(self.recent_rulings()[-12:])]
        # a group of their own: the newest on top moves the others, which draws their list anew,
        # not the panel with the seats
        rest.append(ctx.group("rulings", None, rulings, lambda rulings: ft.Column(rulings, spacing=8)))
        # the seats and rulings scroll on their own under the QR code and Undo (a tablet); on a
        # narrow screen the page itself scrolls
        below = ctx.group("side-scroll", fixed, rest, lambda rest: ft.Column(rest, spacing=8, expand=fixed, scroll=ft.ScrollMode.AUTO if fixed else None))
        return ctx.group(
            "side-panel",
            (width, fixed),
            [*top, below],
            lambda items: ft.Container(width=width, bgcolor=PANEL, border_radius=12, padding=12, content=ft.Column(items, spacing=8)),
        )

    def table_join(self, join_url: str, size: float, *, beside: bool = False) -> ft.Control:
        tr = self.tr
        qr = tagged("table-qr", ft.Image(src=qr_svg(join_url), width=size, height=size, semantics_label=tr.t("table.join_title")))
        if beside:
            # the QR code beside its title and hint: the seats keep the column's height
            words = ft.Column([label(tr.t("table.join_title"), 16, ACCENT, ft.FontWeight.BOLD), label(tr.t("table.join_hint"), 13, MUTED)], spacing=6, tight=True, expand=True)
            return ft.Row([qr, words], spacing=10, vertical_alignment=ft.CrossAxisAlignment.START)
        return ft.Column(
            [
                label(tr.t("table.join_title"), 16, ACCENT, ft.FontWeight.BOLD),
                qr,
                label(tr.t("table.join_hint"), 13, MUTED),
            ],
            spacing=8,
            tight=True,
        )

    def undo_and_export(self, nothing_to_undo: bool, export_url: str) -> ft.Control:
        tr = self.tr
        return ft.Row(
            [
                big_button(tr.t("ui.undo"), handler(self.undo), ident="undo", colour="#B0BEC5", disabled=nothing_to_undo),
                ft.Button(
                    content=label(tr.t("ui.export"), 16, "#111111"),
                    url=export_url,
                    bgcolor="#B0BEC5",
                    height=56,
                ),
            ],
            wrap=True,
        )

    def recent_rulings(self) -> list[tuple[str, Any]]:
        """The room's latest rulings, each with a key naming it for as long as it is listed
        (its action's number and its place among that action's rulings)."""
        out: list[tuple[str, Any]] = []
        place: dict[int, int] = {}
        for seq, ruling in self.room.recent:
            place[seq] = place.get(seq, -1) + 1
            out.append((f"ruling-{seq}-{place[seq]}", ruling))
        return out

    def seat_row(self, ctx: GameContext, view: Any, ui: Any, seat: int) -> ft.Control:
        record = self.room.seats[seat]
        props = (
            record.claimed,
            self.room.connected(seat),
            ui.seat_summary(ctx, view, seat),
            seat in view.waiting_for and len(view.waiting_for) == 1,
            self.room.over,
            self.is_host,
            self.room.playable_here(seat),
        )
        return ctx.part(f"seat-row-{seat}", props, lambda: self.draw_seat_row(ctx, seat, *props))

    def draw_seat_row(self, ctx: GameContext, seat: int, claimed: bool, online: bool, summary: str, waiting: bool, over: bool, is_host: bool, playable: bool) -> ft.Control:
        tr = self.tr
        # Name and score on the first line; presence and the host's icons on the second, so the
        # icons never drop onto a line of their own in a longer language. Each line is a part:
        # a turn passing on redraws neither.
        who = ctx.part(f"seat-who-{seat}", summary, lambda: ft.Row([player_chip(tr, self.names, self.colours, seat), label(summary, 16, INK, ft.FontWeight.BOLD)], wrap=True))
        line = ctx.part(f"seat-line-{seat}", (claimed, online, over, is_host, playable), lambda: self.seat_line(seat, claimed, online, over, is_host, playable))
        tap = handler(self.tap_seat, seat) if is_host and not over else None
        return ft.Semantics(
            identifier=f"seat-{seat}",
            key=f"seat-{seat}",
            button=tap is not None,
            content=ft.Container(
                on_click=tap,
                border=ft.Border.all(3, ACCENT) if waiting else None,
                border_radius=10,
                padding=6,
                content=ft.Column([who, line], spacing=2, tight=True),
            ),
        )

    def seat_line(self, seat: int, claimed: bool, online: bool, over: bool, is_host: bool, playable: bool) -> ft.Control:
        """A seat's presence, whether it is taken, and the host's icons for it."""
        tr = self.tr
        presence = label(
            ("● " + tr.t("ui.connected")) if online else ("○ " + tr.t("ui.away")),
            14,
            "#A5D6A7" if online else MUTED,
        )
        # "tap to show the QR code" only where a tap does show it: the host board
        free = tr.t("ui.seat_free") if is_host else tr.t("table.seat_free")
        # once the game is over no one takes a seat: no "tap to show the QR code", no "Play here"
        # a seat's phone away: how it comes back, not "joined ✓" under "away"
        joined = tr.t("table.seat_joined") if online or over else tr.t("table.seat_phone_away")
        status = label(joined if claimed else ("" if over else free), 13, MUTED, visible=claimed or not over)
        presence_and_status = ft.Container(ft.Column([presence, status], spacing=0, tight=True), expand=True)
        actions: list[ft.Control] = []
        if is_host:
            actions.append(
                ft.Semantics(
                    identifier=f"reissue-{seat}",
                    key=f"reissue-{seat}",
                    button=True,
                    content=icon_button(ft.Icons.LINK, tr.t("ui.reissue", self.names, seat=seat), handler(self.ask_reissue, seat)),
                )
            )
            # "Play here": a seat without a phone, or one whose phone has been away a while
            if playable and not over:
                actions.append(
                    ft.Semantics(
                        identifier=f"pass-{seat}",
                        key=f"pass-{seat}",
                        button=True,
                        # the tablet icon captioned in words ("Play here"), not a bare ▭, narrow
                        # enough to leave the seat's status its width; a screen reader hears
                        # whom for ("Play for Anna on this tablet")
                        content=ft.Container(
                            on_click=handler(self.start_pass, seat),
                            width=PASS_BUTTON_WIDTH,
                            padding=ft.Padding.symmetric(vertical=4),
                            border_radius=8,
                            ink=True,
                            content=ft.Column(
                                [
                                    ft.Icon(ft.Icons.TABLET_ANDROID, color=ACCENT, size=24),
                                    ft.Text(tr.t("ui.pass_button"), size=12, color=ACCENT, text_align=ft.TextAlign.CENTER, semantics_label=tr.t("ui.pass_and_play", self.names, seat=seat)),
                                ],
                                spacing=0,
                                tight=True,
                                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                            ),
                        ),
                    )
                )
        return ft.Row([presence_and_status, *actions], vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def qr_overlay(self, ctx: GameContext) -> ft.Control:
        tr = self.tr
        seat = self.qr_seat
        assert seat is not None
        record = self.room.seats[seat]
        if record.claimed:
            # good news, not an error: the seat is in use (a lost phone gets a new link instead)
            content: list[ft.Control] = [
                tagged(f"seat-joined-{seat}", label(tr.t("table.joined", self.names, seat=seat), 26, INK, ft.FontWeight.BOLD)),
                label(tr.t("table.joined_hint"), 16, MUTED, text_align=ft.TextAlign.CENTER),
            ]
        else:
            url = f"{self.session.config.base_url}/join/{self.room.id}/{record.token}"
            size = min(ctx.height - 220, 420)
            content = [
                label(tr.t("ui.scan_to_join", self.names, seat=seat), 26, INK, ft.FontWeight.BOLD),
                ft.Semantics(
                    identifier=f"seat-qr-{seat}",
                    key=f"seat-qr-{seat}",
                    content=ft.Image(src=qr_svg(url), width=size, height=size, semantics_label=tr.t("ui.scan_to_join", self.names, seat=seat)),
                ),
                # the QR code only: a link printed as text could be read or photographed from
                # across the room and opened on another device
            ]
        content.append(big_button(tr.t("ui.close"), handler(self.close_qr), ident="close-qr"))
        return ft.Container(
            expand=True,
            bgcolor="#E6000000",
            alignment=ft.Alignment.CENTER,
            content=ft.Container(
                bgcolor=FELT,
                padding=24,
                border_radius=16,
                content=ft.Column(content, horizontal_alignment=ft.CrossAxisAlignment.CENTER, tight=True, spacing=12),
            ),
        )

    def confirm_overlay(self) -> ft.Control:
        """Re-issuing a seat's link signs its phone out: asked first."""
        tr = self.tr
        seat = self.confirm_seat
        assert seat is not None
        return ft.Container(
            expand=True,
            bgcolor="#E6000000",
            alignment=ft.Alignment.CENTER,
            content=tagged(
                "confirm-reissue",
                ft.Container(
                    bgcolor=FELT,
                    padding=24,
                    border_radius=16,
                    width=min(float(self.page.width or 1024) - 24, 560),
                    content=ft.Column(
                        [
                            label(tr.t("table.confirm_reissue_title", self.names, seat=seat), 24, INK, ft.FontWeight.BOLD),
                            label(tr.t("table.confirm_reissue_body", self.names, seat=seat), 16, MUTED),
                            ft.Row(
                                [
                                    big_button(tr.t("table.confirm_reissue_yes"), handler(self.reissue, seat), ident="confirm-reissue-yes"),
                                    big_button(tr.t("table.cancel"), handler(self.ask_reissue, None), ident="confirm-reissue-no", colour="#B0BEC5"),
                                ],
                                wrap=True,
                            ),
                        ],
                        tight=True,
                        spacing=14,
                    ),
                ),
            ),
        )

    def pass_and_play(self, ui: Any) -> ft.Control:
        """The tablet handed to a player without a phone: a privacy screen, then their choices."""
        tr = self.tr
        seat = self.pass_seat
        assert seat is not None
        if not self.pass_revealed:
            return ft.Container(
                expand=True,
                bgcolor="#000000",
                alignment=ft.Alignment.CENTER,
                content=ft.Column(
                    [
                        label(tr.t("ui.privacy_title", self.names, seat=seat), 32, INK, ft.FontWeight.BOLD),
                        big_button(tr.t("ui.privacy_ready", self.names, seat=seat), handler(self.reveal_pass), ident="privacy-ready"),
                        ft.TextButton(tr.t("ui.close"), on_click=handler(self.end_pass)),
                    ],
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    tight=True,
                    spacing=24,
                ),
            )
        view = self.view(seat_audience(seat))
        ctx = self.context(seat=seat, acts_for_current=False)
        ctx.width = min(ctx.width, 520)
        # whose choices these are, above them: the tablet has gone round the table
        whose = ft.Semantics(
            identifier="pass-whose",
            key="pass-whose",
            content=ft.Row(
                [ft.Icon(ft.Icons.TABLET_ANDROID, color=ACCENT), player_chip(tr, self.names, self.colours, seat, 18), label(tr.t("ui.pass_whose", self.names, seat=seat), 18, ACCENT, ft.FontWeight.BOLD)],
                wrap=True,
                spacing=8,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        )
        # "Done" beside whose choices these are: under a long seat body it fell below the screen
        done = big_button(tr.t("ui.privacy_done"), handler(self.end_pass), ident="privacy-done", colour="#B0BEC5")
        body: list[ft.Control] = [ft.Row([whose, done], wrap=True, alignment=ft.MainAxisAlignment.SPACE_BETWEEN), ui.seat_body(ctx, view)]
        page = ft.Container(
            expand=True,
            alignment=ft.Alignment.TOP_CENTER,
            content=ft.Container(width=ctx.width, content=ft.Column(body, scroll=ft.ScrollMode.AUTO, spacing=12)),
        )
        # as on a phone: a finger slid off the pad and lifted off every choice hides the cards
        return message_overlay(peek_catcher(ctx, page), message_layer(self.messages(ctx)))

    # -- host events --

    def sound_button(self) -> ft.Control:
        on = self.sounds is not None and self.sounds.on
        name = self.tr.t("ui.sounds_are_on" if on else "ui.sounds_are_off")
        return ft.Semantics(identifier="sound", key="sound", content=icon_button(ft.Icons.VOLUME_UP if on else ft.Icons.VOLUME_OFF, name, handler(self.toggle_sound), colour=ACCENT if on else MUTED))

    async def toggle_sound(self) -> None:
        """The host's tap: it is also what lets the browser play sound at all."""
        assert self.sounds is not None
        self.sounds.toggle()
        await self.render()

    async def toggle_rules(self, _event: object = None) -> None:
        self.show_rules = not self.show_rules
        await self.render()

    async def back(self) -> None:
        self.page.navigate(f"/{self.host_query}")

    async def tap_seat(self, seat: int) -> None:
        self.qr_seat = seat
        await self.render()

    async def close_qr(self) -> None:
        self.qr_seat = None
        await self.render()

    async def ask_reissue(self, seat: int | None) -> None:
        """Ask the host to confirm a seat's new link (None: the question is withdrawn)."""
        self.confirm_seat = seat
        await self.render()

    async def play_again(self) -> None:
        if not self.is_host:
            return
        try:
            following = await self.session.host.play_again(self.room)
        except Rejected as rejection:
            self.error = self.tr.error(rejection.code, rejection.params, self.names)
            await self.render()
            return
        self.page.navigate(f"/room/{following.id}{self.host_query}")

    async def reissue(self, seat: int) -> None:
        self.confirm_seat = None
        if not self.is_host:
            return
        await self.room.reissue(seat)
        self._claimed.discard(seat)
        self.notice = self.tr.t("ui.reissued", self.names, seat=seat)
        self.qr_seat = seat
        await self.render()

    async def undo(self) -> None:
        """Undo the action the host saw as the last one. A second tap of a double tap (the page may
        already show the undo's result under the finger) is answered, never applied again."""
        if not self.is_host:
            return
        async with self._tap_lock:
            if time.monotonic() - self._undone_at < DOUBLE_TAP_SECONDS:
                self.error = self.tr.t("ui.undo_tapped_twice")
            else:
                try:
                    await self.room.undo(1, based_on_version=self.shown_version)
                    self.error = None
                    self._undone_at = time.monotonic()
                except Rejected as rejection:
                    self.error = self.tr.error(rejection.code, rejection.params, self.names)
        await self.render()

    async def start_pass(self, seat: int) -> None:
        if not self.is_host or not self.room.playable_here(seat):
            return
        self.pass_seat = seat
        self.pass_revealed = False
        self.error = None
        if not self.room.seats[seat].claimed:
            await self.room.mark_pass_and_play(seat)  # the table QR code's page stops offering it
        await self.render()

    def phone_back(self) -> None:
        """A seat played here whose phone comes back: the phone takes over, the tablet is the
        board again (its privacy screen closes)."""
        seat = self.pass_seat
        if seat is not None and self.room.seats[seat].claimed and self.room.connected(seat):
            self.ui.pop(PEEK_KEY, None)
            self.pass_seat = None
            self.pass_revealed = False
            self.notice = self.tr.t("ui.phone_back", self.names, seat=seat)

    def presence_now(self) -> tuple[bool, ...]:
        # what the seat rows show of presence: connected, and "Play here" once away a while
        return (*super().presence_now(), *(self.room.playable_here(seat) for seat in range(len(self.room.seats))))

    async def reveal_pass(self) -> None:
        self.pass_revealed = True
        await self.render()

    async def end_pass(self) -> None:
        self.ui.pop(PEEK_KEY, None)
        self.pass_seat = None
        self.pass_revealed = False
        self.error = None
        await self.render()
