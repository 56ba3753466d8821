"""Every string the pages ask for exists in the one catalogue, and rulings render.

Two sources make the app's codes (docs/decisions/labels-with-the-views.md): companion's messages
(rulings, errors, the names they use, the pages companion serves) and the views' labels
(views/labels/), composed by views/i18n.py. The tests below keep the two apart and whole: no code
in both, no label that companion needs, and the catalogues holding exactly the app's codes.
"""

from __future__ import annotations

import ast
import importlib
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import i18n as companion_i18n
from companion.games import GAMES
from companion.i18n import LOCALES_DIR, _catalogue
from views import i18n as views_i18n
from views.i18n import all_messages, translator

ROOT = Path(__file__).resolve().parent.parent
LITERAL_CODE = re.compile(r"""\.t\(\s*["']([a-z_]+\.[a-z_.]+)["']""")
#: `tr.t(f"vabanque.prompt.{phase}")`: the code's fixed beginning
CODE_PREFIX = re.compile(r"""\.t\(\s*f["']([a-z_]+\.[a-z_.]*)\{""")
SPEC = re.compile(r"\{[^{}:]*:(label|cards)=([a-z_.]+)\}")


def source_strings(package: str) -> tuple[set[str], list[re.Pattern[str]]]:
    """The string constants of every module of a package, and the codes its f-strings that start
    with a fixed word may build, as patterns (f"reglement.played_{card}": each field one word)."""
    constants: set[str] = set()
    shapes: list[re.Pattern[str]] = []
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                constants.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                parts = [re.escape(str(v.value)) if isinstance(v, ast.Constant) else r"\w+" for v in node.values]
                shapes.append(re.compile("".join(parts)))
    return constants, shapes


def test_every_literal_code_used_by_the_pages_exists_in_every_language() -> None:
    messages = all_messages()
    used, prefixes = set(), set()
    for path in (ROOT / "views").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used.update(LITERAL_CODE.findall(text))
        prefixes.update(CODE_PREFIX.findall(text))
    assert used and prefixes, "the scan found no codes: the pattern is broken"
    missing = sorted(code for code in used if code not in messages)
    assert missing == []
    assert sorted(p for p in prefixes if not any(code.startswith(p) for code in messages)) == []
    for lang in ("fr", "ru"):
        untranslated = sorted(code for code in used if not _catalogue(lang).get((code, messages[code])))
        assert untranslated == [], lang


def test_the_app_s_codes_are_companion_s_and_the_views_labels_each_defined_once() -> None:
    """Every source of codes, counted: a code defined twice (two label modules, a label and a
    companion message, two companion modules) would let one template silently win."""
    sources = {"companion.i18n": companion_i18n.MESSAGES}
    sources |= {f"companion.games.{game_id}": game.messages for game_id, game in GAMES.items()}
    sources |= {name: importlib.import_module(name).MESSAGES for name in companion_i18n.MESSAGE_MODULES}
    sources |= {f"views.labels.{game_id}": labels for game_id, labels in views_i18n.GAME_LABELS.items()}
    sources["views.labels.pages"] = importlib.import_module("views.labels.pages").LABELS
    assert len(sources) == 1 + 2 * len(GAMES) + len(companion_i18n.MESSAGE_MODULES) + 1
    assert set(views_i18n.GAME_LABELS) == set(GAMES), "each game's labels have a module in views/labels/"
    seen: dict[str, str] = {}
    twice = []
    for name, source in sources.items():
        for code in source:
            if code in seen:
                twice.append(f"{code}: {seen[code]} and {name}")
            seen[code] = name
    assert twice == []
    everything = all_messages()
    assert set(everything) == set(seen) == set(companion_i18n.all_messages()) | set(views_i18n.labels())
    assert not set(companion_i18n.all_messages()) & set(views_i18n.labels())


def test_the_catalogues_hold_exactly_the_app_s_codes() -> None:
    """Every translation survives a code's move between companion and the views: each language's
    catalogue holds exactly the app's codes with their English (msgctxt = code, msgid = English),
    so a code that left the composed set would show here as a catalogue entry without its code.
    tools/i18n_sync.py rewrites the catalogues from the same set."""
    messages = all_messages()
    for lang in ("fr", "ru"):
        with (LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as fh:
            entries = {m.context: m.id for m in read_po(fh, locale=lang) if m.id and m.context}
        assert entries == messages, f"{lang}: run `uv run python tools/i18n_sync.py`"


def test_companion_words_its_own_codes_without_the_views_labels() -> None:
    """A label is the views' alone: companion's code never names one (as a literal, as the
    fixed beginning of a code it builds, or in a template's {x:label=...} or {x:cards=...}), and
    each such spec in companion's templates names companion's own codes."""
    ours = companion_i18n.all_messages()
    labels = views_i18n.labels()
    constants, shapes = source_strings("companion")
    assert "vabanque.err.wrong_phase" in constants and any(s.fullmatch("reglement.played_knife") for s in shapes)
    named = sorted(code for code in labels if code in constants)
    assert named == [], f"companion uses labels of the views: {named}"
    built = sorted(code for code in labels if any(s.fullmatch(code) for s in shapes))
    assert built == [], f"companion builds codes that are labels of the views: {built}"
    wrong = []
    for code, english in ours.items():
        for kind, target in SPEC.findall(english):
            if kind == "cards" and target not in ours:
                wrong.append(f"{code}: cards={target}")
            if kind == "label" and (not any(c.startswith(target + ".") for c in ours) or any(c.startswith(target + ".") for c in labels)):
                wrong.append(f"{code}: label={target}")
    assert wrong == []


def test_views_use_the_pages_translator() -> None:
    """The views render with views.i18n's translator (companion's messages and their labels),
    never companion.i18n's alone, which would show a label as its bare code."""
    found = []
    for path in (ROOT / "views").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "companion.i18n":
                found += [f"{path.relative_to(ROOT)}: {a.name}" for a in node.names if a.name in ("translator", "Translator", "all_messages")]
    assert found == []


def test_the_labels_and_the_pages_translator_load_no_flet() -> None:
    """tools/i18n_sync.py and the tests read views.i18n without the interface."""
    program = "import json, sys, views.i18n; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert "views.labels.reglement" in loaded
    assert not [m for m in loaded if m.split(".")[0] == "flet" or m.startswith("flet_")]


def test_a_code_defined_twice_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views_i18n, "LABEL_SOURCES", (*views_i18n.LABEL_SOURCES, {"room.err.stale": "again"}))
    with pytest.raises(ValueError, match="room.err.stale"):
        views_i18n.all_messages()


def test_rulings_of_random_games_render_without_missing_fields() -> None:
    """With companion's messages alone: a ruling never needs a label of the views."""
    tr = companion_i18n.translator("en")
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
