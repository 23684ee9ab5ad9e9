"""The report's Play profile and Skill ladder sections: how the bots play, and the seat answer up the ladder."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analysis import plots
from analysis.report.format import _ci, _int, _num, _pct, _pct_ci, _pp
from analysis.report.model import Section, Table, Text, _figure
from analysis.stats.ladder import ladder_verdicts, skill_ladder
from analysis.stats.profile import RARE_SHARE, play_profile, profile_warnings


def _profile_columns(manifests: Sequence[dict[str, Any]]) -> list[str]:
    """The play-profile columns every run records (none for runs of run format 1)."""
    lists = [m.get("columns", {}).get("profile", []) for m in manifests]
    return [c for c in lists[0] if all(c in other for other in lists[1:])]


def _profile_section(seats: pd.DataFrame, columns: list[str], forced: Sequence[str] = ()) -> Section | None:
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
        cells = [f"{_num(v, 2)} ({_pct(u, 0)})" for v, u in zip(part["mean"], part["share_used"], strict=True)]
        rows.append([str(bot), _int(part["seat_games"].iloc[0]), *cells])
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


def _strongest_rungs(seats: pd.DataFrame, mirror: np.ndarray, rungs: Sequence[str]) -> dict[int, str]:
    """Per player count, the strongest rung of the game's skill ladder played in mirror matches."""
    position = {bot: k for k, bot in enumerate(rungs)}
    played = seats.loc[mirror, ["num_players", "bot"]].drop_duplicates()
    out: dict[int, str] = {}
    for n, bot in zip(played["num_players"], played["bot"].astype(str), strict=True):
        if bot in position and (int(n) not in out or position[bot] > position[out[int(n)]]):
            out[int(n)] = bot
    return out


def _ladder_section(seats: pd.DataFrame, mirror: np.ndarray, rungs: Sequence[str], alpha: float) -> Section | None:
    """Seat 1's excess win rate in mirror matches at each rung of the game's skill ladder."""
    if not mirror.any() or not rungs:
        return None
    ladder = skill_ladder(seats.loc[mirror, ["num_players", "seat", "bot", "win"]], rungs, alpha)
    if ladder.empty or ladder.groupby("num_players").size().max() < 2:
        return None
    section = Section("Skill ladder")
    section.items.append(
        Text(
            f"The seat-advantage answer at each rung of the game's skill ladder ({', '.join(rungs)}: weakest to "
            "strongest): seat 1's win rate minus the fair share 1/n in mirror matches of each bot, with Wilson "
            "intervals. An effect that holds at every rung is the game's; one that changes with skill says as much "
            "about the bots as about the game."
        )
    )
    verdicts = ladder_verdicts(ladder)
    section.items.extend(Text(v, "verdict") for v in verdicts)
    section.findings.extend(f"Skill ladder, {v}" for v in verdicts)
    section.answers.append(_ladder_answer(ladder, rungs))
    rows = [
        [
            str(r.num_players),
            str(r.bot),
            _int(r.num_games),
            _pct(r.win_rate, 2),
            _pct_ci(r.ci_low, r.ci_high, 2),
            _pp(r.excess, 2),
            _ci(100 * r.excess_low, 100 * r.excess_high, 2, True),
        ]
        for r in ladder.itertuples()
    ]
    section.items.append(
        Table(
            ["players", "rung", "games", "seat 1 win rate", "interval", "excess (pp)", "excess interval (pp)"],
            rows,
            "Seat 1 in mirror matches, by rung.",
        )
    )
    section.items.append(
        _figure(
            "skill-ladder.png",
            "Seat 1's excess win rate with its interval against the rung, one line per player count.",
            [lambda ax: plots.plot_skill_ladder(ladder, ax=ax)],
            size=(7, 4),
        )
    )
    return section


def _ladder_answer(ladder: pd.DataFrame, rungs: Sequence[str]) -> str:
    """The answer to "does the seat answer hold at every skill level?", grouping the player counts alike."""
    kinds: dict[str, list[str]] = {}
    for n, part in ladder.groupby("num_players", sort=True):
        if len(part) < 2:
            continue
        part = part.sort_values("rung")
        signs = np.where(part["excess_low"] > 0, 1, np.where(part["excess_high"] < 0, -1, 0))
        what = "advantage" if signs[-1] > 0 else "deficit"
        if signs[-1] == 0:
            kind = "no seat-1 effect is detected at the strongest rung"
        elif (signs == signs[-1]).all():
            kind = f"seat 1's {what} holds at every rung"
        else:
            kind = f"seat 1's {what} shows at the strongest rung, not at every one"
        kinds.setdefault(kind, []).append(str(n))
    parts = [
        f"at {' and '.join([', '.join(ns[:-1]), ns[-1]] if len(ns) > 1 else ns)} players {kind}"
        for kind, ns in kinds.items()
    ]
    return f"Skill ladder ({rungs[0]} to {rungs[-1]}): " + "; ".join(parts) + "."
