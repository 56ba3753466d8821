"""Chicago Poker pages through real Flet sessions in-process (tests/harness/flet_inprocess.py).

The story (two players, Ada first): a jazz club (UUUDD) where both build a pair of 9s with 2, 3
and 4. The first three cards of each are public and entered straight into the room; the 4th and
5th cards go face down, so they are played on the owners' phones. At the start of Ada's turn 7
the shootout is an exact tie: reinforcements, picked on the phones.

Non-interference at the byte level: two worlds that differ only in Ada's face-down cards (or
only in her reinforcement pick) send identical frames to the board and to Bea's phone until the
reveal, and different frames to Ada's phone.
"""

from __future__ import annotations

from typing import Any

from companion.room import Room
from tests.harness.flet_inprocess import Tab, strings_in
from tests.harness.world import World, first_difference, show_private
from tests.harness.world import make_world as make_game_world
from tests.test_privacy import press

PHONE = {"width": 360, "height": 780}
PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bea", "colour": "blue"}]
SEED = 4242
A, B = 0, 1


def cp_setup() -> dict[str, Any]:
    return {"players": PLAYERS, "first_player": A}


def up(seat: int, business: int, value: int, colour: str) -> dict[str, Any]:
    return {"type": "play_face_up", "by": seat, "business": business, "card": {"value": value, "colour": colour}}


#: public actions up to Ada's turn 5 (her 4th card at the jazz club goes face down)
OPENING: list[dict[str, Any]] = [
    {"type": "reveal_tile", "by": A, "kind": "jazz_club"},
    {"type": "reveal_tile", "by": A, "kind": "speakeasy"},
    up(A, 1, 9, "c1"),
    {"type": "end_turn", "by": A},
    up(B, 1, 9, "c3"),
    {"type": "draw", "by": B},
    {"type": "end_turn", "by": B},
    up(A, 1, 9, "c2"),
    up(A, 1, 2, "c1"),
    {"type": "draw", "by": A},
    {"type": "end_turn", "by": A},
    up(B, 1, 9, "c4"),
    up(B, 1, 2, "c2"),
    {"type": "draw", "by": B},
    {"type": "end_turn", "by": B},
]


async def prepare(room: Room) -> None:
    for raw in OPENING:
        await room.submit(raw, channel="host", seat=None, based_on_version=room.version)


async def make_world(make_host: Any, harness_factory: Any, name: str) -> World:
    world = await make_game_world(make_host, harness_factory, name, "chicago_poker", cp_setup(), seed=SEED, phone_size=PHONE)
    await prepare(world.room)
    await world.open_board()
    for seat in (A, B):
        await world.open_phone(seat)
    return world


async def phone_card(phone: Tab, value: int, colour: str, business: int) -> None:
    await show_private(phone)
    await phone.click(f"value-{value}")
    await phone.click(f"colour-{colour}")
    await phone.click(f"play-{business}")


async def face_down_turns(world: World, a_cards: list[tuple[int, str]]) -> None:
    """Turns 5 and 6: each plays two face-down cards on their phone; the board draws and ends."""
    board = world.board
    assert board is not None
    for value, colour in a_cards:
        await phone_card(world.phones[A], value, colour, 1)
    await board.click("draw")
    await board.click("end-turn")
    for value, colour in [(3, "c2"), (4, "c2")]:
        await phone_card(world.phones[B], value, colour, 1)
    await board.click("draw")


# --------------------------------------------------------------------------------------------


async def test_face_down_cards_do_not_reach_board_or_other_phone(make_host: Any, harness_factory: Any) -> None:
    worlds = []
    for name, cards in (("a", [(3, "c1"), (4, "c1")]), ("b", [(3, "c3"), (4, "c5")])):
        world = await make_world(make_host, harness_factory, name)
        await face_down_turns(world, cards)
        worlds.append(world)
    a, b = worlds
    assert a.room.version == b.room.version
    assert [p.card.pair() for p in a.room.state.businesses[0].columns[A]][3:] == [(3, "c1"), (4, "c1")]
    assert [p.card.pair() for p in b.room.state.businesses[0].columns[A]][3:] == [(3, "c3"), (4, "c5")]
    assert a.board is not None and b.board is not None
    board_a, board_b = a.frames(a.board), b.frames(b.board)
    assert len(board_a) > 10
    assert first_difference(board_a, board_b) is None
    assert first_difference(a.frames(a.phones[B]), b.frames(b.phones[B])) is None
    # The comparison can fail: Ada's own phone shows her face-down cards.
    assert first_difference(a.frames(a.phones[A]), b.frames(b.phones[A])) is not None
    # No face-down card's identity anywhere in the board's strings.
    strings = {s for frame in board_a for s in strings_in(frame)}
    assert "3 of colour 1" not in strings

    # Bea's turn ends, Ada's turn starts with a shootout due: it waits for the host's reveal,
    # which turns every card up.
    marks = [w.board.mark() for w in worlds if w.board is not None]
    for world in worlds:
        assert world.board is not None
        await world.board.click("end-turn")
        assert world.room.view().phase == "reveal"
    assert first_difference(a.frames(a.board, marks[0]), b.frames(b.board, marks[1])) is None
    # the board and every phone say what the reveal turns up (nobody chose anything)
    said = "Shootout at business 1 (jazz club), Ada's marker: every face-down card there is turned up."
    assert a.board.text(a.board.find("reveal-subject")) == said and "Everyone has chosen" not in a.board.text()
    for phone in a.phones.values():
        assert phone.text(phone.find("reveal-subject")) == said
    for world in worlds:
        assert world.board is not None
        await world.board.click("reveal")
        assert world.room.view().phase == "reinforce"
    after_a = a.frames(a.board, marks[0])
    after_b = b.frames(b.board, marks[1])
    assert first_difference(after_a, after_b) is not None, "the shootout must show the revealed cards"


async def test_own_face_down_cards_reach_the_phone_only_while_held(make_host: Any, harness_factory: Any) -> None:
    """Two worlds differ only in Ada's two face-down cards (sent on her seat's channel): her own
    phone gets the same bytes in both while its private section is hidden, and her cards (on the
    grid and in the section) only while the pad is held."""
    worlds = []
    for name, cards in (("a", [(3, "c1"), (4, "c1")]), ("b", [(3, "c3"), (4, "c5")])):
        world = await make_world(make_host, harness_factory, f"held-{name}")
        for value, colour in cards:
            raw = {"type": "play_face_down", "by": A, "business": 1, "card": {"value": value, "colour": colour}}
            await world.room.submit(raw, channel="seat", seat=A, based_on_version=world.room.version)
            await world.harness.settle()
        assert world.phones[A].has("hold-private") and not world.phones[A].has("my-face-down")
        worlds.append(world)
    a, b = worlds
    assert [p.card.pair() for p in a.room.state.businesses[0].columns[A]][3:] == [(3, "c1"), (4, "c1")]
    assert len(a.frames(a.phones[A])) > 2
    assert first_difference(a.frames(a.phones[A]), b.frames(b.phones[A])) is None
    sent = {s for frame in a.phones[A].messages() for s in strings_in(frame)}
    assert "my-face-down" not in sent and "#D7CCC8" not in sent  # the section, the own-card mark
    marks = [w.phones[A].mark() for w in worlds]
    for world in worlds:
        await press(world.phones[A], "tap_down")
        assert world.phones[A].has("my-face-down") and world.phones[A].has("play-card")
    held = {s for frame in a.phones[A].messages(marks[0]) for s in strings_in(frame)}
    assert "my-face-down" in held and "#D7CCC8" in held
    assert first_difference(a.frames(a.phones[A], marks[0]), b.frames(b.phones[A], marks[1])) is not None
    # the picker greys out the seat's own cards: the 3 of colour 1 is on the table in world a only
    await a.phones[A].click("value-3")
    await b.phones[A].click("value-3")
    assert a.phones[A].clickable_in(a.phones[A].find("colour-c1")) is None  # type: ignore[arg-type]
    assert b.phones[A].clickable_in(b.phones[A].find("colour-c1")) is not None  # type: ignore[arg-type]
    await press(a.phones[A], "tap_up")
    assert not a.phones[A].has("my-face-down") and not a.phones[A].has("value-3")


async def test_reinforcement_pick_is_secret_until_all_have_picked(make_host: Any, harness_factory: Any) -> None:
    worlds = []
    for name, pick in (("a", (13, "c1")), ("b", (12, "c5"))):
        world = await make_world(make_host, harness_factory, name)
        await face_down_turns(world, [(3, "c1"), (4, "c1")])
        assert world.board is not None
        await world.board.click("end-turn")
        await world.board.click("reveal")
        assert world.room.view().phase == "reinforce"
        phone = world.phones[A]
        assert phone.has("reinforce") and world.phones[B].has("reinforce")
        assert not phone.has("value-13"), "the reinforcement picker is shown only while held"
        await phone_card_pick(phone, *pick)
        assert phone.has("my-pick") and not phone.has("reinforce") and not phone.has("my-pick-card")
        await show_private(phone)
        assert "Your reinforcement: " in phone.text(phone.find("my-pick-card"))
        await phone.click("hide-private")
        worlds.append(world)
    a, b = worlds
    assert a.board is not None and b.board is not None
    assert "Reinforcements: waiting for Bea" in a.board.text()
    assert first_difference(a.frames(a.board), b.frames(b.board)) is None
    assert first_difference(a.frames(a.phones[B]), b.frames(b.phones[B])) is None
    assert first_difference(a.frames(a.phones[A]), b.frames(b.phones[A])) is not None
    # Bea's pick completes the round, which waits for the reveal; then Ada wins with either card.
    marks = [w.board.mark() for w in worlds if w.board is not None]
    for world in worlds:
        phone = world.phones[B]
        await phone_card_pick(phone, 8, "c3")
        assert world.room.view().phase == "reveal"
    assert first_difference(a.frames(a.board, marks[0]), b.frames(b.board, marks[1])) is None
    for world in worlds:
        assert world.board is not None
        await world.board.click("reveal")
        assert world.room.state.shootouts[-1].winner == A
        assert world.room.view().phase == "tiles"
    assert first_difference(a.frames(a.board, marks[0]), b.frames(b.board, marks[1])) is not None


async def phone_card_pick(phone: Tab, value: int, colour: str) -> None:
    await show_private(phone)
    await phone.click(f"value-{value}")
    await phone.click(f"colour-{colour}")
    await phone.click("reinforce-send")


async def test_shootout_steps_on_the_board_and_a_new_tile(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "steps")
    board = world.board
    assert board is not None
    # The phone says where a card goes face up or face down.
    phone = world.phones[A]
    # Ada's next card is face down at both businesses (jazz club 4th, speakeasy 1st): the board
    # offers no card entry, only the draw, and says why. The phone's card entry is private.
    assert "goes FACE" not in phone.text()
    await show_private(phone)
    assert phone.text().count("goes FACE DOWN (secret)") == 2 and "goes FACE UP" not in phone.text()
    assert not board.has("board-card") and board.has("draw")
    assert "Face-down cards are entered on the player's own phone." in board.text()
    await face_down_turns(world, [(3, "c1"), (4, "c1")])
    await board.click("end-turn")
    await board.click("reveal")
    # the panel opens on the newest step (the reinforcement round the tie calls for); the tied
    # hands are one step back
    text = board.text()
    assert "Shootout at business 1 (jazz club)" in text and "waiting for Ada and Bea" in text and "Step 2 of 2" in text
    # the log tells what happened when it happened, not who is still waiting (it stays as it is
    # while the panel above it moves on)
    assert "Reinforcement round 1 begins: Ada and Bea each choose a card." in text
    await board.click("step-previous")
    text = board.text()
    assert "pair" in text and "TIED" in text
    await phone_card_pick(world.phones[A], 10, "c1")
    # the panel waits for who still chooses, and once every card is chosen, for the reveal (it
    # said "waiting for Ada and Bea" beside two cards chosen: a reviewer's group did not know why)
    await board.click("step-next")
    assert "Reinforcement round 1: waiting for Bea." in board.text(board.find("shootout"))
    await phone_card_pick(world.phones[B], 10, "c2")
    assert "Reinforcement round 1: every card is chosen; the reveal turns them up." in board.text(board.find("shootout"))
    assert "waiting for" not in board.text(board.find("shootout"))
    # every pick is in: the round waits for the host's reveal; then it is still tied
    assert world.room.view().phase == "reveal"
    assert board.text(board.find("reveal-subject")) == "Shootout at business 1 (jazz club): the reinforcements are turned up."
    await board.click("reveal")
    # a new step: the panel goes to it, wherever this page had stepped back to
    assert "Reinforcement round 2" in board.text()
    await board.click("step-previous")
    assert "Reinforcements, round 1: revealed" in board.text()
    assert "still tied" in board.text()
    await phone_card_pick(world.phones[A], 13, "c1")
    await phone_card_pick(world.phones[B], 8, "c3")
    await board.click("reveal")
    assert world.room.state.shootouts[-1].winner == A
    # won: the panel opens on the verdict (not on the tied hands three taps back)
    text = board.text()
    assert "takes business 1 (jazz club)" in text and "highest reinforcement (13)" in text and "Step 4 of 4" in text
    await board.click("step-previous")
    assert "round 2: revealed" in board.text()
    await board.click("tile-brewery")
    assert world.room.view().phase == "actions"
    assert world.room.view().businesses[-1].kind == "brewery"
    # The finished shootout can be looked at again, on this device only.
    assert not board.has("shootout")
    await board.click("last-shootout")
    assert board.has("shootout") and not world.phones[B].has("shootout")
    # shown again, it opens on its verdict too
    assert "takes business 1 (jazz club)" in board.text() and "Step 4 of 4" in board.text()
    # A face-up card entered on the board for Ada, at the new brewery (business 3).
    assert board.has("board-card") and "goes FACE UP" in board.text()
    await board.click("value-7")
    await board.click("colour-c5")
    await board.click("play-3")
    column = world.room.view().businesses[-1].columns[A]
    assert [(c.card.value, c.card.colour) for c in column.cards if c.card] == [(7, "c5")]
    # The 7 of colour 5 is on the table: the pickers no longer offer it.
    await show_private(world.phones[A])
    await world.phones[A].click("value-7")
    assert world.phones[A].clickable_in(world.phones[A].find("colour-c5")) is None  # type: ignore[arg-type]


async def test_special_cards_on_the_phone(make_host: Any, harness_factory: Any) -> None:
    """Ada (turn 5): Revolver, a draw, Police Raid on Bea, Liquidation of Bea's last card,
    Limousine; then Bea (turn 6) bribes the liquidated card back. The raid's result is on Ada's
    phone only; the Bribe's card on Bea's only."""
    world = await make_world(make_host, harness_factory, "specials")
    board, ada, bea = world.board, world.phones[A], world.phones[B]
    assert board is not None
    assert ada.has("special-revolver") and not bea.has("special-revolver")
    assert not board.has("special-revolver")  # special cards are played on the phone
    await ada.click("special-revolver")
    assert ada.has("special-panel-revolver")
    await ada.click("special-confirm")
    assert world.room.view().actions_left == 4
    await ada.click("draw")
    await ada.click("special-police_raid")
    await ada.click("target-1-1")  # chosen, not played: a Police Raid cannot be taken back
    assert not world.room.state.raids and ada.find("target-1-1").selected
    assert "Play Police Raid at business 1: Bea" in ada.text()
    await ada.click("special-confirm")
    assert not ada.has("raid-1-1"), "the raid's result is private: hidden after the action"
    assert "Hold here to see what your Police Raid found" in ada.text()  # said, not shown
    await show_private(ada)
    assert ada.has("raid-1-1") and "Your Police Raid at business 1" in ada.text()
    assert not bea.has("raid-1-1") and not bea.has("hold-private") and not board.has("raid-1-1")  # Bea has no secret yet
    await ada.click("special-liquidation")
    await ada.click("target-1-1")
    await ada.click("special-confirm")
    assert [c.card.pair() for c in world.room.state.businesses[0].columns[B]] == [(9, "c3"), (9, "c4")]
    await ada.click("special-limousine")
    await ada.click("limo-from-1")
    await ada.click("limo-card-3")
    await ada.click("limo-to-2")
    # the chosen source and destination are told to screen readers as chosen, the others not
    assert ada.find("limo-from-1").selected and ada.find("limo-to-2").selected  # type: ignore[union-attr]
    assert not any(ada.find(i).selected for i in ada.identifiers() if i.startswith(("limo-from-", "limo-to-")) and i not in ("limo-from-1", "limo-to-2"))  # type: ignore[union-attr]
    await ada.click("special-confirm")
    state = world.room.state
    assert [(p.card.pair(), p.face_up) for p in state.businesses[1].columns[A]] == [((2, "c1"), False)]
    assert world.room.view().actions_left == 0
    await ada.click("end-turn")
    assert bea.has("your-turn")
    await bea.click("special-bribe")
    assert bea.has("bribe-2-c2")
    await bea.click("bribe-2-c2")
    assert "Taken with your Bribe" not in bea.text()
    await show_private(bea)
    assert "Taken with your Bribe (in your hand): 2 of colour 2" in bea.text()
    assert "Taken with your Bribe" not in ada.text() and "Taken with your Bribe" not in board.text()
    # The face-down card moved by the Limousine shows its face on Ada's phone only.
    assert world.room.view().businesses[1].columns[A].cards[0].card is None


async def test_police_raid_result_reaches_the_raider_only(make_host: Any, harness_factory: Any) -> None:
    """Three players. Bea's first card at the speakeasy is face down (entered on her own channel);
    two worlds differ only in that card. Ada raids Bea there from her phone: the board and Cyd's
    phone get the same bytes in both worlds; so does Ada's phone, as long as its private section
    stays hidden; holding it shows the card."""
    C = 2
    players = [*PLAYERS, {"name": "Cyd", "colour": "green"}]
    worlds = []
    for name, secret in (("a", (5, "c1")), ("b", (6, "c2"))):
        world = await make_game_world(make_host, harness_factory, f"raid-{name}", "chicago_poker", {"players": players, "first_player": A}, seed=SEED, phone_size=PHONE)
        await world.open_board()
        for seat in (A, C):
            await world.open_phone(seat)

        for raw in (
            {"type": "reveal_tile", "by": A, "kind": "jazz_club"},
            {"type": "reveal_tile", "by": A, "kind": "speakeasy"},
            up(A, 1, 9, "c1"),
            {"type": "end_turn", "by": A},
        ):
            await world.host_enters(raw)
        card = {"value": secret[0], "colour": secret[1]}
        await world.submit_for(B, {"type": "play_face_down", "by": B, "business": 2, "card": card})
        for raw in (
            {"type": "draw", "by": B},
            {"type": "end_turn", "by": B},
            {"type": "draw", "by": C},
            {"type": "draw", "by": C},
            up(C, 1, 10, "c5"),
            {"type": "end_turn", "by": C},
        ):
            await world.host_enters(raw)
        await world.harness.settle()
        worlds.append(world)
    a, b = worlds
    assert a.board is not None and b.board is not None
    marks = [w.phones[A].mark() for w in worlds]
    for world in worlds:
        await world.phones[A].click("special-police_raid")
        await world.phones[A].click("target-2-1")
        await world.phones[A].click("special-confirm")
        assert world.room.state.raids and not world.phones[A].has("raid-2-1")
        assert not world.phones[C].has("raid-2-1") and not world.board.has("raid-2-1")  # type: ignore[union-attr]
    assert first_difference(a.frames(a.board), b.frames(b.board)) is None
    assert first_difference(a.frames(a.phones[C]), b.frames(b.phones[C])) is None
    # Hidden: not one byte of the raid's result reached Ada's phone.
    assert len(a.frames(a.phones[A], marks[0])) > 1
    assert first_difference(a.frames(a.phones[A]), b.frames(b.phones[A])) is None
    sent = {s for frame in a.phones[A].messages() for s in strings_in(frame)}
    assert not any("Your Police Raid" in s for s in sent) and "raid-2-1" not in sent
    held = [w.phones[A].mark() for w in worlds]
    for world in worlds:
        await press(world.phones[A], "tap_down")
        assert world.phones[A].has("raid-2-1")
    assert "Your Police Raid at business 2: Bea's 1 face-down card" in a.phones[A].text()
    assert first_difference(a.frames(a.phones[A], held[0]), b.frames(b.phones[A], held[1])) is not None
    await press(a.phones[A], "tap_up")
    assert not a.phones[A].has("raid-2-1") and "Your Police Raid" not in a.phones[A].text()


def test_every_phase_of_random_games_renders() -> None:
    """Board and phones built (not served) for every state of seeded random games, with every
    house rule variant the setup offers: no phase or special case crashes the pages."""
    import random

    from companion.engine import BOARD, seat_audience
    from companion.games.chicago_poker import GAME, Setup
    from views.common import PEEK_KEY, PEEK_SHOWN
    from views.games import get
    from views.games.chicago_poker.pieces import SHOW_LAST
    from views.i18n import Translator

    ui = get("chicago_poker")

    tr = Translator("en")
    colours = ["red", "blue", "green", "yellow", "purple", "orange"]
    phases: set[str] = set()
    for seed, players, rules in [
        (1, 2, {}),
        (2, 4, {"empty_hand_reinforcement": "deck_top", "marker_order": "choose"}),
        (3, 6, {"short_game": True, "special_reinforcement": "zero"}),
        (4, 3, {"special_cards": False, "hand_ranking": "rarity"}),
    ]:
        from views.screen import GameContext

        names = [f"P{i}" for i in range(players)]
        setup = Setup.model_validate({"players": [{"name": n, "colour": c} for n, c in zip(names, colours)], **rules})
        state = GAME.initial_state(setup, seed)
        rng = random.Random(seed)
        ui_state: dict[Any, Any] = {}

        def ctx(seat: int | None) -> Any:
            return GameContext(tr=tr, names=names, colours=colours[:players], width=900.0, height=700.0, seat=seat, acts_for_current=seat is None, submit=None, ui=ui_state, rerender=None)

        step = 0
        while True:
            step += 1
            phases.add(state.phase)
            if state.phase == "actions" and step % 7:  # every phase but the long one, always
                action = GAME.random_action(state, rng)
                assert action is not None
                state = GAME.apply(state, action).state
                continue
            board = GAME.project(state, BOARD)
            ui.board_body(ctx(None), board, None)
            ui.status_line(ctx(None), board)
            for seat in set(board.waiting_for) | {0}:
                view = GAME.project(state, seat_audience(seat))
                for peek in (False, PEEK_SHOWN):  # the page hidden, then with its secrets open
                    ui_state[PEEK_KEY] = peek
                    ui.seat_body(ctx(seat), view)
                ui_state[PEEK_KEY] = False
                ui.seat_summary(ctx(seat), view, seat)
            if board.shootouts:  # step through the last shootout's rulings too
                ui_state[SHOW_LAST] = len(board.shootouts)
            action = GAME.random_action(state, rng)
            if action is None:
                break
            state = GAME.apply(state, action).state
    assert {"tiles", "actions", "reinforce", "deck_card", "over"} <= phases, phases
