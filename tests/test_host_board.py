"""The host board's rights and the tablet's pass-and-play, through real Flet sessions."""

from __future__ import annotations

from typing import Any

import pytest

from tests.harness.flet_inprocess import FakeBrowser
from tests.test_views_inprocess import CHIP_TABLES, make_world


async def test_pass_and_play_hides_the_choice_and_stores_no_seat_token(make_host: Any, harness_factory: Any) -> None:
    """Chloe has no phone. At her card turn the host taps her tablet icon: a privacy screen asks
    to hand the tablet over; only then are her choices shown; after the card, the board is back
    and the tablet's storage holds no seat token."""
    world = await make_world(make_host, harness_factory, "pass")
    board = await world.open_board()
    for table in CHIP_TABLES:
        await board.click(f"table-{table}")
    seat = world.current()
    name = world.room.names[seat]
    await board.click(f"pass-{seat}")
    assert board.has("privacy-ready") and not board.has("card-raise")
    assert "Raise" not in board.text()
    await board.click("privacy-ready")
    await board.click("show-private")
    assert board.has("card-raise")
    await board.click("card-bluff")
    await board.click("seat-table-5")
    assert [(p.seat, p.card, p.table) for p in world.room.state.placements] == [(seat, "bluff", 5)]
    entry = world.room.log_entries[-1]
    assert entry.channel == "pass"
    # back on the board: her card is a back, and nothing of it is on the page
    assert board.has("table-5") and not board.has("privacy-ready") and "Bluff" not in board.text()
    assert f"{name} placed a card face down at table 5." in board.text()
    assert not any(key.startswith("referee.seat") for key in board.browser.storage)


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
async def test_pass_and_play_is_worded_and_says_whose_choices(lang: str, make_host: Any, harness_factory: Any) -> None:
    """Issue 15: the pass-and-play button is words beside the tablet icon, named for its player
    for a screen reader; once the tablet is handed over, the screen says whose choices it shows."""
    import flet as ft

    from tests.harness.flet_inprocess import walk_controls
    from views.i18n import translator

    tr = translator(lang)
    world = await make_world(make_host, harness_factory, f"pass-words-{lang}")
    board = await world.harness.open(f"/room/{world.room.id}?k={world.host.token}&lang={lang}", name="board")
    names = world.room.names
    seat = world.current()
    button = board.find(f"pass-{seat}")
    assert button is not None
    texts = [c for c in walk_controls(button) if isinstance(c, ft.Text)]
    assert [t.value for t in texts] == [tr.t("ui.pass_button")]
    assert texts[0].semantics_label == tr.t("ui.pass_and_play", names, seat=seat)
    await board.click(f"pass-{seat}")
    assert not board.has("pass-whose")  # the privacy screen names the player it waits for
    await board.click("privacy-ready")
    assert tr.t("ui.pass_whose", names, seat=seat) in board.texts(board.find("pass-whose"))


async def test_a_board_without_the_host_token_only_watches(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "spectator")
    spectator = await world.harness.open(f"/room/{world.room.id}", browser=FakeBrowser("spectator"), name="spectator")
    assert spectator.has("table-1") and spectator.has("seat-0")
    for host_only in ("undo", "reissue-0", "pass-0", "next-round"):
        assert not spectator.has(host_only), host_only
    before = world.room.version
    for tap in ("seat-0", "table-1"):  # neither a seat's QR code nor a chip: nothing to tap
        with pytest.raises(AssertionError, match="nothing clickable"):
            await spectator.click(tap)
    assert not spectator.has("seat-qr-0") and world.room.version == before
    # the same page with the host token may act
    board = await world.open_board()
    await board.click("table-1")
    assert world.room.version == before + 1
