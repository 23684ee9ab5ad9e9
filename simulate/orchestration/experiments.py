"""What-if experiments: variants of a game's data played on common random numbers and compared.

An experiment is a :class:`Design` (game, players, bots, the variants, games per round, stopping
rule) played into an experiment directory::

    EXP/experiment.json          the experiment manifest: design, exact command, variants, runs,
                                 stopping decision, timing
    EXP/effects.csv              paired effects of every variant against the baseline
    EXP/data/<variant>/          the variant's data folder (a changed copy of the game's data)
    EXP/runs/<variant>/round-<k> one run directory of the shared format per variant and round

Round k of every variant is played with master seed ``seed + k``, so game g of a variant replays
game g of the baseline (same setup, same play seed, same seat rotation): the comparison is paired
(:mod:`analysis.stats.paired`). With ``paired=False`` each variant gets its own seeds (for measuring what
the pairing buys). Rounds continue until the stopping rule (:mod:`analysis.stats.sequential`) says so.
With ``refit`` (``--refit-apprentice``) each variant's data gets an apprentice fitted on it
(:func:`simulate.orchestration.refit.refit_into`, one cached refit per distinct data) before anything is played,
and its record in the manifest says how (``apprentice_refit``: covered, reused or fitted, with the cache key).

Examples
--------
>>> values = settable_values(make("century"))  # doctest: +SKIP
>>> variants = sweep_variants(values, [("points.P36.vp", ["18", "22"])])  # doctest: +SKIP
>>> design = Design("century", 3, ("greedy",), tuple(variants))  # doctest: +SKIP
>>> exp = run_experiment(design, "runs/exp-p36")  # doctest: +SKIP
>>> exp.effects.query("quantity == 'seat1'")[["variant_name", "diff", "ci_low", "ci_high"]]  # doctest: +SKIP
"""

from __future__ import annotations

import itertools
import math
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analysis.experiment import EXPERIMENT_FORMAT, Experiment, RunQuantities, add_round, run_dirs
from analysis.report.experiment import build_experiment_report
from analysis.stats.ladder import effect_levels
from analysis.stats.paired import Moments, PairedRounds
from analysis.stats.sequential import (
    SequentialTest,
    confseq_halfwidth,
    decide,
    mixture_rho2,
    parse_test,
    precision_reached,
    widest_halfwidth,
)
from simulate.apprentice_fit import plays_learned
from simulate.lineup import LineupError, parse_lineup
from simulate.orchestration.refit import RefitSettings, refit_into
from simulate.outputs import hold, replacing, write_atomic
from simulate.registry import make
from simulate.runformat import write_json_atomic
from simulate.runner import RunSpec, check_workers, run, validate
from simulate.variants import Value, Variant, resolve_value, settable_values, write_variant

__all__ = [
    "Design",
    "ExperimentError",
    "ablation_variants",
    "parse_values",
    "run_experiment",
    "run_levels",
    "rung_folder",
    "sweep_variants",
]

_UNPAIRED_SEED_STEP = 1_000_003
_MAX_ROUNDS_SEQUENTIAL = 20


class ExperimentError(ValueError):
    """An experiment that cannot start; the message is one line."""


@dataclass
class Design:
    """What an experiment plays: the first variant is the baseline."""

    game: str
    num_players: int
    bots: tuple[str, ...]
    variants: tuple[Variant, ...]
    num_games: int = 10_000
    """Games per variant and round."""
    seed: int = 0
    rotate: bool = True
    cards: str | None = None
    """Base data folder (default: the shipped data); variants change a copy of it."""
    rules: dict[str, Any] = field(default_factory=dict)
    """Rule options of every variant (a variant's own rule settings go on top)."""
    paired: bool = True
    precision: float | None = None
    """Stop when every rate interval's half-width is at most this many percentage points."""
    test: str | None = None
    """Stop when this test (``seat1 > 1/n + 0.01``) is decided for every variant."""
    max_games: int | None = None
    """Games per variant at most [default: one round, or 20 rounds with a stopping rule]."""
    alpha: float = 0.05
    chunk_size: int | None = None
    refit: RefitSettings | None = None
    """Refit the apprentice on each variant's data (``--refit-apprentice``) with these settings; None: play the
    weights the data folder holds."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "num_players": self.num_players,
            "bots": list(self.bots),
            "num_games": self.num_games,
            "seed": self.seed,
            "rotate": self.rotate,
            "cards": self.cards,
            "rules": dict(self.rules),
            "paired": self.paired,
            "precision": self.precision,
            "test": self.test,
            "max_games": self.budget,
            "alpha": self.alpha,
            "variants": [v.to_json() for v in self.variants],
            "refit_apprentice": None if self.refit is None else asdict(self.refit),
        }

    @property
    def sequential(self) -> bool:
        return self.precision is not None or self.test is not None

    @property
    def budget(self) -> int:
        if self.max_games is not None:
            return self.max_games
        return self.num_games * (_MAX_ROUNDS_SEQUENTIAL if self.sequential else 1)


def parse_values(v: Value, spec: str | Sequence[Any]) -> list[Any]:
    """Values of ``--set NAME=a,b,c`` or a range ``lo:hi[:step]`` (numbers only)."""
    items = list(spec) if not isinstance(spec, str) else spec.split(",")
    out: list[Any] = []
    for item in items:
        text = str(item).strip()
        m = re.fullmatch(r"(-?[\d.]+):(-?[\d.]+)(?::(-?[\d.]+))?", text)
        numeric_cell = v.kind == "cell" and re.fullmatch(r"-?\d+(\.\d+)?", str(v.value)) is not None
        if m and (numeric_cell or not isinstance(v.value, str | bool)):
            lo, hi, step = (float(x) if x is not None else None for x in m.groups())
            step = 1.0 if step is None else step
            if step <= 0 or hi < lo:
                raise ExperimentError(f"{v.name}: range '{text}' needs lo <= hi and a positive step")
            count = int(math.floor((hi - lo) / step + 1e-9)) + 1
            points = [round(lo + k * step, 10) for k in range(count)]
            out += [f"{x:g}" if numeric_cell else v.convert(x) for x in points]
        else:
            out.append(v.convert(text) if v.kind != "cell" else text)
    if not out:
        raise ExperimentError(f"{v.name}: no values given")
    return list(dict.fromkeys(out))


def _variant_name(pairs: Sequence[tuple[str, Any]], typed: dict[str, str] | None = None) -> str:
    """'points.P36.vp=18 start.seat1=YYY': each value by the name the user gave it (``typed``, canonical -> given)."""
    typed = typed or {}
    return " ".join(f"{typed.get(k, k)}={v}" for k, v in pairs)


def sweep_variants(
    values: dict[str, Value], sets: Sequence[tuple[str, str | Sequence[Any]]], design: str = "grid"
) -> list[Variant]:
    """The baseline and the variants of a sweep.

    ``sets`` pairs a value name (see :mod:`simulate.variants`) with its values (``"18,20,22"``,
    a numeric range ``"16:24:2"`` or a list). ``design`` is ``"grid"`` (every combination) or
    ``"oat"`` (one value changed at a time). Variants equal to the baseline are left out.
    """
    if design not in ("grid", "oat"):
        raise ExperimentError(f"unknown design '{design}'; choose grid or oat")
    axes: list[tuple[Value, list[Any]]] = []
    typed: dict[str, str] = {}
    for name, spec in sets:
        v = resolve_value(values, name)
        typed.setdefault(v.name, name)
        if any(a.name == v.name for a, _ in axes):
            raise ExperimentError(f"{v.name} is set twice")
        axes.append((v, parse_values(v, spec)))
    if not axes:
        raise ExperimentError("nothing to sweep: give --set NAME=VALUES")
    current = {v.name: v.convert(v.value) if v.kind != "cell" else v.value for v, _ in axes}
    combos: list[tuple[tuple[str, Any], ...]] = []
    if design == "grid":
        for combo in itertools.product(*[[(v.name, x) for x in xs] for v, xs in axes]):
            combos.append(tuple(combo))
    else:
        for v, xs in axes:
            combos += [tuple((a.name, x if a.name == v.name else current[a.name]) for a, _ in axes) for x in xs]
    out = [Variant("baseline")]
    seen = set()
    for combo in combos:
        changed = tuple((k, x) for k, x in combo if x != current[k])
        if not changed or changed in seen:
            continue
        seen.add(changed)
        aliases = tuple((k, typed[k]) for k, _ in changed if typed[k] != k)
        out.append(Variant(_variant_name(changed, typed), changed, aliases=aliases))
    if len(out) == 1:
        raise ExperimentError("every value given equals the current one; nothing to compare")
    return out


def ablation_variants(
    removes: Sequence[str], replaces: Sequence[tuple[str, str]], settings: Sequence[tuple[str, Any]] = ()
) -> list[Variant]:
    """The baseline and one variant per ``--remove`` (``M09`` or ``M09+M10`` together) and ``--replace``.

    ``replaces`` pairs a component with the one whose values it takes. ``settings`` (value name,
    value) form one more variant each.
    """
    out = [Variant("baseline")]
    for spec in removes:
        keys = tuple(k.strip() for k in spec.split("+") if k.strip())
        if not keys:
            raise ExperimentError(f"--remove '{spec}': no component id")
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:
            raise ExperimentError(f"--remove '{spec}': names {twice[0]} twice; name each component once")
        if any(v.removed and set(v.removed) == set(keys) for v in out):
            raise ExperimentError(f"--remove '{spec}': given twice")
        out.append(Variant("remove " + "+".join(keys), removed=keys))
    for key, other in replaces:
        if key.strip() == other.strip():
            raise ExperimentError(f"--replace {key}={other}: a component replaced by itself changes nothing")
        if any(v.replaced == ((key, other),) for v in out):
            raise ExperimentError(f"--replace {key}={other}: given twice")
        out.append(Variant(f"replace {key} by {other}", replaced=((key, other),)))
    for name, value in settings:
        out.append(Variant(f"{name}={value}", ((name, value),)))
    if len(out) == 1:
        raise ExperimentError("nothing to ablate: give --remove ID or --replace ID=OTHER")
    return out


def _slug(k: int, name: str) -> str:
    text = re.sub(r"[^\w.=,+-]+", "_", name).strip("_")[:60]
    return f"v{k:02d}-{text}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _chunk(num_games: int, workers: int) -> int:
    return max(500, min(20_000, math.ceil(num_games / max(2, 2 * workers))))


def _check(design: Design, workers: int | None) -> list:
    """Check the design and the workers before anything is written; returns the lineup."""
    game = make(design.game)
    if not game.info.min_players <= design.num_players <= game.info.max_players:
        raise ExperimentError(
            f"{game.info.name} takes {game.info.min_players}-{game.info.max_players} players, not {design.num_players}"
        )
    if design.num_games < 2:
        raise ExperimentError(f"--games must be at least 2, not {design.num_games}")
    if design.precision is not None and not (math.isfinite(design.precision) and design.precision > 0):
        raise ExperimentError(f"--precision must be a positive number, not {design.precision}")
    if design.precision is not None and design.test is not None:
        raise ExperimentError(
            "give --precision or --test, not both: rounds stop at the first one met, leaving the other undecided"
        )
    if design.max_games is not None and design.max_games < design.num_games:
        raise ExperimentError(
            f"--max-games {design.max_games:,} is below --games {design.num_games:,} (the games of one round)"
        )
    clash = sorted({k.removeprefix("rules.") for v in design.variants for k, _ in v.settings} & set(design.rules))
    if clash:
        raise ExperimentError(f"{clash[0]} is given both as --rule and as a value to vary; give it once")
    try:
        lineup = parse_lineup(game, list(design.bots), design.num_players)
    except LineupError as e:
        raise ExperimentError(str(e)) from None
    check_workers(workers)
    names = [v.name for v in design.variants]
    if len(set(names)) != len(names) or not design.variants or not design.variants[0].is_baseline:
        raise ExperimentError("the variants need distinct names and the baseline first")
    return lineup


def _write_variants(
    design: Design,
    out: Path,
    lineup: list,
    tmp: Path,
    workers: int | None,
    progress: bool = False,
    log: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Write each variant's data folder into ``tmp`` and check it can be played; returns the variants' records.
    With ``design.refit`` and a learned player in the lineup, each folder then gets an apprentice fitted on it.

    A variant the game rejects is named as the user gave it, never by the temporary folder.
    """
    game = make(design.game)
    records = []
    for k, variant in enumerate(design.variants):
        slug = _slug(k, variant.name)
        folder = tmp / slug
        try:
            _, rules = write_variant(game, variant, folder, design.cards)
            data = out / "data" / slug
            records.append({**variant.to_json(), "slug": slug, "data": str(data), "rules": {**design.rules, **rules}})
            spec = _spec(design, lineup, records[-1], design.seed, workers)
            validate(replace(spec, cards=str(folder)))  # its data and rule options, before out is touched
        except ValueError as e:
            message = str(e).replace(f"{folder}{os.sep}", "").replace(str(folder), "its data folder")
            if message.startswith(f"variant {variant.name}: "):
                raise type(e)(message) from None
            raise type(e)(f"variant {variant.name}: {message}") from None
    if design.refit is not None and plays_learned(e.to_json() for e in lineup):
        for k, rec in enumerate(records):
            if log is not None:
                log(f"apprentice for variant {rec['name']} ({k + 1} of {len(records)}):")
            result = refit_into(
                game.info.name,
                tmp / rec["slug"],
                rec["rules"],
                design.refit,
                workers=workers or os.cpu_count() or 1,
                progress=progress or log is not None,  # a training's bars
                say=log or (lambda _: None),
            )
            rec["apprentice_refit"] = result.to_json()
    return records


def _baseline_values(design: Design, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The value before any change of every setting a variant changes (the shipped data or ``design.cards``),
    recorded in the experiment's manifest for its report."""
    names = list(dict.fromkeys(k for rec in records for k in rec["settings"]))
    values = settable_values(make(design.game), design.cards) if names else {}
    return {n: (values[n].value if values[n].kind == "cell" else values[n].convert(values[n].value)) for n in names}


def _round_seed(design: Design, round_index: int, variant_index: int) -> int:
    return design.seed + round_index + (0 if design.paired else _UNPAIRED_SEED_STEP * variant_index)


def _spec(design: Design, lineup: list, rec: dict[str, Any], seed: int, workers: int | None) -> RunSpec:
    """The run of variant ``rec`` with master seed ``seed``."""
    return RunSpec(
        game=design.game,
        num_players=design.num_players,
        num_games=design.num_games,
        master_seed=seed,
        lineup=lineup,
        rotate_seats=design.rotate,
        chunk_size=design.chunk_size or _chunk(design.num_games, workers or 2),
        rules=dict(rec["rules"]),
        cards=rec["data"],
    )


def _play_round(
    design: Design, out: Path, records: list[dict[str, Any]], r: int, workers: int | None, progress: bool
) -> tuple[list[Path], float]:
    game = make(design.game)
    lineup = parse_lineup(game, list(design.bots), design.num_players)
    dirs, seconds = [], 0.0
    for k, rec in enumerate(records):
        seed = _round_seed(design, r, k)
        spec = _spec(design, lineup, rec, seed, workers)
        run_dir = out / "runs" / rec["slug"] / f"round-{r:03d}"
        command = (
            f"golem simulate {design.game} -p {design.num_players} -n {design.num_games} "
            f"--bots {','.join(design.bots)} --seed {seed} --cards {rec['data']} --out {run_dir}"
            + ("" if design.rotate else " --fixed-seats")
            + "".join(f" --rule {key}={value}" for key, value in rec["rules"].items())
        )
        t0 = time.perf_counter()
        run(spec, run_dir, workers=workers, overwrite=True, progress=progress, command=command)
        seconds += time.perf_counter() - t0
        rec.setdefault("runs", []).append(str(run_dir.relative_to(out)))
        dirs.append(run_dir)
    return dirs, seconds


def _test_state(design: Design, test: SequentialTest, own: dict[str, Moments], rho2: float) -> list[dict[str, Any]]:
    """Each variant's confidence sequence for the test quantity, from its moments over every round."""
    rows = []
    for name, m in own.items():
        mean, var, n = float(m.mean[0]), float(m.var[0]), int(m.count[0])
        half = float(confseq_halfwidth(n, var, design.alpha, rho2))
        rows.append(
            {
                "variant": name,
                "quantity": test.quantity,
                "mean": mean,
                "cs_low": mean - half,
                "cs_high": mean + half,
                "decision": decide(test, mean, half),
                "num_games": n,
            }
        )
    return rows


def run_experiment(
    design: Design,
    out: str | Path,
    kind: str = "sweep",
    command: str = "",
    workers: int | None = None,
    overwrite: bool = False,
    progress: bool = False,
    log: Callable[[str], None] | None = None,
    report_dir: str | Path | None = None,
) -> Experiment:
    """Play every variant of ``design`` in rounds into ``out`` until the stopping rule is met.

    Writes the variants' data folders, one run directory per variant and round, ``effects.csv``
    and the experiment manifest ``experiment.json`` (``command`` is recorded as the way to
    reproduce it), and with ``report_dir`` the experiment's report there. Raises ``ExperimentError`` or
    ``VariantError`` (one line) before anything is written when the design cannot be played. ``out`` is
    locked while the experiment writes (a second writer is refused, :func:`simulate.outputs.hold`), and an
    old experiment there (``overwrite``) is removed only once the new one and its report are complete: a
    failure at any point leaves it as it was.
    """
    out = Path(out)
    test = None if design.test is None else parse_test(design.test, _quantity_names(design), design.num_players)
    lineup = _check(design, workers)
    if out.exists() and not out.is_dir():
        raise ExperimentError(f"{out}: exists and is not a directory")
    with tempfile.TemporaryDirectory(prefix="golem-variants-") as tmp:
        records = _write_variants(design, out, lineup, Path(tmp), workers, progress, log)
        with hold(out, command):
            held = [n for n in os.listdir(out) if not n.startswith(".")]
            if held and not (out / "experiment.json").is_file():
                raise ExperimentError(f"{out}: directory is not empty and holds no experiment; choose another --out")
            if held and not overwrite:
                raise ExperimentError(f"{out}: already holds an experiment; use --overwrite to replace it")
            with replacing(out):
                (out / "data").mkdir()
                for rec in records:
                    shutil.move(Path(tmp) / rec["slug"], rec["data"])
                exp = _play(design, out, test, records, kind, command, workers, progress, log)
                if report_dir is not None:
                    build_experiment_report(exp, report_dir)
    return exp


def _play(
    design: Design,
    out: Path,
    test: SequentialTest | None,
    records: list[dict[str, Any]],
    kind: str,
    command: str,
    workers: int | None,
    progress: bool,
    log: Callable[[str], None] | None,
) -> Experiment:
    """The rounds of an experiment whose data folders are in place, until its stopping rule is met."""
    started = time.perf_counter()
    manifest: dict[str, Any] = {
        "format": EXPERIMENT_FORMAT,
        "kind": kind,
        "command": command,
        "design": design.to_json(),
        "variants": records,
        "baseline_values": _baseline_values(design, records),
        "status": "running",
        "timing": {"started": _now()},
    }
    write_json_atomic(out / "experiment.json", manifest)
    paired = PairedRounds("baseline")
    own: dict[str, Moments] = {}
    run_seconds = 0.0
    rho2 = float("nan")
    reason, r, tests = "", 0, []
    while True:
        dirs, seconds = _play_round(design, out, records, r, workers, progress)
        run_seconds += seconds
        base = add_round(paired, own, test, [rec["name"] for rec in records], dirs, r * design.num_games)
        effects = paired.effects(design.alpha)
        played = (r + 1) * design.num_games
        if test is not None:
            if r == 0:
                var0 = float(np.nanvar(base[test.quantity].to_numpy(), ddof=1)) or 1e-12
                rho2 = mixture_rho2(design.alpha, max(design.budget / 2, design.num_games), var0)
            tests = _test_state(design, test, own, rho2)
        widest = widest_halfwidth(effects)
        if log is not None:
            log(f"round {r + 1}: {played:,} games per variant, widest rate interval +/-{100 * widest:.2f} pp")
        if design.precision is not None and precision_reached(effects, design.precision, r):
            reason = f"every rate interval reached +/-{design.precision:g} pp"
        if design.test is not None and all(t["decision"] is not None for t in tests):
            reason = f"the test '{design.test}' was decided for every variant"
        if not reason and played + design.num_games > design.budget:
            reason = (
                f"the budget of {design.budget:,} games per variant was used"
                if design.sequential
                else f"fixed design of {played:,} games per variant"
            )
        if reason:
            break
        r += 1
    analysis_started = time.perf_counter()
    write_atomic(out / "effects.csv", lambda path: effects.to_csv(path, index=False))
    total = time.perf_counter() - started
    manifest.update(
        {
            "status": "complete",
            "rounds": r + 1,
            "games_per_variant": played,
            "stopped": {"reason": reason, "widest_rate_halfwidth": widest, "tests": tests, "rho2": rho2},
        }
    )
    manifest["timing"].update(
        {
            "finished": _now(),
            "seconds": round(total, 3),
            "run_seconds": round(run_seconds, 3),
            "overhead_seconds": round(total - run_seconds, 3),
            "overhead_share": round((total - run_seconds) / total, 4) if total > 0 else None,
            "final_analysis_seconds": round(time.perf_counter() - analysis_started, 3),
        }
    )
    write_json_atomic(out / "experiment.json", manifest)
    return Experiment(out, manifest, RunQuantities(run_dirs(out, manifest), design.num_games), effects)


def _quantity_names(design: Design) -> list[str]:
    n = design.num_players
    names = [f"seat{s + 1}" for s in range(n)] + [f"margin{s + 1}" for s in range(n)]
    labels = {e.label for e in parse_lineup(make(design.game), list(design.bots), n)}
    if len(labels) > 1:
        names += [re.sub(r"\W", "_", label) for label in sorted(labels)]
    return names


def run_levels(
    design: Design,
    rungs: Sequence[str],
    out: str | Path,
    kind: str = "sweep",
    command: str = "",
    workers: int | None = None,
    overwrite: bool = False,
    log: Callable[[str], None] | None = None,
    reports: bool = False,
) -> tuple[list[Experiment], pd.DataFrame]:
    """The experiment of ``design`` once per skill level: each rung (one bot in every seat) into ``out/<rung>``
    (with ``reports``, each with its report in ``out/<rung>/report``).

    Returns the experiments and ``analysis.stats.ladder.effect_levels`` of their effects: whether each variant's
    effect on each quantity holds at every level, changes with skill or is unresolved.
    """
    if not rungs:
        raise ExperimentError("no rung to play")
    exps, frames = [], []
    for rung in rungs:
        if log is not None:
            log(f"rung {rung}:")
        sub = replace(design, bots=(rung,))
        where = rung_folder(out, len(exps), rung)
        exp = run_experiment(
            sub, where, kind, command, workers, overwrite, log=log, report_dir=where / "report" if reports else None
        )
        exps.append(exp)
        frames.append(exp.effects.assign(rung=rung))
    return exps, effect_levels(pd.concat(frames, ignore_index=True))


def rung_folder(out: str | Path, k: int, rung: str) -> Path:
    """The experiment folder of rung ``k`` (bot ``rung``) of a ladder experiment in ``out``."""
    return Path(out) / _slug(k, rung)
