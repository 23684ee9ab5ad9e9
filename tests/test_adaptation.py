"""The adaptation check (``simulate.adaptation``): planted card edits, and strong players that must see them."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from simulate.adaptation import check_adaptation, failures, measure, showing
from simulate.conformance import check_game
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make


@pytest.fixture(scope="module")
def century():
    return make("century")


def test_the_chosen_games_show_the_card_in_their_opening(century) -> None:
    data = century.load_data(None, {})
    games = showing(century, data, "M08", 2, 12, 43)
    assert len(games.setup_seed) == 12
    ids, params = lineup_arrays(century, parse_lineup(century, ["greedy"], 2))
    first = century.play_chunk(data, 2, games.seat_lineup, ids, params, games.setup_seed, games.play_seed)
    for g in range(12):
        shown = [first.games[c].categories[first.games[c].codes[g]] for c in century.setup_columns]
        assert "M08" in shown


def test_a_player_blind_to_the_edits_fails(century) -> None:
    # random takes a card whatever it does: the planted edits are missed in its mirror games
    spec = century.adaptation
    table = measure(century, spec, players=("random",))
    assert not table[table["lineup"] == "mirror"]["ok"].any()
    assert len(failures(table.assign(rounds=spec.rounds))) >= len(spec.edits)


def test_the_flat_card_credit_of_version_4_misses_a_raised_cost(century) -> None:
    # the search's leaf before version 5 credited every card bought alike: a dearer M16 is bought as early
    spec = replace(century.adaptation, edits=tuple(e for e in century.adaptation.edits if e.name == "cost raised"))
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
