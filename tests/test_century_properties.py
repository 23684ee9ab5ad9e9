"""Invariants of the numba Century engine, checked after every move of games played by every bot."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.games.century import bots as B
from simulate.games.century import data as D
from simulate.games.century.engine import game_init, game_step
from simulate.games.century.play import results, trace_game
from simulate.games.century.state import PLAYED, new_state

DATA = D.load()
TB = DATA.tables
LIMIT = int(TB.params[D.P_CARAVAN_LIMIT])
BOT_NAMES = list(B.BOTS)


def check_invariants(rec, n: int) -> None:
    crystals = rec["crystals"]
    assert (crystals >= 0).all(), "crystals never negative"
    assert (crystals[:n].sum(axis=1) <= LIMIT).all(), "caravans within the limit after every turn"
    assert (crystals[n:] == 0).all()
    # every market card is in exactly one place: the deck, the row, or one player's cards
    deck = rec["m_deck"][rec["m_deck_pos"] :].tolist()
    row = [int(c) for c in rec["m_row"] if c >= 0]
    owned = [m for m in TB.market_cards.tolist() if (rec["cards"][:n, m] != 0).any()]
    assert sorted(deck + row + owned) == sorted(TB.market_cards.tolist())
    assert all((rec["cards"][:n, m] != 0).sum() <= 1 for m in TB.market_cards)
    for s in range(n):
        assert all(rec["cards"][s, c] != 0 for c in TB.start_cards), "starting cards are never lost"
    # every point card: deck, row or claimed
    p_deck = rec["p_deck"][rec["p_deck_pos"] :].tolist()
    p_row = [int(c) for c in rec["p_row"] if c >= 0]
    claimed = np.flatnonzero(rec["p_owner"] >= 0).tolist()
    assert sorted(p_deck + p_row + claimed) == list(range(len(TB.p_vp)))
    for s in range(n):
        mine = np.flatnonzero(rec["p_owner"] == s)
        assert rec["num_points"][s] == len(mine) and rec["point_vp"][s] == TB.p_vp[mine].sum()
    coins = int(TB.params[D.P_COINS_PER_PLAYER]) * n
    assert rec["copper_left"] + rec["copper"][:n].sum() == coins
    assert rec["silver_left"] + rec["silver"][:n].sum() == coins
    assert rec["copper_left"] >= 0 and rec["silver_left"] >= 0
    assert all(rec["cards"][s, m] in (0, 1, PLAYED) for s in range(n) for m in range(len(TB.m_kind)))


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
