"""Child process for the crash drill: plays random legal actions of one game through the room
layer (the same durable path as the server) and reports each one, until it is killed.

    python -m tests.drills.play_until_killed DATA_DIR GAME SEED [--serve PORT] [--hold PATH]
    python -m tests.drills.play_until_killed --fork-server

With `--serve PORT` the process is the real server as well: main.build_app's ASGI app (Flet
sessions, /healthz, /export) under uvicorn on 127.0.0.1:PORT, around the same Host the actions go
through. Connected boards and phones re-render on every action, so a kill lands while pages are
being drawn and sent and the store's writer thread is busy, as in a game night. With `--hold PATH`
it waits until PATH exists before the first action (time to connect devices).

It plays the room of GAME in DATA_DIR, creating one if there is none. Each line on
stdout is flushed as it is written (a killed process cannot flush):

    room ID VERSION HOST_TOKEN   the room it plays, at the version it restored
    serving PORT                 (--serve) the server answers
    try VERSION JSON             about to submit JSON, based on VERSION
    ack VERSION JSON             accepted: in the log (committed) before this line is written
    over                         the game has ended; it waits to be killed

`--fork-server` imports the server once, then forks one serving driver per line read on stdin,
`DATA_DIR GAME SEED PORT OUT`: the driver writes the lines above to the file OUT and holds until
OUT.go exists; the fork server answers `pid N`. Importing Flet and the app takes seconds on a
loaded machine; a fork is ready at once, so a drill can afford many lives. Killed drivers are
reaped at once (SIGCHLD ignored), so a vanished pid means a dead driver.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
from pathlib import Path
from typing import Any

from companion.room import Host, Room
from companion.store import Store

PLAYERS = [{"name": n, "colour": c} for n, c in [("Ann", "red"), ("Bob", "blue"), ("Cyd", "green"), ("Dee", "yellow")]]
DB_NAME = "referee.sqlite3"


def say(*parts: Any) -> None:
    print(*parts, flush=True)


async def serve(data_dir: Path, port: int) -> tuple[Host, asyncio.Task[None]]:
    """The real server's app (as `main.py` builds it) under uvicorn, in this event loop."""
    import uvicorn

    from main import build_app

    app, host = build_app(data_dir, f"http://127.0.0.1:{port}")
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()  # raises why it could not start
            raise RuntimeError("uvicorn stopped before it started")
        await asyncio.sleep(0.01)
    return host, task


async def play(room: Room, seed: int) -> None:
    # The stream of actions depends on where the log stands, so each restart plays on differently.
    rng = random.Random(seed * 1000 + room.version)
    while (action := room.game.random_action(room.state, rng)) is not None:
        raw = action.model_dump(mode="json")
        shown = room.version
        say("try", shown, json.dumps(raw, separators=(",", ":")))
        accepted = await room.submit(raw, channel="seat", seat=action.by, based_on_version=shown)
        say("ack", accepted.version, json.dumps(raw, separators=(",", ":")))
        await asyncio.sleep(0)  # let the pages' redraws (tasks) interleave with the next action


async def main(data_dir: Path, game_id: str, seed: int, port: int | None, hold: Path | None) -> None:
    server: asyncio.Task[None] | None = None
    if port is None:
        host = Host(Store(data_dir / DB_NAME))
    else:
        host, server = await serve(data_dir, port)
    room = next((r for r in host.rooms.values() if r.game_id == game_id), None)
    if room is None:
        room = await host.create_room(game_id, {"players": PLAYERS}, seed=seed)
    say("room", room.id, room.version, host.token)
    if port is not None:
        say("serving", port)
    while hold is not None and not hold.exists():  # the test connects its devices first
        await asyncio.sleep(0.01)
    await play(room, seed)
    say("over")
    await (server if server is not None else asyncio.Event().wait())  # wait to be killed


def fork_server() -> None:
    import flet_web.fastapi  # noqa: F401 - the imports are the point: done once, shared by every fork
    import uvicorn  # noqa: F401

    import main as _main  # noqa: F401
    import views.app  # noqa: F401

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    for line in sys.stdin:
        data_dir, game_id, seed, port, out = line.split()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(fd, 1)
                os.close(fd)
                sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115 - this process's stdout
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                asyncio.run(main(Path(data_dir), game_id, int(seed), int(port), Path(out + ".go")))
            except BaseException:  # noqa: BLE001 - a forked child must report anything, then _exit
                import traceback

                traceback.print_exc()
                code = 1
            finally:
                os._exit(code)
        say("pid", pid)


if __name__ == "__main__":
    if sys.argv[1:] == ["--fork-server"]:
        fork_server()
        sys.exit(0)
    parser = argparse.ArgumentParser()
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("game")
    parser.add_argument("seed", type=int)
    parser.add_argument("--serve", type=int, metavar="PORT")
    parser.add_argument("--hold", type=Path, metavar="PATH", help="wait until PATH exists before playing")
    args = parser.parse_args()
    asyncio.run(main(args.data_dir, args.game, args.seed, args.serve, args.hold))
