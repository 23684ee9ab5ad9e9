"""Golem-poker's ``cfr`` bot measured as a poker player: JSON lines of chips per hand, play profile, exploitability.

Three kinds of line (``"kind"``), each with its game counts and seeds:

* ``gain``: the cfr bot in one seat against another bot in every other seat (every registered bot, and the
  simplest exploits: a table that always folds, one that always raises 2 antes at a time, one that always raises the
  minimum), the cfr seat rotated through the table (each deal played once per seat order), and the reverse (the other
  bot alone among cfr bots, ``"alone"``: what that bot gains against the cfr table); net chips per hand (one game is
  one pot) with a 95% t interval, at 3-6 players; and how often the lone bot folded before the draw by the strength of
  the hand it was dealt (``folds_before_draw``: hands and share folded in each band of ``OPENING_EDGES``), which shows
  a table that throws away strong hands against a field that raises;
* ``profile``: mirror games of every bot: folds, bets, raises, calls and showdowns reached per seat-game and the share
  of seat-games using each (``analysis.stats.profile.play_profile``, the report's play profile), and the share of
  pots reaching a showdown;
* ``exploitability``: in the abstraction the bot was trained on, each seat's best response (MCCFR against the
  shipped table in every other seat, ``simulate.orchestration.equilibrium.exploitability``) and its gain in chips
  per hand over the table's own play of that seat, with a 95% t interval.

Run (about half an hour on two busy cores, most of it the search games; the figures of docs/golem-poker.md come
from this)::

    python benchmarks/poker_cfr.py --games 600 --seed 46
    python benchmarks/poker_cfr.py --only exploitability --response-iterations 20000 --response-games 20000

A reduced run measures a few rivals only, e.g. ``--only gain --others always_fold,always_raise,min_raise,equity``.
``--table FOLDER`` measures the table of a ``golem train golem-poker --out FOLDER`` run in place of the shipped one
(its lines name that training's command), so refits from several seeds compare before one is installed::

    golem train golem-poker --seed 1 --out runs/cfr-seed1
    python benchmarks/poker_cfr.py --table runs/cfr-seed1 --only gain --others always_raise,min_raise,equity -p 6
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from tqdm import tqdm

from analysis.stats.profile import play_profile
from simulate.datafiles import DataError
from simulate.game import Lineup
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.orchestration.equilibrium import TaskPool, exploitability, plan_equilibrium
from simulate.registry import make
from simulate.rng import game_seeds

EXPLOITS = {
    "always_fold": "threshold:fold_below=1:raise_above=1",  # checks when it can, folds to every bet
    "always_raise": "threshold:fold_below=0:raise_above=0:max_raises=20:bet_antes=2",  # bets and raises whenever it may
    "min_raise": "threshold:fold_below=0:raise_above=0:max_raises=20:bet_antes=1",  # the same, the minimum each time
}
"""The simplest exploits, as threshold players (``tests/test_golem_poker_cfr.py`` plays the first two)."""
OPENING_EDGES = (0.92, 0.97, 0.99)
"""Bands of a seat's opening strength (its first five cards' percentile among all hands) for ``folds_before_draw``:
below the top 8%, the top 8-3%, 3-1% and 1%."""
SLOW = ("search",)
"""Bots whose games cost a search each decision: they play ``--slow-games``."""


def _t(x: np.ndarray) -> list[float]:
    lo, hi = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=stats.sem(x))
    return [round(float(lo), 1), round(float(hi), 1)]


def _play(game, data, lineup: list[str], players: int, games: int, seed: int):
    """Tables of ``games`` games, lineup entry 0 rotated through the seats (each deal once per seat order)."""
    ids, params = lineup_arrays(game, parse_lineup(game, lineup, players))
    index = np.arange(games)
    setup, plays = game_seeds(seed, index, index // players)
    seat_bot = (np.arange(players)[None, :] - (index % players)[:, None]) % players
    tables = game.play_chunk(data, Lineup(players, seat_bot, ids, params, setup, plays))
    return tables, seat_bot


def gain(game, data, a: str, b: str, players: int, games: int, seed: int) -> dict:
    """Bot ``a`` alone among ``b`` bots: its net chips per hand."""
    tables, seat_bot = _play(game, data, [a] + [b] * (players - 1), players, games, seed)
    rows, seat = np.arange(games), np.argmax(seat_bot == 0, axis=1)
    mine = np.asarray(tables.seats["score"], float).reshape(games, players)[rows, seat]
    codes, names = tables.seats["out"]
    folded = (np.asarray(codes) == names.index("first_round")).reshape(games, players)[rows, seat]
    band = np.digitize(
        np.asarray(tables.seats["opening_strength"], float).reshape(games, players)[rows, seat], OPENING_EDGES
    )
    edges = (0.0, *OPENING_EDGES, 1.0)
    folds = {
        f"{edges[k]:g}-{edges[k + 1]:g}": {
            "hands": int((band == k).sum()),
            "folded": round(float(folded[band == k].mean()), 3),
        }
        for k in range(len(edges) - 1)
        if (band == k).any()
    }
    return {"chips": round(float(mine.mean()), 1), "chips_ci95": _t(mine), "folds_before_draw": folds}


def profile(game, data, bot: str, players: int, games: int, seed: int) -> dict:
    tables, _ = _play(game, data, [bot] * players, players, games, seed)
    seats = pd.DataFrame({c: np.asarray(tables.seats[c]) for c in game.info.profile_columns})
    seats["bot"] = bot
    prof = play_profile(seats, game.info.profile_columns).set_index("mechanism")
    showdowns = np.asarray(tables.games["showdowns"], float)
    return {
        "per_seat_game": {m: round(float(prof.at[m, "mean"]), 3) for m in game.info.profile_columns},
        "share_used": {m: round(float(prof.at[m, "share_used"]), 3) for m in game.info.profile_columns},
        "pots_with_showdown": round(float((showdowns > 0).mean()), 3),
    }


def load_data(game, table: Path | None):
    """The shipped data, or with the policy table and provenance of training folder ``table`` in place of the shipped
    ones (checked as the shipped ones are); ``DataError`` naming what is missing or refused."""
    if table is None:
        return game.load_data(None, {})
    spec = game.info.equilibrium
    names = (spec.policy_file, spec.provenance_file)
    missing = [name for name in names if not (table / name).is_file()]
    if missing:
        raise DataError(f"{table}: no {' or '.join(missing)} (the output folder of golem train {game.info.name})")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "data"
        shutil.copytree(game.data_dir(), folder)
        for name in names:
            shutil.copy2(table / name, folder / name)
        return game.load_data(folder, {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games per head-to-head (a multiple of 6)")
    parser.add_argument("--slow-games", type=int, default=120, help="games per head-to-head of a search bot")
    parser.add_argument("--profile-games", type=int, default=400, help="mirror games per profiled bot")
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("-p", "--players", default="3,4,5,6")
    parser.add_argument("--response-iterations", type=int, default=20_000)
    parser.add_argument("--response-games", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=("gain", "profile", "exploitability"))
    parser.add_argument("--others", help="comma-separated bots (and exploits) to measure cfr against; default all")
    parser.add_argument(
        "--table", type=Path, help="a golem train output folder whose table cfr plays (default: shipped)"
    )
    args = parser.parse_args()
    game = make("golem-poker")
    try:
        data = load_data(game, args.table)
    except DataError as e:
        parser.error(f"--table: {e}")
    others = {name: name for name in game.info.bots if name != "cfr"} | EXPLOITS
    if args.others:
        picked = args.others.split(",")
        unknown = sorted(set(picked) - set(others))
        if unknown:
            parser.error(f"--others: unknown {', '.join(unknown)} (one of {', '.join(others)})")
        others = {name: others[name] for name in picked}
    profiled = {"cfr": "cfr", **others}
    version = {"engine_version": game.info.version, "policy": data.provenance["cfr_policy"].get("command", "")}
    for n in (int(x) for x in args.players.split(",")):
        if args.only in (None, "gain"):
            for other, spec in others.items():
                start = time.process_time()
                games = args.slow_games if other in SLOW else args.games
                line = {"kind": "gain", "players": n, "games": games, "seed": args.seed, "other": other}
                line["cfr_alone"] = gain(game, data, "cfr", spec, n, games, args.seed)
                line["other_alone"] = gain(game, data, spec, "cfr", n, games, args.seed)
                line["cpu_s"] = round(time.process_time() - start, 1)
                print(json.dumps({**line, **version}), flush=True)
        if args.only in (None, "profile"):
            for bot, spec in profiled.items():
                games = args.slow_games if bot in SLOW else args.profile_games
                line = {"kind": "profile", "players": n, "games": games, "seed": args.seed, "bot": bot}
                line.update(profile(game, data, spec, n, games, args.seed))
                print(json.dumps({**line, **version}), flush=True)
    if args.only in (None, "exploitability"):
        with tempfile.TemporaryDirectory() as tmp:
            plan = plan_equilibrium(
                "golem-poker", Path(tmp) / "x", seed=args.seed, workers=args.workers, games=args.response_games
            )
            pool = TaskPool(args.workers)
            total = sum(game.info.equilibrium.player_counts) * args.response_iterations
            try:
                with tqdm(total=total, desc="best responses", unit="it") as bar:
                    rows = exploitability(
                        plan, data.tables.policy, pool, bar, args.response_iterations, args.response_games
                    )
            finally:
                pool.close()
        for r in rows:
            line = {"kind": "exploitability", "iterations": args.response_iterations, "seed": args.seed, **r}
            for key in ("gain", "gain_lo", "gain_hi", "table_value"):
                line[key] = round(line[key], 1)
            print(json.dumps({**line, **version}), flush=True)


if __name__ == "__main__":
    main()
