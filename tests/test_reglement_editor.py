"""The host's Règlement board editor (/boards), the board and seating choices of the setup form, and
saving a free seating as a preset from the host board, through real Flet sessions in-process
(tests/harness/flet_inprocess.py) with a host data directory (AppConfig.data_dir)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from companion.reglement_library import ReglementLibrary
from tests.harness.flet_inprocess import FakeBrowser, FletHarness, Tab, walk_controls
from tests.test_home import choose, control_in, type_into
from tests.test_reglement_library import preset_data

PLAYERS = [
    {"name": "Yvette", "colour": "yellow"},
    {"name": "Raoul", "colour": "red"},
    {"name": "Bianca", "colour": "blue"},
    {"name": "Gaston", "colour": "green"},
]


@pytest.fixture
def app(tmp_path: Path, make_host: Any, harness_factory: Any) -> Callable[..., Any]:
    """(host, harness, library) on one data directory (harnesses checked at teardown by
    conftest's `harness_factory`)."""

    def make(name: str = "host", with_data_dir: bool = True) -> tuple[Any, FletHarness, ReglementLibrary]:
        host = make_host(name)
        data_dir = tmp_path / name
        return host, harness_factory(host, data_dir=data_dir if with_data_dir else None), ReglementLibrary(data_dir)

    return make


def seat_label(tab: Tab, seat: str) -> str:
    semantics = tab.find(f"chair-{seat}")
    assert semantics is not None
    return str(semantics.label)


def button_disabled(tab: Tab, identifier: str) -> bool:
    semantics = tab.find(identifier)
    assert semantics is not None, tab.identifiers()
    return bool(next(c for c in walk_controls(semantics) if isinstance(c, ft.Button)).disabled)


def option_keys(tab: Tab, identifier: str) -> list[str]:
    return [o.key for o in control_in(tab, identifier, ft.Dropdown).options]


async def open_setup(harness: FletHarness, host: Any) -> Tab:
    home = await harness.open(f"/?k={host.token}", name="home")
    await choose(home, harness, "setup-game", "reglement")
    for i, player in enumerate(PLAYERS):
        await type_into(home, harness, f"player-name-{i}", player["name"])
        await choose(home, harness, f"player-colour-{i}", player["colour"])
    return home


async def test_only_the_host_opens_the_board_editor(app: Any) -> None:
    host, harness, _library = app("guard")
    for route in ("/boards", "/boards?k=wrong-token"):
        page = await harness.open(route, browser=FakeBrowser(route), name=route)
        assert page.has("invalid-link") and not page.has("board-drawing") and not page.has("board-save")
    editor = await harness.open(f"/boards?k={host.token}", name="editor")
    assert editor.has("board-drawing") and editor.has("board-save")


async def test_the_setup_form_links_to_the_editor(app: Any) -> None:
    host, harness, _library = app("link")
    home = await open_setup(harness, host)
    await home.click("open-boards")
    assert home.conn.routes[-1] == f"/boards?k={host.token}"
    assert home.has("board-drawing")


async def test_host_edits_a_board_saves_it_and_a_game_records_it(app: Any) -> None:
    host, harness, library = app("edit")
    editor = await harness.open(f"/boards?k={host.token}", name="editor")
    assert "This board is valid." in editor.text(editor.find("board-problems"))
    # tap a seat: its marks open; give it a glass and a third bar
    await editor.click("chair-A")
    assert editor.has("seat-panel") and "Seat A" in editor.text(editor.find("seat-panel"))
    await editor.click("mark-glass")
    assert "glass" in seat_label(editor, "A")
    await editor.click("mark-business-bar")
    assert "bar" in seat_label(editor, "A")
    problems = editor.text(editor.find("board-problems"))
    assert "the board has 3 bar seats (A, D, L); it needs exactly 2" in problems
    await type_into(editor, harness, "board-name", "Our box")
    assert button_disabled(editor, "board-save")
    with pytest.raises(AssertionError, match="nothing clickable"):
        await editor.click("board-save")
    assert library.list_boards() == []
    # fix it: no business at A; A faces #12 (their old partners face nobody now)
    await editor.click("mark-business-none")
    await editor.click("mark-no_shoot")
    await choose(editor, harness, "mark-faces", "#12")
    assert "faces #12" in seat_label(editor, "A") and "X (no shooting)" in seat_label(editor, "A")
    assert "This board is valid." in editor.text(editor.find("board-problems"))
    assert not button_disabled(editor, "board-save")
    await editor.click("board-save")
    assert editor.has("boards-notice") and "Our box" in editor.text(editor.find("boards-notice"))
    (entry,) = library.list_boards()
    saved = entry.item
    assert entry.name == "Our box" and saved.seat("A").glass and saved.seat("A").no_shoot and saved.faces("A") == "#12"
    assert saved.seat("A").business is None
    # the setup form offers it, and a room created with it records that board
    home = await open_setup(harness, host)
    assert option_keys(home, "setup-board") == ["default", entry.key]
    await choose(home, harness, "setup-board", entry.key)
    await home.click("create-room")
    assert len(host.rooms) == 1, home.text()
    room = next(iter(host.rooms.values()))
    assert room.game_id == "reglement" and room.setup.board == saved
    assert room.setup.board.name == "Our box" and room.setup.seating == "free"
    assert room.view().board_name == "Our box"


async def test_a_pasted_board_shows_its_problems_and_a_broken_one_is_refused(app: Any) -> None:
    import json

    from companion.games.reglement_board import default_board

    host, harness, library = app("paste")
    editor = await harness.open(f"/boards?k={host.token}", name="editor")
    await type_into(editor, harness, "board-json", "{not json")
    await editor.click("board-load-json")
    assert "The pasted board cannot be loaded" in editor.text(editor.find("banner"))
    data = default_board().model_dump(mode="json")
    data["name"] = "Pasted"
    data["seats"][1]["cash_register"] = False
    await type_into(editor, harness, "board-json", json.dumps(data))
    await editor.click("board-load-json")
    assert not editor.has("banner")
    assert "the board has 0 cash register seats; it needs exactly 1" in editor.text(editor.find("board-problems"))
    assert button_disabled(editor, "board-save")
    await editor.click("chair-C")
    await editor.click("mark-cash_register")
    assert not button_disabled(editor, "board-save")
    await editor.click("board-save")
    assert library.load_board("pasted").seat("C").cash_register


async def test_an_unusable_saved_board_is_named_not_offered(app: Any) -> None:
    host, harness, library = app("badfile")
    library.boards_dir.mkdir(parents=True)
    (library.boards_dir / "broken.json").write_text('{"seats": []}', encoding="utf-8")
    editor = await harness.open(f"/boards?k={host.token}", name="editor")
    assert "boards/broken.json: the board has 0 seats" in editor.text()
    assert option_keys(editor, "board-pick") == ["default"]


async def test_without_a_data_dir_only_the_shipped_board_is_offered(app: Any) -> None:
    host, harness, _library = app("nodir", with_data_dir=False)
    home = await open_setup(harness, host)
    assert option_keys(home, "setup-board") == ["default"]
    assert option_keys(home, "setup-seating") == ["free"]
    editor = await harness.open(f"/boards?k={host.token}", name="editor")
    assert button_disabled(editor, "board-save")


async def seat_everyone(room: Any) -> None:
    """Free seating to the end: each placer puts their next gangster on the first empty seat."""
    game = room.game
    while room.state.phase == "seating":
        state = room.state
        placer = state.placer
        kind = next(state.gangsters[i].kind for i in game.unseated(state, placer))
        taken = {g.seat for g in state.gangsters if g.seat is not None}
        seat = next(s for s in state.board.ids if s not in taken)
        await room.submit({"type": "place", "by": placer, "kind": kind, "seat": seat}, channel="host", seat=None, based_on_version=room.version)


async def test_the_host_board_saves_a_free_seating_as_a_preset(app: Any) -> None:
    host, harness, library = app("preset")
    room = await host.create_room("reglement", {"players": PLAYERS, "first_placer": 2}, seed=7)
    board = await harness.open(f"/room/{room.id}?k={host.token}", name="board")
    assert not board.has("save-preset")  # not before everyone is seated
    await seat_everyone(room)
    await harness.settle()
    assert board.has("save-preset") and board.has("preset-save")
    spectator = await harness.open(f"/room/{room.id}", browser=FakeBrowser("spectator"), name="spectator")
    assert not spectator.has("save-preset")
    await type_into(board, harness, "preset-name", "Seating of Friday")
    await board.click("preset-save")
    assert "Seating of Friday" in board.text(board.find("preset-result"))
    (entry,) = library.list_presets(players=4)
    seats = {(g.owner, g.kind, g.seat) for g in room.state.gangsters}
    assert {(g.player, g.kind, g.seat) for g in entry.item.gangsters} == seats
    # once a card is played, the seating is no longer offered
    await room.submit({"type": "discard", "by": room.state.turn}, channel="host", seat=None, based_on_version=room.version)
    await harness.settle()
    assert not board.has("save-preset")


async def test_a_saved_preset_is_offered_for_its_player_count_and_starts_seated(app: Any) -> None:
    host, harness, library = app("start")
    four = library.save_preset("Four of us", preset_data(4, "Four of us"))
    library.save_preset("Trio", preset_data(3, "Trio"))
    home = await open_setup(harness, host)
    assert option_keys(home, "setup-seating") == ["free", four.key]
    await choose(home, harness, "setup-seating", four.key)
    await home.click("create-room")
    room = next(iter(host.rooms.values()))
    assert room.setup.seating == "preset" and len(room.setup.preset) == 28
    assert room.state.phase == "play" and room.state.turn == 0  # yellow starts a preset seating
    assert all(g.seat is not None for g in room.state.gangsters)
    assert {(g.owner, g.kind, g.seat) for g in room.state.gangsters} == {(g["player"], g["kind"], g["seat"]) for g in preset_data(4)["gangsters"]}


async def test_presets_follow_the_player_count_of_the_form(app: Any) -> None:
    host, harness, library = app("count")
    four = library.save_preset("Four of us", preset_data(4, "Four of us"))
    trio = library.save_preset("Trio", preset_data(3, "Trio"))
    home = await open_setup(harness, host)
    assert option_keys(home, "setup-seating") == ["free", four.key]
    await choose(home, harness, "setup-seating", four.key)
    # remove the fourth player: only the three-player preset fits, and the choice falls back
    removes = [c for c in home.controls() if isinstance(c, ft.IconButton) and c.on_click is not None]
    await home.session.dispatch_event(removes[-1]._i, "click", None)
    await harness.settle()
    assert option_keys(home, "setup-seating") == ["free", trio.key]
    assert control_in(home, "setup-seating", ft.Dropdown).value == "free"
    await choose(home, harness, "setup-seating", trio.key)
    await home.click("create-room")
    room = next(iter(host.rooms.values()))
    assert len(room.names) == 3 and room.setup.seating == "preset" and room.state.phase == "play"
