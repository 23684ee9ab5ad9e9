"""Report section on components: which cards or tiles go with winning."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analysis import plots
from analysis.report.format import fmt_int, fmt_num, fmt_pct, fmt_players, fmt_pp
from analysis.report.model import Section, Table, Text, make_figure
from analysis.run import read_tables
from analysis.stats.components import ASSOCIATION_NOTE, component_strength
from simulate.manifest import RunManifest

_COMPONENT_COLUMNS = ["game", "seat", "component", "kind", "round"]

_TOP_COMPONENTS = 12

_FOREST_COMPONENTS = 20


def build_component_section(
    seats: pd.DataFrame,
    games: pd.DataFrame,
    manifests: Sequence[RunManifest],
    offsets: dict[str, int],
    alpha: float,
) -> Section | None:
    with_rows = [m for m in manifests if any(part.rows for part in m.parts("components"))]
    if not with_rows:
        return None
    section = Section("Component strength (association, secondary: not what a card is worth)")
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
            "Standard errors are clustered by game; p-values are Holm-adjusted over the components of each player "
            "count and phase, and the win-difference intervals are adjusted to match (an interval excludes 0 exactly "
            "when the difference is significant). Where a player count has mirror matches only those are "
            "used, so bot strength does not masquerade as card strength."
        )
    )
    results = []
    for n in sorted({m.num_players for m in with_rows}):  # one player count at a time: less memory
        runs = [m for m in with_rows if m.num_players == n]
        mirrors = [m for m in runs if m.is_mirror]
        if not mirrors:
            section.items.append(
                Text(f"{fmt_players(n)}: no mirror matches, so these associations mix bot strength in.", "warn")
            )
        runs = mirrors or runs
        ids = {m.run_id for m in runs}
        keep = seats["run_id"].isin(ids).to_numpy()
        comps = read_tables(runs, "components", _COMPONENT_COLUMNS, [offsets[m.run_id] for m in runs])
        if "table_seat" in seats:
            comps["seat"] = _turn_order_seats(seats.loc[keep], comps)
        part_seats = seats.loc[keep, ["game", "seat", "num_players", "score", "win"]]
        part_games = games.loc[games["run_id"].isin(ids).to_numpy(), ["game", "rounds"]]
        result = component_strength(part_seats, comps, part_games, alpha=alpha, correction="holm")
        del comps, part_seats, part_games
        if result.empty:
            section.items.append(Text(f"{fmt_players(n)}: too few acquisitions of any component to compare."))
        results.append(result)
    strength = pd.concat(results, ignore_index=True)
    if strength.empty:
        return section
    section.answers.append(_component_answer(strength))
    for n, part in strength.groupby("num_players", sort=True):
        overall = part[part["phase"] == "any"]
        num_sig = int(overall["significant"].sum())
        up = overall[overall["significant"] & (overall["win_diff"] > 0)]
        down = overall[overall["significant"] & (overall["win_diff"] < 0)]
        text = f"{fmt_players(n)}: {num_sig} of {len(overall)} components go with a different win rate after correction"
        if len(up):
            best = up.loc[up["win_diff"].idxmax()]
            text += (
                f"; the strongest association: {_named(best)}, acquirers win {fmt_pct(best.win_rate)} "
                f"against {fmt_pct(best.win_rate_not)} ({fmt_pp(best.win_diff)} pp, "
                f"{fmt_pp(best.win_diff_low)} to {fmt_pp(best.win_diff_high)})"
            )
        if len(down):
            worst = down.loc[down["win_diff"].idxmin()]
            text += (
                f"; the weakest: {_named(worst)} ({fmt_pp(worst.win_diff)} pp, "
                f"{fmt_pp(worst.win_diff_low)} to {fmt_pp(worst.win_diff_high)})"
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
                    when.append(f"{fmt_pp(x.win_diff)}{'*' if x.significant else ''} (n={int(x.num_acquired):,})")
                else:
                    when.append("—")
            rows.append(
                [
                    r.component,
                    r.kind,
                    fmt_int(r.num_acquired),
                    fmt_pct(r.win_rate),
                    fmt_pct(r.win_rate_not),
                    fmt_pp(r.win_diff),
                    f"{fmt_pp(r.win_diff_low)} to {fmt_pp(r.win_diff_high)}",
                    fmt_num(r.margin_diff, 1, True),
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
                f"{fmt_players(n)}: the {len(top)} components with the largest win-rate association; by when: the "
                "difference (pp) for seats that first acquired it in that third of the game (* significant after "
                "correction).",
            )
        )
        section.items.append(
            make_figure(
                f"component-forest-{n}p.png",
                f"Component forest plot, {fmt_players(n)}: win rate of acquiring seats minus the rest, adjusted "
                "intervals (association, not cause).",
                [lambda ax, n=n: plots.plot_component_forest(strength, ax=ax, num_players=n, top=_FOREST_COMPONENTS)],
                size=(7, 0.28 * _FOREST_COMPONENTS + 1.8),
            )
        )
    return section


def _named(row: Any) -> str:
    """A component by kind and name: 'book B12', 'objective O03'; by name alone where the name says its kind
    ('artifact_3', not 'artifact artifact_3')."""
    return row.component if str(row.component).startswith(row.kind) else f"{row.kind} {row.component}"


def _component_answer(strength: pd.DataFrame) -> str:
    """The component that stands out most (largest significant win-rate association, any player count), in words."""
    overall = strength[(strength["phase"] == "any") & strength["significant"]]
    total = int((strength["phase"] == "any").sum())
    if overall.empty:
        return (
            f"No component stands out: none of {total} component-player count pairs goes with a different win rate "
            "after correction."
        )
    top = overall.loc[overall["win_diff"].abs().idxmax()]
    more = "more" if top.win_diff > 0 else "less"
    return (
        f"Component that stands out: {_named(top)} ({fmt_players(top.num_players)}); seats that have it win "
        f"{fmt_pp(abs(top.win_diff))[1:]} pp {more} often ({fmt_pp(top.win_diff_low)} to {fmt_pp(top.win_diff_high)}), "
        f"{len(overall)} of {total} (component, player count) pairs differ (association, not cause)."
    )


def _turn_order_seats(seats: pd.DataFrame, comps: pd.DataFrame) -> np.ndarray:
    """The turn-order place of each component row's seat (the components table names table seats)."""
    place = pd.Series(seats["seat"].to_numpy(), index=pd.MultiIndex.from_arrays([seats["game"], seats["table_seat"]]))
    found = place.reindex(pd.MultiIndex.from_arrays([comps["game"], comps["seat"]]))
    return found.to_numpy().astype(comps["seat"].dtype)
