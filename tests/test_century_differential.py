"""The numba engine and the plain-Python reference engine agree move by move.

Games are played by the numba kernel with its bots; their move records are then replayed
through both engines (``simulate.conformance.compare_moves`` over ``CenturyTwin``), comparing every
state field after every move, and the legal move sets on the way.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulate.conformance import compare_moves
from simulate.games.century import bots as B
from simulate.games.century import data as D
from simulate.games.century.data import KINDS
from simulate.games.century.play import PROFILE, play_batch, results, trace_game
from simulate.games.century.state import ACQUIRE, CLAIM, M_ARG, M_DISCARD, M_KIND, PLAY, REST
from simulate.games.century.twin import CenturyTwin
from simulate.rng import game_seeds

MASTER_SEED = 20261130
DATA = D.load()
LINEUPS = {
    "random": ["random"] * 5,
    "mixed": ["random", "greedy", "engine", "planner", "greedy"],
    "strong": ["planner", "engine", "greedy", "engine", "planner"],
    "search": ["search", "planner", "search", "greedy", "search"],
    "apprentice": ["apprentice", "search", "apprentice", "planner", "apprentice"],
}
GAMES = {"random": 150, "mixed": 150, "strong": 100, "search": 10, "apprentice": 20}  # 430 games per player count
"""Games per lineup and player count (the reference engine steps every move in Python: about 0.1 s a random game)."""


def lineup(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.array([B.BOTS[n][0] for n in names])
    params = np.stack([B.default_params(n) for n in names])
    params[ids == B.SEARCH, 0] = 30  # search iterations: its moves are checked here, not its strength
    return ids, params


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
@pytest.mark.parametrize("style", list(LINEUPS))
def test_engines_agree_move_by_move(num_players: int, style: str) -> None:
    ids, params = lineup(LINEUPS[style][:num_players])
    games = GAMES[style]
    first = 1000 * num_players + 100 * list(LINEUPS).index(style)
    setup, play = game_seeds(MASTER_SEED, np.arange(first, first + games), np.arange(first, first + games))
    total_moves = 0
    for k in range(games):
        moves, final = trace_game(DATA, num_players, np.arange(num_players), ids, params, setup[k], play[k])
        assert final["over"][0] in (1, 2), "kernel game must end by the trigger or the round cap"
        twin = CenturyTwin(DATA, num_players, int(setup[k]), int(play[k]))
        every = 1 if k < 10 else 7  # the first games at every move, the others every 7th (a divergence persists)
        total_moves += compare_moves(
            twin, moves, f"{num_players}p {style} game {k}", legal_every=every, view_every=every
        )
        ref = twin.reference
        assert ref.is_terminal()
        batch = {name: final[0][name] for name in final.dtype.names if name != "rng"}
        assert all(np.array_equal(batch[n], v) for n, v in twin.kernel_view().items()), "the batch kernel's end"
        res = results(DATA, final)
        assert res["score"][0].tolist() == ref.scores()
        assert res["win"][0].tolist() == pytest.approx(ref.wins())
        assert res["rank"][0].tolist() == ref.ranks()
    assert total_moves > games * 20


def test_batch_kernel_equals_traced_games() -> None:
    """The batch loop (serial and threaded) plays exactly the games the tracer plays."""
    ids, params = lineup(["greedy", "engine", "planner"])
    setup, play = game_seeds(MASTER_SEED, np.arange(64), np.arange(64))
    seat = np.tile(np.arange(3), (64, 1))
    serial, open_m, _, counts = play_batch(DATA, 3, seat, ids, params, setup, play)
    threaded, _, _, threaded_counts = play_batch(DATA, 3, seat, ids, params, setup, play, threads=2)
    assert serial.tobytes() == threaded.tobytes()
    assert (counts == threaded_counts).all()
    for k in (0, 17, 63):
        _, one = trace_game(DATA, 3, np.arange(3), ids, params, setup[k], play[k])
        assert one.tobytes() == serial[k : k + 1].tobytes()
    assert (open_m[:, :6] >= 0).all() and (open_m[:, 6:] == -1).all()


def test_play_profile_counts_the_moves_played() -> None:
    """Each seat's play-profile counts are its traced moves counted by kind, card kind and crystals returned."""
    ids, params = lineup(["random", "greedy", "planner"])
    games = 12
    setup, play = game_seeds(MASTER_SEED, np.arange(games), np.arange(games))
    seat = np.tile(np.arange(3), (games, 1))
    final, _, _, counts = play_batch(DATA, 3, seat, ids, params, setup, play)
    kind_column = {KINDS["create"]: "creates", KINDS["trade"]: "trades", KINDS["upgrade"]: "upgrades"}
    move_column = {ACQUIRE: "merchants_bought", REST: "rests", CLAIM: "claims"}
    for g in range(games):
        moves, _ = trace_game(DATA, 3, np.arange(3), ids, params, setup[g], play[g])
        expected = np.zeros((3, len(PROFILE)), np.int64)
        for t, mv in enumerate(moves):
            s = t % 3
            if mv[M_KIND] == PLAY:
                column = kind_column[int(DATA.tables.m_kind[mv[M_ARG]])]
            else:
                column = move_column.get(int(mv[M_KIND]))
            if column is not None:
                expected[s, PROFILE.index(column)] += 1
            expected[s, PROFILE.index("crystals_discarded")] += mv[M_DISCARD : M_DISCARD + 4].sum()
        assert counts[g, :3].tolist() == expected.tolist()
        assert counts[g, :3, PROFILE.index("claims")].tolist() == final["num_points"][g, :3].tolist()
    assert counts[:, :3].sum(axis=(0, 1)).min() > 0  # every mechanism is used by someone
