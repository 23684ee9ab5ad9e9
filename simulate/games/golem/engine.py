"""Golem rules as numba functions over the record ``r`` of one game (``state.py``).

A line-by-line port of ``reference.py`` (the readable twin, compared move by move in
``tests/test_golem_differential.py``): the same decisions, action integers, task stack, chance draws
and scoring. ``tb`` is the packed tables record (``GolemData.kernel[0]``). The batch loop and the
bots live in ``play.py`` and ``bots.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem.codes import (
    AA_BUY_GOLD,
    AA_DONE,
    ACT_FORFEIT,
    ACT_PASS,
    ACT_RABBI,
    ACTIVATE_STOP,
    ART_ACTIVATE_SKIP,
    ART_OPTIONS,
    AUTOMA,
    BONUS_STOP,
    BOOK_SKIP,
    CEMETERY,
    CHARACTER_COINS,
    CHARACTER_PAY,
    CONFIRM_NO,
    CONFIRM_YES,
    COPY_SKIP,
    CREATE_SKIP,
    D_ACTIVATE,
    D_ANY_ACTION,
    D_ARTIFACT_ACTION,
    D_ARTIFACT_ACTIVATE,
    D_ARTIFACT_TILE,
    D_BLACK_MARBLE,
    D_BOOK,
    D_BOOK_BONUS,
    D_CEMETERY_SPACE,
    D_CHARACTER,
    D_CHOICE,
    D_CONFIRM,
    D_COPY_TILE,
    D_CREATE,
    D_DRAFT,
    D_GOLD_PLACE,
    D_GOLEM_ACTION,
    D_GOLEM_STEP,
    D_IGNORE_CHAR,
    D_INCOME_UPGRADE,
    D_KEEP,
    D_KILL,
    D_MIRROR,
    D_MOVE_STEP,
    D_OBJECTIVE,
    D_PLACE_GOLEMS,
    D_REMOVE_MARBLE,
    D_START_TILES,
    D_STUDENT,
    D_STUDENT_BACK,
    D_STUDY_ACTION,
    D_TRACK,
    D_TURN,
    D_UPGRADE,
    D_WORK_COUNT,
    E_ACTIVATE_ARTIFACT,
    E_ACTIVATE_WORK_EXTRA,
    E_ANY_MARBLE_ACTION,
    E_BOOK_BONUSES,
    E_BUY_BOOK,
    E_BUY_BOOK_FREE_CARD,
    E_CHOICE,
    E_CLAY_CREATE_MOVE,
    E_COLUMN_CLAY_COIN,
    E_COLUMN_DOUBLE,
    E_COLUMN_GOLD,
    E_COLUMN_VP,
    E_CONTROL_CAP_2,
    E_COPY_TILE,
    E_CREATE_GOLEM,
    E_CREATE_GOLEM_RED_STUDENT,
    E_CREATE_GOLEM_VP_PER_LEVEL,
    E_CREATE_STEP_ACTIVATE,
    E_EXTRA_CLAY_2,
    E_EXTRA_CLAY_VP,
    E_EXTRA_COIN_2,
    E_EXTRA_COIN_VP,
    E_EXTRA_KNOWLEDGE_2,
    E_EXTRA_KNOWLEDGE_VP,
    E_GAIN,
    E_GAIN_GOLD,
    E_GOLD_VP_PER_ARTIFACT,
    E_GOLD_YELLOW_STUDENT,
    E_GOLEM_STEP_ACTIVATE,
    E_GOLEM_TRACK,
    E_IGNORE_CHARACTER_STEPS,
    E_KILL_DOUBLE_CEMETERY,
    E_KILL_GAIN,
    E_KILL_GOLEM,
    E_KILL_VP_CLAY_PER_CEMETERY,
    E_KILL_VP_PER_CEMETERY,
    E_KILL_VP_PER_LEVEL,
    E_MOVE_ACTIVATE_FREE_CONTROL,
    E_MOVE_TWO_ACTIVATE,
    E_NONE,
    E_OBJECTIVE_GAIN,
    E_PAY_FOR_GOLD,
    E_PAY_FOR_STUDENTS,
    E_PAY_FOR_STUDY,
    E_PAY_FOR_VP,
    E_PAY_FOR_VP_STUDY,
    E_PLAIN,
    E_REACTIVATE_BLUE_MARBLE,
    E_REACTIVATE_CREATE_GOLEM,
    E_REACTIVATE_FIRST_BOOK,
    E_REACTIVATE_RED_MARBLE,
    E_RESOURCES_OBJECTIVE,
    E_STUDENT_ANY,
    E_STUDENT_BACK,
    E_STUDENT_DISTRICT,
    E_STUDENT_INCOME,
    E_STUDENT_VP_LEFTMOST,
    E_STUDY_BLUE_STUDENT,
    E_STUDY_BOOK_BONUS,
    E_STUDY_DOWN_VP_STUDENT,
    E_STUDY_TRACK_BONUS,
    E_STUDY_UP,
    E_TRACK_VP_KNOWLEDGE,
    E_TRADE,
    E_UPGRADE,
    E_UPGRADE_ANY_RESOURCES,
    E_UPGRADE_ANY_VP,
    E_UPGRADE_ARTIFACT,
    E_UPGRADE_GOLEM,
    E_UPGRADE_STUDY,
    E_VP_BUY_BOOK,
    E_VP_PER_DEVELOPMENT,
    E_VP_PER_TRACK_LEVEL,
    E_VP_TIMES_LEFTMOST,
    GA_CREATE,
    GA_DONE,
    IGNORE_CHARACTER,
    KILL_SKIP,
    MARBLE_OPTIONS,
    MAX_STACK,
    MAX_WORK,
    MIRROR_DONE,
    MIRROR_STUDY,
    MOVE_STEP_OPTIONS,
    NUM_ACTIONS,
    NUM_ARTIFACT_OPTIONS,
    NUM_CHOICE_OPTIONS,
    NUM_DISTRICT_OPTIONS,
    NUM_DRAWN_OPTIONS,
    NUM_PAIRS,
    NUM_ROW_OPTIONS,
    OFF_BOARD,
    PASS_ACTION,
    PERM_SLOT,
    PH_ACTIONS,
    PH_ARTIFACT,
    PH_DEV,
    PH_DRAFT,
    PH_END,
    PH_INFLUENCE,
    PH_KEEP,
    PH_MOVE,
    PH_PLACE,
    PH_START,
    RABBI_BASE,
    ST_CHARACTER_BONUSES,
    ST_GOLD_BOUGHT,
    ST_KNOW_CONTROL,
    ST_OBJECTIVES_MET,
    ST_STUDENT_SECTIONS,
    ST_VP_CONTROL,
    ST_VP_OVERMOVE,
    ST_VP_SECTIONS,
    STEP_STOP,
    STUDENT_SKIP,
    STUDY_BUY,
    STUDY_DONE,
    T_AUTO,
    TRACK_DOWN,
    TRACK_SKIP,
    TRACK_UP,
    UP_ART,
    UP_STUDY,
    UPGRADE_SKIP,
    X_ACTIVATE_ART,
    X_ACTIVATE_GOLEM,
    X_AFTER_BOOK,
    X_END_ACTION,
    X_GAIN,
    X_GOLD,
    X_GOLD_PIECE,
    X_KNOW_PER_LEVEL,
    X_OVERMOVE,
    X_REDROP,
    X_ROW_ACTION,
    X_STUDENT,
    X_TILE,
    X_VP_CEMETERY,
    X_VP_LEFTMOST,
    X_VP_PER_ARTIFACT,
    X_VP_PER_LEVEL,
)
from simulate.games.golem.data import (
    ARTIFACTS,
    BLACK,
    BLUE,
    BOOK_BLACK,
    CLAY,
    COIN,
    GOLD,
    GOLEM_ROW,
    KNOWLEDGE,
    MAX_CEMETERY,
    MIRROR,
    NUM_ACTION_TILES,
    NUM_ROUNDS,
    NUM_SECTIONS,
    NUM_STUDY_DEVS,
    P_AUTOMA,
    P_AUTOMA_RABBI_GAUGE,
    P_BOOK_COLUMNS,
    P_CEMETERY_LEN,
    P_CHARACTER_COINS,
    P_CONTROL_PENALTY,
    P_GOLD_PRICE,
    P_GOLD_SUPPLY,
    P_GOLEM_COST,
    P_GOLEM_EXTRA_COST,
    P_GOLEM_TRACK_LEN,
    P_INTRO,
    P_INTRO_START_DEALT,
    P_LEFTOVER_GOLD,
    P_LEFTOVER_PER_VP,
    P_MAX_COLUMN,
    P_MENORAH_SECTION,
    P_MIRROR_COST,
    P_MIRROR_STUDY_COST,
    P_OBJECTIVES_DEALT,
    P_OBJECTIVES_KEPT,
    P_OVERMOVE_ONE,
    P_OVERMOVE_PENALTY,
    P_SECOND_PASS,
    P_SECTION_PAYMENT,
    P_START_DEALT,
    P_START_KEPT,
    P_STARTING_VP,
    P_STUDY_DEV_INCOME,
    P_STUDY_DEV_LIMIT,
    P_STUDY_TRACK_LEN,
    P_TRACK_CREATE,
    P_TRACK_KILL,
    P_TRACK_START,
    P_VP_FLOOR_ZERO,
    PAY_KNOWLEDGE,
    PAY_VP,
    RED,
    STUDY,
    STUDY_ROW,
    VP,
    WHITE,
    WORK,
    YELLOW,
)
from simulate.rng import draw_front, mix64, opening_seed, order_seed, randint, shuffle, shuffle_range

# Actions that can be legal in each decision (an upper bound on its option numbers + 1).
OPTIONS = np.zeros(64, np.int64)
for _kind, _count in (
    (D_DRAFT, 4),
    (D_KEEP, 4),
    (D_ARTIFACT_TILE, 4),
    (D_START_TILES, NUM_PAIRS),
    (D_PLACE_GOLEMS, NUM_DISTRICT_OPTIONS),
    (D_IGNORE_CHAR, IGNORE_CHARACTER + 1),
    (D_MOVE_STEP, MOVE_STEP_OPTIONS),
    (D_TURN, PASS_ACTION + 1),
    (D_BLACK_MARBLE, NUM_DISTRICT_OPTIONS),
    (D_WORK_COUNT, MAX_WORK + 1),
    (D_ACTIVATE, ACTIVATE_STOP + 1),
    (D_GOLEM_ACTION, GA_DONE + 1),
    (D_ARTIFACT_ACTION, AA_DONE + 1),
    (D_STUDY_ACTION, STUDY_DONE + 1),
    (D_MIRROR, MIRROR_DONE + 1),
    (D_CHARACTER, CHARACTER_COINS + 1),
    (D_UPGRADE, UPGRADE_SKIP + 1),
    (D_CREATE, CREATE_SKIP + 1),
    (D_KILL, KILL_SKIP + 1),
    (D_CEMETERY_SPACE, MAX_CEMETERY),
    (D_STUDENT, STUDENT_SKIP + 1),
    (D_GOLEM_STEP, STEP_STOP + 1),
    (D_BOOK, BOOK_SKIP + 1),
    (D_STUDENT_BACK, NUM_DISTRICT_OPTIONS),
    (D_BOOK_BONUS, BONUS_STOP + 1),
    (D_OBJECTIVE, NUM_DRAWN_OPTIONS),
    (D_TRACK, TRACK_SKIP + 1),
    (D_ARTIFACT_ACTIVATE, ART_ACTIVATE_SKIP + 1),
    (D_GOLD_PLACE, NUM_ARTIFACT_OPTIONS),
    (D_CHOICE, NUM_CHOICE_OPTIONS),
    (D_CONFIRM, CONFIRM_NO + 1),
    (D_COPY_TILE, COPY_SKIP + 1),
    (D_ANY_ACTION, NUM_ROW_OPTIONS),
    (D_REMOVE_MARBLE, MARBLE_OPTIONS),
    (D_INCOME_UPGRADE, UPGRADE_SKIP + 1),
):
    OPTIONS[_kind] = _count
# The option of each decision that resolves nothing (its skip or "done"), -1 where there is none.
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
PAIR_A = np.array([0, 0, 0, 1, 1, 2], np.int64)
PAIR_B = np.array([1, 2, 3, 2, 3, 3], np.int64)
NUM_PARTS = 8


# ----------------------------------------------------------------------------- setup


@njit(cache=True)
def init_game(r, tb, n, setup_seed, play_seed):
    """Set up game record ``r`` for ``n`` players from its seeds and run to the first decision."""
    # two setup streams: ``op`` draws the public opening (Palace, Neighbourhood, Library, round 1's Action tiles,
    # turn order, Starting and Artifact tiles, the Automa's Strategy tile and place), ``rng`` the hidden order
    # (the rest of the Book deck and Action tile pile, the Objective deck, the Automa deck); chance follows ``rng``
    op = np.zeros(1, np.uint64)
    op[0] = opening_seed(setup_seed)
    rng = np.zeros(1, np.uint64)
    rng[0] = order_seed(setup_seed)
    r.chance[0] = mix64(rng[0] ^ np.uint64(0x5EED))
    r.rng[0] = play_seed
    r.n = n
    intro = tb.prm[P_INTRO] == 1
    if intro:
        for k in range(4):
            r.palace[k] = tb.intro_chars[k]
    else:
        early = np.zeros(12, np.int64)
        late = np.zeros(12, np.int64)
        ne = 0
        nl = 0
        for c in range(tb.ch_deck.shape[0]):
            if tb.ch_deck[c] == 0:
                early[ne] = c
                ne += 1
            else:
                late[nl] = c
                nl += 1
        shuffle(op, 0, early, ne)
        shuffle(op, 0, late, nl)
        for k in range(3):
            r.palace[k] = early[k]
        r.palace[3] = late[0]
    for dist in range(3):
        for sec in range(NUM_SECTIONS + 1):
            r.section_tile[dist, sec] = -1
        if intro:
            for k in range(7):
                r.tiles[dist, k] = tb.intro_tiles[dist, k]
        else:
            pool = np.arange(10)
            shuffle(op, 0, pool, 10)
            chosen = np.sort(pool[:7])
            for k in range(7):
                r.tiles[dist, k] = chosen[k]
        for k in range(7):
            r.section_tile[dist, tb.tile_sections[k]] = r.tiles[dist, k]
    nb = tb.bk_colour.shape[0]
    books = np.arange(nb)
    draw_front(op, 0, books, nb, 5)
    shuffle_range(rng, 0, books, 5, nb)
    for k in range(5):
        r.library[k] = books[k]
    r.lib_len = 5
    for k in range(5, nb):
        r.bk_q[k - 5] = books[k]
    r.bk_head = 0
    r.bk_len = nb - 5
    at = np.arange(NUM_ACTION_TILES)
    draw_front(op, 0, at, NUM_ACTION_TILES, n + 1)
    shuffle_range(rng, 0, at, n + 1, NUM_ACTION_TILES)
    for k in range(NUM_ACTION_TILES):
        r.at_q[k] = at[k]
    r.at_head = 0
    r.at_len = NUM_ACTION_TILES
    r.at_disc_len = 0
    no = tb.ob_type.shape[0]
    objs = np.arange(no)
    shuffle(rng, 0, objs, no)
    for k in range(no):
        r.ob_q[k] = objs[k]
    r.ob_head = 0
    r.ob_len = no
    order = np.arange(n)
    shuffle(op, 0, order, n)
    for k in range(n):
        r.order[k] = order[k]
        r.start_order[k] = order[k]
    ns = tb.start_tiles.shape[0]
    starts = np.arange(ns)
    shuffle(op, 0, starts, ns)
    dealt = tb.prm[P_INTRO_START_DEALT] if intro else tb.prm[P_START_DEALT]
    for s in range(n):
        r.start_len[s] = dealt
        for k in range(dealt):
            r.start_offer[s, k] = starts[s * dealt + k]
        r.hand_len[s] = tb.prm[P_OBJECTIVES_DEALT]
        for k in range(tb.prm[P_OBJECTIVES_DEALT]):
            r.hands[s, k] = _ob_pop(r)
    arts = np.arange(4)
    shuffle(op, 0, arts, 4)
    for k in range(n):
        r.art_offer[k, 0] = arts[k]
        r.art_offer[k, 1] = randint(op, 0, 2)
    r.art_offer_len = n
    r.automa = 1 if n == 1 and tb.prm[P_AUTOMA] == 1 else 0
    r.au_strategy = -1
    r.au_pos = -1
    nc = tb.au_rows.shape[0]
    cards = np.arange(nc)
    if r.automa:
        shuffle(rng, 0, cards, nc)
        r.au_strategy = randint(op, 0, tb.au_focus.shape[0])
        r.au_pos = randint(op, 0, n + 1)
    for k in range(nc):
        r.au_deck[k] = cards[k]
    r.au_slot = -1
    for c in range(5):
        r.marbles[c] = tb.marbles[n, c]
    for s in range(n):
        r.vp[s] = tb.prm[P_STARTING_VP]
        r.track[s] = tb.prm[P_TRACK_START]
        r.art_tile[s] = -1
        r.rabbi_slot[s] = -1
        for d in range(3):
            r.student[s, d] = 1
        for g in range(6):
            r.golem_loc[s, g] = OFF_BOARD
            r.standing[s, g] = 1
            r.adev_space[s, g] = -1
        for c in range(4):
            r.col_colour[s, c] = -1
    for k in range(3):
        r.tokens[k] = -1
    for k in range(MAX_CEMETERY):
        r.cemetery[k] = -1
    r.gold_supply = tb.prm[P_GOLD_SUPPLY]
    r.drawn[0] = -1
    r.drawn[1] = -1
    r.last_stepped = -1
    r.phase = PH_DRAFT
    r.cursor = 0
    r.sp = 0
    _drop_all(r, tb)
    _deal_action_tiles(r)
    _push_phase(r, tb)
    advance(r, tb)


@njit(cache=True)
def _ob_pop(r):
    x = r.ob_q[r.ob_head]
    r.ob_head = (r.ob_head + 1) % r.ob_q.shape[0]
    r.ob_len -= 1
    return x


@njit(cache=True)
def _ob_append(r, x):
    r.ob_q[(r.ob_head + r.ob_len) % r.ob_q.shape[0]] = x
    r.ob_len += 1


@njit(cache=True)
def _bk_pop(r):
    x = r.bk_q[r.bk_head]
    r.bk_head = (r.bk_head + 1) % r.bk_q.shape[0]
    r.bk_len -= 1
    return x


@njit(cache=True)
def _bk_append(r, x):
    r.bk_q[(r.bk_head + r.bk_len) % r.bk_q.shape[0]] = x
    r.bk_len += 1


# ----------------------------------------------------------------------------- public API


@njit(cache=True)
def current_player(r):
    """Seat to move, or -4 when the game is over."""
    if r.phase == PH_END:
        return -4
    return r.stack[r.sp - 1, 1]


@njit(cache=True)
def decision(r):
    if r.phase == PH_END:
        return 0
    return r.stack[r.sp - 1, 0]


@njit(cache=True)
def legal_mask(r, tb, out):
    """Fill ``out[a]`` (NUM_ACTIONS) with 1 for each legal action; return their count."""
    k = r.sp - 1
    kind = r.stack[k, 0]
    s = r.stack[k, 1]
    pa = r.stack[k, 3]
    pb = r.stack[k, 4]
    pc = r.stack[k, 5]
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
            out[a] = 1 if _upgrade_option_legal(r, tb, s, pa, pb, pc, a) else 0
            count += out[a]
    elif kind == D_ARTIFACT_ACTION:
        for a in range(last):
            out[a] = 1 if _artifact_action_legal(r, tb, s, pb, a) else 0
            count += out[a]
    elif kind == D_STUDY_ACTION:
        for a in range(last):
            out[a] = 1 if _study_action_legal(r, tb, s, pb, a) else 0
            count += out[a]
    elif kind == D_GOLEM_ACTION:
        for a in range(last):
            out[a] = 1 if _golem_action_legal(r, tb, s, pb, a) else 0
            count += out[a]
    elif kind == D_MOVE_STEP:
        for a in range(last):
            out[a] = 1 if r.step_left > 0 and _step_legal(r, tb, s, a // 2, a % 2, False, True) else 0
            count += out[a]
    else:
        e = r.stack[k, 2]
        px = r.stack[k, 6]
        for a in range(last):
            out[a] = 1 if _legal(r, tb, kind, s, e, pa, pb, pc, px, a) else 0
            count += out[a]
    return count


@njit(cache=True)
def is_legal(r, tb, a):
    if r.phase == PH_END or a < 0 or a >= NUM_ACTIONS:
        return False
    k = r.sp - 1
    return _legal(
        r,
        tb,
        r.stack[k, 0],
        r.stack[k, 1],
        r.stack[k, 2],
        r.stack[k, 3],
        r.stack[k, 4],
        r.stack[k, 5],
        r.stack[k, 6],
        a,
    )


@njit(cache=True)
def apply_action(r, tb, a):
    """Resolve the pending decision with legal action ``a`` and advance to the next decision."""
    k = r.sp - 1
    kind = r.stack[k, 0]
    s = r.stack[k, 1]
    e = r.stack[k, 2]
    pa = r.stack[k, 3]
    pb = r.stack[k, 4]
    pc = r.stack[k, 5]
    px = r.stack[k, 6]
    r.sp -= 1
    r.moves += 1
    students = _students_packed(r)
    _resolve(r, tb, kind, s, e, pa, pb, pc, px, a)
    advance(r, tb)
    _count_profile(r, kind, s, a, students)


@njit(cache=True)
def _students_packed(r):
    """Every seat's three Student positions, 4 bits each, in one integer (positions are 0..NUM_SECTIONS)."""
    packed = 0
    for s in range(r.n):
        for d in range(3):
            packed |= np.int64(r.student[s, d]) << (4 * (3 * s + d))
    return packed


@njit(cache=True)
def _count_profile(r, kind, s, a, students):
    """Play-profile stats of one move: a Gold bought by the Artifacts action, a Character bonus paid for, and the
    sections every seat's Students advanced (from ``students``, ``_students_packed`` before the move)."""
    if kind == D_ARTIFACT_ACTION and a == AA_BUY_GOLD:
        r.stats[ST_GOLD_BOUGHT, s] += 1
    elif kind == D_CHARACTER and a == CHARACTER_PAY:
        r.stats[ST_CHARACTER_BONUSES, s] += 1
    for o in range(r.n):
        for d in range(3):
            before = (students >> (4 * (3 * o + d))) & 15
            if r.student[o, d] > before:
                r.stats[ST_STUDENT_SECTIONS, o] += r.student[o, d] - before


@njit(cache=True)
def advance(r, tb):
    """Run automatic steps and phase changes until a decision is pending or the game is over."""
    while True:
        if r.sp > 0:
            k = r.sp - 1
            kind = r.stack[k, 0]
            if kind != T_AUTO:
                if _has_legal(
                    r,
                    tb,
                    kind,
                    r.stack[k, 1],
                    r.stack[k, 2],
                    r.stack[k, 3],
                    r.stack[k, 4],
                    r.stack[k, 5],
                    r.stack[k, 6],
                ):
                    return
                r.sp -= 1
                continue
            s = r.stack[k, 1]
            e = r.stack[k, 2]
            a = r.stack[k, 3]
            b = r.stack[k, 4]
            c = r.stack[k, 5]
            x = r.stack[k, 6]
            r.sp -= 1
            _effect(r, tb, s, e, a, b, c, x)
            continue
        if r.phase == PH_END:
            return
        _next_phase(r, tb)


@njit(cache=True)
def _has_legal(r, tb, kind, s, e, pa, pb, pc, px):
    for a in range(OPTIONS[kind] - 1, -1, -1):  # from the top: "skip" and "done" are usually the last option
        if _legal(r, tb, kind, s, e, pa, pb, pc, px, a):
            return True
    return False


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
        return _has_legal(
            r, tb, kind, r.stack[j, 1], r.stack[j, 2], r.stack[j, 3], r.stack[j, 4], r.stack[j, 5], r.stack[j, 6]
        )
    if r.phase == PH_ACTIONS:
        return _next_turn_waits(r, tb)
    return r.phase == PH_DEV and r.cursor + 1 < r.n  # the next player's Income upgrade (its skip is legal)


@njit(cache=True)
def _next_turn_waits(r, tb):
    """``_next_turn`` would stop at a player's Turn decision (not the Automa's turn, a forfeit or a phase end)."""
    k, s = _next_actor(r)
    return k >= 0 and s != AUTOMA and _has_legal(r, tb, D_TURN, s, 0, 0, 0, 0, 0)


@njit(cache=True)
def _push(r, kind, s, e, a, b, c, x):
    if r.sp >= MAX_STACK:
        r.error = 2
        return
    k = r.sp
    r.stack[k, 0] = kind
    r.stack[k, 1] = s
    r.stack[k, 2] = e
    r.stack[k, 3] = a
    r.stack[k, 4] = b
    r.stack[k, 5] = c
    r.stack[k, 6] = x
    r.sp += 1


@njit(cache=True)
def _auto(r, s, e, a, b, c, x):
    _push(r, T_AUTO, s, e, a, b, c, x)


# ----------------------------------------------------------------------------- scoring


@njit(cache=True)
def menorahs(r, tb, s, out):
    """Red, yellow and blue Menorahs of seat ``s`` into ``out[0:3]``."""
    red = 0
    for k in range(6):
        if r.gdev[s, k]:
            red += tb.gdev_menorah[k]
    yellow = 0
    for k in range(6):
        if r.adev_space[s, k] >= 0:
            yellow += tb.adev_menorah[k]
    blue = 0
    for k in range(NUM_STUDY_DEVS):
        if r.sdev[s, k]:
            blue += tb.sdev_menorah[k]
    out[0] = red + (1 if r.tokens[RED] == s else 0)
    out[1] = yellow + (1 if r.tokens[YELLOW] == s else 0)
    out[2] = blue + (1 if r.tokens[BLUE] == s else 0)


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
    t = 0
    for c in range(4):
        t += r.col_len[s, c]
    return t


@njit(cache=True)
def objectives_met(r, tb, s):
    """(VP of met objectives, number met, bitmask of their types)."""
    return objectives_of(r, tb, s, gold_owned(r, s), devs_flipped(r, s), books_owned(r, s))


@njit(cache=True)
def objectives_of(r, tb, s, gold, devs, books):
    """``objectives_met`` given the seat's Gold owned, developments flipped and Books."""
    vp = 0
    met = 0
    types = 0
    for k in range(r.obj_len[s]):
        o = r.objectives[s, k]
        kind = tb.ob_type[o]
        if kind < 3:  # Students: red, yellow, blue
            value = r.student[s, kind]
        elif kind == 3:
            value = r.built[s]
        elif kind == 4:
            value = gold
        elif kind == 5:
            value = devs
        elif kind == 6:
            value = r.study[s]
        elif kind == 7:
            value = books
        else:
            value = r.killed[s]
        if value >= tb.ob_threshold[o]:
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


# ----------------------------------------------------------------------------- phase driver


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
    elif ph == PH_PLACE:
        _push(r, D_PLACE_GOLEMS, r.order[r.cursor], 0, 0, 0, 0, 0)
    elif ph == PH_MOVE:
        s = r.order[r.cursor]
        r.step_left = _level(r, tb, s) + tb.ch_move[r.palace[r.round]]
        _auto(r, s, X_OVERMOVE, 0, 0, 0, 0)
        _push(r, D_MOVE_STEP, s, 0, 0, 0, 0, 0)
        if _has_gdev(r, tb, s, E_IGNORE_CHARACTER_STEPS):
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
    if _has_legal(r, tb, D_TURN, s, 0, 0, 0, 0, 0):
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


# ----------------------------------------------------------------------------- Synagogue


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


# ----------------------------------------------------------------------------- legality


@njit(cache=True)
def _on_board(loc):
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
        return _on_board(r.golem_loc[s, a]) and r.standing[s, a] == 1 and not (pb != 0 and r.fresh[s, a] != 0)
    if kind == D_GOLEM_ACTION:
        return _golem_action_legal(r, tb, s, pb, a)
    if kind == D_ARTIFACT_ACTION:
        return _artifact_action_legal(r, tb, s, pb, a)
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
        return _upgrade_option_legal(r, tb, s, pa, pb, pc, a)
    if kind == D_CREATE:
        return a == CREATE_SKIP or (a < CREATE_SKIP and _create_legal(r, tb, s, a, pa))
    if kind == D_KILL:
        return a == KILL_SKIP or (a < KILL_SKIP and _on_board(r.golem_loc[s, a]))
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
        return a < NUM_ARTIFACT_OPTIONS and _art_need(r, tb, s, a) > 0
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
        return _on_board(loc) and r.section_tile[loc, r.golem_sec[s, a]] >= 0
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
def _artifact_action_legal(r, tb, s, pb, a):
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
def _upgrade_option_legal(r, tb, s, pa, pb, pc, a):
    """Upgrade (or Income upgrade) option ``a`` in the areas of bitmask ``pa``, discount ``pb``, any resource ``pc``."""
    if a == UPGRADE_SKIP:
        return True
    if a > UPGRADE_SKIP:
        return False
    area = 1 if a < UP_STUDY else (2 if a < UP_ART else 4)
    return (pa & area) != 0 and _upgrade_legal(r, tb, s, a, pb, pc)


@njit(cache=True)
def _step_legal(r, tb, s, g, pay, back, in_range):
    if not in_range or g >= 6 or not _on_board(r.golem_loc[s, g]):
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
        if _on_board(r.golem_loc[s, g]) and r.standing[s, g] and (fresh_ok or r.fresh[s, g] == 0):
            m += 1
    return m


@njit(cache=True)
def _create_cost(r, tb, s, dist, discount):
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
    return free and r.res[s, CLAY] >= _create_cost(r, tb, s, dist, discount)


@njit(cache=True)
def study_dev_bonus(r, tb, s, which):
    """The Study-track Development's extra Books per column (``which`` = P_STUDY_DEV_LIMIT) or Knowledge income
    (P_STUDY_DEV_INCOME) for seat ``s``: the table value once it is upgraded, else 0 (RULINGS R18a)."""
    for k in range(NUM_STUDY_DEVS):
        if r.sdev[s, k] and tb.sdev_effect[k] == E_STUDY_TRACK_BONUS:
            return tb.prm[which]
    return 0


@njit(cache=True)
def _upgrade_cost(r, tb, s, opt):
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
    cost, res = _upgrade_cost(r, tb, s, opt)
    if cost < 0:
        return False
    due = max(0, cost - discount)
    if any_res:
        return r.res[s, 0] + r.res[s, 1] + r.res[s, 2] >= due
    return r.res[s, res] >= due


@njit(cache=True)
def _book_price(r, tb, s, pos, discount, free_card):
    b = r.library[pos]
    card = 0 if free_card or tb.bk_colour[b] == BOOK_BLACK else tb.bk_cost[b]
    return max(0, card + tb.library_costs[pos] - discount)


@njit(cache=True)
def _book_legal(r, tb, s, pos, col, discount, free_card):
    if pos >= r.lib_len or col > 3:
        return False
    b = r.library[pos]
    if r.res[s, KNOWLEDGE] < _book_price(r, tb, s, pos, discount, free_card):
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
def _art_need(r, tb, s, k):
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


# ----------------------------------------------------------------------------- resolving decisions


@njit(cache=True)
def _resolve(r, tb, kind, s, e, pa, pb, pc, px, a):  # noqa: C901 - one branch per decision
    if kind == D_DRAFT:
        r.drafted[s, r.drafted_len[s]] = r.hands[s, a]
        r.drafted_len[s] += 1
        for k in range(a, r.hand_len[s] - 1):
            r.hands[s, k] = r.hands[s, k + 1]
        r.hand_len[s] -= 1
    elif kind == D_KEEP:
        _ob_append(r, r.drafted[s, a])
        for k in range(a, r.drafted_len[s] - 1):
            r.drafted[s, k] = r.drafted[s, k + 1]
        r.drafted_len[s] -= 1
        for k in range(r.drafted_len[s]):
            r.objectives[s, k] = r.drafted[s, k]
        r.obj_len[s] = r.drafted_len[s]
    elif kind == D_ARTIFACT_TILE:
        r.art_tile[s] = r.art_offer[a, 0]
        r.art_side[s] = r.art_offer[a, 1]
        for k in range(a, r.art_offer_len - 1):
            r.art_offer[k, 0] = r.art_offer[k + 1, 0]
            r.art_offer[k, 1] = r.art_offer[k + 1, 1]
        r.art_offer_len -= 1
    elif kind == D_START_TILES:
        _take_start(r, tb, s, r.start_offer[s, PAIR_A[a]])
        _take_start(r, tb, s, r.start_offer[s, PAIR_B[a]])
    elif kind == D_PLACE_GOLEMS:
        g = 0
        for dist in range(NUM_DISTRICT_OPTIONS):
            if dist != a:
                r.golem_loc[s, g] = dist
                r.golem_sec[s, g] = 1
                g += 1
    elif kind == D_IGNORE_CHAR:
        if a == IGNORE_CHARACTER:
            r.step_left -= tb.ch_move[r.palace[r.round]]
    elif kind == D_MOVE_STEP:
        _step_golem(r, tb, s, a // 2, a % 2, False)
        r.step_left -= 1
        if r.step_left > 0:
            _push(r, D_MOVE_STEP, s, 0, 0, 0, 0, 0)
    elif kind == D_TURN:
        _turn(r, tb, s, a)
    elif kind == D_BLACK_MARBLE:
        for dist in range(NUM_DISTRICT_OPTIONS):
            if dist != a:
                _move_student(r, tb, s, dist, 1)
    elif kind == D_WORK_COUNT:
        if a > 0:
            _pay(r, s, KNOWLEDGE, max(0, tb.work_costs[a - 1] - pa))
        extra = 1 if _has_gdev(r, tb, s, E_ACTIVATE_WORK_EXTRA) else 0
        if a + extra > 0:
            _push(r, D_ACTIVATE, s, 0, a + extra, 1, 0, -1)
    elif kind == D_ACTIVATE:
        if a < ACTIVATE_STOP:
            if pa > 1:
                _push(r, D_ACTIVATE, s, 0, pa - 1, pb, pc, px)
            _activate(r, tb, s, a, True)
    elif kind == D_GOLEM_ACTION:
        if a == GA_DONE:
            return
        _push(r, D_GOLEM_ACTION, s, 0, 0, pb | (1 if a < GA_CREATE else 2), 0, 0)
        if a < GA_CREATE:
            _upgrade(r, tb, s, a, 0, 0)
        else:
            _create(r, tb, s, a - GA_CREATE, 0)
    elif kind == D_ARTIFACT_ACTION:
        if a == AA_DONE:
            return
        _push(r, D_ARTIFACT_ACTION, s, 0, 0, pb | (1 if a < ART_OPTIONS else 2), 0, 0)
        if a < ART_OPTIONS:
            _upgrade(r, tb, s, UP_ART + a, 0, 0)
        else:
            _pay(r, s, COIN, tb.prm[P_GOLD_PRICE])
            _gain_gold(r, s, 1)
    elif kind == D_STUDY_ACTION:
        if a == STUDY_DONE:
            return
        _push(r, D_STUDY_ACTION, s, 0, 0, pb | (1 if a < STUDY_BUY else 2), 0, 0)
        if a < STUDY_BUY:
            _upgrade(r, tb, s, UP_STUDY + a, 0, 0)
        else:
            _buy_book(r, tb, s, (a - STUDY_BUY) // 4, (a - STUDY_BUY) % 4, 0, 0)
    elif kind == D_MIRROR:
        if a == MIRROR_DONE:
            return
        _push(r, D_MIRROR, s, 0, pa, pb | (1 if a < MIRROR_STUDY else 2), 0, 0)
        if a < MIRROR_STUDY:
            _pay(r, s, COIN, tb.prm[P_MIRROR_COST])
            _row_action(r, s, a, pa)
        else:
            _pay(r, s, COIN, tb.prm[P_MIRROR_STUDY_COST])
            _study_up(r, tb, s, 1)
    elif kind == D_CHARACTER:
        c = r.palace[r.round]
        if a == CHARACTER_PAY:
            _pay(r, s, COIN, tb.ch_cost[c])
            _effect(r, tb, s, tb.ch_effect[c], tb.ch_a[c], tb.ch_b[c], -1, 0)
        else:
            r.res[s, COIN] += tb.prm[P_CHARACTER_COINS]
    elif kind == D_UPGRADE or kind == D_INCOME_UPGRADE:
        if a != UPGRADE_SKIP:
            _upgrade(r, tb, s, a, pb, pc)
    elif kind == D_CREATE:
        if a < CREATE_SKIP:
            _create(r, tb, s, a, pa)
    elif kind == D_KILL:
        if a < KILL_SKIP:
            _push(r, D_CEMETERY_SPACE, s, 0, a, 0, 0, 0)
    elif kind == D_CEMETERY_SPACE:
        _kill(r, tb, s, pa, a)
    elif kind == D_STUDENT:
        if a < STUDENT_SKIP:
            _move_student(r, tb, s, a, 1)
    elif kind == D_GOLEM_STEP:
        if a == STEP_STOP:
            return
        g = a // 4
        _step_golem(r, tb, s, g, a % 2, (a // 2) % 2 == 1)
        if pb > 1:
            _push(r, D_GOLEM_STEP, s, 0, pa, pb - 1, pc, -1 if px == -1 else g)
    elif kind == D_BOOK:
        if a < BOOK_SKIP:
            _buy_book(r, tb, s, a // 4, a % 4, pa, pb)
    elif kind == D_STUDENT_BACK:
        r.student[s, a] -= 1
    elif kind == D_BOOK_BONUS:
        if a < BONUS_STOP:
            if pa > 1:
                _push(r, D_BOOK_BONUS, s, 0, pa - 1, pb | (1 << a), 0, 0)
            _book_effect(r, tb, s, r.col_books[s, a // 5, a % 5], 1)
    elif kind == D_OBJECTIVE:
        r.objectives[s, r.obj_len[s]] = r.drawn[a]
        r.obj_len[s] += 1
        other = r.drawn[1 - a]
        if other >= 0:
            _ob_append(r, other)
        r.drawn[0] = -1
        r.drawn[1] = -1
    elif kind == D_TRACK:
        if a == TRACK_UP:
            r.track[s] += 1
        elif a == TRACK_DOWN:
            r.track[s] -= 1
    elif kind == D_ARTIFACT_ACTIVATE:
        if a < ART_ACTIVATE_SKIP:
            _activate_artifact(r, tb, s, a)
    elif kind == D_GOLD_PLACE:
        r.art_gold[s, a] += 1
        if _art_need(r, tb, s, a) == 0:
            r.art_done[s, a] = 1
            _activate_artifact(r, tb, s, a)
    elif kind == D_CHOICE:
        r.res[s, a] += pa
    elif kind == D_CONFIRM:
        if a == CONFIRM_YES:
            _confirmed(r, tb, s, e, pa, pb, pc, px)
    elif kind == D_COPY_TILE:
        if a < COPY_SKIP:
            _tile_effect(r, tb, s, r.golem_loc[s, a], r.golem_sec[s, a])
    elif kind == D_ANY_ACTION:
        _row_action(r, s, a, pa)
    elif kind == D_REMOVE_MARBLE:
        r.syn[a // 5, a % 5] -= 1


@njit(cache=True)
def _turn(r, tb, s, a):
    if a == PASS_ACTION:
        r.passes[s] += 1
        r.act_count[s, ACT_PASS] += 1
        if r.pass_tile[s] == 0:
            m = 0
            for o in range(r.n):
                if r.pass_tile[o]:
                    m += 1
            r.pass_tile[s] = 1 + m
        return
    r.actions[s] += 1
    _auto(r, s, X_END_ACTION, 0, 0, 0, 0)
    if a < MARBLE_OPTIONS:
        row = a // 5
        colour = a % 5
        value = 0
        for c in range(5):
            value += r.syn[row, c]
        r.syn[row, colour] -= 1
        r.eyes[s, r.eyes_len[s]] = colour
        r.eyes_len[s] += 1
        r.marble_actions[s] += 1
        r.act_count[s, row] += 1
        _auto(r, s, X_ROW_ACTION, row, value, 0, 0)
        if colour == RED or colour == BLUE:
            want = E_REACTIVATE_RED_MARBLE if colour == RED else E_REACTIVATE_BLUE_MARBLE
            for k in range(4):
                if _reactivates(r, tb, s, k, want):
                    _auto(r, s, X_ACTIVATE_ART, k, 0, 0, 0)
        if colour < 3:
            _move_student(r, tb, s, colour, 1)
        elif colour == BLACK:
            _push(r, D_BLACK_MARBLE, s, 0, 0, 0, 0, 0)
        return
    slot = a - RABBI_BASE
    r.rabbi_done[s] = 1
    r.act_count[s, ACT_RABBI] += 1
    if slot == PERM_SLOT:
        r.perm_queue[r.perm_len] = s
        r.perm_len += 1
        r.rabbi_slot[s] = PERM_SLOT
        tile = NUM_ACTION_TILES
    else:
        r.rabbi_slot[s] = slot
        tile = r.at_slots[slot]
    _effect(r, tb, s, tb.at_effect[tile], tb.at_a[tile], tb.at_b[tile], -1, 0)


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


@njit(cache=True)
def _row_action(r, s, row, value):
    if row == WORK:
        _push(r, D_WORK_COUNT, s, 0, value, 0, 0, 0)
    elif row == GOLEM_ROW:
        r.res[s, CLAY] += value
        _push(r, D_GOLEM_ACTION, s, 0, 0, 0, 0, 0)
    elif row == ARTIFACTS:
        r.res[s, COIN] += value
        _push(r, D_ARTIFACT_ACTION, s, 0, 0, 0, 0, 0)
    elif row == STUDY_ROW:
        r.res[s, KNOWLEDGE] += value
        _push(r, D_STUDY_ACTION, s, 0, 0, 0, 0, 0)
    elif row == MIRROR:
        _push(r, D_MIRROR, s, 0, value, 0, 0, 0)


# ----------------------------------------------------------------------------- effects


@njit(cache=True)
def _effect(r, tb, s, e, a, b, c, x):  # noqa: C901 - the effect table
    """Apply effect ``e`` for seat ``s``; decisions and later steps go on the stack (pushed in reverse)."""
    if e == E_NONE or e == E_PLAIN:
        return
    if e == E_GAIN:
        _gain(r, tb, s, c, a)
    elif e == E_CHOICE:
        _push(r, D_CHOICE, s, 0, a, 0, 0, 0)
    elif (
        e == E_TRADE
        or e == E_PAY_FOR_VP
        or e == E_PAY_FOR_GOLD
        or e == E_PAY_FOR_STUDENTS
        or e == E_PAY_FOR_STUDY
        or e == E_PAY_FOR_VP_STUDY
        or e == E_STUDENT_BACK
        or e == E_STUDY_DOWN_VP_STUDENT
    ):
        _push(r, D_CONFIRM, s, e, a, b, c, x)
    elif e == E_STUDY_UP:
        _study_up(r, tb, s, a)
    elif e == E_STUDENT_DISTRICT:
        _move_student(r, tb, s, c, max(1, a))
    elif e == E_STUDENT_ANY:
        for _ in range(a):
            _push(r, D_STUDENT, s, 0, 0, 0, 0, 0)
    elif e == E_GOLEM_TRACK:
        for _ in range(max(1, a)):
            _push(r, D_TRACK, s, 0, 0, 0, 0, 0)
    elif e == E_KILL_GOLEM:
        _push(r, D_KILL, s, 0, 0, 0, 0, 0)
    elif e == E_UPGRADE:
        _push(r, D_UPGRADE, s, 0, 7, a, 0, 0)
    elif e == E_CREATE_GOLEM:
        _push(r, D_CREATE, s, 0, a, 0, 0, 0)
    elif e == E_KILL_VP_PER_LEVEL:
        _auto(r, s, X_VP_PER_LEVEL, a, 0, 0, 0)
        _push(r, D_KILL, s, 0, 0, 0, 0, 0)
    elif e == E_UPGRADE_GOLEM:
        _push(r, D_UPGRADE, s, 0, 1, a, 0, 0)
    elif e == E_CREATE_GOLEM_VP_PER_LEVEL:
        _auto(r, s, X_VP_PER_LEVEL, b, 0, 0, 0)
        _push(r, D_CREATE, s, 0, a, 0, 0, 0)
    elif e == E_UPGRADE_ARTIFACT:
        _push(r, D_UPGRADE, s, 0, 4, a, 0, 0)
    elif e == E_KILL_GAIN:
        _auto(r, s, X_GAIN, a, 0, c, 0)
        _push(r, D_KILL, s, 0, 0, 0, 0, 0)
    elif e == E_OBJECTIVE_GAIN:
        _gain(r, tb, s, c, b)
        _draw_objectives(r, s, a)
    elif e == E_ACTIVATE_ARTIFACT:
        for _ in range(max(1, a)):
            _push(r, D_ARTIFACT_ACTIVATE, s, 0, 0, 0, 0, 0)
    elif e == E_STUDENT_INCOME:
        _student_income(r, tb, s)
    elif e == E_BUY_BOOK:
        _push(r, D_BOOK, s, 0, a, 0, 0, 0)
    elif e == E_UPGRADE_STUDY:
        _push(r, D_UPGRADE, s, 0, 2, a, 0, 0)
    elif e == E_BOOK_BONUSES:
        _push(r, D_BOOK_BONUS, s, 0, a, 0, 0, 0)
    elif e == E_TRACK_VP_KNOWLEDGE:
        _auto(r, s, X_KNOW_PER_LEVEL, b, 0, 0, 0)
        _auto(r, s, X_VP_PER_LEVEL, a, 0, 0, 0)
        _push(r, D_TRACK, s, 0, 0, 0, 0, 0)
    elif e == E_GOLD_VP_PER_ARTIFACT:
        _auto(r, s, X_VP_PER_ARTIFACT, b, 0, 0, 0)
        _auto(r, s, X_GOLD, a, 0, 0, 0)
    elif e == E_CLAY_CREATE_MOVE:
        r.res[s, CLAY] += a
        _push(r, D_GOLEM_STEP, s, 0, 1, max(1, b), 1, -1)
        _push(r, D_CREATE, s, 0, 0, 0, 0, 0)
    elif e == E_BUY_BOOK_FREE_CARD:
        _push(r, D_BOOK, s, 0, a, 1, 0, 0)
    elif e == E_KILL_VP_CLAY_PER_CEMETERY:
        _auto(r, s, X_VP_CEMETERY, a, b, 0, 0)
        _push(r, D_KILL, s, 0, 0, 0, 0, 0)
    elif e == E_UPGRADE_ANY_RESOURCES:
        _push(r, D_UPGRADE, s, 0, 7, a, 1, 0)
    elif e == E_MOVE_ACTIVATE_FREE_CONTROL:
        r.free_control[s] = 1
        r.last_stepped = -1
        _auto(r, s, X_ACTIVATE_GOLEM, 0, 0, 0, 0)
        _push(r, D_GOLEM_STEP, s, 0, 0, a, 1, -2)
    elif e == E_MOVE_TWO_ACTIVATE:
        _push(r, D_ACTIVATE, s, 0, max(1, b), 0, 0, -1)
        _push(r, D_GOLEM_STEP, s, 0, 1, a, 1, -1)
    elif e == E_STUDY_BOOK_BONUS:
        _study_up(r, tb, s, a)
        _push(r, D_BOOK_BONUS, s, 0, max(1, b), 0, 0, 0)
    elif e == E_COPY_TILE:
        _push(r, D_COPY_TILE, s, 0, 0, 0, 0, 0)
    elif e == E_RESOURCES_OBJECTIVE:
        for res in range(3):
            r.res[s, res] += a
        _draw_objectives(r, s, b)
    elif e == E_STUDENT_VP_LEFTMOST:
        _auto(r, s, X_VP_LEFTMOST, b, 0, 0, 0)
        _push(r, D_STUDENT, s, 0, 0, 0, 0, 0)
    elif e == E_ANY_MARBLE_ACTION:
        _push(r, D_ANY_ACTION, s, 0, a, 0, 0, 0)
    elif e == E_UPGRADE_ANY_VP:
        r.vp[s] += b
        _push(r, D_UPGRADE, s, 0, 7, a, 1, 0)
    elif e == E_GOLEM_STEP_ACTIVATE:
        _push(r, D_ACTIVATE, s, 0, max(1, b), 0, 0, -1)
        _push(r, D_GOLEM_STEP, s, 0, 1, max(1, a), 0, -1)
    elif e == E_GAIN_GOLD:
        _gain_gold(r, s, a)
    elif e == E_CREATE_GOLEM_RED_STUDENT:
        _auto(r, s, X_STUDENT, b, 0, RED, 0)
        _push(r, D_CREATE, s, 0, a, 0, 0, 0)
    elif e == E_STUDY_BLUE_STUDENT:
        _study_up(r, tb, s, a)
        _move_student(r, tb, s, BLUE, b)
    elif e == E_GOLD_YELLOW_STUDENT:
        _auto(r, s, X_STUDENT, b, 0, YELLOW, 0)
        _auto(r, s, X_GOLD, a, 0, 0, 0)
    elif e == E_VP_PER_DEVELOPMENT:
        r.vp[s] += a * devs_flipped(r, s)
    elif e == E_VP_TIMES_LEFTMOST:
        r.vp[s] += a * min(r.student[s, 0], min(r.student[s, 1], r.student[s, 2]))
    elif e == E_VP_PER_TRACK_LEVEL:
        r.vp[s] += a * _level(r, tb, s)
    elif e == E_VP_BUY_BOOK:
        r.vp[s] += a
        _push(r, D_BOOK, s, 0, b, 0, 0, 0)
    elif e == E_KILL_VP_PER_CEMETERY:
        _auto(r, s, X_VP_CEMETERY, a, 0, 0, 0)
        _push(r, D_KILL, s, 0, 0, 0, 0, 0)
    elif e == X_VP_PER_LEVEL:
        r.vp[s] += a * _level(r, tb, s)
    elif e == X_KNOW_PER_LEVEL:
        r.res[s, KNOWLEDGE] += a * _level(r, tb, s)
    elif e == X_VP_CEMETERY:
        r.vp[s] += a * r.cemetery_count[s]
        r.res[s, CLAY] += b * r.cemetery_count[s]
    elif e == X_VP_LEFTMOST:
        r.vp[s] += max(1, a) * min(r.student[s, 0], min(r.student[s, 1], r.student[s, 2]))
    elif e == X_VP_PER_ARTIFACT:
        done = 0
        for k in range(4):
            done += r.art_done[s, k]
        r.vp[s] += a * done
    elif e == X_ROW_ACTION:
        _row_action(r, s, a, b)
    elif e == X_STUDENT:
        _move_student(r, tb, s, c, a)
    elif e == X_GAIN:
        _gain(r, tb, s, c, a)
    elif e == X_ACTIVATE_ART:
        _activate_artifact(r, tb, s, a)
    elif e == X_END_ACTION:
        for g in range(6):
            r.fresh[s, g] = 0
    elif e == X_ACTIVATE_GOLEM:  # the Golem moved, or with no step taken ("up to 4") any standing Golem (R37)
        g = r.last_stepped
        if g < 0:
            _push(r, D_ACTIVATE, s, 0, 1, 0, 0, -1)
        elif _on_board(r.golem_loc[s, g]) and r.standing[s, g]:
            _push(r, D_ACTIVATE, s, 0, 1, 0, 0, g)
    elif e == X_GOLD:
        _gain_gold(r, s, a)
    elif e == X_GOLD_PIECE:
        _gold_piece(r, tb, s)
    elif e == X_OVERMOVE:
        _overmove(r, tb, s)
    elif e == X_REDROP:
        _redrop(r, tb)
    elif e == X_AFTER_BOOK:
        _after_book(r, tb, s, a, b)
    elif e == X_TILE:
        # the tile's effect runs as the next step (no recursion: numba cannot cache recursive functions)
        tile = r.section_tile[a, b]
        if tile >= 0:
            _auto(r, s, tb.nb_effect[a, tile], tb.nb_a[a, tile], tb.nb_b[a, tile], tb.nb_res[a, tile], a)
    else:
        r.error = 3


@njit(cache=True)
def _confirmed(r, tb, s, e, a, b, c, x):
    if e == E_TRADE:
        _pay(r, s, c, a)
        _gain(r, tb, s, x, b)
    elif e == E_PAY_FOR_VP:
        _pay(r, s, c, a)
        r.vp[s] += b
    elif e == E_PAY_FOR_GOLD:
        _pay(r, s, c, a)
        _gain_gold(r, s, b)
    elif e == E_PAY_FOR_STUDENTS:
        _pay(r, s, c, a)
        for _ in range(b):
            _push(r, D_STUDENT, s, 0, 0, 0, 0, 0)
    elif e == E_PAY_FOR_STUDY:
        _pay(r, s, c, a)
        _study_up(r, tb, s, b)
    elif e == E_PAY_FOR_VP_STUDY:
        _pay(r, s, c, a)
        r.vp[s] += b
        _study_up(r, tb, s, 1)
    elif e == E_STUDENT_BACK:
        r.student[s, x] -= 1
        r.vp[s] += a
        _gain(r, tb, s, c, b)
    elif e == E_STUDY_DOWN_VP_STUDENT:
        r.study[s] -= 1
        r.vp[s] += a
        for _ in range(b):
            _push(r, D_STUDENT, s, 0, 0, 0, 0, 0)
    elif e == E_CREATE_STEP_ACTIVATE:  # the new Golem x in district a: one step, its tile without lying down
        r.golem_sec[s, x] += 1
        _auto(r, s, X_TILE, a, r.golem_sec[s, x], 0, 0)


@njit(cache=True)
def _gain(r, tb, s, res, amount):
    if res < 0 or amount <= 0:
        return
    if res < 3:
        r.res[s, res] += amount
    elif res == GOLD:
        _gain_gold(r, s, amount)
    elif res == VP:
        r.vp[s] += amount
    elif res == STUDY:
        _study_up(r, tb, s, amount)


@njit(cache=True)
def _pay(r, s, res, amount):
    if r.res[s, res] < amount:
        r.error = 4
    r.res[s, res] -= amount


@njit(cache=True)
def _lose_vp(r, tb, s, amount):
    lost = min(amount, r.vp[s]) if tb.prm[P_VP_FLOOR_ZERO] else amount
    r.vp[s] -= lost
    return lost


@njit(cache=True)
def _gain_gold(r, s, amount):
    for _ in range(amount):
        _auto(r, s, X_GOLD_PIECE, 0, 0, 0, 0)


@njit(cache=True)
def _gold_piece(r, tb, s):
    if r.gold_supply == 0:
        return
    r.gold_supply -= 1
    for k in range(4):
        if _art_need(r, tb, s, k) > 0:
            _push(r, D_GOLD_PLACE, s, 0, 0, 0, 0, 0)
            return
    r.loose_gold[s] += 1


@njit(cache=True)
def _study_up(r, tb, s, steps):
    r.study[s] = min(tb.prm[P_STUDY_TRACK_LEN] - 1, r.study[s] + steps)


@njit(cache=True)
def _move_student(r, tb, s, dist, steps):
    for _ in range(steps):
        if r.student[s, dist] >= NUM_SECTIONS:
            return
        r.student[s, dist] += 1
        if r.student[s, dist] == tb.prm[P_MENORAH_SECTION] and r.tokens[dist] < 0:
            r.tokens[dist] = s


@njit(cache=True)
def _level(r, tb, s):
    return tb.gt_level[r.track[s]]


@njit(cache=True)
def _has_gdev(r, tb, s, effect):
    for k in range(6):
        if tb.gdev_effect[k] == effect:
            return r.gdev[s, k] == 1
    return False


@njit(cache=True)
def _reactivates(r, tb, s, k, effect):
    if r.art_done[s, k] == 0:
        return False
    for tile in range(5):
        if r.adev_space[s, tile] == k and tb.adev_effect[tile, r.adev_side[s, tile]] == effect:
            return True
    return False


@njit(cache=True)
def _take_start(r, tb, s, tile):
    for res in range(3):
        r.res[s, res] += tb.start_tiles[tile, res]
    r.vp[s] += tb.start_tiles[tile, 4]
    _study_up(r, tb, s, tb.start_tiles[tile, 5])
    for dist in range(3):
        _move_student(r, tb, s, dist, tb.start_tiles[tile, 6 + dist])
    r.kept_starts[s, r.kept_len[s]] = tile
    r.kept_len[s] += 1
    if tb.start_tiles[tile, 3]:
        _gain_gold(r, s, tb.start_tiles[tile, 3])


@njit(cache=True)
def _draw_objectives(r, s, count):
    r.drawn[0] = -1
    r.drawn[1] = -1
    m = min(count, min(2, r.ob_len))
    for k in range(m):
        r.drawn[k] = _ob_pop(r)
    if r.drawn[0] >= 0:
        _push(r, D_OBJECTIVE, s, 0, 0, 0, 0, 0)


@njit(cache=True)
def _student_income(r, tb, s):
    for dist in range(3):
        sec = r.student[s, dist] - 1
        r.res[s, dist] += tb.street_res[sec]
        r.vp[s] += tb.street_vp[sec]


# ----------------------------------------------------------------------------- golems


@njit(cache=True)
def _step_golem(r, tb, s, g, pay, back):
    r.last_stepped = g
    r.standing[s, g] = 1
    if back:
        r.golem_sec[s, g] -= 1
        return
    cost = tb.street_entry[r.golem_sec[s, g]]
    r.golem_sec[s, g] += 1
    if cost:
        if pay:
            _pay(r, s, KNOWLEDGE, cost)
        else:
            r.stats[ST_VP_SECTIONS, s] += _lose_vp(r, tb, s, cost)


@njit(cache=True)
def _overmove(r, tb, s):
    left = r.step_left
    r.step_left = 0
    on_board = 0
    for g in range(6):
        if _on_board(r.golem_loc[s, g]):
            on_board += 1
    if left <= 0 or on_board == 0:
        return
    per = 1 if tb.prm[P_OVERMOVE_ONE] else tb.prm[P_OVERMOVE_PENALTY]
    loss = min(left * per, tb.prm[P_OVERMOVE_PENALTY] * on_board)
    r.stats[ST_VP_OVERMOVE, s] += _lose_vp(r, tb, s, loss)


@njit(cache=True)
def _create(r, tb, s, dist, discount):
    _pay(r, s, CLAY, _create_cost(r, tb, s, dist, discount))
    g = 2
    while r.golem_loc[s, g] != OFF_BOARD:
        g += 1
    r.golem_loc[s, g] = dist
    r.golem_sec[s, g] = 1
    r.standing[s, g] = 1
    r.fresh[s, g] = 1
    r.built[s] += 1
    r.track[s] = min(tb.prm[P_GOLEM_TRACK_LEN] - 1, r.track[s] + tb.prm[P_TRACK_CREATE])
    for k in range(4):
        if _reactivates(r, tb, s, k, E_REACTIVATE_CREATE_GOLEM):
            _auto(r, s, X_ACTIVATE_ART, k, 0, 0, 0)
    if _has_gdev(r, tb, s, E_CREATE_STEP_ACTIVATE):  # the Development's "may": the step is confirmed (R27)
        _push(r, D_CONFIRM, s, E_CREATE_STEP_ACTIVATE, dist, 0, 0, g)


@njit(cache=True)
def _kill(r, tb, s, g, space):
    r.golem_loc[s, g] = CEMETERY
    r.golem_sec[s, g] = 0
    if tb.cem_unlimited[space] == 0:
        r.cemetery[space] = s
    r.cemetery_count[s] += 1
    r.killed[s] += 1
    r.track[s] = max(0, r.track[s] - tb.prm[P_TRACK_KILL])
    times = 2 if _has_gdev(r, tb, s, E_KILL_DOUBLE_CEMETERY) else 1
    for res in range(3):
        r.res[s, res] += tb.cem_bonus[space, res] * times
    r.vp[s] += tb.cem_bonus[space, 4] * times
    if tb.cem_bonus[space, 3]:
        _gain_gold(r, s, tb.cem_bonus[space, 3] * times)


@njit(cache=True)
def _activate(r, tb, s, g, lie_down):
    if lie_down:
        r.standing[s, g] = 0
    _tile_effect(r, tb, s, r.golem_loc[s, g], r.golem_sec[s, g])


@njit(cache=True)
def _tile_effect(r, tb, s, dist, sec):
    tile = r.section_tile[dist, sec]
    if tile < 0:
        return
    _effect(r, tb, s, tb.nb_effect[dist, tile], tb.nb_a[dist, tile], tb.nb_b[dist, tile], tb.nb_res[dist, tile], dist)


@njit(cache=True)
def _income(r, tb):
    for i in range(r.n):
        s = r.order[i]
        _student_income(r, tb, s)
        for k in range(4):
            if r.art_done[s, k]:
                _activate_artifact(r, tb, s, k)
        r.res[s, KNOWLEDGE] += tb.sd_income[r.study[s]] + study_dev_bonus(r, tb, s, P_STUDY_DEV_INCOME)
        r.res[s, CLAY] += tb.gt_clay[r.track[s]]
        r.vp[s] += tb.gt_vp[r.track[s]]


@njit(cache=True)
def _control(r, tb):
    for s in range(r.n):
        control_seat(r, tb, s)


@njit(cache=True)
def control_seat(r, tb, s):
    """Golem Control of seat ``s``: Knowledge for each Golem ahead of its Student, cheapest first, 5 VP for each one
    not paid for. Changes the seat's Knowledge, VP and control statistics, and ``tmp[0:6]``."""
    if r.free_control[s]:
        return
    cap = 2 if _has_gdev(r, tb, s, E_CONTROL_CAP_2) else 99
    m = 0
    for g in range(6):
        loc = r.golem_loc[s, g]
        if _on_board(loc):
            cost = min(cap, max(0, r.golem_sec[s, g] - r.student[s, loc]))
            # insertion into the sorted costs r.tmp[:m]
            j = m
            while j > 0 and r.tmp[j - 1] > cost:
                r.tmp[j] = r.tmp[j - 1]
                j -= 1
            r.tmp[j] = cost
            m += 1
    unpaid = 0
    for j in range(m):
        cost = r.tmp[j]
        if r.res[s, KNOWLEDGE] >= cost:
            r.res[s, KNOWLEDGE] -= cost
            r.stats[ST_KNOW_CONTROL, s] += cost
        else:
            unpaid += 1
    if unpaid:
        r.stats[ST_KNOW_CONTROL, s] += r.res[s, KNOWLEDGE]
        r.res[s, KNOWLEDGE] = 0
        r.stats[ST_VP_CONTROL, s] += _lose_vp(r, tb, s, unpaid * tb.prm[P_CONTROL_PENALTY])


# ----------------------------------------------------------------------------- developments, artifacts, books


@njit(cache=True)
def _upgrade(r, tb, s, opt, discount, any_res):
    cost, res = _upgrade_cost(r, tb, s, opt)
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
def _activate_artifact(r, tb, s, k):
    t = r.art_tile[s]
    side = r.art_side[s]
    r.res[s, CLAY] += tb.art[t, side, k, 1]
    r.res[s, COIN] += tb.art[t, side, k, 2]
    r.res[s, KNOWLEDGE] += tb.art[t, side, k, 3]
    r.vp[s] += tb.art[t, side, k, 4]
    _study_up(r, tb, s, tb.art[t, side, k, 5])
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
    _pay(r, s, KNOWLEDGE, _book_price(r, tb, s, pos, discount, free_card))
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
def _book_effect(r, tb, s, b, which):
    e = tb.bk_effect[b, which]
    if e == E_TRADE:
        _effect(r, tb, s, e, tb.bk_a[b, which], tb.bk_a2[b], tb.bk_res[b, which], tb.bk_res2[b])
    else:
        _effect(r, tb, s, e, tb.bk_a[b, which], 0, tb.bk_res[b, which], 0)


@njit(cache=True)
def _after_book(r, tb, s, col, first):
    """Steps after tucking a Book (pushed in reverse of the order they run; see reference ``_after_book``)."""
    b = r.col_books[s, col, r.col_len[s, col] - 1]
    dev = tb.sdev_effect[col] if r.sdev[s, col] else 0
    if first:
        for k in range(3, -1, -1):
            if _reactivates(r, tb, s, k, E_REACTIVATE_FIRST_BOOK):
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


# ----------------------------------------------------------------------------- one game of a batch (from Python)


@njit(cache=True)
def init_one(st, g, tab, n, setup_seed, play_seed):
    """``init_game`` on record ``g`` of batch ``st`` (``tab``: the packed tables, ``GolemData.kernel``)."""
    init_game(st[g], tab[0], n, setup_seed, play_seed)


@njit(cache=True)
def mask_one(st, g, tab, out):
    """``legal_mask`` of record ``g``."""
    return legal_mask(st[g], tab[0], out)


@njit(cache=True)
def apply_one(st, g, tab, a):
    """``apply_action`` on record ``g``."""
    apply_action(st[g], tab[0], a)
