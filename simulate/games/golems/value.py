"""The Golems apprentice's value of a position: its features (``features.FEATURES``) and the linear logit.

One njit function computes the features, for play (``apprentice.apprentice_action``), for the search's leaves
(``search_bot``, parameter ``leaf``) and for the training positions (``play._play_games``) alike. It reads only
what a seat sees (see ``features``), never ``deck`` beyond the public count of cards left.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import math

from numba import njit

from simulate.apprentice import win_shares
from simulate.games.golems.bots import W_NEED, display_needs, potential
from simulate.games.golems.data import *
from simulate.games.golems.engine import can_summon, card_gain, row_pay, score, tuckable
from simulate.games.golems.features import CONTEXT_INDEX, NUM_BASE, NUM_FEATURES

NO_GOLEM = 5.0  # ``closest_golem`` when no Golem is on display


@njit(cache=True)
def _seat(r, tb, s, work):
    """Seat ``s``'s own figures: (score, golems, tucked, dust, hand_vp, gems, columns, column_types, summonable,
    summon_points, closest_golem, needed_cards, potential, affordable). ``work[W_NEED]`` holds ``display_needs``."""
    pm = tb.params
    k_types = pm[P_NUM_TYPES]
    columns = 0
    types = 0
    needed = 0
    for t in range(k_types):
        columns += r.col[s, t]
        types += r.col[s, t] > 0
        needed += min(r.col[s, t], work[W_NEED, t])
    summonable = 0
    best = 0
    closest = NO_GOLEM
    affordable = 0
    for row in range(r.rows):
        if r.row_count[row] == 0:
            continue
        ok = r.gems[s] >= row_pay(r, row)
        for pos in range(r.row_size):
            c = r.slot[row, pos]
            if c < 0:
                continue
            affordable += ok
            if tb.c_type[c] != GOLEM:
                continue
            missing = 0
            for t in range(k_types):
                missing += max(tb.c_req[c, t] - r.col[s, t], 0)
            closest = min(closest, float(missing))
            if ok and can_summon(r, tb, s, c):
                summonable += 1
                tucks = 0
                for t in range(k_types):
                    tucks += tuckable(r, tb, s, c, t)
                best = max(best, pm[P_GOLEM_VP] + pm[P_TUCK_VP] * min(tucks, pm[P_TUCK_MAX]))
    return (
        float(score(r, tb, s)),
        float(r.golems[s]),
        float(r.tucked[s]),
        float(r.dust[s]),
        float(r.gem_vp[s] + r.rune_vp[s]),
        float(r.gems[s]),
        float(columns),
        float(types),
        float(summonable),
        float(best),
        closest,
        float(needed),
        potential(r, tb, s, work),
        float(affordable),
    )


@njit(cache=True)
def _tempo(r, tb, other, out):
    """The 2-player tempo and end features (``features.BASE_FEATURES`` 40-45, after 0-39; ``other``: the other seat)."""
    one_card = 0
    richest = 0
    affordable = 0
    for row in range(r.rows):
        k = r.row_count[row]
        if k == 0:
            continue
        one_card += k == 1
        ok = r.gems[other] >= row_pay(r, row)
        for pos in range(r.row_size):
            if r.slot[row, pos] < 0:
                continue
            richest = max(richest, int(card_gain(r, row, pos)))
            affordable += ok
    out[40] = one_card
    out[41] = out[30] // r.row_size
    out[42] = richest
    out[43] = affordable
    out[44] = out[26] * out[32]
    out[45] = out[27] * out[33]


@njit(cache=True)
def _base(r, tb, seat, work, out):
    """Write the base features (``features.BASE_FEATURES``) of ``r`` from ``seat``'s view into ``out[:NUM_BASE]``;
    returns ``progress``."""
    pm = tb.params
    n = r.num_players
    s = seat
    display_needs(r, tb, work)
    sc, golems, tucked, dust, hand, gems, columns, types, summonable, best, closest, needed, pot, afford = _seat(
        r, tb, s, work
    )
    out[0] = sc
    out[1] = golems
    out[2] = tucked
    out[3] = dust
    out[4] = 1.0 if dust >= pm[P_DUST_LEN] else 0.0
    out[5] = hand
    out[6] = gems
    out[7] = columns
    out[8] = types
    out[9] = summonable
    out[10] = best
    out[11] = closest
    out[12] = needed
    out[13] = pot
    out[14] = afford
    if n == 2:
        sc, golems, tucked, dust, hand, gems, columns, types, summonable, best, closest, needed, pot, afford = _seat(
            r, tb, 1 - s, work
        )
        out[15] = sc
        out[16] = golems
        out[17] = tucked
        out[18] = dust
        out[19] = hand
        out[20] = gems
        out[21] = columns
        out[22] = summonable
        out[23] = best
        out[24] = closest
        out[25] = pot
    else:  # solo: the automaton's score and Golem cards; it has no columns, gems or hand
        for j in range(15, 26):
            out[j] = 0.0
        out[15] = r.automa_vp
        out[16] = r.automa_golems
        out[25] = r.automa_vp
    left = r.deck_len - r.deck_pos
    total = r.deck_len - r.removed - r.rows * r.row_size
    progress = 1.0 - left / total if total > 0 else 1.0
    progress = min(max(progress, 0.0), 1.0)
    out[26] = out[0] - out[15]  # score_margin
    out[27] = out[13] - out[25]  # potential_margin
    out[28] = out[26] * progress
    out[29] = out[27] * progress
    out[30] = left
    out[31] = progress
    out[32] = r.triggered
    if n == 2:
        out[33] = 1.0 if left < r.row_size else 0.0
    else:
        out[33] = 1.0 if left < r.rows * r.row_size else 0.0
    out[34] = (s - r.current) % n if n > 1 else 0.0
    out[35] = 1.0 if s == 0 else 0.0
    out[36] = r.supply
    display_gems = 0
    pending = 0
    for row in range(r.rows):
        for pos in range(r.row_size):
            c = r.slot[row, pos]
            if c < 0:
                continue
            display_gems += r.slot_gems[row, pos]
            if n == 1:
                pending += pm[P_AUTOMA_GOLEM_VP] if tb.c_type[c] == GOLEM else tb.c_vp[c]
                if pm[P_AUTOMA_GEMS_SCORE]:
                    pending += r.slot_gems[row, pos]
    out[37] = display_gems
    if n == 1:
        out[38] = r.pick_target - r.picks
        out[39] = pending
        for j in range(40, NUM_BASE):
            out[j] = 0.0
    else:
        out[38] = 0.0
        out[39] = 0.0
        _tempo(r, tb, 1 - s, out)
    return progress


@njit(cache=True)
def features(r, tb, seat, work, out):
    """Write the features (``features.FEATURES``) of game record ``r`` from seat ``seat``'s view into ``out``.

    ``work`` is an int64 (WORK_ROWS, WORK_LEN) scratch (``bots.new_work``'s ``work``): its ``W_NEED`` row is
    overwritten. Allocates nothing.
    """
    n = r.num_players
    progress = _base(r, tb, seat, work, out)
    for j in range(NUM_BASE):
        out[NUM_BASE + j] = out[j] * progress
    k = 2 * NUM_BASE
    for c in CONTEXT_INDEX:
        x = out[c] if n == 2 else 0.0  # solo: 0 (its value fit ranked moves far worse with them)
        for j in range(NUM_BASE):
            out[k + j] = out[j] * x
        k += NUM_BASE


@njit(cache=True)
def fused_logit(r, tb, seat, work, f, w):
    """``w[0] + w[1:] . features`` (``w``: one weights row) from the base features alone (``f``: a scratch of at
    least ``NUM_BASE``): each base feature's weight gathered with its ``late_`` and context terms, so the products
    are never written. Equal to ``simulate.apprentice.linear_value`` of :func:`features` up to rounding (a different sum
    order)."""
    progress = _base(r, tb, seat, work, f)
    two = r.num_players == 2
    v = w[0]
    for j in range(NUM_BASE):
        coef = w[1 + j] + progress * w[1 + NUM_BASE + j]
        if two:
            k = 1 + 2 * NUM_BASE + j
            for c in CONTEXT_INDEX:
                coef += f[c] * w[k]
                k += NUM_BASE
        v += f[j] * coef
    return v


@njit(cache=True)
def leaf_values(r, tb, work, f, logits, out):
    """Each seat's chance to win an unfinished position by the apprentice, into ``out[:2]`` (``out[1]`` is
    1 - ``out[0]`` in solo, as the search's values are): 2 players, each seat's logit from its own view
    normalised (``win_shares``); solo, the sigmoid of the player's logit (the automaton is no seat). The logits are the
    value weights' (``apprentice_v``, at 2 players not the policy the apprentice plays by), summed by
    :func:`fused_logit`."""
    n = r.num_players
    w = tb.apprentice_v[n]
    for s in range(n):
        logits[s] = fused_logit(r, tb, s, work, f, w)
    if n == 1:
        x = logits[0]
        out[0] = 1.0 / (1.0 + math.exp(-x)) if x > -700.0 else 0.0
    else:
        win_shares(logits, n, out)
    out[1] = 1.0 - out[0]


assert NUM_BASE == 46 and NUM_FEATURES == (2 + len(CONTEXT_INDEX)) * NUM_BASE  # the indices above
