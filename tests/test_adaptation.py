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
    first = century.play_chunk(data, 2, games.seat_lineup, *_greedy(century), games.setup_seed, games.play_seed)
    for g in range(12):
        shown = [first.games[c].categories[first.games[c].codes[g]] for c in century.setup_columns]
        assert "M08" in shown


def test_a_player_blind_to_the_edits_fails(century) -> None:
    # random takes a card as often whatever it does: every planted edit is missed in its mirror games
    spec = replace(century.adaptation, games=24)
    table = measure(century, spec, players=("random",))
    mirror = table[table["lineup"] == "mirror"]
    assert not mirror["ok"].any()
    assert len(failures(table.assign(rounds=spec.rounds))) >= len(spec.edits)


def test_the_strong_players_see_every_planted_edit() -> None:
    # ConformanceError lists every take that did not move
    start = time.perf_counter()
    assert check_game("century", checks=("adaptation",)) == ("adaptation",)
    assert time.perf_counter() - start < 240


def test_a_game_without_planted_edits_has_nothing_to_compare() -> None:
    assert check_adaptation(make("golem-poker")) is None
    assert check_game("golem-poker", checks=("adaptation",)) == ()


def _greedy(game):
    return lineup_arrays(game, parse_lineup(game, ["greedy"], 2))
