"""The rule card on a phone or the board: the game's quick reference, one tap away.

A screen shows it instead of the game (never on top of it: while the card is up nothing of the
game, and so no secret, is on the page) and keeps its live updates: closing the card redraws the
current game. The card is built from the room's setup only (`companion.rule_cards`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft

from companion.rule_cards import card_text, rule_card
from views.common import ACCENT, INK, PANEL, banner, big_button, label, tagged
from views.i18n import Translator

#: the button's identifier (tests, screen readers) and the card's
RULES_BUTTON = "rules"
RULES_BACK = "rules-back"
RULE_CARD = "rule-card"


def rules_button(tr: Translator, on_click: Callable[[Any], Awaitable[None]]) -> ft.Control:
    """The "Rules" button for a page header: labelled, at least 48 px high."""
    return ft.Semantics(
        identifier=RULES_BUTTON,
        key=RULES_BUTTON,
        button=True,
        content=ft.Button(
            content=ft.Row(
                [ft.Icon(ft.Icons.MENU_BOOK, color="#111111", size=20), ft.Text(tr.t("card.open"), size=17, weight=ft.FontWeight.BOLD, color="#111111")],
                spacing=6,
                tight=True,
            ),
            on_click=on_click,
            bgcolor="#ECEFF1",
            height=48,
        ),
    )


def rules_page(
    tr: Translator,
    game_id: str,
    setup: Any,
    *,
    width: float,
    on_back: Callable[[Any], Awaitable[None]],
    notice: str | None = None,
) -> list[ft.Control]:
    """The whole page: "Back to the game" (always in view) under an optional notice (such as
    "Your turn", which must not be missed while reading), then the card, scrollable."""
    card = card_text(rule_card(game_id, setup), tr)
    top: list[ft.Control] = []
    if notice:
        top.append(banner(notice, ACCENT, ident="rules-notice"))
    body: list[ft.Control] = [label(card.title, 28, ACCENT, ft.FontWeight.BOLD)]
    for section in card.sections:
        lines: list[ft.Control] = [label(section.heading, 22, ACCENT, ft.FontWeight.BOLD)]
        for text, changed in zip(section.lines, section.changed, strict=True):
            # A house rule set away from the book's reading stands out.
            lines.append(label(f"◆ {text}" if changed else text, 19, ACCENT if changed else INK, ft.FontWeight.BOLD if changed else None))
        body.append(
            tagged(
                f"rule-section-{section.key}",
                ft.Container(bgcolor=PANEL, border_radius=12, padding=14, width=width, content=ft.Column(lines, spacing=8, tight=True)),
            )
        )
    return [
        ft.Container(
            alignment=ft.Alignment.TOP_CENTER,
            expand=True,
            content=ft.Container(
                width=width,
                content=ft.Column(
                    [
                        *top,
                        big_button(tr.t("card.back"), on_back, ident=RULES_BACK, width=width),
                        ft.Column(
                            [ft.Semantics(identifier=RULE_CARD, key=RULE_CARD, content=ft.Column(body, spacing=12, tight=True))],
                            scroll=ft.ScrollMode.AUTO,
                            expand=True,
                        ),
                    ],
                    spacing=12,
                    expand=True,
                ),
            ),
        )
    ]
