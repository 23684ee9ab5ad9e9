"""Golem-poker batch state and move record layout, shared by the numba engine, bots and tests.

A batch is a numpy structured array with one record per game (one pot, from the antes until it
is won); kernels take one record ``r = state[g]`` and read fields as ``r.hand[seat, k]``. Seats
are numbered from 0 in turn order: seat 0 holds the amulet and acts first in every round.
A move is a small ``int32`` record (``M_*``).
"""

from __future__ import annotations

import numpy as np

from simulate.games.golem_poker.data import HAND_SIZE, MAX_DEALS, MAX_DISCARDS, MAX_PLAYERS
from simulate.play import ILLEGAL_MOVE

# Move kinds.
FOLD, MATCH, BET, RAISE, DISCARD = 0, 1, 2, 3, 4
MOVE_NAMES = ("fold", "match", "bet", "raise", "discard")

# Move record fields.
M_KIND = 0  # FOLD, MATCH, BET, RAISE or DISCARD
M_AMOUNT = 1  # BET: the bet in chips; RAISE: the raise in chips on top of the current bet
M_CARDS = 2  # DISCARD: bit k set = discard the card at hand position k (0..4)
MOVE_LEN = 3

# Phases (``over == RUNNING`` only).
BET1, DRAW, BET2 = 0, 1, 2
PHASE_NAMES = ("first betting round", "discard and draw", "second betting round")

# End reasons (``over``).
END_REASONS = ("running", "showdown", "last_player", "turn_cap", ILLEGAL_MOVE)
RUNNING, END_SHOWDOWN, END_LAST_PLAYER, END_TURN_CAP = 0, 1, 2, 3
END_ILLEGAL = END_REASONS.index(ILLEGAL_MOVE)

# How a seat left the pot (``fold_phase``): 0 still in at the end.
OUT_NONE, OUT_BET1, OUT_BET2, OUT_FORCED = 0, 1, 2, 3
OUT_NAMES = ("in", "first_round", "second_round", "cannot_pay")

MAX_GOLEM = MAX_PLAYERS * MAX_DISCARDS  # cards in the discard pile of one deal
NO_VALUE = -1  # hand value of "no hand" (no showdown, or no golem)


def state_fields() -> list[tuple]:
    """Record fields of one game; per-seat arrays have MAX_PLAYERS entries, seat 0 = the amulet."""
    p = MAX_PLAYERS
    return [
        ("num_players", np.int8),
        ("current", np.int8),  # seat to act
        ("phase", np.int8),  # BET1, DRAW or BET2
        ("over", np.int8),  # RUNNING or an end reason
        ("deal", np.int16),  # deals so far, 1 = the first
        ("turn", np.int32),  # decisions made
        ("rng", np.uint64, (2,)),  # [0] dealing (from the setup seed), [1] bots (from the play seed)
        ("deck", np.int8, (52,)),  # deck[:deck_pos] dealt, the rest not yet drawn (order fixed on draw)
        ("deck_pos", np.int8),
        ("hand", np.int8, (p, HAND_SIZE)),  # cards of each seat, -1 none
        ("pile", np.int8, (MAX_GOLEM,)),  # discards of this deal, in the order discarded
        ("pile_owner", np.int8, (MAX_GOLEM,)),  # seat that discarded each card of the pile
        ("pile_n", np.int8),
        ("active", np.int8, (p,)),  # 1 = still in the pot
        ("num_in", np.int8),  # players still in the pot
        ("value", np.int32, (p,)),  # value of each seat's hand this deal, NO_VALUE if not dealt in
        ("need", np.int8, (p,)),  # 1 = must still act in this round
        ("drawn", np.int8, (p,)),  # cards discarded and redrawn this deal (public), -1 before the draw
        ("aggr", np.int8, (p,)),  # this deal (public): 2 bet or raised, 1 matched a bet, 0 neither
        ("stack", np.int64, (p,)),  # chips in front of each seat
        ("bet_in", np.int64, (p,)),  # chips put in during this betting round
        ("current_bet", np.int64),  # the bet to match in this betting round
        ("raises", np.int16),  # raises in this betting round
        ("cap", np.int64),  # table stakes: the most anyone still in can have put in this round
        # what the player to act may do (set before each decision; empty ranges have lo > hi)
        ("match_ok", np.int8),  # 1 = may match (or check)
        ("bet_lo", np.int64),  # opening bet range
        ("bet_hi", np.int64),
        ("raise_lo", np.int64),  # raise range (chips on top of the current bet)
        ("raise_hi", np.int64),
        ("pot", np.int64),
        ("paid_ante", np.int64, (p,)),
        ("paid_bet", np.int64, (p,)),
        ("paid_penalty", np.int64, (p,)),
        ("won", np.int64, (p,)),  # chips received from the pot after the house cut
        ("share", np.float32, (p,)),  # share of the pot won (1/k for k splitting it)
        ("house_take", np.int64),
        # statistics for the logs
        ("fold_deal", np.int16, (p,)),  # deal in which the seat left the pot, 0 = never
        ("fold_phase", np.int8, (p,)),  # OUT_*
        ("showdowns", np.int16, (p,)),  # showdowns the seat took part in
        ("best_hands", np.int16, (p,)),  # showdowns in which it held (a share of) the best hand
        ("penalties", np.int16, (p,)),  # golem penalties paid
        ("discarded", np.int16, (p,)),  # cards discarded over all deals
        ("num_bets", np.int16, (p,)),
        ("num_raises", np.int16, (p,)),
        ("num_calls", np.int16, (p,)),  # matches of a bet (a match of nothing is a check)
        ("opening_value", np.int32, (p,)),  # value of the five cards first dealt
        ("final_value", np.int32, (p,)),  # value at the seat's last showdown, NO_VALUE if none
        ("num_showdowns", np.int16),
        ("golem_wins", np.int16),  # showdowns the golem won (the pot carried to a re-deal)
        ("last_hand", np.int32),  # best hand value at the last showdown, NO_VALUE if none
        ("last_golem", np.int32),  # golem value at the last showdown, NO_VALUE if none (or no golem)
        ("last_golem_cards", np.int8),  # cards the last golem was made from, -1 if no showdown
        # one entry per showdown (deal k's at k - 1), up to ``num_showdowns``; entries past it are 0
        ("log_beaten", np.int8, (MAX_DEALS,)),  # 1 the best hand beat the golem, 0 the golem won
        ("log_hand_cat", np.int8, (MAX_DEALS,)),  # category of the best showdown hand
        ("log_golem_cat", np.int8, (MAX_DEALS,)),  # category of the golem, -1 no golem
        ("log_golem_cards", np.int8, (MAX_DEALS,)),  # cards the golem was made from
        ("log_players", np.int8, (MAX_DEALS,)),  # players at the showdown
    ]


STATE_DTYPE = np.dtype(state_fields(), align=True)


def new_state(num_games: int) -> np.ndarray:
    """Allocate a batch of ``num_games`` game records (set up by ``engine.init_game``)."""
    return np.zeros(num_games, STATE_DTYPE)


def new_move() -> np.ndarray:
    """An empty move record."""
    return np.zeros(MOVE_LEN, np.int32)
