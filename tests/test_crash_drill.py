"""Crash drill for every game, on a real server process.

A driver (tests/drills/play_until_killed.py) is the real server: main.build_app's app under
uvicorn, with a host board connected over the Flet protocol, while it plays random legal actions
through that server's own rooms. Drivers are forked from a fork server that imported the app once
(a fresh interpreter needs seconds to import Flet on a loaded machine). Each is SIGKILLed at a
random point (after a random number of acknowledged actions plus a random few milliseconds, so
some kills land between the commit and the acknowledgement), and the next one restarts on the same
data directory and port. After each kill:

* every acknowledged action is in the log, in order, and at most the one action in flight beyond;
* the restored state equals an uninterrupted replay, made here in the test process with the pure
  engine from the acknowledged actions alone (not from the store).

Then a restarted server serves the room, its export lists the same actions and the host board
draws (under --soak that server is `main.py` itself; tests/test_restart.py covers main.py in CI).

The kill points come from the drill seed, printed with each test (`--drill-seed=N` replays them).
`--soak=SECONDS` repeats whole drills (new rooms, new seeds, more kills each) for about that long:

    uv run pytest tests/test_crash_drill.py tests/test_reconnect.py --soak=600 -p no:cacheprovider
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from benchmarks.flet_client import TABLET, FletClient
from companion.games import GAMES
from companion.room import Host
from companion.store import Store
from tests.drills.play_until_killed import DB_NAME, PLAYERS
from tests.harness.server import RefereeServer, free_port

ROOT = Path(__file__).resolve().parent.parent
#: kills per drill: the CI run, and each drill of a soak run
CI_KILLS = 3
SOAK_KILLS = 8
#: acknowledged actions before a kill: 1..MAX_ACKS (SOAK_MAX_ACKS in a soak run, to get deeper
#: into the games), then 0..MAX_DELAY seconds more
MAX_ACKS = 12
SOAK_MAX_ACKS = 30
MAX_DELAY = 0.03
STEP_TIMEOUT = 60.0


@dataclass
class Mirror:
    """The game as the drill saw it acknowledged, replayed here from those actions alone."""

    game_id: str
    actions: list[dict[str, Any]] = field(default_factory=list)
    state: Any = None
    #: (based on version, action) the driver said it was submitting and has not acknowledged
    in_flight: tuple[int, dict[str, Any]] | None = None
    room: str | None = None
    host_token: str | None = None

    def start(self, seed: int) -> None:
        game = GAMES[self.game_id]
        self.state = game.initial_state(game.setup_model.model_validate({"players": PLAYERS}), seed)

    def apply(self, raw: dict[str, Any]) -> None:
        game = GAMES[self.game_id]
        self.state = game.apply(self.state, game.action_adapter.validate_python(raw)).state
        self.actions.append(raw)

    def hear(self, line: str) -> str:
        """Take in one line of the driver's output; returns its first word."""
        word, _, rest = line.strip().partition(" ")
        if word == "room":
            room, version, token = rest.split()
            assert int(version) == len(self.actions), f"the driver restored v{version}, the drill knows {len(self.actions)}"
            self.room, self.host_token = room, token
        elif word == "try":
            version, payload = rest.split(" ", 1)
            assert int(version) == len(self.actions), (version, len(self.actions))
            self.in_flight = (int(version), json.loads(payload))
        elif word == "ack":
            version, payload = rest.split(" ", 1)
            action = json.loads(payload)
            assert self.in_flight is not None and self.in_flight[1] == action, (self.in_flight, action)
            assert int(version) == len(self.actions) + 1, f"acknowledged v{version} after v{len(self.actions)}"
            self.apply(action)
            self.in_flight = None
        return word


class ForkServer:
    """The drill's fork server (play_until_killed --fork-server): the server imported once, one
    forked driver per life."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.drills.play_until_killed", "--fork-server"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )

    def fork(self, data_dir: Path, game_id: str, seed: int, port: int, out: Path) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{data_dir} {game_id} {seed} {port} {out}\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer.startswith("pid "), f"fork server said {answer!r} (exit {self.proc.poll()})"
        return int(answer.split()[1])

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def fork_server() -> Any:
    server = ForkServer()
    yield server
    server.close()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class Output:
    """A driver's stdout file, read line by line as it grows."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.partial = ""
        self.pending: list[str] = []

    def next_line(self) -> str | None:
        """The next complete line not yet taken, else None (a killed writer's last line may be
        cut short: it is never taken)."""
        if not self.pending and self.path.exists():
            with self.path.open("rb") as f:
                f.seek(self.offset)
                chunk = f.read()
            self.offset += len(chunk)
            *complete, self.partial = (self.partial + chunk.decode()).split("\n")
            self.pending.extend(complete)
        return self.pending.pop(0) if self.pending else None


async def run_until_killed(fork: ForkServer, data_dir: Path, port: int, seed: int, mirror: Mirror, acks: int, delay: float, life: int) -> str:
    """One life of the driver: fork it, connect a host board, let it acknowledge `acks` actions,
    wait `delay` s, SIGKILL it. Every line it wrote before dying is taken in. Returns "over" if
    the game ended before the kill, else "killed"."""
    out = data_dir / f"life-{life}.out"
    pid = fork.fork(data_dir, mirror.game_id, seed, port, out)
    output = Output(out)
    board: FletClient | None = None
    ending = "killed"

    async def words(until: Any) -> None:
        deadline = time.monotonic() + STEP_TIMEOUT
        while True:
            while (line := output.next_line()) is not None:
                if until(mirror.hear(line)):
                    return
            assert alive(pid), f"the driver died before it was killed:\n{out.read_text()}"
            assert time.monotonic() < deadline, f"driver stuck:\n{out.read_text()[-2000:]}"
            await asyncio.sleep(0.005)

    try:
        await words(lambda word: word == "serving")
        # A host board on the server while it plays: the kill lands during its redraws too.
        board = FletClient(f"http://127.0.0.1:{port}", f"/room/{mirror.room}?k={mirror.host_token}", width=TABLET[0], height=TABLET[1], name="board")
        await board.connect(STEP_TIMEOUT)
        await board.wait_for(lambda c: c.find("reissue-0"), STEP_TIMEOUT, what="the host board")
        Path(f"{out}.go").touch()
        seen = 0

        def counted(word: str) -> bool:
            nonlocal seen, ending
            seen += word == "ack"
            if word == "over":
                ending = "over"
            return seen >= acks or word == "over"

        await words(counted)
        await asyncio.sleep(delay)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        while alive(pid):  # reaped by the fork server: gone means dead, its files closed
            await asyncio.sleep(0.005)
        if board is not None:
            await board.close()
    while (line := output.next_line()) is not None:  # written before it died
        if mirror.hear(line) == "over":
            ending = "over"
    return ending


def check_restored(data_dir: Path, mirror: Mirror, label: str) -> str:
    """Open the data directory as a starting host does and compare with the mirror; the action in
    flight at the kill is either wholly in the log (then the mirror takes it) or wholly absent."""
    store = Store(data_dir / DB_NAME)
    host = Host(store)
    try:
        room = host.rooms[mirror.room]
        entries = store.log(room.id)
    finally:
        host.close()
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1)), f"{label}: gaps in the log"
    logged = [e.payload for e in entries]
    acked = len(mirror.actions)
    assert logged[:acked] == mirror.actions, f"{label}: an acknowledged action is missing or changed"
    assert len(logged) - acked in (0, 1), f"{label}: {len(logged) - acked} unacknowledged actions in the log"
    fate = "nothing in flight"
    if len(logged) > acked:
        assert mirror.in_flight is not None and logged[acked] == mirror.in_flight[1], f"{label}: an action nobody submitted: {entries[acked]}"
        mirror.apply(logged[acked])
        fate = "in-flight action committed"
    elif mirror.in_flight is not None:
        fate = "in-flight action lost before its commit"
    mirror.in_flight = None
    assert room.version == len(mirror.actions)
    assert room.state == mirror.state, f"{label}: restored state differs from the uninterrupted replay"
    return fate


async def check_served(base_url: str, mirror: Mirror) -> None:
    """A restarted server on the data directory: the room, its export, a host board."""
    health = await asyncio.to_thread(lambda: json.loads(urllib.request.urlopen(f"{base_url}/healthz", timeout=10).read()))
    assert health["rooms"] >= 1
    url = f"{base_url}/export/{mirror.room}.json?k={mirror.host_token}"
    exported = await asyncio.to_thread(lambda: json.loads(urllib.request.urlopen(url, timeout=10).read()))
    game = GAMES[mirror.game_id]
    complete = exported["complete"]
    expected = [a if complete else game.redact(game.action_adapter.validate_python(a)) for a in mirror.actions]
    assert [e["payload"] for e in exported["entries"]] == json.loads(json.dumps(expected))
    board = FletClient(base_url, f"/room/{mirror.room}?k={mirror.host_token}", width=TABLET[0], height=TABLET[1], name="board-after")
    await board.connect(STEP_TIMEOUT)
    try:
        await board.wait_for(lambda c: c.find(f"seat-{len(PLAYERS) - 1}"), STEP_TIMEOUT, what="the host board after the restart")
        assert not board.crashed
    finally:
        await board.close()


async def check_restart(fork: ForkServer | None, data_dir: Path, port: int, seed: int, mirror: Mirror) -> None:
    """Start a server on the data directory and port once more (a forked one that does not play,
    or with fork=None `main.py` itself, which takes seconds to import) and check what it serves."""
    if fork is None:
        server = RefereeServer(data_dir, port)
        await asyncio.to_thread(server.start)
        try:
            assert server.host_token == mirror.host_token
            await check_served(server.base, mirror)
        finally:
            await asyncio.to_thread(server.kill)
        return
    out = data_dir / "restart.out"
    pid = fork.fork(data_dir, mirror.game_id, seed, port, out)  # no .go file: it serves, never plays
    try:
        output = Output(out)
        deadline = time.monotonic() + STEP_TIMEOUT
        while (line := output.next_line()) is None or not line.startswith("serving"):
            assert alive(pid) and time.monotonic() < deadline, out.read_text()
            if line is None:
                await asyncio.sleep(0.01)
        await check_served(f"http://127.0.0.1:{port}", mirror)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        while alive(pid):
            await asyncio.sleep(0.005)


async def drill(fork: ForkServer, data_dir: Path, game_id: str, seed: int, kills: int, with_main: bool) -> list[str]:
    data_dir.mkdir(parents=True)
    rng = random.Random(seed)
    port = free_port()
    mirror = Mirror(game_id)
    mirror.start(seed)
    report = []
    for kill in range(kills):
        acks, delay = rng.randint(1, SOAK_MAX_ACKS if with_main else MAX_ACKS), rng.uniform(0, MAX_DELAY)
        started = time.monotonic()
        ending = await run_until_killed(fork, data_dir, port, seed, mirror, acks, delay, kill + 1)
        label = f"{game_id} seed {seed} kill {kill + 1} (after {acks} acks + {delay * 1000:.0f} ms)"
        fate = check_restored(data_dir, mirror, label)
        report.append(f"{label}: v{len(mirror.actions)}, {fate} ({time.monotonic() - started:.1f} s)")
        if ending == "over":
            report.append(f"{game_id}: the game ended")
            break
    started = time.monotonic()
    await check_restart(None if with_main else fork, data_dir, port, seed, mirror)
    report.append(f"{game_id}: {'main.py' if with_main else 'a restarted server'} serves the restored room ({time.monotonic() - started:.1f} s)")
    return report


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_kill_9_of_the_real_server_loses_no_acknowledged_action(
    game_id: str, tmp_path: Path, drill_seed: int, soak: float, fork_server: ForkServer
) -> None:
    deadline = time.monotonic() + soak
    seeds = random.Random(f"{drill_seed}-{game_id}")
    round_ = 0
    while True:
        round_ += 1
        seed = seeds.randrange(1, 2**31)
        kills = SOAK_KILLS if soak else CI_KILLS
        for line in await drill(fork_server, tmp_path / f"round-{round_}", game_id, seed, kills, with_main=bool(soak)):
            print(line)
        if time.monotonic() >= deadline:
            break
