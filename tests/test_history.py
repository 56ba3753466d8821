"""Game history: the finished games list, the step-by-step replay page, export -> import, the
checks a tampered log fails, and the host-only boundary of all of it."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from companion.engine import BOARD
from companion.games import GAMES
from companion.history import MAX_LOG_ENTRIES, MAX_UPLOAD_BYTES, check_log, finished_games, import_log, refusal_text, replay_steps
from companion.room import Host, Rejected, Room
from tests.harness.flet_inprocess import FakeBrowser, Tab
from views import games as game_uis
from views.i18n import translator
from views.screen import GameContext

ROOT = Path(__file__).resolve().parent.parent
COLOURS = ["red", "blue", "green", "yellow"]
#: 14 March 2026, noon UTC: the same calendar day in every time zone a test machine might use
ENDED_AT = datetime(2026, 3, 14, 12, 0, tzinfo=UTC).timestamp()


def players(*names: str) -> list[dict[str, str]]:
    return [{"name": n, "colour": COLOURS[i]} for i, n in enumerate(names)]


async def play_to_end(room: Room, seed: int = 7, stop_before_end: bool = False) -> None:
    rng = random.Random(seed)
    while True:
        action = room.game.random_action(room.state, rng)
        if action is None:
            return
        if stop_before_end and room.game.result(room.game.apply(room.state, action).state) is not None:
            return
        await room.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=room.version)


async def finished_room(host: Host, game: str, names: tuple[str, ...], monkeypatch: Any, ended: float, seed: int = 7) -> Room:
    """A game played to its end; its actions are stamped `ended` (the date the history shows)."""
    monkeypatch.setattr("companion.room.now", lambda: ended)
    room = await host.create_room(game, {"players": players(*names)}, seed=seed)
    await play_to_end(room, seed)
    assert room.over
    return room


def store_rows(host: Host) -> dict[str, list[Any]]:
    """Everything in the host's database, read through a separate connection."""
    db = sqlite3.connect(host.store.store.path)
    try:
        return {t: db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in ("rooms", "seats", "log", "imported")}
    finally:
        db.close()


def screen_of(tab: Tab) -> Any:
    return tab.page.on_route_change.__self__.screen


def winner_line(lang: str, room: Room) -> str:
    return translator(lang).t("history.winners", room.names, seats=room.game.result(room.state)["winners"])


# -- the list --


async def test_history_lists_finished_games_newest_first_and_not_running_ones(make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    host = make_host()
    older = await finished_room(host, "vabanque", ("Aurelia", "Bastien", "Cosima"), monkeypatch, ENDED_AT - 86400)
    newer = await finished_room(host, "corruption", ("Delphine", "Emeric", "Faustine"), monkeypatch, ENDED_AT)
    running = await host.create_room("vabanque", {"players": players("Gaspard", "Hortense", "Ignace")})
    await play_to_end(running, stop_before_end=True)
    assert not running.over

    summaries = finished_games(host)
    assert [s.room_id for s in summaries] == [newer.id, older.id]
    assert summaries[0].players == ["Delphine", "Emeric", "Faustine"]
    assert summaries[0].winners == list(newer.game.result(newer.state)["winners"])
    assert summaries[0].finished == ENDED_AT and summaries[0].actions == len(newer.history.outcomes)

    harness = harness_factory(host)
    page = await harness.open(f"/history?k={host.token}", name="history")
    text = page.text()
    assert page.has(f"finished-{newer.id}") and page.has(f"finished-{older.id}")
    assert not page.has(f"finished-{running.id}") and "Gaspard" not in text
    assert text.index("Delphine") < text.index("Aurelia"), "newest first"
    assert winner_line("en", newer) in page.text(page.find(f"finished-{newer.id}"))
    assert winner_line("en", older) in page.text(page.find(f"finished-{older.id}"))
    assert "Mar 14, 2026" in page.text(page.find(f"finished-{newer.id}"))
    assert "Mar 13, 2026" in page.text(page.find(f"finished-{older.id}"))
    # The rooms page links to it; the replay button opens the game.
    await page.click(f"replay-{newer.id}")
    assert page.conn.routes[-1] == f"/history/{newer.id}?k={host.token}"


# -- the replay page --


#: (game, steps walked one by one from the start): every step of a Vabanque game; the first steps
#: of a Règlement game (its board is the heaviest to draw), then a jump to the end
WALKS = [("vabanque", None), ("reglement", 12)]


@pytest.mark.parametrize("game_id,walk", WALKS, ids=[w[0] for w in WALKS])
async def test_replay_steps_through_every_ruling_in_order(game_id: str, walk: int | None, make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    host = make_host()
    room = await finished_room(host, game_id, ("Aurelia", "Bastien", "Cosima", "Dorian"), monkeypatch, ENDED_AT)
    harness = harness_factory(host)
    tab = await harness.open(f"/history/{room.id}?k={host.token}", name="replay")
    tr = translator("en")
    ui = game_uis.get(game_id)
    total = len(room.history.outcomes)

    def board_texts(state: Any) -> list[str]:
        """The board as the game's own UI module draws this state's public projection."""
        screen = screen_of(tab)
        ctx = GameContext(tr=tr, names=room.names, colours=[p.colour for p in room.setup.players], width=884, height=800,
                          seat=None, acts_for_current=False, submit=None, ui=screen.ui, data_dir=None)
        return tab.texts(ui.board_body(ctx, room.game.project(state, BOARD), None))

    # It opens on the end: the final state.
    assert tr.t("history.step", n=total, total=total) in tab.text(tab.find("replay-position"))
    assert tab.texts(tab.find("replay-board")) == board_texts(room.state)
    await tab.click("replay-first")
    assert tab.text(tab.find("replay-position")) == tr.t("history.start")
    opening = [tr.ruling(r, room.names) for r in getattr(room.game, "opening_rulings", lambda s: ())(room.history.states[0])]
    assert tab.texts(tab.find("replay-rulings")) == opening
    shown: list[str] = []
    walked = total if walk is None else walk
    for n in range(1, walked + 1):
        await tab.click("replay-next")
        assert tab.text(tab.find("replay-position")) == tr.t("history.step", n=n, total=total)
        rulings = tab.texts(tab.find("replay-rulings"))
        expected = [tr.ruling(r, room.names) for r in room.history.outcomes[n - 1].rulings] or [tr.t("history.no_rulings")]
        assert rulings == [tr.t("history.acted", room.names, seat=room.history.entries[n - 1].payload["by"]), *expected]
        shown.extend(expected)
        if n in (1, walked // 2, walked):
            assert tab.texts(tab.find("replay-board")) == board_texts(room.history.states[n])
    # Every ruling the game made (up to the last step walked), in the order it made them.
    every = [tr.ruling(r, room.names) for o in room.history.outcomes[:walked] for r in o.rulings]
    assert [s for s in shown if s != tr.t("history.no_rulings")] == every
    if walked < total:
        await tab.click("replay-last")
    assert tab.clickable_in(tab.find("replay-next")) is None, "no step after the last"
    assert tab.texts(tab.find("replay-board")) == board_texts(room.state)
    await tab.click("replay-previous")
    assert tab.text(tab.find("replay-position")) == tr.t("history.step", n=total - 1, total=total)
    await tab.click("replay-last")
    assert tab.text(tab.find("replay-position")) == tr.t("history.step", n=total, total=total)


async def test_replay_shows_undone_actions_as_a_note_not_as_steps(make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    host = make_host()
    monkeypatch.setattr("companion.room.now", lambda: ENDED_AT)
    room = await host.create_room("vabanque", {"players": players("Aurelia", "Bastien", "Cosima"), "first_player": 0}, seed=3)
    await room.submit({"type": "place_chip", "by": 0, "table": 2}, channel="host", seat=None, based_on_version=0)
    await room.undo(1)
    await play_to_end(room)
    steps = replay_steps(room)
    assert len(steps) == len(room.history.outcomes) + 1 and steps[1].undone_before == 1
    harness = harness_factory(host)
    tab = await harness.open(f"/history/{room.id}?k={host.token}")
    await tab.click("replay-first")
    await tab.click("replay-next")
    assert translator("en").t("history.undone_between", n=1) in tab.texts(tab.find("replay-rulings"))


# -- export, import --


@pytest.mark.parametrize("game_id", list(GAMES))
async def test_export_import_round_trip_gives_an_identical_replay(game_id: str, make_host: Any, monkeypatch: Any) -> None:
    home, other = make_host("home"), make_host("other")
    room = await finished_room(home, game_id, ("Aurelia", "Bastien", "Cosima", "Dorian"), monkeypatch, ENDED_AT)
    exported = json.dumps(room.export(complete=True)).encode()
    imported = await import_log(other, exported)
    assert imported.archived and imported.id in other.imported and imported.id not in other.rooms
    original, copy = replay_steps(room), replay_steps(imported)
    assert len(copy) == len(original)
    for a, b in zip(original, copy):
        assert a.rulings == b.rulings and a.by == b.by
        assert room.game.project(a.state, BOARD) == imported.game.project(b.state, BOARD)
    (summary,) = finished_games(other)
    assert summary.imported and summary.players == room.names and summary.finished == ENDED_AT
    assert summary.winners == list(room.game.result(room.state)["winners"])
    # Exporting the imported game gives the same log back (its id aside).
    again = imported.export(complete=True)
    assert again["entries"] == json.loads(exported)["entries"] and again["result"] == json.loads(exported)["result"]


async def test_an_imported_game_survives_a_restart_and_is_never_played_on(make_host: Any, monkeypatch: Any, tmp_path: Path) -> None:
    home = make_host("home")
    room = await finished_room(home, "vabanque", ("Aurelia", "Bastien", "Cosima"), monkeypatch, ENDED_AT)
    first = make_host("archive")
    imported = await import_log(first, room.export(complete=True))
    with pytest.raises(Rejected) as again:
        await import_log(first, room.export(complete=True))
    assert again.value.code == "history.err.already_here"
    first.close()
    restarted = make_host("archive")
    archived = restarted.imported[imported.id]
    assert archived.archived and not restarted.rooms and [s.room_id for s in finished_games(restarted)] == [imported.id]
    assert archived.seats == [] and archived.seat_for_token(room.seats[0].token) is None
    for attempt in (
        archived.submit({"type": "place_chip", "by": 0, "table": 1}, channel="host", seat=None, based_on_version=archived.version),
        archived.undo(1),
        archived.reissue(0),
    ):
        with pytest.raises(Rejected) as refused:
            await attempt
        assert refused.value.code == "room.err.archived"


def tamper_cases() -> list[tuple[str, Any, str]]:
    """(name, change to a complete vabanque log, the refusal code expected)."""

    def set_entry(i: int, **changes: Any) -> Any:
        def change(log: dict[str, Any]) -> None:
            log["entries"][i]["payload"].update(changes)
        return change

    def remove_entry(i: int) -> Any:
        return lambda log: log["entries"].pop(i)

    def drop_last(log: dict[str, Any]) -> None:
        log["entries"].pop()

    def other_winner(log: dict[str, Any]) -> None:
        log["result"]["winners"] = [(log["result"]["winners"][0] + 1) % 3]

    def wrong_game(log: dict[str, Any]) -> None:
        log["room"]["game"] = "corruption"

    def unknown_game(log: dict[str, Any]) -> None:
        log["room"]["game"] = "monopoly"

    def redacted(log: dict[str, Any]) -> None:
        log["complete"] = False

    def not_a_log(log: dict[str, Any]) -> None:
        log["format"] = "something-else"

    return [
        ("changed action: another seat acts", set_entry(0, by=1), "history.err.illegal"),
        ("changed action: not an action", set_entry(0, type="deal_cards"), "history.err.not_an_action"),
        ("removed entry", remove_entry(4), "history.err.missing_entry"),
        ("last entry dropped", drop_last, "history.err.unfinished"),
        ("changed result", other_winner, "history.err.result_mismatch"),
        ("wrong game", wrong_game, "history.err.setup"),
        ("unknown game", unknown_game, "history.err.unknown_game"),
        ("redacted log", redacted, "history.err.redacted"),
        ("not a log", not_a_log, "history.err.not_a_log"),
    ]


@pytest.mark.parametrize("name,tamper,code", tamper_cases(), ids=[c[0] for c in tamper_cases()])
async def test_a_tampered_log_is_refused_and_changes_nothing(name: str, tamper: Any, code: str, make_host: Any, monkeypatch: Any) -> None:
    home = make_host("home")
    room = await finished_room(home, "vabanque", ("Aurelia", "Bastien", "Cosima"), monkeypatch, ENDED_AT)
    target = make_host("target")
    before = store_rows(target)
    log = room.export(complete=True)
    check_log(log)  # the untouched log passes
    tamper(log)
    with pytest.raises(Rejected) as refused:
        await import_log(target, json.dumps(log).encode())
    assert refused.value.code == code
    assert store_rows(target) == before and not target.imported
    message = refusal_text(translator("en"), refused.value)
    assert message and not message.startswith("history.") and "{" not in message, message
    if code in ("history.err.illegal", "history.err.missing_entry"):
        assert refused.value.params["n"] == (1 if code == "history.err.illegal" else 5)
        assert f"Entry {refused.value.params['n']} " in message
    if code == "history.err.illegal":  # the broken rule, in the game's own words and names
        params = refused.value.params
        reason = translator("en").t(params["reason"], room.names, **params["reason_params"])
        assert params["reason"] in room.game.messages and message.endswith(reason), message


@pytest.mark.parametrize("raw", [b'{"format": "table-referee-log", "entries": [', b"\xff\xfe not text", b"[1, 2]"])
async def test_bad_json_is_refused_with_a_specific_message(raw: bytes, make_host: Any) -> None:
    host = make_host()
    before = store_rows(host)
    with pytest.raises(Rejected) as refused:
        await import_log(host, raw)
    assert refused.value.code == ("history.err.not_a_log" if raw == b"[1, 2]" else "history.err.bad_json")
    assert store_rows(host) == before
    if raw.startswith(b'{"format"'):
        assert "line 1, column" in refusal_text(translator("en"), refused.value)


# -- the HTTP import page, the CLI --


async def test_import_page_uploads_a_log_and_refuses_non_hosts(make_host: Any, monkeypatch: Any, tmp_path: Path) -> None:
    import main

    home = make_host("home")
    room = await finished_room(home, "vabanque", ("Aurelia", "Bastien", "Cosima"), monkeypatch, ENDED_AT)
    log = json.dumps(room.export(complete=True)).encode()
    app, host = main.build_app(tmp_path / "served", "http://referee.test")
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://referee.test") as client:
            form = await client.get(f"/import?k={host.token}&lang=fr")
            assert form.status_code == 200 and translator("fr").t("history.import_title") in form.text
            for bad in ("", "wrong-token"):
                for response in (await client.get(f"/import?k={bad}"), await client.post(f"/import?k={bad}", files={"log": ("g.json", log)})):
                    assert response.status_code == 404 and "Aurelia" not in response.text
            assert not host.imported
            tampered = json.loads(log)
            tampered["entries"].pop(2)
            refused = await client.post(f"/import?k={host.token}&lang=ru", files={"log": ("g.json", json.dumps(tampered).encode(), "application/json")})
            assert refused.status_code == 400 and not host.imported
            assert translator("ru").t("history.err.missing_entry", n=3) in refused.text
            done = await client.post(f"/import?k={host.token}", files={"log": ("g.json", log, "application/json")})
            assert done.status_code == 200, done.text
            (imported,) = host.imported.values()
            assert imported.names == room.names and "Aurelia" in done.text
            raw = await client.post(f"/import?k={host.token}", content=log, headers={"content-type": "application/json"})
            assert raw.status_code == 400 and "already" in raw.text
            exported = await client.get(f"/export/{imported.id}.json?k={host.token}")
            assert exported.json()["entries"] == json.loads(log)["entries"]
    finally:
        host.close()


async def test_import_cli(make_host: Any, monkeypatch: Any, tmp_path: Path) -> None:
    home = make_host("home")
    room = await finished_room(home, "vabanque", ("Aurelia", "Bastien", "Cosima"), monkeypatch, ENDED_AT)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(room.export(complete=True)))
    data_dir = tmp_path / "cli"

    async def run_cli() -> tuple[int, str, str]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(ROOT / "main.py"), "import", str(path), "--data-dir", str(data_dir),
            cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(process.communicate(), timeout=120)
        return process.returncode or 0, out.decode(), err.decode()

    code, out, err = await run_cli()
    assert code == 0, err
    printed = json.loads(out)
    assert printed["players"] == room.names and printed["game"] == "vabanque"
    code, out, err = await run_cli()
    assert code == 2 and "already on this host" in err
    reopened = make_host("cli")  # the same data directory the CLI wrote
    assert list(reopened.imported) == [printed["imported"]]


# -- who may see it, in which language --


async def test_non_host_cannot_open_the_history(make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    host = make_host()
    room = await finished_room(host, "vabanque", ("Aurelia", "Bastien", "Cosima"), monkeypatch, ENDED_AT)
    harness = harness_factory(host)
    for route in ("/history", f"/history/{room.id}", "/history?k=wrong", f"/history/{room.id}?k=wrong"):
        tab = await harness.open(route, browser=FakeBrowser("guest"), name=route)
        assert tab.has("invalid-link"), route
        assert not any(name in tab.text() for name in room.names)
    home = await harness.open("/", browser=FakeBrowser("guest"), name="spectator home")
    assert not home.has("open-history")
    host_home = await harness.open(f"/?k={host.token}", name="host home")
    await host_home.click("open-history")
    assert host_home.conn.routes[-1] == f"/history?k={host.token}"


@pytest.mark.parametrize("lang", ["fr", "ru"])
async def test_history_pages_render_in_french_and_russian(lang: str, make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    host = make_host()
    room = await finished_room(host, "vabanque", ("Aurelia", "Bastien", "Cosima"), monkeypatch, ENDED_AT)
    tr, en = translator(lang), translator("en")
    for code in ("history.title", "history.winners", "history.step", "history.replay", "history.err.missing_entry"):
        assert tr.template(code) != en.template(code), f"{code} has no {lang} translation"
    harness = harness_factory(host)
    page = await harness.open(f"/history?k={host.token}&lang={lang}", name=f"history-{lang}")
    text = page.text()
    assert tr.t("history.title") in text and winner_line(lang, room) in text
    assert {"fr": "14 mars 2026", "ru": "14 мар. 2026"}[lang] in text
    replay = await harness.open(f"/history/{room.id}?k={host.token}&lang={lang}", name=f"replay-{lang}")
    total = len(room.history.outcomes)
    assert replay.text(replay.find("replay-position")) == tr.t("history.step", n=total, total=total)
    assert tr.ruling(room.history.outcomes[-1].rulings[-1], room.names) in replay.text(replay.find("replay-rulings"))


# -- crafted logs and uploads (a host that imports a stranger's file keeps running) --


def crafted_cases() -> list[tuple[str, Any, str]]:
    """(name, change to a complete vabanque log, the refusal code expected)."""

    def set_at(value: float) -> Any:
        return lambda log: log["entries"][-1].__setitem__("at", value)

    def set_room(key: str, value: Any) -> Any:
        return lambda log: log["room"].__setitem__(key, value)

    def padded(log: dict[str, Any]) -> None:
        """Legal but endless: the first action placed and undone again and again."""
        first, rest = log["entries"][0], log["entries"][1:]
        undo = {"kind": "undo", "payload": {"count": 1}, "channel": "host", "at": first["at"]}
        entries = [first]
        for _ in range(MAX_LOG_ENTRIES // 2):
            entries += [dict(undo), dict(first)]
        log["entries"] = [{**e, "seq": i} for i, e in enumerate(entries + rest, start=1)]

    return [
        ("date far in the future", set_at(1e300), "history.err.malformed"),
        ("date not a number", set_at(float("nan")), "history.err.malformed"),
        ("start before 1970", set_room("created", -1e20), "history.err.malformed"),
        ("seed too big to store", set_room("seed", 2**80), "history.err.malformed"),
        ("too many entries", padded, "history.err.too_big"),
    ]


@pytest.mark.parametrize("name,craft,code", crafted_cases(), ids=[c[0] for c in crafted_cases()])
async def test_a_crafted_log_is_refused_before_it_can_break_a_page(name: str, craft: Any, code: str, make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    home = make_host("home")
    room = await finished_room(home, "vabanque", ("Aurelia", "Bastien", "Cosima"), monkeypatch, ENDED_AT)
    target = make_host("target")
    before = store_rows(target)
    log = room.export(complete=True)
    craft(log)
    with pytest.raises(Rejected) as refused:
        await import_log(target, json.dumps(log).encode())
    assert refused.value.code == code
    assert store_rows(target) == before and not target.imported
    # The history page still opens (a date it cannot show would have crashed it).
    page = await harness_factory(target).open(f"/history?k={target.token}", name="history")
    assert page.has("history-empty")


async def test_deeply_nested_json_is_refused_as_bad_json(make_host: Any) -> None:
    host = make_host()
    for raw in (b"[" * 100_000, b'{"a":' * 100_000):
        with pytest.raises(Rejected) as refused:
            await import_log(host, raw)
        assert refused.value.code == "history.err.bad_json"
        assert "nested too deeply" in refusal_text(translator("en"), refused.value)


async def test_an_import_keeps_only_what_the_room_itself_would_write(make_host: Any, monkeypatch: Any) -> None:
    """An undo entry carrying extra data (here a deep structure) is stored as {"count": n}."""
    home = make_host("home")
    room = await finished_room(home, "vabanque", ("Aurelia", "Bastien", "Cosima"), monkeypatch, ENDED_AT)
    log = room.export(complete=True)
    first = log["entries"][0]
    junk: Any = []
    for _ in range(200):
        junk = [junk]
    undo = {"kind": "undo", "payload": {"count": 1, "junk": junk}, "channel": "host", "at": first["at"]}
    log["entries"] = [{**e, "seq": i} for i, e in enumerate([first, undo, *log["entries"]], start=1)]
    target = make_host("target")
    imported = await import_log(target, json.dumps(log).encode())
    stored = [json.loads(row[3]) for row in store_rows(target)["log"] if row[2] == "undo"]
    assert stored == [{"count": 1}]
    assert imported.log_entries[1].payload == {"count": 1}
    assert imported.game.result(imported.state) == room.game.result(room.state)


async def test_import_replays_off_the_event_loop_and_one_at_a_time(make_host: Any, monkeypatch: Any) -> None:
    import threading

    import companion.history

    home = make_host("home")
    room = await finished_room(home, "vabanque", ("Aurelia", "Bastien", "Cosima"), monkeypatch, ENDED_AT)
    checked_on: list[int] = []
    real_check = companion.history.check_log

    def recording_check(data: Any) -> Any:
        checked_on.append(threading.get_ident())
        return real_check(data)

    monkeypatch.setattr(companion.history, "check_log", recording_check)
    target = make_host("target")
    log = json.dumps(room.export(complete=True)).encode()
    outcomes = await asyncio.gather(import_log(target, log), import_log(target, log), return_exceptions=True)
    assert checked_on and threading.get_ident() not in checked_on, "the log was replayed on the event loop"
    # The same log twice at once: one import, one refusal (not two copies).
    assert len(target.imported) == 1
    refusals = [o for o in outcomes if isinstance(o, Rejected)]
    assert [r.code for r in refusals] == ["history.err.already_here"]
    assert len({row[0] for row in store_rows(target)["rooms"]}) == 1


async def test_import_page_refuses_a_huge_upload_without_reading_it(make_host: Any, tmp_path: Path) -> None:
    import main

    app, host = main.build_app(tmp_path / "served", "http://referee.test")
    chunk = b" " * 65536
    pulled = 0

    async def endless() -> Any:
        nonlocal pulled
        while pulled < 64 * MAX_UPLOAD_BYTES:
            pulled += len(chunk)
            yield chunk

    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://referee.test") as client:
            # No length announced (chunked): refused once past the limit, the rest never read.
            response = await client.post(f"/import?k={host.token}", content=endless(), headers={"content-type": "application/json"})
            assert response.status_code == 400 and translator("en").t("history.err.too_big") in response.text
            assert MAX_UPLOAD_BYTES < pulled <= MAX_UPLOAD_BYTES + 2 * len(chunk)
            # A length announced over the limit: refused before any byte is read.
            pulled = 0
            response = await client.post(
                f"/import?k={host.token}", content=endless(), headers={"content-type": "application/json", "content-length": str(10 * MAX_UPLOAD_BYTES)}
            )
            assert response.status_code == 400 and translator("en").t("history.err.too_big") in response.text
            assert pulled <= len(chunk)
            # Malformed multipart bodies: refused with a message, never a server error.
            for content_type, body in (
                ("multipart/form-data", b"--x\r\n\r\n{}"),
                ("multipart/form-data; boundary=x", b"no parts at all"),
                ("multipart/form-data; boundary=x", b'--x\r\nContent-Disposition: form-data; name="log"\r\n\r\n[[[[\r\n--x--\r\n'),
            ):
                response = await client.post(f"/import?k={host.token}", content=body, headers={"content-type": content_type})
                assert response.status_code == 400, (content_type, body, response.text)
            assert not host.imported
    finally:
        host.close()


async def test_a_token_with_non_ascii_characters_is_just_wrong(make_host: Any, harness_factory: Any, monkeypatch: Any, tmp_path: Path) -> None:
    """compare_digest raises on a non-ASCII str: a crafted link must get the plain refusal."""
    import main

    host = make_host()
    room = await finished_room(host, "vabanque", ("Aurelia", "Bastien", "Cosima"), monkeypatch, ENDED_AT)
    assert not host.is_host("é") and room.seat_for_token("é") is None and not room.token_valid(0, "é")
    harness = harness_factory(host)
    for route in ("/history?k=%C3%A9", f"/join/{room.id}/%C3%A9", "/?k=%C3%A9"):
        tab = await harness.open(route, browser=FakeBrowser("guest"), name=route)
        if route.startswith("/?"):
            assert not tab.has("open-history"), route
        else:
            assert tab.has("invalid-link"), route
    harness.check()
    app, served = main.build_app(tmp_path / "served", "http://referee.test")
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://referee.test") as client:
            for response in (
                await client.get("/import?k=%C3%A9"),
                await client.post("/import?k=%C3%A9", content=b"{}"),
                await client.get(f"/export/{room.id}.json?k=%C3%A9"),
            ):
                assert response.status_code == 404, response.text
    finally:
        served.close()


async def test_a_complete_export_of_a_running_game_is_refused_cleanly(make_host: Any, tmp_path: Path) -> None:
    import main

    app, host = main.build_app(tmp_path / "served", "http://referee.test")
    try:
        room = await host.create_room("vabanque", {"players": players("Aurelia", "Bastien", "Cosima")}, seed=7)
        await play_to_end(room, stop_before_end=True)
        assert room.log_entries and not room.over
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://referee.test") as client:
            refused = await client.get(f"/export/{room.id}.json?k={host.token}&complete=1")
            assert refused.status_code == 409 and "payload" not in refused.text
            redacted = await client.get(f"/export/{room.id}.json?k={host.token}")
            assert redacted.status_code == 200 and redacted.json()["complete"] is False
    finally:
        host.close()
