"""The shared runner: reproducibility, seeding streams, seat rotation, setup designs and resume."""

from __future__ import annotations

import json
from pathlib import Path

import fsspec
import numpy as np
import pandas as pd
import pyarrow.dataset as ds
import pytest
from click.testing import CliRunner

from analysis.run import load_run
from analysis.stats.seats import win_rates
from analysis.summary import summarize
from simulate.cli import main
from simulate.integrity import verify_run
from simulate.lineup import parse_lineup
from simulate.registry import make
from simulate.replay import replay_game
from simulate.runformat import RunFormatError, read_table
from simulate.runner import RunSpec, default_chunk_size, execute, plan_games, resume, run

MASTER_SEED = 424242
GAME = make("century")


def spec(num_games: int = 900, bots: tuple[str, ...] = ("greedy", "engine", "random"), **kw) -> RunSpec:
    return RunSpec(
        "century",
        len(bots),
        num_games,
        MASTER_SEED,
        parse_lineup(GAME, list(bots), len(bots)),
        chunk_size=kw.pop("chunk_size", 300),
        **kw,
    )


def parts(run_dir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run_dir)): p.read_bytes() for p in sorted(run_dir.rglob("*.parquet"))}


def test_files_identical_with_one_or_two_workers(tmp_path: Path) -> None:
    one = run(spec(), tmp_path / "one", workers=1, progress=False)
    two = run(spec(), tmp_path / "two", workers=2, progress=False)
    assert parts(one) == parts(two) and len(parts(one)) == 9
    m1 = json.loads((one / "manifest.json").read_text())
    m2 = json.loads((two / "manifest.json").read_text())
    assert m1["run_id"] == m2["run_id"] and m1["chunks"] == m2["chunks"]


def test_a_game_does_not_depend_on_its_chunk(tmp_path: Path) -> None:
    """Game g is a pure function of (master seed, g): chunking changes nothing."""
    a = run(spec(600, chunk_size=600), tmp_path / "a", workers=1, progress=False)
    b = run(spec(600, chunk_size=77), tmp_path / "b", workers=1, progress=False)
    for table in ("games", "seats", "components"):
        left = read_table(a, table).drop(columns="run_id")
        right = read_table(b, table).drop(columns="run_id")
        pd.testing.assert_frame_equal(left, right)


@pytest.mark.parametrize(
    ("games", "largest", "chunk"),
    [(1_000_000, 20_000, 20_000), (10_000, 20_000, 1_250), (100_000, 5_000, 5_000), (400, 20_000, 100), (9, 50, 50)],
)
def test_a_run_without_a_chunk_size_makes_eight_chunks_when_it_can(games: int, largest: int, chunk: int) -> None:
    """Two workers share a 10,000-game run or a study's 400-game search rung (one chunk would leave one idle)."""
    assert default_chunk_size(games, largest) == chunk


def test_setup_stream_is_separate_from_play(tmp_path: Path) -> None:
    """Same setups with other bots: the opening rows match, the play differs."""
    design = {"setups": 50, "games_per_setup": 6}
    a = run(spec(300, **design), tmp_path / "a", workers=1, progress=False)
    b = run(spec(300, bots=("random", "planner", "random"), **design), tmp_path / "b", workers=1, progress=False)
    ga, gb = read_table(a, "games"), read_table(b, "games")
    setup_cols = [c for c in ga.columns if c.startswith("setup_")]
    pd.testing.assert_frame_equal(ga[setup_cols], gb[setup_cols])
    assert (ga["play_seed"] == gb["play_seed"]).all()
    assert (ga["turns"] != gb["turns"]).any()
    # within a setup: the same opening, different play seeds
    first = ga.groupby("setup_id")
    assert (first["setup_seed"].nunique() == 1).all() and (first["play_seed"].nunique() == 6).all()
    assert (first["setup_merchant_1"].nunique() == 1).all()
    assert ga["setup_id"].tolist() == [g // 6 for g in range(300)]


def test_rotation_puts_every_bot_in_every_seat(tmp_path: Path) -> None:
    out = run(spec(300, setups=25, games_per_setup=12), tmp_path / "r", workers=1, progress=False)
    seats = read_table(out, "seats")
    counts = seats.groupby(["setup_id", "bot"], observed=True)["seat"].value_counts()
    assert (counts == 4).all() and len(counts) == 25 * 9


def test_fixed_seats_keep_the_lineup_order(tmp_path: Path) -> None:
    out = run(spec(90, rotate_seats=False), tmp_path / "r", workers=1, progress=False)
    seats = read_table(out, "seats")
    assert seats.groupby("seat", observed=True)["bot"].unique().map(list).tolist() == [
        ["greedy"],
        ["engine"],
        ["random"],
    ]


def test_plan_is_pure_and_setups_share_seeds() -> None:
    s = spec(100, setups=10, games_per_setup=10)
    whole = plan_games(s, 0, 100)
    part = plan_games(s, 37, 61)
    assert (whole.play_seed[37:61] == part.play_seed).all() and (whole.setup_seed[37:61] == part.setup_seed).all()
    assert len(set(whole.setup_seed.tolist())) == 10 and len(set(whole.play_seed.tolist())) == 100
    assert whole.rotation.tolist()[:10] == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]


def test_resume_completes_an_interrupted_run(tmp_path: Path) -> None:
    full = run(spec(), tmp_path / "full", workers=1, progress=False)
    cut = run(spec(), tmp_path / "cut", workers=1, progress=False)
    manifest = json.loads((cut / "manifest.json").read_text())
    for k in ("1", "2"):  # as if killed: chunk 1 never written, chunk 2 written but not recorded
        if k == "1":
            for f in manifest["chunks"][k]["files"].values():
                (cut / f["path"]).unlink()
        del manifest["chunks"][k]
    manifest["status"] = "interrupted"
    (cut / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(RunFormatError, match="interrupted"):
        verify_run(cut)
    run(spec(), cut, workers=2, progress=False, resume=True)
    assert parts(cut) == parts(full)
    verify_run(cut)


def test_readers_see_the_tables(tmp_path: Path) -> None:
    out = run(spec(300), tmp_path / "r", workers=1, progress=False)
    seats = ds.dataset(out / "seats").to_table()
    assert seats.num_rows == 900
    games = pd.read_parquet(out / "games")
    comps = pd.read_parquet(out / "components")
    assert set(comps["kind"].unique()) == {"merchant", "point"}
    point_rows = comps[comps["kind"] == "point"].groupby(["game", "seat"]).size()
    per_seat = pd.read_parquet(out / "seats").set_index(["game", "seat"])["num_point_cards"]
    assert (per_seat.loc[point_rows.index] == point_rows).all()
    scored = pd.read_parquet(out / "seats")
    parts_sum = scored[["score_points", "score_copper", "score_silver", "score_crystals"]].sum(axis=1)
    assert (parts_sum == scored["score"]).all()
    assert (games["end_reason"] == "trigger").mean() > 0.9
    assert np.array_equal(np.sort(games["game"].to_numpy()), np.arange(300))
    assert "win rate by seat" in summarize(out)


def test_a_run_at_a_url_reads_replays_and_reports_as_its_directory(tmp_path: Path) -> None:
    """A run copied to an object store (fsspec memory://) gives the same tables, replays and report."""
    out = run(spec(300), tmp_path / "r", workers=1, progress=False)
    url = "memory://golem-test-runner/r"
    fsspec.filesystem("memory").put(str(out), "/golem-test-runner/r", recursive=True)
    try:
        here, there = load_run(out), load_run(url)
        for table in ("games", "seats", "components"):
            pd.testing.assert_frame_equal(getattr(here, table), getattr(there, table))
        assert there.manifests[0]["path"] == url
        assert replay_game(url, 123)[1] == replay_game(out, 123)[1]
        result = CliRunner().invoke(main, ["report", url, "--out", str(tmp_path / "report")])
        assert result.exit_code == 0, result.output
        assert (tmp_path / "report" / "report.md").read_text().count("seat") > 10
        missing = CliRunner().invoke(main, ["replay", "memory://golem-test-runner/none", "--game", "1"])
        assert missing.exit_code == 1 and len(missing.output.strip().splitlines()) == 1
    finally:
        fsspec.filesystem("memory").rm("/golem-test-runner", recursive=True)


def test_summary_counts_as_the_analysis_layer_does(tmp_path: Path) -> None:
    out = run(spec(600), tmp_path / "s", workers=2, progress=False)
    text = summarize(out)
    seats = read_table(out, "seats")
    for by in ("seat", "bot"):
        for r in win_rates(seats, by).itertuples():
            label = f"seat {r.seat}:" if by == "seat" else f"{r.bot:<24}"
            line = next(x for x in text.splitlines() if x.strip().startswith(label.strip()))
            assert f"{r.win_rate:6.1%} ({r.ci_low:.1%}-{r.ci_high:.1%})" in line
            mean = seats.loc[seats[by] == getattr(r, by), "score"].mean()
            assert line.endswith(f"mean score {mean:.1f}")


def test_warm_imports_load_after_the_workers_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    probe = tmp_path / "probe"
    (tmp_path / "warm_probe.py").write_text(f"open({str(probe)!r}, 'w').write('imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    run(spec(), tmp_path / "w", workers=2, progress=False, warm_imports=("no_such_module_here", "warm_probe"))
    assert probe.read_text() == "imported"  # a failing name does not stop the others or the run


@pytest.mark.parametrize(("interval", "writes"), [(0.0, 2 + 3), (3600.0, 2)])
def test_manifest_is_rewritten_at_most_once_per_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, interval: float, writes: int
) -> None:
    calls = []
    real = execute.write_manifest
    monkeypatch.setattr(execute, "MANIFEST_INTERVAL", interval)
    for room in (execute, resume):  # the first manifest is written as the directory is made ready, the rest in play
        monkeypatch.setattr(room, "write_manifest", lambda store, m: calls.append(len(m["chunks"])) or real(store, m))
    out = run(spec(), tmp_path / "m", workers=1, progress=False)
    assert len(calls) == writes and calls[0] == 0 and calls[-1] == 3  # the first and the complete one always
    assert json.loads((out / "manifest.json").read_text())["status"] == "complete"


def test_tampered_part_is_refused(tmp_path: Path) -> None:
    out = run(spec(300), tmp_path / "r", workers=1, progress=False)
    target = out / "seats" / "part-00000.parquet"
    data = target.read_bytes()
    target.write_bytes(data[: len(data) // 2])
    with pytest.raises(RunFormatError, match="part-00000"):
        verify_run(out)
