"""Resources, Gold, tracks and Students of one seat: the small state changes every rule uses (njit)."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from numba import njit

from simulate.games.golem.codes import D_GOLD_PLACE, D_OBJECTIVE, X_GOLD_PIECE
from simulate.games.golem.data import *
from simulate.games.golem.engine.legality import art_need
from simulate.games.golem.engine.stack import _auto, _ob_pop, _push


@njit(cache=True)
def _gain(r, tb, s, res, amount):
    if res < 0 or amount <= 0:
        return
    if res < 3:
        r.res[s, res] += amount
    elif res == GOLD:
        _gain_gold(r, s, amount)
    elif res == VP:
        r.vp[s] += amount
    elif res == STUDY:
        study_up(r, tb, s, amount)


@njit(cache=True)
def _pay(r, s, res, amount):
    if r.res[s, res] < amount:
        r.error = 4
    r.res[s, res] -= amount


@njit(cache=True)
def _lose_vp(r, tb, s, amount):
    lost = min(amount, r.vp[s]) if tb.prm[P_VP_FLOOR_ZERO] else amount
    r.vp[s] -= lost
    return lost


@njit(cache=True)
def _gain_gold(r, s, amount):
    for _ in range(amount):
        _auto(r, s, X_GOLD_PIECE, 0, 0, 0, 0)


@njit(cache=True)
def _gold_piece(r, tb, s):
    if r.gold_supply == 0:
        return
    r.gold_supply -= 1
    for k in range(4):
        if art_need(r, tb, s, k) > 0:
            _push(r, D_GOLD_PLACE, s, 0, 0, 0, 0, 0)
            return
    r.loose_gold[s] += 1


@njit(cache=True)
def study_up(r, tb, s, steps):
    r.study[s] = min(tb.prm[P_STUDY_TRACK_LEN] - 1, r.study[s] + steps)


@njit(cache=True)
def move_student(r, tb, s, dist, steps):
    for _ in range(steps):
        if r.student[s, dist] >= NUM_SECTIONS:
            return
        r.student[s, dist] += 1
        if r.student[s, dist] == tb.prm[P_MENORAH_SECTION] and r.tokens[dist] < 0:
            r.tokens[dist] = s


@njit(cache=True)
def track_level(r, tb, s):
    return tb.gt_level[r.track[s]]


@njit(cache=True)
def has_gdev(r, tb, s, effect):
    for k in range(6):
        if tb.gdev_effect[k] == effect:
            return r.gdev[s, k] == 1
    return False


@njit(cache=True)
def reactivates_effect(r, tb, s, k, effect):
    if r.art_done[s, k] == 0:
        return False
    for tile in range(5):
        if r.adev_space[s, tile] == k and tb.adev_effect[tile, r.adev_side[s, tile]] == effect:
            return True
    return False


@njit(cache=True)
def _take_start(r, tb, s, tile):
    for res in range(3):
        r.res[s, res] += tb.start_tiles[tile, res]
    r.vp[s] += tb.start_tiles[tile, 4]
    study_up(r, tb, s, tb.start_tiles[tile, 5])
    for dist in range(3):
        move_student(r, tb, s, dist, tb.start_tiles[tile, 6 + dist])
    r.kept_starts[s, r.kept_len[s]] = tile
    r.kept_len[s] += 1
    if tb.start_tiles[tile, 3]:
        _gain_gold(r, s, tb.start_tiles[tile, 3])


@njit(cache=True)
def _draw_objectives(r, s, count):
    r.drawn[0] = -1
    r.drawn[1] = -1
    m = min(count, min(2, r.ob_len))
    for k in range(m):
        r.drawn[k] = _ob_pop(r)
    if r.drawn[0] >= 0:
        _push(r, D_OBJECTIVE, s, 0, 0, 0, 0, 0)


@njit(cache=True)
def _student_income(r, tb, s):
    for dist in range(3):
        sec = r.student[s, dist] - 1
        r.res[s, dist] += tb.street_res[sec]
        r.vp[s] += tb.street_vp[sec]
