"""Game length, end reasons (turn-cap endings called out) and score distributions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from analysis.stats._util import check_alpha, require_columns, seat_margins, wilson_confint

__all__ = ["EndReasons", "TURN_CAP", "end_reasons", "game_lengths", "score_summary"]

TURN_CAP = "turn_cap"
"""The ``end_reason`` of games stopped by the safety net rather than by the rules."""

_QUANTILES = {"p05": 0.05, "p25": 0.25, "median": 0.5, "p75": 0.75, "p95": 0.95}


def _quantile_frame(frame: pd.DataFrame, keys: list[str], column: str, prefix: str) -> pd.DataFrame:
    grouped = frame.groupby(keys, observed=True, sort=True)[column]
    out = grouped.agg(["mean", "std", "min", "max"])
    out.columns = [f"{prefix}_{c.replace('std', 'sd')}" for c in out.columns]
    quantiles = grouped.quantile(list(_QUANTILES.values())).unstack(-1)
    quantiles.columns = [f"{prefix}_{name}" for name in _QUANTILES]
    return out.join(quantiles)


def game_lengths(games: pd.DataFrame) -> pd.DataFrame:
    """Distribution of game length in turns and rounds, overall and by end reason.

    Required columns: ``num_players``, ``turns``, ``rounds``, ``end_reason``.

    Returns one row per ``num_players`` and ``end_reason`` (``"all"`` for every game):
    ``num_games``, ``share``, ``turns_mean``, ``turns_sd``, ``turns_min``, ``turns_max``,
    ``turns_p05``, ``turns_p25``, ``turns_median``, ``turns_p75``, ``turns_p95`` and the same
    ``rounds_*`` columns.
    """
    require_columns(games, ["num_players", "turns", "rounds", "end_reason"], "games")
    frame = games[["num_players", "turns", "rounds"]].assign(end_reason=games["end_reason"].astype("str"))
    both = pd.concat([frame.assign(end_reason="all"), frame], ignore_index=True)
    keys = ["num_players", "end_reason"]
    out = _quantile_frame(both, keys, "turns", "turns").join(_quantile_frame(both, keys, "rounds", "rounds"))
    counts = both.groupby(keys, observed=True, sort=True).size().rename("num_games")
    out = out.join(counts).reset_index()
    totals = out.loc[out["end_reason"] == "all"].set_index("num_players")["num_games"]
    out["share"] = out["num_games"] / out["num_players"].map(totals)
    first = ["num_players", "end_reason", "num_games", "share"]
    return out[first + [c for c in out.columns if c not in first]]


def _pct(share: float) -> str:
    return f"{100 * share:.1f}" if share >= 0.001 else f"{100 * share:.2g}"


class EndReasons(NamedTuple):
    """Result of :func:`end_reasons`; unpacks as ``table, verdict``."""

    table: pd.DataFrame
    """Per ``num_players`` and ``end_reason``: ``num_games``, ``share``, ``ci_low``, ``ci_high``
    (Wilson) and ``turn_cap`` (True for the safety-net ending)."""
    verdict: str
    """A sentence per player count on how many games the turn cap ended."""


def end_reasons(games: pd.DataFrame, alpha: float = 0.05, by: str | None = None) -> EndReasons:
    """How games ended, with Wilson intervals, calling out turn-cap endings.

    Required columns: ``num_players``, ``end_reason``, and ``by`` when given (e.g. a run or lineup
    label: the table then has a row per player count, ``by`` value and end reason, and the verdict
    names the runs whose games hit the turn cap instead of pooling them with the others: 508 capped
    games of a random-bot rung are 8.5% of that rung, not 0.5% of every 2-player game).

    A turn-cap game was stopped by the safety net and scored as it stood: its result is not the
    rules' result, so a non-trivial share deserves a look (stalling bots, a rules loop).
    """
    check_alpha(alpha)
    require_columns(games, ["num_players", "end_reason", *([by] if by else [])], "games")
    keys = ["num_players", *([by] if by else [])]
    frame = games[keys].assign(end_reason=games["end_reason"].astype("str"))
    if by:
        frame[by] = frame[by].astype(str)
    counts = frame.groupby([*keys, "end_reason"], observed=True, sort=True).size()
    table = counts.rename("num_games").reset_index()
    totals = table.groupby(keys)["num_games"].transform("sum")
    table["share"] = table["num_games"] / totals
    table["ci_low"], table["ci_high"] = wilson_confint(table["num_games"], totals, alpha)
    table["turn_cap"] = table["end_reason"] == TURN_CAP
    level = f"{100 * (1 - alpha):g}%"
    sentences = []
    for num_players, part in table.groupby("num_players", sort=True):  # a few player counts
        total = int(part["num_games"].sum())
        capped = part[part["turn_cap"]]
        if capped.empty:
            upper = wilson_confint(np.array([0.0]), np.array([float(total)]), alpha)[1][0]
            sentences.append(
                f"No {num_players}-player game hit the turn cap (0 of {total:,}; at most "
                f"{_pct(upper)}% at {level} confidence)."
            )
            continue
        ended = []
        for row in capped.itertuples():
            group = part[part[by] == getattr(row, by)] if by else part
            where = f" of {getattr(row, by)}" if by else ""
            ended.append(
                f"{_pct(row.share)}% ({_pct(row.ci_low)}-{_pct(row.ci_high)}) of {num_players}-player games"
                f"{where} ({int(row.num_games):,} of {int(group['num_games'].sum()):,})"
            )
        text = f"The turn cap ended {'; '.join(ended)}; they were scored as they stood, not by the rules' end."
        if by:
            rest = part[~part[by].isin(capped[by])]
            if len(rest):
                rest_total = int(rest["num_games"].sum())
                upper = wilson_confint(np.array([0.0]), np.array([float(rest_total)]), alpha)[1][0]
                text += (
                    f" No other {num_players}-player game hit it (0 of {rest_total:,} in "
                    f"{rest[by].nunique()} other run{'s' if rest[by].nunique() > 1 else ''}; at most {_pct(upper)}% "
                    f"at {level} confidence)."
                )
        sentences.append(text)
    return EndReasons(table, " ".join(sentences))


def score_summary(seats: pd.DataFrame, by: str | Sequence[str] = "seat") -> pd.DataFrame:
    """Score distribution and mean score parts, grouped by player count and ``by``.

    Required columns: ``game``, ``num_players``, ``score`` and the ``by`` columns; every
    ``score_*`` column (the parts of the score) present is averaged too.

    Returns one row per group: ``num_games`` (seat rows), ``score_mean``, ``score_sd``,
    ``score_min``, ``score_max``, ``score_p05``, ``score_p25``, ``score_median``,
    ``score_p75``, ``score_p95``, ``margin_mean`` (points over the other seats' mean) and
    ``<part>_mean`` for each ``score_*`` part (points).
    """
    by_cols = [by] if isinstance(by, str) else list(by)
    require_columns(seats, ["game", "num_players", "score", *by_cols], "seats")
    keys = ["num_players", *[c for c in by_cols if c != "num_players"]]
    parts = [c for c in seats.columns if c.startswith("score_")]
    frame = seats[keys + ["score"] + parts].assign(margin=seat_margins(seats))
    out = _quantile_frame(frame, keys, "score", "score")
    grouped = frame.groupby(keys, observed=True, sort=True)
    means = grouped[["margin", *parts]].mean()
    means.columns = [f"{c}_mean" for c in means.columns]
    out = out.join(grouped.size().rename("num_games")).join(means).reset_index()
    first = [*keys, "num_games"]
    return out[first + [c for c in out.columns if c not in first]]
