"""Golem-poker rules as numba functions over the record ``r`` of one game (one pot) of a batch.

The engine knows rules only: antes, dealing, legal moves, applying a move, the showdown against
the golem, re-deals and paying out the pot. Bots choose moves (``bots.py``); the batch loop lives
in ``play.py``. The rules page is ``docs/golem-poker.md``; the plain-Python twin is ``reference.py``.

Speed note: numba compiles every ``@njit`` function separately and LLVM does not inline calls
between them (they are calls through an absolute address), so the functions on the path of every
move carry ``inline="always"`` (inlined at numba's IR level, with ``cache=True`` still working):
about 1.6 times faster per move than plain calls. Functions run once per deal or game are not.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem_poker.data import *
from simulate.games.golem_poker.evaluator import CATEGORY_SHIFT, card_bits, eval5, eval_packed
from simulate.games.golem_poker.state import *
from simulate.rng import order_seed, randint

NUM_CARDS = 52
BIG_CHIPS = 1_000_000  # largest single bet or raise: a bound for "no cap", far above any stack
MAX_TURNS = 5000  # safety net: decisions in one pot (never reached by the shipped bots)


@njit(cache=True, inline="always")
def draw(r):
    """The next card from the deck: a uniform pick among the cards not yet dealt (dealing stream)."""
    p = r.deck_pos
    j = p + randint(r.rng, 0, NUM_CARDS - p)
    c = r.deck[j]
    r.deck[j] = r.deck[p]
    r.deck[p] = c
    r.deck_pos = p + 1
    return c


@njit(cache=True)
def init_game(r, tb, num_players, setup_seed, play_seed):
    """Set up game record ``r``: stacks, antes and the first deal (dealt from the setup seed)."""
    r.num_players = num_players
    r.over = RUNNING
    r.deal = 1
    r.turn = 0
    r.rng[0] = order_seed(setup_seed)  # every card is dealt face down: no public opening
    r.rng[1] = play_seed
    r.pot = 0
    r.house_take = 0
    for k in range(r.num_showdowns):  # clear the previous game's log (a record may be reused)
        r.log_beaten[k] = 0
        r.log_hand_cat[k] = 0
        r.log_golem_cat[k] = 0
        r.log_golem_cards[k] = 0
        r.log_players[k] = 0
    r.num_showdowns = 0
    r.golem_wins = 0
    r.last_hand = NO_VALUE
    r.last_golem = NO_VALUE
    r.last_golem_cards = -1
    ante = tb.params[P_ANTE]
    r.num_in = num_players
    for s in range(MAX_PLAYERS):
        inside = s < num_players
        r.active[s] = 1 if inside else 0
        r.stack[s] = tb.params[P_STACK] if inside else 0
        r.paid_ante[s] = 0
        r.paid_bet[s] = 0
        r.paid_penalty[s] = 0
        r.won[s] = 0
        r.share[s] = 0.0
        r.fold_deal[s] = 0
        r.fold_phase[s] = OUT_NONE
        r.showdowns[s] = 0
        r.best_hands[s] = 0
        r.penalties[s] = 0
        r.discarded[s] = 0
        r.num_bets[s] = 0
        r.num_raises[s] = 0
        r.num_calls[s] = 0
        r.opening_value[s] = NO_VALUE
        r.final_value[s] = NO_VALUE
        if inside:
            _pay(r, s, ante)
            r.paid_ante[s] += ante
    _start_deal(r, tb)
    for s in range(num_players):
        r.opening_value[s] = r.value[s]


@njit(cache=True, inline="always")
def _pay(r, s, chips):
    r.stack[s] -= chips
    r.pot += chips


@njit(cache=True)
def _start_deal(r, tb):
    """Collect all cards, deal five to each seat still in, one at a time from the amulet."""
    n = r.num_players
    for c in range(NUM_CARDS):
        r.deck[c] = c
    r.deck_pos = 0
    r.pile_n = 0
    for k in range(r.pile.shape[0]):
        r.pile[k] = -1
        r.pile_owner[k] = -1
    for s in range(MAX_PLAYERS):
        r.drawn[s] = -1
        r.aggr[s] = 0
        for k in range(HAND_SIZE):
            r.hand[s, k] = -1
    for k in range(HAND_SIZE):
        for s in range(n):
            if r.active[s]:
                r.hand[s, k] = draw(r)
    for s in range(MAX_PLAYERS):
        r.value[s] = _value(r, tb, s) if s < n and r.active[s] else NO_VALUE
    _start_round(r, tb, BET1)


@njit(cache=True, inline="always")
def _start_round(r, tb, phase):
    """Begin a betting round or the draw: everyone still in must act, starting at the amulet."""
    r.phase = phase
    r.current_bet = 0
    r.raises = 0
    first = -1
    for s in range(r.num_players):
        r.bet_in[s] = 0
        r.need[s] = r.active[s]
        if first < 0 and r.active[s]:
            first = s
    r.current = first
    _set_cap(r, tb)
    _prepare_decision(r, tb)


@njit(cache=True, inline="always")
def _set_cap(r, tb):
    """Table stakes: the most any player still in can have put in this round (fixed until someone folds).

    Paying moves chips from the stack into ``bet_in``, so ``bet_in + stack`` is constant within a round.
    """
    cap = np.int64(BIG_CHIPS) * 8
    if tb.params[P_CREDIT] == 0:
        for o in range(r.num_players):
            if r.active[o]:
                cap = min(cap, r.bet_in[o] + max(r.stack[o], 0))
    r.cap = cap


@njit(cache=True, inline="always")
def _prepare_decision(r, tb):
    """Record what the player to act may do: match, and the bet and raise ranges (lo > hi: none)."""
    r.bet_lo = 1
    r.bet_hi = 0
    r.raise_lo = 1
    r.raise_hi = 0
    if r.phase == DRAW:
        r.match_ok = 0
        return
    s = r.current
    credit = tb.params[P_CREDIT] != 0
    r.match_ok = 1 if credit or r.current_bet - r.bet_in[s] <= max(r.stack[s], 0) else 0
    cap = r.cap
    if r.current_bet == 0:
        hi = min(cap, np.int64(BIG_CHIPS))
        if tb.params[P_MAX_BET] > 0:
            hi = min(hi, tb.params[P_MAX_BET])
        r.bet_lo = tb.params[P_MIN_BET]
        r.bet_hi = hi
    elif tb.params[P_MAX_RAISES] == 0 or r.raises < tb.params[P_MAX_RAISES]:
        hi = min(cap - r.current_bet, np.int64(BIG_CHIPS))
        if tb.params[P_MAX_RAISE] > 0:
            hi = min(hi, tb.params[P_MAX_RAISE])
        r.raise_lo = tb.params[P_MIN_RAISE]
        r.raise_hi = hi


@njit(cache=True, inline="always")
def num_active(r):
    """Players still in the pot."""
    return r.num_in


@njit(cache=True, inline="always")
def bet_range(r, tb):
    """(lo, hi) of a legal opening bet by the player to act; lo > hi when no bet is legal.

    Bets and raises are capped at what every player still in can match (no side pots), unless
    ``cannot_pay = credit``; and by the rule options' caps.
    """
    return r.bet_lo, r.bet_hi


@njit(cache=True, inline="always")
def raise_range(r, tb):
    """(lo, hi) of a legal raise (chips on top of the current bet); lo > hi when no raise is legal."""
    return r.raise_lo, r.raise_hi


@njit(cache=True, inline="always")
def wager_range(r, tb):
    """(kind, lo, hi) of the wager open to the player to act: BET with :func:`bet_range` while no bet stands, else
    RAISE with :func:`raise_range`."""
    if r.current_bet == 0:
        lo, hi = bet_range(r, tb)
        return BET, lo, hi
    lo, hi = raise_range(r, tb)
    return RAISE, lo, hi


@njit(cache=True, inline="always")
def to_match(r):
    """Chips the player to act must add to match the current bet."""
    return r.current_bet - r.bet_in[r.current]


@njit(cache=True, inline="always")
def can_match(r, tb):
    """The player to act can pay the match (always under ``cannot_pay = credit``)."""
    return r.match_ok != 0


@njit(cache=True, inline="always")
def is_legal(r, tb, mv):
    """Move ``mv`` is legal for the player to act in game record ``r``."""
    if r.over != RUNNING:
        return False
    kind = mv[M_KIND]
    if r.phase == DRAW:
        if kind != DISCARD:
            return False
        mask = mv[M_CARDS]
        if mask < 0 or mask >= 32:
            return False
        k = 0
        for b in range(HAND_SIZE):
            k += (mask >> b) & 1
        return k <= tb.params[P_MAX_DISCARDS]
    if kind == FOLD:
        return True
    if kind == MATCH:
        return can_match(r, tb)
    if kind == BET:
        return r.bet_lo <= mv[M_AMOUNT] <= r.bet_hi
    if kind == RAISE:
        return r.raise_lo <= mv[M_AMOUNT] <= r.raise_hi
    return False


@njit(cache=True, inline="always")
def apply_move(r, tb, mv):
    """Apply a legal move of the player to act, then everything that follows until the next decision."""
    s = r.current
    kind = mv[M_KIND]
    r.turn += 1
    if kind == DISCARD:
        mask = mv[M_CARDS]
        k = 0
        for b in range(HAND_SIZE):
            if (mask >> b) & 1:
                r.pile[r.pile_n] = r.hand[s, b]
                r.pile_owner[r.pile_n] = s
                r.pile_n += 1
                k += 1
        for b in range(HAND_SIZE):
            if (mask >> b) & 1:
                r.hand[s, b] = draw(r)
        if k > 0:
            r.value[s] = _value(r, tb, s)
        r.drawn[s] = k
        r.discarded[s] += k
    elif kind == FOLD:
        r.active[s] = 0
        r.num_in -= 1
        r.fold_deal[s] = r.deal
        r.fold_phase[s] = OUT_BET1 if r.phase == BET1 else OUT_BET2
        _set_cap(r, tb)
    elif kind == MATCH:
        c = r.current_bet - r.bet_in[s]
        if c > 0:
            r.num_calls[s] += 1
            r.aggr[s] = max(r.aggr[s], 1)
            _pay(r, s, c)
            r.paid_bet[s] += c
            r.bet_in[s] = r.current_bet
    else:
        if kind == BET:
            target = mv[M_AMOUNT]
            r.num_bets[s] += 1
        else:
            target = r.current_bet + mv[M_AMOUNT]
            r.num_raises[s] += 1
            r.raises += 1
        r.aggr[s] = 2
        c = target - r.bet_in[s]
        _pay(r, s, c)
        r.paid_bet[s] += c
        r.bet_in[s] = target
        r.current_bet = target
        for o in range(r.num_players):
            r.need[o] = r.active[o]
    r.need[s] = 0
    _advance(r, tb)
    if r.over == RUNNING and r.turn >= MAX_TURNS:
        _award_active(r, tb, END_TURN_CAP)


@njit(cache=True, inline="always")
def _advance(r, tb):
    """Pass the turn on; close the round, the draw or the deal when nobody needs to act."""
    n = r.num_players
    if r.num_in == 1:
        _award_active(r, tb, END_LAST_PLAYER)
        return
    s = r.current
    for step in range(1, n + 1):
        o = s + step
        if o >= n:
            o -= n
        if r.active[o] and r.need[o]:
            r.current = o
            _prepare_decision(r, tb)
            return
    if r.phase == BET1:
        _start_round(r, tb, DRAW)
    elif r.phase == DRAW:
        _start_round(r, tb, BET2)
    else:
        _showdown(r, tb)


@njit(cache=True)
def golem_value(r, tb):
    """Value of the golem hand of this deal and the number of cards it was made from.

    Draws the missing cards from the deck when ``golem_short = deck``; ``NO_VALUE`` when
    ``golem_short = none`` and fewer than five cards were discarded.
    """
    ace = tb.params[P_ACE_HIGH] != 0
    folded_count = tb.params[P_GOLEM_FOLDED] != 0
    x = np.int64(0)
    k = 0
    for i in range(r.pile_n):
        if folded_count or r.active[r.pile_owner[i]]:
            x |= card_bits(r.pile[i], ace)
            k += 1
    if k < HAND_SIZE:
        short = tb.params[P_GOLEM_SHORT]
        if short == SHORT_NONE:
            return np.int64(NO_VALUE), k
        if short == SHORT_DECK:
            while k < HAND_SIZE:
                x |= card_bits(draw(r), ace)
                k += 1
    return np.int64(eval_packed(x, ace)), k


@njit(cache=True, inline="always")
def _value(r, tb, s):
    """Value of seat ``s``'s five cards."""
    h = r.hand[s]
    return eval5(h[0], h[1], h[2], h[3], h[4], tb.params[P_ACE_HIGH] != 0)


@njit(cache=True)
def hand_value(r, tb, s):
    """Value of seat ``s``'s hand this deal (kept up to date by the deal and the draw)."""
    return np.int64(r.value[s])


@njit(cache=True)
def _showdown(r, tb):
    """Reveal the hands and free the golem: pay out the pot, or charge the penalty and deal again."""
    n = r.num_players
    best = np.int64(NO_VALUE)
    players = 0
    for s in range(n):
        if r.active[s]:
            v = hand_value(r, tb, s)
            r.final_value[s] = v
            r.showdowns[s] += 1
            players += 1
            if v > best:
                best = v
    gv, k = golem_value(r, tb)
    beaten = best > gv or (tb.params[P_GOLEM_TIE_PLAYER] != 0 and best == gv)
    r.last_hand = best
    r.last_golem = gv
    r.last_golem_cards = k
    d = r.num_showdowns  # = r.deal - 1: every earlier deal ended in a showdown the golem won
    r.log_beaten[d] = 1 if beaten else 0
    r.log_hand_cat[d] = best >> CATEGORY_SHIFT
    r.log_golem_cat[d] = -1 if gv == NO_VALUE else gv >> CATEGORY_SHIFT
    r.log_golem_cards[d] = k
    r.log_players[d] = players
    r.num_showdowns += 1
    winners = 0
    for s in range(n):
        if r.active[s] and r.final_value[s] == best:
            winners |= 1 << s
            r.best_hands[s] += 1
    if beaten:
        _award(r, tb, winners, END_SHOWDOWN)
        return
    r.golem_wins += 1
    for s in range(n):
        if (winners >> s) & 1 and r.num_in > 1:
            r.penalties[s] += 1
            paid = _force_pay(r, tb, s, tb.params[P_PENALTY])
            r.paid_penalty[s] += paid
    if tb.params[P_REDEAL_ANTE] != 0:
        for s in range(n):
            if r.active[s] and r.num_in > 1:
                r.paid_ante[s] += _force_pay(r, tb, s, tb.params[P_ANTE])
    if r.num_in == 1:
        _award_active(r, tb, END_LAST_PLAYER)
        return
    if r.deal >= tb.params[P_MAX_DEALS]:
        _award_active(r, tb, END_TURN_CAP)
        return
    r.deal += 1
    _start_deal(r, tb)


@njit(cache=True, inline="always")
def _force_pay(r, tb, s, chips):
    """Seat ``s`` pays ``chips`` it must pay; under ``cannot_pay = fold`` a short stack pays all and leaves."""
    if tb.params[P_CREDIT] != 0 or r.stack[s] >= chips:
        _pay(r, s, chips)
        return chips
    paid = max(r.stack[s], 0)
    _pay(r, s, paid)
    r.active[s] = 0
    r.num_in -= 1
    r.fold_deal[s] = r.deal
    r.fold_phase[s] = OUT_FORCED
    return paid


@njit(cache=True)
def house_cut(tb, pot):
    """The house's chips from a final pot: ``house_cut_pct`` percent, rounded as the rules say."""
    x = np.int64(pot) * tb.params[P_HOUSE_BP]
    rounding = tb.params[P_HOUSE_ROUNDING]
    if rounding == ROUND_DOWN:
        return x // 10000
    if rounding == ROUND_NEAREST:
        return (x + 5000) // 10000
    return (x + 9999) // 10000


@njit(cache=True)
def _award_active(r, tb, reason):
    """Pay the pot to the players still in (one of them, or all of them at the turn cap)."""
    winners = 0
    for s in range(r.num_players):
        if r.active[s]:
            winners |= 1 << s
    _award(r, tb, winners, reason)


@njit(cache=True)
def _award(r, tb, winners, reason):
    """Pay the pot, less the house cut, to the seats in bitmask ``winners``; end the game.

    Tied winners split it (odd chips one each from the amulet on), or with ``player_tie =
    amulet`` the first of them from the amulet takes it all; the turn-cap split is always even.
    """
    n = r.num_players
    if tb.params[P_SPLIT] == 0 and reason != END_TURN_CAP:
        for s in range(n):
            if (winners >> s) & 1:
                winners = 1 << s
                break
    k = 0
    for s in range(n):
        k += (winners >> s) & 1
    take = house_cut(tb, r.pot)
    net = r.pot - take
    each = net // k
    odd = net - each * k
    for s in range(n):
        if (winners >> s) & 1:
            chips = each
            if odd > 0:
                chips += 1
                odd -= 1
            r.won[s] += chips
            r.stack[s] += chips
            r.share[s] = 1.0 / k
    r.house_take = take
    r.over = reason


# Entry points for Python callers (tests, replays): one game ``g`` of a batch ``st``, tables ``tab``.


@njit(cache=True)
def game_init(st, tab, g, num_players, setup_seed, play_seed):
    """Set up game ``g`` of batch ``st``."""
    init_game(st[g], tab[0], num_players, setup_seed, play_seed)


@njit(cache=True)
def game_step(st, tab, g, mv):
    """Apply move ``mv`` to game ``g``: 0 done, 1 illegal (nothing changed)."""
    r = st[g]
    tb = tab[0]
    if not is_legal(r, tb, mv):
        return 1
    apply_move(r, tb, mv)
    return 0


@njit(cache=True)
def game_ranges(st, tab, g, out):
    """Legal move ranges of game ``g`` into ``out`` (6,): match ok, bet lo, hi, raise lo, hi, max discards."""
    r = st[g]
    tb = tab[0]
    out[0] = r.match_ok
    out[1] = r.bet_lo
    out[2] = r.bet_hi
    out[3] = r.raise_lo
    out[4] = r.raise_hi
    out[5] = tb.params[P_MAX_DISCARDS] if r.phase == DRAW else -1
