"""Run the real server (`uv run main.py ...`) as a subprocess for browser and restart tests.

    server = RefereeServer(data_dir)
    server.start()              # waits for /healthz, parses the host token from stdout
    server.url("/room/abc", k=server.host_token)
    server.kill()               # SIGKILL, like a power cut of the process
    server.start()              # same port and data dir: a restart
    server.stop()

Rooms can be prepared before the server starts with `prepare_rooms(data_dir, ...)`, which runs
the companion layer (Host/Store/Room.submit) against the same data directory in this process.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

ROOT = Path(__file__).resolve().parents[2]
TOKEN_RE = re.compile(r"\?k=([A-Za-z0-9_\-]+)")


def free_port() -> int:
    """A port for a server about to start (benchmarks/latency.py: one range per xdist worker)."""
    from benchmarks.latency import free_port as pick

    return pick()


class RefereeServer:
    """One `main.py` serve process on 127.0.0.1, in its own process group (killed as a group:
    `uv run` starts the Python interpreter as its child)."""

    def __init__(self, data_dir: Path, port: int | None = None, *, env: dict[str, str] | None = None, host: str = "127.0.0.1", public_url: str | None = None):
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        #: the address it listens on (`host=` another local address, e.g. a test veth's; "0.0.0.0" = all)
        self.host = host
        self.base = f"http://{'127.0.0.1' if host == '0.0.0.0' else host}:{self.port}"
        #: the address its QR codes and links name (default: `base`)
        self.public_url = public_url
        self.env = env
        self.proc: subprocess.Popen[str] | None = None
        self.output: list[str] = []
        self.host_token: str | None = None
        self._reader: threading.Thread | None = None
        self._token_seen = threading.Event()

    # -- lifecycle --

    def command(self) -> list[str]:
        return [
            "uv", "run", "--frozen", "main.py",
            "--host", self.host,
            "--port", str(self.port),
            "--data-dir", str(self.data_dir),
            "--public-url", self.public_url or self.base,
        ]  # fmt: skip

    def start(self, timeout: float = 60.0) -> RefereeServer:
        if self.proc is not None and self.proc.poll() is None:
            raise RuntimeError("server already running")
        self.output = []
        self._token_seen.clear()
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **(self.env or {})}
        self.proc = subprocess.Popen(
            self.command(),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="replace",
            env=env,
            start_new_session=True,
        )
        self._reader = threading.Thread(target=self._read, args=(self.proc,), daemon=True)
        self._reader.start()
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log()}")
            if self.healthy() and self._token_seen.wait(0.05):
                break
            if time.monotonic() > deadline:
                self.kill()
                raise TimeoutError(f"server not healthy after {timeout}s:\n{self.log()}")
            time.sleep(0.05)
        return self

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self.output.append(line.rstrip("\n"))
            if "?k=" in line:
                match = TOKEN_RE.search(line)
                if match:
                    self.host_token = match.group(1)
                    self._token_seen.set()

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/healthz", timeout=1) as response:
                return response.status == 200
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            return False

    def health(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.base + "/healthz", timeout=2) as response:
            return json.loads(response.read())

    def kill(self) -> None:
        """SIGKILL the whole process group this server runs in (nothing gets to clean up)."""
        proc = self.proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.wait(timeout=10)
        if self._reader is not None:
            self._reader.join(timeout=5)
        self.proc = None

    def stop(self) -> None:
        """Ctrl+C (SIGINT to the group), then SIGKILL if it does not exit in time."""
        proc = self.proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGINT)
                proc.wait(timeout=10)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
        self.kill()

    def restart(self, timeout: float = 60.0) -> RefereeServer:
        self.kill()
        return self.start(timeout)

    def log(self) -> str:
        return "\n".join(self.output[-200:])

    # -- addresses --

    def url(self, path: str = "/", **query: str) -> str:
        return self.base + path + (("?" + urllib.parse.urlencode(query)) if query else "")

    def ws_url(self) -> str:
        return "ws" + self.base.removeprefix("http") + "/ws"

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def prepare_rooms(data_dir: Path, script: Callable[[Any], Any]) -> Any:
    """Run `await script(host)` against the data directory's store (server must not be running).

    Returns what the script returns; the host token is `host.token` inside the script.
    """
    from companion.room import Host
    from companion.store import Store

    async def run() -> Any:
        host = Host(Store(Path(data_dir) / "referee.sqlite3"))
        try:
            return await script(host)
        finally:
            host.close()

    return asyncio.run(run())
