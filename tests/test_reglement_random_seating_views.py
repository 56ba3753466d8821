"""Règlement's free seating in one tap on the host board ("Seat everyone at random"), through
real Flet sessions in-process: the tap is one logged action, the board then shows the whole table
seated and the first turn; Alerte! re-seating and phones do not offer it."""

from __future__ import annotations

from typing import Any

from tests.test_reglement_views import BLUE, GREEN, PLAYERS, RED, make_world


async def test_the_board_seats_everyone_at_random_in_one_tap(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "random", {"players": PLAYERS, "first_placer": BLUE})
    board = await world.open_board()
    phone = await world.open_phone(BLUE)
    assert board.has("seat-random") and "The app seats the 28 gangsters still waiting" in board.text()
    assert not phone.has("seat-random")  # the board's shortcut: a phone seats its own gangsters
    await board.click("chair-A")  # Blue's first gangster, by hand
    assert world.room.view().placer == RED
    await board.click("seat-random")
    view = world.room.view()
    assert view.phase == "play" and all(g.seat is not None for g in view.gangsters)
    # counter-clockwise from Blue (Blue, Red, Yellow, Green, ...): the 28th, the last, is Green's
    assert view.turn == GREEN
    # the board's own entry for the table: it names no player (no phone takes it back)
    assert [e.payload for e in world.room.log_entries][-1] == {"type": "seat_random", "by": None}
    assert not board.has("seat-random")
    # the board shows the action's first step, and the seating just drawn can be kept as a preset
    # the step panel opens on the newest ruling; the board's own seating is among the turn's rulings
    assert any(r.code == "reglement.board_seated_at_random" for r in world.room.recent_rulings())
    assert board.has("save-preset")


async def test_alerte_reseating_does_not_offer_it(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "alerte-random")
    board = await world.open_board()
    await board.click("card-alerte")
    await board.click("alerte-confirm")
    assert world.room.view().phase == "alerte" and board.has("kind-parrain")
    assert not board.has("seat-random")
