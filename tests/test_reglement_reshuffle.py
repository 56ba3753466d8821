"""Règlement's reshuffle follows the rulebook ("Lorsque la dernière carte de la pioche est
utilisée, mélangez les cartes que vous avez mises de côté"): as the last card of the pile is
drawn, the set-aside cards become the new pile, so the board never shows an empty pile while the
table has reshuffled. Logs of format 1 and 2 (written before) replay as they were written."""

from __future__ import annotations

import json
from pathlib import Path

from companion.engine import BOARD
from companion.games import GAMES
from companion.games.reglement import EndTurn, Knife, Move
from companion.history import check_log, import_log
from companion.room import LOG_FORMAT_VERSION, Host, replay, replay_export
from companion.store import LogEntry, Store
from tests.games.test_reglement_helpers import YELLOW, codes, play, position

GAME = GAMES["reglement"]
FORMAT_2 = Path(__file__).parent / "data" / "format_v2"
#: yellow's Lame at A can knife red's Cogneur at B, then move A -> C: two cards, two to draw
THREE = {"A": "yellow Lame", "B": "red Cogneur", "K": "blue Parrain", "M": "blue Cogneur", "E": "red Parrain"}


def two_cards_played(pile: int, aside: int, reshuffle: str) -> tuple[object, list]:
    state = position(THREE, n=3, turn="yellow").model_copy(update={"draw_pile": pile, "set_aside": aside, "reshuffle": reshuffle})
    state, _ = play(state, Knife(by=YELLOW, target="B"), Move(by=YELLOW, from_seat="A", to_seat="C"))
    assert state.set_aside == aside + 2
    return play(state, EndTurn(by=YELLOW))


def test_drawing_the_last_card_of_the_pile_shuffles_the_set_aside_cards_into_a_new_pile() -> None:
    state, rulings = two_cards_played(pile=2, aside=29, reshuffle="last_card_drawn")
    assert codes(rulings).count("reglement.reshuffled") == 1
    reshuffled = next(r for r in rulings if r.code == "reglement.reshuffled").params["count"]
    board = GAME.project(state, BOARD)
    # the two drawn cards were the pile's last: the 31 set-aside cards are the new pile
    assert reshuffled == 31 and (board.draw_pile, board.set_aside) == (31, 0)


def test_a_short_pile_is_emptied_then_the_rest_drawn_from_the_reshuffled_cards() -> None:
    state, rulings = two_cards_played(pile=1, aside=29, reshuffle="last_card_drawn")
    assert codes(rulings).count("reglement.reshuffled") == 1
    assert (state.draw_pile, state.set_aside) == (30, 0)


def test_an_empty_pile_is_refilled_by_the_card_set_aside_this_turn() -> None:
    state = position(THREE, n=3, turn="yellow").model_copy(update={"draw_pile": 0, "set_aside": 0})
    assert state.reshuffle == "last_card_drawn"
    state, _ = play(state, Knife(by=YELLOW, target="B"))
    state, rulings = play(state, EndTurn(by=YELLOW))
    # the knife card was set aside as it was played: it is the new pile, drawn at once
    assert codes(rulings).count("reglement.reshuffled") == 1 and (state.draw_pile, state.set_aside) == (0, 0)


def test_the_old_rule_left_the_pile_empty_until_a_draw_found_it_short() -> None:
    state, rulings = two_cards_played(pile=2, aside=29, reshuffle="pile_short")
    assert "reglement.reshuffled" not in codes(rulings)
    assert (state.draw_pile, state.set_aside) == (0, 31)


async def test_a_new_room_reshuffles_at_the_last_card_and_an_old_log_keeps_its_rule(tmp_path: Path) -> None:
    host = Host(Store(tmp_path / "rooms.sqlite3"))
    players = [{"name": n, "colour": c} for n, c in [("Ada", "red"), ("Bo", "blue"), ("Cy", "green")]]
    room = await host.create_room("reglement", {"players": players}, seed=3)
    assert room.format_version == LOG_FORMAT_VERSION >= 3 and room.state.reshuffle == "last_card_drawn"
    log = json.loads((FORMAT_2 / "reglement.json").read_text())
    imported = await import_log(host, log)
    assert imported.format_version == 2 and imported.state.reshuffle == "pile_short"
    host.close()


def test_a_format_2_log_replays_to_the_same_result_rulings_and_draw_piles() -> None:
    """The fixture was written by the code before format 3 (tests/data/format_v2/README.md); in it
    a draw takes the pile's last card while cards are set aside."""
    log = json.loads((FORMAT_2 / "reglement.json").read_text())
    recorded = json.loads((FORMAT_2 / "reglement.final.json").read_text())
    assert log["format_version"] == 2
    setup = GAME.setup_model.model_validate(log["room"]["setup"])
    entries = [LogEntry(**e) for e in log["entries"]]
    history = replay(GAME, setup, log["room"]["seed"], entries, 2)
    assert [[r.model_dump(mode="json") for r in o.rulings] for o in history.outcomes] == recorded["rulings"]
    assert [s.draw_pile for s in history.states] == recorded["draw_piles"]
    assert 0 in recorded["draw_piles"]  # the case format 3 reads otherwise is in it
    assert GAME.result(history.state) == recorded["result"] == log["result"]
    assert GAME.project(history.state, BOARD).model_dump(mode="json") == recorded["board"]
    assert GAME.result(replay_export(log)[1]) == log["result"]
    assert check_log(log).log.format_version == 2
    # read as format 3 the same actions reshuffle earlier: the pile is never empty with cards set aside
    today = replay(GAME, setup, log["room"]["seed"], entries[: recorded["draw_piles"].index(0)], 3)
    assert all(s.draw_pile > 0 or s.set_aside == 0 for s in today.states)
    assert [s.draw_pile for s in today.states] != recorded["draw_piles"][: len(today.states)]
