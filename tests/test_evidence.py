"""The body of evidence (analysis/evidence.py): compatible runs pool, each game once; other runs stay apart."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from analysis.evidence import compatible_runs, evidence_index, evidence_key, pooled_seats
from analysis.stats.ladder import ladder_seats
from simulate.cli import main
from simulate.lineup import parse_lineup
from simulate.orchestration.studies import PlannedRun, widest_half_width
from simulate.registry import make
from simulate.runner import RunSpec, run, validate


def _play(out: Path, players: int = 2, games: int = 120, seed: int = 0, bot: str = "greedy", **rules) -> Path:
    lineup = parse_lineup(make("century"), [bot], players)
    spec = RunSpec("century", players, games, seed, lineup, chunk_size=60, rules=rules)
    run(spec, out, workers=1, progress=False)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A runs folder: two runs of seed 0 (the smaller holds the larger's first games), one of seed 5, and runs that
    differ in player count, lineup and a rule option; plus an unfinished run and a file that is not a run."""
    root = tmp_path_factory.mktemp("evidence")
    _play(root / "big", games=160)
    _play(root / "small", games=100)
    _play(root / "other-seed", games=80, seed=5)
    _play(root / "three", players=3, games=60)
    _play(root / "engine", games=60, bot="engine")
    _play(root / "ruled", games=60, tie_break="shared")
    shutil.copytree(root / "small", root / "unfinished")
    m = json.loads((root / "unfinished" / "manifest.json").read_text())
    (root / "unfinished" / "manifest.json").write_text(json.dumps({**m, "status": "running"}))
    (root / "notes.txt").write_text("not a run")
    return root


def test_the_index_lists_finished_runs_only(runs: Path) -> None:
    index = evidence_index(runs)
    assert sorted(p.name for p in index["path"]) == ["big", "engine", "other-seed", "ruled", "small", "three"]
    same = index.set_index(index["path"].map(lambda p: p.name))["key"]
    assert same["big"] == same["small"] == same["other-seed"], "compatible: only size and seed differ"
    assert len({same["big"], same["three"], same["engine"], same["ruled"]}) == 4, "players, lineup, rules differ"


def test_compatible_runs_count_each_game_once(runs: Path) -> None:
    got = compatible_runs([runs / "small"], runs)
    assert [p.name for p in got] == ["big", "other-seed"], "small's games are big's first 100: big stands for both"
    pooled = pooled_seats(got, ["seat", "win"])
    assert pooled.groupby("seat")["game"].nunique().tolist() == [240, 240]
    seats = pd.concat([pd.read_parquet(runs / name / "seats") for name in ("big", "other-seed")])
    assert pooled.groupby("seat")["win"].sum().tolist() == pytest.approx(seats.groupby("seat")["win"].sum().tolist())


def test_a_smaller_run_of_a_seed_holds_the_larger_ones_first_games(runs: Path) -> None:
    big = pd.read_parquet(runs / "big" / "seats").sort_values(["game", "seat"])
    small = pd.read_parquet(runs / "small" / "seats").sort_values(["game", "seat"])
    columns = ["game", "seat", "score", "win"]
    assert big[big["game"] < 100][columns].reset_index(drop=True).equals(small[columns].reset_index(drop=True))


def test_the_key_names_what_decides_the_games() -> None:
    base = {
        "game": "century",
        "engine_version": 4,
        "num_players": 2,
        "lineup": [{"label": "greedy", "bot": "greedy", "params": {}}],
        "rules": {"gift": "none"},
        "data": {"files": {"a.csv": "1"}},
        "design": {"rotate_seats": True, "games_per_setup": 1, "chunk_size": 100, "setups": None},
        "master_seed": 0,
        "num_games": 10,
        "status": "complete",
        "chunks": {},
    }
    key = evidence_key(base)
    assert evidence_key({**base, "master_seed": 9, "num_games": 99}) == key
    assert evidence_key({**base, "design": {**base["design"], "chunk_size": 7}}) == key
    for change in (
        {"engine_version": 5},
        {"num_players": 3},
        {"lineup": [{"label": "engine", "bot": "engine", "params": {}}]},
        {"lineup": [{"label": "greedy", "bot": "greedy", "params": {"depth": 2.0}}]},
        {"rules": {"gift": "S1"}},
        {"data": {"files": {"a.csv": "2"}}},
        {"design": {**base["design"], "games_per_setup": 3, "setups": 10}},
    ):
        assert evidence_key({**base, **change}) != key, change


def test_report_pools_the_evidence_it_is_pointed_at(runs: Path, tmp_path: Path) -> None:
    out = tmp_path / "rep"
    done = CliRunner().invoke(main, ["report", str(runs / "small"), "--evidence", str(runs), "--out", str(out)])
    assert done.exit_code == 0, done.output
    record = json.loads((out / "report.json").read_text())
    assert record["schema"] == "golem-lab.report-evidence/1"
    assert sorted(r["run"] for r in record["runs"]) == ["big", "other-seed"]
    assert sum(r["num_games"] for r in record["runs"]) == 240
    alone = tmp_path / "alone"
    assert CliRunner().invoke(main, ["report", str(runs / "small"), "--out", str(alone)]).exit_code == 0
    assert [r["run"] for r in json.loads((alone / "report.json").read_text())["runs"]] == ["small"]


def test_a_planned_runs_key_is_the_key_of_the_run_it_plays(runs: Path) -> None:
    """A study asks the evidence with a spec and its facts, before any chunk exists (no ``chunks``, no ``status``):
    the key reads from that too, and equals the finished run's."""
    game = make("century")
    spec = RunSpec("century", 2, 160, 0, parse_lineup(game, ["greedy"], 2), chunk_size=60)
    from_spec = evidence_key({**spec.to_json(), "engine_version": game.info.version, **_described(game, spec)})
    assert from_spec == evidence_key(json.loads((runs / "big" / "manifest.json").read_text()))


def _described(game, spec: RunSpec) -> dict:
    """The rules and data facts a study adds to a spec (as ``studies._play`` does)."""
    _, data = validate(spec)
    described = game.describe_data(data)
    return {"rules": described["rules"], "data": described["data"]}


def test_the_precision_stage_measures_the_interval_the_answer_reports(runs: Path) -> None:
    """A study tops up a rung until the strong-play answer's own seat interval is narrow enough: the same Wilson
    interval over the same pooled games, with seats numbered as the answer numbers them (a game that draws its turn
    order: by that column, not the table seat; the regenerated Golem sample logged ±2.0 "reached" where its first
    screen said ±2.1)."""
    small = PlannedRun("small", runs / "small", None, "", "")
    seats = pd.concat(
        [
            pd.read_parquet(runs / name / "seats").assign(game=lambda f, k=k: f["game"] + 1000 * k)
            for k, name in enumerate(("big", "other-seed"))
        ]
    )
    seats["bot"] = "greedy"
    for column in ("seat", "rank"):
        games, half = widest_half_width([small], seat_column=column)
        answer = ladder_seats(seats.assign(seat=seats[column]), ["greedy"])
        assert games == 240
        assert half == pytest.approx(float(answer["half_width"].max()), rel=1e-12), column
    assert widest_half_width([small], seat_column="rank")[1] != pytest.approx(widest_half_width([small])[1])
