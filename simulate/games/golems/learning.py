"""Golems' apprentice as ``golem train golems`` fits it: its training positions and its :class:`ApprenticeSpec`.

Apart from the bot (``apprentice.py``), which the play loop imports: the positions are played by that loop.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np

import simulate.play as loop
from simulate.game import ApprenticeSpec, ChoiceLog, Choices, Lineup, Positions
from simulate.gamekit import replayed_decisions
from simulate.games.golems import columns, play
from simulate.games.golems.apprentice import RECORD_DECISIONS, SOLO_MARGIN_SCALE, choice_features
from simulate.games.golems.bots import SEARCH, new_work
from simulate.games.golems.data import VALUE_FILE, VALUE_PLAYERS, GolemsData
from simulate.games.golems.engine import game_init, game_step
from simulate.games.golems.features import FEATURES, NUM_FEATURES, PLAYER_COUNTS
from simulate.games.golems.search_bot import S_ITERATIONS, SEARCH_MOVES, new_scratch, root_shares
from simulate.games.golems.state import *
from simulate.rng import derive_seed
from simulate.search import new_tree

_STREAM_CHOICE = 0xC401
_STREAM_SHARES = 0xC402


def _positions(data: GolemsData, lineup: Lineup) -> Positions:
    """Play one game per seed pair as ``Golems.play_chunk`` does and return their :class:`Positions`.

    After every move (up to ``RECORD_DECISIONS`` per game) the features of the position from every seat's view;
    ``win[g, s]`` is seat s's share of game g's win. Solo, the ``search`` teacher beats the automaton in every
    game (400 of 400, and 1,000 of 1,000 in docs/golems.md), so a win share would teach nothing (and one class
    cannot be fitted): there ``win[g, 0]`` is the win graded by the final margin over the automaton, the
    logistic of margin / ``SOLO_MARGIN_SCALE`` (a 1-point win 0.62, 4 points 0.88, a tie 0.5, a 4-point loss 0.12).
    """
    num_players = lineup.num_players
    st, x, game, seat = play.play_lineup_recorded(data, lineup, RECORD_DECISIONS * num_players)
    res = columns.results(data, st)
    win = res["win"].astype(np.float64)
    if num_players == 1:
        margin = res["score"][:, 0].astype(np.float64) - st["automa_vp"]
        win[:, 0] = 1.0 / (1.0 + np.exp(-margin / SOLO_MARGIN_SCALE))
    return Positions(x, game, seat, win)


positions = loop.by_arguments(_positions)
""":func:`_positions` with the lineup's fields as arguments (``ApprenticeSpec.positions``)."""


def _key(mv: np.ndarray) -> tuple[int, ...]:
    """A move as the tree lists it: the card, ability and column (a summon's tucks are the collector's)."""
    if mv[M_KIND] != TAKE_CARD:
        return (int(mv[M_KIND]),)
    return int(mv[M_KIND]), int(mv[M_ROW]), int(mv[M_POS]), int(mv[M_ABILITY]), int(mv[M_COLUMN])


def _choices(data: GolemsData, lineup: Lineup) -> Choices:
    """Play one game per seed pair as a run does (``play.trace_game``) and return the bots' :class:`Choices`.

    At every decision with more than one candidate move (``apprentice.choice_features``, the unseen cards re-dealt
    from the game's play seed and the decision's number) none of which ends the game: the features of every
    candidate's afterstate from the mover's view, which of them the bot played and, for the search bot, the share
    of its root visits each received in a second search of the position (``search_bot.root_shares``, seeded from
    the decision's number; the chosen move alone for other bots).
    """
    blank = new_state(1, data.tables)
    ws = new_work(1, blank.dtype)
    scratch = new_scratch(blank)
    feats = np.zeros((SEARCH_MOVES, NUM_FEATURES))
    lineup_ids, lineup_params = lineup.bot_ids, lineup.bot_params
    budget = max([int(p[S_ITERATIONS]) for b, p in zip(lineup_ids, lineup_params, strict=True) if b == SEARCH] + [0])
    tree = new_tree(budget + 1, MOVE_LEN, SEARCH_MOVES)
    shares = np.zeros(SEARCH_MOVES)
    log = ChoiceLog(NUM_FEATURES, shares=True)

    def start(one: Lineup) -> np.ndarray:
        st = new_state(1, data.tables)
        game_init(st, data.kernel, 0, one.num_players, one.setup_seeds, one.play_seeds)
        return st

    decisions = replayed_decisions(
        play.trace_game, data, lineup, start, lambda st, mv: game_step(st, data.kernel, 0, mv), _STREAM_CHOICE
    )
    for g, one, st, t, mv, seed in decisions:
        n = choice_features(st, data.kernel, seed, ws, feats)
        if n > 1:
            keys = [_key(ws[0]["moves"][k]) for k in range(n)]
            chosen = np.arange(n) == keys.index(_key(mv))
            b = one.seat_bot[st[0]["current"]]
            if lineup_ids[b] == SEARCH:
                sim = st.copy()
                sim["rng"][0, 0] = derive_seed(np.uint64(one.play_seeds), np.uint64(_STREAM_SHARES), np.uint64(t))
                root_shares(sim, data.kernel, lineup_params[b], tree, scratch, ws[0]["moves"], n, shares)
                log.add(feats[:n], chosen, g, shares[:n])
            else:
                log.add(feats[:n], chosen, g, chosen)
    return log.choices()


choices = loop.by_arguments(_choices)
""":func:`_choices` with the lineup's fields as arguments (``ApprenticeSpec.choices``)."""


APPRENTICE = ApprenticeSpec(
    features=FEATURES,
    player_counts=PLAYER_COUNTS,
    positions=positions,
    rival="lookahead",
    # logits of a position's moves differ by hundredths to tenths: 0.1 explores (the fitted apprentice still
    # wins about half its games against lookahead there), 0.5 would be near-uniform play
    student="apprentice:temperature=0.1",
    # CPU per game (4 Dec 2026, load 6-8): search 68 ms (2 players) and 41 ms (solo), search:leaf=1 74 and 55 ms,
    # the student's games against lookahead about 4 ms: 3 iterations of 3,000 games per player count take about
    # 19 CPU-minutes, 10-20 minutes on 2 cores with the fits and the strength checks
    games=3000,
    # the value fit ranks a position's moves poorly (it picks the search's move at 44% of its decisions and won 16.4%
    # of 2,000 games against it); refitted to the search's choices, 51% and 34.1% (docs/golems.md)
    choices=choices,
    policy_counts=VALUE_PLAYERS,
    value_file=VALUE_FILE,
)
