"""Real headless Chromium against the real server (`uv run main.py`), one browser per module.

Run: `uv run pytest tests/test_browser.py -q` (marker `browser`). Needs Debian's chromium at
/usr/bin/chromium: without it these tests FAIL (they are required in CI, never skipped).

The server's data directory is prepared before it starts: two identical Vabanque rooms (same
seed, same setup), chips already placed, so the game waits for Bruno's first card. The flow is
run once per room with a different card; the board's websocket frames must be the same.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import VABANQUE_PLAYERS, VABANQUE_SEED, vabanque_setup
from tests.harness.browser import BOARD_VIEWPORT, WAIT_MS, chromium, enable_semantics, ident
from tests.harness.flet_inprocess import normalise, strings_in
from tests.harness.qr import decode_qr, is_svg
from tests.harness.server import RefereeServer, prepare_rooms

pytestmark = pytest.mark.browser

PHONE_VIEWPORT = {"width": 390, "height": 844}
NAMES = [p["name"] for p in VABANQUE_PLAYERS]
#: the seat that joins by QR and places a card; first player, so the card phase waits for it
SEAT = 1
SEAT_NAME = NAMES[SEAT]
CARD_BACK = "■"  # Bruno is blue: his card backs (and pawn) carry the square glyph
TABLE = 2  # no pawn starts there: the glyph appears on it only as a card back
CHIPS = [2, 4, 6, 1, 7, 3, 5, 2, 4, 6, 1, 3]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


# --------------------------------------------------------------------------------------------
# page helpers
# --------------------------------------------------------------------------------------------



def show_private(page: Any) -> None:
    """Tap "Show my cards" until the cards are on the page. A tap that lands while the page is
    being redrawn (just after connecting) targets a replaced control and is dropped by Flet, so
    the tap is repeated until its effect is seen."""
    from playwright.sync_api import expect

    for _attempt in range(5):
        ident(page, "show-private").click()
        try:
            expect(ident(page, "hide-private")).to_be_visible(timeout=3000)
            return
        except AssertionError:
            continue
    expect(ident(page, "hide-private")).to_be_visible()



def record_frames(page: Any) -> list[bytes]:
    """Every binary websocket frame this page receives from the server."""
    frames: list[bytes] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(payload) if isinstance(payload, bytes) else None)

    page.on("websocket", on_socket)
    return frames


def wait_for_qr(page: Any, timeout: float = 20.0) -> tuple[str, bytes]:
    """Screenshots until a QR code decodes (the image is painted a moment after its node exists)."""
    deadline = time.monotonic() + timeout
    while True:
        png = page.screenshot()
        texts = decode_qr(png)
        if texts:
            assert len(texts) == 1, texts
            return texts[0], png
        if time.monotonic() > deadline:
            raise AssertionError("no QR code could be decoded from the board's screenshot")
        page.wait_for_timeout(150)  # poll interval while waiting for the condition


def qr_blob(value: bytes) -> Any:
    """Normalise an image in a frame: a QR code becomes the text it encodes."""
    if value.startswith(PNG_MAGIC) or is_svg(value):
        texts = decode_qr(value)
        return f"<qr:{'|'.join(texts)}>" if texts else value
    return value


# --------------------------------------------------------------------------------------------
# fixtures: one server, one browser, two contexts (tablet, phone) for the module
# --------------------------------------------------------------------------------------------


@dataclass
class Served:
    server: RefereeServer
    rooms: list[str]
    tokens: dict[str, list[str]]

    @property
    def host_token(self) -> str:
        assert self.server.host_token
        return self.server.host_token


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    data_dir = tmp_path_factory.mktemp("referee-data")

    async def script(host: Any) -> tuple[list[str], dict[str, list[str]], str]:
        rooms, tokens = [], {}
        for _ in range(2):
            room = await host.create_room("vabanque", vabanque_setup(first_player=SEAT), seed=VABANQUE_SEED)
            for table in CHIPS:
                current = room.view().waiting_for[0]
                await room.submit({"type": "place_chip", "by": current, "table": table}, channel="host", seat=None, based_on_version=room.version)
            assert room.view().phase == "cards" and room.view().waiting_for == (SEAT,)
            rooms.append(room.id)
            tokens[room.id] = [s.token for s in room.seats]
        return rooms, tokens, host.token

    rooms, tokens, token = prepare_rooms(data_dir, script)
    with RefereeServer(data_dir) as server:
        assert server.host_token == token, "the printed host link must carry the stored host token"
        assert server.health()["rooms"] == 2
        yield Served(server=server, rooms=rooms, tokens=tokens)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # Required in CI: a missing browser is a failure, never a skip.
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def tablet(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=BOARD_VIEWPORT)
    context.set_default_timeout(WAIT_MS)
    yield context
    context.close()


@pytest.fixture(scope="module")
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE_VIEWPORT)
    context.set_default_timeout(WAIT_MS)
    yield context
    context.close()


@dataclass
class Flow:
    room: str
    card: str
    board: Any
    phone: Any
    board_frames: list[bytes]
    phone_frames: list[bytes]
    qr_url: str = ""
    phone_seat_url: str = ""
    #: frames the board had received when the card back showed up
    board_upto: int = 0
    phone_upto: int = 0


def run_flow(served: Served, tablet: Any, phone_context: Any, room: str, card: str) -> Flow:
    from playwright.sync_api import expect

    board = tablet.new_page()
    board_frames = record_frames(board)
    board.goto(served.server.url(f"/room/{room}", k=served.host_token))
    enable_semantics(board)
    seat_row = ident(board, f"seat-{SEAT}")
    expect(seat_row).to_be_visible()
    expect(ident(board, f"table-{TABLE}")).not_to_contain_text(CARD_BACK)

    # The host taps the seat: its QR code, decoded from the screenshot.
    seat_row.click()
    expect(ident(board, f"seat-qr-{SEAT}")).to_be_visible()
    url, _png = wait_for_qr(board)
    assert url.startswith(f"{served.server.base}/join/{room}/"), url
    assert url == f"{served.server.base}/join/{room}/{served.tokens[room][SEAT]}"

    # The phone scans it.
    page = phone_context.new_page()
    phone_frames = record_frames(page)
    page.goto(url)
    enable_semantics(page)
    expect(page.get_by_text(SEAT_NAME, exact=False).first).to_be_visible()
    expect(ident(page, "your-turn")).to_be_visible()
    assert page.evaluate("location.pathname") == f"/seat/{room}"
    phone_seat_url = page.evaluate("location.href")

    # The board says the seat joined and closes its QR code by itself; the phone is connected.
    expect(ident(board, "notice")).to_contain_text(f"{SEAT_NAME} joined ✓")
    expect(ident(board, f"seat-qr-{SEAT}")).to_have_count(0)
    expect(ident(board, "close-qr")).to_have_count(0)
    expect(seat_row).to_have_attribute("aria-label", re.compile("connected"))

    # The card, on the phone: the hand is hidden until asked for (someone may look over a shoulder).
    expect(ident(page, "show-private")).to_be_visible()
    expect(ident(page, f"card-{card}")).to_have_count(0)
    show_private(page)
    ident(page, f"card-{card}").click()
    expect(ident(page, f"seat-table-{TABLE}")).to_be_visible()
    ident(page, f"seat-table-{TABLE}").click()
    # Placed: the cards hide again by themselves; asked for, they show what is left.
    expect(ident(page, "show-private")).to_be_visible()
    expect(page.get_by_text("Cards in your hand", exact=False)).to_have_count(0)
    show_private(page)
    expect(page.get_by_text(re.compile(rf"Cards in your hand: (?!.*{card.capitalize()})"))).to_be_visible()

    # The board shows a new card back at that table, and the public ruling.
    expect(ident(board, f"table-{TABLE}")).to_contain_text(CARD_BACK)
    expect(board.get_by_text(f"{SEAT_NAME} placed a card face down at table {TABLE}.")).to_be_visible()
    flow = Flow(room=room, card=card, board=board, phone=page, board_frames=board_frames, phone_frames=phone_frames, qr_url=url, phone_seat_url=phone_seat_url)
    flow.board_upto = len(board_frames)
    flow.phone_upto = len(phone_frames)
    return flow


@pytest.fixture(scope="module")
def flows(served: Served, tablet: Any, phone: Any) -> list[Flow]:
    """The join-and-place flow in room A with a Raise, then in room B with a Bluff.

    Room B's pages are closed once its flow is recorded (the later tests use room A): fewer
    Flutter pages painting on the two cores."""
    a = run_flow(served, tablet, phone, served.rooms[0], "raise")
    b = run_flow(served, tablet, phone, served.rooms[1], "bluff")
    b.board.close()
    b.phone.close()
    return [a, b]


def replacements(served: Served, room: str) -> dict[str, str]:
    subs = {room: "<room>", served.host_token: "<host-token>"}
    for seat, token in enumerate(served.tokens[room]):
        subs[token] = f"<seat-token-{seat}>"
    return subs


# --------------------------------------------------------------------------------------------
# tests
# --------------------------------------------------------------------------------------------


def test_wrong_token_shows_invalid_link(served: Served, phone: Any) -> None:
    from playwright.sync_api import expect

    page = phone.new_page()
    frames = record_frames(page)
    page.goto(served.server.url(f"/join/{served.rooms[0]}/not-a-valid-token"))
    enable_semantics(page)
    expect(page.get_by_text("This link is not valid", exact=False)).to_be_visible()
    expect(ident(page, "invalid-link")).to_have_count(1)
    strings = [s for frame in normalise(frames) for s in strings_in(frame)]
    assert any("This link is not valid" in s for s in strings)
    for name in NAMES:
        assert not any(name in s for s in strings), f"{name} was sent to a holder of a wrong link"
    page.close()


def test_qr_join_and_card_reach_the_board(flows: list[Flow], served: Served) -> None:
    for flow in flows:
        assert flow.qr_url.endswith(served.tokens[flow.room][SEAT])
        assert flow.board_upto > 3 and flow.phone_upto > 3


def test_board_frames_do_not_depend_on_the_card(flows: list[Flow], served: Served) -> None:
    a, b = flows
    board_a = normalise(a.board_frames[: a.board_upto], replacements(served, a.room), blob=qr_blob)
    board_b = normalise(b.board_frames[: b.board_upto], replacements(served, b.room), blob=qr_blob)
    assert len(board_a) >= 5
    for i, (x, y) in enumerate(zip(board_a, board_b, strict=False)):
        assert x == y, f"board frame {i} differs:\nA: {repr(x)[:800]}\nB: {repr(y)[:800]}"
    assert len(board_a) == len(board_b)
    # The comparison can fail: the phones, which chose different cards, did receive different bytes.
    phone_a = normalise(a.phone_frames[: a.phone_upto], replacements(served, a.room), blob=qr_blob)
    phone_b = normalise(b.phone_frames[: b.phone_upto], replacements(served, b.room), blob=qr_blob)
    assert phone_a != phone_b
    # And the QR image itself was compared by content: both decode to the same normalised link.
    assert any("<qr:" in s for frame in board_a for s in strings_in(frame))


def test_claimed_seat_shows_no_qr(flows: list[Flow]) -> None:
    from playwright.sync_api import expect

    board = flows[0].board
    # A free seat shows its QR (so the absence below is meaningful)...
    ident(board, "seat-0").click()
    expect(ident(board, "seat-qr-0")).to_be_visible()
    ident(board, "close-qr").click()
    expect(ident(board, "seat-qr-0")).to_have_count(0)
    # ...a claimed one does not.
    ident(board, f"seat-{SEAT}").click()
    expect(ident(board, f"seat-joined-{SEAT}")).to_contain_text(f"{SEAT_NAME} joined ✓")
    expect(ident(board, f"seat-qr-{SEAT}")).to_have_count(0)
    ident(board, "close-qr").click()
    expect(ident(board, "close-qr")).to_have_count(0)


def test_restart_after_kill_keeps_the_game_and_the_phone(flows: list[Flow], served: Served) -> None:
    """SIGKILL the server mid-game and restart it on the same data directory. The pages already
    open (a tablet and a phone left lying on the table) reconnect by themselves and show the same
    game: the board with the placed card, the phone in its seat (read back from its storage)."""
    from playwright.sync_api import expect

    flow = flows[0]
    served.server.kill()
    expect(ident(flow.board, f"table-{TABLE}")).to_contain_text(CARD_BACK)  # the last picture stays
    served.server.start()
    assert served.server.health()["rooms"] == 2
    for page in (flow.board, flow.phone):
        expect(page.get_by_text("Error running app", exact=False)).to_have_count(0)
    expect(ident(flow.board, f"table-{TABLE}")).to_contain_text(CARD_BACK)
    expect(flow.board.get_by_text(f"{SEAT_NAME} placed a card face down at table {TABLE}.")).to_be_visible()
    # the phone is back in its seat: the board sees it connected again (only a live session says so)
    expect(ident(flow.board, f"seat-{SEAT}")).to_have_attribute("aria-label", re.compile(r"(?<!dis)connected"))
    show_private(flow.phone)
    expect(flow.phone.get_by_text("Cards in your hand: Bluff, Cheat")).to_be_visible()
    expect(ident(flow.phone, "invalid-link")).to_have_count(0)
    expect(ident(flow.phone, "storage-failed")).to_have_count(0)
    # The reconnected board still takes taps.
    ident(flow.board, "seat-2").click()
    expect(ident(flow.board, "seat-qr-2")).to_be_visible()
    ident(flow.board, "close-qr").click()
    expect(ident(flow.board, "seat-qr-2")).to_have_count(0)

    # A fresh tab on the same phone (same storage, no token in the address) finds the seat too.
    fresh = flow.phone.context.new_page()
    fresh.goto(flow.phone_seat_url)
    enable_semantics(fresh)
    show_private(fresh)
    expect(fresh.get_by_text("Cards in your hand: Bluff, Cheat")).to_be_visible()
    fresh.close()


def test_reissue_signs_out_the_phone(flows: list[Flow]) -> None:
    from playwright.sync_api import expect

    flow = flows[0]
    board, page = flow.board, flow.phone
    expect(ident(board, f"seat-{SEAT}")).to_be_visible()
    show_private(page)
    expect(page.get_by_text("Cards in your hand", exact=False)).to_be_visible()  # the seat page, before
    ident(board, f"reissue-{SEAT}").click()  # the LINK button in the seat's row
    ident(board, "confirm-reissue-yes").click()  # re-issuing signs a phone out: asked first
    # (scoped to the notice's node: live regions are also copied into an aria-live announcer)
    expect(ident(board, "notice")).to_contain_text(f"{SEAT_NAME} has a new link")
    new_url, _ = wait_for_qr(board)  # the board shows the new link at once
    assert new_url != flow.qr_url and new_url.startswith(flow.qr_url.rsplit("/", 1)[0] + "/")
    expect(ident(page, "signed-out")).to_be_visible()
    expect(page.get_by_text("This phone was signed out", exact=False)).to_be_visible()
    expect(page.get_by_text("Cards in your hand", exact=False)).to_have_count(0)
    # The phone forgot the seat: a new tab on it opens no seat; the old QR link is dead too.
    # (A reload would only reconnect to the same Flet session, which keeps its signed-out page.)
    for url in (flow.phone_seat_url, flow.qr_url):
        tab = page.context.new_page()
        tab.goto(url)
        enable_semantics(tab)
        expect(tab.get_by_text("This link is not valid", exact=False)).to_be_visible()
        expect(tab.get_by_text(SEAT_NAME, exact=False)).to_have_count(0)
        tab.close()


def test_export_needs_the_host_token_and_hides_secrets_while_running(flows: list[Flow], served: Served) -> None:
    """The host board's export link: a JSON download with the card identities left out while the
    game runs; without the host token (or with a seat's token) there is nothing to download."""
    import json
    import urllib.error
    import urllib.request

    room = flows[0].room
    for token in ("", "guess", served.tokens[room][SEAT]):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(served.server.url(f"/export/{room}.json", k=token), timeout=5)
        assert err.value.code == 404
        assert SEAT_NAME.encode() not in err.value.read()
    with urllib.request.urlopen(served.server.url(f"/export/{room}.json", k=served.host_token), timeout=5) as response:
        data = json.loads(response.read())
    assert data["complete"] is False and data["room"]["id"] == room
    cards = [e["payload"] for e in data["entries"] if e["payload"].get("type") == "place_card"]
    assert cards and all("card" not in payload for payload in cards)
