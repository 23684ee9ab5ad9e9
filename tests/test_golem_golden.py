"""Golden Golem (Cranio) replays: fixed games must replay exactly as recorded.

Regenerate after an intended rule or bot change with ``python tests/test_golem_golden.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make

HERE = Path(__file__).resolve().parent / "golden"
# name -> (players, bots, setup seed, play seed)
GOLDEN = {
    "golem-4p": (4, ["balanced", "greedy", "golems", "books"], 20261130, 7),
    "golem-2p": (2, ["artifacts", "balanced"], 99, 100),
    "golem-1p": (1, ["balanced"], 4242, 9),  # solo against the stand-in Automa
}


def replay_events(name: str) -> list[dict]:
    """The replay events of a golden game."""
    n, bots, setup_seed, play_seed = GOLDEN[name]
    game = make("golem")
    lineup = parse_lineup(game, bots, n)
    ids, params = lineup_arrays(game, lineup)
    data = game.load_data(None, {})
    return game.replay(data, n, np.arange(n), ids, params, setup_seed, play_seed, [e.label for e in lineup])


@pytest.mark.parametrize("name", list(GOLDEN))
def test_replay_matches_golden(name: str) -> None:
    expected = json.loads((HERE / f"{name}.json").read_text())
    actual = json.loads(json.dumps(replay_events(name)))
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected, strict=True):
        assert a == e, f"{name}: first difference at {e.get('event')} turn {e.get('turn')}"


if __name__ == "__main__":
    for name in GOLDEN:
        (HERE / f"{name}.json").write_text(json.dumps(replay_events(name), indent=0) + "\n")
        print(f"wrote {name}.json")
