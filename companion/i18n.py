"""One translation mechanism for every user-facing string and ruling.

Every string has a stable code and an English template: companion's (the games' `MESSAGES`,
`MESSAGES` below and those of `MESSAGE_MODULES`: rulings, errors, the names they use, the pages
companion serves) and the views' labels (views/labels/, which views/i18n.py composes with these
into the pages' translator; companion never imports the views).
Translations are gettext catalogues (`companion/locales/<lang>/LC_MESSAGES/messages.po`, the
English template as msgid and the code as msgctxt), read with Babel, which also supplies plural
rules, list formatting ("Red, Blue and Green") and number formats per language.

Template fields use `str.format` syntax with a few format specs understood here:
`{seat:seat}` a player's name, `{seats:seats}` a list of names, `{amount:money}` a money amount,
`{n:num}` a number, `{card:label=vabanque.card}` the translated label `vabanque.card.<value>`,
and `{n:plural:one=# card|other=# cards}` the form of the count `n` that the language's plural
rules (CLDR, through Babel) pick, with `#` standing for the formatted number, and
`{problem:message}` a whole message given as `{"code": ..., "params": {...}}` (a validation
problem inside a sentence, see `validation_problems`).

Plural forms are written inline, in each language's own template, rather than as one code per
form: English names one/other, French one/many/other, Russian one/few/many (see `plural_forms`),
so a code keeps one English template and translators see every form of the sentence together.
The completeness test and `tools/i18n_sync.py --check` require exactly the language's forms.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

# The mechanism (knowing no game) lives in companion.translation; its names are this module's too.
from companion.translation import (  # noqa: F401
    CARD_SEPARATOR,
    CARDS_SPEC,
    LANGUAGES,
    LOCALES_DIR,
    PLURAL_SPEC,
    MessageTranslator,
    _catalogue,
    parse_plural,
    plural_forms,
    plural_problems,
)

#: The room's own strings (codes -> English): its errors and rulings (companion/room.py), the
#: games' names (the history, the BG Stats export and the rule cards name a game) and a setup value
#: pydantic refuses (`validation_problems`). Games' own strings live in each game's MESSAGES; the
#: pages' labels live with the views (views/labels/, composed with these by views/i18n.py).
MESSAGES: dict[str, str] = {
    "room.err.stale": "The game moved on since your screen was drawn. Look again and retry.",
    "room.err.bad_action": "That action is not understood: {problem:message}",
    "room.err.not_your_seat": "You play {mine:seat}; you cannot act for {seat:seat}.",
    "room.err.secret_on_board": "That choice is secret: {seat:seat} makes it on their own phone.",
    "room.err.no_rights": "Only the host board can do that.",
    "room.err.nothing_to_undo": "There is nothing to undo.",
    "room.err.undo_reveal": "Cannot undo past a reveal: players have seen the hidden cards.",
    "room.err.take_back_nothing": "You have no move to take back.",
    "room.err.take_back_later": "Another action came after yours: only the host can undo now.",
    "room.err.take_back_host_entered": "The host board entered this move for you: the host can undo it.",
    "room.err.take_back_revealed": "Not after a reveal: cards have been seen.",
    "room.err.invalid_setup": "The setup is not valid: {problem:message}",
    "room.err.unknown_game": "Unknown game {game}.",
    "game.vabanque": "Vabanque",
    "game.corruption": "Corruption",
    "game.chicago_poker": "Chicago Poker",
    "game.reglement": "Règlement de comptes",
    "ui.err.invalid_value": "{where}: this value is not accepted ({detail})",
    "room.undone": "The host undid {count:plural:one=# action|other=# actions}, the last one by {seat:seat}.",
    "room.undone_table": "The host undid {count:plural:one=# action|other=# actions} of the host board.",
    "room.taken_back": "{seat:seat} took back a move.",
}


#: Further modules with a `MESSAGES` dict of codes -> English (beyond the games' own): what
#: companion words itself (the /check and /import pages, import refusals, rule cards, seat and
#: table errors, the Règlement board's problems, the standings' details).
MESSAGE_MODULES: tuple[str, ...] = ("companion.network", "companion.history", "companion.rule_cards", "companion.games.reglement_board", "companion.standings", "companion.table")


def all_messages() -> dict[str, str]:
    """Every code companion words (codes -> English): this module's, each game's and each module's
    of `MESSAGE_MODULES`. The pages' labels are not here: `views.i18n.all_messages` adds them."""
    import importlib

    from companion.games import GAMES

    messages = dict(MESSAGES)
    for game in GAMES.values():
        messages.update(game.messages)
    for name in MESSAGE_MODULES:
        messages.update(importlib.import_module(name).MESSAGES)
    return messages


def validation_problems(error: ValidationError) -> list[tuple[str, dict[str, Any]]]:
    """(code, params) of each problem of a pydantic error, for `Translator.t`.

    A validator that raises `PydanticCustomError(code, english, params)` with a message code
    (e.g. the Règlement board's) gives that code; type "problems" holds several such in its
    context. Any other error (a wrong type, a missing field) is technical: its pydantic text is
    wrapped in the translated `ui.err.invalid_value` sentence."""
    known = all_messages()
    out: list[tuple[str, dict[str, Any]]] = []
    for e in error.errors():
        kind, context = e.get("type", ""), dict(e.get("ctx") or {})
        if kind == "problems":
            out += [(p["code"], dict(p["params"])) for p in context["problems"]]
        elif kind in known:
            out.append((kind, context))
        else:
            where = ".".join(str(p) for p in e.get("loc", ())) or "—"
            detail = str(e.get("msg", "")).removeprefix("Value error, ").removeprefix("Assertion failed, ")
            out.append(("ui.err.invalid_value", {"where": where, "detail": detail}))
    return out


class Translator(MessageTranslator):
    """Renders codes and rulings in one language for one table (player names): companion's
    messages (`all_messages`), or the `messages` given (views.i18n.Translator gives companion's
    and the views' labels: the pages' translator)."""

    def __init__(self, lang: str = "en", messages: Mapping[str, str] | None = None):
        super().__init__(lang, all_messages() if messages is None else messages)


@lru_cache(maxsize=8)
def translator(lang: str) -> Translator:
    return Translator(lang)
