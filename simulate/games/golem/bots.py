"""Golem bots: the table of named players (``BOTS``), their parameters and their limits.

Plain data the game, the lineup parser and the kernels' dispatch read: each bot's integer id (the kernel
dispatches on it), a one-line description and its defaulted parameters. The heuristic bots (``RANDOM`` to
``BALANCED``) play :func:`heuristics.choose` with a weight vector in ``PARAM_NAMES`` order (valued by
``valuation.value``); ``SEARCH`` plays ``search_bot``, ``APPRENTICE`` plays ``apprentice_bot``.
"""

from __future__ import annotations

import numpy as np

# SEARCH: ``search_bot``, APPRENTICE: ``apprentice_bot``, not ``choose``
RANDOM, GREEDY, GOLEMS, ARTIFACTS, BOOKS, BALANCED, SEARCH, APPRENTICE = range(8)
PARAM_NAMES = ("resource", "gold", "student", "study", "red", "yellow", "blue", "control")
MAX_BOT_PARAMS = len(PARAM_NAMES)  # 8, the weight tuple of ``choose``
_HELP = {
    "resource": "points a Clay, Coin or Knowledge is worth, scaled by the share of rounds left",
    "gold": "points a Gold placed on an Artifact is worth (scaled likewise)",
    "student": "points per section a Student has advanced (scaled likewise)",
    "study": "points per Study track step (scaled likewise)",
    "red": "points per red Menorah and per created Golem, beyond their product (scaled likewise)",
    "yellow": "points per yellow Menorah and completed Artifact, and a share of an unfinished one (scaled likewise)",
    "blue": "points per blue Menorah and per Book column, and a third of it per Book (scaled likewise)",
    "control": "points lost per Knowledge missing for the next Golem Control",
}


# lowest and highest value a parameter accepts: every weight is a non-negative number of points
LIMITS: dict[str, tuple[float, float]] = {name: (0.0, 20.0) for name in PARAM_NAMES} | {
    "iterations": (1.0, 100_000.0),
    "uct_c": (0.0, 10.0),
    "horizon": (0.0, 4000.0),
    "scale": (0.1, 100.0),
    "leaf": (0.0, 1.0),
    "temperature": (0.0, 100.0),
}
WHOLE_PARAMS = frozenset({"iterations", "horizon"})


def _params(**values: float) -> dict[str, tuple[float, str]]:
    return {k: (float(values.get(k, 0.0)), _HELP[k]) for k in PARAM_NAMES}


# name -> (id, description, {param: (default, help)})
BOTS: dict[str, tuple[int, str, dict[str, tuple[float, str]]]] = {
    "random": (RANDOM, "uniform over the legal actions", {}),
    "greedy": (
        GREEDY,
        "the action giving the most points now, plus resource and Gold value",
        _params(resource=0.3, gold=0.6),
    ),
    "golems": (
        GOLEMS,
        "pursues the red line: creates Golems and Golem Developments",
        _params(resource=0.3, gold=0.3, student=0.3, study=0.1, red=1.6, yellow=0.2, blue=0.2, control=1.0),
    ),
    "artifacts": (
        ARTIFACTS,
        "pursues the yellow line: Gold, Artifacts and Artifact Developments",
        _params(resource=0.3, gold=1.0, student=0.3, study=0.1, red=0.2, yellow=1.6, blue=0.2, control=1.0),
    ),
    "books": (
        BOOKS,
        "pursues the blue line: Books in several columns, Study Developments and the Study track",
        _params(resource=0.3, gold=0.3, student=0.3, study=0.5, red=0.2, yellow=0.2, blue=1.6, control=1.0),
    ),
    "balanced": (
        BALANCED,
        "weighs all three lines toward the final multipliers with weights tuned against the line bots "
        "(strong reference)",
        _params(resource=0.17, gold=0.3, student=3.2, study=0.01, red=2.7, yellow=0.08, blue=0.33, control=0.45),
    ),
    "search": (
        SEARCH,
        "information-set Monte Carlo tree search (simulate.search) over every decision with balanced rollouts; "
        "decks, others' Objectives and future drops re-sampled per iteration",
        {
            "iterations": (50.0, "determinised iterations per decision"),
            "uct_c": (0.7, "UCT exploration constant (values are in [0, 1])"),
            "horizon": (60.0, "decisions of balanced rollout after the tree before the position is valued"),
            "scale": (4.0, "points of valuation margin over the best other seat that make a leaf worth 0.73"),
            "leaf": (
                0.0,
                "share of an unfinished leaf's value taken from the apprentice's win shares (0: balanced's margin "
                "alone; 1: the apprentice's alone)",
            ),
        },
    ),
    "apprentice": (
        APPRENTICE,
        "the learned afterstate value (seeds/golem/apprentice.csv, fitted to search games by golem train): plays "
        "the option whose position it values most from its own view; hidden cards re-dealt first, never peeked at",
        {
            "temperature": (0.0, "softmax temperature over the moves' logits; 0 plays the best"),
            "style": (0.0, "a strategy style of seeds/golem/styles.toml (its weights biased toward a plan), by name"),
        },
    ),
}


def bot_params(name: str, overrides: dict[str, float] | None = None) -> np.ndarray:
    """The parameter vector of bot ``name`` (its ``BOTS`` order) with ``overrides`` (unknown names: ValueError)."""
    _, _, params = BOTS[name]
    out = np.zeros(MAX_BOT_PARAMS)
    names = list(params)
    for k, (default, _) in params.items():
        out[names.index(k)] = default
    for k, v in (overrides or {}).items():
        if k not in params:
            raise ValueError(f"bot {name} has no parameter {k} (has: {', '.join(params) or 'none'})")
        out[names.index(k)] = v
    return out
