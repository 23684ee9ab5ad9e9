"""The one runner for every game: plans seeds and seats, plays chunks on local cores, writes runs.

A run is split into fixed chunks of games. Each chunk is a pure function of the run spec and
the chunk index, played by one worker and written as Parquet parts under temporary names, then
renamed; the manifest records the finished chunks (at most a second late). The files of a run
are therefore the same whatever the number of workers.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import functools
import importlib
import json
import math
import multiprocessing
import os
import platform
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import numba
import numpy as np

from simulate import __version__
from simulate.apprentice import fit_warning, read_provenance
from simulate.apprentice_fit import fit_record, fit_words, plays_learned
from simulate.cluster import connect, parse_cluster, play_on_cluster
from simulate.datafiles import DataError
from simulate.game import ChunkTables, Codes, Game, GamePlan
from simulate.gamekit import value_for_cost_facts
from simulate.jitcache import compiling_notice, is_compiled
from simulate.lineup import BotEntry, lineup_arrays, seat_assignment
from simulate.lock import LOCK_NAME, acquire, close_inherited
from simulate.registry import UnknownName, make
from simulate.rng import game_seeds
from simulate.runformat import (
    ALL_TABLES,
    FAULT_END_REASONS,
    FORMAT_VERSION,
    TABLES,
    RunFormatError,
    check_chunk,
    chunk_tables,
    compute_run_id,
    design_ids,
    is_temp,
    read_manifest,
    run_tables,
    sweep_temps,
    verify_run,
    write_manifest,
    write_part,
)
from simulate.store import RunStore
from simulate.summary import chunk_tally

DEFAULT_CHUNK = 20_000
MAX_CHUNK_SIZE = 200_000
"""Largest chunk a run accepts: a worker holds a chunk's game states and tables in memory (a few hundred
bytes to a few kilobytes a game), four times the largest default chunk (Golems' 50,000)."""
MAX_CHUNKS = 100_000
"""Most chunks a run plans: the manifest holds a record of about 1 kB per chunk and is rewritten every second."""
MIN_CHUNKS = 8
"""Chunks a run without ``--chunk-size`` is split into at least (down to ``MIN_CHUNK``-game chunks): every core gets
work, and a run of a slow bot (a search bot plays a few games a second) shows progress."""
MIN_CHUNK = 100
"""Smallest chunk of a run without ``--chunk-size``: a chunk's fixed costs (files, checksums, tallies) stay well
under a second."""
MAX_WORKERS_PER_CPU = 4
"""Most local worker processes per core (each holds a game's compiled kernels, about 200 MB)."""
MANIFEST_INTERVAL = 1.0
"""Seconds between manifest writes while a run plays (a hard kill redoes at most these chunks on resume)."""
PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process receives when its parent dies."""
PARENT_CHECK_INTERVAL = 1.0
"""Seconds between a pool worker's checks that the run which started it still runs."""


_SAID: set[str | None] = set()
"""The learned player's fit lines this process has printed (each is said once; the shipped data's never)."""


class RunError(ValueError):
    """A run that cannot start or continue; the message is one line."""


@dataclass
class RunSpec:
    """Everything that decides a run's results (and nothing that does not)."""

    game: str
    num_players: int
    num_games: int
    master_seed: int
    lineup: list[BotEntry]
    rotate_seats: bool = True
    setups: int | None = None
    games_per_setup: int = 1
    orders_per_opening: int = 1
    """Above 1: setups come in groups of this many that share their public opening and differ in the hidden order
    (``simulate.rng.game_seeds``): a nested design of openings > deck orders > play seeds."""
    chunk_size: int = DEFAULT_CHUNK
    rules: dict[str, Any] = field(default_factory=dict)
    cards: str | None = None
    trajectories: bool = False
    """Also write the ``trajectories`` table (every seat's score at the end of every round): the run's files, not
    its results, so not part of the run id."""

    def to_json(self) -> dict[str, Any]:
        """The spec as JSON, in the manifest's keys (``rules``: the overrides; ``tables``: the run's tables, the
        optional ``trajectories`` among them; ``cards`` is not part of it: a run plays on its own copy of the data):
        the one form workers receive and manifests hold."""
        return {
            "game": self.game,
            "num_players": self.num_players,
            "num_games": self.num_games,
            "master_seed": self.master_seed,
            "design": self.design(),
            "lineup": [e.to_json() for e in self.lineup],
            "rules": dict(self.rules),
            "tables": list(TABLES) + (["trajectories"] if self.trajectories else []),
        }

    @classmethod
    def from_json(cls, m: dict[str, Any]) -> RunSpec:
        """The spec of :meth:`to_json`'s form, or of a run's manifest (whose ``rules`` are all the rules in force)."""
        d = m["design"]
        return cls(
            game=m["game"],
            num_players=m["num_players"],
            num_games=m["num_games"],
            master_seed=m["master_seed"],
            lineup=[BotEntry(e["label"], e["bot"], dict(e["params"])) for e in m["lineup"]],
            rotate_seats=d["rotate_seats"],
            setups=d["setups"],
            games_per_setup=d["games_per_setup"],
            orders_per_opening=d.get("orders_per_opening", 1),
            chunk_size=d["chunk_size"],
            rules=dict(m["rules"]),
            trajectories="trajectories" in run_tables(m),
        )

    def design(self) -> dict[str, Any]:
        """The design as recorded in the manifest (``orders_per_opening`` only above 1: absent means 1)."""
        nested = {"orders_per_opening": self.orders_per_opening} if self.orders_per_opening > 1 else {}
        return {
            "setups": self.setups,
            "games_per_setup": self.games_per_setup,
            **nested,
            "rotate_seats": self.rotate_seats,
            "chunk_size": self.chunk_size,
        }


def report_facts(game: Game) -> dict[str, Any]:
    """What a report needs to know of the game, recorded in the manifest (``report``) so that documents read it
    from the run: ``score_unit``, ``turn_order_column`` (None: the table seat is the turn order), ``metrics``
    (the game's ``report_metrics``, name -> [expression, meaning[, per]]), ``skill_ladder`` (the game's bots
    from weakest to strongest), ``bot_names`` (spec -> the words a designer reads), ``profile_forced``
    (profile columns that count what a player does only when forced or as a penalty, which the play profile shows
    but never flags as unused), ``outcome`` (``"win"`` or
    ``"score"``: what the seat and strategy answers measure), ``outcome_precision`` (score units, for ``"score"``),
    ``design_measures`` (the metrics the summary leads with) and ``public_opening``, ``hidden_order`` (what the
    setup seed's two streams draw, in words; an empty opening: none) and ``playing_time`` (the box's minutes and the
    estimated pace that turn a game's turns into minutes, ``Game.playing_time``; None: no box time)."""
    return {
        "score_unit": game.score_unit,
        "turn_order_column": game.turn_order_column,
        "metrics": {name: list(spec) for name, spec in game.report_metrics.items()},
        "skill_ladder": list(game.skill_ladder),
        "bot_names": dict(game.bot_names),
        "profile_forced": list(game.profile_forced),
        "outcome": game.outcome,
        "outcome_precision": game.outcome_precision,
        "design_measures": list(game.design_measures),
        "public_opening": game.public_opening,
        "hidden_order": game.hidden_order,
        "playing_time": game.playing_time(),
    }


def plan_games(spec: RunSpec, lo: int, hi: int) -> GamePlan:
    """Seeds, setups and seat rotations of games ``lo..hi-1``: a pure function of the spec."""
    n = spec.num_players
    game = np.arange(lo, hi, dtype=np.int64)
    setup_id, rotation = design_ids(game, n, spec.setups, spec.games_per_setup, spec.rotate_seats)
    setup_seed, play_seed = game_seeds(spec.master_seed, game, setup_id, spec.orders_per_opening)
    return GamePlan(game, setup_id, rotation, setup_seed, play_seed, seat_assignment(n, rotation))


def validate(spec: RunSpec) -> tuple[Game, Any]:
    """Check a spec before anything is written; returns the game and its loaded data."""
    game = make(spec.game)
    if not game.min_players <= spec.num_players <= game.max_players:
        raise RunError(f"{game.name} takes {game.min_players}-{game.max_players} players, not {spec.num_players}")
    if spec.num_games < 1:
        raise RunError(f"the number of games must be at least 1, not {spec.num_games:,}")
    if not 0 <= spec.master_seed < 2**64:
        raise RunError(f"the master seed must be within 0..2**64-1, not {spec.master_seed}")
    if spec.setups is not None and (spec.setups < 1 or spec.games_per_setup < 1):
        raise RunError("--setups and --games-per-setup must be at least 1")
    if spec.orders_per_opening != 1 and (
        spec.orders_per_opening < 1 or spec.setups is None or spec.setups % spec.orders_per_opening
    ):
        raise RunError(
            f"--orders-per-opening {spec.orders_per_opening} needs --setups, a whole number of openings of that many "
            f"setups (--setups {spec.setups})"
        )
    if not 1 <= spec.chunk_size <= MAX_CHUNK_SIZE:
        raise RunError(f"--chunk-size must be within 1..{MAX_CHUNK_SIZE:,}, not {spec.chunk_size:,}")
    if spec.num_games > MAX_CHUNKS * spec.chunk_size:
        raise RunError(
            f"{spec.num_games:,} games is more than a run can plan: at most {MAX_CHUNKS:,} chunks, so "
            f"{MAX_CHUNKS * spec.chunk_size:,} games of {spec.chunk_size:,}-game chunks "
            f"({MAX_CHUNKS * MAX_CHUNK_SIZE:,} with --chunk-size {MAX_CHUNK_SIZE:,})"
        )
    if len(spec.lineup) != spec.num_players:
        raise RunError(f"{len(spec.lineup)} bots for {spec.num_players} players")
    for entry in spec.lineup:
        bad = [key for key, value in entry.params.items() if not np.isfinite(value)]
        if bad:
            raise RunError(f"bot '{entry.label}': parameter {bad[0]} needs a finite number")
    cards = Path(spec.cards) if spec.cards else None
    data = game.load_data(cards, spec.rules)
    return game, data


def apprentice_warning(spec: RunSpec, game: Game, described: dict[str, Any]) -> str | None:
    """One line when the run plays a learned player (``apprentice``, or ``search`` valuing its leaves with it) whose
    weights were fitted on another engine version or other rules than the run's; else None."""
    learned = any(e.bot == "apprentice" or e.params.get("leaf", 0.0) > 0 for e in spec.lineup)
    if not learned:
        return None
    fit = {"fit": described["data"].get("apprentice", {})}
    return fit_warning(fit, game.name, game.version, described["rules"], game.play_version)


def apprentice_fit(spec: RunSpec, game: Game, described: dict[str, Any]) -> dict[str, Any] | None:
    """The run's record of its learned player's fit (:func:`simulate.apprentice_fit.fit_record`, the manifest's
    ``apprentice_fit``): whether it was fitted on the data and rules the run plays; None when none plays."""
    if not plays_learned(e.to_json() for e in spec.lineup):
        return None
    provenance = read_provenance(Path(spec.cards) if spec.cards else game.data_dir())
    design_options = tuple(dict.fromkeys(game.value_designs.values()))
    files = described["data"]["files"]
    return fit_record(provenance.get("fit", {}), files, described["rules"], design_options, provenance.get("base"))


def run_id(spec: RunSpec, game: Game, described: dict[str, Any]) -> str:
    """A run id that depends only on what decides the results."""
    return compute_run_id(
        {
            "game": spec.game,
            "engine_version": game.version,
            "num_players": spec.num_players,
            "num_games": spec.num_games,
            "master_seed": spec.master_seed,
            "lineup": [e.to_json() for e in spec.lineup],
            "design": spec.design(),
            "rules": described["rules"],
            "data": {"files": described["data"]["files"]},
        }
    )


def check_workers(workers: int | None) -> int:
    """The number of local worker processes to start for ``workers`` (None: every core), checked before anything
    is written: within 1 and ``MAX_WORKERS_PER_CPU`` per core."""
    cpus = os.cpu_count() or 1
    if workers is None:
        return cpus
    if not 1 <= workers <= MAX_WORKERS_PER_CPU * cpus:
        raise RunError(
            f"--workers must be within 1..{MAX_WORKERS_PER_CPU * cpus} ({MAX_WORKERS_PER_CPU} per core, "
            f"{cpus} cores here), not {workers:,}"
        )
    return workers


def default_chunk_size(num_games: int, largest: int = DEFAULT_CHUNK) -> int:
    """Games per chunk of a run that names none: ``largest`` (the game's size), smaller for runs too short to make
    ``MIN_CHUNKS`` chunks of it, but never below ``MIN_CHUNK`` games."""
    return min(largest, max(MIN_CHUNK, math.ceil(num_games / MIN_CHUNKS)))


def chunk_ranges(spec: RunSpec) -> list[tuple[int, int, int]]:
    """(chunk index, first game, end game) of every chunk."""
    return [
        (k, lo, min(lo + spec.chunk_size, spec.num_games))
        for k, lo in enumerate(range(0, spec.num_games, spec.chunk_size))
    ]


def run(
    spec: RunSpec,
    out: str | Path,
    workers: int | None = None,
    overwrite: bool = False,
    resume: bool = False,
    progress: bool = True,
    command: str = "",
    *,
    cluster: Any = None,
    strict: bool = False,
    warm_imports: tuple[str, ...] = (),
) -> Path | str:
    """Play a run into ``out`` and return it; see ``docs/run-format.md``.

    Without ``cluster`` the chunks are played by ``workers`` local processes and ``out`` is a
    directory. ``cluster`` sends them as tasks to Dask (``"tcp://HOST:8786"``, ``"local:N"`` or a
    ``distributed.Client``); ``out`` may then be any fsspec URL the workers reach. ``strict``
    checks every move (see :meth:`Game.play_chunk`) and stops the run at the first game ended by the
    turn cap or an illegal move (after recording its chunk). A second run on the same ``out`` is
    refused while this one holds its lock.
    ``warm_imports`` names modules the caller needs after the run (say, for a summary): local
    multi-process runs import them in the background while the workers play.
    """
    game, data = validate(spec)
    if overwrite and resume:
        raise RunError("--overwrite and --resume exclude each other")
    store = RunStore(out)
    if isinstance(cluster, str):
        parse_cluster(cluster)
    if cluster is None:
        workers = check_workers(workers)
        if not store.local:
            raise RunError(f"{out}: a URL output needs --cluster (local workers write to a directory)")
    if store.exists() and not store.isdir():
        raise RunError(f"{out}: exists and is not a directory")
    described = game.describe_data(data) | {"value_for_cost": value_for_cost_facts(game, data)}
    rid = run_id(spec, game, described)
    warning = apprentice_warning(spec, game, described)
    if warning and progress:
        print(f"Warning: {warning}", file=sys.stderr, flush=True)
    fit = apprentice_fit(spec, game, described)
    if fit is not None:
        described["apprentice_fit"] = fit
        words = fit_words(fit, game.name, spec.cards)
        if progress and words not in _SAID and not (fit["covers"] and described["data"].get("default")):
            _SAID.add(words)  # once per process: a study or an experiment plays many runs of the same data
            print(words, file=sys.stderr, flush=True)
    created = not store.exists()
    if created:
        resume = False  # a run killed before it made its directory is started afresh (docs/big-runs.md)
    try:
        lock = acquire(store, command)
    except OSError as e:
        raise RunError(_write_error(store, e)) from None
    try:
        with _backend(cluster) as client:
            if client is not None:
                workers = len(client.scheduler_info()["workers"])
            manifest = _prepare_output(
                store, spec, game, described, rid, overwrite, resume, command, workers, lock.took_over
            )
            if client is not None:
                manifest["environment"]["cluster"] = cluster if isinstance(cluster, str) else client.scheduler.address
            _play(spec, store, rid, manifest, workers, client, progress, strict, warm_imports)
    except OSError as e:
        raise RunError(_write_error(store, e)) from None
    finally:
        with contextlib.suppress(OSError):
            lock.release()
            if created and store.local and not store.listdir():  # a run stopped before writing leaves no directory
                store.fs.rmdir(store.root)
    return store.dir if store.local else store.url


def _play(
    spec: RunSpec,
    store: RunStore,
    rid: str,
    manifest: dict[str, Any],
    workers: int,
    client: Any,
    progress: bool,
    strict: bool,
    warm_imports: tuple[str, ...] = (),
) -> None:
    """Play the chunks a manifest lacks, recording each as it finishes, and mark the run complete."""
    done = {int(k) for k in manifest["chunks"]}
    todo = [c for c in chunk_ranges(spec) if c[0] not in done]
    if todo and client is None:
        _compile_first(spec, strict, progress)
    started = time.perf_counter()
    games_before = sum(v["games"][1] - v["games"][0] for v in manifest["chunks"].values())
    bar = _progress_bar(spec.num_games, games_before, progress, f"{spec.game} {spec.num_players}p")
    written = time.monotonic()
    try:
        for info in _execute(spec, store, rid, todo, workers, client, strict, warm_imports):
            fault = info.pop("fault")
            manifest["chunks"][str(info.pop("chunk"))] = info
            if time.monotonic() - written >= MANIFEST_INTERVAL:
                write_manifest(store, manifest)
                written = time.monotonic()
            if bar is not None:
                bar.update(info["games"][1] - info["games"][0])
            if strict and fault is not None:
                raise RunError(_fault_message(store, fault))
    except BaseException:
        manifest["status"] = "interrupted"
        with contextlib.suppress(OSError):  # on a full disk the last manifest written stays, still resumable
            write_manifest(store, manifest)
        raise
    finally:
        if bar is not None:
            bar.close()
    seconds = time.perf_counter() - started
    played = spec.num_games - games_before
    manifest["chunks"] = dict(sorted(manifest["chunks"].items(), key=lambda kv: int(kv[0])))
    sweep_temps(store)  # of writers killed mid-part (a Dask worker): their chunks were played again
    manifest["status"] = "complete"
    manifest["timing"].update(
        {
            "finished": _now(),
            "seconds": round(seconds, 3),
            "games_played_this_session": played,
            "games_per_second": round(played / seconds, 1) if seconds > 0 else None,
        }
    )
    write_manifest(store, manifest)


def _compile_first(spec: RunSpec, strict: bool, progress: bool) -> None:
    """On a game's first use, compile its kernels once, saying so, before the bar starts (its rate leaves it out).

    A child process plays game 0 of the run and fills the numba cache; the workers then load the cached
    code rather than each compiling it, and do not inherit a parent that has run a kernel (forked from
    one, the poker workers spent 8% more CPU per chunk, see docs/performance.md). A failure is left for
    the run's own chunk to report, with the game to replay.
    """
    game = make(spec.game)
    if numba.config.DISABLE_JIT or is_compiled(type(game).__module__):
        return
    if progress:
        print(compiling_notice(game.title), file=sys.stderr, flush=True)
    started = time.perf_counter()
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool, contextlib.suppress(Exception):
        pool.submit(_play_first_game, spec.to_json(), strict).result()
    if progress:
        print(f"compiled in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)


def _play_first_game(payload: dict[str, Any], strict: bool) -> None:
    spec = RunSpec.from_json(payload)
    game, data = validate(spec)
    plan = plan_games(spec, 0, 1)
    ids, params = lineup_arrays(game, spec.lineup)
    seeds = (plan.setup_seed, plan.play_seed)
    game.play_chunk(data, spec.num_players, plan.seat_lineup, ids, params, *seeds, check_moves=strict)


def _backend(cluster: Any) -> contextlib.AbstractContextManager:
    """A Dask client for ``cluster``; None (local processes) without one."""
    if cluster is None:
        return contextlib.nullcontext()
    return connect(cluster)


def _write_error(store: RunStore, e: OSError) -> str:
    """The one line for a failed write: the advice to resume only where a run was recorded."""
    reason = e.strerror or str(e) or type(e).__name__
    message = f"cannot write the run to {store.name()}: {reason}"
    try:
        recorded = store.isfile("manifest.json")
    except OSError:
        recorded = False
    if not recorded:
        return message
    fix = "free space" if e.errno in (errno.ENOSPC, errno.EDQUOT) else "fix the cause"
    return f"{message}; the chunks already written are kept, {fix} and finish it with --resume"


def _fault_message(store: RunStore, fault: dict[str, Any]) -> str:
    return (
        f"--strict: game {fault['game']} ended by {fault['end_reason']} (setup seed {fault['setup_seed']}, "
        f"play seed {fault['play_seed']}); see it with 'golem replay {store.name()} --game {fault['game']}'"
    )


def _prepare_output(
    store: RunStore,
    spec: RunSpec,
    game: Game,
    described: dict[str, Any],
    rid: str,
    overwrite: bool,
    resume: bool,
    command: str,
    workers: int,
    took_over: bool,
) -> dict[str, Any]:
    """Make ``store`` ready for the run and return its manifest, written.

    A resumed run keeps only the chunks whose parts are intact (their files present, with the
    rows and checksums recorded) and replays the others; a directory that holds only what a run
    writes before its first manifest (left by a kill: ``took_over`` says its stale lock was found)
    is started afresh.
    """
    out = store.name()
    has_run = store.isfile("manifest.json")
    started_only = not has_run and _unrecorded_start(store, game, took_over)
    manifest = _new_manifest(spec, game, described, rid, command, workers)
    if has_run and resume:
        try:
            old = read_manifest(store)
        except RunFormatError as e:
            raise RunError(f"{e}; it cannot be resumed, replace it with --overwrite") from None
        if old.get("run_id") != rid:
            raise RunError(f"{out}: holds run {old.get('run_id')}, not this one ({rid}); options differ")
        if old.get("format_version") != FORMAT_VERSION:
            raise RunError(
                f"{out}: was written in run format version {old.get('format_version')} (this is version "
                f"{FORMAT_VERSION}); start it again with --overwrite"
            )
        if run_tables(old) != run_tables(manifest):
            flag = "with" if "trajectories" in run_tables(old) else "without"
            raise RunError(f"{out}: was started {flag} --trajectories; resume it {flag} them")
        if isinstance(old.get("timing"), dict) and "started" in old["timing"]:
            manifest["timing"]["started"] = old["timing"]["started"]
        manifest["chunks"] = intact_chunks(store, manifest, spec, old["chunks"])
        _clear_parts(store, manifest["chunks"], run_tables(manifest))
        _copy_data(store, spec, game)
        write_manifest(store, manifest)
        return manifest
    if resume and not started_only:
        raise RunError(f"{out}: no run to resume (no manifest.json)")
    if any(name != LOCK_NAME for name in store.listdir()) and not started_only:
        if not has_run:
            raise RunError(f"{out}: directory is not empty and holds no run; choose another --out")
        if not overwrite:
            raise RunError(f"{out}: already holds a run; use --overwrite to replace it or --resume to finish it")
    for name in store.listdir():
        if name in ("manifest.json", "data", *ALL_TABLES) or is_temp(name):
            store.remove(name)
    _copy_data(store, spec, game)
    for table in run_tables(manifest):
        store.makedirs(table)
    write_manifest(store, manifest)
    return manifest


def _copy_data(store: RunStore, spec: RunSpec, game: Game) -> None:
    """Copy the game data the run plays into its ``data/`` folder, and remove any other file there (a resumed run's
    data folder holds exactly the files its manifest names)."""
    store.makedirs("data")
    for name in store.listdir("data"):
        if name not in game.data_files:
            store.remove(f"data/{name}")
    folder = Path(spec.cards) if spec.cards else game.data_dir()
    for name in game.data_files:
        store.put_file(folder / name, f"data/{name}")


def _unrecorded_start(store: RunStore, game: Game, took_over: bool) -> bool:
    """Whether ``store`` holds only what a run of ``game`` writes before its first manifest.

    A directory holding only a lock is such a start only if the lock was a killed run's.
    """
    names = [n for n in store.listdir() if not is_temp(n)]
    if "data" not in names:
        return took_over and set(names) <= {LOCK_NAME, *ALL_TABLES} and not _any_part(store, names)
    if not set(names) <= {LOCK_NAME, "data", *ALL_TABLES}:
        return False
    if not {n for n in store.listdir("data") if not is_temp(n)} <= set(game.data_files):
        return False
    return not _any_part(store, names)


def _any_part(store: RunStore, names: list[str]) -> bool:
    """Whether any of the run's table folders among ``names`` holds a file (temp files aside)."""
    return any(n for t in ALL_TABLES if t in names for n in store.listdir(t) if not is_temp(n))


def intact_chunks(store: RunStore, manifest: dict[str, Any], spec: RunSpec, recorded: Any) -> dict[str, Any]:
    """The chunk records of ``recorded`` (an earlier manifest's ``chunks``) that pass :func:`check_chunk`.

    ``manifest`` is the run's new manifest (its design, seed and lineup are the spec's).
    """
    if not isinstance(recorded, dict):
        return {}
    kept = {}
    for k, lo, hi in chunk_ranges(spec):
        record = recorded.get(str(k))
        try:
            check_chunk(store, {**manifest, "chunks": {str(k): record}}, k, lo, hi)
        except RunFormatError:
            continue
        kept[str(k)] = record
    return kept


def _clear_parts(store: RunStore, kept: dict[str, Any], tables: tuple[str, ...]) -> None:
    """Remove every file of the table folders that no kept chunk records (damaged, stray or temporary); make the
    folders of ``tables``."""
    keep = {info["path"] for record in kept.values() for info in record["files"].values()}
    for table in ALL_TABLES:
        if table in tables:
            store.makedirs(table)
        for name in store.listdir(table):
            if f"{table}/{name}" not in keep:
                store.remove(f"{table}/{name}")
    for name in store.listdir():
        if is_temp(name):
            store.remove(name)


def _new_manifest(
    spec: RunSpec, game: Game, described: dict[str, Any], rid: str, command: str, workers: int
) -> dict[str, Any]:
    return {
        "format": "golem-run",
        "format_version": FORMAT_VERSION,
        "run_id": rid,
        "game": game.name,
        "title": game.title,
        "engine_version": game.version,
        "package_version": __version__,
        "command": command,
        **spec.to_json(),
        "rule_overrides": dict(spec.rules),
        **described,
        "columns": {
            "setup": list(game.setup_columns),
            "score_parts": list(game.score_parts),
            "games": list(game.game_columns),
            "seats": list(game.seat_columns),
            "profile": list(game.profile_columns),
        },
        "component_kinds": list(game.component_kinds),
        "report": report_facts(game),
        "chunks": {},
        "status": "running",
        "timing": {"started": _now()},
        "environment": _environment(workers),
    }


def _execute(
    spec: RunSpec,
    store: RunStore,
    rid: str,
    todo: list[tuple[int, int, int]],
    workers: int,
    client: Any,
    strict: bool = False,
    warm_imports: tuple[str, ...] = (),
) -> Iterator[dict[str, Any]]:
    """Yield chunk infos as chunks finish, in any order; ``strict`` runs check every move."""
    payload = spec.to_json()
    out = store.root if store.local else store.url
    play = functools.partial(play_chunk_to_parts, check_moves=strict)
    if client is not None:
        yield from play_on_cluster(client, play, payload, out, rid, todo)
        return
    if workers == 1 or len(todo) <= 1:
        for k, lo, hi in todo:
            yield play(payload, out, rid, k, lo, hi)
        return
    forking = sys.platform.startswith("linux")
    if forking:
        import pandas  # noqa: F401  (pyarrow imports it on first use: once here, not in every forked worker)
    context = multiprocessing.get_context("fork" if forking else "spawn")
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)
    )
    with pool:
        pending = set()
        queue = list(todo)
        warming = None
        try:
            while queue or pending:
                while queue and len(pending) < 2 * workers:
                    k, lo, hi = queue.pop(0)
                    pending.add(pool.submit(play, payload, out, rid, k, lo, hi))
                if warming is None:  # after the workers are forked: a child must not inherit a half-held import
                    warming = _import_in_background(warm_imports)
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    try:
                        info = f.result()
                    except BrokenProcessPool:
                        raise RunError(
                            "a worker process died (killed, or out of memory); the chunks already written are kept, "
                            "finish the run with --resume"
                        ) from None
                    yield info
            warming.join()  # the caller needs these modules next; on a short run they may still be loading
        except BaseException:
            for f in pending:
                f.cancel()
            raise


def die_with_parent(parent: int) -> None:
    """Pool initializer: end this worker when the run that started it ends, however it ends; hold not its lock.

    On Linux the kernel sends SIGKILL when the parent dies (``PR_SET_PDEATHSIG``); elsewhere, and as
    a second guard, a daemon thread exits the worker once its parent is no longer ``parent``.
    """
    close_inherited()
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_INTERVAL)
        os._exit(1)

    threading.Thread(target=watch, name="golem-parent-watch", daemon=True).start()


def _import_in_background(modules: tuple[str, ...]) -> threading.Thread:
    """Import ``modules`` on a daemon thread; a failing import is left for its user to raise again."""

    def work() -> None:
        for name in modules:
            with contextlib.suppress(Exception):
                importlib.import_module(name)

    thread = threading.Thread(target=work, name="golem-warm-imports", daemon=True)
    thread.start()
    return thread


@lru_cache(maxsize=4)
def _load(game_name: str, folder: str, rules_json: str) -> tuple[Game, Any]:
    game = make(game_name)
    return game, game.load_data(Path(folder), json.loads(rules_json))


def play_chunk_to_parts(
    payload: dict[str, Any], out: str, rid: str, k: int, lo: int, hi: int, check_moves: bool = False
) -> dict[str, Any]:
    """Play games ``lo..hi-1`` of a run and write their Parquet parts to ``out`` (a directory or URL).

    Returns the chunk's record (its games, files and the summary's tally, see
    :func:`~simulate.summary.chunk_tally`), with ``fault``: the first game of the chunk that ended by
    one of :data:`FAULT_END_REASONS` (its index, end reason and seeds), or None.
    """
    spec = RunSpec.from_json(payload)
    store = RunStore(out)
    folder = store.local_folder("data", rid)
    game, data = _load(spec.game, str(folder), json.dumps(spec.rules, sort_keys=True))
    plan = plan_games(spec, lo, hi)
    ids, params = lineup_arrays(game, spec.lineup)
    try:
        seeds = (plan.setup_seed, plan.play_seed)
        tables = game.play_chunk(
            data,
            spec.num_players,
            plan.seat_lineup,
            ids,
            params,
            *seeds,
            check_moves=check_moves,
            trajectories=spec.trajectories,
        )
    except Exception as e:  # an engine failure: name the game, so that it can be replayed
        raise RunError(_engine_failure(game, data, spec, plan, ids, params, e, out)) from None
    labels = [e.label for e in spec.lineup]
    parts = chunk_tables(rid, spec.num_players, plan, labels, tables)
    files = {name: write_part(store, name, k, table) for name, table in parts.items()}
    return {
        "chunk": k,
        "games": [lo, hi],
        "files": files,
        "tally": chunk_tally(parts),
        "fault": first_fault(plan, tables),
    }


def _engine_failure(
    game: Game,
    data: Any,
    spec: RunSpec,
    plan: GamePlan,
    ids: np.ndarray,
    params: np.ndarray,
    error: Exception,
    out: str,
) -> str:
    """The message for a chunk whose play raised: the first game that raises alone, with its seeds."""
    what = f"{type(error).__name__}: {error}"
    for i in range(len(plan.game)):
        one = slice(i, i + 1)
        try:
            game.play_chunk(
                data, spec.num_players, plan.seat_lineup[one], ids, params, plan.setup_seed[one], plan.play_seed[one]
            )
        except Exception:
            return (
                f"game {plan.game[i]} (setup seed {plan.setup_seed[i]}, play seed {plan.play_seed[i]}) broke the "
                f"{game.name} engine ({what}); see it with 'golem replay {out} --game {plan.game[i]}'"
            )
    return f"games {plan.game[0]}-{plan.game[-1]} broke the {game.name} engine together ({what})"


def first_fault(plan: GamePlan, tables: ChunkTables) -> dict[str, Any] | None:
    """The first game of a chunk whose ``end_reason`` is one of :data:`FAULT_END_REASONS`, or None.

    Returns the game index, its end reason and seeds, and ``games``, the number of such games.
    """
    ends = tables.games.get("end_reason")
    if ends is None:
        return None
    if isinstance(ends, Codes):
        bad = [k for k, name in enumerate(ends.categories) if name in FAULT_END_REASONS]
        hits = np.flatnonzero(np.isin(ends.codes, bad))
        reason = ends.categories[int(ends.codes[hits[0]])] if len(hits) else ""
    else:
        hits = np.flatnonzero(np.isin(np.asarray(ends, dtype=object), FAULT_END_REASONS))
        reason = str(ends[hits[0]]) if len(hits) else ""
    if not len(hits):
        return None
    i = int(hits[0])
    return {
        "game": int(plan.game[i]),
        "end_reason": reason,
        "setup_seed": int(plan.setup_seed[i]),
        "play_seed": int(plan.play_seed[i]),
        "games": len(hits),
    }


def load_run_data(run_dir: str | Path | RunStore, manifest: dict[str, Any]) -> tuple[Game, Any]:
    """The game and the data a run was played with, from the run's own copy (a directory or an fsspec URL)."""
    store = run_dir if isinstance(run_dir, RunStore) else RunStore(run_dir)
    game = make(manifest["game"])
    try:
        return game, game.load_data(store.local_folder("data", manifest["run_id"]), dict(manifest["rules"]))
    except DataError as e:
        raise RunFormatError(f"{store.name()}: its data copy is unusable: {e}") from None


def derived_facts(store: RunStore, manifest: dict[str, Any]) -> dict[str, Any]:
    """The rules in force and the game's table as the run's own data copy and rule options give them, for
    :func:`~simulate.runformat.verify_run` to compare with what the manifest records (``derive``).

    Nothing is derived for a run of another engine version, which may read its data otherwise (the run id
    still covers its rules and data files), or one that records no rule options.
    """
    try:
        game = make(manifest["game"])
    except UnknownName as e:
        raise RunFormatError(f"{store.name('manifest.json')}: {e}") from None
    overrides = manifest.get("rule_overrides")
    if manifest.get("engine_version") != game.version or not isinstance(overrides, dict):
        return {}
    try:
        data = game.load_data(store.local_folder("data", manifest["run_id"]), dict(overrides))
    except DataError as e:
        raise RunFormatError(f"{store.name('data')}: the run's data copy is unusable: {e}") from None
    described = game.describe_data(data)
    return {key: described[key] for key in ("rules", "table") if key in described}


def check_run(run_dir: str | Path, checksums: bool = True, contents: bool | None = None) -> dict[str, Any]:
    """:func:`~simulate.runformat.verify_run` with the rules and table the run's data copy gives checked too."""
    return verify_run(run_dir, checksums=checksums, contents=contents, derive=derived_facts)


def version_note(manifest: dict[str, Any], where: str) -> str | None:
    """A warning line when a run was made by another engine version than the installed one, else None."""
    try:
        game = make(manifest["game"])
    except (UnknownName, KeyError):
        return None
    made = manifest.get("engine_version")
    if made == game.version:
        return None
    return (
        f"warning: {where} was made by engine version {made} of {game.name}; this installation has version "
        f"{game.version}, so a replay of its games may differ"
    )


def _progress_bar(total: int, initial: int, enabled: bool, desc: str):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="game", unit_scale=True, desc=desc, smoothing=0.1)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _environment(workers: int) -> dict[str, Any]:
    import numba
    import pyarrow

    return {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "pyarrow": pyarrow.__version__,
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "workers": workers,
    }
