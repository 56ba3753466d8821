"""A phone's menus and secret choices, through real Flet sessions in-process (the browser test
tests/test_phone_choices_browser.py measures the same on screen):

* the seat page's language menu names each language in its own words (English, Français,
  Русский), on every device whatever language it shows;
* the buttons of every game's secret choice on the phone are one height and one type size, in
  equal cells of a fixed grid (no label can widen its button), and every label fits whole.
"""

from __future__ import annotations

import random
from typing import Any

import flet as ft

from companion.engine import BOARD
from tests.conftest import VABANQUE_SEED, vabanque_setup
from tests.harness.flet_inprocess import FakeBrowser, walk_controls
from tests.harness.world import PHONE, make_world, show_private
from tests.test_chicago_poker_views import cp_setup
from tests.test_phone_public_views import random_play
from tests.test_reglement_views import preset_setup
from views.app import LANG_KEY
from views.common import SECRET_BORDER, SECRET_PADDING, SECRET_SPACING, _text_lines


async def test_language_menu_names_each_language_in_its_own_words(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "menu-names", "vabanque", vabanque_setup(first_player=0), seed=VABANQUE_SEED)
    for lang in ("en", "fr", "ru"):
        token = world.room.seats[0].token
        phone = await world.harness.open(f"/join/{world.room.id}/{token}", browser=FakeBrowser(f"phone-{lang}", storage={LANG_KEY: lang, "referee.device": "one-phone-device-secret"}), name=f"phone-{lang}", **PHONE)
        menu = phone.find("seat-language")
        assert menu is not None, phone.identifiers()
        dropdown = next(c for c in walk_controls(menu) if isinstance(c, ft.Dropdown))
        assert [(o.key, o.text) for o in dropdown.options] == [("en", "English"), ("fr", "Français"), ("ru", "Русский")]
        assert dropdown.value == lang
    world.harness.check()


# -- the secret choices of every game --


def grid_of(phone: Any, identifier: str, prefix: str) -> tuple[list[ft.Row], list[ft.Semantics]]:
    """The rows of a secret choice and its buttons (Semantics whose identifier starts `prefix`)."""
    root = phone.find(identifier)
    assert root is not None, (identifier, phone.identifiers())
    rows = [c for c in walk_controls(root) if isinstance(c, ft.Row)]
    buttons = [c for c in walk_controls(root) if isinstance(c, ft.Semantics) and (c.identifier or "").startswith(prefix) and c.identifier != identifier]
    return rows, buttons


def check_secret_grid(phone: Any, identifier: str, prefix: str, width: float) -> list[str]:
    """Every button of the choice: in an equal cell (expand 1) of rows of one length, one height,
    one type size, its label whole at that size. The labels, for the caller's checks."""
    rows, buttons = grid_of(phone, identifier, prefix)
    assert len(buttons) >= 2, (identifier, phone.identifiers())
    assert rows and len({len(r.controls) for r in rows}) == 1, "rows of one length (an empty cell keeps the places)"
    cells = [cell for row in rows for cell in row.controls]
    assert all(isinstance(c, ft.Container) and c.expand == 1 for c in cells), "equal cells"
    assert len({c.height for c in cells}) == 1, "one height"
    faces = []
    for button in buttons:
        face = next(c for c in walk_controls(button) if isinstance(c, ft.Container) and c.height is not None)
        text = next(c for c in walk_controls(face) if isinstance(c, ft.Text))
        assert face.width is None, "a face fills its cell: no width of its own"
        faces.append((face.height, text.size, text.max_lines))
    assert len(set(faces)) == 1, faces
    _height, size, lines = faces[0]
    columns = len(rows[0].controls)
    inner = (width - (columns - 1) * SECRET_SPACING) / columns - 2 * (SECRET_BORDER + SECRET_PADDING[0]) - 2
    labels = [next(c for c in walk_controls(b) if isinstance(c, ft.Text)).value for b in buttons]
    assert all(_text_lines(text, int(size), inner) <= lines for text in labels), (labels, size, lines)
    return labels


async def reach(make_host: Any, harness_factory: Any, game_id: str, setup: dict[str, Any], seed: int, until: Any, lang: str) -> tuple[Any, Any, int]:
    world = await make_world(make_host, harness_factory, f"secret-{game_id}-{lang}", game_id, setup, seed=seed)
    await random_play(world.room, random.Random(seed), until, limit=5000)
    seat = world.room.view().waiting_for[0]
    token = world.room.seats[seat].token
    phone = await world.harness.open(f"/join/{world.room.id}/{token}", browser=FakeBrowser(f"phone-{lang}", storage={LANG_KEY: lang, "referee.device": "one-phone-device-secret"}), name=f"phone-{lang}", **PHONE)
    await show_private(phone)
    return world, phone, seat


#: the phone's content width at 390 px (views/seat.py: 24 px less than the page's; measured 366
#: in Chromium, tests/test_phone_choices_browser.py)
WIDTH = PHONE["width"] - 24


async def test_every_games_secret_choice_is_one_size_in_fixed_places(make_host: Any, harness_factory: Any) -> None:
    from companion.games.chicago_poker import GAME as CHICAGO
    from companion.games.chicago_poker import Setup as ChicagoSetup

    def chicago_reinforce(seed: int) -> bool:
        state, rng = CHICAGO.initial_state(ChicagoSetup.model_validate(cp_setup()), seed), random.Random(seed)
        while CHICAGO.project(state, BOARD).phase != "reinforce":
            action = CHICAGO.random_action(state, rng)
            if action is None:
                return False
            state = CHICAGO.apply(state, action).state
        return True

    chicago_seed = next(s for s in range(1, 200) if chicago_reinforce(s))
    corruption_setup = {"players": [{"name": "Alice", "colour": "red"}, {"name": "Bruno", "colour": "blue"}, {"name": "Chloe", "colour": "green"}], "first_player": 0}
    cases = [
        ("vabanque", vabanque_setup(first_player=0), VABANQUE_SEED, lambda v: v.phase == "cards", "card-choices", "card-", WIDTH),
        ("corruption", corruption_setup, 4242, lambda v: v.phase == "corruption" and sum(v.cards_placed) >= 4 and len(v.waiting_for) == 1, "card-choices", "card-", WIDTH),
        ("reglement", preset_setup(), 5150, lambda v: v.phase == "play" and bool(v.turn_log) and len(v.waiting_for) == 1, "help-choices", "help-", WIDTH - 20),
        ("chicago_poker", cp_setup(), chicago_seed, lambda v: v.phase == "reinforce", "reinforce-special-choices", "reinforce-special-", WIDTH - 30),
    ]
    for game_id, setup, seed, until, identifier, prefix, width in cases:
        seen: dict[str, list[str]] = {}
        for lang in ("ru", "fr", "en"):
            world, phone, _seat = await reach(make_host, harness_factory, game_id, setup, seed, until, lang)
            seen[lang] = check_secret_grid(phone, identifier, prefix, width)
            world.harness.check()
        assert seen["ru"] != seen["en"], (game_id, seen)  # the labels are the language's own
