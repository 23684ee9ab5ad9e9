"""Skill ladder: the seat-advantage answer measured in mirror matches at each rung of bot strength.

A game declares its bots' ladder from weakest to strongest (``skill_ladder``, e.g. random, the
heuristic bots, search); the standard study plays a mirror match at each rung, and the ladder shows
whether seat 1's advantage or deficit is the game's or an artefact of how well the bots play.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from analysis.stats.seats import win_rates


def skill_ladder(seats: pd.DataFrame, rungs: Sequence[str], alpha: float = 0.05) -> pd.DataFrame:
    """Seat 1's win rate and excess over the fair share in mirror matches, per player count and rung.

    Parameters
    ----------
    seats : DataFrame
        Seat rows of mirror matches only: ``num_players``, ``seat`` (1 = first to move), ``bot``, ``win``.
    rungs : sequence of str
        Bot labels from weakest to strongest; mirror matches of other bots are left out.
    alpha : float
        The intervals are Wilson intervals at level ``1 - alpha``.

    Returns
    -------
    DataFrame
        One row per player count and rung played, in rung order: ``num_players``, ``rung`` (0-based
        position in ``rungs``), ``bot``, ``num_games``, ``win_rate``, ``ci_low``, ``ci_high``, ``fair``,
        ``excess``, ``excess_low``, ``excess_high`` (seat 1's win rate minus 1/n, with its interval).
    """
    missing = [c for c in ("num_players", "seat", "bot", "win") if c not in seats.columns]
    if missing:
        raise ValueError(f"seats table has no column {', '.join(missing)}")
    position = {bot: k for k, bot in enumerate(rungs)}
    first = seats[(seats["seat"] == 1).to_numpy() & seats["bot"].astype(str).isin(position).to_numpy()]
    columns = ["num_players", "rung", "bot", "num_games", "win_rate", "ci_low", "ci_high", "fair", "excess"]
    if first.empty:
        return pd.DataFrame(columns=[*columns, "excess_low", "excess_high"])
    frame = first[["num_players", "win"]].assign(bot=first["bot"].astype(str).to_numpy())
    table = win_rates(frame, by="bot", alpha=alpha)
    table["rung"] = table["bot"].map(position).astype(int)
    table["excess_low"] = table["ci_low"] - table["fair"]
    table["excess_high"] = table["ci_high"] - table["fair"]
    table = table.sort_values(["num_players", "rung"], ignore_index=True)
    return table[[*columns, "excess_low", "excess_high"]]


def ladder_verdicts(ladder: pd.DataFrame) -> list[str]:
    """One sentence per player count: does seat 1's advantage or deficit hold from the weakest to the strongest rung?

    Reads :func:`skill_ladder`'s table. A sign holds at a rung when the rung's interval excludes 0; a
    player count with a single rung gets no verdict (there is no ladder to read).
    """
    out = []
    for n, part in ladder.groupby("num_players", sort=True):
        if len(part) < 2:
            continue
        low, high = part.iloc[0], part.iloc[-1]
        signs = np.where(part["excess_low"] > 0, 1, np.where(part["excess_high"] < 0, -1, 0))
        what = "advantage" if signs[-1] > 0 else "deficit"
        where = f"{n} players, seat 1 (rungs {low['bot']} to {high['bot']})"
        if signs[-1] != 0 and (signs == signs[-1]).all():
            out.append(
                f"{where}: seat 1's {what} holds at every skill level "
                f"({_pp(low['excess'])} to {_pp(high['excess'])} against the fair share)."
            )
        elif signs[-1] == 0:
            out.append(
                f"{where}: no seat-1 effect is detected at the strongest rung ({_pp(high['excess'])}, interval "
                f"{_pp(high['excess_low'])} to {_pp(high['excess_high'])}), against {_pp(low['excess'])} at the "
                "weakest."
            )
        else:
            change = "shrinks" if abs(high["excess"]) < abs(low["excess"]) else "grows"
            out.append(
                f"{where}: seat 1's {what} {change} from {_pp(low['excess'])} to {_pp(high['excess'])} under "
                "stronger play and is not detected at every rung."
            )
    return out


def _pp(x: float) -> str:
    return f"{100 * x:+.1f} pp"
