"""Golems bot win-rate matrix, seat balance of mirror matches and solo win rates against the automaton.

Usage: ``python benchmarks/golems_matrix.py OUT_DIR [SCALE]``. Every pairing is a rotated-seat run of
the shared runner (so each bot sits in each seat equally often); SCALE multiplies the game counts.
Prints Markdown tables (win rate of the row bot against the column bot, Wilson 95% intervals).
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import pandas as pd
from statsmodels.stats.proportion import proportion_confint

from simulate.lineup import parse_lineup
from simulate.registry import make
from simulate.runner import RunSpec, run

BOTS = ("random", "greedy", "collector", "lookahead")
HEURISTIC_GAMES = 100_000
LOOKAHEAD_GAMES = 10_000


def games_for(bots: tuple[str, ...], scale: float) -> int:
    return int(scale * (LOOKAHEAD_GAMES if "lookahead" in bots else HEURISTIC_GAMES))


def play(out: Path, players: int, bots: tuple[str, ...], games: int, seed: int) -> pd.DataFrame:
    game = make("golems")
    spec = RunSpec(
        "golems",
        players,
        games,
        seed,
        parse_lineup(game, list(bots), players),
        chunk_size=min(20_000, max(1_000, games // 8)),
    )
    t = time.perf_counter()
    run(spec, out, workers=2, overwrite=True, progress=False)
    print(f"  {'/'.join(bots)} ({players}p): {games:,} games in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    return pd.read_parquet(out / "seats", columns=["game", "seat", "bot", "score", "win"])


def interval(wins: float, n: int) -> str:
    lo, hi = proportion_confint(wins, n, method="wilson")
    return f"{wins / n:.1%} ({lo:.1%}-{hi:.1%})"


def main(out_dir: str, scale: float = 1.0) -> None:
    out = Path(out_dir)
    rows = {b: {c: "" for c in BOTS} for b in BOTS}
    total = 0
    for k, (a, b) in enumerate(itertools.combinations(BOTS, 2)):
        n = games_for((a, b), scale)
        seats = play(out / f"{a}-{b}", 2, (a, b), n, 100 + k)
        total += n
        for x, y in ((a, b), (b, a)):
            w = seats.loc[seats["bot"] == x, "win"].sum()
            rows[x][y] = interval(w, n)
    print(f"\n### Win rate of the row bot against the column bot (2 players, seats rotated; {total:,} games)\n")
    print("| | " + " | ".join(BOTS) + " |")
    print("|---|" + "---|" * len(BOTS))
    for b in BOTS:
        print(f"| **{b}** | " + " | ".join(rows[b][c] or "-" for c in BOTS) + " |")

    print("\n### Mirror matches: seat 1 (first player) win rate and mean scores\n")
    print("| bot | games | seat 1 wins | seat 1 score | seat 2 score |")
    print("|---|---|---|---|---|")
    for k, b in enumerate(BOTS):
        n = games_for((b,), scale)
        seats = play(out / f"mirror-{b}", 2, (b, b), n, 200 + k)
        s1 = seats[seats["seat"] == 1]
        s2 = seats[seats["seat"] == 2]
        print(f"| {b} | {n:,} | {interval(s1['win'].sum(), n)} | {s1['score'].mean():.2f} | {s2['score'].mean():.2f} |")

    print("\n### Solo: win rate against the automaton\n")
    print("| bot | games | wins | mean score |")
    print("|---|---|---|---|")
    for k, b in enumerate(BOTS):
        n = games_for((b,), scale)
        seats = play(out / f"solo-{b}", 1, (b,), n, 300 + k)
        print(f"| {b} | {n:,} | {interval(seats['win'].sum(), n)} | {seats['score'].mean():.2f} |")


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 1.0)
