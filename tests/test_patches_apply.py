"""Every patch a page is sent applies to the page as the client holds it, in every game, through
the handover windows: random legal actions entered as a table enters them (the host board for
the table's entries and, half the time, for the player whose public move it is; each phone for
its own), with the handover window on. Each tab's frames are applied, as the Dart client applies
them, to a copy of its page (benchmarks/flet_client.py `apply_patch`, strict: an index past a
list's end is an error there, where Python would append), and the copy must hold the same
controls as the server's page after every action. A board whose client could not apply a patch
stops following the game until it is reloaded."""

from __future__ import annotations

import random
from typing import Any

import flet as ft
import pytest

from benchmarks.flet_client import apply_patch, walk
from benchmarks.redraw_cost import HOST_ENTRIES
from companion.games import GAMES
from tests.harness.flet_inprocess import Tab, walk_controls
from tests.harness.world import World, make_world
from tests.test_views_inprocess import screen_of

PLAYERS = [{"name": n, "colour": c} for n, c in [("Anna", "red"), ("Boris", "blue"), ("Chloe", "green"), ("Dmitri", "yellow")]]
REGISTER, PATCH = 1, 2
#: a window short enough that random play at machine speed lands in and out of it
WINDOW = 0.2


class Mirror:
    """A tab's page as its client holds it: the register answer, then every patch applied."""

    def __init__(self, tab: Tab) -> None:
        self.tab = tab
        self.page: dict[str, Any] | None = None
        self.seen = 0

    def catch_up(self) -> None:
        for action, body in self.tab.messages(self.seen):
            if action == REGISTER and isinstance(body.get("page_patch"), dict):
                self.page = body["page_patch"]
            elif action == PATCH:
                assert self.page is not None
                target = next((c for c in walk(self.page, visible_only=False) if c.get("_i") == body["id"]), None)
                assert target is not None, f"{self.tab.name}: a patch for control {body['id']}, which the client does not hold"
                apply_patch(target, body["patch"], strict=True)
        self.seen = self.tab.mark()

    def ids(self) -> set[int]:
        assert self.page is not None
        return {c["_i"] for c in walk(self.page, visible_only=False) if "_i" in c}


def server_ids(tab: Tab) -> set[int]:
    return {c._i for c in walk_controls(tab.page) if isinstance(c, ft.BaseControl)}


async def enter(world: World, board: Tab, phones: dict[int, Tab], raw: dict[str, Any], rng: random.Random) -> None:
    """Enter `raw` as the table would; a tap the handover refuses is entered again on the room
    itself (the page then redraws inside its window, which is what this test is about)."""
    room = world.room
    action = room.game.action_adapter.validate_python(raw)
    by = raw.get("by")
    on_board = by is None or (room.game.is_public(action) and rng.random() < 0.5)
    tab = board if on_board else phones[by]  # the board: the table's entry, or acting for the player
    before = room.version
    accepted = await screen_of(tab).submit(raw)
    await world.harness.settle()
    if not accepted and room.version == before:
        channel, seat = ("host", None) if on_board else ("seat", by)
        try:
            await room.submit(raw, channel=channel, seat=seat, based_on_version=room.version)
        except Exception:  # refused by the rules now (the state moved on): the next action is drawn
            pass
        await world.harness.settle()


def next_raw(world: World, rng: random.Random) -> dict[str, Any] | None:
    room, game = world.room, world.room.game
    if game.awaiting_reveal(room.state) and rng.random() < 0.5:
        return {"type": "reveal"}
    if room.game_id == "vabanque" and room.state.phase == "payout" and rng.random() < 0.5:
        return {"type": "next_round"}
    action = game.random_action(room.state, rng)
    if action is None:
        return None
    raw = action.model_dump(mode="json")
    if raw["type"] in HOST_ENTRIES:
        raw["by"] = None  # the host's own entries for the table
    return raw


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_every_patch_applies_to_the_page_the_client_holds(make_host: Any, harness_factory: Any, game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import views.screen

    monkeypatch.setattr(views.screen, "HANDOVER_SECONDS", WINDOW)
    monkeypatch.setattr(views.screen, "DOUBLE_TAP_SECONDS", WINDOW / 2)
    # Counted as each page is drawn, not after the action: on a loaded machine the window may have
    # closed by the time the action's entry returns.
    drawn_in_window = 0
    end_drawing = views.screen.Handover.end

    def counting_end(handover: views.screen.Handover) -> None:
        nonlocal drawn_in_window
        drawn_in_window += handover.is_open()
        end_drawing(handover)

    monkeypatch.setattr(views.screen.Handover, "end", counting_end)
    world = await make_world(make_host, harness_factory, f"patches-{game_id}", game_id, {"players": PLAYERS}, seed=23)
    board = await world.open_board()
    phones = {seat: await world.open_phone(seat) for seat in range(len(PLAYERS))}
    mirrors = [Mirror(tab) for tab in (board, *phones.values())]
    rng = random.Random(game_id)
    for _ in range(90):
        if board.has("board-enter"):  # the host opens the board's entry of a phone's choices
            await board.click("board-enter")
        raw = next_raw(world, rng)
        if raw is None:
            break
        await enter(world, board, phones, raw, rng)
        for mirror in mirrors:
            mirror.catch_up()
            assert mirror.ids() == server_ids(mirror.tab), f"{mirror.tab.name}: the client's page and the server's differ after {raw}"
    assert drawn_in_window > 0, "no page was ever drawn inside a handover window: the test tested nothing of it"
    world.harness.check()
