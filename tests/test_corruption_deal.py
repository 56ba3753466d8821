"""Corruption's deal on the host board, in-process (tests/harness/flet_inprocess.py): a round's
six contracts in six taps of the catalogue's cards (each fills the next slot whole, name and
value), one more tap for a card whose value the catalogue does not know yet (then remembered),
slots chosen and emptied by hand, and typed text that survives a redraw drawn between the
client's value update and its change event."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import flet as ft
import pytest

from companion.games.corruption import CATALOGUE_PATH
from tests.harness.flet_inprocess import Tab, walk_controls
from tests.test_corruption_views import A, B, make_world, set_field

ORDER = [("city_hall", 1), ("city_hall", 2), ("county_seat", 1), ("county_seat", 2), ("capitol", 1), ("capitol", 2)]
#: a table's catalogue after a few games: every card's value typed once
KNOWN = [("Monument", 100_000), ("Elementary School", 100_000), ("Hydro-Electric Dam", 1_200_000), ("Opera House", 600_000), ("Stadium", 500_000), ("Subway", 800_000), ("Airport", 700_000)]


def write_catalogue(path: Path, known: list[tuple[str, int]]) -> None:
    data = json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))
    values = dict(known)
    for entry in data["contracts"]:
        entry["value"] = values.get(entry["name"], entry["value"])
    path.write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture
def catalogue_file(tmp_path: Path, monkeypatch: Any) -> Path:
    path = tmp_path / "contracts.json"
    monkeypatch.setenv("CORRUPTION_CATALOGUE", str(path))
    return path


def field_value(tab: Tab, identifier: str) -> Any:
    semantics = tab.find(identifier, hidden=True)  # a field keeps its text while its slot is closed
    assert semantics is not None, tab.identifiers()
    return next(c for c in walk_controls(semantics) if isinstance(c, (ft.TextField, ft.Dropdown))).value


def menu_text(tab: Tab, body: str, n: int) -> str:
    """What the slot's catalogue menu shows: the text of its selected option."""
    semantics = tab.find(f"deal-pick-{body}-{n}", hidden=True)
    assert semantics is not None
    menu = next(c for c in walk_controls(semantics) if isinstance(c, ft.Dropdown))
    return next(o.text for o in menu.options if o.key == menu.value)


async def test_six_taps_deal_a_round_from_the_catalogue(make_host: Any, harness_factory: Any, catalogue_file: Path) -> None:
    write_catalogue(catalogue_file, KNOWN)
    world = await make_world(make_host, harness_factory, "six-taps")
    board = await world.open_board()
    assert "Next: City Hall 1" in board.text(board.find("deal-quick"))
    picks = ["Monument", "Opera House", "Stadium", "Subway", "Hydro-Electric Dam", "Airport"]
    for (body, n), name in zip(ORDER, picks, strict=True):
        await board.click(f"deal-card-{name}")
        value = dict(KNOWN)[name]
        assert (field_value(board, f"deal-name-{body}-{n}"), field_value(board, f"deal-value-{body}-{n}")) == (name, str(value))
        assert field_value(board, f"deal-pick-{body}-{n}") == name
        assert menu_text(board, body, n) == f"{name} ({value:,})"
        # a card is dealt once: it stays in its place, saying where it went, and taps nothing
        assert f"in {body.replace('_', ' ').title()} {n}" in board.text(board.find(f"deal-card-{name}"))
    assert "(type its value)" not in board.text() and "All six contracts are in" in board.text()
    assert Tab.clickable_in(board.find("deal-card-Monument")) is None  # a dealt card taps nothing
    assert world.room.version == 0  # six taps, nothing sent yet: the seventh deals
    await board.click("deal-submit")
    view = world.room.view()
    assert view.phase in ("corruption", "stud"), board.text()
    dealt = [(b.body, c.name, c.value) for b in view.bodies for c in b.contracts]
    assert dealt == [(body, name, dict(KNOWN)[name]) for (body, _n), name in zip(ORDER, picks, strict=True)]


async def test_a_card_without_a_known_value_takes_one_more_tap_once(make_host: Any, harness_factory: Any, catalogue_file: Path) -> None:
    write_catalogue(catalogue_file, [])  # the shipped catalogue: Opera House has no value yet
    world = await make_world(make_host, harness_factory, "value-tap")
    board = await world.open_board()
    chip = board.text(board.find("deal-card-Opera House"))
    assert "value not known yet" in chip
    await board.click("deal-card-Opera House")
    assert field_value(board, "deal-name-city_hall-1") == "Opera House" and field_value(board, "deal-value-city_hall-1") == ""
    assert "Opera House in City Hall 1: tap its value" in board.text(board.find("deal-quick"))
    await board.click("deal-amount-600000")
    assert field_value(board, "deal-value-city_hall-1") == "600000"
    assert menu_text(board, "city_hall", 1) == "Opera House (600,000)"
    assert "(type its value)" not in board.text() and "not known" not in menu_text(board, "city_hall", 1)
    # the next tap goes to the next slot; a known card fills it whole in one tap
    await board.click("deal-card-Monument")
    assert (field_value(board, "deal-name-city_hall-2"), field_value(board, "deal-value-city_hall-2")) == ("Monument", "100000")
    # the host re-targets a slot, and empties one
    await board.click("deal-slot-capitol-2")
    await board.click("deal-card-Hydro-Electric Dam")
    assert field_value(board, "deal-name-capitol-2") == "Hydro-Electric Dam"
    assert "Next: County Seat 1" in board.text(board.find("deal-quick"))
    await board.click("deal-clear-city_hall-2")
    assert field_value(board, "deal-name-city_hall-2") == "" and "100,000" in board.text(board.find("deal-card-Monument"))
    await board.click("deal-card-Monument")
    for (body, n), (name, value) in zip(ORDER[2:5], [("Stadium", "500000"), ("Subway", "800000"), ("University", "400000")], strict=True):
        await set_field(board, f"deal-name-{body}-{n}", name)
        await set_field(board, f"deal-value-{body}-{n}", value)
    await board.click("deal-submit")
    assert world.room.view().phase in ("corruption", "stud"), board.text()
    await world.harness.settle()
    remembered = {e["name"]: e["value"] for e in json.loads(catalogue_file.read_text(encoding="utf-8"))["contracts"]}
    assert remembered["Opera House"] == 600_000  # one tap next time


async def test_typed_text_survives_a_redraw_before_its_change_event(make_host: Any, harness_factory: Any, catalogue_file: Path) -> None:
    """The client sends a field's value update, then its change event; Flet applies the update at
    once and the event waits its turn in the connection's lane. A redraw in between (here a
    phone joining) used to draw the field with the text stored before, and send that back."""
    write_catalogue(catalogue_file, KNOWN)
    world = await make_world(make_host, harness_factory, "race")
    board = await world.open_board()
    await world.open_phone(A)
    await board.click("deal-slot-county_seat-1")  # its fields open (a hidden field takes no typing)
    semantics = board.find("deal-name-county_seat-1")
    assert semantics is not None
    box = next(c for c in walk_controls(semantics) if isinstance(c, ft.TextField))
    board.session.apply_patch(box._i, {"value": "University"})  # the value update, event not yet handled
    mark = board.mark()
    await world.open_phone(B)  # the board is drawn again meanwhile
    await world.harness.settle()
    assert board.frames_since(mark), "the board was not drawn again: this test would prove nothing"
    # drawn again with the text the client holds (a different value would be sent back to it)
    assert field_value(board, "deal-name-county_seat-1") == "University"
    # the change event, late: it finds the same text
    box = next(c for c in walk_controls(board.find("deal-name-county_seat-1")) if isinstance(c, ft.TextField))
    await board.session.dispatch_event(box._i, "change", "University")
    await world.harness.settle()
    await set_field(board, "deal-value-county_seat-1", "400000")
    assert field_value(board, "deal-name-county_seat-1") == "University"
    for name in ["Monument", "Opera House", "Subway", "Hydro-Electric Dam", "Airport"]:
        await board.click(f"deal-card-{name}")
    await board.click("deal-submit")
    county = next(b for b in world.room.view().bodies if b.body == "county_seat")
    assert [(c.name, c.value) for c in county.contracts] == [("University", 400_000), ("Subway", 800_000)]


@pytest.mark.parametrize(
    ("lang", "monument", "opera", "dam", "monument_in", "value_for"),
    [
        ("fr", "Monument", "Opéra", "Barrage hydroélectrique", "à la Municipalité 1", "Opéra à la Municipalité 2"),
        ("ru", "Памятник", "Оперный театр", "Плотина ГЭС", "в Мэрии 1", "Оперный театр в Мэрии 2"),
    ],
)
async def test_the_picker_names_the_catalogue_cards_in_the_tables_language(make_host: Any, harness_factory: Any, catalogue_file: Path, lang: str, monument: str, opera: str, dam: str, monument_in: str, value_for: str) -> None:
    """The deal picker's buttons, menus, slots and prompts name each card as the table's own
    cards print it (a Russian board showed "Hydro-Electric Dam"), and say where a card went with
    the body's own article (French "en Municipalité 1" became "à la Municipalité 1")."""
    write_catalogue(catalogue_file, [])
    world = await make_world(make_host, harness_factory, f"names-{lang}")
    board = await world.harness.open(f"/room/{world.room.id}?k={world.host.token}&lang={lang}", name="board")
    english = ["Hydro-Electric Dam", "Opera House", "Elementary School", "Police Station", "Streetcar Line"]
    chips = board.text(board.find("deal-quick"))
    assert dam in chips and opera in chips and not [e for e in english if e in chips], chips
    await board.click("deal-card-Monument")
    assert monument_in in board.text(board.find("deal-card-Monument"))
    assert field_value(board, "deal-name-city_hall-1") == monument and field_value(board, "deal-pick-city_hall-1") == monument
    await board.click("deal-card-Opera House")
    assert value_for in board.text(board.find("deal-next"))
    await board.click("deal-amount-600000")
    assert opera in board.text(board.find("deal-slot-city_hall-2"))
    # a closed slot's menu holds no options it cannot show; opened (its title tapped), every
    # card of the catalogue, in the board's language
    menu = next(c for c in walk_controls(board.find("deal-pick-county_seat-1", hidden=True)) if isinstance(c, ft.Dropdown))
    assert menu.options == []
    await board.click("deal-slot-county_seat-1")
    menu = next(c for c in walk_controls(board.find("deal-pick-county_seat-1")) if isinstance(c, ft.Dropdown))
    assert len(menu.options) >= 10 and not [o.text for o in menu.options if any(o.text.startswith(e) for e in english)]
    assert not [e for e in english if e in board.text(board.find("deal-form"))]
    for name in ["Stadium", "Subway", "University", "Airport"]:
        await board.click(f"deal-card-{name}")
        await board.click("deal-amount-500000")
    await board.click("deal-submit")
    await world.harness.settle()
    names = [c.name for b in world.room.view().bodies for c in b.contracts]
    assert names[:2] == [monument, opera], names
    # the value typed at this table goes to the card's own entry, not a new one
    remembered = json.loads(catalogue_file.read_text(encoding="utf-8"))["contracts"]
    assert next(e for e in remembered if e["name"] == "Opera House")["value"] == 600_000
    assert len(remembered) == len(json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))["contracts"])


async def test_a_tablet_board_opens_one_slot_at_a_time(make_host: Any, harness_factory: Any, catalogue_file: Path) -> None:
    """Beside the catalogue (a tablet's board), a slot's menu and fields show once it is tapped
    or typed in; what is typed there stays when another slot opens."""
    write_catalogue(catalogue_file, KNOWN)
    world = await make_world(make_host, harness_factory, "open-slot")
    board = await world.open_board()

    def opened() -> list[str]:
        shown = []
        for body, n in ORDER:
            semantics = board.find(f"deal-name-{body}-{n}", hidden=True)
            assert semantics is not None
            chain, control = [], semantics
            while control is not None:
                chain.append(control)
                control = control.parent
            assert len(chain) > 3, "no parents: this test would prove nothing"
            if all(getattr(c, "visible", True) is not False for c in chain):
                shown.append(f"{body}-{n}")
        return shown

    assert opened() == []
    await board.click("deal-slot-county_seat-2")
    assert opened() == ["county_seat-2"]
    await set_field(board, "deal-name-county_seat-2", "Bridge")
    await board.click("deal-slot-capitol-1")
    assert opened() == ["capitol-1"] and field_value(board, "deal-name-county_seat-2") == "Bridge"
    assert "Bridge" in board.text(board.find("deal-slot-county_seat-2"))


async def test_a_contract_won_is_not_offered_again_and_a_dealt_card_keeps_its_size(make_host: Any, harness_factory: Any, catalogue_file: Path) -> None:
    """Each contract card is dealt once: one in a player's pile is not among the next round's
    catalogue cards nor in a slot's menu (a reviewer's final standings listed a card twice). A
    card dealt keeps its chip's size (its line then says where it went): the cards after it stay
    where the host's finger is going."""
    import random

    write_catalogue(catalogue_file, KNOWN)
    world = await make_world(make_host, harness_factory, "dealt-once")
    board = await world.open_board()

    def chip_width(name: str) -> Any:
        return next(c for c in walk_controls(board.find(f"deal-card-{name}")) if isinstance(c, ft.Container)).width

    widths = {name: chip_width(name) for name, _value in KNOWN}
    assert all(widths.values()), widths
    picks = ["Monument", "Opera House", "Stadium", "Subway", "Hydro-Electric Dam", "Airport"]
    for name in picks:
        await board.click(f"deal-card-{name}")
        assert {n: chip_width(n) for n in widths} == widths  # nothing changed size
    await board.click("deal-submit")
    # the round played out by the engine's random legal moves, then the next deal opened
    rng = random.Random(5)
    room = world.room
    while room.view().phase not in ("round_over", "game_over"):
        if room.game.awaiting_reveal(room.state):
            raw: dict[str, Any] = {"type": "reveal"}
        else:
            action = room.game.random_action(room.state, rng)
            assert action is not None
            raw = action.model_dump(mode="json")
        await room.submit(raw, channel="host" if raw.get("by") is None else "seat", seat=raw.get("by"), based_on_version=room.version)
    await world.harness.settle()
    won = {c.name for pile in room.view().contracts_won for c in pile}
    assert won, "no contract was won in round 1"
    await board.click("deal-open")
    offered = {name for name, _value in KNOWN if board.has(f"deal-card-{name}")}
    assert offered and not offered & won, (offered, won)
    await board.click("deal-slot-city_hall-1")
    menu = next(c for c in walk_controls(board.find("deal-pick-city_hall-1")) if isinstance(c, ft.Dropdown))
    assert menu.options and not {o.key for o in menu.options} & won
