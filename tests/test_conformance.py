"""Every registered game passes the one conformance check (``simulate.conformance``), and the check fails a game
that breaks the shared surface."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simulate import conformance
from simulate.conformance import CHECKS, ConformanceError, check_game, compare_moves
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import available_games, make

PRIVATE_DEALS = {"golem", "golem-poker"}
"""Games whose hidden order deals the seats' own cards: no two orders look alike to a seat, so ``hidden`` compares
nothing there (their own tests show their bots do not peek)."""


@pytest.mark.parametrize("name", sorted(available_games()))
def test_every_game_conforms(name: str) -> None:
    expected = tuple(c for c in CHECKS if not (c == "hidden" and name in PRIVATE_DEALS))
    assert check_game(name, games=4) == expected


class _Broken:
    """A registered game with one fault: attribute overrides, and scores shifted by one in its chunks."""

    def __init__(self, game, shift: int = 0, **overrides) -> None:
        self._game, self._shift, self._overrides = game, shift, overrides

    def __getattr__(self, name):
        if name in self._overrides:
            return self._overrides[name]
        return getattr(self._game, name)

    def play_chunk(self, *args, **kwargs):
        tables = self._game.play_chunk(*args, **kwargs)
        if self._shift:
            tables.seats["score"] = np.asarray(tables.seats["score"]) + self._shift
        return tables


def test_a_game_whose_kernel_and_reference_disagree_fails(monkeypatch) -> None:
    monkeypatch.setattr(conformance, "make", lambda name: _Broken(make(name), shift=1))
    with pytest.raises(ConformanceError, match="golems replay: game 0: reference scores"):
        check_game("golems", games=2, checks=("replay",))


def test_bad_declarations_fail(monkeypatch) -> None:
    game = make("golems")
    monkeypatch.setattr(
        conformance,
        "make",
        lambda name: _Broken(
            game,
            profile_forced=("no_such_column",),
            skill_ladder=("random", "no_such_bot"),
            outcome="score",
            apprentice=dataclasses.replace(game.apprentice, player_counts=(1, 2, 3)),
        ),
    )
    with pytest.raises(ConformanceError) as raised:
        check_game("golems", checks=("declarations",))
    text = str(raised.value)
    for problem in ("profile_forced", "no_such_bot", "outcome_precision", "apprentice player counts [3]"):
        assert problem in text


def test_a_missing_declared_column_fails(monkeypatch) -> None:
    game = make("golems")
    monkeypatch.setattr(conformance, "make", lambda name: _Broken(game, seat_columns=(*game.seat_columns, "nowhere")))
    with pytest.raises(ConformanceError, match=r"seats lack \['nowhere'\]"):
        check_game("golems", games=2, checks=("tables",))


def test_unknown_checks_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown conformance checks"):
        check_game("golems", checks=("tables", "speed"))


def _golems_game() -> tuple:
    """A traced 2-player Golems game: the game, its data, its moves and a fresh twin at its start."""
    game = make("golems")
    data = game.load_data(None, {})
    lineup = parse_lineup(game, ["greedy"], 2)
    ids, params = lineup_arrays(game, lineup)
    moves, _ = game.trace_game(data, 2, np.arange(2), ids, params, 11, 12)
    return game, data, moves, game.new_twin(data, 2, 11, 12)


def test_engines_that_agree_pass_move_by_move() -> None:
    _, _, moves, twin = _golems_game()
    assert compare_moves(twin, moves) == len(moves) > 10
    assert twin.over()


def test_a_kernel_position_that_drifts_fails() -> None:
    _, _, moves, twin = _golems_game()
    twin.kernel_step(moves[0])  # the kernel one move ahead of the reference
    with pytest.raises(ConformanceError, match="setup: fields .* differ"):
        compare_moves(twin, moves[1:])


def test_legal_moves_that_differ_fail() -> None:
    _, _, moves, twin = _golems_game()
    twin.kernel_legal = lambda: twin.reference_legal()[1:]
    with pytest.raises(ConformanceError, match="move 0: legal moves differ: kernel only \\[\\], reference only"):
        compare_moves(twin, moves)


def test_a_move_the_reference_refuses_fails() -> None:
    game, data, moves, twin = _golems_game()
    twin.accepts = lambda move: False
    with pytest.raises(ConformanceError, match="move 0: the reference refuses"):
        compare_moves(twin, moves)


class _Peeking(_Broken):
    """A game whose bots' first move depends on the hidden order: the first two moves swapped in one of a pair."""

    def trace_game(self, data, n, seats, ids, params, setup_seed, play_seed):
        moves, final = self._game.trace_game(data, n, seats, ids, params, setup_seed, play_seed)
        if setup_seed & 1:
            moves = moves.copy()
            moves[[0, 1]] = moves[[1, 0]]
        return moves, final


def test_a_bot_that_sees_the_hidden_order_fails(monkeypatch) -> None:
    game = make("golems")
    monkeypatch.setattr(conformance, "make", lambda name: _Peeking(game))
    with pytest.raises(ConformanceError, match="golems hidden: bot .* pair .* move 0: the seat sees the same"):
        check_game("golems", games=4, checks=("hidden",))
    monkeypatch.setattr(conformance, "make", lambda name: game)
    assert check_game("golems", games=4, checks=("hidden",)) == ("hidden",)


def test_a_broken_invariant_fails_move_by_move() -> None:
    _, _, moves, twin = _golems_game()
    gems = twin.record[0]["gems"]
    gems[0] += 1  # a gem from nowhere, in the kernel's record
    twin.kernel_view = lambda: twin.reference_view()  # the views agree; only the invariants can notice
    with pytest.raises(ConformanceError, match="setup: invariants broken: gems are not conserved"):
        compare_moves(twin, moves)
