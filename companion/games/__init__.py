"""Game engines. Each module has the same shape (see docs/engine.md); `GAMES` maps id -> engine."""

from __future__ import annotations

from companion.games import vabanque

GAMES = {vabanque.GAME.id: vabanque.GAME}
