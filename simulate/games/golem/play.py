"""Play batches of Golem games with bots: the njit game loop, replays and results."""

from __future__ import annotations

import numpy as np
from numba import njit

import simulate.play as loop
from simulate.game import Lineup
from simulate.gamekit import NO_POINTS
from simulate.games.golem import engine
from simulate.games.golem.apprentice_bot import apprentice_action, new_apprentice_scratch
from simulate.games.golem.bots import APPRENTICE, MAX_BOT_PARAMS, SEARCH
from simulate.games.golem.codes import PH_END
from simulate.games.golem.data import GolemData
from simulate.games.golem.engine.state import PAD, new_state
from simulate.games.golem.features import NUM_FEATURES, features
from simulate.games.golem.heuristics import choose
from simulate.games.golem.search_bot import MAX_MOVES as SEARCH_MOVES
from simulate.games.golem.search_bot import MOVE_LEN, S_ITERATIONS, new_scratch, search_action
from simulate.search import new_tree

MAX_MOVES = 4000  # bound on the decisions of one game (a trace buffer size, not a rule)
NO_RECORD = np.zeros((0, 0, 0, NUM_FEATURES), np.float32)
NO_COUNT = np.zeros(0, np.int64)
WORK = np.dtype([("mv", np.int16, (1,))])
"""The loop's work record: the action being played (``simulate.play.play_games``)."""


@njit(cache=True)
def _scratch(ctx, st):
    """The loop's buffers: the bots' pad, the search bot's tree (sized for the lineup's largest budget) and scratch,
    the apprentice's scratch, a feature vector and score parts."""
    iterations = loop.largest_budget(ctx[3], ctx[4], SEARCH, S_ITERATIONS)
    pads = np.zeros(1, PAD)
    scratch = new_scratch(st, pads)
    tree = new_tree(iterations + 1, MOVE_LEN, SEARCH_MOVES)
    f = np.zeros(NUM_FEATURES, np.float64)
    return tree, scratch, new_apprentice_scratch(st, scratch), f, np.zeros(engine.NUM_PARTS, np.int64), pads


@njit(cache=True, inline="always")
def _start(ctx, st, i, g, sc):
    st[i].gift_seat = engine.gift_seat(ctx[2][g])
    engine.init_game(st[i], ctx[0][0], ctx[1], ctx[5][g], ctx[6][g])


@njit(cache=True, inline="always")
def _running(st, i):
    return st[i].phase != PH_END and st[i].error == 0


@njit(cache=True, inline="always")
def _turn(ctx, st, i, g, sc, w):
    """The seat to move's action (checked with ``check``), then the features and trajectory point to record."""
    tb = ctx[0][0]
    r = st[i]
    b, bot, bot_params = loop.seat_entry(ctx, g, engine.current_player(r))
    if bot == SEARCH:
        a = search_action(st, i, tb, bot_params[b], sc[0], sc[1])
    elif bot == APPRENTICE:
        a = apprentice_action(st, i, tb, bot_params[b], sc[2])
    else:
        a = choose(r, tb, bot, _weights(bot_params, b), sc[5][0])
    w.mv[0] = a
    if ctx[7] and not engine.is_legal(r, tb, a):
        r.error = 1
        return False
    rnd = r.round
    engine.apply_action(r, tb, a)
    if ctx[8].shape[0] > 0:
        _record(r, tb, ctx[8], ctx[9], g, sc[3])
    points = ctx[10]
    if points.shape[0] > 0 and r.round != rnd:  # a round's end (the fourth's ends the game)
        loop.record_point(engine.score_parts, r, tb, r.n, points, ctx[11], g, sc[4])
    return True


@njit(cache=True)
def _play_games(ctx, st, slot, g0, g1, w, trace):
    """Golem's game loop: ``simulate.play.play_games`` over its plug-ins, with work record ``w`` (``WORK``).

    ``ctx``: (tables, num_players, seat_bot (G, n), bot_ids (L,), bot_params (L, MAX_BOT_PARAMS), setup_seeds,
    play_seeds (G,), check, rec, rec_count, points, num_points). With ``check``, every action is checked first and
    an illegal one stops its game (``error`` = 1). ``rec`` (G, D, n, F) float32: when G > 0, after each of the
    first D decisions of game g the apprentice's features of the position from every seat's view go to
    ``rec[g, d, seat]`` and ``rec_count[g]`` counts them (``apprentice.positions``); the games are the same as
    without. ``points`` (G, R, n) int32: when G > 0, every seat's score (as the final scoring counts it) at the end
    of game g's k-th round goes to ``points[g, k]``, ``num_points`` (G,) counting them
    (``simulate.gamekit.new_trajectories``). ``trace`` takes game ``g0``'s actions.
    """
    return loop.play_games(_scratch, _start, _running, _turn, loop.no_finish, ctx, st, slot, g0, g1, w, trace)


@njit(cache=True, parallel=True)
def _play_blocks(ctx, st, keep, num_games, work, no_trace):
    """:func:`_play_games` over blocks of games on numba threads (``simulate.play.play_blocks``)."""
    loop.play_blocks(_play_games, ctx, st, keep, num_games, work, no_trace)


def _ctx(data, lineup, check, record=NO_RECORD, record_count=NO_COUNT, points=NO_POINTS):
    return (*loop.lineup_context(data.kernel, lineup, MAX_BOT_PARAMS), check, record, record_count, *points)


@njit(cache=True)
def _record(r, tb, rec, rec_count, g, f):
    """The features of game ``g``'s position from every seat's view into its next row of ``rec`` (while it has one)."""
    d = rec_count[g]
    if d >= rec.shape[1]:
        return
    for s in range(r.n):
        features(r, tb, s, f)
        for k in range(f.shape[0]):
            rec[g, d, s, k] = f[k]
    rec_count[g] = d + 1


@njit(cache=True, inline="always")
def _weights(bot_params, b):
    """Row ``b`` of the lineup's parameters as the weight tuple of ``heuristics.choose``."""
    return (
        bot_params[b, 0],
        bot_params[b, 1],
        bot_params[b, 2],
        bot_params[b, 3],
        bot_params[b, 4],
        bot_params[b, 5],
        bot_params[b, 6],
        bot_params[b, 7],
    )


@njit(cache=True, inline="always")
def _setup(ctx, st, g):
    engine.init_game(st[g], ctx[0][0], ctx[1], ctx[2][g], ctx[3][g])


@njit(cache=True, inline="always")
def _replay(ctx, st, g, mv):
    engine.apply_action(st[g], ctx[0][0], np.int64(mv[0]))


@njit(cache=True)
def _replay_games(ctx, st, moves, offsets):
    """Recorded actions replayed by the engine alone (``simulate.play.replay_games``)."""
    loop.replay_games(_setup, _replay, ctx, st, moves, offsets)


@njit(cache=True)
def score_parts_one(st, g, tab, s, out):
    """Score parts of seat ``s`` in record ``g`` (for tests)."""
    engine.score_parts(st[g], tab[0], s, out)


def play_lineup(
    data: GolemData,
    lineup: Lineup,
    threads: int = 1,
    check_moves: bool = False,
    record: np.ndarray = NO_RECORD,
    record_count: np.ndarray | None = None,
    points: tuple[np.ndarray, np.ndarray] = NO_POINTS,
) -> np.ndarray:
    """Play one game per seed pair to the end (``simulate.play.Loop.batch``); return the final records.

    ``check_moves`` is off by default: the bots choose among the legal actions only (the tests check that checked and
    unchecked batches are equal; traces and replays always check); an illegal action stops its game (``error`` = 1).
    ``record``, ``record_count``: (G, D, num_players, F) float32 and (G,) int64, the apprentice's features after each
    of the first D decisions of every game from every seat's view, and how many were recorded
    (``apprentice.positions``; serial play only). ``points``: trajectories to fill
    (``simulate.gamekit.new_trajectories`` of G games), every seat's score at the end of every round.
    """
    count = NO_COUNT if record_count is None else record_count
    threads = threads if record.shape[0] == 0 else 1
    return LOOP.batch(data, lineup, threads, check_moves, record=record, record_count=count, points=points)[0]


play_batch = loop.by_arguments(play_lineup)
""":func:`play_lineup` with the lineup's fields as arguments (``simulate.play.by_arguments``)."""


@njit(cache=True)
def _decide_moves(ctx, st, work, moves):
    """The action of the seat to move in each record of ``st`` (``simulate.play.decide_moves``)."""
    loop.decide_moves(_scratch, _turn, ctx, st, work, moves)


LOOP = loop.Loop(
    _play_games,
    _play_blocks,
    lambda data, g: new_state(g),
    lambda st, k: np.zeros(k, WORK),
    _ctx,
    max_moves=MAX_MOVES,
    replay_games=_replay_games,
    decide_kernel=_decide_moves,
)
replay_moves = LOOP.replay_moves
"""The numba engine applying recorded actions (for ``golem bench``); returns the final records."""
decide_moves = LOOP.decide_moves
"""The action (as a one-action move record) each record's seat to move picks, the seats played as in game
(``setup_seed``, ``play_seed``); the records are left as they were."""


def trace_game(
    data: GolemData,
    num_players: int,
    seat_bot: np.ndarray,
    bot_ids: np.ndarray,
    bot_params: np.ndarray,
    setup_seed: int,
    play_seed: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Play one game, every action checked; return its actions and its final record (a batch of 1)."""
    moves, st = LOOP.trace_game(data, num_players, seat_bot, bot_ids, bot_params, setup_seed, play_seed)
    return moves[:, 0], st
