"""Did the apprentice learn the game, or only its opponents? Mirror matches of the apprentice and of the search bot
at each player count, each seat's win rate with its Wilson interval, and whether the two agree.

One JSON line per player count and seat; the search and the apprentice play the same setups (one game per seed,
seats fixed, so each seat's rate is the seat's advantage under that player)::

    python benchmarks/apprentice_mirrors.py century 2000 20000 --players 2 3 4 5
    python benchmarks/apprentice_mirrors.py golems 2000 20000 --players 2

Arguments: the game, the search games per player count, the apprentice games per player count. Either count may be
0 (the apprentice's games alone, say, to set beside a search run already made): that bot is skipped, and the line
has no ``intervals_overlap``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from statsmodels.stats.proportion import proportion_confint

from simulate.game import Lineup
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make
from simulate.rng import game_seeds

SEED = 31


def seat_wins(game, data, bot: str, players: int, games: int, threads: int) -> tuple[np.ndarray, float]:
    """Each game's win share per seat (games, players) of a mirror match, and the CPU seconds it took."""
    lineup = parse_lineup(game, [bot], players)
    ids, params = lineup_arrays(game, lineup)
    setup, play = game_seeds(SEED, np.arange(games), np.arange(games))
    mirror = Lineup(players, np.zeros((games, players), np.int64), ids, params, setup, play)
    started = time.process_time()
    wins = []
    for lo in range(0, games, 200):
        hi = min(lo + 200, games)
        tables = game.play_chunk(data, mirror.part(lo, hi), threads)
        wins.append(np.asarray(tables.seats["win"], np.float64).reshape(hi - lo, players))
    return np.concatenate(wins), time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("search_games", type=int)
    parser.add_argument("apprentice_games", type=int)
    parser.add_argument("--players", type=int, nargs="+", required=True)
    parser.add_argument("--search", default="search", help="the search bot's spec (default: its defaults)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cards", help="a data folder to play with (default: the game's shipped data)")
    args = parser.parse_args()
    if args.search_games <= 0 and args.apprentice_games <= 0:
        parser.error("give at least one of search_games and apprentice_games above 0")
    game = make(args.game)
    data = game.load_data(Path(args.cards) if args.cards else None, {})
    for n in args.players:
        rates = {}
        for bot, games in ((args.search, args.search_games), ("apprentice", args.apprentice_games)):
            if games <= 0:
                continue
            wins, cpu = seat_wins(game, data, bot, n, games, args.threads)
            rates[bot] = (wins, cpu)
        for s in range(n):
            row = {"game": args.game, "players": n, "seat": s + 1, "fair_share": round(1 / n, 4)}
            bounds = {}
            for bot, (wins, cpu) in rates.items():
                k = float(wins[:, s].sum())
                lo, hi = proportion_confint(k, len(wins), alpha=0.05, method="wilson")
                key = "search" if bot == args.search else "apprentice"
                row[f"{key}_games"] = len(wins)
                row[f"{key}_win"] = round(k / len(wins), 4)
                row[f"{key}_wilson95"] = [round(lo, 4), round(hi, 4)]
                row[f"{key}_cpu_ms_per_game"] = round(1e3 * cpu / len(wins), 2)
                bounds[key] = (lo, hi)
            if len(bounds) == 2:
                row["intervals_overlap"] = bool(
                    bounds["search"][0] <= bounds["apprentice"][1] and bounds["apprentice"][0] <= bounds["search"][1]
                )
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
