"""The round driver: phases, turn order and passing, the Synagogue, the solo Automa's turn (njit)."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from numba import njit

from simulate.games.golem.codes import *
from simulate.games.golem.data import *
from simulate.games.golem.engine.developments import deal_gift
from simulate.games.golem.engine.golems import _control, _income
from simulate.games.golem.engine.legality import _matches, has_legal
from simulate.games.golem.engine.resources import _take_start, has_gdev, track_level
from simulate.games.golem.engine.scoring import objectives_met
from simulate.games.golem.engine.stack import _auto, _bk_append, _bk_pop, _push
from simulate.rng import randint, shuffle


@njit(cache=True)
def _push_phase(r, tb):
    n = r.n
    ph = r.phase
    if ph == PH_DRAFT:
        _push(r, D_DRAFT, r.order[r.cursor], 0, 0, 0, 0, 0)
    elif ph == PH_KEEP:
        _push(r, D_KEEP, r.order[r.cursor], 0, 0, 0, 0, 0)
    elif ph == PH_ARTIFACT:
        _push(r, D_ARTIFACT_TILE, r.order[n - 1 - r.cursor], 0, 0, 0, 0, 0)
    elif ph == PH_START:
        s = r.order[r.cursor]
        kept = r.start_len[0] if tb.prm[P_INTRO] else tb.prm[P_START_KEPT]
        if r.start_len[s] <= kept:
            for k in range(r.start_len[s]):
                _take_start(r, tb, s, r.start_offer[s, k])
        else:
            _push(r, D_START_TILES, s, 0, 0, 0, 0, 0)
        if s == r.gift_seat and tb.prm[P_GIFT_KIND] != GIFT_NONE:
            deal_gift(r, tb, s)
    elif ph == PH_PLACE:
        _push(r, D_PLACE_GOLEMS, r.order[r.cursor], 0, 0, 0, 0, 0)
    elif ph == PH_MOVE:
        s = r.order[r.cursor]
        r.step_left = track_level(r, tb, s) + tb.ch_move[r.palace[r.round]]
        _auto(r, s, X_OVERMOVE, 0, 0, 0, 0)
        _push(r, D_MOVE_STEP, s, 0, 0, 0, 0, 0)
        if has_gdev(r, tb, s, E_IGNORE_CHARACTER_STEPS):
            _push(r, D_IGNORE_CHAR, s, 0, 0, 0, 0, 0)
    elif ph == PH_INFLUENCE:
        s = r.order[r.cursor]
        if _matches(r, tb, s):
            _push(r, D_CHARACTER, s, 0, 0, 0, 0, 0)
    elif ph == PH_DEV:
        _push(r, D_INCOME_UPGRADE, r.order[r.cursor], 0, 7, 0, 0, 0)


@njit(cache=True)
def _next_phase(r, tb):
    n = r.n
    ph = r.phase
    if ph == PH_ACTIONS:
        _next_turn(r, tb)
        return
    r.cursor += 1
    if ph == PH_DRAFT and r.cursor == n:
        r.cursor = 0
        r.pick += 1
        # hands pass to the next seat
        for s in range(n):
            src = (s - 1) % n
            r.tmp[s] = r.hand_len[src]
            for k in range(4):
                r.tmp[4 + 4 * s + k] = r.hands[src, k]
        for s in range(n):
            r.hand_len[s] = r.tmp[s]
            for k in range(4):
                r.hands[s, k] = r.tmp[4 + 4 * s + k]
        if r.pick == tb.prm[P_OBJECTIVES_DEALT]:
            r.phase = PH_KEEP
    elif r.cursor == n and (
        ph == PH_KEEP
        or ph == PH_ARTIFACT
        or ph == PH_START
        or ph == PH_PLACE
        or ph == PH_MOVE
        or ph == PH_INFLUENCE
        or ph == PH_DEV
    ):
        r.cursor = 0
        if ph == PH_PLACE:
            r.phase = PH_MOVE
        elif ph == PH_MOVE:
            _start_actions(r, tb)
            return
        elif ph == PH_INFLUENCE:
            _income(r, tb)
            r.phase = PH_DEV
        elif ph == PH_DEV:
            _control(r, tb)
            _end_round(r, tb)
            if r.phase == PH_END:
                return
        else:
            r.phase += 1
    _push_phase(r, tb)


@njit(cache=True)
def _start_actions(r, tb):
    r.phase = PH_ACTIONS
    r.pass_stage = 0
    r.cursor = -1
    _next_turn(r, tb)


@njit(cache=True)
def _stage_seat(r, k):
    """Seat ``k`` of the current stage's sequence (``AUTOMA`` for the solo Automa): turn order with the Automa
    at ``au_pos``, or Pass-tile order when passing."""
    if r.pass_stage == 0:
        if r.automa:
            if k == r.au_pos:
                return AUTOMA
            return r.order[k] if k < r.au_pos else r.order[k - 1]
        return r.order[k]
    for s in range(r.n):
        if r.pass_tile[s] == k + 1:
            return s
    return -1


@njit(cache=True)
def _stage_len(r):
    if r.pass_stage == 0:
        return r.n + r.automa
    m = 0
    for s in range(r.n):
        if r.pass_tile[s]:
            m += 1
    return m


@njit(cache=True)
def _acts_now(r, s):
    if s == AUTOMA:
        return r.au_actions < 3
    return r.actions[s] < 3 and r.passes[s] == r.pass_stage


@njit(cache=True)
def _next_actor(r):
    """(position in the turn sequence, seat or ``AUTOMA``) of the next to act after the cursor; position -1 if none."""
    m = _stage_len(r)
    for i in range(m):
        k = (r.cursor + 1 + i) % m
        s = _stage_seat(r, k)
        if _acts_now(r, s):
            return k, s
    return -1, 0


@njit(cache=True)
def _next_turn(r, tb):
    k, s = _next_actor(r)
    if k >= 0:
        r.cursor = k
        _begin_turn(r, tb, s)
        return
    if not _open_passing_stage(r, tb):
        _end_actions(r, tb)


@njit(cache=True)
def _open_passing_stage(r, tb):
    waiting = False
    for s in range(r.n):
        if r.actions[s] < 3 and r.passes[s] > r.pass_stage:
            waiting = True
    if not waiting or r.pass_stage == 2:
        return False
    r.pass_stage += 1
    r.cursor = -1
    holder = -1
    for s in range(r.n):
        if r.pass_tile[s] == 1:
            holder = s
    left = 0
    for row in range(5):
        for c in range(5):
            left += r.syn[row, c]
    if holder >= 0 and left > 0:
        _auto(r, holder, X_REDROP, 0, 0, 0, 0)
        _push(r, D_REMOVE_MARBLE, holder, 0, 0, 0, 0, 0)
    else:
        _redrop(r, tb)
    return True


@njit(cache=True)
def _begin_turn(r, tb, s):
    if s == AUTOMA:
        _automa_turn(r, tb)
        return
    if has_legal(r, tb, D_TURN, s, 0, 0, 0, 0, 0):
        _push(r, D_TURN, s, 0, 0, 0, 0, 0)
    else:
        r.act_count[s, ACT_FORFEIT] += 3 - r.actions[s]
        r.actions[s] = 3


@njit(cache=True)
def _end_actions(r, tb):
    k = 0
    for slot in range(5):
        for s in range(r.n):
            if r.rabbi_slot[s] == slot:
                r.order[k] = s
                k += 1
    for j in range(r.perm_len):
        r.order[k] = r.perm_queue[j]
        k += 1
    if r.automa:
        r.au_pos = 0
        for s in range(r.n):
            if r.rabbi_slot[s] >= 0 and r.rabbi_slot[s] < r.au_slot:
                r.au_pos += 1
    r.phase = PH_INFLUENCE
    r.cursor = 0
    _push_phase(r, tb)


@njit(cache=True)
def _end_round(r, tb):
    r.round += 1
    if r.round == NUM_ROUNDS:
        r.phase = PH_END
        r.sp = 0
        for s in range(r.n):
            vp, met, types = objectives_met(r, tb, s)
            r.stats[ST_OBJECTIVES_MET, s] = met
        return
    for s in range(r.n):
        r.eyes_len[s] = 0
        r.marble_actions[s] = 0
        r.rabbi_done[s] = 0
        r.actions[s] = 0
        r.pass_tile[s] = 0
        r.passes[s] = 0
        r.rabbi_slot[s] = -1
        r.free_control[s] = 0
    r.perm_len = 0
    r.au_actions = 0
    r.au_slot = -1
    r.au_eyes_len = 0
    _drop_all(r, tb)
    for k in range(5):
        if r.at_slots[k] >= 0:
            r.at_disc[r.at_disc_len] = r.at_slots[k]
            r.at_disc_len += 1
    _deal_action_tiles(r)
    if r.lib_len > 0:
        _bk_append(r, r.library[0])
        for k in range(r.lib_len - 1):
            r.library[k] = r.library[k + 1]
        r.library[r.lib_len - 1] = _bk_pop(r)
    r.phase = PH_MOVE
    r.cursor = 0


@njit(cache=True)
def _next_turn_waits(r, tb):
    """``_next_turn`` would stop at a player's Turn decision (not the Automa's turn, a forfeit or a phase end)."""
    k, s = _next_actor(r)
    return k >= 0 and s != AUTOMA and has_legal(r, tb, D_TURN, s, 0, 0, 0, 0, 0)


@njit(cache=True)
def settles(r, tb, top):
    """Whether ``advance``, run with the stack cut to its ``top`` lowest entries, would stop without changing a seat's
    resources, points, Students, developments, Books, Artifacts, Golems or the round: at a decision with a legal
    action (above End-of-action steps only), or with the stack empty at the next turn of the Actions phase or at the
    next player's Income upgrade. False where it might run on further (the caller then plays the action out)."""
    k = top
    while k > 0 and r.stack[k - 1, 0] == T_AUTO and r.stack[k - 1, 2] == X_END_ACTION:
        k -= 1  # it only clears the Golems' "created this action" marks
    if k > 0:
        j = k - 1
        kind = r.stack[j, 0]
        if k < top or kind == T_AUTO:
            return False
        return has_legal(
            r, tb, kind, r.stack[j, 1], r.stack[j, 2], r.stack[j, 3], r.stack[j, 4], r.stack[j, 5], r.stack[j, 6]
        )
    if r.phase == PH_ACTIONS:
        return _next_turn_waits(r, tb)
    return r.phase == PH_DEV and r.cursor + 1 < r.n  # the next player's Income upgrade (its skip is legal)


@njit(cache=True)
def _drop_one(r, tb, c):
    total = 0
    for row in range(5):
        total += tb.row_weights[row]
    x = randint(r.chance, 0, total)
    row = 0
    while x >= tb.row_weights[row]:
        x -= tb.row_weights[row]
        row += 1
    r.syn[row, c] += 1


@njit(cache=True)
def _drop_all(r, tb):
    for row in range(5):
        for c in range(5):
            r.syn[row, c] = 0
    for c in range(5):
        for _ in range(r.marbles[c]):
            _drop_one(r, tb, c)


@njit(cache=True)
def _redrop(r, tb):
    m = 0
    for row in range(5):
        for c in range(5):
            for _ in range(r.syn[row, c]):
                r.tmp[m] = c
                m += 1
            r.syn[row, c] = 0
    for k in range(m):
        _drop_one(r, tb, r.tmp[k])


@njit(cache=True)
def _deal_action_tiles(r):
    for k in range(5):
        r.at_slots[k] = -1
    for k in range(r.n + 1):
        if r.at_len == 0:
            for j in range(r.at_disc_len):
                r.at_q[j] = r.at_disc[j]
            r.at_head = 0
            r.at_len = r.at_disc_len
            r.at_disc_len = 0
            shuffle(r.chance, 0, r.at_q, r.at_len)
        r.at_slots[k] = r.at_q[r.at_head]
        r.at_head += 1
        r.at_len -= 1


@njit(cache=True)
def _automa_turn(r, tb):
    """One action of the solo Automa, as its card for the round says."""
    card = r.au_deck[r.round]
    r.au_actions += 1
    if r.au_actions == tb.au_rabbi_turn[card]:
        first = -1
        last = -1
        for k in range(5):
            if r.at_slots[k] < 0:
                continue
            taken = False
            for s in range(r.n):
                if r.rabbi_slot[s] == k:
                    taken = True
            if not taken:
                if first < 0:
                    first = k
                last = k
        if first < 0:
            r.au_slot = PERM_SLOT
        else:
            r.au_slot = first if tb.au_rabbi_top[card] else last
        _automa_gauge(r, tb, tb.prm[P_AUTOMA_RABBI_GAUGE])
        return
    row = -1
    value = 0
    for k in range(5):
        rw = tb.au_rows[card, k]
        v = 0
        for c in range(5):
            v += r.syn[rw, c]
        if v > value:
            row = rw
            value = v
    if row < 0:
        return
    colour = 0
    for k in range(5):
        if r.syn[row, tb.au_colours[card, k]] > 0:
            colour = tb.au_colours[card, k]
            break
    r.syn[row, colour] -= 1
    r.au_eyes[r.au_eyes_len] = colour
    r.au_eyes_len += 1
    bonus = tb.au_bonus[r.au_strategy] if row == tb.au_focus[r.au_strategy] else 0
    _automa_gauge(r, tb, value + bonus)


@njit(cache=True)
def _automa_gauge(r, tb, steps):
    """The Automa's Resource marker moves up ``steps``; each threshold reached scores both its tiles."""
    last = tb.au_thresholds.shape[0]
    for _ in range(steps):
        r.au_gauge += 1
        k = r.au_next
        if r.au_gauge < tb.au_thresholds[k]:
            continue
        r.au_vp[0] += tb.au_vp[0, k]
        r.au_vp[1] += tb.au_vp[1 + r.au_strategy, k]
        r.au_next = k + 1
        if r.au_next == last:
            r.au_next = 0
            r.au_gauge = 0
            r.au_laps += 1
