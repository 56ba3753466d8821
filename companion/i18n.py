"""One translation mechanism for every user-facing string and ruling.

Every string has a stable code and an English template (the games' `MESSAGES`, and `UI` below).
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

#: Interface strings (codes -> English). Games' own strings live in each game's MESSAGES.
UI: dict[str, str] = {
    "ui.app_title": "Table referee",
    "ui.rooms": "Rooms",
    "ui.no_rooms": "No game yet. Create one below.",
    "ui.new_room": "New game",
    "ui.create_room": "Create the room",
    "ui.game": "Game",
    "ui.players": "Players, clockwise from the tablet",
    "ui.player_name": "Name of player {n}",
    "ui.player_colour": "Colour of player {n}",
    #: a drop-down's name for screen readers: what it chooses and its current choice
    "ui.choice": "{field}: {value}",
    "ui.add_player": "Add a player",
    "ui.remove_player": "Remove",
    "ui.first_player": "First player",
    "ui.random": "Random",
    "ui.house_rules": "House rules",
    "ui.open": "Open",
    "ui.back": "Back to the rooms",
    "ui.sounds_are_off": "Board sounds: off (tap to turn on)",
    "ui.sounds_are_on": "Board sounds: on (tap to turn off)",
    "ui.spectator": "Spectator view (read only)",
    "ui.host_board": "Host board",
    "ui.seats": "Seats",
    "ui.seat_free": "tap to show the QR code",
    "ui.connected": "connected",
    "ui.away": "away",
    "ui.scan_to_join": "{seat:seat}: scan to join",
    "ui.reissue": "New link for {seat:seat}",
    "ui.reissued": "{seat:seat} has a new link; the old one no longer works.",
    "ui.close": "Close",
    "ui.undo": "Undo last action",
    "ui.undone": "Undone: {what}",
    "ui.log": "Game log",
    "ui.export": "Export log",
    "ui.export_complete": "Complete log (reveals every secret)",
    "ui.export_redacted": "Log with secrets hidden (game still running)",
    "ui.pass_and_play": "Play for {seat:seat} on this tablet",
    "ui.pass_button": "Play here",
    "ui.pass_whose": "{seat:seat}'s choices: the others look away",
    "ui.privacy_title": "Hand the tablet to {seat:seat}",
    "ui.privacy_ready": "I am {seat:seat}: show my choices",
    "ui.privacy_done": "Done: hide my choices",
    "ui.your_turn": "Your turn",
    "ui.waiting_for": "Waiting for {seats:seats}",
    "ui.turn_after_board": "Your turn starts once the board has entered what the game waits for.",
    "ui.waiting_for_you_and": "Waiting for you and {seats:seats}",
    "ui.not_your_turn": "Waiting for {seats:seats}",
    "ui.money": "Money",
    "ui.round": "Round {round} of {rounds}",
    "ui.winner": "Winner: {seats:seats}",
    "ui.invalid_link": "This link is not valid. Ask the host for a new one.",
    "ui.away_cleared": "You were away a long time: what you had picked or typed and not sent was cleared. The page shows the game as it is now.",
    "ui.host_only": "Only the host board can do that.",
    "ui.last_rulings": "What just happened",
    "ui.next": "Next",
    "ui.previous": "Previous",
    "ui.step": "Step {n} of {total}",
    "ui.language": "Language",
    "ui.you_are": "You are {seat:seat}",
    "ui.join_url": "Join address",
    "ui.error": "Not accepted",
    "ui.storage_failed": "This phone could not read which seat it has. Tap Retry, or scan your seat's QR code again.",
    "ui.retry": "Retry",
    #: a device sending events faster than a person can (views/flet_patches/hardening.py EVENT_RATE)
    "ui.too_many_events": "Too many taps from this device; some were ignored.",
    #: the app on an Android or iOS tablet, once its board shows a game (views/app_window.py
    #: leaving_the_screen_stops_the_table): the platform stops a backgrounded app's networking
    "ui.leaving_stops_table": "Keep this app on screen while you play: if this tablet switches to another app or locks, the phones lose the table until you come back.",
    "ui.hide_private": "Hide my cards",
    "ui.peek_hold": "Hold here to see your cards",
    "ui.peek_release": "Let go to hide your cards",
    "ui.show_private_timed": "Or tap to show them (hidden again after {n:num} s)",
    "ui.save_note": "Save my note",
    # taps refused for being meant for what was on screen before (views/screen.py Handover)
    "ui.handover": "Now {seat:seat}: tap again",
    "ui.tapped_twice": "Tapped twice? Only the first tap counted. Tap again for another move.",
    "ui.phone_back": "{seat:seat}'s phone is back: it plays on, and the tablet is the board again.",
    "ui.undo_tapped_twice": "Tapped twice? One action was undone. Tap Undo again to undo another.",
    "ui.moved_on": "Not done: the game had moved on. Look, then tap again.",
    "ui.undo_none": "Nothing to undo yet",
    "ui.undo_after_reveal": "Not after a reveal: everyone has seen the cards",
    "ui.reveal": "Reveal",
    "ui.reveal_waiting": "Everyone has chosen. Reveal when the table is ready (no undo after that).",
    "ui.ready": "I'm ready",
    "ui.ready_next": "I'm ready for the next round",
    # under "I'm ready" on a phone (views/reveal.py ready_panel): what the tap leads to
    "ui.ready_help": "When everyone is ready, the cards are turned up.",
    "ui.ready_next_help": "When everyone is ready, the next round begins.",
    "ui.ready_list": "Ready: {seats:seats}",
    "ui.take_back": "Take back my move",
    "ui.handover_now": "Now {seat:seat}",
    # Chicago Poker's own hand order in the setup form (views/games/chicago_poker.py)
    "chicago_poker.setup.ranking_title": "Our hand order, best first",
    "chicago_poker.setup.ranking_help": "Move the hands up or down to match your summary card: each hand beats every hand below it.",
    "chicago_poker.setup.ranking_reset": "Reset to the recommended order",
    "chicago_poker.setup.move_up": "Move {hand:label=chicago_poker.hand} up",
    "chicago_poker.setup.move_down": "Move {hand:label=chicago_poker.hand} down",
    "chicago_poker.setup.example": "For example: {cards}",
    "room.err.stale": "The game moved on since your screen was drawn. Look again and retry.",
    "room.err.bad_action": "That action is not understood: {problem:message}",
    "room.err.not_your_seat": "You play {mine:seat}; you cannot act for {seat:seat}.",
    "room.err.secret_on_board": "That choice is secret: {seat:seat} makes it on their own phone.",
    "room.err.no_rights": "Only the host board can do that.",
    "room.err.nothing_to_undo": "There is nothing to undo.",
    "room.err.undo_reveal": "Cannot undo past a reveal: players have seen the hidden cards.",
    "room.err.take_back_nothing": "You have no move to take back.",
    "room.err.take_back_later": "Another action came after yours: only the host can undo now.",
    "room.err.take_back_revealed": "Not after a reveal: everyone has seen the cards.",
    "room.err.invalid_setup": "The setup is not valid: {problem:message}",
    "room.err.unknown_game": "Unknown game {game}.",
    "game.vabanque": "Vabanque",
    "game.corruption": "Corruption",
    "game.chicago_poker": "Chicago Poker",
    "game.reglement": "Règlement de comptes",
    "colour.red": "Red",
    "colour.blue": "Blue",
    "colour.green": "Green",
    "colour.yellow": "Yellow",
    "colour.purple": "Purple",
    "colour.orange": "Orange",
    "colour.black": "Black",
    "colour.white": "White",
    "ui.err.invalid_value": "{where}: this value is not accepted ({detail})",
    "room.undone": "The host undid {count:plural:one=# action|other=# actions}, the last one by {seat:seat}.",
    "room.undone_table": "The host undid {count:plural:one=# action|other=# actions} of the host board.",
    "room.taken_back": "{seat:seat} took back a move.",
}


#: Further modules with a `MESSAGES` dict of codes -> English (pages beyond the games' own).
MESSAGE_MODULES: tuple[str, ...] = ("companion.network", "companion.players", "companion.history", "companion.rule_cards", "companion.games.reglement_board", "companion.standings", "companion.table")


def all_messages() -> dict[str, str]:
    import importlib

    from companion.games import GAMES

    messages = dict(UI)
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
    """Renders codes and rulings in one language for one table (player names): every message of
    the app (the interface's, the games' and the pages')."""

    def __init__(self, lang: str = "en"):
        super().__init__(lang, all_messages())


@lru_cache(maxsize=8)
def translator(lang: str) -> Translator:
    return Translator(lang)
