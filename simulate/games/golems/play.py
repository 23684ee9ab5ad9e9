"""Play batches of Golems games with bots: the njit game loop and its public wrappers."""

from __future__ import annotations

import numpy as np
from numba import njit

import simulate.play as loop
from simulate.game import Lineup
from simulate.gamekit import NO_POINTS
from simulate.games.golems.apprentice import apprentice_action
from simulate.games.golems.bots import APPRENTICE, MAX_BOT_PARAMS, SEARCH, choose, new_work
from simulate.games.golems.data import (
    MAX_DISPLAY,
    MAX_PLAYERS,
    MAX_REMOVED,
    MAX_START_PER_PLAYER,
    MAX_TYPES,
    GolemsData,
)
from simulate.games.golems.engine import deal_gift, init_game, is_legal, rank_game, score_parts, step
from simulate.games.golems.features import NUM_FEATURES
from simulate.games.golems.search_bot import S_ITERATIONS, SEARCH_MOVES, new_scratch, search_action
from simulate.games.golems.state import (
    END_ILLEGAL,
    MOVE_LEN,
    NUM_USES,
    RUNNING,
    U_DISCARD,
    U_DUST,
    U_GOLEM_RESOURCE,
    U_RESERVE,
    U_REWARD,
    U_RUNE_RESOURCE,
    U_START,
    U_SUMMON,
    USE_NAMES,
    new_state,
)
from simulate.games.golems.value import features
from simulate.play import no_finish
from simulate.search import new_tree

NUM_PARTS = 5
NO_RECORD = np.zeros((0, NUM_FEATURES), np.float32), np.zeros(0, np.int64), 0
"""The empty feature rows, row counts and first game of a loop that records none."""
SCORE_PARTS = ("score_golems", "score_tucks", "score_dust", "score_gems", "score_runes")


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
def _running(st, i):
    return st[i].over == RUNNING


@njit(cache=True, inline="always")
def _turn(ctx, st, i, g, sc, w):
    """The seat to move's move (checked with ``check``), then the features and trajectory point to record."""
    tb = ctx[0][0]
    bot_ids, bot_params = ctx[3], ctx[4]
    r = st[i]
    mv = w.mv
    b = ctx[2][g, r.current]
    if bot_ids[b] == SEARCH:
        search_action(st, i, tb, bot_params[b], sc[0], sc[1], mv)
    elif bot_ids[b] == APPRENTICE:
        apprentice_action(r, tb, bot_params[b, 0], bot_params[b, 1], bot_params[b, 2], int(bot_params[b, 3]), w)
    else:
        choose(r, tb, bot_ids[b], bot_params, b, w)
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
    return loop.play_games(_scratch, _start, _running, _turn, no_finish, ctx, st, slot, g0, g1, w, trace)


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


@njit(cache=True)
def _winner_seat(first_win, n):
    """1-based winning seat from seat 1's win (1, 0 or shared); solo: 1 if the player beat the automaton, 0 if not."""
    if first_win == 1.0:
        return 1
    if first_win == 0.0:
        return 2 if n == 2 else 0
    return -1


# seats columns counting the cards a seat took for each use (``dust`` itself is the dust a seat holds)
USE_COLUMNS = tuple(f"use_{name}" for name in USE_NAMES[:NUM_USES])
# int16 columns of the games and seats tables that ``chunk_columns`` fills, in order
GAME_INT16 = ("deck_left", "supply_left", "grids", "automa_score", "automa_golems", "automa_cards", "automa_gems")
SEAT_INT16 = (
    "golems",
    "tucked",
    "dust",
    "dust_cards",
    "hand_gem_cards",
    "hand_runes",
    "cards_golem",
    "cards_rune",
    "cards_gem",
    *USE_COLUMNS,
    "columns_left",
    "gems_taken",
    "gems_gained",
    "gems_reward",
    "gems_stolen",
    "gems_paid",
    "gems_reserve",
    "gems_left",
    "gem_turns",
    "passes",
    "turns_played",
)
PROFILE = ("use_summon", "tucked", "use_reserve", "use_dust", "use_reward", "gem_turns", "passes")
"""Play-profile columns of the seats table: Golems summoned (one Golem card per summon), cards tucked, Runes
reserved, gem cards taken for their dust and for their reward, gem-taking turns and passes."""
_SEAT_FIELDS = 9 + NUM_USES  # SEAT_INT16 up to the uses; then columns_left and the gem counts
NUM_SETUP = MAX_DISPLAY + MAX_REMOVED + MAX_PLAYERS * MAX_START_PER_PLAYER


@njit(cache=True)
def _columns(st, tab, n, empty, games, seats, comps):
    """Fill the column arrays of finished games ``st`` in one pass (see ``chunk_columns``); returns the component rows.

    ``games`` = (turns, end reason, winner, tied, decided by, GAME_INT16 rows, setup codes),
    ``seats`` = (score and parts, rank, win, SEAT_INT16 rows), ``comps`` = (game, seat, card,
    kind, turn, use, by_turn scratch); setup positions the table does not use get code ``empty``.
    """
    tb = tab[0]
    turns, ends, winner, tied, decided, g16, setup = games
    points, rank, win, s16 = seats
    c_game, c_seat, c_card, c_kind, c_turn, c_use, by_turn = comps
    pt = np.zeros(NUM_PARTS, np.int64)
    sc = np.zeros(2, np.int64)
    rk = np.zeros(2, np.int64)
    wn = np.zeros(2, np.float64)
    ncards = tb.c_type.shape[0]
    k = 0
    for g in range(st.shape[0]):
        r = st[g]
        turns[g] = r.turn
        ends[g] = r.over
        g16[0, g] = r.deck_len - r.deck_pos
        g16[1, g] = r.supply
        g16[2, g] = r.grids
        g16[3, g] = r.automa_vp
        g16[4, g] = r.automa_golems
        g16[5, g] = r.automa_cards
        g16[6, g] = r.automa_gems
        # the opening display is deck[removed : removed + rows * row_size] (dealt row by row, never moved)
        shown = r.rows * r.row_size
        last = r.deck.shape[0] - 1
        for j in range(MAX_DISPLAY):
            setup[j, g] = r.deck[min(r.removed + j, last)] if j < shown else empty
        for j in range(MAX_REMOVED):
            setup[MAX_DISPLAY + j, g] = r.deck[min(j, last)] if j < r.removed else empty
        for p in range(MAX_PLAYERS):
            for j in range(MAX_START_PER_PLAYER):
                c = r.start_runes[p, j]
                setup[MAX_DISPLAY + MAX_REMOVED + p * MAX_START_PER_PLAYER + j, g] = c if c >= 0 else empty
        for s in range(n):
            row = g * n + s
            score_parts(r, tb, s, pt)
            total = 0
            for q in range(NUM_PARTS):
                points[1 + q, row] = pt[q]
                total += pt[q]
            points[0, row] = total
            sc[s] = total
            u = r.uses[s]
            s16[0, row] = r.golems[s]
            s16[1, row] = r.tucked[s]
            s16[2, row] = r.dust[s]
            s16[3, row] = r.dust_cards[s]
            s16[4, row] = r.gem_cards[s]
            s16[5, row] = r.rune_cards[s]
            s16[6, row] = u[U_GOLEM_RESOURCE] + u[U_SUMMON]
            s16[7, row] = u[U_RUNE_RESOURCE] + u[U_RESERVE] + u[U_DISCARD]
            s16[8, row] = u[U_REWARD] + u[U_DUST]
            for q in range(NUM_USES):
                s16[9 + q, row] = u[q]
            left = 0
            for t in range(MAX_TYPES):
                left += r.col[s, t]
            f = _SEAT_FIELDS
            s16[f, row] = left
            s16[f + 1, row] = r.gems_taken[s]
            s16[f + 2, row] = r.gems_gained[s]
            s16[f + 3, row] = r.gems_reward[s]
            s16[f + 4, row] = r.gems_stolen[s]
            s16[f + 5, row] = r.gems_paid[s]
            s16[f + 6, row] = r.gems_reserve[s]
            s16[f + 7, row] = r.gems[s]
            s16[f + 8, row] = r.gem_turns[s]
            s16[f + 9, row] = r.passes[s]
            s16[f + 10, row] = (r.turn + n - 1 - s) // n
        t, by = rank_game(r, tb, sc, rk, wn)
        tied[g] = t
        decided[g] = by
        for s in range(n):
            rank[g * n + s] = rk[s]
            win[g * n + s] = wn[s]
        winner[g] = _winner_seat(wn[0], n)
        # cards taken (not dealt), in turn order: each turn takes at most one card
        for t in range(r.turn):
            by_turn[t] = -1
        for c in range(ncards):
            if r.owner[c] >= 0 and r.use[c] != U_START:
                by_turn[r.taken_turn[c]] = c
        for t in range(r.turn):
            c = by_turn[t]
            if c < 0:
                continue
            c_game[k] = g
            c_seat[k] = r.owner[c]
            c_card[k] = c
            c_kind[k] = tb.c_type[c]
            c_turn[k] = t
            c_use[k] = r.use[c]
            k += 1
    return k


def chunk_columns(
    data: GolemsData, st: np.ndarray
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Games, seats and components columns of finished games ``st``, as numpy arrays (codes where named so).

    Games: ``turns``, ``end_reason`` (codes into END_REASONS), ``winner_seat``, ``tied``,
    ``decided_by`` (codes: score, Golems, tucked cards, shared), GAME_INT16, and ``setup`` (NUM_SETUP, G)
    card codes (``len(card_ids)`` for a position the table does not use). Seats (game-major, then
    seat): ``score``, the score parts, ``rank``, ``win``, SEAT_INT16. Components: one row per card a
    seat took, game by game in turn order: ``game`` (offset in the batch), ``seat`` (0-based),
    ``card``, ``kind``, ``turn``, ``use``. Row arrays are contiguous views of one matrix per type.
    """
    g = st.shape[0]
    n = int(st["num_players"][0]) if g else 2
    ncards = len(data.card_ids)
    code = np.int8 if ncards + 1 < 2**7 else np.int16
    turns = np.zeros(g, np.int32)
    small = np.zeros((3, g), np.int8)
    tied = np.zeros(g, np.bool_)
    g16 = np.zeros((len(GAME_INT16), g), np.int16)
    setup = np.zeros((NUM_SETUP, g), code)
    points = np.zeros((1 + NUM_PARTS, g * n), np.int32)
    rank = np.zeros(g * n, np.int8)
    win = np.zeros(g * n, np.float32)
    s16 = np.zeros((len(SEAT_INT16), g * n), np.int16)
    cap = int(st["turn"].sum()) if g else 0
    c_game = np.zeros(cap, np.int64)
    c_small = np.zeros((3, cap), np.int8)
    c_card = np.zeros(cap, code)
    c_turn = np.zeros(cap, np.int32)
    by_turn = np.zeros(int(st["turn"].max()) + 1 if g else 1, np.int64)
    k = _columns(
        st,
        data.kernel,
        n,
        ncards,
        (turns, small[0], small[1], tied, small[2], g16, setup),
        (points, rank, win, s16),
        (c_game, c_small[0], c_card, c_small[1], c_turn, c_small[2], by_turn),
    )
    games = {"turns": turns, "end_reason": small[0], "winner_seat": small[1], "tied": tied, "decided_by": small[2]}
    games.update(zip(GAME_INT16, g16, strict=True))
    games["setup"] = setup
    seats = {"score": points[0], "rank": rank, "win": win}
    seats.update(zip(SCORE_PARTS, points[1:], strict=True))
    seats.update(zip(SEAT_INT16, s16, strict=True))
    comps = {
        "game": c_game[:k],
        "seat": c_small[0, :k],
        "card": c_card[:k],
        "kind": c_small[1, :k],
        "turn": c_turn[:k],
        "use": c_small[2, :k],
    }
    return games, seats, comps


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


def results(data: GolemsData, st: np.ndarray) -> dict[str, np.ndarray]:
    """Scores, parts, ranks and wins of finished games: arrays shaped (G, n) or (G,).

    ``decided``: 0 by score, 1 by Golems, 2 by tucked cards, 3 shared. ``winner``: 1-based seat
    (solo: 1 = the player beat the automaton, 0 = it lost), -1 shared.
    """
    g = st.shape[0]
    n = int(st["num_players"][0]) if g else 2
    games, seats, _ = chunk_columns(data, st)
    parts = np.stack([seats[name] for name in SCORE_PARTS], axis=1).reshape(g, n, NUM_PARTS)
    return {
        "score": seats["score"].reshape(g, n),
        "parts": parts,
        "rank": seats["rank"].reshape(g, n),
        "win": seats["win"].reshape(g, n),
        "tied": games["tied"],
        "decided": games["decided_by"],
        "winner": games["winner_seat"],
    }
