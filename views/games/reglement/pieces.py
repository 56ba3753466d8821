"""Règlement de comptes' pieces drawn on both the board and the phones: small helpers on the view,
the table drawing (the long dinner table, its seats and gangsters), and the rulings of a turn
one step at a time (a view state in ctx.ui, never a game action)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypedDict

import flet as ft

from companion.engine import Ruling
from companion.games.reglement import KINDS, CardOptions, CardType, GangsterView, Kind, Phase, SeatView, Target, View
from companion.games.reglement_board import default_board
from views.common import (
    border_all,
    ACCENT,
    COLOUR_HEX,
    INK,
    MUTED,
    PANEL,
    act_button,
    glyph,
    handler,
    label,
    player_chip,
    role,
    text_on,
)
from views.context import GameContext
from views.i18n import Translator
from views.steps import shown_step as step_at
from views.steps import step_buttons

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


def seat_map(view: View) -> dict[str, SeatView]:
    return {s.id: s for s in view.seats}


def gangster_at(view: View, seat: SeatView) -> GangsterView | None:
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


def target_sentence(ctx: GameContext, view: View, t: Target) -> str:
    """One legal use of a card, in words ("Pan!: you can shoot Blue's Cogneur at K from ...")."""
    tr = ctx.tr
    names = ctx.names
    if t.card in ("knife", "pan"):
        assert t.kind is not None and t.from_kind is not None  # a victim, and the gangster striking
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
        assert t.kind is not None  # the pills go to a gangster
        return tr.t(code, names, owner=t.owner, kind=kind_name(ctx, t.kind), at=t.seat)
    if t.card == "alerte":
        return tr.t("reglement.help.alerte")
    assert t.from_kind is not None  # a Déplacement moves one of the player's gangsters
    return tr.t("reglement.help.move", names, from_kind=kind_name(ctx, t.from_kind), from_at=t.from_seat, at=t.seat)


def target_action(t: Target, by: int) -> dict[str, Any]:
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
# rulings of the turn, one step at a time (a view state, not a game action)
# --------------------------------------------------------------------------------------------


#: the page's position in the turn's rulings (views/steps.py): a new turn, or a new action's
#: rulings, open on the newest (an explosion at a turn's start, not the previous player's draw)
STEP_KEY = "reglement.step"


def step_about(view: View) -> tuple[Phase, int]:
    return (view.phase, view.turn_number)


def shown_step(ctx: GameContext, view: View) -> int:
    return step_at(ctx, STEP_KEY, step_about(view), len(view.turn_log))


def ruling_seats(view: View, ruling: Ruling) -> tuple[str | None, str | None]:
    """(the seat a ruling happens at, the seat it acts from), for the drawing's red rings."""
    at = ruling.params.get("at")
    source = ruling.params.get("from_at")
    return (at if isinstance(at, str) else None), (source if isinstance(source, str) else None)


def rulings_panel(ctx: GameContext, view: View, ident_prefix: str = "step") -> ft.Control:
    """The turn's rulings one step at a time: the steps before, the one shown, how many follow
    (on a phone), and the step buttons; each a part (a new ruling moves texts, not controls)."""
    tr = ctx.tr
    log = view.turn_log
    if not log:
        return ft.Container(key=f"{ident_prefix}s")
    index = shown_step(ctx, view)
    narrow = ctx.width < NARROW_BOARD
    title = (tr.t("reglement.ui.this_turn"), tr.t("ui.step", n=index + 1, total=len(log)), narrow)

    def header() -> ft.Control:
        # on a phone the step count goes under the title
        return ft.Row([label(title[0], 18, ACCENT, ft.FontWeight.BOLD), label(title[1], 16, MUTED)], spacing=12, wrap=narrow, key="head")

    controls: list[ft.Control] = [ctx.part(f"{ident_prefix}-head", title, header)]
    # a tablet's board shows two steps before the one shown, a phone three: the board's panel
    # sits under the table, and with three its step buttons fell under a 1280x800 screen's edge
    first = max(0, index - (3 if narrow else 2))
    earlier = tuple((first + i, tr.ruling(r, ctx.names)) for i, r in enumerate(log[first:index]))
    if earlier:
        # one part: a new step shifts every line (a part a line was three rebuilt per phone)
        controls.append(ctx.part(f"{ident_prefix}-earlier", earlier, partial(step_lines, earlier)))
    now_text = tr.ruling(log[index], ctx.names)
    controls.append(ctx.part(f"{ident_prefix}-now", now_text, partial(step_now, ident_prefix, now_text)))
    left = len(log) - 1 - index
    if left and narrow:  # (a board's "Step 2 of 7" and its lit Next say it in less height)
        more = tr.t("reglement.ui.more_steps", count=left)
        controls.append(ctx.part(f"{ident_prefix}-more", more, lambda: role("more", label(more, 15, ACCENT))))
    controls.append(step_buttons(ctx, STEP_KEY, index, len(log), ident_prefix=ident_prefix, last_text=tr.t("reglement.ui.show_last")))
    return ctx.group(
        f"{ident_prefix}s",
        None,
        controls,
        lambda controls: ft.Semantics(
            identifier=f"{ident_prefix}s",
            key=f"{ident_prefix}s",
            content=ft.Container(bgcolor=PANEL, border_radius=12, padding=12, content=ft.Column(controls, spacing=6)),
        ),
    )


def step_lines(steps: tuple[tuple[int, str], ...]) -> ft.Control:
    """The steps before the one shown, oldest first, each keyed by its number: a new step sends
    one line and drops the oldest, the lines between stay as they are."""
    return ft.Column([label(text, 14, MUTED, key=f"s{number}") for number, text in steps], spacing=6, key="earlier")


def step_now(ident_prefix: str, text: str) -> ft.Control:
    return ft.Semantics(
        identifier=f"{ident_prefix}-now",
        key=f"{ident_prefix}-now",
        live_region=True,
        content=ft.Container(
            bgcolor="#263238",
            border=ft.Border.all(2, ACCENT),
            border_radius=8,
            padding=10,
            content=label(text, 21, INK, ft.FontWeight.BOLD),
        ),
    )


@dataclass(frozen=True)
class TurnStart:
    """What the automatic steps at the start of a turn did for its player: the own cake (the seat
    it exploded at, how many it killed) and the income (None: not paid yet), with the cash
    register's seat that doubled it."""

    exploded_at: str | None
    killed: int
    income: int | None
    doubled_at: str | None


def turn_start(view: View) -> TurnStart | None:
    """The current turn's start, read from its rulings (None outside a turn of play)."""
    player = view.turn
    if view.phase not in ("play", "alerte", "wake") or player is None:
        return None
    start = max((i for i, r in enumerate(view.turn_log) if r.code == "reglement.turn_started"), default=0)
    this_turn = view.turn_log[start:]
    exploded_at: str | None = None
    killed = 0
    for r in this_turn:
        if r.code.startswith("reglement.income"):
            break  # step 1 is over once income is paid
        if r.code.startswith("reglement.cake_exploded") and r.params.get("owner_seat") == player:
            exploded_at = str(r.params.get("at"))
        elif exploded_at is not None and r.code == "reglement.killed":
            killed += 1
    for r in this_turn:
        if r.code in ("reglement.income", "reglement.income_doubled") and r.params.get("seat") == player:
            doubled_at = r.params.get("at") if r.code == "reglement.income_doubled" else None
            return TurnStart(exploded_at, killed, int(r.params["amount"]), str(doubled_at) if doubled_at is not None else None)
    return TurnStart(exploded_at, killed, None, None)


def income_text(tr: Translator, start: TurnStart) -> str:
    if start.income is None:
        return tr.t("reglement.ui.income_nothing")
    income = "+" + tr.money(start.income)
    if start.doubled_at is None:
        return income
    return tr.t("reglement.ui.income_doubled_at", income=income, at=start.doubled_at)


def turn_steps(ctx: GameContext, view: View) -> ft.Control:
    """The turn's four steps: the own cake, income, cards, wake-up."""
    tr = ctx.tr
    player = view.turn
    start = turn_start(view)
    if start is None or player is None:
        return ft.Container()
    cake = tr.t("reglement.ui.no_cake")
    if start.exploded_at is not None:
        cake = tr.t("reglement.ui.cake_blew", at=start.exploded_at) + " " + tr.t("reglement.ui.killed_count", count=start.killed)
    income = income_text(tr, start)
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
    return ctx.part("turn-steps", (cake, income, cards, wake, current), lambda: steps_strip(ctx, (cake, income, cards, wake), current))


def steps_strip(ctx: GameContext, details: tuple[str, str, str, str], current: int) -> ft.Control:
    """The turn's four steps side by side (two a line on a phone), the current one lit."""
    tr = ctx.tr
    narrow = ctx.width < NARROW_BOARD
    boxes: list[ft.Control] = []
    for n, (title, detail) in enumerate(zip((tr.t(f"reglement.ui.step{k}") for k in range(1, 5)), details, strict=True), start=1):
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


def wake_panel(ctx: GameContext, view: View, sel: Selection, player: int, *, hint: str | None = None, confirm: bool = True) -> ft.Control:
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
        assert g is not None  # a sleeper sits there
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


def wake_rings(view: View, sel: Selection) -> dict[str, str]:
    chosen = waking(view, sel)
    return {seat: HIGHLIGHT if seat in chosen else "#4FC3F7" for seat in view.wake_choices}


def waking(view: View, sel: Selection) -> list[str]:
    """The sleepers chosen to wake (a view state until confirmed); at first, all of them."""
    chosen = sel.get("wake")
    if chosen is None:
        return list(view.wake_choices)
    return [seat for seat in view.wake_choices if seat in chosen]


def blocked_params(view: View, code: str) -> dict[str, Any]:  # a message's params, as a Ruling's
    """Fill an error template for a card that cannot be played now (turn/phase/order codes)."""
    return {"expected": view.turn, "phase": view.phase}


def chosen_kind(view: View, sel: Selection, player: int) -> str | None:
    unseated = view.gangs[player].unseated
    kind = sel.get("kind")
    if kind in unseated:
        return str(kind)
    return next((k for k in KINDS if k in unseated), None)


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


def kind_buttons(ctx: GameContext, view: View, sel: Selection, player: int) -> ft.Control:
    current = chosen_kind(view, sel, player)
    colour = ctx.colours[player]

    def choose(kind: str) -> Callable[[], Awaitable[None]]:
        async def pick() -> None:
            # the selection of the drawing shown at the tap (the buttons are kept from drawing to drawing)
            ctx.ui.get(SELECTION_NOW, sel)["kind"] = kind
            await ctx.rerender()

        return pick

    buttons: list[ft.Control] = []
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


def options_for(view: View, card: str, mine: bool = False) -> CardOptions | None:
    options = view.my_options if mine else view.turn_options
    if not options:
        return None
    return next((o for o in options if o.card == card), None)


#: ctx.ui key of the selection of the last drawing (see `selection`)
SELECTION_NOW = "reglement.selection"

#: A page's choices in the making (see `selection`): the card picked on the board ("card") or
#: opened in the phone's rules helper ("help"), the seat a knife, a pan or a passed cake is for
#: ("target"), the seat a Déplacement starts from ("from"), the seats given the Pills, the
#: sleepers to wake, the kind of gangster to seat next, the chair described under the table
#: ("info"), why the chair last tapped for the Pills cannot take them (code, params).
#: (Spelt as a call: "from" is a keyword.)
Selection = TypedDict(
    "Selection",
    {"card": CardType, "help": CardType | None, "target": str, "from": str | None, "pills": list[str], "wake": list[str], "kind": Kind, "info": str | None, "pill_refusal": tuple[str, dict[str, str]] | None},
    total=False,
)


def selection(ctx: GameContext, view: View) -> Selection:
    """This page's choices in the making for the state `view` shows (a card picked, a kind of
    gangster, the sleepers to wake), forgotten when the state moves on; also kept as the
    drawing's own (SELECTION_NOW), for the handlers of parts kept from earlier drawings."""
    key = selection_key(view)
    if key not in ctx.ui:
        ctx.ui[key] = {}
    selected: Selection = ctx.ui[key]
    ctx.ui[SELECTION_NOW] = selected
    return selected


def turn_buttons(ctx: GameContext, view: View, player: int, *, started: bool | None = None) -> list[ft.Control]:
    """Set a card aside (before any card: hidden after) and end the turn (after a card or the
    set-aside); each a part, drawn from the action it sends. `started`: whether the turn has a
    card or a set-aside (by default, from `view`)."""
    tr = ctx.tr
    if started is None:
        started = bool(view.cards_played or view.discarded)
    buttons: list[ft.Control] = []
    discard = {"type": "discard", "by": player}

    def discard_button() -> ft.Control:
        button = act_button(ctx, player, tr.t("reglement.ui.set_aside"), handler(ctx.submit, discard), ident="discard")
        button.visible = not started  # mounted for the turn: the first card hides it
        return button

    buttons.append(ctx.part("discard", (player, started), discard_button))
    end_turn: dict[str, Any] = {"type": "end_turn", "by": player}
    if view.wake_up == "optional" and view.wake_choices:
        # the older form of the wake-up choice: it rides on end_turn (see wake_panel)
        end_turn["wake"] = waking(view, selection(ctx, view))
    about = (tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in end_turn.items())), started)
    buttons.append(ctx.part("end-turn", about, lambda: role("end-turn", act_button(ctx, player, tr.t("reglement.ui.end_turn"), handler(ctx.submit, end_turn), ident="end-turn", disabled=not started, reason=tr.t("reglement.err.nothing_played")))))
    return buttons


#: Board widths (ctx.width) below which the board rearranges itself: a phone (360-414 px leave
#: 336-390) takes the turn's steps two a line; below WIDE_PROMPT the end-of-turn buttons go under
#: the player's name (beside it they need about 600 px in French or Russian).
NARROW_BOARD = 500.0


def selection_key(view: View) -> tuple[str, Phase, int, int, bool, int | None]:
    return ("reglement.sel", view.phase, view.turn_number, len(view.cards_played), view.discarded, view.placer)


def count_kinds(kinds: tuple[str, ...]) -> list[tuple[str, int]]:
    return [(k, kinds.count(k)) for k in KINDS if k in kinds]


async def toggle_wake(ctx: GameContext, view: View, sel: Selection, seat_id: str) -> None:
    chosen = waking(view, sel)
    sel["wake"] = [s for s in chosen if s != seat_id] if seat_id in chosen else [*chosen, seat_id]
    await ctx.rerender()


def pills_confirm(ctx: GameContext, seat: int, chosen: list[str]) -> ft.Control:
    """"Give the pills to ...": the seats chosen for the Pills card, sent at once (board and phone)."""
    tr = ctx.tr
    return act_button(
        ctx,
        seat,
        tr.t("reglement.ui.confirm_pills", ats=", ".join(chosen) or "—"),
        handler(ctx.submit, {"type": "pills", "by": seat, "targets": list(chosen)}),
        ident="pills-confirm",
        disabled=not chosen,
        reason=tr.t("reglement.ui.pills_pick_first"),
    )


def gangster_token(ctx: GameContext, view: View, g: GangsterView, size: float) -> ft.Control:
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
        border=border_all(4, "#B3E5FC") if g.asleep else border_all(2, "#000000"),
        alignment=ft.Alignment.CENTER,
        badge=ft.Badge(label="Zz", bgcolor="#B3E5FC", text_color="#0D47A1") if g.asleep else None,
        content=ft.Text(
            glyph(colour),
            size=int(size * 0.26),
            color=ink,
            spans=[ft.TextSpan(letter, style=ft.TextStyle(size=int(size * 0.5), weight=ft.FontWeight.BOLD))],
        ),
    )


def board_title(tr: Translator, name: str) -> str:
    """A table's name as this language says it: the shipped default's own (its name in the
    file, and so in every log that plays on it, is English), a saved table's as its host typed it."""
    shipped = default_board()
    if name == shipped.name:
        return tr.t("reglement.board.default_name", seats=len(shipped.seats))
    return name
