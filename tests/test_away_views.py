"""A phone whose session expired (it slept longer than main.SESSION_TIMEOUT_SECONDS) comes back
to its seat on a new session, drawn from the room as it is now, and is told what it lost only
when it lost something (views/away.py). In-process: real Flet sessions, the expiry being Flet's
own `Session.disconnect` then `Session.close`."""

from __future__ import annotations

from typing import Any

from companion.engine import seat_audience
from tests.harness.world import show_private
from tests.test_views_inprocess import world_at_cards
from views.away import entered, is_position
from views.i18n import translator

EN = translator("en")


async def sleep_past_the_timeout(tab: Any) -> None:
    await tab.disconnect()
    await tab.close()


async def test_a_phone_back_after_its_session_expired_is_told_only_what_it_lost(make_host: Any, harness_factory: Any) -> None:
    world, _board = await world_at_cards(make_host, harness_factory, "away")
    seat = world.current()
    other = (seat + 1) % len(world.room.seats)
    picker = await world.open_phone(seat)
    idle = await world.open_phone(other)
    card = world.room.view(seat_audience(seat)).my_legal.cards[0]
    await show_private(picker)
    await picker.click(f"card-{card}")
    assert picker.has("seat-table-1"), "the card is chosen (its tables are offered), its table not yet"

    for tab in (picker, idle):
        await sleep_past_the_timeout(tab)
    back = {s: await world.harness.open(f"/seat/{world.room.id}", browser=tab.browser, name=f"phone-{s}-back", **world.phone_size) for s, tab in ((seat, picker), (other, idle))}
    for s, tab in back.items():
        assert tab.session is not (picker if s == seat else idle).session
        assert world.room.names[s] in tab.text(), f"seat {s} is back on its own seat"
    returned = back[seat]
    assert returned.has("your-turn"), "drawn from the room as it is now: still this seat's card turn"
    assert returned.has("away-notice") and EN.t("ui.away_cleared") in returned.text()
    assert not returned.has("seat-table-1"), "the unsent choice is gone, as the notice says"
    assert not back[other].has("away-notice"), "nothing entered, nothing lost: nothing said"

    # The game goes on from the returned phone, and the notice has done its job.
    await show_private(returned)
    await returned.click(f"card-{card}")
    table = next(int(i.removeprefix("seat-table-")) for i in returned.identifiers() if i.startswith("seat-table-"))
    version = world.room.version
    await returned.click(f"seat-table-{table}")
    assert world.room.version == version + 1
    assert not returned.has("away-notice")

    # Said once: the same phone expiring again with nothing entered is told nothing.
    await sleep_past_the_timeout(returned)
    again = await world.harness.open(f"/seat/{world.room.id}", browser=returned.browser, name="phone-again", **world.phone_size)
    assert world.room.names[seat] in again.text() and not again.has("away-notice")


def test_what_counts_as_entered() -> None:
    assert not entered({"a-1": {"name": "", "value": " "}}) and entered({"a-1": {"name": "Docks", "value": ""}})
    assert not entered(None) and not entered(()) and entered(0) and entered(("raise",))
    assert is_position(("corruption.step", 2)) and is_position("chicago_poker.show_last") and is_position("privacy.peek")
    assert not is_position(("vabanque.card", 1)) and not is_position(("corruption.deal", 3))


def test_only_what_the_current_page_would_show_is_a_loss() -> None:
    from views.away import unsent_input

    class Screen:
        """A page drawing one ruling step, this round's card and a preset name with its default."""

        def __init__(self, ui: dict[Any, Any]):
            self.ui = ui

        def build(self) -> None:
            self.ui.get(("vabanque.step", 2))
            self.ui.get(("vabanque.card", 2))
            self.ui.setdefault(("reglement.preset", 3), {}).setdefault("name", "Preset for 4")

    # a step shown, a card of a past round, a default left as it was: nothing lost
    assert not unsent_input(Screen({("vabanque.step", 2): 3, ("vabanque.card", 1): "raise", ("reglement.preset", 3): {"name": "Preset for 4"}}))
    assert unsent_input(Screen({("vabanque.card", 2): "raise"}))
    assert unsent_input(Screen({("reglement.preset", 3): {"name": "Friday"}}))
