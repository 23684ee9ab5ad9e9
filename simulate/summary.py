"""A short plain-text summary printed after a run."""

from __future__ import annotations

from pathlib import Path

from simulate.runformat import read_manifest, read_table


def summarize(run_dir: str | Path) -> str:
    """Win rates by seat and by bot (Wilson 95% intervals), scores, game length and throughput."""
    from analysis.seats import win_rates

    m = read_manifest(run_dir)
    seats = read_table(run_dir, "seats", ["game", "num_players", "seat", "bot", "score", "win"], m)
    games = read_table(run_dir, "games", ["turns", "rounds", "end_reason"], m)
    n = m["num_players"]
    lines = [
        f"{m['title']}: {m['num_games']:,} games, {n} players, seed {m['master_seed']}, run {m['run_id']}",
        f"played in {m['timing'].get('seconds', 0):.1f} s "
        f"({m['timing'].get('games_per_second') or 0:,.0f} games/s) -> {run_dir}",
        "",
        "win rate against the automated opponent:" if n == 1 else f"win rate by seat (fair share {1 / n:.1%}):",
    ]
    mean_score = seats.groupby("seat", observed=True)["score"].mean()
    for row in win_rates(seats, by="seat").itertuples():
        lines.append(
            f"  seat {row.seat}: {row.win_rate:6.1%} ({row.ci_low:.1%}-{row.ci_high:.1%})  "
            f"mean score {mean_score[row.seat]:.1f}"
        )
    if seats["bot"].nunique() > 1:
        lines.append("win rate by bot:")
        bot_score = seats.groupby("bot", observed=True)["score"].mean()
        for row in win_rates(seats, by="bot").itertuples():
            lines.append(
                f"  {row.bot:<24} {row.win_rate:6.1%} ({row.ci_low:.1%}-{row.ci_high:.1%})  "
                f"mean score {bot_score[row.bot]:.1f}"
            )
    ends = games["end_reason"].value_counts()
    capped = int(ends.get("turn_cap", 0))
    lines.append(
        f"game length: {games['rounds'].mean():.1f} rounds, {games['turns'].mean():.1f} turns on average; "
        f"turn-cap endings: {capped} ({capped / len(games):.2%})"
    )
    return "\n".join(lines)
