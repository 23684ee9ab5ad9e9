"""Trajectories (every seat's score at the end of every round): the same with any worker or thread count, ending at
the final score, and the same games as without them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from analysis.run import load_run
from simulate.integrity import verify_run
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make
from simulate.runformat import RunFormatError, read_table
from simulate.runner import RunError, RunSpec, plan_games, run

MASTER_SEED = 2929
CASES = [("century", 3, "greedy"), ("golem", 4, "greedy"), ("golems", 2, "greedy"), ("golem-poker", 4, "threshold")]
"""Game, players and bot of each game's check; the last point equals the final score in every game (golem-poker's
score is the seat's net chips, its last stage ending with the pot awarded)."""


def _chunk(name: str, players: int, bot: str, games: int, threads: int, trajectories: bool):
    game = make(name)
    lineup = parse_lineup(game, [bot], players)
    plan = plan_games(RunSpec(name, players, games, MASTER_SEED, lineup), 0, games)
    data = game.load_data(None, {})
    return game.play_chunk(data, plan.lineup(players, *lineup_arrays(game, lineup)), threads, trajectories=trajectories)


@pytest.mark.parametrize(("name", "players", "bot"), CASES)
def test_trajectories_end_at_the_final_score_alike_on_any_threads(name: str, players: int, bot: str) -> None:
    serial = _chunk(name, players, bot, 40, 1, True)
    threaded = _chunk(name, players, bot, 40, 2, True)
    plain = _chunk(name, players, bot, 40, 1, False)
    traj = serial.trajectories
    assert plain.trajectories is None
    assert np.array_equal(traj.offsets, threaded.trajectories.offsets)
    assert np.array_equal(traj.values, threaded.trajectories.values)
    for column, values in plain.seats.items():  # the same games as without trajectories
        assert np.array_equal(
            np.asarray(getattr(values, "codes", values)),
            np.asarray(getattr(serial.seats[column], "codes", serial.seats[column])),
        )
    lengths = np.diff(traj.offsets).reshape(-1, players)
    assert (lengths == lengths[:, :1]).all() and (lengths > 0).all()
    last = traj.values[traj.offsets[1:] - 1]
    assert np.array_equal(last, np.asarray(serial.seats["score"]))


def test_trajectories_count_the_rounds_played() -> None:
    """Century and Golems end at a round's end: one point per round the games table counts."""
    for name, players in (("century", 3), ("golems", 2)):
        tables = _chunk(name, players, "greedy", 30, 1, True)
        lengths = np.diff(tables.trajectories.offsets)[::players]
        turns = np.asarray(tables.games["turns"])
        assert np.array_equal(lengths, -(-turns // players))


def _spec(trajectories: bool) -> RunSpec:
    game = make("century")
    lineup = parse_lineup(game, ["greedy", "engine", "random"], 3)
    return RunSpec("century", 3, 600, MASTER_SEED, lineup, chunk_size=200, trajectories=trajectories)


def test_a_run_writes_identical_trajectories_with_one_or_two_workers(tmp_path: Path) -> None:
    one = run(_spec(True), tmp_path / "one", workers=1, progress=False)
    two = run(_spec(True), tmp_path / "two", workers=2, progress=False)
    files = sorted(p.relative_to(one) for p in one.rglob("trajectories/*.parquet"))
    assert len(files) == 3 and all((one / f).read_bytes() == (two / f).read_bytes() for f in files)
    plain = run(_spec(False), tmp_path / "plain", workers=1, progress=False)
    manifest = json.loads((plain / "manifest.json").read_text())
    assert manifest["run_id"] == json.loads((one / "manifest.json").read_text())["run_id"]
    assert "trajectories" not in manifest["tables"] and not (plain / "trajectories").exists()
    verify_run(one)
    tables = load_run(one, tables=["seats", "trajectories"])
    merged = tables.seats.merge(tables.trajectories, on=["game", "seat"], suffixes=("", "_list"))
    assert (merged["score_list"].map(lambda v: v[-1]) == merged["score"]).all()
    with pytest.raises(RunFormatError, match="no trajectories table"):
        read_table(plain, "trajectories")
    with pytest.raises(RunError, match="trajectories"):
        run(_spec(False), one, workers=1, progress=False, resume=True)


def test_the_report_shows_how_the_game_plays_for_runs_with_trajectories(tmp_path: Path) -> None:
    from analysis.report.build import compute_report

    game = make("century")
    mixed = RunSpec("century", 2, 300, MASTER_SEED + 1, parse_lineup(game, ["random", "planner"], 2), chunk_size=300)
    runs = [run(_spec(True), tmp_path / "feel", workers=1, progress=False)]
    runs.append(run(mixed, tmp_path / "mixed", workers=1, progress=False))
    report = compute_report(runs)
    section = next(s for s in report.sections if s.title == "How the game plays")
    assert any(a.startswith("How it plays (3 players") for a in report.summary)
    assert any(a.startswith("Skill against luck between close players: of ") for a in report.summary)
    assert {f.name for f in section.items if hasattr(f, "png")} == {"feel.png", "ladder_ratings.png"}
