"""Test helper: a SHA-256 over the tables of a game's runs, to pin that a change leaves play bit-identical."""

from __future__ import annotations

import hashlib

import numpy as np

from simulate.game import Codes
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make
from simulate.runner import RunSpec, plan_games


def tables_digest(name: str, rules: dict[str, str], lineups: list[tuple[int, list[str], int]], seed: int = 7) -> str:
    """The SHA-256 of every column of the games, seats and components tables of game ``name`` under ``rules``,
    played for each (players, bots, games) of ``lineups`` with master seed ``seed``, in that order."""
    game = make(name)
    d = game.load_data(None, rules)
    h = hashlib.sha256()
    for n, bots, g in lineups:
        lineup = parse_lineup(game, bots, n)
        plan = plan_games(RunSpec(name, n, g, seed, lineup), 0, g)
        t = game.play_chunk(d, plan.lineup(n, *lineup_arrays(game, lineup)))
        for table in (t.games, t.seats, t.components):
            for k in sorted(table):
                v = table[k].codes if isinstance(table[k], Codes) else table[k]
                h.update(k.encode())
                h.update(np.ascontiguousarray(v).tobytes())
    return h.hexdigest()
