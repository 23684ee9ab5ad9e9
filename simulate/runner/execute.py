"""Playing a run: :func:`run` plans it, makes its directory ready, plays the chunks its manifest lacks on local
processes or a Dask cluster, and records each as it finishes (the manifest at most ``MANIFEST_INTERVAL`` late).

A run is split into fixed chunks of games. Each chunk is a pure function of the run spec and
the chunk index, played by one worker and written as Parquet parts under temporary names, then
renamed. The files of a run are therefore the same whatever the number of workers.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import importlib
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import numba

from simulate.apprentice_fit import fit_words
from simulate.cluster import connect, parse_cluster, play_on_cluster
from simulate.gamekit import value_for_cost_facts
from simulate.jitcache import compiling_notice, is_compiled
from simulate.lock import acquire
from simulate.registry import make
from simulate.runformat import sweep_temps, write_manifest
from simulate.runner.chunks import die_with_parent, play_chunk_to_parts, play_first_game
from simulate.runner.plan import (
    RunError,
    RunSpec,
    apprentice_fit,
    apprentice_warning,
    check_workers,
    chunk_ranges,
    now,
    run_id,
    validate,
)
from simulate.runner.resume import prepare_output
from simulate.store import RunStore

MANIFEST_INTERVAL = 1.0
"""Seconds between manifest writes while a run plays (a hard kill redoes at most these chunks on resume)."""
_SAID: set[str | None] = set()
"""The learned player's fit lines this process has printed (each is said once; the shipped data's never)."""


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
        words = fit_words(fit, game.info.name, spec.cards)
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
            manifest = prepare_output(
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
            "finished": now(),
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
        print(compiling_notice(game.info.title), file=sys.stderr, flush=True)
    started = time.perf_counter()
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool, contextlib.suppress(Exception):
        pool.submit(play_first_game, spec.to_json(), strict).result()
    if progress:
        print(f"compiled in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)


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
                    yield f.result()
            warming.join()  # the caller needs these modules next; on a short run they may still be loading
        except BrokenProcessPool:  # from a result, or from the next submit when a worker died in between
            for f in pending:
                f.cancel()
            raise RunError(
                "a worker process died (killed, or out of memory); the chunks already written are kept, "
                "finish the run with --resume"
            ) from None
        except BaseException:
            for f in pending:
                f.cancel()
            raise


def _import_in_background(modules: tuple[str, ...]) -> threading.Thread:
    """Import ``modules`` on a daemon thread; a failing import is left for its user to raise again."""

    def work() -> None:
        for name in modules:
            with contextlib.suppress(Exception):
                importlib.import_module(name)

    thread = threading.Thread(target=work, name="golem-warm-imports", daemon=True)
    thread.start()
    return thread


def _progress_bar(total: int, initial: int, enabled: bool, desc: str):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="game", unit_scale=True, desc=desc, smoothing=0.1)
