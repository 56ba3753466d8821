"""App mode: the host board in the app's own window and the seat pages served to phones on the LAN,
one process, one event loop, one `Host`.

Flet's `run_async` serves one transport: the native-view socket (the desktop window, or the
packaged app's own Flutter view) or the web server, never both. Here the LAN server is our
uvicorn server (main.py builds it, the same one `uv run main.py` serves), and the native side is
Flet's own `run_async` with `view=FLET_APP`: on a desktop it starts the socket server and opens the
window (flet-desktop's client, or `$FLET_VIEW_PATH/flet`); in a packaged app (`FLET_PLATFORM` set)
it serves the app's embedded view. Both call the same Flet `main`, so the window and the phones'
browsers are sessions of one program sharing every room.

Host rights in the window come from its connection: a session that arrived over the native
transport is the app's own window (a local socket or the embedded bridge, which a phone on the
LAN cannot reach). Nothing a client says about itself counts: `page.web` and `page.platform` come
from the register frame any LAN client writes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import flet as ft

log = logging.getLogger(__name__)

#: Flet's native transports, by module and class name: the dart-bridge module imports the
#: embedded runtime's `dart_bridge` at import time, so it is recognised without importing it.
NATIVE_TRANSPORTS = frozenset(
    {
        ("flet.messaging.flet_socket_server", "FletSocketServer"),
        ("flet.messaging.flet_dart_bridge_server", "FletDartBridgeServer"),
    }
)

#: seconds the window gets to close itself once the LAN server has stopped (Ctrl+C, SIGTERM)
WINDOW_CLOSE_TIMEOUT = 5.0


def is_app_window(page: ft.Page) -> bool:
    """Whether `page` is the app's own window: its session came over Flet's native transport."""
    session = getattr(page, "session", None)
    connection = getattr(session, "connection", None) if session is not None else None
    kind = type(connection)
    return (kind.__module__, kind.__qualname__) in NATIVE_TRANSPORTS


def is_packaged() -> bool:
    """Running inside a `flet build` app (the embedding runtime sets FLET_PLATFORM)."""
    return os.environ.get("FLET_PLATFORM") is not None


def leaving_the_screen_stops_the_table() -> bool:
    """A packaged app on Android or iOS, where the platform stops (iOS: within seconds) or may
    stop and throttle (Android) the networking of an app that leaves the screen, and with it the
    table the phones play on: the board says so once a game is shown. (A desktop window in the
    background keeps serving.)"""
    from flet.utils import is_android, is_ios

    return is_packaged() and (is_android() or is_ios())


def no_window_reason() -> str | None:
    """Why this machine cannot open the app window, in words for the terminal; None if it can.
    (Without a display Flet would quietly serve a web page on port 8000 instead.)"""
    if is_packaged():
        return None
    from flet.utils import get_bool_env_var, is_linux_server

    if get_bool_env_var("FLET_FORCE_WEB_SERVER"):
        return "FLET_FORCE_WEB_SERVER is set: the app window cannot open. Unset it, or serve with `uv run main.py`."
    if is_linux_server():
        return "No display (DISPLAY is not set): the app window cannot open here. Serve the board with `uv run main.py` and open it in a browser."
    try:
        import flet_desktop  # noqa: F401  (pinned: Flet would otherwise pip-install it at start-up)
    except ImportError:
        return "flet-desktop is not installed: run `uv sync`."
    return None


class ScreenAwake:
    """Keeps the device's screen on while the window shows a running game (Flet's Wakelock
    service), off otherwise. A client without the service (or one that fails) only costs a log line."""

    def __init__(self, service: Any = None) -> None:
        self.service = service if service is not None else ft.Wakelock()
        self.enabled = False
        self._unsubscribe: Callable[[], None] | None = None
        self._lock = asyncio.Lock()  # room events come in bursts: one call per change of state

    async def follow(self, room: Any | None) -> None:
        """Keep the screen on while `room`'s game runs, then let it sleep; None: no game shown."""
        self.stop()
        if room is not None:

            async def changed(_event: Any) -> None:
                await self.keep(not room.over)

            self._unsubscribe = room.subscribe(changed)
        await self.keep(room is not None and not room.over)

    def stop(self) -> None:
        """Stop following a room (the page goes away)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    async def keep(self, awake: bool) -> None:
        async with self._lock:
            if awake == self.enabled:
                return
            try:
                await asyncio.wait_for(self.service.enable() if awake else self.service.disable(), 5.0)
            except Exception:
                log.warning("screen wake lock %s failed", "enable" if awake else "disable", exc_info=True)
                return
            self.enabled = awake


@dataclass
class RunningHost:
    """The LAN server and window this process runs (app mode), for a relaunched view to join."""

    loop: asyncio.AbstractEventLoop
    lan_server: Any
    flet_main: Callable[[ft.Page], Awaitable[None]]
    assets_dir: str


#: This process's running hosts, by (data directory, port). A packaged app's Python can outlive
#: its view: Android may keep the process of an app that left the screen, and the view, launched
#: again, runs main.py again in the same interpreter (modules stay imported). The second run finds
#: its host here instead of binding the port a second time.
RUNNING: dict[tuple[str, int], RunningHost] = {}


def host_key(data_dir: str | Path, port: int) -> tuple[str, int]:
    return (str(Path(data_dir).resolve()), port)


def running_in_process(key: tuple[str, int]) -> RunningHost | None:
    """This process's host for `key`, if it still serves."""
    running = RUNNING.get(key)
    if running is None or running.loop.is_closed() or not running.loop.is_running() or running.lan_server.should_exit:
        return None
    return running


def open_window_on(running: RunningHost) -> None:
    """A new app window for the host already running in this process, on that host's event loop
    (its rooms and sessions live there); returns when the window ends. Called from the thread
    of the relaunched run, never from the loop's own."""
    window = ft.run_async(running.flet_main, view=ft.AppView.FLET_APP, assets_dir=running.assets_dir)
    asyncio.run_coroutine_threadsafe(window, running.loop).result()


class WindowPages:
    """The app window's pages now open (a desktop window has one; a relaunched client may add a
    new one before the old one is gone)."""

    def __init__(self) -> None:
        self.pages: set[ft.Page] = set()

    def add(self, page: ft.Page) -> None:
        self.pages.add(page)

    def discard(self, page: ft.Page) -> None:
        self.pages.discard(page)

    async def close_all(self) -> None:
        """Ask each window to close itself (the host stops)."""
        for page in list(self.pages):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(page.window.destroy(), WINDOW_CLOSE_TIMEOUT)


async def run(
    lan_server: Any,
    lan_sockets: list[Any],
    flet_main: Callable[[ft.Page], Awaitable[None]],
    assets_dir: str,
    windows: WindowPages,
    key: tuple[str, int] | None = None,
) -> None:
    """Serve the LAN (`lan_server`: a uvicorn Server, on sockets already bound) and the app window
    until one of them ends: the window closed ends the app; the LAN server stopped (Ctrl+C,
    SIGTERM) closes the window. An error in either is raised after the other has stopped. With
    `key` (host_key), a relaunched view of this process finds the host while it runs."""
    if key is not None:
        RUNNING[key] = RunningHost(asyncio.get_running_loop(), lan_server, flet_main, assets_dir)
    try:
        await serve_lan_and_window(lan_server, lan_sockets, flet_main, assets_dir, windows)
    finally:
        if key is not None:
            RUNNING.pop(key, None)


async def serve_lan_and_window(
    lan_server: Any,
    lan_sockets: list[Any],
    flet_main: Callable[[ft.Page], Awaitable[None]],
    assets_dir: str,
    windows: WindowPages,
) -> None:
    with private_window_socket():
        window = asyncio.create_task(
            ft.run_async(flet_main, view=ft.AppView.FLET_APP, assets_dir=assets_dir), name="app-window"
        )
        lan = asyncio.create_task(lan_server.serve(sockets=lan_sockets), name="lan-server")
        done, _ = await asyncio.wait({window, lan}, return_when=asyncio.FIRST_COMPLETED)
        if window in done:
            lan_server.should_exit = True
            await asyncio.wait({lan})
        else:
            await windows.close_all()
            finished, _ = await asyncio.wait({window}, timeout=WINDOW_CLOSE_TIMEOUT)
            if not finished:  # a window that would not close: stop its transport
                window.cancel()
                await asyncio.wait({window})
    for task in (window, lan):
        if not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]


@contextlib.contextmanager
def private_window_socket() -> Iterator[None]:
    """Flet would put the desktop window's socket in the shared temp directory, where another
    user of this machine could connect to it (and be the host): put it in a directory only this
    user can enter (mode 0700), removed afterwards. (Windows: Flet uses a localhost TCP port.)"""
    if is_packaged() or os.name == "nt" or os.environ.get("FLET_SERVER_UDS_PATH"):
        yield
        return
    private_dir = tempfile.mkdtemp(prefix="table-referee-")
    os.environ["FLET_SERVER_UDS_PATH"] = os.path.join(private_dir, "window.sock")
    try:
        yield
    finally:
        os.environ.pop("FLET_SERVER_UDS_PATH", None)
        shutil.rmtree(private_dir, ignore_errors=True)
