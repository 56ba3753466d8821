"""Chicago Poker's phone: the hand size and actions, the pad over what only this seat knows (its
face-down cards, the card being played or sent), the turn's buttons, special cards,
reinforcements and the public table."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import flet as ft

from companion.games.chicago_poker import COLUMN_MAX, LIMOUSINE_MAX, Pick, View
from views.common import (
    ACCENT,
    INK,
    MUTED,
    PANEL,
    PEEK_KEY,
    act_button,
    big_button,
    draft_key,
    handler,
    label,
    private_section,
    public_view,
    secret_choices,
    secret_face,
    shown_when,
    tagged,
)
from views.context import GameContext
from views.games.chicago_poker.pieces import (
    businesses_grid,
    card_back,
    card_face,
    card_payload,
    card_picker,
    card_text,
    control_row,
    last_shootout_toggle,
    panel,
    picked_card,
    play_buttons,
    shootout_panel,
    shown_shootout,
    tap,
)

# --------------------------------------------------------------------------------------------
# the phone
# --------------------------------------------------------------------------------------------


def peeking(ctx: GameContext) -> bool:
    """Whether this seat's secrets are open (held, or shown with a tap): only then is any of them
    drawn, so while hidden neither the page nor what the server sends carries them."""
    return bool(ctx.ui.get(PEEK_KEY))


def waiting_text(ctx: GameContext, view: View, seat: int) -> str | None:
    """What this seat waits for while the game waits for it but its turn has not started."""
    if view.phase == "tiles":
        return ctx.tr.t("chicago_poker.ui.turn_after_tile")
    if view.phase == "deck_card":
        return ctx.tr.t("chicago_poker.ui.deck_card_for_you")
    return None


def seat_body(ctx: GameContext, view: View) -> ft.Control:
    """The public part is drawn from the board's projection (`ctx.board_view`); only the pad's
    section (and the faces of this seat's own cards in the grid while it is open) uses `view.me`."""
    tr = ctx.tr
    me = view.me
    legal = view.my_legal
    assert me is not None and legal is not None
    board: View = public_view(ctx, view)
    seat = me.seat
    items: list[ft.Control] = []
    if board.phase == "over":
        winners = board.winners
        items.append(ctx.part("my-winner", winners, lambda: label(tr.t("ui.winner", ctx.names, seats=list(winners)), 26, ACCENT, ft.FontWeight.BOLD)))
    # hand size and actions: always in sight
    facts = [tr.t("chicago_poker.ui.my_hand", hand=board.hands[seat])]
    if board.phase == "actions" and board.current == seat:
        facts.append(tr.t("chicago_poker.ui.my_actions", actions=board.actions_left))
    fact_line = " · ".join(facts)
    items.append(ctx.part("my-facts", fact_line, lambda: ft.Semantics(identifier="my-facts", key="my-facts", content=label(fact_line, 22, INK, ft.FontWeight.BOLD))))
    if board.hands[seat] > board.hand_limit:
        limit = board.hand_limit
        items.append(ctx.part("my-over-limit", limit, lambda: label(tr.t("chicago_poker.ui.over_limit", limit=limit), 18, ACCENT, ft.FontWeight.BOLD)))

    if board.phase == "tiles":
        items.append(ctx.part("my-board-enters", "tile", lambda: label(tr.t("chicago_poker.ui.board_enters_tile"), 18, MUTED)))
    elif board.phase == "deck_card":
        items.append(ctx.part("my-board-enters", "deck", lambda: label(tr.t("chicago_poker.ui.board_enters_deck_card"), 18, MUTED)))
    if legal.shootouts:
        shootouts = legal.shootouts
        items.append(
            ctx.part(
                "my-choose",
                (shootouts, seat),
                lambda: ft.Column(
                    [
                        label(tr.t("chicago_poker.ui.choose_first"), 20, INK, ft.FontWeight.BOLD),
                        ft.Row([big_button(tr.t("chicago_poker.ui.resolve", business=b), handler(ctx.submit, {"type": "choose_shootout", "by": seat, "business": b}), ident=f"choose-{b}") for b in shootouts], wrap=True),
                    ],
                    spacing=12,
                    tight=True,
                ),
            )
        )
    if legal.reinforce:
        items.append(ctx.part("my-reinforce", None, lambda: panel([label(tr.t("chicago_poker.ui.reinforce_prompt"), 22, ACCENT, ft.FontWeight.BOLD), label(tr.t("chicago_poker.ui.reinforce_secret"), 15, MUTED)], ident="reinforce", border=ACCENT)))
    elif board.phase == "reinforce" and seat not in board.waiting_for:
        others = [s for s in board.waiting_for if s != seat]
        if others:
            items.append(ctx.part("my-waiting", tuple(others), lambda: panel([label(tr.t("ui.waiting_for", ctx.names, seats=others), 16, MUTED)], ident="my-pick")))
    # Everything only this seat knows, and the choices among its own cards, behind the pad. It
    # comes before the turn's other controls, so that the card picker opens in view.
    if peeking(ctx):
        if len(me.raids) > ctx.ui.get(RAIDS_SEEN, 0):
            # opened for a Police Raid's new result: it comes first while the section is open
            ctx.ui[RAIDS_SEEN], ctx.ui[RAID_FIRST] = len(me.raids), True
    else:
        ctx.ui.pop(RAID_FIRST, None)
    parts = private_parts(ctx, view, seat)
    if parts or board.phase != "over":
        # mounted through the game, hidden while nothing is private: a turn's start shows it, it
        # does not send it
        hold, release = pad_texts(ctx, view, seat)
        # groups down to the picker's: a pick goes out in the page's own frame
        items.append(private_section(ctx, lambda: ctx.group("private-parts", None, [build() for build in parts], lambda built: ft.Column(built, spacing=12)), hold_text=hold, release_text=release, visible=bool(parts)))
    if board.phase == "actions" and board.current == seat:
        items.extend(turn_controls(ctx, view, seat))
    elif board.phase != "over":
        items.append(turn_buttons(ctx, seat, draw=False, end_turn=False))
        if board.special_cards:
            items.append(specials_row(ctx, SPECIALS, None, visible=False))
    items.append(shootout_panel(ctx, board, shown_shootout(ctx, board)))
    toggle = last_shootout_toggle(ctx, board)
    if toggle is not None:
        items.append(toggle)
    # While hidden, the grid is the public one (backs, as on the board); while open, it shows the
    # faces of this seat's own face-down cards.
    mine = {(h.business, h.position): h.card for h in me.face_down} if peeking(ctx) else None
    items.append(ctx.part("my-businesses-title", None, lambda: label(tr.t("chicago_poker.ui.businesses"), 18, MUTED)))
    items.append(businesses_grid(ctx, board, ctx.width, mine, compact=True))
    items.append(control_row(ctx, board, compact=True))
    return ctx.group("seat-body", None, items, lambda items: ft.Column(items, spacing=12))


def pad_texts(ctx: GameContext, view: View, seat: int) -> tuple[str, str]:
    """The pad named for what it does now: the app does not know the hand, the phone enters the
    card being played (or sent)."""
    tr = ctx.tr
    legal = view.my_legal
    assert legal is not None
    if view.me is not None and len(view.me.raids) > ctx.ui.get(RAIDS_SEEN, 0) and not legal.reinforce:
        # a Police Raid's result waits behind the pad (it comes first when the pad opens)
        return tr.t("chicago_poker.ui.pad_see_raid"), tr.t("ui.peek_release")
    if view.phase == "actions" and view.current == seat and legal.play and chosen_special(ctx, view) is None:
        down = all(face == "down" for _, face in legal.play)
        return tr.t("chicago_poker.ui.pad_enter_face_down" if down else "chicago_poker.ui.pad_enter_card"), tr.t("chicago_poker.ui.pad_release_card")
    if legal.reinforce:
        return tr.t("chicago_poker.ui.pad_enter_reinforcement"), tr.t("chicago_poker.ui.pad_release_card")
    return tr.t("chicago_poker.ui.pad_see_mine"), tr.t("ui.peek_release")


#: ctx.ui key: how many of this seat's Police Raid results its player has had in view (a newer
#: one names the pad for it: the result waits behind the pad, nothing on the page says so)
RAIDS_SEEN = "chicago_poker.raids_seen"
#: ctx.ui key: the section was opened for a new result, which comes first until it closes
RAID_FIRST = "chicago_poker.raid_first"


def private_parts(ctx: GameContext, view: View, seat: int) -> list[Callable[[], ft.Control]]:
    """Builders of the private section's parts, in order: called only while it is open."""
    tr = ctx.tr
    me = view.me
    legal = view.my_legal
    assert me is not None and legal is not None
    parts: list[Callable[[], ft.Control]] = []
    open_ids = {b.id for b in view.businesses}
    notes = bool(me.bribed or any(raid.business in open_ids for raid in me.raids))
    if notes and ctx.ui.get(RAID_FIRST):
        parts.append(lambda: ft.Column(private_notes(ctx, view), spacing=12))
    if view.phase == "actions" and view.current == seat and legal.play and chosen_special(ctx, view) is None:
        parts.append(lambda: play_panel(ctx, view, seat))
    if legal.reinforce:
        parts.append(lambda: reinforce_panel(ctx, view, seat))
    elif view.phase == "reinforce" and me.my_pick is not None:
        pick = me.my_pick
        parts.append(lambda: panel([label(tr.t("chicago_poker.ui.my_pick", card=_pick_text(ctx, pick)), 20, INK, ft.FontWeight.BOLD)], ident="my-pick-card"))
    if notes and not ctx.ui.get(RAID_FIRST):
        parts.append(lambda: ft.Column(private_notes(ctx, view), spacing=12))
    if me.face_down:
        parts.append(lambda: my_face_down(ctx, view))
    return parts


def my_face_down(ctx: GameContext, view: View) -> ft.Control:
    """This seat's face-down cards, business by business (also marked on the grid below)."""
    me = view.me
    assert me is not None
    kinds = {b.id: b.kind for b in view.businesses}
    rows: list[ft.Control] = []
    for business in sorted({h.business for h in me.face_down}):
        cards = [card_face(h.card, 40) for h in sorted(me.face_down, key=lambda h: h.position) if h.business == business]
        rows.append(ft.Row([label(ctx.tr.t("chicago_poker.ui.play_at", business=business, kind=kinds[business]), 16, INK, ft.FontWeight.BOLD), *cards], spacing=6, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    return panel(rows, ident="my-face-down")


def _pick_text(ctx: GameContext, pick: Pick) -> str:
    if pick.card is not None:
        return card_text(ctx, pick.card)
    if pick.special is not None:
        return ctx.tr.t(f"chicago_poker.special.{pick.special}")
    return ctx.tr.t("chicago_poker.ui.nothing_sent")


def turn_controls(ctx: GameContext, view: View, seat: int) -> list[ft.Control]:
    legal = view.my_legal
    assert legal is not None
    out: list[ft.Control] = []
    special_key = special_ui_key(view)
    special = chosen_special(ctx, view)
    if special is not None:
        out.append(special_panel(ctx, view, seat, special, special_key))
        return out
    out.append(turn_buttons(ctx, seat, legal.draw, legal.end_turn))
    # The card to play (face up or face down) is chosen in the private section: see play_panel.
    if legal.specials or view.special_cards:
        # hidden, not gone, once the turn's actions are spent: the next turn shows it again
        out.append(specials_row(ctx, legal.specials or SPECIALS, special_key, visible=bool(legal.specials)))
    return out


#: the special cards, in the order their buttons stand
SPECIALS = ("liquidation", "police_raid", "limousine", "revolver", "bribe")
#: `ctx.ui` entry: the key under which the special card being played is kept, this drawing
SPECIAL_KEY_NOW = "chicago_poker.special_key"
#: that key: ("chicago_poker.special", turn, actions left) (see special_ui_key)
SpecialKey = tuple[str, int, int]


def specials_row(ctx: GameContext, specials: tuple[str, ...], special_key: SpecialKey | None, visible: bool) -> ft.Control:
    """The special cards the turn may play: mounted, hidden, between this phone's turns (a turn's
    start then shows it, it does not send it)."""
    tr = ctx.tr
    # the handler reads the key of the drawing it was tapped on (the key changes with each action;
    # the buttons do not)
    ctx.ui[SPECIAL_KEY_NOW] = special_key

    async def choose(kind: str) -> None:
        ctx.ui[ctx.ui[SPECIAL_KEY_NOW]] = kind
        await ctx.rerender()

    title = ctx.part("my-specials-title", None, lambda: label(tr.t("chicago_poker.ui.specials"), 18, MUTED))
    buttons = ctx.part(
        "my-specials-buttons",
        specials,
        lambda: ft.Row(
            [big_button(tr.t(f"chicago_poker.special.{k}"), handler(choose, k), ident=f"special-{k}", colour="#CE93D8") for k in specials], wrap=True, spacing=8, run_spacing=8
        ),
    )
    # shown and hidden by its wrapper: a turn's start or end builds no button
    return ctx.group("my-specials", visible, [title, buttons], lambda children: ft.Column(children, spacing=12, tight=True, visible=visible))


def turn_buttons(ctx: GameContext, seat: int, draw: bool, end_turn: bool) -> ft.Control:
    """Draw and End turn: mounted on every phone through the game, shown on the current player's
    by their wrappers (a turn's start sends flags and builds no button)."""
    tr = ctx.tr

    buttons = [
        shown_when(ctx, "my-draw-box", draw, ctx.part("my-draw", seat, lambda: big_button(tr.t("chicago_poker.ui.draw"), handler(ctx.submit, {"type": "draw", "by": seat}), ident="draw"))),
        shown_when(
            ctx,
            "my-end-turn-box",
            end_turn,
            ctx.part("my-end-turn", seat, lambda: big_button(tr.t("chicago_poker.ui.end_turn"), handler(ctx.submit, {"type": "end_turn", "by": seat}), ident="end-turn", colour="#A5D6A7")),
        ),
    ]
    visible = draw or end_turn
    return ctx.group("my-turn", visible, buttons, lambda children: ft.Row(children, wrap=True, spacing=10, visible=visible))


def special_ui_key(view: View) -> SpecialKey:
    return ("chicago_poker.special", view.turn, view.actions_left)


def chosen_special(ctx: GameContext, view: View) -> str | None:
    """The special card being played on this phone now (its panel replaces the turn's controls)."""
    special = ctx.ui.get(special_ui_key(view))
    legal = view.my_legal
    return special if legal is not None and special in legal.specials else None


def play_panel(ctx: GameContext, view: View, seat: int) -> ft.Control:
    """Value, colour, then the business: inside the private section (the picker greys out this
    seat's own face-down cards, and a face-down card's choice is secret)."""
    legal = view.my_legal
    assert legal is not None
    key = draft_key(ctx, ("chicago_poker.card", view.turn, view.actions_left))
    title = ctx.part("play-card-title", None, lambda: label(ctx.tr.t("chicago_poker.ui.play_card"), 17, ACCENT, ft.FontWeight.BOLD))
    children = [title, card_picker(ctx, view, key, compact=True), play_buttons(ctx, view, seat, legal.play, key, compact=True)]
    return ctx.group("play-card", None, children, lambda children: panel(children, ident="play-card"))


def special_panel(ctx: GameContext, view: View, seat: int, kind: str, special_key: SpecialKey) -> ft.Control:
    tr = ctx.tr
    names = ctx.names

    async def cancel() -> None:
        ctx.ui.pop(special_key, None)
        await ctx.rerender()

    controls: list[ft.Control] = [label(tr.t(f"chicago_poker.ui.special_help.{kind}"), 20, ACCENT, ft.FontWeight.BOLD)]
    if kind == "revolver":
        controls.append(big_button(tr.t("chicago_poker.ui.play_special", special=kind), handler(ctx.submit, {"type": "revolver", "by": seat}), ident="special-confirm"))
    elif kind in ("liquidation", "police_raid"):
        # A target is chosen, then played: both cards act at once and cannot be taken back (a
        # Liquidation turns up the card it discards), so a slip of the finger must not play them.
        target_key = (special_key, "target")
        chosen = ctx.ui.get(target_key)

        async def choose_target(target: tuple[int, int]) -> None:
            ctx.ui[target_key] = None if ctx.ui.get(target_key) == target else target
            await ctx.rerender()

        options = []
        offered: list[tuple[int, int]] = []
        for business in view.businesses:
            for column in business.columns:
                if column.seat == seat or not column.cards or (kind == "liquidation" and column.marker):
                    continue
                if kind == "police_raid":  # what it will show: the face-down cards only
                    hidden = sum(1 for card in column.cards if not card.face_up)
                    text = tr.t("chicago_poker.ui.raid_target", names, business=business.id, seat=column.seat, count=hidden)
                else:
                    text = tr.t("chicago_poker.ui.target", names, business=business.id, kind=business.kind, seat=column.seat, count=len(column.cards))
                target = (business.id, column.seat)
                offered.append(target)
                picked = chosen == target
                options.append(big_button(text, handler(choose_target, target), ident=f"target-{business.id}-{column.seat}", colour=ACCENT if picked else "#CE93D8", selected=picked))
        controls.extend(options or [label(tr.t("chicago_poker.ui.no_target"), 16, MUTED)])
        if chosen in offered:
            business_id, target_seat = chosen
            confirm = tr.t("chicago_poker.ui.play_special_on", names, special=kind, business=business_id, seat=target_seat)
            controls.append(big_button(confirm, handler(ctx.submit, {"type": kind, "by": seat, "business": business_id, "target": target_seat}), ident="special-confirm"))
    elif kind == "limousine":
        controls.extend(limousine_controls(ctx, view, seat, special_key))
    elif kind == "bribe":
        pile: list[ft.Control] = []
        for card in view.discard:
            pile.append(tap(f"bribe-{card.value}-{card.colour}", card_face(card, 56), handler(ctx.submit, {"type": "bribe", "by": seat, "card": card_payload(card.value, card.colour)})))
        for k in dict.fromkeys(view.discard_specials):
            pile.append(big_button(tr.t(f"chicago_poker.special.{k}"), handler(ctx.submit, {"type": "bribe", "by": seat, "special": k}), ident=f"bribe-{k}", colour="#CE93D8"))
        if pile:
            controls.append(label(tr.t("chicago_poker.ui.bribe_pick"), 16, MUTED))
            controls.append(ft.Row(pile, wrap=True, spacing=6, run_spacing=6))
        else:
            controls.append(big_button(tr.t("chicago_poker.ui.bribe_empty"), handler(ctx.submit, {"type": "bribe", "by": seat}), ident="special-confirm"))
    controls.append(big_button(tr.t("chicago_poker.ui.cancel"), handler(cancel), ident="special-cancel", colour="#B0BEC5"))
    return panel(controls, ident=f"special-panel-{kind}")


def limousine_controls(ctx: GameContext, view: View, seat: int, special_key: SpecialKey) -> list[ft.Control]:
    tr = ctx.tr
    key = (special_key, "limousine")
    chosen = dict(ctx.ui.get(key) or {})
    source = chosen.get("source")
    destination = chosen.get("destination")
    positions: list[int] = list(chosen.get("positions", []))
    # Own face-down cards show their faces only while the private section is open; backs otherwise.
    mine = {(h.business, h.position): h.card for h in view.me.face_down} if view.me and peeking(ctx) else {}

    async def update(changes: dict[str, int | list[int]]) -> None:
        ctx.ui[key] = {**chosen, **changes}
        await ctx.rerender()

    out: list[ft.Control] = [label(tr.t("chicago_poker.ui.limo_from"), 16, MUTED)]
    sources = [b for b in view.businesses if b.columns[seat].cards and not b.columns[seat].marker]
    out.append(ft.Row([big_button(str(b.id), handler(update, {"source": b.id, "positions": []}), ident=f"limo-from-{b.id}", colour=ACCENT if b.id == source else "#B0BEC5", width=64, selected=b.id == source) for b in sources], wrap=True))
    if source is not None:
        column = next(b for b in view.businesses if b.id == source).columns[seat]
        cells = []
        for position, cv in enumerate(column.cards, start=1):
            card = cv.card or mine.get((source, position))
            face = card_face(card, 50) if card is not None else card_back(ctx, seat, 50)
            selected = position in positions
            toggled = [p for p in positions if p != position] if selected else [*positions, position]
            order = ft.Text(f"{positions.index(position) + 1}." if selected else " ", size=16, color=ACCENT, weight=ft.FontWeight.BOLD)
            box = ft.Container(
                border=ft.Border.all(4, ACCENT if selected else PANEL),
                border_radius=8,
                content=ft.Column([face, order], spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER),
            )
            cells.append(tap(f"limo-card-{position}", box, handler(update, {"positions": toggled}), selected=selected))
        out.append(label(tr.t("chicago_poker.ui.limo_cards", max=LIMOUSINE_MAX), 16, MUTED))
        out.append(ft.Row(cells, wrap=True, spacing=4))
        out.append(label(tr.t("chicago_poker.ui.limo_to"), 16, MUTED))
        targets = [b for b in view.businesses if b.id != source and len(b.columns[seat].cards) < COLUMN_MAX]
        out.append(ft.Row([big_button(str(b.id), handler(update, {"destination": b.id}), ident=f"limo-to-{b.id}", colour=ACCENT if b.id == destination else "#B0BEC5", width=64, selected=b.id == destination) for b in targets], wrap=True))
    ready = source is not None and destination is not None and 1 <= len(positions) <= LIMOUSINE_MAX
    action = {"type": "limousine", "by": seat, "source": source, "destination": destination, "positions": positions}
    out.append(act_button(ctx, seat, tr.t("chicago_poker.ui.play_special", special="limousine"), handler(ctx.submit, action) if ready else None, ident="special-confirm", disabled=not ready, reason=tr.t("chicago_poker.ui.limo_pick_first", max=LIMOUSINE_MAX)))
    return out


def reinforce_panel(ctx: GameContext, view: View, seat: int) -> ft.Control:
    tr = ctx.tr
    rein = view.reinforcement
    key = draft_key(ctx, ("chicago_poker.reinforce", rein.business if rein else 0, rein.round if rein else 0))
    value, colour = picked_card(ctx, key)
    ready = value is not None and colour is not None
    # The prompt is outside, on the public part of the page (seat_body); this is the secret choice.
    controls: list[ft.Control] = [
        card_picker(ctx, view, key, compact=True),
        act_button(
            ctx,
            seat,
            tr.t("chicago_poker.ui.send"),
            handler(ctx.submit, {"type": "reinforce", "by": seat, "card": card_payload(value, colour)}) if value is not None and colour is not None else None,
            ident="reinforce-send",
            disabled=not ready,
            reason=tr.t("chicago_poker.ui.pick_card_first"),
        ),
        big_button(tr.t("chicago_poker.ui.no_gangster"), handler(ctx.submit, {"type": "reinforce", "by": seat}), ident="reinforce-none", colour="#B0BEC5"),
        label(tr.t(f"chicago_poker.ui.no_gangster_help.{view.empty_hand_reinforcement}"), 15, MUTED),
    ]
    if view.special_cards and view.special_reinforcement != "forbidden":
        controls.extend(special_reinforcement_controls(ctx, view, seat, key))
    return panel(controls, ident="reinforce-choice", border=ACCENT)


def special_reinforcement_controls(ctx: GameContext, view: View, seat: int, key: Hashable) -> list[ft.Control]:
    """Sending a special card. Under the reading of docs/rules/chicago_poker.md#reinforcements ("if_forced") it is allowed only to a player
    holding no gangster card, which the app cannot see: the player confirms it first."""
    tr = ctx.tr
    forced = view.special_reinforcement == "if_forced"
    confirmed = bool((ctx.ui.get(key) or {}).get("no_gangster"))
    out: list[ft.Control] = []
    if forced:

        async def confirm(event: Any) -> None:  # Flet's change event
            ctx.ui[key] = {**(ctx.ui.get(key) or {}), "no_gangster": bool(event.control.value)}
            await ctx.rerender()

        out.append(label(tr.t("chicago_poker.ui.special_if_forced"), 15, MUTED))
        out.append(tagged("reinforce-no-gangster", ft.Checkbox(label=tr.t("chicago_poker.ui.confirm_no_gangster"), value=confirmed, on_change=confirm)))
    ready = confirmed or not forced
    kinds = ("liquidation", "police_raid", "limousine", "revolver", "bribe")
    texts = [tr.t("chicago_poker.ui.send_special", special=k) for k in kinds]

    def send(i: int, size: float, lines: int, height: float) -> ft.Control:
        # which special is sent is secret: one size and fixed places (a long name made its button
        # wider), plain faces with no ink or hover overlay
        action = {"type": "reinforce", "by": seat, "special": kinds[i], "no_gangster": forced}
        box = secret_face(texts[i], selected=False, on_click=handler(ctx.submit, action) if ready else None, size=size, lines=lines, height=height, face="#CE93D8" if ready else DISABLED_SECRET, text_colour="#111111" if ready else MUTED)
        return ft.Semantics(identifier=f"reinforce-special-{kinds[i]}", key=f"reinforce-special-{kinds[i]}", button=True, content=box)

    # inside the reinforcement panel: 12 px of padding and a 3 px border on each side
    out.append(ft.Semantics(identifier="reinforce-special-choices", key="reinforce-special-choices", content=secret_choices(ctx.width - 30, texts, send, columns=2)))
    return out


#: a secret choice's button that cannot be tapped yet
DISABLED_SECRET = "#37474F"


def private_notes(ctx: GameContext, view: View) -> list[ft.Control]:
    """This seat's own secrets: Police Raid results, cards taken with a Bribe."""
    tr = ctx.tr
    me = view.me
    assert me is not None
    out: list[ft.Control] = []
    open_ids = {b.id for b in view.businesses}
    for raid in me.raids:
        if raid.business not in open_ids:
            continue  # that business was resolved: its cards are public now
        cells: list[ft.Control] = [label(tr.t("chicago_poker.ui.raid_result", ctx.names, business=raid.business, seat=raid.target, count=len(raid.cards)), 16, INK, ft.FontWeight.BOLD)]
        cells.append(ft.Row([card_face(c, 44) for _, c in raid.cards], spacing=4, wrap=True))
        out.append(panel(cells, ident=f"raid-{raid.business}-{raid.target}"))
    if me.bribed:
        taken = ", ".join(card_text(ctx, b.card) if b.card is not None else tr.t(f"chicago_poker.special.{b.special}") for b in me.bribed)
        out.append(label(tr.t("chicago_poker.ui.bribed", cards=taken), 16, INK))
    return out


