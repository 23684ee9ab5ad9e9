"""Play batches of golem-poker games (pots) with bots: the njit game loop and its public wrappers."""

from __future__ import annotations

import numpy as np
from numba import njit

import simulate.play as loop
from simulate.game import Lineup
from simulate.gamekit import NO_POINTS
from simulate.games.golem_poker.bots import MAX_BOT_PARAMS, MEMO, SCRATCH, SEARCH, bot_records, choose_move
from simulate.games.golem_poker.columns import SCORE_PARTS, column_arrays, column_dicts, fill_game, score_parts
from simulate.games.golem_poker.data import PokerData
from simulate.games.golem_poker.engine import apply_move, init_game, is_legal
from simulate.games.golem_poker.search_bot import S_ITERATIONS, SEARCH_MOVES, new_scratch, search_action
from simulate.games.golem_poker.state import END_ILLEGAL, MOVE_LEN, RUNNING, new_state
from simulate.search import new_tree

PAD = np.dtype([("mv", np.int32, (MOVE_LEN,)), ("scratch", np.int8, (SCRATCH,)), ("memo", np.float64, (MEMO,))])
"""Scratch record of a game loop: the move being built and the bots' work arrays. Record fields are array views
without a reference count, so the inlined bot and engine functions take them without the atomic increments a
plain array costs at every call (a fifth of a threshold-bot game)."""


def _pads(k: int) -> np.ndarray:
    """``k`` scratch records, memos empty (-1)."""
    pads = np.zeros(k, PAD)
    pads["memo"] = -1.0
    return pads


@njit(cache=True)
def _scratch(ctx, st):
    """The loop's buffers: the search bot's tree (sized for the lineup's largest budget) and scratch, score parts."""
    lineup = ctx[3]
    iterations = 0
    for b in range(lineup.shape[0]):
        if lineup[b].id == SEARCH:
            iterations = max(iterations, int(lineup[b].params[S_ITERATIONS]))
    return new_tree(iterations + 1, MOVE_LEN, SEARCH_MOVES), new_scratch(st), np.zeros(len(SCORE_PARTS), np.int64)


@njit(cache=True, inline="always")
def _start(ctx, st, i, g, sc):
    init_game(st[i], ctx[0][0], ctx[1], ctx[4][g], ctx[5][g])


@njit(cache=True, inline="always")
def _turn(ctx, st, i, g, sc, w):
    """The seat to move's move, checked; a trajectory point at a stage's end."""
    tb = ctx[0][0]
    r = st[i]
    mv = w.mv
    bp = ctx[3][ctx[2][g, r.current]]
    if bp.id == SEARCH:  # a call: the tree's arrays are touched in a search bot's turn only
        search_action(st, i, tb, bp.params, sc[0], sc[1], mv)
    else:
        choose_move(r, tb, bp, mv, w.scratch, w.memo)
    if not is_legal(r, tb, mv):
        r.over = END_ILLEGAL
        return False
    phase = r.phase
    deal = r.deal
    apply_move(r, tb, mv)
    points = ctx[11]
    if points.shape[0] > 0 and (r.phase != phase or r.deal != deal or r.over != RUNNING):  # a stage's end
        loop.record_point(score_parts, r, tb, r.num_players, points, ctx[12], g, sc[2])
    return True


@njit(cache=True, inline="always")
def _finish(ctx, st, i, g, sc):
    """Game ``g``'s columns, when the loop writes them."""
    gb = ctx[7]
    if gb.shape[0] > 0:
        fill_game(st[i], ctx[0][0], ctx[1], g, ctx[6], gb, ctx[8], ctx[9], ctx[10])


@njit(cache=True)
def _play_games(ctx, st, slot, g0, g1, w, trace):
    """Golem-poker's game loop: ``simulate.play.play_games`` over its plug-ins; a bot's illegal move ends its game.

    ``ctx``: (tables, num_players, seat_bot (G, n), lineup (``bots.bot_records``), setup_seeds, play_seeds (G,),
    then the column arrays of ``fill_game`` (gi, gb, si, sf, dl: each game's columns written as it ends when they
    are not empty), points, num_points). ``points`` (G, R, n) int32: when G > 0, every seat's net chips at the end
    of each stage of game g (a betting round or a draw, of every deal; the last stage ends with the pot awarded) go
    to ``points[g, k]``, ``num_points`` (G,) counting them (``simulate.gamekit.new_trajectories``). ``w``: a
    ``PAD`` record; ``trace`` takes game ``g0``'s moves.
    """
    return loop.play_games(_scratch, _start, loop.not_over, _turn, _finish, ctx, st, slot, g0, g1, w, trace)


@njit(cache=True, parallel=True)
def _play_blocks(ctx, st, keep, num_games, work, no_trace):
    """:func:`_play_games` over blocks of games on numba threads (``simulate.play.play_blocks``)."""
    loop.play_blocks(_play_games, ctx, st, keep, num_games, work, no_trace)


def _ctx(data, lineup, check=True, columns=None, points=NO_POINTS):
    """The loop's ``ctx`` (see :func:`_play_games`), the lineup as ``bots.bot_records``; every move is checked
    (``check`` is always on); no columns written without ``columns``."""
    head = loop.lineup_context(data.kernel, lineup, MAX_BOT_PARAMS)
    bots = bot_records(head[3], np.asarray(lineup.bot_params, dtype=np.float64).reshape(-1, MAX_BOT_PARAMS))
    return (*head[:3], bots, *head[5:], *(columns or column_arrays(0, lineup.num_players)), *points)


@njit(cache=True, inline="always")
def _setup(ctx, st, g):
    init_game(st[g], ctx[0][0], ctx[1], ctx[2][g], ctx[3][g])


@njit(cache=True, inline="always")
def _replay(ctx, st, g, mv):
    apply_move(st[g], ctx[0][0], mv)


@njit(cache=True)
def _replay_games(ctx, st, moves, offsets):
    """Recorded moves replayed by the engine alone (``simulate.play.replay_games``)."""
    loop.replay_games(_setup, _replay, ctx, st, moves, offsets)


@njit(cache=True)
def _decide_moves(ctx, st, work, moves):
    """The move of the seat to move in each record of ``st`` (``simulate.play.decide_moves``)."""
    loop.decide_moves(_scratch, _turn, ctx, st, work, moves)


LOOP = loop.Loop(
    _play_games,
    _play_blocks,
    lambda data, g: new_state(g),
    lambda st, k: _pads(k),
    _ctx,
    max_moves=20000,
    replay_games=_replay_games,
    decide_kernel=_decide_moves,
)
play_batch = loop.by_arguments(LOOP.final_records)
"""Play one game (pot) per seed pair to the end, every move checked (``simulate.play.Loop.batch``; seat 0 holds
the amulet); return the final game records."""
replay_moves = LOOP.replay_moves
"""Final records of games replayed from their recorded moves by the numba engine, without bots."""
trace_game = LOOP.trace_game
"""Play one game and return its move records (moves, MOVE_LEN) and its final record (a batch of 1)."""
decide_moves = LOOP.decide_moves
"""The move (MOVE_LEN,) each record's seat to move picks, the seats played as in game (``setup_seed``,
``play_seed``); the records are left as they were."""


def play_lineup_columns(
    data: PokerData, lineup: Lineup, threads: int = 1, points: tuple[np.ndarray, np.ndarray] = NO_POINTS
) -> tuple[dict, dict, dict]:
    """Play one game per seed pair and return its ``games``, ``seats`` and per-deal columns (as ``columns``).

    No game record is kept, so memory stays small. ``points`` (``simulate.gamekit.new_trajectories`` of G games,
    none by default) take every seat's net chips at the end of every stage (betting round or draw).
    """
    g = len(np.atleast_1d(lineup.setup_seeds))
    columns = column_arrays(g, lineup.num_players)
    ctx = _ctx(data, lineup, True, columns, points)
    LOOP.run(ctx, new_state(max(1, loop.num_blocks(g, threads))), g, threads, keep=False)  # a record a block, reused
    return column_dicts(*columns)


play_columns = loop.by_arguments(play_lineup_columns)
""":func:`play_lineup_columns` with the lineup's fields as arguments, as :func:`play_batch` takes them."""
