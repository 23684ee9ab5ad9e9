"""Golem-poker's output columns from finished game records: net chips, their parts, ranks and pot shares, and the
games, seats and per-deal columns of the run format (``docs/golem-poker.md``), which the loop writes as each game
ends (:func:`fill_game`) or a batch of records gives (:func:`columns`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.gamekit import ranks_from_scores
from simulate.games.golem_poker.bots import strength
from simulate.games.golem_poker.data import MAX_DEALS, PokerData
from simulate.games.golem_poker.evaluator import CATEGORY_SHIFT
from simulate.games.golem_poker.state import NO_VALUE, OUT_BET1, OUT_BET2

SCORE_PARTS = ("score_pot", "score_ante", "score_bet", "score_penalty")


@njit(cache=True, inline="always")
def score_parts(r, tb, s, parts):
    """Seat ``s``'s net chips by part (``SCORE_PARTS``): won from the pot, antes, bets and golem penalties paid."""
    parts[0] = r.won[s]
    parts[1] = -r.paid_ante[s]
    parts[2] = -r.paid_bet[s]
    parts[3] = -r.paid_penalty[s]


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


# Columns of the run format's tables filled by ``fill_game`` (name, dtype); see docs/golem-poker.md.
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
def fill_game(r, tb, n, g, gi, gb, si, sf, dl):
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
    """Columns of a batch of finished game records (see ``fill_game``)."""
    tb = tab[0]
    for g in range(st.shape[0]):
        fill_game(st[g], tb, n, g, gi, gb, si, sf, dl)


@njit(cache=True)
def _flatten_deals(dl, counts, offsets, flat):
    """Pack the per-game showdown slots ``dl`` into list values: game g's at ``flat[:, offsets[g]:offsets[g + 1]]``."""
    for g in range(counts.shape[0]):
        o = offsets[g]
        for k in range(counts[g]):
            for f in range(flat.shape[0]):
                flat[f, o + k] = dl[f, k, g]


def column_arrays(g: int, n: int) -> tuple[np.ndarray, ...]:
    return (
        np.empty((len(GAME_COLUMNS), g), np.int64),
        np.empty(g, np.bool_),
        np.empty((len(SEAT_COLUMNS), g * n), np.int64),
        np.empty((2, g * n), np.float64),
        np.empty((len(DEAL_COLUMNS), MAX_DEALS, g), np.int8),  # only the slots of real showdowns are touched
    )


def column_dicts(gi, gb, si, sf, dl) -> tuple[dict, dict, dict]:
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
    arrays = column_arrays(g, num_players)
    if g:
        _fill_columns(st, data.kernel, num_players, *arrays)
    return column_dicts(*arrays)
