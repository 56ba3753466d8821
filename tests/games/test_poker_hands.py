"""The Chicago Poker hand evaluator (companion/games/poker_hands.py, docs/rules/chicago_poker.md#hands).

Cards are (value, colour) pairs: values 1..15, five colours "a".."e" here.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import cache
from math import factorial, perm, prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.poker_hands import (
    RARITY_RANKING,
    RECOMMENDED_RANKING,
    best_of,
    check_ranking,
    compare,
    evaluate,
    hand_key,
    made_categories,
)

COLOURS = "abcde"


def hand(text: str) -> list[tuple[int, str]]:
    """'9a 9b 4c' -> [(9, 'a'), (9, 'b'), (4, 'c')]"""
    return [(int(card[:-1]), card[-1]) for card in text.split()]


def beats(a: str, b: str, ranking=RECOMMENDED_RANKING) -> bool:
    return compare(hand(a), hand(b), ranking) == 1


# --- every category on hand-made hands ---------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "category", "ranks"),
    [
        ("9a 9b 9c 9d 9e", "chicago_poker", (9,)),
        ("3c 4c 5c 6c 7c", "straight_flush", (7,)),
        ("11a 12b 13c 14d 15e", "rainbow_straight", (15,)),
        ("2a 2b 2c 2d 15a", "four_of_a_kind", (2, 15)),
        ("8a 8b 8c 1d 1e", "full_house", (8, 1)),
        ("1b 4b 9b 12b 15b", "flush", (15, 12, 9, 4, 1)),
        ("5a 6a 7b 8c 9d", "straight", (9,)),  # four colours: neither rainbow nor flush
        ("6a 7b 8c 9d 10a", "straight", (10,)),
        ("1a 2b 3c 4d 5a", "straight", (5,)),  # 1 is simply the lowest value: no wheel, no ace
        ("7a 7b 7c 2d 14e", "three_of_a_kind", (7, 14, 2)),
        ("11a 11b 6c 6d 3e", "two_pairs", (11, 6, 3)),
        ("9a 9b 15c 4d 2e", "pair", (9, 15, 4, 2)),
        ("15a 13b 9c 4d 2e", "high_card", (15, 13, 9, 4, 2)),
    ],
)
def test_each_category_on_a_five_card_hand(cards, category, ranks):
    assert evaluate(hand(cards)) == (category, ranks)


def test_no_wrap_around_and_no_ace():
    """Values run 1..15 with no wrap: 13-14-15-1-2 is not a straight."""
    assert evaluate(hand("13a 14b 15c 1d 2e")).category == "high_card"
    assert evaluate(hand("12a 13b 14c 15d 1e")).category == "high_card"


def test_rainbow_needs_five_colours_and_flush_one():
    assert evaluate(hand("3a 4b 5c 6d 7e")).category == "rainbow_straight"
    assert evaluate(hand("3a 4b 5c 6d 7d")).category == "straight"
    assert evaluate(hand("3a 4a 5a 6a 7a")).category == "straight_flush"
    assert evaluate(hand("3a 4a 5a 6a 9a")).category == "flush"


@pytest.mark.parametrize(
    ("cards", "category", "ranks"),
    [
        ("9a", "high_card", (9,)),
        ("9a 9b", "pair", (9,)),
        ("9a 9b 9c", "three_of_a_kind", (9,)),
        ("9a 9b 9c 9d", "four_of_a_kind", (9,)),
        ("9a 9b 4c 4d", "two_pairs", (9, 4)),
        ("9a 9b 9c 4d", "three_of_a_kind", (9, 4)),
        ("3a 4a 5a 6a", "high_card", (6, 5, 4, 3)),  # a straight or flush needs 5 cards
        ("3a 4b 5c 6d", "high_card", (6, 5, 4, 3)),
    ],
)
def test_partial_hands(cards, category, ranks):
    """docs/rules/chicago_poker.md#hands: sets and pairs from fewer than 5 cards; 5-card hands need 5."""
    assert evaluate(hand(cards)) == (category, ranks)


def test_a_missing_card_counts_lower_than_any_card():
    """Equal pair and equal kickers: the fuller hand wins; then the kicker decides."""
    assert beats("9a 9b 5c 2d", "9c 9d 5e")
    assert beats("9a 9b 5c 1d", "9c 9d 5e")
    assert compare(hand("9a 9b 5c"), hand("9c 9d 5e")) == 0
    # a pair of 3s with 2 cards still beats any high card of 5 cards
    assert beats("3a 3b", "15a 14b 13c 12d 10e")


# --- the rulebook's tie-break examples ----------------------------------------------------------


def test_rulebook_tiebreak_examples():
    """docs/rules/chicago_poker.md#equal-hands and the rulebook's "like standard poker" examples, reconstructed.

    The Russian machine translation garbles the card symbols ("9zs", "^ s"): the values kept
    legible are used as written; where a value is lost, the reconstruction picks values that
    make the example show its point (the full house example: a lower pair does not matter
    when the triple is higher). Colours are ours.
    """
    # Chicago Poker with five 9s beats five 4s.
    assert beats("9a 9b 9c 9d 9e", "4a 4b 4c 4d 4e")
    # Four or three of a kind: the rank of the set.
    assert beats("9a 9b 9c 9d 1e", "4a 4b 4c 4d 15e")
    assert beats("9a 9b 9c 1d 2e", "4a 4b 4c 15d 14e")
    # Full house: three 8s and two 1s beat three [lost: 5s] and two [lost: 14s].
    assert beats("8a 8b 8c 1d 1e", "5a 5b 5c 14d 14e")
    # Straight flush, rainbow straight, straight: the top card; a straight to 12 beats one to 9.
    assert beats("8a 9b 10c 11d 12a", "5a 6b 7c 8d 9a")
    assert beats("8a 9a 10a 11a 12a", "5b 6b 7b 8b 9b")
    assert beats("8a 9b 10c 11d 12e", "5a 6b 7c 8d 9e")
    # Flush: the highest card, then the next...: a flush to 11 beats a flush to 8.
    assert beats("2a 3a 5a 7a 11a", "1b 4b 5b 7b 8b")
    assert beats("2a 3a 5a 8a 11a", "1b 3b 5b 7b 11b")
    # Two pairs: the higher pair, then the other pair, then the odd card: 11s and 6s beat 11s and 2s.
    assert beats("11a 11b 6c 6d 1e", "11c 11d 2a 2b 15e")
    assert beats("11a 11b 6c 6d 3e", "11c 11d 6a 6b 2e")
    # Pair: the pair, then the highest other card...: two 9s beat two 7s.
    assert beats("9a 9b 1c 2d 3e", "7a 7b 15c 14d 13e")
    assert beats("9a 9b 12c 2d 3e", "9c 9d 11a 10b 8e")
    # High card: the highest card, then the second...
    assert beats("15a 9b 7c 4d 2e", "14a 13b 12c 11d 9e")
    assert beats("15a 9b 7c 4d 3e", "15b 9c 7d 4e 2a")
    # Same category, same values, other colours: a tie (reinforcements decide).
    assert compare(hand("5a 6b 7c 8d 9a"), hand("5b 6c 7d 8a 9c")) == 0


def test_recommended_ranking_order():
    """docs/rules/chicago_poker.md#hand-order, "recommended": Chicago > SF > 4K > FH > flush > rainbow > straight > 3K > 2P > P > HC."""
    ladder = [
        "4a 4b 4c 4d 4e",
        "3c 4c 5c 6c 7c",
        "2a 2b 2c 2d 15a",
        "8a 8b 8c 1d 1e",
        "1b 4b 9b 12b 14b",
        "11a 12b 13c 14d 15e",
        "10a 11b 12c 13d 14c",
        "7a 7b 7c 2d 14e",
        "11a 11b 6c 6d 3e",
        "9a 9b 15c 4d 2e",
        "15a 13b 9c 4d 2e",
    ]
    assert [evaluate(hand(h)).category for h in ladder] == list(RECOMMENDED_RANKING)
    for higher, lower in itertools.combinations(ladder, 2):
        assert beats(higher, lower), (higher, lower)


def test_rarity_ranking_moves_rainbow_and_flush_up():
    rainbow, four = "1a 2b 3c 4d 5e", "15a 15b 15c 15d 14e"
    flush, full_house = "1b 4b 9b 12b 14b", "15a 15b 15c 14d 14e"
    assert beats(four, rainbow) and beats(full_house, flush)
    assert beats(rainbow, four, RARITY_RANKING) and beats(flush, full_house, RARITY_RANKING)


def test_a_hand_counts_as_its_best_reading_under_a_custom_ranking():
    """A table that ranks pairs above everything: a full house is read as its best pair."""
    pairs_first = ("pair",) + tuple(c for c in RECOMMENDED_RANKING if c != "pair")
    assert evaluate(hand("8a 8b 8c 1d 1e"), pairs_first) == ("pair", (8, 8, 1, 1))
    assert evaluate(hand("8a 8b 8c 10d 10e"), pairs_first) == ("pair", (10, 8, 8, 8))
    assert beats("2a 2b", "11a 12b 13c 14d 15e", pairs_first)  # a rainbow makes no pair
    # A straight flush is also a flush and a straight: it never scores as high card.
    straights_first = ("straight",) + tuple(c for c in RECOMMENDED_RANKING if c != "straight")
    assert evaluate(hand("3c 4c 5c 6c 7c"), straights_first) == ("straight", (7,))


def test_made_categories_of_a_full_house():
    assert set(made_categories(hand("8a 8b 8c 1d 1e"))) == {
        "full_house",
        "three_of_a_kind",
        "two_pairs",
        "pair",
        "high_card",
    }


def test_bad_rankings_and_hands_are_refused():
    with pytest.raises(ValueError):
        check_ranking(RECOMMENDED_RANKING[:-1])
    with pytest.raises(ValueError):
        check_ranking(RECOMMENDED_RANKING[:-1] + ("pair",))
    with pytest.raises(ValueError):
        evaluate([])
    with pytest.raises(ValueError):
        evaluate(hand("1a 2a 3a 4a 5a 6a"))
    with pytest.raises(ValueError):
        evaluate(hand("1a 1a"))


def test_best_of_finds_ties():
    hands = {0: hand("9a 9b 1c"), 1: hand("9c 9d 1d"), 2: hand("8a 8b 15e")}
    assert best_of(hands) == (0, 1)
    assert best_of({0: hand("3a"), 1: hand("3b 1a")}) == (1,)


# --- category counts over the whole 75-card deck -------------------------------------------------

#: docs/rules/chicago_poker.md#hand-order, counted by brute force over the 17,259,390 hands.
RULES_COUNTS = {
    "chicago_poker": 15,
    "straight_flush": 55,
    "rainbow_straight": 1_320,
    "four_of_a_kind": 5_250,
    "flush": 14_960,
    "full_house": 21_000,
    "straight": 33_000,
    "three_of_a_kind": 341_250,
    "two_pairs": 682_500,
    "pair": 6_825_000,
    "high_card": 9_335_040,
}


def _set_partitions(n: int):
    """Set partitions of n positions as restricted growth strings (block of each position)."""

    def grow(prefix: tuple[int, ...], blocks: int):
        if len(prefix) == n:
            yield prefix
            return
        for block in range(blocks + 1):
            yield from grow(prefix + (block,), max(blocks, block + 1))

    yield from grow((), 0)


def _normalise(blocks) -> tuple[int, ...]:
    seen: dict[int, int] = {}
    return tuple(seen.setdefault(b, len(seen)) for b in blocks)


@cache
def _colour_patterns(groups: tuple[int, ...], colours: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Colour patterns for a sorted value multiset whose runs of equal values have sizes `groups`.

    A pattern says which cards share a colour (a set partition of the 5 positions), one
    representative per class of patterns that give the same hands. Its weight is the number of
    distinct hands (sets of cards) it stands for: k blocks take k distinct colours in
    colours!/(colours-k)! ways; permuting cards of equal value gives the same hand, hence the
    division by the product of the runs' factorials.
    """
    spans, start = [], 0
    for size in groups:
        spans.append(range(start, start + size))
        start += size
    weights: Counter = Counter()
    for pattern in _set_partitions(sum(groups)):
        if max(pattern) >= colours or any(len({pattern[i] for i in span}) < len(span) for span in spans):
            continue  # two cards of one value cannot share a colour
        variants = []
        for shuffles in itertools.product(*(itertools.permutations(span) for span in spans)):
            order = [i for run in shuffles for i in run]
            variants.append(_normalise(pattern[i] for i in order))
        weights[min(variants)] += perm(colours, max(pattern) + 1)
    denominator = prod(factorial(size) for size in groups)
    assert all(w % denominator == 0 for w in weights.values())
    return tuple((pattern, w // denominator) for pattern, w in weights.items())


def count_categories(values: range, colours: int, hand_size: int = 5) -> Counter:
    """Hands of each category over a deck of values × colours, through the real evaluator."""
    totals: Counter = Counter()
    names = COLOURS[:colours]
    for multiset in itertools.combinations_with_replacement(values, hand_size):
        groups = tuple(len(list(run)) for _, run in itertools.groupby(multiset))
        if max(groups) > colours:
            continue
        for pattern, weight in _colour_patterns(groups, colours):
            cards = [(v, names[b]) for v, b in zip(multiset, pattern)]
            totals[evaluate(cards).category] += weight
    return totals


def test_category_counts_over_the_75_card_deck():
    counts = count_categories(range(1, 16), 5)
    assert sum(counts.values()) == 17_259_390 == perm(75, 5) // factorial(5)
    assert dict(counts) == RULES_COUNTS


def test_counting_method_agrees_with_brute_force_on_a_small_deck():
    """The multiplicity method checked hand by hand on a 30-card deck (values 1..6)."""
    deck = [(v, c) for v in range(1, 7) for c in COLOURS]
    brute = Counter(evaluate(cards).category for cards in itertools.combinations(deck, 5))
    assert sum(brute.values()) == 142_506
    assert count_categories(range(1, 7), 5) == brute


# --- agreement with an established evaluator (treys) ---------------------------------------------
#
# treys plays 13 ranks in 4 suits with an ace that also plays low (A-2-3-4-5). Our values 1..13
# stand for 2..A; the one treys straight we do not have, the wheel, is left out.

TREYS_RANKS = "23456789TJQKA"
TREYS_SUITS = "shdc"
FOUR_COLOUR_DECK = [(v, c) for v in range(1, 14) for c in COLOURS[:4]]
WHEEL = {1, 2, 3, 4, 13}
TREYS_CLASS = {
    0: "straight_flush",  # treys's royal flush
    1: "straight_flush",
    2: "four_of_a_kind",
    3: "full_house",
    4: "flush",
    5: "straight",
    6: "three_of_a_kind",
    7: "two_pairs",
    8: "pair",
    9: "high_card",
}


def _treys():
    treys = pytest.importorskip("treys")
    return treys.Card, treys.Evaluator()


def _to_treys(card_cls, cards):
    return [card_cls.new(TREYS_RANKS[v - 1] + TREYS_SUITS[COLOURS.index(c)]) for v, c in cards]


def _not_wheel(cards) -> bool:
    return {v for v, _ in cards} != WHEEL


def test_treys_agrees_on_a_sample():
    card_cls, evaluator = _treys()
    rng = random.Random(2007)
    hands = []
    while len(hands) < 4000:
        cards = rng.sample(FOUR_COLOUR_DECK, 5)
        if _not_wheel(cards):
            hands.append(cards)
    scores = [evaluator.evaluate(_to_treys(card_cls, h), []) for h in hands]
    for cards, score in zip(hands, scores):
        assert evaluate(cards).category == TREYS_CLASS[evaluator.get_rank_class(score)], cards
    # Ordering: treys gives lower scores to better hands.
    for (a, score_a), (b, score_b) in zip(zip(hands, scores), zip(hands[1:], scores[1:])):
        assert compare(a, b) == (score_a < score_b) - (score_a > score_b), (a, b)


@pytest.mark.slow
def test_treys_agrees_on_every_category():
    card_cls, evaluator = _treys()
    for cards in itertools.combinations(FOUR_COLOUR_DECK, 5):
        if _not_wheel(cards):
            score = evaluator.evaluate(_to_treys(card_cls, cards), [])
            assert evaluate(cards).category == TREYS_CLASS[evaluator.get_rank_class(score)], cards


@pytest.mark.slow
def test_treys_agrees_on_ordering_of_a_large_sample():
    card_cls, evaluator = _treys()
    rng = random.Random(29030)
    for _ in range(200_000):
        a, b = rng.sample(FOUR_COLOUR_DECK, 5), rng.sample(FOUR_COLOUR_DECK, 5)
        if _not_wheel(a) and _not_wheel(b):
            score_a = evaluator.evaluate(_to_treys(card_cls, a), [])
            score_b = evaluator.evaluate(_to_treys(card_cls, b), [])
            assert compare(a, b) == (score_a < score_b) - (score_a > score_b), (a, b)


# --- properties ---------------------------------------------------------------------------------

DECK = [(v, c) for v in range(1, 16) for c in COLOURS]
hands_st = st.lists(st.sampled_from(DECK), min_size=1, max_size=5, unique=True)
five_st = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
rankings_st = st.permutations(RECOMMENDED_RANKING).map(tuple)


@settings(max_examples=300, deadline=None)
@given(hands_st, st.randoms(use_true_random=False), rankings_st)
def test_card_order_does_not_matter(cards, rng, ranking):
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert evaluate(shuffled, ranking) == evaluate(cards, ranking)


@settings(max_examples=300, deadline=None)
@given(hands_st, hands_st, hands_st, rankings_st)
def test_comparison_is_a_total_order(a, b, c, ranking):
    assert compare(a, a, ranking) == 0
    assert compare(a, b, ranking) == -compare(b, a, ranking)
    if compare(a, b, ranking) >= 0 and compare(b, c, ranking) >= 0:
        assert compare(a, c, ranking) >= 0
    if compare(a, b, ranking) == 0 and compare(b, c, ranking) == 0:
        assert compare(a, c, ranking) == 0


@settings(max_examples=300, deadline=None)
@given(five_st, five_st, rankings_st)
def test_a_better_category_always_wins(a, b, ranking):
    category_a, category_b = evaluate(a, ranking).category, evaluate(b, ranking).category
    if ranking.index(category_a) < ranking.index(category_b):
        assert compare(a, b, ranking) == 1


@settings(max_examples=300, deadline=None)
@given(hands_st, rankings_st)
def test_category_is_the_best_ranked_one_the_hand_makes(cards, ranking):
    made = made_categories(cards)
    category, ranks = evaluate(cards, ranking)
    assert made[category] == ranks
    assert all(ranking.index(category) <= ranking.index(other) for other in made)


@settings(max_examples=300, deadline=None)
@given(hands_st, st.permutations(COLOURS))
def test_renaming_colours_changes_nothing(cards, renamed):
    """Only which cards share a colour matters, not which colour it is."""
    recoloured = [(v, renamed[COLOURS.index(c)]) for v, c in cards]
    assert hand_key(recoloured) == hand_key(cards)


@settings(max_examples=200, deadline=None)
@given(five_st)
def test_five_card_categories_are_exclusive_under_the_recommended_ranking(cards):
    """The rules page's table (docs/rules/chicago_poker.md#hand-order) counts each hand once: flush "not straight", straight "other"."""
    values = sorted(v for v, _ in cards)
    colours = {c for _, c in cards}
    run = len(set(values)) == 5 and values[-1] - values[0] == 4
    category = evaluate(cards).category
    assert (category in ("straight_flush", "rainbow_straight", "straight")) == run
    assert (category in ("straight_flush", "flush")) == (len(colours) == 1)
