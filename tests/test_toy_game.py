"""The recipe proven: the toy game Pig (tests/toy_pig), built as docs/adding-a-game.md says, plugs in with its own
package, its data in ``seeds/pig/`` and one registry line, passes the conformance check, and works in every command
(simulate, replay --state/--json/--html, verify, report, study, sweep, check) through the CLI as a user runs it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from analysis.run import check_runs, read_tables
from simulate.cli import main
from simulate.conformance import CHECKS, check_game
from simulate.datafiles import default_dir
from simulate.lineup import parse_lineup
from simulate.registry import available_games, make, register_game, unregister_game
from simulate.runner import RunSpec, run

PIG_SEED = 7


@pytest.fixture
def pig():
    register_game("pig", "toy_pig.game", "Pig, the dice game (a toy game of the tests)")
    yield make("pig")
    unregister_game("pig")


def _golem(*args: object):
    """``golem ARGS`` as a user runs it; the exit code and output are asserted by the caller."""
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def _ok(*args: object) -> str:
    result = _golem(*args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def pig_run(pig, tmp_path: Path) -> Path:
    out = tmp_path / "pig-run"
    _ok(
        "simulate", "pig", "-p", 3, "-n", 300, "--bots", "hold,hold:hold_at=10,random", "--seed", PIG_SEED, "--out", out
    )
    _ok("simulate", "pig", "-p", 2, "-n", 10, "--seed", 1, "--out", out.with_name("strict"), "--strict", "-q")
    return out


def test_pig_conforms(pig) -> None:
    assert "pig" in available_games()
    # every check passes, the data, position, page and study included; Pig declares no planted card edits, so the
    # adaptation check has nothing to compare
    assert check_game("pig", games=20) == tuple(c for c in CHECKS if c != "adaptation")


def test_pig_follows_the_recipe(pig) -> None:
    """What the recipe asks of a game's package: its data packaged in seeds/<game>/ (no data folder of its own, no
    data_dir override), its facts in one declared record with a replay position and a standard study."""
    package = Path(__import__("toy_pig").__file__).parent
    assert not (package / "seeds").exists() and "data_dir" not in type(pig).__dict__
    assert pig.data_dir() == default_dir("pig") and (default_dir("pig") / "game.toml").is_file()
    assert pig.info.study is not None and pig.info.position.board == ("turn_total", "to_move")


def test_pig_plays_a_run_the_analysis_reads(pig, tmp_path: Path) -> None:
    spec = RunSpec("pig", 3, 300, 7, parse_lineup(pig, ["hold", "hold:hold_at=10", "random"], 3), chunk_size=100)
    out = run(spec, tmp_path / "pig", workers=1, progress=False)
    seats = read_tables(check_runs([out]), "seats", ["game", "seat", "bot", "win", "score", "rolls"])
    assert len(seats) == 900 and seats.groupby("game")["win"].sum().round(9).eq(1).all()
    by_bot = seats.groupby("bot")["win"].mean()
    assert by_bot["random"] < by_bot["hold"], "banking at 20 beats banking at random"


def test_pig_replays_with_its_position(pig_run: Path, tmp_path: Path) -> None:
    events = json.loads(_ok("replay", pig_run, "--game", 5, "--json"))
    assert events[0]["state_schema"] == "golem-lab.replay-state/1"
    scores = [s["score"] for s in events[-1]["state"]["seats"]]
    assert events[-1]["scores"] == scores and max(scores) >= 30, "the last position shows the winner's 30 points"
    moves = [e for e in events if e["event"] == "move"]
    banked = sum(e["text"] == "banks" for e in moves)
    assert banked and all(e["state"]["board"]["to_move"] in (1, 2, 3) for e in moves)

    text = _ok("replay", pig_run, "--game", 5, "--state")
    assert text.count("    board: turn_total=") == len(events), "every event printed with its position"
    assert re.search(r"    seat 3: score=\d+", text)

    page = tmp_path / "game-5.html"
    assert _ok("replay", pig_run, "--game", 5, "--html", page).strip() == f"wrote {page}"
    html = page.read_text(encoding="utf-8")
    view = json.loads(re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S)[1])
    pool = view["pool"]
    assert len(view["steps"]) == len(events)
    for step in view["steps"]:  # what the page's script iterates: every seat of every position
        assert [pool[k]["seat"] for k in step["state"]["seats"]] == [1, 2, 3]
        assert len(step["scene"]["seats"]) == 3


def test_pig_verifies_reports_and_sweeps(pig_run: Path, tmp_path: Path) -> None:
    assert "complete, 300 games" in _ok("verify", pig_run)
    out = tmp_path / "report"
    _ok("report", pig_run, "--out", out)
    assert (out / "report.html").is_file() and "Pig" in (out / "report.md").read_text(encoding="utf-8")

    sweep = tmp_path / "sweep"
    _ok("sweep", "pig", "-p", 2, "--set", "target=30,50", "--games", 200, "--out", sweep, "--quiet")
    assert (sweep / "experiment.json").is_file() and (sweep / "report" / "report.html").is_file()


def test_pig_plays_its_standard_study(pig, tmp_path: Path) -> None:
    runs = tmp_path / "study"
    _ok("study", "pig", "--games", 2000, "--runs-dir", runs, "--workers", 1, "--quiet")
    played = sorted(p.name for p in runs.iterdir() if (p / "manifest.json").is_file())
    assert {r.name for r in pig.info.study.runs} <= set(played)
    assert (runs / "report" / "report.html").is_file()


def test_pig_checks_in_one_line_a_check(pig) -> None:
    output = _ok("check", "pig", "--games", 4, "--only", "position", "--only", "page", "--only", "study")
    assert [line.split()[0] for line in output.splitlines() if line.strip()][:3] == ["position", "page", "study"]


def test_a_game_without_a_study_is_refused_in_one_line(pig, monkeypatch) -> None:
    monkeypatch.setattr(type(pig), "info", __import__("dataclasses").replace(pig.info, study=None))
    result = _golem("study", "pig", "--games", 100)
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "pig declares no standard study (GameInfo.study" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_registering_is_checked(pig) -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_game("pig", "elsewhere.game", "")
    with pytest.raises(ValueError, match="ships with the lab"):
        unregister_game("century")


def test_a_game_without_its_play_and_replay_cannot_be_made() -> None:
    """``play_chunk`` and ``replay`` are the two things a game must write itself: a class that leaves either out fails
    when it is made, naming what is missing, not in the middle of a run."""
    from simulate.gamekit import GameShell

    class Unfinished(GameShell):
        def play_chunk(self, data, lineup, threads=1, check_moves=False, trajectories=False):
            return None

    with pytest.raises(TypeError, match="abstract method replay"):
        Unfinished()
