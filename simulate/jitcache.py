"""Numba's on-disk cache of a game package, dropped whenever any of the package's sources changes.

Numba checks a cached function against its own file only. A game's kernel inlines the bots and the
engine from other files of its package (and the generator of ``simulate/rng.py``), so after an edit
or an upgrade of those files it would go on running the machine code of the old rules. Each game
package calls :func:`drop_stale_cache` when it is imported: it keeps a digest of the sources beside
the cache and deletes the package's cached code when the digest differs, so the kernels compile anew.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["SHARED_SOURCES", "cache_dir", "drop_stale_cache", "sources_digest"]

SHARED_SOURCES = (Path(__file__).resolve().parent / "rng.py",)
"""Files outside a game package whose numba functions the game's kernels inline."""
STAMP = "golem-sources.sha256"


def sources_digest(package: Path) -> str:
    """SHA-256 over the names and bytes of the package's Python files and :data:`SHARED_SOURCES`."""
    h = hashlib.sha256()
    for path in [*sorted(package.glob("*.py")), *SHARED_SOURCES]:
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def cache_dir(package: Path) -> Path | None:
    """Where numba caches the functions of ``package`` (as numba itself chooses), or None if nowhere."""
    try:
        from numba.core.caching import _CacheImpl
    except ImportError:
        return package / "__pycache__"
    source = next(iter(sorted(package.glob("*.py"))))
    for locator_class in _CacheImpl._locator_classes:
        locator = locator_class.from_function(sources_digest, str(source))
        if locator is not None:
            return Path(locator.get_cache_path())
    return None


def drop_stale_cache(package_file: str) -> bool:
    """Delete the package's cached numba code if its sources changed since the cache was stamped; whether it did."""
    package = Path(package_file).resolve().parent
    where = cache_dir(package)
    if where is None:
        return False
    digest = sources_digest(package)
    stamp = where / STAMP
    if stamp.is_file() and stamp.read_text() == digest:
        return False
    stale = [*where.glob("*.nbi"), *where.glob("*.nbc")]
    try:
        for path in stale:
            path.unlink(missing_ok=True)
        where.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # a read-only cache: numba will not write there either
        return False
    return bool(stale)
