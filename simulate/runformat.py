"""The run directory format (``docs/run-format.md``): writing parts and manifests, reading runs back."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from simulate.game import ChunkTables, Codes, GamePlan, Lists
from simulate.rng import game_seeds
from simulate.store import RunStore
from simulate.summary import chunk_tally

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
DESIGN_KEYS = ("setups", "games_per_setup", "rotate_seats", "chunk_size")
GAME_KEYS = ("game", "setup_id", "rotation", "setup_seed", "play_seed", "num_players")
"""Columns of the games table that a run's design and master seed fix (checked by :func:`verify_run`)."""
TALLIED = ("turns", "rounds", "end_reason")
SEAT_KEYS = ("seat", "bot", "win", "score")
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
    return (json.dumps(obj, indent=1, default=_json_default) + "\n").encode()


def _json_default(o: Any) -> Any:
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


def verify_run(
    run_dir: str | Path,
    checksums: bool = True,
    contents: bool | None = None,
    derive: Callable[[RunStore, dict[str, Any]], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Check that a run is complete, consistent and intact; returns the manifest.

    ``run_dir`` may be an fsspec URL. What the run's answer depends on is checked first (see
    :func:`check_inputs`: its data copy against the SHA-256 the manifest records, its run id against
    what it hashes, and with ``derive`` the rules the data copy gives). The manifest must agree with
    itself (its chunks are the ones
    its games and design plan, its lineup seats its players) and with the folders (every part it
    names is there with its rows and, with ``checksums``, its SHA-256; no other part is). With
    ``contents`` (default: as ``checksums``) the tables are also read back: game ids, setups,
    rotations, seeds and the bots of the seats must be the ones the manifest's design, seed and
    lineup give, and each chunk's tally the one its parts give (about 0.5 us of CPU a game).
    Temporary files of killed writers are removed when no run holds the directory. Raises
    RunFormatError naming the first fault.
    """
    store = RunStore(run_dir)
    where = store.name()
    m = read_manifest(store)
    if m["status"] != "complete":
        raise RunFormatError(f"{where}: run is {m['status']}, not complete (finish it with --resume)")
    ranges = _check_manifest(m, f"{where}/manifest.json")
    check_inputs(store, m, checksums, derive)
    _check_folders(store, m)
    for k, (lo, hi) in enumerate(ranges):
        check_chunk(store, m, k, lo, hi, checksums, checksums if contents is None else contents)
    return m


def check_inputs(
    store: RunStore,
    m: dict[str, Any],
    checksums: bool = True,
    derive: Callable[[RunStore, dict[str, Any]], dict[str, Any]] | None = None,
) -> None:
    """Check what a run's answer depends on besides its parts; raises RunFormatError naming the file or field.

    Every data file the manifest records (``data.files``, whatever the game's files are) must be in the
    run's ``data/`` copy with, given ``checksums``, its recorded SHA-256, and no other file may be there;
    ``derive(store, m)`` (optional, from a layer that knows the games) returns fields of the manifest as the
    data copy gives them (``rules``, ``table``), each of which must equal the recorded one; and the run id
    must be the one its game, engine version, players, games, seed, lineup, design, rules and data files
    give (:func:`compute_run_id`), so an edited rule, bot or design is refused.
    """
    path = store.name("manifest.json")
    data = m.get("data")
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict) or not files or not all(isinstance(v, str) for v in files.values()):
        raise RunFormatError(f"{path}: manifest records no data files with their SHA-256 (data.files)")
    for name in files:
        rel = f"data/{name}"
        if not store.isfile(rel):
            raise RunFormatError(f"{store.name(rel)}: data file is missing (the manifest records it)")
        if checksums and file_sha256(store, rel) != files[name]:
            raise RunFormatError(f"{store.name(rel)}: data file differs from the SHA-256 the manifest records (edited)")
    stray = sorted(n for n in store.listdir("data") if n not in files and not is_temp(n))
    if stray:
        raise RunFormatError(f"{store.name('data/' + stray[0])}: a data file the manifest does not record")
    if derive is not None:
        for key, value in derive(store, m).items():
            field = _first_difference(key, _plain(m.get(key)), _plain(value))
            if field is not None:
                raise RunFormatError(
                    f"{path}: {field} is {_shown(m.get(key), field, key)}, the run's data copy and rule options "
                    f"give {_shown(value, field, key)} (edited)"
                )
    try:
        expected = compute_run_id(m)
    except (KeyError, TypeError) as e:
        raise RunFormatError(f"{path}: manifest has no {e} to check its run id against") from None
    if m.get("run_id") != expected:
        raise RunFormatError(
            f"{path}: run_id {m.get('run_id')} is not the one its engine version, seed, design, lineup, rules and "
            f"data files give ({expected}): one of them was edited"
        )


def _plain(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples as lists, numpy scalars as numbers)."""
    return json.loads(json.dumps(value, default=_json_default))


def _first_difference(name: str, recorded: Any, derived: Any) -> str | None:
    """The dotted name of the first field where ``recorded`` and ``derived`` differ, or None."""
    if isinstance(recorded, dict) and isinstance(derived, dict):
        for key in sorted(set(recorded) | set(derived), key=str):
            found = _first_difference(f"{name}.{key}", recorded.get(key), derived.get(key))
            if found is not None:
                return found
        return None
    return None if recorded == derived else name


def _shown(value: Any, field: str, top: str) -> str:
    for key in field.split(".")[1:] if field != top else []:
        value = value.get(key) if isinstance(value, dict) else None
    return "missing" if value is None else json.dumps(_plain(value))


def check_chunk(
    store: RunStore, m: dict[str, Any], k: int, lo: int, hi: int, checksums: bool = True, contents: bool = True
) -> None:
    """Check chunk ``k`` (games ``lo..hi-1``) of manifest ``m`` against its parts; see :func:`verify_run`."""
    record = m["chunks"].get(str(k))
    _check_record(record, k, lo, hi, store.name("manifest.json"), run_tables(m))
    fs = None if store.local else store.fs
    for table, info in record["files"].items():
        path = store.name(info["path"])
        full = store.path(info["path"])
        if not store.isfile(info["path"]):
            raise RunFormatError(f"{path}: part file is missing")
        if checksums and _sha256(full, fs) != info.get("sha256"):
            raise RunFormatError(f"{path}: checksum differs from the manifest (altered or truncated)")
        try:
            with store.fs.open(full, "rb") as f:
                rows = pq.ParquetFile(f).metadata.num_rows
        except Exception as e:  # pyarrow raises several types for corrupt files
            raise RunFormatError(f"{path}: not a readable Parquet file ({e})") from None
        expected = (hi - lo) * (m["num_players"] if table in PER_SEAT else 1)
        if rows != info["rows"] or (table != "components" and rows != expected):
            raise RunFormatError(f"{path}: {rows} rows, the manifest says {info['rows']}")
    if contents:
        _check_tables(store, m, k, lo, hi)


def compute_run_id(m: dict[str, Any]) -> str:
    """The run id of a manifest: a hash of what decides the results (game, engine version, players, games, master
    seed, lineup, design, rules in force and the SHA-256 of each data file); see ``simulate.runner.run_id``."""
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


def _check_manifest(m: dict[str, Any], path: str) -> list[tuple[int, int]]:
    """Check a manifest against itself; returns the (first, end) games of its chunks."""
    check_header(m, path)
    games, size = m["num_games"], m["design"]["chunk_size"]
    chunks = m["chunks"]
    if not isinstance(chunks, dict):
        raise RunFormatError(f"{path}: 'chunks' is not a table of chunk records")
    ranges = [(lo, min(lo + size, games)) for lo in range(0, games, size)]
    if set(chunks) != {str(k) for k in range(len(ranges))}:
        raise RunFormatError(f"{path}: records {len(chunks)} chunks, its games and chunk size make {len(ranges)}")
    for k, (lo, hi) in enumerate(ranges):
        _check_record(chunks[str(k)], k, lo, hi, path, run_tables(m))
    return ranges


def check_header(m: dict[str, Any], path: str) -> None:
    """Check what a manifest says of the whole run (players, games, design, lineup) against itself."""
    n, games = m["num_players"], m["num_games"]
    if not (_is_int(n) and n >= 1 and _is_int(games) and games >= 1):
        raise RunFormatError(f"{path}: num_players and num_games must be positive integers")
    design = m.get("design")
    if not isinstance(design, dict) or not all(key in design for key in DESIGN_KEYS):
        raise RunFormatError(f"{path}: manifest has no complete 'design' ({', '.join(DESIGN_KEYS)})")
    size, setups, per_setup = design["chunk_size"], design["setups"], design["games_per_setup"]
    if not (_is_int(size) and size >= 1 and _is_int(per_setup) and per_setup >= 1):
        raise RunFormatError(f"{path}: design's chunk_size and games_per_setup must be positive integers")
    if setups is not None and not (_is_int(setups) and setups * per_setup == games):
        raise RunFormatError(f"{path}: design's {setups:,} setups x {per_setup:,} games differ from {games:,} games")
    orders = design.get("orders_per_opening", 1)
    if not (_is_int(orders) and orders >= 1 and (orders == 1 or (setups is not None and setups % orders == 0))):
        raise RunFormatError(f"{path}: design's orders_per_opening must be a positive integer dividing its setups")
    lineup = m["lineup"]
    seated = isinstance(lineup, list) and len(lineup) == n
    if not seated or not all(isinstance(e, dict) and "label" in e for e in lineup):
        raise RunFormatError(f"{path}: its lineup does not seat {n} players")


def _check_record(c: Any, k: int, lo: int, hi: int, path: str, tables: tuple[str, ...] = TABLES) -> None:
    """Check that a chunk record names games ``lo..hi-1`` and the chunk's part of every table of ``tables``."""
    if not isinstance(c, dict) or c.get("games") != [lo, hi]:
        raise RunFormatError(f"{path}: chunk {k} does not record games {lo}-{hi - 1}")
    files = c.get("files")
    if not isinstance(files, dict) or set(files) != set(tables):
        raise RunFormatError(f"{path}: chunk {k} does not name one part of each table")
    for table, info in files.items():
        if not isinstance(info, dict) or info.get("path") != part_name(table, k) or not _is_int(info.get("rows")):
            raise RunFormatError(f"{path}: chunk {k} names its {table} part wrongly")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_folders(store: RunStore, m: dict[str, Any]) -> None:
    """No part beyond those the manifest names; temporary files swept unless a run holds the directory."""
    named = {info["path"] for c in m["chunks"].values() for info in c["files"].values()}
    for table in ALL_TABLES:
        for name in store.listdir(table):
            rel = f"{table}/{name}"
            if not is_temp(name) and rel not in named:
                raise RunFormatError(f"{store.name(rel)}: a file the manifest does not name (stray part)")
    if not store.exists(".lock"):
        sweep_temps(store)


def sweep_temps(store: RunStore) -> None:
    """Remove the temporary files killed writers left in a run (a read-only run keeps them)."""
    for folder in ("", *ALL_TABLES):
        for name in store.listdir(folder):
            if is_temp(name):
                with contextlib.suppress(OSError):
                    store.remove(f"{folder}/{name}" if folder else name)


def _check_tables(store: RunStore, m: dict[str, Any], k: int, lo: int, hi: int) -> None:
    """Check chunk ``k``'s tables against the manifest's design, seed and lineup and its recorded tally."""
    n, design = m["num_players"], m["design"]
    files = m["chunks"][str(k)]["files"]
    fs = None if store.local else store.fs
    try:
        games = pq.read_table(
            store.path(files["games"]["path"]), filesystem=fs, columns=["run_id", *GAME_KEYS, *TALLIED]
        )
        seats = pq.read_table(store.path(files["seats"]["path"]), filesystem=fs, columns=["game", *SEAT_KEYS])
    except (pa.ArrowException, KeyError, OSError) as e:
        raise RunFormatError(f"{store.name(files['games']['path'])}: unreadable ({e})") from None
    if set(pc.unique(games["run_id"].combine_chunks().cast(pa.string())).to_pylist()) != {m.get("run_id")}:
        raise RunFormatError(f"{store.name(files['games']['path'])}: its run_id differs from the manifest's")
    game = np.arange(lo, hi, dtype=np.int64)
    setup_id, rotation = design_ids(game, n, design["setups"], design["games_per_setup"], design["rotate_seats"])
    setup_seed, play_seed = game_seeds(int(m["master_seed"]), game, setup_id, design.get("orders_per_opening", 1))
    expected = {
        "game": game,
        "setup_id": setup_id,
        "rotation": rotation,
        "setup_seed": setup_seed,
        "play_seed": play_seed,
        "num_players": np.full(len(game), n),
    }
    for name, values in expected.items():
        if not np.array_equal(games[name].to_numpy(), values):
            raise RunFormatError(
                f"{store.name(files['games']['path'])}: column {name} differs from the manifest's design and seed"
            )
    bots = pc.dictionary_encode(seats["bot"].combine_chunks().cast(pa.string()))
    names = bots.dictionary.to_pylist()
    code = np.array([names.index(e["label"]) if e["label"] in names else -1 for e in m["lineup"]])
    seat_index = (np.arange(n)[None, :] + rotation[:, None]) % n
    if not np.array_equal(bots.indices.to_numpy(zero_copy_only=False), code[seat_index].ravel()):
        raise RunFormatError(f"{store.name(files['seats']['path'])}: its bots differ from the manifest's lineup")
    if "trajectories" in files:
        rel = files["trajectories"]["path"]
        try:
            keys = pq.read_table(store.path(rel), filesystem=fs, columns=["game", "seat"])
        except (pa.ArrowException, KeyError, OSError) as e:
            raise RunFormatError(f"{store.name(rel)}: unreadable ({e})") from None
        seat = np.tile(np.arange(1, n + 1), len(game))
        if not (
            np.array_equal(keys["game"].to_numpy(), np.repeat(game, n))
            and np.array_equal(keys["seat"].to_numpy(), seat)
        ):
            raise RunFormatError(f"{store.name(rel)}: its games and seats differ from the manifest's design")
    recorded = m["chunks"][str(k)].get("tally")
    if recorded is not None and recorded != chunk_tally({"games": games, "seats": seats}):
        raise RunFormatError(f"{store.name('manifest.json')}: chunk {k}'s tally differs from its parts")


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
