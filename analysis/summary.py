"""A short plain-text summary of a run, printed by ``golem simulate`` after the run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from analysis.stats.seats import win_rates_from_counts
from simulate.manifest import RunManifest
from simulate.runformat import FAULT_END_REASONS, read_arrow
from simulate.summary import TALLY_GROUPS


def summarize(run_dir: str | Path) -> str:
    """Win rates by seat and by bot (Wilson 95% intervals), scores, game length and throughput.

    A seat is a place in turn order (seat 1 moves first), as in the report: for a game that draws its
    turn order at setup (``report.turn_order_column`` of the manifest, Golem's ``start_position``) the
    seats are counted from that column of the parts, not from the tallies' table seats.

    Counted from the chunks' tallies in the manifest; from the parts when a chunk has none (runs
    written before tallies were kept).
    """
    run = RunManifest.read(run_dir)
    n = run.num_players
    tallies = run.tallies
    turn_order = run.report.get("turn_order_column")
    if tallies and all(t is not None for t in tallies):
        by_seat, by_bot = (_counts_from_tallies(tallies, by, n) for by in TALLY_GROUPS)
        games = sum(t["games"] for t in tallies)
        rounds = sum(t["rounds"] for t in tallies) / games
        turns = sum(t["turns"] for t in tallies) / games
        capped = sum(t["end_reason"].get("turn_cap", 0) for t in tallies)
    else:
        seats = read_arrow(run_dir, "seats", ["num_players", "seat", "bot", "score", "win"], run.raw)
        seats = seats.set_column(4, "win", pc.cast(seats["win"], pa.float64()))
        table = read_arrow(run_dir, "games", ["turns", "rounds", "end_reason"], run.raw)
        by_seat, by_bot = (_counts_from_seats(seats, by) for by in TALLY_GROUPS)
        ends = dict(zip(*(c.to_pylist() for c in pc.value_counts(table["end_reason"]).flatten()), strict=True))
        games = len(table)
        rounds = pc.mean(table["rounds"]).as_py()
        turns = pc.mean(table["turns"]).as_py()
        capped = int(ends.get("turn_cap", 0))
    if turn_order and n > 1:
        # the game draws its turn order at setup: count seats by place in that order, as the report does
        # (the tallies count table seats)
        order = read_arrow(run_dir, "seats", ["num_players", turn_order, "score", "win"], run.raw)
        order = order.set_column(3, "win", pc.cast(order["win"], pa.float64()))
        by_seat = _counts_from_seats(order.rename_columns(["num_players", "seat", "score", "win"]), "seat")
    lines = [
        f"{run.title}: {run.num_games:,} games, {n} player{'s' if n != 1 else ''}, "
        f"seed {run.master_seed}, run {run.run_id}",
        f"played in {run.timing.get('seconds', 0):.1f} s "
        f"({run.timing.get('games_per_second') or 0:,.0f} games/s) -> {run_dir}",
        "",
        "win rate against the automated opponent:"
        if n == 1
        else f"win rate by seat (seat = place in turn order, seat 1 moves first; fair share {1 / n:.1%}):",
    ]
    for row in win_rates_from_counts(by_seat).itertuples():
        lines.append(
            f"  seat {row.seat}: {row.win_rate:6.1%} ({row.ci_low:.1%}-{row.ci_high:.1%})  "
            f"mean score {row.mean_score:.1f}"
        )
    if len(by_bot) > 1:
        lines.append("win rate by bot:")
        for row in win_rates_from_counts(by_bot).itertuples():
            lines.append(
                f"  {row.bot:<24} {row.win_rate:6.1%} ({row.ci_low:.1%}-{row.ci_high:.1%})  "
                f"mean score {row.mean_score:.1f}"
            )
    lines.append(
        f"game length: {rounds:.1f} rounds, {turns:.1f} turns on average; "
        f"turn-cap endings: {capped} ({capped / games:.2%})"
    )
    return "\n".join(lines)


def fault_warning(run_dir: str | Path) -> str | None:
    """A warning when games of a run ended otherwise than by the rules (turn cap, illegal move), else None.

    Counted from the chunks' tallies; a run whose every game hits the turn cap usually plays a deck or
    rule change that cannot finish a game.
    """
    tallies = [t or {} for t in RunManifest.read(run_dir).tallies]
    games = sum(t.get("games", 0) for t in tallies)
    counts = {r: sum(t.get("end_reason", {}).get(r, 0) for t in tallies) for r in FAULT_END_REASONS}
    ended = {r: k for r, k in counts.items() if k}
    if not games or not ended:
        return None
    what = " and ".join(f"{k:,} by {r.replace('_', ' ')}" for r, k in ended.items())
    hint = "; the rules or data may not let a game finish" if sum(ended.values()) == games else ""
    return (
        f"Warning: {sum(ended.values()):,} of {games:,} games ended abnormally ({what}){hint}; "
        f"see one with 'golem replay {run_dir} --game N' (its games table has end_reason)"
    )


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
