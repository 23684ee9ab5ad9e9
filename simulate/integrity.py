"""Whether a run is intact: complete, consistent with itself and its folders, its inputs unedited.

The one home of every check of a run directory (``docs/run-format.md``). :func:`verify_run` checks one run,
:func:`check_runs` several that are to be combined, and :func:`intact_chunks` the chunks a resumed run may keep.
What the checks need to know of a game (the rules and table its data copy gives) comes in as ``derive``, from the
layer that knows the games (``simulate.runner.checks.derived_facts``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from simulate.manifest import RunManifest
from simulate.rng import game_seeds
from simulate.runformat import (
    ALL_TABLES,
    PER_SEAT,
    TABLES,
    RunFormatError,
    compute_run_id,
    design_ids,
    file_sha256,
    is_temp,
    json_default,
    part_name,
    read_manifest,
    run_tables,
    sweep_temps,
)
from simulate.store import RunStore, is_url
from simulate.summary import chunk_tally

__all__ = [
    "Derive",
    "check_chunk",
    "check_header",
    "check_inputs",
    "check_runs",
    "intact_chunks",
    "run_paths",
    "verify_run",
]

DESIGN_KEYS = ("setups", "games_per_setup", "rotate_seats", "chunk_size")
GAME_KEYS = ("game", "setup_id", "rotation", "setup_seed", "play_seed", "num_players")
"""Columns of the games table that a run's design and master seed fix (checked by :func:`verify_run`)."""
TALLIED = ("turns", "rounds", "end_reason")
SEAT_KEYS = ("seat", "bot", "win", "score")

PathLike = str | Path
Derive = Callable[[RunStore, dict[str, Any]], dict[str, Any]]
"""``derive(store, manifest)``: fields of the manifest as the run's data copy and rule options give them."""


def verify_run(
    run_dir: str | Path,
    checksums: bool = True,
    contents: bool | None = None,
    derive: Derive | None = None,
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
    derive: Derive | None = None,
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
    return json.loads(json.dumps(value, default=json_default))


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
    for table, info in record["files"].items():
        path = store.name(info["path"])
        full = store.path(info["path"])
        if not store.isfile(info["path"]):
            raise RunFormatError(f"{path}: part file is missing")
        if checksums and file_sha256(store, info["path"]) != info.get("sha256"):
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


def _check_manifest(m: dict[str, Any], path: str) -> list[tuple[int, int]]:
    """Check a manifest against itself; returns the (first, end) games of its chunks."""
    check_header(m, path)
    games, size = m["num_games"], m["design"]["chunk_size"]
    chunks = m["chunks"]
    if not isinstance(chunks, dict):
        raise RunFormatError(f"{path}: 'chunks' is not a table of chunk records")
    ranges = chunk_ranges(games, size)
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


def chunk_ranges(num_games: int, chunk_size: int) -> list[tuple[int, int]]:
    """The (first, end) games of every chunk of a run of ``num_games`` games in chunks of ``chunk_size``."""
    return [(lo, min(lo + chunk_size, num_games)) for lo in range(0, num_games, chunk_size)]


def intact_chunks(store: RunStore, manifest: dict[str, Any], recorded: Any) -> dict[str, Any]:
    """The chunk records of ``recorded`` (an earlier manifest's ``chunks``) that pass :func:`check_chunk`.

    ``manifest`` is the run's new manifest (its games, design, seed and lineup are the run's); a resumed run keeps
    these chunks and plays the others again.
    """
    if not isinstance(recorded, dict):
        return {}
    kept = {}
    for k, (lo, hi) in enumerate(chunk_ranges(manifest["num_games"], manifest["design"]["chunk_size"])):
        record = recorded.get(str(k))
        try:
            check_chunk(store, {**manifest, "chunks": {str(k): record}}, k, lo, hi)
        except RunFormatError:
            continue
        kept[str(k)] = record
    return kept


def run_paths(path_or_paths: PathLike | Sequence[PathLike]) -> list[PathLike]:
    """The runs given, local directories as ``Path`` and URLs as they were written; at least one."""
    given = [path_or_paths] if isinstance(path_or_paths, str | Path) else list(path_or_paths)
    paths = [p if is_url(p) else Path(p) for p in given]
    if not paths:
        raise RunFormatError("no run directory given")
    return paths


def check_runs(
    path_or_paths: PathLike | Sequence[PathLike],
    checksums: bool = True,
    contents: bool | None = None,
    derive: Derive | None = None,
) -> list[dict[str, Any]]:
    """Verify every run (:func:`verify_run`) and that they can be combined; returns the manifests, each with ``path``.

    Raises ``RunFormatError`` with a one-line message naming the file or directory at fault: a
    missing or empty directory, an unknown format version, a manifest at odds with itself or its
    folders, a missing, truncated or altered part, a run given twice, or runs of different games.
    With ``contents`` (default: as ``checksums``) the tables are read back as ``golem verify``
    does, so a hand-edited tally, bot label, seed or design is refused too (about 0.5 us of CPU
    a game); with ``derive`` the rules and table each run's data copy gives are checked too.
    """
    manifests: list[dict[str, Any]] = []
    seen: dict[str, PathLike] = {}
    first: RunManifest | None = None
    for path in run_paths(path_or_paths):
        m = verify_run(path, checksums=checksums, contents=contents, derive=derive)
        run = RunManifest.from_json(m, path=str(path))
        if first is not None and run.game != first.game:
            raise RunFormatError(
                f"{path}: a '{run.game}' run cannot be combined with the '{first.game}' run {first.path}"
            )
        first = first or run
        rid = run.run_id or str(path)
        if rid in seen:
            raise RunFormatError(f"{path}: the same run as {seen[rid]} (run {rid}); give each run once")
        seen[rid] = path
        manifests.append({**m, "path": str(path)})
    return manifests
