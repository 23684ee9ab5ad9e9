"""Private helpers shared by the analysis modules: column checks, per-game sums, intervals.

Everything here is vectorised over rows; the only Python loops run over a handful of groups
(player counts, seats), never over games.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

# Bootstrap work limits: resampled values per call before falling back to cheaper exact forms.
_MAX_MULTINOMIAL_CELLS = 40_000_000
_MAX_INDEX_RESAMPLES = 40_000_000


def require_columns(df: pd.DataFrame, columns: Iterable[str], name: str = "table") -> None:
    """Raise ``ValueError`` naming every column of ``columns`` missing from ``df``."""
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{name} is missing required column(s): {', '.join(missing)}")


def check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")


def wilson_confint(count: np.ndarray, nobs: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (statsmodels); fractional counts (shared ties) are allowed."""
    count = np.asarray(count, dtype=float)
    nobs = np.asarray(nobs, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        low, high = proportion_confint(count, nobs, alpha=alpha, method="wilson")
    low = np.where(nobs > 0, low, np.nan)
    high = np.where(nobs > 0, high, np.nan)
    return np.asarray(low, dtype=float), np.asarray(high, dtype=float)


def unchanged_share_bound(num: np.ndarray | int, alpha: float) -> np.ndarray:
    """Upper end of the exact (Clopper-Pearson, one-sided ``alpha / 2``) interval of a share of which none of ``num``
    independent draws showed: ``1 - (alpha / 2) ** (1 / num)`` (about 3.7 / num at 95%, the rule of three's two-sided
    form); 1 when ``num`` is 0."""
    num = np.asarray(num, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(num > 0, -np.expm1(np.log(alpha / 2) / num), 1.0)


def constant_confint(
    value: np.ndarray | float, num: np.ndarray | int, low: float, high: float, alpha: float
) -> tuple[np.ndarray, np.ndarray]:
    """An interval for the mean of values bounded in [``low``, ``high``] when every one of ``num`` independent values
    equalled ``value``: the share of other values is at most :func:`unchanged_share_bound`, and they may lie anywhere
    in the bounds, so the mean lies in ``value - b (value - low)`` .. ``value + b (high - value)``.

    A sample without variation says the mean is near ``value``, not that it is ``value``: a zero-width interval at 0
    or 1 would claim certainty that no finite sample gives.
    """
    value = np.asarray(value, dtype=float)
    bound = unchanged_share_bound(num, alpha)
    return value - bound * (value - low), value + bound * (high - value)


def game_codes(game: pd.Series | np.ndarray) -> tuple[np.ndarray, int]:
    """Integer codes for game ids, usable as ``np.bincount`` indices, and the code count.

    Dense non-negative game ids (the run format's 0-based ``game``) are used as they are, which
    avoids hashing millions of rows; anything else is factorised.
    """
    values = np.asarray(game)
    if values.dtype.kind in "iu" and len(values):
        lo, hi = values.min(), values.max()
        if lo >= 0 and hi < 4 * len(values) + 1024:
            return values.astype(np.intp, copy=False), int(hi) + 1
    codes, uniques = pd.factorize(values)
    return codes.astype(np.intp, copy=False), len(uniques)


def seat_margins(seats: pd.DataFrame) -> np.ndarray:
    """Score minus the mean score of the other seats of the same game, one value per seat row.

    Requires ``game``, ``score``. Games with a single seat row get NaN.
    """
    require_columns(seats, ["game", "score"], "seats")
    codes, num_codes = game_codes(seats["game"])
    score = seats["score"].to_numpy(dtype=float)
    total = np.bincount(codes, weights=score, minlength=num_codes)
    count = np.bincount(codes, minlength=num_codes)
    others = count[codes] - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        margin = score - (total[codes] - score) / others
    return np.where(others > 0, margin, np.nan)


def mirror_mask(seats: pd.DataFrame) -> np.ndarray:
    """Boolean per seat row: True when every seat of its game holds the same bot label.

    Requires ``game``, ``bot``.
    """
    require_columns(seats, ["game", "bot"], "seats")
    codes, num_codes = game_codes(seats["game"])
    bot_codes, _ = pd.factorize(seats["bot"])
    first = np.full(num_codes, -1, dtype=np.intp)
    first[codes[::-1]] = bot_codes[::-1]  # the last write wins: each game's first row
    mismatch = np.bincount(codes, weights=(bot_codes != first[codes]), minlength=num_codes)
    return mismatch[codes] == 0


def ensure_rng(random_state: int | np.random.Generator | None) -> np.random.Generator:
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(random_state)


def bootstrap_mean_confint(
    values: np.ndarray, alpha: float, num_resamples: int, rng: np.random.Generator
) -> tuple[float, float]:
    """Percentile bootstrap interval of a mean, resampling observations with replacement.

    Resampling N observations is the same as drawing multinomial counts over the distinct
    values (weights = their frequencies), so integer-valued data (scores, margins, wins) costs
    O(distinct values x resamples), not O(N x resamples). With nearly all values distinct and N
    too large to resample quickly, returns the normal interval, which the bootstrap matches at
    that size.
    """
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    n = len(values)
    if n < 2:
        return np.nan, np.nan
    uniques, counts = np.unique(values, return_counts=True)
    q = [100 * alpha / 2, 100 * (1 - alpha / 2)]
    if len(uniques) == 1:
        return float(uniques[0]), float(uniques[0])
    if len(uniques) * num_resamples <= _MAX_MULTINOMIAL_CELLS:
        draws = rng.multinomial(n, counts / n, size=num_resamples)
        means = draws @ uniques / n
    elif n * num_resamples <= _MAX_INDEX_RESAMPLES:
        batch = max(1, _MAX_INDEX_RESAMPLES // (20 * n))
        means = np.concatenate(
            [
                values[rng.integers(0, n, size=(min(batch, num_resamples - i), n))].mean(axis=1)
                for i in range(0, num_resamples, batch)
            ]
        )
    else:
        mean, se = values.mean(), values.std(ddof=1) / np.sqrt(n)
        z = stats.norm.ppf(1 - alpha / 2)
        return float(mean - z * se), float(mean + z * se)
    low, high = np.percentile(means, q)
    return float(low), float(high)


def welch(
    n1: np.ndarray, mean1: np.ndarray, var1: np.ndarray, n0: np.ndarray, mean0: np.ndarray, var0: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Welch two-sample comparison from summaries: (difference, se, df, two-sided p-value)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = var1 / n1, var0 / n0
        se = np.sqrt(a + b)
        df = (a + b) ** 2 / (a**2 / (n1 - 1) + b**2 / (n0 - 1))
        diff = mean1 - mean0
        t = diff / se
        p = 2 * stats.t.sf(np.abs(t), np.where(np.isfinite(df), df, 1e12))
    return diff, se, df, p


def holm(pvalue: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down adjusted p-values and rejections (Holm 1979), NaN left out.

    The same numbers as ``statsmodels.stats.multitest.multipletests(method="holm")``, which calls
    ``gc.collect()`` on every call (0.2-0.8 s in a process holding a large heap, once per round of
    a sequential experiment); the tests check the two agree.
    """
    pvalue = np.asarray(pvalue, dtype=float)
    adjusted = np.full(len(pvalue), np.nan)
    ok = np.flatnonzero(np.isfinite(pvalue))
    order = ok[np.argsort(pvalue[ok], kind="stable")]
    m = len(order)
    adjusted[order] = np.minimum(np.maximum.accumulate(pvalue[order] * np.arange(m, 0, -1)), 1.0)
    return adjusted, np.where(np.isfinite(adjusted), adjusted < alpha, False)


def holm_level(num_tests: int, num_rejected: int, alpha: float) -> float:
    """Interval level that agrees with Holm's decisions: alpha / (m - R), or alpha when all m are rejected.

    Holm rejects the R smallest p-values, each at most alpha / (m - R + 1), and keeps the rest,
    each above alpha / (m - R); so a two-sided interval at level alpha / (m - R) (dual to the same
    test) excludes the null value exactly for the R rejected hypotheses. With no rejection it is
    Bonferroni's alpha / m, so the intervals then hold simultaneously.
    """
    return alpha / (num_tests - num_rejected) if num_rejected < num_tests else alpha


def multiple_tests(pvalue: np.ndarray, alpha: float, correction: str | None) -> tuple[np.ndarray, np.ndarray, float]:
    """Multiple-comparison adjusted p-values, decisions and the matching per-interval level.

    ``correction`` is a ``statsmodels.stats.multitest.multipletests`` method ("holm",
    "fdr_bh", ...) or None. The level (the alpha of each interval) is :func:`holm_level` for
    Holm, so an interval excludes 0 exactly when its test is significant, Bonferroni's alpha/m
    for the other family-wise methods, and the Benjamini-Yekutieli false-coverage-rate level
    alpha*R/m (R rejections) for false-discovery methods ("fdr_*"). NaN p-values are left out.
    Returns (pvalue_adj, significant, level).
    """
    pvalue = np.asarray(pvalue, dtype=float)
    ok = np.isfinite(pvalue)
    m = int(ok.sum())
    p_adj = np.full(len(pvalue), np.nan)
    reject = np.zeros(len(pvalue), dtype=bool)
    level = alpha
    if m and correction is not None:
        if correction == "holm":
            padj, rej = holm(pvalue[ok], alpha)
        else:
            rej, padj, _, _ = multipletests(pvalue[ok], alpha=alpha, method=correction)
        p_adj[ok], reject[ok] = padj, rej
        if correction.startswith("fdr"):
            level = alpha * max(int(rej.sum()), 1) / m
        elif correction == "holm":
            level = holm_level(m, int(rej.sum()), alpha)
        else:
            level = alpha / m
    elif m:
        p_adj[ok], reject[ok] = pvalue[ok], pvalue[ok] < alpha
    return p_adj, reject, level


def t_confint(estimate: np.ndarray, se: np.ndarray, df: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided t interval ``estimate -/+ t(1 - level/2, df) * se``; infinite df is normal."""
    df = np.where(np.isfinite(df), df, 1e12)
    crit = stats.t.ppf(1 - level / 2, np.maximum(df, 1))
    return estimate - crit * se, estimate + crit * se


def interval_digits(low: float, high: float, digits: int = 1, max_digits: int = 4) -> int:
    """The decimals to print an interval with: ``digits``, or more until its two ends print apart.

    An interval printed as "(-0.3 to -0.3)" looks like no uncertainty at all; at up to ``max_digits``
    decimals its ends differ, e.g. "(-0.31 to -0.27)". Non-finite ends keep ``digits``.
    """
    if not (np.isfinite(low) and np.isfinite(high)) or low == high:
        return digits
    for d in range(digits, max_digits + 1):
        if f"{low:.{d}f}" != f"{high:.{d}f}":
            return d
    return max_digits


def format_pvalue(p: float) -> str:
    if not np.isfinite(p):
        return "p = n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def and_list(words: Sequence[str]) -> str:
    """Words listed as a sentence lists them: '', 'a', 'a and b', 'a, b and c'."""
    words = list(words)
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)
