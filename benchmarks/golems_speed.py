"""Golems throughput: the numba kernel on one core and on two threads, wall and CPU time, and beside it
the end-to-end figure: CPU time of whole ``golem simulate`` chunks (play, columns, Parquet parts).

Usage: ``python benchmarks/golems_speed.py [GAMES]``; one JSON line per measurement (compile time
excluded, best of 3 for the kernel, median of 3 for chunks). ``golem bench golems`` adds the
reference engine and a timed ``golem simulate`` run on all cores.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

from simulate import __version__
from simulate.bench import chunk_rate
from simulate.games.golems import bots as B
from simulate.games.golems import data as D
from simulate.games.golems.play import play_batch
from simulate.lineup import parse_lineup
from simulate.registry import make
from simulate.rng import game_seeds


def measure(names: list[str], players: int, games: int, threads: int) -> dict:
    data = D.load()
    ids = np.array([B.BOTS[n][0] for n in names])
    params = np.stack([B.default_params(n) for n in names])
    setup, play = game_seeds(12345, np.arange(games), np.arange(games))
    seat = (np.arange(players)[None, :] + np.arange(games)[:, None]) % len(names)
    play_batch(data, players, seat[:8], ids, params, setup[:8], play[:8], threads)  # compile
    best_wall, best_cpu, turns = np.inf, np.inf, 0
    for _ in range(3):
        w, c = time.perf_counter(), time.process_time()
        st = play_batch(data, players, seat, ids, params, setup, play, threads)
        best_wall = min(best_wall, time.perf_counter() - w)
        best_cpu = min(best_cpu, time.process_time() - c)
        turns = int(st["turn"].sum())
    return {
        "game": "golems",
        "version": __version__,
        "bench": "kernel",
        "bots": ",".join(names),
        "players": players,
        "threads": threads,
        "games": games,
        "games_per_s_wall": round(games / best_wall),
        "games_per_s_cpu": round(games / best_cpu * threads),
        "turns_per_game": round(turns / games, 1),
    }


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    for names, players in (
        (["greedy"], 2),
        (["collector"], 2),
        (["greedy", "collector"], 2),
        (["greedy"], 1),
        (["collector"], 1),
    ):
        for threads in (1, 2):
            print(json.dumps(measure(names, players, n, threads)), flush=True)
        game = make("golems")
        whole = chunk_rate(game, D.load(), parse_lineup(game, names, players), players, min(n, 20_000), 3)
        print(
            json.dumps(
                {
                    "game": "golems",
                    "version": __version__,
                    "bench": "simulate_chunk_one_core",
                    "bots": ",".join(names),
                    "players": players,
                    "games": whole["games"],
                    "games_per_s_cpu": round(whole["games_per_cpu_s"]),
                    "two_core_capacity": round(2 * whole["games_per_cpu_s"]),
                    "cpu_us_per_game": round(whole["cpu_us_per_game"], 2),
                    "parquet_bytes_per_game": round(whole["parquet_bytes_per_game"]),
                }
            ),
            flush=True,
        )
