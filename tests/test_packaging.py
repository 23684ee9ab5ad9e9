"""The installable package: every Python package of the source tree is listed, the game data ships with it."""

from __future__ import annotations

import tomllib
from pathlib import Path

from simulate.datafiles import PACKAGE_DATA, SEEDS_DIR, default_dir

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_of_the_source_tree_is_listed() -> None:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("simulate", "analysis")
        for p in (ROOT / top).rglob("__init__.py")
    }
    assert set(setuptools["packages"]) == found | {"simulate.seeds"}
    assert setuptools["package-dir"] == {"simulate.seeds": "seeds"}


def test_the_package_ships_the_kinds_of_data_file_the_conformance_check_allows() -> None:

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["package-data"]["simulate.seeds"] == [f"*/{pattern}" for pattern in PACKAGE_DATA]


def test_the_shipped_data_is_found_from_the_source_tree() -> None:

    assert SEEDS_DIR == ROOT / "seeds"
    assert (default_dir("century") / "game.toml").is_file()
