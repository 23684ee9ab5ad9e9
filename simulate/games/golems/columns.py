"""Golems' output columns from finished game records: the games, seats and components tables of a chunk in one
numba pass, and the scores, parts, ranks and wins read from them."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golems import state
from simulate.games.golems.data import *
from simulate.games.golems.engine import rank_game, score_parts

NUM_PARTS = 5
SCORE_PARTS = ("score_golems", "score_tucks", "score_dust", "score_gems", "score_runes")


@njit(cache=True)
def _winner_seat(first_win, n):
    """1-based winning seat from seat 1's win (1, 0 or shared); solo: 1 if the player beat the automaton, 0 if not."""
    if first_win == 1.0:
        return 1
    if first_win == 0.0:
        return 2 if n == 2 else 0
    return -1


# seats columns counting the cards a seat took for each use (``dust`` itself is the dust a seat holds)
USE_COLUMNS = tuple(f"use_{name}" for name in state.USE_NAMES[: state.NUM_USES])
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
    *state.GEM_COUNTS,
    "gems_left",
    "gem_turns",
    "passes",
    "turns_played",
)
PROFILE = ("use_summon", "tucked", "use_reserve", "use_dust", "use_reward", "gem_turns", "passes")
"""Play-profile columns of the seats table: Golems summoned (one Golem card per summon), cards tucked, Runes
reserved, gem cards taken for their dust and for their reward, gem-taking turns and passes."""
_SEAT_FIELDS = 9 + state.NUM_USES  # SEAT_INT16 up to the uses; then columns_left and the gem counts
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
            s16[6, row] = u[state.U_GOLEM_RESOURCE] + u[state.U_SUMMON]
            s16[7, row] = u[state.U_RUNE_RESOURCE] + u[state.U_RESERVE] + u[state.U_DISCARD]
            s16[8, row] = u[state.U_REWARD] + u[state.U_DUST]
            for q in range(state.NUM_USES):
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
            if r.owner[c] >= 0 and r.use[c] != state.U_START:
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
