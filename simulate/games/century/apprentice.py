"""Century's ``apprentice`` bot: the afterstate value learned from the search bot (``simulate.apprentice``).

For every candidate move of the search (one payment per acquisition, the greedy discard over the caravan
limit), the apprentice plays the move on a copy of the position, with the next card of each deck re-dealt
first from the unseen cards (a move draws at most one card of each deck, so this is the search bot's
determinisation as far as one move sees it: the card a refill draws is never peeked at), and values the position it
leads to from the mover's view: ``sigmoid(w . features)``, its chance to win, with the weights of
``seeds/century/apprentice.csv`` for the table's player count, or those of its ``style``
(``seeds/century/styles.toml``; a move that ends the game is valued by its result). It plays the best
(``temperature`` 0) or draws a move by a softmax over the logits.

A claim that triggers the end (``endgame`` 1, the default) is valued by the end it leads to: after the claim the
claimer never moves again and each later seat has one last turn, so the apprentice re-deals the unseen cards of both
decks, plays those turns out (each seat choosing as the apprentice does, from its own view; the last seat's moves
end the game and are valued by its result) and values the claim by the final ranking. Valued as any other move, the
claim was taken with too thin a lead: the last seat's final turn overtook it (see ``docs/century.md``).

The features of a position from one seat's view are ``features.features``.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import math

import numpy as np
from numba import njit

from simulate.apprentice import linear_value, softmax_pick
from simulate.games.century.bots import card_value
from simulate.games.century.data import P_CARAVAN_LIMIT, P_NUM_MARKET, P_NUM_POINT, P_TIE_SHARED
from simulate.games.century.engine import rank_seats, score_parts
from simulate.games.century.features import (
    NUM_FEATURES,
    ROW_SHAPE,
    best_rival,
    features,
    features_same_row,
    seat_row,
)
from simulate.games.century.search_bot import determinise, new_scratch, tree_apply, tree_moves
from simulate.games.century.state import *
from simulate.rng import next_u64, randint, uniform

A_TEMPERATURE, A_ENDGAME, A_STYLE = 0, 1, 2  # the apprentice's parameter row: their index in ``bots.BOTS``
MAX_MOVES = 2048


@njit(cache=True)
def new_apprentice_scratch(st):
    """Per-worker scratch: the search's plug-in scratch, a determinised record, moves, two feature rows (the second
    for claims), values, score parts, the determinisation's stream, the point row's table, a card mark per card, and
    for the end look-ahead two records, moves and a feature row."""
    r = st[0]
    return (
        new_scratch(st),
        np.empty_like(st[:1]),
        np.zeros((MAX_MOVES, MOVE_LEN), np.int16),
        np.zeros(NUM_FEATURES),
        np.zeros(NUM_FEATURES),
        np.zeros(MAX_MOVES),
        np.zeros(8, np.int64),
        np.zeros(1, np.uint64),
        np.zeros(ROW_SHAPE, np.int64),
        np.zeros(max(r.m_turn.shape[0], r.p_turn.shape[0]), np.bool_),
        np.empty_like(st[:1]),
        np.empty_like(st[:1]),
        np.zeros((MAX_MOVES, MOVE_LEN), np.int16),
        np.zeros(NUM_FEATURES),
    )


@njit(cache=True)
def apprentice_action(st, g, tb, params, scratch, out):
    """Write the apprentice's move for the seat to move in game ``g`` of batch ``st`` into ``out``.

    One draw of the game's play stream seeds the determinisation (and a second the softmax draw when
    ``temperature`` > 0). ``scratch`` from :func:`new_apprentice_scratch`.

    What the decision's moves share is computed once: the first afterstate of a move other than a claim gets the
    whole :func:`features`, the others only what such a move changes (:func:`features_same_row`: the seat's own
    block, from the point row's costs and values and the seat's production read once, and the margins); a claim's
    afterstate gets the whole :func:`features`.
    """
    search_scratch, base, moves, f, f_claim, values, parts, rng, row, marks, look, trial, look_moves, f_look = scratch
    sim = search_scratch[0]
    ctx = (tb, search_scratch[1], search_scratch[2])
    _greedy_discards(search_scratch[1])
    r = st[g]
    seat = r.current
    rng[0] = next_u64(r.rng, 0)
    _redeal_next(st[g : g + 1], base, tb, rng, marks)
    n = tree_moves(ctx, base, moves)
    w = tb.style_w[int(params[A_STYLE]), r.num_players]
    if n > 1:
        b = base[0]
        _, best_score = best_rival(b, tb, seat, parts)  # the mover's move changes no other seat's score
        power = seat_row(b, tb, seat, row)
        limit = tb.params[P_CARAVAN_LIMIT]
        endgame = params[A_ENDGAME] > 0.0 and b.triggered == 0
        have_row = False  # ``f`` holds the features of an afterstate of a move other than a claim
        for k in range(n):
            sim[0] = b
            tree_apply(ctx, sim, moves[k])
            a = sim[0]
            kind = moves[k, M_KIND]
            if a.over != RUNNING:
                values[k] = _final_logit(a, tb, seat, search_scratch)
            elif kind == CLAIM and endgame and a.triggered == 1:
                determinise(ctx, base, look, seat, rng)  # the card the claim reveals is re-dealt too
                tree_apply(ctx, look, moves[k])
                share = _play_out_final_round(ctx, look, trial, look_moves, f_look, parts, w, seat, search_scratch)
                values[k] = _logit(share)
            elif kind == CLAIM:
                features(a, tb, seat, f_claim, parts)
                values[k] = linear_value(w, f_claim)
            elif have_row:
                gained = card_value(tb, b.m_row[moves[k, M_ARG]], limit) if kind == ACQUIRE else 0.0
                features_same_row(a, tb, seat, f, parts, row, kind, power + gained, best_score)
                values[k] = linear_value(w, f)
            else:
                features(a, tb, seat, f, parts)
                have_row = True
                values[k] = linear_value(w, f)
    temperature = params[A_TEMPERATURE]
    u = uniform(r.rng, 0) if temperature > 0.0 and n > 1 else 0.0
    pick = softmax_pick(values, n, temperature, u) if n > 1 else 0
    for j in range(MOVE_LEN):
        out[j] = moves[pick, j]


@njit(cache=True)
def _play_out_final_round(ctx, look, trial, moves, f, parts, w, seat, search_scratch):
    """``seat``'s share of the win at the end of the game in ``look`` (the final round under way, its decks
    re-dealt): each later seat's last turn played as the apprentice plays it (``temperature`` 0, from its view)."""
    tb = ctx[0]
    while look[0].over == RUNNING:
        mover = look[0].current
        n = tree_moves(ctx, look, moves)
        pick = 0
        best = -math.inf
        for k in range(n):
            trial[0] = look[0]
            tree_apply(ctx, trial, moves[k])
            t = trial[0]
            if t.over != RUNNING:
                value = _final_logit(t, tb, mover, search_scratch)
            else:
                features(t, tb, mover, f, parts)
                value = linear_value(w, f)
            if value > best:
                best = value
                pick = k
        tree_apply(ctx, look, moves[pick])
    return _final_share(look[0], tb, seat, search_scratch)


@njit(cache=True)
def _redeal_next(root, sim, tb, rng, marks):
    """``sim`` <- ``root`` with the next card of each deck drawn anew from its unseen cards (by rank among them, so
    their hidden order is never read): all of the deck order a single move can see."""
    sim[0] = root[0]
    r = sim[0]
    _redeal_top(r.m_deck[r.m_deck_pos : tb.params[P_NUM_MARKET]], rng, marks)
    _redeal_top(r.p_deck[r.p_deck_pos : tb.params[P_NUM_POINT]], rng, marks)


@njit(cache=True)
def _redeal_top(unseen, rng, marks):
    """A uniform draw from the cards of ``unseen`` to its first place: the ``j``-th smallest for a uniform ``j``
    (what the first place of the sorted cards after a swap with place ``j`` held), swapped with the first card.

    ``marks``: a False flag per card id, left False. The rest of ``unseen`` is never read by one move.
    """
    n = unseen.shape[0]
    if n > 1:
        j = randint(rng, 0, n)
        for k in range(n):
            marks[unseen[k]] = True
        card = -1
        rank = -1
        for c in range(marks.shape[0]):
            if marks[c]:
                rank += 1
                if rank == j:
                    card = c
                    break
        for k in range(n):
            marks[unseen[k]] = False
        for k in range(n):
            if unseen[k] == card:
                unseen[k] = unseen[0]
                unseen[0] = card
                break


@njit(cache=True)
def _final_logit(r, tb, seat, search_scratch):
    """A finished game's logit for ``seat``: its share of the win, as the rules rank the seats (+-30 for 1 and 0)."""
    return _logit(_final_share(r, tb, seat, search_scratch))


@njit(cache=True)
def _final_share(r, tb, seat, search_scratch):
    """A finished game's share of the win for ``seat``, as the rules rank the seats."""
    scores, parts, rank, win = search_scratch[3], search_scratch[4], search_scratch[5], search_scratch[6]
    n = r.num_players
    for s in range(n):
        score_parts(r, tb, s, parts)
        scores[s] = parts[0] + parts[1] + parts[2] + parts[3]
    rank_seats(scores, n, bool(tb.params[P_TIE_SHARED]), rank, win)
    return win[seat]


@njit(cache=True)
def _logit(p):
    """The logit of a probability, +-30 at 1 and 0."""
    if p >= 1.0:
        return 30.0
    if p <= 0.0:
        return -30.0
    return math.log(p / (1.0 - p))


@njit(cache=True)
def _greedy_discards(rollout_params):
    """The greedy parameters the search's ``tree_apply`` reads for its discard over the limit (patience 1)."""
    rollout_params[0, 0] = 1.0
    rollout_params[0, 1] = 0.0
    rollout_params[0, 2] = 0.0
