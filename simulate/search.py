"""Information-set Monte Carlo tree search in numba, shared by every game's ``search`` bot.

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012; OpenSpiel's ``ISMCTSBot``): every
iteration re-samples what the searching seat cannot see from what it can (a *determinisation*),
walks the tree by UCT over the moves legal in that sample, expands one untried move, plays the
game's rollout policy up to a horizon and backs up one value per seat: each node holds the value
of the seat that made its move (max^n backup), so opponents are searched as players too. A child
is scored against its *availability* (the iterations in which its move was legal), not its
parent's visits, since a determinisation may hide some moves.

A game plugs in six njit functions, passed to :func:`search` as arguments (numba specialises a
function on the dispatchers it receives and caches each specialisation, so no game carries a
copy of the tree code and nothing is compiled twice per session)::

    determinise(ctx, root, sim, seat, rng)  # sim <- root with the hidden parts re-sampled
    moves(ctx, sim, out) -> int             # candidate moves of the seat to move into out
    apply(ctx, sim, mv)                     # play move mv (the whole turn) in sim
    rollout(ctx, sim)                       # play one turn by the rollout policy
    current(sim) -> int                     # seat to move, -1 once the game is over (often seat_to_move)
    evaluate(ctx, sim, out)                 # value in [0, 1] of the position for each seat

``ctx`` is whatever the game needs (tables, parameters, scratch); ``root`` and ``sim`` are game
records. A bot calls :func:`decide` (the search, skipped when the seat has one move), in a game of a batch
:func:`decide_at`, which seeds the search and reads its budget from the bot's parameters (every game's search bot
begins them with ``SEARCH_PARAMS``); :func:`rollouts_at` and :func:`positions_searched` are the same plumbing for
``golem bench``'s measure of the tree's overhead. The tree lives
in a :class:`Tree` of arrays allocated once per worker (:func:`new_tree`);
an iteration allocates nothing. Randomness comes from ``tree.rng``, seeded by the caller from the
game's play stream, so a game stays a pure function of (master seed, game index).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from simulate.rng import next_u64, randint

SEARCH_PARAMS = ("iterations", "uct_c", "rollout_turns")
"""The first parameters of every game's search bot, in this order (:func:`decide_at`, :func:`rollouts_at`)."""


class Tree(NamedTuple):
    """Preallocated node arrays of one worker's search (N nodes, moves of ``move_len`` fields).

    Node 0 is the root. Children of a node form a linked list (``first_child``, ``next_sibling``).
    """

    visits: np.ndarray  # float64 (N,): iterations through the node
    avail: np.ndarray  # float64 (N,): iterations in which the node's move was legal at its parent
    value: np.ndarray  # float64 (N,): summed value of the seat that made the node's move
    mover: np.ndarray  # int8 (N,): seat that made the node's move
    first_child: np.ndarray  # int32 (N,), -1 if none
    next_sibling: np.ndarray  # int32 (N,), -1 if none
    move: np.ndarray  # int16 (N, move_len): the move leading to the node
    buf: np.ndarray  # int16 (max_moves, move_len): candidate moves of the node being walked
    child_of: np.ndarray  # int32 (max_moves,): child node of each candidate, -1 if untried
    path: np.ndarray  # int32 (N,): nodes walked in one iteration
    values: np.ndarray  # float64 (8,): values per seat of one iteration
    rng: np.ndarray  # uint64 (1,): the search's random stream


@njit(cache=True)
def new_tree(max_nodes: int, move_len: int, max_moves: int) -> Tree:
    """Node arrays for searches of up to ``max_nodes - 1`` iterations over moves of ``move_len`` fields."""
    n = max(int(max_nodes), 2)
    return Tree(
        np.zeros(n),
        np.zeros(n),
        np.zeros(n),
        np.zeros(n, np.int8),
        np.full(n, -1, np.int32),
        np.full(n, -1, np.int32),
        np.zeros((n, move_len), np.int16),
        np.zeros((max_moves, move_len), np.int16),
        np.full(max_moves, -1, np.int32),
        np.zeros(n, np.int32),
        np.zeros(8),
        np.zeros(1, np.uint64),
    )


def search_maker(
    move_len: int, max_moves: int, new_scratch: Callable[[np.ndarray], Any]
) -> Callable[[np.ndarray, int], tuple[Tree, Any]]:
    """A game's ``new_search(records, iterations)`` (``simulate.gamekit.SearchBench``): the tree of searches of
    ``iterations`` (:func:`new_tree`, moves of ``move_len`` fields, ``max_moves`` of them at a node) and the game's
    scratch ``new_scratch(records)``."""

    def new_search(records: np.ndarray, iterations: int) -> tuple[Tree, Any]:
        return new_tree(iterations + 1, move_len, max_moves), new_scratch(records)

    return new_search


@njit(cache=True)
def same_move(a, b):
    """Whether two moves (rows of move fields) are equal field by field."""
    for f in range(a.shape[0]):
        if a[f] != b[f]:
            return False
    return True


@njit(cache=True, inline="always")
def search(
    determinise, moves, apply, rollout, current, evaluate, ctx, root, sim, tree, iterations, uct_c, horizon, out
):
    """Search ``iterations`` determinisations from ``root`` for the seat to move; write its best move into ``out``.

    The best move is the root child visited most (ties: the first tried). ``horizon`` counts the
    rollout turns played after the tree before :func:`evaluate`; ``uct_c`` is the exploration
    constant. Returns the number of nodes used. ``sim`` is a scratch game record.
    """
    seat = current(root)
    max_nodes = tree.visits.shape[0]
    tree.visits[0] = 0.0
    tree.avail[0] = 0.0
    tree.value[0] = 0.0
    tree.first_child[0] = -1
    tree.next_sibling[0] = -1
    used = 1
    for _ in range(iterations):
        determinise(ctx, root, sim, seat, tree.rng)
        node = 0
        depth = 0
        tree.path[0] = 0
        expanded = False
        while not expanded and used < max_nodes:
            mover = current(sim)
            if mover < 0:
                break
            n = moves(ctx, sim, tree.buf)
            untried = 0
            c = tree.first_child[node]
            for k in range(n):
                tree.child_of[k] = -1
            while c >= 0:
                for k in range(n):
                    if tree.child_of[k] < 0 and same_move(tree.move[c], tree.buf[k]):
                        tree.child_of[k] = c
                        tree.avail[c] += 1.0
                        break
                c = tree.next_sibling[c]
            for k in range(n):
                if tree.child_of[k] < 0:
                    untried += 1
            if untried > 0:
                pick = randint(tree.rng, 0, untried)
                k = 0
                while True:
                    if tree.child_of[k] < 0:
                        if pick == 0:
                            break
                        pick -= 1
                    k += 1
                child = used
                used += 1
                tree.visits[child] = 0.0
                tree.avail[child] = 1.0
                tree.value[child] = 0.0
                tree.mover[child] = mover
                tree.first_child[child] = -1
                tree.next_sibling[child] = tree.first_child[node]
                tree.first_child[node] = child
                for f in range(tree.move.shape[1]):
                    tree.move[child, f] = tree.buf[k, f]
                expanded = True
            else:
                best = -1.0e300
                child = -1
                for k in range(n):
                    c = tree.child_of[k]
                    v = tree.value[c] / tree.visits[c] + uct_c * math.sqrt(math.log(tree.avail[c]) / tree.visits[c])
                    if v > best:
                        best = v
                        child = c
            apply(ctx, sim, tree.move[child])
            node = child
            depth += 1
            tree.path[depth] = node
        t = 0
        while t < horizon and current(sim) >= 0:
            rollout(ctx, sim)
            t += 1
        evaluate(ctx, sim, tree.values)
        for d in range(depth + 1):
            nd = tree.path[d]
            tree.visits[nd] += 1.0
            if d > 0:
                tree.value[nd] += tree.values[tree.mover[nd]]
    best = -1.0
    c = tree.first_child[0]
    pick = -1
    while c >= 0:
        if tree.visits[c] >= best:  # children are listed newest first: ties go to the first tried
            best = tree.visits[c]
            pick = c
        c = tree.next_sibling[c]
    for f in range(out.shape[0]):
        out[f] = tree.move[pick, f]
    return used


@njit(cache=True)
def seat_to_move(sim):
    """The ``current`` plug-in of a game whose records have ``over`` (0 while it runs) and ``current``."""
    r = sim[0]
    if r.over != 0:
        return -1
    return r.current


@njit(cache=True)
def lead_chances(values, n, scale, out):
    """Each seat's chance at a leaf from its lead: ``out[s]`` = the logistic of (``values[s]`` - the best value of
    the other seats) / ``scale``, for the seats ``0 .. n - 1`` (at least two)."""
    for s in range(n):
        best = -1.0e300
        for o in range(n):
            if o != s and values[o] > best:
                best = values[o]
        out[s] = 1.0 / (1.0 + math.exp(-(values[s] - best) / scale))


@njit(cache=True, inline="always")
def decide(
    determinise, moves, apply, rollout, current, evaluate, ctx, root, sim, tree, iterations, uct_c, horizon, out
):
    """:func:`search`, except that a seat with one candidate move plays it at once; the nodes used (0 then).

    The caller seeds ``tree.rng`` first, so a game's random streams advance alike whatever the seat's moves.
    """
    if moves(ctx, root, tree.buf) == 1:
        for f in range(out.shape[0]):
            out[f] = tree.buf[0, f]
        return 0
    return search(
        determinise, moves, apply, rollout, current, evaluate, ctx, root, sim, tree, iterations, uct_c, horizon, out
    )


@njit(cache=True, inline="always")
def bare_rollouts(determinise, rollout, current, evaluate, ctx, root, sim, tree, count, horizon):
    """What :func:`search`'s iterations cost without the tree: ``count`` determinisations of ``root``, each
    played ``horizon`` turns by the rollout policy and valued. Returns the summed value of the seat to move
    (the benchmark of the tree's overhead; also flat Monte Carlo's estimate of the position)."""
    seat = current(root)
    total = 0.0
    for _ in range(count):
        determinise(ctx, root, sim, seat, tree.rng)
        t = 0
        while t < horizon and current(sim) >= 0:
            rollout(ctx, sim)
            t += 1
        evaluate(ctx, sim, tree.values)
        total += tree.values[seat]
    return total


@njit(cache=True, inline="always")
def decide_at(determinise, moves, apply, rollout, evaluate, ctx, st, g, stream, params, sim, tree, out):
    """:func:`decide` for the seat to move in game ``g`` of batch ``st`` (:func:`seat_to_move` its ``current``).

    One draw of the game's random stream ``stream`` seeds the tree's; ``params`` is the bot's parameter row, which
    begins with ``SEARCH_PARAMS``. Returns the nodes used (0 when the seat had a single move).
    """
    tree.rng[0] = next_u64(st[g].rng, stream)
    iterations, uct_c, horizon = int(params[0]), params[1], int(params[2])
    root = st[g : g + 1]
    return decide(
        determinise,
        moves,
        apply,
        rollout,
        seat_to_move,
        evaluate,
        ctx,
        root,
        sim,
        tree,
        iterations,
        uct_c,
        horizon,
        out,
    )


@njit(cache=True, inline="always")
def rollouts_at(determinise, rollout, current, evaluate, ctx, st, g, stream, params, sim, tree):
    """:func:`bare_rollouts` from game ``g`` of batch ``st``, seeded and sized as :func:`decide_at` searches it: a
    game's ``rollouts_only``, for ``golem bench``."""
    tree.rng[0] = next_u64(st[g].rng, stream)
    count, horizon = int(params[0]), int(params[2])
    return bare_rollouts(determinise, rollout, current, evaluate, ctx, st[g : g + 1], sim, tree, count, horizon)


@njit(cache=True, inline="always")
def positions_searched(searchable, search_action, rollouts_only, st, tb, params, tree, scratch, out, bare):
    """Search every game of ``st`` once with a game's ``search_action`` (``bare``: its ``rollouts_only``, the same
    iterations without the tree) where ``searchable(st, g, tb, params, tree, scratch)``; the decisions searched.

    A game's ``search_positions``, the benchmark of ``golem bench``: the positions skipped (those with one move)
    are skipped alike in both modes.
    """
    searched = 0
    for g in range(st.shape[0]):
        if not searchable(st, g, tb, params, tree, scratch):
            continue
        searched += 1
        if bare:
            rollouts_only(st, g, tb, params, tree, scratch)
        else:
            search_action(st, g, tb, params, tree, scratch, out)
    return searched
