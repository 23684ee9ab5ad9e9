"""``golem train GAME`` for a game with an equilibrium player: Monte Carlo CFR on its abstraction (``simulate.cfr``).

Each player count's table learns by external-sampling MCCFR in chunks of iterations (a share ``rival_share`` of the
traversals against a table of one of the spec's fixed rivals, ``rival_weights``), each chunk seeded from
(``--seed``, player count, chunk), so a seed gives the same table whatever the number of workers. The average
strategy is the policy. Its exploitability in the abstraction is then measured seat by seat: a learner trained by
the same MCCFR against the table in every other seat (its average strategy approaches a best response) plays
``response_games`` games against it, and again the table plays those seats itself; the learner's gain in the
game's score per game, with a t interval, is what a best response wins from the table (0 at an equilibrium).

``--players`` (``-p``) trains only some counts' tables and keeps the others' rows from the data folder's table
(trained on the same abstraction version and rules). The output folder gets the policy file and its provenance (the
game's ``policy_file`` and ``provenance_file``: command, seed, iterations, engine version, figures, and under
``counts`` the training that produced each count's rows, a kept count's as the data folder's provenance says) and
``log.csv`` (one line per chunk); copy the first two into ``seeds/<game>/`` to ship them.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from simulate import __version__, cfr
from simulate.datafiles import DataError, read_toml, sha256
from simulate.game import EquilibriumSpec
from simulate.registry import make
from simulate.rng import derive_seed

__all__ = [
    "EquilibriumPlan",
    "TaskPool",
    "exploitability",
    "plan_equilibrium",
    "rival_weights",
    "table_rival_record",
    "train_equilibrium",
]

_STREAM_TRAIN, _STREAM_RESPONSE, _STREAM_PLAY = 0xCF12, 0xB357, 0x91A7


class EquilibriumError(ValueError):
    """A training that cannot start; the message is one line."""


@dataclass(frozen=True)
class EquilibriumPlan:
    """What a CFR training fits (checked before anything is written)."""

    game: str
    spec: EquilibriumSpec
    data_dir: Path
    rules: dict[str, Any]
    iterations: int
    response_games: int
    seed: int
    workers: int
    out: Path
    counts: tuple[int, ...]
    """The player counts this training fits (every count of the spec unless ``--players``)."""
    base_policy: np.ndarray | None = None
    """With ``--players``: the data folder's table, whose rows of the other counts are kept."""
    base_fit: dict[str, Any] | None = None
    """With ``--players``: the data folder's provenance (``[fit]``), which says how the kept rows were trained."""
    count_iterations: dict[int, int] = field(default_factory=dict)
    """Iterations of the counts given their own (``--iterations COUNT=N``); the others train ``iterations``."""

    def iterations_of(self, n: int) -> int:
        """The iterations of player count ``n``'s table."""
        return self.count_iterations.get(n, self.iterations)


def plan_equilibrium(
    game_name: str,
    out: Path,
    *,
    data_dir: Path | None = None,
    rules: dict[str, Any] | None = None,
    iterations: int | None = None,
    games: int | None = None,
    seed: int = 0,
    workers: int = 1,
    overwrite: bool = False,
    players: tuple[int, ...] = (),
    count_iterations: dict[int, int] | None = None,
) -> EquilibriumPlan:
    """Check a CFR training's input before anything is written; raise :class:`EquilibriumError` naming the fault."""
    game = make(game_name)
    spec: EquilibriumSpec | None = game.info.equilibrium
    if spec is None:
        raise EquilibriumError(f"{game_name} has no equilibrium player to train")
    iterations = spec.iterations if iterations is None else iterations
    games = spec.response_games if games is None else games
    if iterations < 1:
        raise EquilibriumError(f"--iterations must be at least 1, not {iterations:,}")
    if games < 0:
        raise EquilibriumError(f"--games must be at least 0 (0 skips the exploitability), not {games:,}")
    if not 0 <= seed < 2**63:
        raise EquilibriumError(f"--seed must be within 0..2**63-1, not {seed}")
    if not 1 <= workers <= 64:
        raise EquilibriumError(f"--workers must be within 1..64, not {workers}")
    of = f"{game_name}'s table is of {', '.join(str(n) for n in spec.player_counts)} players"
    unknown = sorted(set(players) - set(spec.player_counts))
    if unknown:
        raise EquilibriumError(f"--players {unknown[0]}: {of}")
    count_iterations = dict(sorted((count_iterations or {}).items()))
    for n, its in count_iterations.items():
        if n not in spec.player_counts:
            raise EquilibriumError(f"--iterations {n}={its}: {of}")
        if players and n not in players:
            raise EquilibriumError(f"--iterations {n}={its}: {n} players are not trained (--players)")
        if its < 1:
            raise EquilibriumError(f"--iterations {n}={its}: must be at least 1")
    folder = Path(data_dir) if data_dir is not None else game.data_dir()
    try:
        data = spec.load(folder, rules or {})
    except DataError as e:
        raise EquilibriumError(str(e)) from None
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise EquilibriumError(f"{out} is a file, not a folder for the training")
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        raise EquilibriumError(f"{out} is not empty: --overwrite to replace its training")
    counts = tuple(n for n in spec.player_counts if n in players) or spec.player_counts
    plan = EquilibriumPlan(game_name, spec, folder, dict(data.rules), iterations, games, seed, workers, out, counts)
    plan = replace(plan, count_iterations=count_iterations)
    if counts == spec.player_counts:
        return plan
    base_policy, base_fit = _base(spec, folder, plan.rules)
    return replace(plan, base_policy=base_policy, base_fit=base_fit)


def _base(spec: EquilibriumSpec, folder: Path, rules: dict[str, Any]) -> tuple[np.ndarray, dict[str, Any]]:
    """The data folder's table and provenance, whose other counts' rows a ``--players`` training keeps."""
    missing = [name for name in (spec.policy_file, spec.provenance_file) if not (folder / name).is_file()]
    if missing:
        raise EquilibriumError(f"--players keeps the other counts' rows, but {folder} has no {' or '.join(missing)}")
    try:
        fit = read_toml(folder / spec.provenance_file).get("fit", {})
        policy = spec.read_policy(folder / spec.policy_file)
    except DataError as e:
        raise EquilibriumError(str(e)) from None
    if fit.get("abstraction_version") != spec.version:
        raise EquilibriumError(
            f"--players keeps the other counts' rows, but {folder / spec.provenance_file} is of abstraction version "
            f"{fit.get('abstraction_version')}, not {spec.version}: train every count"
        )
    other = sorted(k for k in set(rules) | set(fit.get("rules", {})) if rules.get(k) != fit.get("rules", {}).get(k))
    if other:
        raise EquilibriumError(
            f"--players keeps the other counts' rows, but they were trained under other rules ({', '.join(other)}): "
            "train every count"
        )
    return policy, fit


def _seed(seed: int, stream: int, index: int) -> int:
    return int(derive_seed(np.uint64(seed), np.uint64(stream), np.uint64(index))) % 2**31


_CACHE: dict[tuple, Any] = {}


def _context(game_name: str, data_dir: str, rules: dict[str, Any]) -> tuple[EquilibriumSpec, Any, np.ndarray]:
    """The spec, data and traversal stack of a worker (loaded once per process)."""
    key = (game_name, data_dir, tuple(sorted(rules.items())))
    if key not in _CACHE:
        spec = make(game_name).info.equilibrium
        _CACHE[key] = (spec, spec.load(Path(data_dir), rules), spec.new_stack())
    return _CACHE[key]


def _chunk(task: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, float]:
    """One chunk of iterations of a table (``task["learn"]`` flags the learning seats); the updated tables."""
    spec, data, stack = _context(task["game"], task["data"], task["rules"])
    regret, total = task["regret"], task["total"]
    n = task["players"]
    value = cfr.iterate(
        stack,
        spec.kernel(data),
        n,
        task["iterations"],
        task["seed"],
        regret,
        total,
        task["fixed"],
        task["learn"],
        task["rivals"],
        task["rival_share"],
        *spec.functions[:5],
        spec.functions[5],
        spec.explore,
        spec.rival_legal or spec.functions[3],
    )
    return regret, total, float(value)


def _play(task: dict[str, Any]) -> np.ndarray:
    """Payoffs (games, players) of games where seat q plays ``task["policies"][task["seats"][q]]``."""
    spec, data, stack = _context(task["game"], task["data"], task["rules"])
    fns = spec.functions
    return cfr.play(
        stack, spec.kernel(data), task["players"], task["games"], task["seed"], task["policies"], task["seats"], *fns
    )


def rival_weights(spec: EquilibriumSpec) -> np.ndarray:
    """The spec's fixed rivals as ``simulate.cfr.iterate`` takes them: (K, 1, actions) when each is the same at every
    information set, else (K, rows, actions), the constant ones broadcast and the ``table_rivals`` built."""
    actions = len(spec.actions)
    constant = np.array(spec.rivals, np.float64).reshape(-1, 1, actions)
    if not spec.table_rivals:
        return constant
    tables = [np.broadcast_to(constant, (len(constant), spec.rows, actions))]
    tables += [build()[None] for _, build in spec.table_rivals]
    return np.concatenate(tables)


def table_rival_record(spec: EquilibriumSpec) -> list[dict[str, str]]:
    """Provenance of the spec's ``table_rivals``: name, builder and the digest of the weights it built."""
    return [
        {
            "name": name,
            "builder": f"{build.__module__}.{build.__qualname__}",
            "sha256": hashlib.sha256(np.ascontiguousarray(build(), np.float64).tobytes()).hexdigest(),
        }
        for name, build in spec.table_rivals
    ]


def playable(spec: EquilibriumSpec, policy: np.ndarray) -> np.ndarray:
    """A table as ``simulate.cfr.play`` reads it: a row never reached (-1) plays the spec's ``missing`` weights."""
    return np.where(policy[..., :1] < 0, np.asarray(spec.missing, np.float64), policy)


def average(total: np.ndarray) -> np.ndarray:
    """Average strategy of strategy sums (R, A); rows never reached are -1 (``MISSING`` in the game's files)."""
    sums = total.sum(axis=1, keepdims=True)
    return np.where(sums > 0, total / np.where(sums > 0, sums, 1.0), -1.0)


class TaskPool:
    """Tasks run in worker processes, or in this one with one worker."""

    def __init__(self, workers: int) -> None:
        self.executor = ProcessPoolExecutor(workers) if workers > 1 else None

    def submit(self, fn: Callable[[dict], Any], task: dict) -> Future:
        if self.executor is not None:
            return self.executor.submit(fn, task)
        done: Future = Future()
        done.set_result(fn(task))
        return done

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown()


def _lanes(
    plan: EquilibriumPlan, pool: TaskPool, lanes: dict[Any, dict], bar: Any, log: Callable[[Any, int, float], None]
) -> None:
    """Run each lane's chunks in order (lanes side by side), updating its ``regret`` and ``total`` in place."""
    running: dict[Future, Any] = {}

    def submit(key: Any) -> None:
        lane = lanes[key]
        k = lane["done"]
        size = min(lane["chunk"], lane["iterations"] - k * lane["chunk"])
        task = {**lane["task"], "regret": lane["regret"], "total": lane["total"], "iterations": size}
        task["seed"] = _seed(plan.seed, lane["stream"], lane["index"] * 100_000 + k)
        running[pool.submit(_chunk, task)] = (key, size)

    for key in lanes:
        submit(key)
    while running:
        finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
        for f in finished:
            key, size = running.pop(f)
            lane = lanes[key]
            lane["regret"], lane["total"], value = f.result()
            lane["done"] += 1
            bar.update(size)
            log(key, lane["done"] * lane["chunk"], value)
            if lane["done"] * lane["chunk"] < lane["iterations"]:
                submit(key)


def exploitability(
    plan: EquilibriumPlan,
    policy: np.ndarray,
    pool: TaskPool,
    bar: Any,
    iterations: int,
    games: int,
    counts: tuple[int, ...] | None = None,
) -> list[dict[str, Any]]:
    """Each seat's best-response gain against ``policy`` (counts, rows, actions), in the game's score per game, at
    the player counts ``counts`` (default: all).

    Rows: ``players``, ``seat``, ``games``, ``gain`` (mean of the paired differences: the learner's payoff less the
    table's own in that seat, same seeds), ``gain_lo``, ``gain_hi`` (95% t interval), ``table_value`` (the table's
    own mean payoff in that seat).
    """
    from scipy import stats

    spec = plan.spec
    _, data, _ = _context(plan.game, str(plan.data_dir), plan.rules)
    unit = spec.unit(data)
    base = {"game": plan.game, "data": str(plan.data_dir), "rules": plan.rules}
    measured = [(k, n) for k, n in enumerate(spec.player_counts) if counts is None or n in counts]
    lanes = {}
    for k, n in measured:
        for seat in range(n):
            learn = np.zeros(n, np.int8)
            learn[seat] = 1
            lanes[(n, seat)] = {
                "task": {
                    **base,
                    "players": n,
                    "fixed": playable(spec, policy[k]),
                    "learn": learn,
                    "rivals": np.zeros((0, 1, len(spec.actions))),
                    "rival_share": 0.0,
                },
                "regret": np.zeros_like(policy[k]),
                "total": np.zeros_like(policy[k]),
                "iterations": iterations,
                "chunk": spec.chunk,
                "done": 0,
                "stream": _STREAM_RESPONSE,
                "index": n * 10 + seat,
            }
    _lanes(plan, pool, lanes, bar, lambda *_: None)
    rows = []
    for k, n in measured:
        for seat in range(n):
            response = average(lanes[(n, seat)]["total"])
            policies = np.stack([playable(spec, policy[k]), playable(spec, response)])
            seats = np.zeros(n, np.int64)
            seed = _seed(plan.seed, _STREAM_PLAY, n * 10 + seat)
            task = {**base, "players": n, "games": games, "seed": seed, "policies": policies}
            own = pool.submit(_play, {**task, "seats": seats})
            seats = seats.copy()
            seats[seat] = 1
            best = pool.submit(_play, {**task, "seats": seats})
            diff = (best.result()[:, seat] - own.result()[:, seat]) * unit
            lo, hi = stats.t.interval(0.95, len(diff) - 1, loc=diff.mean(), scale=stats.sem(diff))
            rows.append(
                {
                    "players": n,
                    "seat": seat + 1,
                    "games": games,
                    "gain": float(diff.mean()),
                    "gain_lo": float(lo),
                    "gain_hi": float(hi),
                    "table_value": float(own.result()[:, seat].mean() * unit),
                }
            )
    return rows


_COUNT_KEYS = (
    "command",
    "seed",
    "iterations",
    "response_iterations",
    "response_games",
    "rivals",
    "table_rivals",
    "rival_share",
)
"""What a provenance's ``counts`` says of the training that produced a count's rows."""


def _count_record(fit: dict[str, Any], n: int) -> dict[str, Any]:
    """The training of count ``n``'s rows in provenance ``fit``: its own ``counts`` entry, or (a provenance written
    before ``counts``) its training's."""
    return fit.get("counts", {}).get(str(n)) or {key: fit[key] for key in _COUNT_KEYS if key in fit}


def train_equilibrium(
    plan: EquilibriumPlan, progress: bool = True, say: Callable[[str], None] | None = None
) -> dict[str, Any]:
    """Fit the plan's player counts' tables (the others kept from the data folder's), measure their exploitability,
    write the files; return the figures."""
    import tomli_w
    from tqdm import tqdm

    spec = plan.spec
    say = say or (lambda text: None)
    start = time.perf_counter()
    plan.out.mkdir(parents=True, exist_ok=True)
    base = {"game": plan.game, "data": str(plan.data_dir), "rules": plan.rules}
    rivals = rival_weights(spec)
    lanes = {
        n: {
            "task": {
                **base,
                "players": n,
                "fixed": np.zeros((spec.rows, len(spec.actions))),
                "learn": np.ones(n, np.int8),
                "rivals": rivals,
                "rival_share": spec.rival_share,
            },
            "regret": np.zeros((spec.rows, len(spec.actions))),
            "total": np.zeros((spec.rows, len(spec.actions))),
            "iterations": plan.iterations_of(n),
            "chunk": spec.chunk,
            "done": 0,
            "stream": _STREAM_TRAIN,
            "index": n,
        }
        for n in plan.counts
    }
    log_rows: list[dict[str, Any]] = []

    def log(n: int, done: int, value: float) -> None:
        seconds = time.perf_counter() - start
        log_rows.append({"players": n, "iterations": min(done, plan.iterations_of(n)), "seconds": round(seconds, 1)})
        log_rows[-1]["mean_value"] = round(value, 4)

    pool = TaskPool(plan.workers)
    try:
        total_its = sum(plan.iterations_of(n) for n in plan.counts)
        with tqdm(total=total_its, desc="cfr", unit="it", disable=not progress, file=sys.stderr) as bar:
            _lanes(plan, pool, lanes, bar, log)
        policy = np.stack(
            [
                average(lanes[n]["total"]) if n in lanes else plan.base_policy[k]
                for k, n in enumerate(spec.player_counts)
            ]
        )
        train_seconds = time.perf_counter() - start
        say(f"tables fitted in {train_seconds:.0f} s; measuring their exploitability")
        rows: list[dict[str, Any]] = []
        if plan.response_games > 0:
            seats = sum(plan.counts)
            with tqdm(
                total=seats * spec.response_iterations,
                desc="best responses",
                unit="it",
                disable=not progress,
                file=sys.stderr,
            ) as bar:
                rows = exploitability(
                    plan, policy, pool, bar, spec.response_iterations, plan.response_games, plan.counts
                )
    finally:
        pool.close()
    seconds = time.perf_counter() - start
    game = make(plan.game)
    figures = {
        str(n): {
            "information_sets": int((policy[k][:, 0] >= 0).sum()),
            **(
                {
                    "best_response_gain": [round(r["gain"], 2) for r in rows if r["players"] == n],
                    "best_response_gain_lo": [round(r["gain_lo"], 2) for r in rows if r["players"] == n],
                    "best_response_gain_hi": [round(r["gain_hi"], 2) for r in rows if r["players"] == n],
                    "table_value": [round(r["table_value"], 2) for r in rows if r["players"] == n],
                }
                if rows
                else {}
            ),
        }
        for k, n in enumerate(spec.player_counts)
        if n in plan.counts
    }
    kept = plan.base_fit or {}
    figures = {str(n): figures.get(str(n), kept.get("figures", {}).get(str(n), {})) for n in spec.player_counts}
    command = f"golem train {plan.game} --seed {plan.seed} --iterations {plan.iterations} --games {plan.response_games}"
    command += "".join(f" --iterations {n}={its}" for n, its in plan.count_iterations.items())
    if plan.base_fit is not None:
        command += "".join(f" -p {n}" for n in plan.counts)
    fit = {
        "method": "external-sampling Monte Carlo CFR (simulate.cfr), average strategy",
        "command": command,
        "refit": f"{command} --out runs/train-{plan.game} && cp runs/train-{plan.game}/{spec.policy_file} "
        f"runs/train-{plan.game}/{spec.provenance_file} seeds/{plan.game}/",
        "seed": plan.seed,
        "iterations": plan.iterations,
        "response_iterations": spec.response_iterations,
        "response_games": plan.response_games,
        "engine_version": game.info.version,
        "play_version": game.info.play_version,
        "abstraction_version": spec.version,
        "rivals": [list(w) for w in spec.rivals],
        "table_rivals": table_rival_record(spec),
        "rival_share": spec.rival_share,
        "simulate_version": __version__,
        "rules": plan.rules,
        "data": {name: sha256(plan.data_dir / name) for name in ("game.toml",) if (plan.data_dir / name).is_file()},
        "seconds": round(seconds, 1),
        "training_seconds": round(train_seconds, 1),
        "score_unit": "chips per game, best response's gain over the table in one seat (95% t interval)",
    }
    if plan.base_fit is not None:
        fit["trained_counts"] = list(plan.counts)
        fit["base_policy_sha256"] = sha256(plan.data_dir / spec.policy_file)
    fit["counts"] = {
        str(n): {**_count_record(fit, n), "iterations": plan.iterations_of(n)}
        if n in plan.counts
        else _count_record(kept, n)
        for n in spec.player_counts
    }
    fit["figures"] = figures
    provenance = {"fit": fit}
    _write(plan.out / spec.policy_file, spec.policy_text(policy))
    _write(plan.out / spec.provenance_file, tomli_w.dumps(provenance))
    text = io.StringIO()
    writer = csv.DictWriter(text, ["players", "iterations", "seconds", "mean_value"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(log_rows)
    _write(plan.out / "log.csv", text.getvalue())
    return {"policy": policy, "exploitability": rows, "seconds": seconds, "figures": figures}


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
