"""Many rooms at once: our server vs a bare Flet pubsub app, same topology, same run.

    uv run python benchmarks/rooms.py                 # Vabanque, R = 1, 10, 50 (+ search), ~8 min
    uv run python benchmarks/rooms.py --quick         # R = 1, 10, short play, ~2.5 min
    uv run python benchmarks/rooms.py --game chicago_poker --quick       # any of the four games
    uv run python benchmarks/rooms.py --game all --quick --no-page-weight  # each in turn, then side by side
    uv run python benchmarks/rooms.py --rooms 1 5 --play 20 --no-search --no-restore

`--game` (vabanque by default, or corruption, chicago_poker, reglement, all) is what every room of
ours plays; the bare app is the same game-free baseline for each, run again beside each game.
With `all` the four games run in turn (their R values, search, slow host and restore each), then
a table puts them side by side: net server CPU per action ours / bare (and the ratio) at each R,
the largest R with p95 < 100 ms (ours, bare), the slow host's p95 (ours / bare), and bytes per
action per board session and per phone session (ours, median / p95 over every R); the page
weight runs once at the end.

For each R (loopback only, each phase bounded in time):
  * ours: a fresh data dir with R rooms of the game (created before the server starts, one
    process; every rule at its default), `main.py` started (cold start = Popen -> first 200 on
    /), then per room one board session and one phone session per seat (`latency.Table`), then
    `--play` seconds during which every room plays random legal actions (the game's mirror,
    `latency.MIRRORS`: the engine's `random_action` replayed locally) clicked the way the table
    enters them (`clicks_for` on the device `device_for` names: the acting seat's phone, or the
    host board for the host's entries: Corruption's deal, Chicago Poker's business tiles and
    deck cards), with a think time between a room's actions (`--think`, uniform 0.5x..1.5x); a
    device that acted moments before first waits out its own double-tap / handover window, as
    a player would (`Table.play`); the delay is click written -> the board frame showing the
    action (`latency.board_shows`: its ruling list equals the mirror's);
  * bare: `benchmarks/bare_app.py` (same topology, same durable SQLite append per action, no
    game code), R rooms with a board and `--players` seat sessions each, driven the same way;
    the delay is click written -> the board frame showing the new version.
  Both servers run in separate processes; the order (ours first / bare first) alternates per R.
  Server RSS per session = (RSS after all sessions rendered - RSS before) / sessions. CPU = the
  server's user+sys time during play (100 % = one core). The driver's own CPU is shown as well:
  it shares the machine's cores with the server.
  Bytes per action per session: each room's frames (whole websocket messages, as received) are
  given to the action during which they arrived (from the start of its clicks to the start of
  the room's next action, or the end of play): per board session and per phone session, median
  and p95 over (action, session) pairs.
Then: the largest R with p95 < 100 ms, ours and bare (bisection between the measured R values,
shorter play), a slow-host run (`--slow-host`: one room of 1 + 6 devices, each server alone in a
cgroup v1 CPU quota standing in for a tablet; the quota is checked first with a busy loop), the
restore time of R rooms with long logs, and the page weight (benchmarks/page_weight.py).
The SHA-256 of bare_app.py and of the click drivers (latency.py, flet_client.py) is printed
first: runs compare while they are the same (latency.py changed when it learnt the four games).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

from benchmarks.flet_client import PHONE, TABLET, FletClient, wait_for_any  # noqa: E402
from benchmarks.latency import (  # noqa: E402
    GAME_IDS,
    ServerProcess,
    Table,
    create_rooms,
    mirror_for,
    percentile,
    server_env,
    server_errors,
    vabanque_setup,
)

BARE = ROOT / "benchmarks" / "bare_app.py"
#: what the comparison takes as frozen: the bare app, and the drivers that click for both apps
FROZEN = (BARE, ROOT / "benchmarks" / "latency.py", ROOT / "benchmarks" / "flet_client.py")
PROFILE_DIR = ""  # --profile
#: the cgroup v1 CPU controller the slow-host run puts each server in (--slow-host)
CGROUP_CPU = Path("/sys/fs/cgroup/cpu")
#: the servers of this run are put in this group when set (see SlowHost)
SLOW_HOST: SlowHost | None = None

# R rooms in one process (latency.create_room makes one room per process); optionally each
# with a long log of random legal actions (written with synchronous=OFF: setup only).
RESTORE_SNIPPET = r"""
import sys, time, json
from pathlib import Path
sys.path.insert(0, sys.argv[1])
t0 = time.perf_counter()
from companion.room import Host
from companion.store import Store
t1 = time.perf_counter()
host = Host(Store(Path(sys.argv[2]) / "referee.sqlite3"))
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "restore_s": t2 - t1, "rooms": len(host.rooms),
                  "entries": sum(len(r.log_entries) for r in host.rooms.values())}))
host.close()
"""


@dataclass
class Result:
    app: str
    rooms: int
    sessions: int = 0
    latencies: list[float] = field(default_factory=list)
    play_s: float = 0.0
    cold_start_s: float = float("nan")
    first_view_s: float = float("nan")
    connect_s: float = 0.0
    rss_before: int = 0
    rss_after: int = 0
    rss_end: int = 0
    server_cpu_s: float = 0.0
    #: server CPU share (1.0 = one core) with every session connected and nobody acting
    idle_cpu: float = 0.0
    driver_cpu_s: float = 0.0
    retries: int = 0
    #: ours: actions whose device first waited out its own double-tap / handover window
    paced: int = 0
    errors: list[str] = field(default_factory=list)
    load: tuple[float, float, float] = (0.0, 0.0, 0.0)
    server_errors: list[str] = field(default_factory=list)
    profile: str = ""
    #: bytes received per (action, session) during play: the board sessions' and the phones'
    board_bytes: list[int] = field(default_factory=list)
    phone_bytes: list[int] = field(default_factory=list)
    #: perf_counter at the end of play
    play_end: float = 0.0
    #: ours: the board pages' parts built and reused during play (/healthz), per action
    board_parts: tuple[float, float] | None = None

    @property
    def ms(self) -> list[float]:
        return [x * 1000 for x in self.latencies]

    def p(self, q: float) -> float:
        return percentile(self.ms, q)

    @property
    def per_session_kib(self) -> float:
        return (self.rss_after - self.rss_before) / max(1, self.sessions) / 1024

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.play_s if self.play_s else 0.0

    @property
    def cpu_ms_per_action(self) -> float:
        """Server CPU per action, net of the idle share."""
        return max(0.0, self.server_cpu_s - self.idle_cpu * self.play_s) * 1000 / max(1, len(self.latencies))

    @property
    def cpu_pct(self) -> float:
        return 100 * self.server_cpu_s / self.play_s if self.play_s else 0.0


class SlowHost:
    """A cgroup v1 CPU-controller group whose processes share `share` of one core
    (cpu.cfs_quota_us / cpu.cfs_period_us): a tablet's CPU, standing in for it. The scheduler
    throttles the group within each period; `cpulimit`, which stops and resumes the process,
    would distort the latencies by itself."""

    PERIOD_US = 100_000

    def __init__(self, share: float):
        self.share = share
        self.path = CGROUP_CPU / f"referee-slow-host-{os.getpid()}"

    @staticmethod
    def available() -> str | None:
        """None when a group can be made here, else why not."""
        if not (CGROUP_CPU / "cpu.cfs_quota_us").exists():
            return f"no cgroup v1 CPU controller at {CGROUP_CPU}"
        if not os.access(CGROUP_CPU, os.W_OK):
            return f"{CGROUP_CPU} is not writable (run as root)"
        return None

    def create(self) -> SlowHost:
        self.path.mkdir(exist_ok=True)
        (self.path / "cpu.cfs_period_us").write_text(str(self.PERIOD_US))
        (self.path / "cpu.cfs_quota_us").write_text(str(int(self.share * self.PERIOD_US)))
        return self

    def add(self, pid: int) -> None:
        """Move a process (every thread of it) into the group."""
        (self.path / "cgroup.procs").write_text(str(pid))

    def check(self, seconds: float = 3.0) -> float:
        """The share of a core a busy loop in the group gets over `seconds`."""
        loop = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        try:
            self.add(loop.pid)
            proc = psutil.Process(loop.pid)
            time.sleep(0.3)  # settled in the group
            c0, t0 = cpu_of(proc), time.perf_counter()
            time.sleep(seconds)  # measuring a process's CPU over a wall-clock window
            return (cpu_of(proc) - c0) / (time.perf_counter() - t0)
        finally:
            loop.kill()
            loop.wait()

    def close(self) -> None:
        """Remove the group (any process still in it goes back to the root group first)."""
        with contextlib.suppress(OSError):
            for pid in (self.path / "cgroup.procs").read_text().split():
                (CGROUP_CPU / "cgroup.procs").write_text(pid)
            self.path.rmdir()


async def slow_host_run(args: argparse.Namespace) -> tuple[Result, Result] | None:
    """One room of 1 board + `--slow-players` phones, ours and bare, each server alone in the
    same CPU quota (`--slow-host` share of a core), checked first with a busy loop. None when no
    such group can be made here."""
    global SLOW_HOST
    share = args.slow_host
    print(f"\n== slow host: each server in a cgroup v1 CPU quota of {100 * share:.0f} % of a core ==", flush=True)
    why_not = SlowHost.available()
    if why_not:
        print(f"skipped: {why_not}")
        return None
    group = SlowHost(share).create()
    try:
        load = os.getloadavg()
        measured = await asyncio.to_thread(group.check)
        ok = abs(measured - share) <= 0.03
        print(
            f"quota check: a busy loop in the group ran at {100 * measured:.1f} % of a core "
            f"(wanted {100 * share:.0f} ± 3 %): {'OK' if ok else 'OFF (the machine is too busy to give the group its quota: the figures below are not those of such a host)'}; "
            f"load {' '.join(f'{x:.2f}' for x in load)}",
            flush=True,
        )
        sub = argparse.Namespace(**{**vars(args), "players": args.slow_players, "play": args.slow_play})
        SLOW_HOST = group
        try:
            pair = await asyncio.wait_for(run_pair(1, sub, bare_first=False), sub.play * 2 + 600)
        finally:
            SLOW_HOST = None
        print_results([pair], sub, f"slow host ({100 * share:.0f} % of a core), 1 room of {1 + sub.players} devices")
        ours, bare = pair
        if ours.latencies and bare.latencies:
            ratio = ours.p(0.95) / bare.p(0.95)
            print(f"slow host p95: ours {ours.p(0.95):.1f} ms, bare {bare.p(0.95):.1f} ms: {ratio:.2f}x (target <= 0.5x: {'OK' if ratio <= 0.5 else 'MISSED'})", flush=True)
        return pair
    finally:
        group.close()


async def gather_limited(coros: list[Any], limit: int) -> list[Any]:
    sem = asyncio.Semaphore(limit)

    async def one(c: Any) -> Any:
        async with sem:
            return await c

    return await asyncio.gather(*(one(c) for c in coros))


def cpu_of(proc: psutil.Process) -> float:
    t = proc.cpu_times()
    return t.user + t.system


def start_profiler(result: Result, server: ServerProcess, play: float) -> subprocess.Popen[bytes] | None:
    """py-spy on the server for the play window (`--profile DIR`; needs py-spy on PATH, e.g.
    `uv run --with py-spy python benchmarks/rooms.py --profile /tmp/prof`)."""
    if not PROFILE_DIR:
        return None
    exe = shutil.which("py-spy")
    if exe is None:
        print("  --profile: py-spy not on PATH (run with `uv run --with py-spy ...`)", flush=True)
        return None
    out = Path(PROFILE_DIR) / f"{result.app}-R{result.rooms}.txt"
    result.profile = str(out)
    return subprocess.Popen(
        [exe, "record", "--pid", str(server.pid), "--format", "raw", "--rate", "200", "--nonblocking", "--duration", str(int(play) + 1), "--output", str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def profile_summary(path: str, top: int = 25) -> list[str]:
    """Top functions of a py-spy raw (collapsed) profile: inclusive and self share of samples."""
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack:
            continue
        n = int(count)
        total += n
        frames = [f.split(" (")[0] + " (" + f.split(" (")[-1].split("/")[-1] if " (" in f else f for f in stack.split(";")]
        for f in set(frames):
            inclusive[f] = inclusive.get(f, 0) + n
        own[frames[-1]] = own.get(frames[-1], 0) + n
    lines = [f"  {total} samples; top inclusive (% of on-CPU samples):"]
    for f, n in sorted(inclusive.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"    {100 * n / total:5.1f}%  {f[:150]}")
    lines.append("  top self:")
    for f, n in sorted(own.items(), key=lambda kv: -kv[1])[:15]:
        lines.append(f"    {100 * n / total:5.1f}%  {f[:150]}")
    return lines


def paced_loop(
    result: Result,
    args: argparse.Namespace,
    index: int,
    name: str,
    act: Callable[[random.Random], Awaitable[tuple[float, float]]],
    over: Callable[[], bool] = lambda: False,
    starts: list[float] | None = None,
) -> Callable[[float], Awaitable[None]]:
    """One room's play, the same for both apps: a random start within one think time, then
    `act(rng)` (-> click written, board showed it) with a think time of 0.5x..1.5x between
    actions, until the deadline or `over()`. A failure (a timeout) is counted and stops the room.
    `starts` gets the start of each accepted action (before its first click)."""
    rng = random.Random(args.seed * 1000 + index)

    async def loop(deadline: float) -> None:
        await asyncio.sleep(rng.uniform(0, args.think))
        while time.monotonic() < deadline and not over():
            began = time.perf_counter()
            try:
                sent, seen = await act(rng)
            except Exception as exc:  # noqa: BLE001 - counted and shown
                result.errors.append(f"{name}: {type(exc).__name__}: {str(exc)[:200]}")
                return
            result.latencies.append(seen - sent)
            if starts is not None:
                starts.append(began)
            await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))

    return loop


async def play_window(
    result: Result, server: ServerProcess, loops: list[Any], play: float
) -> None:
    """Run every room's loop for `play` seconds; measure server and driver CPU over it."""
    proc = psutil.Process(server.pid)
    me = psutil.Process()
    idle0, i0 = cpu_of(proc), time.perf_counter()
    await asyncio.sleep(3.0)
    result.idle_cpu = (cpu_of(proc) - idle0) / (time.perf_counter() - i0)
    profiler = start_profiler(result, server, play)
    cpu0, me0, t0 = cpu_of(proc), cpu_of(me), time.perf_counter()
    result.load = os.getloadavg()
    deadline = time.monotonic() + play
    await asyncio.gather(*(loop(deadline) for loop in loops))
    if profiler is not None:
        await asyncio.to_thread(profiler.wait, 60)
    result.play_end = time.perf_counter()
    result.play_s = result.play_end - t0
    result.server_cpu_s = cpu_of(proc) - cpu0
    result.driver_cpu_s = cpu_of(me) - me0


def count_bytes(result: Result, starts: list[float], board: FletClient | None, phones: list[FletClient]) -> None:
    """One room's bytes per action per session: each session's frames from the start of an
    accepted action to the start of the room's next one (the last: to the end of play)."""
    bounds = [*starts, result.play_end]
    for client, out in [(board, result.board_bytes), *((phone, result.phone_bytes) for phone in phones)]:
        if client is None:
            continue
        sizes = [0] * len(starts)
        k = 0
        for frame in client.frames:
            while k < len(starts) and frame.at >= bounds[k + 1]:
                k += 1
            if k >= len(starts):
                break
            if frame.at >= bounds[k]:
                sizes[k] += frame.size
        out.extend(sizes)


def board_parts(server: ServerProcess) -> tuple[int, int]:
    """The parts (groups included) the server's board pages built and reused so far."""
    _, body = server.get("/healthz")
    counts = json.loads(body).get("parts", {}).get("BoardScreen", {})
    return counts.get("built", 0), counts.get("reused", 0)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def start_server(server: ServerProcess) -> ServerProcess:
    """Start a server; in the slow-host run, put it in the CPU-quota group at once."""
    server.start()
    if SLOW_HOST is not None:
        SLOW_HOST.add(server.pid)
    return server


async def run_ours(r: int, args: argparse.Namespace) -> Result:
    result = Result("ours", r)
    with tempfile.TemporaryDirectory(prefix="referee-rooms-") as tmp:
        infos = create_rooms(Path(tmp), vabanque_setup(args.players), r, args.seed, game=args.game)
        server = start_server(ServerProcess(Path(tmp), env=server_env(args.game, Path(tmp))))
        result.cold_start_s = server.cold_start or float("nan")
        tables: list[Table] = []
        try:
            t0 = time.perf_counter()
            result.rss_before = server.rss()
            tables = [Table(server.base_url, info, mirror_for(info)) for info in infos]
            await tables[0].open_board(args.timeout)
            result.first_view_s = time.perf_counter() - server.started_at
            await tables[0].board.close()
            result.rss_before = server.rss()  # after the first session's warm-up
            await gather_limited([t.open_all(args.timeout) for t in tables], 8)
            result.connect_s = time.perf_counter() - t0
            result.sessions = sum(1 + len(t.phones) for t in tables)
            result.rss_after = server.rss()

            starts: list[list[float]] = [[] for _ in tables]
            loops = [
                paced_loop(
                    result, args, i, f"room {t.info.room}",
                    act=lambda rng, t=t: t.play(t.mirror.random_action(rng), args.timeout),
                    over=lambda t=t: t.mirror.over,
                    starts=starts[i],
                )
                for i, t in enumerate(tables)
            ]  # fmt: skip
            parts_before = await asyncio.to_thread(board_parts, server)  # (urllib: off the driver's loop)
            await play_window(result, server, loops, args.play)
            parts_after = await asyncio.to_thread(board_parts, server)
            actions = max(1, len(result.latencies))
            result.board_parts = ((parts_after[0] - parts_before[0]) / actions, (parts_after[1] - parts_before[1]) / actions)
            for t, room_starts in zip(tables, starts):
                count_bytes(result, room_starts, t.board, t.phones)
            result.retries = sum(t.retries for t in tables)
            result.paced = sum(t.paced for t in tables)
            result.rss_end = server.rss()
        finally:
            await asyncio.gather(*(t.close() for t in tables), return_exceptions=True)
            result.server_errors = server_errors(server.lines)
            server.stop()
    return result


class BareRoomDriver:
    def __init__(self, base_url: str, room: str, players: int):
        self.board = FletClient(base_url, f"/board/{room}", width=TABLET[0], height=TABLET[1], name=f"bare-board-{room}")
        self.seats = [FletClient(base_url, f"/seat/{room}/{s}", width=PHONE[0], height=PHONE[1], name=f"bare-seat-{room}-{s}") for s in range(players)]
        self.version = 0
        self.retries = 0

    async def open(self, timeout: float) -> None:
        await self.board.connect(timeout)
        await self.board.wait_for(lambda c: f"v {self.version}" in c.texts(), timeout, what="bare board")
        for seat in self.seats:
            await seat.connect(timeout)
            await seat.wait_for(lambda c: c.clickable("act"), timeout, what="bare seat")

    async def act(self, seat: int, timeout: float) -> tuple[float, float]:
        """Click the seat's button (re-sent if a re-render replaced it first, like Table.click);
        returns (click written, board frame showing the new version)."""
        phone, expected = self.seats[seat], f"v {self.version + 1}"
        deadline = time.monotonic() + timeout
        while True:
            target = await phone.wait_for(lambda c: c.clickable("act"), max(0.1, deadline - time.monotonic()), what="act")
            sent = await phone.send_event(target["_i"], "click", None)

            def outcome(clicked: int = target["_i"]) -> Any:
                if expected in self.board.texts():
                    return "done"
                again = phone.clickable("act")
                return "again" if again is not None and again["_i"] != clicked else None

            res, _, frame = await wait_for_any([phone, self.board], outcome, max(0.1, deadline - time.monotonic()), what="bare action")
            if res == "done":
                self.version += 1
                return sent, frame.at if frame is not None else time.perf_counter()
            self.retries += 1

    async def close(self) -> None:
        for c in [self.board, *self.seats]:
            await c.close()


async def run_bare(r: int, args: argparse.Namespace) -> Result:
    result = Result("bare", r)
    with tempfile.TemporaryDirectory(prefix="referee-bare-") as tmp:
        server = start_server(ServerProcess(Path(tmp), script=BARE))
        result.cold_start_s = server.cold_start or float("nan")
        drivers: list[BareRoomDriver] = []
        try:
            t0 = time.perf_counter()
            warm = BareRoomDriver(server.base_url, "warmup", 0)
            await warm.open(args.timeout)
            result.first_view_s = time.perf_counter() - server.started_at
            await warm.close()
            result.rss_before = server.rss()
            drivers = [BareRoomDriver(server.base_url, f"r{i}", args.players) for i in range(r)]
            await gather_limited([d.open(args.timeout) for d in drivers], 8)
            result.connect_s = time.perf_counter() - t0
            result.sessions = sum(1 + len(d.seats) for d in drivers)
            result.rss_after = server.rss()

            starts = [[] for _ in drivers]
            loops = [
                paced_loop(result, args, i, d.board.name, act=lambda rng, d=d: d.act(rng.randrange(args.players), args.timeout), starts=starts[i])
                for i, d in enumerate(drivers)
            ]
            await play_window(result, server, loops, args.play)
            for d, room_starts in zip(drivers, starts):
                count_bytes(result, room_starts, d.board, d.seats)
            result.retries = sum(d.retries for d in drivers)
            result.rss_end = server.rss()
        finally:
            await asyncio.gather(*(d.close() for d in drivers), return_exceptions=True)
            result.server_errors = server_errors(server.lines)
            server.stop()
    return result


# -- restore --------------------------------------------------------------------------------


async def measure_restore(r: int, log_len: int, args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"rooms": r, "log_len": log_len}
    with tempfile.TemporaryDirectory(prefix="referee-empty-") as empty:
        server = ServerProcess(Path(empty)).start()
        out["cold_empty_s"] = server.cold_start
        server.stop()
    with tempfile.TemporaryDirectory(prefix="referee-restore-") as tmp:
        t0 = time.perf_counter()
        infos = create_rooms(Path(tmp), vabanque_setup(args.players), r, args.seed, log_len=log_len, game=args.game)
        out["generate_s"] = time.perf_counter() - t0
        proc = await asyncio.to_thread(
            subprocess.run, [sys.executable, "-c", RESTORE_SNIPPET, str(ROOT), tmp], check=True, capture_output=True, text=True, timeout=300, cwd=ROOT
        )
        out.update(json.loads(proc.stdout.strip().splitlines()[-1]))
        server = ServerProcess(Path(tmp), env=server_env(args.game, Path(tmp))).start()
        out["cold_restored_s"] = server.cold_start
        try:
            info = infos[-1]
            table = Table(server.base_url, info, mirror_for(info))
            t1 = time.perf_counter()
            board = FletClient(server.base_url, f"/room/{info.room}?k={info.host_token}", width=TABLET[0], height=TABLET[1])
            await board.connect(args.timeout)
            await board.wait_for(lambda c: len(c.texts()) > 20, args.timeout, what="restored board")
            out["first_board_s"] = time.perf_counter() - t1
            out["rss_mib"] = server.rss() / 2**20
            await board.close()
            del table
        finally:
            server.stop()
    return out


# -- report -----------------------------------------------------------------------------------


def fmt_ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b and not math.isnan(a) and not math.isnan(b) else "n/a"


def table_lines(results: list[tuple[Result, Result]]) -> list[str]:
    head = (
        f"{'R':>4} {'app':<5} {'sess':>5} {'acts':>5} {'act/s':>6} {'med ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7} "
        f"{'KiB/sess':>9} {'srv CPU':>8} {'idle':>5} {'net ms/act':>10} {'drv CPU':>8} {'cold s':>7} {'1st view s':>10} {'retry':>5} {'err':>4}  load 1/5/15"
    )
    lines = [head, "-" * len(head)]
    for ours, bare in results:
        for res in (ours, bare):
            if not res.latencies:
                lines.append(f"{res.rooms:>4} {res.app:<5} {res.sessions:>5}  no actions measured; errors: {res.errors[:2]}")
                continue
            lines.append(
                f"{res.rooms:>4} {res.app:<5} {res.sessions:>5} {len(res.latencies):>5} {res.rate:>6.1f} "
                f"{statistics.median(res.ms):>7.1f} {res.p(0.95):>7.1f} {res.p(0.99):>7.1f} {max(res.ms):>7.0f} "
                f"{res.per_session_kib:>9.0f} {res.cpu_pct:>7.0f}% {100 * res.idle_cpu:>4.0f}% {res.cpu_ms_per_action:>10.1f} "
                f"{100 * res.driver_cpu_s / max(1e-9, res.play_s):>7.0f}% {res.cold_start_s:>7.2f} {res.first_view_s:>10.2f} "
                f"{res.retries:>5} {len(res.errors):>4}  {' '.join(f'{x:.2f}' for x in res.load)}"
            )
        if ours.latencies and bare.latencies:
            lines.append(
                f"{ours.rooms:>4} {'ratio':<5} {'':>5} {'':>5} {fmt_ratio(ours.rate, bare.rate):>6} "
                f"{fmt_ratio(statistics.median(ours.ms), statistics.median(bare.ms)):>7} {fmt_ratio(ours.p(0.95), bare.p(0.95)):>7} "
                f"{fmt_ratio(ours.p(0.99), bare.p(0.99)):>7} {'':>7} {fmt_ratio(ours.per_session_kib, bare.per_session_kib):>9} "
                f"{fmt_ratio(ours.cpu_pct, bare.cpu_pct):>8} {'':>5} "
                f"{fmt_ratio(ours.cpu_ms_per_action, bare.cpu_ms_per_action):>10}"
                f"   targets: p95 <= 1.5x {'OK' if ours.p(0.95) <= 1.5 * bare.p(0.95) else 'MISSED'}, "
                f"memory/session <= 2x {'OK' if ours.per_session_kib <= 2 * bare.per_session_kib else 'MISSED'}"
            )
    return lines


def bytes_line(res: Result) -> str:
    def one(sizes: list[int]) -> str:
        if not sizes:
            return "n/a"
        return f"{statistics.median(sizes):>8.0f} / {percentile(sizes, 0.95):>8.0f} B"

    return f"board {one(res.board_bytes)}   phones {one(res.phone_bytes)}   ({len(res.board_bytes)} board, {len(res.phone_bytes)} phone samples)"


def print_results(results: list[tuple[Result, Result]], args: argparse.Namespace, title: str) -> None:
    print(f"\n== {title}: {args.players} players/room ({1 + args.players} sessions), think {args.think:.1f} s, play {args.play:.0f} s per R and app ==")
    print(f"machine: {os.cpu_count()} CPUs; load now {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("\n".join(table_lines(results)), flush=True)
    print("bytes per action per session (median / p95; board sessions, phone sessions):")
    for ours, bare in results:
        for res in (ours, bare):
            print(f"  R={res.rooms:<3} {res.app:<5} {bytes_line(res)}")
        if ours.board_bytes and bare.board_bytes and ours.phone_bytes and bare.phone_bytes:
            print(
                f"  R={ours.rooms:<3} ratio board {fmt_ratio(statistics.median(ours.board_bytes), statistics.median(bare.board_bytes))} / "
                f"{fmt_ratio(percentile(ours.board_bytes, 0.95), percentile(bare.board_bytes, 0.95))}, "
                f"phones {fmt_ratio(statistics.median(ours.phone_bytes), statistics.median(bare.phone_bytes))} / "
                f"{fmt_ratio(percentile(ours.phone_bytes, 0.95), percentile(bare.phone_bytes, 0.95))}"
            )
    for ours, _ in results:
        if ours.paced:
            print(f"  R={ours.rooms:<3} ours: {ours.paced} actions first waited out their device's own tap window (a phone's double tap, the board's handover)")
        if ours.board_parts is not None:
            built, reused = ours.board_parts
            print(f"  R={ours.rooms:<3} ours: board parts per action built {built:.1f}, reused {reused:.1f} (hit rate {reused / max(1e-9, built + reused):.0%})")
    for ours, bare in results:
        for res in (ours, bare):
            for e in res.errors[:3]:
                print(f"  R={res.rooms} {res.app} error: {e}")
            for line in res.server_errors[:6]:
                print(f"  R={res.rooms} {res.app} server: {line}")
            if res.profile and Path(res.profile).exists():
                print(f"  py-spy profile of the {res.app} server, R={res.rooms} ({res.profile}):")
                print("\n".join(profile_summary(res.profile)))


async def run_pair(r: int, args: argparse.Namespace, bare_first: bool) -> tuple[Result, Result]:
    if bare_first:
        bare = await run_bare(r, args)
        ours = await run_ours(r, args)
    else:
        ours = await run_ours(r, args)
        bare = await run_bare(r, args)
    return ours, bare


def under_100(res: Result) -> bool:
    return bool(res.latencies) and res.p(0.95) < 100 and not res.errors


async def search_largest(app: str, runner: Any, measured: list[Result], args: argparse.Namespace, started: float) -> str:
    """The largest R with p95 < 100 ms for one app: bisection between the measured R values,
    with `--search-play` seconds of play per probe. Returns it as a short label ("10", ">= 50",
    "0": already R=1 is over)."""
    ok = [res.rooms for res in measured if under_100(res)]
    lo = max(ok) if ok else 0
    hi = min([res.rooms for res in measured if not under_100(res) and res.rooms > lo], default=None)
    sub = argparse.Namespace(**{**vars(args), "play": args.search_play})
    for _ in range(args.search_steps):
        if hi is None or hi - lo <= max(2, lo // 5) or time.monotonic() - started > args.max_wall:
            break
        mid = (lo + hi) // 2 if lo else max(1, hi // 2)
        res = await asyncio.wait_for(runner(mid, sub), sub.play + 240)
        good = under_100(res)
        print(f"  search ({app}): R={mid} p95 {res.p(0.95):.1f} ms, errors {len(res.errors)}, load {' '.join(f'{x:.2f}' for x in res.load)} -> {'under' if good else 'over'} 100 ms", flush=True)
        lo, hi = (mid, hi) if good else (lo, mid)
    if lo == 0:
        print(f"\nlargest R with {app} p95 < 100 ms: none on this machine now (already R=1 is over 100 ms)")
        return "0"
    if hi is None:
        print(f"\nlargest R with {app} p95 < 100 ms: >= {lo} (every R tried was under)")
        return f">= {lo}"
    print(f"\nlargest R with {app} p95 < 100 ms: {lo} (first R over: {hi})", flush=True)
    return f"{lo} (<{hi})"


@dataclass
class GameRun:
    """One game's figures, for the side-by-side table of `--game all`."""

    game: str
    results: list[tuple[Result, Result]] = field(default_factory=list)
    largest: dict[str, str] = field(default_factory=dict)
    slow: tuple[Result, Result] | None = None


async def run_game(args: argparse.Namespace, started: float) -> GameRun:
    """Every R, then the largest-R search, the slow host and the restore, for `args.game`."""
    out = GameRun(args.game)
    print(f"\n######## {args.game}: {args.players} players a room ########", flush=True)
    for i, r in enumerate(args.rooms):
        pair = await asyncio.wait_for(run_pair(r, args, bare_first=bool(i % 2)), args.play * 2 + 240)
        out.results.append(pair)
        print_results([pair], args, f"{args.game}, R = {r} ({time.monotonic() - started:.0f} s into the run)")
    print_results(out.results, args, f"{args.game}, all R")

    if args.search:
        for app, runner, measured in (("ours", run_ours, [o for o, _ in out.results]), ("bare", run_bare, [b for _, b in out.results])):
            out.largest[app] = await search_largest(app, runner, measured, args, started)

    if args.slow_host:
        out.slow = await slow_host_run(args)

    if args.restore:
        res = await asyncio.wait_for(measure_restore(args.restore_rooms, args.log_len, args), 600)
        print(
            f"\n== restore after restart ({args.game}): {res['rooms']} rooms x up to {res['log_len']} actions ({res['entries']} log entries) ==\n"
            f"cold start, empty data dir (Popen -> first 200 on /):  {res['cold_empty_s']:.2f} s\n"
            f"cold start, {res['rooms']} rooms with long logs:          {res['cold_restored_s']:.2f} s\n"
            f"  Host(Store(...)) alone (load + replay every log):   {res['restore_s']:.2f} s  (imports before it {res['import_s']:.2f} s)\n"
            f"first render of a restored board after start:          {res['first_board_s'] * 1000:.0f} ms\n"
            f"server RSS with them restored:                        {res['rss_mib']:.1f} MiB\n"
            f"load now {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
            flush=True,
        )
    return out


def games_lines(runs: list[GameRun]) -> list[str]:
    """The games side by side: net server CPU per action, ours / bare and their ratio, at each R;
    the largest R with p95 < 100 ms; the slow host's p95; bytes per action per session (ours, every
    R together); the 1-minute load average at the start of the game's plays (lowest-highest)."""

    def pooled(pairs: list[tuple[Result, Result]], which: str) -> list[int]:
        return [x for ours, _ in pairs for x in getattr(ours, which)]

    def sizes(values: list[int]) -> str:
        return f"{statistics.median(values):.0f}/{percentile(values, 0.95):.0f}" if values else "n/a"

    cpu_head = " ".join(f"{f'net ms/act R={ours.rooms} ours/bare':>27}" for ours, _ in runs[0].results)
    head = f"{'game':<14} {cpu_head} {'R p95<100 ours':>15} {'bare':>10} {'slow p95 ours/bare ms':>22} {'board B/act med/p95':>20} {'phone B/act med/p95':>20}  load (1 min) in play"
    lines = [head, "-" * len(head)]
    for run in runs:
        cpu = []
        for ours, bare in run.results:
            if ours.latencies and bare.latencies:
                cpu.append(f"{ours.cpu_ms_per_action:>7.1f}/{bare.cpu_ms_per_action:<5.1f} ({fmt_ratio(ours.cpu_ms_per_action, bare.cpu_ms_per_action)})".rjust(27))
            else:
                cpu.append(f"{'n/a':>27}")
        slow = "n/a"
        if run.slow is not None and run.slow[0].latencies and run.slow[1].latencies:
            slow = f"{run.slow[0].p(0.95):.0f}/{run.slow[1].p(0.95):.0f} ({fmt_ratio(run.slow[0].p(0.95), run.slow[1].p(0.95))})"
        loads = [res.load[0] for pair in [*run.results, *([run.slow] if run.slow else [])] for res in pair]
        lines.append(
            f"{run.game:<14} {' '.join(cpu)} {run.largest.get('ours', 'n/a'):>15} {run.largest.get('bare', 'n/a'):>10} {slow:>22} "
            f"{sizes(pooled(run.results, 'board_bytes')):>20} {sizes(pooled(run.results, 'phone_bytes')):>20}  {min(loads):.1f}-{max(loads):.1f}"
        )
    bare_bytes = [x for run in runs for _, bare in run.results for x in bare.board_bytes]
    bare_phone = [x for run in runs for _, bare in run.results for x in bare.phone_bytes]
    lines.append(f"{'(bare, all)':<14} bytes per action board {sizes(bare_bytes)}, phone {sizes(bare_phone)}: the game-free baseline, the same for every game")
    return lines


async def run(args: argparse.Namespace) -> int:
    started = time.monotonic()
    games = list(GAME_IDS) if args.game == "all" else [args.game]
    print(f"rooms.py: game {args.game}, R = {args.rooms}, start load {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {time.strftime('%H:%M:%S')}", flush=True)
    for path in FROZEN:
        print(f"sha256 {sha256_of(path)}  {path.relative_to(ROOT)}")
    runs = [await run_game(argparse.Namespace(**{**vars(args), "game": game}), started) for game in games]
    if len(runs) > 1:
        print(f"\n== the four games side by side ({args.players} players a room, think {args.think:.1f} s, play {args.play:.0f} s per R and app) ==")
        print("\n".join(games_lines(runs)))
        print(f"load now {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)

    if args.page_weight:
        print("\n== page weight (benchmarks/page_weight.py) ==", flush=True)
        # First visits on the host's own variant cache (filling an empty one takes minutes: run
        # page_weight.py alone for that).
        from views.static_files import default_cache_dir

        command = [sys.executable, str(ROOT / "benchmarks" / "page_weight.py"), "--quick", "--cache-dir", str(default_cache_dir())]
        await asyncio.to_thread(subprocess.run, command, cwd=ROOT, timeout=600, check=False)
    print(f"\nwall time {time.monotonic() - started:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=[*GAME_IDS, "all"], default="vabanque", help="the game every room plays, or all four in turn, then side by side (default vabanque)")
    parser.add_argument("--rooms", type=int, nargs="+", default=[1, 10, 50])
    parser.add_argument("--players", type=int, default=4, choices=range(3, 7))
    parser.add_argument("--play", type=float, default=40.0, help="seconds of play per R and app (default 40)")
    parser.add_argument("--think", type=float, default=1.0, help="mean pause between a room's actions, s (default 1)")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-search", dest="search", action="store_false", help="skip the largest-R search")
    parser.add_argument("--search-play", type=float, default=20.0)
    parser.add_argument("--search-steps", type=int, default=2)
    parser.add_argument("--no-restore", dest="restore", action="store_false")
    parser.add_argument("--restore-rooms", type=int, default=50)
    parser.add_argument("--log-len", type=int, default=400, help="actions per room for the restore test (a 4-player game ends earlier)")
    parser.add_argument("--no-page-weight", dest="page_weight", action="store_false")
    parser.add_argument("--max-wall", type=float, default=600.0, help="no search probe starts after this many seconds")
    parser.add_argument("--profile", default="", help="write py-spy profiles of the servers' play windows here and print their top functions")
    parser.add_argument("--slow-host", type=float, default=0.25, metavar="SHARE", help="share of one core for the slow-host run (default 0.25; 0 skips it)")
    parser.add_argument("--slow-players", type=int, default=6, choices=range(3, 7), help="phones in the slow-host room (default 6: 7 devices)")
    parser.add_argument("--slow-play", type=float, default=20.0, help="seconds of play per app in the slow-host run")
    parser.add_argument("--quick", action="store_true", help="R = 1, 10; 15 s play; no search; slow host 15 s; restore 10 rooms")
    args = parser.parse_args(argv)
    global PROFILE_DIR
    PROFILE_DIR = args.profile
    if PROFILE_DIR:
        Path(PROFILE_DIR).mkdir(parents=True, exist_ok=True)
    if args.quick:
        args.rooms, args.play, args.search, args.restore_rooms, args.slow_play = [1, 10], 15.0, False, 10, 15.0
    return asyncio.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
