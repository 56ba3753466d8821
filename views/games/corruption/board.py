"""Corruption's board: the three government bodies with their Swiss accounts and contracts, the
deal form, the award steps and the scores. The board's projection never holds a face-down card,
so nothing hidden can be drawn there."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from functools import partial
from typing import Any

import flet as ft

from companion.games.corruption import (
    BODIES,
    NEW_CONTRACTS_PER_BODY,
    Award,
    BodyView,
    CatalogueEntry,
    ContractView,
    View,
)
from views.common import (
    ACCENT,
    COLOUR_HEX,
    DANGER,
    FELT_LIGHT,
    INK,
    MUTED,
    PANEL,
    big_button,
    glyph,
    handler,
    label,
    player_chip,
    role,
)
from views.context import GameContext
from views.games.corruption.choices import award_choice, placement_picker
from views.games.corruption.pieces import CARD_FACE, WON, card_tile, catalogue, contracts_by_id, pending_text, remember_values, reveal_marks, step_focus, step_index, steps_panel
from views.i18n import Translator
from views.text_metrics import text_width

# --------------------------------------------------------------------------------------------
# the board
# --------------------------------------------------------------------------------------------


def board_body(ctx: GameContext, view: View, reveal: ft.Control | None) -> ft.Control:
    """`reveal`: the reveal panel when one is due, above the board (keyed: it comes and goes and
    the board keeps its place)."""
    tr = ctx.tr
    items: list[ft.Control] = [role("reveal", reveal)] if reveal is not None else []
    items.append(prompt_bar(ctx, view))
    dealing = view.phase == "deal" or (view.phase == "round_over" and ctx.ui.get(("corruption.dealing", view.round)))
    if dealing and ctx.acts_for_current:
        items.append(deal_form(ctx, view))
        if view.phase == "round_over":
            dealing_key = ("corruption.dealing", view.round)
            items.append(ctx.part("deal-close", dealing_key, lambda: big_button(tr.t("corruption.ui.deal_close"), handler(toggle, ctx, dealing_key), ident="deal-close", colour="#B0BEC5")))
        items.append(score_row(ctx, view))
        # (the deal's text fields are parts too: what is typed is kept, see deal_form)
        return ctx.group("board-body", "deal", items, lambda items: ft.Column(items, spacing=12))
    index: int | None = None
    # keyed: the steps and the entry come and go above the contracts, which keep their place
    # (matched by position, they would be drawn anew each time)
    if view.award_log and view.phase in ("awards", "round_over", "over"):
        index = step_index(ctx, view)
        items.append(role("steps", steps_panel(ctx, view, index)))
    entry = board_entry(ctx, view)
    if entry is not None:
        items.append(role("entry", entry))
    items.append(columns(ctx, view, index))
    items.append(score_row(ctx, view))
    return ctx.group("board-body", None, items, lambda items: ft.Column(items, spacing=12))


async def toggle(ctx: GameContext, key: Hashable) -> None:
    ctx.ui[key] = not ctx.ui.get(key)
    await ctx.rerender()


def prompt_bar(ctx: GameContext, view: View) -> ft.Control:
    """Whose turn, or who the game waits for, in big type: a part drawn from what it says."""
    dealing = bool(ctx.ui.get(("corruption.dealing", view.round)))
    turn = view.turn
    props = (
        view.phase,
        view.round,
        view.winners,
        max(view.score) if view.phase == "over" else None,
        view.order[0] if view.phase == "stud" else None,
        turn,
        view.cards_placed[turn] if turn is not None else None,
        view.board_legal.face_up if view.phase == "corruption" else None,
        pending_text(ctx, view) if view.phase == "awards" and view.pending is not None else None,
        view.pending.seat if view.pending is not None else None,
        dealing,
    )
    return ctx.part("prompt", props, lambda: prompt_bar_text(ctx, view))


def prompt_bar_text(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    bits: list[ft.Control] = []
    size = 24
    if view.phase == "over":
        best = max(view.score)
        bits.append(label(tr.t("corruption.ui.final", ctx.names, seats=list(view.winners), amount=best), 28, ACCENT, ft.FontWeight.BOLD))
    elif view.phase in ("deal", "round_over"):
        if view.phase == "round_over":
            bits.append(label(tr.t("corruption.ui.round_over", round=view.round), size, ACCENT, ft.FontWeight.BOLD))
        bits.append(label(tr.t("corruption.ui.wait_deal"), 20, INK))
        if view.phase == "round_over" and ctx.acts_for_current and not ctx.ui.get(("corruption.dealing", view.round)):
            bits.append(
                big_button(tr.t("corruption.ui.deal_open", round=view.round + 1), handler(toggle, ctx, ("corruption.dealing", view.round)), ident="deal-open")
            )
    elif view.phase == "stud":
        bits.append(player_chip(tr, ctx.names, ctx.colours, view.order[0], size))
        bits.append(label(tr.t("corruption.ui.wait_stud", ctx.names, seat=view.order[0]), 20, INK))
    elif view.phase == "corruption" and view.turn is not None:
        seat = view.turn
        n = view.cards_placed[seat] + 1
        face = view.board_legal.face_up
        bits.append(player_chip(tr, ctx.names, ctx.colours, seat, size))
        bits.append(label(tr.t("corruption.ui.wait_card", ctx.names, seat=seat, n=n), size, INK, ft.FontWeight.BOLD))
        bits.append(label(tr.t("corruption.ui.wait_card_face_up" if face else "corruption.ui.wait_card_face_down"), 18, ACCENT if face else MUTED))
    elif view.phase == "awards" and view.pending is not None:
        bits.append(player_chip(tr, ctx.names, ctx.colours, view.pending.seat, size))
        bits.append(label(pending_text(ctx, view), 20, INK, ft.FontWeight.BOLD))
    # nothing to say (the reveal, whose own panel speaks): no empty box (it showed as a dark dot)
    return ft.Semantics(
        identifier="prompt",
        key="prompt",
        visible=bool(bits),
        content=ft.Container(
            bgcolor=PANEL,
            border_radius=12,
            padding=12,
            content=ft.Row(bits, wrap=True, spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        ),
    )


def columns(ctx: GameContext, view: View, step: int | None) -> ft.Control:
    focus_contract, focus_cards = step_focus(view, step) if view.phase != "awards" or step is not None else (None, set())
    if view.phase == "awards" and view.pending is not None:
        focus_cards = focus_cards | {view.pending.placement}
        if view.pending.kind in ("hit", "report"):
            focus_cards |= set(view.pending.options)
    outcome_at, struck = reveal_marks(view, step if view.phase in ("awards", "round_over", "over") else None)
    width = body_width(ctx, 200.0)
    cols = []
    for body in view.bodies:
        cols.append(body_column(ctx, view, body, width, step, focus_contract, focus_cards, outcome_at, struck))
    return ctx.group("columns", None, cols, lambda cols: ft.Row(cols, spacing=8, run_spacing=8, wrap=True, vertical_alignment=ft.CrossAxisAlignment.START))


def board_card_size(ctx: GameContext) -> int:
    """A card's short side under the contracts: read across the table on a tablet,
    40 px where the columns are narrow."""
    return 46 if ctx.width >= 800 else 40


def body_width(ctx: GameContext, minimum: float, inset: float = 0.0) -> float:
    """The three bodies side by side when each gets `minimum`; on a phone, one under another
    (three columns of `minimum` would run off the screen). `inset`: the padding around them."""
    room = ctx.width - inset
    third = (room - 24) / 3
    return third if third >= minimum else room


def body_column(ctx: GameContext, view: View, body: BodyView, width: float, step: int | None, focus_contract: int | None, focus_cards: set[int], outcome_at: dict[int, int], struck: set[int]) -> ft.Control:
    """A public body: its Swiss account and its contracts, each a part drawn from its own cards
    and what of the focus and the struck cards falls on them (a card placed elsewhere draws
    neither)."""
    tr = ctx.tr
    name = body.body
    contracts = contracts_by_id(view)
    # the names the Swiss cards are assigned to (the only thing of the contracts it shows)
    assigned = tuple((p.index, contracts[p.assigned_to].name) for p in body.swiss if p.assigned_to in contracts)
    swiss_focus = frozenset(p.index for p in body.swiss if p.index in focus_cards)
    tiles: list[ft.Control] = [
        ctx.part(f"body-{name}-title", None, lambda: label(tr.t(f"corruption.body.{name}"), 26, ACCENT, ft.FontWeight.BOLD)),
        ctx.part(f"swiss-{name}", (body.swiss, swiss_focus, assigned), lambda: swiss_panel(ctx, view, body, swiss_focus)),
    ]
    for contract in body.contracts:
        shown = contract.award is not None and (step is None or outcome_at.get(contract.id, -1) <= step)
        mine = {p.index for p in contract.placements}
        props = (contract, focus_contract == contract.id, frozenset(focus_cards & mine), frozenset(struck & mine), shown)
        tiles.append(contract_tile(ctx, contract, *props[1:]))
    if not body.contracts:
        tiles.append(ctx.part(f"body-{name}-empty", None, lambda: label(tr.t("corruption.ui.no_contracts"), 15, MUTED)))
    return ctx.group(f"body-{name}", width, tiles, lambda tiles: ft.Container(width=width, content=ft.Column(tiles, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)))


def swiss_panel(ctx: GameContext, view: View, body: BodyView, focus_cards: frozenset[int]) -> ft.Control:
    tr = ctx.tr
    contracts = contracts_by_id(view)
    swiss_cards: list[ft.Control] = []
    for p in body.swiss:
        ring = ACCENT if p.index in focus_cards else None
        bits: list[ft.Control] = [card_tile(ctx, p.seat, p.card, size=board_card_size(ctx), sideways=True, ring=ring, ident=f"card-{p.index}")]
        if p.assigned_to is not None and p.assigned_to in contracts:
            bits.append(label(tr.t("corruption.ui.swiss_to", contract=contracts[p.assigned_to].name), 14, ACCENT))
        swiss_cards.append(ft.Row(bits, spacing=4, tight=True))
    return ft.Semantics(
        identifier=f"swiss-{body.body}",
        key=f"swiss-{body.body}",
        content=ft.Container(
            bgcolor="#0E3326",
            border=ft.Border.all(1, MUTED),
            border_radius=8,
            padding=8,
            content=ft.Column(
                [
                    label(tr.t("corruption.swiss_account"), 15, MUTED, ft.FontWeight.BOLD),
                    ft.Row(swiss_cards, wrap=True, spacing=6, run_spacing=4) if swiss_cards else label(tr.t("corruption.ui.swiss_empty"), 14, MUTED),
                ],
                spacing=4,
            ),
        ),
    )


def contract_tile(ctx: GameContext, contract: ContractView, focused: bool, focus_cards: frozenset[int], struck: frozenset[int], show_award: bool) -> ft.Control:
    """A contract on the board: its name and value, the cards placed on it, and once revealed
    (up to the step shown) how it was awarded. A group of parts: a card placed, revealed, focused
    or struck builds that card alone."""
    tr = ctx.tr
    key = f"contract-{contract.id}"
    items: list[ft.Control] = [ctx.part(f"{key}-head", (contract.name, contract.value, contract.deferred), lambda: role("h", contract_head(ctx, contract)))]
    size = board_card_size(ctx)
    cards = []
    for p in contract.placements:
        crossed = p.index in struck
        ring = ACCENT if p.index in focus_cards else ("#E1F5FE" if p.peeked_by else None)
        cards.append(
            ctx.part(
                f"{key}-card-{p.index}",
                (p.seat, p.card, size, crossed, ring),
                partial(card_tile, ctx, p.seat, p.card, size=size, crossed=crossed, ring=ring, ident=f"card-{p.index}"),
            )
        )
    if cards:
        items.append(ctx.group(f"{key}-cards", None, cards, lambda cards: ft.Row(cards, wrap=True, spacing=4, run_spacing=4, key="cards")))
    peeks = tuple((p.index, p.seat, tuple(p.peeked_by)) for p in contract.placements if p.peeked_by)
    if peeks:
        items.append(
            ctx.part(
                f"{key}-peeks",
                peeks,
                lambda: ft.Column(
                    [label(tr.t("corruption.ui.peeked", ctx.names, seats=list(by), owner_seat=seat, n=index + 1), 13, "#E1F5FE") for index, seat, by in peeks], spacing=6, tight=True, key="peeks"
                ),
            )
        )
    if show_award and contract.award is not None:
        award = contract.award
        items.append(ctx.part(f"{key}-award", award, lambda: role("award", contract_award(ctx, contract.id, award))))
    border = ft.Border.all(4 if focused else 1, ACCENT if focused else "#2E7D60")
    return ctx.group(
        key,
        focused,
        items,
        lambda items: ft.Semantics(
            identifier=key,
            key=key,
            content=ft.Container(bgcolor=FELT_LIGHT, border=border, border_radius=10, padding=8, content=ft.Column(items, spacing=6)),
        ),
    )


def contract_head(ctx: GameContext, contract: ContractView) -> ft.Control:
    tr = ctx.tr
    head: list[ft.Control] = [
        label(contract.name, 20, INK, ft.FontWeight.BOLD),
        label(tr.money(contract.value), 18, ACCENT, ft.FontWeight.BOLD),
    ]
    if contract.deferred:
        head.append(
            ft.Container(
                bgcolor="#5D4037",
                border_radius=6,
                padding=ft.Padding.symmetric(horizontal=6, vertical=1),
                content=label(tr.t("corruption.ui.deferred", round=contract.dealt_round), 15, INK, ft.FontWeight.BOLD),
            )
        )
    return ft.Row(head, wrap=True, spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def contract_award(ctx: GameContext, contract_id: int, award: Award) -> ft.Control:
    """How the contract was awarded, and every player's total on it."""
    tr = ctx.tr
    if award.outcome == "won" and award.winner is not None:
        text = tr.t("corruption.ui.won_by", ctx.names, seat=award.winner)
        colour = WON
    else:
        text = tr.t(f"corruption.ui.outcome.{award.outcome}")
        colour = DANGER if award.outcome == "cancelled" else "#FFE082"
    lines: list[ft.Control] = [
        ft.Semantics(
            identifier=f"award-{contract_id}",
            key=f"award-{contract_id}",
            content=ft.Container(bgcolor=colour, border_radius=6, padding=ft.Padding.symmetric(horizontal=8, vertical=2), content=label(text, 17, "#111111", ft.FontWeight.BOLD)),
        )
    ]
    totals = [f"{glyph(ctx.colours[s])} {tr.money(t)}" for s, t in enumerate(award.totals) if t]
    if totals:
        lines.append(label("  ".join(totals), 16, INK))
    return ft.Column(lines, spacing=6, tight=True)


def score_row(ctx: GameContext, view: View) -> ft.Control:
    return ctx.part("scores", (view.order, view.score, view.contracts_won), lambda: score_panel(ctx, view))


def score_panel(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    chips: list[ft.Control] = [label(tr.t("corruption.ui.scores"), 18, ACCENT, ft.FontWeight.BOLD)]
    # best first (more money, then more contracts), as a table reads a list of scores; equal
    # players in the turn's order
    ranked = sorted(view.order, key=lambda s: (-view.score[s], -len(view.contracts_won[s])))
    for seat in ranked:
        won = ", ".join(c.name for c in view.contracts_won[seat])
        chips.append(
            ft.Column(
                [
                    ft.Row([player_chip(tr, ctx.names, ctx.colours, seat, 16), label(tr.t("corruption.ui.score_long", amount=view.score[seat], count=len(view.contracts_won[seat])), 17, INK, ft.FontWeight.BOLD)], spacing=6),
                    *([label(won, 15, MUTED)] if won else []),
                ],
                spacing=2,
                tight=True,
            )
        )
    return ft.Semantics(
        identifier="scores",
        key="scores",
        content=ft.Container(bgcolor=PANEL, border_radius=12, padding=10, content=ft.Row(chips, wrap=True, spacing=18, run_spacing=8)),
    )


# -- the board's public entries: the deal, a face-up card, an award choice --


def contract_name(tr: Translator, entry: CatalogueEntry) -> str:
    """A catalogue contract's name as the table's own cards print it: French cards in French,
    a Russian table's in Russian."""
    translated = {"fr": entry.name_fr, "ru": entry.name_ru}.get(tr.lang)
    name: str = translated or entry.name
    return name


def deal_form(ctx: GameContext, view: View) -> ft.Control:
    """Six slots (two per body), filled in the order the cards are dealt.

    The fast way: the catalogue's cards as buttons; a tap fills the next slot whole (name and
    value), so a round costs six taps and Deal. A card whose value the catalogue does not know
    yet fills its name and asks for its value with one more tap (one button per value), once:
    the value is remembered for the next games. Each slot keeps its catalogue menu and its name
    and value fields (typed by hand, or corrected); tapping a slot's title makes it the one the
    next tap fills, its ✕ empties it.

    What is typed stays typed across redraws (other players' actions, presence, a pick): a
    field's text is stored when its change event is handled, and a redraw drawn before that
    (the client's value update is applied at once, its change event waits its turn) takes the
    text from the field itself. Enter in any field deals, like the button: it comes after that
    field's last keystroke."""
    tr = ctx.tr
    round_number = view.round if view.phase == "deal" else view.round + 1
    key = ("corruption.deal", round_number)
    form: dict[str, dict[str, str]] = ctx.ui.setdefault(key, {})
    #: the slot the next catalogue tap fills when the host chose it (else the first not filled)
    chosen: dict[str, str | None] = ctx.ui.setdefault(("corruption.deal_target", round_number), {"slot": None})
    #: the text fields of the last drawing and the text each was drawn with
    drawn: dict[tuple[str, str], tuple[ft.TextField, str]] = ctx.ui.setdefault(("corruption.deal_fields", round_number), {})
    entries = catalogue().contracts
    # a contract card is dealt once: one on the table or in a player's pile is not offered again
    # (a name can still be typed: the catalogue does not know every card)
    gone = {c.name.casefold() for b in view.bodies for c in b.contracts} | {c.name.casefold() for pile in view.contracts_won for c in pile}

    def dealt(*names: str) -> bool:
        return any(n.casefold() in gone for n in names)

    shown = {contract_name(tr, e): e for e in entries}
    slots = [(body, n) for body in BODIES for n in range(1, NEW_CONTRACTS_PER_BODY + 1)]
    # A tablet's board (1280x800) holds the whole deal without scrolling: the catalogue on the
    # left, the six slots in one column beside it, one slot's menu and fields open at a time
    # (the one tapped or typed in), and Deal under them. A phone keeps the three bodies one
    # under another, every slot open.
    wide = ctx.width >= DEAL_SIDE_BY_SIDE
    width = DEAL_SLOTS_WIDTH if wide else body_width(ctx, 220.0, inset=24.0)

    def slot(body: str, n: int) -> dict[str, str]:
        return form.setdefault(f"{body}-{n}", {"name": "", "value": ""})

    # A value the client set after the last drawing whose change event is still on its way:
    # the field holds it (Flet applies a client's value update at once); keep it, unless the
    # slot itself changed since (a pick), which is newer.
    def harvest() -> None:
        for (slot_id, which), (control, drawn_with) in drawn.items():
            data = form.get(slot_id)
            if data is not None and (control.value or "") != drawn_with and data.get(which, "") == drawn_with:
                data[which] = control.value or ""

    harvest()
    # (entries stay: a field kept with its part is still the one on the page)

    def complete(body: str, n: int) -> bool:
        data = slot(body, n)
        return bool(data["name"].strip()) and parse_value(data["value"]) > 0

    def target() -> tuple[str, int] | None:
        wanted = chosen.get("slot")
        for body, n in slots:
            if f"{body}-{n}" == wanted and not complete(body, n):
                return body, n
        return next(((body, n) for body, n in slots if not complete(body, n)), None)

    def fill(body: str, n: int, name: str, entry: CatalogueEntry | None) -> None:
        # the card's value; a card the catalogue has no value for keeps one already entered
        value = str(entry.value) if entry is not None and entry.value else slot(body, n)["value"]
        if parse_value(value) <= 0:
            value = ""
        slot(body, n).update({"name": name, "value": value, "picked": name})
        # a card without a known value keeps the slot: its value comes next
        chosen["slot"] = None if value else f"{body}-{n}"

    def on_pick(body: str, n: int) -> Callable[[Any], Awaitable[None]]:
        async def picked(event: Any) -> None:
            name = event.control.value or ""
            if not name or name in (slot(body, n).get("picked"), slot(body, n)["name"]):
                # Not a new choice (the menu also reports "nothing" when focus leaves it, and the
                # card the slot already holds when a redraw sets it): the slot keeps what was
                # picked or typed (its value too), and no redraw clears a field being typed in.
                return
            fill(body, n, name, shown.get(name))
            await ctx.rerender()

        return picked

    async def tapped_card(name: str) -> None:
        at = target()
        if at is None:
            return
        fill(at[0], at[1], name, shown.get(name))
        await ctx.rerender()

    async def tapped_value(amount: int) -> None:
        at = target()
        if at is None:
            return
        slot(*at)["value"] = str(amount)
        # a value entered first: the slot waits for its card
        chosen["slot"] = None if slot(*at)["name"].strip() else f"{at[0]}-{at[1]}"
        await ctx.rerender()

    async def choose_slot(body: str, n: int) -> None:
        chosen["slot"] = chosen["open"] = f"{body}-{n}"
        await ctx.rerender()

    async def clear_slot(body: str, n: int) -> None:
        form[f"{body}-{n}"] = {"name": "", "value": ""}
        chosen["slot"] = chosen["open"] = f"{body}-{n}"
        await ctx.rerender()

    def on_text(body: str, n: int, field: str) -> Callable[[Any], Awaitable[None]]:
        async def changed(event: Any) -> None:
            slot(body, n)[field] = event.control.value or ""
            # the slot being typed in stays open across the redraws to come
            chosen["open"] = f"{body}-{n}"

        return changed

    async def submitted(_event: Any) -> None:
        await deal()

    def field(body: str, n: int, which: str, label_text: str, **extra: Any) -> ft.TextField:  # extra: ft.TextField's own options
        value = slot(body, n)[which]
        control = ft.TextField(label=label_text, value=value, on_change=on_text(body, n, which), on_submit=submitted, width=width - 8, text_size=17, dense=True, **extra)
        if ctx.sections is None or not ctx.sections.checking:  # (a check's build is thrown away)
            drawn[(f"{body}-{n}", which)] = (control, value)
        return control

    at = target()
    used = {slot(b, n)["name"].strip().casefold(): tr.t(f"corruption.ui.deal_in.{b}", n=n) for b, n in slots if slot(b, n)["name"].strip()}
    # -- the catalogue's cards: one tap fills the next slot. Every row is always drawn, and a
    # card dealt stays in its place (dimmed, saying where it went): nothing moves between two
    # taps, so a finger already on its way lands where the eye saw the button. --
    # Every tap redraws the form: each chip, slot title and slot editor is a part (its props
    # name the round, whose form its handlers fill), so a tap builds what it changed.
    if at is None:
        prompt_text, prompt_colour = tr.t("corruption.ui.deal_ready"), WON
    else:
        at_name = f"{tr.t(f'corruption.body.{at[0]}')} {at[1]}"
        data = slot(*at)
        if data["name"].strip() and parse_value(data["value"]) <= 0:
            prompt_text, prompt_colour = tr.t("corruption.ui.deal_value_for", name=data["name"], where=tr.t(f"corruption.ui.deal_in.{at[0]}", n=at[1])), ACCENT
        else:
            prompt_text, prompt_colour = tr.t("corruption.ui.deal_next", slot=at_name), ACCENT
    prompt = ctx.part("deal-next", (prompt_text, prompt_colour), lambda: deal_prompt(prompt_text, prompt_colour))
    cards = []
    # every line a card's chip can show under its name: its width holds the widest, so a card
    # dealt (its line now says where it went) keeps its size and nothing after it moves
    places = [tr.t(f"corruption.ui.deal_in.{b}", n=n) for b, n in slots]
    for name, e in shown.items():
        if dealt(e.name, name):
            continue
        where = used.get(name.casefold())
        value_line = tr.money(e.value) if e.value else tr.t("corruption.ui.value_unknown")
        detail = where if where is not None else value_line
        chip_width = deal_chip_width(name, [value_line, *places], compact=wide)
        cards.append(ctx.part(f"deal-card-{e.name}", (round_number, name, detail, where is None, chip_width, wide), partial(deal_chip, name, handler(tapped_card, name) if where is None else None, f"deal-card-{e.name}", detail, compact=wide, width=chip_width)))
    low, high = catalogue().value_range
    amounts = [ctx.part(f"deal-amount-{a}", (round_number, wide), partial(deal_chip, tr.money(a), handler(tapped_value, a), f"deal-amount-{a}", compact=wide)) for a in range(low, high + 1, 100_000)]
    # The form's wrappers are groups and its fixed texts parts: a tap sends the chip, slot or
    # editor it changed, with no diff of the form around them.
    quick = ctx.group(
        "deal-quick",
        None,
        [
            prompt,
            ctx.group("deal-cards", None, cards, chip_row),
            ctx.part("deal-amounts-title", None, lambda: label(tr.t("corruption.ui.deal_amounts"), 14, MUTED)),
            ctx.group("deal-amounts", None, amounts, chip_row),
        ],
        lambda quick: ft.Semantics(identifier="deal-quick", key="deal-quick", content=ft.Column(quick, spacing=6)),
    )

    cols: list[ft.Control] = []
    column: list[ft.Control] = []
    for body in BODIES:
        body_name = tr.t(f"corruption.body.{body}")
        if not wide:
            column = [ctx.part(f"deal-body-{body}", None, partial(label, body_name, 24, ACCENT, ft.FontWeight.BOLD))]
        for n in range(1, NEW_CONTRACTS_PER_BODY + 1):
            current = slot(body, n)
            is_target = at == (body, n)
            title_text = slot_title(tr, body_name, n, current)
            column.append(ctx.part(f"deal-slot-{body}-{n}", (round_number, title_text, is_target, width, wide), partial(slot_title_row, ctx, body, n, body_name, title_text, is_target, width, wide, handler(choose_slot, body, n), handler(clear_slot, body, n))))
            # beside the catalogue, only the slot tapped or typed in shows its menu and fields
            # (drawn all the same: what is typed stays in its field)
            is_open = not wide or chosen.get("open") == f"{body}-{n}"
            # a closed slot's menu holds only the card it shows: nobody can open it, and six
            # slots held 78 options (a control each) that no one saw; opening the slot sends them
            options = [
                ft.DropdownOption(
                    key=name,
                    text=catalogue_option(tr, name, e, current),
                )
                for name, e in shown.items()
                if not dealt(e.name, name) and (is_open or name == current.get("picked"))
            ]
            option_texts = tuple((o.key, o.text) for o in options)
            slot_props = (round_number, tuple(sorted(current.items())), option_texts, is_open, width, wide)

            def editor(body: str = body, n: int = n, body_name: str = body_name, current: dict[str, str] = current, options: list[ft.DropdownOption] = options, is_open: bool = is_open) -> ft.Control:
                items: list[ft.Control] = [
                    ft.Semantics(
                        identifier=f"deal-pick-{body}-{n}",
                        key=f"deal-pick-{body}-{n}",
                        # a Dropdown's own label never reaches the accessibility tree
                        label=tr.t("corruption.ui.deal_pick", body=body_name, n=n),
                        content=ft.Dropdown(
                            label=tr.t("corruption.ui.deal_pick", body=body_name, n=n),
                            # only a card picked for this slot (a typed name that happens to match a
                            # card is not a pick: it would set the menu, which reports a choice)
                            value=current["name"] if current.get("picked") == current["name"] and any(o.key == current["name"] for o in options) else None,
                            options=options,
                            on_select=on_pick(body, n),
                            width=width - 8,
                            menu_height=360,
                        ),
                    )
                ]
                picked = bool(current.get("picked")) and current.get("picked") == current["name"]
                # always drawn, empty until a pick: the fields below keep their place
                items.append(ft.Semantics(identifier=f"deal-picked-{body}-{n}", key=f"deal-picked-{body}-{n}", content=label(tr.t("corruption.ui.picked", name=current["name"]) if picked else " ", 14, WON)))
                items.append(ft.Semantics(identifier=f"deal-name-{body}-{n}", key=f"deal-name-{body}-{n}", content=field(body, n, "name", tr.t("corruption.ui.deal_name", body=body_name, n=n))))
                items.append(ft.Semantics(identifier=f"deal-value-{body}-{n}", key=f"deal-value-{body}-{n}", content=field(body, n, "value", tr.t("corruption.ui.deal_value", body=body_name, n=n), keyboard_type=ft.KeyboardType.NUMBER)))
                if wide:
                    return ft.Container(visible=is_open, padding=ft.Padding.only(left=8, bottom=4), content=ft.Column(items, spacing=6), key=f"deal-editor-{body}-{n}")
                # the column's own spacing: laid out as if its items stood in the slot's column
                return ft.Column(items, spacing=8, key=f"deal-editor-{body}-{n}")

            column.append(ctx.part(f"deal-editor-{body}-{n}", slot_props, editor))
            if not wide and n < NEW_CONTRACTS_PER_BODY:
                divider = f"deal-divider-{body}-{n}"
                column.append(ctx.part(divider, None, partial(ft.Divider, height=8, color=MUTED, key=divider)))
        if not wide:
            cols.append(ctx.group(f"deal-column-{body}", width, column, partial(slot_column, width, 8)))
    if wide:
        cols.append(ctx.group("deal-column", width, column, partial(slot_column, width, 4)))

    async def deal() -> None:
        harvest()  # the text each field holds, change events still on their way included
        contracts: list[dict[str, Any]] = [
            {"body": body, "name": slot(body, n)["name"].strip(), "value": parse_value(slot(body, n)["value"])}
            for body, n in slots
        ]
        # the host board deals for the table (by: null); a phone deals as its own seat
        accepted = await ctx.submit({"type": "deal_contracts", "by": ctx.seat, "contracts": contracts})
        if accepted:
            ctx.ui.pop(key, None)
            ctx.ui.pop(("corruption.deal_target", round_number), None)
            ctx.ui.pop(("corruption.deal_fields", round_number), None)
            ctx.ui.pop(("corruption.dealing", view.round), None)
            await remember_values([(c["name"], c["value"]) for c in contracts])
            await ctx.rerender()

    title = ctx.part("deal-title", (round_number, wide), lambda: label(tr.t("corruption.ui.deal_title", round=round_number), 20 if wide else 24, INK, ft.FontWeight.BOLD))
    help_text = ctx.part("deal-help", wide, lambda: label(tr.t("corruption.ui.deal_help"), 14 if wide else 15, MUTED))
    # (its handler reads the round's form at the tap: the same dicts for the whole round; and it
    # ends the dealing of `view.round`, the round over or the one dealt)
    submit = ctx.part("deal-submit", (round_number, view.round, width, wide), lambda: big_button(tr.t("corruption.ui.deal_submit"), handler(deal), ident="deal-submit", width=width if wide else None))
    if wide:
        slots_side = ctx.group("deal-slots", None, [*cols, submit], lambda items: ft.Column(items, spacing=8))
        entry = ctx.group("deal-sides", None, [quick, slots_side], lambda sides: ft.Row([ft.Container(expand=True, content=sides[0]), sides[1]], spacing=12, vertical_alignment=ft.CrossAxisAlignment.START))
    else:
        columns_row = ctx.group("deal-columns", None, cols, lambda cols: ft.Row(cols, spacing=8, run_spacing=8, wrap=True, vertical_alignment=ft.CrossAxisAlignment.START))
        entry = ctx.group("deal-stack", None, [quick, columns_row, submit], lambda items: ft.Column(items, spacing=10))
    return ctx.group(
        "deal-form",
        wide,
        [title, help_text, entry],
        lambda items: ft.Semantics(
            identifier="deal-form",
            key="deal-form",
            content=ft.Container(bgcolor=PANEL, border_radius=12, padding=12, content=ft.Column(items, spacing=8 if wide else 10)),
        ),
    )


def chip_row(chips: list[ft.Control]) -> ft.Control:
    return ft.Row(chips, wrap=True, spacing=6, run_spacing=6)


def slot_column(width: float, spacing: float, items: list[ft.Control]) -> ft.Control:
    """A body's slots (or, beside the catalogue, all six), their titles and editors."""
    return ft.Container(width=width, content=ft.Column(items, spacing=spacing))


#: the board's width from which the deal's slots stand beside the catalogue, and their column's
DEAL_SIDE_BY_SIDE = 760.0
DEAL_SLOTS_WIDTH = 300.0


def slot_title_row(ctx: GameContext, body: str, n: int, body_name: str, title_text: str, is_target: bool, width: float, wide: bool, on_choose: Callable[[Any], Awaitable[None]], on_clear: Callable[[Any], Awaitable[None]]) -> ft.Control:
    """A deal slot's title (a tap makes it the one the next tap fills) and its ✕ (empties it)."""
    tr = ctx.tr
    return ft.Row(
        [
            ft.Semantics(
                identifier=f"deal-slot-{body}-{n}",
                key=f"deal-slot-{body}-{n}",
                button=True,
                selected=is_target,
                content=ft.Container(
                    on_click=on_choose,
                    width=width - 60,
                    padding=ft.Padding.symmetric(horizontal=8, vertical=6),
                    border_radius=8,
                    bgcolor=ACCENT if is_target else None,
                    content=label(title_text, 15 if wide else 16, "#111111" if is_target else INK, ft.FontWeight.BOLD, max_lines=2 if wide else 1, overflow=ft.TextOverflow.ELLIPSIS),
                ),
            ),
            ft.Semantics(
                identifier=f"deal-clear-{body}-{n}",
                key=f"deal-clear-{body}-{n}",
                button=True,
                label=tr.t("corruption.ui.deal_clear", body=body_name, n=n),
                content=ft.IconButton(icon=ft.Icons.CLOSE, on_click=on_clear, icon_color=MUTED, tooltip=tr.t("corruption.ui.deal_clear", body=body_name, n=n)),
            ),
        ],
        spacing=2,
        key=f"deal-title-{body}-{n}",
    )


def slot_title(tr: Translator, body_name: str, n: int, current: dict[str, str]) -> str:
    """A deal slot's title: where, and the card it holds so far (name, value)."""
    parts = [f"{body_name} {n}"]
    if current["name"].strip():
        parts.append(current["name"].strip())
    if parse_value(current["value"]) > 0:
        parts.append(tr.money(parse_value(current["value"])))
    return " · ".join(parts)


def catalogue_option(tr: Translator, name: str, entry: CatalogueEntry, current: dict[str, str]) -> str:
    """A catalogue card in a slot's menu: with its value; the one picked in this slot, with the
    value the slot holds (the menu then shows the slot as it is, never a prompt)."""
    if name == current.get("name") and parse_value(current.get("value", "")) > 0:
        return tr.t("corruption.ui.catalogue_entry", name=name, amount=parse_value(current["value"]))
    if entry.value:
        return tr.t("corruption.ui.catalogue_entry", name=name, amount=entry.value)
    return tr.t("corruption.ui.catalogue_entry_unknown", name=name)


def deal_prompt(text: str, colour: str) -> ft.Control:
    """What the next tap of the deal does (its own node: read aloud, and by the tests)."""
    return ft.Semantics(identifier="deal-next", key="deal-next", live_region=True, content=label(text, 18, colour, ft.FontWeight.BOLD))


def deal_chip_width(text: str, details: list[str], *, compact: bool) -> float:
    """A catalogue card's chip wide enough for its name and the widest of `details`."""
    widest = max([text_width(text, 15 if compact else 17, bold=True), *(text_width(d, 12 if compact else 13, letter_spacing=0.25) for d in details)])
    # (Flutter lays a line out up to a few pixels wider than Pillow measures it)
    return float(round(widest + 2 * (8 if compact else 12) + 8))


def deal_chip(text: str, on_click: Callable[[Any], Awaitable[None]] | None, ident: str, detail: str | None = None, compact: bool = False, width: float | None = None) -> ft.Control:
    """One tap in the deal: a catalogue card (name, and its value or that it is not known yet),
    or a value. At least 48 px high. Without `on_click`: a card already dealt, dimmed.
    `compact` (a tablet's board, where the whole deal must fit): 15 px names, 12 px details.
    `width`: fixed (`deal_chip_width`), so the chip keeps its size when its line changes."""
    lines: list[ft.Control] = [ft.Text(text, size=15 if compact else 17, weight=ft.FontWeight.BOLD, color="#111111" if on_click else "#546E7A")]
    if detail:
        lines.append(ft.Text(detail, size=12 if compact else 13, color="#37474F"))
    return ft.Semantics(
        identifier=ident,
        key=ident,
        button=True,
        content=ft.Container(
            on_click=on_click,
            bgcolor=CARD_FACE if on_click else "#B0BEC5",
            border_radius=8,
            width=width,
            padding=ft.Padding.symmetric(horizontal=8 if compact else 12, vertical=4 if compact else 6),
            height=(52 if compact else 56) if detail else 48,
            content=ft.Column(lines, spacing=0, tight=True, alignment=ft.MainAxisAlignment.CENTER),
        ),
    )


def parse_value(text: str) -> int:
    digits = "".join(ch for ch in text if ch.isdigit())
    return int(digits) if digits else 0


def board_entry(ctx: GameContext, view: View) -> ft.Control | None:
    """The host may enter public choices for the current player (behind a tap: phones first)."""
    if not ctx.acts_for_current:
        return None
    tr = ctx.tr
    legal = view.board_legal
    seat: int | None = None
    if view.phase == "corruption" and legal.face_up and legal.cards:
        seat = view.turn
    elif view.phase == "awards" and view.pending is not None:
        seat = view.pending.seat
    if seat is None:
        return None
    # Opened once per phase, it stays open for the next player's entry (until "Hide"): an entry
    # collapsing after each action moved everything under it up under the host's finger, and the
    # next player's options belong where the last ones were, where the handover window guards
    # them.
    key = ("corruption.enter", view.round, view.phase)
    if not ctx.ui.get(key):
        return ft.Row([big_button(tr.t("corruption.ui.enter_here", ctx.names, seat=seat), handler(toggle, ctx, key), ident="board-enter", colour="#B0BEC5")])
    # whose choice this enters: their colour, shape and name above every option
    body: list[ft.Control] = [big_button(tr.t("corruption.ui.enter_hide"), handler(toggle, ctx, key), ident="board-enter", colour="#B0BEC5"), player_chip(tr, ctx.names, ctx.colours, seat, 22)]
    if view.phase == "corruption":
        body.append(placement_picker(ctx, view, seat, legal, prefix="board-", face_up=True))
    else:
        body.append(award_choice(ctx, view, seat, legal, prefix="board-"))
    return ft.Container(bgcolor=PANEL, border_radius=12, padding=12, border=ft.Border.all(4, COLOUR_HEX[ctx.colours[seat]]), content=ft.Column(body, spacing=8))


