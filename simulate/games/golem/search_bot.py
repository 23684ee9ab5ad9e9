"""Golem's ``search`` bot: the shared ISMCTS (``simulate.search``) with Golem's six plug-in functions.

A move of the tree is one decision of the engine (``engine.apply_action``), whoever makes it, over the options
the heuristic bots try (every legal action, small Artifact Developments on the cheapest free space only).
What a seat cannot see, re-sampled for every iteration (a *determinisation*), after sorting each hidden pool so
that its order never reaches the search:

- the order of the Book deck and of the Action tile pile (the discards are public);
- the other seats' Objective cards together with the Objective deck: one pool re-dealt, each seat keeping its
  count (the cards a seat passed on in the draft or put under the deck are not remembered: a looser
  information set, never a peek);
- the solo Automa's cards of the rounds to come (the current round's card is revealed);
- the engine's chance stream (future Synagogue drops and reshuffles) and the rollouts' play stream.

The Palace Characters, the Neighbourhood tiles, the Library and everything on the boards are public. Setup
decisions (draft, Starting and Artifact tiles, starting Golems) are taken by ``balanced``: the search starts
with the first Golem Movement. Rollouts play ``balanced`` for every seat; a finished game is valued as a win
(the rules' ranking), an unfinished one by the logistic of ``balanced``'s valuation margin over the best
other seat (over the Automa's points in solo). With ``leaf`` > 0 an unfinished leaf is valued, in that share, by
the apprentice (``features.leaf_values``): each seat's logit from its own view, turned into win shares
(``simulate.apprentice.win_shares``; solo: the sigmoid of the player's logit); ``leaf`` 0 never computes it.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from simulate.apprentice import win_shares
from simulate.games.golem.bots import BALANCED, BOTS, PARAM_NAMES
from simulate.games.golem.codes import NUM_ACTIONS, PH_END, PH_MOVE, UP_ART, Decision
from simulate.games.golem.data import NUM_AUTOMA_CARDS
from simulate.games.golem.engine import NUM_PARTS, apply_action, automa_parts, current_player, legal_mask, score_parts
from simulate.games.golem.engine.legality import OPTIONS
from simulate.games.golem.engine.state import P, new_pads
from simulate.games.golem.features import NUM_FEATURES, leaf_values, sigmoid
from simulate.games.golem.heuristics import candidates, cheapest_space, choose
from simulate.games.golem.valuation import value
from simulate.rng import next_u64, shuffle
from simulate.search import lead_chances, rollouts_at, search, search_maker

# parameters of the search bot, in the order of its entry in ``bots.BOTS``
S_ITERATIONS, S_UCT_C, S_HORIZON, S_SCALE, S_LEAF = range(5)
MOVE_LEN = 1  # a tree move is one action
MAX_MOVES = NUM_ACTIONS
_BALANCED_W = np.array([BOTS["balanced"][2][k][0] for k in PARAM_NAMES])  # the rollouts' weights
_POOL = 64  # hidden cards of one pool (38 Books, 27 Objectives, 12 Action tiles, 20 Automa cards)
D_ARTIFACT_ACTION = int(Decision.ARTIFACT_ACTION)
D_UPGRADE = int(Decision.UPGRADE)
D_INCOME_UPGRADE = int(Decision.INCOME_UPGRADE)


@njit(cache=True)
def new_scratch(st, pads):
    """Per-worker scratch of the search bot: a one-record batch like ``st``, the bot pad ``pads`` (1,) ``state.PAD``
    (the play loop's: a bot keeps nothing in it between decisions), a card pool, seat values, and the apprentice's
    feature vector and seat logits (``leaf``)."""
    sim = np.empty_like(st[:1])
    pool = np.zeros(_POOL, np.int16)
    vals = np.zeros(P, np.float64)
    parts = np.zeros(NUM_PARTS, np.int64)
    mv = np.zeros(MOVE_LEN, np.int16)
    f = np.zeros(NUM_FEATURES, np.float64)
    logits = np.zeros(P, np.float64)
    return sim, pads, pool, vals, parts, mv, f, logits


new_search = search_maker(MOVE_LEN, MAX_MOVES, lambda records: new_scratch(records, new_pads(1)))
"""The tree and scratch of searches of ``iterations`` from ``records`` (``simulate.gamekit.SearchBench``)."""


# The plug-in functions' context ``ctx``: (tables, bot pad, card pool, seat values, score parts, the rollouts'
# weights, the leaf's scale, its apprentice share, the feature vector, the seat logits), built where it is used
# from the scratch (a function returning it would return the tables' record, which numba cannot box)


@njit(cache=True)
def balanced_weights():
    """``balanced``'s weights as the tuple ``heuristics.choose`` takes (the rollouts' player)."""
    w = _BALANCED_W
    return (w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])


@njit(cache=True)
def search_action(st, g, tb, params, tree, scratch):
    """The search bot's action for the seat to move in game ``g`` of batch ``st`` (``tb``: the packed tables).

    ``params`` is the bot's parameter row; ``tree`` a :class:`simulate.search.Tree` with at least
    ``iterations + 1`` nodes and moves of ``MOVE_LEN``; ``scratch`` from :func:`new_scratch`. A searched decision
    takes one draw of the game's play stream to seed the search; a setup decision is ``balanced``'s.
    """
    sim, pads = scratch[0], scratch[1]
    mv = scratch[5]
    r = st[g]
    if r.phase < PH_MOVE:
        return choose(r, tb, BALANCED, balanced_weights(), pads[0])
    sc = scratch
    ctx = (tb, sc[1], sc[2], sc[3], sc[4], balanced_weights(), params[S_SCALE], params[S_LEAF], sc[6], sc[7])
    root = st[g : g + 1]
    n = tree_moves(ctx, root, tree.buf)
    if n == 1:
        return int(tree.buf[0, 0])
    tree.rng[0] = next_u64(r.rng, 0)
    search(
        determinise,
        tree_moves,
        tree_apply,
        _rollout,
        _current,
        _evaluate,
        ctx,
        root,
        sim,
        tree,
        int(params[S_ITERATIONS]),
        params[S_UCT_C],
        int(params[S_HORIZON]),
        mv,
    )
    return int(mv[0])


@njit(cache=True)
def rollouts_only(st, g, tb, params, tree, scratch):
    """The search bot's iterations without the tree (``simulate.search.rollouts_at``), for ``golem bench``."""
    sc = scratch
    ctx = (tb, sc[1], sc[2], sc[3], sc[4], balanced_weights(), params[S_SCALE], params[S_LEAF], sc[6], sc[7])
    return rollouts_at(determinise, _rollout, _current, _evaluate, ctx, st, g, 0, params, sc[0], tree)


@njit(cache=True)
def _resample(rng, pool, n):
    """Sort then shuffle ``pool[:n]``: the result depends on the cards and ``rng`` only, never on their order."""
    cards = pool[:n]
    cards.sort()
    shuffle(rng, 0, cards, n)


@njit(cache=True)
def determinise(ctx, root, sim, seat, rng):
    """``sim`` <- ``root``, what ``seat`` cannot see re-sampled (module docstring); fresh chance and play streams."""
    sim[0] = root[0]
    r = sim[0]
    pool = ctx[2]
    size = r.bk_q.shape[0]
    for k in range(r.bk_len):
        pool[k] = r.bk_q[(r.bk_head + k) % size]
    _resample(rng, pool, r.bk_len)
    for k in range(r.bk_len):
        r.bk_q[(r.bk_head + k) % size] = pool[k]
    size = r.ob_q.shape[0]
    m = 0
    for k in range(r.ob_len):
        pool[m] = r.ob_q[(r.ob_head + k) % size]
        m += 1
    for o in range(r.n):
        if o != seat:
            for k in range(r.obj_len[o]):
                pool[m] = r.objectives[o, k]
                m += 1
    _resample(rng, pool, m)
    m = 0
    for o in range(r.n):
        if o != seat:
            for k in range(r.obj_len[o]):
                r.objectives[o, k] = pool[m]
                m += 1
    for k in range(r.ob_len):
        r.ob_q[(r.ob_head + k) % size] = pool[m]
        m += 1
    for k in range(r.at_len):
        pool[k] = r.at_q[r.at_head + k]
    _resample(rng, pool, r.at_len)
    for k in range(r.at_len):
        r.at_q[r.at_head + k] = pool[k]
    if r.automa:
        m = 0
        for k in range(r.round + 1, NUM_AUTOMA_CARDS):
            pool[m] = r.au_deck[k]
            m += 1
        _resample(rng, pool, m)
        for k in range(r.round + 1, NUM_AUTOMA_CARDS):
            r.au_deck[k] = pool[k - r.round - 1]
    r.chance[0] = next_u64(rng, 0)
    r.rng[0] = next_u64(rng, 0)


@njit(cache=True)
def tree_moves(ctx, sim, out):
    """The options of the pending decision the bots try (small Artifact Developments on the cheapest space only)."""
    r = sim[0]
    tb = ctx[0]
    mask = ctx[1][0].mask
    kind = r.stack[r.sp - 1, 0]
    if kind == D_ARTIFACT_ACTION or kind == D_UPGRADE or kind == D_INCOME_UPGRADE:
        first = 1 if kind == D_ARTIFACT_ACTION else UP_ART + 1
        candidates(r, tb, current_player(r), kind, first, cheapest_space(r, tb, current_player(r)), mask)
    else:
        legal_mask(r, tb, mask)
    n = 0
    for a in range(OPTIONS[kind]):
        if mask[a]:
            out[n, 0] = a
            n += 1
    return n


@njit(cache=True)
def tree_apply(ctx, sim, move):
    """Play ``move`` (its action in field 0) on ``sim[0]``: the search's apply."""
    apply_action(sim[0], ctx[0], move[0])


@njit(cache=True)
def _rollout(ctx, sim):
    r = sim[0]
    tb = ctx[0]
    apply_action(r, tb, choose(r, tb, BALANCED, ctx[5], ctx[1][0]))


@njit(cache=True)
def _current(sim):
    r = sim[0]
    if r.phase == PH_END:
        return -1
    return current_player(r)


@njit(cache=True)
def _evaluate(ctx, sim, out):
    """Finished game: each seat's win by the rules' ranking (score, then the uppermost Rabbi; solo: against the
    Automa). Else: the logistic of ``balanced``'s valuation margin over the best other seat (solo: the Automa's
    points now), ``scale`` points of margin giving 0.73; with ``leaf`` > 0, that share of the apprentice's win
    shares mixed in (``leaf`` 1: the apprentice's alone)."""
    r = sim[0]
    tb, _, _, vals, parts, w, scale, leaf, f, logits = ctx
    n = r.n
    over = r.phase == PH_END
    if not over and leaf >= 1.0:
        _apprentice_leaf(r, tb, f, logits, out)
        return
    for s in range(n):
        if over:
            score_parts(r, tb, s, parts)
            total = 0
            for k in range(NUM_PARTS):
                total += parts[k]
            vals[s] = total
        else:
            vals[s] = value(r, tb, s, w)
    if r.automa:
        automa_parts(r, tb, parts)
        au = parts[0] + parts[1] + parts[2]
        if over:
            out[0] = 1.0 if vals[0] > au or (vals[0] == au and r.au_pos > 0) else 0.0
        else:
            out[0] = 1.0 / (1.0 + math.exp(-(vals[0] - au) / scale))
            if leaf > 0.0:
                _mix_apprentice(r, tb, f, logits, out, leaf)
        return
    if over:
        for s in range(n):
            out[s] = 0.0
        best = -1
        for k in range(n):  # the final turn order: the first of the top scores wins
            s = r.order[k]
            if best < 0 or vals[s] > vals[best]:
                best = s
        out[best] = 1.0
        return
    lead_chances(vals, n, scale, out)
    if leaf > 0.0:
        _mix_apprentice(r, tb, f, logits, out, leaf)


@njit(cache=True)
def _apprentice_leaf(r, tb, f, logits, out):
    """The apprentice's value of an unfinished position: each seat's win share (solo: the player's chance)."""
    leaf_values(r, tb, f, logits)
    if r.automa:
        out[0] = sigmoid(logits[0])
    else:
        win_shares(logits, r.n, out)


@njit(cache=True)
def _mix_apprentice(r, tb, f, logits, out, leaf):
    """``out`` <- (1 - leaf) x ``out`` + leaf x the apprentice's values."""
    n = r.n
    saved0 = out[0]
    saved1 = out[1] if n > 1 else 0.0
    saved2 = out[2] if n > 2 else 0.0
    saved3 = out[3] if n > 3 else 0.0
    _apprentice_leaf(r, tb, f, logits, out)
    for s in range(n):
        old = saved0 if s == 0 else saved1 if s == 1 else saved2 if s == 2 else saved3
        out[s] = (1.0 - leaf) * old + leaf * out[s]


@njit(cache=True)
def search_positions(st, tb, params, tree, scratch, bare):
    """Search every game of ``st`` once (``bare``: the same iterations without the tree); the decisions searched.

    The benchmark of ``golem bench``: setup positions and those with a single option are skipped in both modes.
    """
    searched = 0
    sc = scratch
    ctx = (tb, sc[1], sc[2], sc[3], sc[4], balanced_weights(), params[S_SCALE], params[S_LEAF], sc[6], sc[7])
    for g in range(st.shape[0]):
        if st[g].phase < PH_MOVE or st[g].phase == PH_END or tree_moves(ctx, st[g : g + 1], tree.buf) < 2:
            continue
        searched += 1
        if bare:
            rollouts_only(st, g, tb, params, tree, scratch)
        else:
            search_action(st, g, tb, params, tree, scratch)
    return searched
