"""Planning a run: its spec, the checks a spec passes before anything is written, its seeds and seats, its chunks,
its id and the manifest it starts with."""

from __future__ import annotations

import math
import os
import platform
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from simulate import __version__
from simulate.apprentice import fit_warning, read_provenance
from simulate.apprentice_fit import fit_record, plays_learned
from simulate.game import Game, GamePlan
from simulate.lineup import BotEntry, seat_assignment
from simulate.registry import make
from simulate.rng import game_seeds
from simulate.runformat import FORMAT_VERSION, TABLES, compute_run_id, design_ids, run_tables

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
    """What a report needs to know of the game, recorded in the manifest (``report``) so that documents read it from the
    run: ``score_unit``, ``turn_order_column`` (None: the table seat is the turn order), ``round_word`` (what a
    round of the games table is called), ``metrics`` (the game's ``report_metrics``, name -> [expression, meaning[,
    per]]), ``skill_ladder`` (the game's bots from weakest to strongest), ``bot_names`` (spec -> the words a
    designer reads), ``profile_forced`` (profile columns that count what a player does only when forced or as a
    penalty, which the play profile shows but never flags as unused), ``outcome`` (``"win"`` or ``"score"``: what
    the seat and strategy answers measure), ``outcome_precision`` (score units, for ``"score"``),
    ``design_measures`` (the metrics the summary leads with) and ``public_opening``, ``hidden_order`` (what the
    setup seed's two streams draw, in words; an empty opening: none) and ``playing_time`` (the box's minutes and the
    estimated pace that turn a game's turns into minutes, ``Game.playing_time``; None: no box time) and
    ``rule_words`` (rule option -> what it decides, the option's help: the words a rule answer names it with)."""
    return {
        "score_unit": game.info.score_unit,
        "turn_order_column": game.info.turn_order_column,
        "round_word": game.info.round_word,
        "metrics": {name: list(spec) for name, spec in game.info.report_metrics.items()},
        "skill_ladder": list(game.info.skill_ladder),
        "bot_names": dict(game.info.bot_names),
        "profile_forced": list(game.info.profile_forced),
        "outcome": game.info.outcome,
        "outcome_precision": game.info.outcome_precision,
        "design_measures": list(game.info.design_measures),
        "public_opening": game.info.public_opening,
        "hidden_order": game.info.hidden_order,
        "playing_time": game.playing_time(),
        "rule_words": {name: option.help for name, option in game.rule_options().items()},
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
    if not game.info.min_players <= spec.num_players <= game.info.max_players:
        raise RunError(
            f"{game.info.name} takes {game.info.min_players}-{game.info.max_players} players, not {spec.num_players}"
        )
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
    return fit_warning(fit, game.info.name, game.info.version, described["rules"], game.info.play_version)


def apprentice_fit(spec: RunSpec, game: Game, described: dict[str, Any]) -> dict[str, Any] | None:
    """The run's record of its learned player's fit (:func:`simulate.apprentice_fit.fit_record`, the manifest's
    ``apprentice_fit``): whether it was fitted on the data and rules the run plays; None when none plays."""
    if not plays_learned(e.to_json() for e in spec.lineup):
        return None
    provenance = read_provenance(Path(spec.cards) if spec.cards else game.data_dir())
    design_options = tuple(dict.fromkeys(game.info.value_designs.values()))
    files = described["data"]["files"]
    return fit_record(provenance.get("fit", {}), files, described["rules"], design_options, provenance.get("base"))


def run_id(spec: RunSpec, game: Game, described: dict[str, Any]) -> str:
    """A run id that depends only on what decides the results."""
    return compute_run_id(
        {
            "game": spec.game,
            "engine_version": game.info.version,
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


def new_manifest(
    spec: RunSpec, game: Game, described: dict[str, Any], rid: str, command: str, workers: int
) -> dict[str, Any]:
    """The manifest a run starts with (``status`` running, no chunks); see ``docs/run-format.md``."""
    return {
        "format": "golem-run",
        "format_version": FORMAT_VERSION,
        "run_id": rid,
        "game": game.info.name,
        "title": game.info.title,
        "engine_version": game.info.version,
        "package_version": __version__,
        "command": command,
        **spec.to_json(),
        "rule_overrides": dict(spec.rules),
        **described,
        "columns": {
            "setup": list(game.info.setup_columns),
            "score_parts": list(game.info.score_parts),
            "games": list(game.info.game_columns),
            "seats": list(game.info.seat_columns),
            "profile": list(game.info.profile_columns),
        },
        "component_kinds": list(game.info.component_kinds),
        "report": report_facts(game),
        "chunks": {},
        "status": "running",
        "timing": {"started": now()},
        "environment": _environment(workers),
    }


def now() -> str:
    """The time now, UTC, to the second, as the manifest records it."""
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
