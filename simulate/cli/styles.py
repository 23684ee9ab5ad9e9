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
    help="Games of each pair of styles (seats rotated).",
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
    several styles viable, one style dominates, or unresolved (with the games that would settle it).

    \b
    Examples:
      golem styles century -p 2 --games 400 --out runs/century-styles
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
