"""One writer per run: a lock file in the output names the run that holds it.

``RUN/.lock`` holds the host, process id, start time and command of the run writing there. A
second run is refused with a message naming that holder. A lock left by a process of this host
that no longer runs (killed, machine restarted) is stale: the next run takes it over.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import uuid
from datetime import UTC, datetime
from typing import Any

import psutil

from simulate.store import RunStore

LOCK_NAME = ".lock"


class LockError(ValueError):
    """The output is locked by another run; the message names the holder."""


class RunLock:
    """A lock held on a store; :meth:`release` removes it (only if it is still this lock)."""

    def __init__(self, store: RunStore, data: bytes) -> None:
        self.store = store
        self._data = data

    def release(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            if self.store.read_bytes(LOCK_NAME) == self._data:
                self.store.remove(LOCK_NAME)

    def __enter__(self) -> RunLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def acquire(store: RunStore, command: str = "") -> RunLock:
    """Lock ``store`` for this process, taking over a stale lock; raise ``LockError`` naming a live holder."""
    store.makedirs()
    me = {
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "command": command,
        "token": uuid.uuid4().hex,
    }
    data = json.dumps(me, indent=1).encode()
    for _ in range(3):
        if store.create_exclusive(LOCK_NAME, data):
            return RunLock(store, data)
        holder = read_holder(store)
        if holder is None:  # released between the two calls
            continue
        if not is_stale(holder):
            raise LockError(
                f"{store.name()}: another run is writing here ({describe(holder)}); wait for it to finish, "
                f"or delete {store.name(LOCK_NAME)} if that run is gone"
            )
        store.remove(LOCK_NAME)
    raise LockError(f"{store.name()}: could not take the lock {store.name(LOCK_NAME)}; another run keeps taking it")


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
