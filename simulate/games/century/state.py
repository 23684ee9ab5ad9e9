"""Century batch state and move record layout, shared by the numba engine, the bots and the tests.

A batch is a :class:`CenturyState` of arrays whose first axis is the game. Seats are numbered
from 0 in turn order (seat 0 moves first). A move is a small ``int16`` record (see ``M_*``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simulate.games.century.data import MAX_MERCHANT_ROW, MAX_PLAYERS, MAX_POINT_ROW, CenturyTables

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
RUNNING, END_TRIGGER, END_TURN_CAP = 0, 1, 2
END_REASONS = ("running", "trigger", "turn_cap")

# Merchant card state per seat (``CenturyState.cards``).
NOT_OWNED, IN_HAND, PLAYED = 0, 1, 2


class CenturyState(NamedTuple):
    """State of a batch of games; axis 0 is the game, seats are in turn order."""

    num_players: np.ndarray  # int8 (G,)
    current: np.ndarray  # int8 (G,): seat to move
    turn: np.ndarray  # int32 (G,): turns completed
    triggered: np.ndarray  # int8 (G,): 1 once a player reached the end trigger
    over: np.ndarray  # int8 (G,): RUNNING, END_TRIGGER or END_TURN_CAP
    crystals: np.ndarray  # int16 (G, 5, 4): caravans
    cards: np.ndarray  # int8 (G, 5, num_merchant): NOT_OWNED, IN_HAND or PLAYED
    num_points: np.ndarray  # int16 (G, 5): point cards claimed
    point_vp: np.ndarray  # int16 (G, 5): VP of claimed point cards
    copper: np.ndarray  # int16 (G, 5): copper coins taken
    silver: np.ndarray  # int16 (G, 5): silver coins taken
    copper_left: np.ndarray  # int16 (G,)
    silver_left: np.ndarray  # int16 (G,)
    m_row: np.ndarray  # int16 (G, 8): merchant card index per row position, -1 empty
    m_row_crystals: np.ndarray  # int16 (G, 8, 4): crystals lying on each row card
    m_deck: np.ndarray  # int16 (G, num_market): shuffled market deck
    m_deck_pos: np.ndarray  # int16 (G,): next card to draw from m_deck
    p_row: np.ndarray  # int16 (G, 8): point card index per row position, -1 empty
    p_deck: np.ndarray  # int16 (G, num_point): shuffled point deck
    p_deck_pos: np.ndarray  # int16 (G,)
    m_turn: np.ndarray  # int32 (G, num_merchant): turn a market card was acquired, -1
    p_turn: np.ndarray  # int32 (G, num_point): turn a point card was claimed, -1
    p_owner: np.ndarray  # int8 (G, num_point): seat that claimed a point card, -1
    rng: np.ndarray  # uint64 (G,): play randomness (bots)


def new_state(num_games: int, tables: CenturyTables) -> CenturyState:
    """Allocate an (uninitialised) batch of ``num_games`` games."""
    g = num_games
    nm = tables.m_kind.shape[0]
    nk = max(tables.market_cards.shape[0], 1)
    npt = tables.p_vp.shape[0]
    return CenturyState(
        num_players=np.zeros(g, np.int8),
        current=np.zeros(g, np.int8),
        turn=np.zeros(g, np.int32),
        triggered=np.zeros(g, np.int8),
        over=np.zeros(g, np.int8),
        crystals=np.zeros((g, MAX_PLAYERS, 4), np.int16),
        cards=np.zeros((g, MAX_PLAYERS, nm), np.int8),
        num_points=np.zeros((g, MAX_PLAYERS), np.int16),
        point_vp=np.zeros((g, MAX_PLAYERS), np.int16),
        copper=np.zeros((g, MAX_PLAYERS), np.int16),
        silver=np.zeros((g, MAX_PLAYERS), np.int16),
        copper_left=np.zeros(g, np.int16),
        silver_left=np.zeros(g, np.int16),
        m_row=np.full((g, MAX_MERCHANT_ROW), -1, np.int16),
        m_row_crystals=np.zeros((g, MAX_MERCHANT_ROW, 4), np.int16),
        m_deck=np.zeros((g, nk), np.int16),
        m_deck_pos=np.zeros(g, np.int16),
        p_row=np.full((g, MAX_POINT_ROW), -1, np.int16),
        p_deck=np.zeros((g, npt), np.int16),
        p_deck_pos=np.zeros(g, np.int16),
        m_turn=np.full((g, nm), -1, np.int32),
        p_turn=np.full((g, npt), -1, np.int32),
        p_owner=np.full((g, npt), -1, np.int8),
        rng=np.zeros(g, np.uint64),
    )


def new_move() -> np.ndarray:
    """An empty move record."""
    m = np.zeros(MOVE_LEN, np.int16)
    m[M_PAY:M_DISCARD] = -1
    return m
