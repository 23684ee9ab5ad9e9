"""``golem styles``: the strategy styles of a game's apprentice against each other, and the meta-game they make.

Every pair of the plain apprentice and its styles (``seeds/<game>/styles.toml``, played as ``apprentice:style=NAME``)
plays one run of two-player games through the runner (seats rotated, so each holds each seat equally often); the
runs' seats tables make the win-rate matrix, its equilibrium and verdict (:func:`analysis.stats.metagame.meta_game`)
and each style's play profile (:func:`analysis.stats.profile.play_profile`). At more players every table of
:func:`style_tables` plays one run (seats rotated): each style against each other is then its share of the games of
both in which it finishes ahead (:func:`analysis.stats.metagame.table_scores`). What it writes: one run per pair (or
table), and ``matrix.csv``, ``weights.csv``, ``profile.csv`` and ``styles.md`` beside them.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from analysis.stats.metagame import MetaGame, meta_game, pair_scores, table_scores
from analysis.stats.profile import play_profile
from simulate.apprentice import PLAIN_STYLE, read_styles
from simulate.game import Game
from simulate.lineup import parse_lineup
from simulate.outputs import write_atomic
from simulate.registry import make
from simulate.runformat import read_table
from simulate.runner import RunSpec, check_workers, default_chunk_size, run

__all__ = [
    "StylesDesign",
    "StylesError",
    "StylesResult",
    "play_styles",
    "profile_change",
    "style_bots",
    "style_tables",
    "styles_lines",
]

APPRENTICE = "apprentice"


class StylesError(ValueError):
    """A styles design that cannot be played; the message is one line."""


@dataclass(frozen=True)
class StylesDesign:
    """The meta-game to play: ``num_games`` games of every pair of ``game``'s styles at 2 players (at more, of every
    table of :func:`style_tables`), from ``seed``."""

    game: str
    num_players: int = 2
    num_games: int = 400
    seed: int = 0


class StylesResult(NamedTuple):
    """What :func:`play_styles` found (read by name)."""

    design: StylesDesign
    bots: tuple[str, ...]
    """The plain apprentice, then each style's bot spec."""
    descriptions: dict[str, str]
    """Bot spec -> what the style plays, in a line."""
    meta: MetaGame
    profile: pd.DataFrame
    """:func:`analysis.stats.profile.play_profile` of every bot over all its games."""
    seconds: float


def style_bots(game: Game) -> dict[str, str]:
    """The plain apprentice and each of its styles as bot specs -> what each plays; ``StylesError`` when ``game``
    has no apprentice with styles."""
    spec = game.info.bots.get(APPRENTICE)
    names = spec.choices.get("style", ()) if spec is not None else ()
    if len(names) < 2:
        raise StylesError(f"{game.info.name} has no apprentice with strategy styles (seeds/<game>/styles.toml)")
    described = {s.name: s.description for s in read_styles(game.data_dir(), game.info.apprentice.features)}
    out = {APPRENTICE: "the apprentice as trained"}
    out |= {f"{APPRENTICE}:style={n}": described[n] for n in names if n != PLAIN_STYLE}
    return out


def style_tables(bots: tuple[str, ...], num_players: int) -> list[tuple[str, ...]]:
    """The tables of the meta-game at ``num_players``: with at least as many bots as seats, every set of different
    bots (at 2 players: every pair); with fewer, every bot once and the other seats every multiset of the bots (so no
    bot sits at more tables, or in more seats, than another). Each is a lineup whose seats the runner rotates."""
    if len(bots) >= num_players:
        return list(itertools.combinations(bots, num_players))
    return [(*bots, *extra) for extra in itertools.combinations_with_replacement(bots, num_players - len(bots))]


def _slug(bot: str) -> str:
    return bot.replace(":", "-").replace("=", "-")


def play_styles(
    design: StylesDesign,
    out: Path,
    workers: int | None = None,
    overwrite: bool = False,
    progress: bool = True,
    log: Callable[[str], None] = print,
) -> StylesResult:
    """Play every pair (at more players, every table) of ``design``'s styles into ``out`` (one run each) and write the
    matrix, equilibrium weights, play profiles and a short markdown beside the runs."""
    started = time.perf_counter()
    game = make(design.game)
    described = style_bots(game)
    n = design.num_players
    if n < 2 or not game.info.min_players <= n <= game.info.max_players:
        low = max(2, game.info.min_players)
        counts = f"{low}" if low == game.info.max_players else f"{low} to {game.info.max_players}"
        raise StylesError(f"-p {n}: the styles' meta-game of {game.info.name} is played at {counts} players")
    if design.num_games < n:
        raise StylesError(f"--games: at least {n} games a table (the seats rotate)")
    check_workers(workers)
    bots = tuple(described)
    tables = style_tables(bots, n)
    scores, seats = [], []
    for k, table in enumerate(tables):
        spec = RunSpec(
            game=design.game,
            num_players=n,
            num_games=design.num_games,
            master_seed=design.seed + k,
            lineup=parse_lineup(game, list(table), n),
            chunk_size=default_chunk_size(design.num_games),
        )
        folder = out / "-vs-".join(_slug(b) for b in table)
        log(f"  {k + 1}/{len(tables)} {' against '.join(table)}: {design.num_games:,} games -> {folder}")
        command = (
            f"golem simulate {design.game} -p {n} -n {design.num_games} --bots {','.join(table)} "
            f"--seed {spec.master_seed}"
        )
        run(spec, folder, workers=workers, overwrite=overwrite, progress=progress, command=command)
        table_seats = read_table(folder, "seats", ["game", "bot", "win", "rank", *game.info.profile_columns])
        table_seats["game"] = table_seats["game"].astype("int64") + k * design.num_games  # one numbering over the runs
        table_seats["bot"] = table_seats["bot"].astype(str)
        seats.append(table_seats)
        scores.append(pair_scores(table_seats) if n == 2 else table_scores(table_seats))
    all_seats = pd.concat(seats, ignore_index=True)
    meta = meta_game(pd.concat(scores, ignore_index=True), list(bots), random_state=design.seed)
    profile = play_profile(all_seats, game.info.profile_columns)
    result = StylesResult(design, bots, described, meta, profile, time.perf_counter() - started)
    _write(result, out)
    return result


def _write(result: StylesResult, out: Path) -> None:
    for name, frame in (("matrix", result.meta.matrix), ("weights", result.meta.weights), ("profile", result.profile)):
        write_atomic(out / f"{name}.csv", lambda path, f=frame: f.to_csv(path, index=False))
    text = "\n".join(styles_lines(result, markdown=True)) + "\n"
    write_atomic(out / "styles.md", lambda path: path.write_text(text, encoding="utf-8"))


def styles_lines(result: StylesResult, markdown: bool = False) -> list[str]:
    """The meta-game in lines: the verdict, each style's equilibrium weight with its interval, its win rate against
    the plain apprentice, what it plays and how its play profile differs, and the win-rate matrix."""
    d, meta = result.design, result.meta
    tables = len(style_tables(result.bots, d.num_players))
    games = d.num_games * tables
    head = "# " if markdown else ""
    each = "a pair" if d.num_players == 2 else f"a table, {tables} table{'s' * (tables > 1)} mixing the styles"
    lines = [
        f"{head}{d.game}: is there a dominant strategy? {meta.verdict}",
        "",
        f"Apprentice styles at {d.num_players} players, {d.num_games:,} games {each} ({games:,} games, seed {d.seed}, "
        f"seats rotated): {meta.reason}"
        + (f"; about {meta.more_games:,.0f} more games a pair would settle it." if 0 < meta.more_games < 1e12 else "."),
        "",
    ]
    m = meta.matrix.set_index(["strategy", "opponent"])
    w = meta.weights.set_index("strategy")
    mean = result.profile.pivot(index="bot", columns="mechanism", values="mean")
    rows = [("style", "equilibrium weight (95%)", f"vs {APPRENTICE}", "plays", "profile vs the apprentice")]
    for bot in result.bots:
        versus = "" if bot == APPRENTICE else _pct(m.loc[(bot, APPRENTICE)])
        diff = "" if bot == APPRENTICE else profile_change(mean, bot)
        weight = f"{w.at[bot, 'weight']:.2f} ({w.at[bot, 'ci_low']:.2f}-{w.at[bot, 'ci_high']:.2f})"
        rows.append((bot, weight, versus, result.descriptions[bot], diff))
    lines += _table(rows, markdown)
    caption = (
        "Win rate of the row against the column"
        if d.num_players == 2
        else "Share of the games of both in which the row finishes ahead of the column (a shared place counts half)"
    )
    lines += ["", f"{caption} (95% Wilson interval):", ""]
    grid = [("", *result.bots)]
    for a in result.bots:
        grid.append((a, *("-" if a == b else _pct(m.loc[(a, b)]) for b in result.bots)))
    lines += _table(grid, markdown)
    return lines


def _pct(row: pd.Series) -> str:
    return f"{row['win_rate']:.1%} ({row['ci_low']:.1%}-{row['ci_high']:.1%})"


def profile_change(mean: pd.DataFrame, bot: str, count: int = 3) -> str:
    """The ``count`` mechanisms whose use per game differs most (relatively) from the plain apprentice's."""
    base, own = mean.loc[APPRENTICE], mean.loc[bot]
    change = (own - base) / base.where(base > 0)
    top = change.abs().dropna().sort_values(ascending=False).index[:count]
    return ", ".join(f"{c} {own[c]:.1f} ({change[c]:+.0%})" for c in top)


def _table(rows: list[tuple[str, ...]], markdown: bool) -> list[str]:
    if markdown:
        out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
        return out + ["| " + " | ".join(r) + " |" for r in rows[1:]]
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return ["  ".join(c.ljust(wd) for c, wd in zip(r, widths, strict=True)).rstrip() for r in rows]
