"""Golem-poker bots: numba functions that choose every decision a player makes.

A bot writes a move record (``state.M_*``) for the player to act: a betting action in the two
betting rounds, a discard in the draw. The kernel dispatches on an integer bot id; parameters
come as a float vector in the order named in ``BOTS``. Bots draw randomness only from the play
stream ``r.rng[1]``; they see their own cards, the public counts (pot, bets, cards drawn) and
never another player's cards or the face-down discards of others.

Hand strength is the percentile of a made five-card hand among all 2,598,960 hands
(``data.hand_distribution``). Discard policies (``discard`` parameter):

* 0, improve: draw to the best own hand: stand pat on a straight or better, draw two to trips,
  one to two pair, keep a pair and its best kicker, draw one to four of a suit or four of a run,
  else keep the three best cards.
* 1, weaken the golem: feed the golem as little as possible: stand pat on two pair or better,
  otherwise throw at most one card (the lowest one not in a pair, or the odd card of a draw).
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate import datafiles
from simulate.games.golem_poker.abstraction import abstract_move, choose_action
from simulate.games.golem_poker.data import *
from simulate.games.golem_poker.engine import can_match, num_active, to_match, wager_range
from simulate.games.golem_poker.evaluator import (
    CATEGORY_SHIFT,
    HIGH_CARD,
    STRAIGHT,
    TWO_PAIR,
    card_bits,
    eval5,
    eval_packed,
)
from simulate.games.golem_poker.state import *
from simulate.rng import randint, uniform

KERNELS = ("random", "threshold", "equity", "search", "cfr")  # the bots' kernels by id (``BOTS``)
RANDOM, THRESHOLD, EQUITY, SEARCH, CFR = range(len(KERNELS))
BOT_STREAM = 1  # index of the bots' generator in ``r.rng``

# name -> (id, description, {param: (default, help)}), the parameters' (lowest, highest) and those that count
# something: seeds/golem-poker/bots.toml
BOTS, LIMITS, WHOLE_PARAMS = datafiles.read_bots("golem-poker", KERNELS)

MAX_BOT_PARAMS = 8
# A bot of a lineup as the kernels take it: one record each (a record crosses calls for free).
BOT_DTYPE = np.dtype([("id", np.int64), ("params", np.float64, (MAX_BOT_PARAMS,))], align=True)
SCRATCH = 64  # length of the int8 scratch array the kernel passes in
MEMO_SEATS = 6
MAX_TRIES = 24  # equity bot: rejection-sampling draws per opponent hand
MEMO = 2 * MEMO_SEATS  # length of the float64 memo array the kernel passes in (filled with -1)


def bot_records(bot_ids: np.ndarray, bot_params: np.ndarray) -> np.ndarray:
    """Lineup as a ``BOT_DTYPE`` array from ids (L,) and parameter vectors (L, MAX_BOT_PARAMS)."""
    ids = np.asarray(bot_ids, dtype=np.int64)
    out = np.zeros(len(ids), BOT_DTYPE)
    out["id"] = ids
    out["params"] = np.asarray(bot_params, dtype=np.float64).reshape(len(ids), MAX_BOT_PARAMS)
    return out


def default_params(name: str) -> np.ndarray:
    """Default parameter vector (MAX_BOT_PARAMS,) of bot ``name``."""
    out = np.zeros(MAX_BOT_PARAMS)
    for k, (value, _) in enumerate(BOTS[name][2].values()):
        out[k] = value
    return out


@njit(cache=True, inline="always")
def choose_move(r, tb, bp, mv, scratch, memo):
    """Write the move of bot ``bp`` (a ``BOT_DTYPE`` record) for the player to act in game record ``r`` into ``mv``.

    ``scratch`` (SCRATCH,) int8 and ``memo`` (MEMO,) float64 are work arrays owned by the caller;
    ``memo`` caches hand strengths by hand value (results never depend on its contents).
    """
    mv[M_KIND] = MATCH
    mv[M_AMOUNT] = 0
    mv[M_CARDS] = 0
    if bp.id == RANDOM:
        _random(r, tb, mv)
    elif bp.id == THRESHOLD:
        threshold_bot(r, tb, bp.params, mv, memo)
    elif bp.id == EQUITY:
        _equity_bot(r, tb, bp, mv, scratch)
    elif bp.id == CFR:
        _cfr_bot(r, tb, bp.params, mv)


# --------------------------------------------------------------------------------- helpers


@njit(cache=True, inline="always")
def _seat_strength(r, tb, s, memo):
    """Strength of seat ``s``'s hand, cached in ``memo`` by hand value (slots s and MAX_PLAYERS + s)."""
    v = r.value[s]
    if memo[s] == v:
        return memo[MEMO_SEATS + s]
    x = strength(tb, v)
    memo[s] = v
    memo[MEMO_SEATS + s] = x
    return x


@njit(cache=True, inline="always")
def _order(c, ace):
    """Strength order of a card's rank: 0 lowest .. 12 highest."""
    q = c >> 2
    if ace:
        return (q + 12) % 13
    return q


@njit(cache=True, inline="always")
def policy_mask(c0, c1, c2, c3, c4, ace, max_disc, weaken):
    """Discard mask (bit k = hand position k) of the improve (``weaken`` False) or weaken policy."""
    cards = (c0, c1, c2, c3, c4)
    cat = eval5(c0, c1, c2, c3, c4, ace) >> CATEGORY_SHIFT
    if cat >= STRAIGHT or max_disc <= 0:
        return 0
    if weaken:
        if cat >= TWO_PAIR:
            return 0
        limit = 1
    else:
        limit = max_disc
    order = (_order(c0, ace), _order(c1, ace), _order(c2, ace), _order(c3, ace), _order(c4, ace))
    single = 0  # mask of cards whose rank appears once
    for i in range(HAND_SIZE):
        cnt = 0
        for j in range(HAND_SIZE):
            if order[j] == order[i]:
                cnt += 1
        if cnt == 1:
            single |= 1 << i
    if cat == HIGH_CARD:
        odd = _draw_odd_card(cards, order)
        if odd >= 0:
            return 1 << odd
    return _lowest(order, single, limit)


@njit(cache=True, inline="always")
def _draw_odd_card(cards, order):
    """Position of the one card outside four of a suit or four within a run of five, -1 if none."""
    for i in range(HAND_SIZE):
        suit = -1
        same = True
        lo = 99
        hi = -1
        for j in range(HAND_SIZE):
            if j == i:
                continue
            sj = cards[j] & 3
            if suit < 0:
                suit = sj
            elif sj != suit:
                same = False
            lo = min(lo, order[j])
            hi = max(hi, order[j])
        if same or hi - lo <= 4:
            return i
    return -1


@njit(cache=True, inline="always")
def _lowest(order, candidates, limit):
    """Mask of up to ``limit`` positions in ``candidates`` with the lowest ranks (first position on ties)."""
    mask = 0
    for _ in range(limit):
        best = -1
        for i in range(HAND_SIZE):
            if (candidates >> i) & 1 and not (mask >> i) & 1:
                if best < 0 or order[i] < order[best]:
                    best = i
        if best < 0:
            break
        mask |= 1 << best
    return mask


@njit(cache=True, inline="always")
def _seat_policy_mask(r, tb, s, weaken):
    h = r.hand[s]
    return policy_mask(h[0], h[1], h[2], h[3], h[4], tb.params[P_ACE_HIGH] != 0, tb.params[P_MAX_DISCARDS], weaken)


@njit(cache=True, inline="always")
def _clip(x, lo, hi):
    return min(max(x, lo), hi)


@njit(cache=True, inline="always")
def _bet_or_raise(r, tb, chips, mv):
    """Bet or raise about ``chips`` if legal (clipped into the legal range); False if neither is legal."""
    kind, lo, hi = wager_range(r, tb)
    if lo > hi:
        return False
    mv[M_KIND] = kind
    mv[M_AMOUNT] = _clip(chips, lo, hi)
    return True


@njit(cache=True, inline="always")
def _match_or_fold(r, tb, mv):
    """Match (check when nothing is bet); fold if the match cannot be paid."""
    mv[M_KIND] = MATCH if can_match(r, tb) else FOLD


# --------------------------------------------------------------------------------- bots


@njit(cache=True, inline="always")
def _random(r, tb, mv):
    if r.phase == DRAW:
        k = randint(r.rng, BOT_STREAM, tb.params[P_MAX_DISCARDS] + 1)
        mask = 0
        for _ in range(k):
            pick = randint(r.rng, BOT_STREAM, HAND_SIZE)
            while (mask >> pick) & 1:
                pick = randint(r.rng, BOT_STREAM, HAND_SIZE)
            mask |= 1 << pick
        mv[M_KIND] = DISCARD
        mv[M_CARDS] = mask
        return
    matchable = can_match(r, tb)
    _, lo, hi = wager_range(r, tb)
    can_bet = lo <= hi
    kinds = 1 + int(matchable) + int(can_bet)
    k = randint(r.rng, BOT_STREAM, kinds)
    if k == 0:
        mv[M_KIND] = FOLD
    elif k == 1 and matchable:
        mv[M_KIND] = MATCH
    else:
        chips = (1 + randint(r.rng, BOT_STREAM, 4)) * tb.params[P_ANTE]
        _bet_or_raise(r, tb, chips, mv)


@njit(cache=True, inline="always")
def threshold_bot(r, tb, p, mv, memo):
    """p: fold_below, raise_above, bet_antes, max_raises, discard, bluff (the family's parameters)."""
    s = r.current
    if r.phase == DRAW:
        mv[M_KIND] = DISCARD
        mv[M_CARDS] = _seat_policy_mask(r, tb, s, p[4] >= 0.5)
        return
    st = _seat_strength(r, tb, s, memo)
    bluffing = False
    if st < p[0] and p[5] > 0.0:
        bluffing = uniform(r.rng, BOT_STREAM) < p[5]
    if st >= p[1] or bluffing:
        if r.current_bet == 0 or r.raises < p[3]:
            if _bet_or_raise(r, tb, np.int64(p[2] * tb.params[P_ANTE] + 0.5), mv):
                return
    if to_match(r) > 0 and st < p[0] and not bluffing:
        mv[M_KIND] = FOLD
        return
    _match_or_fold(r, tb, mv)


@njit(cache=True, inline="always")
def _cfr_bot(r, tb, p, mv):
    """p: discard. Bets from the policy table (``abstraction.choose_action``), draws by the discard policy."""
    if r.phase == DRAW:
        mv[M_KIND] = DISCARD
        mv[M_CARDS] = _seat_policy_mask(r, tb, r.current, p[0] >= 0.5)
        return
    abstract_move(r, tb, choose_action(r, tb), mv)


@njit(cache=True)
def _equity_bot(r, tb, bp, mv, scratch):
    """bp.params: samples, call_margin, raise_edge, bet_antes, max_raises, discard."""
    s = r.current
    samples = max(int(bp.params[0]), 1)
    policy = bp.params[5]
    if r.phase == DRAW:
        mv[M_KIND] = DISCARD
        if policy >= 0:
            mv[M_CARDS] = _seat_policy_mask(r, tb, s, policy >= 0.5)
            return
        best_mask = 0
        best_score = -1e18
        tried = np.full(4, -1, np.int64)
        cands = (
            _seat_policy_mask(r, tb, s, False),
            _seat_policy_mask(r, tb, s, True),
            0,
            _lowest_one(_seat_policy_mask(r, tb, s, False), r.hand[s], tb.params[P_ACE_HIGH] != 0),
        )
        for ci in range(4):
            m = cands[ci]
            dup = False
            for t in range(ci):
                dup |= tried[t] == m
            tried[ci] = m
            if dup:
                continue
            e, pen = equity(r, tb, s, m, samples, bp.params[6], bp.params[7], scratch)
            score = e * r.pot - pen * tb.params[P_PENALTY]
            if score > best_score:
                best_score = score
                best_mask = m
        mv[M_CARDS] = best_mask
        return
    mask_me = 0
    if r.phase == BET1:
        mask_me = _seat_policy_mask(r, tb, s, policy >= 0.5)
    e, pen = equity(r, tb, s, mask_me, samples, bp.params[6], bp.params[7], scratch)
    m = num_active(r)
    c = to_match(r)
    ante = tb.params[P_ANTE]
    if e * m >= bp.params[2] and (r.current_bet == 0 or r.raises < bp.params[4]):
        size = max(np.int64(bp.params[3] * (r.pot + c) / ante + 0.5), 1) * ante  # a share of the pot, in antes
        if _bet_or_raise(r, tb, size, mv):
            return
    if c > 0 and e * (r.pot + c) - c - pen * tb.params[P_PENALTY] < bp.params[1] * ante:
        mv[M_KIND] = FOLD
        return
    _match_or_fold(r, tb, mv)


@njit(cache=True)
def _lowest_one(mask, hand, ace):
    """The single card of ``mask`` with the lowest rank (``mask`` itself if it holds at most one)."""
    best = -1
    for i in range(HAND_SIZE):
        if (mask >> i) & 1:
            if best < 0 or _order(hand[i], ace) < _order(hand[best], ace):
                best = i
    return 0 if best < 0 else 1 << best


@njit(cache=True)
def _take(unseen, pos, u, rng):
    """Next card of a partial shuffle of ``unseen[:u]`` (positions ``pos..`` not yet taken)."""
    j = pos + randint(rng, BOT_STREAM, u - pos)
    c = unseen[j]
    unseen[j] = unseen[pos]
    unseen[pos] = c
    return c


@njit(cache=True, inline="always")
def _drawn(cards, mask, gx, gn, unseen, pos, u, rng, ace):
    """Hand ``cards`` (5) after the draw: those in ``mask`` discarded to the golem's cards ``gx`` (``gn`` of them) and
    replaced by the next cards of the partial shuffle from ``pos`` (:func:`_take`). Returns the final hand packed,
    ``gx``, ``gn`` and ``pos`` after the draw."""
    x = np.int64(0)
    for k in range(HAND_SIZE):
        if (mask >> k) & 1:
            gx |= card_bits(cards[k], ace)
            gn += 1
            x |= card_bits(_take(unseen, pos, u, rng), ace)
            pos += 1
        else:
            x |= card_bits(cards[k], ace)
    return x, gx, gn, pos


@njit(cache=True)
def equity(r, tb, s, mask_me, samples, read_bet, read_call, unseen):
    """Estimated share of the pot for seat ``s`` and chance it pays the golem penalty, by sampling.

    Unseen cards (all but its own hand and its own discards of this deal) are dealt at random to
    the opponents still in and as their discards: an opponent who has not drawn yet draws with the
    improve policy; one who has drawn gets that many random discards; folded players' discards
    count when the rules say so. Seat ``s`` discards ``mask_me`` first if it has not drawn yet.
    A sample whose golem beats the best hand counts as a fair share of the pot (it is dealt again).
    An opponent who bet or raised this deal holds a hand of strength at least ``read_bet`` (before
    the draw if it has not drawn yet, else after), one who matched a bet at least ``read_call``
    (rejection sampling, at most MAX_TRIES draws, then the last one is kept).

    Returns
    -------
    (float, float)
        Expected share of the pot (0-1) and the chance of holding the best hand when the golem wins.
    """
    ace = tb.params[P_ACE_HIGH] != 0
    n = r.num_players
    maxd = tb.params[P_MAX_DISCARDS]
    short = tb.params[P_GOLEM_SHORT]
    tie_player = tb.params[P_GOLEM_TIE_PLAYER] != 0
    folded_count = tb.params[P_GOLEM_FOLDED] != 0
    seen = np.int64(0)
    for k in range(HAND_SIZE):
        seen |= np.int64(1) << r.hand[s, k]
    known_golem = np.int64(0)
    known_n = 0
    for i in range(r.pile_n):
        if r.pile_owner[i] == s:
            seen |= np.int64(1) << r.pile[i]
            known_golem |= card_bits(r.pile[i], ace)
            known_n += 1
    u = 0
    for c in range(52):
        if not (seen >> c) & 1:
            unseen[u] = c
            u += 1
    my_mask = mask_me if r.drawn[s] < 0 else 0  # seat s discards mask_me only if it has not drawn yet
    m = num_active(r)
    h = r.hand[s]
    win = 0.0
    redeal = 0.0
    pen = 0.0
    for _ in range(samples):
        pos = 0
        gx = known_golem
        gn = known_n
        # own final hand
        mx, gx, gn, pos = _drawn((h[0], h[1], h[2], h[3], h[4]), my_mask, gx, gn, unseen, pos, u, r.rng, ace)
        mine = eval_packed(mx, ace)
        best_opp = np.int64(-1)
        ties = 0
        for o in range(n):
            if o == s:
                continue
            if r.active[o]:
                need = 0.0
                if r.aggr[o] == 2:
                    need = read_bet
                elif r.aggr[o] == 1:
                    need = read_call
                for _t in range(MAX_TRIES):
                    c0 = _take(unseen, pos, u, r.rng)
                    c1 = _take(unseen, pos + 1, u, r.rng)
                    c2 = _take(unseen, pos + 2, u, r.rng)
                    c3 = _take(unseen, pos + 3, u, r.rng)
                    c4 = _take(unseen, pos + 4, u, r.rng)
                    if need <= 0.0 or strength(tb, eval5(c0, c1, c2, c3, c4, ace)) >= need:
                        break
                pos += 5
                if r.drawn[o] < 0:
                    om = policy_mask(c0, c1, c2, c3, c4, ace, maxd, False)
                    ox, gx, gn, pos = _drawn((c0, c1, c2, c3, c4), om, gx, gn, unseen, pos, u, r.rng, ace)
                    v = np.int64(eval_packed(ox, ace))
                else:
                    v = np.int64(eval5(c0, c1, c2, c3, c4, ace))
                    for _k in range(r.drawn[o]):
                        gx |= card_bits(_take(unseen, pos, u, r.rng), ace)
                        gn += 1
                        pos += 1
                if v > best_opp:
                    best_opp = v
                    ties = 1
                elif v == best_opp:
                    ties += 1
            elif folded_count and r.drawn[o] > 0:
                for _k in range(r.drawn[o]):
                    gx |= card_bits(_take(unseen, pos, u, r.rng), ace)
                    gn += 1
                    pos += 1
        if gn < HAND_SIZE and short == SHORT_NONE:
            gv = np.int64(-1)
        else:
            if gn < HAND_SIZE and short == SHORT_DECK:
                while gn < HAND_SIZE:
                    gx |= card_bits(_take(unseen, pos, u, r.rng), ace)
                    gn += 1
                    pos += 1
            gv = np.int64(eval_packed(gx, ace))
        best = max(np.int64(mine), best_opp)
        beaten = best > gv or (tie_player and best == gv)
        if not beaten:
            redeal += 1.0
            if mine == best:
                pen += 1.0
        elif mine > best_opp:
            win += 1.0
        elif mine == best_opp:
            win += 1.0 / (ties + 1)
    return (win + redeal / m) / samples, pen / samples
