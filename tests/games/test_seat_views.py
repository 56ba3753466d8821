"""Every game's seat view drawn from its board view (`seat_view`, what the room does for each
phone: one public projection a state) is exactly the seat's own projection."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine import BOARD, seat_audience
from companion.games import GAMES

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black")


def random_states(game: Any, count: int) -> Any:
    """Every state of `count` seeded random games, over the player counts and house rules."""
    rules = [(rule, value) for rule, values in game.house_rules.items() for value in values] or [(None, None)]
    for seed in range(count):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        rule, value = rules[seed % len(rules)]
        setup = {"players": [{"name": f"P{i}", "colour": COLOURS[i]} for i in range(players)]}
        if rule is not None:
            setup[rule] = value
        state, rng = game.initial_state(game.setup_model.model_validate(setup), seed), random.Random(seed)
        yield state
        while (action := game.random_action(state, rng)) is not None:
            state = game.apply(state, action).state
            yield state


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_seats_view_from_the_board_view_is_its_own_projection(game_id: str) -> None:
    game = GAMES[game_id]
    checked = 0
    for i, state in enumerate(random_states(game, 4)):
        if i % 3:  # a third of each game's states: every phase, a few seconds a game
            continue
        board = game.project(state, BOARD)
        for seat in range(len(state.setup.players)):
            own = game.project(state, seat_audience(seat))
            drawn = game.seat_view(state, seat, board)
            assert drawn == own, (game_id, i, seat)
            assert drawn.model_dump() == own.model_dump()
            checked += 1
    assert checked > 100
