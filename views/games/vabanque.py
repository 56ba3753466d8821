"""Vabanque on screen: the circle of casino tables (board) and the player's choices (phone)."""

from __future__ import annotations

import math
from typing import Any

import flet as ft

from companion.games.vabanque import GAME, View
from views.context import GameContext
from views.games import GameUI
from views.steps import shown_step, step_buttons
from views.text_metrics import text_width
from views.common import (
    ACCENT,
    COLOUR_HEX,
    FELT_LIGHT,
    INK,
    MUTED,
    PANEL,
    act_button,
    big_button,
    choice_target,
    glyph,
    handler,
    label,
    player_chip,
    private_section,
    public_view,
    role,
    secret_choices,
    secret_face,
    text_on,
)

CARD_COLOURS = {"raise": "#FFD54F", "bluff": "#B0BEC5", "cheat": "#FF8A80"}
#: the face of every card button on the phone while choosing (see card_button)
CHOICE_FACE = "#ECEFF1"


def status_line(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    parts = [tr.t("ui.round", round=view.round, rounds=view.rounds), tr.t(f"vabanque.phase.{view.phase}")]
    if view.phase == "chips":
        parts.append(tr.t("vabanque.chips_left", value=view.chip_value, count=view.chips_left))
    return label(" · ".join(parts), 18, MUTED)


def seat_summary(ctx: GameContext, view: View, seat: int) -> str:
    return ctx.tr.money(view.money[seat])


def is_my_turn(view: View, seat: int) -> bool:
    return view.phase in ("chips", "cards", "moves") and view.waiting_for == (seat,)


# -- steps of the payout, shown one at a time (a view state, not a game action) --


def payout_steps(view: View) -> list[tuple[int | None, list[Any]]]:
    """[(table or None, rulings)] : one step per revealed table, then the new order / result."""
    steps: list[tuple[int | None, list[Any]]] = [(p.table, GAME.explain_table(p, view.raise_rule)) for p in view.payouts]
    if view.round_rulings:
        steps.append((None, list(view.round_rulings)))
    return steps


#: the page's position in the payout (views/steps.py): a round's payout opens on its newest step
STEP_KEY = "vabanque.step"


def current_step(ctx: GameContext, view: View) -> int:
    return shown_step(ctx, STEP_KEY, view.round, len(payout_steps(view)))


def payout_panel(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    steps = payout_steps(view)
    if not steps:
        return ft.Container()
    index = current_step(ctx, view)
    table, rulings = steps[index]

    lines = [label(tr.ruling(r, ctx.names), 18, INK) for r in rulings]
    if table is not None:
        payout = next(p for p in view.payouts if p.table == table)
        lines.insert(0, ft.Row([card_face(ctx, c.card, c.seat) for c in payout.cards], wrap=True))
    if index == len(steps) - 1:
        # the last step: every player's round in one line
        title, *summary = round_summary(tr, ctx.names, len(ctx.names), view.payouts, view.round)
        lines.append(ft.Semantics(identifier="round-summary", key="round-summary", content=ft.Column(
            [label(title, 16, ACCENT, ft.FontWeight.BOLD), *[label(line, 16, INK) for line in summary]], spacing=2, tight=True)))
    controls: list[ft.Control] = [
        label(tr.t("ui.step", n=index + 1, total=len(steps)), 14, MUTED),
        *lines,
        step_buttons(ctx, STEP_KEY, index, len(steps)),
    ]
    return ft.Semantics(
        identifier="payout",
        key="payout",
        content=ft.Container(bgcolor=PANEL, border_radius=12, padding=12, content=ft.Column(controls, spacing=8)),
    )


def round_summary(tr: Any, names: list[str], players: int, payouts: Any, round_number: int) -> list[str]:
    """One line a player: what the round's payout gave them and why ("Anna +0: Dmitri's Cheat
    took table 5"), from the public payouts."""
    lines = []
    for seat in range(players):
        gained, reasons = 0, []
        for p in payouts:
            for paid_seat, amount in p.pawn_paid:
                if paid_seat == seat:
                    gained += amount
                    reasons.append(tr.t("vabanque.summary.pawn_paid", table=p.table))
            for cheater, amount in p.cheat_paid:
                if cheater == seat:
                    gained += amount
                    reasons.append(tr.t("vabanque.summary.cheated", table=p.table))
            if seat in p.pawn_blocked:
                cheater = next(c for c, _ in p.cheat_paid if c != seat)
                reasons.append(tr.t("vabanque.summary.cheat_took", names, cheater=cheater, table=p.table))
        amount = f"+{tr.money(gained)}"
        lines.append(tr.t("vabanque.summary.line", names, seat=seat, amount=amount, reasons=tr.list(reasons) if reasons else tr.t("vabanque.summary.no_pawn")))
    return [tr.t("vabanque.summary.title", round=round_number), *lines]


def card_face(ctx: GameContext, card: str, seat: int) -> ft.Control:
    colour = ctx.colours[seat]
    return ft.Container(
        bgcolor=CARD_COLOURS[card],
        border=ft.Border.all(4, COLOUR_HEX[colour]),
        border_radius=6,
        padding=ft.Padding.symmetric(horizontal=8, vertical=4),
        content=ft.Text(f"{glyph(colour)} {ctx.tr.t(f'vabanque.card.{card}')}", size=15, weight=ft.FontWeight.BOLD, color="#111111"),
    )


def card_back(ctx: GameContext, seat: int, size: int = 22, ident: str | None = None) -> ft.Control:
    colour = ctx.colours[seat]
    back = ft.Container(
        width=size * 0.75,
        height=size,
        bgcolor=COLOUR_HEX[colour],
        border=ft.Border.all(2, "#FFFFFF"),
        border_radius=3,
        alignment=ft.Alignment.CENTER,
        content=ft.Text(glyph(colour), size=size * 0.45, color=text_on(colour)),
    )
    # named on the board, so the accessibility audit can measure it (40 px at arm's length)
    return ft.Semantics(identifier=ident, container=True, content=back) if ident else back


def pawn(ctx: GameContext, seat: int, size: int = 22, ident: str | None = None) -> ft.Control:
    colour = ctx.colours[seat]
    token = ft.Container(
        width=size,
        height=size,
        bgcolor=COLOUR_HEX[colour],
        shape=ft.BoxShape.CIRCLE,
        border=ft.Border.all(2, "#000000"),
        alignment=ft.Alignment.CENTER,
        content=ft.Text(glyph(colour), size=size * 0.55, color=text_on(colour)),
    )
    return ft.Semantics(identifier=ident, container=True, content=token) if ident else token


# -- the board --


#: On a wide board, the width kept beside the ring for what a phase adds (the reveal, the move
#: buttons, the payout steps), so the ring keeps its place and size in every phase.
ASIDE_WIDTH = 300


def ring_size(ctx: GameContext) -> tuple[float, bool]:
    """The ring's side and whether the phases' panels go beside it (a wide board) or under it:
    from the screen's size only, never from the phase, so the tables never move."""
    wide = ctx.width >= 800
    room = ctx.width - ASIDE_WIDTH - 16 if wide else ctx.width
    return max(320.0, min(room, ctx.height - 120)), wide


#: a table tile's corner radius, in tile sides, and how far the tile reaches from its centre
#: toward a corner (its support at 45°), in tile sides: (1/2 - r)·√2 + r
CORNER = 0.3
REACH = (0.5 - CORNER) * math.sqrt(2) + CORNER


def tile_side(size: float, count: int) -> float:
    """The largest rounded-square tile (up to 150 px) whose neighbours on the ring keep 4 px
    apart whichever way they face: the chord between centres, 2R·sin(π/n), at least twice the
    reach plus 4, with R = size/2 - reach - 4."""
    chord = math.sin(math.pi / count)
    return min(150.0, ((size - 8) * chord - 4) / (2 * REACH * (1 + chord)))


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


def table_total(tr: Any, total: int) -> str:
    """A table's chips in words ("chips: 15"), never a bare Σ, which players do not read."""
    return tr.t("vabanque.table_total", total=total)


def table_tile(ctx: GameContext, table: Any, tile: float, left: float, top: float, tappable: bool, highlighted: bool, current: int | None) -> ft.Control:
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
    views/flet_patches.py 3)."""
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


def face_number(table: Any, tile: float) -> ft.Control:
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


def tile_face(ctx: GameContext, table: Any, tile: float, highlighted: bool) -> ft.Control:
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


def revealed_face(ctx: GameContext, table: Any, tile: float, highlighted: bool) -> ft.Control:
    """A revealed table's number, total, pawns and cards in words on its felt, drawn whole (an
    unrevealed one is drawn in parts: see tile_face)."""
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
        beside_width = room - (stack.width + 4 if stack is not None else 0)
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


def fanned(tokens: list[ft.Control], width: float, height: float, room: float) -> ft.Control:
    """Tokens side by side in `room` px, or overlapping like a fanned hand when they do not fit
    (each then shows at least its left part, in its owner's colour)."""
    step = width + 2 if len(tokens) < 2 else min(width + 2, max(width * 0.45, (room - width) / (len(tokens) - 1)))
    placed = [ft.Container(left=i * step, top=0, content=t) for i, t in enumerate(tokens)]
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


def card_words_size(ctx: GameContext, cards: list[tuple[str, int]], width: float, height: float, largest: int) -> int:
    """The largest type (down to SMALLEST_WORDS) in which a revealed table's cards, in words,
    wrap into `width` x `height`; 0 if none does."""
    words = [card_words(ctx, card, seat) for card, seat in cards]
    for size in range(largest, SMALLEST_WORDS - 1, -1):
        widths = [text_width(w, size, bold=True) + CARD_EDGES[0] + 2 for w in words]
        rows = rows_needed(widths, width)
        if max(widths) <= width and rows * (size * 1.2 + CARD_EDGES[1]) + (rows - 1) * 3 <= height:
            return size
    return 0


def revealed_cards(ctx: GameContext, cards: list[tuple[str, int]], width: float, size: int, wrap: bool = False) -> ft.Control:
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
        content=ft.Text(words, size=size, weight=ft.FontWeight.BOLD, color="#111111", no_wrap=most is None, text_align=ft.TextAlign.CENTER if most is not None else None),
    )


def move_buttons(ctx: GameContext, moves: tuple[tuple[int, int], ...], seat: int, column: bool = False) -> ft.Control:
    """`column`: one under another, beside the board's ring."""
    tr = ctx.tr
    buttons = []
    for steps, destination in moves:
        text = tr.t("vabanque.stay", table=destination) if steps == 0 else tr.t("vabanque.move", steps=steps, table=destination)
        buttons.append(act_button(ctx, seat, text, handler(ctx.submit, {"type": "move_pawn", "by": seat, "steps": steps}), ident=f"move-{steps}"))
    if column:
        return ft.Column(buttons, spacing=8, tight=True)
    return ft.Row(buttons, wrap=True, spacing=8, alignment=ft.MainAxisAlignment.CENTER)


# -- the phone --


def seat_body(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    me = view.me
    legal = view.my_legal
    assert me is not None and legal is not None
    seat = me.seat
    items: list[ft.Control] = []
    if view.phase == "over":
        items.append(role("winner", label(tr.t("ui.winner", ctx.names, seats=list(view.winners)), 26, ACCENT, ft.FontWeight.BOLD)))
    else:
        status = tr.t("ui.round", round=view.round, rounds=view.rounds) + " · " + tr.t(f"vabanque.phase.{view.phase}")
        items.append(ctx.part("status", status, lambda: label(status, 16, MUTED)))
    chosen = None
    if legal.cards:
        chosen = ctx.ui.get(("vabanque.card", view.round))
        if chosen not in legal.cards:
            chosen = None

        def choose_card() -> ft.Control:
            return ft.Column(
                [
                    label(tr.t("vabanque.pick_card"), 22, INK, ft.FontWeight.BOLD),
                    card_buttons(ctx, legal.cards, chosen, view.round),
                ],
                spacing=8,
            )

        items.append(private_section(ctx, choose_card))
    # Private: this seat's own cards, never anyone else's, shown only on request.
    elif me.cards_in_hand or me.my_placements:

        def my_cards() -> ft.Control:
            hand = ", ".join(tr.t(f"vabanque.card.{c}") for c in me.cards_in_hand) or "—"
            lines = [label(tr.t("vabanque.my_hand", cards=hand), 18, INK)]
            if me.my_placements:
                placed = ", ".join(tr.t("vabanque.placed_at", card=p.card, table=p.table) for p in me.my_placements)
                lines.append(label(tr.t("vabanque.my_placements", placements=placed), 18, INK))
            return ft.Column(lines, spacing=6)

        items.append(private_section(ctx, my_cards))
    if view.phase != "over":
        items.append(table_picker(ctx, view, seat, legal, chosen))
    if legal.moves:
        items.append(ctx.part("prompt-moves", None, lambda: label(tr.t("vabanque.prompt.moves"), 22, INK, ft.FontWeight.BOLD)))
        items.append(ctx.part("moves", (legal.moves, seat), lambda: move_buttons(ctx, legal.moves, seat)))
    if view.phase in ("payout", "over"):
        items.append(payout_panel(ctx, view))
    if view.phase == "payout":
        # The board starts the next round (this phone's steps through the payout are its own).
        items.append(role("next-round-on-board", label(tr.t("vabanque.next_round_on_board", round=view.round + 1), 16, MUTED)))
    # public: drawn from the board's projection (its tables as they were: no row looked at)
    public = public_view(ctx, view)
    items.append(role("tables", ctx.part("table-list", public.tables, lambda: table_list(ctx, public))))
    return ctx.group("seat-body", None, items, lambda items: ft.Column(items, spacing=10))


def card_buttons(ctx: GameContext, cards: Any, chosen: str | None, round_number: int) -> ft.Control:
    """The cards to choose from: one face, size and place each, whatever their names in this
    language (see `secret_choices`); the pick is ringed thinly in dark grey, seen by the owner."""
    names = [ctx.tr.t(f"vabanque.card.{card}") for card in cards]

    def build(i: int, size: int, lines: int, height: float) -> ft.Control:
        return card_button(ctx, cards[i], names[i], chosen == cards[i], round_number, size, lines, height)

    return ft.Semantics(identifier="card-choices", key="card-choices", content=secret_choices(ctx.width, names, build, columns=3))


def card_button(ctx: GameContext, card: str, name: str, selected: bool, round_number: int, size: int, lines: int, height: float) -> ft.Control:
    async def choose() -> None:
        ctx.ui[("vabanque.card", round_number)] = card
        await ctx.rerender()

    # One colour and size for every card (no yellow Raise, red Cheat): from across the table the
    # choices look alike.
    box = secret_face(name, selected=selected, on_click=handler(choose), size=size, lines=lines, height=height, face=CHOICE_FACE)
    return ft.Semantics(
        identifier=f"card-{card}",
        key=f"card-{card}",
        button=True,
        selected=selected,
        content=choice_target(ctx, box, choose),
    )


#: The table picker: as many tables a row as fit at TABLE_MIN_WIDTH (their total in words still
#: fits), each 56 px tall, so every table of the largest game (12, three rows of four) is on a
#: 390 x 844 phone's first screen below the open card choice (rows of three at 64 px pushed
#: tables 7-12 below the fold).
TABLE_MIN_WIDTH = 76
TABLE_HEIGHT = 56
TABLE_GAP = 6


def table_button(ctx: GameContext, seat: int, number: int, width: float, key: str, total_line: ft.Control) -> ft.Control:
    return ft.Semantics(
        identifier=f"seat-table-{number}",
        key=key,
        button=True,
        content=ft.Container(
            on_click=handler(place_on, ctx, seat, number),
            width=width,
            height=TABLE_HEIGHT,
            bgcolor=FELT_LIGHT,
            border=ft.Border.all(2, ACCENT),
            border_radius=10,
            alignment=ft.Alignment.CENTER,
            content=ft.Column(
                [label(str(number), 22, ACCENT, ft.FontWeight.BOLD), total_line],
                spacing=0,
                horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                tight=True,
            ),
        ),
    )


#: what the phone's table buttons place: ("place_chip", None) or ("place_card", the card picked),
#: as its latest drawing shows them (a tap means what the finger saw)
PICKING_KEY = "vabanque.picking"
#: what they place before this seat has placed anything
PLACING_CHIPS: tuple[str, str | None] = ("place_chip", None)
#: the tables' totals the phone's table buttons last showed (hidden, they keep them: see
#: table_picker)
PICKER_TOTALS_KEY = "vabanque.picker.totals_shown"


async def place_on(ctx: GameContext, seat: int, number: int) -> None:
    kind, card = ctx.ui.get(PICKING_KEY) or PLACING_CHIPS
    action: dict[str, Any] = {"type": kind, "by": seat, "table": number}
    if card is not None:
        action["card"] = card
    await ctx.submit(action)


def table_picker(ctx: GameContext, view: View, seat: int, legal: Any, chosen: str | None) -> ft.Control:
    """The tables as buttons, on the phone for the whole game and shown only while this seat
    places something: its chip, or the card it has picked. Hidden in between (a hidden control
    takes no tap: views/flet_patches.py 3), so a turn's start or end shows or hides them and
    sends none of the buttons again (building a dozen afresh at every turn was most of a phone's
    work per action); what they place is read when tapped, and a chip sends one total."""
    tr = ctx.tr
    if legal.tables and not legal.cards:
        picking: tuple[str, str | None] | None = PLACING_CHIPS
    elif legal.cards and chosen is not None:
        picking = ("place_card", chosen)
    else:
        picking = None
    shown = picking is not None
    if picking is not None:
        ctx.ui[PICKING_KEY] = picking
    chips = (ctx.ui.get(PICKING_KEY) or PLACING_CHIPS) == PLACING_CHIPS
    prompt = tr.t("vabanque.prompt.chips", value=view.chip_value) if chips else tr.t("vabanque.pick_table_hidden")
    columns = max(1, min(len(view.tables), int((ctx.width + TABLE_GAP) // (TABLE_MIN_WIDTH + TABLE_GAP))))
    # one width for all, filling the row (81 px each, four a row, on a 390 px phone)
    width = min(96.0, (ctx.width - (columns - 1) * TABLE_GAP) / columns)
    totals = tuple((table.number, table.total) for table in view.tables)
    # Hidden, the buttons keep the totals they last showed: the other players' chips change
    # nothing on this phone's hidden buttons (sent again each time, they were most of a waiting
    # phone's patch); they catch up when shown.
    if shown or len(ctx.ui.get(PICKER_TOTALS_KEY, ())) != len(totals):
        ctx.ui[PICKER_TOTALS_KEY] = totals
    totals = ctx.ui[PICKER_TOTALS_KEY]

    def buttons() -> ft.Control:
        children = [ctx.part("picker-prompt", prompt, lambda: label(prompt, 22 if chips else 20, INK, ft.FontWeight.BOLD))]
        for number, total in totals:
            # only a shown button acts for the seat (a hidden one asking the handover for its
            # key would count as this seat acting again)
            key = ctx.act_key(f"seat-table-{number}", seat) if shown else f"seat-table-{number}@{seat}"

            def button(number: int = number, total: int = total, key: str = key) -> ft.Control:
                total_line = ctx.part(f"picker-total-{number}", total, lambda: label(table_total(tr, total), 13, INK))
                return ctx.group(f"picker-{number}", (number, width, key), [total_line], lambda lines: table_button(ctx, seat, number, width, key, lines[0]))

            # a button whose table and key are as they were is one reused part: a chip placed
            # walks one
            children.append(ctx.part(f"picker-button-{number}", (number, total, width, key), button))

        def build(children: list[ft.Control]) -> ft.Control:
            prompt_line, buttons = children[0], children[1:]
            rows = [ft.Row(buttons[i : i + columns], spacing=TABLE_GAP) for i in range(0, len(buttons), columns)]
            return ft.Column([prompt_line, ft.Column(rows, spacing=TABLE_GAP, tight=True)], spacing=10)

        return ctx.group("table-grid", columns, children, build)

    # Drawn again only when a total, the prompt or what it acts for changes (the buttons' keys
    # are asked for again when it is reused: Sections.part), so another player's move that
    # leaves the totals as they were walks none of its tables.
    grid = ctx.part("table-buttons", (totals, prompt, shown, seat), buttons)
    # showing or hiding sends the outer control's flag alone
    # (no Semantics around them: it would fold the prompt into its own label, away from the text)
    return ctx.group("table-picker", shown, [grid], lambda grid: ft.Container(visible=shown, content=grid[0]))


def table_row(ctx: GameContext, table: Any) -> ft.Control:
    """A table's line on a phone: its number and total, then its pawns and card backs, each a
    part (a chip placed changes the total alone)."""
    number = table.number
    bits: list[ft.Control] = [
        ctx.part(f"row-number-{number}", None, lambda: label(f"{number}", 16, ACCENT, ft.FontWeight.BOLD)),
        ctx.part(f"row-total-{number}", table.total, lambda: label(table_total(ctx.tr, table.total), 16, INK)),
    ]
    if table.pawns or table.card_backs:
        bits.append(table_tokens(ctx, table))
    return ctx.group(f"table-row-{number}", None, bits, lambda bits: ft.Row(bits, spacing=6, wrap=True))


def table_tokens(ctx: GameContext, table: Any) -> ft.Control:
    """A table's pawns and card backs on a phone, each a part: a card placed sends that one."""
    number = table.number
    tokens = [ctx.part(f"row-pawn-{number}-{s}", s, lambda s=s: pawn(ctx, s, 18)) for s in table.pawns]
    tokens += [ctx.part(f"row-back-{number}-{i}", s, lambda s=s: card_back(ctx, s, 18)) for i, s in enumerate(table.card_backs)]
    return ctx.group(f"row-tokens-{number}", None, tokens, lambda tokens: ft.Row(tokens, spacing=6, wrap=True, tight=True))


def table_list(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    # a table as it was is one reused part (a chip placed walks the one table it changed)
    rows = [ctx.part(f"table-{table.number}", (table.number, table.total, table.pawns, table.card_backs), lambda table=table: table_row(ctx, table)) for table in view.tables]
    return ctx.group(
        "tables",
        None,
        rows,
        lambda rows: ft.Container(bgcolor=PANEL, border_radius=10, padding=10, content=ft.Column([label(tr.t("vabanque.tables"), 16, MUTED), *rows], spacing=4)),
    )


UI: GameUI[View] = GameUI(
    status_line=status_line,
    seat_summary=seat_summary,
    is_my_turn=is_my_turn,
    board_body=board_body,
    seat_body=seat_body,
    rounds=lambda view: (view.round, view.rounds),
)
