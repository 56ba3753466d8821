"""After a Vabanque payout or the Corruption awards the board sums up each player's round in one line (issue #15):
"Bo +0: Dmitri's Cheat took table 3", in every language."""

from __future__ import annotations

import random

from companion.engine import BOARD
from companion.games import GAMES
from companion.games.vabanque import CardPlacement, TablePayout
from companion.i18n import LANGUAGES
from views.games.vabanque.pieces import round_summary
from views.i18n import translator

NAMES = ["Anna", "Bo", "Dmitri"]


def test_each_player_gets_a_line_with_what_they_gained_and_why() -> None:
    cheat = TablePayout(
        table=3, chips=10, raises=0, value=10, pawns=(1,), pawn_paid=(), pawn_blocked=(1,), cheat_paid=((2, 10_000),),
        cards=(CardPlacement(seat=2, table=3, card="cheat"),),
    )
    paid = TablePayout(table=6, chips=5, raises=1, value=10, pawns=(2,), pawn_paid=((2, 10_000),), pawn_blocked=(), cheat_paid=(), cards=())
    title, *lines = round_summary(translator("en"), NAMES, 3, (cheat, paid), 1)
    assert title == "Round 1 in short"
    assert lines == [
        "Anna +0: no pawn at a paying table",
        "Bo +0: Dmitri's Cheat took table 3",
        "Dmitri +20,000: Cheat at table 3 and pawn paid at table 6",
    ]
    for lang in LANGUAGES:
        title, *lines = round_summary(translator(lang), NAMES, 3, (cheat, paid), 1)
        assert len(lines) == 3 and all(line.startswith(name) for line, name in zip(lines, NAMES, strict=True))
        assert "Dmitri" in lines[1] and "3" in lines[1] and "{" not in "".join(lines)


def test_the_summary_adds_up_to_what_the_round_gave() -> None:
    game = GAMES["vabanque"]
    setup = game.setup_model.model_validate({"players": [{"name": n, "colour": c} for n, c in zip(NAMES, ["red", "blue", "green"], strict=True)]})
    for seed in range(10):
        state, rng = game.initial_state(setup, seed), random.Random(seed)
        while game.project(state, BOARD).phase not in ("payout", "over"):
            state = game.apply(state, game.random_action(state, rng)).state
        view = game.project(state, BOARD)
        _title, *lines = round_summary(translator("en"), NAMES, 3, view.payouts, view.round)
        gains = state.round_gains[-1]
        assert [line.split(":")[0] for line in lines] == [f"{n} +{g:,}" for n, g in zip(NAMES, gains, strict=True)]


def test_corruption_awards_end_with_each_players_contracts_won() -> None:
    from views.games.corruption.pieces import round_summary as corruption_summary

    game = GAMES["corruption"]
    players = [{"name": n, "colour": c} for n, c in zip(NAMES, ["red", "blue", "green"], strict=True)]
    checked = 0
    for seed in range(6):
        state, rng = game.initial_state(game.setup_model.model_validate({"players": players, "first_player": 0}), seed), random.Random(seed)
        while not (view := game.project(state, BOARD)).award_log and (action := game.random_action(state, rng)) is not None:
            state = game.apply(state, action).state
        if not view.award_log:
            continue
        title, *lines = corruption_summary(translator("en"), NAMES, view)
        assert title == f"Round {view.round} in short" and len(lines) == 3
        for seat, line in enumerate(lines):
            won = [c for b in view.bodies for c in b.contracts if c.award and c.award.outcome == "won" and c.award.winner == seat]
            assert line.startswith(f"{NAMES[seat]} +{sum(c.value for c in won):,}: ")
            assert all(f"won {c.name}" in line for c in won) and (won or line.endswith("no contract won"))
        for lang in LANGUAGES:
            assert "{" not in "".join(corruption_summary(translator(lang), NAMES, view))
        checked += 1
    assert checked
