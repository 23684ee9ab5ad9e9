"""Throughput benchmarks: numba kernel vs reference engine, and end-to-end runs (``golem bench``)."""

from __future__ import annotations

import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from simulate import __version__
from simulate.game import Lineup
from simulate.jitcache import compiling_notice, is_compiled
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make
from simulate.rng import game_seeds
from simulate.runformat import TABLES, chunk_tables, write_part
from simulate.runner import RunSpec, plan_games, run

BENCH_SEED = 12345


def _kernel_rate(game, data, lineup, num_players: int, num_games: int, repeats: int) -> dict[str, float]:
    spec = RunSpec(game.info.name, num_players, num_games, BENCH_SEED, lineup)
    plan = plan_games(spec, 0, num_games)
    games = plan.lineup(num_players, *lineup_arrays(game, lineup))
    game.play_chunk(data, games.part(0, 4))
    times, cpu, turns = [], [], 0
    for _ in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        tables = game.play_chunk(data, games)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        turns = int(np.asarray(tables.games["turns"]).sum())
    sec = statistics.median(times)
    return {
        "games_per_s": num_games / sec,
        "games_per_cpu_s": num_games / statistics.median(cpu),
        "turns_per_s": turns / sec,
        "turns_per_cpu_s": turns / statistics.median(cpu),
        "seconds": sec,
        "cpu_seconds": statistics.median(cpu),
        "games": num_games,
    }


def chunk_rate(game, data, lineup, num_players: int, num_games: int, repeats: int) -> dict[str, float]:
    """CPU time of whole ``golem simulate`` chunks in this process: play, columns, Arrow tables, Parquet parts.

    ``games_per_cpu_s`` is the rate of one core; a run with one worker per core scales it by the
    number of free cores (the chunks share nothing). Medians of ``repeats``.
    """
    spec = RunSpec(game.info.name, num_players, num_games, BENCH_SEED, lineup)
    plan = plan_games(spec, 0, num_games)
    games = plan.lineup(num_players, *lineup_arrays(game, lineup))
    labels = [e.label for e in lineup]
    game.play_chunk(data, games.part(0, 4))
    times, size = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in TABLES:
            (Path(tmp) / name).mkdir()
        for k in range(repeats):
            t = time.process_time()
            tables = game.play_chunk(data, games)
            files = [
                write_part(Path(tmp), name, k, table)
                for name, table in chunk_tables("bench", num_players, plan, labels, tables).items()
            ]
            times.append(time.process_time() - t)
            size = sum((Path(tmp) / f["path"]).stat().st_size for f in files)
    sec = statistics.median(times)
    return {
        "games_per_cpu_s": num_games / sec,
        "cpu_us_per_game": 1e6 * sec / num_games,
        "parquet_bytes_per_game": size / num_games,
        "games": num_games,
    }


def _reference_rate(game, data, lineup, num_players: int, num_games: int) -> dict[str, float]:
    """The game's plain-Python reference engine replaying kernel-played games, per CPU second (first use excluded)."""
    setup, play = game_seeds(BENCH_SEED, np.arange(num_games), np.arange(num_games))
    seconds, turns = game.reference_replay_seconds(
        data, Lineup.in_order(num_players, *lineup_arrays(game, lineup), setup, play)
    )
    return {
        "games_per_cpu_s": num_games / seconds,
        "turns_per_cpu_s": turns / seconds,
        "cpu_seconds": seconds,
        "games": num_games,
    }


def run_bench(
    game_name: str,
    num_games: int | None = None,
    repeats: int = 5,
    run_games: int = 1_000_000,
    log: Callable[[str], None] = lambda line: None,
) -> Iterator[dict[str, Any]]:
    """Yield one JSON-able record per measurement (compile time excluded, medians of ``repeats``).

    ``log`` receives a line before each measurement starts (and before compiling, on first use).
    """
    game = make(game_name)
    data = game.load_data(None, {})
    players, lineups = bench_setup(game)
    base = {"game": game_name, "version": __version__, "engine_version": game.info.version, "players": players}
    if not is_compiled(type(game).__module__):
        log(compiling_notice(game.info.title))
    for bots, default_games in lineups.items():
        lineup = parse_lineup(game, bots.split(","), players)
        n = num_games or default_games
        log(f"{game_name} --bots {bots}: kernel, chunk and reference engine, {n:,} games x {repeats} repeats")
        fast = _kernel_rate(game, data, lineup, players, n, repeats)
        yield {**base, "bench": "kernel_one_core", "bots": bots, **_round(fast)}
        whole = chunk_rate(game, data, lineup, players, n, repeats)
        yield {
            **base,
            "bench": "simulate_chunk_one_core",
            "bots": bots,
            **_round(whole),
            "note": "CPU time of play, columns and Parquet parts (what golem simulate does per chunk)",
        }
        ref = _reference_rate(game, data, lineup, players, max(20, n // 200))
        yield {**base, "bench": "reference_engine", "bots": bots, **_round(ref)}
        yield {
            **base,
            "bench": "kernel_with_bots_vs_reference_replay",
            "bots": bots,
            "turns_per_cpu_s_ratio": round(fast["turns_per_cpu_s"] / ref["turns_per_cpu_s"], 1),
            "compared": "the kernel playing whole games, its bots deciding every move (a search bot plays many "
            "hidden games per move), against the reference only applying recorded moves: not an engine speedup "
            "(see engine_replay_vs_reference)",
        }
        count = max(200, n // 50)
        setup, play = game_seeds(BENCH_SEED, np.arange(count), np.arange(count))
        timed = game.kernel_replay_seconds(data, Lineup.in_order(players, *lineup_arrays(game, lineup), setup, play))
        if timed is not None:
            seconds, turns = timed
            yield {
                **base,
                "bench": "engine_replay_vs_reference",
                "bots": bots,
                "games": count,
                "kernel_turns_per_cpu_s": round(turns / seconds),
                "speedup": round(turns / seconds / ref["turns_per_cpu_s"], 1),
                "note": "both engines applying the same recorded moves, no bots; CPU time, first use excluded",
            }
    rates = None
    if "search" in game.info.bots:
        _, params = lineup_arrays(game, parse_lineup(game, ["search"], players))
        rates = game.search_rates(data, params[0], 60, repeats)
    if rates is not None:
        yield {
            **base,
            "bench": "search_one_core",
            "bots": "search",
            **_round(rates),
            "note": "search decisions and iterations per CPU second against bare rollouts of the same policy "
            "from the same positions (tree_overhead = search time / rollout time)",
        }
    if game.info.apprentice is not None and "search" in game.info.bots:
        log(f"{game_name}: apprentice against search, side by side ({repeats} alternating repeats)")
        yield {**base, **apprentice_speedup(game, data, players, repeats, num_games)}
    count = 10
    setup, play = game_seeds(BENCH_SEED, np.arange(count), np.arange(count))
    timed = game.reference_random_seconds(data, players, setup, play) if "random" in game.info.bots else None
    if timed is not None:
        # whole games with the same uniform random player on both engines: the fairest comparison
        seconds, turns = timed
        lineup = parse_lineup(game, ["random"], players)
        log(f"{game_name} --bots random: kernel against reference engine, whole games")
        fast = _kernel_rate(game, data, lineup, players, num_games or 5_000, repeats)
        yield {
            **base,
            "bench": "random_games_kernel_vs_reference",
            "bots": "random",
            "kernel_turns_per_s": round(fast["turns_per_s"]),
            "reference_turns_per_s": round(turns / seconds),
            "kernel_games_per_s": round(fast["games_per_s"]),
            "reference_games_per_s": round(count / seconds, 2),
            "speedup": round(fast["turns_per_s"] / (turns / seconds), 1),
        }
    if run_games:
        bots = next(iter(lineups))
        lineup = parse_lineup(game, bots.split(","), players)
        for games in (run_games // 10, run_games):
            log(f"{game_name} --bots {bots}: golem simulate of {games:,} games on all cores")
            with tempfile.TemporaryDirectory() as tmp:
                spec = RunSpec(game.info.name, players, games, BENCH_SEED, lineup)
                t = time.perf_counter()
                run(spec, Path(tmp) / "run", progress=True)
                sec = time.perf_counter() - t
                size = sum(f.stat().st_size for f in (Path(tmp) / "run").rglob("*.parquet"))
            yield {
                **base,
                "bench": "simulate_run_all_cores",
                "bots": bots,
                "games": games,
                "seconds": round(sec, 2),
                "games_per_s": round(games / sec),
                "parquet_mb": round(size / 2**20, 1),
                "peak_rss_mb_children": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024),
            }


def apprentice_speedup(game, data, players: int, repeats: int, num_games: int | None = None) -> dict[str, Any]:
    """CPU per game of the ``apprentice`` and of the ``search`` bot in every seat, measured alternately in this
    process (search, apprentice, search, ...), so the machine's drift hits both alike; the ratio per pair.

    Each measurement plays ``bench_lineups``' games of that bot (at most ``num_games``), the same setups for both.
    """
    lineups = game.info.bench_lineups
    sizes = {bot: min(num_games or lineups.get(bot, 40), lineups.get(bot, 40)) for bot in ("search", "apprentice")}
    plans = {}
    for bot, n in sizes.items():
        lineup = parse_lineup(game, [bot], players)
        plan = plan_games(RunSpec(game.info.name, players, n, BENCH_SEED, lineup), 0, n)
        plans[bot] = plan.lineup(players, *lineup_arrays(game, lineup))
        game.play_chunk(data, plans[bot].part(0, 2))
    cpu: dict[str, list[float]] = {"search": [], "apprentice": []}
    for _ in range(repeats):
        for bot in ("search", "apprentice"):
            c = time.process_time()
            game.play_chunk(data, plans[bot])
            cpu[bot].append((time.process_time() - c) / sizes[bot])
    ratios = [s / a for s, a in zip(cpu["search"], cpu["apprentice"], strict=True)]
    return {
        "bench": "apprentice_vs_search_one_core",
        "bots": "apprentice / search",
        "search_cpu_ms_per_game": round(1e3 * statistics.median(cpu["search"]), 2),
        "apprentice_cpu_ms_per_game": round(1e3 * statistics.median(cpu["apprentice"]), 3),
        "speedup_median": round(statistics.median(ratios), 1),
        "speedup_min": round(min(ratios), 1),
        "speedup_max": round(max(ratios), 1),
        "games": sizes,
        "note": "every seat played by the bot; CPU per game, alternating pairs in one process; speedup = "
        "search CPU / apprentice CPU per game, pair by pair",
    }


def bench_setup(game) -> tuple[int, dict[str, int]]:
    """Player count and lineups (``--bots`` strings -> default games) a game declares for ``golem bench``.

    Games without ``bench_lineups`` are measured with their first bot in every seat.
    """
    players = game.info.bench_players
    lineups = game.info.bench_lineups or {next(iter(game.info.bots)): 20_000}
    return players, dict(lineups)


def _round(d: dict[str, float]) -> dict[str, float]:
    return {k: (round(v, 3) if isinstance(v, float) and v < 100 else round(v)) for k, v in d.items()}
