"""Golem (the card game) definition data: table parameters, rule options and kernel tables.

Everything lives in ``seeds/golem-poker/game.toml``: ``[table]`` parameters and ``[rules]``
options, the latter overridable per run. Amounts of chips are whole numbers; bet limits, stacks
and the golem penalty are given in antes and converted to chips here.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from simulate import datafiles
from simulate.datafiles import DataError
from simulate.games.golem_poker import policy
from simulate.games.golem_poker.evaluator import NUM_CARDS, eval5

GAME_NAME = "golem-poker"
FILES = ("game.toml", policy.FILE, policy.PROVENANCE_FILE)
MAX_PLAYERS = 6
HAND_SIZE = 5
MAX_DISCARDS = 3  # largest ``max_discards`` the state has room for
MAX_DEALS = 100  # largest ``max_deals``: the state logs every showdown of a pot

# Indices into ``PokerTables.params``.
P_ANTE = 0
P_STACK = 1
P_MIN_BET = 2
P_MIN_RAISE = 3
P_MAX_BET = 4  # 0 = no cap
P_MAX_RAISE = 5  # 0 = no cap
P_MAX_RAISES = 6  # 0 = no cap
P_PENALTY = 7
P_REDEAL_ANTE = 8
P_ACE_HIGH = 9
P_GOLEM_TIE_PLAYER = 10
P_SPLIT = 11
P_GOLEM_SHORT = 12
P_GOLEM_FOLDED = 13
P_HOUSE_BP = 14  # house cut in basis points (1/100 of a percent)
P_HOUSE_ROUNDING = 15
P_CREDIT = 16
P_MAX_DISCARDS = 17
P_MAX_DEALS = 18
NUM_PARAMS = 19

SHORT_PARTIAL, SHORT_DECK, SHORT_NONE = 0, 1, 2
ROUND_DOWN, ROUND_NEAREST, ROUND_UP = 0, 1, 2

# Rule options: name -> (type, allowed values or (lo, hi) for numbers, help).
RULE_OPTIONS: dict[str, tuple[type, tuple, str]] = {
    "ante": (int, (1, 1_000_000), "chips each player antes to start a game"),
    "stack_antes": (int, (1, 100_000), "chips each player brings to a game, in antes (games are independent)"),
    "min_bet_antes": (int, (1, 1000), "smallest opening bet, in antes"),
    "min_raise_antes": (int, (1, 1000), "smallest raise, in antes"),
    "max_bet_antes": (int, (0, 100_000), "largest opening bet, in antes (0 = no cap)"),
    "max_raise_antes": (int, (0, 100_000), "largest raise, in antes (0 = no cap)"),
    "max_raises": (int, (0, 1000), "raises per betting round (0 = no cap)"),
    "penalty_antes": (int, (0, 1000), "what the best hand adds to the pot when the golem wins, in antes"),
    "redeal_ante": (bool, (False, True), "a re-deal asks every player still in for a new ante"),
    "rank_one": (str, ("low", "high"), "rank 1 is the lowest rank, or above 13 like an ace (1-2-3-4-5 straight)"),
    "golem_tie": (str, ("golem", "player"), "a best hand equal to the golem does not beat it (golem), or does"),
    "player_tie": (str, ("split", "amulet"), "tied best hands split the pot, or the first from the amulet takes it"),
    "golem_short": (
        str,
        ("partial", "deck", "none"),
        "golem from fewer than five discards: a partial hand, filled from the deck, or no golem",
    ),
    "golem_folded": (bool, (False, True), "discards of players who folded after discarding count for the golem"),
    "house_cut_pct": (float, (0.0, 100.0), "percent of the final pot the house takes"),
    "house_rounding": (str, ("down", "nearest", "up"), "rounding of the house cut to whole chips"),
    "cannot_pay": (
        str,
        ("fold", "credit"),
        "an ante or penalty beyond the stack: pay all and leave the pot (fold), or go below zero (credit)",
    ),
}

_TABLE_LIMITS = {"max_discards": (0, MAX_DISCARDS), "max_deals": (1, MAX_DEALS)}


class PokerTables(NamedTuple):
    """Parameters and lookup tables in the form the kernels take (packed with ``pack_record``)."""

    params: np.ndarray  # int64 (NUM_PARAMS,), see P_*
    hand_values: np.ndarray  # int32 (V,): the distinct five-card hand values, ascending
    hand_cdf: np.ndarray  # float64 (V,): share of all five-card hands below each value plus half its own
    strength_keys: np.ndarray  # int32 (STRENGTH_SLOTS,): hash table of hand values (-1 empty), see strength_slot
    strength_values: np.ndarray  # float64 (STRENGTH_SLOTS,): hand_cdf of the value in each slot
    policy: np.ndarray  # float64 (player counts 3-6, policy.ROWS, policy.NUM_ACTIONS): the cfr bot's table


class PokerData(NamedTuple):
    """Loaded definition: kernel tables plus the rules and provenance for logs and replays."""

    tables: PokerTables
    kernel: np.ndarray  # the tables packed as a one-element structured array
    rules: dict[str, Any]
    table: dict[str, Any]
    provenance: dict[str, Any]


def load(folder: str | Path | None = None, rules: dict[str, Any] | None = None, cfr_table: bool = True) -> PokerData:
    """Load and validate a golem-poker definition folder (default: the shipped ``seeds/golem-poker``).

    ``rules`` overrides rule options of the folder's ``game.toml``. The cfr bot's table must have been trained on
    this abstraction (``policy.VERSION``); ``cfr_table=False`` leaves it out (every row ``MISSING``): the data a
    training plays, which refits it.
    """
    folder = datafiles.data_folder(folder, GAME_NAME, "golem-poker definition files")
    path = folder / "game.toml"
    conf = datafiles.read_toml(path)
    table = _table(path, conf)
    rule_values = _rules(path, conf, rules or {})
    ante = rule_values["ante"]
    params = np.zeros(NUM_PARAMS, dtype=np.int64)
    params[P_ANTE] = ante
    params[P_STACK] = rule_values["stack_antes"] * ante
    params[P_MIN_BET] = rule_values["min_bet_antes"] * ante
    params[P_MIN_RAISE] = rule_values["min_raise_antes"] * ante
    params[P_MAX_BET] = rule_values["max_bet_antes"] * ante
    params[P_MAX_RAISE] = rule_values["max_raise_antes"] * ante
    params[P_MAX_RAISES] = rule_values["max_raises"]
    params[P_PENALTY] = rule_values["penalty_antes"] * ante
    params[P_REDEAL_ANTE] = int(rule_values["redeal_ante"])
    params[P_ACE_HIGH] = int(rule_values["rank_one"] == "high")
    params[P_GOLEM_TIE_PLAYER] = int(rule_values["golem_tie"] == "player")
    params[P_SPLIT] = int(rule_values["player_tie"] == "split")
    params[P_GOLEM_SHORT] = ("partial", "deck", "none").index(rule_values["golem_short"])
    params[P_GOLEM_FOLDED] = int(rule_values["golem_folded"])
    params[P_HOUSE_BP] = round(rule_values["house_cut_pct"] * 100)
    params[P_HOUSE_ROUNDING] = ("down", "nearest", "up").index(rule_values["house_rounding"])
    params[P_CREDIT] = int(rule_values["cannot_pay"] == "credit")
    params[P_MAX_DISCARDS] = table["max_discards"]
    params[P_MAX_DEALS] = table["max_deals"]
    values, cdf = hand_distribution(bool(params[P_ACE_HIGH]))
    keys, strengths = strength_table(values, cdf)
    fit = datafiles.read_toml(folder / policy.PROVENANCE_FILE).get("fit", {})
    if cfr_table and fit.get("abstraction_version") != policy.VERSION:
        raise DataError(
            f"{folder / policy.PROVENANCE_FILE}: the cfr table was trained on abstraction version "
            f"{fit.get('abstraction_version', 1)}, the cfr bot plays version {policy.VERSION}: refit it with "
            "'golem train golem-poker' (the file's refit line)"
        )
    table_rows = policy.read_policy(folder / policy.FILE) if cfr_table else policy.empty_policy()
    tables = PokerTables(params, values, cdf, keys, strengths, table_rows)
    default = folder.resolve() == datafiles.default_dir(GAME_NAME).resolve()
    provenance = {
        "folder": f"seeds/{GAME_NAME}" if default else str(folder),
        "default": default,
        "estimates": False,
        "files": {name: datafiles.sha256(folder / name) for name in FILES},
        "cfr_policy": fit,  # how the cfr bot's table was fitted
    }
    return PokerData(tables, datafiles.pack_record(tables), rule_values, table, provenance)


def _table(path: Path, conf: dict) -> dict[str, Any]:
    table = conf.get("table", {})
    if not isinstance(table, dict):
        raise DataError(f"{path}: [table]: needs a table")
    for key in table:
        if key not in _TABLE_LIMITS:
            raise DataError(f"{path}: table.{key}: unknown table parameter (known: {', '.join(_TABLE_LIMITS)})")
    for key, (lo, hi) in _TABLE_LIMITS.items():
        value = table.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise DataError(f"{path}: table.{key}: needs an integer in {lo}..{hi}, found {value!r}")
    return dict(table)


def _rules(path: Path, conf: dict, overrides: dict[str, Any]) -> dict[str, Any]:
    out = datafiles.resolve_rules(path, conf, overrides, RULE_OPTIONS)
    if out["stack_antes"] < 1:
        raise DataError(f"{path}: rules.stack_antes: a player must afford the first ante")
    return out


STRENGTH_SLOTS = 1 << 14  # open-addressing table of the 7,462 distinct hand values (load 0.46)


@njit(cache=True, inline="always")
def strength_slot(value):
    """Home slot of a hand value in the strength hash table (Fibonacci hashing)."""
    return ((value * np.int64(2654435769)) >> 18) & (STRENGTH_SLOTS - 1)


@njit(cache=True, inline="always")
def strength(tb, value):
    """Percentile (0-1) of a five-card hand value among all five-card hands (0.5 for a non-hand)."""
    k = strength_slot(value)
    while True:
        key = tb.strength_keys[k]
        if key == value:
            return tb.strength_values[k]
        if key < 0:
            return 0.5
        k = (k + 1) & (STRENGTH_SLOTS - 1)


def strength_table(values: np.ndarray, cdf: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hash table (linear probing) from hand value to its percentile, for constant-time lookups in bots."""
    keys = np.full(STRENGTH_SLOTS, -1, np.int32)
    out = np.zeros(STRENGTH_SLOTS, np.float64)
    for v, x in zip(values.tolist(), cdf.tolist(), strict=True):
        k = int(strength_slot(np.int64(v)))
        while keys[k] != -1:
            k = (k + 1) & (STRENGTH_SLOTS - 1)
        keys[k] = v
        out[k] = x
    return keys, out


@njit(cache=True)
def _all_hand_values(ace_high):
    out = np.empty(2598960, np.int32)
    k = 0
    for a in range(NUM_CARDS):
        for b in range(a + 1, NUM_CARDS):
            for c in range(b + 1, NUM_CARDS):
                for d in range(c + 1, NUM_CARDS):
                    for e in range(d + 1, NUM_CARDS):
                        out[k] = eval5(a, b, c, d, e, ace_high)
                        k += 1
    return out


@lru_cache(maxsize=2)
def hand_distribution(ace_high: bool) -> tuple[np.ndarray, np.ndarray]:
    """Distinct five-card hand values (ascending) and their mid-rank share among all 2,598,960 hands.

    ``cdf[i]`` = (hands below ``values[i]`` + half the hands equal to it) / all hands: the
    percentile a bot reads as the strength of a made hand.
    """
    values, counts = np.unique(_all_hand_values(ace_high), return_counts=True)
    below = np.concatenate([[0], np.cumsum(counts)[:-1]])
    cdf = (below + 0.5 * counts) / counts.sum()
    values.flags.writeable = False
    cdf.flags.writeable = False
    return values.astype(np.int32), cdf.astype(np.float64)
