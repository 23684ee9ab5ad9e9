"""Peak memory of whole `golem simulate` runs against their size: prints one JSON line per run.

Usage: python benchmarks/run_memory.py [GAMES ...]   (default: 100000 10000000)

Two figures: ``max_process_rss_mb``, the largest peak resident set of any one process of the run
(exact, from the kernel's accounting via getrusage), and ``peak_tree_rss_mb``, the peak of the
summed resident sets of the process tree (main process and workers), sampled every 0.1 s with
psutil; the longer a run, the more transient peaks the sampling catches.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil


def measure(games: int, bots: str = "greedy", players: int = 3) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["golem", "simulate", "century", "-p", str(players), "-n", str(games), "--bots", bots,
               "--seed", "1", "--out", str(Path(tmp) / "run"), "-q"]
        start = time.perf_counter()
        proc = subprocess.Popen(cmd)
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
    return {"bench": "run_memory", "game": "century", "players": players, "bots": bots, "games": games,
            "seconds": round(seconds, 1), "games_per_s": round(games / seconds),
            "max_process_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024),
            "peak_tree_rss_mb": round(peak / 2**20)}


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(json.dumps(measure(int(sys.argv[2]))), flush=True)
    else:
        # a fresh interpreter per size, so that getrusage's maximum covers that run alone
        for n in [int(a) for a in sys.argv[1:]] or [100_000, 10_000_000]:
            cmd = [sys.executable, __file__, "--one", str(n)]
            one = subprocess.run(cmd, capture_output=True, text=True, check=True)
            print(one.stdout.strip(), flush=True)
