"""Every input keeps its state across other players' actions (issue 17), in-process
(tests/harness/flet_inprocess.py): what is typed or picked on one device, then another device
acts (so this page is drawn again), then this device submits: the typed and picked values are
the ones submitted.

  * The host board's Corruption deal form: a contract picked from the catalogue menu, a name and
    a value typed in another slot; meanwhile the phones come and go (the deal waits for the
    board alone: no phone has a game action then, and a phone leaving and one joining are what
    redraw the board).
  * A Corruption phone: the card picked, then another phone acts (a Little Black Book peek, a
    real action, allowed out of turn), then the location tapped: the picked card is played.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import flet as ft

from tests.harness.flet_inprocess import Tab, walk_controls
from tests.test_corruption_views import (
    DEAL,
    MONUMENT,
    ROUND,
    A,
    B,
    C,
    catalogue_copy,  # noqa: F401 - the fixture
    deal_on_board,
    loc_id,
    make_world,
    play_round,
    set_field,
    show_cards,
)
from views.games.corruption.pieces import catalogue


def field_value(tab: Tab, identifier: str) -> Any:
    """The value the page now draws in the TextField or Dropdown labelled `identifier` (shown or
    kept in a closed slot)."""
    semantics = tab.find(identifier, hidden=True)
    assert semantics is not None, tab.identifiers()
    target = next(c for c in walk_controls(semantics) if isinstance(c, (ft.TextField, ft.Dropdown)))
    return target.value


async def test_deal_form_keeps_what_was_typed_and_picked_while_phones_come_and_go(make_host: Any, harness_factory: Any, catalogue_copy: Path) -> None:  # noqa: F811
    world = await make_world(make_host, harness_factory, "inputs-deal")
    board = await world.open_board()
    for seat in (A, B):
        await world.open_phone(seat)
    await set_field(board, "deal-pick-city_hall-1", "Monument")
    await set_field(board, "deal-name-city_hall-2", "Opera House")
    await set_field(board, "deal-value-city_hall-2", "600,000")
    typed = {"deal-name-city_hall-2": "Opera House", "deal-value-city_hall-2": "600,000"}

    # Others: Bruno's phone goes away, Chloe's joins; each redraws the board.
    for other in (lambda: world.phones[B].disconnect(), lambda: world.open_phone(C)):
        mark = board.mark()
        await other()
        await world.harness.settle()
        assert board.frames_since(mark), "the board was not drawn again: this test would prove nothing"
        for identifier, value in typed.items():
            assert field_value(board, identifier) == value, (identifier, board.text())
        assert field_value(board, "deal-pick-city_hall-1") == "Monument"
        assert "Monument" in board.text(board.find("deal-picked-city_hall-1"))

    for body, contracts in list(DEAL.items())[1:]:
        for n, (name, value) in enumerate(contracts, start=1):
            await set_field(board, f"deal-name-{body}-{n}", name)
            await set_field(board, f"deal-value-{body}-{n}", value)
    await board.click("deal-submit")
    view = world.room.view()
    assert view.phase in ("corruption", "stud"), board.text()
    city_hall = next(b for b in view.bodies if b.body == "city_hall")
    monument = next(e for e in catalogue().contracts if e.name == "Monument")
    assert [(c.name, c.value) for c in city_hall.contracts] == [("Monument", monument.value), ("Opera House", 600_000)]


async def test_a_picked_card_survives_another_phones_action(make_host: Any, harness_factory: Any, catalogue_copy: Path, monkeypatch: Any) -> None:  # noqa: F811
    import dataclasses

    from views import games

    drawn: list[int | None] = []  # the seat of each phone page drawn
    real_get = games.get
    real_seat_body = real_get("corruption").seat_body

    def seat_body(ctx: Any, view: Any) -> Any:
        drawn.append(ctx.seat)
        return real_seat_body(ctx, view)

    patched = dataclasses.replace(real_get("corruption"), seat_body=seat_body)
    monkeypatch.setattr(games, "get", lambda game_id: patched if game_id == "corruption" else real_get(game_id))
    world = await make_world(make_host, harness_factory, "inputs-card", little_black_book=True)
    await world.open_board()
    for seat in (A, B, C):
        await world.open_phone(seat)
    await deal_on_board(world)
    await play_round(world, ROUND[:6])
    card, location = ROUND[6]  # Alice's 8k on the Monument
    assert (card, location) == (8000, MONUMENT) and world.current() == A
    alice, bruno = world.phones[A], world.phones[B]
    await show_cards(alice)
    await alice.click(f"card-{card}")
    assert alice.find(f"card-{card}").selected is True

    # Bruno acts out of turn: a Little Black Book peek at Alice's face-down hit man (#4).
    version = world.room.version
    before = len(drawn)
    await bruno.click("peek-3")
    assert world.room.version == version + 1, bruno.text()
    # (its drawing may come out the same, so no frame need reach it: the drawing is what counts)
    assert A in drawn[before:], "Alice's phone was not drawn again: this test would prove nothing"

    await show_cards(alice)  # the secrets may close after any action; the pick must not go with them
    assert alice.find(f"card-{card}").selected is True, alice.identifiers()
    await alice.click(loc_id(location))
    placed = world.room.state.placements[-1]
    assert (placed.index, placed.seat, placed.card, placed.location) == (6, A, card, MONUMENT), placed
