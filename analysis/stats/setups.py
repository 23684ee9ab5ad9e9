"""Setup variance: how much of a seat's outcome the setup decides, which setups are (un)balanced,
and which setup features shift the seat advantage.

Runs that replay each setup several times share a ``setup_id`` between games. For one seat the
per-game outcome is its score margin (score minus the mean of the other seats, points) or its
win minus the fair share 1/n. A one-way random-effects ANOVA over setups splits the outcome's
variance into between-setup and within-setup parts; their ratio is the intraclass correlation
ICC(1) (Shrout and Fleiss 1979), with the exact F-distribution interval of Searle (1971) for
balanced normal data (approximate otherwise, using the usual n0 for unequal replays).

References
----------
Searle, S. R. (1971). *Linear Models*, ch. 9. Wiley.
Searle, S. R., Casella, G. and McCulloch, C. E. (1992). *Variance Components*, sections 4.3 and 4.7 (balanced
nested designs: ANOVA estimators, equal to REML's when none is negative). Wiley.
Field, C. A. and Welsh, A. H. (2007). Bootstrapping clustered data. *JRSS B* 69 (resampling the top level).
Shrout, P. E. and Fleiss, J. L. (1979). Intraclass correlations. *Psychological Bulletin* 86.
Benjamini, Y. and Yekutieli, D. (2005). False discovery rate-adjusted multiple confidence
intervals for selected parameters. *JASA* 100.

With a nested design (openings > hidden deck orders > play seeds, the runner's ``orders_per_opening``) the outcome's
variance splits three ways, see :func:`setup_components`; :func:`opening_decides` is the designer's number for the
public opening alone, beside :func:`deal_decides` for the whole deal.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from analysis.stats._util import (
    check_alpha,
    constant_confint,
    game_codes,
    multiple_tests,
    require_columns,
    seat_margins,
    t_confint,
    welch,
)

__all__ = [
    "OUTCOMES",
    "deal_decides",
    "opening_decides",
    "setup_balance",
    "setup_components",
    "setup_feature_effects",
    "setup_variance",
]

OUTCOMES = ("margin", "win")
"""Per-game seat outcomes: ``margin`` (points over the other seats' mean) and ``win`` (win - 1/n)."""

_SEATS_COLUMNS = ["game", "setup_id", "num_players", "seat", "score", "win"]


def _outcome_frame(seats: pd.DataFrame, outcomes: Sequence[str]) -> pd.DataFrame:
    bad = [o for o in outcomes if o not in OUTCOMES]
    if bad:
        raise ValueError(f"unknown outcome(s) {bad}; choose from {OUTCOMES}")
    require_columns(seats, _SEATS_COLUMNS, "seats")
    frame = pd.DataFrame(
        {
            "setup_id": seats["setup_id"].to_numpy(),
            "num_players": seats["num_players"].to_numpy(),
            "seat": seats["seat"].to_numpy(),
        }
    )
    if "margin" in outcomes:
        frame["margin"] = seat_margins(seats)
    if "win" in outcomes:
        frame["win"] = seats["win"].to_numpy(dtype=float) - 1.0 / seats["num_players"].to_numpy(dtype=float)
    return frame


def _group_sums(setup_id: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per setup (present ones only): ids, counts, sums and sums of squares of ``y``, centred."""
    ok = np.isfinite(y)
    setup_id, y = setup_id[ok], y[ok]
    codes, num_codes = game_codes(setup_id)
    count = np.bincount(codes, minlength=num_codes)
    present = count > 0
    first = np.zeros(num_codes, dtype=setup_id.dtype)
    first[codes[::-1]] = setup_id[::-1]
    total = np.bincount(codes, weights=y, minlength=num_codes)
    square = np.bincount(codes, weights=y * y, minlength=num_codes)
    return first[present], count[present], total[present], square[present]


def _anova(count: np.ndarray, total: np.ndarray, square: np.ndarray, alpha: float) -> dict[str, float]:
    k = len(count)
    num = float(count.sum())
    grand = total.sum() / num if num else np.nan
    # Centre on the grand mean before squaring: sum((y - g)^2) = sum(y^2) - 2 g sum(y) + n g^2.
    ss_total = float(square.sum() - num * grand**2) if num else np.nan
    ss_between = float(np.sum(total**2 / count) - num * grand**2) if num else np.nan
    ss_within = max(ss_total - ss_between, 0.0)
    df_b, df_w = k - 1, num - k
    out = {
        "num_setups": k,
        "num_games": int(num),
        "games_per_setup": np.nan,
        "mean": grand,
        "var_between": np.nan,
        "var_within": np.nan,
        "sd_between": np.nan,
        "icc": np.nan,
        "icc_low": np.nan,
        "icc_high": np.nan,
        "f_stat": np.nan,
        "df_between": df_b,
        "df_within": df_w,
        "pvalue": np.nan,
        "replays_identical": False,
    }
    if df_b < 1 or df_w < 1:
        return out
    n0 = (num - np.sum(count.astype(float) ** 2) / num) / df_b
    ms_b, ms_w = ss_between / df_b, ss_within / df_w
    var_b = (ms_b - ms_w) / n0
    out.update(games_per_setup=n0, var_between=var_b, var_within=ms_w, sd_between=np.sqrt(max(var_b, 0.0)))
    if ms_w <= 0:
        # every replay of a setup gave the same outcome: the players add no randomness (deterministic bots,
        # e.g. epsilon 0), so the setup and seating decide everything: ICC 1 exactly, not a NaN
        if ms_b > 0:
            out.update(icc=1.0, icc_low=1.0, icc_high=1.0, replays_identical=True)
        return out
    f = ms_b / ms_w
    f_low = f / stats.f.ppf(1 - alpha / 2, df_b, df_w)
    f_high = f / stats.f.ppf(alpha / 2, df_b, df_w)
    out.update(
        f_stat=f,
        pvalue=float(stats.f.sf(f, df_b, df_w)),
        icc=(f - 1) / (f + n0 - 1),
        icc_low=(f_low - 1) / (f_low + n0 - 1),
        icc_high=(f_high - 1) / (f_high + n0 - 1),
    )
    return out


def setup_variance(seats: pd.DataFrame, outcomes: Sequence[str] = OUTCOMES, alpha: float = 0.05) -> pd.DataFrame:
    """Between- and within-setup variance of each seat's outcome, and the ICC with its interval.

    Required columns: ``game``, ``setup_id``, ``num_players``, ``seat``, ``score``, ``win``.

    Returns one row per ``num_players``, ``seat`` and ``outcome`` (``"margin"``: score margin in
    points; ``"win"``: win - 1/n): ``num_setups``, ``num_games``, ``games_per_setup`` (n0, the
    effective replays per setup), ``mean``, ``var_between`` and ``var_within`` (ANOVA variance
    components; ``var_between`` may be negative by chance), ``sd_between`` (typical shift a setup
    gives, outcome units), ``icc`` (share of the outcome's variance that the setup decides),
    ``icc_low``, ``icc_high`` (Searle F interval, level ``1 - alpha``), ``f_stat``,
    ``df_between``, ``df_within``, ``pvalue`` (F test of no setup effect), ``share_players`` (1 - ICC:
    the share left to the players' own randomness, what differs between replays of the same setup with
    other play seeds) and ``replays_identical`` (every replay of each setup gave the same outcome: the bots
    are deterministic, e.g. at epsilon 0, so the ICC is exactly 1 and has no interval to estimate; a
    ``RuntimeWarning`` says so). ICC columns are NaN when no setup is replayed.
    """
    check_alpha(alpha)
    frame = _outcome_frame(seats, outcomes)
    rows = []
    for (num_players, seat), part in frame.groupby(["num_players", "seat"], sort=True):  # few groups
        setup_id = part["setup_id"].to_numpy()
        for outcome in outcomes:
            _, count, total, square = _group_sums(setup_id, part[outcome].to_numpy())
            rows.append(
                {"num_players": num_players, "seat": seat, "outcome": outcome} | _anova(count, total, square, alpha)
            )
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out["share_players"] = 1.0 - out["icc"]
    if out["replays_identical"].any():
        warnings.warn(
            "every replay of a setup gave the same outcome: the bots are deterministic (e.g. epsilon 0), so "
            "replays are identical and the setup and seating decide everything (ICC 1, no interval); let the bots "
            "randomise to separate the setup from the players' own randomness",
            RuntimeWarning,
            stacklevel=2,
        )
    return out


COMPONENTS = ("opening", "order", "players")
"""Variance components of a nested design: the public opening, the hidden order given the opening, and the players'
own randomness given the whole setup (the same setup replayed with other play seeds)."""

_BOOTSTRAP_CELLS = 4_000_000
"""Resampled openings per bootstrap batch: bounds the memory of a large study's intervals (about 100 MB)."""

_NESTED_COLUMNS = ["game", "opening_id", "setup_id", "num_players", "seat", "score", "win"]


def _opening_sums(opening: np.ndarray, setup: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, ...] | None:
    """Per complete opening of the balanced design: its mean, the sum of squares of its order means about it (times
    the plays per order) and the sum of squares of its plays about their order means; with the orders per opening and
    plays per order. None when fewer than two openings, orders or plays remain.

    Openings not of the design's modal shape (a partial last opening, a NaN outcome) are left out, so the design is
    balanced. Plays are centred on their order's first play before squaring, so identical replays give exactly 0.
    """
    frame = pd.DataFrame({"opening": opening, "setup": setup, "y": y})
    first = frame.groupby("setup", sort=False)["y"].transform("first").to_numpy()
    frame["d"] = frame["y"].to_numpy() - first
    frame["d2"] = frame["d"] ** 2
    cells = frame.groupby(["opening", "setup"], sort=True).agg(
        size=("y", "size"), count=("y", "count"), d=("d", "sum"), d2=("d2", "sum"), mean=("y", "mean")
    )
    plays = int(cells["size"].mode().iloc[0])
    per_opening = cells.groupby(level=0).agg(orders=("size", "size"), ok=("count", lambda c: bool((c == plays).all())))
    orders = int(per_opening["orders"].mode().iloc[0])
    keep = per_opening.index[per_opening["ok"].to_numpy() & (per_opening["orders"].to_numpy() == orders)]
    cells = cells[cells.index.get_level_values(0).isin(keep)]
    if len(keep) < 2 or orders < 2 or plays < 2:
        return None
    within = (cells["d2"] - cells["d"] ** 2 / plays).clip(lower=0.0)
    order_mean = cells["mean"].to_numpy().reshape(len(keep), orders)
    mean = order_mean.mean(axis=1)
    between = plays * ((order_mean - mean[:, None]) ** 2).sum(axis=1)
    return mean, between, within.to_numpy().reshape(len(keep), orders).sum(axis=1), orders, plays


def _nested_estimates(
    mean: np.ndarray, between: np.ndarray, within: np.ndarray, orders: int, plays: int, axis: int = -1
) -> np.ndarray:
    """ANOVA estimates of the three components and their shares of the total (the sum of the three), none clipped, from
    per-opening sums (any leading axes: the bootstrap's resamples). Clipping each component at 0 before the shares
    (and so before the bootstrap) would bias every share interval away from its edges: with no setup effect the
    players' share would exclude 100% far more often than the interval's level allows."""
    num = mean.shape[axis]
    ms_opening = orders * plays * np.var(mean, axis=axis, ddof=1)
    ms_order = between.sum(axis=axis) / (num * (orders - 1))
    ms_players = within.sum(axis=axis) / (num * orders * (plays - 1))
    var = np.stack([(ms_opening - ms_order) / (orders * plays), (ms_order - ms_players) / plays, ms_players])
    total = var.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(total > 0, var / total, np.nan)
    return np.concatenate([var, share])


def setup_components(
    seats: pd.DataFrame,
    outcomes: Sequence[str] = OUTCOMES,
    alpha: float = 0.05,
    n_resamples: int = 999,
    random_state: int = 0,
) -> pd.DataFrame:
    """A seat's outcome variance split three ways: the public opening, the hidden order, the players' own randomness.

    Required columns: ``game``, ``opening_id``, ``setup_id`` (one per opening and hidden order), ``num_players``,
    ``seat``, ``score``, ``win``: a nested design, openings > deck orders (setups) > plays (the runner's
    ``--orders-per-opening`` and ``--games-per-setup``).

    The balanced nested random-effects ANOVA (method of moments; Searle et al. 1992, 4.7): with ``a`` openings, ``b``
    orders each, ``n`` plays each, the mean squares of openings, of orders within openings and of plays within orders
    give ``var_players`` = MS_plays, ``var_order`` = (MS_order - MS_plays) / n and ``var_opening`` = (MS_opening -
    MS_order) / (b n) (for balanced data these equal REML's estimates when none is negative; a component may come out
    negative by chance). Deterministic players (epsilon 0) replay a setup identically: ``var_players`` is exactly 0
    with the interval [0, 0]. A share is a component over the sum of the three, both unclipped, so its estimate is
    unbiased to first order and its interval keeps its level at the edges; only the reported share and its interval
    are brought into [0, 1] (``_shown_share``: an estimate past an edge is reported at the edge with its interval's
    reach kept, never a zero-width [0, 0] or [1, 1]), so the three shares add to 100% unless a component came out
    negative. Intervals:
    percentile bootstrap over openings (``scipy.stats.bootstrap``, whole openings resampled with their orders and
    plays, ``n_resamples`` at seed ``random_state``). Openings not of the design's shape (a partial last opening, a NaN
    outcome) are left out.

    Returns one row per ``num_players``, ``seat`` and ``outcome`` (``"margin"``: score margin in points; ``"win"``:
    win - 1/n): ``num_openings``, ``orders_per_opening``, ``plays_per_order``, ``num_games``, ``mean``, and for each
    component c of :data:`COMPONENTS` ``var_c``, ``var_c_low``, ``var_c_high`` (outcome units squared) and
    ``share_c``, ``share_c_low``, ``share_c_high`` (its share of the total, clipped to [0, 1]), and
    ``replays_identical``. Groups without two openings of two orders of two plays are left out.
    """
    check_alpha(alpha)
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, not {n_resamples}")
    require_columns(seats, _NESTED_COLUMNS, "seats")
    frame = _outcome_frame(seats, outcomes)
    frame["opening_id"] = seats["opening_id"].to_numpy()
    names = [f"var_{c}" for c in COMPONENTS] + [f"share_{c}" for c in COMPONENTS]
    rows = []
    for (num_players, seat), part in frame.groupby(["num_players", "seat"], sort=True):  # few groups
        for outcome in outcomes:
            sums = _opening_sums(part["opening_id"].to_numpy(), part["setup_id"].to_numpy(), part[outcome].to_numpy())
            if sums is None:
                continue
            mean, between, within, orders, plays = sums
            estimate = _nested_estimates(mean, between, within, orders, plays)
            boot = stats.bootstrap(
                (mean, between, within),
                lambda m, b, w, axis=-1, o=orders, p=plays: _nested_estimates(m, b, w, o, p, axis),
                paired=True,
                vectorized=True,
                n_resamples=n_resamples,
                batch=max(1, _BOOTSTRAP_CELLS // len(mean)),
                confidence_level=1 - alpha,
                method="percentile",
                rng=np.random.default_rng(random_state),
            )
            row = {
                "num_players": num_players,
                "seat": seat,
                "outcome": outcome,
                "num_openings": len(mean),
                "orders_per_opening": orders,
                "plays_per_order": plays,
                "num_games": len(mean) * orders * plays,
                "mean": float(mean.mean()),
            }
            low, high = boot.confidence_interval.low, boot.confidence_interval.high
            for k, name in enumerate(names):
                values = (float(estimate[k]), float(low[k]), float(high[k]))
                if name.startswith("share_"):
                    values = _shown_share(*values)
                row[name], row[f"{name}_low"], row[f"{name}_high"] = values
            row["replays_identical"] = bool(within.sum() == 0)
            rows.append(row)
    columns = ["num_players", "seat", "outcome", "num_openings", "orders_per_opening", "plays_per_order", "num_games"]
    columns += ["mean", *(f"{n}{s}" for n in names for s in ("", "_low", "_high")), "replays_identical"]
    return pd.DataFrame(rows, columns=columns)


def _kappa(agreement: np.ndarray | float, chance: float) -> np.ndarray | float:
    """Agreement beyond chance, as a share of what is left to agree on beyond chance."""
    return (agreement - chance) / (1 - chance) if chance < 1 else np.nan * agreement


def _shown_share(point: float, low: float, high: float) -> tuple[float, float, float]:
    """A share's estimate and interval as reported, in [0, 1]. An estimate past an edge (a share estimated without
    clipping may come out below 0 or above 1 by chance) is reported at the edge, with the interval's reach from the
    estimate kept on the inner side: clipping both ends alone would leave [0, 0] or [1, 1], an interval of zero
    width where the truth may lie inside; this one covers whatever the clipped one covers, and more."""
    if not np.isfinite(point):
        return point, low, high
    if point < 0:
        return 0.0, 0.0, float(min(high - point, 1.0)) if np.isfinite(high) else high
    if point > 1:
        return 1.0, float(max(1.0 - (point - low), 0.0)) if np.isfinite(low) else low, 1.0
    clip = [float(np.clip(v, 0.0, 1.0)) if np.isfinite(v) else v for v in (point, low, high)]
    return clip[0], clip[1], clip[2]


def _mean_confint(values: np.ndarray, alpha: float, low: float, high: float) -> tuple[float, float, float]:
    """The mean of per-unit ``values`` (bounded in [``low``, ``high``]) with its t interval over units; a sample
    without variation gets :func:`analysis.stats._util.constant_confint`, never a zero-width interval."""
    k = len(values)
    mean = float(values.mean())
    if k < 2:
        return mean, np.nan, np.nan
    if np.ptp(values) == 0:
        lo, hi = constant_confint(mean, k, low, high, alpha)
        return mean, float(lo), float(hi)
    half = float(stats.t.ppf(1 - alpha / 2, k - 1) * values.std(ddof=1) / np.sqrt(k))
    return mean, mean - half, mean + half


def _decided(
    agree: np.ndarray, chance: float, alpha: float, prefix: str = "", unbounded: bool = False
) -> dict[str, float]:
    """``decided``, ``decided_low``, ``decided_high`` (with ``prefix``) from per-unit agreements beyond ``chance``:
    kappa, its interval carried over from the agreement's, reported in [0, 1] by :func:`_shown_share`.
    ``unbounded``: the values are differences of agreements, in [-1, 1]."""
    mean, low, high = _mean_confint(agree, alpha, -1.0 if unbounded else 0.0, 1.0)
    scale = 1 - chance if unbounded else None
    values = [v / scale for v in (mean, low, high)] if scale else [_kappa(v, chance) for v in (mean, low, high)]
    shown = _shown_share(*(float(v) for v in values))
    return dict(zip([f"{prefix}decided", f"{prefix}decided_low", f"{prefix}decided_high"], shown, strict=True))


def deal_decides(seats: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """The share of games whose winner the deal fixes: do two plays of the same setup crown the same seat more often
    than chance?

    Required columns: ``game``, ``setup_id``, ``num_players``, ``seat``, ``win`` (a shared tie counts 1/k).
    Setups played once are left out.

    For a setup replayed m times, the chance that two of its plays (other play seeds, same deal and seats)
    have the same winner is estimated without bias by ``(sum_s S_s^2 - Q) / (m (m - 1))`` (``S_s`` the seat's
    wins over the replays, ``Q`` the sum of squared win shares per game). Averaged over setups this is
    ``agreement``; ``chance`` is what it would be if the deal did not matter, with the players as matched as they are
    (``sum_s p_s^2`` of the seats' overall win rates); ``kappa`` = ``(agreement - chance) / (1 - chance)`` (Fleiss'
    kappa for the winner). ``decided`` is kappa read as a share of games: a deal that fixes its winner (every play
    crowns the same seat, whatever the players' seeds) counts 1, one that leaves the winner to the players and chance
    counts 0, so if each deal does one or the other, kappa is exactly the share of games whose winner the deal fixes.
    A deal that only tilts the odds counts the tilt's square over ``chance (1 - chance)``: a 1 pp tilt at 2 players
    counts 0.04%, not the 2% that the square root of kappa (the earlier "decides the winner of") would read, whose
    noise near 0 made "5% or more" out of nothing. Kappa is additive: the opening's and the hidden order's shares
    (:func:`opening_decides`) add up to the whole deal's. Intervals: t over setups for ``agreement``, carried over
    to ``kappa`` and ``decided``; setups whose replays all agree (deterministic bots) get the exact bound of
    :func:`analysis.stats._util.constant_confint` on the share of setups that would not, never the interval [1, 1].
    ``decided`` and its interval are reported in [0, 1] (``kappa`` is not): a negative estimate reads 0 with an
    interval from 0 as wide as its reach above the estimate, never [0, 0].

    Returns one row per ``num_players``: ``num_setups``, ``replays`` (mean plays per setup), ``agreement``,
    ``agreement_low``, ``agreement_high``, ``chance``, ``kappa``, ``decided``, ``decided_low``,
    ``decided_high`` and ``same_winner`` (share of setups whose every replay had the same winner, which
    depends on m).
    """
    check_alpha(alpha)
    require_columns(seats, ["game", "setup_id", "num_players", "seat", "win"], "seats")
    frame = seats[["game", "setup_id", "num_players", "seat"]].assign(win=seats["win"].to_numpy(float))
    rows = []
    for n, part in frame.groupby("num_players", sort=True):  # a few player counts
        plays = part.groupby("setup_id")["game"].nunique()
        part = part[part["setup_id"].map(plays).to_numpy() > 1]
        if part.empty:
            continue
        m = part.groupby("setup_id")["game"].nunique()
        by_seat = part.groupby(["setup_id", "seat"])["win"].sum()
        s2 = (by_seat**2).groupby(level=0).sum()
        q = (part["win"] ** 2).groupby(part["setup_id"]).sum()
        agree = ((s2 - q) / (m * (m - 1))).to_numpy(float)
        same = (by_seat.groupby(level=0).max() == m).to_numpy()
        rates = part.groupby("seat")["win"].sum() / part["game"].nunique()
        summary = _agreement_summary(agree, float((rates**2).sum()), alpha)
        rows.append(
            {"num_players": int(n), "num_setups": len(agree), "replays": float(m.mean())}
            | summary
            | {"same_winner": float(same.mean())}
        )
    columns = ["num_players", "num_setups", "replays", *_AGREEMENT_COLUMNS, "same_winner"]
    return pd.DataFrame(rows, columns=columns)


_AGREEMENT_COLUMNS = [
    "agreement",
    "agreement_low",
    "agreement_high",
    "chance",
    "kappa",
    "decided",
    "decided_low",
    "decided_high",
]


def _agreement_summary(agree: np.ndarray, chance: float, alpha: float) -> dict[str, float]:
    """Mean agreement over units with its interval, and kappa and the share decided carried over from it."""
    mean, low, high = _mean_confint(agree, alpha, 0.0, 1.0)
    return {
        "agreement": mean,
        "agreement_low": max(low, 0.0) if np.isfinite(low) else low,
        "agreement_high": min(high, 1.0) if np.isfinite(high) else high,
        "chance": chance,
        "kappa": _kappa(mean, chance),
    } | _decided(agree, chance, alpha)


_SPLIT_COLUMNS = [f"{p}decided{s}" for p in ("order_", "deal_") for s in ("", "_low", "_high")]


def opening_decides(seats: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """The share of games whose winner the public opening fixes, the share the hidden order fixes beyond it, and the
    whole deal's, which is their sum.

    Required columns: ``game``, ``opening_id``, ``setup_id`` (one per hidden order), ``num_players``, ``seat``,
    ``win`` (a shared tie counts 1/k). Openings dealt over fewer than two hidden orders are left out.

    The :func:`deal_decides` estimator over pairs of plays that share the opening but not the deck order: per opening,
    ``(sum_s S_s^2 - sum_j sum_s S_js^2) / (M^2 - sum_j m_j^2)`` (``S_s`` the seat's wins over the opening's ``M``
    plays, ``S_js`` over the ``m_j`` plays of order j); and over pairs that share the order too (the whole deal). An
    opening that fixes its winner whatever the hidden order counts 1 in both; an order that fixes its winner counts 1
    only in the second, so ``order_decided`` = ``deal_decided`` - ``decided`` is the share the hidden order fixes
    beyond the opening, and the three add up exactly (the same openings and chance in each, when every hidden order
    is played more than once; the two are NaN when none is). Intervals: t over
    openings (the unit that is resampled independently), of each per-opening share and of their difference.

    Returns one row per ``num_players``: ``num_openings``, ``orders`` (mean hidden orders per opening), ``plays``
    (mean plays per opening), ``agreement``, ``agreement_low``, ``agreement_high``, ``chance``, ``kappa``,
    ``decided``, ``decided_low``, ``decided_high`` (the opening's share), ``order_decided``, ``order_decided_low``,
    ``order_decided_high`` (the hidden order's beyond it) and ``deal_decided``, ``deal_decided_low``,
    ``deal_decided_high`` (the whole deal's), each clipped to [0, 1] for display.
    """
    check_alpha(alpha)
    require_columns(seats, ["game", "opening_id", "setup_id", "num_players", "seat", "win"], "seats")
    frame = seats[["game", "opening_id", "setup_id", "num_players", "seat"]].assign(win=seats["win"].to_numpy(float))
    rows = []
    for n, part in frame.groupby("num_players", sort=True):  # a few player counts
        orders = part.groupby("opening_id")["setup_id"].nunique()
        part = part[part["opening_id"].map(orders).to_numpy() > 1]
        if part.empty:
            continue
        plays = part.groupby(["opening_id", "setup_id"])["game"].nunique()
        big_m = plays.groupby(level=0).sum()
        within_pairs = (plays**2).groupby(level=0).sum()
        s_open = (part.groupby(["opening_id", "seat"])["win"].sum() ** 2).groupby(level=0).sum()
        s_order = (part.groupby(["opening_id", "setup_id", "seat"])["win"].sum() ** 2).groupby(level=0).sum()
        q = (part["win"] ** 2).groupby(part["opening_id"]).sum()
        agree = ((s_open - s_order) / (big_m**2 - within_pairs)).to_numpy(float)
        with np.errstate(invalid="ignore", divide="ignore"):  # an opening without a replayed order has no pair
            same = ((s_order - q) / (within_pairs - big_m)).to_numpy(float)
        ok = np.isfinite(same)
        chance = float(((part.groupby("seat")["win"].sum() / part["game"].nunique()) ** 2).sum())
        summary = _agreement_summary(agree, chance, alpha)
        split = dict.fromkeys(_SPLIT_COLUMNS, np.nan)
        if ok.any():
            split = _decided(same[ok] - agree[ok], chance, alpha, "order_", unbounded=True)
            split |= _decided(same[ok], chance, alpha, "deal_")
        rows.append(
            {
                "num_players": int(n),
                "num_openings": len(agree),
                "orders": float(orders[orders > 1].mean()),
                "plays": float(big_m.mean()),
            }
            | summary
            | split
        )
    columns = ["num_players", "num_openings", "orders", "plays", *_AGREEMENT_COLUMNS, *_SPLIT_COLUMNS]
    return pd.DataFrame(rows, columns=columns)


def setup_balance(seats: pd.DataFrame, seat: int = 1, outcome: str = "margin", alpha: float = 0.05) -> pd.DataFrame:
    """Each setup's advantage for one seat, raw and shrunk, for caterpillar plots and rankings.

    Required columns: ``game``, ``setup_id``, ``num_players``, ``seat``, ``score``, ``win``.

    Returns one row per ``num_players`` and ``setup_id``, sorted by ``shrunk`` (largest
    advantage first within each player count): ``seat``, ``outcome``, ``num_games``,
    ``advantage`` (mean outcome of the seat in that setup's games; 0 is fair), ``ci_low``,
    ``ci_high`` (t interval with the pooled within-setup variance), ``shrunk`` (empirical-Bayes
    estimate, the raw mean pulled toward the overall mean by its reliability
    var_between / (var_between + var_within / num_games); this ranks setups fairly when replays
    are few), ``imbalance`` (``|shrunk|``: sort ascending for the most balanced setups,
    descending for the least) and ``rank`` (1 = largest ``shrunk``).
    """
    check_alpha(alpha)
    frame = _outcome_frame(seats, [outcome])
    frame = frame[frame["seat"] == seat]
    parts = []
    for num_players, part in frame.groupby("num_players", sort=True):  # a few player counts
        ids, count, total, square = _group_sums(part["setup_id"].to_numpy(), part[outcome].to_numpy())
        comp = _anova(count, total, square, alpha)
        mean = total / count
        var_w, var_b = comp["var_within"], max(comp["var_between"], 0.0)
        if np.isfinite(var_w):
            half = stats.t.ppf(1 - alpha / 2, comp["df_within"]) * np.sqrt(var_w / count)
            reliability = var_b / (var_b + var_w / count) if var_b + var_w > 0 else np.zeros(len(count))
        else:
            half = np.full(len(count), np.nan)
            reliability = np.full(len(count), np.nan)
        shrunk = comp["mean"] + reliability * (mean - comp["mean"])
        out = pd.DataFrame(
            {
                "num_players": num_players,
                "setup_id": ids,
                "seat": seat,
                "outcome": outcome,
                "num_games": count,
                "advantage": mean,
                "ci_low": mean - half,
                "ci_high": mean + half,
                "shrunk": shrunk,
                "imbalance": np.abs(shrunk),
            }
        ).sort_values(["shrunk", "advantage"], ascending=False, kind="stable")
        out["rank"] = np.arange(1, len(out) + 1)
        parts.append(out)
    columns = [
        "num_players",
        "setup_id",
        "seat",
        "outcome",
        "num_games",
        "advantage",
        "ci_low",
        "ci_high",
        "shrunk",
        "imbalance",
        "rank",
    ]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)


def _items(setup_rows: pd.DataFrame, columns: list[str], ok: np.ndarray) -> tuple[pd.Series, np.ndarray]:
    """The single items of a descriptor family, each with the position of its setup among the ``ok`` setups.

    A value listing several items separated by spaces (Golem's district ``"1 2 3 4 7 9 10"``: the seven tiles of
    its layout) is a set: each item is a feature of its own, so a feature is one card or tile, never a whole
    combination (there are too many combinations for each to recur in enough setups).
    """
    values = pd.concat([setup_rows[c][ok] for c in columns], ignore_index=True)
    setup_pos = np.tile(np.arange(int(ok.sum())), len(columns))
    text = values.astype(object)
    is_set = text.map(lambda x: isinstance(x, str) and " " in x.strip())
    if not is_set.any():
        return values, setup_pos
    split = text.map(lambda x: x.split() if isinstance(x, str) else x)
    exploded = pd.Series(split.to_numpy(), index=setup_pos).explode()
    return exploded.reset_index(drop=True), exploded.index.to_numpy()


def _families(games: pd.DataFrame) -> dict[str, list[str]]:
    families: dict[str, list[str]] = {}
    for column in games.columns:
        if column.startswith("setup_") and column not in ("setup_id", "setup_seed"):
            families.setdefault(re.sub(r"_\d+$", "", column), []).append(column)
    return families


def setup_feature_effects(
    seats: pd.DataFrame,
    games: pd.DataFrame,
    seat: int = 1,
    outcome: str = "margin",
    alpha: float = 0.05,
    correction: str | None = "holm",
    min_setups: int = 5,
) -> pd.DataFrame:
    """Which setup features shift one seat's advantage: setups with a feature against those without.

    A feature is a value in a family of ``setup_*`` columns, in any position: the family of
    ``setup_point_1..5`` is ``setup_point``, so ``setup_point=P07`` means card P07 is somewhere
    in the opening point row. A value listing several items separated by spaces is a set of
    items, each a feature (Golem's ``setup_market_tiles="1 2 3 4 7 9 10"`` gives
    ``setup_market_tiles=3``, tile 3 in that district). Each setup counts once, with the mean outcome of its games, so
    replays are not mistaken for independent evidence; the comparison is Welch's t test.

    Required columns: seats ``game``, ``setup_id``, ``num_players``, ``seat``, ``score``,
    ``win``; games ``setup_id`` and at least one ``setup_*`` descriptor column.

    ``correction`` is a ``statsmodels`` ``multipletests`` method applied over all features of a
    player count: ``"holm"`` (family-wise error; intervals at the level that agrees with Holm's
    decisions, Bonferroni's when nothing is significant, see ``analysis.stats._util.holm_level``),
    ``"fdr_bh"`` (false discovery rate; Benjamini-Yekutieli false-coverage
    intervals) or None (unadjusted). Features present in (or absent from) fewer than
    ``min_setups`` setups are dropped.

    Returns one row per ``num_players`` and feature, sorted by p-value: ``seat``, ``outcome``,
    ``feature`` (``"setup_point=P07"``), ``column`` (the family), ``value``,
    ``num_setups_with``, ``num_setups_without``, ``mean_with``, ``mean_without``, ``effect``
    (difference, outcome units), ``se``, ``df``, ``ci_low``, ``ci_high`` (adjusted),
    ``pvalue``, ``pvalue_adj``, ``significant``.
    """
    check_alpha(alpha)
    require_columns(games, ["setup_id"], "games")
    families = _families(games)
    if not families:
        raise ValueError("games has no setup_* descriptor columns (e.g. setup_point_1)")
    frame = _outcome_frame(seats, [outcome])
    frame = frame[frame["seat"] == seat]
    first = ~games["setup_id"].duplicated().to_numpy()
    setup_rows = games.loc[first]
    row_ids = setup_rows["setup_id"].to_numpy()
    columns = [
        "num_players",
        "seat",
        "outcome",
        "feature",
        "column",
        "value",
        "num_setups_with",
        "num_setups_without",
        "mean_with",
        "mean_without",
        "effect",
        "se",
        "df",
        "ci_low",
        "ci_high",
        "pvalue",
        "pvalue_adj",
        "significant",
    ]
    parts = []
    for num_players, part in frame.groupby("num_players", sort=True):  # a few player counts
        ids, count, total, _ = _group_sums(part["setup_id"].to_numpy(), part[outcome].to_numpy())
        setup_mean = pd.Series(total / count, index=ids)
        y = setup_mean.reindex(row_ids).to_numpy()
        ok = np.isfinite(y)
        y_ok = y[ok]
        num_all, sum_all, sq_all = len(y_ok), y_ok.sum(), np.sum(y_ok**2)
        feature_parts = []
        for family, family_columns in families.items():  # a few descriptor families
            values, setup_pos = _items(setup_rows, family_columns, ok)
            codes, uniques = pd.factorize(values)
            keep = codes >= 0
            key = np.unique(setup_pos[keep].astype(np.int64) * len(uniques) + codes[keep])
            pos, code = key // max(len(uniques), 1), key % max(len(uniques), 1)
            n1 = np.bincount(code, minlength=len(uniques)).astype(float)
            s1 = np.bincount(code, weights=y_ok[pos], minlength=len(uniques))
            q1 = np.bincount(code, weights=y_ok[pos] ** 2, minlength=len(uniques))
            n0, s0, q0 = num_all - n1, sum_all - s1, sq_all - q1
            with np.errstate(divide="ignore", invalid="ignore"):
                m1, m0 = s1 / n1, s0 / n0
                v1 = (q1 - n1 * m1**2) / (n1 - 1)
                v0 = (q0 - n0 * m0**2) / (n0 - 1)
            diff, se, df, p = welch(n1, m1, np.maximum(v1, 0), n0, m0, np.maximum(v0, 0))
            feature_parts.append(
                pd.DataFrame(
                    {
                        "column": family,
                        "value": np.asarray(uniques, dtype=object),
                        "num_setups_with": n1.astype(np.int64),
                        "num_setups_without": n0.astype(np.int64),
                        "mean_with": m1,
                        "mean_without": m0,
                        "effect": diff,
                        "se": se,
                        "df": df,
                        "pvalue": p,
                    }
                )
            )
        out = pd.concat(feature_parts, ignore_index=True)
        out = out[(out["num_setups_with"] >= min_setups) & (out["num_setups_without"] >= min_setups)]
        out = out.reset_index(drop=True)
        out.insert(0, "feature", out["column"] + "=" + out["value"].astype(str))
        out.insert(0, "outcome", outcome)
        out.insert(0, "seat", seat)
        out.insert(0, "num_players", num_players)
        p_adj, reject, level = multiple_tests(out["pvalue"].to_numpy(), alpha, correction)
        low, high = t_confint(out["effect"].to_numpy(), out["se"].to_numpy(), out["df"].to_numpy(), level)
        out["ci_low"], out["ci_high"], out["pvalue_adj"], out["significant"] = low, high, p_adj, reject
        parts.append(out[columns].sort_values(["pvalue", "effect"], kind="stable"))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
