"""Setup variance three ways (opening, hidden order, players) and how often the opening alone decides the winner,
checked on synthetic nested designs whose components are known."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf

from analysis.stats.setups import deal_decides, opening_decides, setup_components

SEED = 26
SD_OPENING, SD_ORDER, SD_PLAYERS = 1.0, 0.7, 0.5


def _nested_margins(
    openings: int, orders: int, plays: int, sd: tuple[float, float, float], seed: int = SEED
) -> pd.DataFrame:
    """2-player seats whose seat-1 margin is opening + order + play effects (normal, SDs ``sd``); seat 2 scores 0."""
    rng = np.random.default_rng(seed)
    setups = openings * orders
    games = setups * plays
    game = np.arange(games)
    setup_id = game // plays
    opening_id = setup_id // orders
    y = (
        sd[0] * rng.standard_normal(openings)[opening_id]
        + sd[1] * rng.standard_normal(setups)[setup_id]
        + sd[2] * rng.standard_normal(games)
    )
    return pd.DataFrame(
        {
            "game": np.repeat(game, 2),
            "opening_id": np.repeat(opening_id, 2),
            "setup_id": np.repeat(setup_id, 2),
            "num_players": 2,
            "seat": np.tile([1, 2], games),
            "score": np.column_stack([y, np.zeros(games)]).ravel(),
            "win": np.column_stack([y > 0, y <= 0]).ravel().astype(float),
        }
    )


def test_known_components_are_recovered_within_their_intervals() -> None:
    seats = _nested_margins(1500, 3, 3, (SD_OPENING, SD_ORDER, SD_PLAYERS))
    row = setup_components(seats, outcomes=("margin",)).query("seat == 1").iloc[0]
    truth = {"opening": SD_OPENING**2, "order": SD_ORDER**2, "players": SD_PLAYERS**2}
    total = sum(truth.values())
    for c, v in truth.items():
        assert row[f"var_{c}_low"] <= v <= row[f"var_{c}_high"], c
        assert abs(row[f"var_{c}"] - v) < 0.1 * v, c
        assert row[f"share_{c}_low"] <= v / total <= row[f"share_{c}_high"], c
    assert (row["num_openings"], row["orders_per_opening"], row["plays_per_order"]) == (1500, 3, 3)
    assert row[["share_opening", "share_order", "share_players"]].sum() == pytest.approx(1.0)


def test_a_design_without_an_order_effect_puts_nothing_there() -> None:
    seats = _nested_margins(1500, 3, 3, (SD_OPENING, 0.0, SD_PLAYERS))
    row = setup_components(seats, outcomes=("margin",)).query("seat == 1").iloc[0]
    assert row["var_order_low"] <= 0.0 <= row["var_order_high"]
    assert row["var_opening_low"] > 0.5


def test_the_estimates_equal_reml_on_balanced_data() -> None:
    """For balanced data the ANOVA estimators equal REML's when none is negative (Searle et al. 1992, 4.7)."""
    seats = _nested_margins(40, 3, 4, (SD_OPENING, SD_ORDER, SD_PLAYERS), seed=3)
    row = setup_components(seats, outcomes=("margin",)).query("seat == 1").iloc[0]
    one = seats[seats["seat"] == 1].assign(y=lambda d: d["score"])
    fit = smf.mixedlm("y ~ 1", one, groups="opening_id", re_formula="1", vc_formula={"order": "0 + C(setup_id)"}).fit(
        reml=True
    )
    assert row["var_opening"] == pytest.approx(float(fit.cov_re.iloc[0, 0]), rel=1e-3)
    assert row["var_order"] == pytest.approx(float(fit.vcomp[0]), rel=1e-3)
    assert row["var_players"] == pytest.approx(float(fit.scale), rel=1e-3)


def test_deterministic_players_give_an_exact_zero() -> None:
    """Epsilon 0: every replay of a setup is the same game, so the players' component is 0 with interval [0, 0]."""
    seats = _nested_margins(200, 3, 4, (SD_OPENING, SD_ORDER, 0.0))
    out = setup_components(seats)
    assert out["replays_identical"].all()
    assert (out["var_players"] == 0).all() and (out["var_players_low"] == 0).all()
    assert (out["var_players_high"] == 0).all() and (out["share_players"] == 0).all()
    assert out[["var_opening", "var_order", "share_opening", "share_order"]].notna().all().all()


def test_a_partial_last_opening_is_left_out_and_bad_input_is_refused() -> None:
    seats = _nested_margins(50, 3, 2, (SD_OPENING, SD_ORDER, SD_PLAYERS))
    cut = seats[seats["game"] < seats["game"].max() - 3]  # the last opening loses plays
    assert setup_components(cut, outcomes=("margin",))["num_openings"].eq(49).all()
    with pytest.raises(ValueError, match="missing required column.*opening_id"):
        setup_components(seats.drop(columns="opening_id"))
    with pytest.raises(ValueError, match="n_resamples must be at least 1"):
        setup_components(seats, n_resamples=0)


def _winners(openings: int, orders: int, plays: int, rho: float, by: str, seed: int = SEED) -> pd.DataFrame:
    """3-player games whose winner is, with probability ``rho``, the one its opening (or its order) fixes, else
    uniform."""
    rng = np.random.default_rng(seed)
    games = openings * orders * plays
    game = np.arange(games)
    setup_id = game // plays
    opening_id = setup_id // orders
    unit = opening_id if by == "opening" else setup_id
    fixed = rng.integers(0, 3, unit.max() + 1)[unit]
    winner = np.where(rng.random(games) < rho, fixed, rng.integers(0, 3, games))
    return pd.DataFrame(
        {
            "game": np.repeat(game, 3),
            "opening_id": np.repeat(opening_id, 3),
            "setup_id": np.repeat(setup_id, 3),
            "num_players": 3,
            "seat": np.tile([1, 2, 3], games),
            "win": (np.repeat(winner, 3) == np.tile([0, 1, 2], games)).astype(float),
        }
    )


@pytest.mark.parametrize("by", ["opening", "order"])
def test_how_often_the_opening_alone_decides_the_winner(by: str) -> None:
    rho = 0.6
    seats = _winners(3000, 3, 4, rho, by)
    opening = opening_decides(seats).iloc[0]
    deal = deal_decides(seats).iloc[0]
    assert deal["decided_low"] <= rho <= deal["decided_high"]
    if by == "opening":  # the opening fixes it: no matter the hidden order
        assert opening["decided_low"] <= rho <= opening["decided_high"]
    else:  # the hidden order fixes it: two orders of an opening agree only by chance
        assert opening["decided"] < 0.15
    assert (opening["num_openings"], opening["orders"], opening["plays"]) == (3000, 3.0, 12.0)
    with pytest.raises(ValueError, match="missing required column.*opening_id"):
        opening_decides(seats.drop(columns="opening_id"))
