"""Which actions are legal: one branch per decision, and the costs and fits they check (njit)."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem.codes import *
from simulate.games.golem.data import *
from simulate.games.golem.engine.stack import pending

# The option of each decision that resolves nothing (its skip or "done", its last option), -1 where there is none.
NOOP = np.full(64, -1, np.int64)
for _kind, _option in (
    (D_ACTIVATE, ACTIVATE_STOP),
    (D_GOLEM_ACTION, GA_DONE),
    (D_ARTIFACT_ACTION, AA_DONE),
    (D_STUDY_ACTION, STUDY_DONE),
    (D_MIRROR, MIRROR_DONE),
    (D_UPGRADE, UPGRADE_SKIP),
    (D_CREATE, CREATE_SKIP),
    (D_KILL, KILL_SKIP),
    (D_STUDENT, STUDENT_SKIP),
    (D_GOLEM_STEP, STEP_STOP),
    (D_BOOK, BOOK_SKIP),
    (D_BOOK_BONUS, BONUS_STOP),
    (D_TRACK, TRACK_SKIP),
    (D_ARTIFACT_ACTIVATE, ART_ACTIVATE_SKIP),
    (D_CONFIRM, CONFIRM_NO),
    (D_COPY_TILE, COPY_SKIP),
    (D_INCOME_UPGRADE, UPGRADE_SKIP),
):
    NOOP[_kind] = _option
# Actions that can be legal in each decision (an upper bound on its option numbers + 1): up to its no-op where it has
# one, else as listed.
OPTIONS = NOOP + 1
for _kind, _count in (
    (D_DRAFT, 4),
    (D_KEEP, 4),
    (D_ARTIFACT_TILE, NUM_ARTIFACT_TILES),
    (D_START_TILES, NUM_PAIRS),
    (D_PLACE_GOLEMS, NUM_DISTRICT_OPTIONS),
    (D_IGNORE_CHAR, IGNORE_CHARACTER + 1),
    (D_MOVE_STEP, MOVE_STEP_OPTIONS),
    (D_TURN, PASS_ACTION + 1),
    (D_BLACK_MARBLE, NUM_DISTRICT_OPTIONS),
    (D_WORK_COUNT, MAX_WORK + 1),
    (D_CHARACTER, CHARACTER_COINS + 1),
    (D_CEMETERY_SPACE, MAX_CEMETERY),
    (D_STUDENT_BACK, NUM_DISTRICT_OPTIONS),
    (D_OBJECTIVE, NUM_DRAWN_OPTIONS),
    (D_GOLD_PLACE, NUM_ARTIFACT_OPTIONS),
    (D_CHOICE, NUM_CHOICE_OPTIONS),
    (D_ANY_ACTION, NUM_ROW_OPTIONS),
    (D_REMOVE_MARBLE, MARBLE_OPTIONS),
):
    OPTIONS[_kind] = _count
PAIR_A = np.array([0, 0, 0, 1, 1, 2], np.int64)
PAIR_B = np.array([1, 2, 3, 2, 3, 3], np.int64)


@njit(cache=True)
def legal_mask(r, tb, out):
    """Fill ``out[a]`` (NUM_ACTIONS) with 1 for each legal action; return their count."""
    kind, s, e, pa, pb, pc, px = pending(r)
    last = OPTIONS[kind]
    for a in range(last, NUM_ACTIONS):
        out[a] = 0
    count = 0
    # the frequent decisions loop over their own small rule (inlined); the others go through ``_legal``
    if kind == D_TURN:
        for a in range(last):
            out[a] = 1 if _turn_legal(r, tb, s, a) else 0
            count += out[a]
    elif kind == D_UPGRADE or kind == D_INCOME_UPGRADE:
        for a in range(last):
            out[a] = 1 if upgrade_option_legal(r, tb, s, pa, pb, pc, a) else 0
            count += out[a]
    elif kind == D_ARTIFACT_ACTION:
        count = _menu_mask(artifact_action_legal, r, tb, s, pb, last, out)
    elif kind == D_STUDY_ACTION:
        count = _menu_mask(_study_action_legal, r, tb, s, pb, last, out)
    elif kind == D_GOLEM_ACTION:
        count = _menu_mask(_golem_action_legal, r, tb, s, pb, last, out)
    elif kind == D_MOVE_STEP:
        for a in range(last):
            out[a] = 1 if r.step_left > 0 and _step_legal(r, tb, s, a // 2, a % 2, False, True) else 0
            count += out[a]
    else:
        for a in range(last):
            out[a] = 1 if _legal(r, tb, kind, s, e, pa, pb, pc, px, a) else 0
            count += out[a]
    return count


@njit(cache=True, inline="always")
def _menu_mask(rule, r, tb, s, used, last, out):
    """``legal_mask`` of an action menu (Golem, Artifact or Study actions) whose options ``rule(r, tb, s, used, a)``
    judges (``used``: the parts of the menu used so far); returns the count. Inlined where ``legal_mask`` names the
    rule, so the rule is a direct call (as :mod:`simulate.play`'s plug-ins)."""
    count = 0
    for a in range(last):
        out[a] = 1 if rule(r, tb, s, used, a) else 0
        count += out[a]
    return count


@njit(cache=True)
def is_legal(r, tb, a):
    if r.phase == PH_END or a < 0 or a >= NUM_ACTIONS:
        return False
    kind, s, e, pa, pb, pc, px = pending(r)
    return _legal(r, tb, kind, s, e, pa, pb, pc, px, a)


@njit(cache=True)
def has_legal(r, tb, kind, s, e, pa, pb, pc, px):
    for a in range(OPTIONS[kind] - 1, -1, -1):  # from the top: "skip" and "done" are usually the last option
        if _legal(r, tb, kind, s, e, pa, pb, pc, px, a):
            return True
    return False


@njit(cache=True)
def on_board_space(loc):
    return loc >= 0 and loc <= 2


@njit(cache=True)
def _legal(r, tb, kind, s, e, pa, pb, pc, px, a):  # noqa: C901 - one branch per decision
    n = r.n
    if kind == D_DRAFT:
        return a < r.hand_len[s]
    if kind == D_KEEP:
        return r.drafted_len[s] > tb.prm[P_OBJECTIVES_KEPT] and a < r.drafted_len[s]
    if kind == D_ARTIFACT_TILE:
        return a < r.art_offer_len
    if kind == D_START_TILES:
        return a < NUM_PAIRS and PAIR_B[a] < r.start_len[s]
    if kind == D_PLACE_GOLEMS:
        return a < NUM_DISTRICT_OPTIONS
    if kind == D_IGNORE_CHAR:
        return a <= IGNORE_CHARACTER
    if kind == D_MOVE_STEP:
        return _step_legal(r, tb, s, a // 2, a % 2, False, a < MOVE_STEP_OPTIONS) and r.step_left > 0
    if kind == D_TURN:
        return _turn_legal(r, tb, s, a)
    if kind == D_BLACK_MARBLE:
        return a < NUM_DISTRICT_OPTIONS
    if kind == D_WORK_COUNT:
        if a > MAX_WORK or a > _standing_count(r, s, False):
            return False
        cost = 0 if a == 0 else max(0, tb.work_costs[a - 1] - pa)
        return r.res[s, KNOWLEDGE] >= cost
    if kind == D_ACTIVATE:
        if a == ACTIVATE_STOP:
            return True
        if a > ACTIVATE_STOP:
            return False
        if px >= 0 and a != px:
            return False
        return on_board_space(r.golem_loc[s, a]) and r.standing[s, a] == 1 and not (pb != 0 and r.fresh[s, a] != 0)
    if kind == D_GOLEM_ACTION:
        return _golem_action_legal(r, tb, s, pb, a)
    if kind == D_ARTIFACT_ACTION:
        return artifact_action_legal(r, tb, s, pb, a)
    if kind == D_STUDY_ACTION:
        return _study_action_legal(r, tb, s, pb, a)
    if kind == D_MIRROR:
        if a < NUM_ROW_OPTIONS:
            return (pb & 1) == 0 and r.res[s, COIN] >= tb.prm[P_MIRROR_COST]
        if a == MIRROR_STUDY:
            top = tb.prm[P_STUDY_TRACK_LEN] - 1
            return (pb & 2) == 0 and r.res[s, COIN] >= tb.prm[P_MIRROR_STUDY_COST] and r.study[s] < top
        return a == MIRROR_DONE
    if kind == D_CHARACTER:
        if a == CHARACTER_PAY:
            return r.res[s, COIN] >= tb.ch_cost[r.palace[r.round]]
        return a == CHARACTER_COINS
    if kind == D_UPGRADE or kind == D_INCOME_UPGRADE:
        return upgrade_option_legal(r, tb, s, pa, pb, pc, a)
    if kind == D_CREATE:
        return a == CREATE_SKIP or (a < CREATE_SKIP and _create_legal(r, tb, s, a, pa))
    if kind == D_KILL:
        return a == KILL_SKIP or (a < KILL_SKIP and on_board_space(r.golem_loc[s, a]))
    if kind == D_CEMETERY_SPACE:
        if a >= tb.prm[P_CEMETERY_LEN]:
            return False
        if tb.cem_unlimited[a]:
            return True
        return r.cemetery[a] < 0 and tb.cem_min_players[a] <= n
    if kind == D_STUDENT:
        return a == STUDENT_SKIP or (a < STUDENT_SKIP and r.student[s, a] < NUM_SECTIONS)
    if kind == D_GOLEM_STEP:
        if a == STEP_STOP:
            return True
        if a > STEP_STOP:
            return False
        g = a // 4
        back = (a // 2) % 2
        pay = a % 2
        if px >= 0 and g != px:
            return False
        if back == 1 and (pa & 1) == 0:
            return False
        return _step_legal(r, tb, s, g, pay, back == 1, True)
    if kind == D_BOOK:
        return a == BOOK_SKIP or (a < BOOK_SKIP and _book_legal(r, tb, s, a // 4, a % 4, pa, pb))
    if kind == D_STUDENT_BACK:
        return a < NUM_DISTRICT_OPTIONS and r.student[s, a] > 1
    if kind == D_BOOK_BONUS:
        if a == BONUS_STOP:
            return True
        if a > BONUS_STOP:
            return False
        return (a % 5) < r.col_len[s, a // 5] and ((pb >> a) & 1) == 0
    if kind == D_OBJECTIVE:
        return a < NUM_DRAWN_OPTIONS and r.drawn[a] >= 0
    if kind == D_TRACK:
        if a == TRACK_UP:
            return r.track[s] < tb.prm[P_GOLEM_TRACK_LEN] - 1
        if a == TRACK_DOWN:
            return r.track[s] > 0
        return a == TRACK_SKIP
    if kind == D_ARTIFACT_ACTIVATE:
        return a == ART_ACTIVATE_SKIP or (a < ART_ACTIVATE_SKIP and r.art_done[s, a] == 1)
    if kind == D_GOLD_PLACE:
        return a < NUM_ARTIFACT_OPTIONS and art_need(r, tb, s, a) > 0
    if kind == D_CHOICE:
        return a < NUM_CHOICE_OPTIONS
    if kind == D_CONFIRM:
        return a == CONFIRM_NO or (a == CONFIRM_YES and _confirm_ok(r, s, e, pa, pb, pc, px))
    if kind == D_COPY_TILE:
        if a == COPY_SKIP:
            return True
        if a > COPY_SKIP:
            return False
        loc = r.golem_loc[s, a]
        return on_board_space(loc) and r.section_tile[loc, r.golem_sec[s, a]] >= 0
    if kind == D_ANY_ACTION:
        return a < NUM_ROW_OPTIONS
    if kind == D_REMOVE_MARBLE:
        return a < MARBLE_OPTIONS and r.syn[a // 5, a % 5] > 0
    return False


@njit(cache=True)
def _turn_legal(r, tb, s, a):
    """Turn option ``a``: a marble (row * 5 + colour), a Rabbi (RABBI_BASE + slot) or passing."""
    if a < MARBLE_OPTIONS:
        return r.marble_actions[s] < 2 and r.syn[a // 5, a % 5] > 0
    if a < PASS_ACTION:
        slot = a - RABBI_BASE
        if r.rabbi_done[s]:
            return False
        if slot == PERM_SLOT:
            return True
        if r.at_slots[slot] < 0:
            return False
        for o in range(r.n):
            if r.rabbi_slot[o] == slot:
                return False
        return r.au_slot != slot
    if a == PASS_ACTION:
        if r.pass_stage == 0:
            return True
        return r.pass_stage == 1 and tb.prm[P_SECOND_PASS] == 1 and r.passes[s] == 1
    return False


@njit(cache=True)
def _golem_action_legal(r, tb, s, pb, a):
    if a < GA_CREATE:
        return (pb & 1) == 0 and _upgrade_legal(r, tb, s, a, 0, 0)
    if a < GA_DONE:
        return (pb & 2) == 0 and _create_legal(r, tb, s, a - GA_CREATE, 0)
    return a == GA_DONE


@njit(cache=True)
def artifact_action_legal(r, tb, s, pb, a):
    if a < ART_OPTIONS:
        return (pb & 1) == 0 and _upgrade_legal(r, tb, s, UP_ART + a, 0, 0)
    if a == AA_BUY_GOLD:
        return (pb & 2) == 0 and r.res[s, COIN] >= tb.prm[P_GOLD_PRICE] and r.gold_supply > 0
    return a == AA_DONE


@njit(cache=True)
def _study_action_legal(r, tb, s, pb, a):
    if a < STUDY_BUY:
        return (pb & 1) == 0 and _upgrade_legal(r, tb, s, UP_STUDY + a, 0, 0)
    if a < STUDY_DONE:
        return (pb & 2) == 0 and _book_legal(r, tb, s, (a - STUDY_BUY) // 4, (a - STUDY_BUY) % 4, 0, 0)
    return a == STUDY_DONE


@njit(cache=True)
def upgrade_option_legal(r, tb, s, pa, pb, pc, a):
    """Upgrade (or Income upgrade) option ``a`` in the areas of bitmask ``pa``, discount ``pb``, any resource ``pc``."""
    if a == UPGRADE_SKIP:
        return True
    if a > UPGRADE_SKIP:
        return False
    area = 1 if a < UP_STUDY else (2 if a < UP_ART else 4)
    return (pa & area) != 0 and _upgrade_legal(r, tb, s, a, pb, pc)


@njit(cache=True)
def _step_legal(r, tb, s, g, pay, back, in_range):
    if not in_range or g >= 6 or not on_board_space(r.golem_loc[s, g]):
        return False
    sec = r.golem_sec[s, g]
    if back:
        return sec > 1 and pay == 0
    if sec >= NUM_SECTIONS:
        return False
    cost = tb.street_entry[sec]
    mode = tb.prm[P_SECTION_PAYMENT]
    if cost == 0:
        return pay == 0
    if pay == 1:
        return mode != PAY_VP and r.res[s, KNOWLEDGE] >= cost
    return mode != PAY_KNOWLEDGE  # R7: a Knowledge section is entered only by paying its Knowledge


@njit(cache=True)
def _standing_count(r, s, fresh_ok):
    m = 0
    for g in range(6):
        if on_board_space(r.golem_loc[s, g]) and r.standing[s, g] and (fresh_ok or r.fresh[s, g] == 0):
            m += 1
    return m


@njit(cache=True)
def create_cost(r, tb, s, dist, discount):
    own = 0
    for g in range(6):
        if r.golem_loc[s, g] == dist:
            own += 1
    return max(0, tb.prm[P_GOLEM_COST] + tb.prm[P_GOLEM_EXTRA_COST] * own - discount)


@njit(cache=True)
def _create_legal(r, tb, s, dist, discount):
    free = False
    for g in range(2, 6):
        if r.golem_loc[s, g] == OFF_BOARD:
            free = True
    return free and r.res[s, CLAY] >= create_cost(r, tb, s, dist, discount)


@njit(cache=True)
def study_dev_bonus(r, tb, s, which):
    """The Study-track Development's extra Books per column (``which`` = P_STUDY_DEV_LIMIT) or Knowledge income
    (P_STUDY_DEV_INCOME) for seat ``s``: the table value once it is upgraded, else 0 (RULINGS R18a)."""
    for k in range(NUM_STUDY_DEVS):
        if r.sdev[s, k] and tb.sdev_effect[k] == E_STUDY_TRACK_BONUS:
            return tb.prm[which]
    return 0


@njit(cache=True)
def upgrade_cost(r, tb, s, opt):
    """(cost, resource) of upgrade option ``opt``; cost -1 if not available."""
    if opt < UP_STUDY:
        return (-1 if r.gdev[s, opt] else tb.gdev_cost[opt]), CLAY
    if opt < UP_ART:
        return (-1 if r.sdev[s, opt - UP_STUDY] else tb.sdev_cost[opt - UP_STUDY]), KNOWLEDGE
    k = opt - UP_ART
    if k == 0:
        return (-1 if r.adev_space[s, 5] >= 0 else tb.adev_cost[5]), COIN
    tile = (k - 1) // 8
    space = ((k - 1) // 2) % 4
    if r.adev_space[s, tile] >= 0 or r.art_tile[s] < 0:
        return -1, COIN
    for t in range(5):
        if r.adev_space[s, t] == space:
            return -1, COIN
    return tb.art[r.art_tile[s], r.art_side[s], space, 6], COIN


@njit(cache=True)
def _upgrade_legal(r, tb, s, opt, discount, any_res):
    cost, res = upgrade_cost(r, tb, s, opt)
    if cost < 0:
        return False
    due = max(0, cost - discount)
    if any_res:
        return r.res[s, 0] + r.res[s, 1] + r.res[s, 2] >= due
    return r.res[s, res] >= due


@njit(cache=True)
def book_price(r, tb, s, pos, discount, free_card):
    b = r.library[pos]
    card = 0 if free_card or tb.bk_colour[b] == BOOK_BLACK else tb.bk_cost[b]
    return max(0, card + tb.library_costs[pos] - discount)


@njit(cache=True)
def _book_legal(r, tb, s, pos, col, discount, free_card):
    if pos >= r.lib_len or col > 3:
        return False
    b = r.library[pos]
    if r.res[s, KNOWLEDGE] < book_price(r, tb, s, pos, discount, free_card):
        return False
    if tb.bk_colour[b] == BOOK_BLACK and max(r.student[s, 0], max(r.student[s, 1], r.student[s, 2])) <= 1:
        return False
    return fits(r, tb, s, b, col)


@njit(cache=True)
def fits(r, tb, s, b, col):
    """Book ``b`` may be tucked into column ``col`` of seat ``s``."""
    limit = min(tb.sd_limit[r.study[s]] + study_dev_bonus(r, tb, s, P_STUDY_DEV_LIMIT), tb.prm[P_MAX_COLUMN])
    if col >= tb.prm[P_BOOK_COLUMNS] or r.col_len[s, col] >= limit:
        return False
    colour = tb.bk_colour[b]
    if colour == BOOK_BLACK:
        return True
    here = r.col_colour[s, col]
    if here >= 0:
        return here == colour
    for c in range(4):
        if r.col_colour[s, c] == colour:
            return False
    return True


@njit(cache=True)
def _confirm_ok(r, s, e, a, b, c, x):
    if (
        e == E_PAY_FOR_VP
        or e == E_PAY_FOR_GOLD
        or e == E_PAY_FOR_STUDENTS
        or e == E_PAY_FOR_STUDY
        or e == E_PAY_FOR_VP_STUDY
    ):
        return c < 3 and c >= 0 and r.res[s, c] >= a
    if e == E_TRADE:
        return c < 3 and c >= 0 and r.res[s, c] >= a
    if e == E_STUDENT_BACK:
        return r.student[s, x] > 1
    if e == E_STUDY_DOWN_VP_STUDENT:
        return r.study[s] > 0
    return True


@njit(cache=True)
def art_need(r, tb, s, k):
    if r.art_tile[s] < 0:
        return 0
    return tb.art[r.art_tile[s], r.art_side[s], k, 0] - r.art_gold[s, k]


@njit(cache=True)
def _fits_icon(m, want):
    return m == want or m == WHITE


@njit(cache=True)
def _matches(r, tb, s):
    if r.eyes_len[s] < 2:
        return False
    c = r.palace[r.round]
    c1 = tb.ch_c1[c]
    c2 = tb.ch_c2[c]
    m1 = r.eyes[s, 0]
    m2 = r.eyes[s, 1]
    return (_fits_icon(m1, c1) and _fits_icon(m2, c2)) or (_fits_icon(m1, c2) and _fits_icon(m2, c1))
