"""Chicago Poker hand evaluation (docs/rules/chicago_poker.md#hands: categories, order, ties).

A card is a `(value, colour)` pair: values 1..15 with no wrap-around and no ace, colours any
hashable (the engine uses "c1".."c5"). Hands may have 1 to 5 cards (partial hands take part in
shootouts). Pure functions only: the engine and the tests share them.

Categories are not exclusive: a hand *makes* every category it satisfies (a straight flush is
also a flush and a straight; a full house also makes three of a kind, two pairs and a pair). Its
category under a ranking is the highest-ranked one it makes. Under the recommended ranking this
is the usual exclusive classification; under a table's own ranking a hand never scores below a
weaker reading of itself.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Literal, NamedTuple

Category = Literal[
    "chicago_poker",
    "straight_flush",
    "rainbow_straight",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
    "two_pairs",
    "pair",
    "high_card",
]

#: docs/rules/chicago_poker.md#hand-order, "recommended": standard poker plus Chicago Poker on top and the rainbow straight just
#: above a plain straight. Highest first.
RECOMMENDED_RANKING: tuple[Category, ...] = (
    "chicago_poker",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "rainbow_straight",
    "straight",
    "three_of_a_kind",
    "two_pairs",
    "pair",
    "high_card",
)

#: The main alternative (docs/rules/chicago_poker.md#hand-order, "rarity"): rarer hands rank higher.
RARITY_RANKING: tuple[Category, ...] = (
    "chicago_poker",
    "straight_flush",
    "rainbow_straight",
    "four_of_a_kind",
    "flush",
    "full_house",
    "straight",
    "three_of_a_kind",
    "two_pairs",
    "pair",
    "high_card",
)

CATEGORIES: frozenset[str] = frozenset(RECOMMENDED_RANKING)
#: a category by its name (a ranking read from a setup is strings)
_CATEGORY_NAMED: dict[str, Category] = {category: category for category in RECOMMENDED_RANKING}
HAND_SIZE = 5
COLOURS_IN_DECK = 5

CardLike = tuple[int, Hashable]


class Hand(NamedTuple):
    """A hand's category under some ranking and its tie-break values (most significant first).

    Tie-break tuples compare lexicographically; a missing card counts lower than any card, so
    with everything else equal the longer tuple (the fuller hand) wins (docs/rules/chicago_poker.md#equal-hands).
    """

    category: Category
    ranks: tuple[int, ...]


def _desc(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(values, reverse=True))


def _without(values: Sequence[int], value: int, count: int) -> tuple[int, ...]:
    """The other values, highest first, after taking `count` copies of `value` out."""
    rest = list(values)
    for _ in range(count):
        rest.remove(value)
    return _desc(rest)


class _Reading:
    """Everything the category tests need, computed once per hand."""

    __slots__ = ("values", "counts", "size", "colours", "consecutive", "most")

    def __init__(self, cards: Sequence[CardLike]) -> None:
        self.values = values = [value for value, _ in cards]
        counts: dict[int, int] = {}
        for value in values:
            counts[value] = counts.get(value, 0) + 1
        self.counts = counts
        self.size = len(values)
        self.colours = len({colour for _, colour in cards})
        #: the largest number of cards sharing a value
        self.most = max(counts.values())
        self.consecutive = (
            self.size == HAND_SIZE and len(counts) == HAND_SIZE and max(counts) - min(counts) == HAND_SIZE - 1
        )

    def set_of(self, size: int) -> int | None:
        """Highest value held at least `size` times."""
        if self.most < size:
            return None
        return max(value for value, count in self.counts.items() if count >= size)

    # One method per category: the tie-break values if the hand makes it, else None.

    def chicago_poker(self) -> tuple[int, ...] | None:
        return (self.values[0],) if self.most == HAND_SIZE else None

    def straight_flush(self) -> tuple[int, ...] | None:
        return (max(self.values),) if self.consecutive and self.colours == 1 else None

    def rainbow_straight(self) -> tuple[int, ...] | None:
        return (max(self.values),) if self.consecutive and self.colours == COLOURS_IN_DECK else None

    def straight(self) -> tuple[int, ...] | None:
        return (max(self.values),) if self.consecutive else None

    def flush(self) -> tuple[int, ...] | None:
        return _desc(self.values) if self.size == HAND_SIZE and self.colours == 1 else None

    def four_of_a_kind(self) -> tuple[int, ...] | None:
        value = self.set_of(4)
        return None if value is None else (value, *_without(self.values, value, 4))

    def three_of_a_kind(self) -> tuple[int, ...] | None:
        value = self.set_of(3)
        return None if value is None else (value, *_without(self.values, value, 3))

    def full_house(self) -> tuple[int, ...] | None:
        triple = self.set_of(3)
        if triple is None:
            return None
        pairs = [value for value, count in self.counts.items() if count >= 2 and value != triple]
        return (triple, max(pairs)) if pairs else None

    def two_pairs(self) -> tuple[int, ...] | None:
        if self.most < 2:
            return None
        pairs = sorted((value for value, count in self.counts.items() if count >= 2), reverse=True)
        if len(pairs) < 2:
            return None
        high, low = pairs[:2]
        rest = list(self.values)
        for value in (high, high, low, low):
            rest.remove(value)
        return (high, low, *_desc(rest))

    def pair(self) -> tuple[int, ...] | None:
        value = self.set_of(2)
        return None if value is None else (value, *_without(self.values, value, 2))

    def high_card(self) -> tuple[int, ...] | None:
        return _desc(self.values)


#: category -> the reading's test for it
_TESTS = {category: getattr(_Reading, category) for category in RECOMMENDED_RANKING}


def check_ranking(ranking: Sequence[str]) -> tuple[Category, ...]:
    """A ranking must list every category exactly once (highest first)."""
    if len(ranking) != len(CATEGORIES) or set(ranking) != CATEGORIES:
        raise ValueError("a hand ranking must list each of the 11 hand categories exactly once")
    return tuple(_CATEGORY_NAMED[name] for name in ranking)


def check_cards(cards: Sequence[CardLike]) -> None:
    if not 1 <= len(cards) <= HAND_SIZE:
        raise ValueError(f"a hand has 1 to {HAND_SIZE} cards, not {len(cards)}")
    if len(set(cards)) != len(cards):
        raise ValueError("a hand cannot hold the same card twice")


def made_categories(cards: Sequence[CardLike]) -> dict[Category, tuple[int, ...]]:
    """Every category the cards make, with its tie-break values."""
    check_cards(cards)
    reading = _Reading(cards)
    made: dict[Category, tuple[int, ...]] = {}
    for category in RECOMMENDED_RANKING:
        ranks = _TESTS[category](reading)
        if ranks is not None:
            made[category] = ranks
    return made


def evaluate(cards: Sequence[CardLike], ranking: Sequence[Category] = RECOMMENDED_RANKING) -> Hand:
    """The hand's best category under `ranking` and its tie-break values."""
    check_cards(cards)
    reading = _Reading(cards)
    for category in ranking:
        ranks = _TESTS[category](reading)
        if ranks is not None:
            return Hand(category, ranks)
    raise AssertionError("every hand makes high card")  # pragma: no cover


def strength(hand: Hand, ranking: Sequence[Category] = RECOMMENDED_RANKING) -> tuple[int, tuple[int, ...]]:
    """A sort key: higher is better. Equal keys are a tie (reinforcements decide)."""
    return (len(ranking) - ranking.index(hand.category), hand.ranks)


def hand_key(cards: Sequence[CardLike], ranking: Sequence[Category] = RECOMMENDED_RANKING) -> tuple[int, tuple[int, ...]]:
    return strength(evaluate(cards, ranking), ranking)


def compare(a: Sequence[CardLike], b: Sequence[CardLike], ranking: Sequence[Category] = RECOMMENDED_RANKING) -> int:
    """1 if hand `a` beats `b`, -1 if it loses, 0 on a tie."""
    key_a, key_b = hand_key(a, ranking), hand_key(b, ranking)
    return (key_a > key_b) - (key_a < key_b)


def best_of(hands: Mapping[int, Sequence[CardLike]], ranking: Sequence[Category] = RECOMMENDED_RANKING) -> tuple[int, ...]:
    """The seats whose hands tie for best (one seat: a clear winner)."""
    keys = {seat: hand_key(cards, ranking) for seat, cards in hands.items()}
    top = max(keys.values())
    return tuple(sorted(seat for seat, key in keys.items() if key == top))
