"""Tokens against the real server: guessed, modified, truncated and revoked seat and host tokens
never get in, and what such a device receives carries no game data.

Already covered elsewhere (not repeated here): the invalid-link page in-process for a wrong join
token, a missing stored token and an unknown room (test_views_inprocess.py), in a browser for a
wrong join token (test_browser.py), a re-issued link revoking the old one and signing its phone
out (test_views_inprocess.py, test_room.py), /boards without or with a wrong host token
(test_reglement_editor.py), /export with "", a guess or a seat token (test_browser.py, browser
run only). Here: every kind of bad token on every route, over the wire of the real `main.py`, and
the checks are on the bytes the device receives (Flet protocol frames, HTTP bodies): no player
name, no valid token, no game control.

One server for the module; a Vabanque room with chips and cards already on the tables, seat 2
re-issued (its first token is revoked).
"""

from __future__ import annotations

import asyncio
import secrets
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from benchmarks.flet_client import PHONE, TABLET, FletClient
from tests.conftest import VABANQUE_PLAYERS, VABANQUE_SEED
from tests.harness.server import RefereeServer, prepare_rooms

TIMEOUT = 30.0
SEAT_KEY = "referee.seat.{room}"  # views/app.py
NAMES = [p["name"] for p in VABANQUE_PLAYERS]
#: semantics identifiers of game and host controls: none may reach a device without the right token
GAME_CONTROLS = [
    "seat-header",
    "seat-body",
    "your-turn",
    "seat-table-",
    "show-private",
    "card-",
    "move-",
    "reissue-",
    "pass-",
    "seat-qr-",
    "undo",
    "create-room",
    "open-history",
]
GUESSES = 6


@dataclass
class World:
    server: RefereeServer
    room: str
    host_token: str
    tokens: list[str]
    revoked: str

    @property
    def secrets(self) -> list[str]:
        return [self.host_token, *self.tokens]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    data_dir = tmp_path_factory.mktemp("tokens")

    async def script(host: Any) -> tuple[str, str, list[str], str]:
        room = await host.create_room("vabanque", {"players": VABANQUE_PLAYERS}, seed=VABANQUE_SEED)
        import random

        rng = random.Random(1)
        while room.state.phase != "moves":  # chips and face-down cards on the tables
            action = room.game.random_action(room.state, rng)
            await room.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=room.version)
        revoked = room.seats[2].token
        await room.reissue(2)
        return room.id, host.token, [s.token for s in room.seats], revoked

    room, host_token, tokens, revoked = prepare_rooms(data_dir, script)
    server = RefereeServer(data_dir)
    server.start()
    try:
        yield World(server, room, host_token, tokens, revoked)
    finally:
        server.stop()


def variants(token: str) -> list[str]:
    """Near misses of a real token: cut short, extended, one character changed, case flipped."""
    flipped = token.swapcase() if token.swapcase() != token else token[::-1]
    changed = token[:5] + ("A" if token[5] != "A" else "B") + token[6:]
    return [token[:-1], token[: len(token) // 2], token + "A", changed, flipped, token[1:]]


def leaks(world: World, received: bytes, *, names: bool = True, sent: str = "") -> list[str]:
    """What of the game is in `received`: player names (unless allowed), valid tokens (other than
    one the device itself sent), game controls."""
    if sent:  # the device's own address comes back to it (the page's route): not a leak
        received = received.replace(sent.encode(), b"")
    found = [n for n in NAMES if names and n.encode() in received]
    found += [f"token {t[:4]}…" for t in world.secrets if t.encode() in received]
    found += [c for c in GAME_CONTROLS if c.encode() in received]
    return found


async def open_page(world: World, route: str, prefs: dict[str, Any] | None = None, tablet: bool = False) -> FletClient:
    size = TABLET if tablet else PHONE
    client = FletClient(world.server.base, route, width=size[0], height=size[1], prefs=prefs if prefs is not None else {}, name=route, keep_raw=True)
    await client.connect(TIMEOUT)
    return client


async def refused(world: World, route: str, prefs: dict[str, Any] | None = None, sent: str = "") -> None:
    """The device on `route` gets the invalid-link page and nothing of the game."""
    stored = dict(prefs or {})
    client = await open_page(world, route, prefs)
    try:
        await client.wait_for(lambda c: c.find("invalid-link"), TIMEOUT, what=f"invalid link page for {route}")
        received = b"".join(client.raw)
        assert b"This link is not valid" in received  # the search below can hit: the page's text is there
        assert not leaks(world, received, sent=sent), f"{route}: {leaks(world, received, sent=sent)}"
        added = {k: v for k, v in client.prefs.items() if stored.get(k) != v}
        assert not any(v in world.tokens for v in added.values()), f"{route}: a seat token was stored: {list(added)}"
        assert not client.crashed
    finally:
        await client.close()


async def test_guessed_and_near_miss_seat_tokens_on_the_join_link(world: World) -> None:
    real = world.tokens[0]
    bad = [secrets.token_urlsafe(16) for _ in range(GUESSES)] + variants(real) + [world.revoked]
    await asyncio.gather(*(refused(world, f"/join/{world.room}/{token}", sent=token) for token in bad))
    # the same link with the real token does get in (so the refusals above are about the token)
    good = await open_page(world, f"/join/{world.room}/{real}")
    try:
        await good.wait_for(lambda c: c.find("show-private"), TIMEOUT, what="the seat page")
        assert NAMES[0] in " ".join(good.texts()) and b"seat-header" in b"".join(good.raw)  # the leak search can hit
    finally:
        await good.close()


async def test_a_bad_or_revoked_token_in_the_phones_storage(world: World) -> None:
    key = SEAT_KEY.format(room=world.room)
    stored = [world.revoked, secrets.token_urlsafe(16), *variants(world.tokens[1])[:3], world.host_token]
    await asyncio.gather(*(refused(world, f"/seat/{world.room}", prefs={key: token}, sent=token) for token in stored))
    # a token stored for another room does not open this one
    await refused(world, f"/seat/{world.room}", prefs={SEAT_KEY.format(room="ffffff"): world.tokens[1]})


async def test_bad_host_tokens_on_the_board_only_watch(world: World) -> None:
    """/room/<id> without the right ?k= is the public spectator board (names and public tables are
    on it by design): no host control, no seat link or token."""
    bad = [secrets.token_urlsafe(16), *variants(world.host_token)[:4], world.tokens[0], ""]

    async def watch(token: str) -> None:
        client = await open_page(world, f"/room/{world.room}?k={token}", tablet=True)
        try:
            await client.wait_for(lambda c: c.find("seat-0"), TIMEOUT, what="the spectator board")
            received = b"".join(client.raw)
            found = leaks(world, received, names=False, sent=token)
            assert not found, f"k={token[:6]}…: {found}"
            assert not client.clickable("seat-0") and not client.crashed
        finally:
            await client.close()

    await asyncio.gather(*(watch(token) for token in bad))
    # With the right token the board has host controls and links (so the searches above can hit).
    host = await open_page(world, f"/room/{world.room}?k={world.host_token}", tablet=True)
    try:
        await host.wait_for(lambda c: c.find("reissue-0"), TIMEOUT, what="the host board")
        assert leaks(world, b"".join(host.raw), names=False)
    finally:
        await host.close()
    # Unknown room ids (guessed) are invalid links, with or without the host token.
    for room in (secrets.token_hex(3), world.room[:-1], world.room + "0"):
        await refused(world, f"/room/{room}?k={world.host_token}", sent=world.host_token)


async def test_bad_host_tokens_on_home_and_the_board_editor(world: World) -> None:
    for token in (secrets.token_urlsafe(16), *variants(world.host_token)[:2], world.tokens[0]):
        await refused(world, f"/boards?k={token}", sent=token)
        home = await open_page(world, f"/?k={token}", tablet=True)
        try:
            await home.wait_for(lambda c: c.find(f"open-{world.room}"), TIMEOUT, what="the spectator room list")
            received = b"".join(home.raw)
            assert not leaks(world, received, names=False, sent=token), leaks(world, received, names=False, sent=token)
        finally:
            await home.close()


def http_get(world: World, path: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(world.server.base + path, timeout=TIMEOUT) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


async def test_export_needs_the_exact_host_token(world: World) -> None:
    bad = [secrets.token_urlsafe(16), *variants(world.host_token), *world.tokens, world.revoked, ""]
    for token in bad:
        status, body = await asyncio.to_thread(http_get, world, f"/export/{world.room}.json?k={token}")
        assert status == 404, (token, status)
        assert not leaks(world, body, sent=token) and b"place_chip" not in body, body[:200]
    status, body = await asyncio.to_thread(http_get, world, f"/export/{world.room}.json?k={world.host_token}")
    assert status == 200 and b"place_chip" in body  # the right token does get the log


async def test_the_page_served_for_any_link_is_the_same_static_client(world: World) -> None:
    """Over plain HTTP a link only fetches the web client: the same bytes for a right and a wrong
    token, none of them game data."""
    good_status, good = await asyncio.to_thread(http_get, world, f"/join/{world.room}/{world.tokens[0]}")
    bad_status, bad = await asyncio.to_thread(http_get, world, f"/join/{world.room}/{world.revoked}")
    assert good_status == bad_status == 200
    assert good == bad
    assert not leaks(world, bad)
