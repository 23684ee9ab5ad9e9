"""What a game's first use costs to compile: CPU seconds and compilations, from an empty numba cache.

Each game plays one ``golem simulate`` of a few random-bot games as a fresh process into a fresh cache folder
(``NUMBA_CACHE_DIR``), so it compiles its play kernel and everything it calls. Prints one JSON line per game: the
child's CPU seconds, the wall seconds, and the numba functions and compiled signatures the cache then holds (a
function called with several argument types holds several). ``--numba-calls`` compiles as numba alone does
(``simulate.jitcalls`` not installed): run both side by side to see what one compilation per array layout saves.

    python benchmarks/compile_cost.py                       # every game
    python benchmarks/compile_cost.py --only golem --numba-calls
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NUMBA_CALLS = "from simulate import jitcalls; jitcalls.install = lambda: None; from simulate.cli import main; main()"
"""A child that runs the CLI with ``jitcalls.install`` a no-op: numba's own specialisation."""


def compiled(cache: Path) -> tuple[int, int]:
    """(functions, compiled signatures) in a numba cache folder's index files."""
    functions = signatures = 0
    for index in cache.rglob("*.nbi"):
        with index.open("rb") as f:
            pickle.load(f)  # numba's version stamp
            _, overloads = pickle.loads(f.read())
        functions += 1
        signatures += len(overloads)
    return functions, signatures


def measure(game: str, players: int, numba_calls: bool) -> dict:
    """Compile ``game`` from an empty cache in a child process; its costs."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(tmp) / "cache"), "PYTHONPATH": str(ROOT)}
        args = ["simulate", game, "-p", str(players), "--bots", "random", "-n", "8", "-w", "1", "-q"]
        command = ["-c", NUMBA_CALLS] if numba_calls else ["-m", "simulate"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, *command, *args, "--out", str(Path(tmp) / "run")], env=env, check=True, cwd=ROOT
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        functions, signatures = compiled(Path(tmp) / "cache")
    return {
        "game": game,
        "compiles": "numba" if numba_calls else "jitcalls",
        "cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1),
        "wall_s": round(wall, 1),
        "functions": functions,
        "signatures": signatures,
        "load_avg": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    from simulate.registry import available_games, make

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(available_games()), help="this game (repeatable)")
    parser.add_argument("--numba-calls", action="store_true", help="compile as numba alone does, for comparison")
    opts = parser.parse_args()
    for game in opts.only or sorted(available_games()):
        players = max(2, make(game).info.min_players)
        print(json.dumps(measure(game, players, opts.numba_calls)), flush=True)


if __name__ == "__main__":
    main()
