"""Report of a what-if experiment (HTML and Markdown), built with the document model of ``analysis.report``.

Sections: the design and the exact command, effects on win rates and score margins (paired
differences from the baseline with intervals, multiple-testing corrected), a ranking of the most
influential changes, plots of each metric against each swept value with interval bands (a forest
plot for ablations), the balance verdict of every variant, what the pairing bought, why the
experiment stopped, and timing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.experiment import (
    SEAT_COLUMNS,
    Experiment,
    learned_fit_caution,
    load_experiment,
    measured_skill,
    read_lengths,
    read_profiles,
    variant_run_dirs,
)
from analysis.plots.experiments import plot_effect_forest, plot_sweep, plot_variant_effects
from analysis.report.format import fmt_ci, fmt_level, fmt_num, fmt_p, fmt_pct, fmt_pct_ci, people_words
from analysis.report.model import MAX_ANSWERS, Figure, Report, Section, Table, Text, make_figure
from analysis.report.provenance import evidence_record, source_revision
from analysis.report.render import write_report
from analysis.run import check_runs, read_tables
from analysis.stats._util import and_list, mirror_mask
from analysis.stats.paired import length_effects, play_effects
from analysis.stats.seats import seat_advantage
from simulate.manifest import RunManifest
from simulate.runformat import RunFormatError, read_manifest

__all__ = ["build_experiment_report", "compute_experiment_report", "effects_with_values", "ranking"]

_TOP = 10
_KINDS = {"sweep": "What-if sweep", "ablate": "Ablation", "balance": "Confirmation of a balance search"}


def _kind(exp: Experiment) -> str:
    return _KINDS.get(exp.manifest["kind"], exp.manifest["kind"].capitalize())


def _removed(share: float) -> str:
    """A share of variance the pairing removed, as a percentage; none when it removed nothing (or noise below 0)."""
    return f"{100 * share:.0f}%" if share >= 0.005 else "none"


def effects_with_values(exp: Experiment) -> pd.DataFrame:
    """The experiment's effects with one column per swept value (the variant's value) and baseline rows.

    A value column is named as the user named the value (``points.P36.vp``, not ``point_cards.P36.vp``).

    Baseline rows have diff 0 and a zero-width interval, so a sweep plot passes through the
    current value. ``attrs["values"]`` lists the value columns.
    """
    variants = exp.manifest["variants"]
    names = list(dict.fromkeys(k for rec in variants for k in rec["settings"]))
    if not names:
        out = exp.effects.copy()
        out.attrs["values"] = []
        return out
    if "baseline_values" not in exp.manifest:
        raise RunFormatError(
            f"{exp.path}: the experiment was written before experiments recorded their baseline values "
            "(experiment.json 'baseline_values'); play it again"
        )
    current = {n: exp.manifest["baseline_values"][n] for n in names}
    settings = {rec["name"]: {**current, **rec["settings"]} for rec in variants}
    base = exp.effects.drop_duplicates("quantity").copy()
    base["variant_name"] = "baseline"
    base["variant"] = base["baseline"]
    base[["diff", "ci_low", "ci_high", "adj_low", "adj_high", "se"]] = 0.0
    base["pvalue"] = base["pvalue_adj"] = 1.0
    base["significant"] = False
    out = pd.concat([base, exp.effects], ignore_index=True)
    shown = _aliases(exp)
    for n in names:
        out[shown.get(n, n)] = [settings[v][n] for v in out["variant_name"]]
    out.attrs["values"] = [shown.get(n, n) for n in names]
    return out


def _aliases(exp: Experiment) -> dict[str, str]:
    """Canonical value path -> the name the user gave it (``--set points.P36.vp``), for every value so named."""
    return {k: v for rec in exp.manifest["variants"] for k, v in rec.get("aliases", {}).items()}


def ranking(effects: pd.DataFrame, unit: str = "rate") -> pd.DataFrame:
    """Variants ranked by their largest effect (absolute) on a quantity of ``unit``: ``"rate"``, the win rates, or
    ``"points"``, the seats' score margins (for a game played for its score, such as golem-poker's chips).

    Returns one row per variant: ``variant_name``, ``quantity`` (the most affected), ``diff``,
    ``ci_low``, ``ci_high``, ``adj_low``, ``adj_high``, ``significant``, ``num_significant`` (effects of that unit
    significant).
    """
    rates = effects[effects["unit"] == unit]
    idx = rates.assign(size=rates["diff"].abs()).groupby("variant_name", sort=False)["size"].idxmax()
    out = rates.loc[
        idx, ["variant_name", "quantity", "diff", "ci_low", "ci_high", "adj_low", "adj_high", "significant"]
    ]
    counts = rates.groupby("variant_name", sort=False)["significant"].sum()
    out["num_significant"] = out["variant_name"].map(counts).astype(int)
    return out.iloc[np.argsort(-np.abs(out["diff"].to_numpy()), kind="stable")].reset_index(drop=True)


def _digits(row: Any, scale: float) -> int:
    """Decimals showing an effect and its interval: one for percentage points, two for points or tiny effects."""
    return 1 if scale == 100 and max(abs(row.adj_low), abs(row.adj_high)) * scale >= 0.1 else 2


def _pp_ci(row: Any, scale: float) -> str:
    """The adjusted interval, which excludes 0 exactly when the effect is significant."""
    digits = _digits(row, scale)
    return fmt_ci(row.adj_low * scale, row.adj_high * scale, digits, sign=True)


def _subject(quantity: str) -> str:
    if quantity.startswith("seat"):
        return f"seat {quantity[4:]}'s win rate"
    if quantity.startswith("margin"):
        return f"seat {quantity[6:]}'s score margin"
    return f"{quantity}'s win rate"


def _effect_sentence(row: Any, score_unit: str) -> str:
    scale, unit = (100.0, "pp") if row.unit == "rate" else (1.0, score_unit)
    direction = "raises" if row.diff > 0 else "lowers"
    size = fmt_num(abs(row.diff) * scale, _digits(row, scale))
    return (
        f"{row.variant_name} {direction} {_subject(row.quantity)} by {size} {unit} ({_pp_ci(row, scale)}; "
        f"adjusted p {fmt_p(row.pvalue_adj)})."
    )


def _effects_table(effects: pd.DataFrame, unit: str, alpha: float, score_unit: str) -> Table:
    scale = 100.0 if unit == "rate" else 1.0
    rows = []
    for r in effects[effects["unit"] == unit].itertuples(index=False):
        base = fmt_pct(r.baseline) if unit == "rate" else fmt_num(r.baseline, 2, True)
        var = fmt_pct(r.variant) if unit == "rate" else fmt_num(r.variant, 2, True)
        rows.append(
            [
                r.variant_name,
                r.subject,
                base,
                var,
                fmt_num(r.diff * scale, _digits(r, scale), True),
                _pp_ci(r, scale),
                fmt_p(r.pvalue_adj),
                "yes" if r.significant else "no",
                _removed(r.variance_removed) if np.isfinite(r.variance_removed) else "n/a",
            ]
        )
    what = "percentage points" if unit == "rate" else score_unit
    return Table(
        [
            "variant",
            "of",
            "baseline",
            "variant",
            f"change ({what})",
            "adjusted interval",
            "p (Holm)",
            "significant",
            "variance removed by pairing",
        ],
        rows,
        f"Paired differences from the baseline ({what}); p-values Holm-adjusted over all variants and quantities "
        "(win rates and margins together), intervals adjusted to match (an interval excludes 0 exactly when the "
        "change is significant).",
    )


def _design_section(exp: Experiment) -> Section:
    m = exp.manifest
    d = m["design"]
    pairing = (
        "every variant replays the baseline's games (same setups, play seeds and seat rotations: common random "
        "numbers), so each effect is a mean of per-game differences"
        if d["paired"]
        else "each variant has its own seeds (an unpaired design)"
    )
    items: list[Text | Table | Figure] = [
        Text(
            f"{_kind(exp)} of {d['game']} with {d['num_players']} players, bots {', '.join(d['bots'])}"
            f" ({'seats rotated' if d['rotate'] else 'fixed seats'}); {len(m['variants']) - 1} "
            f"variant{'s' if len(m['variants']) > 2 else ''} against the "
            f"baseline, {m['games_per_variant']:,} games each in {m['rounds']} round{'s' if m['rounds'] > 1 else ''} "
            f"(round k uses master seed {d['seed']} + k); {pairing}."
        ),
    ]
    rows = []
    shown = _aliases(exp)
    for rec in m["variants"]:
        changes = [f"{shown.get(k, k)}={v}" for k, v in rec["settings"].items()]
        changes += [f"remove {k}" for k in rec["removed"]]
        changes += [f"{k} takes the values of {v}" for k, v in rec["replaced"].items()]
        rows.append([rec["name"], "; ".join(changes) or "(data as given)"])
    items.append(Table(["variant", "changes"], rows, "Variants."))
    return Section("Design", items)


def _appendix(exp: Experiment, command: str | None) -> list[Text | Table]:
    """Provenance: how the report and the experiment were made, where its runs are, and how long it took."""
    m = exp.manifest
    t = m["timing"]
    share = t.get("overhead_share")
    items: list[Text | Table] = [
        Text(
            f"Generated {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')}{source_revision()}. The experiment took "
            f"{t['seconds']:.1f} s, of which the runs took {t['run_seconds']:.1f} s; the experiment layer (variant "
            f"data, reading and comparing results, stopping checks) took {t['overhead_seconds']:.1f} s"
            + (f" ({100 * share:.1f}% of the wall time)." if share is not None else ".")
            + " Building this report is not included."
        )
    ]
    if command:
        items += [Text("Reproduce this report with:"), Text(command, "code")]
    items += [Text("Reproduce this experiment with:"), Text(m.get("command") or "(command not recorded)", "code")]
    rows = []
    for rec in m["variants"]:
        runs = rec["runs"][0] if len(rec["runs"]) == 1 else f"{rec['runs'][0]} to …/{Path(rec['runs'][-1]).name}"
        rows.append([rec["name"], runs])
    items.append(Table(["variant", "run directories"], rows, f"Runs, under {exp.path}."))
    return items


def _plots_section(exp: Experiment, effects: pd.DataFrame) -> Section:
    n = int(exp.manifest["design"]["num_players"])
    bots = list(dict.fromkeys(exp.effects.loc[exp.effects["metric"] == "bot win rate", "quantity"]))
    quantities = [f"seat{s + 1}" for s in range(n)] + ["margin1"] + bots
    what = "each seat's win rate, seat 1's score margin" + (" and each bot's win rate" if bots else "")
    items: list[Text | Table | Figure] = []
    values = effects.attrs.get("values", []) if exp.manifest["kind"] == "sweep" else []
    if values:
        for k, value in enumerate(values):
            panels = [lambda ax, q=q, v=value: plot_sweep(effects, v, q, ax=ax) for q in quantities]
            items.append(
                make_figure(
                    f"sweep_{k + 1}.png",
                    f"Change in {what} against {value}, with "
                    f"{fmt_level(exp.manifest['design']['alpha'])} paired interval bands.",
                    panels,
                    ncols=2,
                    size=(5.5, 3.6),
                )
            )
    elif exp.effects["variant_name"].nunique() == 1:
        name = exp.effects["variant_name"].iloc[0]
        panels = [lambda ax, u=u: plot_variant_effects(exp.effects, u, ax=ax) for u in ("rate", "points")]
        height = 0.9 + 0.4 * int((exp.effects["unit"] == "rate").sum())
        items.append(
            make_figure(
                "effects.png",
                f"Effect of {name} on every win rate and score margin, with paired intervals.",
                panels,
                ncols=2,
                size=(5.0, max(2.6, height)),
            )
        )
    else:
        panels = [lambda ax, q=q: plot_effect_forest(exp.effects, q, ax=ax) for q in quantities]
        height = 0.9 + 0.35 * (len(exp.manifest["variants"]) - 1)
        items.append(
            make_figure(
                "effects.png",
                f"Effect of each variant on {what}, with paired intervals.",
                panels,
                ncols=2,
                size=(6.0, max(2.6, height)),
            )
        )
    return Section("Effect plots", items)


def _verdict_section(exp: Experiment, alpha: float) -> Section:
    items: list[Text | Table | Figure] = [
        Text(
            "Each variant judged on its own (all its games, Wilson intervals, Wald test of the seats), "
            "as the balance report would judge it."
        )
    ]
    rows = []
    judged: list[tuple[str, Any]] = []
    for name, dirs in variant_run_dirs(exp).items():
        manifests = check_runs(dirs, checksums=False)
        seats = read_tables(manifests, "seats", SEAT_COLUMNS)
        mirror = bool(mirror_mask(seats[["game", "bot"]]).all())
        adv = seat_advantage(seats, lineup="mirror" if mirror else "all", alpha=alpha, num_resamples=500)
        first = adv.table.iloc[0]
        test = adv.tests.iloc[0]
        rows.append(
            [
                name,
                fmt_pct(first.win_rate),
                fmt_pct(first.fair),
                fmt_p(test.pvalue),
                "not balanced" if test.significant else "no seat advantage detected",
            ]
        )
        items.append(Text(f"{name}: {adv.verdict}", "verdict"))
        judged.append((name, adv))
    items.insert(1, Table(["variant", "seat 1 wins", "fair", "p (Wald)", "verdict"], rows))
    section = Section("Balance verdict of each variant", items)
    section.answers.append(_fairness_answer(judged))
    return section


def _fairness_answer(judged: list[tuple[str, Any]]) -> str:
    """The answer to "which variants are fair to every seat?" in plain words, from each variant's own seat test."""
    fair = [name for name, adv in judged if not bool(adv.tests["significant"].iloc[0])]
    base_name, base = judged[0]
    far = base.table.loc[base.table["excess"].abs().idxmax()]
    widest = f"seat {int(far.seat)} wins {fmt_pct(far.win_rate)} ({fmt_pct_ci(far.ci_low, far.ci_high)})"
    if base_name in fair:
        text = (
            f"Fair to every seat? No seat advantage is detected in the {base_name} (the farthest from even: "
            f"{widest}, fair {fmt_pct(far.fair)})"
        )
    else:
        text = f"Fair to every seat? Not the {base_name}: {widest} where a fair share is {fmt_pct(far.fair)}"
    others = [n for n in fair if n != base_name]
    if others:
        shown = ", ".join(others[:4]) + (f" and {len(others) - 4} more" if len(others) > 4 else "")
        text += (
            f"; nor in {len(others)} of {len(judged) - 1} variants: {shown}"
            if base_name in fair
            else (f"; no seat advantage is detected in {len(others)} of {len(judged) - 1} variants: {shown}")
        )
    elif len(judged) == 2:
        text += f"; nor is {judged[1][0]}" if base_name not in fair else f"; {judged[1][0]} leaves a seat advantage"
    else:
        text += f"; every one of the {len(judged) - 1} variants leaves a seat advantage"
    return text + " (each variant on its own games, Wald test)."


def _pairing_section(exp: Experiment) -> Section:
    effects = exp.effects
    rows = []
    for metric, part in effects.groupby("metric", sort=False):
        removed = part["variance_removed"].dropna()
        if removed.empty:
            continue
        med = float(removed.median())
        factor = f"{1 / (1 - max(med, 0.0)):.1f}×" if med < 0.9995 else "unbounded (identical games)"
        low, high = _removed(float(removed.min())), _removed(float(removed.max()))
        rows.append([metric, _removed(med), low if low == high else f"{low}–{high}", factor])
    text = (
        "Variance of the paired differences against the variance of a difference between two independent runs of the "
        "same size: the share the pairing removed, and how many times as many games an unpaired design would need "
        "for intervals as narrow."
        + (
            " Here the changes alter the games from the start, so paired games differ about as much as independent "
            "ones: the pairing bought little (it costs nothing either)."
            if len(effects) and float(effects["variance_removed"].median()) < 0.1
            else ""
        )
        if exp.manifest["design"]["paired"]
        else "This experiment was unpaired: the column shows what pairing would have removed had the games been "
        "paired (about nothing: independent runs share no games)."
    )
    return Section(
        "What the pairing bought",
        [Text(text), Table(["metric", "median variance removed", "range", "unpaired games needed"], rows)],
    )


def _stopping_section(exp: Experiment) -> Section:
    m = exp.manifest
    d = m["design"]
    stop = m["stopped"]
    items: list[Text | Table | Figure] = [
        Text(
            f"Stopped after {m['rounds']} round{'s' if m['rounds'] > 1 else ''} and {m['games_per_variant']:,} games "
            f"per variant: {stop['reason']}. The widest interval of a win-rate effect is ±"
            f"{100 * stop['widest_rate_halfwidth']:.2f} percentage points.",
            "verdict",
        )
    ]
    if d.get("precision") is not None:
        items.append(
            Text(
                f"Precision rule: stop at the first round (from the second) where every win-rate interval has a "
                f"half-width of at most {d['precision']:g} percentage points (Chow-Robbins fixed-width rule; "
                "coverage at stopping checked on synthetic data in the tests)."
            )
        )
    if d.get("test"):
        items.append(
            Text(
                f"Sequential test '{d['test']}': an anytime-valid {fmt_level(d['alpha'])} confidence sequence per "
                "variant (asymptotic confidence sequence of Waudby-Smith et al. 2021); a decision is wrong with "
                f"probability at most {d['alpha']:g} however many rounds are looked at."
            )
        )
        rows = [
            [
                t["variant"],
                t["quantity"],
                fmt_num(t["mean"], 4),
                fmt_ci(t["cs_low"], t["cs_high"], 4),
                t["decision"] or "undecided",
                f"{t['num_games']:,}",
            ]
            for t in stop["tests"]
        ]
        items.append(Table(["variant", "quantity", "mean", "confidence sequence", "decision", "games"], rows))
    return Section("Stopping", items)


def compute_experiment_report(exp: Experiment, title: str | None = None, command: str | None = None) -> Report:
    """The report of an experiment, unwritten (see :func:`build_experiment_report`)."""
    d = exp.manifest["design"]
    alpha = float(d["alpha"])
    effects = effects_with_values(exp)
    method = Text(
        f"{_kind(exp)} of {d['game']}: every change is measured as the paired difference from the baseline (the "
        "data as given) on the same games. Intervals are t intervals of the per-game differences; p-values are "
        "Holm-adjusted over all variants and quantities (win rates and margins together), so a family of changes "
        f"that do nothing shows a significant effect at most {alpha:g} of the time, and the intervals are widened "
        "to the same family (alpha / (m - R) for m tests and R significant ones), so an interval excludes 0 "
        "exactly when its change is significant."
    )
    design = _design_section(exp)
    design.items.insert(0, method)
    facts = _facts(exp)
    score_unit = str(facts.get("score_unit", "points"))
    lead = "points" if facts.get("outcome") == "score" else "rate"
    rates = Section("Effects on win rates", [_effects_table(exp.effects, "rate", alpha, score_unit)])
    significant = exp.effects[exp.effects["significant"]]
    rates.findings = [_effect_sentence(r, score_unit) for r in significant[significant["unit"] == "rate"].itertuples()][
        :_TOP
    ]
    if not rates.findings:
        compared = dict.fromkeys(exp.effects.loc[exp.effects["unit"] == "rate", "quantity"])
        rates.findings = [
            "No change moves a win rate significantly (after correction for multiple comparisons; compared: "
            f"{', '.join(_subject(str(q)) for q in compared)})."
        ]
    rates.items.insert(0, Text(" ".join(rates.findings), "verdict"))
    margins = Section("Effects on score margins", [_effects_table(exp.effects, "points", alpha, score_unit)])
    margins.findings = [
        _effect_sentence(r, score_unit) for r in significant[significant["unit"] == "points"].itertuples()
    ][:_TOP]
    length = _length_section(exp, alpha, str(facts.get("round_word", "round")))
    play = _play_section(exp, alpha)
    ranked = ranking(exp.effects, lead)
    scale, word = (100.0, "pp") if lead == "rate" else (1.0, score_unit)
    rank_rows = [
        [
            str(i + 1),
            r.variant_name,
            _subject(r.quantity),
            fmt_num(scale * r.diff, _digits(r, scale), True),
            _pp_ci(r, scale),
            f"{r.num_significant}",
        ]
        for i, r in enumerate(ranked.head(_TOP).itertuples())
    ]
    what = "any win rate (percentage points)" if lead == "rate" else f"any seat's score margin ({score_unit})"
    rank = Section(
        "Most influential changes",
        [
            Text(f"Variants ranked by their largest effect on {what}."),
            Table(
                [
                    "rank",
                    "variant",
                    "largest effect on",
                    f"change ({word})",
                    "adjusted interval",
                    "significant effects",
                ],
                rank_rows,
            ),
        ],
    )
    verdicts = _verdict_section(exp, alpha)
    stopping = _stopping_section(exp)
    sections = [
        design,
        rates,
        margins,
        length,
        *([play] if play is not None else []),
        rank,
        _plots_section(exp, effects),
        verdicts,
        _pairing_section(exp),
        stopping,
    ]
    skill = [s for s in [measured_skill(exp)] if s]  # the skill level the answers hold at, as fairness says it
    summary = [*_effect_answers(exp, lead, score_unit), *skill, *verdicts.answers, stopping.items[0].text]
    top, shown = _overview_quantity(exp.effects, lead, ranked, score_unit)
    overview = make_figure(
        "overview-effects.png",
        f"Each variant's change in {_subject(top)} against the baseline, with intervals adjusted to the family of "
        "tests (red: significant).",
        [lambda ax: _overview_forest(exp.effects, top, ax, shown, facts.get("bot_names") or {})],
        size=(6.5, min(4.2, 1.2 + 0.35 * exp.effects["variant_name"].nunique())),
    )
    return Report(
        title or f"{d['game']}: what-if {exp.manifest['kind']}",
        _appendix(exp, command),
        sections,
        summary=summary[:MAX_ANSWERS],
        overview=overview,
        caution=" ".join(
            c
            for c in (
                ""
                if d["paired"]
                else "Unpaired design: each variant has its own seeds, so its intervals are wider than a paired one's.",
                learned_fit_caution(exp),
            )
            if c
        ),
    )


def _facts(exp: Experiment) -> dict[str, Any]:
    """The game's report facts its runs recorded (``simulate.runner.plan.report_facts``; {} without a run)."""
    for dirs in variant_run_dirs(exp).values():
        if dirs:
            return dict(RunManifest.from_json(read_manifest(dirs[0])).report or {})
    return {}


def _length_section(exp: Experiment, alpha: float, word: str) -> Section:
    """Effects on the game's length: rounds (``word``: what the runs' rounds count, poker's deals) and turns a game,
    paired, Holm-adjusted over the variants."""
    effects = length_effects(read_lengths(exp), "baseline", alpha)
    rows = [
        [
            r.variant_name,
            r.subject.replace("rounds", f"{word}s"),
            f"{fmt_num(r.baseline, 1)} → {fmt_num(r.variant, 1)}",
            _signed(r.diff, r.adj_low, r.adj_high),
            "yes" if r.significant else "no",
        ]
        for r in effects.itertuples()
    ]
    moved = effects[effects["significant"].to_numpy(bool) & (effects["quantity"] == "rounds").to_numpy()]
    if len(moved):
        finding = (
            "; ".join(
                f"{r.variant_name} {'lengthens' if r.diff > 0 else 'shortens'} the game: "
                f"{_signed(r.diff, r.adj_low, r.adj_high)} {word}s"
                for r in moved.itertuples()
            )
            + "."
        )
    else:
        rounds = effects[(effects["quantity"] == "rounds").to_numpy()]
        reach = float(np.nanmax(np.abs(rounds[["adj_low", "adj_high"]].to_numpy()))) if len(rounds) else np.nan
        finding = (
            f"No change moves the game's length in {word}s detectably (after correction over the variants); every "
            f"change's interval lies within ±{reach:.2f} {word}s of 0."
        )
    return Section(
        "Effects on game length",
        [
            Text(finding, "verdict"),
            Table(
                ["variant", "measure", "baseline → variant (mean)", "change (adjusted interval)", "significant"],
                rows,
                f"{word.capitalize()}s and turns a game (as the runs count them), each variant against the baseline on "
                "the same games: t intervals of the per-game differences, Holm-adjusted over every variant's "
                f"{word}s and turns (a family apart from the win rates').",
            ),
        ],
        findings=[finding] if len(moved) else [],
    )


def _play_section(exp: Experiment, alpha: float) -> Section | None:
    """Effects on how the game is played: each play-profile count a game, paired, Holm-adjusted over the variants
    and measures; None for a game without a play profile."""
    profiles = read_profiles(exp)
    if not profiles:
        return None
    effects = play_effects(profiles, "baseline", alpha)
    rows = [
        [
            r.variant_name,
            r.quantity.replace("_", " "),
            f"{fmt_num(r.baseline, 2)} → {fmt_num(r.variant, 2)}",
            _signed(r.diff, r.adj_low, r.adj_high),
            "yes" if r.significant else "no",
        ]
        for r in effects.itertuples()
    ]
    moved = effects[effects["significant"].to_numpy(bool)]
    relative = moved["diff"].abs() / moved["baseline"].abs().clip(lower=1.0)  # a rare mechanism counts as once a game
    moved = moved.loc[relative.sort_values(ascending=False, kind="stable").index]
    if len(moved):
        finding = (
            "How the game is played changes: "
            + "; ".join(
                f"{r.variant_name}: {r.quantity.replace('_', ' ')} {fmt_num(r.baseline, 2)} → "
                f"{fmt_num(r.variant, 2)} a game"
                for r in moved.head(_TOP).itertuples()
            )
            + "."
        )
    else:
        finding = (
            "No change moves how often any mechanism is used detectably (every play-profile count a game, after "
            "correction over the variants and measures)."
        )
    return Section(
        "Effects on how the game is played",
        [
            Text(finding, "verdict"),
            Table(
                ["variant", "measure", "baseline → variant (a game)", "change (adjusted interval)", "significant"],
                rows,
                "Each play-profile count (a mechanism's uses by every seat of a game, as the game's play profile "
                "counts them), each variant against the baseline on the same games: t intervals of the per-game "
                "differences, Holm-adjusted over every variant and measure (a family apart from the win rates'). "
                "With a mixed lineup, which bot (strategy) gains is in the effects on win rates.",
            ),
        ],
        findings=[finding] if len(moved) else [],
    )


def _signed(diff: float, low: float, high: float) -> str:
    """``"+0.21 (+0.02 to +0.40)"``, with more decimals where an end that is not 0 would print as 0.00."""
    d = 2
    while d < 4 and any(x != 0 and abs(x) < 0.5 * 10**-d for x in (diff, low, high)):
        d += 1
    return f"{diff:+.{d}f} ({low:+.{d}f} to {high:+.{d}f})"


def _overview_quantity(effects: pd.DataFrame, lead: str, ranked: pd.DataFrame, score_unit: str) -> tuple[str, str]:
    """The quantity the overview plots, with its unit's word: the lead ranking's top (``ranked``), or the other
    unit's top where only that one moved detectably (a poker sweep whose chips did not move but a win rate did)."""
    words = {"rate": "pp", "points": score_unit}
    other = "points" if lead == "rate" else "rate"
    if len(ranked) and bool(ranked["significant"].iloc[0]):
        return str(ranked["quantity"].iloc[0]), words[lead]
    moved = ranking(effects, other)
    if len(moved) and bool(moved["significant"].iloc[0]):
        return str(moved["quantity"].iloc[0]), words[other]
    return (str(ranked["quantity"].iloc[0]) if len(ranked) else ("seat1" if lead == "rate" else "margin1")), words[lead]


def _overview_forest(effects: pd.DataFrame, quantity: str, ax: Any, unit: str, names: Mapping[str, str]) -> None:
    """The overview: each variant's change in the leading ``quantity`` (in ``unit``) with its adjusted interval, its
    title naming a player as the summary does (``names``: bot spec -> words)."""
    plot_effect_forest(effects, quantity, ax=ax, title=f"Change in {people_words(_subject(quantity), names)}")
    ax.set_xlabel(f"change ({unit}); red: significant after correction")


def _effect_answers(exp: Experiment, lead: str, score_unit: str) -> list[str]:
    """What the changes do, in plain words, led by the quantities of unit ``lead`` (``"rate"``: win rates, in pp;
    ``"points"``: the seats' score margins, in the game's ``score_unit``): the most influential change (of the other
    unit where none of ``lead`` is detectable), and which changes do nothing detectable on any measure."""
    effects = exp.effects
    if effects.empty:
        return []
    out: list[str] = []
    anything = bool(effects["significant"].any())
    for unit in [lead, "points" if lead == "rate" else "rate"]:
        ranked = ranking(effects, unit)
        if ranked.empty:
            continue
        top = next(ranked.itertuples())
        r = effects[(effects["variant_name"] == top.variant_name) & (effects["quantity"] == top.quantity)].iloc[0]
        rate = unit == "rate"
        scale, word = (100.0, "pp") if rate else (1.0, score_unit)
        size = f"{fmt_num(scale * top.diff, _digits(top, scale), True)} {word}"
        if top.significant:
            before, after = (
                (fmt_pct(r.baseline), fmt_pct(r.variant))
                if rate
                else (fmt_num(r.baseline, 1, True), fmt_num(r.variant, 1, True) + f" {score_unit}")
            )
            which = "" if not out else (" on a win rate" if rate else " on a score margin")
            out.append(
                f"Most influential change{which}: {top.variant_name} {'raises' if top.diff > 0 else 'lowers'} "
                f"{_subject(top.quantity)} from {before} to {after} ({size}, {_pp_ci(top, scale)})."
            )
            break
        if unit != lead:
            continue
        measures = _compared(effects) if not anything else ("a win rate" if rate else "a seat's score margin")
        out.append(
            f"No change moves {'any of ' if not anything else ''}{measures} detectably: the largest, "
            f"{top.variant_name} on {_subject(top.quantity)}, is {size} ({_pp_ci(top, scale)})."
        )
        if not anything:
            break
    variants = list(dict.fromkeys(effects["variant_name"]))
    moved = set(effects.loc[effects["significant"].to_numpy(bool), "variant_name"])
    quiet = [v for v in variants if v not in moved]
    moving = len(variants) - len(quiet)
    if quiet and moving:
        shown = ", ".join(quiet[:4]) + (f" and {len(quiet) - 4} more" if len(quiet) > 4 else "")
        out.append(
            f"{moving} of {len(variants)} variants move at least one of {_compared(effects)}; no detectable "
            f"effect on any of them: {shown}."
        )
    elif moving > 1:
        out.append(f"Every one of the {len(variants)} variants moves at least one of {_compared(effects)} detectably.")
    return out


_KINDS_OF_MEASURE = {
    "seat win rate": "every seat's win rate",
    "seat score margin": "every seat's score margin",
    "bot win rate": "every player's win rate",
}
"""A kind of measure (``metric`` of :func:`analysis.stats.paired.game_quantities`) in the words that sum it up."""


def _compared(effects: pd.DataFrame) -> str:
    """Every measure a what-if compared, named: "the 6 measures compared (seat 1's win rate, ..., seat 3's score
    margin)", or by kind where there are more than 6 ("the 12 measures compared (every seat's win rate, ...)")."""
    names = [_subject(str(q)) for q in dict.fromkeys(effects["quantity"])]
    if len(names) == 1:
        return f"{names[0]} (the one measure compared)"
    if len(names) > 6 and "metric" in effects:
        kinds = [_KINDS_OF_MEASURE.get(str(m), str(m)) for m in dict.fromkeys(effects["metric"])]
        return f"the {len(names)} measures compared ({and_list(kinds)})"
    return f"the {len(names)} measures compared ({', '.join(names)})"


def build_experiment_report(
    exp: Experiment | str | Path,
    out_dir: str | Path,
    title: str | None = None,
    command: str | None = None,
    extra: Sequence[Section] = (),
) -> Path:
    """Write the experiment's report (``report.md`` with PNGs, self-contained ``report.html``); returns the HTML path.

    ``extra`` sections (e.g. a search's results) are put after the design section, and the first finding of each
    leads the summary.
    """
    if not isinstance(exp, Experiment):
        exp = load_experiment(exp)
    report = compute_experiment_report(exp, title, command)
    report.sections[1:1] = list(extra)
    report.summary[:0] = [s.findings[0] for s in extra if s.findings]
    report.summary = report.summary[:MAX_ANSWERS]
    dirs = variant_run_dirs(exp)
    manifests = [RunManifest.read(d) for v in dirs.values() for d in v]
    report.evidence = evidence_record(manifests, command)
    names = dict((manifests[0].report or {}).get("bot_names") or {}) if manifests else {}
    report.name_players(names, {e.label for m in manifests for e in m.lineup} | _players_named(report, names))
    return write_report(report, out_dir)


def _players_named(report: Report, names: dict[str, str]) -> set[str]:
    """The bot specs of ``names`` that the summary or the findings name: the players of an extra section's runs (a
    balance search's skill ladder) beside the experiment's own."""
    text = "\n".join([*report.summary, *(line for s in report.sections for line in s.findings)])
    return {spec for spec, name in names.items() if people_words(text, {spec: name}) != text}
