"""A phone at a noisy table: the seat's own cards are not on the page until asked for, and go
away again after the action, when the phone leaves the page, or when the host takes the seat."""

from __future__ import annotations

from typing import Any

from tests.test_views_inprocess import CHIP_TABLES, make_world


async def at_first_card_turn(make_host: Any, harness_factory: Any, name: str):
    world = await make_world(make_host, harness_factory, name)
    board = await world.open_board()
    for table in CHIP_TABLES:
        await board.click(f"table-{table}")
    seat = world.current()
    phone = await world.open_phone(seat)
    return world, seat, phone


def card_names_on(phone: Any) -> set[str]:
    text = phone.text()
    return {name for name in ("Raise", "Bluff", "Cheat") if name in text}


async def test_cards_are_not_in_the_page_until_asked_for(make_host: Any, harness_factory: Any) -> None:
    world, seat, phone = await at_first_card_turn(make_host, harness_factory, "peek")
    assert phone.has("your-turn") and phone.has("show-private")
    assert card_names_on(phone) == set()
    assert not phone.has("card-raise")
    await phone.click("show-private")
    assert card_names_on(phone) == {"Raise", "Bluff", "Cheat"}
    await phone.click("card-cheat")
    await phone.click("seat-table-3")
    assert [(p.card, p.table) for p in world.room.state.placements] == [("cheat", 3)]
    # Placed: hidden again at once, and the card's name is nowhere on the page.
    assert phone.has("show-private") and card_names_on(phone) == set()
    await phone.click("show-private")
    assert "Raise, Bluff" in phone.text() and "Cheat at table 3" in phone.text()


async def test_cards_hide_when_the_phone_leaves_the_page(make_host: Any, harness_factory: Any) -> None:
    world, _seat, phone = await at_first_card_turn(make_host, harness_factory, "peek-hide")
    await phone.click("show-private")
    assert card_names_on(phone)
    await phone.session.dispatch_event(phone.page._i, "app_lifecycle_state_change", {"state": "hide"})
    await world.harness.settle()
    assert card_names_on(phone) == set() and phone.has("show-private")


async def test_a_button_still_shown_keeps_its_id_across_a_redraw(make_host: Any, harness_factory: Any) -> None:
    """Another player's action redraws every phone. A button that is still there must keep its
    control id, or a tap already on its way to it is dropped by Flet without a word."""
    world = await make_world(make_host, harness_factory, "stable-ids")
    board = await world.open_board()
    await board.click(f"table-{CHIP_TABLES[0]}")
    # the seat two places on: its turn neither now nor after the next chip
    phone = await world.open_phone((world.current() + 2) % 3)
    before = phone.clickable_in(phone.find("show-private"))._i
    mark = phone.mark()
    await board.click(f"table-{CHIP_TABLES[1]}")  # someone else's chip: the phone is redrawn
    assert not phone.has("your-turn")
    assert phone.frames_since(mark), "the phone was not redrawn: the test proves nothing"
    after = phone.clickable_in(phone.find("show-private"))._i
    assert after == before
    await phone.session.dispatch_event(before, "click", None)  # the tap aimed at the old id
    await world.harness.settle()
    assert phone.has("hide-private")
