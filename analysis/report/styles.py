"""The report's Strategies at strong play section: the apprentice's strategy styles against each other, whether
one dominates (the runs ``golem styles`` plays), and how far a searched best response beats the apprentice (what
``golem exploit`` finds)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from analysis import plots
from analysis.report.format import fmt_int, fmt_pct, fmt_pct_ci, fmt_pp
from analysis.report.model import GamePage, Section, Table, Text, Watch, make_figure
from analysis.stats._util import interval_digits
from analysis.stats.convergence import more_games_text
from analysis.stats.metagame import META_VERDICTS, UNRESOLVED, MetaGame, meta_game, pair_scores, table_scores

APPRENTICE = "apprentice"
"""The learned player whose styles (``apprentice:style=NAME``) the section compares."""
STYLE_PREFIX = f"{APPRENTICE}:style="
"""A style's bot spec: this, then the style's name."""


def style_seats(seats: pd.DataFrame, num_players: int = 2) -> pd.DataFrame:
    """The seats of the ``num_players``-player games whose every seat holds a style of the apprentice (``apprentice``
    or ``apprentice:style=NAME``, no other setting) and that seat at least two different ones; ``game``, ``bot``,
    ``win`` and ``rank``."""
    columns = ["game", "bot", "win", "rank"] if "rank" in seats.columns else ["game", "bot", "win"]
    frame = seats.loc[seats["num_players"] == num_players, columns].copy()
    frame["bot"] = frame["bot"].astype(str)
    styled = frame["bot"].eq(APPRENTICE) | frame["bot"].str.fullmatch(rf"{APPRENTICE}:style=\w+")
    whole = styled.groupby(frame["game"]).transform("all") & frame.groupby("game")["bot"].transform("nunique").gt(1)
    return frame[whole.to_numpy()]


def _style_bots(games: pd.DataFrame) -> list[str]:
    return sorted(games["bot"].unique(), key=lambda b: (b != APPRENTICE, b))


@dataclass(frozen=True)
class BestResponse:
    """A best response to the apprentice that an exploit search found (``simulate.orchestration.exploit``), measured
    on ``games`` fresh games in one seat against the apprentice in the others (seats rotated)."""

    num_players: int
    win_share: float
    ci_low: float
    ci_high: float
    """Its win share and the Wilson interval."""
    games: int
    candidates: int
    """Candidates the search played, ``candidate_games`` games each."""
    candidate_games: int
    profile: pd.DataFrame
    """``analysis.stats.profile.play_profile`` of the measuring games: ``bot`` (``carrier`` and ``apprentice``),
    ``mechanism``, ``mean``."""
    carrier: str
    """The bot spec the best response played as."""
    offsets: tuple[tuple[str, float], ...] = ()
    """(feature, offset) on the apprentice's weights."""
    page: GamePage | None = None
    """A measuring game it won, to watch."""

    @property
    def exploitability(self) -> float:
        """Its win share minus the fair share."""
        return self.win_share - 1 / self.num_players


def profile_difference(profile: pd.DataFrame, bot: str, base: str = APPRENTICE, count: int = 3) -> str:
    """In words, the ``count`` mechanisms of ``profile`` (``play_profile``'s ``bot``, ``mechanism``, ``mean``) whose
    use per game by ``bot`` differs most (relatively) from ``base``'s: "more merchants bought (5.1 a game against
    4.2, +21%)", with more decimals where the two would print alike; "" when no mechanism differs."""
    mean = profile.pivot(index="bot", columns="mechanism", values="mean")
    own, other = mean.loc[bot], mean.loc[base]
    change = (own - other) / other.where(other > 0)
    top = change[change != 0].abs().dropna().sort_values(ascending=False).index[:count]
    out = []
    for c in top:
        d = interval_digits(own[c], other[c])
        word = "more" if change[c] > 0 else "fewer"
        out.append(f"{word} {c.replace('_', ' ')} ({own[c]:.{d}f} a game against {other[c]:.{d}f}, {change[c]:+.0%})")
    return "; ".join(out)


def best_response_items(best: BestResponse) -> tuple[list[Text | Watch], str]:
    """The paragraphs of a best response (its exploitability with interval and games, what it does differently, the
    game to watch) and the clause its player count's line on the first screen adds."""
    n = best.num_players
    gain = best.exploitability
    low, high = best.ci_low - 1 / n, best.ci_high - 1 / n
    if best.offsets:
        differs = profile_difference(best.profile, best.carrier, APPRENTICE) or "nothing its play profile counts"
    else:  # the apprentice itself: any difference in its profile is luck of the games
        differs = "nothing: the hunt found no candidate better than the plain apprentice itself"
    offsets = ", ".join(f"{f} {v:+.3g}" for f, v in best.offsets) or "none (the plain apprentice itself was best)"
    clear = "clear of the fair share" if low > 0 else "not clear of the fair share"
    items: list[Text | Watch] = [
        Text(
            f"A searched best response: offsets on the apprentice's weights ({best.candidates} candidates of "
            f"{fmt_int(best.candidate_games)} games each, differential evolution, golem exploit), the best measured on "
            f"{fmt_int(best.games)} fresh {n}-player games in one seat against the plain apprentice in the "
            f"other{'s' if n > 2 else ''}, seats rotated. Its offsets: {offsets}."
        ),
        Text(
            f"Exploitability of the apprentice at {n} players: {fmt_pp(gain)} pp (its win share "
            f"{fmt_pct(best.win_share)}, {fmt_pct_ci(best.ci_low, best.ci_high)} Wilson, against the fair share "
            f"{fmt_pct(1 / n)}: "
            f"{fmt_pp(low)} to {fmt_pp(high)} pp, {clear}; {fmt_int(best.games)} games). What the best response does "
            f"differently, per game against the apprentice's: {differs}.",
            "verdict",
        ),
    ]
    if best.page is not None:
        items.append(Watch(best.page))
    if high < 0:  # the best candidate of a short search loses on fresh games: no exploit found, not a negative one
        items[1] = Text(
            f"Exploitability of the apprentice at {n} players: none found. The hunt's best candidate won "
            f"{fmt_pct(best.win_share)} ({fmt_pct_ci(best.ci_low, best.ci_high)} Wilson) of {fmt_int(best.games)} "
            f"fresh games against the fair share {fmt_pct(1 / n)}: below it, so the short hunt bounds nothing "
            "above zero (a longer golem exploit may find more).",
            "verdict",
        )
        clause = (
            f"a short hunt for a best response found none that beats it (its best candidate won "
            f"{fmt_pct(best.win_share)}, "
            f"{fmt_pct_ci(best.ci_low, best.ci_high)}, of {fmt_int(best.games)} fresh games)"
        )
        return items, clause
    against = "the plain apprentice" if n == 2 else f"{n - 1} plain apprentices (fair share {fmt_pct(1 / n)})"
    clause = (
        f"a searched best response wins {fmt_pct(best.win_share)} ({fmt_pct_ci(best.ci_low, best.ci_high)}) "
        f"against {against}: exploitability {fmt_pp(gain)} pp ({fmt_pp(low)} to {fmt_pp(high)}, "
        f"{fmt_int(best.games)} games)"
    )
    return items, clause


def _rate(row: pd.Series) -> str:
    return f"{fmt_pct(row['win_rate'])} ({fmt_pct_ci(row['ci_low'], row['ci_high'])})"


def _meta_at(
    seats: pd.DataFrame, num_players: int, alpha: float, random_state: int
) -> tuple[list[str], MetaGame] | None:
    """The styles and their meta-game at ``num_players``: pairs of seats at 2 players, pairwise comparisons at a table
    at more (``metagame.table_scores``); None unless at least two styles met and every pair of them met."""
    games = style_seats(seats, num_players)
    bots = _style_bots(games)
    if len(bots) < 2 or (num_players > 2 and "rank" not in games.columns):
        return None
    scores = pair_scores(games) if num_players == 2 else table_scores(games)
    met = {frozenset(p) for p in zip(scores["strategy"], scores["opponent"], strict=True)}
    if len(met) < len(bots) * (len(bots) - 1) // 2:
        return None
    return bots, meta_game(scores, bots, alpha=alpha, random_state=random_state)


def _grid(bots: list[str], m: pd.DataFrame) -> list[list[str]]:
    return [[a, *("" if a == b else _rate(m.loc[(a, b)]) for b in bots)] for a in bots]


def _verdict(meta: MetaGame, bots: list[str], num_players: int) -> str:
    """The meta-game's verdict, its reason, the games that would settle it, and each style against the plain
    apprentice (its win rate at 2 players; at more, its share of finishing ahead of a plain apprentice's seat)."""
    m = meta.matrix.set_index(["strategy", "opponent"])
    settle = f"; {more_games_text(meta.more_games)} a pair would settle it" if meta.verdict == UNRESOLVED else ""
    beats = "wins" if num_players == 2 else "finishes ahead in"
    against = [
        f"{style_words(b)} {beats} {_rate(m.loc[(b, APPRENTICE)])} against the plain apprentice"
        for b in bots
        if b != APPRENTICE and (b, APPRENTICE) in m.index
    ]
    return f"{meta.verdict}: {style_words(meta.reason)}{settle}; {'; '.join(against)}"


def build_styles_section(
    seats: pd.DataFrame, alpha: float, random_state: int = 0, best: Sequence[BestResponse] = ()
) -> Section | None:
    """The styles' win-rate matrix, the meta-game's equilibrium and its verdict at 2 players, then the same at each
    larger table the runs hold (pairwise comparisons of finishing places), then the ``best`` responses an exploit
    search found (one a player count, in player order); None unless the runs hold games of every pair of at least
    two of the apprentice's styles at 2 players (as ``golem styles`` plays them).

    Required columns: ``game`` (unique over the runs), ``num_players``, ``bot``, ``win``; ``rank`` for tables of more
    than 2 players (without it they are left out)."""
    two = _meta_at(seats, 2, alpha, random_state)
    if two is None:
        return None
    bots, meta = two
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
    section.items.append(
        Table(["row against column", *bots], _grid(bots, m), "win rate of the row's style (Wilson interval)")
    )
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
    verdict = _verdict(meta, bots, 2)
    section.items.append(Text(f"Is there a dominant strategy? {verdict}.", "verdict"))
    lines = {2: f"2 players ({fmt_int(per_pair)} games a pair): {verdict}"}
    for n in sorted(c for c in seats["num_players"].unique() if c > 2):
        found = _meta_at(seats, int(n), alpha, random_state)
        if found is None:
            continue
        table_bots, table_meta = found
        tm = table_meta.matrix.set_index(["strategy", "opponent"])
        weights = ", ".join(
            f"{style_words(s)} {weight:.2f} ({low:.2f}-{high:.2f})"
            for s, weight, low, high in zip(
                *(table_meta.weights[c] for c in ("strategy", "weight", "ci_low", "ci_high")), strict=True
            )
        )
        tables = int(table_meta.matrix["num_games"].min())
        section.items.append(
            Table(
                ["row against column", *table_bots],
                _grid(table_bots, tm),
                f"{n} players: the share of the row's seats finishing ahead of the column's at the same table "
                f"(Wilson interval; tables mixing the styles, seats rotated, at least {fmt_int(tables)} games a pair)",
            )
        )
        at_n = _verdict(table_meta, table_bots, int(n))
        section.items.append(Text(f"At {n} players: {at_n}. Equilibrium weights: {weights}.", "verdict"))
        lines[int(n)] = f"{n} players ({fmt_int(tables)} games a pair): {at_n}"
    for response in sorted(best, key=lambda b: b.num_players):
        items, clause = best_response_items(response)
        section.items += items
        n = response.num_players
        lines[n] = f"{lines[n]}; {clause}" if n in lines else f"{n} players: {clause}"
    section.answers.append(
        "\n".join(
            [
                f"Is there a dominant strategy at the learned player's skill? ({' / '.join(META_VERDICTS)}; "
                f"{len(bots) - 1} styles of it and the plain apprentice, seats rotated"
                f"{', and a searched best response' if best else ''})",
                *(lines[n] + "." for n in sorted(lines)),
            ]
        )
    )
    return section


def style_words(text: str) -> str:
    """``text`` with each bot spec of a style (``apprentice:style=NAME``) read as "the NAME style" and the plain
    ``apprentice`` as "the plain apprentice"."""
    text = re.sub(rf"(?<![\w:=.-]){APPRENTICE}:style=(\w+)", r"the \1 style", text)
    return re.sub(rf"(?<![\w:=.-]){APPRENTICE}(?![\w:=-])", "the plain apprentice", text)
