"""The abstraction the ``cfr`` bot is trained on and plays, as numba functions of a game record (``policy``).

One function computes the information set of the seat to act from what that seat sees (``info_row``), one the
abstract actions it may take (``legal_actions``) and one turns an abstract action into a move (``abstract_move``):
the training (``cfr_game``) and the bot (``bots``) call the same three, so they never disagree.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem_poker.data import HAND_SIZE, P_ANTE, strength
from simulate.games.golem_poker.engine import can_match, to_match
from simulate.games.golem_poker.policy import (
    A_FOLD,
    A_HALF,
    A_MATCH,
    A_MIN,
    A_POT,
    MAX_RAISES,
    MIN_PLAYERS,
    POT_SHARES,
    PRICE_EDGES,
    STAKE_EDGES,
    STRENGTH_EDGES,
    WAR_RAISES,
)
from simulate.games.golem_poker.state import *
from simulate.rng import mix64

_EDGES = np.array(STRENGTH_EDGES)
_PRICES = np.array(PRICE_EDGES)
_STAKES = np.array(STAKE_EDGES)


@njit(cache=True, inline="always")
def info_row(r, tb):
    """Row of the policy table (of ``r.num_players``' table) for the seat to act, from what it sees."""
    s = r.current
    n = r.num_players
    position = 0 if s == 0 else (2 if s == n - 1 else 1)
    phase = 0 if r.phase == BET1 else 1
    x = strength(tb, r.value[s])
    hand = 0
    while hand < _EDGES.shape[0] and x >= _EDGES[hand]:
        hand += 1
    if phase == 0:
        golem = 3
    elif r.pile_n <= 2:
        golem = 0
    elif r.pile_n <= 5:
        golem = 1
    else:
        golem = 2
    c = to_match(r)
    price = 0
    if c > 0:
        price = 1
        share = c / (r.pot + c)
        while price <= _PRICES.shape[0] and share >= _PRICES[price - 1]:
            price += 1
    raises = min(r.raises, 3)
    again = 1 if r.bet_in[s] > 0 else 0
    opponents = min(r.num_in - 1, 3) - 1
    aggression = 0
    for o in range(n):
        if o != s and r.active[o] and r.aggr[o] == 2:
            aggression = 1
    committed = r.paid_ante[s] + r.paid_bet[s] + r.paid_penalty[s]
    brought = committed + max(r.stack[s], 0)
    stake = 0
    while stake < _STAKES.shape[0] and committed >= _STAKES[stake] * brought:
        stake += 1
    row = position
    row = row * 2 + phase
    row = row * (_EDGES.shape[0] + 1) + hand
    row = row * 4 + golem
    row = row * (_PRICES.shape[0] + 2) + price
    row = row * 4 + raises
    row = row * 2 + again
    row = row * 3 + opponents
    row = row * 2 + aggression
    return row * (_STAKES.shape[0] + 1) + stake


@njit(cache=True, inline="always")
def table_index(r):
    """Index of the seat's player count in the policy table's first axis."""
    return r.num_players - MIN_PLAYERS


@njit(cache=True, inline="always")
def can_raise(r):
    """A bet, or a raise while the round has seen fewer than the abstraction's ``MAX_RAISES``, is legal."""
    if r.current_bet == 0:
        return r.bet_lo <= r.bet_hi
    return r.raises < MAX_RAISES and r.raise_lo <= r.raise_hi


@njit(cache=True, inline="always")
def can_war(r):
    """A minimum raise carrying a raise war on is legal: the round has seen from ``MAX_RAISES`` to fewer than
    ``WAR_RAISES`` raises."""
    return r.current_bet > 0 and r.raises >= MAX_RAISES and r.raises < WAR_RAISES and r.raise_lo <= r.raise_hi


@njit(cache=True, inline="always")
def legal_actions(r, tb, mask):
    """Abstract actions legal for the seat to act into ``mask`` (NUM_ACTIONS,) bool (at least one is)."""
    mask[A_FOLD] = to_match(r) > 0
    mask[A_MATCH] = can_match(r, tb)
    up = can_raise(r)
    mask[A_HALF] = up
    mask[A_POT] = up
    mask[A_MIN] = can_war(r)
    if not mask[A_FOLD] and not mask[A_MATCH] and not up and not mask[A_MIN]:
        mask[A_FOLD] = True


@njit(cache=True, inline="always")
def rival_legal_actions(r, tb, mask):
    """A training rival's legal actions into ``mask``: the learners' (``legal_actions``), and ``min_raise`` from the
    round's first bet on (the smallest bet or raise, while the round has seen fewer than ``WAR_RAISES`` raises), so a
    rival can wage the cheap raise war the abstraction's own bets never start."""
    legal_actions(r, tb, mask)  # where a minimum bet or raise is legal, so is a learner's bet or raise (no fallback)
    if r.current_bet == 0:
        mask[A_MIN] = r.bet_lo <= r.bet_hi
    else:
        mask[A_MIN] = r.raises < WAR_RAISES and r.raise_lo <= r.raise_hi


@njit(cache=True, inline="always")
def abstract_move(r, tb, a, mv):
    """Write the move of abstract action ``a`` (legal) for the seat to act into ``mv``."""
    mv[M_AMOUNT] = 0
    mv[M_CARDS] = 0
    if a == A_FOLD:
        mv[M_KIND] = FOLD
    elif a == A_MATCH:
        mv[M_KIND] = MATCH
    elif a == A_MIN and r.current_bet == 0:  # a rival's minimum bet (rival_legal_actions)
        mv[M_KIND] = BET
        mv[M_AMOUNT] = r.bet_lo
    elif a == A_MIN:
        mv[M_KIND] = RAISE
        mv[M_AMOUNT] = r.raise_lo
    else:
        ante = tb.params[P_ANTE]
        share = POT_SHARES[A_HALF] if a == A_HALF else POT_SHARES[A_POT]
        chips = max(np.int64(share * (r.pot + to_match(r)) / ante + 0.5), 1) * ante
        if r.current_bet == 0:
            mv[M_KIND] = BET
            mv[M_AMOUNT] = min(max(chips, r.bet_lo), r.bet_hi)
        else:
            mv[M_KIND] = RAISE
            mv[M_AMOUNT] = min(max(chips, r.raise_lo), r.raise_hi)


@njit(cache=True, inline="always")
def row_uniform(r, row):
    """The seat's uniform draw at information set ``row`` in this deal: a hash of the deal, the row and its own cards.

    The abstraction merges states the real game tells apart, so a betting round can come back to the same row (a raise
    war past the abstraction's two raises); drawing again each time would fold a hand the table calls in, say, one
    case in ten at some return, nearly surely over a long war. One draw per row and deal plays the table as a strategy
    of the abstraction, where an information set is met once; different hands in the same row spread over [0, 1).
    """
    s = r.current
    x = mix64(np.uint64(r.deal) * np.uint64(1_000_003) + np.uint64(row))
    for k in range(HAND_SIZE):
        x = mix64(x * np.uint64(61) + np.uint64(r.hand[s, k] + 1))
    return float(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def choose_action(r, tb):
    """Abstract action of the seat to act drawn from the policy table over the legal actions (``row_uniform``).

    A row the training never reached (``policy.MISSING``) checks, or folds to a bet.
    """
    m0 = to_match(r) > 0
    m1 = can_match(r, tb)
    up = can_raise(r)
    war = can_war(r)
    row = info_row(r, tb)
    u = row_uniform(r, row)
    probs = tb.policy[table_index(r), row]
    if probs[0] < 0.0:
        return A_FOLD if m0 or not m1 else A_MATCH
    w0 = probs[A_FOLD] if m0 else 0.0
    w1 = probs[A_MATCH] if m1 else 0.0
    w2 = probs[A_HALF] if up else 0.0
    w3 = probs[A_POT] if up else 0.0
    w4 = probs[A_MIN] if war else 0.0
    total = w0 + w1 + w2 + w3 + w4
    if total <= 0.0:
        return A_MATCH if m1 else A_FOLD
    x = u * total
    if x < w0:
        return A_FOLD
    if x < w0 + w1:
        return A_MATCH
    if x < w0 + w1 + w2:
        return A_HALF
    if x < w0 + w1 + w2 + w3:
        return A_POT
    return A_MIN  # x < total, so w4 > 0 here
