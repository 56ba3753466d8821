"""The host's setup screen creates a playable room of every game that has pages; a spectator
sees the rooms but no setup."""

from __future__ import annotations

from typing import Any

import flet as ft
import pytest

from companion.games import GAMES
from tests.harness.flet_inprocess import FakeBrowser, walk_controls
from views.games import UIS
from views.home import COLOURS


def control_in(tab: Any, identifier: str, kind: type) -> Any:
    semantics = tab.find(identifier)
    assert semantics is not None, f"no {identifier!r}: {tab.identifiers()}"
    return next(c for c in walk_controls(semantics) if isinstance(c, kind))


async def choose(tab: Any, harness: Any, identifier: str, value: str) -> None:
    dropdown = control_in(tab, identifier, ft.Dropdown)
    tab.session.apply_patch(dropdown._i, {"value": value})  # as the browser reports a choice
    await tab.session.dispatch_event(dropdown._i, "select", value)
    await harness.settle()


async def type_into(tab: Any, harness: Any, identifier: str, value: str) -> None:
    field = control_in(tab, identifier, ft.TextField)
    tab.session.apply_patch(field._i, {"value": value})  # as the browser reports typing
    await tab.session.dispatch_event(field._i, "change", value)
    await harness.settle()


@pytest.mark.parametrize("game_id", UIS)
async def test_setup_screen_creates_a_room_of_each_game(game_id: str, make_host: Any, harness_factory: Any) -> None:
    host = make_host(game_id)
    harness = harness_factory(host)
    home = await harness.open(f"/?k={host.token}", name="home")
    assert home.has("setup-game") and not host.rooms
    await choose(home, harness, "setup-game", game_id)
    for i, name in enumerate(["Élodie", "Пётр", "Zoë", "Dan"]):
        await type_into(home, harness, f"player-name-{i}", name)
    rules = GAMES[game_id].house_rules
    if rules:  # the last value of the first house rule, to see a non-default choice arrive
        rule, values = next(iter(rules.items()))
        await choose(home, harness, f"rule-{rule}", str(values[-1]))
    await home.click("create-room")
    assert len(host.rooms) == 1, home.text()
    room = next(iter(host.rooms.values()))
    assert room.game_id == game_id and room.names == ["Élodie", "Пётр", "Zoë", "Dan"]
    if rules:
        assert str(getattr(room.setup, rule)) == str(values[-1])
    assert home.conn.routes[-1] == f"/room/{room.id}?k={host.token}"


async def test_reglements_players_take_the_gangs_the_box_has_for_their_number(make_host: Any, harness_factory: Any) -> None:
    """RULES 4.2-4.3: three players play yellow, red and blue (10 gangsters each; green has 7),
    four add green. The form gives out those colours, a player keeping theirs where it is one of
    them, offers no other, and says why."""
    host = make_host("reglement")
    harness = harness_factory(host)
    home = await harness.open(f"/?k={host.token}", name="home")

    def menus() -> list[ft.Dropdown]:
        return [control_in(home, f"player-colour-{i}", ft.Dropdown) for i in range(6) if home.has(f"player-colour-{i}")]

    await choose(home, harness, "setup-game", "reglement")
    assert [m.value for m in menus()] == ["red", "blue", "green", "yellow"]  # four players: these four gangs already
    assert "yellow, red, blue, green" in home.text(home.find("box-colours"))
    removes = [c for c in walk_controls(home.page) if isinstance(c, ft.IconButton) and c.tooltip == "Remove"]
    await home.session.dispatch_event(removes[0]._i, "click", None)  # the red player leaves
    await harness.settle()
    assert [m.value for m in menus()] == ["blue", "red", "yellow"]  # green's gang is too small for three
    assert all([o.key for o in m.options] == ["yellow", "red", "blue"] for m in menus())
    assert "With 3 players the gangs are yellow, red, blue:" in home.text(home.find("box-colours"))
    await choose(home, harness, "setup-game", "vabanque")  # a game whose pieces come in any colour
    assert not home.has("box-colours") and len(menus()[0].options) == len(COLOURS)
    await choose(home, harness, "setup-game", "reglement")
    assert [m.value for m in menus()] == ["blue", "red", "yellow"]
    await home.click("create-room")
    room = next(iter(host.rooms.values()))
    assert [p.colour for p in room.setup.players] == ["blue", "red", "yellow"]


async def test_a_spectator_sees_rooms_but_no_setup(make_host: Any, harness_factory: Any) -> None:
    host = make_host("spectator")
    await host.create_room("vabanque", {"players": [{"name": n, "colour": c} for n, c in [("Ann", "red"), ("Bob", "blue"), ("Cyd", "green")]]})
    harness = harness_factory(host)
    page = await harness.open("/", browser=FakeBrowser("spectator"), name="spectator")
    assert "Ann" in page.text() and not page.has("setup-game") and not page.has("create-room")


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
async def test_every_house_rule_choice_shows_whole(lang: str, width: int, make_host: Any, harness_factory: Any) -> None:
    """Whatever the host chooses, on a tablet or a phone: the choice fits its drop-down's field at
    the field's text size (measured in the app's font, views/text_metrics.py), or it is also
    written out whole beside the field (issue 15: "(ruleboo…"). Every house rule of every game,
    every value; the rule's name fits its field too."""
    from views.i18n import translator
    from views.text_metrics import fits_dropdown, text_width

    tr = translator(lang)
    host = make_host(f"rules-{lang}-{width}")
    harness = harness_factory(host)
    home = await harness.open(f"/?k={host.token}&lang={lang}", width=width, name="home")
    cut: list[str] = []
    for game_id in UIS:
        await choose(home, harness, "setup-game", game_id)
        for rule, values in GAMES[game_id].house_rules.items():
            # its name: the field's floating label (12 px) when it fits there, else written above it
            dropdown = control_in(home, f"rule-{rule}", ft.Dropdown)
            name = tr.t(f"{game_id}.rule.{rule}")
            if dropdown.label != name and name not in home.texts():
                cut.append(f"{game_id}.rule.{rule}: its name is not shown")
            if dropdown.label == name and text_width(name, 12, letter_spacing=0.5) > dropdown.width - 32:
                cut.append(f"{game_id}.rule.{rule}: its name {name!r} cut in {dropdown.width:.0f} px")
            for value in values:
                await choose(home, harness, f"rule-{rule}", str(value))
                dropdown = control_in(home, f"rule-{rule}", ft.Dropdown)
                chosen = tr.t(f"{game_id}.rule.{rule}.{value}")
                assert dropdown.value == str(value)
                if fits_dropdown(chosen, dropdown.width, dropdown.text_size or 16):
                    continue
                written = home.texts().count(chosen) - home.texts(dropdown).count(chosen)
                if written < 1:
                    cut.append(f"{game_id}.rule.{rule}.{value}: {chosen!r} in {dropdown.width:.0f} px")
    assert not cut, f"{lang} at {width} px, cut and not written out:\n" + "\n".join(cut)


async def test_the_setup_form_says_what_is_wrong_with_the_names_where_they_are_typed(make_host: Any, harness_factory: Any) -> None:
    """Issue 31: a name cannot be typed past its limit, a name said twice is named with its rows,
    an empty row says the colour's name it will get, the first-player menu lists the names, and
    Create's refusal names the rows."""
    from companion.players import NAME_LENGTH

    host = make_host("names")
    harness = harness_factory(host)
    home = await harness.open(f"/?k={host.token}", name="home")
    field = control_in(home, "player-name-0", ft.TextField)
    assert field.max_length == NAME_LENGTH == 24  # the field itself stops at 24 characters
    assert field.helper == "Left empty: Red" and field.error is None
    for i, name in enumerate(["Ada", "Bea", "ada "]):
        await type_into(home, harness, f"player-name-{i}", name)
    assert control_in(home, "player-name-0", ft.TextField).error == "Same name as row 3"
    assert control_in(home, "player-name-2", ft.TextField).error == "Same name as row 1"
    assert control_in(home, "player-name-1", ft.TextField).error is None
    assert control_in(home, "player-name-1", ft.TextField).helper is None
    assert control_in(home, "player-name-3", ft.TextField).helper == "Left empty: Yellow"
    first = next(c for c in home.controls() if isinstance(c, ft.Dropdown) and c.label == "First player")
    assert [o.text for o in first.options] == ["Random", "Ada", "Bea", "ada", "Yellow"]
    await home.click("create-room")
    assert not host.rooms
    assert home.find("setup-error") is not None
    assert "Two players are called Ada: rows 1 and 3" in home.text()
    # fixed: the refusal goes as the name is edited, and the room is created
    await type_into(home, harness, "player-name-2", "Cyd")
    assert control_in(home, "player-name-0", ft.TextField).error is None
    assert "Two players are called" not in home.text()
    await home.click("create-room")
    room = next(iter(host.rooms.values()))
    assert room.names == ["Ada", "Bea", "Cyd", "Yellow"]


async def test_a_name_with_a_character_the_screens_cannot_show_is_refused_as_it_is_typed(make_host: Any, harness_factory: Any) -> None:
    """An emoji would be an empty box on every device (the app ships no emoji font): the row says
    which character at once, and Create refuses naming the row (docs/decisions/names-the-font-draws.md)."""
    host = make_host("emoji")
    harness = harness_factory(host)
    home = await harness.open(f"/?k={host.token}", name="home")
    for i, name in enumerate(["Ada", "Dov 🎲", "Cy"]):
        await type_into(home, harness, f"player-name-{i}", name)
    assert control_in(home, "player-name-1", ft.TextField).error == "No screen shows 🎲"  # short: it fits under the field
    await home.click("create-room")
    assert not host.rooms and "Row 2: the screens cannot show 🎲" in home.text()
    await type_into(home, harness, "player-name-1", "Dov")
    assert control_in(home, "player-name-1", ft.TextField).error is None
    await home.click("create-room")
    assert next(iter(host.rooms.values())).names[:3] == ["Ada", "Dov", "Cy"]


async def test_the_setup_form_names_duplicate_rows_in_french_and_russian(make_host: Any, harness_factory: Any) -> None:
    host = make_host("names-fr")
    harness = harness_factory(host)
    for lang, words in (("fr", "lignes 1 et 2"), ("ru", "строки 1 и 2")):
        home = await harness.open(f"/?k={host.token}&lang={lang}", browser=FakeBrowser(f"tablet-{lang}"), name=f"home-{lang}")
        for i in range(2):
            await type_into(home, harness, f"player-name-{i}", "Ada")
        await home.click("create-room")
        assert words in home.text(), home.text()
        assert not host.rooms


@pytest.mark.parametrize(
    ("game_id", "status"),
    [("chicago_poker", "Entering business tiles"), ("reglement", "Seating"), ("vabanque", "Round 1 of"), ("corruption", "Round 1 of")],
)
async def test_a_room_card_says_where_its_game_is(game_id: str, status: str, make_host: Any, harness_factory: Any) -> None:
    """Chicago Poker and Règlement have no rounds: their card said "Round 1 of 1"."""
    host = make_host(f"card-{game_id}")
    players = [{"name": n, "colour": c} for n, c in [("Ann", "red"), ("Bob", "blue"), ("Cyd", "green")]]
    room = await host.create_room(game_id, {"players": players})
    harness = harness_factory(host)
    home = await harness.open(f"/?k={host.token}", name="home")
    shown = home.text(home.find(f"room-status-{room.id}"))
    assert shown.startswith(status) and "of 1" not in shown, shown
