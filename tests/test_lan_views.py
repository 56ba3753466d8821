"""Join help on the host board and rooms page, through real Flet sessions in process; and the
pure pieces of companion.network (join addresses, the check page's language and text)."""

from __future__ import annotations

import html
from collections.abc import AsyncIterator
from typing import Any

import flet as ft
import pytest

from companion.network import (
    CAUSES,
    InterfaceAddress,
    JoinAddresses,
    check_language,
    check_page_html,
    check_report,
    join_addresses,
)
from tests.conftest import VABANQUE_SEED, vabanque_setup
from tests.harness.flet_inprocess import FakeBrowser, FletHarness, Tab, walk_controls
from tests.harness.qr import decode_qr
from views.app import AppConfig, build_main
from views.i18n import translator

PORT = 8550
#: two interfaces of a host on two networks (documentation/benchmarking ranges, never contacted)
INTERFACES = [InterfaceAddress(interface="wlan0", ip="198.18.0.1"), InterfaceAddress(interface="eth0", ip="198.19.7.1")]
ADDRESSES = join_addresses(PORT, INTERFACES)
WIFI, WIRED = (a.url for a in ADDRESSES)


def qr_text(tab: Tab, identifier: str) -> str:
    semantics = tab.find(identifier)
    assert semantics is not None, f"no {identifier!r}: {tab.identifiers()}"
    image = next(c for c in walk_controls(semantics) if isinstance(c, ft.Image))
    assert isinstance(image.src, bytes), type(image.src)
    texts = decode_qr(image.src)
    assert len(texts) == 1, texts
    return texts[0]


def text_in(tab: Tab, identifier: str) -> str:
    semantics = tab.find(identifier)
    assert semantics is not None, f"no {identifier!r}: {tab.identifiers()}"
    return tab.text(semantics)


async def choose_address(tab: Tab, harness: FletHarness, url: str) -> None:
    semantics = tab.find("join-interface")
    assert semantics is not None, tab.identifiers()
    dropdown = next(c for c in walk_controls(semantics) if isinstance(c, ft.Dropdown))
    assert [o.key for o in dropdown.options] == [WIFI, WIRED]
    tab.session.apply_patch(dropdown._i, {"value": url})  # as the browser reports a choice
    await tab.session.dispatch_event(dropdown._i, "select", url)
    await harness.settle()


@pytest.fixture
async def world(make_host: Any) -> AsyncIterator[tuple[Any, Any, AppConfig, FletHarness]]:
    host = make_host("lan")
    room = await host.create_room("vabanque", vabanque_setup(), seed=VABANQUE_SEED)
    config = AppConfig(base_url=WIFI, addresses=ADDRESSES)
    harness = FletHarness(build_main(host, config))
    yield host, room, config, harness
    problems = harness.problems()
    await harness.aclose()
    assert not problems, "\n".join(problems)


async def test_join_help_shows_the_address_as_text_and_qr_and_the_picker_moves_seat_links(world: Any) -> None:
    host, room, config, harness = world
    board = await harness.open(f"/room/{room.id}?k={host.token}", name="board")
    # before any choice, a seat's QR code leads to the first (Wi-Fi) address
    await board.click("seat-0")
    assert qr_text(board, "seat-qr-0") == f"{WIFI}/join/{room.id}/{room.seats[0].token}"
    await board.click("close-qr")

    assert not board.has("join-help-panel")
    await board.click("join-help")
    assert board.has("join-help-panel")
    assert text_in(board, "join-address") == WIFI
    # a room's board joins by its table QR code (phones pick a free seat), at the address in use
    assert qr_text(board, "join-qr") == f"{WIFI}/table/{room.id}/{room.table.secret}"
    assert text_in(board, "check-address") == f"{WIFI}/check"
    assert qr_text(board, "check-qr") == f"{WIFI}/check"
    causes = text_in(board, "join-causes")
    assert all(translator("en").t(code, port=PORT) in causes for code in CAUSES)
    assert f"port {PORT}" in causes

    await choose_address(board, harness, WIRED)
    assert config.base_url == WIRED
    assert text_in(board, "join-address") == WIRED and qr_text(board, "join-qr") == f"{WIRED}/table/{room.id}/{room.table.secret}"
    assert qr_text(board, "check-qr") == f"{WIRED}/check"
    await board.click("close-join-help")
    assert not board.has("join-help-panel")

    # from then on, seat QR codes use the chosen address, on this board and on a board opened later
    await board.click("seat-1")
    assert qr_text(board, "seat-qr-1") == f"{WIRED}/join/{room.id}/{room.seats[1].token}"
    other = await harness.open(f"/room/{room.id}?k={host.token}", browser=FakeBrowser("tablet-2"), name="board-2")
    await other.click("seat-2")
    assert qr_text(other, "seat-qr-2") == f"{WIRED}/join/{room.id}/{room.seats[2].token}"


async def test_join_help_is_for_the_host_only_and_in_the_rooms_page(world: Any) -> None:
    host, room, config, harness = world
    spectator = await harness.open(f"/room/{room.id}", browser=FakeBrowser("spectator"), name="spectator")
    assert spectator.has("seat-0") and not spectator.has("join-help")
    rooms_spectator = await harness.open("/", browser=FakeBrowser("spectator-rooms"), name="spectator-rooms")
    assert not rooms_spectator.has("join-help")

    home = await harness.open(f"/?k={host.token}", browser=FakeBrowser("tablet-fr"), name="home")
    await home.click("join-help")
    # the rooms page has no table QR code: the host's bare address led a phone to the read-only
    # rooms list, a dead end; it says how phones join instead
    assert text_in(home, "join-address") == WIFI and not home.has("join-qr")
    assert "open the room" in text_in(home, "join-none")
    await choose_address(home, harness, WIRED)
    assert config.base_url == WIRED and text_in(home, "join-address") == WIRED
    await home.click("close-join-help")
    assert not home.has("join-help-panel") and home.has("setup-game")


async def test_one_address_shows_no_picker(make_host: Any) -> None:
    host = make_host("single")
    room = await host.create_room("vabanque", vabanque_setup(), seed=VABANQUE_SEED)
    harness = FletHarness(build_main(host, AppConfig(base_url="http://198.18.0.1:9000/")))
    try:
        board = await harness.open(f"/room/{room.id}?k={host.token}", name="board")
        await board.click("join-help")
        assert text_in(board, "join-address") == "http://198.18.0.1:9000"
        assert not board.has("join-interface")
        assert "port 9000" in text_in(board, "join-causes")
        harness.check()
    finally:
        await harness.aclose()


def test_join_addresses_accept_only_known_choices() -> None:
    join = JoinAddresses(current="http://table.example:8550", choices=ADDRESSES)
    assert [o.url for o in join.options()] == ["http://table.example:8550", WIFI, WIRED]
    assert not join.choose("http://198.51.100.9:8550") and join.current == "http://table.example:8550"
    assert join.choose(WIRED) and join.current == WIRED
    assert [a.title() for a in ADDRESSES] == ["wlan0 · 198.18.0.1", "eth0 · 198.19.7.1"]


@pytest.mark.parametrize(
    ("accept", "override", "expected"),
    [
        ("ru-RU,ru;q=0.9,en-US;q=0.8", None, "ru"),
        ("de-DE,de;q=0.9,fr;q=0.5,en;q=0.4", None, "fr"),
        ("en;q=0.2,fr;q=0.9", None, "fr"),
        ("de, it", None, "en"),
        ("", None, "en"),
        (None, None, "en"),
        ("fr;q=0", None, "en"),
        ("fr-CA", "ru", "ru"),
        ("fr-CA", "xx", "fr"),
    ],
)
def test_check_language(accept: str | None, override: str | None, expected: str) -> None:
    assert check_language(accept, override) == expected


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_check_page_says_it_in_the_phones_language_without_script(lang: str) -> None:
    report = check_report(lang, host="http://198.18.0.1:8550", join_url="http://198.18.0.1:8550", client_ip="198.18.0.2", port=8550)
    page = check_page_html(report)
    tr = translator(lang)
    assert report.title == tr.t("lan.check.title") and report.title in page
    assert tr.t("lan.check.phone", address="198.18.0.2") in page
    assert 'href="http://198.18.0.1:8550/"' in page and tr.t("lan.check.open_game") in page
    assert all(html.escape(cause, quote=False) in page for cause in report.causes)
    assert "<script" not in page.lower()
    if lang != "en":
        assert translator("en").t("lan.check.title") not in page


async def asgi_get(app: Any, path: str, query: str, headers: dict[str, str]) -> tuple[int, str]:
    """One GET straight through the ASGI app, with the headers exactly as given (an HTTP client
    would write its own Host header)."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
        "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
        "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()],
        "client": ("198.18.0.2", 50000), "server": ("198.18.0.1", PORT),
    }
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body").decode()


async def test_check_page_escapes_what_the_request_brings_and_survives_a_bad_host_header(tmp_path: Any) -> None:
    import main

    app, host = main.build_app(tmp_path, WIFI)
    hostile = 'x"><script>alert(1)</script>'
    try:
        status, page = await asgi_get(app, "/check", "lang=%3Cb%3Efr", {"host": hostile, "accept-language": "<i>ru</i>;q=1"})
        assert status == 200 and "<script" not in page.lower() and "<b>" not in page and "<i>" not in page
        # The Host header names the address the phone opened; the firewall advice names the port
        # this host listens on, whatever port the header claims (or a port that is not a number).
        for claimed in ("evil.example:1234", "198.18.0.1:port"):
            for path in ("/check", "/check.json"):
                status, body = await asgi_get(app, path, "", {"host": claimed})
                assert status == 200, (path, body)
                assert f"port {PORT}" in body and "port 1234" not in body, (claimed, path)
    finally:
        host.close()


async def test_join_help_with_every_seat_taken_says_what_to_do_instead_of_a_qr_code(world: Any) -> None:
    """Issue 31: with no free seat, the table QR code leads nowhere: join help says how a seat
    moves to a new phone (its link icon), with no QR code to join by."""
    host, room, config, harness = world
    await room.mark_pass_and_play(0)
    board = await harness.open(f"/room/{room.id}?k={host.token}", name="board")
    for seat in range(1, len(room.seats)):
        assert await room.claim(seat, f"device-of-phone-{seat}")
    await harness.settle()
    assert not room.free_seats()
    await board.click("join-help")
    assert board.has("join-help-panel") and not board.has("join-qr")
    # a seat played on the tablet has no phone yet: its own QR code
    assert "tap a seat on the board" in text_in(board, "join-none")
    await room.claim(0, "device-of-phone-0")
    await harness.settle()
    if not board.has("join-help-panel"):  # a seat taken closes the panel
        await board.click("join-help")
    assert "link icon" in text_in(board, "join-none")
    assert qr_text(board, "check-qr") == f"{WIFI}/check"  # the check page still helps
    await board.click("close-join-help")
    assert not board.has("join-help-panel")
