"""Final standings (companion/standings.py and each game's `standings(state)`): every game ends
with one row per player, best first, rank 1 exactly the game's winners, ties sharing a rank, and
a breakdown that renders in every language."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games import GAMES
from companion.i18n import LANGUAGES
from companion.standings import Detail, ranked
from views.i18n import translator

PLAYERS = [{"name": n, "colour": c} for n, c in [("Anna", "red"), ("Boris", "blue"), ("Chloe", "green"), ("Dmitri", "yellow")]]


def play_to_the_end(game_id: str, seed: int, players: int = 4) -> tuple[Any, Any, list[Any]]:
    """A whole game by random legal actions; returns the game, the last state and every state."""
    game = GAMES[game_id]
    state = game.initial_state(game.setup_model.model_validate({"players": PLAYERS[:players]}), seed)
    states = [state]
    rng = random.Random(seed)
    while (action := game.random_action(state, rng)) is not None:
        state = game.apply(state, action).state
        states.append(state)
    return game, state, states


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_finished_game_ranks_every_player_with_the_winners_first(game_id: str, seed: int) -> None:
    game, state, states = play_to_the_end(game_id, seed, players=3 + seed % 2)
    assert all(game.standings(s) is None for s in states[:-1]), "no standings before the end"
    rows = game.standings(state)
    result = game.result(state)
    assert sorted(r.seat for r in rows) == list(range(len(state.setup.players)))
    assert {r.seat for r in rows if r.rank == 1} == set(result["winners"])
    assert all(r.winner == (r.seat in result["winners"]) for r in rows)
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    scores = result.get("money") or result.get("score")
    assert [r.score for r in sorted(rows, key=lambda r: r.seat)] == list(scores)
    # among the non-winners, a better rank never has less money or score
    losers = [r for r in rows if not r.winner]
    assert all(a.score >= b.score for a, b in zip(losers, losers[1:]))
    for position, row in enumerate(rows):  # competition ranking: a rank is 1 + how many are ahead
        ahead = [r for r in rows[:position] if r.rank < row.rank]
        assert row.rank == len(ahead) + 1
        assert row.details, f"{game_id}: no breakdown for seat {row.seat}"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_breakdown_reads_in_every_language(game_id: str, lang: str) -> None:
    game, state, _ = play_to_the_end(game_id, 5)
    tr = translator(lang)
    names = [p.name for p in state.setup.players]
    for row in game.standings(state):
        for detail in row.details:
            text = tr.t(detail.code, names, **detail.params)
            assert text and "{" not in text, (detail, text)


def test_vabanque_breakdown_adds_up_to_the_final_money() -> None:
    game, state, _ = play_to_the_end("vabanque", 4)
    for row in game.standings(state):
        paid = [d.params["amount"] for d in row.details if d.code == "standing.vabanque.round"]
        assert len(paid) == 4 and sum(paid) == row.score


def test_corruption_breakdown_lists_the_contracts_won() -> None:
    game, state, _ = play_to_the_end("corruption", 4)
    for row in game.standings(state):
        contracts = [d for d in row.details if d.code == "standing.corruption.contract"]
        assert sum(d.params["amount"] for d in contracts) == row.score
        assert row.details[0].params["n"] == len(contracts)


def test_equal_players_share_a_rank_and_the_next_rank_is_skipped() -> None:
    none: list[list[Detail]] = [[], [], [], []]
    rows = ranked([(5, 2), (7, 1), (5, 2), (5, 1)], [5, 7, 5, 5], [1], "money", none)
    assert [(r.seat, r.rank) for r in rows] == [(1, 1), (0, 2), (2, 2), (3, 4)]
    shared = ranked([(7,), (7,), (3,)], [7, 7, 3], [0, 1], "score", none[:3])
    assert [(r.seat, r.rank, r.winner) for r in shared] == [(0, 1, True), (1, 1, True), (2, 3, False)]


def test_the_games_verdict_beats_the_figure() -> None:
    """A winner by the game's tie-break ranks above a player with the same figure."""
    rows = ranked([(4,), (4,)], [4, 4], [1], "score", [[], []])
    assert [(r.seat, r.rank) for r in rows] == [(1, 1), (0, 2)]


@pytest.mark.parametrize(("lang", "says"), [("en", "dealt in round\u00a02"), ("fr", "distribué manche\u00a02"), ("ru", "выложен в раунде\u00a02")])
def test_a_contract_won_says_the_round_it_was_dealt_in(lang: str, says: str) -> None:
    """A contract carried over is won in a later round than it was dealt: the standings say which
    round they name (a reviewer read "Suspension Bridge (round 2)", won in round 3, as wrong)."""
    from views.i18n import Translator

    tr = Translator(lang)
    assert says in tr.t("standing.corruption.contract", name="Stadium", round=2, amount=500_000)
    assert tr.t("corruption.ui.deferred", round=2).endswith("\u00a02")
