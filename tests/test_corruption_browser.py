"""Corruption in real headless Chromium against the real server (`uv run main.py`): one full round
with the host board (1280x800) and three phone-sized seat pages (360x780).

Prepared before the server starts: only the room (three players, Alice leads). Everything of the
round goes through the pages: the host enters the six contracts on the board (Monument picked
from the catalogue, the others typed), every card is placed on its owner's phone, every award
choice (two Swiss assignments, a hit man's target, a reporter's removal) is made on its owner's
phone, and the board, stepped through the rulings, ends with the right awards and scores.

Run: `uv run pytest tests/test_corruption_browser.py -q` (marker `browser`). Needs Debian's
chromium at /usr/bin/chromium: without it this test FAILS, never skips. Screenshots go to
$CORRUPTION_SCREENSHOTS (default /tmp/corruption_screens).
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from companion.games.corruption import CATALOGUE_PATH
from tests.harness.browser import BOARD_VIEWPORT, PHONE_VIEWPORT, WAIT_MS, enable_semantics, ident, launch
from tests.harness.server import RefereeServer, prepare_rooms
from tests.test_corruption_views import CHOICES, DEAL, NAMES, PLAYERS, ROUND, SEED, STADIUM, WINNERS

pytestmark = pytest.mark.browser

BODY_NAMES = {"city_hall": "City Hall", "county_seat": "County Seat", "capitol": "Capitol"}
T0 = 0.0
SHOTS = Path(os.environ.get("CORRUPTION_SCREENSHOTS", "/tmp/corruption_screens"))




def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def test_one_round_with_board_and_three_phones(tmp_path: Path) -> None:
    # Required: a missing browser is a failure, never a skip.
    from playwright.sync_api import expect, sync_playwright

    global T0
    T0 = time.monotonic()
    catalogue = tmp_path / "contracts.json"
    catalogue.write_text(CATALOGUE_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    data_dir = tmp_path / "data"

    async def script(host: Any) -> tuple[str, list[str]]:
        room = await host.create_room("corruption", {"players": PLAYERS, "first_player": 0}, seed=SEED)
        return room.id, [s.token for s in room.seats]

    room_id, tokens = prepare_rooms(data_dir, script)
    server = RefereeServer(data_dir, env={"CORRUPTION_CATALOGUE": str(catalogue)})
    server.start()
    expect.set_options(timeout=WAIT_MS)
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                print()
                board = browser.new_context(viewport=BOARD_VIEWPORT).new_page()
                board.goto(server.url(f"/room/{room_id}", k=server.host_token or ""))
                enable_semantics(board)
                deal(board, expect, catalogue)
                # The phones join once the contracts are on the table (a phone joining re-renders
                # the board, which would drop keystrokes in flight in the deal form).
                phones = []
                for seat, token in enumerate(tokens):
                    page = browser.new_context(viewport=PHONE_VIEWPORT).new_page()
                    page.goto(f"{server.base}/join/{room_id}/{token}")
                    enable_semantics(page)
                    expect(page.get_by_text(NAMES[seat], exact=False).first).to_be_visible()
                    phones.append(page)
                # the deal is the host board's: no phone offers to take it back, not even the
                # leading player's, whose turn it now is
                expect(ident(phones[0], "your-turn")).to_be_visible()
                for page in phones:
                    expect(ident(page, "take-back")).to_have_count(0)
                play(board, phones, expect)
            finally:
                browser.close()
    finally:
        expect.set_options(timeout=None)
        server.stop()


def lap(what: str) -> None:
    """Progress with timings (shown with `pytest -s`)."""
    print(f"{time.monotonic() - T0:6.1f}s {what}")


def type_into(page: Any, expect: Any, label: str, text: str) -> None:
    """Type into a text field as a person does: tap it, and type once it is the field being
    edited. Flutter takes the field over a frame or more after the tap (it then turns its
    autocorrect on); text or an Enter arriving before that never reaches Flutter, nor the app,
    while the input element shows it (seen on a loaded machine: the deal's Enter was lost)."""
    box = page.locator(f'input[aria-label="{label}"]')
    box.click()
    expect(box).to_have_attribute("autocorrect", "on")
    box.fill(text)


def deal(board: Any, expect: Any, catalogue: Path) -> None:
    """The host enters the six contracts on the board: Monument in one tap of its catalogue card
    (its value is known), Opera House in two (its card, then its value: the catalogue does not
    know it yet), the other four typed into their slots."""
    lap("board loaded")
    expect(ident(board, "deal-form")).to_be_visible()
    # a 1280x800 tablet holds the whole deal without scrolling: the catalogue, all six slots and
    # the Deal button (it was below the fold, and only each body's first slot showed)
    for what in ["deal-submit", "deal-card-Police Station", "deal-amount-1200000", *(f"deal-slot-{b}-{n}" for b in BODY_NAMES for n in (1, 2))]:
        box = ident(board, what).bounding_box()
        assert box is not None and box["height"] > 0, what
        assert box["y"] >= 0 and box["y"] + box["height"] <= BOARD_VIEWPORT["height"], (what, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= BOARD_VIEWPORT["width"], (what, box)
    quick = ident(board, "deal-next")
    expect(quick).to_contain_text("Next: City Hall 1")
    ident(board, "deal-card-Monument").click()
    expect(ident(board, "deal-slot-city_hall-1")).to_contain_text("Monument")
    expect(quick).to_contain_text("Next: City Hall 2")
    ident(board, "deal-card-Opera House").click()
    expect(quick).to_contain_text("Opera House in City Hall 2: tap its value")
    ident(board, "deal-amount-600000").click()
    expect(quick).to_contain_text("Next: County Seat 1")
    expect(ident(board, "deal-slot-city_hall-2")).to_contain_text("Opera House")
    for body, contracts in list(DEAL.items())[1:]:
        for n, (name, value) in enumerate(contracts, start=1):
            prefix = f"{BODY_NAMES[body]} {n}"
            # beside the catalogue, a slot's fields show once the slot is tapped
            ident(board, f"deal-slot-{body}-{n}").click()
            expect(board.locator(f'input[aria-label="{prefix}: name"]')).to_be_visible()
            if (body, n) == ("county_seat", 1):
                # a closed slot's menu is sent without its options: opened, they are all there
                ident(board, f"deal-pick-{body}-{n}").click()
                expect(board.get_by_role("button", name=re.compile(r"^Stadium \(")).first).to_be_visible()
                board.keyboard.press("Escape")
                expect(board.get_by_role("button", name=re.compile(r"^Stadium \("))).to_have_count(0)
            # an open slot's menu and fields push nothing out of the screen
            for what in (f"deal-value-{body}-{n}", "deal-submit"):
                box = ident(board, what).bounding_box()
                assert box is not None and box["y"] + box["height"] <= BOARD_VIEWPORT["height"], (what, box)
            for field, text in (("name", name), ("value", value)):
                type_into(board, expect, f"{prefix}: {field}", text)
    shot(board, "corruption-board-deal")
    # Enter in the last field deals: it reaches the server after that field's own keystrokes
    # (a tap on the button may overtake the text Flutter has not forwarded yet)
    last = board.locator(f'input[aria-label="{BODY_NAMES["capitol"]} 2: value"]')
    expect(last).to_have_attribute("autocorrect", "on")  # still the field being edited
    last.press("Enter")
    try:
        expect(ident(board, "prompt")).to_contain_text(re.compile(r"plays card 1 of\s6"))
    except AssertionError:
        # say why the deal did not happen: a refusal shows in the banner, else the Enter was lost
        refusal = ident(board, "banner").all_inner_texts()
        fields = {f"{b} {n} {f}": board.locator(f'input[aria-label="{BODY_NAMES[b]} {n}: {f}"]').input_value() for b in list(DEAL)[1:] for n in (1, 2) for f in ("name", "value")}
        raise AssertionError(f"no deal: banner {refusal}, fields {fields}") from None
    # each slot holds what was entered for it (a stray tap filling a slot would show here)
    for contract, (name, _value) in enumerate((c for contracts in DEAL.values() for c in contracts), start=1):
        expect(ident(board, f"contract-{contract}")).to_contain_text(name)
    saved = {e["name"]: e["value"] for e in json.loads(catalogue.read_text(encoding="utf-8"))["contracts"]}
    assert saved["Opera House"] == 600_000 and saved["Airport"] == 700_000, saved

    lap("dealt")


def play(board: Any, phones: list[Any], expect: Any) -> None:
    lap("phones loaded")
    # -- the round: every card on its owner's phone (Alice, Bruno, Chloe, Alice, ...) --
    for i, (card, location) in enumerate(ROUND):
        seat = i % 3
        phone = phones[seat]
        expect(ident(phone, "your-turn")).to_be_visible()
        expect(ident(phone, "face-up" if i < 3 else "face-down")).to_be_visible()
        if i == 3:
            shot(phone, "corruption-phone-hidden")
        ident(phone, "show-private").click()  # the cards are not on the page until asked for
        ident(phone, f"card-{card}").click()
        if i == 3:
            expect(ident(phone, f"loc-{location}")).to_be_visible()
            shot(phone, "corruption-phone-play")
        ident(phone, f"loc-{location}").click()
        if i == 7:
            shot(board, "corruption-board-play")
        if i == len(ROUND) - 2:
            # before the last card: Alice's face-down 8k under the Monument is a back on the
            # board, a face on her own phone
            expect(ident(board, "card-6")).to_be_visible()
            expect(ident(board, "contract-1")).not_to_contain_text("8k")
            expect(ident(phones[0], "public-table")).not_to_contain_text("8k")
            ident(phones[0], "show-private").click()
            # shown: the face on its place in the table, only while the cards are shown
            expect(ident(phones[0], "public-table")).to_contain_text("8k")
            ident(phones[0], "hide-private").click()
            expect(ident(phones[0], "public-table")).not_to_contain_text("8k")

    lap("cards placed")
    # -- the reveal: its own action, tapped on the host board (the undo stops there) --
    ident(board, "reveal").click()
    # -- the awards: each choice on its owner's phone --
    for n, (seat, identifier) in enumerate(CHOICES):
        phone = phones[seat]
        expect(ident(phone, identifier)).to_be_visible()
        if n == 2:
            shot(board, "corruption-board-awards")
            shot(phone, "corruption-phone-hit")
        if n == 0:
            shot(phone, "corruption-phone-swiss")
        ident(phone, identifier).click()
        expect(ident(phone, identifier)).to_have_count(0)

    lap("choices made")
    # -- the board steps through the rulings to the awards --
    expect(ident(board, "deal-open")).to_be_visible()  # only once the round is over
    steps = ident(board, "award-steps")
    expect(steps).to_have_attribute("aria-label", re.compile(r"Step \d+ of \d+"))
    for _ in range(30):
        text = steps.get_attribute("aria-label") or ""
        match = re.search(r"Step (\d+) of (\d+)", text)
        assert match, text
        shown, total = int(match.group(1)), int(match.group(2))
        if shown == total:
            break
        ident(board, "step-next").click()
        expect(steps).to_have_attribute("aria-label", re.compile(f"Step {shown + 1} of {total}"))
    expect(steps).to_contain_text("leads round 2")
    for contract, seat in WINNERS.items():
        expect(ident(board, f"award-{contract}")).to_contain_text(f"WON by {NAMES[seat]}")
    expect(ident(board, f"award-{STADIUM}")).to_contain_text("TIED")
    expect(ident(board, "scores")).to_contain_text("1,800,000")
    expect(ident(phones[2], "my-award-4")).to_contain_text("WON by Chloe")
    lap("stepped")
    shot(board, "corruption-board-result")
    shot(phones[2], "corruption-phone-result")
