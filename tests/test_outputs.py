"""The output guard's parts (simulate.outputs): locks on outputs, replacement all or nothing, atomic files.

The commands' refusals are tested in ``test_output_guard.py``.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulate.cli import main
from simulate.lock import LOCK_NAME
from simulate.outputs import Output, OutputError, check_outputs, hold, kind_of, replacing, write_atomic


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _old_output(folder: Path) -> None:
    (folder / "runs" / "v00").mkdir(parents=True)
    (folder / "runs" / "v00" / "manifest.json").write_text("{}")
    (folder / "experiment.json").write_text('{"status": "complete"}')


def test_a_failed_replacement_leaves_the_old_output_whole(tmp_path: Path) -> None:
    out = tmp_path / "exp"
    _old_output(out)
    before = _tree(out)
    with pytest.raises(KeyboardInterrupt), replacing(out):
        (out / "experiment.json").write_text('{"status": "running"}')
        (out / "runs" / "v01").mkdir(parents=True)
        raise KeyboardInterrupt
    assert _tree(out) == before
    assert sorted(p.name for p in out.iterdir()) == ["experiment.json", "runs"]


def test_a_finished_replacement_leaves_only_the_new_output(tmp_path: Path) -> None:
    out = tmp_path / "exp"
    _old_output(out)
    with replacing(out):
        assert [p.name for p in out.iterdir() if not p.name.startswith(".")] == []
        (out / "experiment.json").write_text("new")
    assert _tree(out) == {"experiment.json": b"new"}


def test_a_second_writer_is_refused_and_a_killed_ones_lock_is_taken_over(tmp_path: Path) -> None:
    out = tmp_path / "report"
    with hold(out, "first"):
        assert (out / LOCK_NAME).is_file()
        with pytest.raises(OutputError, match="another command is writing here"), hold(out, "second"):
            pass
    assert not out.exists()  # made by the lock and left empty: removed
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    out.mkdir()
    holder = {"host": socket.gethostname(), "pid": gone.pid, "started": "2026-01-01T00:00:00+00:00"}
    (out / LOCK_NAME).write_text(json.dumps(holder))
    with hold(out, "third") as lock:
        assert lock.took_over
    assert not (out / LOCK_NAME).exists()


def test_an_atomic_write_that_fails_keeps_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "effects.csv"
    path.write_text("a,b\n1,2\n")

    def half(tmp: Path) -> None:
        tmp.write_text("a,b\n")
        raise OSError(28, "No space left on device")

    with pytest.raises(OutputError, match=f"cannot write {path}: No space left on device"):
        write_atomic(path, half)
    assert path.read_text() == "a,b\n1,2\n"
    assert [p.name for p in tmp_path.iterdir()] == ["effects.csv"]
    write_atomic(path, lambda tmp: tmp.write_text("c\n"))
    assert path.read_text() == "c\n"


def test_kinds_are_recognised_by_what_each_output_writes(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "manifest.json").write_text("{}")
    (tmp_path / "page.html").write_text("<!DOCTYPE html><html></html>")
    (tmp_path / "fake.html").write_text("not a page")
    (tmp_path / "t.csv").write_text("a,b\n")
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / LOCK_NAME).write_text("")
    assert kind_of(tmp_path / "run") == "run"
    assert kind_of(tmp_path) == "runs"
    assert kind_of(tmp_path / "page.html") == "page"
    assert kind_of(tmp_path / "fake.html") == "file"
    assert kind_of(tmp_path / "t.csv") == "csv"
    assert kind_of(tmp_path / "empty") is None  # a lock left by a kill is not an output
    assert kind_of(tmp_path / "nothing") is None


def test_a_page_replaces_a_page_only_with_overwrite_and_never_another_file(tmp_path: Path) -> None:
    (tmp_path / "page.html").write_text("<!doctype html>")
    (tmp_path / "notes.html").write_text("mine")
    check_outputs([Output("--html", tmp_path / "page.html", "page")], overwrite=True)
    with pytest.raises(OutputError, match="--overwrite"):
        check_outputs([Output("--html", tmp_path / "page.html", "page")])
    with pytest.raises(OutputError, match="is not an HTML page"):
        check_outputs([Output("--html", tmp_path / "notes.html", "page")], overwrite=True)


def test_resume_leaves_the_data_folder_holding_only_the_runs_files(tmp_path: Path) -> None:
    """A file added to a run's data folder is gone after --resume, and the run verifies."""
    out = tmp_path / "run"
    args = ["simulate", "century", "-p", "2", "-n", "20", "--bots", "greedy", "-w", "1", "-q", "--out", str(out)]
    assert CliRunner().invoke(main, args).exit_code == 0
    (out / "data" / "extra.csv").write_text("a,b\n")
    result = CliRunner().invoke(main, [*args, "--resume"])
    assert result.exit_code == 0, result.output
    assert not (out / "data" / "extra.csv").exists()
    assert CliRunner().invoke(main, ["verify", str(out)]).exit_code == 0
