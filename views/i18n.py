"""The pages' translator: companion's messages and the views' labels, composed here.

Companion words what it decides or serves itself: rulings, errors, the names they use, house
rules, the pages it renders (`companion.i18n.all_messages`). What only the pages show (prompts,
buttons, headings, setup fields) is the views' own: `LABELS` in views/labels/, one module per game
and `pages` for the shared screens. Companion never imports the views, so the two are put
together here, where the pages get their translator; `all_messages` is the whole app's set of
codes, which the catalogues translate (tools/i18n_sync.py) and the tests check.

No Flet: tools and tests read this module without the interface.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from companion import i18n
from views.labels import chicago_poker, corruption, pages, reglement, vabanque

#: Each game's labels, by game id (every game of companion.games.GAMES has one).
GAME_LABELS: dict[str, Mapping[str, str]] = {
    "vabanque": vabanque.LABELS,
    "corruption": corruption.LABELS,
    "chicago_poker": chicago_poker.LABELS,
    "reglement": reglement.LABELS,
}
#: The shared screens' labels, then each game's.
LABEL_SOURCES: tuple[Mapping[str, str], ...] = (pages.LABELS, *GAME_LABELS.values())


def labels() -> dict[str, str]:
    """Every label of the views (codes -> English)."""
    out: dict[str, str] = {}
    for source in LABEL_SOURCES:
        out.update(source)
    return out


def all_messages() -> dict[str, str]:
    """Every code of the app (codes -> English): companion's messages and the views' labels. A code
    defined twice (in two label modules, or as a label and by companion) is an error: one of the two
    templates would silently win."""
    messages = i18n.all_messages()
    for source in LABEL_SOURCES:
        twice = sorted(messages.keys() & source.keys())
        if twice:
            raise ValueError(f"codes defined twice: {', '.join(twice)}")
        messages.update(source)
    return messages


class Translator(i18n.Translator):
    """Renders every code of the app in one language for one table: what the pages use."""

    def __init__(self, lang: str = "en"):
        super().__init__(lang, all_messages())


@lru_cache(maxsize=8)
def translator(lang: str) -> Translator:
    return Translator(lang)
