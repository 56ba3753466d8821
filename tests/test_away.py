"""A phone that slept longer than the session timeout comes back to its seat, current, and is
told what it lost only when it lost something (views/away.py; the timeout: main.py).

The real server with a 2 s session timeout (FLET_SESSION_TIMEOUT, the setting production's
default goes through); protocol-level phones whose storage outlives their connections, as a
phone's browser storage does. One phone picks its card (not sent) and sleeps; another sleeps
with nothing entered. Both come back after their sessions expired.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.request
from pathlib import Path

import pytest

from benchmarks.latency import ServerProcess, Table, VabanqueMirror, create_room, vabanque_setup
from tests.drills.phones import expected_phone_lines, phone_shows
from tests.test_restart import STEP_TIMEOUT

pytestmark = pytest.mark.slow

SEED = 5150
PLAYERS = 3


def sessions_held(server: ServerProcess) -> int:
    with urllib.request.urlopen(server.base_url + "/healthz", timeout=10) as response:
        return json.loads(response.read())["sessions"]


async def wait_until_sessions(server: ServerProcess, count: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while (held := await asyncio.to_thread(sessions_held, server)) != count:
        assert time.monotonic() < deadline, f"{held} sessions held, waiting for {count}"
        await asyncio.sleep(0.5)  # polling /healthz: Flet evicts expired sessions every 10 s


async def test_phones_back_after_their_sessions_expired(tmp_path: Path) -> None:
    info = create_room(tmp_path / "data", vabanque_setup(PLAYERS), SEED)
    server = await asyncio.to_thread(ServerProcess(tmp_path / "data", env={"FLET_SESSION_TIMEOUT": "2"}).start)
    mirror = VabanqueMirror(info.setup, info.seed)
    table = Table(server.base_url, info, mirror)
    rng = random.Random(SEED)
    try:
        await table.open_all(STEP_TIMEOUT)
        while mirror.state.phase != "cards":
            await table.play(mirror.random_action(rng), STEP_TIMEOUT)
        picker = mirror.seat_view(0).waiting_for[0]
        idle = (picker + 1) % PLAYERS
        card = mirror.seat_view(picker).my_legal.cards[0]
        phone = table.phones[picker]
        await table.click(phone, "show-private", table._chosen(phone, "show-private"), [phone], STEP_TIMEOUT)
        await table.click(phone, f"card-{card}", table._chosen(phone, f"card-{card}"), [phone], STEP_TIMEOUT)
        await phone.wait_for(lambda c: c.find("seat-table-1"), STEP_TIMEOUT, what="the tables to put the card on")
        old_sessions = {phone.session_id, table.phones[idle].session_id}

        # Both phones sleep (their sockets close) past the timeout: their sessions expire.
        for seat in (picker, idle):
            await table.phones[seat].close()
        await wait_until_sessions(server, 1 + PLAYERS - 2, 60)

        # They wake up: the Flutter client registers again with its old session id.
        for seat in (picker, idle):
            await table.phones[seat].reconnect(STEP_TIMEOUT)
        assert {table.phones[s].session_id for s in (picker, idle)}.isdisjoint(old_sessions), "new sessions"
        for seat in (picker, idle):
            await phone_shows(table.phones[seat], expected_phone_lines(mirror, seat), STEP_TIMEOUT)

        await phone.wait_for(lambda c: c.find("away-notice"), STEP_TIMEOUT, what="the notice of what was lost")
        assert mirror.tr.t("ui.away_cleared") in phone.text_of("away-notice")
        assert phone.find("seat-table-1") is None, "the unsent card choice is gone (and the page says so)"
        assert table.phones[idle].find("away-notice") is None, "nothing was lost: nothing to say"

        # The game goes on from the returned phone; the notice goes with the first action.
        action = mirror.random_action(rng)
        assert action.by == picker
        await table.play(action, STEP_TIMEOUT)
        await phone.wait_for(lambda c: c.find("away-notice") is None, STEP_TIMEOUT, what="the notice gone after playing")
    finally:
        server.stop()
        await table.close()
