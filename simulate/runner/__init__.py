"""The one runner for every game: plans seeds and seats, plays chunks on local cores or a cluster, writes runs.

Its rooms, each importing only those listed after it:

- :mod:`~simulate.runner.execute`: :func:`run`, playing the chunks a run lacks and recording them;
- :mod:`~simulate.runner.resume`: making a run's directory ready, keeping a resumed run's intact chunks;
- :mod:`~simulate.runner.chunks`: playing one chunk into its parts, in whichever process plays it;
- :mod:`~simulate.runner.checks`: a recorded run checked with what only its game knows;
- :mod:`~simulate.runner.plan`: the run's spec, its checks, seeds, seats, chunks, id and first manifest.

Whether a run is intact is checked in :mod:`simulate.integrity`; the names used elsewhere are re-exported here.
"""

from simulate.runner.checks import check_run, derived_facts, load_run_data, version_note
from simulate.runner.chunks import first_fault, play_chunk_to_parts
from simulate.runner.execute import MANIFEST_INTERVAL, run
from simulate.runner.plan import (
    DEFAULT_CHUNK,
    MAX_CHUNK_SIZE,
    MAX_CHUNKS,
    MAX_WORKERS_PER_CPU,
    MIN_CHUNK,
    MIN_CHUNKS,
    RunError,
    RunSpec,
    apprentice_fit,
    apprentice_warning,
    check_workers,
    chunk_ranges,
    default_chunk_size,
    plan_games,
    report_facts,
    run_id,
    validate,
)

__all__ = [
    "DEFAULT_CHUNK",
    "MANIFEST_INTERVAL",
    "MAX_CHUNKS",
    "MAX_CHUNK_SIZE",
    "MAX_WORKERS_PER_CPU",
    "MIN_CHUNK",
    "MIN_CHUNKS",
    "RunError",
    "RunSpec",
    "apprentice_fit",
    "apprentice_warning",
    "check_run",
    "check_workers",
    "chunk_ranges",
    "default_chunk_size",
    "derived_facts",
    "first_fault",
    "load_run_data",
    "play_chunk_to_parts",
    "plan_games",
    "report_facts",
    "run",
    "run_id",
    "validate",
    "version_note",
]
