"""Memory pinned by devices that left: large-frame registrations and ordinary boards, before and
after their sessions expire, against the real server (`main.py` in a subprocess on 127.0.0.1).

    uv run python benchmarks/memory.py                 # Flet's defaults, then ours, in one run
    uv run python benchmarks/memory.py --only ours

Each configuration runs on a fresh server: a warm-up board (the first session loads the page
modules), then N sockets that each register with a route as large as the frame limit allows and
hang up, then B ordinary boards that open a room and leave, then a frame one byte over the limit.
RSS is read after each step and once every session has expired (`/healthz` counts the sessions
still held). "flet defaults" is what the server did before: uvicorn's 16 MiB frame limit and
Flet's 3600 s session timeout (so nothing expires within the run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgpack  # noqa: E402
from websockets.asyncio.client import connect as ws_connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from benchmarks.flet_client import REGISTER, TABLET, FletClient, pack  # noqa: E402
from benchmarks.latency import ServerProcess, create_room, vabanque_setup  # noqa: E402

MIB = 1024 * 1024


@dataclass
class Config:
    name: str
    #: uvicorn's ws_max_size for the server (REFEREE_WS_MAX_BYTES), None = main.py's own
    frame_limit: int | None
    #: FLET_SESSION_TIMEOUT for the server
    session_timeout: int
    #: large registrations
    connections: int
    #: route bytes per registration (None = as large as the frame limit allows)
    route_bytes: int | None = None
    boards: int = 10
    #: sockets that close before registering (half of them after a first frame that is not one)
    unregistered: int = 300
    #: times the whole sequence runs on the same server (memory freed is reused, not added to)
    waves: int = 1


@dataclass
class Result:
    config: Config
    frame_bytes: int = 0
    rss: dict[str, int] = field(default_factory=dict)
    oversize_close: str = ""
    expired_after: float | None = None

    def growth(self, step: str, since: str = "baseline") -> float:
        return (self.rss[step] - self.rss[since]) / MIB


def register_body(route: str) -> dict[str, Any]:
    """The register message the Flutter web client sends (see benchmarks/flet_client.py)."""
    return {
        "session_id": None,
        "page_name": "",
        "page": {"route": route, "pwa": False, "web": True, "debug": False, "wasm": False, "multi_view": False,
                 "platform_brightness": "dark", "width": 390.0, "height": 844.0, "platform": "android"},
    }  # fmt: skip


def register_frame(frame_bytes: int) -> bytes:
    """A register frame of exactly `frame_bytes` bytes (its route padded)."""
    probe = 100_000  # same msgpack string header size as any route of 64 KiB or more
    overhead = len(pack(REGISTER, register_body("/" + "x" * probe))) - probe
    frame = pack(REGISTER, register_body("/" + "x" * (frame_bytes - overhead)))
    assert len(frame) == frame_bytes, (len(frame), frame_bytes)
    return frame


async def send_and_hang_up(ws_url: str, frame: bytes) -> str:
    """Open a socket, send one frame, wait for the server's answer or close, hang up.
    Returns "answered" or the close code the server gave."""
    async with ws_connect(ws_url, max_size=None, compression=None, open_timeout=30) as ws:
        try:
            await ws.send(frame)  # a frame over the limit may be refused while it is being sent
            while True:
                raw = await asyncio.wait_for(ws.recv(), 60)
                if isinstance(raw, bytes) and raw[:1] == b"\x00":
                    action = msgpack.unpackb(raw[1:], raw=False, strict_map_key=False)[0]
                    if action == REGISTER:
                        return "answered"
        except ConnectionClosed as closed:
            return f"closed {closed.rcvd.code if closed.rcvd else 'without a close frame'}"


async def close_before_registering(ws_url: str, bad_first_frame: bool) -> None:
    async with ws_connect(ws_url, max_size=None, compression=None, open_timeout=30) as ws:
        if bad_first_frame:
            await ws.send(b"\x00" + msgpack.packb([3, {"target": 1, "name": "click", "data": None}]))


def health(base_url: str) -> dict[str, Any]:
    with urllib.request.urlopen(base_url + "/healthz", timeout=10) as response:
        return json.loads(response.read())


async def wait_for_sessions(base_url: str, count: int, timeout: float) -> float:
    """Seconds until /healthz says `count` sessions are held and their memory was given back
    (Flet evicts every 10 s; views/memory.py collects a second after)."""
    start = time.monotonic()
    def settled(state: dict[str, Any]) -> bool:
        return state["sessions"] == count and not state["reclaiming"]

    while not settled(await asyncio.to_thread(health, base_url)):
        if time.monotonic() - start > timeout:
            raise TimeoutError(f"sessions still held after {timeout:.0f}s: {health(base_url)}")
        await asyncio.sleep(0.5)  # polling an HTTP endpoint: the only signal the process gives
    return time.monotonic() - start


async def open_board_and_leave(base_url: str, route: str) -> None:
    from views.i18n import translator

    heading = translator("en").t("ui.last_rulings")
    board = FletClient(base_url, route, width=TABLET[0], height=TABLET[1], name="board")
    await board.connect(60)
    await board.wait_for(lambda c: heading in c.texts(), 60, what="the board")
    await board.close()


async def measure(config: Config, data_dir: Path, *, expire: bool) -> Result:
    from main import WS_MAX_FRAME_BYTES

    limit = config.frame_limit or WS_MAX_FRAME_BYTES
    env = {"FLET_SESSION_TIMEOUT": str(config.session_timeout)}
    if config.frame_limit is not None:
        env["REFEREE_WS_MAX_BYTES"] = str(config.frame_limit)
    info = create_room(data_dir, vabanque_setup(3), 7)
    server = await asyncio.to_thread(ServerProcess(data_dir, env=env).start)
    result = Result(config)
    board_route = f"/room/{info.room}?k={info.host_token}"
    ws_url = "ws" + server.base_url.removeprefix("http") + "/ws"
    try:
        await open_board_and_leave(server.base_url, board_route)  # loads what the first page needs
        if expire:
            await wait_for_sessions(server.base_url, 0, config.session_timeout + 60)
        result.rss["baseline"] = server.rss()

        result.frame_bytes = config.route_bytes + 300 if config.route_bytes else limit
        for wave in range(1, config.waves + 1):
            suffix = "" if config.waves == 1 else f" (wave {wave})"
            frame = register_frame(result.frame_bytes)
            for _ in range(config.connections):
                answer = await send_and_hang_up(ws_url, frame)
                assert answer == "answered", answer
            del frame
            result.rss["large registrations left" + suffix] = server.rss()

            for _ in range(config.boards):
                await open_board_and_leave(server.base_url, board_route)
            result.rss["boards left" + suffix] = server.rss()

            for n in range(config.unregistered):
                await close_before_registering(ws_url, bad_first_frame=n % 2 == 1)
            result.rss["closed before registering" + suffix] = server.rss()

            result.oversize_close = await send_and_hang_up(ws_url, register_frame(limit + 1))
            result.rss["oversize frame" + suffix] = server.rss()

            if expire:
                result.expired_after = await wait_for_sessions(server.base_url, 0, config.session_timeout + 60)
                result.rss["sessions expired" + suffix] = server.rss()
    finally:
        server.stop()
    return result


def report(result: Result) -> str:
    c = result.config
    lines = [
        f"{c.name}: frame limit {(c.frame_limit or result.frame_bytes) / 1024:.0f} KiB, session timeout {c.session_timeout} s; "
        f"{c.connections} registrations of {result.frame_bytes / 1024:.0f} KiB, {c.boards} boards, {c.unregistered} closing before registering",
        f"  baseline RSS {result.rss['baseline'] / MIB:.1f} MiB",
    ]
    for step in list(result.rss)[1:]:
        lines.append(f"  {step:<26} {result.rss[step] / MIB:7.1f} MiB  ({result.growth(step):+.1f} MiB)")
    lines.append(f"  frame one byte over the limit: {result.oversize_close}")
    if result.expired_after is not None:
        lines.append(f"  every session expired {result.expired_after:.0f} s after the last device left")
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=("flet", "ours"))
    parser.add_argument("--timeout", type=int, default=5, help="our session timeout for the run (production: main.SESSION_TIMEOUT_SECONDS)")
    parser.add_argument("--waves", type=int, default=2, help="times our configuration's sequence runs on one server")
    args = parser.parse_args()
    print(f"load: {os.getloadavg()}")
    runs = []
    if args.only in (None, "flet"):
        runs.append((Config("flet defaults", 16 * MIB, 3600, 32, route_bytes=15_000_000), False))
    if args.only in (None, "ours"):
        runs.append((Config("ours", None, args.timeout, 50, waves=args.waves), True))
    for config, expire in runs:
        with tempfile.TemporaryDirectory() as tmp:
            print(report(await measure(config, Path(tmp), expire=expire)), flush=True)
    print(f"load: {os.getloadavg()}")


if __name__ == "__main__":
    asyncio.run(main())
