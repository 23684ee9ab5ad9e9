"""Century's output columns from finished game records: scores, parts, ranks and wins, the cards and crystals each
seat ends with, and a row per card acquired (the run format's ``seats`` and ``components`` tables)."""

from __future__ import annotations

import numpy as np
from numba import njit

import simulate.play as loop
from simulate.gamekit import turn_order
from simulate.games.century.data import MAX_PLAYERS, P_TIE_SHARED, CenturyData
from simulate.games.century.engine import rank_seats, score_parts

NUM_PARTS = 4
SCORE_PARTS = ("score_points", "score_copper", "score_silver", "score_crystals")
COMPONENT_ROWS = (("game", np.int64), ("seat", np.int8), ("code", np.int32), ("kind", np.int32), ("turn", np.int32))
"""Component row arrays of a chunk (name, dtype): the types of the run format's columns, so none is converted."""


@njit(cache=True)
def _results(st, tab, shared, score, parts, rank, win, tied, winner):
    tb = tab[0]
    sc = np.zeros(MAX_PLAYERS, np.int64)
    rk = np.zeros(MAX_PLAYERS, np.int64)
    wn = np.zeros(MAX_PLAYERS, np.float64)
    pt = np.zeros(NUM_PARTS, np.int64)
    for g in range(st.shape[0]):
        r = st[g]
        n = r.num_players
        loop.score_seats(score_parts, r, tb, n, g, pt, score, parts)
        for s in range(n):
            sc[s] = score[g, s]
        tied[g] = rank_seats(sc, n, shared, rk, wn)
        winner[g] = -1
        for s in range(n):
            rank[g, s] = rk[s]
            win[g, s] = wn[s]
            if rk[s] == 1 and wn[s] == 1.0:
                winner[g] = s


def results(data: CenturyData, st: np.ndarray) -> dict[str, np.ndarray]:
    """Scores, parts, ranks and wins of finished games: arrays shaped (G, n) or (G,)."""
    tb = data.tables
    g = st.shape[0]
    n = int(st["num_players"][0]) if g else 2
    res = loop.result_arrays(g, n, NUM_PARTS) | {"tied": np.zeros(g, np.bool_), "winner": np.zeros(g, np.int8)}
    if g:
        _results(st, data.kernel, bool(tb.params[P_TIE_SHARED]), *res.values())
    return res


@njit(cache=True)
def _seat_and_component_rows(
    st, market, num_merchant, seat_cards, seat_crystals, comp_game, comp_seat, comp_code, comp_kind, comp_turn
):
    """Per-seat card and crystal counts, and one row per card acquired, game by game (merchant cards, then point
    cards, each in data order); returns the rows. With ``comp_game`` of length 0 only counts them."""
    rows = 0
    for g in range(st.shape[0]):
        r = st[g]
        n = r.num_players
        for s in range(n):
            if seat_cards.shape[0]:
                k = 0
                for i in range(r.num_owned[s]):
                    k += market[r.owned[s, i]]
                seat_cards[g * n + s] = k
                seat_crystals[g * n + s] = r.crystals[s, 0] + r.crystals[s, 1] + r.crystals[s, 2] + r.crystals[s, 3]
        for m in range(r.m_turn.shape[0]):
            if r.m_turn[m] >= 0:
                if comp_game.shape[0]:
                    owner = 0
                    while r.cards[owner, m] == 0:
                        owner += 1
                    _row(comp_game, comp_seat, comp_code, comp_kind, comp_turn, rows, g, owner, m, 0, r.m_turn[m])
                rows += 1
        for p in range(r.p_owner.shape[0]):
            if r.p_owner[p] >= 0:
                if comp_game.shape[0]:
                    _row(
                        comp_game,
                        comp_seat,
                        comp_code,
                        comp_kind,
                        comp_turn,
                        rows,
                        g,
                        r.p_owner[p],
                        num_merchant + p,
                        1,
                        r.p_turn[p],
                    )
                rows += 1
    return rows


@njit(cache=True, inline="always")
def _row(game, seat, code, kind, turn, at, g, s, c, k, t):
    game[at] = g
    seat[at] = s
    code[at] = c
    kind[at] = k
    turn[at] = t


def seat_and_component_rows(data: CenturyData, st: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Market cards held and crystals left per seat (game-major, int16), and the component rows of finished games
    (``COMPONENT_ROWS``) in turn order (``simulate.gamekit.turn_order``)."""
    g = st.shape[0]
    n = int(st["num_players"][0]) if g else 2
    market = np.zeros(len(data.tables.m_kind), np.int64)
    market[data.tables.market_cards] = 1
    nm = len(data.tables.m_kind)
    none = [np.zeros(0, dtype) for _, dtype in COMPONENT_ROWS]
    rows = _seat_and_component_rows(st, market, nm, np.zeros(0, np.int16), np.zeros(0, np.int16), *none)
    seat_cards = np.zeros(g * n, np.int16)
    seat_crystals = np.zeros(g * n, np.int16)
    comp = {name: np.empty(rows, dtype) for name, dtype in COMPONENT_ROWS}  # every row is written
    _seat_and_component_rows(st, market, nm, seat_cards, seat_crystals, *comp.values())
    return {"cards": seat_cards, "crystals": seat_crystals}, turn_order(comp)
