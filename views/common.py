"""Shared pieces of every page: theme, colours with shapes, QR images, small widgets."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft
import qrcode
from qrcode.image.svg import SvgPathFillImage

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


def qr_svg(data: str) -> bytes:
    """A QR code as SVG (one path, white background; units are modules).

    Not PNG: on a page that is not a secure context (the board opened at a LAN address, as on a
    real table) Flutter web paints no raster image at all, neither bytes nor a URL; vector
    paths always paint (checked in tests/test_lan_browser.py)."""
    image = qrcode.make(data, image_factory=SvgPathFillImage, error_correction=qrcode.constants.ERROR_CORRECT_M, border=3)
    buffer = io.BytesIO()
    image.save(buffer)
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


def tagged(identifier: str, control: ft.Control, name: str | None = None) -> ft.Control:
    """A control findable by tests and screen readers (`flt-semantics-identifier`), keyed so it
    keeps its id across redraws. `name`: what a screen reader calls it, for a control Flutter
    leaves nameless (a Dropdown: neither its label nor its value reaches the accessibility tree)."""
    return ft.Semantics(identifier=identifier, key=identifier, label=name, content=control)


def choice_name(tr: Translator, field: str, options: list[ft.DropdownOption], value: Any) -> str:
    """What a screen reader should hear for a drop-down: "Field: chosen option" (see `tagged`)."""
    chosen = next((o.text for o in options if o.key == value), None)
    return tr.t("ui.choice", field=field, value=chosen) if chosen else field


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


def touch_target() -> ft.BoxConstraints:
    """For an IconButton: at least 48 x 48 px (Material draws them 40 px)."""
    return ft.BoxConstraints(min_width=48, min_height=48)


def icon_button(icon: Any, name: str, on_click: Callable[[Any], Awaitable[None]] | None, *, colour: str | None = None, **kw: Any) -> ft.IconButton:
    """An IconButton of at least 48 x 48 px that a screen reader can name. Flutter web puts a
    tooltip's text on a node around the button and leaves the button itself nameless; an icon's
    semantics label is merged into the button."""
    return ft.IconButton(
        ft.Icon(icon, color=colour, semantics_label=name),
        on_click=on_click,
        tooltip=name,
        size_constraints=touch_target(),
        **kw,
    )


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
#: PEEK_KEY's values: absent or False = hidden; PEEK_HELD = only while a finger is on the hold
#: pad; PEEK_SHOWN = opened with a tap (the one-handed and screen-reader way; it closes after the
#: next action, after a short while, or when the phone leaves the page: see SeatScreen).
PEEK_HELD = "held"
PEEK_SHOWN = "shown"
#: seconds the cards stay open after a tap (or a hold whose release never arrived)
PEEK_SHOWN_SECONDS = 20
#: the hold pad's padding above and below its text: about 90 px tall, a thumb finds it blind
HOLD_PAD_PADDING = 32


def private_section(ctx: Any, build: Callable[[], ft.Control]) -> ft.Control:
    """A seat's secrets, built only while the player holds the "Hold to see your cards" pad (or
    after a tap on "Show my cards", the accessible alternative). While hidden, the secret is not
    built at all, so neither the page's text nor what the server sends carries any of it.

    The pad stays first, with the same key in every state: Flet then keeps its control id across
    the redraws a press causes, and the release reaches the control the finger is on."""
    state = ctx.ui.get(PEEK_KEY)
    items: list[ft.Control] = [hold_pad(ctx, held=state == PEEK_HELD)]
    if state == PEEK_SHOWN:
        items.append(big_button(ctx.tr.t("ui.hide_private"), handler(_set_peek, ctx, False), ident="hide-private", colour="#B0BEC5"))
    elif not state:
        items.append(
            ft.Semantics(
                identifier="show-private",
                key="show-private",
                button=True,
                content=ft.Container(
                    on_click=handler(_set_peek, ctx, PEEK_SHOWN),
                    bgcolor="#263238",
                    border=ft.Border.all(2, MUTED),
                    border_radius=12,
                    padding=ft.Padding.symmetric(horizontal=16, vertical=16),  # >= 48 px
                    content=ft.Text(ctx.tr.t("ui.show_private_timed", n=PEEK_SHOWN_SECONDS), size=17, color=INK),
                ),
            )
        )
    if state:
        content = build()
        content.key = "private-content"
        items.append(content)
    return ft.Column(items, spacing=10, key="private", horizontal_alignment=ft.CrossAxisAlignment.STRETCH)


def hold_pad(ctx: Any, *, held: bool) -> ft.Control:
    """Press and hold to see the cards; every way a press ends (release, the finger sliding away,
    a cancelled touch) hides them. Only tap down/up/cancel are listened to: a long-press or pan
    recogniser would win the gesture after a moment and end the hold early."""
    release = handler(_release_hold, ctx)
    return ft.Semantics(
        identifier="hold-private",
        key="hold-private",
        content=ft.GestureDetector(
            on_tap_down=handler(_set_peek, ctx, PEEK_HELD),
            on_tap_up=release,
            on_tap_cancel=release,
            # No fixed height: enlarged text makes the pad taller instead of being cut off.
            content=ft.Container(
                alignment=ft.Alignment.CENTER,
                bgcolor="#37474F" if held else "#263238",
                border=ft.Border.all(3, ACCENT if held else MUTED),
                border_radius=16,
                padding=ft.Padding.symmetric(horizontal=14, vertical=HOLD_PAD_PADDING),
                content=ft.Text(
                    ("☝  " + ctx.tr.t("ui.peek_release")) if held else ("🂠  " + ctx.tr.t("ui.peek_hold")),
                    size=20,
                    color=INK,
                    weight=ft.FontWeight.BOLD,
                    text_align=ft.TextAlign.CENTER,
                ),
            ),
        ),
    )


async def _set_peek(ctx: Any, state: str | bool) -> None:
    ctx.ui[PEEK_KEY] = state
    await ctx.rerender()


async def _release_hold(ctx: Any) -> None:
    # Any end of a press hides, also when the cards had been opened with a tap before it.
    if ctx.ui.get(PEEK_KEY):
        ctx.ui[PEEK_KEY] = False
        await ctx.rerender()


def show_screen(page: ft.Page, controls: list[ft.Control], screen: str) -> None:
    """Put a freshly built tree on the page and send the difference.

    Each top-level control carries a key naming the screen and its position. Flet 1.0 then
    reconciles the rebuilt tree with the one on the page (same key, same type, same place): the
    controls keep their ids, so only what changed is sent, and a tap already on its way to a
    button that is still there is not lost. A different screen (other keys) replaces everything.

    (A pass handing Flet the shown controls wherever the rebuilt ones were equal cut CPU per
    action ~92 -> ~73 ms in-process; it was 130 lines of matching Flet's internals with no test
    of its own, for a target already met without it, so it is not here: see git history.)
    """
    for position, control in enumerate(controls):
        control.key = f"{screen}:{position}"
    page.controls[:] = controls
    page.update()
