"""Règlement de comptes' table drawing, shared by the board, the phones and the board editor: the
long dinner table, its chairs (each a part in a frame group), the gangsters and cakes on them, the
chairs' tap targets in one layer per player, and the legend."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial

import flet as ft

from companion.games.reglement import KINDS, SeatView, View
from views.common import (
    border_all,
    ACCENT,
    COLOUR_HEX,
    INK,
    glyph,
    handler,
    label,
    text_on,
)
from views.context import GameContext
from views.games.reglement.pieces import BLAST, BUSINESS_COLOUR, BUSINESS_ICON, MARK_ICON, SEAT_BG, TABLE_WOOD, Selection, gangster_at, gangster_token, kind_name, selection, toggle_wake


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


#: an empty place on a chair: darker than any chair's colour, business or not
EMPTY_PLACE = "#33000000"


def cake_badge(ctx: GameContext, owner: int, size: float) -> ft.Control:
    """A cake on a seat: its owner's colour as the ring and their shape glyph as the badge."""
    colour = ctx.colours[owner]
    return ft.Container(
        bgcolor="#FFFFFF",
        border=border_all(3, COLOUR_HEX[colour]),
        border_radius=size,
        padding=ft.Padding.symmetric(horizontal=4, vertical=0),
        content=ft.Icon(ft.Icons.CAKE, size=size, color="#C2185B"),
        badge=ft.Badge(label=glyph(colour), bgcolor=COLOUR_HEX[colour], text_color=text_on(colour)),
    )


def chair_body(ctx: GameContext, view: View, seat: SeatView, w: float, bottom: bool, spoken: bool) -> ft.Control:
    """What a chair holds: its number, business and marks, the gangster sitting there (or an
    empty place) and a cake; `spoken`: told to screen readers in words here (else its tap target,
    over it, says them). Its frame (`chair_frame`) is drawn apart: a ring moving to it redraws
    the frame only."""
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
    # a cake takes a line of the chair's own: the gangster is drawn smaller so both fit the tile
    # (a cake under a full-size gangster was cut by the tile's edge) and the cake reads from
    # across the table
    size = w * (0.52 if seat.cake is not None else 0.74)
    token: ft.Control = (
        gangster_token(ctx, view, g, size)
        if g is not None
        # an empty place: a shade of the chair's colour, no border (a gangster's death then
        # sends one property, not its border side by side)
        else ft.Container(width=size, height=size, bgcolor=EMPTY_PLACE, border_radius=size * 0.22)
    )
    body: list[ft.Control] = [*head, token]
    if seat.cake is not None:
        body.append(cake_badge(ctx, seat.cake, max(12, int(w * 0.4))))
    if bottom:
        body.reverse()  # the bottom row faces the table: marks nearest the table, like the top row
    column = ft.Column(
        body,
        spacing=2,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        alignment=ft.MainAxisAlignment.END if bottom else ft.MainAxisAlignment.START,
    )
    if spoken:
        return ft.Semantics(label=seat_description(ctx, view, seat), content=column)
    return ft.Semantics(exclude_semantics=True, content=column)


def chair_frame(seat: SeatView, left: float, top: float, w: float, h: float, ring: str | None, body: list[ft.Control]) -> ft.Control:
    """A chair's place at the table, its colour and its ring, around its `chair_body`."""
    return ft.Container(
        left=left,
        top=top,
        width=w,
        height=h,
        key=f"s{seat.id}",
        bgcolor=BUSINESS_COLOUR[seat.business] if seat.business else SEAT_BG,
        border_radius=8,
        border=border_all(4, ring) if ring else border_all(1, "#2E6B55"),
        padding=2,
        content=body[0],
    )


@dataclass(frozen=True)
class ChairTap:
    """What a tap on a chair of the table drawing does at this drawing: `run(seat id, by)`, `by`
    being the player the tapped layer acts for (`acts_for` now; during a handover window the
    previous player's layer is the one shown, and its taps are refused as theirs)."""

    run: Callable[[str, int | None], Awaitable[None]]
    acts_for: int | None = None


#: ctx.ui key of the ChairTap of this drawing: a tap target kept from an earlier drawing calls it
TABLE_TAP_NOW = "reglement.table_tap"


async def tap_chair(ctx: GameContext, seat_id: str, by: int | None) -> None:
    tap: ChairTap | None = ctx.ui.get(TABLE_TAP_NOW)
    if tap is not None:
        await tap.run(seat_id, by)


def chair_target(ctx: GameContext, seat_id: str, description: str, left: float, top: float, w: float, h: float, by: int | None) -> ft.Control:
    """A chair's tap target: a clear box over its drawing, saying what the chair holds. (The
    Semantics node needs a child: without one the browser draws Flet's red error box in place of
    the chair, tests/harness/flutter_rules.py.)"""
    return ft.Container(
        left=left,
        top=top,
        key=f"{seat_id}@{by}",
        content=ft.Semantics(
            identifier=f"chair-{seat_id}",
            button=True,
            label=description,
            content=ft.Container(width=w, height=h, on_click=handler(tap_chair, ctx, seat_id, by)),
        ),
    )


def chair_layers(ctx: GameContext, view: View, key: str, seats: list[tuple[SeatView, float, float]], w: float, h: float, width: float, height: float, tap: ChairTap) -> list[ft.Control]:
    """The chairs' tap targets, over their drawings. Acting for a player, one layer per player,
    each mounted and shown only while a tap acts for its player (during a handover window, the
    previous player's: GameContext.acting_slot): a tap on its way to one player's layer never
    acts for another, and a change of player sends two flags, not every chair again (Vabanque's
    tables do the same)."""
    owners: list[int | None] = [None] if tap.acts_for is None else list(range(len(ctx.names)))
    showing = None if tap.acts_for is None else ctx.acting_slot(tap.acts_for)
    layers: list[ft.Control] = []
    spoken = [(seat.id, seat_description(ctx, view, seat), left, top) for seat, left, top in seats]
    for by in owners:
        targets = [ctx.part(f"{key}-tap-{by}-{seat_id}", (seat_id, said, left, top, w, h, by), partial(chair_target, ctx, seat_id, said, left, top, w, h, by)) for seat_id, said, left, top in spoken]
        shown = by == showing
        # (a table cut in pieces has layers in each piece: named by its first chair)
        layers.append(ctx.group(f"{key}-layer-{seats[0][0].id}-{by}", (shown, width, height), targets, partial(chair_layer, by, shown, width, height)))
    return layers


def chair_layer(by: int | None, shown: bool, width: float, height: float, targets: list[ft.Control]) -> ft.Control:
    return ft.Container(left=0, top=0, width=width, height=height, visible=shown, key=f"taps@{by}", content=ft.Stack(targets, width=width, height=height))


def seat_description(ctx: GameContext, view: View, seat: SeatView) -> str:
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


#: the seats' tiles on a phone, when the table is cut into pieces (see `table_drawing`): a
#: touch target's width
PHONE_TILE = 48.0


#: A drawing whose tiles would be narrower than this (a phone) is cut into pieces, if its caller
#: allows it (`table_drawing(min_tile=...)`): at 360 px, 15 seats a side leave 18 px tiles.
NARROW_TILE = 30.0


def table_drawing(
    ctx: GameContext,
    view: View,
    width: float,
    rings: dict[str, str],
    tap: ChairTap | None,
    centre: list[ft.Control],
    max_tile: float = 84,
    min_tile: float | None = None,
    key: str = "table",
) -> ft.Control:
    """The long table: seats placed by their drawing hints, facing seats straight across.

    min_tile: where the tiles would be narrower than NARROW_TILE, the table is cut crosswise into
    pieces with tiles at least this wide, shown one under another from the left end (seats still
    face each other across each piece), the centre above them; None: one drawing however narrow.
    `tap`: what a tap on a chair does (None: a table nobody taps). Every chair is a part (`key`
    names the drawing's parts): a gangster seated redraws that chair alone."""
    ctx.ui[TABLE_TAP_NOW] = tap
    places = layout(view)
    rows: dict[float, int] = {}
    for _x, y in places.values():
        rows[round(y, 2)] = rows.get(round(y, 2), 0) + 1
    per_row = max(rows.values())
    tile_w = max(20.0, min(max_tile, (width - 4) / per_row - 3))
    ys = [y for _, y in places.values()]
    y_range = (min(ys), max(ys))
    if min_tile is not None and tile_w < NARROW_TILE:
        return table_in_pieces(ctx, view, places, width, y_range, rings, tap, centre, max_tile, min_tile, per_row, key)
    xs = [x for x, _ in places.values()]
    x0, x1 = min(xs), max(xs)
    span = (width - tile_w) / (x1 - x0) if x1 > x0 else 0
    gap = max(56.0, tile_w * 0.9)
    return table_piece(ctx, view, view.seats, places, width, tile_w, gap, x0, span, y_range, rings, tap, centre, key)


def table_piece(
    ctx: GameContext,
    view: View,
    seats: Sequence[SeatView],
    places: dict[str, tuple[float, float]],
    width: float,
    tile_w: float,
    gap: float,
    x0: float,
    span: float,
    y_range: tuple[float, float],
    rings: dict[str, str],
    tap: ChairTap | None,
    centre: list[ft.Control],
    key: str,
) -> ft.Control:
    """`seats` round a strip of table `gap` px wide (holding `centre`): x0 at the left edge,
    `span` px per unit of the drawing hints' x. The chairs' drawings first, their tap targets
    over them (a Stack paints its last children on top)."""
    tile_h = tile_w * 2.1
    height = 2 * tile_h + gap
    y0, y1 = y_range
    # whole pixels (a tenth): the positions are sent with every chair
    tile_w, tile_h, height = round(tile_w, 1), round(tile_h, 1), round(height, 1)
    wood = (round(tile_w * 0.3, 1), round(tile_h + 6, 1), round(width - tile_w * 0.6, 1), gap - 12)
    tiles: list[ft.Control] = [ctx.group(f"{key}-wood-{seats[0].id}", wood, centre, partial(table_wood, *wood))]
    spots: list[tuple[SeatView, float, float]] = []
    for seat in seats:
        x, y = places[seat.id]
        left = round((x - x0) * span, 1)
        frac = (y - y0) / (y1 - y0) if y1 > y0 else 0
        top = round(frac * (height - tile_h), 1)
        ring = rings.get(seat.id)
        bottom = frac > 0.5
        body = ctx.part(f"{key}-chair-{seat.id}", (seat, gangster_at(view, seat), tile_w, bottom, tap is None), partial(chair_body, ctx, view, seat, tile_w, bottom, tap is None))
        tiles.append(ctx.group(f"{key}-frame-{seat.id}", (seat.business, left, top, tile_w, tile_h, ring), [body], partial(chair_frame, seat, left, top, tile_w, tile_h, ring)))
        spots.append((seat, left, top))
    layers = chair_layers(ctx, view, key, spots, tile_w, tile_h, width, height, tap) if tap is not None else []
    # (keyed by its first chair: the pieces of a table cut in pieces are groups of their own)
    return ctx.group(f"{key}-piece-{seats[0].id}", (width, height), [*tiles, *layers], lambda children: ft.Stack(children, width=width, height=height, key=f"piece-{seats[0].id}"))


def table_wood(left: float, top: float, width: float, height: float, centre: list[ft.Control]) -> ft.Control:
    """The table's wood between the two rows of chairs, holding `centre` (the bank, the piles)."""
    return ft.Container(
        left=left,
        top=top,
        width=width,
        height=height,
        bgcolor=TABLE_WOOD,
        border_radius=height / 2,
        alignment=ft.Alignment.CENTER,
        key="wood",
        content=ft.Row(centre, alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=18, wrap=True) if centre else None,
    )


def table_in_pieces(
    ctx: GameContext,
    view: View,
    places: dict[str, tuple[float, float]],
    width: float,
    y_range: tuple[float, float],
    rings: dict[str, str],
    tap: ChairTap | None,
    centre: list[ft.Control],
    max_tile: float,
    min_tile: float,
    per_row: int,
    key: str,
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
    top = ctx.group(f"{key}-centre", None, centre, table_centre)
    drawn = [table_piece(ctx, view, seats, places, width, tile_w, 36.0, x0, span, y_range, rings, tap, [], key) for seats, x0 in zip(pieces, lefts, strict=True)]
    return ctx.group(f"{key}-pieces", None, [top, *drawn], lambda children: ft.Column(children, spacing=20, key="pieces"))


def table_centre(centre: list[ft.Control]) -> ft.Control:
    """Above a table cut in pieces: the bank and the piles."""
    return ft.Container(
        bgcolor=TABLE_WOOD,
        border_radius=24,
        padding=ft.Padding.symmetric(horizontal=16, vertical=6),
        alignment=ft.Alignment.CENTER,
        key="wood",
        content=ft.Row(centre, alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=12, run_spacing=2, wrap=True),
    )


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


def wake_tap(ctx: GameContext, view: View, sel: Selection) -> ChairTap:
    """On the host board during the wake-up: a tap on a sleeper toggles him, elsewhere informs."""
    info = info_tap(ctx, view)

    async def tap(seat_id: str, _by: int | None) -> None:
        if seat_id in view.wake_choices:
            await toggle_wake(ctx, view, sel, seat_id)
        else:
            await info.run(seat_id, None)

    return ChairTap(tap)


def info_tap(ctx: GameContext, view: View) -> ChairTap:
    """A tap on a chair says what it is, under the table (a second tap hides it)."""

    async def tap(seat_id: str, _by: int | None) -> None:
        sel = selection(ctx, view)
        sel["info"] = None if sel.get("info") == seat_id else seat_id
        await ctx.rerender()

    return ChairTap(tap)
