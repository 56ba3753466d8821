"""Reconnect drill: a seat's websocket is killed mid-turn from outside (`ss -K`, as a flaky Wi-Fi
would) and the phone comes back.

The real server (`main.py`) runs on 127.0.0.1; the host board and one phone per seat are
protocol-level Flet clients (benchmarks/flet_client.py). On the current player's turn its phone's
connection is aborted by the kernel, either

* before the phone taps ("idle"), or
* after its tap was accepted and committed but before the phone read the answer ("answer lost":
  the phone stops reading its socket, taps, the board shows the move, then the socket dies with
  the answer unread in it);

and the phone reconnects the way the Flutter client does: same Flet session id, same route. It
must get the same session and seat back, showing the current state; the board sees it leave and
come back. After a lost answer the phone re-sends its tap (the same event on the same control, as
a retrying client would): no second action is logged, and the logged action carries the room's
idempotency key for exactly what the phone was shown (seat, version, action), so a re-submission
based on the same shown version is recognised (companion/room.py). A phone whose Flet session is
gone ("new session") gets a new one and its seat back from its storage. A phone that is away
while another seat moves ("away") comes back to its session showing that move. And a phone away
while the host re-issues its seat gets nothing of the game back on its session.

The turns and the case for each come from the drill seed (printed; `--drill-seed=N` replays).
`--soak=SECONDS` plays on, case after case and game after game, for about that long.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from benchmarks.flet_client import FletClient
from benchmarks.latency import DB_NAME, ServerProcess, Table, VabanqueMirror, board_shows, create_room, vabanque_setup
from companion.games import GAMES
from companion.room import Accepted, Host, Rejected, RoomEvent, idempotency_key
from companion.store import Store
from tests.drills.phones import expected_phone_lines, phone_shows
from tests.drills.sockets import kill_connection, ss_kill_unavailable
from views.i18n import translator

PLAYERS = 3
STEP_TIMEOUT = 30.0
#: (case, phase of the game) per CI run: each case, and a lost answer in each phase of a round
CI_PLAN = [
    ("idle", "chips"), ("answer lost", "chips"), ("away", "chips"), ("new session", "cards"), ("answer lost", "cards"),
    ("answer lost", "moves"), ("away", "moves"),
]  # fmt: skip
CASES = ["idle", "answer lost", "new session", "away"]


@pytest.fixture(scope="module")
def can_kill_sockets() -> None:
    reason = ss_kill_unavailable()
    if reason and os.environ.get("CI"):
        pytest.fail(f"CI must run the socket-kill drill, but ss -K cannot abort connections here: {reason}")
    if reason:
        pytest.skip(f"ss -K cannot abort connections here: {reason}")


def logged(data_dir: Path, room: str) -> list[tuple[dict[str, Any], str | None]]:
    """The room's log as the server committed it: (action, idempotency key), read beside the
    running server (WAL lets a reader in)."""
    with sqlite3.connect(f"file:{data_dir / DB_NAME}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT payload, key FROM log WHERE room_id = ? ORDER BY seq", (room,)).fetchall()
    return [(json.loads(payload), key) for payload, key in rows]


def online_count(table: Table) -> int:
    assert table.board is not None
    return table.board.texts().count("● " + table.mirror.tr.t("ui.connected"))


async def drop(table: Table, phone: FletClient, server: ServerProcess) -> None:
    """Abort the phone's connection with `ss -K`; wait until the server has noticed (the board
    shows one seat fewer online), so the phone's session is waiting for it."""
    client_port = phone._ws.local_address[1]
    kill_connection(server.port, client_port)
    assert table.board is not None
    await table.board.wait_for(lambda c: online_count(table) == PLAYERS - 1, STEP_TIMEOUT, what="the board showing the seat offline")


async def come_back(table: Table, phone: FletClient, seat: int, *, same_session: bool) -> None:
    old = phone.session_id
    if not same_session:
        phone.session_id = None  # the server forgot it, or the browser tab was reopened
    await phone.reconnect(STEP_TIMEOUT)
    if same_session:
        assert phone.session_id == old, "the server started a new session for a reconnecting phone"
    else:
        assert phone.session_id != old
    assert phone.route == f"/seat/{table.info.room}"
    await phone_shows(phone, expected_phone_lines(table.mirror, seat), STEP_TIMEOUT)
    assert table.board is not None
    await table.board.wait_for(lambda c: online_count(table) == PLAYERS, STEP_TIMEOUT, what="the seat back online")


async def answer_lost(table: Table, server: ServerProcess, action: Any) -> str:
    """The phone taps, the room commits, the answer dies unread with the socket; the phone comes
    back to its session and taps again."""
    mirror, board = table.mirror, table.board
    assert board is not None
    seat = action.by
    phone = table.phones[seat]
    clicks = mirror.clicks_for(action)
    for ident in clicks[:-1]:  # opening the cards, choosing one: local to the phone
        await table.click(phone, ident, table._chosen(phone, ident), [phone], STEP_TIMEOUT)
    target = await phone.wait_for(lambda c: c.clickable(clicks[-1]), STEP_TIMEOUT, what=clicks[-1])
    before = mirror.version
    shown_lines = expected_phone_lines(mirror, seat)
    await phone.stop_reading()  # whatever the server sends from now on stays unread in the socket
    sent = await phone.send_event(target["_i"], "click", None)
    mirror.apply(action)
    await board.wait_for(lambda c: board_shows(mirror, c), STEP_TIMEOUT, what="the board showing the tap")
    assert len(logged(server.data_dir, table.info.room)) == before + 1
    await drop(table, phone, server)
    assert all(frame.at < sent for frame in phone.frames), "the phone read something after its tap"
    assert all(line in phone.texts() for line in shown_lines), "the phone's last picture is from before its tap"

    await come_back(table, phone, seat, same_session=True)
    hit = "a control still on the page" if phone.control_by_id(target["_i"]) is not None else "a control no longer on the page"
    await phone.send_event(target["_i"], "click", None)  # the same tap, re-sent by a retrying client
    # The re-sent tap is answered or ignored; either way the phone stays on the current state.
    await phone_shows(phone, expected_phone_lines(mirror, seat), STEP_TIMEOUT)
    entries = logged(server.data_dir, table.info.room)
    assert [payload for payload, _ in entries] == [a.model_dump(mode="json") for a in mirror.actions]
    payload, key = entries[before]
    assert key == idempotency_key("seat", seat, before, payload), "the log's key is not the one a re-submission would carry"
    return f"re-sent tap landed on {hit}"


async def drill_case(table: Table, server: ServerProcess, case: str, action: Any) -> str:
    if case == "answer lost":
        return await answer_lost(table, server, action)
    if case == "away":  # another seat's phone drops; the move is made while it is away
        seat = (action.by + 1) % PLAYERS
        await drop(table, table.phones[seat], server)
        await table.play(action, STEP_TIMEOUT)
        await come_back(table, table.phones[seat], seat, same_session=True)
        return f"seat {seat} came back to the move it missed"
    seat = action.by
    phone = table.phones[seat]
    await drop(table, phone, server)
    await come_back(table, phone, seat, same_session=case == "idle")
    await table.play(action, STEP_TIMEOUT)
    return "played on after coming back"


async def one_game(data_dir: Path, seed: int, plan: list[tuple[str, str]] | None, deadline: float) -> list[str]:
    """One room on one server; drills the plan's cases in order, each at the next turn in its
    phase (None: random cases at random turns until the deadline or the game's end), with random
    plain moves in between. Returns what happened."""
    info = create_room(data_dir, vabanque_setup(PLAYERS), seed)
    server = await asyncio.to_thread(ServerProcess(data_dir).start)
    mirror = VabanqueMirror(info.setup, info.seed)
    table = Table(server.base_url, info, mirror)
    rng = random.Random(seed)
    report: list[str] = []
    try:
        await table.open_all(STEP_TIMEOUT)
        # a soak game drills each case once, then random ones while there is time
        todo = list(plan) if plan is not None else [(case, None) for case in rng.sample(CASES, len(CASES))]
        while not mirror.over and (todo or (plan is None and time.monotonic() < deadline)):
            case, phase = todo.pop(0) if todo else (rng.choice(CASES), None)
            for _ in range(rng.randint(0, 2)):  # plain moves: the drop lands at a random turn
                if (action := mirror.random_action(rng)) is not None:
                    await table.play(action, STEP_TIMEOUT)
            while phase is not None and mirror.state.phase != phase and not mirror.over:
                await table.play(mirror.random_action(rng), STEP_TIMEOUT)
            if (action := mirror.random_action(rng)) is None:
                break
            started = time.monotonic()
            what = await drill_case(table, server, case, action)
            report.append(f"v{mirror.version}: {case} on seat {action.by} ({action.type}): {what} ({time.monotonic() - started:.1f} s)")
        crashed = [c.name for c in [table.board, *table.phones] if c is not None and c.crashed]
        assert not crashed, crashed
        entries = logged(data_dir, info.room)
        assert [payload for payload, _ in entries] == [a.model_dump(mode="json") for a in mirror.actions], "lost or doubled actions"
    finally:
        await table.close()
        server.kill()
    return report


async def test_a_seat_whose_socket_dies_mid_turn_comes_back_without_a_duplicate(tmp_path: Path, drill_seed: int, soak: float, can_kill_sockets: None) -> None:
    deadline = time.monotonic() + soak
    seeds = random.Random(drill_seed)
    game = 0
    while True:
        game += 1
        seed = seeds.randrange(1, 2**31)
        for line in await one_game(tmp_path / f"game-{game}", seed, None if soak else CI_PLAN, deadline):
            print(f"seed {seed} {line}")
        if time.monotonic() >= deadline:
            break


REVOKE_WINDOW = 2 * 3.0  # views/app.py PhoneStorage: TIMEOUT, tried twice


async def test_a_phone_away_when_its_seat_is_reissued_gets_nothing_back(tmp_path: Path, can_kill_sockets: None) -> None:
    """A lost phone's connection drops, the host gives its seat a new link, the phone reconnects
    to its old session: it is signed out, and no frame it receives carries the game."""
    data_dir = tmp_path / "data"
    info = create_room(data_dir, vabanque_setup(PLAYERS), 77)
    server = await asyncio.to_thread(ServerProcess(data_dir).start)
    mirror = VabanqueMirror(info.setup, info.seed)
    table = Table(server.base_url, info, mirror)
    seat = 1
    try:
        await table.open_all(STEP_TIMEOUT)
        await table.play(mirror.random_action(random.Random(1)), STEP_TIMEOUT)
        phone, board = table.phones[seat], table.board
        assert board is not None
        await drop(table, phone, server)
        revoked_at = time.monotonic()
        await board.click(f"reissue-{seat}")
        await board.click("confirm-reissue-yes")
        await board.wait_for(lambda c: c.find(f"seat-qr-{seat}"), STEP_TIMEOUT, what="the new link's QR code")
        phone.keep_raw, phone.raw = True, []
        old = phone.session_id
        await phone.reconnect(STEP_TIMEOUT)
        if time.monotonic() - revoked_at > REVOKE_WINDOW:
            pytest.skip("the machine was too slow to reconnect while the host signs the phone out")
        assert phone.session_id == old
        await phone.wait_for(lambda c: c.find("signed-out"), STEP_TIMEOUT, what="the signed-out page")
        received = b"".join(phone.raw)
        found = [name for name in mirror.names if name.encode() in received]
        assert b"signed out" in received  # the search can hit: the page's own text is in these bytes
        assert not found, f"the signed-out phone was sent the seat page ({found} in its frames)"
    finally:
        await table.close()
        server.kill()


# -- the same at the room, for every game: retries racing every other seat's tap ----------------

ROOM_PLAYERS = [{"name": n, "colour": c} for n, c in [("Ann", "red"), ("Bob", "blue"), ("Cyd", "green"), ("Dee", "yellow")]]


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_retried_taps_racing_every_seat_are_applied_once(game_id: str, tmp_path: Path, drill_seed: int) -> None:
    """Every seat taps at the same moment, and every tap arrives twice (a phone retrying after a
    reconnect), round after round: each round applies exactly one action, its retry is answered
    as a duplicate, a refusal says why, and versions are announced strictly in order, each once."""
    host = Host(Store(tmp_path / DB_NAME))
    try:
        room = await host.create_room(game_id, {"players": ROOM_PLAYERS}, seed=drill_seed)
        announced: list[int] = []

        async def listen(event: RoomEvent) -> None:
            if event.kind == "version":
                announced.append(event.version)

        room.subscribe(listen)
        rng = random.Random(drill_seed)
        tr = translator("en")
        for _ in range(30):
            legal = room.game.random_action(room.state, rng)
            if legal is None:
                break
            raw = legal.model_dump(mode="json")
            shown = room.version
            taps = []
            for seat in range(len(ROOM_PLAYERS)):
                mine = {**raw, "by": seat}  # the others' taps: the same move, as if it were theirs
                taps += [room.submit(mine, channel="seat", seat=seat, based_on_version=shown) for _retry in range(2)]
            results = await asyncio.gather(*taps, return_exceptions=True)
            accepted = [r for r in results if isinstance(r, Accepted)]
            assert {r.seq for r in accepted} == {shown + 1}, results
            assert sorted(r.duplicate for r in accepted) == [False, True], results  # a tap and its retry
            for refused in (r for r in results if not isinstance(r, Accepted)):
                assert isinstance(refused, Rejected), refused
                message = tr.error(refused.code, refused.params, room.names)
                assert message and refused.code not in message and "{" not in message
            assert room.version == shown + 1 == len(room.log_entries)
        await asyncio.sleep(0)  # the announcements are tasks
        for _ in range(100):
            if len(announced) == room.version:
                break
            await asyncio.sleep(0.01)
        assert announced == list(range(1, room.version + 1)), "versions announced out of order, twice or not at all"
        on_disk = Store(tmp_path / DB_NAME)
        try:
            assert [e.seq for e in on_disk.log(room.id)] == list(range(1, room.version + 1))
        finally:
            on_disk.close()
    finally:
        host.close()
