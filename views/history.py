"""Game history (host only): the finished games, and a finished game replayed step by step.

  /history?k=          finished games, latest first: date, game, players, winner(s), actions
  /history/<id>?k=     one game, action by action: the rulings of that action as the board showed
                       them, and the public board after it (the game's own board_body, drawn from
                       the replayed state's BOARD projection)

A finished game has no secret left, but the pages stay the host's: an imported game belongs to
the host's archive, not to the table. Imports themselves go through the plain HTTP page /import
(main.py), so a file upload needs nothing from the Flet client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.engine import BOARD
from companion.history import (
    GameSummary,
    ReplayStep,
    finished_games,
    format_when,
    replay_steps,
)
from companion.room import Room
from views import games as game_uis
from views.common import (
    ACCENT,
    INK,
    MUTED,
    PANEL,
    PlainScreen,
    big_button,
    handler,
    icon_button,
    label,
    player_chip,
    tagged,
)
from views.i18n import Translator
from views.screen import GameContext, refresh_page

if TYPE_CHECKING:
    from views.session import PageSession

BUTTON_GREY = "#B0BEC5"
#: a step button with nowhere to go: visibly off, not just inert
DISABLED_GREY = "#546E7A"


def link_button(text: str, url: str, ident: str, *, same_tab: bool = False) -> ft.Control:
    """A 56 px button that opens a plain HTTP page of the host (a download, the import form)."""
    target = ft.Url(url, target=ft.UrlTarget.SELF) if same_tab else url
    return tagged(ident, ft.Button(content=label(text, 16, "#111111"), url=target, bgcolor=BUTTON_GREY, height=56))


class HistoryScreen(PlainScreen):
    """The list of finished games."""

    screen_key = "history"

    def __init__(self, session: PageSession, tr: Translator, *, host_query: str):
        self.session = session
        self.page = session.page
        self.tr = tr
        self.host_query = host_query

    async def open(self) -> None:
        # A new import (or a new room) on any tab redraws the list.
        self._unsubscribe = self.session.host.subscribe(self.on_host_changed)
        await self.render()

    async def on_host_changed(self) -> None:
        await refresh_page(self.page, self.render)

    def build(self) -> list[ft.Control]:
        tr = self.tr
        header = ft.Row(
            [
                icon_button(ft.Icons.ARROW_BACK, tr.t("ui.back"), handler(self.back), colour=INK),
                label(tr.t("history.title"), 28, weight=ft.FontWeight.BOLD),
                ft.Container(expand=True),
                link_button(tr.t("history.import"), self.session.http_url(f"/import{self.host_query}&lang={tr.lang}"), "history-import", same_tab=True),
            ],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        rows: list[ft.Control] = [header]
        summaries = finished_games(self.session.host)
        if not summaries:
            rows.append(tagged("history-empty", label(tr.t("history.none"), 18, MUTED)))
        rows.extend(self.row(s) for s in summaries)
        return [ft.Column(rows, scroll=ft.ScrollMode.AUTO, expand=True, spacing=12)]

    def row(self, summary: GameSummary) -> ft.Control:
        tr = self.tr
        names = summary.players
        title: list[ft.Control] = [label(tr.t(f"game.{summary.game}"), 20, weight=ft.FontWeight.BOLD)]
        if summary.imported:
            title.append(label(tr.t("history.imported"), 14, ACCENT))
        title.append(label(tr.t("history.ended", when=format_when(tr, summary.finished)), 15, MUTED))
        counts = [tr.t("history.actions", n=summary.actions)]
        if summary.rounds is not None:
            counts.insert(0, tr.t("history.rounds", n=summary.rounds))
        details = ft.Column(
            [
                ft.Row(title, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                ft.Row([player_chip(tr, names, summary.colours, s, 14) for s in range(len(names))], wrap=True),
                label(tr.t("history.winners", names, seats=summary.winners), 17, INK, ft.FontWeight.BOLD),
                label(" · ".join(counts), 14, MUTED),
            ],
            spacing=4,
            expand=True,
        )
        buttons: list[ft.Control] = [big_button(tr.t("history.replay"), handler(self.open_replay, summary.room_id), ident=f"replay-{summary.room_id}")]
        if not summary.imported:
            buttons.append(big_button(tr.t("history.board"), handler(self.open_board, summary.room_id), ident=f"board-{summary.room_id}", colour=BUTTON_GREY))
        buttons.append(
            link_button(tr.t("history.export"), f"/export/{summary.room_id}.json{self.host_query}&complete=1", f"export-{summary.room_id}")
        )
        return tagged(
            f"finished-{summary.room_id}",
            ft.Container(
                bgcolor=PANEL,
                border_radius=10,
                padding=12,
                # (no wrap here: a wrapping row cannot hold the expanding details)
                content=ft.Row([details, ft.Row(buttons, wrap=True, width=min(460.0, float(self.page.width or 1024) / 2))], vertical_alignment=ft.CrossAxisAlignment.CENTER),
            ),
        )

    async def back(self) -> None:
        self.page.navigate(f"/{self.host_query}")

    async def open_replay(self, room_id: str) -> None:
        self.page.navigate(f"/history/{room_id}{self.host_query}")

    async def open_board(self, room_id: str) -> None:
        self.page.navigate(f"/room/{room_id}{self.host_query}")


class ReplayScreen(PlainScreen):
    """One finished game, one action at a time. Nothing here can change the game."""

    def __init__(self, session: PageSession, tr: Translator, room: Room, *, host_query: str):
        self.session = session
        self.page = session.page
        self.tr = tr
        self.room = room
        self.host_query = host_query
        self.steps: list[ReplayStep] = replay_steps(room)
        #: start at the end: the game as it finished, then step back through it
        self.index = len(self.steps) - 1
        #: the game UI module's per-device view state (e.g. which payout step is open)
        self.ui: dict[str, Any] = {}

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    @property
    def screen_key(self) -> str:
        return f"replay:{self.room.id}"

    def context(self) -> GameContext:
        return GameContext(
            tr=self.tr,
            names=self.room.names,
            colours=[p.colour for p in self.room.setup.players],
            width=float(self.page.width or 1024),
            height=float(self.page.height or 768),
            seat=None,
            acts_for_current=False,
            submit=self.refuse,
            ui=self.ui,
            rerender=self.render,
            data_dir=self.session.config.data_dir,
        )

    async def refuse(self, _raw: dict[str, Any]) -> bool:
        return False  # a replay never acts (no board_body offers it a button: acts_for_current is off)

    def board_view(self) -> Any:
        """The public board after the current step (what the table saw then)."""
        return self.room.game.project(self.steps[self.index].state, BOARD)

    def build(self) -> list[ft.Control]:
        tr = self.tr
        ui = game_uis.get(self.room.game_id)
        step = self.steps[self.index]
        view = self.board_view()
        ctx = self.context()
        wide = ctx.width >= 900
        side_width = 360 if wide else ctx.width - 24
        ctx.width = ctx.width - side_width - 36 if wide else ctx.width - 24
        title: list[ft.Control] = [
            icon_button(ft.Icons.ARROW_BACK, tr.t("history.back"), handler(self.back), colour=INK),
            label(tr.t(f"game.{self.room.game_id}"), 26, weight=ft.FontWeight.BOLD),
        ]
        if self.room.archived:
            title.append(label(tr.t("history.imported"), 14, ACCENT))
        title.extend([ft.Container(expand=True), ui.status_line(ctx, view)])
        header = ft.Row(title, vertical_alignment=ft.CrossAxisAlignment.CENTER)
        side = ft.Container(
            width=side_width,
            bgcolor=PANEL,
            border_radius=12,
            padding=12,
            content=ft.Column([*self.navigation(), *self.step_rulings(step)], spacing=10, scroll=ft.ScrollMode.AUTO),
        )
        board = tagged("replay-board", ui.board_body(ctx, view, None))
        body: ft.Control
        if wide:
            body = ft.Row(
                [ft.Column([board], expand=True, scroll=ft.ScrollMode.AUTO), side],
                expand=True,
                vertical_alignment=ft.CrossAxisAlignment.START,
            )
        else:
            body = ft.Column([side, board], expand=True, scroll=ft.ScrollMode.AUTO)
        return [header, body]

    def navigation(self) -> list[ft.Control]:
        tr = self.tr
        at_start, at_end = self.index == 0, self.index == self.last

        def colour(base: str, disabled: bool) -> str:
            return DISABLED_GREY if disabled else base

        position = tr.t("history.start") if at_start else tr.t("history.step", n=self.index, total=self.last)
        return [
            tagged("replay-position", label(position, 20, ACCENT, ft.FontWeight.BOLD)),
            ft.Row(
                [
                    big_button("◀◀ " + tr.t("history.first"), handler(self.go, 0), ident="replay-first", colour=colour(BUTTON_GREY, at_start), disabled=at_start),
                    big_button("◀ " + tr.t("ui.previous"), handler(self.go, self.index - 1), ident="replay-previous", colour=colour(BUTTON_GREY, at_start), disabled=at_start),
                ],
                wrap=True,
            ),
            ft.Row(
                [
                    big_button(tr.t("ui.next") + " ▶", handler(self.go, self.index + 1), ident="replay-next", colour=colour(ACCENT, at_end), disabled=at_end),
                    big_button(tr.t("history.last") + " ▶▶", handler(self.go, self.last), ident="replay-last", colour=colour(ACCENT, at_end), disabled=at_end),
                ],
                wrap=True,
            ),
        ]

    def step_rulings(self, step: ReplayStep) -> list[ft.Control]:
        tr = self.tr
        names = self.room.names
        lines: list[ft.Control] = []
        if step.undone_before:
            lines.append(label(tr.t("history.undone_between", n=step.undone_before), 14, MUTED))
        if step.by is not None:
            lines.append(label(tr.t("history.acted", names, seat=step.by), 17, MUTED))
        texts = [tr.ruling(r, names) for r in step.rulings]
        if not texts and step.by is not None:
            texts = [tr.t("history.no_rulings")]
        lines.extend(label(text, 18, INK) for text in texts)
        return [tagged("replay-rulings", ft.Column(lines, spacing=6))]

    async def go(self, index: int) -> None:
        self.index = max(0, min(self.last, index))
        await self.render()

    async def back(self) -> None:
        self.page.navigate(f"/history{self.host_query}")
