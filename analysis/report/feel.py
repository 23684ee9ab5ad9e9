"""Report section "How the game plays": the leader, lead changes, comebacks, decisiveness, length, endings (from
the runs' trajectories) and skill against luck (between the two strongest rungs that met); docs/game-feel.md."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analysis import plots
from analysis.report.format import fmt_ci, fmt_int, fmt_level, fmt_num, fmt_pct, fmt_pct_ci, fmt_players, is_number
from analysis.report.model import GAMES_DIR, Section, Table, Text, Watch, game_page, make_figure
from analysis.run import read_tables
from analysis.stats.feel import comeback, end_triggers, feel_summary, game_length, leader_wins, notable_games
from analysis.stats.ladder import skill_and_luck
from simulate.runformat import run_tables

FEEL_GAMES = 10_000
"""Games of each run the section reads trajectories from (its first ones): the measures' arrays hold games x
rounds x seats, so a million-game run would not fit; the intervals are these games'."""
COMEBACK_ROUNDS = 3
"""Rounds of the comeback curve, spread over the median game."""
HEADLINE_GAMES = 200
"""Games a mirror lineup needs for the summary to speak of it: the strongest such rung is the one it reads."""
RACE_ROUNDS = 3.0
"""Rounds a game needs on average for the summary to read its lead measures: in a shorter game (a golem-poker pot
of one or two betting rounds) the first seat ahead is mostly the one the result itself puts ahead, so "the first
to lead alone wins 100%" would say nothing about the race."""


def _feel_runs(manifests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs with trajectories, each cut to the chunks that hold its first ``FEEL_GAMES`` games."""
    out = []
    for m in manifests:
        if "trajectories" not in run_tables(m):
            continue
        chunks = {k: c for k, c in m["chunks"].items() if c["games"][0] < FEEL_GAMES}
        out.append({**m, "chunks": chunks})
    return out


def _feel_tables(
    runs: list[dict[str, Any]], offsets: dict[str, int], seats: pd.DataFrame, turn_order: bool
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The trajectories of ``runs`` and their seat rows (``seat`` the table seat, as in the trajectories)."""
    traj = read_tables(runs, "trajectories", ["game", "seat", "score"], [offsets[m["run_id"]] for m in runs])
    traj = traj[traj["game"].isin(seats["game"].unique()).to_numpy()]  # solo games have no seats to compare
    keep = seats["game"].isin(traj["game"].unique()).to_numpy()
    part = seats.loc[keep, ["game", "num_players", "bot", "win", "table_seat" if turn_order else "seat"]]
    if turn_order:
        part = part.rename(columns={"table_seat": "seat"})
    return traj, part


def feel_headline(summary: pd.DataFrame, rungs: tuple[str, ...] = ()) -> pd.Series:
    """The lineup the summary speaks of: the mirror match of the strongest rung of ``rungs`` (weakest first) with
    ``HEADLINE_GAMES`` games at the fewest players it has them (so a top-up that plays more games at another count
    does not move the line), else the mirror match (or lineup) with the most games."""
    mirror = summary[~summary["bots"].str.contains(" + ", regex=False)]
    ranked = mirror[mirror["bots"].isin(rungs).to_numpy() & (mirror["num_games"] >= HEADLINE_GAMES).to_numpy()]
    if len(ranked):
        place = ranked["bots"].map({r: i for i, r in enumerate(rungs)})
        top = ranked[(place == place.max()).to_numpy()]
        return top.sort_values(["num_players", "num_games"], ascending=[True, False]).iloc[0]
    pool = mirror if len(mirror) else summary
    return pool.sort_values(["num_games", "num_players"], ascending=[False, True]).iloc[0]


def _length_phrase(length: pd.DataFrame, n: int, bots: str) -> str:
    """``", about 35 min at a table at the estimated pace (box: 30-45 min, within)"`` for the lineup, or nothing
    without a playing time."""
    row = length[(length["num_players"] == n).to_numpy() & (length["bots"] == bots).to_numpy()]
    if "minutes" not in length.columns or not len(row):
        return ""
    r = row.iloc[0]
    return f", about {fmt_num(r['minutes'], 0)} min at a table at the estimated pace (box: {_box(r)}, {r['verdict']})"


def _box(r: Any) -> str:
    low, high = r["box_low"], r["box_high"]
    return f"{fmt_num(low, 0)} min" if low == high else f"{fmt_num(low, 0)}-{fmt_num(high, 0)} min"


def _feel_answer(row: pd.Series, length: pd.DataFrame, race: bool = True, round_word: str = "round") -> str:
    """The summary's "how it plays" line; without ``race`` (a game whose seats play for their score, not to finish
    first: golem-poker's chips) the lead measures are left out, as in a game too short for a race. ``round_word``:
    what the game's rounds are called (golem-poker's are deals)."""
    ahead = fmt_pct_ci(row["first_ahead_low"], row["first_ahead_high"], 0)
    if not race:
        return (
            f"How it plays ({fmt_players(row['num_players'])}, {row['bots']}, {fmt_int(row['num_games'])} games): "
            f"{fmt_num(row['rounds'])} {round_word}s a game; the seats play for their score, not to finish first, so "
            "the lead measures (who leads, comebacks) do not describe this game"
            f"{_length_phrase(length, int(row['num_players']), str(row['bots']))}."
        )
    if row["rounds"] < RACE_ROUNDS:
        return (
            f"How it plays ({fmt_players(row['num_players'])}, {row['bots']}, {fmt_int(row['num_games'])} games): "
            f"{fmt_num(row['rounds'])} {round_word}s a game, too few for the lead measures to describe a race (the "
            "first seat ahead is mostly the one the result puts ahead)"
            f"{_length_phrase(length, int(row['num_players']), str(row['bots']))}."
        )
    return (
        f"How it plays ({fmt_players(row['num_players'])}, {row['bots']}, {fmt_int(row['num_games'])} games): "
        f"the first player to lead alone wins {fmt_pct(row['first_ahead'], 0)} ({ahead}); the leader after round "
        f"{int(row['half_round'])} wins {fmt_pct(row['half_leader'], 0)}; the lead changes "
        f"{fmt_num(row['lead_changes'])} times a game ({_never(row['no_lead_change'])}); "
        "the winner leads for "
        f"good from {fmt_pct(row['decided'], 0)} of the game on; {fmt_num(row['rounds'])} {round_word}s a game"
        f"{_length_phrase(length, int(row['num_players']), str(row['bots']))}."
    )


def _never(share: float) -> str:
    """How often the lead never changes, without a "never in 0%" that reads as a bug: a share below 1% to a tenth of
    a point, none at all as "at least once in every game"."""
    if share == 0:
        return "at least once in every game"
    return f"never in {fmt_pct(share, 1 if share < 0.01 else 0)}"


def _spread(row: pd.Series) -> str:
    """The Elo spread, or its lower end where the weakest never won (the spread's estimate is infinite)."""
    if is_number(row["elo_spread"]):
        return f"{fmt_num(row['elo_spread'], 0)} Elo"
    return f"at least {fmt_num(row['elo_spread_low'], 0)} Elo"


def _luck_answer(row: pd.Series) -> str:
    return (
        f"Skill against luck between close players: of {row['weaker']} and {row['stronger']}, the better "
        f"({row['stronger']}) finishes above the other in {fmt_pct(1 - row['upset'])} "
        f"({fmt_pct_ci(1 - row['upset_high'], 1 - row['upset_low'])}) of their seat pairs, a rating spread of "
        f"{_spread(row)}; counting every upset as luck, at most {fmt_pct(row['luck'], 0)} "
        f"({fmt_pct_ci(row['luck_low'], row['luck_high'], 0)}) of their results behave like coin flips (a bound for "
        "this pair, after Duersch et al. 2020; closer players would leave more to luck)."
    )


def build_feel_section(
    manifests: list[dict[str, Any]],
    offsets: dict[str, int],
    seats: pd.DataFrame,
    games: pd.DataFrame,
    mixed: pd.DataFrame,
    rungs: tuple[str, ...],
    ratings: pd.DataFrame | None,
    turn_order: bool,
    unit: str,
    alpha: float,
    rng: np.random.Generator,
    playing_time: dict[str, Any] | None = None,
    race: bool = True,
    round_word: str = "round",
) -> Section | None:
    """The section, from the runs of ``manifests`` that recorded trajectories, the games' length (every game of
    ``games``; in minutes with the game's ``playing_time``, the manifests' ``report.playing_time``) and the mixed
    games' seat rows ``mixed`` (skill against luck between the two strongest rungs of ``rungs`` that met, weakest
    first); ``race`` False for a game whose seats play for their score (:func:`_feel_answer`); ``round_word``: what the
    games table's rounds count ("round"; golem-poker's "deal"); None without games."""
    runs = _feel_runs(manifests) if len(seats) else []
    table = mixed[["game", "seat", "bot", "rank"]] if len(mixed) else pd.DataFrame()
    pairs = skill_and_luck(table, rungs, alpha, True) if len(mixed) else pd.DataFrame()
    luck = skill_and_luck(table, rungs, alpha) if len(pairs) else pairs
    length = game_length(games, seats, playing_time, alpha) if len(seats) else pd.DataFrame()
    if not runs and luck.empty and length.empty:
        return None
    section = Section("How the game plays")
    section.items.append(
        Text(
            "Does the leader win, how often does the lead change, can a player behind come back, when is the game "
            "decided, how long does it run and how does it end, and how far skill carries between close players "
            "(definitions and sources: docs/game-feel.md). A round's score is the seat's score as the final "
            f"scoring would count it then; intervals are {fmt_level(alpha)}: Wilson's for shares of games, bootstraps "
            "over games for means, and a lead shared "
            "by k seats credits each 1/k of its win."
        )
    )
    if runs:
        _trajectory_items(
            section, runs, offsets, seats, games, turn_order, unit, alpha, rng, rungs, length, race, round_word
        )
    else:
        section.items.append(
            Text(
                "These runs recorded no trajectories: play them with --trajectories for the lead and comeback measures."
            )
        )
    if not length.empty:
        _length_items(section, length, playing_time, round_word)
    if not luck.empty:
        _luck_items(section, luck.iloc[0], pairs, rungs, ratings)
    return section


def _length_items(
    section: Section, length: pd.DataFrame, playing_time: dict[str, Any] | None, round_word: str = "round"
) -> None:
    timed = playing_time is not None and "minutes" in length.columns
    header = ["players", "bots", "games", "turns a game", f"{round_word}s a game"]
    if timed:
        header += ["minutes at a table (estimate)", "box", "seconds a turn the box allows", "against the box"]
    rows = []
    for r in length.itertuples():
        row = [
            str(r.num_players),
            r.bots,
            fmt_int(r.num_games),
            f"{fmt_num(r.turns)} ({fmt_ci(r.turns_low, r.turns_high)})",
            fmt_num(r.rounds),
        ]
        if timed:
            implied = fmt_num(r.implied_low, 0)
            if r.implied_high != r.implied_low:
                implied += f"-{fmt_num(r.implied_high, 0)}"
            row += [
                f"{fmt_num(r.minutes, 0)} ({fmt_ci(r.minutes_low, r.minutes_high, 0)})",
                _box(r._asdict()),
                implied,
                r.verdict,
            ]
        rows.append(row)
    if timed:
        pace = f"{fmt_num(playing_time['seconds_per_turn'], 0)} s a turn" + (
            f" and {fmt_num(playing_time['seconds_per_round'], 0)} s a round"
            if playing_time["seconds_per_round"]
            else ""
        )
        caption = (
            f"How long the games run: turns (as the run counts them) and rounds a game, every game of the runs (t "
            f"intervals of the mean). Minutes at a table are an estimate: the turns and rounds at {pace} "
            f"({playing_time['pace_basis']}; seeds/<game>/playing_time.toml, recorded in each run's manifest). The "
            f"box's time: {playing_time['box_source']}. Seconds a turn the box allows: the pace at which the mean "
            "game lasts the box's time, for a reader who knows their own table's pace. Bots that take more turns "
            "than people would (resting, passing, or never finishing early) show here as games longer than the box."
        )
    else:
        caption = (
            f"How long the games run: turns (as the run counts them) and {round_word}s a game, every game of the runs "
            "(t intervals of the mean). The game has no box playing time (seeds/<game>/playing_time.toml), so no "
            "minutes."
        )
    section.items.append(Table(header, rows, caption))


def _trajectory_items(
    section: Section,
    runs: list[dict[str, Any]],
    offsets: dict[str, int],
    seats: pd.DataFrame,
    games: pd.DataFrame,
    turn_order: bool,
    unit: str,
    alpha: float,
    rng: np.random.Generator,
    rungs: tuple[str, ...],
    length: pd.DataFrame,
    race: bool = True,
    round_word: str = "round",
) -> None:
    traj, part = _feel_tables(runs, offsets, seats, turn_order)
    summary = feel_summary(traj, part, alpha, rng)
    curve = leader_wins(traj, part, alpha)
    cells = comeback(traj, part, COMEBACK_ROUNDS, alpha=alpha)
    section.items.append(
        Table(
            [
                "players",
                "bots",
                "games",
                "rounds",
                "leader after round 1 wins",
                "first to lead alone wins",
                "leader at mid-game wins",
                "lead changes a game",
                "no lead change",
                "winner leads for good from",
            ],  # fmt: skip
            [
                [
                    str(r.num_players),
                    r.bots,
                    fmt_int(r.num_games),
                    f"{fmt_num(r.rounds)} ({fmt_ci(r.rounds_low, r.rounds_high)})",
                    f"{fmt_pct(r.first_leader)} ({fmt_pct_ci(r.first_leader_low, r.first_leader_high)})",
                    f"{fmt_pct(r.first_ahead)} ({fmt_pct_ci(r.first_ahead_low, r.first_ahead_high)})",
                    f"round {r.half_round}: {fmt_pct(r.half_leader)} "
                    f"({fmt_pct_ci(r.half_leader_low, r.half_leader_high)})",
                    f"{fmt_num(r.lead_changes, 2)} ({fmt_ci(r.lead_changes_low, r.lead_changes_high, 2)})",
                    f"{fmt_pct(r.no_lead_change)} ({fmt_pct_ci(r.no_lead_change_low, r.no_lead_change_high)})",
                    f"{fmt_pct(r.decided)} ({fmt_pct_ci(r.decided_low, r.decided_high)})",
                ]
                for r in summary.itertuples()
            ],
            f"Per player count and lineup, from the first {FEEL_GAMES:,} games of each run with trajectories. "
            "A lead shared after round 1 (every seat level) credits each leader 1/k, so the first to lead alone "
            "(in the games where a seat ever did) says more of whether an early lead lasts. Mid-game: the round "
            "at half the median length. The winner leads for good from: the round after which "
            "the eventual winner leads alone to the end, as a share of the game's rounds (games with one winner).",
        )
    )
    head = feel_headline(summary, rungs)
    section.answers.append(_feel_answer(head, length, race, round_word))
    n, bots = int(head["num_players"]), str(head["bots"])
    section.items += _watch_items(traj, part, n, bots, runs, offsets, unit, seats if turn_order else None)
    panels = [lambda ax: plots.plot_leader_wins(curve, ax=ax, num_players=n)]
    if len(cells[(cells["num_players"] == n) & (cells["bots"] == bots)]):
        panels.append(lambda ax: plots.plot_comeback(cells, ax=ax, num_players=n, bots=bots, unit=unit))
    section.items.append(
        make_figure(
            "feel.png",
            f"Left: the share of games the leader at each round wins ({fmt_players(n)}, every lineup). Right: the "
            f"comeback curve of {bots}: the share of games a seat behind the leader by that many {unit} wins, "
            "after rounds spread over the median game (Wilson intervals over the seats in each cell).",
            panels,
            ncols=len(panels),
        )
    )
    ids = {m["run_id"] for m in runs}
    ends = end_triggers(games[games["run_id"].isin(ids).to_numpy()], alpha)
    section.items.append(
        Table(
            ["players", "end", "games", "share"],
            [
                [
                    str(r.num_players),
                    r.end_reason,
                    fmt_int(r.num_games),
                    f"{fmt_pct(r.share)} ({fmt_pct_ci(r.low, r.high)})",
                ]
                for r in ends.itertuples()
            ],
            "How the games end (every game of the runs with trajectories; Wilson intervals).",
        )
    )


def _watch_items(
    traj: pd.DataFrame,
    part: pd.DataFrame,
    n: int,
    bots: str,
    runs: list[dict[str, Any]],
    offsets: dict[str, int],
    unit: str,
    turn_order: pd.DataFrame | None,
) -> list[Watch]:
    """The headline lineup's largest comeback and a typical game, each to watch on its replay page. With the seat
    rows ``turn_order`` (a game that draws its turn order) the winner is named by its place in that order."""
    games = part.loc[(part["num_players"] == n).to_numpy(), "game"].unique()
    mine = part[part["game"].isin(games).to_numpy()]
    found = notable_games(traj[traj["game"].isin(games).to_numpy()], mine)
    found = found[found["bots"] == bots]
    who = f"{fmt_players(n)}, {bots}"
    out = []
    if turn_order is not None:
        place = turn_order.set_index(["game", "table_seat"])["seat"]
        found = found.assign(seat=[int(place[(g, t)]) for g, t in zip(found["game"], found["seat"], strict=True)])
    for r in found.itertuples():
        if r.kind == "comeback":
            title = f"the largest comeback ({who})"
            why = (
                f"Seat {r.seat} was {fmt_num(r.deficit, 0)} {unit} behind the leader after round {r.round} and won "
                f"by {fmt_num(r.margin, 0)} {unit} after {r.rounds} rounds: the furthest behind any winner was in "
                f"{fmt_int(len(games))} games."
            )
            href = f"{GAMES_DIR}/largest-comeback-{n}p.html"
        else:
            title = f"a typical game ({who})"
            why = (
                f"As long as the median game ({r.rounds} rounds), won by seat {r.seat} by {fmt_num(r.margin, 0)} "
                f"{unit}, near the median winning margin."
            )
            href = f"{GAMES_DIR}/typical-{n}p.html"
        out.append(Watch(game_page(href, title, why, int(r.game), runs, offsets)))
    return out


def _luck_items(
    section: Section, row: pd.Series, pairs: pd.DataFrame, rungs: tuple[str, ...], ratings: pd.DataFrame | None
) -> None:
    section.items.append(
        Table(
            ["weaker", "stronger", "games", "weaker finishes above", "rating spread (Elo)", "luck share (at most)"],
            [
                [
                    r["weaker"],
                    r["stronger"],
                    fmt_int(r["num_games"]),
                    f"{fmt_pct(r['upset'])} ({fmt_pct_ci(r['upset_low'], r['upset_high'])})",
                    f"{fmt_num(r['elo_spread'], 0)} ({fmt_ci(r['elo_spread_low'], r['elo_spread_high'], 0)})"
                    if is_number(r["elo_spread"])
                    else _spread(r),
                    f"{fmt_pct(r['luck'])} ({fmt_pct_ci(r['luck_low'], r['luck_high'])})",
                ]
                for _, r in pairs.iterrows()
            ],
            "Skill against luck, from the seat pairs of every two ladder rungs that met in mixed games (player counts "
            "pooled; game-clustered Wilson intervals). In each row the weaker is the one the games put below, "
            "whatever the declared ladder says. Luck share: twice the weaker's share, the share of results a coin "
            "flip would decide in a game the stronger always wins to give the weaker as many (after Duersch, "
            "Lambrecht and Oechssler 2020). It counts every upset as luck, so it bounds luck for that pair of players, "
            "not the game: against random a good bot leaves luck almost nothing, between close players more. The "
            "summary reads the two strongest rungs that met.",
        )
    )
    section.answers.append(_luck_answer(row))
    rated = ratings is not None and {"elo", "elo_low", "elo_high"} <= set(ratings.columns)
    if rated and len(set(ratings["bot"].astype(str)) & set(rungs)) >= 2:
        section.items.append(
            make_figure(
                "ladder_ratings.png",
                "The ladder's rating curve: the Bradley-Terry rating (Elo scale) of every rung rated in mixed games, "
                "weakest to strongest.",
                [lambda ax: plots.plot_ladder_ratings(ratings, list(rungs), ax=ax)],
            )
        )
