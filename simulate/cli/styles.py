"""``golem styles``: the apprentice's strategy styles against each other, and whether one dominates.

A thin click wrapper over ``simulate.orchestration.styles`` (registered on the ``golem`` group at the end of
``simulate.cli``).
"""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option("--players", "-p", type=click.IntRange(min=1), default=2, show_default=True, help="Player count.")
@click.option(
    "--games",
    "-n",
    "num_games",
    type=click.IntRange(min=2),
    default=400,
    show_default=True,
    help="Games of each pair of styles at 2 players, of each table mixing them at more (seats rotated).",
)
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True, help="Master seed.")
@click.option(
    "--out",
    "-o",
    type=click.Path(path_type=Path),
    required=True,
    help="Folder for the runs (one a pair) and matrix.csv, weights.csv, profile.csv, styles.md.",
)
@click.option("--overwrite", is_flag=True, help="Replace the runs and tables in --out if it holds them.")
@click.option("--workers", "-w", type=int, default=None, help="Worker processes [default: all cores].")
def styles(
    game_name: str, players: int, num_games: int, seed: int, out: Path, overwrite: bool, workers: int | None
) -> None:
    """Is there a dominant strategy in GAME? Its apprentice's strategy styles (seeds/GAME/styles.toml) play each
    other and the plain apprentice; prints the win-rate matrix, the equilibrium of the meta-game they make (the mix
    no style beats, with bootstrap intervals), each style's play profile against the apprentice's, and a verdict:
    several styles viable, one style dominates, or unresolved (with the games that would settle it). At 3 players and
    more, tables mix the styles and each pair is rated by how often one finishes ahead of the other where they meet.

    \b
    Examples:
      golem styles century -p 2 --games 400 --out runs/century-styles
      golem styles century -p 4 --games 1000 --out runs/century-styles-4p
      golem bots century                     # the styles: apprentice's style parameter
      golem simulate century -p 2 --bots apprentice:style=engine,apprentice -n 1000 --out runs/c2-engine
    """
    from simulate.datafiles import DataError
    from simulate.lineup import LineupError
    from simulate.orchestration.styles import StylesDesign, StylesError, play_styles, styles_lines
    from simulate.outputs import Output, OutputError, check_outputs
    from simulate.registry import UnknownName
    from simulate.runner import RunError

    try:
        check_outputs([Output("--out", out, "runs")], overwrite=overwrite)
        design = StylesDesign(game_name, players, num_games, seed)
        result = play_styles(design, out, workers=workers, overwrite=overwrite, log=lambda m: click.echo(m, err=True))
    except (StylesError, UnknownName, LineupError, RunError, DataError, OutputError) as e:
        raise click.ClickException(" ".join(str(e).split())) from None
    for line in styles_lines(result):
        click.echo(line)
    click.echo(f"({result.seconds:.0f} s; tables and styles.md in {out})", err=True)


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option("--players", "-p", type=click.IntRange(min=1), default=2, show_default=True, help="Player count.")
@click.option(
    "--feature",
    "features",
    multiple=True,
    help="A feature whose weight the search offsets; repeat [default: every feature a shipped style names].",
)
@click.option(
    "--bound",
    type=float,
    default=2.0,
    show_default=True,
    help="Offsets searched within ±BOUND units: the largest offset a shipped style puts on a feature (else its "
    "weight).",
)
@click.option(
    "--games", "-n", "num_games", type=click.IntRange(min=2), default=200, show_default=True, help="Games a candidate."
)
@click.option("--budget", type=click.IntRange(min=2), default=40, show_default=True, help="Candidates at most.")
@click.option(
    "--confirm-games",
    type=click.IntRange(min=2),
    default=2000,
    show_default=True,
    help="Fresh games that measure the best candidate.",
)
@click.option("--seed", type=click.IntRange(0, 2**62), default=0, show_default=True, help="Master seed.")
@click.option(
    "--refit",
    type=click.Path(path_type=Path),
    default=None,
    help="A golem train --opponent folder: measure its apprentice beside the shipped one (the best response, a fresh "
    "search, the search bot, the strongest heuristic, head to head).",
)
@click.option(
    "--search-games",
    type=click.IntRange(min=2),
    default=400,
    show_default=True,
    help="With --refit: games of each apprentice against the search bot.",
)
@click.option("--out", "-o", type=click.Path(path_type=Path), required=True, help="Folder for the search.")
@click.option("--overwrite", is_flag=True, help="Replace the search in --out if it holds one.")
@click.option("--workers", "-w", type=int, default=None, help="Worker processes [default: all cores].")
def exploit(
    game_name: str,
    players: int,
    features: tuple[str, ...],
    bound: float,
    num_games: int,
    budget: int,
    confirm_games: int,
    seed: int,
    refit: Path | None,
    search_games: int,
    out: Path,
    overwrite: bool,
    workers: int | None,
) -> None:
    """Can the apprentice of GAME be beaten by another way of playing? Searches offsets on its weights (a style) for
    a best response to it at -p players (differential evolution, each candidate against the apprentice in every
    other seat), then measures the best on fresh seeds: the exploitability (its win share minus the fair share, with
    an interval) and what it does differently.

    With --refit FOLDER (an apprentice refitted with a best response in its training pool, golem train --opponent),
    it measures that apprentice beside the shipped one instead, on fresh games at -p players: the best response's
    win share against each, a fresh search's against the refitted one, each one's against the search bot and the
    strongest heuristic, and the two head to head (refit.md in --out).

    \b
    Examples:
      golem exploit century -p 2 --games 200 --budget 40 --out runs/century-exploit
      golem exploit century -p 3 --feature own_engine_power --feature engine_x_early --out runs/c3-exploit
      golem exploit century -p 2 --refit runs/train-century-refit --out runs/century-refit-check
    """
    from simulate.datafiles import DataError
    from simulate.lineup import LineupError
    from simulate.orchestration.balance_search import ExperimentError
    from simulate.orchestration.exploit import ExploitDesign, exploit_lines, refit_check, refit_lines
    from simulate.orchestration.exploit import exploit as search_exploit
    from simulate.orchestration.styles import StylesError
    from simulate.outputs import Output, OutputError, check_outputs
    from simulate.registry import UnknownName
    from simulate.runner import RunError

    errors = (StylesError, ExperimentError, UnknownName, LineupError, RunError, DataError, OutputError)
    try:
        check_outputs([Output("--out", out, "search")], overwrite=overwrite)
        design = ExploitDesign(game_name, players, features, bound, num_games, budget, confirm_games, seed)
        if refit is not None:
            check = refit_check(design, refit, out, search_games, workers, log=lambda m: click.echo(m, err=True))
            for line in refit_lines(check):
                click.echo(line)
            click.echo(f"({check.seconds:.0f} s; refit.md, refit.csv and the runs in {out})", err=True)
            return
        result = search_exploit(design, out, workers=workers, log=lambda m: click.echo(m, err=True))
    except errors as e:
        raise click.ClickException(" ".join(str(e).split())) from None
    for line in exploit_lines(result):
        click.echo(line)
    click.echo(f"({result.seconds:.0f} s; evaluations, profile, best_response.toml and exploit.md in {out})", err=True)
