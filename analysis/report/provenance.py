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
from simulate.manifest import DataRecord, Design, RunManifest
from simulate.runformat import RunFormatError


def _design(m: RunManifest) -> str:
    d = m.design
    rotate = "seats rotated" if d.rotate_seats else "fixed seats"
    orders = d.orders_per_opening
    if d.setups and orders > 1:
        return f"{d.setups // orders:,} openings × {orders} deck orders × {d.games_per_setup} games, {rotate}"
    if d.setups:
        return f"{d.setups:,} setups × {d.games_per_setup} games, {rotate}"
    return f"a new setup every game, {rotate}"


def _data(m: RunManifest) -> str:
    text = m.data.folder if m.data.folder is not None else "?"
    text += " (shipped data)" if m.data.default else " (NOT the shipped data)"
    if m.data.estimates:
        text += ", CONTAINS ESTIMATES"
    return text


def _apprentice(m: RunManifest) -> str:
    """What the run's learned player was fitted on: this data, other data (what differs), or none plays."""
    record = manifest_fit(m.raw)
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


def evidence_record(manifests: Sequence[RunManifest], command: str | None) -> dict[str, Any]:
    """What a report was computed from, as data (``report.json``): per run its id, games, engine version, whether it
    played the shipped data and the SHA-256 of each data file, so a check can tell a report whose engine or data
    have changed since (tests/test_stale_reports.py)."""
    return {
        "schema": EVIDENCE_SCHEMA,
        "game": manifests[0].game if manifests else None,
        "command": command,
        "source": source_revision().strip(" ()"),
        "runs": [
            {
                "run": m.label,
                "run_id": m.run_id,
                "num_games": m.num_games,
                "engine_version": m.engine_version,
                "package_version": m.package_version,
                "shipped_data": bool(m.data.default),
                "data_files": dict(m.data_files),
            }
            for m in manifests
        ],
    }


def build_appendix(manifests: Sequence[RunManifest], command: str | None, alpha: float) -> list[Text | Table]:
    """Provenance, for the report's appendix: what was played (runs, bots, rules, data) and the commands.

    Settings every run shares are listed once; the runs table shows only the settings that differ between runs.
    """
    items: list[Text | Table] = []
    total = sum(m.num_games for m in manifests)
    game = manifests[0].title
    items.append(
        Text(
            f"{game}: {total:,} games in {len(manifests)} run{'s' if len(manifests) > 1 else ''}. "
            f"Intervals are {fmt_level(alpha)} (Wilson for rates, bootstrap for score margins, F for the "
            "intraclass correlation, Wald for ratings); every run was verified complete with intact part "
            f"files before analysis. Generated {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} by golem-lab "
            f"{manifests[0].package_version or '?'}{source_revision()}."
        )
    )
    if command:
        items.append(Text("Reproduce this report with:"))
        items.append(Text(command, "code"))
    base = json.loads(base_rules_of(manifests))
    columns: dict[str, list[str]] = {
        "run": [m.label for m in manifests],
        "game": [m.game for m in manifests],
        "players": [str(m.num_players) for m in manifests],
        "games": [f"{m.num_games:,}" for m in manifests],
        "seed": [str(m.master_seed) for m in manifests],
        "bots": [_bot_labels(m) for m in manifests],
        "design": [_design(m) for m in manifests],
        "rule changes": [_rule_changes(m, base) for m in manifests],
        "data": [_data(m) for m in manifests],
        "apprentice": [_apprentice(m) for m in manifests],  # dropped below when no run plays one
        "engine": [str(m.engine_version if m.engine_version is not None else "?") for m in manifests],
        "package": [str(m.package_version if m.package_version is not None else "?") for m in manifests],
    }
    if all(manifest_fit(m.raw) is None for m in manifests):
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
        for e in m.lineup:
            params.setdefault(e.label, ", ".join(f"{k}={v:g}" for k, v in e.params.items()))
    if any(params.values()):
        rows = [[k, v or "(defaults)"] for k, v in params.items()]
        items.append(Table(["bot", "parameters"], rows, "Bots and their parameters."))
    items.append(Text("Commands that produced the runs:"))
    items.append(Text("\n".join(f"{m.command or '(command not recorded)'}" for m in manifests), "code"))
    return items


def _estimate_words(data: DataRecord) -> str:
    """What of the game data is invented or estimated, and what that means for the answers, in words: an invented
    stand-in (the data's ``label`` says "invented") describes another game than the printed one; estimated rows and
    parameters (``estimated_rows``, ``estimated_parameters``) make the answers that depend on them provisional."""
    label = data.label
    if "invented" in label.lower():
        return f"Invented data: {label}. Every answer describes the invented components, not the printed game"
    rows = {name.removesuffix(".csv"): int(n) for name, n in data.estimated_rows.items() if n}
    params = list(data.estimated_parameters)
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
        f"{data.folder or 'the seeds folder'}): answers that depend on them are provisional"
    )


def caution_lines(manifests: Sequence[RunManifest]) -> str:
    """What limits the report's answers, each stated once ('' when nothing does)."""

    def runs(selected: list[RunManifest]) -> str:
        if len(selected) == len(manifests):
            return "every run"
        return "run" + ("s " if len(selected) > 1 else " ") + ", ".join(m.label for m in selected)

    out = []
    estimated = [m for m in manifests if m.data.estimates]
    if estimated:
        out.append(f"{_estimate_words(estimated[0].data)} ({runs(estimated)}).")
    other = [m for m in manifests if m.data.default is False]
    if other:
        folders = ", ".join(sorted({str(m.data.folder) for m in other}))
        out.append(f"{runs(other).capitalize()} play non-default data ({folders}): they describe that variant.")
    learned = fit_caution([m.raw for m in manifests], run_label)
    if learned:
        out.append(learned)
    if len({m.engine_version for m in manifests}) > 1:
        out.append("The runs were played with different engine versions; pooled results mix them.")
    by_players: dict[int, set] = {}
    base_rules = base_rules_of(manifests)
    for m in manifests:
        if rules_key(m) == base_rules:  # rule variants are compared with their baseline, never pooled
            key = (rules_key(m), json.dumps(dict(m.data_files), sort_keys=True))
            by_players.setdefault(m.num_players, set()).add(key)
    mixed = sorted(n for n, keys in by_players.items() if len(keys) > 1)
    if mixed:
        out.append(
            f"Runs of {', '.join(map(str, mixed))} players differ in rules or data and are pooled where sections "
            "pool by player count."
        )
    return " ".join(out)


def _bot_labels(m: RunManifest) -> str:
    counts: dict[str, int] = {}
    for e in m.lineup:
        counts[e.label] = counts.get(e.label, 0) + 1
    return ", ".join(f"{label}{f' ×{k}' if k > 1 else ''}" for label, k in counts.items())


def _rule_changes(m: RunManifest, base: dict[str, Any]) -> str:
    changed = {k: v for k, v in m.rules.items() if base.get(k) != v}
    return ", ".join(f"{k}={v}" for k, v in changed.items()) or "—"


def game_facts(manifests: Sequence[RunManifest]) -> dict[str, Any]:
    """What the runs' game declares for its report, as the runner recorded it in the manifest (``report``):
    ``score_unit``, ``turn_order_column`` and ``metrics``, name -> [expression, meaning[, per]].

    A metric's expression is evaluated over the games table (``DataFrame.eval``), e.g. ``"rounds >= 3"``; one
    with ``per`` is a ratio of totals over the games, ``sum(expression) / sum(per)`` (e.g. chips per deal).
    """
    facts = manifests[0].report
    if not facts:
        raise RunFormatError(
            f"{manifests[0].path or manifests[0].run_id}: the run was written before runs recorded what a "
            "report needs of the game (manifest 'report'); play it again (golem study plays such runs again)"
        )
    return dict(facts)


def rules_key(m: RunManifest) -> str:
    """The run's rule options as a key (JSON, sorted): runs of equal keys play the same rules."""
    return json.dumps(dict(m.rules), sort_keys=True)


def base_rules_of(manifests: Sequence[RunManifest]) -> str:
    """The rules most runs share (the first run's on a tie): runs under other rules are rule variants."""
    keys = [rules_key(m) for m in manifests]
    return max(dict.fromkeys(keys), key=keys.count)


def lineup_key(m: RunManifest) -> tuple:
    """Players, bot labels seat by seat and whether setups are replayed: runs of equal keys pair as variants."""
    return m.num_players, tuple(m.labels), replays_setups(m.design)


def replays_setups(design: Design) -> bool:
    """Whether a run's design plays each setup more than once."""
    return (design.games_per_setup or 1) > 1
