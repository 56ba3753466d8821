"""Shared pieces of every page: theme, colours with shapes, QR images, small widgets."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft
import qrcode
from qrcode.image.pil import PilImage

from companion.i18n import Translator
from companion.players import COLOUR_SHAPES

FONT = "DejaVu"
FONTS = {FONT: "fonts/DejaVuSans.ttf", f"{FONT} Bold": "fonts/DejaVuSans-Bold.ttf"}

#: Player colours on screen (readable on the dark table background), paired with a shape glyph.
COLOUR_HEX = {
    "red": "#E53935",
    "blue": "#1E88E5",
    "green": "#43A047",
    "yellow": "#FDD835",
    "purple": "#8E24AA",
    "orange": "#FB8C00",
    "black": "#424242",
    "white": "#F5F5F5",
}
SHAPE_GLYPH = {
    "circle": "●",
    "square": "■",
    "triangle": "▲",
    "diamond": "◆",
    "star": "★",
    "hexagon": "⬢",
    "cross": "✚",
    "ring": "○",
}
FELT = "#0B3D2E"
FELT_LIGHT = "#145A43"
PANEL = "#10261F"
INK = "#F1F8E9"
MUTED = "#A5C9B8"
ACCENT = "#FFD54F"
DANGER = "#FF8A80"


def text_on(colour: str) -> str:
    return "#111111" if colour in ("yellow", "white", "orange") else "#FFFFFF"


def glyph(colour: str) -> str:
    return SHAPE_GLYPH[COLOUR_SHAPES[colour]]


def setup_page(page: ft.Page, title: str) -> None:
    page.title = title
    page.fonts = FONTS
    page.theme = ft.Theme(font_family=FONT, color_scheme_seed=FELT_LIGHT)
    page.theme_mode = ft.ThemeMode.DARK
    page.bgcolor = FELT
    page.padding = 12


def qr_png(data: str, box_size: int = 8) -> bytes:
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, box_size=box_size, border=3)
    qr.add_data(data)
    qr.make(fit=True)
    image = qr.make_image(image_factory=PilImage, fill_color="black", back_color="white")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def handler(fn: Callable[..., Awaitable[Any]], *args: Any) -> Callable[[Any], Awaitable[None]]:
    """An async event handler calling `fn(*args)` (Flet runs it on the loop without blocking)."""

    async def on_event(_event: Any) -> None:
        await fn(*args)

    return on_event


def role(key: str, control: ft.Control) -> ft.Control:
    """Name a control's place in its list, so a redraw matches it to its predecessor even when
    items before it come and go (unkeyed items are matched by position: a shift would resend the
    whole subtree with new ids)."""
    if control.key is None:
        control.key = key
    return control


def tagged(identifier: str, control: ft.Control) -> ft.Control:
    """A control findable by tests and screen readers (`flt-semantics-identifier`), keyed so it
    keeps its id across redraws."""
    return ft.Semantics(identifier=identifier, key=identifier, content=control)


def label(value: str, size: int = 16, colour: str = INK, weight: ft.FontWeight | None = None, **kw: Any) -> ft.Text:
    return ft.Text(value, size=size, color=colour, weight=weight, **kw)


def big_button(
    text: str,
    on_click: Callable[[Any], Awaitable[None]] | None,
    *,
    ident: str | None = None,
    colour: str = ACCENT,
    text_colour: str = "#111111",
    width: float | None = None,
    disabled: bool = False,
) -> ft.Control:
    """A touch target of at least 56 px, labelled for screen readers and tests."""
    button = ft.Button(
        content=ft.Text(text, size=18, weight=ft.FontWeight.BOLD, color=text_colour),
        on_click=on_click,
        bgcolor=colour,
        height=56,
        width=width,
        disabled=disabled,
    )
    if ident:
        return ft.Semantics(identifier=ident, key=ident, content=button, button=True)
    return button


def player_chip(tr: Translator, names: list[str], colours: list[str], seat: int, size: int = 16) -> ft.Control:
    colour = colours[seat]
    return ft.Container(
        content=ft.Text(f"{glyph(colour)} {names[seat]}", size=size, color=text_on(colour), weight=ft.FontWeight.BOLD),
        bgcolor=COLOUR_HEX[colour],
        border_radius=8,
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


def banner(message: str, colour: str = DANGER, ident: str = "banner") -> ft.Control:
    return ft.Semantics(
        identifier=ident,
        key=ident,
        live_region=True,
        content=ft.Container(
            content=ft.Text(message, size=18, color="#111111", weight=ft.FontWeight.BOLD),
            bgcolor=colour,
            border_radius=8,
            padding=12,
        ),
    )


def centered_message(title: str, body: str = "") -> ft.Control:
    return ft.Container(
        alignment=ft.Alignment.CENTER,
        expand=True,
        content=ft.Column(
            [label(title, 26, weight=ft.FontWeight.BOLD, text_align=ft.TextAlign.CENTER), label(body, 18, MUTED)],
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            tight=True,
        ),
    )


PEEK_KEY = "privacy.peek"


def private_section(ctx: Any, build: Callable[[], ft.Control]) -> ft.Control:
    """A seat's secrets, shown only after a tap on "Show my cards" and hidden again after the next
    action, after a short while, or when the phone leaves the page (see SeatScreen). While hidden,
    the secret is not built at all, so the page's text carries none of it."""
    if ctx.ui.get(PEEK_KEY):
        return ft.Column(
            [
                build(),
                big_button(ctx.tr.t("ui.hide_private"), handler(_set_peek, ctx, False), ident="hide-private", colour="#B0BEC5"),
            ],
            spacing=10,
            key="private-open",
        )
    return ft.Semantics(
        identifier="show-private",
        key="show-private",
        button=True,
        content=ft.Container(
            on_click=handler(_set_peek, ctx, True),
            bgcolor="#263238",
            border=ft.Border.all(2, MUTED),
            border_radius=12,
            padding=18,
            content=ft.Text("🂠  " + ctx.tr.t("ui.show_private"), size=20, color=INK, weight=ft.FontWeight.BOLD),
        ),
    )


async def _set_peek(ctx: Any, shown: bool) -> None:
    ctx.ui[PEEK_KEY] = shown
    await ctx.rerender()


def show_screen(page: ft.Page, controls: list[ft.Control], screen: str) -> None:
    """Put a freshly built tree on the page and send the difference.

    Each top-level control carries a key naming the screen and its position. Flet 1.0 then
    reconciles the rebuilt tree with the one on the page (same key, same type, same place): the
    controls keep their ids, so only what changed is sent, and a tap already on its way to a
    button that is still there is not lost. A different screen (other keys) replaces everything.
    """
    for position, control in enumerate(controls):
        control.key = f"{screen}:{position}"
    page.controls[:] = controls
    page.update()
