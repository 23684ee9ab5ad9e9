"""What recording trajectories costs a run: CPU seconds and bytes of a chunk played and written with and without.

One JSON line per game and setting: the median CPU seconds (play + Parquet parts) over the repeats, the bytes of
every part, and the ratios. Compile time is left out (a first chunk is played untimed)::

    python benchmarks/trajectories_cost.py century 3 greedy 5000 --repeats 5

Arguments: the game, players, the bot of every seat, games per chunk.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from simulate import __version__
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make
from simulate.runformat import chunk_tables, write_part
from simulate.runner import RunSpec, plan_games

SEED = 29


def play_and_write(game, data, spec: RunSpec, out: Path, trajectories: bool) -> tuple[float, int]:
    """CPU seconds to play a chunk of ``spec`` and write its parts into ``out``, and the parts' bytes."""
    plan = plan_games(spec, 0, spec.num_games)
    lineup = plan.lineup(spec.num_players, *lineup_arrays(game, spec.lineup))
    start = time.process_time()
    tables = game.play_chunk(data, lineup, trajectories=trajectories)
    parts = chunk_tables("bench", spec.num_players, plan, [e.label for e in spec.lineup], tables)
    for name, table in parts.items():
        (out / name).mkdir(parents=True, exist_ok=True)
        write_part(out, name, 0, table)
    seconds = time.process_time() - start
    return seconds, sum(p.stat().st_size for p in out.rglob("*.parquet"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("bot")
    parser.add_argument("games", type=int)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    game = make(args.game)
    data = game.load_data(None, {})
    spec = RunSpec(args.game, args.players, args.games, SEED, parse_lineup(game, [args.bot], args.players))
    first = RunSpec(args.game, args.players, 10, SEED, spec.lineup)
    seconds: dict[bool, list[float]] = {False: [], True: []}
    size: dict[bool, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for on in (False, True):
            play_and_write(game, data, first, Path(tmp, f"warm-{on}"), on)  # compiled outside the clock
        for k in range(args.repeats):
            for on in (False, True) if k % 2 == 0 else (True, False):
                folder = Path(tmp, f"{k}-{on}")
                folder.mkdir()
                cpu, size[on] = play_and_write(game, data, spec, folder, on)
                seconds[on].append(cpu)
    off, on = statistics.median(seconds[False]), statistics.median(seconds[True])
    print(
        json.dumps(
            {
                "game": args.game,
                "players": args.players,
                "bot": args.bot,
                "games": args.games,
                "repeats": args.repeats,
                "cpu_s_without": round(off, 4),
                "cpu_s_with": round(on, 4),
                "time_ratio": round(on / off, 3),
                "bytes_per_game_without": round(size[False] / args.games, 1),
                "bytes_per_game_with": round(size[True] / args.games, 1),
                "size_ratio": round(size[True] / size[False], 3),
                "package_version": __version__,
            }
        )
    )


if __name__ == "__main__":
    main()
