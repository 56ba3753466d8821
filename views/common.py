"""Shared pieces of every page: theme, colours with shapes, QR images, small widgets."""

from __future__ import annotations

import asyncio
import functools
import io
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import flet as ft
import qrcode
from qrcode.image.svg import SvgPathFillImage

from views.context import GameContext
from views.i18n import Translator
from views.text_metrics import text_width
from companion.players import COLOUR_SHAPES

if TYPE_CHECKING:
    from pydantic import BaseModel

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


@functools.cache
def border_all(width: float, colour: str) -> ft.Border:
    """The border of `width` in `colour` on every side: one object per pair, shared by every
    control drawing it. A Border is a value no drawing changes once built, and each one is two
    objects carrying Flet's diff snapshots (a Règlement table drew 148 of them per phone)."""
    return ft.Border.all(width, colour)


def text_on(colour: str) -> str:
    return "#111111" if colour in ("yellow", "white", "orange") else "#FFFFFF"


def glyph(colour: str) -> str:
    return SHAPE_GLYPH[COLOUR_SHAPES[colour]]


def setup_page(page: ft.Page, title: str) -> None:
    page.title = title
    # The web client has the font before its first frame, from its FontManifest.json (views/
    # flet_patches/fonts.py, 7); set here too, it would be fetched and swapped in under a drawn page.
    if not page.web:
        page.fonts = FONTS
    page.theme = ft.Theme(font_family=FONT, color_scheme_seed=FELT_LIGHT)
    page.theme_mode = ft.ThemeMode.DARK
    page.bgcolor = FELT
    page.padding = 12


@functools.lru_cache(maxsize=64)  # redrawn pages ask again for the same link (bytes: immutable)
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


#: a disabled button's fill and text: dim on the felt, whatever the button's own colour
DISABLED_FILL = "#33433E"
DISABLED_TEXT = "#8A9A95"


#: above and below a big button's text: one line of 18 px DejaVu (26 px) makes it 56 px high
BUTTON_TEXT_PADDING = 15


def big_button(
    text: str,
    on_click: Callable[[Any], Awaitable[None]] | None,
    *,
    ident: str | None = None,
    colour: str = ACCENT,
    text_colour: str = "#111111",
    width: float | None = None,
    disabled: bool = False,
    key: str | None = None,
    selected: bool | None = None,
) -> ft.Control:
    """A touch target of at least 56 px, labelled for screen readers and tests. `key`: when it
    is not `ident` (a control acting for a player is keyed by that player: GameContext.act_key).
    `selected`: one of a choice's options, told to screen readers as chosen or not (its colour
    shows it to the eye)."""
    # disabled: drawn dim whatever its colour (a bright yellow "Next" on the last step, or a
    # light "Undo" after a reveal, looks tappable)
    button = ft.Button(
        # at least 56 px high, taller when a long label wraps (Russian "Undo the last action" in
        # a side column): a fixed height cut its second line
        content=ft.Container(
            padding=ft.Padding.symmetric(vertical=BUTTON_TEXT_PADDING),
            content=ft.Text(text, size=18, weight=ft.FontWeight.BOLD, color=DISABLED_TEXT if disabled else text_colour),
        ),
        on_click=on_click,
        bgcolor=DISABLED_FILL if disabled else colour,
        width=width,
        disabled=disabled,
    )
    if ident:
        return ft.Semantics(identifier=ident, key=key or ident, content=button, button=True, selected=selected)
    return button


def act_button(ctx: GameContext, seat: int, text: str, on_click: Callable[[Any], Awaitable[None]] | None, *, ident: str, disabled: bool = False, reason: str | None = None, named: bool = False) -> ft.Control:
    """A button acting for `seat`, keyed by that player (`ctx.act_key`). On the board, where
    the same finger acts for everyone in turn, it is in the player's colour, with their shape
    and name (`named`: the text already names them), so a tap meant for the previous player is
    seen to be for someone else. `reason`: why it is disabled, said under it (mounted while
    enabled too, hidden: a button that comes and goes between enabled and disabled, as a turn's
    "End turn", then changes a few properties instead of its whole drawing)."""
    if ctx.seat is None:
        colour = ctx.colours[seat]
        button = big_button(f"{glyph(colour)} {text}" if named else f"{glyph(colour)} {ctx.names[seat]} · {text}", on_click, ident=ident, colour=COLOUR_HEX[colour], text_colour=text_on(colour), disabled=disabled, key=ctx.act_key(ident, seat))
    else:
        button = big_button(text, on_click, ident=ident, disabled=disabled, key=ctx.act_key(ident, seat))
    if reason:
        return ft.Column([button, label(reason, 14, MUTED, visible=disabled)], spacing=2, tight=True, key=f"{ident}-why")
    return button


#: A secret choice's buttons (which card is played): one size and a fixed place in a grid,
#: whatever their labels say in any language, so that neither a button's width nor where the
#: finger lands tells across the table which one was picked (a Russian "Повышение" beside "Блеф"
#: made the first twice as wide). See `secret_choices`.
SECRET_FACE = "#ECEFF1"
#: the pick's ring: thin and dark, seen by the owner (the section is open only while they look)
SECRET_RING = "#37474F"
SECRET_SPACING = 8
SECRET_BORDER = 3
#: a face's padding across and down (little across: a long word keeps a larger type)
SECRET_PADDING = (2, 6)
#: the type of a secret choice's labels: the largest size at which every label fits its cell in
#: at most two lines, between these
SECRET_TEXT_SIZES = (20, 14)
@functools.lru_cache(maxsize=512)
def _text_lines(text: str, size: int, width: float) -> int:
    """How many lines `text` takes in bold DejaVu (the app's font) at `size` in `width` px,
    breaking between words only (a word wider than the line counts as too many lines)."""
    lines, current = 1, ""
    for word in text.split():
        if text_width(word, size, bold=True) > width:
            return 99
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold=True) <= width:
            current = candidate
        else:
            lines, current = lines + 1, word
    return lines


def secret_text_size(labels: Sequence[str], cell_width: float) -> tuple[int, int] | None:
    """(size, lines): the one type size for every label of a secret choice, and the lines its
    longest label takes (1 or 2): the largest of SECRET_TEXT_SIZES that fits them all (None when
    even the smallest does not)."""
    inner = cell_width - 2 * (SECRET_BORDER + SECRET_PADDING[0]) - 2  # a little slack for shaping
    largest, smallest = SECRET_TEXT_SIZES
    for size in range(largest, smallest - 1, -1):
        lines = max((_text_lines(text, size, inner) for text in labels), default=1)
        if lines <= 2:
            return size, lines
    return None


def secret_choices(width: float, labels: Sequence[str], build: Callable[[int, float, int, float], ft.Control], *, columns: int) -> ft.Control:
    """The buttons of a secret choice in a grid of `columns` equal cells within `width`: the
    i-th button always in the i-th cell (an empty cell keeps the last row's places), every one
    the same height. `build(i, size, lines, height)` draws button i (with `secret_face`) at the
    type size every label fits at. Fewer columns when the labels do not fit `columns` (this
    language's longest label decides, never which button is which)."""
    columns = max(1, min(columns, len(labels) or 1))
    while True:
        cell = (width - (columns - 1) * SECRET_SPACING) / columns
        fit = secret_text_size(labels, cell)
        if fit is not None or columns == 1:
            break
        columns -= 1
    size, lines = fit or (SECRET_TEXT_SIZES[1], 2)
    height = max(56.0, round(lines * size * 1.25 + 2 * (SECRET_BORDER + SECRET_PADDING[1]) + 4))
    buttons = [build(i, size, lines, height) for i in range(len(labels))]
    rows: list[ft.Control] = []
    for start in range(0, len(buttons), columns):
        cells = [ft.Container(expand=1, height=height, content=b) for b in buttons[start : start + columns]]
        cells += [ft.Container(expand=1, height=height) for _ in range(columns - len(cells))]
        rows.append(ft.Row(cells, spacing=SECRET_SPACING, key=f"secret-row-{start // columns}"))
    return ft.Column(rows, spacing=SECRET_SPACING, tight=True)


def secret_face(text: str, *, selected: bool, on_click: Callable[[Any], Awaitable[None]] | None, size: float, lines: int, height: float, face: str = SECRET_FACE, text_colour: str = "#111111") -> ft.Container:
    """One button of a secret choice: its cell's whole width, the choice's height, the label
    centred; a plain container (no ink, no hover or focus overlay to stay on the tapped one)."""
    # unpicked, the ring's width is padding instead (Flutter pads a child by its border's
    # width): the label stays put, and a hand's buttons are sent without four border sides each
    ring = SECRET_BORDER if not selected else 0
    return ft.Container(
        on_click=on_click,
        height=height,
        bgcolor=face,
        border=ft.Border.all(SECRET_BORDER, SECRET_RING) if selected else None,
        border_radius=10,
        padding=ft.Padding.symmetric(horizontal=SECRET_PADDING[0] + ring, vertical=SECRET_PADDING[1] + ring),
        alignment=ft.Alignment.CENTER,
        content=ft.Text(text, size=size, weight=ft.FontWeight.BOLD, color=text_colour, text_align=ft.TextAlign.CENTER, max_lines=lines, overflow=ft.TextOverflow.ELLIPSIS),
    )


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


#: Each language by its own name, the same on every device whatever language it shows: a player
#: looks for the language they read ("Русский"), not a code ("RU") nor a name in another language.
LANGUAGE_NAMES = {"en": "English", "fr": "Français", "ru": "Русский"}


def language_menu(tr: Translator, lang: str, on_select: Callable[[Any], Awaitable[None]], ident: str | None = None) -> ft.Control:
    """The device's language (each device keeps its own: see PageSession.set_language). The
    field's own label is drawn, not announced: the Semantics label names it for screen readers.
    `ident`: a test identifier (the home page's menu has none: its browser test finds it so)."""
    from companion.i18n import LANGUAGES

    return ft.Semantics(
        identifier=ident,
        key=ident,
        label=tr.t("ui.language"),
        content=ft.Dropdown(
            value=lang,
            options=[ft.DropdownOption(key=code, text=LANGUAGE_NAMES[code]) for code in LANGUAGES],
            on_select=on_select,
            width=170,
            label=tr.t("ui.language"),
        ),
    )


def player_chip(tr: Translator, names: list[str], colours: list[str], seat: int, size: int = 16) -> ft.Container:
    colour = colours[seat]
    return ft.Container(
        content=ft.Text(f"{glyph(colour)} {names[seat]}", size=size, color=text_on(colour), weight=ft.FontWeight.BOLD),
        bgcolor=COLOUR_HEX[colour],
        border_radius=8,
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


def banner(message: str, colour: str = DANGER, ident: str = "banner", on_dismiss: Callable[[Any], Awaitable[None]] | None = None) -> ft.Control:
    """A message; with `on_dismiss`, a tap on it closes it (it floats over the page: see
    `message_overlay`, so a tap landing on it does nothing else)."""
    return ft.Semantics(
        identifier=ident,
        key=ident,
        live_region=True,
        content=ft.Container(
            content=ft.Text(message, size=18, color="#111111", weight=ft.FontWeight.BOLD),
            bgcolor=colour,
            border_radius=8,
            padding=12,
            on_click=on_dismiss,
            shadow=ft.BoxShadow(blur_radius=12, color="#99000000") if on_dismiss else None,
        ),
    )


def message_overlay(body: ft.Control, layer: ft.Control) -> ft.Control:
    """`body` with a layer of messages (banners, `message_layer`) floating over it: a message
    coming or going never moves what is under the players' fingers (a banner above the board
    pushed it ~60 px down, inviting the next mis-tap). The body keeps its key, so it is not
    redrawn with them; the overlay has the same two layers with or without a message, so one
    coming or going sends the layer alone, not the page again."""
    return ft.Stack([role("page", body), layer], expand=True)


def message_layer(messages: list[ft.Control], *, at_bottom: bool = False, right: float = 0) -> ft.Control:
    """The floating messages of `message_overlay`, there (hidden) when there are none.
    `at_bottom`: over the body's bottom edge instead of its top (a board's title and status are
    at its top); `right`: the width kept clear on the right (a side column)."""
    column = ft.Column(messages, spacing=6, tight=True)
    if at_bottom:
        return ft.Container(key="messages", bottom=0, left=0, right=right, padding=4, content=column, visible=bool(messages))
    return ft.Container(key="messages", top=0, left=0, right=right, padding=4, content=column, visible=bool(messages))


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


def private_section(ctx: GameContext, build: Callable[[], ft.Control], *, hold_text: str | None = None, release_text: str | None = None, visible: bool = True) -> ft.Control:
    """A seat's secrets, built only while the player holds the "Hold to see your cards" pad (or
    after a tap on "Show my cards", the accessible alternative). While hidden, the secret is not
    built at all, so neither the page's text nor what the server sends carries any of it.
    `hold_text` / `release_text` name the pad for what it does in this game ("Hold here to enter a
    face-down card"). `visible=False`: mounted but hidden, for a game whose turns bring the
    section and take it away (a turn's start then shows it instead of sending it).

    The pad stays first, with the same key, while hidden and held: Flet then keeps its control id
    across the redraws a press causes, and the release reaches the control the finger is on. Shown
    (with a tap, or by a first step picked with a lift: `choice_target(then_open=True)`), the
    cards take the pad's place under a "Hide my cards" button, so what comes next is in view."""
    state = ctx.ui.get(PEEK_KEY)
    # (the pad's and the buttons' handlers use only the page's `ui` and `rerender`, the same at
    # every drawing: a reused pad acts as a new one would)
    held = state == PEEK_HELD
    # The three buttons stay mounted, each shown when it applies: opening or closing the section
    # sends flags, not the pad again. Shown with a tap, or left shown by a first step picked from
    # the pad, no finger is on the pad, and the cards take its place under "Hide my cards" (the
    # next step comes up into view).
    items: list[ft.Control] = [
        shown_when(ctx, "hide-private-box", state == PEEK_SHOWN, ctx.part("hide-private", None, lambda: big_button(ctx.tr.t("ui.hide_private"), handler(_set_peek, ctx, False), ident="hide-private", colour="#B0BEC5"))),
        shown_when(ctx, "hold-private-box", state != PEEK_SHOWN, ctx.part("hold-private", (held, hold_text, release_text), lambda: hold_pad(ctx, held=held, hold_text=hold_text, release_text=release_text))),
        shown_when(ctx, "show-private-box", not state, ctx.part("show-private", None, lambda: show_private_button(ctx))),
    ]
    if state:
        content = build()
        if content.key is None:  # (a group's control is keyed already, and is never changed)
            content.key = "private-content"
        items.append(content)
    else:
        for key in ctx.ui.pop(PEEK_DRAFTS, ()):
            ctx.ui.pop(key, None)  # a half-made secret choice does not wait, hidden, for the next look
    return ctx.group("private", visible, items, lambda items: ft.Column(items, spacing=10, horizontal_alignment=ft.CrossAxisAlignment.STRETCH, visible=visible))


def shown_when(ctx: GameContext, key: str, visible: bool, part: ft.Control) -> ft.Control:
    """`part` mounted throughout, in a wrapper that shows it only when `visible`: showing or
    hiding it sends a flag, not the part (never for a secret: a hidden control is still sent)."""
    return ctx.group(key, visible, [part], lambda children: ft.Container(children[0], visible=visible))


def show_private_button(ctx: GameContext) -> ft.Control:
    """"Show my cards" for 20 s: the one-handed and screen-reader way to the secrets."""
    return ft.Semantics(
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


#: ctx.ui key of the keys of half-made choices made inside the private section (see `draft_key`)
PEEK_DRAFTS = "privacy.drafts"


KeyT = TypeVar("KeyT", bound=Hashable)


def draft_key(ctx: GameContext, key: KeyT) -> KeyT:
    """`key` names a half-made choice inside the private section (a value picked, its colour not
    yet): it is forgotten as soon as the section hides."""
    drafts = ctx.ui.setdefault(PEEK_DRAFTS, set())
    drafts.add(key)
    return key


#: a game's `View` (companion/games/<game>.py)
ViewT = TypeVar("ViewT", bound="BaseModel")


def public_view(ctx: GameContext, view: ViewT) -> ViewT:
    """What a phone's public section is drawn from: the room's BOARD projection
    (`ctx.board_view`), so nothing of `view.me` can reach it; `view` where no board projection
    was given (a seat-less context). The board projection is the same game's, so of `view`'s type."""
    board = getattr(ctx, "board_view", None)
    return board if board is not None else view


#: the drag group of the hold pad and the choices it can be slid onto
PEEK_GROUP = "peek"
#: ctx.ui key of the hide waiting to learn whether a drag took the touch over (see _hide_soon)
PEEK_PENDING_HIDE = "privacy.peek.pending_hide"
#: seconds a touch the pad lost (its tap cancelled, a choice left) waits for the drag that takes
#: it over before the cards hide: Flutter reports the tap's cancel before the drag's start, and
#: leaving one choice before entering the next
DRAG_HANDOVER_SECONDS = 0.5


def hold_pad(ctx: GameContext, *, held: bool, hold_text: str | None = None, release_text: str | None = None) -> ft.Control:
    """Press and hold to see the cards, slide onto a choice and lift to pick it (one gesture
    shows and chooses). The pad is a `Draggable` inside a tap detector: a press that stays put is
    a tap (down shows, up hides); a press that slides becomes a drag, which a choice
    (`choice_target`) or the page (`peek_catcher`: a lift that misses every choice) receives.
    Every other end of the press (a cancelled touch) hides the cards."""
    hold_text = hold_text or ctx.tr.t("ui.peek_hold")
    release_text = release_text or ctx.tr.t("ui.peek_release")
    pad = ft.Container(
        alignment=ft.Alignment.CENTER,
        bgcolor="#37474F" if held else "#263238",
        border=ft.Border.all(3, ACCENT if held else MUTED),
        border_radius=16,
        # No fixed height: enlarged text makes the pad taller instead of being cut off.
        padding=ft.Padding.symmetric(horizontal=14, vertical=HOLD_PAD_PADDING),
        content=ft.Text(
            ("☝  " + release_text) if held else ("🂠  " + hold_text),
            size=20,
            color=INK,
            weight=ft.FontWeight.BOLD,
            text_align=ft.TextAlign.CENTER,
        ),
    )
    # what travels under the finger: a plain dot, nothing of the cards
    fingertip = ft.Container(width=28, height=28, shape=ft.BoxShape.CIRCLE, bgcolor="#80FFFFFF")
    # A button, said so (as big_button says it). Unsaid, Flutter's web client infers the role
    # from the node's tap action and its having no child node: an update where either changes
    # gives the node another role, so another DOM element, and the client writes on it only the
    # node's changed attributes. Changed back, the pad was a button again, to screen readers
    # and to the eye, but without its `flt-semantics-identifier` (CI: "hold-private" not found).
    return ft.Semantics(
        identifier="hold-private",
        key="hold-private",
        button=True,
        content=ft.GestureDetector(
            on_tap_down=handler(_set_peek, ctx, PEEK_HELD),
            on_tap_up=handler(_release_hold, ctx),
            on_tap_cancel=handler(_hide_soon, ctx),
            content=ft.Draggable(group=PEEK_GROUP, content=pad, content_feedback=fingertip, max_simultaneous_drags=1, on_drag_start=handler(_drag_started, ctx)),
        ),
    )


def choice_target(ctx: GameContext, content: ft.Control, on_pick: Callable[[], Awaitable[Any]], *, then_open: bool = False) -> ft.Control:
    """A choice in the private section: tapped (cards shown with a tap), or reached by sliding the
    finger from the hold pad and lifting on it. A lift hides the cards, then picks; `then_open`:
    the choice is a first step (a card, whose place comes next), so the lift leaves the cards
    shown as a tap on "Show my cards" does, with the next step in view for the next tap."""

    async def dropped(_event: Any) -> None:
        _keep_peek(ctx)
        ctx.ui[PEEK_KEY] = PEEK_SHOWN if then_open else False
        await on_pick()

    return ft.DragTarget(group=PEEK_GROUP, content=content, on_will_accept=_arrived(ctx), on_leave=handler(_hide_soon, ctx), on_accept=dropped)


def peek_catcher(ctx: GameContext, content: ft.Control) -> ft.Control:
    """The whole page as a drop target: a finger lifted off every choice hides the cards."""
    return ft.DragTarget(group=PEEK_GROUP, content=content, on_will_accept=_arrived(ctx), on_leave=handler(_hide_soon, ctx), on_accept=handler(_release_hold, ctx))


def _arrived(ctx: GameContext) -> Callable[[Any], Awaitable[None]]:
    async def arrived(_event: Any) -> None:
        _keep_peek(ctx)

    return arrived


def _keep_peek(ctx: GameContext) -> None:
    pending = ctx.ui.pop(PEEK_PENDING_HIDE, None)
    if pending is not None and pending is not asyncio.current_task():
        pending.cancel()


async def _drag_started(ctx: GameContext) -> None:
    # A quick slide starts the drag before any tap down was reported: the drag shows the cards.
    _keep_peek(ctx)
    if ctx.ui.get(PEEK_KEY) != PEEK_HELD:
        await _set_peek(ctx, PEEK_HELD)


async def _hide_soon(ctx: GameContext) -> None:
    """Hide, unless within DRAG_HANDOVER_SECONDS a drag or a choice takes the touch over. The
    wait runs in a task of its own: Flet hands a session its events one handler at a time, so a
    handler that waited would hold back the very drag start it waits for."""

    async def later() -> None:
        await asyncio.sleep(DRAG_HANDOVER_SECONDS)
        if ctx.ui.get(PEEK_PENDING_HIDE) is task:
            _keep_peek(ctx)
            await _release_hold(ctx)

    task = asyncio.get_running_loop().create_task(later())
    ctx.ui[PEEK_PENDING_HIDE] = task  # also keeps the task alive


async def _set_peek(ctx: GameContext, state: str | bool) -> None:
    _keep_peek(ctx)
    ctx.ui[PEEK_KEY] = state
    await ctx.rerender()


async def _release_hold(ctx: GameContext) -> None:
    # Any end of a press hides, also when the cards had been opened with a tap before it.
    _keep_peek(ctx)
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


class PlainScreen:
    """The lifecycle every screen without a room's own rules shares: drawn on open, drawn again
    when its connection comes back, put on the page under `screen_key`. A screen that follows
    something (the host's rooms, a room's seats) keeps the unsubscribe function in
    `_unsubscribe`; closing calls it once."""

    page: ft.Page
    _unsubscribe: Callable[[], None] | None = None

    @property
    def screen_key(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def build(self) -> list[ft.Control]:  # pragma: no cover - abstract
        raise NotImplementedError

    async def open(self) -> None:
        await self.render()

    async def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    async def connected(self, up: bool) -> None:
        if up:
            await self.render()

    async def render(self) -> None:
        show_screen(self.page, self.build(), self.screen_key)
