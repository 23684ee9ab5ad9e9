"""The golem-poker numba engine and the plain-Python reference engine agree move by move.

Games are played by the numba kernel with its bots; their move records are then replayed through both engines
(``simulate.conformance.compare_moves`` over ``GolemPokerTwin``), comparing every state field after every move,
and the legal moves on the way. Rule variants are covered by replaying under non-default options too.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulate.conformance import compare_moves
from simulate.games.golem_poker import bots as B
from simulate.games.golem_poker import data as D
from simulate.games.golem_poker.columns import PROFILE, columns, results
from simulate.games.golem_poker.play import play_batch, play_columns, replay_moves, trace_game
from simulate.games.golem_poker.reference import GolemPokerReference
from simulate.games.golem_poker.state import BET, END_ILLEGAL, FOLD, M_KIND, MATCH, RAISE, RUNNING
from simulate.games.golem_poker.twin import GolemPokerTwin
from simulate.rng import game_seeds

MASTER_SEED = 20240159
LINEUPS = {
    "random": ["random"] * 6,
    "threshold": ["tight_passive", "loose_aggressive", "bluffer", "loose_passive", "tight_aggressive", "threshold"],
    "equity": ["equity", "random", "loose_aggressive", "equity", "bluffer", "tight_passive"],
    "search": ["search", "equity", "tight_aggressive", "search", "loose_passive", "bluffer"],
    "cfr": ["cfr", "loose_aggressive", "cfr", "equity", "tight_passive", "bluffer"],
}
# Rule variants replayed (besides the defaults): each flips several options at once.
VARIANTS = {
    "default": {},
    "variant_a": {
        "rank_one": "high",
        "golem_tie": "player",
        "player_tie": "amulet",
        "golem_short": "deck",
        "golem_folded": False,
        "redeal_ante": True,
        "house_rounding": "up",
        "stack_antes": 4,
    },
    "variant_b": {
        "golem_short": "none",
        "cannot_pay": "credit",
        "stack_antes": 2,
        "max_bet_antes": 2,
        "max_raise_antes": 1,
        "max_raises": 1,
        "house_rounding": "nearest",
        "house_cut_pct": 7.5,
        "penalty_antes": 5,
        "ante": 7,
        "min_bet_antes": 2,
    },
}
GAMES = {"random": 60, "threshold": 60, "equity": 12, "search": 12, "cfr": 40}


def lineup(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.array([B.BOTS[n][0] for n in names])
    params = np.stack([B.default_params(n) for n in names])
    return ids, params


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("style", list(LINEUPS))
def test_engines_agree_move_by_move(style: str, variant: str) -> None:
    data = D.load(rules=VARIANTS[variant])
    total_moves = 0
    for num_players in (3, 4, 6):
        ids, params = lineup(LINEUPS[style][:num_players])
        games = GAMES[style] // 3
        first = 1000 * num_players + 100 * list(LINEUPS).index(style)
        setup, play = game_seeds(MASTER_SEED, np.arange(first, first + games), np.arange(first, first + games))
        for k in range(games):
            moves, final = trace_game(data, num_players, np.arange(num_players), ids, params, setup[k], play[k])
            assert final["over"][0] not in (RUNNING, END_ILLEGAL), "kernel game must end by the rules"
            twin = GolemPokerTwin(data, num_players, int(setup[k]), int(play[k]))
            total_moves += compare_moves(twin, moves, f"{num_players}p {style} {variant} game {k}")
            ref = twin.reference
            assert ref.is_terminal()
            end = {name: final[0]["rng"][:1] if name == "rng0" else final[0][name] for name in ref.to_arrays()}
            assert all(np.array_equal(end[n], v) for n, v in twin.reference_view().items()), "the batch kernel's end"
            res = results(final, num_players)
            assert res["score"][0].tolist() == ref.scores()
            assert res["win"][0].tolist() == pytest.approx(ref.wins())
            assert res["rank"][0].tolist() == ref.ranks()
            assert sum(ref.scores()) + ref.house_take == 0
    assert total_moves > GAMES[style] * 5


def test_batch_kernel_equals_traced_games() -> None:
    """The batch loop (serial and threaded) plays exactly the games the tracer plays."""
    data = D.load()
    ids, params = lineup(["tight_aggressive", "equity", "bluffer", "search"])
    setup, play = game_seeds(MASTER_SEED, np.arange(48), np.arange(48))
    seat = np.tile(np.arange(4), (48, 1))
    serial = play_batch(data, 4, seat, ids, params, setup, play)
    threaded = play_batch(data, 4, seat, ids, params, setup, play, threads=2)
    assert serial.tobytes() == threaded.tobytes()
    for k in (0, 17, 47):
        _, one = trace_game(data, 4, np.arange(4), ids, params, setup[k], play[k])
        assert one.tobytes() == serial[k : k + 1].tobytes()


def test_chunk_columns_equal_the_columns_of_the_batch_records() -> None:
    """``play_columns`` (one reused record per block) logs exactly the games ``play_batch`` plays."""
    data = D.load(rules={"stack_antes": 3, "golem_short": "deck"})
    ids, params = lineup(["tight_aggressive", "random", "bluffer", "search", "equity"])
    params[:, 0] = np.where((ids == B.EQUITY) | (ids == B.SEARCH), 16, params[:, 0])
    setup, play = game_seeds(MASTER_SEED, np.arange(300), np.arange(300))
    seat = (np.arange(5)[None, :] + np.arange(300)[:, None]) % 5
    batch = play_batch(data, 5, seat, ids, params, setup, play)
    games, seats, deals = columns(data, batch, 5)
    res = results(batch, 5)
    assert np.array_equal(seats["score"], res["score"].ravel()) and np.array_equal(seats["rank"], res["rank"].ravel())
    for g in (0, int(np.argmax(batch["num_showdowns"]))):
        shown = slice(deals["offsets"][g], deals["offsets"][g + 1])
        assert np.array_equal(deals["deal_golem_beaten"][shown], batch["log_beaten"][g][: batch["num_showdowns"][g]])
    for threads in (1, 2):
        g2, s2, d2 = play_columns(data, 5, seat, ids, params, setup, play, threads=threads)
        for name in games:
            assert np.array_equal(games[name], g2[name]), name
        for name in seats:
            assert np.array_equal(seats[name], s2[name]), name
        for name in deals:
            assert np.array_equal(deals[name], d2[name]), name


def test_engine_replay_of_recorded_moves_reaches_the_played_games() -> None:
    """``replay_moves`` (the engine alone, for golem bench) ends every game where the kernel ended it."""
    data = D.load()
    ids, params = lineup(["bluffer", "random", "tight_aggressive", "loose_passive"])
    setup, play = game_seeds(MASTER_SEED, np.arange(40), np.arange(40))
    traces, finals = zip(
        *(trace_game(data, 4, np.arange(4), ids, params, setup[k], play[k]) for k in range(40)), strict=True
    )
    replayed = replay_moves(data, 4, setup, play, list(traces))
    for k, final in enumerate(finals):
        for name in replayed.dtype.names:
            if name != "rng":  # the replay draws no bot randomness
                assert np.array_equal(replayed[k][name], final[0][name]), (k, name)


def test_play_profile_counts_the_moves_played() -> None:
    """Each seat's folds, bets, raises and calls are its moves of those kinds, replayed through the reference."""
    data = D.load()
    names = ["random", "tight_aggressive", "bluffer", "loose_passive"]
    ids, params = lineup(names)
    games = 40
    setup, play = game_seeds(MASTER_SEED, np.arange(games), np.arange(games))
    seat = np.tile(np.arange(4), (games, 1))
    _, seats, _ = play_columns(data, 4, seat, ids, params, setup, play)
    totals = np.zeros(4, np.int64)
    for k in range(games):
        moves, _ = trace_game(data, 4, np.arange(4), ids, params, setup[k], play[k])
        ref = GolemPokerReference(data, 4, int(setup[k]))
        counted = np.zeros((4, 4), np.int64)  # folds, bets, raises, calls
        for mv in moves:
            s = ref.current_player()
            kind = int(mv[M_KIND])
            if kind in (FOLD, BET, RAISE):
                counted[s, (FOLD, BET, RAISE).index(kind)] += 1
            elif kind == MATCH and ref.current_bet > ref.bet_in[s]:
                counted[s, 3] += 1
            ref.apply_action(mv)
        for s in range(4):
            row = 4 * k + s
            got = [int(seats[name][row]) for name in ("folds", "bets", "raises", "calls")]
            assert got == counted[s].tolist(), f"game {k} seat {s}"
        totals += counted.sum(axis=0)
    assert (totals > 0).all()  # every counted kind occurs
    assert set(PROFILE) <= set(seats)
