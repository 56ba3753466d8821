"""A relaunch finds the host still running: `main.py` (or the app) started again with the data
directory of a host that already serves on its port goes on with that host, instead of failing on
the bound port or starting a second one.

Two ways it happens: a second process (`main.py` run again, a desktop app opened twice), which
finds its host by /healthz's data fingerprint and says where it is; and, in a packaged app, the
same process (Android may keep the Python process of an app that left the screen, and the view
launched again runs main.py again in that interpreter), which finds its host in
views.app_window.RUNNING and opens the new view on that host's event loop.
"""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from benchmarks.latency import ServerProcess, free_port

ROOT = Path(__file__).resolve().parent.parent


def run_main(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def healthz(port: int) -> dict[str, Any]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def wait_until_serving(port: int, timeout: float = 60.0) -> dict[str, Any]:
    """/healthz once the server answers (an HTTP port's only readiness signal is its answer)."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        try:
            return healthz(port)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def test_a_second_main_py_with_the_same_data_finds_the_host_and_leaves_it_running(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data").start()
    try:
        before = healthz(server.port)
        again = run_main("--host", "127.0.0.1", "--port", str(server.port), "--data-dir", str(tmp_path / "data"), cwd=tmp_path)
        assert again.returncode == 0, again.stdout + again.stderr
        assert "already running" in again.stdout, again.stdout
        assert f"http://127.0.0.1:{server.port}/?k={server.host_token}" in again.stdout, "the running host's own board link"
        assert "Traceback" not in again.stderr, again.stderr
        assert server.proc is not None and server.proc.poll() is None, "the first host still runs"
        assert healthz(server.port)["data"] == before["data"]
    finally:
        server.stop()


def test_another_data_directory_on_a_held_port_still_fails(tmp_path: Path) -> None:
    """Not its host: the port is someone else's, and binding it fails as it always did."""
    server = ServerProcess(tmp_path / "data").start()
    try:
        other = run_main("--host", "127.0.0.1", "--port", str(server.port), "--data-dir", str(tmp_path / "other"), cwd=tmp_path)
        assert other.returncode != 0, other.stdout + other.stderr
        assert "already running" not in other.stdout
        assert "address already in use" in (other.stdout + other.stderr).lower(), other.stdout + other.stderr
        assert server.proc is not None and server.proc.poll() is None and healthz(server.port)["ok"]
    finally:
        server.stop()


def test_a_program_that_is_not_the_host_on_the_port_is_not_taken_for_it(tmp_path: Path) -> None:
    """A port held by a listener that answers no /healthz (here: one that accepts and closes)."""
    import main

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        stop = threading.Event()

        def accept_and_close() -> None:
            listener.settimeout(0.2)
            while not stop.is_set():
                try:
                    conn, _ = listener.accept()
                except OSError:
                    continue
                conn.close()

        thread = threading.Thread(target=accept_and_close, daemon=True)
        thread.start()
        try:
            args = main.parse(["--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path)])
            assert main.host_already_serving(args) is False
        finally:
            stop.set()
            thread.join(5)


def test_a_relaunched_app_view_in_the_same_process_joins_its_running_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A packaged app run twice in one interpreter, as a kept Android process whose view is
    launched again: the second run binds nothing and opens its view on the first run's loop.
    The app's view transport (Flet's run_async with the app view) is stood in for: each call
    is a view that stays open until the test closes it."""
    import flet as ft

    import main
    from views import app_window

    port = free_port()
    monkeypatch.setenv("FLET_PLATFORM", "android")  # a packaged app: app mode, no display needed
    monkeypatch.setenv("FLET_SERVER_UDS_PATH", str(tmp_path / "view.sock"))
    argv = ["--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path / "data")]
    views: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []
    opened = threading.Condition()

    async def view_stand_in(flet_main: Any, view: Any = None, assets_dir: Any = None, **_: Any) -> None:
        assert view == ft.AppView.FLET_APP
        closed = asyncio.Event()
        with opened:
            views.append((asyncio.get_running_loop(), closed))
            opened.notify_all()
        await closed.wait()

    def close_view(index: int) -> None:
        loop, closed = views[index]
        loop.call_soon_threadsafe(closed.set)

    def wait_for_views(count: int) -> None:
        with opened:
            assert opened.wait_for(lambda: len(views) >= count, 60), f"{count} views never opened"

    monkeypatch.setattr(app_window.ft, "run_async", view_stand_in)
    thresholds = gc.get_threshold()
    results: dict[str, int] = {}

    def run(name: str) -> None:
        results[name] = main.main(argv)

    first = threading.Thread(target=run, args=("first",), daemon=True)
    first.start()
    try:
        wait_for_views(1)
        before = wait_until_serving(port)
        key = app_window.host_key(tmp_path / "data", port)
        assert app_window.running_in_process(key) is not None
        relaunch = threading.Thread(target=run, args=("relaunch",), daemon=True)
        relaunch.start()
        wait_for_views(2)
        assert views[1][0] is views[0][0], "the relaunched view runs on the running host's loop"
        assert healthz(port)["data"] == before["data"]
        close_view(1)  # the relaunched view closes: its run ends, the host stays
        relaunch.join(30)
        assert not relaunch.is_alive() and results["relaunch"] == 0
        assert first.is_alive() and healthz(port)["ok"], "the host still serves"
    finally:
        for index in range(len(views)):
            close_view(index)
        first.join(30)
        gc.set_threshold(*thresholds)
    assert not first.is_alive() and results["first"] == 0
    assert app_window.running_in_process(app_window.host_key(tmp_path / "data", port)) is None, "gone with its host"
