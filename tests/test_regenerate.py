"""reports/regenerate.py: the sample reports' commands, and its refusal of a tree with uncommitted changes."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "reports" / "regenerate.py"
spec = importlib.util.spec_from_file_location("regenerate", SCRIPT)
regenerate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regenerate)


def test_every_committed_report_has_a_command() -> None:
    committed = {p.parent.relative_to(ROOT / "reports").as_posix() for p in (ROOT / "reports").rglob("report.md")}
    assert committed == set(regenerate.REPORTS)


def test_a_command_writes_the_report_where_asked_at_the_size_asked() -> None:
    args = regenerate.command("experiments/century-sweep", 500, Path("/elsewhere"))
    assert args[:2] == ["sweep", "century"]
    assert args[args.index("--report") + 1] == "/elsewhere/experiments/century-sweep"
    assert args[-2:] == ["--games", "500"]
    assert regenerate.command("century", None, Path("/r"))[-2:] == ["--games", str(regenerate.REPORTS["century"][2])]


def _tree(tmp_path: Path) -> Path:
    """A git repository holding a copy of the script, committed."""
    (tmp_path / "reports").mkdir()
    shutil.copy(SCRIPT, tmp_path / "reports" / "regenerate.py")
    (tmp_path / "simulate").mkdir()
    (tmp_path / "simulate" / "rules.py").write_text("RULE = 1\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(tmp_path)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "tree"], check=True)
    return tmp_path


def _regenerate(tree: Path, *args: str) -> subprocess.CompletedProcess:
    script = tree / "reports" / "regenerate.py"
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, cwd=tree)


@pytest.mark.parametrize("change", ["edit", "new file"])
def test_a_tree_with_uncommitted_changes_is_refused(tmp_path: Path, change: str) -> None:
    tree = _tree(tmp_path)
    if change == "edit":
        (tree / "simulate" / "rules.py").write_text("RULE = 2\n")
    else:
        (tree / "simulate" / "new.py").write_text("")
    done = _regenerate(tree, "century")
    assert done.returncode == 1
    assert done.stderr.startswith("regenerate: uncommitted changes") and "simulate/" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("change", ["new report", "changed report"])
def test_a_clean_tree_whose_package_is_not_the_one_installed_is_refused(tmp_path: Path, change: str) -> None:
    tree = _tree(tmp_path)
    if change == "new report":
        (tree / "reports" / "century").mkdir()
        (tree / "reports" / "century" / "report.md").write_text(
            "an earlier report\n"
        )  # changes under reports/ are fine
    else:  # git status's line " M reports/..." starts with a space (a regenerated report, then another one)
        with (tree / "reports" / "regenerate.py").open("a") as script:
            script.write("# a changed file under reports/\n")
    done = _regenerate(tree, "century")
    assert done.returncode == 1 and "pip install -e" in done.stderr, done.stderr


def test_list_prints_the_commands_without_running_them(tmp_path: Path) -> None:
    done = _regenerate(_tree(tmp_path), "--list")
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == len(regenerate.REPORTS)
    assert all(line.startswith("golem ") for line in done.stdout.splitlines())
    bad = _regenerate(tmp_path, "nonsense")
    assert bad.returncode == 2 and "unknown report 'nonsense'" in bad.stderr


def test_every_notebook_is_regenerated_with_its_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    committed = {f"notebooks/{p.stem}" for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert committed and set(regenerate.NOTEBOOKS) == committed
    assert regenerate.main(["--list", "notebooks/century", "century"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "execute notebooks/century.ipynb"
