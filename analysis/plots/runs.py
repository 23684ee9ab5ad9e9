"""Matplotlib plots of the analysis tables: ``plot_<thing>(df, ..., ax=None) -> Axes``.

Each function takes the DataFrame produced by the matching statistic (or a run table), draws on
``ax`` or, when ``ax`` is None, on a new figure, and returns the Axes. Data are prepared before
anything is drawn. Rates are shown in percent, scores in points (or the unit given).
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from analysis.stats._util import require_columns

__all__ = [
    "plot_comeback",
    "plot_component_forest",
    "plot_convergence",
    "plot_game_lengths",
    "plot_head_to_head",
    "plot_ladder_ratings",
    "plot_ladder_seats",
    "plot_leader_wins",
    "plot_ratings",
    "plot_score_distributions",
    "plot_seat_win_rates",
    "plot_setup_caterpillar",
    "plot_skill_ladder",
]


def new_axes(ax: Axes | None, figsize: tuple[float, float]) -> Axes:
    if ax is None:
        _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _one_player_count(df: pd.DataFrame, num_players: int | None, what: str) -> tuple[pd.DataFrame, int]:
    counts = sorted(df["num_players"].unique())
    if not counts:
        raise ValueError(f"no rows to plot in {what}")
    chosen = counts[0] if num_players is None else num_players
    if chosen not in counts:
        raise ValueError(f"{what} has no {num_players}-player rows (has {counts})")
    return df[df["num_players"] == chosen], int(chosen)


def plot_seat_win_rates(
    table: pd.DataFrame,
    ax: Axes | None = None,
    *,
    title: str | None = None,
    show_fair: bool = True,
    color: str | None = None,
) -> Axes:
    """Win rate by seat with interval bars against the fair share 1/n.

    Required columns (``win_rates(seats, "seat")`` or ``seat_advantage(...).table``):
    ``num_players``, ``seat``, ``win_rate``, ``ci_low``, ``ci_high``, ``fair``. Several player
    counts are drawn side by side, each with its own fair line.
    """
    require_columns(table, ["num_players", "seat", "win_rate", "ci_low", "ci_high", "fair"], "table")
    counts = sorted(table["num_players"].unique())
    width = 0.8 / max(len(counts), 1)
    series = []
    for i, n in enumerate(counts):
        part = table[table["num_players"] == n].sort_values("seat")
        x = part["seat"].to_numpy(dtype=float) + (i - (len(counts) - 1) / 2) * width
        y = 100 * part["win_rate"].to_numpy()
        # clipped at 0: an interval ending at the estimate (no wins, or all) can miss it by a rounding error
        err = np.clip(np.vstack([y - 100 * part["ci_low"].to_numpy(), 100 * part["ci_high"].to_numpy() - y]), 0, None)
        series.append((n, x, y, err, 100 * float(part["fair"].iloc[0])))
    ax = new_axes(ax, (6, 4))
    for n, x, y, err, fair in series:
        label = f"{n} players" if len(counts) > 1 else "win rate"
        lines = ax.errorbar(x, y, yerr=err, fmt="o", capsize=4, color=color, label=label)
        if show_fair and np.isfinite(fair):  # solo games have no fair share
            ax.hlines(
                fair,
                x.min() - 0.4,
                x.max() + 0.4,
                linestyles="--",
                colors=lines[0].get_color(),
                label=f"fair {fair:.1f}%" + (f" ({n} players)" if len(counts) > 1 else ""),
            )
    seats = sorted(table["seat"].unique())
    ax.set_xticks(seats)
    ax.set_xlabel("seat (1 = first player)")
    ax.set_ylabel("win rate (%)")
    ax.set_title(title or "Win rate by seat with confidence intervals")
    ax.legend(frameon=False)
    return ax


def plot_score_distributions(
    seats: pd.DataFrame,
    ax: Axes | None = None,
    *,
    by: str = "seat",
    num_players: int | None = None,
    bins: int | Sequence[float] | None = None,
    cumulative: bool = False,
    title: str | None = None,
    unit: str = "points",
) -> Axes:
    """Distribution of final scores, one step line per seat (or per ``by`` value).

    Required columns: ``num_players``, ``score`` and ``by``. One player count is drawn (the
    smallest, or ``num_players``). Integer scores get one bin per point unless ``bins`` is given;
    ``cumulative=True`` draws the empirical distribution function; ``unit`` labels the score axis.
    """
    require_columns(seats, ["num_players", "score", by], "seats")
    part, n = _one_player_count(seats, num_players, "seats")
    score = part["score"].to_numpy(dtype=float)
    if bins is None:
        lo, hi = np.floor(score.min()), np.ceil(score.max())
        edges = np.arange(lo - 0.5, hi + 1.5) if hi - lo <= 300 else np.linspace(lo, hi, 101)
    else:
        edges = np.histogram_bin_edges(score, bins=bins)
    codes, groups = pd.factorize(part[by], sort=True)
    curves = []
    for i, group in enumerate(groups):  # one curve per seat or bot
        counts, _ = np.histogram(score[codes == i], bins=edges)
        share = 100 * counts / max(counts.sum(), 1)
        curves.append((group, np.cumsum(share) if cumulative else share))
    ax = new_axes(ax, (7, 4))
    for group, share in curves:
        label = f"seat {group}" if by == "seat" else str(group)
        ax.stairs(share, edges, label=label, linewidth=1.5)
    ax.set_xlabel(f"final score ({unit})")
    ax.set_ylabel("games at or below score (%)" if cumulative else "share of games (%)")
    ax.set_title(title or f"Final score distribution by {by}, {n}-player games")
    ax.legend(frameon=False)
    return ax


def plot_setup_caterpillar(
    balance: pd.DataFrame,
    ax: Axes | None = None,
    *,
    num_players: int | None = None,
    max_setups: int = 200,
    show_shrunk: bool = True,
    title: str | None = None,
) -> Axes:
    """Caterpillar plot: each setup's seat advantage with its interval, sorted.

    Required columns (``setup_balance``): ``num_players``, ``setup_id``, ``seat``, ``outcome``,
    ``advantage``, ``ci_low``, ``ci_high``, ``shrunk``. With more than ``max_setups`` setups an
    evenly spaced subset of the ranking (keeping both ends) is drawn.
    """
    require_columns(
        balance,
        ["num_players", "setup_id", "seat", "outcome", "advantage", "ci_low", "ci_high", "shrunk"],
        "balance",
    )
    part, n = _one_player_count(balance, num_players, "balance")
    part = part.sort_values(["shrunk", "advantage"], kind="stable").reset_index(drop=True)
    total = len(part)
    if total > max_setups:
        part = part.iloc[np.unique(np.linspace(0, total - 1, max_setups).round().astype(int))]
    outcome = str(part["outcome"].iloc[0])
    scale = 100.0 if outcome == "win" else 1.0
    x = np.arange(len(part))
    y = scale * part["advantage"].to_numpy()
    low, high = scale * part["ci_low"].to_numpy(), scale * part["ci_high"].to_numpy()
    shrunk = scale * part["shrunk"].to_numpy()
    seat = int(part["seat"].iloc[0])
    ax = new_axes(ax, (8, 4))
    ax.vlines(x, low, high, colors="0.6", linewidth=0.8, label="interval")
    ax.plot(x, y, "o", markersize=3, color="C0", label="setup mean")
    if show_shrunk:
        ax.plot(x, shrunk, "_", markersize=6, color="C3", label="shrunk estimate")
    ax.axhline(0, color="k", linestyle="--", linewidth=1, label="fair")
    shown = f" ({len(part)} of {total} shown)" if total > len(part) else ""
    ax.set_xlabel(f"setups, sorted by shrunk advantage{shown}")
    unit = "win rate minus fair share (percentage points)" if outcome == "win" else "score margin (points)"
    ax.set_ylabel(f"seat {seat} {unit}")
    ax.set_title(title or f"Seat {seat} advantage by setup, {n}-player games")
    ax.legend(frameon=False, fontsize="small")
    return ax


def plot_head_to_head(
    h2h: pd.DataFrame,
    ax: Axes | None = None,
    *,
    order: Sequence[str] | None = None,
    annotate: bool = True,
    cmap: str = "RdBu_r",
    title: str | None = None,
) -> Axes:
    """Heatmap of head-to-head win rates: row bot finishing above column bot.

    Required columns (``head_to_head``): ``bot``, ``opponent``, ``win_rate``. ``order`` fixes
    the bot order (e.g. by Bradley-Terry rating); pairs that never met are blank.
    """
    require_columns(h2h, ["bot", "opponent", "win_rate"], "h2h")
    bots = list(order) if order is not None else sorted(set(h2h["bot"]) | set(h2h["opponent"]))
    matrix = (
        h2h.pivot_table(index="bot", columns="opponent", values="win_rate", aggfunc="mean")
        .reindex(index=bots, columns=bots)
        .to_numpy(dtype=float)
        * 100
    )
    ax = new_axes(ax, (1.2 * len(bots) + 3, 1.0 * len(bots) + 2))
    image = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, vmin=0, vmax=100)
    ax.figure.colorbar(image, ax=ax, label="row bot finishes above column bot (%)")
    if annotate:
        for i in range(len(bots)):
            for j in range(len(bots)):
                if np.isfinite(matrix[i, j]):
                    shade = "white" if abs(matrix[i, j] - 50) > 30 else "black"
                    ax.text(j, i, f"{matrix[i, j]:.0f}", ha="center", va="center", color=shade)
    ax.set_xticks(range(len(bots)), bots, rotation=45, ha="right")
    ax.set_yticks(range(len(bots)), bots)
    ax.set_xlabel("opponent bot")
    ax.set_ylabel("bot")
    ax.set_title(title or "Head-to-head win rate (%)")
    return ax


def plot_ratings(
    ratings: pd.DataFrame, ax: Axes | None = None, *, scale: str = "elo", title: str | None = None
) -> Axes:
    """Bradley-Terry ratings with intervals, strongest at the top.

    Required columns (``bradley_terry``): ``bot`` and, for ``scale="elo"``, ``elo``,
    ``elo_low``, ``elo_high``; for ``scale="logit"``, ``rating``, ``ci_low``, ``ci_high``.
    """
    if scale not in ("elo", "logit"):
        raise ValueError(f"scale must be 'elo' or 'logit', got {scale!r}")
    cols = ["elo", "elo_low", "elo_high"] if scale == "elo" else ["rating", "ci_low", "ci_high"]
    require_columns(ratings, ["bot", *cols], "ratings")
    part = ratings.sort_values(cols[0])
    y = np.arange(len(part))
    est = part[cols[0]].to_numpy()
    err = np.vstack([est - part[cols[1]].to_numpy(), part[cols[2]].to_numpy() - est])
    ax = new_axes(ax, (6, 0.4 * len(part) + 1.5))
    ax.errorbar(est, y, xerr=err, fmt="o", capsize=4)
    ax.set_yticks(y, part["bot"].astype(str))
    ax.set_xlabel("Elo rating (points)" if scale == "elo" else "Bradley-Terry strength (log-odds)")
    ax.set_ylabel("bot")
    ax.set_title(title or "Bot strength (Bradley-Terry) with confidence intervals")
    return ax


def plot_meta_game(weights: pd.DataFrame, ax: Axes | None = None, *, title: str | None = None) -> Axes:
    """The meta-game's equilibrium: each strategy's weight with its bootstrap interval, in the given order.

    Required columns (``analysis.stats.metagame.meta_game(...).weights``): ``strategy``, ``weight``, ``ci_low``,
    ``ci_high``.
    """
    require_columns(weights, ["strategy", "weight", "ci_low", "ci_high"], "weights")
    y = np.arange(len(weights))[::-1]
    est = weights["weight"].to_numpy(dtype=float)
    err = np.clip(np.vstack([est - weights["ci_low"].to_numpy(), weights["ci_high"].to_numpy() - est]), 0, None)
    ax = new_axes(ax, (6, 0.4 * len(weights) + 1.5))
    ax.barh(y, est, xerr=err, capsize=4, color="tab:blue", alpha=0.7)
    ax.set_yticks(y, weights["strategy"].astype(str))
    ax.set_xlim(0, 1)
    ax.set_xlabel("weight in the equilibrium (the mix no strategy beats)")
    ax.set_title(title or "Meta-game equilibrium with bootstrap intervals")
    return ax


def plot_component_forest(
    strength: pd.DataFrame,
    ax: Axes | None = None,
    *,
    metric: str = "win",
    phase: str = "any",
    num_players: int | None = None,
    top: int = 30,
    title: str | None = None,
) -> Axes:
    """Forest plot of component effects: acquired against not acquired, with (adjusted) intervals.

    Required columns (``component_strength``): ``num_players``, ``component``, ``phase``,
    ``win_diff``, ``win_diff_low``, ``win_diff_high`` (``metric="win"``) or ``margin_diff``,
    ``margin_diff_low``, ``margin_diff_high`` (``metric="margin"``), and ``significant``. Shows the
    ``top`` components by absolute effect; significant ones are filled.
    """
    if metric not in ("win", "margin"):
        raise ValueError(f"metric must be 'win' or 'margin', got {metric!r}")
    cols = [f"{metric}_diff", f"{metric}_diff_low", f"{metric}_diff_high"]
    require_columns(strength, ["num_players", "component", "phase", "significant", *cols], "strength")
    part = strength[strength["phase"] == phase]
    part, n = _one_player_count(part, num_players, f"strength (phase {phase})")
    part = part.reindex(part[cols[0]].abs().sort_values(ascending=False).index[:top])
    part = part.sort_values(cols[0])
    scale = 100.0 if metric == "win" else 1.0
    est = scale * part[cols[0]].to_numpy()
    low, high = scale * part[cols[1]].to_numpy(), scale * part[cols[2]].to_numpy()
    y = np.arange(len(part))
    sig = part["significant"].to_numpy(dtype=bool)
    ax = new_axes(ax, (7, 0.28 * len(part) + 1.8))
    ax.hlines(y, low, high, colors="0.5")
    ax.plot(est[sig], y[sig], "o", color="C3", label="significant (adjusted)")
    ax.plot(est[~sig], y[~sig], "o", mfc="white", color="C0", label="not significant")
    ax.axvline(0, color="k", linestyle="--", linewidth=1)
    ax.set_yticks(y, part["component"].astype(str))
    unit = "win rate" if metric == "win" else "score margin"
    ax.set_xlabel(f"{unit}, acquired minus not ({'percentage points' if metric == 'win' else 'points'})")
    ax.set_ylabel("component")
    when = "acquired at any time" if phase == "any" else f"acquired {phase}"
    ax.set_title(title or f"Component association, {when}, {n}-player games\n(association, not cause)")
    ax.legend(frameon=False, fontsize="small")
    return ax


def plot_convergence(
    conv: pd.DataFrame,
    ax: Axes | None = None,
    *,
    show: str = "estimate",
    seats: Sequence[int] | None = None,
    num_players: int | None = None,
    log_x: bool = True,
    title: str | None = None,
) -> Axes:
    """Convergence curve of seat win rates against games played.

    Required columns (``convergence``): ``num_players``, ``seat``, ``num_games``, ``win_rate``,
    ``ci_low``, ``ci_high``, ``width``, ``fair``. ``show="estimate"`` draws each seat's win rate
    with its interval band and the fair line; ``show="width"`` draws the interval width, with the
    1/sqrt(N) slope for reference.
    """
    if show not in ("estimate", "width"):
        raise ValueError(f"show must be 'estimate' or 'width', got {show!r}")
    require_columns(
        conv, ["num_players", "seat", "num_games", "win_rate", "ci_low", "ci_high", "width", "fair"], "conv"
    )
    part, n = _one_player_count(conv, num_players, "conv")
    chosen = sorted(part["seat"].unique()) if seats is None else list(seats)
    lines = [(s, part[part["seat"] == s].sort_values("num_games")) for s in chosen]
    ax = new_axes(ax, (7, 4))
    for seat, line in lines:
        x = line["num_games"].to_numpy()
        if show == "estimate":
            (handle,) = ax.plot(x, 100 * line["win_rate"].to_numpy(), label=f"seat {seat}")
            ax.fill_between(
                x,
                100 * line["ci_low"].to_numpy(),
                100 * line["ci_high"].to_numpy(),
                color=handle.get_color(),
                alpha=0.2,
                linewidth=0,
            )
        else:
            ax.plot(x, 100 * line["width"].to_numpy(), label=f"seat {seat}")
    if show == "estimate":
        ax.axhline(100 * float(part["fair"].iloc[0]), color="k", linestyle="--", linewidth=1, label="fair")
        ax.set_ylabel("win rate (%)")
    else:
        first = lines[0][1]
        x0, w0 = first["num_games"].to_numpy()[0], 100 * first["width"].to_numpy()[0]
        xs = np.array([x0, first["num_games"].max()])
        ax.plot(xs, w0 * np.sqrt(x0 / xs), "k:", label="1/sqrt(N)")
        ax.set_ylabel("confidence interval width (percentage points)")
        if log_x:
            ax.set_yscale("log")
    if log_x:
        ax.set_xscale("log")
    ax.set_xlabel("games played (N)")
    ax.set_title(title or f"Convergence of seat win rates, {n}-player games")
    ax.legend(frameon=False, fontsize="small")
    return ax


def plot_game_lengths(
    games: pd.DataFrame,
    ax: Axes | None = None,
    *,
    unit: str = "turns",
    num_players: int | None = None,
    title: str | None = None,
) -> Axes:
    """Histogram of game length by end reason; turn-cap endings drawn in their own colour.

    Required columns: ``num_players``, ``end_reason`` and ``unit`` (``"turns"`` or ``"rounds"``).
    """
    if unit not in ("turns", "rounds"):
        raise ValueError(f"unit must be 'turns' or 'rounds', got {unit!r}")
    require_columns(games, ["num_players", "end_reason", unit], "games")
    part, n = _one_player_count(games, num_players, "games")
    length = part[unit].to_numpy(dtype=float)
    reason = part["end_reason"].astype(str).to_numpy()
    lo, hi = length.min(), length.max()
    edges = np.arange(lo - 0.5, hi + 1.5) if hi - lo <= 400 else np.linspace(lo, hi, 101)
    bars = []
    for name in sorted(set(reason)):
        counts, _ = np.histogram(length[reason == name], bins=edges)
        bars.append((name, counts))
    ax = new_axes(ax, (7, 4))
    others = iter(["C0", "C1", "C2", "C4", "C5", "C6", "C7", "C8", "C9"] * 2)
    for name, counts in bars:
        ax.stairs(
            counts,
            edges,
            fill=True,
            alpha=0.6,
            label=f"{name} ({counts.sum():,} games)",
            color="C3" if name == "turn_cap" else next(others),  # turn-cap endings always stand out in red
        )
    ax.set_xlabel(f"game length ({unit})")
    ax.set_ylabel("games")
    ax.set_title(title or f"Game length by end reason, {n}-player games")
    ax.legend(frameon=False)
    return ax


def plot_skill_ladder(table: pd.DataFrame, ax: Axes | None = None, *, title: str | None = None) -> Axes:
    """Seat 1's excess win rate (percentage points, with its interval) against the rung, one line per player count.

    Required columns (``analysis.ladder.skill_ladder``): ``num_players``, ``rung``, ``bot``, ``excess``,
    ``excess_low``, ``excess_high``. Rungs run from the weakest bot (left) to the strongest.
    """
    require_columns(table, ["num_players", "rung", "bot", "excess", "excess_low", "excess_high"], "ladder")
    if table.empty:
        raise ValueError("no rows to plot in the ladder")
    rungs = table.drop_duplicates("rung").sort_values("rung")
    position = {r: k for k, r in enumerate(rungs["rung"])}
    counts = sorted(table["num_players"].unique())
    offsets = np.linspace(-0.12, 0.12, len(counts)) if len(counts) > 1 else [0.0]
    ax = new_axes(ax, (6.5, 4.0))
    for n, dx in zip(counts, offsets, strict=True):
        part = table[table["num_players"] == n].sort_values("rung")
        x = np.array([position[r] for r in part["rung"]]) + dx
        y = 100 * part["excess"].to_numpy()
        # clipped at 0: an interval with an end at the estimate (0 or all wins) can differ from it by rounding
        err = 100 * np.clip(
            np.vstack([part["excess"] - part["excess_low"], part["excess_high"] - part["excess"]]), 0, None
        )
        ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=f"{n} players")
    ax.axhline(0.0, color="grey", lw=0.8, ls="--")
    ax.set_xticks(range(len(rungs)), [str(b) for b in rungs["bot"]])
    ax.set_xlabel("rung (weakest to strongest bot)")
    ax.set_ylabel("seat 1 win rate - fair share (pp)")
    ax.legend(fontsize="small")
    ax.set_title(title or "Seat 1's excess win rate up the skill ladder")
    return ax


def plot_seat_excess(table: pd.DataFrame, ax: Axes | None = None, *, title: str | None = None) -> Axes:
    """Each seat's win rate minus its fair share 1/n (pp, with its interval), one series per player count.

    Required columns (``seat_advantage(...).table``): ``num_players``, ``seat``, ``win_rate``, ``ci_low``,
    ``ci_high``, ``fair``. The zero line is a fair game; a seat above it wins more than its share. Solo rows (no
    fair share) are left out.
    """
    require_columns(table, ["num_players", "seat", "win_rate", "ci_low", "ci_high", "fair"], "table")
    table = table[np.isfinite(table["fair"].to_numpy(dtype=float))]
    if table.empty:
        raise ValueError("no seat with a fair share to plot")
    counts = sorted(table["num_players"].unique())
    offsets = np.linspace(-0.15, 0.15, len(counts)) if len(counts) > 1 else [0.0]
    ax = new_axes(ax, (6.5, 4.0))
    for n, dx in zip(counts, offsets, strict=True):
        part = table[table["num_players"] == n].sort_values("seat")
        fair = part["fair"].to_numpy(dtype=float)
        y = 100 * (part["win_rate"].to_numpy(dtype=float) - fair)
        low = 100 * (part["ci_low"].to_numpy(dtype=float) - fair)
        high = 100 * (part["ci_high"].to_numpy(dtype=float) - fair)
        # clipped at 0: an interval with an end at the estimate can differ from it by a rounding error
        err = np.clip(np.vstack([y - low, high - y]), 0, None)
        x = part["seat"].to_numpy(dtype=float) + dx
        ax.errorbar(x, y, yerr=err, fmt="o", capsize=3, label=f"{n} players (fair {100 / n:.1f}%)")
    ax.axhline(0.0, color="grey", lw=0.8, ls="--")
    seats = sorted(table["seat"].unique())
    ax.set_xticks(seats, [str(s) for s in seats])
    ax.set_xlabel("seat (1 = first player)")
    ax.set_ylabel("win rate - fair share (pp)")
    ax.legend(fontsize="small", frameon=False)
    ax.set_title(title or "Each seat's win rate against its fair share")
    return ax


def plot_ladder_seats(
    table: pd.DataFrame,
    ax: Axes | None = None,
    *,
    num_players: int | None = None,
    strongest: Sequence[str] = (),
    unit: str | None = None,
    title: str | None = None,
) -> Axes:
    """Each seat's excess win rate (pp, with its interval) at each rung of the skill ladder, for one player count.

    With ``unit`` (e.g. ``"chips"``) the table holds score margins (``ladder_seats(..., outcome="score")``),
    drawn as they are in that unit.

    Required columns (``analysis.stats.ladder.ladder_seats``): ``num_players``, ``rung``, ``bot``, ``seat``,
    ``excess``, ``excess_low``, ``excess_high``. Rungs run left to right in order of strength; one marker
    series per seat. The rungs named in ``strongest`` (the strong-play answer) are drawn in full and shaded,
    the weaker rungs faded.
    """
    require_columns(table, ["num_players", "rung", "bot", "seat", "excess", "excess_low", "excess_high"], "ladder")
    part, num_players = _one_player_count(table, num_players, "ladder seats")
    rungs = part.drop_duplicates("rung").sort_values("rung")
    position = {r: k for k, r in enumerate(rungs["rung"])}
    seats = sorted(part["seat"].unique())
    offsets = np.linspace(-0.2, 0.2, len(seats)) if len(seats) > 1 else [0.0]
    strong = set(strongest)
    scale = 100.0 if unit is None else 1.0
    ax = new_axes(ax, (6.5, 4.0))
    for k, bot in enumerate(rungs["bot"]):
        if str(bot) in strong:
            ax.axvspan(k - 0.45, k + 0.45, color="gold", alpha=0.18, lw=0)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for s, dx in zip(seats, offsets, strict=True):
        rows = part[part["seat"] == s].sort_values("rung")
        colour = colours[(int(s) - 1) % len(colours)]
        for r in rows.itertuples():
            y = scale * r.excess
            err = np.clip([[scale * (r.excess - r.excess_low)], [scale * (r.excess_high - r.excess)]], 0, None)
            emphasised = str(r.bot) in strong or not strong
            ax.errorbar(
                position[r.rung] + dx,
                y,
                yerr=err,
                fmt="o",
                color=colour,
                alpha=1.0 if emphasised else 0.35,
                ms=6 if emphasised else 4,
                capsize=3,
                label=f"seat {s}" if r.rung == rows["rung"].iloc[-1] else None,
            )
    ax.axhline(0.0, color="grey", lw=0.8, ls="--")
    ax.set_xticks(
        range(len(rungs)),
        [str(b) for b in rungs["bot"]],
        rotation=40,
        ha="right",
        rotation_mode="anchor",
        fontsize="small",
    )
    ax.set_xlabel("rung (weakest to strongest; shaded: strong play)")
    ax.set_ylabel("win rate - fair share (pp)" if unit is None else f"net {unit} vs the other seats")
    ax.legend(fontsize="small", frameon=False, ncols=min(len(seats), 3))
    ax.set_title(title or f"{num_players} players: each seat up the skill ladder")
    return ax


def plot_comeback(
    table: pd.DataFrame,
    ax: Axes | None = None,
    *,
    num_players: int | None = None,
    bots: str | None = None,
    unit: str = "points",
    title: str | None = None,
) -> Axes:
    """The comeback curve: P(win) (percent, with its band) against the deficit to the leader, one line per round.

    Required columns (``analysis.stats.feel.comeback``): ``num_players``, ``bots``, ``round``, ``deficit``,
    ``p_win``, ``low``, ``high``. Draws one player count (the smallest unless ``num_players``) and one lineup
    (the first unless ``bots``).
    """
    require_columns(table, ["num_players", "bots", "round", "deficit", "p_win", "low", "high"], "comeback")
    part, n = _one_player_count(table, num_players, "comeback")
    lineups = sorted(part["bots"].unique())
    chosen = lineups[0] if bots is None else bots
    if chosen not in lineups:
        raise ValueError(f"comeback has no rows of bots {bots!r} (has {lineups})")
    part = part[part["bots"] == chosen]
    curves = [(int(r), rows.sort_values("deficit")) for r, rows in part.groupby("round", sort=True)]
    ax = new_axes(ax, (6.5, 4.0))
    for r, rows in curves:
        (line,) = ax.plot(rows["deficit"], 100 * rows["p_win"], marker="o", ms=3, label=f"after round {r}")
        ax.fill_between(rows["deficit"], 100 * rows["low"], 100 * rows["high"], color=line.get_color(), alpha=0.2)
    ax.axhline(100 / n, color="grey", lw=0.8, ls="--")
    ax.set_xlabel(f"behind the leader by ({unit})")
    ax.set_ylabel("wins (%)")
    ax.legend(fontsize="small", frameon=False)
    ax.set_title(title or f"Comeback: wins by deficit, {n}-player games, {chosen}")
    return ax


def plot_ladder_ratings(
    ratings: pd.DataFrame, rungs: Sequence[str], ax: Axes | None = None, *, title: str | None = None
) -> Axes:
    """The ladder's rating curve: each rung's Elo rating (with its interval) from the weakest rung to the strongest.

    Required columns (``analysis.stats.strategies.bradley_terry``): ``bot``, ``elo``, ``elo_low``, ``elo_high``.
    ``rungs`` orders the bots, weakest first; bots of ``ratings`` not in it are left out.
    """
    require_columns(ratings, ["bot", "elo", "elo_low", "elo_high"], "ratings")
    rated = ratings.assign(bot=ratings["bot"].astype(str)).set_index("bot")
    shown = [r for r in rungs if r in rated.index]
    if not shown:
        raise ValueError("no rung of the ladder has a rating")
    part = rated.loc[shown]
    y = part["elo"].to_numpy()
    err = np.clip(np.vstack([y - part["elo_low"].to_numpy(), part["elo_high"].to_numpy() - y]), 0, None)
    ax = new_axes(ax, (6.5, 4.0))
    ax.errorbar(range(len(shown)), y, yerr=err, marker="o", capsize=3)
    ax.set_xticks(range(len(shown)), shown)
    ax.set_xlabel("rung (weakest to strongest bot)")
    ax.set_ylabel("Elo rating")
    ax.set_title(title or "The ladder's rating curve")
    return ax


def plot_leader_wins(
    table: pd.DataFrame, ax: Axes | None = None, *, num_players: int | None = None, title: str | None = None
) -> Axes:
    """The share of games the leader at each round wins (percent, with its band), one line per lineup.

    Required columns (``analysis.stats.feel.leader_wins``): ``num_players``, ``bots``, ``round``, ``leader_win``,
    ``low``, ``high``. Draws one player count (the smallest unless ``num_players``).
    """
    require_columns(table, ["num_players", "bots", "round", "leader_win", "low", "high"], "leader_wins")
    part, n = _one_player_count(table, num_players, "leader_wins")
    curves = [(str(b), rows.sort_values("round")) for b, rows in part.groupby("bots", sort=True)]
    ax = new_axes(ax, (6.5, 4.0))
    for label, rows in curves:
        (line,) = ax.plot(rows["round"], 100 * rows["leader_win"], label=label)
        ax.fill_between(rows["round"], 100 * rows["low"], 100 * rows["high"], color=line.get_color(), alpha=0.2)
    ax.axhline(100 / n, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("round")
    ax.set_ylabel("games won by the round's leader (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize="small", frameon=False)
    ax.set_title(title or f"Does the leader win? {n}-player games")
    return ax
