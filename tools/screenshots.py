"""Screenshots of the board (tablet) and a seat (phone) for the README and for looking at the app.

    uv run python tools/screenshots.py [OUT_DIR]

Creates a demo game in a temporary data directory, serves it on loopback and photographs it
with Debian's Chromium (Playwright, /usr/bin/chromium). Default OUT_DIR: docs/screenshots.
"""

from __future__ import annotations

import asyncio
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
PLAYERS = [
    {"name": "Adriano", "colour": "red"},
    {"name": "Benedetta", "colour": "blue"},
    {"name": "Carlotta", "colour": "green"},
    {"name": "Дмитрий", "colour": "yellow"},
]


async def seed_demo(data_dir: Path) -> dict[str, str]:
    """A Vabanque room in the moves phase and one in the payout of round 1."""
    from companion.room import Host
    from companion.store import Store

    host = Host(Store(data_dir / "referee.sqlite3"))
    rooms = {}
    for name, phase in (("moves", "moves"), ("payout", "payout")):
        room = await host.create_room("vabanque", {"players": PLAYERS, "first_player": 0}, seed=7)
        rng = random.Random(5)
        while room.state.phase != phase:
            action = room.game.random_action(room.state, rng)
            await room.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=room.version)
        await room.claim(1)
        rooms[name] = room.id
        rooms[f"{name}_seat0"] = room.seats[0].token
    rooms["host"] = host.token
    host.close()
    return rooms


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def shoot(base: str, demo: dict[str, str], out: Path) -> list[Path]:
    from playwright.async_api import async_playwright

    shots = [
        ("vabanque-board.png", f"/room/{demo['moves']}?k={demo['host']}", (1280, 800)),
        ("vabanque-payout.png", f"/room/{demo['payout']}?k={demo['host']}", (1280, 800)),
        ("vabanque-seat.png", f"/join/{demo['moves']}/{demo['moves_seat0']}", (360, 780)),
        ("rooms.png", f"/?k={demo['host']}", (1280, 800)),
        ("vabanque-payout-fr.png", f"/room/{demo['payout']}?k={demo['host']}&lang=fr", (1280, 800)),
        ("vabanque-seat-ru.png", f"/join/{demo['moves']}/{demo['moves_seat0']}?lang=ru", (360, 780)),
    ]
    written = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for name, path, (width, height) in shots:
            page = await browser.new_page(viewport={"width": width, "height": height})
            await page.goto(base + path)
            await page.wait_for_selector("flt-glass-pane", state="attached", timeout=30000)
            # Flutter paints asynchronously: wait until the semantics tree reports our content.
            await page.evaluate("document.querySelector('flt-semantics-placeholder')?.click()")
            await page.wait_for_function("document.querySelectorAll('flt-semantics').length > 5", timeout=30000)
            # Let the bundled font arrive and the last frame paint; only a picture depends on it.
            await page.wait_for_timeout(2500)
            await page.screenshot(path=str(out / name))
            written.append(out / name)
            await page.close()
        await browser.close()
    return written


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        demo = asyncio.run(seed_demo(data))
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, str(ROOT / "main.py"), "--host", "127.0.0.1", "--port", str(port), "--data-dir", tmp, "--public-url", base],
            stdout=subprocess.DEVNULL,
            cwd=ROOT,
        )
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    urllib.request.urlopen(base + "/healthz", timeout=1)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.1)
            for path in asyncio.run(shoot(base, demo, out)):
                print(path)
        finally:
            server.terminate()
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
