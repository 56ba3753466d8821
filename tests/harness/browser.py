"""What every browser test shares: Debian's Chromium with the flags this offline machine needs,
viewports, and the hooks into Flutter's accessibility tree."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
RESOLVER_RULES = "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
#: No background networking (connections from Chromium are refused here, many at a time) and
#: every host but loopback unresolvable, so a page can never reach out.
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    f"--host-resolver-rules={RESOLVER_RULES}",
]
BOARD_VIEWPORT = {"width": 1280, "height": 800}
PHONE_VIEWPORT = {"width": 360, "height": 780}
WAIT_MS = 30_000


def require_chromium() -> str:
    """Browser tests are required: a missing browser fails them, it never skips them."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: install Debian's chromium package"
    return CHROMIUM


def launch_args(hosts: Mapping[str, str] | None = None) -> list[str]:
    """LAUNCH_ARGS, with `hosts` mapping names to loopback addresses
    ({"table-host.test": "127.0.0.1"}): a page then reaches the local server by a name that is
    not localhost, so it is not a secure context, as on a phone on the LAN."""
    args = list(LAUNCH_ARGS)
    if hosts:
        assert all(ip.startswith("127.") for ip in hosts.values()), "map names to loopback only"
        # The first matching rule wins: these names before the catch-all NOTFOUND.
        rules = [f"MAP {name} {ip}" for name, ip in hosts.items()] + [RESOLVER_RULES]
        args = [a for a in args if not a.startswith("--host-resolver-rules=")] + ["--host-resolver-rules=" + ", ".join(rules)]
    return args


def launch(playwright: Any, *, hosts: Mapping[str, str] | None = None) -> Any:
    """Chromium with `launch_args(hosts)`."""
    return playwright.chromium.launch(executable_path=require_chromium(), args=launch_args(hosts))


@contextmanager
def chromium(*, hosts: Mapping[str, str] | None = None) -> Iterator[Any]:
    """A launched Chromium (see `launch`) for a module's tests, with Playwright's `expect` waiting
    up to WAIT_MS (its default 5 s is short for Flutter on 2 cores); closed afterwards, and
    `expect` back to its default for other modules."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WAIT_MS)
    try:
        with sync_playwright() as pw:
            browser = launch(pw, hosts=hosts)
            try:
                yield browser
            finally:
                browser.close()
    finally:
        expect.set_options(timeout=None)


def device_script(name: str) -> str:
    """A script that makes every page of a browser context the device `name` (its secret in
    localStorage, where the app keeps it: views/app.py TabSession.device). A seat answers only
    the device that claimed it: a test that opens one seat's link in several contexts (sizes,
    languages, text scales) is one phone, not several asking for the seat."""
    import hashlib
    import json

    secret = hashlib.sha256(name.encode()).hexdigest()[:22]
    return f"localStorage.setItem('flutter.referee.device', {json.dumps(json.dumps(secret))});"


def seat_device_script(url: str) -> str | None:
    """`device_script` for the phone of a seat link's seat (None for another page)."""
    return device_script(url.split("/join/", 1)[1].split("?")[0]) if "/join/" in url else None


def ident(page: Any, identifier: str) -> Any:
    """The node a view labelled with `ft.Semantics(identifier=...)`."""
    return page.locator(f'[flt-semantics-identifier="{identifier}"]')


def enable_semantics(page: Any) -> None:
    """Flutter paints a canvas: turn on its accessibility tree (the DOM the tests read)."""
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
