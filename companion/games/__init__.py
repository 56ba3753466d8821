"""Game engines. Each module has the same shape (see docs/engine.md); `GAMES` maps id -> engine."""

from __future__ import annotations

from companion.engine import AnyGame, Game
from companion.games import chicago_poker, corruption, reglement, vabanque

# Each engine satisfies the contract with its own setup, state and action types (the type
# checker holds each to them here); the rooms read any of them as `AnyGame`.
_VABANQUE: Game[vabanque.Setup, vabanque.State, vabanque.Action] = vabanque.GAME
_CORRUPTION: Game[corruption.Setup, corruption.State, corruption.Action] = corruption.GAME
_REGLEMENT: Game[reglement.Setup, reglement.State, reglement.Action] = reglement.GAME
_CHICAGO_POKER: Game[chicago_poker.Setup, chicago_poker.State, chicago_poker.Action] = chicago_poker.GAME

GAMES: dict[str, AnyGame] = {game.id: game for game in (_VABANQUE, _CORRUPTION, _REGLEMENT, _CHICAGO_POKER)}
