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
