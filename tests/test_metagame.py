"""The meta-game of strategies (analysis.stats.metagame) on synthetic matrices with a known answer."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.plots import plot_meta_game
from analysis.report.format import people_words
from analysis.report.model import Figure, GamePage, Table, Text, Watch
from analysis.report.styles import BestResponse, build_styles_section, profile_difference
from analysis.stats import metagame
from analysis.stats.metagame import (
    DOMINATES,
    SEVERAL_VIABLE,
    UNRESOLVED,
    equilibrium,
    meta_game,
    pair_scores,
    table_scores,
    win_matrix,
)

SEED = 45
RPS = np.array([[0.0, -0.3, 0.3], [0.3, 0.0, -0.3], [-0.3, 0.3, 0.0]])
"""Rock, paper, scissors as margins over even (each beats the next at 80%)."""


def _scores(rates: dict[tuple[str, str], float], games: int, seed: int = SEED, exact: bool = False) -> pd.DataFrame:
    """``games`` games of each pair (a, b) that a wins at ``rates[a, b]`` (a share of exactly that with ``exact``)."""
    rng = np.random.default_rng(seed)
    rows, game = [], 0
    for (a, b), rate in rates.items():
        wins = np.arange(games) < round(rate * games) if exact else rng.random(games) < rate
        for w in wins:
            rows.append((game, a, b, float(w)))
            game += 1
    return pd.DataFrame(rows, columns=["game", "strategy", "opponent", "score"])


def _rps_rates(copy: bool = False) -> dict[tuple[str, str], float]:
    rates = {("rock", "paper"): 0.2, ("paper", "scissors"): 0.2, ("rock", "scissors"): 0.8}
    if copy:
        rates |= {("rock2", "rock"): 0.5, ("rock2", "paper"): 0.2, ("rock2", "scissors"): 0.8}
    return rates


def test_equilibrium_of_rock_paper_scissors_is_uniform():
    np.testing.assert_allclose(equilibrium(RPS), [1 / 3] * 3, atol=1e-6)


def test_a_copy_shares_its_weight_and_gains_none():
    m = np.zeros((4, 4))
    m[:3, :3] = RPS
    m[3, :3], m[:3, 3] = RPS[0], -RPS[0]  # strategy 3 plays as rock
    p = equilibrium(m)
    assert p[0] + p[3] == pytest.approx(1 / 3, abs=1e-6)
    np.testing.assert_allclose(p, [1 / 6, 1 / 3, 1 / 3, 1 / 6], atol=1e-6)


def test_a_dominant_row_takes_every_weight():
    m = np.array([[0.0, 0.1, 0.2], [-0.1, 0.0, 0.3], [-0.2, -0.3, 0.0]])
    np.testing.assert_allclose(equilibrium(m), [1, 0, 0], atol=1e-6)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-0.5, 0.5), min_size=6, max_size=6))
def test_no_strategy_beats_the_equilibrium(upper):
    k = 4
    m = np.zeros((k, k))
    m[np.triu_indices(k, 1)] = upper
    m -= m.T
    p = equilibrium(m)
    assert p.min() >= 0 and p.sum() == pytest.approx(1)
    assert (p @ m).min() >= -1e-7


def test_rock_paper_scissors_plays_every_style_and_several_are_viable():
    result = meta_game(_scores(_rps_rates(), 2000), num_resamples=200)
    np.testing.assert_allclose(result.weights["weight"], [1 / 3] * 3, atol=0.03)
    assert (result.weights["played"] == 1).all()
    w = result.weights
    assert ((w["ci_low"] <= w["weight"]) & (w["weight"] <= w["ci_high"]) & (w["ci_high"] - w["ci_low"] < 0.15)).all()
    assert result.verdict == SEVERAL_VIABLE


def test_a_copied_style_does_not_gain_weight_from_games():
    result = meta_game(_scores(_rps_rates(copy=True), 2000, exact=True), num_resamples=100)
    w = result.weights.set_index("strategy")["weight"]
    assert w["rock"] + w["rock2"] == pytest.approx(1 / 3, abs=1e-6)
    assert w["paper"] == pytest.approx(1 / 3, abs=1e-6)


def test_a_style_that_beats_every_other_dominates():
    rates = {("a", "b"): 0.6, ("a", "c"): 0.65, ("b", "c"): 0.5}
    result = meta_game(_scores(rates, 1500), num_resamples=200)
    assert result.verdict == DOMINATES
    w = result.weights.set_index("strategy")
    assert w.at["a", "weight"] == pytest.approx(1.0)
    assert w.at["a", "ci_low"] == pytest.approx(1.0)
    assert result.more_games == 0


def test_even_styles_need_games_before_a_verdict():
    rates = {("a", "b"): 0.5, ("a", "c"): 0.5, ("b", "c"): 0.5}
    few = meta_game(_scores(rates, 100, exact=True), num_resamples=100)
    assert few.verdict == UNRESOLVED
    assert few.reason == "a, b and c are beaten by no strategy, and their pairs are not settled yet"
    assert 0 < few.more_games < np.inf
    many = meta_game(_scores(rates, int(1.1 * few.more_games) + 100, exact=True), num_resamples=100)  # about
    assert many.verdict == SEVERAL_VIABLE


def test_win_matrix_counts_each_game_once_from_either_side():
    scores = _scores({("a", "b"): 0.7}, 1000, exact=True)
    both = pd.concat([scores, scores.assign(strategy="b", opponent="a", score=1 - scores["score"])])
    for frame in (scores, both):
        m = win_matrix(frame).set_index(["strategy", "opponent"])
        assert m.at[("a", "b"), "win_rate"] == pytest.approx(0.7)
        assert m.at[("b", "a"), "win_rate"] == pytest.approx(0.3)
        assert m.at[("a", "b"), "num_games"] == 1000
        assert m.at[("a", "b"), "ci_low"] < 0.7 < m.at[("a", "b"), "ci_high"]


def test_pair_scores_from_a_seats_table():
    seats = pd.DataFrame(
        {
            "game": [0, 0, 1, 1, 2, 2],
            "bot": ["x", "y", "y", "x", "x", "x"],
            "win": [1.0, 0.0, 0.5, 0.5, 1.0, 0.0],
        }
    )
    scores = pair_scores(seats)
    assert len(scores) == 4  # the mirror game 2 is left out
    m = win_matrix(scores).set_index(["strategy", "opponent"])
    assert m.at[("x", "y"), "win_rate"] == pytest.approx(0.75)


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="never met"):
        win_matrix(_scores({("a", "b"): 0.5, ("b", "c"): 0.5}, 10), ["a", "b", "c"])
    with pytest.raises(ValueError, match="3 seats"):
        pair_scores(pd.DataFrame({"game": [0, 0, 0], "bot": ["a", "b", "c"], "win": [1.0, 0, 0]}))
    with pytest.raises(ValueError, match="score"):
        win_matrix(pd.DataFrame({"game": [0], "strategy": ["a"], "opponent": ["b"]}))


@pytest.fixture
def _close_figures():
    yield
    plt.close("all")


@pytest.mark.usefixtures("_close_figures")
@pytest.mark.parametrize("title", [None, "styles"])
def test_plot_meta_game_draws_one_bar_per_strategy(title):
    weights = meta_game(_scores(_rps_rates(), 300), num_resamples=50).weights
    ax = plot_meta_game(weights, title=title)
    assert len(ax.patches) == 3
    labels = {t.get_position()[1]: t.get_text() for t in ax.get_yticklabels()}
    assert [labels[y] for y in sorted(labels, reverse=True)] == weights["strategy"].tolist()  # top to bottom
    _, axes = plt.subplots()
    assert plot_meta_game(weights, ax=axes) is axes
    with pytest.raises(ValueError, match="weight"):
        plot_meta_game(weights.drop(columns="weight"))


def _style_seats(rates: dict[tuple[str, str], float], games: int) -> pd.DataFrame:
    """A seats table of 2-player games between styles (``a`` wins ``rates[a, b]`` of its games with ``b``)."""
    scores = _scores(rates, games, exact=True)
    return pd.DataFrame(
        {
            "game": np.repeat(scores["game"].to_numpy(), 2),
            "num_players": 2,
            "bot": np.column_stack([scores["strategy"], scores["opponent"]]).ravel(),
            "win": np.column_stack([scores["score"], 1 - scores["score"]]).ravel(),
        }
    )


@pytest.mark.usefixtures("_close_figures")
def test_the_report_section_answers_with_the_dominant_style():
    engine, rush = "apprentice:style=engine", "apprentice:style=rush"
    rates = {(engine, "apprentice"): 0.6, (engine, rush): 0.65, ("apprentice", rush): 0.55}
    seats = pd.concat(
        [_style_seats(rates, 1500), _style_seats({("greedy", "planner"): 0.3}, 50).eval("game = game + 10**6")]
    )
    section = build_styles_section(seats, 0.05)
    assert section.title == "Strategies at strong play"
    (answer,) = section.answers
    head, two = answer.split("\n")  # a line for the question, then one a player count
    assert head == (
        "Is there a dominant strategy at the learned player's skill? (one style dominates / several styles viable / "
        "unresolved; 2 styles of it and the plain apprentice, seats rotated)"
    )
    assert two.startswith(f"2 players (1,500 games a pair): {DOMINATES}: the engine style beats every other")
    assert "; the engine style wins 60.0% (" in answer and ") against the plain apprentice" in answer
    assert "the rush style wins 45.0% (" in answer and "apprentice:style" not in answer
    assert any(isinstance(item, Figure) and item.name == "styles-equilibrium.png" for item in section.items)
    # on the first screen players are named as a designer would; a style keeps its own name
    names = {"engine": "engine-building heuristic", "apprentice": "apprentice (learned player)"}
    named = people_words(answer, names)
    assert "the engine style beats every other" in named and "the plain apprentice (learned player)" in named
    assert build_styles_section(_style_seats({("greedy", "planner"): 0.3}, 50), 0.05) is None
    one_pair_missing = _style_seats({(engine, "apprentice"): 0.6, (engine, rush): 0.6}, 100)
    assert build_styles_section(one_pair_missing, 0.05) is None


def test_a_small_change_prints_two_different_counts():
    """0.12 against 0.14 a game is a change of -14%: printed to one decimal both would read 0.1."""
    profile = pd.DataFrame(
        {"bot": ["apprentice:style=rush", "apprentice"], "mechanism": ["bonuses", "bonuses"], "mean": [0.12, 0.14]}
    )
    assert profile_difference(profile, "apprentice:style=rush") == "fewer bonuses (0.12 a game against 0.14, -14%)"


def _best(win_share: float, low: float, high: float, page: GamePage | None) -> BestResponse:
    """A best response (played as the rush style) that claims 30% more point cards and rests as often."""
    carrier = "apprentice:style=rush"
    profile = pd.DataFrame(
        {
            "bot": [carrier, carrier, carrier, "apprentice", "apprentice", "apprentice"],
            "mechanism": ["claims", "rests", "merchants_bought", "claims", "rests", "merchants_bought"],
            "mean": [6.5, 4.0, 3.0, 5.0, 4.0, 6.0],
        }
    )
    return BestResponse(2, win_share, low, high, 2000, 12, 200, profile, carrier, (("own_vp", 0.25),), page)


@pytest.mark.usefixtures("_close_figures")
def test_the_section_gives_the_best_responses_exploitability_what_it_does_and_its_game():
    engine, rush = "apprentice:style=engine", "apprentice:style=rush"
    rates = {(engine, "apprentice"): 0.52, (engine, rush): 0.5, ("apprentice", rush): 0.5}
    seats = _style_seats(rates, 400)
    page = GamePage("games/best-response-win-2p.html", "a game the best response won", "Why.", "runs/x", "x-1", 3)
    section = build_styles_section(seats, 0.05, best=[_best(0.561, 0.539, 0.582, page)])
    texts = [item.text for item in section.items if isinstance(item, Text)]
    verdict = next(t for t in texts if t.startswith("Exploitability of the apprentice at 2 players: +6.1 pp"))
    assert "56.1%, 53.9–58.2% Wilson" in verdict and "+3.9 to +8.2 pp, clear of the fair share; 2,000 games" in verdict
    # the largest relative changes first, none for a mechanism played as often
    assert verdict.endswith(
        "per game against the apprentice's: fewer merchants bought (3.0 a game against 6.0, -50%); "
        "more claims (6.5 a game against 5.0, +30%)."
    )
    assert any("12 candidates of 200 games each" in t and "own_vp +0.25" in t for t in texts)
    assert [item.page for item in section.items if isinstance(item, Watch)] == [page]
    (answer,) = section.answers
    assert answer.endswith(
        "; a searched best response wins 56.1% (53.9–58.2%) against the plain apprentice: exploitability +6.1 pp "
        "(+3.9 to +8.2, 2,000 games)."
    )
    # a best response at each player count the study searched, on its count's line
    three = replace(_best(0.40, 0.38, 0.42, None), num_players=3)
    both = build_styles_section(seats, 0.05, best=[three, _best(0.561, 0.539, 0.582, page)])
    head, two, three_line = both.answers[0].split("\n")
    assert head.endswith("seats rotated, and a searched best response)")
    assert two.endswith(
        "; a searched best response wins 56.1% (53.9–58.2%) against the plain apprentice: exploitability +6.1 pp "
        "(+3.9 to +8.2, 2,000 games)."
    )
    assert three_line == (
        "3 players: a searched best response wins 40.0% (38.0–42.0%) against 2 plain apprentices (fair share 33.3%): "
        "exploitability +6.7 pp (+4.7 to +8.7, 2,000 games)."
    )
    assert any(
        t.text.startswith("Exploitability of the apprentice at 3 players") for t in both.items if isinstance(t, Text)
    )
    # not clear of the fair share, and no game won to watch
    even = build_styles_section(seats, 0.05, best=[_best(0.49, 0.468, 0.512, None)])
    assert any("not clear of the fair share" in item.text for item in even.items if isinstance(item, Text))
    assert not [item for item in even.items if isinstance(item, Watch)]
    # a best candidate that loses on fresh games: no exploit found, never a negative exploitability
    worse = build_styles_section(seats, 0.05, best=[_best(0.464, 0.441, 0.487, None)])
    assert any("none found" in item.text for item in worse.items if isinstance(item, Text))
    assert worse.answers[0].endswith(
        "a short hunt for a best response found none that beats it (its best candidate won 46.4%, 44.1–48.7%, of "
        "2,000 fresh games)."
    )
    assert "exploitability -" not in worse.answers[0]
    # a bot's name in a game with a search bot: people_words would rename it
    assert not re.search(r"\bsearch\b", worse.answers[0])
    # the apprentice itself as the best: a difference in its profile is luck, not a plan
    itself = build_styles_section(seats, 0.05, best=[replace(_best(0.51, 0.49, 0.53, None), offsets=())])
    assert any(
        "does differently, per game against the apprentice's: nothing: the hunt found no" in item.text
        for item in itself.items
        if isinstance(item, Text)
    )
    assert profile_difference(_best(0.5, 0.4, 0.6, None).profile.assign(mean=1.0), rush) == ""


def _plackett_luce_seats(strength: dict[str, float], tables: list[tuple[str, ...]], games: int) -> pd.DataFrame:
    """``games`` games of each table, ranked by a Plackett-Luce draw (the next place goes to a remaining seat with
    probability proportional to its strategy's strength): any two strategies' chance to finish in a given order is
    then theirs alone, ``strength[a] / (strength[a] + strength[b])``, whoever else sits at the table."""
    rng = np.random.default_rng(SEED)
    rows, game = [], 0
    for table in tables:
        w = np.array([strength[b] for b in table])
        for _ in range(games):
            order = rng.choice(len(table), size=len(table), replace=False, p=w / w.sum())
            rank = np.empty(len(table), int)
            rank[order] = np.arange(1, len(table) + 1)
            rows += [(game, bot, r) for bot, r in zip(table, rank, strict=True)]
            game += 1
    return pd.DataFrame(rows, columns=["game", "bot", "rank"])


def test_table_scores_compare_each_two_strategies_at_a_table():
    seats = pd.DataFrame(
        {
            "game": [0, 0, 0, 1, 1, 1, 2, 2, 2],
            "bot": ["a", "b", "a", "a", "b", "c", "a", "a", "a"],
            "rank": [1, 2, 3, 2, 2, 1, 1, 2, 3],
        }
    )
    scores = table_scores(seats).set_index(["game", "strategy", "opponent"])["score"]
    assert scores[0, "a", "b"] == pytest.approx(0.5)  # one a seat ahead of b, the other behind: no gain from a copy
    assert scores[1, "a", "b"] == scores[1, "b", "a"] == 0.5  # a shared place counts half
    assert scores[1, "c", "a"] == 1.0 and scores[1, "a", "c"] == 0.0
    assert 2 not in scores.index.get_level_values("game")  # one strategy alone: no pair
    two = pd.DataFrame(
        {"game": [0, 0, 1, 1], "bot": ["x", "y", "y", "x"], "rank": [1, 2, 1, 1], "win": [1, 0, 0.5, 0.5]}
    )
    m_rank = win_matrix(table_scores(two)).set_index(["strategy", "opponent"])
    m_win = win_matrix(pair_scores(two)).set_index(["strategy", "opponent"])
    assert m_rank.at[("x", "y"), "win_rate"] == m_win.at[("x", "y"), "win_rate"] == 0.75  # at 2 players: the wins
    with pytest.raises(ValueError, match="rank"):
        table_scores(two.drop(columns="rank"))


def test_multi_player_tables_find_the_planted_pairwise_rates_with_copies_at_the_table():
    strength = {"a": 3.0, "b": 1.5, "c": 1.0, "d": 1.0}
    tables = [("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("b", "c", "d"), ("a", "a", "b"), ("c", "d", "d")]
    result = meta_game(table_scores(_plackett_luce_seats(strength, tables, 3000)), num_resamples=200)
    m = result.matrix.set_index(["strategy", "opponent"])
    for (a, b), row in m.iterrows():
        assert row["win_rate"] == pytest.approx(strength[a] / (strength[a] + strength[b]), abs=0.02), (a, b)
        assert row["ci_low"] < row["win_rate"] < row["ci_high"]
    # a's own win share at its tables would count the copy: at (a, a, b) each a seat wins 3/7.5 = 40% of games
    assert result.verdict == DOMINATES
    w = result.weights.set_index("strategy")
    assert w.at["a", "weight"] == pytest.approx(1.0) and w.at["a", "ci_low"] == pytest.approx(1.0)


def test_a_copied_style_shares_its_weight_at_multi_player_tables():
    """The best strategy entered twice (a2 plays as a): the two share the weight a alone would take, whatever tables
    they share (every three of the four strategies, so a meets its copy at half of its tables); which copy a sample
    favours is chance, so each one's interval spans every share."""
    strength = {"a": 3.0, "a2": 3.0, "b": 1.5, "c": 1.0}
    tables = list(itertools.combinations(strength, 3))
    result = meta_game(table_scores(_plackett_luce_seats(strength, tables, 3000)), list(strength), num_resamples=100)
    w = result.weights.set_index("strategy")
    assert w.at["a", "weight"] + w.at["a2", "weight"] == pytest.approx(1.0)
    np.testing.assert_allclose(w.loc[["a", "a2"], ["ci_low", "ci_high"]], [[0, 1], [0, 1]], atol=1e-6)
    np.testing.assert_allclose(w.loc[["b", "c"], "ci_high"], 0, atol=1e-6)
    assert result.verdict == SEVERAL_VIABLE  # neither copy beats the other: they are even


def test_the_multi_player_bootstrap_resamples_whole_games():
    """A game's pairs move together: when the games of one table are resampled, a strategy's rates against the two
    others rise and fall together (they share its games), which resampling each pair alone would not do."""
    seats = _plackett_luce_seats({"a": 1.0, "b": 1.0, "c": 1.0}, [("a", "b", "c")], 300)
    scores = table_scores(seats)
    both = metagame._both_sides(scores)
    rng = np.random.default_rng(SEED)
    draws = metagame._game_draws(both, ["a", "b", "c"], 2000, rng)  # pairs ab, ac, bc
    assert np.corrcoef(draws[:, 0], draws[:, 1])[0, 1] > 0.2  # a ahead of b and of c: the same games
    assert (
        np.abs(
            draws.mean(axis=0)
            - win_matrix(scores)
            .set_index(["strategy", "opponent"])["win_rate"][[("a", "b"), ("a", "c"), ("b", "c")]]
            .to_numpy()
        ).max()
        < 0.01
    )


@pytest.mark.usefixtures("_close_figures")
def test_the_section_answers_at_each_larger_table_the_runs_hold():
    """2-player pairs that are even, and 3-player tables where the engine style finishes ahead (planted): the section
    keeps the 2-player answer and adds the 3-player one, which a 2-player-only section would miss."""
    engine, rush = "apprentice:style=engine", "apprentice:style=rush"
    even = _style_seats({(engine, "apprentice"): 0.5, (engine, rush): 0.5, ("apprentice", rush): 0.5}, 1500)
    strength = {"apprentice": 1.0, engine: 2.0, rush: 1.0}
    tables = _plackett_luce_seats(strength, [("apprentice", engine, rush)], 3000)
    tables = tables.assign(game=tables["game"] + 10**6, num_players=3, win=(tables["rank"] == 1).astype(float))
    section = build_styles_section(pd.concat([even.assign(rank=2 - even["win"]), tables]), 0.05)
    (answer,) = section.answers
    _, two, three = answer.split("\n")
    assert three.startswith("3 players (3,000 games a pair): ")
    three = three.removeprefix("3 players (3,000 games a pair): ")
    assert DOMINATES not in two
    assert three.startswith(f"{DOMINATES}: the engine style beats every other")
    assert "the engine style finishes ahead in 6" in three and "against the plain apprentice" in three
    captions = [item.caption for item in section.items if isinstance(item, Table)]
    assert any(c.startswith("3 players: the share of the row's seats finishing ahead") for c in captions)
    # without finishing places the larger tables are left out, not misread
    assert "\n3 players" not in build_styles_section(pd.concat([even, tables.drop(columns="rank")]), 0.05).answers[0]


def test_and_list_lists_as_a_sentence_does():
    from analysis.stats._util import and_list

    assert [and_list(w) for w in ([], ["a"], ["a", "b"], ["a", "b", "c"])] == ["", "a", "a and b", "a, b and c"]
