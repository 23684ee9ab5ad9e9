"""Kill-and-resume fault campaign: every game's runs killed at random moments must resume to identical files.

For each game, one small run is played without interruption (the reference; played twice, the
first warming the kernels' cache, the second timed). Then, ``--trials`` times, the same command is
started with two local workers and killed with SIGKILL after a random delay drawn between 0 and
the reference's wall time (so some kills land before the first manifest, some mid-run, some at the
end); its pool workers must be gone within ``--orphan-wait`` seconds; the same command with
``--resume`` (without it when the kill came before any file was written) must succeed, leave no
temporary file or lock, pass ``golem verify`` and hold byte-identical parts and the same chunk
records as the reference. Prints one line per trial and ``GAME: N of N identical`` per game; exits
1 if any trial differs.

    python benchmarks/fault_campaign.py                 # 4 trials of each game, a few minutes
    python benchmarks/fault_campaign.py --game century --trials 10 --seed 3
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
RUNS = {
    "century": ["-p", "3", "--bots", "greedy,engine,planner", "-n", "3000", "--chunk-size", "150"],
    "golems": ["-p", "2", "--bots", "greedy,collector", "-n", "40000", "--chunk-size", "2000"],
    "golem-poker": ["-p", "4", "--bots", "threshold", "-n", "20000", "--chunk-size", "1000"],
    "golem": ["-p", "2", "--bots", "greedy", "-n", "1500", "--chunk-size", "75"],
}
"""Each game's run: about 20 chunks, a few seconds of play on two workers."""


def command(game: str, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "simulate", "simulate", game, *RUNS[game], "--workers", "2", "--seed", "11",
            "--out", str(out), "-q", *extra]  # fmt: skip


def parts(run_dir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run_dir)): p.read_bytes() for p in sorted(run_dir.rglob("*.parquet"))}


def chunks(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())["chunks"]


def trial(game: str, reference: Path, out: Path, delay: float, orphan_wait: float) -> tuple[bool, str]:
    """Start, kill after ``delay`` s, resume; whether the result is identical, and what happened."""
    proc = subprocess.Popen(command(game, out), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parent = psutil.Process(proc.pid)
    workers: list[psutil.Process] = []
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            workers = parent.children(recursive=True) or workers
        except psutil.Error:
            break
        time.sleep(0.02)
    killed = proc.poll() is None
    recorded = len(chunks(out)) if (out / "manifest.json").is_file() else None
    if killed:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    _, alive = psutil.wait_procs(workers, timeout=orphan_wait)
    for p in alive:
        p.kill()
    where = "after the run ended" if not killed else (
        "before the first manifest" if recorded is None else f"with {recorded} chunks recorded")  # fmt: skip
    if alive:
        return False, f"killed {where}: {len(alive)} worker(s) outlived the run"
    again = "--resume" if (out / "data").is_dir() else "--quiet"  # a kill before any file: the plain command
    resumed = subprocess.run(command(game, out, again), cwd=ROOT, capture_output=True, text=True)
    if resumed.returncode != 0:
        return False, f"killed {where}: resume failed: {resumed.stderr.strip()}"
    verified = subprocess.run([sys.executable, "-m", "simulate", "verify", str(out)], cwd=ROOT, capture_output=True,
                              text=True)  # fmt: skip
    leftovers = [str(p.relative_to(out)) for p in out.rglob(".*") if p.is_file()]
    if verified.returncode != 0 or leftovers:
        return False, f"killed {where}: verify: {verified.stderr.strip()} leftovers: {leftovers}"
    same = parts(out) == parts(reference) and chunks(out) == chunks(reference)
    return same, f"killed {where}: resumed, {'identical' if same else 'DIFFERENT'}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(RUNS), action="append", help="Game(s) to try [default: all four].")
    parser.add_argument("--trials", type=int, default=4, help="Kill-and-resume trials per game.")
    parser.add_argument("--seed", type=int, default=0, help="Seed of the kill delays.")
    parser.add_argument("--orphan-wait", type=float, default=10.0, help="Seconds workers may outlive a kill.")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="golem-faults-") as tmp:
        for game in args.game or list(RUNS):
            reference = Path(tmp) / game / "reference"
            subprocess.run(command(game, reference), cwd=ROOT, check=True)  # also loads the kernels' cache once
            started = time.monotonic()
            subprocess.run(command(game, reference, "--overwrite"), cwd=ROOT, check=True)
            wall = time.monotonic() - started
            print(f"{game}: reference run {wall:.1f} s wall (the second of two)", flush=True)
            good = 0
            for k in range(args.trials):
                out = Path(tmp) / game / f"trial-{k}"
                delay = rng.uniform(0.0, wall)
                ok, what = trial(game, reference, out, delay, args.orphan_wait)
                good += ok
                print(f"  trial {k + 1} (kill at {delay:.2f} s): {what}", flush=True)
                shutil.rmtree(out, ignore_errors=True)
            print(f"{game}: {good} of {args.trials} identical", flush=True)
            failures += args.trials - good
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
