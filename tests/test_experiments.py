"""What-if experiments: value paths, variants, paired effects with planted effects, sequential stopping,
searches, reports and the sweep/ablate/balance/tune/values commands."""

from __future__ import annotations

import csv
import json
import re
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from scipy.stats import binom
from statsmodels.stats.multitest import multipletests

from analysis.experiment import SEAT_COLUMNS, load_experiment, read_quantities, skill_head
from analysis.plots.experiments import (
    plot_effect_forest,
    plot_search_history,
    plot_sweep,
    plot_tradeoff,
    plot_variant_effects,
)
from analysis.report.experiment import (
    _compared,
    _effect_answers,
    _fairness_answer,
    _overview_forest,
    _overview_quantity,
    build_experiment_report,
    effects_with_values,
    ranking,
)
from analysis.report.search import _strongest
from analysis.run import check_runs, read_tables
from analysis.stats.paired import Moments, PairedRounds, compare_variants, game_quantities, holm, paired_effects
from analysis.stats.sequential import (
    SequentialTest,
    StopRuleError,
    confseq_halfwidth,
    decide,
    mixture_rho2,
    parse_test,
    precision_reached,
)
from simulate.cli import main
from simulate.datafiles import default_dir
from simulate.integrity import verify_run
from simulate.lineup import LineupError, parse_bot, parse_lineup
from simulate.orchestration.balance_search import (
    INFEASIBLE,
    Dimension,
    balance_dimensions,
    objective_function,
    search,
    tune_dimensions,
)
from simulate.orchestration.experiments import (
    Design,
    ExperimentError,
    ablation_variants,
    run_experiment,
    sweep_variants,
)
from simulate.registry import available_games, make
from simulate.runformat import RunFormatError, read_manifest
from simulate.runner import RunSpec, run
from simulate.variants import Variant, VariantError, match_values, resolve_value, settable_values, write_variant

SEED = 11
GAMES = 1500  # per variant: enough for the planted effects below (about 10-25 pp), fast on one core


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def century_values():
    return settable_values(make("century"))


# --------------------------------------------------------------------------- value paths and variants


@pytest.mark.parametrize("name", list(available_games()))
def test_every_game_exposes_its_data_cells_and_rule_options(name):
    game = make(name)
    values = settable_values(game)
    canonical = {v.name for v in values.values()}
    for option in game.rule_options():
        assert values[option].name == f"rules.{option}"
    for file in game.info.data_files:
        if file.endswith(".csv"):
            assert any(v.file == file and v.kind == "cell" for v in values.values())
    assert all(resolve_value(values, n).name == n for n in canonical)


def test_paths_address_cells_toml_list_elements_and_rules(century_values):
    assert resolve_value(century_values, "points.P36.vp").name == "point_cards.P36.vp"
    assert resolve_value(century_values, "point_cards.P36.vp").value == "20"
    seat1 = resolve_value(century_values, "start.seat1")
    assert (seat1.name, seat1.value) == ("table.start.1", "YYY")
    assert resolve_value(century_values, "tie_break").kind == "rule"
    assert [v.name for v in match_values(century_values, "start.*")] == [f"table.start.{k}" for k in range(1, 6)]


def test_unknown_path_is_one_line_with_close_matches(century_values):
    with pytest.raises(VariantError, match=r"unknown value 'points.P36.vpp'; did you mean points.P36.vp"):
        resolve_value(century_values, "points.P36.vpp")


def test_write_variant_changes_exactly_the_named_values(tmp_path):
    game = make("century")
    variant = Variant(
        "v", (("points.P36.vp", "18"), ("start.seat1", "YYYY"), ("tie_break", "shared")), ("M09",), (("M10", "M11"),)
    )
    folder, rules = write_variant(game, variant, tmp_path / "v")
    assert rules == {"tie_break": "shared"}
    points = {r["id"]: r for r in csv.DictReader((folder / "point_cards.csv").open())}
    shipped = {r["id"]: r for r in csv.DictReader((default_dir("century") / "point_cards.csv").open())}
    assert points["P36"] == {**shipped["P36"], "vp": "18"}
    assert {k: r for k, r in points.items() if k != "P36"} == {k: r for k, r in shipped.items() if k != "P36"}
    merchants = {r["id"]: r for r in csv.DictReader((folder / "merchant_cards.csv").open())}
    assert "M09" not in merchants and len(merchants) == 44
    assert (merchants["M10"]["input"], merchants["M10"]["output"]) == ("YY", "GG")
    data = game.load_data(folder, rules)
    assert game.describe_data(data)["rules"]["tie_break"] == "shared"
    toml = (folder / "game.toml").read_text()
    assert 'start = ["YYYY", "YYYY", "YYYY", "YYYG", "YYYG"]' in toml
    assert "# Starting crystals by seat" in toml  # comments kept


def test_write_variant_rejects_values_the_game_rejects(tmp_path):
    game = make("century")
    with pytest.raises(VariantError, match=r"'YYQ' has 'Q'"):
        write_variant(game, Variant("bad", (("start.seat1", "YYQ"),)), tmp_path / "bad")
    with pytest.raises(VariantError, match=r"unknown component 'M99'.*M09"):
        write_variant(game, Variant("bad", (), ("M99",)), tmp_path / "bad2")
    with pytest.raises(VariantError, match="not a whole number"):
        write_variant(game, Variant("bad", (("copper_vp", "2.5"),)), tmp_path / "bad3")


def test_sweep_variants_grid_and_one_at_a_time(century_values):
    grid = sweep_variants(century_values, [("points.P36.vp", "18,20,22"), ("start.seat1", "YYY,YYYY")])
    assert grid[0].is_baseline
    assert len(grid) == 1 + 3 * 2 - 1  # the combination equal to the shipped data is the baseline
    oat = sweep_variants(century_values, [("points.P36.vp", "16:22:2"), ("start.seat1", "YYYY")], design="oat")
    assert [v.name for v in oat[1:]] == [  # named as the user named the values; settings are canonical
        "points.P36.vp=16",
        "points.P36.vp=18",
        "points.P36.vp=22",
        "start.seat1=YYYY",
    ]
    assert oat[-1].settings == (("table.start.1", "YYYY"),)
    assert oat[-1].aliases == (("table.start.1", "start.seat1"),)
    canonical = sweep_variants(century_values, [("table.start.1", "YYYY")])
    assert canonical[1].name == "table.start.1=YYYY" and canonical[1].aliases == ()
    with pytest.raises(ExperimentError, match="equals the current one"):
        sweep_variants(century_values, [("points.P36.vp", "20")])


def test_ablation_variants():
    variants = ablation_variants(["M09", "M10+M11"], [("M12", "M13")])
    assert [v.name for v in variants] == ["baseline", "remove M09", "remove M10+M11", "replace M12 by M13"]
    assert variants[2].removed == ("M10", "M11")


def test_bot_file_is_accepted_by_parse_bot(tmp_path):
    game = make("century")
    path = tmp_path / "tuned.bot"
    path.write_text("# tuned\ngreedy:patience=0.5\n")
    entry = parse_bot(game, f"@{path}")
    assert (entry.bot, entry.params["patience"]) == ("greedy", 0.5)
    with pytest.raises(LineupError, match="no bot spec"):
        (tmp_path / "empty.bot").write_text("# nothing\n")
        parse_bot(game, f"@{tmp_path / 'empty.bot'}")


# --------------------------------------------------------------------------- paired statistics


def _null_quantities(num_games: int, rng: np.random.Generator, shift: float = 0.0) -> pd.DataFrame:
    """Per-game quantities of a 3-player game with seat win shares from independent games."""
    winner = rng.integers(0, 3, num_games)
    wins = np.eye(3)[winner]
    margin = rng.normal(0, 5, (num_games, 3)) + shift
    return pd.DataFrame(
        {**{f"seat{s + 1}": wins[:, s] for s in range(3)}, **{f"margin{s + 1}": margin[:, s] for s in range(3)}},
        index=pd.Index(np.arange(num_games), name="game"),
    )


def test_changes_that_do_nothing_are_significant_at_most_at_the_nominal_rate():
    """Families of three null variants: any significant effect (Holm) in at most ~alpha of the families."""
    rng = np.random.default_rng(SEED)
    reps, hits = 200, 0
    for _ in range(reps):
        q = {name: _null_quantities(300, rng) for name in ("baseline", "a", "b", "c")}
        effects = compare_variants(q, "baseline")
        hits += bool(effects.loc[effects["unit"] == "rate", "significant"].any())
    assert hits / reps <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps)


def test_holm_family_spans_win_rates_and_margins():
    """Null variants that change neither wins nor margins: any significant effect, on either kind of
    quantity, in at most ~alpha of the families (Holm run apart over rates and over margins lets
    this reach ~9%)."""
    rng = np.random.default_rng(SEED + 1)
    reps, hits = 1000, 0
    for _ in range(reps):
        q = {name: _null_quantities(200, rng) for name in ("baseline", "a", "b", "c")}
        hits += bool(compare_variants(q, "baseline")["significant"].any())
    assert hits <= binom.ppf(0.999, reps, 0.05), hits


def test_adjusted_intervals_exclude_zero_exactly_when_significant():
    """Holm decisions and the intervals shown beside them agree, whatever the mix of effects."""
    rng = np.random.default_rng(SEED + 2)
    for rep in range(40):
        q = {"baseline": _null_quantities(150, rng)}
        for name, shift in (("a", 0.0), ("b", 0.5 + rep / 20), ("c", 1.5), ("d", rep / 10)):
            q[name] = _null_quantities(150, rng, shift=shift)
        effects = compare_variants(q, "baseline")
        excludes = (effects["adj_low"] > 0) | (effects["adj_high"] < 0)
        assert (excludes == effects["significant"]).all(), effects[excludes != effects["significant"]]
        assert (effects["adj_low"] <= effects["ci_low"]).all() and (effects["adj_high"] >= effects["ci_high"]).all()


def test_holm_matches_statsmodels():
    rng = np.random.default_rng(SEED)
    p = np.concatenate([rng.random(20) ** 3, [np.nan]])
    adjusted, reject = holm(p, 0.05)
    expected_reject, expected, _, _ = multipletests(p[:-1], alpha=0.05, method="holm")
    np.testing.assert_allclose(adjusted[:-1], expected)
    assert reject[:-1].tolist() == expected_reject.tolist() and np.isnan(adjusted[-1]) and not reject[-1]


def test_paired_effects_recover_a_planted_shift():
    rng = np.random.default_rng(SEED)
    base = _null_quantities(2000, rng)
    variant = base.copy()
    variant["margin1"] += 1.5
    row = paired_effects(base, variant).set_index("quantity").loc["margin1"]
    assert row["diff"] == pytest.approx(1.5)
    assert row["ci_low"] == pytest.approx(1.5) and row["pvalue"] < 1e-6
    assert row["variance_removed"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="not the same games"):
        paired_effects(base, variant.iloc[:10])


def _reference_effects(base: pd.DataFrame, variant: pd.DataFrame) -> pd.DataFrame:
    """Paired effects straight from their definition: NaN-aware means and variances of every column."""
    b, v = base.to_numpy(dtype=float), variant.loc[base.index, base.columns].to_numpy(dtype=float)
    d = v - b
    ok = np.isfinite(d)
    b, v = np.where(ok, b, np.nan), np.where(ok, v, np.nan)
    g = ok.sum(axis=0)
    return pd.DataFrame(
        {
            "quantity": base.columns,
            "baseline": np.nanmean(b, axis=0),
            "variant": np.nanmean(v, axis=0),
            "diff": np.nanmean(d, axis=0),
            "se": np.sqrt(np.nanvar(d, axis=0, ddof=1) / g),
            "se_unpaired": np.sqrt((np.nanvar(b, axis=0, ddof=1) + np.nanvar(v, axis=0, ddof=1)) / g),
            "num_games": g,
        }
    )


def _rounds_of_quantities(num_rounds: int, size: int, rng: np.random.Generator) -> list[dict[str, pd.DataFrame]]:
    """Rounds of a baseline and two variants (one planted margin shift, one with a few missing margins)."""
    rounds = []
    for r in range(num_rounds):
        base = _null_quantities(size, rng)
        base.index = base.index + r * size
        shifted = base.copy()
        shifted["margin1"] += rng.normal(0.5, 1.0, size)
        gaps = _null_quantities(size, rng).set_axis(base.index)
        gaps.loc[gaps.index[: r + 1], "margin2"] = np.nan
        rounds.append({"baseline": base, "shifted": shifted.sample(frac=1.0, random_state=r), "gaps": gaps})
    return rounds


def test_effects_by_rounds_equal_the_effects_of_all_games():
    """PairedRounds sums up rounds as they come; the result is compare_variants on all games at once, and
    each variant's row is the effect computed from its definition (rounding aside)."""
    rounds = _rounds_of_quantities(5, 400, np.random.default_rng(SEED))
    by_rounds = PairedRounds("baseline")
    for q in rounds:
        by_rounds.add(q)
    together = {name: pd.concat([q[name] for q in rounds]) for name in rounds[0]}
    expected = compare_variants(together, "baseline")
    pd.testing.assert_frame_equal(by_rounds.effects(), expected, check_exact=False, rtol=1e-10, atol=1e-12)
    for name in ("shifted", "gaps"):
        reference = _reference_effects(together["baseline"], together[name])
        got = expected[expected["variant_name"] == name].reset_index(drop=True)
        pd.testing.assert_frame_equal(got[reference.columns], reference, check_exact=False, rtol=1e-12)
    assert expected.set_index(["variant_name", "quantity"]).loc[("gaps", "margin2"), "num_games"] == 2000 - 15


def test_moments_of_parts_combine_into_the_moments_of_the_whole():
    x = np.random.default_rng(SEED).normal(3.0, 2.0, (1000, 3))
    x[5, 1] = np.nan
    x[:, 2] = np.nan
    whole = Moments.of(x)
    parts = Moments.of(x[:10]).combine(Moments.of(x[10:700])).combine(Moments.of(x[700:]))
    for a, b in zip(whole, parts, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    assert whole.count.tolist() == [1000, 999, 0]
    np.testing.assert_allclose(whole.var[:2], np.nanvar(x[:, :2], axis=0, ddof=1), rtol=1e-12)
    assert np.isnan(whole.var[2])


def test_read_quantities_matches_the_straightforward_reading(tmp_path, seat_sweep):
    """The positional reader gives exactly game_quantities of the seats table (a mirror run, a run with four bot
    labels, with and without an offset); a part whose rows are out of order is read the straightforward way."""
    poker = make("golem-poker")
    lineup = parse_lineup(poker, ["threshold", "tight_aggressive", "loose_passive", "bluffer"], 4)
    spec = RunSpec(game="golem-poker", num_players=4, num_games=3000, master_seed=SEED, lineup=lineup, chunk_size=1000)
    runs = [seat_sweep.path / seat_sweep.manifest["variants"][0]["runs"][0]]
    runs.append(run(spec, tmp_path / "poker", workers=1, progress=False))
    for run_dir in runs:
        for offset in (0, 7000):
            seats = read_tables(check_runs([run_dir]), "seats", SEAT_COLUMNS, [offset])
            pd.testing.assert_frame_equal(read_quantities(run_dir, offset), game_quantities(seats), check_exact=True)
    in_order = read_quantities(runs[1])
    assert list(in_order.columns[-4:]) == ["threshold", "tight_aggressive", "loose_passive", "bluffer"]
    part = runs[1] / "seats" / "part-00001.parquet"
    table = pq.read_table(part)
    pq.write_table(table.take(np.random.default_rng(SEED).permutation(table.num_rows)), part)
    pd.testing.assert_frame_equal(read_quantities(runs[1]), in_order, check_exact=True, check_index_type=False)


def test_game_quantities_of_a_rotated_lineup():
    seats = pd.DataFrame(
        {
            "game": [0, 0, 1, 1],
            "num_players": 2,
            "seat": [1, 2, 1, 2],
            "bot": ["a", "b", "b", "a"],
            "score": [10, 4, 3, 3],
            "win": [1.0, 0.0, 0.5, 0.5],
        }
    )
    q = game_quantities(seats)
    assert q["seat1"].tolist() == [1.0, 0.5]
    assert q["margin1"].tolist() == [6.0, 0.0]
    assert q["a"].tolist() == [1.0, 0.5] and q["b"].tolist() == [0.0, 0.5]


# --------------------------------------------------------------------------- sequential rules


def test_parse_test_expressions():
    t = parse_test("seat1 > 1/n + 0.01", ["seat1", "seat2"], 3)
    assert (t.quantity, t.op) == ("seat1", ">") and t.threshold == pytest.approx(1 / 3 + 0.01)
    for bad, message in [
        ("seat9 > 0.3", "unknown quantity .seat9. .did you mean"),
        ("seat1 > x", "numbers, n"),
        ("seat1", "one comparison"),
        ("seat1 >", "not an expression"),
    ]:
        with pytest.raises(StopRuleError, match=message):
            parse_test(bad, ["seat1", "seat2"], 3)


def test_sequential_test_keeps_its_error_rate_under_repeated_looks():
    """Win indicators with the true rate exactly at the threshold: looking after every round of 500 games up
    to 40,000, the test decides 'true' (the wrong answer for '>') in at most alpha of the streams."""
    rng = np.random.default_rng(SEED)
    alpha, p, reps, rounds, size = 0.05, 0.35, 400, 80, 500
    test = SequentialTest("seat1", ">", p, "")
    rho2 = mixture_rho2(alpha, rounds * size / 2, p * (1 - p))
    x = rng.random((reps, rounds * size)) < p
    counts = np.cumsum(x.reshape(reps, rounds, size).sum(axis=2), axis=1)
    n = size * np.arange(1, rounds + 1)
    mean = counts / n
    var = mean * (1 - mean) * n / (n - 1)
    half = confseq_halfwidth(n, var, alpha, rho2)
    wrong = np.any(mean - half > p, axis=1)
    assert wrong.mean() <= alpha
    assert decide(test, 0.40, 0.02) == "true" and decide(test, 0.30, 0.02) == "false"
    assert decide(test, 0.35, 0.02) is None


def test_sequential_test_decides_a_real_difference_early():
    rng = np.random.default_rng(SEED)
    alpha, size = 0.05, 500
    rho2 = mixture_rho2(alpha, 20_000, 0.25)
    x = rng.random(40 * size) < 0.40
    test = SequentialTest("seat1", ">", 1 / 3, "")
    for k in range(1, 41):
        n = k * size
        m = x[:n].mean()
        if decide(test, m, float(confseq_halfwidth(n, m * (1 - m), alpha, rho2))) == "true":
            break
    assert k * size <= 5000


def test_precision_rule_covers_at_the_nominal_level():
    """Chow-Robbins: stopping when the paired interval is +/-2 pp, the interval covers the true effect in at
    least 92% of 200 synthetic experiments (nominal 95%)."""
    rng = np.random.default_rng(SEED)
    covered, reps, size = 0, 200, 600
    for _ in range(reps):
        base_parts, var_parts = [], []
        for r in range(40):
            base = _null_quantities(size, rng)
            base.index = base.index + r * size
            variant = base.copy()
            flip = rng.random(size) < 0.1  # 10% of games change winner to seat 1: effect on seat1 known
            variant.loc[flip, ["seat1", "seat2", "seat3"]] = [1.0, 0.0, 0.0]
            base_parts.append(base)
            var_parts.append(variant)
            effects = paired_effects(pd.concat(base_parts), pd.concat(var_parts))
            if precision_reached(effects, 2.0, r):
                break
        row = effects.set_index("quantity").loc["seat1"]
        covered += row["ci_low"] <= 0.1 * 2 / 3 <= row["ci_high"]
    assert covered / reps >= 0.92


# --------------------------------------------------------------------------- experiments on a real game


# greedy without card purchases (Century engine version 1's default): its known seat-1 deficit and crystal effects
# are the planted truths these tests detect; the default greedy (lookahead 1) plays a game with other seat effects
OLD_GREEDY = "greedy:lookahead=0"


@pytest.fixture(scope="module")
def seat_sweep(tmp_path_factory):
    """Century, 3 greedy players: a first seat with more starting crystals, with fewer, and a change to the
    fifth seat's crystals (no seat 5 at 3 players: a change that does nothing)."""
    out = tmp_path_factory.mktemp("exp") / "sweep"
    values = settable_values(make("century"))
    variants = sweep_variants(values, [("start.seat1", "YY,YYYYY"), ("start.seat5", "YY")], design="oat")
    design = Design("century", 3, (OLD_GREEDY,), tuple(variants), num_games=GAMES, seed=SEED)
    return run_experiment(design, out, command="golem sweep century ...", workers=1)


def test_planted_first_seat_advantage_is_detected_with_the_right_sign(seat_sweep):
    e = seat_sweep.effects.set_index(["variant_name", "quantity"])
    more = e.loc[("start.seat1=YYYYY", "seat1")]
    fewer = e.loc[("start.seat1=YY", "seat1")]
    assert more["significant"] and more["ci_low"] > 0
    assert fewer["significant"] and fewer["ci_high"] < 0


def test_a_change_that_does_nothing_gives_identical_games(seat_sweep):
    e = seat_sweep.effects
    rows = e[e["variant_name"] == "start.seat5=YY"]
    assert (rows["diff"] == 0).all() and not rows["significant"].any()


def test_experiment_writes_verified_paired_runs_and_a_manifest(seat_sweep):
    m = json.loads((seat_sweep.path / "experiment.json").read_text())
    assert m["format"] == "golem-experiment" and m["status"] == "complete"
    assert m["command"] == "golem sweep century ..."
    seeds = set()
    for rec in m["variants"]:
        (run_dir,) = rec["runs"]
        manifest = verify_run(seat_sweep.path / run_dir)
        seeds.add(manifest["master_seed"])
        assert manifest["num_games"] == GAMES
    assert seeds == {SEED}
    assert m["timing"]["run_seconds"] <= m["timing"]["seconds"]
    again = load_experiment(seat_sweep.path)
    pd.testing.assert_frame_equal(again.effects, seat_sweep.effects)


def test_paired_design_is_narrower_than_unpaired_on_the_same_budget(tmp_path, seat_sweep):
    values = settable_values(make("century"))
    variants = sweep_variants(values, [("points.P36.vp", "10")])
    widths = {}
    for paired in (True, False):
        design = Design("century", 3, ("greedy",), tuple(variants), num_games=GAMES, seed=SEED, paired=paired)
        exp = run_experiment(design, tmp_path / str(paired), workers=1)
        row = exp.effects.set_index("quantity").loc["seat1"]
        widths[paired] = row["ci_high"] - row["ci_low"]
        if paired:
            assert row["variance_removed"] > 0.5
    assert widths[True] < 0.7 * widths[False]


def test_sequential_test_stops_when_decided_on_a_real_game(tmp_path):
    values = settable_values(make("century"))
    variants = sweep_variants(values, [("start.seat1", "YYYYYY")])
    design = Design(
        "century", 3, (OLD_GREEDY,), tuple(variants), num_games=1000, seed=SEED, test="seat1 > 1/n", max_games=20_000
    )
    exp = run_experiment(design, tmp_path / "seq", workers=1)
    stop = exp.manifest["stopped"]
    assert "decided" in stop["reason"] and exp.manifest["games_per_variant"] < 20_000
    decisions = {t["variant"]: t["decision"] for t in stop["tests"]}
    assert decisions == {"baseline": "false", "start.seat1=YYYYYY": "true"}
    assert exp.manifest["rounds"] > 1  # effects and tests summed up by rounds equal those of all games at once
    together = compare_variants(exp.quantities, "baseline")
    pd.testing.assert_frame_equal(exp.effects, together, check_exact=False, rtol=1e-10, atol=1e-12)
    for t in stop["tests"]:
        seat1 = exp.quantities[t["variant"]]["seat1"]
        assert t["num_games"] == len(seat1) and t["mean"] == pytest.approx(seat1.mean(), rel=1e-12)


def test_experiment_report_has_every_section_and_plot(seat_sweep, tmp_path):
    path = build_experiment_report(seat_sweep, tmp_path / "report", command="golem sweep century ...")
    md = (tmp_path / "report" / "report.md").read_text()
    for title in ("Effects on win rates", "Effects on game length", "Effects on how the game is played", "Stopping"):
        assert title in md
    assert "| start.seat1=YYYYY | rounds a game |" in md  # every variant's length, paired on the same games
    assert "| start.seat1=YYYYY | merchants bought |" in md  # every play-profile count, paired
    assert "golem sweep century ..." in md
    assert "raises seat 1's win rate" in md
    assert (tmp_path / "report" / "sweep_1.png").is_file() and path.read_text().count("data:image/png") >= 2
    # the first screen answers; provenance comes last; values are named as the user named them
    summary = md[md.index("## Summary") : md.index("## Findings")]
    assert "Most influential change: start.seat1=YYYYY raises seat 1's win rate" in summary
    assert "Fair to every seat?" in summary and "(overview-effects.png)" in summary
    assert md.index("## 10. Stopping") < md.index("## Appendix: provenance") < md.index("golem sweep century ...")
    assert "start.seat1=YYYYY" in md and "table.start" not in md


def test_ranking_puts_the_largest_effect_first(seat_sweep):
    ranked = ranking(seat_sweep.effects)
    assert ranked["diff"].abs().is_monotonic_decreasing
    assert ranked.iloc[-1]["variant_name"] == "start.seat5=YY"


def test_the_report_takes_the_baseline_values_from_the_experiment_not_the_game(seat_sweep, tmp_path):
    """The experiment records the unchanged value of every swept setting; its report never loads the game."""
    values = settable_values(make("century"))
    assert seat_sweep.manifest["baseline_values"] == {
        "table.start.1": values["table.start.1"].convert(values["table.start.1"].value),
        "table.start.5": values["table.start.5"].convert(values["table.start.5"].value),
    }
    base = effects_with_values(seat_sweep).query("variant_name == 'baseline'")
    assert (base["start.seat1"] == seat_sweep.manifest["baseline_values"]["table.start.1"]).all()
    old = seat_sweep._replace(manifest={k: v for k, v in seat_sweep.manifest.items() if k != "baseline_values"})
    with pytest.raises(RunFormatError, match="baseline values"):
        build_experiment_report(old, tmp_path / "report")


def test_plots_draw_on_new_and_given_axes(seat_sweep):
    effects = effects_with_values(seat_sweep)
    assert plot_sweep(effects, "start.seat1", "seat1").get_xlabel() == "start.seat1"
    _, ax = plt.subplots()
    assert plot_effect_forest(seat_sweep.effects, "margin1", ax=ax) is ax
    one = seat_sweep.effects[seat_sweep.effects["variant_name"] == "start.seat1=YY"]
    assert plot_variant_effects(one, "points", ax=ax) is ax
    assert [t.get_text() for t in plot_variant_effects(one).get_yticklabels()] == ["seat 3", "seat 2", "seat 1"]
    evals = pd.DataFrame({"objective": [0.3, 0.2, 0.25], "num_changed": [0, 1, 2]})
    assert plot_tradeoff(evals).get_ylabel().startswith("objective")
    assert plot_search_history(evals, ax=ax) is ax


# --------------------------------------------------------------------------- searches


def test_search_finds_the_minimum_of_a_known_objective(tmp_path):
    dims = [Dimension("a", 0, tuple(range(6))), Dimension("b", "x", ("x", "y", "z"))]

    def evaluate(setting, run_dir):
        run_dir.mkdir(parents=True)
        return pd.DataFrame({"v": [abs(setting["a"] - 4) + (setting["b"] != "y")]})

    result = search(dims, evaluate, lambda q: float(q["v"].iloc[0]), tmp_path / "s", budget=18, seed=SEED)
    assert result.best == {"a": 4, "b": "y"} and result.best_objective == 0
    assert result.current_objective == 5
    assert len(result.evaluations) <= 18 and (tmp_path / "s" / "evaluations.csv").is_file()


def test_search_prefers_the_fewest_changes_among_equal_objectives(tmp_path):
    """A value that cannot matter (seat 5's crystals at 3 players) plays the same games: never part of the best."""
    dims = [Dimension("a", 0, tuple(range(4))), Dimension("b", "x", ("x", "y", "z"))]

    def evaluate(setting, run_dir):
        run_dir.mkdir(parents=True)
        return pd.DataFrame({"v": [abs(setting["a"] - 2)]})

    result = search(dims, evaluate, lambda q: float(q["v"].iloc[0]), tmp_path / "s", budget=12, seed=SEED)
    assert result.best == {"a": 2, "b": "x"}


def test_search_skips_settings_the_game_rejects(tmp_path):
    dims = [Dimension("a", 0, tuple(range(8)))]

    def evaluate(setting, run_dir):
        run_dir.mkdir(parents=True)
        return None if setting["a"] > 3 else pd.DataFrame({"v": [-setting["a"]]})

    result = search(dims, evaluate, lambda q: float(q["v"].iloc[0]), tmp_path / "s", budget=8, seed=SEED)
    assert result.best == {"a": 3}
    rejected = result.evaluations[result.evaluations["a"] > 3]
    assert (rejected["objective"] == INFEASIBLE).all()


def test_balance_dimensions_derive_candidates_from_the_data(century_values):
    dims = {d.name: d for d in balance_dimensions(century_values, ["start.seat1", "copper_vp", "points.P36.vp"])}
    assert set(dims["table.start.1"].choices) == {"YYY", "YYYY", "YYYG"}
    assert dims["table.copper_vp"].choices == (1, 2, 3, 4, 5)
    assert dims["point_cards.P36.vp"].choices == tuple(str(v) for v in range(10, 31))
    given = balance_dimensions(century_values, ["start.seat1=YYY,YYYYY"])
    assert given[0].choices == ("YYY", "YYYYY")


def test_balance_dimensions_leave_out_values_without_effect_at_the_player_count(century_values):
    at3 = [d.name for d in balance_dimensions(century_values, ["start.*", "end_trigger.*"], num_players=3)]
    assert at3 == ["table.start.1", "table.start.2", "table.start.3", "table.end_trigger.2"]
    at5 = [d.name for d in balance_dimensions(century_values, ["start.*"], num_players=5)]
    assert at5 == [f"table.start.{k}" for k in range(1, 6)]
    with pytest.raises(ExperimentError, match="start.seat4: has no effect at 3 players"):
        balance_dimensions(century_values, ["start.seat4"], num_players=3)


def test_list_elements_are_named_by_what_they_are_indexed_by(century_values):
    assert resolve_value(century_values, "end_trigger.players3").name == "table.end_trigger.2"
    assert resolve_value(century_values, "end_trigger.players3").applies_at(3)
    assert not resolve_value(century_values, "end_trigger.players3").applies_at(4)
    assert resolve_value(century_values, "start.seat4").applies_at(4)
    assert not resolve_value(century_values, "start.seat4").applies_at(3)
    assert resolve_value(century_values, "crystal_vp.2").applies_at(2)  # a list not by seat: every game
    with pytest.raises(VariantError, match="unknown value 'end_trigger.seat1'"):
        resolve_value(century_values, "end_trigger.seat1")


def test_objective_and_tune_dimensions():
    q = pd.DataFrame({"seat1": [1.0, 0.0], "seat2": [0.0, 1.0], "margin1": [2.0, -2.0], "margin2": [-2.0, 2.0]})
    fair, _ = objective_function("seat-advantage", 2, ["greedy"])
    assert fair(q) == pytest.approx(0.0)
    seat1, _ = objective_function("seat1=0.25", 2, ["greedy"])
    assert seat1(q) == pytest.approx(0.25)
    with pytest.raises(ExperimentError, match="unknown target"):
        objective_function("seat7=0.3", 2, ["greedy"])
    dims = tune_dimensions(make("century").info.bots["greedy"].params, ["patience"], {"patience": "0:3"})
    assert dims[0].bounds == (0.0, 3.0)
    with pytest.raises(ExperimentError, match="did you mean patience"):
        tune_dimensions(make("century").info.bots["greedy"].params, ["patiense"])
    planner = make("century").info.bots["planner"]
    dims = tune_dimensions(planner.params, ["discount", "horizon"], None, planner.limits)
    assert [d.bounds for d in dims] == [(0.0, 1.0), (1.0, 8.0)]  # 0..2x default, clipped to the limits
    with pytest.raises(ExperimentError, match="accepts 0..1"):
        tune_dimensions(planner.params, ["discount"], {"discount": "0.5:1.5"}, planner.limits)


# --------------------------------------------------------------------------- command line


def _invoke(args):
    return CliRunner().invoke(main, args, catch_exceptions=False)


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["sweep", "century", "-p", "3", "--bots", "greedy", "--set", "points.P36.vpp=18"],
            "did you mean points.P36.vp",
        ),
        (["ablate", "century", "-p", "3", "--bots", "greedy", "--remove", "M99"], "unknown component 'M99'"),
        (
            ["sweep", "century", "-p", "3", "--bots", "greedy", "--set", "tie_break=shared", "--test", "seat1 >"],
            "--test",
        ),
        (["sweep", "centuri", "-p", "3", "--bots", "greedy", "--set", "tie_break=shared"], "did you mean century"),
        (["sweep", "century", "-p", "7", "--bots", "greedy", "--set", "tie_break=shared"], "2-5 players"),
        (["balance", "century", "-p", "3", "--bots", "greedy", "--vary", "start.*", "--target", "x"], "unknown target"),
        (["tune", "century", "-p", "3", "--bot", "greedyy"], "did you mean greedy"),
    ],
)
def test_bad_input_is_a_one_line_error(tmp_path, args, message):
    result = _invoke([*args, "--out", str(tmp_path / "x")])
    assert result.exit_code == 1, result.output
    assert message in result.output and len(result.output.strip().splitlines()) == 1, result.output


def test_cli_ablate_writes_experiment_and_report(tmp_path):
    out = tmp_path / "abl"
    args = [
        "ablate",
        "century",
        "-p",
        "2",
        "--bots",
        "greedy",
        "--remove",
        "M09",
        "-n",
        "400",
        "-w",
        "1",
        "-o",
        str(out),
    ]
    result = _invoke(args)
    assert result.exit_code == 0, result.output
    m = json.loads((out / "experiment.json").read_text())
    assert m["command"].startswith("golem ablate century --remove M09")
    assert (out / "report" / "report.html").is_file() and (out / "report" / "effects.png").is_file()
    again = _invoke(args)
    assert again.exit_code == 1 and "--overwrite" in again.output


def test_cli_values_lists_names_and_aliases():
    result = _invoke(["values", "century", "--pattern", "start.*"])
    assert result.exit_code == 0
    assert "table.start.1 = 'YYY'  (also start.1, start.seat1" in result.output


def test_cli_balance_and_tune_small(tmp_path):
    result = _invoke(
        ["balance", "golem-poker", "-p", "3", "--bots", "threshold", "--vary", "player_tie", "--target", "seat1=fair",
         "-n", "600", "--budget", "3", "--confirm-games", "600", "-w", "1", "-q", "-o", str(tmp_path / "bal"),
         "--report", str(tmp_path / "bal-report")]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    evals = pd.read_csv(tmp_path / "bal" / "search" / "evaluations.csv")
    assert set(evals["rules.player_tie"]) == {"split", "amulet"}
    assert (tmp_path / "bal-report" / "report.html").is_file() and not (tmp_path / "bal" / "report").exists()
    result = _invoke(
        ["tune", "century", "-p", "2", "--bot", "greedy", "--param", "patience", "-n", "300", "--budget", "3",
         "--confirm-games", "300", "-w", "1", "-q", "-o", str(tmp_path / "tune")]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    tuned = tmp_path / "tune" / "tuned.bot"
    entry = parse_bot(make("century"), f"@{tuned}")
    assert entry.bot == "greedy" and "patience" in entry.label
    md = (tmp_path / "tune" / "report" / "report.md").read_text()
    assert "skill levels" in md
    summary = md[md.index("## Summary") : md.index("## Contents")]
    # the first screen names the players for people; the spec is in the appendix and the section's code line
    assert re.search(r"Tuned greedy heuristic \(patience=[\d.]+\) wins [\d.]+% of its seats against greedy "
                     r"heuristic in the other seat instead of", summary), summary  # fmt: skip
    assert "| greedy heuristic | greedy |" in md
    assert read_manifest(tmp_path / "tune" / "confirm" / "mirror-tuned")["lineup"][0]["label"] == entry.label


def test_cli_balance_confirms_the_fix_at_other_skill_levels(tmp_path):
    out = tmp_path / "bal"
    args = ["balance", "century", "-p", "3", "--bots", "greedy", "--vary", "start.seat3=YYYY,YYYYY", "--target",
            "seat3=fair", "-n", "600", "--budget", "2", "--confirm-games", "600", "-w", "1", "-q",
            "-o", str(out)]  # fmt: skip
    bad = _invoke([*args, "--ladder", "--levels", "engine"])
    assert bad.exit_code != 0 and "--ladder or --levels" in bad.output and not out.exists()
    bad = _invoke([*args[:9], "greedy=0.4", *args[10:], "--levels", "engine"])
    assert bad.exit_code != 0 and "at level engine" in bad.output and not out.exists()
    assert len(bad.output.strip().splitlines()) == 1
    result = _invoke([*args, "--levels", "engine,greedy"])
    assert result.exit_code == 0, result.output
    report = (out / "report" / "report.md").read_text()
    section = report[report.index("## 3. The fix at every skill level") :].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith(("| greedy", "| engine"))]
    assert [r.split(" | ")[0] for r in rows] == ["| greedy", "| engine"]  # the search's own lineup first
    assert (out / "levels" / "engine" / "experiment.json").is_file() and not (out / "levels" / "greedy").exists()
    summary = report[report.index("## Summary") : report.index("## Findings")]
    assert "The fix (" in summary or "Whether the fix (" in summary
    assert "greedy heuristic" in summary or "engine-building heuristic" in summary  # players in words


def test_fix_levels_verdicts_and_the_games_that_would_settle_them():
    from analysis.report.search import fix_levels_items

    def rows(*changes):
        return pd.DataFrame(
            [{"rung": f"r{k}", "num_games": 1000, "before": 0.05, "after": 0.05 + d, "diff": d, "low": lo, "high": hi}
             for k, (d, lo, hi) in enumerate(changes)]
        )  # fmt: skip

    unit = (100.0, "pp")
    _, better = fix_levels_items(rows((-0.03, -0.04, -0.02), (-0.02, -0.03, -0.01)), "x=1", "rms", unit, 0.05, 0.02)
    assert better.startswith("The fix (x=1) improves it at every skill level")
    _, changes = fix_levels_items(rows((-0.03, -0.04, -0.02), (0.03, 0.02, 0.04)), "x=1", "rms", unit, 0.05, 0.02)
    assert "changes with skill" in changes
    items, open_ = fix_levels_items(rows((-0.03, -0.04, -0.02), (0.01, -0.02, 0.04)), "x=1", "rms", unit, 0.05, 0.02)
    # a change of +1 pp +- 3 pp: detected at (3 / 1)^2 x 1000 games, settled within 2 pp at (3 / 1)^2 x 1000: 8,000 more
    assert "unresolved" in open_ and "r1 (8,000 more games)" in open_
    assert any("unresolved: 8,000 more games" in cell for cell in items[1].rows[1])


def test_play_effects_find_a_planted_change_in_one_mechanism_only():
    from analysis.stats.paired import play_effects

    rng = np.random.default_rng(9)
    games = pd.RangeIndex(0, 3000, name="game")
    base = pd.DataFrame({"trades": rng.poisson(12, len(games)), "rests": rng.poisson(30, len(games))}, index=games)
    more_trades = base.assign(trades=base["trades"] + rng.integers(0, 3, len(games)))  # one more trade a game
    out = play_effects({"baseline": base.astype(float), "v": more_trades.astype(float)}, "baseline")
    out = out.set_index("quantity")
    assert out.loc["trades", "significant"] and out.loc["trades", "adj_low"] > 0.9 > 0
    assert not out.loc["rests", "significant"] and out.loc["rests", "diff"] == 0
    assert out.loc["trades", "subject"] == "trades a game"


def test_gain_levels_verdicts_read_a_higher_win_share_as_better():
    from analysis.report.search import gain_levels_items

    def rows(*changes):
        return pd.DataFrame(
            [{"rung": f"r{k}", "num_games": 1000, "before": 0.5, "after": 0.5 + d, "diff": d, "low": lo, "high": hi}
             for k, (d, lo, hi) in enumerate(changes)]
        )  # fmt: skip

    items, gains = gain_levels_items(rows((0.05, 0.03, 0.07), (0.03, 0.01, 0.05)), "greedy:patience=2", 0.05)
    assert gains.startswith("The tuned bot gains at every skill level") and "against r1 +3.00 pp" in gains
    assert [row[-1] for row in items[1].rows] == ["better", "better"]
    _, loses = gain_levels_items(rows((-0.05, -0.07, -0.03), (-0.03, -0.05, -0.01)), "g", 0.05)
    assert loses.startswith("The tuned bot loses at every skill level")
    _, changes = gain_levels_items(rows((0.05, 0.03, 0.07), (0.0, -0.01, 0.01)), "g", 0.05)
    assert "changes with its opponents' skill" in changes
    _, open_ = gain_levels_items(rows((0.05, 0.03, 0.07), (0.01, -0.02, 0.04)), "g", 0.05)
    assert "unresolved" in open_ and "against r1 (8,000 more games)" in open_


def test_cli_tune_measures_the_gain_at_other_skill_levels(tmp_path):
    out = tmp_path / "tune"
    args = ["tune", "century", "-p", "2", "--bot", "greedy", "--param", "patience", "--field", "engine", "-n", "300",
            "--budget", "2", "--confirm-games", "300", "-w", "1", "-q", "-o", str(out)]  # fmt: skip
    bad = _invoke([*args, "--ladder", "--levels", "engine"])
    assert bad.exit_code != 0 and "--ladder or --levels" in bad.output and not out.exists()
    bad = _invoke([*args, "--levels", "engine,nobody"])
    assert bad.exit_code != 0 and "nobody" in bad.output and not out.exists()
    assert len(bad.output.strip().splitlines()) == 1
    result = _invoke([*args, "--levels", "planner,engine"])
    assert result.exit_code == 0, result.output
    report = (out / "report" / "report.md").read_text()
    section = report[report.index("## 3. The tuned bot at every skill level") : report.index("## 4.")]
    rows = [line.split(" | ")[0] for line in section.splitlines() if line.startswith("| ") and "fresh" not in line]
    assert rows == ["| engine", "| planner"]  # the tuning's own field first, measured once
    assert (out / "levels" / "planner" / "tuned").is_dir() and not (out / "levels" / "engine").exists()


def test_length_effects_find_a_planted_change_and_adjust_over_the_variants():
    from analysis.stats.paired import length_effects

    rng = np.random.default_rng(5)
    games = pd.RangeIndex(0, 4000, name="game")
    rounds = rng.integers(30, 50, size=len(games)).astype(float)
    base = pd.DataFrame({"rounds": rounds, "turns": 3 * rounds}, index=games)
    longer = base + rng.integers(0, 3, size=(len(games), 1))  # one more round a game on average, same games
    same = base + rng.integers(-1, 2, size=(len(games), 1))  # no change on average
    out = length_effects({"baseline": base, "longer": longer, "same": same}, "baseline").set_index(
        ["variant_name", "quantity"]
    )
    assert out.loc[("longer", "rounds"), "significant"] and out.loc[("longer", "rounds"), "adj_low"] > 0.9
    assert out.loc[("longer", "rounds"), "adj_high"] < 1.1
    assert not out.loc[("same", "rounds"), "significant"]
    assert out.loc[("same", "rounds"), "adj_low"] < 0 < out.loc[("same", "rounds"), "adj_high"]
    # Holm over the four tests: the adjusted interval is wider than the plain one
    row = out.loc[("same", "turns")]
    assert row["adj_high"] - row["adj_low"] > row["ci_high"] - row["ci_low"]


def test_a_sweep_measures_length_in_the_games_own_word(tmp_path):
    result = _invoke(
        ["sweep", "golem-poker", "--set", "max_discards=1", "-p", "3", "--bots", "threshold", "-n", "300", "-w", "1",
         "-q", "-o", str(tmp_path / "sweep"), "--report", str(tmp_path / "report")]
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    md = (tmp_path / "report" / "report.md").read_text()
    assert "| max_discards=1 | deals a game |" in md and "rounds a game" not in md  # poker's rounds are its deals
    assert re.search(r"shortens the game: -[\d.]+ \(-[\d.]+ to -[\d.]+\) deals\.", md)  # a discard fewer: sooner
    summary = md[md.index("## Summary") : md.index("## Findings")]
    # a game played for chips leads with chips, and names its player once
    assert re.search(r"score margin, is [+-][\d.]+ chips \([+-][\d.]+ to [+-][\d.]+\)\.", summary), summary
    assert "skill of hand-strength threshold player (rung 2 of 6 of the game's skill ladder)" in summary
    assert "Variants ranked by their largest effect on any seat's score margin (chips)." in md


def test_skill_head_names_people_and_says_which_of_a_lineup_are_off_the_ladder():
    ladder, names = ["random", "threshold", "equity"], {"threshold": "hand-strength threshold player", "tag": "TAG"}
    assert skill_head(ladder, names, ["threshold"]) == (
        "Measured at the skill of hand-strength threshold player (rung 2 of 3 of the game's skill ladder)"
    )
    assert skill_head(ladder, names, ["threshold", "tag", "bluffer"]) == (
        "Measured at the skill of hand-strength threshold player (rung 2 of 3 of the game's skill ladder), "
        "with TAG and bluffer (not on the ladder)"
    )
    both = skill_head(ladder, names, ["equity", "threshold"])
    assert both.endswith("(rung 3 of 3 of the game's skill ladder) and hand-strength threshold player (rung 2 of 3)")


def _judged(name: str, significant: bool) -> tuple[str, SimpleNamespace]:
    table = pd.DataFrame({"seat": [1, 2], "win_rate": [0.56, 0.44], "fair": [0.5, 0.5], "excess": [0.06, -0.06],
                          "ci_low": [0.52, 0.40], "ci_high": [0.60, 0.48]})  # fmt: skip
    return name, SimpleNamespace(table=table, tests=pd.DataFrame({"significant": [significant]}))


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ((False, False), "No seat advantage is detected in the baseline (the farthest from even: seat 1 wins "
                         "56.0% (52.0–60.0%), fair 50.0%); nor in 1 of 1 variants: v1"),
        ((False, True), "No seat advantage is detected in the baseline (the farthest from even: seat 1 wins "
                        "56.0% (52.0–60.0%), fair 50.0%); v1 leaves a seat advantage"),
        ((True, True), "Not the baseline: seat 1 wins 56.0% (52.0–60.0%) where a fair share is 50.0%; nor is v1"),
        ((True, False), "Not the baseline: seat 1 wins 56.0% (52.0–60.0%) where a fair share is 50.0%; no seat "
                        "advantage is detected in 1 of 1 variants: v1"),
        ((True, True, True), "where a fair share is 50.0%; every one of the 2 variants leaves a seat advantage"),
    ],
)  # fmt: skip
def test_fairness_answer_reads_right_whichever_side_the_baseline_is_on(flags, expected):
    judged = [_judged("baseline" if i == 0 else f"v{i}", flag) for i, flag in enumerate(flags)]
    answer = _fairness_answer(judged)
    assert answer.startswith("Fair to every seat? ") and expected in answer, answer


def _effects(rows: list[tuple[str, str, str, float, bool]]) -> pd.DataFrame:
    """Effects of (variant, quantity, unit, diff, significant) rows, with intervals that agree with significance."""
    out = []
    for variant, quantity, unit, diff, significant in rows:
        half = abs(diff) / 2 if significant else abs(diff) * 2
        low, high = diff - half, diff + half
        out.append({"variant_name": variant, "quantity": quantity, "unit": unit, "diff": diff,
                    "significant": significant, "ci_low": low, "ci_high": high, "adj_low": low, "adj_high": high,
                    "baseline": 0.25 if unit == "rate" else 1.0,
                    "pvalue_adj": 0.01 if significant else 0.5})  # fmt: skip
    frame = pd.DataFrame(out)
    frame["variant"] = frame["baseline"] + frame["diff"]
    return frame


def test_a_game_played_for_chips_answers_in_chips_and_never_denies_a_win_rate_that_moved():
    """The poker sweep read 'No change moves any of the 12 measures compared detectably' (its margins did not
    move) while a variant moved a win rate by 2.7 pp; a margin that moves leads in the game's unit."""
    effects = _effects([("v1", "margin1", "points", 3.0, False), ("v2", "margin1", "points", -1.0, False),
                        ("v1", "tag", "rate", 0.004, False), ("v2", "tag", "rate", -0.027, True)])  # fmt: skip
    answers = _effect_answers(SimpleNamespace(effects=effects), "points", "chips")
    assert answers[0] == (
        "No change moves a seat's score margin detectably: the largest, v1 on seat 1's score margin, is +3.00 chips "
        "(-3.00 to +9.00)."
    )
    assert answers[1].startswith("Most influential change on a win rate: v2 lowers tag's win rate from 25.0% to 22.3%")
    assert answers[2].startswith("1 of 2 variants move at least one of the 2 measures compared") and "v1." in answers[2]
    moved = _effects([("v1", "margin1", "points", 3.0, True), ("v1", "tag", "rate", 0.004, False)])
    assert _effect_answers(SimpleNamespace(effects=moved), "points", "chips")[0] == (
        "Most influential change: v1 raises seat 1's score margin from +1.0 to +4.0 chips (+3.00 chips, +1.50 to "
        "+4.50)."
    )
    # the overview plots what moved: the win rate, in pp, where the chips did not move
    assert _overview_quantity(effects, "points", ranking(effects, "points"), "chips") == ("tag", "pp")
    assert _overview_quantity(moved, "points", ranking(moved, "points"), "chips") == ("margin1", "chips")
    many = pd.concat([effects.assign(quantity=f"{q}{k}", metric=m) for k in range(4)
                      for q, m in (("seat", "seat win rate"), ("margin", "seat score margin"))])  # fmt: skip
    assert _compared(many) == "the 8 measures compared (every seat's win rate and every seat's score margin)"
    still = _effects([("v1", "seat1", "rate", 0.01, False), ("v1", "margin1", "points", 2.0, False)])
    assert _effect_answers(SimpleNamespace(effects=still), "rate", "points")[0].startswith(
        "No change moves any of the 2 measures compared (seat 1's win rate, seat 1's score margin) detectably: the "
        "largest, v1 on seat 1's win rate, is +1.0 pp"
    )


def test_the_strongest_seat_is_named_only_when_it_is_ahead_as_printed():
    assert _strongest(pd.DataFrame({"seat": [1, 2], "win_rate": [0.5, 0.5]})) == "no seat ahead"
    assert _strongest(pd.DataFrame({"seat": [1, 2], "win_rate": [0.50001, 0.49999]})) == "no seat ahead"
    assert _strongest(pd.DataFrame({"seat": [1, 2, 3], "win_rate": [0.3, 0.37, 0.33]})) == "seat 2 strongest"


def test_the_overview_title_names_a_player_as_the_summary_does():
    effects = _effects([("v1", "tight_aggressive", "rate", 0.02, True)]).assign(subject="tight_aggressive")
    fig, ax = plt.subplots()
    _overview_forest(effects, "tight_aggressive", ax, "pp", {"tight_aggressive": "tight aggressive player"})
    assert ax.get_title() == "Change in tight aggressive player's win rate"
    assert ax.get_xlabel().startswith("change (pp)")
    plt.close(fig)
