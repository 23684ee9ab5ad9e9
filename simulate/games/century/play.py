"""Play batches of Century games with bots: the njit game loop and its public wrapper."""

from __future__ import annotations

import numpy as np
from numba import njit

import simulate.play as loop
from simulate.game import Lineup, Positions
from simulate.gamekit import NO_POINTS
from simulate.games.century import bots, engine, state
from simulate.games.century.apprentice import apprentice_action, new_apprentice_scratch
from simulate.games.century.columns import NUM_PARTS, results
from simulate.games.century.data import KIND_CREATE, KIND_TRADE, KIND_UPGRADE, CenturyData
from simulate.games.century.features import NUM_FEATURES, features
from simulate.games.century.search_bot import S_ITERATIONS, new_scratch, search_action
from simulate.play import no_finish
from simulate.search import new_tree

WORK = np.dtype([("mv", np.int16, (state.MOVE_LEN,))])
"""Scratch record of a game loop: the move being built. A record field is an array view without a reference
count, so the inlined engine and bot functions take it without the atomic increments a plain array costs
at every call (12-15% of a greedy game)."""
PROFILE = ("merchants_bought", "creates", "trades", "upgrades", "rests", "claims", "crystals_discarded")
"""Play-profile counts per seat (``docs/run-format.md``): merchant cards acquired, merchant cards played by kind
(create, trade, upgrade), rests, point cards claimed and crystals returned over the caravan limit."""
C_BOUGHT, C_CREATES, C_TRADES, C_UPGRADES, C_RESTS, C_CLAIMS, C_DISCARDED = range(len(PROFILE))
_PLAY_COUNT = np.zeros(3, np.int64)
_PLAY_COUNT[KIND_CREATE], _PLAY_COUNT[KIND_TRADE], _PLAY_COUNT[KIND_UPGRADE] = C_CREATES, C_TRADES, C_UPGRADES
NO_FEATS = np.zeros((0, 0, NUM_FEATURES), np.float32), np.zeros(0, np.int64)
"""The empty feature rows and row counts of a loop that records none."""


@njit(cache=True)
def _scratch(ctx, st):
    """The loop's buffers: move lists, the planner's hands, the search bot's tree (sized for the lineup's largest
    budget) and scratch, the apprentice's scratch, a feature row and score parts."""
    nm = ctx[0][0].m_kind.shape[0]
    iterations = loop.largest_budget(ctx[3], ctx[4], bots.SEARCH, S_ITERATIONS)
    return (
        np.zeros((bots.SCRATCH_MOVES, state.MOVE_LEN), np.int16),
        np.zeros(3 * nm + 1, np.int16),  # planner scratch: two hands and a card list
        new_tree(iterations + 1, state.MOVE_LEN, bots.SCRATCH_MOVES),
        new_scratch(st),
        new_apprentice_scratch(st),
        np.zeros(NUM_FEATURES),
        np.zeros(NUM_PARTS, np.int64),
    )


@njit(cache=True, inline="always")
def _start(ctx, st, i, g, sc):
    """Deal game ``g`` into record ``i`` (the gift to the lineup's first entry), noting its opening rows."""
    tb = ctx[0][0]
    r = st[i]
    engine.init_game(r, tb, ctx[1], ctx[5][g], ctx[6][g])
    engine.deal_gift(r, tb, ctx[2][g])
    open_m, open_p, counts = ctx[7], ctx[8], ctx[9]
    for k in range(state.MAX_MERCHANT_ROW):
        open_m[g, k] = r.m_row[k]
    for k in range(state.MAX_POINT_ROW):
        open_p[g, k] = r.p_row[k]
    c = counts[g]
    c[:, :] = 0


@njit(cache=True, inline="always")
def _turn(ctx, st, i, g, sc, w):
    """The seat to move's action and discard, each checked; its play profile, features and trajectory point."""
    tb = ctx[0][0]
    r = st[i]
    mv = w.mv
    s = r.current
    b, bot, bot_params = loop.seat_entry(ctx, g, s)
    if bot == bots.GREEDY:  # the cheap common bot without the dispatch call: ~10% of a greedy run
        bots.greedy_action(r, tb, bot_params, b, mv)
    elif bot == bots.SEARCH:
        search_action(st, i, tb, bot_params[b], sc[2], sc[3], mv)
    elif bot == bots.APPRENTICE:
        apprentice_action(st, i, tb, bot_params[b], sc[4], mv)
    else:
        bots.choose_action(r, tb, bot, bot_params, b, mv, sc[0], sc[1])
    if not engine.is_legal_action(r, tb, mv):
        r.over = state.END_ILLEGAL
        return False
    engine.apply_action(r, tb, mv)
    bots.choose_discard(r, tb, bot, bot_params, b, mv)
    if not engine.is_legal_discard(r, tb, mv):
        r.over = state.END_ILLEGAL
        return False
    engine.apply_discard(r, mv)
    _count(ctx[9][g, s], tb, mv)
    engine.end_turn(r, tb, mv[state.M_KIND] == state.CLAIM)
    feats, points = ctx[10], ctx[12]
    if feats.shape[0] > 0:
        _record(r, tb, feats[g], ctx[11], g, sc[5], sc[6])
    if points.shape[0] > 0 and r.current == 0:  # a round's end (every end of a game is one)
        loop.record_point(engine.score_parts, r, tb, r.num_players, points, ctx[13], g, sc[6])
    return True


@njit(cache=True)
def _play_games(ctx, st, slot, g0, g1, w, trace):
    """Century's game loop: ``simulate.play.play_games`` over its plug-ins.

    ``ctx``: (tables, num_players, seat_bot (G, n), bot_ids (L,), bot_params (L, MAX_BOT_PARAMS), setup_seeds,
    play_seeds (G,), opening merchant and point rows (G, MAX_MERCHANT_ROW), (G, MAX_POINT_ROW), play-profile counts
    (G, MAX_PLAYERS, len(PROFILE)) int32, features (G, R, NUM_FEATURES) float32 and their row counts (G,),
    trajectory points (G, R, n) int32 and their counts (G,)). The features (every seat's view after every turn,
    seat-major, up to R rows a game) and the trajectory points (every seat's score at a round's end) are recorded
    when their arrays are not empty; ``trace`` takes game ``g0``'s moves.
    """
    return loop.play_games(_scratch, _start, loop.not_over, _turn, no_finish, ctx, st, slot, g0, g1, w, trace)


@njit(cache=True, parallel=True)
def _play_blocks(ctx, st, keep, num_games, work, no_trace):
    """:func:`_play_games` over blocks of games on numba threads (``simulate.play.play_blocks``)."""
    loop.play_blocks(_play_games, ctx, st, keep, num_games, work, no_trace)


def _ctx(data, lineup, check=True, feats=NO_FEATS, points=NO_POINTS):
    """The loop's ``ctx`` (see :func:`_play_games`) with new opening rows and play-profile counts; every move is
    checked (``check`` is always on)."""
    head = loop.lineup_context(data.kernel, lineup, bots.MAX_BOT_PARAMS)
    g = len(head[5])
    opening = np.full((g, state.MAX_MERCHANT_ROW), -1, np.int16), np.full((g, state.MAX_POINT_ROW), -1, np.int16)
    return (*head, *opening, np.empty((g, state.MAX_PLAYERS, len(PROFILE)), np.int32), *feats, *points)


@njit(cache=True)
def _record(r, tb, rows, num_rows, g, f, parts):
    """Append the position's features from every seat's view to game ``g``'s ``rows`` (while there is room)."""
    for s in range(r.num_players):
        k = num_rows[g]
        if k >= rows.shape[0]:
            return
        features(r, tb, s, f, parts)
        for j in range(f.shape[0]):
            rows[k, j] = f[j]
        num_rows[g] = k + 1


@njit(cache=True, inline="always")
def _count(c, tb, mv):
    """Add a played move to its seat's play-profile counts ``c`` (len(PROFILE),)."""
    kind = mv[state.M_KIND]
    if kind == state.PLAY:
        c[_PLAY_COUNT[tb.m_kind[mv[state.M_ARG]]]] += 1
    elif kind == state.ACQUIRE:
        c[C_BOUGHT] += 1
    elif kind == state.REST:
        c[C_RESTS] += 1
    elif kind == state.CLAIM:
        c[C_CLAIMS] += 1
    c[C_DISCARDED] += mv[state.M_DISCARD] + mv[state.M_DISCARD + 1] + mv[state.M_DISCARD + 2] + mv[state.M_DISCARD + 3]


@njit(cache=True, inline="always")
def _setup(ctx, st, g):
    """Deal game ``g`` as it was played with seat s holding lineup entry s (a gift goes to seat 0)."""
    tb = ctx[0][0]
    engine.init_game(st[g], tb, ctx[1], ctx[2][g], ctx[3][g])
    engine.deal_gift(st[g], tb, ctx[4])


@njit(cache=True, inline="always")
def _replay(ctx, st, g, mv):
    r = st[g]
    tb = ctx[0][0]
    engine.apply_action(r, tb, mv)
    engine.apply_discard(r, mv)
    engine.end_turn(r, tb, mv[state.M_KIND] == state.CLAIM)


@njit(cache=True)
def _replay_games(ctx, st, moves, offsets):
    """Recorded moves replayed by the engine alone (``simulate.play.replay_games``)."""
    loop.replay_games(_setup, _replay, ctx, st, moves, offsets)


def _replay_ctx(data, num_players, setup_seeds, play_seeds):
    """The replay's ``ctx``: seat s holds lineup entry s."""
    return (*loop.seed_context(data, num_players, setup_seeds, play_seeds), np.arange(state.MAX_PLAYERS))


LOOP = loop.Loop(
    _play_games,
    _play_blocks,
    lambda data, g: state.new_state(g, data.tables),
    lambda st, k: np.zeros(k, WORK),
    _ctx,
    max_moves=20000,
    replay_games=_replay_games,
    replay_context=_replay_ctx,
)
replay_moves = LOOP.replay_moves
"""Final states of games replayed from their recorded moves by the numba engine, without bots."""
trace_game = LOOP.trace_game
"""Play one game and return its move records (moves, state.MOVE_LEN) and its final state (``simulate.play.Loop``)."""


def play_lineup(
    data: CenturyData,
    lineup: Lineup,
    threads: int = 1,
    out: np.ndarray | None = None,
    points: tuple[np.ndarray, np.ndarray] = NO_POINTS,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play one game per seed pair to the end (``simulate.play.Loop.batch``, every move checked); return the final
    states, the opening merchant and point rows (G, MAX_MERCHANT_ROW), (G, MAX_POINT_ROW) and the play-profile counts
    (G, MAX_PLAYERS, len(PROFILE)) int32 (``PROFILE``). ``points``: trajectories to fill
    (``simulate.gamekit.new_trajectories`` of G games), every seat's score at the end of every round."""
    st, ctx = LOOP.batch(data, lineup, threads, out=out, points=points)
    return st, *ctx[7:10]


play_batch = loop.by_arguments(play_lineup)
""":func:`play_lineup` with the lineup's fields as arguments (``simulate.play.by_arguments``)."""


MAX_ROWS_PER_GAME = 4000
"""Positions recorded per game for the apprentice's training: every turn of a game to the turn cap at 5 players."""


def _positions(data: CenturyData, lineup: Lineup) -> Positions:
    """Play one game per seed pair as a run would and return, after every turn, the features of the position
    from every seat's view (``simulate.game.Positions``; the apprentice's training data)."""
    g = len(lineup.setup_seeds)
    feats = np.zeros((g, MAX_ROWS_PER_GAME, NUM_FEATURES), np.float32)
    num_rows = np.zeros(g, np.int64)
    st, _ = LOOP.batch(data, lineup, feats=(feats, num_rows))
    x, game, seat = loop.recorded_rows(feats, num_rows, lineup.num_players)
    return Positions(x, game, seat, results(data, st)["win"].astype(np.float64), st["over"] == state.END_TRIGGER)


positions = loop.by_arguments(_positions)
""":func:`_positions` with the lineup's fields as arguments (``ApprenticeSpec.positions``)."""
