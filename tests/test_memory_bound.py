"""Devices that left do not pin memory: the frame limit and the session timeout (main.py), and the
collection after sessions expire (views/memory.py), against the real server in a subprocess.

The session timeout is shortened for the test through the setting production uses
(FLET_SESSION_TIMEOUT, which main.py only defaults). Figures and the stated bound: README
"Who can reach the host, and what it holds".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.flet_client import EVENT, REGISTER, pack
from benchmarks.memory import MIB, Config, measure, register_body, report
from main import WS_MAX_FRAME_BYTES

pytestmark = pytest.mark.slow

#: RSS over the warmed-up server once every session has expired, however many devices left
#: (measured +8 to +15 MiB after waves of 50 registrations of 256 KiB and 10 boards; without the
#: collection it was +35 MiB after two waves and the figure grows with the number of devices)
BOUND_AFTER_EXPIRY_MIB = 24
#: what one connection may hold while its session lives: its largest frame kept (the route of a
#: register) plus the session itself (a board's ~0.35 MiB)
BOUND_PER_CONNECTION_MIB = WS_MAX_FRAME_BYTES / MIB + 0.5


def test_the_largest_legitimate_frames_fit_the_limit_with_room_to_spare() -> None:
    from companion.games.reglement_board import default_board
    from views.boards import board_data

    # The longest route a device registers with: a seat link with a language, on a reconnect.
    register = pack(REGISTER, {**register_body("/join/abcdef/" + "A" * 22 + "?lang=fr"), "session_id": "x" * 64})
    # The Règlement editor's paste field sends the whole text on each change.
    pasted = json.dumps(board_data(default_board()), indent=2, ensure_ascii=False)
    paste = pack(EVENT, {"target": 10**6, "name": "change", "data": pasted})
    largest = max(len(register), len(paste))
    assert largest * 16 < WS_MAX_FRAME_BYTES, (len(register), len(paste))
    # and the limit is a real bound, well below uvicorn's default of 16 MiB
    assert WS_MAX_FRAME_BYTES <= MIB


async def test_devices_that_left_give_their_memory_back(tmp_path: Path) -> None:
    config = Config("ours", frame_limit=None, session_timeout=3, connections=50, boards=10, waves=2)
    result = await measure(config, tmp_path / "data", expire=True)
    print(report(result))
    assert result.frame_bytes == WS_MAX_FRAME_BYTES  # each registration was the largest allowed
    assert result.oversize_close == "closed 1009", "a frame over the limit closes that socket (message too big)"
    for wave in (1, 2):
        held = result.growth(f"large registrations left (wave {wave})", since="baseline" if wave == 1 else "sessions expired (wave 1)")
        assert held <= config.connections * BOUND_PER_CONNECTION_MIB, f"wave {wave}: {held:.1f} MiB for {config.connections} connections"
        unregistered = result.growth(f"closed before registering (wave {wave})", since=f"boards left (wave {wave})")
        assert unregistered < 4, f"wave {wave}: {config.unregistered} sockets closed before registering kept {unregistered:.1f} MiB"
        grown = result.growth(f"oversize frame (wave {wave})", since=f"closed before registering (wave {wave})")
        assert grown < 2, f"refusing a frame over the limit grew the server by {grown:.1f} MiB"
    after = result.growth("sessions expired (wave 2)")
    assert after <= BOUND_AFTER_EXPIRY_MIB, f"{after:.1f} MiB still held after every session expired"
