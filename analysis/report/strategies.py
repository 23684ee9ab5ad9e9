"""Report section on strategies: head-to-head win rates and ratings of the bots."""

from __future__ import annotations

import pandas as pd

from analysis import plots
from analysis.report.format import fmt_ci, fmt_int, fmt_level, fmt_num, fmt_pct, fmt_pct_ci
from analysis.report.model import Section, Table, Text, make_figure
from analysis.stats._util import mirror_mask
from analysis.stats.strategies import finish_ratings, head_to_head, score_ratings


def build_strategy_section(
    seats: pd.DataFrame, alpha: float, unit: str | None = None
) -> tuple[Section | None, pd.DataFrame | None]:
    """The section, and the Bradley-Terry ratings (None where the bots cannot be rated together).

    With ``unit`` (a game whose outcome is its score, e.g. golem-poker's net chips) the section leads with each
    bot's mean net score in mixed games, and the summary's answer is in that unit; the finishes-above ratings
    follow as a second view."""
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
    try:
        ratings = finish_ratings(h2h, pairs, alpha)
        if ratings.attrs["separated"]:
            section.items.append(
                Text(
                    "Some bot never finishes above another, so the ratings add half a win to each side of every "
                    "pair (a pseudo-count) to stay finite; they rank the bots but understate such gaps.",
                    "warn",
                )
            )
    except ValueError as e:
        ratings = None
        section.items.append(Text(f"No Bradley-Terry ratings: {e}.", "warn"))
        top = h2h.loc[h2h["win_rate"].idxmax()]
        section.answers.append(
            f"Strategy that stands out: {top.bot} finishes above {top.opponent} in {fmt_pct(top.win_rate)} "
            f"({fmt_pct_ci(top.ci_low, top.ci_high)}) of their seat pairs (head to head only: {e})."
        )
    order = list(ratings["bot"]) if ratings is not None else sorted(set(h2h["bot"]))
    cell = {(r.bot, r.opponent): f"{fmt_pct(r.win_rate)} ({fmt_pct_ci(r.ci_low, r.ci_high)})" for r in h2h.itertuples()}
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
                    [
                        r.bot,
                        fmt_num(r.elo, 0),
                        fmt_ci(r.elo_low, r.elo_high, 0),
                        fmt_num(r.rating, 3),
                        fmt_int(r.num_comparisons),
                    ]
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
                parts.append(f"{x.win_rate:.1%} ({fmt_pct_ci(x.ci_low, x.ci_high)}) against {r.bot}")
        beaten_by = []  # the ratings pool every pair: a bot can rate first and still lose to another head to head
        for r in rest.itertuples():
            rate = h2h[(h2h["bot"] == r.bot) & (h2h["opponent"] == best.bot)]
            if not rate.empty and rate.iloc[0].ci_low > 0.5:
                x = rate.iloc[0]
                beaten_by.append(f"{r.bot} finishes above it {x.win_rate:.1%} ({fmt_pct_ci(x.ci_low, x.ci_high)})")
        caveat = (
            f"; but head to head {', '.join(beaten_by)}: the strengths are not transitive, so the order depends on "
            "the field"
            if beaten_by
            else ""
        )
        separated = all(
            a.elo_low > b.elo_high
            for a, b in zip(ratings.iloc[:-1].itertuples(), ratings.iloc[1:].itertuples(), strict=True)
        )
        text = (
            f"Strength order: {' > '.join(ratings['bot'])}"
            f"{' (every adjacent pair separated by its intervals)' if separated else ' (some intervals overlap)'}. "
            f"{best.bot} rates {best.elo:.0f} Elo ({fmt_ci(best.elo_low, best.elo_high, 0)})"
            + (f" and finishes above {'; '.join(parts)}" if parts else "")
            + f"{caveat}."
        )
        section.items.append(Text(text, "verdict"))
        section.findings.append(text)
        section.answers.append(
            f"Strongest strategy: {best.bot} ({best.elo:.0f} Elo, {fmt_ci(best.elo_low, best.elo_high, 0)}); "
            f"order {' > '.join(ratings['bot'])}"
            + (f"; {best.bot} finishes above {parts[0]}" if parts else "")
            + caveat
            + " (mixed bots, player counts pooled)."
        )
        panels.append(lambda ax: plots.plot_ratings(ratings, ax=ax))
    if unit is not None:
        _score_strength(section, seats, alpha, unit)
    section.items.append(
        make_figure(
            "bot-matrix.png", "Head-to-head matrix and Bradley-Terry ratings.", panels, ncols=len(panels), size=(6, 4.5)
        )
    )
    return section, ratings


def _score_strength(section: Section, seats: pd.DataFrame, alpha: float, unit: str) -> None:
    """Lead the section (and its summary answer) with each bot's mean net score in mixed games."""
    mixed = seats[~mirror_mask(seats[["game", "bot"]])]
    if mixed["bot"].nunique() < 2:
        return
    table = score_ratings(mixed[["game", "bot", "score"]], alpha)
    best, worst = table.iloc[0], table.iloc[-1]
    order = " > ".join(table["bot"])
    text = (
        f"In the game's own currency (net {unit} a seat-game in mixed-bot games, player counts pooled): {best.bot} "
        f"{fmt_num(best['mean'], 1, True)} {unit} ({fmt_ci(best.ci_low, best.ci_high, 1, True)}), order {order}; "
        f"{worst.bot} {fmt_num(worst['mean'], 1, True)} {unit} ({fmt_ci(worst.ci_low, worst.ci_high, 1, True)})."
    )
    section.items[1:1] = [
        Text(text, "verdict"),
        Table(
            ["bot", "seat-games", f"net {unit} a seat-game", f"{fmt_level(alpha)} interval"],
            [
                [r.bot, fmt_int(r.num_seat_games), fmt_num(r.mean, 2, True), fmt_ci(r.ci_low, r.ci_high, 2, True)]
                for r in table.itertuples()
            ],
            f"Net {unit} by bot in mixed-bot games, intervals clustered by game; the head-to-head and ratings below "
            f"count who finishes above whom, which is not what a player of this game plays for.",
        ),
    ]
    section.findings.insert(0, text)
    section.answers[:] = [
        f"Strongest strategy, in net {unit} a seat-game (mixed bots, player counts pooled): {best.bot} "
        f"{fmt_num(best['mean'], 1, True)} ({fmt_ci(best.ci_low, best.ci_high, 1, True)}); order {order}; weakest "
        f"{worst.bot} {fmt_num(worst['mean'], 1, True)} ({fmt_ci(worst.ci_low, worst.ci_high, 1, True)})."
    ]
