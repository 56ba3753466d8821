"""Crash drill for every game: a process playing through the durable room layer is SIGKILLed at
random moments, restarted, killed again...; after each kill every acknowledged action is in the
log and the restored state equals an uninterrupted replay of that log."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.room import Host, replay
from companion.store import Store

ROOT = Path(__file__).resolve().parent.parent
KILLS = 4


def run_and_kill(data_dir: Path, game_id: str, seed: int, after_acks: int) -> int:
    """Start the child, let it acknowledge `after_acks` actions, SIGKILL it; return the highest
    acknowledged version (0 if none)."""
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.drills.play_until_killed", str(data_dir), game_id, str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    acked, seen = 0, 0
    deadline = time.monotonic() + 60
    for line in child.stdout:
        if line.startswith("ack "):
            acked = int(line.split()[1])
            seen += 1
        if seen >= after_acks or line.startswith("over") or time.monotonic() > deadline:
            break
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    return acked


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_kill_9_at_random_points_loses_no_acknowledged_action(game_id: str, tmp_path: Path) -> None:
    rng = random.Random(game_id)
    acknowledged = 0
    for kill in range(KILLS):
        acked = run_and_kill(tmp_path, game_id, seed=7, after_acks=rng.randint(1, 25))
        acknowledged = max(acknowledged, acked)
        store = Store(tmp_path / "referee.sqlite3")
        try:
            host = Host(store)
            (room,) = host.rooms.values()
            # every acknowledged action survived; at most the one in flight went further
            assert room.version >= acknowledged, f"kill {kill}: acked {acknowledged}, log has {room.version}"
            entries = store.log(room.id)
            assert [e.seq for e in entries] == list(range(1, len(entries) + 1))
            fresh = replay(room.game, room.setup, room.seed, entries)
            assert fresh.state == room.state
            acknowledged = room.version
            host.store._executor.shutdown(wait=True)
        finally:
            store.close()
