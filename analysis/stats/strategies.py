"""Strategy strength: head-to-head records of bots and Bradley-Terry ratings on an Elo scale.

A multi-player game is broken into its seat pairs (rank breaking): in a 4-player game each of
the 6 pairs of seats is one comparison, won by the better-ranked seat, halved when the ranks are
equal (a shared tie). Comparisons from one game are not independent (one bot's finish enters all
of its pairs), so intervals are clustered by game: head-to-head intervals use the game-clustered
variance of the win rate (through an effective number of comparisons), and ratings use the
game-clustered sandwich covariance of the rank-broken (composite) likelihood. When the game is a
Plackett-Luce (Gumbel random utility) model, every pair's win probability is exactly the
Bradley-Terry one, so the ratings estimate its strengths.

References
----------
Bradley, R. A. and Terry, M. E. (1952). Rank analysis of incomplete block designs. *Biometrika* 39.
Elo, A. E. (1978). *The Rating of Chessplayers, Past and Present*. Arco.
Azari Soufiani, H., Chen, W., Parkes, D. C. and Xia, L. (2013). Generalized method-of-moments for
rank aggregation. *NeurIPS* 26 (rank breaking of Plackett-Luce).
Cameron, A. C. and Miller, D. L. (2015). A practitioner's guide to cluster-robust inference.
*Journal of Human Resources* 50(2).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from scipy.special import expit
from statsmodels.tools.sm_exceptions import PerfectSeparationWarning

from analysis.stats._util import check_alpha, game_codes, mirror_mask, require_columns, wilson_confint

__all__ = ["ELO_SCALE", "bradley_terry", "finish_ratings", "head_to_head", "score_ratings", "strength_ratings"]

ELO_SCALE = 400.0 / np.log(10.0)
"""Elo points per unit of Bradley-Terry log-odds: a 400-point gap is 10:1 odds."""

_BLOCK_GAMES = 200_000  # games per block of the per-game passes


def _sorted_positions(seats: pd.DataFrame) -> np.ndarray | slice:
    game = seats["game"].to_numpy()
    seat = seats["seat"].to_numpy()
    same = game[1:] == game[:-1]
    if np.all(game[1:] >= game[:-1]) and np.all(seat[1:][same] > seat[:-1][same]):
        return slice(None)
    return np.lexsort((seat, game))


_Blocks = Iterator[tuple[np.ndarray, np.ndarray]]


def _game_blocks(seats: pd.DataFrame, bots: np.ndarray | None = None) -> tuple[_Blocks, np.ndarray]:
    """Bot codes and ranks as (games, n) matrices, one player count and at most
    ``_BLOCK_GAMES`` games at a time, and the sorted bot labels the codes index.

    ``bots`` fixes the labels (a seat whose bot is not among them gets code -1).
    """
    order = _sorted_positions(seats)
    game = seats["game"].to_numpy()[order]
    labels = seats["bot"].to_numpy()[order]
    if bots is None:
        bot_codes, bots = pd.factorize(labels, sort=True)
        bots = np.asarray(bots, dtype=object)
    else:
        bot_codes = pd.Index(bots).get_indexer(labels)
    rank = seats["rank"].to_numpy(dtype=np.int64)[order]
    codes, num_codes = game_codes(game)
    per_game = np.bincount(codes, minlength=num_codes)[codes]

    def blocks() -> _Blocks:
        for n in np.unique(per_game):  # one pass per player count
            rows = np.flatnonzero(per_game == n)
            for start in range(0, len(rows), _BLOCK_GAMES * n):
                part = rows[start : start + _BLOCK_GAMES * n]
                yield bot_codes[part].reshape(-1, n), rank[part].reshape(-1, n)

    return blocks(), bots


def _pair_outcomes(b: np.ndarray, r: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Per pair of seat positions (i, j): bot codes of i and j, i's score (1, 1/2 or 0) and
    whether the two seats hold different bots, over the games of a block."""
    n = b.shape[1]
    for i in range(n):
        for j in range(i + 1, n):
            a, c = b[:, i], b[:, j]
            y = (r[:, i] < r[:, j]) + 0.5 * (r[:, i] == r[:, j])
            yield a, c, y, (a != c) & (a >= 0) & (c >= 0)


def head_to_head(seats: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """For each ordered pair of different bots, how often the first finishes above the second.

    Required columns: ``game``, ``seat``, ``bot``, ``rank``.

    Every pair of seats holding different bots in a game is one comparison, won by the lower
    ``rank`` and counted 1/2 each when ranks are equal (shared ties). Returns one row per ordered
    pair that met: ``bot``, ``opponent``, ``num_games`` (games where both sat),
    ``num_comparisons`` (seat pairs; more than games when a bot holds several seats), ``wins``
    (of ``bot``), ``win_rate``, ``ci_low``, ``ci_high`` and ``design_effect``. The interval is
    Wilson's with the effective number of comparisons ``num_comparisons / design_effect``, where
    the design effect is the game-clustered variance of the win rate over the binomial one: above
    1 when a bot holds several seats (its comparisons in a game go together), below 1 with shared
    ties. Pairs of seats with the same bot label are skipped.
    """
    check_alpha(alpha)
    require_columns(seats, ["game", "seat", "bot", "rank"], "seats")
    blocks, bots = _game_blocks(seats)
    k = len(bots)
    wins = np.zeros(k * k)
    comparisons = np.zeros(k * k)
    together = np.zeros((k, k))
    # per ordered pair, sums over games of W_g^2, W_g N_g, N_g^2 (W_g: wins, N_g: comparisons in game g)
    ww, wn, nn = np.zeros(k * k), np.zeros(k * k), np.zeros(k * k)
    for b, r in blocks:
        present = np.zeros((len(b), k))
        for i in range(b.shape[1]):
            present[np.arange(len(b)), b[:, i]] = 1.0
        met_here = present.T @ present
        together += met_here
        for u in range(k):
            for v in range(u + 1, k):
                if met_here[u, v] == 0:
                    continue
                w_g = np.zeros(len(b))
                n_g = np.zeros(len(b))
                for a, c, y, diff in _pair_outcomes(b, r):
                    forward = diff & (a == u) & (c == v)
                    backward = diff & (a == v) & (c == u)
                    w_g += np.where(forward, y, 0.0) + np.where(backward, 1.0 - y, 0.0)
                    n_g += forward | backward
                for first, second, w in ((u, v, w_g), (v, u, n_g - w_g)):
                    cell = first * k + second
                    wins[cell] += w.sum()
                    comparisons[cell] += n_g.sum()
                    ww[cell] += w @ w
                    wn[cell] += w @ n_g
                    nn[cell] += n_g @ n_g
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
    num = comparisons[met]
    rate = wins[met] / num
    games = out["num_games"].to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        clustered = (ww[met] - 2 * rate * wn[met] + rate**2 * nn[met]) / num**2 * games / (games - 1)
        binomial = rate * (1 - rate) / num
        deff = np.where((binomial > 0) & (clustered > 0) & (games > 1), clustered / binomial, 1.0)
    out["win_rate"] = rate
    out["ci_low"], out["ci_high"] = wilson_confint(rate * num / deff, num / deff, alpha)
    out["design_effect"] = deff
    return out


def bradley_terry(
    h2h: pd.DataFrame,
    alpha: float = 0.05,
    elo_base: float = 1500.0,
    pseudo_count: float = 0.0,
    seats: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Bradley-Terry strengths fitted to pairwise records, with Wald intervals and Elo ratings.

    P(A finishes above B) = 1 / (1 + exp(-(rating_A - rating_B))), fitted as a binomial GLM
    (statsmodels) on the pair counts; ratings are centred to mean 0 with their covariance.

    ``seats`` is the seat table ``h2h`` was counted from (columns ``game``, ``seat``, ``bot``,
    ``rank``). When given, the covariance is the game-clustered sandwich ``B^-1 M B^-1 G/(G-1)``
    (B the Fisher information of the fit, M the sum over games of the outer product of each
    game's score, G games), which multi-player games need: their seat pairs are dependent and
    the model-based errors are too small (coverage 85-89% at 4 players). Without ``seats`` the
    comparisons are taken as independent, which is right for two-player games between two bots.

    Required columns (as from :func:`head_to_head`): ``bot``, ``opponent``,
    ``num_comparisons``, ``wins``. Each unordered pair is read once (both directions agree).
    ``pseudo_count`` adds that many wins to each side of every pair that met, which keeps
    ratings finite when a bot never lost (separation); 0 fits the plain model.

    Returns one row per bot, strongest first: ``bot``, ``rating`` (log-odds), ``se``,
    ``ci_low``, ``ci_high``, ``elo``, ``elo_low``, ``elo_high`` (``elo_base`` + rating x
    400 / ln 10) and ``num_comparisons``; ``attrs["cov"]`` holds the ratings' covariance (bot by bot), from
    which the gap between two bots gets its own interval (two overlapping intervals do not make a gap unclear).
    Raises ``ValueError`` when the bots do not form one
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
    if seats is not None:
        require_columns(seats, ["game", "seat", "bot", "rank"], "seats")
        meat, num_games = _score_outer_products(seats, bots, theta)
        bread_inv = cov[np.ix_(free, free)]
        cov[np.ix_(free, free)] = bread_inv @ meat[np.ix_(free, free)] @ bread_inv * num_games / max(num_games - 1, 1)
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
    out = out.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
    out.attrs["cov"] = pd.DataFrame(centre @ cov @ centre.T, index=list(bots), columns=list(bots))
    return out


def _score_outer_products(seats: pd.DataFrame, bots: np.ndarray, theta: np.ndarray) -> tuple[np.ndarray, int]:
    """Sum over games of s_g s_g^T, s_g the gradient of game g's rank-broken log-likelihood at
    strengths ``theta`` (one per label of ``bots``), and the number of games that hold a
    comparison."""
    k = len(bots)
    meat = np.zeros((k, k))
    num_games = 0
    blocks, _ = _game_blocks(seats, bots)
    for b, r in blocks:
        score = np.zeros((len(b), k))
        rows = np.arange(len(b))
        compared = np.zeros(len(b), dtype=bool)
        for a, c, y, diff in _pair_outcomes(b, r):
            resid = np.where(diff, y - expit(theta[a] - theta[c]), 0.0)
            score[rows, a] += resid  # one entry per row: no repeated index
            score[rows, c] -= resid
            compared |= diff
        meat += score.T @ score
        num_games += int(compared.sum())
    return meat, num_games


def score_ratings(seats: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Each bot's mean net score a seat-game, with a game-clustered t interval, strongest first.

    For a game whose outcome is a score rather than a place (golem-poker: net chips), "finishes above" can
    rank a bot that loses many chips above one that wins them; the mean net score is what a player plays for.

    Required columns: ``game``, ``bot``, ``score``. Seats of one game are not independent (one seat's chips
    are another's), so the standard error is clustered by game: ``sqrt(sum_g r_g^2) / N`` for ``r_g`` the sum
    of a game's residuals of that bot, ``N`` its seat-games.

    Returns one row per bot, highest mean first: ``bot``, ``num_seat_games``, ``num_games``, ``mean``, ``se``,
    ``ci_low``, ``ci_high`` (t interval, df = games - 1).

    Examples
    --------
    >>> seats = pd.DataFrame({"game": [0, 0, 1, 1], "bot": ["a", "b", "a", "b"], "score": [5, -5, 3, -3]})
    >>> score_ratings(seats)["bot"].tolist()
    ['a', 'b']
    """
    check_alpha(alpha)
    require_columns(seats, ["game", "bot", "score"], "seats")
    frame = pd.DataFrame(
        {
            "game": seats["game"].to_numpy(),
            "bot": seats["bot"].astype(str).to_numpy(),
            "score": seats["score"].to_numpy(float),
        }
    )
    rows = []
    for bot, part in frame.groupby("bot", sort=True):  # a handful of bots
        mean = float(part["score"].mean())
        residual = part.groupby("game", sort=False)["score"].sum() - mean * part.groupby("game", sort=False).size()
        n, g = len(part), int(part["game"].nunique())
        se = float(np.sqrt((residual**2).sum() * g / max(g - 1, 1)) / n) if g > 1 else np.nan
        half = stats.t.ppf(1 - alpha / 2, max(g - 1, 1)) * se
        rows.append([bot, n, g, mean, se, mean - half, mean + half])
    columns = ["bot", "num_seat_games", "num_games", "mean", "se", "ci_low", "ci_high"]
    out = pd.DataFrame(rows, columns=columns)
    return out.sort_values("mean", ascending=False, ignore_index=True)


def finish_ratings(h2h: pd.DataFrame, seats: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """:func:`bradley_terry` ratings from :func:`head_to_head`'s ``h2h`` of ``seats``, game-clustered.

    Where some bot never (or always) finishes above another, the maximum-likelihood ratings are infinite: the fit
    then adds half a win to each side of every pair that met, and ``attrs["separated"]`` is True (the ratings rank
    the bots but understate such gaps). Raises ValueError when the bots cannot be rated together."""
    separated = bool(((h2h["wins"] <= 0) | (h2h["wins"] >= h2h["num_comparisons"])).any())
    with warnings.catch_warnings():  # a single pair of bots leaves the GLM no residual df; harmless
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", PerfectSeparationWarning)  # near-certain pairs; flagged by ``separated``
        ratings = bradley_terry(h2h, alpha=alpha, pseudo_count=0.5 if separated else 0.0, seats=seats)
    ratings.attrs["separated"] = separated
    return ratings


def strength_ratings(seats: pd.DataFrame, alpha: float = 0.05, outcome: str = "win") -> pd.DataFrame | None:
    """The bots' strengths from their games together, in the game's own currency, strongest first: with ``outcome``
    ``"win"`` the :func:`finish_ratings` of their seat pairs (columns ``game``, ``seat``, ``bot``, ``rank``); with
    ``"score"`` each bot's mean net score in games with another bot (:func:`score_ratings`, column ``mean`` named
    ``rating``; columns ``game``, ``bot``, ``score``). None where no two bots can be rated together.

    Examples
    --------
    >>> seats = pd.DataFrame({"game": [0, 0, 1, 1], "seat": [0, 1, 0, 1], "bot": ["a", "b", "b", "a"],
    ...                       "score": [5, -5, -3, 3]})
    >>> strength_ratings(seats, outcome="score")["bot"].tolist()
    ['a', 'b']
    """
    if outcome == "score":
        mixed = seats[~mirror_mask(seats[["game", "bot"]])]
        if mixed["bot"].nunique() < 2:
            return None
        return score_ratings(mixed, alpha).rename(columns={"mean": "rating"})
    pairs = seats[["game", "seat", "bot", "rank"]]
    h2h = head_to_head(pairs, alpha=alpha)
    if h2h.empty:
        return None
    try:
        return finish_ratings(h2h, pairs, alpha)
    except ValueError:
        return None
