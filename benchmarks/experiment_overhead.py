"""Overhead of the experiment layer over the raw runs it plays; prints one JSON line per measurement.

A sweep (baseline + variants, paired) is played with ``run_experiment``; its manifest times the
runner calls (``run_seconds``) and the whole experiment (``seconds``): the difference is the
experiment layer (variant data folders, reading the runs, paired comparisons, stopping checks,
manifest). The same runs are played with the bare runner too, each into its own directory as the
experiment does (``raw_seconds``), before or after the experiment in turns. CPU seconds of the
process and its worker processes are measured for both as well: on a shared machine they are the
robust comparison (``median_cpu_overhead_vs_raw``). The report is built afterwards and timed
apart. Medians of ``--repeats``; the 1-minute load average before and after is printed too.

    python benchmarks/experiment_overhead.py --games 100000 --repeats 3
    python benchmarks/experiment_overhead.py --game golem-poker --players 4 --bots threshold \\
        --set max_discards=1,3 --games 1000000 --repeats 3
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from analysis.report.experiment import build_experiment_report  # noqa: E402
from simulate import __version__  # noqa: E402
from simulate.lineup import parse_lineup  # noqa: E402
from simulate.orchestration.experiments import Design, run_experiment, sweep_variants  # noqa: E402
from simulate.registry import make  # noqa: E402
from simulate.runner import RunSpec, run  # noqa: E402
from simulate.variants import settable_values, write_variant  # noqa: E402


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the runner's worker processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _raw_runs(design: Design, root: Path, workers: int, rounds: int) -> tuple[float, float]:
    """Wall and CPU seconds of the experiment's runs played with the bare runner, each into its own directory."""
    game = make(design.game)
    lineup = parse_lineup(game, list(design.bots), design.num_players)
    folders = []
    for k, variant in enumerate(design.variants):  # the variants' data folders, written before the clock starts
        folder, rules = write_variant(game, variant, root / "raw-data" / f"v{k:02d}")
        folders.append((k, folder, rules))
    t0, c0 = time.perf_counter(), _cpu()
    for k, folder, rules in folders:
        for r in range(rounds):
            spec = RunSpec(
                game=game.info.name,
                num_players=design.num_players,
                num_games=design.num_games,
                master_seed=design.seed + r,
                lineup=lineup,
                chunk_size=max(500, min(20_000, -(-design.num_games // (2 * workers)))),
                rules=rules,
                cards=str(folder),
            )
            run(spec, root / "raw" / f"v{k:02d}" / f"round-{r:03d}", workers=workers, progress=False)
    return time.perf_counter() - t0, _cpu() - c0


def measure(args: argparse.Namespace, root: Path, raw_first: bool = False) -> dict:
    game = make(args.game)
    values = settable_values(game)
    sets = [tuple(s.split("=", 1)) for s in args.set]
    variants = sweep_variants(values, sets)
    rounds = args.rounds
    design = Design(
        game.info.name,
        args.players,
        tuple(args.bots.split(",")),
        tuple(variants),
        num_games=args.games // rounds,
        max_games=args.games,
        precision=1e-6 if rounds > 1 else None,  # never reached: plays every round, checking after each
        seed=1,
    )
    if raw_first:
        raw, raw_cpu = _raw_runs(design, root, args.workers, rounds)
    out = root / "exp"
    t0, c0 = time.perf_counter(), _cpu()
    exp = run_experiment(design, out, workers=args.workers, overwrite=True)
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    if not raw_first:
        raw, raw_cpu = _raw_runs(design, root, args.workers, rounds)
    t0 = time.perf_counter()
    build_experiment_report(exp, out / "report")
    report = time.perf_counter() - t0
    t = exp.manifest["timing"]
    shutil.rmtree(out)
    return {
        "wall": wall,
        "run_seconds": t["run_seconds"],
        "overhead_seconds": t["overhead_seconds"],
        "overhead_share": t["overhead_share"],
        "raw_seconds": raw,
        "cpu": cpu,
        "raw_cpu": raw_cpu,
        "report_seconds": report,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="century")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--set", action="append", default=None, help="NAME=V1,V2 (repeatable)")
    parser.add_argument("--games", type=int, default=100_000, help="games per variant")
    parser.add_argument("--rounds", type=int, default=1, help="rounds the games are split into")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    args.set = args.set or ["points.P36.vp=16,24", "start.seat1=YYYY"]
    with tempfile.TemporaryDirectory(prefix="golem-bench-") as tmp:  # warm-up: numba caches loaded, compiled
        measure(argparse.Namespace(**{**vars(args), "games": 2000 * args.rounds}), Path(tmp))
    load_before = os.getloadavg()[0]
    results = []
    for k in range(args.repeats):  # the experiment and the raw runs take turns going first: load drifts
        with tempfile.TemporaryDirectory(prefix="golem-bench-") as tmp:
            results.append(measure(args, Path(tmp), raw_first=k % 2 == 1))
    med = {k: statistics.median(r[k] for r in results) for k in results[0]}
    print(
        json.dumps(
            {
                "benchmark": "experiment_overhead",
                "version": __version__,
                "game": args.game,
                "players": args.players,
                "bots": args.bots,
                "sets": args.set,
                "variants": len(sweep_variants(settable_values(make(args.game)), [s.split("=", 1) for s in args.set])),
                "games_per_variant": args.games,
                "rounds": args.rounds,
                "workers": args.workers,
                "repeats": args.repeats,
                "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
                **{f"median_{k}": round(v, 3) for k, v in med.items()},
                "median_overhead_vs_raw": round((med["wall"] - med["raw_seconds"]) / med["wall"], 4),
                "median_cpu_overhead_vs_raw": round((med["cpu"] - med["raw_cpu"]) / med["cpu"], 4),
            }
        )
    )


if __name__ == "__main__":
    main()
