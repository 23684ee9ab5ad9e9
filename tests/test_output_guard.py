"""No command can damage a run, an experiment or a report (issue 44): bad paths and bad values to every command.

Finished fixtures (a run, an experiment with its report, a copy of that report) are built once; every case runs a
command with an output path inside or equal to one of them, or a value that cannot be played, and must be refused
with one ``Error:`` line, no traceback, before anything is played, leaving the SHA-256 listing of every fixture file
as it was and creating nothing. A hypothesis property draws the output paths from the fixtures' own files and
folders. (``tests/test_outputs.py`` tests the guard's parts directly.)
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulate.cli import main

SIM = ["simulate", "century", "-p", "2", "-n", "100", "--bots", "greedy", "-w", "1", "-q"]
SWEEP = ["sweep", "century", "-p", "2", "-n", "100", "--set", "copper_vp=1,2", "-w", "1", "-q"]
ABLATE = ["ablate", "century", "-p", "2", "-n", "100", "--remove", "M09", "-w", "1", "-q"]
BALANCE = [
    *("balance", "century", "-p", "2", "-n", "100", "--vary", "copper_vp=2:3", "--budget", "2"),
    *("--confirm-games", "100", "-w", "1", "-q"),
]
TUNE = [
    *("tune", "century", "-p", "2", "--bot", "greedy", "--param", "epsilon", "-n", "100", "--budget", "2"),
    *("--confirm-games", "100", "-w", "1", "-q"),
]
VALUE = ["value", "century", "M04", "-p", "2", "--bot", "greedy", "-n", "100", "-w", "1"]
STUDY = ["study", "century", "-n", "100", "-w", "1", "-q"]
REPLAY = ["replay", "RUN", "--game", "1"]
TRAIN = ["train", "century", "-n", "10", "--iterations", "1", "-w", "1", "-q"]

BAD_PATHS = {
    "value --csv over a run's manifest": ([*VALUE, "--csv", "RUN/manifest.json"], "inside a run"),
    "value --csv in a missing folder": ([*VALUE, "--csv", "NEW/missing/x.csv"], "does not exist"),
    "value --csv a folder": ([*VALUE, "--csv", "EXP"], "is a folder"),
    "value --out a run": ([*VALUE, "--out", "RUN"], "holds a run"),
    "value --out inside an experiment": ([*VALUE, "--out", "EXP/runs"], "inside an experiment"),
    "replay --html over a run's manifest": ([*REPLAY, "--html", "RUN/manifest.json", "--overwrite"], "inside a run"),
    "replay --html over a run's data": ([*REPLAY, "--html", "RUN/data/game.toml", "--overwrite"], "inside a run"),
    "replay --html over an experiment": (
        [*REPLAY, "--html", "EXP/experiment.json", "--overwrite"],
        "inside an experiment",
    ),
    "replay --html over a report's page": ([*REPLAY, "--html", "REP/report.html", "--overwrite"], "inside a report"),
    "replay --html in a missing folder": ([*REPLAY, "--html", "NEW/missing/page.html"], "does not exist"),
    "report --out inside its run": (["report", "RUN", "--out", "RUN/games", "--overwrite"], "inside a run"),
    "report --out its run": (["report", "RUN", "--out", "RUN"], "holds a run"),
    "report --out an experiment": (["report", "RUN", "--out", "EXP", "--overwrite"], "holds an experiment"),
    "report --out an experiment's report": (
        ["report", "RUN", "--out", "EXP/report", "--overwrite"],
        "inside an experiment",
    ),
    "report --out a report without --overwrite": (["report", "RUN", "--out", "REP"], "--overwrite"),
    "sweep --report inside a run": ([*SWEEP, "--report", "RUN/notes", "--out", "NEW/x"], "inside a run"),
    "sweep --report a file": ([*SWEEP, "--report", "REP/report.html", "--overwrite", "--out", "EXP"], "report"),
    "sweep --report another experiment": ([*SWEEP, "--report", "EXP", "--out", "NEW/x"], "holds an experiment"),
    "sweep --report equal to --out": ([*SWEEP, "--report", "NEW/x", "--out", "NEW/x"], "same path"),
    "sweep --report inside its runs": ([*SWEEP, "--report", "NEW/x/runs", "--out", "NEW/x"], "inside the output"),
    "sweep --out a run": ([*SWEEP, "--out", "RUN", "--overwrite"], "holds a run"),
    "sweep --out a report": ([*SWEEP, "--out", "REP", "--overwrite"], "holds a report"),
    "sweep --out an experiment without --overwrite": ([*SWEEP, "--out", "EXP"], "--overwrite"),
    "sweep --out inside an experiment": ([*SWEEP, "--out", "EXP/data", "--overwrite"], "inside an experiment"),
    "ablate --out inside a run": ([*ABLATE, "--out", "RUN/games", "--overwrite"], "inside a run"),
    "study --runs-dir an experiment": ([*STUDY, "--runs-dir", "EXP"], "holds an experiment"),
    "study --runs-dir a run": ([*STUDY, "--runs-dir", "RUN"], "holds a run"),
    "study --out a report": ([*STUDY, "--runs-dir", "NEW/s", "--out", "REP"], "--overwrite"),
    "study --out an experiment's report": ([*STUDY, "--runs-dir", "NEW/s", "--out", "EXP/report"], "experiment"),
    "tune --out a run": ([*TUNE, "--overwrite", "--out", "RUN"], "holds a run"),
    "balance --out a run": ([*BALANCE, "--overwrite", "--out", "RUN"], "holds a run"),
    "balance --out an experiment": ([*BALANCE, "--overwrite", "--out", "EXP"], "holds an experiment"),
    "balance --report inside a run": ([*BALANCE, "--report", "RUN/x", "--out", "NEW/b"], "inside a run"),
    "simulate --out an experiment's run": ([*SIM, "--out", "ROUND", "--overwrite"], "inside an experiment"),
    "simulate --out a report": ([*SIM, "--out", "REP", "--overwrite"], "holds a report"),
    "simulate --out inside a run": ([*SIM, "--out", "RUN/games", "--overwrite"], "inside a run"),
    "simulate --out a run's file": ([*SIM, "--out", "RUN/manifest.json", "--overwrite"], "inside a run"),
    "train --out a run": ([*TRAIN, "--out", "RUN", "--overwrite"], "holds a run"),
    "train --out an experiment": ([*TRAIN, "--out", "EXP", "--resume"], "holds an experiment"),
}
"""Output paths no command may write (placeholders: the fixtures RUN, EXP, REP and ROUND, a run inside EXP;
NEW, a folder that must not appear) and a word of the error line."""

BAD_VALUES = {
    "balance --target nan": ([*BALANCE, "--target", "seat1=nan"], "finite"),
    "balance --target inf": ([*BALANCE, "--target", "seat1=inf"], "finite"),
    "balance --vary an unknown rule value": (
        ["balance", "golem-poker", "-p", "3", "--vary", "player_tie=split,bogus", "--budget", "2"],
        "bogus",
    ),
    "balance --vary and --rule on one name": (
        ["balance", "century", "-p", "2", "--vary", "tie_break", "--rule", "tie_break=shared", "--budget", "2"],
        "tie_break",
    ),
    "sweep --set and --rule on one name": (
        [*SWEEP, "--set", "tie_break=shared", "--rule", "tie_break=later_seat"],
        "once",
    ),
    "sweep --set an unknown rule value": ([*SWEEP, "--set", "tie_break=shared,bogus"], "bogus"),
    "sweep --set a bad cell": ([*SWEEP, "--set", "point_cards.P01.vp=abc"], "point_cards.csv"),
    "ablate --remove a card twice in one": ([*ABLATE, "--remove", "M10+M10"], "twice"),
    "ablate --remove a card twice": ([*ABLATE, "--remove", "M09"], "twice"),
    "sweep --max-games below -n": ([*SWEEP, "--max-games", "50"], "--max-games"),
    "sweep --precision with --test": ([*SWEEP, "--precision", "1", "--test", "seat1 > 0.5"], "--test"),
    "sweep --test against infinity": ([*SWEEP, "--test", "seat1 > 1e400"], "threshold"),
    "simulate -p beyond 64 bits": ([*SIM, "-p", "99999999999999999999"], "players"),
    "simulate -p 100000000": ([*SIM, "-p", "100000000"], "players"),
    "sweep -p beyond 64 bits": ([*SWEEP, "-p", "99999999999999999999"], "players"),
    "tune --bot random": ([*TUNE[:5], "random", "-n", "100", "--budget", "2", "-w", "1", "-q"], "random"),
    "train -w 64": ([*TRAIN, "-w", "64"], "--workers"),
    "value -w 64": ([*VALUE, "-w", "64"], "--workers"),
}
"""Values no command may play, each given a fresh output NEW/o."""


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def one_error_line(result, needle: str) -> None:
    """Exit status not 0, no traceback, the output one ``Error:`` line holding ``needle``, no temporary folder."""
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line and not line.startswith(("Usage:", "Try "))]
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    assert needle in lines[0], result.output
    assert "golem-variants" not in lines[0] and "golem-value" not in lines[0], result.output


def listing(root: Path) -> dict[str, str]:
    """The SHA-256 of every file under ``root`` (and every folder, as ``/``), by path inside it."""
    out = {}
    for p in sorted(root.rglob("*")):
        out[str(p.relative_to(root))] = "/" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory) -> dict[str, Path]:
    """A finished run, a finished experiment (with its report) and a report (a copy of the experiment's)."""
    root = tmp_path_factory.mktemp("finished")
    runs = {"RUN": [*SIM[:5], "300", *SIM[6:]], "EXP": [*SWEEP[:5], "200", *SWEEP[6:]]}
    for name, args in runs.items():
        result = invoke(*args, "--out", str(root / name.lower()))
        assert result.exit_code == 0, result.output
    shutil.copytree(root / "exp" / "report", root / "rep")
    (round_dir,) = [p.parent for p in (root / "exp" / "runs").rglob("manifest.json")][:1]
    return {"ROOT": root, "RUN": root / "run", "EXP": root / "exp", "REP": root / "rep", "ROUND": round_dir}


def _args(args: list[str], fixtures: dict[str, Path], new: Path) -> list[str]:
    out = []
    for a in args:
        head, sep, tail = a.partition("/")
        if head in ("RUN", "EXP", "REP", "ROUND", "NEW"):
            base = new if head == "NEW" else fixtures[head]
            a = str(base / tail) if sep else str(base)
        out.append(a)
    return out


@pytest.mark.parametrize("case", list(BAD_PATHS))
def test_no_command_writes_into_a_run_an_experiment_or_a_report(
    fixtures: dict[str, Path], tmp_path: Path, case: str
) -> None:
    args, needle = BAD_PATHS[case]
    new = tmp_path / "new"
    before = listing(fixtures["ROOT"])
    one_error_line(invoke(*_args(args, fixtures, new)), needle)
    assert listing(fixtures["ROOT"]) == before
    assert not new.exists()


@pytest.mark.parametrize("case", list(BAD_VALUES))
def test_values_that_cannot_be_played_are_refused_before_work(
    fixtures: dict[str, Path], tmp_path: Path, case: str
) -> None:
    args, needle = BAD_VALUES[case]
    new = tmp_path / "new"
    before = listing(fixtures["ROOT"])
    one_error_line(invoke(*_args([*args, "--out", "NEW/o"], fixtures, new)), needle)
    assert listing(fixtures["ROOT"]) == before
    assert not new.exists()


WRITERS = {
    "run": [*SIM, "--overwrite", "--out"],
    "experiment": [*SWEEP, "--overwrite", "--out"],
    "report": ["report", "RUN", "--overwrite", "--out"],
    "search": [*BALANCE, "--overwrite", "--out"],
    "runs": [*STUDY, "--runs-dir"],
    "page": [*REPLAY, "--overwrite", "--html"],
    "csv": [*VALUE, "--csv"],
    "experiment's report": [*SWEEP, "--out", "NEW/x", "--report"],
}
"""A command per kind of output, its path last; the kind it writes there."""


@pytest.fixture(scope="module")
def inside(fixtures: dict[str, Path]) -> list[tuple[str, str]]:
    """(fixture, path inside it) of every file and folder of the fixtures, and of a new name in every folder (listed
    once: the draws do not depend on what a command under test may have written)."""
    paths = []
    for name in ("RUN", "EXP", "REP"):
        root = fixtures[name]
        for p in [root, *sorted(root.rglob("*"))]:
            paths.append((name, str(p)))
            if p.is_dir():
                paths += [(name, str(p / child)) for child in ("x", "x.csv", "x.html", "report")]
    return paths


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_output_drawn_from_the_fixtures_own_paths_is_refused(
    fixtures: dict[str, Path], inside: list[tuple[str, str]], tmp_path: Path, data: st.DataObject
) -> None:
    """Any output path inside a fixture, or equal to one of another kind, is refused and changes nothing."""
    kind = data.draw(st.sampled_from(list(WRITERS)), label="command")
    owner, path = data.draw(st.sampled_from(inside), label="path")
    same = {"RUN": "run", "EXP": "experiment", "REP": "report"}[owner]
    if path == str(fixtures[owner]) and kind == same:
        return  # replacing an output of its own kind with --overwrite is what the command is for
    new = tmp_path / "new"
    shutil.rmtree(new, ignore_errors=True)
    before = listing(fixtures["ROOT"])
    result = invoke(*_args(WRITERS[kind], fixtures, new), path)
    one_error_line(result, "Error:")
    assert listing(fixtures["ROOT"]) == before
    assert not new.exists()
