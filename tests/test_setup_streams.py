"""The setup seed's two streams: setups that share an opening show the same public opening over other hidden orders.

Checked on the plain-Python reference engines (the differential tests check that the kernels set up the same games),
with setup seeds built by the runner's nested design (``game_seeds(..., orders_per_opening)``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from simulate.games.century import data as century_data
from simulate.games.century.reference import CenturyReference
from simulate.games.golem import loader as golem_loader
from simulate.games.golem.reference import GolemReference
from simulate.games.golem_poker import data as poker_data
from simulate.games.golem_poker.reference import GolemPokerReference
from simulate.games.golems import data as golems_data
from simulate.games.golems.reference import GolemsReference
from simulate.rng import draw_front, game_seeds, opening_seed, order_seed, shuffle_range

MASTER_SEED = 2026
ORDERS = 3


def _century(seed: int) -> tuple[Any, Any]:
    g = CenturyReference(CENTURY, 3, seed)
    return (g.m_row, g.p_row, g.crystals), (g.m_deck[g.m_deck_pos :], g.p_deck[g.p_deck_pos :])


def _golems(seed: int) -> tuple[Any, Any]:
    g = GolemsReference(GOLEMS, 2, seed)
    return (g.slot, g.start_runes), (g.deck[: g.removed], g.deck[g.deck_pos :])


def _golem(seed: int) -> tuple[Any, Any]:
    g = GolemReference(GOLEM, 3, seed)
    opening = (g.palace, g.tiles, g.library, g.at_slots, g.order, g.start_offer, g.art_offer)
    return opening, (g.book_deck, g.at_deck, g.hands, g.ob_deck)  # round 1's Action tiles are dealt: the rest


def _poker(seed: int) -> tuple[Any, Any]:
    g = GolemPokerReference(POKER, 4, seed)
    return (), g.hand  # every card is dealt face down: nothing public but the seats


CENTURY = century_data.load()
GOLEMS = golems_data.load()
GOLEM = golem_loader.load()
POKER = poker_data.load()
SETUPS = {"century": _century, "golems": _golems, "golem": _golem, "golem-poker": _poker}


@pytest.mark.parametrize("game", list(SETUPS))
def test_an_opening_is_shared_and_its_hidden_orders_differ(game: str) -> None:
    setup_id = np.arange(4 * ORDERS)
    seeds, _ = game_seeds(MASTER_SEED, setup_id, setup_id, orders_per_opening=ORDERS)
    dealt = [SETUPS[game](int(s)) for s in seeds]
    for j in range(4):
        group = dealt[j * ORDERS : (j + 1) * ORDERS]
        assert all(opening == group[0][0] for opening, _ in group), "one opening for the group"
        assert len({repr(hidden) for _, hidden in group}) == ORDERS, "its hidden orders differ"
    if game != "golem-poker":
        assert len({repr(opening) for opening, _ in dealt[::ORDERS]}) == 4, "openings differ"


def test_one_setup_per_seed_keeps_the_old_seeds() -> None:
    """Without a nested design a setup seed is the setup's own hash, as before the split."""
    setup_id = np.arange(8)
    flat, play = game_seeds(MASTER_SEED, setup_id, setup_id)
    nested, play_nested = game_seeds(MASTER_SEED, setup_id, setup_id, orders_per_opening=2)
    assert (play == play_nested).all()
    assert ((flat & np.uint64(0xFFFFFFFF)) == (nested & np.uint64(0xFFFFFFFF))).all(), "low words: the setup's own"
    high = nested >> np.uint64(32)
    assert (high[::2] == high[1::2]).all() and len(set(high[::2].tolist())) == 4
    with pytest.raises(ValueError, match="orders_per_opening must be at least 1"):
        game_seeds(MASTER_SEED, setup_id, setup_id, orders_per_opening=0)


def test_the_two_streams_deal_uniform_permutations() -> None:
    """draw_front from one stream then shuffle_range from another: every order of 4 cards about equally often."""
    counts: Counter = Counter()
    draws = 24_000
    seeds, _ = game_seeds(MASTER_SEED, np.arange(draws), np.arange(draws))
    for seed in seeds:
        cards = np.arange(4)
        state = np.array([opening_seed(seed)], np.uint64)
        draw_front(state, 0, cards, 4, 2)
        state[0] = order_seed(seed)
        shuffle_range(state, 0, cards, 2, 4)
        counts[tuple(cards.tolist())] += 1
    assert len(counts) == 24
    expected = draws / 24
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 50, f"chi-square {chi2:.1f} on 23 degrees of freedom"  # p about 0.001
