"""Report section on the game's own measures (declared by the game, recorded in the run's manifest)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
from scipy import stats

from analysis.report.format import _ci, _int, _level, _num, _pct
from analysis.report.model import Section, Table, Text


def _metric_columns(metrics: dict[str, tuple[str, ...]]) -> list[str]:
    """The games-table columns the measures' expressions use."""
    exprs = [e for spec in metrics.values() for e in (spec[0], *spec[2:])]
    return sorted({name for e in exprs for name in re.findall(r"[A-Za-z_]\w*", e)})


def _estimate(part: pd.DataFrame, spec: tuple[str, ...]) -> tuple[np.ndarray, float, float]:
    """A measure over the games in ``part``: per-game values, the estimate and its standard error.

    A mean has the usual standard error; a ratio of totals its delta-method (linearised) standard error.
    """
    x = np.asarray(part.eval(spec[0]), dtype=float)
    n = len(x)
    if len(spec) < 3:
        return x, (x.mean() if n else np.nan), (x.std(ddof=1) / np.sqrt(n) if n > 1 else np.nan)
    w = np.asarray(part.eval(spec[2]), dtype=float)
    total = w.sum()
    if n < 2 or total <= 0:
        return x, np.nan, np.nan
    ratio = x.sum() / total
    return x, ratio, np.sqrt(n / (n - 1) * np.sum((x - ratio * w) ** 2)) / total


def _metrics_section(
    games: pd.DataFrame, metrics: dict[str, tuple[str, ...]], labels: dict[str, str], alpha: float
) -> Section | None:
    """The game's own per-game measures: mean with a t interval and quantiles, per run; small counts in full."""
    if not metrics:
        return None
    section = Section("Game-specific measures")
    section.items.append(
        Text(
            "Measures the game declares for its balance questions, per run (one value per game): the mean with a "
            f"{_level(alpha)} t interval, and quantiles. A measure taking few values is also shown as a "
            "distribution. A rate per deal, showdown or turn is the ratio of the totals over all games, with a "
            "delta-method interval (no quantiles)."
        )
    )
    rows, dist_rows = [], []
    for rid, part in games.groupby("run_id", observed=True, sort=False):
        for column, spec in metrics.items():
            x, est, se = _estimate(part, spec)
            if not len(x):
                continue
            half = stats.t.ppf(1 - alpha / 2, len(x) - 1) * se if len(x) > 1 else np.nan
            if len(spec) > 2:
                rows.append(
                    [
                        labels[str(rid)],
                        column,
                        spec[1],
                        _int(len(x)),
                        _num(est, 3),
                        _ci(est - half, est + half, 3),
                        "—",
                        "—",
                        "—",
                        "—",
                    ]
                )
                continue
            q = np.quantile(x, [0.5, 0.9, 0.99])
            rows.append(
                [
                    labels[str(rid)],
                    column,
                    spec[1],
                    _int(len(x)),
                    _num(est, 2),
                    _ci(est - half, est + half, 2),
                    _num(q[0], 1),
                    _num(q[1], 1),
                    _num(q[2], 1),
                    _num(x.max(), 1),
                ]
            )
            values, counts = np.unique(x, return_counts=True)
            if len(values) <= 8 and np.all(values == np.round(values)):
                shares = ", ".join(f"{v:g}: {_pct(c / len(x), 1)}" for v, c in zip(values, counts, strict=True))
                dist_rows.append([labels[str(rid)], column, shares])
    section.items.append(
        Table(
            ["run", "measure", "meaning", "games", "mean", f"{_level(alpha)} interval", "median", "90%", "99%", "max"],
            rows,
            "Per-game measures by run.",
        )
    )
    if dist_rows:
        section.items.append(
            Table(
                ["run", "measure", "share of games by value"],
                dist_rows,
                "Distribution of the measures that take few values.",
            )
        )
    return section
