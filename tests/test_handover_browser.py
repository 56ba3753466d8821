"""A double tap never acts for the next player (issue #12), in real headless Chromium against the
real server (`uv run main.py`, handover window on at its real length).

One test per mechanic, parametrised over the games (their rooms and controls:
tests/harness/mechanics.py `handovers`, `phone_twice`). On each game's host board, a control
acting for the current player is tapped, then the same spot again 50, 200, 350, 600 or 1,000 ms
later. Meanwhile the control under it has become the next player's: the second tap must be
refused with the handover message naming the next player, and the room's log (read from the
host's export) must have grown by exactly one entry. The same on a phone acting twice in a row
(Chicago Poker: a player's two actions; Corruption: a player's two Swiss assignments), where the
refusal speaks of a double tap. Where the next player's (or the same player's next) control is
drawn where the last one was (Corruption's award options), each test checks that the second tap
landed on it (collapsed, Corruption's entry once left nothing under the finger, and a test of it
passed with the window off). Vabanque's pawn moves, the issue's own case, keep a test of their
own: their buttons act for the player by key, where the board's chip targets are one set per
player. One server and one browser for the module, one page per device, the delays one after
another on it.

Needs Debian's chromium at /usr/bin/chromium: without it the tests FAIL (never skip).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.conftest import VABANQUE_PLAYERS
from tests.harness.browser import BOARD_VIEWPORT, PHONE_VIEWPORT, WAIT_MS, chromium, enable_semantics, ident
from tests.harness.mechanics import GAMES, handover_rooms, handovers, phone_twice
from tests.harness.server import RefereeServer, prepare_rooms

#: `alone`: the second tap lands at a set delay after the first, and which side of the window it
#: falls on is what is tested; a test busy beside it on the other core shifted the taps
#: (tests/plugins/parallel.py)
pytestmark = [pytest.mark.browser, pytest.mark.alone]

DELAYS_MS = [50, 200, 350, 600, 1000]
VABANQUE_NAMES = [p["name"] for p in VABANQUE_PLAYERS]
HANDOVERS = handovers()
PHONE_TWICE = phone_twice()


@dataclass
class Table:
    server: RefereeServer
    rooms: dict[str, str]
    tokens: dict[str, list[str]]
    browser: Any = None
    pages: dict[str, Any] = field(default_factory=dict)

    def log_count(self, game: str) -> int:
        """Entries in the room's log, as the host's export tells (actions and undos)."""
        url = self.server.url(f"/export/{self.rooms[game]}.json", k=self.server.host_token or "")
        with urllib.request.urlopen(url, timeout=10) as response:
            return len(json.loads(response.read())["entries"])

    def page(self, name: str, url: str, viewport: dict[str, int]) -> Any:
        if name not in self.pages:
            context = self.browser.new_context(viewport=viewport)
            context.set_default_timeout(WAIT_MS)
            page = context.new_page()
            page.goto(url)
            enable_semantics(page)
            self.pages[name] = page
        return self.pages[name]

    def board(self, game: str) -> Any:
        return self.page(f"board-{game}", self.server.url(f"/room/{self.rooms[game]}", k=self.server.host_token or ""), BOARD_VIEWPORT)

    def phone(self, game: str, seat: int) -> Any:
        return self.page(f"phone-{game}-{seat}", f"{self.server.base}/join/{self.rooms[game]}/{self.tokens[game][seat]}", PHONE_VIEWPORT)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    from companion.games.corruption import CATALOGUE_PATH

    data_dir = tmp_path_factory.mktemp("handover-data")

    async def script(host: Any) -> tuple[dict[str, str], dict[str, list[str]]]:
        rooms = await handover_rooms(host)
        return {name: room.id for name, room in rooms.items()}, {name: [s.token for s in room.seats] for name, room in rooms.items()}

    # the board's deal form and value memory use the contract catalogue: a copy, never the shipped one
    catalogue = data_dir.parent / "contracts.json"
    catalogue.write_text(CATALOGUE_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    rooms, tokens = prepare_rooms(data_dir, script)
    server = RefereeServer(data_dir, env={"REFEREE_HANDOVER_SECONDS": "1.5", "CORRUPTION_CATALOGUE": str(catalogue)})
    server.start()
    try:
        with chromium() as browser:
            yield Table(server=server, rooms=rooms, tokens=tokens, browser=browser)
    finally:
        server.stop()


# --------------------------------------------------------------------------------------------
# taps
# --------------------------------------------------------------------------------------------


def centre(page: Any, identifier: str) -> tuple[float, float]:
    node = ident(page, identifier).first
    try:
        node.wait_for(state="visible")
    except Exception as error:
        raise AssertionError(f"no {identifier!r} on the page; it shows:\n{page.locator('body').aria_snapshot()}") from error
    # where it stays: a page still laying out (a line above it wrapping as its text arrives) would
    # move it from under the second tap of a pair
    box = None
    for _ in range(20):
        page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        now = node.bounding_box()
        if now is not None and now == box:
            break
        box = now
    assert box is not None, identifier
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


#: when each page was last tapped (time.monotonic): a deliberate tap comes a person's pace after it
LAST_TAP: dict[int, float] = {}


def tapped(page: Any) -> None:
    LAST_TAP[id(page)] = time.monotonic()


def settled(page: Any) -> None:
    """No handover window open (its "Now ..." cue is gone), no message over the page, and a
    person's pace since this page's last tap (a tap sooner after one's own is a double tap's
    second, which is what the double-tap tests send on purpose)."""
    from playwright.sync_api import expect

    since = time.monotonic() - LAST_TAP.get(id(page), 0.0)
    if since < DELIBERATE_MS / 1000:
        page.wait_for_timeout((DELIBERATE_MS / 1000 - since) * 1000)  # the pace is what is modelled
    expect(ident(page, "handover-now")).to_have_count(0)
    if ident(page, "banner").count():
        ident(page, "banner").first.click()  # a tap on a message closes it
        expect(ident(page, "banner")).to_have_count(0)


def tap(page: Any, identifier: str) -> None:
    """One deliberate tap, once the page is settled."""
    settled(page)
    ident(page, identifier).first.click()
    tapped(page)


def wait_count(table: Table, game: str, at_least: int) -> int:
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        count = table.log_count(game)
        if count >= at_least or time.monotonic() > deadline:
            return count
        time.sleep(0.1)  # polling interval while waiting for the server's log to grow


#: the same player acting again right after this device's own tap: a second tap this soon is a
#: double tap (refused). Later, it is a deliberate next action and taken on a quiet machine; on a
#: loaded one the window (counted from the drawing after the first tap) may still hold it, so
#: there either may happen, but a refusal is always said as a double tap, never as another
#: player's turn (views/screen.py DOUBLE_TAP_SECONDS).
DOUBLE_TAP_MS, DELIBERATE_MS = 350, 1000
TAPPED_TWICE = "Tapped twice?"
TAP_MISSED = "your tap came as the page changed"


def same_player_twice(table: Table, game: str, page: Any, identifier: str, delay_ms: int, then: str | None = None) -> int:
    """Tap `identifier`, then the same spot `delay_ms` later, where the same player's next choice
    is drawn (`then`, if given, is checked to be under it): a double tap acts once and says
    "Tapped twice?"; a deliberate second tap acts too. Returns how many actions were logged."""
    from playwright.sync_api import expect

    settled(page)
    before = table.log_count(game)
    x, y = centre(page, identifier)
    page.mouse.click(x, y)
    page.wait_for_timeout(delay_ms)  # the gap between the two taps is what is tested
    page.mouse.click(x, y)
    tapped(page)
    if delay_ms <= DOUBLE_TAP_MS:
        try:
            expect(ident(page, "banner")).to_contain_text(TAPPED_TWICE)
        except AssertionError as error:
            # a second tap that reached no control says nothing: say where it landed
            box = ident(page, identifier).first.bounding_box()
            raise AssertionError(f"no refusal after the second tap at {(x, y)}: it is on {identifiers_at(page, x, y)}; {identifier!r} is now at {box}") from error
        logged = wait_count(table, game, before + 1) - before
        assert logged == 1, f"{logged} actions logged for two taps {delay_ms} ms apart; the page says {ident(page, 'banner').all_inner_texts()}"
        if then is not None:  # the refused tap was one that would have acted: the next choice is under it
            node = ident(page, then).first
            node.wait_for(state="visible")
            box = node.bounding_box()
            assert box is not None and box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"], (
                f"{then!r} is at {box}, not under the second tap at {(x, y)}: it was on {identifiers_at(page, x, y)}"
            )
        expect(ident(page, "banner")).to_have_count(0)  # the message goes by itself with its window
        assert table.log_count(game) == before + 1, f"a double tap {delay_ms} ms apart acted twice"
        return 1
    # both taps acted, or the second was refused (said on the page): not a wait to the deadline
    # for a second action that will not come (a run waited 30 s so at 600 ms)
    deadline = time.monotonic() + WAIT_MS / 1000
    said: list[str] = []
    while True:
        done = table.log_count(game) - before
        if done >= 2 or time.monotonic() > deadline:
            break
        said += [text for text in ident(page, "banner").all_inner_texts() if text not in said]
        if done == 1 and any(TAPPED_TWICE in text or TAP_MISSED in text for text in said):
            break
        time.sleep(0.1)  # polling interval while waiting for the server's log to grow
    assert done in (1, 2)
    # A second tap that did not act is said: a double tap's refusal, or (the tap landed as the
    # window's end drew the controls again with their own keys, so on a control the page no
    # longer holds: seen at 600 ms on Corruption's Swiss options) that it came as the page changed.
    assert done == 2 or said, "the second tap neither acted nor was said on the page: lost without a word"
    for text in said:  # a refusal speaks of the tap, never of another player's turn
        assert (TAPPED_TWICE in text or TAP_MISSED in text) and "Now " not in text, text
    return done


def double_tap(table: Table, game: str, page: Any, identifier: str, delay_ms: int, message: str | re.Pattern[str]) -> None:
    """Tap `identifier`, then the same spot `delay_ms` later: exactly one action is logged and
    the second tap shows `message`."""
    from playwright.sync_api import expect

    settled(page)
    before = table.log_count(game)
    x, y = centre(page, identifier)
    page.mouse.click(x, y)
    page.wait_for_timeout(delay_ms)  # the gap between the two taps is what is tested
    page.mouse.click(x, y)
    tapped(page)
    expect(ident(page, "banner")).to_contain_text(message)
    logged = wait_count(table, game, before + 1) - before
    assert logged == 1, f"{logged} actions logged for two taps {delay_ms} ms apart; the page says {ident(page, 'banner').all_inner_texts()}"
    expect(ident(page, "handover-now")).to_have_count(0)  # the window is over: any late tap is in
    assert table.log_count(game) == before + 1, f"a tap {delay_ms} ms after the first acted too"


def identifiers_at(page: Any, x: float, y: float) -> list[str]:
    """The semantic nodes under the point (x, y), innermost (smallest) first."""
    return page.evaluate(
        """([x, y]) => [...document.querySelectorAll('[flt-semantics-identifier]')]
            .map(n => [n.getAttribute('flt-semantics-identifier'), n.getBoundingClientRect()])
            .filter(([_, r]) => r.width > 0 && r.left <= x && x <= r.right && r.top <= y && y <= r.bottom)
            .sort((a, b) => a[1].width * a[1].height - b[1].width * b[1].height)
            .map(([id]) => id)""",
        [x, y],
    )


def double_tap_onto(table: Table, game: str, page: Any, identifier: str, then: str, delay_ms: int, message: str | re.Pattern[str]) -> None:
    """`double_tap`, where the second tap lands on `then`: the next choice, drawn where
    `identifier` was (checked, so the refused tap was one that would have acted)."""
    x, y = centre(page, identifier)
    double_tap(table, game, page, identifier, delay_ms, message)
    node = ident(page, then).first
    node.wait_for(state="visible")
    box = node.bounding_box()
    assert box is not None and box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"], (
        f"{then!r} is at {box}, not under the second tap at {(x, y)}: it was on {identifiers_at(page, x, y)}"
    )


def undo_on_board(table: Table, game: str, *, handed_back: bool) -> None:
    """The host takes the action back, so every delay starts with the same choice. If that hands
    the choice back to another player than the board showed, it opens a window of its own,
    waited out by the next tap."""
    from playwright.sync_api import expect

    board = table.board(game)
    before = table.log_count(game)
    tap(board, "undo")
    assert wait_count(table, game, before + 1) == before + 1
    if handed_back:
        expect(ident(board, "handover-now")).to_have_count(1)


# --------------------------------------------------------------------------------------------
# the games
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("delay_ms", DELAYS_MS)
@pytest.mark.parametrize("game", GAMES)
def test_board_double_tap_is_not_applied_to_the_next_player(table: Table, game: str, delay_ms: int) -> None:
    """The board acts for the current player (a chip on a table, a chair, a Swiss assignment,
    the end of a turn) and the same spot is tapped again: not taken as the next player's."""
    case = HANDOVERS[game]
    fresh = f"board-{case.room}" not in table.pages
    board = table.board(case.room)
    if fresh:  # an entry behind a button (Corruption's: phones first); then open for the phase
        for name in case.opens:
            tap(board, name)
    identifier = case.tap(DELAYS_MS.index(delay_ms))
    refusal = re.compile(rf"Now ({'|'.join(map(re.escape, case.next_names))}): tap again")
    if case.then is None:
        double_tap(table, case.room, board, identifier, delay_ms, refusal)
    else:
        double_tap_onto(table, case.room, board, identifier, case.then, delay_ms, refusal)
    if case.undo:
        undo_on_board(table, case.room, handed_back=True)


@pytest.mark.parametrize("delay_ms", DELAYS_MS)
@pytest.mark.parametrize("game", list(PHONE_TWICE))
def test_a_phones_second_tap_is_a_double_tap(table: Table, game: str, delay_ms: int) -> None:
    """A phone whose player acts twice in a row (Chicago Poker's actions of a turn, Corruption's
    Swiss assignments): the same spot tapped again, where the same player's next choice is
    drawn, is refused as a double tap; a deliberate second tap acts. (Chicago Poker: the board
    then acts for the same player, with no handover cue.) Then the host undoes what was done, so
    every delay starts from the same choice."""
    from playwright.sync_api import expect

    case = PHONE_TWICE[game]
    phone = table.phone(case.room, case.seat)
    done = same_player_twice(table, case.room, phone, case.tap, delay_ms, then=case.then)
    if case.board_then is not None:  # the board acts for the same player, who acts on: no "Now ..." cue
        settled(phone)
        board = table.board(case.room)
        before = table.log_count(case.room)
        tap(board, case.board_then)
        assert wait_count(table, case.room, before + 1) == before + 1, ident(board, "banner").all_inner_texts()
        done += 1
        expect(ident(board, "handover-now")).to_have_count(0)
    for _ in range(done):
        undo_on_board(table, case.room, handed_back=False)
    # The phone draws the undone action before the next delay's first tap: a tap on its previous
    # drawing is refused (rightly: made on an older state), and the next delay's "double tap"
    # would be one refused tap and one accepted (a CI run saw no "Tapped twice?" at 200 ms).
    shown, text = case.ready
    if text is None:
        expect(ident(phone, shown)).to_have_count(1)
    else:
        expect(ident(phone, shown)).to_contain_text(text)


@pytest.mark.parametrize("delay_ms", DELAYS_MS)
def test_vabanque_board_moves(table: Table, delay_ms: int) -> None:
    """The issue's own case: "+0 / stay" tapped for one player, the same spot again for the next
    one; then the host undoes the move, so every delay starts with the same player."""
    game = "vabanque_moves"
    board = table.board(game)
    double_tap(table, game, board, "move-0", delay_ms, "tap again")
    assert any(f"Now {name}: tap again" in t for name in VABANQUE_NAMES for t in ident(board, "banner").all_inner_texts())
    undo_on_board(table, game, handed_back=True)  # the undo hands the moves back to the first player
