"""A game from outside the lab plugs in with its own package and one registry line (docs/adding-a-game.md): the toy
game Pig (tests/toy_pig) passes the conformance check and plays a run the analysis layer reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.run import check_runs, read_tables
from simulate.conformance import CHECKS, check_game
from simulate.lineup import parse_lineup
from simulate.registry import available_games, make, register_game, unregister_game
from simulate.runner import RunSpec, run


@pytest.fixture
def pig():
    register_game("pig", "toy_pig.game", "Pig, the dice game (a toy game of the tests)")
    yield make("pig")
    unregister_game("pig")


def test_pig_conforms(pig) -> None:
    assert "pig" in available_games()
    # every check passes; Pig declares no planted card edits, so the adaptation check has nothing to compare
    assert check_game("pig", games=20) == tuple(c for c in CHECKS if c != "adaptation")


def test_pig_plays_a_run_the_analysis_reads(pig, tmp_path: Path) -> None:
    spec = RunSpec("pig", 3, 300, 7, parse_lineup(pig, ["hold", "hold:hold_at=10", "random"], 3), chunk_size=100)
    out = run(spec, tmp_path / "pig", workers=1, progress=False)
    seats = read_tables(check_runs([out]), "seats", ["game", "seat", "bot", "win", "score", "rolls"])
    assert len(seats) == 900 and seats.groupby("game")["win"].sum().round(9).eq(1).all()
    by_bot = seats.groupby("bot")["win"].mean()
    assert by_bot["random"] < by_bot["hold"], "banking at 20 beats banking at random"


def test_registering_is_checked(pig) -> None:
    with pytest.raises(ValueError, match="already registered"):
        register_game("pig", "elsewhere.game", "")
    with pytest.raises(ValueError, match="ships with the lab"):
        unregister_game("century")
