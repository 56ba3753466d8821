"""A phone's public section, its language and its words, through real Flet sessions in-process.

* For each game, a mid-game state (reached with the engine's own random player, seeded): the public
  facts of it, written per game below from the BOARD projection, are on the phone with the pad
  closed, while the phone's own secrets are in none of the bytes it was sent.
* The seat page's language menu switches only that phone: the board and the other phones keep
  theirs, and the phone remembers it.
* Chicago Poker: a face-down card is entered behind a pad named for it; each tap gives the open
  pad its full time again; when it hides mid-entry the half-made choice is forgotten; no phone says
  "Waiting for" its own player; a special card sent as a reinforcement is accepted after the
  player confirms they hold no gangster card, and counts 0.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import flet as ft

from companion.engine import BOARD, seat_audience
from companion.room import Room
from tests.conftest import VABANQUE_SEED, vabanque_setup
from tests.harness.flet_inprocess import Tab, walk_controls
from tests.harness.world import World, make_world, show_private
from tests.test_chicago_poker_views import OPENING, cp_setup
from tests.test_reglement_views import preset_setup
from views.i18n import Translator

EN = Translator("en")
SEAT = 1


async def random_play(room: Room, rng: random.Random, until: Callable[[Any], bool], limit: int = 400) -> None:
    """The engine's random player, each action on the channel that may send it, until `until`."""
    for _ in range(limit):
        if until(room.view()):
            return
        action = room.game.random_action(room.state, rng)
        assert action is not None, "the game ended before the state looked for"
        raw = action.model_dump(mode="json")
        if room.game.is_public(action) or raw.get("by") is None:
            await room.submit(raw, channel="host", seat=None, based_on_version=room.version)
        else:
            await room.submit(raw, channel="seat", seat=raw["by"], based_on_version=room.version)
    raise AssertionError("the state looked for never came")


def bytes_of(phone: Tab) -> str:
    return b"".join(phone.frames).decode("utf-8", "replace")


# -- per game: how far to play, the public facts of the board's projection, this seat's secrets --


def vabanque_mid(view: Any) -> bool:
    return view.phase == "moves" and view.round == 1


def vabanque_facts(board: Any) -> list[str]:
    return [EN.t("ui.round", round=board.round, rounds=board.rounds)] + [EN.t("vabanque.table_total", total=t.total) for t in board.tables]


def vabanque_secrets(me: Any) -> list[str]:
    # round 1, before any payout: no card name is public yet
    return [EN.t(f"vabanque.card.{c}") for c in set(me.cards_in_hand) | {p.card for p in me.my_placements}]


def corruption_mid(view: Any) -> bool:
    return view.phase == "corruption" and sum(view.cards_placed) >= 2 * len(view.cards_placed) + 1


def corruption_facts(board: Any) -> list[str]:
    facts = []
    for body in board.bodies:
        for contract in body.contracts:
            facts += [contract.name, EN.money(contract.value)]
    return facts


def corruption_secrets(me: Any) -> list[str]:
    # the identifiers of the secret panels (the hand, or on the seat's turn its cards to play):
    # never built while hidden
    return ["my-hand", "card-choices"]


def chicago_mid(view: Any) -> bool:
    return view.phase == "actions" and view.turn >= 6 and any(not c.face_up for b in view.businesses for col in b.columns for c in col.cards) if hasattr(view, "businesses") else False


def chicago_facts(board: Any) -> list[str]:
    facts = [EN.t("chicago_poker.ui.hand_size", hand=n) for n in board.hands]
    facts += [EN.t(f"chicago_poker.business.{b.kind}") for b in board.businesses]
    return facts


def chicago_secrets(me: Any) -> list[str]:
    return ["my-face-down", "play-card"] if me.face_down else ["play-card"]


def reglement_mid(view: Any) -> bool:
    return view.phase == "play" and bool(view.turn_log)


def reglement_facts(board: Any) -> list[str]:
    return [EN.t("reglement.ui.my_gang")] + [g.seat for g in board.gangsters if g.owner == SEAT and g.alive and g.seat]


def reglement_secrets(me: Any) -> list[str]:
    # what the private section holds: the hand note and the rules helper's card choices (the
    # word "helper" alone is in the turn's public hint, "... your rules helper ...")
    return ["hand-note", "help-choices"]


GAMES = {
    "vabanque": (vabanque_setup(first_player=0), VABANQUE_SEED, vabanque_mid, vabanque_facts, vabanque_secrets),
    "corruption": ({"players": [{"name": "Alice", "colour": "red"}, {"name": "Bruno", "colour": "blue"}, {"name": "Chloe", "colour": "green"}], "first_player": 0}, 4242, corruption_mid, corruption_facts, corruption_secrets),
    "chicago_poker": (cp_setup(), 4242, chicago_mid, chicago_facts, chicago_secrets),
    "reglement": (preset_setup(), 5150, reglement_mid, reglement_facts, reglement_secrets),
}


async def test_every_game_shows_its_public_facts_with_the_pad_closed(make_host: Any, harness_factory: Any) -> None:
    for game_id, (setup, seed, mid, facts_of, secrets_of) in GAMES.items():
        world = await make_world(make_host, harness_factory, f"public-{game_id}", game_id, setup, seed=seed)
        await random_play(world.room, random.Random(seed), mid)
        phone = await world.open_phone(SEAT)
        assert phone.has("hold-private"), (game_id, phone.identifiers())
        assert not phone.has("hide-private") and not phone.has("private-content"), game_id
        board = world.room.view(BOARD)
        text = phone.text()
        facts = facts_of(board)
        assert facts, game_id
        missing = [f for f in facts if f not in text]
        assert not missing, (game_id, missing, text)
        assert EN.t("ui.waiting_for", world.room.names, seats=[SEAT]) not in text, game_id  # never its own player
        me = world.room.view(seat_audience(SEAT)).me
        secrets = secrets_of(me)
        assert secrets, game_id
        sent = bytes_of(phone)
        assert [s for s in secrets if s in sent] == [], game_id
        # the check can fail: open the pad and the secrets are sent
        await show_private(phone)
        opened = bytes_of(phone)
        assert any(s in opened for s in secrets), (game_id, secrets)
        world.harness.check()


async def choose_language(tab: Tab, world: World, value: str) -> None:
    semantics = tab.find("seat-language")
    assert semantics is not None, tab.identifiers()
    dropdown = next(c for c in walk_controls(semantics) if isinstance(c, ft.Dropdown))
    tab.session.apply_patch(dropdown._i, {"value": value})  # as the browser reports a choice
    await tab.session.dispatch_event(dropdown._i, "select", value)
    await world.harness.settle()


async def test_seat_language_menu_switches_only_that_phone(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "seat-language", "vabanque", vabanque_setup(first_player=0), seed=VABANQUE_SEED)
    board = await world.open_board()
    mine, other = await world.open_phone(0), await world.open_phone(1)
    fr = Translator("fr")
    assert EN.t("vabanque.tables") in mine.text() and EN.t("vabanque.tables") in other.text()
    await choose_language(mine, world, "fr")
    assert fr.t("vabanque.tables") in mine.text() and EN.t("vabanque.tables") not in mine.text()
    assert EN.t("vabanque.tables") in other.text() and fr.t("vabanque.tables") not in other.text()
    assert fr.t("vabanque.tables") not in board.text()
    # the other phones and the board keep theirs as the game goes on
    await world.host_enters({"type": "place_chip", "by": world.current(), "table": 1})
    assert fr.t("vabanque.tables") in mine.text() and fr.t("vabanque.tables") not in other.text() + board.text()
    # remembered on that phone only
    assert mine.browser.storage.get("referee.lang") == "fr" and "referee.lang" not in other.browser.storage
    world.harness.check()


async def chicago_world(make_host: Any, harness_factory: Any, name: str, **rules: Any) -> World:
    world = await make_world(make_host, harness_factory, name, "chicago_poker", {**cp_setup(), **rules}, seed=4242, phone_size={"width": 390, "height": 844})
    for raw in OPENING:
        await world.room.submit(raw, channel="host", seat=None, based_on_version=world.room.version)
    return world


async def test_face_down_entry_pad_timer_and_half_made_choice(make_host: Any, harness_factory: Any) -> None:
    world = await chicago_world(make_host, harness_factory, "face-down-entry")
    phone = await world.open_phone(0)
    assert EN.t("chicago_poker.ui.pad_enter_face_down") in phone.text()
    screen = world_screen(phone)
    await show_private(phone)
    first = screen._peek_timer
    assert first is not None
    await phone.click("value-5")
    assert screen._peek_timer is not first and screen._peek_timer.when() >= first.when()  # a tap: the full time again
    assert phone.find("value-5").selected
    # it hides mid-entry (as the 20 s timer does): the value picked is forgotten
    await screen.hide_private()
    await world.harness.settle()
    await show_private(phone)
    assert not phone.find("value-5").selected
    assert not any(s.selected for s in phone.find_all("colour-c1"))
    # and an entry made in one go is accepted
    await phone.click("value-5")
    await phone.click("colour-c3")
    before = world.room.version
    await phone.click("play-1")
    assert world.room.version == before + 1
    world.harness.check()


def world_screen(phone: Tab) -> Any:
    """The SeatScreen of a phone tab (its PageSession handles the page's route changes)."""
    from views.seat import SeatScreen

    screen = phone.page.on_route_change.__self__.screen
    assert isinstance(screen, SeatScreen)
    return screen


async def test_no_phone_waits_for_its_own_player(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "own-wait", "chicago_poker", cp_setup(), seed=4242, phone_size={"width": 390, "height": 844})
    phones = [await world.open_phone(s) for s in (0, 1)]
    names = world.room.names
    # the game waits for Ada while the board turns up the tiles: her phone says what she waits for
    assert world.room.view().phase == "tiles" and world.room.view().waiting_for == (0,)
    assert EN.t("chicago_poker.ui.turn_after_tile") in phones[0].text()
    assert EN.t("ui.waiting_for", names, seats=[0]) in phones[1].text()  # Bea's phone names her
    for raw in OPENING:
        for seat, phone in enumerate(phones):
            assert EN.t("ui.waiting_for", names, seats=[seat]) not in phone.text(), (seat, raw)
        await world.host_enters(raw)
    world.harness.check()


async def test_forced_special_reinforcement_after_confirming_no_gangster(make_host: Any, harness_factory: Any) -> None:
    from companion.games.chicago_poker import GAME, Setup

    def reaches_reinforce(seed: int) -> bool:
        state, rng = GAME.initial_state(Setup.model_validate(cp_setup()), seed), random.Random(seed)
        while GAME.project(state, BOARD).phase != "reinforce":
            action = GAME.random_action(state, rng)
            if action is None:
                return False
            state = GAME.apply(state, action).state
        return True

    seed = next(s for s in range(1, 200) if reaches_reinforce(s))  # the engine alone: fast
    world = await make_world(make_host, harness_factory, "forced-special", "chicago_poker", cp_setup(), seed=seed, phone_size={"width": 390, "height": 844})
    await random_play(world.room, random.Random(seed), lambda v: v.phase == "reinforce", limit=5000)
    seat = world.room.view().waiting_for[0]
    assert world.room.setup.special_reinforcement == "if_forced"  # the default: docs/rules/chicago_poker.md#reinforcements
    phone = await world.open_phone(seat)
    await show_private(phone)
    send = phone.find("reinforce-special-revolver")
    assert send is not None and Tab.clickable_in(send) is None  # not until confirmed
    semantics = phone.find("reinforce-no-gangster")
    assert semantics is not None
    box = next(c for c in walk_controls(semantics) if isinstance(c, ft.Checkbox))
    phone.session.apply_patch(box._i, {"value": True})  # as the browser reports the tick
    await phone.session.dispatch_event(box._i, "change", "true")
    await world.harness.settle()
    picks_before = len(world.room.state.picks)
    await phone.click("reinforce-special-revolver")
    state = world.room.state
    assert not phone.has("banner"), phone.text()
    assert len(state.picks) == picks_before + 1 or state.phase != "reinforce", phone.text()
    world.harness.check()


def control_of(tab: Tab, identifier: str, kind: type) -> Any:
    semantics = tab.find(identifier)
    assert semantics is not None, (identifier, tab.identifiers())
    return next(c for c in walk_controls(semantics) if isinstance(c, kind))


async def drag_event(tab: Tab, world: World, target: Any, name: str, pad: Any, *, settle: bool = True) -> None:
    """A DragTarget event as Flet's client sends it. `settle=False`: the next event follows in
    the same burst (a finger crossing from one target to the next), before any wait is over."""
    data = {"src_id": pad._i, "accept": True} if name == "will_accept" else {"src_id": pad._i}
    if name in ("accept", "move"):
        data.update({"l": {"x": 1, "y": 1}, "g": {"x": 1, "y": 1}})
    await tab.session.dispatch_event(target._i, name, data)
    if settle:
        await world.harness.settle()


async def test_the_pad_says_it_is_a_button(make_host: Any, harness_factory: Any) -> None:
    """The hold pad is a button by its own word, held or not (views/common.py hold_pad): left to
    infer it from the tap action, Flutter's web client gave the pad another role for an update
    where that changed, then a new element without the pad's identifier (CI lost "hold-private")."""
    world = await make_world(make_host, harness_factory, "pad-button", "vabanque", vabanque_setup(first_player=SEAT), seed=VABANQUE_SEED)
    await random_play(world.room, random.Random(1), lambda v: v.phase == "cards" and v.waiting_for == (SEAT,))
    phone = await world.open_phone(SEAT)
    assert phone.find("hold-private").button is True
    detector = control_of(phone, "hold-private", ft.GestureDetector)
    await phone.session.dispatch_event(detector._i, "tap_down", {"k": "touch", "l": {"x": 5, "y": 5}, "g": {"x": 5, "y": 5}})
    await world.harness.settle()
    assert phone.has("card-raise")  # held: the cards show under the pad
    assert phone.find("hold-private").button is True


async def test_hold_slide_lift_event_by_event(make_host: Any, harness_factory: Any) -> None:
    """The pad's events in the order Flutter sends them (tap down, tap cancel, drag start, a
    target entered and left, the drop): the cards stay through the hand-over from tap to drag and
    from one choice to the next, a drop on a card picks it, a drop on the page picks nothing, and a
    target left with no other taking over (a cancelled touch) hides the cards."""
    world = await make_world(make_host, harness_factory, "gesture-events", "vabanque", vabanque_setup(first_player=SEAT), seed=VABANQUE_SEED)
    await random_play(world.room, random.Random(1), lambda v: v.phase == "cards" and v.waiting_for == (SEAT,))
    phone = await world.open_phone(SEAT)
    page_target = next(c for c in walk_controls(phone.page) if isinstance(c, ft.DragTarget))  # the outermost
    detector = control_of(phone, "hold-private", ft.GestureDetector)
    pad = control_of(phone, "hold-private", ft.Draggable)

    async def press() -> None:
        await phone.session.dispatch_event(detector._i, "tap_down", {"k": "touch", "l": {"x": 5, "y": 5}, "g": {"x": 5, "y": 5}})
        await world.harness.settle()
        await phone.session.dispatch_event(detector._i, "tap_cancel", None)
        await phone.session.dispatch_event(pad._i, "drag_start", None)
        await world.harness.settle()  # the hand-over wait is cancelled by the drag start

    # a lift off every choice: nothing picked, hidden
    await press()
    assert phone.has("card-raise")
    await drag_event(phone, world, page_target, "will_accept", pad)
    await drag_event(phone, world, page_target, "accept", pad)
    assert not phone.has("card-raise") and not phone.has("seat-table-1")
    # a slide from the page onto Raise, then Bluff, and a lift there: Bluff is picked
    await press()
    raise_target = control_of(phone, "card-raise", ft.DragTarget)
    bluff_target = control_of(phone, "card-bluff", ft.DragTarget)
    await drag_event(phone, world, page_target, "leave", pad, settle=False)
    await drag_event(phone, world, raise_target, "will_accept", pad)
    await drag_event(phone, world, raise_target, "leave", pad, settle=False)
    await drag_event(phone, world, bluff_target, "will_accept", pad)
    assert phone.has("card-raise")  # still shown through the hand-overs
    await drag_event(phone, world, bluff_target, "accept", pad)
    assert not phone.has("card-raise") and phone.has("seat-table-1")
    assert world.room.view(seat_audience(SEAT)).me.cards_in_hand  # chosen, not yet placed
    # a target left with nothing taking over (the system cancelled the touch): hidden
    await press()
    await drag_event(phone, world, page_target, "will_accept", pad)
    await drag_event(phone, world, page_target, "leave", pad)
    assert not phone.has("card-raise")
    # a tap cancelled with no drag taking over (the system took the touch): hidden
    await phone.session.dispatch_event(detector._i, "tap_down", {"k": "touch", "l": {"x": 5, "y": 5}, "g": {"x": 5, "y": 5}})
    await world.harness.settle()
    assert phone.has("card-raise")
    await phone.session.dispatch_event(detector._i, "tap_cancel", None)
    await world.harness.settle()
    assert not phone.has("card-raise")
    await phone.click("seat-table-2")
    assert any(p.card == "bluff" and p.table == 2 for p in world.room.view(seat_audience(SEAT)).me.my_placements)
    world.harness.check()
