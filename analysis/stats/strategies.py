"""Strategy strength: head-to-head records of bots and Bradley-Terry ratings on an Elo scale.

A multi-player game is broken into its seat pairs (rank breaking): in a 4-player game each of
the 6 pairs of seats is one comparison, won by the better-ranked seat, halved when the ranks are
equal (a shared tie). Comparisons from one game are not independent, so intervals treat them as
if they were and are somewhat narrow when games have many seats.

References
----------
Bradley, R. A. and Terry, M. E. (1952). Rank analysis of incomplete block designs. *Biometrika* 39.
Elo, A. E. (1978). *The Rating of Chessplayers, Past and Present*. Arco.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from analysis.stats._util import check_alpha, game_codes, require_columns, wilson_confint

__all__ = ["ELO_SCALE", "bradley_terry", "head_to_head"]

ELO_SCALE = 400.0 / np.log(10.0)
"""Elo points per unit of Bradley-Terry log-odds: a 400-point gap is 10:1 odds."""


def _sorted_positions(seats: pd.DataFrame) -> np.ndarray | slice:
    game = seats["game"].to_numpy()
    seat = seats["seat"].to_numpy()
    same = game[1:] == game[:-1]
    if np.all(game[1:] >= game[:-1]) and np.all(seat[1:][same] > seat[:-1][same]):
        return slice(None)
    return np.lexsort((seat, game))


def head_to_head(seats: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """For each ordered pair of different bots, how often the first finishes above the second.

    Required columns: ``game``, ``seat``, ``bot``, ``rank``.

    Every pair of seats holding different bots in a game is one comparison, won by the lower
    ``rank`` and counted 1/2 each when ranks are equal (shared ties). Returns one row per ordered
    pair that met: ``bot``, ``opponent``, ``num_games`` (games where both sat),
    ``num_comparisons`` (seat pairs; more than games when a bot holds several seats), ``wins``
    (of ``bot``), ``win_rate``, ``ci_low``, ``ci_high`` (Wilson, treating comparisons as
    independent). Pairs of seats with the same bot label are skipped.
    """
    check_alpha(alpha)
    require_columns(seats, ["game", "seat", "bot", "rank"], "seats")
    order = _sorted_positions(seats)
    game = seats["game"].to_numpy()[order]
    bot_codes, bots = pd.factorize(seats["bot"].to_numpy()[order], sort=True)
    rank = seats["rank"].to_numpy(dtype=np.int64)[order]
    k = len(bots)
    codes, num_codes = game_codes(game)
    per_game = np.bincount(codes, minlength=num_codes)[codes]
    wins = np.zeros(k * k)
    comparisons = np.zeros(k * k)
    together = np.zeros((k, k))
    for n in np.unique(per_game):  # one pass per player count
        rows = per_game == n
        b = bot_codes[rows].reshape(-1, n)
        r = rank[rows].reshape(-1, n)
        present = np.zeros((len(b), k))
        for i in range(n):
            present[np.arange(len(b)), b[:, i]] = 1.0
        together += present.T @ present
        for i in range(n):
            for j in range(i + 1, n):
                a, c = b[:, i], b[:, j]
                y = (r[:, i] < r[:, j]) + 0.5 * (r[:, i] == r[:, j])
                diff = a != c
                a, c, y = a[diff], c[diff], y[diff]
                wins += np.bincount(a * k + c, weights=y, minlength=k * k)
                wins += np.bincount(c * k + a, weights=1.0 - y, minlength=k * k)
                comparisons += np.bincount(a * k + c, minlength=k * k)
                comparisons += np.bincount(c * k + a, minlength=k * k)
    first, second = np.divmod(np.arange(k * k), k)
    met = (comparisons > 0) & (first != second)
    out = pd.DataFrame(
        {
            "bot": np.asarray(bots, dtype=object)[first[met]],
            "opponent": np.asarray(bots, dtype=object)[second[met]],
            "num_games": together[first[met], second[met]].astype(np.int64),
            "num_comparisons": comparisons[met].astype(np.int64),
            "wins": wins[met],
        }
    )
    out["bot"] = out["bot"].astype("str")
    out["opponent"] = out["opponent"].astype("str")
    out["win_rate"] = out["wins"] / out["num_comparisons"]
    out["ci_low"], out["ci_high"] = wilson_confint(out["wins"], out["num_comparisons"], alpha)
    return out


def bradley_terry(
    h2h: pd.DataFrame, alpha: float = 0.05, elo_base: float = 1500.0, pseudo_count: float = 0.0
) -> pd.DataFrame:
    """Bradley-Terry strengths fitted to pairwise records, with Wald intervals and Elo ratings.

    P(A finishes above B) = 1 / (1 + exp(-(rating_A - rating_B))), fitted as a binomial GLM
    (statsmodels) on the pair counts; ratings are centred to mean 0 with their covariance.

    Required columns (as from :func:`head_to_head`): ``bot``, ``opponent``,
    ``num_comparisons``, ``wins``. Each unordered pair is read once (both directions agree).
    ``pseudo_count`` adds that many wins to each side of every pair that met, which keeps
    ratings finite when a bot never lost (separation); 0 fits the plain model.

    Returns one row per bot, strongest first: ``bot``, ``rating`` (log-odds), ``se``,
    ``ci_low``, ``ci_high``, ``elo``, ``elo_low``, ``elo_high`` (``elo_base`` + rating x
    400 / ln 10) and ``num_comparisons``. Raises ``ValueError`` when the bots do not form one
    connected comparison graph (ratings of separate groups are not comparable).
    """
    check_alpha(alpha)
    require_columns(h2h, ["bot", "opponent", "num_comparisons", "wins"], "h2h")
    labels = np.asarray(h2h["bot"], dtype=object)
    opponents = np.asarray(h2h["opponent"], dtype=object)
    bots = np.array(sorted(set(labels) | set(opponents)), dtype=object)
    k = len(bots)
    if k < 2:
        raise ValueError("Bradley-Terry needs at least two bots")
    index = {b: i for i, b in enumerate(bots)}
    a = np.array([index[x] for x in labels])
    b = np.array([index[x] for x in opponents])
    n = h2h["num_comparisons"].to_numpy(dtype=float)
    w = h2h["wins"].to_numpy(dtype=float)
    swap = a > b
    pairs = pd.DataFrame({"i": np.where(swap, b, a), "j": np.where(swap, a, b), "n": n, "w": np.where(swap, n - w, w)})
    pairs = pairs[(pairs["n"] > 0) & (pairs["i"] != pairs["j"])].drop_duplicates(["i", "j"])
    graph = coo_matrix((np.ones(len(pairs)), (pairs["i"], pairs["j"])), shape=(k, k))
    num_parts, _ = connected_components(graph, directed=False)
    if num_parts > 1:
        raise ValueError("the bots do not form one connected comparison graph; fit each group apart")
    total = np.bincount(pairs["i"], weights=pairs["n"], minlength=k) + np.bincount(
        pairs["j"], weights=pairs["n"], minlength=k
    )
    ref = int(np.argmax(total))
    design = np.zeros((len(pairs), k))
    design[np.arange(len(pairs)), pairs["i"]] = 1.0
    design[np.arange(len(pairs)), pairs["j"]] = -1.0
    free = [c for c in range(k) if c != ref]
    endog = np.column_stack([pairs["w"] + pseudo_count, pairs["n"] - pairs["w"] + pseudo_count])
    fit = sm.GLM(endog, design[:, free], family=sm.families.Binomial()).fit()
    theta = np.zeros(k)
    theta[free] = fit.params
    cov = np.zeros((k, k))
    cov[np.ix_(free, free)] = fit.cov_params()
    centre = np.eye(k) - 1.0 / k
    rating = centre @ theta
    se = np.sqrt(np.clip(np.diag(centre @ cov @ centre.T), 0, None))
    z = stats.norm.ppf(1 - alpha / 2)
    out = pd.DataFrame(
        {
            "bot": pd.Series(bots, dtype="str"),
            "rating": rating,
            "se": se,
            "ci_low": rating - z * se,
            "ci_high": rating + z * se,
        }
    )
    out["elo"] = elo_base + ELO_SCALE * out["rating"]
    out["elo_low"] = elo_base + ELO_SCALE * out["ci_low"]
    out["elo_high"] = elo_base + ELO_SCALE * out["ci_high"]
    out["num_comparisons"] = total.astype(np.int64)
    return out.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
