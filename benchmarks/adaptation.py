"""Take shares of a game's planted card edits (``simulate.adaptation``): one JSON line per edit, player and lineup.

Plays the edits ``Game.adaptation`` declares, printed and edited on the same games (whose opening shows the card),
for the asserted players and the recorded ones (default) or the bot specs given, and prints each take share with
the number of games per arm, the seeds and the time of the whole measurement (compile time included when the
kernels were not cached). docs/century.md, docs/golem.md and docs/golems.md cite it::

    python benchmarks/adaptation.py century
    python benchmarks/adaptation.py golems apprentice random
    python benchmarks/adaptation.py century --threads 1 --players search
    python benchmarks/adaptation.py century apprentice --rival-take   # and the rival's take in the same matches
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time

from simulate import __version__
from simulate.adaptation import measure
from simulate.registry import make


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", nargs="*", help="bot specs to measure (default: the declared players)")
    parser.add_argument("--threads", type=int, default=None, help="threads of play (default: every CPU)")
    parser.add_argument("--rival-take", action="store_true", help="also the rival's take in each player's matches")
    parser.add_argument("--games", type=int, default=None, help="games per lineup and arm (default: the spec's)")
    args = parser.parse_args()
    game = make(args.game)
    spec = game.info.adaptation
    if spec is None:
        raise SystemExit(f"{args.game} declares no planted edits")
    wall, cpu = time.perf_counter(), time.process_time()
    if args.games is not None:
        spec = dataclasses.replace(spec, games=args.games)
    table = measure(game, spec, tuple(args.players) or None, args.threads, args.rival_take)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    for row in table.to_dict("records"):
        print(
            json.dumps(
                {
                    "game": args.game,
                    "version": __version__,
                    "engine_version": game.info.version,
                    **{k: round(v, 4) if isinstance(v, float) else v for k, v in row.items()},
                    "seed": spec.seed,
                    "wall_s": round(wall, 1),
                    "cpu_s": round(cpu, 1),
                }
            )
        )


if __name__ == "__main__":
    main()
