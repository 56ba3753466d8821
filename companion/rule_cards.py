"""Rule cards: each game's quick reference for the phone (like Règlement de comptes' "Menu" card).

A card is built from docs/rules/ for one room: lines that depend on a house rule chosen at setup
show the option in force, and a last section lists the room's house rules. A card holds codes
and parameters only; `card_text` renders it in one language. Cards are public: they are built
from the setup alone, never from the game state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from companion.engine import Model
from companion.games import GAMES
from companion.games.poker_hands import RARITY_RANKING, RECOMMENDED_RANKING
from companion.i18n import Translator


class Line(Model):
    """One line of a card: a message code and its parameters. A parameter may itself be a Line
    (rendered first), and `changed` marks a house rule set away from its default."""

    code: str
    params: dict[str, Any] = {}
    changed: bool = False


class Section(Model):
    #: stable name of the section (tests and screen-reader identifiers use it)
    key: str
    heading: Line
    lines: tuple[Line, ...]


class RuleCard(Model):
    game: str
    title: Line
    sections: tuple[Section, ...]


class RenderedSection(Model):
    key: str
    heading: str
    lines: tuple[str, ...]
    changed: tuple[bool, ...]


class RenderedCard(Model):
    title: str
    sections: tuple[RenderedSection, ...]


# --- building ----------------------------------------------------------------------------------


def options(game_id: str, setup: BaseModel | Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every setup field with a default, overridden by the room's setup (a model or a dict)."""
    model = GAMES[game_id].setup_model
    values = {name: f.default for name, f in model.model_fields.items() if f.default is not PydanticUndefined}
    if isinstance(setup, BaseModel):
        values.update({name: getattr(setup, name) for name in type(setup).model_fields})
    elif setup is not None:
        values.update(setup)
    return values


def _line(code: str, **params: Any) -> Line:
    return Line(code=code, params=params)


def _section(game: str, key: str, *lines: str | Line) -> Section:
    """A section whose heading is `card.<game>.<key>` and whose lines are codes under it."""
    built = tuple(ln if isinstance(ln, Line) else Line(code=f"card.{game}.{key}.{ln}") for ln in lines)
    return Section(key=key, heading=Line(code=f"card.{game}.{key}"), lines=built)


def house_rules_section(game_id: str, opts: Mapping[str, Any]) -> Section:
    """The room's house rules in the setup form's own words (what the host picked)."""
    game = GAMES[game_id]
    defaults = options(game_id)
    lines = []
    for rule in game.house_rules:
        value = opts[rule]
        lines.append(
            Line(
                code="card.house_rule",
                params={"rule": Line(code=f"{game_id}.rule.{rule}"), "choice": Line(code=f"{game_id}.rule.{rule}.{value}")},
                changed=value != defaults[rule],
            )
        )
    return Section(key="house_rules", heading=Line(code="card.house_rules"), lines=tuple(lines))


def _vabanque(o: Mapping[str, Any]) -> list[Section]:
    g = "vabanque"
    return [
        _section(g, "goal", "money", "end"),
        _section(g, "round", "chips", "chip_values", "cards", "pawns", "payout", "order"),
        _section(g, "cards", f"raise.{o['raise_rule']}", "bluff", "cheat"),
        _section(
            g,
            "payout",
            "secret",
            f"value.{o['raise_rule']}",
            _line(f"card.{g}.payout.pawn", amount=1000),
            _line(f"card.{g}.payout.cheat", amount=1000),
            "full",
        ),
    ]


def _corruption(o: Mapping[str, Any]) -> list[Section]:
    g = "corruption"
    closed = o["variant"] == "closed"
    play = ["any", "swiss", f"face.{o['variant']}"]
    if not closed:
        play.append("swiss_down")
    if o["little_black_book"]:
        play.append("black_book")
    if closed:
        cards = _section(g, "cards", "bribe", "closed")
    else:
        cards = _section(
            g,
            "cards",
            "bribe",
            "hitman",
            "hitman_own." + ("immune" if o["own_cards_immune"] else "allowed"),
            "da",
            "reporter." + ("optional" if o["reporter_optional"] else "must"),
        )
    award = [f"order.{o['resolution_order']}", "swiss"]
    if not closed:
        award += ["hitmen", "das", "reporters"]
    award += ["highest", "tie"]
    return [
        _section(g, "goal", "value", "end"),
        _section(g, "round", "deal", "leader", f"leader_tie.{o['leader_tie']}", "play", "award"),
        _section(g, "play", *play),
        cards,
        _section(g, "award", *award),
    ]


def _chicago_poker(o: Mapping[str, Any]) -> list[Section]:
    g = "chicago_poker"
    ranking = {"recommended": RECOMMENDED_RANKING, "rarity": RARITY_RANKING}.get(o["hand_ranking"], o["custom_ranking"])
    sections = [
        _section(g, "goal", "short" if o["short_game"] else "full", "last"),
        _section(g, "turn", "actions", "recruit", "influence", "first_turn", "limit", "shootouts_first"),
        _section(g, "gangsters", "column", "speakeasy", "jazz_club", "brewery", "gambling_house", "own_hidden"),
        _section(
            g,
            "shootout",
            "marker",
            f"later.{o['later_markers']}",
            "when",
            "reveal",
            "winner",
            f"order.{o['marker_order']}",
            "tie",
            f"empty_hand.{o['empty_hand_reinforcement']}",
            f"special.{o['special_reinforcement']}",
        ),
        _section(
            g,
            "hands",
            *[_line(f"card.{g}.hands.rank", n=i + 1, hand=hand) for i, hand in enumerate(ranking)],
            "chicago",
            "rainbow",
            "partial",
        ),
    ]
    if o["special_cards"]:
        sections.append(
            _section(g, "specials", "liquidation", "police_raid", "limousine", f"limousine.{o['limousine_marker']}", "revolver", "bribe")
        )
    else:
        sections.append(_section(g, "specials", "none"))
    return sections


def _reglement(o: Mapping[str, Any]) -> list[Section]:
    g = "reglement"
    if o["seating"] == "free":
        seating = ["free", f"seating_order.{o['seating_order']}"]
    else:
        seating = ["preset"]
    return [
        _section(g, "goal", "money", "out"),
        _section(g, "setup", "hand", *seating),
        _section(g, "turn", "cake", "income", "cards", "no_action_after_move", "draw", f"wake.{o['wake_up']}", "next"),
        _section(g, "gangsters", "parrain", "flingueur", "lame", "cogneur"),
        _section(
            g,
            "income",
            _line(f"card.{g}.income.parrain", amount=1000),
            _line(f"card.{g}.income.business", amount=1000),
            _line(f"card.{g}.income.monopoly", amount=4000),
            "register",
            f"sleepers.{o['sleepers_earn']}",
            "bank",
        ),
        _section(
            g,
            "menu",
            "knife",
            "pan",
            f"targets.{o['own_targets']}",
            f"neighbour.{o['empty_neighbour']}",
            "order_cake",
            f"blast.{o['blast']}",
            "pass_cake",
            f"pass_onto.{o['pass_onto_cake']}",
            "boum",
            f"boumed.{o['boumed_cake']}",
            f"pills.{o['pills_per_card']}",
            "sleep",
            "alerte",
            f"alerte_pills.{o['alerte_pills']}",
            f"alerte_cakes.{o['alerte_cakes']}",
            f"alerte_card.{o['alerte_card']}",
            "move",
        ),
        _section(g, "end", "when", "winner", f"tie.{o['tie_in_play']}"),
    ]


_BUILDERS = {"vabanque": _vabanque, "corruption": _corruption, "chicago_poker": _chicago_poker, "reglement": _reglement}


def rule_card(game_id: str, setup: BaseModel | Mapping[str, Any] | None = None) -> RuleCard:
    """The quick reference of `game_id` for a room with this setup (None: the default options)."""
    opts = options(game_id, setup)
    sections = [*_BUILDERS[game_id](opts), house_rules_section(game_id, opts)]
    return RuleCard(game=game_id, title=Line(code=f"game.{game_id}"), sections=tuple(sections))


def line_codes(line: Line) -> list[str]:
    """The codes a line renders (its own and its nested lines')."""
    codes = [line.code]
    for value in line.params.values():
        if isinstance(value, Line):
            codes.extend(line_codes(value))
    return codes


def card_codes(card: RuleCard) -> list[str]:
    codes = line_codes(card.title)
    for section in card.sections:
        codes.extend(line_codes(section.heading))
        for line in section.lines:
            codes.extend(line_codes(line))
    return codes


def render_line(tr: Translator, line: Line) -> str:
    params = {k: render_line(tr, v) if isinstance(v, Line) else v for k, v in line.params.items()}
    return tr.t(line.code, **params)


def card_text(card: RuleCard, tr: Translator) -> RenderedCard:
    return RenderedCard(
        title=render_line(tr, card.title),
        sections=tuple(
            RenderedSection(
                key=s.key,
                heading=render_line(tr, s.heading),
                lines=tuple(render_line(tr, ln) for ln in s.lines),
                changed=tuple(ln.changed for ln in s.lines),
            )
            for s in card.sections
        ),
    )


# --- the text ----------------------------------------------------------------------------------

MESSAGES: dict[str, str] = {
    "card.house_rules": "House rules at this table",
    "card.house_rule": "{rule}: {choice}",
    # -- Vabanque (docs/rules/vabanque.md) --
    "card.vabanque.goal": "Goal",
    "card.vabanque.goal.money": "Have the most money after 4 rounds: guess which tables will pay.",
    "card.vabanque.goal.end": "Equal richest players all win.",
    "card.vabanque.round": "A round, in turn order",
    "card.vabanque.round.chips": "1. Chips: one at a time on any table. They stay there all game.",
    "card.vabanque.round.chip_values": "Each player: round 1 four 5s, round 2 three 10s, round 3 two 20s, round 4 one 50.",
    "card.vabanque.round.cards": "2. Cards: one at a time, face down, next to any table, three times round.",
    "card.vabanque.round.pawns": "3. Pawns: stay, or move 1 to 4 tables clockwise.",
    "card.vabanque.round.payout": "4. Payout at every table with a pawn.",
    "card.vabanque.round.order": "5. New order: richest first; tied players play in reverse of their last order.",
    "card.vabanque.cards": "Your three cards",
    "card.vabanque.cards.raise.additive": "Raise: each Raise adds the chips once more: ×2, ×3, ×4.",
    "card.vabanque.cards.raise.doubling": "Raise: each Raise doubles the table: ×2, ×4, ×8.",
    "card.vabanque.cards.bluff": "Bluff: does nothing. It only hides your plans.",
    "card.vabanque.cards.cheat": "Cheat: blocks the other players' pawns at its table and collects for each of them.",
    "card.vabanque.payout": "Payout",
    "card.vabanque.payout.secret": "Only tables with a pawn are revealed; the others stay secret and pay nothing.",
    "card.vabanque.payout.value.additive": "Table value = its chips × (1 + number of Raises).",
    "card.vabanque.payout.value.doubling": "Table value = its chips × 2 for each Raise.",
    "card.vabanque.payout.pawn": "Each pawn: value × {amount:money}, unless another player's Cheat is there. Your own Cheat never blocks your pawn.",
    "card.vabanque.payout.cheat": "Each Cheat: value × {amount:money} for every pawn of another player there.",
    "card.vabanque.payout.full": "Pawns do not share: each one gets the full amount.",
    # -- Corruption (docs/rules/corruption.md) --
    "card.corruption.goal": "Goal",
    "card.corruption.goal.value": "Win the highest total value of contracts in 4 rounds.",
    "card.corruption.goal.end": "Contracts left on the table at the end are worth nothing. Tie: more contracts wins, then a shared win.",
    "card.corruption.round": "A round",
    "card.corruption.round.deal": "1. Deal 2 new contracts under each body: City Hall, County Seat, Capitol. Deferred contracts stay.",
    "card.corruption.round.leader": "2. The leading player starts: most contract value; tie: more contracts.",
    "card.corruption.round.leader_tie.random": "Still tied: drawn at random.",
    "card.corruption.round.leader_tie.clockwise": "Still tied: the first of them clockwise after the last leader.",
    "card.corruption.round.play": "3. Clockwise, one card at a time, until everyone has played 6.",
    "card.corruption.round.award": "4. Reveal everything and award the contracts. Characters played are out of the game; bribes go back to hand.",
    "card.corruption.play": "Playing a card",
    "card.corruption.play.any": "Any card: upright under any contract. Several cards per contract are allowed.",
    "card.corruption.play.swiss": "A bribe only: sideways on a body's Swiss account, worth half.",
    "card.corruption.play.face.standard": "Face up: your first card in round 1, your first 2 in round 2, 3 in round 3, 4 in round 4. The rest face down.",
    "card.corruption.play.face.down_the_river": "Face up: round 1 your 3rd card; round 2 the 3rd and 4th; round 3 the 2nd to 4th; round 4 the 2nd to 5th.",
    "card.corruption.play.face.free_stud": "Each round the leading player chooses which of the 6 card positions go face up.",
    "card.corruption.play.face.closed": "Every card face down.",
    "card.corruption.play.swiss_down": "A Swiss card is always face down, even in a face-up turn.",
    "card.corruption.play.black_book": "Little Black Book: twice per game, look secretly at one face-down card under a contract (never a Swiss card).",
    "card.corruption.cards": "The cards",
    "card.corruption.cards.bribe": "Bribe ($1,000 to $10,000): counts for its owner on its contract.",
    "card.corruption.cards.hitman": "Hit man: must kill a District attorney, Reporter or Hit man on its contract, if there is one.",
    "card.corruption.cards.hitman_own.allowed": "A hit man may kill its owner's own cards.",
    "card.corruption.cards.hitman_own.immune": "A hit man never kills its owner's own cards.",
    "card.corruption.cards.da": "District attorney: cancels its contract for this round; the contract stays, deferred.",
    "card.corruption.cards.reporter.optional": "Reporter: may remove one upright bribe (anyone's) from its contract.",
    "card.corruption.cards.reporter.must": "Reporter: must remove one upright bribe (anyone's) from its contract, if there is one.",
    "card.corruption.cards.closed": "Closed game: no characters; each player plays their 6 bribes.",
    "card.corruption.award": "Awarding the contracts",
    "card.corruption.award.order.location": "Order: City Hall, County Seat, Capitol; in each, the Swiss account, then the contracts left to right; cards in the order played.",
    "card.corruption.award.order.play": "Order: all cards in the order they were played.",
    "card.corruption.award.swiss": "1. Swiss bribes: each owner assigns theirs to a contract of that body, at half value.",
    "card.corruption.award.hitmen": "2. Hit men kill.",
    "card.corruption.award.das": "3. District attorneys cancel their contracts.",
    "card.corruption.award.reporters": "4. Reporters remove bribes (never Swiss ones).",
    "card.corruption.award.highest": "Highest total (upright bribes + assigned Swiss halves) wins the contract.",
    "card.corruption.award.tie": "A tie, or no bribes: nobody wins it; it stays, deferred.",
    # -- Chicago Poker (docs/rules/chicago_poker.md) --
    "card.chicago_poker.goal": "Goal",
    "card.chicago_poker.goal.full": "Be first to control 3 businesses of one type, or one of each of the 4 types, or any 5.",
    "card.chicago_poker.goal.short": "Short game: be first to control 2 businesses of one type, or any 3.",
    "card.chicago_poker.goal.last": "The last business is taken and nobody has won: whoever took it wins.",
    "card.chicago_poker.turn": "Your turn",
    "card.chicago_poker.turn.actions": "3 actions, in any order and mix:",
    "card.chicago_poker.turn.first_turn": "First round only: the first player has 1 action, the second 2.",
    "card.chicago_poker.turn.recruit": "Recruit: draw the top card.",
    "card.chicago_poker.turn.influence": "Influence: play a card: a gangster at a business, or a special card.",
    "card.chicago_poker.turn.limit": "At most 7 cards in hand at the end of your turn.",
    "card.chicago_poker.turn.shootouts_first": "Your shootouts are settled at the start of your turn, before your actions.",
    "card.chicago_poker.gangsters": "Gangsters at a business",
    "card.chicago_poker.gangsters.column": "Up to 5 of your cards per business, on your side. Your 1st to 5th card:",
    "card.chicago_poker.gangsters.speakeasy": "Speakeasy: down, down, up, up, up.",
    "card.chicago_poker.gangsters.jazz_club": "Jazz club: up, up, up, down, down.",
    "card.chicago_poker.gangsters.brewery": "Brewery: all face up.",
    "card.chicago_poker.gangsters.gambling_house": "Gambling house: up, down, up, down, up.",
    "card.chicago_poker.gangsters.own_hidden": "You may look at your own face-down cards at any time.",
    "card.chicago_poker.shootout": "Shootouts",
    "card.chicago_poker.shootout.marker": "Your 5th card at a business: put a shootout marker on your cards there.",
    "card.chicago_poker.shootout.later.marker": "Another player who fills it too also takes a marker: their cards are protected.",
    "card.chicago_poker.shootout.later.none": "Another player who fills it too takes no marker.",
    "card.chicago_poker.shootout.when": "It is settled at the start of your next turn; until then others may still add cards.",
    "card.chicago_poker.shootout.reveal": "All cards there face up; the best poker hand wins. Fewer than 5 cards may win.",
    "card.chicago_poker.shootout.winner": "The winner takes the business; every card there is discarded; a new business is turned up.",
    "card.chicago_poker.shootout.order.choose": "Several of your shootouts at once: you choose the order.",
    "card.chicago_poker.shootout.order.placed_first": "Several of your shootouts at once: the first marked goes first.",
    "card.chicago_poker.shootout.tie": "Tie: each tied player adds one card face down; the highest value wins. Repeat while tied.",
    "card.chicago_poker.shootout.empty_hand.deck_top": "No card in hand: turn up the top card of the deck.",
    "card.chicago_poker.shootout.empty_hand.out": "No card in hand: you drop out of the tie.",
    "card.chicago_poker.shootout.special.forbidden": "A special card cannot be sent as a reinforcement.",
    "card.chicago_poker.shootout.special.if_forced": "A special card cannot be sent as a reinforcement, unless you hold no gangster card: then it is worth 0.",
    "card.chicago_poker.shootout.special.zero": "A special card sent as a reinforcement is worth 0.",
    "card.chicago_poker.hands": "Hands, best first",
    "card.chicago_poker.hands.rank": "{n:num}. {hand:label=chicago_poker.hand}",
    "card.chicago_poker.hands.chicago": "Chicago Poker: five cards of the same value.",
    "card.chicago_poker.hands.rainbow": "Rainbow straight: five values in a row in five different colours.",
    "card.chicago_poker.hands.partial": "Values 1 to 15, no wrap-around. Straights, flushes and full houses need 5 cards.",
    "card.chicago_poker.specials": "Special cards (played, then discarded)",
    "card.chicago_poker.specials.liquidation": "Liquidation: another player discards the last card they played at a business (not cards under a marker).",
    "card.chicago_poker.specials.police_raid": "Police Raid: look secretly at another player's face-down cards at one business.",
    "card.chicago_poker.specials.limousine": "Limousine: move up to 4 of your cards from one business to another, turned to the new pattern. Not cards under a marker.",
    "card.chicago_poker.specials.limousine.marker": "A 5th card arriving by Limousine places a shootout marker.",
    "card.chicago_poker.specials.limousine.none": "A 5th card arriving by Limousine places no marker.",
    "card.chicago_poker.specials.revolver": "Revolver: +2 actions this turn.",
    "card.chicago_poker.specials.bribe": "Bribe: take any card from the discard pile, then shuffle the discards into the deck.",
    "card.chicago_poker.specials.none": "Tactical game: no special cards, gangsters only.",
    # -- Règlement de comptes (docs/rules/reglement.md) --
    "card.reglement.goal": "Goal",
    "card.reglement.goal.money": "Collect the most money.",
    "card.reglement.goal.out": "A player whose gang is wiped out is out, keeps their money and can still win.",
    "card.reglement.setup": "Setup",
    "card.reglement.setup.hand": "5 cards each, kept secret.",
    "card.reglement.setup.free": "The youngest seats a gangster, then counter-clockwise; the last to place starts.",
    "card.reglement.setup.seating_order.one_at_a_time": "Seating: one gangster at a time.",
    "card.reglement.setup.seating_order.whole_gang": "Seating: a whole gang at a time.",
    "card.reglement.setup.preset": "The gangsters start on the seating the table saved.",
    "card.reglement.turn": "Your turn",
    "card.reglement.turn.cake": "1. Your cake explodes if you ordered it last turn; then it comes back to you.",
    "card.reglement.turn.income": "2. Take your income from the bank.",
    "card.reglement.turn.cards": "3. Play 1 Action card (+ 1 Déplacement if you like), or 2 Déplacements, or set 1 card aside.",
    "card.reglement.turn.no_action_after_move": "No Action card after a Déplacement.",
    "card.reglement.turn.draw": "Draw back up to 5 cards.",
    "card.reglement.turn.wake.automatic": "4. Wake-up: all your sleeping gangsters wake.",
    "card.reglement.turn.wake.optional": "4. Wake-up: you choose which of your sleeping gangsters wake.",
    "card.reglement.turn.wake.choose": "4. Wake-up: after drawing, you choose which of your sleeping gangsters wake: any, all or none.",
    "card.reglement.turn.next": "Then the player on your left.",
    "card.reglement.gangsters": "Your gang",
    "card.reglement.gangsters.parrain": "Parrain: brings income while alive.",
    "card.reglement.gangsters.flingueur": "Flingueur: can shoot (Pan!) the gangster opposite.",
    "card.reglement.gangsters.lame": "Lame d'Acier: can stab (Coup de couteau) a neighbour.",
    "card.reglement.gangsters.cogneur": "Cogneur: no weapon of his own, but can use a knife or revolver seat.",
    "card.reglement.income": "Income",
    "card.reglement.income.parrain": "Parrain alive: +{amount:money}.",
    "card.reglement.income.business": "Each bar, restaurant or gambling house seat you hold: +{amount:money}.",
    "card.reglement.income.monopoly": "Both seats of one kind: +{amount:money} instead.",
    "card.reglement.income.register": "A gangster at the cash register doubles it all.",
    "card.reglement.income.sleepers.no": "Sleeping gangsters earn nothing.",
    "card.reglement.income.sleepers.yes": "Sleeping gangsters earn as if awake.",
    "card.reglement.income.bank": "The bank cannot pay in full: take what is left; the game ends.",
    "card.reglement.menu": "Menu: the cards",
    "card.reglement.menu.knife": "Coup de couteau: kill a gangster next to one of your Lames d'Acier, or next to any of yours at a knife.",
    "card.reglement.menu.pan": "Pan!: kill a gangster opposite one of your Flingueurs, or opposite any of yours at a revolver. A Flingueur on an X seat cannot shoot.",
    "card.reglement.menu.targets.forbidden": "Coup de couteau and Pan! hit opponents only.",
    "card.reglement.menu.targets.allowed": "Coup de couteau and Pan! may hit your own gangsters too.",
    "card.reglement.menu.neighbour.no_skip": "Only the seat right beside counts, even if it is empty.",
    "card.reglement.menu.neighbour.skip": "Empty seats are skipped: the nearest gangster counts.",
    "card.reglement.menu.order_cake": "Commander un gâteau: put your cake on any seat without a cake. It explodes at the start of your next turn.",
    "card.reglement.menu.blast.neighbours": "A blast kills the cake's seat and both neighbours, whatever their colour, yours too.",
    "card.reglement.menu.blast.neighbours_and_facing": "A blast kills the cake's seat, both neighbours and the seat facing it, whatever their colour, yours too.",
    "card.reglement.menu.pass_cake": "Faites passer le gâteau: move an opponent's cake to the nearest gangster on its left or right.",
    "card.reglement.menu.pass_onto.skip": "That gangster already has a cake: go on to the next one.",
    "card.reglement.menu.pass_onto.blocked": "Never onto a gangster who already has a cake.",
    "card.reglement.menu.boum": "Boum!: blow up an opponent's cake on the table, now.",
    "card.reglement.menu.boumed.returns": "The cake then goes back to its owner.",
    "card.reglement.menu.boumed.removed": "The cake then leaves the game.",
    "card.reglement.menu.pills.up_to_3": "Cocktail et somnifère: a pill on 1 to 3 opponents at a glass, one each.",
    "card.reglement.menu.pills.exactly_3": "Cocktail et somnifère: a pill on 3 opponents at a glass, one each (fewer only if fewer can be reached).",
    "card.reglement.menu.sleep": "Asleep: earns nothing, cannot kill or move, can be killed. A second pill kills.",
    "card.reglement.menu.alerte": "Alerte!: every gangster leaves the table; survivors are re-seated from you, counter-clockwise; then you may play a Déplacement.",
    "card.reglement.menu.alerte_pills.stay": "Alerte!: pills stay on their gangsters.",
    "card.reglement.menu.alerte_pills.removed": "Alerte!: pills are removed, everyone wakes.",
    "card.reglement.menu.alerte_cakes.stay": "Alerte!: cakes stay on their seats.",
    "card.reglement.menu.alerte_cakes.returned": "Alerte!: cakes go back to their owners.",
    "card.reglement.menu.alerte_card.reshuffled": "The Alerte! card is set aside like any card.",
    "card.reglement.menu.alerte_card.leaves_game": "The Alerte! card leaves the game.",
    "card.reglement.menu.move": "Déplacement: move one of your awake gangsters to any empty seat.",
    "card.reglement.end": "End of the game",
    "card.reglement.end.when": "It ends when one player alone has gangsters (they take the whole bank), the bank is empty, or one blast kills the last gangsters.",
    "card.reglement.end.winner": "Most money wins. Tie: whose gangsters stayed longest, then more gangsters at elimination.",
    "card.reglement.end.tie.living_gangsters": "Tied and both still in play: more living gangsters wins, else shared.",
    "card.reglement.end.tie.shared": "Tied and both still in play: the win is shared.",
}
