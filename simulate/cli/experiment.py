"""The what-if commands ``golem sweep``, ``golem ablate``, ``golem balance``, ``golem tune`` and ``golem values``.

Thin click wrappers over ``simulate.orchestration.experiments``, ``simulate.orchestration.balance_search`` and
``analysis.report.experiment`` (registered on the ``golem`` group at the end of ``simulate.cli``).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from simulate.cli.params import BotsOption, KeyValue, distinct_keys, refit_option, refit_settings, refitted_cards

_COUNT = click.IntRange(min=1)  # games, budgets: checked before anything is written
_SEED = click.IntRange(0, 2**64 - 1)


def _one_line(e: Exception) -> click.ClickException:
    return click.ClickException(" ".join(str(e).split()))


def _errors() -> tuple[type[Exception], ...]:
    from analysis.stats.sequential import StopRuleError
    from simulate.datafiles import DataError
    from simulate.lineup import LineupError
    from simulate.orchestration.refit import RefitError
    from simulate.registry import UnknownName
    from simulate.runformat import RunFormatError
    from simulate.runner import RunError
    from simulate.variants import VariantError

    return (
        RefitError,
        UnknownName,
        LineupError,
        RunError,
        DataError,
        VariantError,
        StopRuleError,
        RunFormatError,
        ValueError,
        OSError,
    )


def rebuild_command(ctx: click.Context) -> str:
    """The command line as typed, rebuilt from the parsed parameters (defaults left out)."""
    words: list[str] = ["golem", ctx.info_name or ""]
    for param in ctx.command.params:
        value = ctx.params.get(param.name)
        if isinstance(param, click.Argument):
            words += [str(v) for v in (value if isinstance(value, tuple) else (value,)) if v is not None]
            continue
        if value is None or value == param.default or (param.multiple and not value):
            continue
        opt = param.opts[0]
        if getattr(param, "is_flag", False):
            if param.secondary_opts:
                words.append(opt if value else param.secondary_opts[0])
            elif value:
                words.append(opt)
            continue
        for v in value if param.multiple else (value,):
            words += [opt, f"{v[0]}={v[1]}" if isinstance(v, tuple) else str(v)]
    return " ".join(shlex.quote(w) for w in words)


_REPORT = click.option(
    "--report", "report_dir", type=click.Path(path_type=Path), help="Report directory [default: OUT/report]."
)
_WORKERS = click.option("--workers", "-w", type=int, default=None, help="Worker processes [default: all cores].")


def _report_and_workers(f: Callable) -> Callable:
    """The --report and --workers options of the search commands."""
    return _REPORT(_WORKERS(f))


def _experiment_options(f: Callable) -> Callable:
    """Options every experiment command shares."""
    options = [
        click.option("--players", "-p", type=int, required=True, help="Number of players."),
        click.option(
            "--bots",
            "bot_list",
            cls=BotsOption,
            default=None,
            help="Bots, one per seat or one for all (as for simulate)",
        ),
        click.option(
            "--games",
            "-n",
            "num_games",
            type=_COUNT,
            default=10_000,
            show_default=True,
            help="Games per variant (per round with --precision or --test).",
        ),
        click.option("--seed", type=_SEED, default=0, show_default=True, help="Master seed of the first round."),
        click.option(
            "--out",
            "-o",
            type=click.Path(path_type=Path),
            default=None,
            help="Experiment directory [default: runs/COMMAND-GAME].",
        ),
        _REPORT,
        _WORKERS,
        click.option(
            "--cards",
            type=click.Path(path_type=Path),
            default=None,
            help="Base data folder (a copy of seeds/GAME) that every variant changes.",
        ),
        click.option(
            "--rule",
            "rules",
            type=KeyValue(),
            multiple=True,
            callback=distinct_keys,
            help="Rule option of every variant (KEY=VALUE).",
        ),
        click.option(
            "--precision",
            type=float,
            default=None,
            help="Play rounds until every win-rate interval is at most +/- this many percentage points.",
        ),
        click.option(
            "--test",
            "test",
            default=None,
            help="Play rounds until this sequential test is decided for every variant, e.g. 'seat1 > 1/n + 0.01'.",
        ),
        click.option(
            "--max-games",
            type=_COUNT,
            default=None,
            help="Games per variant at most with --precision/--test [default: 20 rounds].",
        ),
        click.option("--fixed-seats", is_flag=True, help="Keep the bot order as given instead of rotating seats."),
        click.option(
            "--unpaired", is_flag=True, help="Give every variant its own seeds (to measure what pairing buys)."
        ),
        click.option("--overwrite", is_flag=True, help="Replace an experiment already in --out."),
        click.option("--quiet", "-q", is_flag=True, help="No progress output."),
        click.option(
            "--ladder",
            is_flag=True,
            help="Play the experiment at every affordable rung of the game's skill ladder (each bot in every seat; "
            "not random or search), one experiment each in OUT/<rung>, and say whether each effect holds at every "
            "skill level.",
        ),
        refit_option(
            "one training per variant whose data has not been refitted before (the baseline of the shipped data "
            "needs none; --ladder's rungs reuse them), each as long as golem train GAME (seeds/GAME/apprentice.toml "
            "records its seconds), all before the first game"
        ),
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _design(game_name: str, variants: list, o: dict[str, Any]):
    from simulate.orchestration.card_value import ladder_lineups
    from simulate.orchestration.experiments import Design
    from simulate.registry import make

    game = make(game_name)
    bots = _bots(game, o["bot_list"])
    refit = refit_settings(o["refit_apprentice"])
    if refit is not None:
        _check_refit(
            game.info.name, o["players"], [bots] if not o["ladder"] else [[r] for r in ladder_lineups(game.info.name)]
        )
    return Design(
        game=game.info.name,
        num_players=o["players"],
        bots=tuple(bots),
        variants=tuple(variants),
        num_games=o["num_games"],
        seed=o["seed"],
        rotate=not o["fixed_seats"],
        cards=str(o["cards"]) if o["cards"] else None,
        rules=dict(o["rules"]),
        paired=not o["unpaired"],
        precision=o["precision"],
        test=o["test"],
        max_games=o["max_games"],
        refit=refit,
    )


def _check_refit(game_name: str, players: int, lineups: list[list[str]]) -> None:
    """Refuse ``--refit-apprentice`` (one line) when the game has no apprentice or no lineup plays one."""
    from simulate.lineup import parse_lineup
    from simulate.orchestration.refit import check_refit
    from simulate.registry import make

    game = make(game_name)
    check_refit(game.info.name, [[e.to_json() for e in parse_lineup(game, bots, players)] for bots in lineups])


def _bots(game, bot_list: str | None) -> list[str]:
    """The bots of ``--bots``, or the game's recommended lineup when it is not given."""
    if bot_list is None:
        return game.info.default_bots.split(",")
    bots = bot_list.split(",")
    if any(not b.strip() for b in bots):
        raise ValueError(f"--bots '{bot_list}' has an empty bot between commas")
    return bots


def _run_and_report(kind: str, design, o: dict[str, Any], command: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from simulate.orchestration.card_value import ladder_lineups
    from simulate.orchestration.experiments import run_experiment, run_levels, rung_folder
    from simulate.outputs import Output, check_outputs

    out = o["out"] or Path("runs") / f"{kind}-{design.game}"
    log = None if o["quiet"] else click.echo
    if o.get("ladder"):
        if o["bot_list"] is not None:
            raise ValueError("give --ladder or --bots, not both")
        if o["report_dir"] is not None:
            raise ValueError("--ladder writes a report in each rung's experiment (OUT/<rung>/report): give no --report")
        rungs = ladder_lineups(design.game)
        rung_outs = [Output("--out", rung_folder(out, k, rung), "experiment") for k, rung in enumerate(rungs)]
        check_outputs(rung_outs, overwrite=o["overwrite"])
        exps, levels = run_levels(design, rungs, out, kind, command, o["workers"], o["overwrite"], log, reports=True)
        shown = levels[levels["quantity"].str.fullmatch(r"seat\d+|margin1")]
        for r in shown.itertuples():
            click.echo(f"{r.variant_name}, {r.quantity}: {r.verdict} ({r.by_rung})")
        _say_fit(exps)
        click.echo(f"wrote {len(exps)} experiments under {out} ({', '.join(rungs)}), each with its report")
        return
    report_dir = o["report_dir"] or out / "report"
    check_outputs([Output("--out", out, "experiment"), _report_output(o, out)], overwrite=o["overwrite"])
    exp = run_experiment(
        design,
        out,
        kind=kind,
        command=command,
        workers=o["workers"],
        overwrite=o["overwrite"],
        log=log,
        report_dir=report_dir,
    )
    click.echo(f"stopped: {exp.manifest['stopped']['reason']}")
    _say_fit([exp])
    click.echo(f"wrote {out / 'experiment.json'} and {Path(report_dir) / 'report.html'} (+ report.md)")
    _say_recommended(design.game, o)


def _say_fit(exps: list) -> None:
    """Say the skill level the answers were measured at, and which apprentice played the variants where one was
    fitted on other data than a variant's (the report's summary line and caution, each once)."""
    from analysis.experiment import learned_fit_caution, measured_skill

    for line in dict.fromkeys(text for exp in exps for text in (measured_skill(exp), learned_fit_caution(exp))):
        if line:
            click.echo(line)


def _report_output(o: dict[str, Any], out: Path):
    """The report a command writes: ``--report``, or its own ``OUT/report``."""
    from simulate.outputs import Output

    return Output("--report", o["report_dir"] or out / "report", "report", within=out)


def _say_recommended(game_name: str, o: dict[str, Any]) -> None:
    """Name the recommended lineup a command played because ``--bots`` was not given (as simulate does)."""
    if o["bot_list"] is None and not o["quiet"]:
        from simulate.registry import make

        game = make(game_name)
        click.echo(
            f"bots: {game.info.default_bots}, the recommended lineup of {game.info.name} (choose others with --bots)"
        )


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option(
    "--set",
    "sets",
    type=KeyValue(),
    multiple=True,
    required=True,
    help="NAME=V1,V2,... or NAME=LO:HI[:STEP]: a data value or rule option and the values to try.",
)
@click.option(
    "--design",
    "design_kind",
    type=click.Choice(["grid", "oat"]),
    default="grid",
    show_default=True,
    help="Every combination of the values (grid) or one value changed at a time (oat).",
)
@_experiment_options
@click.pass_context
def sweep(ctx: click.Context, game_name: str, sets, design_kind: str, **o) -> None:
    """Play variants of GAME with changed values on the same games and report their effects.

    Any value of the game's data or rule options can be set (list them with 'golem values GAME'):
    a card table cell as TABLE.ID.COLUMN, a game.toml value as KEY or SECTION.KEY (list elements
    as KEY.K, or KEY.seatK and KEY.playersN in lists by seat or player count), a rule option by its name.

    \b
    Examples:
      golem sweep century -p 3 --set points.P36.vp=18,20,22 --set start.seat1=YYY,YYYY   # bots: greedy
      golem sweep century -p 3 --bots greedy,engine,planner --set copper_vp=1:5 --precision 0.5
      golem sweep golem-poker -p 4 --set penalty_antes=0:4 --test 'seat1 > 1/n'
    """
    from simulate.orchestration.experiments import sweep_variants
    from simulate.registry import make
    from simulate.variants import settable_values

    try:
        game = make(game_name)
        values = settable_values(game, o["cards"])
        variants = sweep_variants(values, [(k, str(v)) for k, v in sets], design_kind)
        _run_and_report("sweep", _design(game_name, variants, o), o, rebuild_command(ctx))
    except _errors() as e:
        raise _one_line(e) from None


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option("--remove", "removes", multiple=True, help="Component id(s) to take out: M09, or M09+M10 together.")
@click.option(
    "--replace",
    "replaces",
    type=KeyValue(),
    multiple=True,
    help="ID=OTHER: component ID takes the values of component OTHER.",
)
@click.option(
    "--set", "sets", type=KeyValue(), multiple=True, help="NAME=VALUE: one more variant with one value changed."
)
@_experiment_options
@click.pass_context
def ablate(ctx: click.Context, game_name: str, removes, replaces, sets, **o) -> None:
    """Measure the effect of removing or changing components of GAME, each against the full game.

    Every variant's effect on each seat's win rate and score margin, each bot's win rate and the
    game's length is reported with paired intervals. Prefer --replace to --remove where you can:
    replacing a card keeps the deck's size and order, so the games stay paired (narrow intervals);
    removing one reshuffles every later draw. --ladder plays it at every affordable skill level.

    \b
    Examples:
      golem ablate century -p 3 --remove M09 --remove M10+M11    # bots: the recommended lineup, greedy
      golem ablate century -p 3 --bots planner --replace M09=M10 --precision 0.5
    """
    from simulate.orchestration.experiments import ablation_variants

    try:
        variants = ablation_variants(list(removes), [(k, str(v)) for k, v in replaces], [(k, v) for k, v in sets])
        _run_and_report("ablation", _design(game_name, variants, o), o, rebuild_command(ctx))
    except _errors() as e:
        raise _one_line(e) from None


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option("--pattern", default="*", show_default=True, help="Show only names matching this glob.")
def values(game_name: str, pattern: str) -> None:
    """List the values of GAME that sweep, ablate and balance can set, with their current values.

    \b
    Examples:
      golem values century --pattern 'start.*'
      golem values golem-poker
    """
    import fnmatch

    from simulate.registry import make
    from simulate.variants import settable_values

    try:
        vals = settable_values(make(game_name))
    except _errors() as e:
        raise _one_line(e) from None
    shown = {}
    for name, v in vals.items():
        if fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(v.name, pattern):
            shown.setdefault(v.name, []).append(name)
    for canonical, names in shown.items():
        v = vals[canonical]
        aliases = [n for n in names if n != canonical]
        also = f"  (also {', '.join(aliases)})" if aliases else ""
        click.echo(f"{canonical} = {v.value!r}{also}")


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option("--players", "-p", type=int, required=True, help="Number of players.")
@click.option(
    "--bots", "bot_list", cls=BotsOption, default=None, help="Bots, one per seat or one for all (as for simulate)"
)
@click.option(
    "--vary",
    multiple=True,
    required=True,
    help="Values to search: a name or glob (start.*), optionally =V1,V2,... or =LO:HI to give the candidates.",
)
@click.option(
    "--target",
    default="seat-advantage",
    show_default=True,
    help="seat-advantage, margin, QUANTITY=VALUE (seat1=fair, greedy=0.5) or -QUANTITY (maximise).",
)
@click.option("--games", "-n", "num_games", type=_COUNT, default=4000, show_default=True, help="Games per evaluation.")
@click.option("--budget", type=_COUNT, default=40, show_default=True, help="Distinct settings to evaluate at most.")
@click.option(
    "--confirm-games", type=_COUNT, default=20_000, show_default=True, help="Fresh games to re-measure the best."
)
@click.option(
    "--ladder",
    is_flag=True,
    help="Also confirm the best setting at every affordable rung of the game's skill ladder and at its strongest "
    "(each bot in every seat): does the fix hold at every skill level?",
)
@click.option(
    "--levels",
    default=None,
    help="Bots to confirm the best setting at, comma-separated, each in every seat (instead of --ladder's).",
)
@click.option(
    "--strong-games",
    type=_COUNT,
    default=2000,
    show_default=True,
    help="Fresh games for a search bot's confirmation (a search plays about 100x slower than a heuristic).",
)
@click.option("--seed", type=_SEED, default=0, show_default=True, help="Master seed of the search games.")
@click.option("--out", "-o", type=click.Path(path_type=Path), default=None, help="Output [default: runs/balance-GAME].")
@_report_and_workers
@click.option("--cards", type=click.Path(path_type=Path), default=None, help="Base data folder to start from.")
@click.option(
    "--rule",
    "rules",
    type=KeyValue(),
    multiple=True,
    callback=distinct_keys,
    help="Rule option of every evaluation (KEY=VALUE).",
)
@click.option("--overwrite", is_flag=True, help="Replace what is in --out.")
@refit_option(
    "one training per distinct setting the search plays (up to --budget of them; the confirmation and "
    "--ladder/--levels reuse them), each as long as golem train GAME (seeds/GAME/apprentice.toml records its "
    "seconds): the search takes --budget times that longer"
)
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@click.pass_context
def balance(ctx: click.Context, game_name: str, **o) -> None:
    """Search values of GAME for the setting closest to a balance target, and confirm it on fresh games.

    SciPy's differential evolution searches the declared space; every evaluation plays the same
    games, and the best setting is re-measured against the current values on fresh games.

    With --ladder (or --levels) the best setting is also re-measured at other skill levels, and the
    report says whether the fix holds at every level, changes with skill or is unresolved (with the
    games that would settle it): search with the strongest affordable bot, confirm at the strongest.

    \b
    Examples:
      golem balance century -p 3 --vary 'start.*' --target seat-advantage    # bots: greedy
      golem balance century -p 3 --bots engine --vary start.seat1 --vary copper_vp=1:5 --budget 30
      golem balance century -p 3 --bots apprentice --vary 'start.seat[1-3]' --ladder
      golem balance golem-poker -p 4 --vary player_tie --target seat1=fair
    """
    import matplotlib

    matplotlib.use("Agg")
    from simulate.orchestration.balance_search import run_balance
    from simulate.registry import make

    try:
        game = make(game_name)
        bots = _bots(game, o["bot_list"])
        levels = _levels(game_name, o)
        refit = refit_settings(o["refit_apprentice"])
        if refit is not None:
            _check_refit(game.info.name, o["players"], [bots, *[[level] for level in levels]])
    except _errors() as e:
        raise _one_line(e) from None
    _run_search(
        ctx,
        o,
        run_balance,
        game_name,
        o["players"],
        bots,
        list(o["vary"]),
        target=o["target"],
        out=o["out"] or Path("runs") / f"balance-{game_name}",
        levels=levels,
        strong_games=o["strong_games"],
        refit=refit,
    )
    _say_recommended(game.info.name, o)


@click.command()
@click.argument("game_name", metavar="GAME")
@click.option("--players", "-p", type=int, required=True, help="Number of players.")
@click.option("--bot", "bot", required=True, help="The bot whose numeric parameters are tuned.")
@click.option("--field", default=None, help="Opponents, comma-separated [default: the bot with its defaults].")
@click.option("--param", "params", multiple=True, help="Parameter to tune (repeatable) [default: all].")
@click.option(
    "--range", "ranges", type=KeyValue(), multiple=True, help="PARAM=LO:HI bounds [default: 0 to 2x default]."
)
@click.option("--games", "-n", "num_games", type=_COUNT, default=3000, show_default=True, help="Games per evaluation.")
@click.option("--budget", type=_COUNT, default=40, show_default=True, help="Distinct settings to evaluate at most.")
@click.option(
    "--confirm-games", type=_COUNT, default=10_000, show_default=True, help="Fresh games per confirmation run."
)
@click.option(
    "--ladder",
    is_flag=True,
    help="Also measure the tuned bot's gain against every affordable rung of the game's skill ladder and its "
    "strongest (the rung's bot in every other seat): does the gain hold at every skill level?",
)
@click.option(
    "--levels",
    default=None,
    help="Opponents to measure the gain against, comma-separated, each in every other seat (instead of --ladder's).",
)
@click.option(
    "--strong-games",
    type=_COUNT,
    default=2000,
    show_default=True,
    help="Fresh games against a search bot (a search plays about 100x slower than a heuristic).",
)
@click.option("--seed", type=_SEED, default=0, show_default=True, help="Master seed of the search games.")
@click.option(
    "--out", "-o", type=click.Path(path_type=Path), default=None, help="Output [default: runs/tune-GAME-BOT]."
)
@_report_and_workers
@click.option("--cards", type=click.Path(path_type=Path), default=None, help="Data folder to play.")
@click.option(
    "--rule", "rules", type=KeyValue(), multiple=True, callback=distinct_keys, help="Rule option (KEY=VALUE)."
)
@click.option("--overwrite", is_flag=True, help="Replace what is in --out.")
@refit_option()
@click.option("--quiet", "-q", is_flag=True, help="No progress output.")
@click.pass_context
def tune(ctx: click.Context, game_name: str, **o) -> None:
    """Tune a bot's numeric parameters against a field of bots and check balance under stronger play.

    Writes OUT/tuned.bot, which --bot and --bots accept as @OUT/tuned.bot, and a report with the
    tuned bot's gain on fresh games and the seat-balance verdict at both skill levels. With --ladder (or
    --levels) the gain is also measured against other opponents' skill levels, and the report says
    whether it holds at every level, changes with skill or is unresolved.

    \b
    Examples:
      golem tune century -p 3 --bot greedy
      golem tune century -p 3 --bot greedy --field engine,greedy --param patience --range patience=0:3
      golem tune century -p 2 --bot greedy --field planner --ladder
      golem simulate century -p 3 --bot @runs/tune-century-greedy/tuned.bot -n 100000 --out runs/strong
    """
    import matplotlib

    matplotlib.use("Agg")
    from simulate.orchestration.balance_search import run_tune

    try:
        levels = _levels(game_name, o)
        if o["refit_apprentice"]:  # one data folder, played by every evaluation: refitted once
            bots = [o["bot"], *(o["field"] or "").split(","), *levels]
            _check_refit(game_name, o["players"], [[bot] for bot in bots if bot.strip()])
            o["cards"] = refitted_cards(game_name, o["cards"], dict(o["rules"]), o["workers"], o["quiet"])
    except _errors() as e:
        raise _one_line(e) from None
    _run_search(
        ctx,
        o,
        run_tune,
        game_name,
        o["players"],
        o["bot"],
        field=[b for b in (o["field"] or "").split(",") if b.strip()],
        params=list(o["params"]),
        ranges={k: str(v) for k, v in o["ranges"]},
        out=o["out"] or Path("runs") / f"tune-{game_name}-{o['bot']}",
        levels=levels,
        strong_games=o["strong_games"],
    )


def _levels(game_name: str, o: dict) -> tuple[str, ...]:
    """The skill levels of ``--ladder`` (every affordable rung and the strongest) or ``--levels``."""
    from simulate.orchestration.card_value import ladder_lineups
    from simulate.registry import make

    if o["ladder"] and o["levels"]:
        raise ValueError("give --ladder or --levels, not both")
    if o["ladder"]:
        return tuple(dict.fromkeys((*ladder_lineups(game_name), make(game_name).info.skill_ladder[-1])))
    return tuple(b.strip() for b in (o["levels"] or "").split(",") if b.strip())


def _run_search(ctx: click.Context, o: dict, run, *args, **kwargs) -> None:
    """Run ``balance`` or ``tune`` (``run``) with the options the two share, as one line on failure."""
    from simulate.outputs import Output, check_outputs

    try:
        out = kwargs["out"]
        check_outputs([Output("--out", out, "search"), _report_output(o, out)], overwrite=o["overwrite"])
        path = run(
            *args,
            **kwargs,
            num_games=o["num_games"],
            budget=o["budget"],
            seed=o["seed"],
            report_dir=o["report_dir"],
            workers=o["workers"],
            cards=str(o["cards"]) if o["cards"] else None,
            rules=dict(o["rules"]),
            confirm_games=o["confirm_games"],
            command=rebuild_command(ctx),
            log=None if o["quiet"] else click.echo,
            overwrite=o["overwrite"],
        )
    except _errors() as e:
        raise _one_line(e) from None
    confirm = Path(out) / "confirm"
    if (confirm / "experiment.json").is_file():  # balance: the fix's confirmation, as its report states it
        from analysis.experiment import load_experiment

        _say_fit([load_experiment(confirm)])
    click.echo(f"wrote {path} (+ report.md)")
