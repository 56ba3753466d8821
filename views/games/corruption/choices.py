"""Corruption's choices: where a card goes, a peek, the award choices (Swiss accounts, hits,
reports), on a phone and as the board's entries for the current player."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft

from companion.games.corruption import (
    View,
    swiss_value,
)
from views.common import (
    ACCENT,
    COLOUR_HEX,
    FELT_LIGHT,
    INK,
    MUTED,
    choice_target,
    handler,
    label,
    secret_choices,
    secret_face,
)
from views.context import GameContext
from views.games.corruption.pieces import CARD_FACE, card_name, contracts_by_id, placements_by_index

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

    def choose(card: Any) -> Callable[[], Awaitable[None]]:
        async def chose() -> None:
            ctx.ui[key] = card
            await ctx.rerender()

        return chose

    items: list[ft.Control] = [label(tr.t("corruption.ui.pick_card"), 20, INK, ft.FontWeight.BOLD)]
    cards = list(legal.cards)
    names = [card_name(ctx, card) for card in cards]

    def card_button(i: int, size: float, lines: int, height: float | None) -> ft.Control:
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


