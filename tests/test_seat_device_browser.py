"""A seat is one device's, in real Chromium against the real server, for every game: another
browser (its own context: another device) opening a claimed seat's link gets only "in use, the
host board is asked" and none of the seat in any frame it receives; the board shows the request
and the owner's phone the warning; Refuse leaves it out, Allow moves the seat (the old device is
signed out at once); the owner plays on throughout. A protocol-level device (no browser) that
opens the link and then clicks every control the owner's page has changes nothing.

Run: `uv run pytest tests/test_seat_device_browser.py -q` (marker `browser`, Debian's chromium)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.flet_client import FletClient
from tests.harness.browser import BOARD_VIEWPORT, WAIT_MS, chromium, enable_semantics, ident
from tests.harness.flet_inprocess import decode_frames, strings_in
from tests.harness.server import RefereeServer, prepare_rooms

#: a directory to keep what the board and the owner's phone show while a request waits (off unless set)
SHOTS = os.environ.get("SEAT_DEVICE_SHOTS")

pytestmark = pytest.mark.browser

PHONE_VIEWPORT = {"width": 390, "height": 844}
PLAYERS = [{"name": n, "colour": c} for n, c in [("Anna", "red"), ("Boris", "blue"), ("Chloe", "green"), ("Dmitri", "yellow")]]
GAMES = ("vabanque", "corruption", "chicago_poker", "reglement")
#: the seat refused to another device, and the seat allowed to move
REFUSED, ALLOWED = 1, 2
#: what only a seat's own page holds: none of it may reach another device
SEAT_ONLY = ("seat-body", "hold-private", "show-private", "rules", "seat-language", "take-back")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, dict[str, tuple[str, list[str]]]]]:
    data_dir = tmp_path_factory.mktemp("referee-devices")

    async def script(host: Any) -> dict[str, tuple[str, list[str]]]:
        rooms = {}
        for game in GAMES:
            room = await host.create_room(game, {"players": PLAYERS}, seed=17)
            rooms[game] = (room.id, [s.token for s in room.seats])
        return rooms

    rooms = prepare_rooms(data_dir, script)
    with RefereeServer(data_dir) as server:
        yield server, rooms


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def device(browser: Any, url: str, viewport: dict[str, int] = PHONE_VIEWPORT) -> tuple[Any, list[bytes]]:
    """A new device (its own browser context: its own storage) on `url`, with every websocket
    frame it receives."""
    context = browser.new_context(viewport=viewport, locale="en-US")
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, bytes) else payload.encode())))
    page.goto(url)
    enable_semantics(page)
    return page, frames


def identifiers_sent(frames: list[bytes]) -> set[str]:
    found: set[str] = set()
    for frame in decode_frames(frames):
        found.update(s for s in strings_in(frame))
    return found


def logged(server: RefereeServer, room: str) -> int:
    """How many entries the room's log holds (its export, as the host board downloads it)."""
    with urllib.request.urlopen(server.url(f"/export/{room}.json", k=server.host_token or ""), timeout=30) as answer:
        return len(json.load(answer)["entries"])


@pytest.mark.parametrize("game", GAMES)
def test_another_device_gets_nothing_and_the_board_decides(served: tuple[RefereeServer, dict[str, tuple[str, list[str]]]], browser: Any, game: str) -> None:
    from playwright.sync_api import expect

    server, rooms = served
    room, tokens = rooms[game]
    board, _ = device(browser, server.url(f"/room/{room}", k=server.host_token or ""), BOARD_VIEWPORT)
    owners = {}
    for seat in (REFUSED, ALLOWED):
        owners[seat], _ = device(browser, f"{server.base}/join/{room}/{tokens[seat]}")
        expect(owners[seat]).to_have_url(re.compile(rf"/seat/{room}$"))
        expect(ident(owners[seat], "rules")).to_be_visible()

    # another device on the refused seat's link: only that it is in use, and the board is asked
    other, frames = device(browser, f"{server.base}/join/{room}/{tokens[REFUSED]}")
    expect(ident(other, "seat-request-waiting")).to_be_visible()
    expect(ident(board, f"seat-request-{REFUSED}")).to_be_visible()
    expect(ident(owners[REFUSED], "seat-asked-for")).to_be_visible()
    expect(ident(owners[REFUSED], "rules")).to_be_visible()  # the owner's page goes on
    if SHOTS:  # to look at: the request beside the seats on the board, the note on the phone
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        board.wait_for_timeout(1000)  # the canvas paints after the accessibility tree: a picture only
        board.screenshot(path=str(Path(SHOTS) / f"{game}-board-request.png"))
        owners[REFUSED].screenshot(path=str(Path(SHOTS) / f"{game}-owner-asked.png"))
    ident(board, f"seat-request-refuse-{REFUSED}").click()
    expect(ident(other, "seat-request-refused")).to_be_visible()
    expect(ident(owners[REFUSED], "seat-asked-for")).to_have_count(0)
    sent = identifiers_sent(frames)
    assert not sent & set(SEAT_ONLY), f"the other device was sent {sent & set(SEAT_ONLY)}"
    for seat in range(len(PLAYERS)):  # nor any other seat's link
        assert not any(tokens[seat] in s for s in sent if seat != REFUSED)

    # another device on the other seat's link: the host allows it, the seat moves
    newer, _ = device(browser, f"{server.base}/join/{room}/{tokens[ALLOWED]}")
    expect(ident(newer, "seat-request-waiting")).to_be_visible()
    ident(board, f"seat-request-allow-{ALLOWED}").click()
    expect(newer).to_have_url(re.compile(rf"/seat/{room}$"))
    expect(ident(newer, "rules")).to_be_visible()
    expect(ident(owners[ALLOWED], "signed-out")).to_be_visible()
    expect(owners[ALLOWED].get_by_text("moved to another device", exact=False)).to_be_visible()
    # a reload of the new device: its seat again (the same browser is the same device)
    newer.reload()
    enable_semantics(newer)
    expect(ident(newer, "rules")).to_be_visible()
    for page in (board, other, newer, *owners.values()):
        page.context.close()


def test_a_protocol_level_device_cannot_act_for_a_claimed_seat(served: tuple[RefereeServer, dict[str, tuple[str, list[str]]]]) -> None:
    """No browser: a device that opens a claimed seat's link, then clicks every control id the
    owner's page holds, receives nothing of the seat and moves nothing."""
    server, rooms = served
    room, tokens = rooms["vabanque"]
    seat = 3

    async def run() -> None:
        owner = FletClient(server.base, f"/join/{room}/{tokens[seat]}")
        await owner.connect()
        await owner.wait_for(lambda c: c.find("rules"), timeout=WAIT_MS / 1000, what="the owner's seat page")
        owner_ids = [c["_i"] for c in owner.controls(visible_only=False) if "_i" in c]
        other = FletClient(server.base, f"/join/{room}/{tokens[seat]}")
        await other.connect()
        await other.wait_for(lambda c: c.find("seat-request-waiting"), timeout=WAIT_MS / 1000, what="the request page")
        version_before = logged(server, room)
        for control_id in owner_ids:
            await other.send_event(control_id, "click")
        await other.wait_for(lambda c: c.find("seat-request-waiting"), timeout=WAIT_MS / 1000, what="the request page still")
        identifiers = {c.get("identifier") for c in other.controls(visible_only=False)} - {None}
        assert not identifiers & set(SEAT_ONLY), identifiers
        assert logged(server, room) == version_before
        await other.close()
        await owner.close()

    # a thread of its own: this module's Chromium (sync Playwright) holds this thread's event loop
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()
