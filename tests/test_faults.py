"""Runs that survive faults: killed processes, a second writer, a full disk, games that end abnormally.

The kill tests start real ``python -m simulate`` processes and SIGKILL them (or one of their Dask
workers) mid-run; ``--resume`` must then give the files of an uninterrupted run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import importlib.util
import json
import multiprocessing
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import psutil
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from analysis.run import load_run
from simulate.cli import main
from simulate.datafiles import default_dir
from simulate.game import Codes
from simulate.integrity import verify_run
from simulate.lineup import parse_lineup
from simulate.lock import LOCK_NAME, LockError, acquire
from simulate.registry import make
from simulate.replay import replay_game
from simulate.runformat import RunFormatError, read_table
from simulate.runner import RunError, RunSpec, run

ROOT = Path(__file__).resolve().parents[1]
KILL_SEED = 5
KILL_GAMES = 3000  # 30 chunks: signals land mid-run even when a warm machine plays fast
KILL_ARGS = ["century", "-p", "3", "-n", str(KILL_GAMES), "--bots", "planner", "--seed", str(KILL_SEED)]
KILL_ARGS += ["--chunk-size", "100"]
SMALL_ARGS = ["century", "-p", "3", "-n", "900", "--bots", "greedy,engine,random", "--chunk-size", "300"]
CENTURY = make("century")


def kill_spec() -> RunSpec:
    return RunSpec("century", 3, KILL_GAMES, KILL_SEED, parse_lineup(CENTURY, ["planner"], 3), chunk_size=100)


def small_spec() -> RunSpec:
    return RunSpec("century", 3, 900, 0, parse_lineup(CENTURY, ["greedy", "engine", "random"], 3), chunk_size=300)


def parts(run_dir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run_dir)): p.read_bytes() for p in sorted(run_dir.rglob("*.parquet"))}


def manifest(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())


def invoke(*args: str | Path):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def one_line_error(result, *needles: str) -> str:
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    for needle in needles:
        assert needle in errors[0], result.output
    return errors[0]


def write_lock(out: Path, **holder) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / LOCK_NAME).write_text(json.dumps(holder))


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """The kill tests' run, played without interruption."""
    return run(kill_spec(), tmp_path_factory.mktemp("ref") / "run", workers=2, progress=False)


def _default_sigint() -> None:
    """In the child: SIGINT as a terminal delivers it, whatever earlier tests (Dask) left in this process."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(out: Path, *extra: str) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "simulate", "simulate", *KILL_ARGS, "--out", str(out), "-q", *extra]
    return subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_default_sigint
    )


def wait_for_chunks(out: Path, proc: subprocess.Popen, count: int, timeout: float = 120) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (out / "manifest.json").is_file():
            m = manifest(out)
            if len(m["chunks"]) >= count:
                return m
        if proc.poll() is not None:
            pytest.fail(f"the run ended before {count} chunks: {proc.stderr.read()}")
        time.sleep(0.02)
    pytest.fail(f"no {count} chunks within {timeout} s")


@contextlib.contextmanager
def reaped(proc: subprocess.Popen):
    """Kill whatever this test's process tree left behind (by pid), however the test ends."""
    tree = [psutil.Process(proc.pid)]
    try:
        yield tree
    finally:
        for p in tree:
            with contextlib.suppress(psutil.Error):
                p.kill()
        psutil.wait_procs(tree, timeout=10)
        proc.wait(timeout=10)


def test_sigkill_of_simulate_loses_only_unfinished_chunks(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "killed"
    proc = start(out, "--workers", "2")
    with reaped(proc) as tree:
        wait_for_chunks(out, proc, 2)
        tree.extend(tree[0].children(recursive=True))
        with pytest.raises(LockError, match=f"pid {proc.pid}, started"):  # a second writer is refused
            run(kill_spec(), out, workers=1, progress=False, resume=True)
        workers = tree[1:]
        assert len([p for p in workers if "resource_tracker" not in " ".join(p.cmdline())]) == 2
        os.kill(proc.pid, signal.SIGKILL)
        _, alive = psutil.wait_procs(workers, timeout=20)
        assert not alive, f"{len(alive)} worker(s) outlived their killed run"
    m = manifest(out)
    assert m["status"] == "running" and 2 <= len(m["chunks"]) < KILL_GAMES // 100, "killed mid-run"
    assert json.loads((out / LOCK_NAME).read_text())["pid"] == proc.pid  # its lock is left, and stale
    result = invoke("simulate", *KILL_ARGS, "--out", out, "--workers", "2", "--resume", "-q")
    assert result.exit_code == 0, result.output
    assert parts(out) == parts(reference)
    assert manifest(out)["chunks"] == manifest(reference)["chunks"]
    assert not (out / LOCK_NAME).exists() and not list(out.rglob(".*.tmp-*"))
    verify_run(out)


def test_sigkill_of_a_pool_worker_is_a_one_line_error_and_the_run_resumes(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "worker"
    proc = start(out, "--workers", "2")
    with reaped(proc) as tree:
        wait_for_chunks(out, proc, 2)
        workers = [p for p in tree[0].children() if "resource_tracker" not in " ".join(p.cmdline())]
        tree.extend(tree[0].children(recursive=True))
        workers[0].send_signal(signal.SIGKILL)
        assert proc.wait(timeout=120) == 1
        stderr = proc.stderr.read()
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert stderr.startswith("Error: a worker process died") and "--resume" in stderr
    assert manifest(out)["status"] == "interrupted" and not (out / LOCK_NAME).exists()
    run(kill_spec(), out, workers=2, progress=False, resume=True)
    assert parts(out) == parts(reference)


def test_a_pool_found_broken_at_the_next_submit_is_the_same_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that dies between two chunks breaks the pool before the runner reads a result: the next ``submit``
    raises, and that is the same one-line error as a result that raises (the kill test hits it only by timing)."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    import simulate.runner.execute

    class DiesAfterTwo(ProcessPoolExecutor):
        submitted = 0

        def submit(self, *args, **kwargs):
            DiesAfterTwo.submitted += 1
            if DiesAfterTwo.submitted > 2:
                raise BrokenProcessPool("A child process terminated abruptly")
            return super().submit(*args, **kwargs)

    monkeypatch.setattr(simulate.runner.execute, "ProcessPoolExecutor", DiesAfterTwo)
    with pytest.raises(RunError, match=r"^a worker process died .* finish the run with --resume$"):
        run(small_spec(), tmp_path / "run", workers=2, progress=False)
    assert manifest(tmp_path / "run")["status"] == "interrupted"


def test_sigkill_of_a_dask_worker_loses_only_its_chunk(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "cluster"
    proc = start(out, "--cluster", "local:2")
    with reaped(proc) as tree:
        wait_for_chunks(out, proc, 1)
        workers = [p for p in tree[0].children(recursive=True) if "spawn_main" in " ".join(p.cmdline())]
        tree.extend(workers)
        assert len(workers) == 2
        (out / "games" / f".part-99999.parquet.tmp-{workers[0].pid}").write_bytes(b"half a part")  # as if mid-write
        workers[0].send_signal(signal.SIGKILL)
        assert manifest(out)["status"] == "running"
        assert proc.wait(timeout=180) == 0, proc.stderr.read()
    assert not workers[0].is_running()
    assert manifest(out)["status"] == "complete"
    assert not list(out.rglob(".*.tmp-*")), "the completed run swept the killed worker's temp file"
    assert parts(out) == parts(reference)
    verify_run(out)


def test_sigkill_of_a_cluster_run_leaves_no_dask_worker_and_the_run_resumes(reference: Path, tmp_path: Path) -> None:
    out = tmp_path / "cluster-main"
    proc = start(out, "--cluster", "local:2")
    with reaped(proc) as tree:
        wait_for_chunks(out, proc, 1)
        workers = [p for p in tree[0].children(recursive=True) if "spawn_main" in " ".join(p.cmdline())]
        tree.extend(tree[0].children(recursive=True))
        assert len(workers) == 2
        os.kill(proc.pid, signal.SIGKILL)
        _, alive = psutil.wait_procs(workers, timeout=30)
        assert not alive, f"{len(alive)} Dask worker(s) outlived their killed run"
    assert manifest(out)["status"] == "running"
    result = invoke("simulate", *KILL_ARGS, "--out", out, "--workers", "2", "--resume", "-q")
    assert result.exit_code == 0, result.output
    assert parts(out) == parts(reference)
    assert not (out / LOCK_NAME).exists() and not list(out.rglob(".*.tmp-*"))
    verify_run(out)


def test_stale_lock_of_a_dead_process_is_taken_over(tmp_path: Path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    out = tmp_path / "r"
    write_lock(out, host=socket.gethostname(), pid=gone.pid, started="2026-01-01T00:00:00+00:00")
    run(small_spec(), out, workers=1, progress=False)
    assert manifest(out)["status"] == "complete" and not (out / LOCK_NAME).exists()


def test_lock_of_a_reused_pid_is_stale(tmp_path: Path) -> None:
    """The pid is alive but its process started after the lock was taken: not the holder."""
    out = tmp_path / "r"
    write_lock(out, host=socket.gethostname(), pid=os.getpid(), started="2000-01-01T00:00:00+00:00")
    run(small_spec(), out, workers=1, progress=False)
    assert not (out / LOCK_NAME).exists()


def test_lock_of_another_host_is_refused_naming_it(tmp_path: Path) -> None:
    out = tmp_path / "r"
    write_lock(out, host="node-7", pid=4242, started="2026-11-30T12:00:00+00:00")
    line = one_line_error(
        invoke("simulate", *SMALL_ARGS, "--out", out, "--workers", "1"),
        "another run is writing here (host node-7, pid 4242, started 2026-11-30T12:00:00+00:00)",
        f"delete {out / LOCK_NAME}",
    )
    assert "Error" in line and not (out / "manifest.json").exists()


def test_full_disk_is_a_one_line_error_and_the_run_resumes(tmp_path: Path, monkeypatch) -> None:
    whole = run(small_spec(), tmp_path / "whole", workers=1, progress=False)
    real = pq.write_table
    written = []

    def fills_up(table, where, **kw):
        if len(written) == 4:  # chunk 1's second part
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(where))
        written.append(where)
        return real(table, where, **kw)

    monkeypatch.setattr(pq, "write_table", fills_up)
    out = tmp_path / "full"
    args = [*SMALL_ARGS, "--seed", "0", "--out", out, "--workers", "1", "-q"]
    one_line_error(invoke("simulate", *args), f"cannot write the run to {out}: No space left on device", "--resume")
    m = manifest(out)
    assert m["status"] == "interrupted" and list(m["chunks"]) == ["0"]
    assert not list(out.rglob(".*.tmp-*")) and not (out / LOCK_NAME).exists()
    monkeypatch.undo()
    assert invoke("simulate", *args, "--resume").exit_code == 0
    assert parts(out) == parts(whole)


def test_unwritable_output_is_a_one_line_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    one_line_error(
        invoke("simulate", *SMALL_ARGS, "--out", blocker / "run", "--workers", "1"),
        f"--out {blocker / 'run'}: {blocker} is a file, not a folder",
    )


def test_altered_part_of_the_same_size_is_refused_by_analysis(tmp_path: Path) -> None:
    out = run(small_spec(), tmp_path / "r", workers=1, progress=False)
    target = out / "seats" / "part-00001.parquet"
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0xFF
    target.write_bytes(bytes(data))
    with pytest.raises(RunFormatError, match="seats/part-00001.parquet: checksum differs"):
        load_run(out)
    one_line_error(invoke("verify", out), "seats/part-00001.parquet")


def capped_cards(tmp_path: Path) -> Path:
    """The shipped Golems data with its turn cap set to 2 turns, so every game hits it."""
    cards = tmp_path / "capped"
    shutil.copytree(default_dir("golems"), cards)
    toml = cards / "game.toml"
    toml.write_text(toml.read_text().replace("max_turns = 400", "max_turns = 2"))
    return cards


def test_turn_cap_games_are_recorded_with_their_seeds(tmp_path: Path) -> None:
    out = tmp_path / "r"
    args = ["golems", "-p", "2", "-n", "200", "--bots", "greedy", "--chunk-size", "100", "--workers", "1", "-q"]
    result = invoke("simulate", *args, "--cards", capped_cards(tmp_path), "--out", out)
    assert result.exit_code == 0
    assert "Warning: 200 of 200 games ended abnormally (200 by turn cap); the rules or data" in result.output
    games = read_table(out, "games")
    assert (games["end_reason"] == "turn_cap").all() and (games["turns"] == 2).all()
    _, events = replay_game(out, 37)
    assert events[0]["play_seed"] == games["play_seed"][37] and events[-1]["end_reason"] == "turn_cap"


def test_strict_stops_at_the_first_turn_cap_game(tmp_path: Path) -> None:
    out = tmp_path / "strict"
    args = ["golems", "-p", "2", "-n", "200", "--bots", "greedy", "--chunk-size", "100", "--workers", "1", "-q"]
    one_line_error(
        invoke("simulate", *args, "--cards", capped_cards(tmp_path), "--out", out, "--strict"),
        "--strict: game 0 ended by turn_cap (setup seed",
        f"golem replay {out} --game 0",
    )
    m = manifest(out)
    assert m["status"] == "interrupted" and list(m["chunks"]) == ["0"]


def test_strict_stops_at_an_illegal_move(tmp_path: Path, monkeypatch) -> None:
    """A game a bot ended with an illegal move: recorded as such, fatal only with strict."""
    real = CENTURY.play_chunk

    def one_illegal(*args, **kw):
        tables = real(*args, **kw)
        codes = np.array(tables.games["end_reason"].codes)
        if len(codes) > 4:
            codes[4] = tables.games["end_reason"].categories.index("illegal_move")
        tables.games["end_reason"] = Codes(codes, tables.games["end_reason"].categories)
        return tables

    monkeypatch.setattr(CENTURY, "play_chunk", one_illegal)
    lax = run(small_spec(), tmp_path / "lax", workers=1, progress=False)
    ends = read_table(lax, "games")["end_reason"]
    assert ends[4] == "illegal_move" and ends[304] == "illegal_move" and (ends == "illegal_move").sum() == 3
    with pytest.raises(RunError, match="game 4 ended by illegal_move"):
        run(small_spec(), tmp_path / "strict", workers=1, progress=False, strict=True)


def test_strict_runs_check_the_moves_a_game_otherwise_trusts(tmp_path: Path, monkeypatch) -> None:
    """Golems runs skip the per-move legality check for speed; under strict every chunk checks it, same results."""
    from simulate.play import Loop

    real, checked = Loop.final_records, []

    def recording(self, data, lineup, threads=1, check_moves: bool = False, **kw):
        checked.append(check_moves)
        return real(self, data, lineup, threads, check_moves, **kw)

    monkeypatch.setattr(Loop, "final_records", recording)  # the shared loop every game's chunk plays through
    golems = make("golems")
    spec = RunSpec("golems", 2, 400, 3, parse_lineup(golems, ["greedy", "collector"], 2), chunk_size=200)
    lax = run(spec, tmp_path / "lax", workers=1, progress=False)
    assert checked == [False, False]
    strict = run(spec, tmp_path / "strict", workers=1, progress=False, strict=True)
    assert checked[2:] == [True, True]
    assert parts(strict) == parts(lax)


def test_engine_failure_names_the_game_and_keeps_the_run_resumable(tmp_path: Path, monkeypatch) -> None:
    real = CENTURY.play_chunk
    whole = run(small_spec(), tmp_path / "whole", workers=1, progress=False)
    broken_seed = read_table(whole, "games")["play_seed"][457]

    def breaks(data, lineup, *rest, **kw):
        if broken_seed in lineup.play_seeds:
            raise ValueError("more legal moves than MAX_MOVES")
        return real(data, lineup, *rest, **kw)

    monkeypatch.setattr(CENTURY, "play_chunk", breaks)
    out = tmp_path / "broken"
    with pytest.raises(RunError, match=f"game 457 .*play seed {broken_seed}.* broke the century engine .*MAX_MOVES"):
        run(small_spec(), out, workers=1, progress=False)
    m = manifest(out)
    assert m["status"] == "interrupted" and list(m["chunks"]) == ["0"]
    monkeypatch.undo()
    run(small_spec(), out, workers=1, progress=False, resume=True)
    assert parts(out) == parts(whole)


@pytest.mark.parametrize("backend", [["--workers", "2"], ["--cluster", "local:2"]])
def test_ctrl_c_stops_after_the_current_chunks_and_releases_the_lock(
    reference: Path, tmp_path: Path, backend: list[str]
) -> None:
    out = tmp_path / "interrupted"
    proc = start(out, *backend)
    with reaped(proc) as tree:
        wait_for_chunks(out, proc, 2)
        tree.extend(tree[0].children(recursive=True))
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=120) == 1
        stderr = proc.stderr.read()
    assert stderr.strip() == "Error: interrupted; finish the run with the same command and --resume"
    m = manifest(out)
    assert m["status"] == "interrupted" and len(m["chunks"]) < KILL_GAMES // 100 and not (out / LOCK_NAME).exists()
    run(kill_spec(), out, workers=2, progress=False, resume=True)
    assert parts(out) == parts(reference)


@pytest.mark.parametrize(
    ("option", "needle"),
    [
        (["--cluster", "local:0"], "give local:N with N at least 1"),
        (["--cluster", "somewhere"], "give a scheduler address such as tcp://HOST:8786"),
        (["--cluster", "local:2", "--workers", "2"], "--workers is for local runs"),
        (["--out", "memory://nowhere/run"], "a URL output needs --cluster"),
    ],
)
def test_bad_cluster_options_are_one_line_errors(tmp_path: Path, option: list[str], needle: str) -> None:
    out = tmp_path / "r"
    one_line_error(invoke("simulate", *SMALL_ARGS, "--out", out, *option), needle)
    assert not out.exists()


def _take(out: str, start, done, taken) -> None:
    """A taker of the race below: try the lock the instant the others do, hold it until all have tried."""
    from simulate.store import RunStore

    start.wait()
    try:
        lock = acquire(RunStore(out))
    except LockError:
        lock = None
    else:
        with taken.get_lock():
            taken.value += 1
    done.wait()
    if lock is not None:
        lock.release()


def test_a_stale_lock_is_taken_by_exactly_one_of_many_simultaneous_takers(tmp_path: Path) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    context = multiprocessing.get_context("fork")
    takers, trials = 8, 15
    for trial in range(trials):
        out = tmp_path / f"r{trial}"
        write_lock(out, host=socket.gethostname(), pid=gone.pid, started="2026-01-01T00:00:00+00:00")
        start, done, taken = context.Barrier(takers), context.Barrier(takers), context.Value("i", 0)
        procs = [context.Process(target=_take, args=(str(out), start, done, taken)) for _ in range(takers)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(timeout=60)
        assert all(p.exitcode == 0 for p in procs)
        assert taken.value == 1, f"trial {trial}: {taken.value} of {takers} takers hold the lock"
        assert not (out / LOCK_NAME).exists()


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """The small run, played without faults."""
    return run(small_spec(), tmp_path_factory.mktemp("whole") / "run", workers=1, progress=False)


def _edit_manifest(edit):
    def damage(out: Path) -> None:
        m = manifest(out)
        edit(m)
        (out / "manifest.json").write_text(json.dumps(m))

    return damage


def _truncate(out: Path) -> None:
    part = out / "seats" / "part-00001.parquet"
    part.write_bytes(part.read_bytes()[:-100])


def _flip(out: Path) -> None:
    part = out / "games" / "part-00002.parquet"
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF
    part.write_bytes(bytes(data))


def _swap(out: Path) -> None:
    a, b = out / "components" / "part-00000.parquet", out / "components" / "part-00001.parquet"
    data = a.read_bytes()
    a.write_bytes(b.read_bytes())
    b.write_bytes(data)


def _stray(out: Path) -> None:
    shutil.copy(out / "games" / "part-00000.parquet", out / "games" / "part-00999.parquet")
    (out / ".manifest.json.tmp-123").write_text("{")
    (out / "seats" / ".part-00001.parquet.tmp-99").write_bytes(b"PAR1")


def _delete(out: Path) -> None:
    (out / "seats" / "part-00002.parquet").unlink()


DAMAGE = {
    "truncated part": _truncate,
    "flipped byte": _flip,
    "swapped parts": _swap,
    "deleted part": _delete,
    "stray part and temp files": _stray,
    "edited rows": _edit_manifest(lambda m: m["chunks"]["1"]["files"]["games"].update(rows=7)),
    "edited checksum": _edit_manifest(lambda m: m["chunks"]["0"]["files"]["seats"].update(sha256="0" * 64)),
    "edited num_games": _edit_manifest(lambda m: m.update(num_games=600)),
    "edited chunk games": _edit_manifest(lambda m: m["chunks"]["2"].update(games=[600, 700])),
    "chunks a list": _edit_manifest(lambda m: m.update(chunks=list(m["chunks"].values()))),
    "no design": _edit_manifest(lambda m: m.pop("design")),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_resume_repairs_a_damaged_run(whole: Path, tmp_path: Path, damage: str) -> None:
    out = tmp_path / "r"
    shutil.copytree(whole, out)
    DAMAGE[damage](out)
    with pytest.raises(RunFormatError):
        verify_run(out)
    args = [*SMALL_ARGS, "--seed", "0", "--out", out, "--workers", "1", "-q", "--resume"]
    result = invoke("simulate", *args)
    assert result.exit_code == 0, result.output
    assert parts(out) == parts(whole)
    assert manifest(out)["chunks"] == manifest(whole)["chunks"]
    assert not list(out.rglob(".*.tmp-*"))
    verify_run(out)


@pytest.mark.parametrize("left", ["data", "lock only"])
@pytest.mark.parametrize("how", [["--resume"], ["--overwrite"], []])
def test_a_directory_left_by_a_kill_before_the_first_manifest_is_recoverable(
    whole: Path, tmp_path: Path, how: list[str], left: str
) -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    out = tmp_path / "r"
    write_lock(out, host=socket.gethostname(), pid=gone.pid, started="2026-01-01T00:00:00+00:00")
    if left == "data":
        (out / "data").mkdir()
        name = CENTURY.info.data_files[0]
        (out / "data" / name).write_bytes((default_dir("century") / name).read_bytes()[:10])
        (out / "data" / f".{name}.tmp-{gone.pid}").write_text("half")
        (out / "games").mkdir()
    result = invoke("simulate", *SMALL_ARGS, "--seed", "0", "--out", out, "--workers", "1", "-q", *how)
    assert result.exit_code == 0, result.output
    assert parts(out) == parts(whole)
    verify_run(out)


def test_resume_of_an_empty_directory_is_still_refused(tmp_path: Path) -> None:
    out = tmp_path / "r"
    out.mkdir()
    one_line_error(
        invoke("simulate", *SMALL_ARGS, "--out", out, "--workers", "1", "-q", "--resume"), "no run to resume"
    )
    assert not list(out.iterdir())


def test_a_directory_with_other_files_is_still_refused(tmp_path: Path) -> None:
    out = tmp_path / "r"
    (out / "data").mkdir(parents=True)
    (out / "data" / "mine.csv").write_text("a,b\n")
    for how in ([], ["--resume"], ["--overwrite"]):
        one_line_error(invoke("simulate", *SMALL_ARGS, "--out", out, "--workers", "1", "-q", *how))
    assert (out / "data" / "mine.csv").exists()


def _lineup_label(m: dict) -> None:
    m["lineup"][0]["label"] = "planner"


def _tally(m: dict) -> None:
    m["chunks"]["1"]["tally"]["seat"]["1"][1] += 1


VERIFY_DAMAGE = {
    "stray part": _stray,
    "no design": _edit_manifest(lambda m: m.pop("design")),
    "num_players 3 -> 4": _edit_manifest(lambda m: m.update(num_players=4, lineup=[*m["lineup"], m["lineup"][0]])),
    "chunks a list": _edit_manifest(lambda m: m.update(chunks=list(m["chunks"].values()))),
    "tally": _edit_manifest(_tally),
    "bot label": _edit_manifest(_lineup_label),
    "master seed": _edit_manifest(lambda m: m.update(master_seed=1)),
    "rotation": _edit_manifest(lambda m: m["design"].update(rotate_seats=False)),
}


@pytest.mark.parametrize("damage", list(VERIFY_DAMAGE))
def test_verify_checks_the_manifest_against_itself_and_the_tables(whole: Path, tmp_path: Path, damage: str) -> None:
    out = tmp_path / "r"
    shutil.copytree(whole, out)
    VERIFY_DAMAGE[damage](out)
    one_line_error(invoke("verify", out))
    one_line_error(invoke("report", out, "--out", tmp_path / "report"))
    with pytest.raises(RunFormatError):
        load_run(out)
    result = invoke("replay", out, "--game", "5")
    assert result.exit_code == 0 or one_line_error(result), result.output


def test_verify_and_resume_sweep_temporary_files_only_when_no_run_holds_the_directory(
    whole: Path, tmp_path: Path
) -> None:
    out = tmp_path / "r"
    shutil.copytree(whole, out)
    temps = [out / ".manifest.json.tmp-77", out / "games" / ".part-00001.parquet.tmp-78"]
    for t in temps:
        t.write_text("half")
    (out / LOCK_NAME).write_text("{}")
    verify_run(out)
    assert all(t.exists() for t in temps)
    (out / LOCK_NAME).unlink()
    verify_run(out)
    assert not any(t.exists() for t in temps)


def _edit_data(name: str, edit):
    def damage(out: Path) -> None:
        path = out / "data" / name
        path.write_text(edit(path.read_text()))

    return damage


def _override(m: dict) -> None:
    m["rules"]["tie_break"] = m["rule_overrides"]["tie_break"] = "shared"


INPUT_DAMAGE = {
    "data file edited": (
        _edit_data("point_cards.csv", lambda t: t.replace("P01,YYGG,6", "P01,YYGG,9")),
        "point_cards.csv",
    ),
    "data file deleted": (lambda out: (out / "data" / "game.toml").unlink(), "data/game.toml"),
    "data file added": (lambda out: (out / "data" / "extra.csv").write_text("a\n"), "data/extra.csv"),
    "recorded hash": (
        _edit_manifest(lambda m: m["data"]["files"].update({"merchant_cards.csv": "0" * 64})),
        "merchant_cards.csv",
    ),
    "rule": (_edit_manifest(lambda m: m["rules"].update(tie_break="shared")), "rules.tie_break"),
    "rule and its override": (_edit_manifest(_override), "run_id"),
    "bot parameter": (_edit_manifest(lambda m: m["lineup"][0]["params"].update(epsilon=0.5)), "run_id"),
    "engine version": (_edit_manifest(lambda m: m.update(engine_version=m["engine_version"] + 1)), "run_id"),
    "table value": (_edit_manifest(lambda m: m["table"].update(copper_vp=4)), "table.copper_vp"),
    "run id": (_edit_manifest(lambda m: m.update(run_id="century-3p-000000000000")), "run_id"),
}


@pytest.mark.parametrize("damage", list(INPUT_DAMAGE))
def test_verify_checks_the_data_rules_and_bots_the_answer_depends_on(whole: Path, tmp_path: Path, damage: str) -> None:
    out = tmp_path / "r"
    shutil.copytree(whole, out)
    edit, needle = INPUT_DAMAGE[damage]
    edit(out)
    for args in (["verify", out], ["report", out, "--out", tmp_path / "report"], ["replay", out, "--game", "5"]):
        one_line_error(invoke(*args), needle)
    assert not (tmp_path / "report").exists()
    if damage != "table value":  # the table is what the data copy gives; only the commands that know games check it
        with pytest.raises(RunFormatError):
            load_run(out)


def test_a_run_of_another_engine_version_is_a_warning(tmp_path: Path, monkeypatch) -> None:
    engine, version = type(CENTURY), CENTURY.info.version
    monkeypatch.setattr(engine, "info", dataclasses.replace(CENTURY.info, version=version - 1))
    out = run(small_spec(), tmp_path / "old", workers=1, progress=False)
    monkeypatch.undo()
    for args in (["verify", out], ["replay", out, "--game", "0"]):
        result = invoke(*args)
        assert result.exit_code == 0, result.output
        warning = f"made by engine version {version - 1} of century; this installation has version"
        assert warning in result.output
    load_run(out)


def test_a_small_slice_of_the_fault_campaign(tmp_path: Path) -> None:
    """Three cases of each in-process category of ``benchmarks/fault_campaign.py`` (bad input spread over the
    commands, damaged runs, edited inputs, damaged data folders); the whole campaign is run by hand."""
    spec = importlib.util.spec_from_file_location("fault_campaign", ROOT / "benchmarks" / "fault_campaign.py")
    campaign = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(campaign)
    lines = []
    counts = campaign.run_categories(list(campaign.CATEGORIES), tmp_path, limit=3, log=lines.append)
    assert all(good == total == 3 for good, total in counts.values()), "\n".join(lines)
