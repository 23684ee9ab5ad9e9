"""Report section on the game's own measures (declared by the game, recorded in the run's manifest)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from analysis.report.format import fmt_ci, fmt_int, fmt_level, fmt_num, fmt_pct
from analysis.report.model import Section, Table, Text
from simulate.manifest import RunManifest


def metric_columns(metrics: dict[str, tuple[str, ...]]) -> list[str]:
    """The games-table columns the measures' expressions use."""
    exprs = [e for spec in metrics.values() for e in (spec[0], *spec[2:])]
    return sorted({name for e in exprs for name in re.findall(r"[A-Za-z_]\w*", e)})


def metric_estimate(part: pd.DataFrame, spec: tuple[str, ...]) -> tuple[np.ndarray, float, float]:
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


def build_metrics_section(
    games: pd.DataFrame, metrics: dict[str, tuple[str, ...]], labels: dict[str, str], alpha: float
) -> Section | None:
    """The game's own per-game measures: mean with a t interval and quantiles, per run; small counts in full."""
    if not metrics:
        return None
    section = Section("Game-specific measures")
    section.items.append(
        Text(
            "Measures the game declares for its balance questions, per run (one value per game): the mean with a "
            f"{fmt_level(alpha)} t interval, and quantiles. A measure taking few values is also shown as a "
            "distribution. A rate per deal, showdown or turn is the ratio of the totals over all games, with a "
            "delta-method interval (no quantiles)."
        )
    )
    rows, dist_rows = [], []
    for rid, part in games.groupby("run_id", observed=True, sort=False):
        for column, spec in metrics.items():
            x, est, se = metric_estimate(part, spec)
            if not len(x):
                continue
            half = stats.t.ppf(1 - alpha / 2, len(x) - 1) * se if len(x) > 1 else np.nan
            if len(spec) > 2:
                rows.append(
                    [
                        labels[str(rid)],
                        column,
                        spec[1],
                        fmt_int(len(x)),
                        fmt_num(est, 3),
                        fmt_ci(est - half, est + half, 3),
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
                    fmt_int(len(x)),
                    fmt_num(est, 2),
                    fmt_ci(est - half, est + half, 2),
                    fmt_num(q[0], 1),
                    fmt_num(q[1], 1),
                    fmt_num(q[2], 1),
                    fmt_num(x.max(), 1),
                ]
            )
            values, counts = np.unique(x, return_counts=True)
            if len(values) <= 8 and np.all(values == np.round(values)):
                shares = ", ".join(f"{v:g}: {fmt_pct(c / len(x), 1)}" for v, c in zip(values, counts, strict=True))
                dist_rows.append([labels[str(rid)], column, shares])
    section.items.append(
        Table(
            [
                "run",
                "measure",
                "meaning",
                "games",
                "mean",
                f"{fmt_level(alpha)} interval",
                "median",
                "90%",
                "99%",
                "max",
            ],
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


def design_answer(
    games: pd.DataFrame,
    manifests: Sequence[RunManifest],
    metrics: dict[str, tuple[str, ...]],
    design: Sequence[str],
    strong: Mapping[int, str] | None = None,
) -> str | None:
    """The summary's first answer: the game's design measures and its length, by player count.

    Read from the largest mirror-match run at each player count (one bot in every seat, the game's own rules
    as the other runs): a line per design measure the game declares (``design_measures``), then the game
    length in rounds (mean, with the 5-95% range) and, when the runs record the game's playing time
    (``report.playing_time``), in estimated minutes at a table against the box's; without one it says so.
    ``strong`` (player count -> the strongest rung played there in mirror matches): where it is another bot, a line
    gives the design measures again from its largest mirror run, the game at strong play.
    """
    chosen: dict[int, RunManifest] = {}
    for m in manifests:
        if not m.is_mirror:
            continue
        n = m.num_players
        if n not in chosen or m.num_games > chosen[n].num_games:
            chosen[n] = m
    if not chosen:
        return None
    counts = sorted(chosen)
    parts = {n: games[(games["run_id"] == chosen[n].run_id).to_numpy()] for n in counts}
    bots = {n: chosen[n].labels[0] for n in counts}
    if len(set(bots.values())) == 1:
        source = f"{bots[counts[0]]} mirror matches"
    else:
        source = "mirror matches of " + ", ".join(f"{b} at {n}" for n, b in bots.items())
    where = " / ".join(str(n) for n in counts)
    lines = [f"Design measures by player count ({where} player{'s' if counts != [1] else ''}; {source}):"]
    for name in design:
        if name not in metrics:
            continue
        spec = metrics[name]
        values = [metric_estimate(parts[n], spec)[1] for n in counts]
        share = spec[1].startswith("share")
        shown = " / ".join(fmt_pct(v, 0) if share else fmt_num(v, 1) for v in values)
        lines.append(f"{spec[1]}: {shown}")
    lines += _at_strong_play(games, manifests, metrics, design, strong or {}, counts, bots)
    lengths = []
    for n in counts:
        rounds = parts[n]["rounds"].to_numpy(float)
        low, high = np.quantile(rounds, [0.05, 0.95]) if len(rounds) else (np.nan, np.nan)
        lengths.append(f"{fmt_num(rounds.mean(), 1)} ({low:.0f}–{high:.0f})")
    pace = manifests[0].report.get("playing_time")
    rounds_word = manifests[0].report.get("round_word", "round") + "s"
    if pace:
        minutes = [
            fmt_num(
                float(
                    (
                        parts[n]["turns"] * pace["seconds_per_turn"] + parts[n]["rounds"] * pace["seconds_per_round"]
                    ).mean()
                )
                / 60,
                0,
            )
            for n in counts
        ]
        low, high = (fmt_num(v, 0) for v in pace["box_minutes"])
        box = f"{low} min" if low == high else f"{low}-{high} min"
        lines.append(
            f"game length: {' / '.join(lengths)} {rounds_word} (mean, 5–95%), about {' / '.join(minutes)} min at a "
            f"table at an estimated pace (box: {box})"
        )
    else:
        lines.append(
            f"game length: {' / '.join(lengths)} {rounds_word} (mean, 5–95%); in {rounds_word} only: the game data "
            "hold no "
            "playing time"
        )
    if len(lines) == 2 and lines[1].startswith("game length: "):  # the length alone: one line
        length = lines[1].removeprefix("game length: ")
        return f"Game length by player count ({where} players; {source}): {length}."
    return "\n".join(lines)


def _largest_mirror(manifests: Sequence[RunManifest], n: int, bot: str) -> RunManifest | None:
    runs = [m for m in manifests if m.num_players == n and set(m.labels) == {bot}]
    return max(runs, key=lambda m: m.num_games) if runs else None


def _at_strong_play(
    games: pd.DataFrame,
    manifests: Sequence[RunManifest],
    metrics: dict[str, tuple[str, ...]],
    design: Sequence[str],
    strong: Mapping[int, str],
    counts: list[int],
    bots: dict[int, str],
) -> list[str]:
    """The design measures again under the strongest rung of each player count, where it is not the bot the
    design lines read (one line, every measure; a count without such a run shows "–")."""
    runs = {n: _largest_mirror(manifests, n, strong[n]) for n in counts if n in strong and strong[n] != bots[n]}
    runs = {n: m for n, m in runs.items() if m is not None}
    shown_measures = [name for name in design if name in metrics]
    if not runs or not shown_measures:
        return []
    parts = {n: games[(games["run_id"] == m.run_id).to_numpy()] for n, m in runs.items()}
    who = "; ".join(f"{m.labels[0]} at {n} ({fmt_int(m.num_games)} games)" for n, m in runs.items())
    measures = []
    for name in shown_measures:
        spec = metrics[name]
        share = spec[1].startswith("share")
        values = []
        for n in counts:
            if n not in parts:
                values.append("–")
                continue
            v = metric_estimate(parts[n], spec)[1]
            values.append(fmt_pct(v, 0) if share else fmt_num(v, 1))
        measures.append(f"{spec[1]} {' / '.join(values)}")
    return [f"at strong play (the strongest rung measured: {who}): {'; '.join(measures)}"]
