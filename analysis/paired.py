"""Paired comparison of game variants played on common random numbers.

Every variant of an experiment replays the baseline's games: game g of each variant has the same
setup seed, play seed and seat rotation. The effect of a change on a quantity (a seat's win rate,
a bot's win rate, a seat's score margin) is then the mean over games of the per-game difference
``variant - baseline``, whose variance is smaller than that of two independent runs whenever the
two games of a pair are alike. Intervals are t intervals on the per-game differences; the share
of variance the pairing removed is ``1 - var(d) / (var(variant) + var(baseline))``.

Examples
--------
>>> q0, q1 = game_quantities(base_seats), game_quantities(variant_seats)  # doctest: +SKIP
>>> paired_effects(q0, q1)[["quantity", "diff", "ci_low", "ci_high"]]  # doctest: +SKIP
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import stats

from analysis._util import check_alpha, holm, multiple_tests, require_columns

__all__ = ["QUANTITY_COLUMNS", "compare_variants", "game_quantities", "holm", "paired_effects", "quantity_info"]

QUANTITY_COLUMNS = ["quantity", "metric", "subject", "unit"]


def _identifier(label: str) -> str:
    return re.sub(r"\W", "_", str(label))


def game_quantities(seats: pd.DataFrame) -> pd.DataFrame:
    """Per-game values of the quantities an experiment compares, one row per game (indexed by ``game``).

    Required columns: ``game``, ``num_players``, ``seat``, ``bot``, ``score``, ``win``; one player
    count. Columns: ``seat<k>`` (seat k's share of the win: 1, 0, or 1/j in a j-way shared win),
    ``margin<k>`` (its score minus the mean of the others'), and, when the lineup has several bot
    labels, one column per label (named by :func:`quantity_info`) with the label's share of the
    win per seat it holds.
    """
    require_columns(seats, ["game", "num_players", "seat", "bot", "score", "win"], "seats")
    counts = seats["num_players"].unique()
    if len(counts) != 1:
        raise ValueError(f"an experiment compares one player count, found {sorted(counts.tolist())}")
    n = int(counts[0])
    game, seat = seats["game"].to_numpy(), seats["seat"].to_numpy()
    same = game[1:] == game[:-1]
    in_order = bool(np.all(game[1:] >= game[:-1]) and np.all(seat[1:][same] > seat[:-1][same]))
    frame = seats if in_order else seats.iloc[np.lexsort((seat, game))]
    if len(frame) % n:
        raise ValueError("seats table does not hold n rows per game")
    games = frame["game"].to_numpy()[::n]
    win = frame["win"].to_numpy(dtype=float).reshape(-1, n)
    score = frame["score"].to_numpy(dtype=float).reshape(-1, n)
    with np.errstate(invalid="ignore", divide="ignore"):  # as analysis._util.seat_margins, on the (G, n) matrix
        margin = score - (score.sum(axis=1, keepdims=True) - score) / (n - 1) if n > 1 else np.full_like(score, np.nan)
    out = {f"seat{s + 1}": win[:, s] for s in range(n)}
    out |= {f"margin{s + 1}": margin[:, s] for s in range(n)}
    codes, labels = pd.factorize(frame["bot"], sort=True)
    labels = [str(label) for label in labels]
    if len(labels) > 1:
        codes = codes.reshape(-1, n)
        for k, label in enumerate(labels):
            held = codes == k
            with np.errstate(invalid="ignore", divide="ignore"):
                out[_identifier(label)] = (win * held).sum(axis=1) / held.sum(axis=1)
    return pd.DataFrame(out, index=pd.Index(games, name="game"))


def quantity_info(quantities: pd.DataFrame) -> pd.DataFrame:
    """What each column of :func:`game_quantities` measures: ``quantity``, ``metric``, ``subject``, ``unit``.

    ``unit`` is ``"rate"`` (a share of wins; shown in percentage points) or ``"points"``.
    """
    rows = []
    for name in quantities.columns:
        seat = re.fullmatch(r"seat(\d+)", name)
        margin = re.fullmatch(r"margin(\d+)", name)
        if seat:
            rows.append([name, "seat win rate", f"seat {seat.group(1)}", "rate"])
        elif margin:
            rows.append([name, "seat score margin", f"seat {margin.group(1)}", "points"])
        else:
            rows.append([name, "bot win rate", name, "rate"])
    return pd.DataFrame(rows, columns=QUANTITY_COLUMNS)


def paired_effects(baseline: pd.DataFrame, variant: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Effect of a variant on each quantity: mean of per-game differences, paired on the game id.

    ``baseline`` and ``variant`` are :func:`game_quantities` tables of the same games (common
    random numbers); the games must match exactly. Returns one row per quantity: the
    :data:`QUANTITY_COLUMNS`, ``baseline``, ``variant`` (means), ``diff``, ``se``, ``ci_low``,
    ``ci_high`` (t interval, level ``1 - alpha``), ``pvalue`` (two-sided paired t test; 1 when
    every pair is equal), ``se_unpaired`` (the standard error two independent runs of the same
    size would give), ``variance_removed`` (``1 - se**2 / se_unpaired**2``) and ``num_games``.
    """
    check_alpha(alpha)
    if not baseline.index.equals(variant.index):
        if len(baseline) != len(variant) or not baseline.index.sort_values().equals(variant.index.sort_values()):
            raise ValueError("baseline and variant are not the same games; pair runs of the same seeds and design")
        variant = variant.loc[baseline.index]
    columns = [c for c in baseline.columns if c in variant.columns]
    b = baseline[columns].to_numpy(dtype=float)
    v = variant[columns].to_numpy(dtype=float)
    d = v - b
    ok = np.isfinite(d)
    g = ok.sum(axis=0)
    if not ok.all():  # pairs with a missing value (a margin of a one-seat game) are left out
        b, v, d = (np.where(ok, x, np.nan) for x in (b, v, d))
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_b, mean_v, diff = np.nanmean(b, axis=0), np.nanmean(v, axis=0), np.nanmean(d, axis=0)
        var_d = np.nanvar(d, axis=0, ddof=1)
        var_b = np.nanvar(b, axis=0, ddof=1)
        var_v = np.nanvar(v, axis=0, ddof=1)
        se = np.sqrt(var_d / g)
        se_unpaired = np.sqrt((var_b + var_v) / g)
        t = diff / se
    df = np.maximum(g - 1, 1)
    crit = stats.t.ppf(1 - alpha / 2, df)
    pvalue = np.where(se > 0, 2 * stats.t.sf(np.abs(t), df), np.where(diff == 0, 1.0, 0.0))
    out = quantity_info(baseline[columns])
    out["baseline"] = mean_b
    out["variant"] = mean_v
    out["diff"] = diff
    out["se"] = se
    out["ci_low"] = diff - crit * se
    out["ci_high"] = diff + crit * se
    out["pvalue"] = pvalue
    out["se_unpaired"] = se_unpaired
    with np.errstate(invalid="ignore", divide="ignore"):
        out["variance_removed"] = np.where(se_unpaired > 0, 1 - se**2 / se_unpaired**2, np.nan)
    out["num_games"] = g
    return out


def compare_variants(
    quantities: Mapping[str, pd.DataFrame], baseline: str, alpha: float = 0.05, correction: str | None = "holm"
) -> pd.DataFrame:
    """:func:`paired_effects` of every variant against ``baseline``, with multiple-testing control.

    ``quantities`` maps variant names to :func:`game_quantities` tables. Returns the rows of
    :func:`paired_effects` with ``variant_name`` first, plus ``pvalue_adj`` and ``significant``:
    the p-values are adjusted over all variants and rate quantities together (``correction``, a
    ``statsmodels`` ``multipletests`` method, Holm by default, so a family of changes that do
    nothing shows any significant effect at most ``alpha`` of the time). Margins (points) are
    tested as a second family.
    """
    if baseline not in quantities:
        raise ValueError(f"no variant named {baseline!r}")
    frames = []
    for name, q in quantities.items():
        if name == baseline:
            continue
        frames.append(paired_effects(quantities[baseline], q, alpha).assign(variant_name=name))
    if not frames:
        raise ValueError("no variant to compare with the baseline")
    out = pd.concat(frames, ignore_index=True)
    out = out[["variant_name", *[c for c in out.columns if c != "variant_name"]]].copy()
    out["pvalue_adj"] = np.nan
    out["significant"] = False
    for unit in ("rate", "points"):
        rows = (out["unit"] == unit).to_numpy()
        if rows.any():
            if correction == "holm":
                p_adj, reject = holm(out.loc[rows, "pvalue"].to_numpy(), alpha)
            else:
                p_adj, reject, _ = multiple_tests(out.loc[rows, "pvalue"].to_numpy(), alpha, correction)
            out.loc[rows, "pvalue_adj"] = p_adj
            out.loc[rows, "significant"] = reject
    out["significant"] = out["significant"].astype(bool)
    return out
