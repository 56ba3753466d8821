"""View wiring through real Flet sessions in-process (tests/harness/flet_inprocess.py).

The non-interference test is the secret boundary's test at the byte level (DESIGN.md "No leak
means non-interference"): two worlds that differ only in one seat's hidden card choices must send
identical bytes to the board and to every other seat until the reveal.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.room import Rejected, RoomEvent
from tests.conftest import VABANQUE_PLAYERS, VABANQUE_SEED, vabanque_setup
from tests.harness.flet_inprocess import (
    FakeBrowser,
    Tab,
    normalise,
    strings_in,
)
from tests.harness.world import PHONE, World, first_difference
from tests.harness.world import make_world as make_game_world

NAMES = [p["name"] for p in VABANQUE_PLAYERS]


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def screen_of(tab: Tab) -> Any:
    """The PageSession's current screen (its route handler is a bound method of the PageSession)."""
    return tab.page.on_route_change.__self__.screen


async def make_world(make_host: Any, harness_factory: Any, name: str) -> World:
    """A Vabanque room (the conftest's setup and seed) in a world of its own."""
    return await make_game_world(make_host, harness_factory, name, "vabanque", vabanque_setup(), seed=VABANQUE_SEED)


#: chips: tables tapped on the host board, in turn order (3 players x 4 chips in round 1)
CHIP_TABLES = [2, 4, 6, 1, 7, 3, 5, 2, 4, 6, 1, 3]


async def world_at_cards(make_host: Any, harness_factory: Any, name: str) -> tuple[World, Tab]:
    """A Vabanque world whose round-1 chips were all tapped on its host board: the card phase."""
    world = await make_world(make_host, harness_factory, name)
    board = await world.open_board()
    for table in CHIP_TABLES:
        await board.click(f"table-{table}")
    return world, board


async def play_to_last_move(world: World, secret_seat: int, secret_cards: list[tuple[str, int]], observer: int) -> None:
    """Round 1 up to (not including) the last pawn move, through the same public actions.

    Chips and moves are entered on the host board. Cards: `secret_seat` and `observer` use their
    phones (card-X, then seat-table-N); the remaining seat submits through its own channel.
    """
    board = world.board
    assert board is not None
    for table in CHIP_TABLES:
        await board.click(f"table-{table}")
    assert world.room.view().phase == "cards"
    plans: dict[int, list[tuple[str, int]]] = {
        secret_seat: list(secret_cards),
        observer: [("bluff", 2), ("raise", 4), ("cheat", 6)],
    }
    other = ({0, 1, 2} - {secret_seat, observer}).pop()
    plans[other] = [("cheat", 7), ("bluff", 6), ("raise", 2)]
    for _ in range(9):
        seat = world.current()
        card, table = plans[seat].pop(0)
        if seat in world.phones:
            phone = world.phones[seat]
            await phone.click("show-private")
            await phone.click(f"card-{card}")
            await phone.click(f"seat-table-{table}")
        else:
            await world.submit_for(seat, {"type": "place_card", "by": seat, "table": table, "card": card})
    assert world.room.view().phase == "moves"
    for _ in range(2):
        await board.click("move-0")
    assert world.room.view().phase == "moves"


# --------------------------------------------------------------------------------------------
# (a) byte-level non-interference
# --------------------------------------------------------------------------------------------


async def test_hidden_card_choice_does_not_reach_board_or_other_seat(make_host: Any, harness_factory: Any) -> None:
    secret_seat, observer = 1, 2
    # Same tables, different card identity. The pawns stay on tables 1, 3 and 5 (everyone
    # stays), so all three of the secret seat's cards are revealed at the payout.
    cards_a = [("raise", 1), ("bluff", 3), ("cheat", 5)]
    cards_b = [("cheat", 1), ("raise", 3), ("bluff", 5)]
    worlds = []
    for name, cards in (("a", cards_a), ("b", cards_b)):
        world = await make_world(make_host, harness_factory, name)
        await world.open_board()
        await world.open_phone(secret_seat)
        await world.open_phone(observer)
        await play_to_last_move(world, secret_seat, cards, observer)
        worlds.append(world)
    a, b = worlds
    assert a.room.version == b.room.version == len(CHIP_TABLES) + 9 + 2

    # Sanity: the worlds really differ in the secret seat's hidden state.
    def placed(w: World) -> list[tuple[str, int]]:
        return [(p.card, p.table) for p in w.room.state.placements if p.seat == secret_seat]

    assert placed(a) == cards_a and placed(b) == cards_b

    assert a.board is not None and b.board is not None
    board_a, board_b = a.frames(a.board), b.frames(b.board)
    assert len(board_a) > 20  # the board really re-rendered along the game
    assert first_difference(board_a, board_b) is None
    obs_a, obs_b = a.frames(a.phones[observer]), b.frames(b.phones[observer])
    assert len(obs_a) > 20
    assert first_difference(obs_a, obs_b) is None
    # The test can fail: the secret seat's own phone did receive different bytes.
    assert first_difference(a.frames(a.phones[secret_seat]), b.frames(b.phones[secret_seat])) is not None

    # The last pawn move reveals nothing; the host's reveal pays out and shows the cards on the
    # revealed tables.
    marks = {id(w): w.board.mark() for w in worlds if w.board is not None}
    for world in worlds:
        assert world.board is not None
        await world.board.click("move-0")
        assert world.room.view().phase == "reveal"
    assert first_difference(a.frames(a.board, marks[id(a)]), b.frames(b.board, marks[id(b)])) is None
    for world in worlds:
        assert world.board is not None
        await world.board.click("reveal")
        assert world.room.view().phase == "payout"
    after_a = a.frames(a.board, marks[id(a)])
    after_b = b.frames(b.board, marks[id(b)])
    assert first_difference(after_a, after_b) is not None, "the payout must show the revealed cards"


async def short_card_world(make_host: Any, harness_factory: Any, name: str, card: str) -> tuple[World, int]:
    """Chips entered straight into the room; then a board and the first card player's phone,
    which places `card` on table 2."""
    world = await make_world(make_host, harness_factory, name)
    for table in CHIP_TABLES:
        current = world.current()
        await world.room.submit({"type": "place_chip", "by": current, "table": table}, channel="host", seat=None, based_on_version=world.room.version)
    seat = world.current()
    await world.open_board()
    phone = await world.open_phone(seat)
    await phone.click("show-private")
    await phone.click(f"card-{card}")
    await phone.click("seat-table-2")
    assert [(p.card, p.table) for p in world.room.state.placements] == [(card, 2)]
    return world, seat


@pytest.mark.parametrize("leak", [False, True], ids=["honest", "planted-invisible-leak"])
async def test_frame_comparison_catches_an_invisible_leak(make_host: Any, harness_factory: Any, monkeypatch: Any, leak: bool) -> None:
    """The method's own check: a `visible=False` control carrying the secret (the FLET_NOTES
    pitfall) is invisible on screen but must make the board's frames differ."""
    import flet as ft

    from views.board import BoardScreen

    if leak:
        original = BoardScreen.build

        def leaky(self: BoardScreen) -> list[ft.Control]:
            secret = ",".join(p.card for p in self.room.state.placements)
            return [*original(self), ft.Text(secret, visible=False)]

        monkeypatch.setattr(BoardScreen, "build", leaky)
    a, _ = await short_card_world(make_host, harness_factory, "leak-a", "raise")
    b, _ = await short_card_world(make_host, harness_factory, "leak-b", "cheat")
    assert a.board is not None and b.board is not None
    difference = first_difference(normalise(a.board.frames, a.replacements), normalise(b.board.frames, b.replacements))
    strings_a = {s for frame in normalise(a.board.frames) for s in strings_in(frame)}
    strings_b = {s for frame in normalise(b.board.frames) for s in strings_in(frame)}
    if leak:
        assert difference is not None
        assert "raise" in strings_a and "cheat" in strings_b  # the hidden Text's value, on the wire
    else:
        assert difference is None
        assert "raise" not in strings_a and "cheat" not in strings_b


# --------------------------------------------------------------------------------------------
# (b) prompts, rejections, invalid links
# --------------------------------------------------------------------------------------------


async def test_your_turn_prompt_only_on_that_seats_turn(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "turns")
    await world.open_board()
    phones = {seat: await world.open_phone(seat) for seat in range(3)}
    seen_turns = []
    for _ in range(4):  # one full turn of the table and one more
        current = world.current()
        seen_turns.append(current)
        for seat, phone in phones.items():
            assert phone.has("your-turn") == (seat == current), (seat, current, phone.identifiers())
        # the current seat's phone offers the tables; the others do not
        assert phones[current].has("seat-table-1")
        assert not any(phones[s].has("seat-table-1") for s in phones if s != current)
        await phones[current].click("seat-table-3")
    assert len(set(seen_turns)) == 3
    assert not world.board.has("your-turn")  # type: ignore[union-attr]


async def test_a_burst_of_changes_is_drawn_once(make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    """Several actions accepted before a screen gets to draw cost one redraw, of the latest state."""
    world = await make_world(make_host, harness_factory, "burst")
    board = await world.open_board()
    screen = screen_of(board)
    draws: list[int] = []
    render = type(screen).render

    async def counting_render(self: Any) -> None:
        draws.append(self.room.version)
        await render(self)

    monkeypatch.setattr(type(screen), "render", counting_render)
    # Five chips land while this session is busy: its copies of the five room events queue up.
    screen._unsubscribe()
    for table in CHIP_TABLES[:5]:
        await world.room.submit({"type": "place_chip", "by": world.current(), "table": table}, channel="host", seat=None, based_on_version=world.room.version)
    for version in range(world.room.version - 4, world.room.version + 1):
        await screen.on_room_event(RoomEvent("version", version))
    await world.harness.settle()
    assert draws == [world.room.version]


async def test_rejected_action_shows_banner_only_in_sender_session(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "reject")
    board = await world.open_board()
    phones = {seat: await world.open_phone(seat) for seat in range(3)}
    current = world.current()
    wrong = (current + 1) % 3
    sender = phones[wrong]
    version = world.room.version
    marks = {name: tab.mark() for name, tab in [("board", board), *[(f"phone-{s}", t) for s, t in phones.items()]]}

    # The same path every button of the seat page takes (SeatScreen.submit), for a seat whose
    # turn it is not: the phone offers no tables then, so no control exists for it.
    accepted = await screen_of(sender).submit({"type": "place_chip", "by": wrong, "table": 2})
    await world.harness.settle()

    assert accepted is False
    assert world.room.version == version
    assert sender.has("banner")
    banner_text = sender.text(sender.find("banner"))
    assert NAMES[current] in banner_text  # "It is <current>'s turn, not yours."
    for name, tab in [("board", board), *[(f"phone-{s}", t) for s, t in phones.items() if s != wrong]]:
        assert not tab.has("banner"), name
        assert tab.frames_since(marks[name]) == [], f"{name} received frames for another device's rejection"
    assert sender.frames_since(marks[f"phone-{wrong}"]) != []

    # A real tap race: the host enters the chip for the current player while that player's
    # phone still shows the tables; the phone's tap, based on the old version, is refused.
    phone = phones[current]
    target = phone.clickable_in(phone.find("seat-table-5"))  # type: ignore[arg-type]
    assert target is not None
    await board.session.dispatch_event(board.clickable_in(board.find("table-4"))._i, "click", None)  # type: ignore[arg-type,union-attr]
    version = world.room.version
    await phone.session.dispatch_event(target._i, "click", None)
    await world.harness.settle()
    assert world.room.version == version
    assert phone.has("banner")
    assert not board.has("banner")
    assert world.room.view().tables[3].total == 5 and world.room.view().tables[4].total == 0


async def test_host_only_action_from_board_rejects_secret(make_host: Any, harness_factory: Any) -> None:
    """The room refuses a secret action on the host channel; the board shows why, nothing changes."""
    world, board = await world_at_cards(make_host, harness_factory, "secret")
    current = world.current()
    version = world.room.version
    with pytest.raises(Rejected) as info:
        await world.room.submit({"type": "place_card", "by": current, "table": 1, "card": "raise"}, channel="host", seat=None, based_on_version=version)
    assert info.value.code == "room.err.secret_on_board"
    accepted = await screen_of(board).submit({"type": "place_card", "by": current, "table": 1, "card": "raise"})
    await world.harness.settle()
    assert accepted is False and world.room.version == version
    assert board.has("banner")


@pytest.mark.parametrize("route", ["/join/{room}/not-a-token", "/seat/{room}", "/join/nosuchroom/{token}", "/room/{room}/extra"])
async def test_invalid_link_page_has_no_game_data(make_host: Any, harness_factory: Any, route: str) -> None:
    world = await make_world(make_host, harness_factory, "invalid")
    route = route.format(room=world.room.id, token=world.room.seats[0].token)
    tab = await world.harness.open(route, browser=FakeBrowser("stranger"), name="stranger", **PHONE)
    assert tab.has("invalid-link"), tab.identifiers()
    assert "This link is not valid" in tab.text()
    strings = [s for frame in tab.messages() for s in strings_in(frame)]
    assert any("This link is not valid" in s for s in strings)  # the search below can hit
    for name in NAMES:
        assert not any(name in s for s in strings), f"{name} appears in the invalid-link page's frames"
    assert tab.browser.storage == {}  # nothing stored for a bad link


async def test_join_link_stores_token_and_opens_seat(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "join")
    phone = await world.open_phone(1)
    assert phone.conn.routes == [f"/seat/{world.room.id}"]
    device = phone.browser.storage["referee.device"]
    assert phone.browser.storage == {f"referee.seat.{world.room.id}": world.room.seats[1].token, "referee.device": device}
    assert world.room.holds(1, device) and world.room.seats[1].device != device  # the host keeps a fingerprint
    assert "Bruno" in phone.text()
    assert world.room.seats[1].claimed and world.room.connected(1)
    # a second tab of the same phone opens the seat from storage alone
    again = await world.harness.open(f"/seat/{world.room.id}", browser=phone.browser, name="phone-1b", **PHONE)
    assert "Bruno" in again.text() and not again.has("invalid-link")


async def reissue_with_phone(make_host: Any, harness_factory: Any, seat: int | None) -> tuple[World, Tab, Tab, str]:
    """A phone on `seat` (None: the seat whose turn it is), then the host taps its LINK button."""
    world = await make_world(make_host, harness_factory, f"reissue-{seat}")
    if seat is None:
        seat = world.current()
    board = await world.open_board()
    phone = await world.open_phone(seat)
    old = world.room.seats[seat].token
    await phone.click("show-private")
    assert "Cards in your hand" in phone.text()  # the seat page, before
    await board.click(f"reissue-{seat}")  # the LINK button in the seat's row
    assert board.has("confirm-reissue") and world.room.seats[seat].token == old  # asked first
    await board.click("confirm-reissue-yes")
    return world, board, phone, old


async def test_reissue_revokes_the_old_link(make_host: Any, harness_factory: Any) -> None:
    world, board, phone, old = await reissue_with_phone(make_host, harness_factory, 2)
    assert world.room.seats[2].token != old and not world.room.seats[2].claimed
    assert world.room.seat_for_token(old) is None
    assert set(phone.browser.storage) == {"referee.device"}  # the phone forgot the seat
    assert not world.room.connected(2)
    assert board.has("seat-qr-2")  # the board shows the new link's QR at once
    assert "has a new link" in board.text()
    # the old link, opened again, is invalid
    again = await world.harness.open(f"/join/{world.room.id}/{old}", browser=FakeBrowser("old-phone"), name="old-link", **PHONE)
    assert again.has("invalid-link")


async def test_reissue_leaves_the_old_phone_signed_out(make_host: Any, harness_factory: Any) -> None:
    """Regression: sign_out used to be overwritten by a re-render (presence event, reconnect)."""
    world, _board, phone, _old = await reissue_with_phone(make_host, harness_factory, 2)
    assert phone.has("signed-out"), phone.identifiers()
    assert "Cards in your hand" not in phone.text()
    mark = phone.mark()
    # later room events and a reconnect of that tab do not bring the seat back
    await world.submit_for(world.current(), {"type": "place_chip", "by": world.current(), "table": 1})
    await phone.session.dispatch_event(phone.page._i, "connect", None)
    await world.harness.settle()
    assert phone.has("signed-out") and "Cards in your hand" not in phone.text()
    assert not any(NAMES[2] in s for frame in normalise(phone.frames_since(mark)) for s in strings_in(frame))


async def test_a_tab_back_on_its_session_with_another_address_shows_that_address(make_host: Any, harness_factory: Any) -> None:
    """A tablet that opens another room's address in the same tab comes back to its tab's
    session with the new route, and Flet sends it that session's page whole: the board it left.
    The route change Flet should send next can be lost (it drops one for the route of its last
    route change): the reconnect itself shows the route. A plain reconnect redraws nothing."""
    world = await make_world(make_host, harness_factory, "route-on-reconnect")
    board = await world.open_board()
    other = await world.host.create_room("vabanque", vabanque_setup(), seed=VABANQUE_SEED)
    mark = board.mark()
    await board.session.dispatch_event(board.page._i, "connect", None)
    await world.harness.settle()
    assert screen_of(board).room is world.room and board.frames_since(mark) == []
    board.page.route = f"/room/{other.id}?k={world.host.token}"  # as Flet applies the register's page
    await board.session.dispatch_event(board.page._i, "connect", None)
    await world.harness.settle()
    assert screen_of(board).room is other
    shown = screen_of(board)
    await board.session.dispatch_event(board.page._i, "route_change", {"route": board.page.route})
    await world.harness.settle()
    assert screen_of(board) is shown, "the route change that followed drew the board again"


async def test_evicted_phone_cannot_act_for_the_seat(make_host: Any, harness_factory: Any) -> None:
    """Regression: an evicted phone's stale page could still submit for the seat."""
    world, _board, phone, _old = await reissue_with_phone(make_host, harness_factory, None)
    seat = world.current()
    assert int(phone.name.rsplit("-", 1)[1]) == seat  # the evicted phone is the current player's
    version = world.room.version
    accepted = await screen_of(phone).submit({"type": "place_chip", "by": seat, "table": 2})  # the path its buttons took
    await world.harness.settle()
    assert accepted is False
    assert world.room.version == version
    assert phone.has("signed-out")
