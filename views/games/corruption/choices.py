"""Corruption's choices: where a card goes, a peek, the award choices (Swiss accounts, hits,
reports), on a phone and as the board's entries for the current player."""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

import flet as ft

from companion.games.corruption import (
    Body,
    Card,
    ContractView,
    LegalMoves,
    Location,
    PlacementView,
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
    role,
    secret_choices,
    secret_face,
)
from views.context import GameContext
from views.games.corruption.pieces import CARD_FACE, card_name, contracts_by_id, held_card_name, placements_by_index

# --------------------------------------------------------------------------------------------
# choices (phone, and the board's entries)
# --------------------------------------------------------------------------------------------


#: ctx.ui keys (per picker prefix) of what this drawing's picker chose from: a card's or a place's
#: handler, made at an earlier drawing and kept with its part, reads them at the tap
CARD_KEY_NOW = "corruption.card_key"
PLAY_NOW = "corruption.play"


def placement_picker(ctx: GameContext, view: View, seat: int, legal: LegalMoves, *, prefix: str = "", face_up: bool | None = None) -> ft.Control:
    """Choose a card, then where it goes. Only legal options are offered. Every button is a
    part: opening the pad builds the hand, a card picked sends its places, not the cards again."""
    tr = ctx.tr
    key = ("corruption.card", prefix, view.round, sum(view.cards_placed))
    chosen = ctx.ui.get(key)
    if chosen not in legal.cards:
        chosen = None
    ctx.ui[(CARD_KEY_NOW, prefix)] = key
    ctx.ui[(PLAY_NOW, prefix)] = (seat, chosen, bool(face_up if face_up is not None else legal.face_up))
    board = ctx.seat is None
    title = ctx.part(f"{prefix}pick-card", None, lambda: role(f"{prefix}pick-card", label(tr.t("corruption.ui.pick_card"), 20, INK, ft.FontWeight.BOLD)))
    items: list[ft.Control] = [title]
    cards = list(legal.cards)
    if not board and view.me is not None:
        # a phone's choices are its hand: a card held twice says so (no second list of the hand)
        held = Counter(view.me.hand)
        names = [held_card_name(ctx, card, held[card]) for card in cards]
    else:
        names = [card_name(ctx, card) for card in cards]

    def card_button(i: int, size: float, lines: int, height: float | None) -> ft.Control:
        card, name, selected = cards[i], names[i], cards[i] == chosen
        return ctx.part(f"{prefix}card-{i}", (card, name, selected, size, lines, height), lambda: picker_card(ctx, prefix, card, name, selected, size, lines, height))

    if not board:
        # a secret card (a phone, or the tablet handed to its player): one size, fixed places
        card_choices: ft.Control = ft.Semantics(identifier=f"{prefix}card-choices", key=f"{prefix}card-choices", content=secret_choices(ctx.width, names, card_button, columns=3))
    else:
        # the board enters a face-up card, seen by all: the buttons as wide as their values
        card_choices = ft.Row([card_button(i, 20, 1, None) for i in range(len(cards))], wrap=True, spacing=8, run_spacing=8, key=f"{prefix}card-choices")
    items.append(card_choices)
    if chosen is not None:
        places = len(items)
        # the shared board names the player whose card it enters (never "your")
        where_to = tr.t("corruption.ui.board_pick_place", ctx.names, seat=seat, card=card_name(ctx, chosen)) if board else tr.t("corruption.ui.pick_place", card=card_name(ctx, chosen))
        items.append(ctx.part(f"{prefix}pick-place", where_to, lambda: role(f"{prefix}pick-place", label(where_to, 18 if not board else 20, ACCENT, ft.FontWeight.BOLD))))
        for body in view.bodies:
            # a bribe may go to the body's Swiss account (never entered from the board)
            swiss = isinstance(chosen, int) and body.body in legal.swiss
            row = [location_button(ctx, prefix, contract.id, contract.name, tr.money(contract.value), seat) for contract in body.contracts if contract.id in legal.contracts]
            if not row and not swiss:
                continue
            # each body under its name, its contracts on a line of their own; its Swiss account
            # beside the name, so a bribe's places take no more lines than a character's and
            # fit under the pad (mixed in with the contracts, a long name pushed the last off
            # the screen)
            # (a part stays in its parent: the name beside an account is a part of its own)
            name, title_key = tr.t(f"corruption.body.{body.body}"), f"{prefix}places-title-{body.body}{'-swiss' if swiss else ''}"
            title = ctx.part(title_key, name, partial(places_title, title_key, name))
            if swiss:
                account = location_button(ctx, prefix, body.body, tr.t("corruption.ui.swiss_button"), "", seat, swiss=True)
                title = ft.Row([title, account], spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER, key=f"{prefix}places-head-{body.body}")
            items.append(title)
            if row:
                items.append(ft.Row(row, wrap=True, spacing=8, run_spacing=8, key=f"{prefix}places-{body.body}"))
        if not board:
            # on a phone the card's places come first, under the pad, where the lift that chose
            # the card left the finger (the cards, to choose another, follow them)
            items = [*items[places:], *items[:places]]
    return ft.Column(items, spacing=8)


def places_title(key: str, name: str) -> ft.Control:
    return role(key, label(name, 16, MUTED, ft.FontWeight.BOLD))


def picker_card(ctx: GameContext, prefix: str, card: Card, name: str, selected: bool, size: float, lines: int, height: float | None) -> ft.Control:
    async def choose() -> None:
        ctx.ui[ctx.ui[(CARD_KEY_NOW, prefix)]] = card
        await ctx.rerender()

    # One face and size for every card, the pick ringed thinly in dark grey: from across the
    # table the choices look alike (the hand panel keeps the character colours).
    if height is not None:
        box = secret_face(name, selected=selected, on_click=handler(choose), size=size, lines=lines, height=height, face=CARD_FACE)
    else:
        box = ft.Container(
            on_click=handler(choose),
            bgcolor=CARD_FACE,
            border=ft.Border.all(3, "#37474F" if selected else CARD_FACE),
            border_radius=10,
            padding=ft.Padding.symmetric(horizontal=12, vertical=12),
            content=ft.Text(name, size=size, weight=ft.FontWeight.BOLD, color="#111111"),
        )
    return ft.Semantics(
        identifier=f"{prefix}card-{card}",
        key=f"{prefix}card-{card}",
        button=True,
        selected=selected,
        content=choice_target(ctx, box, choose, then_open=True),
    )


def location_button(ctx: GameContext, prefix: str, location: Location, title: str, subtitle: str, seat: int, *, swiss: bool = False) -> ft.Control:
    """A place for the card picked (read at the tap: the part is kept from pick to pick)."""
    ident = f"{prefix}loc-{location}"
    return ctx.part(ident, (title, subtitle, seat, swiss), lambda: place_button(ctx, prefix, ident, location, title, subtitle, seat, swiss))


def place_button(ctx: GameContext, prefix: str, ident: str, location: Location, title: str, subtitle: str, seat: int, swiss: bool) -> ft.Control:
    async def place() -> None:
        by, card, face_up = ctx.ui[(PLAY_NOW, prefix)]
        if card is None:
            return  # the pick was taken back (another drawing came first): nothing to place
        await ctx.submit({"type": "play_card", "by": by, "card": card, "location": location, "face_up": False if swiss else face_up})

    return ft.Semantics(
        identifier=ident,
        key=ctx.act_key(ident, seat),
        button=True,
        content=choice_target(ctx, ft.Container(
            on_click=handler(place),
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


def award_choice(ctx: GameContext, view: View, seat: int, legal: LegalMoves, *, prefix: str = "") -> ft.Control:
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
        assert not isinstance(where, str)  # (a Swiss account is a body name) a hit man lies under a contract
        prompt = tr.t(f"corruption.ui.{board}hit_prompt", ctx.names, seat=seat, contract=where.name)
        for index in legal.hit_targets:
            target, _ = placements[index]
            text = target_text(ctx, placements, index, legal.hit_targets)
            buttons.append(option_button(ctx, f"{prefix}hit-{index}", text, {"type": "hit", "by": seat, "target": index}, seat=target.seat))
    else:
        assert not isinstance(where, str)  # (a Swiss account is a body name) a reporter lies under a contract
        prompt = tr.t(f"corruption.ui.{board}report_prompt", ctx.names, seat=seat, contract=where.name)
        for index in legal.report_targets:
            target, _ = placements[index]
            text = target_text(ctx, placements, index, legal.report_targets)
            buttons.append(option_button(ctx, f"{prefix}report-{index}", text, {"type": "report", "by": seat, "bribe": index}, seat=target.seat))
        if legal.may_pass:
            buttons.append(option_button(ctx, f"{prefix}report-none", tr.t("corruption.ui.remove_nothing"), {"type": "report", "by": seat, "bribe": None}, plain=True))
    return ft.Column([label(prompt, 20, INK, ft.FontWeight.BOLD), ft.Column(buttons, spacing=8)], spacing=10)


def target_text(ctx: GameContext, placements: dict[int, tuple[PlacementView, ContractView | Body]], index: int, options: tuple[int, ...]) -> str:
    """A hit man's or a reporter's target as the table sees it: whose card, what, under which
    contract ("Cy's Reporter under the Subway"), never the card's number (no card shows one).
    A player's two reporters under one contract are told apart by the order they were played
    (placement indexes follow the play; a player has no other two equal cards)."""
    target, where = placements[index]
    # a target lies under the acting card's contract (a Swiss account is a body's name), and
    # every card is revealed by the awards
    assert not isinstance(where, str) and target.card is not None
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


