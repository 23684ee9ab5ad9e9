"""Century's apprentice as ``golem train century``'s policy stage sees it: the bots' choices in played games.

Apart from the bot (``apprentice.py``), which the play loop imports: the choices are those of games that loop plays.
"""

from __future__ import annotations

import numpy as np

from simulate.game import Choices
from simulate.games.century import play
from simulate.games.century.apprentice import MAX_MOVES, choice_features, new_apprentice_scratch
from simulate.games.century.bots import SCRATCH_MOVES, SEARCH
from simulate.games.century.data import CenturyData
from simulate.games.century.engine import game_step
from simulate.games.century.features import NUM_FEATURES
from simulate.games.century.search_bot import S_ITERATIONS, new_scratch, root_shares
from simulate.games.century.state import M_DISCARD, MOVE_LEN, new_state
from simulate.rng import derive_seed
from simulate.search import new_tree

_STREAM_CHOICE = 0xC401
_STREAM_SHARES = 0xC402


def choices(
    data: CenturyData,
    num_players: int,
    seat_lineup: np.ndarray,
    lineup_ids: np.ndarray,
    lineup_params: np.ndarray,
    setup_seeds: np.ndarray,
    play_seeds: np.ndarray,
) -> Choices:
    """Play one game per seed pair as a run does (``play.trace_game``) and return the bots' :class:`Choices`.

    At every decision with more than one candidate move (``apprentice.choice_features``, the next card of each deck
    re-dealt from the game's play seed and the decision's number) none of which ends the game: the features of every
    candidate's afterstate from the mover's view, which of them the bot played (its action; the discard over the
    limit is the greedy one's in every candidate) and, for the search bot, the share of its root visits each
    received in a second search of the position (``search_bot.root_shares``, seeded from the decision's number; the
    chosen move alone for other bots). A decision whose played action is not a candidate (a bot other than search
    may pay otherwise) is left out.
    """
    blank = new_state(1, data.tables)
    scratch = new_apprentice_scratch(blank)
    candidates = scratch[2]
    feats = np.zeros((MAX_MOVES, NUM_FEATURES))
    budget = max([int(p[S_ITERATIONS]) for b, p in zip(lineup_ids, lineup_params, strict=True) if b == SEARCH] + [0])
    tree = new_tree(budget + 1, MOVE_LEN, SCRATCH_MOVES)
    search_scratch = new_scratch(blank)
    shares = np.zeros(MAX_MOVES)
    seat_lineup = np.asarray(seat_lineup).reshape(len(setup_seeds), num_players)
    xs, decisions, chosen, share, games = [], [], [], [], []
    count = 0
    for g in range(len(setup_seeds)):
        moves, _ = play.trace_game(
            data, num_players, seat_lineup[g], lineup_ids, lineup_params, setup_seeds[g], play_seeds[g]
        )
        st = play.replay_moves(data, num_players, setup_seeds[g : g + 1], play_seeds[g : g + 1], [moves[:0]])
        for t, mv in enumerate(moves):
            seed = derive_seed(np.uint64(play_seeds[g]), np.uint64(_STREAM_CHOICE), np.uint64(t))
            n = choice_features(st, data.kernel, np.uint64(seed), scratch, feats)
            picked = (candidates[:n, :M_DISCARD] == mv[:M_DISCARD]).all(axis=1) if n > 1 else None
            if picked is not None and picked.sum() == 1:
                xs.append(feats[:n].astype(np.float32))
                decisions.append(np.full(n, count, np.int64))
                chosen.append(picked)
                b = seat_lineup[g][st[0]["current"]]
                if lineup_ids[b] == SEARCH:
                    sim = st.copy()
                    sim["rng"][0, 0] = derive_seed(np.uint64(play_seeds[g]), np.uint64(_STREAM_SHARES), np.uint64(t))
                    root_shares(sim, data.kernel, lineup_params[b], tree, search_scratch, candidates, n, shares)
                    share.append(shares[:n].astype(np.float32))
                else:
                    share.append(picked.astype(np.float32))
                games.append(np.full(n, g, np.int64))
                count += 1
            if game_step(st, data.kernel, 0, mv) != 0:
                raise RuntimeError(f"game {g}: move {t} of its trace is illegal on replay")
    if not xs:
        empty = np.zeros(0, np.int64)
        return Choices(
            np.zeros((0, NUM_FEATURES), np.float32), empty, np.zeros(0, bool), empty, np.zeros(0, np.float32)
        )
    columns = (xs, decisions, chosen, games, share)
    return Choices(*(np.concatenate(c) for c in columns))
