"""A double tap never acts for the next player (issue #12), in real headless Chromium against the
real server (`uv run main.py`, handover window on at its real length).

For each game's host-board act-for controls, the finger taps a control, then taps the same spot
again 50, 200, 350, 600 or 1,000 ms later. Meanwhile the control under it has become the next
player's (or the same player's next action): the second tap must be refused with the handover
message, and the room's log (read from the host's export) must have grown by exactly one entry.
The same on a phone acting twice in a row (Chicago Poker: a player's two actions; Corruption: a
player's two Swiss assignments). Corruption's board entry stays open from one player to the next,
so the next player's award options are drawn where the last ones were: each test checks that the
second tap landed on such a control (collapsed, the entry once left nothing under the finger, and
a test of it passed with the window off). One server and one browser for the module, one page per
device, the delays one after another on it.

Needs Debian's chromium at /usr/bin/chromium: without it the tests FAIL (never skip).
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.conftest import VABANQUE_PLAYERS, VABANQUE_SEED, vabanque_setup
from tests.harness.browser import BOARD_VIEWPORT, PHONE_VIEWPORT, WAIT_MS, chromium, enable_semantics, ident
from tests.harness.server import RefereeServer, prepare_rooms

#: `alone`: the second tap lands at a set delay after the first, and which side of the window it
#: falls on is what is tested; a test busy beside it on the other core shifted the taps
#: (tests/plugins/parallel.py)
pytestmark = [pytest.mark.browser, pytest.mark.alone]

DELAYS_MS = [50, 200, 350, 600, 1000]
VABANQUE_NAMES = [p["name"] for p in VABANQUE_PLAYERS]
#: tables tapped on the Vabanque board, one pair of taps each
CHIP_TABLES = [2, 4, 6, 1, 7]
#: Règlement free seating: chairs tapped on the board, one pair each (all empty at the start)
CHAIRS = ["A", "C", "E", "G", "I"]
#: Corruption's deal of tests/test_corruption_views.py (contract ids 1..6 left to right)
CORRUPTION_DEAL = [
    {"body": "city_hall", "name": "Monument", "value": 300000},
    {"body": "city_hall", "name": "Opera House", "value": 600000},
    {"body": "county_seat", "name": "Stadium", "value": 500000},
    {"body": "county_seat", "name": "Subway", "value": 800000},
    {"body": "capitol", "name": "University", "value": 400000},
    {"body": "capitol", "name": "Airport", "value": 700000},
]


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
    from tests.test_chicago_poker_views import OPENING, SEED, cp_setup
    from tests.test_corruption_views import PLAYERS as CORRUPTION_PLAYERS
    from tests.test_corruption_views import ROUND as CORRUPTION_ROUND
    from tests.test_corruption_views import SEED as CORRUPTION_SEED
    from tests.test_reglement_views import PLAYERS as REGLEMENT_PLAYERS
    from tests.test_reglement_views import SEED as REGLEMENT_SEED

    data_dir = tmp_path_factory.mktemp("handover-data")

    async def script(host: Any) -> tuple[dict[str, str], dict[str, list[str]]]:
        rooms, tokens = {}, {}
        vabanque = await host.create_room("vabanque", vabanque_setup(), seed=VABANQUE_SEED)
        chicago = await host.create_room("chicago_poker", cp_setup(), seed=SEED)
        for raw in OPENING:
            await chicago.submit(raw, channel="host", seat=None, based_on_version=chicago.version)
        reglement = await host.create_room("reglement", {"players": REGLEMENT_PLAYERS, "first_placer": 2}, seed=REGLEMENT_SEED)
        # a second Vabanque table at its pawn moves: chips and cards entered for every seat
        moves = await host.create_room("vabanque", vabanque_setup(), seed=VABANQUE_SEED)
        for table in [2, 4, 6, 1, 7, 3, 5, 2, 4, 6, 1, 3]:
            await moves.submit({"type": "place_chip", "by": moves.view().waiting_for[0], "table": table}, channel="host", seat=None, based_on_version=moves.version)
        hands: dict[int, list[tuple[str, int]]] = {1: [("raise", 1), ("bluff", 3), ("cheat", 5)], 2: [("bluff", 2), ("raise", 4), ("cheat", 6)], 0: [("cheat", 7), ("bluff", 6), ("raise", 2)]}
        while moves.view().phase == "cards":
            seat = moves.view().waiting_for[0]
            card, where = hands[seat].pop(0)
            await moves.submit({"type": "place_card", "by": seat, "table": where, "card": card}, channel="seat", seat=seat, based_on_version=moves.version)
        assert moves.view().phase == "moves"
        # Corruption, two tables with every card placed and revealed, at Bruno's first Swiss
        # assignment: the round of tests/test_corruption_views.py (Chloe's Swiss assignment
        # next), and the same with Bruno's last card on the County Seat's Swiss account (his own
        # second assignment next)
        awards = await host.create_room("corruption", {"players": CORRUPTION_PLAYERS, "first_player": 0}, seed=CORRUPTION_SEED)
        twice = await host.create_room("corruption", {"players": CORRUPTION_PLAYERS, "first_player": 0}, seed=CORRUPTION_SEED)
        # the 17th card, Bruno's last (2k on the Monument), goes to the County Seat's Swiss account
        round_twice = [*CORRUPTION_ROUND[:16], (2000, "county_seat"), CORRUPTION_ROUND[17]]
        for room, cards in ((awards, CORRUPTION_ROUND), (twice, round_twice)):
            await room.submit({"type": "deal_contracts", "by": 0, "contracts": CORRUPTION_DEAL}, channel="host", seat=None, based_on_version=room.version)
            for card, location in cards:
                seat = room.view().waiting_for[0]
                face_up = room.view().cards_placed[seat] == 0 and not isinstance(location, str)
                await room.submit({"type": "play_card", "by": seat, "card": card, "location": location, "face_up": face_up}, channel="seat", seat=seat, based_on_version=room.version)
            await room.submit({"type": "reveal"}, channel="host", seat=None, based_on_version=room.version)
            assert room.view().pending is not None and room.view().pending.seat == 1
        for game, room in (("vabanque", vabanque), ("chicago_poker", chicago), ("reglement", reglement), ("vabanque_moves", moves), ("corruption_awards", awards), ("corruption_twice", twice)):
            rooms[game] = room.id
            tokens[game] = [s.token for s in room.seats]
        return rooms, tokens

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
        assert wait_count(table, game, before + 1) == before + 1
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
    done = wait_count(table, game, before + 2) - before
    assert done in (1, 2)
    for text in ident(page, "banner").all_inner_texts():  # a refusal, if any, speaks of the tap
        assert TAPPED_TWICE in text and "Now " not in text, text
    return done


def double_tap(table: Table, game: str, page: Any, identifier: str, delay_ms: int, message: str) -> None:
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
    assert wait_count(table, game, before + 1) == before + 1
    expect(ident(page, "handover-now")).to_have_count(0)  # the window is over: any late tap is in
    assert table.log_count(game) == before + 1, f"a tap {delay_ms} ms after the first acted too"


# --------------------------------------------------------------------------------------------
# the games
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("delay_ms", DELAYS_MS)
def test_vabanque_board_chips(table: Table, delay_ms: int) -> None:
    board = table.board("vabanque")
    index = DELAYS_MS.index(delay_ms)
    double_tap(table, "vabanque", board, f"table-{CHIP_TABLES[index]}", delay_ms, "tap again")
    assert any(f"Now {name}: tap again" in t for name in VABANQUE_NAMES for t in ident(board, "banner").all_inner_texts())


@pytest.mark.parametrize("delay_ms", DELAYS_MS)
def test_vabanque_board_moves(table: Table, delay_ms: int) -> None:
    """The issue's own case: "+0 / stay" tapped for one player, the same spot again for the next
    one; then the host undoes the move, so every delay starts with the same player."""
    game = "vabanque_moves"
    board = table.board(game)
    double_tap(table, game, board, "move-0", delay_ms, "tap again")
    assert any(f"Now {name}: tap again" in t for name in VABANQUE_NAMES for t in ident(board, "banner").all_inner_texts())
    before = table.log_count(game)
    tap(board, "undo")
    assert wait_count(table, game, before + 1) == before + 1
    # the undo hands the moves back to the first player: a window of its own, waited out
    from playwright.sync_api import expect

    expect(ident(board, "handover-now")).to_have_count(1)


@pytest.mark.parametrize("delay_ms", DELAYS_MS)
def test_chicago_phone_twice_then_board_end_turn(table: Table, delay_ms: int) -> None:
    """Ada's phone: a draw, and the same spot again (her next action): refused. The board: Ada's
    last action spent, "End Ada's turn", and the same spot again (now Bea's draw): refused.
    Then the host undoes all of it, so the next delay starts from the same turn (hands would
    otherwise fill up)."""
    from tests.test_chicago_poker_views import A, B

    game = "chicago_poker"
    board = table.board(game)
    phone = table.phone(game, A)
    names = ["Ada", "Bea"]
    done = same_player_twice(table, game, phone, "draw", delay_ms)
    settled(phone)
    from playwright.sync_api import expect

    while not ident(board, "end-turn").count():  # Ada's other actions (a turn has three), on the board
        before = table.log_count(game)
        tap(board, "draw")
        assert wait_count(table, game, before + 1) == before + 1, ident(board, "banner").all_inner_texts()
        done += 1
        # the board acted and Ada acts on: no "Now ..." cue for the same player
        expect(ident(board, "handover-now")).to_have_count(0)
        assert done < 5, "Ada's turn never reached its end"
    double_tap(table, game, board, "end-turn", delay_ms, f"Now {names[B]}: tap again")
    done += 1
    for _ in range(done):  # back to the start of Ada's turn
        before = table.log_count(game)
        tap(board, "undo")
        assert wait_count(table, game, before + 1) == before + 1
    # The phone draws the undone turn before the next delay's first tap: a tap on its previous
    # drawing is refused (rightly: made on an older state), and the next delay's "double tap"
    # would be one refused tap and one accepted (a CI run saw no "Tapped twice?" at 200 ms).
    expect(ident(phone, "my-facts")).to_contain_text("3 actions left")


@pytest.mark.parametrize("delay_ms", DELAYS_MS)
def test_reglement_board_seating(table: Table, delay_ms: int) -> None:
    """Free seating: a chair tapped for the placer, and the same chair again at once: not taken as
    the next placer's placement (counter-clockwise)."""
    from tests.test_reglement_views import NAMES

    board = table.board("reglement")
    index = DELAYS_MS.index(delay_ms)
    double_tap(table, "reglement", board, f"chair-{CHAIRS[index]}", delay_ms, "tap again")
    assert any(f"Now {name}: tap again" in t for name in NAMES for t in ident(board, "banner").all_inner_texts())


# --------------------------------------------------------------------------------------------
# Corruption: award choices, on the board and on a phone
# --------------------------------------------------------------------------------------------


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


def double_tap_onto(table: Table, game: str, page: Any, identifier: str, then: str, delay_ms: int, message: str) -> None:
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
    """The host takes the choice back, so every delay starts with the same choice. If that hands
    the choice back to another player than the board showed, it opens a window of its own,
    waited out by the next tap."""
    from playwright.sync_api import expect

    board = table.board(game)
    before = table.log_count(game)
    tap(board, "undo")
    assert wait_count(table, game, before + 1) == before + 1
    if handed_back:
        expect(ident(board, "handover-now")).to_have_count(1)


@pytest.mark.parametrize("delay_ms", DELAYS_MS)
def test_corruption_board_award_options(table: Table, delay_ms: int) -> None:
    """Bruno's Swiss 8k assigned on the board to the Opera House (City Hall's second contract),
    and the same spot again: Chloe's Swiss assignment is drawn there (the Capitol's second
    contract, the Airport), and must not take the tap."""
    from tests.test_corruption_views import AIRPORT, OPERA

    game = "corruption_awards"
    fresh = f"board-{game}" not in table.pages
    board = table.board(game)
    if fresh:  # the entry is behind "Enter it here" (phones first); then open for the phase
        tap(board, "board-enter")
    double_tap_onto(table, game, board, f"board-swiss-to-{OPERA}", f"board-swiss-to-{AIRPORT}", delay_ms, "Now Chloe: tap again")
    undo_on_board(table, game, handed_back=True)


@pytest.mark.parametrize("delay_ms", DELAYS_MS)
def test_corruption_phone_assigns_twice(table: Table, delay_ms: int) -> None:
    """Bruno's phone: his Swiss 8k to the Opera House (City Hall's second contract), and the
    same spot again, where his next choice is drawn (his Swiss 2k on the County Seat: its second
    contract, the Subway): refused. Then the host undoes it."""
    from tests.test_corruption_views import OPERA, SUBWAY, B

    game = "corruption_twice"
    phone = table.phone(game, B)
    done = same_player_twice(table, game, phone, f"swiss-to-{OPERA}", delay_ms, then=f"swiss-to-{SUBWAY}")
    for _ in range(done):
        undo_on_board(table, game, handed_back=False)
    # the phone has drawn the undone choice before the next delay's first tap (see the Chicago test)
    from playwright.sync_api import expect

    expect(ident(phone, f"swiss-to-{OPERA}")).to_have_count(1)
