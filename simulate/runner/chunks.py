"""Playing one chunk of a run, in whichever process plays it (a pool worker, a Dask worker or the run's own), and
writing its parts; the pool worker's tie to the run that started it."""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import sys
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from simulate.game import ChunkTables, Codes, Game, GamePlan
from simulate.lineup import lineup_arrays
from simulate.lock import close_inherited
from simulate.registry import make
from simulate.runformat import FAULT_END_REASONS, chunk_tables, write_part
from simulate.runner.plan import RunError, RunSpec, plan_games, validate
from simulate.store import RunStore
from simulate.summary import chunk_tally

PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process receives when its parent dies."""
PARENT_CHECK_INTERVAL = 1.0
"""Seconds between a pool worker's checks that the run which started it still runs."""


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
        lineup = plan.lineup(spec.num_players, ids, params)
        tables = game.play_chunk(data, lineup, check_moves=check_moves, trajectories=spec.trajectories)
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
    lineup = plan.lineup(spec.num_players, ids, params)
    for i in range(len(plan.game)):
        try:
            game.play_chunk(data, lineup.part(i, i + 1))
        except Exception:
            return (
                f"game {plan.game[i]} (setup seed {plan.setup_seed[i]}, play seed {plan.play_seed[i]}) broke the "
                f"{game.info.name} engine ({what}); see it with 'golem replay {out} --game {plan.game[i]}'"
            )
    return f"games {plan.game[0]}-{plan.game[-1]} broke the {game.info.name} engine together ({what})"


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


def play_first_game(payload: dict[str, Any], strict: bool) -> None:
    """Play game 0 of the run of ``payload`` and drop it: fills the numba cache on a game's first use."""
    spec = RunSpec.from_json(payload)
    game, data = validate(spec)
    plan = plan_games(spec, 0, 1)
    ids, params = lineup_arrays(game, spec.lineup)
    game.play_chunk(data, plan.lineup(spec.num_players, ids, params), check_moves=strict)


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
