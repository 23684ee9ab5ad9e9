"""Golems batch state and move record layout, shared by the numba engine, the bots and the tests.

A batch is a numpy structured array with one record per game (``new_state``); a record is passed
to numba as one pointer. Seats are numbered from 0 in turn order (seat 0 moves first); a solo
game has one seat and the automaton is part of the rules (fields ``automa_*``). A move is a small
``int16`` record (see ``M_*``).
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np

from simulate.datafiles import deck_capacity
from simulate.games.golems.data import *
from simulate.play import ILLEGAL_MOVE

# Move kinds.
TAKE_GEMS, TAKE_CARD, PASS = 0, 1, 2
MOVE_NAMES = ("gems", "card", "pass")

# Abilities (``M_ABILITY`` of a TAKE_CARD move).
RESOURCE, SUMMON, RESERVE, REWARD, DUST, DISCARD = 0, 1, 2, 3, 4, 5
ABILITY_NAMES = ("resource", "summon", "reserve", "reward", "dust", "discard")

# Move record fields.
M_KIND = 0  # TAKE_GEMS, TAKE_CARD or PASS
M_ROW = 1  # TAKE_CARD: display row (0-based)
M_POS = 2  # TAKE_CARD: position in the row (0-based; cards do not slide)
M_ABILITY = 3  # TAKE_CARD: RESOURCE, SUMMON, RESERVE, REWARD, DUST or DISCARD
M_COLUMN = 4  # RESOURCE: the column (resource type) the card joins; a wild Rune's choice
M_TUCK = 5  # SUMMON: cards tucked from each column (MAX_TYPES fields)
MOVE_LEN = M_TUCK + MAX_TYPES

MAX_MOVES = 16384  # bound on the canonical legal-move list of one position

# End reasons (``over``).
END_REASONS = ("running", "trigger", "turn_cap", ILLEGAL_MOVE, "stalled")
RUNNING, END_TRIGGER, END_TURN_CAP, END_STALLED = 0, 1, 2, 4
END_ILLEGAL = END_REASONS.index(ILLEGAL_MOVE)

# How a card was used (``use`` per card, ``uses`` per seat): the card type and ability together.
U_GOLEM_RESOURCE, U_SUMMON, U_RUNE_RESOURCE, U_RESERVE, U_REWARD, U_DUST, U_DISCARD, U_START = range(8)
USE_NAMES = ("golem_resource", "summon", "rune_resource", "reserve", "reward", "dust", "discard", "start")
NUM_USES = 7  # uses counted per seat (all but U_START)
GEM_COUNTS = ("gems_taken", "gems_gained", "gems_reward", "gems_stolen", "gems_paid", "gems_reserve")
"""The record's per-seat gem counters (fields of :func:`state_fields`), each also a seats column of that name."""


def state_fields(num_cards: int) -> list[tuple]:
    """Record fields of one game; seats are in turn order, seat 0 moves first; per-card fields are sized to the deck's
    capacity (:func:`simulate.datafiles.deck_capacity`), their slots past the deck empty."""
    p = MAX_PLAYERS
    num_cards = deck_capacity(num_cards)
    return [
        ("num_players", np.int8),
        ("current", np.int8),  # seat to move
        ("turn", np.int32),  # turns completed
        ("over", np.int8),  # RUNNING, END_TRIGGER, END_TURN_CAP or END_ILLEGAL
        ("triggered", np.int8),  # 1 once a row could not be refilled
        ("idle", np.int8),  # passes in a row (2 players: a whole round of passes ends the game)
        ("rows", np.int8),  # display rows in use (2 players: table.rows; solo: solo.rows)
        ("row_size", np.int8),
        ("slot", np.int16, (MAX_ROWS, MAX_ROW_SIZE)),  # card at each display position, -1 empty
        ("slot_gems", np.int16, (MAX_ROWS, MAX_ROW_SIZE)),  # gems lying on each display card
        ("row_count", np.int8, (MAX_ROWS,)),  # cards in each row
        ("deck", np.int16, (num_cards,)),  # shuffled deck; deck[:removed] removed unseen
        ("deck_len", np.int16),  # cards in the deck list
        ("deck_pos", np.int16),  # next card to draw
        ("removed", np.int16),  # cards removed at setup
        ("supply", np.int16),  # gems in the supply
        ("gems", np.int16, (p,)),  # gems held
        ("col", np.int16, (p, MAX_TYPES)),  # resource cards in each column (wild Runes included)
        ("wild", np.int16, (p, MAX_TYPES)),  # wild Runes in each column
        ("golems", np.int16, (p,)),  # summoned Golems
        ("tucked", np.int16, (p,)),  # tucked cards
        ("dust", np.int16, (p,)),  # dust (as counted by dust_count)
        ("dust_cards", np.int16, (p,)),
        ("gem_vp", np.int16, (p,)),  # VP of Gem cards in hand
        ("rune_vp", np.int16, (p,)),  # VP of Runes in hand (starting Runes included)
        ("gem_cards", np.int16, (p,)),  # Gem cards in hand
        ("rune_cards", np.int16, (p,)),  # Runes in hand (starting Runes included)
        ("start_runes", np.int16, (p, MAX_START_PER_PLAYER)),  # starting Runes dealt, -1 none
        ("gems_taken", np.int16, (p,)),  # gems from the gem action
        ("gems_gained", np.int16, (p,)),  # gems lying on cards taken
        ("gems_reward", np.int16, (p,)),  # gems from Rewards (supply and opponent)
        ("gems_stolen", np.int16, (p,)),  # part of gems_reward taken from the opponent
        ("gems_paid", np.int16, (p,)),  # gems put on display cards
        ("gems_reserve", np.int16, (p,)),  # gems paid to Reserve
        ("gem_turns", np.int16, (p,)),  # gem actions
        ("passes", np.int16, (p,)),
        ("uses", np.int16, (p, NUM_USES)),  # cards taken, by U_* use
        ("owner", np.int8, (num_cards,)),  # seat that took (or was dealt) each card, -1
        ("taken_turn", np.int16, (num_cards,)),  # turn a card was taken, -1 (dealt at setup)
        ("use", np.int8, (num_cards,)),  # U_* of each owned card, -1
        ("picks", np.int8),  # solo: cards taken from the current grid
        ("pick_target", np.int8),  # solo: cards the player takes from the current grid
        ("grids", np.int16),  # solo: grids dealt
        ("automa_vp", np.int16),  # solo: the automaton's score
        ("automa_golems", np.int16),  # solo: Golem cards the automaton received
        ("automa_cards", np.int16),  # solo: cards the automaton received
        ("automa_gems", np.int16),  # solo: gems lying on the cards it received
        ("rng", np.uint64, (1,)),  # play randomness (bots)
    ]


def new_state(num_games: int, tables: GolemsTables) -> np.ndarray:
    """Allocate a batch: a structured array of ``num_games`` game records (set up by ``init_game``)."""
    return np.zeros(num_games, np.dtype(state_fields(tables.c_type.shape[0]), align=True))


def new_move() -> np.ndarray:
    """An empty move record (column -1, no tucks)."""
    m = np.zeros(MOVE_LEN, np.int16)
    m[M_COLUMN] = -1
    return m
