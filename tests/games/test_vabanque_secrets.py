"""Vabanque non-interference: which card a player puts at a table is their secret.

Twin games are played with the same actions except that one seat's cards are permuted among
that seat's own placements of one round (the tables are public, so they stay; only which card
lies where changes). Until the rules reveal the cards, the board and every other seat must see
exactly the same thing in both games. Cards at tables without a pawn are never revealed, so twins
differing only there must look identical to the others forever.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.engine import BOARD, seat_audience
from companion.games.vabanque import GAME, MovePawn, NextRound, PlaceCard, PlaceChip, Setup, State
from tests.games.test_vabanque_golden import players

PERMUTATIONS = [p for p in itertools.permutations(range(3)) if p != (0, 1, 2)]


def random_game(n: int, seed: int) -> tuple[State, list[Any], list[int]]:
    """A random game: initial state, its actions, and the round each action was taken in."""
    state = GAME.initial_state(Setup(players=players(n)), seed)
    initial, actions, rounds = state, [], []
    rng = random.Random(seed)
    while (action := GAME.random_action(state, rng)) is not None:
        actions.append(action)
        rounds.append(state.round)
        state = GAME.apply(state, action).state
    return initial, actions, rounds


def permute_cards(actions: list[Any], rounds: list[int], seat: int, round_: int, indices: list[int], perm: tuple[int, ...]) -> list[Any]:
    """The twin: `seat`'s cards at positions `indices` (its PlaceCard actions of `round_`, in
    play order) are rearranged by `perm`; every table stays where it was."""
    mine = [i for i, a in enumerate(actions) if isinstance(a, PlaceCard) and a.by == seat and rounds[i] == round_]
    chosen = [mine[i] for i in indices]
    cards = [actions[i].card for i in chosen]
    twin = list(actions)
    for position, i in enumerate(chosen):
        twin[i] = actions[i].model_copy(update={"card": cards[perm[position]]})
    return twin


def views(state: State, n: int, skip: int | None = None) -> dict[str, str]:
    seen = {"board": GAME.project(state, BOARD).model_dump_json()}
    for k in range(n):
        if k != skip:
            seen[f"seat {k}"] = GAME.project(state, seat_audience(k)).model_dump_json()
    return seen


def own_view(state: State, seat: int) -> str:
    return GAME.project(state, seat_audience(seat)).model_dump_json()


def public_trace(outcome: Any) -> Any:
    return [r.model_dump() for r in outcome.rulings], outcome.reveals


@settings(max_examples=20, deadline=None, database=None)
@given(
    n=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    seat_pick=st.integers(0, 5),
    round_=st.integers(1, 4),
    perm=st.sampled_from(PERMUTATIONS),
)
def test_one_seats_cards_are_invisible_to_others_until_the_payout(n: int, seed: int, seat_pick: int, round_: int, perm: tuple[int, ...]) -> None:
    seat = seat_pick % n
    initial, actions, rounds = random_game(n, seed)
    twin_actions = permute_cards(actions, rounds, seat, round_, [0, 1, 2], perm)
    assert twin_actions != actions
    assert [GAME.redact(a) for a in twin_actions] == [GAME.redact(a) for a in actions]

    one = two = initial
    own_differed = False
    for action, twin_action, r in zip(actions, twin_actions, rounds):
        out_one, out_two = GAME.apply(one, action), GAME.apply(two, twin_action)
        if r == round_ and out_one.reveals:
            # the reveal (the last seat ready) is the payout, which shows cards: stop before it
            break
        one, two = out_one.state, out_two.state
        if r < round_ or isinstance(action, PlaceChip):
            assert action == twin_action  # the games only part at the round's first card
            continue
        assert public_trace(out_one) == public_trace(out_two), "rulings go to the board"
        assert views(one, n, skip=seat) == views(two, n, skip=seat)
        assert GAME.waiting_for(one) == GAME.waiting_for(two)
        own_differed |= own_view(one, seat) != own_view(two, seat)
    # every pawn has moved and the round waits for the last seat's ready: still nothing shown
    assert one.round == round_ and one.phase == "reveal" and len(one.ready) == n - 1
    assert own_view(one, seat) != own_view(two, seat), "the seat sees its own cards where they lie"
    assert own_differed


def pawnless_candidates(initial: State, actions: list[Any], rounds: list[int]) -> list[tuple[int, int, list[int]]]:
    """(round, seat, indices of that seat's PlaceCards) with 2+ cards at tables where no pawn
    stands at that round's payout."""
    n = len(initial.setup.players)
    state = initial
    found = []
    for i, action in enumerate(actions):
        outcome = GAME.apply(state, action)
        state = outcome.state
        if outcome.reveals:
            round_ = rounds[i]
            for seat in range(n):
                mine = [p for p in state.placements if p.seat == seat]
                hidden = [j for j, p in enumerate(mine) if p.table not in state.pawns]
                if len(hidden) >= 2:
                    found.append((round_, seat, hidden))
    return found


@settings(max_examples=15, deadline=None, database=None)
@given(n=st.integers(3, 6), seed=st.integers(0, 2**32), pick=st.integers(0, 1000), swap=st.integers(0, 5))
def test_cards_at_pawnless_tables_stay_secret_forever(n: int, seed: int, pick: int, swap: int) -> None:
    """Twins differ only in which of one seat's cards lie at tables no pawn reaches: the board
    and the other seats see the same thing during the round, at its payout, after it and at the
    end of the game."""
    initial, actions, rounds = random_game(n, seed)
    candidates = pawnless_candidates(initial, actions, rounds)
    assume(candidates)
    round_, seat, hidden = candidates[pick % len(candidates)]
    if len(hidden) == 2:
        indices, perm = hidden, (1, 0)
    else:
        indices, perm = hidden, PERMUTATIONS[swap % len(PERMUTATIONS)]
    twin_actions = permute_cards(actions, rounds, seat, round_, indices, perm)
    assert twin_actions != actions

    one = two = initial
    for action, twin_action, r in zip(actions, twin_actions, rounds):
        out_one, out_two = GAME.apply(one, action), GAME.apply(two, twin_action)
        one, two = out_one.state, out_two.state
        if r < round_ or isinstance(action, PlaceChip):
            assert action == twin_action
            continue
        assert public_trace(out_one) == public_trace(out_two)
        assert views(one, n, skip=seat) == views(two, n, skip=seat)
        assert one.money == two.money
        if r == round_ and one.round > r:
            # the cards went back to the hands: the two games are now the same game
            assert one.model_dump_json() == two.model_dump_json()
            break
    if round_ == 4:
        assert one.phase == "over" and two.phase == "over"
        assert GAME.result(one) == GAME.result(two)
        assert own_view(one, seat) != own_view(two, seat)


def test_pawnless_twins_include_the_final_round() -> None:
    """Make sure the end-of-game case (round 4 cards left lying on the tables) is exercised."""
    checked = 0
    for seed in range(60):
        initial, actions, rounds = random_game(4, seed)
        final_round = [c for c in pawnless_candidates(initial, actions, rounds) if c[0] == 4]
        if not final_round:
            continue
        _, seat, hidden = final_round[0]
        twin = permute_cards(actions, rounds, seat, 4, hidden[:2], (1, 0))
        one, two = initial, initial
        for a, b in zip(actions, twin):
            one, two = GAME.apply(one, a).state, GAME.apply(two, b).state
        assert one.phase == "over"
        assert views(one, 4, skip=seat) == views(two, 4, skip=seat)
        assert one.placements != two.placements
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_redact_drops_the_card_and_only_card_placements_are_secret() -> None:
    action = PlaceCard(by=2, table=5, card="cheat")
    shown = GAME.redact(action)
    assert shown == {"type": "place_card", "by": 2, "table": 5}
    assert "cheat" not in repr(shown)
    assert {GAME.redact(PlaceCard(by=2, table=5, card=c)).__repr__() for c in ("raise", "bluff", "cheat")} == {repr(shown)}
    assert not GAME.is_public(action)
    for public in (PlaceChip(by=0, table=3), MovePawn(by=1, steps=2), NextRound(by=0)):
        assert GAME.is_public(public)
        assert GAME.redact(public) == public.model_dump()


def test_card_placed_ruling_names_the_table_never_the_card() -> None:
    initial, actions, _ = random_game(5, 11)
    state = initial
    for action in actions:
        outcome = GAME.apply(state, action)
        if isinstance(action, PlaceCard):
            placed = [r for r in outcome.rulings if r.code == "vabanque.card_placed"]
            assert [r.params for r in placed] == [{"seat": action.by, "table": action.table}]
            assert action.card not in repr([r.params for r in outcome.rulings])
        state = outcome.state
