"""Pig's rules as numba kernels: a batch of games in preallocated arrays, one function per rule.

On a turn a player rolls a die as often as they like, adding each roll to the turn's total, or banks the total
into their score; a 1 loses the turn's total and ends the turn. The first player to bank ``target`` points wins.
A move record is (action, die): ROLL with the die it rolled (1-6), or BANK with 0; the die is the play stream's,
recorded so that the reference engine replays chance without the stream.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

import simulate.play as loop
from simulate.rng import randint

ROLL, BANK = 0, 1
MOVE_LEN = 2
MAX_PLAYERS = 4
TURN_CAP = 2000  # moves; a game this long ends as "turn_cap" (never reached by the bots below)
RANDOM, HOLD = 0, 1  # bot ids
END_REASONS = ("running", "rules", "turn_cap", loop.ILLEGAL_MOVE)  # ``PigState.over`` indexes them
RUNNING, END_RULES, END_TURN_CAP = 0, 1, 2
END_ILLEGAL = END_REASONS.index(loop.ILLEGAL_MOVE)


class PigState(NamedTuple):
    """A batch of games: one row per game."""

    score: np.ndarray  # int32 (G, MAX_PLAYERS)
    total: np.ndarray  # int32 (G,): the turn's total so far
    current: np.ndarray  # int8 (G,)
    over: np.ndarray  # int8 (G,): an index into END_REASONS
    moves: np.ndarray  # int32 (G,)
    turns: np.ndarray  # int32 (G,): turns begun
    rolls: np.ndarray  # int32 (G, MAX_PLAYERS)
    banks: np.ndarray  # int32 (G, MAX_PLAYERS)
    rng: np.ndarray  # uint64 (G,): the play stream


def new_state(num_games: int) -> PigState:
    """A batch's arrays, allocated once."""
    g, p = num_games, MAX_PLAYERS
    i32 = np.int32
    return PigState(
        np.zeros((g, p), i32),
        np.zeros(g, i32),
        np.zeros(g, np.int8),
        np.zeros(g, np.int8),
        np.zeros(g, i32),
        np.zeros(g, i32),
        np.zeros((g, p), i32),
        np.zeros((g, p), i32),
        np.zeros(g, np.uint64),
    )


@njit(cache=True)
def game_init(st, g, play_seed):
    """Game ``g`` at its start: seat 0 to move (Pig has no setup to draw)."""
    st.score[g, :] = 0
    st.rolls[g, :] = 0
    st.banks[g, :] = 0
    st.total[g] = 0
    st.current[g] = 0
    st.over[g] = RUNNING
    st.moves[g] = 0
    st.turns[g] = 1
    st.rng[g] = play_seed


@njit(cache=True)
def _next_turn(st, g, n):
    st.total[g] = 0
    st.current[g] = (st.current[g] + 1) % n
    st.turns[g] += 1


@njit(cache=True)
def game_step(st, g, n, target, action, die):
    """Apply one move record (``action``, ``die``) to game ``g``."""
    s = st.current[g]
    st.moves[g] += 1
    if action == BANK:
        st.banks[g, s] += 1
        st.score[g, s] += st.total[g]
        if st.score[g, s] >= target:
            st.over[g] = END_RULES
            return
        _next_turn(st, g, n)
    else:
        st.rolls[g, s] += 1
        if die == 1:
            _next_turn(st, g, n)
        else:
            st.total[g] += die
    if st.moves[g] >= TURN_CAP:
        st.over[g] = END_TURN_CAP


@njit(cache=True)
def is_legal(st, g, action):
    """Whether ``action`` may be played in game ``g``: a roll always, a bank once the turn holds points."""
    return action == ROLL or (action == BANK and st.total[g] > 0)


@njit(cache=True)
def bot_action(st, g, target, bot, params):
    """The bot's move: ``random`` banks half the time it may, ``hold`` rolls until the turn holds ``params[0]``
    points or would win."""
    s = st.current[g]
    if st.total[g] == 0:
        return ROLL
    if bot == RANDOM:
        return BANK if randint(st.rng, g, 2) == 1 else ROLL
    if st.total[g] >= params[0] or st.score[g, s] + st.total[g] >= target:
        return BANK
    return ROLL


@njit(cache=True)
def _record_point(st, g, n, points, count):
    k = count[g]
    if k < points.shape[1]:
        for s in range(n):
            points[g, k, s] = st.score[g, s]
        count[g] = k + 1


WORK = np.dtype([("mv", np.int64, (MOVE_LEN,))])
"""The play loop's work record: the move being played (``simulate.play.play_games``)."""


@njit(cache=True)
def _scratch(ctx, st):
    return (np.zeros(0, np.int64),)


@njit(cache=True, inline="always")
def _start(ctx, st, i, g, sc):
    game_init(st, i, ctx[5][g])


@njit(cache=True, inline="always")
def _running(st, i):
    return st.over[i] == RUNNING


@njit(cache=True, inline="always")
def _turn(ctx, st, i, g, sc, w):
    n, target, check, points, count = ctx[0], ctx[1], ctx[6], ctx[7], ctx[8]
    entry = ctx[2][g, st.current[i]]
    action = bot_action(st, i, target, ctx[3][entry], ctx[4][entry])
    if check and not is_legal(st, i, action):
        st.over[i] = END_ILLEGAL
        return False
    die = randint(st.rng, i, 6) + 1 if action == ROLL else 0
    w.mv[0] = action
    w.mv[1] = die
    before = st.turns[i]
    game_step(st, i, n, target, action, die)
    if points.shape[0] > 0 and (st.over[i] != 0 or (st.turns[i] != before and st.current[i] == 0)):
        _record_point(st, i, n, points, count)
    return True


@njit(cache=True)
def play_games(ctx, st, slot, g0, g1, w, trace):
    """Pig's game loop (``simulate.play.play_games``). ``ctx``: (n, target, seat_lineup (G, n), ids, params,
    play_seeds (G,), check, points, count); with ``check`` every bot move's legality is checked first, an illegal one
    ending its game (``END_ILLEGAL``); with a (G, rounds, n) ``points`` array, every seat's score at the end of every
    round and at the game's end is recorded, ``count`` (G,) counting them."""
    return loop.play_games(_scratch, _start, _running, _turn, loop.no_finish, ctx, st, slot, g0, g1, w, trace)


@njit(cache=True, parallel=True)
def play_blocks(ctx, st, keep, num_games, work, no_trace):
    """:func:`play_games` over blocks of games on numba threads (``simulate.play.play_blocks``)."""
    loop.play_blocks(play_games, ctx, st, keep, num_games, work, no_trace)
