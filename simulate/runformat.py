"""The run directory format (``docs/run-format.md``): writing parts and manifests, reading runs back.

Whether a run is intact (complete, consistent, unedited) is checked in :mod:`simulate.integrity`."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simulate.game import ChunkTables, Codes, GamePlan, Lists
from simulate.store import RunStore

if TYPE_CHECKING:
    import pandas as pd

FORMAT_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
"""Run format versions this code reads: version 1 runs have no play-profile columns (``columns.profile``), runs
before version 3 no ``trajectories`` table."""
TABLES = ("games", "seats", "components")
"""The tables every run has."""
OPTIONAL_TABLES = ("trajectories",)
"""Tables a run has when it was asked for them (``manifest.tables``): ``trajectories``, with ``--trajectories``."""
ALL_TABLES = TABLES + OPTIONAL_TABLES
PER_SEAT = ("seats", "trajectories")
"""Tables with one row per seat per game."""
FAULT_END_REASONS = ("turn_cap", "illegal_move")
"""End reasons that are not the rules' end of a game: recorded, warned of, and fatal to a ``--strict`` run."""
STATISTICS = ("game", "setup_id", "seat")
"""Columns whose Parquet statistics (min/max per row group) are written: the keys readers filter on.
Statistics of the other columns, dictionary-encoded strings above all, cost more to write than they save;
likewise Parquet dictionary pages are written for the string columns only, and the string columns' dictionary
indices are left uncompressed (zstd gains a few percent on them at a fifth of their encoding time). Integer
columns are delta-encoded and lz4-compressed: as small as plain zstd parts, at two thirds of the encoding time."""


class RunFormatError(ValueError):
    """A run directory that is missing, incomplete, corrupt or of another format; one-line message."""


def run_tables(m: dict[str, Any]) -> tuple[str, ...]:
    """The tables of the run of manifest ``m``: :data:`TABLES` and the optional ones its ``tables`` names (a
    manifest without ``tables``, from runs before format version 3, has none)."""
    named = m.get("tables")
    return TABLES + tuple(t for t in OPTIONAL_TABLES if isinstance(named, list) and t in named)


def _column(values: np.ndarray | Codes | Lists) -> pa.Array:
    if isinstance(values, Lists):
        return pa.ListArray.from_arrays(pa.array(np.asarray(values.offsets, np.int32)), _column(values.values))
    if isinstance(values, Codes):
        codes = np.asarray(values.codes, dtype=_index_type(len(values.categories)))
        mask = codes < 0
        return pa.DictionaryArray.from_arrays(
            pa.array(codes, mask=mask if mask.any() else None), pa.array(list(values.categories), pa.string())
        )
    return pa.array(np.ascontiguousarray(values))


def _index_type(num_categories: int) -> type:
    """The narrowest signed integer that indexes ``num_categories`` (and -1 for missing)."""
    return np.int8 if num_categories < 2**7 else np.int16 if num_categories < 2**15 else np.int32


def _table(columns: dict[str, pa.Array]) -> pa.Table:
    """A table whose columns without nulls are declared non-nullable: Parquet then writes no
    definition levels for them, a fifth of the cost of encoding a part."""
    fields = [pa.field(name, a.type, nullable=a.null_count > 0) for name, a in columns.items()]
    return pa.table(list(columns.values()), schema=pa.schema(fields))


def _labels(run_id: str, n: int) -> pa.Array:
    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int8)), pa.array([run_id]))


def _bot_column(seat_lineup: np.ndarray, labels: list[str]) -> pa.Array:
    """Bot label of every seat row, dictionary-encoded over the distinct labels."""
    distinct = list(dict.fromkeys(labels))
    code_of = np.array([distinct.index(label) for label in labels], dtype=np.int32)
    return _column(Codes(code_of[seat_lineup.ravel()], tuple(distinct)))


def chunk_tables(
    run_id: str, num_players: int, plan: GamePlan, labels: list[str], t: ChunkTables
) -> dict[str, pa.Table]:
    """The Parquet tables of a chunk: shared columns first, then the game's own; ``trajectories`` only when the game
    returned them (one row per seat per game: ``score``, the seat's score at the end of every round, a list)."""
    g = len(plan.game)
    n = num_players
    games = {
        "run_id": _labels(run_id, g),
        "game": pa.array(plan.game),
        "setup_id": pa.array(plan.setup_id),
        "setup_seed": pa.array(plan.setup_seed),
        "play_seed": pa.array(plan.play_seed),
        "num_players": pa.array(np.full(g, n, np.int8)),
        "rotation": pa.array(plan.rotation),
        **{k: _column(v) for k, v in t.games.items()},
    }
    seats = {
        "run_id": _labels(run_id, g * n),
        "game": pa.array(np.repeat(plan.game, n)),
        "setup_id": pa.array(np.repeat(plan.setup_id, n)),
        "num_players": pa.array(np.full(g * n, n, np.int8)),
        "seat": pa.array(np.tile(np.arange(1, n + 1, dtype=np.int8), g)),
        "bot": _bot_column(plan.seat_lineup, labels),
        **{k: _column(v) for k, v in t.seats.items()},
    }
    comp = dict(t.components)
    offset = np.asarray(comp.pop("game"), dtype=np.int64)
    seat = np.asarray(comp.pop("seat"), dtype=np.int8) + 1
    components = {
        "run_id": _labels(run_id, len(offset)),
        "game": pa.array(plan.game[offset] if len(offset) else np.zeros(0, np.int64)),
        "seat": pa.array(seat),
        **{k: _column(v) for k, v in comp.items()},
    }
    tables = {"games": _table(games), "seats": _table(seats), "components": _table(components)}
    if t.trajectories is not None:
        tables["trajectories"] = _table(
            {
                "run_id": _labels(run_id, g * n),
                "game": seats["game"],
                "seat": seats["seat"],
                "score": _column(t.trajectories),
            }
        )
    return tables


def part_name(table: str, chunk: int) -> str:
    return f"{table}/part-{chunk:05d}.parquet"


def _write_options(data: pa.Table) -> dict[str, Any]:
    """Parquet writer options of a part: dictionaries for strings only, their indices uncompressed; integer columns
    delta-encoded (but 64-bit seeds, which are random bits), every other column lz4-compressed; statistics for the
    key columns."""
    strings, compression, encoding = [], {}, {}
    for f in data.schema:
        leaf, kind = (f"{f.name}.list.element", f.type.value_type) if pa.types.is_list(f.type) else (f.name, f.type)
        if pa.types.is_dictionary(kind):
            strings.append(leaf)  # the leaf of a list of strings is named so in Parquet's compliant list layout
            compression[leaf] = "none"
            continue
        compression[leaf] = "lz4"
        if pa.types.is_integer(kind) and kind != pa.uint64():
            encoding[leaf] = "DELTA_BINARY_PACKED"
    return {
        "compression": compression,
        "column_encoding": encoding,
        "write_statistics": [c for c in STATISTICS if c in data.column_names],
        "use_dictionary": strings,
        "use_compliant_nested_type": True,
    }


def write_part(out: Path | RunStore, table: str, chunk: int, data: pa.Table) -> dict[str, Any]:
    """Write one part under a temporary name, then rename it; returns its path, rows and checksum.

    ``out`` is a run directory or a :class:`~simulate.store.RunStore`; the bytes are the same either way.
    """
    rel = part_name(table, chunk)
    if isinstance(out, RunStore):
        if not out.local:
            buffer = pa.BufferOutputStream()
            pq.write_table(data, buffer, **_write_options(data))
            raw = buffer.getvalue().to_pybytes()
            out.write_atomic(rel, raw)
            return {"path": rel, "rows": data.num_rows, "sha256": hashlib.sha256(raw).hexdigest()}
        out = out.dir
    final = Path(out) / rel
    tmp = final.with_name(f".{final.name}.tmp-{os.getpid()}")
    try:
        pq.write_table(data, tmp, **_write_options(data))
        digest = _sha256(tmp)
        os.replace(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return {"path": rel, "rows": data.num_rows, "sha256": digest}


def write_json_atomic(path: Path, obj: Any) -> None:
    """Write JSON under a temporary name and rename it, so a reader never sees half a file."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_bytes(_manifest_bytes(obj))
    os.replace(tmp, path)


def write_manifest(store: RunStore, manifest: dict[str, Any]) -> None:
    """Write a run's ``manifest.json`` atomically."""
    if store.local:
        write_json_atomic(store.dir / "manifest.json", manifest)
    else:
        store.write_atomic("manifest.json", _manifest_bytes(manifest))


def _manifest_bytes(obj: Any) -> bytes:
    return (json.dumps(obj, indent=1, default=json_default) + "\n").encode()


def json_default(o: Any) -> Any:
    """JSON for the numpy values a manifest may hold (``json.dumps(..., default=json_default)``)."""
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"cannot store {type(o).__name__} in a manifest")


def _sha256(path: Path | str, fs: Any = None) -> str:
    h = hashlib.sha256()
    with open(path, "rb") if fs is None else fs.open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_sha256(store: RunStore, rel: str) -> str:
    """The SHA-256 of file ``rel`` of a run."""
    return _sha256(store.path(rel), None if store.local else store.fs)


def read_manifest(run_dir: str | Path | RunStore) -> dict[str, Any]:
    """A run's manifest, checked for format and version; ``run_dir`` may be an fsspec URL."""
    store = run_dir if isinstance(run_dir, RunStore) else RunStore(run_dir)
    where = store.name()
    path = f"{where}/manifest.json"
    if not store.isdir():
        if store.exists():
            raise RunFormatError(f"{where}: is a file, not a run directory")
        raise RunFormatError(f"{where}: no such run directory")
    if not store.isfile("manifest.json"):
        raise RunFormatError(f"{where}: not a run directory (no manifest.json)")
    try:
        m = json.loads(store.read_bytes("manifest.json").decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RunFormatError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(m, dict) or m.get("format") != "golem-run":
        raise RunFormatError(f"{path}: not a golem run manifest")
    if m.get("format_version") not in READABLE_VERSIONS:
        raise RunFormatError(
            f"{path}: run format version {m.get('format_version')} is not supported (this is version {FORMAT_VERSION})"
        )
    for key in ("game", "num_players", "num_games", "chunks", "lineup", "status"):
        if key not in m:
            raise RunFormatError(f"{path}: manifest has no '{key}'")
    return m


def compute_run_id(m: dict[str, Any]) -> str:
    """The run id of a manifest: a hash of what decides the results (game, engine version, players, games, master
    seed, lineup, design, rules in force and the SHA-256 of each data file); see ``simulate.runner.plan.run_id``."""
    key = {
        "game": m["game"],
        "engine_version": m["engine_version"],
        "players": m["num_players"],
        "games": m["num_games"],
        "seed": m["master_seed"],
        "lineup": m["lineup"],
        "design": m["design"],
        "rules": m["rules"],
        "files": m["data"]["files"],
    }
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:12]
    return f"{m['game']}-{m['num_players']}p-{digest}"


def sweep_temps(store: RunStore) -> None:
    """Remove the temporary files killed writers left in a run (a read-only run keeps them)."""
    for folder in ("", *ALL_TABLES):
        for name in store.listdir(folder):
            if is_temp(name):
                with contextlib.suppress(OSError):
                    store.remove(f"{folder}/{name}" if folder else name)


def design_ids(
    game: np.ndarray, num_players: int, setups: int | None, games_per_setup: int, rotate_seats: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Setup ids (int64) and seat rotations (int8) of games ``game`` under a run's design."""
    if setups is None:
        setup_id, within = game.copy(), game
    else:
        setup_id, within = game // games_per_setup, game % games_per_setup
    rotation = (within % num_players).astype(np.int8) if rotate_seats else np.zeros(len(game), np.int8)
    return setup_id, rotation


def is_temp(name: str) -> bool:
    """Whether a file name is a writer's temporary file (``.NAME.tmp-PID``), left if the writer was killed."""
    return name.startswith(".") and ".tmp-" in name


def read_table(
    run_dir: str | Path, table: str, columns: list[str] | None = None, manifest: dict[str, Any] | None = None
) -> pd.DataFrame:
    """One table of a complete run as a DataFrame, reading only ``columns`` (all if None)."""
    return read_arrow(run_dir, table, columns, manifest).to_pandas()


def read_arrow(
    run_dir: str | Path, table: str, columns: list[str] | None = None, manifest: dict[str, Any] | None = None
) -> pa.Table:
    """One table of a complete run as an Arrow table, reading only ``columns`` (all if None)."""
    store = RunStore(run_dir)
    where = store.name()
    m = manifest or read_manifest(store)
    if table not in ALL_TABLES:
        raise ValueError(f"unknown table '{table}'; choose from {', '.join(ALL_TABLES)}")
    if table not in run_tables(m):
        raise RunFormatError(f"{where}: the run has no {table} table (play it with --{table})")
    fs = None if store.local else store.fs
    frames = []
    for _, c in sorted(m["chunks"].items(), key=lambda kv: int(kv[0])):
        rel = c["files"][table]["path"]
        path = f"{where}/{rel}"
        try:
            frames.append(pq.read_table(store.path(rel), columns=columns, filesystem=fs))
        except FileNotFoundError:
            raise RunFormatError(f"{path}: part file is missing") from None
        except (pa.ArrowInvalid, OSError) as e:
            raise RunFormatError(f"{path}: not a readable Parquet file ({e})") from None
        except KeyError as e:
            raise RunFormatError(f"{path}: no column {e}") from None
    if not frames:
        raise RunFormatError(f"{where}: run has no finished chunks")
    try:
        data = pa.concat_tables(frames, promote_options="permissive")
    except pa.ArrowInvalid as e:
        raise RunFormatError(f"{where}/{table}: parts do not share one schema ({e})") from None
    return data
