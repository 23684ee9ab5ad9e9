"""How a game feels, from its trajectories: does the leader win, how often the lead changes, can a player behind
come back, when is the game decided, how long it runs and how it ends (``docs/game-feel.md``).

Every function takes the run tables as DataFrames: ``trajectories`` (``game``, ``seat``, ``score``: a list, the
seat's score at the end of each round, as ``analysis.load_run(..., tables=["trajectories"])`` reads it) and
``seats`` (``game``, ``seat``, ``num_players``, ``bot``, ``win``). Games are grouped by ``num_players`` and
``bots`` (the bot labels of the game, distinct and sorted, joined by ``" + "``: one label for a mirror match, so a
ladder rung). Shares of games (the leader wins, no lead change, a comeback) have Wilson intervals, which keep their
level where the share is near 0 or 1 and the sample shows no variation (a percentile bootstrap gives such a sample a
zero-width interval); means of counts and of game shares have percentile bootstraps over games (``alpha``
two-sided).

Ties are explicit. A lead shared by k seats credits each of them 1/k of its win (the leader-win share is the chance
that a leader picked at random among those tied wins); a lead changes hands only when another seat leads alone;
a seat's ``win`` is 1/k of a tie shared by k seats (the run format's), so a comeback counts shared wins by their
share; the decisive round is measured in games with one winner.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from statsmodels.stats.weightstats import DescrStatsW

from analysis.stats._util import (
    bootstrap_mean_confint,
    check_alpha,
    constant_confint,
    ensure_rng,
    require_columns,
    wilson_confint,
)

__all__ = [
    "FeelArrays",
    "comeback",
    "end_triggers",
    "feel_arrays",
    "feel_summary",
    "game_length",
    "leader_wins",
    "notable_games",
]

TRAJECTORY_COLUMNS = ("game", "seat", "score")
SEAT_COLUMNS = ("game", "seat", "num_players", "bot", "win")
KEYS = ["num_players", "bots"]
NUM_RESAMPLES = 1000
SHARES = ("first_leader", "first_ahead", "half_leader", "no_lead_change")
"""The measures of :func:`feel_summary` that are shares of games (Wilson intervals)."""


class FeelArrays(NamedTuple):
    """The trajectories of one group of games (one player count and lineup) as arrays.

    ``score`` (G, R, n) float: seat s's score at the end of round r + 1 of game g, NaN after its last round;
    ``length`` (G,) its rounds; ``win`` (G, n) each seat's share of the win; ``game`` (G,) the game ids.
    """

    num_players: int
    bots: str
    game: np.ndarray
    score: np.ndarray
    length: np.ndarray
    win: np.ndarray


def feel_arrays(trajectories: pd.DataFrame, seats: pd.DataFrame) -> list[FeelArrays]:
    """The trajectories as arrays, one :class:`FeelArrays` per player count and lineup (``KEYS``).

    Required columns: ``trajectories`` ``game``, ``seat``, ``score`` (a list per row); ``seats`` ``game``,
    ``seat``, ``num_players``, ``bot``, ``win``. Raises ``ValueError`` when a game's seats differ in rounds or
    a seat of ``seats`` has no trajectory.
    """
    require_columns(trajectories, TRAJECTORY_COLUMNS, "trajectories")
    require_columns(seats, SEAT_COLUMNS, "seats")
    traj = trajectories[list(TRAJECTORY_COLUMNS)].sort_values(["game", "seat"], kind="stable", ignore_index=True)
    seat = seats[list(SEAT_COLUMNS)].sort_values(["game", "seat"], kind="stable", ignore_index=True)
    if len(traj) != len(seat) or not (
        np.array_equal(traj["game"].to_numpy(), seat["game"].to_numpy())
        and np.array_equal(traj["seat"].to_numpy(), seat["seat"].to_numpy())
    ):
        raise ValueError("trajectories and seats must hold the same seat rows (one trajectory per seat per game)")
    bots = _lineups(seat)
    out = []
    for (n, label), rows in seat.assign(bots=bots).groupby(KEYS, observed=True, sort=True):
        n = int(n)
        idx = rows.index
        lists = traj.loc[idx, "score"].to_numpy()
        lengths = np.fromiter((len(v) for v in lists), np.int64, len(lists)).reshape(-1, n)
        if (lengths != lengths[:, :1]).any():
            raise ValueError("a game's seats differ in rounds recorded")
        length = lengths[:, 0]
        g, r = len(length), int(length.max(initial=0))
        score = np.full((g, n, r), np.nan)
        kept = np.arange(r)[None, None, :] < length[:, None, None]
        flat = np.concatenate([np.asarray(v, float) for v in lists]) if len(lists) else np.zeros(0)
        score[np.broadcast_to(kept, score.shape)] = flat
        out.append(
            FeelArrays(
                n,
                str(label),
                rows["game"].to_numpy()[::n],
                score.transpose(0, 2, 1),
                length,
                rows["win"].to_numpy(float).reshape(-1, n),
            )
        )
    return out


def _lineups(seat: pd.DataFrame) -> np.ndarray:
    """The lineup label of each seat row's game: its distinct bot labels, sorted, joined by ' + '."""
    codes, labels = pd.factorize(seat["bot"].astype(str), sort=True)
    game_codes, games = pd.factorize(seat["game"])
    present = np.zeros((len(games), len(labels)), bool)
    present[game_codes, codes] = True
    kinds, kind_of_game = np.unique(present, axis=0, return_inverse=True)
    names = np.array([" + ".join(labels[row]) for row in kinds], dtype=object)
    return names[kind_of_game.ravel()][game_codes]


def _leaders(score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per game and round: whether each seat holds the top score (G, R, n), and the seats holding it (G, R)."""
    with np.errstate(invalid="ignore"):
        top = np.nanmax(np.where(np.isnan(score), -np.inf, score), axis=2)
        is_top = score == top[:, :, None]
    return is_top, is_top.sum(axis=2)


def _leader_credit(a: FeelArrays) -> np.ndarray:
    """(G, R): the win share of a leader picked at random among those tied for the top score; NaN past a game."""
    is_top, k = _leaders(a.score)
    with np.errstate(invalid="ignore", divide="ignore"):
        credit = (is_top * a.win[:, None, :]).sum(axis=2) / k
    return np.where(np.arange(a.score.shape[1])[None, :] < a.length[:, None], credit, np.nan)


def _sole_leader(a: FeelArrays) -> np.ndarray:
    """(G, R): the seat leading alone at each round, -1 for a shared lead or past the game's end."""
    is_top, k = _leaders(a.score)
    leader = np.where(k == 1, is_top.argmax(axis=2), -1)
    return np.where(np.arange(a.score.shape[1])[None, :] < a.length[:, None], leader, -1)


def _lead_changes(a: FeelArrays) -> np.ndarray:
    """(G,): times the sole leader changed (a shared lead keeps the last sole leader)."""
    leader = _sole_leader(a)
    changes = np.zeros(len(leader), np.int64)
    last = np.full(len(leader), -1)
    for r in range(leader.shape[1]):
        now = leader[:, r]
        alone = now >= 0
        changes += alone & (last >= 0) & (now != last)
        last = np.where(alone, now, last)
    return changes


def _first_ahead(a: FeelArrays) -> np.ndarray:
    """(G,): the win share of the first seat to lead alone; NaN in a game no seat ever led alone."""
    leader = _sole_leader(a)
    alone = leader >= 0
    first = alone.argmax(axis=1)
    seat = leader[np.arange(len(leader)), first] if leader.shape[1] else np.zeros(0, np.int64)
    ever = alone.any(axis=1)
    return np.where(ever, a.win[np.arange(len(seat)), np.maximum(seat, 0)], np.nan)


def _decided_share(a: FeelArrays) -> np.ndarray:
    """(G,): the round from which the sole winner leads alone to the end, over the game's rounds; NaN without a
    sole winner."""
    leader = _sole_leader(a)
    sole = np.isclose(a.win, 1.0)
    has_winner = sole.any(axis=1)
    winner = sole.argmax(axis=1)
    rounds = np.arange(leader.shape[1])[None, :]
    not_leading = (leader != winner[:, None]) & (rounds < a.length[:, None])
    last_not = np.where(not_leading.any(axis=1), leader.shape[1] - 1 - not_leading[:, ::-1].argmax(axis=1), -1)
    decided = np.minimum(last_not + 2, a.length)  # 1-based round after the last one it did not lead alone
    with np.errstate(invalid="ignore", divide="ignore"):
        share = decided / a.length
    return np.where(has_winner & (a.length > 0), share, np.nan)


def _interval(values: np.ndarray, alpha: float, rng: np.random.Generator) -> tuple[float, float, float]:
    """The mean of a measure over games and its percentile bootstrap interval."""
    values = values[np.isfinite(values)]
    if not len(values):
        return np.nan, np.nan, np.nan
    low, high = bootstrap_mean_confint(values, alpha, NUM_RESAMPLES, rng)
    return float(values.mean()), low, high


def _share_interval(values: np.ndarray, alpha: float) -> tuple[float, float, float]:
    """The mean of a share in [0, 1] over games and its Wilson interval (a shared win counts its fraction)."""
    values = values[np.isfinite(values)]
    if not len(values):
        return np.nan, np.nan, np.nan
    low, high = wilson_confint(np.array([values.sum()]), np.array([len(values)]), alpha)
    return float(values.mean()), float(low[0]), float(high[0])


def _fraction_interval(values: np.ndarray, alpha: float, rng: np.random.Generator) -> tuple[float, float, float]:
    """The mean of a fraction in [0, 1] per game: bootstrap, or where every game gave the same value the exact bound
    of :func:`analysis.stats._util.constant_confint` (a zero-width interval would claim every other game alike)."""
    values = values[np.isfinite(values)]
    if len(values) > 1 and np.ptp(values) == 0:
        low, high = constant_confint(values[0], len(values), 0.0, 1.0, alpha)
        return float(values[0]), float(low), float(high)
    return _interval(values, alpha, rng)


def feel_summary(
    trajectories: pd.DataFrame,
    seats: pd.DataFrame,
    alpha: float = 0.05,
    random_state: int | np.random.Generator | None = 0,
) -> pd.DataFrame:
    """The game-feel measures of each player count and lineup, with their intervals (Wilson for the shares of games
    :data:`SHARES`, bootstrap over games for the rest).

    Required columns: as :func:`feel_arrays`.

    Returns one row per ``num_players`` and ``bots``: ``num_games``; ``rounds`` (mean rounds a game); ``first_leader``
    (the leader-win share after the first round); ``first_ahead`` (the win share of the first seat to lead alone,
    in games where one did: round 1 often ends level); ``half_leader`` (after the round at half the median length);
    ``lead_changes`` (mean a game); ``no_lead_change`` (share of games whose sole leader never changes);
    ``decided`` (mean share of the game played when the winner takes the lead for good; games with one winner);
    each with ``<measure>_low``, ``<measure>_high``.
    """
    check_alpha(alpha)
    rng = ensure_rng(random_state)
    rows = []
    for a in feel_arrays(trajectories, seats):
        credit = _leader_credit(a)
        half = max(int(np.median(a.length)) // 2, 1) if len(a.length) else 1
        changes = _lead_changes(a).astype(float)
        measures = {
            "rounds": a.length.astype(float),
            "first_leader": credit[:, 0] if credit.shape[1] else np.zeros(0),
            "first_ahead": _first_ahead(a),
            "half_leader": credit[:, half - 1] if credit.shape[1] >= half else np.zeros(0),
            "lead_changes": changes,
            "no_lead_change": (changes == 0).astype(float),
            "decided": _decided_share(a),
        }
        row: dict[str, object] = {"num_players": a.num_players, "bots": a.bots, "num_games": len(a.length)}
        row["half_round"] = half
        for name, values in measures.items():
            if name in SHARES:
                row[name], row[f"{name}_low"], row[f"{name}_high"] = _share_interval(values, alpha)
            elif name == "decided":
                row[name], row[f"{name}_low"], row[f"{name}_high"] = _fraction_interval(values, alpha, rng)
            else:
                row[name], row[f"{name}_low"], row[f"{name}_high"] = _interval(values, alpha, rng)
        rows.append(row)
    return pd.DataFrame(rows)


def leader_wins(
    trajectories: pd.DataFrame,
    seats: pd.DataFrame,
    alpha: float = 0.05,
    min_games: int = 30,
) -> pd.DataFrame:
    """The share of games won by the leader at each round: when is the game decided.

    Required columns: as :func:`feel_arrays`. A late round reached by few (long) games says little of the game:
    rounds reached by fewer than ``min_games`` games are left out.

    Returns one row per ``num_players``, ``bots`` and ``round`` (1-based) that at least ``min_games`` games reached:
    ``num_games`` (games that reached it), ``leader_win`` (a leader picked at random among those tied for the top
    score wins, their mean), ``low``, ``high`` (bootstrap over those games), ``tied_lead`` (share of them with the
    lead shared).
    """
    check_alpha(alpha)
    rows = []
    for a in feel_arrays(trajectories, seats):
        credit = _leader_credit(a)
        _, k = _leaders(a.score)
        for r in range(credit.shape[1]):
            reached = a.length > r
            if reached.sum() < min_games:
                break
            mean, low, high = _share_interval(credit[reached, r], alpha)
            rows.append(
                {
                    "num_players": a.num_players,
                    "bots": a.bots,
                    "round": r + 1,
                    "num_games": int(reached.sum()),
                    "leader_win": mean,
                    "low": low,
                    "high": high,
                    "tied_lead": float((k[reached, r] > 1).mean()),
                }
            )
    columns = ["num_players", "bots", "round", "num_games", "leader_win", "low", "high", "tied_lead"]
    return pd.DataFrame(rows, columns=columns)


def comeback(
    trajectories: pd.DataFrame,
    seats: pd.DataFrame,
    rounds: int | list[int] = 4,
    max_deficit: int | None = None,
    min_obs: int = 30,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """The comeback curve: P(win | behind the leader by d at the end of round r).

    Required columns: as :func:`feel_arrays`. ``rounds``: the rounds to read (1-based), or a count k for k
    rounds spread evenly over the median game: rounds ``median * j / (k + 1)``, j = 1..k.
    ``max_deficit`` caps d (default: every d with ``min_obs`` seat-rounds). A seat behind by d = 0 leads (alone or
    tied). The interval is Wilson's over the cell's seat-rounds (a shared win counting its fraction): a cell where
    no seat came back, or every one did, still gets an interval that covers a true 2-5% (a percentile bootstrap gave
    it zero width). Two seats of one game in the same cell are at most one winner, so they err on the wide side.

    Returns one row per ``num_players``, ``bots``, ``round`` and ``deficit`` with at least ``min_obs`` seat-rounds:
    ``num_obs``, ``p_win`` (the seats' mean share of the win), ``low``, ``high``.
    """
    check_alpha(alpha)
    rows = []
    for a in feel_arrays(trajectories, seats):
        g, r_max, n = a.score.shape
        if not g or not r_max:
            continue
        wanted = _comeback_rounds(a.length, rounds, r_max)
        top = np.nanmax(np.where(np.isnan(a.score), -np.inf, a.score), axis=2)
        deficit = top[:, :, None] - a.score  # NaN past a game's end
        cells, obs_cell, obs_win = [], [], []
        for r in wanted:
            d = deficit[:, r - 1, :]
            ok = np.isfinite(d)
            if max_deficit is not None:
                ok &= d <= max_deficit
            games, seat_idx = np.nonzero(ok)
            values = d[games, seat_idx].astype(np.int64)
            for v in np.unique(values):
                cells.append((r, int(v)))
                hit = values == v
                obs_cell.append(np.full(int(hit.sum()), len(cells) - 1))
                obs_win.append(a.win[games[hit], seat_idx[hit]])
        if not cells:
            continue
        cell_idx, win = np.concatenate(obs_cell), np.concatenate(obs_win)
        counts = np.bincount(cell_idx, minlength=len(cells))
        wins = np.bincount(cell_idx, weights=win, minlength=len(cells))
        low, high = wilson_confint(wins, counts, alpha)
        for c, (r, d) in enumerate(cells):
            if counts[c] >= min_obs:
                rows.append(
                    {
                        "num_players": a.num_players,
                        "bots": a.bots,
                        "round": r,
                        "deficit": d,
                        "num_obs": int(counts[c]),
                        "p_win": wins[c] / counts[c],
                        "low": low[c],
                        "high": high[c],
                    }
                )
    columns = ["num_players", "bots", "round", "deficit", "num_obs", "p_win", "low", "high"]
    return pd.DataFrame(rows, columns=columns)


def notable_games(trajectories: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """The games worth watching in each group (player count and lineup): the largest comeback and a typical game.

    Required columns: as :func:`feel_arrays`. The largest comeback is the game whose sole winner was furthest
    behind the leader at the end of some round (the deficit in the trajectories' unit; ties: the earliest round,
    then the lowest game id); a group where every sole winner led throughout has none. The typical game is one of
    the median length whose winning margin (the winner's final score over the best other's) is closest to the
    median margin of the group's games with a sole winner (ties: the lowest game id).

    Returns one row per group and kind: ``num_players``, ``bots``, ``kind`` (``"comeback"`` or ``"typical"``),
    ``game``, ``seat`` (the winner's), ``deficit`` and ``round`` (the comeback's largest deficit and the round it
    was at; for the typical game its largest deficit too), ``rounds`` (the game's length), ``margin``.
    """
    rows = []
    for a in feel_arrays(trajectories, seats):
        g, r_max, n = a.score.shape
        sole = np.isclose(a.win, 1.0)
        keep = np.flatnonzero(sole.any(axis=1))
        if not len(keep) or not r_max or n < 2:
            continue
        winner = sole[keep].argmax(axis=1)
        score = np.where(np.isnan(a.score[keep]), -np.inf, a.score[keep])  # (G', R, n)
        mine = score[np.arange(len(keep)), :, winner]  # (G', R): the winner's score each round
        others = score.copy()
        others[np.arange(len(keep)), :, winner] = -np.inf
        best_other = others.max(axis=2)
        played = np.arange(r_max)[None, :] < a.length[keep, None]
        with np.errstate(invalid="ignore"):  # past a game's end both are -inf
            gap = np.where(played, best_other - mine, -np.inf)
        final = a.length[keep] - 1
        group = pd.DataFrame(
            {
                "num_players": a.num_players,
                "bots": a.bots,
                "game": a.game[keep].astype(np.int64),
                "seat": winner + 1,
                "deficit": gap.max(axis=1),
                "round": gap.argmax(axis=1) + 1,
                "rounds": a.length[keep].astype(np.int64),
                "margin": -gap[np.arange(len(keep)), final],
            }
        )
        if group["deficit"].max() > 0:
            come = group.sort_values(["deficit", "round", "game"], ascending=[False, True, True]).iloc[:1]
            rows.append(come.assign(kind="comeback"))
        usual = group[(group["rounds"] - group["rounds"].median()).abs().pipe(lambda d: d == d.min()).to_numpy()]
        off = (usual["margin"] - group["margin"].median()).abs()
        rows.append(
            usual.assign(off=off).sort_values(["off", "game"]).iloc[:1].drop(columns="off").assign(kind="typical")
        )
    columns = ["num_players", "bots", "kind", "game", "seat", "deficit", "round", "rounds", "margin"]
    if not rows:
        return pd.DataFrame(columns=columns)
    return pd.concat(rows, ignore_index=True)[columns]


def _comeback_rounds(length: np.ndarray, rounds: int | list[int], r_max: int) -> list[int]:
    if isinstance(rounds, int):
        median = max(int(np.median(length)), 1)
        picked = {max(1, round(median * j / (rounds + 1))) for j in range(1, rounds + 1)}
        return sorted(r for r in picked if r <= r_max)
    return sorted(r for r in set(rounds) if 1 <= r <= r_max)


def end_triggers(games: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """The share of games ending by each ``end_reason`` (the rules' trigger, the turn cap, ...).

    Required columns: ``num_players``, ``end_reason``. Returns one row per ``num_players`` and ``end_reason``:
    ``num_games``, ``share``, ``low``, ``high`` (Wilson: games are independent draws, one end each).
    """
    check_alpha(alpha)
    require_columns(games, ["num_players", "end_reason"], "games")
    frame = games[["num_players"]].assign(end_reason=games["end_reason"].astype(str))
    counts = frame.groupby(["num_players", "end_reason"], sort=True).size().rename("num_games").reset_index()
    totals = counts.groupby("num_players")["num_games"].transform("sum").to_numpy()
    counts["share"] = counts["num_games"] / totals
    counts["low"], counts["high"] = wilson_confint(counts["num_games"].to_numpy(), totals, alpha)
    return counts


LENGTH_COLUMNS = ("game", "num_players", "turns", "rounds")


def game_length(
    games: pd.DataFrame,
    seats: pd.DataFrame,
    playing_time: dict | None = None,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """How long the games run, in turns and rounds and, with a ``playing_time``, in estimated minutes at a table
    against the box's playing time.

    Required columns: ``games`` ``game``, ``num_players``, ``turns``, ``rounds`` (a run's games table); ``seats``
    ``game``, ``bot`` (to name each game's lineup). ``playing_time``: ``box_minutes`` [low, high],
    ``seconds_per_turn``, ``seconds_per_round`` (``simulate.datafiles.read_playing_time``); a game's minutes are
    (turns x seconds_per_turn + rounds x seconds_per_round) / 60. Intervals are t intervals of the mean over games
    (independent games, means of thousands: the bootstrap's answer at a fraction of its cost).

    Returns one row per ``num_players`` and ``bots``: ``num_games``, ``turns``, ``turns_low``, ``turns_high``,
    ``rounds``; with a playing time also ``minutes``, ``minutes_low``, ``minutes_high``, ``box_low``, ``box_high``,
    ``implied_low``, ``implied_high`` (the seconds a turn may take for the mean game to last the box's low and high
    minutes, the rounds' time taken out first) and ``verdict`` (``"shorter"``, ``"within"`` or ``"longer"`` than the
    box: the interval below, overlapping or above its range).
    """
    check_alpha(alpha)
    require_columns(games, LENGTH_COLUMNS, "games")
    require_columns(seats, ["game", "bot"], "seats")
    seat = seats[["game", "bot"]].drop_duplicates()
    label = pd.Series(_lineups(seat), index=seat["game"].to_numpy()).groupby(level=0).first()
    frame = games[list(LENGTH_COLUMNS)].assign(bots=label.reindex(games["game"].to_numpy()).to_numpy())
    frame = frame[frame["bots"].notna().to_numpy()]
    rows = []
    for (n, bots), part in frame.groupby(KEYS, observed=True, sort=True):
        turns = part["turns"].to_numpy(float)
        rounds = part["rounds"].to_numpy(float)
        row: dict[str, object] = {"num_players": int(n), "bots": str(bots), "num_games": len(part)}
        row["turns"], row["turns_low"], row["turns_high"] = _t_interval(turns, alpha)
        row["rounds"] = float(rounds.mean())
        if playing_time is not None:
            per_turn, per_round = float(playing_time["seconds_per_turn"]), float(playing_time["seconds_per_round"])
            box_low, box_high = (float(v) for v in playing_time["box_minutes"])
            minutes = (turns * per_turn + rounds * per_round) / 60
            row["minutes"], row["minutes_low"], row["minutes_high"] = _t_interval(minutes, alpha)
            row["box_low"], row["box_high"] = box_low, box_high
            with np.errstate(divide="ignore"):
                row["implied_low"] = (box_low * 60 - row["rounds"] * per_round) / row["turns"]
                row["implied_high"] = (box_high * 60 - row["rounds"] * per_round) / row["turns"]
            if row["minutes_high"] < box_low:
                row["verdict"] = "shorter"
            elif row["minutes_low"] > box_high:
                row["verdict"] = "longer"
            else:
                row["verdict"] = "within"
        rows.append(row)
    columns = ["num_players", "bots", "num_games", "turns", "turns_low", "turns_high", "rounds"]
    if playing_time is not None:
        columns += ["minutes", "minutes_low", "minutes_high", "box_low", "box_high", "implied_low", "implied_high"]
        columns += ["verdict"]
    return pd.DataFrame(rows, columns=columns)


def _t_interval(values: np.ndarray, alpha: float) -> tuple[float, float, float]:
    """The mean of ``values`` and its t interval (statsmodels); a single value or no spread: the value itself."""
    mean = float(values.mean())
    if len(values) < 2 or not values.std() > 0:
        return mean, mean, mean
    low, high = DescrStatsW(values).tconfint_mean(alpha)
    return mean, float(low), float(high)
