"""Report sections on seats: win rates, first-player advantage in mirror matches, solo games, mixed lineups."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis import plots
from analysis.report.format import (
    anchor_slug,
    fmt_ci,
    fmt_int,
    fmt_level,
    fmt_num,
    fmt_p,
    fmt_pct,
    fmt_pct_ci,
    fmt_players,
    fmt_pp,
    is_number,
)
from analysis.report.model import Figure, Section, Table, Text, make_figure
from analysis.stats._util import t_confint
from analysis.stats.convergence import more_games_text
from analysis.stats.ladder import PRECISION
from analysis.stats.seats import SeatAdvantage, seat_advantage, win_rates

SOLO_OPPONENT_SCORE = "automa_score"  # games column of a game with a solo opponent: its final score


def build_win_rate_section(seats: pd.DataFrame, labels: dict[str, str], alpha: float) -> Section:
    table = win_rates(seats, by=["run_id", "seat"], alpha=alpha)
    rows = [[labels[str(r.run_id)], *row] for r, row in zip(table.itertuples(), _rate_rows(table), strict=True)]
    return Section(
        "Win rates by seat",
        [
            Text(
                "Every run's win rate by seat with Wilson intervals; a shared tie counts 1/k for each of the k "
                "tied seats. Seat = place in turn order (seat 1 moves first), in every section. A solo game has "
                "no fair share: its seat plays the game's automated opponent (see the solo section). Runs that "
                "replay setups count every replay as a game, so their intervals are too narrow when the replays "
                "are alike."
            ),
            Table(["run", *_RATE_COLUMNS[:4], f"{fmt_level(alpha)} interval", *_RATE_COLUMNS[5:]], rows),
        ],
    )


_RATE_COLUMNS = ["players", "seat", "games", "win rate", "interval", "fair", "excess (pp)"]


def _rate_rows(table: pd.DataFrame) -> list[list[str]]:
    """Players, seat, games, win rate with its interval, fair share and excess of each row of a win-rate table."""
    return [
        [
            str(r.num_players),
            str(r.seat),
            fmt_int(r.num_games),
            fmt_pct(r.win_rate, 2),
            fmt_pct_ci(r.ci_low, r.ci_high, 2),
            fmt_pct(r.fair, 2) if is_number(r.fair) else "— (solo)",
            fmt_pp(r.excess, 2) if is_number(r.fair) else "—",
        ]
        for r in table.itertuples()
    ]


def _advantage_rows(table: pd.DataFrame) -> list[list[str]]:
    return [
        [*rate, fmt_num(r.margin, 2, True), fmt_ci(r.margin_low, r.margin_high, 2, True)]
        for r, rate in zip(table.itertuples(), _rate_rows(table), strict=True)
    ]


def _test_rows(tests: pd.DataFrame, alpha: float) -> list[list[str]]:
    return [
        [
            str(t.num_players),
            fmt_int(t.num_games),
            fmt_num(t.chi2, 1),
            str(t.df),
            fmt_p(t.pvalue),
            "seats differ" if t.significant else "no difference detected",
        ]
        for t in tests.itertuples()
    ]


def _adv_columns(unit: str) -> list[str]:
    return [*_RATE_COLUMNS, f"margin ({unit})", "margin interval"]


_TEST_COLUMNS = ["players", "games", "Wald chi-square", "df", "p", "verdict"]

_TEST_CAPTION = "Wald test of equal win shares (1/n each)."


def _seat_advantage_by_count(
    seats: pd.DataFrame, lineup: str, alpha: float, rng: np.random.Generator, unit: str
) -> tuple[SeatAdvantage, list[tuple[int, str]]]:
    """``seat_advantage`` per player count: the combined tables, and each count's verdict apart."""
    results = []
    for n in sorted(seats["num_players"].unique()):
        part = seats[(seats["num_players"] == n).to_numpy()]
        results.append((int(n), seat_advantage(part, lineup=lineup, alpha=alpha, random_state=rng, unit=unit)))
    table = pd.concat([r.table for _, r in results], ignore_index=True)
    tests = pd.concat([r.tests for _, r in results], ignore_index=True)
    verdicts = [(n, r.verdict) for n, r in results]
    return SeatAdvantage(table, tests, " ".join(v for _, v in verdicts)), verdicts


def seat_headline(
    results: dict[str, SeatAdvantage], strongest: dict[int, str]
) -> tuple[pd.DataFrame, pd.DataFrame, dict[int, str]]:
    """Per player count, the mirror lineup that answers "is the game fair to every seat": the strongest rung of
    the skill ladder played (``strongest``; pass {} for none), else the lineup with the most games. Returns its
    seat rows, its tests and the lineup chosen for each player count."""
    games: dict[int, dict[str, int]] = {}
    for label, adv in results.items():
        for n, num in zip(adv.tests["num_players"], adv.tests["num_games"], strict=True):
            games.setdefault(int(n), {})[label] = int(num)
    chosen = {
        n: strongest[n] if strongest.get(n) in by_label else max(by_label, key=by_label.get)
        for n, by_label in sorted(games.items())
    }
    tables = [results[label].table[results[label].table["num_players"] == n] for n, label in chosen.items()]
    tests = [results[label].tests[results[label].tests["num_players"] == n] for n, label in chosen.items()]
    return pd.concat(tables, ignore_index=True), pd.concat(tests, ignore_index=True), chosen


def fairness_answer(
    table: pd.DataFrame, tests: pd.DataFrame, lineup: str, question: str = "Fair to every seat?"
) -> str:
    """The answer to "is it fair to every seat, at every player count?" in plain words: the counts where no seat differs
    detectably, then each count where one does, with the seat furthest from its share."""
    fair, unfair, unseen, more = [], [], 0.0, 0.0
    for t in tests.sort_values("num_players").itertuples():
        part = table[(table["num_players"] == t.num_players).to_numpy()]
        if not t.significant:
            fair.append(t)
            reach = np.maximum(part["fair"] - part["ci_low"], part["ci_high"] - part["fair"])
            unseen = max(unseen, float(reach.max()))
            half = float(np.maximum(part["win_rate"] - part["ci_low"], part["ci_high"] - part["win_rate"]).max())
            if half > PRECISION + 1e-9:  # never "no difference" from a small run: say what would settle it
                more = max(more, float(np.ceil(t.num_games * ((half / PRECISION) ** 2 - 1))))
            continue
        far = part.loc[part["excess"].abs().idxmax()]
        who = "the first player" if int(far.seat) == 1 else f"seat {int(far.seat)}"
        unfair.append(
            f"no at {fmt_players(t.num_players)}: {who} wins {fmt_pct(far.win_rate)} "
            f"({fmt_pct_ci(far.ci_low, far.ci_high)}) "
            f"where a fair share is {fmt_pct(far.fair)}"
        )
    parts = []
    if fair:
        counts = [str(int(t.num_players)) for t in fair]
        where = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " and " + counts[-1]
        games = {int(t.num_games) for t in fair}
        each = f" in {fmt_int(games.pop())} games{' each' if len(fair) > 1 else ''}" if len(games) == 1 else ""
        text = (
            f"no seat's win rate differs detectably from its share at {where} players{each} "
            f"(the intervals still allow differences up to {unseen * 100:.1f} pp"
        )
        if more > 0:
            text += (
                f": unresolved, about {more_games_text(more)} would bring every interval within ±{100 * PRECISION:g} pp"
            )
        parts.append(text + ")")
    parts += unfair
    text = "; ".join(parts)
    return f"{question} {text[0].upper()}{text[1:]}. Measured in {lineup}."


def seat_overview(table: pd.DataFrame, lineup: str) -> Figure:
    """The report's overview figure: each seat's excess win rate with its interval, by player count."""
    return make_figure(
        "overview-seats.png",
        f"Each seat's win rate minus its fair share 1/n, with Wilson intervals, by player count ({lineup}). "
        "On the dashed line a seat wins exactly its share.",
        [lambda ax: plots.plot_seat_excess(table, ax=ax)],
        size=(6.5, 3.8),
    )


def lineup_words(chosen: dict[int, str], strongest: dict[int, str]) -> str:
    """Which mirror matches a headline uses, in words."""
    labels = list(dict.fromkeys(chosen.values()))
    top = all(strongest.get(n) == label for n, label in chosen.items())
    if len(labels) == 1:
        return f"{labels[0]} mirror matches" + (", the strongest rung of the skill ladder played" if top else "")
    at = {label: [n for n, b in chosen.items() if b == label] for label in labels}
    each = ", ".join(f"{label} at {'/'.join(map(str, ns))} players" for label, ns in at.items())
    return ("the strongest rung of the skill ladder played: " if top else "") + f"mirror matches of {each}"


def build_mirror_section(
    seats: pd.DataFrame,
    mirror: np.ndarray,
    alpha: float,
    rng: np.random.Generator,
    unit: str,
    strongest: dict[int, str] | None = None,
):
    """Seat advantage in each mirror lineup; with a skill ladder (``strongest``: per player count the strongest
    rung played) the findings and the summary's answer come from its strongest rung and say so."""
    if not mirror.any():
        return None, {}
    strongest = strongest or {}
    sub = seats.loc[mirror, ["game", "num_players", "seat", "bot", "score", "win"]]
    counts = sub["bot"].value_counts()
    labels = [str(label) for label in counts[counts > 0].index]
    section = Section("First-player advantage in mirror matches")
    section.items.append(
        Text(
            "In a mirror match every seat holds the same bot, so any difference between seats is the game's. "
            "Wins per seat are tested against the fair share 1/n with a Wald test on the per-game win shares "
            "and their sample covariance (Hotelling's T^2, n - 1 df; a shared tie is a small deviation, not a "
            "whole win). The score margin is a seat's score minus the mean score of the other seats, with a "
            "percentile bootstrap interval over games."
        )
    )
    results = {}
    for label in labels:
        part = sub[(sub["bot"] == label).to_numpy()]
        adv, verdicts = _seat_advantage_by_count(part, "mirror", alpha, rng, unit)
        results[label] = adv
        for n, verdict in verdicts:
            section.items.append(Text(f"{fmt_players(n)}, {label} mirror matches: {verdict}", "verdict"))
            if n not in strongest:
                section.findings.append(f"First player, {fmt_players(n)} ({label} mirror matches): {verdict}")
            elif strongest[n] == label:
                section.findings.append(
                    f"First player, {fmt_players(n)} ({label} mirror matches, the strongest rung of the skill ladder "
                    f"played): {verdict}"
                )
        section.items.append(Table(_adv_columns(unit), _advantage_rows(adv.table), f"Seats in {label} mirror matches."))
        section.items.append(Table(_TEST_COLUMNS, _test_rows(adv.tests, alpha), _TEST_CAPTION))
        section.items.append(
            make_figure(
                f"seat-win-rates-mirror-{anchor_slug(label)}.png",
                f"Seat win rates in {label} mirror matches against the fair line 1/n.",
                [
                    lambda ax, t=adv.table, lab=label: plots.plot_seat_win_rates(
                        t, ax=ax, title=f"Win rate by seat, {lab} mirror matches"
                    )
                ],
                size=(7, 4),
            )
        )
    if results:
        table, tests, chosen = seat_headline(results, strongest)
        answer = fairness_answer(table, tests, lineup_words(chosen, strongest))
        most_table, most_tests, most = seat_headline(results, {})
        if most != chosen:  # the strongest rung's runs are often small: say what the largest runs show too
            question = "With the most games per player count:"
            answer += " " + fairness_answer(most_table, most_tests, lineup_words(most, strongest), question)
        section.answers.append(answer)
    return section, results


def build_solo_section(seats: pd.DataFrame, games: pd.DataFrame, alpha: float) -> Section | None:
    """Solo games: each bot's win rate against the game's automated opponent, and the score margin when the
    games table has the opponent's score (``automa_score``)."""
    if seats.empty:
        return None
    margins = None
    if SOLO_OPPONENT_SCORE in games.columns:
        opponent = games.set_index("game")[SOLO_OPPONENT_SCORE]
        margin = seats["score"].to_numpy(float) - opponent.reindex(seats["game"]).to_numpy(float)
        margins = pd.DataFrame({"bot": seats["bot"].to_numpy(), "margin": margin}).groupby("bot", observed=True)
        margins = margins["margin"].agg(["mean", "median", "std", "size"])
        se = margins["std"] / np.sqrt(margins["size"])
        margins["low"], margins["high"] = t_confint(margins["mean"], se, margins["size"] - 1, alpha)
    section = Section("Solo mode against the automated opponent")
    section.items.append(
        Text(
            "In a solo game one seat plays against the game's automated opponent, so there is no seat to compare "
            "with: the question is how often each bot beats the automaton (a shared tie counts half)."
        )
    )
    rates = win_rates(seats, by="bot", alpha=alpha)
    scores = seats.groupby("bot", observed=True)["score"].quantile([0.1, 0.5, 0.9]).unstack()
    rows = []
    for r in rates.itertuples():
        rows.append(
            [
                str(r.bot),
                fmt_int(r.num_games),
                fmt_pct(r.win_rate, 2),
                fmt_pct_ci(r.ci_low, r.ci_high, 2),
                f"{fmt_num(scores.at[r.bot, 0.5], 0)} "
                f"({fmt_num(scores.at[r.bot, 0.1], 0)}–{fmt_num(scores.at[r.bot, 0.9], 0)})",
            ]
        )
        verdict = (
            f"{r.bot} beats the automaton in {fmt_pct(r.win_rate)} ({fmt_pct_ci(r.ci_low, r.ci_high)}) of "
            f"{fmt_int(r.num_games)} solo games"
        )
        if margins is not None:
            m = margins.loc[r.bot]
            rows[-1] += [
                fmt_num(m["mean"], 2, sign=True),
                fmt_ci(m["low"], m["high"], 2, sign=True),
                fmt_num(m["median"], 1, sign=True),
            ]
            verdict += (
                f", by a mean margin of {fmt_num(m['mean'], 1, sign=True)} points "
                f"(median {fmt_num(m['median'], 1, sign=True)})"
            )
        section.items.append(Text(verdict, "verdict"))
        section.findings.append(f"Solo: {verdict}.")
        section.answers.append(f"Solo: {verdict}.")
    header = ["bot", "games", "win rate", f"{fmt_level(alpha)} interval", "score: median (10%–90%)"]
    if margins is not None:
        header += ["mean margin", f"{fmt_level(alpha)} interval", "median margin"]
    caption = "Solo games." + (" Margin: the bot's score minus the automaton's." if margins is not None else "")
    section.items.append(Table(header, rows, caption))
    section.items.append(
        make_figure(
            "solo-scores.png",
            "Final scores of solo games, one line per bot: the share of games ending on each score.",
            [lambda ax: plots.plot_score_distributions(seats, ax=ax, by="bot", title="Solo scores")],
            size=(6.5, 3.8),
        )
    )
    return section


def build_mixed_section(seats: pd.DataFrame, mirror: np.ndarray, alpha: float, rng: np.random.Generator, unit: str):
    if mirror.all():
        return None, None
    sub = seats.loc[~mirror, ["game", "num_players", "seat", "bot", "score", "win"]]
    section = Section("Mixed bots with rotated seats")
    section.items.append(
        Text(
            "Games whose seats hold different bots. With the lineup rotated through the seats every bot sits "
            "in every seat equally often, so seat effects and bot strength separate; a bot's win rate counts "
            "its seat-games."
        )
    )
    by_bot = win_rates(sub, by="bot", alpha=alpha)
    section.items.append(
        Table(
            ["players", "bot", "seat-games", "win rate", f"{fmt_level(alpha)} interval", "fair", "excess (pp)"],
            [
                [
                    str(r.num_players),
                    str(r.bot),
                    fmt_int(r.num_games),
                    fmt_pct(r.win_rate, 2),
                    fmt_pct_ci(r.ci_low, r.ci_high, 2),
                    fmt_pct(r.fair, 2),
                    fmt_pp(r.excess, 2),
                ]
                for r in by_bot.itertuples()
            ],
            "Win rate by bot.",
        )
    )
    by_both = win_rates(sub, by=["bot", "seat"], alpha=alpha)
    section.items.append(
        Table(
            ["players", "bot", "seat", "games", "win rate", f"{fmt_level(alpha)} interval"],
            [
                [
                    str(r.num_players),
                    str(r.bot),
                    str(r.seat),
                    fmt_int(r.num_games),
                    fmt_pct(r.win_rate, 2),
                    fmt_pct_ci(r.ci_low, r.ci_high, 2),
                ]
                for r in by_both.itertuples()
            ],
            "Win rate by bot and seat.",
        )
    )
    adv, verdicts = _seat_advantage_by_count(sub, "all", alpha, rng, unit)
    for n, verdict in verdicts:
        section.items.append(Text(f"{fmt_players(n)}, mixed bots: {verdict}", "verdict"))
        section.findings.append(f"Seats with mixed bots, {fmt_players(n)}: {verdict}")
    section.answers.append(fairness_answer(adv.table, adv.tests, "mixed bots rotated through the seats"))
    section.items.append(Table(_adv_columns(unit), _advantage_rows(adv.table), "Seats in mixed-bot games."))
    section.items.append(Table(_TEST_COLUMNS, _test_rows(adv.tests, alpha), _TEST_CAPTION))
    section.items.append(
        make_figure(
            "seat-win-rates-mixed.png",
            "Seat win rates in mixed-bot games against the fair line 1/n.",
            [lambda ax: plots.plot_seat_win_rates(adv.table, ax=ax, title="Win rate by seat, mixed bots")],
            size=(7, 4),
        )
    )
    return section, adv
