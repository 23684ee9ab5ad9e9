"""Report section on convergence: how the estimates settle as games are added, and games needed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analysis import plots
from analysis.report.format import fmt_games, fmt_level, fmt_pct, fmt_players, is_number
from analysis.report.model import Section, Table, Text, make_figure
from analysis.stats.convergence import MAX_PLANNABLE_GAMES, convergence, games_needed, more_games_text


def build_convergence_section(
    seats: pd.DataFrame,
    mirror: np.ndarray,
    mirror_results: dict[str, Any],
    mixed_result: Any,
    alpha: float,
) -> Section | None:
    if seats.empty:  # solo games only: the solo section has them
        return None
    section = Section("Convergence")
    if mirror_results:
        label = max(mirror_results, key=lambda k: int(mirror_results[k].table["num_games"].sum()))
        keep = mirror & (seats["bot"] == label).to_numpy()
        conv = convergence(seats.loc[keep, ["game", "num_players", "seat", "bot", "score", "win"]], "mirror", alpha)
        what = f"{label} mirror matches"
    else:
        conv = convergence(seats.loc[~mirror, ["game", "num_players", "seat", "bot", "score", "win"]], "all", alpha)
        what = "mixed-bot games"
    section.items.append(
        Text(
            f"How the seat win rates of {what} settle as games accumulate, in run order: the interval width "
            "shrinks as 1/sqrt(N), so halving it takes four times the games."
        )
    )
    for n, part in conv.groupby("num_players", sort=True):
        last = part[part["num_games"] == part["num_games"].max()]
        width = float(last["width"].max())
        text = (
            f"{fmt_players(n)}: after {int(last['num_games'].iloc[0]):,} games per seat the widest {fmt_level(alpha)} "
            f"interval on a seat's win rate spans {100 * width:.2f} percentage points."
        )
        section.items.append(Text(text))
    tables = [(f"{label} mirror", r.table) for label, r in mirror_results.items()]
    if mixed_result is not None:
        tables.append(("mixed bots", mixed_result.table))
    rows = []
    open_questions = []
    plannable = []
    for name, table in tables:
        needed = games_needed(table, alpha=alpha)
        for r in needed.itertuples():
            status = "resolved" if r.resolved else "open"
            more = "—" if r.resolved else fmt_games(r.more_games)
            margin_more = getattr(r, "margin_more_games", np.nan)
            margin_text = "—" if margin_more == 0 else fmt_games(margin_more)
            rows.append([name, str(r.num_players), str(r.seat), fmt_pct(r.win_rate, 2), status, more, margin_text])
            if not r.resolved:
                open_questions.append(f"{name}, {fmt_players(r.num_players)}, {r.note}")
                if is_number(r.more_games) and r.more_games <= MAX_PLANNABLE_GAMES:
                    plannable.append(float(r.more_games))
    section.items.append(
        Table(
            ["lineup", "players", "seat", "win rate", "against fair", "more games to resolve", "more games (margin)"],
            rows,
            "Is each seat's win rate distinguishable from the fair share? 'resolved': the interval already "
            "excludes it; otherwise the games needed (at the current effect, power 0.5) for the interval to "
            "exclude it, and the same for the score margin against 0.",
        )
    )
    if open_questions:
        section.items.append(Text("Open questions: " + "; ".join(open_questions) + ".", "verdict"))
        summary = f"{len(open_questions)} of {len(rows)} seat win rates cannot yet be told from the fair share"
        if plannable:
            summary += (
                f"; at the current effects the plannable ones need up to {more_games_text(max(plannable))} per lineup"
            )
        unplannable = len(open_questions) - len(plannable)
        if unplannable:
            summary += f"; {unplannable} would need {more_games_text(np.inf)}"
        section.findings.append(summary + " (see Convergence).")
    else:
        text = "Every seat's win rate is already distinguishable from the fair share."
        section.items.append(Text(text, "verdict"))
        section.findings.append(text)
    panels = []
    for n in sorted(conv["num_players"].unique()):
        panels.append(lambda ax, n=int(n): plots.plot_convergence(conv, ax=ax, num_players=n))
        panels.append(lambda ax, n=int(n): plots.plot_convergence(conv, ax=ax, num_players=n, show="width"))
    section.items.append(
        make_figure(
            "convergence.png",
            f"Convergence of seat win rates ({what}): estimates with intervals (left) and "
            "interval width against games (right).",
            panels,
            ncols=2,
            size=(6, 3.4),
        )
    )
    return section
