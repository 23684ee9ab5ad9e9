"""A new user's first minutes: compile messages before progress, recommended lineups, bench progress, and a bench
that leaves first use out of what it times."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import simulate.bench
import simulate.runner.execute
from simulate.bench import bench_setup, run_bench
from simulate.cli import main
from simulate.datafiles import DataError
from simulate.gamekit import time_reference_replay
from simulate.lineup import parse_lineup
from simulate.registry import available_games, make
from simulate.runner import RunSpec, run


def _cold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every game look as if its kernels were never compiled (they are: the run only loads them)."""
    monkeypatch.setattr(simulate.runner.execute, "is_compiled", lambda module: False)
    monkeypatch.setattr(simulate.bench, "is_compiled", lambda module: False)


def test_a_first_run_says_it_compiles_before_the_progress_bar(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _cold(monkeypatch)
    game = make("century")
    spec = RunSpec("century", 2, 40, 3, parse_lineup(game, ["greedy"], 2), chunk_size=20)
    run(spec, tmp_path / "r", workers=2, progress=True)
    err = capfd.readouterr().err
    message = "compiling the kernels of Century: Golem Edition: first use only, about a minute"
    assert message in err and "century 2p" in err
    assert err.index(message) < err.index("century 2p")  # before the bar (tqdm's description)
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert manifest["status"] == "complete"


def test_a_quiet_or_compiled_run_prints_nothing_about_compiling(
    capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = RunSpec("century", 2, 10, 3, parse_lineup(make("century"), ["greedy"], 2))
    run(spec, tmp_path / "r", workers=1, progress=True)  # compiled by the session's set-up
    assert "compiling" not in capfd.readouterr().err


@pytest.mark.parametrize("name", list(available_games()))
def test_every_game_declares_a_recommended_lineup_valid_at_every_player_count(name: str) -> None:
    game = make(name)
    for players in range(game.info.min_players, game.info.max_players + 1):
        assert len(parse_lineup(game, game.info.default_bots.split(","), players)) == players


def test_simulate_without_bots_plays_the_recommended_lineup_and_says_so(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["simulate", "golems", "-p", "2", "-n", "30", "-w", "1", "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 0, result.output
    assert "bots: collector heuristic (collector), the recommended lineup of golems" in result.output
    assert "hold for players of that skill (rung 3 of 7 of the game's skill ladder)" in result.output
    manifest = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert [e["label"] for e in manifest["lineup"]] == ["collector", "collector"]


def test_games_and_simulate_help_name_the_recommended_lineup() -> None:
    games = CliRunner().invoke(main, ["games"]).output
    for name in available_games():
        assert f"recommended bots: {make(name).info.default_bots} " in games
    help_text = " ".join(CliRunner().invoke(main, ["simulate", "--help"]).output.split())
    for name in available_games():
        assert f"{name} {make(name).info.default_bots}" in help_text


def test_bench_says_what_it_measures_before_each_measurement(monkeypatch: pytest.MonkeyPatch) -> None:
    _cold(monkeypatch)
    lines: list[str] = []
    records = []
    for record in run_bench("golems", num_games=40, repeats=1, run_games=0, log=lines.append):
        records.append((len(lines), record["bench"]))
    assert lines[0] == "compiling the kernels of Golems: first use only, about a minute"
    assert all(seen >= 2 for seen, _ in records)  # each figure comes after a line saying what it measures
    for bots in bench_setup(make("golems"))[1]:
        assert any(line.startswith(f"golems --bots {bots}: ") for line in lines), lines


def test_bench_on_data_that_fails_to_load_says_why_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    game_class = type(make("golem-poker"))

    def broken(self, *args, **kwargs):
        raise DataError("seeds/golem-poker/cfr.npz: the table was trained for another abstraction")

    monkeypatch.setattr(game_class, "load_data", broken)
    result = CliRunner().invoke(main, ["bench", "golem-poker", "--run-games", "0"])
    assert result.exit_code == 1
    assert result.output.strip() == "Error: seeds/golem-poker/cfr.npz: the table was trained for another abstraction"
    assert result.exc_info is None or result.exc_info[0] is SystemExit


def test_the_reference_replay_is_timed_in_cpu_without_its_first_use() -> None:
    """A planted reference: its first game burns 0.3 s of CPU (first use) and every move waits 20 ms without working
    (a busy machine); the timing counts neither, only the moves' own CPU."""

    class Reference:
        built = 0

        def __init__(self, seed: int) -> None:
            Reference.built += 1
            if Reference.built == 1:
                start = time.process_time()
                while time.process_time() - start < 0.3:
                    pass

        def apply_action(self, move: np.ndarray) -> None:
            time.sleep(0.02)

    traces = [np.zeros((3, 2), np.int32)] * 4
    seconds, moves = time_reference_replay(Reference, np.arange(4), traces)
    assert moves == 12 and Reference.built == 5  # the first game once more, outside the clock
    assert 0 <= seconds < 0.1


def test_a_game_whose_data_compiled_but_not_its_loop_counts_as_not_compiled(tmp_path: Path) -> None:
    """Reading golem-poker's data compiles its hand tables; the run must still compile the loop once, before its
    workers start (else each worker compiles it on its own)."""
    import os
    import subprocess
    import sys

    script = (
        "from simulate.registry import make; from simulate.jitcache import is_compiled, cache_dir; "
        "from pathlib import Path; import sys; g = make('golem-poker'); g.load_data(None, {}); "
        "m = type(g).__module__; folder = cache_dir(Path(sys.modules[m].__file__).parent); "
        "print(any(folder.glob('*.nbi')), is_compiled(m))"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
    done = subprocess.run(
        [sys.executable, "-c", script], env={**env, "XDG_CACHE_HOME": str(tmp_path)}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split() == ["True", "False"]
