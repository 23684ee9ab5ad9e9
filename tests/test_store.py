"""The run store's exclusive create, which the run lock stands on, on every kind of filesystem."""

from __future__ import annotations

import uuid
from pathlib import Path

import fsspec
import pytest
from fsspec.implementations.memory import MemoryFileSystem

from simulate.lock import LOCK_NAME, LockError, acquire
from simulate.store import RunStore


class NoExclusiveMode(MemoryFileSystem):
    """An object store whose fsspec filesystem refuses mode "xb" (as older s3fs did)."""

    protocol = "noexcl"

    def _open(self, path, mode="rb", **kwargs):
        if "x" in mode:
            raise ValueError(f"mode {mode!r} is not supported")
        return super()._open(path, mode, **kwargs)


fsspec.register_implementation("noexcl", NoExclusiveMode, clobber=True)


def stores(tmp_path: Path) -> list[RunStore]:
    key = uuid.uuid4().hex
    return [RunStore(tmp_path / "run"), RunStore(f"memory://store-test/{key}"), RunStore(f"noexcl://store-test/{key}")]


@pytest.mark.parametrize("kind", [0, 1, 2], ids=["local", "memory (xb)", "no xb"])
def test_create_exclusive_creates_once_and_keeps_the_first_bytes(tmp_path: Path, kind: int) -> None:
    store = stores(tmp_path)[kind]
    store.makedirs()
    assert store.create_exclusive("f", b"first")
    assert not store.create_exclusive("f", b"second")
    assert store.read_bytes("f") == b"first"


@pytest.mark.parametrize("kind", [0, 1], ids=["local", "memory (xb)"])
def test_a_creator_that_saw_no_file_still_loses_to_the_one_that_wrote_it(
    tmp_path: Path, kind: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race of two runs: the file appears between a creator's look and its write. An atomic create
    decides on the stored file itself, so the second creator is refused."""
    store = stores(tmp_path)[kind]
    store.makedirs()
    assert store.create_exclusive("f", b"first")
    monkeypatch.setattr(RunStore, "exists", lambda self, rel="": False)
    assert not store.create_exclusive("f", b"second")
    assert store.read_bytes("f") == b"first"


def test_lock_on_an_object_store_refuses_a_second_run(tmp_path: Path) -> None:
    store = stores(tmp_path)[1]
    with acquire(store, "first"):
        with pytest.raises(LockError, match="another run is writing here"):
            acquire(RunStore(store.url), "second")
    assert not store.exists(LOCK_NAME)
