"""Convergence: how seat estimates and their intervals narrow as games accumulate, and how many
more games an open question needs.

:func:`games_needed` answers "how many games until this interval excludes the fair share?" from
the current effect size, with the normal approximation of a one-sample test on Cohen's h
(proportions) or d (margins): N = ((z_{1-alpha/2} + z_power) / effect)^2. With ``power=0.5``
that is the count at which the interval is *expected* to just exclude the fair value if the
current estimate is the truth; 0.8 is the conventional planning power. Estimates close to fair
make N explode, which is the honest answer: the question may be unresolvable at any budget.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.proportion import proportion_effectsize

from analysis.stats._util import check_alpha, mirror_mask, require_columns, seat_margins, wilson_confint

__all__ = ["MAX_PLANNABLE_GAMES", "convergence", "games_needed", "games_to_settle", "more_games_text"]

_NEGLIGIBLE = 1e-9  # effect sizes below this are rounding noise around the fair value

MAX_PLANNABLE_GAMES = 10_000_000
"""More games than this for one lineup is no plan: at this size the difference is effectively undetectable."""


def convergence(
    seats: pd.DataFrame,
    lineup: str = "mirror",
    alpha: float = 0.05,
    num_points: int = 30,
    min_games: int = 50,
) -> pd.DataFrame:
    """Seat win rates and margins with intervals over the first N games, N growing geometrically.

    Required columns: ``game``, ``num_players``, ``seat``, ``bot``, ``score``, ``win``.
    Games are taken in ``game`` order (the run's order); ``lineup`` is as in
    :func:`analysis.stats.seats.seat_advantage` (``"mirror"`` or ``"all"``).

    Returns one row per ``num_players``, ``seat`` and checkpoint: ``num_games``, ``win_rate``,
    ``ci_low``, ``ci_high`` (Wilson), ``width``, ``fair``, ``margin`` (mean score margin,
    points), ``margin_low``, ``margin_high`` (normal interval), ``margin_width``.
    """
    check_alpha(alpha)
    if lineup not in ("mirror", "all"):
        raise ValueError(f"lineup must be 'mirror' or 'all', got {lineup!r}")
    require_columns(seats, ["game", "num_players", "seat", "bot", "score", "win"], "seats")
    margin = seat_margins(seats)
    mask = mirror_mask(seats) if lineup == "mirror" else np.ones(len(seats), dtype=bool)
    frame = pd.DataFrame(
        {
            "game": seats["game"].to_numpy()[mask],
            "num_players": seats["num_players"].to_numpy()[mask],
            "seat": seats["seat"].to_numpy()[mask],
            "win": seats["win"].to_numpy(dtype=float)[mask],
            "margin": margin[mask],
        }
    )
    z = stats.norm.ppf(1 - alpha / 2)
    parts = []
    for (num_players, seat), part in frame.groupby(["num_players", "seat"], sort=True):  # few groups
        order = np.argsort(part["game"].to_numpy(), kind="stable")
        win = part["win"].to_numpy()[order]
        m = np.nan_to_num(part["margin"].to_numpy()[order])
        total = len(win)
        if total == 0:
            continue
        start = min(min_games, total)
        checkpoints = np.unique(np.geomspace(start, total, num=max(num_points, 2)).round().astype(np.int64))
        idx = checkpoints - 1
        wins = np.cumsum(win)[idx]
        m_sum, m_sq = np.cumsum(m)[idx], np.cumsum(m * m)[idx]
        m_mean = m_sum / checkpoints
        with np.errstate(divide="ignore", invalid="ignore"):
            m_sd = np.sqrt(np.maximum(m_sq - checkpoints * m_mean**2, 0) / (checkpoints - 1))
        half = z * m_sd / np.sqrt(checkpoints)
        low, high = wilson_confint(wins, checkpoints, alpha)
        parts.append(
            pd.DataFrame(
                {
                    "num_players": num_players,
                    "seat": seat,
                    "num_games": checkpoints,
                    "win_rate": wins / checkpoints,
                    "ci_low": low,
                    "ci_high": high,
                    "width": high - low,
                    "fair": 1.0 / float(num_players),
                    "margin": m_mean,
                    "margin_low": m_mean - half,
                    "margin_high": m_mean + half,
                    "margin_width": 2 * half,
                }
            )
        )
    columns = [
        "num_players",
        "seat",
        "num_games",
        "win_rate",
        "ci_low",
        "ci_high",
        "width",
        "fair",
        "margin",
        "margin_low",
        "margin_high",
        "margin_width",
    ]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)


def games_needed(table: pd.DataFrame, alpha: float = 0.05, power: float = 0.5) -> pd.DataFrame:
    """How many games until each win rate's interval excludes its fair share, at the current effect.

    Required columns: ``num_games``, ``win_rate``, ``fair`` (e.g. the output of
    :func:`analysis.stats.seats.win_rates` or ``seat_advantage(...).table``). Optional: ``ci_low``,
    ``ci_high`` (to mark rows already resolved) and ``margin``, ``margin_sd`` (adds the same for
    the score margin against 0).

    Returns a copy of ``table`` with ``effect_size`` (Cohen's h of win_rate against fair),
    ``games_needed`` (total games), ``more_games`` (beyond ``num_games``, 0 if none),
    ``resolved`` (the interval already excludes fair) and ``note`` (a plain sentence); with
    margins also ``margin_effect_size`` (Cohen's d), ``margin_games_needed``,
    ``margin_more_games``.
    """
    check_alpha(alpha)
    if not 0 < power < 1:
        raise ValueError(f"power must be in (0, 1), got {power}")
    require_columns(table, ["num_games", "win_rate", "fair"], "table")
    out = table.copy()
    crit = stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power)
    h = np.asarray(proportion_effectsize(out["win_rate"].to_numpy(float), out["fair"].to_numpy(float)))
    h = np.where(np.abs(h) < _NEGLIGIBLE, 0.0, h)
    with np.errstate(divide="ignore"):
        needed = np.ceil((crit / np.abs(h)) ** 2)
    out["effect_size"] = h
    out["games_needed"] = needed
    out["more_games"] = np.maximum(needed - out["num_games"].to_numpy(float), 0)
    if {"ci_low", "ci_high"} <= set(out.columns):
        resolved = (out["ci_low"] > out["fair"]) | (out["ci_high"] < out["fair"])
    else:
        se = np.sqrt(out["win_rate"] * (1 - out["win_rate"]) / out["num_games"])
        resolved = (out["win_rate"] - out["fair"]).abs() > stats.norm.ppf(1 - alpha / 2) * se
    out["resolved"] = resolved.to_numpy(dtype=bool)
    if {"margin", "margin_sd"} <= set(out.columns):
        d = out["margin"].to_numpy(float) / out["margin_sd"].to_numpy(float)
        d = np.where(np.abs(d) < _NEGLIGIBLE, 0.0, d)
        with np.errstate(divide="ignore", invalid="ignore"):
            m_needed = np.ceil((crit / np.abs(d)) ** 2)
        out["margin_effect_size"] = d
        out["margin_games_needed"] = m_needed
        out["margin_more_games"] = np.maximum(m_needed - out["num_games"].to_numpy(float), 0)
    if "seat" in out.columns:
        label = out["seat"].map(lambda s: f"seat {s}")
    elif "bot" in out.columns:
        label = out["bot"].astype(str)
    else:
        label = pd.Series("this rate", index=out.index)
    notes = []
    for name, rate, fair, done, more in zip(
        label, out["win_rate"], out["fair"], out["resolved"], out["more_games"], strict=True
    ):  # one sentence per row of a small table
        if done:
            notes.append(f"{name}: resolved, the interval excludes the fair {100 * fair:.1f}%")
        elif not np.isfinite(more) or more > MAX_PLANNABLE_GAMES:
            notes.append(f"{name}: {more_games_text(more)}")
        else:
            notes.append(
                f"{name}: about {int(more):,} more games for the interval to exclude the fair "
                f"{100 * fair:.1f}% if the rate stays at {100 * rate:.1f}%"
            )
    out["note"] = notes
    return out


def games_to_settle(diff: np.ndarray, half: np.ndarray, num_games: np.ndarray, precision: float) -> np.ndarray:
    """More games an unresolved effect needs, if its estimate and spread stay as measured: the fewer of what it takes
    to detect it (the interval's half-width below the effect, ``n ((h / |d|)^2 - 1)``) and what it takes to settle it
    within ``precision`` of 0 (the half-width below ``precision - |d|``); never below 0, infinite when neither can
    happen. ``diff`` the effects, ``half`` their intervals' half-widths, ``num_games`` the games they are from."""
    diff, half, n = (np.abs(np.asarray(x, dtype=float)) for x in (diff, half, num_games))
    with np.errstate(invalid="ignore", divide="ignore"):
        detect = np.where(diff > 0, (half / diff) ** 2, np.inf)
        settle = np.where(diff < precision, (half / (precision - diff)) ** 2, np.inf)
        more = np.ceil(n * (np.minimum(detect, settle) - 1))
    return np.where(np.isfinite(more), np.maximum(more, 0), np.inf)


ROUGH_GAMES = 100_000
"""Above this many more games a count is said as its order of magnitude: a planning figure, not a measurement."""


FEWEST_GAMES = 10
"""The fewest more games :func:`more_games_text` names."""


def more_games_text(more: float) -> str:
    """How many more games a question needs, in words a designer reads as an estimate: up to :data:`ROUGH_GAMES`
    the count to two significant figures ("2,400 more games"), up to :data:`MAX_PLANNABLE_GAMES` its order of
    magnitude ("10 million more games, as an order of magnitude: unresolved at this size", never "7,678,837"), beyond it
    "more than 10 million more games: effectively no detectable difference at this size". Never fewer than
    :data:`FEWEST_GAMES`: the estimate is not finer than that (an interval a hair wider than its target reads "10 more
    games", not "1 more games").

    Examples
    --------
    >>> more_games_text(2_401), more_games_text(7_678_837)
    ('2,400 more games', '10 million more games, as an order of magnitude: unresolved at this size')
    """
    if np.isfinite(more) and more <= ROUGH_GAMES:
        return f"{int(float(f'{max(more, FEWEST_GAMES):.2g}')):,} more games"
    if np.isfinite(more) and more <= MAX_PLANNABLE_GAMES:
        order = 10 ** round(np.log10(more))
        words = f"{order / 1e6:g} million" if order >= 1e6 else f"{order:,}"
        return f"{words} more games, as an order of magnitude: unresolved at this size"
    return (
        f"more than {MAX_PLANNABLE_GAMES / 1e6:g} million more games: effectively no detectable difference at this size"
    )
