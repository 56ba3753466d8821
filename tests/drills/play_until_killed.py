"""Child process for the crash drill: plays random legal actions of one game through the room
layer (the same durable path as the server) and prints each acknowledged version, until killed.

    python -m tests.drills.play_until_killed DATA_DIR GAME SEED
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from companion.room import Host
from companion.store import Store

PLAYERS = [{"name": n, "colour": c} for n, c in [("Ann", "red"), ("Bob", "blue"), ("Cyd", "green"), ("Dee", "yellow")]]


async def main(data_dir: Path, game_id: str, seed: int) -> None:
    host = Host(Store(data_dir / "referee.sqlite3"))
    room = next((r for r in host.rooms.values() if r.game_id == game_id), None)
    if room is None:
        room = await host.create_room(game_id, {"players": PLAYERS}, seed=seed)
    rng = random.Random(seed * 1000 + room.version)
    print(f"room {room.id} {room.version}", flush=True)
    while (action := room.game.random_action(room.state, rng)) is not None:
        accepted = await room.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=room.version)
        print(f"ack {accepted.version}", flush=True)  # told only after the durable append
    print("over", flush=True)
    await asyncio.Event().wait()  # wait to be killed


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])))
