"""Vabanque's pieces drawn on both the board and the phones: the header line, the payout steps (a
view state in ctx.ui), cards, pawns and the move buttons."""

from __future__ import annotations

import math
import flet as ft

from companion.engine import Ruling
from companion.games.vabanque import GAME, TablePayout, View
from views.common import (
    ACCENT,
    COLOUR_HEX,
    INK,
    MUTED,
    PANEL,
    act_button,
    glyph,
    handler,
    label,
    text_on,
)
from views.context import GameContext
from views.i18n import Translator
from views.steps import shown_step, step_buttons

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


def payout_steps(view: View) -> list[tuple[int | None, list[Ruling]]]:
    """[(table or None, rulings)] : one step per revealed table, then the new order / result."""
    steps: list[tuple[int | None, list[Ruling]]] = [(p.table, GAME.explain_table(p, view.raise_rule)) for p in view.payouts]
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

    lines: list[ft.Control] = [label(tr.ruling(r, ctx.names), 18, INK) for r in rulings]
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


def round_summary(tr: Translator, names: list[str], players: int, payouts: tuple[TablePayout, ...], round_number: int) -> list[str]:
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
        gain = f"+{tr.money(gained)}"
        lines.append(tr.t("vabanque.summary.line", names, seat=seat, amount=gain, reasons=tr.list(reasons) if reasons else tr.t("vabanque.summary.no_pawn")))
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

def table_total(tr: Translator, total: int) -> str:
    """A table's chips in words ("chips: 15"), never a bare Σ, which players do not read."""
    return tr.t("vabanque.table_total", total=total)
