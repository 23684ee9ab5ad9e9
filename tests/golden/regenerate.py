"""Regenerate the golden replays: ``python tests/golden/regenerate.py`` (after an intended rule change)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make

HERE = Path(__file__).resolve().parent
# (game, players, bots, setup seed, play seed)
GOLDEN = {
    "century-2p": ("century", 2, ["greedy", "engine"], 20261130, 7),
    "century-4p": ("century", 4, ["planner", "random", "greedy", "engine"], 99, 100),
}


def replay_events(name: str) -> list[dict]:
    """The replay events of a golden game."""
    game_name, n, bots, setup_seed, play_seed = GOLDEN[name]
    game = make(game_name)
    lineup = parse_lineup(game, bots, n)
    ids, params = lineup_arrays(game, lineup)
    data = game.load_data(None, {})
    return game.replay(data, n, np.arange(n), ids, params, setup_seed, play_seed, [e.label for e in lineup])


if __name__ == "__main__":
    for name in GOLDEN:
        (HERE / f"{name}.json").write_text(json.dumps(replay_events(name), indent=0) + "\n")
        print(f"wrote {name}.json")
