"""Golem scoring over the record: Menorahs, objectives met and the score parts (njit)."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem.data import *

NUM_PARTS = 8


@njit(cache=True)
def menorahs(r, tb, s, out):
    """Red, yellow and blue Menorahs of seat ``s`` into ``out[0:3]``."""
    red, yellow, blue, _ = menorah_lines(r, tb, s)
    out[0] = red
    out[1] = yellow
    out[2] = blue


@njit(cache=True, inline="always")
def menorah_lines(r, tb, s):
    """Seat ``s``'s red, yellow and blue Menorahs (its upgraded Developments' and the tokens it holds), and how many
    Developments it has upgraded (``devs_flipped``)."""
    red = 1 if r.tokens[RED] == s else 0
    yellow = 1 if r.tokens[YELLOW] == s else 0
    blue = 1 if r.tokens[BLUE] == s else 0
    devs = 0
    for k in range(6):
        if r.gdev[s, k]:
            red += tb.gdev_menorah[k]
            devs += 1
        if r.adev_space[s, k] >= 0:
            yellow += tb.adev_menorah[k]
            devs += 1
    for k in range(NUM_STUDY_DEVS):
        if r.sdev[s, k]:
            blue += tb.sdev_menorah[k]
            devs += 1
    return red, yellow, blue, devs


@njit(cache=True, inline="always")
def columns_and_books(r, s):
    """Seat ``s``'s Book columns holding a Book, and its Books."""
    cols = 0
    books = 0
    for c in range(4):
        if r.col_len[s, c] > 0:
            cols += 1
        books += r.col_len[s, c]
    return cols, books


@njit(cache=True)
def gold_owned(r, s):
    t = r.loose_gold[s]
    for k in range(4):
        t += r.art_gold[s, k]
    return t


@njit(cache=True)
def devs_flipped(r, s):
    t = 0
    for k in range(6):
        t += r.gdev[s, k]
        if r.adev_space[s, k] >= 0:
            t += 1
    for k in range(NUM_STUDY_DEVS):
        t += r.sdev[s, k]
    return t


@njit(cache=True)
def books_owned(r, s):
    return columns_and_books(r, s)[1]


@njit(cache=True)
def objectives_met(r, tb, s):
    """(VP of met objectives, number met, bitmask of their types)."""
    return objectives_of(r, tb, s, gold_owned(r, s), devs_flipped(r, s), books_owned(r, s))


@njit(cache=True)
def objective_count(r, kind, s, gold, devs, books):
    """What an Objective of type ``kind`` counts of seat ``s`` (given its Gold owned, developments flipped, Books)."""
    if kind < 3:  # Students: red, yellow, blue
        return r.student[s, kind]
    if kind == 3:
        return r.built[s]
    if kind == 4:
        return gold
    if kind == 5:
        return devs
    if kind == 6:
        return r.study[s]
    if kind == 7:
        return books
    return r.killed[s]


@njit(cache=True)
def objectives_of(r, tb, s, gold, devs, books):
    """``objectives_met`` given the seat's Gold owned, developments flipped and Books."""
    vp = 0
    met = 0
    types = 0
    for k in range(r.obj_len[s]):
        o = r.objectives[s, k]
        kind = tb.ob_type[o]
        if objective_count(r, kind, s, gold, devs, books) >= tb.ob_threshold[o]:
            vp += tb.ob_vp[o]
            met += 1
            types |= 1 << kind
    return vp, met, types


@njit(cache=True)
def score_parts(r, tb, s, out):
    """Seat ``s``'s score parts into ``out`` (NUM_PARTS): vp, golems, artifacts, books, study, objectives,
    objective types, leftover."""
    m = np.zeros(3, np.int64)
    menorahs(r, tb, s, m)
    columns = 0
    for c in range(4):
        if r.col_len[s, c] > 0:
            columns += 1
    arts = 0
    for k in range(4):
        arts += r.art_done[s, k]
    vp, met, types = objectives_met(r, tb, s)
    ntypes = 0
    for k in range(9):
        if (types >> k) & 1:
            ntypes += 1
    left = r.res[s, 0] + r.res[s, 1] + r.res[s, 2]
    if tb.prm[P_LEFTOVER_GOLD]:
        left += r.loose_gold[s]
    out[0] = r.vp[s]
    out[1] = r.built[s] * m[0]
    out[2] = arts * m[1]
    out[3] = columns * m[2]
    out[4] = tb.sd_vp[r.study[s]]
    out[5] = vp
    out[6] = tb.objective_type_vp[min(ntypes, 4)]
    out[7] = left // tb.prm[P_LEFTOVER_PER_VP]


@njit(cache=True)
def automa_parts(r, tb, out):
    """The Automa's score parts into ``out[0:3]``: Main Strategy tile, Strategy tile, Special Developments."""
    extra = 0
    for k in range(tb.au_doubles.shape[0]):
        if r.au_laps >= tb.au_unlock[k]:
            extra += r.au_vp[tb.au_doubles[k]]
    out[0] = r.au_vp[0]
    out[1] = r.au_vp[1]
    out[2] = extra
