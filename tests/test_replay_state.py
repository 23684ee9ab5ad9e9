"""Replay positions (``state``, docs/replay.md): every game's public position after every decision.

The golden games of ``tests/golden`` are replayed with ``states=True``: the events are those of the plain replay
plus ``state``, each position is plain JSON in the documented shape, the last one's scores are the result's, what
a game hides is a count, and every field is documented in docs/replay.md.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make

ROOT = Path(__file__).resolve().parent.parent
GAMES = {  # game -> (players, bots, setup seed, play seed): golden games (tests/golden/regenerate.py)
    "century": (2, ["greedy", "engine"], 20261130, 7),
    "golems": (2, ["greedy", "collector"], 20261130, 7),
    "golem-poker": (4, ["equity", "tight_aggressive", "bluffer", "random"], 1029, 29),
    "golem": (2, ["artifacts", "balanced"], 99, 100),
}


def replay(name: str, states: bool) -> list[dict]:
    n, bots, setup_seed, play_seed = GAMES[name]
    game = make(name)
    lineup = parse_lineup(game, bots, n)
    ids, params = lineup_arrays(game, lineup)
    data = game.load_data(None, {})
    labels = [e.label for e in lineup]
    return game.replay(data, n, np.arange(n), ids, params, setup_seed, play_seed, labels, states=states)


@pytest.fixture(scope="module", params=list(GAMES))
def replayed(request) -> tuple[str, list[dict], list[dict]]:
    return request.param, replay(request.param, False), replay(request.param, True)


def test_states_add_a_position_and_change_nothing_else(replayed) -> None:
    name, plain, with_states = replayed
    assert [{k: v for k, v in e.items() if k != "state"} for e in with_states] == plain
    positions = [e for e in with_states if "state" in e]
    assert {e["event"] for e in positions} >= {"setup", "move", "result"}
    assert all("state" in e for e in with_states if e["event"] in ("setup", "move", "result"))
    n = GAMES[name][0]
    for e in positions:
        state = json.loads(json.dumps(e["state"], allow_nan=False))  # plain JSON, unchanged by a round trip
        assert state == e["state"] and set(state) == {"seats", "board"}
        assert [s["seat"] for s in state["seats"]] == list(range(1, n + 1))
        assert all(isinstance(s["score"], int) for s in state["seats"])
    assert [s["score"] for s in positions[-1]["state"]["seats"]] == with_states[-1]["scores"]


def test_the_position_follows_the_game(replayed) -> None:
    """Positions differ from one decision to the next (the state is the live one, not a copy of the setup)."""
    name, _, with_states = replayed
    states = [json.dumps(e["state"], sort_keys=True) for e in with_states if "state" in e]
    assert len(set(states)) > len(states) // 3


def test_hidden_information_is_a_count(replayed) -> None:
    name, _, with_states = replayed
    hidden = {"golem": "objectives", "golems": "hand", "golem-poker": "hand"}
    if name not in hidden:
        pytest.skip(f"{name} hides nothing a seat holds")
    counts = [s[hidden[name]] for e in with_states if "state" in e for s in e["state"]["seats"]]
    assert all(isinstance(c, int) for c in counts) and max(counts) > 0


def test_golem_chance_draws_show_as_they_happen() -> None:
    """Golem: the Synagogue's marbles are dropped again at each Refresh, and the Action tiles dealt anew."""
    events = replay("golem", True)
    rounds = {}
    for e in events:
        if "state" in e and e["state"]["board"]["phase"] == "move":
            rounds.setdefault(e["state"]["board"]["round"], e["state"]["board"])
    assert sorted(rounds) == [1, 2, 3, 4]
    drops = [json.dumps(b["synagogue"], sort_keys=True) for b in rounds.values()]
    tiles = [tuple(b["action_tiles"]) for b in rounds.values()]
    assert len(set(drops)) > 1 and len(set(tiles)) == 4
    assert all(sum(sum(row.values()) for row in b["synagogue"].values()) == 10 for b in rounds.values())


def test_every_state_field_is_documented(replayed) -> None:
    name, _, with_states = replayed
    doc = (ROOT / "docs" / "replay.md").read_text()
    section = doc.split(f"### {name}", 1)[1].split("\n### ", 1)[0]
    documented = set(re.findall(r"`([a-z_]+)`", section)) | {"seat", "score"}
    keys = {
        k for e in with_states if "state" in e for part in (e["state"]["board"], *e["state"]["seats"]) for k in part
    }
    assert keys <= documented, sorted(keys - documented)
