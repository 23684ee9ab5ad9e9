"""``golem value``: what a card is worth to the seat that holds it, and what if its cost or reward changed.

A thin click wrapper over ``simulate.orchestration.card_value`` (registered on the ``golem`` group at the end of
``simulate.cli``).
"""

from __future__ import annotations

from pathlib import Path

import click

from simulate.cli.params import refit_option, refit_settings

_COUNT = click.IntRange(min=2)
_SEED = click.IntRange(0, 2**64 - 1)


@click.command()
@click.argument("game_name", metavar="GAME")
@click.argument("components", nargs=-1, metavar="[ID]...")
@click.option(
    "--players", "-p", "players", type=click.IntRange(1, 10), multiple=True, help="Player count; repeat for several."
)
@click.option(
    "--bot",
    "--bots",
    "lineups",
    multiple=True,
    help="A lineup (one bot: a mirror match; or one per seat, the first holding the card); repeat for several "
    "[default: the game's recommended lineup].",
)
@click.option("--ladder", is_flag=True, help="Every rung of the game's skill ladder but random and the search rungs.")
@click.option("--games", "-n", "num_games", type=_COUNT, default=2000, show_default=True, help="Paired games per arm.")
@click.option("--seed", type=_SEED, default=0, show_default=True, help="Master seed (both arms of a pair share it).")
@click.option(
    "--cost",
    help="What if the card's cost (a Century trade's input or point card's cost, a Golems Golem's requirement, a Golem "
    "Book's Knowledge price or an Objective's threshold) were this, e.g. YYYY, AAC or 2.",
)
@click.option(
    "--reward",
    help="What if the card's reward (a Century card's output, upgrades or VP; a Golems Rune's VP or Gem card's "
    "Reward; a Golem Book's immediate amount or an Objective's VP) were this, e.g. M or 2.",
)
@click.option(
    "--price",
    is_flag=True,
    help="Instead: value for cost. Century: implied crystal prices (no games); Golem: every Book valued, its value "
    "fitted on its price (plays); every game: strictly dominated cards.",
)
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(path_type=Path),
    help="Write every effect (all quantities) here; with --price in Golem, each Book against the line.",
)
@click.option("--out", type=click.Path(path_type=Path), help="Keep the runs in this folder [default: not kept].")
@click.option("--overwrite", is_flag=True, help="Replace the --csv file or the runs in --out if they exist.")
@click.option("--workers", "-w", type=int, default=None, help="Worker processes [default: all cores].")
@refit_option(
    "one training for the data of the --cost/--reward arm the first time that data is seen, as long as golem train "
    "GAME (seeds/GAME/apprentice.toml records its seconds; the printed data's own apprentice needs none)"
)
def value(
    game_name: str,
    components: tuple[str, ...],
    players: tuple[int, ...],
    lineups: tuple[str, ...],
    ladder: bool,
    num_games: int,
    seed: int,
    cost: str | None,
    reward: str | None,
    price: bool,
    csv_path: Path | None,
    out: Path | None,
    overwrite: bool,
    workers: int | None,
    refit_apprentice: bool,
) -> None:
    """What card ID of GAME is worth to the seat that holds it, in one line with an interval.

    The same games are played as printed and with one more copy of the card dealt at setup to the seat of the
    lineup's first bot (rotating round the table; a Golem Development tile: upgraded free, an Artifact: completed);
    the value is the paired difference in that seat's win share,
    with its score margin and the game's length (docs/card-value.md). Without ID every card with a value design.

    \b
    Examples:
      golem value century M04 -p 2 --bot greedy --games 2000
      golem value century M12 --cost YYYY            # what if its cost were 4 yellow
      golem value century M04 M09 -p 2 -p 3 --ladder --games 1000
      golem value century --price                    # implied crystal prices, dominated cards
      golem value golems R05 J01 G09 -p 2 --bot apprentice --games 1000   # a Rune, a Gem card, a Golem
      golem value golems G17 --cost AAC              # what if the Golem needed AAC to summon
      golem value golems -p 2 --bot apprentice --games 1000 --csv golems-value.csv   # every card
      golem value golems --price                     # dominated cards (Golems prints no price)
      golem value golem B16 60 study_dev_2 artifact_1 -p 2 --bot apprentice --games 600
      golem value golem B16 --cost 1                 # what if the Book cost 1 Knowledge
      golem value golem --price -p 2 --bot apprentice --games 1000   # Books' value on their price, dominance
      golem value century M12 --cost YYYY --bot apprentice --refit-apprentice   # played by an apprentice fitted on it
    """
    from simulate.datafiles import DataError
    from simulate.lineup import LineupError
    from simulate.orchestration.card_value import (
        CardValueError,
        ValueDesign,
        card_value,
        ladder_lineups,
        price_tables,
        price_value,
        price_value_lines,
        value_answer,
    )
    from simulate.outputs import Output, OutputError, check_outputs, write_atomic
    from simulate.registry import UnknownName, make
    from simulate.runner import RunError
    from simulate.variants import VariantError

    errors = (CardValueError, UnknownName, LineupError, RunError, DataError, VariantError, OutputError)
    try:
        outputs = [Output("--csv", csv_path, "csv")] if csv_path is not None else []
        outputs += [Output("--out", out, "runs")] if out is not None else []
        check_outputs(outputs, overwrite=overwrite)
        game = make(game_name)
        if price and components:
            raise CardValueError("--price values every priced card: name no component")
        if price and not game.info.measured_price:
            for line in price_tables(game.info.name):
                click.echo(line)
            return
        if ladder and lineups:
            raise CardValueError("give --ladder or --bot, not both")
        chosen = ladder_lineups(game.info.name) if ladder else (lineups or (game.info.default_bots,))
        edits = tuple((k, v) for k, v in (("cost", cost), ("reward", reward)) if v is not None)
        design = ValueDesign(
            game.info.name,
            components,
            players or (2,),
            tuple(chosen),
            num_games=num_games,
            seed=seed,
            edits=edits,
            refit=refit_settings(refit_apprentice),
        )
        log = lambda m: click.echo(m, err=True)  # noqa: E731
        if price:
            priced = price_value(design, out, workers=workers, log=log)
            for line in price_value_lines(priced) + price_tables(game.info.name):
                click.echo(line)
            if csv_path is not None:
                write_atomic(csv_path, lambda path: priced.cards.to_csv(path, index=False))
            click.echo(f"({priced.value.seconds:.0f} s)", err=True)
            return
        result = card_value(design, out, workers=workers, log=log)
        if csv_path is not None:
            write_atomic(csv_path, lambda path: result.effects.to_csv(path, index=False))
    except errors as e:
        raise click.ClickException(" ".join(str(e).split())) from None
    for line in value_answer(result, design):
        click.echo(line)
    click.echo(f"({result.seconds:.0f} s)", err=True)
