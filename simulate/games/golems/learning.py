"""Golems' apprentice as ``golem train golems`` fits it: its training positions and its :class:`ApprenticeSpec`.

Apart from the bot (``apprentice.py``), which the play loop imports: the positions are played by that loop.
"""

from __future__ import annotations

import numpy as np

from simulate.game import ApprenticeSpec, Positions
from simulate.games.golems import play
from simulate.games.golems.apprentice import RECORD_DECISIONS, SOLO_MARGIN_SCALE
from simulate.games.golems.features import FEATURES, PLAYER_COUNTS


def positions(
    data,
    num_players: int,
    seat_lineup: np.ndarray,
    lineup_ids: np.ndarray,
    lineup_params: np.ndarray,
    setup_seeds: np.ndarray,
    play_seeds: np.ndarray,
) -> Positions:
    """Play one game per seed pair as ``Golems.play_chunk`` does and return their :class:`Positions`.

    After every move (up to ``RECORD_DECISIONS`` per game) the features of the position from every seat's view;
    ``win[g, s]`` is seat s's share of game g's win. Solo, the ``search`` teacher beats the automaton in every
    game (400 of 400, and 1,000 of 1,000 in docs/golems.md), so a win share would teach nothing (and one class
    cannot be fitted): there ``win[g, 0]`` is the win graded by the final margin over the automaton, the
    logistic of margin / ``SOLO_MARGIN_SCALE`` (a 1-point win 0.62, 4 points 0.88, a tie 0.5, a 4-point loss 0.12).
    """
    cap = RECORD_DECISIONS * num_players
    st, x, game, seat = play.play_recorded(
        data, num_players, seat_lineup, lineup_ids, lineup_params, setup_seeds, play_seeds, cap
    )
    res = play.results(data, st)
    win = res["win"].astype(np.float64)
    if num_players == 1:
        margin = res["score"][:, 0].astype(np.float64) - st["automa_vp"]
        win[:, 0] = 1.0 / (1.0 + np.exp(-margin / SOLO_MARGIN_SCALE))
    return Positions(x, game, seat, win)


APPRENTICE = ApprenticeSpec(
    features=FEATURES,
    player_counts=PLAYER_COUNTS,
    positions=positions,
    rival="lookahead",
    teacher="search",
    expert="search:leaf=1",
    # logits of a position's moves differ by hundredths to tenths: 0.1 explores (the fitted apprentice still
    # wins about half its games against lookahead there), 0.5 would be near-uniform play
    student="apprentice:temperature=0.1",
    # CPU per game (4 Dec 2026, load 6-8): search 68 ms (2 players) and 41 ms (solo), search:leaf=1 74 and 55 ms,
    # the student's games against lookahead about 4 ms: 3 iterations of 3,000 games per player count take about
    # 19 CPU-minutes, 10-20 minutes on 2 cores with the fits and the strength checks
    games=3000,
    iterations=3,
    strength_games=400,
)
