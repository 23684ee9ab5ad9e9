"""``golem train``: refit a game's apprentice (a thin command over ``simulate.orchestration.training``)."""

from __future__ import annotations

from pathlib import Path

import click

from simulate.cli.params import CountValue, KeyValue, distinct_keys


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option(
    "--out",
    "-o",
    type=click.Path(path_type=Path),
    default=None,
    help="Folder for the training [default: runs/train-GAME].",
)
@click.option(
    "--games", "-n", type=int, default=None, help="Teacher games per player count and iteration [default: the game's]."
)
@click.option(
    "--iterations",
    type=CountValue(),
    multiple=True,
    help="Expert iterations [default: the game's]; golem-poker: CFR iterations per player count, and COUNT=N for "
    "one count's (repeatable, e.g. --iterations 300000 --iterations 6=1200000).",
)
@click.option(
    "--strength-games",
    type=int,
    default=None,
    help="Games of each iteration's checks against the strongest heuristic bot and against the search bot "
    "[default: the game's; 0 skips them].",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed: it fixes every game and the fit.")
@click.option("--workers", "-w", type=int, default=None, help="Worker processes [default: all cores].")
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
    "data_dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Data folder (a copy of seeds/GAME, edited) to train on instead of the shipped data, as in golem simulate.",
)
@click.option("--teacher", default=None, help="Bot of iteration 0's games [default: the game's search bot].")
@click.option(
    "--expert",
    default=None,
    help="Bot of the later iterations' games [default: the search with the apprentice inside].",
)
@click.option(
    "--policy-only",
    is_flag=True,
    help="Only the policy stage, on the data folder's weights: refit the counts a game's policy stage refits "
    "(--games teacher games) and keep the others.",
)
@click.option(
    "--opponent",
    type=click.Path(path_type=Path),
    default=None,
    help="A styles file of one style (golem exploit's best_response.toml): an opponent in the training pool, its "
    "weights pinned, played by the teacher and the student at the smallest player count.",
)
@click.option(
    "--players",
    "-p",
    type=int,
    multiple=True,
    help="Refit only this player count's weights (golem-poker: its CFR table's rows; repeat for more), the others "
    "kept from the data folder [default: every count].",
)
@click.option("--resume", is_flag=True, help="Finish an interrupted training in --out (same options).")
@click.option("--overwrite", is_flag=True, help="Replace a training already in --out.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bars.")
def train(
    game_name: str,
    out: Path | None,
    games: int | None,
    iterations: tuple[tuple[int | None, int], ...],
    strength_games: int | None,
    seed: int,
    workers: int | None,
    rules: tuple[tuple[str, str], ...],
    data_dir: Path | None,
    teacher: str | None,
    expert: str | None,
    policy_only: bool,
    opponent: Path | None,
    players: tuple[int, ...],
    resume: bool,
    overwrite: bool,
    quiet: bool,
) -> None:
    """Fit GAME's learned player: its apprentice by expert iteration, or (golem-poker) its CFR policy table.

    Iteration 0 learns from mirror games of the search bot at every player count the apprentice plays;
    each later iteration from the search with the apprentice inside and from the apprentice's own games
    against the strongest heuristic bot. Each iteration's apprentice plays that bot and the search bot on
    the same seeds, and its own mirror games; of the iterations whose mirror games end by the rules, the
    one kept is as strong as the best against each (within its interval) with the highest mean win share. Copy
    OUT/apprentice.* (and OUT/apprentice_value.*, where written) into a data folder (or seeds/GAME/) to
    play with them. A game with a policy stage then refits some counts' weights to the search's choices
    in --games more search games (Golem and Golems keep their value fit in apprentice_value.csv, which the
    search reads at its leaves); --policy-only runs that stage alone on the data folder's weights. An interrupted
    training resumes with --resume; a fixed --seed gives the same weights on the same machine. --opponent adds a
    best response to the training pool (docs/apprentice.md, "Refitted against a best response").

    A game with an equilibrium player instead (golem-poker) fits its policy table by Monte Carlo CFR on its
    abstraction: --iterations per player count (COUNT=N for one), then each seat's best response against the table
    plays --games games to measure its exploitability; OUT gets cfr_policy.csv, cfr_policy.toml (provenance: per
    player count, the training of its rows) and log.csv. --players trains only those counts' rows and keeps the
    others' from the data folder's table (--cards, else the shipped one). The other options do not apply to it.

    \b
    Examples:
      golem train golem-poker --seed 0
      golem train golem-poker -p 6 --iterations 1200000 --seed 1
      golem train golem-poker --iterations 300000 --iterations 6=1200000
      golem train century
      golem train golems --games 200 --iterations 2 --out runs/train-quick
      golem train century --resume --out runs/train-century
      golem train golems --policy-only --games 1000
      golem train century --opponent runs/century-exploit/best_response.toml --out runs/train-century-refit
      golem train century --players 2 --opponent runs/century-exploit/best_response.toml
    """
    from simulate.datafiles import DataError
    from simulate.lineup import LineupError
    from simulate.orchestration.training import TrainError, plan_training
    from simulate.orchestration.training import train as run_training
    from simulate.outputs import Output, OutputError, check_outputs
    from simulate.registry import UnknownName, make
    from simulate.runner import RunError, check_workers

    folder = out if out is not None else Path("runs") / f"train-{game_name}"
    plain = [n for count, n in iterations if count is None]
    per_count = {count: n for count, n in iterations if count is not None}
    if len(plain) > 1 or len(per_count) < len(iterations) - len(plain):
        raise click.ClickException("--iterations: give one N, and one COUNT=N per player count")
    try:
        game = make(game_name)
        check_outputs([Output("--out", folder, "training")], overwrite=overwrite, resume=resume)
    except (UnknownName, OutputError) as e:
        raise click.ClickException(str(e)) from None
    if game.info.apprentice is None and game.info.equilibrium is not None:
        extra = [
            name
            for name, v in (
                ("--strength-games", strength_games),
                ("--teacher", teacher),
                ("--expert", expert),
                ("--policy-only", policy_only or None),
                ("--opponent", opponent),
                ("--resume", resume or None),
            )
            if v
        ]
        if extra:
            raise click.ClickException(f"{', '.join(extra)}: not an option of {game_name}'s CFR training")
        iters = (plain[0] if plain else None, per_count)
        _train_equilibrium(game_name, out, games, iters, seed, workers, rules, data_dir, players, overwrite, quiet)
        return
    if per_count:
        raise click.ClickException("--iterations COUNT=N: only a CFR training (golem-poker) takes a count's iterations")
    try:
        plan = plan_training(
            game_name,
            folder,
            data_dir=data_dir,
            rules=dict(rules),
            games=games,
            iterations=plain[0] if plain else None,
            strength_games=strength_games,
            seed=seed,
            workers=check_workers(workers),
            resume=resume,
            overwrite=overwrite,
            teacher=teacher,
            expert=expert,
            policy_only=policy_only,
            opponent=opponent,
            players=players,
        )
        summary = run_training(plan, progress=not quiet, say=lambda text: click.echo(text, err=True))
    except (TrainError, UnknownName, DataError, LineupError, RunError, OutputError) as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"{e.filename or plan.out}: {e.strerror or e}") from None
    share, against_teacher = summary["strength_vs_rival"], summary["strength_vs_teacher"]
    kept = summary["kept_iteration"]
    names = [f"{n}-" for n in plan.spec.policy_counts] or ["-"]
    counts = (", ".join(names[:-1]) + " and " if len(names) > 1 else "") + names[-1] + "player"  # "2-, 3- and 4-player"
    if summary["value_iteration"] is None:
        head = f"apprentice of {game_name}: the {counts} weights refitted as a policy, the others kept"
    else:
        head = f"apprentice of {game_name}: iteration {summary['value_iteration']} kept" + (
            f", its {counts} weights refitted as a policy" if kept == "policy" else ""
        )
    click.echo(
        head
        + (
            f" (wins {100 * share:.1f}% against {plan.spec.rival}, {100 * against_teacher:.1f}% against "
            f"{plan.spec.teacher})"
            if share == share
            else ""
        )
        + f", {summary['seconds']:.0f} s -> {plan.out / 'apprentice.csv'}"
    )


def _train_equilibrium(
    game_name: str,
    out: Path | None,
    games: int | None,
    iterations: tuple[int | None, dict[int, int]],
    seed: int,
    workers: int | None,
    rules: tuple[tuple[str, str], ...],
    data_dir: Path | None,
    players: tuple[int, ...],
    overwrite: bool,
    quiet: bool,
) -> None:
    """``golem train`` of a game with an equilibrium player (``simulate.orchestration.equilibrium``)."""
    from simulate.orchestration.equilibrium import EquilibriumError, plan_equilibrium, train_equilibrium
    from simulate.runner import RunError, check_workers

    target = out if out is not None else Path("runs") / f"train-{game_name}"
    try:
        plan = plan_equilibrium(
            game_name,
            target,
            data_dir=data_dir,
            rules=dict(rules),
            iterations=iterations[0],
            count_iterations=iterations[1],
            games=games,
            seed=seed,
            workers=check_workers(workers),
            overwrite=overwrite,
            players=players,
        )
        summary = train_equilibrium(plan, progress=not quiet, say=lambda text: click.echo(text, err=True))
    except (EquilibriumError, RunError) as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"{e.filename or target}: {e.strerror or e}") from None
    for n, fig in summary["figures"].items():
        if int(n) not in plan.counts:
            click.echo(f"{n} players: rows kept from {plan.data_dir / plan.spec.policy_file}")
            continue
        gains = fig.get("best_response_gain")
        tail = f", best response gains {', '.join(f'{g:+.1f}' for g in gains)} chips a game by seat" if gains else ""
        click.echo(f"{n} players: {fig['information_sets']:,} information sets{tail}")
    click.echo(f"{game_name} CFR table: {summary['seconds']:.0f} s -> {plan.out / plan.spec.policy_file}")
