"""Century's ``apprentice`` bot: the afterstate value learned from the search bot (``simulate.apprentice``).

For every candidate move of the search (one payment per acquisition, the greedy discard over the caravan
limit), the apprentice plays the move on a copy of the position, with the unseen deck order re-dealt first
(the search bot's determinisation: the card a refill draws is never peeked at), and values the position it
leads to from the mover's view: ``sigmoid(w . features)``, its chance to win, with the weights of
``seeds/century/apprentice.csv`` for the table's player count (a move that ends the game is valued by its
result). It plays the best (``temperature`` 0) or draws
a move by a softmax over the logits.

The features of a position from one seat's view are ``features.features``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from simulate.apprentice import linear_value, softmax_pick
from simulate.games.century.data import P_TIE_SHARED
from simulate.games.century.engine import rank_seats, score_parts
from simulate.games.century.features import NUM_FEATURES, features
from simulate.games.century.search_bot import _apply, _determinise, _moves, new_scratch
from simulate.games.century.state import MOVE_LEN, RUNNING
from simulate.rng import next_u64, uniform

A_TEMPERATURE = 0  # the apprentice's parameter row: its index in ``bots.BOTS``
MAX_MOVES = 2048


@njit(cache=True)
def new_apprentice_scratch(st):
    """Per-worker scratch: the search's plug-in scratch, a determinised record, moves, features and values."""
    return (
        new_scratch(st),
        np.empty_like(st[:1]),
        np.zeros((MAX_MOVES, MOVE_LEN), np.int16),
        np.zeros(NUM_FEATURES),
        np.zeros(MAX_MOVES),
        np.zeros(8, np.int64),
        np.zeros(1, np.uint64),
    )


@njit(cache=True)
def apprentice_action(st, g, tb, params, scratch, out):
    """Write the apprentice's move for the seat to move in game ``g`` of batch ``st`` into ``out``.

    One draw of the game's play stream seeds the determinisation (and a second the softmax draw when
    ``temperature`` > 0). ``scratch`` from :func:`new_apprentice_scratch`.
    """
    search_scratch, base, moves, f, values, parts, rng = scratch
    sim = search_scratch[0]
    ctx = (tb, search_scratch[1], search_scratch[2])
    _greedy_discards(search_scratch[1])
    r = st[g]
    seat = r.current
    rng[0] = next_u64(r.rng, 0)
    _determinise(ctx, st[g : g + 1], base, seat, rng)
    n = _moves(ctx, base, moves)
    w = tb.apprentice_w[r.num_players]
    if n > 1:
        for k in range(n):
            sim[0] = base[0]
            _apply(ctx, sim, moves[k])
            if sim[0].over != RUNNING:
                values[k] = _final_logit(sim[0], tb, seat, search_scratch)
            else:
                features(sim[0], tb, seat, f, parts)
                values[k] = linear_value(w, f)
    temperature = params[A_TEMPERATURE]
    u = uniform(r.rng, 0) if temperature > 0.0 and n > 1 else 0.0
    pick = softmax_pick(values, n, temperature, u) if n > 1 else 0
    for j in range(MOVE_LEN):
        out[j] = moves[pick, j]


@njit(cache=True)
def _final_logit(r, tb, seat, search_scratch):
    """A finished game's logit for ``seat``: its share of the win, as the rules rank the seats (+-30 for 1 and 0)."""
    scores, parts, rank, win = search_scratch[3], search_scratch[4], search_scratch[5], search_scratch[6]
    n = r.num_players
    for s in range(n):
        score_parts(r, tb, s, parts)
        scores[s] = parts[0] + parts[1] + parts[2] + parts[3]
    rank_seats(scores, n, bool(tb.params[P_TIE_SHARED]), rank, win)
    p = win[seat]
    if p >= 1.0:
        return 30.0
    if p <= 0.0:
        return -30.0
    return math.log(p / (1.0 - p))


@njit(cache=True)
def _greedy_discards(rollout_params):
    """The greedy parameters the search's ``_apply`` reads for its discard over the limit (patience 1)."""
    rollout_params[0, 0] = 1.0
    rollout_params[0, 1] = 0.0
    rollout_params[0, 2] = 0.0
