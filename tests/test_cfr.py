"""The MCCFR core (``simulate.cfr``) on Kuhn poker, a game with a known equilibrium.

Kuhn poker (Kuhn 1950): three cards J < Q < K, one to each of two players, antes of 1; player 1 checks or bets 1,
player 2 checks or bets after a check and folds or calls after a bet, player 1 folds or calls a bet after its
check. Its equilibria give player 1 the value -1/18 (Kuhn 1950; OpenSpiel's ``cfr_test`` checks the same figure).
Exact values and best responses come from enumerating the 6 deals and every pure strategy (64 per player).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from numba import njit

from simulate import cfr

PASS, BET = 0, 1
# information-set row: card * 4 + history (0 none, 1 "p", 2 "b", 3 "pb")
ROWS = 12
PLAYER1_ROWS = [c * 4 + h for c in range(3) for h in (0, 3)]
PLAYER2_ROWS = [c * 4 + h for c in range(3) for h in (1, 2)]
KUHN = np.dtype([("cards", np.int8, (2,)), ("hist", np.int8, (3,)), ("n", np.int8)])
TB = np.zeros(1)
SEED = 46


@njit
def _deal(st, tb, num_players):
    a = np.random.randint(3)
    b = np.random.randint(2)
    st[0].cards[0] = a
    st[0].cards[1] = b + (b >= a)
    st[0].n = 0


@njit
def _terminal(r):
    if r.n < 2:
        return False
    h0, h1 = r.hist[0], r.hist[1]
    return not (h0 == PASS and h1 == BET and r.n == 2)


@njit
def _to_act(st, d, tb):
    r = st[d]
    return -1 if _terminal(r) else r.n % 2


@njit
def _row(st, d, tb):
    r = st[d]
    h = 0
    if r.n == 1:
        h = 1 if r.hist[0] == PASS else 2
    elif r.n == 2:
        h = 3
    return r.cards[r.n % 2] * 4 + h


@njit
def _legal(st, d, tb, mask):
    mask[0] = True
    mask[1] = True


@njit
def _step(st, d, tb, a):
    st[d + 1] = st[d]
    r = st[d + 1]
    r.hist[r.n] = a
    r.n += 1


@njit
def _utility(st, d, tb, p):
    r = st[d]
    h = r.hist
    high = 0 if r.cards[0] > r.cards[1] else 1
    if r.n == 2 and h[0] == PASS and h[1] == PASS:
        win, stake = high, 1
    elif r.n == 2 and h[0] == BET and h[1] == PASS:
        win, stake = 0, 1
    elif r.n == 3 and h[2] == PASS:
        win, stake = 1, 1
    else:
        win, stake = high, 2
    return stake if win == p else -stake


@njit
def _explore(st, d, tb):
    return True


NO_RIVALS = np.zeros((0, 1, 2))


def _train(iterations: int, seed: int = SEED) -> np.ndarray:
    regret = np.zeros((ROWS, 2))
    total = np.zeros((ROWS, 2))
    st = np.zeros(4, KUHN)
    cfr.iterate(
        st,
        TB,
        2,
        iterations,
        seed,
        regret,
        total,
        total,
        np.ones(2, np.int8),
        NO_RIVALS,
        0.0,
        _deal,
        _to_act,
        _row,
        _legal,
        _step,
        _utility,
        _explore,
        _legal,
    )
    return total / total.sum(axis=1, keepdims=True)


def _walk(st: np.ndarray, d: int, prob: float, policy: np.ndarray) -> float:
    if _to_act(st, d, TB) < 0:
        return prob * _utility(st, d, TB, 0)
    sigma = policy[_row(st, d, TB)]
    acc = 0.0
    for a in (PASS, BET):
        _step(st, d, TB, a)
        acc += _walk(st, d + 1, prob * sigma[a], policy)
    return acc


def _value(policy: np.ndarray) -> float:
    """Exact expected payoff of player 1 when both play ``policy`` (ROWS, 2)."""
    out = 0.0
    for c0, c1 in itertools.permutations(range(3), 2):
        st = np.zeros(4, KUHN)
        st[0]["cards"] = (c0, c1)
        out += _walk(st, 0, 1.0, policy) / 6
    return out


def _pure(rows: list[int], choice: tuple[int, ...], policy: np.ndarray) -> np.ndarray:
    out = policy.copy()
    for r, a in zip(rows, choice, strict=True):
        out[r] = (1.0, 0.0) if a == PASS else (0.0, 1.0)
    return out


def _best_responses(policy: np.ndarray) -> tuple[float, float]:
    """Player 1's best-response value against ``policy``'s player 2, and player 2's against its player 1."""
    pures = list(itertools.product((PASS, BET), repeat=6))
    best1 = max(_value(_pure(PLAYER1_ROWS, c, policy)) for c in pures)
    best2 = max(-_value(_pure(PLAYER2_ROWS, c, policy)) for c in pures)
    return best1, best2


def exploitability(policy: np.ndarray) -> float:
    """Mean best-response gain against ``policy`` (0 at an equilibrium), OpenSpiel's ``exploitability``."""
    best1, best2 = _best_responses(policy)
    return (best1 + best2) / 2


def test_kuhn_converges_to_the_equilibrium() -> None:
    policy = _train(100_000)
    assert _value(policy) == pytest.approx(-1 / 18, abs=0.005)
    assert exploitability(policy) < 0.01
    # the equilibrium's fixed parts (Kuhn 1950): player 2 always calls with the king, never with the jack
    assert policy[2 * 4 + 2, BET] > 0.98
    assert policy[0 * 4 + 2, BET] < 0.02


def test_exploitability_falls_with_iterations() -> None:
    assert exploitability(_train(20_000)) < exploitability(_train(500)) / 2


def test_untrained_uniform_is_exploitable() -> None:
    # the planted answer: a uniform player gives a best response a large, known-positive gain
    assert exploitability(np.full((ROWS, 2), 0.5)) > 0.2


def test_learner_against_fixed_player_finds_the_best_response() -> None:
    """One learning player against a fixed strategy: its average strategy gains what the exact best response does."""
    always_bet = np.tile([0.0, 1.0], (ROWS, 1))
    regret = np.zeros((ROWS, 2))
    total = np.zeros((ROWS, 2))
    st = np.zeros(4, KUHN)
    learn = np.array([0, 1], np.int8)
    fns = (_deal, _to_act, _row, _legal, _step, _utility)
    cfr.iterate(st, TB, 2, 50_000, SEED, regret, total, always_bet, learn, NO_RIVALS, 0.0, *fns, _explore, _legal)
    response = always_bet.copy()
    assert total[PLAYER1_ROWS].sum() == 0.0  # the fixed player learns nothing
    reached = total.sum(axis=1) > 0  # player 2's rows after a check are never reached against a bettor
    assert set(np.flatnonzero(reached)) == {c * 4 + 2 for c in range(3)}
    response[reached] = total[reached] / total[reached].sum(axis=1, keepdims=True)
    exact = _best_responses(always_bet)[1]
    assert -_value(response) == pytest.approx(exact, abs=0.01)
    # the sampled play of the two tables agrees with the exact value
    pay = cfr.play(st, TB, 2, 40_000, SEED, np.stack([always_bet, response]), np.array([0, 1]), *fns)
    assert pay[:, 1].mean() == pytest.approx(exact, abs=0.03)
    assert np.allclose(pay.sum(axis=1), 0.0)


def test_learners_meeting_a_rival_every_time_learn_its_best_response() -> None:
    """Both players learn, but with ``rival_share`` 1 every traversal is played against the always-bet rival: each
    traverser's average strategy adds up at its own nodes, and the second player's, facing a bet, is the exact best
    response to always betting (fold J, call Q and K) and gains what that response does; its rows after a check are
    never met."""
    regret = np.zeros((ROWS, 2))
    total = np.zeros((ROWS, 2))
    st = np.zeros(4, KUHN)
    fns = (_deal, _to_act, _row, _legal, _step, _utility)
    always_bet = np.tile([0.0, 1.0], (ROWS, 1))
    cfr.iterate(
        st,
        TB,
        2,
        30_000,
        SEED,
        regret,
        total,
        total,
        np.ones(2, np.int8),
        always_bet[None, :1],
        1.0,
        *fns,
        _explore,
        _legal,
    )
    facing_bet = [c * 4 + 2 for c in range(3)]  # player 2 after player 1's bet, cards J, Q, K
    call = total[facing_bet, 1] / total[facing_bet].sum(axis=1)
    assert call[0] < 0.05 and call[1] > 0.95 and call[2] > 0.95
    checked = [c * 4 + 1 for c in range(3)]  # player 2 after a check: never met, the rival always bets
    assert not total[checked].any()
    assert total[PLAYER1_ROWS].sum() > 0
    response = always_bet.copy()
    response[facing_bet] = total[facing_bet] / total[facing_bet].sum(axis=1, keepdims=True)
    assert -_value(response) == pytest.approx(_best_responses(always_bet)[1], abs=0.01)


def test_no_rival_share_is_plain_self_play() -> None:
    regret = np.zeros((ROWS, 2))
    total = np.zeros((ROWS, 2))
    st = np.zeros(4, KUHN)
    fns = (_deal, _to_act, _row, _legal, _step, _utility)
    rivals = np.array([[[0.0, 1.0]]])
    cfr.iterate(st, TB, 2, 2_000, SEED, regret, total, total, np.ones(2, np.int8), rivals, 0.0, *fns, _explore, _legal)
    assert np.allclose(total / total.sum(axis=1, keepdims=True), _train(2_000))


@njit
def _only_bet(st, d, tb, mask):
    mask[0] = False
    mask[1] = True


def test_a_rival_plays_within_its_own_legal_actions() -> None:
    """A rival of even weights whose legal actions (``rival_legal``) are only the bet always bets: the second player
    then only meets a bet, never a check; with the learners' legal actions the same rival also checks, and the rows
    after a check are met. Facing a bet of any card, either way, it folds the jack and calls with the queen and king."""
    fns = (_deal, _to_act, _row, _legal, _step, _utility)
    even = np.array([[[0.5, 0.5]]])
    checked = [c * 4 + 1 for c in range(3)]
    facing_bet = [c * 4 + 2 for c in range(3)]
    learn = np.ones(2, np.int8)
    for rival_legal, meets_a_check in ((_only_bet, False), (_legal, True)):
        regret = np.zeros((ROWS, 2))
        total = np.zeros((ROWS, 2))
        st = np.zeros(4, KUHN)
        cfr.iterate(st, TB, 2, 20_000, SEED, regret, total, total, learn, even, 1.0, *fns, _explore, rival_legal)
        assert bool(total[checked].any()) == meets_a_check
        call = total[facing_bet, 1] / total[facing_bet].sum(axis=1)
        assert call[0] < 0.05 and call[1] > 0.95 and call[2] > 0.95  # the best response to a bet of any card


def test_a_rival_of_one_row_plays_as_the_same_row_repeated_at_every_information_set() -> None:
    """(K, 1, A) weights broadcast: the table of that row repeated at every row gives the very same traversals."""
    fns = (_deal, _to_act, _row, _legal, _step, _utility)
    learn = np.ones(2, np.int8)
    one_row = np.array([[[0.3, 0.7]], [[0.9, 0.1]]])
    totals = []
    for rivals in (one_row, np.repeat(one_row, ROWS, axis=1)):
        regret = np.zeros((ROWS, 2))
        total = np.zeros((ROWS, 2))
        st = np.zeros(4, KUHN)
        cfr.iterate(st, TB, 2, 5_000, SEED, regret, total, total, learn, rivals, 0.5, *fns, _explore, _legal)
        totals.append(total)
    assert np.array_equal(totals[0], totals[1])


def test_a_rival_plays_its_table_row_by_row() -> None:
    """A rival that bets (or calls) with the king alone and checks (or folds) otherwise, read row by row: facing its
    bet the second player meets only the jack's and queen's rows and folds both (the bet means a king); the king's row
    facing a bet is never met. The always-bet rival (one row for all) makes the queen call instead."""
    fns = (_deal, _to_act, _row, _legal, _step, _utility)
    learn = np.ones(2, np.int8)
    king_only = np.array([[0.0, 1.0] if r // 4 == 2 else [1.0, 0.0] for r in range(ROWS)])[None]
    facing_bet = [c * 4 + 2 for c in range(3)]
    calls = {}
    for name, rivals in (("king_only", king_only), ("always_bet", np.array([[[0.0, 1.0]]]))):
        regret = np.zeros((ROWS, 2))
        total = np.zeros((ROWS, 2))
        st = np.zeros(4, KUHN)
        cfr.iterate(st, TB, 2, 20_000, SEED, regret, total, total, learn, rivals, 1.0, *fns, _explore, _legal)
        met = total[facing_bet].sum(axis=1) > 0
        calls[name] = np.where(met, total[facing_bet, 1] / np.maximum(total[facing_bet].sum(axis=1), 1e-300), -1.0)
    assert calls["king_only"][2] == -1.0  # the king facing a bet: never met, the rival bets only with the king
    assert 0.0 <= calls["king_only"][0] < 0.05 and 0.0 <= calls["king_only"][1] < 0.05  # met, and folded
    assert calls["always_bet"][1] > 0.95 and calls["always_bet"][2] > 0.95
