"""Chicago Poker's board: the prompt, the host's entries for the current player (tiles, face-up
cards, draws, the end of a turn, the order of shootouts, the deck's top cards), the shootout,
the standings and the businesses. Only public things: face-up cards, the backs of face-down
ones."""

from __future__ import annotations

import flet as ft

from companion.games.chicago_poker import View
from views.common import (
    ACCENT,
    INK,
    MUTED,
    act_button,
    handler,
    label,
    player_chip,
    role,
)
from views.context import GameContext
from views.games.chicago_poker.pieces import (
    KIND_HEX,
    KIND_ICON,
    businesses_grid,
    card_payload,
    card_picker,
    control_row,
    known_cards,
    last_shootout_toggle,
    panel,
    picked_card,
    play_buttons,
    shootout_panel,
    shown_shootout,
    tap,
)

# --------------------------------------------------------------------------------------------
# the board
# --------------------------------------------------------------------------------------------


def board_body(ctx: GameContext, view: View, reveal: ft.Control | None) -> ft.Control:
    """`reveal`: the reveal panel when one is due, above the board (keyed: it comes and goes and
    the board keeps its place)."""
    tr = ctx.tr
    items: list[ft.Control] = [role("reveal", reveal)] if reveal is not None else []
    items.append(board_prompt(ctx, view))
    if ctx.acts_for_current:
        items.extend(host_controls(ctx, view))
    items.append(shootout_panel(ctx, view, shown_shootout(ctx, view)))
    toggle = last_shootout_toggle(ctx, view)
    if toggle is not None:
        items.append(toggle)
    items.append(control_row(ctx, view, compact=False))
    items.append(businesses_grid(ctx, view, ctx.width))
    footer = [tr.t("chicago_poker.ui.tiles_left", count=view.tiles_left)]
    if view.discard or view.discard_specials:
        footer.append(tr.t("chicago_poker.ui.discard_count", count=len(view.discard) + len(view.discard_specials)))
    text = " · ".join(footer)
    items.append(ctx.part("board-footer", text, lambda: label(text, 16, MUTED)))
    return ctx.group("board-body", None, items, lambda items: ft.Column(items, spacing=12))


def board_prompt(ctx: GameContext, view: View) -> ft.Control:
    """What the table waits for, in large type: a part drawn from the few fields it says."""
    current = view.current
    props = (
        view.phase,
        view.winners,
        view.end_reason,
        current,
        view.actions_left,
        view.hands[current] if current is not None else None,
        view.tiles_to_enter,
        view.waiting_for,
        view.reinforcement is not None,
        _victory_count(view, view.winners[0]) if view.phase == "over" and view.end_reason and view.winners else None,
    )
    return ctx.part("prompt", props, lambda: board_prompt_text(ctx, view))


def board_prompt_text(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    names = ctx.names
    row: list[ft.Control] = []
    if view.phase == "over":
        row.append(label(tr.t("ui.winner", names, seats=list(view.winners)), 32, ACCENT, ft.FontWeight.BOLD))
        if view.end_reason and view.winners:
            seat = view.winners[0]
            row.append(label(tr.t(view.end_reason, names, seat=seat, count=_victory_count(view, seat)), 20, INK))
        return ft.Semantics(identifier="prompt", key="prompt", content=ft.Column(row, spacing=4))
    if view.phase == "tiles":
        text = tr.t("chicago_poker.ui.enter_tiles", count=view.tiles_to_enter)
    elif view.phase == "actions" and view.current is not None:
        row.append(player_chip(tr, names, ctx.colours, view.current, 26))
        text = tr.t("chicago_poker.ui.actions_left", actions=view.actions_left, hand=view.hands[view.current])
    elif view.phase == "choose_shootout" and view.current is not None:
        row.append(player_chip(tr, names, ctx.colours, view.current, 26))
        text = tr.t("chicago_poker.ui.chooses_shootout")
    elif view.phase == "reinforce" and view.reinforcement is not None:
        text = tr.t("chicago_poker.ui.waiting_reinforcements", names, seats=list(view.waiting_for))
    elif view.phase == "deck_card":
        text = tr.t("chicago_poker.deck_cards_needed", names, seats=list(view.waiting_for))
    else:
        text = tr.t(f"chicago_poker.phase.{view.phase}")
    row.append(label(text, 26, INK, ft.FontWeight.BOLD))
    return ft.Semantics(identifier="prompt", key="prompt", content=ft.Row(row, spacing=10, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER))


def _victory_count(view: View, seat: int) -> int:
    kinds = [t.kind for t in view.controlled[seat]]
    if view.end_reason == "chicago_poker.victory_same_type":
        return max(kinds.count(k) for k in set(kinds))
    if view.end_reason == "chicago_poker.victory_four_types":
        return len(set(kinds))
    return len(kinds)


def host_controls(ctx: GameContext, view: View) -> list[ft.Control]:
    """Public entries the host board may make for the current player."""
    tr = ctx.tr
    legal = view.board_legal
    out: list[ft.Control] = []
    def tiles() -> ft.Control:
        left = dict(view.tiles_left_by_type)
        buttons = []
        # the host's own entries for the table (by: null): not acting for a player, so never
        # guarded as one (a second tile is no double tap of the first)
        for kind in legal.tiles:
            box = ft.Container(
                bgcolor=KIND_HEX[kind],
                border_radius=12,
                padding=ft.Padding.symmetric(horizontal=16, vertical=10),
                content=ft.Column(
                    [
                        ft.Row([ft.Icon(KIND_ICON[kind], color="#FFFFFF", size=30), ft.Text(tr.t(f"chicago_poker.business.{kind}"), size=22, color="#FFFFFF", weight=ft.FontWeight.BOLD)], tight=True),
                        ft.Text(tr.t("chicago_poker.ui.left_of_type", count=left[kind]), size=14, color="#FFFFFF"),
                    ],
                    spacing=2,
                    tight=True,
                ),
            )
            buttons.append(tap(f"tile-{kind}", box, handler(ctx.submit, {"type": "reveal_tile", "by": ctx.seat, "kind": kind}), key=f"tile-{kind}"))
        return ft.Row(buttons, wrap=True, spacing=10, run_spacing=10)

    if view.phase == "tiles" and legal.tiles:
        out.append(ctx.part("host-tiles", (legal.tiles, view.tiles_left_by_type), tiles))
    if view.phase == "choose_shootout" and legal.shootouts and view.current is not None:
        current = view.current
        out.append(
            ctx.part(
                "host-choose",
                (legal.shootouts, current),
                lambda: ft.Row([act_button(ctx, current, tr.t("chicago_poker.ui.resolve", business=b), handler(ctx.submit, {"type": "choose_shootout", "by": current, "business": b}), ident=f"choose-{b}") for b in legal.shootouts], wrap=True),
            )
        )
    if view.phase == "deck_card" and legal.deck_card_for:
        seat = legal.deck_card_for[0]
        key = ("chicago_poker.deck", view.shootout.business if view.shootout else 0, len(view.shootouts), seat, len(view.reinforcement.deck_cards) if view.reinforcement else 0)
        value, colour = picked_card(ctx, key)
        ready = value is not None and colour is not None

        def deck_card() -> ft.Control:
            controls: list[ft.Control] = [
                label(tr.t("chicago_poker.ui.enter_deck_card", ctx.names, seat=seat), 20, INK, ft.FontWeight.BOLD),
                card_picker(ctx, view, key, compact=False),
                act_button(
                    ctx,
                    seat,
                    tr.t("chicago_poker.ui.enter_card"),
                    handler(ctx.submit, {"type": "reveal_deck_card", "by": ctx.seat, "seat": seat, "card": card_payload(value, colour)}) if value is not None and colour is not None else None,
                    ident="deck-card-enter",
                    disabled=not ready,
                    reason=tr.t("chicago_poker.ui.pick_card_first"),
                ),
            ]
            if view.special_cards:
                controls.append(ft.Row([act_button(ctx, seat, tr.t(f"chicago_poker.special.{k}"), handler(ctx.submit, {"type": "reveal_deck_card", "by": ctx.seat, "seat": seat, "card": k}), ident=f"deck-special-{k}") for k in ("liquidation", "police_raid", "limousine", "revolver", "bribe")], wrap=True))
            return panel(controls, ident="deck-card")

        out.append(ctx.part("host-deck-card", (seat, key, value, colour, known_cards(view), view.special_cards), deck_card))
    if view.phase == "actions" and view.current is not None:
        seat = view.current
        draw, end_turn = legal.draw, legal.end_turn

        def turn_buttons() -> ft.Control:
            buttons: list[ft.Control] = []
            if draw:
                buttons.append(act_button(ctx, seat, tr.t("chicago_poker.ui.draw_for", ctx.names, seat=seat), handler(ctx.submit, {"type": "draw", "by": seat}), ident="draw", named=True))
            if end_turn:
                buttons.append(act_button(ctx, seat, tr.t("chicago_poker.ui.end_turn_for", ctx.names, seat=seat), handler(ctx.submit, {"type": "end_turn", "by": seat}), ident="end-turn", named=True))
            return ft.Row(buttons, wrap=True, spacing=10)

        if draw or end_turn:
            out.append(ctx.part("host-turn", (seat, draw, end_turn), turn_buttons))
        # the face-up entry stays mounted (hidden) once the turn's actions are spent, so the next
        # turn sends what changed in it, not the whole picker again
        card_key = ("chicago_poker.board_card", view.turn, view.actions_left)
        plays = legal.play

        # a group: the picker's and the play buttons' parts change alone as the turn goes on
        title = ctx.part("host-face-up-title", seat, lambda: label(tr.t("chicago_poker.ui.face_up_for", ctx.names, seat=seat), 18, ACCENT, ft.FontWeight.BOLD))
        note = ctx.part("host-face-up-note", None, lambda: label(tr.t("chicago_poker.ui.face_down_on_phone"), 15, MUTED))
        row = ctx.group(
            "host-face-up-row",
            None,
            [play_buttons(ctx, view, seat, plays, card_key, compact=False), note],
            lambda children: ft.Row(children, spacing=12, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
        )
        shown = bool(plays)
        out.append(ctx.group("host-face-up", shown, [title, card_picker(ctx, view, card_key, compact=False), row], lambda children: panel(children, ident="board-card", visible=shown)))
        if not plays and view.actions_left:
            out.append(ctx.part("host-face-down-note", None, lambda: label(tr.t("chicago_poker.ui.face_down_on_phone"), 16, MUTED)))
    return out

