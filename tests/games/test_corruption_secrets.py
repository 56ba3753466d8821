"""Corruption: no leak, as non-interference.

Two games that differ only in one seat's face-down or Swiss cards must look the same to the
board, to every other seat, and in the session's public bytes (redacted actions and rulings),
until the award phase reveals the cards. A Little Black Book peek shows a card to the peeker
only. Each test also checks the difference does show where it should (so it could fail).
"""

from __future__ import annotations

import json
import random
from typing import Any

from companion.engine import BOARD, seat_audience
from companion.games.corruption import BODIES, GAME, VARIANTS, PeekCard, PlayCard, Setup
from tests.games.test_corruption import P1, P2, P3, Table, players


def public_bytes(action: Any, rulings: Any) -> str:
    return json.dumps(GAME.redact(action), sort_keys=True) + "".join(r.model_dump_json() for r in rulings)


def views(state: Any, n: int) -> dict[Any, str]:
    seen = {"board": GAME.project(state, BOARD).model_dump_json()}
    for seat in range(n):
        seen[seat] = GAME.project(state, seat_audience(seat)).model_dump_json()
    return seen


def compare_until_reveal(actions_a: list[Any], actions_b: list[Any], setup: Setup, seed: int, secret_seat: int, changed: set[int], round_number: int) -> set[Any]:
    """Replay both games side by side up to (not including) the reveal of `round_number`.

    Returns the audiences whose views differed at some point (must be the secret seat, and
    seats that peeked at a changed card, only)."""
    n = len(setup.players)
    state_a = GAME.initial_state(setup, seed)
    state_b = GAME.initial_state(setup, seed)
    differed: set[Any] = set()
    knows: set[int] = {secret_seat}
    started = False
    for a, b in zip(actions_a, actions_b, strict=True):
        out_a, out_b = GAME.apply(state_a, a), GAME.apply(state_b, b)
        if out_a.reveals and out_a.state.round == round_number:
            break
        state_a, state_b = out_a.state, out_b.state
        started = started or a != b
        if not started:
            continue  # the same actions so far: the same game
        if isinstance(a, PeekCard) and state_a.round == round_number and a.placement in changed:
            knows.add(a.by)
        assert public_bytes(a, out_a.rulings) == public_bytes(b, out_b.rulings)
        assert GAME.is_public(a) == GAME.is_public(b)
        seen_a, seen_b = views(state_a, n), views(state_b, n)
        for audience in seen_a:
            if seen_a[audience] != seen_b[audience]:
                differed.add(audience)
                assert audience in knows, f"{audience} learnt seat {secret_seat}'s hidden card"
    return differed


def random_actions(setup: Setup, seed: int) -> list[Any]:
    state = GAME.initial_state(setup, seed)
    rng = random.Random(seed)
    actions = []
    while (action := GAME.random_action(state, rng)) is not None:
        actions.append(action)
        state = GAME.apply(state, action).state
    return actions


def round_of_each_action(setup: Setup, seed: int, actions: list[Any]) -> list[int]:
    state = GAME.initial_state(setup, seed)
    rounds = []
    for action in actions:
        state = GAME.apply(state, action).state
        rounds.append(state.round)
    return rounds


def swap_hidden_cards(actions: list[Any], rounds: list[int], seat: int, round_number: int, rng: random.Random) -> tuple[list[Any], set[int]] | None:
    """Game B: the same actions, but `seat`'s face-down cards of that round shuffled among
    themselves (a Swiss slot always gets a bribe). None when no real change is possible."""
    hidden = []  # (action position, placement index in the round)
    index = 0
    current = 0
    for position, (action, r) in enumerate(zip(actions, rounds, strict=True)):
        if r != current:
            current, index = r, 0
        if isinstance(action, PlayCard):
            if r == round_number and action.by == seat and not action.face_up:
                hidden.append((position, index))
            index += 1
    cards = [actions[p].card for p, _ in hidden]
    if len(set(cards)) < 2:
        return None
    for _ in range(50):
        shuffled = cards[:]
        rng.shuffle(shuffled)
        swiss_ok = all(isinstance(c, int) or actions[p].location not in BODIES for c, (p, _) in zip(shuffled, hidden, strict=True))
        if shuffled != cards and swiss_ok:
            break
    else:
        return None
    changed_actions = list(actions)
    changed: set[int] = set()
    for card, (position, placement) in zip(shuffled, hidden, strict=True):
        if card != actions[position].card:
            changed.add(placement)
        changed_actions[position] = actions[position].model_copy(update={"card": card})
    return changed_actions, changed


def test_random_games_differing_in_one_seats_hidden_cards() -> None:
    """Random games (every variant but Closed has face-up cards; all with the Little Black
    Book, so peeks happen): shuffle one seat's face-down cards of one round; compare up to
    that round's reveal."""
    compared = 0
    peekers_who_saw = 0
    for seed in range(24):
        setup = Setup(players=players(3 + seed % 5), variant=VARIANTS[seed % 4], little_black_book=True)
        actions = random_actions(setup, seed)
        rounds = round_of_each_action(setup, seed, actions)
        rng = random.Random(seed)
        seat, round_number = rng.randrange(len(setup.players)), rng.randint(1, 4)
        swapped = swap_hidden_cards(actions, rounds, seat, round_number, rng)
        if swapped is None:
            continue
        actions_b, changed = swapped
        differed = compare_until_reveal(actions, actions_b, setup, seed, seat, changed, round_number)
        assert seat in differed, "the secret seat's own view shows its cards"
        peekers_who_saw += len(differed - {seat})
        compared += 1
    assert compared >= 16
    assert peekers_who_saw > 0, "some peek at a changed card happened, and showed it"


def scripted(swiss_card: int, opera_card: int, *, peek_by: int | None = None) -> Table:
    """Three players, round 1. P1 plays a face-up $10,000, then `swiss_card` face down on City
    Hall's Swiss account and `opera_card` face down under the Opera House."""
    table = Table(3, little_black_book=True)
    table.deal()
    table.play(P1, 10000, "Monument")
    table.play(P1, swiss_card, "city_hall")
    opera = table.play(P1, opera_card, "Opera House")
    if peek_by is not None:
        table.do(PeekCard(by=peek_by, placement=opera))
    return table


def test_swiss_card_does_not_leak() -> None:
    a, b = scripted(8000, 1000), scripted(1000, 8000)
    for audience in (BOARD, seat_audience(P2), seat_audience(P3)):
        assert GAME.project(a.state, audience).model_dump_json() == GAME.project(b.state, audience).model_dump_json()
    assert GAME.project(a.state, seat_audience(P1)) != GAME.project(b.state, seat_audience(P1))
    assert [public_bytes(x, y.rulings) for x, y in zip(a.actions, a.outcomes)] == [
        public_bytes(x, y.rulings) for x, y in zip(b.actions, b.outcomes)
    ]
    assert "card" not in GAME.redact(a.actions[-1]) and not GAME.is_public(a.actions[-1])
    assert GAME.redact(a.actions[1])["card"] == 10000 and GAME.is_public(a.actions[1]), "face-up cards are public"
    # The award phase reveals them.
    a.finish_corruption()
    b.finish_corruption()
    assert GAME.project(a.state, BOARD).model_dump_json() != GAME.project(b.state, BOARD).model_dump_json()


def test_peeked_card_is_seen_by_the_peeker_only() -> None:
    a, b = scripted(8000, 1000, peek_by=P2), scripted(1000, 8000, peek_by=P2)
    for audience in (BOARD, seat_audience(P3)):
        assert GAME.project(a.state, audience).model_dump_json() == GAME.project(b.state, audience).model_dump_json()
    peeked = {k.placement: k.card for k in GAME.project(a.state, seat_audience(P2)).me.known_cards if k.via == "peek"}
    assert list(peeked.values()) == [1000]
    assert GAME.project(a.state, seat_audience(P2)) != GAME.project(b.state, seat_audience(P2))
    assert public_bytes(a.actions[-1], a.outcomes[-1].rulings) == public_bytes(b.actions[-1], b.outcomes[-1].rulings)


def test_a_hidden_card_leaves_no_trace_in_the_board_legal_moves() -> None:
    """The board offers face-up cards from public facts only: a seat's face-down DA does not
    remove the DA from what the board offers for that seat's face-up cards (round 2)."""
    tables = []
    for _hidden in ("da", 1000):  # one table for each hidden card, identical until it is played
        table = Table(3, first_player=P1)
        table.deal()
        table.finish_corruption()
        while table.state.phase == "awards":
            table.do(GAME.random_action(table.state, random.Random(0)))
        table.deal({body: [(f"{body} a", 200_000), (f"{body} b", 200_000)] for body in BODIES})
        leader = table.state.order[0]
        table.filler = "capitol b"
        table.play(leader, 10000, "Monument")
        table.fill_until(leader)
        tables.append(table)
    # Both games are identical so far: now the leader's third card differs (face down).
    for table, hidden in zip(tables, ("da", 1000), strict=True):
        leader = table.state.order[0]
        table.play(leader, 8000, "Subway")  # second card, face up in round 2
        table.fill_until(leader)
        table.do(PlayCard(by=leader, card=hidden, location=table.id("Stadium"), face_up=False))
    a, b = tables
    assert GAME.project(a.state, BOARD).model_dump_json() == GAME.project(b.state, BOARD).model_dump_json()
