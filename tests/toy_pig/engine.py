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

from simulate.rng import randint

ROLL, BANK = 0, 1
MOVE_LEN = 2
MAX_PLAYERS = 4
TURN_CAP = 2000  # moves; a game this long ends as "turn_cap" (never reached by the bots below)
RANDOM, HOLD = 0, 1  # bot ids
END_RULES, END_TURN_CAP = 0, 1


class PigState(NamedTuple):
    """A batch of games: one row per game."""

    score: np.ndarray  # int32 (G, MAX_PLAYERS)
    total: np.ndarray  # int32 (G,): the turn's total so far
    current: np.ndarray  # int8 (G,)
    over: np.ndarray  # int8 (G,): 0 running, 1 won, 2 turn cap
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
    st.over[g] = 0
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
            st.over[g] = 1
            return
        _next_turn(st, g, n)
    else:
        st.rolls[g, s] += 1
        if die == 1:
            _next_turn(st, g, n)
        else:
            st.total[g] += die
    if st.moves[g] >= TURN_CAP:
        st.over[g] = 2


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


@njit(cache=True)
def play_games(st, n, target, seat_lineup, ids, params, play_seeds, trace, points, count):
    """Play one game per row of ``seat_lineup``; with a (TURN_CAP, MOVE_LEN) ``trace`` (one game), record its moves;
    with a (G, rounds, n) ``points`` array, every seat's score at the end of every round and at the game's end."""
    record = points.shape[0] > 0
    for g in range(play_seeds.shape[0]):
        game_init(st, g, play_seeds[g])
        while st.over[g] == 0:
            entry = seat_lineup[g, st.current[g]]
            action = bot_action(st, g, target, ids[entry], params[entry])
            die = randint(st.rng, g, 6) + 1 if action == ROLL else 0
            if trace.shape[0] > 0:
                trace[st.moves[g], 0] = action
                trace[st.moves[g], 1] = die
            before = st.turns[g]
            game_step(st, g, n, target, action, die)
            if record and (st.over[g] != 0 or (st.turns[g] != before and st.current[g] == 0)):
                _record_point(st, g, n, points, count)
