"""Issue 12 at the room: the reveal is its own logged action (the host board's, or every seat's
ready), the undo boundary; logs written before it (format 1) replay unchanged; a seat takes back
its own latest action without showing anything; undone taps are not duplicates; act-for taps
carry the version the finger saw; only the host board advances the round."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Literal

import pytest

from companion.engine import BOARD, RuleError, seat_audience
from companion.games import GAMES
from companion.history import check_log, import_log
from companion.room import LOG_FORMAT_VERSION, Host, Rejected, Room, replay, replay_export
from companion.store import LogEntry, Store
from views.i18n import translator

ROOT = Path(__file__).resolve().parent.parent
FORMAT_1 = ROOT / "tests" / "data" / "format_v1"
PLAYERS = [
    {"name": "Adriano", "colour": "red"},
    {"name": "Benedetta", "colour": "blue"},
    {"name": "Chloé", "colour": "green"},
]
A, B, C = 0, 1, 2


@pytest.fixture
def host(make_host: Any) -> Host:
    return make_host()


async def new_room(host: Host) -> Room:
    return await host.create_room("vabanque", {"players": PLAYERS, "first_player": A}, seed=5)


async def seat_does(room: Room, raw: dict[str, Any], seat: int | None = None) -> Any:
    seat = raw["by"] if seat is None else seat
    return await room.submit(raw, channel="seat", seat=seat, based_on_version=room.version)


async def host_does(room: Room, raw: dict[str, Any]) -> Any:
    return await room.submit(raw, channel="host", seat=None, based_on_version=room.version)


async def refused(code: str, call: Any) -> Rejected:
    with pytest.raises(Rejected) as caught:
        await call
    assert caught.value.code == code
    return caught.value


async def to_cards(room: Room, tables: tuple[int, ...] = (1, 2, 3)) -> None:
    """Round 1's twelve chips (3 players × 4), each on a table of `tables` in turn."""
    for i in range(12):
        await seat_does(room, {"type": "place_chip", "by": room.state.order[i % 3], "table": tables[i % len(tables)]})


CARDS = [("raise", 1), ("bluff", 2), ("cheat", 3)]


async def to_moves(room: Room) -> None:
    await to_cards(room)
    for turn in range(3):
        for seat in room.state.order:
            card, table = CARDS[(turn + seat) % 3]
            await seat_does(room, {"type": "place_card", "by": seat, "table": table, "card": card})


async def all_pawns_move(room: Room) -> None:
    for seat in room.state.order:
        await seat_does(room, {"type": "move_pawn", "by": seat, "steps": 1})


def wire(room: Room, audience: Any) -> str:
    """What an audience is sent: its projection and the board's recent rulings, as bytes."""
    return room.view(audience).model_dump_json() + json.dumps([r.model_dump() for r in room.recent_rulings()])


# -- format 1: logs written before the reveal action replay unchanged ---------------------------


@pytest.mark.parametrize("game_id", ["vabanque", "corruption", "chicago_poker", "reglement"])
def test_a_format_1_log_replays_to_the_same_result_rulings_and_reveals(game_id: str) -> None:
    """The fixtures were written by the code before the reveal action (tests/data/format_v1/
    README.md): their every ruling, reveal and final state must come out the same."""
    log = json.loads((FORMAT_1 / f"{game_id}.json").read_text())
    recorded = json.loads((FORMAT_1 / f"{game_id}.final.json").read_text())
    assert log["format_version"] == 1
    game = GAMES[game_id]
    setup = game.setup_model.model_validate(log["room"]["setup"])
    entries = [LogEntry(**e) for e in log["entries"]]
    history = replay(game, setup, log["room"]["seed"], entries, 1)
    assert [[r.model_dump(mode="json") for r in o.rulings] for o in history.outcomes] == recorded["rulings"]
    assert [o.reveals for o in history.outcomes] == recorded["reveals"]
    assert game.result(history.state) == recorded["result"] == log["result"]
    now = history.state.model_dump(mode="json")
    assert {k: now[k] for k in recorded["state"]} == recorded["state"]  # fields added since: not compared
    # the same through an export's replay and the import checks
    assert game.result(replay_export(log)[1]) == log["result"]
    assert check_log(log).log.format_version == 1
    if game_id != "reglement":  # read as format 2, the same log waits at its first reveal
        with pytest.raises(RuleError, match=r"\.err\.wrong_phase"):
            replay(game, setup, log["room"]["seed"], entries, 2)


async def test_an_imported_format_1_log_stays_format_1_through_a_restart(tmp_path: Path) -> None:
    log = json.loads((FORMAT_1 / "vabanque.json").read_text())
    first = Host(Store(tmp_path / "one.sqlite3"))
    room = await import_log(first, log)
    assert room.format_version == 1 and room.export(complete=True)["format_version"] == 1
    first.close()
    again = Host(Store(tmp_path / "one.sqlite3"))
    (restored,) = again.imported.values()
    assert restored.format_version == 1 and restored.game.result(restored.state) == log["result"]
    again.close()


async def test_a_room_stored_before_format_versions_keeps_auto_revealing(tmp_path: Path) -> None:
    """A database from before log_formats existed has no row for its rooms: they read as format
    1, and a live last pawn move there still reveals at once."""
    path = tmp_path / "referee.sqlite3"
    first = Host(Store(path))
    room = await new_room(first)
    await to_moves(room)
    room_id = first.rooms[room.id].id
    first.close()
    db = sqlite3.connect(path)
    db.execute("DROP TABLE log_formats")  # as an older host left the file
    db.commit()
    db.close()
    old = Host(Store(path))
    room = old.rooms[room_id]
    assert room.format_version == 1
    await all_pawns_move(room)
    assert room.state.phase == "payout" and room.history.outcomes[-1].reveals
    old.close()


# -- format 2: the reveal is its own action -----------------------------------------------------


async def test_the_last_move_reveals_nothing_and_the_host_reveal_is_the_undo_boundary(host: Host) -> None:
    room = await new_room(host)
    assert room.format_version == LOG_FORMAT_VERSION >= 2
    await to_moves(room)
    await all_pawns_move(room)
    board = room.view(BOARD)
    assert room.state.phase == "reveal" and board.awaiting_reveal and board.board_legal.reveal
    assert board.payouts == () and all(t.payout is None for t in board.tables)
    assert board.waiting_for == (A, B, C) and room.view(seat_audience(B)).my_legal.ready
    assert room.undoable() == 3 + 9 + 12  # nothing revealed yet: the hurried last move can go back
    # a phone may not reveal for everyone
    await refused("vabanque.err.host_reveals", seat_does(room, {"type": "reveal", "by": None}, seat=B))
    accepted = await host_does(room, {"type": "reveal"})
    assert room.log_entries[-1].payload == {"type": "reveal", "by": None} and room.log_entries[-1].channel == "host"
    assert [r.code for r in accepted.rulings][:2] == ["vabanque.revealed", "vabanque.table_value"]
    assert room.state.phase == "payout" and room.history.outcomes[-1].reveals
    assert room.undoable() == 0
    await refused("room.err.undo_reveal", room.undo(1))


async def test_every_seat_ready_reveals_with_the_last_ready_and_undo_stops_there(host: Host) -> None:
    room = await new_room(host)
    await to_moves(room)
    await all_pawns_move(room)
    await seat_does(room, {"type": "ready", "by": C})
    await refused("vabanque.err.already_ready", seat_does(room, {"type": "ready", "by": C}))
    await seat_does(room, {"type": "ready", "by": A})
    assert room.view(BOARD).ready == (C, A) and room.view(BOARD).waiting_for == (B,) and room.state.payouts == ()
    last = await seat_does(room, {"type": "ready", "by": B})
    assert [r.code for r in last.rulings][:3] == ["vabanque.ready", "vabanque.all_ready", "vabanque.table_value"]
    assert room.history.outcomes[-1].reveals and room.state.phase == "payout"
    await refused("room.err.undo_reveal", room.undo(1))
    # the payout: a phone cannot start the next round for everyone; ready from all, or the host
    await refused("vabanque.err.host_starts_round", seat_does(room, {"type": "next_round", "by": A}))
    await seat_does(room, {"type": "ready", "by": A})
    assert room.state.phase == "payout" and room.view(seat_audience(A)).my_legal.ready is False
    assert room.view(seat_audience(A)).my_legal.next_round is False
    assert room.undoable() == 1  # a ready after the reveal may be undone
    await host_does(room, {"type": "next_round"})
    assert room.state.phase == "chips" and room.state.round == 2 and room.state.ready == ()


def test_host_only_refusals_are_translated() -> None:
    for lang in ("en", "fr", "ru"):
        tr = translator(lang)
        for code in ("vabanque.err.host_reveals", "vabanque.err.host_starts_round", "corruption.err.host_reveals", "chicago_poker.err.host_reveals"):
            text = tr.t(code, [p["name"] for p in PLAYERS])
            assert text and text != code and "{" not in text


# -- take-back ----------------------------------------------------------------------------------


async def card_room(host: Host, card: str) -> Room:
    """A room in the cards phase where Adriano has just placed `card` at table 4."""
    room = await new_room(host)
    await to_cards(room)
    await seat_does(room, {"type": "place_card", "by": A, "table": 4, "card": card})
    return room


async def test_take_back_undoes_only_the_owners_latest_action_and_shows_nothing(host: Host) -> None:
    one, two = await card_room(host, "cheat"), await card_room(host, "raise")
    for room in (one, two):
        assert room.take_back_status(A).available and room.take_back_status(A).refusal is None
        assert room.take_back_status(B).refusal == "room.err.take_back_later"  # B's chips came before
        accepted = await room.take_back(A, based_on_version=room.version)
        assert [r.model_dump() for r in accepted.rulings] == [{"code": "room.taken_back", "params": {"seat": A}}]
        entry = room.log_entries[-1]
        assert (entry.kind, entry.payload, entry.channel) == ("undo", {"count": 1, "seat": A}, "seat")
        assert room.state.step == 0 and room.state.placements == () and room.state.phase == "cards"
    # The two tables differ only in the card taken back: every other audience gets the same bytes.
    for audience in (BOARD, seat_audience(B), seat_audience(C)):
        assert wire(one, audience) == wire(two, audience)
    assert "cheat" not in wire(one, BOARD) and "raise" not in json.dumps([r.model_dump() for r in one.recent_rulings()])
    for lang in ("en", "fr", "ru"):
        text = translator(lang).t("room.taken_back", one.names, seat=A)
        assert "Adriano" in text and "{" not in text


async def test_take_back_is_refused_once_another_action_exists_or_after_a_reveal(host: Host) -> None:
    room = await card_room(host, "bluff")
    await seat_does(room, {"type": "place_card", "by": B, "table": 5, "card": "raise"})
    assert room.take_back_status(A).refusal == "room.err.take_back_later"
    await refused("room.err.take_back_later", room.take_back(A, based_on_version=room.version))
    await refused("room.err.stale", room.take_back(B, based_on_version=room.version - 1))
    fresh = await new_room(host)
    assert fresh.take_back_status(A).refusal == "room.err.take_back_nothing"
    await refused("room.err.take_back_nothing", fresh.take_back(A, based_on_version=fresh.version))
    # after a reveal: the last ready revealed the payout
    room = await new_room(host)
    await to_moves(room)
    await all_pawns_move(room)
    for seat in (A, B, C):
        await seat_does(room, {"type": "ready", "by": seat})
    assert room.take_back_status(C).refusal == "room.err.take_back_revealed"
    await refused("room.err.take_back_revealed", room.take_back(C, based_on_version=room.version))
    # the others' moves lie behind the reveal: nothing of theirs is left to take back (the phone
    # hides the button rather than explain a greyed one all round), until they act again
    assert room.take_back_status(A).refusal == room.take_back_status(B).refusal == "room.err.take_back_nothing"
    for code in ("room.err.take_back_nothing", "room.err.take_back_later", "room.err.take_back_revealed", "room.err.take_back_host_entered"):
        for lang in ("fr", "ru"):
            assert translator(lang).t(code) != translator("en").t(code)


def test_a_move_the_host_entered_for_a_seat_is_the_hosts_to_undo_and_the_phone_says_so() -> None:
    """A seat whose latest move the host board entered for it (after one of its own) is told
    why it cannot take it back: not "another action came after yours", which it did not."""
    from companion.engine import Outcome
    from companion.room import take_back_refusal
    from companion.store import LogEntry

    def entry(seq: int, by: int, channel: Literal["seat", "host"]) -> LogEntry:
        return LogEntry(seq=seq, kind="action", payload={"type": "move", "by": by}, channel=channel, key=f"k{seq}", at=0.0)

    own, entered, other = entry(1, A, "seat"), entry(2, A, "host"), entry(3, B, "host")
    outcomes = [Outcome(state=None, rulings=())] * 3
    assert take_back_refusal([own], outcomes[:1], A) is None
    assert take_back_refusal([own, entered], outcomes[:2], A) == "room.err.take_back_host_entered"
    assert take_back_refusal([own, entered, other], outcomes, A) == "room.err.take_back_later"


async def test_a_take_back_sent_twice_is_applied_once_and_survives_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "referee.sqlite3"
    first = Host(Store(path))
    room = await card_room(first, "raise")
    version = room.version
    once = await room.take_back(A, based_on_version=version)
    again = await room.take_back(A, based_on_version=version)
    assert again.duplicate and again.seq == once.seq and room.version == version + 1
    state = room.state.model_dump_json()
    first.close()
    second = Host(Store(path))
    restored = second.rooms[room.id]
    assert restored.state.model_dump_json() == state
    assert (await restored.take_back(A, based_on_version=version)).duplicate
    assert restored.recent_rulings()[-1].code == "room.taken_back"
    second.close()


@pytest.mark.parametrize("how", ["take_back", "host_undo"])
async def test_what_just_happened_lists_only_actions_in_effect(host: Host, how: str, tmp_path: Path) -> None:
    """An undone action's rulings leave the board's list (it showed "placed a card face down at
    table 4" after the take-back); the undo's notice stays, and so do the actions before it."""
    room = await new_room(host)
    await to_cards(room)
    before = [r.model_dump() for r in room.recent_rulings()]
    await seat_does(room, {"type": "place_card", "by": A, "table": 4, "card": "cheat"})
    placed = [r.model_dump() for r in room.recent_rulings()][len(before) :]
    assert placed and all(r["params"].get("seat", A) == A for r in placed)  # the card's public ruling(s)
    if how == "take_back":
        await room.take_back(A, based_on_version=room.version)
        notice = {"code": "room.taken_back", "params": {"seat": A}}
    else:
        await room.undo(1)
        notice = {"code": "room.undone", "params": {"seat": A, "count": 1}}
    assert [r.model_dump() for r in room.recent_rulings()] == [*before, notice]
    # the same after a restart
    again = Host(Store(host.store.store.path))
    try:
        assert [r.model_dump() for r in again.rooms[room.id].recent_rulings()] == [*before, notice]
    finally:
        again.close()
    # the card placed again is listed again, once
    await seat_does(room, {"type": "place_card", "by": A, "table": 4, "card": "raise"})
    assert [r.model_dump() for r in room.recent_rulings()] == [*before, notice, *placed]


@pytest.mark.parametrize("how", ["take_back", "host_undo"])
async def test_a_tap_sent_again_after_an_undo_is_not_a_duplicate_of_nothing(host: Host, how: str, tmp_path: Path) -> None:
    room = await new_room(host)
    await to_cards(room)
    tap = {"type": "place_card", "by": A, "table": 4, "card": "cheat"}
    shown = room.version
    await room.submit(tap, channel="seat", seat=A, based_on_version=shown)
    if how == "take_back":
        await room.take_back(A, based_on_version=room.version)
    else:
        await room.undo(1)
    assert room.state.placements == ()
    # the same tap re-sent (a reconnect) is not "accepted" while nothing is in effect: stale
    await refused("room.err.stale", room.submit(tap, channel="seat", seat=A, based_on_version=shown))
    # tapped again on the redrawn page, it is applied again
    accepted = await room.submit(tap, channel="seat", seat=A, based_on_version=room.version)
    assert not accepted.duplicate and len(room.state.placements) == 1
    # and after a restart the undone tap's key is not remembered either
    again = Host(Store(host.store.store.path))
    restored = again.rooms[room.id]
    assert restored.keys == room.keys
    again.close()


# -- act-for taps carry the version the finger saw -----------------------------------------------


async def test_a_second_act_for_tap_on_the_same_shown_version_is_stale_not_the_next_player(host: Host) -> None:
    """The host board's double tap on "+1": the second carries the version the finger saw, and
    the next player's identical move made from it is refused, not applied for them."""
    room = await new_room(host)
    await to_moves(room)
    shown = room.version
    first, second = room.state.order[0], room.state.order[1]
    await room.submit({"type": "move_pawn", "by": first, "steps": 1}, channel="host", seat=None, based_on_version=shown)
    await refused("room.err.stale", room.submit({"type": "move_pawn", "by": second, "steps": 1}, channel="host", seat=None, based_on_version=shown))
    assert room.version == shown + 1 and room.state.step == 1
    # the very same tap re-sent is the same submission: answered, applied once
    dup = await room.submit({"type": "move_pawn", "by": first, "steps": 1}, channel="host", seat=None, based_on_version=shown)
    assert dup.duplicate and room.version == shown + 1
    # a phone acting twice in a row: the second tap from the same shown version is stale too
    room = await new_room(host)
    shown = room.version
    await room.submit({"type": "place_chip", "by": A, "table": 1}, channel="pass", seat=A, based_on_version=shown)
    await refused("room.err.stale", room.submit({"type": "place_chip", "by": B, "table": 1}, channel="pass", seat=B, based_on_version=shown))


# -- export, import: format 2 with take-backs --------------------------------------------------


async def test_a_format_2_log_with_take_backs_and_reveals_imports_and_replays(host: Host, tmp_path: Path) -> None:
    import random

    room = await new_room(host)
    rng = random.Random(3)
    took_back = 0
    while (action := room.game.random_action(room.state, rng)) is not None:
        await seat_does(room, action.model_dump(mode="json"))
        if room.take_back_status(action.by).available and rng.random() < 0.1:
            await room.take_back(action.by, based_on_version=room.version)
            took_back += 1
    assert took_back and room.over
    log = room.export(complete=True)
    assert log["format_version"] == LOG_FORMAT_VERSION >= 2
    assert any(e["kind"] == "undo" and "seat" in e["payload"] for e in log["entries"])
    assert any(e["payload"].get("type") == "ready" for e in log["entries"])
    other = Host(Store(tmp_path / "other.sqlite3"))
    imported = await import_log(other, log)
    assert imported.format_version == LOG_FORMAT_VERSION and imported.export(complete=True)["entries"] == log["entries"]
    other.close()
    # a take-back naming a seat that did not make the latest action is refused
    forged = json.loads(json.dumps(log))
    undo = next(e for e in forged["entries"] if e["kind"] == "undo")
    undo["payload"]["seat"] = (undo["payload"]["seat"] + 1) % 3
    with pytest.raises(Rejected) as caught:
        check_log(forged)
    assert caught.value.code == "history.err.bad_undo"
