"""Standard studies: for each game, a declared list of runs that together answer the balance questions.

A study is data: which player counts, which lineups (mirror matches for the first-player
advantage, mixed bots for strategy strength, replayed setups for setup variance) and what share of
the study's games each run gets. :func:`run_study` plays the runs with :func:`simulate.runner.run`
and builds one combined report. A game declares its study as ``GameInfo.study``
(``simulate.game.Study``); :data:`STUDIES` lists the registered games' studies.

Examples
--------
>>> plan = plan_study("century", num_games=100_000)  # doctest: +SKIP
>>> [(p.name, p.spec.num_games) for p in plan]  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import math
import re
import shlex
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

from analysis.evidence import (
    compatible_runs,
    evidence_index,
    evidence_key,
    pooled_seats,
)
from analysis.report.card_value import card_value_effects, is_value_run
from analysis.report.model import GAMES_DIR, GamePage
from analysis.report.styles import BestResponse
from analysis.stats._util import wilson_confint
from analysis.stats.ladder import PRECISION, ladder_seats, rung_order, strong_play
from analysis.stats.strategies import strength_ratings
from simulate.game import Study, StudyRun
from simulate.integrity import verify_run
from simulate.lineup import parse_lineup
from simulate.orchestration.card_value import component_groups
from simulate.orchestration.exploit import ExploitDesign, ExploitResult, exploit, reuse
from simulate.orchestration.game_pages import publish_report
from simulate.orchestration.styles import StylesError, style_bots, style_tables
from simulate.outputs import hold
from simulate.registry import available_games, make
from simulate.runformat import RunFormatError, read_manifest, run_tables
from simulate.runner import RunError, RunSpec, check_workers, default_chunk_size, run, run_id, validate

__all__ = [
    "STRONG_PURPOSE",
    "STUDIES",
    "PlannedRun",
    "PrecisionTarget",
    "Study",
    "StudyRun",
    "exploit_counts",
    "exploit_design",
    "free_topup",
    "measured_strong",
    "plan_study",
    "play_to_precision",
    "precision_targets",
    "run_study",
    "separate_strong",
    "separation_topup",
    "strong_rungs",
    "study_for",
    "topup_games",
    "widest_half_width",
]


def _ladder_runs(study: Study) -> tuple[StudyRun, ...]:
    """The mirror matches the study's skill ladder adds to its runs."""
    mirrors = {(r.num_players, r.bots[0]) for r in study.runs if len(r.bots) == 1 and not r.rules}
    searches = [bot for bot in make(study.game).info.skill_ladder if bot.split(":")[0] == "search"]
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
    """The run of the ladder's two strongest cheap rungs against each other (none without a ladder): how often the
    better of two close players wins says how far skill carries; against ``random`` any bot wins nearly always."""
    ladder = [bot for bot in make(study.game).info.skill_ladder if bot.split(":")[0] != "search"]
    if len(ladder) < 2 or not study.ladder_players or study.skill_luck_share <= 0:
        return ()
    n = min(study.ladder_players)
    bots = tuple(ladder[-1] if k % 2 else ladder[-2] for k in range(n))
    purpose = f"skill against luck, {ladder[-2]} against {ladder[-1]}, {n} players"
    return (StudyRun(f"{study.game}-{n}p-skill-luck", n, bots, study.skill_luck_share, purpose=purpose),)


def _value_arms(study: Study, n: int, bot: str, cards: list[str], share: float, stage: str = "") -> list[StudyRun]:
    """A paired value design at ``n`` players: a baseline and one run per card, all on the same games (one seed
    group); ``stage`` names a later stage (``confirm``) apart from the screen."""
    option = next(iter(make(study.game).info.value_designs.values()))
    where = f"{n}p-{stage}-{bot.replace(':', '-').replace('=', '-')}" if stage else f"{n}p"
    group = f"value-{where}"
    purpose = f"card value{' ' + stage if stage else ''}, {{}}, {n} players" + (f", {bot}" if stage else "")
    runs = [
        StudyRun(
            f"{study.game}-{where}-value-baseline",
            n,
            (bot,),
            share,
            purpose=purpose.format("baseline"),
            seed_group=group,
        )
    ]
    runs += [
        StudyRun(
            f"{study.game}-{where}-value-{card}",
            n,
            (bot,),
            share,
            purpose=purpose.format(card),
            rules=((option, card),),
            seed_group=group,
        )
        for card in cards
    ]
    return runs


def _value_runs(study: Study, total: int) -> tuple[StudyRun, ...]:
    """The screen of the study's card-value design: at each of ``value_players``, a baseline and one run per card
    group with a value design, sharing their games, each at least ``value_min_games`` games whatever the study's
    size, played by the strongest non-search rung of the skill ladder."""
    if not study.value_players:
        return ()
    bot = [b for b in make(study.game).info.skill_ladder if b.split(":")[0] != "search"][-1]
    groups = component_groups(study.game)
    cards = groups.loc[groups["design"] != "", "component"].tolist()
    share = max(study.value_share, study.value_min_games / max(total, 1))
    return tuple(run for n in study.value_players for run in _value_arms(study, n, bot, cards, share))


def strong_rungs(game: str, count: int = 2) -> tuple[str, ...]:
    """The rungs of ``game``'s round robin, weakest first as declared: the ``count`` strongest rungs of its
    ``skill_ladder`` and the apprentice (the learned player) where the ladder has one."""
    ladder = make(game).info.skill_ladder
    chosen = {*ladder[-count:], *(b for b in ladder if b == "apprentice")}
    return tuple(b for b in ladder if b in chosen)


def _slug(bot: str) -> str:
    return bot.replace(":", "-").replace("=", "-")


def _round_robin_runs(study: Study) -> tuple[StudyRun, ...]:
    """The strong rungs against each other: every pair at 2 players (seats rotated by the runner), and at each other
    ladder player count one table seating the rungs in turn (rotated too); none with fewer than two strong rungs."""
    rungs = strong_rungs(study.game, study.strong_rungs)
    if len(rungs) < 2 or study.round_robin_share <= 0 or not study.ladder_players:
        return ()
    runs = []
    for n in study.ladder_players:
        if n == 2:
            runs += [
                StudyRun(
                    f"{study.game}-2p-strong-{_slug(a)}-vs-{_slug(b)}",
                    2,
                    (a, b),
                    study.round_robin_share,
                    purpose=f"strength among the strong, {a} against {b}, 2 players",
                )
                for i, a in enumerate(rungs)
                for b in rungs[i + 1 :]
            ]
        else:
            bots = tuple(rungs[k % len(rungs)] for k in range(n))
            runs.append(
                StudyRun(
                    f"{study.game}-{n}p-strong-round-robin",
                    n,
                    bots,
                    study.round_robin_share,
                    purpose=f"strength among the strong, {', '.join(rungs)}, {n} players",
                )
            )
    return tuple(runs)


def _styles_runs(study: Study) -> tuple[StudyRun, ...]:
    """The apprentice's strategy styles and the plain apprentice against each other, as ``golem styles`` plays them:
    every pair at 2 players, and every table of ``styles.style_tables`` at each other ladder player count (seats
    rotated by the runner); none without ``styles_share`` or styles."""
    if study.styles_share <= 0:
        return ()
    try:
        bots = tuple(style_bots(make(study.game)))
    except StylesError:
        return ()
    return tuple(
        StudyRun(
            f"{study.game}-{n}p-styles-{'-vs-'.join(_slug(b) for b in table)}",
            n,
            table,
            study.styles_share,
            purpose=f"strategy styles, {' against '.join(table)}, {n} players",
        )
        for n in sorted({2, *study.ladder_players})
        for table in style_tables(bots, n)
    )


EXPLOIT_MIN_GAMES = 10
"""The fewest games a candidate of a study's exploit search plays, at any study size..."""
EXPLOIT_MIN_CONFIRM = 40
"""...and the fewest that measure its best (a best response that wins most games shows in 40)."""
EXPLOIT_SEED = 7_000_001
"""Added to the study's seed for its exploit search: seeds no run of the study plays."""
EXPLOIT_DIR = "{game}-{players}p-exploit"
"""An exploit search's folder in the study's runs folder (its runs are in ``search/`` and ``confirm/`` there)."""


def exploit_counts(game: str) -> tuple[int, ...]:
    """The player counts at which ``game``'s study searches a best response to the apprentice: 2 and the study's
    ladder player counts, as its styles stage plays them."""
    return tuple(sorted({2, *study_for(game).ladder_players}))


def exploit_design(
    game: str,
    num_games: int | None = None,
    seed: int = 0,
    cards: str | Path | None = None,
    rules: dict | None = None,
    num_players: int = 2,
) -> ExploitDesign | None:
    """The exploit search of ``game``'s study at ``num_players`` and about ``num_games`` games: the study's ``exploit``
    with its games scaled by ``num_games`` over the default size (a candidate at least :data:`EXPLOIT_MIN_GAMES`, the
    confirmation at least :data:`EXPLOIT_MIN_CONFIRM`; the candidates scaled too, at least 2), on the study's ``cards``
    and ``rules``; None for a study without one or a game whose apprentice has no strategy styles."""
    study = study_for(game)
    if not study.exploit:
        return None
    try:
        style_bots(make(game))
    except StylesError:
        return None
    scale = (study.default_games if num_games is None else int(num_games)) / study.default_games
    games, candidates, confirm = study.exploit
    return ExploitDesign(
        game,
        num_players,
        games=max(EXPLOIT_MIN_GAMES, round(games * scale)),
        budget=max(2, min(candidates, round(candidates * scale))),
        confirm_games=max(EXPLOIT_MIN_CONFIRM, round(confirm * scale)),
        seed=seed + EXPLOIT_SEED,
        cards=str(cards) if cards is not None else None,
        rules=tuple(sorted((rules or {}).items())),
    )


def best_response(result: ExploitResult, out: Path) -> BestResponse:
    """What the report shows of an exploit search's ``result`` (made in ``out``): the page of the measuring game the
    best response won, to watch, among the report's games."""
    d = result.design
    page = None
    if result.watch >= 0:
        page = GamePage(
            f"{GAMES_DIR}/best-response-win-{d.num_players}p.html",
            f"a game the searched best response won ({d.num_players} players)",
            f"The best response the exploit search found (offsets on the apprentice's weights) against the plain "
            f"apprentice: the first game of its measuring run that it won. On the page its seat is named "
            f"{result.carrier}, the bot it plays as, with that style's offsets replaced by the best response's: it is "
            "not that style.",
            str(out / "confirm"),
            read_manifest(out / "confirm")["run_id"],
            result.watch,
        )
    return BestResponse(
        d.num_players,
        result.win_share,
        result.ci_low,
        result.ci_high,
        d.confirm_games,
        len(result.evaluations),
        d.games,
        result.profile,
        result.carrier,
        tuple(result.offsets.items()),
        page,
    )


class _Studies(Mapping[str, Study]):
    """The standard study of every registered game that declares one (``GameInfo.study``), by game name."""

    def __getitem__(self, game: str) -> Study:
        study = make(game).info.study if game in available_games() else None
        if study is None:
            raise KeyError(game)
        return study

    def __iter__(self) -> Iterator[str]:
        return (name for name in available_games() if make(name).info.study is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


STUDIES: Mapping[str, Study] = _Studies()
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
    study = make(game).info.study  # UnknownName for a game that does not exist
    if study is None:
        raise ValueError(
            f"{game} declares no standard study (GameInfo.study, docs/adding-a-game.md); studies exist for: "
            f"{', '.join(STUDIES)}"
        )
    return study


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
    planned = []
    group_seeds: dict[str, int] = {}
    runs = (*study.runs, *_ladder_runs(study), *_skill_luck_runs(study), *_value_runs(study, total))
    for k, r in enumerate((*runs, *_round_robin_runs(study), *_styles_runs(study))):
        run_seed = group_seeds.setdefault(r.seed_group, seed + k) if r.seed_group else seed + k
        planned.append(_plan_run(game, r, run_seed, max(r.num_players, round(r.share * total)), base, cards, rules))
    return planned


def _plan_run(
    game: str,
    r: StudyRun,
    run_seed: int,
    games: int,
    base: Path,
    cards: str | Path | None,
    rules: dict | None,
) -> PlannedRun:
    """Study run ``r`` made concrete: ``games`` games (a setup design rounded to whole openings) under ``run_seed``,
    in ``base / r.name``, with the study's ``cards`` and ``rules``."""
    lineup = parse_lineup(make(game), list(r.bots), r.num_players)
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
    return PlannedRun(r.name, out, spec, command, r.purpose)


def standout_cards(planned: list[PlannedRun], count: int, alpha: float = 0.05) -> dict[int, list[str]]:
    """The ``count`` cards of each player count whose value stood out in the study's screen (its played value runs
    and baselines): detected effects on the holder's win share first, then the largest either way."""
    screen = [p for p in planned if p.purpose.startswith("card value,")]
    manifests = [{**read_manifest(p.out), "path": str(p.out)} for p in screen]
    values = [m for m in manifests if is_value_run(m)]
    effects, _ = card_value_effects(values, [m for m in manifests if not is_value_run(m)], alpha)
    if effects.empty:
        return {}
    win = effects[(effects["design"] == "gift") & (effects["quantity"] == "holder_win")]
    win = win.assign(size=win["diff"].abs()).sort_values(["significant", "size"], ascending=False)
    return {int(n): part["component"].head(count).tolist() for n, part in win.groupby("num_players")}


def confirm_runs(
    game: str,
    planned: list[PlannedRun],
    seed: int,
    total: int,
    cards: str | Path | None = None,
    rules: dict | None = None,
) -> list[PlannedRun]:
    """The second stage of the card-value design: the cards that stood out in the screen (:func:`standout_cards`),
    each with a baseline, played again on games of their own at every rung of the study's ``value_confirm_games``,
    so the card the summary names is measured at the strong rungs too; ``total``: the study's games."""
    study = study_for(game)
    if not study.value_confirm_games or not any(p.purpose.startswith("card value,") for p in planned):
        return []
    base = planned[0].out.parent
    out = []
    for n, standouts in standout_cards(planned, study.value_confirm).items():
        for j, (bot, games) in enumerate(study.value_confirm_games):
            group_seed = seed + 300_000 + 1_000 * n + j  # clear of the planned runs' and every top-up's seeds
            scaled = max(study.value_confirm_min, round(games * total / study.default_games))
            for r in _value_arms(study, n, bot, standouts, 0.0, stage="confirm"):
                out.append(_plan_run(game, r, group_seed, scaled, base, cards, rules))
    return out


class PrecisionTarget(NamedTuple):
    """A rung the study plays until its seats are measured to ``precision``: the mirror runs of ``bot`` at
    ``num_players`` (the planned run first, then its top-ups)."""

    num_players: int
    bot: str
    precision: float
    runs: list[PlannedRun]


def outcome_precision(game: str, share: float) -> float:
    """A precision given as a win share (``Study.search_precision``, ``cheap_precision``) in the game's outcome
    measure: the share itself where a seat's answer is its win share; for a game whose answer is its net score
    (``outcome = "score"``), the same part of the game's ``outcome_precision`` (in its ``score_unit``) as the share
    is of the ladder answer's ±2 pp (``analysis.stats.ladder.PRECISION``)."""
    g = make(game)
    return share if g.info.outcome == "win" else share / PRECISION * g.info.outcome_precision


def precision_unit(game: str) -> tuple[float, str]:
    """(scale, unit) that words a precision of ``game`` (:func:`outcome_precision`): (100, "pp") for a win share,
    (1, the game's ``score_unit``) for a score."""
    g = make(game)
    return (100.0, "pp") if g.info.outcome == "win" else (1.0, g.info.score_unit)


def _plain(p: PlannedRun) -> bool:
    """Whether ``p`` plays the study's rules and data as printed, one game per setup (no rule option, no card-value
    arm, no replayed setups): the runs whose games the report treats as the game itself."""
    return p.spec.games_per_setup == 1 and not p.purpose.startswith(("rule option", "card value"))


def measured_strong(game: str, planned: list[PlannedRun], alpha: float = 0.05) -> list[str]:
    """Strong play as the study's report will measure it, strongest first: the rungs of ``game``'s ``skill_ladder``
    not separated from the top by the ratings from the games between different bots among ``planned`` (the strong
    rungs' round robin and its top-ups, and every other mixed run of the printed rules: the report's
    :func:`analysis.stats.strategies.strength_ratings` and :func:`analysis.stats.ladder.strong_play`); the two
    strongest rungs as declared where no two rungs met."""
    ladder = list(make(game).info.skill_ladder)
    mixed = [p.out for p in planned if _plain(p) and len({e.label for e in p.spec.lineup}) > 1]
    ratings = None
    if mixed:
        seats = pooled_seats(mixed, ["seat", "bot", "rank", "score"])
        seats["bot"] = seats["bot"].astype(str)
        ratings = strength_ratings(seats, alpha, make(game).info.outcome)
    return strong_play(rung_order(ladder, ratings), ladder, alpha)


def precision_targets(
    game: str, planned: list[PlannedRun], strong: Sequence[str] | None = None
) -> list[PrecisionTarget]:
    """The rungs a study tops up at each ladder player count where they are played as mirror matches: the rungs of
    strong play ``strong`` (:func:`measured_strong`; by default the two strongest as declared) to ±``search_precision``,
    and the strongest cheap rung (the strongest non-search rung in measured order, e.g. the apprentice) to
    ±``cheap_precision``. A search rung measurably weaker than the top is not topped up: strong play's answer does
    not rest on it."""
    study = study_for(game)
    ladder = list(make(game).info.skill_ladder)
    strong = list(strong) if strong is not None else ladder[:-3:-1]
    order = [b for b in ladder if b not in strong] + strong[::-1]  # measured: strong play on top
    mirrors: dict[tuple[int, str], PlannedRun] = {}
    for p in planned:
        labels = {e.label for e in p.spec.lineup}
        if len(labels) == 1 and _plain(p):
            mirrors.setdefault((p.spec.num_players, labels.pop()), p)
    targets = []
    for n in sorted({n for n, bot in mirrors if bot in strong}):
        cheap = [b for b in order if b.split(":")[0] != "search" and (n, b) in mirrors]
        if cheap:
            target = outcome_precision(game, study.cheap_precision)
            targets.append(PrecisionTarget(n, cheap[-1], target, [mirrors[(n, cheap[-1])]]))
        for bot in order:
            if bot in strong and (n, bot) in mirrors and (not cheap or bot != cheap[-1]):
                target = outcome_precision(game, study.search_precision)
                targets.append(PrecisionTarget(n, bot, target, [mirrors[(n, bot)]]))
    return targets


def widest_half_width(
    runs: list[PlannedRun],
    alpha: float = 0.05,
    index: pd.DataFrame | None = None,
    outcome: str = "win",
    seat_column: str = "seat",
) -> tuple[int, float]:
    """Games and the widest reach of a seat's interval from its estimate, over ``runs`` and every compatible finished
    run beside them (:func:`analysis.evidence.compatible_runs`: the evidence a study already has in its runs folder,
    each game counted once; ``index``: that folder's :func:`analysis.evidence.evidence_index` if already read).
    The interval is the strong-play answer's own (:func:`analysis.stats.ladder.ladder_seats`): a seat's Wilson
    win-rate interval, or with ``outcome="score"`` the t interval of its net score against the other seats' mean, in
    score units; a seat is its place in ``seat_column`` (the game's ``turn_order_column`` where it draws its turn
    order, as the report reads it)."""
    paths = compatible_runs([p.out for p in runs], runs[0].out.parent, index)
    value = "score" if outcome == "score" else "win"
    seats = pooled_seats(paths, ["num_players", seat_column, value])
    seats = seats.rename(columns={seat_column: "seat"}).assign(bot="rung")
    table = ladder_seats(seats, ["rung"], alpha, outcome=outcome)
    return int(table["num_games"].max()), float(table["half_width"].max())


TOPUP_MARGIN = 0.1
"""A top-up plays this share more games than the 1/sqrt(N) rule asks: the estimate moves as games come in, so a
top-up sized exactly lands just short of the target about half the time, often by fewer games than a round of
seats."""


def topup_games(games: int, half_width: float, precision: float, cap: int) -> int:
    """More games for an interval of reach ``half_width`` after ``games`` games to reach ``precision`` (it shrinks as
    1/sqrt(N)), with :data:`TOPUP_MARGIN` to spare, at most ``cap``; 0 when already there."""
    if half_width <= precision or cap <= 0:
        return 0
    return int(min(cap, math.ceil(games * ((half_width / precision) ** 2 - 1) * (1 + TOPUP_MARGIN))))


def free_topup(p: PlannedRun, k: int) -> int:
    """The first top-up number from ``k`` on whose folder beside ``p`` does not exist yet: an earlier study's top-up
    is evidence counted already, and playing its number again would repeat its seed, so its games."""
    while p.out.with_name(f"{p.name}-more{k}").exists():
        k += 1
    return k


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
    strong: Sequence[str] | None = None,
) -> tuple[list[PlannedRun], pd.DataFrame]:
    """Top up the study's ladder rungs sequentially until each seat's interval reaches its precision (see
    :func:`precision_targets`, with strong play ``strong``) or the budget (``precision_share`` of ``num_games`` per
    rung and player count) is spent. Returns the top-up runs played and the precision reached: one row per target,
    ``num_players``, ``bot``, ``num_games``, ``half_width`` (widest seat interval's reach), ``precision`` and
    ``reached``."""
    study = study_for(game)
    cap = int(study.precision_share * num_games)
    targets = precision_targets(game, planned, strong)
    info = make(game).info
    outcome, seat_column = info.outcome, info.turn_order_column or "seat"
    scale, unit = precision_unit(game)
    added: list[PlannedRun] = []
    spent = {i: 0 for i in range(len(targets))}
    root = planned[0].out.parent
    for _ in range(study.precision_rounds):
        more = False
        index = evidence_index(root)  # the evidence in the runs folder, read once a round
        for i, t in enumerate(targets):
            games, half = widest_half_width(t.runs, index=index, outcome=outcome, seat_column=seat_column)
            g = topup_games(games, half, t.precision, cap - spent[i])
            if g == 0 or cap - spent[i] < t.num_players:
                continue
            g = max(g, t.num_players)  # a game short is still short: a round of seats at least
            k = free_topup(t.runs[0], len(t.runs))
            # top-up seeds stay clear of the planned runs' (seed + run index) and of each other
            run = _topup(t.runs[0], k, g, seed + 100_000 + 1_000 * i + k)
            log(
                f"    {t.bot} at {t.num_players} players: ±{scale * half:.1f} {unit} after {games:,} games, target "
                f"±{scale * t.precision:g} {unit}: {g:,} more -> {run.out}"
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
    index = evidence_index(root)
    for t in targets:
        games, half = widest_half_width(t.runs, index=index, outcome=outcome, seat_column=seat_column)
        rows.append([t.num_players, t.bot, games, half, t.precision, half <= t.precision])
    reached = pd.DataFrame(rows, columns=["num_players", "bot", "num_games", "half_width", "precision", "reached"])
    return added, reached


STRONG_PURPOSE = "strength among the strong"
"""How the purpose of every round-robin run of the strong rungs begins."""


def separation_topup(games: int, wins: float, cap: int, alpha: float = 0.05) -> int:
    """More games for a head-to-head record of ``wins`` in ``games`` to leave 50% out of its Wilson interval, if the
    record's rate holds (the interval shrinks as 1/sqrt(N)), at most ``cap``; 0 when 50% is already out of it."""
    if cap <= 0 or games <= 0:
        return 0
    low, high = wilson_confint(np.array([wins]), np.array([float(games)]), alpha)
    if low[0] > 0.5 or high[0] < 0.5:
        return 0
    rate = wins / games
    gap = abs(rate - 0.5)
    if gap == 0:
        return cap
    z = stats.norm.ppf(1 - alpha / 2)
    need = z**2 * rate * (1 - rate) / gap**2
    return int(min(cap, max(0, math.ceil(need - games))))


def separate_strong(
    game: str,
    planned: list[PlannedRun],
    num_games: int,
    seed: int,
    play: Callable[[PlannedRun], str],
    log: Callable[[str], None] = print,
) -> list[PlannedRun]:
    """Top up each 2-player pair of the strong rungs' round robin whose head-to-head interval still holds 50%, once,
    within ``round_robin_topup_share`` of ``num_games`` a pair (:func:`separation_topup`). Returns the runs played."""
    study = study_for(game)
    cap = int(study.round_robin_topup_share * num_games)
    pairs = [p for p in planned if p.purpose.startswith(STRONG_PURPOSE) and p.spec.num_players == 2]
    added = []
    for i, p in enumerate(pairs):
        bot = p.spec.lineup[0].label
        seats = pd.read_parquet(p.out / "seats", columns=["game", "bot", "win"])
        games = int(seats["game"].nunique())
        wins = float(seats.loc[seats["bot"].astype(str) == bot, "win"].sum())
        more = separation_topup(games, wins, cap)
        if more < 2:
            continue
        run = _topup(p, 1, more, seed + 200_000 + i)
        log(f"    {p.name}: {bot} won {wins / games:.1%} of {games:,} games, not separated: {more:,} more -> {run.out}")
        log(f"    {play(run)}")
        added.append(run)
    return added


def _intact(out: Path) -> bool:
    """Whether the complete run in ``out`` passes :func:`verify_run`."""
    try:
        verify_run(out)
    except RunFormatError:
        return False
    return True


def _holds_more(m: dict, p: PlannedRun, key: str) -> bool:
    """Whether manifest ``m`` is a complete run of the games ``p`` plans and more: compatible (the same evidence key),
    the same master seed (so its first games are ``p``'s) and at least as many games."""
    return (
        m.get("status") == "complete"
        and evidence_key(m) == key
        and m.get("master_seed") == p.spec.master_seed
        and m.get("num_games", 0) >= p.spec.num_games
    )


def _play(p: PlannedRun, workers: int | None, progress: bool) -> str:
    """Play one planned run, reusing or finishing a matching run already in its directory.

    A complete run there that holds the planned games and more (a larger run of the same seed, e.g. from a study at a
    larger size) is kept as it is: replacing it would throw evidence away."""
    game, data = validate(p.spec)
    described = game.describe_data(data)
    rid = run_id(p.spec, game, described)
    resume = overwrite = False
    if (p.out / "manifest.json").is_file():
        try:
            m = read_manifest(p.out)
        except RunFormatError:
            m = {}
        if ("trajectories" in run_tables(m)) != p.spec.trajectories:  # a run without the tables the study reads
            m = {}
        key = evidence_key(
            {
                **p.spec.to_json(),
                "engine_version": game.info.version,
                "rules": described["rules"],
                "data": described["data"],
            }
        )
        if m.get("run_id") == rid and m.get("status") == "complete" or m and _holds_more(m, p, key):
            # a damaged run, or one written before 2026-12-01 (no "report" facts for the document), is played again
            if "report" in m and _intact(p.out):
                return "reused" if m.get("run_id") == rid else f"reused (its {m['num_games']:,} games hold these)"
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
    written in the report as the way to reproduce it. The runs' folder (and a report folder outside it) is
    locked while the study writes: a second study there is refused (:func:`simulate.outputs.hold`).
    """
    planned = plan_study(game, num_games, runs_dir, seed, cards, rules)
    check_workers(workers)
    for p in planned:  # every run's bots, data and rule options, before the first run writes anything
        validate(p.spec)
    runs_root = planned[0].out.parent
    out = Path(out_dir) if out_dir is not None else runs_root / "report"
    inside = runs_root.resolve() in out.resolve().parents
    with hold(runs_root, command or ""), hold(out, command or "") if not inside else contextlib.nullcontext():
        return _run_study(game, num_games, planned, runs_root, out, workers, seed, progress, log, command, cards, rules)


def _run_study(
    game: str,
    num_games: int | None,
    planned: list[PlannedRun],
    runs_root: Path,
    out: Path,
    workers: int | None,
    seed: int,
    progress: bool,
    log: Callable[[str], None],
    command: str | None,
    cards: str | Path | None,
    rules: dict | None,
) -> Path:
    study = study_for(game)
    total = sum(p.spec.num_games for p in planned)
    strong = [p for p in planned if p.purpose.startswith(STRONG_PURPOSE)]
    also = (
        f"; and its strongest players, {', '.join(strong_rungs(game, study.strong_rungs))}, against each other"
        if strong
        else ""
    )
    log(f"{game} study: {total:,} games in {len(planned)} runs ({study.description}{also})")
    started = time.perf_counter()
    for i, p in enumerate(planned, 1):
        t0 = time.perf_counter()
        log(f"[{i}/{len(planned)}] {p.name}: {p.spec.num_games:,} games, {p.purpose} -> {p.out}")
        what = _play(p, workers, progress)
        log(f"    {what} in {time.perf_counter() - t0:.1f} s")

    def timed_play(p: PlannedRun) -> str:
        t0 = time.perf_counter()
        return f"{_play(p, workers, progress)} in {time.perf_counter() - t0:.1f} s"

    if any(p.purpose.startswith(STRONG_PURPOSE) for p in planned):
        log(
            f"strength among the strong: topping up pairs not yet separated (at most "
            f"{int(study.round_robin_topup_share * total):,} more games a pair)"
        )
        planned = [*planned, *separate_strong(game, planned, total, seed, timed_play, log)]
    strong = measured_strong(game, planned)
    log(f"strong play, measured: {', '.join(strong)}")
    if precision_targets(game, planned, strong):
        scale, unit = precision_unit(game)
        search, cheap = (outcome_precision(game, x) for x in (study.search_precision, study.cheap_precision))
        log(
            f"precision: topping up the ladder's rungs (±{scale * search:g} {unit} on strong play, "
            f"±{scale * cheap:g} {unit} on the strongest cheap rung; at most "
            f"{int(study.precision_share * total):,} more games each)"
        )
        added, reached = play_to_precision(game, planned, total, seed, timed_play, log, strong)
        planned = [*planned, *added]
        for r in reached.itertuples():
            log(
                f"    {r.bot} at {r.num_players} players: ±{scale * r.half_width:.1f} {unit} after {r.num_games:,} "
                f"games ({'reached' if r.reached else 'not reached within the budget'}: target "
                f"±{scale * r.precision:g} {unit})"
            )
    confirm = confirm_runs(game, planned, seed, num_games or study.default_games, cards, rules)
    if confirm:
        cells = sorted({(p.spec.num_players, p.spec.lineup[0].label, p.spec.num_games) for p in confirm})
        log(
            "card value: confirming the cards that stood out in the screen ("
            + ", ".join(sorted({p.name.rsplit("-value-", 1)[1] for p in confirm} - {"baseline"}))
            + ") on games of their own: "
            + "; ".join(f"{bot} at {n} players, {g:,} games an arm" for n, bot, g in cells)
        )
        for p in confirm:
            t0 = time.perf_counter()
            log(
                f"    {p.name}: {p.spec.num_games:,} games -> {_play(p, workers, progress)} in "
                f"{time.perf_counter() - t0:.1f} s"
            )
        planned = [*planned, *confirm]
    best = []
    for n in exploit_counts(game):
        design = exploit_design(game, num_games, seed, cards, rules, n)
        if design is None:
            break
        where = runs_root / EXPLOIT_DIR.format(game=game, players=n)
        log(
            f"exploit: a best response to the apprentice at {n} players ({design.budget} candidates of "
            f"{design.games:,} games, the best measured on {design.confirm_games:,} fresh games) -> {where}"
        )
        t0 = time.perf_counter()
        result = reuse(design, where)
        what = "reused"
        if result is None:
            # one process: a candidate's few hundred games cost less than starting a pool of workers for them
            result = exploit(design, where, workers=1, log=lambda m: None)
            what = "played"
        best.append(best_response(result, where))
        log(f"    {what} in {time.perf_counter() - t0:.1f} s: exploitability {100 * result.exploitability:+.1f} pp")
    played = time.perf_counter() - started
    t0 = time.perf_counter()
    command = command or (
        f"golem study {game} --games {num_games or study.default_games} --seed {seed} "
        f"--runs-dir {shlex.quote(str(runs_root))} --out {shlex.quote(str(out))}"
    )
    evidence = _evidence(planned, runs_root, log)
    path = publish_report(
        evidence,
        out,
        title=f"{_title(game)}: standard balance study",
        command=command,
        progress=progress,
        log=log,
        best_responses=best,
    )
    log(f"report in {time.perf_counter() - t0:.1f} s (runs played in {played:.1f} s) -> {path}")
    return path


def _evidence(planned: list[PlannedRun], root: Path, log: Callable[[str], None]) -> list[Path]:
    """The runs the study's report reads: its own and every compatible run already in ``root`` that records the same
    tables (:func:`analysis.evidence.compatible_runs`: each game once)."""
    mine = [p.out for p in planned]
    runs = compatible_runs(mine, root)
    extra = [q for q in runs if q not in mine and "trajectories" in run_tables(read_manifest(q))]
    runs = [q for q in runs if q in mine] + extra
    if extra:
        games = sum(read_manifest(q)["num_games"] for q in extra)
        log(f"evidence: {len(extra)} more compatible runs in {root} ({games:,} games) join the report")
    return runs


def _title(game: str) -> str:
    return make(game).info.title
