"""Play batches of Golems games with bots: the njit game loop and its public wrappers."""

from __future__ import annotations

import numpy as np
from numba import njit

import simulate.play as loop
from simulate.game import Lineup
from simulate.gamekit import NO_POINTS
from simulate.games.golems.apprentice import apprentice_action
from simulate.games.golems.bots import APPRENTICE, MAX_BOT_PARAMS, SEARCH, choose, new_work
from simulate.games.golems.columns import NUM_PARTS
from simulate.games.golems.data import GolemsData
from simulate.games.golems.engine import deal_gift, init_game, is_legal, score_parts, step
from simulate.games.golems.features import NUM_FEATURES
from simulate.games.golems.search_bot import S_ITERATIONS, SEARCH_MOVES, new_scratch, search_action
from simulate.games.golems.state import END_ILLEGAL, MOVE_LEN, new_state
from simulate.games.golems.value import features
from simulate.play import no_finish
from simulate.search import new_tree

NO_RECORD = np.zeros((0, NUM_FEATURES), np.float32), np.zeros(0, np.int64), 0
"""The empty feature rows, row counts and first game of a loop that records none."""


@njit(cache=True)
def _record(r, tb, i, rec_x, rec_used, w):
    """The features of position ``r`` from every seat's view into game ``i``'s rows of ``rec_x`` (while they last)."""
    n = r.num_players
    cap = rec_x.shape[0] // rec_used.shape[0]
    j = rec_used[i]
    if j + n > cap:
        return
    for s in range(n):
        features(r, tb, s, w.work, w.feat)
        row = i * cap + j + s
        for f in range(NUM_FEATURES):
            rec_x[row, f] = w.feat[f]
    rec_used[i] = j + n


@njit(cache=True)
def _scratch(ctx, st):
    """The loop's buffers: the search bot's tree (sized for the lineup's largest budget) and scratch, score parts."""
    iterations = loop.largest_budget(ctx[3], ctx[4], SEARCH, S_ITERATIONS)
    return new_tree(iterations + 1, MOVE_LEN, SEARCH_MOVES), new_scratch(st), np.zeros(NUM_PARTS, np.int64)


@njit(cache=True, inline="always")
def _start(ctx, st, i, g, sc):
    init_game(st[i], ctx[0][0], ctx[1], ctx[5][g], ctx[6][g])
    deal_gift(st[i], ctx[0][0], ctx[2][g])


@njit(cache=True, inline="always")
def _turn(ctx, st, i, g, sc, w):
    """The seat to move's move (checked with ``check``), then the features and trajectory point to record."""
    tb = ctx[0][0]
    r = st[i]
    mv = w.mv
    b, bot, bot_params = loop.seat_entry(ctx, g, r.current)
    if bot == SEARCH:
        search_action(st, i, tb, bot_params[b], sc[0], sc[1], mv)
    elif bot == APPRENTICE:
        apprentice_action(r, tb, bot_params[b, 0], bot_params[b, 1], bot_params[b, 2], int(bot_params[b, 3]), w)
    else:
        choose(r, tb, bot, bot_params, b, w)
    if ctx[7] and not is_legal(r, tb, mv):
        r.over = END_ILLEGAL
        return False
    step(r, tb, mv)
    used, points = ctx[9], ctx[11]
    if used.shape[0] > 0:
        _record(r, tb, g - ctx[10], ctx[8], used, w)
    if points.shape[0] > 0 and r.current == 0:  # a round's end
        loop.record_point(score_parts, r, tb, r.num_players, points, ctx[12], g, sc[2])
    return True


@njit(cache=True)
def _play_games(ctx, st, slot, g0, g1, w, trace):
    """Golems' game loop: ``simulate.play.play_games`` over its plug-ins, with bot work record ``w``.

    ``ctx``: (tables, num_players, seat_bot (G, n), bot_ids (L,), bot_params (L, MAX_BOT_PARAMS), setup_seeds,
    play_seeds (G,), check, rec_x, used, rec_g0, points, num_points). With ``check``, every move is checked first
    and an illegal one ends its game (``END_ILLEGAL``). ``used`` (B,): when not empty, the features of the position
    after each move of game g from every seat's view go to ``rec_x`` (rows ``(g - rec_g0) * cap ..``, cap = rows /
    B, seats in order; the apprentice's training positions), ``used`` counting each game's rows. ``points``
    (G, R, n) int32: when G > 0, every seat's score at the end of game g's k-th round (a game ends at a round's end;
    solo, every turn is a round) goes to ``points[g, k]``, ``num_points`` (G,) counting them
    (``simulate.gamekit.new_trajectories``). ``trace`` takes game ``g0``'s moves.
    """
    return loop.play_games(_scratch, _start, loop.not_over, _turn, no_finish, ctx, st, slot, g0, g1, w, trace)


@njit(cache=True, parallel=True)
def _play_blocks(ctx, st, keep, num_games, work, no_trace):
    """:func:`_play_games` over blocks of games on numba threads (``simulate.play.play_blocks``)."""
    loop.play_blocks(_play_games, ctx, st, keep, num_games, work, no_trace)


def _ctx(data, lineup, check, record=NO_RECORD, points=NO_POINTS):
    return (*loop.lineup_context(data.kernel, lineup, MAX_BOT_PARAMS), check, *record, *points)


LOOP = loop.Loop(
    _play_games,
    _play_blocks,
    lambda data, g: new_state(g, data.tables),
    lambda st, k: new_work(k, st.dtype),
    _ctx,
    max_moves=20000,
)


play_batch = loop.by_arguments(LOOP.final_records)
"""Play one game per seed pair to the end (``simulate.play.Loop.batch``); return the final game records.

``check_moves`` is off by default: every bot builds its move from legal options only (the tests check each bot's
moves under every rule option, and that checked and unchecked batches are equal), and the check costs 6% of the
kernel. ``points``: trajectories to fill (``simulate.gamekit.new_trajectories`` of G games), every seat's score at
the end of every round."""


def play_lineup_recorded(
    data: GolemsData, lineup: Lineup, cap: int, block: int = 256
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`play_batch` (serial) recording the features of the position after every move from every seat's view.

    Returns the final records and the positions: features (N, NUM_FEATURES) float32, game index (N,) and seat
    (N,), game by game in move order, at most ``cap`` rows per game (the rest of a longer game is not recorded).
    Games are played in blocks of ``block`` (the rows' scratch is ``block x cap``); the games are those of
    :func:`play_batch`.
    """
    g = len(lineup.setup_seeds)
    n = lineup.num_players
    st = new_state(g, data.tables)
    w = new_work(1, st.dtype)[0]
    no_trace = np.zeros((0, MOVE_LEN), np.int16)
    xs, games, seats = [], [], []
    for g0 in range(0, g, block):
        g1 = min(g, g0 + block)
        rec_x = np.zeros(((g1 - g0) * cap, NUM_FEATURES), np.float32)
        used = np.zeros(g1 - g0, np.int64)
        record = (rec_x, used, g0)
        ctx = _ctx(data, lineup, False, record)
        _play_games(ctx, st, -1, g0, g1, w, no_trace)
        x, game, seat = loop.recorded_rows(rec_x.reshape(g1 - g0, cap, NUM_FEATURES), used, n, g0)
        xs.append(x)
        games.append(game)
        seats.append(seat)
    if not xs:
        return st, np.zeros((0, NUM_FEATURES), np.float32), np.zeros(0, np.int64), np.zeros(0, np.int8)
    return st, np.concatenate(xs), np.concatenate(games), np.concatenate(seats)


trace_game = LOOP.trace_game
"""Play one game, every move checked; its move records (moves, MOVE_LEN) and final state (``simulate.play.Loop``)."""
