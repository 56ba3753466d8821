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
