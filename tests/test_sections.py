"""Reused parts (views/sections.py, issue 17): a page that hands Flet the parts it drew before
leaves every browser holding what a page that builds everything leaves, in every game; an unchanged part is the
same control (so neither built nor diffed), and a tap on it still acts.

(tests/conftest.py also sets REFEREE_CHECK_SECTIONS=1 for every test: each reused part is built
again and compared, and a difference fails the test it happened in.)"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from companion.room import Room
from tests.conftest import VABANQUE_PLAYERS, VABANQUE_SEED, vabanque_setup
from tests.harness.flet_inprocess import BrowserPage, normalise
from tests.harness.flutter_rules import undrawn_nodes
from tests.harness.world import PHONE, World, make_world, qr_text_of
from views import sections

PLAYERS = [{"name": n, "colour": c} for n, c in [("Yvette", "red"), ("Quentin", "blue"), ("Zoltan", "green"), ("Wilhelmina", "yellow")]]
GAMES = ["vabanque", "corruption", "chicago_poker", "reglement"]


def screen_of(tab: Any) -> Any:
    return tab.page.on_route_change.__self__.screen


async def random_actions(world: World, rng: random.Random, count: int, after: Any = None) -> None:
    """`count` random legal actions, each sent on its player's channel (the host's for the
    table's own), the pages drawn after each (then `after()`)."""
    room: Room = world.room
    for _ in range(count):
        action = room.game.random_action(room.state, rng)
        if action is None:
            return
        by = getattr(action, "by", None)
        channel, seat = ("host", None) if by is None else ("seat", by)
        await room.submit(action.model_dump(mode="json"), channel=channel, seat=seat, based_on_version=room.version)
        await world.harness.settle()
        if after is not None:
            after()


async def played(make_host: Any, harness_factory: Any, game_id: str, reuse: bool) -> list[list[Any]]:
    """What the browser of every page of a table holds after each of 30 random actions of a
    seeded game (the pages as the frames sent built them, one id numbering per page across
    the whole game: a control keeping its id keeps its number); none holds a control the
    client would draw as an error box (tests/harness/flutter_rules.py)."""
    sections.REUSE = reuse
    world = await make_world(make_host, harness_factory, f"{game_id}-{reuse}", game_id, {"players": PLAYERS}, seed=77, phone_size=PHONE)
    tabs = [await world.open_board()] + [await world.open_phone(seat) for seat in range(len(PLAYERS))]
    browsers = [BrowserPage() for _ in tabs]
    marks = [0 for _ in tabs]
    held: list[list[Any]] = [[] for _ in tabs]

    def look() -> None:
        for i, (tab, browser) in enumerate(zip(tabs, browsers, strict=True)):
            frames = tab.frames_since(marks[i])
            marks[i] += len(frames)
            page = browser.feed(frames)
            undrawn = list(undrawn_nodes(page))
            assert not undrawn, f"{tab.name}: the browser draws an error box in place of: {undrawn[:3]}"
            held[i].append([0, copy.deepcopy(page)])

    look()
    await random_actions(world, random.Random(77), 30, after=look)
    return [normalise(pages, world.replacements, blob=qr_text_of) for pages in held]


@pytest.mark.parametrize("game_id", GAMES)
async def test_reusing_parts_shows_what_building_everything_shows(make_host: Any, harness_factory: Any, game_id: str, monkeypatch: Any) -> None:
    """A page that reuses its parts and groups (sending a changed child alone) leaves every
    browser holding, after every action, the very page a page building everything leaves, with
    the same controls keeping their ids."""
    monkeypatch.setattr(sections, "REUSE", True)
    built = await played(make_host, harness_factory, game_id, reuse=False)
    reused = await played(make_host, harness_factory, game_id, reuse=True)
    assert len(built) == len(reused)
    for page, (a, b) in enumerate(zip(built, reused, strict=True)):
        where = f"page {page} ({'board' if page == 0 else f'phone {page - 1}'})"
        assert len(a) == len(b) > 1, f"{where}: {len(a)} looks built, {len(b)} reused"
        differing = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        assert differing is None, f"{where}: after action {differing} the browser holds another page with parts reused:\n built:  {str(a[differing])[:3000]}\n reused: {str(b[differing])[:3000]}"


async def test_a_public_move_rebuilds_only_what_it_changed(make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    """A chip placed on the board's ring: most of the board is the very controls shown before."""
    monkeypatch.setattr(sections, "REUSE", True)
    world = await make_world(make_host, harness_factory, "few", "vabanque", {"players": PLAYERS}, seed=VABANQUE_SEED)
    board = await world.open_board()
    phone = await world.open_phone(1)
    parts = screen_of(board).sections
    rows = {seat: board.find(f"seat-{seat}") for seat in range(len(PLAYERS))}
    rules = board.find("rules")
    involved = {world.current()}
    for _ in range(2):
        await world.submit_for(world.current(), {"type": "place_chip", "by": world.current(), "table": 3})
        involved.add(world.current())
    bystander = next(seat for seat in range(len(PLAYERS)) if seat not in involved)
    assert board.find(f"seat-{bystander}") is rows[bystander], "a seat row nothing happened to is the control shown before"
    assert all(board.find(f"seat-{seat}") is not rows[seat] for seat in involved), "the rows of the players involved were drawn again"
    assert board.find("rules") is rules
    assert parts.reused >= 10, (parts.built, parts.reused)
    # the parts drawn at different drawings with the same context share its signature object
    # (Sections.interned): comparing their props starts with an identity
    signatures = [part.props[0] for part in parts._shown.values()]
    assert len({id(s) for s in signatures}) == len(set(signatures)), "one object per distinct signature"
    # the phone's own unchanged parts too
    assert screen_of(phone).sections.reused > 0


async def test_a_tap_on_a_reused_control_acts(make_host: Any, harness_factory: Any, monkeypatch: Any) -> None:
    """A phone's "Show my cards" drawn once and kept through other players' moves (the same
    control, with the handlers of the drawing that built it): tapping it still opens the cards."""
    monkeypatch.setattr(sections, "REUSE", True)
    world = await make_world(make_host, harness_factory, "tap", "vabanque", vabanque_setup(), seed=VABANQUE_SEED)
    await world.open_board()
    watcher = next(seat for seat in range(len(VABANQUE_PLAYERS)) if seat != world.current())
    phone = await world.open_phone(watcher)
    shown = phone.find("show-private")
    assert shown is not None
    for _ in range(2):
        if world.current() == watcher:
            break
        await world.submit_for(world.current(), {"type": "place_chip", "by": world.current(), "table": 5})
    assert phone.find("show-private") is shown, "kept, not built again"
    await phone.click("show-private")
    assert phone.has("hide-private"), phone.identifiers()


class _Context:
    """What a part asks of its drawing's context: its signature, and no handover."""

    handover = None

    def signature(self) -> tuple[()]:
        return ()


async def test_a_part_sent_anew_inside_a_replaced_parent_is_reported(caplog: Any) -> None:
    """An unkeyed item appearing above a reused part shifts it: Flet replaces its parent and sends
    the part again under its old ids. The drawing says so (an error, which fails a test), and
    reuses nothing at the next drawing."""
    import flet as ft

    from tests.harness.flet_inprocess import FletHarness
    from views import flet_patches

    flet_patches.apply()
    parts = sections.Sections()
    context = _Context()

    def draw(page: ft.Page, shifted: bool) -> bool:
        parts.begin()
        part = parts.part("kept", "same", lambda: ft.Text("kept"), context)
        items: list[ft.Control] = [ft.Text("new above")] if shifted else []
        items.append(ft.Container(content=part))
        parts.end()
        parts.before_sending()
        page.controls[:] = [ft.Column(key="root", controls=items)]
        page.update()
        return parts.check_placed(page.session)

    placed: list[bool] = []

    async def main(page: ft.Page) -> None:
        placed.append(draw(page, shifted=False))

    harness = FletHarness(main)
    tab = await harness.open("/", name="shift")
    assert draw(tab.page, shifted=False), "kept in its place: fine"
    assert parts.reused == 1
    assert not draw(tab.page, shifted=True)
    assert "sent anew inside a replaced parent" in caplog.text
    caplog.clear()
    draw(tab.page, shifted=True)
    assert parts.reused == 0, "nothing reused after the report"
    await harness.aclose()
