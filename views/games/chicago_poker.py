"""Chicago Poker on screen: the businesses with every player's column (board), the player's hand
size, card entry, special cards and reinforcements (phone).

The board shows only public things: face-up cards, the backs of face-down ones, markers, hand
sizes, controlled tiles, the shootout being resolved (stepped through by tapping: a view state
in ctx.ui). The host board enters public entries for the current player: business tiles, face-up
cards, draws, the end of a turn, the order of shootouts, top cards of the deck. A face-down card,
a Bribe and a reinforcement are entered only on the owner's phone.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft

from companion.games.chicago_poker import COLOURS, COLUMN_MAX, LIMOUSINE_MAX, VALUES, Card, View
from companion.games.poker_hands import RECOMMENDED_RANKING
from views.text_metrics import text_width
from views.context import GameContext, SetupContext
from views.steps import shown_step, step_buttons
from views.common import (
    ACCENT,
    COLOUR_HEX,
    FELT_LIGHT,
    INK,
    MUTED,
    PANEL,
    PEEK_KEY,
    act_button,
    big_button,
    choice_target,
    glyph,
    handler,
    icon_button,
    label,
    player_chip,
    draft_key,
    private_section,
    role,
    public_view,
    secret_choices,
    secret_face,
    tagged,
    text_on,
)

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


def card_text(ctx: GameContext | SetupContext, card: Any) -> str:
    return ctx.tr.t("chicago_poker.ui.card", value=card.value, colour=card.colour)


def card_face(card: Any, size: float = 56, hidden_mark: bool = False) -> ft.Control:
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


def pattern_legend(tr: Any, pattern: str) -> str:
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
    return ft.Column([strip, label(legend, max(13, int(size * 0.9)), INK)], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.END)


def tap(ident: str, content: ft.Control, on_click: Any, *, selected: bool = False, key: str | None = None) -> ft.Control:
    """`key`: for a control acting for a player, keyed by that player (GameContext.act_key)."""
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
    known = {(c.card.value, c.card.colour) for b in view.businesses for col in b.columns for c in col.cards if c.card is not None}
    known.update((c.value, c.colour) for c in view.discard)
    for pick in view.reinforcement.deck_cards if view.reinforcement else ():
        if pick.card is not None:
            known.add((pick.card.value, pick.card.colour))
    if view.me is not None:
        known.update((h.card.value, h.card.colour) for h in view.me.face_down)
        if view.me.my_pick is not None and view.me.my_pick.card is not None:
            known.add((view.me.my_pick.card.value, view.me.my_pick.card.colour))
    return known


def picked_card(ctx: GameContext, key: Any) -> tuple[int | None, str | None]:
    chosen = ctx.ui.get(key) or {}
    return chosen.get("value"), chosen.get("colour")


#: the ring marking a picked value or colour: dark and thin, seen by the owner only
PICK_RING = "#37474F"


#: ctx.ui key of the card the page's picker enters now, and the cards it refuses (a page has one
#: picker at a time: the board's face-up or deck card, a phone's play or reinforcement). Its
#: buttons read it at the tap, so a button kept from an earlier drawing enters this drawing's card.
PICKER = "chicago_poker.picker"


async def choose_card_part(ctx: GameContext, field: str, item: Any) -> None:
    key, known = ctx.ui[PICKER]
    chosen = dict(ctx.ui.get(key) or {})
    chosen[field] = item
    if field == "value" and chosen.get("colour") and (item, chosen["colour"]) in known:
        chosen.pop("colour")
    ctx.ui[key] = chosen
    await ctx.rerender()


def card_picker(ctx: GameContext, view: View, key: Any, compact: bool) -> ft.Control:
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
            border=ft.Border.all(3, PICK_RING if chosen else "#ECEFF1"),
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
        value_buttons.append(ctx.part(f"pick-value-{n}", (n, gone, n == value, size, compact), lambda n=n, gone=gone: value_button(n, gone, n == value)))
    if compact:  # phone: 3 rows of 5
        rows: list[ft.Control] = [
            ctx.group(f"pick-values-{i}", None, value_buttons[i : i + 5], lambda buttons: ft.Row(buttons, spacing=6)) for i in range(0, len(value_buttons), 5)
        ]
    else:  # board: one row of 15
        rows = [ctx.group("pick-values", None, value_buttons, lambda buttons: ft.Row(buttons, spacing=4, wrap=True, run_spacing=4))]
    colours = []
    for c in COLOURS:
        gone = value is not None and (value, c) in known
        colours.append(ctx.part(f"pick-colour-{c}", (c, gone, c == colour, size, compact), lambda c=c, gone=gone: colour_button(c, gone, c == colour)))
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


class _Card:
    """A (value, colour) pair shaped like the engine's Card, for drawing."""

    def __init__(self, value: int, colour: str):
        self.value = value
        self.colour = colour


def card_payload(value: int, colour: str) -> dict[str, Any]:
    return {"value": value, "colour": colour}


def play_buttons(ctx: GameContext, view: View, seat: int, plays: Any, key: Any, compact: bool) -> ft.Control:
    """One button per business where `seat`'s next card may go, saying face up or face down: each
    a part (a pick redraws their colours, not the buttons)."""
    tr = ctx.tr
    value, colour = picked_card(ctx, key)
    ready = value is not None and colour is not None
    kinds = {b.id: b.kind for b in view.businesses}
    buttons = []
    texts: list[tuple[str, str]] = []
    for business, face in plays:
        text = tr.t("chicago_poker.ui.play_at", business=business, kind=kinds[business])
        face_text = tr.t("chicago_poker.ui.goes_up") if face == "up" else tr.t("chicago_poker.ui.goes_down")
        texts.append((text, face_text))
        card = card_payload(value, colour) if ready else None
        buttons.append(
            ctx.part(
                f"play-{business}-button",
                (business, face, card, seat, text, face_text, compact),
                lambda business=business, face=face, card=card, text=text, face_text=face_text: play_button(ctx, seat, business, face, card, (text, face_text), compact),
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


def business_header(ctx: GameContext, business: Any, card_size: float) -> ft.Control:
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


def business_row(ctx: GameContext, number: int, column: Any, own: dict[int, Any], open_slot: bool, card_size: float) -> ft.Control:
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
                lambda position=position, card=card, hidden_mark=hidden_mark: role(
                    f"c{position}", card_face(card, card_size, hidden_mark=hidden_mark) if card is not None else card_back(ctx, seat, card_size)
                ),
            )
        )
    if open_slot:
        face = column.next_face
        cells.append(ctx.part(f"{row}-open", (face, card_size), lambda: role("o", empty_slot(face, card_size))))
    if column.marker:
        cells.append(ctx.part(f"{row}-marker", card_size, lambda: role("m", marker_icon(card_size * 0.8))))
    return ctx.group(row, None, cells, lambda cells: ft.Row(cells, spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER, key=f"s{seat}"))


def business_row_chip(ctx: GameContext, seat: int, card_size: float) -> ft.Control:
    chip = player_chip(ctx.tr, ctx.names, ctx.colours, seat, int(card_size * 0.26))
    chip.width = card_size * 1.9  # every row's cards start at one line
    return chip


def business_panel(ctx: GameContext, view: View, business: Any, width: float, card_size: float, mine: dict[tuple[int, int], Any] | None = None, compact: bool = False) -> ft.Control:
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


def businesses_grid(ctx: GameContext, view: View, width: float, mine: dict[tuple[int, int], Any] | None = None, compact: bool = False) -> ft.Control:
    if not view.businesses:
        return ctx.part("businesses-none", None, lambda: label(ctx.tr.t("chicago_poker.ui.no_businesses"), 18, MUTED))
    per_row = 1 if compact or width < 700 else 2
    box = (width - 12 * (per_row - 1)) / per_row
    card = 40 if compact else min(60.0, (box - 24) / 8.6)
    panels = [business_panel(ctx, view, b, box, card, mine, compact) for b in view.businesses]
    return ctx.group("businesses", None, panels, lambda panels: ft.Row(panels, wrap=True, spacing=12, run_spacing=12, vertical_alignment=ft.CrossAxisAlignment.START))


def player_standing(ctx: GameContext, seat: int, tiles: Any, hand: int, current: bool, compact: bool) -> ft.Control:
    """A player's hand size and controlled businesses (`tiles`): a group of parts, so a card
    drawn or played builds the hand size alone."""
    key = f"player-{seat}"
    items = [
        ctx.part(f"{key}-chip", compact, lambda: role("p", player_chip(ctx.tr, ctx.names, ctx.colours, seat, 15 if compact else 18))),
        ctx.part(f"{key}-hand", (hand, compact), lambda: role("h", label(ctx.tr.t("chicago_poker.ui.hand_size", hand=hand), 15 if compact else 18, INK, ft.FontWeight.BOLD))),
        *[ctx.part(f"{key}-tile-{i}", (t.kind, compact), lambda i=i, t=t: role(f"t{i}", tile_chip(t.kind, 22 if compact else 30))) for i, t in enumerate(tiles)],
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


def shown_shootout(ctx: GameContext, view: View) -> Any:
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


def shootout_steps(ctx: GameContext, view: View, shootout: Any) -> list[list[ft.Control]]:
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
        top = shootout.entries[0]
        hands.append(label(tr.t("chicago_poker.tied", names, seats=list(shootout.tied), hand=top.category, ranks=", ".join(map(str, top.ranks))), 18 if compact else 22, INK))
    steps.append(hands)

    # 2. each reinforcement round, revealed at once
    for number, rnd in enumerate(shootout.rounds, start=1):
        lines: list[ft.Control] = [title, label(tr.t("chicago_poker.ui.round_revealed", round=number), 20 if compact else 24, ACCENT, ft.FontWeight.BOLD)]
        for pick in rnd.picks:
            lines.append(ft.Row([player_chip(tr, names, ctx.colours, pick.seat, 16 if compact else 20), *pick_cells(ctx, pick, size)], spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER))
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
        lines = [title, label(tr.t("chicago_poker.reinforcement_round", names, round=rein.round, seats=list(view.waiting_for) or list(rein.seats)), 20 if compact else 26, ACCENT, ft.FontWeight.BOLD)]
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


def pick_cells(ctx: GameContext, pick: Any, size: float) -> list[ft.Control]:
    tr = ctx.tr
    if pick.card is not None:
        cells: list[ft.Control] = [card_face(pick.card, size)]
        if pick.source == "deck":
            cells.append(label(tr.t("chicago_poker.ui.from_deck"), 15, MUTED))
        return cells
    if pick.special is not None:
        return [label(tr.t("chicago_poker.ui.special_zero", special=pick.special), 18, INK)]
    return [label(tr.t("chicago_poker.ui.nothing_sent"), 18, MUTED)]


def why(ctx: GameContext, shootout: Any) -> str:
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


def shootout_panel(ctx: GameContext, view: View, shootout: Any) -> ft.Control:
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
    def build() -> ft.Control:
        return ft.Column(shootout_steps(ctx, view, shootout)[index], spacing=8, tight=True)

    ctx.ui[LAST_SHOOTOUT_STEP] = (props, build)
    ctx.ui[LAST_SHOOTOUT_INDEX] = (index, total)
    step = ctx.part("shootout-step", props, build)
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


# --------------------------------------------------------------------------------------------
# the board
# --------------------------------------------------------------------------------------------


def board_body(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    items: list[ft.Control] = [board_prompt(ctx, view)]
    if ctx.acts_for_current:
        items.extend(host_controls(ctx, view))
    items.append(shootout_panel(ctx, view, shown_shootout(ctx, view)))
    toggle = last_shootout_toggle(ctx, view)
    if toggle is not None:
        items.append(toggle)
    items.append(control_row(ctx, view, compact=False))
    items.append(businesses_grid(ctx, view, ctx.width))
    footer = [tr.t("chicago_poker.ui.tiles_left", count=view.tiles_left)]
    if view.discard or view.discard_specials:
        footer.append(tr.t("chicago_poker.ui.discard_count", count=len(view.discard) + len(view.discard_specials)))
    text = " · ".join(footer)
    items.append(ctx.part("board-footer", text, lambda: label(text, 16, MUTED)))
    return ctx.group("board-body", None, items, lambda items: ft.Column(items, spacing=12))


def board_prompt(ctx: GameContext, view: View) -> ft.Control:
    """What the table waits for, in large type: a part drawn from the few fields it says."""
    current = view.current
    props = (
        view.phase,
        view.winners,
        view.end_reason,
        current,
        view.actions_left,
        view.hands[current] if current is not None else None,
        view.tiles_to_enter,
        view.waiting_for,
        view.reinforcement is not None,
        _victory_count(view, view.winners[0]) if view.phase == "over" and view.end_reason and view.winners else None,
    )
    return ctx.part("prompt", props, lambda: board_prompt_text(ctx, view))


def board_prompt_text(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    names = ctx.names
    row: list[ft.Control] = []
    if view.phase == "over":
        row.append(label(tr.t("ui.winner", names, seats=list(view.winners)), 32, ACCENT, ft.FontWeight.BOLD))
        if view.end_reason and view.winners:
            seat = view.winners[0]
            row.append(label(tr.t(view.end_reason, names, seat=seat, count=_victory_count(view, seat)), 20, INK))
        return ft.Semantics(identifier="prompt", key="prompt", content=ft.Column(row, spacing=4))
    if view.phase == "tiles":
        text = tr.t("chicago_poker.ui.enter_tiles", count=view.tiles_to_enter)
    elif view.phase == "actions" and view.current is not None:
        row.append(player_chip(tr, names, ctx.colours, view.current, 26))
        text = tr.t("chicago_poker.ui.actions_left", actions=view.actions_left, hand=view.hands[view.current])
    elif view.phase == "choose_shootout" and view.current is not None:
        row.append(player_chip(tr, names, ctx.colours, view.current, 26))
        text = tr.t("chicago_poker.ui.chooses_shootout")
    elif view.phase == "reinforce" and view.reinforcement is not None:
        text = tr.t("chicago_poker.ui.waiting_reinforcements", names, seats=list(view.waiting_for))
    elif view.phase == "deck_card":
        text = tr.t("chicago_poker.deck_cards_needed", names, seats=list(view.waiting_for))
    else:
        text = tr.t(f"chicago_poker.phase.{view.phase}")
    row.append(label(text, 26, INK, ft.FontWeight.BOLD))
    return ft.Semantics(identifier="prompt", key="prompt", content=ft.Row(row, spacing=10, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER))


def _victory_count(view: View, seat: int) -> int:
    kinds = [t.kind for t in view.controlled[seat]]
    if view.end_reason == "chicago_poker.victory_same_type":
        return max(kinds.count(k) for k in set(kinds))
    if view.end_reason == "chicago_poker.victory_four_types":
        return len(set(kinds))
    return len(kinds)


def host_controls(ctx: GameContext, view: View) -> list[ft.Control]:
    """Public entries the host board may make for the current player."""
    tr = ctx.tr
    legal = view.board_legal
    out: list[ft.Control] = []
    def tiles() -> ft.Control:
        left = dict(view.tiles_left_by_type)
        buttons = []
        # the host's own entries for the table (by: null): not acting for a player, so never
        # guarded as one (a second tile is no double tap of the first)
        for kind in legal.tiles:
            box = ft.Container(
                bgcolor=KIND_HEX[kind],
                border_radius=12,
                padding=ft.Padding.symmetric(horizontal=16, vertical=10),
                content=ft.Column(
                    [
                        ft.Row([ft.Icon(KIND_ICON[kind], color="#FFFFFF", size=30), ft.Text(tr.t(f"chicago_poker.business.{kind}"), size=22, color="#FFFFFF", weight=ft.FontWeight.BOLD)], tight=True),
                        ft.Text(tr.t("chicago_poker.ui.left_of_type", count=left[kind]), size=14, color="#FFFFFF"),
                    ],
                    spacing=2,
                    tight=True,
                ),
            )
            buttons.append(tap(f"tile-{kind}", box, handler(ctx.submit, {"type": "reveal_tile", "by": ctx.seat, "kind": kind}), key=f"tile-{kind}"))
        return ft.Row(buttons, wrap=True, spacing=10, run_spacing=10)

    if view.phase == "tiles" and legal.tiles:
        out.append(ctx.part("host-tiles", (legal.tiles, view.tiles_left_by_type), tiles))
    if view.phase == "choose_shootout" and legal.shootouts and view.current is not None:
        current = view.current
        out.append(
            ctx.part(
                "host-choose",
                (legal.shootouts, current),
                lambda: ft.Row([act_button(ctx, current, tr.t("chicago_poker.ui.resolve", business=b), handler(ctx.submit, {"type": "choose_shootout", "by": current, "business": b}), ident=f"choose-{b}") for b in legal.shootouts], wrap=True),
            )
        )
    if view.phase == "deck_card" and legal.deck_card_for:
        seat = legal.deck_card_for[0]
        key = ("chicago_poker.deck", view.shootout.business if view.shootout else 0, len(view.shootouts), seat, len(view.reinforcement.deck_cards) if view.reinforcement else 0)
        value, colour = picked_card(ctx, key)
        ready = value is not None and colour is not None

        def deck_card() -> ft.Control:
            controls: list[ft.Control] = [
                label(tr.t("chicago_poker.ui.enter_deck_card", ctx.names, seat=seat), 20, INK, ft.FontWeight.BOLD),
                card_picker(ctx, view, key, compact=False),
                act_button(
                    ctx,
                    seat,
                    tr.t("chicago_poker.ui.enter_card"),
                    handler(ctx.submit, {"type": "reveal_deck_card", "by": ctx.seat, "seat": seat, "card": card_payload(value, colour)}) if ready else None,
                    ident="deck-card-enter",
                    disabled=not ready,
                    reason=tr.t("chicago_poker.ui.pick_card_first"),
                ),
            ]
            if view.special_cards:
                controls.append(ft.Row([act_button(ctx, seat, tr.t(f"chicago_poker.special.{k}"), handler(ctx.submit, {"type": "reveal_deck_card", "by": ctx.seat, "seat": seat, "card": k}), ident=f"deck-special-{k}") for k in ("liquidation", "police_raid", "limousine", "revolver", "bribe")], wrap=True))
            return panel(controls, ident="deck-card")

        out.append(ctx.part("host-deck-card", (seat, key, value, colour, known_cards(view), view.special_cards), deck_card))
    if view.phase == "actions" and view.current is not None:
        seat = view.current
        draw, end_turn = legal.draw, legal.end_turn

        def turn_buttons() -> ft.Control:
            buttons: list[ft.Control] = []
            if draw:
                buttons.append(act_button(ctx, seat, tr.t("chicago_poker.ui.draw_for", ctx.names, seat=seat), handler(ctx.submit, {"type": "draw", "by": seat}), ident="draw", named=True))
            if end_turn:
                buttons.append(act_button(ctx, seat, tr.t("chicago_poker.ui.end_turn_for", ctx.names, seat=seat), handler(ctx.submit, {"type": "end_turn", "by": seat}), ident="end-turn", named=True))
            return ft.Row(buttons, wrap=True, spacing=10)

        if draw or end_turn:
            out.append(ctx.part("host-turn", (seat, draw, end_turn), turn_buttons))
        # the face-up entry stays mounted (hidden) once the turn's actions are spent, so the next
        # turn sends what changed in it, not the whole picker again
        card_key = ("chicago_poker.board_card", view.turn, view.actions_left)
        plays = legal.play

        # a group: the picker's and the play buttons' parts change alone as the turn goes on
        title = ctx.part("host-face-up-title", seat, lambda: label(tr.t("chicago_poker.ui.face_up_for", ctx.names, seat=seat), 18, ACCENT, ft.FontWeight.BOLD))
        note = ctx.part("host-face-up-note", None, lambda: label(tr.t("chicago_poker.ui.face_down_on_phone"), 15, MUTED))
        row = ctx.group(
            "host-face-up-row",
            None,
            [play_buttons(ctx, view, seat, plays, card_key, compact=False), note],
            lambda children: ft.Row(children, spacing=12, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        )
        shown = bool(plays)
        out.append(ctx.group("host-face-up", shown, [title, card_picker(ctx, view, card_key, compact=False), row], lambda children: panel(children, ident="board-card", visible=shown)))
        if not plays and view.actions_left:
            out.append(ctx.part("host-face-down-note", None, lambda: label(tr.t("chicago_poker.ui.face_down_on_phone"), 16, MUTED)))
    return out


# --------------------------------------------------------------------------------------------
# the phone
# --------------------------------------------------------------------------------------------


def peeking(ctx: GameContext) -> bool:
    """Whether this seat's secrets are open (held, or shown with a tap): only then is any of them
    drawn, so while hidden neither the page nor what the server sends carries them."""
    return bool(ctx.ui.get(PEEK_KEY))


def waiting_text(ctx: GameContext, view: View, seat: int) -> str | None:
    """What this seat waits for while the game waits for it but its turn has not started."""
    if view.phase == "tiles":
        return ctx.tr.t("chicago_poker.ui.turn_after_tile")
    if view.phase == "deck_card":
        return ctx.tr.t("chicago_poker.ui.deck_card_for_you")
    return None


def seat_body(ctx: GameContext, view: View) -> ft.Control:
    """The public part is drawn from the board's projection (`ctx.board_view`); only the pad's
    section (and the faces of this seat's own cards in the grid while it is open) uses `view.me`."""
    tr = ctx.tr
    me = view.me
    legal = view.my_legal
    assert me is not None and legal is not None
    board: View = public_view(ctx, view)
    seat = me.seat
    items: list[ft.Control] = []
    if board.phase == "over":
        winners = board.winners
        items.append(ctx.part("my-winner", winners, lambda: label(tr.t("ui.winner", ctx.names, seats=list(winners)), 26, ACCENT, ft.FontWeight.BOLD)))
    # hand size and actions: always in sight
    facts = [tr.t("chicago_poker.ui.my_hand", hand=board.hands[seat])]
    if board.phase == "actions" and board.current == seat:
        facts.append(tr.t("chicago_poker.ui.my_actions", actions=board.actions_left))
    fact_line = " · ".join(facts)
    items.append(ctx.part("my-facts", fact_line, lambda: ft.Semantics(identifier="my-facts", key="my-facts", content=label(fact_line, 22, INK, ft.FontWeight.BOLD))))
    if board.hands[seat] > board.hand_limit:
        limit = board.hand_limit
        items.append(ctx.part("my-over-limit", limit, lambda: label(tr.t("chicago_poker.ui.over_limit", limit=limit), 18, ACCENT, ft.FontWeight.BOLD)))

    if board.phase == "tiles":
        items.append(ctx.part("my-board-enters", "tile", lambda: label(tr.t("chicago_poker.ui.board_enters_tile"), 18, MUTED)))
    elif board.phase == "deck_card":
        items.append(ctx.part("my-board-enters", "deck", lambda: label(tr.t("chicago_poker.ui.board_enters_deck_card"), 18, MUTED)))
    if legal.shootouts:
        shootouts = legal.shootouts
        items.append(
            ctx.part(
                "my-choose",
                (shootouts, seat),
                lambda: ft.Column(
                    [
                        label(tr.t("chicago_poker.ui.choose_first"), 20, INK, ft.FontWeight.BOLD),
                        ft.Row([big_button(tr.t("chicago_poker.ui.resolve", business=b), handler(ctx.submit, {"type": "choose_shootout", "by": seat, "business": b}), ident=f"choose-{b}") for b in shootouts], wrap=True),
                    ],
                    spacing=12,
                    tight=True,
                ),
            )
        )
    if legal.reinforce:
        items.append(ctx.part("my-reinforce", None, lambda: panel([label(tr.t("chicago_poker.ui.reinforce_prompt"), 22, ACCENT, ft.FontWeight.BOLD), label(tr.t("chicago_poker.ui.reinforce_secret"), 15, MUTED)], ident="reinforce", border=ACCENT)))
    elif board.phase == "reinforce" and seat not in board.waiting_for:
        others = [s for s in board.waiting_for if s != seat]
        if others:
            items.append(ctx.part("my-waiting", tuple(others), lambda: panel([label(tr.t("ui.waiting_for", ctx.names, seats=others), 16, MUTED)], ident="my-pick")))
    # Everything only this seat knows, and the choices among its own cards, behind the pad. It
    # comes before the turn's other controls, so that the card picker opens in view.
    parts = private_parts(ctx, view, seat)
    if parts or board.phase != "over":
        # mounted through the game, hidden while nothing is private: a turn's start shows it, it
        # does not send it
        hold, release = pad_texts(ctx, view, seat)
        items.append(private_section(ctx, lambda: ft.Column([build() for build in parts], spacing=12), hold_text=hold, release_text=release, visible=bool(parts)))
    if board.phase == "actions" and board.current == seat:
        items.extend(turn_controls(ctx, view, seat))
    elif board.phase != "over":
        items.append(turn_buttons(ctx, seat, draw=False, end_turn=False))
        if board.special_cards:
            items.append(specials_row(ctx, SPECIALS, None, visible=False))
    items.append(shootout_panel(ctx, board, shown_shootout(ctx, board)))
    toggle = last_shootout_toggle(ctx, board)
    if toggle is not None:
        items.append(toggle)
    # While hidden, the grid is the public one (backs, as on the board); while open, it shows the
    # faces of this seat's own face-down cards.
    mine = {(h.business, h.position): h.card for h in me.face_down} if peeking(ctx) else None
    items.append(ctx.part("my-businesses-title", None, lambda: label(tr.t("chicago_poker.ui.businesses"), 18, MUTED)))
    items.append(businesses_grid(ctx, board, ctx.width, mine, compact=True))
    items.append(control_row(ctx, board, compact=True))
    return ctx.group("seat-body", None, items, lambda items: ft.Column(items, spacing=12))


def pad_texts(ctx: GameContext, view: View, seat: int) -> tuple[str, str]:
    """The pad named for what it does now: the app does not know the hand, the phone enters the
    card being played (or sent)."""
    tr = ctx.tr
    legal = view.my_legal
    assert legal is not None
    if view.phase == "actions" and view.current == seat and legal.play and chosen_special(ctx, view) is None:
        down = all(face == "down" for _, face in legal.play)
        return tr.t("chicago_poker.ui.pad_enter_face_down" if down else "chicago_poker.ui.pad_enter_card"), tr.t("chicago_poker.ui.pad_release_card")
    if legal.reinforce:
        return tr.t("chicago_poker.ui.pad_enter_reinforcement"), tr.t("chicago_poker.ui.pad_release_card")
    return tr.t("chicago_poker.ui.pad_see_mine"), tr.t("ui.peek_release")


def private_parts(ctx: GameContext, view: View, seat: int) -> list[Callable[[], ft.Control]]:
    """Builders of the private section's parts, in order: called only while it is open."""
    tr = ctx.tr
    me = view.me
    legal = view.my_legal
    assert me is not None and legal is not None
    parts: list[Callable[[], ft.Control]] = []
    if view.phase == "actions" and view.current == seat and legal.play and chosen_special(ctx, view) is None:
        parts.append(lambda: play_panel(ctx, view, seat))
    if legal.reinforce:
        parts.append(lambda: reinforce_panel(ctx, view, seat))
    elif view.phase == "reinforce" and me.my_pick is not None:
        pick = me.my_pick
        parts.append(lambda: panel([label(tr.t("chicago_poker.ui.my_pick", card=_pick_text(ctx, pick)), 20, INK, ft.FontWeight.BOLD)], ident="my-pick-card"))
    open_ids = {b.id for b in view.businesses}
    if me.bribed or any(raid.business in open_ids for raid in me.raids):
        parts.append(lambda: ft.Column(private_notes(ctx, view), spacing=12))
    if me.face_down:
        parts.append(lambda: my_face_down(ctx, view))
    return parts


def my_face_down(ctx: GameContext, view: View) -> ft.Control:
    """This seat's face-down cards, business by business (also marked on the grid below)."""
    me = view.me
    assert me is not None
    kinds = {b.id: b.kind for b in view.businesses}
    rows: list[ft.Control] = []
    for business in sorted({h.business for h in me.face_down}):
        cards = [card_face(h.card, 40) for h in sorted(me.face_down, key=lambda h: h.position) if h.business == business]
        rows.append(ft.Row([label(ctx.tr.t("chicago_poker.ui.play_at", business=business, kind=kinds[business]), 16, INK, ft.FontWeight.BOLD), *cards], spacing=6, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    return panel(rows, ident="my-face-down")


def _pick_text(ctx: GameContext, pick: Any) -> str:
    if pick.card is not None:
        return card_text(ctx, pick.card)
    if pick.special is not None:
        return ctx.tr.t(f"chicago_poker.special.{pick.special}")
    return ctx.tr.t("chicago_poker.ui.nothing_sent")


def turn_controls(ctx: GameContext, view: View, seat: int) -> list[ft.Control]:
    legal = view.my_legal
    assert legal is not None
    out: list[ft.Control] = []
    special_key = special_ui_key(view)
    special = chosen_special(ctx, view)
    if special is not None:
        out.append(special_panel(ctx, view, seat, special, special_key))
        return out
    out.append(turn_buttons(ctx, seat, legal.draw, legal.end_turn))
    # The card to play (face up or face down) is chosen in the private section: see play_panel.
    if legal.specials or view.special_cards:
        # hidden, not gone, once the turn's actions are spent: the next turn shows it again
        out.append(specials_row(ctx, legal.specials or SPECIALS, special_key, visible=bool(legal.specials)))
    return out


#: the special cards, in the order their buttons stand
SPECIALS = ("liquidation", "police_raid", "limousine", "revolver", "bribe")
#: `ctx.ui` entry: the key under which the special card being played is kept, this drawing
SPECIAL_KEY_NOW = "chicago_poker.special_key"


def specials_row(ctx: GameContext, specials: tuple[str, ...], special_key: Any, visible: bool) -> ft.Control:
    """The special cards the turn may play: mounted, hidden, between this phone's turns (a turn's
    start then shows it, it does not send it)."""
    tr = ctx.tr
    # the handler reads the key of the drawing it was tapped on (the key changes with each action;
    # the buttons do not)
    ctx.ui[SPECIAL_KEY_NOW] = special_key

    async def choose(kind: str) -> None:
        ctx.ui[ctx.ui[SPECIAL_KEY_NOW]] = kind
        await ctx.rerender()

    title = ctx.part("my-specials-title", None, lambda: label(tr.t("chicago_poker.ui.specials"), 18, MUTED))
    buttons = ctx.part(
        "my-specials-buttons",
        specials,
        lambda: ft.Row(
            [big_button(tr.t(f"chicago_poker.special.{k}"), handler(choose, k), ident=f"special-{k}", colour="#CE93D8") for k in specials], wrap=True, spacing=8, run_spacing=8
        ),
    )
    # shown and hidden by its wrapper: a turn's start or end builds no button
    return ctx.group("my-specials", visible, [title, buttons], lambda children: ft.Column(children, spacing=12, tight=True, visible=visible))


def turn_buttons(ctx: GameContext, seat: int, draw: bool, end_turn: bool) -> ft.Control:
    """Draw and End turn: mounted on every phone through the game, shown on the current player's
    by their wrappers (a turn's start sends flags and builds no button)."""
    tr = ctx.tr

    def shown(key: str, visible: bool, button: ft.Control) -> ft.Control:
        return ctx.group(f"{key}-box", visible, [button], lambda children: ft.Container(children[0], visible=visible))

    buttons = [
        shown("my-draw", draw, ctx.part("my-draw", seat, lambda: big_button(tr.t("chicago_poker.ui.draw"), handler(ctx.submit, {"type": "draw", "by": seat}), ident="draw"))),
        shown(
            "my-end-turn",
            end_turn,
            ctx.part("my-end-turn", seat, lambda: big_button(tr.t("chicago_poker.ui.end_turn"), handler(ctx.submit, {"type": "end_turn", "by": seat}), ident="end-turn", colour="#A5D6A7")),
        ),
    ]
    visible = draw or end_turn
    return ctx.group("my-turn", visible, buttons, lambda children: ft.Row(children, wrap=True, spacing=10, visible=visible))


def special_ui_key(view: View) -> Any:
    return ("chicago_poker.special", view.turn, view.actions_left)


def chosen_special(ctx: GameContext, view: View) -> str | None:
    """The special card being played on this phone now (its panel replaces the turn's controls)."""
    special = ctx.ui.get(special_ui_key(view))
    legal = view.my_legal
    return special if legal is not None and special in legal.specials else None


def play_panel(ctx: GameContext, view: View, seat: int) -> ft.Control:
    """Value, colour, then the business: inside the private section (the picker greys out this
    seat's own face-down cards, and a face-down card's choice is secret)."""
    legal = view.my_legal
    assert legal is not None
    key = draft_key(ctx, ("chicago_poker.card", view.turn, view.actions_left))
    return panel(
        [
            label(ctx.tr.t("chicago_poker.ui.play_card"), 17, ACCENT, ft.FontWeight.BOLD),
            card_picker(ctx, view, key, compact=True),
            play_buttons(ctx, view, seat, legal.play, key, compact=True),
        ],
        ident="play-card",
    )


def special_panel(ctx: GameContext, view: View, seat: int, kind: str, special_key: Any) -> ft.Control:
    tr = ctx.tr
    names = ctx.names

    async def cancel() -> None:
        ctx.ui.pop(special_key, None)
        await ctx.rerender()

    controls: list[ft.Control] = [label(tr.t(f"chicago_poker.ui.special_help.{kind}"), 20, ACCENT, ft.FontWeight.BOLD)]
    if kind == "revolver":
        controls.append(big_button(tr.t("chicago_poker.ui.play_special", special=kind), handler(ctx.submit, {"type": "revolver", "by": seat}), ident="special-confirm"))
    elif kind in ("liquidation", "police_raid"):
        options = []
        for business in view.businesses:
            for column in business.columns:
                if column.seat == seat or not column.cards or (kind == "liquidation" and column.marker):
                    continue
                text = tr.t("chicago_poker.ui.target", names, business=business.id, kind=business.kind, seat=column.seat, count=len(column.cards))
                options.append(big_button(text, handler(ctx.submit, {"type": kind, "by": seat, "business": business.id, "target": column.seat}), ident=f"target-{business.id}-{column.seat}", colour="#CE93D8"))
        controls.extend(options or [label(tr.t("chicago_poker.ui.no_target"), 16, MUTED)])
    elif kind == "limousine":
        controls.extend(limousine_controls(ctx, view, seat, special_key))
    elif kind == "bribe":
        pile: list[ft.Control] = []
        for card in view.discard:
            pile.append(tap(f"bribe-{card.value}-{card.colour}", card_face(card, 56), handler(ctx.submit, {"type": "bribe", "by": seat, "card": card_payload(card.value, card.colour)})))
        for k in dict.fromkeys(view.discard_specials):
            pile.append(big_button(tr.t(f"chicago_poker.special.{k}"), handler(ctx.submit, {"type": "bribe", "by": seat, "special": k}), ident=f"bribe-{k}", colour="#CE93D8"))
        if pile:
            controls.append(label(tr.t("chicago_poker.ui.bribe_pick"), 16, MUTED))
            controls.append(ft.Row(pile, wrap=True, spacing=6, run_spacing=6))
        else:
            controls.append(big_button(tr.t("chicago_poker.ui.bribe_empty"), handler(ctx.submit, {"type": "bribe", "by": seat}), ident="special-confirm"))
    controls.append(big_button(tr.t("chicago_poker.ui.cancel"), handler(cancel), ident="special-cancel", colour="#B0BEC5"))
    return panel(controls, ident=f"special-panel-{kind}")


def limousine_controls(ctx: GameContext, view: View, seat: int, special_key: Any) -> list[ft.Control]:
    tr = ctx.tr
    key = (special_key, "limousine")
    chosen = dict(ctx.ui.get(key) or {})
    source = chosen.get("source")
    destination = chosen.get("destination")
    positions: list[int] = list(chosen.get("positions", []))
    # Own face-down cards show their faces only while the private section is open; backs otherwise.
    mine = {(h.business, h.position): h.card for h in view.me.face_down} if view.me and peeking(ctx) else {}

    async def update(changes: dict[str, Any]) -> None:
        ctx.ui[key] = {**chosen, **changes}
        await ctx.rerender()

    out: list[ft.Control] = [label(tr.t("chicago_poker.ui.limo_from"), 16, MUTED)]
    sources = [b for b in view.businesses if b.columns[seat].cards and not b.columns[seat].marker]
    out.append(ft.Row([big_button(str(b.id), handler(update, {"source": b.id, "positions": []}), ident=f"limo-from-{b.id}", colour=ACCENT if b.id == source else "#B0BEC5", width=64) for b in sources], wrap=True))
    if source is not None:
        column = next(b for b in view.businesses if b.id == source).columns[seat]
        cells = []
        for position, cv in enumerate(column.cards, start=1):
            card = cv.card or mine.get((source, position))
            face = card_face(card, 50) if card is not None else card_back(ctx, seat, 50)
            selected = position in positions
            toggled = [p for p in positions if p != position] if selected else [*positions, position]
            order = ft.Text(f"{positions.index(position) + 1}." if selected else " ", size=16, color=ACCENT, weight=ft.FontWeight.BOLD)
            box = ft.Container(
                border=ft.Border.all(4, ACCENT if selected else PANEL),
                border_radius=8,
                content=ft.Column([face, order], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            )
            cells.append(tap(f"limo-card-{position}", box, handler(update, {"positions": toggled}), selected=selected))
        out.append(label(tr.t("chicago_poker.ui.limo_cards", max=LIMOUSINE_MAX), 16, MUTED))
        out.append(ft.Row(cells, wrap=True, spacing=4))
        out.append(label(tr.t("chicago_poker.ui.limo_to"), 16, MUTED))
        targets = [b for b in view.businesses if b.id != source and len(b.columns[seat].cards) < COLUMN_MAX]
        out.append(ft.Row([big_button(str(b.id), handler(update, {"destination": b.id}), ident=f"limo-to-{b.id}", colour=ACCENT if b.id == destination else "#B0BEC5", width=64) for b in targets], wrap=True))
    ready = source is not None and destination is not None and 1 <= len(positions) <= LIMOUSINE_MAX
    action = {"type": "limousine", "by": seat, "source": source, "destination": destination, "positions": positions}
    out.append(act_button(ctx, seat, tr.t("chicago_poker.ui.play_special", special="limousine"), handler(ctx.submit, action) if ready else None, ident="special-confirm", disabled=not ready, reason=tr.t("chicago_poker.ui.limo_pick_first", max=LIMOUSINE_MAX)))
    return out


def reinforce_panel(ctx: GameContext, view: View, seat: int) -> ft.Control:
    tr = ctx.tr
    rein = view.reinforcement
    key = draft_key(ctx, ("chicago_poker.reinforce", rein.business if rein else 0, rein.round if rein else 0))
    value, colour = picked_card(ctx, key)
    ready = value is not None and colour is not None
    # The prompt is outside, on the public part of the page (seat_body); this is the secret choice.
    controls: list[ft.Control] = [
        card_picker(ctx, view, key, compact=True),
        act_button(
            ctx,
            seat,
            tr.t("chicago_poker.ui.send"),
            handler(ctx.submit, {"type": "reinforce", "by": seat, "card": card_payload(value, colour)}) if ready else None,
            ident="reinforce-send",
            disabled=not ready,
            reason=tr.t("chicago_poker.ui.pick_card_first"),
        ),
        big_button(tr.t("chicago_poker.ui.no_gangster"), handler(ctx.submit, {"type": "reinforce", "by": seat}), ident="reinforce-none", colour="#B0BEC5"),
        label(tr.t(f"chicago_poker.ui.no_gangster_help.{view.empty_hand_reinforcement}"), 15, MUTED),
    ]
    if view.special_cards and view.special_reinforcement != "forbidden":
        controls.extend(special_reinforcement_controls(ctx, view, seat, key))
    return panel(controls, ident="reinforce-choice", border=ACCENT)


def special_reinforcement_controls(ctx: GameContext, view: View, seat: int, key: Any) -> list[ft.Control]:
    """Sending a special card. Under the reading of docs/rules/chicago_poker.md#reinforcements ("if_forced") it is allowed only to a player
    holding no gangster card, which the app cannot see: the player confirms it first."""
    tr = ctx.tr
    forced = view.special_reinforcement == "if_forced"
    confirmed = bool((ctx.ui.get(key) or {}).get("no_gangster"))
    out: list[ft.Control] = []
    if forced:

        async def confirm(event: Any) -> None:
            ctx.ui[key] = {**(ctx.ui.get(key) or {}), "no_gangster": bool(event.control.value)}
            await ctx.rerender()

        out.append(label(tr.t("chicago_poker.ui.special_if_forced"), 15, MUTED))
        out.append(tagged("reinforce-no-gangster", ft.Checkbox(label=tr.t("chicago_poker.ui.confirm_no_gangster"), value=confirmed, on_change=confirm)))
    ready = confirmed or not forced
    kinds = ("liquidation", "police_raid", "limousine", "revolver", "bribe")
    texts = [tr.t("chicago_poker.ui.send_special", special=k) for k in kinds]

    def send(i: int, size: int, lines: int, height: float) -> ft.Control:
        # which special is sent is secret: one size and fixed places (a long name made its button
        # wider), plain faces with no ink or hover overlay
        action = {"type": "reinforce", "by": seat, "special": kinds[i], "no_gangster": forced}
        box = secret_face(texts[i], selected=False, on_click=handler(ctx.submit, action) if ready else None, size=size, lines=lines, height=height, face="#CE93D8" if ready else DISABLED_SECRET, text_colour="#111111" if ready else MUTED)
        return ft.Semantics(identifier=f"reinforce-special-{kinds[i]}", key=f"reinforce-special-{kinds[i]}", button=True, content=box)

    # inside the reinforcement panel: 12 px of padding and a 3 px border on each side
    out.append(ft.Semantics(identifier="reinforce-special-choices", key="reinforce-special-choices", content=secret_choices(ctx.width - 30, texts, send, columns=2)))
    return out


#: a secret choice's button that cannot be tapped yet
DISABLED_SECRET = "#37474F"


def private_notes(ctx: GameContext, view: View) -> list[ft.Control]:
    """This seat's own secrets: Police Raid results, cards taken with a Bribe."""
    tr = ctx.tr
    me = view.me
    assert me is not None
    out: list[ft.Control] = []
    open_ids = {b.id for b in view.businesses}
    for raid in me.raids:
        if raid.business not in open_ids:
            continue  # that business was resolved: its cards are public now
        cells: list[ft.Control] = [label(tr.t("chicago_poker.ui.raid_result", ctx.names, business=raid.business, seat=raid.target, count=len(raid.cards)), 16, INK, ft.FontWeight.BOLD)]
        cells.append(ft.Row([card_face(c, 44) for _, c in raid.cards], spacing=4, wrap=True))
        out.append(panel(cells, ident=f"raid-{raid.business}-{raid.target}"))
    if me.bribed:
        taken = ", ".join(card_text(ctx, b.card) if b.card is not None else tr.t(f"chicago_poker.special.{b.special}") for b in me.bribed)
        out.append(label(tr.t("chicago_poker.ui.bribed", cards=taken), 16, INK))
    return out


# --------------------------------------------------------------------------------------------
# the setup form: the table's own hand order (hooks called by views/home.py's setup form)
# --------------------------------------------------------------------------------------------

#: a short example of each hand category, as (value, colour) cards; each one is that category
#: under the recommended order (tests/test_chicago_setup.py checks it)
HAND_EXAMPLES: dict[str, tuple[tuple[int, str], ...]] = {
    "chicago_poker": ((9, "c1"), (9, "c2"), (9, "c3"), (9, "c4"), (9, "c5")),
    "straight_flush": ((5, "c2"), (6, "c2"), (7, "c2"), (8, "c2"), (9, "c2")),
    "rainbow_straight": ((3, "c1"), (4, "c2"), (5, "c3"), (6, "c4"), (7, "c5")),
    "four_of_a_kind": ((12, "c1"), (12, "c2"), (12, "c3"), (12, "c4"), (2, "c5")),
    "full_house": ((8, "c1"), (8, "c2"), (8, "c3"), (4, "c4"), (4, "c5")),
    "flush": ((2, "c3"), (5, "c3"), (9, "c3"), (11, "c3"), (14, "c3")),
    "straight": ((10, "c1"), (11, "c1"), (12, "c2"), (13, "c2"), (14, "c4")),
    "three_of_a_kind": ((7, "c1"), (7, "c2"), (7, "c3"), (2, "c4"), (13, "c5")),
    "two_pairs": ((11, "c1"), (11, "c2"), (6, "c3"), (6, "c4"), (1, "c5")),
    "pair": ((4, "c1"), (4, "c2"), (9, "c3"), (12, "c4"), (15, "c5")),
    "high_card": ((15, "c1"), (12, "c2"), (8, "c3"), (5, "c4"), (3, "c5")),
}


async def setup_load(ctx: SetupContext) -> None:
    """The editor starts from the recommended order (kept while the host switches rules)."""
    ctx.state["ranking"] = list(RECOMMENDED_RANKING)


def custom_ranking_chosen(ctx: SetupContext) -> bool:
    return ctx.rules.get("hand_ranking") == "custom"


def setup_fields(ctx: SetupContext) -> list[ft.Control]:
    return [ranking_editor(ctx)] if custom_ranking_chosen(ctx) else []


def setup_values(ctx: SetupContext) -> dict[str, Any]:
    """Setup.custom_ranking, only when the table plays its own order (else the default stays)."""
    if not custom_ranking_chosen(ctx):
        return {}
    return {"custom_ranking": list(ctx.state.setdefault("ranking", list(RECOMMENDED_RANKING)))}


def hand_example(ctx: SetupContext, category: str) -> ft.Control:
    """Small card faces of an example hand; screen readers hear the cards' names instead."""
    cards = [Card(value=value, colour=colour) for value, colour in HAND_EXAMPLES[category]]
    spoken = ctx.tr.t("chicago_poker.setup.example", cards=", ".join(card_text(ctx, c) for c in cards))
    return ft.Semantics(
        identifier=f"ranking-example-{category}",
        label=spoken,
        exclude_semantics=True,
        content=ft.Row([card_face(c, 34) for c in cards], spacing=2, tight=True),
    )


def ranking_editor(ctx: SetupContext) -> ft.Control:
    """The hand categories, best first, each movable one place up or down."""
    tr = ctx.tr
    ranking: list[str] = ctx.state.setdefault("ranking", list(RECOMMENDED_RANKING))

    async def move(category: str, delta: int) -> None:
        # by category, not index: a tap on a row drawn before the last move still moves that hand
        index = ranking.index(category)
        other = index + delta
        if 0 <= other < len(ranking):
            ranking[index], ranking[other] = ranking[other], ranking[index]
            await ctx.rerender()

    async def reset() -> None:
        ranking[:] = RECOMMENDED_RANKING
        await ctx.rerender()

    def arrow(category: str, direction: str, icon: Any, delta: int, disabled: bool) -> ft.Control:
        ident = f"ranking-{direction}-{category}"
        return ft.Semantics(
            identifier=ident,
            key=ident,
            button=True,
            content=icon_button(icon, tr.t(f"chicago_poker.setup.move_{direction}", hand=category), handler(move, category, delta), colour=INK, disabled=disabled),
        )

    rows: list[ft.Control] = []
    for index, category in enumerate(ranking):
        # name and example side by side on a tablet, one above the other on a narrow screen
        named = ft.Row(
            [
                ft.Container(width=190, content=label(tr.t(f"chicago_poker.hand.{category}"), 18, INK, ft.FontWeight.BOLD)),
                hand_example(ctx, category),
            ],
            wrap=True,
            spacing=8,
            run_spacing=4,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        row = ft.Row(
            [
                ft.Container(width=36, content=label(f"{index + 1}.", 18, MUTED)),
                ft.Container(expand=True, content=named),
                arrow(category, "up", ft.Icons.ARROW_UPWARD, -1, index == 0),
                arrow(category, "down", ft.Icons.ARROW_DOWNWARD, 1, index == len(ranking) - 1),
            ],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        # keyed by category, so a move reorders the rows instead of redrawing each one
        rows.append(ft.Semantics(identifier=f"ranking-row-{category}", key=f"ranking-row-{category}", content=row))
    return panel(
        [
            label(tr.t("chicago_poker.setup.ranking_title"), 18, INK, ft.FontWeight.BOLD),
            label(tr.t("chicago_poker.setup.ranking_help"), 15, MUTED),
            *rows,
            big_button(
                tr.t("chicago_poker.setup.ranking_reset"),
                handler(reset),
                ident="ranking-reset",
                colour="#B0BEC5",
                disabled=ranking == list(RECOMMENDED_RANKING),
            ),
        ],
        ident="ranking-editor",
    )
