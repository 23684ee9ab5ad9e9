"""Golem options valued without playing them (``direct_value``).

Where the played position differs from the current one only by a few known fields, the option is valued on the
record itself, which gets its fields back: a marble of the Turn decision (``marble_value``), a development
upgrade (``upgrade_value``, ``last_income_value``, ``effect_upgrade_value``), a Move or Golem step
(``step_value``, ``golem_step_value``), a Rabbi or a pass (``rabbi_value``, ``pass_value``), a Book bought
(``book_value``), a Golem created (``create_value``), a row action (``row_value``), and the option that resolves
nothing (``engine.legality.NOOP``, ``engine.rounds.settles``). Each gives the same number the played position gets
(tested), so the bots' decisions are those of playing every option (tested too).
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem.codes import *
from simulate.games.golem.data import *
from simulate.games.golem.data import ARTIFACTS as ARTIFACTS_ROW
from simulate.games.golem.engine.developments import activate_artifact
from simulate.games.golem.engine.golems import control_seat, free_golem, stand_golem, step_golem
from simulate.games.golem.engine.legality import NOOP, art_need, book_price, create_cost, has_legal, upgrade_cost
from simulate.games.golem.engine.resources import has_gdev, move_student, reactivates_effect, study_up, track_level
from simulate.games.golem.engine.rounds import settles
from simulate.games.golem.valuation import restore_fields, save_fields, value

PLAY, VALUED, CURRENT = range(3)  # how an option is valued (``direct_value``)
GO_ON, STOP, UNKNOWN = range(3)  # where an effect applied without play leaves the engine (``effect_now``)
# Effects that put a decision with an always legal action on the stack and change nothing ``value`` reads before it.
PUSHES = np.zeros(256, np.bool_)
for _e in (
    E_CHOICE, E_TRADE, E_PAY_FOR_VP, E_PAY_FOR_GOLD, E_PAY_FOR_STUDENTS, E_PAY_FOR_STUDY, E_PAY_FOR_VP_STUDY,
    E_STUDENT_BACK, E_STUDY_DOWN_VP_STUDENT, E_GOLEM_TRACK, E_KILL_GOLEM, E_UPGRADE, E_CREATE_GOLEM,
    E_KILL_VP_PER_LEVEL, E_UPGRADE_GOLEM, E_CREATE_GOLEM_VP_PER_LEVEL, E_UPGRADE_ARTIFACT, E_KILL_GAIN,
    E_ACTIVATE_ARTIFACT, E_BUY_BOOK, E_UPGRADE_STUDY, E_BOOK_BONUSES, E_TRACK_VP_KNOWLEDGE, E_BUY_BOOK_FREE_CARD,
    E_KILL_VP_CLAY_PER_CEMETERY, E_UPGRADE_ANY_RESOURCES, E_MOVE_ACTIVATE_FREE_CONTROL, E_MOVE_TWO_ACTIVATE,
    E_COPY_TILE, E_STUDENT_VP_LEFTMOST, E_ANY_MARBLE_ACTION, E_GOLEM_STEP_ACTIVATE, E_KILL_VP_PER_CEMETERY,
    E_CREATE_GOLEM_RED_STUDENT,
):  # fmt: skip
    PUSHES[_e] = True
# the resource a marble row gives before its decision (``engine.effects._row_action``); -1 for Work and Mirror
ROW_RESOURCE = np.full(5, -1, np.int64)
ROW_RESOURCE[GOLEM_ROW] = CLAY
ROW_RESOURCE[ARTIFACTS_ROW] = COIN
ROW_RESOURCE[STUDY_ROW] = KNOWLEDGE


@njit(cache=True)
def marble_value(r, tb, s, w, a):
    """``value`` after Turn option ``a`` (a marble that reactivates no Artifact) without playing it.

    ``engine.decisions._turn`` and ``advance`` stop at the row's own decision (it always has a legal "done") or at
    the black marble's district choice, so the position differs from ``r`` only by the Student step of
    the marble's colour (and the Menorah token it may claim) and the resource the row gives; ``r``
    takes those changes for the valuation and gets them back.
    """
    row = a // 5
    colour = a % 5
    if colour == BLACK:
        return value(r, tb, s, w)
    res = ROW_RESOURCE[row]
    gain = 0
    if res >= 0:
        for c in range(5):
            gain += r.syn[row, c]
        r.res[s, res] += gain
    moved = colour < 3 and r.student[s, colour] < NUM_SECTIONS
    token = False
    if moved:
        r.student[s, colour] += 1
        token = r.student[s, colour] == tb.prm[P_MENORAH_SECTION] and r.tokens[colour] < 0
        if token:
            r.tokens[colour] = s
    v = value(r, tb, s, w)
    if res >= 0:
        r.res[s, res] -= gain
    if moved:
        r.student[s, colour] -= 1
        if token:
            r.tokens[colour] = -1
    return v


@njit(cache=True)
def direct_value(r, tb, s, w, kind, a, upgrades):
    """(status, value) of option ``a`` of decision ``kind`` for the options valued without play: ``VALUED`` and the
    value, ``CURRENT`` when the played position is valued as the current one, ``PLAY`` (play it on a copy).

    Valued without play: an upgrade among the first ``upgrades`` options (``upgrade_options``), the last player's
    Income upgrades, a Move step that is not the last, a Rabbi or a pass of the Turn decision, a Book bought by a
    Study action or a Book decision, and the option that resolves nothing (``engine.legality.NOOP``)."""
    if a < upgrades:
        if kind == D_GOLEM_ACTION:
            return VALUED, upgrade_value(r, tb, s, w, a, 0, 0)
        if kind == D_STUDY_ACTION:
            return VALUED, upgrade_value(r, tb, s, w, UP_STUDY + a, 0, 0)
        if kind == D_ARTIFACT_ACTION:
            return VALUED, upgrade_value(r, tb, s, w, UP_ART + a, 0, 0)
        return VALUED, upgrade_value(r, tb, s, w, a, r.stack[r.sp - 1, 4], r.stack[r.sp - 1, 5])
    if kind == D_MOVE_STEP and r.sp == 2:
        return step_value(r, tb, s, w, a)
    if kind == D_TURN:
        if a == PASS_ACTION:
            return pass_value(r, tb, s)
        return rabbi_value(r, tb, s, w, a - RABBI_BASE)
    if kind == D_INCOME_UPGRADE and r.phase == PH_DEV and r.sp == 1 and r.cursor + 1 == r.n:
        return last_income_value(r, tb, s, w, a)
    if kind == D_DRAFT:
        return draft_value(r, tb, s)
    if kind == D_KILL and a < KILL_SKIP:  # the Cemetery space is chosen next: nothing has changed yet
        ok = has_legal(r, tb, D_CEMETERY_SPACE, s, 0, a, 0, 0, 0)
        return (CURRENT if ok else PLAY), 0.0
    if kind == D_GOLEM_STEP and a < STEP_STOP:
        return golem_step_value(r, tb, s, w, a, r.stack[r.sp - 1, 4])
    if kind == D_GOLEM_ACTION and GA_CREATE <= a < GA_DONE:
        return create_value(r, tb, s, w, a - GA_CREATE, 0, -1)
    if kind == D_CREATE and a < CREATE_SKIP:
        return create_value(r, tb, s, w, a, r.stack[r.sp - 1, 3], r.sp - 1)
    if kind == D_ARTIFACT_ACTION and a == AA_BUY_GOLD:
        return gold_buy_value(r, tb, s, w)
    if kind == D_UPGRADE and a < UPGRADE_SKIP:
        return effect_upgrade_value(r, tb, s, w, a, r.stack[r.sp - 1, 4], r.stack[r.sp - 1, 5])
    if kind == D_ANY_ACTION:
        return VALUED, row_value(r, tb, s, w, a, r.stack[r.sp - 1, 3], 0, 0)
    if kind == D_MIRROR and a < NUM_ROW_OPTIONS:
        return VALUED, row_value(r, tb, s, w, a, r.stack[r.sp - 1, 3], tb.prm[P_MIRROR_COST], 0)
    if kind == D_MIRROR and a == MIRROR_STUDY:
        return VALUED, row_value(r, tb, s, w, -1, 0, tb.prm[P_MIRROR_STUDY_COST], 1)
    if kind == D_STUDY_ACTION and STUDY_BUY <= a < STUDY_DONE:
        return book_value(r, tb, s, w, (a - STUDY_BUY) // 4, (a - STUDY_BUY) % 4, 0, 0, -1)
    if kind == D_BOOK and a < BOOK_SKIP:
        return book_value(r, tb, s, w, a // 4, a % 4, r.stack[r.sp - 1, 3], r.stack[r.sp - 1, 4], r.sp - 1)
    if a == NOOP[kind] and settles(r, tb, r.sp - 1):
        return CURRENT, 0.0
    return PLAY, 0.0


@njit(cache=True)
def effect_upgrade_value(r, tb, s, w, opt, discount, any_res):
    """(status, value) after upgrade ``opt`` of an Upgrade decision (an effect's, ``_upgrade``): valued when the
    upgrade pushes a decision (``upgrade_value``) or the engine stops at what lies below (``settles``)."""
    paid0, paid1, paid2, side = _apply_upgrade(r, tb, s, opt, discount, any_res)
    pushes = opt < UP_STUDY and (
        tb.gdev_effect[opt] == E_KILL_DOUBLE_CEMETERY or tb.gdev_effect[opt] == E_ACTIVATE_WORK_EXTRA
    )
    ok = pushes or settles(r, tb, r.sp - 1)
    v = value(r, tb, s, w) if ok else 0.0
    _undo_upgrade(r, s, opt, paid0, paid1, paid2, side)
    return (VALUED if ok else PLAY), v


@njit(cache=True)
def _golem_fields(r, s, g):
    """The fields ``engine.golems._step_golem`` changes when seat ``s`` steps golem ``g``, for ``_restore_golem``."""
    lost = r.stats[ST_VP_SECTIONS, s]
    return (r.last_stepped, r.standing[s, g], r.golem_sec[s, g], r.vp[s], r.res[s, KNOWLEDGE], lost, r.error)


@njit(cache=True)
def _restore_golem(r, s, g, saved):
    """Put back the fields ``_golem_fields`` saved."""
    r.last_stepped = saved[0]
    r.standing[s, g] = saved[1]
    r.golem_sec[s, g] = saved[2]
    r.vp[s] = saved[3]
    r.res[s, KNOWLEDGE] = saved[4]
    r.stats[ST_VP_SECTIONS, s] = saved[5]
    r.error = saved[6]


@njit(cache=True)
def golem_step_value(r, tb, s, w, a, left):
    """(status, value) after Golem step ``a`` of a Golem-step decision with ``left`` steps (``_resolve``): the
    step taken on ``r`` (``step_golem``), then the decision again while steps are left (its "done" is legal),
    else what lies below (``settles``)."""
    g = a // 4
    saved = _golem_fields(r, s, g)
    step_golem(r, tb, s, g, a % 2, (a // 2) % 2 == 1)
    ok = left > 1 or settles(r, tb, r.sp - 1)
    v = value(r, tb, s, w) if ok else 0.0
    _restore_golem(r, s, g, saved)
    return (VALUED if ok else PLAY), v


@njit(cache=True)
def draft_value(r, tb, s):
    """(status, value) of an Objective picked in the draft: ``CURRENT`` (drafted cards are not held yet) when the
    engine stops at the next pick or at the first Keep decision (``engine.rounds._next_phase``), with a card to take."""
    n = r.n
    if r.cursor + 1 < n:
        o = r.order[r.cursor + 1]
        ok = r.hand_len[o] - (1 if o == s else 0) > 0
    elif r.pick + 1 < tb.prm[P_OBJECTIVES_DEALT]:
        src = (r.order[0] - 1) % n  # the hand the first seat receives
        ok = r.hand_len[src] - (1 if src == s else 0) > 0
    else:
        p = r.order[0]
        ok = r.drafted_len[p] + (1 if p == s else 0) > tb.prm[P_OBJECTIVES_KEPT]
    return (CURRENT if ok else PLAY), 0.0


@njit(cache=True)
def create_value(r, tb, s, w, dist, discount, below):
    """(status, value) after creating a Golem in district ``dist`` (``_create``) and running its steps (the
    Artifacts it reactivates) up to the first decision (the step the Development offers comes first); when none
    comes, a Golem action (``below`` = -1) stops at its own decision again, a Create decision at what lies ``below``
    it (``settles``)."""
    g = free_golem(r, s)
    was = (r.golem_loc[s, g], r.golem_sec[s, g], r.standing[s, g], r.fresh[s, g], r.built[s], r.track[s])
    saved = save_fields(r, s)
    r.res[s, CLAY] -= create_cost(r, tb, s, dist, discount)
    stand_golem(r, tb, s, g, dist)
    # the Development that steps the new Golem asks first (its "may" is a decision), before the reactivations
    status = STOP if has_gdev(r, tb, s, E_CREATE_STEP_ACTIVATE) else GO_ON
    if status == GO_ON:
        for k in range(3, -1, -1):
            if reactivates_effect(r, tb, s, k, E_REACTIVATE_CREATE_GOLEM):
                activate_artifact(r, tb, s, k)
        status = STOP if below < 0 or settles(r, tb, below) else UNKNOWN
    v = value(r, tb, s, w) if status == STOP else 0.0
    r.golem_loc[s, g], r.golem_sec[s, g], r.standing[s, g], r.fresh[s, g], r.built[s], r.track[s] = was
    restore_fields(r, s, saved)
    return (VALUED if status == STOP else PLAY), v


@njit(cache=True)
def gold_buy_value(r, tb, s, w):
    """(VALUED, ``value``) after buying a Gold with an Artifacts action: the Coins paid, the Gold piece (``_gold_now``;
    valued placed when it has a cauldron to go on), then the action's own decision again."""
    saved = save_fields(r, s)
    r.res[s, COIN] -= tb.prm[P_GOLD_PRICE]
    _gold_now(r, tb, s, 1, r.gold_supply)
    v = value(r, tb, s, w)
    restore_fields(r, s, saved)
    return VALUED, v


@njit(cache=True)
def row_value(r, tb, s, w, row, amount, coins, study):
    """``value`` after paying ``coins``, ``study`` Study steps and the action of marble row ``row`` (-1: none) at value
    ``amount`` (``_row_action``: the row's resource, then its own decision, which always has a legal action)."""
    res = ROW_RESOURCE[row] if row >= 0 else -1
    was = r.study[s]
    r.res[s, COIN] -= coins
    if res >= 0:
        r.res[s, res] += amount
    study_up(r, tb, s, study)
    v = value(r, tb, s, w)
    if res >= 0:
        r.res[s, res] -= amount
    r.res[s, COIN] += coins
    r.study[s] = was
    return v


@njit(cache=True)
def pass_value(r, tb, s):
    """(status, value) of passing: ``CURRENT`` when the next turn follows at once (passing changes nothing valued)."""
    passes = r.passes[s]
    tile = r.pass_tile[s]
    r.passes[s] += 1
    if tile == 0:
        m = 0
        for o in range(r.n):
            if r.pass_tile[o]:
                m += 1
        r.pass_tile[s] = 1 + m
    ok = settles(r, tb, r.sp - 1)
    r.passes[s] = passes
    r.pass_tile[s] = tile
    return (CURRENT if ok else PLAY), 0.0


@njit(cache=True)
def rabbi_value(r, tb, s, w, slot):
    """(status, value) after placing the Rabbi on ``slot`` (``_turn``): the tile's effect applied on ``r`` as far
    as the decision it leads to (``effect_now``), or, when it leads to none, to the next turn (``settles``)."""
    tile = NUM_ACTION_TILES if slot == PERM_SLOT else r.at_slots[slot]
    saved = save_fields(r, s)
    status, _ = effect_now(r, tb, s, tb.at_effect[tile], tb.at_a[tile], tb.at_b[tile], -1, r.gold_supply)
    if status == GO_ON:  # the action ends: its End-of-action step, then the next turn
        actions = r.actions[s]
        done = r.rabbi_done[s]
        taken = r.rabbi_slot[s]
        r.actions[s] += 1
        r.rabbi_done[s] = 1
        r.rabbi_slot[s] = slot
        status = STOP if settles(r, tb, r.sp - 1) else UNKNOWN
        r.actions[s] = actions
        r.rabbi_done[s] = done
        r.rabbi_slot[s] = taken
    return _valued(r, tb, s, w, status, saved)


@njit(cache=True)
def book_value(r, tb, s, w, pos, col, discount, free_card, below):
    """(status, value) after buying the Book at Library position ``pos`` into column ``col`` (``_buy_book``)
    and running its steps (``_after_book``) as far as the first decision; when none comes, a Study action
    (``below`` = -1) stops at its own decision again, a Book decision at what lies ``below`` it (``settles``).

    Pays and tucks the Book on ``r``, applies the steps (``effect_now``), values the position and gives every field
    back; the Library and the Gold supply are not touched (nothing valued depends on them)."""
    b = r.library[pos]
    n = r.col_len[s, col]
    colour_was = r.col_colour[s, col]
    book_was = r.col_books[s, col, n]
    saved = save_fields(r, s)
    r.res[s, KNOWLEDGE] -= book_price(r, tb, s, pos, discount, free_card)
    r.col_books[s, col, n] = b
    r.col_len[s, col] = n + 1
    colour = tb.bk_colour[b]
    status = STOP  # a black Book: the Student step back comes first
    if colour != BOOK_BLACK:
        r.col_colour[s, col] = colour
        status = _after_book_now(r, tb, s, col, b, n == 0)
        if status == GO_ON:
            status = STOP if below < 0 or settles(r, tb, below) else UNKNOWN
    v = 0.0
    if status == STOP:
        v = value(r, tb, s, w)
    restore_fields(r, s, saved)
    r.col_books[s, col, n] = book_was
    r.col_len[s, col] = n
    r.col_colour[s, col] = colour_was
    return (VALUED if status == STOP else PLAY), v


@njit(cache=True)
def _after_book_now(r, tb, s, col, b, first):
    """``_after_book``'s steps in the order they run: the Book's immediate effect (twice with the doubling
    Study Development), the column's Development gain, the active effects of the column's Books from the first, the
    Artifacts a first Book reactivates. GO_ON, STOP at the first decision, or UNKNOWN."""
    dev = tb.sdev_effect[col] if r.sdev[s, col] else 0
    supply = r.gold_supply
    times = 2 if dev == E_COLUMN_DOUBLE else 1
    for _ in range(times):
        status, supply = _book_task(r, tb, s, b, 0, supply)
        if status != GO_ON:
            return status
    if dev == E_COLUMN_CLAY_COIN:
        r.res[s, COIN] += 1
        r.res[s, CLAY] += 1
    elif dev == E_COLUMN_VP:
        r.vp[s] += 2
    elif dev == E_COLUMN_GOLD:
        status, supply = _gold_now(r, tb, s, 1, supply)
        if status != GO_ON:
            return status
    for j in range(r.col_len[s, col]):
        status, supply = _book_task(r, tb, s, r.col_books[s, col, j], 1, supply)
        if status != GO_ON:
            return status
    if first:
        for k in range(4):
            if reactivates_effect(r, tb, s, k, E_REACTIVATE_FIRST_BOOK):
                activate_artifact(r, tb, s, k)
    return GO_ON


@njit(cache=True)
def _book_task(r, tb, s, b, which, supply):
    """``effect_now`` of Book ``b``'s immediate (``which`` 0) or active (1) effect, as ``_push_book_task``."""
    e = tb.bk_effect[b, which]
    if e == E_TRADE:
        return effect_now(r, tb, s, e, tb.bk_a[b, which], tb.bk_a2[b], tb.bk_res[b, which], supply)
    return effect_now(r, tb, s, e, tb.bk_a[b, which], 0, tb.bk_res[b, which], supply)


@njit(cache=True)
def effect_now(r, tb, s, e, a, b, c, supply):
    """(status, Gold supply) after applying effect ``e`` (``_effect``) of seat ``s`` on ``r`` up to the first
    decision it leads to: GO_ON when it leads to none (fully applied), STOP when a decision with a legal action
    comes first (applied up to it), UNKNOWN for the effects this does not follow (nothing applied).

    Changes only the seat's resources, VP, Study track, Students, loose Gold and the Menorah tokens (``save_fields``);
    the Gold supply is the returned number, the record's is left as it is."""
    if e == E_NONE or e == E_PLAIN:
        return GO_ON, supply
    if e == E_GAIN:
        return _gain_now(r, tb, s, c, a, supply)
    if e == E_STUDY_UP:
        study_up(r, tb, s, a)
        return GO_ON, supply
    if e == E_STUDENT_DISTRICT:
        move_student(r, tb, s, c, max(1, a))
        return GO_ON, supply
    if e == E_STUDENT_ANY:
        return (STOP if a > 0 else GO_ON), supply
    if e == E_CLAY_CREATE_MOVE:
        r.res[s, CLAY] += a
        return STOP, supply
    if e == E_UPGRADE_ANY_VP:
        r.vp[s] += b
        return STOP, supply
    if e == E_VP_BUY_BOOK:
        r.vp[s] += a
        return STOP, supply
    if e == E_STUDY_BOOK_BONUS:
        study_up(r, tb, s, a)
        return STOP, supply
    if e == E_RESOURCES_OBJECTIVE:
        for res in range(3):
            r.res[s, res] += a
        return (STOP if min(b, min(2, r.ob_len)) > 0 else GO_ON), supply
    if e == E_GOLD_VP_PER_ARTIFACT:
        status, supply = _gold_now(r, tb, s, a, supply)
        if status == GO_ON:
            done = 0
            for k in range(4):
                done += r.art_done[s, k]
            r.vp[s] += b * done
        return status, supply
    if PUSHES[e]:
        return STOP, supply
    return UNKNOWN, supply


@njit(cache=True)
def _gain_now(r, tb, s, res, amount, supply):
    """``engine.resources._gain`` with its Gold pieces run at once (``_gold_now``)."""
    if res < 0 or amount <= 0:
        return GO_ON, supply
    if res < 3:
        r.res[s, res] += amount
    elif res == GOLD:
        return _gold_now(r, tb, s, amount, supply)
    elif res == VP:
        r.vp[s] += amount
    elif res == STUDY:
        study_up(r, tb, s, amount)
    return GO_ON, supply


@njit(cache=True)
def _gold_now(r, tb, s, amount, supply):
    """``amount`` Gold pieces (``_gold_piece``): each from the supply to the seat's loose Gold, until one can go
    onto an Artifact: then the Gold placement decision is pushed, as the engine does, so that ``value`` sees the piece
    (STOP; the caller's ``restore_fields`` takes it off again)."""
    for _ in range(amount):
        if supply == 0:
            continue
        supply -= 1
        for k in range(4):
            if art_need(r, tb, s, k) > 0:
                if r.sp < MAX_STACK:
                    r.stack[r.sp, 0] = D_GOLD_PLACE
                    r.stack[r.sp, 1] = s
                    r.sp += 1
                return STOP, supply
        r.loose_gold[s] += 1
    return GO_ON, supply


@njit(cache=True)
def last_income_value(r, tb, s, w, opt):
    """(status, value) of the last player's Income upgrade ``opt`` (or skip): the upgrade (``upgrade_value``'s payment
    and flip), then Golem Control and the next round (``_next_phase``), valued when the next round stops at its
    first player's movement (their Golem Control is applied too, for the legality of their steps) or the game ends.
    An upgrade that leads to a decision stops before Golem Control (``upgrade_value``)."""
    if opt < UP_STUDY and (
        tb.gdev_effect[opt] == E_KILL_DOUBLE_CEMETERY or tb.gdev_effect[opt] == E_ACTIVATE_WORK_EXTRA
    ):
        return VALUED, upgrade_value(r, tb, s, w, opt, 0, 0)
    paid0 = paid1 = paid2 = 0
    side = 0
    if opt != UPGRADE_SKIP:
        paid0, paid1, paid2, side = _apply_upgrade(r, tb, s, opt, 0, 0)
    p = r.order[0]
    rnd = r.round
    step_left = r.step_left
    tmp = (r.tmp[0], r.tmp[1], r.tmp[2], r.tmp[3], r.tmp[4], r.tmp[5])
    mine = (r.res[s, KNOWLEDGE], r.vp[s], r.stats[ST_KNOW_CONTROL, s], r.stats[ST_VP_CONTROL, s])
    theirs = (r.res[p, KNOWLEDGE], r.vp[p], r.stats[ST_KNOW_CONTROL, p], r.stats[ST_VP_CONTROL, p])
    control_seat(r, tb, s)
    r.round += 1
    ok = True
    if r.round < NUM_ROUNDS:
        if p != s:
            control_seat(r, tb, p)
        r.step_left = track_level(r, tb, p) + tb.ch_move[r.palace[r.round]]
        ok = has_gdev(r, tb, p, E_IGNORE_CHARACTER_STEPS) or has_legal(r, tb, D_MOVE_STEP, p, 0, 0, 0, 0, 0)
    v = value(r, tb, s, w) if ok else 0.0
    r.res[p, KNOWLEDGE], r.vp[p], r.stats[ST_KNOW_CONTROL, p], r.stats[ST_VP_CONTROL, p] = theirs
    r.res[s, KNOWLEDGE], r.vp[s], r.stats[ST_KNOW_CONTROL, s], r.stats[ST_VP_CONTROL, s] = mine
    for k in range(6):
        r.tmp[k] = tmp[k]
    r.step_left = step_left
    r.round = rnd
    if opt != UPGRADE_SKIP:
        _undo_upgrade(r, s, opt, paid0, paid1, paid2, side)
    return (VALUED if ok else PLAY), v


@njit(cache=True)
def _valued(r, tb, s, w, status, saved):
    """(VALUED, value) of the position on ``r`` after a STOP, (CURRENT, 0) if nothing changed, else (PLAY, 0); ``r``
    gets its ``saved`` fields back."""
    v = 0.0
    if status == STOP:
        status = CURRENT if save_fields(r, s) == saved else VALUED
        if status == VALUED:
            v = value(r, tb, s, w)
    else:
        status = PLAY
    restore_fields(r, s, saved)
    return status, v


@njit(cache=True)
def step_value(r, tb, s, w, a):
    """(VALUED, ``value`` after Move step ``a``) without playing it; (PLAY, 0) when the engine would run on further.

    ``step_golem`` takes the step on ``r``, which gets back every field it changes. After a step that is not
    the move's last the engine stops at the next step if one is legal. After the last, the end of the move loses
    nothing (no steps are left) and the engine stops at the next player's movement if it has a legal decision, or,
    after the last player's, at the first turn of the Actions phase (its pass is legal; not with the solo Automa).
    """
    g = a // 2
    saved = _golem_fields(r, s, g)
    step_left = r.step_left
    step_golem(r, tb, s, g, a % 2, False)
    r.step_left -= 1
    if r.step_left > 0:
        ok = has_legal(r, tb, D_MOVE_STEP, s, 0, 0, 0, 0, 0)
    elif r.cursor + 1 < r.n:
        p = r.order[r.cursor + 1]
        r.step_left = track_level(r, tb, p) + tb.ch_move[r.palace[r.round]]
        ok = has_gdev(r, tb, p, E_IGNORE_CHARACTER_STEPS) or has_legal(r, tb, D_MOVE_STEP, p, 0, 0, 0, 0, 0)
    else:
        ok = r.automa == 0
    v = value(r, tb, s, w) if ok else 0.0
    r.step_left = step_left
    _restore_golem(r, s, g, saved)
    return (VALUED if ok else PLAY), v


@njit(cache=True)
def upgrade_options(r, kind):
    """How many first options of decision ``kind`` are upgrades that ``upgrade_value`` values without play.

    After such an upgrade the engine stops at once without running anything else: a Rabbi action's own decision
    is pushed again (its "done" is always legal), and an Income upgrade other than the last player's is followed by
    the next player's (the last one's leads to Golem Control and the next round, so it is played on the copy).
    """
    if kind == D_GOLEM_ACTION:
        return UP_STUDY
    if kind == D_STUDY_ACTION:
        return STUDY_BUY
    if kind == D_ARTIFACT_ACTION:
        return ART_OPTIONS
    if kind == D_INCOME_UPGRADE and r.phase == PH_DEV and r.sp == 1 and r.cursor + 1 < r.n:
        return UPGRADE_SKIP
    return 0


@njit(cache=True)
def upgrade_value(r, tb, s, w, opt, discount, any_res):
    """``value`` after seat ``s`` upgrades development ``opt`` (``engine.developments._upgrade``) without playing it.

    Pays as ``_upgrade`` does and flips the development on ``r`` for the valuation, then gives both back. The two
    Golem Developments that push a decision (a kill, an activation) change nothing before that decision.
    """
    paid0, paid1, paid2, side = _apply_upgrade(r, tb, s, opt, discount, any_res)
    v = value(r, tb, s, w)
    _undo_upgrade(r, s, opt, paid0, paid1, paid2, side)
    return v


@njit(cache=True)
def _apply_upgrade(r, tb, s, opt, discount, any_res):
    """Pay for and flip development ``opt`` as ``_upgrade`` does (without its pushed decisions); returns what
    ``_undo_upgrade`` needs: the Clay, Coins and Knowledge paid and the tile's former side."""
    cost, res = upgrade_cost(r, tb, s, opt)
    due = max(0, cost - discount)
    paid0 = 0
    paid1 = 0
    paid2 = 0
    for k in range(4):  # the upgrade's own resource first, then (any resource) Clay, Coin, Knowledge
        other = res if k == 0 else k - 1
        if due > 0 and (k == 0 or any_res):
            take = min(due, r.res[s, other])
            r.res[s, other] -= take
            due -= take
            if other == 0:
                paid0 += take
            elif other == 1:
                paid1 += take
            else:
                paid2 += take
    side = 0
    if opt < UP_STUDY:
        r.gdev[s, opt] = 1
    elif opt < UP_ART:
        r.sdev[s, opt - UP_STUDY] = 1
    elif opt == UP_ART:
        r.adev_space[s, 5] = 0
    else:
        tile = (opt - UP_ART - 1) // 8
        side = r.adev_side[s, tile]
        r.adev_space[s, tile] = ((opt - UP_ART - 1) // 2) % 4
        r.adev_side[s, tile] = (opt - UP_ART - 1) % 2
    return paid0, paid1, paid2, side


@njit(cache=True)
def _undo_upgrade(r, s, opt, paid0, paid1, paid2, side):
    if opt < UP_STUDY:
        r.gdev[s, opt] = 0
    elif opt < UP_ART:
        r.sdev[s, opt - UP_STUDY] = 0
    elif opt == UP_ART:
        r.adev_space[s, 5] = -1
    else:
        tile = (opt - UP_ART - 1) // 8
        r.adev_space[s, tile] = -1
        r.adev_side[s, tile] = side
    r.res[s, 0] += paid0
    r.res[s, 1] += paid1
    r.res[s, 2] += paid2
