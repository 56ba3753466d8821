"""Chicago Poker in real headless Chromium: a shootout with a reinforcement round, played with a
board (1280x800) and two phones (360x780) against the real server (`uv run main.py`).

The room is created in the data directory before the server starts (`prepare_rooms`), with the
public opening already entered: both players have three face-up cards at the jazz club (a pair of
9s and a 2). Then, in the browser: each plays two face-down cards on their phone (the jazz club's
4th and 5th cards), the board enters the draws and the ends of turn, Ada's turn starts with the
shootout (an exact tie), both pick a reinforcement on their phone, the board waits for them, then
shows the round once the host taps Reveal (the shootout too is revealed by that tap), and why
Ada wins, and the host enters the next tile.

Needs Debian's chromium at /usr/bin/chromium: without it the test FAILS (never skips).
Screenshots (board 1280x800, phones 360x780) go to $CP_SHOTS when it is set.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.harness.browser import BOARD_VIEWPORT, PHONE_VIEWPORT, WAIT_MS, enable_semantics, ident, launch
from tests.harness.server import RefereeServer, prepare_rooms
from tests.test_chicago_poker_views import OPENING, SEED, cp_setup

pytestmark = pytest.mark.browser




def expect_says(page: Any, identifier: str, text: str) -> None:
    """Wait until the node `identifier` says `text` (its own text or, for a group, its label)."""
    page.wait_for_function(
        """([id, text]) => [...document.querySelectorAll(`[flt-semantics-identifier="${id}"]`)]
            .some(e => ((e.getAttribute('aria-label') || '') + '\\n' + e.innerText).includes(text))""",
        arg=[identifier, text],
        timeout=WAIT_MS,
    )



@pytest.fixture(scope="module")
def shots() -> Path | None:
    """Screenshots only when asked for (CP_SHOTS=<dir>): each costs a second on two cores."""
    wanted = os.environ.get("CP_SHOTS")
    if not wanted:
        return None
    path = Path(wanted)
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, str, list[str]]]:
    data_dir = tmp_path_factory.mktemp("chicago-data")

    async def script(host: Any) -> tuple[str, list[str], str]:
        room = await host.create_room("chicago_poker", cp_setup(), seed=SEED)
        for raw in OPENING:
            await room.submit(raw, channel="host", seat=None, based_on_version=room.version)
        view = room.view()
        assert view.phase == "actions" and view.current == 0 and view.turn == 5
        return room.id, [s.token for s in room.seats], host.token

    room_id, tokens, token = prepare_rooms(data_dir, script)
    server = RefereeServer(data_dir)
    server.start()
    try:
        assert server.host_token == token
        yield server, room_id, tokens
    finally:
        server.stop()


def test_shootout_with_a_reinforcement_round(served: Any, shots: Path | None) -> None:
    # Required in CI: a missing browser is a failure, never a skip.
    from playwright.sync_api import expect, sync_playwright

    server, room, tokens = served
    expect.set_options(timeout=WAIT_MS)
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                run_game(browser, server, room, tokens, shots)
            finally:
                browser.close()
    finally:
        expect.set_options(timeout=None)


def run_game(browser: Any, server: RefereeServer, room: str, tokens: list[str], shots: Path | None) -> None:
    from playwright.sync_api import expect

    pages = {}
    for name, viewport, url in (
        ("board", BOARD_VIEWPORT, server.url(f"/room/{room}", k=server.host_token or "")),
        ("ada", PHONE_VIEWPORT, f"{server.base}/join/{room}/{tokens[0]}"),
        ("bea", PHONE_VIEWPORT, f"{server.base}/join/{room}/{tokens[1]}"),
    ):
        context = browser.new_context(viewport=viewport)  # one device each: own localStorage
        context.set_default_timeout(WAIT_MS)
        page = context.new_page()
        page.goto(url)
        enable_semantics(page)
        pages[name] = page
    board, ada, bea = pages["board"], pages["ada"], pages["bea"]

    def shot(page: Any, name: str) -> None:
        if shots is not None:
            # two animation frames: the canvas has painted what the semantics tree already says
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            page.screenshot(path=str(shots / f"{name}.png"))

    def show_private(phone: Any) -> None:
        """The card entry is in the private section: open it with the tap alternative (the action
        that follows closes it again)."""
        ident(phone, "show-private").click()
        expect(ident(phone, "hide-private")).to_be_visible()

    def choose(phone: Any, value: int, colour: str) -> None:
        """Value, then colour: each tap waits for the phone to show it selected."""
        show_private(phone)
        for name in (f"value-{value}", f"colour-{colour}"):
            ident(phone, name).click()
            expect(ident(phone, name)).to_have_attribute("aria-current", "true")

    def play(phone: Any, value: int, colour: str, business: int, actions_after: int) -> None:
        choose(phone, value, colour)
        expect(ident(phone, f"play-{business}")).to_contain_text("goes FACE DOWN")
        ident(phone, f"play-{business}").click()
        expect(ident(board, "prompt")).to_contain_text(f"{actions_after} action{'' if actions_after == 1 else 's'} left")

    def pick(phone: Any, value: int, colour: str) -> None:
        choose(phone, value, colour)
        ident(phone, "reinforce-send").click()
        expect(ident(phone, "reinforce")).to_have_count(0)

    # Both phones are in their seats (the board sees them connected) before anyone taps: a tap
    # that races a re-render from another device's event targets a control that is gone.
    for seat in (0, 1):
        expect(ident(board, f"seat-{seat}")).to_have_attribute("aria-label", re.compile("connected"))
    expect(ident(ada, "your-turn")).to_be_visible()
    expect(ident(bea, "your-turn")).to_have_count(0)
    expect(ident(board, "prompt")).to_contain_text("3 actions left")
    expect(ident(ada, "my-facts")).to_contain_text("3 cards in hand")
    shot(board, "01-board-turn5")
    choose(ada, 3, "c1")
    expect(ident(ada, "play-1")).to_contain_text("goes FACE DOWN")
    shot(ada, "02-phone-picker")
    ident(ada, "play-1").click()
    expect(ident(board, "prompt")).to_contain_text("2 actions left")
    play(ada, 4, "c1", 1, actions_after=1)
    # Ada's face-down cards are on her phone only while a finger holds the pad.
    expect(ident(ada, "my-face-down")).to_have_count(0)
    expect(ident(ada, "hide-private")).to_have_count(0)  # the action closed the section
    box = ident(ada, "hold-private").bounding_box()
    assert box is not None
    ada.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ada.mouse.down()
    expect(ident(ada, "my-face-down")).to_be_visible()
    ada.mouse.up()
    expect(ident(ada, "my-face-down")).to_have_count(0)
    ident(board, "draw").click()
    expect(ident(board, "prompt")).to_contain_text("0 actions left")
    ident(board, "end-turn").click()
    expect(ident(bea, "your-turn")).to_be_visible()
    expect(ident(board, "prompt")).to_contain_text("3 actions left")
    play(bea, 3, "c2", 1, actions_after=2)
    play(bea, 4, "c2", 1, actions_after=1)
    ident(board, "draw").click()
    expect(ident(board, "prompt")).to_contain_text("0 actions left")
    shot(board, "03-board-markers")
    ident(board, "end-turn").click()
    # The shootout is due: its reveal is an action of its own, tapped on the host board.
    ident(board, "reveal").click()

    # The shootout opens on its newest step: the reinforcement round the tie calls for; one
    # step back, every card face up, hands named and ranked; a tie.
    expect_says(board, "shootout", "Reinforcement round 1: waiting for Ada and Bea")
    ident(board, "step-previous").click()
    expect_says(board, "shootout", "TIED")
    expect_says(board, "shootout", "Ada and Bea tie with pair (9, 4, 3, 2)")
    shot(board, "04-board-shootout-hands")
    ident(board, "step-next").click()
    expect_says(board, "shootout", "Reinforcement round 1: waiting for Ada and Bea")
    expect(ident(board, "prompt")).to_contain_text("Reinforcements: waiting for Ada and Bea")
    expect(ident(ada, "reinforce")).to_be_visible()
    expect(ident(ada, "value-13")).to_have_count(0)  # the picker is private: hidden until opened
    shot(ada, "05-phone-reinforce")
    pick(ada, 13, "c1")
    expect(ident(ada, "my-pick")).to_be_visible()
    expect(ident(board, "prompt")).to_contain_text("waiting for Bea")
    expect_says(board, "shootout", "has chosen a card")
    shot(board, "06-board-waiting-bea")
    pick(bea, 8, "c3")

    # Every pick in: the board reveals them (its own action) and opens on the verdict; the
    # round revealed is one step back.
    ident(board, "reveal").click()
    expect_says(board, "shootout", "takes business 1 (jazz club)")
    ident(board, "step-previous").click()
    expect_says(board, "shootout", "round 1: revealed")
    expect_says(board, "shootout", "Ada wins the shootout with the highest reinforcement (13)")
    shot(board, "07-board-round-revealed")
    ident(board, "step-next").click()
    expect_says(board, "shootout", "takes business 1 (jazz club)")
    expect_says(board, "shootout", "Decided by: reinforcements")
    shot(board, "08-board-verdict")
    shot(ada, "09-phone-after")
    ident(board, "tile-brewery").click()
    expect_says(board, "business-3", "brewery")
    expect(ident(board, "player-0")).to_be_visible()
    shot(board, "10-board-new-tile")
