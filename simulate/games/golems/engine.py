"""Golems rules as numba functions over the record ``r`` of one game of a batch.

The engine knows rules only: setup, legal moves, applying a move, the end of a turn (refills,
the end trigger, the solo automaton) and scoring. Bots choose moves (``bots.py``); the batch
loop lives in ``play.py``. The rules page is ``docs/golems.md``; the plain-Python twin is
``reference.py``.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from numba import njit

from simulate.games.golems.data import *
from simulate.games.golems.state import *
from simulate.rng import draw_front, opening_seed, order_seed, shuffle, shuffle_range

MAX_PLAYERS = 2


# ---------------------------------------------------------------------------------------- setup


@njit(cache=True)
def init_game(r, tb, num_players, setup_seed, play_seed):
    """Set up record ``r`` for ``num_players`` (1 = solo) from its setup seed; bots draw from the play seed."""
    pm = tb.params
    r.num_players = num_players
    r.current = 0
    r.turn = 0
    r.over = RUNNING
    r.triggered = 0
    r.idle = 0
    if num_players == 1:
        r.rows = pm[P_SOLO_ROWS]
        r.row_size = pm[P_SOLO_ROW_SIZE]
    else:
        r.rows = pm[P_ROWS]
        r.row_size = pm[P_ROW_SIZE]
    for c in range(r.owner.shape[0]):  # the whole capacity: the slots past the deck stay empty
        r.deck[c] = 0
        r.owner[c] = -1
        r.taken_turn[c] = -1
        r.use[c] = -1
    # 1. starting Runes: shuffled (opening stream), dealt in seat order, the rest out of play or into the deck
    r.rng[0] = opening_seed(setup_seed)
    ns = pm[P_NUM_START]
    per = pm[P_START_PER_PLAYER]
    for k in range(ns):
        r.deck[k] = tb.start_cards[k]
    shuffle(r.rng, 0, r.deck, ns)
    for s in range(MAX_PLAYERS):
        for j in range(r.start_runes.shape[1]):
            r.start_runes[s, j] = -1
    dealt = 0
    for s in range(num_players):
        for j in range(per):
            c = r.deck[dealt]
            r.start_runes[s, j] = c
            r.owner[c] = s
            r.use[c] = U_START
            dealt += 1
    n = 0
    if pm[P_SPARE_TO_DECK]:
        for k in range(dealt, ns):
            r.deck[n] = r.deck[k]
            n += 1
    # 2. the main deck (after any spare starting Runes) in file order, shuffled: the opening display drawn from the
    # opening stream, the rest from the order stream, then the removed cards put first
    for k in range(pm[P_NUM_MAIN]):
        r.deck[n] = tb.main_cards[k]
        n += 1
    r.deck_len = n
    removed = min(pm[P_REMOVED], n)
    shown = min(r.rows * r.row_size, n - removed)
    draw_front(r.rng, 0, r.deck, n, shown)
    r.rng[0] = order_seed(setup_seed)
    shuffle_range(r.rng, 0, r.deck, shown, n)
    display = r.deck[:shown].copy()  # two small copies once a game, at setup
    unseen = r.deck[shown : shown + removed].copy()
    r.deck[:removed] = unseen
    r.deck[removed : removed + shown] = display
    # 3. remove cards unseen; 4. deal the display row by row
    r.removed = pm[P_REMOVED]
    r.deck_pos = r.removed
    for row in range(r.slot.shape[0]):
        r.row_count[row] = 0
        for p in range(r.slot.shape[1]):
            r.slot[row, p] = -1
            r.slot_gems[row, p] = 0
    for row in range(r.rows):
        _deal_row(r, row)
    # 5. gems
    r.supply = pm[P_GEM_TOKENS] - num_players * pm[P_STARTING_GEMS]
    for s in range(MAX_PLAYERS):
        r.gems[s] = pm[P_STARTING_GEMS] if s < num_players else 0
        for t in range(MAX_TYPES):
            r.col[s, t] = 0
            r.wild[s, t] = 0
        r.golems[s] = 0
        r.tucked[s] = 0
        r.dust[s] = 0
        r.dust_cards[s] = 0
        r.gem_vp[s] = 0
        r.rune_vp[s] = 0
        r.gem_cards[s] = 0
        r.rune_cards[s] = 0
        r.gems_taken[s] = 0
        r.gems_gained[s] = 0
        r.gems_reward[s] = 0
        r.gems_stolen[s] = 0
        r.gems_paid[s] = 0
        r.gems_reserve[s] = 0
        r.gem_turns[s] = 0
        r.passes[s] = 0
        for u in range(NUM_USES):
            r.uses[s, u] = 0
        for j in range(per if s < num_players else 0):
            c = r.start_runes[s, j]
            r.rune_vp[s] += tb.c_vp[c]
            r.rune_cards[s] += 1
    r.picks = 0
    r.pick_target = min(pm[P_SOLO_PICKS], r.rows * r.row_size)
    r.grids = 1
    r.automa_vp = 0
    r.automa_golems = 0
    r.automa_cards = 0
    r.automa_gems = 0
    r.rng[0] = play_seed


@njit(cache=True)
def deal_gift(r, tb, seat_bot):
    """Rule option ``gift``: the seat of lineup entry 0 (``seat_bot``: lineup entry per seat) takes the gift copy
    after setup, as the rules allow before any turn (RULINGS.md, G1): a Golem starts its resource column, a Rune
    goes to the hand, a Gem card goes to the hand with its Reward's gems from the supply; nothing without a gift."""
    c = tb.params[P_GIFT]
    if c < 0:
        return
    for s in range(r.num_players):
        if seat_bot[s] == 0:
            r.owner[c] = s
            r.use[c] = U_START
            kind = tb.c_type[c]
            if kind == GOLEM:
                r.col[s, tb.c_res[c]] += 1
            elif kind == RUNE:
                r.rune_vp[s] += tb.c_vp[c]
                r.rune_cards[s] += 1
            else:
                a = min(tb.c_reward[c], r.supply)
                r.supply -= a
                r.gems[s] += a
                r.gem_vp[s] += tb.c_vp[c]
                r.gem_cards[s] += 1
            return


@njit(cache=True)
def _deal_row(r, row):
    """Deal up to row_size cards from the deck into empty ``row``; returns the cards dealt."""
    k = 0
    while k < r.row_size and r.deck_pos < r.deck_len:
        r.slot[row, k] = r.deck[r.deck_pos]
        r.slot_gems[row, k] = 0
        r.deck_pos += 1
        k += 1
    r.row_count[row] = k
    return k


# ------------------------------------------------------------------------------- rule helpers


@njit(cache=True)
def can_take_gems(r, tb, s):
    """The gem action is allowed: at most take_gems_max_held gems held (and supply, if the rule says)."""
    pm = tb.params
    if r.gems[s] > pm[P_TAKE_MAX_HELD]:
        return False
    if pm[P_TAKE_SHORT_FORBIDDEN] and r.supply < pm[P_TAKE_GEMS]:
        return False
    return True


@njit(cache=True)
def row_pay(r, row):
    """Gems the taker puts on the other cards of ``row`` (one on each when it holds 3 or more cards)."""
    k = r.row_count[row]
    return k - 1 if k >= 3 else 0


@njit(cache=True, inline="always")
def takeable(r, s, row, pos):
    """The card at (row, pos) if seat ``s`` may take it (its row holds cards and ``s`` can pay ``row_pay``), else -1
    (an empty position too)."""
    if r.row_count[row] == 0 or r.gems[s] < row_pay(r, row):
        return -1
    return r.slot[row, pos]


@njit(cache=True)
def card_gain(r, row, pos):
    """Gems the taker receives with the card at (row, pos): the gems on it, unless two cards are left."""
    return 0 if r.row_count[row] == 2 else r.slot_gems[row, pos]


@njit(cache=True)
def can_summon(r, tb, s, card):
    """Seat ``s``'s columns meet Golem ``card``'s requirement (resources are not spent)."""
    for t in range(tb.params[P_NUM_TYPES]):
        if r.col[s, t] < tb.c_req[card, t]:
            return False
    return True


@njit(cache=True)
def tuckable(r, tb, s, card, t):
    """Most cards of column ``t`` that may be tucked under Golem ``card`` (before the total limit)."""
    pm = tb.params
    n = r.col[s, t]
    if pm[P_WILD_TUCK] == 0:
        n -= r.wild[s, t]
    mode = pm[P_TUCK_LIMIT]
    if mode == TUCK_REQUIREMENT:
        return min(n, tb.c_req[card, t])
    if mode == TUCK_ANY:
        return n
    return n if tb.c_req[card, t] > 0 else 0


@njit(cache=True)
def reserve_ok(r, tb, s, gems_after):
    """Reserve is allowed with ``gems_after`` gems after paying for the card."""
    pm = tb.params
    held = r.gems[s] if pm[P_RESERVE_BEFORE] else gems_after
    return held >= pm[P_RESERVE_MIN] and gems_after >= pm[P_RESERVE_COST]


@njit(cache=True)
def rune_resource_ok(r, tb, s, card, column):
    """A Rune can join column ``column``: one of its type (or any for a wild Rune) that already exists."""
    if column < 0 or column >= tb.params[P_NUM_TYPES]:
        return False
    if tb.c_wild[card] == 0 and column != tb.c_res[card]:
        return False
    return r.col[s, column] > 0


@njit(cache=True)
def rune_any_use(r, tb, s, card, gems_after):
    """Some ability of Rune ``card`` can resolve (a column to join, or Reserve)."""
    if reserve_ok(r, tb, s, gems_after):
        return True
    if tb.c_wild[card]:
        for t in range(tb.params[P_NUM_TYPES]):
            if r.col[s, t] > 0:
                return True
        return False
    return r.col[s, tb.c_res[card]] > 0


@njit(cache=True)
def dust_score(tb, d):
    """Points for ``d`` dust: the dust table, 0 beyond its end."""
    if d < tb.params[P_DUST_LEN]:
        return tb.dust_vp[d]
    return 0


# -------------------------------------------------------------------------------- legal moves


@njit(cache=True)
def legal_moves(r, tb, out):
    """Write the canonical legal moves of the player to move into ``out``; return their count.

    Card moves in display order (row, position), each card's abilities in ``RESOURCE`` ..
    ``DISCARD`` order (a wild Rune once per column, a summon once per tuck vector), then the gem
    action; ``PASS`` only when nothing else is legal.
    """
    return moves_by_card(r, tb, out, True)


@njit(cache=True)
def moves_by_card(r, tb, out, every_tuck):
    """:func:`legal_moves`, or without ``every_tuck`` each summon once with no tucks (the caller picks them)."""
    s = r.current
    k_types = tb.params[P_NUM_TYPES]
    n = 0
    for row in range(r.rows):
        for pos in range(r.row_size):
            c = takeable(r, s, row, pos)
            if c < 0:
                continue
            after = r.gems[s] - row_pay(r, row) + card_gain(r, row, pos)
            kind = tb.c_type[c]
            if kind == GOLEM:
                n = _emit(out, n, TAKE_CARD, row, pos, RESOURCE, tb.c_res[c])
                if can_summon(r, tb, s, c):
                    if every_tuck:
                        n = _emit_tucks(r, tb, s, c, out, n, row, pos)
                    else:
                        n = _emit(out, n, TAKE_CARD, row, pos, SUMMON, -1)
            elif kind == RUNE:
                if tb.c_wild[c]:
                    for t in range(k_types):
                        if r.col[s, t] > 0:
                            n = _emit(out, n, TAKE_CARD, row, pos, RESOURCE, t)
                elif r.col[s, tb.c_res[c]] > 0:
                    n = _emit(out, n, TAKE_CARD, row, pos, RESOURCE, tb.c_res[c])
                if reserve_ok(r, tb, s, after):
                    n = _emit(out, n, TAKE_CARD, row, pos, RESERVE, -1)
                if tb.params[P_RUNE_DISCARD] and not rune_any_use(r, tb, s, c, after):
                    n = _emit(out, n, TAKE_CARD, row, pos, DISCARD, -1)
            else:
                n = _emit(out, n, TAKE_CARD, row, pos, REWARD, -1)
                n = _emit(out, n, TAKE_CARD, row, pos, DUST, -1)
    if can_take_gems(r, tb, s):
        n = _emit(out, n, TAKE_GEMS, 0, 0, 0, -1)
    if n == 0:
        n = _emit(out, n, PASS, 0, 0, 0, -1)
    return n


@njit(cache=True)
def _emit(out, n, kind, row, pos, ability, column):
    if n >= out.shape[0]:
        raise ValueError("more legal moves than the move buffer holds")
    for f in range(out.shape[1]):
        out[n, f] = 0
    out[n, M_KIND] = kind
    out[n, M_ROW] = row
    out[n, M_POS] = pos
    out[n, M_ABILITY] = ability
    out[n, M_COLUMN] = column
    return n + 1


@njit(cache=True)
def _emit_tucks(r, tb, s, c, out, n, row, pos):
    """One SUMMON move per legal tuck vector (an odometer over the columns)."""
    k_types = tb.params[P_NUM_TYPES]
    limit = tb.params[P_TUCK_MAX]
    ub = [0] * MAX_TYPES
    for t in range(k_types):
        ub[t] = min(tuckable(r, tb, s, c, t), limit)
    vec = [0] * MAX_TYPES
    while True:
        total = 0
        for t in range(k_types):
            total += vec[t]
        if total <= limit:
            n = _emit(out, n, TAKE_CARD, row, pos, SUMMON, -1)
            for t in range(k_types):
                out[n - 1, M_TUCK + t] = vec[t]
        t = 0
        while t < k_types:
            if vec[t] < ub[t]:
                vec[t] += 1
                break
            vec[t] = 0
            t += 1
        if t == k_types:
            return n


@njit(cache=True)
def is_legal(r, tb, mv):
    """``mv`` is legal for the player to move."""
    s = r.current
    kind = mv[M_KIND]
    if kind == TAKE_GEMS:
        return can_take_gems(r, tb, s)
    if kind == PASS:
        return not _any_move(r, tb, s)
    if kind != TAKE_CARD:
        return False
    row = mv[M_ROW]
    pos = mv[M_POS]
    if row < 0 or row >= r.rows or pos < 0 or pos >= r.row_size:
        return False
    c = takeable(r, s, row, pos)
    if c < 0:
        return False
    after = r.gems[s] - row_pay(r, row) + card_gain(r, row, pos)
    ab = mv[M_ABILITY]
    ct = tb.c_type[c]
    if ct == GOLEM:
        if ab == RESOURCE:
            return mv[M_COLUMN] == tb.c_res[c]
        if ab == SUMMON:
            return can_summon(r, tb, s, c) and _tucks_ok(r, tb, s, c, mv)
        return False
    if ct == RUNE:
        if ab == RESOURCE:
            return rune_resource_ok(r, tb, s, c, mv[M_COLUMN])
        if ab == RESERVE:
            return reserve_ok(r, tb, s, after)
        if ab == DISCARD:
            return tb.params[P_RUNE_DISCARD] != 0 and not rune_any_use(r, tb, s, c, after)
        return False
    return ab == REWARD or ab == DUST


@njit(cache=True)
def _tucks_ok(r, tb, s, c, mv):
    k_types = tb.params[P_NUM_TYPES]
    total = 0
    for t in range(MAX_TYPES):
        x = mv[M_TUCK + t]
        if x < 0:
            return False
        if t >= k_types:
            if x != 0:
                return False
            continue
        if x > tuckable(r, tb, s, c, t):
            return False
        total += x
    return total <= tb.params[P_TUCK_MAX]


@njit(cache=True)
def _any_move(r, tb, s):
    """Some move other than PASS is legal for seat ``s``."""
    if can_take_gems(r, tb, s):
        return True
    for row in range(r.rows):
        for pos in range(r.row_size):
            c = takeable(r, s, row, pos)
            if c < 0:
                continue
            if tb.c_type[c] != RUNE or tb.params[P_RUNE_DISCARD]:
                return True
            if rune_any_use(r, tb, s, c, r.gems[s] - row_pay(r, row) + card_gain(r, row, pos)):
                return True
    return False


# ------------------------------------------------------------------------------------- moves


@njit(cache=True)
def apply_move(r, tb, mv):
    """Apply a legal move for the player to move (not the turn end)."""
    s = r.current
    kind = mv[M_KIND]
    pm = tb.params
    if kind == TAKE_GEMS:
        a = min(pm[P_TAKE_GEMS], r.supply)
        r.supply -= a
        r.gems[s] += a
        r.gems_taken[s] += a
        r.gem_turns[s] += 1
        return
    if kind == PASS:
        r.passes[s] += 1
        return
    row = mv[M_ROW]
    pos = mv[M_POS]
    c = r.slot[row, pos]
    k = r.row_count[row]
    on = r.slot_gems[row, pos]
    if k >= 3:
        for p in range(r.row_size):
            if p != pos and r.slot[row, p] >= 0:
                r.slot_gems[row, p] += 1
        r.gems[s] -= k - 1
        r.gems_paid[s] += k - 1
        r.gems[s] += on
        r.gems_gained[s] += on
    elif k == 2:
        for p in range(r.row_size):
            if p != pos and r.slot[row, p] >= 0:
                r.slot_gems[row, p] += on
    else:
        r.gems[s] += on
        r.gems_gained[s] += on
    r.slot_gems[row, pos] = 0
    r.slot[row, pos] = -1
    r.row_count[row] = k - 1
    r.owner[c] = s
    r.taken_turn[c] = r.turn
    ab = mv[M_ABILITY]
    ct = tb.c_type[c]
    if ab == RESOURCE:
        t = mv[M_COLUMN]
        r.col[s, t] += 1
        if tb.c_wild[c]:
            r.wild[s, t] += 1
        u = U_GOLEM_RESOURCE if ct == GOLEM else U_RUNE_RESOURCE
    elif ab == SUMMON:
        r.golems[s] += 1
        for t in range(pm[P_NUM_TYPES]):
            x = mv[M_TUCK + t]
            if x > 0:
                typed = r.col[s, t] - r.wild[s, t]
                from_wild = x - min(x, typed)
                r.col[s, t] -= x
                r.wild[s, t] -= from_wild
                r.tucked[s] += x
        u = U_SUMMON
    elif ab == RESERVE:
        cost = pm[P_RESERVE_COST]
        r.gems[s] -= cost
        r.supply += cost
        r.gems_reserve[s] += cost
        r.rune_vp[s] += tb.c_vp[c]
        r.rune_cards[s] += 1
        u = U_RESERVE
    elif ab == REWARD:
        x = tb.c_reward[c]
        a = min(x, r.supply)
        r.supply -= a
        b = 0
        if r.num_players == 2:
            o = 1 - s
            b = min(x - a, r.gems[o])
            r.gems[o] -= b
            r.gems_stolen[s] += b
        r.gems[s] += a + b
        r.gems_reward[s] += a + b
        r.gem_vp[s] += tb.c_vp[c]
        r.gem_cards[s] += 1
        u = U_REWARD
    elif ab == DUST:
        r.dust[s] += tb.c_dust[c]
        r.dust_cards[s] += 1
        u = U_DUST
    else:
        u = U_DISCARD
    r.use[c] = u
    r.uses[s, u] += 1


@njit(cache=True)
def end_turn(r, tb, kind):
    """Close a turn whose move was of ``kind``: refill empty rows (or trigger the end), the solo
    automaton, the next seat, the end of the game."""
    pm = tb.params
    r.idle = r.idle + 1 if kind == PASS else 0
    if r.num_players == 1:
        _end_solo_turn(r, tb, kind)
        return
    for row in range(r.rows):
        if r.row_count[row] == 0:
            left = r.deck_len - r.deck_pos
            if left >= r.row_size:
                _deal_row(r, row)
            elif left > 0 or r.triggered == 0:
                r.triggered = 1
                if pm[P_REFILL_EMPTY] == 0:
                    _deal_row(r, row)
    r.turn += 1
    s = r.current + 1
    if s == r.num_players:
        s = 0
    r.current = s
    if s == 0:
        if r.triggered:
            r.over = END_TRIGGER
        elif r.idle >= r.num_players:
            r.over = END_STALLED
        elif r.turn >= pm[P_MAX_TURNS]:
            r.over = END_TURN_CAP


@njit(cache=True)
def _end_solo_turn(r, tb, kind):
    pm = tb.params
    if kind == TAKE_CARD:
        r.picks += 1
    r.turn += 1
    if r.picks >= r.pick_target or kind == PASS:  # a player who cannot move ends the grid
        # the automaton receives every card left in the grid, with the gems on them
        for row in range(r.rows):
            for p in range(r.row_size):
                c = r.slot[row, p]
                if c < 0:
                    continue
                r.automa_cards += 1
                if tb.c_type[c] == GOLEM:
                    r.automa_golems += 1
                    r.automa_vp += pm[P_AUTOMA_GOLEM_VP]
                else:
                    r.automa_vp += tb.c_vp[c]
                g = r.slot_gems[row, p]
                r.automa_gems += g
                r.supply += g
                if pm[P_AUTOMA_GEMS_SCORE]:
                    r.automa_vp += g
                r.slot[row, p] = -1
                r.slot_gems[row, p] = 0
            r.row_count[row] = 0
        left = r.deck_len - r.deck_pos
        grid = r.rows * r.row_size
        if left >= grid or (left > 0 and pm[P_SOLO_PARTIAL]):
            dealt = 0
            for row in range(r.rows):
                dealt += _deal_row(r, row)
            r.picks = 0
            r.pick_target = min(pm[P_SOLO_PICKS], dealt)
            r.grids += 1
        else:
            r.triggered = 1
            r.over = END_TRIGGER
            return
    if r.turn >= pm[P_MAX_TURNS]:
        r.over = END_TURN_CAP


@njit(cache=True)
def step(r, tb, mv):
    """Apply a whole legal move: the move and the turn end."""
    apply_move(r, tb, mv)
    end_turn(r, tb, mv[M_KIND])


# ------------------------------------------------------------------------------------ scoring


@njit(cache=True)
def score_parts(r, tb, s, out):
    """Write seat ``s``'s score parts (golems, tucks, dust, hand gems, hand runes) into ``out[0:5]``."""
    out[0] = r.golems[s] * tb.params[P_GOLEM_VP]
    out[1] = r.tucked[s] * tb.params[P_TUCK_VP]
    out[2] = dust_score(tb, r.dust[s])
    out[3] = r.gem_vp[s]
    out[4] = r.rune_vp[s]


@njit(cache=True)
def score(r, tb, s):
    """Seat ``s``'s score."""
    return (
        r.golems[s] * tb.params[P_GOLEM_VP]
        + r.tucked[s] * tb.params[P_TUCK_VP]
        + dust_score(tb, r.dust[s])
        + r.gem_vp[s]
        + r.rune_vp[s]
    )


@njit(cache=True)
def rank_game(r, tb, scores, rank, win):
    """Ranks (1 = best) and wins of the seats; returns (tied, decided_by).

    Two players: higher score, then (``tie_break = rules``) more summoned Golems, then more tucked
    cards; players still equal share the win. Solo: the player against the automaton (its Golem
    cards count as summoned Golems, it tucks nothing); ``rank`` 2 and ``win`` 0 when it loses.
    ``decided_by``: 0 score, 1 Golems, 2 tucked cards, 3 shared.
    """
    shared_rule = tb.params[P_TIE_SHARED] != 0
    if r.num_players == 1:
        a0, a1, a2 = scores[0], r.golems[0], r.tucked[0]
        b0, b1, b2 = r.automa_vp, r.automa_golems, 0
    else:
        a0, a1, a2 = scores[0], r.golems[0], r.tucked[0]
        b0, b1, b2 = scores[1], r.golems[1], r.tucked[1]
    if shared_rule:
        a1 = 0
        b1 = 0
        a2 = 0
        b2 = 0
    if a0 != b0:
        cmp = 1 if a0 > b0 else -1
        by = 0
    elif a1 != b1:
        cmp = 1 if a1 > b1 else -1
        by = 1
    elif a2 != b2:
        cmp = 1 if a2 > b2 else -1
        by = 2
    else:
        cmp = 0
        by = 3
    tied = a0 == b0
    if cmp > 0:
        rank[0], win[0], rank[1], win[1] = 1, 1.0, 2, 0.0
    elif cmp < 0:
        rank[0], win[0], rank[1], win[1] = 2, 0.0, 1, 1.0
    else:
        rank[0], win[0], rank[1], win[1] = 1, 0.5, 1, 0.5
    return tied, by


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
    """Apply a whole move to game ``g``: 0 done, 1 illegal (nothing changed)."""
    r = st[g]
    tb = tab[0]
    if not is_legal(r, tb, mv):
        return 1
    step(r, tb, mv)
    return 0
