"""Century: Golem Edition rules as numba functions over the record ``r`` of one game of a batch.

The engine knows rules only: setup, legal moves, applying a move and its discard, the end of a
turn, and scoring. Bots choose moves (``bots.py``); the batch loop lives in ``play.py``.
The rules page is ``docs/century.md``; the plain-Python twin is ``reference.py``.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from numba import njit

from simulate.games.century.data import *
from simulate.games.century.state import *
from simulate.rng import draw_front, opening_seed, order_seed, shuffle_range

MAX_PLAYERS = 5


@njit(cache=True)
def init_game(r, tb, num_players, setup_seed, play_seed):
    """Set up game record ``r`` for ``num_players`` from its setup seed; bots will draw from the play seed."""
    nk = tb.params[P_NUM_MARKET]
    npt = tb.params[P_NUM_POINT]
    r.num_players = num_players
    r.current = 0
    r.turn = 0
    r.triggered = 0
    r.over = RUNNING
    for k in range(r.m_deck.shape[0]):
        r.m_deck[k] = tb.market_cards[k] if k < nk else -1
    for k in range(r.p_deck.shape[0]):
        r.p_deck[k] = k if k < npt else -1
    # the public opening (the two face-up rows) from the opening stream, the rest of each deck from the order stream
    m_shown = min(tb.params[P_MERCHANT_ROW], nk)
    p_shown = min(tb.params[P_POINT_ROW], npt)
    r.rng[0] = opening_seed(setup_seed)
    draw_front(r.rng, 0, r.m_deck, nk, m_shown)
    draw_front(r.rng, 0, r.p_deck, npt, p_shown)
    r.rng[0] = order_seed(setup_seed)
    shuffle_range(r.rng, 0, r.m_deck, m_shown, nk)
    shuffle_range(r.rng, 0, r.p_deck, p_shown, npt)
    r.rng[0] = play_seed
    for k in range(r.m_row.shape[0]):
        r.m_row[k] = -1
        for c in range(4):
            r.m_row_crystals[k, c] = 0
    for k in range(r.p_row.shape[0]):
        r.p_row[k] = -1
    drawn = min(tb.params[P_MERCHANT_ROW], nk)
    for k in range(drawn):
        r.m_row[k] = r.m_deck[k]
    r.m_deck_pos = drawn
    drawn = min(tb.params[P_POINT_ROW], npt)
    for k in range(drawn):
        r.p_row[k] = r.p_deck[k]
    r.p_deck_pos = drawn
    coins = tb.params[P_COINS_PER_PLAYER] * num_players
    r.copper_left = coins
    r.silver_left = coins
    for s in range(MAX_PLAYERS):
        for c in range(4):
            r.crystals[s, c] = tb.start_crystals[s, c] if s < num_players else 0
        for m in range(r.cards.shape[1]):  # the whole capacity: the slots past the deck stay empty
            r.cards[s, m] = NOT_OWNED
            r.owned[s, m] = -1
        r.num_owned[s] = 0
        r.num_points[s] = 0
        r.point_vp[s] = 0
        r.copper[s] = 0
        r.silver[s] = 0
    for s in range(num_players):
        for k in range(tb.params[P_NUM_START]):
            r.cards[s, tb.start_cards[k]] = IN_HAND
            _add_owned(r, s, tb.start_cards[k])
    for m in range(r.m_turn.shape[0]):
        r.m_turn[m] = -1
    for p in range(r.p_turn.shape[0]):
        r.p_turn[p] = -1
        r.p_owner[p] = -1


@njit(cache=True)
def deal_gift(r, tb, seat_bot):
    """Rule option ``gift``: the seat of lineup entry 0 (``seat_bot``: lineup entry per seat) takes the gift copy
    into its hand after setup; nothing without a gift."""
    m = tb.params[P_GIFT]
    if m < 0:
        return
    for s in range(r.num_players):
        if seat_bot[s] == 0:
            r.cards[s, m] = IN_HAND
            _add_owned(r, s, m)
            return


@njit(cache=True)
def _add_owned(r, s, m):
    """Insert card ``m`` into seat ``s``'s owned list, keeping it in card order."""
    k = r.num_owned[s]
    while k > 0 and r.owned[s, k - 1] > m:
        r.owned[s, k] = r.owned[s, k - 1]
        k -= 1
    r.owned[s, k] = m
    r.num_owned[s] += 1


@njit(cache=True)
def trade_max_times(tb, card, x0, x1, x2, x3):
    """Repetitions of trade ``card`` a caravan (x0..x3) can pay one after another, at most caravan_limit."""
    t = 0
    while t < tb.params[P_CARAVAN_LIMIT]:
        if x0 < tb.m_in[card, 0] or x1 < tb.m_in[card, 1] or x2 < tb.m_in[card, 2] or x3 < tb.m_in[card, 3]:
            return t
        x0 += tb.m_out[card, 0] - tb.m_in[card, 0]
        x1 += tb.m_out[card, 1] - tb.m_in[card, 1]
        x2 += tb.m_out[card, 2] - tb.m_in[card, 2]
        x3 += tb.m_out[card, 3] - tb.m_in[card, 3]
        t += 1
    return t


@njit(cache=True)
def can_rest(r, tb, s):
    """Rest is legal: a played card to take back, unless the rule option allows resting anyway."""
    if tb.params[P_REST_REQUIRES_PLAYED] == 0:
        return True
    for k in range(r.num_owned[s]):
        if r.cards[s, r.owned[s, k]] == PLAYED:
            return True
    return False


@njit(cache=True)
def can_claim(r, tb, s, pos):
    """The caravan of seat ``s`` holds the exact cost of the point card at row ``pos``."""
    pc = r.p_row[pos]
    if pc < 0:
        return False
    for c in range(4):
        if r.crystals[s, c] < tb.p_cost[pc, c]:
            return False
    return True


@njit(cache=True)
def legal_moves(r, tb, out):
    """Write the canonical legal moves of the player to move into ``out``; return their count.

    Acquisitions appear once per multiset of paid colours, placed in ascending colour order
    from position 0. Discard fields are left at zero.
    """
    s = r.current
    n = play_moves(r, tb, s, out, 0)
    x0, x1, x2, x3, total = caravan(r, s)
    for p in range(r.m_row.shape[0]):
        if r.m_row[p] < 0 or p > total:
            break
        # every multiset (a, b, c, d) of size p within the caravan
        for a in range(min(p, x0) + 1):
            for b in range(min(p - a, x1) + 1):
                for c in range(min(p - a - b, x2) + 1):
                    d = p - a - b - c
                    if d > x3:
                        continue
                    n = emit(out, n, ACQUIRE, p)
                    write_acquire(out[n - 1], p, a, b, c, d)
    return rest_and_claims(r, tb, s, out, n)


@njit(cache=True)
def write_acquire(mv, p, a, b, c, d):
    """Acquire at position p paying a Y, b G, c T, d M, cheapest crystals on the leftmost cards."""
    mv[M_KIND] = ACQUIRE
    mv[M_ARG] = p
    k = 0
    for _ in range(a):
        mv[M_PAY + k] = 0
        k += 1
    for _ in range(b):
        mv[M_PAY + k] = 1
        k += 1
    for _ in range(c):
        mv[M_PAY + k] = 2
        k += 1
    for _ in range(d):
        mv[M_PAY + k] = 3
        k += 1


@njit(cache=True)
def caravan(r, s):
    """Seat ``s``'s crystals by colour (``COLOURS``: yellow, green, turquoise, magenta) and their total."""
    x0, x1, x2, x3 = r.crystals[s, 0], r.crystals[s, 1], r.crystals[s, 2], r.crystals[s, 3]
    return x0, x1, x2, x3, x0 + x1 + x2 + x3


@njit(cache=True, inline="always")
def play_moves(r, tb, s, out, n):
    """Write seat ``s``'s legal plays (every upgrade split, every trade count) into ``out`` from ``n``; new count."""
    x0 = r.crystals[s, 0]
    x1 = r.crystals[s, 1]
    x2 = r.crystals[s, 2]
    x3 = r.crystals[s, 3]
    for k in range(r.num_owned[s]):
        m = r.owned[s, k]
        if r.cards[s, m] != IN_HAND:
            continue
        kind = tb.m_kind[m]
        if kind == KIND_CREATE:
            n = emit(out, n, PLAY, m)
        elif kind == KIND_UPGRADE:
            up = tb.m_up[m]
            for sy in range(min(up, x0) + 1):
                for sg in range(min(up - sy, x1 + sy) + 1):
                    for stq in range(min(up - sy - sg, x2 + sg) + 1):
                        if sy + sg + stq == 0:
                            continue
                        n = emit(out, n, PLAY, m)
                        out[n - 1, M_STEPS] = sy
                        out[n - 1, M_STEPS + 1] = sg
                        out[n - 1, M_STEPS + 2] = stq
        else:
            for t in range(1, trade_max_times(tb, m, x0, x1, x2, x3) + 1):
                n = emit(out, n, PLAY, m)
                out[n - 1, M_TIMES] = t
    return n


@njit(cache=True, inline="always")
def rest_and_claims(r, tb, s, out, n):
    """Write seat ``s``'s legal rest and claims into ``out`` from ``n``, a pass if none was legal; the new count."""
    if can_rest(r, tb, s):
        n = emit(out, n, REST, 0)
    for p in range(r.p_row.shape[0]):
        if can_claim(r, tb, s, p):
            n = emit(out, n, CLAIM, p)
    if n == 0:
        n = emit(out, n, PASS, 0)
    return n


@njit(cache=True)
def emit(out, n, kind, arg):
    """Write a cleared move of ``kind`` and ``arg`` at ``out[n]``; the new count (at most ``MAX_MOVES``)."""
    if n >= MAX_MOVES:
        raise ValueError("more legal moves than MAX_MOVES")
    for f in range(out.shape[1]):
        out[n, f] = 0
    for f in range(M_PAY, M_DISCARD):
        out[n, f] = -1
    out[n, M_KIND] = kind
    out[n, M_ARG] = arg
    return n + 1


@njit(cache=True, inline="always")
def is_legal_action(r, tb, mv):
    """The action part of ``mv`` (all but the discard) is legal for the player to move."""
    s = r.current
    kind = mv[M_KIND]
    if kind == PLAY:
        m = mv[M_ARG]
        if m < 0 or m >= tb.params[P_NUM_MERCHANT] or r.cards[s, m] != IN_HAND:
            return False
        if tb.m_kind[m] == KIND_UPGRADE:
            sy = mv[M_STEPS]
            sg = mv[M_STEPS + 1]
            stq = mv[M_STEPS + 2]
            if sy < 0 or sg < 0 or stq < 0 or sy + sg + stq < 1 or sy + sg + stq > tb.m_up[m]:
                return False
            return sy <= r.crystals[s, 0] and sg <= r.crystals[s, 1] + sy and stq <= r.crystals[s, 2] + sg
        if tb.m_kind[m] == KIND_TRADE:
            t = mv[M_TIMES]
            tmax = trade_max_times(tb, m, r.crystals[s, 0], r.crystals[s, 1], r.crystals[s, 2], r.crystals[s, 3])
            return 1 <= t <= tmax
        return True
    if kind == ACQUIRE:
        p = mv[M_ARG]
        if p < 0 or p >= r.m_row.shape[0] or r.m_row[p] < 0:
            return False
        for c in range(4):
            need = 0
            for k in range(p):
                col = mv[M_PAY + k]
                if col < 0 or col > 3:
                    return False
                if col == c:
                    need += 1
            if need > r.crystals[s, c]:
                return False
        return True
    if kind == REST:
        return can_rest(r, tb, s)
    if kind == CLAIM:
        p = mv[M_ARG]
        return 0 <= p < r.p_row.shape[0] and can_claim(r, tb, s, p)
    if kind == PASS:
        return _no_other_move(r, tb, s)
    return False


@njit(cache=True)
def _no_other_move(r, tb, s):
    for k in range(r.num_owned[s]):
        m = r.owned[s, k]
        if r.cards[s, m] == IN_HAND:
            kind = tb.m_kind[m]
            if kind == KIND_CREATE:
                return False
            upgradable = r.crystals[s, 0] + r.crystals[s, 1] + r.crystals[s, 2]
            if kind == KIND_UPGRADE and upgradable > 0:
                return False
            if (
                kind == KIND_TRADE
                and trade_max_times(tb, m, r.crystals[s, 0], r.crystals[s, 1], r.crystals[s, 2], r.crystals[s, 3]) > 0
            ):
                return False
    if r.m_row[0] >= 0:
        return False
    if can_rest(r, tb, s):
        return False
    for p in range(r.p_row.shape[0]):
        if can_claim(r, tb, s, p):
            return False
    return True


@njit(cache=True, inline="always")
def apply_action(r, tb, mv):
    """Apply the action part of a legal move for the player to move (not the discard, not the turn end)."""
    s = r.current
    kind = mv[M_KIND]
    if kind == PLAY:
        m = mv[M_ARG]
        mk = tb.m_kind[m]
        if mk == KIND_CREATE:
            for c in range(4):
                r.crystals[s, c] += tb.m_out[m, c]
        elif mk == KIND_UPGRADE:
            sy = mv[M_STEPS]
            sg = mv[M_STEPS + 1]
            stq = mv[M_STEPS + 2]
            r.crystals[s, 0] -= sy
            r.crystals[s, 1] += sy - sg
            r.crystals[s, 2] += sg - stq
            r.crystals[s, 3] += stq
        else:
            t = mv[M_TIMES]
            for c in range(4):
                r.crystals[s, c] += t * (tb.m_out[m, c] - tb.m_in[m, c])
        r.cards[s, m] = PLAYED
    elif kind == ACQUIRE:
        p = mv[M_ARG]
        for k in range(p):
            col = mv[M_PAY + k]
            r.crystals[s, col] -= 1
            r.m_row_crystals[k, col] += 1
        m = r.m_row[p]
        r.cards[s, m] = IN_HAND
        _add_owned(r, s, m)
        r.m_turn[m] = r.turn
        for c in range(4):
            r.crystals[s, c] += r.m_row_crystals[p, c]
        size = tb.params[P_MERCHANT_ROW]
        for k in range(p, size - 1):
            r.m_row[k] = r.m_row[k + 1]
            for c in range(4):
                r.m_row_crystals[k, c] = r.m_row_crystals[k + 1, c]
        for c in range(4):
            r.m_row_crystals[size - 1, c] = 0
        if r.m_deck_pos < tb.params[P_NUM_MARKET]:
            r.m_row[size - 1] = r.m_deck[r.m_deck_pos]
            r.m_deck_pos += 1
        else:
            r.m_row[size - 1] = -1
    elif kind == REST:
        for k in range(r.num_owned[s]):
            m = r.owned[s, k]
            if r.cards[s, m] == PLAYED:
                r.cards[s, m] = IN_HAND
    elif kind == CLAIM:
        p = mv[M_ARG]
        pc = r.p_row[p]
        for c in range(4):
            r.crystals[s, c] -= tb.p_cost[pc, c]
        r.num_points[s] += 1
        r.point_vp[s] += tb.p_vp[pc]
        r.p_owner[pc] = s
        r.p_turn[pc] = r.turn
        if p == 0:
            if r.copper_left > 0:
                r.copper_left -= 1
                r.copper[s] += 1
            elif r.silver_left > 0:
                r.silver_left -= 1
                r.silver[s] += 1
        elif p == 1 and r.copper_left > 0 and r.silver_left > 0:
            r.silver_left -= 1
            r.silver[s] += 1
        size = tb.params[P_POINT_ROW]
        for k in range(p, size - 1):
            r.p_row[k] = r.p_row[k + 1]
        if r.p_deck_pos < tb.params[P_NUM_POINT]:
            r.p_row[size - 1] = r.p_deck[r.p_deck_pos]
            r.p_deck_pos += 1
        else:
            r.p_row[size - 1] = -1


@njit(cache=True, inline="always")
def excess(r, tb):
    """Crystals of the player to move above the caravan limit (0 if none)."""
    s = r.current
    total = r.crystals[s, 0] + r.crystals[s, 1] + r.crystals[s, 2] + r.crystals[s, 3]
    return max(0, total - tb.params[P_CARAVAN_LIMIT])


@njit(cache=True, inline="always")
def is_legal_discard(r, tb, mv):
    """The discard fields of ``mv`` return exactly the excess, from crystals held (after the action)."""
    s = r.current
    total = 0
    for c in range(4):
        d = mv[M_DISCARD + c]
        if d < 0 or d > r.crystals[s, c]:
            return False
        total += d
    return total == excess(r, tb)


@njit(cache=True, inline="always")
def apply_discard(r, mv):
    """Return the crystals named in the discard fields of ``mv``."""
    s = r.current
    for c in range(4):
        r.crystals[s, c] -= mv[M_DISCARD + c]


@njit(cache=True, inline="always")
def end_turn(r, tb, claimed):
    """Close the turn: end trigger, next seat, and the end of the game at a round's end."""
    s = r.current
    n = r.num_players
    if claimed and r.num_points[s] >= tb.end_trigger[n]:
        r.triggered = 1
    r.turn += 1
    s += 1
    if s == n:
        s = 0
    r.current = s
    if s == 0:
        if r.triggered:
            r.over = END_TRIGGER
        elif r.turn // n >= tb.params[P_MAX_ROUNDS]:
            r.over = END_TURN_CAP


@njit(cache=True)
def score_parts(r, tb, s, out):
    """Write seat ``s``'s score parts (point VP, copper, silver, crystals) into ``out[0:4]``."""
    out[0] = r.point_vp[s]
    out[1] = r.copper[s] * tb.params[P_COPPER_VP]
    out[2] = r.silver[s] * tb.params[P_SILVER_VP]
    crystal = 0
    for c in range(4):
        crystal += r.crystals[s, c] * tb.crystal_vp[c]
    out[3] = crystal


@njit(cache=True)
def rank_seats(scores, n, shared, rank, win):
    """Ranks (1 = best) and wins of ``n`` seats; ties go to the later seat unless ``shared``."""
    best = scores[0]
    for s in range(1, n):
        if scores[s] > best:
            best = scores[s]
    top = 0
    for s in range(n):
        if scores[s] == best:
            top += 1
    for s in range(n):
        r = 1
        for o in range(n):
            if scores[o] > scores[s] or (not shared and scores[o] == scores[s] and o > s):
                r += 1
        rank[s] = r
        if scores[s] == best:
            win[s] = 1.0 / top if shared else (1.0 if r == 1 else 0.0)
        else:
            win[s] = 0.0
    return top > 1


# Entry points for Python callers (tests, replays): one game ``g`` of a batch ``st``, tables ``tab``.


@njit(cache=True)
def game_init(st, tab, g, num_players, setup_seed, play_seed):
    """Set up game ``g`` of batch ``st``."""
    init_game(st[g], tab[0], num_players, setup_seed, play_seed)


@njit(cache=True)
def game_legal_moves(st, tab, g, out):
    """Canonical legal moves of game ``g`` into ``out``; returns their count."""
    return legal_moves(st[g], tab[0], out)


@njit(cache=True)
def game_step(st, tab, g, mv):
    """Apply a whole move to game ``g``: 0 done, 1 illegal action (nothing changed), 2 illegal discard.

    After an illegal discard the action has been applied: the record is for inspection only.
    """
    r = st[g]
    tb = tab[0]
    if not is_legal_action(r, tb, mv):
        return 1
    apply_action(r, tb, mv)
    if not is_legal_discard(r, tb, mv):
        return 2
    apply_discard(r, mv)
    end_turn(r, tb, mv[M_KIND] == CLAIM)
    return 0
