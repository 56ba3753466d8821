"""Règlement's "seat everyone at random" (`seat_random`): one action, in the log like any other,
that finishes free seating the way players placing one at a time would (counter-clockwise, the
last to place starts), with the draws taken from the game's seed, so a log replays the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine import RuleError
from companion.games.reglement import GAME, PlaceGangster, SeatAtRandom, seated
from companion.room import Host
from companion.store import Store
from tests.games.test_reglement_helpers import BLUE, RED, YELLOW, codes, make_setup


def placers_of(rulings: list) -> list[int]:
    return [r.params["seat"] for r in rulings if r.code == "reglement.gangster_placed"]


def test_seat_random_finishes_free_seating_in_the_rules_order_and_the_last_placer_starts() -> None:
    state = GAME.initial_state(make_setup(3, first_placer=RED), seed=11)
    # Red and Yellow place one each by hand; then Blue, whose turn it is, taps "at random"
    for _ in range(2):
        player = state.placer
        kind = next(g.kind for g in state.gangsters if g.owner == player and g.seat is None)
        empty = next(s for s in state.board.ids if s not in seated(state))
        state = GAME.apply(state, PlaceGangster(by=player, kind=kind, seat=empty)).state
    assert state.placer == BLUE
    outcome = GAME.apply(state, SeatAtRandom(by=BLUE))
    after, rulings = outcome.state, list(outcome.rulings)
    assert codes(rulings)[0] == "reglement.seated_at_random" and rulings[0].params == {"seat": BLUE}
    # the 28 still waiting, one at a time counter-clockwise from Blue: Blue, Red, Yellow, ...
    assert placers_of(rulings) == ([BLUE, RED, YELLOW] * 10)[:28]
    assert codes(rulings)[29:31] == ["reglement.seating_done", "reglement.turn_started"]
    assert after.phase == "play" and after.turn == BLUE and after.placer is None
    assert all(g.seat is not None for g in after.gangsters)
    assert len({g.seat for g in after.gangsters}) == 30
    # the two placed by hand stayed where they were put
    for before, now in zip(state.gangsters, after.gangsters, strict=True):
        if before.seat is not None:
            assert now.seat == before.seat
    # each ruling names the gangster it seated, where it now sits
    for r in rulings:
        if r.code == "reglement.gangster_placed":
            index = seated(after)[r.params["at"]]
            assert (after.gangsters[index].owner, after.gangsters[index].kind) == (r.params["seat"], r.params["kind"])


def test_the_same_state_seats_the_same_way_and_another_seed_otherwise() -> None:
    def seating(seed: int) -> tuple:
        state = GAME.initial_state(make_setup(4, first_placer=0), seed=seed)
        return tuple(g.seat for g in GAME.apply(state, SeatAtRandom(by=0)).state.gangsters)

    assert seating(5) == seating(5)
    assert len({seating(seed) for seed in range(5)}) == 5
    # four players: 28 gangsters on 30 seats, two stay empty
    assert len(set(seating(5))) == 28


def test_whole_gang_order_seats_the_placers_gang_first() -> None:
    state = GAME.initial_state(make_setup(3, first_placer=YELLOW, seating_order="whole_gang"), seed=2)
    outcome = GAME.apply(state, SeatAtRandom(by=YELLOW))
    assert placers_of(list(outcome.rulings)) == [YELLOW] * 10 + [BLUE] * 10 + [RED] * 10
    assert outcome.state.turn == RED


def test_seat_random_is_refused_out_of_turn_and_once_seating_is_over() -> None:
    state = GAME.initial_state(make_setup(3, first_placer=RED), seed=1)
    with pytest.raises(RuleError) as wrong:
        GAME.apply(state, SeatAtRandom(by=BLUE))
    assert wrong.value.code == "reglement.err.not_your_turn"
    playing = GAME.apply(state, SeatAtRandom(by=RED)).state
    with pytest.raises(RuleError) as late:
        GAME.apply(playing, SeatAtRandom(by=playing.turn))
    assert late.value.code == "reglement.err.wrong_phase"


async def test_a_room_logs_seat_random_and_replays_it_to_the_same_table(tmp_path: Path) -> None:
    players = [{"name": n, "colour": c} for n, c in [("Ada", "red"), ("Bo", "blue"), ("Cy", "green")]]
    host = Host(Store(tmp_path / "rooms.sqlite3"))
    room = await host.create_room("reglement", {"players": players, "first_placer": 0}, seed=9)
    await room.submit({"type": "seat_random", "by": 0}, channel="host", seat=None, based_on_version=room.version)
    assert room.state.phase == "play"
    log = room.export(complete=False)
    assert [e["payload"] for e in log["entries"] if e["kind"] == "action"] == [{"type": "seat_random", "by": 0}]
    seating, room_id = room.state.gangsters, room.id
    host.close()
    # the host restarted: the room is rebuilt from its log, every gangster where he was
    again = Host(Store(tmp_path / "rooms.sqlite3"))
    assert again.rooms[room_id].state.gangsters == seating
    again.close()
