"""Report section on rule variants: each run under changed rules against its baseline run."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from analysis.report.format import fmt_level, fmt_num, fmt_pct, fmt_players, fmt_pp, is_number
from analysis.report.metrics import metric_estimate
from analysis.report.model import Section, Table, Text
from analysis.report.provenance import base_rules_of, lineup_key, rules_key
from simulate.manifest import RunManifest


def build_variant_section(
    games: pd.DataFrame,
    seats: pd.DataFrame,
    manifests: Sequence[RunManifest],
    metrics: dict[str, tuple[str, ...]],
    labels: dict[str, str],
    alpha: float,
    unit: str | None = None,
    rule_words: Mapping[str, str] | None = None,
) -> Section | None:
    """Each run under changed rule options against the run with the same players and bots under the base rules; the
    summary's answer says what a rule option decides (``rule_words``, option -> its help) beside its name."""
    base = base_rules_of(manifests)
    variants = [m for m in manifests if rules_key(m) != base]
    if not variants:
        return None
    baselines = {lineup_key(m): m for m in manifests if rules_key(m) == base}
    base_rules = json.loads(base)
    z = stats.norm.ppf(1 - alpha / 2)
    section = Section("Rule options side by side")
    section.items.append(
        Text(
            "Runs that change rule options are left out of the pooled sections and compared here with the run "
            "that has the same players and bots under the other runs' rules (the baseline): the game's measures "
            "and seat 1's outcome in the game's own currency (its win rate, or its net score where the game's "
            f"outcome is a score), with the difference and its {fmt_level(alpha)} normal interval (independent "
            "runs). A difference whose interval excludes 0 is marked."
        )
    )
    rows = []
    compared_all: dict[str, None] = {}
    standouts: list[tuple[float, str]] = []
    moved = 0
    for m in variants:
        changed_options = [k for k, v in m.rules.items() if base_rules.get(k) != v]
        change = ", ".join(f"{k}={m.rules[k]}" for k in changed_options)
        meaning = "; ".join(rule_words[k] for k in changed_options if rule_words and rule_words.get(k))
        ref = baselines.get(lineup_key(m))
        if ref is None:
            section.items.append(
                Text(f"Run {m.label} ({change}) has no baseline run with the same players and bots.", "warn")
            )
            continue
        pair = [
            (
                games[(games["run_id"] == r.run_id).to_numpy()],
                seats[((seats["run_id"] == r.run_id) & (seats["seat"] == 1)).to_numpy()],
            )
            for r in (ref, m)
        ]
        seat1 = (  # in the game's own currency: net chips for golem-poker, the win share for the race games
            ("seat 1 win rate", ("win", "share of games seat 1 wins"), 1)
            if unit is None
            else (f"seat 1 net {unit}", ("score", f"seat 1's net {unit} a game"), 1)
        )
        # prose names a declared measure in words (house_take -> "house take"); the table keeps its column name
        measures = [(name, spec, 0) for name, spec in metrics.items()] + [seat1]
        changed: list[str] = []
        moved_names: list[str] = []
        for name, spec, table in measures:
            (xb, b, b_se), (xv, v, v_se) = (metric_estimate(p[table], spec) for p in pair)
            share = len(spec) < 3 and bool(np.isin(xb, (0, 1)).all() and np.isin(xv, (0, 1)).all())
            diff, half = v - b, z * np.hypot(b_se, v_se)
            marked = is_number(half) and abs(diff) > half
            words = _words(name)
            what, said = (
                (n if table else (f"{n} ({spec[1]})" if "(" not in spec[1] else f"{n} [{spec[1]}]"))
                for n in (name, words)
            )
            if marked:
                text = (
                    f"{said} {_value(b, share)} → {_value(v, share)} ({_change(diff, share)}, "
                    f"{_change(diff - half, share)} to {_change(diff + half, share)})"
                )
                changed.append(text)
                moved_names.append(words)
                plain = (  # the summary's words: the measure's meaning, figures to one decimal
                    f"{spec[1]} from {_value(b, share, 1)} to {_value(v, share, 1)} ({_change(diff, share, 1)}, "
                    f"{_change(diff - half, share, 1)} to {_change(diff + half, share, 1)})"
                )
                named = (
                    f"{change} ({meaning}; {fmt_players(m.num_players)})"
                    if meaning
                    else f"{change} ({fmt_players(m.num_players)})"
                )
                standouts.append((abs(diff) / (half / z), f"{named} moves {plain}"))
            rows.append(
                [
                    m.label,
                    change,
                    what,
                    _value(b, share),
                    _value(v, share),
                    _change(diff, share),
                    f"{_change(diff - half, share)} to {_change(diff + half, share)}" if is_number(half) else "n/a",
                    "yes" if marked else "",
                ]
            )
        moved += bool(changed)
        compared = [_words(name) for name, _, _ in measures]
        compared_all.update(dict.fromkeys(compared))
        summary = f"Rule change {change} ({fmt_players(m.num_players)}, against {ref.label}): "
        if changed:
            still = [name for name in compared if name not in moved_names]
            text = summary + "; ".join(changed) + (f"; no detectable change in {', '.join(still)}" if still else "")
            text += "."
        else:
            text = summary + _unchanged(compared) + "."
        section.findings.append(text)
        section.items.append(Text(text, "verdict"))
    measured = _measures_words(list(compared_all))
    if standouts:
        section.answers.append(
            f"Rule option that stands out: {max(standouts)[1]}; {moved} of {len(variants)} rule changes tried move "
            f"{'' if len(compared_all) == 1 else 'at least one of '}{measured}."
        )
    elif variants:
        section.answers.append(
            f"Rule options: none of the {len(variants)} rule changes tried moves {measured} detectably."
        )
    section.items.append(
        Table(
            [
                "run",
                "rule change",
                "measure",
                "baseline",
                "variant",
                "difference",
                f"{fmt_level(alpha)} interval",
                "differs",
            ],
            rows,
            "Each rule variant against its baseline run.",
        )
    )
    return section


def _value(x: float, share: bool, digits: int = 3) -> str:
    """A measure's value: a share as a percentage, any other measure as a number (``digits`` decimals)."""
    return fmt_pct(x, 1) if share else fmt_num(x, digits)


def _change(x: float, share: bool, digits: int = 3) -> str:
    """A difference: percentage points for a share, a signed number otherwise (``digits`` decimals)."""
    return f"{fmt_pp(x, 1)} pp" if share else fmt_num(x, digits, True)


def _words(name: str) -> str:
    """A measure's column name as words for prose: "house_take_per_deal" -> "house take per deal"."""
    return name.replace("_", " ")


def _measures_words(names: list[str]) -> str:
    """The measures a comparison looked at, every one named: "seat 1 win rate (the one measure compared)",
    "the 3 measures compared (house take, deals, seat 1 win rate)"."""
    if len(names) == 1:
        return f"{names[0]} (the one measure compared)"
    return f"the {len(names)} measures compared ({', '.join(names)})"


def _unchanged(names: list[str]) -> str:
    """The clause for measures none of which moved, every one named."""
    if len(names) == 1:
        return f"{names[0]} (the one measure compared) did not change detectably"
    if len(names) == 2:
        return f"neither {names[0]} nor {names[1]} changed detectably"
    return f"none of the {len(names)} measures compared ({', '.join(names)}) changed detectably"
