"""Shared pieces of every page: theme, colours with shapes, QR images, small widgets."""

from __future__ import annotations

import dataclasses
import functools
import io
import weakref
from collections.abc import Awaitable, Callable
from types import FunctionType, MethodType
from typing import Any

import flet as ft
from flet.controls.base_control import BaseControl
from flet.controls.keys import Key
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


#: Swap unchanged parts of a redrawn page for the shown ones (`_Unchanged`). Off: in the full
#: suite on CI, Corruption's deal form then lost picked and typed text (tests/test_corruption_browser.py,
#: "no deal: banner [...], fields {...}"), not reproduced alone; on again once that is understood.
KEEP_UNCHANGED = False


def show_screen(page: ft.Page, controls: list[ft.Control], screen: str) -> None:
    """Put a freshly built tree on the page and send the difference.

    Each top-level control carries a key naming the screen and its position. Flet 1.0 then
    reconciles the rebuilt tree with the one on the page (same key, same type, same place): the
    controls keep their ids, so only what changed is sent, and a tap already on its way to a
    button that is still there is not lost. A different screen (other keys) replaces everything.

    Before that, every part of the new tree equal to its place in the shown one is swapped for
    the shown part itself (see `_Unchanged`): Flet skips a subtree it already has without looking
    inside, and most of a page is unchanged from one action to the next (measured: 75-78 % of
    the controls of the board and of a phone, Vabanque; see benchmarks/README.md).
    """
    for position, control in enumerate(controls):
        control.key = f"{screen}:{position}"
    shown = {c.key: c for c in page.controls}
    unchanged = _Unchanged()
    for control in controls:
        old = shown.get(control.key)
        if KEEP_UNCHANGED and old is not None and old is not control and type(old) is type(control):
            unchanged.keep(old, control, top=True)
    page.controls[:] = controls
    page.update()
    # Flet lists a kept control among the removed ones when its old parent goes (the parent's
    # list snapshot still holds it) and drops it from the session index, through which events
    # reach controls: put it back (will_unmount, also called, does nothing for these controls).
    # Its descendants go too (Flet lists a removed control's whole subtree), so the whole kept
    # subtree is put back: else a text field inside it stops receiving what is typed.
    index = page.session.index
    for control in unchanged.kept:
        for part in _subtree(control):
            if index.get(part._i) is not part:
                index[part._i] = part


def _subtree(root: BaseControl) -> list[BaseControl]:
    """`root` and every control under it (through fields holding controls or lists of them)."""
    found: list[BaseControl] = []
    stack = [root]
    while stack:
        control = stack.pop()
        found.append(control)
        for field in dataclasses.fields(control):
            if field.name == "_parent":
                continue
            value = getattr(control, field.name, None)
            if isinstance(value, BaseControl):
                stack.append(value)
            elif isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, BaseControl))
    return found


_MISSING = object()
#: structural (non-Prop) fields `_Unchanged` does not match as children: the type name, the id
#: (each build has new ones) and `_internals` (derived from the properties when Flet prepares a
#: control for sending, e.g. a Button's style from its colours: filled in on the shown one only)
_OWN_FIELDS = frozenset({"_c", "_i", "_internals"})


class _Unchanged:
    """Finds the parts of a freshly built tree equal to the tree on the page.

    Equal means: same control types, same properties, same children matched the way Flet 1.0
    matches them (by key, else by position among the unkeyed), and event handlers that would do
    the same (the same function over equal captured values). An equal child of a changed control
    is replaced by its shown counterpart, re-parented to the new control; an equal control as a
    whole is left for its parent to swap. Never the top-level control itself: it is keyed by the
    screen, and Flet compares the page's own list by identity."""

    def __init__(self) -> None:
        self._values: dict[tuple[int, int], bool] = {}
        #: shown controls that stay on the page in the new tree
        self.kept: list[Any] = []

    def keep(self, old: Any, new: Any, top: bool = False) -> bool:
        """Whether `new` draws and behaves as `old`; swaps in `old`'s equal children if not
        (or if `top`)."""
        if getattr(new, "_c", None) == "C" or new.is_isolated():
            return False  # components and isolated controls: Flet's own rules
        equal = old.data is new.data or self.same(old.data, new.data)
        swaps: list[tuple[Any, Any, Any]] = []  # (container, index or field, shown child)
        old_values, new_values = old._values, new._values
        if old_values.keys() != new_values.keys():
            equal = False
        for name, value in new_values.items():
            before = old_values.get(name, _MISSING)
            if not self._field(before, value, new_values, name, swaps):
                equal = False
        for name in type(new)._structural_fields:
            before, value = getattr(old, name, None), getattr(new, name, None)
            if name in _OWN_FIELDS:
                if name == "_c" and before != value:
                    equal = False
            elif not self._field(before, value, None, name, swaps):
                equal = False
        if equal and not top:
            self.kept.append(old)
            return True
        for container, where, child in swaps:
            if container is None:
                setattr(new, where, child)  # a structural field holding one control
            else:
                container[where] = child
            child._parent = weakref.ref(new)
        return False

    def _field(self, before: Any, value: Any, container: Any, name: str, swaps: list[tuple[Any, Any, Any]]) -> bool:
        if isinstance(value, BaseControl):
            if not isinstance(before, BaseControl) or type(before) is not type(value) or _control_key(before) != _control_key(value):
                return False
            if self.keep(before, value):
                swaps.append((container, name, before))
                return True
            return False
        if isinstance(value, list) and value and all(isinstance(v, BaseControl) for v in value):
            return self._list(before, value, swaps)
        return before is not _MISSING and self.same(before, value)

    def _list(self, before: Any, items: list[Any], swaps: list[tuple[Any, Any, Any]]) -> bool:
        if not isinstance(before, list) or not all(isinstance(v, BaseControl) for v in before):
            return False
        old_keys, new_keys = _list_keys(before), _list_keys(items)
        if len(set(old_keys)) != len(old_keys) or len(set(new_keys)) != len(new_keys):
            return False
        common = set(old_keys) & set(new_keys)
        if [k for k in old_keys if k in common] != [k for k in new_keys if k in common]:
            return False  # reordered: Flet moves items; leave it to Flet
        equal = old_keys == new_keys
        shown = dict(zip(old_keys, before))
        for index, (key, item) in enumerate(zip(new_keys, items)):
            old = shown.get(key)
            if old is None or type(old) is not type(item):
                equal = False
            elif self.keep(old, item):
                swaps.append((items, index, old))
            else:
                equal = False
        return equal

    def same(self, a: Any, b: Any) -> bool:
        """Values (properties, captured by handlers): equal, or the same handler."""
        if a is b:
            return True
        if callable(a) or callable(b):
            return self._same_handler(a, b)
        memo = (id(a), id(b))
        if memo not in self._values:
            try:
                self._values[memo] = bool(a == b)
            except Exception:  # noqa: BLE001 - incomparable: treated as changed
                self._values[memo] = False
        return self._values[memo]

    def _same_handler(self, a: Any, b: Any) -> bool:
        if isinstance(a, MethodType) and isinstance(b, MethodType):
            return a.__func__ is b.__func__ and a.__self__ is b.__self__
        if isinstance(a, functools.partial) and isinstance(b, functools.partial):
            return self.same(a.func, b.func) and self.same(a.args, b.args) and self.same(a.keywords, b.keywords)
        if not (isinstance(a, FunctionType) and isinstance(b, FunctionType)):
            return False
        if a.__code__ is not b.__code__ or not self.same(a.__defaults__, b.__defaults__) or not self.same(a.__kwdefaults__, b.__kwdefaults__):
            return False
        cells_a, cells_b = a.__closure__ or (), b.__closure__ or ()
        if len(cells_a) != len(cells_b):
            return False
        for x, y in zip(cells_a, cells_b):
            try:
                if not self.same(x.cell_contents, y.cell_contents):
                    return False
            except ValueError:  # an empty cell
                return False
        return True


def _control_key(control: Any) -> Any:
    key = control._values.get("key")
    return key.value if isinstance(key, Key) else key


def _list_keys(items: list[Any]) -> list[tuple[str, Any]]:
    """Flet 1.0's matching of a frozen list: by explicit key, else by position among the unkeyed."""
    keys: list[tuple[str, Any]] = []
    unkeyed = 0
    for item in items:
        key = _control_key(item)
        if key is None:
            keys.append(("pos", unkeyed))
            unkeyed += 1
        else:
            keys.append(("k", key))
    return keys
