"""Century's ``search`` bot: the shared ISMCTS (``simulate.search``) with Century's six plug-in functions.

What a seat cannot see in Century is the order of the two decks below the rows (hands, caravans,
rows and coins are public); a determinisation re-deals the unseen cards of each deck in a random
order, after sorting them so that the order the seat cannot see never reaches the search.

The tree's moves are the legal moves with one payment per acquisition: the crystals the greedy
bot spares (those least needed by its target), as ``legal_moves`` lists every payment multiset
(hundreds in a rich caravan) while the choice among them is rarely worth an iteration. Every
turn's discard over the caravan limit is the greedy bot's, in the tree and in the game alike.
Rollouts play the ``greedy`` bot with the search's ``rollout_*`` parameters.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.apprentice import win_shares
from simulate.games.century.bots import (
    GREEDY,
    SCRATCH_MOVES,
    card_value,
    choose_discard,
    greedy_action,
    row_cost,
    spare,
    target,
)
from simulate.games.century.data import P_CARAVAN_LIMIT, P_NUM_MARKET, P_NUM_POINT, P_NUM_START, P_TIE_SHARED
from simulate.games.century.engine import (
    apply_action,
    apply_discard,
    caravan,
    emit,
    end_turn,
    play_moves,
    rank_seats,
    rest_and_claims,
    score_parts,
    write_acquire,
)
from simulate.games.century.features import NUM_FEATURES, leaf_values
from simulate.games.century.state import ACQUIRE, CLAIM, M_KIND, MOVE_LEN, RUNNING
from simulate.rng import next_u64, shuffle
from simulate.search import decide_at, lead_chances, positions_searched, rollouts_at, search_maker, seat_to_move

# parameters of the search bot, in the order of its entry in ``bots.BOTS``
(
    S_ITERATIONS,
    S_UCT_C,
    S_ROLLOUT_TURNS,
    S_SCALE,
    S_ROLLOUT_LOOKAHEAD,
    S_ROLLOUT_EPSILON,
    S_CRYSTAL_VALUE,
    S_CARD_VALUE,
    S_LEAF,
    S_CARD_LEVELS,
) = range(10)
MAX_SEATS = 5


@njit(cache=True)
def new_scratch(st):
    """Per-worker scratch of the search bot: a one-record batch like ``st``, rollout parameters and seat arrays."""
    sim = np.empty_like(st[:1])
    rollout_params = np.zeros((1, 8))
    mv = np.zeros(MOVE_LEN, np.int16)
    scores = np.zeros(MAX_SEATS, np.int64)
    parts = np.zeros(4, np.int64)
    rank = np.zeros(MAX_SEATS, np.int64)
    win = np.zeros(MAX_SEATS, np.float64)
    f = np.zeros(NUM_FEATURES)
    logits = np.zeros(MAX_SEATS)
    return sim, rollout_params, mv, scores, parts, rank, win, f, logits


new_search = search_maker(MOVE_LEN, SCRATCH_MOVES, new_scratch)
"""The tree and scratch of searches of ``iterations`` from ``records`` (``simulate.gamekit.SearchBench``)."""


@njit(cache=True)
def search_action(st, g, tb, params, tree, scratch, out):
    """Write the search bot's move for the seat to move in game ``g`` of batch ``st`` into ``out``.

    ``params`` is the bot's parameter row; ``tree`` a :class:`simulate.search.Tree` with at least
    ``iterations + 1`` nodes; ``scratch`` from :func:`new_scratch`. One draw of the game's play
    stream seeds the search (``simulate.search.decide_at``). Returns the nodes used (0 when the seat had a single
    move).
    """
    _rollout_params(params, scratch)
    ctx = _context(tb, params, scratch)
    return decide_at(
        determinise, tree_moves, tree_apply, _rollout, _evaluate, ctx, st, g, 0, params, scratch[0], tree, out
    )


@njit(cache=True, inline="always")
def _context(tb, params, scratch):
    """The plug-in functions' ``ctx``: tables, rollout parameters, scratch and the leaf's weights."""
    _, rollout_params, mv, scores, parts, rank, win, f, logits = scratch
    weights = (params[S_SCALE], params[S_CRYSTAL_VALUE], params[S_CARD_VALUE], params[S_LEAF], params[S_CARD_LEVELS])
    return (tb, rollout_params, mv, scores, parts, rank, win, weights, f, logits)  # a record is never returned


@njit(cache=True)
def _rollout_params(params, scratch):
    """The rollouts' greedy parameters from the search bot's ``params`` into the scratch row."""
    rollout_params = scratch[1]
    rollout_params[0, 0] = 1.0  # greedy's patience
    rollout_params[0, 1] = params[S_ROLLOUT_LOOKAHEAD]
    rollout_params[0, 2] = params[S_ROLLOUT_EPSILON]


@njit(cache=True)
def rollouts_only(st, g, tb, params, tree, scratch):
    """The search bot's iterations without the tree (``simulate.search.rollouts_at``), for ``golem bench``."""
    _rollout_params(params, scratch)
    ctx = _context(tb, params, scratch)
    return rollouts_at(determinise, _rollout, seat_to_move, _evaluate, ctx, st, g, 0, params, scratch[0], tree)


@njit(cache=True)
def determinise(ctx, root, sim, seat, rng):
    """``sim`` <- ``root`` with the unseen cards of both decks re-dealt; the rollouts get their own stream."""
    sim[0] = root[0]
    r = sim[0]
    tb = ctx[0]
    nk = tb.params[P_NUM_MARKET]
    unseen = r.m_deck[r.m_deck_pos : nk]
    unseen.sort()
    shuffle(rng, 0, unseen, unseen.shape[0])
    unseen = r.p_deck[r.p_deck_pos : tb.params[P_NUM_POINT]]
    unseen.sort()
    shuffle(rng, 0, unseen, unseen.shape[0])
    r.rng[0] = next_u64(rng, 0)


@njit(cache=True)
def tree_moves(ctx, sim, out):
    """Legal moves of the seat to move, one payment per acquisition (the greedy bot's spare crystals)."""
    r = sim[0]
    tb = ctx[0]
    s = r.current
    n = play_moves(r, tb, s, out, 0)
    x0, x1, x2, x3, total = caravan(r, s)
    j = target(r, tb, s, x0, x1, x2, x3, 1.0, -1)
    c0, c1, c2, c3 = row_cost(r, tb, j)
    for p in range(r.m_row.shape[0]):
        if r.m_row[p] < 0 or p > total:
            break
        n = emit(out, n, ACQUIRE, p)
        a, b, c, d = spare(x0, x1, x2, x3, c0, c1, c2, c3, p)
        write_acquire(out[n - 1], p, a, b, c, d)
    return rest_and_claims(r, tb, s, out, n)


@njit(cache=True)
def _finish_turn(ctx, r):
    """The greedy discard over the limit and the end of the turn, after the action in ``ctx``'s move."""
    tb = ctx[0]
    mv = ctx[2]
    apply_action(r, tb, mv)
    choose_discard(r, tb, GREEDY, ctx[1], 0, mv)
    apply_discard(r, mv)
    end_turn(r, tb, mv[M_KIND] == CLAIM)


@njit(cache=True)
def tree_apply(ctx, sim, move):
    """Play ``move`` (a row of ``MOVE_LEN`` fields) on ``sim[0]`` and finish the turn: the search's apply."""
    mv = ctx[2]
    for f in range(MOVE_LEN):
        mv[f] = move[f]
    _finish_turn(ctx, sim[0])


@njit(cache=True)
def _rollout(ctx, sim):
    r = sim[0]
    greedy_action(r, ctx[0], ctx[1], 0, ctx[2])
    _finish_turn(ctx, r)


@njit(cache=True)
def _evaluate(ctx, sim, out):
    """Finished game: each seat's win (shared or by the tie rule). Else: logistic of the worth over the best other's,
    or with ``leaf`` 1 each seat's chance to win by the apprentice's weights (``features.leaf_values``).

    A seat's worth while the game runs: its score as it stands, plus ``crystal_value`` points per
    crystal level held (Y 1, G 2, T 3, M 4: a point card's VP is about the levels it costs),
    ``card_value`` points per merchant card bought and ``card_levels`` points per crystal level that
    one play of each merchant card bought adds over a play of the plainest starting card
    (:func:`bought_levels`, read from the cards' data: an edited card is worth what it now does).
    """
    r = sim[0]
    tb, _, _, scores, parts, rank, win, weights, f, logits = ctx
    scale, crystal_value, card_value, leaf, card_levels = weights
    n = r.num_players
    if r.over == RUNNING and leaf > 0.0:
        leaf_values(r, tb, f, parts, logits)
        win_shares(logits, n, out)
        return
    for s in range(n):
        score_parts(r, tb, s, parts)
        scores[s] = parts[0] + parts[1] + parts[2] + parts[3]
    if r.over != RUNNING:
        rank_seats(scores, n, bool(tb.params[P_TIE_SHARED]), rank, win)
        for s in range(n):
            out[s] = win[s]
        return
    worth = win  # the scratch row of the seats' wins holds their worth
    for s in range(n):
        x = r.crystals[s]
        levels = x[0] + 2 * x[1] + 3 * x[2] + 4 * x[3]
        bought = r.num_owned[s] - tb.params[P_NUM_START]
        worth[s] = scores[s] + crystal_value * levels + card_value * bought + card_levels * bought_levels(r, tb, s)
    lead_chances(worth, n, scale, out)


@njit(cache=True)
def bought_levels(r, tb, s):
    """The crystal levels one play of each merchant card seat ``s`` bought adds over one play of the plainest
    starting card (``bots.card_value``, read from the cards' data; a card that adds less counts 0)."""
    limit = tb.params[P_CARAVAN_LIMIT]
    plain = 1.0e9
    for j in range(tb.params[P_NUM_START]):
        plain = min(plain, card_value(tb, tb.start_cards[j], limit))
    total = 0.0
    for k in range(r.num_owned[s]):
        m = r.owned[s, k]
        start = False
        for j in range(tb.params[P_NUM_START]):
            if tb.start_cards[j] == m:
                start = True
        if not start:
            total += max(card_value(tb, m, limit) - plain, 0.0)
    return total


@njit(cache=True)
def _searchable(st, g, tb, params, tree, scratch):
    """Whether the seat to move in game ``g`` has more than one tree move."""
    return tree_moves((tb,), st[g : g + 1], tree.buf) > 1


@njit(cache=True)
def search_positions(st, tb, params, tree, scratch, out, bare):
    """Search every game of ``st`` once (``bare``: the same iterations without the tree); the decisions searched
    (``simulate.search.positions_searched``, the benchmark of ``golem bench``)."""
    return positions_searched(_searchable, search_action, rollouts_only, st, tb, params, tree, scratch, out, bare)
