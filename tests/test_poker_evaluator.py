"""Tests of the golem poker hand evaluator (``simulate.games.golem_poker.evaluator``).

Known answers: the 2,598,960 five-card hands enumerated in full in both rank-1 modes, against
the standard category counts (rank 1 high) and counts derived below (rank 1 low); best-of-N
against brute force over all five-card subsets; an independent pure-Python reference evaluator;
hypothesis properties (permutation and suit relabelling invariance, monotonicity).
"""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simulate.games.golem_poker import evaluator as ev
from simulate.games.golem_poker.evaluator import (
    CATEGORY_NAMES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    best_of,
    card,
    category,
    describe,
    evaluate5,
)

SEED_BRUTE_FORCE = 20240159
SEED_REFERENCE = 159
SEED_SCALAR = 76
MODES = [False, True]
MODE_IDS = ["rank1_low", "rank1_high"]

NUM_HANDS = comb(52, 5)  # 2,598,960

# Rank 1 high (the ace of standard poker): the standard counts, e.g. Wikipedia "Poker
# probability", 5-card frequencies (straight flush includes the 4 royal flushes).
COUNTS_RANK1_HIGH = {
    STRAIGHT_FLUSH: 40,
    FOUR_OF_A_KIND: 624,
    FULL_HOUSE: 3744,
    FLUSH: 5108,
    STRAIGHT: 10200,
    THREE_OF_A_KIND: 54912,
    TWO_PAIR: 123552,
    ONE_PAIR: 1098240,
    HIGH_CARD: 1302540,
}

# Rank 1 low: the straights are the runs 1-5, 2-6, .., 9-13, i.e. 9 rank sets instead of 10
# (10-11-12-13-1 is not a run, 1-2-3-4-5 is the lowest run). Categories made of repeated ranks
# do not involve runs or suits, so their counts are the standard ones. The others:
#   straight flush  = 9 runs * 4 suits                                  = 36
#   straight        = 9 runs * (4^5 - 4 single-suit ways)               = 9 * 1020 = 9180
#   flush           = 4 suits * (C(13,5) - 9 runs)                      = 4 * 1278 = 5112
#   high card       = (C(13,5) - 9 runs) * (4^5 - 4)                    = 1278 * 1020 = 1303560
# Check: 36 + 624 + 3744 + 5112 + 9180 + 54912 + 123552 + 1098240 + 1303560 = 2598960.
COUNTS_RANK1_LOW = {
    STRAIGHT_FLUSH: 9 * 4,
    FOUR_OF_A_KIND: 624,
    FULL_HOUSE: 3744,
    FLUSH: 4 * (comb(13, 5) - 9),
    STRAIGHT: 9 * (4**5 - 4),
    THREE_OF_A_KIND: 54912,
    TWO_PAIR: 123552,
    ONE_PAIR: 1098240,
    HIGH_CARD: (comb(13, 5) - 9) * (4**5 - 4),
}

# Distinct hand values (equivalence classes) per category. Rank 1 high: the standard 7462
# (Cactus Kev). Rank 1 low: 9 runs instead of 10, so one more no-run rank set (1278 vs 1277)
# for high card and flush: 1278 + 2860 + 858 + 858 + 9 + 1278 + 156 + 156 + 9 = 7462 as well.
CLASSES_RANK1_HIGH = [1277, 2860, 858, 858, 10, 1277, 156, 156, 10]
CLASSES_RANK1_LOW = [1278, 2860, 858, 858, 9, 1278, 156, 156, 9]


@njit(cache=True)
def _all_five_card_hands() -> np.ndarray:
    """All C(52, 5) hands in lexicographic order, shape (2598960, 5), int8."""
    out = np.empty((2598960, 5), np.int8)
    k = 0
    for a in range(48):
        for b in range(a + 1, 49):
            for c in range(b + 1, 50):
                for d in range(c + 1, 51):
                    for e in range(d + 1, 52):
                        out[k, 0] = a
                        out[k, 1] = b
                        out[k, 2] = c
                        out[k, 3] = d
                        out[k, 4] = e
                        k += 1
    return out


@pytest.fixture(scope="module")
def all_hands() -> np.ndarray:
    return _all_five_card_hands()


# ---------------------------------------------------------------------------------------------
# Independent reference: pure Python, from rank counts, one hand of 0..5 cards at a time.


def _strength(c: int, ace_high: bool) -> int:
    rank = c // 4 + 1
    return (rank - 2) % 13 if ace_high else rank - 1


def ref_value(cards: list[int], ace_high: bool) -> int:
    """Value of a hand of at most five cards, by the documented encoding."""
    assert len(cards) <= 5
    strengths = [_strength(c, ace_high) for c in cards]
    counts = Counter(strengths)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups]
    nibbles = [s + 1 for s, _ in groups]
    cat = HIGH_CARD
    if len(cards) == 5 and len(counts) == 5:
        top = max(strengths)
        is_run = top - min(strengths) == 4
        if ace_high and sorted(strengths) == [0, 1, 2, 3, 12]:
            is_run, top = True, 3
        is_flush = len({c % 4 for c in cards}) == 1
        if is_run:
            cat, nibbles = (STRAIGHT_FLUSH if is_flush else STRAIGHT), [top + 1]
        elif is_flush:
            cat = FLUSH
    elif shape and shape[0] == 4:
        cat = FOUR_OF_A_KIND
    elif shape[:2] == [3, 2]:
        cat = FULL_HOUSE
    elif shape and shape[0] == 3:
        cat = THREE_OF_A_KIND
    elif shape[:2] == [2, 2]:
        cat = TWO_PAIR
    elif shape and shape[0] == 2:
        cat = ONE_PAIR
    nibbles = (nibbles + [0] * 5)[:5]
    value = cat << 20
    for i, nib in enumerate(nibbles):
        value |= nib << (4 * (4 - i))
    return value


# ---------------------------------------------------------------------------------------------
# Exhaustive five-card enumeration


@pytest.mark.parametrize("ace_high", MODES, ids=MODE_IDS)
def test_category_counts_all_hands(all_hands: np.ndarray, ace_high: bool) -> None:
    assert all_hands.shape == (NUM_HANDS, 5)
    values = evaluate5(all_hands, ace_high)
    counts = np.bincount(category(values), minlength=9)
    expected = COUNTS_RANK1_HIGH if ace_high else COUNTS_RANK1_LOW
    assert sum(expected.values()) == NUM_HANDS
    assert {k: int(counts[k]) for k in range(9)} == expected

    distinct = np.unique(values)
    classes = np.bincount(category(distinct), minlength=9).tolist()
    assert classes == (CLASSES_RANK1_HIGH if ace_high else CLASSES_RANK1_LOW)
    assert len(distinct) == 7462


@pytest.mark.parametrize("ace_high", MODES, ids=MODE_IDS)
def test_best_of_five_equals_evaluate5_all_hands(all_hands: np.ndarray, ace_high: bool) -> None:
    np.testing.assert_array_equal(best_of(all_hands, ace_high), evaluate5(all_hands, ace_high))


@pytest.mark.parametrize("ace_high", MODES, ids=MODE_IDS)
def test_every_value_class_matches_reference(all_hands: np.ndarray, ace_high: bool) -> None:
    values = evaluate5(all_hands, ace_high)
    distinct, first = np.unique(values, return_index=True)
    for v, i in zip(distinct.tolist(), first.tolist(), strict=True):
        assert ref_value(all_hands[i].tolist(), ace_high) == v


@pytest.mark.parametrize("ace_high", MODES, ids=MODE_IDS)
def test_random_hands_match_reference(all_hands: np.ndarray, ace_high: bool) -> None:
    rng = np.random.default_rng(SEED_REFERENCE)
    hands = all_hands[rng.choice(NUM_HANDS, 20000, replace=False)]
    values = evaluate5(hands, ace_high).tolist()
    assert values == [ref_value(h, ace_high) for h in hands.tolist()]


# ---------------------------------------------------------------------------------------------
# Best of N against brute force, partial hands against the reference


def _deal(rng: np.random.Generator, num_hands: int, n: int) -> np.ndarray:
    return np.argsort(rng.random((num_hands, 52)), axis=1)[:, :n].astype(np.int8)


@pytest.mark.parametrize("ace_high", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("n", [6, 7, 8, 9, 10, 11, 12])
def test_best_of_matches_brute_force(ace_high: bool, n: int) -> None:
    rng = np.random.default_rng(SEED_BRUTE_FORCE + n)
    hands = _deal(rng, 400, n)
    subsets = np.array(list(itertools.combinations(range(n), 5)))  # (C(n,5), 5)
    five = hands[:, subsets].reshape(-1, 5)
    brute = evaluate5(five, ace_high).reshape(len(hands), len(subsets)).max(axis=1)
    np.testing.assert_array_equal(best_of(hands, ace_high), brute)


@pytest.mark.parametrize("ace_high", MODES, ids=MODE_IDS)
def test_best_of_rich_hands_brute_force(ace_high: bool) -> None:
    """Hands with several flush suits, two quads or two trips (10..13 cards from a few ranks)."""
    rng = np.random.default_rng(SEED_BRUTE_FORCE)
    rows = []
    for _ in range(300):
        n = int(rng.integers(10, 14))
        ranks = rng.choice(13, int(rng.integers(3, 7)), replace=False)
        suits = rng.choice(4, int(rng.integers(1, 3)), replace=False)
        pool = [c for c in range(52) if c // 4 in ranks or c % 4 in suits]
        rows.append(rng.choice(pool, n, replace=False).astype(np.int8))
    for row in rows:
        subsets = np.array(list(itertools.combinations(row.tolist(), 5)), dtype=np.int8)
        brute = evaluate5(subsets, ace_high).max()
        assert best_of(row[None, :], ace_high)[0] == brute, row


@pytest.mark.parametrize("ace_high", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_partial_hands_all_match_reference(ace_high: bool, n: int) -> None:
    combos = list(itertools.combinations(range(52), n))
    hands = np.array(combos, dtype=np.int8).reshape(len(combos), n)
    values = best_of(hands, ace_high).tolist()
    assert values == [ref_value(h, ace_high) for h in hands.tolist()]


@pytest.mark.parametrize("ace_high", MODES, ids=MODE_IDS)
def test_partial_four_card_hands_match_reference(ace_high: bool) -> None:
    rng = np.random.default_rng(SEED_REFERENCE)
    hands = _deal(rng, 20000, 4)
    values = best_of(hands, ace_high).tolist()
    assert values == [ref_value(h, ace_high) for h in hands.tolist()]


def test_partial_hand_semantics() -> None:
    pair7 = best_of(np.array([[card(7, 0), card(7, 1)]]), False)[0]
    pair7_kickers = evaluate5(np.array([[card(7, 0), card(7, 1), card(1, 0), card(2, 0), card(3, 0)]]), False)
    assert category(pair7) == ONE_PAIR and pair7 < pair7_kickers[0]
    quads = best_of(np.array([[card(2, s) for s in range(4)]]), True)[0]
    assert category(quads) == FOUR_OF_A_KIND
    assert best_of(np.zeros((1, 0), np.int8), True)[0] == 0
    # Four to a flush and four to a run are neither.
    four_flush_run = np.array([[card(r, 2) for r in (5, 6, 7, 8)]])
    assert category(best_of(four_flush_run, True)[0]) == HIGH_CARD


def test_counts_select_the_used_cards() -> None:
    rng = np.random.default_rng(SEED_BRUTE_FORCE)
    hands = _deal(rng, 2000, 12)
    counts = rng.integers(0, 13, len(hands))
    padded = hands.copy()
    for i, n in enumerate(counts):
        padded[i, n:] = -1
    got = best_of(padded, True, counts=counts)
    expected = [best_of(hands[i : i + 1, :n], True)[0] for i, n in enumerate(counts)]
    np.testing.assert_array_equal(got, expected)


# ---------------------------------------------------------------------------------------------
# Rules of the two modes, by example


def _v(ranks_suits: list[tuple[int, int]], ace_high: bool) -> int:
    return int(evaluate5(np.array([[card(r, s) for r, s in ranks_suits]]), ace_high)[0])


def test_mode_examples() -> None:
    low_run = [(1, 0), (2, 1), (3, 2), (4, 3), (5, 0)]
    next_run = [(2, 0), (3, 1), (4, 2), (5, 3), (6, 0)]
    top_run = [(10, 0), (11, 1), (12, 2), (13, 3), (1, 1)]
    for ace_high in MODES:
        assert category(_v(low_run, ace_high)) == STRAIGHT
        assert _v(low_run, ace_high) < _v(next_run, ace_high)  # 1-5 is the lowest run
    assert category(_v(top_run, True)) == STRAIGHT
    assert _v(top_run, True) > _v([(9, 0), (10, 1), (11, 2), (12, 3), (13, 1)], True)
    assert category(_v(top_run, False)) == HIGH_CARD
    pair1 = [(1, 0), (1, 1), (4, 2), (6, 3), (8, 0)]
    pair13 = [(13, 0), (13, 1), (4, 1), (6, 2), (8, 3)]
    assert _v(pair1, True) > _v(pair13, True)
    assert _v(pair1, False) < _v(pair13, False)
    royal = [(10, 3), (11, 3), (12, 3), (13, 3), (1, 3)]
    assert describe(_v(royal, True), True) == "straight flush: 1"
    assert describe(_v(royal, False), False) == "flush: 13 12 11 10 1"
    assert describe(_v(low_run, True), True) == "straight: 5"


def test_category_names_and_ordering() -> None:
    assert len(CATEGORY_NAMES) == 9 and CATEGORY_NAMES[HIGH_CARD] == "high card"
    assert CATEGORY_NAMES[STRAIGHT_FLUSH] == "straight flush"
    hands = [
        [(2, 0), (4, 1), (6, 2), (8, 3), (10, 0)],
        [(2, 0), (2, 1), (6, 2), (8, 3), (10, 0)],
        [(2, 0), (2, 1), (6, 2), (6, 3), (10, 0)],
        [(2, 0), (2, 1), (2, 2), (8, 3), (10, 0)],
        [(2, 0), (3, 1), (4, 2), (5, 3), (6, 0)],
        [(2, 0), (4, 0), (6, 0), (8, 0), (10, 0)],
        [(2, 0), (2, 1), (2, 2), (8, 3), (8, 0)],
        [(2, 0), (2, 1), (2, 2), (2, 3), (10, 0)],
        [(2, 0), (3, 0), (4, 0), (5, 0), (6, 0)],
    ]
    for ace_high in MODES:
        values = [_v(h, ace_high) for h in hands]
        assert [category(v) for v in values] == list(range(9))
        assert values == sorted(values)


# ---------------------------------------------------------------------------------------------
# Scalar kernels as the engine calls them


@njit(cache=True)
def _scalar_eval5(cards: np.ndarray, ace_high: bool, out: np.ndarray) -> None:
    for i in range(cards.shape[0]):
        out[i] = ev.eval5(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4], ace_high)


@njit(cache=True)
def _scalar_best_of(cards: np.ndarray, ace_high: bool, out: np.ndarray, out_packed: np.ndarray) -> None:
    for i in range(cards.shape[0]):
        out[i] = ev._best_of(cards[i], cards.shape[1], ace_high)
        x = 0
        for j in range(cards.shape[1]):
            x |= ev.card_bits(cards[i, j], ace_high)
        out_packed[i] = ev.eval_packed(x, ace_high)


@pytest.mark.parametrize("ace_high", MODES, ids=MODE_IDS)
@pytest.mark.parametrize("n", [5, 7, 12])
def test_scalar_kernels_match_batch(ace_high: bool, n: int) -> None:
    rng = np.random.default_rng(SEED_SCALAR + n)
    hands = _deal(rng, 5000, n).astype(np.int64)
    expected = best_of(hands, ace_high)
    out = np.empty(len(hands), np.int64)
    out_packed = np.empty(len(hands), np.int64)
    _scalar_best_of(hands, ace_high, out, out_packed)
    np.testing.assert_array_equal(out, expected)
    np.testing.assert_array_equal(out_packed, expected)
    if n == 5:
        _scalar_eval5(hands, ace_high, out)
        np.testing.assert_array_equal(out, expected)


# ---------------------------------------------------------------------------------------------
# Properties

_hands5 = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)
_hands_any = st.lists(st.integers(0, 51), min_size=0, max_size=12, unique=True)


@settings(max_examples=200, deadline=None)
@given(hand=_hands5, data=st.data(), ace_high=st.booleans())
def test_invariant_under_permutation_and_suit_relabelling(hand: list[int], data, ace_high: bool) -> None:
    value = _v([(c // 4 + 1, c % 4) for c in hand], ace_high)
    perm = data.draw(st.permutations(hand))
    suit_map = data.draw(st.permutations(range(4)))
    relabelled = [4 * (c // 4) + suit_map[c % 4] for c in perm]
    got = evaluate5(np.array([perm, relabelled]), ace_high)
    assert got.tolist() == [value, value]


@settings(max_examples=200, deadline=None)
@given(hand=_hands_any, data=st.data(), ace_high=st.booleans())
def test_best_of_invariant_and_monotone(hand: list[int], data, ace_high: bool) -> None:
    suit_map = data.draw(st.permutations(range(4)))
    perm = data.draw(st.permutations(hand))
    relabelled = [4 * (c // 4) + suit_map[c % 4] for c in perm]
    rows = np.full((2, 12), -1, np.int8)
    rows[0, : len(hand)] = hand
    rows[1, : len(hand)] = relabelled
    values = best_of(rows, ace_high, counts=np.array([len(hand)] * 2))
    assert values[0] == values[1]
    # Adding a card never lowers the value.
    extra = data.draw(st.integers(0, 51).filter(lambda c: c not in hand))
    bigger = np.array([hand + [extra]], np.int8)
    assert best_of(bigger, ace_high)[0] >= values[0]


@settings(max_examples=300, deadline=None)
@given(hand=_hands5, data=st.data(), ace_high=st.booleans())
def test_raising_a_rank_in_a_high_card_hand(hand: list[int], data, ace_high: bool) -> None:
    value = int(evaluate5(np.array([hand]), ace_high)[0])
    if category(value) != HIGH_CARD:
        return
    i = data.draw(st.integers(0, 4))
    old = hand[i]
    higher = [c for c in range(old % 4, 52, 4) if _strength(c, ace_high) > _strength(old, ace_high) and c not in hand]
    if not higher:
        return
    raised = list(hand)
    raised[i] = data.draw(st.sampled_from(higher))
    new_value = int(evaluate5(np.array([raised]), ace_high)[0])
    if category(new_value) == HIGH_CARD:
        assert new_value > value
    else:
        assert category(new_value) > HIGH_CARD


# ---------------------------------------------------------------------------------------------
# Public API checks


def test_validation_errors() -> None:
    with pytest.raises(ValueError, match="repeated"):
        evaluate5(np.array([[0, 1, 2, 3, 3]]), True)
    with pytest.raises(ValueError, match="hand 1"):
        evaluate5(np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 52]]), True)
    with pytest.raises(ValueError, match="hand 0"):
        best_of(np.array([[-1, 1, 2, 3, 4, 5]]), False)
    with pytest.raises(ValueError, match="5 columns"):
        evaluate5(np.array([[0, 1, 2, 3]]), True)
    with pytest.raises(ValueError, match="2-d"):
        evaluate5(np.array([0, 1, 2, 3, 4]), True)
    with pytest.raises(TypeError, match="integers"):
        evaluate5(np.zeros((1, 5)), True)
    with pytest.raises(ValueError, match="counts"):
        best_of(np.array([[0, 1, 2]]), True, counts=np.array([4]))
    with pytest.raises(ValueError, match="counts"):
        best_of(np.array([[0, 1, 2]]), True, counts=np.array([3, 3]))
    with pytest.raises(ValueError, match="out"):
        evaluate5(np.array([[0, 1, 2, 3, 4]]), True, out=np.empty(1, np.int64))
    with pytest.raises(ValueError, match="rank"):
        card(14, 0)
    # Unused slots beyond the count are not checked.
    assert best_of(np.array([[0, 0, 99]]), True, counts=np.array([1]))[0] > 0


@pytest.mark.parametrize("bad", [52, 63, 64, 100, 2**40, -1, -64, -(2**40)])
def test_invalid_cards_are_caught(bad: int) -> None:
    hands = np.array([[0, 5, 10, 15, 20], [0, 5, 10, 15, bad], [1, 2, 3, 4, 6]], np.int64)
    with pytest.raises(ValueError, match="hand 1"):
        evaluate5(hands, True)
    with pytest.raises(ValueError, match="hand 1"):
        best_of(np.concatenate([hands, hands[:, :2] + 24], axis=1), False)
    if -128 <= bad < 128:
        with pytest.raises(ValueError, match="hand 1"):
            evaluate5(hands.astype(np.int8), False)


def test_repeated_cards_are_caught() -> None:
    rng = np.random.default_rng(SEED_BRUTE_FORCE)
    hands = _deal(rng, 1000, 12)
    hands[700, 11] = hands[700, 3]
    with pytest.raises(ValueError, match="hand 700"):
        best_of(hands, True)
    best_of(hands, True, counts=np.full(1000, 11))  # the repeat is past the count
    five = hands[:, :5].copy()
    five[999, 0] = five[999, 4]
    with pytest.raises(ValueError, match="hand 999"):
        evaluate5(five, False)


def test_out_and_dtypes() -> None:
    hands = np.array([[0, 5, 10, 15, 20], [51, 50, 49, 48, 47]])
    out = np.empty(2, np.int32)
    res = evaluate5(hands, True, out=out)
    assert res is out and res.dtype == np.int32
    for dtype in (np.int8, np.uint8, np.int32, np.int64, np.uint64):
        np.testing.assert_array_equal(evaluate5(hands.astype(dtype), True), out)
        np.testing.assert_array_equal(best_of(hands.astype(dtype), True), out)
    assert evaluate5(np.zeros((0, 5), np.int8), True).shape == (0,)
    assert best_of(np.zeros((0, 7), np.int8), True).shape == (0,)
    assert describe(out[1], True) == "four of a kind: 13 12"
