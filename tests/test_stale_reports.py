"""The committed sample reports are not stale: each was computed by today's engines on today's shipped data.

Every report writes ``report.json`` (what it was computed from: each run's engine version and the SHA-256 of its
data files). A change to an engine (its version) or to a shipped data file (rules, cards, an apprentice's weights)
that is not followed by ``python reports/regenerate.py`` fails here, naming the report and the file.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from simulate.datafiles import SEEDS_DIR
from simulate.registry import make

ROOT = Path(__file__).resolve().parent.parent
REPORTS = sorted(p.parent for p in (ROOT / "reports").rglob("report.md"))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("folder", REPORTS, ids=lambda p: p.relative_to(ROOT / "reports").as_posix())
def test_a_committed_report_was_made_by_todays_engine_and_data(folder: Path) -> None:
    name = folder.relative_to(ROOT).as_posix()
    record_file = folder / "report.json"
    assert record_file.is_file(), f"{name}: no report.json; regenerate it with reports/regenerate.py"
    record = json.loads(record_file.read_text(encoding="utf-8"))
    game = make(record["game"])
    shipped = SEEDS_DIR / game.info.name
    for run in record["runs"]:
        assert run["engine_version"] == game.info.version, (
            f"{name}: run {run['run']} played engine version {run['engine_version']}, "
            f"the code is at {game.info.version}: regenerate it with reports/regenerate.py"
        )
        if not run["shipped_data"]:
            continue  # an experiment's variant or an edited deck: its own data, recorded in the run
        for file, digest in run["data_files"].items():
            assert (shipped / file).is_file() and _sha256(shipped / file) == digest, (
                f"{name}: run {run['run']} played another seeds/{game.info.name}/{file} than today's: "
                "regenerate it with reports/regenerate.py"
            )


def test_every_report_records_what_it_was_computed_from() -> None:
    assert REPORTS, "the committed sample reports"
    assert {p.name for p in REPORTS} >= {"century", "golem", "golems", "golem-poker"}
