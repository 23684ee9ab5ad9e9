"""Where numba caches the lab's compiled code: a per-user folder named by package version and sources' digest.

Numba caches a compiled function beside its source (``__pycache__``) by default, which for an
installed copy means inside site-packages, where ``pip`` leaves the files behind when it uninstalls
or upgrades the package (and a leftover ``simulate/`` folder then shadows an editable install). Every
folder that calls :func:`use_cache` (the game packages, ``simulate`` for its generator and
``analysis``) has its functions cached instead in::

    <root>/<package version>/<folder name>-<hash of the folder's path>/<digest of its sources>/

where ``<root>`` is ``$NUMBA_CACHE_DIR/golem-lab`` when that variable is set, else the per-user cache
folder (``$XDG_CACHE_HOME/golem-lab`` or ``~/.cache/golem-lab`` on Linux, as platformdirs says), else
a folder in the temporary directory when neither is writable; so a read-only install works. The
folder's path is in the key, so two checkouts or worktrees never share (nor thrash) a cache.

Numba checks a cached function against its own file only. A game's kernel inlines the bots and the
engine from other files of its package (and the generator of ``simulate/rng.py``, the tree search of
``simulate/search.py``, the learned value of ``simulate/apprentice.py``, the play loop of ``simulate/play.py``),
so after an edit or an upgrade of those files it would go on running the machine code of the old rules. The digest
covers every Python file of the folder and :data:`SHARED_SOURCES`: when any changes, the kernels
compile anew into a new folder and the folder's older caches are deleted. Each ``<folder name>-<hash>``
folder names its source folder (file ``source``), and caches whose source folder is gone (a removed
checkout or virtual environment) or that another version of the same folder wrote are deleted too.
"""

from __future__ import annotations

import contextlib
import functools
import getpass
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

from simulate import __version__, jitcalls

__all__ = [
    "SHARED_SOURCES",
    "cache_dir",
    "cache_root",
    "compiling_notice",
    "is_compiled",
    "serves",
    "sources_digest",
    "use_cache",
]

SHARED_SOURCES = tuple(
    Path(__file__).resolve().parent / name for name in ("rng.py", "search.py", "apprentice.py", "play.py")
)
"""Files outside a game package whose numba functions the game's kernels inline."""
APP = "golem-lab"
_FOLDERS: set[Path] = set()
"""Folders whose numba functions are cached by :func:`cache_dir` (those that called :func:`use_cache`)."""
_SUBPACKAGES: dict[Path, tuple[str, ...]] = {}
"""Folder of :data:`_FOLDERS` -> the sub-packages whose code its kernels inline (``use_cache(..., subpackages)``)."""
_OWNER: dict[Path, Path] = {}
"""Sub-package folder -> the folder that declared it: its functions are cached with that folder's."""
_ROOTS = (Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent / "analysis")
"""The lab's packages: a folder in them is cached by :func:`cache_dir` once the locator is in, even without
calling :func:`use_cache` (which also deletes its stale caches)."""


def sources_digest(package: Path, subpackages: tuple[str, ...] = ()) -> str:
    """SHA-256 over the names and bytes of the package's Python files, those of its ``subpackages`` (named by their
    path in the package) and :data:`SHARED_SOURCES`."""
    h = hashlib.sha256()
    inner = [path for sub in subpackages for path in sorted((package / sub).glob("*.py"))]
    for path in [*sorted(package.glob("*.py")), *inner]:
        h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for path in SHARED_SOURCES:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


@functools.cache
def cache_root() -> Path:
    """The first writable of ``$NUMBA_CACHE_DIR/golem-lab``, the user cache folder and a temporary folder."""
    from platformdirs import user_cache_dir

    candidates = [Path(user_cache_dir(APP, appauthor=False)), Path(tempfile.gettempdir()) / f"{APP}-{_user()}"]
    if os.environ.get("NUMBA_CACHE_DIR"):
        candidates.insert(0, Path(os.environ["NUMBA_CACHE_DIR"]) / APP)
    return next((c for c in candidates if _writable(c)), candidates[-1])


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container)
        return str(os.getuid()) if hasattr(os, "getuid") else "user"


@functools.cache
def cache_dir(package: Path) -> Path:
    """The folder holding the numba cache of the functions defined in ``package``'s files (a declared sub-package's
    functions are cached with its package's, under one digest of both)."""
    package = package.resolve()
    package = _OWNER.get(package, package)
    where = hashlib.sha256(str(package).encode()).hexdigest()[:12]
    digest = sources_digest(package, _SUBPACKAGES.get(package, ()))
    return cache_root() / __version__ / f"{package.name}-{where}" / digest[:16]


def is_compiled(module: str, kernel: str = "play") -> bool:
    """Whether the cache of the folder of ``module`` (an imported module's name) holds its game loop.

    The loop is the module ``kernel`` of that folder: other functions of the folder may be cached
    without it (golem-poker's data tables compile when its data are read), and then the run's workers
    would each compile the loop.
    """
    return any(cache_dir(Path(sys.modules[module].__file__).parent).glob(f"{kernel}.*.nbi"))


def compiling_notice(title: str) -> str:
    """What a command prints before compiling a game's kernels (``title``: the game's title)."""
    return f"compiling the kernels of {title}: first use only, about a minute"


def serves(folder: Path) -> bool:
    """Whether the numba functions of ``folder`` are cached by :func:`cache_dir` (rather than as numba would)."""
    return folder in _FOLDERS or folder in _OWNER or any(folder.is_relative_to(root) for root in _ROOTS)


def use_cache(module_file: str, subpackages: tuple[str, ...] = ()) -> bool:
    """Cache the numba functions of the folder of ``module_file`` in :func:`cache_dir`; call before defining them.
    Also compiles the lab's functions called from compiled code once per array layout (:mod:`simulate.jitcalls`).

    ``subpackages`` name the folders of the package whose numba functions its kernels inline (Golem's ``engine``):
    their functions are cached with the package's, and its digest covers their files. Deletes the folder's caches of
    other sources; returns whether there were any.
    """
    package = Path(module_file).resolve().parent
    _install_locator()
    jitcalls.install()
    _FOLDERS.add(package)
    _SUBPACKAGES[package] = tuple(subpackages)
    for sub in subpackages:
        _OWNER[(package / sub).resolve()] = package
    current = cache_dir(package)
    stale = [old for old in current.parent.glob("*") if old.is_dir() and old.name != current.name]
    for old in stale:
        shutil.rmtree(old, ignore_errors=True)
    _record_source(current.parent, package)
    _prune_orphans()
    return bool(stale)


SOURCE_RECORD = "source"
"""File in each ``<folder name>-<hash>`` cache folder naming the package folder whose code it caches."""


def _record_source(folder: Path, package: Path) -> None:
    record = folder / SOURCE_RECORD
    if record.is_file():
        return
    with contextlib.suppress(OSError):  # a read-only cache: it is only not pruned
        folder.mkdir(parents=True, exist_ok=True)
        record.write_text(str(package))


@functools.cache
def _prune_orphans() -> None:
    """Delete the caches of package folders that are gone (a removed checkout) or of another version of this one.

    Only folders that name their source (:data:`SOURCE_RECORD`) are judged; once a process.
    """
    here = cache_root() / __version__
    for record in cache_root().glob(f"*/*/{SOURCE_RECORD}"):
        folder = record.parent
        try:
            source = Path(record.read_text())
        except OSError:
            continue
        other_version = folder.parent != here and (here / folder.name).is_dir()
        if not source.is_dir() or other_version:
            shutil.rmtree(folder, ignore_errors=True)
            with contextlib.suppress(OSError):
                folder.parent.rmdir()  # the version's folder, once empty


@functools.cache
def _install_locator() -> None:
    """Put a locator of the folders of :func:`use_cache` first in numba's list (numba asks each in turn)."""
    from numba.core import caching

    class LabCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
        """Numba's cache locator for a function of a folder that called :func:`use_cache`."""

        def __init__(self, py_func, py_file: str) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = str(cache_dir(Path(py_file).resolve().parent))

        def get_cache_path(self) -> str:
            return self._cache_path

        @classmethod
        def from_function(cls, py_func, py_file: str):
            if not serves(Path(py_file).resolve().parent):
                return None
            return super().from_function(py_func, py_file)

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # _CacheImpl before numba 0.6x
    impl._locator_classes.insert(0, LabCacheLocator)
