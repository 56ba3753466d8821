"""A stand-in for Flet's desktop window client, the program flet-desktop starts as
`$FLET_VIEW_PATH/flet <socket> <pid file> [assets dir]` (flet_desktop.open_flet_view_async).

The real client is a Flutter program that cannot be downloaded here. This one does what Flet
relies on from it: it writes its pid to the pid file, connects to the app's socket (a Unix
socket path, or `tcp://host:port`) and stays up exactly as long as the conversation does; when
it exits, Flet's `run_async` takes the window as closed. The conversation itself, Flet's socket
protocol (`[u32 LE length][0x00][msgpack]` packets), is spoken by the test's `WindowClient`
(tests/harness/window_client.py, the protocol client of benchmarks/flet_client.py): this program
relays the bytes between the app's socket and the test's Unix socket named by
`REFEREE_VIEW_RELAY`, untouched, in both directions. It also writes the command line it was
started with to `REFEREE_VIEW_ARGS` (a JSON file) when that is set.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path


async def pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while chunk := await reader.read(65536):
            writer.write(chunk)
            await writer.drain()
    finally:
        writer.close()


async def open_socket(address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    if address.startswith("tcp://"):
        host, port = address.removeprefix("tcp://").rsplit(":", 1)
        return await asyncio.open_connection(host, int(port))
    return await asyncio.open_unix_connection(address)


async def main(argv: list[str]) -> int:
    address, pid_file = argv[0], argv[1]
    Path(pid_file).write_text(str(os.getpid()), encoding="utf-8")
    if os.environ.get("REFEREE_VIEW_ARGS"):
        Path(os.environ["REFEREE_VIEW_ARGS"]).write_text(json.dumps(argv), encoding="utf-8")
    app_reader, app_writer = await open_socket(address)
    test_reader, test_writer = await asyncio.open_unix_connection(os.environ["REFEREE_VIEW_RELAY"])
    relays = [asyncio.create_task(pump(app_reader, test_writer)), asyncio.create_task(pump(test_reader, app_writer))]
    # Either side hanging up closes the window.
    await asyncio.wait(relays, return_when=asyncio.FIRST_COMPLETED)
    for relay in relays:
        relay.cancel()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1:])))
