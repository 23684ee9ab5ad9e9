"""Report section on outcomes: scores, game lengths and end reasons."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from analysis import plots
from analysis.report.format import fmt_ci, fmt_int, fmt_level, fmt_num, fmt_pct, fmt_pct_ci
from analysis.report.model import Section, Table, Text, make_figure
from analysis.stats.outcomes import end_reasons, game_lengths, score_summary


def build_outcome_section(
    games: pd.DataFrame, seats: pd.DataFrame, mirror: np.ndarray, labels: dict[str, str], alpha: float, unit: str
) -> Section:
    section = Section("Game length, scores and end reasons")
    ends = end_reasons(games[["num_players", "end_reason"]], alpha=alpha)
    runs = games["run_id"].astype(str).map(labels) if "run_id" in games.columns else None
    if runs is not None and runs.nunique() > 1:  # name the runs that hit the cap: never pool a weak rung's
        frame = games[["num_players", "end_reason"]].assign(run=runs.to_numpy())
        ends = ends._replace(verdict=end_reasons(frame, alpha=alpha, by="run").verdict)
    capped = ends.table[ends.table["turn_cap"]]
    kind = "warn" if len(capped) and capped["num_games"].sum() > 0 else "verdict"
    section.items.append(Text(ends.verdict, kind))
    section.findings.append(ends.verdict)
    section.items.append(
        Table(
            ["players", "end reason", "games", "share", f"{fmt_level(alpha)} interval"],
            [
                [
                    str(r.num_players),
                    r.end_reason + (" (safety net, not the rules' end)" if r.turn_cap else ""),
                    fmt_int(r.num_games),
                    fmt_pct(r.share, 2),
                    fmt_pct_ci(r.ci_low, r.ci_high, 2),
                ]
                for r in ends.table.itertuples()
            ],
            "How games ended.",
        )
    )
    rows = []
    for rid, part in games.groupby("run_id", observed=True, sort=False):
        for r in game_lengths(part[["num_players", "turns", "rounds", "end_reason"]]).itertuples():
            rows.append(
                [
                    labels[str(rid)],
                    str(r.num_players),
                    r.end_reason,
                    fmt_int(r.num_games),
                    fmt_num(r.turns_mean, 1),
                    fmt_num(r.turns_median, 0),
                    f"{r.turns_p05:.0f}–{r.turns_p95:.0f}",
                    fmt_num(r.rounds_mean, 1),
                    f"{r.rounds_p05:.0f}–{r.rounds_p95:.0f}",
                ]
            )
    section.items.append(
        Table(
            ["run", "players", "end reason", "games", "turns (mean)", "median", "5–95%", "rounds (mean)", "5–95%"],
            rows,
            "Game length by run.",
        )
    )
    parts = [c for c in seats.columns if c.startswith("score_")]
    summary = score_summary(seats[["game", "num_players", "run_id", "seat", "score", *parts]], by=["run_id", "seat"])
    section.items.append(
        Table(
            [
                "run",
                "players",
                "seat",
                "mean score",
                "SD",
                "median",
                "5–95%",
                "margin (mean)",
                *[p.removeprefix("score_") for p in parts],
            ],
            [
                [
                    labels[str(r.run_id)],
                    str(r.num_players),
                    str(r.seat),
                    fmt_num(r.score_mean, 1),
                    fmt_num(r.score_sd, 1),
                    fmt_num(r.score_median, 0),
                    f"{r.score_p05:.0f}–{r.score_p95:.0f}",
                    fmt_num(r.margin_mean, 2, True),
                    *[fmt_num(getattr(r, f"{p}_mean"), 1) for p in parts],
                ]
                for r in summary.itertuples()
            ],
            f"Final scores by run and seat, with the mean of each part of the score ({unit}).",
        )
    )
    if seats["bot"].nunique() > 1 and not mirror.all():
        sub = seats.loc[~mirror, ["game", "num_players", "bot", "score"]]
        by_bot = score_summary(sub, by="bot")

        z = stats.norm.ppf(1 - alpha / 2)
        section.items.append(
            Table(
                [
                    "players",
                    "bot",
                    "seat-games",
                    "mean score",
                    f"{fmt_level(alpha)} interval",
                    "SD",
                    "median",
                    "margin (mean)",
                ],
                [
                    [
                        str(r.num_players),
                        str(r.bot),
                        fmt_int(r.num_games),
                        fmt_num(r.score_mean, 1),
                        fmt_ci(
                            r.score_mean - z * r.score_sd / np.sqrt(r.num_games),
                            r.score_mean + z * r.score_sd / np.sqrt(r.num_games),
                            2,
                        ),
                        fmt_num(r.score_sd, 1),
                        fmt_num(r.score_median, 0),
                        fmt_num(r.margin_mean, 2, True),
                    ]
                    for r in by_bot.itertuples()
                ],
                f"Final scores by bot in mixed-bot games ({unit}; normal interval over seat-games, which treats "
                "the seats of one game as independent).",
            )
        )
    source = seats.loc[mirror] if mirror.any() else seats
    what = "mirror matches" if mirror.any() else "all games"
    counts = sorted(source["num_players"].unique())
    score_frame = source[["num_players", "seat", "score"]]
    section.items.append(
        make_figure(
            "score-distributions.png",
            f"Final score distribution by seat ({what}), one panel per player count.",
            [
                lambda ax, n=n: plots.plot_score_distributions(score_frame, ax=ax, num_players=int(n), unit=unit)
                for n in counts
            ],
            ncols=min(2, len(counts)),
            size=(6, 3.6),
        )
    )
    length_frame = games[["num_players", "end_reason", "turns"]]
    lengths = sorted(games["num_players"].unique())
    section.items.append(
        make_figure(
            "game-lengths.png",
            "Game length in turns by end reason (turn-cap endings in red).",
            [lambda ax, n=n: plots.plot_game_lengths(length_frame, ax=ax, num_players=int(n)) for n in lengths],
            ncols=min(2, len(lengths)),
            size=(6, 3.6),
        )
    )
    return section
