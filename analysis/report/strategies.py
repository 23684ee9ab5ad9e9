"""Report section on strategies: head-to-head win rates and ratings of the bots."""

from __future__ import annotations

import warnings

import pandas as pd
from statsmodels.tools.sm_exceptions import PerfectSeparationWarning

from analysis import plots
from analysis.report.format import _ci, _int, _num, _pct, _pct_ci
from analysis.report.model import Section, Table, Text, _figure
from analysis.stats.strategies import bradley_terry, head_to_head


def _strategy_section(seats: pd.DataFrame, alpha: float) -> tuple[Section | None, pd.DataFrame | None]:
    """The section, and the Bradley-Terry ratings (None where the bots cannot be rated together)."""
    if seats["bot"].nunique() < 2:
        return None, None
    pairs = seats[["game", "seat", "bot", "rank"]]
    h2h = head_to_head(pairs, alpha=alpha)
    if h2h.empty:
        return None, None
    section = Section("Strategy strength")
    section.items.append(
        Text(
            "Each game is broken into its seat pairs: the better-ranked seat wins the pair (a shared tie counts "
            "half). Pairs from one game are not independent, so intervals are clustered by game. Bradley-Terry "
            "strengths are fitted to all pairs and shown on the Elo scale (400 points = 10:1 odds). Player counts "
            "are pooled."
        )
    )
    # a bot that never (or always) beats another makes the maximum-likelihood ratings infinite
    separated = bool(((h2h["wins"] <= 0) | (h2h["wins"] >= h2h["num_comparisons"])).any())
    if separated:
        section.items.append(
            Text(
                "Some bot never finishes above another, so the ratings add half a win to each side of every "
                "pair (a pseudo-count) to stay finite; they rank the bots but understate such gaps.",
                "warn",
            )
        )
    try:
        with warnings.catch_warnings():  # a single pair of bots leaves the GLM no residual df; harmless
            warnings.simplefilter("ignore", RuntimeWarning)
            warnings.simplefilter("ignore", PerfectSeparationWarning)  # near-certain pairs; flagged above
            ratings = bradley_terry(h2h, alpha=alpha, pseudo_count=0.5 if separated else 0.0, seats=pairs)
    except ValueError as e:
        ratings = None
        section.items.append(Text(f"No Bradley-Terry ratings: {e}.", "warn"))
        top = h2h.loc[h2h["win_rate"].idxmax()]
        section.answers.append(
            f"Strategy that stands out: {top.bot} finishes above {top.opponent} in {_pct(top.win_rate)} "
            f"({_pct_ci(top.ci_low, top.ci_high)}) of their seat pairs (head to head only: {e})."
        )
    order = list(ratings["bot"]) if ratings is not None else sorted(set(h2h["bot"]))
    cell = {(r.bot, r.opponent): f"{_pct(r.win_rate)} ({_pct_ci(r.ci_low, r.ci_high)})" for r in h2h.itertuples()}
    section.items.append(
        Table(
            ["bot \\ opponent", *order],
            [[b, *[cell.get((b, o), "—") for o in order]] for b in order],
            "Head-to-head: how often the row bot finishes above the column bot, with Wilson intervals "
            "clustered by game.",
        )
    )
    panels = [lambda ax: plots.plot_head_to_head(h2h, ax=ax, order=order)]
    if ratings is not None:
        section.items.append(
            Table(
                ["bot", "Elo", "Elo interval", "strength (log-odds)", "comparisons"],
                [
                    [r.bot, _num(r.elo, 0), _ci(r.elo_low, r.elo_high, 0), _num(r.rating, 3), _int(r.num_comparisons)]
                    for r in ratings.itertuples()
                ],
                "Bradley-Terry ratings (Elo scale, centred on 1500).",
            )
        )
        best, rest = ratings.iloc[0], ratings.iloc[1:]
        parts = []
        for r in rest.itertuples():
            rate = h2h[(h2h["bot"] == best.bot) & (h2h["opponent"] == r.bot)]
            if not rate.empty:
                x = rate.iloc[0]
                parts.append(f"{x.win_rate:.1%} ({_pct_ci(x.ci_low, x.ci_high)}) against {r.bot}")
        separated = all(
            a.elo_low > b.elo_high
            for a, b in zip(ratings.iloc[:-1].itertuples(), ratings.iloc[1:].itertuples(), strict=True)
        )
        text = (
            f"Strength order: {' > '.join(ratings['bot'])}"
            f"{' (every adjacent pair separated by its intervals)' if separated else ' (some intervals overlap)'}. "
            f"{best.bot} rates {best.elo:.0f} Elo ({_ci(best.elo_low, best.elo_high, 0)})"
            + (f" and finishes above {'; '.join(parts)}." if parts else ".")
        )
        section.items.append(Text(text, "verdict"))
        section.findings.append(text)
        section.answers.append(
            f"Strongest strategy: {best.bot} ({best.elo:.0f} Elo, {_ci(best.elo_low, best.elo_high, 0)}); "
            f"order {' > '.join(ratings['bot'])}"
            + (f"; {best.bot} finishes above {parts[0]}" if parts else "")
            + " (mixed bots, player counts pooled)."
        )
        panels.append(lambda ax: plots.plot_ratings(ratings, ax=ax))
    section.items.append(
        _figure(
            "bot-matrix.png", "Head-to-head matrix and Bradley-Terry ratings.", panels, ncols=len(panels), size=(6, 4.5)
        )
    )
    return section, ratings
