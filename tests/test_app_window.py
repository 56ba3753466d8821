"""App mode (`main.py --window`): the host board in the app's own window and the LAN server for
phones, one process.

The real `main.py --window` runs under Xvfb (Flet opens a window only with a display) with the
pinned flet-desktop, whose window client is the program named by FLET_VIEW_PATH: here the
stand-in of tests/harness/flet_view_standin.py, relaying Flet's native socket to the test's
WindowClient (Flet's socket protocol, spoken by the protocol client of benchmarks/flet_client.py).
Phones are protocol-level web clients on the LAN port, as in tests/test_restart.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import stat
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from benchmarks.flet_client import PHONE, FletClient, walk
from benchmarks.latency import Table, VabanqueMirror, create_room, free_port, vabanque_setup
from tests.harness.qr import decode_qr
from tests.harness.window_client import WindowClient, write_view_dir

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
SEED = 1616
PLAYERS = 3
TIMEOUT = 60.0


@dataclass
class AppProcess:
    """Xvfb and `main.py --window` on it, the window's socket relayed to `windows`."""

    tmp: Path
    data_dir: Path
    port: int = field(default_factory=free_port)
    lines: list[str] = field(default_factory=list)
    xvfb: asyncio.subprocess.Process | None = None
    app: asyncio.subprocess.Process | None = None
    windows: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = field(default_factory=asyncio.Queue)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def view_args(self) -> list[str]:
        return json.loads((self.tmp / "view-args.json").read_text(encoding="utf-8"))

    async def start(self) -> None:
        xvfb = shutil.which("Xvfb")
        assert xvfb, "Xvfb is required (Debian package xvfb; .ci/run installs it)"
        # -displayfd: Xvfb picks a free display and writes its number once it accepts clients.
        self.xvfb = await asyncio.create_subprocess_exec(
            xvfb, "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1280x800x24", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
        )
        assert self.xvfb.stdout is not None
        display = (await asyncio.wait_for(self.xvfb.stdout.readline(), TIMEOUT)).decode().strip()
        assert display.isdigit(), f"Xvfb gave no display: {display!r}"
        relay = self.tmp / "window.sock"
        self._relay = await asyncio.start_unix_server(lambda r, w: self.windows.put_nowait((r, w)), path=str(relay))
        env = {
            **os.environ,
            "DISPLAY": f":{display}",
            "FLET_VIEW_PATH": str(write_view_dir(self.tmp / "view")),
            "REFEREE_VIEW_RELAY": str(relay),
            "REFEREE_VIEW_ARGS": str(self.tmp / "view-args.json"),
            "REFEREE_WEB_COMPRESSION": "0",
            "PYTHONUNBUFFERED": "1",
        }
        for name in ("FLET_FORCE_WEB_SERVER", "FLET_PLATFORM", "FLET_SERVER_PORT", "FLET_SERVER_UDS_PATH", "REFEREE_DATA_DIR"):
            env.pop(name, None)
        self.app = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "main.py"), "--window", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data_dir),
            # not the repository: flet-desktop would take a `build/linux` app there for the window
            cwd=self.tmp,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._pump = asyncio.create_task(self._read_output())

    async def _read_output(self) -> None:
        assert self.app is not None and self.app.stdout is not None
        async for line in self.app.stdout:
            self.lines.append(line.decode(errors="replace").rstrip())

    async def window(self, name: str = "window") -> WindowClient:
        """The next window the app opens, registered."""
        try:
            reader, writer = await asyncio.wait_for(self.windows.get(), TIMEOUT)
        except TimeoutError:
            raise AssertionError("the app opened no window:\n" + self.output()) from None
        client = WindowClient(self.base_url, "/", name=name)
        return await client.attach(reader, writer, TIMEOUT)

    def output(self) -> str:
        return "\n".join(self.lines[-60:])

    async def exit_code(self, timeout: float = TIMEOUT) -> int | None:
        assert self.app is not None
        try:
            return await asyncio.wait_for(self.app.wait(), timeout)
        except TimeoutError:
            return None

    async def stop(self) -> None:
        for proc in (self.app, self.xvfb):
            if proc is not None and proc.returncode is None:
                proc.kill()
                await proc.wait()
        self._relay.close()


@pytest.fixture
async def app_process(tmp_path: Path) -> AsyncIterator[tuple[AppProcess, Any]]:
    data_dir = tmp_path / "data"
    info = create_room(data_dir, vabanque_setup(PLAYERS), SEED)
    process = AppProcess(tmp_path, data_dir)
    await process.start()
    try:
        yield process, info
    finally:
        await process.stop()


def qr_link(window: FletClient, seat: int) -> str:
    """The link in the seat's QR code on the window's board, read as a phone's camera would."""
    node = window.find(f"seat-qr-{seat}")
    assert node is not None
    images = [n for n in walk(node) if n.get("_c") == "Image"]
    assert images, "no QR image under seat-qr"
    src = images[0]["src"]
    links = decode_qr(src if isinstance(src, bytes) else str(src).encode())
    assert len(links) == 1, links
    return links[0]


async def test_the_window_is_the_host_board_and_phones_join_it_over_the_lan(app_process: tuple[AppProcess, Any]) -> None:
    app, info = app_process
    window = await app.window()
    try:
        # The window opened the rooms page as the host (no ?k= anywhere: its connection says so).
        await window.wait_for(lambda c: c.find("create-room") and c.find("join-help"), TIMEOUT, what="the host's rooms page")
        assert window.route == "/"
        socket_path, _pid_file, assets = app.view_args
        assert Path(socket_path).is_socket(), "Flet's window socket (a Unix socket here)"
        assert stat.S_IMODE(Path(socket_path).parent.stat().st_mode) == 0o700, "only this user may reach the window's socket"
        assert Path(assets) == ROOT / "assets"

        await window.click(f"open-{info.room}")
        await window.wait_for(lambda c: c.find("undo") and c.find("join-help"), TIMEOUT, what="the host board's undo and Join help")
        await window.wait_for(
            lambda c: any(i.name == "enable" for i in c.invocations), TIMEOUT, what="the screen kept on during the game"
        )
        # The window has no origin: its export link is the LAN address (the system browser opens it).
        exports = [n["url"] for n in walk(window.page) if isinstance(n.get("url"), str) and "/export/" in n["url"]]
        assert exports and all(url.startswith(f"{app.base_url}/export/{info.room}.json?k=") for url in exports), exports

        mirror = VabanqueMirror(info.setup, info.seed)
        table = Table(app.base_url, info, mirror, board=window)
        for seat in range(PLAYERS):
            await window.click(f"seat-{seat}")
            await window.wait_for(lambda c: c.find(f"seat-qr-{seat}"), TIMEOUT, what=f"seat {seat}'s QR code")
            link = qr_link(window, seat)
            assert link == f"{app.base_url}/join/{info.room}/{info.tokens[seat]}", link
            phone = FletClient(app.base_url, urlsplit(link).path, width=PHONE[0], height=PHONE[1], name=f"phone-{seat}")
            await phone.connect(TIMEOUT)
            header = mirror.seat_header(seat)[0]
            await phone.wait_for(lambda c: header in c.texts(), TIMEOUT, what=f"seat page of {header}")
            table.phones.append(phone)
            if window.clickable("close-qr"):
                await window.click("close-qr")
            await window.wait_for(lambda c: c.find(f"seat-qr-{seat}") is None, TIMEOUT, what="the QR code put away")

        # A seat's action on its phone shows on the window's board: its ruling, newest first.
        rng = random.Random(SEED)
        for _ in range(3):
            action = mirror.random_action(rng)
            await table.play(action, TIMEOUT, wait_board=False)
            newest = mirror.board_rulings()[0]
            await window.wait_for(lambda c: newest in c.texts(), TIMEOUT, what=f"the window's board showing {newest!r}")

        # A LAN client that claims to be the desktop app gets no host rights, wherever it goes.
        for route, shown in (("/", f"open-{info.room}"), (f"/room/{info.room}", "seat-0")):
            liar = FletClient(app.base_url, route, width=1280, height=800, platform="macos", web=False, name=f"liar{route}")
            await liar.connect(TIMEOUT)
            try:
                await liar.wait_for(lambda c: c.find(shown), TIMEOUT, what=f"{route} as a spectator")
                for host_control in ("create-room", "open-history", "join-help", "undo", "table-qr"):
                    assert liar.find(host_control) is None, f"{host_control} offered to a LAN client saying web=false, platform=macos"
                assert not liar.find_all("reissue-"), "seat links offered to a LAN client"
            finally:
                await liar.close()

        crashed = [c.name for c in [window, *table.phones] if c.crashed]
        assert not crashed, crashed
        await table.close()
    except BaseException:
        print(app.output())
        raise

    # Closing the window ends the app, cleanly.
    await window.close()
    assert await app.exit_code() == 0, app.output()


async def test_stopping_the_host_closes_the_window(app_process: tuple[AppProcess, Any]) -> None:
    app, info = app_process
    window = await app.window()
    await window.wait_for(lambda c: c.find("create-room"), TIMEOUT, what="the host's rooms page")
    assert app.app is not None
    app.app.send_signal(signal.SIGTERM)
    # The LAN server stops, then the app asks its window to close, then it ends.
    assert await app.exit_code() == 0, app.output()
    assert window.window_calls == ["destroy"]


async def connect_like_the_app_view(path: Path) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Connect as a packaged app's view does: it retries until the Python side's socket is up
    (the process gives no other sign that it is)."""
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while True:
        try:
            return await asyncio.open_unix_connection(str(path))
        except (FileNotFoundError, ConnectionRefusedError):
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.05)


async def test_a_packaged_app_starts_the_app_mode_with_its_own_storage(tmp_path: Path) -> None:
    """What a `flet build` app does: its runtime sets FLET_PLATFORM, FLET_APP_STORAGE_DATA and the
    socket its own view connects to, and runs main.py with no command line of ours. It must be
    the app mode (the view is the host board, phones join on the LAN), with the database in the
    app's storage, and no display needed."""
    storage = tmp_path / "app-storage"
    uds = tmp_path / "view.sock"
    port = free_port()
    env = {
        **os.environ,
        "FLET_PLATFORM": "android",  # the tablet host
        "FLET_APP_STORAGE_DATA": str(storage),
        "FLET_SERVER_UDS_PATH": str(uds),
        # loopback only in tests (a packaged app listens on every interface, port 8550)
        "REFEREE_HOST": "127.0.0.1",
        "REFEREE_PORT": str(port),
        "REFEREE_WEB_COMPRESSION": "0",
        "PYTHONUNBUFFERED": "1",
    }
    for name in ("DISPLAY", "REFEREE_DATA_DIR", "FLET_FORCE_WEB_SERVER", "FLET_SERVER_PORT", "FLET_DART_BRIDGE_PORT"):
        env.pop(name, None)
    app = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "main.py"), cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    lines: list[str] = []

    async def read_output() -> None:
        assert app.stdout is not None
        async for line in app.stdout:
            lines.append(line.decode(errors="replace").rstrip())
            if f"127.0.0.1:{port}/?k=" in lines[-1]:
                started.set()

    started = asyncio.Event()
    pump = asyncio.create_task(read_output())
    view: WindowClient | None = None
    try:
        await asyncio.wait_for(started.wait(), TIMEOUT)  # printed once both servers are set up
        assert (storage / "referee.sqlite3").exists(), "the database lives in the app's storage"
        reader, writer = await connect_like_the_app_view(uds)
        view = await WindowClient(f"http://127.0.0.1:{port}", "/", name="app-view", platform="android").attach(reader, writer, TIMEOUT)
        await view.wait_for(lambda c: c.find("create-room") and c.find("join-help"), TIMEOUT, what="the host's rooms page in the app's view")
        phone = await FletClient(f"http://127.0.0.1:{port}", "/", name="phone").connect(TIMEOUT)
        await phone.wait_for(lambda c: c.find("join-help") is None and "Rooms" in c.texts(), TIMEOUT, what="the spectator rooms page on the LAN")
        assert phone.find("create-room") is None
        await phone.close()
    except BaseException:
        print("\n".join(lines[-60:]))
        raise
    finally:
        if view is not None:
            await view.close()
        app.kill()
        await app.wait()
        pump.cancel()


def test_the_native_transports_are_where_the_window_check_looks() -> None:
    """views/app_window.is_app_window knows Flet's native transports by module and class name
    (the dart-bridge one cannot be imported outside a packaged app): a Flet upgrade that moves
    or renames one must fail here, not silently take the host rights from the window."""
    import importlib.util

    from views.app_window import NATIVE_TRANSPORTS

    for module, name in NATIVE_TRANSPORTS:
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin, f"{module} is gone"
        assert f"class {name}(" in Path(spec.origin).read_text(encoding="utf-8"), f"{module} has no class {name}"


def test_without_a_display_the_window_mode_says_so(tmp_path: Path) -> None:
    """No DISPLAY: Flet would quietly serve a web page on port 8000 instead of a window."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "FLET_PLATFORM")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "--window", "--host", "127.0.0.1", "--port", str(free_port()), "--data-dir", str(tmp_path)],
        env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "No display" in done.stderr and "uv run main.py" in done.stderr
    assert not (tmp_path / "referee.sqlite3").exists(), "nothing started"


async def test_the_screen_stays_on_until_the_game_ends(tmp_path: Path) -> None:
    """ScreenAwake follows the room the window shows: on while its game runs, off at its end.
    (The Wakelock service itself is the client's: a recorder stands in for it here; the window
    test above sees the real call arrive at the window.)"""
    from companion.room import Host
    from companion.store import Store
    from views.app_window import ScreenAwake

    class Recorder:
        def __init__(self) -> None:
            self.calls: list[str] = []
            self.disabled = asyncio.Event()

        async def enable(self) -> None:
            self.calls.append("enable")

        async def disable(self) -> None:
            self.calls.append("disable")
            self.disabled.set()

    host = Host(Store(tmp_path / "referee.sqlite3"))
    try:
        room = await host.create_room("vabanque", vabanque_setup(3), seed=SEED)
        service = Recorder()
        awake = ScreenAwake(service)
        await awake.follow(room)
        assert service.calls == ["enable"]
        rng = random.Random(SEED)
        while not room.over:
            action = room.game.random_action(room.state, rng)
            channel = "host" if room.game.host_only(action) is not None else "seat"
            await room.submit(action.model_dump(mode="json"), channel=channel, seat=None if channel == "host" else action.by, based_on_version=room.version)
            assert service.calls == ["enable"], "on for the whole game, asked once"
        await asyncio.wait_for(service.disabled.wait(), TIMEOUT)  # the room tells its listeners in tasks
        assert service.calls == ["enable", "disable"]
        await awake.follow(None)  # back to the rooms page: nothing more to do
        assert service.calls == ["enable", "disable"]
        awake.stop()
    finally:
        host.close()
