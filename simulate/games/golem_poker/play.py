"""Play batches of golem-poker games (pots) with bots: the njit game loop and its public wrappers."""

from __future__ import annotations

import numpy as np
from numba import njit

import simulate.play as loop
from simulate.game import Lineup
from simulate.gamekit import NO_POINTS, ranks_from_scores
from simulate.games.golem_poker.bots import MAX_BOT_PARAMS, MEMO, SCRATCH, SEARCH, bot_records, choose_move, strength
from simulate.games.golem_poker.data import MAX_DEALS, PokerData
from simulate.games.golem_poker.engine import apply_move, init_game, is_legal
from simulate.games.golem_poker.evaluator import CATEGORY_SHIFT
from simulate.games.golem_poker.search_bot import S_ITERATIONS, SEARCH_MOVES, new_scratch, search_action
from simulate.games.golem_poker.state import END_ILLEGAL, MOVE_LEN, NO_VALUE, OUT_BET1, OUT_BET2, RUNNING, new_state
from simulate.search import new_tree

SCORE_PARTS = ("score_pot", "score_ante", "score_bet", "score_penalty")
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
def _search_work(ctx, st):
    """The search bot's tree and scratch for one game loop, sized for the lineup's largest budget."""
    lineup = ctx[3]
    iterations = 0
    for b in range(lineup.shape[0]):
        if lineup[b].id == SEARCH:
            iterations = max(iterations, int(lineup[b].params[S_ITERATIONS]))
    return new_tree(iterations + 1, MOVE_LEN, SEARCH_MOVES), new_scratch(st)


@njit(cache=True, inline="always")
def _start(ctx, st, i, g, sc):
    init_game(st[i], ctx[0][0], ctx[1], ctx[4][g], ctx[5][g])


@njit(cache=True, inline="always")
def _running(st, i):
    return st[i].over == RUNNING


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
        _record_points(r, points, ctx[12], g)
    return True


@njit(cache=True, inline="always")
def _finish(ctx, st, i, g, sc):
    """Game ``g``'s columns, when the loop writes them."""
    gb = ctx[7]
    if gb.shape[0] > 0:
        _fill_game(st[i], ctx[0][0], ctx[1], g, ctx[6], gb, ctx[8], ctx[9], ctx[10])


@njit(cache=True)
def _play_games(ctx, st, slot, g0, g1, w, trace):
    """Golem-poker's game loop: ``simulate.play.play_games`` over its plug-ins; a bot's illegal move ends its game.

    ``ctx``: (tables, num_players, seat_bot (G, n), lineup (``bots.bot_records``), setup_seeds, play_seeds (G,),
    then the column arrays of ``_fill_game`` (gi, gb, si, sf, dl: each game's columns written as it ends when they
    are not empty), points, num_points). ``points`` (G, R, n) int32: when G > 0, every seat's net chips at the end
    of each stage of game g (a betting round or a draw, of every deal; the last stage ends with the pot awarded) go
    to ``points[g, k]``, ``num_points`` (G,) counting them (``simulate.gamekit.new_trajectories``). ``w``: a
    ``PAD`` record; ``trace`` takes game ``g0``'s moves.
    """
    return loop.play_games(_search_work, _start, _running, _turn, _finish, ctx, st, slot, g0, g1, w, trace)


@njit(cache=True, parallel=True)
def _play_blocks(ctx, st, keep, num_games, work, no_trace):
    """:func:`_play_games` over blocks of games on numba threads (``simulate.play.play_blocks``)."""
    loop.play_blocks(_play_games, ctx, st, keep, num_games, work, no_trace)


def _ctx(data, lineup, check=True, columns=None, points=NO_POINTS):
    """The loop's ``ctx`` (see :func:`_play_games`), the lineup as ``bots.bot_records``; every move is checked
    (``check`` is always on); no columns written without ``columns``."""
    head = loop.lineup_context(data.kernel, lineup, MAX_BOT_PARAMS)
    bots = bot_records(head[3], np.asarray(lineup.bot_params, dtype=np.float64).reshape(-1, MAX_BOT_PARAMS))
    return (*head[:3], bots, *head[5:], *(columns or _column_arrays(0, lineup.num_players)), *points)


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
    loop.decide_moves(_search_work, _turn, ctx, st, work, moves)


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
    rank = ranks_from_scores(score)
    win = st["share"][:, :n].astype(np.float32)
    split = (win > 0).sum(axis=1) > 1
    winner = np.where(split, -1, win.argmax(axis=1)).astype(np.int8)
    return {"score": score, "parts": parts, "rank": rank, "win": win, "tied": split, "winner": winner}


# Columns of the run format's tables filled by ``_fill_columns`` (name, dtype); see docs/golem-poker.md.
GAME_COLUMNS = (
    ("turns", np.int32),
    ("rounds", np.int32),
    ("end_reason", np.int32),
    ("winner_seat", np.int8),
    ("tied", np.bool_),
    ("pot", np.int32),
    ("house_take", np.int32),
    ("antes", np.int32),
    ("golem_wins", np.int16),
    ("showdowns", np.int16),
    ("final_hand_cat", np.int32),
    ("final_golem_cat", np.int32),
    ("final_golem_cards", np.int8),
)
# List columns of the games table: one int8 entry per showdown of the pot (deal k's at k - 1).
DEAL_COLUMNS = ("deal_golem_beaten", "deal_hand_cat", "deal_golem_cat", "deal_golem_cards", "deal_players")
SEAT_COLUMNS = (
    ("score", np.int32),
    ("rank", np.int8),
    ("win", np.float32),
    ("score_pot", np.int32),
    ("score_ante", np.int32),
    ("score_bet", np.int32),
    ("score_penalty", np.int32),
    ("out", np.int32),
    ("out_deal", np.int16),
    ("discarded", np.int16),
    ("opening_strength", np.float32),
    ("folds", np.int8),
    ("bets", np.int16),
    ("raises", np.int16),
    ("calls", np.int16),
    ("showdowns_reached", np.int16),
)
PROFILE = ("folds", "bets", "raises", "calls", "discarded", "showdowns_reached")
"""Play-profile counts per seat (``docs/golem-poker.md``): folded (0 or 1: a pot is one game), bets opened, raises,
calls (matches of a bet), cards discarded over all deals, and showdowns reached (each one the golem won forces a
re-deal, counted in the games table's ``golem_wins``)."""


@njit(cache=True, inline="always")
def _cat(value):
    return -1 if value == NO_VALUE else value >> CATEGORY_SHIFT


@njit(cache=True, inline="always")
def _fill_game(r, tb, n, g, gi, gb, si, sf, dl):
    """Write the games and seats columns of finished game record ``r`` as game ``g`` of a chunk.

    ``gi`` (len(GAME_COLUMNS), G) int64 and ``gb`` (G,) bool (``tied``); ``si`` (len(SEAT_COLUMNS), G * n)
    int64 and ``sf`` (2, G * n) float64 (``win``, ``opening_strength``); rows in the order of the column tuples.
    ``dl`` (len(DEAL_COLUMNS), MAX_DEALS, G) int8: the game's showdowns, ``dl[:, k, g]`` for k < ``showdowns``.
    """
    split = 0
    winner = -1
    for s in range(n):
        if r.share[s] > 0:
            split += 1
            winner = s
    gi[0, g] = r.turn
    gi[1, g] = r.deal
    gi[2, g] = r.over
    gi[3, g] = winner + 1 if split == 1 else -1
    gb[g] = split > 1
    gi[5, g] = r.pot
    gi[6, g] = r.house_take
    antes = 0
    for s in range(n):
        antes += r.paid_ante[s]
    gi[7, g] = antes
    gi[8, g] = r.golem_wins
    gi[9, g] = r.num_showdowns
    gi[10, g] = _cat(r.last_hand)
    gi[11, g] = _cat(r.last_golem)
    gi[12, g] = r.last_golem_cards
    for k in range(r.num_showdowns):
        dl[0, k, g] = r.log_beaten[k]
        dl[1, k, g] = r.log_hand_cat[k]
        dl[2, k, g] = r.log_golem_cat[k]
        dl[3, k, g] = r.log_golem_cards[k]
        dl[4, k, g] = r.log_players[k]
    for s in range(n):
        i = g * n + s
        score = r.won[s] - r.paid_ante[s] - r.paid_bet[s] - r.paid_penalty[s]
        above = 0
        for o in range(n):
            above += r.won[o] - r.paid_ante[o] - r.paid_bet[o] - r.paid_penalty[o] > score
        si[0, i] = score
        si[1, i] = 1 + above
        sf[0, i] = r.share[s]
        si[3, i] = r.won[s]
        si[4, i] = -r.paid_ante[s]
        si[5, i] = -r.paid_bet[s]
        si[6, i] = -r.paid_penalty[s]
        si[7, i] = r.fold_phase[s]
        si[8, i] = r.fold_deal[s]
        si[9, i] = r.discarded[s]
        sf[1, i] = strength(tb, r.opening_value[s])
        si[11, i] = r.fold_phase[s] == OUT_BET1 or r.fold_phase[s] == OUT_BET2
        si[12, i] = r.num_bets[s]
        si[13, i] = r.num_raises[s]
        si[14, i] = r.num_calls[s]
        si[15, i] = r.showdowns[s]


@njit(cache=True)
def _fill_columns(st, tab, n, gi, gb, si, sf, dl):
    """Columns of a batch of finished game records (see ``_fill_game``)."""
    tb = tab[0]
    for g in range(st.shape[0]):
        _fill_game(st[g], tb, n, g, gi, gb, si, sf, dl)


@njit(cache=True)
def _flatten_deals(dl, counts, offsets, flat):
    """Pack the per-game showdown slots ``dl`` into list values: game g's at ``flat[:, offsets[g]:offsets[g + 1]]``."""
    for g in range(counts.shape[0]):
        o = offsets[g]
        for k in range(counts[g]):
            for f in range(flat.shape[0]):
                flat[f, o + k] = dl[f, k, g]


@njit(cache=True)
def _record_points(r, points, num_points, g):
    """Every seat's net chips now into game ``g``'s next trajectory point (while there is room)."""
    k = num_points[g]
    if k >= points.shape[1]:
        return
    for s in range(r.num_players):
        points[g, k, s] = r.won[s] - r.paid_ante[s] - r.paid_bet[s] - r.paid_penalty[s]
    num_points[g] = k + 1


def play_lineup_columns(
    data: PokerData, lineup: Lineup, threads: int = 1, points: tuple[np.ndarray, np.ndarray] = NO_POINTS
) -> tuple[dict, dict, dict]:
    """Play one game per seed pair and return its ``games``, ``seats`` and per-deal columns (as ``columns``).

    No game record is kept, so memory stays small. ``points`` (``simulate.gamekit.new_trajectories`` of G games,
    none by default) take every seat's net chips at the end of every stage (betting round or draw).
    """
    g = len(np.atleast_1d(lineup.setup_seeds))
    columns = _column_arrays(g, lineup.num_players)
    ctx = _ctx(data, lineup, True, columns, points)
    LOOP.run(ctx, new_state(max(1, loop.num_blocks(g, threads))), g, threads, keep=False)  # a record a block, reused
    return _column_dicts(*columns)


play_columns = loop.by_arguments(play_lineup_columns)
""":func:`play_lineup_columns` with the lineup's fields as arguments, as :func:`play_batch` takes them."""


def _column_arrays(g: int, n: int) -> tuple[np.ndarray, ...]:
    return (
        np.empty((len(GAME_COLUMNS), g), np.int64),
        np.empty(g, np.bool_),
        np.empty((len(SEAT_COLUMNS), g * n), np.int64),
        np.empty((2, g * n), np.float64),
        np.empty((len(DEAL_COLUMNS), MAX_DEALS, g), np.int8),  # only the slots of real showdowns are touched
    )


def _column_dicts(gi, gb, si, sf, dl) -> tuple[dict, dict, dict]:
    gi[4] = 0  # "tied" lives in gb; SEAT row 2 ("win") lives in sf
    si[2] = 0
    games = {name: (gb if dtype is np.bool_ else gi[k].astype(dtype)) for k, (name, dtype) in enumerate(GAME_COLUMNS)}
    floats = {"win": sf[0], "opening_strength": sf[1]}
    seats = {
        name: (floats[name] if name in floats else si[k]).astype(dtype) for k, (name, dtype) in enumerate(SEAT_COLUMNS)
    }
    counts = games["showdowns"]
    offsets = np.zeros(len(counts) + 1, np.int32)
    np.cumsum(counts, out=offsets[1:])
    flat = np.empty((len(DEAL_COLUMNS), offsets[-1]), np.int8)
    _flatten_deals(dl, counts, offsets, flat)
    deals = {"offsets": offsets, **{name: flat[k] for k, name in enumerate(DEAL_COLUMNS)}}
    return games, seats, deals


def columns(data: PokerData, st: np.ndarray, num_players: int) -> tuple[dict, dict, dict]:
    """The ``games`` and ``seats`` columns (GAME_COLUMNS, SEAT_COLUMNS) of finished records, and their deals.

    The deals are list columns: ``offsets`` (G + 1,) and one flat int8 array per DEAL_COLUMNS name, game g's
    showdowns at ``offsets[g]:offsets[g + 1]``.
    """
    g = st.shape[0]
    arrays = _column_arrays(g, num_players)
    if g:
        _fill_columns(st, data.kernel, num_players, *arrays)
    return _column_dicts(*arrays)


__all__ = [
    "play_batch",
    "play_columns",
    "trace_game",
    "results",
    "columns",
    "SCORE_PARTS",
    "GAME_COLUMNS",
    "SEAT_COLUMNS",
    "DEAL_COLUMNS",
]
