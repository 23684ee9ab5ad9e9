"""Plots of experiment results: ``plot_<thing>(df, ..., ax=None) -> Axes``.

Effects are the rows of :func:`analysis.stats.paired.compare_variants`; rates are drawn in percentage
points, margins in points.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from analysis.plots.runs import new_axes
from analysis.stats._util import require_columns

__all__ = ["plot_effect_forest", "plot_search_history", "plot_sweep", "plot_tradeoff", "plot_variant_effects"]


def _scale(effects: pd.DataFrame) -> tuple[float, str]:
    return (100.0, "percentage points") if (effects["unit"] == "rate").all() else (1.0, "points")


def plot_sweep(
    effects: pd.DataFrame, value: str, quantity: str = "seat1", ax: Axes | None = None, *, title: str | None = None
) -> Axes:
    """Effect on ``quantity`` against the swept ``value``, with its interval as a band.

    Required columns: ``quantity``, ``unit``, ``diff``, ``ci_low``, ``ci_high`` and ``value``
    (the swept value of each row; the baseline row has diff 0). Other swept values, when present
    as columns listed in ``effects.attrs["values"]``, split the rows into one line each.
    """
    require_columns(effects, ["quantity", "unit", "diff", "ci_low", "ci_high", value], "effects")
    rows = effects[effects["quantity"] == quantity]
    if rows.empty:
        raise ValueError(f"no effects on quantity {quantity!r}")
    scale, unit = _scale(rows)
    others = [c for c in effects.attrs.get("values", []) if c != value]
    ax = new_axes(ax, (6, 4))
    groups = rows.groupby(others, sort=True, dropna=False) if others else [((), rows)]
    numeric = pd.api.types.is_numeric_dtype(pd.to_numeric(rows[value], errors="coerce").dropna())
    numeric = numeric and pd.to_numeric(rows[value], errors="coerce").notna().all()
    categories = list(dict.fromkeys(rows[value].astype(str)))
    for key, part in groups:  # one line per combination of the other swept values: a few
        x = pd.to_numeric(part[value]) if numeric else part[value].astype(str).map(categories.index)
        order = np.argsort(np.asarray(x, dtype=float), kind="stable")
        xs = np.asarray(x, dtype=float)[order]
        label = ", ".join(f"{o}={k}" for o, k in zip(others, key if isinstance(key, tuple) else (key,), strict=False))
        line = ax.plot(xs, part["diff"].to_numpy()[order] * scale, marker="o", label=label or None)[0]
        ax.fill_between(
            xs,
            part["ci_low"].to_numpy()[order] * scale,
            part["ci_high"].to_numpy()[order] * scale,
            color=line.get_color(),
            alpha=0.2,
            linewidth=0,
        )
    if not numeric:
        ax.set_xticks(range(len(categories)), categories, rotation=30, ha="right")
    elif len(categories) <= 12:
        ax.set_xticks(sorted(pd.to_numeric(rows[value]).unique()))
    ax.axhline(0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel(value)
    ax.set_ylabel(f"change in {quantity} ({unit})")
    ax.set_title(title or f"{quantity} against {value}")
    if others:
        ax.legend(fontsize="small")
    return ax


def plot_effect_forest(
    effects: pd.DataFrame, quantity: str = "seat1", ax: Axes | None = None, *, title: str | None = None
) -> Axes:
    """Each variant's effect on ``quantity`` with its interval, largest first.

    Required columns: ``variant_name``, ``quantity``, ``unit``, ``diff``, ``ci_low``, ``ci_high``,
    ``significant``.
    """
    require_columns(effects, ["variant_name", "quantity", "unit", "diff", "ci_low", "ci_high", "significant"])
    rows = effects[effects["quantity"] == quantity]
    if rows.empty:
        raise ValueError(f"no effects on quantity {quantity!r}")
    rows = rows.iloc[np.argsort(-np.abs(rows["diff"].to_numpy()), kind="stable")][::-1]
    scale, unit = _scale(rows)
    ax = _interval_rows(new_axes(ax, (6, 0.8 + 0.35 * len(rows))), rows, rows["variant_name"], scale)
    ax.set_xlabel(f"change in {quantity} ({unit}); red: significant after correction")
    ax.set_title(title or f"Effect on {quantity}")
    return ax


def plot_variant_effects(
    effects: pd.DataFrame, unit: str = "rate", ax: Axes | None = None, *, title: str | None = None
) -> Axes:
    """One variant's effect on every quantity of ``unit`` (``"rate"`` or ``"points"``) with its interval.

    Required columns: ``subject``, ``unit``, ``diff``, ``ci_low``, ``ci_high``, ``significant``
    (the rows of one variant; seats first, as in the effects table).
    """
    require_columns(effects, ["subject", "unit", "diff", "ci_low", "ci_high", "significant"])
    rows = effects[effects["unit"] == unit][::-1]
    if rows.empty:
        raise ValueError(f"no effects in unit {unit!r}")
    scale, what = _scale(rows)
    ax = _interval_rows(new_axes(ax, (6, 0.8 + 0.4 * len(rows))), rows, rows["subject"], scale)
    ax.set_xlabel(f"change ({what}); red: significant after correction")
    ax.set_title(title or ("Change in win rates" if unit == "rate" else "Change in score margins"))
    return ax


def _interval_rows(ax: Axes, rows: pd.DataFrame, labels: pd.Series, scale: float) -> Axes:
    """One row per effect: ``diff`` with its interval, scaled, red where significant, and a zero line.

    The interval is ``adj_low``, ``adj_high`` when present (adjusted to the family of tests, so it
    excludes 0 exactly where the row is red), else ``ci_low``, ``ci_high``.
    """
    y = np.arange(len(rows))
    colors = np.where(rows["significant"].to_numpy(), "#c0392b", "#555555")
    low, high = ("adj_low", "adj_high") if {"adj_low", "adj_high"} <= set(rows.columns) else ("ci_low", "ci_high")
    ax.errorbar(
        rows["diff"] * scale,
        y,
        xerr=[(rows["diff"] - rows[low]) * scale, (rows[high] - rows["diff"]) * scale],
        fmt="none",
        ecolor=colors,
    )
    ax.scatter(rows["diff"] * scale, y, c=colors, zorder=3)
    ax.set_yticks(y, labels.astype(str))
    ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    return ax


def plot_tradeoff(
    evaluations: pd.DataFrame, ax: Axes | None = None, *, title: str | None = None, ylabel: str | None = None
) -> Axes:
    """Search trade-off: objective of every evaluated setting against how many values it changes.

    Required columns: ``objective``, ``num_changed``. Marked: the best objective with exactly k
    changed values; the line is the best with at most k (how much balance each further change buys).
    """
    require_columns(evaluations, ["objective", "num_changed"], "evaluations")
    ax = new_axes(ax, (6, 4))
    ax.scatter(evaluations["num_changed"], evaluations["objective"], alpha=0.4, s=14, label="evaluated settings")
    best = evaluations.groupby("num_changed")["objective"].min().sort_index()
    ax.step(best.index, best.cummin().to_numpy(), where="post", color="#c0392b", label="best with at most k changes")
    ax.scatter(best.index, best.to_numpy(), color="#c0392b", zorder=3, label="best with exactly k changes")
    ax.set_xticks(range(int(evaluations["num_changed"].max()) + 1))
    ax.set_xlabel("k: values changed from the current data")
    ax.set_ylabel(ylabel or "objective (lower is better)")
    ax.set_title(title or "Trade-off: balance against size of the change")
    ax.legend(fontsize="small")
    return ax


def plot_search_history(
    evaluations: pd.DataFrame, ax: Axes | None = None, *, title: str | None = None, ylabel: str | None = None
) -> Axes:
    """Objective of each evaluation in order, with the best so far. Required columns: ``objective``."""
    require_columns(evaluations, ["objective"], "evaluations")
    ax = new_axes(ax, (6, 4))
    x = np.arange(1, len(evaluations) + 1)
    ax.scatter(x, evaluations["objective"], s=10, alpha=0.5, label="evaluation")
    ax.plot(x, evaluations["objective"].cummin(), color="#c0392b", label="best so far")
    ax.set_xlabel("evaluation")
    ax.set_ylabel(ylabel or "objective (lower is better)")
    ax.set_title(title or "Search progress")
    ax.legend(fontsize="small")
    return ax
