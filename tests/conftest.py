"""Test-session set-up: compile the games' numba kernels once, side by side, when their cache is empty.

On a fresh checkout every game's kernels compile on first use (about a minute of CPU each), inside
whichever test happens to come first, one game after another, and again in every process of a
test that starts workers before the cache exists. Playing one small run and one replay of each
game beforehand, as many games at a time as there are cores, fills the cache once for all tests,
with a line per game. With pytest-xdist this runs in the controlling process only, before the
workers start.
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


def _cold_games() -> list[tuple[str, int, str]]:
    """(game, players, bot) of every game whose numba cache holds no compiled code yet, largest code first."""
    from simulate.jitcache import is_compiled
    from simulate.registry import available_games, make

    cold = []
    for name in available_games():
        game = make(name)
        module = type(game).__module__
        if not is_compiled(module):
            size = sum(f.stat().st_size for f in Path(sys.modules[module].__file__).parent.glob("*.py"))
            cold.append((size, name, max(2, game.info.min_players), next(iter(game.info.bots))))
    return [entry[1:] for entry in sorted(cold, reverse=True)]


def _compile(name: str, players: int, bot: str, where: Path) -> str:
    """Play a small run and replay one of its games in fresh processes, printing a line; the error text if one fails."""
    run_dir = where / name
    steps = [
        ["simulate", name, "-p", str(players), "--bots", bot, "-n", "8", "-w", "1", "--out", str(run_dir), "--quiet"],
        ["replay", str(run_dir), "--game", "0", "--json"],
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
