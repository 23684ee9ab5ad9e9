"""Golem (Cranio) bot-strength matrix: the row bot in one seat against the column bot in every other seat.

Seats rotated (each setup once per seat of the row bot), 1,200 games per cell, master seed 5; one JSON line
per row bot with its win rates against each column bot. The tables of docs/golem.md (Bots) come from::

    python benchmarks/golem_matrix.py 4
    python benchmarks/golem_matrix.py 2
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from simulate.games.golem import columns, play
from simulate.games.golem import loader as golem_loader
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make
from simulate.rng import game_seeds

BOTS = ("random", "greedy", "golems", "artifacts", "books", "balanced")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("players", type=int)
    parser.add_argument("--games", type=int, default=1200, help="games per cell")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    n, games = args.players, args.games
    game = make("golem")
    d = golem_loader.load()
    index = np.arange(games)
    setup, plays = game_seeds(args.seed, index, index // n)
    seat_bot = (np.arange(n)[None, :] - (index % n)[:, None]) % n  # lineup entry 0 (the row bot) moves around
    a_seat = np.argmax(seat_bot == 0, axis=1)
    for a in BOTS:
        wins = []
        for b in BOTS:
            ids, params = lineup_arrays(game, parse_lineup(game, [a] + [b] * (n - 1), n))
            st = play.play_batch(d, n, seat_bot, ids, params, setup, plays)
            wins.append(round(float(columns.results(d, st)["win"][index, a_seat].mean()), 4))
        print(
            json.dumps(
                {
                    "players": n,
                    "games_per_cell": games,
                    "seed": args.seed,
                    "row": a,
                    "wins": dict(zip(BOTS, wins, strict=True)),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
