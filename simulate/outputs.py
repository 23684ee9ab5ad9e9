"""The output guard: every path a command writes is checked, before any game is played, against what is there.

Every command hands :func:`check_outputs` the paths it will write (``--out``, ``--html``, ``--csv``,
``--report``, ``--runs-dir``), each with the kind of output it writes there. A path is refused (an
:class:`OutputError`, one line naming the option and the path as typed) when

- it lies inside a run, an experiment, a report, a balance or tune search or a training (nothing else
  is written into those: a run would fail ``golem verify``, an experiment's runs would be mixed);
- it holds an output of another kind, or a folder holding something else;
- it holds an output of the same kind and neither ``--overwrite`` (nor ``--resume``) is given;
- it is a file output whose folder does not exist or is not writable, or a folder output under a file;
- two outputs of one command overlap (a report inside the experiment it reports on is allowed at the
  experiment's own ``report`` folder only).

The kinds are recognised by the files each writes (:func:`kind_of`). :func:`hold` locks an output
folder as runs are locked (:mod:`simulate.lock`, a stale lock of a killed process is taken over), and
:func:`replacing` and :func:`write_atomic` make a replacement all or nothing: the new output is
written beside the old one, which is removed only once the new one is complete.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from simulate.lock import LOCK_NAME, LockError, RunLock, acquire
from simulate.store import RunStore

KINDS = {
    "run": "a run",
    "experiment": "an experiment",
    "report": "a report",
    "search": "a balance or tune search",
    "training": "a training",
    "runs": "a folder of runs",
    "page": "an HTML page",
    "csv": "a CSV table",
    "file": "a file",
    "folder": "other files",
}
"""Every kind of output, as messages name it."""

FOLDERS_WRITTEN_INTO = ("run", "experiment", "report", "search", "training")
"""Kinds of output no other output may be written into."""

_FILE_SUFFIXES = {"page": (".html", ".htm"), "csv": (".csv",)}
_PREVIOUS = ".previous-"


class OutputError(ValueError):
    """An output path that cannot be written; the message is one line naming the option and the path."""


@dataclass(frozen=True)
class Output:
    """A path a command writes: ``option`` as the user gives it, ``kind`` one of :data:`KINDS`.

    ``within`` is the command's own main output when this one may sit inside it, at ``within/report``
    only (an experiment's or a search's report). ``reuse`` allows replacing an output of the same kind
    without ``--overwrite`` (a study's own report, rewritten whenever the study is).
    """

    option: str
    path: Path
    kind: str
    within: Path | None = None
    reuse: bool = False

    @property
    def is_file(self) -> bool:
        return self.kind in _FILE_SUFFIXES


def kind_of(path: Path, runs: bool = True) -> str | None:
    """What ``path`` holds: a kind of :data:`KINDS`, ``"folder"`` (something else), or None (nothing, or an
    empty folder; hidden files such as a lock left by a killed process do not count). Without ``runs`` a folder
    of runs is not looked for (it reads as ``"folder"``)."""
    if path.is_file():
        for kind, suffixes in _FILE_SUFFIXES.items():
            if path.suffix.lower() in suffixes and _looks_like(path, kind):
                return kind
        return "file"
    if not path.is_dir():
        return None
    try:
        names = {n for n in os.listdir(path) if not n.startswith(".")}
    except OSError:
        return "folder"
    if "manifest.json" in names:
        return "run"
    if "experiment.json" in names:
        return "experiment"
    if names & {"training.json", "cfr_policy.toml"}:  # an apprentice's training; a CFR policy's (golem-poker)
        return "training"
    if names & {"report.html", "report.md"}:
        return "report"
    if (path / "search").is_dir() or "tuned.bot" in names:
        return "search"
    if runs and any((path / n / "manifest.json").is_file() for n in names):
        return "runs"
    return "folder" if names else None


def _looks_like(path: Path, kind: str) -> bool:
    """Whether a file's first bytes are those of ``kind`` (an HTML page, or a text table)."""
    try:
        with open(path, "rb") as f:
            head = f.read(512)
    except OSError:
        return False
    if kind == "page":
        return head.lstrip().lower().startswith((b"<!doctype html", b"<html"))
    try:
        text = head.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    return not head or "," in text.split("\n", 1)[0]


def check_outputs(outputs: Sequence[Output], overwrite: bool = False, resume: bool = False) -> None:
    """Refuse, with one line, any output of a command that cannot be written as asked (see the module's docstring).

    Called before anything is played or written; ``resume`` lets an output of the same kind be finished
    (a run, a training) as ``overwrite`` lets it be replaced.
    """
    for out in outputs:
        _check_one(out, overwrite or resume)
    for a in outputs:
        for b in outputs:
            if a is not b:
                _check_pair(a, b)


def _shown(path: Path, typed: Path) -> str:
    """``path`` as the user would write it: relative when they typed a relative path."""
    return str(path) if typed.is_absolute() else os.path.relpath(path)


def _absolute(path: Path) -> Path:
    return Path(os.path.abspath(os.path.expanduser(path)))


def _check_one(out: Output, overwrite: bool) -> None:
    typed = str(out.path)
    if not typed.strip():
        raise OutputError(f"{out.option}: give a path")
    where = f"{out.option} {typed}"
    path = _absolute(out.path)
    real = Path(os.path.realpath(path))
    own = _absolute(out.within) if out.within is not None else None
    if own is not None and own in path.parents:
        if path != own / "report":
            raise OutputError(
                f"{where}: is inside the output {own} of this command; leave {out.option} out to write it to "
                f"{own / 'report'}, or choose a path outside it"
            )
    for chain in dict.fromkeys((path, real)):
        for parent in chain.parents:
            if own is not None and (parent == own or own in parent.parents):
                continue  # the command's own output, checked as its main output
            kind = kind_of(parent, runs=False)
            if kind in FOLDERS_WRITTEN_INTO:
                raise OutputError(
                    f"{where}: is inside {KINDS[kind]} ({_shown(parent, out.path)}); choose a path outside it"
                )
    kind = kind_of(path)
    if out.is_file:
        _check_file(out, where, path, kind, overwrite)
    else:
        _check_folder(out, where, path, kind, overwrite)


def _check_file(out: Output, where: str, path: Path, kind: str | None, overwrite: bool) -> None:
    if path.is_dir():
        raise OutputError(f"{where}: is a folder; give a file name")
    folder = path.parent
    if not folder.is_dir():
        raise OutputError(f"{where}: the folder {_shown(folder, out.path)} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{where}: cannot write in the folder {_shown(folder, out.path)}")
    if kind is None:
        return
    if kind != out.kind:
        raise OutputError(f"{where}: exists and is not {KINDS[out.kind]}; choose another file name")
    if not overwrite and not out.reuse:
        raise OutputError(f"{where}: already exists; use --overwrite to replace it")
    if not os.access(path, os.W_OK):
        raise OutputError(f"{where}: cannot be replaced (not writable)")


def _check_folder(out: Output, where: str, path: Path, kind: str | None, overwrite: bool) -> None:
    if path.exists() and not path.is_dir():
        raise OutputError(f"{where}: exists and is not a folder")
    above = path.parent
    while not above.exists():
        above = above.parent
    if not above.is_dir():
        raise OutputError(f"{where}: {_shown(above, out.path)} is a file, not a folder")
    if not os.access(above if not path.exists() else path, os.W_OK | os.X_OK):
        raise OutputError(f"{where}: cannot write in {_shown(above if not path.exists() else path, out.path)}")
    if kind is None or (kind == "folder" and out.kind in ("run", "runs")):  # the runner judges a killed run's start
        return
    if kind == "folder":
        raise OutputError(f"{where}: is not empty and holds no {KINDS[out.kind].split(' ', 1)[1]}; choose another")
    if kind != out.kind:
        raise OutputError(f"{where}: holds {KINDS[kind]}, not {KINDS[out.kind]}; choose another {out.option}")
    if not overwrite and not out.reuse:
        finish = " or --resume to finish it" if kind in ("run", "training") else ""
        raise OutputError(f"{where}: already holds {KINDS[kind]}; use --overwrite to replace it{finish}")


def _check_pair(a: Output, b: Output) -> None:
    """Refuse ``b`` equal to or inside ``a`` (but a report at ``a``'s own ``report`` folder)."""
    pa, pb = _absolute(a.path), _absolute(b.path)
    if pa == pb:
        raise OutputError(f"{b.option} {b.path}: is the same path as {a.option} {a.path}; give two different paths")
    if pa in pb.parents and not (b.within is not None and _absolute(b.within) == pa and pb == pa / "report"):
        raise OutputError(f"{b.option} {b.path}: is inside {a.option} {a.path}; choose a path outside it")


@contextlib.contextmanager
def hold(folder: Path, command: str = "") -> Iterator[RunLock]:
    """Lock ``folder`` (made if missing) for this process as runs are locked; a second writer gets one line.

    A folder this call made is removed again if it is left empty.
    """
    folder = Path(folder)
    created = not folder.exists()
    try:
        lock = acquire(RunStore(folder), command)
    except LockError as e:
        raise OutputError(str(e).replace("another run is writing", "another command is writing")) from None
    except OSError as e:
        raise OutputError(f"cannot write to {folder}: {e.strerror or e}") from None
    try:
        yield lock
    finally:
        lock.release()
        if created:
            with contextlib.suppress(OSError):
                folder.rmdir()


@contextlib.contextmanager
def replacing(folder: Path) -> Iterator[None]:
    """Write a new output into ``folder`` while its old content waits aside; the old is deleted only once the block
    ends without an exception, and put back as it was otherwise (the lock file is left where it is)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    aside = folder / f"{_PREVIOUS}{uuid.uuid4().hex[:12]}"
    kept = [n for n in os.listdir(folder) if n != LOCK_NAME]
    if kept:
        aside.mkdir()
        for name in kept:
            os.rename(folder / name, aside / name)
    try:
        yield
    except BaseException:
        for name in os.listdir(folder):
            if name not in (LOCK_NAME, aside.name):
                _remove(folder / name)
        for name in kept:
            os.rename(aside / name, folder / name)
        if kept:
            aside.rmdir()
        raise
    if kept:
        shutil.rmtree(aside, ignore_errors=True)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def write_atomic(path: Path, write: Callable[[Path], None]) -> None:
    """Write a file by ``write(temporary)`` beside ``path`` and move it into place: a failure leaves an old ``path``
    whole. A failed write is an :class:`OutputError` naming ``path``, never the temporary file."""
    path = Path(path)
    temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}.tmp")
    try:
        write(temporary)
        os.replace(temporary, path)
    except OSError as e:
        temporary.unlink(missing_ok=True)
        raise OutputError(f"cannot write {path}: {e.strerror or e}") from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
