"""Scale figures of whole runs, for every game with an engine: prints one JSON line each.

Usage: python benchmarks/scale.py [--seconds 4] [--repeats 3] [--memory-game golem-poker]
                                  [--small 100000] [--big 10000000] [--games century ...]

* ``throughput``: games/s of whole ``golem simulate`` runs (Parquet parts and manifest included;
  compilation and cluster start-up excluded) with 1 local worker, 2 local workers and a 2-worker
  Dask LocalCluster; the median of ``--repeats``, wall clock. ``scaling_*`` is a 2-worker rate over
  the 1-worker rate (2.0 is perfect on two idle cores). ``games_per_cpu_s`` divides by the CPU
  time of every process of the run (main, pool workers, Dask workers) instead: on a machine loaded
  by other jobs, where wall-clock scaling means little, ``cpu_efficiency`` (a 2-worker figure over
  the 1-worker one) shows what running in parallel costs (1.0: nothing).
* ``log_cost``: CPU seconds per game of playing a chunk (the kernel) and of logging it (building the
  tables, writing the three Parquet parts with their checksums), and logging's share of the chunk.
* ``run_memory``: peak memory of a ``--small`` and a ``--big`` run of one fast game, each in a fresh
  process (``benchmarks/run_memory.py``).

Every line carries the package version and the 1-minute load average before the measurement: the
figures are only as good as the machine is idle.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from simulate import __version__
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import available_games, make
from simulate.runformat import TABLES, chunk_tables, write_part
from simulate.runner import RunSpec, plan_games, run

SEED = 2026
HERE = Path(__file__).resolve().parent


def emit(line: dict) -> None:
    print(json.dumps({**line, "version": __version__, "load_1min": round(os.getloadavg()[0], 2)}), flush=True)


def bench_spec(name: str, num_games: int, chunk_size: int) -> RunSpec:
    game = make(name)
    bots = next(iter(game.info.bench_lineups)).split(",")
    lineup = parse_lineup(game, bots, game.info.bench_players)
    return RunSpec(name, game.info.bench_players, num_games, SEED, lineup, chunk_size=chunk_size)


def cpu_seconds(pids: list[int]) -> float:
    """CPU time of this process, its finished children and the live processes ``pids``."""
    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        usage = resource.getrusage(who)
        total += usage.ru_utime + usage.ru_stime
    for pid in pids:
        times = psutil.Process(pid).cpu_times()
        total += times.user + times.system
    return total


def timed_run(spec: RunSpec, pids: list[int] = (), **kw) -> tuple[float, float]:
    """Wall-clock and CPU seconds of a whole run."""
    with tempfile.TemporaryDirectory() as tmp:
        cpu = cpu_seconds(pids)
        start = time.perf_counter()
        run(spec, Path(tmp) / "run", progress=False, **kw)
        return time.perf_counter() - start, cpu_seconds(pids) - cpu


def throughput(name: str, seconds: float, repeats: int, client) -> dict:
    """Rates of one game with 1 and 2 local workers and on the cluster, sized to ``seconds`` on one worker."""
    probe = bench_spec(name, 2000, 2000)
    timed_run(probe, workers=1)  # compile (or load the cache) outside the measurement
    rate = 2000 / timed_run(probe, workers=1)[1]
    num_games = max(8_000, int(rate * seconds) // 8 * 8)
    spec = bench_spec(name, num_games, num_games // 8)
    timed_run(bench_spec(name, 200, 100), cluster=client)  # the workers compile (or load) too
    worker_pids = list(client.run(os.getpid).values())
    configs = {
        "1_worker": {"workers": 1},
        "2_workers": {"workers": 2},
        "local_cluster_2": {"cluster": client, "pids": worker_pids},
    }
    rates, per_cpu = {}, {}
    for label, kw in configs.items():
        wall, cpu = zip(*(timed_run(spec, **kw) for _ in range(repeats)), strict=True)
        rates[label] = round(num_games / statistics.median(wall))
        per_cpu[label] = round(num_games / statistics.median(cpu))
    return {
        "bench": "throughput",
        "game": name,
        "players": spec.num_players,
        "bots": ",".join(e.label for e in spec.lineup),
        "games": num_games,
        "chunks": 8,
        "games_per_s": rates,
        "scaling_2_workers": round(rates["2_workers"] / rates["1_worker"], 2),
        "scaling_cluster": round(rates["local_cluster_2"] / rates["1_worker"], 2),
        "games_per_cpu_s": per_cpu,
        "cpu_efficiency_2_workers": round(per_cpu["2_workers"] / per_cpu["1_worker"], 2),
        "cpu_efficiency_cluster": round(per_cpu["local_cluster_2"] / per_cpu["1_worker"], 2),
    }


def log_cost(name: str, repeats: int) -> dict:
    """CPU time of playing a chunk against building and writing its Parquet parts."""
    game = make(name)
    spec = bench_spec(name, 20_000, 20_000)
    data = game.load_data(None, {})
    plan = plan_games(spec, 0, spec.num_games)
    lineup = plan.lineup(spec.num_players, *lineup_arrays(game, spec.lineup))
    labels = [e.label for e in spec.lineup]
    game.play_chunk(data, lineup.part(0, 4))
    play, log = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for table in TABLES:
            (Path(tmp) / table).mkdir()
        for _ in range(repeats):
            t0 = time.process_time()
            tables = game.play_chunk(data, lineup)
            t1 = time.process_time()
            for table_name, table in chunk_tables("bench", spec.num_players, plan, labels, tables).items():
                write_part(Path(tmp), table_name, 0, table)
            t2 = time.process_time()
            play.append(t1 - t0)
            log.append(t2 - t1)
    p, w = statistics.median(play), statistics.median(log)
    return {
        "bench": "log_cost",
        "game": name,
        "games": spec.num_games,
        "play_us_per_game": round(p / spec.num_games * 1e6, 2),
        "log_us_per_game": round(w / spec.num_games * 1e6, 2),
        "log_share": round(w / (p + w), 3),
    }


def run_memory(name: str, sizes: list[int]) -> None:
    spec = bench_spec(name, 1, 1)
    bots = ",".join(e.label for e in spec.lineup)
    cmd = [sys.executable, str(HERE / "run_memory.py"), *map(str, sizes), "--game", name, "--bots", bots]
    cmd += ["--players", str(spec.num_players)]
    for line in subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines():
        emit(json.loads(line))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=list(available_games()), help="games to measure")
    parser.add_argument("--seconds", type=float, default=4.0, help="length of a 1-worker throughput run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--memory-game", default="golem-poker", help="the game of the memory runs ('' to skip)")
    parser.add_argument("--small", type=int, default=100_000)
    parser.add_argument("--big", type=int, default=10_000_000)
    a = parser.parse_args()
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
        ) as cluster,
        Client(cluster) as client,
    ):
        for name in a.games:
            emit(throughput(name, a.seconds, a.repeats, client))
    for name in a.games:
        emit(log_cost(name, a.repeats))
    if a.memory_game:
        run_memory(a.memory_game, [a.small, a.big])


if __name__ == "__main__":
    main()
