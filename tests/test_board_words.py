"""The shared board's words: it belongs to no one, so it never says "your" (it names the player),
and the Russian catalogue calls it one thing everywhere ("общий экран", the shared screen), the
person at it "ведущий" (the host), never "доска" (a plank), "табло" or "хозяин" (a landlord)."""

from __future__ import annotations

import re
from typing import Any

from babel.messages.pofile import read_po

from companion.i18n import LOCALES_DIR
from tests.harness.flet_inprocess import FakeBrowser
from tests.test_views_inprocess import CHIP_TABLES, make_world
from views.app import LANG_KEY
from views.i18n import all_messages, translator

#: "your"/"you" in each language, as a board must not say it
SECOND_PERSON = {
    "en": re.compile(r"\byours?\b", re.IGNORECASE),
    "fr": re.compile(r"\b(votre|vos|vous)\b", re.IGNORECASE),
    "ru": re.compile(r"\b(ваш|ваша|ваше|ваши|вашу|вы)\b", re.IGNORECASE),
}


def russian() -> dict[str, tuple[str, str]]:
    with (LOCALES_DIR / "ru" / "LC_MESSAGES" / "messages.po").open("rb") as fh:
        return {m.context: (m.id, m.string) for m in read_po(fh, locale="ru") if m.id and m.context}


def test_russian_calls_the_board_the_shared_screen_and_its_user_the_host() -> None:
    entries = russian()
    assert entries["ui.host_board"][1] == "Общий экран"
    for code, (english, text) in entries.items():
        assert "доск" not in text.lower() and "табло" not in text.lower(), (code, text)
        if re.search(r"\bhost\b", english, re.IGNORECASE) and not code.startswith(("lan.", "history.err")):
            assert "хозя" not in text.lower(), (code, text)  # the host is "ведущий"
        if re.search(r"\bboards?\b", english, re.IGNORECASE) and "общ" not in text.lower() and not code.startswith("reglement."):
            # the host board is the shared screen wherever the English names it
            raise AssertionError(f"{code}: {text!r} does not call the board the shared screen")


async def test_the_board_names_the_player_whose_pawn_moves(make_host: Any, harness_factory: Any) -> None:
    world = await make_world(make_host, harness_factory, "board-words")
    board = await world.open_board()
    for table in CHIP_TABLES:
        await board.click(f"table-{table}")
    cards = {0: ["raise", "bluff", "cheat"], 1: ["bluff", "cheat", "raise"], 2: ["cheat", "raise", "bluff"]}
    while world.room.view().phase == "cards":
        seat = world.current()
        await world.submit_for(seat, {"type": "place_card", "by": seat, "table": 1 + len(cards[seat]), "card": cards[seat].pop()})
    assert world.room.view().phase == "moves"
    seat = world.current()
    names = world.room.names
    boards = {"en": board}
    for lang in ("fr", "ru"):
        boards[lang] = await world.harness.open(f"/room/{world.room.id}?k={world.host.token}", browser=FakeBrowser(f"board-{lang}", storage={LANG_KEY: lang}), name=f"board-{lang}")
    for lang, tab in boards.items():
        tr = translator(lang)
        text = tab.text()
        assert tr.t("vabanque.board_prompt.moves", names, seat=seat) in text, (lang, text)
        assert names[seat] in tr.t("vabanque.board_prompt.moves", names, seat=seat)
        assert tr.t("vabanque.prompt.moves") not in text
        assert not SECOND_PERSON[lang].search(tr.t("vabanque.board_prompt.moves", names, seat=seat))
    world.harness.check()


def test_board_prompts_of_the_shared_screen_name_the_player() -> None:
    """The prompts only the board shows (entering a player's public choice) in every language:
    the player's name is in them and "your" is not."""
    messages = all_messages()
    codes = ["vabanque.board_prompt.moves", "corruption.ui.board_pick_place", "corruption.ui.board_swiss_prompt", "corruption.ui.board_hit_prompt", "corruption.ui.board_report_prompt"]
    params = {"card": "X", "face_amount": 4000, "amount": 2000, "body": "Y", "contract": "Z"}
    for lang in ("en", "fr", "ru"):
        tr = translator(lang)
        for code in codes:
            assert code in messages
            text = tr.t(code, ["Anna", "Bruno"], seat=1, **params)
            assert "Bruno" in text and not SECOND_PERSON[lang].search(text), (lang, code, text)
    assert "d'Anna" in translator("fr").t("corruption.ui.board_hit_prompt", ["Anna"], seat=0, **params)


def test_reglement_reasons_the_board_shows_say_no_you() -> None:
    """Why a card or a button is greyed out, said on the board under the player's own buttons
    (and on their phone): impersonal, so it reads right on both."""
    codes = ["reglement.err.card_limit", "reglement.err.action_after_move", "reglement.err.already_discarded", "reglement.err.discard_after_play", "reglement.err.second_action", "reglement.err.nothing_played"]
    for lang in ("en", "fr", "ru"):
        tr = translator(lang)
        for code in codes:
            text = tr.t(code)
            assert text != code and not SECOND_PERSON[lang].search(text), (lang, code, text)
