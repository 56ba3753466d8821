"""SIGTERM mid-game (what systemd, `docker stop` or a logout sends): the real server stops cleanly.

The store is closed in the ASGI lifespan's shutdown (main.close_store_on_shutdown), so the WAL is
checkpointed into the database and no -wal/-shm file is left; the process exits 0 like Ctrl+C;
a restart on the same data directory restores the game as it was acknowledged.
"""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
from pathlib import Path

import pytest

from benchmarks.latency import DB_NAME, ServerProcess, Table, VabanqueMirror, board_shows, create_room, vabanque_setup
from tests.test_restart import STEP_TIMEOUT, play, restored

pytestmark = pytest.mark.slow

SEED = 1717
PLAYERS = 3
ACTIONS = 8


async def test_sigterm_mid_game_closes_the_store_and_the_game_comes_back(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    info = create_room(data_dir, vabanque_setup(PLAYERS), SEED)
    server = await asyncio.to_thread(ServerProcess(data_dir).start)
    mirror = VabanqueMirror(info.setup, info.seed)
    table = Table(server.base_url, info, mirror)
    try:
        await table.open_all(STEP_TIMEOUT)
        await play(table, random.Random(SEED), ACTIONS)
        assert (data_dir / f"{DB_NAME}-wal").exists(), "mid-game the server writes through the WAL"
        # Devices still connected when the signal comes: uvicorn closes their sockets first.
        server.kill(signal.SIGTERM)
        assert server.proc is not None and server.proc.returncode == 0, "\n".join(server.lines[-40:])
    finally:
        server.kill()
        await table.close()

    leftovers = sorted(p.name for p in data_dir.iterdir() if p.name.endswith(("-wal", "-shm")))
    assert leftovers == [], f"the store was not closed: {leftovers}"
    with sqlite3.connect(data_dir / DB_NAME) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    state, version, payloads = restored(data_dir, info.room)
    assert version == mirror.version == ACTIONS
    assert state == mirror.state
    assert payloads == [a.model_dump(mode="json") for a in mirror.actions]

    again = await asyncio.to_thread(ServerProcess(data_dir, port=server.port).start)
    try:
        table.board = None
        await table.open_board(STEP_TIMEOUT)
        assert board_shows(mirror, table.board)
    finally:
        again.stop()
        await table.close()
