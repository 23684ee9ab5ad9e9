"""Test-session set-up: compile the games' numba kernels once, side by side, when their cache is empty.

On a fresh checkout every game's kernels compile on first use (a minute or more of CPU each), inside
whichever test happens to come first, and again in each test process that meets them before the
cache holds them. Beforehand, in fresh processes, as many games at a time as there are cores, each
game plays a short game of its strong players (search, and the apprentice where it has one), replays
it with their options explained, and passes its conformance check: that compiles the kernels of play,
replay, explanation and the shared surface once for all tests, with a line per game. With
pytest-xdist this runs in the controlling process only, before the workers start.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

SLOWEST_FIRST = ("golem-poker", "golem", "century", "golems")
"""The games by the time their warm-up takes in CI, longest first (the "compiled ...'s kernels in N s" lines of
``.ci/run``'s log): started in this order, two at a time, the longest does not end last. Package size does not predict
it (golem-poker's package is the smallest and compiles longest). A game not named goes last."""


def _cold_games() -> list[tuple[str, int, list[str]]]:
    """(game, players, lineup) of every game whose numba cache holds no compiled code yet, slowest to compile first:
    its search and its apprentice (where it has one) in the first seats, ``random`` in the others."""
    from simulate.jitcache import is_compiled
    from simulate.registry import available_games, make

    cold = []
    for name in available_games():
        game = make(name)
        module = type(game).__module__
        if not is_compiled(module):
            players = max(2, game.info.min_players)
            strong = ["search:iterations=8", *(["apprentice"] if game.info.apprentice else [])]
            cold.append((name, players, (strong + ["random"] * players)[:players]))
    order = {name: k for k, name in enumerate(SLOWEST_FIRST)}
    return sorted(cold, key=lambda entry: order.get(entry[0], len(order)))


def _compile(name: str, players: int, lineup: list[str], where: Path) -> str:
    """Play, replay with options explained and check the game in fresh processes, printing a line; the error text if
    a step fails."""
    from simulate.conformance import CHECKS

    run_dir = where / name
    only = [arg for check in CHECKS if check != "adaptation" for arg in ("--only", check)]
    steps = [
        ["simulate", name, "-p", str(players), "--bots", ",".join(lineup), "-n", "1", "-w", "1", "--out", str(run_dir)],
        ["replay", str(run_dir), "--game", "0", "--html", str(where / f"{name}.html"), "--explain"],
        ["check", name, "--games", "1", *only],
    ]
    started = time.perf_counter()
    for args in steps:
        done = subprocess.run([sys.executable, "-m", "simulate", *args], capture_output=True, text=True)
        if done.returncode != 0:
            return f"{name}: {' '.join(args)}: {done.stderr.strip()[-300:]}"
    print(f"conftest: compiled {name}'s kernels in {time.perf_counter() - started:.0f} s", flush=True)
    return ""


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or os.environ.get("NUMBA_DISABLE_JIT"):
        return
    cold = _cold_games()
    if not cold:
        return
    cores = os.cpu_count() or 1
    names = ", ".join(game for game, _, _ in cold)
    print(f"conftest: compiling the kernels of {names} (first use only: about a minute of CPU each, {cores} at a time)")
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=cores) as pool:
        errors = [e for e in pool.map(lambda g: _compile(*g, Path(tmp)), cold) if e]
    for error in errors:  # the tests of that game will fail and say why; this only says where it started
        print(f"conftest: compiling before the tests failed: {error}", file=sys.stderr)
