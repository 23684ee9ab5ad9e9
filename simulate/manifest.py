"""A run's manifest read once into typed, frozen records (``docs/run-format.md``, "manifest.json").

The runner writes ``manifest.json`` as a dict (:mod:`simulate.runner.plan`); readers take it in through
:meth:`RunManifest.from_json` (or :meth:`RunManifest.read`) and use attributes, not string keys. Fields that older
format versions lack come with the defaults those runs imply (no optional tables, one order per opening, no play
profile columns). ``raw`` keeps the dict as read for what has no typed field yet.

Examples
--------
>>> run = RunManifest.read("runs/c3")  # doctest: +SKIP
>>> run.num_games, run.design.chunk_size, run.labels  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulate.runformat import RunFormatError, read_manifest, run_tables
from simulate.store import RunStore

__all__ = ["Columns", "DataRecord", "Design", "LineupEntry", "Part", "RunManifest", "RunChunk"]


@dataclass(frozen=True)
class LineupEntry:
    """One entry of a run's lineup: its label, bot name and parameters."""

    label: str
    bot: str
    params: Mapping[str, float]

    def to_json(self) -> dict[str, Any]:
        """The entry in the manifest's form."""
        return {"label": self.label, "bot": self.bot, "params": dict(self.params)}


@dataclass(frozen=True)
class Design:
    """How a run's games are laid out: setups (None: one per game), games per setup, orders per opening (above 1: a
    nested design), seat rotation and chunk size."""

    setups: int | None
    games_per_setup: int
    rotate_seats: bool
    chunk_size: int
    orders_per_opening: int = 1

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Design:
        """The design of a manifest's ``design`` (``orders_per_opening`` absent or null: 1)."""
        return cls(
            setups=d.get("setups"),
            games_per_setup=d.get("games_per_setup", 1),
            rotate_seats=d.get("rotate_seats", True),
            chunk_size=d["chunk_size"],
            orders_per_opening=int(d.get("orders_per_opening") or 1),
        )


@dataclass(frozen=True)
class Part:
    """One Parquet part of a chunk: its path in the run, rows and SHA-256."""

    path: str
    rows: int
    sha256: str | None = None


@dataclass(frozen=True)
class RunChunk:
    """A finished chunk: its index, games ``first..end-1``, one part per table and the summary's tally."""

    index: int
    first: int
    end: int
    files: Mapping[str, Part]
    tally: Mapping[str, Any] | None = None

    @property
    def num_games(self) -> int:
        return self.end - self.first


@dataclass(frozen=True)
class Columns:
    """The game's own columns of each table (``columns`` of the manifest)."""

    setup: tuple[str, ...] = ()
    score_parts: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    seats: tuple[str, ...] = ()
    profile: tuple[str, ...] = ()


@dataclass(frozen=True)
class DataRecord:
    """Where a run's data came from (the manifest's ``data``): its folder, whether it is the shipped data, whether it
    holds estimates and which (the data's ``label``, estimated rows per table and estimated parameters)."""

    folder: str | None = None
    default: bool | None = None
    """True: the shipped data; None: not recorded."""
    estimates: bool = False
    label: str = ""
    estimated_rows: Mapping[str, int] = field(default_factory=dict)
    estimated_parameters: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> DataRecord:
        """The record of a manifest's ``data`` (absent fields: not recorded)."""
        return cls(
            folder=d.get("folder"),
            default=d.get("default"),
            estimates=bool(d.get("estimates")),
            label=str(d.get("label") or ""),
            estimated_rows=dict(d.get("estimated_rows") or {}),
            estimated_parameters=tuple(d.get("estimated_parameters") or ()),
        )


@dataclass(frozen=True)
class RunManifest:
    """A run's manifest, typed. ``path`` is where the run was read from (None if not known)."""

    run_id: str
    game: str
    title: str
    engine_version: Any
    num_players: int
    num_games: int
    master_seed: int
    status: str
    design: Design
    lineup: tuple[LineupEntry, ...]
    rules: Mapping[str, Any]
    data_files: Mapping[str, str]
    tables: tuple[str, ...]
    columns: Columns
    report: Mapping[str, Any]
    chunks: tuple[RunChunk, ...]
    """The finished chunks in index order."""
    timing: Mapping[str, Any] = field(default_factory=dict)
    """``started``, ``finished``, ``seconds``, ``games_per_second`` (the session that finished the run)."""
    data: DataRecord = field(default_factory=DataRecord)
    """Where the run's data came from (``data_files`` holds its files' SHA-256)."""
    package_version: str | None = None
    command: str | None = None
    """The command line that played the run (None: not recorded)."""
    path: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """The manifest as read (with ``path`` when given)."""

    @classmethod
    def from_json(cls, m: Mapping[str, Any], path: str | Path | None = None) -> RunManifest:
        """The typed manifest of dict ``m`` (as :func:`~simulate.runformat.read_manifest` returns it; ``path``, or
        ``m["path"]`` when absent, says where the run is). A run's spec with its facts (no ``chunks`` or ``status``
        yet: what a study asks the evidence for) reads too; whether a run is whole is ``simulate.integrity``'s
        question. Raises ``RunFormatError`` for a field of the wrong shape."""
        where = str(path) if path is not None else m.get("path")
        try:
            data = m.get("data") or {}
            columns = m.get("columns") or {}
            chunks = sorted(
                (
                    RunChunk(
                        int(k),
                        int(c["games"][0]),
                        int(c["games"][1]),
                        {t: Part(f["path"], int(f["rows"]), f.get("sha256")) for t, f in c["files"].items()},
                        c.get("tally"),
                    )
                    for k, c in (m.get("chunks") or {}).items()
                ),
                key=lambda c: c.index,
            )
            return cls(
                run_id=m.get("run_id", ""),
                game=m["game"],
                title=m.get("title", m["game"]),
                engine_version=m.get("engine_version"),
                num_players=int(m["num_players"]),
                num_games=int(m["num_games"]),
                master_seed=int(m["master_seed"]),
                status=m.get("status", ""),
                design=Design.from_json(m["design"]),
                lineup=tuple(LineupEntry(e["label"], e["bot"], dict(e.get("params", {}))) for e in m["lineup"]),
                rules=dict(m.get("rules") or {}),
                data_files=dict(data.get("files") or {}),
                tables=run_tables(dict(m)),
                columns=Columns(**{k: tuple(columns.get(k, ())) for k in Columns.__dataclass_fields__}),
                report=dict(m.get("report") or {}),
                chunks=tuple(chunks),
                timing=dict(m.get("timing") or {}),
                data=DataRecord.from_json(data),
                package_version=m.get("package_version"),
                command=m.get("command"),
                path=where,
                raw={**m, "path": where} if where is not None else dict(m),
            )
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            name = f"{where}/manifest.json" if where else "manifest.json"
            raise RunFormatError(f"{name}: manifest field {e} is missing or malformed") from None

    @classmethod
    def of(cls, m: RunManifest | Mapping[str, Any]) -> RunManifest:
        """``m`` typed: itself when it already is, else :meth:`from_json` of the dict."""
        return m if isinstance(m, RunManifest) else cls.from_json(m)

    @classmethod
    def read(cls, run_dir: str | Path | RunStore) -> RunManifest:
        """The typed manifest of the run in ``run_dir`` (checked for format and version, not for intact parts)."""
        path = run_dir.name() if isinstance(run_dir, RunStore) else str(run_dir)
        return cls.from_json(read_manifest(run_dir), path=path)

    @property
    def labels(self) -> list[str]:
        """The lineup's labels, seat by seat of the unrotated lineup."""
        return [e.label for e in self.lineup]

    @property
    def is_mirror(self) -> bool:
        """Whether every seat holds the same bot label (a mirror match)."""
        return len(set(self.labels)) == 1

    @property
    def label(self) -> str:
        """A short name of the run: its directory name (else its run id)."""
        return Path(self.path or self.run_id or "run").name

    @property
    def tallies(self) -> list[Mapping[str, Any] | None]:
        """Each finished chunk's tally (None where a chunk has none: runs written before tallies were kept)."""
        return [c.tally for c in self.chunks]

    def parts(self, table: str) -> list[Part]:
        """The parts of ``table``, chunk by chunk."""
        return [c.files[table] for c in self.chunks]
