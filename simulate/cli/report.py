"""The ``golem report`` and ``golem study`` commands: thin click wrappers over ``analysis.report``
and ``simulate.orchestration.studies`` (registered on the ``golem`` group at the end of ``simulate.cli``)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import click

from simulate.cli.params import KeyValue, distinct_keys, refit_option, refitted_cards


def _one_line(e: Exception) -> click.ClickException:
    """A ClickException whose message is a single line (pyarrow messages can span several)."""
    return click.ClickException(" ".join(str(e).split()))


def _command(*words: object) -> str:
    """The command line as it would be typed, rebuilt from the parsed options (None is left out)."""
    return "golem " + " ".join(shlex.quote(str(w)) for w in words if w is not None)


def _option(name: str, value: object) -> tuple[object, ...]:
    return (name, value) if value is not None else ()


@click.command()
@click.argument("run_dirs", nargs=-1, required=True, metavar="RUN...")
@click.option("--out", "-o", type=click.Path(path_type=Path), required=True, help="Directory to write the report to.")
@click.option("--title", default=None, help="Report title [default: '<game>: balance report'].")
@click.option("--overwrite", is_flag=True, help="Replace a report already in --out.")
@click.option(
    "--evidence",
    type=click.Path(path_type=Path, exists=True, file_okay=False),
    default=None,
    help="Also read every finished run in this folder that is compatible with a given run (same game, engine "
    "version, rules, data, lineup, player count and design), each game counted once.",
)
def report(run_dirs: tuple[str, ...], out: Path, title: str | None, overwrite: bool, evidence: Path | None) -> None:
    """Write the balance report of one or several runs of one game (directories or fsspec URLs).

    Writes OUT/report.html (one self-contained page, plots embedded, opens offline) and
    OUT/report.md with its PNG plots. Several runs are combined, e.g. the 2- to 5-player runs
    of a game. Runs are verified first; a missing, incomplete or corrupt run is an error.

    \b
    Examples:
      golem report runs/c3 --out reports/century-3p
      golem report runs/c2 runs/c3 runs/c4 runs/c5 --out reports/century-all --title "Century, 2-5 players"
      golem report runs/c3 --out reports/century-3p --overwrite
      golem report runs/c3 --evidence runs --out reports/century-3p-all
    """
    import matplotlib

    matplotlib.use("Agg")
    from analysis.evidence import compatible_runs
    from simulate.orchestration.game_pages import publish_report
    from simulate.outputs import Output, check_outputs, hold
    from simulate.runformat import RunFormatError, read_manifest
    from simulate.runner import derived_facts, version_note
    from simulate.store import is_url

    try:
        check_outputs([Output("--out", out, "report")], overwrite=overwrite)
        notes = [version_note(read_manifest(run_dir), run_dir) for run_dir in run_dirs]
        command = _command(
            "report", *run_dirs, *_option("--evidence", evidence), "--out", out, *_option("--title", title)
        )
        runs = list(run_dirs)
        if evidence is not None:
            if any(is_url(r) for r in run_dirs):
                raise click.ClickException("--evidence pools local run directories only, not URLs")
            runs = compatible_runs(run_dirs, evidence)
            added = [str(r) for r in runs if str(r) not in run_dirs]
            click.echo(f"evidence: {len(added)} compatible runs from {evidence} join: {' '.join(added)}", err=True)
        with hold(out, command):
            path = publish_report(
                runs,
                out,
                title=title,
                command=command,
                derive=derived_facts,
                log=lambda line: click.echo(line, err=True),
            )
    except (RunFormatError, ValueError, OSError) as e:
        raise _one_line(e) from None
    for note in filter(None, notes):
        click.echo(note, err=True)
    click.echo(f"wrote {path} and {path.with_name('report.md')}")


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option(
    "--games",
    "-n",
    "num_games",
    type=int,
    default=None,
    help="Games in the whole study, shared among its runs [default: the study's size].",
)
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), default=None, help="Report directory [default: RUNS_DIR/report]."
)
@click.option(
    "--runs-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Directory for the study's runs [default: runs/study-GAME].",
)
@click.option("--workers", "-w", type=int, default=None, help="Worker processes [default: all cores].")
@click.option(
    "--seed",
    type=click.IntRange(0, 2**64 - 1),
    default=0,
    show_default=True,
    help="Master seed of the first run (run k: seed + k).",
)
@click.option(
    "--cards",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder with edited game data (a copy of seeds/GAME) played by every run of the study.",
)
@click.option(
    "--rule",
    "rules",
    type=KeyValue(),
    multiple=True,
    callback=distinct_keys,
    help="Set a rule option in every run (KEY=VALUE).",
)
@click.option(
    "--overwrite", is_flag=True, help="Replace a report already in --out (the study's own RUNS_DIR/report always is)."
)
@refit_option()
@click.option("--quiet", "-q", is_flag=True, help="No progress bars.")
def study(
    game_name: str,
    num_games: int | None,
    out: Path | None,
    runs_dir: Path | None,
    workers: int | None,
    seed: int,
    cards: Path | None,
    rules: tuple[tuple[str, object], ...],
    overwrite: bool,
    refit_apprentice: bool,
    quiet: bool,
) -> None:
    """Run the standard balance study of GAME and write its report.

    The study is a set of runs the game declares (its GameInfo.study): mirror matches at every player
    count, mixed bots rotated through the seats, and a setup-variance design. Runs already in
    RUNS_DIR with the same settings are reused; --games scales every run.

    \b
    Examples:
      golem study century
      golem study century --games 3000000 --out reports/century
      golem study golems --cards my-deck/ --runs-dir runs/my-deck --out reports/my-deck
      golem study century --cards my-deck/ --refit-apprentice --runs-dir runs/my-deck   # its apprentice refitted
    """
    import matplotlib

    matplotlib.use("Agg")
    from simulate.datafiles import DataError
    from simulate.lineup import LineupError
    from simulate.orchestration.studies import run_study
    from simulate.outputs import Output, check_outputs
    from simulate.registry import UnknownName, make
    from simulate.runformat import RunFormatError
    from simulate.runner import RunError, check_workers

    try:  # the outputs, game, workers, data and rule options are checked before the first run starts
        root = runs_dir if runs_dir is not None else Path("runs") / f"study-{game_name}"
        own = out is None or os.path.abspath(out) == os.path.abspath(root / "report")  # the study's own report
        report_out = Output("--out", out or root / "report", "report", within=root if own else None, reuse=own)
        check_outputs([Output("--runs-dir", root, "runs", reuse=True), report_out], overwrite=overwrite)
        check_workers(workers)
        make(game_name).load_data(cards, dict(rules))
    except (UnknownName, DataError, RunError, ValueError) as e:
        raise _one_line(e) from None
    command = _command(
        "study",
        game_name,
        *_option("--games", num_games),
        "--seed",
        seed,
        *_option("--runs-dir", runs_dir),
        *_option("--out", out),
        *_option("--workers", workers),
        *_option("--cards", cards),
        *[a for k, v in rules for a in ("--rule", f"{k}={v}")],
        *(("--refit-apprentice",) if refit_apprentice else ()),
    )
    try:
        if refit_apprentice:  # every run of the study plays the data with an apprentice fitted on it
            cards = refitted_cards(game_name, cards, dict(rules), workers, quiet)
        run_study(
            game_name,
            num_games,
            runs_dir,
            out,
            workers=workers,
            seed=seed,
            progress=not quiet,
            log=click.echo,
            command=command,
            cards=cards,
            rules=dict(rules),
        )
    except (UnknownName, LineupError, RunError, DataError, RunFormatError, ValueError, OSError) as e:
        raise _one_line(e) from None
    except KeyboardInterrupt:
        raise click.ClickException("interrupted; run the same command again to finish the study") from None
