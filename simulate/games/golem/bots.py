"""Golem bots: numba functions choosing the action of the seat to move.

Every decision of the engine is one small integer choice, so all heuristic bots share one method:
try each legal action on a copy of the game record (the engine runs on to the next decision) and
keep the action whose resulting position the bot values most (ties broken by the play stream). The
bots differ only in their valuation, a named weight vector (``BOTS``): the exact points scored now
(in-game VP plus what final scoring would give at this moment) plus, while rounds remain, weights on
resources, Gold, Students, the Study track, the three Menorah lines and the Golem Control shortfall.
Small Artifact Development tiles are only tried on the cheapest free space (both sides): the
valuation cannot tell the spaces apart except by their cost. Where the played position differs from
the current one only by a few known fields, the option is valued without playing it, on the record
itself, which gets its fields back: a marble of the Turn decision (``marble_value``), a development
upgrade of a Rabbi action or of the Income phase (``upgrade_value``) and a Move step that is not the
move's last (``step_value``). Each gives the same number the played position gets (tested), so the
bots' decisions are those of playing every option.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem.data import ARTIFACTS as ARTIFACTS_ROW
from simulate.games.golem.data import (
    BLACK,
    BLUE,
    CLAY,
    COIN,
    GOLEM_ROW,
    KNOWLEDGE,
    NUM_SECTIONS,
    P_LEFTOVER_PER_VP,
    P_MENORAH_SECTION,
    RED,
    STUDY_ROW,
    YELLOW,
)
from simulate.games.golem.engine import (
    ART_OPTIONS,
    D_ARTIFACT_ACTION,
    D_GOLEM_ACTION,
    D_INCOME_UPGRADE,
    D_MOVE_STEP,
    D_STUDY_ACTION,
    D_TURN,
    D_UPGRADE,
    E_REACTIVATE_BLUE_MARBLE,
    E_REACTIVATE_RED_MARBLE,
    OPTIONS,
    PH_DEV,
    ST_VP_SECTIONS,
    UPGRADE_SKIP,
    _has_gdev,
    _has_legal,
    _on_board,
    _reactivates,
    _step_golem,
    _upgrade_cost,
    apply_action,
    current_player,
    legal_mask,
    objectives_met,
)
from simulate.games.golem.engine import E_CONTROL_CAP_2 as CAP_DEV
from simulate.rng import randint

RANDOM, GREEDY, GOLEMS, ARTIFACTS, BOOKS, BALANCED = range(6)
# the resource a marble row gives before its decision (``engine._row_action``); -1 for Work and Mirror
ROW_RESOURCE = np.full(5, -1, np.int64)
ROW_RESOURCE[GOLEM_ROW] = CLAY
ROW_RESOURCE[ARTIFACTS_ROW] = COIN
ROW_RESOURCE[STUDY_ROW] = KNOWLEDGE
PARAM_NAMES = ("resource", "gold", "student", "study", "red", "yellow", "blue", "control")
MAX_BOT_PARAMS = len(PARAM_NAMES)  # 8, the weight tuple of ``choose``
_HELP = {
    "resource": "points a Clay, Coin or Knowledge is worth, scaled by the share of rounds left",
    "gold": "points a Gold is worth (scaled likewise)",
    "student": "points per section a Student has advanced (scaled likewise)",
    "study": "points per Study track step (scaled likewise)",
    "red": "points per red Menorah and per created Golem, beyond their product (scaled likewise)",
    "yellow": "points per yellow Menorah and per completed Artifact (scaled likewise)",
    "blue": "points per blue Menorah and per Book column, and a third of it per Book (scaled likewise)",
    "control": "points lost per Knowledge missing for the next Golem Control",
}


# lowest and highest value a parameter accepts: every weight is a non-negative number of points
LIMITS: dict[str, tuple[float, float]] = {name: (0.0, 20.0) for name in PARAM_NAMES}


def _params(**values: float) -> dict[str, tuple[float, str]]:
    return {k: (float(values.get(k, 0.0)), _HELP[k]) for k in PARAM_NAMES}


# name -> (id, description, {param: (default, help)})
BOTS: dict[str, tuple[int, str, dict[str, tuple[float, str]]]] = {
    "random": (RANDOM, "uniform over the legal actions", {}),
    "greedy": (
        GREEDY,
        "the action giving the most points now, plus resource and Gold value",
        _params(resource=0.3, gold=0.6),
    ),
    "golems": (
        GOLEMS,
        "pursues the red line: creates Golems and Golem Developments",
        _params(resource=0.3, gold=0.3, student=0.3, study=0.1, red=1.6, yellow=0.2, blue=0.2, control=1.0),
    ),
    "artifacts": (
        ARTIFACTS,
        "pursues the yellow line: Gold, Artifacts and Artifact Developments",
        _params(resource=0.3, gold=1.0, student=0.3, study=0.1, red=0.2, yellow=1.6, blue=0.2, control=1.0),
    ),
    "books": (
        BOOKS,
        "pursues the blue line: Books in several columns, Study Developments and the Study track",
        _params(resource=0.3, gold=0.3, student=0.3, study=0.5, red=0.2, yellow=0.2, blue=1.6, control=1.0),
    ),
    "balanced": (
        BALANCED,
        "weighs all three lines toward the final multipliers with weights tuned against the line bots "
        "(strong reference)",
        _params(resource=0.17, gold=0.3, student=3.2, study=0.01, red=2.7, yellow=0.08, blue=0.33, control=0.45),
    ),
}


@njit(cache=True)
def value(r, tb, s, w):
    """Seat ``s``'s valuation of position ``r`` under weights ``w`` (PARAM_NAMES order; array or tuple)."""
    red = 1 if r.tokens[RED] == s else 0
    for k in range(6):
        if r.gdev[s, k]:
            red += tb.gdev_menorah[k]
    yellow = 1 if r.tokens[YELLOW] == s else 0
    for k in range(6):
        if r.adev_space[s, k] >= 0:
            yellow += tb.adev_menorah[k]
    blue = 1 if r.tokens[BLUE] == s else 0
    for k in range(5):
        if r.sdev[s, k]:
            blue += tb.sdev_menorah[k]
    cols = 0
    books = 0
    for c in range(4):
        if r.col_len[s, c] > 0:
            cols += 1
        books += r.col_len[s, c]
    arts = 0
    gold = 0
    for k in range(4):
        arts += r.art_done[s, k]
        if r.art_done[s, k] == 0:
            gold += r.art_gold[s, k]
    obj_vp, met, types = objectives_met(r, tb, s)
    ntypes = 0
    for k in range(9):
        ntypes += (types >> k) & 1
    res = r.res[s, 0] + r.res[s, 1] + r.res[s, 2]
    v = float(r.vp[s] + r.built[s] * red + arts * yellow + cols * blue + tb.sd_vp[r.study[s]] + obj_vp)
    v += tb.objective_type_vp[min(ntypes, 4)] + res / tb.prm[P_LEFTOVER_PER_VP]
    f = (4 - r.round) / 4.0
    if f <= 0.0:
        return v
    steps = r.student[s, 0] + r.student[s, 1] + r.student[s, 2] - 3
    v += f * (w[0] * res + w[1] * gold + w[2] * steps + w[3] * r.study[s])
    v += f * (w[4] * (red + r.built[s]) + w[5] * (yellow + arts) + w[6] * (blue + cols + books / 3.0))
    if w[7] > 0.0:
        cap = 2 if _has_gdev(r, tb, s, CAP_DEV) else 99
        need = 0
        for g in range(6):
            loc = r.golem_loc[s, g]
            if _on_board(loc):
                need += min(cap, max(0, r.golem_sec[s, g] - r.student[s, loc]))
        short = need - r.res[s, KNOWLEDGE]
        if short > 0:
            v -= w[7] * short
    return v


@njit(cache=True)
def choose(r, tb, bot, w, pad):
    """The action of bot ``bot`` (weights ``w``, a tuple in PARAM_NAMES order) for the seat to move; ``pad`` is the
    scratch record (``state.PAD``)."""
    mask = pad.mask
    count = legal_mask(r, tb, mask)
    kind = r.stack[r.sp - 1, 0]
    options = OPTIONS[kind]  # ``legal_mask`` leaves the options from here on illegal
    if count == 1 or bot == RANDOM:
        k = 0 if count == 1 else randint(r.rng, 0, count)
        for a in range(options):
            if mask[a]:
                if k == 0:
                    return a
                k -= 1
    s = current_player(r)
    first = 0  # the first small Artifact Development option of this decision, 0 if none
    if kind == D_ARTIFACT_ACTION:
        first = 1
    elif kind == D_UPGRADE or kind == D_INCOME_UPGRADE:
        first = 12
    cheapest = _cheapest_space(r, tb, s) if first else -1
    # Turn: the marble colours that reactivate an Artifact (those marbles are played on the copy)
    react_red = kind == D_TURN and _reactivating(r, tb, s, RED)
    react_blue = kind == D_TURN and _reactivating(r, tb, s, BLUE)
    upgrades = upgrade_options(r, kind)
    copies = pad.copy
    copy = copies[0]
    best = -1e18
    best_a = -1
    ties = 0
    for a in range(options):
        if not mask[a]:
            continue
        if first and first <= a < first + 40 and ((a - first) // 2) % 4 != cheapest:
            continue
        direct = False
        v = 0.0
        if kind == D_TURN and a < 25:
            colour = a % 5
            if not ((colour == RED and react_red) or (colour == BLUE and react_blue)):
                direct = True
                v = marble_value(r, tb, s, w, a)
        else:
            direct, v = direct_value(r, tb, s, w, kind, a, upgrades)
        if not direct:
            copies[0] = r
            apply_action(copy, tb, a)
            v = value(copy, tb, s, w)
        if v > best + 1e-9:
            best = v
            best_a = a
            ties = 1
        elif v > best - 1e-9:
            ties += 1
            if randint(r.rng, 0, ties) == 0:
                best_a = a
    return best_a


@njit(cache=True)
def _reactivating(r, tb, s, colour):
    """A marble of ``colour`` reactivates one of seat ``s``'s Artifacts (``engine._turn``)."""
    if colour != RED and colour != BLUE:
        return False
    want = E_REACTIVATE_RED_MARBLE if colour == RED else E_REACTIVATE_BLUE_MARBLE
    for k in range(4):
        if _reactivates(r, tb, s, k, want):
            return True
    return False


@njit(cache=True)
def marble_value(r, tb, s, w, a):
    """``value`` after Turn option ``a`` (a marble that reactivates no Artifact) without playing it.

    ``engine._turn`` and ``advance`` stop at the row's own decision (it always has a legal "done") or at
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
    """(True, ``value`` after option ``a`` of decision ``kind``) for the options valued without play: an upgrade
    among the first ``upgrades`` options (``upgrade_options``), a Move step that is not the last; else (False, 0)."""
    if a < upgrades:
        if kind == D_GOLEM_ACTION:
            return True, upgrade_value(r, tb, s, w, a, 0, 0)
        if kind == D_STUDY_ACTION:
            return True, upgrade_value(r, tb, s, w, 6 + a, 0, 0)
        if kind == D_ARTIFACT_ACTION:
            return True, upgrade_value(r, tb, s, w, 11 + a, 0, 0)
        return True, upgrade_value(r, tb, s, w, a, r.stack[r.sp - 1, 4], r.stack[r.sp - 1, 5])
    if kind == D_MOVE_STEP and r.step_left > 1:
        return step_value(r, tb, s, w, a)
    return False, 0.0


@njit(cache=True)
def step_value(r, tb, s, w, a):
    """(True, ``value`` after Move step ``a``) without playing it, for a step that is not the move's last; (False, 0)
    when no step would be legal after it (the engine would then run on past the move: play it instead).

    ``engine._step_golem`` takes the step on ``r``, which gets back every field it changes.
    """
    g = a // 2
    last = r.last_stepped
    standing = r.standing[s, g]
    sec = r.golem_sec[s, g]
    vp = r.vp[s]
    knowledge = r.res[s, KNOWLEDGE]
    lost = r.stats[ST_VP_SECTIONS, s]
    error = r.error
    _step_golem(r, tb, s, g, a % 2, False)
    r.step_left -= 1
    ok = _has_legal(r, tb, D_MOVE_STEP, s, 0, 0, 0, 0, 0)
    v = value(r, tb, s, w) if ok else 0.0
    r.step_left += 1
    r.last_stepped = last
    r.standing[s, g] = standing
    r.golem_sec[s, g] = sec
    r.vp[s] = vp
    r.res[s, KNOWLEDGE] = knowledge
    r.stats[ST_VP_SECTIONS, s] = lost
    r.error = error
    return ok, v


@njit(cache=True)
def upgrade_options(r, kind):
    """How many first options of decision ``kind`` are upgrades that ``upgrade_value`` values without play.

    After such an upgrade the engine stops at once without running anything else: a Rabbi action's own decision
    is pushed again (its "done" is always legal), and an Income upgrade other than the last player's is followed by
    the next player's (the last one's leads to Golem Control and the next round, so it is played on the copy).
    """
    if kind == D_GOLEM_ACTION:
        return 6
    if kind == D_STUDY_ACTION:
        return 5
    if kind == D_ARTIFACT_ACTION:
        return ART_OPTIONS
    if kind == D_INCOME_UPGRADE and r.phase == PH_DEV and r.sp == 1 and r.cursor + 1 < r.n:
        return UPGRADE_SKIP
    return 0


@njit(cache=True)
def upgrade_value(r, tb, s, w, opt, discount, any_res):
    """``value`` after seat ``s`` upgrades development ``opt`` (``engine._upgrade``) without playing it.

    Pays as ``_upgrade`` does and flips the development on ``r`` for the valuation, then gives both back. The two
    Golem Developments that push a decision (a kill, an activation) change nothing before that decision.
    """
    cost, res = _upgrade_cost(r, tb, s, opt)
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
    tile = -1
    if opt < 6:
        r.gdev[s, opt] = 1
    elif opt < 11:
        r.sdev[s, opt - 6] = 1
    elif opt == 11:
        tile = 5
        r.adev_space[s, 5] = 0
    else:
        tile = (opt - 12) // 8
        side = r.adev_side[s, tile]
        r.adev_space[s, tile] = ((opt - 12) // 2) % 4
        r.adev_side[s, tile] = (opt - 12) % 2
    v = value(r, tb, s, w)
    if opt < 6:
        r.gdev[s, opt] = 0
    elif opt < 11:
        r.sdev[s, opt - 6] = 0
    else:
        r.adev_space[s, tile] = -1
        if tile < 5:
            r.adev_side[s, tile] = side
    r.res[s, 0] += paid0
    r.res[s, 1] += paid1
    r.res[s, 2] += paid2
    return v


@njit(cache=True)
def _cheapest_space(r, tb, s):
    """The free Artifact space with the lowest development cost for seat ``s`` (-1 if none)."""
    if r.art_tile[s] < 0:
        return -1
    best = -1
    for space in range(4):
        taken = False
        for t in range(5):
            if r.adev_space[s, t] == space:
                taken = True
        if not taken and (
            best < 0 or tb.art[r.art_tile[s], r.art_side[s], space, 6] < tb.art[r.art_tile[s], r.art_side[s], best, 6]
        ):
            best = space
    return best


def bot_params(name: str, overrides: dict[str, float] | None = None) -> np.ndarray:
    """The weight vector of bot ``name`` with ``overrides`` applied (unknown names raise ValueError)."""
    _, _, params = BOTS[name]
    out = np.zeros(MAX_BOT_PARAMS)
    for k, (default, _) in params.items():
        out[PARAM_NAMES.index(k)] = default
    for k, v in (overrides or {}).items():
        if k not in params:
            raise ValueError(f"bot {name} has no parameter {k} (has: {', '.join(params) or 'none'})")
        out[PARAM_NAMES.index(k)] = v
    return out
