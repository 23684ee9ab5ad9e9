"""One writer per run: a lock file in the output names the run that holds it.

``RUN/.lock`` holds the host, process id, start time and command of the run writing there. A
second run is refused with a message naming that holder. A lock left by a process of this host
that no longer runs (killed, machine restarted) is stale: the next run takes it over.

In a local directory the holder also keeps an exclusive ``flock`` on the lock file for as long as
it runs (the kernel drops it when the process dies), and a taker reads, judges and replaces the
holder only while it has that ``flock``: of many processes taking over one stale lock at the same
instant exactly one succeeds. On an object store the lock is an exclusive create (see
:meth:`~simulate.store.RunStore.create_exclusive`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import sys
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psutil

from simulate.store import RunStore

LOCK_NAME = ".lock"
_HELD: set[int] = set()
"""Descriptors of the lock files this process holds under ``flock`` (a forked child inherits them)."""
_HAS_FLOCK = sys.platform != "win32"
if _HAS_FLOCK:
    import fcntl


class LockError(ValueError):
    """The output is locked by another run; the message names the holder."""


class RunLock:
    """A lock held on a store; :meth:`release` removes it (only if it is still this lock).

    ``took_over`` says whether it replaced the stale lock of an earlier run (one that was killed).
    """

    def __init__(self, store: RunStore, data: bytes, fd: int | None = None, took_over: bool = False) -> None:
        self.store = store
        self._data = data
        self._fd = fd
        self.took_over = took_over

    def release(self) -> None:
        try:
            with contextlib.suppress(FileNotFoundError):
                if self.store.read_bytes(LOCK_NAME) == self._data:
                    self.store.remove(LOCK_NAME)
        finally:
            if self._fd is not None:
                _HELD.discard(self._fd)
                os.close(self._fd)  # drops the flock, after the file is gone
                self._fd = None

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def acquire(store: RunStore, command: str = "") -> RunLock:
    """Lock ``store`` for this process, taking over a stale lock; raise ``LockError`` naming a live holder.

    A local directory that does not exist yet appears with its lock already in it (it is made under a hidden name
    beside it and renamed into place), so a kill never leaves an output folder without its lock.
    """
    me = {
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command,
        "token": uuid.uuid4().hex,
    }
    data = json.dumps(me, indent=1).encode()
    if store.local and _HAS_FLOCK:
        return _acquire_local(store, data)
    store.makedirs()
    took_over = False
    for _ in range(3):
        if store.create_exclusive(LOCK_NAME, data):
            return RunLock(store, data, took_over=took_over)
        holder = read_holder(store)
        if holder is None:  # released between the two calls
            continue
        if not is_stale(holder):
            raise LockError(_held_message(store, holder))
        store.remove(LOCK_NAME)
        took_over = True
    raise LockError(f"{store.name()}: could not take the lock {store.name(LOCK_NAME)}; another run keeps taking it")


def _acquire_local(store: RunStore, data: bytes) -> RunLock:
    """Take the lock of a local directory under ``flock``; see the module's docstring."""
    folder = Path(store.root)
    if not folder.exists():
        made = _make_locked(store, folder, data)
        if made is not None:
            return made
    folder.mkdir(parents=True, exist_ok=True)
    path = store.path(LOCK_NAME)
    for _ in range(100):
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise LockError(_held_message(store, read_holder(store) or {})) from None
        except BaseException:
            os.close(fd)
            raise
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if not same:  # the holder released (removed) this file after we opened it: try the new one
            os.close(fd)
            continue
        try:
            holder = read_holder(store)
            if holder and not is_stale(holder):  # a lock of another host (its flock is not seen here)
                raise LockError(_held_message(store, holder))
            os.ftruncate(fd, 0)
            os.pwrite(fd, data, 0)
        except BaseException:
            os.close(fd)
            raise
        _HELD.add(fd)
        return RunLock(store, data, fd, took_over=bool(holder))
    raise LockError(f"{store.name()}: could not take the lock {store.name(LOCK_NAME)}; another run keeps taking it")


def _make_locked(store: RunStore, folder: Path, data: bytes) -> RunLock | None:
    """Make ``folder`` with its lock in it: a hidden sibling holding the lock, renamed into place. None if another
    process made ``folder`` first (then it is locked as an existing folder)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    new = folder.parent / f".{folder.name}.new-{uuid.uuid4().hex[:12]}"
    new.mkdir()
    fd = os.open(new / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.pwrite(fd, data, 0)
        os.rename(new, folder)  # fails if another process's folder (holding its lock) is there now
    except OSError:
        os.close(fd)
        shutil.rmtree(new, ignore_errors=True)
        return None
    except BaseException:
        os.close(fd)
        shutil.rmtree(new, ignore_errors=True)
        raise
    _HELD.add(fd)
    return RunLock(store, data, fd)


def close_inherited() -> None:
    """In a forked child: close the lock files the parent holds, so that the lock ends with the parent."""
    for fd in list(_HELD):
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD.clear()


def _held_message(store: RunStore, holder: dict[str, Any]) -> str:
    return (
        f"{store.name()}: another run is writing here ({describe(holder)}); wait for it to finish, "
        f"or delete {store.name(LOCK_NAME)} if that run is gone"
    )


def read_holder(store: RunStore) -> dict[str, Any] | None:
    """The holder recorded in the lock, None if there is no lock (an unreadable lock reads as unknown)."""
    try:
        raw = store.read_bytes(LOCK_NAME)
    except FileNotFoundError:
        return None
    try:
        holder = json.loads(raw.decode())
    except (UnicodeDecodeError, json.JSONDecodeError):
        holder = None
    return holder if isinstance(holder, dict) else {}


def describe(holder: dict[str, Any]) -> str:
    """The holder as 'host H, pid P, started T' (or 'an unknown run')."""
    if not holder:
        return "an unknown run: the lock file is unreadable"
    return f"host {holder.get('host')}, pid {holder.get('pid')}, started {holder.get('started')}"


def is_stale(holder: dict[str, Any]) -> bool:
    """Whether the holder was a process of this host that has ended (its pid gone, reused or a zombie)."""
    if holder.get("host") != socket.gethostname() or not isinstance(holder.get("pid"), int):
        return False
    try:
        proc = psutil.Process(holder["pid"])
        if proc.status() == psutil.STATUS_ZOMBIE:
            return True
        started = datetime.fromisoformat(holder["started"]).timestamp()
        return proc.create_time() > started + 1  # the pid now belongs to a later process
    except psutil.NoSuchProcess:
        return True
    except (KeyError, TypeError, ValueError, psutil.Error):
        return False
