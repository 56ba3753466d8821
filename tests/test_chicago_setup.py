"""Chicago Poker's own hand order, edited in the host's setup form (views/games/chicago_poker/setup.py
setup hooks): the editor appears for the "custom" house rule, Up / Down move a hand, the room is
created with exactly that order, and the engine, the rule card and the validator follow it."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import flet as ft
import pytest

from companion.games.chicago_poker import Setup
from companion.games.poker_hands import CATEGORIES, RECOMMENDED_RANKING, compare, evaluate
from companion.i18n import LANGUAGES
from companion.room import Rejected
from companion.rule_cards import card_text, rule_card
from tests.harness.flet_inprocess import walk_controls
from tests.test_home import choose, control_in, type_into
from views.games.chicago_poker import setup as ui
from views.i18n import Translator

A, B = 0, 1
NAMES = ("Ada", "Bea")
PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Bea", "colour": "blue"}]
#: the recommended order after "straight" moves up twice and "rainbow straight" once
EDITED = (
    "chicago_poker",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "straight",
    "rainbow_straight",
    "flush",
    "three_of_a_kind",
    "two_pairs",
    "pair",
    "high_card",
)
STRAIGHT = ["10c1", "11c1", "12c2", "13c2", "14c3"]
FLUSH = ["2c4", "5c4", "9c4", "11c4", "14c4"]


def pairs(texts: list[str]) -> list[tuple[int, str]]:
    return [(int(t.split("c")[0]), "c" + t.split("c")[1]) for t in texts]


def editor_order(tab: Any) -> list[str]:
    editor = tab.find("ranking-editor")
    assert editor is not None, tab.identifiers()
    return [
        str(c.identifier).removeprefix("ranking-row-")
        for c in walk_controls(editor)
        if isinstance(c, ft.Semantics) and str(c.identifier or "").startswith("ranking-row-")
    ]


def arrow_button(tab: Any, direction: str, category: str) -> ft.IconButton:
    return control_in(tab, f"ranking-{direction}-{category}", ft.IconButton)


async def open_chicago_form(make_host: Any, harness_factory: Any) -> tuple[Any, Any, Any]:
    host = make_host("chicago-setup")
    harness = harness_factory(host)
    home = await harness.open(f"/?k={host.token}", name="home")
    await choose(home, harness, "setup-game", "chicago_poker")
    return host, harness, home


async def test_choosing_custom_shows_the_editor_in_the_recommended_order(make_host: Any, harness_factory: Any) -> None:
    _host, harness, home = await open_chicago_form(make_host, harness_factory)
    assert not home.has("ranking-editor")
    options = control_in(home, "rule-hand_ranking", ft.Dropdown).options
    assert [o.key for o in options] == ["recommended", "rarity", "custom"]
    await choose(home, harness, "rule-hand_ranking", "custom")
    assert editor_order(home) == list(RECOMMENDED_RANKING)
    text = home.text(home.find("ranking-editor"))
    assert "Our hand order, best first" in text
    for position, category in enumerate(RECOMMENDED_RANKING):
        row = home.find(f"ranking-row-{category}")
        name = Translator("en").t(f"chicago_poker.hand.{category}")
        assert f"{position + 1}." in home.texts(row) and name in home.texts(row)
        example = home.find(f"ranking-example-{category}")
        assert example.label.startswith("For example: ") and example.exclude_semantics
        # the example's small card faces: each card's value, then its colour number
        faces = [text for value, colour in ui.HAND_EXAMPLES[category] for text in (str(value), colour.removeprefix("c"))]
        assert home.texts(example) == faces
        for direction in ("up", "down"):
            button = arrow_button(home, direction, category)
            assert button.tooltip == f"Move {name} {direction}"
            assert button.size_constraints.min_width >= 48 and button.size_constraints.min_height >= 48
    # the first hand cannot go up, the last cannot go down; reset has nothing to undo yet
    assert arrow_button(home, "up", RECOMMENDED_RANKING[0]).disabled
    assert arrow_button(home, "down", RECOMMENDED_RANKING[-1]).disabled
    assert not arrow_button(home, "down", RECOMMENDED_RANKING[0]).disabled
    assert home.clickable_in(home.find("ranking-reset")) is None
    # another order: no editor
    await choose(home, harness, "rule-hand_ranking", "rarity")
    assert not home.has("ranking-editor")


async def test_moves_and_reset_change_the_order(make_host: Any, harness_factory: Any) -> None:
    _host, harness, home = await open_chicago_form(make_host, harness_factory)
    await choose(home, harness, "rule-hand_ranking", "custom")
    await home.click("ranking-up-straight")
    order = list(RECOMMENDED_RANKING)
    i = order.index("straight")
    order[i - 1], order[i] = order[i], order[i - 1]
    assert editor_order(home) == order
    await home.click("ranking-down-chicago_poker")
    order[0], order[1] = order[1], order[0]
    assert editor_order(home) == order
    assert "1." in home.texts(home.find("ranking-row-straight_flush"))
    assert arrow_button(home, "up", "straight_flush").disabled and not arrow_button(home, "up", "chicago_poker").disabled
    await home.click("ranking-reset")
    assert editor_order(home) == list(RECOMMENDED_RANKING)
    assert home.clickable_in(home.find("ranking-reset")) is None


async def play_straight_against_flush(room: Any) -> Any:
    """Two players at a brewery (every card face up), all entered on the host board: Ada builds
    a straight, Bea a flush and fills the business first, so Bea's shootout is resolved at the
    start of her next turn. Returns the resolved shootout."""

    async def do(action: dict[str, Any]) -> None:
        await room.submit(action, channel="host", seat=None, based_on_version=room.version)

    async def play(seat: int, cards: list[str]) -> None:
        for value, colour in pairs(cards):
            await do({"type": "play_face_up", "by": seat, "business": 1, "card": {"value": value, "colour": colour}})

    for kind in ("brewery", "jazz_club"):
        await do({"type": "reveal_tile", "by": A, "kind": kind})
    await play(A, STRAIGHT[:1])  # first turn: 1 action
    await do({"type": "end_turn", "by": A})
    await play(B, FLUSH[:2])  # second player's first turn: 2 actions
    await do({"type": "end_turn", "by": B})
    await play(A, STRAIGHT[1:4])
    await do({"type": "end_turn", "by": A})
    await play(B, FLUSH[2:])  # Bea's 5th card there: her shootout marker
    await do({"type": "end_turn", "by": B})
    await play(A, STRAIGHT[4:])
    await do({"type": "draw", "by": A})
    await do({"type": "draw", "by": A})
    await do({"type": "end_turn", "by": A})
    assert room.state.phase == "reveal"  # Bea's shootout is due: it waits for the host's reveal
    await do({"type": "reveal", "by": None})
    (shootout,) = room.state.shootouts
    return shootout


async def test_the_room_gets_exactly_the_edited_order_and_plays_by_it(make_host: Any, harness_factory: Any) -> None:
    host, harness, home = await open_chicago_form(make_host, harness_factory)
    for i in (3, 2):  # two players: remove the last two rows
        removes = [c for c in home.controls() if isinstance(c, ft.IconButton) and c.tooltip == "Remove"]
        await home.session.dispatch_event(removes[i]._i, "click", None)
        await harness.settle()
    for i, name in enumerate(NAMES):
        await type_into(home, harness, f"player-name-{i}", name)
    (first,) = [c for c in home.controls() if isinstance(c, ft.Dropdown) and c.label == "First player"]
    home.session.apply_patch(first._i, {"value": str(A)})  # as the browser reports a choice
    await home.session.dispatch_event(first._i, "select", str(A))
    await choose(home, harness, "rule-hand_ranking", "custom")
    await home.click("ranking-up-straight")
    await home.click("ranking-up-straight")
    await home.click("ranking-up-rainbow_straight")
    assert editor_order(home) == list(EDITED)
    await home.click("create-room")
    (room,) = host.rooms.values()
    assert room.names == list(NAMES)
    assert room.setup.hand_ranking == "custom" and room.setup.custom_ranking == EDITED
    assert room.setup.ranking == EDITED
    (record,) = await host.store.call("rooms")  # as stored, what a restart restores
    assert tuple(record.setup["custom_ranking"]) == EDITED and record.setup["hand_ranking"] == "custom"

    # the rule card lists the hands in that order, and says the table plays its own order
    card = rule_card("chicago_poker", room.setup)
    hands = next(s for s in card.sections if s.key == "hands")
    assert [ln.params["hand"] for ln in hands.lines if ln.code == "card.chicago_poker.hands.rank"] == list(EDITED)
    rendered = card_text(card, Translator("en"))
    house = next(s for s in rendered.sections if s.key == "house_rules").lines
    assert any("our own order" in line for line in house)

    # the flip: a straight beats a flush under this order, loses under the recommended one
    straight, flush = pairs(STRAIGHT), pairs(FLUSH)
    assert evaluate(straight, EDITED).category == "straight"
    assert compare(straight, flush, EDITED) == 1 and compare(straight, flush, RECOMMENDED_RANKING) == -1
    custom = await play_straight_against_flush(room)
    assert (custom.winner, custom.decided_by) == (A, "category")
    assert [(e.seat, e.category) for e in custom.entries] == [(A, "straight"), (B, "flush")]
    same_setup = room.setup.model_dump(mode="json") | {"hand_ranking": "recommended"}
    recommended_room = await host.create_room("chicago_poker", same_setup, seed=room.seed)
    recommended = await play_straight_against_flush(recommended_room)
    assert (recommended.winner, recommended.decided_by) == (B, "category")
    assert [(e.seat, e.category) for e in recommended.entries] == [(B, "flush"), (A, "straight")]


@pytest.mark.parametrize(
    ("ranking", "code", "hand"),
    [
        (RECOMMENDED_RANKING[:-1], "chicago_poker.err.ranking_missing", "high_card"),
        (("pair", *RECOMMENDED_RANKING), "chicago_poker.err.ranking_twice", "pair"),
        (("pair",) * 11, "chicago_poker.err.ranking_missing", "chicago_poker"),
    ],
)
async def test_an_order_that_is_not_every_hand_once_is_refused_with_its_reason(
    make_host: Any, ranking: tuple[str, ...], code: str, hand: str
) -> None:
    host = make_host("refused")
    setup = {"players": PLAYERS, "hand_ranking": "custom", "custom_ranking": list(ranking)}
    with pytest.raises(Rejected) as caught:
        await host.create_room("chicago_poker", setup)
    assert not host.rooms
    rejection = caught.value
    assert rejection.code == "room.err.invalid_setup"
    problem = rejection.params["problem"]
    assert problem["code"] == code and problem["params"]["hand"] == hand
    for lang in LANGUAGES:
        tr = Translator(lang)
        message = tr.error(rejection.code, rejection.params, [])
        assert tr.t(f"chicago_poker.hand.{hand}") in message and "11" in message, message
        assert "{" not in message and code not in message, message
    with pytest.raises(ValueError):
        Setup.model_validate(setup)


def test_each_example_is_its_own_hand_under_the_recommended_order() -> None:
    assert set(ui.HAND_EXAMPLES) == CATEGORIES
    for category, cards in ui.HAND_EXAMPLES.items():
        assert evaluate(cards).category == category, category


@pytest.mark.parametrize("lang", ["fr", "ru"])
async def test_the_editor_speaks_the_table_language(lang: str) -> None:
    """The hooks on their own, with a translator: names, example labels and button labels are
    translated (none is left as its English text or as a code)."""
    tr, en = Translator(lang), Translator("en")
    ctx = SimpleNamespace(tr=tr, state={}, rules={"hand_ranking": "custom"}, rerender=None)
    await ui.setup_load(ctx)
    (editor,) = ui.setup_fields(ctx)
    controls = list(walk_controls(editor))
    texts = [c.value for c in controls if isinstance(c, ft.Text)]
    tooltips = [c.tooltip for c in controls if isinstance(c, ft.IconButton)]
    examples = [c.label for c in controls if isinstance(c, ft.Semantics) and str(c.identifier or "").startswith("ranking-example-")]
    assert tr.t("chicago_poker.setup.ranking_title") in texts and tr.t("chicago_poker.setup.ranking_reset") in texts
    assert len(tooltips) == 2 * len(RECOMMENDED_RANKING) and len(examples) == len(RECOMMENDED_RANKING)
    for text in [*texts, *tooltips, *examples]:
        assert "chicago_poker." not in text and "{" not in text, text
    for code in ("chicago_poker.setup.ranking_title", "chicago_poker.setup.ranking_help", "chicago_poker.setup.ranking_reset"):
        assert tr.t(code) != en.t(code), code
    assert tooltips[0] == tr.t("chicago_poker.setup.move_up", hand="chicago_poker") != en.t("chicago_poker.setup.move_up", hand="chicago_poker")
    assert ui.setup_values(ctx) == {"custom_ranking": list(RECOMMENDED_RANKING)}
    assert ui.setup_values(SimpleNamespace(state=ctx.state, rules={"hand_ranking": "rarity"})) == {}
