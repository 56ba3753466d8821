"""A phone's menus and secret choices, through real Flet sessions in-process (the browser test
tests/test_phone_choices_browser.py measures the same on screen):

* the seat page's language menu names each language in its own words (English, Français,
  Русский), on every device whatever language it shows;
* the buttons of every game's secret choice on the phone are one height and one type size, in
  equal cells of a fixed grid (no label can widen its button), and every label fits whole.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from tests.conftest import VABANQUE_SEED, vabanque_setup
from tests.harness.flet_inprocess import FakeBrowser, walk_controls
from tests.harness.world import PHONE, make_world
from views.app import LANG_KEY


async def test_language_menu_names_each_language_in_its_own_words(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "menu-names", "vabanque", vabanque_setup(first_player=0), seed=VABANQUE_SEED)
    for lang in ("en", "fr", "ru"):
        token = world.room.seats[0].token
        phone = await world.harness.open(f"/join/{world.room.id}/{token}", browser=FakeBrowser(f"phone-{lang}", storage={LANG_KEY: lang}), name=f"phone-{lang}", **PHONE)
        menu = phone.find("seat-language")
        assert menu is not None, phone.identifiers()
        dropdown = next(c for c in walk_controls(menu) if isinstance(c, ft.Dropdown))
        assert [(o.key, o.text) for o in dropdown.options] == [("en", "English"), ("fr", "Français"), ("ru", "Русский")]
        assert dropdown.value == lang
    world.harness.check()
