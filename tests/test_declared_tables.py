"""A game's declared tables kept as data in its folder: its bots (``bots.toml``, ``simulate.datafiles.read_bots``) and
its standard study (``study.toml``, ``simulate.gamekit.read_study``). A malformed file is one ``DataError`` naming
the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulate import datafiles
from simulate.datafiles import DataError, read_bots
from simulate.gamekit import read_study

KERNELS = ("random", "hold")

BOTS = """
whole = ["hold_at"]

[limits]
hold_at = [1.0, 100.0]
risk = [0.0, 1.0]

[help]
hold_at = "points to bank at"

[bots.random]
description = "banks half the time it may"

[bots.careful]
kernel = "hold"
description = "banks early"
[bots.careful.params]
risk = [0.25, "chance to roll once more"]
hold_at = 10
"""

STUDY = """
default_games = 1_000
ladder = [["random", 0.1]]
ladder_players = [2]

[[runs]]
name = "toy-2p"
num_players = 2
bots = ["careful"]
share = 0.5
purpose = "first-player advantage"

[[rule_runs]]
prefix = "toy-2p"
players = 2
bots = ["careful"]
share = 0.1
options = [["short", "target", "50"]]
"""


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A shipped-data folder holding the game ``toy`` alone."""
    monkeypatch.setattr(datafiles, "SEEDS_DIR", tmp_path)
    (tmp_path / "toy").mkdir()
    return tmp_path / "toy"


def test_bots_keep_their_order_kernel_and_shared_help(toy: Path) -> None:
    (toy / "bots.toml").write_text(BOTS)
    bots, limits, whole = read_bots("toy", KERNELS)
    assert bots == {
        "random": (0, "banks half the time it may", {}),
        "careful": (
            1,
            "banks early",
            {"risk": (0.25, "chance to roll once more"), "hold_at": (10, "points to bank at")},
        ),
    }
    assert list(bots["careful"][2]) == ["risk", "hold_at"]  # the kernel reads them by position
    assert limits == {"hold_at": (1.0, 100.0), "risk": (0.0, 1.0)}
    assert whole == frozenset({"hold_at"})


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (('kernel = "hold"', 'kernel = "fold"'), "bots.careful.kernel"),
        (('description = "banks early"', 'colour = "red"'), "bots.careful.colour"),
        (('description = "banks early"', ""), "bots.careful.description"),
        (('hold_at = "points to bank at"', ""), "bots.careful.params.hold_at"),
        (("risk = [0.25, ", "risk = [0.25, 0.5, "), "bots.careful.params.risk"),
        (("risk = [0.0, 1.0]", "risk = [1.0, 0.0]"), "limits.risk"),
    ],
)
def test_a_malformed_bot_table_names_the_file_and_the_key(toy: Path, change: tuple[str, str], key: str) -> None:
    (toy / "bots.toml").write_text(BOTS.replace(*change, 1))
    with pytest.raises(DataError, match=rf"bots\.toml: {key}"):
        read_bots("toy", KERNELS)


def test_a_study_lists_its_runs_then_its_rule_option_runs(toy: Path) -> None:
    (toy / "study.toml").write_text(STUDY)
    study = read_study("toy")
    assert study.game == "toy" and study.default_games == 1000
    assert [run.name for run in study.runs] == ["toy-2p", "toy-2p-short"]
    assert study.runs[1].rules == (("target", "50"),) and study.runs[1].bots == ("careful",)
    assert study.ladder == (("random", 0.1),)


def test_a_study_with_an_unknown_field_names_the_file(toy: Path) -> None:
    (toy / "study.toml").write_text(STUDY.replace('purpose = "first-player advantage"', "porpose = 1"))
    with pytest.raises(DataError, match=r"study\.toml: .*porpose"):
        read_study("toy")
