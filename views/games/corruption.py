"""Corruption on screen: the three government bodies with their Swiss accounts and contracts
(board), and a player's hand, placements, peeks and award choices (phone).

Everything drawn comes from the projection given (`View` of companion/games/corruption.py); the
board's projection never holds a face-down card, so nothing hidden can be drawn there. The
contract catalogue (assets/corruption_contracts.json) feeds the deal form; values typed at the
table are remembered in it off the event loop (asyncio.to_thread).
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from pathlib import Path
from typing import Any

import flet as ft

from companion.games.corruption import (
    BODIES,
    CARDS_PER_ROUND,
    CATALOGUE_PATH,
    NEW_CONTRACTS_PER_BODY,
    Catalogue,
    View,
    load_catalogue,
    remember_contract,
    swiss_value,
)
from views.context import GameContext
from views.steps import go_to_step, shown_step
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
    choice_target,
    private_section,
    public_view,
    role,
    secret_choices,
    secret_face,
    tagged,
    text_on,
)

CARD_FACE = "#FFF8E1"
CHARACTER_FACE = {"da": "#90CAF9", "reporter": "#FFCC80", "hitman": "#EF9A9A"}
WON = "#A5D6A7"

# --------------------------------------------------------------------------------------------
# the contract catalogue (read once, written off the loop)
# --------------------------------------------------------------------------------------------

_catalogue: dict[Path, Catalogue] = {}
_write_lock = threading.Lock()


def catalogue_path() -> Path:
    """The catalogue file; CORRUPTION_CATALOGUE points elsewhere (tests: a copy in a temp dir)."""
    override = os.environ.get("CORRUPTION_CATALOGUE")
    return Path(override) if override else CATALOGUE_PATH


def catalogue() -> Catalogue:
    path = catalogue_path()
    if path not in _catalogue:
        try:
            _catalogue[path] = load_catalogue(path)
        except (OSError, ValueError):
            _catalogue[path] = Catalogue(contracts=())
    return _catalogue[path]


def _write_catalogue(path: Path, entries: list[tuple[str, int]]) -> Catalogue:
    """Blocking: re-read, remember, write atomically. Runs on a worker thread."""
    with _write_lock:
        try:
            current = load_catalogue(path)
        except (OSError, ValueError):
            current = Catalogue(contracts=())
        for name, value in entries:
            current = remember_contract(current, name, value)
        temporary = path.with_suffix(path.suffix + ".tmp")
        temporary.write_text(json.dumps(current.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        temporary.replace(path)
        return current


async def remember_values(entries: list[tuple[str, int]]) -> None:
    """Remember the names and values the catalogue does not know yet (never blocks the loop)."""
    known = {e.name.casefold(): e.value for e in catalogue().contracts}
    new = [(n, v) for n, v in entries if known.get(n.strip().casefold(), -1) != v]
    if not new:
        return
    path = catalogue_path()
    _catalogue[path] = await asyncio.to_thread(_write_catalogue, path, new)


# --------------------------------------------------------------------------------------------
# the module contract
# --------------------------------------------------------------------------------------------


def status_line(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    parts = [tr.t("ui.round", round=view.round, rounds=view.rounds), tr.t(f"corruption.phase.{view.phase}")]
    if view.variant != "standard":
        parts.append(tr.t(f"corruption.variant.{view.variant}"))
    if view.little_black_book:
        parts.append(tr.t("corruption.little_black_book"))
    if view.phase == "corruption":
        parts.append(schedule_text(ctx, view))
    if view.stage:
        parts.append(tr.t(f"corruption.stage.{view.stage}"))
    return label(" · ".join(parts), 18, MUTED)


def seat_summary(ctx: GameContext, view: View, seat: int) -> str:
    # "300,000 · 2 contracts": the short "300,000 (2)" left players guessing what the 2 was
    return ctx.tr.t("corruption.ui.score_long", amount=view.score[seat], count=len(view.contracts_won[seat]))


def is_my_turn(view: View, seat: int) -> bool:
    return view.phase in ("stud", "corruption", "awards") and view.waiting_for == (seat,)


def schedule_text(ctx: GameContext, view: View) -> str:
    if not view.face_up_slots:
        return ctx.tr.t("corruption.ui.all_face_down")
    return ctx.tr.t("corruption.ui.face_up_schedule", slots=", ".join(map(str, view.face_up_slots)))


# --------------------------------------------------------------------------------------------
# small pieces shared by board and phone
# --------------------------------------------------------------------------------------------


def contracts_by_id(view: View) -> dict[int, Any]:
    return {c.id: c for b in view.bodies for c in b.contracts}


def placements_by_index(view: View) -> dict[int, tuple[Any, Any]]:
    """index -> (placement view, contract view or body name)."""
    out: dict[int, tuple[Any, Any]] = {}
    for body in view.bodies:
        for p in body.swiss:
            out[p.index] = (p, body.body)
        for c in body.contracts:
            for p in c.placements:
                out[p.index] = (p, c)
    return out


def card_name(ctx: GameContext, card: Any) -> str:
    if isinstance(card, int):
        return ctx.tr.money(card)
    return ctx.tr.t(f"corruption.card.{card}")


def card_short(ctx: GameContext, card: Any) -> str:
    if isinstance(card, int):
        return ctx.tr.t("corruption.ui.card_short.bribe", k=card // 1000)
    return ctx.tr.t(f"corruption.ui.card_short.{card}")


#: a killed or removed card's mark and strike
STRUCK = "#C62828"


def card_tile(ctx: GameContext, seat: int, card: Any, *, size: int = 44, sideways: bool = False, crossed: bool = False, ring: str | None = None, ident: str | None = None) -> ft.Control:
    """A card on the table: its face (known card) or its back in the owner's colour (card None)."""
    colour = ctx.colours[seat]
    # whole pixels (a float is 9 bytes on the wire); a back and a face are laid out alike, so a
    # reveal changes their texts and colours, not their controls
    width, height = (round(size * 1.3), size) if sideways else (size, round(size * 1.3))
    if card is None:
        bits = [
            ft.Text(glyph(colour), size=round(size * 0.45), color=text_on(colour), weight=ft.FontWeight.BOLD),
            ft.Text("", size=round(size * 0.26), visible=False),
        ]
        bg = COLOUR_HEX[colour]
        border = ft.Border.all(3 if ring else 2, ring or "#FFFFFF")
    else:
        bg = CHARACTER_FACE.get(card, CARD_FACE) if isinstance(card, str) else CARD_FACE
        # a killed or removed card keeps its value readable: struck through, never covered
        struck = ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH, decoration_color=STRUCK, decoration_thickness=3) if crossed else None
        bits = [
            ft.Text(card_short(ctx, card), size=round(size * 0.36), weight=ft.FontWeight.BOLD, color="#111111", style=struck),
            ft.Text(glyph(colour), size=round(size * 0.26), color=COLOUR_HEX[colour] if colour != "white" else "#9E9E9E"),
        ]
        border = ft.Border.all(3 if ring else 4, ring or COLOUR_HEX[colour])
    if sideways:
        content: ft.Control = ft.Row(bits, spacing=2, tight=True, alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    else:
        content = ft.Column(bits, spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER, alignment=ft.MainAxisAlignment.CENTER)
    # struck: faded, and a red cross in its corner, clear of the value (a ✗ over it would hide it)
    tile: ft.Control = ft.Container(width=width, height=height, bgcolor=bg, border=border, border_radius=5, alignment=ft.Alignment.CENTER, content=content, opacity=0.7 if crossed else 1.0)
    if crossed:
        mark = size * 0.34
        tile = ft.Stack(
            [
                tile,
                # half outside the card's corner, off its value
                ft.Container(
                    right=-mark * 0.4, top=-mark * 0.4, width=mark, height=mark, bgcolor=STRUCK, border_radius=mark / 2, alignment=ft.Alignment.CENTER,
                    border=ft.Border.all(1, "#FFFFFF"),
                    content=ft.Icon(ft.Icons.CLOSE, size=mark * 0.8, color="#FFFFFF"),
                ),
            ],
            width=width,
            height=height,
            clip_behavior=ft.ClipBehavior.NONE,
        )
    if ident:
        return ft.Semantics(identifier=ident, key=ident, content=tile)
    return tile


# --------------------------------------------------------------------------------------------
# the award steps (a view state in ctx.ui, never a game action)
# --------------------------------------------------------------------------------------------


#: the page's position in the round's awards (views/steps.py)
STEP_KEY = "corruption.step"


def step_index(ctx: GameContext, view: View) -> int:
    """The ruling shown: new rulings open on the newest (what just happened); taps move through
    them."""
    return shown_step(ctx, STEP_KEY, view.round, len(view.award_log))


def reveal_marks(view: View, upto: int | None) -> tuple[dict[int, int], set[int]]:
    """(contract id -> index of its outcome ruling, placements struck so far) up to step `upto`."""
    outcome_at: dict[int, int] = {}
    struck: set[int] = set()
    for i, ruling in enumerate(view.award_log):
        code = ruling.code.removeprefix("corruption.")
        if code in ("won", "tied", "no_bribes", "cancelled") and "contract_id" in ruling.params:
            outcome_at[ruling.params["contract_id"]] = i
        if (code.startswith("hit_") or code == "reported") and "placement" in ruling.params and (upto is None or i <= upto):
            struck.add(ruling.params["placement"])
    return outcome_at, struck


def steps_panel(ctx: GameContext, view: View, index: int) -> ft.Control:
    tr = ctx.tr
    total = len(view.award_log)

    async def move(delta: int) -> None:
        go_to_step(ctx, STEP_KEY, view.round, total, index + delta)
        await ctx.rerender()

    ruling = view.award_log[index]
    return ft.Semantics(
        identifier="award-steps",
        key="award-steps",
        content=ft.Container(
            bgcolor=PANEL,
            border=ft.Border.all(2, ACCENT),
            border_radius=12,
            padding=10,
            content=ft.Row(
                [
                    ft.Column(
                        [
                            ft.Row(
                                [
                                    label(tr.t("corruption.ui.award_steps", round=view.round), 16, ACCENT, ft.FontWeight.BOLD),
                                    label(tr.t("ui.step", n=index + 1, total=total), 16, MUTED),
                                ],
                                spacing=12,
                            ),
                            ft.Semantics(identifier="award-step-text", key="award-step-text", content=label(tr.ruling(ruling, ctx.names), 21, INK, ft.FontWeight.BOLD)),
                            # the last step: every player's round in one line once the awards
                            # are done; while a choice is awaited, only that they are under way
                            *([ft.Semantics(identifier="round-summary", key="round-summary", content=ft.Column(
                                [label(line, 16, ACCENT if i == 0 else INK, ft.FontWeight.BOLD if i == 0 else None) for i, line in enumerate(round_summary(tr, ctx.names, view))], spacing=2, tight=True,
                            ))] if index == total - 1 and view.phase != "awards" else []),
                            *([ft.Semantics(identifier="awards-under-way", key="awards-under-way", content=label(tr.t("corruption.ui.awards_under_way"), 16, MUTED))]
                              if index == total - 1 and view.phase == "awards" else []),
                        ],
                        spacing=4,
                        expand=True,
                    ),
                    big_button(tr.t("ui.previous"), handler(move, -1), ident="step-previous", colour="#B0BEC5", disabled=index == 0),
                    big_button(tr.t("ui.next"), handler(move, 1), ident="step-next", colour=ACCENT if index < total - 1 else "#607D8B", disabled=index >= total - 1),
                ],
                spacing=10,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        ),
    )


def round_summary(tr: Any, names: list[str], view: View) -> list[str]:
    """One line a player once the round's awards are done: the contracts won and their worth
    ("Alice +900,000: won Subway and Airport"), from the public awards."""
    lines = [tr.t("corruption.summary.title", round=view.round)]
    for seat in range(len(names)):
        won = [c for b in view.bodies for c in b.contracts if c.award is not None and c.award.outcome == "won" and c.award.winner == seat]
        reasons = tr.list([tr.t("corruption.summary.won", contract=c.name) for c in won]) if won else tr.t("corruption.summary.nothing")
        lines.append(tr.t("corruption.summary.line", names, seat=seat, amount=sum(c.value for c in won), reasons=reasons))
    return lines


def step_focus(view: View, index: int | None) -> tuple[int | None, set[int]]:
    """The contract and the cards the shown ruling is about (highlighted on the board)."""
    if index is None or not view.award_log:
        return None, set()
    ruling = view.award_log[index]
    params = ruling.params
    cards: set[int] = set()
    if "placement" in params:
        cards.add(params["placement"])
    contract = params.get("contract_id")
    if contract is None and "contract" in params:
        contract = next((c.id for c in contracts_by_id(view).values() if c.name == params["contract"]), None)
    return contract, cards


# --------------------------------------------------------------------------------------------
# the board
# --------------------------------------------------------------------------------------------


def board_body(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    items: list[ft.Control] = [prompt_bar(ctx, view)]
    dealing = view.phase == "deal" or (view.phase == "round_over" and ctx.ui.get(("corruption.dealing", view.round)))
    if dealing and ctx.acts_for_current:
        items.append(deal_form(ctx, view))
        if view.phase == "round_over":
            items.append(big_button(tr.t("corruption.ui.deal_close"), handler(toggle, ctx, ("corruption.dealing", view.round)), ident="deal-close", colour="#B0BEC5"))
        items.append(score_row(ctx, view))
        return ft.Column(items, spacing=12)  # the deal form's fields: drawn as typed, never reused
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


async def toggle(ctx: GameContext, key: Any) -> None:
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


def pending_text(ctx: GameContext, view: View) -> str:
    tr = ctx.tr
    pending = view.pending
    assert pending is not None
    placements = placements_by_index(view)
    actor, where = placements[pending.placement]
    if pending.kind == "swiss":
        return tr.t(
            "corruption.ui.pending.swiss",
            ctx.names,
            seat=pending.seat,
            face_amount=actor.card,
            amount=swiss_value(actor.card) if isinstance(actor.card, int) else 0,
            body=tr.t(f"corruption.body.{where}"),
        )
    return tr.t(f"corruption.ui.pending.{pending.kind}", ctx.names, seat=pending.seat, contract=where.name)


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


def body_column(ctx: GameContext, view: View, body: Any, width: float, step: int | None, focus_contract: int | None, focus_cards: set[int], outcome_at: dict[int, int], struck: set[int]) -> ft.Control:
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


def swiss_panel(ctx: GameContext, view: View, body: Any, focus_cards: frozenset[int]) -> ft.Control:
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


def contract_tile(ctx: GameContext, contract: Any, focused: bool, focus_cards: frozenset[int], struck: frozenset[int], show_award: bool) -> ft.Control:
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
                lambda p=p, crossed=crossed, ring=ring: card_tile(ctx, p.seat, p.card, size=size, crossed=crossed, ring=ring, ident=f"card-{p.index}"),
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


def contract_head(ctx: GameContext, contract: Any) -> ft.Control:
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
                content=label(tr.t("corruption.ui.deferred"), 13, INK, ft.FontWeight.BOLD),
            )
        )
    return ft.Row(head, wrap=True, spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER)


def contract_award(ctx: GameContext, contract_id: int, award: Any) -> ft.Control:
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
        lines.append(label("  ".join(totals), 14, MUTED))
    return ft.Column(lines, spacing=6, tight=True)


def score_row(ctx: GameContext, view: View) -> ft.Control:
    return ctx.part("scores", (view.order, view.score, view.contracts_won), lambda: score_panel(ctx, view))


def score_panel(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    chips: list[ft.Control] = [label(tr.t("corruption.ui.scores"), 18, ACCENT, ft.FontWeight.BOLD)]
    for seat in view.order:
        won = ", ".join(c.name for c in view.contracts_won[seat])
        chips.append(
            ft.Column(
                [
                    ft.Row([player_chip(tr, ctx.names, ctx.colours, seat, 16), label(tr.t("corruption.ui.score_long", amount=view.score[seat], count=len(view.contracts_won[seat])), 17, INK, ft.FontWeight.BOLD)], spacing=6),
                    *([label(won, 13, MUTED)] if won else []),
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


def contract_name(tr: Any, entry: Any) -> str:
    """A catalogue contract's name as the table's own cards print it: French cards in French,
    a Russian table's in Russian."""
    translated = {"fr": entry.name_fr, "ru": entry.name_ru}.get(tr.lang)
    return translated or entry.name


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
    on_table = {c.name.casefold() for b in view.bodies for c in b.contracts}
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
    drawn.clear()

    def complete(body: str, n: int) -> bool:
        data = slot(body, n)
        return bool(data["name"].strip()) and parse_value(data["value"]) > 0

    def target() -> tuple[str, int] | None:
        wanted = chosen.get("slot")
        for body, n in slots:
            if f"{body}-{n}" == wanted and not complete(body, n):
                return body, n
        return next(((body, n) for body, n in slots if not complete(body, n)), None)

    def fill(body: str, n: int, name: str, entry: Any) -> None:
        # the card's value; a card the catalogue has no value for keeps one already entered
        value = str(entry.value) if entry is not None and entry.value else slot(body, n)["value"]
        if parse_value(value) <= 0:
            value = ""
        slot(body, n).update({"name": name, "value": value, "picked": name})
        # a card without a known value keeps the slot: its value comes next
        chosen["slot"] = None if value else f"{body}-{n}"

    def on_pick(body: str, n: int):
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

    def on_text(body: str, n: int, field: str):
        async def changed(event: Any) -> None:
            slot(body, n)[field] = event.control.value or ""
            # the slot being typed in stays open across the redraws to come
            chosen["open"] = f"{body}-{n}"

        return changed

    async def submitted(_event: Any) -> None:
        await deal()

    def field(body: str, n: int, which: str, label_text: str, **extra: Any) -> ft.TextField:
        value = slot(body, n)[which]
        control = ft.TextField(label=label_text, value=value, on_change=on_text(body, n, which), on_submit=submitted, width=width - 8, text_size=17, dense=True, **extra)
        drawn[(f"{body}-{n}", which)] = (control, value)
        return control

    at = target()
    used = {slot(b, n)["name"].strip().casefold(): tr.t(f"corruption.ui.deal_in.{b}", n=n) for b, n in slots if slot(b, n)["name"].strip()}
    # -- the catalogue's cards: one tap fills the next slot. Every row is always drawn, and a
    # card dealt stays in its place (dimmed, saying where it went): nothing moves between two
    # taps, so a finger already on its way lands where the eye saw the button. --
    if at is None:
        prompt = deal_prompt(tr.t("corruption.ui.deal_ready"), WON)
    else:
        at_name = f"{tr.t(f'corruption.body.{at[0]}')} {at[1]}"
        data = slot(*at)
        if data["name"].strip() and parse_value(data["value"]) <= 0:
            prompt = deal_prompt(tr.t("corruption.ui.deal_value_for", name=data["name"], where=tr.t(f"corruption.ui.deal_in.{at[0]}", n=at[1])), ACCENT)
        else:
            prompt = deal_prompt(tr.t("corruption.ui.deal_next", slot=at_name), ACCENT)
    cards = []
    for name, e in shown.items():
        if e.name.casefold() in on_table or name.casefold() in on_table:
            continue
        where = used.get(name.casefold())
        if where is not None:
            cards.append(deal_chip(name, None, f"deal-card-{e.name}", where, compact=wide))
        else:
            cards.append(deal_chip(name, handler(tapped_card, name), f"deal-card-{e.name}", tr.money(e.value) if e.value else tr.t("corruption.ui.value_unknown"), compact=wide))
    low, high = catalogue().value_range
    amounts = [deal_chip(tr.money(a), handler(tapped_value, a), f"deal-amount-{a}", compact=wide) for a in range(low, high + 1, 100_000)]
    quick: list[ft.Control] = [
        prompt,
        ft.Row(cards, wrap=True, spacing=6, run_spacing=6),
        label(tr.t("corruption.ui.deal_amounts"), 14, MUTED),
        ft.Row(amounts, wrap=True, spacing=6, run_spacing=6),
    ]

    cols: list[ft.Control] = []
    column: list[ft.Control] = []
    for body in BODIES:
        body_name = tr.t(f"corruption.body.{body}")
        if not wide:
            column = [label(body_name, 24, ACCENT, ft.FontWeight.BOLD)]
        for n in range(1, NEW_CONTRACTS_PER_BODY + 1):
            current = slot(body, n)
            options = [
                ft.DropdownOption(
                    key=name,
                    text=catalogue_option(tr, name, e, current),
                )
                for name, e in shown.items()
                if e.name.casefold() not in on_table and name.casefold() not in on_table
            ]
            is_target = at == (body, n)
            title = ft.Row(
                [
                    ft.Semantics(
                        identifier=f"deal-slot-{body}-{n}",
                        key=f"deal-slot-{body}-{n}",
                        button=True,
                        selected=is_target,
                        content=ft.Container(
                            on_click=handler(choose_slot, body, n),
                            width=width - 60,
                            padding=ft.Padding.symmetric(horizontal=8, vertical=6),
                            border_radius=8,
                            bgcolor=ACCENT if is_target else None,
                            content=label(slot_title(tr, body_name, n, current), 15 if wide else 16, "#111111" if is_target else INK, ft.FontWeight.BOLD, max_lines=2 if wide else 1, overflow=ft.TextOverflow.ELLIPSIS),
                        ),
                    ),
                    ft.Semantics(
                        identifier=f"deal-clear-{body}-{n}",
                        key=f"deal-clear-{body}-{n}",
                        button=True,
                        label=tr.t("corruption.ui.deal_clear", body=body_name, n=n),
                        content=ft.IconButton(icon=ft.Icons.CLOSE, on_click=handler(clear_slot, body, n), icon_color=MUTED, tooltip=tr.t("corruption.ui.deal_clear", body=body_name, n=n)),
                    ),
                ],
                spacing=2,
            )
            column.append(title)
            # beside the catalogue, only the slot tapped or typed in shows its menu and fields
            # (drawn all the same: what is typed stays in its field)
            is_open = not wide or chosen.get("open") == f"{body}-{n}"
            editor: list[ft.Control] = []
            editor.append(
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
            )
            picked = bool(current.get("picked")) and current.get("picked") == current["name"]
            # always drawn, empty until a pick: the fields below keep their place
            editor.append(ft.Semantics(identifier=f"deal-picked-{body}-{n}", key=f"deal-picked-{body}-{n}", content=label(tr.t("corruption.ui.picked", name=current["name"]) if picked else " ", 14, WON)))
            editor.append(ft.Semantics(identifier=f"deal-name-{body}-{n}", key=f"deal-name-{body}-{n}", content=field(body, n, "name", tr.t("corruption.ui.deal_name", body=body_name, n=n))))
            editor.append(ft.Semantics(identifier=f"deal-value-{body}-{n}", key=f"deal-value-{body}-{n}", content=field(body, n, "value", tr.t("corruption.ui.deal_value", body=body_name, n=n), keyboard_type=ft.KeyboardType.NUMBER)))
            if wide:
                column.append(ft.Container(visible=is_open, padding=ft.Padding.only(left=8, bottom=4), content=ft.Column(editor, spacing=6)))
            else:
                column.extend(editor)
                if n < NEW_CONTRACTS_PER_BODY:
                    column.append(ft.Divider(height=8, color=MUTED))
        if not wide:
            cols.append(ft.Container(width=width, content=ft.Column(column, spacing=8)))
    if wide:
        cols.append(ft.Container(width=width, content=ft.Column(column, spacing=4)))

    async def deal() -> None:
        harvest()  # the text each field holds, change events still on their way included
        contracts = [
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

    return ft.Semantics(
        identifier="deal-form",
        key="deal-form",
        content=ft.Container(
            bgcolor=PANEL,
            border_radius=12,
            padding=12,
            content=ft.Column(
                [
                    label(tr.t("corruption.ui.deal_title", round=round_number), 20 if wide else 24, INK, ft.FontWeight.BOLD),
                    label(tr.t("corruption.ui.deal_help"), 14 if wide else 15, MUTED),
                    ft.Row(
                        [
                            ft.Container(expand=True, content=ft.Semantics(identifier="deal-quick", key="deal-quick", content=ft.Column(quick, spacing=6))),
                            ft.Column([*cols, big_button(tr.t("corruption.ui.deal_submit"), handler(deal), ident="deal-submit", width=width)], spacing=8),
                        ],
                        spacing=12,
                        vertical_alignment=ft.CrossAxisAlignment.START,
                    )
                    if wide
                    else ft.Column(
                        [
                            ft.Semantics(identifier="deal-quick", key="deal-quick", content=ft.Column(quick, spacing=6)),
                            ft.Row(cols, spacing=8, run_spacing=8, wrap=True, vertical_alignment=ft.CrossAxisAlignment.START),
                            big_button(tr.t("corruption.ui.deal_submit"), handler(deal), ident="deal-submit"),
                        ],
                        spacing=10,
                    ),
                ],
                spacing=8 if wide else 10,
            ),
        ),
    )


#: the board's width from which the deal's slots stand beside the catalogue, and their column's
DEAL_SIDE_BY_SIDE = 760.0
DEAL_SLOTS_WIDTH = 300.0


def slot_title(tr: Any, body_name: str, n: int, current: dict[str, str]) -> str:
    """A deal slot's title: where, and the card it holds so far (name, value)."""
    parts = [f"{body_name} {n}"]
    if current["name"].strip():
        parts.append(current["name"].strip())
    if parse_value(current["value"]) > 0:
        parts.append(tr.money(parse_value(current["value"])))
    return " · ".join(parts)


def catalogue_option(tr: Any, name: str, entry: Any, current: dict[str, str]) -> str:
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


def deal_chip(text: str, on_click: Any, ident: str, detail: str | None = None, compact: bool = False) -> ft.Control:
    """One tap in the deal: a catalogue card (name, and its value or that it is not known yet),
    or a value. At least 48 px high. Without `on_click`: a card already dealt, dimmed.
    `compact` (a tablet's board, where the whole deal must fit): 15 px names, 12 px details."""
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


# --------------------------------------------------------------------------------------------
# choices (phone, and the board's entries)
# --------------------------------------------------------------------------------------------


def placement_picker(ctx: GameContext, view: View, seat: int, legal: Any, *, prefix: str = "", face_up: bool | None = None) -> ft.Control:
    """Choose a card, then where it goes. Only legal options are offered."""
    tr = ctx.tr
    key = ("corruption.card", prefix, view.round, sum(view.cards_placed))
    chosen = ctx.ui.get(key)
    if chosen not in legal.cards:
        chosen = None

    def choose(card: Any):
        async def chose() -> None:
            ctx.ui[key] = card
            await ctx.rerender()

        return chose

    items: list[ft.Control] = [label(tr.t("corruption.ui.pick_card"), 20, INK, ft.FontWeight.BOLD)]
    cards = list(legal.cards)
    names = [card_name(ctx, card) for card in cards]

    def card_button(i: int, size: int, lines: int, height: float | None) -> ft.Control:
        card = cards[i]
        selected = card == chosen
        # One face and size for every card, the pick ringed thinly in dark grey: from across the
        # table the choices look alike (the hand panel keeps the character colours).
        if height is not None:
            box = secret_face(names[i], selected=selected, on_click=handler(choose(card)), size=size, lines=lines, height=height, face=CARD_FACE)
        else:
            box = ft.Container(
                on_click=handler(choose(card)),
                bgcolor=CARD_FACE,
                border=ft.Border.all(3, "#37474F" if selected else CARD_FACE),
                border_radius=10,
                padding=ft.Padding.symmetric(horizontal=12, vertical=12),
                content=ft.Text(names[i], size=size, weight=ft.FontWeight.BOLD, color="#111111"),
            )
        return ft.Semantics(
            identifier=f"{prefix}card-{card}",
            key=f"{prefix}card-{card}",
            button=True,
            selected=selected,
            content=choice_target(ctx, box, choose(card), then_open=True),
        )

    if ctx.seat is not None:
        # a secret card (a phone, or the tablet handed to its player): one size, fixed places
        card_choices: ft.Control = ft.Semantics(identifier=f"{prefix}card-choices", key=f"{prefix}card-choices", content=secret_choices(ctx.width, names, card_button, columns=3))
    else:
        # the board enters a face-up card, seen by all: the buttons as wide as their values
        card_choices = ft.Row([card_button(i, 20, 1, None) for i in range(len(cards))], wrap=True, spacing=8, run_spacing=8)
    items.append(card_choices)
    if chosen is not None:
        places = len(items)
        # the shared board names the player whose card it enters (never "your")
        where_to = tr.t("corruption.ui.board_pick_place", ctx.names, seat=seat, card=card_name(ctx, chosen)) if ctx.seat is None else tr.t("corruption.ui.pick_place", card=card_name(ctx, chosen))
        items.append(label(where_to, 20 if ctx.seat is None else 18, ACCENT, ft.FontWeight.BOLD))
        for body in view.bodies:
            row: list[ft.Control] = []
            if isinstance(chosen, int) and body.body in legal.swiss:
                row.append(
                    location_button(
                        ctx,
                        f"{prefix}loc-{body.body}",
                        tr.t("corruption.ui.swiss_button", body=tr.t(f"corruption.body.{body.body}")),
                        "",
                        {"type": "play_card", "by": seat, "card": chosen, "location": body.body, "face_up": False},
                        swiss=True,
                    )
                )
            for contract in body.contracts:
                if contract.id in legal.contracts:
                    row.append(
                        location_button(
                            ctx,
                            f"{prefix}loc-{contract.id}",
                            contract.name,
                            tr.money(contract.value),
                            {"type": "play_card", "by": seat, "card": chosen, "location": contract.id, "face_up": bool(face_up if face_up is not None else legal.face_up)},
                        )
                    )
            if row:
                # a body's places on a line of their own; on a phone with no title above them
                # (the Swiss account's button names the body), so they fit under the pad
                if ctx.seat is None or not (isinstance(chosen, int) and body.body in legal.swiss):
                    items.append(label(tr.t(f"corruption.body.{body.body}"), 16, MUTED, ft.FontWeight.BOLD))
                items.append(ft.Row(row, wrap=True, spacing=8, run_spacing=8))
        if ctx.seat is not None:
            # on a phone the card's places come first, under the pad, where the lift that chose
            # the card left the finger (the cards, to choose another, follow them)
            items = [*items[places:], *items[:places]]
    return ft.Column(items, spacing=8)


def location_button(ctx: GameContext, ident: str, title: str, subtitle: str, action: dict[str, Any], *, swiss: bool = False) -> ft.Control:
    async def place() -> None:
        await ctx.submit(action)

    return ft.Semantics(
        identifier=ident,
        key=ctx.act_key(ident, action["by"]),
        button=True,
        content=choice_target(ctx, ft.Container(
            on_click=handler(ctx.submit, action),
            bgcolor="#0E3326" if swiss else FELT_LIGHT,
            border=ft.Border.all(2, MUTED if swiss else ACCENT),
            border_radius=10,
            padding=ft.Padding.symmetric(horizontal=12, vertical=8),
            content=ft.Column(
                [label(title, 17, INK, ft.FontWeight.BOLD), *([label(subtitle, 14, ACCENT)] if subtitle else [])],
                spacing=0,
                tight=True,
            ),
        ), place),
    )


def award_choice(ctx: GameContext, view: View, seat: int, legal: Any, *, prefix: str = "") -> ft.Control:
    """The pending Swiss assignment, hit or report, with only the legal options."""
    tr = ctx.tr
    pending = view.pending
    assert pending is not None
    placements = placements_by_index(view)
    contracts = contracts_by_id(view)
    actor, where = placements[pending.placement]
    buttons: list[ft.Control] = []
    # on the shared board the prompts name the player ("Anna's hit man ..."), on a phone "your"
    board = "board_" if ctx.seat is None else ""
    if legal.swiss_contracts:
        assert isinstance(actor.card, int)
        prompt = tr.t(
            f"corruption.ui.{board}swiss_prompt",
            ctx.names,
            seat=seat,
            face_amount=actor.card,
            amount=swiss_value(actor.card),
            body=tr.t(f"corruption.body.{where}"),
        )
        for cid in legal.swiss_contracts:
            c = contracts[cid]
            buttons.append(option_button(ctx, f"{prefix}swiss-to-{cid}", tr.t("corruption.ui.option_contract", contract=c.name, amount=c.value), {"type": "assign_swiss", "by": seat, "contract": cid}))
    elif legal.hit_targets:
        prompt = tr.t(f"corruption.ui.{board}hit_prompt", ctx.names, seat=seat, contract=where.name)
        for index in legal.hit_targets:
            target, _ = placements[index]
            text = target_text(ctx, placements, index, legal.hit_targets)
            buttons.append(option_button(ctx, f"{prefix}hit-{index}", text, {"type": "hit", "by": seat, "target": index}, seat=target.seat))
    else:
        prompt = tr.t(f"corruption.ui.{board}report_prompt", ctx.names, seat=seat, contract=where.name)
        for index in legal.report_targets:
            target, _ = placements[index]
            text = target_text(ctx, placements, index, legal.report_targets)
            buttons.append(option_button(ctx, f"{prefix}report-{index}", text, {"type": "report", "by": seat, "bribe": index}, seat=target.seat))
        if legal.may_pass:
            buttons.append(option_button(ctx, f"{prefix}report-none", tr.t("corruption.ui.remove_nothing"), {"type": "report", "by": seat, "bribe": None}, plain=True))
    return ft.Column([label(prompt, 20, INK, ft.FontWeight.BOLD), ft.Column(buttons, spacing=8)], spacing=10)


def target_text(ctx: GameContext, placements: dict[int, tuple[Any, Any]], index: int, options: tuple[int, ...]) -> str:
    """A hit man's or a reporter's target as the table sees it: whose card, what, under which
    contract ("Cy's Reporter under the Subway"), never the card's number (no card shows one).
    A player's two reporters under one contract are told apart by the order they were played
    (placement indexes follow the play; a player has no other two equal cards)."""
    target, where = placements[index]
    twins = [i for i in options if placements[i][0].seat == target.seat and placements[i][0].card == target.card and placements[i][1] is where]
    code = "corruption.ui.option_card_under"
    if len(twins) > 1:
        code += "_earlier" if index == min(twins) else "_later"
    return ctx.tr.t(code, ctx.names, owner_seat=target.seat, card=card_name(ctx, target.card), contract=where.name)


def option_button(ctx: GameContext, ident: str, text: str, action: dict[str, Any], *, seat: int | None = None, plain: bool = False) -> ft.Control:
    bits: list[ft.Control] = []
    if seat is not None:
        colour = ctx.colours[seat]
        bits.append(ft.Container(width=14, height=36, bgcolor=COLOUR_HEX[colour], border_radius=3))
    bits.append(ft.Text(text, size=18, weight=ft.FontWeight.BOLD, color="#111111", expand=True))
    return ft.Semantics(
        identifier=ident,
        key=ctx.act_key(ident, action["by"]),
        button=True,
        content=ft.Container(
            on_click=handler(ctx.submit, action),
            bgcolor="#B0BEC5" if plain else ACCENT,
            border_radius=10,
            padding=ft.Padding.symmetric(horizontal=12, vertical=10),
            content=ft.Row(bits, spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        ),
    )


# --------------------------------------------------------------------------------------------
# the phone
# --------------------------------------------------------------------------------------------


def seat_body(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    me = view.me
    legal = view.my_legal
    assert me is not None and legal is not None
    seat = me.seat
    status = tr.t("ui.round", round=view.round, rounds=view.rounds) + " · " + tr.t(f"corruption.phase.{view.phase}")
    items: list[ft.Control] = []
    if not (view.phase == "corruption" and legal.cards):  # else said in the card's banner
        items.append(ctx.part("my-status", status, lambda: label(status, 16, MUTED)))
    if view.phase == "over":
        final = tr.t("corruption.ui.final", ctx.names, seats=list(view.winners), amount=max(view.score))
        items.append(ctx.part("my-final", final, lambda: label(final, 24, ACCENT, ft.FontWeight.BOLD)))
    elif view.phase in ("deal", "round_over"):
        items.append(ctx.part("my-wait-deal", None, lambda: label(tr.t("corruption.ui.wait_deal"), 18, INK)))
    elif view.phase == "stud":
        if legal.choose_face_up:
            items.append(stud_picker(ctx, view, seat))
        else:
            items.append(label(tr.t("corruption.ui.wait_stud", ctx.names, seat=view.order[0]), 18, INK))
    elif view.phase == "corruption":
        if legal.cards:
            n = view.cards_placed[seat] + 1
            face_up = bool(legal.face_up)
            items.append(
                ctx.part("my-face", (n, face_up, status), lambda: ft.Semantics(
                    identifier="face-up" if face_up else "face-down",
                    key="face-up" if face_up else "face-down",
                    content=ft.Container(
                        bgcolor=ACCENT if face_up else "#37474F",
                        border_radius=10,
                        padding=10,
                        content=ft.Column(
                            [
                                ft.Text(status, size=14, color="#111111" if face_up else MUTED),
                                ft.Text(
                                    tr.t("corruption.ui.your_card_face_up" if face_up else "corruption.ui.your_card_face_down", n=n),
                                    size=19,
                                    weight=ft.FontWeight.BOLD,
                                    color="#111111" if face_up else INK,
                                ),
                            ],
                            spacing=0,
                            tight=True,
                        ),
                    ),
                ))
            )
        elif view.turn is not None:
            waiting = tr.t("corruption.ui.wait_card", ctx.names, seat=view.turn, n=view.cards_placed[view.turn] + 1)
            items.append(ctx.part("my-wait-card", waiting, lambda: label(waiting, 18, INK)))
    elif view.phase == "awards" and view.pending is not None:
        if view.pending.seat == seat and (legal.swiss_contracts or legal.hit_targets or legal.report_targets or legal.may_pass):
            items.append(award_choice(ctx, view, seat, legal))
        else:
            pending = pending_text(ctx, view)
            items.append(ctx.part("my-pending", pending, lambda: label(pending, 18, INK)))
    if legal.peek or (view.little_black_book and view.phase == "corruption"):
        items.append(peek_panel(ctx, view, seat, legal))
    if view.phase != "over":
        # Secrets (the cards held, this seat's face-down cards, what a peek showed) are built
        # only after a tap on "Show my cards", and hidden again after the next action. Mounted,
        # hidden, between the rounds' card plays: a deal shows it, it does not send it.

        def secrets() -> ft.Control:
            if view.phase != "corruption":
                return ft.Column([])
            parts: list[ft.Control] = []
            if legal.cards:
                parts.append(placement_picker(ctx, view, seat, legal))
            parts.append(hand_panel(ctx, view))
            parts.extend(seen_lines(ctx, view))
            parts.append(my_table(ctx, view, seat))
            return ft.Column(parts, spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

        items.append(private_section(ctx, secrets, visible=view.phase == "corruption"))
    if view.award_log and view.phase in ("awards", "round_over", "over"):
        recent = tuple(view.award_log[-4:])
        items.append(ctx.part("my-recent", recent, lambda: panel(tr.t("corruption.ui.recent"), [label(tr.ruling(r, ctx.names), 15, INK) for r in recent])))
    if view.contracts_won[seat]:
        wins = tr.t("corruption.ui.your_wins", contracts=", ".join(c.name for c in view.contracts_won[seat]))
        items.append(ctx.part("my-wins", wins, lambda: label(wins, 16, WON)))
    # The table everyone sees, always in view: drawn from the board's projection, never view.me.
    items.append(public_table(ctx, public_view(ctx, view)))
    return ctx.group("seat-body", None, items, lambda items: ft.Column(items, spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH))


def seen_lines(ctx: GameContext, view: View) -> list[ft.Control]:
    """What this seat's Little Black Book showed (its own projection only)."""
    tr = ctx.tr
    me = view.me
    assert me is not None
    placements = placements_by_index(view)
    lines: list[ft.Control] = []
    for known in (k for k in me.known_cards if k.via == "peek"):
        _, where = placements[known.placement]
        text = tr.t("corruption.ui.seen", ctx.names, owner_seat=known.seat, n=known.placement + 1, contract=where.name, card=card_name(ctx, known.card))
        lines.append(ft.Semantics(identifier=f"seen-{known.placement}", key=f"seen-{known.placement}", content=label(text, 17, "#E1F5FE", ft.FontWeight.BOLD)))
    return lines


def panel(title: str, rows: list[ft.Control]) -> ft.Control:
    return ft.Container(bgcolor=PANEL, border_radius=10, padding=10, content=ft.Column([label(title, 16, MUTED), *rows], spacing=4))


def hand_panel(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    me = view.me
    assert me is not None
    counts: dict[Any, int] = {}
    for card in me.hand:
        counts[card] = counts.get(card, 0) + 1
    chips = []
    for card, count in counts.items():
        text = card_name(ctx, card) + (f" ×{count}" if count > 1 else "")
        bg = CHARACTER_FACE.get(card, CARD_FACE) if isinstance(card, str) else CARD_FACE
        chips.append(ft.Container(bgcolor=bg, border_radius=6, padding=ft.Padding.symmetric(horizontal=8, vertical=4), content=ft.Text(text, size=15, color="#111111", weight=ft.FontWeight.BOLD)))
    return ft.Semantics(identifier="my-hand", key="my-hand", content=panel(tr.t("corruption.ui.my_hand"), [ft.Row(chips, wrap=True, spacing=6, run_spacing=6)]))


def stud_picker(ctx: GameContext, view: View, seat: int) -> ft.Control:
    tr = ctx.tr
    key = ("corruption.stud", view.round)
    chosen: set[int] = set(ctx.ui.get(key, ()))

    def flip(n: int):
        async def flipped() -> None:
            current = set(ctx.ui.get(key, ()))
            current ^= {n}
            ctx.ui[key] = tuple(sorted(current))
            await ctx.rerender()

        return flipped

    toggles = []
    for n in range(1, CARDS_PER_ROUND + 1):
        on = n in chosen
        toggles.append(
            ft.Semantics(
                identifier=f"slot-{n}",
                key=f"slot-{n}",
                button=True,
                selected=on,
                content=ft.Container(
                    on_click=handler(flip(n)),
                    width=52,
                    height=64,
                    bgcolor=CARD_FACE if on else "#37474F",
                    border=ft.Border.all(3, ACCENT if on else MUTED),
                    border_radius=8,
                    alignment=ft.Alignment.CENTER,
                    content=ft.Text(str(n), size=24, weight=ft.FontWeight.BOLD, color="#111111" if on else INK),
                ),
            )
        )
    slots = sorted(chosen)
    confirm = tr.t("corruption.ui.stud_confirm") if slots else tr.t("corruption.ui.stud_none")
    return ft.Column(
        [
            label(tr.t("corruption.ui.stud_prompt"), 20, INK, ft.FontWeight.BOLD),
            ft.Row(toggles, wrap=True, spacing=6, run_spacing=6),
            big_button(confirm, handler(ctx.submit, {"type": "choose_face_up", "by": seat, "slots": slots}), ident="slots-confirm"),
        ],
        spacing=10,
    )


def peek_panel(ctx: GameContext, view: View, seat: int, legal: Any) -> ft.Control:
    tr = ctx.tr
    placements = placements_by_index(view)
    rows: list[ft.Control] = []
    if legal.peek:
        rows.append(label(tr.t("corruption.ui.peek_help"), 14, MUTED))
    for index in legal.peek:
        target, where = placements[index]
        rows.append(
            option_button(
                ctx,
                f"peek-{index}",
                tr.t("corruption.ui.peek_option", ctx.names, owner_seat=target.seat, n=index + 1, contract=where.name),
                {"type": "peek", "by": seat, "placement": index},
                seat=target.seat,
            )
        )
    return ft.Semantics(identifier="black-book", key="black-book", content=panel(tr.t("corruption.ui.peek_title", count=view.peeks_left[seat]), rows))


def my_table(ctx: GameContext, view: View, seat: int) -> ft.Control:
    """The table as this seat knows it: public cards, backs, and its own cards' faces."""
    me = view.me
    assert me is not None
    return table_panel(ctx, view, {k.placement: k.card for k in me.known_cards}, "my-table", "corruption.ui.table")


def public_table(ctx: GameContext, board: View) -> ft.Control:
    """The table as everyone sees it (drawn from the board's projection): always on the phone."""
    return table_panel(ctx, board, {}, "public-table", "corruption.ui.public_table")


def table_panel(ctx: GameContext, view: View, known: dict[int, Any], ident: str, title: str) -> ft.Control:
    """The table on a phone, a row per contract and per Swiss account, each a part drawn from its
    own cards (and the faces this seat knows of them)."""
    tr = ctx.tr
    rows: list[ft.Control] = [ctx.part(f"{ident}-title", title, lambda: label(tr.t(title), 16, MUTED))]
    for body in view.bodies:
        name = body.body
        rows.append(ctx.part(f"{ident}-{name}", None, lambda name=name: label(tr.t(f"corruption.body.{name}"), 17, ACCENT, ft.FontWeight.BOLD)))
        if body.swiss:
            faces = tuple(p.card if p.card is not None else known.get(p.index) for p in body.swiss)
            rows.append(swiss_row(ctx, f"{ident}-{name}-swiss", body, faces))
        for contract in body.contracts:
            faces = tuple(p.card if p.card is not None else known.get(p.index) for p in contract.placements)
            rows.append(contract_row(ctx, f"{ident}-contract-{contract.id}", contract, faces))
    return ctx.group(ident, None, rows, lambda rows: ft.Semantics(identifier=ident, key=ident, content=ft.Container(bgcolor=PANEL, border_radius=10, padding=10, content=ft.Column(rows, spacing=4))))


def card_tiles(ctx: GameContext, key: str, placements: Any, faces: tuple[Any, ...], size: int, sideways: bool = False) -> list[ft.Control]:
    """A row's cards, each a part: a card placed or revealed builds that card alone."""
    return [
        ctx.part(f"{key}-card-{i}", (p.seat, face, size, sideways), lambda i=i, p=p, face=face: role(f"c{i}", card_tile(ctx, p.seat, face, size=size, sideways=sideways)))
        for i, (p, face) in enumerate(zip(placements, faces, strict=True))
    ]


def swiss_row(ctx: GameContext, key: str, body: Any, faces: tuple[Any, ...]) -> ft.Control:
    title = ctx.part(f"{key}-title", None, lambda: role("t", label(ctx.tr.t("corruption.swiss_account"), 14, MUTED)))
    cards = card_tiles(ctx, key, body.swiss, faces, 28, sideways=True)
    return ctx.group(key, None, [title, *cards], lambda children: ft.Row(children, wrap=True, spacing=4, key=f"swiss-{body.body}"))


def contract_row(ctx: GameContext, key: str, contract: Any, faces: tuple[Any, ...]) -> ft.Control:
    """A contract's name, worth and outcome, then its cards, in one wrapping row (a group: a card
    placed is sent alone)."""
    tr = ctx.tr
    head = [
        ctx.part(f"{key}-name", contract.name, lambda: role("n", label(contract.name, 15, INK, ft.FontWeight.BOLD))),
        ctx.part(f"{key}-value", contract.value, lambda: role("v", label(tr.money(contract.value), 14, ACCENT))),
    ]
    if contract.deferred:
        head.append(ctx.part(f"{key}-deferred", None, lambda: role("d", label(tr.t("corruption.ui.deferred"), 13, MUTED))))
    if contract.award is not None:
        award = contract.award
        text = tr.t("corruption.ui.won_by", ctx.names, seat=award.winner) if award.outcome == "won" else tr.t(f"corruption.ui.outcome.{award.outcome}")
        colour = WON if award.outcome == "won" else DANGER
        head.append(ctx.part(f"{key}-award", (text, colour), lambda: tagged(f"my-award-{contract.id}", label(text, 13, colour, ft.FontWeight.BOLD))))
    cards = card_tiles(ctx, key, contract.placements, faces, 32)
    # short wire keys (unique among their siblings): a key is sent with every new control
    return ctx.group(key, None, [*head, *cards], lambda children: ft.Row(children, wrap=True, spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER, key=f"r{contract.id}"))



