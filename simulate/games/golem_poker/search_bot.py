"""Golem-poker's ``search`` bot: the shared ISMCTS (``simulate.search``) with golem-poker's six plug-in functions.

What a seat cannot see is every other hand, the other players' face-down discards and the deck.
A determinisation deals those cards anew from the cards the seat has not seen (its own hand and
its own discards are the only cards it knows), reads the opponents' bets as the ``equity`` bot
does (an opponent who bet or raised this deal holds a hand at least ``read_bet`` strong, one who
matched a bet at least ``read_call``; rejection sampling, at most ``MAX_TRIES`` deals) and
reseeds the deck's stream, so later draws and re-deals are fresh too.

Only the searching seat's decisions are searched: in the tree, as in the rollouts, the opponents
play the rollout bot with the hands the determinisation dealt them (``_apply`` plays them up to the
seat's next turn). Searched as players, as max^n ISMCTS searches them, an opponent would choose
without its own cards (every determinisation deals it other ones), folding and calling whatever
it holds; a model of it that plays its hand reads the seat's chances far better.

The tree's moves are the legal decisions with three bet and raise sizes (the minimum, half the pot
and the pot after matching, in whole antes, clipped into the legal range and without repeats),
fold only when there is a bet to match, and every legal discard. A tree move holds a size code
rather than chips (``engine_move`` turns it into chips), so moves stay small whatever the ante.
Rollouts play the default ``threshold`` bot for every seat; a leaf is valued by each seat's net
chips (the game's score), ``0.5 + net / (2 * scale antes)`` clipped to [0, 1]; a pot still being
played when the rollout stops counts the pot as shared by the players still in.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem_poker.bots import BOT_STREAM, BOTS, MAX_TRIES, MEMO, strength, threshold_bot
from simulate.games.golem_poker.data import HAND_SIZE, P_ACE_HIGH, P_ANTE, P_MAX_DISCARDS
from simulate.games.golem_poker.engine import apply_move, bet_range, can_match, raise_range, to_match, wager_range
from simulate.games.golem_poker.evaluator import eval5
from simulate.games.golem_poker.state import *
from simulate.rng import next_u64, randint
from simulate.search import decide_at, positions_searched, rollouts_at, search_maker, seat_to_move

# parameters of the search bot, in the order of its entry in ``bots.BOTS``
S_ITERATIONS, S_UCT_C, S_ROLLOUT_TURNS, S_SCALE, S_READ_BET, S_READ_CALL = range(6)
SEARCH_MOVES = 32  # bound on the tree's moves of one position (the 26 discards of up to three cards)
SIZES = 3  # bet and raise sizes of the tree: the minimum, half the pot, the pot
T_KIND, T_SIZE, T_CARDS = 0, 1, 2  # fields of a tree move (a size code where the engine's move has chips)
ROLLOUT_PARAMS = tuple(value for value, _ in BOTS["threshold"][2].values())
"""Parameters of the rollouts' bot: the default ``threshold`` bot."""


@njit(cache=True)
def new_scratch(st):
    """Per-worker scratch of the search bot: a one-record batch like ``st``, moves, card and memo arrays."""
    sim = np.empty_like(st[:1])
    mv = np.zeros(MOVE_LEN, np.int32)  # the engine move of a tree move being applied
    chosen = np.zeros(MOVE_LEN, np.int16)  # the tree move the search chose
    unseen = np.zeros(52, np.int8)
    memo = np.full(MEMO, -1.0)
    rollout = np.array(ROLLOUT_PARAMS)
    return sim, mv, chosen, unseen, memo, rollout


new_search = search_maker(MOVE_LEN, SEARCH_MOVES, new_scratch)
"""The tree and scratch of searches of ``iterations`` from ``records`` (``simulate.gamekit.SearchBench``)."""


@njit(cache=True, inline="always")
def _context(tb, params, scratch, seat):
    """The plug-in functions' ``ctx``: tables, scratch, the bot's reads and leaf scale, and the searching seat."""
    _, mv, _, unseen, memo, rollout = scratch
    return (tb, mv, unseen, memo, rollout, params[S_READ_BET], params[S_READ_CALL], params[S_SCALE], seat)


@njit(cache=True)
def search_action(st, g, tb, params, tree, scratch, out):
    """Write the search bot's move for the seat to act in game ``g`` of batch ``st`` into ``out``.

    ``params`` is the bot's parameter row; ``tree`` a :class:`simulate.search.Tree` with at least
    ``iterations + 1`` nodes and ``SEARCH_MOVES`` move slots; ``scratch`` from :func:`new_scratch`.
    One draw of the game's bot stream seeds the search (``simulate.search.decide_at``). Returns the nodes used
    (0 when the seat had a single move).
    """
    ctx = _context(tb, params, scratch, st[g].current)
    chosen = scratch[2]
    used = decide_at(
        _determinise, _moves, _apply, _rollout, _evaluate, ctx, st, g, BOT_STREAM, params, scratch[0], tree, chosen
    )
    engine_move(st[g], tb, chosen, out)
    return used


@njit(cache=True)
def rollouts_only(st, g, tb, params, tree, scratch):
    """The search bot's iterations without the tree (``simulate.search.rollouts_at``), for ``golem bench``."""
    ctx = _context(tb, params, scratch, st[g].current)
    return rollouts_at(
        _determinise, _rollout, seat_to_move, _evaluate, ctx, st, g, BOT_STREAM, params, scratch[0], tree
    )


@njit(cache=True, inline="always")
def _deal(unseen, pos, u, rng):
    """Next card of a partial shuffle of ``unseen[:u]`` (positions ``pos..`` not yet dealt)."""
    j = pos + randint(rng, 0, u - pos)
    c = unseen[j]
    unseen[j] = unseen[pos]
    unseen[pos] = c
    return c


@njit(cache=True)
def _determinise(ctx, root, sim, seat, rng):
    """``sim`` <- ``root`` with every card ``seat`` has not seen dealt anew and the deck's stream reseeded."""
    sim[0] = root[0]
    r = sim[0]
    tb, unseen, read_bet, read_call = ctx[0], ctx[2], ctx[5], ctx[6]
    ace = tb.params[P_ACE_HIGH] != 0
    r.rng[0] = next_u64(rng, 0)
    r.rng[1] = next_u64(rng, 0)
    seen = np.int64(0)
    for k in range(HAND_SIZE):
        seen |= np.int64(1) << r.hand[seat, k]
    for i in range(r.pile_n):
        if r.pile_owner[i] == seat:
            seen |= np.int64(1) << r.pile[i]
    u = 0
    for c in range(52):
        if not (seen >> c) & 1:
            unseen[u] = c
            u += 1
    pos = 0
    for o in range(r.num_players):
        if o == seat or r.hand[o, 0] < 0:
            continue
        need = 0.0
        if r.active[o] and r.aggr[o] == 2:
            need = read_bet
        elif r.active[o] and r.aggr[o] == 1:
            need = read_call
        for _ in range(MAX_TRIES):
            for k in range(HAND_SIZE):
                r.hand[o, k] = _deal(unseen, pos + k, u, rng)
            h = r.hand[o]
            r.value[o] = eval5(h[0], h[1], h[2], h[3], h[4], ace)
            if need <= 0.0 or strength(tb, r.value[o]) >= need:
                break
        pos += HAND_SIZE
    for i in range(r.pile_n):
        if r.pile_owner[i] != seat:
            r.pile[i] = _deal(unseen, pos, u, rng)
            pos += 1
    # the deck: the dealt cards first (the engine draws only from deck[deck_pos:]), then the rest
    k = 0
    for c in range(52):
        if (seen >> c) & 1:
            r.deck[k] = c
            k += 1
    for i in range(u):
        r.deck[k + i] = unseen[i]


@njit(cache=True, inline="always")
def _size_chips(r, tb, code, lo, hi):
    """Chips of bet or raise size ``code`` (0 the minimum, 1 half the pot, 2 the pot after matching), clipped."""
    if code == 0:
        return lo
    ante = tb.params[P_ANTE]
    pot = r.pot + to_match(r)
    antes = (pot + ante // 2) // ante if code == 2 else (pot + ante) // (2 * ante)
    return min(max(max(antes, 1) * ante, lo), hi)


@njit(cache=True)
def _moves(ctx, sim, out):
    """The tree's moves of the seat to act: discards, or fold (facing a bet), match and three sizes."""
    r = sim[0]
    tb = ctx[0]
    n = 0
    if r.phase == DRAW:
        maxd = tb.params[P_MAX_DISCARDS]
        for mask in range(32):
            bits = 0
            for b in range(HAND_SIZE):
                bits += (mask >> b) & 1
            if bits <= maxd:
                out[n, T_KIND] = DISCARD
                out[n, T_SIZE] = 0
                out[n, T_CARDS] = mask
                n += 1
        return n
    if to_match(r) > 0 or not can_match(r, tb):
        out[n, T_KIND] = FOLD
        out[n, T_SIZE] = 0
        out[n, T_CARDS] = 0
        n += 1
    if can_match(r, tb):
        out[n, T_KIND] = MATCH
        out[n, T_SIZE] = 0
        out[n, T_CARDS] = 0
        n += 1
    kind, lo, hi = wager_range(r, tb)
    if lo <= hi:
        last = np.int64(-1)
        for code in range(SIZES):
            chips = _size_chips(r, tb, code, lo, hi)
            if chips > last:  # sizes grow with the code: a repeat equals the one before
                out[n, T_KIND] = kind
                out[n, T_SIZE] = code
                out[n, T_CARDS] = 0
                n += 1
                last = chips
    return n


@njit(cache=True, inline="always")
def engine_move(r, tb, tmove, mv):
    """The engine's move (chips, not a size code) of tree move ``tmove`` in game record ``r``."""
    kind = tmove[T_KIND]
    mv[M_KIND] = kind
    mv[M_AMOUNT] = 0
    mv[M_CARDS] = tmove[T_CARDS]
    if kind == BET:
        lo, hi = bet_range(r, tb)
        mv[M_AMOUNT] = _size_chips(r, tb, tmove[T_SIZE], lo, hi)
    elif kind == RAISE:
        lo, hi = raise_range(r, tb)
        mv[M_AMOUNT] = _size_chips(r, tb, tmove[T_SIZE], lo, hi)


@njit(cache=True)
def _apply(ctx, sim, tmove):
    """Play the searching seat's tree move, then the opponents' decisions by the rollout bot up to its next turn."""
    r = sim[0]
    tb, mv, seat = ctx[0], ctx[1], ctx[8]
    engine_move(r, tb, tmove, mv)
    apply_move(r, tb, mv)
    while r.over == RUNNING and r.current != seat:
        _rollout(ctx, sim)


@njit(cache=True)
def _rollout(ctx, sim):
    """One decision of the seat to act by the rollout bot."""
    r = sim[0]
    tb, mv, memo, rollout = ctx[0], ctx[1], ctx[3], ctx[4]
    mv[M_KIND] = MATCH
    mv[M_AMOUNT] = 0
    mv[M_CARDS] = 0
    threshold_bot(r, tb, rollout, mv, memo)
    apply_move(r, tb, mv)


@njit(cache=True)
def _evaluate(ctx, sim, out):
    """Each seat's net chips, ``0.5 + net / (2 * scale antes)`` clipped to [0, 1]; a running pot shared."""
    r = sim[0]
    tb, scale = ctx[0], ctx[7]
    unit = 2.0 * scale * tb.params[P_ANTE]
    for s in range(r.num_players):
        net = float(r.won[s] - r.paid_ante[s] - r.paid_bet[s] - r.paid_penalty[s])
        if r.over == RUNNING and r.active[s]:
            net += r.pot / r.num_in
        out[s] = min(max(0.5 + net / unit, 0.0), 1.0)


@njit(cache=True)
def _searchable(st, g, tb, params, tree, scratch):
    """Whether game ``g`` runs and its seat to act has more than one tree move."""
    return st[g].over == RUNNING and _moves(_context(tb, params, scratch, st[g].current), st[g : g + 1], tree.buf) > 1


@njit(cache=True)
def search_positions(st, tb, params, tree, scratch, out, bare):
    """Search every game of ``st`` once (``bare``: the same iterations without the tree); the decisions searched
    (``simulate.search.positions_searched``, the benchmark of ``golem bench``)."""
    return positions_searched(_searchable, search_action, rollouts_only, st, tb, params, tree, scratch, out, bare)
