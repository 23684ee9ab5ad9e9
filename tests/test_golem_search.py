"""Golem's ``search`` bot (``simulate/games/golem/search_bot.py``) on the shared ISMCTS.

A constructed end-game position where one option alone wins, a no-peeking test (only what the seat cannot see
changes, the decision and the tree do not), determinisations that keep every public field and each hidden pool's
cards, and the same games with one and two workers. Search seats in the engine-against-reference replays are in
``test_golem_game.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem import bots as golem_bots
from simulate.games.golem import engine, heuristics, loader, play
from simulate.games.golem.codes import PH_END, PH_MOVE
from simulate.games.golem.engine.state import new_pads, new_state
from simulate.games.golem.search_bot import (
    MAX_MOVES,
    MOVE_LEN,
    S_ITERATIONS,
    balanced_weights,
    determinise,
    new_scratch,
    search_action,
    tree_moves,
)
from simulate.rng import game_seeds
from simulate.search import new_tree

DATA = loader.load()
MASTER_SEED = 20261202
HIDDEN = ("bk_q", "ob_q", "objectives", "at_q", "au_deck", "chance", "rng")


def search_params(**over: float) -> np.ndarray:
    return golem_bots.bot_params("search", over)


def decide(st: np.ndarray, params: np.ndarray) -> tuple[int, object]:
    """The search bot's action for game 0 of ``st`` (left unchanged but for its play stream), and its tree."""
    tree = new_tree(int(params[S_ITERATIONS]) + 1, MOVE_LEN, MAX_MOVES)
    a = search_action(st, 0, DATA.kernel[0], params, tree, new_scratch(st, new_pads(1)))
    return a, tree


def options(st: np.ndarray) -> list[int]:
    scratch = new_scratch(st, new_pads(1))
    ctx = (DATA.kernel[0], scratch[1], scratch[2], scratch[3], scratch[4], balanced_weights(), 4.0)
    out = np.zeros((MAX_MOVES, MOVE_LEN), np.int16)
    return out[: tree_moves(ctx, st, out), 0].tolist()


def balanced_position(n: int, index: int, decisions: int) -> np.ndarray:
    """The first searched position (past setup, two options or more) after ``decisions`` decisions of ``balanced``."""
    setup, plays = game_seeds(MASTER_SEED, np.array([index]), np.array([index]))
    ids = np.full(n, golem_bots.BALANCED)
    prm = np.stack([golem_bots.bot_params("balanced")] * n)
    moves, _ = play.trace_game(DATA, n, np.arange(n), ids, prm, int(setup[0]), int(plays[0]))
    st = new_state(1)
    engine.init_one(st, 0, DATA.kernel, n, setup[0], plays[0])
    for k, a in enumerate(moves):
        if k >= decisions and st[0]["phase"] >= PH_MOVE and len(options(st)) >= 2:
            return st
        engine.apply_one(st, 0, DATA.kernel, int(a))
    raise AssertionError("no searched position")


@njit(cache=True)
def _playout(st, tab, a, pads, scores):
    """Apply ``a`` to game 0, play the rest by ``balanced``; the final scores into ``scores``."""
    tb = tab[0]
    r = st[0]
    engine.apply_action(r, tb, a)
    w = balanced_weights()
    while r.phase != PH_END:
        engine.apply_action(r, tb, heuristics.choose(r, tb, golem_bots.BALANCED, w, pads[0]))
    parts = np.zeros(engine.NUM_PARTS, np.int64)
    for s in range(r.n):
        engine.score_parts(r, tb, s, parts)
        scores[s] = parts.sum()


def margins(st: np.ndarray, seat: int) -> dict[int, int]:
    """Seat ``seat``'s final margin over the other seat after each option, the rest played by ``balanced``."""
    out = {}
    for a in options(st):
        copy = st.copy()
        scores = np.zeros(2, np.int64)
        _playout(copy, DATA.kernel, a, new_pads(1), scores)
        out[a] = int(scores[seat] - scores[1 - seat])
    return out


def one_winning_option() -> tuple[np.ndarray, int]:
    """The last decision with options of a 2-player ``balanced`` game whose options end the game differently, the
    other seat's VP raised so that only the best option wins (checked by playing every option out)."""
    setup, plays = game_seeds(MASTER_SEED, np.array([3]), np.array([3]))
    ids = np.full(2, golem_bots.BALANCED)
    prm = np.stack([golem_bots.bot_params("balanced")] * 2)
    moves, _ = play.trace_game(DATA, 2, np.arange(2), ids, prm, int(setup[0]), int(plays[0]))
    for cut in range(len(moves) - 1, 0, -1):
        st = new_state(1)
        engine.init_one(st, 0, DATA.kernel, 2, setup[0], plays[0])
        for a in moves[:cut]:
            engine.apply_one(st, 0, DATA.kernel, int(a))
        seat = int(engine.current_player(st[0]))
        m = margins(st, seat) if len(options(st)) >= 2 else {}
        ranked = sorted(set(m.values()), reverse=True)
        if len(ranked) >= 2 and ranked[0] - ranked[1] >= 2 and list(m.values()).count(ranked[0]) == 1:
            st[0]["vp"][1 - seat] += ranked[1] + 1  # the second best option now loses by one, the best wins
            best = max(m, key=m.get)
            after = margins(st, seat)
            assert after[best] > 0 and all(v < 0 for a, v in after.items() if a != best)
            return st, best
    raise AssertionError("no decision with a single best option")


def test_the_only_winning_option_is_found() -> None:
    st, best = one_winning_option()
    assert len(options(st)) >= 2
    a, _ = decide(st, search_params(iterations=200))
    assert a == best


def _hide_differently(st: np.ndarray) -> np.ndarray:
    """A copy of ``st`` that differs only in what the seat to move cannot see: the Book deck and the Action tile
    pile in another order, another seat's Objective swapped with one of the deck, another chance stream."""
    other = st.copy()
    r = other[0]
    seat = int(engine.current_player(r))
    size = r["bk_q"].shape[0]
    idx = [(int(r["bk_head"]) + k) % size for k in range(int(r["bk_len"]))]
    r["bk_q"][idx] = r["bk_q"][idx[::-1]]
    head, length = int(r["at_head"]), int(r["at_len"])
    r["at_q"][head : head + length] = r["at_q"][head : head + length][::-1].copy()
    o = (seat + 1) % int(r["n"])
    deck = int(r["ob_head"]) % r["ob_q"].shape[0]
    r["objectives"][o, 0], r["ob_q"][deck] = r["ob_q"][deck], r["objectives"][o, 0]
    r["chance"][0] ^= np.uint64(0x5DEECE66D)
    assert other.tobytes() != st.tobytes()
    return other


def test_decisions_do_not_depend_on_what_the_seat_cannot_see() -> None:
    params = search_params(iterations=60)
    for n, index, decisions in ((2, 1, 40), (4, 2, 90), (3, 3, 150)):
        st = balanced_position(n, index, decisions)
        other = _hide_differently(st)
        a, tree = decide(st.copy(), params)
        b, tree_b = decide(other, params)
        assert a == b
        assert np.array_equal(tree.visits, tree_b.visits) and np.array_equal(tree.value, tree_b.value)


def test_what_the_seat_sees_does_change_the_search() -> None:
    """The control of the no-peeking test: the same change to what the seat sees (its own Objectives) is noticed."""
    params = search_params(iterations=60)
    st = balanced_position(4, 2, 90)
    other = st.copy()
    seat = int(engine.current_player(other[0]))
    deck = int(other[0]["ob_head"])
    other[0]["objectives"][seat, 0], other[0]["ob_q"][deck] = other[0]["ob_q"][deck], other[0]["objectives"][seat, 0]
    _, tree = decide(st.copy(), params)
    _, tree_b = decide(other, params)
    assert not np.array_equal(tree.value, tree_b.value)


@njit(cache=True)
def _determinised(st, tab, seat, pads, out, rng):
    scratch = new_scratch(st, pads)
    ctx = (tab[0], scratch[1], scratch[2], scratch[3], scratch[4], balanced_weights(), 4.0)
    determinise(ctx, st, out, seat, rng)


def test_determinisations_keep_the_public_fields_and_each_pools_cards() -> None:
    for n, index, decisions in ((1, 4, 15), (4, 5, 120)):
        st = balanced_position(n, index, decisions)
        r = st[0]
        seat = int(engine.current_player(r))
        rng = np.array([7], np.uint64)
        seen = set()
        for _ in range(20):
            out = new_state(1)
            _determinised(st, DATA.kernel, seat, new_pads(1), out, rng)
            d = out[0]
            for name in st.dtype.names:
                if name not in HIDDEN:
                    assert np.array_equal(d[name], r[name]), name
            assert np.array_equal(d["objectives"][seat], r["objectives"][seat])

            def live(x, field, head, length):
                return sorted(x[field][(x[head] + k) % x[field].shape[0]] for k in range(x[length]))

            assert live(d, "bk_q", "bk_head", "bk_len") == live(r, "bk_q", "bk_head", "bk_len")
            assert live(d, "at_q", "at_head", "at_len") == live(r, "at_q", "at_head", "at_len")
            pool = [
                sorted(live(x, "ob_q", "ob_head", "ob_len") + [
                    int(c) for o in range(n) if o != seat for c in x["objectives"][o][: x["obj_len"][o]]
                ])
                for x in (d, r)
            ]  # fmt: skip
            assert pool[0] == pool[1]
            upcoming = int(r["round"]) + 1
            assert sorted(d["au_deck"][upcoming:]) == sorted(r["au_deck"][upcoming:])
            assert np.array_equal(d["au_deck"][:upcoming], r["au_deck"][:upcoming])
            seen.add(tuple(d["bk_q"]))
        assert len(seen) > 10  # the deck is re-dealt, not kept


def test_same_games_with_one_and_two_workers() -> None:
    names = ["search:iterations=8", "balanced"]
    ids = np.array([golem_bots.BOTS[b.split(":")[0]][0] for b in names])
    prm = np.stack([search_params(iterations=8), golem_bots.bot_params("balanced")])
    games = 4
    setup, plays = game_seeds(MASTER_SEED, np.arange(games), np.arange(games) // 2)
    seat = np.array([[g % 2, 1 - g % 2] for g in range(games)])
    serial = play.play_batch(DATA, 2, seat, ids, prm, setup, plays, check_moves=True)
    threaded = play.play_batch(DATA, 2, seat, ids, prm, setup, plays, threads=2, check_moves=True)
    assert (serial["error"] == 0).all() and (serial["phase"] == PH_END).all()
    assert serial.tobytes() == threaded.tobytes()
    moves, one = play.trace_game(DATA, 2, seat[1], ids, prm, int(setup[1]), int(plays[1]))
    assert one.tobytes() == serial[1:2].tobytes()
