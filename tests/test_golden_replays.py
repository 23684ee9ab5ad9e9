"""Golden replays of every game: fixed games must replay exactly as recorded (see tests/golden/regenerate.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))
from regenerate import GOLDEN, HERE, replay_events  # noqa: E402


@pytest.mark.parametrize("name", list(GOLDEN))
def test_replay_matches_golden(name: str) -> None:
    expected = json.loads((HERE / f"{name}.json").read_text())
    actual = json.loads(json.dumps(replay_events(name)))
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected, strict=True):
        assert a == e, f"{name}: first difference at {e.get('event')} turn {e.get('turn')}"


def test_every_registered_game_has_a_golden_replay() -> None:
    """A shipped game is pinned by at least one golden replay (tests/golden/regenerate.py's GOLDEN)."""
    from simulate.registry import available_games

    assert set(available_games()) <= {game for game, *_ in GOLDEN.values()}
