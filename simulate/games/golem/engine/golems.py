"""Golems: steps, overmoving, creating, killing, Income and Golem Control (njit)."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from numba import njit

from simulate.games.golem.codes import *
from simulate.games.golem.data import *
from simulate.games.golem.engine.developments import activate_artifact
from simulate.games.golem.engine.legality import create_cost, on_board_space, study_dev_bonus
from simulate.games.golem.engine.resources import (
    _gain_gold,
    _lose_vp,
    _pay,
    _student_income,
    has_gdev,
    reactivates_effect,
)
from simulate.games.golem.engine.stack import _auto, _push


@njit(cache=True)
def step_golem(r, tb, s, g, pay, back):
    r.last_stepped = g
    r.standing[s, g] = 1
    if back:
        r.golem_sec[s, g] -= 1
        return
    cost = tb.street_entry[r.golem_sec[s, g]]
    r.golem_sec[s, g] += 1
    if cost:
        if pay:
            _pay(r, s, KNOWLEDGE, cost)
        else:
            r.stats[ST_VP_SECTIONS, s] += _lose_vp(r, tb, s, cost)


@njit(cache=True)
def _overmove(r, tb, s):
    left = r.step_left
    r.step_left = 0
    on_board = 0
    for g in range(6):
        if on_board_space(r.golem_loc[s, g]):
            on_board += 1
    if left <= 0 or on_board == 0:
        return
    per = 1 if tb.prm[P_OVERMOVE_ONE] else tb.prm[P_OVERMOVE_PENALTY]
    loss = min(left * per, tb.prm[P_OVERMOVE_PENALTY] * on_board)
    r.stats[ST_VP_OVERMOVE, s] += _lose_vp(r, tb, s, loss)


@njit(cache=True, inline="always")
def free_golem(r, s):
    """The first of seat ``s``'s Golems from 2 on still off the board: the next one it creates."""
    g = 2
    while r.golem_loc[s, g] != OFF_BOARD:
        g += 1
    return g


@njit(cache=True, inline="always")
def stand_golem(r, tb, s, g, dist):
    """Golem ``g`` of seat ``s`` created: standing, fresh, at section 1 of district ``dist``; the Golem track moves."""
    r.golem_loc[s, g] = dist
    r.golem_sec[s, g] = 1
    r.standing[s, g] = 1
    r.fresh[s, g] = 1
    r.built[s] += 1
    r.track[s] = min(tb.prm[P_GOLEM_TRACK_LEN] - 1, r.track[s] + tb.prm[P_TRACK_CREATE])


@njit(cache=True)
def _create(r, tb, s, dist, discount):
    _pay(r, s, CLAY, create_cost(r, tb, s, dist, discount))
    g = free_golem(r, s)
    stand_golem(r, tb, s, g, dist)
    for k in range(4):
        if reactivates_effect(r, tb, s, k, E_REACTIVATE_CREATE_GOLEM):
            _auto(r, s, X_ACTIVATE_ART, k, 0, 0, 0)
    if has_gdev(r, tb, s, E_CREATE_STEP_ACTIVATE):  # the Development's "may": the step is confirmed (R27)
        _push(r, D_CONFIRM, s, E_CREATE_STEP_ACTIVATE, dist, 0, 0, g)


@njit(cache=True)
def _kill(r, tb, s, g, space):
    r.golem_loc[s, g] = CEMETERY
    r.golem_sec[s, g] = 0
    if tb.cem_unlimited[space] == 0:
        r.cemetery[space] = s
    r.cemetery_count[s] += 1
    r.killed[s] += 1
    r.track[s] = max(0, r.track[s] - tb.prm[P_TRACK_KILL])
    times = 2 if has_gdev(r, tb, s, E_KILL_DOUBLE_CEMETERY) else 1
    for res in range(3):
        r.res[s, res] += tb.cem_bonus[space, res] * times
    r.vp[s] += tb.cem_bonus[space, 4] * times
    if tb.cem_bonus[space, 3]:
        _gain_gold(r, s, tb.cem_bonus[space, 3] * times)


@njit(cache=True)
def _income(r, tb):
    for i in range(r.n):
        s = r.order[i]
        _student_income(r, tb, s)
        for k in range(4):
            if r.art_done[s, k]:
                activate_artifact(r, tb, s, k)
        r.res[s, KNOWLEDGE] += tb.sd_income[r.study[s]] + study_dev_bonus(r, tb, s, P_STUDY_DEV_INCOME)
        r.res[s, CLAY] += tb.gt_clay[r.track[s]]
        r.vp[s] += tb.gt_vp[r.track[s]]


@njit(cache=True)
def _control(r, tb):
    for s in range(r.n):
        control_seat(r, tb, s)


@njit(cache=True)
def control_seat(r, tb, s):
    """Golem Control of seat ``s``: Knowledge for each Golem ahead of its Student, cheapest first, 5 VP for each one
    not paid for. Changes the seat's Knowledge, VP and control statistics, and ``tmp[0:6]``."""
    if r.free_control[s]:
        return
    cap = 2 if has_gdev(r, tb, s, E_CONTROL_CAP_2) else 99
    m = 0
    for g in range(6):
        loc = r.golem_loc[s, g]
        if on_board_space(loc):
            cost = min(cap, max(0, r.golem_sec[s, g] - r.student[s, loc]))
            # insertion into the sorted costs r.tmp[:m]
            j = m
            while j > 0 and r.tmp[j - 1] > cost:
                r.tmp[j] = r.tmp[j - 1]
                j -= 1
            r.tmp[j] = cost
            m += 1
    unpaid = 0
    for j in range(m):
        cost = r.tmp[j]
        if r.res[s, KNOWLEDGE] >= cost:
            r.res[s, KNOWLEDGE] -= cost
            r.stats[ST_KNOW_CONTROL, s] += cost
        else:
            unpaid += 1
    if unpaid:
        r.stats[ST_KNOW_CONTROL, s] += r.res[s, KNOWLEDGE]
        r.res[s, KNOWLEDGE] = 0
        r.stats[ST_VP_CONTROL, s] += _lose_vp(r, tb, s, unpaid * tb.prm[P_CONTROL_PENALTY])
