"""A phone at a noisy table: the seat's own cards are not on the page until the player holds the
"Hold to see your cards" pad (or taps "Show my cards", the one-handed and screen-reader way), and
go away again on release, after the action, after a while, or when the phone leaves the page."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from tests.harness.flet_inprocess import Tab, strings_in, walk_controls
from tests.test_views_inprocess import CHIP_TABLES, make_world, world_at_cards
from views.seat import SeatScreen

CARD_NAMES = ("Raise", "Bluff", "Cheat")
#: what the Flutter client sends with a tap event (kind, local and global position)
TOUCH = {"k": "touch", "l": {"x": 40.0, "y": 30.0}, "g": {"x": 60.0, "y": 300.0}}


async def at_first_card_turn(make_host: Any, harness_factory: Any, name: str):
    world, _board = await world_at_cards(make_host, harness_factory, name)
    seat = world.current()
    phone = await world.open_phone(seat)
    return world, seat, phone


def card_names_on(phone: Any) -> set[str]:
    text = phone.text()
    return {name for name in CARD_NAMES if name in text}


def card_names_sent(phone: Tab, since: int) -> set[str]:
    strings = [s for frame in phone.messages(since) for s in strings_in(frame)]
    return {name for name in CARD_NAMES if any(name in s for s in strings)}


def hold_pad(phone: Tab) -> ft.GestureDetector:
    semantics = phone.find("hold-private")
    assert semantics is not None, phone.identifiers()
    pads = [c for c in walk_controls(semantics) if isinstance(c, ft.GestureDetector)]
    assert len(pads) == 1
    return pads[0]


async def press(phone: Tab, event: str, control_id: int | None = None) -> None:
    """A finger on the pad ("tap_down") or its end ("tap_up", "tap_cancel"), as the client sends it."""
    target = hold_pad(phone)._i if control_id is None else control_id
    await phone.session.dispatch_event(target, event, None if event == "tap_cancel" else TOUCH)
    await phone.harness.settle()


async def test_cards_are_on_the_page_only_while_held(make_host: Any, harness_factory: Any) -> None:
    world, seat, phone = await at_first_card_turn(make_host, harness_factory, "hold")
    assert phone.has("your-turn") and phone.has("hold-private") and phone.has("show-private")
    assert card_names_on(phone) == set() and not phone.has("card-raise")
    assert card_names_sent(phone, 0) == set(), "a card name reached the phone before it was held"
    pad_id = hold_pad(phone)._i

    mark = phone.mark()
    await press(phone, "tap_down")
    assert card_names_on(phone) == set(CARD_NAMES) and phone.has("card-raise")
    assert card_names_sent(phone, mark) == set(CARD_NAMES)
    # The pad is the same control while held: the release is aimed at the id the press had.
    assert hold_pad(phone)._i == pad_id
    assert "Let go to hide your cards" in phone.text()

    for end in ("tap_up", "tap_cancel"):  # a release, or the finger sliding away / a cancelled touch
        await press(phone, end, pad_id)
        assert card_names_on(phone) == set() and not phone.has("card-raise"), end
        mark = phone.mark()
        await press(phone, "tap_down", pad_id)
        assert card_names_on(phone) == set(CARD_NAMES)
    await press(phone, "tap_up", pad_id)
    assert "Hold here to see your cards" in phone.text()
    phone.harness.check()


async def test_peek_then_act_with_the_cards_hidden(make_host: Any, harness_factory: Any) -> None:
    """Hold, tap a card with another finger, let go: the table is chosen with no card on screen."""
    world, seat, phone = await at_first_card_turn(make_host, harness_factory, "hold-act")
    await press(phone, "tap_down")
    await phone.click("card-cheat")
    assert phone.has("card-cheat") and phone.find("card-cheat").selected
    await press(phone, "tap_up")
    assert card_names_on(phone) == set()
    assert phone.has("seat-table-3"), phone.identifiers()
    await phone.click("seat-table-3")
    assert [(p.card, p.table) for p in world.room.state.placements] == [("cheat", 3)]
    assert card_names_on(phone) == set() and phone.has("hold-private")


async def test_tap_to_show_is_the_alternative_and_hides_after_the_action(make_host: Any, harness_factory: Any) -> None:
    world, seat, phone = await at_first_card_turn(make_host, harness_factory, "peek")
    await phone.click("show-private")
    assert card_names_on(phone) == set(CARD_NAMES) and phone.has("hide-private")
    await phone.click("card-cheat")
    await phone.click("seat-table-3")
    assert [(p.card, p.table) for p in world.room.state.placements] == [("cheat", 3)]
    # Placed: hidden again at once, and the card's name is nowhere on the page.
    assert phone.has("show-private") and card_names_on(phone) == set()
    await phone.click("show-private")
    assert "Raise, Bluff" in phone.text() and "Cheat at table 3" in phone.text()
    await phone.click("hide-private")
    assert card_names_on(phone) == set()


async def test_cards_hide_when_the_phone_leaves_the_page(make_host: Any, harness_factory: Any) -> None:
    world, _seat, phone = await at_first_card_turn(make_host, harness_factory, "peek-hide")
    for opening in ("show-private", "hold"):
        if opening == "hold":
            await press(phone, "tap_down")  # held, and the release never comes: the screen went off
        else:
            await phone.click("show-private")
        assert card_names_on(phone), opening
        await phone.session.dispatch_event(phone.page._i, "app_lifecycle_state_change", {"state": "hide"})
        await world.harness.settle()
        assert card_names_on(phone) == set() and phone.has("show-private"), opening


async def test_cards_hide_by_themselves_after_a_while(make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    import asyncio

    monkeypatch.setattr(SeatScreen, "PEEK_SECONDS", 0.2)
    world, _seat, phone = await at_first_card_turn(make_host, harness_factory, "peek-timeout")
    shown_from = phone.mark()
    await press(phone, "tap_down")  # a release lost on the way (the socket dropped): the timer closes it
    # The cards were sent; whether they are still on the page is the timer's race with this line.
    assert card_names_sent(phone, shown_from)
    deadline = asyncio.get_running_loop().time() + 10
    while card_names_on(phone):
        assert asyncio.get_running_loop().time() < deadline, "the cards stayed open"
        await asyncio.sleep(0.05)
    await world.harness.settle()
    assert phone.has("hold-private") and not phone.has("card-raise")


async def test_a_button_still_shown_keeps_its_id_across_a_redraw(make_host: Any, harness_factory: Any) -> None:
    """Another player's action redraws every phone. A button that is still there must keep its
    control id, or a tap already on its way to it is dropped by Flet without a word."""
    world = await make_world(make_host, harness_factory, "stable-ids")
    board = await world.open_board()
    await board.click(f"table-{CHIP_TABLES[0]}")
    # the seat two places on: its turn neither now nor after the next chip
    phone = await world.open_phone((world.current() + 2) % 3)
    before = phone.clickable_in(phone.find("show-private"))._i
    pad_before = hold_pad(phone)._i
    mark = phone.mark()
    await board.click(f"table-{CHIP_TABLES[1]}")  # someone else's chip: the phone is redrawn
    assert not phone.has("your-turn")
    assert phone.frames_since(mark), "the phone was not redrawn: the test proves nothing"
    after = phone.clickable_in(phone.find("show-private"))._i
    assert after == before and hold_pad(phone)._i == pad_before
    await phone.session.dispatch_event(before, "click", None)  # the tap aimed at the old id
    await world.harness.settle()
    assert phone.has("hide-private")


@pytest.mark.parametrize("opening", ["show-private", "hold"])
async def test_cards_hide_when_the_connection_drops(opening: str, make_host: Any, harness_factory: Any) -> None:
    """No lifecycle event on the way (the socket died first): the session must not keep the cards,
    or the reconnect, which is sent the page the session holds, shows them again."""
    world, _seat, phone = await at_first_card_turn(make_host, harness_factory, f"peek-drop-{opening}")
    if opening == "hold":
        await press(phone, "tap_down")  # the release never comes
    else:
        await phone.click("show-private")
    assert card_names_on(phone), opening
    await phone.disconnect()
    assert card_names_on(phone) == set() and not phone.has("card-raise") and phone.has("hold-private")
    screen = phone.page.on_route_change.__self__.screen
    assert isinstance(screen, SeatScreen) and screen._peek_timer is None
