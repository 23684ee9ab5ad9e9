"""Golems' ``search`` bot (the shared ISMCTS of ``simulate/search.py``).

A constructed last turn where one card wins, a no-peeking test (only the unseen cards change, the
decision does not), the tree's moves checked against the engine's, the bot's games replayed
through the reference engine with the invariants checked after every move (two players and solo,
every rule variant), and the same games with one and two workers.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_golems_differential import VARIANTS, check_invariants, compare

from simulate.games.golems import bots as B
from simulate.games.golems import data as D
from simulate.games.golems.columns import results
from simulate.games.golems.engine import game_init, game_legal_moves, game_step
from simulate.games.golems.play import play_batch, trace_game
from simulate.games.golems.reference import GolemsReference, move_key
from simulate.games.golems.search_bot import SEARCH_MOVES, new_scratch, search_action, tree_moves
from simulate.games.golems.state import (
    END_ILLEGAL,
    M_ABILITY,
    M_KIND,
    M_POS,
    M_ROW,
    MAX_MOVES,
    MOVE_LEN,
    RUNNING,
    SUMMON,
    TAKE_CARD,
    new_move,
    new_state,
)
from simulate.rng import game_seeds
from simulate.search import new_tree

DATA = D.load()
MASTER_SEED = 20261202


def search_params(**over: float) -> np.ndarray:
    params = B.default_params("search")
    names = list(B.BOTS["search"][2])
    for key, value in over.items():
        params[names.index(key)] = value
    return params


def lineup(names: list[str], search: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    ids = np.array([B.BOTS[n][0] for n in names])
    rows = [search if n == "search" and search is not None else B.default_params(n) for n in names]
    return ids, np.stack(rows)


def decide(st: np.ndarray, params: np.ndarray, g: int = 0) -> np.ndarray:
    """The search bot's move for game ``g`` of ``st`` (left unchanged but for its play stream)."""
    tree = new_tree(int(params[0]) + 1, MOVE_LEN, SEARCH_MOVES)
    out = new_move()
    search_action(st, g, DATA.kernel[0], params, tree, new_scratch(st), out)
    return out


def position(num_players: int, turns: int, index: int) -> np.ndarray:
    """A position after ``turns`` turns of collector play (a batch of one record)."""
    setup, play = game_seeds(MASTER_SEED, np.array([index]), np.array([index]))
    ids, params = lineup(["collector"] * num_players)
    moves, _ = trace_game(DATA, num_players, np.arange(num_players), ids, params, setup[0], play[0], turns)
    st = new_state(1, DATA.tables)
    game_init(st, DATA.kernel, 0, num_players, setup[0], play[0])
    for mv in moves:
        assert game_step(st, DATA.kernel, 0, mv) == 0
    return st


def card_key(mv: np.ndarray) -> tuple[int, int, int, int]:
    return int(mv[M_KIND]), int(mv[M_ROW]), int(mv[M_POS]), int(mv[M_ABILITY])


def last_turn_gains(st: np.ndarray) -> dict[tuple[int, int, int, int], int]:
    """Best final score margin gain of seat 1 per card choice, when seat 1's move ends the game."""
    moves = np.zeros((MAX_MOVES, MOVE_LEN), np.int16)
    n = game_legal_moves(st, DATA.kernel, 0, moves)
    before = results(DATA, st)["score"][0]
    gains: dict[tuple[int, int, int, int], int] = {}
    for k in range(n):
        trial = st.copy()
        assert game_step(trial, DATA.kernel, 0, moves[k]) == 0 and trial[0]["over"] != RUNNING
        after = results(DATA, trial)["score"][0]
        gain = int((after[1] - before[1]) - (after[0] - before[0]))
        key = card_key(moves[k])
        gains[key] = max(gain, gains.get(key, -(10**9)))
    return gains


def one_winning_card() -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """Seat 1 moves last in the final round; seat 0 leads by one point less than the best card's gain,
    and every other card gains at least two points less (so no tie-break decides)."""
    for index in range(40):
        st = position(2, 2 * (6 + index % 9) + 1, index)
        r = st[0]
        if r["over"] != RUNNING or r["current"] != 1:
            continue
        r["triggered"] = 1
        gains = last_turn_gains(st)
        ranked = sorted(gains.values(), reverse=True)
        if len(ranked) < 3 or ranked[0] - ranked[1] < 2:
            continue
        best = max(gains, key=gains.__getitem__)
        scores = results(DATA, st)["score"][0]
        r["rune_vp"][0] += int(scores[1] - scores[0]) + ranked[0] - 1  # seat 0 now leads by best - 1
        return st, best
    raise AssertionError("no position with a clearly best last card in 40 tries")


def test_the_only_winning_card_is_found() -> None:
    st, best = one_winning_card()
    gains = last_turn_gains(st)
    scores = results(DATA, st)["score"][0]
    lead = int(scores[0] - scores[1])
    assert [k for k, v in gains.items() if v > lead] == [best], "the constructed position has one winning card"
    for seed in range(5):
        st[0]["rng"][0] = seed
        assert card_key(decide(st, search_params(iterations=80))) == best


def test_decisions_do_not_depend_on_what_the_seat_cannot_see() -> None:
    """The same visible position with the removed and undrawn cards in another order gives the same move."""
    shuffler = np.random.default_rng(3)
    compared = 0
    for index in range(6):
        num_players = 2 if index % 3 else 1
        st = position(num_players, 4 + 3 * index, 50 + index)
        if st[0]["over"] != RUNNING:
            continue
        other = st.copy()
        rec = other[0]
        unseen = np.r_[0 : rec["removed"], rec["deck_pos"] : rec["deck_len"]]
        rec["deck"][unseen] = shuffler.permutation(rec["deck"][unseen])
        assert other.tobytes() != st.tobytes(), "the unseen cards were re-ordered"
        params = search_params(iterations=120)
        assert decide(st, params).tolist() == decide(other, params).tolist()
        assert (st["rng"] == other["rng"]).all(), "the search drew the same numbers from both play streams"
        compared += 1
    assert compared >= 5


def test_tree_moves_are_the_legal_card_choices_with_one_tuck_vector_each() -> None:
    summons = 0
    for index in range(12):
        st = position(2, 3 * index, 200 + index)
        if st[0]["over"] != RUNNING:
            continue
        full = np.zeros((MAX_MOVES, MOVE_LEN), np.int16)
        m = game_legal_moves(st, DATA.kernel, 0, full)
        out = np.zeros((SEARCH_MOVES, MOVE_LEN), np.int16)
        n = tree_moves((DATA.kernel[0], *new_scratch(st)[1:], 4.0), st[0:1], out)  # the bot's ctx
        legal = {tuple(row) for row in full[:m]}
        assert all(tuple(row) in legal for row in out[:n]), "every tree move is a legal move"
        assert {card_key(row) for row in out[:n]} == {card_key(row) for row in full[:m]}
        others = {tuple(row) for row in full[:m] if row[M_ABILITY] != SUMMON or row[M_KIND] != TAKE_CARD}
        assert others <= {tuple(row) for row in out[:n]}, "every move but a summon is kept as it is"
        tree_summons = [card_key(row) for row in out[:n] if row[M_KIND] == TAKE_CARD and row[M_ABILITY] == SUMMON]
        assert len(tree_summons) == len(set(tree_summons)), "one tuck vector per summon"
        summons += len(tree_summons)
    assert summons > 0, "some positions offered a summon"


@pytest.mark.parametrize("num_players", [2, 1])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_search_games_agree_with_the_reference(num_players: int, variant: str) -> None:
    """Search seats' games replayed move by move through the reference engine, the invariants after every move."""
    data = D.load(rules=VARIANTS[variant])
    ids, params = lineup(["search", "collector"][:num_players], search_params(iterations=25))
    first = 100 * num_players + 10 * list(VARIANTS).index(variant)
    setup, play = game_seeds(MASTER_SEED, np.arange(first, first + 3), np.arange(first, first + 3))
    for k in range(3):
        moves, final = trace_game(data, num_players, np.arange(num_players), ids, params, setup[k], play[k])
        assert final["over"][0] in (1, 4), "search games end by the trigger (or stall), never illegally"
        st_ = new_state(1, data.tables)
        game_init(st_, data.kernel, 0, num_players, setup[k], play[k])
        ref = GolemsReference(data, num_players, int(setup[k]))
        for t, mv in enumerate(moves):
            where = f"{num_players}p {variant} game {k} move {t}"
            assert move_key(mv) in set(ref.legal_actions()), where
            assert game_step(st_, data.kernel, 0, mv) == 0, where
            ref.apply_action(mv)
            compare(ref, st_, where)
            check_invariants(st_[0], data, num_players)
        assert ref.is_terminal() and results(data, final)["score"][0].tolist() == ref.scores()


@pytest.mark.parametrize("num_players", [2, 1])
def test_same_games_with_one_and_two_workers(num_players: int) -> None:
    games = 6
    ids, params = lineup(["search", "lookahead"][:num_players], search_params(iterations=30))
    setup, play = game_seeds(MASTER_SEED, np.arange(games), np.arange(games))
    seat_bot = (np.arange(num_players)[None, :] + np.arange(games)[:, None]) % num_players
    one = play_batch(DATA, num_players, seat_bot, ids, params, setup, play, threads=1, check_moves=True)
    two = play_batch(DATA, num_players, seat_bot, ids, params, setup, play, threads=2, check_moves=True)
    assert one.tobytes() == two.tobytes()
    assert (one["over"] != END_ILLEGAL).all(), "no search move was illegal"
