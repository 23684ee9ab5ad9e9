"""Balance report of one or several runs: every answer the data supports, each with its uncertainty.

:func:`build_report` writes ``report.md`` with PNG plots beside it and ``report.html``, a single
self-contained page (plots embedded as base64 PNG, no external files, opens offline). Sections
appear only when the data support them: mirror matches for the first-player advantage, mixed
lineups for bot strength and rotated-seat advantage, replayed setups for setup variance, a
non-empty components table for component strength.

Each section is computed from the statistics in this package (``analysis.stats.seats``, ``setups``,
``strategies``, ``components``, ``outcomes``, ``convergence``) and drawn with ``analysis.plots``;
nothing here estimates anything itself. Figures are drawn on ``matplotlib.figure.Figure`` objects
with the Agg canvas, so building a report never touches pyplot's state (safe inside Jupyter).
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
import subprocess
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure as MplFigure
from scipy import stats
from statsmodels.tools.sm_exceptions import PerfectSeparationWarning

from analysis import plots
from analysis.run import check_runs, default_offsets, is_mirror, read_tables, run_label
from analysis.stats._util import format_pvalue, mirror_mask, t_confint
from analysis.stats.components import ASSOCIATION_NOTE, component_strength
from analysis.stats.convergence import convergence, games_needed
from analysis.stats.outcomes import end_reasons, game_lengths, score_summary
from analysis.stats.seats import SeatAdvantage, seat_advantage, win_rates
from analysis.stats.setups import setup_balance, setup_feature_effects, setup_variance
from analysis.stats.strategies import bradley_terry, head_to_head
from simulate.runformat import RunFormatError

__all__ = [
    "Figure",
    "Report",
    "Section",
    "Table",
    "Text",
    "build_report",
    "compute_report",
    "render_html",
    "render_markdown",
    "write_report",
]

DPI = 80
"""Resolution of the report's PNG plots (kept low: the HTML embeds every plot)."""

_SEAT_COLUMNS = ["game", "setup_id", "num_players", "seat", "bot", "score", "rank", "win"]
_GAME_COLUMNS = ["game", "setup_id", "num_players", "turns", "rounds", "end_reason"]
_SOLO_OPPONENT_SCORE = "automa_score"  # games column of a game with a solo opponent: its final score
_COMPONENT_COLUMNS = ["game", "seat", "component", "kind", "round"]
_TOP_SETUPS = 5
_TOP_FEATURES = 10
_TOP_COMPONENTS = 12
_FOREST_COMPONENTS = 20


# --------------------------------------------------------------------------- document model


@dataclass
class Text:
    """A paragraph; ``kind`` is ``"p"``, ``"verdict"`` (a plain-language answer), ``"warn"`` or ``"code"``."""

    text: str
    kind: str = "p"


@dataclass
class Table:
    """A small table of already formatted cells."""

    columns: list[str]
    rows: list[list[str]]
    caption: str = ""


@dataclass
class Figure:
    """A plot rendered to PNG bytes; written as ``name`` beside ``report.md``."""

    name: str
    png: bytes
    caption: str = ""


@dataclass
class Section:
    """A numbered section of the report."""

    title: str
    items: list[Text | Table | Figure] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    """Sentences repeated in the report's key findings."""


@dataclass
class Report:
    """A computed report: header (runs, provenance, warnings) and sections, ready to render."""

    title: str
    header: list[Text | Table]
    sections: list[Section]

    @property
    def figures(self) -> list[Figure]:
        return [item for s in self.sections for item in s.items if isinstance(item, Figure)]


# --------------------------------------------------------------------------- formatting


def _players(n: int) -> str:
    """'1 player', '3 players'."""
    return f"{int(n)} player{'' if int(n) == 1 else 's'}"


def _ok(x: Any) -> bool:
    try:
        return bool(np.isfinite(float(x)))
    except (TypeError, ValueError):
        return False


def _pct(x: float, digits: int = 1) -> str:
    return f"{100 * x:.{digits}f}%" if _ok(x) else "n/a"


def _pct_ci(low: float, high: float, digits: int = 1) -> str:
    return f"{100 * low:.{digits}f}–{100 * high:.{digits}f}%" if _ok(low) and _ok(high) else "n/a"


def _pp(x: float, digits: int = 1) -> str:
    return f"{100 * x:+.{digits}f}" if _ok(x) else "n/a"


def _num(x: float, digits: int = 1, sign: bool = False) -> str:
    if not _ok(x):
        return "n/a"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _ci(low: float, high: float, digits: int = 1, sign: bool = False) -> str:
    return f"{_num(low, digits, sign)} to {_num(high, digits, sign)}" if _ok(low) and _ok(high) else "n/a"


_HOPELESS = 1e10  # more games than any run will play (as in analysis.stats.convergence)
_NO_VARIANCE = 1e-9  # within-setup variance below this is rounding: the replays were identical


def _games_text(x: float) -> str:
    return f"{int(x):,}" if _ok(x) and x < _HOPELESS else "no plannable count"


def _int(x: float) -> str:
    return f"{int(x):,}" if _ok(x) else "n/a"


def _p(p: float) -> str:
    return format_pvalue(p).replace("p = ", "").replace("p < ", "< ")


def _level(alpha: float) -> str:
    return f"{100 * (1 - alpha):g}%"


def _render(fig: MplFigure) -> bytes:
    buf = io.BytesIO()
    FigureCanvasAgg(fig)
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def _figure(name: str, caption: str, panels: Sequence[Callable], ncols: int = 1, size=(6.5, 4.0)) -> Figure:
    """Draw ``panels`` (callables taking an Axes) on one figure and render it."""
    nrows = -(-len(panels) // ncols)
    fig = MplFigure(figsize=(size[0] * ncols, size[1] * nrows), layout="constrained")
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for draw, ax in zip(panels, axes, strict=False):
        draw(ax)
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    return Figure(name, _render(fig), caption)


# --------------------------------------------------------------------------- header


def _bots(m: dict[str, Any]) -> str:
    counts: dict[str, int] = {}
    params: dict[str, dict] = {}
    for e in m["lineup"]:
        counts[e["label"]] = counts.get(e["label"], 0) + 1
        params[e["label"]] = e.get("params", {})
    parts = []
    for label, k in counts.items():
        ps = ", ".join(f"{key}={value:g}" for key, value in params[label].items())
        parts.append(f"{label}{f' ×{k}' if k > 1 else ''}" + (f" ({ps})" if ps else ""))
    return "; ".join(parts)


def _design(m: dict[str, Any]) -> str:
    d = m.get("design", {})
    rotate = "seats rotated" if d.get("rotate_seats", True) else "fixed seats"
    if d.get("setups"):
        return f"{d['setups']:,} setups × {d.get('games_per_setup', 1)} games, {rotate}"
    return f"a new setup every game, {rotate}"


def _rules(m: dict[str, Any]) -> str:
    rules = ", ".join(f"{k}={v}" for k, v in m.get("rules", {}).items())
    changed = m.get("rule_overrides") or {}
    return rules + (f" (changed: {', '.join(f'{k}={v}' for k, v in changed.items())})" if changed else "")


def _data(m: dict[str, Any]) -> str:
    d = m.get("data", {})
    text = d.get("folder", "?")
    text += " (shipped data)" if d.get("default", False) else " (NOT the shipped data)"
    if d.get("estimates"):
        text += ", CONTAINS ESTIMATES"
    return text


def _source_revision() -> str:
    """' (git <commit>)' of the source tree this package runs from, noting uncommitted changes; '' if unknown."""
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "simulate", "analysis", "seeds"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return f" (git {commit}{' with uncommitted changes' if dirty else ''})" if commit else ""


def _header(manifests: list[dict[str, Any]], command: str | None, alpha: float) -> list[Text | Table]:
    items: list[Text | Table] = []
    total = sum(int(m["num_games"]) for m in manifests)
    game = manifests[0].get("title", manifests[0]["game"])
    items.append(
        Text(
            f"{game}: {total:,} games in {len(manifests)} run{'s' if len(manifests) > 1 else ''}. "
            f"Intervals are {_level(alpha)} (Wilson for rates, bootstrap for score margins, F for the "
            "intraclass correlation, Wald for ratings); every run was verified complete with intact part "
            f"files before analysis. Generated {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} by golem-lab "
            f"{manifests[0].get('package_version', '?')}{_source_revision()}."
        )
    )
    if command:
        items.append(Text("Reproduce this report with:"))
        items.append(Text(command, "code"))
    turn_order = _game_facts(manifests)["turn_order_column"]
    if turn_order:
        items.append(
            Text(
                f"This game draws its turn order at setup: a seat in this report is a place in the first "
                f"round's turn order (column {turn_order}, 1 = first to act), not a place at the table."
            )
        )
    for m in manifests:
        d = m.get("data", {})
        name = run_label(m)
        if d.get("estimates"):
            items.append(
                Text(
                    f"Run {name} plays data that contain estimates (data.estimates is true): "
                    "results that depend on estimated values are provisional.",
                    "warn",
                )
            )
        if not d.get("default", True):
            items.append(
                Text(
                    f"Run {name} plays non-default data from {d.get('folder')}: its results describe that "
                    "variant, not the shipped game.",
                    "warn",
                )
            )
        if m.get("rule_overrides"):
            items.append(Text(f"Run {name} changes rule options: {_rules(m)}.", "warn"))
    if len({m.get("engine_version") for m in manifests}) > 1:
        items.append(Text("The runs were played with different engine versions; pooled results mix them.", "warn"))
    by_players: dict[int, set] = {}
    base_rules = _base_rules(manifests)
    for m in manifests:
        if _rules_key(m) != base_rules:
            continue  # rule variants are compared with their baseline, never pooled
        key = (str(m.get("rules")), str(m.get("data", {}).get("files")))
        by_players.setdefault(int(m["num_players"]), set()).add(key)
    mixed = sorted(n for n, keys in by_players.items() if len(keys) > 1)
    if mixed:
        items.append(
            Text(
                f"Runs of {', '.join(map(str, mixed))} players differ in rules or data and are pooled where "
                "sections pool by player count.",
                "warn",
            )
        )
    rows = [
        [
            run_label(m),
            m["game"],
            str(m["num_players"]),
            f"{int(m['num_games']):,}",
            str(m.get("master_seed", "?")),
            _bots(m),
            _design(m),
            _rules(m),
            _data(m),
            str(m.get("engine_version", "?")),
            str(m.get("package_version", "?")),
        ]
        for m in manifests
    ]
    items.append(
        Table(
            [
                "run",
                "game",
                "players",
                "games",
                "seed",
                "bots (parameters)",
                "design",
                "rules",
                "data",
                "engine",
                "package",
            ],
            rows,
            "Runs in this report.",
        )
    )
    items.append(Text("Commands that produced the runs:"))
    items.append(Text("\n".join(f"{m.get('command') or '(command not recorded)'}" for m in manifests), "code"))
    return items


# --------------------------------------------------------------------------- sections


def _win_rate_section(seats: pd.DataFrame, labels: dict[str, str], alpha: float) -> Section:
    table = win_rates(seats, by=["run_id", "seat"], alpha=alpha)
    rows = [
        [
            labels[str(r.run_id)],
            str(r.num_players),
            str(r.seat),
            _int(r.num_games),
            _pct(r.win_rate, 2),
            _pct_ci(r.ci_low, r.ci_high, 2),
            _pct(r.fair, 2),
            _pp(r.excess, 2),
        ]
        for r in table.itertuples()
    ]
    return Section(
        "Win rates by seat",
        [
            Text(
                "Every run's win rate by seat with Wilson intervals; a shared tie counts 1/k for each of the k "
                "tied seats. Seat 1 moves first. Runs that replay setups count every replay as a game, so their "
                "intervals are too narrow when the replays are alike."
            ),
            Table(
                ["run", "players", "seat", "games", "win rate", f"{_level(alpha)} interval", "fair", "excess (pp)"],
                rows,
            ),
        ],
    )


def _advantage_rows(table: pd.DataFrame) -> list[list[str]]:
    return [
        [
            str(r.num_players),
            str(r.seat),
            _int(r.num_games),
            _pct(r.win_rate, 2),
            _pct_ci(r.ci_low, r.ci_high, 2),
            _pct(r.fair, 2),
            _pp(r.excess, 2),
            _num(r.margin, 2, True),
            _ci(r.margin_low, r.margin_high, 2, True),
        ]
        for r in table.itertuples()
    ]


def _test_rows(tests: pd.DataFrame, alpha: float) -> list[list[str]]:
    return [
        [
            str(t.num_players),
            _int(t.num_games),
            _num(t.chi2, 1),
            str(t.df),
            _p(t.pvalue),
            "seats differ" if t.significant else "no difference detected",
        ]
        for t in tests.itertuples()
    ]


def _adv_columns(unit: str) -> list[str]:
    return [
        "players",
        "seat",
        "games",
        "win rate",
        "interval",
        "fair",
        "excess (pp)",
        f"margin ({unit})",
        "margin interval",
    ]


_TEST_COLUMNS = ["players", "games", "Wald chi-square", "df", "p", "verdict"]
_TEST_CAPTION = "Wald test of equal win shares (1/n each)."


def _seat_advantage_by_count(
    seats: pd.DataFrame, lineup: str, alpha: float, rng: np.random.Generator, unit: str
) -> tuple[SeatAdvantage, list[tuple[int, str]]]:
    """``seat_advantage`` per player count: the combined tables, and each count's verdict apart."""
    results = []
    for n in sorted(seats["num_players"].unique()):
        part = seats[(seats["num_players"] == n).to_numpy()]
        results.append((int(n), seat_advantage(part, lineup=lineup, alpha=alpha, random_state=rng, unit=unit)))
    table = pd.concat([r.table for _, r in results], ignore_index=True)
    tests = pd.concat([r.tests for _, r in results], ignore_index=True)
    verdicts = [(n, r.verdict) for n, r in results]
    return SeatAdvantage(table, tests, " ".join(v for _, v in verdicts)), verdicts


def _mirror_section(seats: pd.DataFrame, mirror: np.ndarray, alpha: float, rng: np.random.Generator, unit: str):
    if not mirror.any():
        return None, {}
    sub = seats.loc[mirror, ["game", "num_players", "seat", "bot", "score", "win"]]
    counts = sub["bot"].value_counts()
    labels = [str(label) for label in counts[counts > 0].index]
    section = Section("First-player advantage in mirror matches")
    section.items.append(
        Text(
            "In a mirror match every seat holds the same bot, so any difference between seats is the game's. "
            "Wins per seat are tested against the fair share 1/n with a Wald test on the per-game win shares "
            "and their sample covariance (Hotelling's T^2, n - 1 df; a shared tie is a small deviation, not a "
            "whole win). The score margin is a seat's score minus the mean score of the other seats, with a "
            "percentile bootstrap interval over games."
        )
    )
    results = {}
    for label in labels:
        part = sub[(sub["bot"] == label).to_numpy()]
        adv, verdicts = _seat_advantage_by_count(part, "mirror", alpha, rng, unit)
        results[label] = adv
        for n, verdict in verdicts:
            section.items.append(Text(f"{_players(n)}, {label} mirror matches: {verdict}", "verdict"))
            section.findings.append(f"First player, {_players(n)} ({label} mirror matches): {verdict}")
        section.items.append(Table(_adv_columns(unit), _advantage_rows(adv.table), f"Seats in {label} mirror matches."))
        section.items.append(Table(_TEST_COLUMNS, _test_rows(adv.tests, alpha), _TEST_CAPTION))
        section.items.append(
            _figure(
                f"seat-win-rates-mirror-{_slug(label)}.png",
                f"Seat win rates in {label} mirror matches against the fair line 1/n.",
                [
                    lambda ax, t=adv.table, lab=label: plots.plot_seat_win_rates(
                        t, ax=ax, title=f"Win rate by seat, {lab} mirror matches"
                    )
                ],
                size=(7, 4),
            )
        )
    return section, results


def _solo_section(seats: pd.DataFrame, games: pd.DataFrame, alpha: float) -> Section | None:
    """Solo games: each bot's win rate against the game's automated opponent, and the score margin when the
    games table has the opponent's score (``automa_score``)."""
    if seats.empty:
        return None
    margins = None
    if _SOLO_OPPONENT_SCORE in games.columns:
        opponent = games.set_index("game")[_SOLO_OPPONENT_SCORE]
        margin = seats["score"].to_numpy(float) - opponent.reindex(seats["game"]).to_numpy(float)
        margins = pd.DataFrame({"bot": seats["bot"].to_numpy(), "margin": margin}).groupby("bot", observed=True)
        margins = margins["margin"].agg(["mean", "median", "std", "size"])
        se = margins["std"] / np.sqrt(margins["size"])
        margins["low"], margins["high"] = t_confint(margins["mean"], se, margins["size"] - 1, alpha)
    section = Section("Solo mode against the automated opponent")
    section.items.append(
        Text(
            "In a solo game one seat plays against the game's automated opponent, so there is no seat to compare "
            "with: the question is how often each bot beats the automaton (a shared tie counts half)."
        )
    )
    rates = win_rates(seats, by="bot", alpha=alpha)
    scores = seats.groupby("bot", observed=True)["score"].mean()
    rows = []
    for r in rates.itertuples():
        rows.append(
            [
                str(r.bot),
                _int(r.num_games),
                _pct(r.win_rate, 2),
                _pct_ci(r.ci_low, r.ci_high, 2),
                _num(scores[r.bot], 1),
            ]
        )
        verdict = (
            f"{r.bot} beats the automaton in {_pct(r.win_rate)} ({_pct_ci(r.ci_low, r.ci_high)}) of "
            f"{_int(r.num_games)} solo games"
        )
        if margins is not None:
            m = margins.loc[r.bot]
            rows[-1] += [
                _num(m["mean"], 2, sign=True),
                _ci(m["low"], m["high"], 2, sign=True),
                _num(m["median"], 1, sign=True),
            ]
            verdict += (
                f", by a mean margin of {_num(m['mean'], 1, sign=True)} points "
                f"(median {_num(m['median'], 1, sign=True)})"
            )
        section.items.append(Text(verdict, "verdict"))
        section.findings.append(f"Solo: {verdict}.")
    header = ["bot", "games", "win rate", f"{_level(alpha)} interval", "mean score"]
    if margins is not None:
        header += ["mean margin", f"{_level(alpha)} interval", "median margin"]
    caption = "Solo games." + (" Margin: the bot's score minus the automaton's." if margins is not None else "")
    section.items.append(Table(header, rows, caption))
    return section


def _mixed_section(seats: pd.DataFrame, mirror: np.ndarray, alpha: float, rng: np.random.Generator, unit: str):
    if mirror.all():
        return None, None
    sub = seats.loc[~mirror, ["game", "num_players", "seat", "bot", "score", "win"]]
    section = Section("Mixed bots with rotated seats")
    section.items.append(
        Text(
            "Games whose seats hold different bots. With the lineup rotated through the seats every bot sits "
            "in every seat equally often, so seat effects and bot strength separate; a bot's win rate counts "
            "its seat-games."
        )
    )
    by_bot = win_rates(sub, by="bot", alpha=alpha)
    section.items.append(
        Table(
            ["players", "bot", "seat-games", "win rate", f"{_level(alpha)} interval", "fair", "excess (pp)"],
            [
                [
                    str(r.num_players),
                    str(r.bot),
                    _int(r.num_games),
                    _pct(r.win_rate, 2),
                    _pct_ci(r.ci_low, r.ci_high, 2),
                    _pct(r.fair, 2),
                    _pp(r.excess, 2),
                ]
                for r in by_bot.itertuples()
            ],
            "Win rate by bot.",
        )
    )
    by_both = win_rates(sub, by=["bot", "seat"], alpha=alpha)
    section.items.append(
        Table(
            ["players", "bot", "seat", "games", "win rate", f"{_level(alpha)} interval"],
            [
                [
                    str(r.num_players),
                    str(r.bot),
                    str(r.seat),
                    _int(r.num_games),
                    _pct(r.win_rate, 2),
                    _pct_ci(r.ci_low, r.ci_high, 2),
                ]
                for r in by_both.itertuples()
            ],
            "Win rate by bot and seat.",
        )
    )
    adv, verdicts = _seat_advantage_by_count(sub, "all", alpha, rng, unit)
    for n, verdict in verdicts:
        section.items.append(Text(f"{_players(n)}, mixed bots: {verdict}", "verdict"))
        section.findings.append(f"Seats with mixed bots, {_players(n)}: {verdict}")
    section.items.append(Table(_adv_columns(unit), _advantage_rows(adv.table), "Seats in mixed-bot games."))
    section.items.append(Table(_TEST_COLUMNS, _test_rows(adv.tests, alpha), _TEST_CAPTION))
    section.items.append(
        _figure(
            "seat-win-rates-mixed.png",
            "Seat win rates in mixed-bot games against the fair line 1/n.",
            [lambda ax: plots.plot_seat_win_rates(adv.table, ax=ax, title="Win rate by seat, mixed bots")],
            size=(7, 4),
        )
    )
    return section, adv


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def _setup_descriptors(games: pd.DataFrame) -> pd.DataFrame:
    """One row per setup: its opening rows as text, one column per descriptor family."""
    first = games.drop_duplicates("setup_id")
    families: dict[str, list[str]] = {}
    for column in first.columns:
        if column.startswith("setup_") and column not in ("setup_id", "setup_seed"):
            families.setdefault(re.sub(r"_\d+$", "", column), []).append(column)
    out = pd.DataFrame({"setup_id": first["setup_id"].to_numpy()})
    for family, columns in families.items():
        values = [first[c].astype(str).to_numpy() for c in columns]
        out[family] = [" ".join(v) for v in zip(*values, strict=True)]
    return out.set_index("setup_id")


def _setup_section(
    seats: pd.DataFrame,
    manifests: list[dict[str, Any]],
    offsets: dict[str, int],
    alpha: float,
    unit: str = "points",
) -> Section | None:
    setup_runs = [m for m in manifests if _replays_setups(m)]
    if not setup_runs:
        return None
    ids = {m["run_id"] for m in setup_runs}
    sub = seats.loc[
        seats["run_id"].isin(ids).to_numpy(), ["run_id", "game", "setup_id", "num_players", "seat", "score", "win"]
    ]
    setup_columns = sorted({c for m in setup_runs for c in m.get("columns", {}).get("setup", [])})
    games = read_tables(
        setup_runs, "games", ["game", "setup_id", *setup_columns], [offsets[m["run_id"]] for m in setup_runs]
    )
    section = Section("Setup variance")
    section.items.append(
        Text(
            "Runs that replay each setup several times (seats rotated between replays) show how much the "
            "opening deal decides. A one-way random-effects ANOVA over setups splits each seat's outcome into "
            "between- and within-setup variance; the intraclass correlation (ICC) is the share the setup "
            f"decides, with its exact F interval. Outcomes: the score margin ({unit} over the other seats' mean) "
            "and the win minus the fair share."
        )
    )
    var = setup_variance(sub, alpha=alpha)
    section.items.append(
        Table(
            ["players", "seat", "outcome", "setups", "games/setup", "ICC", "ICC interval", "setup SD", "p (F test)"],
            [
                [
                    str(r.num_players),
                    str(r.seat),
                    r.outcome,
                    _int(r.num_setups),
                    _num(r.games_per_setup, 1),
                    "100% (replays identical)" if r.var_within < _NO_VARIANCE else _pct(r.icc, 1),
                    "—" if r.var_within < _NO_VARIANCE else _pct_ci(r.icc_low, r.icc_high, 1),
                    _num(r.sd_between, 2) if r.outcome == "margin" else _num(100 * r.sd_between, 2) + " pp",
                    "—" if r.var_within < _NO_VARIANCE else _p(r.pvalue),
                ]
                for r in var.itertuples()
            ],
            "Share of each seat's outcome variance decided by the setup (setup SD: the typical shift a setup "
            f"gives, in {unit} for margins and percentage points for wins).",
        )
    )
    balance = setup_balance(sub, seat=1, outcome="margin", alpha=alpha)
    for n, part in var[(var["outcome"] == "margin") & (var["seat"] == 1)].groupby("num_players"):
        r = part.iloc[0]
        if r.var_within < _NO_VARIANCE:
            ahead = balance.loc[balance["num_players"] == n, "advantage"].to_numpy()
            text = (
                f"In {n}-player games every replay of a setup produced the same result (no variance within "
                "setups): the bots play deterministically, so the setup and the seating fix the whole game and "
                "the ICC is 1 by construction; an ICC with an interval needs bots that randomise. Setups still "
                f"differ: across {int(r.num_setups):,} setups seat 1's score margin has a standard deviation of "
                f"{r.sd_between:.1f} {unit}, and seat 1 beats the other seats' mean in {np.mean(ahead > 0):.0%} of "
                f"them ({np.mean(ahead < 0):.0%} behind)."
            )
        elif _ok(r.pvalue) and r.pvalue < alpha:
            text = (
                f"In {n}-player games the setup decides {_pct(r.icc)} ({_pct_ci(r.icc_low, r.icc_high)}) of the "
                f"variance of seat 1's score margin; a typical setup moves it by about ±{r.sd_between:.1f} {unit} "
                f"(F test {format_pvalue(r.pvalue)}, {int(r.num_setups):,} setups)."
            )
        else:
            text = (
                f"In {n}-player games no setup effect on seat 1's score margin was detected (ICC {_pct(r.icc)}, "
                f"{_pct_ci(r.icc_low, r.icc_high)}; F test {format_pvalue(r.pvalue)})."
            )
        section.items.append(Text(text, "verdict"))
        section.findings.append(text)

    describe = _setup_descriptors(games)
    run_of = sub.drop_duplicates("setup_id").set_index("setup_id")["run_id"].astype(str)
    first_game = sub.groupby("setup_id")["game"].min()
    labels = {m["run_id"]: run_label(m) for m in setup_runs}
    families = list(describe.columns)
    for n, part in balance.groupby("num_players", sort=True):
        for title, chosen in (
            ("Most balanced", part.nsmallest(_TOP_SETUPS, "imbalance")),
            ("Least balanced", part.nlargest(_TOP_SETUPS, "imbalance")),
        ):
            rows = []
            for r in chosen.itertuples():
                rid = run_of.get(r.setup_id, "")
                local = int(r.setup_id) - offsets.get(rid, 0)
                rows.append(
                    [
                        labels.get(rid, rid),
                        str(local),
                        str(int(first_game.get(r.setup_id, -1)) - offsets.get(rid, 0)),
                        _int(r.num_games),
                        _num(r.advantage, 2, True),
                        "exact (replays identical)"
                        if abs(r.ci_high - r.ci_low) < _NO_VARIANCE
                        else _ci(r.ci_low, r.ci_high, 2, True),
                        _num(r.shrunk, 2, True),
                        *[str(describe.at[r.setup_id, f]) if r.setup_id in describe.index else "" for f in families],
                    ]
                )
            section.items.append(
                Table(
                    ["run", "setup", "first game", "games", "seat 1 margin", "interval", "shrunk", *families],
                    rows,
                    f"{title} setups, {_players(n)} (replay one with 'golem replay RUN --game FIRST_GAME'): seat 1's "
                    "mean score margin in the setup's games, and the "
                    "empirical-Bayes (shrunk) estimate that ranks them.",
                )
            )
        section.items.append(
            _figure(
                f"setup-caterpillar-{n}p.png",
                f"Seat 1's score margin by setup, {n}-player games, sorted, with intervals.",
                [lambda ax, n=n: plots.plot_setup_caterpillar(balance, ax=ax, num_players=n)],
                size=(8, 4),
            )
        )
    try:
        effects = setup_feature_effects(sub, games, seat=1, outcome="margin", alpha=alpha, correction="holm")
    except ValueError as e:
        section.items.append(Text(f"Setup features were not analysed: {e}."))
        return section
    for n, part in effects.groupby("num_players", sort=True):
        num_sig = int(part["significant"].sum())
        shown = part.sort_values(["significant", "pvalue"], ascending=[False, True]).head(_TOP_FEATURES)
        if num_sig:
            top = (
                part[part["significant"]]
                .reindex(part[part["significant"]]["effect"].abs().sort_values(ascending=False).index)
                .iloc[0]
            )
            text = (
                f"{num_sig} of {len(part)} opening-row features shift seat 1's score margin in {n}-player games "
                f"after Holm correction; the largest: {top.feature} ({top.effect:+.2f} {unit}, "
                f"{_ci(top.ci_low, top.ci_high, 2, True)})."
            )
        else:
            text = (
                f"None of {len(part)} opening-row features shifts seat 1's score margin in {n}-player games "
                "detectably after Holm correction."
            )
        section.items.append(Text(text, "verdict"))
        section.findings.append(text)
        section.items.append(
            Table(
                [
                    "feature",
                    "setups with",
                    "without",
                    f"effect ({unit})",
                    "adjusted interval",
                    "p (Holm)",
                    "significant",
                ],
                [
                    [
                        r.feature,
                        _int(r.num_setups_with),
                        _int(r.num_setups_without),
                        _num(r.effect, 2, True),
                        _ci(r.ci_low, r.ci_high, 2, True),
                        _p(r.pvalue_adj),
                        "yes" if r.significant else "no",
                    ]
                    for r in shown.itertuples()
                ],
                f"Setup features and seat 1's score margin, {_players(n)}: setups holding the card in that opening row "
                "against setups without it, one value per setup (Welch t test); intervals hold simultaneously "
                "(Bonferroni).",
            )
        )
    return section


def _strategy_section(seats: pd.DataFrame, alpha: float) -> Section | None:
    if seats["bot"].nunique() < 2:
        return None
    pairs = seats[["game", "seat", "bot", "rank"]]
    h2h = head_to_head(pairs, alpha=alpha)
    if h2h.empty:
        return None
    section = Section("Strategy strength")
    section.items.append(
        Text(
            "Each game is broken into its seat pairs: the better-ranked seat wins the pair (a shared tie counts "
            "half). Pairs from one game are not independent, so intervals are clustered by game. Bradley-Terry "
            "strengths are fitted to all pairs and shown on the Elo scale (400 points = 10:1 odds). Player counts "
            "are pooled."
        )
    )
    # a bot that never (or always) beats another makes the maximum-likelihood ratings infinite
    separated = bool(((h2h["wins"] <= 0) | (h2h["wins"] >= h2h["num_comparisons"])).any())
    if separated:
        section.items.append(
            Text(
                "Some bot never finishes above another, so the ratings add half a win to each side of every "
                "pair (a pseudo-count) to stay finite; they rank the bots but understate such gaps.",
                "warn",
            )
        )
    try:
        with warnings.catch_warnings():  # a single pair of bots leaves the GLM no residual df; harmless
            warnings.simplefilter("ignore", RuntimeWarning)
            warnings.simplefilter("ignore", PerfectSeparationWarning)  # near-certain pairs; flagged above
            ratings = bradley_terry(h2h, alpha=alpha, pseudo_count=0.5 if separated else 0.0, seats=pairs)
    except ValueError as e:
        ratings = None
        section.items.append(Text(f"No Bradley-Terry ratings: {e}.", "warn"))
    order = list(ratings["bot"]) if ratings is not None else sorted(set(h2h["bot"]))
    cell = {(r.bot, r.opponent): f"{_pct(r.win_rate)} ({_pct_ci(r.ci_low, r.ci_high)})" for r in h2h.itertuples()}
    section.items.append(
        Table(
            ["bot \\ opponent", *order],
            [[b, *[cell.get((b, o), "—") for o in order]] for b in order],
            "Head-to-head: how often the row bot finishes above the column bot, with Wilson intervals "
            "clustered by game.",
        )
    )
    panels = [lambda ax: plots.plot_head_to_head(h2h, ax=ax, order=order)]
    if ratings is not None:
        section.items.append(
            Table(
                ["bot", "Elo", "Elo interval", "strength (log-odds)", "comparisons"],
                [
                    [r.bot, _num(r.elo, 0), _ci(r.elo_low, r.elo_high, 0), _num(r.rating, 3), _int(r.num_comparisons)]
                    for r in ratings.itertuples()
                ],
                "Bradley-Terry ratings (Elo scale, centred on 1500).",
            )
        )
        best, rest = ratings.iloc[0], ratings.iloc[1:]
        parts = []
        for r in rest.itertuples():
            rate = h2h[(h2h["bot"] == best.bot) & (h2h["opponent"] == r.bot)]
            if not rate.empty:
                x = rate.iloc[0]
                parts.append(f"{x.win_rate:.1%} ({_pct_ci(x.ci_low, x.ci_high)}) against {r.bot}")
        separated = all(
            a.elo_low > b.elo_high
            for a, b in zip(ratings.iloc[:-1].itertuples(), ratings.iloc[1:].itertuples(), strict=True)
        )
        text = (
            f"Strength order: {' > '.join(ratings['bot'])}"
            f"{' (every adjacent pair separated by its intervals)' if separated else ' (some intervals overlap)'}. "
            f"{best.bot} rates {best.elo:.0f} Elo ({_ci(best.elo_low, best.elo_high, 0)})"
            + (f" and finishes above {'; '.join(parts)}." if parts else ".")
        )
        section.items.append(Text(text, "verdict"))
        section.findings.append(text)
        panels.append(lambda ax: plots.plot_ratings(ratings, ax=ax))
    section.items.append(
        _figure(
            "bot-matrix.png", "Head-to-head matrix and Bradley-Terry ratings.", panels, ncols=len(panels), size=(6, 4.5)
        )
    )
    return section


def _component_section(
    seats: pd.DataFrame,
    games: pd.DataFrame,
    manifests: list[dict[str, Any]],
    offsets: dict[str, int],
    alpha: float,
) -> Section | None:
    with_rows = [m for m in manifests if any(c["files"]["components"]["rows"] for c in m["chunks"].values())]
    if not with_rows:
        return None
    section = Section("Component strength")
    section.items.append(
        Text(
            "This is " + ASSOCIATION_NOTE + ". Strong play both acquires good cards and wins; a card taken late "
            "was taken by a seat already ahead or behind. Read a large effect as worth a closer look, never as "
            "proof that a card is too strong.",
            "warn",
        )
    )
    section.items.append(
        Text(
            "Each seat that acquired a component is compared with the seats of the same player count that never "
            "did, overall and by when it first acquired it (early, mid, late: terciles of the game's rounds). "
            "Standard errors are clustered by game; p-values and intervals are Holm/Bonferroni-adjusted over the "
            "components of each player count and phase. Where a player count has mirror matches only those are "
            "used, so bot strength does not masquerade as card strength."
        )
    )
    results = []
    for n in sorted({int(m["num_players"]) for m in with_rows}):  # one player count at a time: less memory
        runs = [m for m in with_rows if int(m["num_players"]) == n]
        mirrors = [m for m in runs if is_mirror(m)]
        if not mirrors:
            section.items.append(
                Text(f"{_players(n)}: no mirror matches, so these associations mix bot strength in.", "warn")
            )
        runs = mirrors or runs
        ids = {m["run_id"] for m in runs}
        keep = seats["run_id"].isin(ids).to_numpy()
        comps = read_tables(runs, "components", _COMPONENT_COLUMNS, [offsets[m["run_id"]] for m in runs])
        if "table_seat" in seats:
            comps["seat"] = _turn_order_seats(seats.loc[keep], comps)
        part_seats = seats.loc[keep, ["game", "seat", "num_players", "score", "win"]]
        part_games = games.loc[games["run_id"].isin(ids).to_numpy(), ["game", "rounds"]]
        result = component_strength(part_seats, comps, part_games, alpha=alpha, correction="holm")
        del comps, part_seats, part_games
        if result.empty:
            section.items.append(Text(f"{_players(n)}: too few acquisitions of any component to compare."))
        results.append(result)
    strength = pd.concat(results, ignore_index=True)
    if strength.empty:
        return section
    for n, part in strength.groupby("num_players", sort=True):
        overall = part[part["phase"] == "any"]
        num_sig = int(overall["significant"].sum())
        up = overall[overall["significant"] & (overall["win_diff"] > 0)]
        down = overall[overall["significant"] & (overall["win_diff"] < 0)]
        text = f"{_players(n)}: {num_sig} of {len(overall)} components go with a different win rate after correction"
        if len(up):
            best = up.loc[up["win_diff"].idxmax()]
            text += (
                f"; the strongest association: {best.component} ({best.kind}), acquirers win {_pct(best.win_rate)} "
                f"against {_pct(best.win_rate_not)} ({_pp(best.win_diff)} pp, "
                f"{_pp(best.win_diff_low)} to {_pp(best.win_diff_high)})"
            )
        if len(down):
            worst = down.loc[down["win_diff"].idxmin()]
            text += (
                f"; the weakest: {worst.component} ({_pp(worst.win_diff)} pp, "
                f"{_pp(worst.win_diff_low)} to {_pp(worst.win_diff_high)})"
            )
        text += " (association, not cause)."
        section.items.append(Text(text, "verdict"))
        section.findings.append("Components, " + text)
        top = overall.reindex(overall["win_diff"].abs().sort_values(ascending=False).index).head(_TOP_COMPONENTS)
        by_phase = part.set_index(["component", "phase"])
        rows = []
        for r in top.itertuples():
            when = []
            for phase in ("early", "mid", "late"):
                key = (r.component, phase)
                if key in by_phase.index:
                    x = by_phase.loc[key]
                    when.append(f"{_pp(x.win_diff)}{'*' if x.significant else ''} (n={int(x.num_acquired):,})")
                else:
                    when.append("—")
            rows.append(
                [
                    r.component,
                    r.kind,
                    _int(r.num_acquired),
                    _pct(r.win_rate),
                    _pct(r.win_rate_not),
                    _pp(r.win_diff),
                    f"{_pp(r.win_diff_low)} to {_pp(r.win_diff_high)}",
                    _num(r.margin_diff, 1, True),
                    "yes" if r.significant else "no",
                    *when,
                ]
            )
        section.items.append(
            Table(
                [
                    "component",
                    "kind",
                    "acquired",
                    "win rate",
                    "not acquired",
                    "difference (pp)",
                    "adjusted interval",
                    "margin diff (points)",
                    "significant",
                    "early",
                    "mid",
                    "late",
                ],
                rows,
                f"{_players(n)}: the {len(top)} components with the largest win-rate association; by when: the "
                "difference (pp) for seats that first acquired it in that third of the game (* significant after "
                "correction).",
            )
        )
        section.items.append(
            _figure(
                f"component-forest-{n}p.png",
                f"Component forest plot, {_players(n)}: win rate of acquiring seats minus the rest, adjusted "
                "intervals (association, not cause).",
                [lambda ax, n=n: plots.plot_component_forest(strength, ax=ax, num_players=n, top=_FOREST_COMPONENTS)],
                size=(7, 0.28 * _FOREST_COMPONENTS + 1.8),
            )
        )
    return section


def _turn_order_seats(seats: pd.DataFrame, comps: pd.DataFrame) -> np.ndarray:
    """The turn-order place of each component row's seat (the components table names table seats)."""
    place = pd.Series(seats["seat"].to_numpy(), index=pd.MultiIndex.from_arrays([seats["game"], seats["table_seat"]]))
    found = place.reindex(pd.MultiIndex.from_arrays([comps["game"], comps["seat"]]))
    return found.to_numpy().astype(comps["seat"].dtype)


def _game_facts(manifests: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What the runs' game declares for its report, as the runner recorded it in the manifest (``report``):
    ``score_unit``, ``turn_order_column`` and ``metrics``, name -> [expression, meaning[, per]].

    A metric's expression is evaluated over the games table (``DataFrame.eval``), e.g. ``"rounds >= 3"``; one
    with ``per`` is a ratio of totals over the games, ``sum(expression) / sum(per)`` (e.g. chips per deal).
    """
    facts = manifests[0].get("report")
    if facts is None:
        raise RunFormatError(
            f"{manifests[0].get('path', manifests[0]['run_id'])}: the run was written before runs recorded what a "
            "report needs of the game (manifest 'report'); play it again (golem study plays such runs again)"
        )
    return facts


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


def _rules_key(m: dict[str, Any]) -> str:
    return json.dumps(m.get("rules", {}), sort_keys=True)


def _base_rules(manifests: Sequence[dict[str, Any]]) -> str:
    """The rules most runs share (the first run's on a tie): runs under other rules are rule variants."""
    keys = [_rules_key(m) for m in manifests]
    return max(dict.fromkeys(keys), key=keys.count)


def _lineup_key(m: dict[str, Any]) -> tuple:
    return int(m["num_players"]), tuple(e["label"] for e in m["lineup"]), _replays_setups(m)


def _variant_section(
    games: pd.DataFrame,
    seats: pd.DataFrame,
    manifests: Sequence[dict[str, Any]],
    metrics: dict[str, tuple[str, ...]],
    labels: dict[str, str],
    alpha: float,
) -> Section | None:
    """Each run under changed rule options against the run with the same players and bots under the base rules."""
    base = _base_rules(manifests)
    variants = [m for m in manifests if _rules_key(m) != base]
    if not variants:
        return None
    baselines = {_lineup_key(m): m for m in manifests if _rules_key(m) == base}
    base_rules = json.loads(base)
    z = stats.norm.ppf(1 - alpha / 2)
    section = Section("Rule options side by side")
    section.items.append(
        Text(
            "Runs that change rule options are left out of the pooled sections and compared here with the run "
            "that has the same players and bots under the other runs' rules (the baseline): the game's measures "
            f"and seat 1's win rate, with the difference and its {_level(alpha)} normal interval (independent "
            "runs). A difference whose interval excludes 0 is marked."
        )
    )
    rows = []
    for m in variants:
        change = ", ".join(f"{k}={v}" for k, v in m.get("rules", {}).items() if base_rules.get(k) != v)
        ref = baselines.get(_lineup_key(m))
        if ref is None:
            section.items.append(
                Text(f"Run {run_label(m)} ({change}) has no baseline run with the same players and bots.", "warn")
            )
            continue
        pair = [
            (
                games[(games["run_id"] == r["run_id"]).to_numpy()],
                seats[((seats["run_id"] == r["run_id"]) & (seats["seat"] == 1)).to_numpy()],
            )
            for r in (ref, m)
        ]
        measures = [(name, spec, 0) for name, spec in metrics.items()] + [("seat 1 win rate", ("win",), 1)]
        changed = []
        for name, spec, table in measures:
            (_, b, b_se), (_, v, v_se) = (_estimate(p[table], spec) for p in pair)
            diff, half = v - b, z * np.hypot(b_se, v_se)
            marked = _ok(half) and abs(diff) > half
            if marked:
                changed.append(f"{name} {_num(b, 3)} → {_num(v, 3)}")
            rows.append(
                [
                    run_label(m),
                    change,
                    name,
                    _num(b, 3),
                    _num(v, 3),
                    _num(diff, 3, True),
                    _ci(diff - half, diff + half, 3, True),
                    "yes" if marked else "",
                ]
            )
        summary = f"Rule change {change} ({_players(m['num_players'])}, against {run_label(ref)}): "
        section.findings.append(summary + ("; ".join(changed) if changed else "no measure changed detectably") + ".")
    section.items.append(
        Table(
            [
                "run",
                "rule change",
                "measure",
                "baseline",
                "variant",
                "difference",
                f"{_level(alpha)} interval",
                "differs",
            ],
            rows,
            "Each rule variant against its baseline run.",
        )
    )
    return section


def _outcome_section(
    games: pd.DataFrame, seats: pd.DataFrame, mirror: np.ndarray, labels: dict[str, str], alpha: float, unit: str
) -> Section:
    section = Section("Game length, scores and end reasons")
    ends = end_reasons(games[["num_players", "end_reason"]], alpha=alpha)
    capped = ends.table[ends.table["turn_cap"]]
    kind = "warn" if len(capped) and capped["num_games"].sum() > 0 else "verdict"
    section.items.append(Text(ends.verdict, kind))
    section.findings.append(ends.verdict)
    section.items.append(
        Table(
            ["players", "end reason", "games", "share", f"{_level(alpha)} interval"],
            [
                [
                    str(r.num_players),
                    r.end_reason + (" (safety net, not the rules' end)" if r.turn_cap else ""),
                    _int(r.num_games),
                    _pct(r.share, 2),
                    _pct_ci(r.ci_low, r.ci_high, 2),
                ]
                for r in ends.table.itertuples()
            ],
            "How games ended.",
        )
    )
    rows = []
    for rid, part in games.groupby("run_id", observed=True, sort=False):
        for r in game_lengths(part[["num_players", "turns", "rounds", "end_reason"]]).itertuples():
            rows.append(
                [
                    labels[str(rid)],
                    str(r.num_players),
                    r.end_reason,
                    _int(r.num_games),
                    _num(r.turns_mean, 1),
                    _num(r.turns_median, 0),
                    f"{r.turns_p05:.0f}–{r.turns_p95:.0f}",
                    _num(r.rounds_mean, 1),
                    f"{r.rounds_p05:.0f}–{r.rounds_p95:.0f}",
                ]
            )
    section.items.append(
        Table(
            ["run", "players", "end reason", "games", "turns (mean)", "median", "5–95%", "rounds (mean)", "5–95%"],
            rows,
            "Game length by run.",
        )
    )
    parts = [c for c in seats.columns if c.startswith("score_")]
    summary = score_summary(seats[["game", "num_players", "run_id", "seat", "score", *parts]], by=["run_id", "seat"])
    section.items.append(
        Table(
            [
                "run",
                "players",
                "seat",
                "mean score",
                "SD",
                "median",
                "5–95%",
                "margin (mean)",
                *[p.removeprefix("score_") for p in parts],
            ],
            [
                [
                    labels[str(r.run_id)],
                    str(r.num_players),
                    str(r.seat),
                    _num(r.score_mean, 1),
                    _num(r.score_sd, 1),
                    _num(r.score_median, 0),
                    f"{r.score_p05:.0f}–{r.score_p95:.0f}",
                    _num(r.margin_mean, 2, True),
                    *[_num(getattr(r, f"{p}_mean"), 1) for p in parts],
                ]
                for r in summary.itertuples()
            ],
            f"Final scores by run and seat, with the mean of each part of the score ({unit}).",
        )
    )
    if seats["bot"].nunique() > 1 and not mirror.all():
        sub = seats.loc[~mirror, ["game", "num_players", "bot", "score"]]
        by_bot = score_summary(sub, by="bot")

        z = stats.norm.ppf(1 - alpha / 2)
        section.items.append(
            Table(
                [
                    "players",
                    "bot",
                    "seat-games",
                    "mean score",
                    f"{_level(alpha)} interval",
                    "SD",
                    "median",
                    "margin (mean)",
                ],
                [
                    [
                        str(r.num_players),
                        str(r.bot),
                        _int(r.num_games),
                        _num(r.score_mean, 1),
                        _ci(
                            r.score_mean - z * r.score_sd / np.sqrt(r.num_games),
                            r.score_mean + z * r.score_sd / np.sqrt(r.num_games),
                            2,
                        ),
                        _num(r.score_sd, 1),
                        _num(r.score_median, 0),
                        _num(r.margin_mean, 2, True),
                    ]
                    for r in by_bot.itertuples()
                ],
                f"Final scores by bot in mixed-bot games ({unit}; normal interval over seat-games, which treats "
                "the seats of one game as independent).",
            )
        )
    source = seats.loc[mirror] if mirror.any() else seats
    what = "mirror matches" if mirror.any() else "all games"
    counts = sorted(source["num_players"].unique())
    score_frame = source[["num_players", "seat", "score"]]
    section.items.append(
        _figure(
            "score-distributions.png",
            f"Final score distribution by seat ({what}), one panel per player count.",
            [
                lambda ax, n=n: plots.plot_score_distributions(score_frame, ax=ax, num_players=int(n), unit=unit)
                for n in counts
            ],
            ncols=min(2, len(counts)),
            size=(6, 3.6),
        )
    )
    length_frame = games[["num_players", "end_reason", "turns"]]
    lengths = sorted(games["num_players"].unique())
    section.items.append(
        _figure(
            "game-lengths.png",
            "Game length in turns by end reason (turn-cap endings in red).",
            [lambda ax, n=n: plots.plot_game_lengths(length_frame, ax=ax, num_players=int(n)) for n in lengths],
            ncols=min(2, len(lengths)),
            size=(6, 3.6),
        )
    )
    return section


def _convergence_section(
    seats: pd.DataFrame,
    mirror: np.ndarray,
    mirror_results: dict[str, Any],
    mixed_result: Any,
    alpha: float,
) -> Section | None:
    if seats.empty:  # solo games only: the solo section has them
        return None
    section = Section("Convergence")
    if mirror_results:
        label = max(mirror_results, key=lambda k: int(mirror_results[k].table["num_games"].sum()))
        keep = mirror & (seats["bot"] == label).to_numpy()
        conv = convergence(seats.loc[keep, ["game", "num_players", "seat", "bot", "score", "win"]], "mirror", alpha)
        what = f"{label} mirror matches"
    else:
        conv = convergence(seats.loc[~mirror, ["game", "num_players", "seat", "bot", "score", "win"]], "all", alpha)
        what = "mixed-bot games"
    section.items.append(
        Text(
            f"How the seat win rates of {what} settle as games accumulate, in run order: the interval width "
            "shrinks as 1/sqrt(N), so halving it takes four times the games."
        )
    )
    for n, part in conv.groupby("num_players", sort=True):
        last = part[part["num_games"] == part["num_games"].max()]
        width = float(last["width"].max())
        text = (
            f"{_players(n)}: after {int(last['num_games'].iloc[0]):,} games per seat the widest {_level(alpha)} "
            f"interval on a seat's win rate spans {100 * width:.2f} percentage points."
        )
        section.items.append(Text(text))
    tables = [(f"{label} mirror", r.table) for label, r in mirror_results.items()]
    if mixed_result is not None:
        tables.append(("mixed bots", mixed_result.table))
    rows = []
    open_questions = []
    plannable = []
    for name, table in tables:
        needed = games_needed(table, alpha=alpha)
        for r in needed.itertuples():
            status = "resolved" if r.resolved else "open"
            more = "—" if r.resolved else _games_text(r.more_games)
            margin_more = getattr(r, "margin_more_games", np.nan)
            margin_text = "—" if margin_more == 0 else _games_text(margin_more)
            rows.append([name, str(r.num_players), str(r.seat), _pct(r.win_rate, 2), status, more, margin_text])
            if not r.resolved:
                open_questions.append(f"{name}, {_players(r.num_players)}, {r.note}")
                if _ok(r.more_games) and r.more_games < _HOPELESS:
                    plannable.append(float(r.more_games))
    section.items.append(
        Table(
            ["lineup", "players", "seat", "win rate", "against fair", "more games to resolve", "more games (margin)"],
            rows,
            "Is each seat's win rate distinguishable from the fair share? 'resolved': the interval already "
            "excludes it; otherwise the games needed (at the current effect, power 0.5) for the interval to "
            "exclude it, and the same for the score margin against 0.",
        )
    )
    if open_questions:
        section.items.append(Text("Open questions: " + "; ".join(open_questions) + ".", "verdict"))
        summary = f"{len(open_questions)} of {len(rows)} seat win rates cannot yet be told from the fair share"
        if plannable:
            summary += (
                f"; at the current effects the plannable ones need up to {_games_text(max(plannable))} more games "
                "per lineup"
            )
        unplannable = len(open_questions) - len(plannable)
        if unplannable:
            summary += f"; {unplannable} show no real difference from fair at all"
        section.findings.append(summary + " (see Convergence).")
    else:
        text = "Every seat's win rate is already distinguishable from the fair share."
        section.items.append(Text(text, "verdict"))
        section.findings.append(text)
    panels = []
    for n in sorted(conv["num_players"].unique()):
        panels.append(lambda ax, n=int(n): plots.plot_convergence(conv, ax=ax, num_players=n))
        panels.append(lambda ax, n=int(n): plots.plot_convergence(conv, ax=ax, num_players=n, show="width"))
    section.items.append(
        _figure(
            "convergence.png",
            f"Convergence of seat win rates ({what}): estimates with intervals (left) and "
            "interval width against games (right).",
            panels,
            ncols=2,
            size=(6, 3.4),
        )
    )
    return section


# --------------------------------------------------------------------------- assembly


def compute_report(
    run_dirs: str | Path | Sequence[str | Path],
    title: str | None = None,
    *,
    command: str | None = None,
    alpha: float = 0.05,
    random_state: int | np.random.Generator | None = 0,
    checksums: bool = True,
) -> Report:
    """Verify the runs, compute every section the data support, and return the report unwritten.

    Raises ``RunFormatError`` (one line, naming the file or directory) for bad input; see
    :func:`analysis.run.check_runs`.
    """
    manifests = check_runs(run_dirs, checksums=checksums)
    offset_list = default_offsets(manifests)
    offsets = {m["run_id"]: o for m, o in zip(manifests, offset_list, strict=True)}
    labels = {m["run_id"]: run_label(m) for m in manifests}
    if len(set(labels.values())) < len(labels):
        labels = {m["run_id"]: f"{run_label(m)} ({m['run_id']})" for m in manifests}
    parts = sorted({p for m in manifests for p in m.get("columns", {}).get("score_parts", [])})
    facts = _game_facts(manifests)
    turn_order = facts["turn_order_column"]
    seats = read_tables(
        manifests, "seats", [*_SEAT_COLUMNS, *parts, *([turn_order] if turn_order else [])], offset_list
    )
    if turn_order:
        # the game draws its turn order at setup: "seat" in this report is the place in that order;
        # "table_seat" keeps the table position that the components table refers to
        seats["table_seat"] = seats["seat"]
        seats["seat"] = seats.pop(turn_order).astype(seats["seat"].dtype)
    metrics = facts["metrics"]
    unit = facts["score_unit"]
    needed = _metric_columns(metrics)
    has_solo_score = all(_SOLO_OPPONENT_SCORE in m.get("columns", {}).get("games", []) for m in manifests)
    solo_score = [_SOLO_OPPONENT_SCORE] if has_solo_score else []
    games = read_tables(manifests, "games", list(dict.fromkeys([*_GAME_COLUMNS, *needed, *solo_score])), offset_list)
    rng = np.random.default_rng(random_state) if not isinstance(random_state, np.random.Generator) else random_state
    header = _header(manifests, command, alpha)

    # Replays of a setup are not independent games: setup-design runs feed the setup-variance
    # section, and the other sections only when there is nothing else. Runs under changed rule
    # options are compared with their baseline in their own section, never pooled.
    base_rules = _base_rules(manifests)
    variants = [m for m in manifests if _rules_key(m) != base_rules]
    same_rules = [m for m in manifests if _rules_key(m) == base_rules]
    independent = [m for m in same_rules if not _replays_setups(m)]
    if not independent:
        independent = same_rules
        header.insert(
            1,
            Text(
                "Every run replays its setups, so the sections other than setup variance treat replays as "
                "independent games: their intervals are too narrow. Add runs with one game per setup.",
                "warn",
            ),
        )
    if len(independent) == len(manifests):
        base_seats, base_games = seats, games
    else:
        ids = {m["run_id"] for m in independent}
        base_seats = seats[seats["run_id"].isin(ids).to_numpy()]
        base_games = games[games["run_id"].isin(ids).to_numpy()]
    mirror_all = mirror_mask(seats[["game", "bot"]])
    # solo games (one seat against the game's automaton) have no seats to compare: their own section
    components = _component_section(base_seats, base_games, independent, offsets, alpha)
    solo = (base_seats["num_players"] == 1).to_numpy()
    solo_seats = base_seats[solo]
    base_seats = base_seats[~solo]
    mirror = mirror_mask(base_seats[["game", "bot"]])

    mirror_section, mirror_results = _mirror_section(base_seats, mirror, alpha, rng, unit)
    mixed_section, mixed_result = _mixed_section(base_seats, mirror, alpha, rng, unit)
    strategy_section = _strategy_section(base_seats, alpha)
    sections = [
        _win_rate_section(seats, labels, alpha),
        _solo_section(solo_seats, base_games[base_games["num_players"] == 1], alpha),
        mirror_section,
        mixed_section,
        _setup_section(seats, same_rules, offsets, alpha, unit),
        strategy_section,
        components,
        _outcome_section(games, seats, mirror_all, labels, alpha, unit),
        _metrics_section(games, metrics, labels, alpha),
        _variant_section(games, seats, manifests, metrics, labels, alpha),
        _convergence_section(base_seats, mirror, mirror_results, mixed_result, alpha),
    ]
    if len(independent) < len(same_rules):
        note = Text(
            "Setup-design runs (each setup replayed) are left out of this section: their replays are not "
            "independent games. They feed the setup-variance section."
        )
        for section in (mirror_section, mixed_section, components):
            if section is not None:
                section.items.insert(1, note)
    if variants:
        note = Text(
            f"Runs under changed rule options ({', '.join(run_label(m) for m in variants)}) are left out of this "
            "section; see Rule options side by side."
        )
        for section in (mirror_section, mixed_section, components, strategy_section):
            if section is not None:
                section.items.insert(1, note)
    game = manifests[0].get("title", manifests[0]["game"])
    return Report(title or f"{game}: balance report", header, [s for s in sections if s is not None])


def _replays_setups(m: dict[str, Any]) -> bool:
    return int(m.get("design", {}).get("games_per_setup") or 1) > 1


# --------------------------------------------------------------------------- writing


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_item(item: Text | Table | Figure) -> str:
    if isinstance(item, Table):
        lines = ["| " + " | ".join(_md_cell(c) for c in item.columns) + " |", "|" + "---|" * len(item.columns)]
        lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in item.rows]
        return (f"*{item.caption}*\n\n" if item.caption else "") + "\n".join(lines)
    if isinstance(item, Figure):
        return f"![{item.caption}]({item.name})\n\n*{item.caption}*"
    if item.kind == "code":
        return "```\n" + item.text + "\n```"
    if item.kind == "verdict":
        return f"> **Verdict.** {item.text}"
    if item.kind == "warn":
        return f"> **⚠ Caution.** {item.text}"
    return item.text


def render_markdown(report: Report) -> str:
    """The report as Markdown, with plots referenced as PNG files beside it."""
    out = [f"# {report.title}", ""]
    out += [_md_item(item) + "\n" for item in report.header]
    findings = [f for s in report.sections for f in s.findings]
    if findings:
        out += ["## Key findings", ""] + [f"- {f}" for f in findings] + [""]
    out += ["## Contents", ""] + [f"{i}. {s.title}" for i, s in enumerate(report.sections, 1)] + [""]
    for i, section in enumerate(report.sections, 1):
        out += [f"## {i}. {section.title}", ""]
        out += [_md_item(item) + "\n" for item in section.items]
    return "\n".join(out).rstrip() + "\n"


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.7em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:.86em;display:block;overflow-x:auto}
th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3}tr:nth-child(even) td{background:#fafafa}
caption{caption-side:top;text-align:left;font-style:italic;color:#555;padding:.2em 0}
.verdict{background:#eef6ee;border-left:4px solid #3a8a3a;padding:.5em .8em;margin:.8em 0}
.warn{background:#fff4e5;border-left:4px solid #e08a00;padding:.5em .8em;margin:.8em 0}
pre{background:#f5f5f5;padding:.6em;overflow-x:auto;font-size:.85em}
figure{margin:1em 0}figure img{max-width:100%;height:auto}figcaption{font-style:italic;color:#555}
"""


def _html_item(item: Text | Table | Figure) -> str:
    esc = html.escape
    if isinstance(item, Table):
        head = "".join(f"<th>{esc(c)}</th>" for c in item.columns)
        body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in item.rows)
        caption = f"<caption>{esc(item.caption)}</caption>" if item.caption else ""
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    if isinstance(item, Figure):
        data = base64.b64encode(item.png).decode("ascii")
        return (
            f'<figure><img alt="{esc(item.caption)}" src="data:image/png;base64,{data}">'
            f"<figcaption>{esc(item.caption)}</figcaption></figure>"
        )
    if item.kind == "code":
        return f"<pre><code>{esc(item.text)}</code></pre>"
    if item.kind == "verdict":
        return f'<div class="verdict"><strong>Verdict.</strong> {esc(item.text)}</div>'
    if item.kind == "warn":
        return f'<div class="warn"><strong>⚠ Caution.</strong> {esc(item.text)}</div>'
    return f"<p>{esc(item.text)}</p>"


def render_html(report: Report) -> str:
    """The report as one self-contained HTML page (plots inline as base64 PNG)."""
    esc = html.escape
    out = [
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(report.title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{esc(report.title)}</h1>",
    ]
    out += [_html_item(item) for item in report.header]
    findings = [f for s in report.sections for f in s.findings]
    if findings:
        out.append("<h2>Key findings</h2><ul>" + "".join(f"<li>{esc(f)}</li>" for f in findings) + "</ul>")
    out.append(
        "<h2>Contents</h2><ol>"
        + "".join(f'<li><a href="#s{i}">{esc(s.title)}</a></li>' for i, s in enumerate(report.sections, 1))
        + "</ol>"
    )
    for i, section in enumerate(report.sections, 1):
        out.append(f'<h2 id="s{i}">{i}. {esc(section.title)}</h2>')
        out += [_html_item(item) for item in section.items]
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_report(report: Report, out_dir: str | Path) -> Path:
    """Write ``report.md``, its PNG plots and the self-contained ``report.html``; returns the HTML path.

    PNG files of an earlier report in ``out_dir`` are removed first, so no stale plot lingers.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    for figure in report.figures:
        (out / figure.name).write_bytes(figure.png)
    (out / "report.md").write_text(render_markdown(report), encoding="utf-8")
    path = out / "report.html"
    path.write_text(render_html(report), encoding="utf-8")
    return path


def build_report(
    run_dirs: str | Path | Sequence[str | Path],
    out_dir: str | Path,
    title: str | None = None,
    *,
    command: str | None = None,
    alpha: float = 0.05,
    random_state: int | np.random.Generator | None = 0,
) -> Path:
    """Build the balance report of one or several runs into ``out_dir``; returns ``out_dir/report.html``.

    Writes ``report.md`` with its PNG plots and ``report.html`` (self-contained). ``command`` is
    printed in the report as the way to reproduce it. Runs are verified first (completeness,
    row counts, checksums); bad input raises ``RunFormatError`` with a one-line message naming
    the file or directory, before anything is written.

    Examples
    --------
    >>> build_report(["runs/c2", "runs/c3"], "reports/century-2-3p")  # doctest: +SKIP
    PosixPath('reports/century-2-3p/report.html')
    """
    report = compute_report(run_dirs, title, command=command, alpha=alpha, random_state=random_state)
    return write_report(report, out_dir)
