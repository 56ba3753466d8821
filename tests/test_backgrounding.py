"""The tablet app leaving the screen: iOS suspends an app that leaves the screen (its server with
it) and Android may stop or throttle its networking. The board says so before it matters (once a
game is shown, in a packaged Android or iOS app only), and when the host comes back the phones
come back to the table by themselves and see it as it is.

The return is tested with the real server as a subprocess, paused with SIGSTOP (what a suspended
app is to its phones: connections open, nothing answered) and resumed with SIGCONT. Phones and
board are protocol-level Flet clients (benchmarks/flet_client.py), the harness of
tests/test_reconnect.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
from pathlib import Path
from typing import Any

import pytest

from benchmarks.flet_client import FletClient
from benchmarks.latency import ServerProcess, Table, VabanqueMirror, create_room, vabanque_setup
from tests.drills.phones import expected_phone_lines, phone_shows
from views.i18n import translator

PLAYERS = 3
SEED = 3434
STEP_TIMEOUT = 30.0
NOTICE = "leaving-stops-table"


class ScreenAwakeStandIn:
    """The app window's screen wake lock (a client service the in-process harness has not)."""

    #: the rooms every window followed, in order (None: no game shown)
    followed: list[Any] = []

    def __init__(self, *_: Any) -> None:
        pass

    async def follow(self, room: Any) -> None:
        self.followed.append(room)

    def stop(self) -> None:
        pass


async def board_in_the_app(monkeypatch: pytest.MonkeyPatch, make_host: Any, harness_factory: Any, platform: str | None) -> tuple[Any, Any, Any]:
    """The host board as the app's own window shows it, on `platform` (FLET_PLATFORM: what a
    packaged app's runtime sets; None: not a packaged app)."""
    from views import app

    if platform is None:
        monkeypatch.delenv("FLET_PLATFORM", raising=False)
    else:
        monkeypatch.setenv("FLET_PLATFORM", platform)
    monkeypatch.setattr(app, "is_app_window", lambda _page: True)  # its connection is Flet's native one
    monkeypatch.setattr(app, "ScreenAwake", ScreenAwakeStandIn)
    monkeypatch.setattr(ScreenAwakeStandIn, "followed", [])
    host = make_host()
    room = await host.create_room("vabanque", vabanque_setup(PLAYERS), seed=SEED)
    harness = harness_factory(host)
    rooms = await harness.open("/", name="app-window")
    return host, room, rooms


@pytest.mark.parametrize("platform", ["android", "ios"])
async def test_the_tablet_app_says_leaving_the_screen_stops_the_table_once_a_game_is_shown(
    platform: str, monkeypatch: pytest.MonkeyPatch, make_host: Any, harness_factory: Any
) -> None:
    _host, room, window = await board_in_the_app(monkeypatch, make_host, harness_factory, platform)
    notice = translator("en").t("ui.leaving_stops_table")
    assert not window.has(NOTICE), "the rooms page: no game shown yet"
    await window.harness.settle()
    window.page.navigate(f"/room/{room.id}")
    await window.harness.settle()
    assert ScreenAwakeStandIn.followed[-1] is room, "the window shows the game"
    assert window.has(NOTICE) and notice in window.texts(window.find(NOTICE)), window.identifiers()
    # once per room: back to the rooms page and to the board again, nothing new is shown
    dialogs = len(window.page._dialogs.controls)
    window.page.navigate("/")
    await window.harness.settle()
    window.page.navigate(f"/room/{room.id}")
    await window.harness.settle()
    assert len(window.page._dialogs.controls) == dialogs


@pytest.mark.parametrize("platform", [None, "macos", "windows"])
async def test_a_desktop_app_or_a_browser_board_does_not(platform: str | None, monkeypatch: pytest.MonkeyPatch, make_host: Any, harness_factory: Any) -> None:
    _host, room, window = await board_in_the_app(monkeypatch, make_host, harness_factory, platform)
    window.page.navigate(f"/room/{room.id}")
    await window.harness.settle()
    assert ScreenAwakeStandIn.followed[-1] is room, "the window shows the game"
    assert not window.has(NOTICE), "a desktop window in the background keeps serving"


async def reconnecting(phone: FletClient, stop: asyncio.Event, back: asyncio.Event) -> int:
    """The phone's client, as Flet's web client behaves: whenever its socket is gone, it connects
    again with its session id, a try a second, until `stop`. Sets `back` each time it is back;
    returns how many times it came back."""
    returns = 0
    while not stop.is_set():
        if phone.closed:
            try:
                await phone.reconnect(STEP_TIMEOUT)
            except Exception:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), 1.0)  # the next try in a second
                continue
            returns += 1
            back.set()
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.1)  # a socket's end is seen within 0.1 s
    return returns


async def test_after_the_host_was_paused_the_phones_come_back_to_the_table_by_themselves(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    info = create_room(data_dir, vabanque_setup(PLAYERS), SEED)
    server = await asyncio.to_thread(ServerProcess(data_dir).start)
    mirror = VabanqueMirror(info.setup, info.seed)
    table = Table(server.base_url, info, mirror)
    rng = random.Random(SEED)
    stop = asyncio.Event()
    loops: list[asyncio.Task[int]] = []
    try:
        await table.open_all(STEP_TIMEOUT)
        await table.play(mirror.random_action(rng), STEP_TIMEOUT)
        back = [asyncio.Event() for _ in table.phones]
        loops = [asyncio.create_task(reconnecting(phone, stop, came)) for phone, came in zip(table.phones, back)]
        sessions = [phone.session_id for phone in table.phones]
        os.kill(server.pid, signal.SIGSTOP)  # the tablet app leaves the screen
        try:
            # While it is away, one phone's socket dies (its Wi-Fi dozed): its client starts
            # connecting again, and waits for a host that does not answer.
            dropped = table.phones[0]
            dropped._ws.transport.abort()
            await asyncio.sleep(3.0)  # the host stays away a while; nothing can be observed meanwhile
            assert server.proc is not None and server.proc.poll() is None
        finally:
            os.kill(server.pid, signal.SIGCONT)  # the app is back on screen
        await asyncio.wait_for(back[0].wait(), STEP_TIMEOUT)
        assert [phone.session_id for phone in table.phones] == sessions, "each phone back in its own session"
        for seat, phone in enumerate(table.phones):
            await phone_shows(phone, expected_phone_lines(mirror, seat), STEP_TIMEOUT)
        online = "● " + mirror.tr.t("ui.connected")
        assert table.board is not None
        await table.board.wait_for(lambda c: c.texts().count(online) == PLAYERS, STEP_TIMEOUT, what="every seat online again")
        # and the table goes on: moves, the phone that was away's among them, reach everyone
        for _ in range(12):
            action = mirror.random_action(rng)
            if action is None:
                break
            await table.play(action, STEP_TIMEOUT)
            if action.by == 0:
                break
        else:
            pytest.fail("seat 0 never had a move in 12")
        for seat, phone in enumerate(table.phones):
            await phone_shows(phone, expected_phone_lines(mirror, seat), STEP_TIMEOUT)
    finally:
        stop.set()
        returns = await asyncio.gather(*loops, return_exceptions=True)
        await table.close()
        server.kill()
    assert returns and isinstance(returns[0], int) and returns[0] >= 1, f"the dropped phone reconnected by itself: {returns}"
