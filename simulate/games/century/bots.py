"""Century bots: numba functions that choose every decision a player makes.

A bot writes the action part of a move record (``choose_action``), and after the engine has
applied it, the crystals it returns over the caravan limit (``choose_discard``). The kernel
dispatches on an integer bot id; parameters come as a float vector named in ``BOTS``.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate import datafiles
from simulate.games.century.data import *
from simulate.games.century.engine import (
    can_claim,
    can_rest,
    excess,
    legal_moves,
    trade_max_times,
    write_acquire,
)
from simulate.games.century.state import *
from simulate.rng import randint, uniform

KERNELS = ("random", "greedy", "engine", "planner", "search", "apprentice")  # the bots' kernels by id (``BOTS``)
RANDOM, GREEDY, ENGINE, PLANNER, SEARCH, APPRENTICE = range(len(KERNELS))

# name -> (id, description, {param: (default, help)}), the parameters' (lowest, highest) and those that count
# something: seeds/century/bots.toml
BOTS, LIMITS, WHOLE_PARAMS = datafiles.read_bots("century", KERNELS)
MAX_BOT_PARAMS = 10
SCRATCH_MOVES = 2048

_BIG = 1.0e9


@njit(cache=True)
def choose_action(r, tb, bot, params, b, mv, moves, hand):
    """Write the action part of bot ``bot``'s move for the player to move in game record ``r`` into ``mv``.

    ``params[b]`` are the bot's parameters (passed as table and row: a row view per move costs more
    than a greedy decision's arithmetic). ``moves`` (SCRATCH_MOVES, MOVE_LEN) and ``hand``
    (num_merchant,) are scratch arrays.
    """
    if bot == GREEDY:
        greedy_action(r, tb, params, b, mv)
        return
    _clear(mv)
    if bot == RANDOM:
        n = legal_moves(r, tb, moves)
        k = randint(r.rng, 0, n)
        for f in range(MOVE_LEN):
            mv[f] = moves[k, f]
    elif bot == ENGINE:
        _engine(r, tb, params[b], mv)
    else:
        _planner(r, tb, params[b], mv, hand)


@njit(cache=True, inline="always")
def greedy_action(r, tb, params, b, mv):
    """``choose_action`` of the greedy bot, for a kernel loop that calls it without the dispatch."""
    _clear(mv)
    _greedy(r, tb, params[b, 0], params[b, 1], params[b, 2], mv)


@njit(cache=True)
def choose_discard(r, tb, bot, params, b, mv):
    """Write the crystals to return over the caravan limit (after the action) into ``mv``; ``params[b]`` as above."""
    s = r.current
    e = excess(r, tb)
    for c in range(4):
        mv[M_DISCARD + c] = 0
    if e == 0:
        return
    if bot == RANDOM:
        x0 = r.crystals[s, 0]
        x1 = r.crystals[s, 1]
        x2 = r.crystals[s, 2]
        x3 = r.crystals[s, 3]
        for _ in range(e):
            left = x0 + x1 + x2 + x3
            pick = randint(r.rng, 0, left)
            if pick < x0:
                x0 -= 1
                mv[M_DISCARD] += 1
            elif pick < x0 + x1:
                x1 -= 1
                mv[M_DISCARD + 1] += 1
            elif pick < x0 + x1 + x2:
                x2 -= 1
                mv[M_DISCARD + 2] += 1
            else:
                x3 -= 1
                mv[M_DISCARD + 3] += 1
        return
    j = target(r, tb, s, r.crystals[s, 0], r.crystals[s, 1], r.crystals[s, 2], r.crystals[s, 3], 1.0, -1)
    c0, c1, c2, c3 = row_cost(r, tb, j)
    d0, d1, d2, d3 = spare(r.crystals[s, 0], r.crystals[s, 1], r.crystals[s, 2], r.crystals[s, 3], c0, c1, c2, c3, e)
    mv[M_DISCARD] = d0
    mv[M_DISCARD + 1] = d1
    mv[M_DISCARD + 2] = d2
    mv[M_DISCARD + 3] = d3


# ---------------------------------------------------------------------------------------------
# heuristics shared by the bots


@njit(cache=True)
def distance(x0, x1, x2, x3, c0, c1, c2, c3):
    """Estimated work to turn caravan x into one holding cost c: upgrade steps, plus new crystals.

    Each missing crystal is filled from the highest spare crystal below its colour (one step per
    level); a crystal with no spare below it costs its level plus two.
    """
    s0 = max(x0 - c0, 0)
    s1 = max(x1 - c1, 0)
    s2 = max(x2 - c2, 0)
    n1 = max(c1 - x1, 0)
    n2 = max(c2 - x2, 0)
    n3 = max(c3 - x3, 0)
    # magenta from T, G, Y
    n3, s2, cost = _upgrade(n3, s2, 1, 0)
    n3, s1, cost = _upgrade(n3, s1, 2, cost)
    n3, s0, cost = _upgrade(n3, s0, 3, cost)
    cost += 5 * n3
    # turquoise from G, Y
    n2, s1, cost = _upgrade(n2, s1, 1, cost)
    n2, s0, cost = _upgrade(n2, s0, 2, cost)
    cost += 4 * n2
    # green from Y
    n1, _, cost = _upgrade(n1, s0, 1, cost)
    cost += 3 * n1
    cost += 2 * max(c0 - x0, 0)
    return cost


@njit(cache=True, inline="always")
def _upgrade(need, spare, steps, cost):
    """:func:`distance`'s step: ``need`` missing crystals filled from ``spare`` ones ``steps`` levels below, one step
    per level each; returns the need and spare left and ``cost`` plus the steps."""
    t = min(need, spare)
    return need - t, spare - t, cost + steps * t


@njit(cache=True)
def coin_value(r, tb, pos):
    """VP of the coin a claim at row position ``pos`` takes now (position 0: copper, or silver once copper is gone;
    position 1: silver while both are left), else 0."""
    if pos == 0:
        if r.copper_left > 0:
            return tb.params[P_COPPER_VP]
        if r.silver_left > 0:
            return tb.params[P_SILVER_VP]
    elif pos == 1 and r.copper_left > 0 and r.silver_left > 0:
        return tb.params[P_SILVER_VP]
    return 0


@njit(cache=True)
def _row_length(row):
    """Cards in a row (filled from the left, -1 after the last)."""
    n = 0
    while n < row.shape[0] and row[n] >= 0:
        n += 1
    return n


@njit(cache=True)
def row_cost(r, tb, pos):
    """The crystals (``data.COLOURS`` order) the point card at row position ``pos`` costs; zeros for ``pos < 0``."""
    if pos < 0:
        return 0, 0, 0, 0
    pc = r.p_row[pos]
    return tb.p_cost[pc, 0], tb.p_cost[pc, 1], tb.p_cost[pc, 2], tb.p_cost[pc, 3]


@njit(cache=True)
def _effort(d, patience):
    """(1 + d) ** patience, without the cost of a power for the usual patience of 1."""
    if patience == 1.0:
        return 1.0 + d
    return (1.0 + d) ** patience


@njit(cache=True, inline="always")
def target(r, tb, s, x0, x1, x2, x3, patience, skip):
    """Row position of the best point card to work toward: value / (1 + distance)^patience."""
    return _claim_and_target(r, tb, s, x0, x1, x2, x3, patience, skip)[1]


@njit(cache=True, inline="always")
def _claim_and_target(r, tb, s, x0, x1, x2, x3, patience, skip):
    """(:func:`_best_claim`, :func:`target`) in one pass over the row: a card is paid exactly at distance 0."""
    best = -1
    claim = -1
    claim_val = -1
    best_val = -1  # the usual patience of 1, in integers: a/(1+d) > b/(1+e)  <=>  a*(1+e) > b*(1+d)
    best_eff = 1
    best_v = -1.0  # any other patience
    for p in range(r.p_row.shape[0]):
        pc = r.p_row[p]
        if pc < 0:
            break
        if p == skip:
            continue
        d = distance(x0, x1, x2, x3, tb.p_cost[pc, 0], tb.p_cost[pc, 1], tb.p_cost[pc, 2], tb.p_cost[pc, 3])
        val = tb.p_vp[pc] + coin_value(r, tb, p)
        if d == 0 and val > claim_val:
            claim_val = val
            claim = p
        if patience == 1.0:
            if val * best_eff > best_val * (1 + d):
                best_val = val
                best_eff = 1 + d
                best = p
        else:
            v = val / _effort(d, patience)
            if v > best_v:
                best_v = v
                best = p
    return claim, best


@njit(cache=True)
def spare(x0, x1, x2, x3, c0, c1, c2, c3, k):
    """The k crystals least needed for cost c: spares first, lowest colour first."""
    d0 = min(k, max(x0 - c0, 0))
    k -= d0
    d1 = min(k, max(x1 - c1, 0))
    k -= d1
    d2 = min(k, max(x2 - c2, 0))
    k -= d2
    d3 = min(k, max(x3 - c3, 0))
    k -= d3
    t = min(k, x0 - d0)
    d0 += t
    k -= t
    t = min(k, x1 - d1)
    d1 += t
    k -= t
    t = min(k, x2 - d2)
    d2 += t
    k -= t
    d3 += min(k, x3 - d3)
    return d0, d1, d2, d3


@njit(cache=True, inline="always")
def _trimmed(x0, x1, x2, x3, c0, c1, c2, c3, limit):
    """Caravan x after returning the crystals above ``limit`` least needed for cost c (:func:`spare`)."""
    e = x0 + x1 + x2 + x3 - limit
    if e > 0:
        d0, d1, d2, d3 = spare(x0, x1, x2, x3, c0, c1, c2, c3, e)
        return x0 - d0, x1 - d1, x2 - d2, x3 - d3
    return x0, x1, x2, x3


@njit(cache=True)
def _trimmed_distance(x0, x1, x2, x3, c0, c1, c2, c3, limit):
    """Distance after returning the least-needed crystals above ``limit``."""
    y0, y1, y2, y3 = _trimmed(x0, x1, x2, x3, c0, c1, c2, c3, limit)
    return distance(y0, y1, y2, y3, c0, c1, c2, c3)


@njit(cache=True)
def _upgrade_toward(x0, x1, x2, x3, c0, c1, c2, c3, up, limit):
    """Greedy single steps toward cost c; returns (steps from Y, G, T, resulting distance)."""
    sy = 0
    sg = 0
    stq = 0
    best = _trimmed_distance(x0, x1, x2, x3, c0, c1, c2, c3, limit)
    for _ in range(up):
        choice = -1
        cand = best
        # a step from a level can only help when some colour above it is missing
        need3 = x3 < c3
        need2 = need3 or x2 < c2
        need1 = need2 or x1 < c1
        if not need1:
            break
        if x0 > 0:
            d = _trimmed_distance(x0 - 1, x1 + 1, x2, x3, c0, c1, c2, c3, limit)
            if d < cand:
                cand = d
                choice = 0
        if x1 > 0 and need2:
            d = _trimmed_distance(x0, x1 - 1, x2 + 1, x3, c0, c1, c2, c3, limit)
            if d < cand:
                cand = d
                choice = 1
        if x2 > 0 and need3:
            d = _trimmed_distance(x0, x1, x2 - 1, x3 + 1, c0, c1, c2, c3, limit)
            if d < cand:
                cand = d
                choice = 2
        if choice < 0:
            break
        best = cand
        if choice == 0:
            x0 -= 1
            x1 += 1
            sy += 1
        elif choice == 1:
            x1 -= 1
            x2 += 1
            sg += 1
        else:
            x2 -= 1
            x3 += 1
            stq += 1
    return sy, sg, stq, best


@njit(cache=True)
def _card_best(tb, m, x0, x1, x2, x3, c0, c1, c2, c3, limit):
    """Best variant of playing card ``m`` toward cost c: (distance after, times, sY, sG, sT).

    Distance is _BIG when the card cannot be played usefully (an upgrade without a step, an unpaid trade).
    """
    kind = tb.m_kind[m]
    if kind == KIND_CREATE:
        d = _trimmed_distance(
            x0 + tb.m_out[m, 0], x1 + tb.m_out[m, 1], x2 + tb.m_out[m, 2], x3 + tb.m_out[m, 3], c0, c1, c2, c3, limit
        )
        return d, 0, 0, 0, 0
    if kind == KIND_UPGRADE:
        sy, sg, stq, d = _upgrade_toward(x0, x1, x2, x3, c0, c1, c2, c3, tb.m_up[m], limit)
        if sy + sg + stq == 0:
            return _BIG, 0, 0, 0, 0
        return d, 0, sy, sg, stq
    best_d = _BIG
    best_t = 0
    tmax = trade_max_times(tb, m, x0, x1, x2, x3)
    for t in range(1, tmax + 1):
        d = _trimmed_distance(
            x0 + t * (tb.m_out[m, 0] - tb.m_in[m, 0]),
            x1 + t * (tb.m_out[m, 1] - tb.m_in[m, 1]),
            x2 + t * (tb.m_out[m, 2] - tb.m_in[m, 2]),
            x3 + t * (tb.m_out[m, 3] - tb.m_in[m, 3]),
            c0,
            c1,
            c2,
            c3,
            limit,
        )
        if d < best_d:
            best_d = d
            best_t = t
    return best_d, best_t, 0, 0, 0


@njit(cache=True, inline="always")
def _best_play(tb, hand, owned, num_owned, x0, x1, x2, x3, c0, c1, c2, c3, limit):
    """Best play toward cost c of a card of ``owned[:num_owned]`` (in card order) whose ``hand`` status is IN_HAND.

    Returns (distance after, card, times, sY, sG, sT); card -1 when no card is playable.
    """
    best_d = _BIG
    best_m = -1
    best_t = 0
    by = 0
    bg = 0
    bt = 0
    for k in range(num_owned):
        m = owned[k]
        if hand[m] != IN_HAND:
            continue
        d, t, sy, sg, stq = _card_best(tb, m, x0, x1, x2, x3, c0, c1, c2, c3, limit)
        if d < best_d:
            best_d = d
            best_m = m
            best_t = t
            by = sy
            bg = sg
            bt = stq
    return best_d, best_m, best_t, by, bg, bt


@njit(cache=True)
def _write_play(tb, mv, m, t, sy, sg, stq):
    mv[M_KIND] = PLAY
    mv[M_ARG] = m
    if tb.m_kind[m] == KIND_TRADE:
        mv[M_TIMES] = t
    elif tb.m_kind[m] == KIND_UPGRADE:
        mv[M_STEPS] = sy
        mv[M_STEPS + 1] = sg
        mv[M_STEPS + 2] = stq


@njit(cache=True)
def _clear(mv):
    for f in range(MOVE_LEN):
        mv[f] = 0
    for f in range(M_PAY, M_DISCARD):
        mv[f] = -1


@njit(cache=True, inline="always")
def _best_claim(r, tb, s):
    best = -1
    best_v = -1
    x0 = r.crystals[s, 0]
    x1 = r.crystals[s, 1]
    x2 = r.crystals[s, 2]
    x3 = r.crystals[s, 3]
    for p in range(r.p_row.shape[0]):
        pc = r.p_row[p]
        if pc < 0:
            break
        if x0 >= tb.p_cost[pc, 0] and x1 >= tb.p_cost[pc, 1] and x2 >= tb.p_cost[pc, 2] and x3 >= tb.p_cost[pc, 3]:
            v = tb.p_vp[pc] + coin_value(r, tb, p)
            if v > best_v:
                best_v = v
                best = p
    return best


@njit(cache=True, inline="always")
def _greedy(r, tb, patience, lookahead, epsilon, mv):
    s = r.current
    claim, j = _claim_and_target(
        r, tb, s, r.crystals[s, 0], r.crystals[s, 1], r.crystals[s, 2], r.crystals[s, 3], patience, -1
    )
    if claim >= 0:
        mv[M_KIND] = CLAIM
        mv[M_ARG] = claim
        return
    _toward(r, tb, s, j, lookahead, epsilon, mv)


@njit(cache=True, inline="always")
def _claim_best(r, tb, s, mv):
    """Write a claim of the most valuable point card the caravan pays exactly; False if none."""
    p = _best_claim(r, tb, s)
    if p < 0:
        return False
    mv[M_KIND] = CLAIM
    mv[M_ARG] = p
    return True


@njit(cache=True, inline="always")
def _toward_target(r, tb, s, patience, lookahead, epsilon, mv):
    """The play or acquisition that most reduces the distance to the best target, else rest."""
    j = target(r, tb, s, r.crystals[s, 0], r.crystals[s, 1], r.crystals[s, 2], r.crystals[s, 3], patience, -1)
    _toward(r, tb, s, j, lookahead, epsilon, mv)


@njit(cache=True, inline="always")
def _toward(r, tb, s, j, lookahead, epsilon, mv):
    """:func:`_toward_target` with the target ``j`` (row position, -1 if none) already chosen."""
    x0 = r.crystals[s, 0]
    x1 = r.crystals[s, 1]
    x2 = r.crystals[s, 2]
    x3 = r.crystals[s, 3]
    limit = tb.params[P_CARAVAN_LIMIT]
    if epsilon > 0.0 and j >= 0 and uniform(r.rng, 0) < epsilon:
        j = randint(r.rng, 0, _row_length(r.p_row))
    c0, c1, c2, c3 = row_cost(r, tb, j)
    here = distance(x0, x1, x2, x3, c0, c1, c2, c3)
    d, m, t, sy, sg, stq = _best_play(tb, r.cards[s], r.owned[s], r.num_owned[s], x0, x1, x2, x3, c0, c1, c2, c3, limit)
    # acquiring a card that carries crystals can also bring the target closer
    best_p = -1
    total = x0 + x1 + x2 + x3
    for p in range(r.m_row.shape[0]):
        if r.m_row[p] < 0 or p > total:
            break
        on_card = r.m_row_crystals[p, 0] + r.m_row_crystals[p, 1] + r.m_row_crystals[p, 2] + r.m_row_crystals[p, 3]
        if on_card == 0:
            continue  # paying crystals alone never brings a target closer
        y0, y1, y2, y3 = _acquired(r, p, x0, x1, x2, x3, c0, c1, c2, c3)
        da = _trimmed_distance(y0, y1, y2, y3, c0, c1, c2, c3, limit)
        if da < d:
            d = da
            best_p = p
    # one turn ahead: a card in the row that, bought now, would bring the target closer next turn
    if lookahead > 0.0 and best_p < 0:
        buy_p = -1
        buy_d = d - lookahead
        for p in range(r.m_row.shape[0]):
            m2 = r.m_row[p]
            if m2 < 0 or p > total:
                break
            y0, y1, y2, y3 = _acquired(r, p, x0, x1, x2, x3, c0, c1, c2, c3)
            dn = _card_best(tb, m2, y0, y1, y2, y3, c0, c1, c2, c3, limit)[0]
            if dn < buy_d:
                buy_d = dn
                buy_p = p
        if buy_p >= 0:
            a, b, c, e = spare(x0, x1, x2, x3, c0, c1, c2, c3, buy_p)
            write_acquire(mv, buy_p, a, b, c, e)
            return
    if d < here:
        if best_p >= 0:
            a, b, c, e = spare(x0, x1, x2, x3, c0, c1, c2, c3, best_p)
            write_acquire(mv, best_p, a, b, c, e)
        else:
            _write_play(tb, mv, m, t, sy, sg, stq)
        return
    if can_rest(r, tb, s):
        mv[M_KIND] = REST
        return
    if m >= 0:
        _write_play(tb, mv, m, t, sy, sg, stq)
        return
    if r.m_row[0] >= 0:
        mv[M_KIND] = ACQUIRE
        mv[M_ARG] = 0
        return
    mv[M_KIND] = PASS


@njit(cache=True, inline="always")
def _played(tb, m, t, sy, sg, stq, x0, x1, x2, x3):
    """Caravan x after a play of merchant card ``m``: its crystals created, ``t`` trades, or the upgrade steps
    ``sy``, ``sg``, ``stq`` (from yellow, green, turquoise)."""
    kind = tb.m_kind[m]
    if kind == KIND_CREATE:
        return x0 + tb.m_out[m, 0], x1 + tb.m_out[m, 1], x2 + tb.m_out[m, 2], x3 + tb.m_out[m, 3]
    if kind == KIND_UPGRADE:
        return x0 - sy, x1 + sy - sg, x2 + sg - stq, x3 + stq
    return (
        x0 + t * (tb.m_out[m, 0] - tb.m_in[m, 0]),
        x1 + t * (tb.m_out[m, 1] - tb.m_in[m, 1]),
        x2 + t * (tb.m_out[m, 2] - tb.m_in[m, 2]),
        x3 + t * (tb.m_out[m, 3] - tb.m_in[m, 3]),
    )


@njit(cache=True, inline="always")
def _acquired(r, p, x0, x1, x2, x3, c0, c1, c2, c3):
    """Caravan x after acquiring the merchant row's card at position ``p``, paying the crystals :func:`spare` keeps
    from target cost c and taking the crystals on the card."""
    a, b, c, e = spare(x0, x1, x2, x3, c0, c1, c2, c3, p)
    on = r.m_row_crystals
    return x0 - a + on[p, 0], x1 - b + on[p, 1], x2 - c + on[p, 2], x3 - e + on[p, 3]


@njit(cache=True)
def card_value(tb, m, limit):
    """Crystal value (Y1 G2 T3 M4) one play of merchant card ``m`` adds, trades counted twice."""
    kind = tb.m_kind[m]
    if kind == KIND_UPGRADE:
        return 1.5 * tb.m_up[m]
    gain = 0.0
    size = 0
    for c in range(4):
        gain += (c + 1) * (tb.m_out[m, c] - tb.m_in[m, c])
        size = max(size, tb.m_in[m, c] + tb.m_out[m, c])
    if kind == KIND_CREATE:
        return gain
    reps = min(2, limit // max(1, _side(tb, m)))
    return gain * reps


@njit(cache=True)
def _side(tb, m):
    a = 0
    b = 0
    for c in range(4):
        a += tb.m_in[m, c]
        b += tb.m_out[m, c]
    return max(a, b)


@njit(cache=True)
def _engine(r, tb, params, mv):
    s = r.current
    if _claim_best(r, tb, s, mv):
        return
    n = r.num_players
    own_turn = r.turn // n
    held = r.num_owned[s]
    threshold = params[3]
    if own_turn < params[0] and held < params[1]:
        threshold = params[2]
    limit = tb.params[P_CARAVAN_LIMIT]
    total = r.crystals[s, 0] + r.crystals[s, 1] + r.crystals[s, 2] + r.crystals[s, 3]
    best_p = -1
    best_v = threshold
    for q in range(r.m_row.shape[0]):
        m = r.m_row[q]
        if m < 0 or q > total:
            break
        gained = 0.0
        for c in range(4):
            gained += (c + 1) * r.m_row_crystals[q, c]
        v = card_value(tb, m, limit) + 0.5 * gained - 1.5 * q
        if v >= best_v:
            best_v = v
            best_p = q
    if best_p >= 0:
        j = target(r, tb, s, r.crystals[s, 0], r.crystals[s, 1], r.crystals[s, 2], r.crystals[s, 3], params[4], -1)
        c0, c1, c2, c3 = row_cost(r, tb, j)
        a, b, c, e = spare(
            r.crystals[s, 0], r.crystals[s, 1], r.crystals[s, 2], r.crystals[s, 3], c0, c1, c2, c3, best_p
        )
        write_acquire(mv, best_p, a, b, c, e)
        return
    _toward_target(r, tb, s, params[4], 0.0, params[5], mv)


# ---------------------------------------------------------------------------------------------
# planner: candidate moves scored by greedy rollouts over its own next turns


@njit(cache=True)
def _rollout(r, tb, hand, owned, num_owned, x0, x1, x2, x3, j, horizon, discount, limit):
    """Discounted value of reaching row card ``j`` by greedy own plays within ``horizon`` turns.

    ``hand`` is modified (a scratch copy of the statuses of the cards ``owned[:num_owned]``).
    """
    pc = r.p_row[j]
    c0 = tb.p_cost[pc, 0]
    c1 = tb.p_cost[pc, 1]
    c2 = tb.p_cost[pc, 2]
    c3 = tb.p_cost[pc, 3]
    value = tb.p_vp[pc] + coin_value(r, tb, j)
    w = 1.0
    for _ in range(horizon):
        if x0 >= c0 and x1 >= c1 and x2 >= c2 and x3 >= c3:
            return value * w
        w *= discount
        here = distance(x0, x1, x2, x3, c0, c1, c2, c3)
        d, m, t, sy, sg, stq = _best_play(tb, hand, owned, num_owned, x0, x1, x2, x3, c0, c1, c2, c3, limit)
        if m >= 0 and d < here:
            x0, x1, x2, x3 = _played(tb, m, t, sy, sg, stq, x0, x1, x2, x3)
            x0, x1, x2, x3 = _trimmed(x0, x1, x2, x3, c0, c1, c2, c3, limit)
            hand[m] = PLAYED
        else:
            played = False
            for k in range(num_owned):
                if hand[owned[k]] == PLAYED:
                    hand[owned[k]] = IN_HAND
                    played = True
            if not played:
                break
    if x0 >= c0 and x1 >= c1 and x2 >= c2 and x3 >= c3:
        return value * w
    # not reached: a small value that still prefers being closer
    return value * w * discount / (1.0 + distance(x0, x1, x2, x3, c0, c1, c2, c3))


@njit(cache=True)
def _position_value(r, tb, s, hand, owned, num_owned, x0, x1, x2, x3, skip, params, scratch):
    """Value of a caravan and hand (statuses of ``owned[:num_owned]``): best discounted rollout over the top targets."""
    horizon = int(params[0])
    discount = params[1]
    targets = int(params[2])
    patience = params[3]
    limit = tb.params[P_CARAVAN_LIMIT]
    best = 0.0
    tried = 0
    used = 0  # bitmask of row positions already tried
    while tried < targets:
        j = -1
        best_rank = -1.0
        for p in range(r.p_row.shape[0]):
            pc = r.p_row[p]
            if pc < 0:
                break
            if p == skip or (used >> p) & 1:
                continue
            d = distance(x0, x1, x2, x3, tb.p_cost[pc, 0], tb.p_cost[pc, 1], tb.p_cost[pc, 2], tb.p_cost[pc, 3])
            score = (tb.p_vp[pc] + coin_value(r, tb, p)) / _effort(d, patience)
            if score > best_rank:
                best_rank = score
                j = p
        if j < 0:
            break
        used |= 1 << j
        tried += 1
        for k in range(num_owned):
            scratch[owned[k]] = hand[owned[k]]
        v = _rollout(r, tb, scratch, owned, num_owned, x0, x1, x2, x3, j, horizon, discount, limit)
        if v > best:
            best = v
    return best


@njit(cache=True)
def _planner(r, tb, params, mv, hand):
    s = r.current
    nm = tb.params[P_NUM_MERCHANT]
    base = hand[:nm]
    scratch = hand[nm : 2 * nm]
    cand = hand[2 * nm :]  # the owned list with a card to acquire added
    owned = r.owned[s]
    no = r.num_owned[s]
    discount = params[1]
    noise = params[4]
    limit = tb.params[P_CARAVAN_LIMIT]
    x0 = r.crystals[s, 0]
    x1 = r.crystals[s, 1]
    x2 = r.crystals[s, 2]
    x3 = r.crystals[s, 3]
    best_v = -1.0
    # claims: immediate value plus what is left to build toward
    for p in range(r.p_row.shape[0]):
        if r.p_row[p] < 0:
            break
        if can_claim(r, tb, s, p):
            pc = r.p_row[p]
            _copy_hand(r, s, base)
            v = (
                tb.p_vp[pc]
                + coin_value(r, tb, p)
                + discount
                * _position_value(
                    r,
                    tb,
                    s,
                    base,
                    owned,
                    no,
                    x0 - tb.p_cost[pc, 0],
                    x1 - tb.p_cost[pc, 1],
                    x2 - tb.p_cost[pc, 2],
                    x3 - tb.p_cost[pc, 3],
                    p,
                    params,
                    scratch,
                )
            )
            v *= _jitter(r, noise)
            if v > best_v:
                best_v = v
                _clear(mv)
                mv[M_KIND] = CLAIM
                mv[M_ARG] = p
    # plays: each card in hand with its best variant toward each of the row cards
    for i in range(no):
        m = owned[i]
        if r.cards[s, m] != IN_HAND:
            continue
        kind = tb.m_kind[m]
        variants = 1
        if kind == KIND_TRADE:
            variants = trade_max_times(tb, m, x0, x1, x2, x3)
        elif kind == KIND_UPGRADE:
            variants = r.p_row.shape[0]
        for k in range(variants):
            t = 0
            sy = 0
            sg = 0
            stq = 0
            if kind == KIND_TRADE:
                t = k + 1
            elif kind == KIND_UPGRADE:
                if r.p_row[k] < 0:
                    break
                c0, c1, c2, c3 = row_cost(r, tb, k)
                sy, sg, stq, _ = _upgrade_toward(x0, x1, x2, x3, c0, c1, c2, c3, tb.m_up[m], limit)
                if sy + sg + stq == 0:
                    continue
            y0, y1, y2, y3 = _played(tb, m, t, sy, sg, stq, x0, x1, x2, x3)
            y0, y1, y2, y3 = _trim(r, tb, s, y0, y1, y2, y3, params)
            _copy_hand(r, s, base)
            base[m] = PLAYED
            v = discount * _position_value(r, tb, s, base, owned, no, y0, y1, y2, y3, -1, params, scratch)
            v *= _jitter(r, noise)
            if v > best_v:
                best_v = v
                _clear(mv)
                _write_play(tb, mv, m, t, sy, sg, stq)
    # acquisitions: the card joins the hand, paid with the least needed crystals
    total = x0 + x1 + x2 + x3
    j = target(r, tb, s, x0, x1, x2, x3, params[3], -1)
    c0, c1, c2, c3 = row_cost(r, tb, j)
    for p in range(r.m_row.shape[0]):
        m = r.m_row[p]
        if m < 0 or p > total:
            break
        a, b, c, e = spare(x0, x1, x2, x3, c0, c1, c2, c3, p)
        y0, y1, y2, y3 = _trim(
            r,
            tb,
            s,
            x0 - a + r.m_row_crystals[p, 0],
            x1 - b + r.m_row_crystals[p, 1],
            x2 - c + r.m_row_crystals[p, 2],
            x3 - e + r.m_row_crystals[p, 3],
            params,
        )
        _copy_hand(r, s, base)
        base[m] = IN_HAND
        k = no
        while k > 0 and owned[k - 1] > m:
            cand[k] = owned[k - 1]
            k -= 1
        cand[k] = m
        for q in range(k):
            cand[q] = owned[q]
        v = discount * _position_value(r, tb, s, base, cand, no + 1, y0, y1, y2, y3, -1, params, scratch)
        v *= _jitter(r, noise)
        if v > best_v:
            best_v = v
            _clear(mv)
            write_acquire(mv, p, a, b, c, e)
    # rest
    if can_rest(r, tb, s):
        for q in range(no):
            base[owned[q]] = IN_HAND
        v = discount * _position_value(r, tb, s, base, owned, no, x0, x1, x2, x3, -1, params, scratch)
        v *= _jitter(r, noise)
        if v > best_v:
            best_v = v
            _clear(mv)
            mv[M_KIND] = REST
    if best_v < 0:
        _greedy(r, tb, params[3], 0.0, 0.0, mv)


@njit(cache=True)
def _copy_hand(r, s, base):
    """Statuses of seat ``s``'s owned cards into ``base`` (other entries are never read)."""
    for k in range(r.num_owned[s]):
        m = r.owned[s, k]
        base[m] = r.cards[s, m]


@njit(cache=True)
def _jitter(r, noise):
    """A random factor in [1 - noise, 1 + noise) from the game's play stream (1 when noise is 0)."""
    if noise <= 0.0:
        return 1.0
    return 1.0 + noise * (2.0 * uniform(r.rng, 0) - 1.0)


@njit(cache=True)
def _trim(r, tb, s, y0, y1, y2, y3, params):
    """Caravan after returning the crystals least needed by the best target over the limit."""
    limit = tb.params[P_CARAVAN_LIMIT]
    e = y0 + y1 + y2 + y3 - limit
    if e <= 0:
        return y0, y1, y2, y3
    j = target(r, tb, s, y0, y1, y2, y3, params[3], -1)
    c0, c1, c2, c3 = row_cost(r, tb, j)
    d0, d1, d2, d3 = spare(y0, y1, y2, y3, c0, c1, c2, c3, e)
    return y0 - d0, y1 - d1, y2 - d2, y3 - d3


def default_params(name: str) -> np.ndarray:
    """Parameter vector of bot ``name`` with its defaults."""
    out = np.zeros(MAX_BOT_PARAMS)
    for k, (default, _) in enumerate(BOTS[name][2].values()):
        out[k] = default
    return out
