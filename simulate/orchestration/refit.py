"""The apprentice refitted on edited data (``--refit-apprentice``), cached by the data's SHA-256.

A what-if plays edited data (a ``--cards`` folder, ``--rule`` options); the apprentice shipped with the data was
fitted on other data and plays the edited game as it learned the printed one (:mod:`simulate.apprentice_fit`).
:func:`refit_apprentice` fits one on the edited data with ``golem train``'s machinery
(:mod:`simulate.orchestration.training`) and returns a data folder that holds the edited data and the refitted
weights with their provenance, so runs on it record an apprentice fitted on their data.

The fit is cached under the user's cache folder (``<user cache>/golem-lab/apprentices``, or ``$GOLEM_APPRENTICE_CACHE``
when set), never in ``seeds/``: one folder per key, the SHA-256 of the game, its engine version, the apprentice's
feature names, the SHA-256 of every data file the apprentice plays on (its own weights aside), the rules in force,
the training's settings and the opponents it keeps its strongest iteration by. A second call with the same data
reuses it; any edit to those files or rules is another key. Data the folder's own apprentice was already fitted on is
returned as it is, with nothing trained.

Every command that plays data it edits itself (``golem sweep``/``ablate`` variants, ``golem balance`` settings,
``golem value``'s ``--cost``/``--reward`` arm) refits through :func:`refit_into`, which puts the refitted weights and
their provenance into the folder the command wrote, so the runs there record an apprentice fitted on their data;
:func:`check_refit` refuses a refit with no learned player to refit, before anything is played.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from simulate.apprentice import read_provenance
from simulate.apprentice_fit import LEARNED_PREFIX, fit_record, plays_learned
from simulate.datafiles import DataError, sha256
from simulate.lineup import LineupError
from simulate.orchestration.training import STRENGTH_KEYS, TrainError, plan_training, train
from simulate.registry import UnknownName, make

__all__ = [
    "CACHE_ENV",
    "RefitError",
    "RefitResult",
    "RefitSettings",
    "cache_folder",
    "check_refit",
    "refit_apprentice",
    "refit_into",
    "refit_key",
]

CACHE_ENV = "GOLEM_APPRENTICE_CACHE"
"""Environment variable naming the folder of refitted apprentices (default: under the user's cache folder)."""
_DONE = "refit.json"


class RefitError(ValueError):
    """A refit that cannot start; the message is one line."""


@dataclass(frozen=True)
class RefitSettings:
    """The training of a refit: ``golem train``'s options (None: the game's defaults)."""

    games: int | None = None
    iterations: int | None = None
    strength_games: int | None = None
    seed: int = 0
    teacher: str | None = None
    expert: str | None = None


@dataclass(frozen=True)
class RefitResult:
    """Where the data with a fitting apprentice is (``folder``), its cache ``key`` and what was done (``how``:
    ``"covered"`` (the folder's own apprentice fits), ``"reused"`` (cached) or ``"fitted"``)."""

    folder: Path
    key: str
    how: str

    def to_json(self) -> dict[str, str]:
        """The record a command keeps of the refit (its experiment's or run's metadata): ``how`` and ``key``."""
        return {"how": self.how, "key": self.key}


def cache_folder() -> Path:
    """The folder of refitted apprentices: ``$GOLEM_APPRENTICE_CACHE`` or ``<user cache>/golem-lab/apprentices``."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("golem-lab", appauthor=False)) / "apprentices"


def _played_files(game: Any, folder: Path) -> dict[str, str]:
    return {n: sha256(folder / n) for n in game.info.data_files if not n.startswith(LEARNED_PREFIX)}


def refit_key(game_name: str, folder: Path, rules: dict[str, Any], settings: RefitSettings) -> str:
    """The cache key of a refit: SHA-256 of the game, its engine version, the apprentice's feature names (weights
    fitted on other features are refused), the played data files' SHA-256, the rules in force (all of them, checked),
    the settings and the opponents the training keeps its strongest iteration by (a fit kept by another rule is
    refitted)."""
    game = make(game_name)
    learned = game.info.apprentice
    key = {
        "game": game.info.name,
        "engine_version": game.info.version,
        "features": list(learned.features) if learned is not None else None,
        "files": _played_files(game, folder),
        "rules": {k: str(v) for k, v in sorted(rules.items())},
        "settings": asdict(settings),
        "kept_by": list(STRENGTH_KEYS),
    }
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()


def refit_apprentice(
    game_name: str,
    cards: str | Path | None,
    rules: dict[str, Any] | None = None,
    settings: RefitSettings = RefitSettings(),
    *,
    cache: Path | None = None,
    workers: int = 1,
    progress: bool = True,
    say: Callable[[str], None] = lambda _: None,
) -> RefitResult:
    """A data folder for ``cards`` (None: the shipped data) under ``rules`` whose apprentice was fitted on it.

    Raises :class:`RefitError` (one line) before anything is written when the game has no apprentice or the data,
    rules or settings are bad.
    """
    try:
        game = make(game_name)
    except UnknownName as e:
        raise RefitError(str(e)) from None
    if game.info.apprentice is None:
        raise RefitError(f"{game.info.name} has no apprentice to refit")
    folder = Path(cards) if cards is not None else game.data_dir()
    try:
        data = game.load_data(folder, dict(rules or {}))
        provenance = read_provenance(folder)
    except DataError as e:
        raise RefitError(str(e)) from None
    in_force = dict(game.describe_data(data)["rules"])
    design_options = tuple(dict.fromkeys(game.info.value_designs.values()))
    files = {n: sha256(folder / n) for n in game.info.data_files}
    record = fit_record(provenance.get("fit", {}), files, in_force, design_options, provenance.get("base"))
    key = refit_key(game.info.name, folder, in_force, settings)
    if record["covers"]:
        return RefitResult(folder, key, "covered")
    target = Path(cache) if cache is not None else cache_folder()
    home = target / f"{game.info.name}-{key[:16]}"
    if (home / _DONE).is_file() and (home / "data").is_dir():
        say(f"apprentice refitted on this data already: {home / 'data'}")
        return RefitResult(home / "data", key, "reused")
    training = home / "training"
    overrides = {k: v for k, v in in_force.items() if k in dict(rules or {})}
    try:
        plan = plan_training(
            game.info.name,
            training,
            data_dir=folder,
            rules=overrides,
            games=settings.games,
            iterations=settings.iterations,
            strength_games=settings.strength_games,
            seed=settings.seed,
            workers=workers,
            resume=(training / "training.json").is_file(),
            overwrite=training.is_dir() and not (training / "training.json").is_file(),
            teacher=settings.teacher,
            expert=settings.expert,
        )
    except (TrainError, LineupError, DataError) as e:
        raise RefitError(str(e)) from None
    say(
        f"refitting the {game.info.name} apprentice on {folder} (golem train {game.info.name}; cached in {home}): "
        f"{plan.games} games per player count and iteration, {plan.iterations} iterations"
    )
    train(plan, progress=progress, say=say)
    staged = home / "data.tmp"
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(folder, staged, ignore=shutil.ignore_patterns(f"{LEARNED_PREFIX}*"))
    for path in training.iterdir():
        if path.is_file() and path.name.startswith(LEARNED_PREFIX):
            shutil.copy2(path, staged / path.name)
    for name in game.info.data_files:  # a learned file the training does not write (say a value fit) stays the folder's
        if not (staged / name).is_file() and (folder / name).is_file():
            shutil.copy2(folder / name, staged / name)
    shutil.rmtree(home / "data", ignore_errors=True)
    os.replace(staged, home / "data")
    done = {"key": key, "game": game.info.name, "cards": str(folder), "rules": in_force, "settings": asdict(settings)}
    (home / _DONE).write_text(json.dumps(done, indent=2, default=str) + "\n", encoding="utf-8")
    say(f"apprentice refitted: {home / 'data'}")
    return RefitResult(home / "data", key, "fitted")


def check_refit(game_name: str, lineups: Iterable[Iterable[Mapping[str, Any]]]) -> None:
    """Refuse ``--refit-apprentice`` (:class:`RefitError`, one line) when ``game_name`` has no apprentice or none of
    ``lineups`` (each as manifest entries: ``bot``, ``params``) plays a learned player."""
    try:
        game = make(game_name)
    except UnknownName as e:
        raise RefitError(str(e)) from None
    if game.info.apprentice is None:
        raise RefitError(f"--refit-apprentice: {game.info.name} has no apprentice to refit")
    if not any(plays_learned(lineup) for lineup in lineups):
        raise RefitError("--refit-apprentice: no apprentice plays in this lineup (apprentice, search:leaf=1)")


def refit_into(
    game_name: str,
    folder: Path,
    rules: dict[str, Any] | None = None,
    settings: RefitSettings = RefitSettings(),
    *,
    cache: Path | None = None,
    workers: int = 1,
    progress: bool = True,
    say: Callable[[str], None] = lambda _: None,
) -> RefitResult:
    """Give ``folder``, a data folder the command itself wrote (an edited copy), an apprentice fitted on it: the
    :func:`refit_apprentice` of its data (cached, or fitted here) with its learned files (weights, provenance) copied
    in. Returns the refit's result; its ``folder`` is ``folder``."""
    folder = Path(folder)
    result = refit_apprentice(
        game_name, folder, rules, settings=settings, cache=cache, workers=workers, progress=progress, say=say
    )
    if result.how != "covered":
        for path in result.folder.iterdir():
            if path.is_file() and path.name.startswith(LEARNED_PREFIX):
                shutil.copy2(path, folder / path.name)
    return RefitResult(folder, result.key, result.how)
