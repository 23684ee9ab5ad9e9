"""The report's header: what was played (runs, bots, rules, data, commands) and what the runs record of the game."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from analysis.report.format import _level
from analysis.report.model import Table, Text
from analysis.run import run_label
from simulate.runformat import RunFormatError


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


def _rules_key(m: dict[str, Any]) -> str:
    return json.dumps(m.get("rules", {}), sort_keys=True)


def _base_rules(manifests: Sequence[dict[str, Any]]) -> str:
    """The rules most runs share (the first run's on a tie): runs under other rules are rule variants."""
    keys = [_rules_key(m) for m in manifests]
    return max(dict.fromkeys(keys), key=keys.count)


def _lineup_key(m: dict[str, Any]) -> tuple:
    return int(m["num_players"]), tuple(e["label"] for e in m["lineup"]), _replays_setups(m)


def _replays_setups(m: dict[str, Any]) -> bool:
    return int(m.get("design", {}).get("games_per_setup") or 1) > 1
