"""The shared ISMCTS (``simulate/search.py``) through Century's ``search`` bot.

Constructed positions where one move wins at once, a no-peeking test (only what the seat cannot
see changes, the decision does not), the tree's bookkeeping, the bot's moves checked by the
engine, and the same games with one and two workers.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulate.games.century import bots as B
from simulate.games.century import data as D
from simulate.games.century.engine import game_init, game_legal_moves, game_step, legal_moves
from simulate.games.century.play import play_batch, results, trace_game
from simulate.games.century.search_bot import new_scratch, search_action, tree_moves
from simulate.games.century.state import (
    ACQUIRE,
    CLAIM,
    M_ARG,
    M_KIND,
    M_PAY,
    MAX_MOVES,
    MOVE_LEN,
    RUNNING,
    new_move,
    new_state,
)
from simulate.registry import available_games, make
from simulate.rng import game_seeds
from simulate.search import SEARCH_PARAMS, lead_chances, new_tree

DATA = D.load()
TB = DATA.tables
MASTER_SEED = 20261201


def search_params(**over: float) -> np.ndarray:
    params = B.default_params("search")
    names = list(B.BOTS["search"][2])
    for key, value in over.items():
        params[names.index(key)] = value
    return params


def decide(st: np.ndarray, params: np.ndarray) -> tuple[np.ndarray, object]:
    """The search bot's move for game 0 of ``st`` (left unchanged but for its play stream), and the tree."""
    tree = new_tree(int(params[0]) + 1, MOVE_LEN, MAX_MOVES)
    out = new_move()
    search_action(st, 0, DATA.kernel[0], params, tree, new_scratch(st), out)
    return out, tree


def greedy_position(num_players: int, turns: int, index: int) -> np.ndarray:
    """A position after ``turns`` turns of greedy play (one game record)."""
    setup, play = game_seeds(MASTER_SEED, np.array([index]), np.array([index]))
    ids = np.array([B.GREEDY] * num_players)
    params = np.stack([B.default_params("greedy")] * num_players)
    moves, _ = trace_game(DATA, num_players, np.arange(num_players), ids, params, setup[0], play[0], turns)
    st = new_state(1, TB)
    game_init(st, DATA.kernel, 0, num_players, setup[0], play[0])
    for mv in moves:
        assert game_step(st, DATA.kernel, 0, mv) == 0
    return st


def one_winning_claim() -> tuple[np.ndarray, int]:
    """Seat 1 moves last in the final round of a 2-player game; only claiming one card (row position 3) wins.

    Seat 0 leads by that card's VP minus one, more than the caravan's ten crystals could add.
    """
    st = greedy_position(2, 0, 1)
    r = st[0]
    vp = TB.p_vp.astype(int)
    cost = TB.p_cost.astype(int)
    winner = int(np.flatnonzero(vp >= 14)[0])
    # the other row cards: none payable from the winner's cost
    others = [p for p in range(len(vp)) if p != winner and not (cost[p] <= cost[winner]).all()][:4]
    row = others[:3] + [winner] + others[3:]
    r["p_row"][:5] = row
    r["current"] = 1
    r["turn"] = 41
    r["triggered"] = 1
    r["crystals"][1] = cost[winner]
    r["point_vp"][0] = 30 + vp[winner] - 1
    r["point_vp"][1] = 30
    return st, 3


def winning_moves(st: np.ndarray) -> list[tuple[int, int]]:
    """(kind, arg) of every legal move after which seat 1 wins (the game ends with the move)."""
    moves = np.zeros((MAX_MOVES, MOVE_LEN), np.int16)
    n = game_legal_moves(st, DATA.kernel, 0, moves)
    wins = []
    for k in range(n):
        trial = st.copy()
        mv = moves[k].copy()
        status = game_step(trial, DATA.kernel, 0, mv)
        if status == 2:  # over the caravan limit without a claim: ten crystals at most, never enough
            assert mv[M_KIND] != CLAIM
            continue
        assert status == 0 and trial[0]["over"] != RUNNING
        if results(DATA, trial)["winner"][0] == 1:
            wins.append((int(mv[M_KIND]), int(mv[M_ARG])))
    return wins


def test_the_only_winning_move_is_found() -> None:
    st, pos = one_winning_claim()
    assert winning_moves(st) == [(CLAIM, pos)], "the constructed position has one winning move"
    for seed in range(5):
        st[0]["rng"][0] = seed
        mv, _ = decide(st, search_params(iterations=60))
        assert (mv[M_KIND], mv[M_ARG]) == (CLAIM, pos)


def hidden_reordered(st: np.ndarray, shuffles: np.random.Generator) -> np.ndarray:
    """A copy of the one-record batch ``st`` with the unseen cards of both decks in another order."""
    r = st[0]
    other = st.copy()
    o = other[0]
    nk, npt = TB.market_cards.shape[0], TB.p_vp.shape[0]  # the decks, not the empty slots past them
    o["m_deck"][r["m_deck_pos"] : nk] = shuffles.permutation(r["m_deck"][r["m_deck_pos"] : nk])
    o["p_deck"][r["p_deck_pos"] : npt] = shuffles.permutation(r["p_deck"][r["p_deck_pos"] : npt])
    assert other.tobytes() != st.tobytes(), "the hidden decks were re-ordered"
    return other


def test_decisions_do_not_depend_on_what_the_seat_cannot_see() -> None:
    shuffles = np.random.default_rng(7)
    differ = 0
    for index in range(6):
        st = greedy_position(3, 6 + 3 * index, index)
        other = hidden_reordered(st, shuffles)
        a, _ = decide(st, search_params(iterations=150))
        b, _ = decide(other, search_params(iterations=150))
        assert (a == b).all()
        differ += int((st["rng"] != other["rng"]).any())
    assert differ == 0, "the search drew the same numbers from both games' play streams"


def test_tree_counts_add_up() -> None:
    st = greedy_position(2, 8, 3)
    iterations = 300
    _, tree = decide(st, search_params(iterations=iterations))
    assert tree.visits[0] == iterations
    children = []
    c = tree.first_child[0]
    while c >= 0:
        children.append(c)
        c = tree.next_sibling[c]
    assert sum(tree.visits[c] for c in children) == iterations
    used = int((tree.visits > 0).sum())
    assert used <= iterations + 1
    live = tree.visits[:used] > 0
    assert (tree.avail[1:used][live[1:]] >= tree.visits[1:used][live[1:]]).all(), "a move is tried only when legal"
    assert (tree.value[1:used] <= tree.visits[1:used] + 1e-9).all() and (tree.value >= 0).all()


def test_tree_moves_are_legal_with_one_payment_per_acquisition() -> None:
    for index in range(10):
        st = greedy_position(2 + index % 4, 2 * index, 100 + index)
        out = np.zeros((MAX_MOVES, MOVE_LEN), np.int16)
        full = np.zeros((MAX_MOVES, MOVE_LEN), np.int16)
        n = tree_moves((DATA.kernel[0],), st[0:1], out)
        m = legal_moves(st[0], DATA.kernel[0], full)
        legal = {tuple(row) for row in full[:m]}
        assert all(tuple(row) in legal for row in out[:n]), "every tree move is a canonical legal move"
        acquires = [int(row[M_ARG]) for row in out[:n] if row[M_KIND] == ACQUIRE]
        assert acquires == sorted(set(int(row[M_ARG]) for row in full[:m] if row[M_KIND] == ACQUIRE))
        others = {tuple(row) for row in full[:m] if row[M_KIND] != ACQUIRE}
        assert others == {tuple(row) for row in out[:n] if row[M_KIND] != ACQUIRE}
        assert all((row[M_PAY : M_PAY + row[M_ARG]] >= 0).all() for row in out[:n] if row[M_KIND] == ACQUIRE)


@pytest.mark.parametrize("num_players", [2, 3])
def test_same_games_with_one_and_two_workers(num_players: int) -> None:
    games = 6
    names = ["search"] + ["planner"] * (num_players - 1)
    ids = np.array([B.BOTS[n][0] for n in names])
    params = np.stack([search_params(iterations=40)] + [B.default_params("planner")] * (num_players - 1))
    setup, play = game_seeds(MASTER_SEED, np.arange(games), np.arange(games))
    seat_bot = (np.arange(num_players)[None, :] + np.arange(games)[:, None]) % num_players
    one, _, _, _ = play_batch(DATA, num_players, seat_bot, ids, params, setup, play, threads=1)
    two, _, _, _ = play_batch(DATA, num_players, seat_bot, ids, params, setup, play, threads=2)
    assert one.tobytes() == two.tobytes()
    assert (one["over"] != 3).all(), "no search move was illegal"


@pytest.mark.parametrize("name", sorted(available_games()))
def test_search_bots_lead_with_their_budget(name: str) -> None:
    """``simulate.search.decide_at`` and ``rollouts_at`` read a search bot's budget from its first three parameters:
    its iterations, exploration constant and rollout length (Golem's ``horizon``), in that order."""
    bots = make(name).info.bots
    if "search" not in bots:
        pytest.skip(f"{name} has no search bot")
    first = list(bots["search"].params)[:3]
    assert first[:2] == list(SEARCH_PARAMS[:2])
    assert first[2] in (SEARCH_PARAMS[2], "horizon")


@pytest.mark.parametrize("name", sorted(available_games()))
def test_every_search_bot_has_a_bench(name: str) -> None:
    """``golem bench`` times every game's search (``GameShell.search_rates`` over the game's ``search_bench``): its
    bench bot is one of the game's bots."""
    game = make(name)
    if "search" not in game.info.bots:
        pytest.skip(f"{name} has no search bot")
    assert game.search_bench is not None and game.search_bench.bot in game.info.bots


def test_bench_positions_stand_where_declared() -> None:
    """Century's bench position g is greedy game g after 7 x (g % 12) turns (none in game 0), in the kernel's record;
    the search's rates come from searching them."""
    game = make("century")
    st = game.bench_positions(DATA, game.search_bench, 3)
    assert list(st["turn"]) == [0, 7, 14]
    assert (st["over"] == 0).all() and len(set(st["rng"][:, 0].tolist())) == 3
    rates = game.search_rates(DATA, search_params(iterations=8), 3, repeats=1)
    assert rates["decisions"] == 3 and rates["iterations_per_cpu_s"] > 0


def test_lead_chances_are_logistic_in_the_lead_over_the_best_rival() -> None:
    """A leaf's chance of each seat: the logistic of its value less the best other seat's, over the scale."""
    out = np.zeros(4)
    lead_chances(np.array([1.0, 3.0, 2.0, 9.0]), 3, 2.0, out)
    expected = 1.0 / (1.0 + np.exp(-np.array([1.0 - 3.0, 3.0 - 2.0, 2.0 - 3.0]) / 2.0))
    assert out[:3].tolist() == pytest.approx(expected.tolist(), abs=1e-15) and out[3] == 0.0
