"""The baseline for benchmarks/rooms.py: a bare Flet 1.0.5 pubsub app with our topology.

    uv run python benchmarks/bare_app.py --host 127.0.0.1 --port 8560 --data-dir /tmp/bare

Same command line as main.py (so `latency.ServerProcess(script=...)` starts it), same serving
(`ft.run(export_asgi_app=True, no_cdn=True)` under uvicorn with the websockets-sansio backend),
and the same work per action minus everything that is ours (game rules, projections, pydantic,
i18n, views):

* `/board/<room>`: a board page of ~150 controls / ~56 texts (ours: 163 / 53 with 4 players);
  `/seat/<room>/<n>`: a seat page of ~110 controls / ~42 texts and one button (ours: 108 / 47);
* a click on a seat's button (`ft.Semantics(identifier="act")`) is appended to SQLite (WAL,
  synchronous=FULL, one committed transaction per action) on a single writer thread, off the
  event loop, under a per-room asyncio lock; then
* `pubsub.send_all_on_topic("room-<id>", version)`: every session of the room (board and every
  seat) rebuilds its whole control tree from scratch and calls `page.update()`; Flet diffs it.
  Per action ~12 texts change on the board (a shifting "what happened" list) and a few on each
  seat, roughly like ours.

The board shows `v <version>` as its first text: the driver waits for that.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: experiment (not the baseline): seats yield to the loop before re-rendering, so the board's
#: frame is written before the seats' renders run (BARE_BOARD_FIRST=1 in the environment)
BOARD_FIRST = os.environ.get("BARE_BOARD_FIRST") == "1"
BOARD_ROWS = 18  # 8 controls and 3 texts a row
SEAT_ROWS = 13
LAST = 12  # the shifting list


class Log:
    """One SQLite file, WAL + synchronous=FULL, one writer thread (like companion.store)."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS log (room_id TEXT NOT NULL, seq INTEGER NOT NULL, payload TEXT NOT NULL,"
            " at REAL NOT NULL, PRIMARY KEY (room_id, seq))"
        )
        self.lock = threading.Lock()
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bare-writer")

    def _append(self, room_id: str, seq: int, payload: dict[str, Any]) -> None:
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute("INSERT INTO log(room_id, seq, payload, at) VALUES (?,?,?,?)", (room_id, seq, json.dumps(payload), time.time()))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    async def append(self, room_id: str, seq: int, payload: dict[str, Any]) -> None:
        await asyncio.get_running_loop().run_in_executor(self.writer, self._append, room_id, seq, payload)


@dataclass
class BareRoom:
    id: str
    version: int = 0
    lines: list[str] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def build_main(log: Log) -> Any:
    import flet as ft

    rooms: dict[str, BareRoom] = {}

    def board_controls(room: BareRoom) -> list[ft.Control]:
        recent = list(reversed(room.lines[-LAST:]))
        rows = []
        for i in range(BOARD_ROWS):
            shifting = recent[i] if i < len(recent) else "-"
            rows.append(
                ft.Container(
                    padding=4,
                    content=ft.Column(
                        [
                            ft.Row(
                                [
                                    ft.Container(content=ft.Text(f"row {i}", size=16), bgcolor="#145A43", padding=2),
                                    ft.Text(shifting if i < LAST else f"{room.version // 7} chips", size=14),
                                    ft.Container(content=ft.Text("●" if i % 2 else "○"), padding=2),
                                ]
                            )
                        ],
                        tight=True,
                    ),
                )
            )
        return [ft.Text(f"v {room.version}", size=20), ft.Text(f"Room {room.id}", size=28), ft.Column(rows, spacing=2)]

    def seat_controls(room: BareRoom, seat: int, act: Any) -> list[ft.Control]:
        rows = []
        for i in range(SEAT_ROWS):
            value = f"{(room.version + seat + i) // 5}" if i < 3 else f"card {i}"
            rows.append(
                ft.Container(
                    padding=4,
                    content=ft.Column(
                        [ft.Row([ft.Container(content=ft.Text(f"line {i}"), padding=2), ft.Text(value), ft.Container(content=ft.Text("·"), padding=2)])],
                        tight=True,
                    ),
                )
            )
        button = ft.Semantics(identifier="act", button=True, content=ft.Button(content=ft.Text("Act", size=18), on_click=act, height=56))
        return [ft.Text(f"seat {seat} v {room.version}", size=20), button, ft.Column(rows, spacing=2)]

    async def main(page: ft.Page) -> None:
        parts = [p for p in page.route.split("?")[0].split("/") if p]
        if len(parts) < 2 or parts[0] not in ("board", "seat"):
            page.add(ft.Text("bare app: /board/<room> or /seat/<room>/<n>"))
            return
        room = rooms.setdefault(parts[1], BareRoom(parts[1]))
        seat = int(parts[2]) if parts[0] == "seat" and len(parts) > 2 else None

        async def act(_e: Any) -> None:
            async with room.lock:
                seq = room.version + 1
                await log.append(room.id, seq, {"type": "act", "by": seat, "seq": seq})
                room.version = seq
                room.lines.append(f"seat {seat} acted (#{seq})")
                del room.lines[:-40]
            page.pubsub.send_all_on_topic(f"room-{room.id}", room.version)

        def render() -> None:
            controls = board_controls(room) if seat is None else seat_controls(room, seat, act)
            for position, control in enumerate(controls):  # keyed, like views.common.show_screen
                control.key = f"{parts[0]}:{position}"
            page.controls[:] = controls
            page.update()

        async def on_message(_topic: str, _version: int) -> None:
            if BOARD_FIRST and seat is not None:
                for _ in range(3):
                    await asyncio.sleep(0)
            render()

        page.pubsub.subscribe_topic(f"room-{room.id}", on_message)
        render()

    return main


def build_app(data_dir: Path) -> Any:
    import flet as ft

    log = Log(data_dir / "bare.sqlite3")
    return ft.run(build_main(log), export_asgi_app=True, no_cdn=True, web_renderer=ft.WebRenderer.AUTO)


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8560)
    parser.add_argument("--data-dir", default="/tmp/bare-app")
    parser.add_argument("--public-url", default=None)
    args = parser.parse_args()
    app = build_app(Path(args.data_dir))
    # latency.ServerProcess waits for a "?k=" link like main.py's banner.
    print(f"bare app: http://{args.host}:{args.port}/?k=bare", flush=True)
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning", ws="websockets-sansio")
    try:
        asyncio.run(uvicorn.Server(config).serve())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
