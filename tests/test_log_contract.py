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
from companion.history import check_log, import_log, refusal_text
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


async def test_replay_of_a_log_that_stops_mid_game_says_so(make_host: Any, monkeypatch: Any, tmp_path: Path, capsys: Any) -> None:
    room = await finished_room(make_host(), "vabanque", NAMES, monkeypatch, ENDED_AT)
    log = room.export(complete=True)
    del log["entries"][len(log["entries"]) // 2 :]
    code, out, err = run_replay(write_log(tmp_path, log), capsys)
    assert code == 0
    printed = json.loads(out)
    assert printed["over"] is False and printed["result"] is None and printed["board"]["game"] == "vabanque"
    assert err == f"unfinished: {translator('en').t('history.replay_unfinished')}\n"


@pytest.mark.parametrize(
    "damage,message",
    [
        (lambda log: log["result"].__setitem__("winners", [9]), "The log's recorded result does not match its actions"),
        (lambda log: log.__setitem__("complete", False), "This log has its secrets removed"),
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
