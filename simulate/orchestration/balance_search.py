"""Searches over a game's values (``golem balance``) and a bot's parameters (``golem tune``).

Both minimise a noisy objective measured by playing games. Every evaluation plays the same games
(the same master seed: common random numbers), so two settings are compared on equal luck and the
objective is a deterministic function of the setting, which a standard optimiser can handle. The
optimiser is SciPy's differential evolution (Storn and Price 1997), with integrality constraints for
discrete values; the search stops when its evaluation budget is used. The best setting is then
re-measured on fresh games against the baseline, so the reported effect is free of the search's
selection bias (the winner's curse).

Each evaluation is a run directory of the shared format under ``OUT/search/evals/``; the list of
evaluations is ``OUT/search/evaluations.csv``. With ``refit`` (``golem balance --refit-apprentice``) every setting
evaluated is played by an apprentice refitted on its data (:func:`simulate.orchestration.refit.refit_into`, cached
by the data's hash, so the confirmation of the best setting reuses its refit): one training per distinct setting.

References
----------
Storn, R. and Price, K. (1997). Differential evolution: a simple and efficient heuristic for global
optimization over continuous spaces. *Journal of Global Optimization* 11.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from scipy.optimize import differential_evolution
from scipy.stats import bootstrap

from analysis.experiment import SEAT_COLUMNS, read_quantities
from analysis.report import Report, Section, Text, write_report
from analysis.report.experiment import build_experiment_report
from analysis.report.provenance import evidence_record
from analysis.report.search import (
    INFEASIBLE,
    balance_confirmation,
    fix_levels_items,
    gain_levels_items,
    search_items,
    skill_balance_items,
    tuned_field_items,
)
from analysis.run import check_runs, read_tables
from analysis.stats._util import mirror_mask
from analysis.stats.paired import paired_effects
from analysis.stats.seats import seat_advantage
from simulate.apprentice_fit import plays_learned
from simulate.datafiles import DataError
from simulate.game import Game
from simulate.lineup import LineupError, parse_bot, parse_lineup
from simulate.manifest import RunManifest
from simulate.names import unknown_message
from simulate.orchestration.experiments import Design, ExperimentError, parse_values, run_experiment
from simulate.orchestration.refit import RefitSettings, refit_into
from simulate.outputs import hold, replacing
from simulate.registry import make
from simulate.runner import RunSpec, check_workers, run, validate
from simulate.variants import Value, Variant, VariantError, match_values, settable_values, write_variant

__all__ = [
    "Dimension",
    "SearchResult",
    "balance_dimensions",
    "objective_function",
    "search",
    "tune_dimensions",
]


@dataclass(frozen=True)
class Dimension:
    """One searched value: its name, current value and the candidates (discrete) or bounds (continuous)."""

    name: str
    current: Any
    choices: tuple[Any, ...] = ()
    bounds: tuple[float, float] | None = None

    @property
    def discrete(self) -> bool:
        return self.bounds is None

    def value(self, x: float) -> Any:
        if self.discrete:
            return self.choices[int(round(x))]
        return round(float(x), 4)

    def scipy_bounds(self) -> tuple[float, float]:
        return (0.0, float(len(self.choices) - 1)) if self.discrete else self.bounds  # type: ignore[return-value]


class SearchResult(NamedTuple):
    """What a search found: every evaluation and the best one."""

    evaluations: pd.DataFrame
    """One row per distinct setting evaluated, in order: ``evaluation``, one column per dimension,
    ``num_changed``, ``objective``, ``run`` (its run directory)."""
    best: dict[str, Any]
    """Dimension name -> value of the best setting."""
    best_objective: float
    current_objective: float
    """Objective of the current values (evaluated first)."""


def _derived_choices(v: Value, values: dict[str, Value], spread: float) -> tuple[Any, ...]:
    """Candidates of a value with none declared: other values its list or column holds, or a range around it."""
    current = v.value if v.kind == "cell" else v.convert(v.value)
    if isinstance(current, bool):
        return (False, True)
    if v.kind == "cell":
        peers = {w.value for w in values.values() if w.kind == "cell" and w.file == v.file and w.key[1] == v.key[1]}
        if all(re.fullmatch(r"-?\d+", p or "") for p in peers):
            number = int(current)
            width = max(1, math.ceil(spread * abs(number)))
            return tuple(str(x) for x in range(max(0, number - width), number + width + 1))
        return tuple(sorted(peers))
    if isinstance(current, str):
        if v.kind == "toml" and isinstance(v.key[-1], int):
            whole = values[".".join(map(str, v.key[:-1]))]
            return tuple(sorted(set(whole.value)))
        return (current,)
    width = max(1, math.ceil(spread * abs(current)))
    if isinstance(current, int):
        return tuple(range(max(0, current - width), current + width + 1))
    return tuple(round(current + k * width / 4, 4) for k in range(-4, 5) if current + k * width / 4 >= 0)


def balance_dimensions(
    values: dict[str, Value],
    vary: Sequence[str],
    spread: float = 0.5,
    rule_choices: dict[str, tuple] | None = None,
    num_players: int | None = None,
) -> list[Dimension]:
    """The search space of ``--vary`` patterns: ``start.*``, ``points.P36.vp``, or ``NAME=a,b,c`` / ``NAME=lo:hi``.

    A value with no candidates given varies over the other values its list or table column holds
    (strings), both truth values (booleans), the choices of a rule option, or the whole numbers
    within ``spread`` (a share of the current value, at least 1) around its current value.
    Values with a single candidate are left out, and so are values a pattern matches that cannot
    change a game of ``num_players`` (``start.*`` at 3 players leaves seats 4 and 5 alone); naming
    one of those is an error.
    """
    dims: dict[str, Dimension] = {}
    for spec in vary:
        pattern, sep, given = spec.partition("=")
        for v in match_values(values, pattern.strip()):
            if num_players is not None and not v.applies_at(num_players):
                if any(ch in pattern for ch in "*?["):
                    continue
                raise ExperimentError(f"--vary {pattern.strip()}: has no effect at {num_players} players")
            current = v.value if v.kind == "cell" else v.convert(v.value)
            if sep:
                choices = tuple(parse_values(v, given))
            elif v.kind == "rule" and rule_choices and v.key[0] in rule_choices:
                choices = tuple(c for c in rule_choices[v.key[0]] if not str(c).startswith("<"))  # no open text
            else:
                choices = _derived_choices(v, values, spread)
            if current not in choices:
                choices = (current, *choices)
            if len(choices) > 1:
                dims[v.name] = Dimension(v.name, current, tuple(choices))
    if not dims:
        raise ExperimentError("nothing to vary: every value matched has a single candidate")
    return list(dims.values())


def _evidence(out: Path, command: str | None) -> dict[str, Any]:
    """What a search's report was computed from (``report.json``): every run the search and its confirmation played
    under ``out`` (not an earlier output waiting in a hidden folder to be replaced)."""
    found = out.rglob("manifest.json")
    runs = sorted(p.parent for p in found if not any(part.startswith(".") for part in p.relative_to(out).parts))
    return evidence_record([RunManifest.read(r) for r in runs], command)


def tune_dimensions(
    bot_params: dict[str, tuple[float, str]],
    names: Sequence[str] = (),
    ranges: dict[str, str] | None = None,
    limits: dict[str, tuple[float, float]] | None = None,
) -> list[Dimension]:
    """Continuous dimensions of a bot's parameters: ``names`` (default all), bounds ``lo:hi`` from ``ranges``
    or ``[0, 2 x default]`` (``[0, 1]`` for a default of 0), within the parameters' ``limits``."""
    ranges = dict(ranges or {})
    chosen = list(names) or list(bot_params)
    if not chosen:
        raise ExperimentError("the bot has no numeric parameter to tune")
    for name in [*chosen, *ranges]:
        if name not in bot_params:
            raise ExperimentError(unknown_message("bot parameter", name, list(bot_params)))
    dims = []
    for name in chosen:
        default = float(bot_params[name][0])
        low, high = (limits or {}).get(name, (-np.inf, np.inf))
        if name in ranges:
            m = re.fullmatch(r"\s*(-?[\d.]+)\s*:\s*(-?[\d.]+)\s*", str(ranges[name]))
            if not m or float(m.group(1)) >= float(m.group(2)):
                raise ExperimentError(f"--range {name}={ranges[name]}: expected LO:HI with LO < HI")
            bounds = (float(m.group(1)), float(m.group(2)))
            if not low <= bounds[0] < bounds[1] <= high:
                raise ExperimentError(f"--range {name}={ranges[name]}: {name} accepts {low:g}..{high:g}")
        else:
            bounds = (0.0, 2 * default) if default > 0 else (min(default, 0.0), max(1.0, abs(default)))
            bounds = (max(bounds[0], low), min(bounds[1], high))
        dims.append(Dimension(name, default, bounds=bounds))
    return dims


def objective_function(target: str, num_players: int, labels: Sequence[str]) -> tuple[Callable, str]:
    """The objective of a ``--target`` on :func:`analysis.stats.paired.game_quantities` tables, and its description.

    ``seat-advantage``: root mean square of the seats' win rates minus 1/n. ``margin``: root mean
    square of the seats' mean score margins. ``QUANTITY=VALUE``: distance of a quantity's mean
    (``seat1``, a bot label, ``margin2``) from VALUE (a number or ``fair`` = 1/n); a leading ``-``
    instead maximises the quantity (``-tuned``).
    """
    n = num_players
    seats = [f"seat{s + 1}" for s in range(n)]
    if target == "seat-advantage":
        return (
            lambda q: float(np.sqrt(np.mean((q[seats].mean().to_numpy() - 1 / n) ** 2))),
            "root mean square of the seats' win rates minus the fair share 1/n",
        )
    if target == "margin":
        margins = [f"margin{s + 1}" for s in range(n)]
        return (
            lambda q: float(np.sqrt(np.mean(q[margins].mean().to_numpy() ** 2))),
            "root mean square of the seats' mean score margins",
        )
    names = seats + [f"margin{s + 1}" for s in range(n)] + [re.sub(r"\W", "_", x) for x in labels]
    if target.startswith("-") and target[1:] in names:
        name = target[1:]
        return (lambda q: -float(q[name].mean()), f"minus the mean of {name} (maximise it)")
    name, sep, goal = target.partition("=")
    if not sep or name.strip() not in names:
        raise ExperimentError(
            "--target: "
            + unknown_message("target", target, ["seat-advantage", "margin", *[f"{x}=VALUE" for x in names]])
        )
    name = name.strip()
    try:
        value = 1 / n if goal.strip() == "fair" else float(goal)
    except ValueError:
        raise ExperimentError(f"--target {target}: '{goal}' is not a number or 'fair'") from None
    if not math.isfinite(value):
        raise ExperimentError(f"--target {target}: the goal must be a finite number or 'fair', not {goal.strip()}")
    return (lambda q: abs(float(q[name].mean()) - value), f"distance of {name}'s mean from {value:.4g}")


def search(
    dims: Sequence[Dimension],
    evaluate: Callable[[dict[str, Any], Path], pd.DataFrame | None],
    objective: Callable[[pd.DataFrame], float],
    out: str | Path,
    budget: int = 60,
    seed: int = 0,
    log: Callable[[str], None] | None = None,
) -> SearchResult:
    """Minimise ``objective(evaluate(setting, run_dir))`` over ``dims`` with differential evolution.

    ``evaluate`` plays the setting (a dict of dimension name -> value) into ``run_dir`` and returns
    its :func:`analysis.stats.paired.game_quantities`, or None for a setting the game rejects (scored
    :data:`INFEASIBLE`). The current values are evaluated first; settings
    already evaluated are not played again; the search stops after ``budget`` distinct settings
    (or when the optimiser converges). Of settings with the same objective the one that changes
    the fewest values is the best (a change that cannot matter plays the same games).
    """
    out = Path(out)
    if budget < 2:
        raise ExperimentError(f"--budget must be at least 2 evaluations, not {budget}")
    shutil.rmtree(out, ignore_errors=True)
    (out / "evals").mkdir(parents=True)
    cache: dict[tuple, float] = {}
    rows: list[dict[str, Any]] = []

    class _Budget(Exception):
        """The evaluation budget is spent: stops the optimiser."""

    def measure(setting: dict[str, Any]) -> float:
        key = tuple(setting[d.name] for d in dims)
        if key in cache:
            return cache[key]
        if len(cache) >= budget:
            raise _Budget
        k = len(rows)
        run_dir = out / "evals" / f"{k:04d}"
        t0 = time.perf_counter()
        quantities = evaluate(setting, run_dir)
        value = INFEASIBLE if quantities is None else objective(quantities)
        cache[key] = value
        changed = sum(setting[d.name] != d.current for d in dims)
        rows.append(
            {
                "evaluation": k,
                **setting,
                "num_changed": changed,
                "objective": value,
                "seconds": time.perf_counter() - t0,
                "run": str(run_dir),
            }
        )
        if log is not None:
            best = min(cache.values())
            log(f"evaluation {k + 1}/{budget}: objective {value:.4f} (best {best:.4f})")
        return value

    current = {d.name: d.current for d in dims}
    measure(current)
    popsize = max(4, math.ceil(12 / max(1, len(dims))))
    maxiter = max(1, budget // (popsize * len(dims)))
    x0 = [d.choices.index(d.current) if d.discrete else d.current for d in dims]
    with contextlib.suppress(_Budget):
        differential_evolution(
            lambda x: measure({d.name: d.value(xi) for d, xi in zip(dims, x, strict=True)}),
            bounds=[d.scipy_bounds() for d in dims],
            integrality=[d.discrete for d in dims],
            popsize=popsize,
            maxiter=maxiter,
            polish=False,
            seed=seed,
            x0=x0,
            init="sobol" if popsize * len(dims) >= 4 else "latinhypercube",
            tol=0,
        )
    evaluations = pd.DataFrame(rows)
    evaluations.to_csv(out / "evaluations.csv", index=False)
    best_row = evaluations.sort_values(["objective", "num_changed"], kind="stable").iloc[0]  # ties: fewest changes
    best = {d.name: best_row[d.name] for d in dims}
    return SearchResult(evaluations, best, float(best_row["objective"]), float(evaluations["objective"].iloc[0]))


def _check_start(spec: RunSpec, workers: int | None, budget: int) -> None:
    """Check what the search's first run needs (players, games, bots, data, rule options, workers) and its
    budget, before anything is written to its output."""
    validate(spec)
    check_workers(workers)
    if budget < 2:
        raise ExperimentError(f"--budget must be at least 2 evaluations, not {budget}")


def _check_out(out: Path, overwrite: bool) -> None:
    """Refuse an output that is a file, or a folder holding something without ``overwrite``."""
    if out.exists() and not out.is_dir():
        raise ExperimentError(f"{out}: exists and is not a directory")
    if out.exists() and any(not n.startswith(".") for n in os.listdir(out)) and not overwrite:
        raise ExperimentError(f"{out}: not empty; use --overwrite to replace it")


def variant_of(dims: Sequence[Dimension], setting: dict[str, Any]) -> Variant:
    """The variant of a data setting (only the values that differ from the current ones)."""
    changed = tuple((d.name, setting[d.name]) for d in dims if setting[d.name] != d.current)
    name = " ".join(f"{k}={v}" for k, v in changed) or "baseline"
    return Variant(name, changed)


def play_variant(
    game: Any,
    variant: Variant,
    run_dir: Path,
    spec_fields: dict[str, Any],
    cards: str | None,
    workers: int | None,
    refit: RefitSettings | None = None,
    log: Callable[[str], None] | None = None,
) -> Path:
    """Write ``variant``'s data beside ``run_dir`` and play it there (``spec_fields``: the rest of the RunSpec); with
    ``refit`` and a learned player in the lineup, by an apprentice refitted on that data."""
    folder, rules = write_variant(game, variant, run_dir.with_name(run_dir.name + "-data"), cards)
    spec = RunSpec(cards=str(folder), **{**spec_fields, "rules": {**spec_fields.get("rules", {}), **rules}})
    if refit is not None and plays_learned(e.to_json() for e in spec.lineup):
        refit_into(
            game.info.name,
            folder,
            spec.rules,
            refit,
            workers=workers or os.cpu_count() or 1,
            progress=log is not None,
            say=log or (lambda _: None),
        )
    return run(spec, run_dir, workers=workers, overwrite=True, progress=False)


def _bootstrap_objective_change(
    objective: Callable[[pd.DataFrame], float], base: pd.DataFrame, best: pd.DataFrame, alpha: float, seed: int
) -> tuple[float, float, float]:
    """Change of the objective from ``base`` to ``best`` on paired games, with a percentile bootstrap interval
    (SciPy's ``bootstrap``: games resampled together, 400 resamples)."""

    def change(idx: np.ndarray) -> float:
        rows = idx.astype(np.int64)
        return objective(best.iloc[rows]) - objective(base.iloc[rows])

    res = bootstrap(
        (np.arange(len(base)),),
        change,
        vectorized=False,
        n_resamples=400,
        confidence_level=1 - alpha,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    ci = res.confidence_interval
    return objective(best) - objective(base), float(ci.low), float(ci.high)


def objective_unit(target: str) -> tuple[float, str]:
    """How a ``--target``'s objective is shown: (scale, unit), percentage points for rates, points for margins."""
    name = target.lstrip("-").partition("=")[0].strip()
    return (1.0, "points") if name.startswith("margin") else (100.0, "pp")


def _search_items(
    dims: Sequence[Dimension],
    result: SearchResult,
    description: str,
    budget: int,
    unit: tuple[float, str],
    shown: Callable[[float], str] | None = None,
    tradeoff: bool = True,
) -> list:
    """The search section of a report (``analysis.report.search.search_items``) from what ``search`` found."""
    space = [
        (
            d.name,
            str(d.current),
            ", ".join(map(str, d.choices)) if d.discrete else f"{d.bounds[0]:g} to {d.bounds[1]:g}",
            str(result.best[d.name]),
        )
        for d in dims
    ]
    return search_items(
        space,
        result.evaluations,
        result.current_objective,
        result.best_objective,
        description,
        budget,
        unit,
        any(d.discrete for d in dims),
        shown,
        tradeoff,
    )


def run_balance(
    game_name: str,
    num_players: int,
    bots: Sequence[str],
    vary: Sequence[str],
    target: str = "seat-advantage",
    num_games: int = 4000,
    budget: int = 40,
    seed: int = 0,
    out: str | Path = "runs/balance",
    workers: int | None = None,
    cards: str | None = None,
    rules: dict[str, Any] | None = None,
    confirm_games: int = 20_000,
    command: str = "",
    log: Callable[[str], None] | None = None,
    overwrite: bool = False,
    report_dir: str | Path | None = None,
    levels: Sequence[str] = (),
    strong_games: int = 2000,
    refit: RefitSettings | None = None,
) -> Path:
    """Search the ``vary`` space for the values that minimise ``target``, confirm on fresh games, write the report.

    Writes ``OUT/search`` (evaluations), ``OUT/confirm`` (an experiment: baseline against the best
    setting on fresh games) and the report (``report_dir``, default ``OUT/report``); returns the
    report's HTML path. With ``levels`` (bots, each played in every seat: other skill levels) the best setting is
    also confirmed at each level (``OUT/levels/<bot>``; ``strong_games`` fresh games for a search bot, else
    ``confirm_games``), and the report says whether the fix holds at every skill level, changes with skill or is
    unresolved (``analysis.stats.ladder.effect_levels`` of the objective's change). With ``refit`` every setting
    played (searched, confirmed, at each level) is played by an apprentice refitted on its data.
    """
    game = make(game_name)
    out = Path(out)
    report_dir = Path(report_dir) if report_dir is not None else out / "report"
    _check_out(out, overwrite)
    values = settable_values(game, cards)
    choices = {o.name: tuple(o.choices) for o in game.rule_options().values() if isinstance(o.default, str | bool)}
    dims = balance_dimensions(values, vary, rule_choices=choices, num_players=num_players)
    _check_rule_choices(game, dims, values, cards, dict(rules or {}))
    lineup = parse_lineup(game, list(bots), num_players)
    objective, description = objective_function(target, num_players, [e.label for e in lineup])
    level_objectives = _level_objectives(game, levels, bots, target, num_players)
    fields = {
        "game": game.info.name,
        "num_players": num_players,
        "num_games": num_games,
        "master_seed": seed,
        "lineup": lineup,
        "chunk_size": max(500, math.ceil(num_games / 2)),
        "rules": dict(rules or {}),
    }
    _check_start(RunSpec(**fields, cards=cards), workers, budget)
    with hold(out, command), replacing(out):  # the old output is removed once the new one is complete

        def evaluate(setting: dict[str, Any], run_dir: Path) -> pd.DataFrame | None:
            try:
                played = play_variant(game, variant_of(dims, setting), run_dir, fields, cards, workers, refit, log)
            except VariantError:
                return None  # a combination the game's data checks reject: infeasible
            return read_quantities(played)

        result = search(dims, evaluate, objective, out / "search", budget, seed, log)
        best = variant_of(dims, result.best)
        unit = objective_unit(target)
        items = _search_items(dims, result, description, budget, unit)
        title = f"{game.info.name}: balance search ({target})"
        if best.is_baseline:
            return write_report(
                Report(
                    title,
                    [Text(f"Command: {command}", "code")],
                    [Section("Search", items)],
                    evidence=_evidence(out, command),
                ),
                report_dir,
            )
        design = Design(
            game.info.name,
            num_players,
            tuple(bots),
            (Variant("baseline"), best),
            num_games=confirm_games,
            seed=seed + 1_000_000,
            cards=cards,
            rules=dict(rules or {}),
            refit=refit,
        )
        exp = run_experiment(
            design, out / "confirm", kind="balance", command=command, workers=workers, overwrite=True, log=log
        )
        change = _bootstrap_objective_change(
            objective, exp.quantities["baseline"], exp.quantities[best.name], design.alpha, seed
        )
        verdict, finding = balance_confirmation(
            exp.quantities,
            best.name,
            best.settings,
            num_players,
            objective,
            change,
            description,
            unit,
            confirm_games,
            design.seed,
            design.alpha,
        )
        items.append(verdict)
        extra = [Section("Search", items, findings=[finding])]
        if level_objectives:
            label = ",".join(dict.fromkeys(bots))
            rows = [_level_row(label, confirm_games, objective, exp.quantities, best.name, change)]
            for spec, level_objective in level_objectives.items():
                games = strong_games if _is_search(spec) else confirm_games
                if log is not None:
                    log(f"confirming at {spec} ({games:,} games)")
                sub = replace(design, bots=(spec,), num_games=games)
                where = out / "levels" / re.sub(r"\W+", "_", spec)
                level = run_experiment(sub, where, "balance", command, workers, True, log=log)
                q = level.quantities
                ch = _bootstrap_objective_change(level_objective, q["baseline"], q[best.name], design.alpha, seed)
                rows.append(_level_row(spec, games, level_objective, q, best.name, ch))
            level_items, level_finding = fix_levels_items(
                pd.DataFrame(rows), best.name, description, unit, design.alpha, _precision(target)
            )
            extra.append(Section("The fix at every skill level", level_items, findings=[level_finding]))
        return build_experiment_report(exp, report_dir, title=title, extra=extra)


def _check_rule_choices(
    game: Game, dims: Sequence[Dimension], values: dict[str, Value], cards: str | None, rules: dict[str, Any]
) -> None:
    """Refuse a rule option both fixed by ``--rule`` and varied, and any candidate value the game rejects."""
    for d in dims:
        v = values[d.name]
        if v.kind != "rule":
            continue
        option = v.key[0]
        if option in rules:
            raise ExperimentError(f"{option} is given both as --rule and as --vary; give it once")
        for choice in d.choices:
            try:
                game.load_data(Path(cards) if cards else None, {**rules, option: choice})
            except DataError as e:
                raise ExperimentError(f"--vary {option}: {e}") from None


def _is_search(spec: str) -> bool:
    return spec.split(":")[0] == "search"


def _precision(target: str) -> float:
    """How close to 0 a change must be settled to count as none: 2 pp of a rate, 1 point of a margin."""
    return 1.0 if objective_unit(target)[1] == "points" else 0.02


def _level_objectives(
    game: Any, levels: Sequence[str], bots: Sequence[str], target: str, num_players: int
) -> dict[str, Callable[[pd.DataFrame], float]]:
    """The objective of ``target`` at each level (a bot in every seat), checked before anything is played."""
    out = {}
    for spec in dict.fromkeys(levels):
        if list(bots) == [spec]:
            continue  # the search's own lineup is confirmed first
        labels = [e.label for e in parse_lineup(game, [spec], num_players)]
        try:
            out[spec] = objective_function(target, num_players, labels)[0]
        except ExperimentError as e:
            raise ExperimentError(f"--target {target} cannot be measured at level {spec}: {e}") from None
    return out


def _level_row(
    level: str,
    games: int,
    objective: Callable[[pd.DataFrame], float],
    quantities: dict[str, pd.DataFrame],
    best: str,
    change: tuple[float, float, float],
) -> dict[str, Any]:
    return {
        "rung": level,
        "num_games": games,
        "before": objective(quantities["baseline"]),
        "after": objective(quantities[best]),
        "diff": change[0],
        "low": change[1],
        "high": change[2],
    }


def _gain_row(field: str, games: int, effect: Any) -> dict[str, Any]:
    """A level row of :func:`analysis.report.search.gain_levels_items` from a paired effect row of the bot."""
    return {
        "rung": field,
        "num_games": games,
        "before": effect.baseline,
        "after": effect.variant,
        "diff": effect.diff,
        "low": effect.ci_low,
        "high": effect.ci_high,
    }


def _candidate_spec(bot: str, setting: dict[str, Any]) -> str:
    return bot + "".join(f":{k}={v:g}" for k, v in setting.items())


def run_tune(
    game_name: str,
    num_players: int,
    bot: str,
    field: Sequence[str] = (),
    params: Sequence[str] = (),
    ranges: dict[str, str] | None = None,
    num_games: int = 3000,
    budget: int = 40,
    seed: int = 0,
    out: str | Path = "runs/tune",
    workers: int | None = None,
    cards: str | None = None,
    rules: dict[str, Any] | None = None,
    confirm_games: int = 10_000,
    command: str = "",
    log: Callable[[str], None] | None = None,
    overwrite: bool = False,
    report_dir: str | Path | None = None,
    levels: Sequence[str] = (),
    strong_games: int = 2000,
) -> Path:
    """Tune ``bot``'s parameters for the highest win rate against ``field`` (default: the bot with its
    defaults), write ``OUT/tuned.bot`` (usable as ``--bot @OUT/tuned.bot``) and a report (``report_dir``,
    default ``OUT/report``) that checks the seat-balance verdict at both skill levels; returns the
    report's HTML path. With ``levels`` (bots: other skill levels of the opponents) the tuned bot's gain is also
    measured against each level in every other seat (``OUT/levels/<bot>``; ``strong_games`` fresh games for a
    search bot, else ``confirm_games``), and the report says whether the gain holds at every level, changes with
    skill or is unresolved."""
    game = make(game_name)
    if bot not in game.info.bots:
        raise LineupError(unknown_message(f"{game.info.name} bot", bot, list(game.info.bots)))
    out = Path(out)
    _check_out(out, overwrite)
    try:
        numeric = {
            k: v for k, v in game.info.bots[bot].params.items() if k not in game.info.bots[bot].choices
        }  # not a name
        dims = tune_dimensions(numeric, params, ranges, game.info.bots[bot].limits)
    except ExperimentError as e:
        raise ExperimentError(f"--bot {bot}: {e}") from None
    field = list(field) or [bot]
    for spec in [*field, *levels]:
        parse_bot(game, spec)
    opponents = [field[k % len(field)] for k in range(num_players - 1)]
    if num_players < 2:
        raise ExperimentError("tuning needs at least 2 players")
    lineup = parse_lineup(game, [_candidate_spec(bot, {d.name: d.current for d in dims}), *opponents], num_players)
    first = RunSpec(game.info.name, num_players, num_games, seed, lineup, chunk_size=max(500, math.ceil(num_games / 2)))
    _check_start(replace(first, rules=dict(rules or {}), cards=cards), workers, budget)
    with hold(out, command), replacing(out):  # the old output is removed once the new one is complete

        def play(specs: list[str], run_dir: Path, games: int, master_seed: int) -> Path:
            spec = RunSpec(
                game=game.info.name,
                num_players=num_players,
                num_games=games,
                master_seed=master_seed,
                lineup=parse_lineup(game, specs, num_players),
                chunk_size=max(500, math.ceil(games / 2)),
                rules=dict(rules or {}),
                cards=cards,
            )
            return Path(run(spec, run_dir, workers=workers, overwrite=True, progress=False))

        def evaluate(setting: dict[str, Any], run_dir: Path) -> pd.DataFrame:
            label = re.sub(r"\W", "_", parse_bot(game, _candidate_spec(bot, setting)).label)
            q = read_quantities(play([_candidate_spec(bot, setting), *opponents], run_dir, num_games, seed))
            return q.assign(tuned=q[label])

        result = search(dims, evaluate, lambda q: -float(q["tuned"].mean()), out / "search", budget, seed, log)
        tuned = _candidate_spec(bot, result.best)
        default = _candidate_spec(bot, {d.name: d.current for d in dims})
        (out / "tuned.bot").write_text(
            f"# {game.info.name} bot tuned by: {command or 'golem tune'}\n"
            f"# win rate against {', '.join(opponents)} on the search games: {-result.best_objective:.4f} "
            f"(defaults: {-result.current_objective:.4f})\n{tuned}\n",
            encoding="utf-8",
        )
        fresh = seed + 1_000_000
        confirm = out / "confirm"
        q_tuned = read_quantities(play([tuned, *opponents], confirm / "tuned-vs-field", confirm_games, fresh))
        q_default = read_quantities(play([default, *opponents], confirm / "default-vs-field", confirm_games, fresh))
        t_label = re.sub(r"\W", "_", parse_bot(game, tuned).label)
        d_label = re.sub(r"\W", "_", parse_bot(game, default).label)
        effect = paired_effects(q_default.assign(bot=q_default[d_label]), q_tuned.assign(bot=q_tuned[t_label]))
        row = next(effect[effect["quantity"] == "bot"].itertuples())
        field_items, gain = tuned_field_items(row, tuned, opponents, str(out / "tuned.bot"), confirm_games, fresh)
        extra = []
        if levels:
            rows = [_gain_row(",".join(dict.fromkeys(opponents)), confirm_games, row)]
            for spec in dict.fromkeys(levels):
                if [spec] * (num_players - 1) == opponents:
                    continue  # the tuning's own field is measured first
                games = strong_games if _is_search(spec) else confirm_games
                if log is not None:
                    log(f"measuring the gain against {spec} ({games:,} games)")
                where = out / "levels" / re.sub(r"\W+", "_", spec)
                others = [spec] * (num_players - 1)
                q_t = read_quantities(play([tuned, *others], where / "tuned", games, fresh))
                q_d = read_quantities(play([default, *others], where / "default", games, fresh))
                level = paired_effects(q_d.assign(bot=q_d[d_label]), q_t.assign(bot=q_t[t_label]))
                rows.append(_gain_row(spec, games, next(level[level["quantity"] == "bot"].itertuples())))
            level_items, level_finding = gain_levels_items(pd.DataFrame(rows), tuned, 0.05)
            extra.append(Section("The tuned bot at every skill level", level_items, findings=[level_finding]))
        balance = []
        for name, spec in (("defaults", default), ("tuned", tuned)):
            run_dir = play([spec], confirm / f"mirror-{name}", confirm_games, fresh)
            seats = read_tables(check_runs([run_dir], checksums=False), "seats", SEAT_COLUMNS)
            adv = seat_advantage(seats, lineup="mirror" if mirror_mask(seats).all() else "all", num_resamples=500)
            balance.append((name, adv))
        skill_items = skill_balance_items(balance, num_players, confirm_games)
        report = Report(
            f"{game.info.name}: tuning {bot} ({num_players} players)",
            [Text("Reproduce with:"), Text(command or "(command not recorded)", "code")],
            [
                Section(
                    "Search",
                    _search_items(
                        dims,
                        result,
                        f"minus the win rate of {bot} against the field",
                        budget,
                        (100.0, "pp"),
                        lambda x: f"a win rate of {-100 * x:.1f}%",
                        tradeoff=False,
                    ),
                ),
                Section("Tuned bot against the field", field_items, findings=[gain]),
                *extra,
                Section("Balance across skill levels", skill_items, findings=[skill_items[0].text]),
            ],
            evidence=_evidence(out, command),
        )
        report.name_players(game.info.bot_names, {default, tuned, *opponents, *levels})
        return write_report(report, Path(report_dir) if report_dir is not None else out / "report")
