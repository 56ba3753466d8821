"""The end of a game, through real Flet sessions (in process): final standings on the board and
on every phone ("You came 3rd", nothing left to peek at), the BG Stats QR code on the host
board, and "Play again": a new room of the same game, players, seats and house rules, every phone
moved to its own seat there from the token it already had (no scan), the old room in the history."""

from __future__ import annotations

import json
import random
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from companion.bgstats import bgstats_link, room_play
from companion.history import finished_games
from companion.standings import rank_of
from tests.harness.flet_inprocess import FakeBrowser
from tests.harness.world import PHONE, World
from tests.test_standings import PLAYERS
from tests.test_table_join import qr_text
from views.i18n import Translator

SEED = 31
PLACES = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


async def play_until_one_action_is_left(world: World, rng: random.Random) -> Any:
    """Random legal actions, each from its own seat's channel, until the next one ends the game;
    returns that last action."""
    room = world.room
    while True:
        action = room.game.random_action(room.state, rng)
        assert action is not None
        if room.game.result(room.game.apply(room.state, action).state) is not None:
            return action
        await room.submit(action.model_dump(mode="json"), channel="seat", seat=action.by, based_on_version=room.version)


@pytest.mark.parametrize("game_id", ["vabanque", "corruption", "chicago_poker", "reglement"])
async def test_standings_on_the_board_and_every_phone(make_host: Any, harness_factory: Any, game_id: str) -> None:
    host = make_host(game_id)
    room = await host.create_room(game_id, {"players": PLAYERS[:3]}, seed=SEED)
    world = World(host=host, room=room, harness=harness_factory(host))
    last = await play_until_one_action_is_left(world, random.Random(SEED))
    board = await world.open_board()
    phones = {seat: await world.open_phone(seat) for seat in range(3)}
    assert not board.has("final-standings") and not any(p.has("my-place") for p in phones.values())
    await world.submit_for(last.by, last.model_dump(mode="json"))
    assert room.over
    rows = room.game.standings(room.state)
    # the board: every player's row, best first, with how they got there
    assert board.has("final-standings") and board.has("play-again")
    order = [i for i in board.identifiers() if i.startswith("standing-")]
    assert sorted(order) == sorted(f"standing-{r.seat}" for r in rows)
    board_text = board.text(board.find("final-standings"))
    assert "Final standings" in board_text
    positions = [board_text.index(room.names[r.seat]) for r in rows]
    assert positions == sorted(positions), "best first"
    for row in rows:
        row_text = board.text(board.find(f"standing-{row.seat}"))
        assert PLACES[row.rank] in row_text and room.names[row.seat] in row_text
        assert len(board.find(f"standing-{row.seat}").content.content.controls) == 1 + len(row.details)
    # the BG Stats QR code names this play's link
    assert qr_text(board, "bgstats-qr") == bgstats_link(room_play(room))
    # every phone: where it came, the standings, and no secret section left
    for seat, phone in phones.items():
        mine = rank_of(rows, seat)
        assert f"You came {PLACES[mine.rank]}" in phone.text(phone.find("my-place"))
        assert ("You won!" in phone.text()) == mine.winner
        # and why the game ended, as the board's log says it (the final action's game-over ruling
        # and what follows it)
        final = [r for seq, r in room.recent if seq == room.recent[-1][0]]
        first = next(i for i, r in enumerate(final) if "game_over" in r.code or "victory" in r.code)
        assert phone.texts(phone.find("game-ending")) == [Translator("en").ruling(r, room.names) for r in final[first:]]
        assert phone.has("final-standings")
        for secret_control in ("hold-private", "show-private", "hide-private"):
            assert not phone.has(secret_control), (seat, secret_control)
        assert "Hold here to see your cards" not in phone.text()
    # the spectator board shows the standings too, without the host's end actions
    spectator = await world.harness.open(f"/room/{room.id}", browser=FakeBrowser("spectator"), name="spectator")
    assert spectator.has("final-standings") and not spectator.has("play-again") and not spectator.has("bgstats-qr")


async def test_play_again_moves_every_phone_to_its_seat_in_the_new_room(make_host: Any, harness_factory: Any) -> None:
    host = make_host("again")
    room = await host.create_room("vabanque", {"players": PLAYERS[:3], "first_player": 1}, seed=SEED)
    world = World(host=host, room=room, harness=harness_factory(host))
    last = await play_until_one_action_is_left(world, random.Random(SEED))
    await world.submit_for(last.by, last.model_dump(mode="json"))
    board = await world.open_board()
    phones = {seat: await world.open_phone(seat) for seat in (0, 1)}
    away = FakeBrowser("phone-2")  # Chloe's phone was put away: it comes back later
    away.storage[f"referee.seat.{room.id}"] = room.seats[2].token
    await board.click("play-again")
    (following,) = [r for r in host.rooms.values() if r.id != room.id]
    assert following.game_id == room.game_id and following.setup == room.setup
    assert following.table.free_seats == room.table.free_seats
    assert room.table.next_room == following.id
    assert board.page.route == f"/room/{following.id}?k={host.token}"
    for seat, phone in phones.items():
        assert phone.page.route == f"/seat/{following.id}", (seat, phone.page.route)
        assert phone.browser.storage[f"referee.seat.{following.id}"] == following.seats[seat].token
        assert phone.has("rules") and not phone.has("my-place") and not phone.has("invalid-link")
        assert following.seats[seat].claimed and following.connected(seat)
    # the phone that was away opens its old seat page: it is taken to the new seat
    tab = await world.harness.open(f"/seat/{room.id}", browser=away, name="phone-2", **PHONE)
    assert tab.page.route == f"/seat/{following.id}" and away.storage[f"referee.seat.{following.id}"] == following.seats[2].token
    # asked twice, one new room; the old one is in the history
    assert await host.play_again(room) is following and len(host.rooms) == 2
    assert room.id in [g.room_id for g in finished_games(host)]
    # the link from the old room to the new one is stored: after a restart, phones still move
    from companion.room import Host
    from companion.store import Store

    restarted = Host(Store(host.store.store.path))
    try:
        assert restarted.rooms[room.id].table.next_room == following.id
        assert restarted.rooms[following.id].setup == room.setup
    finally:
        restarted.close()
    # without a valid token for the old seat, nothing moves
    stranger = FakeBrowser("stranger")
    stranger.storage[f"referee.seat.{room.id}"] = "not-a-token"
    tab = await world.harness.open(f"/seat/{room.id}", browser=stranger, name="stranger", **PHONE)
    assert tab.has("invalid-link") and f"referee.seat.{following.id}" not in stranger.storage


async def test_play_again_before_the_end_is_refused(make_host: Any) -> None:
    from companion.room import Rejected

    host = make_host("early")
    room = await host.create_room("vabanque", {"players": PLAYERS[:3]}, seed=SEED)
    with pytest.raises(Rejected) as refused:
        await host.play_again(room)
    assert refused.value.code == "table.err.not_over" and len(host.rooms) == 1


def test_bgstats_link_carries_the_json() -> None:
    """The QR code's text is the link: its `data` parameter is the play's JSON."""
    from companion.bgstats import bgstats_play
    from companion.standings import Standing

    rows = [Standing(rank=1, seat=1, score=9, kind="score", winner=True), Standing(rank=2, seat=0, score=3, kind="score", winner=False)]
    play = bgstats_play(play_id="r-1", game_id="corruption", game_name="Corruption", names=["A&B", "Zoë"], standings=rows, start_player=0, started=0.0, finished=600.0)
    data = json.loads(parse_qs(urlsplit(bgstats_link(play)).query)["data"][0])
    assert data == play.model_dump(mode="json", exclude_none=True)
    assert [p["name"] for p in data["players"]] == ["A&B", "Zoë"] and data["durationMin"] == 10


def _row_holding(root: Any, first: str, second: str, tab: Any) -> bool:
    """Whether some Row under `root` holds both identified controls among its children."""
    import flet as ft

    for control in tab.controls():
        if isinstance(control, ft.Row):
            inside = set()
            for child in control.controls:
                stack = [child]
                while stack:
                    c = stack.pop()
                    if isinstance(c, ft.Semantics) and c.identifier:
                        inside.add(c.identifier)
                    stack.extend(x for x in (getattr(c, "content", None), *(getattr(c, "controls", None) or [])) if x is not None)
            if {first, second} <= inside and len(control.controls) == 2:
                return True
    return False


async def test_after_the_end_the_board_offers_no_seat_and_shows_bgstats_beside_the_standings(make_host: Any, harness_factory: Any) -> None:
    """Game over: the seat panel no longer says "tap to show the QR code" nor offers "Play here",
    a tap on a seat opens no QR code; on a tablet "Play again" and BG Stats stand beside the
    standings (under them they fell below the screen). In French the breakdown says the money
    was received, as in English, and a phone says its place in plain French."""
    host = make_host("over-seats")
    room = await host.create_room("vabanque", {"players": PLAYERS[:3]}, seed=SEED)
    world = World(host=host, room=room, harness=harness_factory(host))
    last = await play_until_one_action_is_left(world, random.Random(SEED))
    board = await world.harness.open(f"/room/{room.id}?k={host.token}&lang=fr", name="board")
    free = [s for s in range(3) if not room.seats[s].claimed]
    assert free and all(board.has(f"pass-{s}") for s in free) and "touchez pour afficher" in board.text()
    await world.submit_for(last.by, last.model_dump(mode="json"))
    assert room.over
    await world.harness.settle()
    assert not any(board.has(f"pass-{s}") for s in range(3)), board.identifiers()
    assert "touchez pour afficher" not in board.text() and "Jouer ici" not in board.text()
    await board.click("seat-0")
    assert not board.has("seat-qr-0")
    assert _row_holding(board.page, "final-standings", "end-actions", board)
    assert "encaissés" in board.text(board.find("final-standings")) and "gagnés" not in board.text(board.find("final-standings"))
    # a phone seat in French
    token = room.seats[1].token
    phone = await world.harness.open(f"/join/{room.id}/{token}?lang=fr", browser=FakeBrowser("phone-fr", languages=["fr-FR", "fr"]), name="phone-fr", **PHONE)
    mine = rank_of(room.game.standings(room.state), 1)
    place = {1: "1er", 2: "2e", 3: "3e"}[mine.rank]
    assert f"Votre classement\u00a0:\u00a0{place}" in phone.text(phone.find("my-place")), phone.text(phone.find("my-place"))
