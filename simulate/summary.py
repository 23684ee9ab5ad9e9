"""A short plain-text summary printed after a run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from simulate.runformat import read_arrow, read_manifest

if TYPE_CHECKING:
    import pandas as pd

SUMMARY_IMPORTS = ("analysis.stats.seats",)
"""Modules :func:`summarize` needs: the runner imports them in the background while workers play."""
TALLY_GROUPS = ("seat", "bot")
"""Seat-row groups a chunk's tally counts (see :func:`chunk_tally`)."""


def chunk_tally(tables: dict[str, pa.Table]) -> dict[str, Any]:
    """What the summary needs of one chunk's tables, counted as the chunk is written (kept in the manifest).

    ``seat`` and ``bot``: per group, [seat rows, wins, sum of scores]; ``games``, ``turns`` and
    ``rounds``: the count and sums over games; ``end_reason``: games per end reason.
    """
    seats, games = tables["seats"], tables["games"]
    win = seats["win"].to_numpy().astype(np.float64)
    score = seats["score"].to_numpy().astype(np.float64)
    tally: dict[str, Any] = {}
    for by in TALLY_GROUPS:
        column = seats[by].combine_chunks()
        if pa.types.is_dictionary(column.type):
            codes, names = column.indices.to_numpy(), column.dictionary.to_pylist()
        else:
            names, codes = np.unique(column.to_numpy(), return_inverse=True)
            names = names.tolist()
        rows = np.bincount(codes, minlength=len(names))
        wins = np.bincount(codes, weights=win, minlength=len(names))
        scores = np.bincount(codes, weights=score, minlength=len(names))
        tally[by] = {
            str(name): [int(rows[k]), float(wins[k]), int(scores[k])] for k, name in enumerate(names) if rows[k]
        }
    ends = pc.value_counts(games["end_reason"].combine_chunks()).flatten()
    tally["games"] = games.num_rows
    tally["turns"] = int(pc.sum(games["turns"]).as_py() or 0)
    tally["rounds"] = int(pc.sum(games["rounds"]).as_py() or 0)
    tally["end_reason"] = {str(k): int(v) for k, v in zip(*(c.to_pylist() for c in ends), strict=True)}
    return tally


def summarize(run_dir: str | Path) -> str:
    """Win rates by seat and by bot (Wilson 95% intervals), scores, game length and throughput.

    Counted from the chunks' tallies in the manifest; from the parts when a chunk has none (runs
    written before tallies were kept).
    """
    m = read_manifest(run_dir)
    n = m["num_players"]
    tallies = [c.get("tally") for c in m["chunks"].values()]
    if tallies and all(t is not None for t in tallies):
        by_seat, by_bot = (_counts_from_tallies(tallies, by, n) for by in TALLY_GROUPS)
        games = sum(t["games"] for t in tallies)
        rounds = sum(t["rounds"] for t in tallies) / games
        turns = sum(t["turns"] for t in tallies) / games
        capped = sum(t["end_reason"].get("turn_cap", 0) for t in tallies)
    else:
        seats = read_arrow(run_dir, "seats", ["num_players", "seat", "bot", "score", "win"], m)
        seats = seats.set_column(4, "win", pc.cast(seats["win"], pa.float64()))
        table = read_arrow(run_dir, "games", ["turns", "rounds", "end_reason"], m)
        by_seat, by_bot = (_counts_from_seats(seats, by) for by in TALLY_GROUPS)
        ends = dict(zip(*(c.to_pylist() for c in pc.value_counts(table["end_reason"]).flatten()), strict=True))
        games = len(table)
        rounds = pc.mean(table["rounds"]).as_py()
        turns = pc.mean(table["turns"]).as_py()
        capped = int(ends.get("turn_cap", 0))
    lines = [
        f"{m['title']}: {m['num_games']:,} games, {n} player{'s' if n != 1 else ''}, "
        f"seed {m['master_seed']}, run {m['run_id']}",
        f"played in {m['timing'].get('seconds', 0):.1f} s "
        f"({m['timing'].get('games_per_second') or 0:,.0f} games/s) -> {run_dir}",
        "",
        "win rate against the automated opponent:" if n == 1 else f"win rate by seat (fair share {1 / n:.1%}):",
    ]
    for row in _win_rates(by_seat).itertuples():
        lines.append(
            f"  seat {row.seat}: {row.win_rate:6.1%} ({row.ci_low:.1%}-{row.ci_high:.1%})  "
            f"mean score {row.mean_score:.1f}"
        )
    if len(by_bot) > 1:
        lines.append("win rate by bot:")
        for row in _win_rates(by_bot).itertuples():
            lines.append(
                f"  {row.bot:<24} {row.win_rate:6.1%} ({row.ci_low:.1%}-{row.ci_high:.1%})  "
                f"mean score {row.mean_score:.1f}"
            )
    lines.append(
        f"game length: {rounds:.1f} rounds, {turns:.1f} turns on average; "
        f"turn-cap endings: {capped} ({capped / games:.2%})"
    )
    return "\n".join(lines)


def _counts_from_seats(seats: pa.Table, by: str) -> pd.DataFrame:
    """Seat rows, wins and mean scores by ``by``, counted in Arrow (a run's seat rows are millions)."""
    return (
        seats.group_by(["num_players", by])
        .aggregate([("win", "count"), ("win", "sum"), ("score", "mean")])
        .to_pandas()
        .rename(columns={"win_count": "num_games", "win_sum": "wins", "score_mean": "mean_score"})
        .sort_values(["num_players", by], ignore_index=True)
    )


def _counts_from_tallies(tallies: list[dict[str, Any]], by: str, n: int) -> pd.DataFrame:
    """The :func:`_counts_from_seats` frame from the chunks' tallies."""
    import pandas as pd

    total: dict[str, list[float]] = {}
    for t in tallies:
        for key, (rows, wins, scores) in t[by].items():
            acc = total.setdefault(key, [0, 0.0, 0])
            acc[0] += rows
            acc[1] += wins
            acc[2] += scores
    keys = sorted(total, key=int) if by == "seat" else list(total)  # bots in lineup order, as the parts list them
    return pd.DataFrame(
        {
            "num_players": np.full(len(keys), n, np.int8),
            by: [int(k) for k in keys] if by == "seat" else keys,
            "num_games": [total[k][0] for k in keys],
            "wins": [total[k][1] for k in keys],
            "mean_score": [total[k][2] / total[k][0] for k in keys],
        }
    )


def _win_rates(counts: pd.DataFrame) -> pd.DataFrame:
    from analysis.stats.seats import win_rates_from_counts

    return win_rates_from_counts(counts)
