"""Shared builders for the Règlement de comptes tests (this module holds no tests).

`position()` writes a table down the way a person would describe it:

    position({"A": "yellow Cogneur", "E": "violet Lame asleep"}, cakes={"red": "#12"}, turn="red")

Players sit clockwise in the rulebook's turn order: yellow, red, blue, green, orange, violet
(the app's palette calls violet "purple"). Gangsters not placed on the table are dead.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from companion.engine import RuleError, Ruling
from companion.games.reglement import (
    DECK_SIZE,
    GAME,
    GANG_BY_PLAYERS,
    HAND_SIZE,
    KIND_NAMES,
    KINDS,
    MESSAGES,
    Discard,
    EndTurn,
    Gangster,
    Setup,
    State,
)
from companion.players import Player

COLOURS = ("yellow", "red", "blue", "green", "orange", "violet")
YELLOW, RED, BLUE, GREEN, ORANGE, VIOLET = range(6)


def seat_of(colour: str) -> int:
    return COLOURS.index(colour)


def players(n: int) -> tuple[Player, ...]:
    palette = {"violet": "purple"}
    return tuple(Player(name=c.title(), colour=palette.get(c, c)) for c in COLOURS[:n])  # type: ignore[arg-type]


def make_setup(n: int = 6, **fields: Any) -> Setup:
    return Setup(players=players(n), **fields)


def _kind(word: str) -> str:
    for kind, name in KIND_NAMES.items():
        if name.lower().startswith(word.lower()):
            return kind
    raise ValueError(f"unknown gangster type {word!r}")


def position(
    table: dict[str, str],
    *,
    n: int = 6,
    cakes: dict[str, str] | None = None,
    money: dict[str, int] | None = None,
    bank: int | None = None,
    turn: str = "yellow",
    cards_played: tuple[str, ...] = (),
    discarded: bool = False,
    out: dict[str, tuple[int, int]] | None = None,
    setup: Setup | None = None,
    **house: Any,
) -> State:
    """A mid-game state. `table`: seat -> "colour Kind [asleep]"; every other gangster is dead.
    `out`: colour -> (elimination moment, gangsters at elimination) for players already out."""
    setup = setup or make_setup(n, **house)
    n = len(setup.players)
    gang = [
        [Gangster(owner=p, kind=kind, alive=False) for kind, count in zip(KINDS, GANG_BY_PLAYERS[n]) for _ in range(count)]
        for p in range(n)
    ]
    for seat, text in table.items():
        words = text.split()
        owner, kind, asleep = seat_of(words[0]), _kind(words[1]), words[-1] == "asleep"
        slot = next(i for i, g in enumerate(gang[owner]) if g.kind == kind and not g.alive)
        gang[owner][slot] = Gangster(owner=owner, kind=kind, seat=seat, asleep=asleep)
    money_t = [0] * n
    for colour, amount in (money or {}).items():
        money_t[seat_of(colour)] = amount
    total = {3: 120_000, 4: 90_000, 5: 70_000, 6: 60_000}[n]
    out_moment: list[int | None] = [None] * n
    out_gangsters = [0] * n
    for colour, (moment, count) in (out or {}).items():
        out_moment[seat_of(colour)], out_gangsters[seat_of(colour)] = moment, count
    for p in range(n):
        if out_moment[p] is None and not any(g.alive for g in gang[p]):
            out_moment[p] = 0
    cake_t: list[str | None] = [None] * n
    for colour, seat in (cakes or {}).items():
        cake_t[seat_of(colour)] = seat
    in_hands = sum(HAND_SIZE for p in range(n) if out_moment[p] is None)
    used = len(cards_played) + int(discarded)
    return State(
        setup=setup,
        seed=0,
        phase="play",
        gangsters=tuple(g for gangsters in gang for g in gangsters),
        cakes=tuple(cake_t),
        cakes_gone=(False,) * n,
        money=tuple(money_t),
        bank=total - sum(money_t) if bank is None else bank,
        turn=seat_of(turn),
        turn_number=10,
        cards_played=cards_played,  # type: ignore[arg-type]
        discarded=discarded,
        draw_pile=DECK_SIZE - in_hands,
        set_aside=used,
        hands=((),) * n,
        moment=max((m for m in out_moment if m is not None), default=0),
        out_moment=tuple(out_moment),
        out_gangsters=tuple(out_gangsters),
    )


def at(state: State, seat: str) -> str | None:
    """Who sits at `seat`, as "colour Kind [asleep]" (None: empty)."""
    for g in state.gangsters:
        if g.alive and g.seat == seat:
            kind = KIND_NAMES[g.kind].split()[0]  # "Lame d'Acier" is written "Lame"
            return f"{COLOURS[g.owner]} {kind}" + (" asleep" if g.asleep else "")
    return None


def play(state: State, *actions: Any) -> tuple[State, list[Ruling]]:
    """Apply actions in order; return the final state and every ruling on the way."""
    rulings: list[Ruling] = []
    for action in actions:
        outcome = GAME.apply(state, action)
        state = outcome.state
        rulings.extend(outcome.rulings)
    return state, rulings


def codes(rulings: list[Ruling]) -> list[str]:
    return [r.code for r in rulings]


def killed(rulings: list[Ruling]) -> list[str]:
    """Seats where a gangster died, in order."""
    return [r.params["at"] for r in rulings if r.code in ("reglement.killed", "reglement.killed_by_pill")]


def pass_turn(state: State) -> State:
    """The current player sets a card aside and ends the turn."""
    assert state.turn is not None
    return play(state, Discard(by=state.turn), EndTurn(by=state.turn))[0]


def refused(state: State, action: object) -> str:
    """Apply an illegal action: return its error code, after checking nothing changed and that
    the message's fields are all filled by the error's params."""
    before = state.model_dump_json()
    with pytest.raises(RuleError) as error:
        GAME.apply(state, action)
    assert state.model_dump_json() == before
    re.sub(r"\{(\w+):[^{}]+\}", r"{\1}", MESSAGES[error.value.code]).format(**error.value.params)
    return error.value.code
