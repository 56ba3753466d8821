"""Vabanque's board: the circle of casino tables at a size that keeps its place in every phase,
each table's face (its total, pawns, card backs, then the revealed cards), the tap targets
acting for the current player, and the reveal and payout beside the ring."""

from __future__ import annotations

import math
import flet as ft

from companion.games.vabanque import Card, TableView, View
from views.common import (
    ACCENT,
    COLOUR_HEX,
    FELT_LIGHT,
    INK,
    MUTED,
    big_button,
    glyph,
    handler,
    label,
    player_chip,
)
from views.context import GameContext
from views.games.vabanque.pieces import ASIDE_WIDTH, CARD_COLOURS, CORNER, REACH, card_back, current_step, move_buttons, pawn, payout_panel, payout_steps, ring_size, table_total, tile_side
from views.text_metrics import text_width


def board_body(ctx: GameContext, view: View, reveal: ft.Control | None) -> ft.Control:
    tr = ctx.tr
    size, wide = ring_size(ctx)
    count = len(view.tables)
    tile = tile_side(size, count)
    # the tiles' centres: their outer corners 4 px inside the ring's box
    radius = size / 2 - REACH * tile - 4
    current = view.waiting_for[0] if len(view.waiting_for) == 1 else None
    tappable = ctx.acts_for_current and view.phase == "chips" and current is not None
    highlight = None
    if view.phase in ("payout", "over"):
        steps = payout_steps(view)
        if steps:
            highlight = steps[current_step(ctx, view)][0]
    tiles: list[ft.Control] = []
    for table in view.tables:
        # Table 1 at the top, numbering clockwise.
        angle = -math.pi / 2 + 2 * math.pi * (table.number - 1) / count
        left = size / 2 + radius * math.cos(angle) - tile / 2
        top = size / 2 + radius * math.sin(angle) - tile / 2
        tiles.append(table_tile(ctx, table, tile, left, top, tappable, highlight == table.number, current))
    # On a phone the space inside the ring is small: a rectangle inscribed in it, smaller type,
    # and the turn order goes under the circle (it would cover the tables).
    inside = 2 * (radius - tile / 2)
    compact = inside < 200  # about 170 px on a phone
    box_width, box_height = (inside * 0.8, inside * 0.6) if compact else (size * 0.5, size * 0.4)
    # each line a part: a chip placed changes the prompt's player, not the turn order under it
    lines = ctx.group("ring-centre-lines", None, centre_lines(ctx, view, compact), lambda lines: ft.Column(lines, horizontal_alignment=ft.CrossAxisAlignment.CENTER, tight=True, spacing=6))
    below_lines = [] if compact or view.phase == "over" else [ctx.part("ring-turn-order", view.order, lambda: turn_order(ctx, view))]
    centre = ctx.group(
        "ring-centre",
        (compact, box_width, box_height, size),
        [lines, *below_lines],
        lambda inside: ft.Container(
            left=(size - box_width) / 2,
            top=(size - box_height) / 2,
            width=box_width,
            height=box_height,
            alignment=ft.Alignment.CENTER,
            content=ft.Column(inside, horizontal_alignment=ft.CrossAxisAlignment.CENTER, tight=True, spacing=6),
        ),
    )
    layers = [centre, *tiles]
    if tappable and current is not None:
        # whose chip a tap places: the tables framed in that player's colour, under them (a
        # decorated box over a table would take its tap); one colour to send for a new player
        colour = COLOUR_HEX[ctx.colours[current]]
        layers.insert(0, ctx.part("ring-frame", (size, colour), lambda: ft.Container(left=0, top=0, width=size, height=size, border_radius=size / 2, border=ft.Border.all(4, colour))))
    circle = ctx.group("ring", size, layers, lambda layers: ft.Stack(layers, width=size, height=size))
    below: list[ft.Control] = []
    if compact:
        hint = centre_hint(ctx, view) if len(view.waiting_for) == 1 else None
        below.extend([turn_order(ctx, view)] + ([hint] if hint is not None else []))
    if reveal is not None:
        below.append(reveal)
    if view.phase == "moves" and ctx.acts_for_current and current is not None:
        below.append(ctx.part("move-for", current, lambda: label(tr.t("vabanque.board_move_for", ctx.names, seat=current), 18, INK)))
        moves = view.board_legal.moves
        below.append(ctx.part("board-moves", (moves, current, wide), lambda: move_buttons(ctx, moves, current, column=wide)))
    if view.phase == "payout" and ctx.acts_for_current:
        # the host board's alone (a phone says it is ready): each device steps through the
        # payout on its own, and only this ends it for everyone
        below.append(
            big_button(
                tr.t("vabanque.start_round", round=view.round + 1),
                handler(ctx.submit, {"type": "next_round", "by": None}),
                ident="next-round",
            )
        )
    if view.phase in ("payout", "over"):
        below.append(payout_panel(ctx, view))
    if wide:
        # the column beside the ring is there in every phase, empty or not
        aside = ctx.group("ring-aside", None, below, lambda below: ft.Container(width=ASIDE_WIDTH, content=ft.Column(below, spacing=12, tight=True)))
        return ctx.group("board-body", wide, [circle, aside], lambda row: ft.Row(row, vertical_alignment=ft.CrossAxisAlignment.START, spacing=16))
    return ft.Column([ft.Row([circle], alignment=ft.MainAxisAlignment.CENTER), *below], horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=12)


def centre_lines(ctx: GameContext, view: View, compact: bool = False) -> list[ft.Control]:
    """The lines inside the ring, each a part: a chip placed changes the player's chip alone
    (the prompt and the hint read the same for every player of a phase)."""
    tr = ctx.tr
    scale = 0.7 if compact else 1.0
    lines: list[ft.Control] = []
    if view.phase == "over":
        winner = tr.t("ui.winner", ctx.names, seats=list(view.winners))
        lines.append(ctx.part("centre-winner", (winner, scale), lambda: label(winner, int(28 * scale), ACCENT, ft.FontWeight.BOLD, text_align=ft.TextAlign.CENTER)))
        return lines
    if len(view.waiting_for) == 1:
        seat = view.waiting_for[0]
        lines.append(ctx.part("centre-player", (seat, scale), lambda: player_chip(tr, ctx.names, ctx.colours, seat, int(24 * scale))))
        # the shared board names the player ("Anna: move the pawn"), never "your"
        prompt = tr.t("vabanque.board_prompt.moves", ctx.names, seat=seat) if view.phase == "moves" else tr.t(f"vabanque.prompt.{view.phase}", value=view.chip_value)
        lines.append(ctx.part("centre-prompt", (prompt, scale), lambda: label(prompt, int(20 * scale), INK, text_align=ft.TextAlign.CENTER)))
        if not compact and (hint := centre_hint_text(ctx, view)) is not None:
            lines.append(ctx.part("centre-hint", hint, lambda: label(hint, 15, MUTED, text_align=ft.TextAlign.CENTER)))
    elif view.phase == "payout":
        title = tr.t("vabanque.payout_title", round=view.round)
        lines.append(ctx.part("centre-payout", (title, scale), lambda: label(title, int(24 * scale), ACCENT, ft.FontWeight.BOLD, text_align=ft.TextAlign.CENTER)))
    # (the turn order goes under these lines, or under the ring on a phone: see board_body)
    return lines


def centre_hint_text(ctx: GameContext, view: View) -> str | None:
    if view.phase == "cards":
        return ctx.tr.t("vabanque.cards_on_phone")
    if view.phase == "chips" and ctx.acts_for_current:
        return ctx.tr.t("vabanque.tap_table")
    return None


def centre_hint(ctx: GameContext, view: View) -> ft.Control | None:
    text = centre_hint_text(ctx, view)
    return None if text is None else label(text, 15, MUTED, text_align=ft.TextAlign.CENTER)


def turn_order(ctx: GameContext, view: View) -> ft.Control:
    return ft.Row([player_chip(ctx.tr, ctx.names, ctx.colours, s, 13) for s in view.order], wrap=True, alignment=ft.MainAxisAlignment.CENTER, spacing=4)


def table_tile(ctx: GameContext, table: TableView, tile: float, left: float, top: float, tappable: bool, highlighted: bool, current: int | None) -> ft.Control:
    """One table of the ring; `current`: the player a tap places a chip for (when `tappable`).

    What the table shows (its face: `tile_face`) is drawn whoever acts. Over it, when a tap
    places a chip: a clear tap target per player, keyed by that player and shown for them alone
    (`tap_target`); the ring of tables is framed in that player's colour (board_body). So a new
    player sends two targets' flags a table, and no control comes or goes (building the targets
    afresh, each ringed in the player's colour, at each turn and again as the handover window
    closed, was a third of the board's work per action)."""
    number = table.number
    layers: list[ft.Control] = [tile_face(ctx, table, tile, highlighted)]
    if tappable and current is not None:
        # during a handover window the previous player's target stays, refusing every tap
        # (views/screen.py Handover): a tap meant for them is told whose turn it is now
        taking = ctx.acting_slot(current)
        layers.extend(tap_target(ctx, number, tile, seat, seat == taking) for seat in range(len(ctx.names)))
    ident = f"table-{number}"
    return ctx.group(
        f"tile-{number}",
        (left, top, tile, tappable),
        layers,
        lambda layers: ft.Container(left=left, top=top, content=ft.Semantics(identifier=ident, key=ident, button=tappable, content=ft.Stack(layers, width=tile, height=tile))),
    )


def tap_target(ctx: GameContext, number: int, tile: float, seat: int, shown: bool) -> ft.Control:
    """The clear layer over table `number` whose tap places a chip for `seat`: mounted while the
    board places chips, keyed by its player (a tap on its way to it never acts for another), and
    hidden unless a tap now places that player's chip (a hidden control takes no tap:
    views/flet_patches/hardening.py 3)."""
    return ctx.part(
        f"tile-tap-{number}-{seat}",
        (tile, shown),
        lambda: ft.Container(
            key=f"table-{number}@{seat}",
            visible=shown,
            width=tile,
            height=tile,
            border_radius=tile * CORNER,
            bgcolor="#00000000",  # clear, and the whole tile takes the tap
            on_click=handler(ctx.submit, {"type": "place_chip", "by": seat, "table": number}),
        ),
    )


def token_size(tile: float) -> int:
    """40 px tokens on a tablet's tiles (read at arm's length); a phone's small tiles
    (about 70 px) keep tokens in proportion."""
    return max(40, int(tile * 0.2)) if tile >= 90 else int(tile * 0.17)


def face_head(number: ft.Control, total: ft.Control, tile: float) -> ft.Control:
    """The number, then the total: the tile's accessible name ends with its total."""
    if tile >= 90:
        return ft.Row([number, total], alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER, spacing=6)
    return ft.Column([number, total], horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=0, tight=True)


def face_number(table: TableView, tile: float) -> ft.Control:
    return label(str(table.number), int(tile * 0.18), ACCENT, ft.FontWeight.BOLD)


def face_total(ctx: GameContext, total: int, tile: float) -> ft.Control:
    return label(table_total(ctx.tr, total), int(tile * 0.115) if tile >= 90 else max(9, int(tile * 0.12)), INK, ft.FontWeight.BOLD)


#: a table tile's padding, and its border: thick and bright while its payout step is shown
FACE_PADDING = 4
FACE_BORDER = 2
FACE_BORDER_SHOWN = 5


def face_box(tile: float, highlighted: bool, inner: list[ft.Control]) -> ft.Control:
    return ft.Container(
        width=tile,
        height=tile,
        # a rounded square, not a circle: the corners hold the words of a revealed table's cards
        border_radius=tile * CORNER,
        bgcolor=FELT_LIGHT,
        padding=FACE_PADDING,
        border=ft.Border.all(FACE_BORDER_SHOWN, ACCENT) if highlighted else ft.Border.all(FACE_BORDER, "#2E7D60"),
        alignment=ft.Alignment.CENTER,
        content=ft.Column(inner, horizontal_alignment=ft.CrossAxisAlignment.CENTER, alignment=ft.MainAxisAlignment.CENTER, spacing=2, tight=True),
    )


def tile_face(ctx: GameContext, table: TableView, tile: float, highlighted: bool) -> ft.Control:
    """What a table shows on its tile. Until it is revealed its total, its pawns and its card
    backs are parts of their own, so a chip placed sends one line, not the tile's tokens again;
    a revealed table (its cards in words, fitted around the pawns) is one part."""
    number = table.number
    if table.payout is not None:
        return ctx.part(f"tile-revealed-{number}", (table, tile, highlighted), lambda: revealed_face(ctx, table, tile, highlighted))
    token = token_size(tile)
    head = ctx.group(
        f"tile-head-{number}",
        tile,
        [ctx.part(f"tile-number-{number}", tile, lambda: face_number(table, tile)), ctx.part(f"tile-total-{number}", (table.total, tile), lambda: face_total(ctx, table.total, tile))],
        lambda lines: face_head(lines[0], lines[1], tile),
    )
    inner: list[ft.Control] = [head]
    if table.pawns:
        inner.append(ctx.part(f"tile-pawns-{number}", (table.pawns, tile), lambda: fanned([pawn(ctx, s, token, f"pawn-{number}-{s}") for s in table.pawns], token, token, tile * 0.8)))
    if table.card_backs:
        inner.append(ctx.part(f"tile-backs-{number}", (table.card_backs, tile), lambda: fanned([card_back(ctx, s, token, f"back-{number}-{i}") for i, s in enumerate(table.card_backs)], token * 0.75, token, tile * 0.8)))
    return ctx.group(f"tile-face-{number}", (tile, highlighted), inner, lambda inner: face_box(tile, highlighted, inner))


def revealed_face(ctx: GameContext, table: TableView, tile: float, highlighted: bool) -> ft.Control:
    """A revealed table's number, total, pawns and cards in words on its felt, drawn whole (an
    unrevealed one is drawn in parts: see tile_face)."""
    assert table.payout is not None  # tile_face draws a table this way once it is revealed
    big = tile >= 90  # a tablet's tiles (a phone's are about 70 px)
    token = token_size(tile)
    head = face_head(face_number(table, tile), face_total(ctx, table.total, tile), tile)
    head_height = tile * 0.18 * 1.2 if big else (tile * 0.18 + max(9, tile * 0.12)) * 1.2
    inner: list[ft.Control] = [head]
    # the felt inside the tile's padding and its border, as thick as it is drawn when the
    # table's payout step is shown (the words keep their size as the steps are gone through)
    room = tile - 2 * (FACE_PADDING + FACE_BORDER_SHOWN)
    pawns = [pawn(ctx, s, token, f"pawn-{table.number}-{s}") for s in table.pawns]
    if not table.payout.cards:
        if pawns:
            inner.append(fanned(pawns, token, token, room))
    else:
        # the cards in words, under the pawns or beside them: whichever lets the words be larger
        cards = [(c.card, c.seat) for c in table.payout.cards]
        under_height = room - head_height - 2 - ((token + 2) if pawns else 0)
        # under the words the pawns have the tile's width (side by side when they fit); beside
        # them, a narrow fan
        row = fanned(pawns, token, token, room) if pawns else None
        stack = fanned(pawns, token, token, token * 1.6) if pawns else None
        beside_width = room - ((stack.width or 0) + 4 if stack is not None else 0)
        largest = int(tile * 0.115)
        under = card_words_size(ctx, cards, room, under_height, largest)
        beside = card_words_size(ctx, cards, beside_width, room - head_height - 2, largest) if stack is not None else 0
        if stack is not None and beside > under:
            inner.append(ft.Row([stack, revealed_cards(ctx, cards, beside_width, beside)], spacing=4, alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER, tight=True))
        else:
            if row is not None:
                inner.append(row)
            # no size fits their height (many cards): the largest that fits across; none does
            # (a phone-sized board): the smallest, each card's words wrapping inside its card
            # rather than cut at the tile's edge
            across = under or card_words_size(ctx, cards, room, float("inf"), largest)
            inner.append(revealed_cards(ctx, cards, room, across or SMALLEST_WORDS, wrap=not across))
    return face_box(tile, highlighted, inner)


def fanned(tokens: list[ft.Control], width: float, height: float, room: float) -> ft.Stack:
    """Tokens side by side in `room` px, or overlapping like a fanned hand when they do not fit
    (each then shows at least its left part, in its owner's colour)."""
    step = width + 2 if len(tokens) < 2 else min(width + 2, max(width * 0.45, (room - width) / (len(tokens) - 1)))
    placed: list[ft.Control] = [ft.Container(left=i * step, top=0, content=t) for i, t in enumerate(tokens)]
    return ft.Stack(placed, width=width + step * (len(tokens) - 1), height=height)


#: what a revealed card's border and padding add to its text: across, down
CARD_EDGES = (14, 10)
#: the smallest type a revealed card's words are drawn in
SMALLEST_WORDS = 10


def card_words(ctx: GameContext, card: str, seat: int) -> str:
    return f"{glyph(ctx.colours[seat])} {ctx.tr.t(f'vabanque.card.{card}')}"


def rows_needed(widths: list[float], room: float, spacing: float = 3) -> int:
    """The rows a wrapping row of items `widths` wide takes in `room` px."""
    rows, used = 1, 0.0
    for w in widths:
        if used and used + spacing + w > room:
            rows, used = rows + 1, 0.0
        used += (spacing if used else 0) + w
    return rows


def card_words_size(ctx: GameContext, cards: list[tuple[Card, int]], width: float, height: float, largest: int) -> int:
    """The largest type (down to SMALLEST_WORDS) in which a revealed table's cards, in words,
    wrap into `width` x `height`; 0 if none does."""
    words = [card_words(ctx, card, seat) for card, seat in cards]
    for size in range(largest, SMALLEST_WORDS - 1, -1):
        widths = [text_width(w, size, bold=True) + CARD_EDGES[0] + 2 for w in words]
        rows = rows_needed(widths, width)
        if max(widths) <= width and rows * (size * 1.2 + CARD_EDGES[1]) + (rows - 1) * 3 <= height:
            return size
    return 0


def revealed_cards(ctx: GameContext, cards: list[tuple[Card, int]], width: float, size: int, wrap: bool = False) -> ft.Control:
    """A revealed table's cards, each in words with its owner's shape ("▲ Raise"); `wrap`: the
    words may wrap inside a card as wide as `width` (when no size fits them on one line)."""
    faces = [card_face_small(ctx, card, seat, size, width if wrap else None) for card, seat in cards]
    return ft.Container(width=width, content=ft.Row(faces, alignment=ft.MainAxisAlignment.CENTER, spacing=3, run_spacing=3, wrap=True))


def card_face_small(ctx: GameContext, card: str, seat: int, size: int, most: float | None = None) -> ft.Control:
    """A revealed card on its table: its name in words and its owner's shape, in the owner's
    colour (an initial alone is not read at arm's length). `most`: at most this wide, the
    words wrapping inside (else on one line, sized by card_words_size to fit)."""
    colour = ctx.colours[seat]
    words = card_words(ctx, card, seat)
    width = None if most is None else min(most, text_width(words, size, bold=True) + CARD_EDGES[0] + 2)
    return ft.Container(
        bgcolor=CARD_COLOURS[card],
        border=ft.Border.all(3, COLOUR_HEX[colour]),
        border_radius=4,
        padding=ft.Padding.symmetric(horizontal=4, vertical=2),
        width=width,
        content=ft.Text(words, size=size, weight=ft.FontWeight.BOLD, color="#111111", no_wrap=most is None, text_align=ft.TextAlign.CENTER if most is not None else ft.TextAlign.START),
    )

