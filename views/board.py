"""The board: the shared tablet (host, with rights) or a read-only spectator screen.

It renders only the board projection. The host's rights are controls (seat QR codes, new links,
undo, export, entering public actions for the current player, pass-and-play), never more of
the game: the host is usually a player too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.engine import BOARD, seat_audience
from companion.i18n import Translator
from companion.room import Rejected, Room
from views import games as game_uis
from views.common import (
    PEEK_KEY,
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
    player_chip,
    qr_svg,
)
from views.lan import JoinHelp
from views.screen import RoomScreen
from views.rule_cards import rules_button, rules_page

if TYPE_CHECKING:
    from views.app import PageSession


class BoardScreen(RoomScreen):
    channel = "host"

    def __init__(self, session: PageSession, tr: Translator, room: Room, *, is_host: bool, host_query: str):
        super().__init__(session, tr, room)
        self.is_host = is_host
        self.host_query = host_query
        self.qr_seat: int | None = None
        #: pass-and-play: the seat using the tablet now, and whether its choices are shown
        self.pass_seat: int | None = None
        self.pass_revealed = False
        self.notice: str | None = None
        self.show_log = False
        #: the rule card is up, instead of the board (live updates keep redrawing whichever is up)
        self.show_rules = False
        self.join_help = JoinHelp(session, self.render) if is_host else None

    def submission(self) -> tuple[str, int | None]:
        if self.pass_seat is not None and self.pass_revealed:
            return "pass", self.pass_seat
        return "host", None

    async def submit(self, raw: dict[str, Any]) -> bool:
        if not self.is_host:
            self.error = self.tr.t("ui.host_only")
            await self.render()
            return False
        return await super().submit(raw)

    async def after_accepted(self) -> None:
        self.ui.pop(PEEK_KEY, None)
        if self.pass_seat is not None:
            # Hide the player's choices as soon as they are made.
            self.pass_seat = None
            self.pass_revealed = False
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
        wide = ctx.width >= 900
        # The status shares the title's line only where it gets enough room; otherwise the header
        # wraps and the status takes a line of its own (a Russian status at 900 px was squeezed
        # into a column of letters).
        one_line_header = ctx.width >= 1200
        side_width = 340 if wide else ctx.width - 24
        ctx.width = ctx.width - side_width - 36 if wide else ctx.width - 24
        header = ft.Row(
            [
                icon_button(ft.Icons.ARROW_BACK, tr.t("ui.back"), handler(self.back), colour=INK),
                label(tr.t(f"game.{self.room.game_id}"), 26, weight=ft.FontWeight.BOLD),
                label(self.room.id, 14, MUTED),
                label(tr.t("ui.host_board") if self.is_host else tr.t("ui.spectator"), 14, MUTED),
                # wide: the status takes the room left and wraps inside it (a long French or
                # Russian status would push the buttons off screen); narrow (a phone): the
                # header itself wraps (a wrapping row cannot hold an expanding control)
                ft.Container(ui.status_line(ctx, view), expand=True, alignment=ft.Alignment.CENTER_RIGHT) if one_line_header else ui.status_line(ctx, view),
                rules_button(tr, self.toggle_rules),
                *([self.join_help.button(tr)] if self.join_help else []),
            ],
            wrap=not one_line_header,
            run_spacing=4,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        main: list[ft.Control] = []
        if self.error:
            main.append(banner(self.error))
        if self.notice:
            main.append(banner(self.notice, ACCENT, ident="notice"))
        main.append(ui.board_body(ctx, view))
        side = self.side_panel(ctx, view, ui, side_width)
        body: ft.Control
        if wide:
            body = ft.Row(
                [ft.Column(main, expand=True, scroll=ft.ScrollMode.AUTO), side],
                expand=True,
                vertical_alignment=ft.CrossAxisAlignment.START,
            )
        else:
            body = ft.Column([*main, side], expand=True, scroll=ft.ScrollMode.AUTO)
        controls: list[ft.Control] = [header, body]
        if self.qr_seat is not None:
            controls = [ft.Stack([ft.Column(controls, expand=True), self.qr_overlay(ctx)], expand=True)]
        elif self.join_help and self.join_help.shown:
            controls = [self.join_help.over(tr, ft.Column(controls, expand=True))]
        return controls

    def side_panel(self, ctx: Any, view: Any, ui: Any, width: float) -> ft.Control:
        tr = self.tr
        items: list[ft.Control] = [label(tr.t("ui.seats"), 18, ACCENT, ft.FontWeight.BOLD)]
        for seat in range(len(self.names)):
            items.append(self.seat_row(ctx, view, ui, seat))
        if self.is_host:
            undo_left = self.room.undoable()
            items.append(
                ft.Row(
                    [
                        big_button(tr.t("ui.undo"), handler(self.undo), ident="undo", colour="#B0BEC5", disabled=undo_left == 0),
                        ft.Button(
                            content=label(tr.t("ui.export"), 16, "#111111"),
                            url=f"/export/{self.room.id}.json{self.host_query}",
                            bgcolor="#B0BEC5",
                            height=56,
                        ),
                    ],
                    wrap=True,
                )
            )
        items.append(label(tr.t("ui.last_rulings"), 18, ACCENT, ft.FontWeight.BOLD))
        for ruling in reversed(self.room.recent_rulings()[-12:]):
            items.append(label(tr.ruling(ruling, self.names), 15, INK))
        return ft.Container(
            width=width,
            bgcolor=PANEL,
            border_radius=12,
            padding=12,
            content=ft.Column(items, spacing=8, scroll=ft.ScrollMode.AUTO),
        )

    def seat_row(self, ctx: Any, view: Any, ui: Any, seat: int) -> ft.Control:
        tr = self.tr
        record = self.room.seats[seat]
        online = self.room.connected(seat)
        presence = label(
            ("● " + tr.t("ui.connected")) if online else ("○ " + tr.t("ui.away")),
            14,
            "#A5D6A7" if online else MUTED,
        )
        status = label(tr.t("ui.seat_claimed") if record.claimed else tr.t("ui.seat_free"), 13, MUTED)
        who = ft.Row([player_chip(tr, self.names, self.colours, seat), label(ui.seat_summary(ctx, view, seat), 16, INK, ft.FontWeight.BOLD)], wrap=True)
        presence_and_status = ft.Container(ft.Column([presence, status], spacing=0, tight=True), expand=True)
        waiting = seat in view.waiting_for and len(view.waiting_for) == 1
        tap = handler(self.tap_seat, seat) if self.is_host else None
        actions: list[ft.Control] = []
        if self.is_host:
            actions.append(
                ft.Semantics(
                    identifier=f"reissue-{seat}",
                    key=f"reissue-{seat}",
                    button=True,
                    content=icon_button(ft.Icons.LINK, tr.t("ui.reissue", self.names, seat=seat), handler(self.reissue, seat)),
                )
            )
            if not record.claimed:
                actions.append(
                    ft.Semantics(
                        identifier=f"pass-{seat}",
                        key=f"pass-{seat}",
                        button=True,
                        content=icon_button(ft.Icons.TABLET, tr.t("ui.pass_and_play", self.names, seat=seat), handler(self.start_pass, seat)),
                    )
                )
        return ft.Semantics(
            identifier=f"seat-{seat}",
            key=f"seat-{seat}",
            button=self.is_host,
            content=ft.Container(
                on_click=tap,
                border=ft.Border.all(3, ACCENT) if waiting else None,
                border_radius=10,
                padding=6,
                # Name and score on the first line; presence and the host's icons on the second,
                # so the icons never drop onto a line of their own in a longer language.
                content=ft.Column(
                    [who, ft.Row([presence_and_status, *actions], vertical_alignment=ft.CrossAxisAlignment.CENTER)],
                    spacing=2,
                    tight=True,
                ),
            ),
        )

    def qr_overlay(self, ctx: Any) -> ft.Control:
        tr = self.tr
        seat = self.qr_seat
        assert seat is not None
        record = self.room.seats[seat]
        if record.claimed:
            content: list[ft.Control] = [label(tr.t("ui.seat_taken", self.names, seat=seat), 22, INK, text_align=ft.TextAlign.CENTER)]
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
                # plain text: a selectable one reaches the accessibility tree as an empty text
                # field of the text's height (nameless, and too small a target)
                label(url, 14, MUTED),
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
        body: list[ft.Control] = []
        if self.error:
            body.append(banner(self.error))
        body.append(ui.seat_body(ctx, view))
        body.append(big_button(tr.t("ui.privacy_done"), handler(self.end_pass), ident="privacy-done", colour="#B0BEC5"))
        return ft.Container(
            expand=True,
            alignment=ft.Alignment.TOP_CENTER,
            content=ft.Container(width=ctx.width, content=ft.Column(body, scroll=ft.ScrollMode.AUTO, spacing=12)),
        )

    # -- host events --

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

    async def reissue(self, seat: int) -> None:
        if not self.is_host:
            return
        await self.room.reissue(seat)
        self.notice = self.tr.t("ui.reissued", self.names, seat=seat)
        self.qr_seat = seat
        await self.render()

    async def undo(self) -> None:
        if not self.is_host:
            return
        try:
            await self.room.undo(1)
            self.error = None
        except Rejected as rejection:
            self.error = self.tr.error(rejection.code, rejection.params, self.names)
        await self.render()

    async def start_pass(self, seat: int) -> None:
        if not self.is_host or self.room.seats[seat].claimed:
            return
        self.pass_seat = seat
        self.pass_revealed = False
        self.error = None
        await self.render()

    async def reveal_pass(self) -> None:
        self.pass_revealed = True
        await self.render()

    async def end_pass(self) -> None:
        self.ui.pop(PEEK_KEY, None)
        self.pass_seat = None
        self.pass_revealed = False
        self.error = None
        await self.render()
