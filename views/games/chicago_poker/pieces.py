"""Chicago Poker's pieces drawn on both the board and the phones: cards, the card picker, the
businesses, the players' standings and the shootout step by step (a view state: ctx.ui)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from functools import partial
from typing import Any

import flet as ft

from companion.games.chicago_poker import COLOURS, VALUES, BusinessView, Card, ColumnView, Face, Pick, Shootout, Tile, View
from views.common import (
    ACCENT,
    COLOUR_HEX,
    FELT_LIGHT,
    INK,
    MUTED,
    PANEL,
    big_button,
    choice_target,
    glyph,
    handler,
    label,
    player_chip,
    role,
    text_on,
)
from views.context import GameContext, SetupContext
from views.i18n import Translator
from views.steps import shown_step, step_buttons
from views.text_metrics import text_width

#: the five card colours on screen (their real names are unknown: docs/rules/chicago_poker.md#components)
CARD_HEX = {"c1": "#C62828", "c2": "#1565C0", "c3": "#2E7D32", "c4": "#EF6C00", "c5": "#6A1B9A"}
KIND_HEX = {"speakeasy": "#6D4C41", "jazz_club": "#283593", "brewery": "#9E6A00", "gambling_house": "#AD1457"}
KIND_ICON = {
    "speakeasy": ft.Icons.LOCAL_BAR,
    "jazz_club": ft.Icons.MUSIC_NOTE,
    "brewery": ft.Icons.SPORTS_BAR,
    "gambling_house": ft.Icons.CASINO,
}
DARK = "#111111"


# --------------------------------------------------------------------------------------------
# header pieces (the contract)
# --------------------------------------------------------------------------------------------


def status_line(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    parts = [tr.t(f"chicago_poker.phase.{view.phase}")]
    if view.turn:
        parts.insert(0, tr.t("chicago_poker.ui.turn", turn=view.turn))
    parts.append(tr.t("chicago_poker.ui.deck", deck=view.deck, tiles=view.tiles_left))
    return label(" · ".join(parts), 18, MUTED)


def seat_summary(ctx: GameContext, view: View, seat: int) -> str:
    return ctx.tr.t("chicago_poker.ui.summary", hand=view.hands[seat], tiles=len(view.controlled[seat]))


def is_my_turn(view: View, seat: int) -> bool:
    if view.phase in ("actions", "choose_shootout"):
        return view.current == seat
    if view.phase == "reinforce":
        return seat in view.waiting_for
    return False


# --------------------------------------------------------------------------------------------
# small pieces
# --------------------------------------------------------------------------------------------


def colour_digit(colour: str) -> str:
    return colour.removeprefix("c")


def card_text(ctx: GameContext | SetupContext, card: Card) -> str:
    return ctx.tr.t("chicago_poker.ui.card", value=card.value, colour=card.colour)


def card_face(card: Card, size: float = 56, hidden_mark: bool = False) -> ft.Control:
    """A gangster card: white face, value in the card's colour, colour number in the corner."""
    hex_ = CARD_HEX[card.colour]
    return ft.Container(
        width=round(size * 0.74),
        height=round(size),
        bgcolor="#FFFDF5" if not hidden_mark else "#D7CCC8",
        border=ft.Border.all(3, hex_),
        border_radius=6,
        alignment=ft.Alignment.CENTER,
        content=ft.Column(
            [
                ft.Text(str(card.value), size=round(size * 0.42), weight=ft.FontWeight.BOLD, color=hex_),
                ft.Container(
                    bgcolor=hex_,
                    border_radius=3,
                    padding=ft.Padding.symmetric(horizontal=3),
                    content=ft.Text(colour_digit(card.colour), size=round(size * 0.2), color="#FFFFFF", weight=ft.FontWeight.BOLD),
                ),
            ],
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            alignment=ft.MainAxisAlignment.CENTER,
        ),
    )


def card_back(ctx: GameContext, seat: int, size: float = 56) -> ft.Control:
    colour = ctx.colours[seat]
    return ft.Container(
        width=round(size * 0.74),
        height=round(size),
        bgcolor=COLOUR_HEX[colour],
        border=ft.Border.all(3, "#FFFFFF"),
        border_radius=6,
        alignment=ft.Alignment.CENTER,
        content=ft.Text(glyph(colour), size=round(size * 0.4), color=text_on(colour)),
    )


def empty_slot(face: str, size: float) -> ft.Control:
    """Where the next card of this column will go, and with which face."""
    return ft.Container(
        width=round(size * 0.74),
        height=round(size),
        border=ft.Border.all(1, MUTED),
        border_radius=6,
        alignment=ft.Alignment.CENTER,
        content=ft.Text("↑" if face == "up" else "↓", size=round(size * 0.3), color=MUTED),
    )


def marker_icon(size: float) -> ft.Control:
    return ft.Container(
        bgcolor="#CFD8DC",
        border_radius=size,
        padding=4,
        content=ft.Icon(ft.Icons.GPS_FIXED, color=DARK, size=size * 0.5),
    )


def kind_badge(ctx: GameContext, kind: str, size: int = 18) -> ft.Control:
    return ft.Container(
        bgcolor=KIND_HEX[kind],
        border_radius=8,
        padding=ft.Padding.symmetric(horizontal=8, vertical=3),
        content=ft.Row(
            [ft.Icon(KIND_ICON[kind], color="#FFFFFF", size=size + 2), ft.Text(ctx.tr.t(f"chicago_poker.business.{kind}"), size=size, color="#FFFFFF", weight=ft.FontWeight.BOLD)],
            spacing=4,
            tight=True,
        ),
    )


def tile_chip(kind: str, size: int = 26) -> ft.Control:
    return ft.Container(
        width=size,
        height=size,
        bgcolor=KIND_HEX[kind],
        border_radius=5,
        alignment=ft.Alignment.CENTER,
        content=ft.Icon(KIND_ICON[kind], color="#FFFFFF", size=size * 0.7),
    )


def pattern_legend(tr: Translator, pattern: str) -> str:
    """The pattern's pips in words, in the order they first come: "3 up · 2 down"."""
    parts = []
    for face in dict.fromkeys(pattern):
        code = "chicago_poker.ui.pattern_up" if face == "U" else "chicago_poker.ui.pattern_down"
        parts.append(tr.t(code, count=pattern.count(face)))
    return " · ".join(parts)


#: a business's faces as one line of type: up (a light face) a filled bar, down an outline
PIP = {"U": "▮", "D": "▯"}


def pattern_pips(pattern: str, size: int = 16, legend: str | None = None) -> ft.Control:
    """The business's faces, up (filled) and down (outlined), one pip a card; `legend`: under
    them, in words (the strip alone is not understood). One text, not a box a pip: a business
    arriving costs its phone one control for the strip."""
    strip = ft.Text("".join(PIP[p] for p in pattern), size=int(size * 1.2), color="#FFFDF5", weight=ft.FontWeight.BOLD)
    if legend is None:
        return strip
    # (15 px at least: read across the table from the board)
    return ft.Column([strip, label(legend, max(15, int(size * 0.9)), INK)], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.END)


def tap(ident: str, content: ft.Control, on_click: Callable[[Any], Awaitable[None]] | None, *, selected: bool = False, key: str | None = None) -> ft.Control:
    """`key`: for a control acting for a player, keyed by that player (GameContext.act_key).
    `on_click` takes Flet's event (Any: its payload is Flet's)."""
    content.on_click = on_click  # type: ignore[attr-defined]
    return ft.Semantics(identifier=ident, key=key or ident, button=True, selected=selected, content=content)


def panel(controls: list[ft.Control], ident: str | None = None, border: str | None = None, visible: bool = True) -> ft.Control:
    box = ft.Container(
        bgcolor=PANEL,
        border_radius=12,
        padding=12,
        border=ft.Border.all(3, border) if border else None,
        content=ft.Column(controls, spacing=8, tight=True),
    )
    outer = ft.Semantics(identifier=ident, key=ident, content=box) if ident else box
    outer.visible = visible
    return outer


# --------------------------------------------------------------------------------------------
# the card picker: value 1-15 and colour (board: face-up entries; phone: plays, reinforcements)
# --------------------------------------------------------------------------------------------


def known_cards(view: View) -> set[tuple[int, str]]:
    """Cards this audience can see are somewhere (each card exists once): refused anyway."""
    known: set[tuple[int, str]] = {(c.card.value, c.card.colour) for b in view.businesses for col in b.columns for c in col.cards if c.card is not None}
    known.update((c.value, c.colour) for c in view.discard)
    for pick in view.reinforcement.deck_cards if view.reinforcement else ():
        if pick.card is not None:
            known.add((pick.card.value, pick.card.colour))
    if view.me is not None:
        known.update((h.card.value, h.card.colour) for h in view.me.face_down)
        if view.me.my_pick is not None and view.me.my_pick.card is not None:
            known.add((view.me.my_pick.card.value, view.me.my_pick.card.colour))
    return known


def picked_card(ctx: GameContext, key: Hashable) -> tuple[int | None, str | None]:
    chosen = ctx.ui.get(key) or {}
    return chosen.get("value"), chosen.get("colour")


#: the ring marking a picked value or colour: dark and thin, seen by the owner only
PICK_RING = "#37474F"


#: ctx.ui key of the card the page's picker enters now, and the cards it refuses (a page has one
#: picker at a time: the board's face-up or deck card, a phone's play or reinforcement). Its
#: buttons read it at the tap, so a button kept from an earlier drawing enters this drawing's card.
PICKER = "chicago_poker.picker"


async def choose_card_part(ctx: GameContext, field: str, item: int | str) -> None:
    key, known = ctx.ui[PICKER]
    chosen = dict(ctx.ui.get(key) or {})
    chosen[field] = item
    if field == "value" and chosen.get("colour") and (item, chosen["colour"]) in known:
        chosen.pop("colour")
    ctx.ui[key] = chosen
    await ctx.rerender()


def card_picker(ctx: GameContext, view: View, key: Hashable, compact: bool) -> ft.Control:
    """Values 1-15 (phone: 3 rows of 5; board: one row), then the 5 colours; a card this
    audience can see elsewhere is disabled (each card exists once). Each button a part: a pick,
    or the next action's entry, redraws the buttons that changed."""
    value, colour = picked_card(ctx, key)
    known = frozenset(known_cards(view))
    ctx.ui[PICKER] = (key, known)
    size = 50 if compact else 52

    def value_button(n: int, gone: bool, chosen: bool) -> ft.Control:
        box = ft.Container(
            width=size,
            height=size * 0.86,
            # the pick is marked by a thin ring only: from across the table every value looks alike
            bgcolor="#263238" if gone else "#ECEFF1",
            # (a ring the button's own colour is no ring: not sent, as the text stays centred)
            border=ft.Border.all(3, PICK_RING if chosen else "#ECEFF1") if chosen or gone else None,
            border_radius=8,
            alignment=ft.Alignment.CENTER,
            content=ft.Text(str(n), size=size * 0.42, weight=ft.FontWeight.BOLD, color=MUTED if gone else DARK),
        )
        return pick_button(ctx, f"value-{n}", box, None if gone else (lambda: choose_card_part(ctx, "value", n)), chosen, compact)

    def colour_button(c: str, gone: bool, chosen: bool) -> ft.Control:
        box = ft.Container(
            width=size,
            height=size * 0.86,
            bgcolor="#263238" if gone else CARD_HEX[c],
            border=ft.Border.all(3, PICK_RING if chosen else "#FFFFFF"),
            border_radius=8,
            alignment=ft.Alignment.CENTER,
            content=ft.Text("✕" if gone else colour_digit(c), size=size * 0.38, weight=ft.FontWeight.BOLD, color=MUTED if gone else "#FFFFFF"),
        )
        return pick_button(ctx, f"colour-{c}", box, None if gone else (lambda: choose_card_part(ctx, "colour", c)), chosen, compact)

    value_buttons = []
    for n in VALUES:
        gone = all((n, c) in known for c in COLOURS)
        value_buttons.append(ctx.part(f"pick-value-{n}", (n, gone, n == value, size, compact), partial(value_button, n, gone, n == value)))
    if compact:  # phone: 3 rows of 5
        rows: list[ft.Control] = [
            ctx.group(f"pick-values-{i}", None, value_buttons[i : i + 5], lambda buttons: ft.Row(buttons, spacing=6)) for i in range(0, len(value_buttons), 5)
        ]
    else:  # board: one row of 15
        rows = [ctx.group("pick-values", None, value_buttons, lambda buttons: ft.Row(buttons, spacing=4, wrap=True, run_spacing=4))]
    colours = []
    for c in COLOURS:
        gone = value is not None and (value, c) in known
        colours.append(ctx.part(f"pick-colour-{c}", (c, gone, c == colour, size, compact), partial(colour_button, c, gone, c == colour)))
    if value is not None and colour is not None:
        # small type, no card face: read by the owner, not across the table
        text = ctx.tr.t("chicago_poker.ui.chosen", card=ctx.tr.t("chicago_poker.ui.card", value=value, colour=colour))
        chosen_line = ctx.part("pick-chosen", text, lambda: label(text, 15, INK))
    else:
        chosen_line = ctx.part("pick-chosen", None, lambda: label(ctx.tr.t("chicago_poker.ui.pick_value_colour"), 16, MUTED))
    rows.append(ctx.group("pick-colours", None, [*colours, chosen_line], lambda items: ft.Row(items, spacing=6, wrap=True, run_spacing=6, vertical_alignment=ft.CrossAxisAlignment.CENTER)))
    return ctx.group("picker", compact, rows, lambda rows: ft.Column(rows, spacing=6, tight=True))


def pick_button(ctx: GameContext, ident: str, box: ft.Control, pick: Callable[[], Awaitable[None]] | None, selected: bool, secret: bool) -> ft.Control:
    """A value or colour of the card picker. On a phone (`secret`: inside the private section) it is
    also reached by sliding from the hold pad: the lift picks it and leaves the cards shown, the
    rest of the card in view."""
    on_click = None if pick is None else handler(pick)
    if not secret or pick is None:
        return tap(ident, box, on_click, selected=selected)
    box.on_click = on_click  # type: ignore[attr-defined]
    return ft.Semantics(identifier=ident, key=ident, button=True, selected=selected, content=choice_target(ctx, box, pick, then_open=True))


def card_payload(value: int, colour: str) -> dict[str, Any]:  # a card as a JSON action carries it
    return {"value": value, "colour": colour}


def play_buttons(ctx: GameContext, view: View, seat: int, plays: tuple[tuple[int, Face], ...], key: Hashable, compact: bool) -> ft.Control:
    """One button per business where `seat`'s next card may go, saying face up or face down: each
    a part (a pick redraws their colours, not the buttons)."""
    tr = ctx.tr
    value, colour = picked_card(ctx, key)
    kinds = {b.id: b.kind for b in view.businesses}
    buttons = []
    texts: list[tuple[str, str]] = []
    for business, face in plays:
        text = tr.t("chicago_poker.ui.play_at", business=business, kind=kinds[business])
        face_text = tr.t("chicago_poker.ui.goes_up") if face == "up" else tr.t("chicago_poker.ui.goes_down")
        texts.append((text, face_text))
        card = card_payload(value, colour) if value is not None and colour is not None else None
        buttons.append(
            ctx.part(
                f"play-{business}-button",
                (business, face, card, seat, text, face_text, compact),
                partial(play_button, ctx, seat, business, face, card, (text, face_text), compact),
            )
        )
    if compact:
        # two a row on a phone where every name fits half the width (the whole entry then fits a
        # 390 x 844 screen), else one a row: a button always says its business's whole name
        per_row = 2 if all(play_text_fits(t, (ctx.width - PLAY_ROW_INSET - 8) / 2) for t in texts) else 1
        return ctx.group(
            "play-buttons",
            per_row,
            buttons,
            lambda buttons: ft.Column([ft.Row([ft.Container(b, expand=True) for b in buttons[i : i + per_row]], spacing=8) for i in range(0, len(buttons), per_row)], spacing=8, tight=True),
        )
    return ctx.group("play-buttons", None, buttons, lambda buttons: ft.Row(buttons, spacing=8, wrap=True))


def play_button(ctx: GameContext, seat: int, business: int, face: str, card: dict[str, Any] | None, texts: tuple[str, str], compact: bool) -> ft.Control:
    """Play the card picked (`card`; None: none picked yet, the button is dim) at `business`."""
    up = face == "up"
    ready = card is not None
    action = {"type": "play_face_up" if up else "play_face_down", "by": seat, "business": business, "card": card}
    box = ft.Container(
        width=None if compact else 260,
        bgcolor=(ACCENT if up else "#90CAF9") if ready else "#37474F",
        border_radius=10,
        padding=ft.Padding.symmetric(horizontal=12, vertical=8),
        content=ft.Row(
            [
                ft.Icon(ft.Icons.ARROW_UPWARD if up else ft.Icons.VISIBILITY_OFF, color=DARK if ready else MUTED, size=26),
                ft.Column(
                    [
                        ft.Text(texts[0], size=17, weight=ft.FontWeight.BOLD, color=DARK if ready else MUTED),
                        ft.Text(texts[1], size=15, weight=ft.FontWeight.BOLD, color=DARK if ready else MUTED),
                    ],
                    spacing=0,
                    tight=True,
                    # the button's width is the text's: a name longer than a line wraps, whole
                    expand=True,
                ),
            ],
            spacing=8,
        ),
    )
    return tap(f"play-{business}", box, handler(ctx.submit, action) if ready else None, key=ctx.act_key(f"play-{business}", seat))


#: what a phone's play buttons have around them across the page: the page's padding and the
#: play panel's (12 px each side) and border
PLAY_ROW_INSET = 2 * (12 + 12 + 3)
#: what a play button takes beside its text: 12 px of padding each side, the 26 px icon, 8 px
#: between them, and a few pixels of slack for shaping
PLAY_BUTTON_CHROME = 2 * 12 + 26 + 8 + 4


def play_text_fits(texts: tuple[str, str], width: float) -> bool:
    """Whether a play button `width` px wide shows its two lines (the business at 17 px, the face
    at 15 px, both bold) whole."""
    name, face = texts
    return text_width(name, 17, bold=True) <= width - PLAY_BUTTON_CHROME and text_width(face, 15, bold=True) <= width - PLAY_BUTTON_CHROME


# --------------------------------------------------------------------------------------------
# businesses
# --------------------------------------------------------------------------------------------


def business_header(ctx: GameContext, business: BusinessView, card_size: float) -> ft.Control:
    pips = pattern_pips(business.pattern, int(card_size * 0.3), pattern_legend(ctx.tr, business.pattern))
    pips.expand = True  # the pattern takes the rest of the line, at its right end
    return ft.Row(
        [
            label(str(business.id), int(card_size * 0.5), ACCENT, ft.FontWeight.BOLD),
            kind_badge(ctx, business.kind, int(card_size * 0.3)),
            pips,
        ],
        spacing=8,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
    )


def business_row(ctx: GameContext, number: int, column: ColumnView, own: dict[int, Card], open_slot: bool, card_size: float) -> ft.Control:
    """One player's cards at a business (`own`: this seat's face-down cards by position, shown
    while its pad is open): a group of parts, so a card played builds that card alone; keyed by
    place, it goes in before the open slot, which moves along."""
    row = f"business-{number}-seat-{column.seat}"
    seat = column.seat
    # short wire keys (unique among their siblings): a key is sent with every new control
    cells: list[ft.Control] = [ctx.part(f"{row}-chip", (seat, card_size), lambda: role("p", business_row_chip(ctx, seat, card_size)))]
    for position, cv in enumerate(column.cards, start=1):
        card = cv.card if cv.card is not None else own.get(position)
        hidden_mark = cv.card is None and card is not None
        cells.append(
            ctx.part(
                f"{row}-card-{position}",
                (card, hidden_mark, seat, card_size),
                partial(card_cell, ctx, seat, position, card, hidden_mark, card_size),
            )
        )
    if open_slot:
        face = column.next_face
        assert face is not None  # an open slot is where the column's next card goes
        cells.append(ctx.part(f"{row}-open", (face, card_size), lambda: role("o", empty_slot(face, card_size))))
    if column.marker:
        cells.append(ctx.part(f"{row}-marker", card_size, lambda: role("m", marker_icon(card_size * 0.8))))
    return ctx.group(row, None, cells, lambda cells: ft.Row(cells, spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER, key=f"s{seat}"))


def card_cell(ctx: GameContext, seat: int, position: int, card: Card | None, hidden_mark: bool, card_size: float) -> ft.Control:
    """The card at `position` of `seat`'s row: its face, or its back (`card` None)."""
    return role(f"c{position}", card_face(card, card_size, hidden_mark=hidden_mark) if card is not None else card_back(ctx, seat, card_size))


def business_row_chip(ctx: GameContext, seat: int, card_size: float) -> ft.Control:
    chip = player_chip(ctx.tr, ctx.names, ctx.colours, seat, int(card_size * 0.26))
    chip.width = card_size * 1.9  # every row's cards start at one line
    return chip


def business_panel(ctx: GameContext, view: View, business: BusinessView, width: float, card_size: float, mine: dict[tuple[int, int], Card] | None = None, compact: bool = False) -> ft.Control:
    """A business: its type and pattern, then one row per player with cards there (each a part:
    a card played redraws its row only)."""
    number = business.id
    over = view.phase == "over"
    rows: list[ft.Control] = [ctx.part(f"business-{number}-head", (business.kind, business.pattern, card_size), lambda: business_header(ctx, business, card_size))]
    for column in business.columns:
        # a phone lists the players with cards here (each new row sent as it comes); the board
        # keeps a row for every player, so its grid does not move as the round is played
        if not column.cards and (over or compact):
            continue
        own = tuple(sorted((position, card) for (at, position), card in (mine or {}).items() if at == number)) if column.seat == ctx.seat else ()
        open_slot = column.next_face is not None and not business.in_shootout and not over
        rows.append(business_row(ctx, number, column, dict(own), open_slot, card_size))
    return ctx.group(
        f"business-{number}",
        (width, business.in_shootout),
        rows,
        lambda rows: ft.Semantics(
            identifier=f"business-{number}",
            key=f"business-{number}",
            content=ft.Container(
                width=width,
                bgcolor=FELT_LIGHT,
                border_radius=12,
                padding=10,
                border=ft.Border.all(4 if business.in_shootout else 2, ACCENT if business.in_shootout else "#2E7D60"),
                content=ft.Column(rows, spacing=6, tight=True),
            ),
        ),
    )


def businesses_grid(ctx: GameContext, view: View, width: float, mine: dict[tuple[int, int], Card] | None = None, compact: bool = False) -> ft.Control:
    if not view.businesses:
        return ctx.part("businesses-none", None, lambda: label(ctx.tr.t("chicago_poker.ui.no_businesses"), 18, MUTED))
    per_row = 1 if compact or width < 700 else 2
    box = (width - 12 * (per_row - 1)) / per_row
    card = 40 if compact else min(60.0, (box - 24) / 8.6)
    panels = [business_panel(ctx, view, b, box, card, mine, compact) for b in view.businesses]
    return ctx.group("businesses", None, panels, lambda panels: ft.Row(panels, wrap=True, spacing=12, run_spacing=12, vertical_alignment=ft.CrossAxisAlignment.START))


def player_standing(ctx: GameContext, seat: int, tiles: tuple[Tile, ...], hand: int, current: bool, compact: bool) -> ft.Control:
    """A player's hand size and controlled businesses (`tiles`): a group of parts, so a card
    drawn or played builds the hand size alone."""
    key = f"player-{seat}"
    items = [
        ctx.part(f"{key}-chip", compact, lambda: role("p", player_chip(ctx.tr, ctx.names, ctx.colours, seat, 15 if compact else 18))),
        ctx.part(f"{key}-hand", (hand, compact), lambda: role("h", label(ctx.tr.t("chicago_poker.ui.hand_size", hand=hand), 15 if compact else 18, INK, ft.FontWeight.BOLD))),
        *[ctx.part(f"{key}-tile-{i}", (t.kind, compact), partial(tile_cell, i, t.kind, compact)) for i, t in enumerate(tiles)],
    ]
    return ctx.group(
        key,
        (current, compact),
        items,
        lambda items: ft.Semantics(
            identifier=key,
            key=key,
            content=ft.Container(
                bgcolor=PANEL,
                border_radius=10,
                padding=8,
                border=ft.Border.all(3, ACCENT) if current else None,
                content=ft.Row(items, spacing=6, tight=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
            ),
        ),
    )


def tile_cell(i: int, kind: str, compact: bool) -> ft.Control:
    return role(f"t{i}", tile_chip(kind, 22 if compact else 30))


def control_row(ctx: GameContext, view: View, compact: bool) -> ft.Control:
    """Hand sizes and controlled businesses of every player."""
    items = [player_standing(ctx, seat, view.controlled[seat], view.hands[seat], seat == view.current, compact) for seat in view.order]
    return ctx.group("players", compact, items, lambda items: ft.Row(items, wrap=True, spacing=8, run_spacing=8))


# --------------------------------------------------------------------------------------------
# the shootout, step by step (a view state: ctx.ui)
# --------------------------------------------------------------------------------------------


SHOW_LAST = "chicago_poker.show_last"
#: the page's position in the shootout's steps (views/steps.py)
STEP_KEY = "chicago_poker.step"


def shown_shootout(ctx: GameContext, view: View) -> Shootout | None:
    """The shootout being resolved; else the last one, if this device asked to see it again."""
    if view.shootout is not None:
        return view.shootout
    if view.shootouts and ctx.ui.get(SHOW_LAST) == len(view.shootouts):
        return view.shootouts[-1]
    return None


def last_shootout_toggle(ctx: GameContext, view: View) -> ft.Control | None:
    if view.shootout is not None or not view.shootouts:
        return None
    count = len(view.shootouts)
    showing = ctx.ui.get(SHOW_LAST) == count
    business = view.shootouts[-1].business

    async def toggle() -> None:
        ctx.ui[SHOW_LAST] = None if showing else count
        ctx.ui.pop(STEP_KEY, None)  # shown again, it opens on its verdict
        await ctx.rerender()

    def build() -> ft.Control:
        text = ctx.tr.t("chicago_poker.ui.hide_last") if showing else ctx.tr.t("chicago_poker.ui.show_last", business=business)
        return big_button(text, handler(toggle), ident="last-shootout", colour="#B0BEC5")

    return ctx.part("last-shootout", (count, showing, business), build)


def shootout_steps(ctx: GameContext, view: View, shootout: Shootout) -> list[list[ft.Control]]:
    tr = ctx.tr
    names = ctx.names
    compact = ctx.seat is not None
    size = 38 if compact else 50
    steps: list[list[ft.Control]] = []
    title = label(tr.t("chicago_poker.ui.shootout_title", business=shootout.business, kind=shootout.kind), 20 if compact else 26, ACCENT, ft.FontWeight.BOLD)

    # 1. every hand, named and ranked
    hands: list[ft.Control] = [title]
    for place, entry in enumerate(shootout.entries, start=1):
        tied = entry.seat in shootout.tied and len(shootout.tied) > 1
        hands.append(
            ft.Row(
                [
                    label(f"{place}.", 20 if compact else 24, ACCENT, ft.FontWeight.BOLD),
                    player_chip(tr, names, ctx.colours, entry.seat, 16 if compact else 20),
                    *[card_face(c, size) for c in entry.cards],
                    ft.Column(
                        [
                            label(tr.t(f"chicago_poker.hand.{entry.category}"), 18 if compact else 22, INK, ft.FontWeight.BOLD),
                            label(tr.t("chicago_poker.ui.ranks", ranks=", ".join(map(str, entry.ranks)) or "—"), 14 if compact else 16, MUTED),
                        ],
                        spacing=0,
                        tight=True,
                    ),
                    *([label(tr.t("chicago_poker.ui.tied_mark"), 16, ACCENT, ft.FontWeight.BOLD)] if tied else []),
                ],
                spacing=6,
                wrap=True,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    if len(shootout.tied) > 1:
        best_hand = shootout.entries[0]
        hands.append(label(tr.t("chicago_poker.tied", names, seats=list(shootout.tied), hand=best_hand.category, ranks=", ".join(map(str, best_hand.ranks))), 18 if compact else 22, INK))
    steps.append(hands)

    # 2. each reinforcement round, revealed at once
    for number, rnd in enumerate(shootout.rounds, start=1):
        lines: list[ft.Control] = [title, label(tr.t("chicago_poker.ui.round_revealed", round=number), 20 if compact else 24, ACCENT, ft.FontWeight.BOLD)]
        for pick in rnd.picks:
            lines.append(ft.Row([player_chip(tr, names, ctx.colours, pick.seat, 16 if compact else 20), *pick_cells(ctx, pick, size)], spacing=8, wrap=True, run_spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER))
        best = max(p.value() for p in rnd.picks)
        top = [p.seat for p in rnd.picks if p.value() == best]
        if len(top) > 1 and not (number == len(shootout.rounds) and shootout.decided_by == "lot"):
            lines.append(label(tr.t("chicago_poker.still_tied", names, seats=top, value=best), 18 if compact else 22, INK))
        elif len(top) == 1:
            lines.append(label(tr.t("chicago_poker.won_reinforcement", names, seat=top[0], value=best), 18 if compact else 22, INK, ft.FontWeight.BOLD))
        steps.append(lines)

    # 3. the round being played now: who has sent a card (never which)
    rein = view.reinforcement
    if rein is not None and shootout.winner is None:
        # who still chooses; every card chosen, the round waits for its reveal (the players the
        # table waits for then are everyone's "ready", not a choice)
        choosing = [seat for seat in rein.seats if seat not in rein.picked]
        now = tr.t("chicago_poker.ui.reinforcement_waiting", names, round=rein.round, seats=choosing) if choosing else tr.t("chicago_poker.ui.reinforcement_chosen", round=rein.round)
        lines = [title, label(now, 20 if compact else 26, ACCENT, ft.FontWeight.BOLD)]
        for seat in rein.seats:
            sent = seat in rein.picked
            lines.append(
                ft.Row(
                    [
                        player_chip(tr, names, ctx.colours, seat, 16 if compact else 20),
                        card_back(ctx, seat, size) if sent else empty_slot("down", size),
                        label(tr.t("chicago_poker.ui.sent") if sent else tr.t("chicago_poker.ui.choosing"), 18 if compact else 22, INK if sent else MUTED),
                    ],
                    spacing=8,
                    # a narrow board (a phone) puts the words under the card: cut at the edge, they
                    # said "has chosen a car"
                    wrap=True,
                    run_spacing=4,
                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                )
            )
        for pick in rein.deck_cards:
            lines.append(label(tr.t("chicago_poker.ui.deck_card_for", names, seat=pick.seat), 16, MUTED))
        steps.append(lines)

    # 4. the verdict and why
    if shootout.winner is not None:
        lines = [title, ft.Row([player_chip(tr, names, ctx.colours, shootout.winner, 20 if compact else 26), label(tr.t("chicago_poker.ui.takes", business=shootout.business, kind=shootout.kind), 20 if compact else 26, INK, ft.FontWeight.BOLD)], wrap=True)]
        lines.append(label(why(ctx, shootout), 18 if compact else 22, INK))
        lines.append(label(tr.t("chicago_poker.ui.decided_by", how=shootout.decided_by), 16, MUTED))
        steps.append(lines)
    return steps


def pick_cells(ctx: GameContext, pick: Pick, size: float) -> list[ft.Control]:
    tr = ctx.tr
    if pick.card is not None:
        cells: list[ft.Control] = [card_face(pick.card, size)]
        if pick.source == "deck":
            cells.append(label(tr.t("chicago_poker.ui.from_deck"), 15, MUTED))
        return cells
    if pick.special is not None:
        return [label(tr.t("chicago_poker.ui.special_zero", special=pick.special), 18, INK)]
    return [label(tr.t("chicago_poker.ui.nothing_sent"), 18, MUTED)]


def why(ctx: GameContext, shootout: Shootout) -> str:
    """Why the winner wins, in the engine's own words."""
    tr = ctx.tr
    names = ctx.names
    winner = shootout.winner
    entries = shootout.entries
    how = shootout.decided_by
    if how == "alone":
        return tr.t("chicago_poker.won_alone", names, seat=winner, business=shootout.business)
    if how == "category":
        return tr.t("chicago_poker.won_category", names, seat=winner, hand=entries[0].category, other=entries[1].category)
    if how == "tiebreak":
        return tr.t(
            "chicago_poker.won_tiebreak",
            names,
            seat=winner,
            hand=entries[0].category,
            ranks=", ".join(map(str, entries[0].ranks)),
            other_ranks=", ".join(map(str, entries[1].ranks)) or "—",
        )
    last = shootout.rounds[-1].picks if shootout.rounds else ()
    best = max((p.value() for p in last), default=0)
    if how == "lot":
        return tr.t("chicago_poker.won_lot", names, seats=[p.seat for p in last if p.value() == best], seat=winner)
    return tr.t("chicago_poker.won_reinforcement", names, seat=winner, value=best)


#: `ctx.ui` entries: the props and builder of the shootout step last shown, and its (index, total)
LAST_SHOOTOUT_STEP, LAST_SHOOTOUT_INDEX = "chicago_poker.last_step", "chicago_poker.last_step_index"


def shootout_panel(ctx: GameContext, view: View, shootout: Shootout | None) -> ft.Control:
    """The shootout's steps, one at a time, under its Previous and Next. Mounted, hidden, while no
    shootout is shown (`shootout` None): a reveal then sends the step, not the panel around it."""
    if shootout is None:
        # the last step shown stays in it, hidden: hiding it sends a flag, not its removal
        props, build = ctx.ui.get(LAST_SHOOTOUT_STEP) or (None, lambda: ft.Column([], tight=True))
        step = ctx.part("shootout-step", props, build)
        footer = shootout_footer(ctx, *ctx.ui.get(LAST_SHOOTOUT_INDEX, (0, 1)))
        return ctx.group("shootout", False, [step, footer], lambda children: panel(children, ident="shootout", border=ACCENT, visible=False))
    # opens on the newest step (views/steps.py): the round being played, the verdict once won;
    # the set is this shootout (by its number) as far as it has gone
    number = len(view.shootouts) - (1 if shootout.winner is not None else 0)
    about = (number, shootout.business, len(shootout.rounds), shootout.winner)
    rein = view.reinforcement if shootout.winner is None else None
    total = 1 + len(shootout.rounds) + (1 if rein is not None else 0) + (1 if shootout.winner is not None else 0)
    index = shown_step(ctx, STEP_KEY, about, total)
    props = (shootout, rein, view.waiting_for if rein is not None else (), index)

    def build_step() -> ft.Control:
        return ft.Column(shootout_steps(ctx, view, shootout)[index], spacing=8, tight=True)

    ctx.ui[LAST_SHOOTOUT_STEP] = (props, build_step)
    ctx.ui[LAST_SHOOTOUT_INDEX] = (index, total)
    step = ctx.part("shootout-step", props, build_step)
    return ctx.group("shootout", True, [step, shootout_footer(ctx, index, total)], lambda children: panel(children, ident="shootout", border=ACCENT))


def shootout_footer(ctx: GameContext, index: int, total: int) -> ft.Control:
    """"Step 2 of 3" and the step buttons: on a phone under each other, on the board in a row that
    wraps on a narrow board (a row nested in a wrap takes a whole line)."""
    step = ctx.part("shootout-step-count", (index, total), lambda: label(ctx.tr.t("ui.step", n=index + 1, total=total), 16, MUTED))
    buttons = step_buttons(ctx, STEP_KEY, index, total)
    if ctx.seat is not None:
        return ctx.group("shootout-footer", None, [step, buttons], lambda children: ft.Column(children, spacing=4, tight=True))
    return ctx.group(
        "shootout-footer", None, [step, buttons], lambda children: ft.Row(children, spacing=12, run_spacing=4, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    )


def reveal_subject(ctx: GameContext, view: View) -> str | None:
    """What the reveal turns up: a shootout's face-down cards, or its reinforcements, at the
    business named (nobody chose anything before a shootout's own reveal)."""
    at = view.reinforcement.business if view.pending_reveal == "reinforcements" and view.reinforcement is not None else view.reveal_business
    business = next((b for b in view.businesses if b.id == at), None)
    if not view.awaiting_reveal or business is None:
        return None
    if view.pending_reveal == "reinforcements":
        return ctx.tr.t("chicago_poker.ui.reveal_due_reinforcements", business=business.id, kind=business.kind)
    marker = next((column.seat for column in business.columns if column.marker), None)
    if marker is None:
        return ctx.tr.t("chicago_poker.ui.reveal_due_shootout_at", business=business.id, kind=business.kind)
    return ctx.tr.t("chicago_poker.ui.reveal_due_shootout", ctx.names, business=business.id, kind=business.kind, seat=marker)
