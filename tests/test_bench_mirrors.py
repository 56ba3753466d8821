"""The benchmarks' game mirrors (benchmarks/latency.py) against the real pages, in process.

For each game, a seeded room with a host board and four phones plays random legal actions the
way `benchmarks/rooms.py` enters them: each action's `clicks_for` identifiers clicked in order on
the device `device_for` names (the host board or the seat's phone). Every identifier must be on
that page and clickable, each choice before the last must show as made (`picked`), and the last
must leave the room in exactly the state the mirror's engine replay reaches with that action.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from benchmarks.latency import GAME_IDS, MIRRORS, server_env
from tests.harness.flet_inprocess import Tab
from tests.harness.world import make_world

PLAYERS = [{"name": n, "colour": c} for n, c in [("Ann", "red"), ("Bob", "blue"), ("Cid", "green"), ("Dee", "yellow")]]
#: enough for each game's host entries and several kinds of phone action (a Corruption deal,
#: Chicago Poker's tiles, Règlement's seating and first cards)
ACTIONS = 45


class TabAsClient:
    """The part of `FletClient` a mirror's `picked` reads, over an in-process tab."""

    def __init__(self, tab: Tab):
        self.tab = tab

    def find(self, identifier: str) -> dict[str, Any] | None:
        semantics = self.tab.find(identifier)
        return None if semantics is None else {"selected": semantics.selected}

    def clickable(self, identifier: str) -> Any:
        semantics = self.tab.find(identifier)
        return None if semantics is None else self.tab.clickable_in(semantics)


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_mirror_clicks_enter_exactly_the_action(game_id: str, make_host: Any, harness_factory: Any, tmp_path: Path, monkeypatch: Any) -> None:
    for name, value in server_env(game_id, tmp_path).items():  # Corruption: the catalogue the deal taps
        monkeypatch.setenv(name, value)
    seed = 31
    world = await make_world(make_host, harness_factory, f"mirror-{game_id}", game_id, {"players": PLAYERS}, seed=seed)
    board = await world.open_board()
    for seat in range(len(PLAYERS)):
        await world.open_phone(seat)
    mirror = MIRRORS[game_id]({"players": PLAYERS}, world.room.seed)
    assert mirror.state == world.room.state
    rng = random.Random(seed)
    kinds: set[tuple[str, bool]] = set()
    for _ in range(ACTIONS):
        action = mirror.random_action(rng)
        if action is None:
            break
        seat = mirror.device_for(action)
        tab = board if seat is None else world.phones[seat]
        device = TabAsClient(tab)
        clicks = mirror.clicks_for(action)
        for ident in clicks[:-1]:
            if mirror.picked(device, ident):  # device: the FletClient calls picked() reads
                continue
            await tab.click(ident)
            assert mirror.picked(device, ident), (action, ident, tab.identifiers())
        assert device.clickable(clicks[-1]) is not None, (action, clicks[-1], tab.identifiers())
        await tab.click(clicks[-1])
        mirror.apply(action)
        assert world.room.version == mirror.version, (action, clicks, tab.text())
        assert world.room.state == mirror.state, (action, clicks)
        kinds.add((action.type, seat is None))
    # the host board's entries were driven too, where the game has them
    assert any(on_board for _, on_board in kinds) == bool(mirror.HOST_ENTRIES), kinds
    assert len(kinds) >= 3, kinds
