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

References
----------
Chan, T. F., Golub, G. H. and LeVeque, R. J. (1979). Updating formulae and a pairwise algorithm for
computing sample variances. Stanford report STAN-CS-79-773.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
import pandas as pd
from numba import njit
from scipy import stats

from analysis.stats._util import check_alpha, constant_confint, holm, multiple_tests, require_columns, t_confint
from simulate.jitcache import use_cache

use_cache(__file__)  # cached per user, not beside this file (simulate.jitcache)

__all__ = [
    "QUANTITY_COLUMNS",
    "Moments",
    "PairMoments",
    "PairedRounds",
    "compare_variants",
    "effect_confint",
    "effects_table",
    "game_measure_effects",
    "game_quantities",
    "holm",
    "length_effects",
    "pair_moments",
    "paired_effects",
    "play_effects",
    "quantity_info",
]

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
    with np.errstate(invalid="ignore", divide="ignore"):  # as analysis.stats._util.seat_margins, on the (G, n) matrix
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
    return _info(list(quantities.columns))


def _info(columns: list[str]) -> pd.DataFrame:
    rows = []
    for name in columns:
        seat = re.fullmatch(r"seat(\d+)", name)
        margin = re.fullmatch(r"margin(\d+)", name)
        if seat:
            rows.append([name, "seat win rate", f"seat {seat.group(1)}", "rate"])
        elif margin:
            rows.append([name, "seat score margin", f"seat {margin.group(1)}", "points"])
        else:
            rows.append([name, "bot win rate", name, "rate"])
    return pd.DataFrame(rows, columns=QUANTITY_COLUMNS)


class Moments(NamedTuple):
    """Per-column count, mean and sum of squared deviations from the mean (``m2``) of the finite values.

    Moments of two parts of a column combine into those of the whole (:meth:`combine`, the pairwise
    update of Chan, Golub and LeVeque 1979), so each round of games is summarised once.
    """

    count: np.ndarray
    mean: np.ndarray
    m2: np.ndarray

    @classmethod
    def of(cls, x: np.ndarray) -> Moments:
        """Moments of each column of ``x`` (shape ``(games, columns)``), NaN left out."""
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = x.mean(axis=0)
            if np.isfinite(mean).all():
                dev = x - mean
                dev *= dev
                return cls(np.full(x.shape[1], len(x)), mean, dev.sum(axis=0))
            ok = np.isfinite(x)
            count = ok.sum(axis=0)
            mean = np.where(ok, x, 0.0).sum(axis=0) / count
            dev = np.where(ok, x - mean, 0.0)
            dev *= dev
            return cls(count, mean, dev.sum(axis=0))

    @property
    def var(self) -> np.ndarray:
        """Sample variance (``ddof=1``); NaN below two values."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.count > 1, self.m2 / (self.count - 1), np.nan)

    def combine(self, other: Moments) -> Moments:
        """The moments of both parts together."""
        n = self.count + other.count
        with np.errstate(invalid="ignore", divide="ignore"):
            delta = other.mean - self.mean
            mean = np.where(
                other.count == 0,
                self.mean,
                np.where(self.count == 0, other.mean, self.mean + delta * (other.count / n)),
            )
            m2 = np.where(
                other.count == 0,
                self.m2,
                np.where(
                    self.count == 0, other.m2, self.m2 + other.m2 + delta * delta * (self.count * other.count / n)
                ),
            )
        return Moments(n, mean, m2)


class PairMoments(NamedTuple):
    """:class:`Moments` of a baseline, a variant and their per-game differences over the games where both
    are finite."""

    baseline: Moments
    variant: Moments
    diff: Moments

    def combine(self, other: PairMoments) -> PairMoments:
        """The moments of both parts together."""
        return PairMoments(*(a.combine(b) for a, b in zip(self, other, strict=True)))


def pair_moments(b: np.ndarray, v: np.ndarray) -> PairMoments:
    """Moments of baseline ``b``, variant ``v`` (aligned ``(games, columns)`` arrays) and ``v - b``, over the
    games where ``v - b`` is finite (a pair with a missing value, a margin of a one-seat game, is left out).

    One pass over the two arrays for the sums and one for the squared deviations, without temporaries.
    """
    out = np.empty((7, b.shape[1]))
    _pair_sums(np.asfortranarray(b, dtype=float), np.asfortranarray(v, dtype=float), out)
    count = out[0].astype(np.int64)
    return PairMoments(*(Moments(count, out[1 + k], out[4 + k]) for k in range(3)))


@njit(cache=True)
def _pair_sums(b: np.ndarray, v: np.ndarray, out: np.ndarray) -> None:
    """For each column j of ``b`` and ``v`` (``ndarray(float, ndim=2)``, shape ``(games, k)``, column-major):
    ``out[:, j]`` = count of finite ``v - b``, the means of ``b``, ``v``, ``v - b`` and their sums of squared
    deviations over those games (``out``: ``ndarray(float, ndim=2)``, shape ``(7, k)``)."""
    num_games, k = b.shape
    for j in range(k):
        count, sb, sv, sd = 0, 0.0, 0.0, 0.0
        for i in range(num_games):
            d = v[i, j] - b[i, j]
            if np.isfinite(d):
                count += 1
                sb += b[i, j]
                sv += v[i, j]
                sd += d
        mb, mv, md = (sb / count, sv / count, sd / count) if count > 0 else (np.nan, np.nan, np.nan)
        qb, qv, qd = 0.0, 0.0, 0.0
        for i in range(num_games):
            d = v[i, j] - b[i, j]
            if np.isfinite(d):
                qb += (b[i, j] - mb) ** 2
                qv += (v[i, j] - mv) ** 2
                qd += (d - md) ** 2
        out[0, j] = count
        out[1, j], out[2, j], out[3, j] = mb, mv, md
        out[4, j], out[5, j], out[6, j] = qb, qv, qd


def effect_confint(
    diff: np.ndarray, se: np.ndarray, num_games: np.ndarray, unit: np.ndarray, level: float
) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided interval (level ``1 - level``) of paired mean differences: the t interval, except where every pair
    differed alike (``se`` 0, e.g. a change that altered no game of the sample). There a share of wins (``unit``
    ``"rate"``, per-game differences in [-1, 1]) gets :func:`analysis.stats._util.constant_confint`: the games the
    sample did not see change may be up to the exact bound on a share never observed (about 3.7 / games at 95%), each
    by up to a whole win, so 50 unchanged pairs still allow ±7 pp. Other units have no such bound: NaN."""
    diff, se = np.asarray(diff, dtype=float), np.asarray(se, dtype=float)
    num_games = np.asarray(num_games, dtype=float)
    low, high = t_confint(diff, se, np.maximum(num_games - 1, 1), level)
    flat = se == 0
    rate = np.asarray(unit) == "rate"
    b_low, b_high = constant_confint(diff, num_games, -1.0, 1.0, level)
    low = np.where(flat, np.where(rate, b_low, np.nan), low)
    high = np.where(flat, np.where(rate, b_high, np.nan), high)
    return low, high


def effects_table(info: pd.DataFrame, moments: PairMoments, alpha: float = 0.05) -> pd.DataFrame:
    """The rows of :func:`paired_effects` from the :class:`PairMoments` of each quantity in ``info``
    (rows of :func:`quantity_info`)."""
    check_alpha(alpha)
    mb, mv, md = moments
    g = md.count
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(md.var / g)
        se_unpaired = np.sqrt((mb.var + mv.var) / g)
        t = md.mean / se
    diff = md.mean
    df = np.maximum(g - 1, 1)
    # every pair differed alike: the exact p of a share of games differing from the rest never seen (dual to
    # effect_confint: to average 0, a share |d| / (1 + |d|) of the games would have to differ by a whole win the
    # other way); 1 when no game changed
    with np.errstate(over="ignore"):
        flat_p = np.minimum(2 * (1 + np.abs(diff)) ** -np.maximum(g, 0).astype(float), 1.0)
    rate = info["unit"].to_numpy() == "rate"
    pvalue = np.where(diff == 0, 1.0, 0.0)
    pvalue = np.where((se == 0) & rate, flat_p, pvalue)
    pvalue = np.where(se > 0, 2 * stats.t.sf(np.abs(t), df), pvalue)
    out = info.reset_index(drop=True)
    out["baseline"] = mb.mean
    out["variant"] = mv.mean
    out["diff"] = diff
    out["se"] = se
    out["ci_low"], out["ci_high"] = effect_confint(diff, se, g, out["unit"].to_numpy(), alpha)
    out["pvalue"] = pvalue
    out["se_unpaired"] = se_unpaired
    with np.errstate(invalid="ignore", divide="ignore"):
        out["variance_removed"] = np.where(se_unpaired > 0, 1 - se**2 / se_unpaired**2, np.nan)
    out["num_games"] = g
    return out


def _aligned(baseline: pd.DataFrame, variant: pd.DataFrame) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Common columns and the two tables as arrays with rows in the baseline's game order."""
    if not baseline.index.equals(variant.index):
        if len(baseline) != len(variant) or not baseline.index.sort_values().equals(variant.index.sort_values()):
            raise ValueError("baseline and variant are not the same games; pair runs of the same seeds and design")
        variant = variant.loc[baseline.index]
    columns = [c for c in baseline.columns if c in variant.columns]
    return columns, _values(baseline, columns), _values(variant, columns)


def _values(q: pd.DataFrame, columns: list[str]) -> np.ndarray:
    """``q[columns]`` as a float array, without a copy when that is all of ``q``'s float columns."""
    frame = q if list(q.columns) == columns else q[columns]
    return frame.to_numpy(dtype=float)


def paired_effects(baseline: pd.DataFrame, variant: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Effect of a variant on each quantity: mean of per-game differences, paired on the game id.

    ``baseline`` and ``variant`` are :func:`game_quantities` tables of the same games (common
    random numbers); the games must match exactly. Returns one row per quantity: the
    :data:`QUANTITY_COLUMNS`, ``baseline``, ``variant`` (means), ``diff``, ``se``, ``ci_low``,
    ``ci_high`` (t interval, level ``1 - alpha``; where every pair differed alike, e.g. no game changed, the
    bound of :func:`effect_confint`), ``pvalue`` (two-sided paired t test; where every pair differed alike, the exact
    test dual to that bound, 1 when no game changed), ``se_unpaired`` (the standard error two independent runs of the
    same size would give), ``variance_removed`` (``1 - se**2 / se_unpaired**2``) and ``num_games``.
    """
    check_alpha(alpha)
    columns, b, v = _aligned(baseline, variant)
    return effects_table(_info(columns), pair_moments(b, v), alpha)


class PairedRounds:
    """Paired moments of every variant against a baseline, accumulated over rounds of games.

    Each :meth:`add` takes the :func:`game_quantities` tables of one round (the same new games for
    every variant), or :meth:`add_pair` one variant's table and the baseline's, so a round can be
    read one variant at a time; no round is summarised twice. :meth:`effects` is
    :func:`compare_variants` of all rounds' games together (equal up to floating-point rounding).

    Examples
    --------
    >>> rounds = PairedRounds("baseline")  # doctest: +SKIP
    >>> rounds.add({"baseline": q0, "P36=18": q1})  # doctest: +SKIP
    >>> rounds.effects()[["variant_name", "quantity", "diff", "ci_low", "ci_high"]]  # doctest: +SKIP
    """

    def __init__(self, baseline: str) -> None:
        self.baseline = baseline
        self.moments: dict[str, PairMoments] = {}
        self.columns: dict[str, list[str]] = {}

    def add(self, quantities: Mapping[str, pd.DataFrame]) -> PairedRounds:
        """Add one round: variant name -> :func:`game_quantities` table, the baseline among them."""
        if self.baseline not in quantities:
            raise ValueError(f"no variant named {self.baseline!r}")
        base = quantities[self.baseline]
        for name in quantities:
            if name != self.baseline:
                self.add_pair(name, base, quantities[name])
        return self

    def add_pair(self, name: str, baseline: pd.DataFrame, variant: pd.DataFrame) -> PairedRounds:
        """Add one round of variant ``name``: its table and the baseline's of the same games."""
        columns, b, v = _aligned(baseline, variant)
        if self.columns.setdefault(name, columns) != columns:
            raise ValueError(f"variant {name!r} has other quantities than in the rounds before")
        m = pair_moments(b, v)
        self.moments[name] = self.moments[name].combine(m) if name in self.moments else m
        return self

    def effects(self, alpha: float = 0.05, correction: str | None = "holm") -> pd.DataFrame:
        """The effects table of :func:`compare_variants` over every round added."""
        if not self.moments:
            raise ValueError("no variant to compare with the baseline")
        frames = [
            effects_table(_info(self.columns[name]), m, alpha).assign(variant_name=name)
            for name, m in self.moments.items()
        ]
        out = pd.concat(frames, ignore_index=True)
        out = out[["variant_name", *[c for c in out.columns if c != "variant_name"]]].copy()
        # one family: every variant and every quantity (rates and margins) together
        p_adj, reject, level = multiple_tests(out["pvalue"].to_numpy(), alpha, correction)
        out["pvalue_adj"] = p_adj
        out["significant"] = np.asarray(reject, dtype=bool)
        out["adj_low"], out["adj_high"] = effect_confint(
            out["diff"].to_numpy(), out["se"].to_numpy(), out["num_games"].to_numpy(), out["unit"].to_numpy(), level
        )
        return out


def compare_variants(
    quantities: Mapping[str, pd.DataFrame], baseline: str, alpha: float = 0.05, correction: str | None = "holm"
) -> pd.DataFrame:
    """:func:`paired_effects` of every variant against ``baseline``, with multiple-testing control.

    ``quantities`` maps variant names to :func:`game_quantities` tables. Returns the rows of
    :func:`paired_effects` with ``variant_name`` first, plus ``pvalue_adj``, ``significant`` and
    ``adj_low``, ``adj_high`` (the interval adjusted to the same family, which excludes 0 exactly
    when the effect is significant; see ``analysis.stats._util.holm_level``):
    the p-values are adjusted over all variants and all quantities (win rates and margins)
    together (``correction``, a ``statsmodels`` ``multipletests`` method, Holm by default, so a
    family of changes that do nothing shows any significant effect, on any quantity, at most
    ``alpha`` of the time).
    """
    check_alpha(alpha)
    return PairedRounds(baseline).add(quantities).effects(alpha, correction)


LENGTH_INFO = pd.DataFrame(
    [["rounds", "game length", "rounds a game", "rounds"], ["turns", "game length", "turns a game", "turns"]],
    columns=QUANTITY_COLUMNS,
)
"""What :func:`length_effects` measures: rounds and turns a game (a run's ``games.rounds``, ``games.turns``)."""


def length_effects(
    lengths: Mapping[str, pd.DataFrame], baseline: str, alpha: float = 0.05, correction: str | None = "holm"
) -> pd.DataFrame:
    """The paired effect of every variant on the game's length: rounds and turns a game.

    ``lengths`` maps variant names to tables of ``rounds`` and ``turns`` indexed by game (the same games for every
    variant). Returns the rows of :func:`game_measure_effects`, the family being every variant's rounds and turns
    (apart from the win rates': a length is its own question).
    """
    return game_measure_effects(lengths, baseline, LENGTH_INFO, alpha, correction)


def play_effects(
    profiles: Mapping[str, pd.DataFrame], baseline: str, alpha: float = 0.05, correction: str | None = "holm"
) -> pd.DataFrame:
    """The paired effect of every variant on how the game is played: each play-profile count a game.

    ``profiles`` maps variant names to tables indexed by game with one column per play-profile measure (a
    mechanism's uses by every seat of the game, e.g. ``trades``). Returns the rows of :func:`game_measure_effects`,
    the family being every variant's measures."""
    columns = list(profiles[baseline].columns)
    info = pd.DataFrame(
        [[c, "play", f"{c.replace('_', ' ')} a game", "count"] for c in columns], columns=QUANTITY_COLUMNS
    )
    return game_measure_effects(profiles, baseline, info, alpha, correction)


def game_measure_effects(
    tables: Mapping[str, pd.DataFrame],
    baseline: str,
    info: pd.DataFrame,
    alpha: float = 0.05,
    correction: str | None = "holm",
) -> pd.DataFrame:
    """The paired effect of every variant on per-game measures (one family, apart from the win rates').

    ``tables`` maps variant names to tables indexed by game (the same games for every variant) with a column per
    measure of ``info`` (:data:`QUANTITY_COLUMNS` rows). Returns the rows of :func:`compare_variants`
    (``variant_name``, :data:`QUANTITY_COLUMNS`, means, ``diff``, t interval, ``pvalue``, ``pvalue_adj``,
    ``significant``, ``adj_low``, ``adj_high``), adjusted over every variant and measure."""
    check_alpha(alpha)
    measures = list(info["quantity"])
    base = tables[baseline][measures]
    parts = []
    for name, table in tables.items():
        if name == baseline:
            continue
        columns, b, v = _aligned(base, table[measures])
        part = effects_table(info.set_index("quantity").loc[columns].reset_index(), pair_moments(b, v), alpha)
        parts.append(part.assign(variant_name=name))
    if not parts:
        return pd.DataFrame(columns=["variant_name", *QUANTITY_COLUMNS, "diff", "adj_low", "adj_high", "significant"])
    out = pd.concat(parts, ignore_index=True)
    out = out[["variant_name", *[c for c in out.columns if c != "variant_name"]]]
    adjusted, significant, level = multiple_tests(out["pvalue"].to_numpy(), alpha, correction)
    out["pvalue_adj"] = adjusted
    out["significant"] = significant
    out["adj_low"], out["adj_high"] = effect_confint(
        out["diff"].to_numpy(), out["se"].to_numpy(), out["num_games"].to_numpy(), out["unit"].to_numpy(), level
    )
    return out
