"""The report's Play profile and Skill ladder sections: how the bots play, and the seat answer up the ladder."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from analysis import plots
from analysis.report.format import fmt_ci, fmt_int, fmt_num, fmt_pct, fmt_pct_ci, fmt_players, fmt_pp
from analysis.report.model import Figure, Section, Table, Text, make_figure
from analysis.stats._util import and_list
from analysis.stats.convergence import MAX_PLANNABLE_GAMES, more_games_text
from analysis.stats.ladder import (
    CHANGES,
    HOLDS,
    PRECISION,
    TOPUP_CHEAP,
    TOPUP_SEARCH,
    UNRESOLVED,
    VERDICT_CLASSES,
    ladder_answers,
    ladder_seats,
    ladder_verdicts,
    pair_games,
    skill_ladder,
)
from analysis.stats.profile import RARE_SHARE, play_profile, profile_warnings
from simulate.manifest import RunManifest


def profiled_columns(manifests: Sequence[RunManifest]) -> list[str]:
    """The play-profile columns every run records (none for runs of run format 1)."""
    lists = [list(m.columns.profile) for m in manifests]
    return [c for c in lists[0] if all(c in other for other in lists[1:])]


def build_profile_section(seats: pd.DataFrame, columns: list[str], forced: Sequence[str] = ()) -> Section | None:
    """How often each bot uses each mechanism, with a warning for those it never or almost never uses."""
    if not columns:
        return None
    profile = play_profile(seats, columns)
    section = Section("Play profile")
    section.items.append(
        Text(
            "How often each bot uses each of the game's mechanisms: the mean count per game, and in brackets the "
            f"share of its games in which it used the mechanism at least once. A mechanism a bot uses in under "
            f"{RARE_SHARE:.0%} of its games is flagged: the balance answers then describe the game without it"
            + (f" ({', '.join(forced)}: done only when forced, never flagged)." if forced else ".")
        )
    )
    bots = list(dict.fromkeys(profile["bot"]))
    rows = []
    for bot in bots:
        part = profile[profile["bot"] == bot]
        cells = [f"{fmt_num(v, 2)} ({fmt_pct(u, 0)})" for v, u in zip(part["mean"], part["share_used"], strict=True)]
        rows.append([str(bot), fmt_int(part["seat_games"].iloc[0]), *cells])
    header = ["bot", "seat-games", *columns]
    caption = "mean per game (share of games using it at least once)"
    if len(columns) > len(bots):  # more mechanisms than bots: one row per mechanism keeps the table narrow
        header, rows = (
            ["mechanism", *[str(b) for b in bots]],
            [list(r) for r in zip(header[1:], *[r[1:] for r in rows], strict=True)],
        )
        caption = "Per bot: " + caption
    section.items.append(Table(header, rows, caption))
    warnings = profile_warnings(profile, forced=forced)
    section.items.extend(Text(w, "warn") for w in warnings)
    section.findings.extend(warnings)
    if not warnings:
        section.items.append(Text("Every bot uses every mechanism in at least 1% of its games.", "verdict"))
    return section


def strongest_rungs(seats: pd.DataFrame, mirror: np.ndarray, rungs: Sequence[str]) -> dict[int, str]:
    """Per player count, the strongest rung of the game's skill ladder played in mirror matches (``rungs``
    weakest to strongest, in the order of measured strength where there is one)."""
    position = {bot: k for k, bot in enumerate(rungs)}
    played = seats.loc[mirror, ["num_players", "bot"]].drop_duplicates()
    out: dict[int, str] = {}
    for n, bot in zip(played["num_players"], played["bot"].astype(str), strict=True):
        if bot in position and (int(n) not in out or position[bot] > position[out[int(n)]]):
            out[int(n)] = bot
    return out


def _order_words(order: pd.DataFrame) -> str:
    """How the rungs were ordered, said plainly."""
    measured = order[order["basis"] == "measured"]
    chain = " < ".join(order["bot"])
    if measured.empty:
        return f"players in the order the game declares ({chain}); no games between them measure it"
    unrated = order.loc[order["basis"] != "measured", "bot"].tolist()
    rest = f"; not rated, so kept where the game declares: {', '.join(unrated)}" if unrated else ""
    moved = " (not the order the game declares)" if (measured["order"] != measured["declared"]).any() else ""
    return f"players ordered by their ratings in games against each other{moved}: {' < '.join(measured['bot'])}{rest}"


def _amount(x: float, unit: str | None) -> str:
    """A seat's excess: percentage points of win share (``unit`` None), else a signed amount of the score unit."""
    return f"{fmt_pp(x, 1)} pp" if unit is None else f"{fmt_num(x, 1, True)} {unit}"


def _answer_line(a, unit: str | None = None, short: bool = False) -> str:
    """One short line per player count: the strong-play answer and its class (``unit``: see :func:`_amount`).

    ``short``: the rungs of strong play are named once elsewhere (the summary's "Strong play" line), so an answer
    pooled over all of them says "at strong play" rather than naming them again."""
    scale = 100.0 if unit is None else 1.0
    who = "the first player" if a.seat == 1 else f"seat {a.seat}"
    share = "" if unit is None else " against the other seats"
    pooled_all = a.strongest == a.strong and not a.reason.startswith("only")
    under = "at strong play" if short and pooled_all else f"under {a.strongest}"
    fact = (
        f"{who} {_amount(a.excess, unit)}{share} ({fmt_ci(scale * a.excess_low, scale * a.excess_high, 1, True)}) "
        f"{under}"
    )
    top = a.strongest.split(" and ")[0]
    head = f"{fmt_players(a.num_players)}: {a.verdict}"
    shown = scale * a.half_width
    if round(shown, 1) <= a.precision * scale < shown:  # just past the target: rounded up, never shown as reached
        shown = math.ceil(shown * 10) / 10
    reach = f"±{shown:.1f} {'pp' if unit is None else unit}"
    if a.verdict == UNRESOLVED:
        if a.reason.startswith("only"):
            return f"{head} ({a.reason}): {fact}."
        if a.split:
            return f"{head}: {_split_words(a, unit)}."
        if "disagree" in a.reason:
            return f"{head} ({top} and the next rung disagree): {fact}."
        if a.detected:
            side = "ahead" if a.excess > 0 else "behind"
            ci = fmt_ci(scale * a.excess_low, scale * a.excess_high, 1, True)
            line = f"{head} (intervals {reach}): {who} is {side}, {_amount(a.excess, unit)}{share} ({ci}) {under}"
            line += ", but by how much is not settled"
        else:
            line = f"{head} (intervals {reach} {under})"
        if a.more_games > 0:
            line += f"; about {more_games_text(a.more_games)} of {top} would settle it"
        return line + "."
    if not a.detected:
        fact = f"every seat within {reach} of {'its share' if unit is None else 'the others'} {under}"
    line = f"{head}: {fact}"
    if len(a.top_alone):
        bot, excess, low, high = a.top_alone
        others = " and ".join(a.strongest.split(" and ")[1:])
        line += (
            f" (mostly from {others}'s games; {bot} alone: {_amount(excess, unit)} "
            f"({fmt_ci(scale * low, scale * high, 1, True)}))"
        )
    if a.verdict == CHANGES:
        line += f"; differs at {', '.join(a.changed_at)}"
    return line + "."


def _split_words(a, unit: str | None) -> str:
    """Strong rungs whose seat-1 figures disagree, each with its figure, and what would settle which is stronger."""
    if unit is None:
        figures = [f"{bot} {fmt_pct(rate)} ({fmt_pct_ci(low, high)})" for bot, rate, low, high in a.split]
        what = "the first player wins"
    else:
        figures = [f"{bot} {fmt_num(m, 1, True)} ({fmt_ci(low, high, 1, True)})" for bot, m, low, high in a.split]
        what = f"the first player nets ({unit} against the other seats)"
    names = [bot for bot, *_ in a.split]
    settle = (
        f"about {fmt_int(a.more_games)} more games between {names[0]} and {names[1]} would tell which is stronger"
        if np.isfinite(a.more_games) and a.more_games <= MAX_PLANNABLE_GAMES
        else "their strengths cannot be told apart at this size"
    )
    return (
        f"the strongest players disagree, and neither is measurably the stronger: {what} {'; '.join(figures)}; {settle}"
    )


def ladder_answer_lines(
    seats: pd.DataFrame,
    mirror: np.ndarray,
    order: pd.DataFrame,
    alpha: float,
    outcome: str = "win",
    precision: float | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every seat at every rung (:func:`ladder_seats`) and the answer per player count (:func:`ladder_answers`),
    in the game's outcome measure (``"win"`` share, or ``"score"`` margin within ``precision`` score units); strong
    play is read from ``order``'s ratings, and the games the mixed games put each two bots in together say how many
    more would separate two strong rungs."""
    columns = ["game", "num_players", "seat", "bot", "win", "score"]
    ladder = ladder_seats(seats.loc[mirror, columns], order, alpha, outcome=outcome)
    together = pair_games(seats.loc[~mirror, ["game", "bot"]])
    limit = float(precision or 1.0) if outcome == "score" else PRECISION
    return ladder, ladder_answers(ladder, alpha, precision=limit, order=order, games_between=together)


def fair_at_strong_play(answers: pd.DataFrame, order: pd.DataFrame, unit: str | None = None) -> str:
    """The summary's seat answer: what strong play is and how the rungs were ordered, then one short line per player
    count, its class first."""
    lines = [_answer_line(a, unit, short=True) for a in answers.itertuples()]
    measure = "" if unit is None else f", in net {unit} against the other seats"
    head = f"Fair to every seat at strong play{measure}? ({' / '.join(VERDICT_CLASSES)}; seat = place in turn order)"
    counts: dict[str, list[str]] = {}
    for n, bots in zip(answers["num_players"], answers["strong"], strict=True):
        counts.setdefault(bots, []).append(str(int(n)))
    if len(counts) == 1:
        who = next(iter(counts))
    else:
        who = "; ".join(f"{and_list(ns)} players: {bots}" for bots, ns in counts.items())
    rated = (order["basis"] == "measured").any()
    why = (
        "the strongest by ratings from games between the players, with any not measurably weaker (the whole order: "
        "Skill ladder)"
        if rated
        else "the two strongest in the order the game declares (no games between the players rate them)"
    )
    return "\n".join([head, f"Strong play: {who}: {why}.", *lines])


def build_ladder_section(
    seats: pd.DataFrame,
    mirror: np.ndarray,
    order: pd.DataFrame,
    alpha: float,
    ladder_all: pd.DataFrame | None = None,
    answers: pd.DataFrame | None = None,
    unit: str | None = None,
    precision: float | None = None,
) -> Section | None:
    """Every seat's excess win rate in mirror matches at each rung of the game's skill ladder, with the verdicts; with
    ``unit`` (a game scored in it) every seat's net score, and ``precision`` (in it) the answer's precision."""
    rungs = list(order["bot"])
    if not mirror.any() or not rungs:
        return None
    ladder = skill_ladder(seats.loc[mirror, ["num_players", "seat", "bot", "win"]], rungs, alpha)
    if ladder.empty or ladder.groupby("num_players").size().max() < 2:
        return None
    section = Section("Skill ladder")
    settled = PRECISION if unit is None or not precision else float(precision)
    scale, what = (100.0, "pp") if unit is None else (1.0, unit)
    section.items.append(
        Text(
            f"The seat-advantage answer at each rung of the game's skill ladder, weakest to strongest "
            f"({_order_words(order)}): each seat's win rate minus the fair share 1/n in mirror matches of each "
            "bot, with Wilson intervals. The strong-play answer pools the two strongest rungs when they agree; it "
            f"is {UNRESOLVED} when they disagree, when only one rung was played, or when its intervals reach "
            f'further than ±{scale * settled:g} {what} (never "no difference" from a small rung); it '
            f"{HOLDS} when every rung agrees with it, and {CHANGES} otherwise (Bonferroni over rungs and seats)."
        )
    )
    if answers is not None and len(answers):
        for a in answers.itertuples():
            line = _answer_line(a, unit)
            section.items.append(Text(line, "verdict"))
            section.findings.append(f"Seats up the skill ladder, {line}")
    if unit is not None and ladder_all is not None and len(ladder_all):  # seat 1 in the game's own currency
        verdicts = ladder_verdicts(ladder_all[ladder_all["seat"] == 1].reset_index(drop=True), unit)
    else:
        verdicts = ladder_verdicts(ladder)
    section.items.extend(Text(v) for v in verdicts)
    if ladder_all is not None and len(ladder_all) and unit is None:
        section.items.append(
            Table(
                ["players", "rung", "seat", "games", "win rate", "interval", "excess (pp)", "excess interval (pp)"],
                [
                    [
                        str(r.num_players),
                        str(r.bot),
                        str(r.seat),
                        fmt_int(r.num_games),
                        fmt_pct(r.win_rate, 2),
                        fmt_pct_ci(r.ci_low, r.ci_high, 2),
                        fmt_pp(r.excess, 2),
                        fmt_ci(100 * r.excess_low, 100 * r.excess_high, 2, True),
                    ]
                    for r in ladder_all.itertuples()
                ],
                "Every seat in mirror matches, by rung (weakest first).",
            )
        )
    elif ladder_all is not None and len(ladder_all):
        section.items.append(
            Table(
                ["players", "rung", "seat", "games", f"net {unit} against the other seats", "interval"],
                [
                    [
                        str(r.num_players),
                        str(r.bot),
                        str(r.seat),
                        fmt_int(r.num_games),
                        fmt_num(r.excess, 2, True),
                        fmt_ci(r.excess_low, r.excess_high, 2, True),
                    ]
                    for r in ladder_all.itertuples()
                ],
                f"Every seat in mirror matches, by rung (weakest first): the game's outcome measure, net {unit} a "
                "game against the mean of the other seats, with t intervals.",
            )
        )
    if ladder_all is not None and len(ladder_all):
        topup = " and its strongest cheap rung to ".join(
            f"±{scale * settled * t / PRECISION:g} {what}" for t in (TOPUP_SEARCH, TOPUP_CHEAP)
        )
        reach = ladder_all.groupby(["num_players", "rung", "bot"], sort=True).agg(
            num_games=("num_games", "first"), half_width=("half_width", "max")
        )
        section.items.append(
            Table(
                ["players", "rung", "games", f"widest seat interval (± {what})"],
                [
                    [str(n), str(bot), fmt_int(r.num_games), f"±{scale * r.half_width:.1f}"]
                    for (n, _, bot), r in reach.iterrows()
                ],
                "Precision reached at each rung: the widest reach of a seat's interval from its estimate (a "
                f"standard study tops up the rungs of strong play, as its round robin measures them, to {topup}, "
                "within its budget; a rung measurably below the strongest is not topped up).",
            )
        )
    section.items.append(
        make_figure(
            "skill-ladder.png",
            "Seat 1's excess win rate with its interval against the rung, one line per player count.",
            [lambda ax: plots.plot_skill_ladder(ladder, ax=ax)],
            size=(7, 4),
        )
    )
    return section


def ladder_overview(ladder: pd.DataFrame, answers: pd.DataFrame, unit: str | None = None) -> Figure:
    """The overview figure: each seat at each rung, one panel per player count, the strong-play rungs shaded."""
    counts = [int(n) for n in answers["num_players"]]
    strongest = {int(a.num_players): a.strongest.split(" and ") for a in answers.itertuples()}
    what = (
        "Each seat's win rate minus its fair share 1/n, with Wilson intervals"
        if unit is None
        else f"Each seat's net {unit} a game against the mean of the other seats, with t intervals"
    )
    return make_figure(
        "overview-seats.png",
        f"{what}, at each rung of the skill ladder (weakest to strongest), one panel per player count; shaded: the "
        "strong-play rungs the summary answers from. On the dashed line a seat "
        + ("wins exactly its share." if unit is None else "does exactly as well as the others."),
        [
            lambda ax, n=n: plots.plot_ladder_seats(ladder, ax=ax, num_players=n, strongest=strongest[n], unit=unit)
            for n in counts
        ],
        ncols=min(2, len(counts)),
        size=(4.6, 3.0),
    )
