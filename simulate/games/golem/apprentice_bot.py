"""Golem's ``apprentice`` bot: one afterstate per candidate option, valued by the learned linear model.

For the seat to move, the apprentice lists the options the search bot tries (``search_bot.tree_moves``: every legal
action, small Artifact Developments on the cheapest free space), re-deals what the seat cannot see
(``search_bot.determinise``, seeded by one draw of the game's play stream: the Book deck and Action tile pile
orders, the other seats' Objectives with the Objective deck, the Automa's coming cards, the chance stream), plays
each option on a copy of that determinised record (the engine runs on to the next decision, as for every bot) and
values the position it leads to from the mover's view: the logit ``w . features`` with the weights of the table's
player count (``seeds/golem/apprentice.csv``, or those of its ``style``: ``seeds/golem/styles.toml``). Temperature 0
plays the best (the first of equals); above 0 a
softmax draw (a second draw of the play stream). A decision with one option takes it without a draw. Setup
decisions (the Objective draft, Artifact and Starting tiles, the starting Golems) are ``balanced``'s, as in the
search bot.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.apprentice import linear_value, softmax_pick
from simulate.games.golem.bots import BALANCED
from simulate.games.golem.codes import PH_MOVE
from simulate.games.golem.engine import current_player
from simulate.games.golem.features import NUM_FEATURES, features
from simulate.games.golem.heuristics import choose
from simulate.games.golem.search_bot import MAX_MOVES, MOVE_LEN, balanced_weights, determinise, tree_apply, tree_moves
from simulate.rng import next_u64, uniform

A_TEMPERATURE, A_STYLE = 0, 1  # the apprentice's parameter row: their index in ``bots.BOTS``


@njit(cache=True)
def new_apprentice_scratch(st, search_scratch):
    """Per-worker scratch: the search bot's scratch (its pads, card pool, ...), a determinised record, a record to
    play an option on, the options, a feature vector, the options' values and a generator state."""
    return (
        search_scratch,
        np.empty_like(st[:1]),
        np.empty_like(st[:1]),
        np.zeros((MAX_MOVES, MOVE_LEN), np.int16),
        np.zeros(NUM_FEATURES, np.float64),
        np.zeros(MAX_MOVES, np.float64),
        np.zeros(1, np.uint64),
    )


@njit(cache=True)
def apprentice_action(st, g, tb, params, scratch):
    """The apprentice's action for the seat to move in game ``g`` of batch ``st`` (``tb``: the packed tables).

    ``params`` is the bot's parameter row (``A_TEMPERATURE``, ``A_STYLE``); ``scratch`` from
    :func:`new_apprentice_scratch`.
    """
    search_scratch, base, sim, moves, f, values, rng = scratch
    r = st[g]
    pads = search_scratch[1]
    if r.phase < PH_MOVE:
        return choose(r, tb, BALANCED, balanced_weights(), pads[0])
    sc = search_scratch
    ctx = (tb, sc[1], sc[2], sc[3], sc[4], balanced_weights(), 4.0, 0.0, sc[6], sc[7])  # the search's context
    n = tree_moves(ctx, st[g : g + 1], moves)
    if n == 1:
        return int(moves[0, 0])
    seat = current_player(r)
    rng[0] = next_u64(r.rng, 0)
    determinise(ctx, st[g : g + 1], base, seat, rng)
    w = tb.style_w[int(params[A_STYLE]), r.n]
    for k in range(n):
        sim[0] = base[0]
        tree_apply(ctx, sim, moves[k])
        features(sim[0], tb, seat, f)
        values[k] = linear_value(w, f)
    temperature = params[A_TEMPERATURE]
    u = uniform(r.rng, 0) if temperature > 0.0 else 0.0
    return int(moves[softmax_pick(values, n, temperature, u), 0])


@njit(cache=True)
def choice_features(st, g, tab, seed, scratch, out):
    """For Python callers (``apprentice.choices``): the apprentice's options in game ``g`` of batch ``st`` (left
    unchanged; ``tab``: the packed tables' array) into ``scratch``'s option array, and the
    features of the position each leads to, from the mover's view, into ``out`` rows (after one re-deal of what the
    seat cannot see, seeded by ``seed``, as :func:`apprentice_action` values them); returns their count (0 for a setup
    decision, which ``balanced`` takes)."""
    search_scratch, base, sim, moves, _, _, rng = scratch
    tb = tab[0]
    r = st[g]
    if r.phase < PH_MOVE:
        return 0
    sc = search_scratch
    ctx = (tb, sc[1], sc[2], sc[3], sc[4], balanced_weights(), 4.0, 0.0, sc[6], sc[7])
    n = tree_moves(ctx, st[g : g + 1], moves)
    if n == 1:
        return 1
    seat = current_player(r)
    rng[0] = seed
    determinise(ctx, st[g : g + 1], base, seat, rng)
    for k in range(n):
        sim[0] = base[0]
        tree_apply(ctx, sim, moves[k])
        features(sim[0], tb, seat, out[k])
    return n
