"""Century batch state and move record layout, shared by the numba engine, the bots and the tests.

A batch is a numpy structured array with one record per game (``new_state``); a record is passed
to numba as one pointer, so kernels pay nothing per field. Seats are numbered from 0 in turn
order (seat 0 moves first). A move is a small ``int16`` record (see ``M_*``).
"""

from __future__ import annotations

import numpy as np

from simulate.datafiles import deck_capacity
from simulate.games.century.data import MAX_MERCHANT_ROW, MAX_PLAYERS, MAX_POINT_ROW, CenturyTables
from simulate.play import ILLEGAL_MOVE

# Move kinds.
PLAY, ACQUIRE, REST, CLAIM, PASS = 0, 1, 2, 3, 4
MOVE_NAMES = ("play", "acquire", "rest", "claim", "pass")

# Move record fields.
M_KIND = 0  # one of PLAY, ACQUIRE, REST, CLAIM, PASS
M_ARG = 1  # PLAY: merchant card index; ACQUIRE, CLAIM: row position (0 = leftmost)
M_TIMES = 2  # PLAY of a trade card: repetitions (>= 1)
M_STEPS = 3  # PLAY of an upgrade card: steps starting at Y, G, T (fields 3, 4, 5)
M_PAY = 6  # ACQUIRE: colour placed on row card k for k < position (fields 6..13), -1 unused
M_DISCARD = 6 + MAX_MERCHANT_ROW  # crystals returned over the caravan limit, Y G T M (4 fields)
MOVE_LEN = M_DISCARD + 4

MAX_MOVES = 2048  # bound on the canonical legal-move list of one position

# End reasons (``CenturyState.over``).
END_REASONS = ("running", "trigger", "turn_cap", ILLEGAL_MOVE)
RUNNING, END_TRIGGER, END_TURN_CAP = 0, 1, 2
END_ILLEGAL = END_REASONS.index(ILLEGAL_MOVE)

# Merchant card state per seat (``CenturyState.cards``).
NOT_OWNED, IN_HAND, PLAYED = 0, 1, 2


# Fields of one game's record: (name, dtype, shape); per-card shapes are the deck sizes' capacities.
def state_fields(num_merchant: int, num_market: int, num_point: int) -> list[tuple]:
    """Record fields of one game; seats are in turn order, seat 0 moves first."""
    p = MAX_PLAYERS
    num_merchant, num_market, num_point = (deck_capacity(k) for k in (num_merchant, num_market, num_point))
    return [
        ("num_players", np.int8),
        ("current", np.int8),  # seat to move
        ("turn", np.int32),  # turns completed
        ("triggered", np.int8),  # 1 once a player reached the end trigger
        ("over", np.int8),  # RUNNING, END_TRIGGER, END_TURN_CAP or END_ILLEGAL
        ("crystals", np.int16, (p, 4)),  # caravans, Y G T M
        ("cards", np.int8, (p, num_merchant)),  # NOT_OWNED, IN_HAND or PLAYED per merchant card
        ("owned", np.int16, (p, num_merchant)),  # merchant cards owned, in card order, then -1
        ("num_owned", np.int16, (p,)),  # length of ``owned``: hands are scanned, not the whole deck
        ("num_points", np.int16, (p,)),  # point cards claimed
        ("point_vp", np.int16, (p,)),  # VP of claimed point cards
        ("copper", np.int16, (p,)),  # copper coins taken
        ("silver", np.int16, (p,)),  # silver coins taken
        ("copper_left", np.int16),
        ("silver_left", np.int16),
        ("m_row", np.int16, (MAX_MERCHANT_ROW,)),  # merchant card per row position, -1 empty
        ("m_row_crystals", np.int16, (MAX_MERCHANT_ROW, 4)),  # crystals lying on each row card
        ("m_deck", np.int16, (num_market,)),  # shuffled market deck, then unused slots
        ("m_deck_pos", np.int16),  # next card to draw from m_deck
        ("p_row", np.int16, (MAX_POINT_ROW,)),  # point card per row position, -1 empty
        ("p_deck", np.int16, (num_point,)),  # shuffled point deck, then unused slots
        ("p_deck_pos", np.int16),
        ("m_turn", np.int32, (num_merchant,)),  # turn a market card was acquired, -1
        ("p_turn", np.int32, (num_point,)),  # turn a point card was claimed, -1
        ("p_owner", np.int8, (num_point,)),  # seat that claimed a point card, -1
        ("rng", np.uint64, (1,)),  # play randomness (bots)
    ]


def new_state(num_games: int, tables: CenturyTables) -> np.ndarray:
    """Allocate a batch: a structured array of ``num_games`` game records (set up by ``init_game``).

    Kernels take one game's record ``r = state[g]`` and read fields as ``r.crystals[seat, colour]``.
    The record is packed (no padding bytes), so two equal positions have equal bytes.
    """
    dtype = np.dtype(state_fields(tables.m_kind.shape[0], tables.market_cards.shape[0], tables.p_vp.shape[0]))
    return np.zeros(num_games, dtype)


def new_move() -> np.ndarray:
    """An empty move record."""
    m = np.zeros(MOVE_LEN, np.int16)
    m[M_PAY:M_DISCARD] = -1
    return m
