"""Golem batch state: one numpy record per game, the numba form of ``reference.GolemReference``.

Field names follow the reference engine's attributes; its Python lists are fixed arrays here with a
length field (``*_len``) or, for the decks that cards return to, circular queues (``*_head``,
``*_len``). A batch (``new_state``) is passed to numba as one structured array.
"""

from __future__ import annotations

import numpy as np

from simulate.games.golem.codes import ACT_NAMES, MAX_STACK, NUM_ACTIONS, STAT_NAMES
from simulate.games.golem.data import MAX_CEMETERY, NUM_AUTOMA_CARDS, NUM_BOOKS, NUM_OBJECTIVES, NUM_STUDY_DEVS

P = 4  # seats
MAX_OBJECTIVES = 16  # objectives one seat can hold (3 kept + draws)
NUM_STATS = len(STAT_NAMES)
NUM_ACTS = len(ACT_NAMES)


def state_fields() -> list[tuple]:
    """Record fields of one game."""
    i16, i32 = np.int16, np.int32
    return [
        ("n", i16),
        ("phase", i16),
        ("cursor", i16),
        ("pick", i16),
        ("round", i16),
        ("step_left", i16),
        ("pass_stage", i16),
        ("last_stepped", i16),
        ("moves", i32),
        ("palace", i16, (4,)),
        ("tiles", i16, (3, 7)),
        ("section_tile", i16, (3, 11)),
        ("library", i16, (5,)),
        ("lib_len", i16),
        ("bk_q", i16, (NUM_BOOKS,)),
        ("bk_head", i16),
        ("bk_len", i16),
        ("at_q", i16, (12,)),
        ("at_head", i16),
        ("at_len", i16),
        ("at_disc", i16, (12,)),
        ("at_disc_len", i16),
        ("at_slots", i16, (5,)),
        ("ob_q", i16, (NUM_OBJECTIVES,)),
        ("ob_head", i16),
        ("ob_len", i16),
        ("order", i16, (P,)),
        ("start_order", i16, (P,)),  # round 1's turn order (setup)
        ("start_offer", i16, (P, 4)),
        ("start_len", i16, (P,)),
        ("kept_starts", i16, (P, 4)),
        ("kept_len", i16, (P,)),
        ("hands", i16, (P, 4)),
        ("hand_len", i16, (P,)),
        ("drafted", i16, (P, 4)),
        ("drafted_len", i16, (P,)),
        ("objectives", i16, (P, MAX_OBJECTIVES)),
        ("obj_len", i16, (P,)),
        ("art_offer", i16, (P, 2)),
        ("art_offer_len", i16),
        ("marbles", i16, (5,)),
        ("res", i32, (P, 3)),
        ("vp", i32, (P,)),
        ("loose_gold", i16, (P,)),
        ("student", i16, (P, 3)),
        ("golem_loc", i16, (P, 6)),
        ("golem_sec", i16, (P, 6)),
        ("standing", i16, (P, 6)),
        ("fresh", i16, (P, 6)),
        ("built", i16, (P,)),
        ("killed", i16, (P,)),
        ("track", i16, (P,)),
        ("study", i16, (P,)),
        ("gdev", i16, (P, 6)),
        ("sdev", i16, (P, NUM_STUDY_DEVS)),
        ("adev_space", i16, (P, 6)),
        ("adev_side", i16, (P, 6)),
        ("art_tile", i16, (P,)),
        ("art_side", i16, (P,)),
        ("art_gold", i16, (P, 4)),
        ("art_done", i16, (P, 4)),
        ("col_colour", i16, (P, 4)),
        ("col_books", i16, (P, 4, 5)),
        ("col_len", i16, (P, 4)),
        ("tokens", i16, (3,)),
        ("cemetery", i16, (MAX_CEMETERY,)),
        ("cemetery_count", i16, (P,)),
        ("gold_supply", i16),
        ("eyes", i16, (P, 2)),
        ("eyes_len", i16, (P,)),
        ("syn", i16, (5, 5)),
        ("marble_actions", i16, (P,)),
        ("rabbi_done", i16, (P,)),
        ("actions", i16, (P,)),
        ("pass_tile", i16, (P,)),
        ("passes", i16, (P,)),
        ("rabbi_slot", i16, (P,)),
        ("perm_queue", i16, (P,)),
        ("perm_len", i16),
        ("free_control", i16, (P,)),
        ("stats", i32, (NUM_STATS, P)),
        ("act_count", i16, (P, NUM_ACTS)),
        ("drawn", i16, (2,)),
        ("gift_seat", i16),  # the seat the rule option gift deals to (the lineup's first bot; 0 outside a run)
        ("stack", i32, (MAX_STACK, 7)),
        ("sp", i16),
        ("chance", np.uint64, (1,)),  # the engine's chance stream (marble drops, reshuffles)
        ("tmp", np.int16, (32,)),  # scratch for re-drops, hand rotation and sorting
        ("rng", np.uint64, (1,)),  # the bots' play randomness
        ("error", i16),  # 0 ok; 1 illegal bot action (game stops); 2-5 engine faults: stack, effect, payment
        ("automa", i16),  # 1 when the solo Automa plays (fields au_*, reference.py's names)
        ("au_deck", i16, (NUM_AUTOMA_CARDS,)),
        ("au_strategy", i16),
        ("au_pos", i16),
        ("au_actions", i16),
        ("au_slot", i16),
        ("au_eyes", i16, (2,)),
        ("au_eyes_len", i16),
        ("au_gauge", i16),
        ("au_next", i16),
        ("au_laps", i16),
        ("au_vp", i32, (2,)),
    ]


STATE = np.dtype(state_fields(), align=True)
PAD = np.dtype([("mask", np.int64, (NUM_ACTIONS,)), ("copy", STATE, (1,)), ("memo", np.float64, (13,))], align=True)
"""Scratch record of a game loop: the legal-action mask, the record a bot plays an option on and values a bot keeps
within a decision (``heuristics.choose``). Record fields are
array views without a reference count, so the bot and engine functions take them without the atomic increment and
decrement a plain array costs at every call."""


def new_state(num_games: int) -> np.ndarray:
    """Allocate a batch of ``num_games`` game records (set up by ``engine.init_game``)."""
    return np.zeros(num_games, STATE)


def new_pads(k: int) -> np.ndarray:
    """``k`` scratch records (``PAD``)."""
    return np.zeros(k, PAD)
