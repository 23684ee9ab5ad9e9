"""Time ``build_report`` on a large run and print one JSON line: seconds and peak memory.

Create the run first (about a minute on two cores), then time the report:

    golem simulate century -p 3 -n 1000000 --bots greedy --seed 1 --out runs/c3-1m -q
    python benchmarks/report_speed.py runs/c3-1m

Peak memory is the process's maximum resident set size, imports included; ``import_mib`` is the
part already taken before the report starts. The report is written to a temporary directory.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import sys
import tempfile
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")


def _peak_mib() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # bytes on macOS, KiB on Linux


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="*", default=["runs/c3-1m"], help="run directories (default runs/c3-1m)")
    parser.add_argument("--out", type=Path, default=None, help="report directory (default: a temporary one)")
    args = parser.parse_args(argv)

    from analysis.report import build_report
    from simulate import __version__
    from simulate.runformat import RunFormatError, read_manifest

    try:
        games = sum(int(read_manifest(r)["num_games"]) for r in args.runs)
    except RunFormatError as e:
        sys.exit(f"{e}\ncreate it with: golem simulate century -p 3 -n 1000000 --bots greedy --seed 1 --out runs/c3-1m")
    import_mib = _peak_mib()
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or Path(tmp) / "report"
        start = time.perf_counter()
        build_report(args.runs, out)
        seconds = time.perf_counter() - start
        size = sum(p.stat().st_size for p in Path(out).iterdir())
    line = {
        "benchmark": "report",
        "runs": args.runs,
        "games": games,
        "seconds": round(seconds, 2),
        "peak_mib": round(_peak_mib(), 1),
        "import_mib": round(import_mib, 1),
        "report_bytes": size,
        "version": __version__,
        "python": platform.python_version(),
    }
    print(json.dumps(line))
    return line


if __name__ == "__main__":
    main()
