"""The shared play loop (``simulate.play``) over a counting game small enough to know every answer.

Game g adds ``step(g, k) = (3 * g + k) % 7 + 1`` at its k-th move until its total reaches ``TARGET``; a move
equal to ``BANNED`` is illegal and ends the game unplayed (over = 2). Its ``finish`` writes the total and the end.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as hs
from numba import njit

import simulate.play as loop
from simulate.gamekit import turn_order

TARGET, BANNED = 12, 7
RECORD = np.dtype([("total", np.int64), ("moves", np.int64), ("over", np.int8)])
WORK = np.dtype([("mv", np.int32, (2,))])
ROOT = Path(__file__).resolve().parent.parent
GUARD = "from simulate.jitcache import use_cache\n\nuse_cache(__file__)\n"


@njit
def _scratch(ctx, st):
    return (np.zeros(1, np.int64),)


@njit
def _start(ctx, st, i, g, sc):
    st[i].total = 0
    st[i].moves = 0
    st[i].over = 0
    sc[0][0] += 1  # games started in this block


@njit
def _running(st, i):
    return st[i].over == 0


@njit
def _turn(ctx, st, i, g, sc, w):
    r = st[i]
    w.mv[0] = (3 * g + r.moves) % 7 + 1
    w.mv[1] = g
    if w.mv[0] == ctx[1]:
        r.over = 2
        return False
    r.total += w.mv[0]
    r.moves += 1
    if r.total >= ctx[0]:
        r.over = 1
    return True


@njit
def _finish(ctx, st, i, g, sc):
    ctx[2][g] = st[i].total
    ctx[3][g] = st[i].over


@njit
def _play_games(ctx, st, slot, g0, g1, w, trace):
    return loop.play_games(_scratch, _start, _running, _turn, _finish, ctx, st, slot, g0, g1, w, trace)


@njit(parallel=True)
def _play_blocks(ctx, st, keep, num_games, work, no_trace):
    loop.play_blocks(_play_games, ctx, st, keep, num_games, work, no_trace)


@njit
def _setup(ctx, st, g):
    st[g].total = 0
    st[g].moves = 0


@njit
def _replay(ctx, st, g, mv):
    st[g].total += mv[0]
    st[g].moves += 1


@njit
def _replay_games(ctx, st, moves, offsets):
    loop.replay_games(_setup, _replay, ctx, st, moves, offsets)


def _expected(g: int) -> tuple[list[int], int, int]:
    """The moves played, the final total and the end of game g, in plain Python."""
    moves, total = [], 0
    while total < TARGET:
        step = (3 * g + len(moves)) % 7 + 1
        if step == BANNED:
            return moves, total, 2
        moves.append(step)
        total += step
    return moves, total, 1


def _run(num_games: int, threads: int, keep: bool) -> tuple[np.ndarray, np.ndarray]:
    blocks = max(1, loop.num_blocks(num_games, threads))
    st = np.zeros(num_games if keep else blocks, RECORD)
    ctx = (TARGET, BANNED, np.full(num_games, -1, np.int64), np.full(num_games, -1, np.int64))
    loop.play(_play_games, _play_blocks, ctx, st, num_games, np.zeros(blocks, WORK), keep=keep)
    return ctx[2], ctx[3]


def test_every_way_of_playing_gives_every_game_its_own_answer():
    num_games = 37
    want_total = [_expected(g)[1] for g in range(num_games)]
    want_over = [_expected(g)[2] for g in range(num_games)]
    assert 2 in want_over and 1 in want_over  # both endings are exercised
    for threads, keep in ((1, True), (2, True), (1, False), (2, False)):
        total, over = _run(num_games, threads, keep)
        assert total.tolist() == want_total, (threads, keep)
        assert over.tolist() == want_over, (threads, keep)


def test_trace_holds_the_moves_played_and_replays_to_the_same_totals():
    traces, totals = [], []
    for g in range(8):
        st = np.zeros(g + 1, RECORD)
        ctx = (TARGET, BANNED, np.zeros(g + 1, np.int64), np.zeros(g + 1, np.int64))
        moves = np.zeros((50, 2), np.int32)
        count = _play_games(ctx, st, -1, g, g + 1, np.zeros(1, WORK)[0], moves)  # the trace takes game g0 = g
        want, total, _ = _expected(g)
        assert moves[:count, 0].tolist() == want  # the illegal move is not recorded
        assert (moves[:count, 1] == g).all()
        traces.append(moves[:count].copy())
        totals.append(total)
    st = np.zeros(len(traces), RECORD)
    loop.replay_moves(_replay_games, (), st, traces)
    assert st["total"].tolist() == totals
    assert st["moves"].tolist() == [len(t) for t in traces]


def test_trace_stops_at_its_room_and_borrow_keeps_the_values():
    st = np.zeros(1, RECORD)
    ctx = (10_000, BANNED + 10, np.zeros(1, np.int64), np.zeros(1, np.int64))  # nothing banned: a long game
    moves = loop.trace(_play_games, ctx, st, np.zeros(1, WORK), 5)
    assert moves.shape == (5, 2) and st["over"][0] == 1 and st["moves"][0] > 5
    assert moves[:, 0].tolist() == [k % 7 + 1 for k in range(5)]
    x = (np.arange(4), (np.ones(2), 3))
    y = _borrowed_copy(x)
    assert y[0].tolist() == [0, 1, 2, 3] and y[1][0].tolist() == [1.0, 1.0] and y[1][1] == 3


@njit
def _borrowed_copy(x):
    v = loop.borrow(x)
    out = (v[0].copy(), (v[1][0].copy(), v[1][1]))
    loop.hold(x)
    return out


GAME = '''import numpy as np
from numba import njit

import simulate.play as loop

STEP = {step}
RECORD = np.dtype([("total", np.int64), ("moves", np.int64)])
WORK = np.dtype([("mv", np.int32, (1,))])


@njit(cache=True)
def _scratch(ctx, st):
    return (np.zeros(1, np.int64),)


@njit(cache=True, inline="always")
def _start(ctx, st, i, g, sc):
    st[i].total = 0
    st[i].moves = 0


@njit(cache=True, inline="always")
def _running(st, i):
    return st[i].total < 40


@njit(cache=True, inline="always")
def _turn(ctx, st, i, g, sc, w):
    w.mv[0] = (g + st[i].moves) % STEP + 1
    st[i].total += w.mv[0]
    st[i].moves += 1
    return True


@njit(cache=True, inline="always")
def _finish(ctx, st, i, g, sc):
    ctx[0][g] = st[i].moves


@njit(cache=True)
def _play_games(ctx, st, slot, g0, g1, w, trace):
    return loop.play_games(_scratch, _start, _running, _turn, _finish, ctx, st, slot, g0, g1, w, trace)


@njit(cache=True, parallel=True)
def _play_blocks(ctx, st, keep, num_games, work, no_trace):
    loop.play_blocks(_play_games, ctx, st, keep, num_games, work, no_trace)


@njit(cache=True, inline="always")
def _setup(ctx, st, g):
    st[g].total = 0
    st[g].moves = 0


@njit(cache=True, inline="always")
def _replay(ctx, st, g, mv):
    st[g].total += mv[0]
    st[g].moves += 1


@njit(cache=True)
def _replay_games(ctx, st, moves, offsets):
    loop.replay_games(_setup, _replay, ctx, st, moves, offsets)


def run():
    """The moves of 40 games played in 4 blocks, and game 0's total replayed from its trace."""
    moves = np.zeros(40, np.int64)
    loop.play(_play_games, _play_blocks, (moves,), np.zeros(40, RECORD), 40, np.zeros(4, WORK))
    trace = loop.trace(_play_games, (np.zeros(1, np.int64),), np.zeros(1, RECORD), np.zeros(1, WORK), 99)
    st = np.zeros(1, RECORD)
    loop.replay_moves(_replay_games, (), st, [trace])
    return moves.sum(), st["total"][0]
'''


def _run_games(where: Path, cache: Path, *games: str) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "NUMBA_DISABLE_JIT"}
    environ |= {"PYTHONPATH": os.pathsep.join([str(where), str(ROOT)]), "NUMBA_CACHE_DIR": str(cache)}
    environ["NUMBA_FUNCTION_CACHE_SIZE"] = "0"  # keep no unpickled function alive, as a run's many functions do
    script = "".join(f"import {g}.game as {g}; print({g}.run())\n" for g in games)
    done = subprocess.run([sys.executable, "-B", "-c", script], cwd=where, env=environ, capture_output=True, text=True)
    assert done.returncode == 0 and "Error" not in done.stderr and "Warning" not in done.stderr, done.stderr[-800:]
    assert len(done.stdout.splitlines()) == len(games)


def test_games_share_the_numba_cache_in_any_order(tmp_path: Path) -> None:
    """Each game's parallel loop and replay are its own cached kernels: one process caching game A, another then
    playing B and A, and a third only A, all succeed. A cached loop of ``simulate.play`` taking the games' kernels as
    arguments failed here, saving an index that held a game the process had not loaded ("underlying object has
    vanished"); none is cached any more."""
    for name, step in (("game_a", 3), ("game_b", 5)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(GUARD)
        (tmp_path / name / "game.py").write_text(GAME.format(step=step))
    cache = tmp_path / "numba"
    _run_games(tmp_path, cache, "game_a")
    _run_games(tmp_path, cache, "game_b", "game_a")
    _run_games(tmp_path, cache, "game_a")
    assert {p.parent.parent.name.split("-")[0] for p in cache.rglob("*.nbi")} >= {"game_a", "game_b"}
    assert not [p for p in cache.rglob("play.*.nbi")]  # nothing of simulate.play is compiled on its own


@given(
    hs.lists(hs.tuples(hs.integers(0, 4), hs.integers(-1, 9)), max_size=40).map(sorted),
    hs.randoms(use_true_random=False),
)
def test_turn_order_sorts_each_games_rows_by_turn_keeping_ties_in_order(rows: list, rand) -> None:
    """``gamekit.turn_order`` of a game's rows in any order within each game: game order, then turn, and the rows of
    one turn (told apart by ``seq``) in the order they came."""
    by_game: dict[int, list] = {}
    for g, t in rows:
        by_game.setdefault(g, []).append(t)
    for turns in by_game.values():
        rand.shuffle(turns)
    game = np.array([g for g in sorted(by_game) for _ in by_game[g]], np.int64)
    turn = np.array([t for g in sorted(by_game) for t in by_game[g]], np.int32)
    seq = np.arange(len(game), dtype=np.int16)
    out = turn_order({"game": game, "turn": turn, "seq": seq})
    expect = sorted(zip(game.tolist(), turn.tolist(), seq.tolist(), strict=True))
    assert list(zip(out["game"].tolist(), out["turn"].tolist(), out["seq"].tolist(), strict=True)) == expect
    assert out["turn"].dtype == np.int32 and out["seq"].dtype == np.int16


def test_recorded_rows_keep_each_games_rows_in_order_with_their_game_and_seat() -> None:
    """Game g's first ``num_rows[g]`` rows of ``rows[g]``, numbered from ``first_game``, seats cycling."""
    rows = np.arange(3 * 4 * 2, dtype=np.float32).reshape(3, 4, 2)
    x, game, seat = loop.recorded_rows(rows, np.array([2, 0, 4]), 2, first_game=5)
    assert x.tolist() == [*rows[0, :2].tolist(), *rows[2].tolist()]
    assert game.tolist() == [5, 5, 7, 7, 7, 7] and game.dtype == np.int64
    assert seat.tolist() == [0, 1, 0, 1, 0, 1] and seat.dtype == np.int8
