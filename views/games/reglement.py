"""Règlement de comptes on screen: the long dinner table (board) and a player's gang, rules helper
and hand note (phone).

Everything is drawn from the projection (`companion/games/reglement.py` View). The cards are
physical and played face up: the host board enters the current player's plays (pick the card,
tap the seat), and a player may also play from their phone's rules helper, which lists only the
targets that are legal right now (`my_options`). The board highlights legal targets from
`turn_options`, which its projection computes from the public table alone.

View state (a selected card, chosen seats, the ruling being shown) lives in `ctx.ui`, keyed by
turn and cards played so it resets by itself; it is never a game action.
"""

from __future__ import annotations

import asyncio
from typing import Any

import flet as ft

from companion.games.reglement import CARDS, KINDS, View
from companion.games.reglement_board import default_board
from companion.reglement_library import LibraryError, ReglementLibrary, preset_problem
from views.context import GameContext, SetupContext
from views.games import GameUI
from views.steps import shown_step as step_at
from views.steps import step_buttons
from views.common import (
    act_button,
    ACCENT,
    COLOUR_HEX,
    DANGER,
    INK,
    MUTED,
    PANEL,
    big_button,
    choice_name,
    glyph,
    handler,
    icon_button,
    label,
    player_chip,
    private_section,
    role,
    public_view,
    secret_choices,
    secret_face,
    tagged,
    text_on,
)

BUSINESS_ICON = {"bar": ft.Icons.LIQUOR, "restaurant": ft.Icons.RESTAURANT, "gambling": ft.Icons.CASINO}
BUSINESS_COLOUR = {"bar": "#FFB300", "restaurant": "#26C6DA", "gambling": "#F06292"}
MARK_ICON = {
    "cash_register": ft.Icons.POINT_OF_SALE,
    "glass": ft.Icons.WINE_BAR,
    "knife": ft.Icons.CONTENT_CUT,
    "revolver": ft.Icons.GPS_FIXED,
}
CARD_COLOUR = {
    "knife": "#EF9A9A",
    "pan": "#FFAB91",
    "order_cake": "#F8BBD0",
    "pass_cake": "#E1BEE7",
    "boum": "#FFCC80",
    "pills": "#B3E5FC",
    "alerte": "#FFF59D",
    "move": "#C5E1A5",
}
SEAT_BG = "#1F4537"
TABLE_WOOD = "#5D4037"
HIGHLIGHT = ACCENT
CHOSEN = "#FFFFFF"
BLAST = "#FF5252"


# --------------------------------------------------------------------------------------------
# small helpers on the view
# --------------------------------------------------------------------------------------------


def seat_map(view: View) -> dict[str, Any]:
    return {s.id: s for s in view.seats}


def gangster_at(view: View, seat: Any) -> Any:
    return view.gangsters[seat.gangster] if seat.gangster is not None else None


def kind_name(ctx: GameContext, kind: str) -> str:
    return ctx.tr.t(f"reglement.kind.{kind}")


def current_player(view: View) -> int | None:
    if view.phase in ("seating", "alerte"):
        return view.placer
    if view.phase in ("play", "wake"):
        return view.turn
    return None


def victims_text(ctx: GameContext, view: View, kills: tuple[int, ...]) -> str:
    tr = ctx.tr
    if not kills:
        return tr.t("reglement.help.nobody")
    parts = []
    for index in kills:
        g = view.gangsters[index]
        parts.append(tr.t("reglement.help.victim", ctx.names, owner=g.owner, kind=kind_name(ctx, g.kind), at=g.seat))
    return tr.list(parts)


def target_sentence(ctx: GameContext, view: View, t: Any) -> str:
    """One legal use of a card, in words ("Pan!: you can shoot Blue's Cogneur at K from ...")."""
    tr = ctx.tr
    names = ctx.names
    if t.card in ("knife", "pan"):
        text = tr.t(f"reglement.help.{t.card}", names, owner=t.owner, kind=kind_name(ctx, t.kind), at=t.seat, from_kind=kind_name(ctx, t.from_kind), from_at=t.from_seat)
        return text + (tr.t("reglement.ui.asleep_suffix") if t.asleep else "")
    if t.card == "order_cake":
        return tr.t("reglement.help.order_cake", names, at=t.seat, victims=victims_text(ctx, view, t.kills))
    if t.card == "pass_cake":
        direction = tr.t(f"reglement.direction.{t.direction}")
        return tr.t("reglement.help.pass_cake", names, owner=t.owner, from_at=t.seat, direction=direction, at=t.to_seat, victims=victims_text(ctx, view, t.kills))
    if t.card == "boum":
        return tr.t("reglement.help.boum", names, owner=t.owner, at=t.seat, victims=victims_text(ctx, view, t.kills))
    if t.card == "pills":
        code = "reglement.help.pills_kill" if t.asleep else "reglement.help.pills"
        return tr.t(code, names, owner=t.owner, kind=kind_name(ctx, t.kind), at=t.seat)
    if t.card == "alerte":
        return tr.t("reglement.help.alerte")
    return tr.t("reglement.help.move", names, from_kind=kind_name(ctx, t.from_kind), from_at=t.from_seat, at=t.seat)


def target_action(t: Any, by: int) -> dict[str, Any]:
    """The action playing `t` (pills: one seat; the phone gathers several itself)."""
    if t.card in ("knife", "pan"):
        return {"type": t.card, "by": by, "target": t.seat, "from_seat": t.from_seat}
    if t.card == "order_cake":
        return {"type": "order_cake", "by": by, "seat": t.seat}
    if t.card == "pass_cake":
        return {"type": "pass_cake", "by": by, "cake_seat": t.seat, "direction": t.direction}
    if t.card == "boum":
        return {"type": "boum", "by": by, "cake_seat": t.seat}
    if t.card == "pills":
        return {"type": "pills", "by": by, "targets": [t.seat]}
    if t.card == "alerte":
        return {"type": "alerte", "by": by}
    return {"type": "move", "by": by, "from_seat": t.from_seat, "to_seat": t.seat}


# --------------------------------------------------------------------------------------------
# contract functions
# --------------------------------------------------------------------------------------------


def status_line(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    phase = tr.t(f"reglement.phase.{view.phase}")
    if view.turn_number:
        text = tr.t("reglement.ui.status", number=view.turn_number, phase=phase, amount=view.bank)
    else:
        text = tr.t("reglement.ui.status_seating", phase=phase, amount=view.bank)
    return label(text, 18, MUTED)


def seat_summary(ctx: GameContext, view: View, seat: int) -> str:
    gang = view.gangs[seat]
    money = ctx.tr.money(gang.money)
    if not gang.in_play:
        return ctx.tr.t("reglement.ui.summary_out", money=money)
    return ctx.tr.t("reglement.ui.summary", money=money, living=gang.living)


def is_my_turn(view: View, seat: int) -> bool:
    return view.phase in ("seating", "alerte", "play", "wake") and view.waiting_for == (seat,)


# --------------------------------------------------------------------------------------------
# the table drawing (shared by board and phone)
# --------------------------------------------------------------------------------------------


def layout(view: View) -> dict[str, tuple[float, float]]:
    """Seat id -> (x, y) in 0..1; seats without a drawing hint go round two rows."""
    n = len(view.seats)
    top = (n + 1) // 2
    out: dict[str, tuple[float, float]] = {}
    for i, seat in enumerate(view.seats):
        if seat.x is not None and seat.y is not None:
            out[seat.id] = (seat.x, seat.y)
        elif i < top:
            out[seat.id] = (i / max(top - 1, 1), 0.2)
        else:
            out[seat.id] = (1 - (i - top) / max(n - top - 1, 1), 0.8)
    return out


def gangster_token(ctx: GameContext, view: View, g: Any, size: float) -> ft.Control:
    """A gangster: the player's colour, their shape glyph and the type's letter (colour-blind
    players read the shape and the letter); a sleeper wears a "Zz" badge and a pale ring."""
    colour = ctx.colours[g.owner]
    ink = text_on(colour)
    letter = ctx.tr.t(f"reglement.kind_letter.{g.kind}")
    return ft.Container(
        width=size,
        height=size,
        bgcolor=COLOUR_HEX[colour],
        border_radius=size * 0.22,
        border=ft.Border.all(4, "#B3E5FC") if g.asleep else ft.Border.all(2, "#000000"),
        alignment=ft.Alignment.CENTER,
        badge=ft.Badge(label="Zz", bgcolor="#B3E5FC", text_color="#0D47A1") if g.asleep else None,
        content=ft.Text(
            glyph(colour),
            size=int(size * 0.26),
            color=ink,
            spans=[ft.TextSpan(letter, style=ft.TextStyle(size=int(size * 0.5), weight=ft.FontWeight.BOLD))],
        ),
    )


def cake_badge(ctx: GameContext, owner: int, size: float) -> ft.Control:
    """A cake on a seat: its owner's colour as the ring and their shape glyph as the badge."""
    colour = ctx.colours[owner]
    return ft.Container(
        bgcolor="#FFFFFF",
        border=ft.Border.all(3, COLOUR_HEX[colour]),
        border_radius=size,
        padding=ft.Padding.symmetric(horizontal=4, vertical=0),
        content=ft.Icon(ft.Icons.CAKE, size=size, color="#C2185B"),
        badge=ft.Badge(label=glyph(colour), bgcolor=COLOUR_HEX[colour], text_color=text_on(colour)),
    )


def seat_tile(ctx: GameContext, view: View, seat: Any, w: float, h: float, ring: str | None, on_tap: Any, bottom: bool, acts_for: int | None = None) -> ft.Control:
    """`acts_for`: the player a tap on this chair acts for (keyed by them: GameContext.act_key)."""
    icon = max(12, int(w * 0.29))
    ink = "#111111" if seat.business else INK
    marks: list[ft.Control] = []
    if seat.business:
        marks.append(ft.Icon(BUSINESS_ICON[seat.business], size=icon, color=ink))
    for mark in ("cash_register", "glass", "knife", "revolver"):
        if getattr(seat, mark):
            marks.append(ft.Icon(MARK_ICON[mark], size=icon, color="#111111" if seat.business else ACCENT))
    name = ft.Text(
        seat.id,
        size=int(w * 0.32),
        weight=ft.FontWeight.BOLD,
        color=ink,
        text_align=ft.TextAlign.CENTER,
        spans=[ft.TextSpan("X", style=ft.TextStyle(color=BLAST))] if seat.no_shoot else None,
    )
    head: list[ft.Control] = [name]
    if marks:
        head.append(ft.Row(marks, spacing=0, alignment=ft.MainAxisAlignment.CENTER, wrap=True, tight=True))
    g = gangster_at(view, seat)
    size = w * 0.74
    token: ft.Control = (
        gangster_token(ctx, view, g, size)
        if g is not None
        else ft.Container(width=size, height=size, border=ft.Border.all(1, "#4F7F6C"), border_radius=size * 0.22)
    )
    body: list[ft.Control] = [*head, token]
    if seat.cake is not None:
        body.append(cake_badge(ctx, seat.cake, max(12, int(w * 0.36))))
    if bottom:
        body.reverse()  # the bottom row faces the table: marks nearest the table, like the top row
    bg = BUSINESS_COLOUR[seat.business] if seat.business else SEAT_BG
    container = ft.Container(
        width=w,
        height=h,
        bgcolor=bg,
        border_radius=8,
        border=ft.Border.all(4, ring) if ring else ft.Border.all(1, "#2E6B55"),
        padding=2,
        on_click=on_tap,
        content=ft.Column(
            body,
            spacing=2,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            alignment=ft.MainAxisAlignment.END if bottom else ft.MainAxisAlignment.START,
        ),
    )
    ident = f"chair-{seat.id}"
    key = ctx.act_key(ident, acts_for) if acts_for is not None else ident
    return ft.Semantics(identifier=ident, key=key, button=on_tap is not None, label=seat_description(ctx, view, seat), content=container)


def seat_description(ctx: GameContext, view: View, seat: Any) -> str:
    """The seat in words (for screen readers and the seat-info line)."""
    tr = ctx.tr
    bits = [tr.t("reglement.ui.seat_info", at=seat.id)]
    if seat.business:
        bits.append(tr.t(f"reglement.business.{seat.business}"))
    for mark in ("cash_register", "glass", "knife", "revolver", "no_shoot"):
        if getattr(seat, mark):
            bits.append(tr.t(f"reglement.mark.{mark}"))
    if seat.faces:
        bits.append(tr.t("reglement.ui.faces", at=seat.faces))
    g = gangster_at(view, seat)
    if g is not None:
        who = tr.t("reglement.ui.gangster_of", ctx.names, owner=g.owner, kind=kind_name(ctx, g.kind))
        bits.append(who + (tr.t("reglement.ui.asleep_suffix") if g.asleep else ""))
    else:
        bits.append(tr.t("reglement.label.empty_seat"))
    if seat.cake is not None:
        bits.append(tr.t("reglement.ui.cake_of", ctx.names, owner=seat.cake))
    return " · ".join(bits)


#: A drawing whose tiles would be narrower than this (a phone) is cut into pieces, if its caller
#: allows it (`table_drawing(min_tile=...)`): at 360 px, 15 seats a side leave 18 px tiles.
NARROW_TILE = 30.0


def table_drawing(
    ctx: GameContext,
    view: View,
    width: float,
    rings: dict[str, str],
    tap: Any,
    centre: list[ft.Control],
    max_tile: float = 84,
    min_tile: float | None = None,
) -> ft.Control:
    """The long table: seats placed by their drawing hints, facing seats straight across.

    min_tile: where the tiles would be narrower than NARROW_TILE, the table is cut crosswise into
    pieces with tiles at least this wide, shown one under another from the left end (seats still
    face each other across each piece), the centre above them; None: one drawing however narrow."""
    places = layout(view)
    rows: dict[float, int] = {}
    for _x, y in places.values():
        rows[round(y, 2)] = rows.get(round(y, 2), 0) + 1
    per_row = max(rows.values())
    tile_w = max(20.0, min(max_tile, (width - 4) / per_row - 3))
    ys = [y for _, y in places.values()]
    y_range = (min(ys), max(ys))
    if min_tile is not None and tile_w < NARROW_TILE:
        return table_in_pieces(ctx, view, places, width, y_range, rings, tap, centre, max_tile, min_tile, per_row)
    xs = [x for x, _ in places.values()]
    x0, x1 = min(xs), max(xs)
    span = (width - tile_w) / (x1 - x0) if x1 > x0 else 0
    gap = max(56.0, tile_w * 0.9)
    return table_piece(ctx, view, view.seats, places, width, tile_w, gap, x0, span, y_range, rings, tap, centre)


def table_piece(
    ctx: GameContext,
    view: View,
    seats: Any,
    places: dict[str, tuple[float, float]],
    width: float,
    tile_w: float,
    gap: float,
    x0: float,
    span: float,
    y_range: tuple[float, float],
    rings: dict[str, str],
    tap: Any,
    centre: list[ft.Control],
) -> ft.Control:
    """`seats` round a strip of table `gap` px wide (holding `centre`): x0 at the left edge,
    `span` px per unit of the drawing hints' x."""
    tile_h = tile_w * 2.1
    height = 2 * tile_h + gap
    y0, y1 = y_range
    tiles: list[ft.Control] = [
        ft.Container(
            left=tile_w * 0.3,
            top=tile_h + 6,
            width=width - tile_w * 0.6,
            height=gap - 12,
            bgcolor=TABLE_WOOD,
            border_radius=(gap - 12) / 2,
            alignment=ft.Alignment.CENTER,
            content=ft.Row(centre, alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=18, wrap=True) if centre else None,
        )
    ]
    for seat in seats:
        x, y = places[seat.id]
        left = (x - x0) * span
        frac = (y - y0) / (y1 - y0) if y1 > y0 else 0
        top = frac * (height - tile_h)
        on_tap = handler(tap, seat.id) if tap is not None else None
        tiles.append(ft.Container(left=left, top=top, content=seat_tile(ctx, view, seat, tile_w, tile_h, rings.get(seat.id), on_tap, frac > 0.5, getattr(tap, "acts_for", None))))
    return ft.Stack(tiles, width=width, height=height)


def table_in_pieces(
    ctx: GameContext,
    view: View,
    places: dict[str, tuple[float, float]],
    width: float,
    y_range: tuple[float, float],
    rings: dict[str, str],
    tap: Any,
    centre: list[ft.Control],
    max_tile: float,
    min_tile: float,
    per_row: int,
) -> ft.Control:
    """The table cut crosswise between columns of seats (see `table_drawing`)."""
    columns = sorted({round(x, 3) for x, _ in places.values()})
    fit = max(1, int((width - 4) // (min_tile + 3)))  # tiles a piece's row holds
    count = min(len(columns), -(-per_row // fit))
    sizes = [len(columns) // count + (1 if i < len(columns) % count else 0) for i in range(count)]
    cuts = [sum(sizes[:i]) for i in range(count)]
    pieces = [[s for s in view.seats if columns[cut] <= round(places[s.id][0], 3) <= columns[cut + size - 1]] for cut, size in zip(cuts, sizes, strict=True)]
    most = 1
    for seats in pieces:
        in_row: dict[float, int] = {}
        for s in seats:
            in_row[round(places[s.id][1], 2)] = in_row.get(round(places[s.id][1], 2), 0) + 1
        most = max(most, *in_row.values())
    # wide enough to tap, no wider: the pieces already take more than a screen's height
    tile_w = max(20.0, min(max_tile, min_tile * 1.25, (width - 4) / most - 3))
    # one scale for every piece, so their columns line up one under another
    lefts = [min(places[s.id][0] for s in seats) for seats in pieces]
    widest = max(max(places[s.id][0] for s in seats) - x0 for seats, x0 in zip(pieces, lefts, strict=True))
    span = (width - tile_w) / widest if widest > 0 else 0
    top = ft.Container(
        bgcolor=TABLE_WOOD,
        border_radius=24,
        padding=ft.Padding.symmetric(horizontal=16, vertical=6),
        alignment=ft.Alignment.CENTER,
        content=ft.Row(centre, alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=12, run_spacing=2, wrap=True),
    )
    drawn = [table_piece(ctx, view, seats, places, width, tile_w, 36.0, x0, span, y_range, rings, tap, []) for seats, x0 in zip(pieces, lefts, strict=True)]
    return ft.Column([top, *drawn], spacing=20)


def legend(ctx: GameContext) -> ft.Control:
    tr = ctx.tr
    items: list[ft.Control] = []
    for business in ("bar", "restaurant", "gambling"):
        items.append(
            ft.Container(
                bgcolor=BUSINESS_COLOUR[business],
                border_radius=6,
                padding=ft.Padding.symmetric(horizontal=6, vertical=2),
                content=ft.Row([ft.Icon(BUSINESS_ICON[business], size=16, color="#111111"), ft.Text(tr.t(f"reglement.business.{business}"), size=14, color="#111111")], spacing=4, tight=True),
            )
        )
    for mark in ("cash_register", "glass", "knife", "revolver"):
        items.append(ft.Row([ft.Icon(MARK_ICON[mark], size=16, color=ACCENT), label(tr.t(f"reglement.mark.{mark}"), 14, INK)], spacing=4, tight=True))
    items.append(ft.Row([ft.Text("X", size=15, weight=ft.FontWeight.BOLD, color=BLAST), label(tr.t("reglement.mark.no_shoot"), 14, INK)], spacing=4, tight=True))
    kinds = " · ".join(f"{tr.t(f'reglement.kind_letter.{k}')} = {kind_name(ctx, k)}" for k in KINDS)
    items.append(label(kinds, 14, INK))
    items.append(ft.Row([ft.Icon(ft.Icons.CAKE, size=16, color="#F48FB1"), label(tr.t("reglement.ui.legend_cake"), 14, INK)], spacing=4, tight=True))
    items.append(label("Zz = " + tr.t("reglement.ui.legend_asleep"), 14, INK))
    return ft.Semantics(identifier="legend", key="legend", content=ft.Row(items, wrap=True, spacing=12, run_spacing=4))


# --------------------------------------------------------------------------------------------
# rulings of the turn, one step at a time (a view state, not a game action)
# --------------------------------------------------------------------------------------------


#: the page's position in the turn's rulings (views/steps.py): a new turn, or a new action's
#: rulings, open on the newest (an explosion at a turn's start, not the previous player's draw)
STEP_KEY = "reglement.step"


def step_about(view: View) -> tuple[Any, ...]:
    return (view.phase, view.turn_number)


def shown_step(ctx: GameContext, view: View) -> int:
    return step_at(ctx, STEP_KEY, step_about(view), len(view.turn_log))


def ruling_seats(view: View, ruling: Any) -> tuple[str | None, str | None]:
    """(the seat a ruling happens at, the seat it acts from), for the drawing's red rings."""
    at = ruling.params.get("at")
    source = ruling.params.get("from_at")
    return (at if isinstance(at, str) else None), (source if isinstance(source, str) else None)


def rulings_panel(ctx: GameContext, view: View, ident_prefix: str = "step") -> ft.Control:
    tr = ctx.tr
    log = view.turn_log
    if not log:
        return ft.Container()
    index = shown_step(ctx, view)

    earlier = [label(tr.ruling(r, ctx.names), 14, MUTED) for r in log[max(0, index - 3) : index]]
    now = ft.Semantics(
        identifier=f"{ident_prefix}-now",
        key=f"{ident_prefix}-now",
        live_region=True,
        content=ft.Container(
            bgcolor="#263238",
            border=ft.Border.all(2, ACCENT),
            border_radius=8,
            padding=10,
            content=label(tr.ruling(log[index], ctx.names), 21, INK, ft.FontWeight.BOLD),
        ),
    )
    left = len(log) - 1 - index
    controls: list[ft.Control] = [
        ft.Row(
            [
                label(tr.t("reglement.ui.this_turn"), 18, ACCENT, ft.FontWeight.BOLD),
                label(tr.t("ui.step", n=index + 1, total=len(log)), 16, MUTED),
            ],
            spacing=12,
            wrap=ctx.width < NARROW_BOARD,  # on a phone the step count goes under the title
        ),
        *earlier,
        now,
    ]
    if left:
        controls.append(label(tr.t("reglement.ui.more_steps", count=left), 15, ACCENT))
    controls.append(step_buttons(ctx, STEP_KEY, index, len(log), ident_prefix=ident_prefix, last_text=tr.t("reglement.ui.show_last")))
    return ft.Semantics(
        identifier=f"{ident_prefix}s",
        key=f"{ident_prefix}s",
        content=ft.Container(bgcolor=PANEL, border_radius=12, padding=12, content=ft.Column(controls, spacing=6)),
    )


def turn_steps(ctx: GameContext, view: View) -> ft.Control:
    """The turn's four steps: the own cake, income, cards, wake-up."""
    tr = ctx.tr
    player = view.turn
    if view.phase not in ("play", "alerte", "wake") or player is None:
        return ft.Container()
    start = max((i for i, r in enumerate(view.turn_log) if r.code == "reglement.turn_started"), default=0)
    this_turn = view.turn_log[start:]
    cake = tr.t("reglement.ui.no_cake")
    exploded = False
    killed = 0
    for r in this_turn:
        if r.code.startswith("reglement.income"):
            break  # step 1 is over once income is paid
        if r.code.startswith("reglement.cake_exploded") and r.params.get("owner_seat") == player:
            exploded = True
            cake = tr.t("reglement.ui.cake_blew", at=r.params.get("at"))
        elif exploded and r.code == "reglement.killed":
            killed += 1
    if exploded:
        cake += " " + tr.t("reglement.ui.killed_count", count=killed)
    income = tr.t("reglement.ui.income_nothing")
    for r in this_turn:
        if r.code in ("reglement.income", "reglement.income_doubled") and r.params.get("seat") == player:
            income = "+" + tr.money(r.params["amount"])
            if r.code == "reglement.income_doubled":
                income += " (×2)"
            break
    if view.discarded:
        cards = tr.t("reglement.ui.cards_aside")
    elif view.cards_played:
        cards = ", ".join(tr.t(f"reglement.card.{c}") for c in view.cards_played)
    else:
        cards = tr.t("reglement.ui.cards_none")
    sleepers = view.gangs[player].asleep
    wake = tr.t("reglement.ui.sleepers", count=sleepers) if sleepers else tr.t("reglement.ui.nobody_asleep")
    # steps 1 and 2 are automatic; the turn waits at the cards until it ends, then (house rule
    # "choose") at the wake-up while its player chooses
    current = 3
    if view.phase == "wake":
        current = 4
        wake = f"{tr.t('reglement.ui.choosing')} · {wake}"
    narrow = ctx.width < NARROW_BOARD
    boxes = []
    for n, (title, detail) in enumerate(
        [
            (tr.t("reglement.ui.step1"), cake),
            (tr.t("reglement.ui.step2"), income),
            (tr.t("reglement.ui.step3"), cards),
            (tr.t("reglement.ui.step4"), wake),
        ],
        start=1,
    ):
        active = n == current
        done = n < current
        boxes.append(
            ft.Container(
                expand=None if narrow else True,
                width=(ctx.width - 16) / 2 if narrow else None,
                bgcolor=ACCENT if active else ("#2E4D42" if done else PANEL),
                border_radius=10,
                padding=ft.Padding.symmetric(horizontal=8, vertical=4),
                content=ft.Column(
                    [
                        label(title, 14, "#111111" if active else MUTED, ft.FontWeight.BOLD),
                        label(detail, 17, "#111111" if active else INK, ft.FontWeight.BOLD),
                    ],
                    spacing=2,
                    tight=True,
                ),
            )
        )
    # on a phone, two steps a line (four would leave a word a line)
    row = ft.Row(boxes, spacing=8, run_spacing=8, wrap=True, vertical_alignment=ft.CrossAxisAlignment.START) if narrow else ft.Row(boxes, spacing=8, vertical_alignment=ft.CrossAxisAlignment.START)
    return ft.Semantics(identifier="turn-steps", key="turn-steps", content=row)


# --------------------------------------------------------------------------------------------
# the board
# --------------------------------------------------------------------------------------------


def selection_key(view: View) -> tuple[Any, ...]:
    return ("reglement.sel", view.phase, view.turn_number, len(view.cards_played), view.discarded, view.placer)


def selection(ctx: GameContext, view: View) -> dict[str, Any]:
    key = selection_key(view)
    if key not in ctx.ui:
        ctx.ui[key] = {}
    return ctx.ui[key]


def options_for(view: View, card: str, mine: bool = False) -> Any:
    options = view.my_options if mine else view.turn_options
    if not options:
        return None
    return next((o for o in options if o.card == card), None)


#: Board widths (ctx.width) below which the board rearranges itself: a phone (360-414 px leave
#: 336-390) takes the turn's steps two a line; below WIDE_PROMPT the end-of-turn buttons go under
#: the player's name (beside it they need about 600 px in French or Russian).
NARROW_BOARD = 500.0
#: in seating, the board's width under the table: the gangsters' buttons, the step-by-step panel
SEATING_SHARES = (25, 23)
WIDE_PROMPT = 800.0
#: the seats' tiles on a phone, when the table is cut into pieces (see `table_drawing`): a
#: touch target's width
PHONE_TILE = 48.0


def board_body(ctx: GameContext, view: View, reveal: ft.Control | None) -> ft.Control:
    """`reveal`: the reveal panel when one is due, above the board (keyed: it comes and goes and
    the board keeps its place)."""
    tr = ctx.tr
    sel = selection(ctx, view)
    player = current_player(view)
    host = ctx.acts_for_current and player is not None
    rings: dict[str, str] = {}
    tap = None
    if view.turn_log:
        at, source = ruling_seats(view, view.turn_log[shown_step(ctx, view)])
        if source:
            rings[source] = "#FF9800"
        if at:
            rings[at] = BLAST
    if host and view.phase in ("seating", "alerte"):
        tap = seating_tap(ctx, view, sel, player)
        for seat in view.seats:
            if seat.gangster is None:
                rings.setdefault(seat.id, "#4FC3F7")
    elif host and view.phase == "play":
        tap = play_tap(ctx, view, sel, player)
        for seat_id, colour in play_rings(view, sel).items():
            rings[seat_id] = colour
    elif host and view.phase == "wake":
        tap = wake_tap(ctx, view, sel)
        rings.update(wake_rings(view, sel))
    else:
        tap = info_tap(ctx, view)
    centre = [
        ft.Semantics(
            identifier="bank",
            key="bank",
            content=label(f"{tr.t('reglement.label.bank')} {tr.money(view.bank)}", 26, ACCENT, ft.FontWeight.BOLD),
        ),
        label(f"{tr.t('reglement.label.draw_pile')} {view.draw_pile} · {tr.t('reglement.label.set_aside')} {view.set_aside}", 15, INK),
    ]
    width = max(300.0, ctx.width - 8)
    items: list[ft.Control] = [prompt_row(ctx, view), table_drawing(ctx, view, width, rings, tap, centre, min_tile=PHONE_TILE)]
    info = sel.get("info")
    if info:
        items.append(label(seat_description(ctx, view, seat_map(view)[info]), 17, INK))
    if view.phase in ("play", "alerte", "wake"):
        items.append(turn_steps(ctx, view))
    entry: ft.Control | None = None
    if host and view.phase in ("seating", "alerte"):
        entry = seating_controls(ctx, view, sel, player)
    elif host and view.phase == "play":
        entry = card_controls(ctx, view, sel, player)
    elif host and view.phase == "wake":
        entry = wake_panel(ctx, view, sel, player, hint=tr.t("reglement.ui.board_hint_wake", ctx.names, seat=player))
    panel = rulings_panel(ctx, view)
    if entry is not None and width >= 700:
        # seating's controls are short: the step-by-step panel gets nearly half the width, so
        # its Previous / Next / Latest keep to one line in French and Russian (at 4/9 they wrapped
        # and were cut); the gangsters' buttons keep two a line (Russian "Л · Стальное Лезвие ×2"
        # and "Г · Громила ×3" take 457 px of a tablet's 464)
        shares = SEATING_SHARES if view.phase in ("seating", "alerte") else (5, 4)
        items.append(
            ft.Row(
                [ft.Container(entry, expand=shares[0]), ft.Container(panel, expand=shares[1])],
                vertical_alignment=ft.CrossAxisAlignment.START,
                spacing=12,
            )
        )
    else:
        items.extend(c for c in (entry, panel) if c is not None)
    if ctx.acts_for_current and preset_ready(view):
        items.append(save_preset_panel(ctx, view))
    items.append(legend(ctx))
    if view.board_reconstructed and not view.board_verified:
        items.append(label(tr.t("reglement.label.board_reconstructed") + f" ({view.board_name})", 13, MUTED))
    if reveal is not None:
        items.insert(0, role("reveal", reveal))
    return ft.Column(items, spacing=10)


def prompt_row(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    if view.phase == "over":
        reason = tr.t(f"reglement.end.{view.ended_by}") if view.ended_by else ""
        return ft.Semantics(
            identifier="prompt",
            key="prompt",
            content=ft.Column(
                [
                    label(tr.t("ui.winner", ctx.names, seats=list(view.winners)), 32, ACCENT, ft.FontWeight.BOLD),
                    label(tr.t("reglement.ui.over", reason=reason), 20, INK),
                    final_standings(ctx, view, 20),
                ],
                spacing=6,
            ),
        )
    player = current_player(view)
    code = {
        "seating": "reglement.ui.prompt_seating",
        "alerte": "reglement.ui.prompt_alerte",
        "wake": "reglement.ui.prompt_wake",
    }.get(view.phase, "reglement.ui.prompt_play")
    bits: list[ft.Control] = []
    if player is not None:
        # the sentence names the player; beside it their colour and shape only ("◆ Yvette
        # Yvette seats a gangster" said the name twice)
        colour = ctx.colours[player]
        bits.append(
            ft.Container(
                content=ft.Text(glyph(colour), size=26, color=text_on(colour), weight=ft.FontWeight.BOLD),
                bgcolor=COLOUR_HEX[colour],
                border_radius=8,
                padding=ft.Padding.symmetric(horizontal=8, vertical=2),
            )
        )
        bits.append(label(tr.t(code, ctx.names, seat=player), 26, INK, ft.FontWeight.BOLD))
        gang = view.gangs[player]
        if view.phase in ("seating", "alerte") and gang.unseated:
            left = ", ".join(f"{n}× {kind_name(ctx, k)}" for k, n in count_kinds(gang.unseated))
            bits.append(label(tr.t("reglement.ui.to_seat", kinds=left), 17, MUTED))
    row = ft.Row(bits, wrap=True, spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    if ctx.acts_for_current and view.phase == "play" and player is not None and ctx.width < WIDE_PROMPT:
        # the buttons would squeeze the name into a column of letters: they go under it
        row = ft.Column([row, ft.Row(turn_buttons(ctx, view, player), wrap=True, spacing=8, run_spacing=8)], spacing=8)
    elif ctx.acts_for_current and view.phase == "play" and player is not None:
        # (no `expand` inside a wrapping Row: Flutter refuses to lay that out)
        row = ft.Row(
            [ft.Container(row, expand=True), *turn_buttons(ctx, view, player)],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
    return ft.Semantics(identifier="prompt", key="prompt", content=row)


def final_standings(ctx: GameContext, view: View, size: int) -> ft.Control:
    """Everyone's money, richest first, winners marked."""
    items: list[ft.Control] = []
    for gang in sorted(view.gangs, key=lambda g: -g.money):
        crown = "★ " if gang.seat in view.winners else ""
        items.append(
            ft.Row(
                [player_chip(ctx.tr, ctx.names, ctx.colours, gang.seat, size), label(crown + ctx.tr.money(gang.money), size, ACCENT if crown else INK, ft.FontWeight.BOLD)],
                spacing=6,
                tight=True,
            )
        )
    return ft.Semantics(identifier="standings", key="standings", content=ft.Row(items, wrap=True, spacing=18, run_spacing=6))


def count_kinds(kinds: tuple[str, ...]) -> list[tuple[str, int]]:
    return [(k, kinds.count(k)) for k in KINDS if k in kinds]


def info_tap(ctx: GameContext, view: View) -> Any:
    async def tap(seat_id: str) -> None:
        sel = selection(ctx, view)
        sel["info"] = None if sel.get("info") == seat_id else seat_id
        await ctx.rerender()

    return tap


# -- seating (free seating and Alerte! re-seating) --


def chosen_kind(view: View, sel: dict[str, Any], player: int) -> str | None:
    unseated = view.gangs[player].unseated
    kind = sel.get("kind")
    if kind in unseated:
        return kind
    return next((k for k in KINDS if k in unseated), None)


def seating_tap(ctx: GameContext, view: View, sel: dict[str, Any], player: int) -> Any:
    async def tap(seat_id: str) -> None:
        kind = chosen_kind(view, sel, player)
        if kind is None:
            return
        await ctx.submit({"type": "place", "by": player, "kind": kind, "seat": seat_id})

    tap.acts_for = player  # type: ignore[attr-defined]
    return tap


def kind_buttons(ctx: GameContext, view: View, sel: dict[str, Any], player: int) -> ft.Control:
    current = chosen_kind(view, sel, player)
    colour = ctx.colours[player]

    def choose(kind: str) -> Any:
        async def pick() -> None:
            sel["kind"] = kind
            await ctx.rerender()

        return pick

    buttons = []
    for kind, count in count_kinds(view.gangs[player].unseated):
        chosen = kind == current
        buttons.append(
            ft.Semantics(
                identifier=f"kind-{kind}",
                key=f"kind-{kind}",
                button=True,
                selected=chosen,
                content=ft.Container(
                    on_click=handler(choose(kind)),
                    bgcolor=COLOUR_HEX[colour] if chosen else PANEL,
                    border=ft.Border.all(4, CHOSEN if chosen else COLOUR_HEX[colour]),
                    border_radius=10,
                    padding=ft.Padding.symmetric(horizontal=14, vertical=10),
                    content=ft.Text(
                        f"{ctx.tr.t(f'reglement.kind_letter.{kind}')} · {kind_name(ctx, kind)} ×{count}",
                        size=18,
                        weight=ft.FontWeight.BOLD,
                        color=text_on(colour) if chosen else INK,
                    ),
                ),
            )
        )
    return ft.Row(buttons, wrap=True, spacing=8, run_spacing=8)


def seating_controls(ctx: GameContext, view: View, sel: dict[str, Any], player: int) -> ft.Control:
    tr = ctx.tr
    rows: list[ft.Control] = [
        label(tr.t("reglement.ui.board_hint_seating", ctx.names, seat=player), 18, ACCENT, ft.FontWeight.BOLD),
        kind_buttons(ctx, view, sel, player),
    ]
    if view.phase == "seating":
        rows.append(random_seating(ctx, view, player))
    return ft.Column(rows, spacing=8)


def random_seating(ctx: GameContext, view: View, player: int) -> ft.Control:
    """Free seating in one tap instead of one per gangster: the app seats everyone still waiting
    at random (the `seat_random` action, logged like any other; the host's undo takes it back).
    Keyed by the player placing now, so a tap meant for the previous placer's seat never lands
    here."""
    tr = ctx.tr
    waiting = sum(len(g.unseated) for g in view.gangs)

    async def seat_all() -> None:
        # the host board seats everyone for the table (by: null); a phone does it as its own seat
        await ctx.submit({"type": "seat_random", "by": None if ctx.seat is None else player})

    return ft.Column(
        [
            # an action, in the action colour (grey is for Undo and paging back)
            big_button(tr.t("reglement.ui.seat_random"), handler(seat_all), ident="seat-random", colour=ACCENT, key=ctx.act_key("seat-random", player)),
            label(tr.t("reglement.ui.seat_random_hint", count=waiting), 14, MUTED),
        ],
        spacing=2,
        tight=True,
    )


# -- a turn's cards, entered on the host board --


def play_rings(view: View, sel: dict[str, Any]) -> dict[str, str]:
    card = sel.get("card")
    if card is None:
        return {}
    option = options_for(view, card)
    rings: dict[str, str] = {}
    if option is None:
        return rings
    if card == "move":
        source = sel.get("from")
        if source is None:
            for t in option.targets:
                rings[t.from_seat] = HIGHLIGHT
        else:
            rings[source] = CHOSEN
            for t in option.targets:
                if t.from_seat == source:
                    rings[t.seat] = HIGHLIGHT
        return rings
    for t in option.targets:
        if t.seat:
            rings[t.seat] = HIGHLIGHT
    for seat in sel.get("pills", []):
        rings[seat] = CHOSEN
    if sel.get("target"):
        rings[sel["target"]] = CHOSEN
    return rings


def play_tap(ctx: GameContext, view: View, sel: dict[str, Any], player: int) -> Any:
    async def tap(seat_id: str) -> None:
        card = sel.get("card")
        if card is None:
            sel["info"] = None if sel.get("info") == seat_id else seat_id
            await ctx.rerender()
            return
        option = options_for(view, card)
        targets = option.targets if option else ()
        if card in ("knife", "pan"):
            sources = sorted({t.from_seat for t in targets if t.seat == seat_id})
            if len(sources) > 1:
                sel["target"] = seat_id
                await ctx.rerender()
                return
            # one source, or none: the engine says why it is refused
            await ctx.submit({"type": card, "by": player, "target": seat_id, "from_seat": sources[0] if sources else None})
        elif card == "order_cake":
            await ctx.submit({"type": "order_cake", "by": player, "seat": seat_id})
        elif card == "boum":
            await ctx.submit({"type": "boum", "by": player, "cake_seat": seat_id})
        elif card == "pass_cake":
            ways = [t for t in targets if t.seat == seat_id]
            if not ways:
                await ctx.submit({"type": "pass_cake", "by": player, "cake_seat": seat_id, "direction": "clockwise"})
                return
            sel["target"] = seat_id
            await ctx.rerender()
        elif card == "pills":
            chosen = list(sel.get("pills", []))
            if seat_id in chosen:
                chosen.remove(seat_id)
            elif len(chosen) < 3:
                chosen.append(seat_id)
            sel["pills"] = chosen
            await ctx.rerender()
        elif card == "move":
            source = sel.get("from")
            if source is None or source == seat_id:
                sel["from"] = None if source == seat_id else seat_id
                await ctx.rerender()
                return
            await ctx.submit({"type": "move", "by": player, "from_seat": source, "to_seat": seat_id})

    tap.acts_for = player  # type: ignore[attr-defined]
    return tap


def card_chip(ctx: GameContext, card: str, selected: bool, on_click: Any, ident: str, note: str = "", dim: bool = False, size: int = 17, secret: bool = False) -> ft.Control:
    """`secret`: a choice among the phone's own cards, all one colour and size with the pick ringed
    thinly (from across the table the choices look alike)."""
    text = ctx.tr.t(f"reglement.card.{card}") + (f" {note}" if note else "")
    if secret:
        face, ring = "#ECEFF1", "#37474F" if selected else "#ECEFF1"
    else:
        face, ring = (CARD_COLOUR[card] if not dim else "#607D8B"), (CHOSEN if selected else "#00000000")
    return ft.Semantics(
        identifier=ident,
        key=ident,
        button=True,
        selected=selected,
        content=ft.Container(
            on_click=on_click,
            bgcolor=face,
            border=ft.Border.all(3 if secret else 4, ring),
            border_radius=10,
            padding=ft.Padding.symmetric(horizontal=10 if size < 17 else 12, vertical=10 if size < 17 else 12),
            content=ft.Text(text, size=size, weight=ft.FontWeight.BOLD, color="#111111"),
        ),
    )


def turn_buttons(ctx: GameContext, view: View, player: int, phone: bool = False) -> list[ft.Control]:
    """Set a card aside (before any card) and end the turn (after a card or the set-aside)."""
    tr = ctx.tr
    started = bool(view.cards_played or view.discarded)
    buttons: list[ft.Control] = []
    if not started:
        buttons.append(act_button(ctx, player, tr.t("reglement.ui.set_aside"), handler(ctx.submit, {"type": "discard", "by": player}), ident="discard"))
    end_turn: dict[str, Any] = {"type": "end_turn", "by": player}
    if view.wake_up == "optional" and view.wake_choices:
        # the older form of the wake-up choice: it rides on end_turn (see wake_panel)
        end_turn["wake"] = waking(view, selection(ctx, view))
    buttons.append(act_button(ctx, player, tr.t("reglement.ui.end_turn"), handler(ctx.submit, end_turn), ident="end-turn", disabled=not started, reason=tr.t("reglement.err.nothing_played")))
    return buttons


def card_controls(ctx: GameContext, view: View, sel: dict[str, Any], player: int) -> ft.Control:
    """The host's entry of the current player's face-up cards: the chosen card's prompt (or the
    hint) first, so it stays in view, then the cards."""
    tr = ctx.tr
    card = sel.get("card")

    def choose(value: str | None) -> Any:
        async def pick() -> None:
            sel.clear()
            if value is not None:
                sel["card"] = value
            await ctx.rerender()

        return pick

    chips: list[ft.Control] = []
    for c in CARDS:
        option = options_for(view, c)
        playable = option is not None and option.playable_now
        on_click = handler(choose(None if card == c else c))
        chips.append(card_chip(ctx, c, card == c, on_click, f"card-{c}", dim=not playable, size=15))
    # why the greyed cards are greyed ("only one action card per turn: the second must be a
    # Déplacement"), each reason once
    reasons: list[str] = []
    for c in CARDS:
        option = options_for(view, c)
        if option is not None and not option.playable_now and option.blocked and option.blocked not in reasons:
            reasons.append(option.blocked)
    controls: list[ft.Control] = []
    if card is not None:
        controls.append(card_prompt(ctx, view, sel, player, card))
    else:
        controls.append(label(tr.t("reglement.ui.board_hint_play", ctx.names, seat=player), 17, ACCENT, ft.FontWeight.BOLD))
    controls.append(ft.Row(chips, wrap=True, spacing=6, run_spacing=6))
    for code in reasons:
        controls.append(ft.Semantics(identifier="cards-greyed", key=f"cards-greyed-{code}", content=label(tr.t("reglement.ui.greyed", reason=tr.t(code, ctx.names, **blocked_params(view, code))), 15, MUTED)))
    if view.wake_up == "optional" and view.wake_choices and (view.cards_played or view.discarded):
        controls.append(wake_panel(ctx, view, sel, player, confirm=False))
    return ft.Semantics(identifier="card-entry", key="card-entry", content=ft.Column(controls, spacing=8))


def card_prompt(ctx: GameContext, view: View, sel: dict[str, Any], player: int, card: str) -> ft.Control:
    tr = ctx.tr
    option = options_for(view, card)
    targets = option.targets if option else ()
    lines: list[ft.Control] = []
    step = "move_to" if card == "move" and sel.get("from") else ("move_from" if card == "move" else card)
    title = f"{tr.t(f'reglement.card.{card}')}: {tr.t(f'reglement.ui.tap.{step}')}"
    lines.append(label(title, 19, ACCENT, ft.FontWeight.BOLD))
    if option is not None and not option.playable_now and option.blocked:
        lines.append(label(tr.t("reglement.ui.blocked", reason=tr.t(option.blocked, ctx.names, **blocked_params(view, option.blocked))), 16, DANGER))
    elif not targets:
        lines.append(label(tr.t("reglement.ui.no_target", card=tr.t(f"reglement.card.{card}")), 15, MUTED))
    elif any(t.seat for t in targets):
        lines.append(label(tr.t("reglement.ui.highlighted"), 14, MUTED))
    extra: list[ft.Control] = []
    target = sel.get("target")
    if card in ("knife", "pan") and target:
        for t in targets:
            if t.seat == target:
                text = tr.t("reglement.ui.from_source", at=t.from_seat, kind=kind_name(ctx, t.from_kind))
                extra.append(act_button(ctx, player, text, handler(ctx.submit, target_action(t, player)), ident=f"from-{t.from_seat}"))
    if card == "pass_cake" and target:
        for t in targets:
            if t.seat == target:
                text = tr.t("reglement.ui.direction", direction=tr.t(f"reglement.direction.{t.direction}"), at=t.to_seat)
                extra.append(act_button(ctx, player, text, handler(ctx.submit, target_action(t, player)), ident=f"dir-{t.direction}"))
    if card == "pills":
        chosen = sel.get("pills", [])
        extra.append(
            act_button(
                ctx,
                player,
                tr.t("reglement.ui.confirm_pills", ats=", ".join(chosen) or "—"),
                handler(ctx.submit, {"type": "pills", "by": player, "targets": list(chosen)}),
                ident="pills-confirm",
                disabled=not chosen,
                reason=tr.t("reglement.ui.pills_pick_first"),
            )
        )
    if card == "alerte":
        extra.append(act_button(ctx, player, tr.t("reglement.ui.confirm_alerte"), handler(ctx.submit, {"type": "alerte", "by": player}), ident="alerte-confirm"))
    if extra:
        lines.append(ft.Row(extra, wrap=True, spacing=8))
    return ft.Container(bgcolor=PANEL, border_radius=10, padding=8, content=ft.Column(lines, spacing=4))


def blocked_params(view: View, code: str) -> dict[str, Any]:
    """Fill an error template for a card that cannot be played now (turn/phase/order codes)."""
    return {"expected": view.turn, "phase": view.phase}


# --------------------------------------------------------------------------------------------
# the phone
# --------------------------------------------------------------------------------------------


def seat_body(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    me = view.me
    assert me is not None and view.my_options is not None
    seat = me.seat
    sel = selection(ctx, view)
    gang = view.gangs[seat]
    # the public parts are drawn from the board's projection, never from view.me
    board = public_view(ctx, view)
    items: list[ft.Control] = []
    if board.phase == "over":
        items.append(label(tr.t("ui.winner", ctx.names, seats=list(board.winners)), 26, ACCENT, ft.FontWeight.BOLD))
        items.append(final_standings(ctx, board, 16))
    else:
        items.append(status_line(ctx, board))
    if view.phase in ("seating", "alerte") and view.placer == seat:
        items.append(phone_seating(ctx, view, sel, seat))
    if view.phase == "wake" and view.turn == seat:
        items.append(wake_panel(ctx, view, sel, seat))
    elif view.phase == "wake" and view.turn is not None:
        waiting = tr.t("reglement.ui.waiting_wake", ctx.names, seat=view.turn)
        items.append(ft.Semantics(identifier="waiting-wake", key="waiting-wake", content=label(waiting, 20, ACCENT, ft.FontWeight.BOLD)))
    items.append(my_gang(ctx, board, seat, view.me.income_now))
    if view.phase == "play" and view.turn == seat:
        items.append(phone_turn_buttons(ctx, view, seat))
    if gang.in_play and view.phase != "over":
        # The hand note, and the helper whose card choice tells what is in the hand: behind
        # hold-to-peek (built only while held or shown).
        def secrets() -> ft.Control:
            parts = [helper(ctx, view, sel, seat)] if view.phase != "seating" else []
            return ft.Column([*parts, hand_note(ctx, view, seat)], spacing=12)

        items.append(private_section(ctx, secrets))
    if board.turn_log:
        items.append(rulings_panel(ctx, board, ident_prefix="phone-step"))
    return ft.Column(items, spacing=12)


def phone_seating(ctx: GameContext, view: View, sel: dict[str, Any], seat: int) -> ft.Control:
    tr = ctx.tr
    kind = chosen_kind(view, sel, seat)
    grid: list[ft.Control] = []
    for s in view.seats:
        if s.gangster is not None:
            continue
        icons: list[ft.Control] = []
        if s.business:
            icons.append(ft.Icon(BUSINESS_ICON[s.business], size=14, color="#111111"))
        for mark in ("cash_register", "glass", "knife", "revolver"):
            if getattr(s, mark):
                icons.append(ft.Icon(MARK_ICON[mark], size=14, color="#111111"))
        if s.no_shoot:
            icons.append(ft.Text("X", size=13, weight=ft.FontWeight.BOLD, color=BLAST))
        grid.append(
            ft.Semantics(
                identifier=f"pick-{s.id}",
                key=f"pick-{s.id}",
                button=True,
                content=ft.Container(
                    on_click=handler(ctx.submit, {"type": "place", "by": seat, "kind": kind, "seat": s.id}) if kind else None,
                    width=62,
                    height=56,
                    bgcolor=BUSINESS_COLOUR[s.business] if s.business else "#CFD8DC",
                    border_radius=8,
                    alignment=ft.Alignment.CENTER,
                    content=ft.Column(
                        [ft.Text(s.id, size=17, weight=ft.FontWeight.BOLD, color="#111111"), ft.Row(icons, spacing=0, tight=True, alignment=ft.MainAxisAlignment.CENTER)],
                        spacing=0,
                        tight=True,
                        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                ),
            )
        )
    return ft.Container(
        bgcolor=PANEL,
        border_radius=12,
        padding=10,
        content=ft.Column(
            [
                label(tr.t("reglement.ui.place_prompt"), 20, ACCENT, ft.FontWeight.BOLD),
                kind_buttons(ctx, view, sel, seat),
                label(tr.t("reglement.ui.pick_empty_seat"), 16, INK),
                ft.Row(grid, wrap=True, spacing=6, run_spacing=6),
            ],
            spacing=8,
        ),
    )


def my_gang(ctx: GameContext, view: View, seat: int, income_now: int) -> ft.Control:
    """The seat's gang as everyone sees it (`view`: the board's projection) and its income now."""
    tr = ctx.tr
    gang = view.gangs[seat]
    rows: list[ft.Control] = [label(tr.t("reglement.ui.my_gang"), 18, ACCENT, ft.FontWeight.BOLD)]
    if not gang.in_play:
        rows.append(label(tr.t("reglement.ui.out"), 17, DANGER))
    tokens: list[ft.Control] = []
    for g in view.gangsters:
        if g.owner != seat or not g.alive:
            continue
        where = g.seat or "—"
        tokens.append(
            ft.Column(
                [gangster_token(ctx, view, g, 34), label(where, 14, INK, ft.FontWeight.BOLD)],
                spacing=2,
                tight=True,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    rows.append(ft.Row(tokens, wrap=True, spacing=6, run_spacing=6))
    if gang.cake_seat:
        cake = tr.t("reglement.ui.cake_at", at=gang.cake_seat)
    elif gang.cake_gone:
        cake = tr.t("reglement.ui.cake_gone")
    else:
        cake = tr.t("reglement.ui.cake_in_hand")
    rows.append(label(cake, 16, INK))
    if gang.in_play and view.phase != "seating":
        rows.append(label(tr.t("reglement.ui.income_now", amount=income_now), 16, INK))
    return ft.Semantics(
        identifier="my-gang",
        key="my-gang",
        content=ft.Container(bgcolor=PANEL, border_radius=12, padding=10, content=ft.Column(rows, spacing=6)),
    )


def phone_turn_buttons(ctx: GameContext, view: View, seat: int) -> ft.Control:
    tr = ctx.tr
    controls: list[ft.Control] = [label(tr.t("reglement.ui.phone_turn_hint"), 16, INK)]
    if view.wake_up == "optional" and view.wake_choices and (view.cards_played or view.discarded):
        controls.append(wake_panel(ctx, view, selection(ctx, view), seat, confirm=False))
    controls.append(ft.Row(turn_buttons(ctx, view, seat), wrap=True, spacing=8))
    return ft.Column(controls, spacing=6)


# -- step 4 with the wake-up house rule "choose" (and the older "optional") --


def waking(view: View, sel: dict[str, Any]) -> list[str]:
    """The sleepers chosen to wake (a view state until confirmed); at first, all of them."""
    chosen = sel.get("wake")
    if chosen is None:
        return list(view.wake_choices)
    return [seat for seat in view.wake_choices if seat in chosen]


async def toggle_wake(ctx: GameContext, view: View, sel: dict[str, Any], seat_id: str) -> None:
    chosen = waking(view, sel)
    sel["wake"] = [s for s in chosen if s != seat_id] if seat_id in chosen else [*chosen, seat_id]
    await ctx.rerender()


def wake_tap(ctx: GameContext, view: View, sel: dict[str, Any]) -> Any:
    """On the host board during the wake-up: a tap on a sleeper toggles him, elsewhere informs."""
    info = info_tap(ctx, view)

    async def tap(seat_id: str) -> None:
        if seat_id in view.wake_choices:
            await toggle_wake(ctx, view, sel, seat_id)
        else:
            await info(seat_id)

    return tap


def wake_rings(view: View, sel: dict[str, Any]) -> dict[str, str]:
    chosen = waking(view, sel)
    return {seat: HIGHLIGHT if seat in chosen else "#4FC3F7" for seat in view.wake_choices}


def wake_panel(ctx: GameContext, view: View, sel: dict[str, Any], player: int, *, hint: str | None = None, confirm: bool = True) -> ft.Control:
    """One big button per sleeper of `player` (wakes / sleeps on), then the confirmation (the
    `wake` action). With the older "optional" rule (`confirm` False) End turn sends the choice."""
    tr = ctx.tr
    chosen = waking(view, sel)
    seats = seat_map(view)
    title = tr.t("reglement.ui.wake_title") if confirm else tr.t("reglement.ui.wake_with_end_turn")
    rows: list[ft.Control] = [label(title, 20, ACCENT, ft.FontWeight.BOLD), label(hint or tr.t("reglement.ui.wake_hint"), 16, INK)]
    toggles: list[ft.Control] = []
    for seat_id in view.wake_choices:
        g = gangster_at(view, seats[seat_id])
        wakes = seat_id in chosen
        code = "reglement.ui.wakes" if wakes else "reglement.ui.sleeps_on"
        text = tr.t(code, kind=kind_name(ctx, g.kind), at=seat_id)
        toggles.append(
            ft.Semantics(
                identifier=f"wake-{seat_id}",
                key=f"wake-{seat_id}",
                button=True,
                selected=wakes,
                label=text,
                content=ft.Container(
                    on_click=handler(toggle_wake, ctx, view, sel, seat_id),
                    bgcolor=ACCENT if wakes else "#263238",
                    border=ft.Border.all(4, CHOSEN if wakes else "#4FC3F7"),
                    border_radius=12,
                    padding=ft.Padding.symmetric(horizontal=12, vertical=10),
                    content=ft.Row(
                        [
                            gangster_token(ctx, view, g.model_copy(update={"asleep": not wakes}), 44),
                            ft.Text(text, size=18, weight=ft.FontWeight.BOLD, color="#111111" if wakes else INK, expand=True),
                        ],
                        spacing=10,
                        vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                ),
            )
        )
    # one full-width button per line: the sentence wraps on a narrow phone instead of running off
    rows.append(ft.Column(toggles, spacing=8))
    if confirm:
        text = tr.t("reglement.ui.confirm_wake", ats=", ".join(chosen)) if chosen else tr.t("reglement.ui.confirm_sleep")
        rows.append(act_button(ctx, player, text, handler(ctx.submit, {"type": "wake", "by": player, "seats": chosen}), ident="wake-confirm"))
    return ft.Semantics(
        identifier="wake-choice",
        key="wake-choice",
        content=ft.Container(bgcolor=PANEL, border_radius=12, padding=10, content=ft.Column(rows, spacing=8)),
    )


def helper(ctx: GameContext, view: View, sel: dict[str, Any], seat: int) -> ft.Control:
    """The private rules helper: pick a card, see its legal targets right now (and play one)."""
    tr = ctx.tr
    card = sel.get("help")

    def choose(value: str) -> Any:
        async def pick() -> None:
            sel["help"] = None if sel.get("help") == value else value
            sel["pills"] = []
            await ctx.rerender()

        return pick

    options = list(view.my_options or ())
    texts = [tr.t(f"reglement.card.{o.card}") + (f" ×{o.in_hand}" if o.in_hand else "") for o in options]

    def chip(i: int, size: int, lines: int, height: float) -> ft.Control:
        # all one face and size, in fixed places: from across the table the choices look alike
        value = options[i].card
        selected = card == value
        box = secret_face(texts[i], selected=selected, on_click=handler(choose(value)), size=size, lines=lines, height=height)
        return ft.Semantics(identifier=f"help-{value}", key=f"help-{value}", button=True, selected=selected, content=box)

    rows: list[ft.Control] = [
        label(tr.t("reglement.ui.helper"), 18, ACCENT, ft.FontWeight.BOLD),
        # the helper's panel has 10 px of padding on each side
        ft.Semantics(identifier="help-choices", key="help-choices", content=secret_choices(ctx.width - 20, texts, chip, columns=2)),
    ]
    option = options_for(view, card, mine=True) if card else None
    if option is None:
        rows.append(label(tr.t("reglement.ui.helper_pick"), 16, MUTED))
    else:
        rows.append(label(tr.t("reglement.label.helper", card=tr.t(f"reglement.card.{card}")), 17, INK, ft.FontWeight.BOLD))
        if not option.playable_now and option.blocked:
            rows.append(label(tr.t("reglement.ui.blocked", reason=tr.t(option.blocked, ctx.names, **blocked_params(view, option.blocked))), 16, DANGER))
        if not option.targets:
            rows.append(label(tr.t("reglement.ui.no_target", card=tr.t(f"reglement.card.{card}")), 16, MUTED))
        chosen = sel.get("pills", [])
        for i, t in enumerate(option.targets):
            rows.append(target_row(ctx, view, sel, seat, t, i, option.playable_now, t.seat in chosen))
        if card == "pills" and option.playable_now and option.targets:
            rows.append(
                act_button(
                    ctx,
                    seat,
                    tr.t("reglement.ui.confirm_pills", ats=", ".join(chosen) or "—"),
                    handler(ctx.submit, {"type": "pills", "by": seat, "targets": list(chosen)}),
                    ident="pills-confirm",
                    disabled=not chosen,
                    reason=tr.t("reglement.ui.pills_pick_first"),
                )
            )
    return ft.Semantics(
        identifier="helper",
        key="helper",
        content=ft.Container(bgcolor=PANEL, border_radius=12, padding=10, content=ft.Column(rows, spacing=6)),
    )


def target_row(ctx: GameContext, view: View, sel: dict[str, Any], seat: int, t: Any, i: int, playable: bool, chosen: bool) -> ft.Control:
    text = target_sentence(ctx, view, t)
    on_click = None
    if playable:
        if t.card == "pills":

            async def toggle() -> None:
                picked = list(sel.get("pills", []))
                if t.seat in picked:
                    picked.remove(t.seat)
                elif len(picked) < 3:
                    picked.append(t.seat)
                sel["pills"] = picked
                await ctx.rerender()

            on_click = handler(toggle)
        else:
            on_click = handler(ctx.submit, target_action(t, seat))
    return ft.Semantics(
        identifier=f"target-{i}",
        key=f"target-{i}",
        button=playable,
        selected=chosen,
        content=ft.Container(
            on_click=on_click,
            bgcolor=CARD_COLOUR[t.card] if playable else "#263238",
            border=ft.Border.all(3, CHOSEN if chosen else "#00000000"),
            border_radius=8,
            padding=10,
            content=ft.Row(
                [
                    ft.Text(text, size=16, color="#111111" if playable else INK, expand=True),
                    *([ft.Icon(ft.Icons.TOUCH_APP, size=22, color="#111111")] if playable else []),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        ),
    )


def hand_note(ctx: GameContext, view: View, seat: int) -> ft.Control:
    """The optional private note of the cards in this player's hand (only their phone sees it).

    The + and - buttons change a draft on this phone; "Save" sends it. Sending closes the private
    section (as every action does), so one action per card would close it after each tap."""
    tr = ctx.tr
    me = view.me
    assert me is not None
    saved = sorted(me.hand, key=CARDS.index)
    draft_key = ("reglement.note_draft", seat)
    hand = list(ctx.ui.get(draft_key, saved))

    def edit(cards: list[str]) -> Any:
        async def change() -> None:
            ctx.ui[draft_key] = sorted(cards, key=CARDS.index)
            await ctx.rerender()

        return change

    async def save() -> None:
        if await ctx.submit({"type": "note_hand", "by": seat, "cards": hand}):
            ctx.ui.pop(draft_key, None)

    rows: list[ft.Control] = [
        label(tr.t("reglement.ui.hand_note"), 18, ACCENT, ft.FontWeight.BOLD),
        label(tr.t("reglement.ui.hand_count", count=len(hand)), 15, MUTED),
    ]
    for card in CARDS:
        count = hand.count(card)
        plus = hand + [card]
        minus = list(hand)
        if count:
            minus.remove(card)
        rows.append(
            ft.Row(
                [
                    ft.Container(
                        expand=True,
                        content=label(f"{tr.t(f'reglement.card.{card}')}: {count}", 16, INK, ft.FontWeight.BOLD if count else None),
                    ),
                    ft.Semantics(
                        identifier=f"note-minus-{card}",
                        key=f"note-minus-{card}",
                        button=True,
                        content=icon_button(ft.Icons.REMOVE, tr.t("reglement.ui.note_fewer", card=card), handler(edit(minus)), colour=INK, disabled=count == 0),
                    ),
                    ft.Semantics(
                        identifier=f"note-plus-{card}",
                        key=f"note-plus-{card}",
                        button=True,
                        content=icon_button(ft.Icons.ADD, tr.t("reglement.ui.note_more", card=card), handler(edit(plus)), colour=INK, disabled=len(hand) >= 5),
                    ),
                ],
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    rows.append(big_button(tr.t("ui.save_note"), handler(save), ident="note-save", disabled=hand == saved))
    return ft.Semantics(
        identifier="hand-note",
        key="hand-note",
        content=ft.Container(bgcolor=PANEL, border_radius=12, padding=10, content=ft.Column(rows, spacing=2)),
    )


# --------------------------------------------------------------------------------------------
# the host's saved boards and seating presets (companion/reglement_library.py)
# --------------------------------------------------------------------------------------------


def library_for(ctx: GameContext | SetupContext) -> ReglementLibrary | None:
    """The host's library of boards and presets (in its data directory), or None without one."""
    data_dir = getattr(ctx, "data_dir", None)
    return ReglementLibrary(data_dir) if data_dir is not None else None


# -- the setup form (views/home.py calls these optional hooks) --

DEFAULT_BOARD = "default"
FREE = "free"


async def setup_load(ctx: SetupContext) -> None:
    """Read the saved boards and presets (off the event loop) into the form's state."""
    library = library_for(ctx)
    boards, presets = [], []
    if library is not None:
        boards = await asyncio.to_thread(library.list_boards)
        presets = await asyncio.to_thread(library.list_presets)
    ctx.state.update(
        boards={e.key: e for e in boards if e.ok},
        presets={e.key: e for e in presets if e.ok},
        board=DEFAULT_BOARD,
        seating=FREE,
    )


def chosen_board(ctx: SetupContext) -> Any:
    entry = ctx.state.get("boards", {}).get(ctx.state.get("board"))
    return entry.item if entry is not None else default_board()


def fitting_presets(ctx: SetupContext) -> list[Any]:
    """Saved presets for this many players whose seats are all on the chosen board."""
    board = chosen_board(ctx)
    return [
        e
        for e in ctx.state.get("presets", {}).values()
        if e.item.players == ctx.players and preset_problem(e.item, board) is None
    ]


def setup_fields(ctx: SetupContext) -> list[ft.Control]:
    tr = ctx.tr
    state = ctx.state
    boards = state.get("boards", {})
    if state.get("board") not in boards:
        state["board"] = DEFAULT_BOARD
    presets = fitting_presets(ctx)
    if state.get("seating") not in {e.key for e in presets}:
        state["seating"] = FREE

    def chooser(key: str) -> Any:
        async def on_select(event: Any) -> None:
            state[key] = event.control.value
            await ctx.rerender()

        return on_select

    async def edit_boards() -> None:
        ctx.page.navigate(f"/boards{ctx.host_query}")

    board_options = [ft.DropdownOption(key=DEFAULT_BOARD, text=tr.t("reglement.setup.default_board", name=default_board().name))]
    board_options += [ft.DropdownOption(key=key, text=e.name) for key, e in boards.items()]
    seating_options = [ft.DropdownOption(key=FREE, text=tr.t("reglement.setup.free"))]
    seating_options += [ft.DropdownOption(key=e.key, text=tr.t("reglement.setup.preset", name=e.name)) for e in presets]
    return [
        label(tr.t("reglement.setup.board"), 18, INK),
        ft.Row(
            [
                tagged(
                    "setup-board",
                    ft.Dropdown(label=tr.t("reglement.setup.board"), value=state["board"], options=board_options, on_select=chooser("board"), width=520),
                    name=choice_name(tr, tr.t("reglement.setup.board"), board_options, state["board"]),
                ),
                big_button(tr.t("reglement.setup.edit_boards"), handler(edit_boards), ident="open-boards", colour="#B0BEC5"),
            ],
            wrap=True,
            spacing=12,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        ),
        tagged(
            "setup-seating",
            ft.Dropdown(label=tr.t("reglement.setup.seating"), value=state["seating"], options=seating_options, on_select=chooser("seating"), width=520),
            name=choice_name(tr, tr.t("reglement.setup.seating"), seating_options, state["seating"]),
        ),
    ]


def setup_values(ctx: SetupContext) -> dict[str, Any]:
    """The Setup entries for the chosen board and seating (nothing extra for the defaults)."""
    state = ctx.state
    values: dict[str, Any] = {}
    entry = state.get("boards", {}).get(state.get("board"))
    if entry is not None:
        values["board"] = entry.item.model_dump(mode="json")
    preset = next((e for e in fitting_presets(ctx) if e.key == state.get("seating")), None)
    if preset is not None:
        values.update(preset.item.setup_entries())
    return values


# -- saving the seating the table just chose, on the host board --


def preset_ready(view: View) -> bool:
    """Free seating just ended: everyone is seated and the first turn has not played a card."""
    return (
        view.phase == "play"
        and view.turn_number == 1
        and not view.cards_played
        and not view.discarded
        and any(r.code == "reglement.seating_done" for r in view.turn_log)
        and all(g.alive and g.seat is not None for g in view.gangsters)
    )


def save_preset_panel(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    library = library_for(ctx)
    state = ctx.ui.setdefault(("reglement.preset", view.turn_number), {})
    players = len(view.players)
    state.setdefault("name", tr.t("reglement.preset.default_name", count=players, board=view.board_name))

    async def on_name(event: Any) -> None:
        state["name"] = event.control.value or ""

    async def save() -> None:
        name = state.get("name", "").strip()
        preset = {
            "name": name or "preset",
            "players": players,
            "board": view.board_name,
            "gangsters": [{"player": g.owner, "kind": g.kind, "seat": g.seat} for g in view.gangsters],
        }
        try:
            entry = await asyncio.to_thread(library.save_preset, preset["name"], preset)
        except (LibraryError, OSError) as error:
            state["result"] = tr.t("reglement.preset.failed", problem=str(error))
            state["ok"] = False
        else:
            state["result"] = tr.t("reglement.preset.saved", name=entry.name, count=players, players=players)
            state["ok"] = True
        await ctx.rerender()

    rows: list[ft.Control] = [label(tr.t("reglement.preset.title"), 18, ACCENT, ft.FontWeight.BOLD)]
    if library is None:
        rows.append(label(tr.t("reglement.editor.no_data_dir"), 15, MUTED))
    else:
        rows.append(
            ft.Row(
                [
                    ft.Semantics(
                        identifier="preset-name",
                        key="preset-name",
                        content=ft.TextField(label=tr.t("reglement.preset.name"), value=state["name"], on_change=on_name, width=360),
                    ),
                    big_button(tr.t("reglement.preset.save"), handler(save), ident="preset-save"),
                ],
                wrap=True,
                spacing=12,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            )
        )
    if state.get("result"):
        rows.append(
            ft.Semantics(
                identifier="preset-result",
                key="preset-result",
                live_region=True,
                content=label(state["result"], 16, INK if state.get("ok") else DANGER),
            )
        )
    return ft.Semantics(
        identifier="save-preset",
        key="save-preset",
        content=ft.Container(bgcolor=PANEL, border_radius=12, padding=12, content=ft.Column(rows, spacing=8)),
    )


UI: GameUI[View] = GameUI(
    status_line=status_line,
    seat_summary=seat_summary,
    is_my_turn=is_my_turn,
    board_body=board_body,
    seat_body=seat_body,
    setup_fields=setup_fields,
    setup_values=setup_values,
    setup_load=setup_load,
)
