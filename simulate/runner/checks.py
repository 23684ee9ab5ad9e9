"""Checking a recorded run with what only the game knows: the rules and table its data copy gives
(:func:`derived_facts`, the ``derive`` of :mod:`simulate.integrity`), the data it was played with, and whether this
installation plays it as it was played."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simulate.datafiles import DataError
from simulate.game import Game
from simulate.integrity import verify_run
from simulate.registry import UnknownName, make
from simulate.runformat import RunFormatError
from simulate.store import RunStore


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
    :func:`~simulate.integrity.verify_run` to compare with what the manifest records (``derive``).

    Nothing is derived for a run of another engine version, which may read its data otherwise (the run id
    still covers its rules and data files), or one that records no rule options.
    """
    try:
        game = make(manifest["game"])
    except UnknownName as e:
        raise RunFormatError(f"{store.name('manifest.json')}: {e}") from None
    overrides = manifest.get("rule_overrides")
    if manifest.get("engine_version") != game.info.version or not isinstance(overrides, dict):
        return {}
    try:
        data = game.load_data(store.local_folder("data", manifest["run_id"]), dict(overrides))
    except DataError as e:
        raise RunFormatError(f"{store.name('data')}: the run's data copy is unusable: {e}") from None
    described = game.describe_data(data)
    return {key: described[key] for key in ("rules", "table") if key in described}


def check_run(run_dir: str | Path, checksums: bool = True, contents: bool | None = None) -> dict[str, Any]:
    """:func:`~simulate.integrity.verify_run` with the rules and table the run's data copy gives checked too."""
    return verify_run(run_dir, checksums=checksums, contents=contents, derive=derived_facts)


def version_note(manifest: dict[str, Any], where: str) -> str | None:
    """A warning line when a run was made by another engine version than the installed one, else None."""
    try:
        game = make(manifest["game"])
    except (UnknownName, KeyError):
        return None
    made = manifest.get("engine_version")
    if made == game.info.version:
        return None
    return (
        f"warning: {where} was made by engine version {made} of {game.info.name}; this installation has version "
        f"{game.info.version}, so a replay of its games may differ"
    )
