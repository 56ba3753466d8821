"""The app window's side of Flet's native socket, for tests: the protocol client of
benchmarks/flet_client.py over a byte stream instead of a websocket.

On the socket each packet is `[u32 little-endian length][0x00][msgpack [action, body]]`
(flet/messaging/flet_socket_server.py), the same `0x00` + msgpack packets the web client sends as
websocket frames. The register frame says what the Flutter desktop client says (`web: False`,
the desktop's platform); the app must not believe it anyway. `page.window.destroy()` from the
app closes this "window", as the real client would close its own.

The stream comes through tests/harness/flet_view_standin.py, the program Flet starts as the
window (`$FLET_VIEW_PATH/flet`).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.flet_client import TABLET, FletClient

STANDIN = Path(__file__).with_name("flet_view_standin.py")


def write_view_dir(directory: Path) -> Path:
    """A FLET_VIEW_PATH directory whose `flet` runs the stand-in with this interpreter."""
    directory.mkdir(parents=True, exist_ok=True)
    program = directory / "flet"
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{STANDIN}" "$@"\n', encoding="utf-8")
    program.chmod(0o755)
    return directory


@dataclass
class WindowClient(FletClient):
    web: bool = False
    platform: str = "linux"
    width: float = TABLET[0]
    height: float = TABLET[1]

    def __post_init__(self) -> None:
        super().__post_init__()
        self._stream: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        #: window methods the app called (destroy, close, ...)
        self.window_calls: list[str] = []

    async def attach(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, timeout: float = 30.0) -> WindowClient:
        """Speak over this stream (the relayed window socket): register and wait for the page."""
        self._stream = (reader, writer)
        self._ws = writer  # "connected" for the base class
        self._registered = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read_loop(), name=f"{self.name}-reader")
        await self.register(timeout)
        return self

    async def _packets(self) -> AsyncIterator[bytes]:
        assert self._stream is not None
        reader = self._stream[0]
        while True:
            try:
                header = await reader.readexactly(4)
                packet = await reader.readexactly(int.from_bytes(header, "little"))
            except asyncio.IncompleteReadError:
                self.close_reason = "the app closed the window socket"
                return
            yield packet

    async def _write(self, packet: bytes) -> None:
        assert self._stream is not None
        writer = self._stream[1]
        writer.write(len(packet).to_bytes(4, "little") + packet)
        await writer.drain()

    async def _disconnect(self) -> None:
        assert self._stream is not None
        writer = self._stream[1]
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()

    def device_info(self) -> dict[str, Any]:
        """As the Linux desktop client answers (LinuxDeviceInfo)."""
        return {"name": "Debian GNU/Linux", "id": "debian", "pretty_name": "Debian GNU/Linux 13", "locales": self.locales()}

    def _answer_other(self, control_type: str | None, name: str | None, args: Any) -> tuple[Any, str | None, Callable[[], Any] | None]:
        if control_type in ("Window", None) and name in ("destroy", "close"):
            self.window_calls.append(str(name))

            async def close_window() -> None:  # once it has answered; not one of the tasks close() cancels
                self._closing = asyncio.get_running_loop().create_task(self.close())

            return None, None, close_window
        return super()._answer_other(control_type, name, args)
