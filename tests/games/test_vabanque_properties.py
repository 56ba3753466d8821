"""Vabanque properties over random games (Hypothesis seeds + GAME.random_action).

The payout oracle and the turn-order oracle are written independently of the engine: payouts are
summed per pawn and per Cheat card (the engine works per table), the new order is built by
walking money levels from the richest down and reversing each level's previous order (the engine
sorts with a key).
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass, field
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import BOARD, Outcome, RuleError
from companion.games.vabanque import (
    ACTION_ADAPTER,
    GAME,
    MESSAGES,
    MovePawn,
    NextRound,
    PlaceCard,
    PlaceChip,
    Ready,
    Setup,
    State,
)
from companion.i18n import translator
from tests.games.scale import examples, seeds
from tests.games.test_vabanque_golden import players

TABLES = {3: 7, 4: 9, 5: 10, 6: 12}
CHIPS_EACH = {1: 4, 2: 3, 3: 2, 4: 1}
HYPOTHESIS = settings(max_examples=examples(30), deadline=None, database=None)


@dataclass
class Step:
    before: State
    action: Any
    outcome: Outcome


@dataclass
class Played:
    initial: State
    steps: list[Step] = field(default_factory=list)

    @property
    def final(self) -> State:
        return self.steps[-1].outcome.state if self.steps else self.initial

    @property
    def actions(self) -> list[Any]:
        return [s.action for s in self.steps]


def near_pawn_action(state: State, rng: random.Random) -> Any:
    """A legal action that puts cards next to pawns (within a pawn's reach) far more often than
    uniform play does, so Cheats meet pawns and several pawns share tables."""
    action = GAME.random_action(state, rng)
    if isinstance(action, PlaceCard) and rng.random() < 0.7:
        base = rng.choice(state.pawns)
        table = (base - 1 + rng.randrange(3)) % state.tables + 1
        return PlaceCard(by=action.by, table=table, card=action.card)
    if isinstance(action, MovePawn) and rng.random() < 0.5:
        # walk onto the busiest reachable table
        here = state.pawns[action.by]
        reach = [(here - 1 + s) % state.tables + 1 for s in range(5)]
        busy = [sum(1 for p in state.placements if p.table == t) + state.pawns.count(t) for t in reach]
        return MovePawn(by=action.by, steps=busy.index(max(busy)))
    return action


def play(n: int, seed: int, *, rule: str = "additive", first: int | None = None, biased: bool = False) -> Played:
    setup = Setup(players=players(n), first_player=first, raise_rule=rule)
    state = GAME.initial_state(setup, seed)
    game = Played(initial=state)
    rng = random.Random(seed)
    while True:
        action = near_pawn_action(state, rng) if biased else GAME.random_action(state, rng)
        if action is None:
            return game
        outcome = GAME.apply(state, action)
        game.steps.append(Step(state, action, outcome))
        state = outcome.state


games = st.builds(
    play,
    n=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    rule=st.sampled_from(["additive", "doubling"]),
    first=st.none() | st.integers(0, 2),
    biased=st.booleans(),
)


# --- oracles ------------------------------------------------------------------------------------


def oracle_gain(state: State) -> list[int]:
    """Money won this round, per pawn and per Cheat card (docs/rules/vabanque.md#payout), from the state right
    after the payout (chips, pawns and the round's cards are still on the tables)."""
    n = len(state.setup.players)

    def worth(table: int) -> int:
        raises = [p for p in state.placements if p.table == table and p.card == "raise"]
        multiplier = 2 ** len(raises) if state.setup.raise_rule == "doubling" else len(raises) + 1
        return 1000 * multiplier * sum(state.chips[table - 1])

    gain = [0] * n
    for owner in range(n):  # each pawn
        table = state.pawns[owner]
        cards_here = [p for p in state.placements if p.table == table]
        if any(p.card == "cheat" and p.seat != owner for p in cards_here):
            continue  # an opponent's Cheat takes it
        gain[owner] += worth(table)
    for card in state.placements:  # each Cheat card
        if card.card != "cheat":
            continue
        victims = [s for s in range(n) if s != card.seat and state.pawns[s] == card.table]
        gain[card.seat] += worth(card.table) * len(victims)
    return gain


def oracle_order(previous: tuple[int, ...], money: tuple[int, ...]) -> tuple[int, ...]:
    """Richest first; a group with equal money plays in the reverse of its previous order."""
    order: list[int] = []
    for level in sorted(set(money), reverse=True):
        group = [seat for seat in previous if money[seat] == level]
        order.extend(group[::-1])
    return tuple(order)


def legality_problems(state: State, action: Any) -> set[str]:
    """Every rule an action breaks, judged from the rules alone (empty: the action is legal)."""
    n = len(state.setup.players)
    if state.phase == "over":
        return {"vabanque.err.game_over"}
    if not 0 <= action.by < n:
        return {"vabanque.err.unknown_seat"}
    problems: set[str] = set()
    wanted = {"place_chip": "chips", "place_card": "cards", "move_pawn": "moves", "next_round": "payout"}[action.type]
    if state.phase != wanted:
        problems.add("vabanque.err.wrong_phase")
    elif action.type != "next_round":
        n_done = state.step
        if action.by != state.order[n_done % n]:
            problems.add("vabanque.err.not_your_turn")
    if action.type in ("place_chip", "place_card") and not 1 <= action.table <= TABLES[n]:
        problems.add("vabanque.err.unknown_table")
    if action.type == "place_card" and any(p.seat == action.by and p.card == action.card for p in state.placements):
        problems.add("vabanque.err.card_used")
    if action.type == "move_pawn" and not 0 <= action.steps <= 4:
        problems.add("vabanque.err.move_too_far")
    return problems


def template_fields(code: str) -> set[str]:
    return {f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(MESSAGES[code]) if f}


# --- properties ---------------------------------------------------------------------------------


def check_payouts(game: Played) -> int:
    """Each payout's gain matches the oracle; returns how many payouts had a Cheat meet a pawn."""
    interesting = 0
    for step in game.steps:
        before, after = step.before.money, step.outcome.state.money
        assert all(b <= a for b, a in zip(before, after)), "money never decreases"
        if not step.outcome.reveals:
            assert before == after, "money only changes at a payout"
            continue
        state = step.outcome.state
        assert state.phase in ("payout", "over")
        gain = [a - b for b, a in zip(before, after)]
        assert gain == oracle_gain(state)
        # only (and every) table with a pawn is revealed, once, in table order
        assert [p.table for p in state.payouts] == sorted(set(state.pawns))
        for payout in state.payouts:
            assert all(c.table == payout.table for c in payout.cards)
            assert set(payout.pawns) == {s for s, t in enumerate(state.pawns) if t == payout.table}
        interesting += any(p.pawn_blocked or any(a for _, a in p.cheat_paid) for p in state.payouts)
    return interesting


@HYPOTHESIS
@given(game=games)
def test_every_payout_matches_the_oracle(game: Played) -> None:
    check_payouts(game)


def test_payout_oracle_over_seeded_games_with_cheats_meeting_pawns() -> None:
    """Deterministic companion of the Hypothesis test, which also proves the games exercised
    blocked pawns and paying Cheats (not only quiet tables)."""
    interesting = 0
    for seed in seeds(24):
        game = play(3 + seed % 4, seed, rule=("additive", "doubling")[seed % 2], biased=seed % 3 != 0)
        interesting += check_payouts(game)
    assert interesting >= 20


def check_turn_order(game: Played) -> None:
    n = len(game.initial.setup.players)
    acted: dict[tuple[int, str], list[int]] = {}
    order_of_round = {1: game.initial.order}
    for step in game.steps:
        state, action = step.before, step.action
        if isinstance(action, Ready):  # reveal and next round wait for every seat, in any order
            assert action.by in GAME.waiting_for(state) and action.by not in state.ready
            assert set(GAME.waiting_for(state)) == set(state.order) - set(state.ready)
            if state.phase == "payout" and step.outcome.state.phase == "chips":
                order_of_round[step.outcome.state.round] = step.outcome.state.order
            continue
        if isinstance(action, NextRound):
            assert GAME.waiting_for(state) == state.order
            started = step.outcome.rulings[0]
            assert started.code == "vabanque.round_started"
            assert started.params["seat"] == step.outcome.state.order[0]
            order_of_round[step.outcome.state.round] = step.outcome.state.order
            continue
        assert GAME.waiting_for(state) == (action.by,)
        acted.setdefault((state.round, state.phase), []).append(action.by)
        if step.outcome.reveals and state.round < 4:
            after = step.outcome.state
            assert after.order == oracle_order(state.order, after.money)
    for round_ in range(1, 5):
        order = order_of_round[round_]
        chips = acted[(round_, "chips")]
        assert chips == [order[i % n] for i in range(n * CHIPS_EACH[round_])]
        assert acted[(round_, "cards")] == list(order) * 3
        assert acted[(round_, "moves")] == list(order)


@HYPOTHESIS
@given(game=games)
def test_every_phase_follows_the_turn_order(game: Played) -> None:
    check_turn_order(game)


def test_turn_order_over_seeded_games_including_ties() -> None:
    """Ties happen (everyone at 0 after round 1 is common with 5-chips), so the reversal is
    exercised, not only the sort."""
    ties = 0
    for seed in seeds(16):
        game = play(3 + seed % 4, 1000 + seed, biased=bool(seed % 2))
        check_turn_order(game)
        ties += sum(
            1 for s in game.steps if s.outcome.reveals and any(r.code == "vabanque.tie_reversed" for r in s.outcome.rulings)
        )
    assert ties >= 3


@HYPOTHESIS
@given(game=games)
def test_replay_gives_an_equal_state(game: Played) -> None:
    """The room persists actions as JSON and replays them: same actions, same state, same
    rulings."""
    state = GAME.initial_state(game.initial.setup, game.initial.seed)
    assert state.model_dump_json() == game.initial.model_dump_json()
    for step in game.steps:
        action = ACTION_ADAPTER.validate_json(ACTION_ADAPTER.dump_json(step.action))
        outcome = GAME.apply(state, action)
        assert outcome.rulings == step.outcome.rulings
        assert outcome.reveals == step.outcome.reveals
        state = outcome.state
    assert state.model_dump_json() == game.final.model_dump_json()


@HYPOTHESIS
@given(game=games)
def test_random_play_is_legal_and_ends_after_four_rounds(game: Played) -> None:
    n = len(game.initial.setup.players)
    final = game.final
    assert final.phase == "over" and final.round == 4
    assert GAME.random_action(final, random.Random(0)) is None
    assert GAME.waiting_for(final) == ()
    # random play says Ready for every seat: before each of the 4 reveals and each of the 3 next rounds
    assert sum(isinstance(a, Ready) for a in game.actions) == n * (4 + 3)
    assert sum(isinstance(a, PlaceChip) for a in game.actions) == n * (4 + 3 + 2 + 1)
    assert sum(isinstance(a, PlaceCard) for a in game.actions) == n * 3 * 4
    assert sum(isinstance(a, MovePawn) for a in game.actions) == n * 4
    assert sum(s.outcome.reveals for s in game.steps) == 4
    best = max(final.money)
    assert GAME.result(final) == {"money": list(final.money), "winners": [s for s in range(n) if final.money[s] == best]}
    for step in game.steps:
        if step.outcome.state.phase != "over":
            assert GAME.result(step.outcome.state) is None


@HYPOTHESIS
@given(game=games)
def test_every_emitted_code_has_a_template_that_renders(game: Played) -> None:
    tr = translator("en")
    names = [p.name for p in game.initial.setup.players]
    for step in game.steps:
        for ruling in (*step.outcome.rulings, *step.outcome.state.round_rulings):
            assert ruling.code in MESSAGES
            assert template_fields(ruling.code) <= set(ruling.params)
            tr.ruling(ruling, names)


def arbitrary_action(rng: random.Random, n: int) -> Any:
    by = rng.randint(-1, n)
    kind = rng.randrange(4)
    if kind == 0:
        return PlaceChip(by=by, table=rng.randint(-1, 13))
    if kind == 1:
        return PlaceCard(by=by, table=rng.randint(-1, 13), card=rng.choice(["raise", "bluff", "cheat"]))
    if kind == 2:
        return MovePawn(by=by, steps=rng.randint(-2, 6))
    return NextRound(by=by)


@HYPOTHESIS
@given(game=games, salt=st.integers(0, 2**16))
def test_arbitrary_actions_are_accepted_exactly_when_the_rules_allow(game: Played, salt: int) -> None:
    """Fuzz: at every state of a random game (and its end), throw random actions. The engine
    accepts exactly the legal ones; a rejection carries a code naming a rule the action really
    breaks, whose template renders with the error's params, and changes nothing."""
    rng = random.Random(salt)
    n = len(game.initial.setup.players)
    names = [p.name for p in game.initial.setup.players]
    tr = translator("en")
    states = [s.before for s in game.steps] + [game.final]
    for state in rng.sample(states, min(len(states), 40)) + [game.final]:
        dumped = state.model_dump_json()
        for _ in range(6):
            action = arbitrary_action(rng, n)
            problems = legality_problems(state, action)
            try:
                GAME.apply(state, action)
            except RuleError as error:
                assert problems, f"{action!r} is legal but was rejected with {error.code}"
                assert error.code in problems
                assert error.code in MESSAGES
                tr.error(error.code, error.params, names)
            else:
                assert not problems, f"{action!r} breaks {problems} but was accepted"
            assert state.model_dump_json() == dumped


@HYPOTHESIS
@given(game=games)
def test_board_view_reveals_only_pawn_tables(game: Played) -> None:
    """At every payout (and the end) the board sees the cards of pawn tables and nothing else."""
    for step in game.steps:
        if not step.outcome.reveals:
            continue
        state = step.outcome.state
        view = GAME.project(state, BOARD)
        pawn_tables = set(state.pawns)
        shown = {(c.seat, c.table, c.card) for p in view.payouts for c in p.cards}
        expected = {(p.seat, p.table, p.card) for p in state.placements if p.table in pawn_tables}
        assert shown == expected
        for table in view.tables:
            assert (table.payout is not None) == (table.number in pawn_tables)
