"""What Golem's apprentice sees of a position: its features from one seat's view, and the learned value.

:func:`features` writes ``data.APPRENTICE_FEATURES`` (each documented there) of a record from one seat's view:
that seat's block, the rival's block (the other seat with the highest valuation; solo: the stand-in Automa),
margins, the game's progress and the seat's place in the turn order. A Gold piece waiting to be placed (the Gold
placement decision on top of the stack, right after a Gold is bought or gained) is seen on the cauldron where
``balanced`` values it most, as ``valuation.value`` sees it: a Gold bought is a Gold owned, and its Artifact may be
completed (and pay) by it. It reads only what the seat can see: every
board, resource and track is public, the Library, the Palace and the Neighbourhood tiles too; the other seats'
Objectives are not, so their blocks count no Objectives (their valuation is taken with their Objectives set
aside), and nothing reads the decks, the Action tile pile, the Automa's coming cards or the chance stream.

The same function serves the apprentice's decision (``apprentice_bot``), the search bot's ``leaf=1`` valuation
(:func:`leaf_values`) and the training positions (``play``), so training and play never disagree.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import math

import numpy as np
from numba import njit

from simulate.apprentice import linear_value
from simulate.games.golem.bots import BOTS, PARAM_NAMES
from simulate.games.golem.codes import *
from simulate.games.golem.data import *
from simulate.games.golem.engine import objectives_met
from simulate.games.golem.engine.developments import activate_artifact
from simulate.games.golem.engine.legality import art_need, on_board_space
from simulate.games.golem.engine.resources import has_gdev
from simulate.games.golem.engine.scoring import (
    books_owned,
    columns_and_books,
    devs_flipped,
    gold_owned,
    menorah_lines,
    objective_count,
)
from simulate.games.golem.valuation import position_value, restore_fields, save_fields

NUM_FEATURES = len(APPRENTICE_FEATURES)
SEAT_BLOCK = 19  # features of one seat's block (data._SEAT_FEATURES)
OWN, RIVAL, GLOBAL = 0, SEAT_BLOCK, 2 * SEAT_BLOCK  # where the blocks start
_BALANCED_W = np.array([BOTS["balanced"][2][k][0] for k in PARAM_NAMES])  # the valuation features read
assert NUM_FEATURES == GLOBAL + 13


@njit(cache=True)
def _balanced():
    w = _BALANCED_W
    return (w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])


@njit(cache=True)
def seat_value(r, tb, s, own):
    """``balanced``'s valuation of seat ``s`` (``valuation.value`` of a position whose waiting Gold, if any, is placed:
    :func:`features` places it first); with ``own`` False its Objectives are set aside (hidden from the viewer): ``r``
    gets its Objective count back."""
    if own:
        return position_value(r, tb, s, _balanced())
    held = r.obj_len[s]
    r.obj_len[s] = 0
    v = position_value(r, tb, s, _balanced())
    r.obj_len[s] = held
    return v


@njit(cache=True)
def _seat_block(r, tb, s, own, out, k0):
    """The seat block of seat ``s`` into ``out[k0:k0 + SEAT_BLOCK]`` (its Objectives only when ``own``)."""
    red, yellow, blue, _ = menorah_lines(r, tb, s)
    cols, books = columns_and_books(r, s)
    arts = 0
    gold = r.loose_gold[s]
    progress = 0.0
    short = 0
    for k in range(4):
        arts += r.art_done[s, k]
        gold += r.art_gold[s, k]
        lack = art_need(r, tb, s, k)
        if r.art_done[s, k] == 0 and lack > 0:
            progress += r.art_gold[s, k] / (r.art_gold[s, k] + lack)
            if lack == 1:
                short += 1
    res = r.res[s, 0] + r.res[s, 1] + r.res[s, 2]
    left = res + (r.loose_gold[s] if tb.prm[P_LEFTOVER_GOLD] else 0)
    points = r.vp[s] + r.built[s] * red + arts * yellow + cols * blue + tb.sd_vp[r.study[s]]
    points += left // tb.prm[P_LEFTOVER_PER_VP]
    if own:
        points += objective_points(r, tb, s)
    cap = 2 if has_gdev(r, tb, s, E_CONTROL_CAP_2) else 99
    need = 0
    standing = 0
    for g in range(6):
        loc = r.golem_loc[s, g]
        if on_board_space(loc):
            standing += 1
            need += min(cap, max(0, r.golem_sec[s, g] - r.student[s, loc]))
    out[k0] = seat_value(r, tb, s, own)
    out[k0 + 1] = points
    out[k0 + 2] = r.vp[s]
    out[k0 + 3] = res
    out[k0 + 4] = gold
    out[k0 + 5] = r.student[s, 0] + r.student[s, 1] + r.student[s, 2] - 3
    out[k0 + 6] = r.study[s]
    out[k0 + 7] = red
    out[k0 + 8] = r.built[s]
    out[k0 + 9] = yellow
    out[k0 + 10] = arts
    out[k0 + 11] = blue
    out[k0 + 12] = cols
    out[k0 + 13] = books
    out[k0 + 14] = standing
    out[k0 + 15] = r.track[s]
    out[k0 + 16] = max(0, need - r.res[s, KNOWLEDGE])
    out[k0 + 17] = progress
    out[k0 + 18] = short


@njit(cache=True)
def objective_points(r, tb, s):
    """VP of seat ``s``'s Objectives met now plus the bonus for their types (score parts 5 and 6)."""
    vp, _, types = objectives_met(r, tb, s)
    ntypes = 0
    while types:
        types &= types - 1
        ntypes += 1
    return vp + tb.objective_type_vp[min(ntypes, 4)]


@njit(cache=True)
def objective_progress(r, tb, s):
    """Seat ``s``'s unmet Objectives' VP, each times the share of its threshold reached (``objectives_met``'s
    counts): how near its kept Objectives are, which ``objective_points`` sees only once met."""
    gold = gold_owned(r, s)
    devs = devs_flipped(r, s)
    books = books_owned(r, s)
    total = 0.0
    for k in range(r.obj_len[s]):
        o = r.objectives[s, k]
        count = objective_count(r, tb.ob_type[o], s, gold, devs, books)
        if count < tb.ob_threshold[o]:
            total += tb.ob_vp[o] * count / tb.ob_threshold[o]
    return total


@njit(cache=True)
def automa_points(r, tb):
    """The solo Automa's points as they stand (``engine.automa_parts`` summed), public."""
    total = r.au_vp[0] + r.au_vp[1]
    for k in range(tb.au_doubles.shape[0]):
        if r.au_laps >= tb.au_unlock[k]:
            total += r.au_vp[tb.au_doubles[k]]
    return total


@njit(cache=True)
def _place(r, s):
    for k in range(r.n):
        if r.order[k] == s:
            return k
    return 0


@njit(cache=True)
def features(r, tb, seat, out):
    """The position of record ``r`` from seat ``seat``'s view into ``out`` (``data.APPRENTICE_FEATURES``).

    A Gold piece waiting to be placed is seen placed (:func:`waiting_gold`). ``r`` is changed only while that Gold
    is placed or a seat's Objectives are set aside, and gets every field back."""
    holder, cauldron = waiting_gold(r, tb, seat)
    saved = save_fields(r, max(holder, 0))
    if cauldron >= 0:
        _put_gold(r, tb, holder, cauldron)
    _features(r, tb, seat, out)
    if cauldron >= 0:
        _take_gold(r, holder, cauldron, saved)


@njit(cache=True)
def waiting_gold(r, tb, seat):
    """(seat, cauldron) of a Gold piece waiting to be placed (the Gold placement decision on top of the stack): the
    cauldron where ``balanced`` values the position most, first of equals, with the holder's Objectives set aside
    unless it is ``seat``; (-1, -1) when no Gold waits. ``r`` gets every field back."""
    top = r.sp - 1
    if r.phase == PH_END or top < 0 or r.stack[top, 0] != D_GOLD_PLACE:
        return -1, -1
    s = r.stack[top, 1]
    held = r.obj_len[s]
    if s != seat:
        r.obj_len[s] = 0
    saved = save_fields(r, s)
    best = -1.0e300
    where = -1
    for c in range(4):
        if art_need(r, tb, s, c) <= 0:
            continue
        _put_gold(r, tb, s, c)
        v = position_value(r, tb, s, _balanced())
        _take_gold(r, s, c, saved)
        if v > best:
            best = v
            where = c
    r.obj_len[s] = held
    return s, where


@njit(cache=True)
def _put_gold(r, tb, s, c):
    """Seat ``s``'s Gold on cauldron ``c`` (``engine.decisions``' Gold placement: a filled cauldron completes and
    activates its Artifact)."""
    r.art_gold[s, c] += 1
    if art_need(r, tb, s, c) == 0:
        r.art_done[s, c] = 1
        activate_artifact(r, tb, s, c)


@njit(cache=True)
def _take_gold(r, s, c, saved):
    """Undo :func:`_put_gold` (``saved``: ``valuation.save_fields`` of seat ``s`` before it)."""
    r.art_gold[s, c] -= 1
    if r.art_done[s, c]:
        r.art_done[s, c] = 0
        restore_fields(r, s, saved)


@njit(cache=True)
def _features(r, tb, seat, out):
    """:func:`features` of a record with no Gold piece waiting to be placed (or with it placed)."""
    n = r.n
    _seat_block(r, tb, seat, True, out, OWN)
    mine = out[OWN]
    for k in range(RIVAL, GLOBAL):
        out[k] = 0.0
    rival = -1
    best = -1.0e300
    total = 0.0
    after = r.order[(_place(r, seat) + 1) % n]
    next_value = 0.0
    if r.automa:
        au = automa_points(r, tb)
        best = au
        total = au
        next_value = au
        out[RIVAL] = au
        out[RIVAL + 1] = au
        out[RIVAL + 2] = r.au_vp[0] + r.au_vp[1]
    else:
        for k in range(1, n):  # the rival: the highest valuation, ties to the next seat in table order
            o = (seat + k) % n
            v = seat_value(r, tb, o, False)
            total += v
            if o == after:
                next_value = v
            if v > best:
                best = v
                rival = o
        if rival >= 0:
            _seat_block(r, tb, rival, False, out, RIVAL)
    others = max(n - 1, 1)
    if r.automa:
        others = 1
    rounds_left = max(0.0, (4 - r.round) / 4.0)
    if r.phase == PH_END:
        rounds_left = 0.0
    k = GLOBAL
    out[k] = objective_points(r, tb, seat)
    out[k + 1] = objective_progress(r, tb, seat)
    k += 1
    out[k + 1] = mine - best if (rival >= 0 or r.automa) else 0.0
    out[k + 2] = out[OWN + 1] - out[RIVAL + 1] if (rival >= 0 or r.automa) else 0.0
    out[k + 3] = mine - next_value if (rival >= 0 or r.automa) else 0.0
    out[k + 4] = mine - total / others if (rival >= 0 or r.automa) else 0.0
    out[k + 5] = rounds_left
    phase = 0.0
    if r.phase >= PH_MOVE:
        phase = min(1.0, (r.phase - PH_MOVE) / (PH_CONTROL - PH_MOVE))
    out[k + 6] = phase
    out[k + 7] = out[k + 1] * (1.0 - rounds_left)
    out[k + 8] = _place(r, seat) / max(n - 1, 1)
    out[k + 9] = 1.0 if r.phase != PH_END and r.stack[r.sp - 1, 1] == seat else 0.0
    if r.phase < PH_ACTIONS:
        left = 3
    elif r.phase == PH_ACTIONS:
        left = max(0, 3 - r.actions[seat])
    else:
        left = 0
    out[k + 10] = left
    out[k + 11] = 1.0 if r.phase == PH_ACTIONS and r.passes[seat] > 0 else 0.0


@njit(cache=True)
def leaf_values(r, tb, f, logits):
    """Each seat's logit of the position (its features from its own view, its player count's value weights: at 2 and 4
    players not the policy the apprentice plays by)."""
    w = tb.apprentice_v[r.n]
    for s in range(r.n):
        features(r, tb, s, f)
        logits[s] = linear_value(w, f)


@njit(cache=True)
def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x)) if x > -700.0 else 0.0
