"""Win rates by seat and bot, and the first-player (seat) advantage with a plain-language verdict.

Inputs are run-format ``seats`` tables (docs/run-format.md). Ties are already fractional in
``win`` (1/k for each of k players sharing a win), so win counts below may be fractional and
the wins of a game always sum to 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from analysis.stats._util import (
    bootstrap_mean_confint,
    check_alpha,
    ensure_rng,
    format_pvalue,
    interval_digits,
    mirror_mask,
    require_columns,
    seat_margins,
    wilson_confint,
)

__all__ = [
    "SeatAdvantage",
    "add_margins",
    "seat_advantage",
    "seat_balance",
    "seat_wald_test",
    "win_rates",
    "win_rates_from_counts",
]

# Largest relative spread of a bot's seat counts for seats to count as evenly rotated.
_BALANCE_TOLERANCE = 0.02


def add_margins(seats: pd.DataFrame) -> pd.DataFrame:
    """Copy of ``seats`` with ``margin``: score minus the mean of the other seats' scores that game.

    Required columns: ``game``, ``score``.
    """
    return seats.assign(margin=seat_margins(seats))


def win_rates(seats: pd.DataFrame, by: str | Sequence[str] = "seat", alpha: float = 0.05) -> pd.DataFrame:
    """Win rates with Wilson intervals, grouped by player count and ``by``.

    Required columns: ``num_players``, ``win`` and the ``by`` columns (e.g. ``"seat"``,
    ``"bot"`` or ``["bot", "seat"]``).

    Returns one row per group: ``num_players``, the ``by`` columns, ``num_games`` (seat rows in
    the group: games for a seat; seat-games for a bot, so a mirror match counts n times),
    ``wins`` (fractional with shared ties), ``win_rate``, ``ci_low``, ``ci_high`` (Wilson,
    level ``1 - alpha``), ``fair`` (1 / num_players; NaN for solo games, where the win is against
    the game's own opponent and there is no fair share) and ``excess`` (win_rate - fair).
    """
    check_alpha(alpha)
    by_cols = [by] if isinstance(by, str) else list(by)
    require_columns(seats, ["num_players", "win", *by_cols], "seats")
    keys = ["num_players", *[c for c in by_cols if c != "num_players"]]
    frame = seats[keys].assign(win=seats["win"].to_numpy(dtype=float))
    counts = frame.groupby(keys, observed=True, sort=True)["win"].agg(num_games="size", wins="sum").reset_index()
    return win_rates_from_counts(counts, alpha)


def _fair_share(num_players: pd.Series) -> np.ndarray:
    """1/n for n-player games; NaN for solo games, whose win (against the game's own opponent,
    such as an Automa) has no fair share to be judged against."""
    n = num_players.to_numpy(dtype=float)
    return np.where(n >= 2, 1.0 / n, np.nan)


def win_rates_from_counts(counts: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """:func:`win_rates` from seat rows already counted per group.

    Required columns: ``num_players``, ``num_games`` (seat rows in the group) and ``wins``; the
    other columns are the groups. Returns them with the columns :func:`win_rates` adds.
    """
    check_alpha(alpha)
    require_columns(counts, ["num_players", "num_games", "wins"], "counts")
    out = counts.copy()
    out["win_rate"] = out["wins"] / out["num_games"]
    out["ci_low"], out["ci_high"] = wilson_confint(out["wins"], out["num_games"], alpha)
    out["fair"] = _fair_share(out["num_players"])
    out["excess"] = out["win_rate"] - out["fair"]
    return out


def seat_balance(seats: pd.DataFrame) -> pd.DataFrame:
    """How evenly each bot is spread over the seats (the point of rotating the lineup).

    Required columns: ``num_players``, ``bot``, ``seat``.

    Returns one row per ``num_players`` and ``bot``: ``num_seat_games`` and ``imbalance``, the
    spread of its seat counts, (max - min) / mean over seats; 0 when perfectly rotated.
    """
    require_columns(seats, ["num_players", "bot", "seat"], "seats")
    counts = seats.groupby(["num_players", "bot", "seat"], observed=True).size().unstack("seat")
    rows = []
    for (num_players, bot), row in counts.iterrows():  # one row per (player count, bot): a few
        per_seat = row.reindex(range(1, int(num_players) + 1)).fillna(0).to_numpy(dtype=float)
        rows.append(
            {
                "num_players": num_players,
                "bot": bot,
                "num_seat_games": int(per_seat.sum()),
                "imbalance": float((per_seat.max() - per_seat.min()) / per_seat.mean()),
            }
        )
    return pd.DataFrame(rows, columns=["num_players", "bot", "num_seat_games", "imbalance"])


def seat_wald_test(game: np.ndarray, seat: np.ndarray, win: np.ndarray, num_players: int) -> tuple[float, int, float]:
    """Wald test that every seat's expected share of the win is 1 / ``num_players``.

    ``game``, ``seat`` (1..n) and ``win`` are parallel arrays, n rows per game. The per-game win
    vectors sum to 1, so the test uses their first n - 1 seats: Hotelling's one-sample T^2 with
    the vectors' sample covariance, which counts a shared tie as the small deviation it is
    (Pearson's chi-square on the win counts treats every win as a multinomial draw and is
    conservative when ties are shared). Returns ``(t2, df, pvalue)``, the p-value from
    F(df, G - df) (G games); a seat whose share never varies but differs from 1/n gives an
    infinite statistic and p = 0. NaN when there is nothing to test (n < 2, fewer than n + 1
    games, or incomplete games).

    References
    ----------
    Hotelling, H. (1931). The generalization of Student's ratio. *Annals of Mathematical
    Statistics* 2.
    """
    n = int(num_players)
    if n < 2 or len(win) % n or len(win) < n * (n + 1):
        return np.nan, n - 1, np.nan
    same = game[1:] == game[:-1]
    in_order = np.all(game[1:] >= game[:-1]) and np.all(seat[1:][same] > seat[:-1][same])
    order = slice(None) if in_order else np.lexsort((seat, game))
    if not np.array_equal(seat[order].reshape(-1, n), np.broadcast_to(np.arange(1, n + 1), (len(win) // n, n))):
        return np.nan, n - 1, np.nan
    shares = np.asarray(win, dtype=float)[order].reshape(-1, n)[:, : n - 1]
    num_games = len(shares)
    deviation = shares.mean(axis=0) - 1.0 / n
    cov = np.atleast_2d(np.cov(shares, rowvar=False))
    df = int(np.linalg.matrix_rank(cov))
    solved = np.linalg.pinv(cov) @ deviation
    if not np.allclose(cov @ solved, deviation, atol=1e-12):  # a deviation no game ever varies in
        return np.inf, n - 1, 0.0
    if df == 0:
        return 0.0, n - 1, 1.0
    t2 = float(num_games * deviation @ solved)
    pvalue = float(stats.f.sf(t2 * (num_games - df) / (df * (num_games - 1)), df, num_games - df))
    return t2, df, pvalue


class SeatAdvantage(NamedTuple):
    """Result of :func:`seat_advantage`; unpacks as ``table, tests, verdict``."""

    table: pd.DataFrame
    """Per ``num_players`` and ``seat``: ``num_games``, ``wins``, ``win_rate``, ``ci_low``,
    ``ci_high`` (Wilson), ``fair``, ``excess``, ``margin`` (mean score margin, in score units),
    ``margin_low``, ``margin_high`` (bootstrap percentile interval), ``margin_sd``."""
    tests: pd.DataFrame
    """Per ``num_players``: ``lineup``, ``num_games``, ``chi2`` (Wald chi-square, Hotelling's T^2,
    of the mean per-game win vector against 1/n each), ``df``, ``pvalue``, ``significant``,
    ``max_imbalance`` (see :func:`seat_balance`), ``balanced``."""
    verdict: str
    """One plain-language sentence per player count."""


def seat_advantage(
    seats: pd.DataFrame,
    lineup: str = "mirror",
    alpha: float = 0.05,
    num_resamples: int = 2000,
    random_state: int | np.random.Generator | None = 0,
    unit: str = "points",
) -> SeatAdvantage:
    """First-player (seat) advantage: win rates against the fair share and score margins by seat.

    Required columns: ``game``, ``num_players``, ``seat``, ``bot``, ``score``, ``win``.

    ``lineup="mirror"`` keeps only mirror matches (every seat the same bot), where any seat
    difference is the game's. ``lineup="all"`` uses every game; this is only a seat effect
    when the bots are rotated evenly over the seats (``tests.balanced``), otherwise seat and bot
    strength are confounded and the verdict says so.

    The margin of a seat is its score minus the mean score of the other seats in the game; its
    interval resamples games (percentile bootstrap, ``num_resamples`` resamples, exact and fast
    for integer scores, see ``analysis.stats._util.bootstrap_mean_confint``). The test is a Wald test
    that the mean per-game win vector (each seat's share of the win, 1/k each in a k-way shared
    tie) is 1/n for every seat, using the sample covariance of the vectors (Hotelling's one-sample
    T^2 on the first n - 1 seats, F-distributed p-value; :func:`seat_wald_test`), so its size
    stays nominal however many ties are shared. ``unit`` names what a score counts in the verdict
    (``"points"``, ``"chips"``).

    Examples
    --------
    >>> table, tests, verdict = seat_advantage(seats)  # doctest: +SKIP
    >>> print(verdict)  # doctest: +SKIP
    seat 1 wins 36.1% (35.8-36.4) of 3-player games against a fair 33.3% ...

    See Also
    --------
    win_rates, seat_balance, analysis.stats.convergence.games_needed
    """
    check_alpha(alpha)
    if lineup not in ("mirror", "all"):
        raise ValueError(f"lineup must be 'mirror' or 'all', got {lineup!r}")
    require_columns(seats, ["game", "num_players", "seat", "bot", "score", "win"], "seats")
    rng = ensure_rng(random_state)
    margin = seat_margins(seats)
    mask = mirror_mask(seats) if lineup == "mirror" else np.ones(len(seats), dtype=bool)
    sub = pd.DataFrame(
        {
            "game": seats["game"].to_numpy()[mask],
            "num_players": seats["num_players"].to_numpy()[mask],
            "seat": seats["seat"].to_numpy()[mask],
            "win": seats["win"].to_numpy(dtype=float)[mask],
            "margin": margin[mask],
        }
    )
    keys = ["num_players", "seat"]
    grouped = sub.groupby(keys, sort=True)
    table = grouped.agg(
        num_games=("win", "size"),
        wins=("win", "sum"),
        margin=("margin", "mean"),
        margin_sd=("margin", "std"),
    ).reset_index()
    table["win_rate"] = table["wins"] / table["num_games"]
    table["ci_low"], table["ci_high"] = wilson_confint(table["wins"], table["num_games"], alpha)
    table["fair"] = _fair_share(table["num_players"])
    table["excess"] = table["win_rate"] - table["fair"]
    bounds = [
        bootstrap_mean_confint(values.to_numpy(), alpha, num_resamples, rng)
        for _, values in grouped["margin"]  # one group per (player count, seat)
    ]
    table["margin_low"] = [b[0] for b in bounds] if bounds else []
    table["margin_high"] = [b[1] for b in bounds] if bounds else []
    table = table[
        [
            "num_players",
            "seat",
            "num_games",
            "wins",
            "win_rate",
            "ci_low",
            "ci_high",
            "fair",
            "excess",
            "margin",
            "margin_low",
            "margin_high",
            "margin_sd",
        ]
    ]

    if lineup == "all":
        balance = seat_balance(seats).groupby("num_players")["imbalance"].max()
    else:
        balance = pd.Series(0.0, index=table["num_players"].unique())
    test_rows = []
    for num_players, part in table.groupby("num_players", sort=True):  # a few player counts
        n = int(num_players)
        rows = (sub["num_players"] == num_players).to_numpy()
        chi2, df, pvalue = seat_wald_test(
            sub["game"].to_numpy()[rows], sub["seat"].to_numpy()[rows], sub["win"].to_numpy()[rows], n
        )
        imbalance = float(balance.get(num_players, np.nan))
        test_rows.append(
            {
                "num_players": num_players,
                "lineup": lineup,
                "num_games": int(part["num_games"].max()),
                "chi2": float(chi2),
                "df": df,
                "pvalue": float(pvalue),
                "significant": bool(pvalue < alpha),
                "max_imbalance": imbalance,
                "balanced": bool(imbalance <= _BALANCE_TOLERANCE),
            }
        )
    tests = pd.DataFrame(
        test_rows,
        columns=[
            "num_players",
            "lineup",
            "num_games",
            "chi2",
            "df",
            "pvalue",
            "significant",
            "max_imbalance",
            "balanced",
        ],
    )
    return SeatAdvantage(table, tests, _verdict(table, tests, alpha, unit))


def _pct(x: float) -> str:
    return f"{100 * x:.1f}"


def _pct_ci(rate: float, low: float, high: float) -> str:
    """'48.1% (47.8-48.4)', with more decimals where the interval's ends would print alike."""
    d = interval_digits(100 * low, 100 * high)
    return f"{100 * rate:.{d}f}% ({100 * low:.{d}f}-{100 * high:.{d}f})"


def _verdict(table: pd.DataFrame, tests: pd.DataFrame, alpha: float, unit: str) -> str:
    if table.empty:
        return "no games to judge (no mirror matches?)"
    sentences = []
    level = f"{100 * (1 - alpha):g}%"
    for test in tests.itertuples(index=False):
        part = table[table["num_players"] == test.num_players].set_index("seat")
        n = int(test.num_players)
        first = part.loc[part.index.min()]
        seat1 = int(part.index.min())
        text = (
            f"seat {seat1} wins {_pct_ci(first.win_rate, first.ci_low, first.ci_high)} "
            f"of {n}-player games against a fair {_pct(first.fair)}%"
        )
        if np.isfinite(first.margin):
            d = interval_digits(first.margin_low, first.margin_high)
            text += (
                f" and scores {first.margin:+.{d}f} {unit} ({first.margin_low:+.{d}f} to "
                f"{first.margin_high:+.{d}f}) against {'the other seat' if n == 2 else 'the mean of the other seats'}"
            )
        kind = "mirror matches" if test.lineup == "mirror" else "games"
        stat = f"Wald chi-square {test.chi2:.1f}, {test.df} df, {format_pvalue(test.pvalue)}; {test.num_games:,} {kind}"
        if test.significant:
            best = part["excess"].idxmax()
            worst = part["excess"].idxmin()
            text += f"; the seats are not balanced ({stat})"
            extremes = [(s, label) for s, label in ((best, "strongest"), (worst, "weakest")) if s != seat1]
            if extremes:
                text += "; " + ", ".join(
                    f"seat {s} (the {label}) wins "
                    f"{_pct_ci(part.loc[s, 'win_rate'], part.loc[s, 'ci_low'], part.loc[s, 'ci_high'])}"
                    for s, label in extremes
                )
        else:
            text += f"; no seat advantage detected at {level} confidence ({stat})"
        if test.lineup == "all" and not test.balanced:
            text += (
                f"; caution: bots are not rotated evenly over seats (imbalance {test.max_imbalance:.2f}),"
                " so seat and bot strength are confounded"
            )
        sentences.append(text + ".")
    return " ".join(sentences)
