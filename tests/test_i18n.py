"""Every string the pages ask for exists in the one catalogue, and rulings render."""

from __future__ import annotations

import random
import re
from pathlib import Path

from companion.games import GAMES
from companion.i18n import all_messages, translator

ROOT = Path(__file__).resolve().parent.parent
LITERAL_CODE = re.compile(r"""\.t\(\s*["']([a-z_]+\.[a-z_.]+)["']""")


def test_every_literal_code_used_by_the_pages_exists() -> None:
    messages = all_messages()
    used = set()
    for path in (ROOT / "views").rglob("*.py"):
        used.update(LITERAL_CODE.findall(path.read_text(encoding="utf-8")))
    assert used, "the scan found no codes: the pattern is broken"
    missing = sorted(code for code in used if code not in messages)
    assert missing == []


def test_rulings_of_random_games_render_without_missing_fields() -> None:
    tr = translator("en")
    for game in GAMES.values():
        if not hasattr(game, "random_action"):
            continue
        for seed in range(3):
            setup = game.setup_model.model_validate(
                {"players": [{"name": n, "colour": c} for n, c in [("Ann", "red"), ("Bob", "blue"), ("Cyd", "green"), ("Dee", "yellow")]]}
            )
            state = game.initial_state(setup, seed)
            rng = random.Random(seed)
            names = [p.name for p in setup.players]
            while (action := game.random_action(state, rng)) is not None:
                outcome = game.apply(state, action)
                for ruling in outcome.rulings:
                    assert ruling.code in tr.messages, ruling.code
                    text = tr.ruling(ruling, names)
                    assert "{" not in text and ruling.code not in text
                state = outcome.state


def test_money_and_lists_follow_the_language() -> None:
    assert translator("en").money(1234500) == "1,234,500"
    assert translator("fr").money(1234500).replace("\u202f", " ").replace("\xa0", " ") == "1 234 500"
    assert translator("en").list(["Ann", "Bob", "Cyd"]) == "Ann, Bob, and Cyd"


def test_french_elides_de_and_que_before_a_name_with_a_vowel_sound() -> None:
    from companion.translation import elide

    fr = translator("fr")
    waiting = {
        "Anna": "En attente d'Anna",
        "Élodie": "En attente d'Élodie",
        "Ingrid": "En attente d'Ingrid",
        "Œdipe": "En attente d'Œdipe",
        "Ulysse": "En attente d'Ulysse",
        "Hugo": "En attente d'Hugo",  # a mute h
        "Yves": "En attente d'Yves",  # y before a consonant sounds as a vowel
        "Yann": "En attente de Yann",  # ... before a vowel, as a consonant
        "Bruno": "En attente de Bruno",
        "Анна": "En attente de Анна",  # another script: left as it is
        "7": "En attente de 7",
    }
    for name, expected in waiting.items():
        assert fr.t("ui.waiting_for", [name], seats=[0]) == expected
    # a list: the first name decides
    assert fr.t("ui.waiting_for", ["Anna", "Bruno"], seats=[0, 1]) == "En attente d'Anna et Bruno"
    assert fr.t("ui.waiting_for", ["Anna", "Bruno"], seats=[1, 0]) == "En attente de Bruno et Anna"
    # "que" (a template with it before a name) and the same words in other places
    assert fr.t("reglement.ui.waiting_wake", ["Anna"], seat=0).startswith("On attend qu'Anna ")
    assert fr.t("reglement.ui.waiting_wake", ["Bruno"], seat=0).startswith("On attend que Bruno ")
    assert elide("fr", "Avant lorsque ", "Anna") == "Avant lorsqu'"
    assert elide("fr", "De ", "Anna") == "D'"
    assert elide("fr", "le monde ", "Anna") == "le monde "  # "de" inside a word is not the word
    assert elide("fr", "(de ", "Anna") == "(d'"
    # other languages never elide, and the same name renders each time as its own table's
    assert translator("en").t("ui.waiting_for", ["Anna"], seats=[0]) == "Waiting for Anna"
    assert "de" not in translator("ru").t("ui.waiting_for", ["Anna"], seats=[0])
    assert fr.t("ui.waiting_for", ["Bruno"], seats=[0]) == "En attente de Bruno"
    assert fr.t("ui.waiting_for", ["Anna"], seats=[0]) == "En attente d'Anna"
