"""Reading an experiment directory back (``simulate.orchestration.experiments`` plays one).

An experiment directory holds ``experiment.json`` (its manifest) and one run directory per variant
and round (layout in ``simulate.orchestration.experiments``); :func:`load_experiment` reads it into an
:class:`Experiment` with the paired effects recomputed from the runs, :func:`read_quantities` reads one
run's per-game quantities.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from analysis.run import check_runs, read_tables
from analysis.stats._util import and_list
from analysis.stats.paired import Moments, PairedRounds, game_quantities
from analysis.stats.sequential import SequentialTest
from simulate.apprentice_fit import SEARCH_SKILL, fit_caution, manifest_fit
from simulate.manifest import RunChunk, RunManifest
from simulate.runformat import RunFormatError, read_manifest

__all__ = [
    "EXPERIMENT_FORMAT",
    "SEAT_COLUMNS",
    "Experiment",
    "RunQuantities",
    "add_round",
    "learned_fit_caution",
    "load_experiment",
    "measured_skill",
    "read_lengths",
    "read_profiles",
    "read_quantities",
    "run_dirs",
    "skill_head",
    "variant_run_dirs",
]

EXPERIMENT_FORMAT = "golem-experiment"
SEAT_COLUMNS = ["game", "num_players", "seat", "bot", "score", "win"]
_READ_THREADS = 2


class Experiment(NamedTuple):
    """A played experiment: its directory, manifest, per-game quantities of each variant and effects."""

    path: Path
    manifest: dict[str, Any]
    quantities: Mapping[str, pd.DataFrame]
    """Variant name -> :func:`analysis.stats.paired.game_quantities` over all its rounds (:class:`RunQuantities`)."""
    effects: pd.DataFrame
    """:func:`analysis.stats.paired.compare_variants` against the baseline."""


class RunQuantities(Mapping[str, pd.DataFrame]):
    """Variant name -> :func:`read_quantities` of its rounds' runs as one table, read when first asked for.

    The effects are summed up round by round as the runs are played, so an experiment holds no
    per-game table of its own; one is read from the runs (and kept) only if it is asked for.
    """

    def __init__(self, runs: Mapping[str, Sequence[Path]], num_games: int) -> None:
        self.runs = {name: list(dirs) for name, dirs in runs.items()}
        self.num_games = num_games
        self._read: dict[str, pd.DataFrame] = {}

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._read:
            parts = [read_quantities(d, r * self.num_games) for r, d in enumerate(self.runs[name])]
            self._read[name] = pd.concat(parts) if len(parts) > 1 else parts[0]
        return self._read[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.runs)

    def __len__(self) -> int:
        return len(self.runs)


def read_lengths(exp: Experiment) -> dict[str, pd.DataFrame]:
    """Variant name -> ``rounds`` and ``turns`` of each of its games (indexed by game, numbered over its rounds as
    the quantities are), read from the runs' games tables (``analysis.stats.paired.length_effects`` takes them)."""
    runs = run_dirs(exp.path, exp.manifest)
    num_games = int(exp.manifest["design"]["num_games"])
    out = {}
    for name, dirs in runs.items():
        manifests = check_runs(list(dirs), checksums=False)
        games = read_tables(manifests, "games", ["game", "rounds", "turns"], [r * num_games for r in range(len(dirs))])
        out[name] = games.set_index("game")[["rounds", "turns"]].astype(float)
    return out


def read_profiles(exp: Experiment) -> dict[str, pd.DataFrame]:
    """Variant name -> each play-profile measure a game (the uses of a mechanism by every seat of the game, indexed
    by game as in :func:`read_lengths`), read from the runs' seats tables; empty when the game has no profile
    (``analysis.stats.paired.play_effects`` takes them)."""
    runs = run_dirs(exp.path, exp.manifest)
    num_games = int(exp.manifest["design"]["num_games"])
    out = {}
    for name, dirs in runs.items():
        manifests = check_runs(list(dirs), checksums=False)
        columns = list(RunManifest.from_json(manifests[0]).columns.profile)
        if not columns:
            return {}
        offsets = [r * num_games for r in range(len(dirs))]
        seats = read_tables(manifests, "seats", ["game", *columns], offsets)
        out[name] = seats.groupby("game")[columns].sum().astype(float)
    return out


def read_quantities(run_dir: str | Path, offset: int = 0) -> pd.DataFrame:
    """:func:`analysis.stats.paired.game_quantities` of one complete run, its games numbered from ``offset``.

    Reads only the seats table's ``game``, ``seat``, ``win`` and ``score`` columns (and ``bot``
    when the lineup has several labels) into arrays and places every row by its position: part k
    holds the games of chunk k in order, seat by seat (``docs/run-format.md``). That layout is
    checked row by row; a run whose parts do not have it is read the straightforward way (a
    DataFrame sorted by game and seat).
    """
    run_dir = Path(run_dir)
    run = RunManifest.read(run_dir)
    if run.status != "complete":
        raise RunFormatError(f"{run_dir}: run is {run.status}, not complete (finish it with --resume)")
    fast = _read_positional(run_dir, run, offset)
    if fast is not None:
        return fast
    seats = read_tables(check_runs([run_dir], checksums=False), "seats", SEAT_COLUMNS, [offset])
    return game_quantities(seats)


def _read_positional(run_dir: Path, run: RunManifest, offset: int) -> pd.DataFrame | None:
    """:func:`read_quantities` by row position, or None when a part does not have the positional layout."""
    n, num_games = run.num_players, run.num_games
    chunks = sorted(run.chunks, key=lambda c: c.first)
    bounds = [0, *[c.end for c in chunks]]
    if [c.first for c in chunks] != bounds[:-1] or bounds[-1] != num_games:
        return None
    labels = list(dict.fromkeys(str(label) for label in run.labels))
    block = np.empty((2 * n + (len(labels) if len(labels) > 1 else 0), num_games))  # a row per quantity: one block
    with ThreadPoolExecutor(_READ_THREADS) as pool:  # Parquet decoding and numpy release the GIL
        placed = list(pool.map(lambda c: _place_part(run_dir / c.files["seats"].path, c, n, labels, block), chunks))
    if not all(placed):
        return None
    names = [f"seat{s + 1}" for s in range(n)] + [f"margin{s + 1}" for s in range(n)]
    names += [re.sub(r"\W", "_", label) for label in labels] if len(labels) > 1 else []
    index = pd.RangeIndex(offset, offset + num_games, name="game")
    return pd.DataFrame(block.T, index=index, columns=names, copy=False)


def _place_part(path: Path, chunk: RunChunk, n: int, labels: list[str], block: np.ndarray) -> bool:
    """Fill the block's columns of one chunk's games from its seats part; False if the part's rows are not
    its games in order, seat by seat."""
    lo, hi = chunk.first, chunk.end
    bots = len(labels) > 1
    columns = ["game", "seat", "win", "score", *(["bot"] if bots else [])]
    try:
        data = pq.ParquetFile(path).read(columns=columns, use_threads=False)
    except FileNotFoundError:
        raise RunFormatError(f"{path}: part file is missing") from None
    except (pa.ArrowException, OSError) as e:
        raise RunFormatError(f"{path}: not a readable Parquet file ({e})") from None
    if data.num_rows != n * (hi - lo) or any(data.column(k).null_count for k in columns):
        return False
    part = {k: data.column(k).to_numpy().reshape(-1, n).T for k in columns if k != "bot"}  # (seat, game)
    seats = np.arange(1, n + 1, dtype=np.int8)[:, None]
    if not ((part["seat"] == seats).all() and (part["game"] == np.arange(lo, hi)).all()):
        return False
    win = block[:n, lo:hi]
    win[:] = part["win"]
    margin = block[n : 2 * n, lo:hi]  # as game_quantities: score minus the mean of the others'
    if n > 1:
        score = part["score"].astype(float, order="C")
        np.subtract(score.sum(axis=0), score, out=margin)
        margin /= 1 - n
        margin += score
    else:
        margin[:] = np.nan
    if bots:
        pieces = data.column("bot").chunks
        if any(not pa.types.is_dictionary(p.type) or p.dictionary.to_pylist() != labels for p in pieces):
            return False
        codes = np.concatenate([p.indices.to_numpy() for p in pieces]).reshape(-1, n).T
        for k in range(len(labels)):
            held = codes == k
            with np.errstate(invalid="ignore", divide="ignore"):
                block[2 * n + k, lo:hi] = (win * held).sum(axis=0) / held.sum(axis=0)
    return True


def load_experiment(path: str | Path) -> Experiment:
    """An experiment read back from its directory: manifest, quantities and effects recomputed from the runs."""
    path = Path(path)
    file = path / "experiment.json"
    if not file.is_file():
        raise RunFormatError(f"{path}: no experiment.json (not an experiment directory)")
    manifest = json.loads(file.read_text(encoding="utf-8"))
    if manifest.get("format") != EXPERIMENT_FORMAT or manifest.get("status") != "complete":
        raise RunFormatError(f"{path}: not a complete experiment")
    num_games = manifest["design"]["num_games"]
    runs = run_dirs(path, manifest)
    paired = PairedRounds("baseline")
    for r in range(min(len(dirs) for dirs in runs.values())):
        add_round(paired, {}, None, list(runs), [dirs[r] for dirs in runs.values()], r * num_games)
    effects = paired.effects(manifest["design"]["alpha"])
    return Experiment(path, manifest, RunQuantities(runs, num_games), effects)


def run_dirs(path: Path, manifest: dict[str, Any]) -> dict[str, list[Path]]:
    """Run directories of each variant, by variant name, from an experiment's directory and manifest."""
    return {rec["name"]: [path / d for d in rec["runs"]] for rec in manifest["variants"]}


def _first_runs(exp: Experiment) -> list[tuple[str, dict[str, Any]]]:
    return [(name, read_manifest(dirs[0])) for name, dirs in run_dirs(exp.path, exp.manifest).items() if dirs]


def learned_fit_caution(exp: Experiment) -> str:
    """Whether the variants were played by an apprentice fitted on other data than theirs
    (:func:`simulate.apprentice_fit.fit_caution` over each variant's first run, named by variant; '' when none)."""
    named = _first_runs(exp)
    names = {m.get("run_id"): name for name, m in named}
    return fit_caution([m for _, m in named], lambda m: names.get(m.get("run_id"), "?"), noun="variant")


def skill_head(ladder: Sequence[str], names: Mapping[str, str], bots: Sequence[str]) -> str:
    """ "Measured at the skill of" ``bots`` named for people (by ``names``; their specs are in the appendix), each
    with its rung on the game's skill ``ladder``, and those of a lineup that are off the ladder said to be."""
    bots, ladder = list(dict.fromkeys(bots)), list(ladder)
    on = [b for b in bots if b in ladder]
    off = [names.get(b, b) for b in bots if b not in ladder]
    where = " of the game's skill ladder"
    parts = []
    for b in on:
        parts.append(f"{names.get(b, b)} (rung {ladder.index(b) + 1} of {len(ladder)}{where})")
        where = ""
    if not parts:
        return f"Measured at the skill of {and_list(off)}"
    if off:
        return f"Measured at the skill of {and_list(parts)}, with {and_list(off)} (not on the ladder)"
    return f"Measured at the skill of {and_list(parts)}"


def measured_skill(exp: Experiment) -> str:
    """The skill level an experiment's answer was measured at: its bots, their place on the game's skill ladder (the
    runs' ``report.skill_ladder``), and whether the apprentice playing a variant was fitted on it (when it was for
    every variant, a second sentence says by what: the weights' command, or a refit by ``--refit-apprentice``)."""
    named = _first_runs(exp)
    if not named:
        return ""
    first = RunManifest.from_json(named[0][1])
    ladder, names = list(first.report.get("skill_ladder", [])), dict(first.report.get("bot_names", {}))
    head = skill_head(ladder, names, [str(label) for label in first.labels])
    records = {name: r for name, run in named if (r := manifest_fit(run)) is not None}
    unfit = [name for name, r in records.items() if not r["covers"]]
    if unfit:
        return (
            f"{head}; the apprentice playing {', '.join(unfit)} was fitted on other data, so "
            + (
                "that answer " + SEARCH_SKILL
                if len(unfit) == 1
                else "those answers " + SEARCH_SKILL.replace("holds", "hold")
            )
            + "."
        )
    answer = f"{head}: the answers hold at that skill level; stronger players may see others."
    if records:
        refits = {v.get("name"): v.get("apprentice_refit") or {} for v in exp.manifest.get("variants", [])}
        answer += " The apprentice playing " + _fitted_on(records, refits) + "."
    return answer


def _fitted_on(records: Mapping[str, Mapping[str, Any]], refits: Mapping[str, Mapping[str, Any]]) -> str:
    """Which apprentice played the variants whose data its fit covers: refitted on it (``refits``: a variant's
    ``apprentice_refit``), or by the command of the weights its data folder holds."""
    parts = []
    for name, record in records.items():
        refit = refits.get(name) or {}
        if refit.get("how") in ("fitted", "reused"):
            parts.append(f"{name} was refitted on its data (--refit-apprentice, cache key {refit['key'][:12]})")
        else:
            parts.append(f"{name} was fitted on its data ({record['command'] or 'no command recorded'})")
    return "; ".join(parts)


def add_round(
    paired: PairedRounds,
    own: dict[str, Moments],
    test: SequentialTest | None,
    names: list[str],
    dirs: list[Path],
    offset: int,
) -> pd.DataFrame:
    """Read one round's runs (the baseline first) one variant at a time into the paired moments, and into each
    variant's own moments of the test quantity; returns the baseline's table."""
    base = read_quantities(dirs[0], offset)
    for name, run_dir in zip(names, dirs, strict=True):
        q = base if name == names[0] else read_quantities(run_dir, offset)
        if name != names[0]:
            paired.add_pair(name, base, q)
        if test is not None:
            m = Moments.of(q[[test.quantity]].to_numpy(dtype=float))
            own[name] = own[name].combine(m) if name in own else m
    return base


def variant_run_dirs(exp: Experiment) -> dict[str, list[Path]]:
    """Run directories of each variant, by variant name."""
    return run_dirs(exp.path, exp.manifest)
