"""Bad input to every command: one ``Error:`` line, a non-zero exit, no traceback, no run touched.

Each case here failed once (a traceback, a silent success or a half-written output); the common
cases are in ``test_cli.py``.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from simulate.cli import main
from simulate.datafiles import default_dir
from simulate.lineup import LineupError, parse_bot
from simulate.registry import make

SEED = 5


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def only_error_line(result, *needles: str) -> None:
    """The whole output is a single ``Error:`` line holding every needle (click usage lines aside)."""
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line and not line.startswith(("Usage:", "Try "))]
    assert len(lines) == 1 and lines[0].startswith("Error:"), result.output
    for needle in needles:
        assert needle in lines[0], result.output


def snapshot(folder: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "c2"
    result = invoke(
        "simulate",
        "century",
        "-p",
        "2",
        "-n",
        "30",
        "--bots",
        "greedy",
        "--seed",
        str(SEED),
        "--out",
        str(out),
        "-w",
        "1",
        "-q",
    )
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["simulate", "golem", "-p", "2", "--bots", "greedy:resource=nan"], ["resource", "finite"]),
        (["simulate", "century", "-p", "2", "--bots", "engine:buy_turns=inf"], ["buy_turns", "finite"]),
        (["simulate", "golems", "-p", "2", "--bots", "greedy,greedy:gem_value=-inf"], ["finite"]),
        (["simulate", "century", "-p", "2", "--bots", "engine:buy_turns=-5"], ["buy_turns", "within 0..60", "-5"]),
        (["simulate", "golem-poker", "-p", "3", "--bots", "threshold:fold_below=1.5"], ["fold_below", "0..1"]),
        (["simulate", "golems", "-p", "2", "--bots", "lookahead:rollouts=0"], ["rollouts", "1..200"]),
        (["simulate", "golem", "-p", "2", "--bots", "balanced:red=-1"], ["red", "0..20"]),
        (
            ["tune", "century", "--bot", "greedy", "-p", "2", "--param", "epsilon", "--range", "epsilon=0:2"],
            ["epsilon", "accepts 0..1"],
        ),
        (["simulate", "century", "-p", "2", "--bots", "greedy", "--seed", "-1"], ["--seed"]),
        (["simulate", "century", "-p", "2", "--bots", "greedy", "--chunk-size", "0"], ["--chunk-size"]),
        (["simulate", "century", "-p", "2", "--bots", "greedy", "--chunk-size", "10000000"], ["--chunk-size"]),
        (["simulate", "century", "-p", "2", "--bots", "greedy,"], ["--bots", "empty bot"]),
        (["simulate", "century", "-p", "2", "--bots", "greedy,,engine"], ["--bots", "empty bot"]),
        (["simulate", "century", "-p", "2", "--bots", "greedy", "--setups", "0"], ["--setups"]),
        (["simulate", "century", "-p", "2", "--bots", "greedy", "--games-per-setup", "0"], ["--games-per-setup"]),
        (["simulate", "century", "-p", "-1", "--bots", "greedy"], ["--players"]),
        (["simulate", "century", "-p", "2", "--bots", "engine:patience=1:patience=5"], ["patience", "twice"]),
        (["simulate", "golem-poker", "-p", "3", "--bots", "threshold:max_raises=1.5"], ["max_raises", "whole"]),
        (["simulate", "golems", "-p", "2", "--bots", "lookahead:rollouts=2.5"], ["rollouts", "whole"]),
        (["simulate", "golem-poker", "-p", "3", "--bots", "random", "--rule", "house_cut_pct=1e400"], ["finite"]),
        (["simulate", "golem-poker", "-p", "3", "--bots", "random", "--rule", "house_cut_pct=nan"], ["finite"]),
        (["simulate", "century", "-p", "2", "--bots", "greedy", "--seed", str(2**64)], ["--seed"]),
        (["study", "century", "-n", "100", "--seed", "-1"], ["--seed"]),
        (["bench", "century", "--games", "0"], ["--games"]),
        (["bench", "century", "--repeats", "0"], ["--repeats"]),
        (["bench", "century", "--run-games", "-1"], ["--run-games"]),
        (["bench", "century", "--run-games", "5"], ["--run-games", "at least 10"]),
        (["study", "century", "-n", "100", "-w", "0"], ["--workers"]),
        (["study", "century", "-n", "100", "--rule", "tie_break=coin"], ["tie_break", "coin"]),
        (["study", "golem-poker", "-n", "100", "--rule", "ante=0"], ["ante", "outside"]),
        (["study", "golems", "-n", "100", "--rule", "speed=fast"], ["unknown rule option 'speed'"]),
        (["study", "century", "-n", "100", "--cards", "NOWHERE"], ["NOWHERE"]),
        (["study", "century", "-n", "100", "--runs-dir", "FILE"], ["FILE", "not a folder"]),
        (["balance", "century", "-p", "2", "--bots", "greedy", "--vary", "start.seat1", "-n", "0"], ["--games"]),
        (
            ["balance", "century", "-p", "2", "--bots", "greedy", "--vary", "start.seat1", "--confirm-games", "0"],
            ["--confirm-games"],
        ),
        (["tune", "century", "--bot", "greedy", "-p", "2", "-n", "0"], ["--games"]),
        (["tune", "century", "--bot", "greedy", "-p", "2", "--seed", "-1"], ["--seed"]),
        (
            ["sweep", "century", "-p", "2", "--bots", "greedy", "--set", "start.seat1=YYY,YYYY", "--seed", "-1"],
            ["--seed"],
        ),
        (["ablate", "century", "-p", "2", "--bots", "greedy", "--remove", "M09", "-n", "0"], ["--games"]),
    ],
)
def test_bad_values_stop_before_anything_is_written(tmp_path: Path, args: list[str], needles: list[str]) -> None:
    out = tmp_path / "out"
    if args[0] == "simulate":
        args = [*args, "-n", "5", "-w", "1", "-q", "--out", str(out)]
    elif args[0] == "study":
        (tmp_path / "FILE").write_text("keep me")
        args = [str(tmp_path / a) if a in ("NOWHERE", "FILE") else a for a in args]
        args += ["-q"] if "--runs-dir" in args else ["--runs-dir", str(out), "-q"]
    elif args[0] in ("balance", "tune", "sweep", "ablate"):
        args = [*args, "--out", str(out)]
    only_error_line(invoke(*args), *needles)
    assert not out.exists()


@pytest.mark.parametrize("game_name", ["century", "golem-poker", "golems", "golem"])
def test_every_bot_parameter_has_limits_around_its_default(game_name: str) -> None:
    game = make(game_name)
    for bot in game.info.bots.values():
        assert set(bot.limits) == set(bot.params), bot.name
        for key, (default, _) in bot.params.items():
            low, high = bot.limits[key]
            assert low <= default <= high, (bot.name, key)
            if key in bot.choices:  # set by name (a style): every name is accepted, a number is not
                names = bot.choices[key]
                assert len(names) == high - low + 1, (bot.name, key)
                for name in names:
                    parse_bot(game, f"{bot.name}:{key}={name}")
                with pytest.raises(LineupError, match=f"unknown {key}"):
                    parse_bot(game, f"{bot.name}:{key}={high:g}")
                continue
            parse_bot(game, f"{bot.name}:{key}={high:g}")  # the limits themselves are accepted
            with pytest.raises(LineupError, match=f"{key} must be within"):
                parse_bot(game, f"{bot.name}:{key}={high + 1:g}")


def test_study_with_a_malformed_card_table_names_it_before_playing(tmp_path: Path) -> None:
    cards = tmp_path / "deck"
    shutil.copytree(default_dir("century"), cards)
    lines = (cards / "point_cards.csv").read_text().splitlines()
    lines[1] = lines[1].rsplit(",", 1)[0] + ",x"
    (cards / "point_cards.csv").write_text("\n".join(lines) + "\n")
    only_error_line(
        invoke("study", "century", "-n", "100", "--cards", str(cards), "--runs-dir", str(tmp_path / "r")),
        "point_cards.csv",
        "line 2",
        "vp",
    )
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "nosuchprotocol://bucket/run"],
        ["report", "nosuchprotocol://bucket/run", "--out", "OUT"],
        ["replay", "nosuchprotocol://bucket/run", "--game", "0"],
        ["simulate", "century", "-p", "2", "--bots", "greedy", "-n", "5", "--out", "nosuchprotocol://bucket/run"],
    ],
)
def test_unknown_url_protocol_is_one_line(tmp_path: Path, args: list[str]) -> None:
    args = [str(tmp_path / a) if a == "OUT" else a for a in args]
    only_error_line(invoke(*args), "nosuchprotocol")
    assert not (tmp_path / "OUT").exists()


@pytest.mark.skipif(importlib.util.find_spec("s3fs") is not None, reason="s3fs is installed")
@pytest.mark.parametrize(
    "args",
    [
        ["verify", "s3://bucket/run"],
        ["simulate", "century", "-p", "2", "--bots", "greedy", "-n", "5", "--out", "s3://bucket/run"],
    ],
)
def test_url_of_a_filesystem_not_installed_is_one_line(args: list[str]) -> None:
    only_error_line(invoke(*args), "s3://bucket/run")


@pytest.mark.parametrize(
    "args",
    [
        ["report", "RUN", "--out", "RUN"],
        ["study", "century", "-n", "100", "--runs-dir", "RUN"],
        ["study", "century", "-n", "100", "--runs-dir", "FRESH", "--out", "RUN"],
    ],
)
def test_reports_and_studies_never_write_into_a_run(small_run: Path, tmp_path: Path, args: list[str]) -> None:
    before = snapshot(small_run)
    args = [str(small_run) if a == "RUN" else str(tmp_path / "fresh") if a == "FRESH" else a for a in args]
    only_error_line(invoke(*args), str(small_run), "holds a run")
    assert snapshot(small_run) == before
    assert not (tmp_path / "fresh").exists()


def test_every_command_has_a_description_examples_and_option_help() -> None:
    for name, command in main.commands.items():
        out = invoke(name, "--help").output
        assert "Examples:" in out and f"golem {name}" in out, out
        # options only: click 8.5 gives arguments a help attribute too (None unless set), click 8.1 none
        undocumented = [p.opts[0] for p in command.params if isinstance(p, click.Option) and not p.help]
        assert not undocumented, (name, undocumented)


def test_sweep_range_with_a_zero_step_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    result = invoke(
        "sweep",
        "century",
        "--set",
        "point_cards.P01.vp=1:5:0",
        "-p",
        "2",
        "--bots",
        "greedy",
        "-n",
        "10",
        "-w",
        "1",
        "-q",
        "--out",
        str(out),
    )
    only_error_line(result, "1:5:0", "positive step")
    assert not out.exists()


def test_resume_into_a_folder_never_created_starts_afresh(tmp_path: Path) -> None:
    """As docs/big-runs.md says: a run killed before it made its folder is finished by the same command with
    --resume (an existing folder without a run is still refused, see test_faults.py)."""
    out = tmp_path / "new"
    args = ["simulate", "century", "-p", "2", "-n", "5", "--bots", "greedy", "-w", "1", "-q", "--out", str(out)]
    result = invoke(*args, "--resume")
    assert result.exit_code == 0, result.output
    fresh = tmp_path / "fresh"
    assert invoke(*args[:-1], str(fresh)).exit_code == 0
    parts = [p.relative_to(out) for p in out.rglob("*.parquet")]
    assert parts and all((out / p).read_bytes() == (fresh / p).read_bytes() for p in parts)


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (
            ["simulate", "century", "-p", "2", "--rule", "tie_break=shared", "--rule", "tie_break=later_seat"],
            ["tie_break is given twice", "shared", "later_seat"],
        ),
        (
            ["sweep", "century", "-p", "2", "--set", "copper_vp=1,2", "--rule", "tie_break=shared"]
            + ["--rule", "tie_break=later_seat"],
            ["tie_break is given twice"],
        ),
        (["simulate", "century", "-p", "2", "--bots", "greedy", "--bot", "engine"], ["--bots", "--bot", "not both"]),
        (["sweep", "century", "-p", "2", "--set", "copper_vp=1,2", "--precision", "nan"], ["--precision", "nan"]),
        (["sweep", "century", "-p", "2", "--set", "copper_vp=1,2", "--precision", "inf"], ["--precision", "inf"]),
        (["ablate", "century", "-p", "2", "--replace", "M09=M09"], ["M09=M09", "changes nothing"]),
        (["ablate", "century", "-p", "2", "--remove", "M09", "--bots", "greedy,"], ["--bots", "empty bot"]),
    ],
)
def test_ambiguous_or_empty_requests_are_refused(tmp_path: Path, args: list[str], needles: list[str]) -> None:
    out = tmp_path / "out"
    only_error_line(invoke(*args, "-n", "20", "-w", "1", "-q", "--out", str(out)), *needles)
    assert not out.exists()


def test_replay_of_a_file_says_it_is_not_a_run_directory(small_run: Path) -> None:
    only_error_line(invoke("replay", str(small_run / "manifest.json"), "--game", "0"), "is a file, not a run directory")


def test_runner_refuses_a_seed_outside_64_bits(tmp_path: Path) -> None:
    from simulate.lineup import parse_lineup
    from simulate.registry import make
    from simulate.runner import RunError, RunSpec, run

    lineup = parse_lineup(make("century"), ["greedy"], 2)
    with pytest.raises(RunError, match="master seed"):
        run(RunSpec("century", 2, 5, -1, lineup), tmp_path / "r", workers=1, progress=False)
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("command", ["simulate", "study"])
def test_card_table_not_in_utf8_names_the_file(tmp_path: Path, command: str) -> None:
    cards = tmp_path / "deck"
    shutil.copytree(default_dir("century"), cards)
    (cards / "point_cards.csv").write_bytes("id,cost,vp\nP01,YYGG,6é\n".encode("latin-1"))
    out = tmp_path / "out"
    if command == "simulate":
        args = ["simulate", "century", "-p", "2", "-n", "5", "--bots", "greedy", "--out", str(out)]
    else:
        args = ["study", "century", "-n", "100", "--runs-dir", str(out)]
    only_error_line(invoke(*args, "--cards", str(cards)), "point_cards.csv", "UTF-8")
    assert not out.exists()


def test_card_table_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    from simulate.datafiles import read_csv

    path = default_dir("century") / "point_cards.csv"
    plain = read_csv(path, ["id", "cost", "vp"])
    with_bom = tmp_path / "point_cards.csv"
    with_bom.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert read_csv(with_bom, ["id", "cost", "vp"]) == plain


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["-n", str(10**15)], ["1,000,000,000,000,000 games", "at most 100,000 chunks"]),
        (["--setups", str(10**14), "--games-per-setup", "10"], ["games is more than a run can plan"]),
        (["--setups", "10", "--orders-per-opening", "3"], ["--orders-per-opening 3", "whole number of openings"]),
        (["-n", "5", "--orders-per-opening", "2"], ["--orders-per-opening 2 needs --setups"]),
        (["--setups", "10", "--orders-per-opening", "0"], ["--orders-per-opening"]),
        (["-n", "5", "--workers", "1000"], ["--workers", "per core"]),
        (["-n", "5", "--out", ""], ["--out"]),
        (["-n", "5", "--out", " "], ["--out"]),
    ],
)
def test_runs_too_large_or_odd_are_refused_at_once(tmp_path: Path, args: list[str], needles: list[str]) -> None:
    out = tmp_path / "out"
    base = ["simulate", "century", "-p", "2", "--bots", "greedy", "-q"]
    result = invoke(*base, *(args if "--out" in args else [*args, "--out", str(out)]))
    only_error_line(result, *needles)
    assert not out.exists() and not list(Path.cwd().glob("manifest.json"))


def test_a_data_file_with_an_infinite_or_missing_rule_value_names_file_and_key(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(default_dir("golem-poker"), cards)
    toml = cards / "game.toml"
    text = toml.read_text()
    assert "house_cut_pct = " in text
    toml.write_text(re.sub(r"house_cut_pct = \S+", "house_cut_pct = nan", text))
    args = ["simulate", "golem-poker", "-p", "3", "--bots", "random", "-n", "5", "--out", str(tmp_path / "o")]
    only_error_line(invoke(*args, "--cards", str(cards)), "game.toml", "house_cut_pct", "finite")


def test_a_report_into_a_folder_holding_a_report_needs_overwrite(small_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert invoke("report", str(small_run), "--out", str(out)).exit_code == 0
    before = snapshot(out)
    only_error_line(invoke("report", str(small_run), "--out", str(out)), "holds a report", "--overwrite")
    assert snapshot(out) == before
    assert invoke("report", str(small_run), "--out", str(out), "--overwrite").exit_code == 0


@pytest.mark.parametrize("game_name", ["century", "golem-poker", "golems", "golem"])
def test_bot_list_columns_stay_aligned(game_name: str) -> None:
    """Descriptions start in one column for every bot; a bot's parameter help texts start in one column."""
    lines = invoke("bots", game_name).output.splitlines()
    bots = make(game_name).info.bots
    heads = [k for k, line in enumerate(lines) if not line.startswith(" ")]
    assert [lines[k].split()[0] for k in heads] == list(bots)
    assert len({len(lines[k]) - len(lines[k].split(maxsplit=1)[1]) for k in heads}) == 1, lines
    for k, bot in zip(heads, bots.values(), strict=True):
        block = lines[k + 1 : k + 1 + len(bot.params)]
        assert len({re.search(r"\]\s+", line).end() for line in block}) <= 1, block


def test_a_broken_table_read_as_a_game_loads_is_one_line_under_any_command() -> None:
    """A game's bot table and study (``seeds/<game>/bots.toml``, ``study.toml``) are read as its modules load, before
    any command's own error handling: the entry point turns their ``DataError`` into one line and exit status 1."""
    import subprocess
    import sys

    child = (
        "import simulate.cli as cli\n"
        "from simulate.datafiles import DataError\n"
        "def broken():\n"
        "    raise DataError('seeds/golems/bots.toml: bots.random.descriptio: unknown key')\n"
        "cli.main = broken\n"
        "cli.entry()\n"
    )
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == ["Error: seeds/golems/bots.toml: bots.random.descriptio: unknown key"]
    assert "Traceback" not in done.stderr
