"""Report section on rule variants: each run under changed rules against its baseline run."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from analysis.report.format import _ci, _level, _num, _ok, _players
from analysis.report.metrics import _estimate
from analysis.report.model import Section, Table, Text
from analysis.report.provenance import _base_rules, _lineup_key, _rules_key
from analysis.run import run_label


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
