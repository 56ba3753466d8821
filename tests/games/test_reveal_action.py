"""The reveal is its own action in every game that hides placements (docs/engine.md "Reveals,
readiness and take-back"): the action completing the hidden phase reveals nothing; the host
board's `reveal`, or the last of every seat's `ready`, does, and it alone is the undo boundary."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.engine import BOARD, RuleError, seat_audience
from companion.games import GAMES
from companion.room import apply_logged

PLAYERS = [{"name": n, "colour": c} for n, c in [("Ann", "red"), ("Bob", "blue"), ("Cyd", "green"), ("Dee", "yellow")]]
#: (game, what the reveal resolves): Chicago Poker waits for two kinds of reveal
CASES = [("vabanque", None), ("corruption", None), ("chicago_poker", "shootout"), ("chicago_poker", "reinforcements")]


def waiting_game(game_id: str, pending: str | None, seed: int) -> tuple[Any, Any, Any, Any]:
    """Random play until the game first waits for a reveal (of that kind); returns (game, the
    state before the completing action, the completing action, its outcome)."""
    game = GAMES[game_id]
    for tried in range(seed * 100, seed * 100 + 20):  # a tie (reinforcements) is not in every game
        state = game.initial_state(game.setup_model.model_validate({"players": PLAYERS}), tried)
        rng = random.Random(tried)
        while (action := game.random_action(state, rng)) is not None:
            outcome = game.apply(state, action)
            if game.awaiting_reveal(outcome.state) and (pending is None or outcome.state.pending_reveal == pending):
                return game, state, action, outcome
            state = outcome.state
    raise AssertionError(f"{game_id}: no {pending or 'reveal'} in 20 games")


@pytest.mark.parametrize("game_id,pending", CASES, ids=[f"{g}-{p}" if p else g for g, p in CASES])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_completing_action_waits_and_the_reveal_or_every_ready_reveals(game_id: str, pending: str | None, seed: int) -> None:
    game, before, completing, waiting = waiting_game(game_id, pending, seed)
    state = waiting.state
    # the action completing the phase reveals nothing (a deck card turned up for a tied player
    # shows that card, which nobody held: never the picks)
    assert not waiting.reveals or completing.type == "reveal_deck_card"
    board = game.project(state, BOARD)
    assert board.awaiting_reveal and board.phase == "reveal" and board.ready == ()
    assert board.board_legal.reveal and board.board_legal.ready
    assert set(game.waiting_for(state)) == set(range(len(PLAYERS)))
    for seat in range(len(PLAYERS)):
        assert game.project(state, seat_audience(seat)).my_legal.ready
    # The host board's reveal.
    Reveal, Ready = (type(game.action_adapter.validate_python({"type": t, "by": b})) for t, b in (("reveal", None), ("ready", 0)))
    revealed = game.apply(state, Reveal())
    assert revealed.reveals and revealed.rulings[0].code.endswith("revealed")
    assert game.host_only(Reveal()) == f"{game_id}.err.host_reveals" and game.host_only(Ready(by=0)) is None
    # Every seat ready, in some order: only the last one reveals, to the same state.
    order = list(range(len(PLAYERS)))
    random.Random(seed).shuffle(order)
    ready = state
    for i, seat in enumerate(order):
        outcome = game.apply(ready, Ready(by=seat))
        ready = outcome.state
        if i < len(order) - 1:
            assert not outcome.reveals and game.awaiting_reveal(ready)
            assert game.project(ready, BOARD).ready == tuple(order[: i + 1])
            assert seat not in game.waiting_for(ready) and not game.project(ready, seat_audience(seat)).my_legal.ready
            with pytest.raises(RuleError) as caught:
                game.apply(ready, Ready(by=seat))
            assert caught.value.code == f"{game_id}.err.already_ready"
        else:
            assert outcome.reveals
            assert [r.code for r in outcome.rulings][:2] == [f"{game_id}.ready", f"{game_id}.all_ready"]
    assert ready.model_dump() == revealed.state.model_dump()
    # A log of format 1 reads the completing action as it was then: revealing at once.
    old = apply_logged(game, before, completing, 1)
    assert old.reveals and old.rulings[: len(waiting.rulings)] == waiting.rulings
    later = revealed.state
    while game.awaiting_reveal(later):  # a won shootout may make the next one due at once
        later = game.reveal(later).state
    assert old.state.model_dump() == later.model_dump()


@pytest.mark.parametrize("game_id", ["vabanque", "corruption", "chicago_poker"])
def test_reveal_and_ready_are_refused_when_nothing_waits(game_id: str) -> None:
    game = GAMES[game_id]
    state = game.initial_state(game.setup_model.model_validate({"players": PLAYERS}), 1)
    for raw in ({"type": "reveal"}, {"type": "ready", "by": 0}):
        with pytest.raises(RuleError) as caught:
            game.apply(state, game.action_adapter.validate_python(raw))
        assert caught.value.code == f"{game_id}.err.wrong_phase"


def test_reglement_never_waits_for_a_reveal() -> None:
    game = GAMES["reglement"]
    state = game.initial_state(game.setup_model.model_validate({"players": PLAYERS}), 1)
    rng = random.Random(1)
    while (action := game.random_action(state, rng)) is not None:
        state = game.apply(state, action).state
        assert not game.awaiting_reveal(state)
    with pytest.raises(RuleError) as caught:
        game.reveal(state)
    assert caught.value.code == "reglement.err.nothing_to_reveal"
