"""Golem-poker as ``simulate.cfr`` traverses it: the real engine's game records, played in the abstraction.

The states are the engine's own records (``state.STATE_DTYPE``), so every pot, bet, draw, golem and re-deal is the
real game's; only the choices are abstract (``abstraction``): a player's information set is ``info_row`` and its
actions are fold, match, and bets or raises of half or all of the pot. The draw is not a choice: every player
discards by the improve policy (``bots.policy_mask``), as the ``cfr`` bot does. A payoff is the seat's net chips in
antes. A training rival may also bet or raise the minimum from the round's first bet (``rival_legal``), a move the
learners' abstraction offers only in a raise war. The traverser tries each of its actions in a pot's first two deals
while the round has seen fewer than ``EXPLORED_RAISES`` raises, and samples its action in later re-deals and deeper in
a raise war (``explore``), which bounds the tree: a war of minimum raises (up to 20 a round) would otherwise branch at
each of the traverser's calls. A path longer than the state stack ends as it stands (never in practice).
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem_poker.abstraction import abstract_move, info_row, legal_actions, rival_legal_actions
from simulate.games.golem_poker.bots import policy_mask
from simulate.games.golem_poker.data import P_ACE_HIGH, P_ANTE, P_MAX_DISCARDS
from simulate.games.golem_poker.engine import apply_move, init_game
from simulate.games.golem_poker.state import *

DEPTH = 400  # states in the traversal's stack: deeper than any path (a deal takes at most about 40 decisions)
EXPLORED_DEALS = 2  # the traverser tries each action in a pot's first deals, samples them after
EXPLORED_RAISES = 4  # and while the round has seen fewer raises (a war's first decision at most), samples them after


def new_stack() -> np.ndarray:
    """The traversal's stack of game records."""
    return np.zeros(DEPTH, STATE_DTYPE)


@njit(cache=True)
def _auto(r, tb):
    """Play the draws (improve policy) until a betting decision or the end."""
    mv = np.zeros(MOVE_LEN, np.int32)
    ace = tb.params[P_ACE_HIGH] != 0
    maxd = tb.params[P_MAX_DISCARDS]
    while r.over == RUNNING and r.phase == DRAW:
        h = r.hand[r.current]
        mv[M_KIND] = DISCARD
        mv[M_CARDS] = policy_mask(h[0], h[1], h[2], h[3], h[4], ace, maxd, False)
        apply_move(r, tb, mv)


@njit(cache=True)
def deal(st, tab, num_players):
    """A new pot in ``st[0]``, its seeds from numba's generator."""
    setup = np.uint64(np.random.randint(0, 2**62))
    play = np.uint64(np.random.randint(0, 2**62))
    init_game(st[0], tab[0], num_players, setup, play)
    _auto(st[0], tab[0])


@njit(cache=True)
def to_act(st, d, tab):
    """Seat to act at depth ``d``; -1 when the pot is won (or the stack is full)."""
    r = st[d]
    if r.over != RUNNING or d >= st.shape[0] - 2:
        return -1
    return r.current


@njit(cache=True)
def row(st, d, tab):
    return info_row(st[d], tab[0])


@njit(cache=True)
def legal(st, d, tab, mask):
    legal_actions(st[d], tab[0], mask)


@njit(cache=True)
def rival_legal(st, d, tab, mask):
    """A training rival's legal actions: the learners', and minimum bets and raises from the round's first bet."""
    rival_legal_actions(st[d], tab[0], mask)


@njit(cache=True)
def step(st, d, tab, a):
    """``st[d + 1]`` = ``st[d]`` after abstract action ``a`` and the draws that follow it."""
    st[d + 1] = st[d]
    r = st[d + 1]
    tb = tab[0]
    mv = np.zeros(MOVE_LEN, np.int32)
    abstract_move(r, tb, a, mv)
    apply_move(r, tb, mv)
    _auto(r, tb)


@njit(cache=True)
def utility(st, d, tab, p):
    """Seat ``p``'s net chips in the pot so far, in antes."""
    r = st[d]
    net = r.won[p] - r.paid_ante[p] - r.paid_bet[p] - r.paid_penalty[p]
    return net / tab[0].params[P_ANTE]


@njit(cache=True)
def explore(st, d, tab):
    return st[d].deal <= EXPLORED_DEALS and st[d].raises < EXPLORED_RAISES


FUNCTIONS = (deal, to_act, row, legal, step, utility)
"""The game as ``simulate.cfr.iterate`` and ``simulate.cfr.play`` take it (``iterate`` adds ``explore``)."""
