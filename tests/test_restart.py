"""kill -9 in the middle of a game, restart on the same data directory: nothing acknowledged is
lost, nothing half-done appears, and the phones get their seats back through their links.
(Plus one real-server check of the phone's card choice at a new round.)

No browser: the real server (`main.py`) runs in a subprocess on 127.0.0.1 and the devices are
protocol-level Flet clients (benchmarks/flet_client.py) speaking the websocket protocol the
Flutter web client speaks. The room is created in the data directory before the first start;
every action is a click on the acting seat's phone; "acknowledged" means the host board shows it
(the room tells listeners only after the fsync'ed commit).
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from benchmarks.flet_client import PHONE, FletClient
from benchmarks.latency import (
    DB_NAME,
    SEAT_KEY,
    RoomInfo,
    ServerProcess,
    Table,
    VabanqueMirror,
    board_shows,
    create_room,
    vabanque_setup,
)
from companion.room import Host
from companion.store import Store
from tests.drills.phones import expected_phone_lines, phone_shows

pytestmark = pytest.mark.slow

SEED = 4242
PLAYERS = 3
#: Round 1 with three players is 12 chips + 9 cards + 3 moves, 3 "ready" taps (the last one
#: reveals: the payout), then 3 more (the next round): 30 actions end in round 2's chip phase,
#: past a payout (a reveal) and with a new turn order.
BEFORE_KILL = 30
AFTER_RESTART = 12
STEP_TIMEOUT = 30.0


def restored(data_dir: Path, room_id: str) -> tuple[Any, int, list[dict[str, Any]]]:
    """Open the data directory the way a starting host does; (state, version, log payloads)."""
    host = Host(Store(data_dir / DB_NAME))
    try:
        room = host.rooms[room_id]
        return room.state, room.version, [e.payload for e in room.log_entries]
    finally:
        host.close()


async def play(table: Table, rng: random.Random, count: int) -> None:
    for _ in range(count):
        action = table.mirror.random_action(rng)
        assert action is not None, "the game ended early; lower the action counts"
        await table.play(action, STEP_TIMEOUT)


async def test_kill_9_mid_game_then_restart(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    info: RoomInfo = create_room(data_dir, vabanque_setup(PLAYERS), SEED)
    server = await asyncio.to_thread(ServerProcess(data_dir).start)
    mirror = VabanqueMirror(info.setup, info.seed)
    table = Table(server.base_url, info, mirror)
    rng = random.Random(SEED)
    try:
        assert server.host_token == info.host_token, "the printed host link must carry the stored host token"
        await table.open_all(STEP_TIMEOUT)
        await play(table, rng, BEFORE_KILL)

        # Durability settings, read from a live connection while the server writes the same file.
        live = Store(data_dir / DB_NAME)
        try:
            assert live.pragmas() == {"journal_mode": "wal", "synchronous": 2}  # 2 = FULL
        finally:
            live.close()
        header = (data_dir / DB_NAME).read_bytes()[:100]
        assert header[18:20] == b"\x02\x02", "file format says WAL (read and write version 2)"
        assert (data_dir / f"{DB_NAME}-wal").exists(), "the server's connection writes through the WAL"

        acknowledged_version = mirror.version
        acknowledged_state = mirror.state

        # One more click on its way when the process dies: it is either wholly in or wholly out.
        in_flight = mirror.random_action(rng)
        await table.play(in_flight, STEP_TIMEOUT, wait_board=False)
        server.kill()  # SIGKILL
        assert server.proc is not None and server.proc.returncode == -9
    finally:
        server.kill()
        await table.close()

    state, version, payloads = restored(data_dir, info.room)
    assert version in (acknowledged_version, acknowledged_version + 1), (version, acknowledged_version)
    print(f"in-flight {in_flight!r}: {'committed' if version > acknowledged_version else 'lost before commit'} (acknowledged v{acknowledged_version})")
    if version == acknowledged_version:
        mirror.pop()  # the in-flight click never reached the log
        assert mirror.state == acknowledged_state
    # Identical to an uninterrupted replay of the same seeded game with the same actions.
    assert version == mirror.version
    assert state == mirror.state
    assert payloads == [a.model_dump(mode="json") for a in mirror.actions]
    with sqlite3.connect(data_dir / DB_NAME) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    # Restart on the same data directory and port (the links on the phones stay valid).
    server2 = await asyncio.to_thread(ServerProcess(data_dir, port=server.port).start)
    try:
        assert server2.host_token == info.host_token
        table.board = None
        await table.open_board(STEP_TIMEOUT)  # the tablet's link; the rulings list is rebuilt from the log
        assert board_shows(mirror, table.board)

        # Seat 0: the Flutter client's own reconnect (old session id, route /seat/<room>).
        # Seat 1: the phone's browser reopens /seat/<room>; the token comes from its storage.
        # Seat 2: the player scans the QR link again (/join/<room>/<token>).
        old = table.phones[0]
        assert old.route == f"/seat/{info.room}"
        await old.reconnect(STEP_TIMEOUT)
        await table.open_phone(1, via="seat", timeout=STEP_TIMEOUT)
        await table.open_phone(2, via="join", timeout=STEP_TIMEOUT)
        for seat, phone in enumerate(table.phones):
            assert phone.prefs.get(SEAT_KEY.format(room=info.room)) == info.tokens[seat]
            await phone_shows(phone, expected_phone_lines(mirror, seat), STEP_TIMEOUT)
        online = "● " + mirror.tr.t("ui.connected")
        await table.board.wait_for(lambda c: c.texts().count(online) == PLAYERS, STEP_TIMEOUT, what="all seats back online")

        # A phone without the token in its storage gets nothing.
        stranger = FletClient(server2.base_url, f"/seat/{info.room}", width=PHONE[0], height=PHONE[1], name="stranger")
        await stranger.connect(STEP_TIMEOUT)
        await stranger.wait_for(lambda c: c.find("invalid-link"), STEP_TIMEOUT, what="invalid link page")
        assert not any(name in " ".join(stranger.texts()) for name in mirror.names)
        await stranger.close()

        # The game goes on through the same phones.
        await play(table, rng, AFTER_RESTART)
        final_version = mirror.version
        crashed = [c.name for c in [table.board, *table.phones] if c is not None and c.crashed]
        assert not crashed, crashed
    finally:
        server2.kill()
        await table.close()

    state, version, payloads = restored(data_dir, info.room)
    assert version == final_version == mirror.version
    assert state == mirror.state
    assert payloads == [a.model_dump(mode="json") for a in mirror.actions]


async def test_a_new_round_starts_with_no_card_chosen(tmp_path: Path) -> None:
    """Same real server and phones: round 1 (chips, cards, moves, payout, next round) and round
    2's chips, then the first card turn of round 2 must ask for a card, not offer last round's
    (the choice once outlived the round; found by the latency benchmark's re-sent clicks)."""
    data_dir = tmp_path / "data"
    info = create_room(data_dir, vabanque_setup(PLAYERS), SEED)
    server = await asyncio.to_thread(ServerProcess(data_dir).start)
    mirror = VabanqueMirror(info.setup, info.seed)
    table = Table(server.base_url, info, mirror)
    rng = random.Random(SEED)
    try:
        await table.open_all(STEP_TIMEOUT)
        while not (mirror.state.round == 2 and mirror.state.phase == "cards"):
            await table.play(mirror.random_action(rng), STEP_TIMEOUT)
        seat = mirror.seat_view(0).waiting_for[0]
        phone = table.phones[seat]
        await phone.wait_for(lambda c: c.clickable("show-private"), STEP_TIMEOUT, what="round 2 card turn")
        await phone.click("show-private")
        await phone.wait_for(lambda c: c.clickable("card-raise"), STEP_TIMEOUT, what="round 2 card choice")
        chosen = [n["identifier"] for n in phone.find_all("card-") if n.get("selected")]
        assert chosen == [], f"seat {seat} starts round 2 with {chosen} already chosen"
        assert phone.find("seat-table-1") is None, "the table grid shows before a card was chosen"
        assert mirror.tr.t("vabanque.pick_card") in phone.texts()
    finally:
        server.kill()
        await table.close()
