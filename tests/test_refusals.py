"""A refused command leaves the disk exactly as it was (issue 27).

Every command that writes is given a finished output of its own kind (with ``--overwrite`` where it has
one) and a fresh one, then bad input: a worker count of 0 or above the limit, a bad rule option, an
unknown bot, a missing data folder. Each refusal is one ``Error:`` line, and the output folder holds the
same file names and bytes before and after (a fresh one is not created).
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulate.cli import main
from simulate.runner import MAX_WORKERS_PER_CPU

TOO_MANY = str(MAX_WORKERS_PER_CPU * (os.cpu_count() or 1) + 1)

COMMANDS = {
    "simulate": ["simulate", "century", "-p", "2", "-n", "200", "-q", "--out", "OUT"],
    "sweep": ["sweep", "century", "-p", "2", "-n", "200", "--set", "copper_vp=1,2", "-q", "--out", "OUT"],
    "ablate": ["ablate", "century", "-p", "2", "-n", "200", "--remove", "M09", "-q", "--out", "OUT"],
    "balance": [
        *("balance", "century", "-p", "2", "-n", "200", "--vary", "copper_vp=2:3", "--budget", "2"),
        *("--confirm-games", "200", "-q", "--out", "OUT"),
    ],
    "tune": [
        *("tune", "century", "-p", "2", "--bot", "greedy", "--param", "epsilon", "-n", "200", "--budget", "2"),
        *("--confirm-games", "200", "-q", "--out", "OUT"),
    ],
    "study": ["study", "century", "-n", "100", "-q", "--runs-dir", "OUT"],
}
"""Each writing command with small sizes; OUT is its output folder."""

BAD = {
    "-w 0": (["-w", "0"], "--workers"),
    "-w too many": (["-w", TOO_MANY], "--workers"),
    "bad rule": (["--rule", "tie_break=coin"], "coin"),
    "unknown bot": (["--bots", "nosuchbot"], "nosuchbot"),
    "missing data folder": (["--cards", "NOWHERE"], "NOWHERE"),
}
"""Bad input and a word its error line names (``tune`` takes its bots as --field, ``study`` has none)."""


def invoke(*args: str | Path):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def only_error_line(result, *needles: str) -> None:
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line and not line.startswith(("Usage:", "Try "))]
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    for needle in needles:
        assert needle in lines[0], result.output


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (its path inside it) with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _args(command: str, out: Path, *extra: str) -> list[str]:
    return [str(out) if a == "OUT" else a for a in COMMANDS[command]] + list(extra)


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> dict[str, Path]:
    """A finished output of every command (a study's runs folder holds a run and a note of the user's)."""
    root = tmp_path_factory.mktemp("finished")
    outs = {}
    for command in COMMANDS:
        out = root / command
        if command == "study":
            shutil.copytree(outs["simulate"], out / "century-2p")
            (out / "notes.txt").write_text("mine")
        else:
            result = invoke(*_args(command, out, "-w", "1"))
            assert result.exit_code == 0, result.output
        outs[command] = out
    return outs


@pytest.mark.parametrize("bad", list(BAD))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_refused_command_leaves_a_finished_output_as_it_was(
    finished: dict[str, Path], tmp_path: Path, command: str, bad: str
) -> None:
    extra, needle = BAD[bad]
    if command == "tune" and extra[0] == "--bots":
        extra = ["--field", extra[1]]
    if command == "study" and extra[0] == "--bots":
        pytest.skip("a study plays its own bots")
    extra = [str(tmp_path / a) if a == "NOWHERE" else a for a in extra]
    out = finished[command]
    before = snapshot(out)
    overwrite = [] if command == "study" else ["--overwrite"]
    only_error_line(invoke(*_args(command, out, *extra, *overwrite)), needle)
    assert snapshot(out) == before


@pytest.mark.parametrize("bad", list(BAD))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_refused_command_creates_no_output(tmp_path: Path, command: str, bad: str) -> None:
    extra, needle = BAD[bad]
    if command == "tune" and extra[0] == "--bots":
        extra = ["--field", extra[1]]
    if command == "study" and extra[0] == "--bots":
        pytest.skip("a study plays its own bots")
    extra = [str(tmp_path / a) if a == "NOWHERE" else a for a in extra]
    out = tmp_path / "new"
    only_error_line(invoke(*_args(command, out, *extra)), needle)
    assert not out.exists()


@pytest.mark.parametrize("damage", ["missing run", "a file given as run", "edited data copy"])
def test_a_refused_report_leaves_an_old_report_as_it_was(
    finished: dict[str, Path], tmp_path: Path, damage: str
) -> None:
    run_dir = tmp_path / "run"
    if damage == "a file given as run":
        run_dir.write_text("not a run")
    elif damage == "edited data copy":
        shutil.copytree(finished["simulate"], run_dir)
        with (run_dir / "data" / "game.toml").open("a") as f:
            f.write("\n# edited\n")
    out = tmp_path / "report"
    assert invoke("report", finished["simulate"], "--out", out).exit_code == 0
    before = snapshot(out)
    only_error_line(invoke("report", run_dir, "--out", out, "--overwrite"), str(run_dir))
    assert snapshot(out) == before


@pytest.mark.parametrize("args", [["--game", "-1"], ["--game", "200"]])
def test_replay_and_verify_of_bad_input_write_nothing(finished: dict[str, Path], args: list[str]) -> None:
    run_dir = finished["simulate"]
    before = snapshot(run_dir)
    only_error_line(invoke("replay", run_dir, *args), "game")
    only_error_line(invoke("verify", run_dir / "manifest.json"), "is a file, not a run directory")
    assert snapshot(run_dir) == before


def test_a_report_onto_a_full_disk_names_the_path_and_leaves_no_plots(
    finished: dict[str, Path], tmp_path: Path, monkeypatch
) -> None:
    out = tmp_path / "report"
    real = Path.write_bytes
    written = []

    def full(self: Path, data: bytes) -> int:
        if written:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(self)
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", full)
    only_error_line(invoke("report", finished["simulate"], "--out", out), str(out), "No space left")
    assert not list(out.rglob("*.png")) and not list(out.rglob("report.*"))
