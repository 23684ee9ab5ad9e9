"""Golem's heuristic bots: one method, choosing the action of the seat to move.

Every decision of the engine is one small integer choice, so all heuristic bots (``bots.RANDOM`` to
``bots.BALANCED``) share one method: try each legal action on a copy of the game record (the engine runs on to the
next decision) and keep the action whose resulting position the bot values most (``valuation.value``; ties broken
by the play stream). The bots differ only in their weight vector (``bots.BOTS``). Small Artifact Development tiles
are only tried on the cheapest free space (both sides): the valuation cannot tell the spaces apart except by their
cost. Options whose position is known without playing them are valued on the record itself
(``direct_values.direct_value``).
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from numba import njit

from simulate.games.golem.bots import RANDOM
from simulate.games.golem.codes import *
from simulate.games.golem.data import *
from simulate.games.golem.direct_values import (
    CURRENT,
    PLAY,
    ROW_RESOURCE,
    VALUED,
    direct_value,
    marble_value,
    upgrade_options,
)
from simulate.games.golem.engine import apply_action, current_player, legal_mask
from simulate.games.golem.engine.legality import OPTIONS, artifact_action_legal, upgrade_option_legal
from simulate.games.golem.engine.resources import reactivates_effect
from simulate.games.golem.valuation import value
from simulate.rng import randint


@njit(cache=True)
def choose(r, tb, bot, w, pad):
    """The action of bot ``bot`` (weights ``w``, a tuple in PARAM_NAMES order) for the seat to move; ``pad`` is the
    scratch record (``state.PAD``)."""
    mask = pad.mask
    kind = r.stack[r.sp - 1, 0]
    options = OPTIONS[kind]  # ``legal_mask`` leaves the options from here on illegal
    s = current_player(r)
    first = 0  # the first small Artifact Development option of this decision, 0 if none
    if bot != RANDOM:
        if kind == D_ARTIFACT_ACTION:
            first = 1
        elif kind == D_UPGRADE or kind == D_INCOME_UPGRADE:
            first = UP_ART + 1
    cheapest = -1
    if first:
        cheapest = cheapest_space(r, tb, s)
        count = candidates(r, tb, s, kind, first, cheapest, mask)
    else:
        count = legal_mask(r, tb, mask)
    if count == 1 or bot == RANDOM:  # (one candidate: the loop below would value it alone and take it)
        k = 0 if count == 1 else randint(r.rng, 0, count)
        for a in range(options):
            if mask[a]:
                if k == 0:
                    return a
                k -= 1
    # Turn: the marble colours that reactivate an Artifact (those marbles are played on the copy)
    react_red = kind == D_TURN and reactivating(r, tb, s, RED)
    react_blue = kind == D_TURN and reactivating(r, tb, s, BLUE)
    upgrades = upgrade_options(r, kind)
    copies = pad.copy
    copy = copies[0]
    current = 0.0  # the value of the position as it is, computed when first needed
    have_current = False
    memo = pad.memo  # Turn: the Work row's marble values by colour; upgrades: the last option's, and by Menorahs
    last = -1
    last_status = PLAY
    seen = 0  # Artifact action and Income upgrades: the Menorah counts whose small Artifact Development is valued
    best = -1e18
    best_a = -1
    ties = 0
    for a in range(options):
        if not mask[a]:
            continue
        status = PLAY
        v = 0.0
        if kind == D_TURN and a < MARBLE_OPTIONS:
            row = a // 5
            colour = a % 5
            if colour == BLACK or (colour == WHITE and ROW_RESOURCE[row] < 0):
                status = CURRENT  # the Student steps come with the black marble's own decision
            elif not ((colour == RED and react_red) or (colour == BLUE and react_blue)):
                status = VALUED
                if row == MIRROR and mask[colour]:
                    v = memo[colour]  # the Work row's marble of the colour: the same position
                else:
                    v = marble_value(r, tb, s, w, a)
                    if row == WORK:
                        memo[colour] = v
        elif (
            first
            and first <= a < first + SMALL_ART_OPTIONS
            and kind != D_UPGRADE
            and tb.adev_menorah[(a - first) // 8] < 8
        ):
            # a small Artifact Development: the position differs only by its Menorahs (the cost is the space's)
            m = tb.adev_menorah[(a - first) // 8]
            if seen & (1 << m):
                status = VALUED
                v = memo[5 + m]
            else:
                status, v = direct_value(r, tb, s, w, kind, a, upgrades)
                if status == VALUED:
                    memo[5 + m] = v
                    seen |= 1 << m
        elif (
            first
            and first <= a < first + SMALL_ART_OPTIONS
            and (a - first) % 2 == 1
            and last == a - 1
            and last_status == VALUED
        ):
            status = VALUED  # the other side of the same Artifact Development: the same position
            v = memo[4]
        else:
            status, v = direct_value(r, tb, s, w, kind, a, upgrades)
            memo[4] = v
        last = a
        last_status = status
        if status == CURRENT:
            if not have_current:
                current = value(r, tb, s, w)
                have_current = True
            v = current
        elif status == PLAY:
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
def candidates(r, tb, s, kind, first, cheapest, mask):
    """``legal_mask`` of an Artifact action or an upgrade decision without the small Artifact Development options
    (from option ``first``) on spaces other than ``cheapest``, which the bots do not try; returns the count."""
    k = r.sp - 1
    pa = r.stack[k, 3]
    pb = r.stack[k, 4]
    pc = r.stack[k, 5]
    count = 0
    for a in range(OPTIONS[kind]):
        if first <= a < first + SMALL_ART_OPTIONS and ((a - first) // 2) % 4 != cheapest:
            mask[a] = 0
        elif kind == D_ARTIFACT_ACTION:
            mask[a] = 1 if artifact_action_legal(r, tb, s, pb, a) else 0
        else:
            mask[a] = 1 if upgrade_option_legal(r, tb, s, pa, pb, pc, a) else 0
        count += mask[a]
    return count


@njit(cache=True)
def reactivating(r, tb, s, colour):
    """A marble of ``colour`` reactivates one of seat ``s``'s Artifacts (``engine.decisions._turn``)."""
    if colour != RED and colour != BLUE:
        return False
    want = E_REACTIVATE_RED_MARBLE if colour == RED else E_REACTIVATE_BLUE_MARBLE
    for k in range(4):
        if reactivates_effect(r, tb, s, k, want):
            return True
    return False


@njit(cache=True)
def cheapest_space(r, tb, s):
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
