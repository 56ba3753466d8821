"""Corruption: invariants over random simulated games, checked against an oracle written
independently of the engine (plain dicts, its own ordering and arithmetic)."""

from __future__ import annotations

import random
import re
import string
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import BOARD, RuleError, seat_audience
from companion.games import corruption
from companion.games.corruption import (
    BODIES,
    GAME,
    MESSAGES,
    AssignSwiss,
    ChooseFaceUp,
    DealContracts,
    HitTarget,
    NewContract,
    PeekCard,
    PlayCard,
    ReportBribe,
    Setup,
)
from tests.games.scale import examples
from tests.games.test_corruption import players

ALLOWED_CHARACTERS = {"da": 1, "reporter": 2, "hitman": 1}
ALL_BRIBES = [1000, 2000, 4000, 6000, 8000, 10000]
EXPECTED_FACE_UP = {
    "standard": {1: {1}, 2: {1, 2}, 3: {1, 2, 3}, 4: {1, 2, 3, 4}},
    "down_the_river": {1: {3}, 2: {3, 4}, 3: {2, 3, 4}, 4: {2, 3, 4, 5}},
    "closed": {r: set() for r in range(1, 5)},
}


def template_fields(code: str) -> set[str]:
    return {field.split(".")[0] for _, field, _, _ in string.Formatter().parse(MESSAGES[code]) if field}


# --- the oracle ----------------------------------------------------------------------------------


def oracle_round(state: Any) -> dict[int, tuple[str, int | None, tuple[int, ...]]]:
    """Recompute a finished round's awards from its cards and the players' recorded choices,
    checking on the way that every choice was legal and asked in the rulebook's order."""
    setup = state.setup
    n = len(setup.players)
    cards = [{"i": p.index, "seat": p.seat, "card": p.card, "at": p.location} for p in state.placements]
    under: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for c in cards:
        under[c["at"]].append(c)
    body_of = {k.id: k.body for k in state.contracts}
    column_position = {k.id: [x.id for x in state.contracts if x.body == k.body].index(k.id) for k in state.contracts}

    def order_key(c: dict[str, Any]) -> Any:
        if setup.resolution_order == "play":
            return c["i"]
        at = c["at"]
        if at in BODIES:
            return (BODIES.index(at), -1, c["i"])
        return (BODIES.index(body_of[at]), column_position[at], c["i"])

    # 1. Swiss: each Swiss bribe assigned once, to its own body's column, in resolution order.
    swiss_cards = sorted((c for c in cards if c["at"] in BODIES), key=order_key)
    assert [s.placement for s in state.swiss_choices] == [c["i"] for c in swiss_cards]
    sent_to = {s.placement: s.contract for s in state.swiss_choices}
    for c in swiss_cards:
        assert body_of[sent_to[c["i"]]] == c["at"]

    # 2. Hit men, in resolution order; a dead one does not act; one with a target must act.
    hitmen = sorted((c for c in cards if c["card"] == "hitman"), key=order_key)
    assert [h.hitman for h in state.hits] == [c["i"] for c in hitmen]
    dead: set[int] = set()
    for h in state.hits:
        me = cards[h.hitman]
        if me["i"] in dead:
            assert h.target is None
            continue
        targets = {
            c["i"]
            for c in under[me["at"]]
            if c["card"] in ALLOWED_CHARACTERS
            and c["i"] != me["i"]
            and c["i"] not in dead
            and not (setup.own_cards_immune and c["seat"] == me["seat"])
        }
        assert (h.target in targets) if targets else (h.target is None)
        if h.target is not None:
            dead.add(h.target)

    # 3. District attorneys.
    cancelled = {at for at, cs in under.items() if at not in BODIES and any(c["card"] == "da" and c["i"] not in dead for c in cs)}
    assert set(state.cancelled) == cancelled

    # 4. Reporters, in resolution order.
    reporters = sorted((c for c in cards if c["card"] == "reporter"), key=order_key)
    assert [r.reporter for r in state.removals] == [c["i"] for c in reporters]
    gone: set[int] = set()
    for r in state.removals:
        me = cards[r.reporter]
        if me["i"] in dead or me["at"] in cancelled:
            assert r.bribe is None
            continue
        upright = {c["i"] for c in under[me["at"]] if isinstance(c["card"], int) and c["i"] not in gone}
        if r.bribe is None:
            assert setup.reporter_optional or not upright
        else:
            assert r.bribe in upright
            gone.add(r.bribe)

    # 5. Awards.
    result = {}
    for contract in state.contracts:
        if contract.id in cancelled:
            result[contract.id] = ("cancelled", None, (0,) * n)
            continue
        money = [0.0] * n
        for c in under[contract.id]:
            if isinstance(c["card"], int) and c["i"] not in gone:
                money[c["seat"]] += c["card"]
        for i, target in sent_to.items():
            if target == contract.id:
                money[cards[i]["seat"]] += 0.5 * cards[i]["card"]
        ranking = sorted(money, reverse=True)
        totals = tuple(int(m) for m in money)
        if ranking[0] == 0:
            result[contract.id] = ("no_bribes", None, totals)
        elif ranking[0] == ranking[1]:
            result[contract.id] = ("tied", None, totals)
        else:
            result[contract.id] = ("won", money.index(ranking[0]), totals)
    return result


# --- a random game, checked as it goes --------------------------------------------------------------


def check_play(before: Any, action: PlayCard, chosen_slots: set[int], used: Counter[Any]) -> None:
    """The placement is legal by the rulebook, judged from public facts and our own bookkeeping."""
    n = len(before.setup.players)
    assert action.by == before.order[len(before.placements) % n], "clockwise from the leading player"
    mine = [p for p in before.placements if p.seat == action.by]
    assert len(mine) < 6
    on_swiss = action.location in BODIES
    if isinstance(action.card, int):
        assert action.card not in [p.card for p in mine], "each bribe once per round"
    else:
        assert not on_swiss, "no character in Switzerland"
        assert before.setup.variant != "closed"
        assert used[(action.by, action.card)] < ALLOWED_CHARACTERS[action.card], "a character is used once"
        used[(action.by, action.card)] += 1
    if not on_swiss:
        assert action.location in {c.id for c in before.contracts}
    variant = before.setup.variant
    slots = chosen_slots if variant == "free_stud" else EXPECTED_FACE_UP[variant][before.round]
    assert action.face_up == (not on_swiss and len(mine) + 1 in slots)


def play_game(setup: Setup, seed: int, *, project_every: int = 0) -> tuple[list[Any], list[Any], Any]:
    """Play a whole random game, checking every action and every finished round."""
    state = GAME.initial_state(setup, seed)
    rng = random.Random(seed)
    actions: list[Any] = []
    rulings: list[Any] = []
    used: Counter[Any] = Counter()
    chosen_slots: set[int] = set()
    ever_won: list[int] = []
    step = 0
    while (action := GAME.random_action(state, rng)) is not None:
        if isinstance(action, PlayCard):
            check_play(state, action, chosen_slots, used)
        if isinstance(action, ChooseFaceUp):
            chosen_slots = set(action.slots)
        outcome = GAME.apply(state, action)  # never raises: random_action is legal
        before, state = state, outcome.state
        actions.append(action)
        rulings.extend(outcome.rulings)
        # the last card of a round reveals nothing: the round waits for the reveal (here every
        # seat's ready, the last of which reveals everything), and nothing else reveals
        if before.phase == "corruption" and state.phase != "corruption":
            assert state.phase == "reveal" and not outcome.reveals
        assert outcome.reveals == (before.phase == "reveal" and state.phase != "reveal")
        if isinstance(action, DealContracts):
            assert not {c.id for c in state.contracts} & set(ever_won), "an awarded contract leaves the table"
        if before.phase in ("reveal", "awards") and state.phase in ("round_over", "over"):
            assert Counter(p.seat for p in state.placements) == {s: 6 for s in range(len(setup.players))}
            check_round(state, ever_won)
        if project_every and step % project_every == 0:
            for audience in (BOARD, *(seat_audience(s) for s in range(len(setup.players)))):
                GAME.project(state, audience)
        step += 1
    assert state.phase == "over"
    return actions, rulings, state


def check_round(state: Any, ever_won: list[int]) -> None:
    oracle = oracle_round(state)
    engine = {a.contract: (a.outcome, a.winner, a.totals) for a in state.awards}
    assert engine == oracle
    for won in state.won:
        for contract in won:
            assert contract.id in oracle or contract.id in ever_won
    won_now = [cid for cid, (outcome, _, _) in oracle.items() if outcome == "won"]
    assert not set(won_now) & set(ever_won), "no contract is awarded twice"
    ever_won.extend(won_now)
    all_won = [c.id for won in state.won for c in won]
    assert sorted(all_won) == sorted(ever_won)
    for seat in range(len(state.setup.players)):
        gone = Counter(state.characters_gone[seat])
        assert all(gone[k] <= ALLOWED_CHARACTERS[k] for k in gone)


def expected_result(state: Any) -> dict[str, Any]:
    score = [sum(c.value for c in w) for w in state.won]
    count = [len(w) for w in state.won]
    top = max(zip(score, count))
    return {"score": score, "contracts": count, "winners": [s for s in range(len(score)) if (score[s], count[s]) == top]}


setups = st.builds(
    lambda n, variant, lbb, order, tie, immune, optional, first: Setup(
        players=players(n),
        variant=variant,
        little_black_book=lbb,
        resolution_order=order,
        leader_tie=tie,
        own_cards_immune=immune,
        reporter_optional=optional,
        first_player=first if first is None else first % n,
    ),
    st.integers(3, 7),
    st.sampled_from(corruption.VARIANTS),
    st.booleans(),
    st.sampled_from(("location", "play")),
    st.sampled_from(("random", "clockwise")),
    st.booleans(),
    st.booleans(),
    st.none() | st.integers(0, 6),
)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups, seed=st.integers(0, 2**31))
def test_random_games_follow_the_rules(setup: Setup, seed: int) -> None:
    actions, rulings, state = play_game(setup, seed)
    assert GAME.result(state) == expected_result(state)
    for ruling in rulings:
        assert ruling.code in MESSAGES, ruling.code
        assert template_fields(ruling.code) <= set(ruling.params), ruling.code


@settings(max_examples=examples(10), deadline=None)
@given(setup=setups, seed=st.integers(0, 2**31))
def test_replay_reproduces_the_game(setup: Setup, seed: int) -> None:
    actions, rulings, final = play_game(setup, seed)
    state = GAME.initial_state(setup, seed)
    replayed = []
    for action in actions:
        # through the wire format, as the room's log would store it
        action = corruption.ACTION_ADAPTER.validate_json(corruption.ACTION_ADAPTER.dump_json(action))
        outcome = GAME.apply(state, action)
        state = outcome.state
        replayed.extend(outcome.rulings)
    assert state == final
    assert state.model_dump_json() == final.model_dump_json()
    assert [r.model_dump() for r in replayed] == [r.model_dump() for r in rulings]


def test_projections_of_random_games_are_well_formed() -> None:
    for seed in range(4):
        setup = Setup(players=players(3 + seed), variant=corruption.VARIANTS[seed], little_black_book=True)
        play_game(setup, seed, project_every=3)


# --- messages: every code the engine can emit or raise has a template ---------------------------------


def random_junk(state: Any, rng: random.Random) -> Any:
    """An action of any kind with random (mostly illegal) fields."""
    n = len(state.setup.players)
    by = rng.randint(-1, n)
    ids = [c.id for c in state.contracts] + [999]
    kind = rng.randrange(7)
    if kind == 0:
        count = rng.choice([5, 6, 6, 6, 7])
        contracts = tuple(
            NewContract(body=rng.choice(BODIES), name=rng.choice(["X", " ", "N" * 45]), value=rng.choice([50_000, 300_000, 2_000_000]))
            for _ in range(count)
        )
        return DealContracts(by=by, contracts=contracts)
    if kind == 1:
        return ChooseFaceUp(by=by, slots=tuple(rng.choice([0, 1, 3, 3, 6, 7]) for _ in range(rng.randint(0, 3))))
    if kind == 2:
        card = rng.choice([*ALL_BRIBES, "da", "reporter", "hitman"])
        return PlayCard(by=by, card=card, location=rng.choice([*ids, *BODIES]), face_up=rng.random() < 0.5)
    if kind == 3:
        return PeekCard(by=by, placement=rng.randint(-1, len(state.placements) + 1))
    if kind == 4:
        return AssignSwiss(by=by, contract=rng.choice(ids))
    if kind == 5:
        return HitTarget(by=by, target=rng.randint(-1, len(state.placements) + 1))
    return ReportBribe(by=by, bribe=rng.choice([None, rng.randint(-1, len(state.placements) + 1)]))


def test_every_error_raised_on_random_input_has_a_message() -> None:
    raised: set[str] = set()
    for seed in range(12):
        setup = Setup(
            players=players(3 + seed % 5),
            variant=corruption.VARIANTS[seed % 4],
            little_black_book=seed % 2 == 0,
            reporter_optional=seed % 3 != 0,
            own_cards_immune=seed % 5 == 0,
        )
        state = GAME.initial_state(setup, seed)
        rng = random.Random(seed)
        while True:
            for _ in range(3):
                junk = random_junk(state, rng)
                try:
                    outcome = GAME.apply(state, junk)
                except RuleError as error:
                    assert error.code in MESSAGES, error.code
                    assert template_fields(error.code) <= set(error.params), error.code
                    raised.add(error.code)
                else:
                    for ruling in outcome.rulings:
                        assert ruling.code in MESSAGES
            action = GAME.random_action(state, rng)
            if action is None:
                break
            state = GAME.apply(state, action).state
    # the junk is varied enough to reach most error paths (a sanity check on the test itself)
    assert len(raised) >= 15, sorted(raised)


def test_every_code_in_the_source_has_a_message() -> None:
    source = Path(corruption.__file__).read_text()
    literal_codes = set(re.findall(r'"(corruption\.[a-z_.]+)"', source))
    assert literal_codes, "the pattern finds the codes"
    missing = {c for c in literal_codes if c not in MESSAGES}
    assert not missing
    # the codes built from a card or a body
    for suffix in ("da", "reporter", "hitman"):
        assert f"corruption.played_{suffix}" in MESSAGES and f"corruption.hit_{suffix}" in MESSAGES
    for body in BODIES:
        assert f"corruption.played_swiss.{body}" in MESSAGES


@pytest.mark.slow
def test_many_random_games() -> None:
    for seed in range(200):
        setup = Setup(
            players=players(3 + seed % 5),
            variant=corruption.VARIANTS[seed % 4],
            little_black_book=seed % 3 == 0,
            resolution_order=("location", "play")[seed % 2],
            own_cards_immune=seed % 7 == 0,
            reporter_optional=seed % 5 != 0,
        )
        _, _, state = play_game(setup, seed)
        assert GAME.result(state) == expected_result(state)
