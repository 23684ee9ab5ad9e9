"""Golem rules as numba functions over the record ``r`` of one game (``state``).

A line-by-line port of the ``reference`` package (the readable twin, compared move by move in
``tests/test_golem_differential.py``): the same decisions, action integers, task stack, chance draws
and scoring. ``tb`` is the packed tables record (``GolemData.kernel[0]``). The batch loop and the
bots live in ``play.py``, ``heuristics.py`` (valuing positions with ``valuation.py`` and ``direct_values.py``) and
the other ``*_bot.py`` modules; ``bots.py`` is their table.

This package's top is the kernel's public surface (re-exported) and the one-game wrappers; the rules are in
its modules, which the bots also import from directly (public names only), each importing only modules later in
this list (the ``golem-engine-order`` contract of ``pyproject.toml``):
``setup`` (dealing a game), ``decisions`` (resolving a decision, advancing),
``effects`` (the effect table), ``rounds`` (phases, turns, Synagogue, Automa),
``golems``, ``developments``, ``resources`` (small state changes),
``legality`` (legal actions), ``scoring`` and ``stack`` (task stack, decks).
``state`` holds the record's layout. The codes (decisions, action encoding, internal steps) are in the package's
``codes`` (shared with the reference).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem.engine.decisions import apply_action
from simulate.games.golem.engine.legality import is_legal, legal_mask
from simulate.games.golem.engine.scoring import NUM_PARTS, automa_parts, objectives_met, score_parts
from simulate.games.golem.engine.setup import gift_seat, init_game
from simulate.games.golem.engine.stack import current_player, decision

__all__ = [
    "apply_action",
    "apply_one",
    "automa_parts",
    "current_player",
    "decision",
    "gift_seat",
    "init_game",
    "init_one",
    "is_legal",
    "legal_mask",
    "mask_one",
    "NUM_PARTS",
    "objectives_met",
    "score_parts",
]


# ----------------------------------------------------------------------------- one game of a batch (from Python)


def init_one(st: np.ndarray, g: int, tab: np.ndarray, n: int, setup_seed: int, play_seed: int) -> None:
    """``init_game`` on record ``g`` of batch ``st`` (``tab``: the packed tables, ``GolemData.kernel``), cleared
    first: ``init_game`` sets up a new (zeroed) record, and on a used one would build on its stacks and counts."""
    st[g : g + 1] = np.zeros(1, st.dtype)
    _init_one(st, g, tab, n, setup_seed, play_seed)


@njit(cache=True)
def _init_one(st, g, tab, n, setup_seed, play_seed):
    init_game(st[g], tab[0], n, setup_seed, play_seed)


@njit(cache=True)
def mask_one(st, g, tab, out):
    """``legal_mask`` of record ``g``."""
    return legal_mask(st[g], tab[0], out)


@njit(cache=True)
def apply_one(st, g, tab, a):
    """``apply_action`` on record ``g``."""
    apply_action(st[g], tab[0], a)
