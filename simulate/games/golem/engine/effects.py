"""The effect table: what a tile, Character, Book or development does, and its confirmed options (njit)."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from numba import njit

from simulate.games.golem.codes import *
from simulate.games.golem.data import *
from simulate.games.golem.engine.developments import _after_book, activate_artifact
from simulate.games.golem.engine.golems import _overmove
from simulate.games.golem.engine.legality import on_board_space
from simulate.games.golem.engine.resources import (
    _draw_objectives,
    _gain,
    _gain_gold,
    _gold_piece,
    _pay,
    _student_income,
    move_student,
    study_up,
    track_level,
)
from simulate.games.golem.engine.rounds import _redrop
from simulate.games.golem.engine.scoring import devs_flipped
from simulate.games.golem.engine.stack import _auto, _push


@njit(cache=True)
def _effect(r, tb, s, e, a, b, c, x):
    """Apply effect ``e`` for seat ``s``; decisions and later steps go on the stack (pushed in reverse)."""
    if e == E_NONE or e == E_PLAIN:
        return
    if e >= X_BASE:
        ok = _internal_step(r, tb, s, e, a, b, c)
    else:
        ok = _golem_effect(r, tb, s, e, a, b, c) or _resource_effect(r, tb, s, e, a, b, c, x)
    if not ok:
        r.error = 3


@njit(cache=True)
def _golem_effect(r, tb, s, e, a, b, c):  # noqa: C901 - the Golem part of the effect table
    """Apply effect ``e`` if it moves, creates, kills, activates or develops; False if not one."""
    if e == E_GOLEM_TRACK:
        for _ in range(max(1, a)):
            _push(r, D_TRACK, s, 0, 0, 0, 0, 0)
    elif e == E_KILL_GOLEM:
        _push(r, D_KILL, s, 0, 0, 0, 0, 0)
    elif e == E_UPGRADE:
        _push(r, D_UPGRADE, s, 0, 7, a, 0, 0)
    elif e == E_CREATE_GOLEM:
        _push(r, D_CREATE, s, 0, a, 0, 0, 0)
    elif e == E_KILL_VP_PER_LEVEL:
        _auto(r, s, X_VP_PER_LEVEL, a, 0, 0, 0)
        _push(r, D_KILL, s, 0, 0, 0, 0, 0)
    elif e == E_UPGRADE_GOLEM:
        _push(r, D_UPGRADE, s, 0, 1, a, 0, 0)
    elif e == E_CREATE_GOLEM_VP_PER_LEVEL:
        _auto(r, s, X_VP_PER_LEVEL, b, 0, 0, 0)
        _push(r, D_CREATE, s, 0, a, 0, 0, 0)
    elif e == E_UPGRADE_ARTIFACT:
        _push(r, D_UPGRADE, s, 0, 4, a, 0, 0)
    elif e == E_KILL_GAIN:
        _auto(r, s, X_GAIN, a, 0, c, 0)
        _push(r, D_KILL, s, 0, 0, 0, 0, 0)
    elif e == E_ACTIVATE_ARTIFACT:
        for _ in range(max(1, a)):
            _push(r, D_ARTIFACT_ACTIVATE, s, 0, 0, 0, 0, 0)
    elif e == E_UPGRADE_STUDY:
        _push(r, D_UPGRADE, s, 0, 2, a, 0, 0)
    elif e == E_CLAY_CREATE_MOVE:
        r.res[s, CLAY] += a
        _push(r, D_GOLEM_STEP, s, 0, 1, max(1, b), 1, -1)
        _push(r, D_CREATE, s, 0, 0, 0, 0, 0)
    elif e == E_KILL_VP_CLAY_PER_CEMETERY:
        _auto(r, s, X_VP_CEMETERY, a, b, 0, 0)
        _push(r, D_KILL, s, 0, 0, 0, 0, 0)
    elif e == E_UPGRADE_ANY_RESOURCES:
        _push(r, D_UPGRADE, s, 0, 7, a, 1, 0)
    elif e == E_MOVE_ACTIVATE_FREE_CONTROL:
        r.free_control[s] = 1
        r.last_stepped = -1
        _auto(r, s, X_ACTIVATE_GOLEM, 0, 0, 0, 0)
        _push(r, D_GOLEM_STEP, s, 0, 0, a, 1, -2)
    elif e == E_MOVE_TWO_ACTIVATE:
        _push(r, D_ACTIVATE, s, 0, max(1, b), 0, 0, -1)
        _push(r, D_GOLEM_STEP, s, 0, 1, a, 1, -1)
    elif e == E_COPY_TILE:
        _push(r, D_COPY_TILE, s, 0, 0, 0, 0, 0)
    elif e == E_UPGRADE_ANY_VP:
        r.vp[s] += b
        _push(r, D_UPGRADE, s, 0, 7, a, 1, 0)
    elif e == E_GOLEM_STEP_ACTIVATE:
        _push(r, D_ACTIVATE, s, 0, max(1, b), 0, 0, -1)
        _push(r, D_GOLEM_STEP, s, 0, 1, max(1, a), 0, -1)
    elif e == E_CREATE_GOLEM_RED_STUDENT:
        _auto(r, s, X_STUDENT, b, 0, RED, 0)
        _push(r, D_CREATE, s, 0, a, 0, 0, 0)
    elif e == E_KILL_VP_PER_CEMETERY:
        _auto(r, s, X_VP_CEMETERY, a, 0, 0, 0)
        _push(r, D_KILL, s, 0, 0, 0, 0, 0)
    else:
        return False
    return True


@njit(cache=True)
def _resource_effect(r, tb, s, e, a, b, c, x):  # noqa: C901 - the rest of the effect table
    """Apply effect ``e`` if it gains, trades, moves Students or the Study track, or buys Books; else False."""
    if e == E_GAIN:
        _gain(r, tb, s, c, a)
    elif e == E_CHOICE:
        _push(r, D_CHOICE, s, 0, a, 0, 0, 0)
    elif (
        e == E_TRADE
        or e == E_PAY_FOR_VP
        or e == E_PAY_FOR_GOLD
        or e == E_PAY_FOR_STUDENTS
        or e == E_PAY_FOR_STUDY
        or e == E_PAY_FOR_VP_STUDY
        or e == E_STUDENT_BACK
        or e == E_STUDY_DOWN_VP_STUDENT
    ):
        _push(r, D_CONFIRM, s, e, a, b, c, x)
    elif e == E_STUDY_UP:
        study_up(r, tb, s, a)
    elif e == E_STUDENT_DISTRICT:
        move_student(r, tb, s, c, max(1, a))
    elif e == E_STUDENT_ANY:
        for _ in range(a):
            _push(r, D_STUDENT, s, 0, 0, 0, 0, 0)
    elif e == E_OBJECTIVE_GAIN:
        _gain(r, tb, s, c, b)
        _draw_objectives(r, s, a)
    elif e == E_STUDENT_INCOME:
        _student_income(r, tb, s)
    elif e == E_BUY_BOOK:
        _push(r, D_BOOK, s, 0, a, 0, 0, 0)
    elif e == E_BOOK_BONUSES:
        _push(r, D_BOOK_BONUS, s, 0, a, 0, 0, 0)
    elif e == E_TRACK_VP_KNOWLEDGE:
        _auto(r, s, X_KNOW_PER_LEVEL, b, 0, 0, 0)
        _auto(r, s, X_VP_PER_LEVEL, a, 0, 0, 0)
        _push(r, D_TRACK, s, 0, 0, 0, 0, 0)
    elif e == E_GOLD_VP_PER_ARTIFACT:
        _auto(r, s, X_VP_PER_ARTIFACT, b, 0, 0, 0)
        _auto(r, s, X_GOLD, a, 0, 0, 0)
    elif e == E_BUY_BOOK_FREE_CARD:
        _push(r, D_BOOK, s, 0, a, 1, 0, 0)
    elif e == E_STUDY_BOOK_BONUS:
        study_up(r, tb, s, a)
        _push(r, D_BOOK_BONUS, s, 0, max(1, b), 0, 0, 0)
    elif e == E_RESOURCES_OBJECTIVE:
        for res in range(3):
            r.res[s, res] += a
        _draw_objectives(r, s, b)
    elif e == E_STUDENT_VP_LEFTMOST:
        _auto(r, s, X_VP_LEFTMOST, b, 0, 0, 0)
        _push(r, D_STUDENT, s, 0, 0, 0, 0, 0)
    elif e == E_ANY_MARBLE_ACTION:
        _push(r, D_ANY_ACTION, s, 0, a, 0, 0, 0)
    elif e == E_GAIN_GOLD:
        _gain_gold(r, s, a)
    elif e == E_STUDY_BLUE_STUDENT:
        study_up(r, tb, s, a)
        move_student(r, tb, s, BLUE, b)
    elif e == E_GOLD_YELLOW_STUDENT:
        _auto(r, s, X_STUDENT, b, 0, YELLOW, 0)
        _auto(r, s, X_GOLD, a, 0, 0, 0)
    elif e == E_VP_PER_DEVELOPMENT:
        r.vp[s] += a * devs_flipped(r, s)
    elif e == E_VP_TIMES_LEFTMOST:
        r.vp[s] += a * min(r.student[s, 0], min(r.student[s, 1], r.student[s, 2]))
    elif e == E_VP_PER_TRACK_LEVEL:
        r.vp[s] += a * track_level(r, tb, s)
    elif e == E_VP_BUY_BOOK:
        r.vp[s] += a
        _push(r, D_BOOK, s, 0, b, 0, 0, 0)
    else:
        return False
    return True


@njit(cache=True)
def _internal_step(r, tb, s, e, a, b, c):  # noqa: C901 - one branch per step
    """Apply internal step ``e`` (an ``X_*`` code the engine pushes); False if not one."""
    if e == X_VP_PER_LEVEL:
        r.vp[s] += a * track_level(r, tb, s)
    elif e == X_KNOW_PER_LEVEL:
        r.res[s, KNOWLEDGE] += a * track_level(r, tb, s)
    elif e == X_VP_CEMETERY:
        r.vp[s] += a * r.cemetery_count[s]
        r.res[s, CLAY] += b * r.cemetery_count[s]
    elif e == X_VP_LEFTMOST:
        r.vp[s] += max(1, a) * min(r.student[s, 0], min(r.student[s, 1], r.student[s, 2]))
    elif e == X_VP_PER_ARTIFACT:
        done = 0
        for k in range(4):
            done += r.art_done[s, k]
        r.vp[s] += a * done
    elif e == X_ROW_ACTION:
        _row_action(r, s, a, b)
    elif e == X_STUDENT:
        move_student(r, tb, s, c, a)
    elif e == X_GAIN:
        _gain(r, tb, s, c, a)
    elif e == X_ACTIVATE_ART:
        activate_artifact(r, tb, s, a)
    elif e == X_END_ACTION:
        for g in range(6):
            r.fresh[s, g] = 0
    elif e == X_ACTIVATE_GOLEM:  # the Golem moved, or with no step taken ("up to 4") any standing Golem (R37)
        g = r.last_stepped
        if g < 0:
            _push(r, D_ACTIVATE, s, 0, 1, 0, 0, -1)
        elif on_board_space(r.golem_loc[s, g]) and r.standing[s, g]:
            _push(r, D_ACTIVATE, s, 0, 1, 0, 0, g)
    elif e == X_GOLD:
        _gain_gold(r, s, a)
    elif e == X_GOLD_PIECE:
        _gold_piece(r, tb, s)
    elif e == X_OVERMOVE:
        _overmove(r, tb, s)
    elif e == X_REDROP:
        _redrop(r, tb)
    elif e == X_AFTER_BOOK:
        _after_book(r, tb, s, a, b)
    elif e == X_TILE:
        # the tile's effect runs as the next step (no recursion: numba cannot cache recursive functions)
        tile = r.section_tile[a, b]
        if tile >= 0:
            _auto(r, s, tb.nb_effect[a, tile], tb.nb_a[a, tile], tb.nb_b[a, tile], tb.nb_res[a, tile], a)
    else:
        return False
    return True


@njit(cache=True)
def _confirmed(r, tb, s, e, a, b, c, x):
    if e == E_TRADE:
        _pay(r, s, c, a)
        _gain(r, tb, s, x, b)
    elif e == E_PAY_FOR_VP:
        _pay(r, s, c, a)
        r.vp[s] += b
    elif e == E_PAY_FOR_GOLD:
        _pay(r, s, c, a)
        _gain_gold(r, s, b)
    elif e == E_PAY_FOR_STUDENTS:
        _pay(r, s, c, a)
        for _ in range(b):
            _push(r, D_STUDENT, s, 0, 0, 0, 0, 0)
    elif e == E_PAY_FOR_STUDY:
        _pay(r, s, c, a)
        study_up(r, tb, s, b)
    elif e == E_PAY_FOR_VP_STUDY:
        _pay(r, s, c, a)
        r.vp[s] += b
        study_up(r, tb, s, 1)
    elif e == E_STUDENT_BACK:
        r.student[s, x] -= 1
        r.vp[s] += a
        _gain(r, tb, s, c, b)
    elif e == E_STUDY_DOWN_VP_STUDENT:
        r.study[s] -= 1
        r.vp[s] += a
        for _ in range(b):
            _push(r, D_STUDENT, s, 0, 0, 0, 0, 0)
    elif e == E_CREATE_STEP_ACTIVATE:  # the new Golem x in district a: one step, its tile without lying down
        r.golem_sec[s, x] += 1
        _auto(r, s, X_TILE, a, r.golem_sec[s, x], 0, 0)


@njit(cache=True)
def _row_action(r, s, row, value):
    if row == WORK:
        _push(r, D_WORK_COUNT, s, 0, value, 0, 0, 0)
    elif row == GOLEM_ROW:
        r.res[s, CLAY] += value
        _push(r, D_GOLEM_ACTION, s, 0, 0, 0, 0, 0)
    elif row == ARTIFACTS:
        r.res[s, COIN] += value
        _push(r, D_ARTIFACT_ACTION, s, 0, 0, 0, 0, 0)
    elif row == STUDY_ROW:
        r.res[s, KNOWLEDGE] += value
        _push(r, D_STUDY_ACTION, s, 0, 0, 0, 0, 0)
    elif row == MIRROR:
        _push(r, D_MIRROR, s, 0, value, 0, 0, 0)


@njit(cache=True)
def _tile_effect(r, tb, s, dist, sec):
    tile = r.section_tile[dist, sec]
    if tile < 0:
        return
    _effect(r, tb, s, tb.nb_effect[dist, tile], tb.nb_a[dist, tile], tb.nb_b[dist, tile], tb.nb_res[dist, tile], dist)


@njit(cache=True)
def _activate(r, tb, s, g, lie_down):
    if lie_down:
        r.standing[s, g] = 0
    _tile_effect(r, tb, s, r.golem_loc[s, g], r.golem_sec[s, g])


@njit(cache=True)
def _book_effect(r, tb, s, b, which):
    e = tb.bk_effect[b, which]
    if e == E_TRADE:
        _effect(r, tb, s, e, tb.bk_a[b, which], tb.bk_a2[b], tb.bk_res[b, which], tb.bk_res2[b])
    else:
        _effect(r, tb, s, e, tb.bk_a[b, which], 0, tb.bk_res[b, which], 0)
