"""The golem command line: listings, simulate, replay, verify, and one-line errors on bad input."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from simulate.cli import main
from simulate.datafiles import default_dir
from simulate.registry import make

SEED = 11


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def ok(*args: str):
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result


def one_line_error(result, *needles: str) -> None:
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    for needle in needles:
        assert needle in errors[0], result.output


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "c3"
    ok(
        "simulate",
        "century",
        "-p",
        "3",
        "-n",
        "300",
        "--bots",
        "greedy,engine,random",
        "--seed",
        str(SEED),
        "--out",
        str(out),
        "--workers",
        "1",
        "--chunk-size",
        "100",
    )
    return out


def test_help_lists_commands_and_examples() -> None:
    out = ok("--help").output
    for command in ("games", "bots", "simulate", "replay", "bench", "verify"):
        assert command in out
    sim = ok("simulate", "--help").output
    for option in (
        "--players",
        "--games",
        "--bots",
        "--seed",
        "--out",
        "--workers",
        "--setups",
        "--games-per-setup",
        "--rotate",
        "--rule",
        "--cards",
        "--overwrite",
        "--resume",
    ):
        assert option in sim


def test_games_and_bots_listings() -> None:
    games = ok("games").output
    assert "century" in games and "2-5 players" in games and "tie_break" in games
    bots = ok("bots", "century").output
    for name in ("random", "greedy", "engine", "planner"):
        assert name in bots
    assert "buy_turns=8" in bots


def test_simulate_writes_a_complete_run(small_run: Path) -> None:
    manifest = json.loads((small_run / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["num_games"] == 300
    assert [e["label"] for e in manifest["lineup"]] == ["greedy", "engine", "random"]
    assert manifest["rules"] == {"rest_requires_played": True, "tie_break": "later_seat", "gift": "none"}
    assert set(manifest["data"]["files"]) == set(
        make("century").info.data_files
    )  # apprentice.csv too, since main's a2bb15b
    assert len(manifest["chunks"]) == 3
    seats = pd.read_parquet(small_run / "seats")
    assert len(seats) == 900 and seats["win"].sum() == pytest.approx(300)
    assert (seats.groupby("bot", observed=True)["seat"].value_counts() == 100).all()
    ok("verify", str(small_run))


def test_summary_is_printed(tmp_path: Path) -> None:
    out = ok(
        "simulate",
        "century",
        "-p",
        "2",
        "-n",
        "200",
        "--bots",
        "greedy",
        "--out",
        str(tmp_path / "r"),
        "--workers",
        "1",
    ).output
    assert "win rate by seat" in out and "seat 1:" in out and "fair share 50.0%" in out


def test_summary_counts_from_the_manifest_tallies_as_from_the_parts(tmp_path: Path) -> None:
    out = tmp_path / "r"
    printed = ok(
        "simulate",
        "golems",
        "-p",
        "2",
        "-n",
        "300",
        "--bots",
        "greedy,collector",
        "--chunk-size",
        "100",
        "--out",
        str(out),
        "--workers",
        "1",
    ).output
    manifest = json.loads((out / "manifest.json").read_text())
    tallies = [c["tally"] for c in manifest["chunks"].values()]
    assert sum(t["games"] for t in tallies) == 300
    assert sum(sum(v[0] for v in t["bot"].values()) for t in tallies) == 600
    seats = pd.read_parquet(out / "seats")
    assert sum(t["seat"]["1"][1] for t in tallies) == pytest.approx(seats.loc[seats["seat"] == 1, "win"].sum())
    assert "win rate by bot:" in printed
    for chunk in manifest["chunks"].values():  # a run written before tallies were kept: counted from the parts
        del chunk["tally"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    from analysis.summary import summarize

    assert printed.rstrip("\n").endswith(summarize(out).split("\n", 2)[2])


def test_replay_text_and_json(small_run: Path) -> None:
    text = ok("replay", str(small_run), "--game", "7").output
    assert text.startswith("setup") and "game over (" in text and "turn 1 (round 1)" in text
    events = json.loads(ok("replay", str(small_run), "--game", "7", "--json").output)
    assert events[0]["event"] == "setup" and events[-1]["event"] == "result"
    moves = [e for e in events if e["event"] == "move"]
    games = pd.read_parquet(small_run / "games")
    row = games[games["game"] == 7].iloc[0]
    assert len(moves) == row["turns"]
    assert events[0]["setup_seed"] == row["setup_seed"]
    seats = pd.read_parquet(small_run / "seats")
    assert events[-1]["scores"] == seats[seats["game"] == 7].sort_values("seat")["score"].tolist()
    merchant_row = [c["card"] for c in events[0]["merchant_row"]]
    assert merchant_row == [row[f"setup_merchant_{k}"] for k in range(1, 7)]


def test_replay_positions_as_text_json_and_a_page(small_run: Path, tmp_path: Path) -> None:
    text = ok("replay", str(small_run), "--game", "7", "--state").output
    assert "\n    board: turn=" in text and "\n    seat 3: score=" in text
    events = json.loads(ok("replay", str(small_run), "--game", "7", "--json").output)
    assert events[0]["state_schema"] == "golem-lab.replay-state/1"
    assert all("state" in e for e in events)
    seats = pd.read_parquet(small_run / "seats")
    final = [s["score"] for s in events[-1]["state"]["seats"]]
    assert final == seats[seats["game"] == 7].sort_values("seat")["score"].tolist()
    page = tmp_path / "game-7.html"
    assert ok("replay", str(small_run), "--game", "7", "--html", str(page)).output == f"wrote {page}\n"
    html = page.read_text()
    embedded = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S)
    view = json.loads(embedded.group(1))
    pool = view["pool"]
    states = [
        {"seats": [pool[k] for k in st["state"]["seats"]], "board": pool[st["state"]["board"]]} for st in view["steps"]
    ]
    assert states == [e["state"] for e in events]  # every position the text replay prints, in the page
    assert view["final"]["scores"] == final and view["steps"][-1]["scores"] == final
    assert all(pool[a].get("cards") for st in view["steps"] for a in st["scene"]["board"][:2])  # the rows drawn
    assert {c for st in states for s in st["seats"] for c in s["hand"]} <= set(view["cards"])  # every card's text
    # self-contained: nothing fetched (the SVG namespace is a name, never fetched; the browser test checks requests)
    assert not re.search(r"(src|href)=|https?://", html.replace('"http://www.w3.org/2000/svg"', ""))
    page.write_text("<!DOCTYPE html>\n<p>an older page</p>")
    ok("replay", str(small_run), "--game", "7", "--html", str(page), "--overwrite")
    assert page.read_text() == html


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["--game", "300", "--html", "PAGE"], ["game 300 is not in this run"]),
        (["--game", "7", "--html", "NOWHERE/page.html"], ["does not exist"]),
        (["--game", "7", "--html", "MINE"], ["already exists", "--overwrite"]),
        (["--game", "7", "--html", "NOTES", "--overwrite"], ["is not an HTML page"]),
        (["--game", "7", "--html", "HERE"], ["is a directory"]),
        (["--game", "7", "--html", "PAGE", "--json"], ["--html"]),
        (["--game", "7", "--explain"], ["--explain", "--html"]),
    ],
)
def test_a_refused_replay_page_writes_nothing(small_run: Path, tmp_path: Path, args: list[str], needles: list[str]):
    mine, notes = tmp_path / "mine.html", tmp_path / "notes.html"
    mine.write_text("<!DOCTYPE html>\n<p>mine</p>")
    notes.write_text("my notes")
    names = {"PAGE": "page.html", "NOWHERE/page.html": "nowhere/page.html", "MINE": "mine.html", "HERE": "."}
    names["NOTES"] = "notes.html"
    args = [str(tmp_path / names[a]) if a in names else a for a in args]
    one_line_error(invoke("replay", str(small_run), *args), *needles)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.html", "notes.html"]
    assert mine.read_text() == "<!DOCTYPE html>\n<p>mine</p>" and notes.read_text() == "my notes"


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["simulate", "chess", "-p", "3", "--bots", "greedy", "--out", "X"], ["unknown game 'chess'", "century"]),
        (["simulate", "century", "-p", "3", "--bots", "greedyy", "--out", "X"], ["unknown century bot", "greedy"]),
        (["simulate", "century", "-p", "3", "--bots", "engine:buy_turn=3", "--out", "X"], ["buy_turns"]),
        (["simulate", "century", "-p", "3", "--bots", "engine:buy_turns=x", "--out", "X"], ["needs a number"]),
        (["simulate", "century", "-p", "6", "--bots", "greedy", "--out", "X"], ["2-5 players"]),
        (["simulate", "century", "-p", "1", "--bots", "greedy", "--out", "X"], ["2-5 players"]),
        (["simulate", "century", "-p", "3", "-n", "0", "--bots", "greedy", "--out", "X"], ["--games", "x>=1"]),
        (["simulate", "century", "-p", "3", "-n", "-5", "--bots", "greedy", "--out", "X"], ["--games", "x>=1"]),
        (["simulate", "century", "-p", "3", "--bots", "greedy,engine", "--out", "X"], ["2 bots for 3 players"]),
        (
            ["simulate", "century", "-p", "3", "--bots", "greedy", "--rule", "tie_break=coin", "--out", "X"],
            ["tie_break"],
        ),
        (
            ["simulate", "century", "-p", "3", "--bots", "greedy", "--rule", "speed=fast", "--out", "X"],
            ["unknown rule option 'speed'"],
        ),
        (["simulate", "century", "-p", "3", "--bots", "greedy", "--workers", "0", "--out", "X"], ["--workers"]),
        (["bots", "chess"], ["unknown game"]),
        (["replay", "nowhere", "--game", "1"], ["no such run directory"]),
    ],
)
def test_bad_input_is_a_one_line_error(tmp_path: Path, args: list[str], needles: list[str]) -> None:
    args = [str(tmp_path / a) if a == "X" else a for a in args]
    one_line_error(invoke(*args), *needles)
    assert not (tmp_path / "X").exists()


def test_existing_run_is_never_harmed(small_run: Path, tmp_path: Path) -> None:
    before = {p: p.read_bytes() for p in small_run.rglob("*") if p.is_file()}
    one_line_error(
        invoke("simulate", "century", "-p", "3", "-n", "50", "--bots", "greedy", "--out", str(small_run)),
        "already holds a run",
        "--overwrite",
    )
    one_line_error(
        invoke("simulate", "century", "-p", "4", "-n", "50", "--bots", "greedy", "--out", str(small_run), "--resume"),
        "not this one",
    )
    one_line_error(
        invoke(
            "simulate", "century", "-p", "9", "-n", "50", "--bots", "greedy", "--out", str(small_run), "--overwrite"
        ),
        "2-5 players",
    )
    assert {p: p.read_bytes() for p in small_run.rglob("*") if p.is_file()} == before
    other = tmp_path / "notes"
    other.mkdir()
    (other / "mine.txt").write_text("keep me")
    one_line_error(
        invoke("simulate", "century", "-p", "3", "-n", "50", "--bots", "greedy", "--out", str(other), "--overwrite"),
        "holds no run",
    )
    assert (other / "mine.txt").read_text() == "keep me"


def test_overwrite_replaces_a_run(tmp_path: Path) -> None:
    out = tmp_path / "r"
    ok("simulate", "century", "-p", "2", "-n", "60", "--bots", "greedy", "--out", str(out), "-q", "-w", "1")
    ok(
        "simulate",
        "century",
        "-p",
        "3",
        "-n",
        "90",
        "--bots",
        "random",
        "--out",
        str(out),
        "-q",
        "-w",
        "1",
        "--overwrite",
    )
    assert json.loads((out / "manifest.json").read_text())["num_players"] == 3
    assert len(pd.read_parquet(out / "games")) == 90


@pytest.mark.parametrize(
    ("file", "line_no", "column", "bad", "needles"),
    [
        ("merchant_cards.csv", 5, 3, "YYX", ["merchant_cards.csv", "line 5", "input", "'X'"]),
        ("merchant_cards.csv", 3, 2, "spell", ["merchant_cards.csv", "line 3", "kind", "spell"]),
        ("point_cards.csv", 10, 2, "many", ["point_cards.csv", "line 10", "vp", "not an integer"]),
        ("point_cards.csv", 4, 1, "", ["point_cards.csv", "line 4", "cost"]),
    ],
)
def test_malformed_card_table_names_file_line_and_column(
    tmp_path: Path, file: str, line_no: int, column: int, bad: str, needles: list[str]
) -> None:
    cards = tmp_path / "deck"
    shutil.copytree(default_dir("century"), cards)
    lines = (cards / file).read_text().splitlines()
    fields = lines[line_no - 1].split(",")
    fields[column] = bad
    lines[line_no - 1] = ",".join(fields)
    (cards / file).write_text("\n".join(lines) + "\n")
    result = invoke(
        "simulate",
        "century",
        "-p",
        "3",
        "-n",
        "10",
        "--bots",
        "greedy",
        "--cards",
        str(cards),
        "--out",
        str(tmp_path / "out"),
    )
    one_line_error(result, *needles)
    assert not (tmp_path / "out").exists()


def test_edited_deck_runs_and_is_recorded(tmp_path: Path) -> None:
    cards = tmp_path / "deck"
    shutil.copytree(default_dir("century"), cards)
    text = (cards / "point_cards.csv").read_text().replace("P36,YGTMMM,20", "P36,YGTMMM,30")
    (cards / "point_cards.csv").write_text(text)
    out = tmp_path / "r"
    ok(
        "simulate",
        "century",
        "-p",
        "3",
        "-n",
        "100",
        "--bots",
        "greedy",
        "--cards",
        str(cards),
        "--out",
        str(out),
        "-q",
        "-w",
        "1",
    )
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["data"]["default"] is False
    assert "P36,YGTMMM,30" in (out / "data" / "point_cards.csv").read_text()


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["games"], 0),
        (["simulate", "century", "-p", "9", "--bots", "greedy", "--out", "unused"], 1),
        (["simulate", "century", "--bots", "greedy"], 2),
    ],
)
def test_the_command_process_exits_with_the_commands_code_and_whole_output(args: list[str], code: int) -> None:
    """The `golem` process skips the interpreter's teardown: its exit code and output are still the command's."""
    in_process = CliRunner().invoke(main, args, prog_name="python -m simulate")
    done = subprocess.run([sys.executable, "-m", "simulate", *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == in_process.exit_code == code
    assert done.stdout + done.stderr == in_process.output


def test_check_prints_a_line_a_check_and_fails_with_every_failure(monkeypatch) -> None:
    from simulate import conformance

    result = invoke("check", "golems", "--only", "declarations", "--only", "tables", "--games", "1")
    assert result.exit_code == 0, result.output
    assert re.search(r"^declarations +ok", result.output, re.M) and "golems: conforms" in result.output
    game = make("golems")

    class Broken:
        info = dataclasses.replace(game.info, skill_ladder=("random", "no_such_bot"))

        def __getattr__(self, name):
            return getattr(game, name)

    monkeypatch.setattr(conformance, "make", lambda name: Broken())
    result = invoke("check", "golems", "--only", "declarations", "--only", "tables", "--games", "1")
    assert result.exit_code == 1
    assert re.search(r"^declarations +FAILED", result.output, re.M) and "no_such_bot" in result.output
    assert re.search(r"^tables +ok", result.output, re.M)
