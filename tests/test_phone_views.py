"""The phone, in process: one short vibration as each of its turns starts, and the language the
device prefers when it has not chosen one."""

from __future__ import annotations

from typing import Any

from flet.messaging.protocol import MessageAction

from tests.harness.flet_inprocess import FakeBrowser, Tab
from tests.harness.world import PHONE, World
from tests.test_views_inprocess import CHIP_TABLES, make_world
from views.app import LANG_KEY, language_for
from views.i18n import translator


def vibrations(phone: Tab) -> int:
    """How many times the server asked this phone to vibrate."""
    return sum(
        1
        for action, body in phone.messages()
        if action == MessageAction.INVOKE_METHOD.value and isinstance(body, dict) and body.get("name") == "vibrate"
    )


async def test_the_phone_vibrates_once_as_each_turn_starts(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "buzz")
    board = await world.open_board()
    chips = iter(CHIP_TABLES)
    seat = (world.current() + 1) % 3  # its turn comes after the next chip
    phone = await world.open_phone(seat)
    assert not phone.has("your-turn") and vibrations(phone) == 0

    await board.click(f"table-{next(chips)}")
    assert world.current() == seat and phone.has("your-turn")
    assert vibrations(phone) == 1
    # Redraws during the same turn (a resize, a reconnect, a peek) do not buzz again.
    await phone.session.dispatch_event(phone.page._i, "resize", {"width": 391.0, "height": 844.0})
    await phone.click("show-private")
    await phone.click("hide-private")
    await world.harness.settle()
    assert phone.has("your-turn") and vibrations(phone) == 1

    await phone.click(f"seat-table-{next(chips)}")  # its own chip: the turn passes on
    assert not phone.has("your-turn") and vibrations(phone) == 1
    for _ in range(2):
        await board.click(f"table-{next(chips)}")
    assert world.current() == seat and phone.has("your-turn")
    assert vibrations(phone) == 2  # the next turn start buzzes once more
    world.harness.check()


def test_language_for_a_device_takes_the_first_language_we_have() -> None:
    assert language_for(["ru-RU", "en-US"]) == "ru"
    assert language_for(["de-CH", "fr-CH", "en"]) == "fr"
    assert language_for(["fr_CA"]) == "fr"
    assert language_for(["ja-JP", "zh"]) == "en"
    assert language_for([]) == "en"


async def open_seat(world: World, seat: int, browser: FakeBrowser, query: str = "") -> Tab:
    token = world.room.seats[seat].token
    return await world.harness.open(f"/join/{world.room.id}/{token}{query}", browser=browser, name=browser.name, **PHONE)


async def test_a_phone_opens_in_its_device_language_unless_it_chose_one(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "locale")
    seat = world.current()
    expected = {lang: translator(lang).t("ui.your_turn") for lang in ("en", "fr", "ru")}
    assert len(set(expected.values())) == 3

    russian = await open_seat(world, seat, FakeBrowser("ru-phone", languages=["ru-RU", "en-US"]))
    assert expected["ru"] in russian.texts(), russian.texts()
    assert LANG_KEY not in russian.browser.storage  # followed, not chosen: a later choice still wins

    # A language chosen on the device wins over its locale...
    chosen = FakeBrowser("fr-chosen", storage={LANG_KEY: "fr"}, languages=["ru-RU"])
    french = await open_seat(world, (seat + 1) % 3, chosen)
    # (not its turn: the page's language shows in the line every phone with cards has)
    assert translator("fr").t("ui.show_private_timed", n=20) in french.texts(), french.texts()
    # ...and so does ?lang= on the link.
    linked = await open_seat(world, (seat + 2) % 3, FakeBrowser("en-linked", languages=["ru-RU"]), "?lang=en")
    assert translator("en").t("ui.show_private_timed", n=20) in linked.texts()
    # An unsupported locale falls back to English.
    german = FakeBrowser("de-phone", languages=["de-DE"])
    page = await world.harness.open(f"/room/{world.room.id}", browser=german, name="de-board")
    assert translator("en").t("ui.spectator") in page.texts()
    world.harness.check()


async def test_icon_buttons_on_the_host_board_are_48_px_targets(make_host: Any, harness_factory: Any) -> None:
    import flet as ft

    world = await make_world(make_host, harness_factory, "targets")
    board = await world.open_board()
    icons = [c for c in board.controls() if isinstance(c, ft.IconButton)]
    assert len(icons) >= 1 + len(world.room.names)  # back, and a new-link button per seat
    for icon in icons:
        limits = icon.size_constraints
        assert limits is not None and limits.min_width >= 48 and limits.min_height >= 48, icon.tooltip
