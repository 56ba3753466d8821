"""Chicago Poker's setup form: the table's own hand order (GameUI.setup_*: called by
views/home.py's setup form)."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.games.chicago_poker import Card
from companion.games.poker_hands import RECOMMENDED_RANKING
from views.common import (
    INK,
    MUTED,
    big_button,
    handler,
    icon_button,
    label,
)
from views.context import SetupContext
from views.games.chicago_poker.pieces import card_face, card_text, panel

# --------------------------------------------------------------------------------------------
# the setup form: the table's own hand order (hooks called by views/home.py's setup form)
# --------------------------------------------------------------------------------------------

#: a short example of each hand category, as (value, colour) cards; each one is that category
#: under the recommended order (tests/test_chicago_setup.py checks it)
HAND_EXAMPLES: dict[str, tuple[tuple[int, str], ...]] = {
    "chicago_poker": ((9, "c1"), (9, "c2"), (9, "c3"), (9, "c4"), (9, "c5")),
    "straight_flush": ((5, "c2"), (6, "c2"), (7, "c2"), (8, "c2"), (9, "c2")),
    "rainbow_straight": ((3, "c1"), (4, "c2"), (5, "c3"), (6, "c4"), (7, "c5")),
    "four_of_a_kind": ((12, "c1"), (12, "c2"), (12, "c3"), (12, "c4"), (2, "c5")),
    "full_house": ((8, "c1"), (8, "c2"), (8, "c3"), (4, "c4"), (4, "c5")),
    "flush": ((2, "c3"), (5, "c3"), (9, "c3"), (11, "c3"), (14, "c3")),
    "straight": ((10, "c1"), (11, "c1"), (12, "c2"), (13, "c2"), (14, "c4")),
    "three_of_a_kind": ((7, "c1"), (7, "c2"), (7, "c3"), (2, "c4"), (13, "c5")),
    "two_pairs": ((11, "c1"), (11, "c2"), (6, "c3"), (6, "c4"), (1, "c5")),
    "pair": ((4, "c1"), (4, "c2"), (9, "c3"), (12, "c4"), (15, "c5")),
    "high_card": ((15, "c1"), (12, "c2"), (8, "c3"), (5, "c4"), (3, "c5")),
}


async def setup_load(ctx: SetupContext) -> None:
    """The editor starts from the recommended order (kept while the host switches rules)."""
    ctx.state["ranking"] = list(RECOMMENDED_RANKING)


def custom_ranking_chosen(ctx: SetupContext) -> bool:
    return ctx.rules.get("hand_ranking") == "custom"


def setup_fields(ctx: SetupContext) -> list[ft.Control]:
    return [ranking_editor(ctx)] if custom_ranking_chosen(ctx) else []


def setup_values(ctx: SetupContext) -> dict[str, Any]:
    """Setup.custom_ranking, only when the table plays its own order (else the default stays)."""
    if not custom_ranking_chosen(ctx):
        return {}
    return {"custom_ranking": list(ctx.state.setdefault("ranking", list(RECOMMENDED_RANKING)))}


def hand_example(ctx: SetupContext, category: str) -> ft.Control:
    """Small card faces of an example hand; screen readers hear the cards' names instead."""
    cards = [Card.model_validate({"value": value, "colour": colour}) for value, colour in HAND_EXAMPLES[category]]
    spoken = ctx.tr.t("chicago_poker.setup.example", cards=", ".join(card_text(ctx, c) for c in cards))
    return ft.Semantics(
        identifier=f"ranking-example-{category}",
        label=spoken,
        exclude_semantics=True,
        content=ft.Row([card_face(c, 34) for c in cards], spacing=2, tight=True),
    )


def ranking_editor(ctx: SetupContext) -> ft.Control:
    """The hand categories, best first, each movable one place up or down."""
    tr = ctx.tr
    ranking: list[str] = ctx.state.setdefault("ranking", list(RECOMMENDED_RANKING))

    async def move(category: str, delta: int) -> None:
        # by category, not index: a tap on a row drawn before the last move still moves that hand
        index = ranking.index(category)
        other = index + delta
        if 0 <= other < len(ranking):
            ranking[index], ranking[other] = ranking[other], ranking[index]
            await ctx.rerender()

    async def reset() -> None:
        ranking[:] = RECOMMENDED_RANKING
        await ctx.rerender()

    def arrow(category: str, direction: str, icon: ft.IconData, delta: int, disabled: bool) -> ft.Control:
        ident = f"ranking-{direction}-{category}"
        return ft.Semantics(
            identifier=ident,
            key=ident,
            button=True,
            content=icon_button(icon, tr.t(f"chicago_poker.setup.move_{direction}", hand=category), handler(move, category, delta), colour=INK, disabled=disabled),
        )

    rows: list[ft.Control] = []
    for index, category in enumerate(ranking):
        # name and example side by side on a tablet, one above the other on a narrow screen
        named = ft.Row(
            [
                ft.Container(width=190, content=label(tr.t(f"chicago_poker.hand.{category}"), 18, INK, ft.FontWeight.BOLD)),
                hand_example(ctx, category),
            ],
            wrap=True,
            spacing=8,
            run_spacing=4,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        row = ft.Row(
            [
                ft.Container(width=36, content=label(f"{index + 1}.", 18, MUTED)),
                ft.Container(expand=True, content=named),
                arrow(category, "up", ft.Icons.ARROW_UPWARD, -1, index == 0),
                arrow(category, "down", ft.Icons.ARROW_DOWNWARD, 1, index == len(ranking) - 1),
            ],
            spacing=8,
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        # keyed by category, so a move reorders the rows instead of redrawing each one
        rows.append(ft.Semantics(identifier=f"ranking-row-{category}", key=f"ranking-row-{category}", content=row))
    return panel(
        [
            label(tr.t("chicago_poker.setup.ranking_title"), 18, INK, ft.FontWeight.BOLD),
            label(tr.t("chicago_poker.setup.ranking_help"), 15, MUTED),
            *rows,
            big_button(
                tr.t("chicago_poker.setup.ranking_reset"),
                handler(reset),
                ident="ranking-reset",
                colour="#B0BEC5",
                disabled=ranking == list(RECOMMENDED_RANKING),
            ),
        ],
        ident="ranking-editor",
    )
