"""The numba cache of a game package follows its sources: a kernel never runs the old code of a callee."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULE = "from numba import njit\n\n\n@njit(cache=True)\ndef points():\n    return {}\n"
KERNEL = (
    "from numba import njit\n\n"
    "from pkg.rule import points\n\n\n@njit(cache=True)\ndef play():\n    return 10 * points()\n"
)
GUARD = "from simulate.jitcache import drop_stale_cache\n\ndrop_stale_cache(__file__)\n"


def _package(where: Path) -> Path:
    pkg = where / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(GUARD)
    (pkg / "rule.py").write_text(RULE.format(1))
    (pkg / "kernel.py").write_text(KERNEL)
    return pkg


def _play(where: Path) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(where), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-c", "from pkg.kernel import play; print(play())"], cwd=where, env=env, capture_output=True
    )
    assert done.returncode == 0, done.stderr.decode()[-500:]
    return done.stdout.decode().strip()


def test_a_cached_kernel_runs_the_new_code_of_a_callee_in_another_file(tmp_path: Path) -> None:
    """Without the guard the second play prints 10 (numba 0.68 checks a cached function against its own file)."""
    pkg = _package(tmp_path)
    assert _play(tmp_path) == "10"
    assert any(pkg.rglob("kernel.play-*.nbi"))  # the kernel was cached
    (pkg / "rule.py").write_text(RULE.format(2))
    assert _play(tmp_path) == "20"
    assert _play(tmp_path) == "20"  # and cached again, from the new sources
