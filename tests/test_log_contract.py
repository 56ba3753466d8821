"""The exported log as a contract: what an import accepts (its version, its identity), what
`main.py replay` says about a bad or unfinished log, and docs/log.schema.json (current, and
every game's actions valid against it)."""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import main
from companion.engine import BOARD
from companion.games import GAMES
from companion.history import RESULT_MODELS, check_log, import_log, read_log, refusal_text
from companion.i18n import translator
from companion.room import LOG_FORMAT, LOG_FORMAT_VERSION, Rejected
from tests.test_history import ENDED_AT, finished_room, store_rows

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("Aurelia", "Bastien", "Cosima")


# -- import: the version and the game's identity --


@pytest.mark.parametrize("version", [True, 1.0, "1", None])
async def test_a_format_version_that_is_not_an_integer_is_refused(version: Any, make_host: Any, monkeypatch: Any) -> None:
    """`true == 1` and `1.0 == 1` in Python: the version must be the integer itself."""
    room = await finished_room(make_host("home"), "vabanque", NAMES, monkeypatch, ENDED_AT)
    log = room.export(complete=True)
    check_log(log)  # as exported, it passes
    log["format_version"] = version
    target = make_host("target")
    before = store_rows(target)
    with pytest.raises(Rejected) as refused:
        await import_log(target, json.dumps(log).encode())
    assert refused.value.code == "history.err.version"
    assert store_rows(target) == before and not target.imported


def shift_dates(log: dict[str, Any]) -> None:
    log["room"]["created"] += 1
    for entry in log["entries"]:
        entry["at"] += 1


def other_room_id(log: dict[str, Any]) -> None:
    log["room"]["id"] = "zzzzzz"


def an_undo_more(log: dict[str, Any]) -> None:
    """The first action placed, undone by the host and placed again: the same game in effect."""
    first = log["entries"][0]
    undo = {"kind": "undo", "payload": {"count": 1}, "channel": "host", "at": first["at"]}
    log["entries"] = [{**e, "seq": i} for i, e in enumerate([first, undo, *log["entries"]], start=1)]


@pytest.mark.parametrize("change", [shift_dates, other_room_id, an_undo_more], ids=lambda f: f.__name__)
async def test_the_same_game_is_recognised_whatever_its_dates(change: Any, make_host: Any, monkeypatch: Any) -> None:
    room = await finished_room(make_host("home"), "vabanque", NAMES, monkeypatch, ENDED_AT)
    target = make_host("target")
    first = await import_log(target, room.export(complete=True))
    log = room.export(complete=True)
    change(log)
    check_log(log)  # a good log in itself
    before = store_rows(target)
    with pytest.raises(Rejected) as refused:
        await import_log(target, json.dumps(log).encode())
    assert refused.value.code == "history.err.already_here" and refused.value.params["room"] == first.id
    assert store_rows(target) == before and list(target.imported) == [first.id]


async def test_a_finished_room_of_this_host_is_already_here(make_host: Any, monkeypatch: Any) -> None:
    host = make_host()
    room = await finished_room(host, "vabanque", NAMES, monkeypatch, ENDED_AT)
    log = room.export(complete=True)
    shift_dates(log)
    with pytest.raises(Rejected) as refused:
        await import_log(host, log)
    assert refused.value.params["room"] == room.id


async def test_another_game_with_the_same_dates_is_imported(make_host: Any, monkeypatch: Any) -> None:
    """Two games created at the same moment (the old check compared dates) are two games."""
    home = make_host("home")
    one = await finished_room(home, "vabanque", NAMES, monkeypatch, ENDED_AT, seed=7)
    two = await finished_room(home, "vabanque", NAMES, monkeypatch, ENDED_AT, seed=8)
    assert one.created == two.created
    target = make_host("target")
    await import_log(target, one.export(complete=True))
    await import_log(target, two.export(complete=True))
    assert len(target.imported) == 2


# -- main.py replay --


def write_log(tmp_path: Path, log: dict[str, Any]) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    return path


def run_replay(path: Path, capsys: Any) -> tuple[int, str, str]:
    code = main.main(["replay", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


async def test_replay_prints_the_final_board(make_host: Any, monkeypatch: Any, tmp_path: Path, capsys: Any) -> None:
    room = await finished_room(make_host(), "vabanque", NAMES, monkeypatch, ENDED_AT)
    code, out, err = run_replay(write_log(tmp_path, room.export(complete=True)), capsys)
    assert code == 0 and err == ""
    printed = json.loads(out)
    assert printed["over"] is True and printed["result"] == room.game.result(room.state)
    assert printed["board"] == room.view(BOARD).model_dump(mode="json")
    assert list(printed["money"].values()) == list(room.state.money) and printed["players"] == list(NAMES)


async def test_replay_of_an_illegal_action_names_the_entry_and_the_rule(make_host: Any, monkeypatch: Any, tmp_path: Path) -> None:
    """As the import checker says it, in a real process: no traceback, exit 2."""
    room = await finished_room(make_host(), "vabanque", NAMES, monkeypatch, ENDED_AT)
    log = room.export(complete=True)
    log["entries"][0]["payload"]["by"] = (log["entries"][0]["payload"]["by"] + 1) % 3
    with pytest.raises(Rejected) as refused:
        check_log(log)
    expected = refusal_text(translator("en"), refused.value)
    assert expected.startswith("Entry 1 breaks the rules: It is ") and expected.endswith(", not yours.")
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "main.py"), "replay", str(write_log(tmp_path, log)),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    assert process.returncode == 2 and out == b""
    assert err.decode() == f"cannot replay: {expected}\n"


@pytest.mark.parametrize("recorded", ["absent", "null"])
async def test_replay_of_a_log_that_stops_mid_game_says_so(recorded: str, make_host: Any, monkeypatch: Any, tmp_path: Path, capsys: Any) -> None:
    """A complete log (every secret in it) of a game that has not ended, with no result: replayed."""
    room = await finished_room(make_host(), "vabanque", NAMES, monkeypatch, ENDED_AT)
    log = room.export(complete=True)
    del log["entries"][len(log["entries"]) // 2 :]
    if recorded == "absent":
        del log["result"]
    else:
        log["result"] = None
    code, out, err = run_replay(write_log(tmp_path, log), capsys)
    assert code == 0
    printed = json.loads(out)
    assert printed["over"] is False and printed["result"] is None and printed["board"]["game"] == "vabanque"
    assert err == f"unfinished: {translator('en').t('history.replay_unfinished')}\n"


async def test_replay_refuses_a_result_recorded_for_a_game_that_has_not_ended(make_host: Any, monkeypatch: Any, tmp_path: Path, capsys: Any) -> None:
    room = await finished_room(make_host(), "vabanque", NAMES, monkeypatch, ENDED_AT)
    log = room.export(complete=True)
    del log["entries"][len(log["entries"]) // 2 :]  # cut short, the final result still in it
    code, out, err = run_replay(write_log(tmp_path, log), capsys)
    assert code == 2 and out == ""
    assert err == (
        "cannot replay: The log records a result, but the game in it has not ended after its last entry: "
        "leave `result` out (or null) to replay it as it stands.\n"
    )


@pytest.mark.parametrize(
    "damage,message",
    [
        (lambda log: log["result"].__setitem__("winners", [9]), "The log's recorded result is not the one its actions give"),
        (lambda log: log.__setitem__("complete", False), "This log has its secrets removed (exported while the game was running): its hidden moves cannot be checked, so it can be neither replayed nor imported."),
        (lambda log: log["entries"].pop(3), "Entry 4 is missing from the log."),
    ],
    ids=["changed result", "redacted", "missing entry"],
)
async def test_replay_refuses_a_damaged_log_with_the_reason(damage: Any, message: str, make_host: Any, monkeypatch: Any, tmp_path: Path, capsys: Any) -> None:
    room = await finished_room(make_host(), "vabanque", NAMES, monkeypatch, ENDED_AT)
    log = room.export(complete=True)
    damage(log)
    code, out, err = run_replay(write_log(tmp_path, log), capsys)
    assert code == 2 and out == "" and err.startswith(f"cannot replay: {message}"), err


def test_replay_of_a_file_that_is_not_a_log(tmp_path: Path, capsys: Any) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"{not json")
    code, _, err = run_replay(path, capsys)
    assert code == 2 and err.startswith("cannot replay: The file is not readable JSON (line 1, column 2")
    code, _, err = run_replay(tmp_path / "missing.json", capsys)
    assert code == 2 and err.startswith("cannot replay: ") and "missing.json" in err



# -- a log a person writes: its result may be left out, and a wrong one is shown --


def written_log(game_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A complete log of a finished seeded random game as a person or program would write it: no
    `result` key. Returned with the result the game's engine gives."""
    setup, seed, actions, result = next(random_games(GAMES[game_id], 1))
    assert result is not None
    entries = [
        {"seq": seq, "kind": "action", "payload": action.model_dump(mode="json"), "channel": "seat", "at": ENDED_AT}
        for seq, action in enumerate(actions, start=1)
    ]
    room = {"id": "abc123", "game": game_id, "setup": setup.model_dump(mode="json"), "seed": seed, "created": ENDED_AT}
    return {"format": LOG_FORMAT, "format_version": LOG_FORMAT_VERSION, "complete": True, "room": room, "entries": entries}, result


@pytest.mark.parametrize("recorded", ["absent", "null"])
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_replay_computes_the_result_a_finished_log_leaves_out(game_id: str, recorded: str, tmp_path: Path, capsys: Any) -> None:
    """A replay checks the rules, not a record: with no result, it prints the one the actions give."""
    log, result = written_log(game_id)
    if recorded == "null":
        log["result"] = None
    code, out, err = run_replay(write_log(tmp_path, log), capsys)
    assert code == 0, err
    printed = json.loads(out)
    assert printed["over"] is True and printed["result"] == result
    assert err == f"computed: {translator('en').t('history.replay_result_computed')}\n"
    # what it printed is the result to record: the log then replays as recorded
    log["result"] = printed["result"]
    code, out, err = run_replay(write_log(tmp_path, log), capsys)
    assert code == 0 and err == "" and json.loads(out)["result"] == result


def test_a_recorded_result_is_compared_whatever_its_key_order(tmp_path: Path, capsys: Any) -> None:
    log, result = written_log("corruption")
    log["result"] = dict(reversed(result.items()))
    assert list(log["result"]) != list(result)
    code, out, err = run_replay(write_log(tmp_path, log), capsys)
    assert code == 0 and err == "" and json.loads(out)["result"] == result


def other_seat(seat: int) -> int:
    return (seat + 1) % 3


@pytest.mark.parametrize("game_id", ["corruption", "vabanque"])
def test_replay_refuses_another_result_showing_both_field_by_field(game_id: str, tmp_path: Path, capsys: Any) -> None:
    """Every field of both results, one line each: the same ones once, the others side by side
    (a field left out, one the game has not, a value of another type)."""
    log, result = written_log(game_id)
    (winner,) = result["winners"]
    if game_id == "corruption":
        log["result"] = {"score": result["score"], "winners": [other_seat(winner)], "rounds": 3}  # no `contracts`
        expected = [
            f"  score: {json.dumps(result['score'])} in both",
            f"  contracts: recorded (absent), computed {json.dumps(result['contracts'])}",
            f"  winners: recorded [{other_seat(winner)}], computed [{winner}]",
            "  rounds: recorded 3, computed (absent)",
        ]
    else:
        money = list(result["money"])
        money[0] += 1000
        log["result"] = {"winners": winner, "money": money}  # a seat, not a list of seats
        expected = [
            f"  money: recorded {json.dumps(money)}, computed {json.dumps(result['money'])}",
            f"  winners: recorded {winner}, computed [{winner}]",
        ]
    code, out, err = run_replay(write_log(tmp_path, log), capsys)
    assert code == 2 and out == ""
    assert err.splitlines() == ["cannot replay: The log's recorded result is not the one its actions give (field by field):", *expected]


@pytest.mark.parametrize("recorded", ["absent", "null"])
async def test_import_needs_the_result_it_checks(recorded: str, make_host: Any, tmp_path: Path, capsys: Any) -> None:
    """A finished log without its result is refused, saying why and what its actions give; with
    the result `main.py replay` computed, the same log is imported."""
    log, result = written_log("vabanque")
    if recorded == "null":
        log["result"] = None
    host = make_host()
    before = store_rows(host)
    with pytest.raises(Rejected) as refused:
        await import_log(host, json.dumps(log).encode())
    assert refused.value.code == "history.err.result_missing"
    assert refusal_text(translator("en"), refused.value) == (
        "This log records no result. An import keeps a finished game with the result it checked against the "
        f"actions, so the log must record it; its actions give: {json.dumps(result)}"
    )
    assert store_rows(host) == before and not host.imported
    code, out, _ = run_replay(write_log(tmp_path, log), capsys)
    assert code == 0
    log["result"] = json.loads(out)["result"]
    room = await import_log(host, json.dumps(log).encode())
    assert list(host.imported) == [room.id] and room.game.result(room.state) == result


async def test_import_refuses_a_complete_log_of_an_unfinished_game(make_host: Any) -> None:
    log, _ = written_log("vabanque")
    del log["entries"][len(log["entries"]) // 2 :]
    assert read_log(log).state.phase != "over"  # it replays, to a game still running
    host = make_host()
    with pytest.raises(Rejected) as refused:
        await import_log(host, log)
    assert refusal_text(translator("en"), refused.value) == "The game in this log has not ended: only a finished game can be imported."
    assert not host.imported


# -- docs/log.schema.json: every game's actions, and nothing else --

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black")


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    from companion.schema import SCHEMA_PATH, log_schema

    written = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert written == json.loads(log_schema()), "run: uv run python -m companion.schema"
    return written


def validator(schema: dict[str, Any], definition: str | None = None) -> Any:
    """A validator of the whole schema, or of one of its definitions (for a precise message)."""
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(schema)
    target = schema if definition is None else {"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"}
    return Draft202012Validator(target)


def random_games(game: Any, count: int) -> Any:
    """(setup, seed, actions) of seeded random games, over player counts and each house rule."""
    rules = [(rule, value) for rule, values in game.house_rules.items() for value in values]
    for seed in range(count):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        rule, value = rules[seed % len(rules)]
        setup = game.setup_model.model_validate(
            {"players": [{"name": f"P{i}", "colour": COLOURS[i]} for i in range(players)], rule: value}
        )
        state, rng, actions = game.initial_state(setup, seed), random.Random(seed), []
        while (action := game.random_action(state, rng)) is not None:
            actions.append(action)
            state = game.apply(state, action).state
            assert len(actions) < 20_000
        yield setup, seed, actions, game.result(state)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_random_action_of_every_game_fits_the_schema(game_id: str, schema: dict[str, Any]) -> None:
    """Every action the simulator produces, as a log entry of its game, and whole logs of them."""
    from companion.schema import _pascal

    game = GAMES[game_id]
    # The game's own branch of the schema (the whole schema's oneOf tries every game's branch on
    # every entry: the same verdict, several times slower).
    log_validator = validator(schema, f"{_pascal(game_id)}Log")
    types: set[str] = set()
    for setup, seed, actions, result in random_games(game, 8):
        entries = [
            {"seq": seq, "kind": "action", "payload": action.model_dump(mode="json"), "channel": "seat", "at": ENDED_AT}
            for seq, action in enumerate(actions, start=1)
        ]
        types |= {e["payload"]["type"] for e in entries}
        room = {"id": "abc123", "game": game_id, "setup": setup.model_dump(mode="json"), "seed": seed, "created": ENDED_AT}
        log = {"format": LOG_FORMAT, "format_version": LOG_FORMAT_VERSION, "complete": True, "room": room, "entries": entries, "result": result}
        errors = [(e.json_path, e.message[:200]) for e in log_validator.iter_errors(log)]
        assert not errors, errors[:3]
        # the game's result model describes what its engine writes: fields, types, their order
        assert RESULT_MODELS[game_id].model_validate(result).model_dump() == result
        assert list(result) == list(RESULT_MODELS[game_id].model_fields)
        assert result["winners"] == sorted(set(result["winners"]))
        if seed == 0:
            validator(schema).validate(log)  # the whole schema picks this game's branch
            check_log(log)  # and the host takes it: the schema describes what it reads
    # the random games used most of the game's actions (an action shape the schema gets wrong
    # and no game ever plays would go unnoticed)
    all_types = set(schema["$defs"][f"{_pascal(game_id)}ActionEntry"]["properties"]["payload"]["discriminator"]["mapping"])
    assert len(types) >= len(all_types) * 2 // 3, sorted(all_types - types)


async def test_exported_logs_fit_the_schema_and_broken_ones_do_not(make_host: Any, monkeypatch: Any, schema: dict[str, Any]) -> None:
    host = make_host()
    monkeypatch.setattr("companion.room.now", lambda: ENDED_AT)
    room = await host.create_room("vabanque", {"players": [{"name": n, "colour": c} for n, c in zip(NAMES, COLOURS)]}, seed=7)
    rng = random.Random(7)
    action = room.game.random_action(room.state, rng)
    await room.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=room.version)
    await room.undo(1)
    check = validator(schema)
    check.validate(room.export(complete=False))  # redacted, while it runs
    while (action := room.game.random_action(room.state, rng)) is not None:
        await room.submit(action.model_dump(mode="json"), channel="seat" if action.by is not None else "host", seat=action.by, based_on_version=room.version)
    complete = room.export(complete=True)
    check.validate(complete)
    assert any(e["kind"] == "undo" for e in complete["entries"])

    def broken(change: Any) -> dict[str, Any]:
        """The log's first entries (still a log as far as its shape goes), changed."""
        log = json.loads(json.dumps({**complete, "entries": complete["entries"][:4]}))
        assert check.is_valid(log)
        change(log)
        return log

    first = next(i for i, e in enumerate(complete["entries"]) if e["kind"] == "action")
    for change in (
        lambda log: log.pop("format"),
        lambda log: log.__setitem__("format_version", True),
        lambda log: log["entries"][first]["payload"].__setitem__("type", "deal_cards"),
        lambda log: log["entries"][first]["payload"].pop("by"),
        lambda log: log["entries"][first]["payload"].__setitem__("colour", "red"),
        lambda log: log["entries"][first]["payload"].pop("type"),
        lambda log: log["room"].__setitem__("game", "corruption"),
        lambda log: log["room"]["setup"].__setitem__("raise_rule", "tripling"),
        lambda log: log["entries"][first].__setitem__("channel", "radio"),
    ):
        assert not check.is_valid(broken(change))


def test_the_schema_documents_each_games_result_and_lets_a_log_leave_it_out(schema: dict[str, Any]) -> None:
    from companion.schema import _pascal

    assert set(RESULT_MODELS) == set(GAMES)
    for game_id in sorted(GAMES):
        log, result = written_log(game_id)
        definition = schema["$defs"][f"{_pascal(game_id)}Result"]
        assert definition["required"] == list(result) and definition["additionalProperties"] is False
        assert all(schema_field.get("description") for schema_field in definition["properties"].values())
        branch = schema["$defs"][f"{_pascal(game_id)}Log"]
        assert "result" not in branch["required"] and "complete" in branch["required"]
        assert "may or may not have ended" in branch["properties"]["complete"]["description"]
        check = validator(schema, f"{_pascal(game_id)}Log")
        for recorded in ({}, {"result": None}, {"result": result}):
            assert check.is_valid({**log, **recorded}), recorded
        for wrong in (
            {key: value for key, value in result.items() if key != "winners"},
            {**result, "winners": [str(seat) for seat in result["winners"]]},
            {**result, "rounds": 3},
            {**result, "winners": []},
        ):
            assert not check.is_valid({**log, "result": wrong}), wrong
    corruption, result = written_log("corruption")
    del result["contracts"]
    assert not validator(schema).is_valid({**corruption, "result": result})  # Corruption's result needs `contracts`


# -- replay and import: who may send what on which channel, by the log's format version --


def vabanque_log_with_table_entries(format_version: int = LOG_FORMAT_VERSION, seed: int = 3) -> dict[str, Any]:
    """A finished Vabanque game as a live room of format 2 and later logs it: each seat's actions
    from its phone, the reveals and the next rounds from the host board (`by: null`)."""
    game = GAMES["vabanque"]
    setup = game.setup_model.model_validate({"players": [{"name": n, "colour": c} for n, c in zip(NAMES, COLOURS)]})
    state, rng = game.initial_state(setup, seed), random.Random(seed)
    entries: list[dict[str, Any]] = []
    while (action := game.random_action(state, rng)) is not None:
        if game.awaiting_reveal(state):
            action = game.action_adapter.validate_python({"type": "reveal", "by": None})
        elif state.phase == "payout":
            action = game.action_adapter.validate_python({"type": "next_round", "by": None})
        channel = "host" if action.by is None else "seat"
        entries.append({"seq": len(entries) + 1, "kind": "action", "payload": action.model_dump(mode="json"), "channel": channel, "at": ENDED_AT})
        state = game.apply(state, action).state
    room = {"id": "abc123", "game": "vabanque", "setup": setup.model_dump(mode="json"), "seed": seed, "created": ENDED_AT}
    log = {"format": LOG_FORMAT, "format_version": format_version, "complete": True, "room": room, "entries": entries, "result": game.result(state)}
    check_log(log)  # as a live room of this format would have written it
    return log


def first_entry(log: dict[str, Any], action_type: str) -> dict[str, Any]:
    return next(e for e in log["entries"] if e["kind"] == "action" and e["payload"]["type"] == action_type)


def refused_by_import_and_replay(log: dict[str, Any], tmp_path: Path, capsys: Any) -> tuple[Rejected, str]:
    """The import check's refusal and its text, which `main.py replay` prints as well."""
    with pytest.raises(Rejected) as refused:
        check_log(log)
    text = refusal_text(translator("en"), refused.value)
    code, out, err = run_replay(write_log(tmp_path, log), capsys)
    assert code == 2 and out == "" and err == f"cannot replay: {text}\n"
    return refused.value, text


@pytest.mark.parametrize("format_version", [2, 3, 4])
@pytest.mark.parametrize("action_type,reason", [("reveal", "vabanque.err.host_reveals"), ("next_round", "vabanque.err.host_starts_round")])
def test_a_host_only_action_from_a_seat_is_refused_naming_the_entry(
    action_type: str, reason: str, format_version: int, tmp_path: Path, capsys: Any
) -> None:
    log = vabanque_log_with_table_entries(format_version)
    entry = first_entry(log, action_type)
    entry["channel"] = "seat"
    if action_type == "next_round":  # a phone sending it names its seat
        entry["payload"]["by"] = 1
    refusal, text = refused_by_import_and_replay(log, tmp_path, capsys)
    assert refusal.code == "history.err.wrong_channel" and refusal.params["n"] == entry["seq"]
    assert refusal.params["reason"] == reason
    assert text == f"Entry {entry['seq']} came from a device that may not send it (seat): {translator('en').t(reason)}"


@pytest.mark.parametrize("format_version", [2, 3, 4])
def test_a_secret_action_on_the_host_channel_is_refused(format_version: int, tmp_path: Path, capsys: Any) -> None:
    log = vabanque_log_with_table_entries(format_version)
    entry = first_entry(log, "place_card")
    entry["channel"] = "host"
    refusal, text = refused_by_import_and_replay(log, tmp_path, capsys)
    assert refusal.code == "history.err.wrong_channel" and refusal.params["n"] == entry["seq"]
    assert refusal.params["reason"] == "room.err.secret_on_board"
    assert text == (
        f"Entry {entry['seq']} came from a device that may not send it (host): "
        f"That choice is secret: {NAMES[entry['payload']['by']]} makes it on their own phone."
    )


def take_back_log(format_version: int, action_channel: str, undo_channel: str) -> dict[str, Any]:
    """A game's first action, then that seat taking it back (what `main.py replay` reads)."""
    log = vabanque_log_with_table_entries(format_version)
    first = log["entries"][0]
    assert first["payload"]["type"] == "place_chip" and first["channel"] == "seat"
    undo = {"seq": 2, "kind": "undo", "payload": {"count": 1, "seat": first["payload"]["by"]}, "channel": undo_channel, "at": ENDED_AT}
    return {**log, "entries": [{**first, "channel": action_channel}, undo], "result": None}


@pytest.mark.parametrize(
    "format_version,action_channel,undo_channel,accepted",
    [
        (4, "seat", "seat", True),  # its own move, from its own phone
        (4, "pass", "pass", True),
        (4, "host", "seat", False),  # a move the host board entered for it is the host's to undo
        (4, "seat", "host", False),  # a take-back comes from the seat itself
        (3, "host", "seat", True),  # format 3 took back the seat's latest action, whoever entered it
        (2, "host", "seat", True),
    ],
)
def test_a_take_back_covers_only_what_the_seat_sent_itself_from_format_4(
    format_version: int, action_channel: str, undo_channel: str, accepted: bool, tmp_path: Path, capsys: Any
) -> None:
    log = take_back_log(format_version, action_channel, undo_channel)
    if accepted:
        checked = read_log(log)
        assert not checked.effective and [e.kind for e in checked.entries] == ["action", "undo"]
        code, out, _ = run_replay(write_log(tmp_path, log), capsys)
        assert code == 0 and json.loads(out)["over"] is False
        return
    with pytest.raises(Rejected) as refused:
        read_log(log)
    assert refused.value.code == "history.err.bad_undo" and refused.value.params["n"] == 2
    code, out, err = run_replay(write_log(tmp_path, log), capsys)
    assert code == 2 and err == "cannot replay: Entry 2 undoes actions that could not be undone.\n"


FORMAT_1 = ROOT / "tests" / "data" / "format_v1"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_format_1_logs_keep_the_rules_they_were_played_by(game_id: str, tmp_path: Path, capsys: Any) -> None:
    """In format 1 any phone started Vabanque's next round: its fixtures replay and import as
    written; the host board entering a secret was refused then as now."""
    log = json.loads((FORMAT_1 / f"{game_id}.json").read_text(encoding="utf-8"))
    assert log["format_version"] == 1
    check_log(log)
    code, out, err = run_replay(write_log(tmp_path, log), capsys)
    assert code == 0 and err == "" and json.loads(out)["result"] == log["result"]
    if game_id != "vabanque":
        return
    next_rounds = [e for e in log["entries"] if e["payload"].get("type") == "next_round"]
    assert next_rounds and all(e["channel"] == "seat" and e["payload"]["by"] is not None for e in next_rounds)
    with pytest.raises(Rejected) as refused:  # read by format 2's rules, the first one is refused
        check_log({**log, "format_version": 2})
    assert refused.value.code == "history.err.wrong_channel" and refused.value.params["n"] == next_rounds[0]["seq"]
    assert refused.value.params["reason"] == "vabanque.err.host_starts_round"
    secret = first_entry(log, "place_card")
    secret["channel"] = "host"
    refusal, _ = refused_by_import_and_replay(log, tmp_path, capsys)
    assert refusal.code == "history.err.wrong_channel" and refusal.params["n"] == secret["seq"]
    assert refusal.params["reason"] == "room.err.secret_on_board"
