"""Monte Carlo counterfactual regret minimisation with external sampling, over a game given as numba functions.

External-sampling MCCFR (Lanctot, Waugh, Zinkevich and Bowling 2009, "Monte Carlo sampling for regret minimization
in extensive games"): each iteration deals once, then for each learning player (the traverser) walks the tree
trying every action of the traverser and sampling one action of every other player and of chance. The traverser's
regrets grow by each action's sampled counterfactual value less the node's; the other players' current strategies
(regret matching) add to their average strategy as they are sampled (simple averaging, as OpenSpiel's
``external_sampling_mccfr``). The average strategy is the one that approaches an equilibrium of a two-player
zero-sum game (``tests/test_cfr.py`` checks it on Kuhn poker).

A game reaches the traversal as njit functions over a stack of states ``st`` (one per depth; ``st[d]`` is the
state at depth d and ``step`` writes ``st[d + 1]``), with ``tb`` the game's tables:

- ``deal(st, tb, num_players)``: a new root in ``st[0]`` (chance from numba's generator, ``np.random``)
- ``to_act(st, d, tb)``: the player to act at depth d, -1 at a terminal
- ``row(st, d, tb)``: the row of the strategy tables for the acting player's information set
- ``legal(st, d, tb, mask)``: fill ``mask`` (A,) with the legal actions
- ``step(st, d, tb, a)``: ``st[d + 1]`` = ``st[d]`` after action ``a`` (and any chance or fixed moves up to the
  next decision)
- ``utility(st, d, tb, p)``: player p's payoff at a terminal
- ``explore(st, d, tb)``: False where the traverser samples its action rather than trying each (bounds the tree)
- ``rival_legal(st, d, tb, mask)``: the legal actions of a fixed rival (below), which may be wider than the
  learners' (a rival plays a move of the real game the abstraction does not offer the learners)

Robust training (``rivals``, ``rival_share``): a share of the traversals is played against a table of one fixed
rival, so the table meets the simple exploits self-play never plays, where it would otherwise never learn to answer
them (in the spirit of Johanson, Zinkevich and Bowling's restricted Nash response, 2008). A rival is a table of
weights like the learners' (``rivals[k, row]``): one row for all (always raise, always call) broadcasts over every
information set, so the (K, rows, A) array is needed only when some rival plays by information set (e.g. by hand
strength); the game supplies the tables.

A player whose ``learn`` flag is 0 plays the ``fixed`` table and learns nothing: with one learner against fixed
players (its average strategy then adds up at its own nodes, weighted by its own reach) the learner's average
strategy approaches a best response to them, the measure of their exploitability
(:func:`play`). The kernels take functions as arguments, which numba cannot cache: they compile once per process.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LEARNS, FIXED = -1, -2  # a seat's role in a traversal; a rival's index (0..K-1) otherwise


@njit(cache=True)
def regret_matching(regret, mask, out):
    """Current strategy of one information set into ``out`` (A,): positive regrets normalised over the legal actions,
    uniform over them when none is positive."""
    total = 0.0
    legal = 0
    for a in range(out.shape[0]):
        out[a] = max(regret[a], 0.0) if mask[a] else 0.0
        total += out[a]
        legal += mask[a]
    for a in range(out.shape[0]):
        if total > 0.0:
            out[a] /= total
        else:
            out[a] = 1.0 / legal if mask[a] else 0.0


@njit(cache=True)
def normalised(weights, mask, out):
    """``weights`` (A,) restricted to the legal actions and normalised into ``out``; uniform over them if all are 0."""
    total = 0.0
    legal = 0
    for a in range(out.shape[0]):
        out[a] = max(weights[a], 0.0) if mask[a] else 0.0
        total += out[a]
        legal += mask[a]
    for a in range(out.shape[0]):
        if total > 0.0:
            out[a] /= total
        else:
            out[a] = 1.0 / legal if mask[a] else 0.0


@njit(cache=True)
def sample(probs, mask):
    """An action drawn from ``probs`` (A,) (numba's generator); the last legal one if rounding leaves a remainder."""
    u = np.random.random()
    last = -1
    for a in range(probs.shape[0]):
        if mask[a]:
            last = a
            u -= probs[a]
            if u < 0.0:
                return a
    return last


# Numba cannot cache a function taking other functions as arguments: this one compiles once per process.
@njit
def _traverse(
    st,
    d,
    tb,
    p,
    reach,
    solo,
    regret,
    total,
    fixed,
    rivals,
    role,
    scratch,
    masks,
    to_act,
    row,
    legal,
    step,
    utility,
    explore,
    rival_legal,
):
    """Sampled counterfactual value of ``st[d]`` for traverser ``p``; updates ``regret`` and ``total``.

    ``reach`` is the traverser's own probability of playing to here; with ``solo`` (the traverser is the only learner)
    its average strategy adds up at its own nodes, weighted by it, since no other traversal samples it.
    """
    q = to_act(st, d, tb)
    if q < 0:
        return utility(st, d, tb, p)
    mask = masks[d]
    if role[q] >= 0:
        rival_legal(st, d, tb, mask)
    else:
        legal(st, d, tb, mask)
    r = row(st, d, tb)
    sigma = scratch[d, 0]
    if q == p:
        regret_matching(regret[r], mask, sigma)
        if solo:
            for a in range(mask.shape[0]):
                total[r, a] += reach * sigma[a]
        if not explore(st, d, tb):
            a = sample(sigma, mask)
            step(st, d, tb, a)
            return _traverse(
                st,
                d + 1,
                tb,
                p,
                reach,
                solo,
                regret,
                total,
                fixed,
                rivals,
                role,
                scratch,
                masks,
                to_act,
                row,
                legal,
                step,
                utility,
                explore,
                rival_legal,
            )
        values = scratch[d, 1]
        node = 0.0
        for a in range(mask.shape[0]):
            values[a] = 0.0
            if mask[a]:
                step(st, d, tb, a)
                values[a] = _traverse(
                    st,
                    d + 1,
                    tb,
                    p,
                    reach * sigma[a],
                    solo,
                    regret,
                    total,
                    fixed,
                    rivals,
                    role,
                    scratch,
                    masks,
                    to_act,
                    row,
                    legal,
                    step,
                    utility,
                    explore,
                    rival_legal,
                )
                node += sigma[a] * values[a]
        for a in range(mask.shape[0]):
            if mask[a]:
                regret[r, a] += values[a] - node
        return node
    if role[q] == LEARNS:
        regret_matching(regret[r], mask, sigma)
        for a in range(mask.shape[0]):
            total[r, a] += sigma[a]
    elif role[q] == FIXED:
        normalised(fixed[r], mask, sigma)
    else:
        normalised(rivals[role[q], r if rivals.shape[1] > 1 else 0], mask, sigma)
    a = sample(sigma, mask)
    step(st, d, tb, a)
    return _traverse(
        st,
        d + 1,
        tb,
        p,
        reach,
        solo,
        regret,
        total,
        fixed,
        rivals,
        role,
        scratch,
        masks,
        to_act,
        row,
        legal,
        step,
        utility,
        explore,
        rival_legal,
    )


# Takes the game's functions: compiled once per process (see _traverse).
@njit
def iterate(
    st,
    tb,
    num_players,
    iterations,
    seed,
    regret,
    total,
    fixed,
    learn,
    rivals,
    rival_share,
    deal,
    to_act,
    row,
    legal,
    step,
    utility,
    explore,
    rival_legal,
):
    """Run ``iterations`` of external-sampling MCCFR from numba's generator seeded with ``seed``.

    Parameters
    ----------
    st : ndarray(record, ndim=1)
        Stack of game states, one per depth (deeper than any path of the tree).
    regret, total : ndarray(float, ndim=2)
        (R, A) cumulative regrets and average-strategy sums, updated in place.
    fixed : ndarray(float, ndim=2)
        (R, A) the strategy of players that do not learn (rows normalised over the legal actions when read).
    learn : ndarray(int8, ndim=1)
        (num_players,) 1 for a player that learns (and traverses), 0 for one that plays ``fixed``.
    rivals : ndarray(float, ndim=3)
        (K, 1, A) weights of fixed rivals, the same at every information set (e.g. always raise), or (K, R, A) when
        one plays by information set (row ``r`` of rival k is ``rivals[k, r]``); (0, 1, A) for none.
    rival_share : float
        The chance that a traversal is played against a table of one of the ``rivals`` (drawn uniformly): every
        learning seat other than the traverser plays it instead of its current strategy; the traverser's average
        strategy then adds up at its own nodes, weighted by its own reach, as with a single learner.
    rival_legal : function
        The rivals' legal actions (``legal`` where the rivals may do no more than the learners).

    Returns
    -------
    float
        Mean sampled value of the traversals, for the progress log.
    """
    np.random.seed(seed)
    depth = st.shape[0]
    actions = regret.shape[1]
    scratch = np.zeros((depth, 2, actions))
    masks = np.zeros((depth, actions), np.bool_)
    role = np.empty(num_players, np.int64)
    value = 0.0
    count = 0
    for _ in range(iterations):
        for p in range(num_players):
            if not learn[p]:
                continue
            rival = -1
            if rivals.shape[0] > 0 and rival_share > 0.0 and np.random.random() < rival_share:
                rival = np.random.randint(0, rivals.shape[0])
            solo = True
            for q in range(num_players):
                role[q] = LEARNS if learn[q] else FIXED
                if q != p and learn[q]:
                    if rival >= 0:
                        role[q] = rival
                    else:
                        solo = False
            deal(st, tb, num_players)
            value += _traverse(
                st,
                0,
                tb,
                p,
                1.0,
                solo,
                regret,
                total,
                fixed,
                rivals,
                role,
                scratch,
                masks,
                to_act,
                row,
                legal,
                step,
                utility,
                explore,
                rival_legal,
            )
            count += 1
    return value / max(count, 1)


# Takes the game's functions: compiled once per process (see _traverse).
@njit
def play(st, tb, num_players, games, seed, policies, seat_policy, deal, to_act, row, legal, step, utility):
    """Play ``games`` games in which seat q samples its actions from ``policies[seat_policy[q]]``; their payoffs.

    Returns
    -------
    ndarray(float, ndim=2)
        (games, num_players) each seat's payoff.
    """
    np.random.seed(seed)
    actions = policies.shape[2]
    sigma = np.zeros(actions)
    mask = np.zeros(actions, np.bool_)
    out = np.zeros((games, num_players))
    for g in range(games):
        deal(st, tb, num_players)
        d = 0
        while True:
            q = to_act(st, d, tb)
            if q < 0:
                break
            legal(st, d, tb, mask)
            normalised(policies[seat_policy[q], row(st, d, tb)], mask, sigma)
            step(st, d, tb, sample(sigma, mask))
            st[0] = st[d + 1]
            d = 0
        for p in range(num_players):
            out[g, p] = utility(st, 0, tb, p)
    return out
