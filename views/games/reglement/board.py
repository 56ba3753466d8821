"""Règlement de comptes' board: the table drawing with the legal targets of the current play
(`turn_options`, computed from the public table alone), the host's entries for the current
player (pick the card, tap the seat), the seating, the turn's steps and the standings."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import flet as ft

from companion.games.reglement import CARDS, KINDS, View
from views.common import (
    ACCENT,
    COLOUR_HEX,
    DANGER,
    INK,
    MUTED,
    PANEL,
    act_button,
    big_button,
    glyph,
    handler,
    label,
    role,
    tagged,
    text_on,
)
from views.context import GameContext
from views.games.reglement.pieces import (
    BLAST,
    CARD_COLOUR,
    CHOSEN,
    HIGHLIGHT,
    SELECTION_NOW,
    Selection,
    blocked_params,
    board_title,
    chosen_kind,
    count_kinds,
    current_player,
    final_standings,
    kind_buttons,
    kind_name,
    options_for,
    pills_confirm,
    ruling_seats,
    rulings_panel,
    seat_map,
    selection,
    shown_step,
    target_action,
    turn_buttons,
    turn_steps,
    wake_panel,
    wake_rings,
)
from views.games.reglement.setup import preset_ready, save_preset_panel
from views.games.reglement.table import (
    PHONE_TILE,
    ChairTap,
    info_tap,
    legend,
    seat_description,
    table_drawing,
    wake_tap,
)
from views.text_metrics import text_width

# --------------------------------------------------------------------------------------------
# the board
# --------------------------------------------------------------------------------------------


#: in seating, the board's width under the table: the gangsters' buttons, the step-by-step panel
SEATING_SHARES = (25, 23)
WIDE_PROMPT = 800.0


def board_body(ctx: GameContext, view: View, reveal: ft.Control | None) -> ft.Control:
    """`reveal`: the reveal panel when one is due, above the board (keyed: it comes and goes and
    the board keeps its place)."""
    tr = ctx.tr
    sel = selection(ctx, view)
    player = current_player(view)
    host = ctx.acts_for_current and player is not None
    acting = player if player is not None else -1  # read only when `host`
    rings: dict[str, str] = {}
    tap: ChairTap
    if view.turn_log:
        at, source = ruling_seats(view, view.turn_log[shown_step(ctx, view)])
        if source:
            rings[source] = "#FF9800"
        if at:
            rings[at] = BLAST
    if host and view.phase in ("seating", "alerte"):
        tap = seating_tap(ctx, view, sel, acting)
        for seat in view.seats:
            if seat.gangster is None:
                rings.setdefault(seat.id, "#4FC3F7")
    elif host and view.phase == "play":
        tap = play_tap(ctx, view, sel, acting)
        for seat_id, colour in play_rings(view, sel).items():
            rings[seat_id] = colour
    elif host and view.phase == "wake":
        tap = wake_tap(ctx, view, sel)
        rings.update(wake_rings(view, sel))
    else:
        tap = info_tap(ctx, view)
    bank = f"{tr.t('reglement.label.bank')} {tr.money(view.bank)}"
    piles = f"{tr.t('reglement.label.draw_pile')} {view.draw_pile} · {tr.t('reglement.label.set_aside')} {view.set_aside}"
    centre = [
        ctx.part("bank", bank, lambda: ft.Semantics(identifier="bank", key="bank", content=label(bank, 26, ACCENT, ft.FontWeight.BOLD))),
        ctx.part("piles", piles, lambda: role("piles", label(piles, 15, INK))),
    ]
    width = max(300.0, ctx.width - 8)
    # every item keyed: items come and go (the seat's info, an entry, the reveal) and the parts
    # in the others keep their places
    items: list[ft.Control] = [prompt_row(ctx, view), role("table", table_drawing(ctx, view, width, rings, tap, centre, min_tile=PHONE_TILE))]
    info = sel.get("info")
    if info:
        text = seat_description(ctx, view, seat_map(view)[info])
        items.append(ctx.part("seat-info", text, lambda: role("seat-info", label(text, 17, INK))))
    if view.phase in ("play", "alerte", "wake"):
        items.append(turn_steps(ctx, view))
    entry: ft.Control | None = None
    if host and view.phase in ("seating", "alerte"):
        entry = seating_controls(ctx, view, sel, acting)
    elif host and view.phase == "play":
        entry = card_controls(ctx, view, sel, acting)
    elif host and view.phase == "wake":
        entry = wake_panel(ctx, view, sel, acting, hint=tr.t("reglement.ui.board_hint_wake", ctx.names, seat=acting))
    panel = rulings_panel(ctx, view)
    if width >= 700:
        # seating's controls are short: the step-by-step panel gets nearly half the width, so
        # its Previous / Next / Latest keep to one line in French and Russian (at 4/9 they wrapped
        # and were cut); the gangsters' buttons keep two a line (Russian "Л · Стальное Лезвие ×2"
        # and "Г · Громила ×3" take 457 px of a tablet's 464). One row with or without an entry:
        # the panel keeps its place (and its parts) when the entry comes and goes.
        shares = SEATING_SHARES if view.phase in ("seating", "alerte") else (5, 4)
        # a group: the panel's own changes are sent with the page's, not in frames of their own
        items.append(ctx.group("entry-and-panel", (shares, entry is not None), [entry or ft.Container(), panel], partial(entry_and_panel, shares, entry is not None)))
    else:
        if entry is not None:
            items.append(role("entry", entry))
        items.append(role("panel", panel))
    if ctx.acts_for_current and preset_ready(view):
        items.append(role("save-preset", save_preset_panel(ctx, view)))
    items.append(ctx.part("legend", None, lambda: legend(ctx)))
    if view.board_reconstructed and not view.board_verified:
        note = tr.t("reglement.label.board_reconstructed") + f" ({board_title(tr, view.board_name)})"
        items.append(ctx.part("reconstructed", note, lambda: role("reconstructed", label(note, 13, MUTED))))
    if reveal is not None:
        items.insert(0, role("reveal", reveal))
    return ctx.group("board-body", None, items, lambda items: ft.Column(items, spacing=10))


def entry_and_panel(shares: tuple[int, int], has_entry: bool, children: list[ft.Control]) -> ft.Control:
    """The host's entry beside the step-by-step panel (the panel alone when there is no entry)."""
    entry, panel = children
    return ft.Row(
        [ft.Container(entry, expand=shares[0], key="entry", visible=has_entry), ft.Container(panel, expand=shares[1], key="panel")],
        vertical_alignment=ft.CrossAxisAlignment.START,
        spacing=12,
        key="entry-and-panel",
    )


def prompt_row(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    if view.phase == "over":
        reason = tr.t(f"reglement.end.{view.ended_by}") if view.ended_by else ""
        return ft.Semantics(
            identifier="prompt",
            key="prompt",
            content=ft.Column(
                [
                    label(tr.t("ui.winner", ctx.names, seats=list(view.winners)), 32, ACCENT, ft.FontWeight.BOLD),
                    label(tr.t("reglement.ui.over", reason=reason), 20, INK),
                    final_standings(ctx, view, 20),
                ],
                spacing=6,
            ),
        )
    player = current_player(view)
    code = {
        "seating": "reglement.ui.prompt_seating",
        "alerte": "reglement.ui.prompt_alerte",
        "wake": "reglement.ui.prompt_wake",
    }.get(view.phase, "reglement.ui.prompt_play")
    bits: list[ft.Control] = []
    if player is not None:
        said = tr.t(code, ctx.names, seat=player)
        gang = view.gangs[player]
        left = ""
        if view.phase in ("seating", "alerte") and gang.unseated:
            left = tr.t("reglement.ui.to_seat", kinds=", ".join(f"{n}×\u00a0{kind_name(ctx, k)}" for k, n in count_kinds(gang.unseated)))
        bits.append(ctx.part("prompt-player", (player, said), lambda: prompt_player(ctx, player, said)))
        if left:
            bits.append(ctx.part("prompt-left", left, lambda: role("left", label(left, 17, MUTED))))
    row: ft.Control = ft.Row(bits, wrap=True, spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER)
    if ctx.acts_for_current and view.phase == "play" and player is not None and not prompt_fits_beside(ctx, player, said):
        # the buttons would squeeze the name into a column of letters: they go under it
        row = ft.Column([row, ft.Row(turn_buttons(ctx, view, player), wrap=True, spacing=8, run_spacing=8)], spacing=8)
    elif ctx.acts_for_current and view.phase == "play" and player is not None:
        # (no `expand` inside a wrapping Row: Flutter refuses to lay that out)
        row = ft.Row(
            [ft.Container(row, expand=True), *turn_buttons(ctx, view, player)],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
    return ft.Semantics(identifier="prompt", key="prompt", content=row)


def prompt_fits_beside(ctx: GameContext, player: int, said: str) -> bool:
    """Whether the turn's buttons fit beside the player's name on this board, measured in the
    app's font (French and Russian need about 1,000 px where English needs 850): the name is
    never squeezed into a column of letters ("Yvet / te / joue"). Both buttons are counted, and
    the reason under "End turn", even once they are gone: the table does not move mid-turn."""
    if ctx.width < WIDE_PROMPT:
        return False
    tr, name = ctx.tr, ctx.names[player]

    def button(text: str) -> float:  # act_button's words: the player's glyph and name first
        return text_width(f"◆ {name} · {text}", 18, bold=True) + 12

    end_turn = max(button(tr.t("reglement.ui.end_turn")), text_width(tr.t("reglement.err.nothing_played"), 14))
    # the colour chip, the sentence, the gaps between
    return 48 + text_width(said, 26, bold=True) + 20 + end_turn + button(tr.t("reglement.ui.set_aside")) + 8 <= ctx.width


def prompt_player(ctx: GameContext, player: int, said: str) -> ft.Control:
    """Whose turn, in their colour and shape, and what they do: the sentence names the player,
    beside it their colour and shape only ("◆ Yvette Yvette seats a gangster" said the name
    twice)."""
    colour = ctx.colours[player]
    return ft.Row(
        [
            ft.Container(
                content=ft.Text(glyph(colour), size=26, color=text_on(colour), weight=ft.FontWeight.BOLD),
                bgcolor=COLOUR_HEX[colour],
                border_radius=8,
                padding=ft.Padding.symmetric(horizontal=8, vertical=2),
            ),
            label(said, 26, INK, ft.FontWeight.BOLD),
        ],
        spacing=12,
        tight=True,
        wrap=True,
        vertical_alignment=ft.CrossAxisAlignment.CENTER,
        key="player",
    )


# -- seating (free seating and Alerte! re-seating) --


def seating_tap(ctx: GameContext, view: View, sel: Selection, player: int) -> ChairTap:
    async def tap(seat_id: str, by: int | None) -> None:
        by = player if by is None else by
        # a tap on the previous placer's layer (a handover window) is sent as theirs: refused
        kind = chosen_kind(view, sel, by) if by == player else next(iter(view.gangs[by].unseated), KINDS[0])
        if kind is None:
            return
        await ctx.submit({"type": "place", "by": by, "kind": kind, "seat": seat_id})

    return ChairTap(tap, acts_for=player)


def seating_controls(ctx: GameContext, view: View, sel: Selection, player: int) -> ft.Control:
    tr = ctx.tr
    hint = tr.t("reglement.ui.board_hint_seating", ctx.names, seat=player)
    unseated = count_kinds(view.gangs[player].unseated)
    rows: list[ft.Control] = [
        ctx.part("seat-hint", hint, lambda: role("hint", label(hint, 18, ACCENT, ft.FontWeight.BOLD))),
        ctx.part("seat-kinds", (unseated, chosen_kind(view, sel, player), player), lambda: role("kinds", kind_buttons(ctx, view, sel, player))),
    ]
    if view.phase == "seating":
        rows.append(random_seating(ctx, view, player))
    return ft.Column(rows, spacing=8)


def random_seating(ctx: GameContext, view: View, player: int) -> ft.Control:
    """Free seating in one tap instead of one per gangster: the app seats everyone still waiting
    at random (the `seat_random` action, logged like any other; the host's undo takes it back).
    Keyed by the player placing now, so a tap meant for the previous placer's seat never lands
    here."""
    tr = ctx.tr
    waiting = sum(len(g.unseated) for g in view.gangs)

    async def seat_all() -> None:
        # the host board seats everyone for the table (by: null); a phone does it as its own seat
        await ctx.submit({"type": "seat_random", "by": None if ctx.seat is None else player})

    return ft.Column(
        [
            # an action, in the action colour (grey is for Undo and paging back)
            big_button(tr.t("reglement.ui.seat_random"), handler(seat_all), ident="seat-random", colour=ACCENT, key=ctx.act_key("seat-random", player)),
            label(tr.t("reglement.ui.seat_random_hint", count=waiting), 14, MUTED),
        ],
        spacing=2,
        tight=True,
    )


# -- a turn's cards, entered on the host board --


def play_rings(view: View, sel: Selection) -> dict[str, str]:
    card = sel.get("card")
    if card is None:
        return {}
    option = options_for(view, card)
    rings: dict[str, str] = {}
    if option is None:
        return rings
    if card == "move":
        source = sel.get("from")
        if source is None:
            for t in option.targets:
                assert t.from_seat is not None  # a Déplacement's target names the gangster moving
                rings[t.from_seat] = HIGHLIGHT
        else:
            rings[source] = CHOSEN
            for t in option.targets:
                if t.from_seat == source:
                    assert t.seat is not None  # and the empty seat he moves to
                    rings[t.seat] = HIGHLIGHT
        return rings
    for t in option.targets:
        if t.seat:
            rings[t.seat] = HIGHLIGHT
    for seat in sel.get("pills", []):
        rings[seat] = CHOSEN
    if sel.get("target"):
        rings[sel["target"]] = CHOSEN
    return rings


def pill_refusal(view: View, player: int, seat_id: str) -> tuple[str, dict[str, str]]:
    """Why a chair cannot take the pills (the engine's own refusal, said before it is asked):
    nobody there, one of the player's own gangsters, or no glass at that seat."""
    seat = next(s for s in view.seats if s.id == seat_id)
    gangster = view.gangsters[seat.gangster] if seat.gangster is not None else None
    if gangster is None or not gangster.alive:
        return "reglement.err.empty_seat", {"at": seat_id}
    if gangster.owner == player:
        return "reglement.err.own_gangster", {"at": seat_id}
    return "reglement.err.no_glass", {"at": seat_id}


def play_tap(ctx: GameContext, view: View, sel: Selection, player: int) -> ChairTap:
    async def tap(seat_id: str, by: int | None) -> None:
        card = sel.get("card") if by in (None, player) else None  # the previous player's layer: says what the chair is
        if card is None:
            sel["info"] = None if sel.get("info") == seat_id else seat_id
            await ctx.rerender()
            return
        option = options_for(view, card)
        targets = option.targets if option else ()
        if card in ("knife", "pan"):
            # (a knife's or a pan's target always names the gangster striking: from_seat is set)
            sources = sorted({t.from_seat for t in targets if t.seat == seat_id and t.from_seat is not None})
            if len(sources) > 1:
                sel["target"] = seat_id
                await ctx.rerender()
                return
            # one source, or none: the engine says why it is refused
            await ctx.submit({"type": card, "by": player, "target": seat_id, "from_seat": sources[0] if sources else None})
        elif card == "order_cake":
            await ctx.submit({"type": "order_cake", "by": player, "seat": seat_id})
        elif card == "boum":
            await ctx.submit({"type": "boum", "by": player, "cake_seat": seat_id})
        elif card == "pass_cake":
            ways = [t for t in targets if t.seat == seat_id]
            if not ways:
                await ctx.submit({"type": "pass_cake", "by": player, "cake_seat": seat_id, "direction": "clockwise"})
                return
            sel["target"] = seat_id
            await ctx.rerender()
        elif card == "pills":
            chosen = list(sel.get("pills", []))
            sel["pill_refusal"] = None
            if seat_id in chosen:
                chosen.remove(seat_id)
            elif seat_id not in {t.seat for t in targets}:
                # said at the tap, as the engine will say it, and not chosen
                sel["pill_refusal"] = pill_refusal(view, player, seat_id)
            elif len(chosen) < 3:
                chosen.append(seat_id)
            sel["pills"] = chosen
            await ctx.rerender()
        elif card == "move":
            source = sel.get("from")
            if source is None or source == seat_id:
                sel["from"] = None if source == seat_id else seat_id
                await ctx.rerender()
                return
            await ctx.submit({"type": "move", "by": player, "from_seat": source, "to_seat": seat_id})

    return ChairTap(tap, acts_for=player)


def card_chip(ctx: GameContext, card: str, selected: bool, on_click: Callable[[Any], Awaitable[None]] | None, ident: str, note: str = "", dim: bool = False, size: int = 17, secret: bool = False) -> ft.Control:
    """`secret`: a choice among the phone's own cards, all one colour and size with the pick ringed
    thinly (from across the table the choices look alike)."""
    text = ctx.tr.t(f"reglement.card.{card}") + (f" {note}" if note else "")
    if secret:
        face, ring = "#ECEFF1", "#37474F" if selected else "#ECEFF1"
    else:
        face, ring = (CARD_COLOUR[card] if not dim else "#607D8B"), (CHOSEN if selected else "#00000000")
    return ft.Semantics(
        identifier=ident,
        key=ident,
        button=True,
        selected=selected,
        content=ft.Container(
            on_click=on_click,
            bgcolor=face,
            border=ft.Border.all(3 if secret else 4, ring),
            border_radius=10,
            padding=ft.Padding.symmetric(horizontal=10 if size < 17 else 12, vertical=10 if size < 17 else 12),
            content=ft.Text(text, size=size, weight=ft.FontWeight.BOLD, color="#111111"),
        ),
    )


async def pick_card(ctx: GameContext, card: str) -> None:
    """A card chip tapped on the board: picked, or put back (the selection of the drawing shown:
    the chips are kept from drawing to drawing)."""
    sel = ctx.ui[SELECTION_NOW]
    again = sel.get("card") == card
    sel.clear()
    if not again:
        sel["card"] = card
    await ctx.rerender()


def card_controls(ctx: GameContext, view: View, sel: Selection, player: int) -> ft.Control:
    """The host's entry of the current player's face-up cards: the chosen card's prompt (or the
    hint) first, so it stays in view, then the cards."""
    tr = ctx.tr
    card = sel.get("card")

    chips: list[ft.Control] = []
    for c in CARDS:
        option = options_for(view, c)
        playable = option is not None and option.playable_now
        chips.append(ctx.part(f"card-{c}", (card == c, playable), partial(card_chip, ctx, c, card == c, handler(pick_card, ctx, c), f"card-{c}", dim=not playable, size=15)))
    # why the greyed cards are greyed ("only one action card per turn: the second must be a
    # Déplacement"), each reason once
    reasons: list[str] = []
    for c in CARDS:
        option = options_for(view, c)
        if option is not None and not option.playable_now and option.blocked and option.blocked not in reasons:
            reasons.append(option.blocked)
    controls: list[ft.Control] = []
    if card is not None:
        controls.append(card_prompt(ctx, view, sel, player, card))
    else:
        controls.append(label(tr.t("reglement.ui.board_hint_play", ctx.names, seat=player), 17, ACCENT, ft.FontWeight.BOLD))
    controls.append(ft.Row(chips, wrap=True, spacing=6, run_spacing=6))
    for code in reasons:
        controls.append(ft.Semantics(identifier="cards-greyed", key=f"cards-greyed-{code}", content=label(tr.t("reglement.ui.greyed", reason=tr.t(code, ctx.names, **blocked_params(view, code))), 15, MUTED)))
    if view.wake_up == "optional" and view.wake_choices and (view.cards_played or view.discarded):
        controls.append(wake_panel(ctx, view, sel, player, confirm=False))
    return ft.Semantics(identifier="card-entry", key="card-entry", content=ft.Column(controls, spacing=8))


def card_prompt(ctx: GameContext, view: View, sel: Selection, player: int, card: str) -> ft.Control:
    tr = ctx.tr
    option = options_for(view, card)
    targets = option.targets if option else ()
    lines: list[ft.Control] = []
    step = "move_to" if card == "move" and sel.get("from") else ("move_from" if card == "move" else card)
    title = f"{tr.t(f'reglement.card.{card}')}: {tr.t(f'reglement.ui.tap.{step}')}"
    lines.append(label(title, 19, ACCENT, ft.FontWeight.BOLD))
    if option is not None and not option.playable_now and option.blocked:
        lines.append(label(tr.t("reglement.ui.blocked", reason=tr.t(option.blocked, ctx.names, **blocked_params(view, option.blocked))), 16, DANGER))
    elif not targets:
        lines.append(label(tr.t("reglement.ui.no_target", card=tr.t(f"reglement.card.{card}")), 15, MUTED))
    elif any(t.seat for t in targets):
        lines.append(label(tr.t("reglement.ui.highlighted"), 14, MUTED))
    extra: list[ft.Control] = []
    target = sel.get("target")
    if card in ("knife", "pan") and target:
        for t in targets:
            if t.seat == target:
                assert t.from_kind is not None  # the gangster striking
                text = tr.t("reglement.ui.from_source", at=t.from_seat, kind=kind_name(ctx, t.from_kind))
                extra.append(act_button(ctx, player, text, handler(ctx.submit, target_action(t, player)), ident=f"from-{t.from_seat}"))
    if card == "pass_cake" and target:
        for t in targets:
            if t.seat == target:
                text = tr.t("reglement.ui.direction", direction=tr.t(f"reglement.direction.{t.direction}"), at=t.to_seat)
                extra.append(act_button(ctx, player, text, handler(ctx.submit, target_action(t, player)), ident=f"dir-{t.direction}"))
    if card == "pills":
        refusal = sel.get("pill_refusal")
        if refusal is not None:
            lines.append(tagged("pill-refusal", label(tr.t(refusal[0], ctx.names, **refusal[1]), 16, DANGER)))
        extra.append(pills_confirm(ctx, player, sel.get("pills", [])))
    if card == "alerte":
        extra.append(act_button(ctx, player, tr.t("reglement.ui.confirm_alerte"), handler(ctx.submit, {"type": "alerte", "by": player}), ident="alerte-confirm"))
    if extra:
        lines.append(ft.Row(extra, wrap=True, spacing=8))
    return ft.Container(bgcolor=PANEL, border_radius=10, padding=8, content=ft.Column(lines, spacing=4))


