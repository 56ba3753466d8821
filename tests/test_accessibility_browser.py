"""An accessibility audit of every page, in real Chromium against the real server (issue #7).

Each game is scripted into the mid-game state tools/screenshots.py photographs; one server and one
browser then open the rooms page, the history page, each game's host board on a tablet and the
waited-for seat's page on a 360 px phone, turn on Flutter's accessibility tree (`flt-semantics`
nodes) and check, page by page:

- every actionable node (button, checkbox, slider, menu item, text field, link, tab) has a name a
  screen reader can say, and not a raw message code;
- every actionable node is at least 48 x 48 px;
- every image has a label (the QR codes say what scanning them does);
- a player's colour is never the only cue: each player chip reads the player's shape glyph and
  name;
- a phone whose cards are hidden names none of the seat's secrets (they do appear once shown);
- at twice the browser's text size the phone's controls stay whole inside the screen's width;
- on the tablet every token a player reads from across the table (Vabanque's pawns and card
  backs, Corruption's cards) is at least 40 px (issue #15);
- the table QR code's free-seat page and a finished game's standings pass the same checks.

Every browser call is bounded (issue #15: twice the full suite hung with the main thread in a
sync Playwright call and a Chromium renderer at 100 % CPU). `page.evaluate` has no timeout of its
own and waits as long as the renderer does not answer, so the tree is read with
`page.wait_for_function(timeout=..., polling=...)` (`read`), which Playwright's server gives up
on; the doubled text is set before the page loads (a user's setting), not by mutating the live
page, so no live relayout is raced; and a watchdog kills this test's own Chromium should any
call without a timeout of its own (opening or closing a device) still block, so the test fails
saying so instead of hanging the run.

The phone's cards are shown last (a tap on "show my cards"), to prove the secret check could fail.

Run: `uv run pytest tests/test_accessibility_browser.py -q -s` (`-s` prints the node tables).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import psutil
import pytest

from companion.engine import seat_audience
from tests.harness.browser import BOARD_VIEWPORT, PHONE_VIEWPORT, WAIT_MS, ident, launch, seat_device_script
from tests.harness.server import RefereeServer, prepare_rooms
from tools.screenshots import GAMES, SHOWS_JS, Scene, play_randomly_until, prepare
from views.common import glyph
from views.i18n import all_messages, translator
from views.join import table_url

pytestmark = pytest.mark.browser

#: every node of the accessibility tree with what a screen reader gets from it: its role, its
#: name, its text, whether it is tappable or disabled, and its box on screen
NODES_JS = """() => {
  // a node's name as ARIA computes it: its aria-label, else its content (texts, and the labels of
  // what it contains, as a button's name comes from its content)
  const nameOf = (e) => {
    if (e.getAttribute('aria-label')) return e.getAttribute('aria-label');
    const input = e.matches('input, textarea') ? e : e.querySelector('input, textarea');
    if (input) return input.getAttribute('aria-label') || input.placeholder || '';
    return [...e.childNodes].map((c) => c.nodeType === Node.TEXT_NODE ? c.textContent
      : c.nodeType === Node.ELEMENT_NODE ? nameOf(c) : '').join(' ');
  };
  // Flutter cuts the box of a node partly out of view to what shows: it ends at the window's
  // edge or at its scroll view's (a node wholly out of view keeps its whole box)
  const near = (a, b) => Math.abs(a - b) < 0.5;
  const clipped = (e, box) => {
    if (near(box.top, 0) || near(box.left, 0) || near(box.bottom, innerHeight) || near(box.right, innerWidth)) return true;
    for (let up = e.parentElement; up; up = up.parentElement) {
      if (!up.querySelector(':scope > flt-semantics-scroll-overflow')) continue;
      const view = up.getBoundingClientRect();
      if (near(box.top, view.top) || near(box.bottom, view.bottom)) return true;
    }
    return false;
  };
  return [...document.querySelectorAll('flt-semantics')].map((e) => {
    const box = e.getBoundingClientRect();
    return {
      role: e.getAttribute('role') || (e.querySelector(':scope > input, :scope > textarea') ? 'textbox' : ''),
      name: nameOf(e).replace(/\\s+/g, ' ').trim(),
      text: (e.textContent || '').trim(),
      id: e.getAttribute('flt-semantics-identifier') || '',
      tappable: e.hasAttribute('flt-tappable'),
      disabled: e.getAttribute('aria-disabled') === 'true' || !!e.querySelector(':scope > input:disabled, :scope > textarea:disabled'),
      clipped: clipped(e, box),
      x: box.left, y: box.top, w: box.width, h: box.height,
    };
  });
}"""


@dataclass(frozen=True)
class Table:
    server: RefereeServer
    scenes: dict[str, tuple[Scene, Scene]]
    #: per game, the English names of the phone seat's secrets that the public view does not show
    secrets: dict[str, set[str]]
    #: per game, each player's chip as it must read: shape glyph, then name ("● Ada")
    chips: dict[str, list[str]]
    #: the table QR code's page of a room not started yet (its free seats), and a name it shows
    join_path: str
    join_text: str
    #: a finished Vabanque game's room (the board shows the standings)
    over_room: str


def card_names(game: str, data: Any) -> set[str]:
    """The English names of the cards a projection (as JSON) mentions: every string value that is
    one of the game's card codes."""
    messages, tr, found = all_messages(), translator("en"), set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and f"{game}.card.{value}" in messages:
            found.add(tr.t(f"{game}.card.{value}"))

    walk(data)
    return found


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    data_dir = tmp_path_factory.mktemp("referee-a11y")

    async def script(host: Any) -> Table:
        scenes = await prepare(host, list(GAMES))
        secrets, chips = {}, {}
        for game, (_board, phone) in scenes.items():
            room = host.rooms[phone.room]
            private = room.view(seat_audience(phone.seat)).model_dump(mode="json")
            public = room.view().model_dump(mode="json")
            secrets[game] = card_names(game, private["me"]) - card_names(game, public)
            chips[game] = [f"{glyph(colour)} {name}" for name, colour in zip(room.names, [p.colour for p in room.setup.players], strict=True)]
        players = [{"name": n, "colour": c} for n, c in [("Ilse", "red"), ("Jonas", "blue"), ("Kira", "green")]]
        fresh = await host.create_room("vabanque", {"players": players, "first_player": 0}, seed=11)
        over = await host.create_room("vabanque", {"players": players, "first_player": 0}, seed=12)
        await play_randomly_until(over, lambda: over.over, seed=3, limit=2000)
        join_path = table_url("", fresh)
        return Table(RefereeServer(data_dir), scenes, secrets, chips, join_path, "Jonas", over.id)

    prepared = prepare_rooms(data_dir, script)
    prepared.server.start()
    try:
        yield prepared
    finally:
        prepared.server.stop()


#: one test's whole run, well under pytest's faulthandler_timeout (300 s, pyproject.toml)
TEST_LIMIT_S = 240
#: a read of the tree: far longer than it takes (well under a second), far shorter than a hang
READ_MS = 20_000


@pytest.fixture
def browser() -> Iterator[Any]:
    """A Chromium of this test's own (launching one takes about a second), watched: should a call
    block past TEST_LIMIT_S, its processes (children of this process, started here) are killed,
    the blocked call raises, and the test fails naming the watchdog."""
    from playwright.sync_api import sync_playwright

    ours = {p.pid for p in psutil.Process().children(recursive=True)}
    fired = threading.Event()

    def kill_our_chromium() -> None:
        fired.set()
        for child in psutil.Process().children(recursive=True):
            if child.pid not in ours and "chrom" in child.name():
                child.kill()

    timer = threading.Timer(TEST_LIMIT_S, kill_our_chromium)
    timer.daemon = True
    with sync_playwright() as pw:
        chromium = launch(pw)
        timer.start()
        try:
            yield chromium
        finally:
            timer.cancel()
            if not fired.is_set():
                chromium.close()
    assert not fired.is_set(), f"a browser call blocked past {TEST_LIMIT_S} s: the watchdog killed Chromium"


def read(page: Any, function: str, arg: Any = None, timeout: float = READ_MS) -> Any:
    """`function(arg)` run in the page, its value (JSON), or a TimeoutError after `timeout` ms:
    unlike page.evaluate, Playwright gives up on wait_for_function however busy the renderer is.
    Polled on a timer, not on animation frames (a busy headless renderer may deliver none)."""
    handle = page.wait_for_function(f"(arg) => JSON.stringify(({function})(arg)) || 'null'", arg=arg, timeout=timeout, polling=100)
    return json.loads(handle.json_value())


def wait_until(page: Any, predicate: str, arg: Any = None, timeout: float = WAIT_MS) -> None:
    """Until `predicate(arg)` is true in the page, polled on a timer (see `read`)."""
    page.wait_for_function(predicate, arg=arg, timeout=timeout, polling=100)


def semantics_on(page: Any) -> None:
    """tests.harness.browser.enable_semantics, its click bounded like every call here."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    read(page, "() => { document.querySelector('flt-semantics-placeholder').click(); return true; }")


#: roles a finger or a screen reader can act on
ACTIONABLE = {"button", "checkbox", "switch", "radio", "slider", "menuitem", "menu", "textbox", "link", "tab", "combobox"}
#: what leaks when a code has no template: "ui.back", "card.vabanque.x", an unfilled "{seat}"
RAW_CODE = re.compile(r"(^|[\s(])(ui|card|game|colour|lan|history|vabanque|corruption|chicago_poker|reglement)\.[a-z_]+|[{}]")
MIN_TARGET = 48 - 0.5  # boxes are fractional
#: the browser's text size at 200 %, set before the page's own scripts run, as a user's setting is
#: (as tests/test_phone_text_size_browser.py sets it)
DOUBLE_TEXT = "document.addEventListener('DOMContentLoaded', () => { document.documentElement.style.fontSize = '32px'; });"
#: true once the node `identifier` is wholly in the window
IN_VIEW_JS = """(identifier) => {
  const node = document.querySelector(`[flt-semantics-identifier="${identifier}"]`);
  const box = node && node.getBoundingClientRect();
  return !!box && box.top >= 0 && box.bottom <= innerHeight;
}"""
#: true once the node `identifier` is at least `height` px tall
TALLER_JS = """([identifier, height]) => {
  const node = document.querySelector(`[flt-semantics-identifier="${identifier}"]`);
  return !!node && node.getBoundingClientRect().height >= height;
}"""


def settled_nodes(page: Any) -> list[dict[str, Any]]:
    """The tree once it has stopped growing (a page draws in several frames)."""
    reads: list[list[dict[str, Any]]] = []
    for _ in range(60):
        reads = [*reads[-2:], read(page, NODES_JS)]
        # the same three times running, 0.6 s in all: fields also grow in with an animation
        if len(reads) == 3 and reads[0] and reads[0] == reads[1] == reads[2]:
            break
        page.wait_for_timeout(300)
    return reads[-1]


def problems(nodes: list[dict[str, Any]]) -> list[str]:
    """The audit's findings on one page's tree, one line each."""
    found = []
    for node in nodes:
        where = f"{node['role'] or 'tappable'} {node['id'] or '-'} {node['w']:.0f}x{node['h']:.0f} {node['name'][:40]!r}"
        if node["role"] in ACTIONABLE or node["tappable"]:
            if not node["name"]:
                found.append(f"unnamed: {where}")
            elif RAW_CODE.search(node["name"]):
                found.append(f"raw code: {where}")
            # Not measured: a disabled node (a read-only text field is no touch target) or one
            # the window's edge cuts (scrolled partly out of view, its box is what shows).
            if not node["disabled"] and not node["clipped"] and (node["w"] < MIN_TARGET or node["h"] < MIN_TARGET):
                found.append(f"under 48 px: {where}")
        if node["role"] == "img" and not node["name"]:
            found.append(f"image without a label: {where}")
    return found


def table_of(title: str, nodes: list[dict[str, Any]]) -> str:
    rows = [f"== {title}: {len(nodes)} nodes"]
    for n in nodes:
        if n["role"] in ACTIONABLE or n["tappable"] or n["role"] == "img":
            cut = "cut" if n["clipped"] else ""
            rows.append(f"  {n['role'] or '-':<9} {n['w']:>4.0f}x{n['h']:<4.0f}{cut:<4} {n['id'] or '-':<20} {n['name'][:60]!r}")
    return "\n".join(rows)


def open_page(browser: Any, url: str, viewport: dict[str, int], wait_text: str, *, double_text: bool = False) -> Any:
    """A page on a device of its own, with its accessibility tree on, once it shows `wait_text`
    (the device closed again if it never does)."""
    context = browser.new_context(viewport=viewport, locale="en-US")
    context.set_default_timeout(WAIT_MS)
    if double_text:
        context.add_init_script(DOUBLE_TEXT)
    phone = seat_device_script(url)
    if phone is not None:  # the seat's one phone, whatever the size or text scale
        context.add_init_script(phone)
    try:
        page = context.new_page()
        page.goto(url, timeout=WAIT_MS)
        semantics_on(page)
        wait_until(page, SHOWS_JS, wait_text)
    except BaseException:
        context.close()
        raise
    return page


def said(nodes: list[dict[str, Any]]) -> str:
    """Everything a screen reader can read on the page: names and texts."""
    return "\n".join(n["name"] + "\n" + n["text"] for n in nodes)


def audit(title: str, nodes: list[dict[str, Any]]) -> None:
    print("\n" + table_of(title, nodes))
    found = problems(nodes)
    assert not found, f"{title}:\n  " + "\n  ".join(found)


def test_rooms_and_history_pages(table: Table, browser: Any) -> None:
    server = table.server
    page = open_page(browser, server.url("/", k=server.host_token or ""), BOARD_VIEWPORT, table.chips["vabanque"][0])
    try:
        nodes = settled_nodes(page)
        audit("rooms", nodes)
        # down to the setup form, so that no field of it is cut by the window's edge
        page.mouse.move(BOARD_VIEWPORT["width"] / 2, BOARD_VIEWPORT["height"] / 2)
        page.mouse.wheel(0, 5000)
        wait_until(page, IN_VIEW_JS, "create-room")
        nodes = settled_nodes(page)
        fields = [n for n in nodes if n["role"] == "textbox"]
        assert fields and not [n for n in fields if n["clipped"]], table_of("rooms, setup form", nodes)
        audit("rooms, setup form", nodes)
    finally:
        page.context.close()
    page = open_page(browser, server.url("/history", k=server.host_token or ""), BOARD_VIEWPORT, translator("en").t("history.import"))
    try:
        audit("history", settled_nodes(page))
    finally:
        page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_board_on_a_tablet(table: Table, browser: Any, game: str) -> None:
    server = table.server
    board = table.scenes[game][0]
    page = open_page(browser, server.url(f"/room/{board.room}", k=server.host_token or ""), BOARD_VIEWPORT, board.board_text)
    try:
        nodes = settled_nodes(page)
        audit(f"{game} board", nodes)
        text = said(nodes)
        # colour is never the only cue: every player's chip reads their shape and name
        missing = [chip for chip in table.chips[game] if chip not in text]
        assert not missing, (missing, text)
        if game != "vabanque":
            return  # the QR code is drawn by the board's own code, the same for every game
        # the seat's QR code says what scanning it does
        ident(page, "seat-0").click()
        qr = ident(page, "seat-qr-0")
        qr.wait_for(timeout=WAIT_MS)
        nodes = settled_nodes(page)
        images = [n for n in nodes if n["role"] == "img"]
        assert images, table_of(f"{game} QR", nodes)
        audit(f"{game} board, QR code", nodes)
        expected = translator("en").t("ui.scan_to_join", [board.board_text], seat=0)
        assert expected in [n["name"] for n in images], (expected, images)
    finally:
        page.context.close()


#: what a player reads from across the table, per game: the node ids of its tokens on the board
TOKENS = {"vabanque": re.compile(r"^(pawn|back)-\d+-\d+$"), "corruption": re.compile(r"^card-\d+$")}
#: a token's size on the tablet, at arm's length (issue #15): a pawn's diameter, a card's long
#: side (its short side at least three quarters of that, as a card is drawn)
MIN_TOKEN = 40 - 0.5


def token_too_small(node: dict[str, Any]) -> bool:
    short, long = sorted((node["w"], node["h"]))
    if node["id"].startswith("pawn-"):
        return short < MIN_TOKEN
    return long < MIN_TOKEN or short < 0.75 * MIN_TOKEN


@pytest.mark.parametrize("game", sorted(TOKENS))
def test_board_tokens_are_40_px_on_a_tablet(table: Table, browser: Any, game: str) -> None:
    """Vabanque's pawns and card backs (the room whose moves are under way), Corruption's cards."""
    server = table.server
    room = table.scenes[game][1].room
    page = open_page(browser, server.url(f"/room/{room}", k=server.host_token or ""), BOARD_VIEWPORT, table.scenes[game][0].board_text)
    try:
        tokens = [n for n in settled_nodes(page) if TOKENS[game].match(n["id"])]
        print("\n" + "\n".join(f"  {n['id']:<14} {n['w']:.0f}x{n['h']:.0f}" for n in tokens))
        kinds = {n["id"].split("-")[0] for n in tokens}
        assert kinds == ({"pawn", "back"} if game == "vabanque" else {"card"}), kinds
        small = [f"{n['id']} {n['w']:.0f}x{n['h']:.0f}" for n in tokens if token_too_small(n)]
        assert not small, f"{game}: tokens under 40 px on the tablet: {small}"
    finally:
        page.context.close()


def test_free_seat_page_on_a_phone(table: Table, browser: Any) -> None:
    """The table QR code's page: the free seats of a room not started yet."""
    page = open_page(browser, table.server.url(table.join_path), PHONE_VIEWPORT, table.join_text)
    try:
        nodes = settled_nodes(page)
        audit("free-seat page", nodes)
        assert [n for n in nodes if n["role"] == "button" and "Jonas" in n["name"]], table_of("free-seat page", nodes)
    finally:
        page.context.close()


def test_final_standings_on_a_tablet(table: Table, browser: Any) -> None:
    server = table.server
    page = open_page(browser, server.url(f"/room/{table.over_room}", k=server.host_token or ""), BOARD_VIEWPORT, "Ilse")
    try:
        audit("standings", settled_nodes(page))
    finally:
        page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_seat_on_a_phone(table: Table, browser: Any, game: str) -> None:
    server = table.server
    phone = table.scenes[game][1]
    page = open_page(browser, server.url(f"/join/{phone.room}/{phone.seat_token}"), PHONE_VIEWPORT, phone.seat_text)
    try:
        nodes = settled_nodes(page)
        audit(f"{game} phone", nodes)
        text = said(nodes)
        assert table.chips[game][phone.seat] in text, text
        # cards hidden: nothing a screen reader can reach names a secret
        assert not [s for s in table.secrets[game] if s in text], table.secrets[game]
        if table.secrets[game]:
            # ...which they do once shown: the check above could fail
            ident(page, "show-private").click()
            ident(page, "hide-private").wait_for(timeout=WAIT_MS)
            shown = said(settled_nodes(page))
            assert table.secrets[game] <= {s for s in table.secrets[game] if s in shown}, (table.secrets[game], shown)
    finally:
        page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_seat_on_a_phone_at_double_text(table: Table, browser: Any, game: str) -> None:
    """At 2x browser text (a user's font-size setting, which Flutter's web engine follows as its
    text scale) on the 360 px phone, every control the phone offers stays whole inside the
    screen's width, and still a 48 px target (the page may grow taller: it scrolls)."""
    server = table.server
    phone = table.scenes[game][1]
    width = PHONE_VIEWPORT["width"]
    # tall: the width is what is tested
    page = open_page(browser, server.url(f"/join/{phone.room}/{phone.seat_token}"), {"width": width, "height": 1800}, phone.seat_text, double_text=True)
    try:
        assert read(page, "() => getComputedStyle(document.documentElement).fontSize") == "32px"
        # the text really is doubled: "Your turn" is about 72 px tall at 1x
        wait_until(page, TALLER_JS, ["your-turn", 100])
        check_double_text(settled_nodes(page), game, width)
    finally:
        page.context.close()


def check_double_text(nodes: list[dict[str, Any]], game: str, width: int) -> None:
    print("\n" + table_of(f"{game} phone, 2x text", nodes))
    controls = [n for n in nodes if n["role"] in ACTIONABLE or n["tappable"]]
    present = {n["id"] for n in controls}
    assert {"rules", "hold-private", "show-private"} <= present, present
    # Flutter cuts a node's box at the screen's edge, so a control pushed off it ends exactly
    # there; the page keeps a 12 px margin, so a whole control never touches an edge.
    outside = [f"{n['id'] or n['name'][:30]!r} x {n['x']:.0f}..{n['x'] + n['w']:.0f}" for n in controls if n["x"] < 0.5 or n["x"] + n["w"] > width - 0.5]
    assert not outside, f"{game} at 2x text: {outside}"
    small = [f"{n['id'] or n['name'][:30]!r} {n['w']:.0f}x{n['h']:.0f}" for n in controls if not n["disabled"] and not n["clipped"] and min(n["w"], n["h"]) < MIN_TARGET]
    assert not small, f"{game} at 2x text: {small}"
