"""Game engines. Each module has the same shape (see docs/engine.md); `GAMES` maps id -> engine."""

from __future__ import annotations

from companion.games import chicago_poker, corruption, reglement, vabanque

GAMES = {game.id: game for game in (vabanque.GAME, corruption.GAME, reglement.GAME, chicago_poker.GAME)}
