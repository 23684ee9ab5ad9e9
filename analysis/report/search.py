"""Report sections of the searches (``golem balance``, ``golem tune``): the search, its confirmation on fresh games,
the tuned bot against its field and the seat balance at the two skill levels.

The searches live in ``simulate.orchestration.balance_search``; these functions take what they found as plain
values and DataFrames and return report items, so every section of every report is written here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from analysis.plots.experiments import plot_search_history, plot_tradeoff
from analysis.report.format import fmt_pct, fmt_pct_ci
from analysis.report.model import Table, Text, make_figure
from analysis.stats.convergence import games_to_settle, more_games_text
from analysis.stats.ladder import CHANGES, HOLDS, effect_levels
from analysis.stats.seats import SeatAdvantage

INFEASIBLE = 1e9
"""Objective of a setting the game rejects: left out of the plots and counted apart."""


def search_items(
    space: Sequence[tuple[str, str, str, str]],
    evaluations: pd.DataFrame,
    current_objective: float,
    best_objective: float,
    description: str,
    budget: int,
    unit: tuple[float, str],
    discrete: bool,
    shown: Callable[[float], str] | None = None,
    tradeoff: bool = True,
) -> list:
    """The search section: space, best setting, progress and (``tradeoff``) trade-off plots.

    ``space`` has one row per searched value: (name, current, candidates, best found); ``evaluations`` one row per
    setting evaluated with ``objective`` and ``num_changed``; ``discrete`` says whether any value is discrete.
    Objectives are drawn times ``unit[0]`` in ``unit[1]`` and written by ``shown`` (default: the same)."""
    scale, name = unit
    shown = shown or (lambda x: f"{scale * x:.2f} {name}")
    items: list = [
        Text(
            f"Objective: {description} (lower is better; drawn in {name}). Optimiser: SciPy differential evolution"
            + (" (integrality constraints for discrete values), " if discrete else ", ")
            + f"{len(evaluations)} distinct settings evaluated "
            f"of a budget of {budget}, every one on the same games (common random numbers)."
        ),
        Table(
            ["value", "current", "candidates", "best found"],
            [list(row) for row in space],
            "Search space and the best setting found.",
        ),
        Text(
            f"On the search games the objective went from {shown(current_objective)} (current values) to "
            f"{shown(best_objective)}. That figure is optimistic (it is the best of many tries on the same "
            "games); the re-measurement on fresh games below is the one to trust.",
            "verdict",
        )
        if best_objective < current_objective
        else Text(
            f"No setting beat the current values on the search games (objective {shown(current_objective)}).",
            "verdict",
        ),
    ]
    feasible = evaluations[evaluations["objective"] < INFEASIBLE]
    rejected = len(evaluations) - len(feasible)
    if rejected:
        items.append(
            Text(f"{rejected} setting(s) the game's data checks reject were skipped (listed in evaluations.csv).")
        )
    shown_evals = feasible.assign(objective=feasible["objective"] * scale)
    ylabel = f"objective ({name}, lower is better)"
    panels = [lambda ax: plot_search_history(shown_evals, ax=ax, ylabel=ylabel)]
    caption = "Search progress: the objective of each setting evaluated, and the best so far."
    if tradeoff and "num_changed" in feasible and feasible["num_changed"].nunique() > 1:
        panels.append(lambda ax: plot_tradeoff(shown_evals, ax=ax, ylabel=ylabel))
        caption = (
            "Search progress, and the trade-off between balance and the number of values changed (the best setting "
            "with at most k changes: how much each further change buys)."
        )
    items.append(make_figure("search.png", caption, panels, ncols=2, size=(5.5, 3.8)))
    return items


def balance_confirmation(
    quantities: dict[str, pd.DataFrame],
    best: str,
    settings: Sequence[tuple[str, Any]],
    num_players: int,
    objective: Callable[[pd.DataFrame], float],
    change: tuple[float, float, float],
    description: str,
    unit: tuple[float, str],
    confirm_games: int,
    seed: int,
    alpha: float,
) -> tuple[Text, str]:
    """The re-measurement of ``golem balance``'s best setting on fresh games: its verdict and the section's finding.

    ``quantities`` holds the confirmation's per-game quantities of ``baseline`` and ``best`` (columns ``seat1``...),
    ``change`` the objective's change with its interval (``change, low, high``), ``seed`` the fresh games' seed."""
    scale, name = unit
    delta, low, high = change
    before, after = objective(quantities["baseline"]), objective(quantities[best])
    verdict = Text(
        f"Re-measured on {confirm_games:,} fresh games (master seed {seed}): the objective is "
        f"{scale * before:.2f} {name} with the current values and {scale * after:.2f} {name} with the best "
        f"setting, a change of {scale * delta:+.2f} {name} ({scale * low:+.2f} to {scale * high:+.2f}, paired "
        f"bootstrap, {100 * (1 - alpha):g}%). The sections below give its effect on every seat and bot "
        "with paired intervals.",
        "verdict",
    )
    seats = [f"seat{s + 1}" for s in range(num_players)]
    rates = [" / ".join(f"{100 * quantities[v][seats].mean()[q]:.1f}%" for q in seats) for v in ("baseline", best)]
    finding = (
        f"Best setting found: {', '.join(f'{k}={v}' for k, v in settings)}. On {confirm_games:,} fresh games "
        f"the seats win {rates[1]} instead of {rates[0]} (seats 1 to {num_players}; fair {100 / num_players:.1f}%); "
        f"{description}: {scale * before:.2f} → {scale * after:.2f} {name} ({scale * delta:+.2f}, "
        f"{scale * low:+.2f} to {scale * high:+.2f})."
    )
    return verdict, finding


def tuned_field_items(
    effect: Any, tuned: str, opponents: Sequence[str], bot_file: str, confirm_games: int, seed: int
) -> tuple[list, str]:
    """``golem tune``'s tuned bot against its field on fresh games: the section's items and its finding.

    ``effect`` is the paired effect's row of the tuned bot's seats (``baseline``, ``variant``, ``diff``, ``ci_low``,
    ``ci_high``: win shares with the defaults and tuned, on the same games)."""
    level = f"{100 * 0.95:g}%"
    items = [
        Text(
            f"On {confirm_games:,} fresh games (master seed {seed}) against {', '.join(opponents)}, the tuned bot "
            f"wins {fmt_pct(effect.variant)} of its seats against {fmt_pct(effect.baseline)} with the defaults: a "
            f"change of {100 * effect.diff:+.1f} pp ({100 * effect.ci_low:+.1f} to {100 * effect.ci_high:+.1f}, "
            f"paired {level} interval, same games).",
            "verdict",
        ),
        Text("Use it with: --bot @" + bot_file),
        Text(tuned, "code"),
    ]
    name, *params = tuned.split(":")
    others = list(dict.fromkeys(opponents))
    field = (
        f"{others[0]} in the other {'seat' if len(opponents) == 1 else f'{len(opponents)} seats'}"
        if len(others) == 1
        else ", ".join(opponents)
    )
    how = f" ({', '.join(params)})" if params else ""
    gain = (
        f"Tuned {name}{how} wins {fmt_pct(effect.variant)} of its seats against {field} instead of "
        f"{fmt_pct(effect.baseline)} with the defaults ({100 * effect.diff:+.1f} pp, {100 * effect.ci_low:+.1f} to "
        f"{100 * effect.ci_high:+.1f}; {confirm_games:,} fresh games)."
    )
    return items, gain


def _strongest(table: pd.DataFrame) -> str:
    """'seat 2 strongest', or 'no seat ahead' where the highest win rate is shared (as printed)."""
    shown = [fmt_pct(x) for x in table["win_rate"]]
    top = max(range(len(shown)), key=lambda k: table["win_rate"].iloc[k])
    return "no seat ahead" if shown.count(shown[top]) > 1 else f"seat {int(table['seat'].iloc[top])} strongest"


def skill_balance_items(levels: Sequence[tuple[str, SeatAdvantage]], num_players: int, confirm_games: int) -> list:
    """Whether the seat-balance verdict holds at both skill levels of ``golem tune`` (``levels``: ("defaults", its
    mirror matches' seat advantage) and ("tuned", ...)): the verdict, the win rates and each level's verdict."""
    level = f"{100 * 0.95:g}%"
    verdicts = [bool(a.tests["significant"].iloc[0]) for _, a in levels]
    signs = [np.sign(a.table["excess"].iloc[0]) for _, a in levels]
    holds = verdicts[0] == verdicts[1] and (not verdicts[0] or signs[0] == signs[1])
    rows = [
        [name, f"seat {int(r.seat)}", fmt_pct(r.win_rate), fmt_pct_ci(r.ci_low, r.ci_high), fmt_pct(r.fair)]
        for name, a in levels
        for r in a.table.itertuples()
    ]
    seats = " and ".join(
        f"{' / '.join(fmt_pct(x) for x in a.table['win_rate'])} {'with the defaults' if name == 'defaults' else name} "
        f"({_strongest(a.table)})"
        for name, a in levels
    )
    if holds:
        verdict = "The seat-balance verdict holds across the two skill levels: " + (
            "no seat advantage is detected at either"
            if not verdicts[0]
            else f"both are unbalanced, seat 1 {'above' if signs[0] > 0 else 'below'} its fair share"
        )
    elif verdicts[0] and verdicts[1]:
        verdict = (
            "The seat-balance verdict does NOT hold across the two skill levels: both are unbalanced, but not the "
            f"same way (seat 1 {'above' if signs[0] > 0 else 'below'} its fair share with the defaults, "
            f"{'above' if signs[1] > 0 else 'below'} it tuned)"
        )
    else:
        verdict = "The seat-balance verdict does NOT hold across the two skill levels: the seats are balanced " + (
            "with the defaults only" if not verdicts[0] else "with the tuned bot only"
        )
    verdict += (
        f". Seats 1 to {num_players} win {seats}; fair {fmt_pct(levels[0][1].table['fair'].iloc[0])} "
        f"(mirror matches, {confirm_games:,} games each)."
    )
    if not holds:
        verdict += " A balance fix measured with the default bot need not carry over to stronger play."
    return [
        Text(verdict, "verdict"),
        Table(["skill level", "seat", "win rate", f"{level} interval", "fair"], rows),
        *[Text(f"{name}: {a.verdict}") for name, a in levels],
    ]


def _level_frame(levels: pd.DataFrame, name: str, unit: tuple[float, str]) -> pd.DataFrame:
    """``levels`` (``rung``, ``num_games``, ``before``, ``after``, ``diff``, ``low``, ``high``) with the columns of
    ``analysis.stats.ladder.effect_levels``."""
    return levels.assign(
        variant_name=name,
        quantity="objective",
        adj_low=levels["low"],
        adj_high=levels["high"],
        significant=(levels["low"] > 0) | (levels["high"] < 0),
        unit="rate" if unit[1] == "pp" else "score",
    )


def _level_rows(
    frame: pd.DataFrame, unit: tuple[float, str], precision: float, better: int
) -> tuple[list[list[str]], list[str]]:
    """One table row a level (rung, games, before, after, change, state) and the unresolved levels with the games
    that would settle them; ``better``: the sign of a change for the better (-1: lower is better)."""
    scale, name = unit
    rows, open_levels = [], []
    for r in frame.itertuples():
        settled = not r.significant and max(abs(r.low), abs(r.high)) <= precision
        if r.significant:
            state = "better" if np.sign(r.diff) == better else "worse"
        elif settled:
            state = "no change"
        else:
            more = float(games_to_settle(r.diff, (r.high - r.low) / 2, r.num_games, precision))
            state = f"unresolved: {more_games_text(more)}"
            open_levels.append(f"{r.rung} ({more_games_text(more)})")
        rows.append(
            [
                r.rung,
                f"{r.num_games:,}",
                f"{scale * r.before:.2f} {name}",
                f"{scale * r.after:.2f} {name}",
                f"{scale * r.diff:+.2f} ({scale * r.low:+.2f} to {scale * r.high:+.2f})",
                state,
            ]
        )
    return rows, open_levels


def fix_levels_items(
    levels: pd.DataFrame, best: str, description: str, unit: tuple[float, str], alpha: float, precision: float
) -> tuple[list, str]:
    """``golem balance``'s best setting confirmed at several skill levels: the verdict, a table and the finding.

    ``levels`` has one row per level (the search's own lineup first): ``rung`` (the bots), ``num_games``, ``before``
    and ``after`` (the objective with the current values and with the fix, on the same fresh games), ``diff``,
    ``low``, ``high`` (the paired change and its interval). The verdict class comes from
    ``analysis.stats.ladder.effect_levels`` (``precision`` in the objective's units: a change settled within it
    of 0 counts as none); an unresolved level says how many more games would settle it."""
    scale, name = unit
    frame = _level_frame(levels, best, unit)
    verdict = effect_levels(frame, precision).iloc[0]["verdict"]
    rows, open_levels = _level_rows(frame, unit, precision, better=-1)
    where = "; ".join(f"{r.rung} {scale * r.diff:+.2f} {name}" for r in frame.itertuples())
    if verdict == HOLDS:
        sign = np.sign(frame["diff"]).iloc[0]
        how = (
            "makes no difference"
            if not frame["significant"].any()
            else ("improves it" if sign < 0 else "makes it worse")
        )
        finding = f"The fix ({best}) {how} at every skill level measured ({where})."
    elif verdict == CHANGES:
        finding = (
            f"The fix ({best}) changes with skill: {where}. A fix tuned on one player need not carry over to "
            "another: weigh the strongest level most."
        )
    else:
        finding = (
            f"Whether the fix ({best}) holds at every skill level is unresolved ({where}); more games would "
            f"settle it at {', '.join(open_levels)}."
        )
    level = f"{100 * (1 - alpha):g}%"
    items = [
        Text(finding, "verdict"),
        Table(
            ["skill level", "fresh games", "current values", "with the fix", f"change ({level}, paired)", "verdict"],
            rows,
            f"The objective ({description}) with the current values and with the best setting, on the same fresh "
            "games at each skill level (the bot in every seat; the search's own lineup first). Lower is better. "
            f"A change within ±{scale * precision:g} {name} of 0 counts as none; a level neither detected nor "
            "settled is unresolved, with the games that would settle it if the change and its spread stay as "
            "measured.",
        ),
    ]
    return items, finding


def gain_levels_items(levels: pd.DataFrame, tuned: str, alpha: float, precision: float = 0.02) -> tuple[list, str]:
    """``golem tune``'s tuned bot against fields of several skill levels: the verdict, a table and the finding.

    ``levels`` has one row per field (the tuning's own field first): ``rung`` (the field), ``num_games``,
    ``before`` and ``after`` (the bot's win share with its defaults and tuned, on the same fresh games), ``diff``,
    ``low``, ``high`` (the paired gain and its interval). The verdict class comes from
    ``analysis.stats.ladder.effect_levels``; a gain settled within ``precision`` of 0 counts as none, and an
    unresolved level says how many more games would settle it."""
    unit = (100.0, "pp")
    frame = _level_frame(levels, tuned, unit)
    verdict = effect_levels(frame, precision).iloc[0]["verdict"]
    rows, open_levels = _level_rows(frame, unit, precision, better=1)
    where = "; ".join(f"against {r.rung} {100 * r.diff:+.2f} pp" for r in frame.itertuples())
    if verdict == HOLDS:
        gains = np.sign(frame["diff"]).iloc[0] > 0
        how = "gains nothing" if not frame["significant"].any() else ("gains" if gains else "loses")
        finding = f"The tuned bot {how} at every skill level of its opponents measured ({where})."
    elif verdict == CHANGES:
        finding = (
            f"The tuned bot's gain changes with its opponents' skill: {where}. Parameters tuned against one field "
            "need not carry over to another: weigh the strongest field most."
        )
    else:
        finding = (
            f"Whether the tuned bot gains at every skill level of its opponents is unresolved ({where}); more games "
            f"would settle it against {', '.join(open_levels)}."
        )
    level = f"{100 * (1 - alpha):g}%"
    items = [
        Text(finding, "verdict"),
        Table(
            ["opponents", "fresh games", "defaults win", "tuned wins", f"gain ({level}, paired)", "verdict"],
            rows,
            f"The bot's win share with its defaults and tuned ({tuned}), on the same fresh games against each field "
            "(the opponents' bot in every other seat; the tuning's own field first). Higher is better. A gain "
            f"within ±{100 * precision:g} pp of 0 counts as none; a level neither detected nor settled is "
            "unresolved, with the games that would settle it if the gain and its spread stay as measured.",
        ),
    ]
    return items, finding
