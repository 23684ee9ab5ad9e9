"""Where a run is written: a local directory or any fsspec URL (``file://``, ``s3://``, ``gcs://``, ``memory://``).

A :class:`RunStore` offers the few file operations the runner needs, each atomic where a reader
could otherwise see half a file: whole files are written under a temporary name and then moved
into place (on object stores a single upload is already all or nothing).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import fsspec
from fsspec.implementations.local import LocalFileSystem


class StoreError(ValueError):
    """An output location whose filesystem is unknown or not installed; the message is one line."""


def is_url(location: str | Path) -> bool:
    """Whether ``location`` names a filesystem protocol (``s3://...``) rather than a local path."""
    return isinstance(location, str) and "://" in location


class RunStore:
    """A run's output location: ``root`` on the fsspec filesystem ``fs``.

    ``local`` is True for a directory of this machine (a plain path or ``file://``); ``dir`` is
    then its ``Path``.
    """

    def __init__(self, location: str | Path) -> None:
        self.url = str(location)
        try:
            self.fs, self.root = fsspec.core.url_to_fs(self.url)
        except (ImportError, ValueError) as e:  # an unknown protocol, or one whose package is missing (s3fs)
            raise StoreError(f"{self.url}: {' '.join(str(e).split())}") from None
        self.root = self.root.rstrip("/") or "/"
        self.local = isinstance(self.fs, LocalFileSystem)
        self.dir = Path(self.root) if self.local else None

    def __repr__(self) -> str:
        return f"RunStore({self.url!r})"

    def path(self, rel: str = "") -> str:
        """The full path of ``rel`` (a path inside the run, with ``/``) on the store's filesystem."""
        return f"{self.root}/{rel}" if rel else self.root

    def name(self, rel: str = "") -> str:
        """``rel`` as the user wrote the location, for messages."""
        base = self.url.rstrip("/")
        return f"{base}/{rel}" if rel else base

    def exists(self, rel: str = "") -> bool:
        return self.fs.exists(self.path(rel))

    def isfile(self, rel: str) -> bool:
        return self.fs.isfile(self.path(rel))

    def isdir(self, rel: str = "") -> bool:
        return self.fs.isdir(self.path(rel))

    def listdir(self, rel: str = "") -> list[str]:
        """Names of the entries in directory ``rel`` (empty if it does not exist)."""
        try:
            return [p.rstrip("/").rsplit("/", 1)[-1] for p in self.fs.ls(self.path(rel), detail=False)]
        except FileNotFoundError:
            return []

    def makedirs(self, rel: str = "") -> None:
        self.fs.makedirs(self.path(rel), exist_ok=True)

    def remove(self, rel: str) -> None:
        """Delete file or directory ``rel`` if it exists."""
        if self.exists(rel):
            self.fs.rm(self.path(rel), recursive=True)

    def read_bytes(self, rel: str) -> bytes:
        return self.fs.cat_file(self.path(rel))

    def write_atomic(self, rel: str, data: bytes) -> None:
        """Write ``data`` to ``rel`` under a temporary name, then move it into place."""
        final = self.path(rel)
        head, _, tail = final.rpartition("/")
        tmp = f"{head}/.{tail}.tmp-{os.getpid()}"
        if self.local:
            try:
                Path(tmp).write_bytes(data)
                os.replace(tmp, final)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
            return
        self.fs.pipe_file(tmp, data)
        self.fs.mv(tmp, final)

    def create_exclusive(self, rel: str, data: bytes) -> bool:
        """Create file ``rel`` holding ``data`` unless it exists; whether this call created it.

        Atomic on a local or shared POSIX filesystem (``O_EXCL``) and on an object store whose
        fsspec filesystem honours mode ``"xb"`` (a conditional write: s3fs, gcsfs, adlfs, memory).
        A filesystem that refuses ``"xb"`` gets a check, a write and a read-back that confirms
        this writer's bytes are the ones stored (not atomic).
        """
        if self.local:
            try:
                fd = os.open(self.path(rel), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                return False
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            return True
        try:
            with self.fs.open(self.path(rel), "xb") as f:
                f.write(data)
        except FileExistsError:
            return False
        except (ValueError, NotImplementedError):  # this filesystem has no exclusive mode
            if self.exists(rel):
                return False
            self.fs.pipe_file(self.path(rel), data)
        return self.read_bytes(rel) == data

    def put_file(self, local: Path, rel: str) -> None:
        """Copy local file ``local`` to ``rel``."""
        if self.local:
            shutil.copy2(local, self.path(rel))
        else:
            self.write_atomic(rel, Path(local).read_bytes())

    def local_folder(self, rel: str, key: str) -> Path:
        """Folder ``rel`` as a local directory: itself on a local store, else a copy cached under ``key``.

        ``key`` must change whenever the folder's contents may (the run id does: it hashes the data).
        """
        if self.local:
            return self.dir / rel
        cache = Path(tempfile.gettempdir()) / "golem-run-data" / key
        if not cache.is_dir():
            cache.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=cache.parent))
            for name in self.listdir(rel):
                (staging / name).write_bytes(self.read_bytes(f"{rel}/{name}"))
            try:
                staging.rename(cache)
            except OSError:  # another process of this machine made the same copy first
                shutil.rmtree(staging, ignore_errors=True)
        return cache
