"""Corruption's pages through real Flet sessions in-process (tests/harness/flet_inprocess.py).

One round, three players (Alice, Bruno, Chloe; Alice leads), driven through the pages: the deal
on the host board's form, every card on its owner's phone, every award choice on the owner's
phone. The byte-level non-interference test runs that round in two worlds that differ only in
Bruno's face-down cards and his Swiss bribe.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion.games.corruption import CATALOGUE_PATH
from tests.harness.flet_inprocess import Tab, decode_frames, strings_in, walk_controls
from tests.harness.world import World, first_difference
from tests.harness.world import make_world as make_game_world

PHONE = {"width": 360, "height": 780}
PLAYERS = [{"name": "Alice", "colour": "red"}, {"name": "Bruno", "colour": "blue"}, {"name": "Chloe", "colour": "green"}]
NAMES = [p["name"] for p in PLAYERS]
A, B, C = 0, 1, 2
SEED = 4242

#: The deal entered on the board: City Hall, County Seat, Capitol (ids 1..6 left to right).
#: Monument comes from the catalogue; the others are typed (values chosen: unknown, docs/rules/corruption.md#setup).
DEAL = {
    "city_hall": [("Monument", None), ("Opera House", "600,000")],
    "county_seat": [("Stadium", "500000"), ("Subway", "800000")],
    "capitol": [("University", "400000"), ("Airport", "700000")],
}
MONUMENT, OPERA, STADIUM, SUBWAY, UNIVERSITY, AIRPORT = 1, 2, 3, 4, 5, 6

#: The round, card by card in play order (Alice, Bruno, Chloe, Alice, ...): (card, location).
#: Each player's first card is face up (round 1), the rest face down.
ROUND = [
    (10000, SUBWAY), (10000, AIRPORT), (10000, UNIVERSITY),
    ("hitman", AIRPORT), (8000, "city_hall"), ("da", AIRPORT),
    (8000, MONUMENT), ("reporter", SUBWAY), (8000, SUBWAY),
    (6000, STADIUM), (6000, STADIUM), (6000, OPERA),
    (4000, OPERA), (4000, UNIVERSITY), (4000, STADIUM),
    (2000, UNIVERSITY), (2000, MONUMENT), (2000, "capitol"),
]  # fmt: skip
#: The award choices, each on its owner's phone: Bruno's Swiss 8k to the Opera House, Chloe's
#: Swiss 2k to the University, Alice's hit man kills Chloe's DA (#6), Bruno's reporter removes
#: Alice's face-up 10k (#1) from the Subway.
CHOICES = [(B, f"swiss-to-{OPERA}"), (C, f"swiss-to-{UNIVERSITY}"), (A, "hit-5"), (B, "report-0")]
#: The outcome: Monument Alice (8k v 2k), Opera Chloe (6k v 4k + Swiss 4k), Stadium tied
#: (6k, 6k), Subway Chloe (8k once Alice's 10k is removed), University Chloe (10k + Swiss 1k),
#: Airport Bruno (10k; Chloe's DA was killed).
WINNERS = {MONUMENT: A, OPERA: C, SUBWAY: C, UNIVERSITY: C, AIRPORT: B}


def loc_id(location: Any) -> str:
    return f"loc-{location}"


@pytest.fixture
def catalogue_copy(tmp_path: Path, monkeypatch: Any) -> Path:
    path = tmp_path / "contracts.json"
    path.write_text(CATALOGUE_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setenv("CORRUPTION_CATALOGUE", str(path))
    return path


async def make_world(make_host: Any, harness_factory: Any, name: str, **setup: Any) -> World:
    return await make_game_world(make_host, harness_factory, name, "corruption", {"players": PLAYERS, "first_player": A, **setup}, seed=SEED, phone_size=PHONE)


async def set_field(tab: Tab, identifier: str, value: str) -> None:
    """Type into the TextField labelled `identifier` (a change event, as the client sends it)."""
    import flet as ft

    from tests.harness.flet_inprocess import walk_controls

    semantics = tab.find(identifier)
    slot = re.fullmatch(r"deal-(?:pick|name|value)-(\w+-\d+)", identifier)
    if semantics is None and slot is not None and tab.has(f"deal-slot-{slot[1]}"):
        await tab.click(f"deal-slot-{slot[1]}")  # beside the catalogue, a slot's fields open on a tap
        semantics = tab.find(identifier)
    assert semantics is not None, tab.identifiers()
    target = next(c for c in walk_controls(semantics) if isinstance(c, (ft.TextField, ft.Dropdown)))
    # what the client does: a property update (controls drawn by a re-render are frozen for
    # the app, not for the client's patches), then the event
    tab.session.apply_patch(target._i, {"value": value})
    event = "select" if isinstance(target, ft.Dropdown) else "change"
    await tab.session.dispatch_event(target._i, event, value)
    await tab.harness.settle()


async def deal_on_board(world: World) -> None:
    board = world.board
    assert board is not None
    for body, contracts in DEAL.items():
        for n, (name, value) in enumerate(contracts, start=1):
            if value is None:
                await set_field(board, f"deal-pick-{body}-{n}", name)
                assert name in board.text(board.find(f"deal-picked-{body}-{n}"))
            else:
                await set_field(board, f"deal-name-{body}-{n}", name)
                await set_field(board, f"deal-value-{body}-{n}", value)
    await board.click("deal-submit")
    assert world.room.view().phase in ("corruption", "stud"), board.text()


async def show_cards(tab: Tab) -> None:
    """Tap "Show my cards" (a phone's secrets are not on the page until asked for)."""
    if tab.has("show-private"):
        await tab.click("show-private")
    assert tab.has("hide-private"), tab.identifiers()


async def play_round(world: World, cards: list[tuple[Any, Any]] = ROUND) -> None:
    for card, location in cards:
        seat = world.room.view().waiting_for[0]
        phone = world.phones[seat]
        assert phone.has("your-turn")
        await show_cards(phone)
        await phone.click(f"card-{card}")
        await phone.click(loc_id(location))
        assert not phone.has("banner"), phone.text()


async def make_choices(world: World) -> None:
    for seat, identifier in CHOICES:
        assert world.room.view().waiting_for == (seat,), (seat, world.room.view().pending)
        # the awards are under way: the board says so, and no summary of the round yet
        if world.board is not None:
            assert world.board.has("awards-under-way") and not world.board.has("round-summary")
        if identifier.startswith(("hit-", "report-")):
            # a target as the table sees it: whose card, what, under which contract (no card
            # number: none is shown on the table)
            option = world.phones[seat].text(world.phones[seat].find(identifier))
            assert "#" not in option and "under the" in option and "'s " in option, option
        await world.phones[seat].click(identifier)
        assert not world.phones[seat].has("banner"), world.phones[seat].text()


# --------------------------------------------------------------------------------------------
# a full round through the pages
# --------------------------------------------------------------------------------------------


async def test_round_through_board_and_phones(make_host: Any, harness_factory: Any, catalogue_copy: Path) -> None:
    world = await make_world(make_host, harness_factory, "round")
    board = await world.open_board()
    for seat in (A, B, C):
        await world.open_phone(seat)
    assert board.has("deal-form")
    await deal_on_board(world)
    view = world.room.view()
    contracts = {c.id: (c.name, c.value, c.body) for b in view.bodies for c in b.contracts}
    assert contracts[MONUMENT] == ("Monument", 100_000, "city_hall")
    assert contracts[OPERA] == ("Opera House", 600_000, "city_hall")
    # typed values are remembered in the catalogue file (written off the loop)
    saved = {e["name"]: e["value"] for e in json.loads(catalogue_copy.read_text(encoding="utf-8"))["contracts"]}
    assert saved["Opera House"] == 600_000 and saved["Airport"] == 700_000 and saved["Monument"] == 100_000

    # The phone says face up for the first card, offers no Swiss account to a character.
    alice = world.phones[A]
    assert alice.has("face-up") and not alice.has("face-down")
    assert not alice.has("card-hitman") and "Hit man" not in alice.text()  # hidden until asked for
    await show_cards(alice)
    await alice.click("card-hitman")
    assert not alice.has("loc-city_hall") and alice.has(f"loc-{AIRPORT}")
    await alice.click("card-10000")
    assert alice.has("loc-city_hall")

    await play_round(world)
    # the last card reveals nothing: the host board's reveal does
    assert world.room.view().phase == "reveal" and world.board is not None
    # the reveal panel speaks; the prompt has nothing to say and is not drawn (no empty box)
    assert world.board.has("reveal-panel") and not world.board.has("prompt")
    await world.board.click("reveal")
    assert world.room.view().phase == "awards"
    await make_choices(world)
    view = world.room.view()
    assert view.phase == "round_over"
    awards = {a.contract: a for b in view.bodies for c in b.contracts if (a := c.award)}
    assert {cid: a.winner for cid, a in awards.items() if a.outcome == "won"} == WINNERS
    assert awards[STADIUM].outcome == "tied"
    assert view.score == (100_000, 700_000, 1_800_000)
    assert view.order[0] == C

    # The board's steps open on the newest ruling, with every outcome shown and the round in
    # short; stepping back to the first ruling hides the outcomes not yet reached.
    assert board.has("award-steps") and board.has("round-summary") and not board.has("awards-under-way")
    for cid, seat in WINNERS.items():
        assert f"WON by {NAMES[seat]}" in board.text(board.find(f"contract-{cid}")), cid
    assert "TIED" in board.text(board.find(f"contract-{STADIUM}"))
    for _ in range(len(view.award_log)):
        if not board.clickable_in(board.find("step-previous")):  # type: ignore[arg-type]
            break
        await board.click("step-previous")
    assert "WON by" not in board.text(board.find(f"contract-{AIRPORT}"))
    assert not board.has("round-summary")
    assert "1,800,000" in board.text(board.find("scores"))
    # the scores read as a ranking: most money first
    scores = board.text(board.find("scores"))
    by_rank = sorted(range(len(NAMES)), key=lambda s: (-view.score[s], -len(view.contracts_won[s])))
    assert [scores.index(NAMES[s]) for s in by_rank] == sorted(scores.index(NAMES[s]) for s in by_rank), scores
    # and the board offers the next deal
    await board.click("deal-open")
    assert board.has("deal-form") and "Round 2" in board.text()


async def test_a_menu_closing_without_a_choice_keeps_the_deal_form(make_host: Any, harness_factory: Any, catalogue_copy: Path) -> None:
    """The contract menu also reports "nothing chosen" (e.g. when focus leaves it): the pick and
    the text typed in other slots stay (this emptied a picked slot and a typed name on CI)."""
    world = await make_world(make_host, harness_factory, "menu")
    board = await world.open_board()
    await set_field(board, "deal-pick-city_hall-1", "Monument")
    await set_field(board, "deal-name-city_hall-2", "Opera House")
    await set_field(board, "deal-pick-city_hall-1", "")
    assert "Monument" in board.text(board.find("deal-picked-city_hall-1"))
    await set_field(board, "deal-value-city_hall-2", "600,000")
    for body, contracts in list(DEAL.items())[1:]:
        for n, (name, value) in enumerate(contracts, start=1):
            await set_field(board, f"deal-name-{body}-{n}", name)
            await set_field(board, f"deal-value-{body}-{n}", value)
    await board.click("deal-submit")
    names = {c.name for b in world.room.view().bodies for c in b.contracts}
    assert {"Monument", "Opera House"} <= names, names


async def test_a_turns_cards_say_how_many_are_held_and_the_pad_comes_and_goes_as_flags(make_host: Any, harness_factory: Any, catalogue_copy: Path) -> None:
    world = await make_world(make_host, harness_factory, "pad-flags")
    await world.open_board()
    for seat in (A, B):
        await world.open_phone(seat)
    await deal_on_board(world)
    alice, bruno = world.phones[A], world.phones[B]
    # the pad says what it is for: at Alice's card play, choosing it; Bruno's, seeing his cards
    assert "Hold here to choose your card and where it goes" in alice.text(alice.find("hold-private"))
    assert "Hold here to see your cards" in bruno.text(bruno.find("hold-private"))
    # Alice's turn: her cards to play are her hand, a card held twice says so, no second list
    await show_cards(alice)
    assert alice.text(alice.find("card-reporter")) == "Reporter ×2", alice.text(alice.find("card-reporter"))
    assert alice.text(alice.find("card-hitman")) == "Hit man"
    assert not alice.has("my-hand")
    # Bruno waits: his pad shows his hand as a list, counts and all
    await show_cards(bruno)
    assert "Reporter ×2" in bruno.text(bruno.find("my-hand"))
    # closing and opening the pad again send flags: the pad and its buttons stay mounted
    for step in ("hide-private", "show-private"):
        mark = alice.mark()
        await alice.click(step)
        sent = list(strings_in(decode_frames(alice.frames_since(mark))))
        assert not {"GestureDetector", "Draggable", "hold-private", "hide-private", "show-private"} & set(sent), (step, sent)
        # (the cards themselves are built only while shown: they come back whole)
        assert ("card-reporter" in sent) == (step == "show-private"), (step, sent)


async def test_phone_offers_only_legal_choices_and_black_book(make_host: Any, harness_factory: Any, catalogue_copy: Path) -> None:
    world = await make_world(make_host, harness_factory, "lbb", little_black_book=True)
    await world.open_board()
    for seat in (A, B, C):
        await world.open_phone(seat)
    await deal_on_board(world)
    await play_round(world, ROUND[:6])  # Alice's hit man, Bruno's Swiss 8k, Chloe's DA: face down
    alice, board = world.phones[A], world.board
    assert board is not None
    # Alice may peek at Chloe's face-down DA (#6); never at a Swiss card (#5), her own or a face-up one
    assert alice.has("peek-5") and not alice.has("peek-4") and not alice.has("peek-3") and not alice.has("peek-0")
    await alice.click("peek-5")
    assert "District attorney" not in alice.text()  # hidden again after the action
    await show_cards(alice)
    assert "You saw Chloe's card #6 under the Airport: District attorney" in alice.text()
    assert "You saw" not in world.phones[B].text() and "You saw" not in world.phones[C].text()
    assert "Alice looked at Chloe's card #6" in board.text()
    assert "District attorney" not in board.text()
    assert "Little Black Book: 1 left" in alice.text()


async def test_free_stud_leader_chooses_on_the_phone(make_host: Any, harness_factory: Any, catalogue_copy: Path) -> None:
    world = await make_world(make_host, harness_factory, "stud", variant="free_stud")
    board = await world.open_board()
    for seat in (A, B):
        await world.open_phone(seat)
    await deal_on_board(world)
    assert world.room.view().phase == "stud"
    assert world.phones[A].has("slots-confirm") and not world.phones[B].has("slots-confirm")
    assert "Alice chooses on their phone" in board.text()
    await world.phones[A].click("slot-2")
    await world.phones[A].click("slot-5")
    await world.phones[A].click("slots-confirm")
    assert world.room.view().face_up_slots == (2, 5)
    assert world.phones[A].has("face-down")  # card 1 is face down under this schedule
    assert world.phones[A].has("show-private")


# --------------------------------------------------------------------------------------------
# byte-level non-interference
# --------------------------------------------------------------------------------------------

#: Bruno's face-down cards differ (the same locations, other cards) and so does his Swiss bribe.
ROUND_B = list(ROUND)
ROUND_B[4] = (6000, "city_hall")  # Swiss: 6k instead of 8k
ROUND_B[10] = (8000, STADIUM)  # 8k instead of 6k under the Stadium


async def test_hidden_cards_do_not_reach_board_or_other_phones(make_host: Any, harness_factory: Any, tmp_path: Path, monkeypatch: Any) -> None:
    worlds = []
    for name, cards in (("a", ROUND), ("b", ROUND_B)):
        # each world starts from the same catalogue (the deal remembers values in it)
        path = tmp_path / f"contracts-{name}.json"
        path.write_text(CATALOGUE_PATH.read_text(encoding="utf-8"), encoding="utf-8")
        monkeypatch.setenv("CORRUPTION_CATALOGUE", str(path))
        world = await make_world(make_host, harness_factory, name)
        await world.open_board()
        for seat in (A, B, C):
            await world.open_phone(seat)
        await deal_on_board(world)
        await play_round(world, cards[:-1])  # up to the last card: nothing revealed yet
        worlds.append(world)
    a, b = worlds
    assert [p.card for p in a.room.state.placements] != [p.card for p in b.room.state.placements]

    assert a.board is not None and b.board is not None
    assert len(a.frames(a.board)) > 20
    assert first_difference(a.frames(a.board), b.frames(b.board)) is None
    for seat in (A, C):
        assert first_difference(a.frames(a.phones[seat]), b.frames(b.phones[seat])) is None, NAMES[seat]
    # the test can fail: Bruno's own phone did receive different bytes
    assert first_difference(a.frames(a.phones[B]), b.frames(b.phones[B])) is not None
    strings = {s for frame in a.frames(a.board) for s in strings_in(frame)}
    assert "8k" not in strings  # no face-down 8k ever drawn on the board (only the face-up 10k)

    # The last card reveals nothing; the host's reveal shows everything: now the board differs.
    marks = {id(w): w.board.mark() for w in worlds if w.board is not None}
    for world in worlds:
        await play_round(world, [ROUND[-1]])
        assert world.room.view().phase == "reveal"
    assert first_difference(a.frames(a.board, marks[id(a)]), b.frames(b.board, marks[id(b)])) is None
    for world in worlds:
        assert world.board is not None
        await world.board.click("reveal")
        assert world.room.view().phase == "awards"
    assert first_difference(a.frames(a.board, marks[id(a)]), b.frames(b.board, marks[id(b)])) is not None


# --------------------------------------------------------------------------------------------
# the board's own entries: a face-up card for the current player, pass-and-play
# --------------------------------------------------------------------------------------------


async def test_board_enters_a_face_up_card_and_pass_and_play_a_face_down_one(make_host: Any, harness_factory: Any, catalogue_copy: Path) -> None:
    world = await make_world(make_host, harness_factory, "entries")
    board = await world.open_board()
    await deal_on_board(world)
    # Alice's first card is face up: public, so the host may enter it (behind a tap)
    assert board.has("board-enter") and not board.has("board-card-10000")
    await board.click("board-enter")
    assert not board.has("board-loc-city_hall")  # never a Swiss account from the board
    await board.click("board-card-10000")
    await board.click(f"board-loc-{SUBWAY}")
    assert [(p.seat, p.card, p.location, p.face_up) for p in world.room.state.placements] == [(A, 10000, SUBWAY, True)]
    # Bruno has no phone: the tablet is handed to him behind a privacy screen
    await world.submit_for(B, {"type": "play_card", "by": B, "card": 10000, "location": AIRPORT, "face_up": True})
    await world.submit_for(C, {"type": "play_card", "by": C, "card": 10000, "location": UNIVERSITY, "face_up": True})
    assert not board.has("board-enter")  # Alice's second card is face down: only her phone
    await world.submit_for(A, {"type": "play_card", "by": A, "card": "hitman", "location": AIRPORT, "face_up": False})
    await board.click(f"pass-{B}")  # "Play here" on Bruno's seat
    assert board.has("privacy-ready") and "Bruno" in board.text() and not board.has("card-8000")
    await board.click("privacy-ready")
    assert board.has("face-down")
    await show_cards(board)
    await board.click("card-8000")
    await board.click("loc-city_hall")
    placed = world.room.state.placements[-1]
    assert (placed.seat, placed.card, placed.location, placed.face_up) == (B, 8000, "city_hall", False)
    assert not board.has("card-8000") and board.has("prompt")  # the choices are hidden again
    assert "8k" not in board.texts()


async def test_setup_form_offers_the_variants_and_house_rules(make_host: Any, harness_factory: Any) -> None:
    """The home page's setup form builds its fields from HOUSE_RULES: variant and Little Black
    Book included, each with its labels, and the choices reach the room's setup."""
    import flet as ft

    host = make_host("setup")
    harness = harness_factory(host)
    home = await harness.open(f"/?k={host.token}", name="home")

    def dropdown(label_text: str) -> ft.Dropdown:
        found = [c for c in home.controls() if isinstance(c, ft.Dropdown) and c.label == label_text]
        assert len(found) == 1, (label_text, [getattr(c, "label", None) for c in home.controls() if isinstance(c, ft.Dropdown)])
        return found[0]

    async def choose(label_text: str, value: str) -> None:
        control = dropdown(label_text)
        home.session.apply_patch(control._i, {"value": value})
        await home.session.dispatch_event(control._i, "select", value)
        await harness.settle()

    await choose("Game", "corruption")
    variant = dropdown("Variant")
    assert variant.value == "standard"
    assert [o.text for o in variant.options][2] == "Free Stud: the leading player chooses each round"
    assert dropdown("Little Black Book (two peeks each)").value == "False"
    for label_text in ("Award order", "Tie for leading player", "Hit men and their owner's cards", "Reporters"):
        assert "recommended" in next(o.text for o in dropdown(label_text).options if o.key == dropdown(label_text).value)
    await choose("Variant", "free_stud")
    await choose("Little Black Book (two peeks each)", "True")
    for i, name in enumerate(NAMES):
        field_ = [c for c in home.controls() if isinstance(c, ft.TextField) and c.label == f"Name of player {i + 1}"][0]
        home.session.apply_patch(field_._i, {"value": name})
        await home.session.dispatch_event(field_._i, "change", name)
    await harness.settle()
    await home.click("create-room")
    (room,) = host.rooms.values()
    assert room.game_id == "corruption"
    assert room.setup.variant == "free_stud" and room.setup.little_black_book is True
    assert room.setup.resolution_order == "location" and room.setup.reporter_optional is True


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_a_small_card_says_its_name_on_one_line(lang: str) -> None:
    """A phone's table shows cards 32 px wide: each card's short name is sized to stay on one
    line inside the border (French "TUE" broke into "TU" / "E"), never larger than before."""
    from types import SimpleNamespace

    import flet as ft

    from views.games.corruption.pieces import card_tile
    from views.i18n import Translator
    from views.text_metrics import text_width

    ctx = SimpleNamespace(tr=Translator(lang), colours=["red", "blue", "green"])
    for card in (10000, 2000, "da", "reporter", "hitman"):
        tile = card_tile(ctx, 0, card, size=32)  # type: ignore[arg-type]
        face = next(c for c in walk_controls(tile) if isinstance(c, ft.Text) and c.no_wrap)
        assert face.size is not None and 9 <= face.size <= round(32 * 0.36), (card, face.size)
        assert text_width(face.value, face.size, bold=True) <= 32 - 8 + 2, (card, face.value, face.size)
