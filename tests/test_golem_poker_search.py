"""Golem-poker's ``search`` bot (the shared ISMCTS of ``simulate/search.py``).

A determinisation deals exactly the cards the seat has not seen and keeps the deck consistent; the
bot stands pat on an unbeatable hand and never folds it to a bet; a decision does not change when
only what the seat cannot see changes (other hands, others' discards, the deck's order and stream);
its tree moves are legal in the engine. The bot's games replayed through the reference engine, and
with one and two workers, are in ``test_golem_poker_differential.py``.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.games.golem_poker import bots as B
from simulate.games.golem_poker import data as D
from simulate.games.golem_poker.engine import game_init, game_step
from simulate.games.golem_poker.evaluator import eval5
from simulate.games.golem_poker.play import trace_game
from simulate.games.golem_poker.reference import make_record
from simulate.games.golem_poker.search_bot import (
    SEARCH_MOVES,
    _determinise,
    _moves,
    engine_move,
    new_scratch,
    search_action,
)
from simulate.games.golem_poker.state import BET, DISCARD, DRAW, END_ILLEGAL, FOLD, MATCH, MOVE_LEN, RAISE, new_state
from simulate.rng import game_seeds
from simulate.search import new_tree

DATA = D.load()
MASTER_SEED = 20261203
TOP_FLUSH = (32, 36, 40, 44, 48)  # 9 to 13 of one suit: no hand, and no golem, beats it (rank one low)


def search_params(**over: float) -> np.ndarray:
    params = B.default_params("search")
    for name, value in over.items():
        params[list(B.BOTS["search"][2]).index(name)] = value
    return params


def decide(st: np.ndarray, params: np.ndarray, g: int = 0) -> np.ndarray:
    """The search bot's move in game ``g`` (the game record is left as it was)."""
    saved = st.copy()
    tree = new_tree(int(params[0]) + 1, MOVE_LEN, SEARCH_MOVES)
    out = np.zeros(MOVE_LEN, np.int32)
    search_action(st, g, DATA.kernel[0], params, tree, new_scratch(st), out)
    st[:] = saved
    return out


def position(num_players: int, moves: int, index: int) -> np.ndarray:
    """A game after ``moves`` moves of threshold bots (fewer if it ends first: then after its last move but one)."""
    ids = np.full(num_players, B.THRESHOLD)
    params = np.stack([B.default_params("threshold")] * num_players)
    setup, play = game_seeds(MASTER_SEED, np.array([index]), np.array([index]))
    trace, _ = trace_game(DATA, num_players, np.arange(num_players), ids, params, setup[0], play[0])
    st = new_state(1)
    game_init(st, DATA.kernel, 0, num_players, setup[0], play[0])
    for mv in trace[: min(moves, len(trace) - 1)]:
        assert game_step(st, DATA.kernel, 0, mv) == 0
    return st


def give(st: np.ndarray, seat: int, cards: tuple[int, ...]) -> None:
    """Put ``cards`` in ``seat``'s hand, swapping each with wherever it was (a hand, the pile or the deck)."""
    r = st[0]
    for k, c in enumerate(cards):
        old = int(r["hand"][seat, k])
        if old == c:
            continue
        for s in range(int(r["num_players"])):
            r["hand"][s][r["hand"][s] == c] = old
        r["pile"][: r["pile_n"]][r["pile"][: r["pile_n"]] == c] = old
        deck = r["deck"]
        i, j = int(np.flatnonzero(deck == c)[0]), int(np.flatnonzero(deck == old)[0])
        deck[i], deck[j] = old, c
        r["hand"][seat, k] = c
    for s in range(int(r["num_players"])):
        h = r["hand"][s]
        if h[0] >= 0:
            r["value"][s] = eval5(*(int(x) for x in h), False)


def context(st: np.ndarray, params: np.ndarray, scratch: tuple) -> tuple:
    """The plug-in functions' ``ctx`` (``search_bot._context``) for the seat to act in ``st[0]``."""
    _, mv, _, unseen, memo, rollout = scratch
    return (DATA.kernel[0], mv, unseen, memo, rollout, params[4], params[5], params[3], int(st[0]["current"]))


def determinise(st: np.ndarray, seed: int) -> np.ndarray:
    sim = np.empty_like(st)
    ctx = context(st, search_params(), new_scratch(st))
    _determinise(ctx, st, sim, int(st[0]["current"]), np.array([seed], np.uint64))
    return sim


@settings(max_examples=40, deadline=None)
@given(moves=st.integers(0, 14), index=st.integers(0, 10_000), seed=st.integers(0, 2**63), players=st.integers(3, 6))
def test_a_determinisation_deals_exactly_the_unseen_cards(moves: int, index: int, seed: int, players: int) -> None:
    st0 = position(players, moves, index)
    sim = determinise(st0, seed)
    a, b = st0[0], sim[0]
    seat = int(a["current"])
    assert np.array_equal(a["hand"][seat], b["hand"][seat])
    mine = a["pile_owner"][: a["pile_n"]] == seat
    assert np.array_equal(a["pile"][: a["pile_n"]][mine], b["pile"][: b["pile_n"]][mine])
    assert sorted(b["deck"].tolist()) == list(range(52))
    dealt = [c for h in b["hand"][:players] for c in h if c >= 0] + b["pile"][: b["pile_n"]].tolist()
    assert sorted(dealt) == sorted(b["deck"][: b["deck_pos"]].tolist())
    assert b["deck_pos"] == a["deck_pos"]
    for s in range(players):
        if b["hand"][s, 0] >= 0:
            assert b["value"][s] == eval5(*(int(x) for x in b["hand"][s]), False)
    public = [n for n in a.dtype.names if n not in ("hand", "value", "pile", "deck", "rng", "opening_value")]
    for name in public:
        assert np.array_equal(a[name], b[name]), name


def test_an_unbeatable_hand_stands_pat_and_is_never_folded() -> None:
    for index in range(4):
        st0 = position(4, 0, index)
        for _ in range(4):  # everybody checks: the draw, seat 0 first
            assert game_step(st0, DATA.kernel, 0, make_record(MATCH)) == 0
        assert st0[0]["phase"] == DRAW and st0[0]["current"] == 0
        give(st0, 0, TOP_FLUSH)
        mv = decide(st0, search_params())
        assert mv[0] == DISCARD and mv[2] == 0, mv  # any discard breaks the hand
        st0 = position(4, 0, index)
        assert game_step(st0, DATA.kernel, 0, make_record(BET, 40)) == 0
        give(st0, 1, TOP_FLUSH)
        mv = decide(st0, search_params())
        assert mv[0] in (MATCH, RAISE), mv


@pytest.mark.parametrize("moves", [0, 5, 9])
def test_decisions_do_not_depend_on_what_the_seat_cannot_see(moves: int) -> None:
    params = search_params(iterations=200)
    checked = 0
    for index in range(8):
        st0 = position(4, moves, index)
        seat = int(st0[0]["current"])
        first = decide(st0, params)
        other = determinise(st0, 1000 + index)  # other hands, discards and deck order, the same public state
        other[0]["rng"][0] += 12345
        other[0]["rng"][1] = st0[0]["rng"][1]  # the bot's own stream (what seeds its search) stays
        other[0]["hand"][seat] = st0[0]["hand"][seat]
        assert not np.array_equal(other[0]["hand"], st0[0]["hand"])
        assert np.array_equal(decide(other, params), first), (index, moves)
        checked += 1
    assert checked == 8


def test_tree_moves_are_legal_engine_moves() -> None:
    params = search_params()
    scratch = new_scratch(new_state(1))
    buf = np.zeros((SEARCH_MOVES, MOVE_LEN), np.int16)
    kinds = set()
    for index in range(20):
        for moves in (0, 3, 6, 10):
            st0 = position(5, moves, index)
            seat = int(st0[0]["current"])
            n = _moves(context(st0, params, scratch), st0, buf)
            keys = set()
            for k in range(n):
                mv = np.zeros(MOVE_LEN, np.int32)
                engine_move(st0[0], DATA.kernel[0], buf[k], mv)
                test = st0.copy()
                assert game_step(test, DATA.kernel, 0, mv) == 0, (index, moves, mv)
                keys.add(tuple(mv))
                kinds.add(int(mv[0]))
            assert len(keys) == n  # no move twice
            facing = st0[0]["current_bet"] > st0[0]["bet_in"][seat]
            assert any(m[0] == FOLD for m in keys) == bool(facing and st0[0]["phase"] != DRAW)
            if st0[0]["phase"] == DRAW:
                assert n == 16  # every discard of up to two cards
    assert {FOLD, MATCH, BET, DISCARD} <= kinds


def test_the_search_bot_bets_raises_folds_and_draws() -> None:
    """Over some games the bot uses every kind of decision the game has."""
    ids = np.array([B.SEARCH, B.EQUITY, B.THRESHOLD, B.EQUITY])
    params = np.stack(
        [search_params(iterations=100)] + [B.default_params(n) for n in ("equity", "threshold", "equity")]
    )
    setup, play = game_seeds(MASTER_SEED, np.arange(60), np.arange(60))
    kinds: set[int] = set()
    drew = 0
    for k in range(60):
        seat = k % 4
        seat_bot = np.roll(np.arange(4), seat)
        moves, final = trace_game(DATA, 4, seat_bot, ids, params, setup[k], play[k])
        st0 = new_state(1)
        game_init(st0, DATA.kernel, 0, 4, setup[k], play[k])
        for mv in moves:
            if seat_bot[st0[0]["current"]] == 0:
                kinds.add(int(mv[0]))
                drew += int(mv[0] == DISCARD and mv[2] != 0)
            assert game_step(st0, DATA.kernel, 0, mv) == 0
        assert final["over"][0] != END_ILLEGAL
    assert {FOLD, MATCH, BET, RAISE, DISCARD} <= kinds and drew > 0
