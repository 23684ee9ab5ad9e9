"""Resolving a decision: one branch per decision, a main action, and advancing to the next decision (njit)."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem.codes import *
from simulate.games.golem.data import *
from simulate.games.golem.engine.developments import _buy_book, _upgrade, activate_artifact
from simulate.games.golem.engine.effects import _activate, _book_effect, _confirmed, _effect, _row_action, _tile_effect
from simulate.games.golem.engine.golems import _create, _kill, step_golem
from simulate.games.golem.engine.legality import PAIR_A, PAIR_B, art_need, has_legal
from simulate.games.golem.engine.resources import (
    _gain_gold,
    _pay,
    _take_start,
    has_gdev,
    move_student,
    reactivates_effect,
    study_up,
)
from simulate.games.golem.engine.rounds import _next_phase
from simulate.games.golem.engine.stack import _auto, _ob_append, _push, pending


@njit(cache=True)
def apply_action(r, tb, a):
    """Resolve the pending decision with legal action ``a`` and advance to the next decision."""
    kind, s, e, pa, pb, pc, px = pending(r)
    r.sp -= 1
    r.moves += 1
    students = _students_packed(r)
    _resolve(r, tb, kind, s, e, pa, pb, pc, px, a)
    advance(r, tb)
    _count_profile(r, kind, s, a, students)


@njit(cache=True)
def _menu_again(r, kind, s, pa, pb, a, done, second):
    """Option ``a`` of a two-part action's menu ``kind``: False when it is ``done``; else the menu is asked again after
    it, its ``pb`` marking the part taken (1: an option below ``second``, 2: one from ``second`` on)."""
    if a == done:
        return False
    _push(r, kind, s, 0, pa, pb | (1 if a < second else 2), 0, 0)
    return True


@njit(cache=True)
def advance(r, tb):
    """Run automatic steps and phase changes until a decision is pending or the game is over."""
    while True:
        if r.sp > 0:
            kind, s, e, a, b, c, x = pending(r)
            if kind != T_AUTO and has_legal(r, tb, kind, s, e, a, b, c, x):
                return
            r.sp -= 1
            if kind == T_AUTO:
                _effect(r, tb, s, e, a, b, c, x)
            continue
        if r.phase == PH_END:
            return
        _next_phase(r, tb)


@njit(cache=True)
def _resolve(r, tb, kind, s, e, pa, pb, pc, px, a):  # noqa: C901 - one branch per decision
    if kind == D_DRAFT:
        r.drafted[s, r.drafted_len[s]] = r.hands[s, a]
        r.drafted_len[s] += 1
        for k in range(a, r.hand_len[s] - 1):
            r.hands[s, k] = r.hands[s, k + 1]
        r.hand_len[s] -= 1
    elif kind == D_KEEP:
        _ob_append(r, r.drafted[s, a])
        for k in range(a, r.drafted_len[s] - 1):
            r.drafted[s, k] = r.drafted[s, k + 1]
        r.drafted_len[s] -= 1
        for k in range(r.drafted_len[s]):
            r.objectives[s, k] = r.drafted[s, k]
        r.obj_len[s] = r.drafted_len[s]
    elif kind == D_ARTIFACT_TILE:
        r.art_tile[s] = r.art_offer[a, 0]
        r.art_side[s] = r.art_offer[a, 1]
        for k in range(a, r.art_offer_len - 1):
            r.art_offer[k, 0] = r.art_offer[k + 1, 0]
            r.art_offer[k, 1] = r.art_offer[k + 1, 1]
        r.art_offer_len -= 1
    elif kind == D_START_TILES:
        _take_start(r, tb, s, r.start_offer[s, PAIR_A[a]])
        _take_start(r, tb, s, r.start_offer[s, PAIR_B[a]])
    elif kind == D_PLACE_GOLEMS:
        g = 0
        for dist in range(NUM_DISTRICT_OPTIONS):
            if dist != a:
                r.golem_loc[s, g] = dist
                r.golem_sec[s, g] = 1
                g += 1
    elif kind == D_IGNORE_CHAR:
        if a == IGNORE_CHARACTER:
            r.step_left -= tb.ch_move[r.palace[r.round]]
    elif kind == D_MOVE_STEP:
        step_golem(r, tb, s, a // 2, a % 2, False)
        r.step_left -= 1
        if r.step_left > 0:
            _push(r, D_MOVE_STEP, s, 0, 0, 0, 0, 0)
    elif kind == D_TURN:
        _turn(r, tb, s, a)
    elif kind == D_BLACK_MARBLE:
        for dist in range(NUM_DISTRICT_OPTIONS):
            if dist != a:
                move_student(r, tb, s, dist, 1)
    elif kind == D_WORK_COUNT:
        if a > 0:
            _pay(r, s, KNOWLEDGE, max(0, tb.work_costs[a - 1] - pa))
        extra = 1 if has_gdev(r, tb, s, E_ACTIVATE_WORK_EXTRA) else 0
        if a + extra > 0:
            _push(r, D_ACTIVATE, s, 0, a + extra, 1, 0, -1)
    elif kind == D_ACTIVATE:
        if a < ACTIVATE_STOP:
            if pa > 1:
                _push(r, D_ACTIVATE, s, 0, pa - 1, pb, pc, px)
            _activate(r, tb, s, a, True)
    elif kind == D_GOLEM_ACTION:
        if _menu_again(r, D_GOLEM_ACTION, s, 0, pb, a, GA_DONE, GA_CREATE):
            if a < GA_CREATE:
                _upgrade(r, tb, s, a, 0, 0)
            else:
                _create(r, tb, s, a - GA_CREATE, 0)
    elif kind == D_ARTIFACT_ACTION:
        if _menu_again(r, D_ARTIFACT_ACTION, s, 0, pb, a, AA_DONE, ART_OPTIONS):
            if a < ART_OPTIONS:
                _upgrade(r, tb, s, UP_ART + a, 0, 0)
            else:
                _pay(r, s, COIN, tb.prm[P_GOLD_PRICE])
                _gain_gold(r, s, 1)
    elif kind == D_STUDY_ACTION:
        if _menu_again(r, D_STUDY_ACTION, s, 0, pb, a, STUDY_DONE, STUDY_BUY):
            if a < STUDY_BUY:
                _upgrade(r, tb, s, UP_STUDY + a, 0, 0)
            else:
                _buy_book(r, tb, s, (a - STUDY_BUY) // 4, (a - STUDY_BUY) % 4, 0, 0)
    elif kind == D_MIRROR:
        if _menu_again(r, D_MIRROR, s, pa, pb, a, MIRROR_DONE, MIRROR_STUDY):
            if a < MIRROR_STUDY:
                _pay(r, s, COIN, tb.prm[P_MIRROR_COST])
                _row_action(r, s, a, pa)
            else:
                _pay(r, s, COIN, tb.prm[P_MIRROR_STUDY_COST])
                study_up(r, tb, s, 1)
    elif kind == D_CHARACTER:
        c = r.palace[r.round]
        if a == CHARACTER_PAY:
            _pay(r, s, COIN, tb.ch_cost[c])
            _effect(r, tb, s, tb.ch_effect[c], tb.ch_a[c], tb.ch_b[c], -1, 0)
        else:
            r.res[s, COIN] += tb.prm[P_CHARACTER_COINS]
    elif kind == D_UPGRADE or kind == D_INCOME_UPGRADE:
        if a != UPGRADE_SKIP:
            _upgrade(r, tb, s, a, pb, pc)
    elif kind == D_CREATE:
        if a < CREATE_SKIP:
            _create(r, tb, s, a, pa)
    elif kind == D_KILL:
        if a < KILL_SKIP:
            _push(r, D_CEMETERY_SPACE, s, 0, a, 0, 0, 0)
    elif kind == D_CEMETERY_SPACE:
        _kill(r, tb, s, pa, a)
    elif kind == D_STUDENT:
        if a < STUDENT_SKIP:
            move_student(r, tb, s, a, 1)
    elif kind == D_GOLEM_STEP:
        if a == STEP_STOP:
            return
        g = a // 4
        step_golem(r, tb, s, g, a % 2, (a // 2) % 2 == 1)
        if pb > 1:
            _push(r, D_GOLEM_STEP, s, 0, pa, pb - 1, pc, -1 if px == -1 else g)
    elif kind == D_BOOK:
        if a < BOOK_SKIP:
            _buy_book(r, tb, s, a // 4, a % 4, pa, pb)
    elif kind == D_STUDENT_BACK:
        r.student[s, a] -= 1
    elif kind == D_BOOK_BONUS:
        if a < BONUS_STOP:
            if pa > 1:
                _push(r, D_BOOK_BONUS, s, 0, pa - 1, pb | (1 << a), 0, 0)
            _book_effect(r, tb, s, r.col_books[s, a // 5, a % 5], 1)
    elif kind == D_OBJECTIVE:
        r.objectives[s, r.obj_len[s]] = r.drawn[a]
        r.obj_len[s] += 1
        other = r.drawn[1 - a]
        if other >= 0:
            _ob_append(r, other)
        r.drawn[0] = -1
        r.drawn[1] = -1
    elif kind == D_TRACK:
        if a == TRACK_UP:
            r.track[s] += 1
        elif a == TRACK_DOWN:
            r.track[s] -= 1
    elif kind == D_ARTIFACT_ACTIVATE:
        if a < ART_ACTIVATE_SKIP:
            activate_artifact(r, tb, s, a)
    elif kind == D_GOLD_PLACE:
        r.art_gold[s, a] += 1
        if art_need(r, tb, s, a) == 0:
            r.art_done[s, a] = 1
            activate_artifact(r, tb, s, a)
    elif kind == D_CHOICE:
        r.res[s, a] += pa
    elif kind == D_CONFIRM:
        if a == CONFIRM_YES:
            _confirmed(r, tb, s, e, pa, pb, pc, px)
    elif kind == D_COPY_TILE:
        if a < COPY_SKIP:
            _tile_effect(r, tb, s, r.golem_loc[s, a], r.golem_sec[s, a])
    elif kind == D_ANY_ACTION:
        _row_action(r, s, a, pa)
    elif kind == D_REMOVE_MARBLE:
        r.syn[a // 5, a % 5] -= 1


@njit(cache=True)
def _turn(r, tb, s, a):
    if a == PASS_ACTION:
        r.passes[s] += 1
        r.act_count[s, ACT_PASS] += 1
        if r.pass_tile[s] == 0:
            m = 0
            for o in range(r.n):
                if r.pass_tile[o]:
                    m += 1
            r.pass_tile[s] = 1 + m
        return
    r.actions[s] += 1
    _auto(r, s, X_END_ACTION, 0, 0, 0, 0)
    if a < MARBLE_OPTIONS:
        row = a // 5
        colour = a % 5
        value = 0
        for c in range(5):
            value += r.syn[row, c]
        r.syn[row, colour] -= 1
        r.eyes[s, r.eyes_len[s]] = colour
        r.eyes_len[s] += 1
        r.marble_actions[s] += 1
        r.act_count[s, row] += 1
        _auto(r, s, X_ROW_ACTION, row, value, 0, 0)
        if colour == RED or colour == BLUE:
            want = E_REACTIVATE_RED_MARBLE if colour == RED else E_REACTIVATE_BLUE_MARBLE
            for k in range(4):
                if reactivates_effect(r, tb, s, k, want):
                    _auto(r, s, X_ACTIVATE_ART, k, 0, 0, 0)
        if colour < 3:
            move_student(r, tb, s, colour, 1)
        elif colour == BLACK:
            _push(r, D_BLACK_MARBLE, s, 0, 0, 0, 0, 0)
        return
    slot = a - RABBI_BASE
    r.rabbi_done[s] = 1
    r.act_count[s, ACT_RABBI] += 1
    if slot == PERM_SLOT:
        r.perm_queue[r.perm_len] = s
        r.perm_len += 1
        r.rabbi_slot[s] = PERM_SLOT
        tile = NUM_ACTION_TILES
    else:
        r.rabbi_slot[s] = slot
        tile = r.at_slots[slot]
    _effect(r, tb, s, tb.at_effect[tile], tb.at_a[tile], tb.at_b[tile], -1, 0)


@njit(cache=True)
def _students_packed(r):
    """Every seat's three Student positions, 4 bits each, in one integer (positions are 0..NUM_SECTIONS)."""
    packed = 0
    for s in range(r.n):
        for d in range(3):
            packed |= np.int64(r.student[s, d]) << (4 * (3 * s + d))
    return packed


@njit(cache=True)
def _count_profile(r, kind, s, a, students):
    """Play-profile stats of one move: a Gold bought by the Artifacts action, a Character bonus paid for, and the
    sections every seat's Students advanced (from ``students``, ``_students_packed`` before the move)."""
    if kind == D_ARTIFACT_ACTION and a == AA_BUY_GOLD:
        r.stats[ST_GOLD_BOUGHT, s] += 1
    elif kind == D_CHARACTER and a == CHARACTER_PAY:
        r.stats[ST_CHARACTER_BONUSES, s] += 1
    for o in range(r.n):
        for d in range(3):
            before = (students >> (4 * (3 * o + d))) & 15
            if r.student[o, d] > before:
                r.stats[ST_STUDENT_SECTIONS, o] += r.student[o, d] - before
