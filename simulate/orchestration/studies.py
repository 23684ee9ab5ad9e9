"""Standard studies: for each game, a declared list of runs that together answer the balance questions.

A study is data: which player counts, which lineups (mirror matches for the first-player
advantage, mixed bots for strategy strength, replayed setups for setup variance) and what share of
the study's games each run gets. :func:`run_study` plays the runs with :func:`simulate.runner.run`
and builds one combined report. Another game plugs in by adding its :class:`Study` to
:data:`STUDIES`.

Examples
--------
>>> plan = plan_study("century", num_games=100_000)  # doctest: +SKIP
>>> [(p.name, p.spec.num_games) for p in plan]  # doctest: +SKIP
"""

from __future__ import annotations

import math
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from analysis.report import build_report
from analysis.stats.seats import win_rates
from simulate.lineup import parse_lineup
from simulate.orchestration.card_value import component_groups
from simulate.registry import make
from simulate.runformat import RunFormatError, read_manifest, run_tables, verify_run
from simulate.runner import RunError, RunSpec, check_workers, default_chunk_size, run, run_id, validate

__all__ = [
    "STUDIES",
    "PlannedRun",
    "PrecisionTarget",
    "Study",
    "StudyRun",
    "plan_study",
    "play_to_precision",
    "precision_targets",
    "run_study",
    "study_for",
    "topup_games",
    "widest_half_width",
]


@dataclass(frozen=True)
class StudyRun:
    """One run of a study: lineup, player count and share of the study's games."""

    name: str
    """Directory name under the study's runs directory."""
    num_players: int
    bots: tuple[str, ...]
    """One bot for a mirror match, or one per seat (``name[:key=value...]``)."""
    share: float
    """Fraction of the study's games this run plays."""
    games_per_setup: int = 1
    """More than 1: a setup-variance design, each setup replayed this often with seats rotated."""
    orders_per_opening: int = 1
    """More than 1: each public opening dealt over this many hidden orders (setups), each replayed
    ``games_per_setup`` times: the nested design that splits setup variance into opening and hidden order."""
    purpose: str = ""
    rules: tuple[tuple[str, str], ...] = ()
    """Rule options this run changes, ``(name, value)`` pairs (on top of the study's own ``rules``)."""
    seed_group: str = ""
    """Runs of one non-empty group play the same games: the master seed of the group's first run (the arms of a
    paired value design)."""


@dataclass(frozen=True)
class Study:
    """A game's standard study."""

    game: str
    default_games: int
    runs: tuple[StudyRun, ...]
    description: str = ""
    ladder: tuple[tuple[str, float], ...] = ()
    """Skill-ladder rungs the study adds as mirror matches, ``(bot, share)`` at each of ``ladder_players``; a rung
    already played as a mirror match at that count is not played again. The game's ``skill_ladder`` orders them."""
    ladder_players: tuple[int, ...] = ()
    search_share: float = 0.0005
    """Share of each search rung: every rung of the game's ``skill_ladder`` whose bot is ``search`` (a budget such
    as ``search:iterations=25``) joins ``ladder`` with this share, so a game adds a search rung in one line, in
    its ``skill_ladder``."""
    search_precision: float = 0.02
    """After its runs, the study tops up each search rung at each ladder player count until every seat's win-rate
    interval reaches at most this far from its estimate (±2 pp)..."""
    cheap_precision: float = 0.01
    """...and the strongest cheap rung (the strongest non-search bot of the game's ``skill_ladder`` played as a
    mirror match at that count) until ±1 pp."""
    precision_share: float = 0.002
    """The most games the top-ups of one rung at one player count may add, as a share of the study's games: the
    budget that keeps a sequential study finite (and, being a count of games, reproducible). 2,000 games at a
    1,000,000-game study: about what ±2 pp needs at 2-4 players; a 3-player search game of Golem costs about
    0.5-1 s of wall time on 2 shared cores, so a game whose search is that slow keeps this share small."""
    precision_rounds: int = 3
    """At most this many top-up rounds, each sized from the intervals the previous rounds reached."""
    skill_luck_share: float = 0.002
    """Share of the run of the ladder's weakest rung against its strongest cheap rung (the strongest non-search bot
    of the game's ``skill_ladder``), alternating around the table at the smallest ladder player count: the report's
    skill against luck (``analysis.stats.ladder.skill_and_luck``)."""
    value_players: tuple[int, ...] = ()
    """Player counts of the card-value design (``simulate.orchestration.card_value``, docs/card-value.md): a baseline
    and one run per card group with one more copy of the card dealt at setup to one seat, all on the same games,
    played by the strongest non-search rung of the game's ``skill_ladder``."""
    value_share: float = 0.0
    """Games of each arm of the value design, as a share of the study's games; these come on top of the study's
    runs. Below ``value_min_games`` games an arm the design is not played (too few games to value a card)."""
    value_min_games: int = 200


def _ladder_runs(study: Study) -> tuple[StudyRun, ...]:
    """The mirror matches the study's skill ladder adds to its runs."""
    mirrors = {(r.num_players, r.bots[0]) for r in study.runs if len(r.bots) == 1 and not r.rules}
    searches = [bot for bot in make(study.game).skill_ladder if bot.split(":")[0] == "search"]
    rungs = (*study.ladder, *((bot, study.search_share) for bot in searches))
    return tuple(
        StudyRun(
            f"{study.game}-{n}p-ladder-{bot.replace(':', '-').replace('=', '-')}",
            n,
            (bot,),
            share,
            purpose=f"skill ladder, {bot}, {n} players",
        )
        for n in study.ladder_players
        for bot, share in rungs
        if (n, bot) not in mirrors and share > 0
    )


def _skill_luck_runs(study: Study) -> tuple[StudyRun, ...]:
    """The run of the ladder's weakest rung against its strongest cheap rung (none without a ladder)."""
    ladder = [bot for bot in make(study.game).skill_ladder if bot.split(":")[0] != "search"]
    if len(ladder) < 2 or not study.ladder_players or study.skill_luck_share <= 0:
        return ()
    n = min(study.ladder_players)
    bots = tuple(ladder[-1] if k % 2 else ladder[0] for k in range(n))
    purpose = f"skill against luck, {ladder[0]} against {ladder[-1]}, {n} players"
    return (StudyRun(f"{study.game}-{n}p-skill-luck", n, bots, study.skill_luck_share, purpose=purpose),)


def _value_runs(study: Study, total: int) -> tuple[StudyRun, ...]:
    """The arms of the study's card-value design: at each of ``value_players``, a baseline and one run per card
    group with a value design, sharing their games (none when an arm would play fewer than ``value_min_games``)."""
    if not study.value_players or study.value_share * total < study.value_min_games:
        return ()
    ladder = [b for b in make(study.game).skill_ladder if b.split(":")[0] != "search"]
    bot = ladder[-1]
    groups = component_groups(study.game)
    cards = groups.loc[groups["design"] != "", "component"].tolist()
    option = next(iter(make(study.game).value_designs.values()))
    runs = []
    for n in study.value_players:
        group = f"value-{n}p"
        runs.append(
            StudyRun(
                f"{study.game}-{n}p-value-baseline",
                n,
                (bot,),
                study.value_share,
                purpose=f"card value, baseline, {n} players",
                seed_group=group,
            )
        )
        runs += [
            StudyRun(
                f"{study.game}-{n}p-value-{card}",
                n,
                (bot,),
                study.value_share,
                purpose=f"card value, {card}, {n} players",
                rules=((option, card),),
                seed_group=group,
            )
            for card in cards
        ]
    return tuple(runs)


def _rule_runs(
    prefix: str, players: int, bots: tuple[str, ...], share: float, options: tuple[tuple[str, str, str], ...]
) -> tuple[StudyRun, ...]:
    """One run per ``(name, option, value)``: the lineup under that rule option, compared with its default-rules run."""
    return tuple(
        StudyRun(f"{prefix}-{name}", players, bots, share, purpose=f"rule option {k}={v}", rules=((k, v),))
        for name, k, v in options
    )


STUDIES: dict[str, Study] = {
    "century": Study(
        game="century",
        default_games=1_000_000,
        description=(
            "apprentice mirror matches at 2-5 players (first-player advantage under the strongest player the study "
            "can afford at this size: the apprentice learned from the search bot), the heuristic bots and the "
            "apprentice rotated through the seats at 3 and 4 players (bot strength), 3-player apprentice games "
            "dealing each public opening over 4 hidden deck orders, each played 3 times (setup variance: opening, "
            "hidden order and the players' own randomness), and mirror matches at every other rung of the skill "
            "ladder (greedy up to the search bot) to say at which skill levels each answer holds, and a paired "
            "card-value design at 3 players (apprentice games played as printed and with one more copy of each "
            "merchant card dealt at setup to one seat: what each card is worth to its holder)"
        ),
        runs=(
            StudyRun("century-2p-mirror", 2, ("apprentice",), 0.14, purpose="first-player advantage, 2 players"),
            StudyRun("century-3p-mirror", 3, ("apprentice",), 0.14, purpose="first-player advantage, 3 players"),
            StudyRun("century-4p-mirror", 4, ("apprentice",), 0.14, purpose="first-player advantage, 4 players"),
            StudyRun("century-5p-mirror", 5, ("apprentice",), 0.14, purpose="first-player advantage, 5 players"),
            # The planner plays ~1,700 games/s per core and the apprentice ~1,000 against ~20,000 for greedy.
            StudyRun(
                "century-3p-mixed", 3, ("greedy", "planner", "apprentice"), 0.05, purpose="bot strength, 3 players"
            ),
            StudyRun(
                "century-4p-mixed",
                4,
                ("greedy", "engine", "planner", "apprentice"),
                0.05,
                purpose="bot strength, 4 players",
            ),
            StudyRun(
                "century-3p-setups",
                3,
                ("apprentice",),
                0.2,
                games_per_setup=3,
                orders_per_opening=4,
                purpose="setup variance",
            ),
        ),
        ladder=(("random", 0.01), ("greedy", 0.02), ("engine", 0.01), ("planner", 0.005)),
        ladder_players=(2, 3, 4),
        # 46 arms (45 merchant cards and the baseline) of 1,000 apprentice games at the default size: ~3 min on 2 cores
        value_players=(3,),
        value_share=0.001,
    ),
    "golem-poker": Study(
        game="golem-poker",
        default_games=1_000_000,
        description=(
            "threshold mirror matches at 3-6 players (value of each position relative to the amulet, house take, "
            "deals per pot, golem wins), a 4-player mirror of the golem-weakening discard policy beside the "
            "default improving one (golem wins by discard policy), the threshold styles and the bluffer rotated at "
            "6 players (which strategy profits), the two discard policies at one table, a small run with the "
            "sampling equity bot (strong reference), and the 4-player threshold mirror under each balance-relevant "
            "rule option (side by side with the default rules); no setup-variance run: the threshold bots are "
            "deterministic and a replayed deal would repeat the same pot"
        ),
        runs=(
            StudyRun("poker-3p-threshold", 3, ("threshold",), 0.10, purpose="positions and house take, 3 players"),
            StudyRun("poker-4p-threshold", 4, ("threshold",), 0.10, purpose="positions and house take, 4 players"),
            StudyRun("poker-5p-threshold", 5, ("threshold",), 0.10, purpose="positions and house take, 5 players"),
            StudyRun("poker-6p-threshold", 6, ("threshold",), 0.10, purpose="positions and house take, 6 players"),
            StudyRun(
                "poker-4p-weaken",
                4,
                ("threshold:discard=1",),
                0.08,
                purpose="golem wins when every player weakens the golem",
            ),
            StudyRun(
                "poker-6p-styles",
                6,
                ("tight_passive", "tight_aggressive", "loose_passive", "loose_aggressive", "bluffer", "random"),
                0.111,  # 0.131 before the cfr rungs took 0.02
                purpose="which strategy profits",
            ),
            StudyRun(
                "poker-4p-discards",
                4,
                ("threshold:discard=0", "threshold:discard=1", "threshold:discard=0", "threshold:discard=1"),
                0.08,
                purpose="discard policy: improve own hand against weaken the golem",
            ),
            # The equity bot samples hands at every decision: thousands of games per second, not hundreds of thousands.
            StudyRun(
                "poker-4p-equity",
                4,
                ("equity", "tight_aggressive", "loose_passive", "bluffer"),
                0.005,
                purpose="strong reference",
            ),
            *_rule_runs(
                "poker-4p",
                4,
                ("threshold",),
                0.04,
                (
                    ("golem-tie-player", "golem_tie", "player"),
                    ("golem-short-deck", "golem_short", "deck"),
                    ("golem-short-none", "golem_short", "none"),
                    ("golem-folded-off", "golem_folded", "false"),
                    ("penalty-4", "penalty_antes", "4"),
                    ("redeal-ante", "redeal_ante", "true"),
                    ("rank-one-high", "rank_one", "high"),
                ),
            ),
        ),
        ladder=(("random", 0.008), ("equity", 0.002), ("cfr", 0.01)),  # cfr: a table lookup a decision
        ladder_players=(4, 6),
        search_share=0.002,  # 2,000 games a rung at the default size: a few ms of CPU per game
    ),
    "golem": Study(
        game="golem",
        default_games=200_000,
        description=(
            "apprentice mirror matches at 2-4 players (advantage of each place in the turn order drawn at setup, under "
            "the strongest player the study can afford: the apprentice learned from the search bot), the "
            "three line strategists and the balanced planner rotated at 4 and 2 players (which Menorah line is "
            "strongest), the apprentice against balanced at 2 players (bot strength), 4-player apprentice games "
            "dealing each public opening over 3 hidden orders, each played 4 "
            "times (how much the Characters, Neighbourhood, Starting tiles and Artifact sides decide, and how much "
            "the hidden decks), and the 4-player mirror under the "
            "balance-relevant rule options, apprentice solo games against the stand-in Automa, and the card-value "
            "design at 2 players (apprentice games played as printed and with one component owned from the start by "
            "one seat: what each Book, Objective, Development, Artifact and Starting tile is worth to its holder); the "
            "shipped data contain ESTIMATES of unpublished printed values"
        ),
        runs=(
            # The apprentice plays a 4-player game in about 1.3 ms of CPU, balanced in about 0.5, search in about 0.7 s.
            StudyRun("golem-2p-mirror", 2, ("apprentice",), 0.11, purpose="turn-order advantage, 2 players"),
            StudyRun("golem-3p-mirror", 3, ("apprentice",), 0.11, purpose="turn-order advantage, 3 players"),
            StudyRun("golem-4p-mirror", 4, ("apprentice",), 0.12, purpose="turn-order advantage, 4 players"),
            StudyRun(
                "golem-4p-lines",
                4,
                ("balanced", "golems", "artifacts", "books"),
                0.12,
                purpose="which line is strongest, 4 players",
            ),
            *(
                StudyRun(f"golem-2p-{a}-{b}", 2, (a, b), 0.03, purpose="which line is strongest, 2 players")
                for a, b in (("golems", "artifacts"), ("golems", "books"), ("artifacts", "books"))
            ),
            StudyRun(
                "golem-2p-apprentice-balanced", 2, ("apprentice", "balanced"), 0.02, purpose="bot strength, 2 players"
            ),
            StudyRun(
                "golem-4p-setups",
                4,
                ("apprentice",),
                0.10,
                games_per_setup=4,
                orders_per_opening=3,
                purpose="setup variance",
            ),
            StudyRun("golem-solo", 1, ("apprentice",), 0.04, purpose="solo games against the stand-in Automa"),
            *_rule_runs(
                "golem-4p",
                4,
                ("balanced",),
                0.038,
                (
                    ("introductory", "setup", "introductory"),
                    ("overmove-one", "overmove", "one_per_step"),
                    ("no-second-pass", "second_pass", "none"),
                    ("vp-negative", "vp_floor", "negative"),
                    ("gold-included", "leftover_gold", "included"),
                ),
            ),
        ),
        ladder=(("random", 0.01), ("greedy", 0.01), ("balanced", 0.01)),
        ladder_players=(2, 3, 4),
        search_share=0.002,  # 400 games a rung at the default size: about 0.16 s of CPU per search seat-game
        value_players=(2,),
        value_share=0.004,  # 800 apprentice games an arm, 106 arms (every component group and a baseline): ~2.5 min
    ),
    "golems": Study(
        game="golems",
        default_games=1_000_000,
        description=(
            "apprentice and collector mirror matches (first-player advantage; the apprentice learned from the search "
            "bot and is the strongest player the study can afford), the heuristic bots and the apprentice against "
            "each other and small look-ahead runs against collector and the apprentice (bot strength), apprentice "
            "games dealing each opening display over 3 hidden deck orders, each played 4 times (setup variance), "
            "the solo mode against its automaton, and the card-value design at 2 players (apprentice games played as "
            "printed and with one more copy of each card dealt at setup to one seat: what each card is worth to its "
            "holder)"
        ),
        runs=(
            StudyRun("golems-2p-apprentice", 2, ("apprentice",), 0.20, purpose="first-player advantage, apprentice"),
            StudyRun("golems-2p-collector", 2, ("collector",), 0.20, purpose="first-player advantage, collector"),
            StudyRun("golems-2p-mixed", 2, ("greedy", "collector"), 0.10, purpose="bot strength"),
            StudyRun("golems-2p-apprentice-collector", 2, ("apprentice", "collector"), 0.05, purpose="bot strength"),
            # The look-ahead bot plays ~550 games/s per core, the apprentice ~5,000, the heuristics ~80,000.
            StudyRun("golems-2p-lookahead", 2, ("collector", "lookahead"), 0.005, purpose="strong reference"),
            StudyRun("golems-2p-apprentice-lookahead", 2, ("apprentice", "lookahead"), 0.005, purpose="bot strength"),
            StudyRun(
                "golems-2p-setups",
                2,
                ("apprentice",),
                0.265,
                games_per_setup=4,
                orders_per_opening=3,
                purpose="setup variance",
            ),
            StudyRun("golems-solo", 1, ("apprentice",), 0.14, purpose="solo mode against the automaton"),
        ),
        ladder=(("random", 0.01), ("greedy", 0.02), ("lookahead", 0.005)),
        ladder_players=(2,),
        value_players=(2,),
        value_share=0.001,  # 1,000 apprentice games an arm, 31 arms (every card group and a baseline): ~30 s
    ),
}
"""Standard study of each game, by game name."""


class PlannedRun(NamedTuple):
    """A study run made concrete: where it goes and the spec the runner plays."""

    name: str
    out: Path
    spec: RunSpec
    command: str
    """The equivalent ``golem simulate`` command (recorded in the run's manifest)."""
    purpose: str


def study_for(game: str) -> Study:
    """The standard study of ``game``; ``ValueError`` listing the games that have one."""
    make(game)  # UnknownName for a game that does not exist
    if game not in STUDIES:
        raise ValueError(f"no standard study for '{game}'; studies exist for: {', '.join(STUDIES)}")
    return STUDIES[game]


def plan_study(
    game: str,
    num_games: int | None = None,
    runs_dir: str | Path | None = None,
    seed: int = 0,
    cards: str | Path | None = None,
    rules: dict | None = None,
) -> list[PlannedRun]:
    """The runs of ``game``'s study scaled to about ``num_games`` games in all.

    Run k gets master seed ``seed + k``, so no two runs share games but the arms of a paired value design (which
    share the seed of their first run). A setup-variance run plays
    whole openings (its game count is rounded to a multiple of ``games_per_setup`` x ``orders_per_opening``, at
    least 2 openings); every run plays at least one game per seat. ``cards`` (an edited copy of the game's
    data folder) and ``rules`` (rule options) apply to every run.
    """
    study = study_for(game)
    total = study.default_games if num_games is None else int(num_games)
    if total < 1:
        raise RunError(f"--games must be at least 1, not {total}")
    base = Path(runs_dir) if runs_dir is not None else Path("runs") / f"study-{game}"
    engine = make(game)
    planned = []
    group_seeds: dict[str, int] = {}
    for k, r in enumerate((*study.runs, *_ladder_runs(study), *_skill_luck_runs(study), *_value_runs(study, total))):
        run_seed = group_seeds.setdefault(r.seed_group, seed + k) if r.seed_group else seed + k
        lineup = parse_lineup(engine, list(r.bots), r.num_players)
        games = max(r.num_players, round(r.share * total))
        setups = None
        if r.games_per_setup > 1:
            per_opening = r.games_per_setup * r.orders_per_opening
            setups = max(2, round(games / per_opening)) * r.orders_per_opening
            games = setups * r.games_per_setup
        chunk = default_chunk_size(games)
        run_rules = {**(rules or {}), **dict(r.rules)}
        spec = RunSpec(
            game=game,
            num_players=r.num_players,
            num_games=games,
            master_seed=run_seed,
            lineup=lineup,
            setups=setups,
            games_per_setup=r.games_per_setup,
            orders_per_opening=r.orders_per_opening,
            chunk_size=chunk,
            rules=run_rules,
            cards=str(cards) if cards is not None else None,
            trajectories=True,  # the report's How the game plays section
        )
        out = base / r.name
        size = f"--setups {setups} --games-per-setup {r.games_per_setup}" if setups else f"-n {games}"
        size += f" --orders-per-opening {r.orders_per_opening}" if r.orders_per_opening > 1 else ""
        command = (
            f"golem simulate {game} -p {r.num_players} {size} --bots {','.join(r.bots)} --seed {run_seed} "
            f"--chunk-size {chunk} --trajectories --out {shlex.quote(str(out))}"
        )
        command += "".join(f" --rule {k}={v}" for k, v in run_rules.items())
        command += f" --cards {shlex.quote(str(cards))}" if cards is not None else ""
        planned.append(PlannedRun(r.name, out, spec, command, r.purpose))
    return planned


class PrecisionTarget(NamedTuple):
    """A rung the study plays until its seats are measured to ``precision``: the mirror runs of ``bot`` at
    ``num_players`` (the planned run first, then its top-ups)."""

    num_players: int
    bot: str
    precision: float
    runs: list[PlannedRun]


def precision_targets(game: str, planned: list[PlannedRun]) -> list[PrecisionTarget]:
    """The rungs a study tops up: every search rung at each player count it is played at (±``search_precision``),
    and at each such count the strongest non-search rung of the game's ``skill_ladder`` played as a mirror match
    (±``cheap_precision``)."""
    study = study_for(game)
    ladder = list(make(game).skill_ladder)
    mirrors: dict[tuple[int, str], PlannedRun] = {}
    for p in planned:
        labels = {e.label for e in p.spec.lineup}
        ruled = p.purpose.startswith(("rule option", "card value"))
        if len(labels) == 1 and p.spec.games_per_setup == 1 and not ruled:
            mirrors.setdefault((p.spec.num_players, labels.pop()), p)
    targets = []
    counts = sorted({n for n, bot in mirrors if bot.split(":")[0] == "search"})
    for n in counts:
        cheap = [b for b in ladder if b.split(":")[0] != "search" and (n, b) in mirrors]
        if cheap:
            targets.append(PrecisionTarget(n, cheap[-1], study.cheap_precision, [mirrors[(n, cheap[-1])]]))
        for bot in ladder:
            if bot.split(":")[0] == "search" and (n, bot) in mirrors:
                targets.append(PrecisionTarget(n, bot, study.search_precision, [mirrors[(n, bot)]]))
    return targets


def widest_half_width(runs: list[PlannedRun], alpha: float = 0.05) -> tuple[int, float]:
    """Games played and the widest reach of a seat's Wilson win-rate interval from its estimate, over ``runs``."""
    seats = pd.concat(
        [pd.read_parquet(p.out / "seats", columns=["num_players", "seat", "win"]) for p in runs], ignore_index=True
    )
    rates = win_rates(seats, by="seat", alpha=alpha)
    half = np.maximum(rates["win_rate"] - rates["ci_low"], rates["ci_high"] - rates["win_rate"])
    return int(rates["num_games"].iloc[0]), float(half.max())


def topup_games(games: int, half_width: float, precision: float, cap: int) -> int:
    """More games for an interval of reach ``half_width`` after ``games`` games to reach ``precision`` (it shrinks as
    1/sqrt(N)), at most ``cap``; 0 when already there."""
    if half_width <= precision or cap <= 0:
        return 0
    return int(min(cap, math.ceil(games * ((half_width / precision) ** 2 - 1))))


def _topup(p: PlannedRun, k: int, games: int, seed: int) -> PlannedRun:
    """The ``k``-th top-up of planned run ``p``: the same lineup and rules, ``games`` more games under its own seed."""
    chunk = default_chunk_size(games)
    spec = replace(p.spec, num_games=games, master_seed=seed, chunk_size=chunk, setups=None, orders_per_opening=1)
    out = p.out.with_name(f"{p.name}-more{k}")
    command = re.sub(r" -n \d+ ", f" -n {games} ", p.command)
    command = re.sub(r" --seed \d+ ", f" --seed {seed} ", command)
    command = re.sub(r" --chunk-size \d+ ", f" --chunk-size {chunk} ", command)
    command = command.replace(f"--out {shlex.quote(str(p.out))}", f"--out {shlex.quote(str(out))}")
    return PlannedRun(out.name, out, spec, command, f"{p.purpose}, precision top-up {k}")


def play_to_precision(
    game: str,
    planned: list[PlannedRun],
    num_games: int,
    seed: int,
    play: Callable[[PlannedRun], str],
    log: Callable[[str], None] = print,
) -> tuple[list[PlannedRun], pd.DataFrame]:
    """Top up the study's ladder rungs sequentially until each seat's interval reaches its precision (see
    :func:`precision_targets`) or the budget (``precision_share`` of ``num_games`` per rung and player count) is
    spent. Returns the top-up runs played and the precision reached: one row per target, ``num_players``,
    ``bot``, ``num_games``, ``half_width`` (widest seat interval's reach), ``precision`` and ``reached``."""
    study = study_for(game)
    cap = int(study.precision_share * num_games)
    targets = precision_targets(game, planned)
    added: list[PlannedRun] = []
    spent = {i: 0 for i in range(len(targets))}
    for _ in range(study.precision_rounds):
        more = False
        for i, t in enumerate(targets):
            games, half = widest_half_width(t.runs)
            g = topup_games(games, half, t.precision, cap - spent[i])
            if g < t.num_players:
                continue
            k = len(t.runs)
            # top-up seeds stay clear of the planned runs' (seed + run index) and of each other
            run = _topup(t.runs[0], k, g, seed + 100_000 + 1_000 * i + k)
            log(
                f"    {t.bot} at {t.num_players} players: ±{100 * half:.1f} pp after {games:,} games, target "
                f"±{100 * t.precision:g} pp: {g:,} more -> {run.out}"
            )
            what = play(run)
            log(f"    {what}")
            t.runs.append(run)
            added.append(run)
            spent[i] += g
            more = True
        if not more:
            break
    rows = []
    for t in targets:
        games, half = widest_half_width(t.runs)
        rows.append([t.num_players, t.bot, games, half, t.precision, half <= t.precision])
    reached = pd.DataFrame(rows, columns=["num_players", "bot", "num_games", "half_width", "precision", "reached"])
    return added, reached


def _intact(out: Path) -> bool:
    """Whether the complete run in ``out`` passes :func:`verify_run`."""
    try:
        verify_run(out)
    except RunFormatError:
        return False
    return True


def _play(p: PlannedRun, workers: int | None, progress: bool) -> str:
    """Play one planned run, reusing or finishing a matching run already in its directory."""
    game, data = validate(p.spec)
    rid = run_id(p.spec, game, game.describe_data(data))
    resume = overwrite = False
    if (p.out / "manifest.json").is_file():
        try:
            m = read_manifest(p.out)
        except RunFormatError:
            m = {}
        if ("trajectories" in run_tables(m)) != p.spec.trajectories:  # a run without the tables the study reads
            m = {}
        if m.get("run_id") == rid and m.get("status") == "complete":
            # a damaged run, or one written before 2026-12-01 (no "report" facts for the document), is played again
            if "report" in m and _intact(p.out):
                return "reused"
            overwrite = True
        elif m.get("run_id") == rid:
            resume = True
        else:
            overwrite = True
    run(p.spec, p.out, workers=workers, overwrite=overwrite, resume=resume, progress=progress, command=p.command)
    return "resumed" if resume else ("replaced" if overwrite else "played")


def run_study(
    game: str,
    num_games: int | None = None,
    runs_dir: str | Path | None = None,
    out_dir: str | Path | None = None,
    workers: int | None = None,
    seed: int = 0,
    progress: bool = True,
    log: Callable[[str], None] = print,
    command: str | None = None,
    cards: str | Path | None = None,
    rules: dict | None = None,
) -> Path:
    """Play the standard study of ``game`` and write its report; returns the report's HTML path.

    Runs go to ``runs_dir`` (default ``runs/study-GAME``), one directory each; a directory that
    already holds the same run is reused, an interrupted one is finished, a different run there is
    replaced. The report goes to ``out_dir`` (default ``RUNS_DIR/report``). ``command`` is
    written in the report as the way to reproduce it.
    """
    study = study_for(game)
    planned = plan_study(game, num_games, runs_dir, seed, cards, rules)
    check_workers(workers)
    for p in planned:  # every run's bots, data and rule options, before the first run writes anything
        validate(p.spec)
    total = sum(p.spec.num_games for p in planned)
    log(f"{game} study: {total:,} games in {len(planned)} runs ({study.description})")
    started = time.perf_counter()
    for i, p in enumerate(planned, 1):
        t0 = time.perf_counter()
        log(f"[{i}/{len(planned)}] {p.name}: {p.spec.num_games:,} games, {p.purpose} -> {p.out}")
        what = _play(p, workers, progress)
        log(f"    {what} in {time.perf_counter() - t0:.1f} s")
    if precision_targets(game, planned):
        log(
            f"precision: topping up the ladder's rungs (±{100 * study.search_precision:g} pp on search, "
            f"±{100 * study.cheap_precision:g} pp on the strongest cheap rung; at most "
            f"{int(study.precision_share * sum(p.spec.num_games for p in planned)):,} more games each)"
        )

        def play(p: PlannedRun) -> str:
            t0 = time.perf_counter()
            return f"{_play(p, workers, progress)} in {time.perf_counter() - t0:.1f} s"

        added, reached = play_to_precision(game, planned, total, seed, play, log)
        planned = [*planned, *added]
        for r in reached.itertuples():
            log(
                f"    {r.bot} at {r.num_players} players: ±{100 * r.half_width:.1f} pp after {r.num_games:,} games "
                f"({'reached' if r.reached else 'not reached within the budget'}: target ±{100 * r.precision:g} pp)"
            )
    played = time.perf_counter() - started
    runs_root = planned[0].out.parent
    out = Path(out_dir) if out_dir is not None else runs_root / "report"
    t0 = time.perf_counter()
    command = command or (
        f"golem study {game} --games {num_games or study.default_games} --seed {seed} "
        f"--runs-dir {shlex.quote(str(runs_root))} --out {shlex.quote(str(out))}"
    )
    path = build_report([p.out for p in planned], out, title=f"{_title(game)}: standard balance study", command=command)
    log(f"report in {time.perf_counter() - t0:.1f} s (runs played in {played:.1f} s) -> {path}")
    return path


def _title(game: str) -> str:
    return make(game).title
