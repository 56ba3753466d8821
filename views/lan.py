"""Join help: the host's overlay for getting phones onto the game over the home network.

It shows the join address as large text and as a QR code, an interface picker when the host has
several addresses (the choice holds for the whole host process: later QR codes and seat links use
it), the address and QR code of the connectivity check page (`/check`), and the usual causes
when phones cannot reach the host. Opened from the host board and the host's rooms page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.network import JoinAddresses, causes, port_of
from views.common import ACCENT, FELT, INK, MUTED, banner, big_button, handler, label, qr_svg, tagged
from views.i18n import Translator

if TYPE_CHECKING:
    from views.session import PageSession

PANEL_ID = "join-help-panel"
BUTTON_ID = "join-help"


def join_help_button(tr: Translator, on_click: Callable[[Any], Awaitable[None]]) -> ft.Control:
    """The small button that opens the panel (a 48 px touch target)."""
    return tagged(
        BUTTON_ID,
        ft.TextButton(
            content=ft.Row([ft.Icon(ft.Icons.WIFI, color=ACCENT), label(tr.t("lan.help.button"), 15, ACCENT)], tight=True),
            on_click=on_click,
            height=48,
        ),
    )


def join_help_panel(
    tr: Translator,
    join: JoinAddresses,
    *,
    width: float,
    height: float,
    on_choose: Callable[[Any], Awaitable[None]],
    on_close: Callable[[Any], Awaitable[None]],
    join_url: str | None = None,
    no_join: str | None = None,
    notice: str | None = None,
) -> ft.Control:
    """The overlay itself, drawn over the page (put it in a Stack above the page's controls).
    `join_url`: the room's table QR code (views/join.py), the only code a phone joins by.
    Without one, `no_join` says what to do instead: the host's bare address led a phone to the
    read-only spectator list, a dead end. The panel fits the screen: its Close button stays in
    view, the rest scrolls above it."""
    base = join.current
    check_url = f"{base}/check"
    narrow = width < 700
    qr_size = max(140, min(280, (width - 120) / (1 if narrow else 2), height - 420))
    items: list[ft.Control] = [
        *([banner(notice, ACCENT, ident="join-notice")] if notice else []),
        label(tr.t("lan.help.title"), 26, INK, ft.FontWeight.BOLD),
        label(tr.t("lan.help.join_at"), 16, MUTED),
        tagged("join-address", label(base, 30 if not narrow else 22, ACCENT, ft.FontWeight.BOLD)),
    ]
    options = join.options()
    if len(options) > 1:
        items.append(label(tr.t("lan.help.interface_hint"), 15, MUTED))
        items.append(
            tagged(
                "join-interface",
                ft.Dropdown(
                    label=tr.t("lan.help.interface"),
                    value=base,
                    options=[ft.DropdownOption(key=choice.url, text=choice.title()) for choice in options],
                    on_select=on_choose,
                    width=min(420, width - 80),
                ),
            )
        )
    if join_url:
        join_block = ft.Column(
            [
                label(tr.t("table.join_title"), 18, INK, ft.FontWeight.BOLD),
                tagged("join-qr", ft.Image(src=qr_svg(join_url), width=qr_size, height=qr_size, semantics_label=tr.t("table.join_title"))),
            ],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            tight=True,
        )
    else:
        join_block = ft.Container(width=qr_size + 80, content=tagged("join-none", label(no_join or "", 18, INK, ft.FontWeight.BOLD)))
    check_block = ft.Column(
        [
            label(tr.t("lan.help.check_title"), 18, INK, ft.FontWeight.BOLD),
            label(tr.t("lan.help.check_body"), 15, MUTED, width=qr_size + 80),
            tagged("check-qr", ft.Image(src=qr_svg(check_url), width=qr_size * 0.7, height=qr_size * 0.7, semantics_label=tr.t("lan.help.check_title"))),
            tagged("check-address", label(check_url, 16, INK)),
        ],
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        tight=True,
    )
    items.append(ft.Row([join_block, check_block], wrap=True, spacing=24, alignment=ft.MainAxisAlignment.CENTER))
    items.append(label(tr.t("lan.help.causes_title"), 18, ACCENT, ft.FontWeight.BOLD))
    items.append(
        tagged(
            "join-causes",
            ft.Column([label("• " + cause, 15, INK) for cause in causes(tr, port_of(base))], spacing=6, tight=True),
        )
    )
    close = big_button(tr.t("ui.close"), on_close, ident="close-join-help")
    return ft.Container(
        expand=True,
        bgcolor="#E6000000",
        alignment=ft.Alignment.TOP_CENTER,
        padding=8,
        content=tagged(
            PANEL_ID,
            ft.Container(
                bgcolor=FELT,
                padding=ft.Padding.symmetric(horizontal=20, vertical=12),
                border_radius=16,
                width=min(width - 16, 820),
                # as tall as the screen at most: the words scroll, Close stays at the bottom
                height=max(200, height - 16),
                content=ft.Column(
                    [
                        ft.Column(items, spacing=12, scroll=ft.ScrollMode.AUTO, horizontal_alignment=ft.CrossAxisAlignment.CENTER, expand=True),
                        close,
                    ],
                    spacing=8,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                ),
            ),
        ),
    )


class JoinHelp:
    """Join help on one host screen (the board, the rooms page): whether the panel is open, the
    button that opens it, and the panel drawn over the screen. Only a host screen makes one: the
    panel's address picker changes what every QR code names."""

    def __init__(
        self,
        session: PageSession,
        render: Callable[[], Awaitable[None]],
        join_url: Callable[[], str | None] | None = None,
        instead: Callable[[], str] | None = None,
    ):
        self.session = session
        self.render = render
        self.shown = False
        #: the QR code to join by: a room's table QR code while it has a free seat (None: every
        #: seat is taken); no function: the rooms page, where a phone joins through a room
        self.join_url = join_url
        #: what to do when there is no table QR code to join by (a room's words), else the
        #: rooms page's "open a room"
        self.instead = instead
        #: the latest claim ("Anna joined ✓"), shown in the panel while it is open
        self.notice: str | None = None

    def button(self, tr: Translator) -> ft.Control:
        return join_help_button(tr, handler(self.show, True))

    def over(self, tr: Translator, screen: ft.Control) -> ft.Control:
        """`screen` with the panel drawn above it."""
        page = self.session.page
        panel = join_help_panel(
            tr,
            self.session.config.join,
            width=float(page.width or 1024),
            height=float(page.height or 768),
            on_choose=self.choose,
            on_close=handler(self.show, False),
            join_url=self.join_url() if self.join_url else None,
            no_join=self.instead() if self.instead else tr.t("lan.help.open_room"),
            notice=self.notice,
        )
        return ft.Stack([screen, panel], expand=True)

    async def show(self, shown: bool) -> None:
        self.shown = shown
        await self.render()

    async def choose(self, event: Any) -> None:
        # The choice holds for the whole host process: seat QR codes drawn later use it.
        self.session.config.join.choose(event.control.value)
        await self.render()
