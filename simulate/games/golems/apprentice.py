"""Golems' ``apprentice`` bot: a linear afterstate value learned from the search bot (``simulate.apprentice``).

To move, the apprentice draws one number from the game's play stream, deals the cards its seat cannot see
(the deck's order and the cards removed at setup) anew from it, as the search's determinisations do
(``bots.determinize``: sorted first, so the real order never matters), lists the search's candidate moves
(``search_bot.tree_moves``: every legal card choice, a summon with the collector's tucks), plays each on a copy
of that one re-dealt position (the turn end refills rows from the re-dealt deck) and values the position
reached from the mover's view: the logit ``w . features`` (``value.features``, summed by ``value.fused_logit``;
weights of the player count from ``seeds/golems/apprentice.csv``, or those of its ``style``:
``seeds/golems/styles.toml``; kernel table ``style_w``, whose style 0 is ``apprentice_w``). A move that ends
the game is valued by its result instead. It plays the move of the highest logit, or at a temperature above 0 draws
one with probability proportional to ``exp(logit / temperature)``.

The look-ahead (2 players, temperature 0; parameters ``lookahead`` and ``margin``): when the best logit leads the
second by less than ``margin``, the ``lookahead`` moves of the highest logits are played again on the re-dealt
position, the opponent answers each with its move of the highest logit (the same weights, from its view), and the
position after that reply is valued from the mover's view by the reply value (whatever the style), a logistic
regression of the win on the same features (``seeds/golems/apprentice_value.csv``, kernel table ``apprentice_v``):
the 2-player weights are a policy, fitted to the search's choices, whose logits compare one position's moves but not
positions of different decisions, so they cannot value the reply.

``learning.positions`` plays training games exactly as a run plays them (the same loop, bots and seeds) and records
the features of the position after every move from every seat's view, for ``golem train golems``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.apprentice import softmax_pick
from simulate.games.golems.bots import WORK_LEN, WORK_ROWS, determinize
from simulate.games.golems.engine import rank_game, score, step
from simulate.games.golems.features import FEATURES, NUM_FEATURES
from simulate.games.golems.search_bot import tree_moves
from simulate.games.golems.state import MOVE_LEN, RUNNING
from simulate.games.golems.value import features, fused_logit
from simulate.rng import next_u64, uniform

__all__ = ["FEATURES", "apprentice_action", "features"]

FINISHED = 30.0
"""Logit of a move that ends the game with a win (its negative: a loss; 0: a shared win)."""

SOLO_MARGIN_SCALE = 2.0
"""Points of final margin over the automaton that make a solo training label 0.73 (as the search's ``scale``)."""

REPLIES = 8192
"""Row of the work record's move list from which :func:`_reply_value` lists the opponent's replies."""

RECORD_DECISIONS = 160
"""Decisions of one game whose positions :func:`positions` records (a 2-player game takes about 42, solo 30)."""


@njit(cache=True)
def _finished_value(after, tb, s, w):
    """Seat ``s``'s value of a finished game: ``FINISHED`` for a win, ``-FINISHED`` for a loss, 0 for a shared win."""
    for q in range(after.num_players):
        w.scores[q] = score(after, tb, q)
    rank_game(after, tb, w.scores, w.ranks, w.wins)
    return FINISHED * (2.0 * w.wins[s] - 1.0)


@njit(cache=True)
def apprentice_action(r, tb, temperature, lookahead, margin, style, w):
    """Write the apprentice's move for the seat to move in game record ``r`` into ``w.mv`` (``w``: a work record
    of ``bots.new_work``, whose scratch records, move lists, feature and value arrays it uses), valuing moves by the
    weights of ``style`` (0: the apprentice's own).

    At 2 players and temperature 0, when the best logit leads the second by less than ``margin``, the
    ``lookahead`` moves of the highest logits are compared by :func:`_reply_value` instead. Draws exactly one
    number from the play stream, whatever the position.
    """
    s = r.current
    w.seed[0] = next_u64(r.rng, 0)
    sims = w.scratch
    sims[0] = r
    det = sims[0]
    det.rng[0] = next_u64(w.seed, 0)
    determinize(det)
    moves = w.moves
    n = tree_moves((tb, w.mv, w.work), sims[0:1], moves)
    best = 0
    if n > 1:
        values = w.values
        pw = tb.style_w[style, r.num_players]
        for k in range(n):
            sims[1] = det
            after = sims[1]
            step(after, tb, moves[k])
            if after.over != RUNNING:
                values[k] = _finished_value(after, tb, s, w)
            else:
                values[k] = fused_logit(after, tb, s, w.work, w.feat, pw)
        best = softmax_pick(values, n, temperature, uniform(w.seed, 0))
        if temperature <= 0.0 and lookahead >= 2.0 and r.num_players == 2:
            second = -np.inf
            for k in range(n):
                if k != best:
                    second = max(second, values[k])
            if values[best] - second < margin:
                best = _look_ahead(tb, s, min(int(lookahead), n), n, pw, w)
    for f in range(MOVE_LEN):
        w.mv[f] = moves[best, f]


@njit(cache=True)
def _look_ahead(tb, s, k, n, pw, w):
    """Index of the move, among the ``k`` of the highest ``w.values[:n]`` (overwritten), of the best
    :func:`_reply_value` with the opponent replying by weights ``pw`` (the first of equals)."""
    values = w.values
    sims = w.scratch
    best = -1
    best_value = -np.inf
    for _ in range(k):
        i = 0
        for j in range(1, n):
            if values[j] > values[i]:
                i = j
        values[i] = -np.inf
        sims[1] = sims[0]
        step(sims[1], tb, w.moves[i])
        v = _reply_value(tb, s, pw, w)
        if v > best_value:
            best = i
            best_value = v
    return best


@njit(cache=True)
def _reply_value(tb, s, pw, w):
    """Seat ``s``'s value of ``w.scratch[1]`` (its move's afterstate) once the opponent has made the reply of its
    highest logit by weights ``pw`` (the mover's own, the same re-dealt deck): the logit of the reply value
    (``apprentice_v``) from ``s``'s view, or the result if the game has ended (``FINISHED`` for a win)."""
    sims = w.scratch
    after = sims[1]
    if after.over != RUNNING:
        return _finished_value(after, tb, s, w)
    mover = after.current
    replies = w.moves[REPLIES:]
    m = tree_moves((tb, w.mv, w.work), sims[1:2], replies)
    top = -np.inf
    pick = 0
    for j in range(m):
        sims[2] = after
        reply = sims[2]
        step(reply, tb, replies[j])
        if reply.over != RUNNING:
            v = _finished_value(reply, tb, mover, w)
        else:
            v = fused_logit(reply, tb, mover, w.work, w.feat, pw)
        if v > top:
            top = v
            pick = j
    sims[2] = after
    reply = sims[2]
    step(reply, tb, replies[pick])
    if reply.over != RUNNING:
        return _finished_value(reply, tb, s, w)
    return fused_logit(reply, tb, s, w.work, w.feat, tb.apprentice_v[after.num_players])


@njit(cache=True)
def choice_features(st, tab, seed, ws, out):
    """The apprentice's candidate moves in game 0 of batch ``st`` (left unchanged) into ``ws[0].moves`` and the features
    of the position each leads to, from the mover's view, into ``out`` rows (after one re-deal of the unseen cards
    seeded by ``seed``, as :func:`apprentice_action` values them); returns their count, negative when one of them
    ends the game (the apprentice values those by their result, so they teach the policy nothing)."""
    tb = tab[0]
    w = ws[0]
    sims = w.scratch
    sims[0] = st[0]
    det = sims[0]
    det.rng[0] = seed
    determinize(det)
    moves = w.moves
    n = tree_moves((tb, w.mv, w.work), sims[0:1], moves)
    ends = False
    for k in range(n):
        sims[1] = det
        after = sims[1]
        step(after, tb, moves[k])
        if after.over != RUNNING:
            ends = True
        else:
            features(after, tb, det.current, w.work, out[k])
    return -n if ends else n


@njit(cache=True)
def game_apprentice(st, tab, g, temperature, lookahead, margin, ws, style=0):
    """Entry point for Python callers (tests): the apprentice's move (of ``style``) in game ``g`` of batch ``st`` into
    ``ws[0].mv``."""
    apprentice_action(st[g], tab[0], temperature, lookahead, margin, style, ws[0])


@njit(cache=True)
def game_features(st, tab, g, seat, out):
    """Entry point for Python callers (tests, notebooks): the features of game ``g`` from ``seat``'s view."""
    work = np.zeros((WORK_ROWS, WORK_LEN), np.int64)
    features(st[g], tab[0], seat, work, out)


assert len(FEATURES) == NUM_FEATURES
