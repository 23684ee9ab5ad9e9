"""Do the strong players see a designer's edit? Planted card edits, played printed and edited on the same seeds.

A game declares its planted edits as data (``Game.adaptation``: an :class:`AdaptationSpec` of :class:`PlantedEdit`,
each a card changed through :mod:`simulate.variants` value paths, and the way the edit should move the players'
take of that card). For each edit and each strong player, :func:`measure` plays the player's mirror games and its
games against the strongest heuristic, on the printed data and on the edited copy with the same seeds, and counts
the games in which a measured seat (any seat in a mirror, the strong player's in a match) acquired the card within
the first ``rounds`` rounds (the whole game where the components table records no round: Golem's lists what a seat
ends with). Every lineup of one data arm plays in one batch on every CPU, and the edits of one card share the
printed arm.

The games are those whose opening shows the card (a setup column of the game names it, found by playing the
game's default lineup on a fixed run of seeds, or the spec's ``opening`` says so: Golem's Library), so the card is
there from the first turn in both arms and only what it does differs. Counting a whole game's acquisitions
instead measures little but whether the card showed up: a Century card left in the row slides to the free place
and is picked up for the crystals on it, so every printed card is taken in 37-55% of 2-player search games, the
weakest as often as the strongest.

:func:`check_adaptation` lists each asserted take that did not move the declared way by the edit's ``margin``: a
player that values every card alike, or by what the printed card did, fails it. The asserted takes are those of
``AdaptationSpec.players`` on every edit but the edits that record a player instead (``PlantedEdit.recorded``: a
player that misses that edit only); the recorded players (``AdaptationSpec.recorded``) are measured beside them on
every edit, never asserted (``benchmarks/adaptation.py`` prints every figure, :func:`asserted_text` says which are
asserted). An edit may play more games than the spec's (``PlantedEdit.games``: a take that starts near the floor
needs more to move by the margin) without raising every edit's cost.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simulate.game import AdaptationSpec, Codes, Game, Lineup, PlantedEdit
from simulate.lineup import lineup_arrays, parse_bot, parse_lineup
from simulate.runner import RunSpec, plan_games
from simulate.variants import Variant, write_variant

__all__ = [
    "AdaptationSpec",
    "PlantedEdit",
    "Showing",
    "asserted_text",
    "check_adaptation",
    "failures",
    "measure",
    "showing",
    "take_shares",
]


@dataclass(frozen=True)
class Showing:
    """Games whose opening shows a card: their seeds and seat rotations (rows of ``simulate.runner.GamePlan``)."""

    setup_seed: np.ndarray
    play_seed: np.ndarray
    seat_lineup: np.ndarray


def showing(
    game: Game,
    data,
    card: str,
    num_players: int,
    games: int,
    seed: int,
    opening: Callable[[Any, int, int], frozenset[str]] | None = None,
    threads: int = 1,
) -> Showing:
    """The first ``games`` games of a run of seed ``seed`` whose opening shows component ``card``: named by a column of
    ``game.info.setup_columns``, found by playing the game's default lineup, or among ``opening(data, num_players,
    setup_seed)`` (a market no setup column names); ValueError when 40 times as many show none."""
    lineup = parse_lineup(game, [game.info.default_bots], num_players)
    pool = 40 * games
    plan = plan_games(RunSpec(game.info.name, num_players, pool, seed, lineup), 0, pool)
    if opening is not None:
        shown = np.array([card in opening(data, num_players, int(s)) for s in plan.setup_seed])
    else:
        ids, params = lineup_arrays(game, lineup)
        tables = game.play_chunk(data, plan.lineup(num_players, ids, params), threads)
        shown = np.zeros(pool, bool)
        for column in game.info.setup_columns:
            codes = tables.games[column]
            if isinstance(codes, Codes) and card in codes.categories:
                shown |= np.asarray(codes.codes) == codes.categories.index(card)
    chosen = np.flatnonzero(shown)[:games]
    if not len(chosen):
        raise ValueError(f"no opening of {pool} {game.info.name} games shows {card}")
    return Showing(plan.setup_seed[chosen], plan.play_seed[chosen], plan.seat_lineup[chosen])


def take_shares(
    game: Game,
    data,
    card: str,
    players: tuple[str, ...],
    rival: str,
    games: Showing,
    rounds: int,
    threads: int = 1,
    use: str | None = None,
    rival_take: bool = False,
) -> dict[tuple[str, str], float]:
    """For each strong player of ``players``, the share of ``games`` in which a measured seat acquired component
    ``card`` by round ``rounds`` (0-based), in its mirror games (every seat measured) and in its games against
    ``rival`` (its seat measured, placed as entry 0 of ``games.seat_lineup``); keyed (player, ``mirror`` or
    ``vs <rival>``). Every lineup plays in one batch on ``threads`` threads (results never depend on their number).
    With ``use``, only the takes of that use count (the components table's ``use`` column). With ``rival_take``, also
    the rival's take in the same games against it (keyed (player, ``<rival>'s take vs <player>``)): a strong player's
    take that does not move may be one the rival now races it for.

    A component table without rounds (-1: a game that records what a seat ends with, not when) counts whole games.
    """
    n = games.seat_lineup.shape[1]
    size = len(games.setup_seed)
    entries = [parse_bot(game, spec) for spec in (*players, rival)]
    ids, params = lineup_arrays(game, entries)
    blocks = []  # (key, seat entries (G, n), measured seats (G, n))
    rivals = {}  # the rival's seats of a match block: (player, "<rival>'s take vs <player>") -> block index
    for k, player in enumerate(players):
        blocks.append(((player, "mirror"), np.full((size, n), k), np.ones((size, n), bool)))
        match = np.where(games.seat_lineup == 0, k, len(players))
        blocks.append(((player, f"vs {rival}"), match, games.seat_lineup == 0))
        if rival_take:
            rivals[(player, f"{rival}'s take vs {player}")] = len(blocks) - 1
    seat_lineup = np.concatenate([b[1] for b in blocks])
    measured = np.concatenate([b[2] for b in blocks])
    setup, play = np.tile(games.setup_seed, len(blocks)), np.tile(games.play_seed, len(blocks))
    tables = game.play_chunk(data, Lineup(n, seat_lineup, ids, params, setup, play), threads)
    comp = tables.components
    code = comp["component"]
    if not isinstance(code, Codes) or card not in code.categories:
        raise ValueError(f"{game.info.name} has no component {card!r}")
    rows = (np.asarray(code.codes) == code.categories.index(card)) & (np.asarray(comp["round"]) <= rounds)
    if use is not None:
        uses = comp.get("use")
        if not isinstance(uses, Codes) or use not in uses.categories:
            raise ValueError(f"{game.info.name}'s components table has no use {use!r}")
        rows &= np.asarray(uses.codes) == uses.categories.index(use)
    g, seat = np.asarray(comp["game"])[rows], np.asarray(comp["seat"])[rows]
    took = np.zeros(len(seat_lineup), bool)
    took[g[measured[g, seat]]] = True
    shares = {key: float(took[b * size : (b + 1) * size].mean()) for b, (key, _, _) in enumerate(blocks)}
    by_rival = np.zeros(len(seat_lineup), bool)
    by_rival[g[~measured[g, seat]]] = True
    return shares | {key: float(by_rival[b * size : (b + 1) * size].mean()) for key, b in rivals.items()}


def measure(
    game: Game,
    spec: AdaptationSpec,
    players: tuple[str, ...] | None = None,
    threads: int | None = None,
    rival_take: bool = False,
) -> pd.DataFrame:
    """Every planted edit of ``spec`` played printed and edited, for each strong player (``players``, default
    ``spec.players`` and ``spec.recorded``) in its mirror games and against ``spec.rival``, on ``threads`` threads
    (default: every CPU). Edits of one card and of one number of games (the edit's ``games``, else the spec's) share
    the printed arm's games (and its play, when they count alike).

    Columns: ``edit``, ``card``, ``use`` (the use counted, ``any``), ``rounds`` (the last counted), ``player``,
    ``asserted`` (one of ``spec.players`` not among the edit's ``recorded``), ``lineup`` (``mirror`` or
    ``vs <rival>``), ``direction``, ``margin``, ``games`` (per arm), ``printed`` and ``edited`` (take shares), ``moved``
    (``direction * (edited - printed)``), ``ok`` (``moved >= margin``). With ``rival_take`` (:func:`take_shares`),
    rows of the rival's take in each match too (``lineup`` ``<rival>'s take vs <player>``), recorded, never
    asserted: ``asserted`` False, ``ok`` True.
    """
    n = spec.num_players
    players = players or (*spec.players, *spec.recorded)
    threads = threads or os.cpu_count() or 1
    printed = game.load_data(None, {})
    rows = []
    shown: dict[tuple[str, int], Showing] = {}  # by (card, games)
    before: dict[tuple[str, str | None, int, int], dict[tuple[str, str], float]] = {}  # by (card, use, rounds, games)
    with tempfile.TemporaryDirectory(prefix="golem-adapt-") as tmp:
        for k, edit in enumerate(spec.edits):
            size = spec.games if edit.games is None else edit.games
            if (edit.card, size) not in shown:
                shown[edit.card, size] = showing(game, printed, edit.card, n, size, spec.seed, spec.opening, threads)
            games = shown[edit.card, size]
            rounds = spec.rounds if edit.rounds is None else edit.rounds
            arm = (edit.card, edit.use, rounds, size)
            if arm not in before:
                before[arm] = take_shares(
                    game, printed, edit.card, players, spec.rival, games, rounds, threads, edit.use, rival_take
                )
            folder, rules = write_variant(game, Variant(edit.name, edit.settings), Path(tmp) / f"edit{k}")
            edited = game.load_data(folder, rules)
            after = take_shares(
                game, edited, edit.card, players, spec.rival, games, rounds, threads, edit.use, rival_take
            )
            asserted = spec.asserted(edit)
            for (player, lineup), share in after.items():
                moved = edit.direction * (share - before[arm][player, lineup])
                of_rival = lineup.startswith(f"{spec.rival}'s take")
                rows.append(
                    {
                        "edit": edit.name,
                        "card": edit.card,
                        "use": edit.use or "any",
                        "rounds": rounds,
                        "player": player,
                        "asserted": player in asserted and not of_rival,
                        "lineup": lineup,
                        "direction": edit.direction,
                        "margin": edit.margin,
                        "games": len(games.setup_seed),
                        "printed": before[arm][player, lineup],
                        "edited": share,
                        "moved": moved,
                        "ok": of_rival or bool(moved >= edit.margin),
                    }
                )
    return pd.DataFrame(rows)


def failures(table: pd.DataFrame) -> list[str]:
    """One line per row of a :func:`measure` table whose take did not move the declared way by its margin."""
    return [
        f"{r.player} ({r.lineup}) took {r.card} ({r.edit}{'' if r.use == 'any' else ', ' + r.use}) by round {r.rounds} "
        f"in {r.edited:.0%} of {r.games} "
        f"games edited, {r.printed:.0%} printed: wanted a move of {r.margin:.0%} {'up' if r.direction > 0 else 'down'}"
        for r in table.itertuples()
        if not r.ok
    ]


def asserted_text(spec: AdaptationSpec) -> str:
    """What the check of ``spec`` asserts, in one line: each asserted player with the edits it is asserted on (all of
    them or which), the recorded ones, and the games per arm."""
    parts = []
    for player in (*spec.players, *spec.recorded):
        on = [e for e in spec.edits if player in spec.asserted(e)]
        if len(on) == len(spec.edits):
            parts.append(f"{player} asserted on every edit")
        elif on:
            parts.append(f"{player} asserted on {', '.join(f'{e.name} {e.card}' for e in on)}, recorded on the rest")
        else:
            parts.append(f"{player} recorded")
    sizes = sorted({spec.games if e.games is None else e.games for e in spec.edits})
    games = " or ".join(str(g) for g in sizes)
    return f"{'; '.join(parts)} (mirror and vs {spec.rival}, {games} games an arm)"


def check_adaptation(
    game: Game, players: tuple[str, ...] | None = None, spec: AdaptationSpec | None = None
) -> list[str] | None:
    """The failures of ``game``'s planted edits (:func:`measure` with ``spec``, default ``game.info.adaptation``): by
    default its asserted takes (``players`` on every edit but those that record them), or every take of the
    ``players`` given; None when the game declares none."""
    spec = spec or game.info.adaptation
    if spec is None:
        return None
    table = measure(game, spec, players or spec.players)
    return failures(table if players else table[table["asserted"]])
