"""Golem's apprentice: a fast player learned from the search bot (``simulate.apprentice``, ``golem train golem``).

The pieces, in import order (each module imports only those above it):

- ``data.APPRENTICE_FEATURES`` and ``data.APPRENTICE_PLAYERS``: the features' names and the player counts with a
  column of weights; ``loader.load`` reads ``seeds/golem/apprentice.csv`` into the tables' ``apprentice_w``;
- ``features.features``: a position from one seat's view (only what that seat can see);
- ``search_bot``: its ``leaf`` parameter values unfinished leaves with the apprentice (``features.leaf_values``);
- ``apprentice_bot.apprentice_action``: the bot's decision (one afterstate per option, the search bot's options
  and determinisation);
- ``play``: the game loop, which records the positions of training games when asked;
- this module: :data:`APPRENTICE`, what ``golem train golem`` needs, and :func:`positions`.
"""

from __future__ import annotations

import numpy as np

import simulate.play as loop
from simulate.game import ApprenticeSpec, ChoiceLog, Choices, Lineup, Positions
from simulate.gamekit import replayed_decisions
from simulate.games.golem import columns, engine, play
from simulate.games.golem.apprentice_bot import choice_features, new_apprentice_scratch
from simulate.games.golem.data import APPRENTICE_FEATURES, APPRENTICE_PLAYERS, VALUE_FILE, VALUE_PLAYERS, GolemData
from simulate.games.golem.engine.state import new_pads, new_state
from simulate.games.golem.features import NUM_FEATURES, features
from simulate.games.golem.search_bot import MAX_MOVES, new_scratch

FEATURES = APPRENTICE_FEATURES
PLAYER_COUNTS = APPRENTICE_PLAYERS
MAX_RECORDED = 640  # decisions recorded per game (a 4-player game of search bots makes about 250; past it: skipped)
_STREAM_CHOICE = 0xC402  # the re-deal of a recorded decision's unseen cards: derived from the play seed and decision
BATCH = 64  # games played per recording batch (bounds the recording buffer: 64 x 640 x 4 x 46 float32, 30 MB)

__all__ = ["APPRENTICE", "FEATURES", "PLAYER_COUNTS", "choices", "features", "positions"]


def _positions(data: GolemData, lineup: Lineup) -> Positions:
    """Play one game per seed pair as ``Game.play_chunk`` does (the same games) and return their positions: after
    every decision (setup decisions included, up to ``MAX_RECORDED`` a game), the features from every seat's view,
    and each seat's final win (the rules' ranking; solo: 1 when the player beats the Automa)."""
    num_players = lineup.num_players
    total = len(lineup.setup_seeds)
    xs, games, seats = [], [], []
    win = np.zeros((total, num_players), np.float64)
    for g0 in range(0, total, BATCH):
        g1 = min(total, g0 + BATCH)
        rec = np.zeros((g1 - g0, MAX_RECORDED, num_players, NUM_FEATURES), np.float32)
        count = np.zeros(g1 - g0, np.int64)
        st = play.play_lineup(data, lineup.part(g0, g1), record=rec, record_count=count)
        win[g0:g1] = columns.results(data, st)["win"]
        x, game, seat = loop.recorded_rows(rec.reshape(g1 - g0, -1, NUM_FEATURES), count * num_players, num_players, g0)
        xs.append(x)
        games.append(game)
        seats.append(seat)
    if not xs:
        return Positions(np.zeros((0, NUM_FEATURES), np.float32), np.zeros(0, np.int64), np.zeros(0, np.int8), win)
    return Positions(np.concatenate(xs), np.concatenate(games), np.concatenate(seats), win)


positions = loop.by_arguments(_positions)
""":func:`_positions` with the lineup's fields as arguments (``ApprenticeSpec.positions``)."""


def _choices(data: GolemData, lineup: Lineup) -> Choices:
    """Play one game per seed pair as a run does (``play.trace_game``) and return the bots' :class:`Choices`: at every
    decision past setup with more than one option, the features of every option's afterstate from the mover's view
    (``apprentice_bot.choice_features``, the unseen re-dealt from the game's play seed and the decision's number)
    and which of them the bot played."""
    blank = new_state(1)
    scratch = new_apprentice_scratch(blank, new_scratch(blank, new_pads(1)))
    feats = np.zeros((MAX_MOVES, NUM_FEATURES))
    options = scratch[3]
    rec = new_state(1)  # each game's record, set up anew for every game

    def start(one: Lineup) -> np.ndarray:
        engine.init_one(rec, 0, data.kernel, one.num_players, one.setup_seeds, one.play_seeds)
        return rec

    log = ChoiceLog(NUM_FEATURES)
    decisions = replayed_decisions(
        play.trace_game, data, lineup, start, lambda st, a: engine.apply_one(st, 0, data.kernel, int(a)), _STREAM_CHOICE
    )
    for g, _, st, _, a, seed in decisions:
        n = choice_features(st, 0, data.kernel, seed, scratch, feats)
        if n > 1:
            picked = options[:n, 0] == a
            if picked.sum() == 1:  # a bot other than search may play an option search does not try
                log.add(feats[:n], picked, g)
    return log.choices()


choices = loop.by_arguments(_choices)
""":func:`_choices` with the lineup's fields as arguments (``ApprenticeSpec.choices``)."""


APPRENTICE = ApprenticeSpec(
    features=FEATURES,
    player_counts=PLAYER_COUNTS,
    positions=positions,
    rival="balanced",
    games=600,
    strength_games=2000,
    student_mirrors=0.0,
    # the value fit ranks a decision's options poorly: refitted to the search's choices, the 2-player apprentice won
    # 41.5% of 4,000 games against search (the value fit 35.8%), and the 4-player one's mirror games give each place
    # in the turn order the search's share (the value fit gave the first place 2.2 pp less); docs/golem.md
    choices=choices,
    policy_counts=VALUE_PLAYERS,
    value_file=VALUE_FILE,
)
"""How ``golem train golem`` fits the apprentice. The defaults' cost (docs/golem.md, Apprentice): a teacher game of
search bots in every seat takes about 0.23 s of CPU at 2 players, 0.5 s at 3 and 0.74 s at 4 (``leaf=1``: 0.29 s
and 0.66 s), so an iteration's 600 games per player count take about 900 CPU seconds, 3 iterations about 45 CPU
minutes: about 23 minutes on 2 cores; the strength check's 2,000 games of the apprentice against ``balanced`` at 2
players take about a second, its 2,000 against ``search`` (the check against the teacher) about what 1,000 2-player
teacher games take, one seat of two searching. The apprentice's own games are all against ``balanced``
(``student_mirrors`` 0): its mirror games never stalled (none of 200 a player count in any iteration of the shipped
fit, which was made so)."""
