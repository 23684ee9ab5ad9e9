"""Reading run directories (docs/run-format.md) into DataFrames for analysis, one run or several.

Only the requested tables and columns are read. String columns arrive as categoricals and the
numeric columns of all parts are filled into one preallocated array, so a table costs little more
than its final size in memory. Several runs are combined into one table per kind: the ``game``
and ``setup_id`` of each run are offset by the games of the runs before it, so ids stay unique,
and ``run_id`` tells the runs apart. A run may also be read from an fsspec URL (``s3://bucket/runs/c3``),
as a cluster run writes it.

Examples
--------
>>> run = load_run("runs/c3", tables=["seats"], columns={"seats": ["game", "seat", "win"]})  # doctest: +SKIP
>>> run.seats.groupby("seat")["win"].mean()  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simulate.integrity import check_runs, run_paths
from simulate.manifest import RunManifest
from simulate.runformat import ALL_TABLES, TABLES, RunFormatError, read_manifest
from simulate.store import RunStore

__all__ = [
    "OFFSET_COLUMNS",
    "RunTables",
    "check_runs",
    "default_offsets",
    "is_mirror",
    "load_run",
    "read_tables",
    "run_label",
]

OFFSET_COLUMNS = ("game", "setup_id")
"""Id columns offset per run when runs are combined (``setup_id`` never exceeds ``game``)."""

PathLike = str | Path
ColumnSpec = Mapping[str, Sequence[str] | None] | Sequence[str] | None


class RunTables(NamedTuple):
    """Tables of one or several runs; a table not requested is None."""

    games: pd.DataFrame | None
    seats: pd.DataFrame | None
    components: pd.DataFrame | None
    manifests: list[dict[str, Any]]
    """The manifest of each run, in the order given, with ``path`` (the run directory) added."""
    offsets: list[int]
    """What was added to ``game`` and ``setup_id`` of each run (0 for the first)."""
    trajectories: pd.DataFrame | None = None
    """One row per seat per game, ``score`` a list: the seat's score at the end of every round (runs played with
    ``--trajectories``)."""


def _column_spec(tables: Sequence[str], columns: ColumnSpec) -> dict[str, list[str] | None]:
    if columns is None:
        return {t: None for t in tables}
    if isinstance(columns, Mapping):
        unknown = set(columns) - set(tables)
        if unknown:
            raise ValueError(f"columns given for table(s) not requested: {', '.join(sorted(unknown))}")
        return {t: (list(columns[t]) if columns.get(t) is not None else None) for t in tables}
    if len(tables) != 1:
        raise ValueError("with several tables, give columns as a dict {table: [columns]}")
    return {tables[0]: list(columns)}


def _read_part(store: RunStore, rel: str, columns: list[str] | None) -> pa.Table:
    path, fs = store.path(rel), None if store.local else store.fs
    try:
        if columns is not None:
            names = set(pq.read_schema(path, filesystem=fs).names)
            missing = [c for c in columns if c not in names]
            if missing:
                raise RunFormatError(f"{store.name(rel)}: no column {', '.join(missing)}")
        return pq.read_table(path, columns=columns, filesystem=fs)
    except FileNotFoundError:
        raise RunFormatError(f"{store.name(rel)}: part file is missing") from None
    except (pa.ArrowException, OSError) as e:
        raise RunFormatError(f"{store.name(rel)}: not a readable Parquet file ({e})") from None


def _is_plain(column: pa.ChunkedArray) -> bool:
    """Whether a column converts to numpy without nulls or objects (numbers and booleans)."""
    kind = column.type
    return (pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind)) and (
        column.null_count == 0
    )


def read_tables(
    manifests: Sequence[RunManifest | dict[str, Any]],
    table: str,
    columns: Sequence[str] | None = None,
    offsets: Sequence[int] | None = None,
) -> pd.DataFrame:
    """One table over runs already checked (manifests with ``path``, as from :func:`check_runs`, or typed).

    ``offsets`` (one per run) are added to ``game`` and ``setup_id``; by default each run is
    offset by the games of the runs before it, as in :func:`load_run`. Numbers are filled into
    preallocated arrays and strings arrive as categoricals, so memory stays near the final size.
    """
    if table not in ALL_TABLES:
        raise ValueError(f"unknown table '{table}'; choose from {', '.join(ALL_TABLES)}")
    runs = [RunManifest.of(m) for m in manifests]
    lacking = [run.path for run in runs if table not in run.tables]
    if lacking:
        raise RunFormatError(f"{lacking[0]}: the run has no {table} table (play it with --{table})")
    offsets = _offsets(runs) if offsets is None else [int(o) for o in offsets]
    columns = None if columns is None else list(columns)
    parts = [
        (store, part.path, offset)
        for run, offset in zip(runs, offsets, strict=True)
        for store in [RunStore(run.path)]
        for part in run.parts(table)
    ]
    total = sum(part.rows for run in runs for part in run.parts(table))
    wanted = None if columns is None else list(dict.fromkeys(["run_id", *columns]))
    filled: dict[str, np.ndarray] = {}
    pieces: dict[str, list[Any]] = {}
    order: list[str] = []
    pos = 0
    for store, rel, offset in parts:
        path = store.name(rel)
        data = _read_part(store, rel, wanted)
        if not order:
            order = list(data.column_names)
        elif set(data.column_names) != set(order):
            raise RunFormatError(f"{path}: its columns differ from the other parts of table '{table}'")
        rows = data.num_rows
        for name in order:
            column = data.column(name)
            if name in filled or (name not in pieces and _is_plain(column)):
                if name not in filled:
                    filled[name] = np.empty(total, dtype=column.type.to_pandas_dtype())
                if not _is_plain(column):
                    raise RunFormatError(f"{path}: column '{name}' has missing values or another type")
                values = column.to_numpy()
                if name in OFFSET_COLUMNS and offset:
                    values = values + offset
                if not np.can_cast(values.dtype, filled[name].dtype, "safe"):  # stored wider here: never truncate
                    wider = np.result_type(filled[name].dtype, values.dtype)
                    if wider.kind == "f" and filled[name].dtype.kind in "iu":
                        raise RunFormatError(f"{path}: column '{name}' mixes integer types that no type holds")
                    filled[name] = filled[name].astype(wider)
                filled[name][pos : pos + rows] = values
            else:
                series = column.to_pandas()
                if name in OFFSET_COLUMNS and offset:
                    series = series + offset
                pieces.setdefault(name, []).append(series)
        pos += rows
        del data
    if pos != total:
        raise RunFormatError(f"{runs[0].path}: table '{table}' has {pos} rows, the manifests say {total}")
    out: dict[str, Any] = {}
    for name in order:
        if name in filled:
            out[name] = filled.pop(name)
            continue
        series = pieces.pop(name)
        if all(isinstance(s.dtype, pd.CategoricalDtype) for s in series):
            out[name] = pd.api.types.union_categoricals(series, ignore_order=True)
        else:
            out[name] = pd.concat(series, ignore_index=True)
    return pd.DataFrame(out, copy=False)


def load_run(
    path_or_paths: PathLike | Sequence[PathLike],
    tables: str | Sequence[str] = TABLES,
    columns: ColumnSpec = None,
    *,
    verify: bool = True,
    checksums: bool = True,
) -> RunTables:
    """Tables of one run, or of several runs combined, reading only the columns asked for.

    Parameters
    ----------
    path_or_paths
        A run directory or a list of them. Runs must be of one game.
    tables
        ``"games"``, ``"seats"``, ``"components"``, ``"trajectories"`` (runs played with ``--trajectories``) or a
        list of them; the others come back None.
    columns
        None (every column), a list (with a single table), or ``{table: [columns] or None}``.
        ``run_id`` is always included.
    verify, checksums
        Check completeness, row counts and (with ``checksums``) part checksums and the tables
        against the manifest first (:func:`simulate.integrity.verify_run`); never analyse part
        of a run, or a hand-edited one, by mistake.

    Returns
    -------
    RunTables
        ``games``, ``seats``, ``components``, ``manifests``, ``offsets``, ``trajectories``. With several runs,
        ``game`` and ``setup_id`` of run k are offset by the games of runs 0..k-1.

    Raises
    ------
    RunFormatError
        One line naming the directory or file: missing, empty, unknown format version,
        incomplete, corrupt, or runs of different games.
    """
    names = [tables] if isinstance(tables, str) else list(tables)
    bad = [t for t in names if t not in ALL_TABLES]
    if bad:
        raise ValueError(f"unknown table(s) {', '.join(bad)}; choose from {', '.join(ALL_TABLES)}")
    spec = _column_spec(names, columns)
    if verify:
        manifests = check_runs(path_or_paths, checksums=checksums)
    else:
        manifests = [{**read_manifest(p), "path": str(p)} for p in run_paths(path_or_paths)]
    offsets = default_offsets(manifests)
    frames = {t: read_tables(manifests, t, spec[t], offsets) for t in names}
    return RunTables(
        frames.get("games"),
        frames.get("seats"),
        frames.get("components"),
        manifests,
        offsets,
        frames.get("trajectories"),
    )


def default_offsets(manifests: Sequence[RunManifest | dict[str, Any]]) -> list[int]:
    """Game id offset of each run when runs are combined: the games of the runs before it."""
    return _offsets([RunManifest.of(m) for m in manifests])


def _offsets(runs: Sequence[RunManifest]) -> list[int]:
    return [int(o) for o in np.cumsum([0] + [run.num_games for run in runs[:-1]])]


def is_mirror(manifest: RunManifest | dict[str, Any]) -> bool:
    """Whether every seat of the run holds the same bot label (a mirror match)."""
    return RunManifest.of(manifest).is_mirror


def run_label(manifest: RunManifest | dict[str, Any]) -> str:
    """A short name of a run: its directory name."""
    return RunManifest.of(manifest).label
