"""Invariants of the numba Century engine (``simulate.games.century.twin.century_invariants``, which the conformance
check asks after every move too), checked after every move of games played by every bot over random seeds."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.games.century import bots as B
from simulate.games.century import data as D
from simulate.games.century.engine import game_init, game_step
from simulate.games.century.play import results, trace_game
from simulate.games.century.state import new_state
from simulate.games.century.twin import century_invariants

DATA = D.load()
TB = DATA.tables
LIMIT = int(TB.params[D.P_CARAVAN_LIMIT])
BOT_NAMES = list(B.BOTS)


def check_invariants(rec, n: int) -> None:
    assert century_invariants(rec, TB, n) == []


@settings(max_examples=100, deadline=None)
@given(
    num_players=st.integers(2, 5),
    lineup=st.lists(st.sampled_from(BOT_NAMES), min_size=5, max_size=5),
    setup_seed=st.integers(0, 2**64 - 1),
    play_seed=st.integers(0, 2**64 - 1),
)
def test_invariants_hold_after_every_move(num_players, lineup, setup_seed, play_seed) -> None:
    names = lineup[:num_players]
    ids = np.array([B.BOTS[b][0] for b in names])
    params = np.stack([B.default_params(b) for b in names])
    params[ids == B.SEARCH, 0] = 10  # a few search iterations: the moves are what is checked, not their strength
    moves, final = trace_game(DATA, num_players, np.arange(num_players), ids, params, setup_seed, play_seed)
    st_ = new_state(1, TB)
    game_init(st_, DATA.kernel, 0, num_players, np.uint64(setup_seed), np.uint64(play_seed))
    check_invariants(st_[0], num_players)
    for mv in moves:
        assert game_step(st_, DATA.kernel, 0, mv) == 0
        check_invariants(st_[0], num_players)
    rec = final[0]
    assert rec["over"] in (1, 2), "every game ends, by the trigger or the round cap"
    assert rec["turn"] % num_players == 0, "the last round is always completed: equal turns"
    if rec["over"] == 1:
        assert rec["num_points"][:num_players].max() >= TB.end_trigger[num_players]
    res = results(DATA, final)
    assert (res["parts"].sum(axis=2) == res["score"]).all(), "a score is the sum of its parts"
    assert res["win"].sum() == 1.0 and (res["rank"] >= 1).all()


def test_each_broken_invariant_is_named() -> None:
    st_ = new_state(1, TB)
    game_init(st_, DATA.kernel, 0, 3, np.uint64(5), np.uint64(6))
    assert century_invariants(st_[0], TB, 3) == []
    broken = st_.copy()
    broken[0]["crystals"][0, 0] = LIMIT + 1
    broken[0]["copper_left"] -= 1
    assert century_invariants(broken[0], TB, 3) == [
        "a caravan holds more than the limit",
        "copper coins are not conserved",
    ]
