"""Developments, Artifacts and Books: upgrading, activating an Artifact, buying a Book (njit)."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from numba import njit

from simulate.games.golem.codes import *
from simulate.games.golem.data import *
from simulate.games.golem.engine.legality import art_need, book_price, upgrade_cost
from simulate.games.golem.engine.resources import _pay, _take_start, reactivates_effect, study_up
from simulate.games.golem.engine.stack import _auto, _bk_pop, _push


@njit(cache=True)
def _upgrade(r, tb, s, opt, discount, any_res):
    cost, res = upgrade_cost(r, tb, s, opt)
    due = max(0, cost - discount)
    take = min(due, r.res[s, res])
    r.res[s, res] -= take
    due -= take
    if any_res:
        for other in range(3):
            if due > 0:
                take = min(due, r.res[s, other])
                r.res[s, other] -= take
                due -= take
    if due > 0:
        r.error = 5
    if opt < UP_STUDY:
        r.gdev[s, opt] = 1
        e = tb.gdev_effect[opt]
        if e == E_KILL_DOUBLE_CEMETERY:
            _push(r, D_KILL, s, 0, 0, 0, 0, 0)
        elif e == E_ACTIVATE_WORK_EXTRA:
            _push(r, D_ACTIVATE, s, 0, 1, 0, 0, -1)
    elif opt < UP_ART:
        r.sdev[s, opt - UP_STUDY] = 1
    elif opt == UP_ART:
        r.adev_space[s, 5] = 0
    else:
        k = opt - UP_ART - 1
        tile = k // 8
        r.adev_space[s, tile] = (k // 2) % 4
        r.adev_side[s, tile] = k % 2


@njit(cache=True)
def activate_artifact(r, tb, s, k):
    t = r.art_tile[s]
    side = r.art_side[s]
    r.res[s, CLAY] += tb.art[t, side, k, 1]
    r.res[s, COIN] += tb.art[t, side, k, 2]
    r.res[s, KNOWLEDGE] += tb.art[t, side, k, 3]
    r.vp[s] += tb.art[t, side, k, 4]
    study_up(r, tb, s, tb.art[t, side, k, 5])
    for tile in range(5):
        if r.adev_space[s, tile] != k:
            continue
        e = tb.adev_effect[tile, r.adev_side[s, tile]]
        if e == E_EXTRA_KNOWLEDGE_2:
            r.res[s, KNOWLEDGE] += 2
        elif e == E_EXTRA_KNOWLEDGE_VP:
            r.res[s, KNOWLEDGE] += 1
            r.vp[s] += 1
        elif e == E_EXTRA_CLAY_2:
            r.res[s, CLAY] += 2
        elif e == E_EXTRA_CLAY_VP:
            r.res[s, CLAY] += 1
            r.vp[s] += 1
        elif e == E_EXTRA_COIN_2:
            r.res[s, COIN] += 2
        elif e == E_EXTRA_COIN_VP:
            r.res[s, COIN] += 1
            r.vp[s] += 1


@njit(cache=True)
def _buy_book(r, tb, s, pos, col, discount, free_card):
    b = r.library[pos]
    _pay(r, s, KNOWLEDGE, book_price(r, tb, s, pos, discount, free_card))
    for k in range(pos, r.lib_len - 1):
        r.library[k] = r.library[k + 1]
    r.lib_len -= 1
    if r.bk_len > 0:
        r.library[r.lib_len] = _bk_pop(r)
        r.lib_len += 1
    first = 1 if r.col_len[s, col] == 0 else 0
    r.col_books[s, col, r.col_len[s, col]] = b
    r.col_len[s, col] += 1
    colour = tb.bk_colour[b]
    if colour != BOOK_BLACK:
        r.col_colour[s, col] = colour
    _auto(r, s, X_AFTER_BOOK, col, first, 0, 0)
    if colour == BOOK_BLACK:
        _push(r, D_STUDENT_BACK, s, 0, 0, 0, 0, 0)


@njit(cache=True)
def _push_book_task(r, tb, s, b, which):
    e = tb.bk_effect[b, which]
    if e == E_TRADE:
        _auto(r, s, e, tb.bk_a[b, which], tb.bk_a2[b], tb.bk_res[b, which], tb.bk_res2[b])
    else:
        _auto(r, s, e, tb.bk_a[b, which], 0, tb.bk_res[b, which], 0)


@njit(cache=True)
def _after_book(r, tb, s, col, first):
    """Steps after tucking a Book (pushed in reverse of the order they run; see reference ``_after_book``)."""
    b = r.col_books[s, col, r.col_len[s, col] - 1]
    dev = tb.sdev_effect[col] if r.sdev[s, col] else 0
    if first:
        for k in range(3, -1, -1):
            if reactivates_effect(r, tb, s, k, E_REACTIVATE_FIRST_BOOK):
                _auto(r, s, X_ACTIVATE_ART, k, 0, 0, 0)
    for j in range(r.col_len[s, col] - 1, -1, -1):
        _push_book_task(r, tb, s, r.col_books[s, col, j], 1)
    if dev == E_COLUMN_CLAY_COIN:
        _auto(r, s, X_GAIN, 1, 0, CLAY, 0)
        _auto(r, s, X_GAIN, 1, 0, COIN, 0)
    elif dev == E_COLUMN_VP:
        _auto(r, s, X_GAIN, 2, 0, VP, 0)
    elif dev == E_COLUMN_GOLD:
        _auto(r, s, X_GAIN, 1, 0, GOLD, 0)
    times = 2 if dev == E_COLUMN_DOUBLE and tb.bk_colour[b] != BOOK_BLACK else 1
    for _ in range(times):
        _push_book_task(r, tb, s, b, 0)


@njit(cache=True)
def deal_gift(r, tb, s):
    """Rule option ``gift``: seat ``s`` takes the component as its setup reaches the Starting tiles (RULINGS.md R39):
    a Book tucked free in the first column (its bonuses as if bought), an Objective kept beside the drafted ones, a
    Development upgraded free (a small Artifact tile on Artifact 1, side A), an Artifact of its tile completed with
    Gold from the supply (its benefits at once), or one more Starting tile taken."""
    kind = tb.prm[P_GIFT_KIND]
    c = tb.prm[P_GIFT]
    if kind == GIFT_BOOK:
        first = 1 if r.col_len[s, 0] == 0 else 0
        r.col_books[s, 0, r.col_len[s, 0]] = c
        r.col_len[s, 0] += 1
        if tb.bk_colour[c] != BOOK_BLACK:
            r.col_colour[s, 0] = tb.bk_colour[c]
        _auto(r, s, X_AFTER_BOOK, 0, first, 0, 0)
    elif kind == GIFT_OBJECTIVE:
        r.objectives[s, r.obj_len[s]] = c
        r.obj_len[s] += 1
    elif kind == GIFT_GOLEM_DEV:
        r.gdev[s, c] = 1
    elif kind == GIFT_STUDY_DEV:
        r.sdev[s, c] = 1
    elif kind == GIFT_ARTIFACT_DEV:
        r.adev_space[s, c] = 0
        r.adev_side[s, c] = 0
    elif kind == GIFT_ARTIFACT:
        take = min(art_need(r, tb, s, c), r.gold_supply)
        r.gold_supply -= take
        r.art_gold[s, c] += take
        if art_need(r, tb, s, c) == 0:
            r.art_done[s, c] = 1
            activate_artifact(r, tb, s, c)
    elif kind == GIFT_START:
        _take_start(r, tb, s, c)
