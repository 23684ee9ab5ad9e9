"""The report's Strategies at strong play section: the apprentice's strategy styles against each other, and whether
one dominates (the runs ``golem styles`` plays)."""

from __future__ import annotations

import re

import pandas as pd

from analysis import plots
from analysis.report.format import fmt_int, fmt_pct, fmt_pct_ci
from analysis.report.model import Section, Table, Text, make_figure
from analysis.stats.convergence import more_games_text
from analysis.stats.metagame import UNRESOLVED, meta_game, pair_scores

APPRENTICE = "apprentice"
"""The learned player whose styles (``apprentice:style=NAME``) the section compares."""


def style_seats(seats: pd.DataFrame) -> pd.DataFrame:
    """The seats of the two-player games between two different styles of the apprentice (``apprentice`` or
    ``apprentice:style=NAME``, no other setting); ``game``, ``bot``, ``win``."""
    frame = seats.loc[seats["num_players"] == 2, ["game", "bot", "win"]].copy()
    frame["bot"] = frame["bot"].astype(str)
    styled = frame["bot"].eq(APPRENTICE) | frame["bot"].str.fullmatch(rf"{APPRENTICE}:style=\w+")
    whole = styled.groupby(frame["game"]).transform("all")
    return frame[whole.to_numpy()]


def _rate(row: pd.Series) -> str:
    return f"{fmt_pct(row['win_rate'])} ({fmt_pct_ci(row['ci_low'], row['ci_high'])})"


def build_styles_section(seats: pd.DataFrame, alpha: float, random_state: int = 0) -> Section | None:
    """The styles' win-rate matrix, the meta-game's equilibrium and its verdict; None unless the runs hold games of
    every pair of at least two of the apprentice's styles at 2 players (as ``golem styles`` plays them).

    Required columns: ``game`` (unique over the runs), ``num_players``, ``bot``, ``win``."""
    games = style_seats(seats)
    bots = sorted(games["bot"].unique(), key=lambda b: (b != APPRENTICE, b))
    if len(bots) < 2:
        return None
    scores = pair_scores(games)
    met = {frozenset(p) for p in zip(scores["strategy"], scores["opponent"], strict=True)}
    if len(met) < len(bots) * (len(bots) - 1) // 2:
        return None
    meta = meta_game(scores, bots, alpha=alpha, random_state=random_state)
    m = meta.matrix.set_index(["strategy", "opponent"])
    per_pair = int(meta.matrix["num_games"].min())
    section = Section("Strategies at strong play")
    section.items.append(
        Text(
            "The apprentice (the learned player) and its strategy styles, each its weights biased toward a plan "
            "(seeds/<game>/styles.toml), against each other at 2 players, seats rotated. The equilibrium is the mix "
            "of styles no style beats on average (a maximal lottery: a copied style shares its weight instead of "
            f"gaining any), with {100 * (1 - alpha):.0f}% bootstrap intervals over each pair's games."
        )
    )
    grid = [[a, *("" if a == b else _rate(m.loc[(a, b)]) for b in bots)] for a in bots]
    section.items.append(Table(["row against column", *bots], grid, "win rate of the row's style (Wilson interval)"))
    w = meta.weights
    rows = [
        [s, f"{weight:.2f} ({low:.2f}-{high:.2f})", fmt_pct(played, 0)]
        for s, weight, low, high, played in zip(
            w["strategy"], w["weight"], w["ci_low"], w["ci_high"], w["played"], strict=True
        )
    ]
    section.items.append(Table(["style", "equilibrium weight", "played in resamples"], rows, "the meta-game"))
    section.items.append(
        make_figure(
            "styles-equilibrium.png",
            "Each style's weight in the equilibrium of the styles' meta-game, with bootstrap intervals.",
            [lambda ax: plots.plot_meta_game(w, ax=ax)],
            size=(6.5, 0.5 * len(bots) + 1.5),
        )
    )
    settle = f"; {more_games_text(meta.more_games)} a pair would settle it" if meta.verdict == UNRESOLVED else ""
    reason = style_words(meta.reason)
    against = [
        f"{style_words(b)} wins {_rate(m.loc[(b, APPRENTICE)])} against the plain apprentice"
        for b in bots
        if b != APPRENTICE and (b, APPRENTICE) in m.index
    ]
    verdict = f"Is there a dominant strategy? {meta.verdict}: {reason}{settle}; {'; '.join(against)}."
    section.items.append(Text(verdict, "verdict"))
    section.answers.append(
        f"Dominant strategy at the learned player's skill ({len(bots) - 1} styles of it and the plain apprentice, "
        f"{fmt_int(per_pair)} 2-player games a pair): {meta.verdict}: {reason}{settle}; {'; '.join(against)}."
    )
    return section


def style_words(text: str) -> str:
    """``text`` with each bot spec of a style (``apprentice:style=NAME``) read as "the NAME style" and the plain
    ``apprentice`` as "the plain apprentice"."""
    text = re.sub(rf"(?<![\w:=.-]){APPRENTICE}:style=(\w+)", r"the \1 style", text)
    return re.sub(rf"(?<![\w:=.-]){APPRENTICE}(?![\w:=-])", "the plain apprentice", text)
