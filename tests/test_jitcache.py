"""The numba cache lives per user, keyed by folder and sources: never beside the sources, never running old code."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULE = "from numba import njit\n\n\n@njit(cache=True)\ndef points():\n    return {}\n"
KERNEL = (
    "from numba import njit\n\n"
    "from pkg.rule import points\n\n\n@njit(cache=True)\ndef play():\n    return 10 * points()\n"
)
GUARD = "from simulate.jitcache import use_cache\n\nuse_cache(__file__)\n"


def _package(where: Path) -> Path:
    pkg = where / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(GUARD)
    (pkg / "rule.py").write_text(RULE.format(1))
    (pkg / "kernel.py").write_text(KERNEL)
    return pkg


def _play(where: Path, cache_home: Path, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
    environ |= {"PYTHONPATH": os.pathsep.join([str(where), str(ROOT)]), "XDG_CACHE_HOME": str(cache_home), **env}
    done = subprocess.run(
        [sys.executable, "-B", "-c", "from pkg.kernel import play; print(play())"],
        cwd=where,
        env=environ,
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr.decode()[-500:]
    return done.stdout.decode().strip()


def _cached(where: Path) -> list[Path]:
    return sorted(where.rglob("kernel.play-*.nbi"))


def test_a_cached_kernel_runs_the_new_code_of_a_callee_in_another_file(tmp_path: Path) -> None:
    """Without the digest the second play prints 10 (numba 0.68 checks a cached function against its own file)."""
    pkg = _package(tmp_path / "src")
    cache = tmp_path / "cache"
    assert _play(pkg.parent, cache) == "10"
    (first,) = _cached(cache)  # the kernel was cached, in the user's cache folder
    (pkg / "rule.py").write_text(RULE.format(2))
    assert _play(pkg.parent, cache) == "20"
    assert _play(pkg.parent, cache) == "20"  # and cached again, from the new sources
    (second,) = _cached(cache)  # the cache of the old sources was deleted
    assert second != first


def test_the_cache_is_per_user_never_beside_the_sources_and_names_version_and_folder(tmp_path: Path) -> None:
    from simulate import __version__

    pkg = _package(tmp_path / "src")
    _play(pkg.parent, tmp_path / "cache")
    (index,) = _cached(tmp_path / "cache")
    assert not [p for p in tmp_path.joinpath("src").rglob("*") if p.suffix in (".nbi", ".nbc")]
    relative = index.relative_to(tmp_path / "cache").parts
    assert relative[:2] == ("golem-lab", __version__)
    assert relative[2].startswith("pkg-")


def test_numba_cache_dir_wins_when_set(tmp_path: Path) -> None:
    pkg = _package(tmp_path / "src")
    _play(pkg.parent, tmp_path / "cache", NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    assert _cached(tmp_path / "numba" / "golem-lab") and not _cached(tmp_path / "cache")


def test_two_copies_of_the_same_sources_do_not_share_a_cache(tmp_path: Path) -> None:
    """Worktrees of one repository hold the same files at other paths: each keeps its own cache."""
    one, two = _package(tmp_path / "one"), _package(tmp_path / "two")
    _play(one.parent, tmp_path / "cache")
    _play(two.parent, tmp_path / "cache")
    assert len({index.parent for index in _cached(tmp_path / "cache")}) == 2


def test_caches_of_a_removed_checkout_or_another_version_are_deleted(tmp_path: Path) -> None:
    """Removed worktrees and upgraded packages leave no cache behind once the lab runs again."""
    import shutil

    from simulate import __version__

    gone, kept = _package(tmp_path / "gone"), _package(tmp_path / "kept")
    cache = tmp_path / "cache"
    _play(gone.parent, cache)
    _play(kept.parent, cache)
    (kept_cache,) = {i.parent.parent for i in _cached(cache) if (i.parent.parent / "source").read_text() == str(kept)}
    old = cache / "golem-lab" / "0.0.1-old" / kept_cache.name
    shutil.copytree(kept_cache, old)  # the same folder's cache written by an older version
    shutil.rmtree(gone.parent)
    _play(kept.parent, cache)
    assert [i.parent.parent for i in _cached(cache)] == [kept_cache]
    assert sorted(p.name for p in (cache / "golem-lab").iterdir()) == [__version__]


def test_a_read_only_install_without_a_writable_cache_folder_still_runs(tmp_path: Path) -> None:
    """The package folder read-only and the user's cache folder impossible: the kernel runs, cached in TMPDIR."""
    pkg = _package(tmp_path / "src")
    blocker = tmp_path / "a-file"
    blocker.write_text("")  # no folder can be made under a file, not even by root
    (tmp_path / "tmp").mkdir()
    pkg.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert _play(pkg.parent, blocker / "cache", TMPDIR=str(tmp_path / "tmp"), HOME=str(blocker)) == "10"
        assert _cached(tmp_path / "tmp")
        assert sorted(p.name for p in pkg.iterdir()) == ["__init__.py", "kernel.py", "rule.py"]
    finally:
        pkg.chmod(stat.S_IRWXU)


def test_every_folder_of_the_lab_is_served_and_no_other(tmp_path: Path) -> None:
    """A new module with cached kernels in the lab's packages never writes beside itself, even without use_cache."""
    import simulate
    from simulate.jitcache import serves

    assert serves(Path(simulate.__file__).resolve().parent / "search")
    assert serves(ROOT / "analysis" / "stats")
    assert not serves(tmp_path)


def test_a_kernel_runs_the_new_code_of_a_declared_sub_package_cached_with_its_package(tmp_path: Path) -> None:
    """Golem's kernels inline its ``engine`` sub-package: an edit there compiles them anew (without ``subpackages``
    the package's digest covers its own folder only, and the second play prints 10), and the sub-package's
    functions are cached with the package's (one folder, one digest), never beside their sources."""
    pkg = tmp_path / "src" / "pkg"
    (pkg / "rules").mkdir(parents=True)
    guard = GUARD.replace("use_cache(__file__)", 'use_cache(__file__, subpackages=("rules",))')
    (pkg / "__init__.py").write_text(guard)
    (pkg / "rules" / "__init__.py").write_text("")
    (pkg / "rules" / "rule.py").write_text(RULE.format(1))
    (pkg / "kernel.py").write_text(
        KERNEL.replace("pkg.rule ", "pkg.rules.rule ") + "\n\npoints()  # cached on its own too\n"
    )
    cache = tmp_path / "cache"
    assert _play(pkg.parent, cache) == "10"
    (pkg / "rules" / "rule.py").write_text(RULE.format(2))
    assert _play(pkg.parent, cache) == "20"
    (index,) = _cached(cache)
    assert [p.name for p in index.parent.glob("rule.points-*.nbi")]  # beside the kernel: one digest for both
    assert [p.name for p in (cache / "golem-lab").glob("*/*") if p.is_dir()] == [index.parent.parent.name]
    assert not [p for p in pkg.rglob("*") if p.suffix in (".nbi", ".nbc")]
