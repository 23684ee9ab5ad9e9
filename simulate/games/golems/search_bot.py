"""Golems' ``search`` bot: the shared ISMCTS (``simulate.search``) with Golems' six plug-in functions.

What a seat cannot see in Golems is the order of the deck and which cards were removed at setup
(the display, every seat's cards and gems and the supply are public); a determinisation deals
those unseen cards anew (``bots.determinize``: sorted first, so their real order never reaches
the search). In a solo game the automaton's turns are part of the rules, played inside each turn.

The tree's moves are the legal moves with one tuck vector per summon, the collector's (the
tucks that pay; ``legal_moves`` lists every vector, up to thousands, while the choice among them
is rarely worth an iteration). Rollouts play the ``collector`` bot; a leaf is valued by the
look-ahead bot's evaluation (points plus the collector's column, dust and gem plans, against the
opponent's or the automaton's), squashed by a logistic; a finished game by its win. With parameter
``leaf`` > 0 an unfinished leaf is valued (in that share) by the apprentice instead: each seat's logit
from its own view (``value.leaf_values``), the expert of ``golem train golems``.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import math

import numpy as np
from numba import njit

from simulate.games.golems.bots import (
    C_CHASE,
    C_COLUMN,
    C_ENDGAME,
    C_GEM,
    C_TARGET,
    W_TUCK,
    WORK_LEN,
    WORK_ROWS,
    collector_move,
    determinize,
    display_needs,
    plan_tucks,
    plan_weight,
    potential,
)
from simulate.games.golems.data import P_NUM_TYPES
from simulate.games.golems.engine import moves_by_card, rank_game, score, step
from simulate.games.golems.features import NUM_FEATURES
from simulate.games.golems.state import *
from simulate.games.golems.value import leaf_values
from simulate.rng import next_u64
from simulate.search import decide_at, positions_searched, rollouts_at, same_move, search_maker, seat_to_move

# parameters of the search bot, in the order of its entry in ``bots.BOTS``
S_ITERATIONS, S_UCT_C, S_ROLLOUT_TURNS, S_SCALE, S_LEAF = range(5)
SEARCH_MOVES = 1024  # bound on the tree's moves of one position (one tuck vector per summon)


@njit(cache=True)
def new_scratch(st):
    """Per-worker scratch of the search bot: a one-record batch like ``st``, a move and work arrays."""
    sim = np.empty_like(st[:1])
    mv = np.zeros(MOVE_LEN, np.int16)
    work = np.zeros((WORK_ROWS, WORK_LEN), np.int64)  # the rollouts' collector
    own = np.zeros((WORK_ROWS, WORK_LEN), np.int64)  # the leaf evaluation
    scores = np.zeros(2, np.int64)
    rank = np.zeros(2, np.int64)
    win = np.zeros(2, np.float64)
    feat = np.zeros(NUM_FEATURES, np.float64)  # the apprentice's leaf value (``leaf``)
    logits = np.zeros(2, np.float64)
    shares = np.zeros(2, np.float64)
    return sim, mv, work, own, scores, rank, win, feat, logits, shares


new_search = search_maker(MOVE_LEN, SEARCH_MOVES, new_scratch)
"""The tree and scratch of searches of ``iterations`` from ``records`` (``simulate.gamekit.SearchBench``)."""


@njit(cache=True, inline="always")
def _context(tb, params, scratch):
    """The plug-in functions' ``ctx``: tables, scratch, the leaf's logistic scale and the apprentice's share."""
    _, mv, work, own, scores, rank, win, feat, logits, shares = scratch
    return (tb, mv, work, own, scores, rank, win, params[S_SCALE], params[S_LEAF], feat, logits, shares)


@njit(cache=True)
def search_action(st, g, tb, params, tree, scratch, out):
    """Write the search bot's move for the seat to move in game ``g`` of batch ``st`` into ``out``.

    ``params`` is the bot's parameter row; ``tree`` a :class:`simulate.search.Tree` with at least
    ``iterations + 1`` nodes and ``SEARCH_MOVES`` move slots; ``scratch`` from :func:`new_scratch`.
    One draw of the game's play stream seeds the search (``simulate.search.decide_at``). Returns the nodes used
    (0 when the seat had a single move).
    """
    ctx = _context(tb, params, scratch)
    return decide_at(
        _determinise, tree_moves, _apply, _rollout, _evaluate, ctx, st, g, 0, params, scratch[0], tree, out
    )


@njit(cache=True)
def root_shares(st, tab, params, tree, scratch, moves, n, out):
    """Search game 0 of ``st`` (its play stream advances) as :func:`search_action` does and write the share of the
    root's visits that went to each of ``moves[:n]`` into ``out[:n]`` (0 for a move the search never tried)."""
    search_action(st, 0, tab[0], params, tree, scratch, scratch[1])
    total = 0.0
    for k in range(n):
        out[k] = 0.0
        c = tree.first_child[0]
        while c >= 0:
            if same_move(tree.move[c], moves[k]):
                out[k] = tree.visits[c]
                break
            c = tree.next_sibling[c]
        total += out[k]
    if total > 0.0:
        for k in range(n):
            out[k] /= total


@njit(cache=True)
def rollouts_only(st, g, tb, params, tree, scratch):
    """The search bot's iterations without the tree (``simulate.search.rollouts_at``), for ``golem bench``."""
    ctx = _context(tb, params, scratch)
    return rollouts_at(_determinise, _rollout, seat_to_move, _evaluate, ctx, st, g, 0, params, scratch[0], tree)


@njit(cache=True)
def _determinise(ctx, root, sim, seat, rng):
    """``sim`` <- ``root`` with the unseen cards dealt anew; the rollouts go on with the stream drawn for it."""
    sim[0] = root[0]
    r = sim[0]
    r.rng[0] = next_u64(rng, 0)
    determinize(r)


@njit(cache=True)
def tree_moves(ctx, sim, out):
    """Legal moves of the seat to move, each summon with the collector's tucks."""
    r = sim[0]
    tb = ctx[0]
    work = ctx[2]
    n = moves_by_card(r, tb, out, False)
    planned = False
    for k in range(n):
        if out[k, M_KIND] != TAKE_CARD or out[k, M_ABILITY] != SUMMON:
            continue
        if not planned:
            display_needs(r, tb, work)
            planned = True
        c = r.slot[out[k, M_ROW], out[k, M_POS]]
        plan_tucks(r, tb, r.current, c, C_COLUMN, plan_weight(r, C_ENDGAME), work)
        for t in range(tb.params[P_NUM_TYPES]):
            out[k, M_TUCK + t] = work[W_TUCK, t]
    return n


@njit(cache=True)
def _apply(ctx, sim, move):
    step(sim[0], ctx[0], move)


@njit(cache=True)
def _rollout(ctx, sim):
    r = sim[0]
    tb, mv, work = ctx[0], ctx[1], ctx[2]
    collector_move(r, tb, C_GEM, C_COLUMN, C_TARGET, C_CHASE, C_ENDGAME, mv, work)
    step(r, tb, mv)


@njit(cache=True)
def _evaluate(ctx, sim, out):
    """Finished game: each seat's win. Else seat 0's logistic of its worth over the other side's (``potential``).

    The other side is the opponent (seat 1 gets the complement) or in solo the automaton's score. With ``leaf``
    > 0 that share of the value is the apprentice's (``value.leaf_values``); at 0 it is not computed.
    """
    r = sim[0]
    tb, _, _, own, scores, rank, win, scale, leaf, feat, logits, shares = ctx
    n = r.num_players
    if r.over != RUNNING:
        for s in range(n):
            scores[s] = score(r, tb, s)
        rank_game(r, tb, scores, rank, win)
        out[0] = win[0]
        out[1] = win[1]
        return
    if leaf >= 1.0:
        leaf_values(r, tb, own, feat, logits, shares)
        out[0] = shares[0]
        out[1] = 1.0 - out[0]
        return
    display_needs(r, tb, own)
    v = potential(r, tb, 0, own)
    if n == 2:
        v -= potential(r, tb, 1, own)
    else:
        v -= r.automa_vp
    out[0] = 1.0 / (1.0 + math.exp(-v / scale))
    if leaf > 0.0:
        leaf_values(r, tb, own, feat, logits, shares)
        out[0] = (1.0 - leaf) * out[0] + leaf * shares[0]
    out[1] = 1.0 - out[0]


@njit(cache=True)
def _searchable(st, g, tb, params, tree, scratch):
    """Whether the seat to move in game ``g`` has more than one tree move."""
    return tree_moves(_context(tb, params, scratch), st[g : g + 1], tree.buf) > 1


@njit(cache=True)
def search_positions(st, tb, params, tree, scratch, out, bare):
    """Search every game of ``st`` once (``bare``: the same iterations without the tree); the decisions searched
    (``simulate.search.positions_searched``, the benchmark of ``golem bench``)."""
    return positions_searched(_searchable, search_action, rollouts_only, st, tb, params, tree, scratch, out, bare)
