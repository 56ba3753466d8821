"""The finished game as a BG Stats play (companion/bgstats.py), checked against the format BG
Stats publishes for plays pushed from other apps:
https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/
(a link `https://app.bgstatsapp.com/addPlay.html?data=<url-encoded JSON>`)."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.bgstats import BGStatsPlay, bgstats_link, room_play
from companion.games import GAMES
from tests.test_standings import PLAYERS

#: The published fields and their JSON types, as the page lists them (top level, game, players).
PUBLISHED: dict[str, Any] = {
    "sourceName": str, "sourcePlayId": str, "playDate": str, "durationMin": int, "board": str,
    "comments": str, "location": str,
    "game": {"bggId": int, "highestWins": bool, "name": str, "noPoints": bool, "sourceGameId": str},
    "players": [{"startPlayer": bool, "name": str, "rank": int, "role": str, "score": (int, float), "sourcePlayerId": str, "winner": bool}],
}  # fmt: skip

#: The page's own example play (its values), which our models must read as they are.
PUBLISHED_EXAMPLE = {
    "board": "", "durationMin": 36, "comments": "Such a close play!",
    "game": {"bggId": 132531, "highestWins": True, "name": "Roll for the Galaxy", "noPoints": False, "sourceGameId": "21df231"},
    "location": "Home", "playDate": "2020-10-23 19:16:58",
    "players": [
        {"startPlayer": True, "name": "Eerko", "rank": 1, "role": "", "score": 47.3, "sourcePlayerId": "23432", "winner": True},
        {"startPlayer": False, "name": "Suzan", "rank": 2, "role": "", "score": 36.3, "sourcePlayerId": "23433", "winner": False},
    ],
    "sourceName": "App name", "sourcePlayId": "2222427",
}  # fmt: skip


def check_published(value: Any, spec: Any, path: str = "play") -> None:
    """Every field sent is a published one, of the published type."""
    if isinstance(spec, dict):
        assert isinstance(value, dict), path
        unknown = set(value) - set(spec)
        assert not unknown, f"{path}: fields the format does not have: {unknown}"
        for key, item in value.items():
            check_published(item, spec[key], f"{path}.{key}")
    elif isinstance(spec, list):
        assert isinstance(value, list) and value, path
        for i, item in enumerate(value):
            check_published(item, spec[0], f"{path}[{i}]")
    else:
        assert isinstance(value, spec) and not (spec is int and isinstance(value, bool)), f"{path}: {value!r} is not {spec}"


def data_of(link: str) -> dict[str, Any]:
    parts = urlsplit(link)
    assert (parts.scheme, parts.netloc, parts.path) == ("https", "app.bgstatsapp.com", "/addPlay.html")
    return json.loads(parse_qs(parts.query)["data"][0])


def test_the_published_example_reads_with_our_models() -> None:
    check_published(PUBLISHED_EXAMPLE, PUBLISHED)  # the spec above is the page's
    assert BGStatsPlay.model_validate(PUBLISHED_EXAMPLE).model_dump(mode="json", exclude_none=True) == PUBLISHED_EXAMPLE


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_a_finished_room_exports_a_play_in_the_published_format(make_host: Any, game_id: str) -> None:
    import random

    host = make_host(game_id)
    room = await host.create_room(game_id, {"players": PLAYERS}, seed=11)
    assert room_play(room) is None, "no play before the end"
    rng = random.Random(11)
    while (action := room.game.random_action(room.state, rng)) is not None:
        await room.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=room.version)
    data = data_of(bgstats_link(room_play(room)))
    check_published(data, PUBLISHED)
    assert data["sourceName"] == "Table referee" and data["sourcePlayId"] == f"{room.id}-{room.seed}"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"])
    assert data["durationMin"] >= 1
    assert data["game"]["name"] == {"vabanque": "Vabanque", "corruption": "Corruption", "chicago_poker": "Chicago Poker", "reglement": "Règlement de comptes"}[game_id]
    standings = room.game.standings(room.state)
    result = room.game.result(room.state)
    players = data["players"]
    assert [p["name"] for p in players] == room.names
    assert [p["winner"] for p in players] == [s in result["winners"] for s in range(len(room.names))]
    assert [p["rank"] for p in players] == [next(r.rank for r in standings if r.seat == s) for s in range(len(room.names))]
    assert [p["score"] for p in players] == list(result.get("money") or result["score"])
    assert sum(p["startPlayer"] for p in players) == 1
    assert len({p["sourcePlayerId"] for p in players}) == len(players)
