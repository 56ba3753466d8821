"""Rule cards: every game's quick reference, in every language, following the room's house rules,
one tap away on the phone and the board, and public (built from the setup alone)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games import GAMES
from companion.games.poker_hands import RARITY_RANKING, RECOMMENDED_RANKING
from companion.i18n import LANGUAGES, _catalogue, all_messages, translator
from companion.rule_cards import RuleCard, card_codes, card_text, options, rule_card
from tests.harness.flet_inprocess import FakeBrowser
from tests.test_views_inprocess import screen_of, world_at_cards
from views.common import PEEK_KEY
from views.i18n import translator as page_translator

GAME_IDS = sorted(GAMES)


#: setup choices outside the setup form's house-rule list that still change lines of a card
#: (rule: the house rule whose line in the last section they change, if any)
OTHER_CHOICES: dict[str, list[tuple[str | None, dict[str, Any]]]] = {
    "reglement": [(None, {"seating": "preset"})],
    "chicago_poker": [("hand_ranking", {"hand_ranking": "custom", "custom_ranking": tuple(reversed(RECOMMENDED_RANKING))})],
}


def option_setups(game_id: str) -> list[tuple[str | None, dict[str, Any]]]:
    """The default setup (rule None), then one setup per house-rule value other than its default."""
    defaults = options(game_id)
    setups: list[tuple[str | None, dict[str, Any]]] = [(None, {})]
    for rule, values in GAMES[game_id].house_rules.items():
        setups.extend((rule, {rule: value}) for value in values if value != defaults[rule])
    return setups + OTHER_CHOICES.get(game_id, [])


def section(card: RuleCard, key: str) -> Any:
    return next(s for s in card.sections if s.key == key)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_code_on_every_card_has_english_and_translations(game_id: str) -> None:
    messages = all_messages()
    codes = {code for _rule, setup in option_setups(game_id) for code in card_codes(rule_card(game_id, setup))}
    missing = sorted(code for code in codes if code not in messages)
    assert not missing, f"codes with no English template: {missing}"
    for lang in ("fr", "ru"):
        catalogue = _catalogue(lang)
        untranslated = sorted(code for code in codes if (code, messages[code]) not in catalogue)
        assert not untranslated, f"{lang}: no translation for {untranslated} (run tools/i18n_sync.py --fill)"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_card_renders_in_every_language_with_every_option(game_id: str) -> None:
    messages = all_messages()
    for lang in LANGUAGES:
        tr = translator(lang)
        default = card_text(rule_card(game_id), tr)
        for rule, setup in option_setups(game_id):
            card = rule_card(game_id, setup)
            rendered = card_text(card, tr)
            texts = [rendered.title] + [t for s in rendered.sections for t in (s.heading, *s.lines)]
            for text in texts:
                assert text.strip(), f"{lang} {game_id} {setup}: an empty line"
                assert "{" not in text and "}" not in text, f"{lang} {game_id} {setup}: unfilled field in {text!r}"
                assert text not in messages, f"{lang} {game_id} {setup}: a bare code {text!r}"
            house = section(card, "house_rules")
            assert [s.key for s in card.sections][-1] == "house_rules"
            assert len(house.lines) == len(GAMES[game_id].house_rules)
            changed = [line for line in house.lines if line.changed]
            rendered_house = next(s for s in rendered.sections if s.key == "house_rules").lines
            default_house = next(s for s in default.sections if s.key == "house_rules").lines
            if rule is None:
                assert not changed
            else:
                # Only the toggled rule's line changes, and it stands out.
                assert len(changed) == 1 and changed[0].params["rule"].code == f"{game_id}.rule.{rule}"
                differing = [i for i, (a, b) in enumerate(zip(rendered_house, default_house, strict=True)) if a != b]
                assert differing == [list(GAMES[game_id].house_rules).index(rule)], (lang, rule)


def english(card: RuleCard) -> str:
    rendered = card_text(card, translator("en"))
    return "\n".join(t for s in rendered.sections for t in (s.heading, *s.lines))


def test_lines_that_depend_on_a_house_rule_show_the_option_in_force() -> None:
    assert "×2, ×3, ×4" in english(rule_card("vabanque")) and "×2, ×4, ×8" not in english(rule_card("vabanque"))
    assert "×2, ×4, ×8" in english(rule_card("vabanque", {"raise_rule": "doubling"}))

    closed = rule_card("corruption", {"variant": "closed"})
    assert "card.corruption.cards.hitman" not in card_codes(closed)
    assert "card.corruption.cards.hitman" in card_codes(rule_card("corruption"))
    assert "Little Black Book" not in english(section_card(rule_card("corruption"), "play"))
    assert "Little Black Book" in english(section_card(rule_card("corruption", {"little_black_book": True}), "play"))

    def hand_order(setup: dict[str, Any]) -> list[str]:
        lines = section(rule_card("chicago_poker", setup), "hands").lines
        return [ln.params["hand"] for ln in lines if "hand" in ln.params]

    assert hand_order({}) == list(RECOMMENDED_RANKING)
    assert hand_order({"hand_ranking": "rarity"}) == list(RARITY_RANKING)
    custom = tuple(reversed(RECOMMENDED_RANKING))
    assert hand_order({"hand_ranking": "custom", "custom_ranking": custom}) == list(custom)
    assert "Liquidation" in english(rule_card("chicago_poker"))
    assert "Liquidation" not in english(section_card(rule_card("chicago_poker", {"special_cards": False}), "specials"))
    assert "2 businesses of one type" in english(rule_card("chicago_poker", {"short_game": True}))

    assert "seat facing it" in english(rule_card("reglement", {"blast": "neighbours_and_facing"}))
    assert "seat facing it" not in english(section_card(rule_card("reglement"), "menu"))
    assert "saved" in english(rule_card("reglement", {"seating": "preset"}))
    assert "saved" not in english(rule_card("reglement"))


def section_card(card: RuleCard, key: str) -> RuleCard:
    """The card cut down to one section (to look for words that the house-rule list also has)."""
    return RuleCard(game=card.game, title=card.title, sections=(section(card, key),))


def test_a_room_setup_model_gives_the_same_card_as_its_fields() -> None:
    game = GAMES["corruption"]
    players = [{"name": n, "colour": c} for n, c in (("Ann", "red"), ("Bob", "blue"), ("Cy", "green"))]
    fields = {"variant": "down_the_river", "reporter_optional": False, "leader_tie": "clockwise"}
    model = game.setup_model.model_validate({"players": players, **fields})
    assert rule_card("corruption", model) == rule_card("corruption", fields)
    assert rule_card("corruption", model) != rule_card("corruption")


# --- on the phone and the board ----------------------------------------------------------------


def card_lines(tab: Any) -> list[str]:
    card = tab.find("rule-card")
    assert card is not None, tab.identifiers()
    return tab.texts(card)


def expected_lines(room: Any, lang: str) -> list[str]:
    rendered = card_text(rule_card(room.game_id, room.setup), translator(lang))
    return [rendered.title] + [t for s in rendered.sections for t in (s.heading, *s.lines)]


async def test_rules_on_a_russian_phone_then_back_to_a_current_game(make_host: Any, harness_factory: Any) -> None:
    world, board = await world_at_cards(make_host, harness_factory, "rules-ru")
    current = world.current()
    reader = (current + 1) % 3  # plays next: their turn starts while they read the rules
    token = world.room.seats[reader].token
    phone = await world.harness.open(
        f"/join/{world.room.id}/{token}?lang=ru", browser=FakeBrowser("phone-ru"), name="phone-ru", width=360, height=740
    )
    ru = translator("ru")
    assert phone.has("show-private") and not phone.has("your-turn")
    await phone.click("show-private")
    assert phone.has("hide-private")  # the peek is open

    await phone.click("rules")
    lines = card_lines(phone)
    assert lines == expected_lines(world.room, "ru")
    assert ru.t("card.vabanque.payout") in lines and ru.t("card.vabanque.payout") != translator("en").t("card.vabanque.payout")
    # Nothing of the game is built under the card: no private section, no hand.
    for ident in ("hide-private", "show-private", "seat-body"):
        assert not phone.has(ident), ident
    assert not screen_of(phone).ui.get(PEEK_KEY)

    # The game goes on under the card: the page keeps up, and says when the turn comes.
    mark = phone.mark()
    await world.submit_for(current, {"type": "place_card", "by": current, "table": 3, "card": "cheat"})
    assert phone.frames_since(mark), "the phone was not redrawn while the card was up"
    assert phone.has("rule-card") and phone.has("rules-notice")
    assert page_translator("ru").t("ui.your_turn") in phone.text(phone.find("rules-notice"))

    await phone.click("rules-back")
    assert not phone.has("rule-card")
    assert phone.has("your-turn") and phone.has("show-private") and not phone.has("hide-private")
    assert screen_of(phone).shown_version == world.room.version
    assert page_translator("ru").t("ui.your_turn") in phone.text()


async def test_the_card_is_the_same_public_text_on_a_phone_and_on_the_board(make_host: Any, harness_factory: Any) -> None:
    world, board = await world_at_cards(make_host, harness_factory, "rules-public")
    seat = world.current()
    phone = await world.open_phone(seat)
    await phone.click("show-private")
    await phone.click("card-cheat")
    await phone.click("seat-table-3")  # a secret: this seat's Cheat at table 3
    await phone.click("show-private")
    assert "Cheat at table 3" in phone.text()

    await phone.click("rules")
    on_phone = card_lines(phone)
    assert "Cheat at table 3" not in phone.text()
    await board.click("rules")
    on_board = card_lines(board)
    # The board knows no secret: the same card there proves the phone's card carries none.
    assert on_phone == on_board == expected_lines(world.room, "en")

    await board.click("rules-back")
    assert not board.has("rule-card") and board.has(f"seat-{seat}")
    await phone.click("rules-back")
    assert phone.has("show-private") and "Cheat at table 3" not in phone.text()
