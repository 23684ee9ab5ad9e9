"""Golem's position valuation: what a position is worth to a seat under a bot's weights.

The exact points scored now (in-game VP plus what final scoring would give at this moment) plus, while rounds
remain, weights (``bots.PARAM_NAMES``) on resources, Gold, Students, the Study track, the three Menorah lines and
the Golem Control shortfall. A Gold piece waiting to be placed is valued placed on the cauldron where it is worth
most, so a Gold bought or gained counts as owned (and a cauldron it fills as a completed Artifact) at once.
``save_fields`` and ``restore_fields`` keep and put back the fields a valuation on the record itself changes.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from numba import njit

from simulate.games.golem.codes import D_GOLD_PLACE, MAX_STACK
from simulate.games.golem.codes import E_CONTROL_CAP_2 as CAP_DEV
from simulate.games.golem.data import *
from simulate.games.golem.engine.developments import activate_artifact
from simulate.games.golem.engine.legality import art_need, on_board_space
from simulate.games.golem.engine.resources import has_gdev
from simulate.games.golem.engine.scoring import columns_and_books, menorah_lines, objectives_of


@njit(cache=True)
def value(r, tb, s, w):
    """Seat ``s``'s valuation of position ``r`` under weights ``w`` (PARAM_NAMES order; array or tuple).

    A Gold piece waiting for seat ``s`` to place it (the Gold placement decision on top of the stack) is valued
    placed, on the cauldron where the position is worth most (``placed_value``): a Gold bought is a Gold owned."""
    k = r.sp - 1
    if k >= 0 and r.stack[k, 0] == D_GOLD_PLACE and r.stack[k, 1] == s:
        return placed_value(r, tb, s, w)
    return position_value(r, tb, s, w)


@njit(cache=True)
def placed_value(r, tb, s, w):
    """The best ``value`` over the cauldrons seat ``s`` may place a Gold piece on (``engine.decisions._resolve``'s Gold
    placement: a filled cauldron completes its Artifact, which pays at once); ``r`` gets every field back."""
    best = -1e18
    saved = save_fields(r, s)
    for k in range(4):
        if art_need(r, tb, s, k) <= 0:
            continue
        r.art_gold[s, k] += 1
        done = art_need(r, tb, s, k) == 0
        if done:
            r.art_done[s, k] = 1
            activate_artifact(r, tb, s, k)
        best = max(best, position_value(r, tb, s, w))
        r.art_gold[s, k] -= 1
        if done:
            r.art_done[s, k] = 0
            restore_fields(r, s, saved)
    return best


@njit(cache=True)
def position_value(r, tb, s, w):
    """``value`` of a position with no Gold piece of seat ``s`` waiting to be placed."""
    red, yellow, blue, devs = menorah_lines(r, tb, s)
    cols, books = columns_and_books(r, s)
    arts = 0
    gold = 0  # in the cauldrons (a completed Artifact keeps its Gold's worth: completing one loses nothing)
    progress = 0.0  # the unfinished Artifacts' share of their Gold placed: part of an Artifact
    for k in range(4):
        arts += r.art_done[s, k]
        gold += r.art_gold[s, k]
        if r.art_done[s, k] == 0 and r.art_gold[s, k] > 0:
            progress += r.art_gold[s, k] / (r.art_gold[s, k] + art_need(r, tb, s, k))
    owned = gold + r.loose_gold[s]
    obj_vp, met, types = objectives_of(r, tb, s, owned, devs, books)
    ntypes = 0
    while types:
        types &= types - 1
        ntypes += 1
    res = r.res[s, 0] + r.res[s, 1] + r.res[s, 2]
    v = float(r.vp[s] + r.built[s] * red + arts * yellow + cols * blue + tb.sd_vp[r.study[s]] + obj_vp)
    v += tb.objective_type_vp[min(ntypes, 4)] + res / tb.prm[P_LEFTOVER_PER_VP]
    f = (4 - r.round) / 4.0
    if f <= 0.0:
        return v
    steps = r.student[s, 0] + r.student[s, 1] + r.student[s, 2] - 3
    v += f * (w[0] * res + w[1] * gold + w[2] * steps + w[3] * r.study[s])
    v += f * (w[4] * (red + r.built[s]) + w[5] * (yellow + arts + progress) + w[6] * (blue + cols + books / 3.0))
    if w[7] > 0.0:
        cap = 2 if has_gdev(r, tb, s, CAP_DEV) else 99
        need = 0
        for g in range(6):
            loc = r.golem_loc[s, g]
            if on_board_space(loc):
                need += min(cap, max(0, r.golem_sec[s, g] - r.student[s, loc]))
        short = need - r.res[s, KNOWLEDGE]
        if short > 0:
            v -= w[7] * short
    return v


@njit(cache=True)
def save_fields(r, s):
    """The fields ``effect_now`` changes: seat ``s``'s resources, VP, Study track, Students and loose Gold, the
    Menorah tokens, and the stack height with the first free entry's kind and seat (a Gold placement, ``_gold_now``)."""
    top = min(r.sp, MAX_STACK - 1)
    return (
        r.res[s, 0], r.res[s, 1], r.res[s, 2], r.vp[s], r.study[s], r.student[s, 0], r.student[s, 1],
        r.student[s, 2], r.loose_gold[s], r.tokens[0], r.tokens[1], r.tokens[2], r.sp, r.stack[top, 0],
        r.stack[top, 1],
    )  # fmt: skip


@njit(cache=True)
def restore_fields(r, s, saved):
    """Put back the fields ``save_fields`` kept of seat ``s``."""
    r.res[s, 0], r.res[s, 1], r.res[s, 2], r.vp[s], r.study[s] = saved[0], saved[1], saved[2], saved[3], saved[4]
    r.student[s, 0], r.student[s, 1], r.student[s, 2], r.loose_gold[s] = saved[5], saved[6], saved[7], saved[8]
    r.tokens[0], r.tokens[1], r.tokens[2] = saved[9], saved[10], saved[11]
    r.sp = saved[12]
    top = min(r.sp, MAX_STACK - 1)
    r.stack[top, 0], r.stack[top, 1] = saved[13], saved[14]
