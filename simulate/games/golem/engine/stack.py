"""The record's task stack and card decks, and who is to decide what (njit)."""

from __future__ import annotations

from numba import njit

from simulate.games.golem.codes import MAX_STACK, PH_END, T_AUTO


@njit(cache=True)
def current_player(r):
    """Seat to move, or -4 when the game is over."""
    if r.phase == PH_END:
        return -4
    return r.stack[r.sp - 1, 1]


@njit(cache=True)
def decision(r):
    if r.phase == PH_END:
        return 0
    return r.stack[r.sp - 1, 0]


@njit(cache=True, inline="always")
def pending(r):
    """The task on top of the stack: (kind, seat, effect, a, b, c, x), as ``_push`` wrote it."""
    k = r.sp - 1
    return r.stack[k, 0], r.stack[k, 1], r.stack[k, 2], r.stack[k, 3], r.stack[k, 4], r.stack[k, 5], r.stack[k, 6]


@njit(cache=True)
def _push(r, kind, s, e, a, b, c, x):
    if r.sp >= MAX_STACK:
        r.error = 2
        return
    k = r.sp
    r.stack[k, 0] = kind
    r.stack[k, 1] = s
    r.stack[k, 2] = e
    r.stack[k, 3] = a
    r.stack[k, 4] = b
    r.stack[k, 5] = c
    r.stack[k, 6] = x
    r.sp += 1


@njit(cache=True)
def _auto(r, s, e, a, b, c, x):
    _push(r, T_AUTO, s, e, a, b, c, x)


@njit(cache=True)
def _ob_pop(r):
    x = r.ob_q[r.ob_head]
    r.ob_head = (r.ob_head + 1) % r.ob_q.shape[0]
    r.ob_len -= 1
    return x


@njit(cache=True)
def _ob_append(r, x):
    r.ob_q[(r.ob_head + r.ob_len) % r.ob_q.shape[0]] = x
    r.ob_len += 1


@njit(cache=True)
def _bk_pop(r):
    x = r.bk_q[r.bk_head]
    r.bk_head = (r.bk_head + 1) % r.bk_q.shape[0]
    r.bk_len -= 1
    return x


@njit(cache=True)
def _bk_append(r, x):
    r.bk_q[(r.bk_head + r.bk_len) % r.bk_q.shape[0]] = x
    r.bk_len += 1
