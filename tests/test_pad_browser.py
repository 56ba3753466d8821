"""The phone's pad over a seat's secrets, for every game, in real Chromium against the real
server, with real touch events (CDP Input.dispatchTouchEvent on a 390 px page): one test per
mechanic, parametrised over the four games (their rooms and choices: tests/harness/mechanics.py).

* Hold the pad and the secrets show; every end of the press but a lift on a choice hides them:
  a mouse's release, a finger's lift on the pad, a lift after sliding off every choice, a touch
  the system cancels. Hold, slide onto a choice and lift: it is picked. Each hiding removes the
  secrets without sending them again; none of them is ever in a frame the board or another
  seat's phone receives.
* "Show my cards" (the one-handed and screen-reader way) shows them and "Hide" hides them; from
  then on nothing the phone receives carries them, also when the page is drawn anew (the rule
  card and back). The phone buzzed once, as its turn started, through all of it.

One server (a room per game) and one browser for the module; per game one phone, one other
seat's phone and the host board, opened once for both tests.

Run: `uv run pytest tests/test_pad_browser.py -q` (marker `browser`, Debian's chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.harness.browser import BOARD_VIEWPORT, WAIT_MS, chromium, enable_semantics, ident
from tests.harness.flet_inprocess import decode_frames, strings_in
from tests.harness.mechanics import GAMES, PADS, PadRoom
from tests.harness.server import RefereeServer, prepare_rooms
from tests.harness.touch import Finger, centre

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
#: Flutter's web engine turns HapticFeedback.vibrate into navigator.vibrate(50): count the calls.
VIBRATE_SPY = """
window.__vibrations = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true,
  value: function (pattern) { window.__vibrations.push(pattern); return true; },
});
"""
#: everything a screen reader can read: the semantics tree's text and labels, and announcements
PAGE_TEXT = """() => {
  const parts = [];
  for (const root of document.querySelectorAll("flt-semantics-host, flt-announcement-host")) {
    parts.push(root.textContent);
    root.querySelectorAll("[aria-label]").forEach((node) => parts.push(node.getAttribute("aria-label")));
  }
  return parts.join("\\n");
}"""
#: the identifiers of the nodes under a point
IDENTIFIERS_AT = """([x, y]) => [...document.querySelectorAll('[flt-semantics-identifier]')]
    .filter((n) => { const r = n.getBoundingClientRect(); return r.width > 0 && r.left <= x && x <= r.right && r.top <= y && y <= r.bottom; })
    .map((n) => n.getAttribute('flt-semantics-identifier'))"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, dict[str, PadRoom]]]:
    data_dir = tmp_path_factory.mktemp("referee-pad")

    async def script(host: Any) -> dict[str, PadRoom]:
        return {game: await PADS[game].prepare(host) for game in GAMES}

    rooms = prepare_rooms(data_dir, script)
    with RefereeServer(data_dir) as server:
        yield server, rooms


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def listen(page: Any) -> list[bytes]:
    """Every binary websocket frame `page` receives from now on."""
    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(data) if isinstance(data, bytes) else None))
    return frames


def strings(frames: list[bytes]) -> list[str]:
    return [s for frame in decode_frames(frames) for s in strings_in(frame)]


@dataclass
class Table:
    """One game's room with its pages, each opened at first use: the seat's touch phone, another
    seat's phone and the host board, each with the frames it has received."""

    server: RefereeServer
    browser: Any
    room: PadRoom
    frames: dict[str, list[bytes]] = field(default_factory=dict)
    pages: dict[str, Any] = field(default_factory=dict)

    def open(self, name: str, path: str, viewport: dict[str, int], **options: Any) -> Any:
        if name not in self.pages:
            context = self.browser.new_context(viewport=viewport, locale="en-US", **options)
            context.set_default_timeout(WAIT_MS)
            if name == "phone":
                context.add_init_script(VIBRATE_SPY)
            page = context.new_page()
            self.frames[name] = listen(page)
            page.goto(path)
            enable_semantics(page)
            self.pages[name] = page
        return self.pages[name]

    def phone(self) -> Any:
        """The seat's phone (touch, 390 x 844), its turn shown. Not `is_mobile`: with it, Flutter
        turns its accessibility tree on (which the tests read) the way a mobile browser does, and
        the first press after the page opened was lost about every other time (a mouse's or a
        finger's; never with it off, nor the presses after it): a test's artefact, not a phone's."""
        from playwright.sync_api import expect

        fresh = "phone" not in self.pages
        page = self.open("phone", self.server.url(f"/join/{self.room.room}/{self.room.token}"), PHONE, has_touch=True)
        if fresh:
            expect(ident(page, "your-turn")).to_be_visible()
        return page

    def others(self) -> dict[str, list[bytes]]:
        """Another seat's phone and the host board, open, with the frames each received."""
        from playwright.sync_api import expect

        for name, path, viewport in (
            ("other seat", self.server.url(f"/join/{self.room.room}/{self.room.other_token}"), PHONE),
            ("board", self.server.url(f"/room/{self.room.room}", k=self.server.host_token or ""), BOARD_VIEWPORT),
        ):
            page = self.open(name, path, viewport)
            expect(ident(page, "rules")).to_be_visible()  # drawn
        return {name: self.frames[name] for name in ("other seat", "board")}

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


@pytest.fixture(scope="module")
def table(served: tuple[RefereeServer, dict[str, PadRoom]], browser: Any, game: str) -> Iterator[Table]:
    """The game's table, for the tests of this game (the tests are grouped by game)."""
    server, rooms = served
    opened = Table(server, browser, rooms[game])
    try:
        yield opened
    finally:
        opened.close()


# --------------------------------------------------------------------------------------------
# a finger on the pad
# --------------------------------------------------------------------------------------------


def settled_centre(page: Any, locator: Any) -> tuple[float, float]:
    """The centre of `locator` once it has stopped moving (the same box twice, a frame apart): a
    page still laying itself out moves the pad from under a finger put down on it."""
    from playwright.sync_api import expect

    expect(locator).to_be_visible()
    last = None
    for _ in range(40):
        box = locator.bounding_box()
        if box is not None and box == last:
            break
        last = box
        page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return centre(locator)


def hold(finger: Finger, page: Any, choice: str) -> tuple[float, float]:
    """A finger on the pad until the secrets show (`choice` appears); where it is. A hold that
    showed nothing within 10 s (a loaded 2-core machine) is lifted and tried again, twice."""
    from playwright.sync_api import expect

    for attempt in range(3):
        where = settled_centre(page, ident(page, "hold-private"))
        finger.down(where)
        try:
            expect(ident(page, choice)).to_be_visible(timeout=10_000)
            return where
        except AssertionError:
            finger.lift()
            expect(ident(page, choice)).to_have_count(0)
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def hidden(page: Any) -> None:
    """The page at rest: its secrets hidden behind the pad (a test before may have left them shown)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
    from playwright.sync_api import expect

    hide = ident(page, "hide-private")
    if hide.count():
        try:
            hide.click(timeout=5_000)
        except PlaywrightTimeoutError:
            pass  # gone by itself meanwhile (shown cards hide after PEEK_SHOWN_SECONDS)
    expect(ident(page, "hold-private")).to_be_visible()
    expect(ident(page, "show-private")).to_be_visible()


def shown_and_sent(table: Table, page: Any, since: int) -> None:
    """The secrets are on the page, and were sent to it since frame `since`: what the checks of
    their absence look for is there to be found."""
    secrets = table.room.secrets
    for name in secrets.idents:
        assert ident(page, name).count(), f"{name} is not on the page while its secrets are shown"
    text = page.evaluate(PAGE_TEXT)
    assert [t for t in secrets.texts if t not in text] == []
    assert secrets.found(strings(table.frames["phone"][since:])) == {*secrets.idents, *secrets.texts}


def gone_unsent(table: Table, page: Any, since: int) -> None:
    """Hidden: no secret on the page, and none in what it received since frame `since` (the
    hiding removed the secrets' controls by their ids), though it received something."""
    from playwright.sync_api import expect

    secrets = table.room.secrets
    expect(ident(page, table.room.choice)).to_have_count(0)
    for name in secrets.idents:
        expect(ident(page, name)).to_have_count(0)
    text = page.evaluate(PAGE_TEXT)
    assert [t for t in secrets.texts if t in text] == []
    received = table.frames["phone"][since:]
    assert received, "nothing was received since: the check below would prove nothing"
    assert secrets.found(strings(received)) == set()


# --------------------------------------------------------------------------------------------
# the tests
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, scope="module")
def test_hold_slide_lift_picks_and_every_other_end_hides(table: Table, game: str) -> None:
    from playwright.sync_api import expect

    pad, room = PADS[game], table.room
    others = table.others()
    page = table.phone()
    hidden(page)
    finger = Finger(page.context, page)
    frames = table.frames["phone"]

    def not_picked() -> None:
        expect(ident(page, "hold-private")).to_be_visible()  # a first step picked would leave them shown
        expect(ident(page, "hide-private")).to_have_count(0)
        if pad.picked_mark is not None:
            expect(ident(page, pad.picked_mark)).to_have_count(0)

    # 1. A mouse pressed on the pad and released: shown while pressed.
    mark = len(frames)
    page.mouse.move(*settled_centre(page, ident(page, "hold-private")))
    page.mouse.down()
    expect(ident(page, room.choice)).to_be_visible()
    shown_and_sent(table, page, mark)
    mark = len(frames)
    page.mouse.up()
    gone_unsent(table, page, mark)
    not_picked()

    # 2. A finger put on the pad and lifted.
    mark = len(frames)
    hold(finger, page, room.choice)
    shown_and_sent(table, page, mark)
    mark = len(frames)
    finger.lift()
    gone_unsent(table, page, mark)
    not_picked()

    # 3. A finger slid off every choice (up to the page's top edge), lifted there.
    start = hold(finger, page, room.choice)
    off = (start[0], 4.0)
    finger.slide(off)
    under = page.evaluate(IDENTIFIERS_AT, list(off))
    assert not set(under) & {room.choice, *room.secrets.idents}, f"the finger is on {under}"
    mark = len(frames)
    finger.lift()
    gone_unsent(table, page, mark)
    not_picked()

    # 4. A touch the system cancels.
    start = hold(finger, page, room.choice)
    finger.slide((start[0] + 30, start[1] - 20), steps=4)
    mark = len(frames)
    finger.cancel()
    gone_unsent(table, page, mark)
    not_picked()

    # 5. Hold, slide onto the choice, lift: it is picked. (Chromium on a loaded 2-core machine
    # now and then cancels a drag just after it starts; the secrets then hide, as in 4, and the
    # player holds again: so does this test, once.)
    for attempt in range(2):
        hold(finger, page, room.choice)
        finger.slide(centre(ident(page, room.choice)), steps=16)
        finger.lift()
        try:
            if pad.then_open:  # a first step: the secrets stay shown, the choice marked
                expect(ident(page, room.choice)).to_have_attribute("aria-current", "true", timeout=10_000)
                expect(ident(page, "hide-private")).to_be_visible()
            else:  # the secrets hide at once; the next step shows
                expect(ident(page, room.choice)).to_have_count(0)
                assert pad.picked_mark is not None
                expect(ident(page, pad.picked_mark)).to_be_visible(timeout=10_000)
            break
        except AssertionError:
            if attempt:
                raise
            hidden(page)

    # None of it reached the other seat's phone or the board.
    for name, received in others.items():
        assert received, f"no frame captured on the {name}: the check would prove nothing"
        leaked = room.secrets.found(strings(received))
        assert leaked == set(), f"the {name} was sent {leaked}"


@pytest.mark.parametrize("game", GAMES, scope="module")
def test_show_my_cards_then_hide_sends_nothing_more(table: Table, game: str) -> None:
    from playwright.sync_api import expect

    room = table.room
    page = table.phone()
    hidden(page)
    frames = table.frames["phone"]

    mark = len(frames)
    ident(page, "show-private").click()
    expect(ident(page, "hide-private")).to_be_visible()
    expect(ident(page, room.choice)).to_be_visible()
    expect(ident(page, "hold-private")).to_have_count(0)  # the secrets take the pad's place
    shown_and_sent(table, page, mark)

    since_hidden = len(frames)
    ident(page, "hide-private").click()
    expect(ident(page, "hold-private")).to_be_visible()
    expect(ident(page, "show-private")).to_be_visible()
    gone_unsent(table, page, since_hidden)
    # the game drawn anew while hidden (back from the rule card, which names every card of the
    # game, as the rules do): still none of them
    ident(page, "rules").click()
    expect(ident(page, "rules-back")).to_be_visible()
    expect(ident(page, "hold-private")).to_have_count(0)  # nothing of the game is drawn
    redrawn = len(frames)
    ident(page, "rules-back").click()
    expect(ident(page, "hold-private")).to_be_visible()
    gone_unsent(table, page, redrawn)

    # The turn started as the page opened: one short vibration, and no other for the redraws.
    assert page.evaluate("window.__vibrations") == [50]
