"""Play batches of golem-poker games (pots) with bots: the njit game loop and its public wrappers."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simulate.games.golem_poker.bots import MAX_BOT_PARAMS, MEMO, SCRATCH, bot_records, choose_move
from simulate.games.golem_poker.data import PokerData
from simulate.games.golem_poker.engine import apply_move, init_game, is_legal
from simulate.games.golem_poker.state import END_ILLEGAL, MOVE_LEN, RUNNING, new_state

SCORE_PARTS = ("score_pot", "score_ante", "score_bet", "score_penalty")


@njit(cache=True)
def _play_games(st, tab, g0, g1, num_players, seat_bot, lineup, setup_seeds, play_seeds, trace):
    """Play games ``g0..g1-1`` to the end; a bot's illegal move ends its game (``END_ILLEGAL``).

    ``trace`` (T, MOVE_LEN): when T > 0 the moves of game ``g0`` are recorded; returns their count.
    """
    tb = tab[0]
    mv = np.zeros(MOVE_LEN, np.int32)
    scratch = np.zeros(SCRATCH, np.int8)
    memo = np.full(MEMO, -1.0)
    recorded = 0
    for g in range(g0, g1):
        r = st[g]
        init_game(r, tb, num_players, setup_seeds[g], play_seeds[g])
        while r.over == RUNNING:
            choose_move(r, tb, lineup[seat_bot[g, r.current]], mv, scratch, memo)
            if not is_legal(r, tb, mv):
                r.over = END_ILLEGAL
                break
            if recorded < trace.shape[0]:
                for f in range(MOVE_LEN):
                    trace[recorded, f] = mv[f]
                recorded += 1
            apply_move(r, tb, mv)
    return recorded


@njit(cache=True, parallel=True)
def _play_parallel(st, tab, num_players, seat_bot, lineup, setup_seeds, play_seeds, num_blocks):
    n = setup_seeds.shape[0]
    no_trace = np.zeros((0, MOVE_LEN), np.int32)
    for b in prange(num_blocks):
        g0 = b * n // num_blocks
        g1 = (b + 1) * n // num_blocks
        _play_games(st, tab, g0, g1, num_players, seat_bot, lineup, setup_seeds, play_seeds, no_trace)


def _arrays(seat_bot, bot_ids, bot_params, setup_seeds, play_seeds):
    return (
        np.ascontiguousarray(np.asarray(seat_bot, dtype=np.int64).reshape(len(np.atleast_1d(setup_seeds)), -1)),
        bot_records(bot_ids, np.asarray(bot_params, dtype=np.float64).reshape(-1, MAX_BOT_PARAMS)),
        np.ascontiguousarray(np.atleast_1d(setup_seeds), dtype=np.uint64),
        np.ascontiguousarray(np.atleast_1d(play_seeds), dtype=np.uint64),
    )


def play_batch(
    data: PokerData,
    num_players: int,
    seat_bot: np.ndarray,
    bot_ids: np.ndarray,
    bot_params: np.ndarray,
    setup_seeds: np.ndarray,
    play_seeds: np.ndarray,
    threads: int = 1,
) -> np.ndarray:
    """Play one game (pot) per seed pair to the end; return the final game records.

    Parameters
    ----------
    seat_bot : ndarray(int, ndim=2)
        (G, num_players): index into ``bot_ids`` of the bot in each seat (seat 0 holds the amulet).
    bot_ids, bot_params : ndarray
        (L,) bot ids and (L, MAX_BOT_PARAMS) parameter vectors of the lineup.
    setup_seeds, play_seeds : ndarray(uint64)
        (G,) seeds of each game: the setup seed deals the cards, the play seed drives the bots.
    threads : int
        1 plays serially; more plays blocks of games on numba threads (same results).
    """
    seat_bot, lineup, setup_seeds, play_seeds = _arrays(seat_bot, bot_ids, bot_params, setup_seeds, play_seeds)
    g = setup_seeds.shape[0]
    st = new_state(g)
    if threads > 1 and g > 1:
        _play_parallel(st, data.kernel, num_players, seat_bot, lineup, setup_seeds, play_seeds, min(g, 16 * threads))
    else:
        _play_games(st, data.kernel, 0, g, num_players, seat_bot, lineup, setup_seeds, play_seeds,
                    np.zeros((0, MOVE_LEN), np.int32))
    return st


def trace_game(
    data: PokerData,
    num_players: int,
    seat_bot: np.ndarray,
    bot_ids: np.ndarray,
    bot_params: np.ndarray,
    setup_seed: int,
    play_seed: int,
    max_moves: int = 20000,
) -> tuple[np.ndarray, np.ndarray]:
    """Play one game and return its move records (moves, MOVE_LEN) and its final record (a batch of 1)."""
    seat_bot, lineup, setup, play = _arrays(seat_bot, bot_ids, bot_params, setup_seed, play_seed)
    st = new_state(1)
    trace = np.zeros((max_moves, MOVE_LEN), np.int32)
    count = _play_games(st, data.kernel, 0, 1, num_players, seat_bot, lineup, setup, play, trace)
    return trace[:count].copy(), st


def results(st: np.ndarray, num_players: int) -> dict[str, np.ndarray]:
    """Net chips, their parts, ranks and pot shares of finished games: arrays shaped (G, n) or (G,).

    ``score`` = chips won from the pot minus antes, bets and golem penalties paid; ranks order the
    seats by score (1 = best, equal scores share a rank); ``win`` is the share of the pot won.
    """
    n = num_players
    parts = np.stack(
        [st["won"][:, :n], -st["paid_ante"][:, :n], -st["paid_bet"][:, :n], -st["paid_penalty"][:, :n]], axis=2
    ).astype(np.int32)
    score = parts.sum(axis=2, dtype=np.int64).astype(np.int32)
    above = (score[:, None, :] > score[:, :, None]).sum(axis=2)
    rank = (1 + above).astype(np.int8)
    win = st["share"][:, :n].astype(np.float32)
    split = (win > 0).sum(axis=1) > 1
    winner = np.where(split, -1, win.argmax(axis=1)).astype(np.int8)
    return {"score": score, "parts": parts, "rank": rank, "win": win, "tied": split, "winner": winner}


__all__ = ["play_batch", "trace_game", "results", "SCORE_PARTS"]
