"""Règlement de comptes' phone: the player's gang and the public table in view, the rules helper
listing only the targets legal right now (`my_options`), the hand note behind the pad."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial

import flet as ft

from companion.games.reglement import CARDS, CardType, GangsterView, SeatView, Target, View
from views.common import (
    ACCENT,
    COLOUR_HEX,
    DANGER,
    INK,
    MUTED,
    PANEL,
    big_button,
    border_all,
    choice_target,
    glyph,
    handler,
    icon_button,
    label,
    private_section,
    public_view,
    role,
    secret_choices,
    secret_face,
)
from views.context import GameContext
from views.games.reglement.pieces import (
    BLAST,
    BUSINESS_COLOUR,
    BUSINESS_ICON,
    CARD_COLOUR,
    CHOSEN,
    MARK_ICON,
    SELECTION_NOW,
    Selection,
    TurnStart,
    blocked_params,
    chosen_kind,
    count_kinds,
    final_standings,
    gangster_token,
    income_text,
    kind_buttons,
    options_for,
    pills_confirm,
    ruling_seats,
    rulings_panel,
    selection,
    shown_step,
    status_line,
    target_action,
    target_sentence,
    turn_buttons,
    turn_start,
    wake_panel,
)
from views.games.reglement.table import PHONE_TILE, table_drawing

# --------------------------------------------------------------------------------------------
# the phone
# --------------------------------------------------------------------------------------------


def seat_body(ctx: GameContext, view: View) -> ft.Control:
    """Top to bottom: the status (or the final standings), this seat's seating or wake-up choice
    on its turn, its gang, its turn's buttons, the pad over its hand, the table as everyone sees
    it, and the turn's rulings. Every piece is a part, in a keyed list: an action elsewhere at
    the table sends what it changed here."""
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
        winner = tr.t("ui.winner", ctx.names, seats=list(board.winners))
        items.append(ctx.part("winner", winner, lambda: role("winner", label(winner, 26, ACCENT, ft.FontWeight.BOLD))))
        money = tuple((g.seat, g.money) for g in board.gangs)
        items.append(ctx.part("standings", (money, board.winners), lambda: final_standings(ctx, board, 16)))
    else:
        items.append(ctx.part("status", (board.phase, board.turn_number, board.bank), lambda: role("status", status_line(ctx, board))))
    if view.phase in ("seating", "alerte"):
        # mounted for the whole seating, shown on this seat's turn: a turn's start shows it
        items.append(phone_seating(ctx, view, sel, seat, shown=view.placer == seat))
    if view.phase == "wake" and view.turn == seat:
        items.append(role("wake-choice", wake_panel(ctx, view, sel, seat)))
    elif view.phase == "wake" and view.turn is not None:
        waiting = tr.t("reglement.ui.waiting_wake", ctx.names, seat=view.turn)
        items.append(ctx.part("waiting-wake", waiting, lambda: ft.Semantics(identifier="waiting-wake", key="waiting-wake", content=label(waiting, 20, ACCENT, ft.FontWeight.BOLD))))
    # on this seat's turn its gang says what the turn's automatic steps did (the board's step
    # strip and the rulings under the table are out of sight on a phone)
    start = turn_start(board) if board.phase == "play" and board.turn == seat else None
    items.append(my_gang(ctx, board, seat, me.income_now, start))
    if view.phase == "play":
        items.append(phone_turn_buttons(ctx, view, seat, shown=view.turn == seat))
    if gang.in_play and view.phase != "over":
        # The hand note, and the helper whose card choice tells what is in the hand: behind
        # hold-to-peek (built only while held or shown).
        def secrets() -> ft.Control:
            parts = [helper(ctx, view, sel, seat)] if view.phase != "seating" else []
            return ft.Column([*parts, hand_note(ctx, view, seat)], spacing=12)

        items.append(private_section(ctx, secrets))
    items.append(public_table(ctx, board))
    if board.turn_log:
        items.append(rulings_panel(ctx, board, ident_prefix="phone-step"))
    return ctx.group("seat-body", None, items, lambda items: ft.Column(items, spacing=12))


def public_table(ctx: GameContext, board: View) -> ft.Control:
    """The table as everyone sees it (the board's projection), nobody's taps: each chair a part."""
    tr = ctx.tr
    rings: dict[str, str] = {}
    # The board rings the newest step's chairs for the whole table; a phone rings those of a step
    # its player went back to. (The newest step moves at every action: ringing it on every phone
    # as well was a quarter of the table's CPU per action, redraw_cost.py.)
    shown = shown_step(ctx, board) if board.turn_log else 0
    if board.turn_log and shown < len(board.turn_log) - 1:
        at, source = ruling_seats(board, board.turn_log[shown])
        if source:
            rings[source] = "#FF9800"
        if at:
            rings[at] = BLAST
    bank = f"{tr.t('reglement.label.bank')} {tr.money(board.bank)}"
    piles = f"{tr.t('reglement.label.draw_pile')} {board.draw_pile} · {tr.t('reglement.label.set_aside')} {board.set_aside}"
    centre = [
        ctx.part("phone-bank", bank, lambda: ft.Semantics(identifier="phone-bank", key="bank", content=label(bank, 20, ACCENT, ft.FontWeight.BOLD))),
        ctx.part("phone-piles", piles, lambda: role("piles", label(piles, 14, INK))),
    ]
    width = max(300.0, ctx.width - 8)
    drawing = table_drawing(ctx, board, width, rings, None, centre, min_tile=PHONE_TILE, key="phone-table")
    # a group around the drawing's groups: a chair's change goes out in the page's own frame
    return ctx.group("phone-table", None, [drawing], lambda drawing: ft.Semantics(identifier="phone-table", key="phone-table", content=drawing[0]))


#: ctx.ui key of the gangster this seat seats next (read at the tap: the seats' buttons are kept)
PLACE_KIND_NOW = "reglement.place_kind"


def phone_seating(ctx: GameContext, view: View, sel: Selection, seat: int, *, shown: bool) -> ft.Control:
    """The kind of gangster to seat and the empty seats, mounted through the seating and shown on
    this seat's turn (nothing in it is secret): each seat's button is a part."""
    tr = ctx.tr
    kind = chosen_kind(view, sel, seat)
    ctx.ui[PLACE_KIND_NOW] = kind
    grid: list[ft.Control] = []
    for s in view.seats:
        # every seat keeps its place as the table fills (a seat taken is greyed, its occupant's
        # colour on it): the buttons after it do not move under a finger on its way
        owner = view.gangsters[s.gangster].owner if s.gangster is not None else None
        grid.append(ctx.part(f"pick-{s.id}", (s, owner, kind is not None), partial(pick_seat, ctx, s, seat, owner, kind is not None)))
    unseated = count_kinds(view.gangs[seat].unseated)
    kinds = ctx.part("seat-kinds", (unseated, kind, seat), lambda: role("seat-kinds", kind_buttons(ctx, view, sel, seat)))
    rows = [
        ctx.part("seat-prompt", None, lambda: role("seat-prompt", label(tr.t("reglement.ui.place_prompt"), 20, ACCENT, ft.FontWeight.BOLD))),
        kinds,
        ctx.part("seat-hint", None, lambda: role("seat-hint", label(tr.t("reglement.ui.pick_empty_seat"), 16, INK))),
        ctx.group("seat-grid", None, grid, lambda grid: ft.Row(grid, wrap=True, spacing=6, run_spacing=6, key="seat-grid")),
    ]
    return ctx.group(
        "seating",
        shown,
        rows,
        lambda rows: ft.Container(bgcolor=PANEL, border_radius=12, padding=10, visible=shown, key="seating", content=ft.Column(rows, spacing=8)),
    )


def pick_seat(ctx: GameContext, s: SeatView, seat: int, owner: int | None, active: bool) -> ft.Control:
    """An empty seat's button, or a taken seat in its place: greyed, with its gangster's owner's
    colour and shape, and no tap."""
    async def place() -> None:
        kind = ctx.ui.get(PLACE_KIND_NOW)
        if kind is not None:
            await ctx.submit({"type": "place", "by": seat, "kind": kind, "seat": s.id})

    if owner is not None:
        colour = ctx.colours[owner]
        return ft.Semantics(
            identifier=f"taken-{s.id}",
            key=f"pick-{s.id}",
            label=ctx.tr.t("reglement.ui.seat_taken", ctx.names, at=s.id, owner=owner),
            content=ft.Container(
                width=62,
                height=56,
                bgcolor="#263238",
                border=border_all(2, COLOUR_HEX[colour]),
                border_radius=8,
                alignment=ft.Alignment.CENTER,
                content=ft.Column(
                    [ft.Text(s.id, size=15, color=MUTED), ft.Text(glyph(colour), size=15, color=COLOUR_HEX[colour])],
                    spacing=0,
                    tight=True,
                    horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                ),
            ),
        )
    icons: list[ft.Control] = []
    if s.business:
        icons.append(ft.Icon(BUSINESS_ICON[s.business], size=14, color="#111111"))
    for mark in ("cash_register", "glass", "knife", "revolver"):
        if getattr(s, mark):
            icons.append(ft.Icon(MARK_ICON[mark], size=14, color="#111111"))
    if s.no_shoot:
        icons.append(ft.Text("X", size=13, weight=ft.FontWeight.BOLD, color=BLAST))
    return ft.Semantics(
        identifier=f"pick-{s.id}",
        key=f"pick-{s.id}",
        button=True,
        content=ft.Container(
            on_click=handler(place) if active else None,
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


def my_gang(ctx: GameContext, view: View, seat: int, income_now: int, start: TurnStart | None) -> ft.Control:
    """The seat's gang as everyone sees it (`view`: the board's projection) and its income now,
    a part per gangster: one moved, asleep or killed redraws him alone. On the seat's turn
    (`start`), where its cake exploded at the turn's start and the income it was paid instead
    (in the same lines: the pad below keeps its place)."""
    tr = ctx.tr
    gang = view.gangs[seat]
    rows: list[ft.Control] = [ctx.part("my-gang-title", None, lambda: role("title", label(tr.t("reglement.ui.my_gang"), 18, ACCENT, ft.FontWeight.BOLD)))]
    if not gang.in_play:
        rows.append(ctx.part("my-gang-out", None, lambda: role("out", label(tr.t("reglement.ui.out"), 17, DANGER))))
    tokens = [ctx.part(f"my-gangster-{g.index}", g, partial(gang_token, ctx, view, g)) for g in view.gangsters if g.owner == seat and g.alive]
    rows.append(ctx.group("my-gangsters", None, tokens, lambda tokens: ft.Row(tokens, wrap=True, spacing=6, run_spacing=6, key="gangsters")))
    if start is not None and start.exploded_at is not None and not gang.cake_seat:  # (a new cake ordered since: where it is)
        killed = tr.t("reglement.ui.killed_count", count=start.killed)
        cake = tr.t("reglement.ui.turn_start_cake", at=start.exploded_at, killed=killed)
    elif gang.cake_seat:
        cake = tr.t("reglement.ui.cake_at", at=gang.cake_seat)
    elif gang.cake_gone:
        cake = tr.t("reglement.ui.cake_gone")
    else:
        cake = tr.t("reglement.ui.cake_in_hand")
    rows.append(ctx.part("my-cake", cake, lambda: role("cake", label(cake, 16, INK))))
    income: str | None = None
    if start is not None:
        income = tr.t("reglement.ui.turn_start_income", income=income_text(tr, start))
    elif gang.in_play and view.phase != "seating":
        income = tr.t("reglement.ui.income_now", amount=income_now)
    if income is not None:
        said = income
        rows.append(ctx.part("my-income", said, lambda: role("income", label(said, 16, INK))))
    return ctx.group(
        "my-gang",
        None,
        rows,
        lambda rows: ft.Semantics(
            identifier="my-gang",
            key="my-gang",
            content=ft.Container(bgcolor=PANEL, border_radius=12, padding=10, content=ft.Column(rows, spacing=6)),
        ),
    )


def gang_token(ctx: GameContext, view: View, g: GangsterView) -> ft.Control:
    return ft.Column(
        [gangster_token(ctx, view, g, 34), label(g.seat or "—", 14, INK, ft.FontWeight.BOLD)],
        spacing=2,
        tight=True,
        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        key=f"g{g.index}",
    )


def phone_turn_buttons(ctx: GameContext, view: View, seat: int, *, shown: bool) -> ft.Control:
    """This seat's turn's buttons, mounted for the whole play and shown on its turn (nothing in
    them is secret), as the seating panel: hidden, they are the buttons a turn starts with, so
    a turn's start sends a flag, not the panel (it was a phone's largest frame, 1.4 KB)."""
    tr = ctx.tr
    started = shown and bool(view.cards_played or view.discarded)
    controls: list[ft.Control] = [ctx.part("turn-hint", None, lambda: label(tr.t("reglement.ui.phone_turn_hint"), 16, INK))]
    if started and view.wake_up == "optional" and view.wake_choices:
        controls.append(wake_panel(ctx, view, selection(ctx, view), seat, confirm=False))
    controls.append(ctx.group("turn-buttons", None, turn_buttons(ctx, view, seat, started=started), lambda buttons: ft.Row(buttons, wrap=True, spacing=8, key="turn-buttons")))
    return ctx.group("my-turn", shown, controls, lambda controls: ft.Column(controls, spacing=6, key="my-turn", visible=shown))


# -- step 4 with the wake-up house rule "choose" (and the older "optional") --


def helper(ctx: GameContext, view: View, sel: Selection, seat: int) -> ft.Control:
    """The private rules helper: pick a card, see its legal targets right now (and play one)."""
    tr = ctx.tr
    card = sel.get("help")

    def choose(value: CardType) -> Callable[[], Awaitable[None]]:
        async def pick() -> None:
            now: Selection = ctx.ui[SELECTION_NOW]  # (a chip is kept from drawing to drawing)
            now["help"] = None if now.get("help") == value else value
            now["pills"] = []
            await ctx.rerender()

        return pick

    options = list(view.my_options or ())
    texts = [tr.t(f"reglement.card.{o.card}") + (f" ×{o.in_hand}" if o.in_hand else "") for o in options]

    def help_chip(value: CardType, text: str, selected: bool, size: float, lines: int, height: float) -> ft.Control:
        # all one face and size, in fixed places: from across the table the choices look alike
        box = secret_face(text, selected=selected, on_click=handler(choose(value)), size=size, lines=lines, height=height)
        # a first step, as a card of the other games: reached by sliding from the pad too, the
        # lift picks it and leaves the helper shown, the card's targets in view
        return ft.Semantics(identifier=f"help-{value}", key=f"help-{value}", button=True, selected=selected, content=choice_target(ctx, box, choose(value), then_open=True))

    def chip(i: int, size: float, lines: int, height: float) -> ft.Control:
        value, text = options[i].card, texts[i]
        return ctx.part(f"help-{value}", (value, text, card == value, size, lines, height), lambda: help_chip(value, text, card == value, size, lines, height))

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
            rows.append(pills_confirm(ctx, seat, chosen))
    return ft.Semantics(
        identifier="helper",
        key="helper",
        content=ft.Container(bgcolor=PANEL, border_radius=12, padding=10, content=ft.Column(rows, spacing=6)),
    )


def target_row(ctx: GameContext, view: View, sel: Selection, seat: int, t: Target, i: int, playable: bool, chosen: bool) -> ft.Control:
    text = target_sentence(ctx, view, t)
    on_click = None
    if playable:
        if t.card == "pills":

            async def toggle() -> None:
                assert t.seat is not None  # the pills go to a seated gangster
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
    # A card's targets can be thirty (a cake ordered to any chair): each row three controls, the
    # card's colour saying it can be tapped (a grey row cannot), the ring's width padding unless
    # the row is chosen.
    return ft.Semantics(
        identifier=f"target-{i}",
        key=f"target-{i}",
        button=playable,
        selected=chosen,
        content=ft.Container(
            on_click=on_click,
            bgcolor=CARD_COLOUR[t.card] if playable else "#263238",
            border=ft.Border.all(3, CHOSEN) if chosen else None,
            border_radius=8,
            padding=10 if chosen else 13,
            content=ft.Text(text, size=16, color="#111111" if playable else INK),
        ),
    )


def hand_note(ctx: GameContext, view: View, seat: int) -> ft.Control:
    """The optional private note of the cards in this player's hand (only their phone sees it).

    The + and - buttons change a draft on this phone; "Save" sends it. Sending closes the private
    section (as every action does), so one action per card would close it after each tap."""
    me = view.me
    assert me is not None
    saved: list[str] = sorted(me.hand, key=CARDS.index)
    draft_key = ("reglement.note_draft", seat)
    hand = list(ctx.ui.get(draft_key, saved))
    # a part: the helper's taps beside it do not build it again
    return ctx.part("hand-note", (tuple(hand), tuple(saved), seat), lambda: hand_note_panel(ctx, seat, draft_key, hand, saved))


def hand_note_panel(ctx: GameContext, seat: int, draft_key: tuple[str, int], hand: list[str], saved: list[str]) -> ft.Control:
    tr = ctx.tr

    def edit(cards: list[str]) -> Callable[[], Awaitable[None]]:
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


