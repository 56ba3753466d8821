"""A seat is one device's (companion.room `Room.claim`, `Room.ask_for_seat`; views/seat_request.py):
the device that claims a seat's link holds it; another device opening that link gets nothing of
the seat, and the host board decides (Allow moves the seat, Refuse or silence leaves it). The same
browser (a new tab, a reload, a new address, a host restart, Play again) is the same device.
And the host's own table entries are the host's: no phone takes them back."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.games import GAMES
from companion.room import Host, Rejected, Room, device_fingerprint
from companion.store import Store
from tests.harness.flet_inprocess import FakeBrowser, Tab
from tests.harness.world import PHONE, World, make_world

PLAYERS = [{"name": n, "colour": c} for n, c in [("Anna", "red"), ("Boris", "blue"), ("Chloe", "green"), ("Dmitri", "yellow")]]
SEAT = 1
#: what only a seat's own page has (its game, its rules, its take-back): never on another device's
SEAT_PAGE = ("seat-body", "rules", "hold-private", "show-private", "your-turn", "take-back-top", "take-back-bottom")


async def world_for(make_host: Any, harness_factory: Any, game_id: str, name: str, seed: int = 7) -> World:
    return await make_world(make_host, harness_factory, name, game_id, {"players": PLAYERS}, seed=seed)


async def play_random(room: Room, count: int, rng: random.Random) -> None:
    """Random legal actions, each on the channel its sender would use (the host board's with no seat)."""
    for _ in range(count):
        action = room.game.random_action(room.state, rng)
        if action is None:
            return
        raw = action.model_dump(mode="json")
        if action.by is None:
            await room.submit(raw, channel="host", seat=None, based_on_version=room.version)
        else:
            await room.submit(raw, channel="seat", seat=action.by, based_on_version=room.version)


async def intruder(world: World, name: str = "intruder") -> Tab:
    """Another phone opening SEAT's link (read or photographed from somewhere)."""
    token = world.room.seats[SEAT].token
    return await world.harness.open(f"/join/{world.room.id}/{token}", browser=FakeBrowser(name), name=name, **PHONE)


def shows_seat(tab: Tab) -> bool:
    return any(tab.has(ident) for ident in SEAT_PAGE)


async def owner_acts(world: World, phone: Tab, rng: random.Random) -> None:
    """The owner's phone acts for its seat (other seats play until the game waits for it)."""
    room = world.room
    for _ in range(300):
        action = room.game.random_action(room.state, rng)
        assert action is not None, "the game ended before the owner could act"
        if action.by == SEAT:
            before = room.version
            assert await _submit_on(phone, action.model_dump(mode="json"))
            assert room.version == before + 1
            return
        raw = action.model_dump(mode="json")
        await room.submit(raw, channel="host" if action.by is None else "seat", seat=action.by, based_on_version=room.version)
        await world.harness.settle()  # the phone shows what it acts on
    raise AssertionError("the owner never had a move")


async def _submit_on(phone: Tab, raw: dict[str, Any]) -> bool:
    """Submit through the phone's own screen (its channel, its seat, its device check)."""
    screen = _screen(phone)
    ok = await screen.submit(raw)
    await phone.harness.settle()
    return ok


def _screen(tab: Tab) -> Any:
    """The screen a tab shows (its TabSession is the owner of the page's route handler)."""
    return tab.page.on_route_change.__self__.screen


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_a_second_device_gets_nothing_of_the_seat_and_the_board_decides(make_host: Any, harness_factory: Any, game_id: str) -> None:
    world = await world_for(make_host, harness_factory, game_id, f"ask-{game_id}")
    world.room.request_quiet_seconds = 0.0
    board = await world.open_board()
    owner = await world.open_phone(SEAT)
    assert shows_seat(owner)

    other = await intruder(world)
    # nothing of the seat: only that it is in use and that the board is asked
    assert other.has("seat-request-waiting") and not shows_seat(other), other.identifiers()
    assert "in use on another device" in other.text()
    assert world.room.request(SEAT) is not None and not world.room.holds(SEAT, other.browser.storage["referee.device"])
    # the board asks; the owner is told
    assert board.has(f"seat-request-{SEAT}") and "A new device asks for Boris's seat" in board.text()
    assert owner.has("seat-asked-for")
    # the note can be closed (the request stays open for the board; the note would cover the page for minutes)
    await owner.click("seat-asked-for")
    assert not owner.has("seat-asked-for") and world.room.request(SEAT) is not None
    # the owner keeps playing while the board has not answered
    await owner_acts(world, owner, random.Random(3))
    assert shows_seat(owner) and not shows_seat(other)

    await board.click(f"seat-request-refuse-{SEAT}")
    assert other.has("seat-request-refused") and not shows_seat(other)
    assert not board.has(f"seat-request-{SEAT}") and not owner.has("seat-asked-for")
    assert shows_seat(owner) and _screen(owner).answered()

    await other.click("seat-request-ask")  # asked again: this time the host allows
    assert board.has(f"seat-request-{SEAT}")
    assert owner.has("seat-asked-for")  # a new request is said again
    await board.click(f"seat-request-allow-{SEAT}")
    assert shows_seat(other) and other.conn.routes[-1] == f"/seat/{world.room.id}"
    # the old device is out at once, told why, and can no longer act
    assert owner.has("signed-out") and "moved to another device" in owner.text() and not shows_seat(owner)
    assert world.room.holds(SEAT, other.browser.storage["referee.device"])
    assert not world.room.holds(SEAT, owner.browser.storage["referee.device"])
    world.harness.check()


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_the_asking_page_is_the_same_bytes_whatever_the_game_holds(make_host: Any, harness_factory: Any, game_id: str) -> None:
    """Non-interference: the asking device's frames do not depend on the game's state at all
    (neither on the seat's secrets nor on the public table): a fresh game and one played on."""
    frames = []
    for played in (0, 40):
        world = await world_for(make_host, harness_factory, game_id, f"bytes-{game_id}-{played}", seed=11 + played)
        await world.open_phone(SEAT)
        await play_random(world.room, played, random.Random(played))
        other = await intruder(world)
        subs = {**world.replacements, other.browser.storage["referee.device"]: "<intruder-device>"}
        from tests.harness.flet_inprocess import normalise

        frames.append(normalise(other.frames, subs))
    from tests.harness.world import first_difference

    assert first_difference(frames[0], frames[1]) is None


async def test_one_open_request_per_seat_and_a_lapsed_one_says_so(make_host: Any, harness_factory: Any) -> None:
    world = await world_for(make_host, harness_factory, "vabanque", "one-request")
    board = await world.open_board()
    await world.open_phone(SEAT)
    first = await intruder(world, "first")
    second = await intruder(world, "second")
    # the second device is refused while the first one's request is open, and asks nothing
    assert second.has("seat-request-ask") and "Another device is already asking" in second.text()
    assert world.room.request(SEAT) is not None
    # the same device asking again (a reload) gets its own request back, not a second one
    again = await world.harness.open(f"/join/{world.room.id}/{world.room.seats[SEAT].token}", browser=first.browser, name="first-again", **PHONE)
    assert again.has("seat-request-waiting") and len([s for s in world.room.requests]) == 1
    # nobody answers: the request lapses, the board stops asking, the device is told
    request = world.room.request(SEAT)
    assert request is not None
    world.room._lapse_request(request)
    await world.harness.settle()
    assert again.has("seat-request-expired") and not board.has(f"seat-request-{SEAT}")
    # right after, asking again is refused for a short while (a device that keeps asking costs nothing)
    with pytest.raises(Rejected) as soon:
        await world.room.ask_for_seat(SEAT, "another-device-secret-0123")
    assert soon.value.code == "seat.err.request_soon"


async def test_a_request_lapses_by_itself(make_host: Any, harness_factory: Any) -> None:
    import asyncio
    import time

    world = await world_for(make_host, harness_factory, "corruption", "lapse")
    await world.open_phone(SEAT)
    other = await intruder(world)
    assert other.has("seat-request-waiting")
    # Now the request's timer runs out soon. (A 50 ms request_seconds set before the request ran
    # out while a loaded machine was still opening the page: it showed the lapse, never the wait.)
    request = world.room.request(SEAT)
    assert request is not None and request.timer is not None
    request.timer.cancel()
    request.timer = asyncio.get_running_loop().call_later(0.05, world.room._lapse_request, request)
    deadline = time.monotonic() + 10  # the lapse is a timer: wait for what it shows, bounded
    while not (world.room.request(SEAT) is None and other.has("seat-request-expired")):
        assert time.monotonic() < deadline, other.identifiers()
        await asyncio.sleep(0.02)
        await world.harness.settle()


async def test_the_same_browser_is_the_same_device(make_host: Any, harness_factory: Any, tmp_path: Path) -> None:
    world = await world_for(make_host, harness_factory, "chicago_poker", "same")
    phone = await world.open_phone(SEAT)
    device = phone.browser.storage["referee.device"]
    # a second tab, and a reload (a new session of the same browser): the seat, no request
    for name in ("tab-2", "reload"):
        tab = await world.harness.open(f"/seat/{world.room.id}", browser=phone.browser, name=name, **PHONE)
        assert shows_seat(tab) and world.room.request(SEAT) is None, name
    # the seat's QR code scanned again with the same phone: its seat
    rescan = await world.harness.open(f"/join/{world.room.id}/{world.room.seats[SEAT].token}", browser=phone.browser, name="rescan", **PHONE)
    assert shows_seat(rescan) and world.room.request(SEAT) is None
    assert phone.browser.storage["referee.device"] == device
    world.harness.check()


async def test_a_host_restart_and_play_again_keep_each_phone_on_its_seat(make_host: Any, harness_factory: Any, tmp_path: Path) -> None:
    host = make_host("restart")
    room = await host.create_room("vabanque", {"players": PLAYERS[:3]}, seed=5)
    harness = harness_factory(host)
    browser = FakeBrowser("phone")
    await harness.open(f"/join/{room.id}/{room.seats[SEAT].token}", browser=browser, name="before", **PHONE)
    fingerprint = room.seats[SEAT].device
    assert fingerprint == device_fingerprint(browser.storage["referee.device"])

    restarted = Host(Store(host.store.store.path))
    again = restarted.rooms[room.id]
    assert again.seats[SEAT].device == fingerprint and again.seats[SEAT].claimed
    harness2 = harness_factory(restarted)
    tab = await harness2.open(f"/seat/{room.id}", browser=browser, name="after-restart", **PHONE)
    assert shows_seat(tab)
    # Play again: the next room's seat is bound to the same phone, nothing to scan
    rng = random.Random(1)
    while not again.over:
        await play_random(again, 50, rng)
    following = await restarted.play_again(again)
    assert following.seats[SEAT].device == fingerprint and following.seats[SEAT].claimed
    await harness2.settle()
    assert tab.conn.routes[-1] == f"/seat/{following.id}" and shows_seat(tab)
    # another device cannot take the next room's seat by its link either
    other = await harness2.open(f"/join/{following.id}/{following.seats[SEAT].token}", browser=FakeBrowser("other"), name="other", **PHONE)
    assert other.has("seat-request-waiting") and not shows_seat(other)
    restarted.close()


async def test_a_reissued_link_is_a_claim_for_the_next_device(make_host: Any, harness_factory: Any) -> None:
    world = await world_for(make_host, harness_factory, "reglement", "reissue")
    board = await world.open_board()
    old = await world.open_phone(SEAT)
    await board.click(f"reissue-{SEAT}")
    await board.click("confirm-reissue-yes")
    assert old.has("signed-out") and world.room.seats[SEAT].device is None
    new_phone = await intruder(world, "new-phone")  # the new link: the first device takes the seat
    assert shows_seat(new_phone) and world.room.request(SEAT) is None
    late = await intruder(world, "late")  # the same new link on yet another device: it asks
    assert late.has("seat-request-waiting") and not shows_seat(late)
    # the board never prints a seat's link as text (its QR code only)
    await board.click(f"reissue-{SEAT}")
    await board.click("confirm-reissue-yes")
    assert board.has(f"seat-qr-{SEAT}")
    assert world.room.seats[SEAT].token not in board.text()
    world.harness.check()


async def test_a_room_stored_before_devices_keeps_its_seats(make_host: Any, harness_factory: Any) -> None:
    """Seats claimed before seats were bound to devices: the phone that has the link in its storage
    keeps the seat (it binds as it comes back); a device after it asks the board."""
    host = make_host("legacy")
    room = await host.create_room("vabanque", {"players": PLAYERS[:3]}, seed=9)
    store: Store = host.store.store
    token = room.seats[SEAT].token
    store.db.execute("UPDATE seats SET claimed=1 WHERE room_id=? AND seat=?", (room.id, SEAT))
    store.db.execute("DELETE FROM seat_devices WHERE room_id=?", (room.id,))
    restarted = Host(Store(store.path))
    legacy = restarted.rooms[room.id]
    assert legacy.seats[SEAT].claimed and legacy.seats[SEAT].device is None
    harness = harness_factory(restarted)
    phone = FakeBrowser("old-phone", storage={f"referee.seat.{room.id}": token})
    tab = await harness.open(f"/seat/{room.id}", browser=phone, name="old-phone", **PHONE)
    assert shows_seat(tab) and legacy.holds(SEAT, phone.storage["referee.device"])
    other = await harness.open(f"/join/{room.id}/{token}", browser=FakeBrowser("other"), name="other", **PHONE)
    assert other.has("seat-request-waiting") and not shows_seat(other)
    restarted.close()


# -- the host's own table entries --------------------------------------------------------------


def host_entries(game_id: str) -> list[str]:
    """The actions the host board enters for the table, naming no seat (log format 4)."""
    return {
        "corruption": ["deal_contracts", "reveal"],
        "chicago_poker": ["reveal_tile", "reveal_deck_card", "reveal"],
        "reglement": ["seat_random"],
        "vabanque": ["reveal", "next_round"],
    }[game_id]


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_no_seat_takes_back_what_the_host_board_entered(make_host: Any, game_id: str) -> None:
    """Every action the host board enters (its table entries with `by: null`, and public moves it
    enters for a player) is the host's to undo: no seat's take-back covers it."""
    host = make_host(f"entries-{game_id}")
    room = await host.create_room(game_id, {"players": PLAYERS}, seed=13)
    rng = random.Random(5)
    seen: set[str] = set()
    if game_id == "reglement":  # random play places one gangster at a time: the board seats everyone
        await room.submit({"type": "seat_random", "by": None}, channel="host", seat=None, based_on_version=room.version)
        seen.add("seat_random")
        assert not any(room.take_back_status(seat).available for seat in range(len(PLAYERS)))
    for _ in range(400):
        action = room.game.random_action(room.state, rng)
        if action is None:
            break
        raw = action.model_dump(mode="json")
        # the host board's own moves of the table (random play has the phones say "ready")
        if room.game.awaiting_reveal(room.state) and rng.random() < 0.5:
            raw = {"type": "reveal"}
        elif game_id == "vabanque" and room.state.phase == "payout" and rng.random() < 0.5:
            raw = {"type": "next_round"}
        if raw["type"] in host_entries(game_id):
            raw["by"] = None  # as the host board enters it
        on_board = raw.get("by") is None or (room.game.is_public(action) and rng.random() < 0.5 and room.game.host_only(action) is None)
        if on_board:
            await room.submit(raw, channel="host", seat=None, based_on_version=room.version)
            seen.add(raw["type"])
            for seat in range(len(PLAYERS)):
                status = room.take_back_status(seat)
                assert not status.available, (raw, seat)
                with pytest.raises(Rejected):
                    await room.take_back(seat, based_on_version=room.version)
        else:
            await room.submit(raw, channel="seat", seat=raw["by"], based_on_version=room.version)
    assert seen & set(host_entries(game_id)), f"no table entry was made in {game_id}: {seen}"


async def test_a_seat_whose_phone_is_away_is_played_on_the_board_until_it_comes_back(make_host: Any, harness_factory: Any) -> None:
    """The one exception to "a seat answers its device only": a phone away a while (a flat
    battery) leaves its seat to the host board's Play here, behind the privacy screen; the phone
    coming back takes over and the tablet is the board again."""
    world = await world_for(make_host, harness_factory, "vabanque", "away")
    board = await world.open_board()
    phone = await world.open_phone(SEAT)
    assert not board.has(f"pass-{SEAT}")  # a claimed seat whose phone is here: never on the board
    world.room.away_play_seconds = 0.0
    await phone.disconnect()
    await world.harness.settle()
    assert board.has(f"pass-{SEAT}"), board.identifiers()
    # its row says how the phone comes back, not "joined ✓" under "away"
    row = board.text(board.find(f"seat-{SEAT}"))
    assert "phone away: reopen the page on it" in row and "joined" not in row, row
    await board.click(f"pass-{SEAT}")
    assert board.has("privacy-ready")
    await board.click("privacy-ready")
    assert board.has("pass-whose")
    # the phone comes back (its browser, a new session): it plays on, the board is the board again
    back = await world.harness.open(f"/seat/{world.room.id}", browser=phone.browser, name="phone-back", **PHONE)
    await world.harness.settle()
    assert shows_seat(back) and not board.has("pass-whose") and not board.has("privacy-ready")
    assert "phone is back" in board.text() and not board.has(f"pass-{SEAT}")
    assert "joined ✓" in board.text(board.find(f"seat-{SEAT}"))
    world.harness.check()


async def test_play_again_while_a_phone_is_away_logs_nothing_and_moves_it_when_it_is_back(make_host: Any, harness_factory: Any) -> None:
    """A phone away at "Play again" (its page still held by the server, no connection): nothing
    fails in the room's listeners ('NoneType' object has no attribute 'loop' was logged), and the
    phone moves to its seat in the next room when it is back."""
    world = await make_world(make_host, harness_factory, "again-away", "vabanque", {"players": PLAYERS[:3]}, seed=31)
    phone = await world.open_phone(SEAT)
    rng = random.Random(4)
    while not world.room.over:
        await play_random(world.room, 50, rng)
    await world.harness.settle()
    await phone.disconnect()
    following = await world.host.play_again(world.room)
    await world.harness.settle()
    world.harness.check()  # no listener failed
    assert following.seats[SEAT].device == world.room.seats[SEAT].device
    screen = _screen(phone)
    await phone.session.connect(phone.conn)  # the same session, back
    await screen.connected(True)
    await world.harness.settle()
    assert phone.conn.routes[-1] == f"/seat/{following.id}"
    world.harness.check()
