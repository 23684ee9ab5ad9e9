"""Whole-run speed targets of the four games, measured side by side as a user runs them.

Each target is one ``golem simulate`` command (all local cores, Parquet writing and the printed
summary included), started as a fresh process into a fresh directory, so start-up, numba cache
loading and the summary count. Prints one JSON line per run and per target (median of
``--repeats``, with the load average around the runs), then a Markdown table.

    python benchmarks/targets.py                     # every game, 3 repeats
    python benchmarks/targets.py --only century --repeats 5
    python benchmarks/targets.py --scale 0.1         # a tenth of the games (a quick look)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# game -> (simulate arguments, games, target games/s): the issues' figures
TARGETS = {
    "century": (["-p", "3", "--bots", "greedy"], 1_000_000, 50_000),
    "golem-poker": (
        ["-p", "4", "--bots", "tight_passive,tight_aggressive,loose_passive,loose_aggressive"],
        10_000_000,
        500_000,
    ),
    "golems": (["-p", "2", "--bots", "greedy"], 2_000_000, 200_000),
    "golem": (["-p", "4", "--bots", "greedy,golems,artifacts,balanced"], 100_000, 10_000),
}


def time_run(game: str, args: list[str], games: int, workers: int, where: Path) -> float:
    """Wall seconds of one ``golem simulate`` process; raises if it fails."""
    out = where / f"{game}-run"
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, "-m", "simulate", "simulate", game, *args, "-n", str(games), "-w", str(workers)]
    start = time.perf_counter()
    done = subprocess.run([*cmd, "--out", str(out)], capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{game}: {' '.join(cmd)} failed: {done.stderr.strip().splitlines()[-1:]}")
    shutil.rmtree(out, ignore_errors=True)
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=sorted(TARGETS), action="append", help="Game to measure (repeatable).")
    ap.add_argument("--repeats", type=int, default=3, help="Runs per game; the median is reported.")
    ap.add_argument("--scale", type=float, default=1.0, help="Fraction of each target's game count to play.")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="Local workers (default: all cores).")
    ns = ap.parse_args()
    if ns.repeats < 1 or not 0 < ns.scale <= 10:
        ap.error("--repeats must be at least 1 and --scale within (0, 10]")
    rows = []
    with tempfile.TemporaryDirectory(prefix="golem-targets-") as tmp:
        for game in ns.only or list(TARGETS):
            args, full, target = TARGETS[game]
            games = max(1, int(full * ns.scale))
            time_run(game, args, min(games, 1000), ns.workers, Path(tmp))  # numba cache loaded or compiled once
            load_before = os.getloadavg()[0]
            times = []
            for k in range(ns.repeats):
                times.append(time_run(game, args, games, ns.workers, Path(tmp)))
                print(json.dumps({"game": game, "repeat": k, "games": games, "seconds": round(times[-1], 2)}))
            med = statistics.median(times)
            row = {
                "game": game,
                "games": games,
                "workers": ns.workers,
                "median_seconds": round(med, 2),
                "min_seconds": round(min(times), 2),
                "max_seconds": round(max(times), 2),
                "games_per_s": round(games / med),
                "target_games_per_s": target,
                "met": games / med >= target,
                "load_before": round(load_before, 2),
                "load_after": round(os.getloadavg()[0], 2),
            }
            rows.append(row)
            print(json.dumps(row), flush=True)
    print("\n| game | games | wall median (min-max) | games/s | target | met | load (1 min) before/after |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| `{r['game']}` | {r['games']:,} | {r['median_seconds']} s ({r['min_seconds']}-{r['max_seconds']}) | "
            f"{r['games_per_s']:,} | {r['target_games_per_s']:,} | {'yes' if r['met'] else 'no'} | "
            f"{r['load_before']} / {r['load_after']} |"
        )


if __name__ == "__main__":
    main()
