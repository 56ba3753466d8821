"""Final standings: the same typed rows for every game, built by each game module's
`standings(state)` once the game is over (None before).

A row says where a player finished (`rank`, 1 = winner; players the rules cannot separate share a
rank, and the next rank skips: 1, 1, 3), their final money or score, and how they got there
(`details`: message codes with parameters, per game: payouts per round, contracts won, ...).
Ranks follow each game's own tie rules (docs/rules/, each game's End): the game gives every seat a sort key whose
first element says whether the rules made it a winner, so rank 1 is exactly `result()["winners"]`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from companion.engine import Model
from companion.translation import MessageTranslator


class Detail(Model):
    """One line of how a player got there: a message code and its parameters."""

    code: str
    params: dict[str, Any] = {}


class Standing(Model):
    rank: int
    seat: int
    #: the final figure the game is won on: money (Vabanque, Règlement) or a score
    score: int
    kind: Literal["money", "score"]
    winner: bool
    details: tuple[Detail, ...] = ()


def ranked(
    keys: Sequence[tuple[Any, ...]],
    scores: Sequence[int],
    winners: Sequence[int],
    kind: Literal["money", "score"],
    details: Sequence[Sequence[Detail]],
) -> tuple[Standing, ...]:
    """Rows best first. `keys[seat]` orders the players (higher is better) and already holds the
    game's tie-breaks; equal keys share a rank. Winners come first whatever their key (the game's
    own verdict), and seats with the same key keep seat order."""
    winner_set = set(winners)
    full = [(seat in winner_set, *keys[seat]) for seat in range(len(keys))]
    order = sorted(range(len(keys)), key=lambda s: (tuple(-k if isinstance(k, (int, float, bool)) else k for k in full[s]), s))
    rows: list[Standing] = []
    for position, seat in enumerate(order):
        rank = rows[-1].rank if rows and full[order[position - 1]] == full[seat] else position + 1
        rows.append(
            Standing(rank=rank, seat=seat, score=scores[seat], kind=kind, winner=seat in winner_set, details=tuple(details[seat]))
        )
    return tuple(rows)


def rank_of(standings: Sequence[Standing], seat: int) -> Standing:
    return next(row for row in standings if row.seat == seat)


#: the largest table any game seats (places are named up to here)
MAX_PLACES = 8

#: Codes -> English of the places and of each game's details (the standings page's own labels are
#: the views': views/labels/pages.py); registered in companion.i18n.MESSAGE_MODULES.
MESSAGES: dict[str, str] = {
    **{f"standing.place.{n}": {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th") for n in range(1, MAX_PLACES + 1)},
    "standing.vabanque.round": "Round {round:num}: {amount:money} paid",
    "standing.corruption.contracts": "{n:plural:one=# contract won|other=# contracts won}",
    "standing.corruption.contract": "{name} (dealt in round\u00a0{round:num}): {amount:money}",
    "standing.chicago_poker.businesses": "{n:plural:one=# business controlled|other=# businesses controlled}",
    "standing.chicago_poker.business": "{kind:label=chicago_poker.business} × {n:num}",
    "standing.reglement.in_play": "Still in play with {n:plural:one=# gangster|other=# gangsters}",
    "standing.reglement.out": "Knocked out ({n:plural:one=# gangster|other=# gangsters} on the table at the end)",
}


def place(tr: MessageTranslator, rank: int) -> str:
    """A place in the reader's language ("3rd", "3e", "3-е")."""
    return tr.t(f"standing.place.{min(rank, MAX_PLACES)}")


def detail_text(tr: MessageTranslator, names: Sequence[str], detail: Detail) -> str:
    return tr.t(detail.code, list(names), **detail.params)
