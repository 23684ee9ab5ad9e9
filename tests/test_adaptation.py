"""The adaptation check (``simulate.adaptation``): planted card edits, and strong players that must see them."""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import pytest

from simulate.adaptation import asserted_text, check_adaptation, failures, measure, showing, take_shares
from simulate.conformance import check_game
from simulate.game import Lineup
from simulate.games.century import data as D
from simulate.games.century.engine import game_init
from simulate.games.century.search_bot import bought_levels
from simulate.games.century.state import new_state
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make
from simulate.rng import game_seeds
from simulate.runner import RunSpec, plan_games
from simulate.variants import Variant, write_variant


@pytest.fixture(scope="module")
def century():
    return make("century")


def test_the_chosen_games_show_the_card_in_their_opening(century) -> None:
    data = century.load_data(None, {})
    games = showing(century, data, "M08", 2, 12, 43)
    assert len(games.setup_seed) == 12
    ids, params = lineup_arrays(century, parse_lineup(century, ["greedy"], 2))
    first = century.play_chunk(data, Lineup(2, games.seat_lineup, ids, params, games.setup_seed, games.play_seed))
    for g in range(12):
        shown = [first.games[c].categories[first.games[c].codes[g]] for c in century.info.setup_columns]
        assert "M08" in shown


def test_one_batch_of_lineups_takes_as_each_lineup_alone(century) -> None:
    # the players' mirror games and their games against the rival share one batch on two threads: each game plays
    # as it would alone, so a share does not depend on the other lineups beside it
    data = century.load_data(None, {})
    games = showing(century, data, "M08", 2, 8, 43)
    both = take_shares(century, data, "M08", ("greedy", "engine"), "planner", games, 3, threads=2)
    assert set(both) == {(p, lineup) for p in ("greedy", "engine") for lineup in ("mirror", "vs planner")}
    for player in ("greedy", "engine"):
        alone = take_shares(century, data, "M08", (player,), "planner", games, 3)
        assert alone == {k: v for k, v in both.items() if k[0] == player}
        assert all(0 <= v <= 1 for v in alone.values())
    # the rival's take in the same matches: engine against engine plays its mirror games, and a merchant card has
    # one copy, so the mirror's take (any seat) is the measured seat's plus the rival's, game by game
    raced = take_shares(century, data, "M08", ("engine",), "engine", games, 3, rival_take=True)
    assert raced["engine", "vs engine"] + raced["engine", "engine's take vs engine"] == raced["engine", "mirror"]
    assert 0 < raced["engine", "engine's take vs engine"] < raced["engine", "mirror"]


def test_the_recorded_players_are_measured_not_asserted(century) -> None:
    spec = replace(
        century.info.adaptation, players=("planner",), recorded=("random",), edits=century.info.adaptation.edits[:1]
    )
    table = measure(century, replace(spec, games=4))
    assert sorted(set(zip(table["player"], table["asserted"], strict=True))) == [("planner", True), ("random", False)]
    assert (table["games"] == 4).all()


def test_an_edit_plays_its_own_games_and_records_its_own_players(century) -> None:
    # random misses every edit in its mirror games (test below): asserted on the stronger card only, with more games
    # than the spec's, it fails there alone, and the useless card's take is measured, not asserted
    base = century.info.adaptation
    edits = (replace(base.edits[0], games=6), replace(base.edits[1], recorded=("random",)))
    spec = replace(base, players=("random",), recorded=(), edits=edits, games=3)
    table = measure(century, spec)
    assert dict(zip(table["edit"], table["games"], strict=False)) == {"stronger": 6, "useless": 3}
    assert table.groupby("edit")["asserted"].all().to_dict() == {"stronger": True, "useless": False}
    assert not table[table["lineup"] == "mirror"]["ok"].any()
    fails = check_adaptation(century, spec=spec)
    assert fails and all("(stronger)" in line for line in fails)
    assert (
        asserted_text(spec)
        == "random asserted on stronger M08, recorded on the rest (mirror and vs planner, 3 or 6 games an arm)"
    )


def test_a_player_blind_to_the_edits_fails(century) -> None:
    # random takes a card whatever it does: the planted edits are missed in its mirror games
    spec = century.info.adaptation
    table = measure(century, spec, players=("random",))
    assert not table[table["lineup"] == "mirror"]["ok"].any()
    assert len(failures(table)) >= len(spec.edits)


def test_the_flat_card_credit_of_version_4_misses_a_raised_cost(century) -> None:
    # the search's leaf before version 5 credited every card bought alike: a dearer M16 is bought as early
    spec = replace(
        century.info.adaptation, edits=tuple(e for e in century.info.adaptation.edits if e.name == "cost raised")
    )
    table = measure(century, spec, players=("search:card_value=0.5:card_levels=0",))
    assert not table["ok"].any()


def test_the_strong_players_see_every_planted_edit() -> None:
    # a ConformanceError lists every take that did not move
    start = time.perf_counter()
    assert check_game("century", checks=("adaptation",)) == ("adaptation",)
    assert time.perf_counter() - start < 300


def test_a_game_without_planted_edits_has_nothing_to_compare() -> None:
    assert check_adaptation(make("golem-poker")) is None
    assert check_game("golem-poker", checks=("adaptation",)) == ()


def test_the_leaf_credits_a_bought_card_by_what_its_data_says(tmp_path) -> None:
    # a seat that bought M08 is credited its Create's levels over the Create YY starting card's 2: 4 printed, 16
    # after the edit to MMMM; a card that adds less than the starting card counts nothing
    folder, _ = write_variant(make("century"), Variant("edit", (("merchant_cards.M08.output", "MMMM"),)), tmp_path)
    for data, levels in ((D.load(), 2.0), (D.load(folder), 14.0)):
        st = new_state(1, data.tables)
        setup, play = game_seeds(43, np.array([0]), np.array([0]))
        game_init(st, data.kernel, 0, 2, setup[0], play[0])
        r = st[0]
        assert bought_levels(r, data.tables, 0) == 0.0
        m = data.merchant_ids.index("M08")
        r["owned"][0, r["num_owned"][0]] = m
        r["num_owned"][0] += 1
        assert bought_levels(r, data.tables, 0) == levels
        r["owned"][0, r["num_owned"][0]] = data.merchant_ids.index("M10")  # YY -> T: 2 levels, as the start card's
        r["num_owned"][0] += 1
        assert bought_levels(r, data.tables, 0) == levels


@pytest.fixture(scope="module")
def golems():
    return make("golems")


def test_a_use_counts_a_subset_of_the_takes(golems, century) -> None:
    # a Golems Golem card summoned is one taken; a Century card has no use to count
    data = golems.load_data(None, {})
    games = showing(golems, data, "G05", 2, 6, 43)
    every = take_shares(golems, data, "G05", ("collector",), "greedy", games, 99)
    summoned = take_shares(golems, data, "G05", ("collector",), "greedy", games, 99, use="summon")
    assert all(summoned[k] <= every[k] for k in every)
    with pytest.raises(ValueError, match="no use 'summon'"):
        take_shares(
            century,
            century.load_data(None, {}),
            "M08",
            ("greedy",),
            "planner",
            showing(century, century.load_data(None, {}), "M08", 2, 2, 43),
            3,
            use="summon",
        )


def test_golems_strong_players_see_every_planted_edit() -> None:
    assert check_game("golems", checks=("adaptation",)) == ("adaptation",)


def test_a_golems_player_blind_to_the_edits_fails(golems) -> None:
    spec = golems.info.adaptation
    table = measure(golems, spec, players=("random",))
    assert not table[table["lineup"] == "mirror"]["ok"].all()
    assert len(failures(table)) >= len(spec.edits)


def test_golem_games_show_the_book_in_their_opening_library() -> None:
    # no setup column names a Library Book: the spec's opening says which five a game opens with, and the chosen
    # games are the first of the run whose Library shows the Book
    golem = make("golem")
    data = golem.load_data(None, {})
    opening = golem.info.adaptation.opening
    games = showing(golem, data, "B08", 2, 6, 43, opening)
    plan = plan_games(RunSpec("golem", 2, 240, 43, parse_lineup(golem, [golem.info.default_bots], 2)), 0, 240)
    first = [s for s in plan.setup_seed if "B08" in opening(data, 2, int(s))][:6]
    assert list(games.setup_seed) == first and len(first) == 6
    assert all(len(opening(data, 2, int(s))) == 5 for s in first)
    every = showing(golem, data, "B08", 2, 40, 43, lambda d, n, s: frozenset({"B08"}))
    assert list(every.setup_seed) == list(plan.setup_seed[:40])  # a card always on offer: the run's first games
    with pytest.raises(ValueError, match="shows B99"):
        showing(golem, data, "B99", 2, 2, 43, opening)


def test_golem_strong_players_see_every_planted_edit() -> None:
    assert check_game("golem", checks=("adaptation",)) == ("adaptation",)


def test_a_golem_player_blind_to_the_edits_fails() -> None:
    golem = make("golem")
    table = measure(golem, golem.info.adaptation, players=("random",))
    assert len(failures(table)) >= len(golem.info.adaptation.edits)
