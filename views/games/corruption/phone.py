"""Corruption's phone: the round's status, the pad over the hand and this seat's face-down cards,
the choices of this seat's turn, and the public table always in view."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from functools import partial

import flet as ft

from companion.games.corruption import (
    CARDS_PER_ROUND,
    BodyView,
    Card,
    ContractView,
    LegalMoves,
    PlacementView,
    View,
)
from views.common import (
    ACCENT,
    DANGER,
    INK,
    MUTED,
    PANEL,
    PEEK_KEY,
    big_button,
    handler,
    label,
    private_section,
    public_view,
    role,
    tagged,
)
from views.context import GameContext
from views.games.corruption.choices import award_choice, option_button, placement_picker
from views.games.corruption.pieces import CARD_FACE, CHARACTER_FACE, WON, card_name, card_tile, held_card_name, pending_text, placements_by_index

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
            hand = tuple(me.hand)
            if not set(hand) <= set(legal.cards):  # (the picker's cards are the hand, counts and all)
                parts.append(ctx.part("my-hand", hand, lambda: hand_panel(ctx, view)))
            parts.extend(seen_lines(ctx, view))
            return ft.Column(parts, spacing=12, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)

        # the pad named for what it does at the player's card play (as Chicago Poker's): the
        # line above says where the card goes, the pad is where it is chosen
        hold, release = (tr.t("corruption.ui.pad_choose_card"), tr.t("ui.peek_release")) if legal.cards else (None, None)
        items.append(private_section(ctx, secrets, hold_text=hold, release_text=release, visible=view.phase == "corruption"))
    if view.award_log and view.phase in ("awards", "round_over", "over"):
        recent = tuple(view.award_log[-4:])
        items.append(ctx.part("my-recent", recent, lambda: panel(tr.t("corruption.ui.recent"), [label(tr.ruling(r, ctx.names), 15, INK) for r in recent])))
    if view.contracts_won[seat]:
        wins = tr.t("corruption.ui.your_wins", contracts=", ".join(c.name for c in view.contracts_won[seat]))
        items.append(ctx.part("my-wins", wins, lambda: label(wins, 16, WON)))
    # The table everyone sees, always in view: drawn from the board's projection; while the pad is
    # open (the secrets above are drawn) it shows the faces this seat knows on their places too,
    # instead of a second table among the secrets (opening the pad sends those cards, not a table)
    known = {k.placement: k.card for k in me.known_cards} if view.phase == "corruption" and ctx.ui.get(PEEK_KEY) else {}
    items.append(public_table(ctx, public_view(ctx, view), known))
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
        assert not isinstance(where, str)  # (a Swiss account is a body name) a Little Black Book looks under contracts only
        text = tr.t("corruption.ui.seen", ctx.names, owner_seat=known.seat, n=known.placement + 1, contract=where.name, card=card_name(ctx, known.card))
        lines.append(ft.Semantics(identifier=f"seen-{known.placement}", key=f"seen-{known.placement}", content=label(text, 17, "#E1F5FE", ft.FontWeight.BOLD)))
    return lines


def panel(title: str, rows: list[ft.Control]) -> ft.Control:
    return ft.Container(bgcolor=PANEL, border_radius=10, padding=10, content=ft.Column([label(title, 16, MUTED), *rows], spacing=4))


def hand_panel(ctx: GameContext, view: View) -> ft.Control:
    tr = ctx.tr
    me = view.me
    assert me is not None
    chips: list[ft.Control] = []
    for card, count in Counter(me.hand).items():
        text = held_card_name(ctx, card, count)
        bg = CHARACTER_FACE.get(card, CARD_FACE) if isinstance(card, str) else CARD_FACE
        chips.append(ft.Container(bgcolor=bg, border_radius=6, padding=ft.Padding.symmetric(horizontal=8, vertical=4), content=ft.Text(text, size=15, color="#111111", weight=ft.FontWeight.BOLD)))
    return ft.Semantics(identifier="my-hand", key="my-hand", content=panel(tr.t("corruption.ui.my_hand"), [ft.Row(chips, wrap=True, spacing=6, run_spacing=6)]))


def stud_picker(ctx: GameContext, view: View, seat: int) -> ft.Control:
    tr = ctx.tr
    key = ("corruption.stud", view.round)
    chosen: set[int] = set(ctx.ui.get(key, ()))

    def flip(n: int) -> Callable[[], Awaitable[None]]:
        async def flipped() -> None:
            current = set(ctx.ui.get(key, ()))
            current ^= {n}
            ctx.ui[key] = tuple(sorted(current))
            await ctx.rerender()

        return flipped

    toggles: list[ft.Control] = []
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


def peek_panel(ctx: GameContext, view: View, seat: int, legal: LegalMoves) -> ft.Control:
    tr = ctx.tr
    placements = placements_by_index(view)
    rows: list[ft.Control] = []
    if legal.peek:
        rows.append(label(tr.t("corruption.ui.peek_help"), 14, MUTED))
    for index in legal.peek:
        target, where = placements[index]
        assert not isinstance(where, str)  # (a Swiss account is a body name) a Little Black Book looks under contracts only
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


def public_table(ctx: GameContext, board: View, known: dict[int, Card]) -> ft.Control:
    """The table as everyone sees it (drawn from the board's projection), always on the phone;
    `known`: the faces this seat knows (its own cards, what it peeked at), given only while its
    pad is open, on their places."""
    return table_panel(ctx, board, known, "public-table", "corruption.ui.table" if known else "corruption.ui.public_table")


def body_title(ctx: GameContext, name: str) -> ft.Control:
    return label(ctx.tr.t(f"corruption.body.{name}"), 17, ACCENT, ft.FontWeight.BOLD)


def table_card(ctx: GameContext, i: int, seat: int, face: Card | None, size: int, sideways: bool) -> ft.Control:
    return role(f"c{i}", card_tile(ctx, seat, face, size=size, sideways=sideways))


def table_panel(ctx: GameContext, view: View, known: dict[int, Card], ident: str, title: str) -> ft.Control:
    """The table on a phone, a row per contract and per Swiss account, each a part drawn from its
    own cards (and the faces this seat knows of them)."""
    tr = ctx.tr
    rows: list[ft.Control] = [ctx.part(f"{ident}-title", title, lambda: label(tr.t(title), 16, MUTED))]
    for body in view.bodies:
        name = body.body
        rows.append(ctx.part(f"{ident}-{name}", None, partial(body_title, ctx, name)))
        if body.swiss:
            faces = tuple(p.card if p.card is not None else known.get(p.index) for p in body.swiss)
            rows.append(swiss_row(ctx, f"{ident}-{name}-swiss", body, faces))
        for contract in body.contracts:
            faces = tuple(p.card if p.card is not None else known.get(p.index) for p in contract.placements)
            rows.append(contract_row(ctx, f"{ident}-contract-{contract.id}", contract, faces))
    return ctx.group(ident, None, rows, lambda rows: ft.Semantics(identifier=ident, key=ident, content=ft.Container(bgcolor=PANEL, border_radius=10, padding=10, content=ft.Column(rows, spacing=4))))


def card_tiles(ctx: GameContext, key: str, placements: tuple[PlacementView, ...], faces: tuple[Card | None, ...], size: int, sideways: bool = False) -> list[ft.Control]:
    """A row's cards, each a part: a card placed or revealed builds that card alone."""
    return [
        ctx.part(f"{key}-card-{i}", (p.seat, face, size, sideways), partial(table_card, ctx, i, p.seat, face, size, sideways))
        for i, (p, face) in enumerate(zip(placements, faces, strict=True))
    ]


def swiss_row(ctx: GameContext, key: str, body: BodyView, faces: tuple[Card | None, ...]) -> ft.Control:
    title = ctx.part(f"{key}-title", None, lambda: role("t", label(ctx.tr.t("corruption.swiss_account"), 14, MUTED)))
    cards = card_tiles(ctx, key, body.swiss, faces, 28, sideways=True)
    return ctx.group(key, None, [title, *cards], lambda children: ft.Row(children, wrap=True, spacing=4, key=f"swiss-{body.body}"))


def contract_row(ctx: GameContext, key: str, contract: ContractView, faces: tuple[Card | None, ...]) -> ft.Control:
    """A contract's name, worth and outcome, then its cards, in one wrapping row (a group: a card
    placed is sent alone)."""
    tr = ctx.tr
    head = [
        ctx.part(f"{key}-name", contract.name, lambda: role("n", label(contract.name, 15, INK, ft.FontWeight.BOLD))),
        ctx.part(f"{key}-value", contract.value, lambda: role("v", label(tr.money(contract.value), 14, ACCENT))),
    ]
    if contract.deferred:
        head.append(ctx.part(f"{key}-deferred", contract.dealt_round, lambda: role("d", label(tr.t("corruption.ui.deferred", round=contract.dealt_round), 13, MUTED))))
    if contract.award is not None:
        award = contract.award
        text = tr.t("corruption.ui.won_by", ctx.names, seat=award.winner) if award.outcome == "won" else tr.t(f"corruption.ui.outcome.{award.outcome}")
        colour = WON if award.outcome == "won" else DANGER
        head.append(ctx.part(f"{key}-award", (text, colour), lambda: tagged(f"my-award-{contract.id}", label(text, 13, colour, ft.FontWeight.BOLD))))
    cards = card_tiles(ctx, key, contract.placements, faces, 32)
    # short wire keys (unique among their siblings): a key is sent with every new control
    return ctx.group(key, None, [*head, *cards], lambda children: ft.Row(children, wrap=True, spacing=4, vertical_alignment=ft.CrossAxisAlignment.CENTER, key=f"r{contract.id}"))



