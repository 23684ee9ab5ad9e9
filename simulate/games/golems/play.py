"""Play batches of Golems games with bots: the njit game loop and its public wrappers."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simulate.games.golems.bots import MAX_BOT_PARAMS, choose, new_work
from simulate.games.golems.data import GolemsData
from simulate.games.golems.engine import init_game, is_legal, rank_game, score_parts, step
from simulate.games.golems.state import END_ILLEGAL, MOVE_LEN, RUNNING, U_START, new_state

NUM_PARTS = 5
SCORE_PARTS = ("score_golems", "score_tucks", "score_dust", "score_gems", "score_runes")


@njit(cache=True)
def _play_games(st, tab, g0, g1, num_players, seat_bot, bot_ids, bot_params, setup_seeds, play_seeds, w, trace):
    """Play games ``g0..g1-1`` to the end with bot work record ``w``; a move that a bot makes illegally ends its game.

    ``trace`` (T, MOVE_LEN): when T > 0 the moves of game ``g0`` are recorded; returns the count.
    """
    tb = tab[0]
    mv = w.mv
    recorded = 0
    for g in range(g0, g1):
        r = st[g]
        init_game(r, tb, num_players, setup_seeds[g], play_seeds[g])
        while r.over == RUNNING:
            b = seat_bot[g, r.current]
            choose(r, tb, bot_ids[b], bot_params, b, w)
            if not is_legal(r, tb, mv):
                r.over = END_ILLEGAL
                break
            if recorded < trace.shape[0]:
                for f in range(MOVE_LEN):
                    trace[recorded, f] = mv[f]
                recorded += 1
            step(r, tb, mv)
    return recorded


@njit(cache=True, parallel=True)
def _play_parallel(st, tab, num_players, seat_bot, bot_ids, bot_params, setup_seeds, play_seeds, ws):
    n = setup_seeds.shape[0]
    num_blocks = ws.shape[0]
    no_trace = np.zeros((0, MOVE_LEN), np.int16)
    for b in prange(num_blocks):
        g0 = b * n // num_blocks
        g1 = (b + 1) * n // num_blocks
        _play_games(
            st, tab, g0, g1, num_players, seat_bot, bot_ids, bot_params, setup_seeds, play_seeds, ws[b], no_trace
        )


@njit(cache=True)
def _results(st, tab, score, parts, rank, win, tied, decided, winner):
    tb = tab[0]
    pt = np.zeros(NUM_PARTS, np.int64)
    sc = np.zeros(2, np.int64)
    rk = np.zeros(2, np.int64)
    wn = np.zeros(2, np.float64)
    for g in range(st.shape[0]):
        r = st[g]
        n = r.num_players
        for s in range(n):
            score_parts(r, tb, s, pt)
            total = 0
            for k in range(NUM_PARTS):
                parts[g, s, k] = pt[k]
                total += pt[k]
            score[g, s] = total
            sc[s] = total
        t, by = rank_game(r, tb, sc, rk, wn)
        tied[g] = t
        decided[g] = by
        for s in range(n):
            rank[g, s] = rk[s]
            win[g, s] = wn[s]
        # 1-based winning seat; solo: 1 if the player beat the automaton, 0 if it lost; -1 shared
        if wn[0] == 1.0:
            winner[g] = 1
        elif wn[0] == 0.0:
            winner[g] = 2 if n == 2 else 0
        else:
            winner[g] = -1


@njit(cache=True)
def _count_components(st):
    """Cards taken (not dealt) in a batch of finished games."""
    k = 0
    for g in range(st.shape[0]):
        r = st[g]
        for c in range(r.owner.shape[0]):
            if r.owner[c] >= 0 and r.use[c] != U_START:
                k += 1
    return k


@njit(cache=True)
def _components(st, game, seat, card, turn, use, by_turn):
    """Cards taken (not dealt), game by game in turn order, into arrays sized by ``_count_components``.

    Each turn takes at most one card, so ``by_turn`` (one slot per turn, -1 empty) orders them.
    """
    k = 0
    for g in range(st.shape[0]):
        r = st[g]
        for t in range(r.turn):
            by_turn[t] = -1
        for c in range(r.owner.shape[0]):
            if r.owner[c] >= 0 and r.use[c] != U_START:
                by_turn[r.taken_turn[c]] = c
        for t in range(r.turn):
            c = by_turn[t]
            if c < 0:
                continue
            game[k] = g
            seat[k] = r.owner[c]
            card[k] = c
            turn[k] = t
            use[k] = r.use[c]
            k += 1


def components(st: np.ndarray) -> dict[str, np.ndarray]:
    """One row per card a seat took: ``game`` (offset in the batch), ``seat`` (0-based), ``card``, ``turn``, ``use``."""
    by_turn = np.zeros(int(st["turn"].max()) + 1 if st.shape[0] else 1, np.int64)
    n = _count_components(st)
    out = {"game": np.zeros(n, np.int64), "seat": np.zeros(n, np.int8), "card": np.zeros(n, np.int32),
           "turn": np.zeros(n, np.int32), "use": np.zeros(n, np.int8)}
    _components(st, out["game"], out["seat"], out["card"], out["turn"], out["use"], by_turn)
    return out


def play_batch(
    data: GolemsData,
    num_players: int,
    seat_bot: np.ndarray,
    bot_ids: np.ndarray,
    bot_params: np.ndarray,
    setup_seeds: np.ndarray,
    play_seeds: np.ndarray,
    threads: int = 1,
) -> np.ndarray:
    """Play one game per seed pair to the end; return the final game records.

    Parameters
    ----------
    seat_bot : ndarray(int, ndim=2)
        (G, num_players): index into ``bot_ids`` of the bot in each seat.
    bot_ids, bot_params : ndarray
        (L,) bot ids and (L, MAX_BOT_PARAMS) parameter vectors of the lineup.
    setup_seeds, play_seeds : ndarray(uint64)
        (G,) seeds of each game.
    threads : int
        1 plays serially; more plays blocks of games on numba threads (same results).
    """
    g = setup_seeds.shape[0]
    st = new_state(g, data.tables)
    args = (
        np.ascontiguousarray(seat_bot, dtype=np.int64).reshape(g, num_players),
        np.ascontiguousarray(bot_ids, dtype=np.int64),
        np.ascontiguousarray(bot_params, dtype=np.float64).reshape(-1, MAX_BOT_PARAMS),
        np.ascontiguousarray(setup_seeds, dtype=np.uint64),
        np.ascontiguousarray(play_seeds, dtype=np.uint64),
    )
    if threads > 1 and g > 1:
        _play_parallel(st, data.kernel, num_players, *args, new_work(min(g, 16 * threads), st.dtype))
    else:
        no_trace = np.zeros((0, MOVE_LEN), np.int16)
        _play_games(st, data.kernel, 0, g, num_players, *args, new_work(1, st.dtype)[0], no_trace)
    return st


def trace_game(
    data: GolemsData,
    num_players: int,
    seat_bot: np.ndarray,
    bot_ids: np.ndarray,
    bot_params: np.ndarray,
    setup_seed: int,
    play_seed: int,
    max_moves: int = 20000,
) -> tuple[np.ndarray, np.ndarray]:
    """Play one game and return its move records (moves, MOVE_LEN) and its final state (a batch of 1)."""
    st = new_state(1, data.tables)
    trace = np.zeros((max_moves, MOVE_LEN), np.int16)
    count = _play_games(
        st, data.kernel, 0, 1, num_players,
        np.ascontiguousarray(np.asarray(seat_bot, dtype=np.int64).reshape(1, -1)),
        np.ascontiguousarray(bot_ids, dtype=np.int64),
        np.ascontiguousarray(bot_params, dtype=np.float64).reshape(-1, MAX_BOT_PARAMS),
        np.array([setup_seed], np.uint64), np.array([play_seed], np.uint64),
        new_work(1, st.dtype)[0], trace,
    )
    return trace[:count].copy(), st


def results(data: GolemsData, st: np.ndarray) -> dict[str, np.ndarray]:
    """Scores, parts, ranks and wins of finished games: arrays shaped (G, n) or (G,).

    ``decided``: 0 by score, 1 by Golems, 2 by tucked cards, 3 shared. ``winner``: 1-based seat
    (solo: 1 = the player beat the automaton, 0 = it lost), -1 shared.
    """
    g = st.shape[0]
    n = int(st["num_players"][0]) if g else 2
    score = np.zeros((g, n), np.int32)
    parts = np.zeros((g, n, NUM_PARTS), np.int32)
    rank = np.zeros((g, n), np.int8)
    win = np.zeros((g, n), np.float32)
    tied = np.zeros(g, np.bool_)
    decided = np.zeros(g, np.int8)
    winner = np.zeros(g, np.int8)
    if g:
        _results(st, data.kernel, score, parts, rank, win, tied, decided, winner)
    return {"score": score, "parts": parts, "rank": rank, "win": win, "tied": tied, "decided": decided,
            "winner": winner}
