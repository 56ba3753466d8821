"""Taps land where they were meant (issue #12), in-process: the handover window after the acting
player changes, controls keyed by the player they act for, the version the finger saw, a phone
acting twice in a row, the reasons of greyed controls, the take-back and the host-only round.

The window is on here (tests/conftest.py turns it off for the others); it is waited out by
watching the page, never by sleeping a fixed time.
"""

from __future__ import annotations

import asyncio
import functools
import time
from types import SimpleNamespace
from typing import Any

import flet as ft
import pytest

from tests.harness.flet_inprocess import Tab, walk_controls
from tests.harness.world import World
from tests.test_corruption_views import catalogue_copy  # noqa: F401 (a fixture: the contract catalogue in a temporary copy)
from tests.test_views_inprocess import CHIP_TABLES, NAMES, make_world, screen_of


@pytest.fixture
def window(monkeypatch: pytest.MonkeyPatch) -> float:
    """The handover window switched on (at its real length) for this test."""
    import views.screen

    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", 1.5)
    return 1.5


def banner_text(tab: Tab) -> str:
    found = tab.find("banner")
    return tab.text(found) if found is not None else ""


def key_of(tab: Tab, identifier: str) -> str:
    """The key of what a tap on `identifier` reaches: the act-for key of the control itself or
    of the layer inside it that takes the tap (a Vabanque tile's)."""
    found = tab.find(identifier)
    assert found is not None, tab.identifiers()
    if "@" in str(found.key):
        return str(found.key)
    target = tab.clickable_in(found)
    assert target is not None, identifier
    return str(target.key)


async def until(condition: Any, world: World, timeout: float = 10.0) -> None:
    """Wait for `condition()` (the page drawn again as the window ends), polling the loop."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.05)
        await world.harness.settle()


async def chips_world(make_host: Any, harness_factory: Any, name: str) -> tuple[World, Tab]:
    world = await make_world(make_host, harness_factory, name)
    board = await world.open_board()
    return world, board


async def test_second_tap_on_a_table_is_refused_for_the_next_player(make_host: Any, harness_factory: Any, window: float) -> None:
    world, board = await chips_world(make_host, harness_factory, "double-chip")
    first, second = world.current(), None
    assert key_of(board, "table-2") == f"table-2@{first}"
    old_id = board.clickable_in(board.find("table-2"))._i  # type: ignore[arg-type, union-attr]
    await board.click("table-2")
    assert world.room.version == 1
    second = world.current()
    assert second != first
    # The next player's tiles keep the previous keys (and ids) during the window, refusing taps:
    # a tap still addressed to the old tile reaches a control that says so.
    assert key_of(board, "table-2") == f"table-2@{first}"
    await board.session.dispatch_event(old_id, "click", None)
    await world.harness.settle()
    assert world.room.version == 1, "the second tap acted"
    assert banner_text(board) == f"Now {NAMES[second]}: tap again"
    # The window ends: the page is drawn again, the tiles keyed by the player they now act for.
    await until(lambda: key_of(board, "table-2") == f"table-2@{second}", world)
    await board.click("table-2")
    assert world.room.version == 2
    assert not board.has("banner")  # an accepted tap clears the message


async def test_a_tap_on_the_previous_players_table_after_the_window_before_the_redraw_is_refused(make_host: Any, harness_factory: Any, window: float) -> None:
    """The board keeps the previous player's tap targets during the window (Handover.slot). The
    clock closes the window a little before the page is drawn again with the new player's: a
    tap landing in between is still refused with whose turn it is, and nothing is placed for
    anyone; the refusal draws the page with the new player's targets."""
    world, board = await chips_world(make_host, harness_factory, "after-window")
    first = world.current()
    await board.click("table-2")
    second = world.current()
    screen = screen_of(board)
    assert screen.handover.is_open() and key_of(board, "table-2") == f"table-2@{first}"
    old_id = board.clickable_in(board.find("table-2"))._i  # type: ignore[arg-type, union-attr]
    # the window closes by the clock; the redraw it schedules has not run yet
    screen._handover_timer.cancel()
    screen.handover.until = time.monotonic() - 0.01
    assert not screen.handover.is_open()
    await board.session.dispatch_event(old_id, "click", None)
    await world.harness.settle()
    assert world.room.version == 1, "a tap on the previous player's table acted"
    assert banner_text(board) == f"Now {NAMES[second]}: tap again"
    assert key_of(board, "table-2") == f"table-2@{second}"
    await board.click("table-2")
    assert world.room.version == 2


async def through_the_lane(tab: Tab, control_id: int, name: str = "click") -> None:
    """An event as the device sends it: through its connection's event lane
    (views/flet_patches/hardening.py), where a tap on a control the page no longer holds is
    found, not straight to the control."""
    import msgpack

    from views.flet_patches import hardening

    lane = hardening.EventLane(SimpleNamespace(_FletApp__session=tab.session))
    lane.offer(b"\x00" + msgpack.packb([3, {"target": control_id, "name": name, "data": None}]))
    lane.close()
    assert lane.worker is not None
    await lane.worker
    assert lane.dispatched == 1
    await tab.harness.settle()


MISSED = "Not done: your tap came as the page changed. Look, then tap again."


async def test_a_tap_on_a_control_the_window_end_replaced_is_said_not_lost(make_host: Any, harness_factory: Any, window: float) -> None:
    """A tap on the way as the window ends: the page is drawn again with the new player's own
    keys, and the control the finger saw is gone. Flet would drop the tap without a word (the
    player waits for a move that never comes); the page says it was not done."""
    from views.flet_patches.hardening import _resolve_event_control

    world, board = await chips_world(make_host, harness_factory, "missed-at-window-end")
    await board.click("table-2")
    second = world.current()
    screen = screen_of(board)
    inherited = board.clickable_in(board.find("table-2"))._i  # type: ignore[arg-type, union-attr]
    await until(lambda: not screen.handover.is_open() and key_of(board, "table-2") == f"table-2@{second}", world)
    assert _resolve_event_control(board.session, inherited) is None, "the window's end kept the control: nothing is tested"
    await through_the_lane(board, inherited)
    assert world.room.version == 1
    assert banner_text(board) == MISSED
    await board.click("table-2")  # the tap again acts, for the player now shown
    assert world.room.version == 2 and banner_text(board) == ""


async def test_only_a_fresh_tap_on_a_gone_control_is_answered(make_host: Any, harness_factory: Any, window: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pad's press (a finger held while the pad is drawn again) and an event for a control gone
    from a page drawn long ago (a stray or forged event) are dropped without a word."""
    import views.screen

    world, board = await chips_world(make_host, harness_factory, "missed-quiet")
    gone = max(c._i for c in walk_controls(board.page) if isinstance(c, ft.BaseControl)) + 10_000
    await through_the_lane(board, gone, "tap_down")
    assert banner_text(board) == ""
    monkeypatch.setattr(views.screen, "MISSED_TAP_SECONDS", 0.0)
    await through_the_lane(board, gone)
    assert banner_text(board) == "" and world.room.version == 0
    monkeypatch.setattr(views.screen, "MISSED_TAP_SECONDS", 60.0)
    await through_the_lane(board, gone)
    assert banner_text(board) == MISSED and world.room.version == 0


async def test_a_tap_re_sent_after_a_reconnect_is_not_said(make_host: Any, harness_factory: Any, window: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone that comes back on a new connection holds the page Flet sent it whole: a tap for a
    control that page no longer holds was aimed at what the old connection showed (a retrying
    client re-sending a tap whose answer was lost: it acted already). "Not done" would be false;
    once the page is drawn again on the new connection, a missed tap is said again."""
    import views.screen

    monkeypatch.setattr(views.screen, "MISSED_TAP_SECONDS", 60.0)
    world, board = await chips_world(make_host, harness_factory, "missed-after-reconnect")
    gone = max(c._i for c in walk_controls(board.page) if isinstance(c, ft.BaseControl)) + 10_000
    screen = screen_of(board)
    await screen.connected(True)  # as the app's on_connect: nothing missed, so not drawn again
    await through_the_lane(board, gone)
    assert banner_text(board) == "" and world.room.version == 0
    await screen.render()
    await through_the_lane(board, gone)
    assert banner_text(board) == MISSED and world.room.version == 0


async def test_two_taps_in_flight_on_one_drawing_act_once(make_host: Any, harness_factory: Any, window: float) -> None:
    """Both taps carry the version they were made on: the second is judged once the first is in,
    and refused (the room moved on since the finger saw it), not taken for the next player."""
    world, board = await chips_world(make_host, harness_factory, "two-in-flight")
    target = board.clickable_in(board.find("table-4"))  # type: ignore[arg-type]
    assert target is not None
    await asyncio.gather(*(board.session.dispatch_event(target._i, "click", None) for _ in range(2)))
    await world.harness.settle()
    assert world.room.version == 1
    assert banner_text(board) == f"Now {NAMES[world.current()]}: tap again"


async def test_move_buttons_are_in_the_players_colour_and_keyed_by_them(make_host: Any, harness_factory: Any, window: float, monkeypatch: pytest.MonkeyPatch) -> None:
    import views.screen
    from tests.test_views_inprocess import play_to_last_move

    world = await make_world(make_host, harness_factory, "moves")
    await world.open_board()
    await world.open_phone(1)
    await world.open_phone(2)
    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", 0.0)  # the way there at machine speed
    await play_to_last_move(world, 1, [("raise", 1), ("bluff", 3), ("cheat", 5)], 2)
    board = world.board
    assert board is not None
    undone = world.room.version
    await world.room.undo(1)  # back to two pawns to move
    await world.harness.settle()
    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", window)
    mover = world.current()
    assert key_of(board, "move-0") == f"move-0@{mover}"
    assert f"{NAMES[mover]} · " in board.text(board.find("move-0"))  # type: ignore[arg-type]
    await board.click("move-0")
    nxt = world.current()
    await board.click("move-0")  # a double tap
    assert world.room.version == undone + 2  # the move, then nothing more (undo counted once)
    assert banner_text(board) == f"Now {NAMES[nxt]}: tap again"


async def test_a_phone_acting_twice_in_a_row_is_protected(make_host: Any, harness_factory: Any, window: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chicago Poker: Ada draws on her phone, and again at once: the second tap is refused as a
    double tap, said as one (not as someone else's turn), and only for a double tap's length (half
    a second, not the 1.5 s of a new player); once that has passed, her next draw is taken, and
    the message is gone by itself."""
    import views.screen
    from tests.test_chicago_poker_views import A
    from tests.test_chicago_poker_views import make_world as chicago_world

    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", 0.0)
    world = await chicago_world(make_host, harness_factory, "phone-twice")
    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", window)
    phone = world.phones[A]
    assert phone.has("draw"), phone.identifiers()
    before = world.room.version
    await phone.click("draw")
    assert world.room.version == before + 1
    if not phone.has("draw"):
        pytest.skip("this opening leaves Ada one action")  # pragma: no cover - the opening gives two
    await phone.click("draw")
    assert world.room.version == before + 1
    assert banner_text(phone) == "Tapped twice? Only the first tap counted. Tap again for another move."
    screen = screen_of(phone)
    assert screen.handover.kind == "again" and screen.handover.until - time.monotonic() <= views.screen.DOUBLE_TAP_SECONDS
    assert not phone.has("handover-now")  # no "now ..." cue: the same player goes on
    await until(lambda: not screen.handover.is_open(), world)
    # the refusal's message leaves by itself after its window (never left over what comes next)
    await until(lambda: screen.error is None and not phone.has("banner"), world)
    await phone.click("draw")
    assert world.room.version == before + 2


async def test_end_turn_then_the_next_players_action_on_the_board(make_host: Any, harness_factory: Any, window: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chicago Poker: "End Ada's turn" tapped twice ends her turn and spends none of Bea's."""
    import views.screen
    from tests.test_chicago_poker_views import A, B
    from tests.test_chicago_poker_views import make_world as chicago_world

    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", 0.0)
    world = await chicago_world(make_host, harness_factory, "end-turn-twice")
    board = world.board
    assert board is not None
    for _ in range(4):  # Ada spends her actions until only ending her turn is left
        if board.has("end-turn"):
            break
        await board.click("draw")
    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", window)
    before = world.room.version
    assert key_of(board, "end-turn") == f"end-turn@{A}"
    await board.click("end-turn")
    assert world.room.view().current == B
    for ident in ("end-turn", "draw"):
        if board.has(ident):
            await board.click(ident)
    assert world.room.version == before + 1
    assert banner_text(board).startswith("Now ")


async def test_undo_says_why_it_is_greyed(make_host: Any, harness_factory: Any) -> None:
    world, board = await chips_world(make_host, harness_factory, "undo-why")
    assert "Nothing to undo yet" in board.text(board.find("undo-why"))
    await board.click("table-1")
    assert not board.has("undo-why")


async def test_messages_float_over_the_page(make_host: Any, harness_factory: Any) -> None:
    """A refusal shows without moving the board: the body keeps its place in the tree (the
    banner is a layer over it), and a tap on the banner closes it."""
    world, board = await chips_world(make_host, harness_factory, "overlay")
    page = board.session.page
    body = page.controls[0].controls[0]  # type: ignore[attr-defined]
    seat_row = board.find("seat-0")._i  # type: ignore[union-attr]
    # A tap made on a drawing the room has since left (another device acted meanwhile):
    stale = functools.partial(screen_of(board).submit, seen=world.room.version)
    await world.room.submit({"type": "place_chip", "by": world.current(), "table": 1}, channel="host", seat=None, based_on_version=world.room.version)
    assert not await stale({"type": "place_chip", "by": world.current(), "table": 2})
    await world.harness.settle()
    assert world.room.version == 1
    assert board.has("banner")
    stack = page.controls[0]
    assert stack.controls[0]._i == body._i and stack.controls[0].key == "page"  # type: ignore[attr-defined]  # the same control
    assert stack.controls[-1].key == "messages" and stack.controls[-1].bottom == 0  # type: ignore[attr-defined]
    assert board.find("seat-0")._i == seat_row  # type: ignore[union-attr]  # nothing under the finger was replaced
    await board.click("banner")
    assert not board.has("banner")


@pytest.mark.parametrize("size", [(1280, 800), (360, 780)], ids=["tablet", "phone"])
async def test_board_messages_float_over_the_bottom_edge_clear_of_the_side_column(make_host: Any, harness_factory: Any, window: float, size: tuple[int, int]) -> None:
    """The handover cue and a refusal float over the board's bottom edge: at the top they hid
    the title and the status on a phone-sized board and the first table on a tablet; on a tablet
    they keep clear of the side column (its "What just happened" reaches the bottom)."""
    from views.common import PANEL

    world = await make_world(make_host, harness_factory, f"bottom-{size[0]}")
    board = await world.harness.open(f"/room/{world.room.id}?k={world.host.token}", width=size[0], height=size[1], name="board")
    first = world.current()
    await board.click("table-2")
    second = world.current()
    stale = functools.partial(screen_of(board).submit, seen=world.room.version - 1)  # a tap made on the drawing before
    assert not await stale({"type": "place_chip", "by": second, "table": 3})
    await world.harness.settle()
    assert world.room.version == 1 and first != second
    stack = board.session.page.controls[0]  # type: ignore[attr-defined]
    layer = stack.controls[-1]
    assert layer.key == "messages" and layer.bottom == 0 and layer.top is None and layer.left == 0
    inside = {id(c) for c in walk_controls(layer)}
    for ident in ("handover-now", "banner"):
        assert id(board.find(ident)) in inside, ident  # both in the floating layer, none in the page
    assert board.find("seat-0") is not None and id(board.find("seat-0")) not in inside
    side = next(c for c in walk_controls(stack.controls[0]) if isinstance(c, ft.Container) and c.bgcolor == PANEL and id(board.find("seat-0")) in {id(k) for k in walk_controls(c)})
    if size[0] >= 900:  # the side column beside the board: the messages stay left of it
        assert side.width is not None and layer.right >= side.width
    else:  # one column: the whole width
        assert layer.right == 0


# --------------------------------------------------------------------------------------------
# take-back: the owner's phone undoes its own latest unrevealed action, revealing nothing
# --------------------------------------------------------------------------------------------


def keyed(tab: Tab, key: str) -> Any:
    found = [c for c in walk_controls(tab.session.page) if getattr(c, "key", None) == key]
    assert len(found) == 1, (key, len(found))
    return found[0]


def luminance(hex_colour: str) -> float:
    r, g, b = (int(hex_colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def take_back_place(phone: Tab) -> str:
    """Where the phone draws "Take back my move": "top" (after the waiting message, before the
    game: in view without scrolling) or "bottom" (after the game); and it looks like what it is,
    a bright enabled button, or the dim disabled one."""
    from views.common import DISABLED_FILL, FELT

    order = {id(c): i for i, c in enumerate(walk_controls(phone.session.page))}  # tree order
    button = next(c for c in walk_controls(phone.find("take-back")) if isinstance(c, ft.Button))  # type: ignore[arg-type]
    at = order[id(button)]
    body = [order[id(c)] for c in walk_controls(keyed(phone, "seat-body"))]
    if button.disabled:
        assert button.bgcolor == DISABLED_FILL
    else:  # bright on the dark felt, nothing like the disabled fill
        assert luminance(button.bgcolor) - luminance(FELT) > 0.6 and button.bgcolor != DISABLED_FILL  # type: ignore[arg-type]
    if at < min(body):
        assert order[id(keyed(phone, "waiting-for"))] < at, "below the waiting message"
        assert not button.disabled
        return "top"
    assert at > max(body)
    return "bottom"


async def card_then_take_back(make_host: Any, harness_factory: Any, name: str, card: str) -> tuple[World, int, int]:
    """Chips entered straight into the room; a board, the first card player's phone and an
    observer phone; the player places `card` on table 2, then takes it back on the phone."""
    world = await make_world(make_host, harness_factory, name)
    for table in CHIP_TABLES:
        await world.room.submit({"type": "place_chip", "by": world.current(), "table": table}, channel="host", seat=None, based_on_version=world.room.version)
    seat = world.current()
    observer = (seat + 1) % 3
    await world.open_board()
    phone = await world.open_phone(seat)
    await world.open_phone(observer)
    await phone.click("show-private")
    await phone.click(f"card-{card}")
    await phone.click("seat-table-2")
    assert [(p.card, p.table) for p in world.room.state.placements] == [(card, 2)]
    assert phone.has("take-back"), phone.identifiers()
    assert take_back_place(phone) == "top"
    await phone.click("take-back")
    # the card's pick went with the move: no "now tap its table" left on the page, hidden
    assert not phone.has("seat-table-2") and "Card chosen" not in phone.text(), phone.identifiers()
    return world, seat, observer


async def test_take_back_undoes_only_the_own_latest_action_and_reveals_nothing(make_host: Any, harness_factory: Any) -> None:
    a, seat, observer = await card_then_take_back(make_host, harness_factory, "take-a", "raise")
    b, _, _ = await card_then_take_back(make_host, harness_factory, "take-b", "cheat")
    for world in (a, b):
        assert world.room.state.placements == ()  # the card is back in the hand
        assert world.room.view().waiting_for == (seat,)
        undo = world.room.log_entries[-1]
        assert (undo.kind, undo.payload, undo.channel) == ("undo", {"count": 1, "seat": seat}, "seat")
        assert world.room.version == len(CHIP_TABLES) + 2  # the chips stayed
        assert world.board is not None
        assert f"{NAMES[seat]} took back a move." in world.board.text()
        # "What just happened" lists the actions in effect: not the card taken back
        assert "placed a card face down" not in world.board.text()
    # Byte for byte, the board and the other phone saw the same whichever card it was.
    from tests.harness.world import first_difference

    assert a.board is not None and b.board is not None
    assert first_difference(a.frames(a.board), b.frames(b.board)) is None
    assert first_difference(a.frames(a.phones[observer]), b.frames(b.phones[observer])) is None
    # (the owner's own phone did see its own card: the comparison can tell)
    assert first_difference(a.frames(a.phones[seat]), b.frames(b.phones[seat])) is not None
    # The same tap again, on the page as now drawn, places the card again: no stale duplicate.
    phone = a.phones[seat]
    await phone.click("show-private")
    await phone.click("card-raise")
    await phone.click("seat-table-2")
    assert [(p.card, p.table) for p in a.room.state.placements] == [("raise", 2)]


async def test_take_back_is_greyed_with_its_reason_once_another_action_came(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "take-later")
    board = await world.open_board()
    seat = world.current()
    phone = await world.open_phone(seat)
    await phone.click("seat-table-3")  # a public chip, placed on the phone
    assert phone.has("take-back")
    assert take_back_place(phone) == "top"
    await board.click("table-5")  # the next player's chip, entered on the board
    assert phone.has("take-back-why")
    assert take_back_place(phone) == "bottom"  # greyed, its reason below the game
    assert "Another action came after yours" in phone.text(phone.find("take-back-why"))  # type: ignore[arg-type]
    assert phone.clickable_in(phone.find("take-back")) is None  # type: ignore[arg-type]
    assert world.room.version == 2


# --------------------------------------------------------------------------------------------
# the payout: each device steps through it on its own; only the host board starts the round
# --------------------------------------------------------------------------------------------


async def test_a_phone_cannot_end_the_payout_or_start_the_next_round(make_host: Any, harness_factory: Any) -> None:
    from tests.test_views_inprocess import play_to_last_move

    world = await make_world(make_host, harness_factory, "payout")
    board = await world.open_board()
    phone = await world.open_phone(1)
    await world.open_phone(2)
    await play_to_last_move(world, 1, [("raise", 1), ("bluff", 3), ("cheat", 5)], 2)
    await board.click("move-0")
    # the last move reveals nothing: the board offers Reveal, the phones "I'm ready"
    assert world.room.view().phase == "reveal"
    assert board.has("reveal") and not phone.has("reveal") and phone.has("ready")
    assert "When everyone is ready, the cards are turned up." in phone.text(phone.find("ready-help"))  # type: ignore[arg-type]
    await phone.click("ready")
    assert f"Ready: {NAMES[1]}" in board.text(board.find("ready-list"))  # type: ignore[arg-type]
    assert world.room.view().phase == "reveal"
    await board.click("reveal")
    assert world.room.view().phase == "payout"
    assert "Not after a reveal: cards have been seen" in board.text(board.find("undo-why"))  # type: ignore[arg-type]
    assert board.has("next-round") and not phone.has("next-round")
    assert "The host board starts round 2" in phone.text()
    board_step = board.text(board.find("payout"))  # type: ignore[arg-type]
    # after the payout a phone says what its "I'm ready" leads to
    assert "When everyone is ready, the next round begins." in phone.text(phone.find("ready-help"))  # type: ignore[arg-type]
    await phone.click("step-previous")  # this phone's own walk-through (it opens on the last step)
    assert board.text(board.find("payout")) == board_step  # type: ignore[arg-type]
    assert phone.text(phone.find("payout")) != board_step  # type: ignore[arg-type]
    # Sent anyway from the phone's page, the next round is refused there, and nothing changes.
    version = world.room.version
    assert not await screen_of(phone).submit({"type": "next_round", "by": 1})
    await world.harness.settle()
    assert world.room.version == version and world.room.view().phase == "payout"
    assert phone.has("banner") and not board.has("banner")
    await board.click("next-round")
    assert world.room.view().round == 2


async def test_corruption_board_entry_for_the_next_player_waits_out_the_window(make_host: Any, harness_factory: Any, catalogue_copy: Any, window: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Corruption: the board enters Alice's face-up card; Bruno's entry at once is refused with
    the handover message (it would be his card), and taken once the window is over."""
    import views.screen
    from tests.test_corruption_views import AIRPORT, SUBWAY, B, deal_on_board
    from tests.test_corruption_views import make_world as corruption_world

    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", 0.0)
    world = await corruption_world(make_host, harness_factory, "corruption-handover")
    board = await world.open_board()
    await deal_on_board(world)
    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", window)
    await board.click("board-enter")
    await board.click("board-card-10000")
    await board.click(f"board-loc-{SUBWAY}")
    placed = len(world.room.state.placements)
    assert world.room.view().turn == B
    # the entry stays open for Bruno's card (it no longer collapses under the host's finger)
    await board.click("board-card-10000")
    await board.click(f"board-loc-{AIRPORT}")
    assert len(world.room.state.placements) == placed
    assert "Now Bruno: tap again" in banner_text(board)
    screen = screen_of(board)
    await until(lambda: not screen.handover.is_open(), world)
    if not board.has(f"board-loc-{AIRPORT}"):
        await board.click("board-card-10000")
    await board.click(f"board-loc-{AIRPORT}")
    assert len(world.room.state.placements) == placed + 1


def test_no_two_controls_of_a_drawing_share_a_key_through_a_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board enters Cyd's reporter choice (2 options), and Cyd's next choice has 3: during the
    window the new buttons take the previous drawing's 2 keys in order; the third must not take
    its own key when the second already holds it (two alike in one list: Flet's diff then sends
    a move the client cannot apply)."""
    import views.screen
    from views.screen import Handover

    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", 1.5)
    handover = Handover(hands_over=True, on_window=lambda seconds: None)
    handover.begin()
    first = [handover.key("board-report-0", 2), handover.key("board-report-none", 2)]
    handover.end()
    handover.acted = True  # the board's own tap was accepted: the same player acts again
    handover.begin()
    second = [handover.key("board-report-1", 2), handover.key("board-report-5", 2), handover.key("board-report-none", 2)]
    handover.end()
    assert handover.is_open() and handover.kind == "again"
    assert second[:2] == first  # a tap on its way to an old button reaches a new one that refuses
    assert len(set(second)) == len(second), second


async def test_a_host_entry_tapped_twice_enters_once(make_host: Any, harness_factory: Any, window: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chicago Poker's board: the host's entry (a business tile) tapped twice: the second tap,
    landed on whatever the first one brought up under the finger, is refused as a double tap
    (a reviewer's Reveal, tapped twice, entered a tile nobody had turned up); half a second later
    the next tile is taken."""
    import views.screen
    from tests.harness.world import make_world as make_game_world
    from tests.test_chicago_poker_views import PHONE, SEED, cp_setup

    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", 0.0)
    world = await make_game_world(make_host, harness_factory, "host-twice", "chicago_poker", cp_setup(), seed=SEED, phone_size=PHONE)
    board = await world.open_board()
    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", window)
    assert board.has("tile-jazz_club") and board.has("tile-speakeasy"), board.identifiers()
    before = world.room.version
    await board.click("tile-jazz_club")
    assert world.room.version == before + 1
    assert board.has("tile-speakeasy"), board.identifiers()  # the game waits for a second tile
    await board.click("tile-speakeasy")
    assert world.room.version == before + 1
    assert banner_text(board).startswith("Tapped twice? Only the first tap counted.")
    screen = screen_of(board)
    await until(lambda: time.monotonic() - screen._accepted_at >= views.screen.DOUBLE_TAP_SECONDS, world)
    await board.click("tile-speakeasy")
    assert world.room.version == before + 2
    assert [b.kind for b in world.room.view().businesses] == ["jazz_club", "speakeasy"]
