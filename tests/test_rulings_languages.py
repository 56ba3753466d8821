"""Every ruling, error and label renders in English, French and Russian with nothing left over.

Random seeded games of every engine (legal actions from each engine's `random_action`, plus
mutated copies of them and the engine tests' illegal-action generators, to reach the rule
errors) are rendered in the three languages, and so is every code with sample parameters:
- no field is left unrendered and no code is missing (a missing code renders as itself);
- Russian text has no Latin-alphabet word except the players' names and the allow-listed names
  (a French card name or an English phase passed as a plain parameter shows up here);
- French differs from English wherever the English has words (identical cognates allow-listed).
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from companion.engine import RuleError
from companion.games import GAMES
from companion.games.reglement import Setup
from companion.games.reglement_board import Board, default_board
from companion.i18n import LANGUAGES, PLURAL_SPEC, validation_problems
from views.i18n import all_messages, translator

NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve"]
COLOURS = ["red", "blue", "green", "yellow", "purple"]
#: Latin words a Russian table keeps as they are: game titles, technical names written the same
#: way in Russian (Wi-Fi, VPN), a key's label (Enter), a router setting as routers print it, and
#: the board file's JSON field name.
RUSSIAN_KEEPS_LATIN = {"Vabanque", "Chicago", "Poker", "JSON", "QR", "Wi", "Fi", "VPN", "TCP", "AP isolation", "Enter", "facing", "BG Stats", "result", "null"}
#: Codes whose French is rightly the English text: the same word in both languages, or a name.
SAME_IN_FRENCH = {
    "game.vabanque", "game.chicago_poker", "game.reglement", "game.corruption", "standing.score",
    "chicago_poker.special.limousine", "chicago_poker.special.liquidation", "chicago_poker.special.revolver",
    "colour.orange", "corruption.ui.scores", "history.actions", "history.result_absent",
    "corruption.variant.down_the_river", "corruption.variant.free_stud", "corruption.variant.standard",
    "reglement.business.bar", "reglement.business.restaurant", "reglement.mark.revolver", "vabanque.card.bluff", "vabanque.move",
    # the name of a card (English keeps the printed French name)
    "reglement.rule.pills_per_card",
}
#: Whole families that are names: the Chicago bosses, and Règlement's cards and gangsters, whose
#: printed French names the English text keeps (Russian translates them).
SAME_IN_FRENCH_PREFIXES = ("chicago_poker.boss.", "reglement.card.", "reglement.kind.")
#: Parameters that hold what the table typed (Corruption's contract names), shown as typed, and
#: the technical text of a pydantic error (`where`, `detail`), which a translated sentence wraps.
TABLE_DATA_PARAMS = {"contract", "name", "board", "where", "detail"}
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
PLAYERS = {"vabanque": 4, "corruption": 4, "chicago_poker": 4, "reglement": 4}
SEEDS = range(3)


def setup_for(game: Any, players: int) -> Any:
    return game.setup_model.model_validate(
        {"players": [{"name": n, "colour": c} for n, c in zip(NAMES[:players], COLOURS, strict=False)]}
    )


def mutated(game: Any, action: Any, pool: list[dict[str, Any]], rng: random.Random, players: int) -> Any | None:
    """A copy of a legal action with one field taken from another action or nudged: mostly
    illegal, so the engine's rule errors are reached. None when the copy does not validate."""
    data = action.model_dump()
    fields = [name for name in data if name != "type"]
    if not fields:
        return None
    name = rng.choice(fields)
    donors = [d[name] for d in pool if name in d and d[name] != data[name]]
    value = data[name]
    if isinstance(value, bool):
        data[name] = not value
    elif isinstance(value, int) and (not donors or rng.random() < 0.5):
        data[name] = rng.choice([value + 1, value - 1, players, rng.randrange(players)])
    elif donors:
        data[name] = rng.choice(donors)
    else:
        return None
    try:
        return game.action_adapter.validate_python(data)
    except ValidationError:
        return None


def game_junk(game_id: str, state: Any, rng: random.Random) -> list[Any]:
    """The engine tests' own generators of illegal actions, where a game has one."""
    if game_id == "corruption":
        from tests.games.test_corruption_properties import random_junk

        return [random_junk(state, rng)]
    if game_id == "chicago_poker":
        from tests.games.test_chicago_poker_properties import junk_actions

        return rng.sample(junk_actions(state, rng), 3)
    if game_id == "reglement":
        return [GAMES[game_id].action_adapter.validate_python(reglement_junk(state, rng))]
    return []


def reglement_junk(state: Any, rng: random.Random) -> dict[str, Any]:
    """A Règlement action of any type on random seats, by the player to act (mostly)."""
    seats = list(state.board.ids)
    players = len(state.setup.players)
    turn = state.turn if state.turn is not None else state.placer
    by = turn if turn is not None and rng.random() < 0.85 else rng.randrange(players)
    seat, other = rng.choice(seats), rng.choice(seats)
    return rng.choice([
        {"type": "place", "by": by, "kind": rng.choice(["parrain", "flingueur", "lame", "cogneur"]), "seat": seat},
        {"type": "knife", "by": by, "target": seat, "from_seat": rng.choice([None, other])},
        {"type": "pan", "by": by, "target": seat, "from_seat": rng.choice([None, other])},
        {"type": "order_cake", "by": by, "seat": seat},
        {"type": "pass_cake", "by": by, "cake_seat": seat, "direction": rng.choice(["clockwise", "counterclockwise"])},
        {"type": "boum", "by": by, "cake_seat": seat},
        {"type": "pills", "by": by, "targets": rng.sample(seats, rng.randint(1, 4))},
        {"type": "alerte", "by": by},
        {"type": "move", "by": by, "from_seat": seat, "to_seat": other},
        {"type": "discard", "by": by},
        {"type": "end_turn", "by": by, "wake": rng.choice([None, (seat,)])},
        {"type": "note_hand", "by": by, "cards": tuple(rng.choices(["knife", "pan", "boum", "move"], k=rng.randint(0, 6)))},
    ])


def played(game_id: str, seed: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """(code, params) of every ruling and rule error of one random game."""
    game = GAMES[game_id]
    players = PLAYERS[game_id]
    state = game.initial_state(setup_for(game, players), seed)
    rng = random.Random(seed)
    pool: list[dict[str, Any]] = []
    while (action := game.random_action(state, rng)) is not None:
        pool.append(action.model_dump())
        del pool[:-40]
        candidates = [mutated(game, action, pool, rng, players) for _ in range(3)] + game_junk(game_id, state, rng)
        for junk in candidates:
            if junk is None:
                continue
            try:
                game.apply(state, junk)
            except RuleError as error:
                yield error.code, error.params
        outcome = game.apply(state, action)
        for ruling in outcome.rulings:
            yield ruling.code, ruling.params
        state = outcome.state


def leftovers(code: str, params: dict[str, Any], names: list[str]) -> list[str]:
    """What is wrong with the three renderings of one code."""
    typed = {w for key in TABLE_DATA_PARAMS & set(params) for w in LATIN_WORD.findall(str(params[key]))}
    names = [*names, *typed]
    problems = []
    texts = {}
    for lang in LANGUAGES:
        tr = translator(lang)
        if code not in tr.messages:
            return [f"{code}: no such code"]
        text = tr.t(code, names, **params)
        texts[lang] = text
        if "{" in text or "}" in text:
            problems.append(f"{code} [{lang}]: unrendered field in {text!r}")
        missing = [w for w in CODE_LIKE.findall(text) if w.split(".")[0] in PREFIXES]
        if missing:
            problems.append(f"{code} [{lang}]: code(s) {missing} rendered as themselves in {text!r}")
        if INTERNAL_CARD.search(text):
            problems.append(f"{code} [{lang}]: a card as the engine writes it, not as the board draws it, in {text!r}")
    latin = [w for w in LATIN_WORD.findall(strip_names(texts["ru"], names)) if w not in names]
    if latin:
        problems.append(f"{code} [ru]: Latin words {latin} in {texts['ru']!r}")
    if code not in SAME_IN_FRENCH and not code.startswith(SAME_IN_FRENCH_PREFIXES) and texts["fr"] == texts["en"] and LATIN_WORD.search(strip_names(texts["en"], names)):
        problems.append(f"{code} [fr]: same as English {texts['en']!r}")
    return problems


#: a Chicago Poker card as the engine writes it in a ruling's parameters ("9·c3", issue #15)
INTERNAL_CARD = re.compile(r"\d+·c\d")
#: A code that rendered as itself (Translator.template returns a missing code unchanged).
CODE_LIKE = re.compile(r"[a-z_]+(?:\.[a-z_]+)+")
PREFIXES = {code.split(".")[0] for code in all_messages()}


def strip_names(text: str, names: list[str]) -> str:
    for name in sorted([*names, *RUSSIAN_KEEPS_LATIN], key=len, reverse=True):
        text = re.sub(rf"\b{re.escape(name)}\b", "", text)
    return text


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_rulings_and_errors_of_random_games_render_in_every_language(game_id: str) -> None:
    names = NAMES[: PLAYERS[game_id]]
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    errors = 0
    for seed in SEEDS:
        for code, params in played(game_id, seed):
            errors += ".err." in code
            seen.setdefault((code, repr(sorted(params.items()))), params)
    problems = sorted({p for (code, _), params in seen.items() for p in leftovers(code, params, names)})
    assert len({code for code, _ in seen}) >= 10 and errors, "the random games reach rulings and errors"
    assert not problems, f"{len(problems)} leftover(s):\n" + "\n".join(problems[:80])


def sample_value(spec: str, messages: dict[str, str]) -> Any:
    if spec == "seat":
        return 1
    if spec == "seats":
        return [0, 2]
    if spec.startswith("label="):
        prefix = spec[len("label="):] + "."
        return sorted(c[len(prefix):] for c in messages if c.startswith(prefix) and "." not in c[len(prefix):])[0]
    if spec == "message":
        return {"code": "reglement.board.err.faces_itself", "params": {"at": "A"}}
    if spec.startswith(PLURAL_SPEC) or spec in ("num", "money"):
        return 3
    return "7"


def test_every_template_renders_in_every_language() -> None:
    """Every code (labels included) with sample parameters: catches a template itself left in
    English or French, which no random game might reach."""
    messages = all_messages()
    problems = []
    for code, english in sorted(messages.items()):
        params = {
            name: sample_value(spec or "", messages)
            for _lit, name, spec, _conv in string.Formatter().parse(english)
            if name is not None
        }
        problems += leftovers(code, params, NAMES[:4])
    assert not problems, f"{len(problems)} leftover(s):\n" + "\n".join(problems)


def test_board_and_setup_problems_are_codes_that_render_in_every_language() -> None:
    """The Règlement board's and setup's validation problems reach a page as codes with
    parameters (not English sentences); a technical pydantic error is wrapped in a sentence."""
    board = default_board().model_dump()
    board["seats"][0]["business"] = "bar"
    board["seats"][1]["business"] = "bar"
    board["facing"] = [*board["facing"], (board["seats"][2]["id"], board["seats"][2]["id"])]
    # 28 seats (a valid board) cannot seat 3 players' 30 gangsters
    plain = [s for s in default_board().seats if not (s.business or s.cash_register)][:2]
    small = default_board().model_dump()
    small["seats"] = [s for s in small["seats"] if s["id"] not in {p.id for p in plain}]
    small["facing"] = [pair for pair in small["facing"] if not {p.id for p in plain} & set(pair)]
    cases = [
        (Board, board),
        (Board, {"seats": [{"id": "  "}]}),
        (Board, {"seats": [{"id": "A", "x": 3}]}),
        (Setup, {"players": [{"name": n, "colour": c} for n, c in zip(NAMES[:3], COLOURS, strict=False)], "board": small}),
    ]
    codes = []
    for model, data in cases:
        with pytest.raises(ValidationError) as caught:
            model.model_validate(data)
        problems = validation_problems(caught.value)
        assert problems
        for code, params in problems:
            codes.append(code)
            assert not leftovers(code, params, NAMES[:3]), code
    assert "reglement.board.err.bar_count" in codes and "reglement.board.err.faces_itself" in codes
    assert "reglement.board.err.seat_name" in codes and "ui.err.invalid_value" in codes
    assert "reglement.board.err.too_small" in codes, codes
    too_small = dict(validation_problems(caught.value))["reglement.board.err.too_small"]
    ru = translator("ru").t("reglement.board.err.too_small", **too_small)
    assert "28 мест" in ru and "3 игроков" in ru and "30 гангстеров" in ru, ru


def test_a_setup_problem_renders_inside_the_rejection_sentence() -> None:
    """`{problem:message}`: the room's rejection wraps the problem's own code and parameters,
    so the whole sentence is in the reader's language."""
    setup = {"players": [{"name": n, "colour": c} for n, c in zip(NAMES[:3], COLOURS, strict=False)], "first_player": 5}
    with pytest.raises(ValidationError) as caught:
        GAMES["reglement"].setup_model.model_validate(setup)
    code, params = validation_problems(caught.value)[0]
    assert code == "reglement.setup.err.first_player"
    problem = {"code": code, "params": params}
    assert not leftovers("room.err.invalid_setup", {"problem": problem}, NAMES[:3])
    assert translator("en").t("room.err.invalid_setup", problem=problem) == (
        "The setup is not valid: the first player must be one of the players")
    assert translator("ru").t("room.err.invalid_setup", problem=problem).endswith(
        translator("ru").t(code))


# -- numbers next to their words (issue #15: "moved 1 tables", "de 1 tables") -------------------

#: the counts every template is rendered with: each plural category of en/fr/ru and the edges
COUNTS = (0, 1, 2, 5, 21)
WORD = r"[A-Za-zÀ-ÿА-Яа-яЁё][A-Za-zÀ-ÿА-Яа-яЁё-]*"


def counted_words(lang: str, forms: tuple[str, ...] | None = None) -> set[str]:
    """Every word the `lang` catalogue writes right after a count in its plural forms (only the
    `forms` categories if given): "# tables", "# table", "# столов", the words a number agrees with."""
    found = set()
    for code in all_messages():
        for _lit, _name, spec, _conv in string.Formatter().parse(translator(lang).template(code)):
            if spec and spec.startswith(PLURAL_SPEC):
                for form in spec[len(PLURAL_SPEC):].split("|"):
                    category, _, text = form.partition("=")
                    if forms is None or category in forms:
                        found.update(m.lower() for m in re.findall(rf"#\s+({WORD})", text))
    return found - {"de", "d"}


#: fields that name a thing, a place or a card, never a count
NAMING_FIELDS = {"kind", "from_kind", "card", "at", "from_at", "contract", "name", "board", "business"}
#: numbers that name a chip's value, not a count ("a 5 chip", "5 chips" = chips worth 5)
DENOMINATIONS = {("vabanque.chip_placed", "value"), ("vabanque.round_started", "value")}


def test_no_number_is_next_to_a_wrong_plural_form() -> None:
    """A count must agree with its word in every language. In every code's template (en/fr/ru) a
    plain number field is never followed by a word the catalogue counts in its plural forms
    ("{steps} tables" must be "{steps:plural:one=# table|other=# tables}"); and each code
    rendered with counts 0, 1, 2, 5 and 21 never shows "1" next to a plural nor 2, 5 or 21 next
    to the singular of a counted word."""
    messages = all_messages()
    problems = []
    for lang in LANGUAGES:
        tr, nouns = translator(lang), counted_words(lang)
        # words written only after one, or only after several ("table" / "tables")
        only_one = counted_words(lang, ("one",)) - counted_words(lang, ("few", "many", "other"))
        only_several = nouns - counted_words(lang, ("one",))
        for code in sorted(messages):
            template = tr.template(code)
            # a plain field before a counted word, unless it names a thing or a place ("{kind}
            # игрока", "{at} спит"), is a card's number ("№ {n}"), or ends a range ("1 à {high}")
            for m in re.finditer(rf"(?<!№ )(?<!à )(?<!to )(?<!до )\{{(\w+)\}}\s+(?:de\s+|d')?({WORD})", template):
                if m.group(2).lower() in nouns and len(m.group(2)) > 2 and m.group(1) not in NAMING_FIELDS and (code, m.group(1)) not in DENOMINATIONS:
                    problems.append(f"{code} [{lang}]: {{{m.group(1)}}} {m.group(2)!r} is not a plural field: {template!r}")
            fields = [(name, spec or "") for _lit, name, spec, _conv in string.Formatter().parse(messages[code]) if name]
            counts = [name for name, spec in fields if spec.startswith(PLURAL_SPEC)]
            for n in COUNTS if counts else ():
                params = {name: sample_value(spec, messages) for name, spec in fields} | dict.fromkeys(counts, n)
                text = tr.t(code, NAMES[:4], **params)
                for number, word in re.findall(rf"(?<![\w.,·])(\d+)\s+({WORD})", text):
                    if int(number) != n or word.lower() not in nouns:
                        continue
                    if (n == 1 and word.lower() in only_several) or (lang != "ru" and n in (2, 5) and word.lower() in only_one):
                        problems.append(f"{code} [{lang}]: {text!r} with {n}")
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems)


def test_the_deal_picker_names_catalogue_contracts_in_french_and_remembers_them_by_that_name() -> None:
    """Issue #15: French tables saw "Opera House" where their card prints "Opéra"."""
    from companion.games.corruption import load_catalogue, remember_contract
    from views.games.corruption.board import contract_name

    catalogue = load_catalogue()
    french = [contract_name(translator("fr"), e) for e in catalogue.contracts]
    english = [contract_name(translator("en"), e) for e in catalogue.contracts]
    assert english == [e.name for e in catalogue.contracts]
    assert all(e.name_fr for e in catalogue.contracts), "every catalogue contract needs its French name"
    untranslated = [f for f, e in zip(french, english, strict=True) if f == e and e != "Monument"]
    assert not untranslated and "Opéra" in french
    # a value typed at a French table goes to the same entry, not a new one
    remembered = remember_contract(catalogue, "Opéra", 600_000)
    assert len(remembered.contracts) == len(catalogue.contracts)
    assert next(e for e in remembered.contracts if e.name == "Opera House").value == 600_000
