"""The host's saved Règlement boards and seating presets (companion/reglement_library.py): saved,
listed and loaded back; a bad file is refused with a message naming the problem; a failed write
leaves the old file whole."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from companion.games.reglement import GANG_BY_PLAYERS, KINDS
from companion.games.reglement_board import Board, default_board
from companion.reglement_library import (
    LibraryError,
    ReglementLibrary,
    SeatingPreset,
    board_problems_of,
    preset_problem,
    slug,
)


def preset_data(players: int = 4, name: str = "Friday") -> dict[str, Any]:
    ids = default_board().ids
    kinds = {p: [k for k, n in zip(KINDS, GANG_BY_PLAYERS[players], strict=True) for _ in range(n)] for p in range(players)}
    gangsters = []
    for i in range(players * sum(GANG_BY_PLAYERS[players])):
        gangsters.append({"player": i % players, "kind": kinds[i % players].pop(0), "seat": ids[i]})
    return {"name": name, "players": players, "board": default_board().name, "gangsters": gangsters}


def test_boards_save_list_and_load(tmp_path: Path) -> None:
    library = ReglementLibrary(tmp_path)
    assert library.list_boards() == []
    mine = default_board().with_seat("A", glass=True)
    entry = library.save_board("Our box (1987)", mine)
    assert entry.path == tmp_path / "reglement" / "boards" / "our-box-1987.json"
    listed = library.list_boards()
    assert [(e.key, e.name, e.ok) for e in listed] == [("our-box-1987", "Our box (1987)", True)]
    loaded = library.load_board("our-box-1987")
    assert isinstance(loaded, Board) and loaded.seat("A").glass and loaded.name == "Our box (1987)"
    assert loaded.seats == mine.seats and loaded.facing == mine.facing
    # saving under the same name replaces it
    library.save_board("Our box (1987)", mine.with_seat("A", glass=False))
    assert not library.load_board("Our box (1987)").seat("A").glass
    assert len(library.list_boards()) == 1


def test_an_invalid_board_is_not_saved(tmp_path: Path) -> None:
    library = ReglementLibrary(tmp_path)
    data = default_board().model_dump(mode="json")
    data["seats"][0]["business"] = "bar"
    with pytest.raises(LibraryError, match=r"the board has 3 bar seats \(A, D, L\); it needs exactly 2"):
        library.save_board("three bars", data)
    with pytest.raises(LibraryError, match="needs a name"):
        library.save_board("  ", default_board())
    assert library.list_boards() == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "boards/bad.json: not valid JSON"),
        ('{"seats": []}', "boards/bad.json: the board has 0 seats; it needs at least 28"),
        ("__THREE_BARS__", "boards/bad.json: the board has 3 bar seats (A, D, L); it needs exactly 2"),
        ('{"seats": [{"id": ""}]}', "boards/bad.json: seats.0.id"),
    ],
)
def test_a_bad_board_file_is_refused_naming_the_problem(tmp_path: Path, text: str, message: str) -> None:
    library = ReglementLibrary(tmp_path)
    library.save_board("good", default_board())
    if text == "__THREE_BARS__":
        data = default_board().model_dump(mode="json")
        data["seats"][0]["business"] = "bar"
        text = json.dumps(data)
    (library.boards_dir / "bad.json").write_text(text, encoding="utf-8")
    entries = {e.key: e for e in library.list_boards()}
    assert entries["good"].ok
    assert not entries["bad"].ok and entries["bad"].problem is not None
    assert entries["bad"].problem.startswith(message), entries["bad"].problem
    with pytest.raises(LibraryError) as caught:
        library.load_board("bad")
    assert str(caught.value).startswith(message)
    with pytest.raises(LibraryError, match="no such board"):
        library.load_board("missing")


def test_board_problems_are_the_models_messages() -> None:
    data = default_board().model_dump(mode="json")
    assert board_problems_of(data) == []
    data["seats"][1]["cash_register"] = False  # B held the only register
    data["facing"].append(["A", "A"])
    problems = board_problems_of(data)
    assert "the board has 0 cash register seats; it needs exactly 1" in problems
    assert "seat A cannot face itself" in problems


def test_presets_save_list_by_player_count_and_load(tmp_path: Path) -> None:
    library = ReglementLibrary(tmp_path)
    library.save_preset("Friday", preset_data(4, "Friday"))
    library.save_preset("Trio", preset_data(3, "Trio"))
    assert [e.name for e in library.list_presets(players=4)] == ["Friday"]
    assert [e.name for e in library.list_presets(players=3)] == ["Trio"]
    assert library.list_presets(players=5) == []
    preset = library.load_preset("friday")
    assert isinstance(preset, SeatingPreset) and preset.players == 4 and len(preset.gangsters) == 28
    assert preset_problem(preset, default_board()) is None
    entries = preset.setup_entries()
    assert entries["seating"] == "preset" and len(entries["preset"]) == 28


def test_a_bad_preset_is_refused_naming_the_problem(tmp_path: Path) -> None:
    library = ReglementLibrary(tmp_path)
    data = preset_data(4)
    data["gangsters"][1]["seat"] = data["gangsters"][0]["seat"]
    with pytest.raises(LibraryError, match="the preset puts two gangsters on seat A"):
        library.save_preset("clash", data)
    short = preset_data(4)
    short["gangsters"].pop()
    (library.presets_dir).mkdir(parents=True)
    (library.presets_dir / "short.json").write_text(json.dumps(short), encoding="utf-8")
    (entry,) = library.list_presets()
    assert not entry.ok and entry.problem is not None
    assert entry.problem.startswith("presets/short.json: the preset gives player 4 ")
    assert library.list_presets(players=4) == []  # an unusable file is never offered
    with pytest.raises(LibraryError, match="presets/short.json"):
        library.load_preset("short")


def test_a_preset_does_not_fit_a_board_without_its_seats(tmp_path: Path) -> None:
    preset = SeatingPreset.model_validate(preset_data(4))
    data = default_board().model_dump(mode="json")
    data["seats"] = [s for s in data["seats"] if s["id"] != "#1"] + [{**next(s for s in data["seats"] if s["id"] == "#1"), "id": "Z"}]
    data["facing"] = [[("Z" if x == "#1" else x) for x in pair] for pair in data["facing"]]
    other = Board.model_validate(data)
    problem = preset_problem(preset, other)
    assert problem is not None and "seat #1, which is not on this board" in problem


def test_writes_are_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    library = ReglementLibrary(tmp_path)
    library.save_board("mine", default_board())
    before = (library.boards_dir / "mine.json").read_bytes()

    def crash(src: Any, dst: Any) -> None:
        raise OSError("disk pulled out")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk pulled out"):
        library.save_board("mine", default_board().with_seat("A", glass=True))
    monkeypatch.undo()
    # the old file is whole, and no temporary file is left behind
    assert (library.boards_dir / "mine.json").read_bytes() == before
    assert sorted(p.name for p in library.boards_dir.iterdir()) == ["mine.json"]
    assert not library.load_board("mine").seat("A").glass


def test_names_become_safe_file_names(tmp_path: Path) -> None:
    assert slug("../../etc/passwd") == "etc-passwd"
    assert slug("Ma table n°2") == "ma-table-n2"
    assert slug("  ") == "unnamed"
    library = ReglementLibrary(tmp_path)
    entry = library.save_board("../escape", default_board())
    assert entry.path.parent == library.boards_dir
