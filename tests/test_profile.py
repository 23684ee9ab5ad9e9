"""The play profile: per bot and mechanism, counts per game and the share of games using it, on known data."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analysis.stats.profile import play_profile, profile_warnings
from simulate.lineup import parse_bot
from simulate.registry import available_games, make

SEED = 20261201


def _seats() -> pd.DataFrame:
    """Two bots over 1,000 seat-games each: ``a`` buys Poisson(2) cards and never rests, ``b`` rests in 0.5%."""
    rng = np.random.default_rng(SEED)
    n = 1000
    bought = np.concatenate([rng.poisson(2.0, n), rng.poisson(2.0, n)])
    rests = np.concatenate([np.zeros(n, np.int64), (np.arange(n) % 200 == 0).astype(np.int64) * 3])
    bots = pd.Categorical(["a"] * n + ["b"] * n)
    return pd.DataFrame({"bot": bots, "bought": bought.astype(np.int16), "rests": rests.astype(np.int16)})


def test_profile_counts_means_shares_and_usage() -> None:
    seats = _seats()
    out = play_profile(seats, ["bought", "rests"]).set_index(["bot", "mechanism"])
    a_bought = seats.loc[seats["bot"] == "a", "bought"]
    assert out.loc[("a", "bought"), "mean"] == pytest.approx(a_bought.mean())
    assert out.loc[("a", "bought"), "share_used"] == pytest.approx((a_bought > 0).mean())
    assert out.loc[("a", "bought"), "seat_games"] == 1000
    assert out.loc[("a", "rests"), "usage"] == "never"
    assert out.loc[("b", "rests"), "share_used"] == pytest.approx(0.005)
    assert out.loc[("b", "rests"), "mean"] == pytest.approx(0.015)
    assert out.loc[("b", "rests"), "usage"] == "almost never"
    assert out.loc[("b", "bought"), "usage"] == "used"
    # a looser threshold changes the verdict, never the counts
    loose = play_profile(seats, ["bought", "rests"], rare=0.001).set_index(["bot", "mechanism"])
    assert loose.loc[("b", "rests"), "usage"] == "used"


def test_warnings_name_each_bot_and_mechanism() -> None:
    warnings = profile_warnings(play_profile(_seats(), ["bought", "rests"]))
    assert len(warnings) == 2
    assert warnings[0].startswith("Bot a never uses rests")
    assert warnings[1].startswith("Bot b almost never") and "rests (0.50% of its games)" in warnings[1]
    assert profile_warnings(play_profile(_seats(), ["bought"])) == []


def test_counts_of_forced_moves_are_never_flagged() -> None:
    """A pass when no move is legal, or crystals discarded over the limit, is not a mechanism a good bot uses."""
    profile = play_profile(_seats(), ["bought", "rests"])
    assert profile_warnings(profile, forced=["rests"]) == []
    assert len(profile_warnings(profile, forced=["bought"])) == 2


def test_games_name_their_forced_counts_among_their_profile_columns() -> None:
    from simulate.registry import available_games, make

    for name in available_games():
        game = make(name)
        assert set(game.info.profile_forced) <= set(game.info.profile_columns), name
    assert make("golems").info.profile_forced == ("passes",)
    assert make("century").info.profile_forced == ("crystals_discarded",)


def test_missing_columns_are_named() -> None:
    with pytest.raises(ValueError, match="claims"):
        play_profile(_seats(), ["bought", "claims"])


@pytest.mark.parametrize("name", available_games())
def test_every_game_declares_a_profile_of_its_seat_columns_and_a_ladder_of_its_bots(name: str) -> None:
    game = make(name)
    assert game.info.profile_columns and set(game.info.profile_columns) <= set(game.info.seat_columns)
    assert len(game.info.skill_ladder) >= 2 and len(set(game.info.skill_ladder)) == len(game.info.skill_ladder)
    rungs = [parse_bot(game, rung) for rung in game.info.skill_ladder]  # a bot, or a bot with a budget
    assert [r.label for r in rungs] == list(game.info.skill_ladder), "rungs are written as the runs label them"
    assert game.info.skill_ladder[0] == "random"
