"""Do the strong players see a designer's edit? Planted card edits, played printed and edited on the same seeds.

A game declares its planted edits as data (``Game.adaptation``: an :class:`AdaptationSpec` of :class:`PlantedEdit`,
each a card changed through :mod:`simulate.variants` value paths, and the way the edit should move the players'
take of that card). For each edit and each strong player, :func:`measure` plays the player's mirror games and its
games against the strongest heuristic, on the printed data and on the edited copy with the same seeds, and counts
the games in which a measured seat (any seat in a mirror, the strong player's in a match) acquired the card within
the first ``rounds`` rounds.

The games are those whose opening shows the card (a setup column of the game names it), found by playing the
game's default lineup on a fixed run of seeds: the card is there from the first turn in both arms, so only what it
does differs. Counting a whole game's acquisitions instead measures little but whether the card showed up: a
Century card left in the row slides to the free place and is picked up for the crystals on it, so every printed
card is taken in 37-55% of 2-player search games, the weakest as often as the strongest.

:func:`check_adaptation` lists each take that did not move the declared way by the edit's ``margin``: a player
that values every card alike, or by what the printed card did, fails it.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simulate.game import AdaptationSpec, Codes, Game, PlantedEdit
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.runner import RunSpec, plan_games
from simulate.variants import Variant, write_variant

__all__ = [
    "AdaptationSpec",
    "PlantedEdit",
    "Showing",
    "check_adaptation",
    "failures",
    "measure",
    "showing",
    "take_share",
]


@dataclass(frozen=True)
class Showing:
    """Games whose opening shows a card: their seeds and seat rotations (rows of ``simulate.runner.GamePlan``)."""

    setup_seed: np.ndarray
    play_seed: np.ndarray
    seat_lineup: np.ndarray


def showing(game: Game, data, card: str, num_players: int, games: int, seed: int) -> Showing:
    """The first ``games`` games of a run of seed ``seed`` whose opening (a column of ``game.setup_columns``) shows
    component ``card``, found by playing the game's default lineup; ValueError when 40 times as many show none."""
    lineup = parse_lineup(game, [game.default_bots], num_players)
    pool = 40 * games
    plan = plan_games(RunSpec(game.name, num_players, pool, seed, lineup), 0, pool)
    ids, params = lineup_arrays(game, lineup)
    tables = game.play_chunk(data, num_players, plan.seat_lineup, ids, params, plan.setup_seed, plan.play_seed)
    shown = np.zeros(pool, bool)
    for column in game.setup_columns:
        codes = tables.games[column]
        if isinstance(codes, Codes) and card in codes.categories:
            shown |= np.asarray(codes.codes) == codes.categories.index(card)
    chosen = np.flatnonzero(shown)[:games]
    if not len(chosen):
        raise ValueError(f"no opening of {pool} {game.name} games shows {card}")
    return Showing(plan.setup_seed[chosen], plan.play_seed[chosen], plan.seat_lineup[chosen])


def take_share(
    game: Game, data, card: str, lineup: list[str], measured: tuple[int, ...], games: Showing, rounds: int
) -> float:
    """The share of ``games`` played by ``lineup`` (one bot spec per seat, seats as ``games.seat_lineup``) in which
    a seat played by a lineup entry of ``measured`` acquired component ``card`` by round ``rounds`` (0-based)."""
    n = len(lineup)
    entries = parse_lineup(game, lineup, n)
    ids, params = lineup_arrays(game, entries)
    tables = game.play_chunk(data, n, games.seat_lineup, ids, params, games.setup_seed, games.play_seed)
    comp = tables.components
    code = comp["component"]
    if not isinstance(code, Codes) or card not in code.categories:
        raise ValueError(f"{game.name} has no component {card!r}")
    rows = (np.asarray(code.codes) == code.categories.index(card)) & (np.asarray(comp["round"]) <= rounds)
    g = np.asarray(comp["game"])[rows]
    entry = games.seat_lineup[g, np.asarray(comp["seat"])[rows]]
    return len(np.unique(g[np.isin(entry, measured)])) / len(games.setup_seed)


def measure(game: Game, spec: AdaptationSpec, players: tuple[str, ...] | None = None) -> pd.DataFrame:
    """Every planted edit of ``spec`` played printed and edited, for each strong player (``players``, default
    ``spec.players``) in its mirror games and against ``spec.rival``.

    Columns: ``edit``, ``card``, ``player``, ``lineup`` (``mirror`` or ``vs <rival>``), ``direction``, ``margin``,
    ``games`` (per arm), ``printed`` and ``edited`` (take shares), ``moved`` (``direction * (edited - printed)``),
    ``ok`` (``moved >= margin``).
    """
    n = spec.num_players
    printed = game.load_data(None, {})
    rows = []
    printed_takes: dict[tuple[str, tuple[str, ...]], float] = {}  # edits of one card share their printed arm
    with tempfile.TemporaryDirectory(prefix="golem-adapt-") as tmp:
        for k, edit in enumerate(spec.edits):
            folder, rules = write_variant(game, Variant(edit.name, edit.settings), Path(tmp) / f"edit{k}")
            edited = game.load_data(folder, rules)
            games = showing(game, printed, edit.card, n, spec.games, spec.seed)
            for player in players or spec.players:
                for label, lineup, measured in (
                    ("mirror", [player] * n, tuple(range(n))),
                    (f"vs {spec.rival}", [player] + [spec.rival] * (n - 1), (0,)),
                ):
                    key = (edit.card, tuple(lineup))
                    if key not in printed_takes:
                        printed_takes[key] = take_share(game, printed, edit.card, lineup, measured, games, spec.rounds)
                    before = printed_takes[key]
                    after = take_share(game, edited, edit.card, lineup, measured, games, spec.rounds)
                    moved = edit.direction * (after - before)
                    rows.append(
                        {
                            "edit": edit.name,
                            "card": edit.card,
                            "player": player,
                            "lineup": label,
                            "direction": edit.direction,
                            "margin": edit.margin,
                            "games": len(games.setup_seed),
                            "printed": before,
                            "edited": after,
                            "moved": moved,
                            "ok": bool(moved >= edit.margin),
                        }
                    )
    return pd.DataFrame(rows)


def failures(table: pd.DataFrame) -> list[str]:
    """One line per row of a :func:`measure` table whose take did not move the declared way by its margin."""
    return [
        f"{r.player} ({r.lineup}) took {r.card} ({r.edit}) by round {r.rounds} in {r.edited:.0%} of {r.games} "
        f"games edited, {r.printed:.0%} printed: wanted a move of {r.margin:.0%} {'up' if r.direction > 0 else 'down'}"
        for r in table.itertuples()
        if not r.ok
    ]


def check_adaptation(game: Game, players: tuple[str, ...] | None = None) -> list[str] | None:
    """The failures of ``game``'s planted edits (:func:`measure` with ``game.adaptation``); None when the game
    declares none."""
    spec = game.adaptation
    if spec is None:
        return None
    return failures(measure(game, spec, players).assign(rounds=spec.rounds))
