"""The meta-game of strategies: their head-to-head win-rate matrix, its equilibrium and a verdict.

A symmetric two-player meta-game: strategy i against j scores its share of the wins of their games (a shared tie
counts half), and the game's payoff is the margin ``M[i, j] = rate(i, j) - 1/2`` (antisymmetric). Its equilibrium
(von Neumann's minimax; as a voting rule, the *maximal lottery* of Fishburn 1984, proposed for rating agents by
Lanctot et al. 2023) is the mix of strategies no other strategy beats on average. It is not fooled by copies: a
strategy entered twice shares its weight with its copy instead of gaining any (Balduzzi et al. 2018 make the same
point for Nash averaging). Where several mixes are equilibria, the evenest is reported (among the strategies some
equilibrium plays, the one whose smallest weight is largest, which splits a copy's weight evenly), found like the
equilibrium itself by linear programming (``scipy.optimize.linprog``). Intervals come from the percentile
bootstrap over each pair's games.

At more than two players the matrix is one of pairwise comparisons (the voting view of Lanctot et al. 2023: each
game a ranking of the strategies at its table): strategy i against j scores, in each game where both sit, its share
of the comparisons of an i seat with a j seat that the i seat finishes ahead of (a tie counts half; a table with two
copies of i compares each with j), so a strategy gains nothing from the copies of itself it sits with, and at two
players this is its share of the wins. A game then counts once in each pair of strategies its table holds, and the
bootstrap resamples whole games within each table make-up (:func:`table_scores`), so that the pairs a game holds are
resampled together.

References
----------
Fishburn, P. C. (1984). Probabilistic social choice based on simple voting comparisons. *Review of Economic
Studies* 51(4).
Balduzzi, D., Tuyls, K., Perolat, J. and Graepel, T. (2018). Re-evaluating evaluation. *NeurIPS* 31.
Lanctot, M. et al. (2023). Evaluating agents using social choice theory. arXiv:2312.03121.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from analysis.stats._util import and_list, check_alpha, ensure_rng, require_columns, wilson_confint
from analysis.stats.convergence import games_to_settle

__all__ = [
    "DOMINATES",
    "META_VERDICTS",
    "SEVERAL_VIABLE",
    "UNRESOLVED",
    "MetaGame",
    "equilibrium",
    "meta_game",
    "pair_scores",
    "table_scores",
    "win_matrix",
]

DOMINATES = "one style dominates"
SEVERAL_VIABLE = "several styles viable"
UNRESOLVED = "unresolved"
META_VERDICTS = (DOMINATES, SEVERAL_VIABLE, UNRESOLVED)
"""The fixed vocabulary of :func:`meta_game`'s verdict."""
PRECISION = 0.02
"""A pair is settled as even when its win rate's interval lies within this of 1/2 (±2 pp)."""
PLAYED = 0.01
"""An equilibrium weight below this counts as not played."""
_TOLERANCE = 1e-9


class MetaGame(NamedTuple):
    """What :func:`meta_game` finds (read by name)."""

    matrix: pd.DataFrame
    """One row per ordered pair of different strategies (:func:`win_matrix`)."""
    weights: pd.DataFrame
    """One row per strategy: ``strategy``, ``weight`` (in the evenest equilibrium), ``ci_low``, ``ci_high`` (bootstrap
    percentiles) and ``played`` (the share of resamples whose equilibrium plays it, weight at least 1%)."""
    verdict: str
    """One of :data:`META_VERDICTS`."""
    reason: str
    """Why, in a sentence."""
    more_games: float
    """For ``unresolved``: about how many more games a pair would settle it (inf when no count would); else 0."""


def pair_scores(seats: pd.DataFrame) -> pd.DataFrame:
    """Each seat's share of the win against the other seat of its two-player game, from a seats table.

    Required columns: ``game``, ``bot``, ``win`` (the seat's share of the win: 1, 0, or a share of a tie). Games
    whose two seats hold the same bot are left out. Returns one row per seat of the other games: ``game``,
    ``strategy`` (its bot), ``opponent`` and ``score``. Raises ``ValueError`` for a game without exactly two seats.
    """
    require_columns(seats, ["game", "bot", "win"], "seats")
    frame = seats[["game", "bot", "win"]].sort_values("game", kind="stable")
    sizes = frame.groupby("game").size()
    if len(sizes) and (sizes != 2).any():
        raise ValueError(f"game {sizes.index[(sizes != 2).to_numpy()][0]} has {sizes[sizes != 2].iloc[0]} seats, not 2")
    bot = frame["bot"].astype(str).to_numpy().reshape(-1, 2)
    win = frame["win"].to_numpy(dtype=float).reshape(-1, 2)
    game = frame["game"].to_numpy().reshape(-1, 2)[:, 0]
    keep = bot[:, 0] != bot[:, 1]
    bot, win, game = bot[keep], win[keep], game[keep]
    return pd.DataFrame(
        {
            "game": np.concatenate([game, game]),
            "strategy": np.concatenate([bot[:, 0], bot[:, 1]]),
            "opponent": np.concatenate([bot[:, 1], bot[:, 0]]),
            "score": np.concatenate([win[:, 0], win[:, 1]]),
        }
    )


def table_scores(seats: pd.DataFrame) -> pd.DataFrame:
    """Each strategy's score against each other strategy at its table, from a seats table of games of any size.

    Required columns: ``game``, ``bot`` and ``rank`` (1 = first; equal ranks: a shared place). In each game, for every
    two different bots at its table, the ``strategy``'s ``score`` against the ``opponent`` is the share of the pairs
    (one seat of each) in which the strategy's seat finishes ahead (a shared place counts half). Returns one row per
    game and ordered pair of different bots at its table: ``game``, ``strategy``, ``opponent``, ``score``, and
    A game whose seats all hold one bot gives no row.
    """
    require_columns(seats, ["game", "bot", "rank"], "seats")
    frame = seats[["game", "bot", "rank"]].astype({"bot": str, "rank": float})
    pairs = frame.merge(frame, on="game", suffixes=("", "_other"))
    pairs = pairs[pairs["bot"] != pairs["bot_other"]]
    ahead = (pairs["rank"] < pairs["rank_other"]).astype(float) + 0.5 * (pairs["rank"] == pairs["rank_other"])
    return (
        pairs.assign(score=ahead)
        .groupby(["game", "bot", "bot_other"], sort=True)["score"]
        .mean()
        .reset_index()
        .rename(columns={"bot": "strategy", "bot_other": "opponent"})
    )


def _strategies(scores: pd.DataFrame, strategies: Sequence[str] | None) -> list[str]:
    found = list(dict.fromkeys([*scores["strategy"].astype(str), *scores["opponent"].astype(str)]))
    if strategies is None:
        return found
    unknown = sorted(set(found) - set(strategies))
    if unknown:
        raise ValueError(f"scores name strategies not listed: {', '.join(unknown)}")
    return list(strategies)


def _cell_scores(scores: pd.DataFrame, names: list[str]) -> dict[tuple[int, int], np.ndarray]:
    """The scores of strategy i against j (i < j), one per game, by (i, j); ``ValueError`` for a pair never met."""
    index = {name: k for k, name in enumerate(names)}
    i = scores["strategy"].astype(str).map(index).to_numpy()
    j = scores["opponent"].astype(str).map(index).to_numpy()
    score = scores["score"].to_numpy(dtype=float)
    cells = {}
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            cells[a, b] = score[(i == a) & (j == b)]
            if not len(cells[a, b]):
                raise ValueError(f"{names[a]} and {names[b]} never met: every pair needs games")
    return cells


def win_matrix(scores: pd.DataFrame, strategies: Sequence[str] | None = None, alpha: float = 0.05) -> pd.DataFrame:
    """Each strategy's win rate against each other one, with Wilson intervals.

    Parameters
    ----------
    scores : DataFrame
        One row per strategy per game (:func:`pair_scores`; at more players one per pair of strategies at the table,
        :func:`table_scores`): ``game``, ``strategy``, ``opponent``, ``score`` (its share of the win, or of the
        comparisons it wins). A game's first row of each pair counts (the other side scores 1 - score).
    strategies : sequence of str, optional
        The strategies in order (default: as they appear). Every pair must have met.

    Returns
    -------
    DataFrame
        One row per ordered pair of different strategies: ``strategy``, ``opponent``, ``num_games``, ``win_rate``
        (its share of the pair's wins), ``ci_low``, ``ci_high``.
    """
    check_alpha(alpha)
    require_columns(scores, ["game", "strategy", "opponent", "score"], "scores")
    names = _strategies(scores, strategies)
    rows = []
    for (a, b), cell in _cell_scores(_both_sides(scores), names).items():
        n, wins = len(cell), float(cell.sum())
        for s, o, w in ((a, b, wins), (b, a, n - wins)):
            low, high = wilson_confint(np.array([w]), np.array([float(n)]), alpha)
            rows.append((names[s], names[o], n, w / n, float(low[0]), float(high[0])))
    return pd.DataFrame(rows, columns=["strategy", "opponent", "num_games", "win_rate", "ci_low", "ci_high"])


def _both_sides(scores: pd.DataFrame) -> pd.DataFrame:
    """Every game's every pair once from each side: its first row and that row's mirror (strategies swapped, score
    1 - score)."""
    frame = scores[["game", "strategy", "opponent", "score"]].astype({"strategy": str, "opponent": str, "score": float})
    a, b = frame["strategy"], frame["opponent"]
    pair = frame.assign(low=a.where(a < b, b), high=b.where(a < b, a))
    frame = frame[~pair.duplicated(["game", "low", "high"], keep="first")]
    mirror = frame.assign(strategy=frame["opponent"], opponent=frame["strategy"], score=1.0 - frame["score"])
    return pd.concat([frame, mirror], ignore_index=True)


def equilibrium(margin: np.ndarray) -> np.ndarray:
    """The evenest equilibrium of the symmetric zero-sum game with payoff ``margin`` (k, k), antisymmetric.

    Linear programs (``scipy.optimize.linprog``, HiGHS): the game's value ``v = max_p min_j (p M)_j`` (0 for an
    antisymmetric matrix); for each strategy the most weight an equilibrium gives it (which strategies some
    equilibrium plays); then the equilibrium whose smallest weight among those strategies is largest, so that
    copies share their weight evenly. Returns the weights (k,), summing to 1.
    """
    m = np.asarray(margin, dtype=float)
    k = m.shape[0]
    if m.ndim != 2 or m.shape != (k, k) or k == 0:
        raise ValueError(f"margin must be a square matrix, got shape {m.shape}")
    # variables (p_1..p_k, t) throughout; the mix: sum p = 1, p >= 0
    mix = {"A_eq": np.r_[np.ones(k), 0.0][None], "b_eq": [1.0], "method": "highs"}
    # the value: maximise t subject to t - (p M)_j <= 0
    first = linprog(
        c=np.r_[np.zeros(k), -1.0],
        A_ub=np.c_[-m.T, np.ones(k)],
        b_ub=np.zeros(k),
        bounds=[(0, None)] * k + [(None, None)],
        **mix,
    )
    if not first.success:
        raise ValueError(f"the equilibrium's linear program failed: {first.message}")
    secure = {"A_ub": np.c_[-m.T, np.zeros(k)], "b_ub": np.full(k, _TOLERANCE - (-first.fun))}
    bounds = [(0, None)] * k + [(0, 0)]
    most = np.zeros(k)
    for i in range(k):
        best = linprog(c=-np.eye(k + 1)[i], bounds=bounds, **secure, **mix)
        most[i] = -best.fun if best.success else 0.0
    played = most > _TOLERANCE**0.5
    # the evenest: maximise t subject to t - p_i <= 0 for every strategy some equilibrium plays
    even = linprog(
        c=np.r_[np.zeros(k), -1.0],
        A_ub=np.r_[secure["A_ub"], np.c_[-np.eye(k)[played], np.ones(played.sum())]],
        b_ub=np.r_[secure["b_ub"], np.zeros(played.sum())],
        bounds=[(0, None)] * (k + 1),
        **mix,
    )
    p = np.clip(even.x[:k] if even.success else first.x[:k], 0.0, None)
    return p / p.sum()


def _margins(rates: np.ndarray, k: int) -> np.ndarray:
    """Antisymmetric margins from the pairs' rates (i < j, in ``np.triu_indices(k, 1)`` order), one matrix per row."""
    upper = np.triu_indices(k, 1)
    out = np.zeros((rates.shape[0], k, k))
    out[:, upper[0], upper[1]] = rates - 0.5
    out[:, upper[1], upper[0]] = 0.5 - rates
    return out


def meta_game(
    scores: pd.DataFrame,
    strategies: Sequence[str] | None = None,
    num_resamples: int = 500,
    alpha: float = 0.05,
    precision: float = PRECISION,
    random_state: int | np.random.Generator | None = 0,
) -> MetaGame:
    """The meta-game of ``scores`` (as :func:`win_matrix` takes them): its matrix, equilibrium weights with bootstrap
    intervals (each pair's games resampled; where a game holds several pairs, as :func:`table_scores` gives them,
    whole games among those holding the same pairs), and a verdict.

    The verdict, from :data:`META_VERDICTS`:

    - ``one style dominates``: a strategy beats every other with its win rate's interval clear of even (the
      equilibrium then plays it alone);
    - ``several styles viable``: at least two strategies are played by the equilibrium in all but ``alpha`` of the
      resamples, or at least two strategies are beaten by none (no interval clear of even against them) and every
      pair of those is settled as even within ``precision``;
    - ``unresolved`` otherwise, with about how many more games a pair of the unbeaten strategies would settle it
      (:func:`analysis.stats.convergence.games_to_settle`, the slowest pair).
    """
    check_alpha(alpha)
    matrix = win_matrix(scores, strategies, alpha)
    names = _strategies(scores, strategies)
    k = len(names)
    if k < 2:
        raise ValueError("a meta-game needs at least two strategies")
    both = _both_sides(scores)
    cells = _cell_scores(both, names)
    upper = list(zip(*np.triu_indices(k, 1), strict=True))
    rates = np.array([[cells[a, b].mean() for a, b in upper]])
    weight = equilibrium(_margins(rates, k)[0])
    rng = ensure_rng(random_state)
    if both["game"].duplicated().sum() > len(both) // 2:  # some game holds several pairs
        draws = _game_draws(both, names, num_resamples, rng)
    else:
        draws = np.empty((num_resamples, len(upper)))
        for c, (a, b) in enumerate(upper):
            values, counts = np.unique(cells[a, b], return_counts=True)
            n = len(cells[a, b])
            draws[:, c] = rng.multinomial(n, counts / n, size=num_resamples) @ values / n
    boot = np.array([equilibrium(m) for m in _margins(draws, k)]) if num_resamples else np.zeros((0, k))
    q = [100 * alpha / 2, 100 * (1 - alpha / 2)]
    low, high = np.percentile(boot, q, axis=0) if num_resamples else (np.full(k, np.nan), np.full(k, np.nan))
    played = (boot >= PLAYED).mean(axis=0) if num_resamples else np.full(k, np.nan)
    weights = pd.DataFrame({"strategy": names, "weight": weight, "ci_low": low, "ci_high": high, "played": played})
    verdict, reason, more = _verdict(matrix, names, played, alpha, precision)
    return MetaGame(matrix, weights, verdict, reason, more)


def _game_draws(both: pd.DataFrame, names: list[str], num_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Resampled rates of every pair (i < j, in ``np.triu_indices`` order), (num_resamples, pairs): whole games drawn
    with replacement among the games that hold the same pairs, each game's pairs kept together."""
    k = len(names)
    column = np.full((k, k), -1)
    column[np.triu_indices(k, 1)] = np.arange(k * (k - 1) // 2)
    index = {name: c for c, name in enumerate(names)}
    i, j = both["strategy"].map(index).to_numpy(), both["opponent"].map(index).to_numpy()
    keep = i < j
    games, g = np.unique(both["game"].to_numpy()[keep], return_inverse=True)
    x = np.zeros((len(games), k * (k - 1) // 2))
    present = np.zeros_like(x)
    x[g, column[i[keep], j[keep]]] = both["score"].to_numpy()[keep]
    present[g, column[i[keep], j[keep]]] = 1.0
    sums, counts = np.zeros((num_resamples, x.shape[1])), np.zeros((num_resamples, x.shape[1]))
    _, stratum = np.unique(present, axis=0, return_inverse=True)
    for s in range(stratum.max() + 1):
        rows = np.flatnonzero(stratum == s)
        drawn = rng.multinomial(len(rows), np.full(len(rows), 1 / len(rows)), size=num_resamples)
        sums += drawn @ x[rows]
        counts += drawn @ present[rows]
    return sums / counts


def _verdict(
    matrix: pd.DataFrame, names: list[str], played: np.ndarray, alpha: float, precision: float
) -> tuple[str, str, float]:
    beats = matrix[matrix["ci_low"] > 0.5]
    for name in names:
        if (beats["strategy"] == name).sum() == len(names) - 1:
            return DOMINATES, f"{name} beats every other strategy with its interval clear of even", 0.0
    steady = [n for n, share in zip(names, played, strict=True) if share >= 1 - alpha]
    if len(steady) >= 2:
        return SEVERAL_VIABLE, f"the equilibrium plays {and_list(steady)} in nearly every resample", 0.0
    unbeaten = [n for n in names if not (beats["opponent"] == n).any()]
    among = matrix[matrix["strategy"].isin(unbeaten) & matrix["opponent"].isin(unbeaten)]
    half = (among["ci_high"] - among["ci_low"]).to_numpy() / 2
    diff = among["win_rate"].to_numpy() - 0.5
    if len(unbeaten) >= 2 and np.all(np.abs(diff) + half <= precision):
        return SEVERAL_VIABLE, f"{and_list(unbeaten)} are even within ±{precision:.0%} and beaten by no strategy", 0.0
    if len(unbeaten) < 2:
        return UNRESOLVED, "no strategy is beaten by none and none beats every other", np.inf
    more = float(np.max(games_to_settle(diff, half, among["num_games"].to_numpy(), precision)))
    return UNRESOLVED, f"{and_list(unbeaten)} are beaten by no strategy, and their pairs are not settled yet", more
