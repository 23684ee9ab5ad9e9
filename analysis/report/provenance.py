"""The report's header: what was played (runs, bots, rules, data, commands) and what the runs record of the game."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from analysis.report.format import fmt_level
from analysis.report.model import Table, Text
from analysis.run import run_label
from simulate.apprentice_fit import fit_caution, manifest_fit
from simulate.runformat import RunFormatError


def _design(m: dict[str, Any]) -> str:
    d = m.get("design", {})
    rotate = "seats rotated" if d.get("rotate_seats", True) else "fixed seats"
    orders = int(d.get("orders_per_opening") or 1)
    if d.get("setups") and orders > 1:
        return (
            f"{d['setups'] // orders:,} openings × {orders} deck orders × {d.get('games_per_setup', 1)} games, {rotate}"
        )
    if d.get("setups"):
        return f"{d['setups']:,} setups × {d.get('games_per_setup', 1)} games, {rotate}"
    return f"a new setup every game, {rotate}"


def _data(m: dict[str, Any]) -> str:
    d = m.get("data", {})
    text = d.get("folder", "?")
    text += " (shipped data)" if d.get("default", False) else " (NOT the shipped data)"
    if d.get("estimates"):
        text += ", CONTAINS ESTIMATES"
    return text


def _apprentice(m: dict[str, Any]) -> str:
    """What the run's learned player was fitted on: this data, other data (what differs), or none plays."""
    record = manifest_fit(m)
    if record is None:
        return "none plays"
    if record["covers"]:
        return "fitted on this data"
    differ = [*record["files_differ"], *record["files_unrecorded"], *record["rules_differ"]]
    return f"fitted on other data ({', '.join(differ) or 'no provenance'})"


def source_revision() -> str:
    """' (git <commit>)' of the source tree this package runs from, noting uncommitted changes; '' if unknown."""
    root = Path(__file__).resolve().parents[2]  # the checkout: analysis/report/provenance.py is three levels down
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


EVIDENCE_SCHEMA = "golem-lab.report-evidence/1"
"""The schema of a report's ``report.json``: what it was computed from, for checks that it is not stale."""


def evidence_record(manifests: Sequence[dict[str, Any]], command: str | None) -> dict[str, Any]:
    """What a report was computed from, as data (``report.json``): per run its id, games, engine version, whether it
    played the shipped data and the SHA-256 of each data file, so a check can tell a report whose engine or data
    have changed since (tests/test_stale_reports.py)."""
    return {
        "schema": EVIDENCE_SCHEMA,
        "game": manifests[0]["game"] if manifests else None,
        "command": command,
        "source": source_revision().strip(" ()"),
        "runs": [
            {
                "run": run_label(m),
                "run_id": m.get("run_id"),
                "num_games": m.get("num_games"),
                "engine_version": m.get("engine_version"),
                "package_version": m.get("package_version"),
                "shipped_data": bool(m.get("data", {}).get("default", False)),
                "data_files": m.get("data", {}).get("files", {}),
            }
            for m in manifests
        ],
    }


def build_appendix(manifests: list[dict[str, Any]], command: str | None, alpha: float) -> list[Text | Table]:
    """Provenance, for the report's appendix: what was played (runs, bots, rules, data) and the commands.

    Settings every run shares are listed once; the runs table shows only the settings that differ between runs.
    """
    items: list[Text | Table] = []
    total = sum(int(m["num_games"]) for m in manifests)
    game = manifests[0].get("title", manifests[0]["game"])
    items.append(
        Text(
            f"{game}: {total:,} games in {len(manifests)} run{'s' if len(manifests) > 1 else ''}. "
            f"Intervals are {fmt_level(alpha)} (Wilson for rates, bootstrap for score margins, F for the "
            "intraclass correlation, Wald for ratings); every run was verified complete with intact part "
            f"files before analysis. Generated {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} by golem-lab "
            f"{manifests[0].get('package_version', '?')}{source_revision()}."
        )
    )
    if command:
        items.append(Text("Reproduce this report with:"))
        items.append(Text(command, "code"))
    base = json.loads(base_rules_of(manifests))
    columns: dict[str, list[str]] = {
        "run": [run_label(m) for m in manifests],
        "game": [m["game"] for m in manifests],
        "players": [str(m["num_players"]) for m in manifests],
        "games": [f"{int(m['num_games']):,}" for m in manifests],
        "seed": [str(m.get("master_seed", "?")) for m in manifests],
        "bots": [_bot_labels(m) for m in manifests],
        "design": [_design(m) for m in manifests],
        "rule changes": [_rule_changes(m, base) for m in manifests],
        "data": [_data(m) for m in manifests],
        "apprentice": [_apprentice(m) for m in manifests],  # dropped below when no run plays one
        "engine": [str(m.get("engine_version", "?")) for m in manifests],
        "package": [str(m.get("package_version", "?")) for m in manifests],
    }
    if all(manifest_fit(m) is None for m in manifests):
        del columns["apprentice"]
    always = ("run", "players", "games", "seed")
    shared = {k: v[0] for k, v in columns.items() if k not in always and len(set(v)) == 1}
    shared_rows = [["rules", ", ".join(f"{k}={v}" for k, v in base.items()) or "(none)"]]
    shared_rows += [[k, v] for k, v in shared.items() if k != "rule changes"]
    items.append(Table(["setting", "value"], shared_rows, "Settings every run shares (rules: those of most runs)."))
    shown = [k for k in columns if k not in shared]
    rows = [[columns[k][i] for k in shown] for i in range(len(manifests))]
    items.append(Table(shown, rows, "Runs in this report: the settings that differ between them."))
    params: dict[str, str] = {}
    for m in manifests:
        for e in m["lineup"]:
            params.setdefault(e["label"], ", ".join(f"{k}={v:g}" for k, v in e.get("params", {}).items()))
    if any(params.values()):
        rows = [[k, v or "(defaults)"] for k, v in params.items()]
        items.append(Table(["bot", "parameters"], rows, "Bots and their parameters."))
    items.append(Text("Commands that produced the runs:"))
    items.append(Text("\n".join(f"{m.get('command') or '(command not recorded)'}" for m in manifests), "code"))
    return items


def _estimate_words(data: dict[str, Any]) -> str:
    """What of the game data is invented or estimated, and what that means for the answers, in words: an invented
    stand-in (the data's ``label`` says "invented") describes another game than the printed one; estimated rows and
    parameters (``estimated_rows``, ``estimated_parameters``) make the answers that depend on them provisional."""
    label = str(data.get("label") or "")
    if "invented" in label.lower():
        return f"Invented data: {label}. Every answer describes the invented components, not the printed game"
    rows = {name.removesuffix(".csv"): int(n) for name, n in (data.get("estimated_rows") or {}).items() if n}
    params = list(data.get("estimated_parameters") or [])
    parts = []
    if rows:
        most = sorted(rows, key=rows.get, reverse=True)
        named = ", ".join(most[:3]) + (f" and {len(most) - 3} more" if len(most) > 3 else "")
        parts.append(f"{sum(rows.values())} rows of {len(rows)} tables ({named})")
    if params:
        parts.append(f"{len(params)} game parameter{'s' if len(params) > 1 else ''}")
    what = " and ".join(parts) or "some values"
    return (
        f"Estimated data: {what} are estimates of unpublished printed values (listed in "
        f"{data.get('folder', 'the seeds folder')}): answers that depend on them are provisional"
    )


def caution_lines(manifests: list[dict[str, Any]]) -> str:
    """What limits the report's answers, each stated once ('' when nothing does)."""

    def runs(selected: list[dict[str, Any]]) -> str:
        if len(selected) == len(manifests):
            return "every run"
        return "run" + ("s " if len(selected) > 1 else " ") + ", ".join(run_label(m) for m in selected)

    out = []
    estimated = [m for m in manifests if m.get("data", {}).get("estimates")]
    if estimated:
        out.append(f"{_estimate_words(estimated[0]['data'])} ({runs(estimated)}).")
    other = [m for m in manifests if not m.get("data", {}).get("default", True)]
    if other:
        folders = ", ".join(sorted({str(m.get("data", {}).get("folder")) for m in other}))
        out.append(f"{runs(other).capitalize()} play non-default data ({folders}): they describe that variant.")
    learned = fit_caution(manifests, run_label)
    if learned:
        out.append(learned)
    if len({m.get("engine_version") for m in manifests}) > 1:
        out.append("The runs were played with different engine versions; pooled results mix them.")
    by_players: dict[int, set] = {}
    base_rules = base_rules_of(manifests)
    for m in manifests:
        if rules_key(m) == base_rules:  # rule variants are compared with their baseline, never pooled
            key = (str(m.get("rules")), str(m.get("data", {}).get("files")))
            by_players.setdefault(int(m["num_players"]), set()).add(key)
    mixed = sorted(n for n, keys in by_players.items() if len(keys) > 1)
    if mixed:
        out.append(
            f"Runs of {', '.join(map(str, mixed))} players differ in rules or data and are pooled where sections "
            "pool by player count."
        )
    return " ".join(out)


def _bot_labels(m: dict[str, Any]) -> str:
    counts: dict[str, int] = {}
    for e in m["lineup"]:
        counts[e["label"]] = counts.get(e["label"], 0) + 1
    return ", ".join(f"{label}{f' ×{k}' if k > 1 else ''}" for label, k in counts.items())


def _rule_changes(m: dict[str, Any], base: dict[str, Any]) -> str:
    changed = {k: v for k, v in m.get("rules", {}).items() if base.get(k) != v}
    return ", ".join(f"{k}={v}" for k, v in changed.items()) or "—"


def game_facts(manifests: Sequence[dict[str, Any]]) -> dict[str, Any]:
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


def rules_key(m: dict[str, Any]) -> str:
    return json.dumps(m.get("rules", {}), sort_keys=True)


def base_rules_of(manifests: Sequence[dict[str, Any]]) -> str:
    """The rules most runs share (the first run's on a tie): runs under other rules are rule variants."""
    keys = [rules_key(m) for m in manifests]
    return max(dict.fromkeys(keys), key=keys.count)


def lineup_key(m: dict[str, Any]) -> tuple:
    return int(m["num_players"]), tuple(e["label"] for e in m["lineup"]), replays_setups(m)


def replays_setups(m: dict[str, Any]) -> bool:
    return int(m.get("design", {}).get("games_per_setup") or 1) > 1
