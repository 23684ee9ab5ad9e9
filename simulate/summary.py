"""A short plain-text summary printed after a run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.compute as pc

from simulate.runformat import read_arrow, read_manifest

if TYPE_CHECKING:
    import pandas as pd

SUMMARY_IMPORTS = ("analysis.seats",)
"""Modules :func:`summarize` needs: the runner imports them in the background while workers play."""


def summarize(run_dir: str | Path) -> str:
    """Win rates by seat and by bot (Wilson 95% intervals), scores, game length and throughput."""
    m = read_manifest(run_dir)
    seats = read_arrow(run_dir, "seats", ["num_players", "seat", "bot", "score", "win"], m)
    seats = seats.set_column(4, "win", pc.cast(seats["win"], pa.float64()))
    games = read_arrow(run_dir, "games", ["turns", "rounds", "end_reason"], m)
    n = m["num_players"]
    lines = [
        f"{m['title']}: {m['num_games']:,} games, {n} player{'s' if n != 1 else ''}, "
        f"seed {m['master_seed']}, run {m['run_id']}",
        f"played in {m['timing'].get('seconds', 0):.1f} s "
        f"({m['timing'].get('games_per_second') or 0:,.0f} games/s) -> {run_dir}",
        "",
        "win rate against the automated opponent:" if n == 1 else f"win rate by seat (fair share {1 / n:.1%}):",
    ]
    for row in _win_rates(seats, "seat").itertuples():
        lines.append(
            f"  seat {row.seat}: {row.win_rate:6.1%} ({row.ci_low:.1%}-{row.ci_high:.1%})  "
            f"mean score {row.mean_score:.1f}"
        )
    by_bot = _win_rates(seats, "bot")
    if len(by_bot) > 1:
        lines.append("win rate by bot:")
        for row in by_bot.itertuples():
            lines.append(
                f"  {row.bot:<24} {row.win_rate:6.1%} ({row.ci_low:.1%}-{row.ci_high:.1%})  "
                f"mean score {row.mean_score:.1f}"
            )
    ends = dict(zip(*(c.to_pylist() for c in pc.value_counts(games["end_reason"]).flatten()), strict=True))
    capped = int(ends.get("turn_cap", 0))
    lines.append(
        f"game length: {pc.mean(games['rounds']).as_py():.1f} rounds, {pc.mean(games['turns']).as_py():.1f} turns "
        f"on average; turn-cap endings: {capped} ({capped / len(games):.2%})"
    )
    return "\n".join(lines)


def _win_rates(seats: pa.Table, by: str) -> pd.DataFrame:
    """Win rates and mean scores by ``by``, counted in Arrow (a run's seat rows are millions)."""
    from analysis.seats import win_rates_from_counts

    counts = (
        seats.group_by(["num_players", by])
        .aggregate([("win", "count"), ("win", "sum"), ("score", "mean")])
        .to_pandas()
        .rename(columns={"win_count": "num_games", "win_sum": "wins", "score_mean": "mean_score"})
        .sort_values(["num_players", by], ignore_index=True)
    )
    return win_rates_from_counts(counts)
