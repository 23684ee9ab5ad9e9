"""The play loop of every game: serial and parallel play, traces and replays, written once over a game's plug-ins.

A game plugs in five njit functions, passed as arguments to :func:`play_games` (numba specialises a function on the
dispatchers it receives, as in :mod:`simulate.search`, so no game carries a copy of the loop)::

    scratch(ctx, st) -> sc                # the loop's buffers (search tree, move lists), made once per block
    start(ctx, st, i, g, sc)              # record i set up as game g, and what its opening shows recorded
    running(st, i) -> bool                # record i's game is not over (:func:`not_over`: its field ``over``)
    turn(ctx, st, i, g, sc, w) -> bool    # the seat to move picks its move into w.mv and plays it (its counts,
                                          # features and trajectory points recorded); False: the move was
                                          # illegal, the game ended as such (ILLEGAL_MOVE) and it was not played
    finish(ctx, st, i, g, sc)             # game g is over (e.g. its columns written)

and, to replay recorded moves with the engine alone, two more::

    setup(ctx, st, g)                     # record g at the start of game g (no bots)
    replay(ctx, st, g, mv)                # play recorded move mv in record g

A game whose hidden order deals the seats their own cards also binds :func:`decide_moves` (its ``scratch`` and
``turn``), for the conformance check's no-peeking test at a position (:func:`decide`). A game whose score is the sum
of its parts records trajectory points with :func:`record_point` over its ``score_parts(r, tb, s, parts)``.

A game binds its plug-ins in its own kernels, a line each, that numba compiles and caches once per game, and names
them once in a :class:`Loop`, which plays, traces, replays and decides with them (:func:`play`, :func:`trace`,
:func:`replay_moves`, :func:`decide`)::

    @njit(cache=True)
    def _play_games(ctx, st, slot, g0, g1, w, trace):
        return loop.play_games(_scratch, _start, _running, _turn, loop.no_finish, ctx, st, slot, g0, g1, w, trace)

    @njit(cache=True, parallel=True)
    def _play_blocks(ctx, st, keep, num_games, work, no_trace):
        loop.play_blocks(_play_games, ctx, st, keep, num_games, work, no_trace)

    @njit(cache=True)
    def _replay_games(ctx, st, moves, offsets):
        loop.replay_games(_setup, _replay, ctx, st, moves, offsets)

:func:`play_games`, :func:`play_blocks` and :func:`replay_games` are inlined there with the plug-ins as the
kernel's globals, so numba inlines them in turn (a plug-in called through an argument of a compiled function is a
call, with reference counting, at every move: half the speed of a greedy Century game), and the ``prange`` of
:func:`play_blocks` runs on numba's threads in the game's ``parallel=True`` kernel. No cached function here takes a
game's function as an argument from Python: numba's cache index would then hold every game's specialisation under
keys that refer to the games' dispatchers, and a process that loaded the index without one of those games could
no longer save it ("underlying object has vanished").

``ctx`` is whatever the game needs (its tables as a one-record array, seats, lineup, seeds, output arrays indexed
by game); ``st`` is a batch of game records; ``g`` is a game's index into the seeds and outputs and ``i`` the
record it is played in: ``i == g`` when the batch keeps every game's record, the block's one record otherwise
(``slot``). ``w`` is a scratch record of the game's dtype with at least the field ``mv`` (the move being built):
record fields are array views without a reference count, so the plug-ins pass them on without the atomic updates
a plain array costs at every call; :func:`play_games` hands ``ctx`` and ``sc`` to the plug-ins as such views too
(:func:`borrow`). Each block of games gets its own ``sc`` and ``w``; a game is a pure function
of its seeds, so the results do not depend on the number of blocks or threads.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from simulate.game import Lineup

ILLEGAL_MOVE = "illegal_move"
"""The end reason of a game whose bot picked an illegal move under ``check_moves`` (``turn`` returned False): every
game names it among its end reasons, its code there being the game's ``END_ILLEGAL``
(``END_ILLEGAL = END_REASONS.index(ILLEGAL_MOVE)``)."""


def _borrowed(context, builder, ty, val):
    if isinstance(ty, types.Array):
        ary = cgutils.create_struct_proxy(ty)(context, builder, value=val)
        ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
        ary.parent = cgutils.get_null_value(ary.parent.type)
        return ary._getvalue()
    if isinstance(ty, types.BaseTuple):
        for k, member in enumerate(ty):
            val = builder.insert_value(val, _borrowed(context, builder, member, builder.extract_value(val, k)), k)
    return val


@intrinsic
def borrow(typingctx, x):
    """``x`` (an array, or a tuple of arrays and values, nested) with every array a view without a reference count.

    Passing such a view to a function costs no atomic reference-count updates, as record fields do; whoever made
    ``x`` must keep it alive while the view is used (:func:`hold`).
    """

    def codegen(context, builder, sig, args):
        return _borrowed(context, builder, sig.args[0], args[0])

    return x(x), codegen


@intrinsic
def hold(typingctx, x):
    """Use ``x`` here, so that it lives (is not released) until this point of the function."""

    def codegen(context, builder, sig, args):
        return context.get_dummy_value()

    return types.none(x), codegen


@njit(cache=True, inline="always")
def play_games(scratch, start, running, turn, finish, ctx, st, slot, g0, g1, w, trace):
    """Play games ``g0..g1-1`` to the end; returns the number of moves recorded in ``trace``.

    Game g plays in record ``st[g]`` when ``slot`` < 0, else in ``st[slot]``. ``trace`` (T, move_len): when
    T > 0 the moves of game ``g0`` are recorded (while there is room). ``w``: the block's scratch record.
    ``ctx`` and the block's scratch reach the plug-ins as borrowed views (:func:`borrow`): the plug-ins take them at
    every move without reference counting.
    """
    own = scratch(ctx, st)
    sc = borrow(own)
    ctx = borrow(ctx)
    mv = w.mv
    recorded = 0
    for g in range(g0, g1):
        i = g if slot < 0 else slot
        start(ctx, st, i, g, sc)
        while running(st, i):
            if not turn(ctx, st, i, g, sc, w):
                break
            if recorded < trace.shape[0]:
                for f in range(mv.shape[0]):
                    trace[recorded, f] = mv[f]
                recorded += 1
        finish(ctx, st, i, g, sc)
    hold(own)
    return recorded


@njit(cache=True, inline="always")
def play_blocks(kernel, ctx, st, keep, num_games, work, no_trace):
    """Play games ``0..num_games-1`` in ``work.shape[0]`` blocks on numba threads, block b with scratch ``work[b]``.

    Inlined in the game's own ``parallel=True`` kernel with ``kernel`` its :func:`play_games` kernel (see the module
    docstring). With ``keep`` game g plays in ``st[g]``; without, block b plays its games one after the other in
    ``st[b]``. ``no_trace``: an empty trace of the game's move dtype.
    """
    num_blocks = work.shape[0]
    for b in prange(num_blocks):
        kernel(
            ctx,
            st,
            -1 if keep else np.int64(b),
            b * num_games // num_blocks,
            (b + 1) * num_games // num_blocks,
            work[b],
            no_trace,
        )


RUNNING = 0
"""The ``over`` code of a game still being played, in a game whose record says how it ended in a field ``over`` (the
code of its end reason, ``END_REASONS[0] == "running"``)."""


@njit(cache=True, inline="always")
def not_over(st, i):
    """The ``running`` of a game whose record ``st[i]`` has the field ``over``: :data:`RUNNING` until it ends."""
    return st[i].over == RUNNING


@njit(cache=True, inline="always")
def no_finish(ctx, st, i, g, sc):
    """The ``finish`` of a game that writes nothing when a game ends."""


@njit(cache=True, inline="always")
def largest_budget(bot_ids, bot_params, search, field):
    """The largest ``bot_params[b, field]`` of the lineup's bots whose id is ``search`` (0 without one): the
    iterations a block's search tree is sized for."""
    iterations = 0
    for b in range(bot_ids.shape[0]):
        if bot_ids[b] == search:
            iterations = max(iterations, int(bot_params[b, field]))
    return iterations


@njit(cache=True, inline="always")
def seat_score(score_parts, r, tb, s, parts):
    """Seat ``s``'s score in record ``r``: the sum of the parts ``score_parts(r, tb, s, parts)`` writes."""
    score_parts(r, tb, s, parts)
    total = 0
    for q in range(parts.shape[0]):
        total += parts[q]
    return total


@njit(cache=True, inline="always")
def score_seats(score_parts, r, tb, n, g, pt, score, parts):
    """The ``n`` seats' scores in finished record ``r`` (:func:`seat_score`, parts in ``pt``) into ``score[g, s]`` and
    their parts into ``parts[g, s]`` (the arrays of :func:`result_arrays`)."""
    for s in range(n):
        score[g, s] = seat_score(score_parts, r, tb, s, pt)
        for k in range(pt.shape[0]):
            parts[g, s, k] = pt[k]


def result_arrays(num_games: int, num_players: int, num_parts: int) -> dict[str, np.ndarray]:
    """A game's ``results`` before they are filled: ``score`` (G, n) int32, ``parts`` (G, n, num_parts) int32, ``rank``
    (G, n) int8 and ``win`` (G, n) float32, zeros."""
    g, n = num_games, num_players
    return {
        "score": np.zeros((g, n), np.int32),
        "parts": np.zeros((g, n, num_parts), np.int32),
        "rank": np.zeros((g, n), np.int8),
        "win": np.zeros((g, n), np.float32),
    }


@njit(cache=True, inline="always")
def record_point(score_parts, r, tb, n, points, num_points, g, parts):
    """Every seat's score now (:func:`seat_score`) into game ``g``'s next trajectory point ``points[g, k]``, while
    there is room, ``num_points[g]`` counting them (``simulate.gamekit.new_trajectories``)."""
    k = num_points[g]
    if k >= points.shape[1]:
        return
    for s in range(n):
        points[g, k, s] = seat_score(score_parts, r, tb, s, parts)
    num_points[g] = k + 1


def num_blocks(num_games: int, threads: int) -> int:
    """Blocks of a parallel run of ``num_games`` on ``threads`` threads (16 a thread for balance); 0: play serially."""
    return min(num_games, 16 * threads) if threads > 1 and num_games > 1 else 0


def empty_trace(work: np.ndarray) -> np.ndarray:
    """A trace of no moves, of the move dtype of scratch records ``work`` (their field ``mv``)."""
    mv = work.dtype["mv"]
    return np.zeros((0, *mv.shape), mv.base)


def play(
    kernel: Callable,
    blocks: Callable,
    ctx: tuple,
    st: np.ndarray,
    num_games: int,
    work: np.ndarray,
    keep: bool = True,
) -> None:
    """Play games ``0..num_games-1`` with the game's kernels: serially with ``kernel`` (``work`` of one record) or in
    ``len(work)`` parallel blocks (``num_blocks``) with ``blocks``; ``keep`` as in :func:`play_blocks` (without it,
    ``st`` holds a record a block).
    """
    if len(work) > 1:
        blocks(ctx, st, keep, num_games, work, empty_trace(work))
    elif num_games:
        kernel(ctx, st, -1 if keep else 0, 0, num_games, work[0], empty_trace(work))


def trace(kernel: Callable, ctx: tuple, st: np.ndarray, work: np.ndarray, max_moves: int) -> np.ndarray:
    """Play game 0 in ``st[0]`` with the game's ``kernel`` and return its move records (moves, move_len), at most
    ``max_moves``."""
    mv = work.dtype["mv"]
    moves = np.zeros((max_moves, *mv.shape), mv.base)
    count = kernel(ctx, st, -1, 0, 1, work[0], moves)
    return moves[:count].copy()


@njit(cache=True, inline="always")
def replay_games(setup, replay, ctx, st, moves, offsets):
    """Set up game g in ``st[g]`` and play its moves ``moves[offsets[g]:offsets[g + 1]]``, for every record of ``st``.

    Inlined in the game's own replay kernel (see the module docstring).
    """
    for g in range(st.shape[0]):
        setup(ctx, st, g)
        for k in range(offsets[g], offsets[g + 1]):
            replay(ctx, st, g, moves[k])


@njit(cache=True, inline="always")
def decide_moves(scratch, turn, ctx, st, work, moves):
    """The move the seat to move picks in each record of ``st`` (positions of game 0 of ``ctx``) into ``moves[i]``.

    Each record gets its own scratch and ``work[i]``, so no decision sees the buffers another left; the records are
    played on. Inlined in the game's own kernel, as :func:`play_games`.
    """
    ctx = borrow(ctx)
    for i in range(st.shape[0]):
        own = scratch(ctx, st)
        w = work[i]
        turn(ctx, st, i, 0, borrow(own), w)
        hold(own)
        mv = w.mv
        for f in range(mv.shape[0]):
            moves[i, f] = mv[f]


def decide(kernel: Callable, ctx: tuple, records: np.ndarray, work: np.ndarray) -> np.ndarray:
    """The moves (records, move_len) the seats to move pick in copies of ``records`` with the game's
    :func:`decide_moves` ``kernel``; ``work`` holds a scratch record for each."""
    mv = work.dtype["mv"]
    moves = np.zeros((len(records), *mv.shape), mv.base)
    kernel(ctx, records.copy(), work, moves)
    return moves


def replay_moves(kernel: Callable, ctx: tuple, st: np.ndarray, traces: list[np.ndarray]) -> None:
    """Set up game g in ``st[g]`` and play its recorded moves ``traces[g]`` (the engine alone, without bots) with the
    game's replay ``kernel`` (its :func:`replay_games`).

    ``traces``: one (moves, move_len) array a game, of one dtype.
    """
    offsets = np.zeros(len(traces) + 1, np.int64)
    offsets[1:] = np.cumsum([len(t) for t in traces])
    moves = np.ascontiguousarray(np.concatenate(traces)) if traces else np.zeros((0, 1), np.int16)
    kernel(ctx, st, moves, offsets)


def recorded_rows(
    rows: np.ndarray, num_rows: np.ndarray, num_players: int, first_game: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The feature rows a loop recorded, one after the other: game g's are the first ``num_rows[g]`` of ``rows[g]``
    (rows (G, R, F): position after position, each from every seat's view in seat order). Returns the features
    (N, F), each row's game (N,) int64 counted from ``first_game`` and its seat (N,) int8."""
    keep = np.arange(rows.shape[1]) < num_rows[:, None]
    game = np.repeat(np.arange(first_game, first_game + len(num_rows), dtype=np.int64), num_rows)
    return rows[keep], game, (np.nonzero(keep)[1] % num_players).astype(np.int8)


@njit(cache=True, inline="always")
def seat_entry(ctx, g, seat):
    """Seat ``seat``'s lineup entry in game ``g`` of a ``ctx`` headed by :func:`lineup_context`: its index ``b``, its
    bot id and the lineup's parameter rows (the entry's is row ``b``)."""
    b = ctx[2][g, seat]
    return b, ctx[3][b], ctx[4]


def lineup_context(tables: Any, lineup: Lineup, max_bot_params: int) -> tuple:
    """The head of a game's ``ctx``: (tables, num_players, seat_bot (G, n) int64, bot_ids (L,) int64, bot_params
    (L, max_bot_params) float64 padded with zeros (at least a row), setup_seeds, play_seeds (G,) uint64)."""
    num_players, seat_bot, bot_ids, bot_params, setup_seeds, play_seeds = lineup
    setup = np.ascontiguousarray(np.atleast_1d(setup_seeds), dtype=np.uint64)
    bp = np.asarray(bot_params, dtype=np.float64)
    bp = bp.reshape(-1, max_bot_params) if bp.ndim < 2 else bp
    params = np.zeros((max(1, bp.shape[0]), max_bot_params))
    params[: bp.shape[0], : bp.shape[1]] = bp
    return (
        tables,
        num_players,
        np.ascontiguousarray(seat_bot, dtype=np.int64).reshape(len(setup), num_players),
        np.ascontiguousarray(bot_ids, dtype=np.int64),
        params,
        setup,
        np.ascontiguousarray(np.atleast_1d(play_seeds), dtype=np.uint64),
    )


def seed_context(data: Any, num_players: int, setup_seeds: Any, play_seeds: Any) -> tuple:
    """The ``ctx`` of a replay that needs the tables, the players and the seeds alone: (tables, num_players,
    setup_seeds, play_seeds (G,) uint64)."""
    seeds = (np.ascontiguousarray(np.atleast_1d(s), dtype=np.uint64) for s in (setup_seeds, play_seeds))
    return (data.kernel, num_players, *seeds)


def by_arguments(play_lineup: Callable[..., Any]) -> Callable[..., Any]:
    """``play_lineup(data, lineup, ...)`` taking the lineup as its fields instead, ``(data, num_players, seat_bot,
    bot_ids, bot_params, setup_seeds, play_seeds, ...)`` (``simulate.game.Lineup``): the form tools and tests call a
    game's ``play_batch`` in, written once here."""

    @functools.wraps(play_lineup)
    def play(
        data: Any,
        num_players: int,
        seat_bot: np.ndarray,
        bot_ids: np.ndarray,
        bot_params: np.ndarray,
        setup_seeds: np.ndarray,
        play_seeds: np.ndarray,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        lineup = Lineup(num_players, seat_bot, bot_ids, bot_params, setup_seeds, play_seeds)
        return play_lineup(data, lineup, *args, **kwargs)

    return play


@dataclass(frozen=True)
class Loop:
    """A game's compiled loop and how to make what it takes: the Python side of every game's play, written once.

    ``play_games``, ``play_blocks``, ``replay_games`` and ``decide_kernel`` are the game's bound kernels (see the
    module docstring; the last two None where the game has none); ``records(data, G)`` a batch of G records;
    ``work(st, k)`` k scratch records for batch ``st``; ``context(data, lineup, check_moves, **recording)`` the
    ``ctx`` of the games of a ``simulate.game.Lineup`` (:func:`lineup_context` makes its head), every move checked
    with ``check_moves``, the game's recording arrays as keywords (none: games that record nothing);
    ``replay_context(data, num_players, setup_seeds, play_seeds)`` the ``ctx`` of ``replay_games``; ``max_moves``
    the room of a trace.
    """

    play_games: Callable
    play_blocks: Callable
    records: Callable[[Any, int], np.ndarray]
    work: Callable[[np.ndarray, int], np.ndarray]
    context: Callable[..., tuple]
    max_moves: int
    replay_games: Callable | None = None
    replay_context: Callable[..., tuple] = seed_context
    decide_kernel: Callable | None = None

    def run(self, ctx: tuple, st: np.ndarray, num_games: int, threads: int = 1, keep: bool = True) -> None:
        """Play games ``0..num_games-1`` of ``ctx`` in ``st`` (:func:`play`), in parallel blocks when ``threads`` > 1
        (``keep`` as there)."""
        play(
            self.play_games,
            self.play_blocks,
            ctx,
            st,
            num_games,
            self.work(st, max(1, num_blocks(num_games, threads))),
            keep,
        )

    def batch(
        self,
        data: Any,
        lineup: Lineup,
        threads: int = 1,
        check_moves: bool = False,
        out: np.ndarray | None = None,
        **recording: Any,
    ) -> tuple[np.ndarray, tuple]:
        """Play one game per seed pair of ``lineup`` to the end; return the batch of final records and the ``ctx``
        played with (which holds what the game's loop recorded).

        Parameters
        ----------
        data
            The game's loaded data (``Game.load_data``).
        lineup : simulate.game.Lineup
            The seats' bots and the games' seeds: seat s of game g holds lineup entry ``seat_bot[g, s]``; the setup
            seed deals, the play seed drives the bots.
        threads : int
            1 plays serially; more plays blocks of games on numba threads (same results).
        check_moves : bool
            Check each bot move before it is applied; an illegal one ends its game (``ILLEGAL_MOVE``). A game whose
            loop always checks ignores it.
        out : ndarray, optional
            A batch of ``records(data, G)`` to play into instead of a new one (the game's setup sets every field): a
            caller playing chunk after chunk saves allocating and faulting in its records.
        recording
            The game's recording arrays (features, trajectories, columns), as keywords of its ``context``.
        """
        ctx = self.context(data, lineup, check_moves, **recording)
        g = len(np.atleast_1d(lineup.setup_seeds))
        st = out if out is not None else self.records(data, g)
        self.run(ctx, st, g, threads)
        return st, ctx

    def final_records(
        self, data: Any, lineup: Lineup, threads: int = 1, check_moves: bool = False, **recording: Any
    ) -> np.ndarray:
        """The final records of :meth:`batch` alone (a game's ``play_batch``, with :func:`by_arguments`)."""
        return self.batch(data, lineup, threads, check_moves, **recording)[0]

    def trace_game(
        self,
        data: Any,
        num_players: int,
        seat_bot: np.ndarray,
        bot_ids: np.ndarray,
        bot_params: np.ndarray,
        setup_seed: int,
        play_seed: int,
        max_moves: int | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Play one game, every move checked; return its move records (moves, move_len), at most ``max_moves``
        (the loop's ``max_moves`` by default), and its final record (a batch of one)."""
        st = self.records(data, 1)
        ctx = self.context(data, Lineup(num_players, seat_bot, bot_ids, bot_params, [setup_seed], [play_seed]), True)
        room = self.max_moves if max_moves is None else max_moves
        return trace(self.play_games, ctx, st, self.work(st, 1), room), st

    def decide_moves(
        self,
        data: Any,
        num_players: int,
        seat_bot: np.ndarray,
        bot_ids: np.ndarray,
        bot_params: np.ndarray,
        setup_seed: int,
        play_seed: int,
        records: np.ndarray,
    ) -> np.ndarray:
        """The move (records, move_len) each record's seat to move picks, the seats played as in game
        (``setup_seed``, ``play_seed``), with ``decide_kernel`` (:func:`decide`); the records are left as they were."""
        ctx = self.context(data, Lineup(num_players, seat_bot, bot_ids, bot_params, [setup_seed], [play_seed]), True)
        return decide(self.decide_kernel, ctx, records, self.work(records, len(records)))

    def replay_moves(
        self, data: Any, num_players: int, setup_seeds: np.ndarray, play_seeds: np.ndarray, traces: list[np.ndarray]
    ) -> np.ndarray:
        """Final records of games replayed from their recorded moves ``traces`` by the engine alone
        (:func:`replay_moves` with ``replay_games``)."""
        st = self.records(data, len(traces))
        mv = self.work(st, 1).dtype["mv"]
        ctx = self.replay_context(data, num_players, setup_seeds, play_seeds)
        replay_moves(self.replay_games, ctx, st, [np.asarray(t, mv.base).reshape(-1, *mv.shape) for t in traces])
        return st
