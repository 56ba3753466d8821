"""The step panels' shared position: which step of a set of steps (a shootout's, a turn's rulings,
a round's awards or payout) a page shows, kept in the page's ui state (`ctx.ui`, a view state,
never a game action).

A panel opens on the newest step whenever a new set of steps arrives: a set is named by what it
is about (`about`: the shootout, the turn, the round, with whatever changes its last step) and
by how many steps it holds, and the position kept is worth only for that set; a grown or another
set opens on its last step, which is what just happened. Within one set the page's Previous and
Next taps move the position and every redraw keeps it.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from views.common import ACCENT, big_button, handler
from views.context import GameContext


def shown_step(ctx: GameContext, key: Any, about: Any, total: int) -> int:
    """The step (0-based) the panel `key` shows of a set of `total` steps about `about`: where
    this page's taps left it in the same set, else the newest (kept from now on)."""
    if total <= 0:
        return 0
    kept = ctx.ui.get(key)
    if isinstance(kept, tuple) and len(kept) == 3 and kept[0] == about and kept[1] == total:
        return max(0, min(int(kept[2]), total - 1))
    ctx.ui[key] = (about, total, total - 1)
    return total - 1


def go_to_step(ctx: GameContext, key: Any, about: Any, total: int, index: int) -> None:
    """Keep step `index` (clamped to the set) as the one the panel `key` shows of this set."""
    ctx.ui[key] = (about, total, max(0, min(total - 1, index)))


def step_buttons(
    ctx: GameContext,
    key: Any,
    index: int,
    total: int,
    *,
    ident_prefix: str = "step",
    last_text: str | None = None,
    next_colour: str | None = None,
) -> ft.Control:
    """Previous and Next (and, given `last_text`, a jump to the newest step) of the step panel
    `key`, one part per page: its taps move from the step the page shows when tapped (kept in
    `ctx.ui[key]`), so the buttons are the same at every step and a step costs their flags."""
    async def move(delta: int | None) -> None:
        kept = ctx.ui.get(key)
        if not (isinstance(kept, tuple) and len(kept) == 3):
            return
        about, kept_total, kept_index = kept
        go_to_step(ctx, key, about, kept_total, kept_total - 1 if delta is None else kept_index + delta)
        await ctx.rerender()

    # one part per button, drawn from whether it can be tapped: a step moves no button
    tr = ctx.tr
    left = total - 1 - index
    buttons = [
        ctx.part(f"{ident_prefix}-previous", index == 0, lambda: big_button(tr.t("ui.previous"), handler(move, -1), ident=f"{ident_prefix}-previous", colour="#B0BEC5", disabled=index == 0)),
        ctx.part(f"{ident_prefix}-next", (left <= 0, next_colour), lambda: big_button(tr.t("ui.next"), handler(move, 1), ident=f"{ident_prefix}-next", colour=next_colour or ACCENT, disabled=left <= 0)),
    ]
    if last_text is not None:
        buttons.append(ctx.part(f"{ident_prefix}-last", (left <= 0, last_text), lambda: big_button(last_text, handler(move, None), ident=f"{ident_prefix}-last", colour="#B0BEC5", disabled=left <= 0)))
    return ctx.group(f"{ident_prefix}-buttons", None, buttons, lambda buttons: ft.Row(buttons, spacing=8, wrap=True, tight=True, key=f"{ident_prefix}-buttons"))
