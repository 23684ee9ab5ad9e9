"""Golems bots: numba functions that choose the move of the player to move.

A bot writes a whole move record (``choose``). The kernel dispatches on an integer bot id;
parameters come as a float vector named in ``BOTS``. Bots see what players see: the display,
every seat's cards and gems, the supply and the deck size, never the deck order or the cards
removed at setup (the look-ahead bot reshuffles those before each rollout).
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate import datafiles
from simulate.games.golems.data import *
from simulate.games.golems.engine import (
    can_take_gems,
    dust_score,
    legal_moves,
    reserve_ok,
    score,
    step,
)
from simulate.games.golems.features import NUM_FEATURES
from simulate.games.golems.state import *
from simulate.rng import next_u64, randint

KERNELS = ("random", "greedy", "collector", "lookahead", "search", "apprentice")  # the bots' kernels by id (``BOTS``)
RANDOM, GREEDY, COLLECTOR, LOOKAHEAD, SEARCH, APPRENTICE = range(len(KERNELS))

# name -> (id, description, {param: (default, help)}), the parameters' (lowest, highest) and those that count
# something: seeds/golems/bots.toml
BOTS, LIMITS, WHOLE_PARAMS = datafiles.read_bots("golems", KERNELS)
MAX_BOT_PARAMS = 8
SCRATCH_MOVES = 16384
# int64 scratch of a bot decision, (WORK_ROWS, WORK_LEN): rows indexed, never sliced (a view costs refcounts)
W_NEED, W_TUCK, W_BOUND, W_TIES = 0, 1, 2, 3
WORK_ROWS = 4
WORK_LEN = MAX_DISPLAY + 2
NUM_SCRATCH = 3  # game records a bot may use as scratch (look-ahead: position copy, rollout; apprentice: reply)

_NEG = -1.0e18
_EPS = 1.0e-9
_HIGH = np.uint64(0x8080808080808080)

# collector defaults used by the look-ahead bot's rollouts and evaluation
C_GEM, C_COLUMN, C_TARGET, C_CHASE, C_ENDGAME = 0.4, 0.7, 4.0, 0.5, 9.0


def default_params(name: str) -> np.ndarray:
    """Parameter vector of bot ``name`` with its defaults."""
    out = np.zeros(MAX_BOT_PARAMS)
    for k, (default, _) in enumerate(BOTS[name][2].values()):
        out[k] = default
    return out


def new_work(num: int, state_dtype: np.dtype) -> np.ndarray:
    """``num`` bot work records: the move being chosen, scratch arrays and NUM_SCRATCH game records.

    Fields ``mv`` (MOVE_LEN,), ``work`` (WORK_ROWS, WORK_LEN) int64, ``moves`` (SCRATCH_MOVES,
    MOVE_LEN) and ``scratch`` (NUM_SCRATCH game records); the apprentice's ``feat`` (its features),
    ``values`` (a logit per move), ``seed`` (its random stream), ``scores``, ``ranks`` and ``wins`` (a
    finished afterstate). Fields of a record are views without a reference count: passing them from
    call to call costs no atomic updates, as arrays would.
    """
    fields = [
        ("mv", np.int16, (MOVE_LEN,)),
        ("work", np.int64, (WORK_ROWS, WORK_LEN)),
        ("moves", np.int16, (SCRATCH_MOVES, MOVE_LEN)),
        ("scratch", state_dtype, (NUM_SCRATCH,)),
        ("feat", np.float64, (NUM_FEATURES,)),
        ("values", np.float64, (SCRATCH_MOVES,)),
        ("seed", np.uint64, (1,)),
        ("scores", np.int64, (2,)),
        ("ranks", np.int64, (2,)),
        ("wins", np.float64, (2,)),
    ]
    return np.zeros(num, np.dtype(fields, align=True))


@njit(cache=True)
def choose(r, tb, bot, params, row, w):
    """Write bot ``bot``'s move for the player to move in game record ``r`` into ``w.mv``.

    The bot's parameters are ``params[row]``; ``w`` is a work record (``new_work``). (Rows are
    read in place: a view of ``params[row]`` would cost two reference-count updates per move.)
    """
    mv = w.mv
    if bot == GREEDY:
        _greedy(r, tb, params[row, 0], w)
    elif bot == COLLECTOR:
        collector_move(
            r, tb, params[row, 0], params[row, 1], params[row, 2], params[row, 3], params[row, 4], mv, w.work
        )
    elif bot == RANDOM:
        moves = w.moves
        n = legal_moves(r, tb, moves)
        k = randint(r.rng, 0, n)
        for f in range(MOVE_LEN):
            mv[f] = moves[k, f]
    elif bot == LOOKAHEAD:
        _lookahead(
            r, tb, params[row, 0], params[row, 1], params[row, 2], params[row, 3], mv, w.moves, w.scratch, w.work
        )
    else:
        raise ValueError(
            "the search bot moves through search_bot.search_action (it holds its tree), the apprentice through "
            "apprentice.apprentice_action"
        )


@njit(cache=True)
def _write(mv, kind, row, pos, ability, column):
    for f in range(MOVE_LEN):
        mv[f] = 0
    mv[M_KIND] = kind
    mv[M_ROW] = row
    mv[M_POS] = pos
    mv[M_ABILITY] = ability
    mv[M_COLUMN] = column


# ---------------------------------------------------------------------------- shared helpers


@njit(cache=True)
def _tuck_bounds(r, tb, s, c, work):
    """``work[W_BOUND, t]``: cards of column t that may be tucked under Golem ``c``; returns their sum."""
    pm = tb.params
    mode = pm[P_TUCK_LIMIT]
    wild_ok = pm[P_WILD_TUCK] != 0
    total = 0
    for t in range(pm[P_NUM_TYPES]):
        n = r.col[s, t]
        if not wild_ok:
            n -= r.wild[s, t]
        req = tb.c_req[c, t]
        if mode == TUCK_REQUIREMENT:
            n = min(n, req)
        elif mode == TUCK_REQUIRED_TYPES and req == 0:
            n = 0
        work[W_BOUND, t] = n
        total += n
    return total


@njit(cache=True)
def _packed_columns(r, tb, s):
    """Seat ``s``'s column sizes packed one byte per type (capped at 127), as ``c_req_packed``."""
    x = np.uint64(0)
    for t in range(tb.params[P_NUM_TYPES]):
        x |= np.uint64(min(r.col[s, t], 127)) << np.uint64(8 * t)
    return x


@njit(cache=True)
def _meets(columns, req_packed):
    """Every byte of ``columns`` is at least the byte of ``req_packed`` (SWAR: no borrow from a high bit)."""
    return ((columns | _HIGH) - req_packed) & _HIGH == _HIGH


@njit(cache=True)
def _simple_tucks(tb):
    """Under the default tuck rules a summonable Golem can tuck exactly its requirement's icons."""
    return tb.params[P_TUCK_LIMIT] == TUCK_REQUIREMENT and tb.params[P_WILD_TUCK] != 0


@njit(cache=True)
def _offer(work, nt, best, v, code):
    """Keep the candidates of the best value so far: returns (count, best).

    Without a branch (multiplying by 0 or 1; the code is stored past the kept ones when it is not
    kept): which candidate beats or ties the best so far is unpredictable, and mispredicted branches
    here cost the greedy bot 5% of the kernel's time. ``best`` and ``v`` are finite.
    """
    better = v > best + _EPS
    nt = nt * (not better)
    best = better * v + (not better) * best
    work[W_TIES, nt] = code
    return nt + (v >= best - _EPS), best


@njit(cache=True)
def _pick(r, work, nt):
    """One of the ``nt`` tied candidate codes, uniformly (one draw only when there is a tie)."""
    if nt == 1:
        return work[W_TIES, 0]
    return work[W_TIES, randint(r.rng, 0, nt)]


@njit(cache=True)
def _most_column(r, tb, s):
    """The existing column with the most cards (a wild Rune's column for greedy), -1 if none."""
    best = -1
    most = 0
    for t in range(tb.params[P_NUM_TYPES]):
        if r.col[s, t] > most:
            most = r.col[s, t]
            best = t
    return best


@njit(cache=True)
def _decode(r, tb, code, mv):
    """Write the move of candidate ``code`` (-1 gem action, -2 pass, else row*64 + pos*8 + ability)."""
    for f in range(MOVE_LEN):
        mv[f] = 0
    mv[M_COLUMN] = -1
    if code == -1:
        mv[M_KIND] = TAKE_GEMS
        return -1
    if code == -2:
        mv[M_KIND] = PASS
        return -1
    row = code // 64
    pos = (code // 8) % 8
    mv[M_KIND] = TAKE_CARD
    mv[M_ROW] = row
    mv[M_POS] = pos
    mv[M_ABILITY] = code % 8
    c = r.slot[row, pos]
    if code % 8 == RESOURCE and tb.c_wild[c] == 0:
        mv[M_COLUMN] = tb.c_res[c]
    return c


# --------------------------------------------------------------------------- greedy and collector


@njit(cache=True)
def plan_weight(r, endgame):
    """How much plans still count: 1 while the deck holds ``endgame`` cards or more, then linearly less."""
    left = r.deck_len - r.deck_pos
    if endgame <= 0.0 or left >= endgame:
        return 1.0
    return left / endgame


@njit(cache=True)
def display_needs(r, tb, work):
    """``work[W_NEED, t]``: the largest requirement of type t among the Golems on display.

    A bytewise maximum (SWAR) of the packed requirements, branch-free (a Rune's or Gem card's
    packed requirement is 0, an empty position is masked), then unpacked.
    """
    need = np.uint64(0)
    for row in range(r.rows):
        for pos in range(r.row_size):
            c = r.slot[row, pos]
            b = tb.c_req_packed[max(c, 0)] & (np.uint64(0) - np.uint64(c >= 0))
            ge = (((need | _HIGH) - b) & _HIGH) >> np.uint64(7)  # 1 in each byte where need >= b
            mask = ge * np.uint64(0xFF)
            need = (need & mask) | (b & ~mask)
    for t in range(MAX_TYPES):
        work[W_NEED, t] = (need >> np.uint64(8 * t)) & np.uint64(0xFF)


@njit(cache=True)
def _column_card(need_t, x, column_value):
    """Worth of the (x+1)-th card of a column: full while a Golem on display needs it, a quarter after."""
    return column_value if x < need_t else 0.25 * column_value


@njit(cache=True)
def _dust_plan(tb, d, target, chase, w):
    """Dust ``d`` valued as its points plus a share of the points still missing to ``target``."""
    now = dust_score(tb, d)
    if d <= 0 or d >= target:
        return float(now)
    return now + w * chase * (d / target) * (dust_score(tb, target) - now)


@njit(cache=True)
def _dust_target(tb, target):
    t = int(target)
    top = tb.params[P_DUST_LEN] - 1
    return min(max(t, 1), max(top, 1))


@njit(cache=True)
def _lowest_tucks(tb, work):
    """``work[W_TUCK]``: the tucks ``work[W_BOUND]`` allows, lowest column first, up to tuck_max; returns how many."""
    left = tb.params[P_TUCK_MAX]
    for t in range(tb.params[P_NUM_TYPES]):
        x = min(work[W_BOUND, t], left)
        work[W_TUCK, t] = x
        left -= x
    return tb.params[P_TUCK_MAX] - left


@njit(cache=True)
def plan_tucks(r, tb, s, c, column_value, w, work):
    """Tucks under Golem ``c`` that pay: each tucked card scores tuck_vp and costs its column worth.

    Cheapest first: cards above what the Golems on display need (a quarter of ``column_value``),
    then needed cards, lower columns first; none that costs a point or more. Writes the counts into
    ``work[W_TUCK]`` and returns the value gained (>= 0).
    """
    k_types = tb.params[P_NUM_TYPES]
    tuck_vp = tb.params[P_TUCK_VP]
    left = tb.params[P_TUCK_MAX]
    _tuck_bounds(r, tb, s, c, work)
    spare = tuck_vp - w * 0.25 * column_value
    full = tuck_vp - w * column_value
    gained = 0.0
    for t in range(MAX_TYPES):
        work[W_TUCK, t] = 0
    if spare <= 0.0:
        return gained
    if full == spare:  # every card costs the same: columns in order
        return _lowest_tucks(tb, work) * spare
    for t in range(k_types):
        x = min(work[W_BOUND, t], max(r.col[s, t] - work[W_NEED, t], 0), left)
        work[W_TUCK, t] = x
        left -= x
        gained += x * spare
    if full > 0.0:
        for t in range(k_types):
            x = min(work[W_BOUND, t] - work[W_TUCK, t], left)
            work[W_TUCK, t] += x
            left -= x
            gained += x * full
    return gained


@njit(cache=True)
def _wild_column(r, tb, s, column_value, work):
    """The column a wild Rune is worth most in (ties: the lowest), -1 if the seat has none."""
    best = -1
    most = -1.0
    for t in range(tb.params[P_NUM_TYPES]):
        if r.col[s, t] > 0:
            x = _column_card(work[W_NEED, t], r.col[s, t], column_value)
            if x > most:
                most = x
                best = t
    return best


@njit(cache=True, inline="always")
def _column_worth(r, s, t, plan, column_value, w, work):
    """A card to seat ``s``'s column t beyond its take: its plan share (collector), or nothing (greedy)."""
    return w * _column_card(work[W_NEED, t], r.col[s, t], column_value) if plan else 0.0


@njit(cache=True, inline="always")
def _tucks_worth(r, tb, s, c, plan, column_value, w, simple, work):
    """What a summon of Golem ``c``'s tucks add: those that pay (collector), or tuck_vp for each it may (greedy)."""
    if plan:
        return plan_tucks(r, tb, s, c, column_value, w, work)
    tucks = tb.c_req_total[c] if simple else _tuck_bounds(r, tb, s, c, work)
    return float(tb.params[P_TUCK_VP] * min(tucks, tb.params[P_TUCK_MAX]))


@njit(cache=True, inline="always")
def _dust_worth(tb, d, plan, target, chase, w):
    """Dust ``d``'s worth: its points plus its plan share (collector), or its points (greedy)."""
    return _dust_plan(tb, d, target, chase, w) if plan else float(dust_score(tb, d))


@njit(cache=True, inline="always")
def _best_take(r, tb, gem_value, plan, column_value, target, chase, w, mv, work):
    """The greedy (``plan`` False) and collector (``plan`` True) bots' move into ``mv``: every take valued, the best
    played, ties at random; a held gem counts ``gem_value``.

    A card is worth its points and gems now, and with ``plan`` also its share of the column, tuck and dust plans
    (:func:`_column_worth`, :func:`_tucks_worth`, :func:`_dust_worth`, weighed by ``w``; ``column_value``,
    ``target`` and ``chase`` as in ``BOTS``). A wild Rune joins the column it is worth most in (greedy: the longest).
    """
    s = r.current
    pm = tb.params
    golem_vp = pm[P_GOLEM_VP]
    columns = _packed_columns(r, tb, s)
    if plan:
        display_needs(r, tb, work)
        wild_col = _wild_column(r, tb, s, column_value, work)
    else:  # any column will do here (a greedy column is worth nothing); the longest is found once the Rune is taken
        wild_col = 0 if columns != 0 else -1
    d_now = _dust_worth(tb, r.dust[s], plan, target, chase, w)
    opp = r.gems[1 - s] if r.num_players == 2 else 0
    simple = _simple_tucks(tb)
    best = _NEG
    nt = 0
    if can_take_gems(r, tb, s):
        nt, best = _offer(work, nt, best, gem_value * min(pm[P_TAKE_GEMS], r.supply), -1)
    for row in range(r.rows):
        k = r.row_count[row]
        if k == 0:
            continue
        pay = k - 1 if k >= 3 else 0
        if r.gems[s] < pay:
            continue
        for pos in range(r.row_size):
            c = r.slot[row, pos]
            if c < 0:
                continue
            gain = 0 if k == 2 else r.slot_gems[row, pos]
            base = gem_value * (gain - pay)
            ct = tb.c_type[c]
            v = _NEG
            ab = RESOURCE
            if ct == GOLEM:
                v = base + _column_worth(r, s, tb.c_res[c], plan, column_value, w, work)
                if _meets(columns, tb.c_req_packed[c]):
                    vs = base + golem_vp + _tucks_worth(r, tb, s, c, plan, column_value, w, simple, work)
                    if vs > v:
                        v = vs
                        ab = SUMMON
            elif ct == RUNE:
                t = wild_col if tb.c_wild[c] else (tb.c_res[c] if r.col[s, tb.c_res[c]] > 0 else -1)
                if t >= 0:
                    v = base + _column_worth(r, s, t, plan, column_value, w, work)
                if reserve_ok(r, tb, s, r.gems[s] - pay + gain):
                    vr = base + tb.c_vp[c] - gem_value * pm[P_RESERVE_COST]
                    if vr > v:
                        v = vr
                        ab = RESERVE
                if v == _NEG:
                    if pm[P_RUNE_DISCARD] == 0:
                        continue
                    v = base
                    ab = DISCARD
            else:
                v = base + tb.c_vp[c] + gem_value * min(tb.c_reward[c], r.supply + opp)
                ab = REWARD
                vd = base + _dust_worth(tb, r.dust[s] + tb.c_dust[c], plan, target, chase, w) - d_now
                if vd > v:
                    v = vd
                    ab = DUST
            nt, best = _offer(work, nt, best, v, row * 64 + pos * 8 + ab)
    c = _decode(r, tb, _pick(r, work, nt) if nt > 0 else -2, mv)
    if mv[M_KIND] == TAKE_CARD:
        if mv[M_ABILITY] == SUMMON:
            if plan:
                plan_tucks(r, tb, s, c, column_value, w, work)
            else:
                _tuck_bounds(r, tb, s, c, work)
                _lowest_tucks(tb, work)
            for t in range(pm[P_NUM_TYPES]):
                mv[M_TUCK + t] = work[W_TUCK, t]
        elif mv[M_ABILITY] == RESOURCE and tb.c_wild[c]:
            mv[M_COLUMN] = wild_col if plan else _most_column(r, tb, s)


@njit(cache=True)
def _greedy(r, tb, gem_value, w):
    """Best immediate points; a held gem counts ``gem_value``; equal values are broken at random.

    A summon tucks all it may (lowest column first); a wild Rune joins the longest column. Writes
    the move into ``w.mv`` (``w`` a work record: a record passes without reference counting).
    """
    _best_take(r, tb, gem_value, False, 0.0, 1, 0.0, 1.0, w.mv, w.work)


@njit(cache=True)
def collector_move(r, tb, gem_value, column_value, dust_target, dust_chase, endgame, mv, work):
    """One-move planner: points now plus the change in column, dust and gem plans; ties at random.

    ``work`` (WORK_LEN,) is scratch space.
    """
    target = _dust_target(tb, dust_target)
    _best_take(r, tb, gem_value, True, column_value, target, dust_chase, plan_weight(r, endgame), mv, work)


# ------------------------------------------------------------------------------------- lookahead


@njit(cache=True)
def potential(r, tb, s, work):
    """Collector-style worth of seat ``s``'s position: points, plus dust, column and gem plans."""
    w = plan_weight(r, C_ENDGAME)
    target = _dust_target(tb, C_TARGET)
    v = float(score(r, tb, s)) - dust_score(tb, r.dust[s]) + _dust_plan(tb, r.dust[s], target, C_CHASE, w)
    v += C_GEM * r.gems[s]
    for t in range(tb.params[P_NUM_TYPES]):
        for x in range(r.col[s, t]):
            v += w * _column_card(work[W_NEED, t], x, C_COLUMN)
    return v


@njit(cache=True)
def _evaluate(r, tb, s, work, win_bonus):
    """Worth of a (rolled-out) position for seat ``s`` against the other side (the automaton in solo)."""
    mine = score(r, tb, s)
    if r.num_players == 2:
        theirs = score(r, tb, 1 - s)
    else:
        theirs = r.automa_vp
    if r.over != RUNNING:
        v = float(mine - theirs)
        if mine > theirs:
            v += win_bonus
        elif mine == theirs:
            v += 0.5 * win_bonus
        return v
    display_needs(r, tb, work)
    v = potential(r, tb, s, work)
    if r.num_players == 2:
        v -= potential(r, tb, 1 - s, work)
    else:
        v -= theirs
    return v


@njit(cache=True)
def _unseen_index(r, k):
    """Deck position of the k-th unseen card: the removed cards, then the cards still to draw."""
    return k if k < r.removed else np.int64(r.deck_pos) + k - r.removed


@njit(cache=True)
def determinize(r):
    """Deal the cards no player has seen (removed at setup, still in the deck) anew with ``r.rng``.

    They are sorted first, so the result depends on which cards are unseen, never on their real
    order: the bot cannot peek.
    """
    n = r.removed + (r.deck_len - r.deck_pos)
    for k in range(1, n):  # insertion sort
        ik = _unseen_index(r, k)
        x = r.deck[ik]
        j = k - 1
        while j >= 0 and r.deck[_unseen_index(r, j)] > x:
            r.deck[_unseen_index(r, j + 1)] = r.deck[_unseen_index(r, j)]
            j -= 1
        r.deck[_unseen_index(r, j + 1)] = x
    for k in range(n - 1, 0, -1):
        j = randint(r.rng, 0, k + 1)
        ik = _unseen_index(r, k)
        ij = _unseen_index(r, j)
        tmp = r.deck[ik]
        r.deck[ik] = r.deck[ij]
        r.deck[ij] = tmp


@njit(cache=True)
def _sampled_step(r, tb, scratch, k, mv):
    """``scratch[k]``: ``r`` with its unseen cards dealt anew (a seed drawn from ``r.rng``), then move ``mv`` played."""
    scratch[k] = r
    sc = scratch[k]
    sc.rng[0] = next_u64(r.rng, 0)
    determinize(sc)
    step(sc, tb, mv)


@njit(cache=True)
def _lookahead(r, tb, candidates, rollouts, horizon, win_bonus, mv, moves, scratch, work):
    """Flat Monte Carlo over the collector's best ``candidates`` moves (see ``BOTS``)."""
    s = r.current
    num_cand = max(int(candidates), 1)
    rollouts = max(int(rollouts), 1)
    horizon = int(horizon)
    n = legal_moves(r, tb, moves)
    if n == 1:
        for f in range(MOVE_LEN):
            mv[f] = moves[0, f]
        return
    own = np.zeros((WORK_ROWS, WORK_LEN), np.int64)  # the evaluation's scratch, apart from the rollouts'
    first = np.empty(n)
    # 1. every legal move, one step deep, by the collector's evaluation (unseen cards reshuffled:
    #    a refill must not reveal the real deck)
    for i in range(n):
        _sampled_step(r, tb, scratch, 0, moves[i])
        first[i] = _evaluate(scratch[0], tb, s, own, win_bonus)
    order = np.argsort(-first)
    num_cand = min(num_cand, n)
    # 2. the best candidates, each by rollouts of the next turns
    inner = np.zeros(MOVE_LEN, np.int16)
    best = _NEG
    best_i = order[0]
    for ci in range(num_cand):
        i = order[ci]
        total = 0.0
        for _ in range(rollouts):
            _sampled_step(r, tb, scratch, 1, moves[i])
            sc = scratch[1]
            for _h in range(horizon):
                if sc.over != RUNNING:
                    break
                collector_move(sc, tb, C_GEM, C_COLUMN, C_TARGET, C_CHASE, C_ENDGAME, inner, work)
                step(sc, tb, inner)
            total += _evaluate(sc, tb, s, own, win_bonus)
        v = total / rollouts
        if v > best:
            best = v
            best_i = i
    for f in range(MOVE_LEN):
        mv[f] = moves[best_i, f]


@njit(cache=True)
def game_choose(st, tab, g, bot, params, row, ws):
    """Entry point for Python callers (tests): bot ``bot``'s move in game ``g`` of batch ``st`` into ``ws[0].mv``."""
    choose(st[g], tab[0], bot, params, row, ws[0])
