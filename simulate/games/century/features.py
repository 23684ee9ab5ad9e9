"""Century's apprentice features: a position from one seat's view, as the learned players value it.

Everything :func:`features` reads is public in Century (caravans, hands, the rows, coins and claimed cards):
the decks' order is the only hidden part. The names, in order, are ``data.APPRENTICE_FEATURES`` (the rows of
``seeds/century/apprentice.csv``).
"""

from __future__ import annotations

import math

from numba import njit

from simulate.apprentice import linear_value
from simulate.games.century.bots import _coin_value, card_value, distance
from simulate.games.century.data import APPRENTICE_FEATURES, P_CARAVAN_LIMIT
from simulate.games.century.engine import score_parts
from simulate.games.century.state import IN_HAND, PLAYED

NUM_FEATURES = len(APPRENTICE_FEATURES)
SEAT_BLOCK = 17  # features per seat block (own, the rival's)
_POWER = 12  # index of engine_power in a seat block


@njit(cache=True)
def _seat_block(r, tb, s, out, k0, parts):
    """The seventeen features of seat ``s`` into ``out[k0:k0 + 17]``; returns its score as it stands."""
    score_parts(r, tb, s, parts)
    score = parts[0] + parts[1] + parts[2] + parts[3]
    x0 = r.crystals[s, 0]
    x1 = r.crystals[s, 1]
    x2 = r.crystals[s, 2]
    x3 = r.crystals[s, 3]
    limit = tb.params[P_CARAVAN_LIMIT]
    in_hand = 0
    played = 0
    power = 0.0
    for k in range(r.num_owned[s]):
        m = r.owned[s, k]
        if r.cards[s, m] == IN_HAND:
            in_hand += 1
        elif r.cards[s, m] == PLAYED:
            played += 1
        power += card_value(tb, m, limit)
    claim_vp = 0.0
    near = 0
    best_target = 0.0
    cover = 0.0
    reach = 0.0
    min_d = 30
    want0 = 0
    want1 = 0
    want2 = 0
    want3 = 0
    for p in range(r.p_row.shape[0]):
        pc = r.p_row[p]
        if pc < 0:
            break
        d = distance(x0, x1, x2, x3, tb.p_cost[pc, 0], tb.p_cost[pc, 1], tb.p_cost[pc, 2], tb.p_cost[pc, 3])
        val = tb.p_vp[pc] + _coin_value(r, tb, p)
        if d == 0 and val > claim_vp:
            claim_vp = val
        if d <= 2:
            near += 1
        reach += val / ((1.0 + d) * (1.0 + d))
        want0 = max(want0, tb.p_cost[pc, 0])
        want1 = max(want1, tb.p_cost[pc, 1])
        want2 = max(want2, tb.p_cost[pc, 2])
        want3 = max(want3, tb.p_cost[pc, 3])
        if val / (1.0 + d) > best_target:
            best_target = val / (1.0 + d)
            held = 0
            need = 0
            for c in range(4):
                held += min(r.crystals[s, c], tb.p_cost[pc, c])
                need += tb.p_cost[pc, c]
            cover = held / max(need, 1)
        if d < min_d:
            min_d = d
    useful = min(x0, want0) + 2 * min(x1, want1) + 3 * min(x2, want2) + 4 * min(x3, want3)
    out[k0] = score
    out[k0 + 1] = r.point_vp[s]
    out[k0 + 2] = r.num_points[s]
    out[k0 + 3] = x0
    out[k0 + 4] = x1
    out[k0 + 5] = x2
    out[k0 + 6] = x3
    out[k0 + 7] = useful
    out[k0 + 8] = cover
    out[k0 + 9] = reach
    out[k0 + 10] = in_hand
    out[k0 + 11] = played
    out[k0 + 12] = math.sqrt(max(power, 0.0))
    out[k0 + 13] = claim_vp
    out[k0 + 14] = near
    out[k0 + 15] = best_target
    out[k0 + 16] = min(min_d, 12)
    return score


@njit(cache=True)
def features(r, tb, seat, out, parts):
    """The position of game record ``r`` from seat ``seat``'s view, into ``out`` (``APPRENTICE_FEATURES``).

    ``parts`` is an int64 scratch of at least 4. Blocks: the seat's own seventeen features, the same for the
    other seat with the highest score (ties: the next to move), then margins, the end's nearness and the turn order.
    """
    best, best_score = best_rival(r, tb, seat, parts)
    mine = _seat_block(r, tb, seat, out, 0, parts)
    _seat_block(r, tb, best, out, SEAT_BLOCK, parts)
    _tail(r, tb, seat, out, mine, best, best_score)


@njit(cache=True)
def features_same_rival(r, tb, seat, out, parts, rival, best, best_score):
    """:func:`features` when the rival's block is ``rival`` (its seventeen features, from an earlier call) and
    the rival and its score are ``best_rival``'s.

    For the afterstates of one decision's moves that leave the point row alone (every move but a claim): the
    other seats' scores, hands and caravans do not change with the mover's move, nor does the best of them.
    """
    mine = _seat_block(r, tb, seat, out, 0, parts)
    for k in range(SEAT_BLOCK):
        out[SEAT_BLOCK + k] = rival[k]
    _tail(r, tb, seat, out, mine, best, best_score)


@njit(cache=True)
def best_rival(r, tb, seat, parts):
    """The other seat with the highest score as it stands (ties: the next to move), and that score."""
    n = r.num_players
    best = -1
    best_score = -(10**9)
    for k in range(1, n):
        o = (seat + k) % n
        score_parts(r, tb, o, parts)
        sc = parts[0] + parts[1] + parts[2] + parts[3]
        if sc > best_score:
            best_score = sc
            best = o
    return best, best_score


@njit(cache=True)
def _tail(r, tb, seat, out, mine, best, best_score):
    """The features after the two seat blocks: margins, the end's nearness and the turn order."""
    n = r.num_players
    most_points = r.num_points[seat]
    for k in range(1, n):
        most_points = max(most_points, r.num_points[(seat + k) % n])
    k = 2 * SEAT_BLOCK
    trigger = tb.end_trigger[n]
    progress = min(most_points / trigger, 1.0)
    margin = mine - best_score
    out[k] = margin
    out[k + 1] = r.num_points[seat] - r.num_points[best]
    out[k + 2] = out[_POWER] - out[SEAT_BLOCK + _POWER]  # engine power margin
    out[k + 3] = progress
    out[k + 4] = margin * progress
    out[k + 5] = out[_POWER] * (1.0 - progress)  # own engine power, worth more early
    out[k + 6] = r.triggered
    # seats to move before this one (0: it moves next); after the trigger, whether it still gets a turn
    order = (seat - r.current) % n if r.current >= 0 else 0
    out[k + 7] = order / max(n - 1, 1)
    out[k + 8] = 1.0 if r.triggered and (r.current != 0 and seat >= r.current) else 0.0
    rounds = r.turn / n
    out[k + 9] = rounds
    out[k + 10] = (out[3] + out[4] + out[5] + out[6]) * rounds / 20.0
    out[k + 11] = out[7] * rounds / 20.0
    out[k + 12] = out[_POWER] * rounds / 20.0


@njit(cache=True)
def leaf_values(r, tb, f, parts, logits):
    """Each seat's logit of an unfinished position (the search's ``leaf=1`` valuation) into ``logits``."""
    w = tb.apprentice_w[r.num_players]
    for s in range(r.num_players):
        features(r, tb, s, f, parts)
        logits[s] = linear_value(w, f)
