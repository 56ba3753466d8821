"""Rooms: the durable log, idempotency, stale views, channels, undo, links, export and replay."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine import BOARD
from companion.games.vabanque import GAME
from companion.room import Host, Rejected, Room, replay_export
from companion.schema import SCHEMA_PATH, log_schema
from companion.store import Store

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = [
    {"name": "Adriano", "colour": "red"},
    {"name": "Benedetta", "colour": "blue"},
    {"name": "Carlotta", "colour": "green"},
]


@pytest.fixture
async def host(tmp_path: Path):
    host = Host(Store(tmp_path / "referee.sqlite3"))
    yield host
    host.close()


async def new_room(host: Host, seed: int = 11) -> Room:
    return await host.create_room("vabanque", {"players": PLAYERS, "first_player": 0}, seed=seed)


async def play(room: Room, count: int, rng: random.Random) -> None:
    for _ in range(count):
        action = GAME.random_action(room.state, rng)
        if action is None:
            return
        await room.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=room.version)


async def test_live_connection_is_wal_with_full_sync(host: Host) -> None:
    assert host.store.store.pragmas() == {"journal_mode": "wal", "synchronous": 2}  # 2 = FULL


async def test_action_is_committed_before_anyone_is_told(host: Host, tmp_path: Path) -> None:
    room = await new_room(host)
    seen_by_listener: list[int] = []
    told = asyncio.Event()

    async def listener(event) -> None:
        # A separate connection sees the row: it was committed before the notification.
        other = sqlite3.connect(tmp_path / "referee.sqlite3")
        rows = other.execute("SELECT COUNT(*) FROM log WHERE room_id=?", (room.id,)).fetchone()[0]
        other.close()
        seen_by_listener.append(rows)
        told.set()

    room.subscribe(listener)
    accepted = await room.submit({"type": "place_chip", "by": 0, "table": 3}, channel="seat", seat=0, based_on_version=0)
    # the sender's answer also comes after the commit
    other = sqlite3.connect(tmp_path / "referee.sqlite3")
    assert other.execute("SELECT seq FROM log WHERE room_id=?", (room.id,)).fetchall() == [(accepted.seq,)]
    other.close()
    await asyncio.wait_for(told.wait(), timeout=5)
    assert seen_by_listener == [1]


async def test_same_tap_twice_is_applied_once(host: Host) -> None:
    room = await new_room(host)
    action = {"type": "place_chip", "by": 0, "table": 2}
    first = await room.submit(action, channel="seat", seat=0, based_on_version=0)
    again = await room.submit(action, channel="seat", seat=0, based_on_version=0)
    assert not first.duplicate and again.duplicate and again.seq == first.seq
    assert room.version == 1
    assert room.state.chips[1] == (5,)


async def test_stale_submission_is_answered_not_applied(host: Host) -> None:
    room = await new_room(host)
    await room.submit({"type": "place_chip", "by": 0, "table": 2}, channel="seat", seat=0, based_on_version=0)
    before = room.state
    with pytest.raises(Rejected) as err:
        await room.submit({"type": "place_chip", "by": 1, "table": 2}, channel="seat", seat=1, based_on_version=0)
    assert err.value.code == "room.err.stale"
    assert room.state == before and room.version == 1


@pytest.mark.parametrize(
    ("action", "channel", "seat", "code"),
    [
        ({"type": "place_chip", "by": 1, "table": 2}, "seat", 0, "room.err.not_your_seat"),
        ({"type": "place_chip", "by": 0, "table": "x"}, "seat", 0, "room.err.bad_action"),
        ({"type": "fly", "by": 0}, "seat", 0, "room.err.bad_action"),
        ({"type": "place_chip", "by": 1, "table": 2}, "seat", 1, "vabanque.err.not_your_turn"),
        ({"type": "place_chip", "by": 0, "table": 8}, "seat", 0, "vabanque.err.unknown_table"),
        ({"type": "move_pawn", "by": 0, "steps": 1}, "seat", 0, "vabanque.err.wrong_phase"),
        ({"type": "place_card", "by": 0, "table": 1, "card": "raise"}, "host", None, "room.err.secret_on_board"),
    ],
)
async def test_bad_input_is_refused_with_its_code_and_changes_nothing(host: Host, action, channel, seat, code) -> None:
    room = await new_room(host)
    before, version = room.state, room.version
    with pytest.raises(Rejected) as err:
        await room.submit(action, channel=channel, seat=seat, based_on_version=0)
    assert err.value.code == code
    assert room.state == before and room.version == version
    assert Store(host.store.store.path).log(room.id) == []


async def test_host_may_enter_public_actions_for_the_current_player(host: Host) -> None:
    room = await new_room(host)
    await room.submit({"type": "place_chip", "by": 0, "table": 4}, channel="host", seat=None, based_on_version=0)
    assert room.state.chips[3] == (5,)


async def test_restart_replays_the_log_exactly(host: Host, tmp_path: Path) -> None:
    room = await new_room(host)
    await play(room, 60, random.Random(4))
    await room.undo(1)
    state, version = room.state, room.version
    host.close()
    again = Host(Store(tmp_path / "referee.sqlite3"))
    restored = again.rooms[room.id]
    assert restored.version == version
    assert restored.state == state
    assert restored.seats == room.seats
    again.close()


async def test_a_restarted_host_says_what_just_happened_as_the_live_one_did(host: Host, tmp_path: Path) -> None:
    """The board's "What just happened" after a restart: the undo and take-back notices, without
    the rulings of the actions they undid, as the live board showed them (it lost the notices)."""
    room = await new_room(host)
    rng = random.Random(4)
    await play(room, 5, rng)
    await room.undo(2)
    await play(room, 3, rng)
    await room.take_back(room.history.entries[-1].payload["by"], based_on_version=room.version)
    await play(room, 2, rng)
    live = list(room.recent)
    assert {"room.undone", "room.taken_back"} <= {r.code for _, r in live}
    undo_seqs = {e.seq for e in room.log_entries if e.kind == "undo"}
    assert {seq for seq, _ in live} <= {0} | undo_seqs | {e.seq for e in room.history.entries}  # only actions in effect
    board = room.view(BOARD).model_dump_json()
    host.close()
    again = Host(Store(tmp_path / "referee.sqlite3"))
    try:
        restored = again.rooms[room.id]
        assert restored.recent == live
        assert restored.view(BOARD).model_dump_json() == board
    finally:
        again.close()


async def test_undo_is_logged_and_never_crosses_a_reveal(host: Host) -> None:
    room = await new_room(host)
    rng = random.Random(9)
    await play(room, 3, rng)
    before_undo = room.history.states[-2]
    await room.undo(1)
    assert room.state == before_undo and room.version == 4  # the undo is itself an entry
    assert room.log_entries[-1].kind == "undo"
    # play to the first payout (the reveal)
    while room.state.phase != "payout":
        await play(room, 1, rng)
    assert room.undoable() == 0
    with pytest.raises(Rejected) as err:
        await room.undo(1)
    assert err.value.code == "room.err.undo_reveal"
    await play(room, 2, rng)  # next round, one chip: that one may be undone again
    assert room.undoable() == 2


async def test_reissued_link_replaces_the_old_one(host: Host) -> None:
    room = await new_room(host)
    old = room.seats[1].token
    assert await room.claim(1, "device-of-bruno-phone")
    new = await room.reissue(1)
    assert room.seat_for_token(old) is None
    assert room.seat_for_token(new) == 1
    assert not room.seats[1].claimed and room.seats[1].device is None
    # the new link is a claim again: the first device to bring it holds the seat
    assert await room.claim(1, "device-of-a-new-phone")
    assert not await room.claim(1, "device-of-bruno-phone")
    assert len(new) >= 22  # 128 bits, url-safe base64


async def test_export_is_redacted_while_running_and_complete_at_the_end(host: Host, tmp_path: Path) -> None:
    room = await new_room(host)
    rng = random.Random(21)
    await play(room, 40, rng)
    running = room.export(complete=False)
    cards = [e for e in running["entries"] if e["payload"].get("type") == "place_card"]
    assert cards and all("card" not in e["payload"] for e in cards)
    with pytest.raises(Rejected):
        room.export(complete=True)
    with pytest.raises(ValueError):
        replay_export(running)
    await play(room, 500, rng)
    assert room.over
    complete = room.export(complete=True)
    assert any("card" in e["payload"] for e in complete["entries"] if e["payload"].get("type") == "place_card")
    game, state = replay_export(json.loads(json.dumps(complete)))
    assert state == room.state

    path = tmp_path / "log.json"
    path.write_text(json.dumps(complete))
    out = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "replay", str(path)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    printed = json.loads(out.stdout)
    assert printed["result"] == GAME.result(room.state)
    assert list(printed["money"].values()) == list(room.state.money)


def test_log_schema_in_docs_is_current() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == log_schema(), "run: uv run python -m companion.schema"
