"""Règlement de comptes pages through real Flet sessions in-process (tests/harness/flet_inprocess.py).

The table: four players on the reconstructed default board, seated from a preset (28 gangsters
on the first 28 seats in ring order, the players in turn; #11 and #12 stay empty), or by free
seating. The byte-level non-interference test: two worlds differing only in one seat's private
hand note (the game's only secret) send identical bytes to the board and to another seat's phone.
"""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from companion.games.reglement import GANG_BY_PLAYERS, KINDS
from companion.games.reglement_board import default_board
from tests.harness.flet_inprocess import Tab, strings_in, walk_controls
from tests.harness.world import World, first_difference, show_private
from tests.harness.world import make_world as make_game_world
from tests.test_privacy import press

PHONE = {"width": 360, "height": 780}
PLAYERS: list[dict[str, str]] = [
    {"name": "Yvette", "colour": "yellow"},
    {"name": "Raoul", "colour": "red"},
    {"name": "Bianca", "colour": "blue"},
    {"name": "Gaston", "colour": "green"},
]
NAMES = [p["name"] for p in PLAYERS]
YELLOW, RED, BLUE, GREEN = range(4)
SEED = 5150


def preset_seating(players: int = 4) -> list[dict[str, Any]]:
    """Gangsters on the board's seats in ring order, players taking turns (A yellow, B red...)."""
    kinds = {p: [k for k, n in zip(KINDS, GANG_BY_PLAYERS[players], strict=True) for _ in range(n)] for p in range(players)}
    ids = default_board().ids
    out = []
    for i in range(players * sum(GANG_BY_PLAYERS[players])):
        player = i % players
        out.append({"player": player, "kind": kinds[player].pop(0), "seat": ids[i]})
    return out


def preset_setup(**extra: Any) -> dict[str, Any]:
    return {"players": PLAYERS, "seating": "preset", "preset": preset_seating(), **extra}


async def note_hand(phone: Tab, cards: list[str]) -> None:
    """Note cards on the phone: + per card (a draft on the phone), then Save (the action)."""
    await show_private(phone)
    for card in cards:
        await phone.click(f"note-plus-{card}")
    await phone.click("note-save")


async def make_world(make_host: Any, harness_factory: Any, name: str, setup: dict[str, Any] | None = None) -> World:
    return await make_game_world(make_host, harness_factory, name, "reglement", setup or preset_setup(), seed=SEED, phone_size=PHONE)


# --------------------------------------------------------------------------------------------
# byte-level non-interference
# --------------------------------------------------------------------------------------------


async def test_hand_note_does_not_reach_board_or_other_seat(make_host: Any, harness_factory: Any) -> None:
    """Red notes a different hand on their phone in each world; the host then enters the same
    public plays. Board and Blue's phone get the same bytes; Red's own phone does not."""
    secret, observer = RED, BLUE
    notes = {"a": ["pan", "pan", "knife"], "b": ["boum", "move", "alerte"]}
    worlds = []
    for name, cards in notes.items():
        world = await make_world(make_host, harness_factory, name)
        board = await world.open_board()
        phone = await world.open_phone(secret)
        await world.open_phone(observer)
        await note_hand(phone, cards)
        # Red looks at the helper for a card (a private view state) and the host plays Yellow's turn
        await show_private(phone)
        await phone.click("help-pan")
        await board.click("card-order_cake")
        await board.click("chair-G")
        await board.click("end-turn")
        await board.click("step-previous")  # the steps open on the newest: one back
        worlds.append(world)
    a, b = worlds
    assert a.room.state.hands[secret] != b.room.state.hands[secret]
    assert sorted(a.room.state.hands[secret]) == sorted(notes["a"])
    assert a.room.version == b.room.version == 3  # the note (saved once), the cake, the end of the turn
    assert a.board is not None and b.board is not None
    board_a, board_b = a.frames(a.board), b.frames(b.board)
    assert len(board_a) > 5
    assert first_difference(board_a, board_b) is None
    obs_a, obs_b = a.frames(a.phones[observer]), b.frames(b.phones[observer])
    assert len(obs_a) > 5
    assert first_difference(obs_a, obs_b) is None
    # the comparison can fail: the secret seat's own phone did receive different bytes
    assert first_difference(a.frames(a.phones[secret]), b.frames(b.phones[secret])) is not None
    # and no card name of the note reached the board as text
    strings = {s for frame in board_a for s in strings_in(frame)}
    assert not any("noted" in s for s in strings)


async def test_hand_note_reaches_its_own_phone_only_while_held(make_host: Any, harness_factory: Any) -> None:
    """Two worlds differ only in Red's hand note (sent on Red's channel). While the private
    section is hidden, Red's own phone gets the same bytes in both; holding the pad shows it."""
    notes = {"a": ("pan", "pan", "knife"), "b": ("boum", "move", "alerte")}
    worlds = []
    for name, cards in notes.items():
        world = await make_world(make_host, harness_factory, f"held-{name}")
        phone = await world.open_phone(RED)
        await world.room.submit({"type": "note_hand", "by": RED, "cards": list(cards)}, channel="seat", seat=RED, based_on_version=world.room.version)
        await world.harness.settle()
        await world.host_enters({"type": "order_cake", "by": YELLOW, "seat": "G"})  # a public change: redrawn
        assert phone.has("hold-private") and not phone.has("hand-note") and not phone.has("helper")
        worlds.append(world)
    a, b = worlds
    assert list(a.room.state.hands[RED]) == list(notes["a"])
    phone_a, phone_b = a.phones[RED], b.phones[RED]
    assert len(a.frames(phone_a)) > 2
    assert first_difference(a.frames(phone_a), b.frames(phone_b)) is None
    sent = {s for frame in phone_a.messages() for s in strings_in(frame)}
    assert not any("noted" in s for s in sent) and not any(s.startswith("Pan!:") for s in sent)
    marks = [phone_a.mark(), phone_b.mark()]
    await press(phone_a, "tap_down")
    await press(phone_b, "tap_down")
    assert "3 cards noted" in phone_a.text(phone_a.find("hand-note")) and "Pan!: 2" in phone_a.text()
    assert "Boum!: 1" in phone_b.text() and "Pan!: 0" in phone_b.text()
    assert first_difference(a.frames(phone_a, marks[0]), b.frames(phone_b, marks[1])) is not None
    await press(phone_a, "tap_up")
    assert not phone_a.has("hand-note") and "noted" not in phone_a.text()


# --------------------------------------------------------------------------------------------
# the board: a turn entered by the host, with the cake and income steps
# --------------------------------------------------------------------------------------------


async def play_round_to_explosion(world: World) -> None:
    """Yellow orders a cake at G (blue's Flingueur between red's F and green's H); everyone else
    passes; the host ends Green's turn: Yellow's cake explodes, then Yellow's income."""
    await world.host_enters({"type": "order_cake", "by": YELLOW, "seat": "G"})
    await world.host_enters({"type": "end_turn", "by": YELLOW})
    for seat in (RED, BLUE):
        await world.host_enters({"type": "discard", "by": seat})
        await world.host_enters({"type": "end_turn", "by": seat})
    await world.host_enters({"type": "discard", "by": GREEN})


async def test_board_steps_through_explosion_and_income(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "boom")
    board = await world.open_board()
    text = board.text()
    assert "Yvette plays" in text
    assert "Bank" in text and "89,000" in text  # 90,000 less Yvette's first income
    await play_round_to_explosion(world)
    money_before = world.room.view().gangs[YELLOW].money
    await board.click("end-turn")  # the host ends Green's turn
    view = world.room.view()
    assert view.turn == YELLOW and view.gangs[YELLOW].money == money_before + 1_000
    assert [world.room.state.gangsters[i].alive for i in range(len(view.gangsters)) if view.gangsters[i].seat is None and not view.gangsters[i].alive]
    # the steps strip: the cake exploded at G and killed three; income +1,000
    steps = board.text(board.find("turn-steps"))
    assert "exploded at G" in steps and "(3 killed)" in steps and "+1,000" in steps
    # step by step: the panel opens on the newest ruling (the income), never on the previous
    # player's draw; Previous goes back through the explosion to the turn's first ruling
    seen = [board.text(board.find("step-now"))]
    assert "Yvette earns 1,000" in seen[0] and not board.clickable_in(board.find("step-next"))  # type: ignore[arg-type]
    while board.find("step-previous") is not None and board.clickable_in(board.find("step-previous")) is not None:
        await board.click("step-previous")
        seen.append(board.text(board.find("step-now")))
    joined = "\n".join(seen)
    assert "Yvette's cake explodes at G" in joined
    assert joined.count("is killed") == 3
    assert "draws" in seen[-1]  # the turn's first ruling: Green drew back up
    # the chairs of the dead are empty now
    assert "empty seat" in (board.find("chair-G").label or "")


async def test_the_players_phone_says_what_the_start_of_the_turn_did(make_host: Any, harness_factory: Any) -> None:
    """Yvette's turn begins with her own cake exploding and her income: her phone's gang panel
    says both (the board's step strip and the rulings under the table are out of sight on a
    phone), in the lines that say where her cake is and her income if paid now at other times."""
    world = await make_world(make_host, harness_factory, "phone-turn-start")
    board = await world.open_board()
    yellow, red = await world.open_phone(YELLOW), await world.open_phone(RED)

    def gang(phone: Tab) -> str:
        panel = phone.find("my-gang")
        assert panel is not None, phone.identifiers()
        return phone.text(panel)

    assert "Your income this turn: +1,000." in gang(yellow) and "Your cake: in front of you." in gang(yellow)  # her first turn: no cake out
    assert "Income if paid now" in gang(red) and "this turn" not in gang(red)
    await play_round_to_explosion(world)
    assert "this turn" not in gang(yellow) and "Your cake: at G;" in gang(yellow)
    await board.click("end-turn")  # the host ends Green's turn
    assert "Your cake exploded at G (3 killed)." in gang(yellow) and "Your income this turn: +1,000." in gang(yellow)
    assert "exploded" not in gang(red) and "Income if paid now" in gang(red)
    # a new cake ordered in the same turn: where it is now, not where the old one exploded
    await world.host_enters({"type": "order_cake", "by": YELLOW, "seat": "K"})
    assert "Your cake: at K;" in gang(yellow) and "exploded" not in gang(yellow)


def rings(tab: Tab, identifier: str | None = None) -> set[str]:
    """The chairs drawn with a ring (a 4 px border) on the page, or under `identifier`."""
    root = tab.page if identifier is None else tab.find(identifier)
    assert root is not None, tab.identifiers()
    chairs = {f"s{seat}" for seat in default_board().ids}
    frames = [c for c in walk_controls(root) if isinstance(c, ft.Container) and c.key in chairs]
    assert len(frames) == len(default_board().ids), [c.key for c in frames]
    return {str(c.key)[1:] for c in frames if c.border is not None and c.border.top.width == 4}


async def test_a_phone_rings_the_chairs_of_a_step_its_player_went_back_to(make_host: Any, harness_factory: Any) -> None:
    """The board rings the newest step's chairs for the whole table; a phone only those of a
    step its player steps back to (the newest moves at every action)."""
    world = await make_world(make_host, harness_factory, "phone-rings")
    board = await world.open_board()
    phone = await world.open_phone(YELLOW)
    await board.click("card-pan")
    await board.click("chair-P")  # Yvette's Flingueur at E shoots Gaston's Lame at P
    assert "P" in phone.text(phone.find("phone-step-now"))
    assert "P" in rings(board) and rings(phone, "phone-table") == set()
    # another table, where Yvette's turn opened with her cake exploding at G, then her income
    world = await make_world(make_host, harness_factory, "phone-rings-back")
    board = await world.open_board()
    phone = await world.open_phone(YELLOW)
    await play_round_to_explosion(world)
    await board.click("end-turn")
    assert "Yvette earns 1,000" in phone.text(phone.find("phone-step-now"))
    while "Gaston's Flingueur at H is killed" not in phone.text(phone.find("phone-step-now")):
        await phone.click("phone-step-previous")
    assert rings(phone, "phone-table") == {"H"}
    await phone.click("phone-step-last")
    assert rings(phone, "phone-table") == set()


async def test_a_phone_shows_its_turn_buttons_mounted_since_the_play_began(make_host: Any, harness_factory: Any) -> None:
    """A seat's turn buttons are on its phone through the play, hidden off its turn (nothing in
    them is secret): the turn's start sends the flag that shows them, not the buttons; its first
    card hides "Set a card aside" and enables "End turn", its end hides them again."""
    world = await make_world(make_host, harness_factory, "turn-panel")
    phone = await world.open_phone(RED)
    assert world.current() == YELLOW
    assert phone.find("end-turn") is None and phone.find("discard") is None  # not its turn: not shown
    mounted = {ident: phone.find(ident, hidden=True) for ident in ("discard", "end-turn")}
    assert all(node is not None for node in mounted.values()), phone.identifiers()
    await world.host_enters({"type": "discard", "by": YELLOW})
    mark = phone.mark()
    await world.host_enters({"type": "end_turn", "by": YELLOW})
    assert world.current() == RED
    assert all(phone.find(ident) is node for ident, node in mounted.items()), "the turn's start drew the buttons again"
    sent = b"".join(phone.frames_since(mark))
    assert b"Set a card aside" not in sent and b"End turn" not in sent
    await world.host_enters({"type": "discard", "by": RED})
    assert phone.find("discard") is None and phone.find("end-turn") is not None
    await world.host_enters({"type": "end_turn", "by": RED})
    assert phone.find("end-turn") is None and phone.find("discard", hidden=True) is not None


async def test_host_enters_pan_and_a_refusal_shows_why(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "pan")
    board = await world.open_board()
    # Yellow's Flingueur sits at E, facing P (green's Lame)
    await board.click("card-pan")
    assert "tap the opponent to shoot" in board.text()
    version = world.room.version
    await board.click("chair-Q")  # nobody of Yellow's can shoot Q (and Q is Yellow's own)
    assert world.room.version == version
    assert board.has("banner")
    assert "tap the opponent to shoot" in board.text()  # the card stays chosen after a refusal
    await board.click("chair-P")
    assert world.room.version == version + 1
    assert "plays Pan!" in board.text()
    assert world.room.view().seats[default_board().index("P")].gangster is None


async def test_host_enters_pills_move_pass_and_boum(make_host: Any, harness_factory: Any) -> None:
    """The card-entry flows that take more than one tap, all on the host board."""
    world = await make_world(make_host, harness_factory, "flows")
    board = await world.open_board()
    state = lambda: world.room.state  # noqa: E731

    # Yvette: a pill for Raoul's Lame at the glass seat N (a view state until confirmed) ...
    await board.click("card-pills")
    # a chair that cannot take them says why at the tap, and is not chosen
    empty = next(s.id for s in world.room.view().seats if s.gangster is None)
    await board.click(f"chair-{empty}")
    assert board.text(board.find("pill-refusal")) == f"Nobody is sitting at {empty}." and "Give the pills: —" in board.text()
    await board.click("chair-N")
    assert world.room.version == 0 and "Give the pills: N" in board.text() and not board.has("pill-refusal")
    await board.click("pills-confirm")
    assert "Raoul's Lame d'Acier at N falls asleep." in board.text()
    sleeper = world.room.view().seats[default_board().index("N")].gangster
    assert world.room.view().gangsters[sleeper].asleep
    # ... then a Déplacement: her Parrain from A to the empty #11 (two taps)
    await board.click("card-move")
    assert "tap the gangster who moves" in board.text()
    await board.click("chair-A")
    assert "tap the empty seat he moves to" in board.text()
    await board.click("chair-#11")
    assert state().cards_played == ("pills", "move")
    assert "moves their Parrain from A to #11" in board.text()
    await board.click("end-turn")

    # Raoul orders his cake at #12; Bianca passes it on (pick the cake, then the way)
    await board.click("card-order_cake")
    await board.click("chair-#12")
    assert state().cakes[RED] == "#12"
    await board.click("end-turn")
    await board.click("card-pass_cake")
    await board.click("chair-#12")
    ways = [i for i in board.identifiers() if i.startswith("dir-")]
    assert ways, board.identifiers()
    await board.click(ways[0])
    moved_to = state().cakes[RED]
    assert moved_to not in (None, "#12")
    assert "passes Raoul's cake" in board.text()
    await board.click("end-turn")

    # Gaston blows it up with Boum!
    await board.click("card-boum")
    await board.click(f"chair-{moved_to}")
    assert state().cakes[RED] is None
    assert f"Gaston plays Boum! on Raoul's cake at {moved_to}." in board.text()
    # the turn's steps strip shows the card
    assert "Boum!" in board.text(board.find("turn-steps"))


async def test_alerte_reseating_on_the_board(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "alerte")
    board = await world.open_board()
    phone = await world.open_phone(YELLOW)
    await board.click("card-alerte")
    assert world.room.version == 0  # one tap chooses the card; Alerte! waits for its confirmation
    await board.click("alerte-confirm")
    view = world.room.view()
    assert view.phase == "alerte" and view.placer == YELLOW
    assert "Alerte!: Yvette re-seats a gangster" in board.text()
    assert phone.has("pick-A") and phone.has("kind-parrain")
    await phone.click("kind-cogneur")
    await phone.click("pick-B")
    g = world.room.view().gangsters[world.room.view().seats[1].gangster]
    assert (g.owner, g.kind) == (YELLOW, "cogneur")
    assert world.room.view().placer == GREEN  # counter-clockwise from the card's player
    # the host seats the rest (the first gangster still to seat, on the first empty seat)
    while world.room.view().phase == "alerte":
        empty = next(s.id for s in world.room.view().seats if s.gangster is None)
        await board.click(f"chair-{empty}")
    assert world.room.view().phase == "play" and world.room.view().turn == YELLOW
    assert "Everyone is back at the table" in board.text()


async def test_free_seating_on_phone_and_board(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "seat", {"players": PLAYERS, "first_placer": BLUE})
    board = await world.open_board()
    phone = await world.open_phone(BLUE)
    other = await world.open_phone(RED)
    assert "Bianca seats a gangster" in board.text()
    assert phone.has("your-turn") and phone.has("pick-A")
    assert not other.has("pick-A")
    await phone.click("kind-lame")
    assert world.room.version == 0  # choosing the gangster is a view state, not an action
    before = [c.key for c in walk_controls(phone.session.page) if isinstance(c, ft.Semantics) and str(c.key).startswith("pick-")]
    await phone.click("pick-C")
    g = world.room.view().gangsters[world.room.view().seats[2].gangster]
    assert (g.owner, g.kind) == (BLUE, "lame")
    # C stays in its place, greyed and untappable: the seats after it do not move
    after = [c.key for c in walk_controls(phone.session.page) if isinstance(c, ft.Semantics) and str(c.key).startswith("pick-")]
    assert after == before and phone.find("taken-C", hidden=True) is not None and phone.find("pick-C", hidden=True) is None
    # counter-clockwise: Red is next; the host seats Red's Parrain from the board
    assert world.room.view().placer == RED
    await board.click("chair-D")
    g = world.room.view().gangsters[world.room.view().seats[3].gangster]
    assert (g.owner, g.kind) == (RED, "parrain")
    assert world.room.view().placer == YELLOW  # counter-clockwise again
    assert not other.has("pick-A") and not phone.has("pick-A")
    assert "Yvette seats a gangster" in board.text()


async def test_phone_helper_lists_legal_targets_and_plays_one(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "helper")
    phone = await world.open_phone(YELLOW)
    other = await world.open_phone(RED)
    assert not phone.has("helper") and not phone.has("help-pan")  # private: hidden until held
    await show_private(phone)
    await phone.click("help-pan")
    helper = phone.text(phone.find("helper"))
    assert "Pan!: you can shoot Gaston's Lame d'Acier at P from your Flingueur at E" in helper
    # Red is not on turn: the helper explains, and offers no button
    await show_private(other)
    await other.click("help-knife")
    assert "Not now" in other.text(other.find("helper"))
    await phone.click("target-0")
    assert world.room.state.cards_played == ("pan",)
    assert phone.has("end-turn")
    await phone.click("end-turn")
    assert world.room.view().turn == RED and other.has("your-turn")


# --------------------------------------------------------------------------------------------
# whole games: every phase renders (seating, play, Alerte! re-seating, the end)
# --------------------------------------------------------------------------------------------


async def test_random_game_renders_to_the_end(make_host: Any, harness_factory: Any) -> None:
    """A seeded random game (free seating, 3 players) played into the room. At each new phase
    (seating, play, Alerte! re-seating, over) and every 40 actions, a board and a phone are
    opened, checked and closed again (pages re-render on every action: keeping them open
    through ~250 actions would cost minutes on two cores)."""
    import random

    from companion.games.reglement import GAME

    world = await make_world(make_host, harness_factory, "random", {"players": PLAYERS[:3], "first_placer": 0})
    rng = random.Random(11)
    seen: set[str] = set()
    steps = 0

    async def look() -> None:
        board = await world.open_board()
        phone = await world.open_phone(1)
        view = world.room.view()
        # (at the end the phone shows where it came and the standings instead of its gang)
        assert board.has("prompt") and phone.has("my-place" if view.phase == "over" else "my-gang")
        if view.turn_log:
            assert board.has("step-now")
        if view.phase == "over":
            winner = NAMES[world.room.state.winners[0]]
            assert f"Winner: {winner}" in board.text() and "You came" in phone.text()
        elif view.phase in ("seating", "alerte"):
            placer = view.placer
            assert f"{NAMES[placer]} " in board.text(board.find("prompt"))
            assert phone.has("pick-" + next(s.id for s in view.seats if s.gangster is None)) == (placer == 1)
        else:
            assert board.has("card-entry") and board.has("turn-steps")
            assert phone.has("hold-private") and not phone.has("helper")
            await show_private(phone)
            assert phone.has("helper") and phone.has("hand-note")
        await board.close()
        await phone.close()

    await look()
    while (action := GAME.random_action(world.room.state, rng)) is not None:
        await world.room.submit(action.model_dump(), channel="host", seat=None, based_on_version=world.room.version)
        steps += 1
        phase = world.room.state.phase
        if phase not in seen or steps % 40 == 0:
            seen.add(phase)
            await look()
    assert world.room.over and {"seating", "play", "alerte", "over"} <= seen | {"seating"}


async def test_every_card_prompt_is_translated(make_host: Any, harness_factory: Any) -> None:
    """Choosing each card on the board (and in the phone's helper) shows words, never a raw code."""
    from companion.games.reglement import CARDS

    world = await make_world(make_host, harness_factory, "words")
    board = await world.open_board()
    phone = await world.open_phone(RED)  # not on turn: the helper explains why not
    for card in CARDS:
        await board.click(f"card-{card}")
        await show_private(phone)
        await phone.click(f"help-{card}")
        assert "reglement." not in board.text(), card
        assert "reglement." not in phone.text(), card
        assert "Not now: It is Yvette's turn, not yours." in phone.text(phone.find("helper"))
        await board.click(f"card-{card}")  # tap again: unselected
        await show_private(phone)
        await phone.click(f"help-{card}")
    assert world.room.version == 0


async def test_spectator_board_shows_the_table_without_entry(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "spectator")
    tab = await world.harness.open(f"/room/{world.room.id}", name="spectator")
    assert tab.has("chair-A") and tab.has("turn-steps") and not tab.has("card-entry") and not tab.has("end-turn")
    await tab.click("chair-F")  # a tap only tells what the seat is
    assert "Seat F · revolver · faces O · Raoul's Flingueur" in tab.text()
    assert world.room.version == 0


# --------------------------------------------------------------------------------------------
# step 4 with the wake-up house rule "choose"
# --------------------------------------------------------------------------------------------


async def pill_red_and_reach_his_wake_up(world: World) -> None:
    """Yvette pours a pill for Raoul's Lame at the glass N; Raoul sets a card aside."""
    await world.host_enters({"type": "pills", "by": YELLOW, "targets": ["N"]})
    await world.host_enters({"type": "end_turn", "by": YELLOW})
    await world.host_enters({"type": "discard", "by": RED})


async def test_phone_chooses_who_wakes_and_the_others_wait(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "wake", preset_setup(wake_up="choose"))
    board = await world.open_board()
    phone = await world.open_phone(RED)
    other = await world.open_phone(BLUE)
    await pill_red_and_reach_his_wake_up(world)
    assert not phone.has("wake-choice")  # nothing to choose during the cards
    await phone.click("end-turn")
    view = world.room.view()
    assert view.phase == "wake" and view.waiting_for == (RED,) and view.wake_choices == ("N",)
    # Raoul's phone: his turn still, one big button per sleeper (waking at first), and the confirmation
    assert phone.has("your-turn") and phone.has("wake-choice")
    assert phone.find("wake-N").selected and "Lame d'Acier at N: wakes" in phone.text(phone.find("wake-choice"))
    assert "Wake N" in phone.text(phone.find("wake-confirm"))
    # the others wait for him; the board says who chooses, and shows step 4 as current
    assert "Waiting for Raoul to choose who wakes" in other.text(other.find("waiting-wake"))
    assert not other.has("wake-choice") and not other.has("wake-confirm")
    assert "Raoul chooses who wakes" in board.text(board.find("prompt"))
    assert "choosing" in board.text(board.find("turn-steps"))
    # a tap changes his mind (a view state, not an action), the confirmation sends it
    version = world.room.version
    await phone.click("wake-N")
    assert world.room.version == version and not phone.find("wake-N").selected
    assert "Lame d'Acier at N: sleeps on" in phone.text(phone.find("wake-choice"))
    assert "Nobody wakes" in phone.text(phone.find("wake-confirm"))
    await phone.click("wake-confirm")
    view = world.room.view()
    assert view.phase == "play" and view.turn == BLUE
    assert view.gangsters[view.seats[default_board().index("N")].gangster].asleep
    assert "Raoul lets their gangsters at N sleep on." in " ".join(board.text(board.find("steps")).split("\n"))
    assert not phone.has("wake-choice") and not other.has("waiting-wake") and other.has("your-turn")


async def test_host_board_enters_the_wake_up_for_the_current_player(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "wake-board", preset_setup(wake_up="choose"))
    board = await world.open_board()
    await pill_red_and_reach_his_wake_up(world)
    await board.click("end-turn")
    assert world.room.view().phase == "wake"
    assert board.has("wake-choice") and "For Raoul: tap a sleeper" in board.text(board.find("wake-choice"))
    await board.click("chair-N")  # a tap on the sleeper toggles him, like his button
    assert not board.find("wake-N").selected
    await board.click("chair-N")
    assert board.find("wake-N").selected
    await board.click("wake-confirm")
    view = world.room.view()
    assert view.turn == BLUE and not view.gangsters[view.seats[default_board().index("N")].gangster].asleep
    assert "Raoul's gangsters at N wake up." in board.text(board.find("steps"))


async def test_older_optional_rule_chooses_on_the_phone_before_end_turn(make_host: Any, harness_factory: Any) -> None:
    """A game recorded with wake_up="optional" (no longer offered): the choice rides on End turn."""
    world = await make_world(make_host, harness_factory, "wake-optional", preset_setup(wake_up="optional"))
    phone = await world.open_phone(RED)
    await pill_red_and_reach_his_wake_up(world)
    assert phone.has("wake-choice") and not phone.has("wake-confirm")
    assert "When you end your turn, who wakes?" in phone.text(phone.find("wake-choice"))
    await phone.click("wake-N")
    await phone.click("end-turn")
    view = world.room.view()
    assert view.phase == "play" and view.turn == BLUE
    assert view.gangsters[view.seats[default_board().index("N")].gangster].asleep


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
async def test_seating_prompt_names_the_placer_once_and_seat_random_is_an_action(make_host: Any, harness_factory: Any, lang: str) -> None:
    """The seating step's heading names the player once, in their chip ("◆ Yvette Yvette seats a
    gangster" said it twice); "Seat everyone at random" is drawn as an action, not in Undo's grey;
    on a tablet the step-by-step panel has nearly half the width, so Previous / Next / Latest fit one line."""
    from views.common import ACCENT
    from views.i18n import translator
    from views.text_metrics import text_width

    world = await make_world(make_host, harness_factory, f"seat-prompt-{lang}", {"players": PLAYERS, "first_placer": BLUE})
    board = await world.harness.open(f"/room/{world.room.id}?k={world.host.token}&lang={lang}", name="board")
    await board.click("chair-A")  # a step to page through
    placer = world.room.view().placer
    name = world.room.names[placer]
    prompt = board.text(board.find("prompt"))
    assert prompt.count(name) == 1, prompt
    button = board.find("seat-random").content
    assert button.bgcolor == ACCENT
    # the three paging buttons: each its text plus about 36 px of padding, 10 px apart, inside
    # the panel (half the board's main column less the 12 px gap, less its 12 px padding each side)
    tr = translator(lang)
    labels = [tr.t("ui.previous"), tr.t("ui.next"), tr.t("reglement.ui.show_last")]
    needed = sum(text_width(t, 18, bold=True) + 36 for t in labels) + 2 * 10
    main_column = 1280 - 340 - 36
    assert needed <= (main_column - 12) * 23 / 48 - 24, (lang, needed)
    assert board.has("steps") and all(board.has(f"step-{w}") for w in ("previous", "next", "last"))
    import flet as ft

    steps = board.find("steps")
    shares = [[c.expand for c in row.controls] for row in board.controls() if isinstance(row, ft.Row) and len(row.controls) == 2 and getattr(row.controls[1], "content", None) is steps]
    assert shares == [[25, 23]], shares


async def test_a_doubled_income_says_so_on_the_phone_and_the_board(make_host: Any, harness_factory: Any) -> None:
    """Raoul's Parrain sits at B, the cash register: his income is doubled at his turn's start,
    and his phone's gang panel and the board's step strip both say so."""
    world = await make_world(make_host, harness_factory, "doubled-income")
    board = await world.open_board()
    red = await world.open_phone(RED)
    await world.host_enters({"type": "discard", "by": YELLOW})
    await world.host_enters({"type": "end_turn", "by": YELLOW})
    view = world.room.view()
    income = next(r for r in reversed(view.turn_log) if r.code.startswith("reglement.income"))
    assert view.turn == RED and income.code == "reglement.income_doubled" and income.params["at"] == "B", income
    shown = f"+{income.params['amount']:,}, doubled by the cash register at B"
    assert f"Your income this turn: {shown}." in red.text(red.find("my-gang"))
    assert shown in board.text(board.find("turn-steps"))
