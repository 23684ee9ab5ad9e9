"""Pieces every engine's game interface shares: kernel traces, reference replays, replay events."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from simulate.datafiles import rule_choices
from simulate.game import RuleOption


def kernel_traces(
    trace_game: Callable,
    data: Any,
    num_players: int,
    lineup_ids: np.ndarray,
    lineup_params: np.ndarray,
    setup_seeds: np.ndarray,
    play_seeds: np.ndarray,
) -> list[np.ndarray]:
    """The move records of games played by the kernel's bots (seat s plays lineup entry s)."""
    seats = np.arange(num_players)
    return [
        trace_game(data, num_players, seats, lineup_ids, lineup_params, s, p)[0]
        for s, p in zip(setup_seeds, play_seeds, strict=True)
    ]


def time_reference_replay(
    make_reference: Callable[[int], Any], setup_seeds: np.ndarray, traces: list[np.ndarray]
) -> tuple[float, int]:
    """Seconds the reference engine takes to apply recorded moves, and how many moves it applied.

    ``make_reference(setup_seed)`` builds a reference game in its starting position.
    """
    start = time.perf_counter()
    for s, moves in zip(setup_seeds, traces, strict=True):
        ref = make_reference(int(s))
        for mv in moves:
            ref.apply_action(mv)
    return time.perf_counter() - start, sum(len(t) for t in traces)


def move_events(
    ref: Any,
    moves: np.ndarray,
    num_players: int,
    labels: list[str],
    move_names: tuple[str, ...],
    kind_field: int,
    board: Callable[[Any], dict[str, Any]],
) -> list[dict[str, Any]]:
    """One replay event per move, applied to the reference game ``ref`` with the board after it."""
    events = []
    for t, mv in enumerate(moves):
        seat = ref.current_player()
        text = ref.describe(mv)
        ref.apply_action(mv)
        events.append(
            {
                "event": "move",
                "turn": t + 1,
                "round": t // num_players + 1,
                "seat": seat + 1,
                "bot": labels[seat],
                "kind": move_names[int(mv[kind_field])],
                "text": text,
                "record": [int(v) for v in mv],
                **board(ref),
            }
        )
    return events


def time_kernel_replay(
    replay_moves: Callable,
    data: Any,
    num_players: int,
    setup_seeds: np.ndarray,
    play_seeds: np.ndarray,
    traces: list[np.ndarray],
) -> tuple[float, int]:
    """Seconds the numba engine takes to apply recorded moves (compiled outside the clock), and the moves."""
    replay_moves(data, num_players, setup_seeds[:1], play_seeds[:1], traces[:1])
    start = time.perf_counter()
    replay_moves(data, num_players, setup_seeds, play_seeds, traces)
    return time.perf_counter() - start, sum(len(t) for t in traces)


def rule_options(options: dict[str, tuple[type, tuple, str]], defaults: dict[str, Any]) -> dict[str, RuleOption]:
    """The game's rule options (declared as ``(type, allowed, help)``) with the shipped defaults."""
    return {
        name: RuleOption(name, defaults[name], rule_choices(options, name), help)
        for name, (_, _, help) in options.items()
    }
