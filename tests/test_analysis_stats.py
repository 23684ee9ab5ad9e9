"""Tests of the analysis statistics and plots on synthetic runs whose truth is known.

Repetition tests check error rates against binomial bounds: with R independent repetitions and
a nominal rate of 5%, the count of rejections must fall inside the central 99.8% of
Binomial(R, 0.05), so a correct method fails such a check about once in 500 runs. Seeds are
fixed, so the suite is deterministic.
"""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from scipy import stats  # noqa: E402

from analysis import plots  # noqa: E402
from analysis.stats._util import interval_digits  # noqa: E402
from analysis.stats.components import ASSOCIATION_NOTE, component_strength  # noqa: E402
from analysis.stats.convergence import MAX_PLANNABLE_GAMES, convergence, games_needed, more_games_text  # noqa: E402
from analysis.stats.outcomes import end_reasons, game_lengths, score_summary  # noqa: E402
from analysis.stats.seats import add_margins, seat_advantage, seat_balance, seat_wald_test, win_rates  # noqa: E402
from analysis.stats.setups import deal_decides, setup_balance, setup_feature_effects, setup_variance  # noqa: E402
from analysis.stats.strategies import ELO_SCALE, bradley_terry, head_to_head, score_ratings  # noqa: E402
from analysis.stats.synthetic import synthetic_run  # noqa: E402

SEED = 20261130
NULL_SEED = 7_000
COVERAGE_SEED = 9_000
REPS = 200
QUICK_RESAMPLES = 400

GAMES_COLUMNS = [
    "game",
    "setup_id",
    "setup_seed",
    "play_seed",
    "num_players",
    "rotation",
    "turns",
    "rounds",
    "end_reason",
    "winner_seat",
    "tied",
]
SEATS_COLUMNS = ["game", "setup_id", "num_players", "seat", "bot", "score", "rank", "win"]
COMPONENTS_COLUMNS = ["game", "seat", "component", "kind", "turn", "round"]


def binomial_band(reps: int, rate: float = 0.05) -> tuple[float, float]:
    low, high = stats.binom.ppf([0.001, 0.999], reps, rate)
    return float(low), float(high)


@pytest.fixture(autouse=True)
def clean_plots():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def advantage_run():
    return synthetic_run(20_000, 3, seat_advantage=[3.0, 0.0, 0.0], random_state=SEED)


@pytest.fixture(scope="module")
def rich_run():
    """Mixed bots, replayed setups, a turn cap and planted component effects: one of everything."""
    return synthetic_run(
        6_000,
        3,
        lineup=["greedy", "random", "engine"],
        bot_strength={"greedy": 3.0, "engine": 1.0},
        games_per_setup=6,
        setup_sd=3.0,
        component_effects={"M09": 4.0},
        turn_cap_rate=0.02,
        random_state=SEED,
    )


# --- synthetic tables -------------------------------------------------------------------------


def test_synthetic_tables_have_the_run_format_columns_and_dtypes(rich_run):
    games, seats, components = rich_run.games, rich_run.seats, rich_run.components
    setup_cols = [f"setup_merchant_{i}" for i in range(1, 7)] + [f"setup_point_{i}" for i in range(1, 6)]
    assert list(games.columns) == GAMES_COLUMNS + setup_cols
    assert list(seats.columns[: len(SEATS_COLUMNS)]) == SEATS_COLUMNS
    assert [c for c in seats.columns if c.startswith("score_")] == [
        "score_points",
        "score_copper",
        "score_silver",
        "score_crystals",
    ]
    assert list(components.columns) == COMPONENTS_COLUMNS
    assert games["num_players"].dtype == np.int8 and seats["win"].dtype == np.float32
    assert games["setup_seed"].dtype == np.uint64 and seats["score"].dtype == np.int32
    parts = seats[["score_points", "score_copper", "score_silver", "score_crystals"]].sum(axis=1)
    assert (parts == seats["score"]).all()
    assert set(games["end_reason"]) == {"trigger", "turn_cap"}
    # seat s plays lineup[(s - 1 + rotation) % n]
    lineup = ["greedy", "random", "engine"]
    merged = seats.merge(games[["game", "rotation"]], on="game")
    expected = [lineup[(s - 1 + r) % 3] for s, r in zip(merged["seat"], merged["rotation"], strict=True)]
    assert (merged["bot"].to_numpy() == np.array(expected)).all()


# --- win rates and ties -----------------------------------------------------------------------


def test_shared_ties_are_fractional_wins_summing_to_one_per_game():
    run = synthetic_run(3_000, 4, score_sd=1.5, tie_break="shared", random_state=SEED)
    seats, games = run.seats, run.games
    per_game = seats.groupby("game")["win"].sum()
    np.testing.assert_allclose(per_game.to_numpy(), 1.0, atol=1e-6)
    assert games["tied"].mean() > 0.2  # the small spread forces many ties
    tied = seats[seats["game"].isin(games.loc[games["tied"], "game"]) & (seats["rank"] == 1)]
    k = tied.groupby("game")["win"].transform("size")
    np.testing.assert_allclose(tied["win"].to_numpy(), 1.0 / k.to_numpy(), rtol=1e-6)
    assert (games.loc[games["tied"], "winner_seat"] == -1).all()
    rates = win_rates(seats)
    assert rates["wins"].sum() == pytest.approx(len(games), rel=1e-6)
    assert rates["num_games"].eq(len(games)).all()


def test_solo_games_have_no_fair_share():
    seats = pd.DataFrame(
        {
            "num_players": [1, 1, 1, 2, 2, 2, 2],
            "seat": [1, 1, 1, 1, 2, 1, 2],
            "win": np.array([1, 0, 1, 1, 0, 0.5, 0.5], dtype=np.float32),
        }
    )
    rates = win_rates(seats).set_index(["num_players", "seat"])
    assert rates.loc[(1, 1), "win_rate"] == pytest.approx(2 / 3)
    assert np.isnan(rates.loc[(1, 1), "fair"]) and np.isnan(rates.loc[(1, 1), "excess"])
    assert rates.loc[(2, 1), "fair"] == 0.5 and rates.loc[(2, 1), "excess"] == pytest.approx(0.25)
    plots.plot_seat_win_rates(rates.reset_index())  # draws no fair line for the solo games


def test_later_seat_tie_break_gives_whole_wins_to_the_later_seat():
    run = synthetic_run(3_000, 3, score_sd=1.5, tie_break="later_seat", random_state=SEED)
    seats = run.seats
    assert set(np.unique(seats["win"])) == {0.0, 1.0}
    top = seats.groupby("game")["score"].transform("max") == seats["score"]
    latest_top = seats[top].groupby("game")["seat"].max()
    winner = seats[seats["win"] == 1].set_index("game")["seat"]
    assert (winner.loc[latest_top.index] == latest_top).all()
    assert seats.groupby("game")["rank"].nunique().eq(3).all()


def test_win_rates_on_a_hand_made_table():
    # game 0: seats 1 and 2 share the win; game 1: seat 3 wins.
    seats = pd.DataFrame(
        {
            "game": [0, 0, 0, 1, 1, 1],
            "num_players": [3] * 6,
            "seat": [1, 2, 3, 1, 2, 3],
            "bot": ["a", "b", "a", "a", "b", "a"],
            "win": np.array([0.5, 0.5, 0, 0, 0, 1], dtype=np.float32),
        }
    )
    by_seat = win_rates(seats).set_index("seat")
    np.testing.assert_allclose(by_seat["wins"], [0.5, 0.5, 1.0])
    np.testing.assert_allclose(by_seat["win_rate"], [0.25, 0.25, 0.5])
    assert (by_seat["ci_low"] <= by_seat["win_rate"]).all() and (by_seat["win_rate"] <= by_seat["ci_high"]).all()
    by_bot = win_rates(seats, "bot").set_index("bot")
    assert by_bot.loc["a", "num_games"] == 4 and by_bot.loc["a", "wins"] == pytest.approx(1.5)
    both = win_rates(seats, ["bot", "seat"])
    assert len(both) == 3 and both["wins"].sum() == pytest.approx(2.0)


# --- seat advantage ---------------------------------------------------------------------------


def test_planted_three_point_seat_advantage_is_found_and_covered(advantage_run):
    table, tests, verdict = seat_advantage(advantage_run.seats)
    first = table.set_index("seat").loc[1]
    truth = advantage_run.truth["seat_margin"][0]
    assert truth == pytest.approx(3.0)
    assert first.margin_low < truth < first.margin_high
    assert first.margin_low > 0 and first.ci_low > 1 / 3
    assert bool(tests["significant"].iloc[0]) and tests["pvalue"].iloc[0] < 1e-6
    assert verdict.startswith("seat 1 wins ") and "of 3-player games against a fair 33.3%" in verdict
    assert "not balanced" in verdict
    np.testing.assert_allclose(table["margin"].sum(), 0.0, atol=1e-9)  # margins cancel over seats


def test_seat_margin_bootstrap_interval_covers_the_truth_at_its_nominal_rate():
    covered = 0
    reps = 120
    for rep in range(reps):
        run = synthetic_run(300, 3, seat_advantage=[3.0, 0.0, 0.0], random_state=COVERAGE_SEED + rep)
        first = seat_advantage(run.seats, num_resamples=QUICK_RESAMPLES, random_state=rep).table.iloc[0]
        covered += first.margin_low <= 3.0 <= first.margin_high
    low, high = binomial_band(reps, 0.05)
    assert low <= reps - covered <= high


def test_fair_game_flags_an_advantage_in_about_five_percent_of_repetitions():
    flagged = excluded = 0
    for rep in range(REPS):
        run = synthetic_run(200, 3, random_state=NULL_SEED + rep)
        table, tests, verdict = seat_advantage(run.seats, num_resamples=QUICK_RESAMPLES, random_state=rep)
        flagged += bool(tests["significant"].iloc[0])
        first = table.iloc[0]
        excluded += (first.margin_low > 0) or (first.margin_high < 0)
        assert ("no seat advantage detected" in verdict) != bool(tests["significant"].iloc[0])
    low, high = binomial_band(REPS)
    assert low <= flagged <= high, flagged
    assert low <= excluded <= high, excluded


@pytest.mark.parametrize("num_players", [2, 3])
def test_seat_test_keeps_its_size_when_many_ties_are_shared(num_players):
    """Fair games with many shared wins (43% of 2-player games, 53% of 3-player ones): the Wald
    test on the per-game win vectors rejects in about 5% of repetitions (Pearson's chi-square on
    the fractional win counts: 0.3-0.7%, measured over 400 repetitions)."""
    reps, flagged, tied = 2 * REPS, 0, 0.0
    for rep in range(reps):
        run = synthetic_run(300, num_players, score_sd=0.6, tie_break="shared", random_state=NULL_SEED + 500 + rep)
        tied += run.games["tied"].mean() / reps
        tests = seat_advantage(run.seats, num_resamples=10, random_state=rep).tests
        flagged += bool(tests["significant"].iloc[0])
    assert tied > 0.25
    low, high = binomial_band(reps)
    assert low <= flagged <= high, flagged


def test_seat_wald_test_edge_cases():
    game, seat = np.repeat(np.arange(50), 2), np.tile([1, 2], 50)
    always_first = np.tile([1.0, 0.0], 50)
    assert seat_wald_test(game, seat, always_first, 2)[2] == 0.0  # never varies, far from 1/2
    all_tied = np.full(100, 0.5)
    assert seat_wald_test(game, seat, all_tied, 2)[2] == 1.0
    shuffled = np.random.default_rng(SEED).permutation(100)
    wins = np.random.default_rng(SEED).integers(0, 2, 50).repeat(2).astype(float)
    wins[1::2] = 1 - wins[1::2]
    assert seat_wald_test(game[shuffled], seat[shuffled], wins[shuffled], 2) == seat_wald_test(game, seat, wins, 2)
    assert np.isnan(seat_wald_test(game[:-1], seat[:-1], wins[:-1], 2)[2])  # an incomplete game


def test_mixed_bots_need_rotation_to_read_seat_effects(rich_run):
    rotated = seat_advantage(rich_run.seats, lineup="all", num_resamples=QUICK_RESAMPLES)
    assert bool(rotated.tests["balanced"].iloc[0])
    assert "caution" not in rotated.verdict
    fixed = synthetic_run(
        3_000,
        3,
        lineup=["greedy", "random", "random"],
        bot_strength={"greedy": 5.0},
        rotate_seats=False,
        random_state=SEED,
    )
    confounded = seat_advantage(fixed.seats, lineup="all", num_resamples=QUICK_RESAMPLES)
    assert not bool(confounded.tests["balanced"].iloc[0])
    assert "confounded" in confounded.verdict
    assert seat_balance(fixed.seats).set_index("bot").loc["greedy", "imbalance"] == pytest.approx(3.0)
    mirror = seat_advantage(rich_run.seats)  # no mirror matches in a mixed lineup
    assert mirror.table.empty and "no games" in mirror.verdict


def test_player_counts_are_kept_apart():
    three = synthetic_run(2_000, 3, seat_advantage=[2.0, 0, 0], random_state=SEED)
    four = synthetic_run(2_000, 4, random_state=SEED + 1)
    seats = pd.concat([three.seats, four.seats.assign(game=four.seats["game"] + 2_000)], ignore_index=True)
    table, tests, verdict = seat_advantage(seats, num_resamples=QUICK_RESAMPLES)
    assert list(tests["num_players"]) == [3, 4]
    assert table.groupby("num_players")["seat"].count().to_dict() == {3: 3, 4: 4}
    np.testing.assert_allclose(table.loc[table["num_players"] == 4, "fair"], 0.25)
    assert "3-player" in verdict and "4-player" in verdict


# --- setups -----------------------------------------------------------------------------------


def test_planted_setup_icc_is_recovered_within_its_interval():
    run = synthetic_run(4_000, 3, games_per_setup=10, setup_sd=4.0, score_sd=8.0, random_state=SEED)
    result = setup_variance(run.seats)
    row = result[(result["seat"] == 1) & (result["outcome"] == "margin")].iloc[0]
    truth = run.truth["setup_icc"]
    assert truth == pytest.approx(0.2)
    assert row.icc_low < truth < row.icc_high
    assert row.num_setups == 400 and row.games_per_setup == pytest.approx(10)
    assert row.pvalue < 1e-10
    wins = result[result["outcome"] == "win"]
    assert (wins["icc"] > 0).all()  # the setup moves who wins too, less sharply


def test_icc_interval_covers_the_truth_at_its_nominal_rate():
    reps = 120
    missed = 0
    for rep in range(reps):
        run = synthetic_run(600, 3, games_per_setup=6, setup_sd=4.0, random_state=COVERAGE_SEED + rep)
        row = setup_variance(run.seats, outcomes=["margin"]).iloc[0]
        missed += not (row.icc_low <= run.truth["setup_icc"] <= row.icc_high)
    low, high = binomial_band(reps)
    assert low <= missed <= high, missed


def test_icc_is_undefined_without_replays(advantage_run):
    result = setup_variance(advantage_run.seats, outcomes=["margin"])
    assert result["icc"].isna().all() and (result["df_within"] == 0).all()


def test_setup_balance_ranks_setups_by_their_planted_effect():
    run = synthetic_run(4_000, 3, games_per_setup=8, setup_sd=4.0, random_state=SEED)
    balance = setup_balance(run.seats, seat=1)
    effects = run.truth["setup_effects"].pivot(index="setup_id", columns="seat", values="effect")
    truth = effects[1] - (effects[2] + effects[3]) / 2  # planted shift of the seat-1 margin
    merged = balance.set_index("setup_id").join(truth.rename("truth"))
    assert merged["shrunk"].corr(merged["truth"]) > 0.7
    assert balance["rank"].tolist() == list(range(1, len(balance) + 1))
    assert (balance["shrunk"].diff().dropna() <= 0).all()
    # Shrinkage pulls toward the overall mean: never further out than the raw mean.
    centre = balance["advantage"].mean()
    assert ((balance["shrunk"] - centre).abs() <= (balance["advantage"] - centre).abs() + 1e-9).all()


def test_planted_setup_feature_is_found_with_an_interval_covering_it():
    run = synthetic_run(4_000, 3, feature_effects={"setup_point=P07": 4.0}, random_state=SEED)
    result = setup_feature_effects(run.seats, run.games)
    top = result.iloc[0]
    assert top.feature == "setup_point=P07" and bool(top.significant)
    assert top.ci_low < 4.0 < top.ci_high
    assert result["significant"].sum() == 1
    assert len(result) == 43 + 36
    assert set(result["column"]) == {"setup_merchant", "setup_point"}


def test_a_descriptor_listing_a_set_of_items_gives_one_feature_per_item():
    """Golem records a district's seven tiles in one column ("1 2 3 4 7 9 10"): each tile is a feature of its own,
    never the whole combination (which recurs in too few setups to say anything)."""
    run = synthetic_run(4_000, 3, feature_effects={"setup_point=P07": 4.0}, random_state=SEED)
    points = [c for c in run.games.columns if c.startswith("setup_point_")]
    games = run.games.drop(columns=points)
    games["setup_display"] = run.games[points].astype(str).agg(" ".join, axis=1)
    assert games.drop_duplicates("setup_id")["setup_display"].nunique() > 3_000  # combinations hardly recur
    result = setup_feature_effects(run.seats, games)
    display = result[result["column"] == "setup_display"]
    assert not display["value"].astype(str).str.contains(" ").any()
    assert len(display) == 36  # one feature per point card, as with one column per position
    top = result.iloc[0]
    assert top.feature == "setup_display=P07" and bool(top.significant)
    assert top.ci_low < 4.0 < top.ci_high
    assert result["significant"].sum() == 1


@pytest.mark.parametrize("correction", ["holm", "fdr_bh"])
def test_multiple_comparison_correction_controls_false_positives_on_null_features(correction):
    reps = 100
    any_false = raw_false = 0
    for rep in range(reps):
        run = synthetic_run(600, 3, random_state=NULL_SEED + rep)
        result = setup_feature_effects(run.seats, run.games, correction=correction)
        any_false += bool(result["significant"].any())
        raw_false += bool((result["pvalue"] < 0.05).any())
    _, high = binomial_band(reps)
    assert any_false <= high, any_false  # family-wise (= FDR under the global null) at 5%
    assert raw_false > 0.9 * reps  # without correction nearly every repetition has a false hit


def test_feature_effects_use_one_value_per_setup_not_per_replay():
    run = synthetic_run(3_000, 3, games_per_setup=5, random_state=SEED)
    result = setup_feature_effects(run.seats, run.games)
    assert (result["num_setups_with"] + result["num_setups_without"] == 600).all()


# --- strategies -------------------------------------------------------------------------------


def test_bradley_terry_recovers_the_planted_strength_order():
    strength = {"planner": 4.0, "engine": 2.0, "greedy": 0.0, "random": -3.0}
    run = synthetic_run(4_000, 4, lineup=list(strength), bot_strength=strength, random_state=SEED)
    h2h = head_to_head(run.seats)
    ratings = bradley_terry(h2h)
    assert ratings["bot"].tolist() == list(strength)
    assert ratings["rating"].sum() == pytest.approx(0.0, abs=1e-9)
    assert (ratings["ci_low"] < ratings["rating"]).all() and (ratings["rating"] < ratings["ci_high"]).all()
    np.testing.assert_allclose(ratings["elo"] - 1500, ELO_SCALE * ratings["rating"])
    paired = h2h.merge(h2h, left_on=["bot", "opponent"], right_on=["opponent", "bot"])
    np.testing.assert_allclose(paired["win_rate_x"] + paired["win_rate_y"], 1.0)
    assert (h2h["num_games"] == 4_000).all() and (h2h["num_comparisons"] == 4_000).all()


def test_head_to_head_counts_seat_pairs_and_halves_ties():
    seats = pd.DataFrame(
        {
            "game": [0, 0, 0, 1, 1, 1],
            "seat": [1, 2, 3, 1, 2, 3],
            "bot": ["a", "a", "b", "b", "a", "a"],
            "rank": [1, 3, 2, 1, 1, 3],  # game 1: b and one a share first place
        }
    )
    h2h = head_to_head(seats).set_index(["bot", "opponent"])
    assert h2h.loc[("a", "b"), "num_comparisons"] == 4 and h2h.loc[("a", "b"), "num_games"] == 2
    # game 0: a(1) beats b(2), a(3) loses; game 1: a(1) ties b(1), a(3) loses -> 1.5 of 4
    assert h2h.loc[("a", "b"), "wins"] == pytest.approx(1.5)
    assert h2h.loc[("b", "a"), "wins"] == pytest.approx(2.5)


def _plackett_luce_seats(num_games: int, lineup: list[str], strength: dict[str, float], rng) -> pd.DataFrame:
    """Games ranked by strength + Gumbel noise (a Plackett-Luce model), lineup rotated over the
    seats; every pair's chance to finish above the other is exactly Bradley-Terry's."""
    n = len(lineup)
    rotation = np.arange(num_games) % n
    bot = np.asarray(lineup, dtype=object)[(np.arange(n)[None, :] + rotation[:, None]) % n]
    utility = np.vectorize(strength.get)(bot) + rng.gumbel(size=(num_games, n))
    rank = (utility[:, :, None] < utility[:, None, :]).sum(axis=2) + 1
    return pd.DataFrame(
        {
            "game": np.repeat(np.arange(num_games), n),
            "seat": np.tile(np.arange(1, n + 1), num_games),
            "bot": bot.ravel().astype(str),
            "rank": rank.ravel(),
        }
    )


def test_multi_player_ratings_cover_the_planted_plackett_luce_strengths():
    """4-player games with four bots: the game-clustered (sandwich) rating intervals cover the
    planted strengths at the nominal rate (model-based ones, treating the 6 seat pairs of a game
    as independent, cover 88%)."""
    strength = {"a": 0.0, "b": 0.4, "c": 0.8, "d": 1.2}
    truth = {k: v - np.mean(list(strength.values())) for k, v in strength.items()}
    rng = np.random.default_rng(COVERAGE_SEED + 4)
    reps, misses = 2 * REPS, 0
    for _ in range(reps):
        seats = _plackett_luce_seats(300, list(strength), strength, rng)
        ratings = bradley_terry(head_to_head(seats), seats=seats).set_index("bot")
        misses += not (ratings.loc["d", "ci_low"] <= truth["d"] <= ratings.loc["d", "ci_high"])
    low, high = binomial_band(reps)
    assert low <= misses <= high, misses


def test_head_to_head_interval_covers_the_truth_when_a_bot_holds_several_seats():
    """An A,A,B,B lineup gives four A-B comparisons per game: the game-clustered interval covers
    the planted P(A above B) at the nominal rate (Wilson on the comparisons covers about 87%)."""
    strength = {"A": 0.5, "B": 0.0}
    truth = 1 / (1 + np.exp(-0.5))
    rng = np.random.default_rng(COVERAGE_SEED + 5)
    reps, misses = 2 * REPS, 0
    for _ in range(reps):
        seats = _plackett_luce_seats(200, ["A", "A", "B", "B"], strength, rng)
        row = head_to_head(seats).set_index(["bot", "opponent"]).loc[("A", "B")]
        assert row["num_comparisons"] == 4 * 200
        misses += not (row["ci_low"] <= truth <= row["ci_high"])
    low, high = binomial_band(reps)
    assert low <= misses <= high, misses


def test_bradley_terry_rejects_a_disconnected_comparison_graph():
    h2h = pd.DataFrame(
        {
            "bot": ["a", "b", "c", "d"],
            "opponent": ["b", "a", "d", "c"],
            "num_comparisons": [10] * 4,
            "wins": [6, 4, 5, 5],
        }
    )
    with pytest.raises(ValueError, match="connected"):
        bradley_terry(h2h)


# --- components -------------------------------------------------------------------------------


def test_planted_component_effect_is_found_and_flagged_as_association(rich_run):
    result = component_strength(rich_run.seats, rich_run.components, rich_run.games)
    assert result.attrs["note"] == ASSOCIATION_NOTE
    assert set(result["phase"]) == {"any", "early", "mid", "late"}
    any_phase = result[result["phase"] == "any"].set_index("component")
    assert any_phase.loc["M09", "significant"]
    # margins: the acquirer gains 4 points over the mean of the others, and each of its two
    # opponents, who sit in the baseline, loses 4/2 against the mean of theirs
    games_with = rich_run.components.loc[rich_run.components["component"] == "M09", "game"].nunique()
    truth = 4.0 + 2.0 * (2 * games_with) / any_phase.loc["M09", "num_not"]
    assert any_phase.loc["M09", "margin_diff_low"] < truth < any_phase.loc["M09", "margin_diff_high"]
    assert any_phase["significant"].sum() == 1
    excludes = (result["win_diff_low"] > 0) | (result["win_diff_high"] < 0)
    assert (excludes == result["significant"]).all()  # Holm and its intervals agree
    by_phase = result[result["component"] == "M09"].set_index("phase")["num_acquired"]
    assert by_phase["early"] + by_phase["mid"] + by_phase["late"] == by_phase["any"]


def test_component_null_effects_keep_nominal_error_rates():
    reps = 30
    unadjusted = []
    family_hits = 0
    for rep in range(reps):
        run = synthetic_run(1_500, 2, acquire_rate=0.4, random_state=NULL_SEED + rep)
        result = component_strength(run.seats, run.components, correction="holm")
        unadjusted.append((result["pvalue"] < 0.05).to_numpy())
        family_hits += bool(result["significant"].any())
    tests = np.concatenate(unadjusted)
    # 2-player games make the acquirer's opponent the whole baseline of that game: the
    # game-clustered standard error keeps the per-test rate at 5%.
    assert abs(tests.mean() - 0.05) < 0.015, tests.mean()
    assert family_hits <= binomial_band(reps)[1]


def _long_game_card_run(num_games: int, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    """3-player games whose length drives every seat's score; card X, of no effect on anything,
    is bought (by a uniform seat) mostly in long games."""
    n = 3
    length = rng.gamma(4.0, 5.0, num_games)
    score = np.rint(2.0 * length[:, None] + rng.normal(0, 6, (num_games, n)))
    best = score == score.max(axis=1, keepdims=True)
    win = best / best.sum(axis=1, keepdims=True)
    rank = (score[:, :, None] < score[:, None, :]).sum(axis=2) + 1
    seats = pd.DataFrame(
        {
            "game": np.repeat(np.arange(num_games), n),
            "seat": np.tile(np.arange(1, n + 1), num_games),
            "num_players": n,
            "bot": "random",
            "score": score.ravel(),
            "rank": rank.ravel(),
            "win": win.ravel(),
        }
    )
    bought = np.flatnonzero(rng.random(num_games) < np.clip(length / 40, 0, 1))
    components = pd.DataFrame(
        {
            "game": bought,
            "seat": rng.integers(1, n + 1, len(bought)),
            "component": "X",
            "kind": "card",
            "round": 0,
        }
    )
    return seats, components


def test_component_margin_difference_ignores_cards_that_go_with_long_games():
    """A card bought mostly in long, high-scoring games changes nobody's margin: its interval
    covers 0 at the nominal rate (raw scores put it at about +11 points, excluding 0, in every run)."""
    rng = np.random.default_rng(COVERAGE_SEED + 3)
    reps, misses = REPS, 0
    for _ in range(reps):
        seats, components = _long_game_card_run(1_000, rng)
        row = component_strength(seats, components).iloc[0]
        misses += not (row["margin_diff_low"] <= 0.0 <= row["margin_diff_high"])
    low, high = binomial_band(reps)
    assert low <= misses <= high, misses


def test_component_clustered_standard_error_matches_a_direct_computation():
    run = synthetic_run(300, 3, acquire_rate=0.3, random_state=SEED)
    comps = run.components
    # A second copy of some cards taken by other seats, and a repeat by the same seat.
    extra = comps.iloc[::5].assign(seat=lambda d: (d["seat"] % 3 + 1).astype(np.int8))
    repeat = comps.iloc[::7].assign(round=lambda d: d["round"] + 2)
    comps = pd.concat([comps, extra, repeat], ignore_index=True)
    result = component_strength(run.seats, comps, run.games, correction=None, min_count=2)
    seats = run.seats
    first = comps.groupby(["game", "seat", "component"], as_index=False)["round"].min()
    first = first.merge(run.games[["game", "rounds"]], on="game")
    first["phase"] = np.array(["early", "mid", "late"])[np.clip(3 * first["round"] // first["rounds"], 0, 2)]
    for component, phase in [("M05", "any"), ("P10", "mid"), ("M20", "late")]:
        owners = first[first["component"] == component]
        chosen = owners if phase == "any" else owners[owners["phase"] == phase]
        key = seats.set_index(["game", "seat"]).index
        acquired = key.isin(pd.MultiIndex.from_frame(chosen[["game", "seat"]]))
        baseline = ~key.isin(pd.MultiIndex.from_frame(owners[["game", "seat"]]))
        y = seats["win"].to_numpy(float)
        m1, m0 = y[acquired].mean(), y[baseline].mean()
        psi = (
            pd.Series(
                np.where(acquired, (y - m1) / acquired.sum(), 0) - np.where(baseline, (y - m0) / baseline.sum(), 0)
            )
            .groupby(seats["game"].to_numpy())
            .sum()
        )
        row = result[(result["component"] == component) & (result["phase"] == phase)].iloc[0]
        assert row.num_acquired == acquired.sum() and row.num_not == baseline.sum()
        assert row.win_diff == pytest.approx(m1 - m0)
        se = np.sqrt((psi**2).sum())
        a, b = y[acquired].var(ddof=1) / acquired.sum(), y[baseline].var(ddof=1) / baseline.sum()
        welch_df = (a + b) ** 2 / (a**2 / (acquired.sum() - 1) + b**2 / (baseline.sum() - 1))
        half_width = row.win_diff_high - row.win_diff
        assert half_width == pytest.approx(stats.t.ppf(0.975, welch_df) * se, rel=1e-6)
        assert row.pvalue == pytest.approx(2 * stats.t.sf(abs(row.win_diff) / se, welch_df), rel=1e-6)


# --- game length, scores, convergence ---------------------------------------------------------


def test_turn_cap_endings_are_called_out(rich_run):
    table, verdict = end_reasons(rich_run.games)
    capped = table[table["turn_cap"]].iloc[0]
    assert capped.ci_low < 0.02 < capped.ci_high
    assert verdict.startswith("The turn cap ended ") and "3-player" in verdict
    lengths = game_lengths(rich_run.games).set_index("end_reason")
    assert lengths.loc["turn_cap", "rounds_median"] == 200
    assert lengths.loc["all", "num_games"] == len(rich_run.games)
    clean = end_reasons(synthetic_run(500, 2, random_state=SEED).games).verdict
    assert clean.startswith("No 2-player game hit the turn cap")


def test_score_summary_reports_parts_and_margins(advantage_run):
    summary = score_summary(advantage_run.seats).set_index("seat")
    assert summary.loc[1, "margin_mean"] == pytest.approx(3.0, abs=0.3)
    parts = summary[["score_points_mean", "score_copper_mean", "score_silver_mean", "score_crystals_mean"]]
    np.testing.assert_allclose(parts.sum(axis=1), summary["score_mean"])
    assert (summary["score_p05"] <= summary["score_median"]).all()
    margins = add_margins(advantage_run.seats)
    np.testing.assert_allclose(margins.groupby("game")["margin"].sum(), 0.0, atol=1e-9)


def test_convergence_narrows_and_ends_at_the_full_estimate(advantage_run):
    conv = convergence(advantage_run.seats, num_points=20)
    first = conv[conv["seat"] == 1]
    assert first["num_games"].iloc[-1] == 20_000
    assert first["width"].is_monotonic_decreasing
    full = seat_advantage(advantage_run.seats).table.iloc[0]
    assert first["win_rate"].iloc[-1] == pytest.approx(full.win_rate)
    assert first["margin"].iloc[-1] == pytest.approx(full.margin)


def test_games_needed_follows_the_normal_power_formula():
    table = pd.DataFrame(
        {
            "seat": [1, 2, 3],
            "num_games": [1_000, 1_000, 1_000],
            "win_rate": [0.40, 1 / 3 - 0.01, 1 / 3],
            "fair": [1 / 3] * 3,
        }
    )
    out = games_needed(table)
    h = 2 * np.arcsin(np.sqrt(0.40)) - 2 * np.arcsin(np.sqrt(1 / 3))
    assert out.loc[0, "games_needed"] == np.ceil((stats.norm.ppf(0.975) / h) ** 2)
    assert bool(out.loc[0, "resolved"]) and out.loc[0, "more_games"] == 0
    assert not out.loc[1, "resolved"] and out.loc[1, "more_games"] > 7_000
    assert "more games" in out.loc[1, "note"]
    assert np.isinf(out.loc[2, "games_needed"]) and "effectively no detectable difference" in out.loc[2, "note"]
    planned = games_needed(table, power=0.8)
    assert (planned["games_needed"].iloc[:2] > out["games_needed"].iloc[:2]).all()


def test_games_needed_never_prints_a_count_no_study_will_play():
    """The golem-poker summary said "7,683,051,298 more games": beyond ten million it says what that means."""
    table = pd.DataFrame({"seat": [1], "num_games": [20_000], "win_rate": [0.25 + 2e-5], "fair": [0.25]})
    out = games_needed(table)
    assert out.loc[0, "more_games"] > 1e9, "the formula still gives billions"
    note = out.loc[0, "note"]
    assert "more than 10 million more games: effectively no detectable difference at this size" in note
    assert not re.search(r"\d{1,3}(,\d{3}){3}", note), note
    assert (
        more_games_text(MAX_PLANNABLE_GAMES)
        == "10 million more games, as an order of magnitude: unresolved at this size"
    )
    assert more_games_text(7_678_837) == "10 million more games, as an order of magnitude: unresolved at this size"
    assert more_games_text(2_401) == "2,400 more games", "a planning figure, two significant figures"
    assert more_games_text(1) == more_games_text(0.2) == "10 more games", "never finer than the estimate"
    assert more_games_text(7_683_051_298).startswith("more than 10 million more games")
    assert more_games_text(np.inf).startswith("more than 10 million more games")


def test_intervals_print_more_digits_when_their_rounded_ends_coincide():
    """The Golems report printed a margin as "-0.3 (-0.3 to -0.3)"."""
    assert interval_digits(-0.31, -0.27) == 2
    assert interval_digits(-0.36, -0.24) == 1
    assert interval_digits(-0.34, -0.26) == 2, "both round to -0.3"
    assert interval_digits(-0.3001, -0.3002) == 4, "at most four decimals"
    assert interval_digits(np.nan, 1.0) == 1
    rng = np.random.default_rng(SEED)
    num_games = 100_000
    game = np.repeat(np.arange(num_games), 2)
    seat = np.tile([1, 2], num_games)
    first = rng.random(num_games) < 0.48
    win = np.column_stack([first, ~first]).ravel().astype(float)
    score = np.column_stack([np.full(num_games, 10.0), 10.3 + rng.normal(0, 0.5, num_games)]).ravel()
    seats = pd.DataFrame(
        {"game": game, "num_players": 2, "seat": seat, "bot": "greedy", "score": score, "win": win, "rank": 1}
    )
    verdict = seat_advantage(seats, num_resamples=QUICK_RESAMPLES).verdict
    low, high = re.search(r"scores [-+][\d.]+ points \(([-+][\d.]+) to ([-+][\d.]+)\)", verdict).groups()
    assert low != high, verdict
    assert "-0.30" in verdict, verdict


def test_turn_cap_endings_are_named_by_run_not_pooled():
    """508 capped games of a random-bot rung are 8.5% of that rung, not 0.5% of every 2-player game."""
    games = pd.DataFrame(
        {
            "num_players": 2,
            "end_reason": ["turn_cap"] * 508 + ["trigger"] * (6_000 - 508) + ["trigger"] * 99_600,
            "run": ["c2-ladder-random"] * 6_000 + ["c2-mirror"] * 90_000 + ["c2-ladder-greedy"] * 9_600,
        }
    )
    pooled = end_reasons(games[["num_players", "end_reason"]]).verdict
    assert "0.5%" in pooled
    verdict = end_reasons(games, by="run").verdict
    assert "8.5% (7.8-9.2) of 2-player games of c2-ladder-random (508 of 6,000)" in verdict, verdict
    assert "No other 2-player game hit it (0 of 99,600 in 2 other runs" in verdict, verdict
    assert "0.5%" not in verdict


# --- input checks -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("func", "missing"),
    [
        (lambda s, c, g: win_rates(s.drop(columns="win")), "win"),
        (lambda s, c, g: seat_advantage(s.drop(columns=["score", "bot"])), "bot, score"),
        (lambda s, c, g: setup_variance(s.drop(columns="setup_id")), "setup_id"),
        (lambda s, c, g: setup_feature_effects(s, g.drop(columns="setup_id")), "setup_id"),
        (lambda s, c, g: head_to_head(s.drop(columns="rank")), "rank"),
        (lambda s, c, g: component_strength(s, c.drop(columns="component"), g), "component"),
        (lambda s, c, g: component_strength(s, c, g.drop(columns="rounds")), "rounds"),
        (lambda s, c, g: game_lengths(g.drop(columns="turns")), "turns"),
        (lambda s, c, g: convergence(s.drop(columns="game")), "game"),
        (lambda s, c, g: plots.plot_seat_win_rates(win_rates(s).drop(columns="fair")), "fair"),
    ],
)
def test_missing_columns_raise_value_errors_naming_them(rich_run, func, missing):
    with pytest.raises(ValueError, match=f"missing required column\\(s\\): {missing}"):
        func(rich_run.seats, rich_run.components, rich_run.games)


# --- plots ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def plot_inputs(rich_run):
    seats = rich_run.seats
    mirror = synthetic_run(2_000, 3, seat_advantage=[1.0, 0, 0], games_per_setup=4, setup_sd=2.0, random_state=SEED)
    h2h = head_to_head(seats)
    return {
        "win_rates": seat_advantage(mirror.seats, num_resamples=QUICK_RESAMPLES).table,
        "seats": seats,
        "balance": setup_balance(mirror.seats),
        "balance_win": setup_balance(mirror.seats, outcome="win"),
        "h2h": h2h,
        "ratings": bradley_terry(h2h),
        "strength": component_strength(seats, rich_run.components, rich_run.games),
        "conv": convergence(mirror.seats, num_points=10),
        "games": rich_run.games,
    }


@pytest.mark.parametrize(
    ("func", "data", "kwargs"),
    [
        (plots.plot_seat_win_rates, "win_rates", {}),
        (plots.plot_seat_win_rates, "win_rates", {"title": "t", "show_fair": False, "color": "k"}),
        (plots.plot_score_distributions, "seats", {}),
        (plots.plot_score_distributions, "seats", {"by": "bot", "cumulative": True, "bins": 20}),
        (plots.plot_setup_caterpillar, "balance", {}),
        (plots.plot_setup_caterpillar, "balance", {"max_setups": 50, "show_shrunk": False}),
        (plots.plot_setup_caterpillar, "balance_win", {"num_players": 3}),
        (plots.plot_head_to_head, "h2h", {}),
        (plots.plot_head_to_head, "h2h", {"annotate": False, "order": ["greedy", "engine", "random"]}),
        (plots.plot_ratings, "ratings", {}),
        (plots.plot_ratings, "ratings", {"scale": "logit"}),
        (plots.plot_component_forest, "strength", {}),
        (plots.plot_component_forest, "strength", {"metric": "margin", "phase": "late", "top": 5}),
        (plots.plot_convergence, "conv", {}),
        (plots.plot_convergence, "conv", {"show": "width", "seats": [1], "log_x": False}),
        (plots.plot_game_lengths, "games", {}),
        (plots.plot_game_lengths, "games", {"unit": "rounds"}),
    ],
)
def test_plots_draw_titled_labelled_axes(plot_inputs, func, data, kwargs):
    ax = func(plot_inputs[data], **kwargs)
    assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
    assert ax.has_data()
    _, given = plt.subplots()
    assert func(plot_inputs[data], ax=given, **kwargs) is given


def test_plot_seat_win_rates_draws_a_fair_line_per_player_count():
    three = synthetic_run(500, 3, random_state=SEED)
    four = synthetic_run(500, 4, random_state=SEED)
    seats = pd.concat([three.seats, four.seats.assign(game=four.seats["game"] + 500)], ignore_index=True)
    ax = plots.plot_seat_win_rates(win_rates(seats))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "fair 33.3% (3 players)" in labels and "fair 25.0% (4 players)" in labels


def test_components_without_rounds_give_the_any_phase_only():
    run = synthetic_run(600, 3, acquire_rate=0.3, random_state=SEED)
    with_rounds = component_strength(run.seats, run.components, run.games, correction=None, min_count=2)
    unknown = run.components.assign(round=-1)
    result = component_strength(run.seats, unknown, run.games, correction=None, min_count=2)
    assert set(result["phase"]) == {"any"}
    # the "any" rows do not depend on when a component was taken
    any_rows = with_rounds[with_rounds["phase"] == "any"].reset_index(drop=True)
    pd.testing.assert_frame_equal(result.reset_index(drop=True), any_rows, check_like=True)


def test_score_ratings_rank_bots_by_net_score_not_by_finishing_above():
    """A bot that finishes above more often can still lose chips: in golem-poker the outcome is net chips."""
    rng = np.random.default_rng(SEED)
    games = 4_000
    # "steady" wins a little most games; "gambler" loses most games but wins big now and then: +2 chips a game
    gambler = np.where(rng.random(games) < 0.2, 50.0, -10.0) + rng.normal(0, 1, games)
    seats = pd.DataFrame(
        {
            "game": np.repeat(np.arange(games), 2),
            "bot": np.tile(["gambler", "steady"], games),
            "score": np.column_stack([gambler, -gambler]).ravel(),
        }
    )
    table = score_ratings(seats).set_index("bot")
    assert table.index.tolist() == ["gambler", "steady"]
    assert table.at["gambler", "ci_low"] < 2.0 < table.at["gambler", "ci_high"]
    assert table.at["steady", "mean"] == pytest.approx(-table.at["gambler", "mean"])
    assert (np.column_stack([gambler, -gambler])[:, 1] > 0).mean() > 0.75, "steady finishes above 80% of the time"


def _replayed(num_setups: int, replays: int, n: int, rho: float, seed: int) -> pd.DataFrame:
    """A setup fixes its winner (every replay) with chance ``rho``; otherwise each replay's winner is a uniform draw."""
    rng = np.random.default_rng(seed)
    fixed = np.where(rng.random(num_setups) < rho, rng.integers(0, n, num_setups), -1)
    setup = np.repeat(np.arange(num_setups), replays)
    winner = np.where(fixed[setup] >= 0, fixed[setup], rng.integers(0, n, len(setup)))
    games = len(setup)
    seat = np.tile(np.arange(1, n + 1), games)
    win = (np.repeat(winner, n) == seat - 1).astype(float)
    score = win * 10 + rng.normal(0, 1, games * n) * (rho < 1)
    return pd.DataFrame(
        {
            "game": np.repeat(np.arange(games), n),
            "setup_id": np.repeat(setup, n),
            "num_players": n,
            "seat": seat,
            "score": score,
            "win": win,
        }
    )


def test_deal_decides_recovers_how_often_the_deal_alone_fixes_the_winner():
    """Known answer: a deal fixes its winner in 40% of games, else the winner is a uniform draw; with nothing fixed
    the share reads 0 (kappa itself, not its square root, whose noise read several percent)."""
    out = deal_decides(_replayed(3_000, 4, 3, 0.4, SEED)).iloc[0]
    assert out.decided_low < 0.4 < out.decided_high and out.decided == pytest.approx(0.4, abs=0.04)
    assert out.chance == pytest.approx(1 / 3, abs=0.02)
    none = deal_decides(_replayed(3_000, 4, 3, 0.0, SEED)).iloc[0]
    assert none.decided_low == 0 and none.decided < 0.02 and none.kappa == pytest.approx(0.0, abs=0.02)


def test_setup_variance_at_epsilon_zero_is_one_with_a_warning_not_a_silent_nan():
    """Deterministic bots replay a setup identically: the ICC is exactly 1 and the report is told why."""
    seats = _replayed(500, 3, 2, 1.0, SEED)
    with pytest.warns(RuntimeWarning, match="bots are deterministic"):
        var = setup_variance(seats)
    assert var["replays_identical"].all()
    assert (var["icc"] == 1.0).all() and not var["icc"].isna().any()
    assert (var["share_players"] == 0.0).all()
    decided = deal_decides(seats).iloc[0]
    assert decided.agreement == 1.0 and decided.decided == 1.0 and decided.same_winner == 1.0
