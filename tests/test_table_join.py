"""One QR code for a table (views/join.py, companion.room `Room.free_seats`/`claim_free`): a
phone opens the room's free seats, a tap claims one; the board announces the claim and closes
that seat's QR code; seats are offered only before the first action and never a pass-and-play
one; a wrong or missing secret is the plain invalid-link page; re-issuing a link asks first and
the signed-out phone says how to get back in. Through real Flet sessions (in process)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.room import Host, Rejected
from companion.store import Store
from tests.conftest import VABANQUE_PLAYERS, VABANQUE_SEED, vabanque_setup
from tests.harness.flet_inprocess import FakeBrowser, Tab
from tests.harness.qr import decode_qr
from tests.harness.world import PHONE, World

BASE = "http://referee.test"


async def table_world(make_host: Any, harness_factory: Any, name: str, **options: Any) -> World:
    host = make_host(name)
    room = await host.create_room("vabanque", vabanque_setup(), seed=VABANQUE_SEED, **options)
    return World(host=host, room=room, harness=harness_factory(host))


def qr_text(tab: Tab, identifier: str) -> str:
    """What the QR code image labelled `identifier` says, read as a camera would."""
    semantics = tab.find(identifier)
    assert semantics is not None, tab.identifiers()
    texts = decode_qr(semantics.content.src)
    assert len(texts) == 1, texts
    return texts[0]


async def scan(world: World, url: str, phone: str) -> Tab:
    assert url.startswith(BASE)
    return await world.harness.open(url.removeprefix(BASE), browser=FakeBrowser(phone), name=phone, **PHONE)


async def test_a_phone_scans_the_table_qr_and_claims_a_free_seat(make_host: Any, harness_factory: Any) -> None:
    world = await table_world(make_host, harness_factory, "claim")
    board = await world.open_board()
    url = qr_text(board, "table-qr")
    assert url == f"{BASE}/table/{world.room.id}/{world.room.table.secret}"
    assert world.host.token not in url and all(s.token not in url for s in world.room.seats)
    # Join help on the board shows the same table QR code
    await board.click("join-help")
    assert qr_text(board, "join-qr") == url
    await board.click("close-join-help")
    await board.click("seat-1")  # the host had opened Bruno's own QR code meanwhile
    assert board.has("seat-qr-1")
    phone = await scan(world, url, "phone-bruno")
    assert {f"claim-{s}" for s in range(3)} <= set(phone.identifiers())
    await phone.click("claim-1")
    # the phone is Bruno's seat page, its storage holds Bruno's token for this room
    assert phone.page.route == f"/seat/{world.room.id}", phone.page.route
    assert phone.browser.storage[f"referee.seat.{world.room.id}"] == world.room.seats[1].token
    assert phone.has("rules") and "Bruno" in phone.text() and not phone.has("invalid-link")
    # the board: "Bruno joined ✓", his row says so, and his QR code closed by itself
    assert "Bruno joined ✓" in board.text(board.find("notice"))
    assert not board.has("seat-qr-1")
    assert world.room.seats[1].claimed
    # a second phone sees only the seats still free
    other = await scan(world, url, "phone-other")
    assert other.has("claim-0") and other.has("claim-2") and not other.has("claim-1")
    # the joined notice goes once the game moves on, not covering the title all game
    await world.room.submit({"type": "place_chip", "by": world.room.view().waiting_for[0], "table": 1}, channel="host", seat=None, based_on_version=world.room.version)
    await world.harness.settle()
    assert not board.has("notice"), board.identifiers()


async def test_a_seat_taken_meanwhile_is_refused_with_a_reason(make_host: Any, harness_factory: Any) -> None:
    world = await table_world(make_host, harness_factory, "race")
    url = f"{BASE}/table/{world.room.id}/{world.room.table.secret}"
    first, second = await scan(world, url, "phone-a"), await scan(world, url, "phone-b")
    await first.click("claim-2")
    # the second phone's list followed the room: Chloe's seat is gone from it
    assert not second.has("claim-2") and second.has("claim-0")
    await world.room.claim(0, "device-of-alice-phone")  # Alice arrives by her own seat QR code
    await world.harness.settle()
    assert not second.has("claim-0") and second.has("claim-1")
    # a tap that raced another phone's is refused, and changes nothing
    token = world.room.seats[0].token
    with pytest.raises(Rejected) as refused:
        await world.room.claim_free(0, "device-of-a-late-phone")
    assert refused.value.code == "table.err.seat_gone" and world.room.seats[0].token == token


async def test_after_the_first_action_no_seat_is_offered(make_host: Any, harness_factory: Any) -> None:
    world = await table_world(make_host, harness_factory, "started")
    url = f"{BASE}/table/{world.room.id}/{world.room.table.secret}"
    waiting = await scan(world, url, "phone-early")
    assert waiting.has("claim-0")
    board = await world.open_board()
    await world.host_enters({"type": "place_chip", "by": world.current(), "table": 1})
    for phone in (waiting, await scan(world, url, "phone-late")):
        assert phone.has("table-started"), phone.identifiers()
        assert not any(i.startswith("claim-") for i in phone.identifiers())
        assert "scan it" in phone.text()
    assert not board.has("table-qr")  # the board stops showing it too
    # the per-seat QR code stays the way in
    await board.click("seat-2")
    assert qr_text(board, "seat-qr-2").endswith(f"/join/{world.room.id}/{world.room.seats[2].token}")


async def test_a_wrong_or_missing_secret_shows_the_plain_invalid_link_page(make_host: Any, harness_factory: Any) -> None:
    world = await table_world(make_host, harness_factory, "wrong")
    secret = world.room.table.secret
    for route in (
        f"/table/{world.room.id}/{secret[:-1]}x",
        f"/table/{world.room.id}",
        f"/table/{world.room.id}/{world.room.seats[0].token}",  # a seat token is not the table's
        f"/table/{world.room.id}/{world.host.token}",
        f"/table/ffffff/{secret}",
    ):
        phone = await world.harness.open(route, browser=FakeBrowser(route), name=route, **PHONE)
        assert phone.has("invalid-link"), (route, phone.identifiers())
        assert "Ask the host" in phone.text()
        assert not any(name in phone.text() for name in world.room.names)
        sent = b"".join(phone.frames)
        # nothing secret goes back but what the link itself brought (its route is echoed)
        for token in [secret, world.host.token, *(s.token for s in world.room.seats)]:
            assert token in route or token.encode() not in sent, route


async def test_the_setup_option_turns_the_free_seat_page_off(make_host: Any, harness_factory: Any) -> None:
    world = await table_world(make_host, harness_factory, "off", free_seats=False)
    phone = await world.harness.open(f"/table/{world.room.id}/{world.room.table.secret}", browser=FakeBrowser("p"), name="p", **PHONE)
    assert phone.has("invalid-link")
    board = await world.open_board()
    assert not board.has("table-qr")
    await board.click("join-help")
    # no QR code to the host's bare address (a phone got a read-only list there): how to join
    assert not board.has("join-qr")
    assert "tap a seat on the board" in board.text(board.find("join-none"))


async def test_the_home_form_option_reaches_the_room(make_host: Any, harness_factory: Any) -> None:
    host = make_host("form")
    harness = harness_factory(host)
    home = await harness.open(f"/?k={host.token}", name="home")
    dropdown = home.find("setup-free-seats").content
    dropdown.value = "False"
    await dropdown.on_select(type("Event", (), {"control": dropdown})())
    await home.click("create-room")
    (room,) = host.rooms.values()
    assert room.table.free_seats is False


async def test_a_pass_and_play_seat_is_never_offered(make_host: Any, harness_factory: Any) -> None:
    world = await table_world(make_host, harness_factory, "pass")
    board = await world.open_board()
    await board.click("pass-2")  # Chloe plays on the tablet
    await board.click("privacy-done") if board.has("privacy-done") else None
    phone = await scan(world, f"{BASE}/table/{world.room.id}/{world.room.table.secret}", "phone")
    assert phone.has("claim-0") and phone.has("claim-1") and not phone.has("claim-2")
    # and that holds after a restart of the host (stored with the room)
    path = world.host.store.store.path
    again = Host(Store(path))
    try:
        assert again.rooms[world.room.id].table == world.room.table
        assert again.rooms[world.room.id].free_seats() == [0, 1]
    finally:
        again.close()


async def test_revoking_a_claim_asks_first_then_signs_the_phone_out(make_host: Any, harness_factory: Any) -> None:
    world = await table_world(make_host, harness_factory, "revoke")
    board = await world.open_board()
    phone = await scan(world, f"{BASE}/table/{world.room.id}/{world.room.table.secret}", "phone")
    await phone.click("claim-0")
    token = world.room.seats[0].token
    await board.click("reissue-0")
    assert board.has("confirm-reissue") and "Give Alice a new link?" in board.text()
    await board.click("confirm-reissue-no")
    assert not board.has("confirm-reissue") and world.room.seats[0].token == token and phone.has("rules")
    await board.click("reissue-0")
    await board.click("confirm-reissue-yes")
    assert world.room.seats[0].token != token and not world.room.seats[0].claimed
    assert phone.has("signed-out")
    text = phone.text()
    # how to get back in, and nothing of the game: not even whose seat it was
    assert "signed out" in text and "ask the host to show your seat's QR code" in text and "Alice" not in text
    # the revoked link is forgotten; the device keeps its own secret (for the seat it claims next)
    assert set(phone.browser.storage) == {"referee.device"}
    # free again: offered on the table page before the game starts
    again = await scan(world, f"{BASE}/table/{world.room.id}/{world.room.table.secret}", "phone-2")
    assert again.has("claim-0")


async def test_the_spectator_board_never_says_tap_to_show_the_qr_code(make_host: Any, harness_factory: Any) -> None:
    world = await table_world(make_host, harness_factory, "spectator")
    spectator = await world.harness.open(f"/room/{world.room.id}", browser=FakeBrowser("s"), name="s")
    assert "tap to show the QR code" not in spectator.text() and "free" in spectator.text()
    assert not spectator.has("table-qr")
    sent = b"".join(spectator.frames)
    assert world.room.table.secret.encode() not in sent
    board = await world.open_board()
    assert "tap to show the QR code" in board.text()  # the host board, where a tap does show it


async def test_the_rooms_page_fits_a_phone(make_host: Any, harness_factory: Any) -> None:
    """At 390 px the header wraps and each room's lines wrap (nothing in one unbreakable row)."""
    import flet as ft

    world = await table_world(make_host, harness_factory, "narrow")
    home = await world.harness.open("/", browser=FakeBrowser("p"), name="p", **PHONE)
    assert home.has(f"open-{world.room.id}")
    rows = [c for c in home.controls() if isinstance(c, ft.Row)]
    header = rows[0]
    assert header.wrap, "the header must wrap"
    for row in rows:
        has_open = any(getattr(c, "identifier", None) == f"open-{world.room.id}" for c in row.controls)
        if has_open:
            assert row.wrap


async def test_join_help_announces_each_claim_and_closes_when_every_seat_is_taken(make_host: Any, harness_factory: Any) -> None:
    world = await table_world(make_host, harness_factory, "help")
    board = await world.open_board()
    await board.click("join-help")
    url = qr_text(board, "join-qr")
    for seat, name in enumerate(world.room.names):
        phone = await scan(world, url, f"phone-{seat}")
        await phone.click(f"claim-{seat}")
        if seat < 2:
            assert board.has("join-help-panel") and f"{name} joined ✓" in board.text(board.find("join-notice"))
    assert not board.has("join-help-panel") and "Chloe joined ✓" in board.text(board.find("notice"))


async def test_a_phone_with_a_seat_that_scans_again_goes_straight_to_it(make_host: Any, harness_factory: Any) -> None:
    world = await table_world(make_host, harness_factory, "rescan")
    url = f"{BASE}/table/{world.room.id}/{world.room.table.secret}"
    phone = await scan(world, url, "phone")
    await phone.click("claim-2")
    again = await world.harness.open(url.removeprefix(BASE), browser=phone.browser, name="again", **PHONE)
    assert again.page.route == f"/seat/{world.room.id}" and "Chloe" in again.text()
    assert world.room.free_seats() == [0, 1]
    # a seat page never carries the table's secret (it would let a player hand out seats)
    assert world.room.table.secret.encode() not in b"".join(again.frames[1:])


async def test_each_free_seat_is_offered_in_its_players_colour_and_shape(make_host: Any, harness_factory: Any) -> None:
    """The free-seat page shows each seat as the board does: its colour, its shape glyph."""
    from views.common import COLOUR_HEX, glyph, text_on

    world = await table_world(make_host, harness_factory, "colours")
    board = await world.open_board()
    phone = await scan(world, qr_text(board, "table-qr"), "phone-colours")
    colours = [p.colour for p in world.room.setup.players]
    assert len(set(colours)) == len(colours)
    for seat in range(len(colours)):
        semantics = phone.find(f"claim-{seat}")
        assert semantics is not None, phone.identifiers()
        button = semantics.content
        assert button.bgcolor == COLOUR_HEX[colours[seat]]
        text = button.content.content
        assert text.value.startswith(glyph(colours[seat]) + " ") and world.room.names[seat] in text.value
        assert text.color == text_on(colours[seat])


async def test_the_hosts_own_entries_leave_the_free_seats_offered(make_host: Any, harness_factory: Any) -> None:
    """Corruption's deal entered on the board as the box is opened is no player's move: the table
    QR code still offers the free seats; a player's first move ends that."""
    import random

    from companion.games import GAMES

    host = make_host("deal-first")
    room = await host.create_room("corruption", {"players": VABANQUE_PLAYERS, "first_player": 0}, seed=3)
    deal = GAMES["corruption"].random_action(room.state, random.Random(1)).model_dump(mode="json")
    deal["by"] = None  # as the host board deals
    await room.submit(deal, channel="host", seat=None, based_on_version=room.version)
    assert not room.started and room.free_seats() == [0, 1, 2]
    move = GAMES["corruption"].random_action(room.state, random.Random(2))
    await room.submit(move.model_dump(mode="json"), channel="seat", seat=move.by, based_on_version=room.version)
    assert room.started and room.free_seats() == []
