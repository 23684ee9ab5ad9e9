"""Golem bots: the table of named players (``BOTS``), their parameters and their limits.

Plain data the game, the lineup parser and the kernels' dispatch read: each bot's integer id (the kernel
dispatches on it), a one-line description and its defaulted parameters. The heuristic bots (``RANDOM`` to
``BALANCED``) play :func:`heuristics.choose` with a weight vector in ``PARAM_NAMES`` order (valued by
``valuation.value``); ``SEARCH`` plays ``search_bot``, ``APPRENTICE`` plays ``apprentice_bot``.
"""

from __future__ import annotations

import numpy as np

from simulate import datafiles

# the bots' kernels by id (``BOTS``); SEARCH: ``search_bot``, APPRENTICE: ``apprentice_bot``, not ``choose``
KERNELS = ("random", "greedy", "golems", "artifacts", "books", "balanced", "search", "apprentice")
RANDOM, GREEDY, GOLEMS, ARTIFACTS, BOOKS, BALANCED, SEARCH, APPRENTICE = range(len(KERNELS))
PARAM_NAMES = ("resource", "gold", "student", "study", "red", "yellow", "blue", "control")
MAX_BOT_PARAMS = len(PARAM_NAMES)  # 8, the weight tuple of ``choose``


# name -> (id, description, {param: (default, help)}), the parameters' (lowest, highest) and those that count
# something: seeds/golem/bots.toml
BOTS, LIMITS, WHOLE_PARAMS = datafiles.read_bots("golem", KERNELS)


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
