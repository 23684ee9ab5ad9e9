"""Throughput of the golem poker hand evaluator, one JSON line per measurement.

Measures, in both rank-1 modes, on uniformly random deals (``int8`` cards, seeded):

* ``eval5_scalar``: ``eval5`` called once per hand from an njit loop, as an engine does (no
  card checks);
* ``eval5_kernel``: the batch five-card kernel (``_evaluate5_kernel``: ``eval5`` plus
  branch-free card checks);
* ``eval5_public``: :func:`evaluate5` (the kernel plus Python-side argument handling);
* ``best_of_scalar``, ``best_of_kernel``, ``best_of_public``: the same for best of N, for N in
  ``--sizes`` (the kernel packs a block of hands, then evaluates them in a vectorisable loop).

Compilation is excluded (each function is called once before timing). Each measurement is the
median over ``--repeats`` runs; ``per_cpu_s`` divides by the process CPU time of the run, which
is the single-core rate even when other jobs share the machine, ``per_wall_s`` by wall time.
Everything runs on one thread.

Usage: ``python benchmarks/poker_evaluator.py [--hands 4000000] [--repeats 9]``
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from collections.abc import Callable
from importlib.metadata import version

import numba
import numpy as np
from numba import njit

from simulate.games.golem_poker import evaluator as ev

SEED = 159


@njit(cache=True)
def _eval5_scalar_loop(cards: np.ndarray, ace_high: bool, out: np.ndarray) -> None:
    """``out[i] = eval5(*cards[i], ace_high)``: the engine's per-hand call, no checks."""
    for i in range(cards.shape[0]):
        out[i] = ev.eval5(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3], cards[i, 4], ace_high)


@njit(cache=True)
def _best_of_scalar_loop(cards: np.ndarray, counts: np.ndarray, ace_high: bool, out: np.ndarray) -> None:
    """``out[i] = _best_of(cards[i], counts[i], ace_high)``: the engine's per-hand call."""
    for i in range(cards.shape[0]):
        out[i] = ev._best_of(cards[i], counts[i], ace_high)


def deal(rng: np.random.Generator, num_hands: int, n: int) -> np.ndarray:
    """``num_hands`` random sets of ``n`` distinct cards, shape (num_hands, n), int8."""
    out = np.empty((num_hands, n), np.int8)
    chunk = 1 << 18
    for start in range(0, num_hands, chunk):
        stop = min(start + chunk, num_hands)
        keys = rng.random((stop - start, 52))
        out[start:stop] = np.argpartition(keys, n - 1, axis=1)[:, :n]
    return out


def measure(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Median wall and process-CPU seconds of ``fn()`` over ``repeats`` runs, after a warm-up."""
    fn()
    wall, cpu = [], []
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    return float(np.median(wall)), float(np.median(cpu))


def emit(name: str, ace_high: bool, n: int, num_hands: int, wall: float, cpu: float, repeats: int) -> None:
    print(
        json.dumps(
            {
                "bench": name,
                "ace_high": ace_high,
                "cards": n,
                "hands": num_hands,
                "repeats": repeats,
                "median_wall_s": round(wall, 6),
                "median_cpu_s": round(cpu, 6),
                "per_cpu_s": round(num_hands / cpu) if cpu > 0 else None,
                "per_wall_s": round(num_hands / wall),
                "evaluator_version": ev.VERSION,
                "golem_lab": version("golem-lab"),
                "numba": numba.__version__,
                "numpy": np.__version__,
                "cpu": platform.processor() or platform.machine(),
            }
        ),
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4_000_000, help="hands per five-card run")
    parser.add_argument("--best-hands", type=int, default=2_000_000, help="hands per best-of run")
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 7, 12], help="best-of N values")
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    r = args.repeats

    hands5 = deal(rng, args.hands, 5)
    out5 = np.empty(args.hands, np.int32)
    for ace_high in (False, True):
        runs5 = {
            "eval5_scalar": lambda a=ace_high: _eval5_scalar_loop(hands5, a, out5),
            "eval5_kernel": lambda a=ace_high: ev._evaluate5_kernel(hands5, a, out5),
            "eval5_public": lambda a=ace_high: ev.evaluate5(hands5, a, out=out5),
        }
        for name, run in runs5.items():
            wall, cpu = measure(run, r)
            emit(name, ace_high, 5, args.hands, wall, cpu, r)

    m = args.best_hands
    out = np.empty(m, np.int32)
    for n in args.sizes:
        hands = deal(rng, m, n)
        counts = np.full(m, n, np.int64)
        for ace_high in (False, True):
            runs = {
                "best_of_scalar": lambda h=hands, c=counts, a=ace_high: _best_of_scalar_loop(h, c, a, out),
                "best_of_kernel": lambda h=hands, c=counts, a=ace_high: ev._best_of_kernel(h, c, a, out),
                "best_of_public": lambda h=hands, c=counts, a=ace_high: ev.best_of(h, a, counts=c, out=out),
            }
            for name, run in runs.items():
                wall, cpu = measure(run, r)
                emit(name, ace_high, n, m, wall, cpu, r)


if __name__ == "__main__":
    main()
