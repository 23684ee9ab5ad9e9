"""Setup variance three ways (opening, hidden order, players) and how often the opening alone decides the winner,
checked on synthetic nested designs whose components are known."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf

from analysis.stats.setups import deal_decides, opening_decides, setup_components
from analysis.stats.synthetic import nested_deal_winners, nested_margins

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


def test_with_no_setup_effect_the_players_share_interval_reaches_100_percent() -> None:
    """Coverage on synthetic studies with a planted answer: no opening or order effect, so the players' share is 100%
    and its 95% interval may exclude it (lie wholly below) in about 2.5% of studies. Clipping each component at 0
    before the shares excluded it in 14-19%; 7% over 300 studies leaves that far behind (a 14% rate passes it with a
    chance below 1e-5) and a true 2.5% passes with a chance above 0.9999."""
    rng = np.random.default_rng(SEED)
    excluded = []
    for _ in range(300):
        seats = nested_margins(40, 3, 3, (0.0, 0.0, 1.0), random_state=rng)
        row = setup_components(seats, outcomes=("margin",), n_resamples=199, random_state=rng).iloc[0]
        assert 0.0 <= row["share_players_low"] <= row["share_players"] <= 1.0
        assert row["share_players_low"] < row["share_players_high"], "never [1, 1] where the truth may lie below"
        excluded.append(row["share_players_high"] < 1.0)
    assert np.mean(excluded) < 0.07


def test_planted_shares_are_recovered_from_three_player_margins() -> None:
    seats = nested_margins(800, 3, 3, (1.0, 1.0, np.sqrt(2.0)), num_players=3, random_state=SEED)
    row = setup_components(seats, outcomes=("margin",)).query("seat == 1").iloc[0]
    for component, share in (("opening", 0.25), ("order", 0.25), ("players", 0.5)):
        assert row[f"share_{component}_low"] <= share <= row[f"share_{component}_high"], component


def test_the_shares_of_games_the_opening_and_the_order_fix_add_up_to_the_deals() -> None:
    """Planted: the opening fixes the winner of 30% of games, the hidden order of another 50%. The square root of
    kappa read these as 30% and "whole deal 58%"; the share of games fixed reads 30 + 50 = 80."""
    seats = nested_deal_winners(3000, 3, 4, opening_fixes=0.3, order_fixes=0.5, num_players=3, random_state=SEED)
    row = opening_decides(seats).iloc[0]
    for name, truth in (("decided", 0.3), ("order_decided", 0.5), ("deal_decided", 0.8)):
        assert row[f"{name}_low"] <= truth <= row[f"{name}_high"], name
        assert row[name] == pytest.approx(truth, abs=0.03), name
    assert row["decided"] + row["order_decided"] == pytest.approx(row["deal_decided"])
    deal = deal_decides(seats).iloc[0]
    assert deal["decided_low"] <= 0.8 <= deal["decided_high"]
    assert (row["num_openings"], row["orders"], row["plays"]) == (3000, 3.0, 12.0)
    with pytest.raises(ValueError, match="missing required column.*opening_id"):
        opening_decides(seats.drop(columns="opening_id"))


def test_a_deal_that_decides_nothing_reads_near_zero() -> None:
    """No deal fixes a winner: the share decided stays below 5% in every study (the square root of kappa printed 5%
    or more in a third of them) and its interval reaches 0 in about 97.5% of studies."""
    rng = np.random.default_rng(SEED)
    rows = pd.DataFrame([opening_decides(nested_deal_winners(500, 2, 4, random_state=rng)).iloc[0] for _ in range(200)])
    for name in ("decided", "order_decided", "deal_decided"):
        assert (rows[name] < 0.05).all(), name
        assert (rows[f"{name}_low"] == 0).mean() > 0.93, name
        assert (rows[f"{name}_high"] > rows[f"{name}_low"]).all(), f"{name}: an estimate below 0 is not [0, 0]"


def test_a_small_smooth_tilt_does_not_read_as_deciding_games() -> None:
    """Every hidden order tilts seat 1's chance by 0.9 pp either way and fixes no game: the deal decides about
    4 x 0.009^2 = 0.03% of games, which must not read as the square root's 1.8% or a noisy 11%."""
    seats = nested_deal_winners(3000, 2, 4, tilt=0.009, random_state=SEED)
    row = opening_decides(seats).iloc[0]
    assert row["deal_decided"] < 0.01 and row["deal_decided_high"] < 0.02
    assert deal_decides(seats).iloc[0]["decided"] < 0.01


def test_deterministic_replays_decide_everything_with_an_interval_that_still_covers() -> None:
    """Every play of a deal crowns the same seat: the share decided is 1, and its interval is the exact bound on the
    share of deals that would not (1 - 0.025^(1/k) over k deals), not [1, 1]."""
    seats = nested_deal_winners(60, 2, 3, order_fixes=1.0, random_state=SEED)
    deal = deal_decides(seats).iloc[0]
    assert deal["decided"] == 1.0 and deal["decided_high"] == 1.0
    assert deal["agreement_low"] == pytest.approx(0.025 ** (1 / 120)) and deal["decided_low"] < 1.0
