"""Regenerate every committed sample report under reports/, and the notebooks' outputs, from a clean tree of a commit.

    python reports/regenerate.py                      # all of them, at the scale below (the lead's step)
    python reports/regenerate.py --list               # the commands, without running them
    python reports/regenerate.py century --games 2000 --into runs/check   # one, small, elsewhere
    python reports/regenerate.py notebooks/century    # one notebook, executed in place with its outputs

It refuses a tree with uncommitted changes outside reports/ and the notebooks (tracked or not), so each
report's "Generated ... (git <commit>)" line and each notebook's ``metadata.golem.commit`` name the commit
that made it, and refuses to run a ``golem`` that is not this checkout's (install it with ``pip install -e .``).
Each report's folder is replaced; its runs go to ``runs/regenerate/<name>`` (deleted first, so nothing is reused
from other code). The scale is committed here: change a report's size in :data:`REPORTS`, commit, then
regenerate. A notebook (``notebooks/NAME``) runs top to bottom at the size its cells say (``--games`` is for the
reports) and is written back with its outputs and its prose rendered from them (``reports/notebook_text.py``);
with ``--into`` it goes to ``INTO/notebooks/``.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = {f"notebooks/{p.stem}": p for p in sorted((ROOT / "notebooks").glob("*.ipynb"))}
"""Notebook name -> path: every notebook is regenerated with its outputs."""

# name -> (golem arguments with {report} and {runs} for its folders, its game count option, games): small enough
# that all eight take about 20 minutes on a 2-core machine, large enough that each search rung of the skill ladder
# plays about 300 games (a study's mirror run of 600,000 games: ~90,000 games)
REPORTS: dict[str, tuple[list[str], str, int]] = {
    "century": (
        ["study", "century", "--seed", "0", "--runs-dir", "{runs}", "--out", "{report}", "--overwrite"],
        "--games",
        600_000,
    ),
    "golem-poker": (
        ["study", "golem-poker", "--seed", "0", "--runs-dir", "{runs}", "--out", "{report}", "--overwrite"],
        "--games",
        200_000,
    ),
    "golems": (
        ["study", "golems", "--seed", "0", "--runs-dir", "{runs}", "--out", "{report}", "--overwrite"],
        "--games",
        600_000,
    ),
    "golem": (  # at its default size: the sample shows the precision a default study reaches
        ["study", "golem", "--seed", "0", "--runs-dir", "{runs}", "--out", "{report}", "--overwrite"],
        "--games",
        200_000,
    ),
    "experiments/century-sweep": (
        ["sweep", "century", "--set", "points.P36.vp=18,20,22", "--set", "start.seat1=YYY,YYYY", "--players", "3"]
        + ["--bots", "greedy", "--precision", "0.5", "--max-games", "100000"]
        + ["--out", "{runs}", "--report", "{report}", "--overwrite"],
        "--games",
        20_000,
    ),
    "experiments/golem-poker-sweep": (
        ["sweep", "golem-poker", "--set", "max_discards=1,2,3", "--set", "rank_one=low,high", "--players", "4"]
        + ["--bots", "threshold,tight_aggressive,loose_passive,bluffer", "--test", "tight_aggressive > 1/n"]
        + ["--max-games", "200000", "--out", "{runs}", "--report", "{report}", "--overwrite"],
        "--games",
        20_000,
    ),
    "experiments/century-balance": (
        ["balance", "century", "--players", "3", "--bots", "apprentice", "--vary"]
        + ["start.seat[1-3]=YY,YYY,YYYY,YYYYY,YYYG", "--budget", "40", "--confirm-games", "20000", "--ladder"]
        + ["--out", "{runs}", "--report", "{report}", "--overwrite"],
        "--games",
        6_000,
    ),
    "experiments/century-tune": (
        ["tune", "century", "--players", "3", "--bot", "greedy", "--range", "lookahead=0:6"]
        + ["--confirm-games", "40000", "--out", "{runs}", "--report", "{report}", "--overwrite"],
        "--games",
        6_000,
    ),
}


class Refused(Exception):
    """The tree or the installed package does not allow a regeneration; the message says why."""


def _git(*args: str) -> str:
    """git's output without its last newline (not stripped: a status line starts with a space)."""
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.rstrip("\n")


def check_tree() -> str:
    """The commit to regenerate from; :class:`Refused` if the tree has changes outside reports/ or golem is not it."""
    changed = [
        line
        for line in _git("status", "--porcelain", "--untracked-files=all").splitlines()
        if not (line[3:].startswith("reports/") or (line[3:].startswith("notebooks/") and line.endswith(".ipynb")))
    ]
    if changed:
        raise Refused(
            f"uncommitted changes ({len(changed)}, e.g. {changed[0].strip()}): commit or stash them; "
            "the reports must come from a commit"
        )
    where = subprocess.run(
        [sys.executable, "-c", "import simulate; print(simulate.__file__)"], capture_output=True, text=True, cwd="/"
    ).stdout.strip()
    if not where or Path(where).resolve().parent.parent != ROOT:
        raise Refused(f"this python's simulate is {where or 'not installed'}, not {ROOT}: run 'pip install -e .' here")
    return _git("rev-parse", "HEAD")


def command(name: str, games: int | None, into: Path) -> list[str]:
    """The ``golem`` arguments regenerating report ``name`` into ``into / name`` (``games`` overrides the size)."""
    args, option, size = REPORTS[name]
    folders = {"report": _from_root(into / name), "runs": _from_root(ROOT / "runs" / "regenerate" / name)}
    return [a.format(**folders) if a in ("{report}", "{runs}") else a for a in args] + [option, str(games or size)]


def _from_root(path: Path) -> str:
    """``path`` relative to the checkout when inside it (the commands run there), so reports name no machine path."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def regenerate(names: list[str], games: int | None, into: Path, keep_runs: bool = False) -> None:
    """Replace each named report or notebook with a fresh one, printing each command and its wall time; with
    ``keep_runs`` a study reads the runs already in its runs folder as evidence and plays only what they lack (the
    runs of another engine version or other data never join: analysis.evidence)."""
    commit = check_tree()
    print(f"regenerating {len(names)} report(s) and notebook(s) from commit {commit[:12]}", flush=True)
    for k, name in enumerate(names, 1):
        if name in NOTEBOOKS:
            import notebook_text  # beside this script; loads nbclient, needed only to run notebooks

            out = NOTEBOOKS[name] if into == ROOT / "reports" else into / "notebooks" / NOTEBOOKS[name].name
            out.parent.mkdir(parents=True, exist_ok=True)
            print(f"[{k}/{len(names)}] execute {_from_root(NOTEBOOKS[name])} -> {_from_root(out)}", flush=True)
            started = time.perf_counter()
            notebook = notebook_text.execute(NOTEBOOKS[name], commit, out)
            for problem in notebook_text.problems(notebook):
                print(f"[{k}/{len(names)}] {name}: {problem}", flush=True)
            print(f"[{k}/{len(names)}] {name} in {time.perf_counter() - started:.0f} s", flush=True)
            continue
        args = command(name, games, into)
        for folder in (into / name,) if keep_runs else (into / name, ROOT / "runs" / "regenerate" / name):
            shutil.rmtree(folder, ignore_errors=True)
        print(f"[{k}/{len(names)}] golem {shlex.join(args)}", flush=True)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "simulate", *args], cwd=ROOT, check=True)
        print(f"[{k}/{len(names)}] {name} in {time.perf_counter() - started:.0f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help=f"reports and notebooks to regenerate [default: all: {[*REPORTS, *NOTEBOOKS]}]",
    )
    parser.add_argument("--list", action="store_true", help="print the commands and stop")
    parser.add_argument("--games", type=int, default=None, help="games instead of each report's committed size")
    parser.add_argument("--into", type=Path, default=ROOT / "reports", help="folder of the reports [default: reports/]")
    parser.add_argument(
        "--keep-runs",
        action="store_true",
        help="keep runs/regenerate/NAME: the study reads its compatible runs as evidence and plays only what they lack",
    )
    a = parser.parse_args(argv)
    unknown = [n for n in a.names if n not in REPORTS and n not in NOTEBOOKS]
    if unknown:
        parser.error(f"unknown report {unknown[0]!r}; choose from: {', '.join([*REPORTS, *NOTEBOOKS])}")
    if a.games is not None and a.games < 1:
        parser.error(f"--games must be at least 1, not {a.games}")
    names = a.names or [*REPORTS, *NOTEBOOKS]
    if a.list:
        for name in names:
            if name in NOTEBOOKS:
                print(f"execute {_from_root(NOTEBOOKS[name])}")
            else:
                print("golem " + shlex.join(command(name, a.games, a.into)))
        return 0
    try:
        regenerate(names, a.games, a.into.resolve(), a.keep_runs)
    except Refused as e:
        print(f"regenerate: {e}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as e:
        print(
            f"regenerate: golem stopped with exit code {e.returncode}; the reports after it were not made",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
