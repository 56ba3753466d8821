"""The Règlement de comptes board as data: the reconstructed default, validation, editing."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from companion.games.reglement import GAME, State, blast_seats
from companion.games.reglement_board import DEFAULT_BOARD_PATH, Board, default_board, load_board
from tests.games.test_reglement_helpers import make_setup, position


def raw_default() -> dict:
    return json.loads(DEFAULT_BOARD_PATH.read_text(encoding="utf-8"))


def rejected(data: dict) -> str:
    with pytest.raises(ValidationError) as error:
        Board.model_validate(data)
    return str(error.value)


# --- the default board satisfies docs/rules/reglement.md#the-board -----------------------------------


def test_the_default_board_is_labelled_reconstructed_and_names_its_reading():
    board = default_board()
    assert board.reconstructed and not board.verified
    assert "RECONSTRUCTED" in board.notes[0]
    assert "one illustrated state" in board.reading and "between Q and R" in board.reading
    assert len(board.seats) >= 30  # 28-30 gangsters start on the table


def test_the_default_board_fits_every_fact_the_rulebook_scenarios_pin_down():
    board = default_board()
    assert set(board.businesses("bar")) == {"D", "L"}
    assert set(board.businesses("restaurant")) == {"G", "R"}
    assert set(board.businesses("gambling")) == {"C", "O"}
    assert [s.id for s in board.seats if s.cash_register] == ["B"]
    assert board.seat("P").knife and board.seat("F").revolver
    assert board.faces("F") == "O" and board.faces("O") == "F"
    assert board.seat("E").glass and board.seat("N").glass
    assert board.neighbours("J") == ("I", "K")  # a cake at J kills I, J and K
    assert board.neighbours("P") == ("O", "Q")  # the knife at P reaches O; a cake on Q spares O
    assert abs(board.index("M") - board.index("N")) <= 2  # one blast kills M and N
    for seat in "AFHJPQ":
        assert board.seat(seat).business is None
    # the chosen reading: Q and R are not neighbours, so blue's cake on Q spares violet's R
    assert "R" not in board.neighbours("Q")


def test_a_cake_on_j_kills_i_j_and_k():
    state = position({"I": "red Cogneur", "J": "blue Cogneur", "K": "red Lame", "A": "yellow Parrain"}, n=3)
    assert blast_seats(state, "J") == ("I", "J", "K")


# --- broken boards are rejected with a message naming the problem ------------------------------------


def test_three_bars_are_rejected():
    data = raw_default()
    next(s for s in data["seats"] if s["id"] == "A")["business"] = "bar"
    assert "the board has 3 bar seats (A, D, L); it needs exactly 2" in rejected(data)


def test_a_missing_register_is_rejected():
    data = raw_default()
    for seat in data["seats"]:
        seat["cash_register"] = False
    assert "the board has 0 cash register seats; it needs exactly 1" in rejected(data)


def test_two_registers_are_rejected():
    data = raw_default()
    data["seats"][0]["cash_register"] = True
    assert "2 cash register seats (A, B)" in rejected(data)


def test_a_seat_facing_two_seats_is_rejected():
    data = raw_default()
    data["facing"].append(["F", "P"])
    assert "seat F faces 2 seats (O, P); a seat faces at most one" in rejected(data)


def test_too_few_seats_are_rejected():
    data = raw_default()
    data["seats"] = data["seats"][:20]
    data["facing"] = [pair for pair in data["facing"] if all(s in {x["id"] for x in data["seats"]} for s in pair)]
    message = rejected(data)
    assert "the board has 20 seats; it needs at least 28" in message


def test_other_broken_boards_are_rejected():
    data = raw_default()
    data["seats"][1]["id"] = "A"
    assert "seat names must be unique: A appear" in rejected(data)
    data = raw_default()
    data["facing"].append(["#1", "ZZ"])
    assert "names seat ZZ, which is not on the board" in rejected(data)
    data = raw_default()
    data["facing"] = [["A", "A"]]
    assert "seat A cannot face itself" in rejected(data)
    data = raw_default()
    data["seats"][0]["x"] = 1.5
    assert "x" in rejected(data)


def test_a_board_too_small_for_the_player_count_is_refused_at_setup():
    data = raw_default()
    keep = [s for s in data["seats"] if s["id"] not in ("#5", "#6")]
    data["seats"] = keep
    data["facing"] = [p for p in data["facing"] if "#5" not in p and "#6" not in p]
    board = Board.model_validate(data)  # 28 seats: a valid board ...
    with pytest.raises(ValidationError, match="the board has 28 seats but 3 players bring 30 gangsters"):
        make_setup(3, board=board)
    assert make_setup(4, board=board).board == board  # ... for 4 players (28 gangsters)


# --- editing, loading, recording --------------------------------------------------------------------


def test_the_host_can_edit_a_seat_and_who_faces_whom():
    board = default_board()
    edited = board.with_seat("#3", glass=True, knife=True)
    assert edited.seat("#3").glass and edited.seat("#3").knife and not board.seat("#3").glass
    refaced = board.with_facing("F", "N")
    assert refaced.faces("F") == "N" and refaced.faces("N") == "F"
    assert refaced.faces("O") is None and refaced.faces("G") is None  # old partners face nobody
    assert board.with_facing("F", None).faces("F") is None
    with pytest.raises(ValidationError, match="3 bar seats"):
        board.with_seat("A", business="bar")
    with pytest.raises(ValueError, match="no seat Z9"):
        board.with_seat("Z9", glass=True)


def test_a_board_loads_from_a_file_and_survives_a_round_trip(tmp_path):
    board = default_board().with_seat("#2", revolver=True)
    path = tmp_path / "my_box.json"
    path.write_text(board.model_dump_json(), encoding="utf-8")
    loaded = load_board(path)
    assert loaded == board and loaded.faces("F") == "O"


def test_a_game_records_the_board_it_is_played_on():
    board = default_board().with_seat("#2", glass=True)
    state = GAME.initial_state(make_setup(3, board=board), seed=3)
    assert state.setup.board == board
    again = State.model_validate_json(state.model_dump_json())
    assert again == state and again.setup.board.seat("#2").glass
    assert again.setup.board.neighbours("A") == ("#12", "B")
