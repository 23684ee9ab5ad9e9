"""Making a run's directory ready: a new run's, or a resumed run's, which keeps the chunks that are intact
(:func:`simulate.integrity.intact_chunks`) and plays the others again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simulate.game import Game
from simulate.integrity import intact_chunks
from simulate.lock import LOCK_NAME
from simulate.runformat import (
    ALL_TABLES,
    FORMAT_VERSION,
    RunFormatError,
    is_temp,
    read_manifest,
    run_tables,
    write_manifest,
)
from simulate.runner.plan import RunError, RunSpec, new_manifest
from simulate.store import RunStore


def prepare_output(
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
    manifest = new_manifest(spec, game, described, rid, command, workers)
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
        manifest["chunks"] = intact_chunks(store, manifest, old["chunks"])
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
        if name not in game.info.data_files:
            store.remove(f"data/{name}")
    folder = Path(spec.cards) if spec.cards else game.data_dir()
    for name in game.info.data_files:
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
    if not {n for n in store.listdir("data") if not is_temp(n)} <= set(game.info.data_files):
        return False
    return not _any_part(store, names)


def _any_part(store: RunStore, names: list[str]) -> bool:
    """Whether any of the run's table folders among ``names`` holds a file (temp files aside)."""
    return any(n for t in ALL_TABLES if t in names for n in store.listdir(t) if not is_temp(n))


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
