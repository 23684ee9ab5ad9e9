"""The lab's body of evidence: every finished run under a folder, grouped by what makes their games comparable.

Two runs are *compatible* when their games answer the same question: the same game, engine version, player count,
lineup (bots and parameters), resolved rule options, data files (by SHA-256: an edited deck or refitted weights
are other evidence) and design (rotation, games per setup, orders per opening). Their games pool. A game is a pure
function of (master seed, game index), so two compatible runs of one master seed hold the same games up to the
smaller one's size: each game counts once, from the largest run of each seed.

Queries over the pooled tables go through ``pyarrow.dataset`` (one dataset over the parts of every run), not a
hand-written merge.

Examples
--------
>>> index = evidence_index("runs/study-century")  # doctest: +SKIP
>>> index.groupby("key")["num_games"].sum()  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.dataset as ds

from simulate.integrity import verify_run
from simulate.manifest import RunManifest
from simulate.runformat import RunFormatError

__all__ = [
    "INDEX_COLUMNS",
    "compatible_runs",
    "evidence_index",
    "evidence_key",
    "pooled_seats",
]

INDEX_COLUMNS = ["path", "key", "game", "num_players", "lineup", "master_seed", "num_games"]
"""The columns of :func:`evidence_index`, one row per finished run."""


def evidence_key(manifest: dict[str, Any] | RunManifest) -> str:
    """A digest of what decides whether two runs' games pool (see the module docstring); equal for compatible runs."""
    run = manifest if isinstance(manifest, RunManifest) else RunManifest.from_json(manifest)
    facts = {
        "game": run.game,
        "engine_version": run.engine_version,
        "num_players": run.num_players,
        "lineup": [e.to_json() for e in run.lineup],
        "rules": dict(run.rules),
        "data": dict(run.data_files),
        "design": {
            "rotate_seats": run.design.rotate_seats,
            "games_per_setup": run.design.games_per_setup,
            "orders_per_opening": run.design.orders_per_opening,
            "setups": run.design.setups is not None,
        },
    }
    return hashlib.sha256(json.dumps(facts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _row(path: Path, run: RunManifest) -> list[Any]:
    lineup = run.labels[0] if run.is_mirror else ",".join(run.labels)
    return [path, evidence_key(run), run.game, run.num_players, lineup, run.master_seed, run.num_games]


def evidence_index(root: str | Path, checksums: bool = False) -> pd.DataFrame:
    """Every complete, intact run directly under ``root`` (and ``root`` itself if it is a run): columns
    :data:`INDEX_COLUMNS`. Runs that are unfinished, damaged or of an unknown format are left out, as is anything
    that is not a run. ``checksums`` also checks every part's SHA-256 (slower; without it a part's presence and row
    count are checked)."""
    root = Path(root)
    candidates = [root] if (root / "manifest.json").is_file() else []
    if root.is_dir():
        candidates += sorted(p for p in root.iterdir() if (p / "manifest.json").is_file())
    rows = []
    for path in candidates:
        try:
            m = verify_run(path, checksums=checksums, contents=False)
        except (RunFormatError, OSError, KeyError, ValueError):
            continue
        rows.append(_row(path, RunManifest.from_json(m, path=path)))
    return pd.DataFrame(rows, columns=INDEX_COLUMNS)


def _largest_per_seed(index: pd.DataFrame) -> pd.DataFrame:
    """One run per (key, master seed): the one with the most games, which holds the others' games."""
    ordered = index.sort_values(["key", "master_seed", "num_games", "path"], ascending=[True, True, False, True])
    return ordered.drop_duplicates(["key", "master_seed"]).reset_index(drop=True)


def compatible_runs(given: Sequence[str | Path], root: str | Path, index: pd.DataFrame | None = None) -> list[Path]:
    """``given`` runs and every run under ``root`` compatible with one of them, each game once.

    Of compatible runs with the same master seed only the largest is kept (the others' games are its first games),
    so a given run can be replaced by a larger run of the same games found under ``root``. Runs keep the order given,
    then the found ones follow by path. ``index``: :func:`evidence_index` of ``root`` if already read.
    """
    mine = pd.DataFrame([_row(Path(p), RunManifest.read(p)) for p in given], columns=INDEX_COLUMNS)
    found = evidence_index(root) if index is None else index
    where = {Path(p).resolve() for p in mine["path"]}
    found = found[found["key"].isin(set(mine["key"])) & ~found["path"].map(lambda p: Path(p).resolve() in where)]
    both = pd.concat([mine, found], ignore_index=True) if len(found) else mine
    kept = {Path(p).resolve() for p in _largest_per_seed(both)["path"]}
    out: list[Path] = []
    for p in [*mine["path"], *sorted(found["path"])]:
        if Path(p).resolve() in kept and Path(p).resolve() not in {q.resolve() for q in out}:
            out.append(Path(p))
    return out


def pooled_seats(paths: Iterable[str | Path], columns: Sequence[str]) -> pd.DataFrame:
    """Every seat row of the seats tables of ``paths`` (games counted once by the caller), with ``columns`` and
    ``game`` numbered apart run by run."""
    frames = []
    offset = 0
    for p in paths:
        part = ds.dataset(str(Path(p) / "seats"), format="parquet").to_table(columns=["game", *columns])
        frame = part.to_pandas()
        frame["game"] = frame["game"].astype(np.int64) + offset
        offset = int(frame["game"].max()) + 1 if len(frame) else offset
        frames.append(frame)
    if not frames:
        raise ValueError("no run to pool")
    return pd.concat(frames, ignore_index=True)
