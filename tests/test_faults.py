"""Faults at the room: simultaneous taps, and random or malformed actions against every game."""

from __future__ import annotations

import asyncio
import random
import re
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import GAMES
from companion.i18n import translator
from companion.room import Host, Rejected, Room
from companion.store import Store

#: what a template field left unformatted looks like: {name} or {name:spec}
TEMPLATE_FIELD = re.compile(r"\{[a-z_]+(:[^{}]*)?\}")

PLAYERS = [{"name": n, "colour": c} for n, c in [("Ann", "red"), ("Bob", "blue"), ("Cyd", "green"), ("Dee", "yellow")]]


@pytest.fixture
async def host(tmp_path: Path):
    host = Host(Store(tmp_path / "referee.sqlite3"))
    yield host
    host.close()


async def test_simultaneous_taps_are_neither_lost_nor_doubled(host: Host) -> None:
    """Every seat taps at the same moment, many times over: for each version exactly one tap is
    applied (the one whose turn it is), the others are answered, and a repeated tap is applied
    once; versions only ever go up by one."""
    room = await host.create_room("vabanque", {"players": PLAYERS, "first_player": 0}, seed=3)
    versions: list[int] = []
    room.subscribe(lambda event: _record(versions, event))
    rng = random.Random(8)
    for _ in range(40):
        shown = room.version
        taps = []
        for seat in range(4):
            action = {"type": "place_chip", "by": seat, "table": rng.randint(1, 9)}
            taps.append(room.submit(action, channel="seat", seat=seat, based_on_version=shown))
            taps.append(room.submit(action, channel="seat", seat=seat, based_on_version=shown))  # the same tap again
        results = await asyncio.gather(*taps, return_exceptions=True)
        accepted = [r for r in results if not isinstance(r, BaseException)]
        assert len({r.seq for r in accepted}) == 1, results  # one action per round of taps
        assert len(accepted) == 2 and accepted[1].duplicate  # the current seat's tap and its repeat
        assert all(isinstance(r, Rejected) for r in results if isinstance(r, BaseException))
        assert room.version == shown + 1
        if room.state.phase != "chips":
            break
    await asyncio.sleep(0)  # let the last notifications run (they are tasks)
    assert versions == sorted(versions) and len(versions) == len(set(versions))
    assert len(room.log_entries) == room.version


async def _record(versions: list[int], event: Any) -> None:
    if event.kind == "version":
        versions.append(event.version)


def junk_values() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-5, max_value=40),
        st.text(alphabet=string.ascii_letters + string.digits + "_-", max_size=12),
        st.lists(st.integers(min_value=-2, max_value=20), max_size=4),
        st.dictionaries(st.sampled_from(["value", "colour", "kind"]), st.integers(-1, 16), max_size=2),
    )


def action_types(game: Any) -> list[str]:
    return sorted({branch.model_fields["type"].default for branch in game.action_model.__args__[0].__args__})


def field_names(game: Any) -> list[str]:
    names: set[str] = set()
    for branch in game.action_model.__args__[0].__args__:
        names.update(branch.model_fields)
    return sorted(names - {"type", "by"})


async def playing_room(host: Host, game_id: str, steps: int) -> Room:
    room = await host.create_room(game_id, {"players": PLAYERS}, seed=5)
    rng = random.Random(steps)
    for _ in range(steps):
        action = room.game.random_action(room.state, rng)
        if action is None:
            break
        await room.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=room.version)
    return room


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_random_and_malformed_actions_change_nothing_when_refused(game_id: str, tmp_path: Path) -> None:
    game = GAMES[game_id]
    types, fields = action_types(game), field_names(game)
    tr = translator("en")
    counter = iter(range(10**6))

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(
        steps=st.integers(min_value=0, max_value=30),
        kind=st.one_of(st.sampled_from(types), st.text(max_size=8)),
        by=st.one_of(st.integers(min_value=-2, max_value=6), junk_values()),
        extra=st.dictionaries(st.sampled_from(fields) if fields else st.just("x"), junk_values(), max_size=4),
        channel=st.sampled_from(["seat", "host", "pass"]),
        seat=st.one_of(st.none(), st.integers(min_value=0, max_value=3)),
        stale=st.booleans(),
    )
    def check(steps: int, kind: str, by: Any, extra: dict[str, Any], channel: str, seat: int | None, stale: bool) -> None:
        async def run() -> None:
            host = Host(Store(tmp_path / f"fuzz-{next(counter)}.sqlite3"))
            try:
                room = await playing_room(host, game_id, steps)
                before, version = room.state, room.version
                raw = {"type": kind, "by": by, **extra}
                try:
                    await room.submit(raw, channel=channel, seat=seat, based_on_version=version - 1 if stale else version)
                except Rejected as rejection:
                    assert room.state == before and room.version == version
                    message = tr.error(rejection.code, rejection.params, room.names)
                    # (a refused value may itself contain braces: look for template fields left over)
                    assert message and rejection.code not in message and not TEMPLATE_FIELD.search(message), message
                else:
                    assert room.version == version + 1  # a legal action: applied exactly once
            finally:
                host.close()

        asyncio.run(run())

    check()
