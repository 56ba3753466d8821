"""Corruption's pieces drawn on both the board and the phones: the contract catalogue (read once,
written off the loop), cards, and the award steps (a view state in ctx.ui, never a game action)."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from pathlib import Path

import flet as ft

from companion.games.corruption import (
    CATALOGUE_PATH,
    Body,
    Card,
    Catalogue,
    ContractView,
    PlacementView,
    View,
    load_catalogue,
    remember_contract,
    swiss_value,
)
from views.common import (
    ACCENT,
    COLOUR_HEX,
    INK,
    MUTED,
    PANEL,
    glyph,
    label,
    text_on,
)
from views.context import GameContext
from views.text_metrics import text_width
from views.i18n import Translator
from views.steps import shown_step, step_buttons

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


def contracts_by_id(view: View) -> dict[int, ContractView]:
    return {c.id: c for b in view.bodies for c in b.contracts}


def placements_by_index(view: View) -> dict[int, tuple[PlacementView, ContractView | Body]]:
    """index -> (placement view, contract view or body name)."""
    out: dict[int, tuple[PlacementView, ContractView | Body]] = {}
    for body in view.bodies:
        for p in body.swiss:
            out[p.index] = (p, body.body)
        for c in body.contracts:
            for p in c.placements:
                out[p.index] = (p, c)
    return out


def card_name(ctx: GameContext, card: Card) -> str:
    if isinstance(card, int):
        return ctx.tr.money(card)
    return ctx.tr.t(f"corruption.card.{card}")


def held_card_name(ctx: GameContext, card: Card, count: int) -> str:
    """A card of a hand, with how many are held when more than one ("Reporter ×2")."""
    return card_name(ctx, card) + (f" ×{count}" if count > 1 else "")


def card_short(ctx: GameContext, card: Card) -> str:
    if isinstance(card, int):
        return ctx.tr.t("corruption.ui.card_short.bribe", k=card // 1000)
    return ctx.tr.t(f"corruption.ui.card_short.{card}")


#: a killed or removed card's mark and strike
STRUCK = "#C62828"


def card_tile(ctx: GameContext, seat: int, card: Card | None, *, size: int = 44, sideways: bool = False, crossed: bool = False, ring: str | None = None, ident: str | None = None) -> ft.Control:
    """A card on the table: its face (known card) or its back in the owner's colour (card None)."""
    colour = ctx.colours[seat]
    # whole pixels (a float is 9 bytes on the wire); a back and a face are laid out alike, so a
    # reveal changes their texts and colours, not their controls
    width, height = (round(size * 1.3), size) if sideways else (size, round(size * 1.3))
    if card is None:
        bits: list[ft.Control] = [
            ft.Text(glyph(colour), size=round(size * 0.45), color=text_on(colour), weight=ft.FontWeight.BOLD),
            ft.Text("", size=round(size * 0.26), visible=False),
        ]
        bg = COLOUR_HEX[colour]
        border = ft.Border.all(3 if ring else 2, ring or "#FFFFFF")
    else:
        bg = CHARACTER_FACE.get(card, CARD_FACE) if isinstance(card, str) else CARD_FACE
        # a killed or removed card keeps its value readable: struck through, never covered
        struck = ft.TextStyle(decoration=ft.TextDecoration.LINE_THROUGH, decoration_color=STRUCK, decoration_thickness=3) if crossed else None
        short = card_short(ctx, card)
        # on one line, at a size its width holds within the border ("TUE" broke into "TU" / "E"
        # on a phone's small cards; Flutter draws a line a pixel or two narrower than measured)
        inner = width - 2 * (3 if ring else 4) + 2
        face_size = min(round(size * 0.36), int(inner * 100 / text_width(short, 100, bold=True)))
        bits = [
            ft.Text(short, size=face_size, weight=ft.FontWeight.BOLD, color="#111111", style=struck, no_wrap=True),
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
                    step_buttons(ctx, STEP_KEY, index, total),
                ],
                spacing=10,
                vertical_alignment=ft.CrossAxisAlignment.CENTER,
            ),
        ),
    )


def round_summary(tr: Translator, names: list[str], view: View) -> list[str]:
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
    assert not isinstance(where, str)  # (a Swiss account is a body name) a hit man or a reporter lies under a contract
    return tr.t(f"corruption.ui.pending.{pending.kind}", ctx.names, seat=pending.seat, contract=where.name)
