"""Play profile: how often each bot uses each of the game's mechanisms (the seats table's profile columns)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

RARE_SHARE = 0.01
"""A mechanism a bot uses in fewer than this share of its seat-games is "almost never" used."""


def play_profile(seats: pd.DataFrame, columns: Sequence[str], rare: float = RARE_SHARE) -> pd.DataFrame:
    """Per bot and mechanism: mean count per game, share of games using it at least once, and a usage verdict.

    Parameters
    ----------
    seats : DataFrame
        One row per seat per game with ``bot`` and the count ``columns`` (the run's ``columns.profile``).
    columns : sequence of str
        Count columns, one per mechanism (e.g. ``merchants_bought``, ``folds``).
    rare : float
        Share of a bot's seat-games below which a mechanism it uses at all counts as almost never used.

    Returns
    -------
    DataFrame
        One row per (bot, mechanism), bots in order of appearance and mechanisms in ``columns`` order:
        ``bot``, ``mechanism``, ``seat_games``, ``mean`` (count per seat-game), ``share_used`` (share of
        seat-games with a count of at least 1) and ``usage`` (``never``, ``almost never`` or ``used``).

    Raises
    ------
    ValueError
        When ``bot`` or a count column is missing (the error names them).
    """
    missing = [c for c in ("bot", *columns) if c not in seats.columns]
    if missing:
        raise ValueError(f"seats table has no column {', '.join(missing)}")
    frame = seats[["bot", *columns]].copy()
    frame["bot"] = frame["bot"].astype(str)
    counts = frame[list(columns)].astype("int64")
    grouped_mean = counts.groupby(frame["bot"], sort=False).mean()
    grouped_used = (counts > 0).groupby(frame["bot"], sort=False).mean()
    sizes = frame.groupby("bot", sort=False).size()
    rows = []
    for bot in sizes.index:
        for column in columns:
            share = float(grouped_used.at[bot, column])
            usage = "never" if share == 0.0 else "almost never" if share < rare else "used"
            rows.append((bot, column, int(sizes[bot]), float(grouped_mean.at[bot, column]), share, usage))
    return pd.DataFrame(rows, columns=["bot", "mechanism", "seat_games", "mean", "share_used", "usage"])


def profile_warnings(profile: pd.DataFrame, rare: float = RARE_SHARE, forced: Sequence[str] = ()) -> list[str]:
    """One plain sentence per bot that never or almost never uses a mechanism (from :func:`play_profile`).

    ``forced`` names counts of what a player does only when forced or as a penalty (a pass when no move is
    legal, crystals discarded over the limit): a bot that avoids them is not missing a mechanism.
    """
    out = []
    profile = profile[~profile["mechanism"].isin(list(forced))]
    for bot, rows in profile.groupby("bot", sort=False):
        never = rows.loc[rows["usage"] == "never", "mechanism"].tolist()
        almost = rows[rows["usage"] == "almost never"]
        parts = []
        if never:
            parts.append(f"never uses {', '.join(never)}")
        if len(almost):
            listed = ", ".join(
                f"{m} ({s:.2%} of its games)" for m, s in zip(almost["mechanism"], almost["share_used"], strict=True)
            )
            parts.append(f"almost never (in under {rare:.0%} of its games) uses {listed}")
        if parts:
            out.append(
                f"Bot {bot} {' and '.join(parts)}: the results describe games played without "
                f"{'this mechanism' if len(never) + len(almost) == 1 else 'these mechanisms'}."
            )
    return out
