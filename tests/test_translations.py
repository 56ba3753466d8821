"""The French and Russian catalogues cover every code, keep every template field, and render.

Catalogues are regenerated with `uv run python tools/i18n_sync.py` (see that file).
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from typing import Any

import pytest
from babel.messages.pofile import read_po

from companion.i18n import CARD_SEPARATOR, CARDS_SPEC, LOCALES_DIR, PLURAL_SPEC, plural_forms, plural_problems
from views.i18n import all_messages, translator

TARGETS = ("fr", "ru")
NAMES = ["Alice", "Bruno", "Chloe", "Dmitri"]


def po_entries(lang: str) -> dict[str, Any]:
    path = LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po"
    assert path.exists(), f"{path} is missing: run `uv run python tools/i18n_sync.py`"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    return {m.context: m for m in catalog if m.id and m.context}


def fields(template: str) -> set[tuple[str, str, str | None]]:
    """The (field name, format spec, conversion) triples of a str.format template. A plural
    field's spec holds its language's words, so it counts as the bare `plural`."""
    out = set()
    for _literal, name, spec, conversion in string.Formatter().parse(template):
        if name is not None:
            spec = spec or ""
            out.add((name, "plural" if spec.startswith(PLURAL_SPEC) else spec, conversion))
    return out


def sample_params(template: str, messages: Mapping[str, str]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name, spec, _conversion in fields(template):
        if spec == "seat":
            params[name] = 1
        elif spec == "seats":
            params[name] = [0, 2, 3]
        elif spec in ("money", "num") or spec == "plural":
            params[name] = 1234500
        elif spec == "message":
            params[name] = {"code": "ui.retry", "params": {}}
        elif spec.startswith(CARDS_SPEC):
            params[name] = f"9{CARD_SEPARATOR}c3, 2{CARD_SEPARATOR}c2"  # cards as an engine writes them
        elif spec.startswith("label="):
            prefix = spec[len("label="):] + "."
            values = sorted(code[len(prefix):] for code in messages if code.startswith(prefix) and "." not in code[len(prefix):])
            assert values, f"no label codes {prefix}* for {{{name}:{spec}}}"
            params[name] = values[0]
        else:
            params[name] = 7
    return params


@pytest.mark.parametrize("lang", TARGETS)
def test_every_code_has_a_translation(lang: str) -> None:
    entries = po_entries(lang)
    missing = []
    for code, english in sorted(all_messages().items()):
        m = entries.get(code)
        if m is None:
            missing.append(f"{code} (not in the catalogue)")
        elif m.id != english:
            missing.append(f"{code} (catalogue has an older English template)")
        elif m.fuzzy:
            missing.append(f"{code} (fuzzy)")
        elif not m.string:
            missing.append(f"{code} (empty)")
    assert not missing, f"{lang}: {len(missing)} untranslated code(s):\n" + "\n".join(missing)


def test_french_numbers_no_ordinal_after_a_field() -> None:
    """"{position}e carte" read "1e carte" for the first card (French writes 1re, 1er: the
    ending agrees with the noun and the number): the catalogue says "carte n° {position}"."""
    wrong = [f"{code}: {m.string}" for code, m in sorted(po_entries("fr").items()) if m.string and re.search(r"\}(?:e|ème|eme|er|re|ère|ᵉ)(?!\w)", m.string)]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", TARGETS)
def test_translations_keep_the_template_fields(lang: str) -> None:
    messages = all_messages()
    wrong = []
    for code, m in sorted(po_entries(lang).items()):
        if code not in messages or not m.string:
            continue
        try:
            theirs = fields(m.string)
        except ValueError as exc:  # unbalanced braces
            wrong.append(f"{code}: {exc}")
            continue
        ours = fields(messages[code])
        if theirs != ours:
            wrong.append(f"{code}: English {sorted(ours, key=str)} != {lang} {sorted(theirs, key=str)}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", ("en", *TARGETS))
def test_plural_fields_name_the_forms_of_their_language(lang: str) -> None:
    messages = all_messages()
    if lang == "en":
        templates = messages
    else:
        templates = {code: m.string for code, m in po_entries(lang).items() if code in messages and m.string}
    wrong = [f"{code}: {p}" for code, text in sorted(templates.items()) for p in plural_problems(text, lang)]
    assert not wrong, f"{lang} needs forms {plural_forms(lang)}:\n" + "\n".join(wrong)


def test_plural_forms_follow_each_language() -> None:
    """Counts pick the form the language's rules say, also for Russian 2-4 / 5-20 / 21."""
    template = "{n:plural:one=# card|other=# cards}"
    en, fr, ru = translator("en"), translator("fr"), translator("ru")
    assert [en.plural(n, {"one": "# card", "other": "# cards"}) for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    ru_forms = {"one": "# карта", "few": "# карты", "many": "# карт"}
    assert [ru.plural(n, ru_forms) for n in (1, 3, 5, 11, 21, 24, 111)] == [
        "1 карта", "3 карты", "5 карт", "11 карт", "21 карта", "24 карты", "111 карт"]
    fr_forms = {"one": "# carte", "many": "# de cartes", "other": "# cartes"}
    rendered = [fr.plural(n, fr_forms).replace("\u202f", " ") for n in (0, 1, 2, 1_000_000)]
    assert rendered == ["0 carte", "1 carte", "2 cartes", "1 000 000 de cartes"]
    assert plural_forms("ru") == ("one", "few", "many") and plural_forms("fr") == ("one", "many", "other")
    assert plural_problems(template, "en") == [] and plural_problems(template, "ru")


@pytest.mark.parametrize("lang", TARGETS)
def test_every_translation_renders(lang: str) -> None:
    tr = translator(lang)
    messages = all_messages()
    entries = po_entries(lang)
    failed = []
    for code, english in sorted(messages.items()):
        params = sample_params(english, messages)
        try:
            text = tr.t(code, NAMES, **params)
        except Exception as exc:  # noqa: BLE001 - report every failure at once
            failed.append(f"{code}: {type(exc).__name__}: {exc}")
            continue
        m = entries.get(code)
        if m is not None and m.string and not m.fuzzy and m.id == english and m.string != english:
            if text == translator("en").t(code, NAMES, **params):
                failed.append(f"{code}: rendered the English fallback, not the catalogue")
        if "{" in text and "{" not in english.replace("{{", ""):
            failed.append(f"{code}: unrendered field in {text!r}")
    assert not failed, "\n".join(failed)


def test_catalogue_headers() -> None:
    for lang in TARGETS:
        path = LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as fh:
            catalog = read_po(fh)
        assert str(catalog.locale) == lang
        assert catalog.charset.lower() == "utf-8"
        headers = dict(catalog.mime_headers)
        assert headers["Language"] == lang
        assert "nplurals=" in headers["Plural-Forms"]
    ru = dict(read_po((LOCALES_DIR / "ru" / "LC_MESSAGES" / "messages.po").open("rb")).mime_headers)
    assert ru["Plural-Forms"].startswith("nplurals=3;")


SPACE = "[\u00a0\u202f ]"


def test_money_follows_the_locale() -> None:
    ru = translator("ru").money(1234500)
    fr = translator("fr").money(1234500)
    assert re.fullmatch(f"1{SPACE}234{SPACE}500", ru), ru
    assert re.fullmatch(f"1{SPACE}234{SPACE}500", fr), fr
    assert "," not in ru and "," not in fr
    assert translator("en").money(1234500) == "1,234,500"
    # the catalogue text around the money field is translated, the number is Babel's
    text = translator("ru").t("vabanque.pawn_paid", NAMES, seat=0, amount=1234500)
    assert re.search(f"1{SPACE}234{SPACE}500", text) and "Alice" in text and "1,234,500" not in text


def test_lists_follow_the_locale() -> None:
    assert translator("fr").list(["Ann", "Bob", "Cyd"]) == "Ann, Bob et Cyd"
    assert translator("ru").list(["Аня", "Боря", "Вера"]) == "Аня, Боря и Вера"
    assert translator("fr").t("ui.winner", NAMES, seats=[0, 1]) == "Vainqueur\u00a0: Alice et Bruno"
    assert translator("ru").t("ui.winner", NAMES, seats=[0, 1]) == "Победитель: Alice и Bruno"


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_a_number_stays_on_the_line_of_its_unit_or_its_word(lang: str) -> None:
    """No-break spaces where a narrow phone broke "20 / s", "round / 1", "4 of / 6"."""
    tr = translator(lang)
    assert "20\u00a0" in tr.t("ui.show_private_timed", n=20)
    assert "\u00a01" in tr.t("vabanque.payout_title", round=1)
    assert "\u00a06" in tr.t("corruption.ui.your_card_face_down", n=4)
