"""Golem poker behind the shared interface: runs, columns, replays, bench lineups and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simulate.bench import bench_setup
from simulate.cli import main
from simulate.games.golem_poker.columns import DEAL_COLUMNS, GAME_COLUMNS, SEAT_COLUMNS
from simulate.games.golem_poker.evaluator import CATEGORY_NAMES
from simulate.lineup import parse_lineup
from simulate.registry import make
from simulate.replay import replay_game
from simulate.runner import RunSpec, run

MASTER_SEED = 159
GAME = make("golem-poker")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    lineup = parse_lineup(GAME, ["equity:samples=16", "tight_aggressive", "bluffer", "random"], 4)
    spec = RunSpec("golem-poker", 4, 1200, MASTER_SEED, lineup, chunk_size=500, rules={"golem_short": "deck"})
    return run(spec, tmp_path_factory.mktemp("gp") / "run", workers=1, progress=False)


def test_run_tables_hold_the_documented_columns(run_dir: Path) -> None:
    games = pd.read_parquet(run_dir / "games")
    seats = pd.read_parquet(run_dir / "seats")
    assert len(games) == 1200 and len(seats) == 4800
    assert set(GAME.info.game_columns) | {"turns", "rounds", "end_reason", "winner_seat", "tied"} <= set(games.columns)
    assert {name for name, _ in SEAT_COLUMNS} <= set(seats.columns)
    assert len(GAME_COLUMNS) - 5 + len(DEAL_COLUMNS) == len(GAME.info.game_columns)
    # chips: the nets of a game sum to minus the house take; parts sum to the net
    nets = seats.groupby("game")["score"].sum()
    assert (nets.to_numpy() == -games.set_index("game")["house_take"].loc[nets.index].to_numpy()).all()
    parts = seats[list(GAME.info.score_parts)].sum(axis=1)
    assert (parts == seats["score"]).all()
    wins = seats.groupby("game")["win"].sum()
    assert np.allclose(wins, 1.0)
    assert set(games["end_reason"].astype(str)) <= {"showdown", "last_player", "turn_cap"}
    assert (games["golem_wins"] >= games["rounds"] - 1).all()
    # one list entry per showdown: every deal but the last ended in one the golem won
    assert (games["showdowns"] == games["golem_wins"] + (games["end_reason"] == "showdown")).all()
    assert (games["deal_golem_beaten"].map(len) == games["showdowns"]).all()
    assert (games["deal_golem_beaten"].map(lambda b: b[:-1].sum() == 0 if len(b) else True)).all()
    assert (games["deal_golem_beaten"].map(lambda b: b.sum()) == (games["end_reason"] == "showdown")).all()
    deals = games.explode(["deal_golem_beaten", "deal_hand_cat", "deal_golem_cat", "deal_golem_cards", "deal_players"])
    deals = deals[deals["deal_golem_cards"].notna()]
    assert len(deals) == games["showdowns"].sum() and deals["rounds"].max() >= 3
    assert (deals["deal_golem_cards"] >= 5).all(), "golem_short = deck fills every golem to five cards"
    assert deals["deal_players"].between(2, 4).all()
    assert set(deals["deal_hand_cat"]) <= set(CATEGORY_NAMES) and deals["deal_golem_cat"].notna().all()
    last = games[games["showdowns"] > 0]
    assert (last["deal_hand_cat"].map(lambda c: c[-1]) == last["final_hand_cat"].astype(str)).all()
    assert set(seats["out"].astype(str)) <= {"in", "first_round", "second_round", "cannot_pay"}
    assert seats["opening_strength"].between(0, 1).all()
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["rules"]["golem_short"] == "deck" and manifest["rules"]["house_cut_pct"] == 5.0


def test_replay_matches_the_logged_game(run_dir: Path) -> None:
    games = pd.read_parquet(run_dir / "games").set_index("game")
    seats = pd.read_parquet(run_dir / "seats")
    long = int(games.index[games["rounds"] >= 2][0])
    game, events = replay_game(run_dir, long)
    result = events[-1]
    assert result["event"] == "result" and result["deals"] == games.loc[long, "rounds"]
    assert result["scores"] == seats[seats["game"] == long].sort_values("seat")["score"].tolist()
    assert sum(e["event"] == "showdown" for e in events) == games.loc[long, "golem_wins"] + (
        games.loc[long, "end_reason"] == "showdown"
    )
    assert sum(e["event"] == "move" for e in events) == games.loc[long, "turns"]
    text = "\n".join(game.format_event(e) for e in events)
    assert "does not beat the golem" in text and "pot won" in text
    json.dumps(events)


def test_bench_lineups_are_declared() -> None:
    players, lineups = bench_setup(GAME)
    assert players == 4
    for bots in lineups:
        parse_lineup(GAME, bots.split(","), players)


def test_cli_lists_and_runs(tmp_path: Path) -> None:
    cli = CliRunner()
    result = cli.invoke(main, ["bots", "golem-poker"])
    assert result.exit_code == 0, result.output
    assert "equity" in result.output and "bluff" in result.output
    result = cli.invoke(main, ["games"])
    assert result.exit_code == 0 and "rule golem_short=partial" in result.output
    out = tmp_path / "r"
    args = [
        "simulate",
        "golem-poker",
        "-p",
        "3",
        "-n",
        "300",
        "--bots",
        "tight_passive,loose_aggressive,random",
        "--rule",
        "rank_one=high",
        "--rule",
        "player_tie=amulet",
        "--out",
        str(out),
        "-w",
        "1",
        "-q",
    ]
    result = cli.invoke(main, args)
    assert result.exit_code == 0, result.output
    result = cli.invoke(main, ["replay", str(out), "--game", "3"])
    assert result.exit_code == 0 and "pot won" in result.output, result.output
    bad = cli.invoke(main, [*args[:-4], "--rule", "golem_tie=never", "--out", str(tmp_path / "bad"), "-q"])
    assert bad.exit_code != 0 and "golem_tie" in bad.output
