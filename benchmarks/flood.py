"""One misbehaving device against the table (issue 11): a flood of events, a reconnect loop.

    uv run python benchmarks/flood.py                      # 2,000 and 20,000 unknown ids, ~2-4 min
    uv run python benchmarks/flood.py --unknown 2000 --reconnect-s 5

One server (`main.py` on 127.0.0.1), two Vabanque rooms. Room A plays all the time: its phones
tap random legal actions (a think time between them) and each tap's delay is click written ->
the board frame showing it (`latency.Table.play`). `/healthz` is polled every 0.1 s. Phases, in
one run, each compared with the quiet phase before it:
  * quiet: nobody misbehaves (the baseline);
  * flood N: a spectator board of room B (no token) sends N events for an unknown control id,
    then 2,000 real ones (a resize, a click on the current Rules/Back button, alternately), as
    fast as its socket takes them; the phase lasts until the server answers /healthz at once
    again, and at least as long as a quiet phase;
  * reconnect: a phone of room B drops its socket and registers again (same session id, as the
    Flutter client does) up to 50 times a second for `--reconnect-s` seconds; room B's board
    counts the frames it is sent meanwhile.
Printed per phase: room A's taps, median and p95 (and p95 / the quiet p95), /healthz's longest
wait, whether the flooding device was told (its page shows the notice), and for the reconnect
phase the reconnects done and room B's board frames. The ratios depend on the machine's load
(printed): the server and this driver share the cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import functools  # noqa: E402

from benchmarks import flet_client  # noqa: E402
from benchmarks.flet_client import EVENT, PATCH, TABLET, UPDATE_PROPS, FletClient, pack  # noqa: E402

# A server stalled by a flood (before issue 11: over a minute) must not also make the devices
# hang up by themselves (websockets' keepalive would close them after 20 s without a pong).
flet_client.ws_connect = functools.partial(flet_client.ws_connect, ping_interval=None)
from benchmarks.latency import ServerProcess, Table, VabanqueMirror, create_rooms, percentile, server_errors, vabanque_setup  # noqa: E402

#: a control id no page ever has (the issue's probe)
UNKNOWN_ID = 987654
RULES, RULES_BACK = "rules", "rules-back"  # views/rule_cards.py


async def http_get_seconds(host: str, port: int, path: str, timeout: float) -> float:
    """One plain GET on a fresh connection: seconds until the whole answer was read."""
    started = time.perf_counter()
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), timeout)
        if b" 200 " not in status:
            raise RuntimeError(f"{path}: {status!r}")
        await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
    return time.perf_counter() - started


@dataclass
class HealthPoller:
    """Polls /healthz every `every` s; each poll's (start, wait). A poll that gets no answer
    within `timeout` counts as waiting `timeout` (and as the server being down)."""

    base_url: str
    every: float = 0.1
    timeout: float = 120.0
    polls: list[tuple[float, float]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    async def run(self, stop: asyncio.Event) -> None:
        host, port = self.base_url.removeprefix("http://").split(":")
        while not stop.is_set():
            started = time.perf_counter()
            try:
                self.polls.append((started, await http_get_seconds(host, int(port), "/healthz", self.timeout)))
            except Exception as exc:  # noqa: BLE001 - counted and shown
                self.polls.append((started, self.timeout))
                self.failures.append(f"{type(exc).__name__}: {exc}")
            await asyncio.sleep(self.every)

    def longest(self, start: float, end: float) -> float:
        return max((wait for at, wait in self.polls if start <= at < end), default=float("nan"))

    async def answered_at_once(self, within: float = 0.25) -> None:
        """Wait until a poll started now is answered within `within` s."""
        count = len(self.polls)
        while True:
            await asyncio.sleep(self.every)
            fresh = self.polls[count:]
            if fresh and fresh[-1][1] < within:
                return


@dataclass
class Player:
    """Room A playing for the whole run: (click written, board showed it) per tap."""

    table: Table
    think: float
    timeout: float
    taps: list[tuple[float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    async def run(self, stop: asyncio.Event, seed: int) -> None:
        rng = random.Random(seed)
        while not stop.is_set() and not self.table.mirror.over:
            try:
                self.taps.append(await self.table.play(self.table.mirror.random_action(rng), self.timeout))
            except Exception as exc:  # noqa: BLE001 - counted and shown
                self.errors.append(f"{type(exc).__name__}: {str(exc)[:200]}")
                return
            await asyncio.sleep(self.think * rng.uniform(0.5, 1.5))

    def delays_ms(self, start: float, end: float) -> list[float]:
        return [(seen - sent) * 1000 for sent, seen in self.taps if start <= sent < end]


def flood_frames(unknown: int) -> list[bytes]:
    return [pack(EVENT, {"target": UNKNOWN_ID, "name": "click", "data": None})] * unknown


async def send_flood(client: FletClient, unknown: int, real: int) -> dict[str, Any]:
    """`unknown` events for a control id that does not exist, then `real` real ones: a resize
    (the page's new size, then its event, as Flutter sends them) and a click on whichever of
    Rules / Back to the game the page shows, alternately; each written as soon as the socket
    takes it."""
    ws = client._ws
    started = time.perf_counter()
    for frame in flood_frames(unknown):
        await ws.send(frame)
    page_id = client.page["_i"] if client.page else 1
    for i in range(real):
        if i % 2:
            size = {"width": float(TABLET[0] - (i % 7) * 10), "height": float(TABLET[1])}
            await ws.send(pack(UPDATE_PROPS, {"id": page_id, "props": size}))
            await ws.send(pack(EVENT, {"target": page_id, "name": "resize", "data": size}))
        else:
            target = client.clickable(RULES) or client.clickable(RULES_BACK)
            await ws.send(pack(EVENT, {"target": target["_i"] if target else UNKNOWN_ID, "name": "click", "data": None}))
    return {"sent_s": time.perf_counter() - started}


def told(client: FletClient, notice: str) -> bool:
    return any(notice in text for text in client.texts())


async def reconnect_loop(phone: FletClient, seconds: float, rate: float) -> int:
    """Drop the socket and register again, up to `rate` times a second, for `seconds`."""
    done = 0
    deadline = time.perf_counter() + seconds
    next_at = time.perf_counter()
    while time.perf_counter() < deadline:
        await phone.reconnect()
        done += 1
        next_at += 1 / rate
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
    return done


def patch_frames(client: FletClient, start: float, end: float) -> int:
    return sum(1 for f in client.frames if f.action == PATCH and start <= f.at < end)


@dataclass
class Phase:
    name: str
    start: float
    end: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def notice_text() -> str:
    from views.i18n import translator

    try:
        return translator("en").t("ui.too_many_events")
    except Exception:  # noqa: BLE001 - before the notice existed: nothing to look for
        return "\x00no notice\x00"


async def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="referee-flood-") as tmp:
        infos = create_rooms(Path(tmp), vabanque_setup(args.players), 2, args.seed)
        server = ServerProcess(Path(tmp)).start()
        stop = asyncio.Event()
        tasks: list[asyncio.Task[Any]] = []
        clients: list[FletClient] = []
        table_a = Table(server.base_url, infos[0], VabanqueMirror(infos[0].setup, infos[0].seed))
        table_b = Table(server.base_url, infos[1], VabanqueMirror(infos[1].setup, infos[1].seed))
        phases: list[Phase] = []
        poller = HealthPoller(server.base_url)
        player = Player(table_a, args.think, args.timeout)
        try:
            await table_a.open_all(args.timeout)
            await table_b.open_all(args.timeout)
            tasks.append(asyncio.create_task(poller.run(stop)))
            tasks.append(asyncio.create_task(player.run(stop, args.seed)))

            async def quiet(name: str) -> None:
                phase = Phase(name, time.perf_counter())
                await asyncio.sleep(args.quiet_s)
                phase.end = time.perf_counter()
                phases.append(phase)

            notice = notice_text()
            for count in args.unknown:
                await quiet(f"quiet before flood {count}")
                spectator = FletClient(server.base_url, f"/room/{infos[1].room}", width=TABLET[0], height=TABLET[1], name=f"flood-{count}")
                clients.append(spectator)
                await spectator.connect(args.timeout)
                await spectator.wait_for(lambda c: c.clickable(RULES), args.timeout, what="the spectator board")
                phase = Phase(f"flood {count} + {args.real} real", time.perf_counter())
                phase.extra.update(await send_flood(spectator, count, args.real))
                await poller.answered_at_once()
                # at least as long as the quiet phase: enough of room A's taps for a p95
                await asyncio.sleep(max(1.0, phase.start + args.quiet_s - time.perf_counter()))
                phase.end = time.perf_counter()
                phase.extra["told"] = told(spectator, notice)
                phase.extra["flooder connected"] = not spectator.closed
                phases.append(phase)
                await spectator.close()

            if args.reconnect_s > 0:
                await quiet("quiet before reconnect")
                phone = table_b.phones[0]
                phase = Phase(f"reconnect {args.reconnect_rate:g}/s", time.perf_counter())
                phase.extra["reconnects"] = await reconnect_loop(phone, args.reconnect_s, args.reconnect_rate)
                phase.end = time.perf_counter()
                assert table_b.board is not None
                phase.extra["room B board frames"] = patch_frames(table_b.board, phase.start, phase.end)
                phases.append(phase)
        finally:
            stop.set()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(task, args.timeout)
            up = server.proc is not None and server.proc.poll() is None
            await asyncio.gather(table_a.close(), table_b.close(), *(c.close() for c in clients), return_exceptions=True)
            errors = server_errors(server.lines)
            server.stop()

    print(f"flood benchmark: {args.players} players, think {args.think}s; load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'phase':32} {'taps':>5} {'median ms':>10} {'p95 ms':>8} {'p95 ratio':>10} {'healthz max s':>14}  other")
    baseline = float("nan")
    for phase in phases:
        delays = player.delays_ms(phase.start, phase.end)
        p95 = percentile(delays, 0.95)
        if phase.name.startswith("quiet"):
            baseline = p95
        ratio = p95 / baseline if baseline == baseline and baseline > 0 else float("nan")
        extra = ", ".join(f"{k}: {v if not isinstance(v, float) else round(v, 2)}" for k, v in phase.extra.items())
        print(
            f"{phase.name:32} {len(delays):5} {percentile(delays, 0.5):10.1f} {p95:8.1f} {ratio:9.2f}x {poller.longest(phase.start, phase.end):14.2f}  {extra}"
        )
    print(f"server still up: {up}; healthz failures: {len(poller.failures)} {poller.failures[:2]}")
    if player.errors:
        print("room A errors:", player.errors[:3])
    if errors:
        print("server errors:", *errors, sep="\n  ")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=6, help="seats per room (6: the game lasts the whole run)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--unknown", type=int, nargs="*", default=[2000, 20000], help="unknown-id events per flood")
    parser.add_argument("--real", type=int, default=2000, help="real events after each flood")
    parser.add_argument("--quiet-s", type=float, default=10.0, help="seconds of undisturbed play before each phase")
    parser.add_argument("--reconnect-s", type=float, default=10.0)
    parser.add_argument("--reconnect-rate", type=float, default=50.0)
    parser.add_argument("--think", type=float, default=0.3, help="room A's pause between taps (s)")
    parser.add_argument("--timeout", type=float, default=180.0)
    return asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
