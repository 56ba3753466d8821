"""Vabanque's phone: the pad over the cards in hand, the table buttons a tap places on (mounted
through the game, shown on this seat's turns), the moves, and the tables' list."""

from __future__ import annotations

from functools import partial
from typing import Any

import flet as ft

from companion.games.vabanque import Card, LegalMoves, TableView, View
from views.common import (
    ACCENT,
    FELT_LIGHT,
    INK,
    MUTED,
    PANEL,
    choice_target,
    handler,
    label,
    private_section,
    public_view,
    role,
    secret_choices,
    secret_face,
)
from views.context import GameContext
from views.games.vabanque.pieces import CHOICE_FACE, card_back, move_buttons, pawn, payout_panel, table_total

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
            lines: list[ft.Control] = [label(tr.t("vabanque.my_hand", cards=hand), 18, INK)]
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


def card_buttons(ctx: GameContext, cards: tuple[Card, ...], chosen: str | None, round_number: int) -> ft.Control:
    """The cards to choose from: one face, size and place each, whatever their names in this
    language (see `secret_choices`); the pick is ringed thinly in dark grey, seen by the owner."""
    names = [ctx.tr.t(f"vabanque.card.{card}") for card in cards]

    def build(i: int, size: float, lines: int, height: float) -> ft.Control:
        return card_button(ctx, cards[i], names[i], chosen == cards[i], round_number, size, lines, height)

    return ft.Semantics(identifier="card-choices", key="card-choices", content=secret_choices(ctx.width, names, build, columns=3))


def card_button(ctx: GameContext, card: str, name: str, selected: bool, round_number: int, size: float, lines: int, height: float) -> ft.Control:
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


def table_picker(ctx: GameContext, view: View, seat: int, legal: LegalMoves, chosen: str | None) -> ft.Control:
    """The tables as buttons, on the phone for the whole game and shown only while this seat
    places something: its chip, or the card it has picked. Hidden in between (a hidden control
    takes no tap: views/flet_patches/hardening.py 3), so a turn's start or end shows or hides them and
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
            rows: list[ft.Control] = [ft.Row(buttons[i : i + columns], spacing=TABLE_GAP) for i in range(0, len(buttons), columns)]
            return ft.Column([prompt_line, ft.Column(rows, spacing=TABLE_GAP, tight=True)], spacing=10)

        return ctx.group("table-grid", columns, children, build)

    # Drawn again only when a total, the prompt or what it acts for changes (the buttons' keys
    # are asked for again when it is reused: Sections.part), so another player's move that
    # leaves the totals as they were walks none of its tables.
    grid = ctx.part("table-buttons", (totals, prompt, shown, seat), buttons)
    # showing or hiding sends the outer control's flag alone
    # (no Semantics around them: it would fold the prompt into its own label, away from the text)
    return ctx.group("table-picker", shown, [grid], lambda grid: ft.Container(visible=shown, content=grid[0]))


def table_row(ctx: GameContext, table: TableView) -> ft.Control:
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


def table_tokens(ctx: GameContext, table: TableView) -> ft.Control:
    """A table's pawns and card backs on a phone, each a part: a card placed sends that one."""
    number = table.number
    tokens = [ctx.part(f"row-pawn-{number}-{s}", s, partial(pawn, ctx, s, 18)) for s in table.pawns]
    tokens += [ctx.part(f"row-back-{number}-{i}", s, partial(card_back, ctx, s, 18)) for i, s in enumerate(table.card_backs)]
    return ctx.group(f"row-tokens-{number}", None, tokens, lambda tokens: ft.Row(tokens, spacing=6, wrap=True, tight=True))


def table_list(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    # a table as it was is one reused part (a chip placed walks the one table it changed)
    rows = [ctx.part(f"table-{table.number}", (table.number, table.total, table.pawns, table.card_backs), partial(table_row, ctx, table)) for table in view.tables]
    return ctx.group(
        "tables",
        None,
        rows,
        lambda rows: ft.Container(bgcolor=PANEL, border_radius=10, padding=10, content=ft.Column([label(tr.t("vabanque.tables"), 16, MUTED), *rows], spacing=4)),
    )

