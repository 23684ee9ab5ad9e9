"""Head-to-head strength of a bot against a field: one JSON line with its Wilson interval.

Bot A sits in one seat, bot B in every other; each setup is played once per seat order (the A seat
rotates), so seat advantage cancels. The search bots' figures of docs/century.md and docs/golems.md
come from it::

    python benchmarks/search_strength.py 2 2000 16 search planner
    python benchmarks/search_strength.py 3 900 17 search planner
    python benchmarks/search_strength.py 2 400 18 search:iterations=200 search:iterations=100
    python benchmarks/search_strength.py 2 2000 19 search lookahead --game golems
    python benchmarks/search_strength.py 4 2000 20 search equity --game golem-poker
    python benchmarks/search_strength.py 2 2000 16 search balanced --game golem

The A seat's mean score (points, or net chips in golem-poker, whose "win" is a share of the pot)
comes with its t interval, and its mean margin over the best other seat.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from simulate.game import Lineup
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make
from simulate.rng import game_seeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", type=int)
    parser.add_argument("games", type=int, help="a multiple of players keeps the seat orders balanced")
    parser.add_argument("seed", type=int)
    parser.add_argument("bot_a")
    parser.add_argument("bot_b")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--game", default="century")
    parser.add_argument("--cards", help="a data folder to play with (default: the game's shipped data)")
    args = parser.parse_args()
    n, games = args.players, args.games
    game = make(args.game)
    d = game.load_data(Path(args.cards) if args.cards else None, {})
    ids, params = lineup_arrays(game, parse_lineup(game, [args.bot_a] + [args.bot_b] * (n - 1), n))
    index = np.arange(games)
    setup, plays = game_seeds(args.seed, index, index // n)  # each setup once per seat order
    seat_bot = (np.arange(n)[None, :] - (index % n)[:, None]) % n  # lineup entry 0 (bot A) moves around
    cpu = time.process_time()
    tables = game.play_chunk(d, Lineup(n, seat_bot, ids, params, setup, plays), args.threads, check_moves=True)
    cpu = time.process_time() - cpu
    win = np.asarray(tables.seats["win"], float).reshape(games, n)
    a_seat = np.argmax(seat_bot == 0, axis=1)
    wins = float(win[index, a_seat].sum())
    low, high = proportion_confint(wins, games, method="wilson")
    scores = np.asarray(tables.seats["score"], float).reshape(games, n)
    score = scores[index, a_seat]
    best_other = np.where(seat_bot == 0, -np.inf, scores).max(axis=1)
    score_ci = stats.t.interval(0.95, games - 1, loc=score.mean(), scale=stats.sem(score))
    end = tables.games["end_reason"]
    record = {
        "game": args.game,
        "players": n,
        "games": games,
        "seed": args.seed,
        "a": args.bot_a,
        "b": args.bot_b,
        "a_wins": round(wins / games, 4),
        "wilson95": [round(low, 4), round(high, 4)],
        "fair_share": round(1 / n, 4),
        "a_mean_score": round(float(score.mean()), 2),
        "a_mean_score_ci95": [round(float(x), 2) for x in score_ci],
        "a_margin_over_best_other": round(float((score - best_other).mean()), 2),
        "cpu_ms_per_game": round(1000 * cpu / games, 1),
        "mean_turns": round(float(np.mean(tables.games["turns"])), 1),
        "illegal_moves": int((np.asarray(end.codes) == end.categories.index("illegal_move")).sum()),
    }
    print(json.dumps(record))


if __name__ == "__main__":
    main()
