"""Head-to-head strength of a Golem (Cranio) bot against a field: one JSON line with its Wilson interval.

Bot A sits in one seat, bot B in every other; each setup is played once per seat (bot A's seat rotates), so the
seat and turn-order advantage cancels. The figures of docs/golem.md (search bot) come from it::

    python benchmarks/golem_search_strength.py 2 2000 16 search balanced
    python benchmarks/golem_search_strength.py 4 400 17 search balanced
    python benchmarks/golem_search_strength.py 3 300 19 search balanced
    python benchmarks/golem_search_strength.py 2 300 18 search:iterations=100 search:iterations=50
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from statsmodels.stats.proportion import proportion_confint

from simulate.games.golem import data as golem_data
from simulate.games.golem import play
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make
from simulate.rng import game_seeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", type=int)
    parser.add_argument("games", type=int, help="a multiple of players keeps the seats balanced")
    parser.add_argument("seed", type=int)
    parser.add_argument("bot_a")
    parser.add_argument("bot_b")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    n, games = args.players, args.games
    game = make("golem")
    d = golem_data.load()
    ids, params = lineup_arrays(game, parse_lineup(game, [args.bot_a] + [args.bot_b] * (n - 1), n))
    index = np.arange(games)
    setup, plays = game_seeds(args.seed, index, index // n)  # each setup once per seat of bot A
    seat_bot = (np.arange(n)[None, :] - (index % n)[:, None]) % n  # lineup entry 0 (bot A) moves around
    cpu, wall = time.process_time(), time.perf_counter()
    st = play.play_batch(d, n, seat_bot, ids, params, setup, plays, args.threads)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    res = play.results(d, st)
    a_seat = np.argmax(seat_bot == 0, axis=1)
    wins = float(res["win"][index, a_seat].sum())
    low, high = proportion_confint(wins, games, method="wilson")
    score = res["score"]
    others = np.where(seat_bot == 0, -1, score).max(axis=1)
    record = {
        "players": n,
        "games": games,
        "seed": args.seed,
        "a": args.bot_a,
        "b": args.bot_b,
        "a_wins": round(wins / games, 4),
        "wilson95": [round(low, 4), round(high, 4)],
        "fair_share": round(1 / n, 4),
        "a_mean_score": round(float(score[index, a_seat].mean()), 2),
        "a_margin_over_best_other": round(float((score[index, a_seat] - others).mean()), 2),
        "cpu_s_per_game": round(cpu / games, 3),  # the kernels' first compile included
        "wall_s": round(wall, 1),
        "mean_decisions": round(float(st["moves"].mean()), 1),
        "errors": int((st["error"] != 0).sum()),
    }
    print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
