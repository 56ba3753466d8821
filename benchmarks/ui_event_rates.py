"""How fast the real pages send events (what views/flet_patches/hardening.py's EVENT_RATE is chosen from).

    uv run python benchmarks/ui_event_rates.py

The real server, one Vabanque room, headless Chromium (/usr/bin/chromium). Every frame the page
writes on its websocket is recorded with its time, then, as fast as the browser goes:
  * typing 120 characters into a player's name on the rooms page (`keyboard.type`, no delay:
    faster than any person, so it also gives the frames each keystroke costs);
  * resizing the window every 5 ms for 2 s (a window dragged to a new size);
  * clicking the board's Rules / Back to the game button for 3 s (each click redraws the page).
Printed for each: control events and property updates sent, and the most events in any 1 s
window and any 100 ms window.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402

from benchmarks.latency import ServerProcess, create_rooms, vabanque_setup  # noqa: E402
from tests.harness.browser import BOARD_VIEWPORT, enable_semantics, ident, launch  # noqa: E402

EVENT, UPDATE_PROPS = 3, 4


#: property names starting with "_" that the client sent (registering, property updates): none
#: expected, views/flet_patches/hardening.py `declared_only` drops them
UNDERSCORED: set[str] = set()


def underscored(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {k for k in value if isinstance(k, str) and k.startswith("_")} | {n for v in value.values() for n in underscored(v)}
    if isinstance(value, list):
        return {n for v in value for n in underscored(v)}
    return set()


def record_sent(page: Any) -> list[tuple[float, int, str]]:
    """(time, action, event name) of every frame the page writes on its websocket."""
    sent: list[tuple[float, int, str]] = []

    def on_frame(payload: Any) -> None:
        if isinstance(payload, bytes) and payload[:1] == b"\x00":
            action, body = msgpack.unpackb(payload[1:], raw=False, strict_map_key=False)
            sent.append((time.perf_counter(), action, body.get("name", "") if isinstance(body, dict) else ""))
            if action == 1:
                UNDERSCORED.update(underscored(body.get("page")))
            elif action == UPDATE_PROPS:
                UNDERSCORED.update(underscored(body.get("props")))

    page.on("websocket", lambda ws: ws.on("framesent", on_frame))
    return sent


def most_in_window(times: list[float], window: float) -> int:
    best, start = 0, 0
    for end, at in enumerate(times):
        while at - times[start] > window:
            start += 1
        best = max(best, end - start + 1)
    return best


def report(name: str, frames: list[tuple[float, int, str]], seconds: float) -> None:
    events = [at for at, action, _ in frames if action == EVENT]
    props = sum(1 for _, action, _ in frames if action == UPDATE_PROPS)
    kinds = sorted({kind for _, action, kind in frames if action == EVENT})
    print(
        f"{name:34} {len(events):6} events {props:6} prop updates in {seconds:4.1f} s; "
        f"most events in 1 s: {most_in_window(events, 1.0):4}, in 100 ms: {most_in_window(events, 0.1):3}  {kinds}"
    )


def main() -> int:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="referee-rates-") as tmp:
        info = create_rooms(Path(tmp), vabanque_setup(3), 1, 5)[0]
        server = ServerProcess(Path(tmp)).start()
        try:
            with sync_playwright() as pw:
                browser = launch(pw)
                page = browser.new_page(viewport=BOARD_VIEWPORT)
                sent = record_sent(page)

                page.goto(f"{server.base_url}/?k={info.host_token}")
                enable_semantics(page)
                field = page.locator('input[aria-label="Name of player 1"]')
                field.wait_for(timeout=60_000)
                field.click()
                mark, started = len(sent), time.perf_counter()
                page.keyboard.type("abcdefghij" * 12, delay=0)
                time.sleep(1.0)
                report("typing 120 characters", sent[mark:], time.perf_counter() - started)

                page.goto(f"{server.base_url}/room/{info.room}?k={info.host_token}")
                enable_semantics(page)
                ident(page, "rules").wait_for(timeout=60_000)
                mark, started = len(sent), time.perf_counter()
                while time.perf_counter() - started < 2.0:
                    step = int((time.perf_counter() - started) * 200)
                    page.set_viewport_size({"width": 900 + step % 380, "height": 800})
                    time.sleep(0.005)
                time.sleep(1.0)
                report("resizing every 5 ms for 2 s", sent[mark:], time.perf_counter() - started)

                page.set_viewport_size(BOARD_VIEWPORT)
                time.sleep(1.0)
                mark, started = len(sent), time.perf_counter()
                while time.perf_counter() - started < 3.0:
                    for name in ("rules", "rules-back"):
                        target = ident(page, name)
                        if target.count():
                            box = target.first.bounding_box()
                            if box:
                                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                report("clicking Rules / Back for 3 s", sent[mark:], time.perf_counter() - started)
                print(f"client property names starting with '_': {sorted(UNDERSCORED) or 'none'}")
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
