"""Règlement de comptes in real headless Chromium against the real server (`uv run main.py`).

Run: `uv run pytest tests/test_reglement_browser.py -q` (marker `browser`). Needs Debian's chromium
at /usr/bin/chromium: without it this test FAILS (never skips).

The room is prepared before the server starts: four players on the default board from a preset
seating; Yvette (yellow) ordered her cake at G (Bianca's Flingueur, between Raoul's F and
Gaston's H) on turn 1, the others passed, and Gaston has set a card aside. In the browser the host
ends Gaston's turn on the board: Yvette's cake explodes (F, G, H die), then her income is paid.
The board shows the turn's steps and walks the rulings one tap at a time; Yvette's phone shows
her money and, in her private rules helper, whom her Flingueur can shoot right now; she plays it.

Screenshots (board 1280x800, phone 360x780) go to $REGLEMENT_SHOTS or /tmp/reglement_screens.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.harness.browser import BOARD_VIEWPORT, PHONE_VIEWPORT, WAIT_MS, chromium, enable_semantics, ident
from tests.harness.server import RefereeServer, prepare_rooms
from tests.test_reglement_views import BLUE, GREEN, RED, SEED, YELLOW, preset_setup

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("REGLEMENT_SHOTS", "/tmp/reglement_screens"))



SAYS_JS = """([id, text]) => {
    const el = document.querySelector(`[flt-semantics-identifier="${id}"]`);
    if (!el) return text === null ? "" : false;
    const labels = [el, ...el.querySelectorAll("[aria-label]")].map(e => e.getAttribute("aria-label") || "");
    const all = labels.join(" ") + " " + el.textContent;
    return text === null ? all : all.includes(text);
}"""


def says(page: Any, identifier: str, text: str) -> None:
    """Wait until the node `identifier` shows `text` (in its text or in the labels Flutter folds
    texts into: a group with buttons inside carries its texts as aria-label)."""
    try:
        page.wait_for_function(SAYS_JS, arg=[identifier, text], timeout=WAIT_MS)
    except Exception as error:
        shown = page.evaluate(SAYS_JS, [identifier, None])
        raise AssertionError(f"{identifier!r} never showed {text!r}; it shows {shown!r}") from error



@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RefereeServer, str, list[str], int]]:
    data_dir = tmp_path_factory.mktemp("reglement-data")

    async def script(host: Any) -> tuple[str, list[str], int]:
        room = await host.create_room("reglement", preset_setup(), seed=SEED)

        async def act(raw: dict[str, Any]) -> None:
            await room.submit(raw, channel="host", seat=None, based_on_version=room.version)

        await act({"type": "order_cake", "by": YELLOW, "seat": "G"})
        await act({"type": "end_turn", "by": YELLOW})
        for seat in (RED, BLUE):
            await act({"type": "discard", "by": seat})
            await act({"type": "end_turn", "by": seat})
        await act({"type": "discard", "by": GREEN})
        assert room.view().turn == GREEN
        assert room.view().gangs[YELLOW].money == 1_000
        return room.id, [s.token for s in room.seats], room.view().bank

    room, tokens, bank = prepare_rooms(data_dir, script)
    with RefereeServer(data_dir) as server:
        yield server, room, tokens, bank


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def test_cake_explosion_and_income_on_board_and_phone(served: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    server, room, tokens, bank = served
    SHOTS.mkdir(parents=True, exist_ok=True)
    tablet = browser.new_context(viewport=BOARD_VIEWPORT)
    phone_ctx = browser.new_context(viewport=PHONE_VIEWPORT)
    for context in (tablet, phone_ctx):
        context.set_default_timeout(WAIT_MS)
    try:
        board = tablet.new_page()
        board.goto(server.url(f"/room/{room}", k=server.host_token))
        phone = phone_ctx.new_page()
        phone.goto(server.url(f"/join/{room}/{tokens[YELLOW]}"))
        enable_semantics(board)
        enable_semantics(phone)

        # Before: Gaston's turn; Yvette's cake sits at G, Bianca's Flingueur still there.
        says(board, "prompt", "Gaston plays")
        says(board, "chair-G", "Seat G · restaurant · faces N · Bianca's Flingueur · Yvette's cake")
        says(phone, "my-gang", "Your cake: at G")
        board.screenshot(path=str(SHOTS / "board_before.png"))

        # The host ends Gaston's turn: step 1 (the cake) and step 2 (income) of Yvette's turn.
        ident(board, "end-turn").click()
        says(board, "prompt", "Yvette plays")
        says(board, "turn-steps", "exploded at G")
        says(board, "turn-steps", "(3 killed)")
        says(board, "turn-steps", "+1,000")
        for seat in ("F", "G", "H"):
            says(board, f"chair-{seat}", f"Seat {seat}" + {"F": " · revolver · faces O", "G": " · restaurant · faces N", "H": " · faces M"}[seat] + " · empty seat")
        # The rulings open on the newest (Yvette's income), never on Gaston's draw; one tap at a
        # time back through the dead to the explosion
        says(board, "step-now", "Yvette earns 1,000")
        says(board, "steps", "Step 7 of 7")
        for shown in (6, 5, 4):
            ident(board, "step-previous").click()
            says(board, "steps", f"Step {shown} of 7")
        says(board, "step-now", "Raoul's Flingueur at F is killed.")
        board.screenshot(path=str(SHOTS / "board_explosion.png"))
        ident(board, "step-previous").click()
        says(board, "step-now", "Yvette's cake explodes at G")
        ident(board, "step-last").click()
        says(board, "step-now", "Yvette earns 1,000")
        says(board, "bank", f"Bank {bank - 1_000:,}")

        # The phone: Yvette's turn, her money, and the private helper for Pan!.
        expect(ident(phone, "your-turn")).to_be_visible()
        expect(phone.get_by_text("2,000 · 7 alive")).to_be_visible()
        # The helper (its card choice says what is in the hand) is private: opened with a tap.
        expect(ident(phone, "helper")).to_have_count(0)
        ident(phone, "show-private").click()
        expect(ident(phone, "hide-private")).to_be_visible()
        ident(phone, "help-pan").click()
        sentence = "Pan!: you can shoot Gaston's Lame d'Acier at P from your Flingueur at E"
        says(phone, "helper", sentence)
        # scroll the helper's answers into view (for the screenshot), a step at a time, waiting
        # after each until the first answer is on screen (Flutter adds its node only when near)
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        on_screen = """() => { const e = document.querySelector('[flt-semantics-identifier="target-0"]');
            if (!e) return false; const top = e.getBoundingClientRect().top; return top > 0 && top < 420; }"""
        phone.mouse.move(180, 600)  # below the hold pad
        for _step in range(8):
            phone.mouse.wheel(0, 200)
            try:
                phone.wait_for_function(on_screen, timeout=4000)
                break
            except PlaywrightTimeout:
                continue
        phone.wait_for_function(on_screen)
        phone.screenshot(path=str(SHOTS / "phone_helper.png"))
        ident(phone, "target-0").click()
        # the steps open on the newest ruling, the shot's outcome, with the shot just above it
        says(board, "step-now", "Gaston's Lame d'Acier at P is killed.")
        says(board, "steps", "Yvette plays Pan!: their Flingueur at E shoots Gaston's Lame d'Acier at P.")
        says(board, "turn-steps", "Pan!")
        board.screenshot(path=str(SHOTS / "board_after_pan.png"))
        phone.screenshot(path=str(SHOTS / "phone_after_pan.png"))
    finally:
        tablet.close()
        phone_ctx.close()
