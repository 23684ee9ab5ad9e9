"""Regenerate the golden replays after an intended rule or bot change.

python tests/golden/regenerate.py             # every game's
python tests/golden/regenerate.py golem       # one game's (its id, as in `golem games`)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from simulate.game import Lineup
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make

HERE = Path(__file__).resolve().parent
# name -> (game, players, bots, setup seed, play seed)
GOLDEN = {
    "century-2p": ("century", 2, ["greedy", "engine"], 20261130, 7),
    "century-4p": ("century", 4, ["planner", "random", "greedy", "engine"], 99, 100),
    # games with bets, raises and golem re-deals
    "golem-poker-4p": ("golem-poker", 4, ["equity", "tight_aggressive", "bluffer", "random"], 1029, 29),
    "golem-poker-6p": (
        "golem-poker",
        6,
        ["loose_aggressive", "tight_passive", "loose_passive", "bluffer", "tight_aggressive", "threshold:discard=1"],
        1014,
        14,
    ),
    "golems-2p": ("golems", 2, ["greedy", "collector"], 20261130, 7),
    "golems-solo": ("golems", 1, ["collector"], 99, 100),
    "golem-4p": ("golem", 4, ["balanced", "greedy", "golems", "books"], 20261130, 7),
    "golem-2p": ("golem", 2, ["artifacts", "balanced"], 99, 100),
    "golem-1p": ("golem", 1, ["balanced"], 4242, 9),  # solo against the stand-in Automa
}


def replay_events(name: str) -> list[dict]:
    """The replay events of a golden game."""
    game_name, n, bots, setup_seed, play_seed = GOLDEN[name]
    game = make(game_name)
    lineup = parse_lineup(game, bots, n)
    data = game.load_data(None, {})
    one = Lineup.in_order(n, *lineup_arrays(game, lineup), setup_seed, play_seed)
    return game.replay(data, one, [e.label for e in lineup])


if __name__ == "__main__":
    games = set(sys.argv[1:])
    unknown = games - {g for g, *_ in GOLDEN.values()}
    if unknown:
        sys.exit(f"no golden replays for {', '.join(sorted(unknown))}; games: century, golem-poker, golems, golem")
    for name, (game_name, *_) in GOLDEN.items():
        if not games or game_name in games:
            (HERE / f"{name}.json").write_text(json.dumps(replay_events(name), indent=0) + "\n")
            print(f"wrote {name}.json")
