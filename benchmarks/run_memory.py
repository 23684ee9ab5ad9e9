"""Peak memory of whole `golem simulate` runs against their size: prints one JSON line per run.

Usage: python benchmarks/run_memory.py [GAMES ...]   (default: 100000 10000000)
       python benchmarks/run_memory.py --game golem-poker --bots threshold --players 4 [GAMES ...]

Two figures: ``max_process_rss_mb``, the largest peak resident set of any one process of the run
(exact, from the kernel's accounting via getrusage), and ``peak_tree_rss_mb``, the peak of the
summed resident sets of the process tree (main process and workers), sampled every 0.1 s with
psutil; the longer a run, the more transient peaks the sampling catches.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]


def measure(games: int, game: str = "century", bots: str = "greedy", players: int = 3) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [
            sys.executable,
            "-m",
            "simulate",
            "simulate",
            game,
            "-p",
            str(players),
            "-n",
            str(games),
            "--bots",
            bots,
            "--seed",
            "1",
            "--out",
            str(Path(tmp) / "run"),
            "-q",
        ]
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT)
        parent = psutil.Process(proc.pid)
        peak = 0
        while proc.poll() is None:
            try:
                procs = [parent, *parent.children(recursive=True)]
                peak = max(peak, sum(p.memory_info().rss for p in procs if p.is_running()))
            except psutil.Error:
                pass
            time.sleep(0.1)
        seconds = time.perf_counter() - start
        if proc.returncode:
            raise SystemExit(f"golem simulate failed with exit code {proc.returncode}")
    return {
        "bench": "run_memory",
        "game": game,
        "players": players,
        "bots": bots,
        "games": games,
        "seconds": round(seconds, 1),
        "games_per_s": round(games / seconds),
        "max_process_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024),
        "peak_tree_rss_mb": round(peak / 2**20),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Peak memory of whole golem simulate runs")
    parser.add_argument("games", type=int, nargs="*", default=[100_000, 10_000_000])
    parser.add_argument("--game", default="century")
    parser.add_argument("--bots", default="greedy")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--one", action="store_true", help="measure one size in this interpreter")
    a = parser.parse_args()
    if a.one:
        print(json.dumps(measure(a.games[0], a.game, a.bots, a.players)), flush=True)
        return
    # a fresh interpreter per size, so that getrusage's maximum covers that run alone
    for n in a.games:
        cmd = [sys.executable, __file__, "--one", str(n), "--game", a.game, "--bots", a.bots]
        cmd += ["--players", str(a.players)]
        one = subprocess.run(cmd, capture_output=True, text=True, check=True)
        print(one.stdout.strip(), flush=True)


if __name__ == "__main__":
    main()
