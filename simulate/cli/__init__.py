"""The ``golem`` command line: thin click commands over typed functions."""

from __future__ import annotations

import atexit
import functools
import json
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from simulate.cli.params import BotsOption, KeyValue, distinct_keys, refit_option, refitted_cards

if TYPE_CHECKING:
    from simulate.game import Game

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _fail(e: Exception) -> click.ClickException:
    return click.ClickException(str(e))


@click.group(context_settings=CONTEXT_SETTINGS)
@click.version_option(package_name="golem-lab", prog_name="golem")
def main() -> None:
    """Monte Carlo balance lab for the four tabletop games named Golem.

    \b
    Examples:
      golem games
      golem bots century
      golem simulate century --players 3 --games 1000000 --bots greedy,engine,planner --seed 7 --out runs/c3
      golem replay runs/c3 --game 123456
      golem bench century
    """


@main.command()
def games() -> None:
    """List the games, their player counts and rule options.

    \b
    Examples:
      golem games
      golem simulate century -p 3 --bots greedy --rule tie_break=shared --out runs/shared-ties
    """
    from simulate.registry import available_games, make

    for name, desc in available_games().items():
        game = make(name)
        click.echo(f"{name:<12} {game.info.min_players}-{game.info.max_players} players  {desc}")
        click.echo(f"{'':14}recommended bots: {game.info.default_bots} (what simulate plays without --bots)")
        for opt in game.rule_options().values():
            choices = "/".join(str(c) for c in opt.choices)
            click.echo(f"{'':14}rule {opt.name}={opt.default} ({choices}): {opt.help}")


@main.command()
@click.argument("game_name", metavar="GAME")
def bots(game_name: str) -> None:
    """List the bots of GAME with their parameters and defaults.

    \b
    Examples:
      golem bots century
      golem simulate century -p 2 --bot engine:buy_turns=6 --bot planner --out runs/c2
    """
    from simulate.registry import UnknownName, make

    try:
        game = make(game_name)
    except UnknownName as e:
        raise _fail(e) from None
    width = max(len(name) for name in game.info.bots) + 2
    for bot in game.info.bots.values():
        click.echo(f"{bot.name:<{width}}{bot.description}")
        rows = [
            (f"{key}={bot.choices[key][int(default)]}", f"[{', '.join(bot.choices[key])}]", help_text)
            if key in bot.choices
            else (f"{key}={default:g}", f"[{low:g}..{high:g}{', whole' if key in bot.whole else ''}]", help_text)
            for key, (default, help_text) in bot.params.items()
            for low, high in [bot.limits[key]]
        ]
        setting, limits = (max((len(row[i]) for row in rows), default=0) for i in (0, 1))
        for text, bounds, help_text in rows:
            click.echo(f"{'':{width + 2}}{text:<{setting}}  {bounds:<{limits}}  {help_text}")


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option("--players", "-p", type=click.IntRange(min=1), required=True, help="Number of players.")
@click.option(
    "--games",
    "-n",
    "num_games",
    type=click.IntRange(min=1),
    default=None,
    help="Games to play (default 10000, or setups x games-per-setup).",
)
@click.option(
    "--bots",
    "bot_list",
    cls=BotsOption,
    default=None,
    help="Comma-separated bots, one per seat or one for all, e.g. greedy,engine:buy_turns=6,planner",
)
@click.option(
    "--bot",
    "bot_specs",
    multiple=True,
    help="A bot for the next seat as NAME[:KEY=VALUE...]; repeat per seat (alternative to --bots).",
)
@click.option(
    "--seed",
    type=click.IntRange(0, 2**64 - 1),
    default=0,
    show_default=True,
    help="Master seed: with the game index it fixes every game.",
)
@click.option(
    "--out",
    "-o",
    required=True,
    help="Run directory to write; with --cluster also an fsspec URL the workers reach (s3://...).",
)
@click.option(
    "--workers", "-w", type=click.IntRange(min=1), default=None, help="Worker processes [default: all cores]."
)
@click.option(
    "--cluster",
    default=None,
    metavar="ADDRESS",
    help="Play the chunks on Dask: a scheduler (tcp://HOST:8786) or local:N to start N local workers.",
)
@click.option(
    "--setups",
    type=click.IntRange(min=1),
    default=None,
    help="Play this many random setups, each --games-per-setup times.",
)
@click.option(
    "--games-per-setup",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Games per setup, seats rotated across a setup's games.",
)
@click.option(
    "--orders-per-opening",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Setups per public opening: each opening (display, starting tiles) is dealt over this many hidden deck "
    "orders, each played --games-per-setup times (--setups counts deck orders, a multiple of this).",
)
@click.option(
    "--rotate/--fixed-seats",
    default=True,
    show_default=True,
    help="Rotate the bot lineup through the seats so every bot sits in every seat equally often.",
)
@click.option(
    "--rule",
    "rules",
    type=KeyValue(),
    multiple=True,
    callback=distinct_keys,
    help="Set a rule option, e.g. --rule tie_break=shared.",
)
@click.option(
    "--cards",
    "--components",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder with edited game data (a copy of seeds/GAME) to play instead of the shipped data.",
)
@click.option(
    "--chunk-size",
    type=click.IntRange(min=1),
    default=None,
    help="Games per chunk and Parquet part [default: the game's, else 20,000; at most an eighth of the run, "
    "down to 100].",
)
@click.option("--overwrite", is_flag=True, help="Replace a run already in --out.")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in --out (same options).")
@click.option(
    "--strict",
    is_flag=True,
    help="Check every move (Golems and Golem runs otherwise trust their bots) and stop at the first game ended by "
    "the turn cap or an illegal move (it is recorded and replayable).",
)
@click.option(
    "--trajectories",
    is_flag=True,
    help="Also write every seat's score at the end of every round (the trajectories table: the report's How the "
    "game plays section).",
)
@refit_option()
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or summary.")
def simulate(
    game_name,
    players,
    num_games,
    bot_list,
    bot_specs,
    seed,
    out,
    workers,
    cluster,
    setups,
    games_per_setup,
    orders_per_opening,
    rotate,
    rules,
    cards,
    chunk_size,
    overwrite,
    resume,
    strict,
    trajectories,
    refit_apprentice,
    quiet,
) -> None:
    """Play many games of GAME with bots and write a run directory.

    \b
    Examples:
      golem simulate century -p 3 -n 1000000 --bots greedy,engine,planner --seed 7 --out runs/c3
      golem simulate century -p 4 -n 20000 --out runs/c4    # the recommended lineup: greedy in every seat
      golem simulate century -p 4 --bots greedy --setups 2000 --games-per-setup 12 --out runs/c4-setups
      golem simulate century -p 3 --setups 900 --orders-per-opening 3 --games-per-setup 4 --out runs/c3-nested
      golem simulate century -p 2 --bot engine:buy_turns=6 --bot planner -n 50000 --out runs/c2
      golem simulate century -p 2 --bots apprentice --cards my-deck/ --refit-apprentice --out runs/my-deck
      golem simulate century -p 3 -n 20000 --trajectories --out runs/c3-feel   # scores round by round
      golem simulate century -p 3 -n 10000000 --bots greedy --cluster tcp://10.0.0.5:8786 --out /shared/c3
      golem simulate golems -p 2 --bots greedy --cluster local:2 --out s3://bucket/runs/g2
    """
    from simulate.apprentice_fit import plays_learned
    from simulate.datafiles import DataError
    from simulate.lineup import LineupError, parse_lineup
    from simulate.outputs import Output, check_outputs
    from simulate.registry import UnknownName, make
    from simulate.runner import DEFAULT_CHUNK, RunError, RunSpec, default_chunk_size, run
    from simulate.store import is_url

    try:
        game = make(game_name)
        if not out.strip():
            raise click.BadParameter("give a directory (or a URL with --cluster)", param_hint="--out")
        if not is_url(out):
            check_outputs([Output("--out", Path(out), "run")], overwrite=overwrite, resume=resume)
        if bot_list is not None and bot_specs:
            raise click.UsageError("give the bots with --bots or with --bot per seat, not both")
        listed = [] if bot_list is None else bot_list.split(",")
        if any(not s.strip() for s in listed):
            raise click.BadParameter(f"'{bot_list}' has an empty bot between commas", param_hint="--bots")
        specs = listed + list(bot_specs)
        recommended = not specs
        if recommended:
            specs = game.info.default_bots.split(",")
        lineup = parse_lineup(game, specs, players)
        if setups is not None:
            if num_games is not None and num_games != setups * games_per_setup:
                raise RunError(
                    f"--games {num_games} differs from --setups x --games-per-setup "
                    f"= {setups * games_per_setup}; give one or the other"
                )
            num_games = setups * games_per_setup
        elif games_per_setup != 1:
            raise RunError("--games-per-setup needs --setups")
        n = 10_000 if num_games is None else num_games
        if refit_apprentice:
            if not plays_learned(e.to_json() for e in lineup):
                raise RunError("--refit-apprentice: no apprentice plays in this lineup (apprentice, search:leaf=1)")
            cards = refitted_cards(game.info.name, cards, dict(rules), workers, quiet)
        spec = RunSpec(
            game=game.info.name,
            num_players=players,
            num_games=n,
            master_seed=seed,
            lineup=lineup,
            rotate_seats=rotate,
            setups=setups,
            games_per_setup=games_per_setup,
            orders_per_opening=orders_per_opening,
            chunk_size=chunk_size or default_chunk_size(n, game.info.chunk_size or DEFAULT_CHUNK),
            rules=dict(rules),
            cards=str(cards) if cards else None,
            trajectories=trajectories,
        )
        command = "golem " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        if cluster is not None and workers is not None:
            raise RunError("--workers is for local runs; with --cluster the cluster's workers play")
        run_dir = run(
            spec,
            out if is_url(out) else Path(out),
            workers=workers,
            overwrite=overwrite,
            resume=resume,
            progress=not quiet,
            command=command,
            cluster=cluster,
            strict=strict,
            warm_imports=() if quiet else ("analysis.summary",),  # imported while the workers play
        )
    except (UnknownName, LineupError, RunError, DataError, ValueError) as e:
        raise _fail(e) from None
    except KeyboardInterrupt:
        raise click.ClickException("interrupted; finish the run with the same command and --resume") from None
    from analysis.summary import fault_warning, summarize

    if not quiet:
        click.echo(summarize(run_dir))
        if recommended:
            click.echo(skill_level_words(game, game.info.default_bots))
    warning = fault_warning(run_dir)
    if warning:
        click.echo(warning, err=True)


def skill_level_words(game: Game, bots: str) -> str:
    """What skill level a run of the recommended lineup ``bots`` answers for: its place on the game's skill ladder,
    the ladder's ends by name, and where the answer at strong play is."""
    names = game.info.bot_names
    who = ", ".join(f"{names.get(b, b)} ({b})" if b in names else b for b in bots.split(","))
    ladder = list(game.info.skill_ladder)
    head = f"bots: {who}, the recommended lineup of {game.info.name} (choose others with --bots)"
    if not ladder:
        return head + "."
    top = names.get(ladder[-1], ladder[-1])
    spec = bots.split(",")[-1]
    place = f"rung {ladder.index(spec) + 1} of {len(ladder)} of the game's skill ladder" if spec in ladder else ""
    return (
        f"{head}. These figures hold for players of that skill{f' ({place})' if place else ''}; stronger players "
        f"may see other answers, and golem study {game.info.name} measures them at strong play (its strongest player: "
        f"{top})."
    )


@main.command()
@click.argument("run_dir")
@click.option("--game", "game_index", type=int, required=True, help="Index of the game in the run (0-based).")
@click.option(
    "--json", "as_json", is_flag=True, help="Print the events as a JSON list, each with the position (docs/replay.md)."
)
@click.option("--state", "with_state", is_flag=True, help="Print the whole public position after every decision.")
@click.option(
    "--html",
    "html_out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write one self-contained page that steps through the game decision by decision.",
)
@click.option("--overwrite", is_flag=True, help="Replace the --html file if it exists.")
@click.option(
    "--explain",
    is_flag=True,
    help="With --html: show the options each search or apprentice move weighed, recomputed (slower).",
)
def replay(
    run_dir: str,
    game_index: int,
    as_json: bool,
    with_state: bool,
    html_out: Path | None,
    overwrite: bool,
    explain: bool,
) -> None:
    """Re-simulate one game of a run (a directory or an fsspec URL) from its seeds and print it turn by turn.

    \b
    Examples:
      golem replay runs/c3 --game 123456
      golem replay runs/c3 --game 123456 --state
      golem replay runs/c3 --game 123456 --json > game-123456.json
      golem replay runs/c3 --game 123456 --html game-123456.html
      golem replay runs/c3 --game 123456 --html game-123456.html --explain
      golem replay s3://bucket/runs/c3 --game 7
    """
    from simulate.outputs import Output, check_outputs, write_atomic
    from simulate.replay import replay_game, replay_view
    from simulate.runformat import RunFormatError, read_manifest
    from simulate.runner import version_note
    from simulate.viewkit import format_state

    if html_out is not None and (as_json or with_state):
        raise click.UsageError("--html writes a page; give --json or --state without it")
    if explain and html_out is None:
        raise click.UsageError("--explain shows the bots' options on the page; give --html with it")
    try:
        if html_out is not None:
            check_outputs([Output("--html", html_out, "page")], overwrite=overwrite)
            game, view = replay_view(run_dir, game_index, explain=explain)
        else:
            game, events = replay_game(run_dir, game_index, states=as_json or with_state)
        manifest = read_manifest(run_dir)
        note = version_note(manifest, run_dir)
    except (RunFormatError, ValueError, OSError) as e:
        raise _fail(e) from None
    if note:
        click.echo(note, err=True)
    if html_out is not None:
        from analysis.report.render import render_replay

        title = f"{game.info.title}: game {game_index:,} of run {manifest['run_id']}"
        subtitle = f"golem replay {run_dir} --game {game_index}; engine version {manifest['engine_version']}"
        page = render_replay(view, title, subtitle)
        try:
            write_atomic(html_out, lambda path: path.write_text(page, encoding="utf-8"))
        except ValueError as e:
            raise _fail(e) from None
        click.echo(f"wrote {html_out}")
        return
    if as_json:
        click.echo(json.dumps(events, indent=1))
        return
    for event in events:
        click.echo(game.format_event(event))
        if with_state and "state" in event:
            click.echo(format_state(event["state"]))


@main.command()
@click.argument("run_dir")
@click.option("--no-checksums", is_flag=True, help="Check files and row counts only.")
def verify(run_dir: str, no_checksums: bool) -> None:
    """Check that a run is complete and that nothing its answer depends on is missing, truncated or altered.

    RUN_DIR is a run directory or an fsspec URL (s3://bucket/runs/c3). Checked: every part file (rows
    and SHA-256) and its tables against the manifest, each data file of RUN/data against its SHA-256,
    the rules against the run's data copy, and the run id against the engine version, seed, design,
    bots, rules and data files it hashes. A run made by another engine version is a warning.

    \b
    Examples:
      golem verify runs/c3
      golem verify s3://bucket/runs/c3 --no-checksums
    """
    from simulate.runformat import RunFormatError
    from simulate.runner import check_run, version_note

    try:
        m = check_run(run_dir, checksums=not no_checksums)
    except (RunFormatError, ValueError) as e:
        raise _fail(e) from None
    parts = sum(len(c["files"]) for c in m["chunks"].values())
    data = len(m["data"]["files"])
    click.echo(f"{run_dir}: complete, {m['num_games']:,} games in {parts:,} intact part files and {data} data files")
    note = version_note(m, run_dir)
    if note:
        click.echo(note, err=True)


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option(
    "--games",
    "-n",
    "num_games",
    type=click.IntRange(min=1),
    default=6,
    show_default=True,
    help="Games per check and player count.",
)
@click.option(
    "--only",
    "only",
    multiple=True,
    metavar="CHECK",
    help=(
        "Run this check only (repeatable): declarations, data, tables, determinism, bots, moves, hidden, replay, "
        "position, page, study, timing, adaptation."
    ),
)
@click.option("--seed", type=int, default=None, help="Master seed of the checks' games (default: the check's own).")
def check(game_name: str, num_games: int, only: tuple[str, ...], seed: int | None) -> None:
    """Check that GAME keeps the shared surface the runner, replay and reports rely on (simulate.conformance).

    One line a check: the declarations, the packaged data, the tables at every player count, determinism,
    every bot's moves legal, the kernel against the reference engine on every move, no bot peeking at hidden
    cards, the reference replaying the kernel's games, the replay position as declared, the replay page, the
    standard study's runs, the bench hooks, the strong players seeing planted card edits
    (simulate.adaptation). Exits 1 listing every failure, each naming what is missing.

    \b
    Examples:
      golem check golems
      golem check golem --only moves --only hidden --games 2
      golem check century --only adaptation
    """
    import time

    from simulate.adaptation import asserted_text
    from simulate.conformance import CHECKS, SEED, ConformanceError, check_game
    from simulate.registry import UnknownName, make

    unknown = [c for c in only if c not in CHECKS]
    if unknown:
        raise click.BadParameter(
            f"{unknown[0]!r} is not a check; the checks are {', '.join(CHECKS)}", param_hint="--only"
        )
    try:
        make(game_name)
    except UnknownName as e:
        raise _fail(e) from None
    failures = []
    for name in only or CHECKS:
        start = time.perf_counter()
        try:
            passed = check_game(game_name, games=num_games, seed=SEED if seed is None else seed, checks=(name,))
        except ConformanceError as e:
            failures.append(str(e))
            verdict = "FAILED"
        else:
            verdict = "ok" if passed else "nothing to compare"
        spec = make(game_name).info.adaptation if name == "adaptation" else None
        what = f": {asserted_text(spec)}" if spec is not None else ""
        click.echo(f"{name:<13} {verdict} ({time.perf_counter() - start:.1f} s){what}")
    if failures:
        click.echo("\n".join(failures), err=True)
        raise SystemExit(1)
    click.echo(f"{game_name}: conforms")


@main.command()
@click.argument("game_name", metavar="GAME")
@click.option(
    "--games", "-n", "num_games", type=click.IntRange(min=1), default=None, help="Games per kernel measurement."
)
@click.option(
    "--repeats", type=click.IntRange(min=1), default=5, show_default=True, help="Repetitions; the median is reported."
)
@click.option(
    "--run-games",
    type=click.IntRange(min=0),
    default=1_000_000,
    show_default=True,
    help="Games of the end-to-end 'golem simulate' measurement (0 to skip).",
)
def bench(game_name: str, num_games: int | None, repeats: int, run_games: int) -> None:
    """Measure engine, reference and end-to-end throughput of GAME; prints one JSON line each.

    \b
    Examples:
      golem bench century
      golem bench golems --repeats 3 --run-games 0
    """
    from simulate.bench import run_bench
    from simulate.datafiles import DataError
    from simulate.registry import UnknownName

    if 0 < run_games < 10:
        raise click.BadParameter("0 (skip) or at least 10 (it is also measured at a tenth)", param_hint="--run-games")
    try:
        progress = functools.partial(click.echo, err=True)  # stdout stays one JSON line per measurement
        for line in run_bench(game_name, num_games=num_games, repeats=repeats, run_games=run_games, log=progress):
            click.echo(json.dumps(line))
    except (UnknownName, DataError) as e:
        raise _fail(e) from None


def entry() -> None:
    """Console entry point: keep BLAS single-threaded in every worker before numpy loads, and leave quickly."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    atexit.register(_leave)  # registered before the libraries load, so it runs after their exit handlers
    try:
        main()
    except SystemExit as stop:
        _EXIT["code"] = 0 if stop.code is None else stop.code if isinstance(stop.code, int) else 1
        raise
    except Exception as e:
        from simulate.datafiles import DataError  # loaded by then: the game's modules read their tables with it

        if not isinstance(e, DataError):
            raise
        # a game's own tables (seeds/<game>/bots.toml, study.toml) are read as its modules load, under any command
        click.echo(f"Error: {e}", err=True)


_EXIT = {"code": 1}  # a command that ends by an uncaught exception exits with 1, as Python does


def _leave() -> None:
    """The last exit handler: flush the streams and end the process without the interpreter's teardown.

    Every exit handler has run and every file is closed; what is left is freeing the modules of numba,
    pandas, scipy and pyarrow one object at a time, a quarter of a second of CPU that the OS does at once.
    """
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(_EXIT["code"])


from simulate.cli.report import report, study  # noqa: E402

main.add_command(report)
main.add_command(study)

from simulate.cli.experiment import ablate, balance, sweep, tune, values  # noqa: E402

main.add_command(sweep)
main.add_command(ablate)
main.add_command(values)
main.add_command(balance)
main.add_command(tune)

from simulate.cli.train import train  # noqa: E402

main.add_command(train)

from simulate.cli.value import value  # noqa: E402

main.add_command(value)

from simulate.cli.styles import exploit, styles  # noqa: E402

main.add_command(styles)
main.add_command(exploit)
