"""The skill ladder: seat 1's excess win rate per rung on synthetic mirror matches with a known seat effect."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from analysis.plots import plot_ladder_seats, plot_skill_ladder
from analysis.report.profile import fair_at_strong_play
from analysis.stats.ladder import (
    CHANGES,
    HOLDS,
    UNRESOLVED,
    VERDICT_CLASSES,
    ladder_answers,
    ladder_seats,
    ladder_verdicts,
    pair_games,
    rung_order,
    separation_games,
    skill_ladder,
    strong_play,
)
from analysis.stats.strategies import bradley_terry, head_to_head
from simulate.orchestration.studies import (
    STRONG_PURPOSE,
    STUDIES,
    PlannedRun,
    _ladder_runs,
    _skill_luck_runs,
    free_topup,
    measured_strong,
    outcome_precision,
    plan_study,
    precision_targets,
    precision_unit,
    separation_topup,
    strong_rungs,
    topup_games,
)
from simulate.registry import make

SEED = 20261201
RUNGS = ("random", "greedy", "planner")


def _mirrors(first_win: dict[tuple[int, str], float], games: int = 20_000) -> pd.DataFrame:
    """Mirror matches where seat 1 wins with the given chance and the other seats share the rest evenly."""
    rng = np.random.default_rng(SEED)
    frames = []
    for (n, bot), p in first_win.items():
        winner = np.where(rng.random(games) < p, 0, 1 + rng.integers(0, n - 1, games))
        seat = np.tile(np.arange(1, n + 1), games)
        win = (np.repeat(winner, n) == seat - 1).astype(np.float32)
        frames.append(pd.DataFrame({"num_players": n, "seat": seat, "bot": bot, "win": win}))
    return pd.concat(frames, ignore_index=True)


def test_ladder_recovers_the_seat_effect_of_each_rung() -> None:
    truth = {(2, "random"): 0.50, (2, "greedy"): 0.45, (2, "planner"): 0.44, (3, "greedy"): 0.30, (3, "planner"): 1 / 3}
    ladder = skill_ladder(_mirrors(truth), RUNGS)
    assert ladder[["num_players", "bot"]].values.tolist() == [
        [2, "random"],
        [2, "greedy"],
        [2, "planner"],
        [3, "greedy"],
        [3, "planner"],
    ]
    for row in ladder.itertuples():
        expected = truth[(row.num_players, row.bot)] - 1 / row.num_players
        assert row.excess_low < expected < row.excess_high
        assert row.excess == pytest.approx(expected, abs=0.015)
    assert ladder["rung"].tolist() == [0, 1, 2, 1, 2]


def test_verdicts_say_whether_the_effect_holds_up_the_ladder() -> None:
    holds = {(2, "greedy"): 0.40, (2, "planner"): 0.45}
    fades = {(3, "random"): 0.20, (3, "planner"): 1 / 3}
    shrinks = {(4, "random"): 0.10, (4, "greedy"): 0.25, (4, "planner"): 0.22}
    verdicts = ladder_verdicts(skill_ladder(_mirrors({**holds, **fades, **shrinks}), RUNGS))
    assert len(verdicts) == 3
    assert verdicts[0].startswith("2 players") and "deficit holds at every skill level" in verdicts[0]
    assert verdicts[1].startswith("3 players") and "no seat-1 effect is detected at the strongest rung" in verdicts[1]
    assert verdicts[2].startswith("4 players") and "deficit shrinks from -1" in verdicts[2]
    assert "to -3." in verdicts[2]
    # one rung is no ladder
    assert ladder_verdicts(skill_ladder(_mirrors({(2, "greedy"): 0.4}), RUNGS)) == []


def test_other_bots_are_left_out_and_columns_checked() -> None:
    seats = _mirrors({(2, "engine"): 0.5, (2, "greedy"): 0.4})
    assert skill_ladder(seats, RUNGS)["bot"].tolist() == ["greedy"]
    assert skill_ladder(seats, ("nobody",)).empty
    with pytest.raises(ValueError, match="seat"):
        skill_ladder(seats.drop(columns="seat"), RUNGS)


def test_plot_skill_ladder_draws_one_line_per_player_count() -> None:
    ladder = skill_ladder(_mirrors({(2, "random"): 0.5, (2, "planner"): 0.45, (3, "planner"): 0.3}), RUNGS)
    ax = plot_skill_ladder(ladder)
    assert len(ax.get_legend().get_texts()) == 2
    assert [t.get_text() for t in ax.get_xticklabels()] == ["random", "planner"]


@pytest.mark.parametrize("game", list(STUDIES))
def test_every_study_plays_its_ladder_in_mirror_matches_within_its_games(game: str) -> None:
    study = STUDIES[game]
    rungs = _ladder_runs(study)
    assert rungs and all(len(r.bots) == 1 for r in rungs)
    extremes = _skill_luck_runs(study)  # the two strongest cheap rungs, neighbours on the ladder
    cheap = [bot for bot in make(game).info.skill_ladder if bot.split(":")[0] != "search"]
    assert len(extremes) == 1 and set(extremes[0].bots) == set(cheap[-2:])
    assert sum(r.share for r in (*study.runs, *rungs, *extremes)) == pytest.approx(1.0, abs=0.01)
    plan = plan_study(game, num_games=100_000, runs_dir="unused")
    names = {p.name for p in plan}
    assert {r.name for r in rungs} <= names and len(names) == len(plan)
    # the card-value design, the round robin of the strong rungs and the style pairs come on top
    value = [p for p in plan if p.purpose.startswith(("card value", STRONG_PURPOSE, "strategy styles"))]
    assert sum(p.spec.num_games for p in plan if p not in value) == pytest.approx(100_000, rel=0.02)


# --- every seat at every rung, one verdict per player count -------------------------------------


def test_rungs_are_ordered_by_measured_strength_where_rated_and_say_so() -> None:
    ratings = pd.DataFrame({"bot": ["planner", "greedy", "engine"], "rating": [0.5, 0.1, -0.6]})
    order = rung_order(("random", "greedy", "engine", "planner", "search"), ratings)
    assert order["bot"].tolist() == ["random", "engine", "greedy", "planner", "search"]
    assert order["basis"].tolist() == ["declared", "measured", "measured", "measured", "declared"]
    assert rung_order(RUNGS)["basis"].eq("declared").all()
    assert rung_order(RUNGS, ratings.iloc[:1])["bot"].tolist() == list(RUNGS), "one rating orders nothing"


def test_every_seat_at_every_rung_recovers_the_truth() -> None:
    truth = {(3, "greedy"): 0.40, (3, "planner"): 0.30}
    table = ladder_seats(_mirrors(truth), RUNGS)
    assert table[["bot", "seat"]].values.tolist() == [[b, s] for b in ("greedy", "planner") for s in (1, 2, 3)]
    for r in table.itertuples():
        p1 = truth[(3, r.bot)]
        expected = (p1 if r.seat == 1 else (1 - p1) / 2) - 1 / 3
        assert r.excess_low < expected < r.excess_high


def test_the_answer_holds_changes_or_stays_unresolved_from_a_fixed_vocabulary() -> None:
    truth = {
        (2, "random"): 0.55,
        (2, "greedy"): 0.55,
        (2, "planner"): 0.55,  # the same at every rung
        (3, "random"): 1 / 3,
        (3, "greedy"): 0.40,
        (3, "planner"): 0.40,  # strong rungs agree, the weakest differs
        (4, "greedy"): 0.25,
        (4, "planner"): 0.35,  # the two strongest disagree
    }
    answers = ladder_answers(ladder_seats(_mirrors(truth), RUNGS)).set_index("num_players")
    assert set(answers["verdict"]) <= set(VERDICT_CLASSES)
    assert answers.at[2, "verdict"] == HOLDS
    assert answers.at[2, "seat1_excess"] == pytest.approx(0.05, abs=0.01)
    assert answers.at[2, "strongest"] == "planner and greedy", "agreeing strong rungs are pooled"
    assert answers.at[3, "verdict"] == CHANGES and answers.at[3, "changed_at"] == ["random"]
    assert answers.at[3, "seat"] == 1 and answers.at[3, "excess"] == pytest.approx(0.0667, abs=0.01)
    assert answers.at[4, "verdict"] == UNRESOLVED and "disagree" in answers.at[4, "reason"]


def test_a_small_strong_rung_is_unresolved_never_no_difference_and_says_how_many_games_settle_it() -> None:
    """300 games a rung leave intervals of about ±5 pp: no answer, and about 2,000 more games would give ±2 pp."""
    answers = ladder_answers(ladder_seats(_mirrors({(2, "greedy"): 0.5, (2, "planner"): 0.5}, games=300), RUNGS))
    row = answers.iloc[0]
    assert row.verdict == UNRESOLVED and "wider than ±2 pp" in row.reason
    assert not row.detected
    half = row.half_width
    assert 0.02 < half < 0.07
    assert 1_000 < row.more_games < 4_000
    one = ladder_answers(ladder_seats(_mirrors({(2, "planner"): 0.5}), RUNGS)).iloc[0]
    assert one.verdict == UNRESOLVED and one.reason.startswith("only planner was played")


def test_plot_ladder_seats_draws_every_seat_and_shades_the_strong_rungs() -> None:
    table = ladder_seats(_mirrors({(3, "random"): 0.3, (3, "greedy"): 0.4, (3, "planner"): 0.4}), RUNGS)
    ax = plot_ladder_seats(table, num_players=3, strongest=["planner", "greedy"])
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["seat 1", "seat 2", "seat 3"]
    assert [t.get_text() for t in ax.get_xticklabels()] == list(RUNGS)
    assert len(ax.patches) == 2, "the two strong-play rungs are shaded"


def test_a_game_measured_in_chips_answers_its_seats_in_chips() -> None:
    """golem-poker's outcome is net chips: seat 1 nets +6 chips a game against the others' mean, known by design."""
    rng = np.random.default_rng(SEED)
    games, n = 6_000, 3
    noise = rng.normal(0, 30, (games, n))
    score = noise - noise.mean(axis=1, keepdims=True) + np.array([4.0, -2.0, -2.0])  # margin of seat 1: 4 + 2 = +6
    seats = pd.DataFrame(
        {
            "game": np.repeat(np.arange(games), n),
            "num_players": n,
            "seat": np.tile(np.arange(1, n + 1), games),
            "bot": "planner",
            "score": score.ravel(),
            "win": 0.0,
        }
    )
    table = ladder_seats(seats, RUNGS, outcome="score")
    first = table[table["seat"] == 1].iloc[0]
    assert first.fair == 0 and first.excess_low < 6.0 < first.excess_high
    assert first.excess == pytest.approx(6.0, abs=1.5)
    answer = ladder_answers(table, precision=10.0).iloc[0]
    assert answer.seat == 1 and answer.verdict == UNRESOLVED and answer.reason.startswith("only planner")
    with pytest.raises(ValueError, match="outcome"):
        ladder_seats(seats, RUNGS, outcome="chips")


def test_the_seat_one_line_of_a_game_in_chips_speaks_chips() -> None:
    """Seat 1 nets -12 chips a game at the weakest rung and +6 at the strongest (planted): the ladder line reads them
    in chips against the other seats, never in pp."""
    rng = np.random.default_rng(SEED + 2)
    games, n = 6_000, 3
    frames = []
    for k, (bot, edge) in enumerate((("random", -12.0), ("planner", 6.0))):
        noise = rng.normal(0, 30, (games, n))
        score = noise - noise.mean(axis=1, keepdims=True) + np.array([edge, -edge, 0.0]) * 2 / 3
        frames.append(
            pd.DataFrame(
                {
                    "game": np.repeat(np.arange(games) + k * games, n),
                    "num_players": n,
                    "seat": np.tile(np.arange(1, n + 1), games),
                    "bot": bot,
                    "score": score.ravel(),
                    "win": 0.0,
                }
            )
        )
    table = ladder_seats(pd.concat(frames, ignore_index=True), RUNGS, outcome="score")
    (line,) = ladder_verdicts(table[table["seat"] == 1].reset_index(drop=True), "chips")
    assert line.startswith("3 players, seat 1 (rungs random to planner)")
    assert "pp" not in line and "chips" in line
    assert "-12." in line or "-11." in line or "-13." in line
    assert "holds" not in line  # the sign flips up the ladder


def test_a_study_of_a_game_in_chips_tops_up_in_chips() -> None:
    """golem-poker's answer is settled within its outcome_precision (chips): its top-up targets are the same parts of
    it as a race game's are of ±2 pp; a study's top-up reads the t interval of net chips (not a win share)."""
    poker = make("golem-poker")
    assert outcome_precision("golem-poker", STUDIES["golem-poker"].search_precision) == poker.info.outcome_precision
    assert outcome_precision("golem-poker", STUDIES["golem-poker"].cheap_precision) == poker.info.outcome_precision / 2
    assert outcome_precision("century", 0.01) == 0.01
    assert precision_unit("golem-poker") == (1.0, "chips") and precision_unit("century") == (100.0, "pp")
    targets = precision_targets("golem-poker", plan_study("golem-poker"))
    assert targets and {t.precision for t in targets} <= {
        poker.info.outcome_precision,
        poker.info.outcome_precision / 2,
    }


# --- a study plays its ladder to a precision ------------------------------------------------------


def test_the_study_tops_up_strong_play_and_the_strongest_cheap_rung_at_every_ladder_count() -> None:
    planned = plan_study("century", 1_000_000)
    strong = ["search:leaf=1:iterations=80", "search", "search:iterations=50"]
    targets = precision_targets("century", planned, strong)
    got = {(t.num_players, t.bot): t.precision for t in targets}
    ladder = list(make("century").info.skill_ladder)
    for n in (2, 3, 4):
        mirrors = {
            p.spec.lineup[0].label
            for p in planned
            if p.spec.num_players == n and len({e.label for e in p.spec.lineup}) == 1
        }
        cheap = [b for b in ladder if b.split(":")[0] != "search" and b in mirrors][-1]  # planner, or the apprentice
        assert got[(n, cheap)] == 0.01, "the strongest non-search rung: ±1 pp"
        assert got[(n, "search")] == got[(n, "search:iterations=50")] == 0.02, "strong play: ±2 pp"
    assert {n for n, _ in got} == {2, 3, 4}, "only where the study plays strong play"
    assert all(len(t.runs) == 1 and t.runs[0].spec.games_per_setup == 1 for t in targets)
    below = precision_targets("century", planned, ["apprentice"])
    assert {t.bot for t in below} == {"apprentice"}, "a search rung measurably below the top is not topped up"
    assert {t.precision for t in below} == {0.01}, "the apprentice on top: ±1 pp, its cheap target"


def test_the_study_measures_strong_play_from_its_round_robin_not_the_declared_order(tmp_path: Path) -> None:
    """Century's round robin of planted strengths (the apprentice far ahead of both search rungs, which are equal):
    strong play is the apprentice alone, so the study tops up no search rung; with the three equal it is all three."""
    robin = [p for p in plan_study("century", 100_000) if p.purpose.startswith(STRONG_PURPOSE)]
    pairs = [p for p in robin if p.spec.num_players == 2]

    def plant(strength: dict[str, float], where: Path) -> list:
        runs = []
        for k, p in enumerate(pairs):
            a, b = (e.label for e in p.spec.lineup)
            seats = _round_robin({a: strength[a], b: strength[b]}, 2_000, SEED + 10 + k)
            seats["bot"] = seats["bot"].astype(str)
            seats["score"] = 0.0
            (where / f"r{k}" / "seats").mkdir(parents=True)
            seats.to_parquet(where / f"r{k}" / "seats" / "part-0.parquet")
            runs.append(p._replace(out=where / f"r{k}"))
        return runs

    far = plant({"apprentice": 1.0, "search": 0.0, "search:leaf=1:iterations=80": 0.0}, tmp_path / "far")
    assert measured_strong("century", far) == ["apprentice"]
    even = plant({"apprentice": 0.0, "search": 0.0, "search:leaf=1:iterations=80": 0.0}, tmp_path / "even")
    assert set(measured_strong("century", even)) == {"apprentice", "search", "search:leaf=1:iterations=80"}
    assert measured_strong("century", []) == ["search:leaf=1:iterations=80", "search"], "no round robin: declared"


def test_top_up_games_follow_one_over_root_n_with_a_margin_within_the_budget() -> None:
    assert topup_games(300, 0.055, 0.02, 10_000) == 2_166  # 300 * ((5.5 / 2) ** 2 - 1) * 1.1, rounded up
    assert topup_games(2_099, 0.020002, 0.02, 10_000) == 1, "a game short: still topped up, with a margin"
    assert topup_games(2_093, 0.020025, 0.02, 10_000) == 6
    assert topup_games(300, 0.055, 0.02, 1_000) == 1_000, "capped by the budget"
    assert topup_games(3_000, 0.015, 0.02, 10_000) == 0, "already there"
    assert topup_games(300, 0.055, 0.02, 0) == 0


def test_a_top_up_never_takes_the_number_of_an_earlier_studys_top_up(tmp_path: Path) -> None:
    """Its seed would repeat that run's games: the Golem sample's second study spent a round on a top-up of 10 games
    that were the first 10 of the earlier study's 1,875."""
    p = PlannedRun("golem-3p-ladder-search", tmp_path / "golem-3p-ladder-search", None, "", "")
    assert free_topup(p, 1) == 1
    (tmp_path / "golem-3p-ladder-search-more1").mkdir()
    (tmp_path / "golem-3p-ladder-search-more3").mkdir()
    assert free_topup(p, 1) == 2 and free_topup(p, 3) == 4


# --- strength measured among the strong: a round robin orders the top of the ladder ---------------

DECLARED = ("random", "greedy", "apprentice", "search", "expert")
"""A declared ladder whose top is wrong in the planted games below: the apprentice is the strongest."""


def _round_robin(strength: dict[str, float], games: int = 3_000, seed: int = SEED + 1) -> pd.DataFrame:
    """2-player games of every pair of bots where A beats B with chance expit(strength A - strength B) (Bradley-Terry,
    planted), seats alternating."""
    rng = np.random.default_rng(seed)
    bots = list(strength)
    frames, start = [], 0
    for i, a in enumerate(bots):
        for b in bots[i + 1 :]:
            a_wins = rng.random(games) < 1 / (1 + np.exp(strength[b] - strength[a]))
            first = np.where(np.arange(games) % 2 == 0, a, b)
            second = np.where(first == a, b, a)
            rank_first = np.where((first == a) == a_wins, 1, 2)
            ids = np.arange(start, start + games)
            start += games
            frames.append(pd.DataFrame({"game": ids, "seat": 1, "bot": first, "rank": rank_first}))
            frames.append(pd.DataFrame({"game": ids, "seat": 2, "bot": second, "rank": 3 - rank_first}))
    return pd.concat(frames, ignore_index=True).sort_values(["game", "seat"], ignore_index=True)


def _measured_order(strength: dict[str, float], games: int = 3_000) -> tuple[pd.DataFrame, dict]:
    seats = _round_robin(strength, games)
    ratings = bradley_terry(head_to_head(seats), seats=seats)
    return rung_order(DECLARED, ratings), pair_games(seats)


def test_the_round_robin_orders_the_top_of_the_ladder_as_measured_not_as_declared() -> None:
    order, _ = _measured_order({"apprentice": 0.6, "search": 0.0, "expert": 0.3})
    assert order["bot"].tolist() == ["random", "greedy", "search", "expert", "apprentice"]
    assert order["basis"].tolist()[2:] == ["measured"] * 3
    assert (order["rating_low"] < order["rating"]).iloc[2:].all()
    assert strong_play(order, DECLARED) == ["apprentice"], "0.3 log-odds apart in 6,000 games: separated"
    close, _ = _measured_order({"apprentice": 0.6, "search": 0.0, "expert": 0.6})
    assert set(strong_play(close, DECLARED)) == {"apprentice", "expert"}, "equal strengths are not separated"
    assert strong_play(rung_order(DECLARED), DECLARED) == ["expert", "search"], "unrated: the two declared strongest"


def test_strong_rungs_that_disagree_leave_the_seat_answer_unresolved_with_each_figure() -> None:
    """Two equally strong players (planted) whose mirror matches give seat 1 44.5% and 48.8% (as Century's two
    strongest at 2 players; 20,000 games each, so that the planted gap is surely seen): the answer names both and
    stays unresolved."""
    order, together = _measured_order({"apprentice": 0.5, "search": 0.0, "expert": 0.5})
    seats = _mirrors({(2, "apprentice"): 0.445, (2, "expert"): 0.488, (2, "search"): 0.47}, games=20_000)
    answer = ladder_answers(ladder_seats(seats, order), order=order, games_between=together).iloc[0]
    assert answer.verdict == UNRESOLVED and "disagree" in answer.reason
    assert {bot for bot, *_ in answer.split} == {"apprentice", "expert"}
    rates = {bot: rate for bot, rate, *_ in answer.split}
    assert rates["apprentice"] == pytest.approx(0.445, abs=0.02) and rates["expert"] == pytest.approx(0.488, abs=0.02)
    assert answer.more_games > 0
    text = fair_at_strong_play(ladder_answers(ladder_seats(seats, order), order=order), order)
    assert "disagree" in text and "apprentice" in text and "expert" in text and "unresolved" in text


def test_a_top_rung_separated_from_the_rest_answers_alone() -> None:
    """The apprentice is measurably the strongest (planted): a weaker rung's different seat figure does not pool or
    block the answer; the answer is the apprentice's."""
    order, together = _measured_order({"apprentice": 0.8, "search": 0.0, "expert": 0.2})
    seats = _mirrors({(2, "apprentice"): 0.55, (2, "expert"): 0.45}, games=20_000)
    answer = ladder_answers(ladder_seats(seats, order), order=order, games_between=together).iloc[0]
    assert answer.strong == "apprentice" and answer.strongest == "apprentice"
    assert answer.verdict == CHANGES and answer.changed_at == ["expert"]
    assert answer.seat1_excess == pytest.approx(0.05, abs=0.01)


def test_agreeing_strong_rungs_are_pooled() -> None:
    order, together = _measured_order({"apprentice": 0.5, "search": 0.0, "expert": 0.5})
    seats = _mirrors({(2, "apprentice"): 0.47, (2, "expert"): 0.47}, games=20_000)
    answer = ladder_answers(ladder_seats(seats, order), order=order, games_between=together).iloc[0]
    assert set(answer.strongest.split(" and ")) == {"apprentice", "expert"} and not answer.split
    assert answer.verdict == HOLDS


def test_separation_games_follow_one_over_root_n() -> None:
    order = rung_order(
        ["a", "b"],
        pd.DataFrame({"bot": ["a", "b"], "rating": [0.0, 0.1], "ci_low": [-0.1, 0.0], "ci_high": [0.1, 0.2]}),
    )
    assert separation_games(order, "b", "a", 1_000) == 3_000, "intervals of ±0.1 apart by 0.1: four times the games"
    far = order.assign(rating=[0.0, 0.5], rating_low=[-0.1, 0.4], rating_high=[0.1, 0.6])
    assert separation_games(far, "b", "a", 1_000) == 0
    assert separation_games(order.assign(rating=[0.0, 0.0]), "b", "a", 1_000) == float("inf")


def test_every_study_plays_its_strong_rungs_against_each_other() -> None:
    assert strong_rungs("century") == ("apprentice", "search", "search:leaf=1:iterations=80")
    plan = plan_study("century", 1_000_000)
    strong = [p for p in plan if p.purpose.startswith(STRONG_PURPOSE)]
    pairs = {tuple(e.label for e in p.spec.lineup) for p in strong if p.spec.num_players == 2}
    assert pairs == {
        ("apprentice", "search"),
        ("apprentice", "search:leaf=1:iterations=80"),
        ("search", "search:leaf=1:iterations=80"),
    }
    tables = {p.spec.num_players: {e.label for e in p.spec.lineup} for p in strong if p.spec.num_players > 2}
    assert tables == {n: set(strong_rungs("century")) for n in (3, 4)}
    assert all(p.spec.rotate_seats for p in strong)
    assert sum(p.spec.num_games for p in strong) <= 0.002 * 1_000_000, "a small fraction of the study"
    for game in STUDIES:
        assert any(p.purpose.startswith(STRONG_PURPOSE) for p in plan_study(game)), game


def test_a_pair_is_topped_up_only_while_its_interval_holds_half() -> None:
    assert separation_topup(300, 150, 1_000) == 1_000, "a dead heat takes the whole budget"
    assert separation_topup(300, 240, 1_000) == 0, "80% of 300: separated"
    more = separation_topup(300, 165, 10_000)  # 55%: about 380 games in all would leave 50% out
    assert 0 < more < 200 and separation_topup(300 + more, 0.55 * (300 + more), 10_000) == 0
    assert separation_topup(300, 165, 0) == 0


@pytest.mark.parametrize("game", list(STUDIES))
def test_every_rung_of_every_ladder_has_a_name_a_designer_reads(game: str) -> None:
    names = make(game).info.bot_names
    assert set(make(game).info.skill_ladder) <= set(names), "the first screen names every rung"
    assert make(game).info.default_bots in names
    assert len(set(names.values())) == len(names), "no two players share a name"


def test_a_pooled_answer_carried_by_a_lower_rung_gives_the_top_rung_alone() -> None:
    """Two equally strong players (planted), the top with 1,500 mirror games and the other with 100,000: the pooled
    answer reaches ±2 pp only through the other's games, so it gives the top's own figure beside it; with equal
    games it does not."""
    order, _ = _measured_order({"apprentice": 0.5, "search": 0.0, "expert": 0.5})
    top = strong_play(order, DECLARED)[0]
    other = next(b for b in ("apprentice", "expert") if b != top)
    seats = pd.concat([_mirrors({(2, top): 0.47}, games=1_500), _mirrors({(2, other): 0.47}, games=100_000)])
    answer = ladder_answers(ladder_seats(seats, order), order=order).iloc[0]
    assert answer.verdict != UNRESOLVED and answer.half_width < 0.02
    bot, excess, low, high = answer.top_alone
    assert bot == top and high - low > 0.04 and low < excess < high
    text = fair_at_strong_play(ladder_answers(ladder_seats(seats, order), order=order), order)
    assert f"mostly from {other}'s games; {top} alone:" in text
    even = _mirrors({(2, top): 0.47, (2, other): 0.47}, games=20_000)
    assert not ladder_answers(ladder_seats(even, order), order=order).iloc[0].top_alone


def test_an_unresolved_answer_whose_interval_excludes_even_says_which_side_is_ahead() -> None:
    """A planted first-player edge of 8 pp measured in 1,000 games: seen, but not to ±2 pp."""
    seats = _mirrors({(2, "greedy"): 0.58, (2, "planner"): 0.58}, games=1_000)
    text = fair_at_strong_play(ladder_answers(ladder_seats(seats, RUNGS)), rung_order(RUNGS))
    assert "unresolved (intervals ±" in text and "the first player is ahead, +" in text
    assert "but by how much is not settled" in text


def test_a_reach_just_past_the_target_is_not_printed_as_the_target() -> None:
    """±2.004 pp against a ±2 pp target is unresolved, and the line must not read "±2.0 pp" beside "unresolved": a
    reach just past the target is rounded up."""
    seats = _mirrors({(2, "greedy"): 0.58, (2, "planner"): 0.58}, games=1_000)
    answers = ladder_answers(ladder_seats(seats, RUNGS)).assign(half_width=0.02004)
    text = fair_at_strong_play(answers, rung_order(RUNGS))
    assert "(intervals ±2.1 pp)" in text
    assert "(intervals ±3.0 pp)" in fair_at_strong_play(answers.assign(half_width=0.03), rung_order(RUNGS))


def test_a_gap_is_judged_by_its_own_interval_not_by_two_overlapping_ones() -> None:
    """0.1 log-odds apart (planted) in 6,000 games a pair: the two rating intervals overlap, yet the gap's own
    interval (from the ratings' covariance) excludes 0, so the weaker is measurably weaker and not strong play."""
    order, _ = _measured_order({"apprentice": 0.6, "search": 0.0, "expert": 0.5})
    rows = order.set_index("bot")
    assert rows.at["expert", "rating_high"] >= rows.at["apprentice", "rating_low"], "the intervals overlap"
    assert strong_play(order, DECLARED) == ["apprentice"]
    overlap_only = order.copy()
    overlap_only.attrs = {}
    assert strong_play(overlap_only, DECLARED) == ["apprentice", "expert"]
