"""The translation mechanism of `companion.i18n`, knowing no game: codes rendered in one language
from a given mapping of codes -> English templates, with the .po catalogues, plural rules and
format specs described in `companion.i18n`.

It sits below the games: a game module that must word a problem in English while it validates
(the Règlement board's `Problem`) renders it here from its own templates, without importing
`companion.i18n`, which reads every game's messages (so imports the games).
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from companion.engine import Ruling

LANGUAGES = ("en", "fr", "ru")
LOCALES_DIR = Path(__file__).parent / "locales"


@cache
def _catalogue(lang: str) -> dict[tuple[str, str], str]:
    """{(code, English template): translation} from the language's .po file (empty for en)."""
    path = LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po"
    if lang == "en" or not path.exists():
        return {}
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang)
    # the catalogues hold no plural entries (a tuple id): plurals are this module's own spec
    return {(m.context or "", m.id): m.string for m in catalog if isinstance(m.id, str) and isinstance(m.string, str) and m.id and m.string and not m.fuzzy}


PLURAL_SPEC = "plural:"
#: `{card:cards=chicago_poker.ui.card}`: cards as an engine writes them in a ruling's parameters
#: ("9·c3" or "9·c3, 2·c2": value·colour), each read out with that code's {value} {colour}
#: template, as the board draws them ("9 of Blue"), never the code itself
CARDS_SPEC = "cards="
CARD_SEPARATOR = "·"
#: Integers that exercise every plural category of the supported languages (CLDR integer rules;
#: French "many" is for exact millions: "1 000 000 de jetons").
_PLURAL_PROBES = (*range(0, 200), 1_000, 1_000_000, 2_000_000, 1_000_000_000)


@cache
def plural_forms(lang: str) -> tuple[str, ...]:
    """The plural categories a template in `lang` must name (integers only: counts, never 1.5)."""
    rule = Locale.parse(lang).plural_form
    found = {rule(n) for n in _PLURAL_PROBES}
    return tuple(c for c in ("zero", "one", "two", "few", "many", "other") if c in found)


def parse_plural(format_spec: str) -> dict[str, str]:
    """{category: text} of a `plural:one=...|other=...` spec (ValueError when malformed)."""
    if not format_spec.startswith(PLURAL_SPEC):
        raise ValueError(f"not a plural spec: {format_spec!r}")
    forms: dict[str, str] = {}
    for part in format_spec[len(PLURAL_SPEC):].split("|"):
        category, sep, text = part.partition("=")
        category = category.strip()
        if not sep or category not in ("zero", "one", "two", "few", "many", "other"):
            raise ValueError(f"plural form {part!r} must read category=text (one, few, many, other)")
        if category in forms:
            raise ValueError(f"plural form {category} given twice")
        forms[category] = text
    return forms


def plural_problems(template: str, lang: str) -> list[str]:
    """What is wrong with the plural fields of a `lang` template (empty when each names exactly
    the language's forms)."""
    problems = []
    wanted = set(plural_forms(lang))
    for _literal, name, spec, _conversion in string.Formatter().parse(template):
        if name is None or not spec or not spec.startswith(PLURAL_SPEC):
            continue
        try:
            forms = parse_plural(spec)
        except ValueError as exc:
            problems.append(f"{{{name}}}: {exc}")
            continue
        if set(forms) != wanted:
            problems.append(f"{{{name}}} names forms {sorted(forms)}; {lang} needs {sorted(wanted)}")
        if any("{" in text or "}" in text for text in forms.values()):
            problems.append(f"{{{name}}}: a plural form cannot hold a field")
    return problems


#: French elides "de", "que" (and "lorsque", "puisque") before a word starting with a vowel or a
#: mute h: "En attente d'Anna", not "de Anna". A player's name is only known at play, so the
#: template cannot say it: `elide` does, for the word just before a {seat:seat} or {seats:seats}.
ELIDING_WORDS = re.compile(r"(?:^|(?<=[\s(«\"“]))(de|que|lorsque|puisque) $", re.IGNORECASE)
#: A name's first letter that takes the elision (accents removed first: "É", "Œ" count).
#: An h is taken as mute (d'Hugo, d'Hélène, d'Henri): an aspirate h ("de Hans") cannot be told
#: from the spelling. A y before a vowel sounds as a consonant ("de Yann"), before a consonant as
#: a vowel ("d'Yves"). Names in other scripts and numbers are left as they are.
VOWELS = frozenset("aeiouæœ")


def starts_with_vowel_sound(word: str) -> bool:
    letters = unicodedata.normalize("NFD", word.strip().lower())
    letters = "".join(c for c in letters if not unicodedata.combining(c))
    if not letters:
        return False
    first, rest = letters[0], letters[1:2]
    if first in VOWELS:
        return True
    if first == "h":
        return True
    if first == "y":
        return bool(rest) and rest.isalpha() and rest not in VOWELS
    return False


def elide(lang: str, before: str, name: str) -> str:
    """`before` (the template's text up to a name) with its last word elided when `lang` wants
    it before `name`: French "… de " + "Anna" -> "… d'" (so "d'Anna")."""
    if lang != "fr" or not starts_with_vowel_sound(name):
        return before
    match = ELIDING_WORDS.search(before)
    if match is None:
        return before
    word = match.group(1)
    return before[: match.start(1)] + word[:-1] + "'"


class _Formatter(string.Formatter):
    def __init__(self, tr: MessageTranslator, names: Sequence[str]):
        self.tr = tr
        self.names = names

    def vformat(self, format_string: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> str:
        """string.Formatter's, plus the elision of the word before a name (see `elide`)."""
        out: list[str] = []
        for literal, field, spec, conversion in self.parse(format_string):
            out.append(literal)
            if field is None:
                continue
            value, _ = self.get_field(field, args, kwargs)
            value = self.convert_field(value, conversion)
            if spec and "{" in spec:
                spec = self.vformat(spec, args, kwargs)
            text = self.format_field(value, spec or "")
            if spec in ("seat", "seats") and text:
                before = "".join(out)
                elided = elide(self.tr.lang, before, text)
                if elided != before:
                    out = [elided]
            out.append(text)
        return "".join(out)

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "seat":
            return self.tr.seat_name(self.names, value)
        if format_spec == "seats":
            return self.tr.list([self.tr.seat_name(self.names, s) for s in value])
        if format_spec == "money":
            return self.tr.money(value)
        if format_spec == "num":
            return self.tr.number(value)
        if format_spec.startswith("label="):
            return self.tr.t(f"{format_spec[6:]}.{value}")
        if format_spec.startswith(PLURAL_SPEC):
            return self.tr.plural(value, parse_plural(format_spec))
        if format_spec == "message":
            return self.tr.t(value["code"], self.names, **value.get("params", {}))
        if format_spec.startswith(CARDS_SPEC):
            return self.tr.cards(value, format_spec[len(CARDS_SPEC):])
        return format(value, format_spec)  # string.Formatter's own, typed


class MessageTranslator:
    """Renders codes and rulings in one language for one table (player names), from the English
    templates it is given (`companion.i18n.Translator` gives it every message of the app)."""

    #: texts kept by `t` (a board redraws the same dozen rulings after every action)
    TEXTS_KEPT = 4096

    def __init__(self, lang: str, messages: Mapping[str, str]):
        self.lang = lang if lang in LANGUAGES else "en"
        self.locale = Locale.parse(self.lang)
        #: codes -> English templates (read at each lookup: the mapping may still grow)
        self.messages = messages
        self._texts: dict[tuple[str, tuple[str, ...], str], str] = {}

    def template(self, code: str) -> str:
        english = self.messages.get(code)
        if english is None:
            return code  # a missing code shows itself; tests make sure none is missing
        return _catalogue(self.lang).get((code, english), english)

    def t(self, code: str, names: Sequence[str] = (), **params: Any) -> str:
        key = (code, tuple(names), repr(sorted(params.items())) if params else "")
        text = self._texts.get(key)
        if text is None:
            text = _Formatter(self, names).format(self.template(code), **params)
            if len(self._texts) >= self.TEXTS_KEPT:
                self._texts.clear()
            self._texts[key] = text
        return text

    def ruling(self, ruling: Ruling, names: Sequence[str]) -> str:
        return self.t(ruling.code, names, **ruling.params)

    def error(self, code: str, params: Mapping[str, Any], names: Sequence[str]) -> str:
        return self.t(code, names, **params)

    def seat_name(self, names: Sequence[str], seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(names):
            return names[seat]
        return str(seat if not isinstance(seat, int) else seat + 1)

    def cards(self, written: str, code: str) -> str:
        """"9·c3, 2·c2" read out with `code`'s {value} {colour} template (see CARDS_SPEC)."""
        read = []
        for card in written.split(", "):
            value, sep, colour = card.partition(CARD_SEPARATOR)
            read.append(self.t(code, value=int(value), colour=colour) if sep and value.isdigit() else card)
        return ", ".join(read)

    def list(self, items: Sequence[str]) -> str:
        if not items:
            return "—"
        return format_list(list(items), locale=self.locale)

    def money(self, amount: int) -> str:
        return format_decimal(amount, locale=self.locale)

    def number(self, value: int) -> str:
        return format_decimal(value, locale=self.locale)

    def plural(self, count: int, forms: Mapping[str, str]) -> str:
        """The form of `count` this language's rules pick (`other` if a form is missing)."""
        category = self.locale.plural_form(count)
        text = forms.get(category, forms.get("other", forms.get("many", "#")))
        return text.replace("#", self.number(count))
