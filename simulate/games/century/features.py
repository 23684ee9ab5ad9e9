"""Century's apprentice features: a position from one seat's view, as the learned players value it.

Everything :func:`features` reads is public in Century (caravans, hands, the rows, coins and claimed cards):
the decks' order is the only hidden part. The names, in order, are ``data.APPRENTICE_FEATURES`` (the rows of
``seeds/century/apprentice.csv``).
"""

from __future__ import annotations

import math

from numba import njit

from simulate.apprentice import linear_value
from simulate.games.century.bots import card_value, coin_value, distance
from simulate.games.century.data import APPRENTICE_FEATURES, MAX_POINT_ROW, P_CARAVAN_LIMIT
from simulate.games.century.engine import score_parts
from simulate.games.century.state import ACQUIRE, IN_HAND, PLAY, PLAYED, REST

NUM_FEATURES = len(APPRENTICE_FEATURES)
SEAT_BLOCK = 17  # features per seat block (own, the rival's)
_POWER = 12  # index of engine_power in a seat block
ROW_SHAPE = (MAX_POINT_ROW + 1, 7)  # :func:`seat_row`'s table: a row per point row position, and the totals


@njit(cache=True)
def seat_block(r, tb, s, out, k0, parts):
    """The seventeen features of seat ``s`` into ``out[k0:k0 + 17]``; returns its score as it stands."""
    score, x0, x1, x2, x3 = _seat_now(r, tb, s, parts)
    in_hand, played, power = _hand(r, tb, s)
    aims = _NO_AIMS
    for p in range(r.p_row.shape[0]):
        pc = r.p_row[p]
        if pc < 0:
            break
        c0, c1, c2, c3 = tb.p_cost[pc, 0], tb.p_cost[pc, 1], tb.p_cost[pc, 2], tb.p_cost[pc, 3]
        val = tb.p_vp[pc] + coin_value(r, tb, p)
        aims = _aim(x0, x1, x2, x3, c0, c1, c2, c3, val, c0 + c1 + c2 + c3, aims)
    _put_block(r, s, out, k0, score, x0, x1, x2, x3, in_hand, played, power, _wants(r, tb), aims)
    return score


@njit(cache=True, inline="always")
def _wants(r, tb):
    """The most of each colour (yellow, green, turquoise, magenta) a card of the point row asks."""
    want0 = 0
    want1 = 0
    want2 = 0
    want3 = 0
    for p in range(r.p_row.shape[0]):
        pc = r.p_row[p]
        if pc < 0:
            break
        want0 = max(want0, tb.p_cost[pc, 0])
        want1 = max(want1, tb.p_cost[pc, 1])
        want2 = max(want2, tb.p_cost[pc, 2])
        want3 = max(want3, tb.p_cost[pc, 3])
    return want0, want1, want2, want3


@njit(cache=True, inline="always")
def _seat_now(r, tb, s, parts):
    """Seat ``s``'s score as it stands and its caravan (yellow, green, turquoise, magenta)."""
    score_parts(r, tb, s, parts)
    score = parts[0] + parts[1] + parts[2] + parts[3]
    return score, r.crystals[s, 0], r.crystals[s, 1], r.crystals[s, 2], r.crystals[s, 3]


@njit(cache=True, inline="always")
def _hand(r, tb, s):
    """Seat ``s``'s merchant cards in hand and played, and their production (the engine power before its root)."""
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
    return in_hand, played, power


_NO_AIMS = (0.0, 0, 0.0, 0.0, 0.0, 30)
"""A seat block's aims before any point card: claim VP, near cards, reach, best target, its cover, least distance."""


@njit(cache=True, inline="always")
def _aim(x0, x1, x2, x3, c0, c1, c2, c3, val, need, aims):
    """``aims`` (as ``_NO_AIMS``) with the point card of cost c (``need`` crystals in all) and value ``val`` added,
    for caravan x."""
    claim_vp, near, reach, best_target, cover, min_d = aims
    d = distance(x0, x1, x2, x3, c0, c1, c2, c3)
    if d == 0 and val > claim_vp:
        claim_vp = val
    if d <= 2:
        near += 1
    reach += val / ((1.0 + d) * (1.0 + d))
    if val / (1.0 + d) > best_target:
        best_target = val / (1.0 + d)
        held = min(x0, c0) + min(x1, c1) + min(x2, c2) + min(x3, c3)
        cover = held / max(need, 1)
    if d < min_d:
        min_d = d
    return claim_vp, near, reach, best_target, cover, min_d


@njit(cache=True, inline="always")
def _put_block(r, s, out, k0, score, x0, x1, x2, x3, in_hand, played, power, wants, aims):
    """Seat ``s``'s seventeen features into ``out[k0:k0 + 17]``; ``wants``: the most of each colour the point row
    asks; ``aims``: :func:`_aim`'s."""
    want0, want1, want2, want3 = wants
    claim_vp, near, reach, best_target, cover, min_d = aims
    out[k0] = score
    out[k0 + 1] = r.point_vp[s]
    out[k0 + 2] = r.num_points[s]
    out[k0 + 3] = x0
    out[k0 + 4] = x1
    out[k0 + 5] = x2
    out[k0 + 6] = x3
    out[k0 + 7] = min(x0, want0) + 2 * min(x1, want1) + 3 * min(x2, want2) + 4 * min(x3, want3)
    out[k0 + 8] = cover
    out[k0 + 9] = reach
    out[k0 + 10] = in_hand
    out[k0 + 11] = played
    out[k0 + 12] = math.sqrt(max(power, 0.0))
    out[k0 + 13] = claim_vp
    out[k0 + 14] = near
    out[k0 + 15] = best_target
    out[k0 + 16] = min(min_d, 12)


@njit(cache=True)
def features(r, tb, seat, out, parts):
    """The position of game record ``r`` from seat ``seat``'s view, into ``out`` (``APPRENTICE_FEATURES``).

    ``parts`` is an int64 scratch of at least 4. Blocks: the seat's own seventeen features, the same for the
    other seat with the highest score (ties: the next to move), then margins, the end's nearness and the turn order.
    """
    best, best_score = best_rival(r, tb, seat, parts)
    mine = seat_block(r, tb, seat, out, 0, parts)
    seat_block(r, tb, best, out, SEAT_BLOCK, parts)
    _tail(r, tb, seat, out, mine, best, best_score)


@njit(cache=True)
def seat_row(r, tb, s, row):
    """What seat ``s``'s block reads of the point row, into ``row`` (int64, ``ROW_SHAPE``), and the seat's merchant
    cards' production (the block's engine power before its square root), returned.

    Row ``p`` of ``row`` holds the cost of the point card at row position ``p`` (four colours), its value (VP and
    the coin on its place) and its total cost; the last row the most of each colour the row asks, the number of
    cards, and the seat's merchant cards in hand and played. A move of the seat other than a claim changes none of
    the row's; an acquisition raises the production by the acquired card's
    :func:`~simulate.games.century.bots.card_value`.
    """
    last = row.shape[0] - 1
    cards = 0
    for p in range(r.p_row.shape[0]):
        pc = r.p_row[p]
        if pc < 0:
            break
        need = 0
        for c in range(4):
            row[p, c] = tb.p_cost[pc, c]
            need += tb.p_cost[pc, c]
        row[p, 4] = tb.p_vp[pc] + coin_value(r, tb, p)
        row[p, 5] = need
        cards += 1
    wants = _wants(r, tb)
    for c in range(4):
        row[last, c] = wants[c]
    row[last, 4] = cards
    in_hand, played, power = _hand(r, tb, s)
    row[last, 5] = in_hand
    row[last, 6] = played
    return power


@njit(cache=True)
def features_same_row(r, tb, seat, out, parts, row, kind, power, best_score):
    """:func:`features` of an afterstate of a move of ``seat`` of ``kind`` other than a claim, where ``out`` holds the
    features of another such afterstate of the same decision; ``row`` is :func:`seat_row` before the move, ``power``
    the seat's production after it and ``best_score`` ``best_rival``'s score before it.

    The apprentice values a decision's moves with it: such a move changes no other seat, the point row, the coins,
    the point cards or the turn, so only the seat's own block and the margins that read it are computed, from the
    row's costs and values read once; the rival's block and the rest of the tail are kept. The values are exactly
    :func:`features`' (``power`` sums multiples of 0.5: exact in any order).
    """
    last = row.shape[0] - 1
    in_hand = row[last, 5]
    played = row[last, 6]
    if kind == PLAY:  # a card from the hand played
        in_hand -= 1
        played += 1
    elif kind == REST:  # the played cards taken back
        in_hand += played
        played = 0
    elif kind == ACQUIRE:  # a card to the hand
        in_hand += 1
    mine = _seat_block_same_row(r, tb, seat, out, parts, row, power, in_hand, played)
    k = 2 * SEAT_BLOCK
    progress = out[k + 3]
    rounds = out[k + 9]
    margin = mine - best_score
    out[k] = margin
    out[k + 2] = out[_POWER] - out[SEAT_BLOCK + _POWER]
    out[k + 4] = margin * progress
    out[k + 5] = out[_POWER] * (1.0 - progress)
    out[k + 10] = (out[3] + out[4] + out[5] + out[6]) * rounds / 20.0
    out[k + 11] = out[7] * rounds / 20.0
    out[k + 12] = out[_POWER] * rounds / 20.0


@njit(cache=True)
def _seat_block_same_row(r, tb, s, out, parts, row, power, in_hand, played):
    """:func:`seat_block` of seat ``s`` into ``out[0:17]`` from the point row in ``row``, the production ``power``
    and the merchant cards in hand and played; returns its score as it stands."""
    score, x0, x1, x2, x3 = _seat_now(r, tb, s, parts)
    aims = _NO_AIMS
    last = row.shape[0] - 1
    for p in range(row[last, 4]):
        aims = _aim(x0, x1, x2, x3, row[p, 0], row[p, 1], row[p, 2], row[p, 3], row[p, 4], row[p, 5], aims)
    wants = (row[last, 0], row[last, 1], row[last, 2], row[last, 3])
    _put_block(r, s, out, 0, score, x0, x1, x2, x3, in_hand, played, power, wants, aims)
    return score


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
