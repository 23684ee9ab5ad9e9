"""Kill-and-resume fault campaign: every game's runs killed at random moments must resume to identical files.

For each game, one small run is played without interruption (the reference; played twice, the
first warming the kernels' cache, the second timed). Then, ``--trials`` times, the same command is
started with two local workers and killed with SIGKILL after a random delay drawn between 0 and
the reference's wall time (so some kills land before the first manifest, some mid-run, some at the
end); its pool workers must be gone within ``--orphan-wait`` seconds; the same command with
``--resume`` (without it when the kill came before any file was written) must succeed, leave no
temporary file or lock, pass ``golem verify`` and hold byte-identical parts and the same chunk
records as the reference. Prints one line per trial and ``GAME: N of N identical`` per game; exits
1 if any trial differs.

    python benchmarks/fault_campaign.py                 # 4 trials of each game, a few minutes
    python benchmarks/fault_campaign.py --game century --trials 10 --seed 3

The other categories (``--category``, repeatable; default all) play in this process through the
``golem`` command line (click's test runner) and print ``CATEGORY: N of N as expected``:

* ``bad input``: every command with each of its bad options (workers, rules, bots, data folder,
  sizes, seeds, paths), given a finished output of its kind (with ``--overwrite``) and a fresh one;
  each must stop with one ``Error:`` line and no traceback, leave the finished output's file names
  and bytes as they were and create no fresh one;
* ``damaged runs``: a run's parts and manifest truncated, flipped, swapped, deleted, stray or edited;
* ``edited inputs``: a run's data copy and the rules, bots, engine version and run id in its manifest
  edited;
  ``verify``, ``report`` and ``replay`` must refuse each damaged or edited run in one line (``replay``
  may instead play a game whose inputs are intact), the report leaving nothing, and ``load_run`` must
  refuse it;
* ``damaged data folders``: a ``--cards`` copy of the game's data with a file missing, emptied,
  truncated, not UTF-8, or with a bad value, column or row: ``simulate`` must name the file in one
  line and create nothing.

``--limit N`` tries only N cases of each of these categories (spread over the commands): the test suite
runs such a slice (``tests/test_faults.py``).

    python benchmarks/fault_campaign.py --category "bad input" --category "edited inputs"
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
RUNS = {
    "century": ["-p", "3", "--bots", "greedy,engine,planner", "-n", "3000", "--chunk-size", "150"],
    "golems": ["-p", "2", "--bots", "greedy,collector", "-n", "40000", "--chunk-size", "2000"],
    "golem-poker": ["-p", "4", "--bots", "threshold", "-n", "20000", "--chunk-size", "1000"],
    "golem": ["-p", "2", "--bots", "greedy", "-n", "1500", "--chunk-size", "75"],
}
"""Each game's run: about 20 chunks, a few seconds of play on two workers."""


def command(game: str, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "simulate", "simulate", game, *RUNS[game], "--workers", "2", "--seed", "11",
            "--out", str(out), "-q", *extra]  # fmt: skip


def parts(run_dir: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run_dir)): p.read_bytes() for p in sorted(run_dir.rglob("*.parquet"))}


def chunks(run_dir: Path) -> dict:
    return json.loads((run_dir / "manifest.json").read_text())["chunks"]


def trial(game: str, reference: Path, out: Path, delay: float, orphan_wait: float) -> tuple[bool, str]:
    """Start, kill after ``delay`` s, resume; whether the result is identical, and what happened."""
    proc = subprocess.Popen(command(game, out), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parent = psutil.Process(proc.pid)
    workers: list[psutil.Process] = []
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            workers = parent.children(recursive=True) or workers
        except psutil.Error:
            break
        time.sleep(0.02)
    killed = proc.poll() is None
    recorded = len(chunks(out)) if (out / "manifest.json").is_file() else None
    if killed:
        proc.send_signal(signal.SIGKILL)
    proc.wait()
    _, alive = psutil.wait_procs(workers, timeout=orphan_wait)
    for p in alive:
        p.kill()
    where = "after the run ended" if not killed else (
        "before the first manifest" if recorded is None else f"with {recorded} chunks recorded")  # fmt: skip
    if alive:
        return False, f"killed {where}: {len(alive)} worker(s) outlived the run"
    again = "--resume" if (out / "data").is_dir() else "--quiet"  # a kill before any file: the plain command
    resumed = subprocess.run(command(game, out, again), cwd=ROOT, capture_output=True, text=True)
    if resumed.returncode != 0:
        return False, f"killed {where}: resume failed: {resumed.stderr.strip()}"
    verified = subprocess.run([sys.executable, "-m", "simulate", "verify", str(out)], cwd=ROOT, capture_output=True,
                              text=True)  # fmt: skip
    leftovers = [str(p.relative_to(out)) for p in out.rglob(".*") if p.is_file()]
    if verified.returncode != 0 or leftovers:
        return False, f"killed {where}: verify: {verified.stderr.strip()} leftovers: {leftovers}"
    same = parts(out) == parts(reference) and chunks(out) == chunks(reference)
    return same, f"killed {where}: resumed, {'identical' if same else 'DIFFERENT'}"


def kill_campaign(args: argparse.Namespace) -> int:
    """The kill-and-resume trials; returns the number that failed."""
    rng = random.Random(args.seed)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="golem-faults-") as tmp:
        for game in args.game or list(RUNS):
            reference = Path(tmp) / game / "reference"
            subprocess.run(command(game, reference), cwd=ROOT, check=True)  # also loads the kernels' cache once
            started = time.monotonic()
            subprocess.run(command(game, reference, "--overwrite"), cwd=ROOT, check=True)
            wall = time.monotonic() - started
            print(f"{game}: reference run {wall:.1f} s wall (the second of two)", flush=True)
            good = 0
            for k in range(args.trials):
                out = Path(tmp) / game / f"trial-{k}"
                delay = rng.uniform(0.0, wall)
                ok, what = trial(game, reference, out, delay, args.orphan_wait)
                good += ok
                print(f"  trial {k + 1} (kill at {delay:.2f} s): {what}", flush=True)
                shutil.rmtree(out, ignore_errors=True)
            print(f"{game}: {good} of {args.trials} identical", flush=True)
            failures += args.trials - good
    trials = len(args.game or RUNS) * args.trials
    print(f"kill: {trials - failures} of {trials} as expected", flush=True)
    return failures


# The categories played in this process, through the command line --------------------------------------------

OUT, RUN, FILE, NOWHERE, CARDS = "OUT", "RUN", "FILE", "NOWHERE", "CARDS"
"""Placeholders in a case's arguments: its output folder, a finished run, a file, a path that does not exist,
a damaged copy of the game's data."""

WRITERS = {
    "simulate": ["simulate", "century", "-p", "2", "-n", "200", "-q", "--out", OUT],
    "sweep": ["sweep", "century", "-p", "2", "-n", "200", "--set", "copper_vp=1,2", "-q", "--out", OUT],
    "ablate": ["ablate", "century", "-p", "2", "-n", "200", "--remove", "M09", "-q", "--out", OUT],
    "balance": ["balance", "century", "-p", "2", "-n", "200", "--vary", "copper_vp=2:3", "--budget", "2",
                "--confirm-games", "200", "-q", "--out", OUT],
    "tune": ["tune", "century", "-p", "2", "--bot", "greedy", "--param", "epsilon", "-n", "200", "--budget", "2",
             "--confirm-games", "200", "-q", "--out", OUT],
    "study": ["study", "century", "-n", "100", "-q", "--runs-dir", OUT],
    "report": ["report", RUN, "--out", OUT],
    "train": ["train", "century", "-n", "10", "--iterations", "1", "--strength-games", "0", "-q", "--out", OUT],
}  # fmt: skip
"""Every command that writes, with small sizes (a finished output of each but ``train`` is made with these and
``-w 1``; ``train`` is tried on fresh outputs only, its search games being slow)."""

_COMMON = {
    "-w 0": ["-w", "0"],
    "-w 10000": ["-w", "10000"],
    "unknown rule": ["--rule", "speed=fast"],
    "bad rule value": ["--rule", "tie_break=coin"],
    "rule twice": ["--rule", "tie_break=shared", "--rule", "tie_break=later_seat"],
    "missing data folder": ["--cards", NOWHERE],
    "data folder a file": ["--cards", FILE],
    "damaged data folder": ["--cards", CARDS],
}
_PLAYERS = {"-p 0": ["-p", "0"], "-p 9": ["-p", "9"], "-n 0": ["-n", "0"], "--seed -1": ["--seed", "-1"]}
_BOTS = {
    "unknown bot": ["--bots", "nosuchbot"],
    "bot parameter out of range": ["--bots", "greedy:epsilon=2"],
    "bot parameter nan": ["--bots", "greedy:epsilon=nan"],
    "empty bot": ["--bots", "greedy,,greedy"],
    "three bots for two seats": ["--bots", "greedy,engine,planner"],
}
BAD_INPUT = {
    "simulate": {**_COMMON, **_PLAYERS, **_BOTS, "--bots with --bot": ["--bots", "greedy", "--bot", "engine"],
                 "--chunk-size 0": ["--chunk-size", "0"], "--setups 0": ["--setups", "0"],
                 "--games-per-setup without --setups": ["--games-per-setup", "2"],
                 "--resume with --overwrite": ["--resume", "--overwrite"], "bad cluster": ["--cluster", "bogus"]},
    "sweep": {**_COMMON, **_PLAYERS, **_BOTS, "unknown value": ["--set", "nosuch=1,2"],
              "zero step": ["--set", "copper_vp=1:5:0"], "--precision nan": ["--precision", "nan"],
              "--precision 0": ["--precision", "0"], "bad test": ["--test", "seat9 > 2"]},
    "ablate": {**_COMMON, **_PLAYERS, **_BOTS, "unknown component": ["--remove", "NOPE"],
               "replaced by itself": ["--replace", "M09=M09"], "replaced by unknown": ["--replace", "M09=NOPE"]},
    "balance": {**_COMMON, **_PLAYERS, **_BOTS, "unknown value": ["--vary", "nosuch"],
                "bad target": ["--target", "nonsense"], "--budget 1": ["--budget", "1"]},
    "tune": {**_COMMON, **_PLAYERS, "unknown field bot": ["--field", "nosuchbot"],
             "unknown parameter": ["--param", "nosuch"], "range beyond limits": ["--range", "epsilon=0:2"],
             "--budget 1": ["--budget", "1"]},
    "study": {**_COMMON, "-n 0": ["-n", "0"], "--seed -1": ["--seed", "-1"], "report into a run": ["--out", RUN]},
    "report": {"missing run": ["--overwrite", NOWHERE], "a file as run": ["--overwrite", FILE],
               "report into the run": ["--out", RUN]},
    "train": {"-w 0": ["-w", "0"], "-w 10000": ["-w", "10000"], "unknown rule": ["--rule", "speed=fast"],
              "bad rule value": ["--rule", "tie_break=coin"],
              "rule twice": ["--rule", "tie_break=shared", "--rule", "tie_break=later_seat"],
              "missing data folder": ["--data", NOWHERE], "damaged data folder": ["--data", CARDS],
              "-n 0": ["-n", "0"], "--seed -1": ["--seed", "-1"], "--iterations 0": ["--iterations", "0"],
              "--resume with --overwrite": ["--resume", "--overwrite"]},
}  # fmt: skip
"""Bad options of each writing command, added to its arguments (``--overwrite`` too, given a finished output)."""

READERS = {
    "replay": [["replay", RUN, "--game", "-1"], ["replay", RUN, "--game", "200"], ["replay", FILE, "--game", "0"],
               ["replay", NOWHERE, "--game", "0"]],
    "verify": [["verify", FILE], ["verify", NOWHERE], ["verify", "nosuchprotocol://bucket/run"]],
    "bench": [["bench", "nosuch"], ["bench", "century", "--games", "0"], ["bench", "century", "--run-games", "5"]],
    "values": [["values", "nosuch"]],
    "bots": [["bots", "nosuch"]],
}  # fmt: skip
"""Commands that only read, with bad input: each must leave the finished run as it was."""


def _edit_manifest(edit):
    def damage(run: Path) -> None:
        m = json.loads((run / "manifest.json").read_text())
        edit(m)
        (run / "manifest.json").write_text(json.dumps(m))

    return damage


def _rewrite(rel: str, edit):
    def damage(run: Path) -> None:
        (run / rel).write_bytes(edit((run / rel).read_bytes()))

    return damage


def _flip(data: bytes) -> bytes:
    return data[: len(data) // 2] + bytes([data[len(data) // 2] ^ 0xFF]) + data[len(data) // 2 + 1 :]


def _swap(run: Path) -> None:
    a, b = run / "seats" / "part-00000.parquet", run / "seats" / "part-00001.parquet"
    data = a.read_bytes()
    a.write_bytes(b.read_bytes())
    b.write_bytes(data)


def _override(m: dict) -> None:
    m["rules"]["tie_break"] = m["rule_overrides"]["tie_break"] = "shared"


DAMAGED_RUNS = {
    "truncated part": _rewrite("seats/part-00001.parquet", lambda b: b[:-100]),
    "flipped byte": _rewrite("games/part-00000.parquet", _flip),
    "swapped parts": _swap,
    "deleted part": lambda run: (run / "components" / "part-00001.parquet").unlink(),
    "stray part": lambda run: shutil.copy(run / "games" / "part-00000.parquet", run / "games" / "part-00999.parquet"),
    "manifest not JSON": _rewrite("manifest.json", lambda b: b[: len(b) // 2]),
    "manifest deleted": lambda run: (run / "manifest.json").unlink(),
    "edited rows": _edit_manifest(lambda m: m["chunks"]["1"]["files"]["games"].update(rows=7)),
    "edited checksum": _edit_manifest(lambda m: m["chunks"]["0"]["files"]["seats"].update(sha256="0" * 64)),
    "edited num_games": _edit_manifest(lambda m: m.update(num_games=300)),
    "chunks a list": _edit_manifest(lambda m: m.update(chunks=list(m["chunks"].values()))),
    "no design": _edit_manifest(lambda m: m.pop("design")),
    "edited tally": _edit_manifest(lambda m: m["chunks"]["1"]["tally"].update(games=1)),
    "edited bot label": _edit_manifest(lambda m: m["lineup"][0].update(label="planner")),
    "edited master seed": _edit_manifest(lambda m: m.update(master_seed=1)),
    "edited rotation": _edit_manifest(lambda m: m["design"].update(rotate_seats=False)),
    "status running": _edit_manifest(lambda m: m.update(status="running")),
}
"""Damage to a finished run's parts and manifest: verify, report and load_run must refuse it."""

EDITED_INPUTS = {
    "data file edited": _rewrite("data/point_cards.csv", lambda b: b.replace(b"P01,YYGG,6", b"P01,YYGG,9")),
    "data file deleted": lambda run: (run / "data" / "game.toml").unlink(),
    "data file added": lambda run: (run / "data" / "extra.csv").write_text("a\n"),
    "data file emptied": _rewrite("data/merchant_cards.csv", lambda b: b""),
    "recorded data hash": _edit_manifest(lambda m: m["data"]["files"].update({"game.toml": "0" * 64})),
    "data file unrecorded": _edit_manifest(lambda m: m["data"]["files"].pop("game.toml")),
    "rule": _edit_manifest(lambda m: m["rules"].update(tie_break="shared")),
    "rule and its override": _edit_manifest(_override),
    "bot parameter": _edit_manifest(lambda m: m["lineup"][0]["params"].update(epsilon=0.5)),
    "bot": _edit_manifest(lambda m: m["lineup"][1].update(bot="engine")),
    "engine version": _edit_manifest(lambda m: m.update(engine_version=m["engine_version"] + 1)),
    "run id": _edit_manifest(lambda m: m.update(run_id="century-2p-000000000000")),
    "table value": _edit_manifest(lambda m: m["table"].update(copper_vp=4)),
}
"""Edits to what a run's answer depends on: its data copy and the manifest's rules, bots and ids."""

READ_BY_GAME = {"table value"}
"""Edits only the commands that know the games catch (``load_run`` reads runs without them)."""


def _csv_edit(name: str, edit):
    def damage(cards: Path) -> None:
        path = cards / name
        path.write_text(edit(path.read_text()))

    return damage


DAMAGED_DATA = {
    "file missing": lambda cards: (cards / "point_cards.csv").unlink(),
    "file emptied": lambda cards: (cards / "merchant_cards.csv").write_text(""),
    "header only": _csv_edit("point_cards.csv", lambda t: t.splitlines()[0] + "\n"),
    "not UTF-8": lambda cards: (cards / "point_cards.csv").write_bytes(b"id,cost,vp\nP01,YYGG,6\xe9\n"),
    "bad number": _csv_edit("point_cards.csv", lambda t: t.replace("P01,YYGG,6", "P01,YYGG,x")),
    "negative number": _csv_edit("point_cards.csv", lambda t: t.replace("P01,YYGG,6", "P01,YYGG,-6")),
    "unknown column": _csv_edit("point_cards.csv", lambda t: t.replace("id,cost,vp", "id,cost,vp,extra", 1)),
    "missing column": _csv_edit("point_cards.csv", lambda t: t.replace("id,cost,vp", "id,cost,points", 1)),
    "short row": _csv_edit("point_cards.csv", lambda t: t.replace("P01,YYGG,6", "P01,YYGG")),
    "truncated toml": lambda cards: (cards / "game.toml").write_text((cards / "game.toml").read_text()[:40]),
    "unknown rule in toml": _csv_edit("game.toml", lambda t: t.replace("[rules]", "[rules]\nspeed = 1", 1)),
}  # fmt: skip
"""Damage to a --cards copy of Century's data: simulate must name the file in one line and create nothing."""


def invoke(args: list[str]):
    from click.testing import CliRunner

    from simulate.cli import main

    return CliRunner().invoke(main, args, catch_exceptions=True)


def one_line_error(result) -> str | None:
    """What is wrong with a refusal's output (None: a non-zero exit and one ``Error:`` line, usage aside)."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        return f"raised {type(result.exception).__name__}: {result.exception}"
    lines = [line for line in result.output.splitlines() if line and not line.startswith(("Usage:", "Try "))]
    if result.exit_code == 0:
        return "exit code 0"
    if len(lines) != 1 or not lines[0].startswith("Error:") or "Traceback" in result.output:
        return f"not one Error: line: {result.output.strip()[:300]!r}"
    return None


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes (empty if it does not exist)."""
    if not folder.is_dir():
        return {str(folder): folder.read_bytes()} if folder.is_file() else {}
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


class Fixtures:
    """Finished outputs and damaged copies under ``root``, each made on first use."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.made: dict[str, Path] = {}
        self.count = 0
        (root / "file.txt").write_text("not a run")

    def fresh(self, name: str = "new") -> Path:
        self.count += 1
        return self.root / "fresh" / f"{self.count:04d}-{name}"

    def finished(self, command: str) -> Path:
        if command in self.made:
            return self.made[command]
        out = self.root / "finished" / command
        if command == "study":
            shutil.copytree(self.finished("simulate"), out / "century-2p")
            (out / "notes.txt").write_text("mine")
        else:
            result = invoke(self.args(WRITERS[command], out) + ["-w", "1"] * (command != "report"))
            if result.exit_code != 0:
                raise RuntimeError(f"the finished {command} output failed: {result.output}")
        self.made[command] = out
        return out

    def cards(self, damage: str = "bad number") -> Path:
        from simulate.datafiles import default_dir

        cards = self.fresh("cards")
        shutil.copytree(default_dir("century"), cards)
        DAMAGED_DATA[damage](cards)
        return cards

    def args(self, args: list[str], out: Path) -> list[str]:
        subs = {OUT: out, FILE: self.root / "file.txt", NOWHERE: self.root / "nowhere"}
        done = []
        for a in args:
            if a == RUN:
                a = self.finished("simulate")
            elif a == CARDS:
                a = self.cards()
            done.append(str(subs.get(a, a)))
        return done


def _interleave(groups: dict[str, list]) -> list:
    """The cases of every group taken in turn (a slice of the first N spreads over the groups)."""
    lists = list(groups.values())
    return [case for row in itertools.zip_longest(*lists) for case in row if case is not None]


def bad_input_cases() -> list[tuple[str, Callable[[Fixtures], str | None]]]:
    groups: dict[str, list] = {}
    for command, bad in BAD_INPUT.items():
        for label, extra in bad.items():
            for existing in (True, False) if command != "train" else (False,):
                where = "finished" if existing else "fresh"
                groups.setdefault(command, []).append(
                    (f"{command} {label} ({where})", functools.partial(_bad_writer, command, extra, existing))
                )
    for command, cases in READERS.items():
        groups[command] = [(" ".join(a), functools.partial(_bad_reader, a)) for a in cases]
    return _interleave(groups)


def _bad_writer(command: str, extra: list[str], existing: bool, fx: Fixtures) -> str | None:
    out = fx.finished(command) if existing else fx.fresh(command)
    before = snapshot(out)
    overwrite = ["--overwrite"] if existing and command not in ("study", "report") else []
    problem = one_line_error(invoke(fx.args([*WRITERS[command], *extra, *overwrite], out)))
    if problem is None and snapshot(out) != before:
        problem = "the output folder changed" if existing else "an output was created"
    return problem


def _bad_reader(args: list[str], fx: Fixtures) -> str | None:
    run = fx.finished("simulate")
    before = snapshot(run)
    problem = one_line_error(invoke(fx.args(args, fx.fresh())))
    return problem or (None if snapshot(run) == before else "the run changed")


def run_damage_cases(damages: dict[str, Callable[[Path], None]]) -> list:
    return [(name, functools.partial(_damaged_run, name, damage)) for name, damage in damages.items()]


def _damaged_run(name: str, damage: Callable[[Path], None], fx: Fixtures) -> str | None:
    from analysis.run import load_run
    from simulate.runformat import RunFormatError

    run = fx.fresh("run")
    shutil.copytree(fx.finished("simulate"), run)
    damage(run)
    report = fx.fresh("report")
    for args in (["verify", str(run)], ["report", str(run), "--out", str(report)]):
        problem = one_line_error(invoke(args))
        if problem:
            return f"{args[0]}: {problem}"
    if report.exists():
        return "report: left a folder"
    replayed = invoke(["replay", str(run), "--game", "5"])
    if name in EDITED_INPUTS or replayed.exit_code != 0:
        problem = one_line_error(replayed)
        if problem:
            return f"replay: {problem}"
    if name not in READ_BY_GAME:
        try:
            load_run(run)
        except RunFormatError:
            pass
        else:
            return "load_run read it"
    return None


def damaged_data_cases() -> list:
    return [(name, functools.partial(_damaged_data, name)) for name in DAMAGED_DATA]


def _damaged_data(name: str, fx: Fixtures) -> str | None:
    cards = fx.cards(name)
    out = fx.fresh("run")
    args = ["simulate", "century", "-p", "2", "-n", "20", "-w", "1", "-q", "--cards", str(cards), "--out", str(out)]
    result = invoke(args)
    problem = one_line_error(result)
    if problem is None and not any(n in result.output for n in ("point_cards.csv", "merchant_cards.csv", "game.toml")):
        problem = f"names no file: {result.output.strip()}"
    return problem or ("an output was created" if out.exists() else None)


CATEGORIES: dict[str, Callable[[], list]] = {
    "bad input": bad_input_cases,
    "damaged runs": lambda: run_damage_cases(DAMAGED_RUNS),
    "edited inputs": lambda: run_damage_cases(EDITED_INPUTS),
    "damaged data folders": damaged_data_cases,
}
"""The categories played in this process: each a list of (case, check(fixtures) -> problem or None)."""


def run_categories(
    names: list[str], root: Path, limit: int | None = None, log: Callable[[str], None] = print
) -> dict[str, tuple[int, int]]:
    """Play the cases of the categories ``names`` (at most ``limit`` of each) in ``root``; returns, per
    category, (cases as expected, cases), after printing a line for each case that is not."""
    import matplotlib

    matplotlib.use("Agg")
    fx = Fixtures(root)
    counts = {}
    for name in names:
        cases = CATEGORIES[name]()[:limit]
        good = 0
        for label, check in cases:
            problem = check(fx)
            good += problem is None
            if problem is not None:
                log(f"  {name}: {label}: {problem}")
        counts[name] = (good, len(cases))
        log(f"{name}: {good} of {len(cases)} as expected")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--category", choices=["kill", *CATEGORIES], action="append",
                        help="Categories to try [default: all].")  # fmt: skip
    parser.add_argument("--limit", type=int, default=None, help="Cases of each in-process category at most.")
    parser.add_argument("--game", choices=list(RUNS), action="append", help="Game(s) to try [default: all four].")
    parser.add_argument("--trials", type=int, default=4, help="Kill-and-resume trials per game.")
    parser.add_argument("--seed", type=int, default=0, help="Seed of the kill delays.")
    parser.add_argument("--orphan-wait", type=float, default=10.0, help="Seconds workers may outlive a kill.")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))  # the in-process categories try this checkout, as the kill trials do
    categories = args.category or ["kill", *CATEGORIES]
    failures = kill_campaign(args) if "kill" in categories else 0
    with tempfile.TemporaryDirectory(prefix="golem-faults-") as tmp:
        counts = run_categories([c for c in categories if c != "kill"], Path(tmp), args.limit)
    failures += sum(total - good for good, total in counts.values())
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
