"""Golem's ``apprentice`` bot (``simulate/games/golem/apprentice*.py``, ``features.py``) and the search's ``leaf``.

Legal moves (checked runs, and replays on the reference engine in ``test_golem_game.py``), no peeking (only what
the seat cannot see changes: the same features and the same move), the weights file (round trip, a wrong feature
list refused naming its line), a softmax temperature and the search with the apprentice at its leaves, and the
training positions (the same games as a run, one row per decision and seat).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from test_golem_search import _hide_differently, balanced_position

from simulate.apprentice import read_weights, weights_text
from simulate.datafiles import DataError, default_dir
from simulate.games.golem import apprentice, columns, data, engine, loader, play
from simulate.games.golem import bots as golem_bots
from simulate.games.golem.apprentice_bot import apprentice_action, new_apprentice_scratch
from simulate.games.golem.codes import AA_BUY_GOLD, D_ARTIFACT_ACTION, D_GOLD_PLACE, PH_END
from simulate.games.golem.engine.state import new_pads, new_state
from simulate.games.golem.features import NUM_FEATURES, SEAT_BLOCK, features
from simulate.games.golem.search_bot import new_scratch
from simulate.registry import make
from simulate.rng import game_seeds

DATA = loader.load()
MASTER_SEED = 20261203


def lineup(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Bot ids and parameter rows of ``names`` (``bot`` or ``bot:key=value,...``)."""
    ids, prm = [], []
    for name in names:
        bot, _, over = name.partition(":")
        values = dict(kv.split("=") for kv in over.split(",")) if over else {}
        ids.append(golem_bots.BOTS[bot][0])
        prm.append(golem_bots.bot_params(bot, {k: float(v) for k, v in values.items()}))
    return np.array(ids), np.stack(prm)


def checked_games(names: list[str], n: int, games: int, d: data.GolemData = DATA) -> np.ndarray:
    """``games`` checked games, seats rotated over ``names`` (one per seat); every one must end by the rules."""
    ids, prm = lineup(names)
    setup, plays = game_seeds(MASTER_SEED, np.arange(games), np.arange(games))
    seat = np.array([[(g + k) % len(names) for k in range(n)] for g in range(games)])
    st = play.play_batch(d, n, seat, ids, prm, setup, plays, check_moves=True)
    assert (st["error"] == 0).all() and (st["phase"] == PH_END).all()
    return st


@njit(cache=True)
def _decide(st, tab, params, pads):
    scratch = new_apprentice_scratch(st, new_scratch(st, pads))
    return apprentice_action(st, 0, tab[0], params, scratch)


def decide(st: np.ndarray, temperature: float = 0.0) -> int:
    """The apprentice's action for game 0 of ``st`` (left unchanged but for its play stream)."""
    return int(_decide(st, DATA.kernel, golem_bots.bot_params("apprentice", {"temperature": temperature}), new_pads(1)))


@njit(cache=True)
def _features(st, tab, seat, out):
    features(st[0], tab[0], seat, out)


def seat_features(st: np.ndarray, seat: int) -> np.ndarray:
    out = np.zeros(NUM_FEATURES)
    before = st.tobytes()
    _features(st, DATA.kernel, seat, out)
    assert st.tobytes() == before, "features leave the record as it was"
    return out


def test_the_features_are_the_data_modules_and_the_shipped_weights_load() -> None:
    assert apprentice.FEATURES == data.APPRENTICE_FEATURES and len(apprentice.FEATURES) == NUM_FEATURES
    assert len(set(apprentice.FEATURES)) == NUM_FEATURES
    assert make("golem").info.apprentice is apprentice.APPRENTICE
    w = DATA.tables.apprentice_w
    assert w.shape == (data.MAX_PLAYERS + 1, NUM_FEATURES + 1)
    assert np.array_equal(w[1], DATA.tables.apprentice_v[2])  # solo games play the 2-player value fit
    assert "apprentice.csv" in DATA.provenance["files"]
    # a known decision of the shipped weights: in an Artifacts action where balanced stops, the apprentice buys Gold
    # (the weights fitted before version 8 never saw a Gold bought and almost never bought one)
    st = balanced_position(2, 0, 53)
    assert engine.decision(st[0]) == D_ARTIFACT_ACTION and decide(st) == AA_BUY_GOLD


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_apprentice_games_are_legal_and_end_by_the_rules(n: int) -> None:
    checked_games(["apprentice", "balanced", "greedy", "apprentice:temperature=1"][: max(n, 2)], n, 4)


def test_a_softmax_temperature_plays_legal_and_different_games() -> None:
    cold = checked_games(["apprentice", "balanced"], 2, 4)
    warm = checked_games(["apprentice:temperature=2", "balanced"], 2, 4)
    assert cold.tobytes() != warm.tobytes()


@pytest.mark.parametrize("leaf", [1.0, 0.5])
def test_the_search_with_the_apprentice_at_its_leaves_is_legal(leaf: float) -> None:
    checked_games([f"search:iterations=8,leaf={leaf}", "apprentice"], 2, 2)
    checked_games([f"search:iterations=6,leaf={leaf}"], 1, 1)


def test_the_leaf_reads_the_value_fit_where_the_weights_are_a_policy(tmp_path: Path) -> None:
    """At 2 and 4 players the search's leaf values by ``apprentice_value.csv`` (the value fit the policy was refitted
    from), elsewhere by the play weights; solo plays and values by the 2-player value fit."""
    v, w = DATA.tables.apprentice_v, DATA.tables.apprentice_w
    shipped = default_dir("golem")
    value = read_weights(shipped, apprentice.FEATURES, data.VALUE_PLAYERS, data.MAX_PLAYERS, data.VALUE_FILE)
    assert data.VALUE_PLAYERS == apprentice.APPRENTICE.policy_counts and data.VALUE_FILE in DATA.provenance["files"]
    assert np.array_equal(v[2], value[2]) and np.array_equal(v[4], value[4]) and not np.array_equal(v[2], w[2])
    assert np.array_equal(v[3], w[3]) and np.array_equal(v[1], v[2]) and np.array_equal(w[1], v[2])
    folder = tmp_path / "golem"
    shutil.copytree(default_dir("golem"), folder)
    (folder / "apprentice.csv").write_text(weights_text(w * 0.5, apprentice.FEATURES, apprentice.PLAYER_COUNTS))
    other_policy = loader.load(folder)
    assert np.array_equal(other_policy.tables.apprentice_v[2], v[2]), "the play weights do not reach a value row"
    base = checked_games(["search:iterations=6,leaf=1", "balanced"], 2, 2)
    assert checked_games(["search:iterations=6,leaf=1", "balanced"], 2, 2, d=other_policy).tobytes() == base.tobytes()


def test_the_search_with_leaf_0_plays_as_before() -> None:
    """``leaf`` 0 (the default) is today's search: the same games as without the parameter."""
    a = checked_games(["search:iterations=6", "balanced"], 2, 2)
    b = checked_games(["search:iterations=6,leaf=0", "balanced"], 2, 2)
    assert a.tobytes() == b.tobytes()


def test_features_and_moves_do_not_depend_on_what_the_seat_cannot_see() -> None:
    for n, index, decisions in ((2, 1, 40), (4, 2, 90), (3, 3, 150), (1, 4, 30)):
        st = balanced_position(n, index, decisions)
        seat = int(engine.current_player(st[0]))
        other = _hide_differently(st) if n > 1 else st.copy()
        if n == 1:  # solo: the Book deck, the Action pile and the chance stream only
            r = other[0]
            size = r["bk_q"].shape[0]
            idx = [(int(r["bk_head"]) + k) % size for k in range(int(r["bk_len"]))]
            r["bk_q"][idx] = r["bk_q"][idx[::-1]]
            r["chance"][0] ^= np.uint64(0x5DEECE66D)
        assert np.array_equal(seat_features(st, seat), seat_features(other, seat))
        assert decide(st.copy()) == decide(other.copy())
        assert decide(st.copy(), 1.5) == decide(other.copy(), 1.5)


def gold_waiting() -> np.ndarray:
    """The first position of a 2-player ``balanced`` game where a seat has a Gold piece to place."""
    ids = np.full(2, golem_bots.BALANCED)
    prm = np.stack([golem_bots.bot_params("balanced")] * 2)
    for index in range(40):
        setup, plays = game_seeds(MASTER_SEED, np.array([index]), np.array([index]))
        moves, _ = play.trace_game(DATA, 2, np.arange(2), ids, prm, int(setup[0]), int(plays[0]))
        st = new_state(1)
        engine.init_one(st, 0, DATA.kernel, 2, setup[0], plays[0])
        for a in moves:
            if int(engine.decision(st[0])) == D_GOLD_PLACE:
                return st
            engine.apply_one(st, 0, DATA.kernel, int(a))
    raise AssertionError("no Gold placement in 40 games")


def test_features_see_what_the_seat_sees() -> None:
    """The control of the no-peeking test: the others' boards are seen, the seat's own Objectives counted, another
    seat's never; a Gold waiting to be placed is seen placed where ``balanced`` values it most (a Gold bought is a
    Gold owned, its Artifact completed if it fills one), from either seat's view."""
    st = gold_waiting()
    holder = int(engine.current_player(st[0]))
    placed = []
    for c in range(4):
        if engine.is_legal(st[0], DATA.kernel[0], c):
            after = st.copy()
            engine.apply_one(after, 0, DATA.kernel, c)
            placed.append(seat_features(after, holder)[:SEAT_BLOCK])
    block = seat_features(st, holder)[:SEAT_BLOCK]
    assert any(np.array_equal(block, b) for b in placed) and block[0] == max(b[0] for b in placed)
    # the other seat sees the same placement and the same block but for what its Objectives add to value and points
    assert np.array_equal(seat_features(st, 1 - holder)[SEAT_BLOCK + 2 : 2 * SEAT_BLOCK], block[2:])
    st = balanced_position(2, 1, 40)
    seat = int(engine.current_player(st[0]))
    base = seat_features(st, seat)
    other = st.copy()
    other[0]["vp"][1 - seat] += 7
    assert not np.array_equal(base, seat_features(other, seat))
    parts = np.zeros(engine.NUM_PARTS, np.int64)
    play.score_parts_one(st, 0, DATA.kernel, seat, parts)
    index = apprentice.FEATURES.index
    assert base[index("own_objective_points")] == parts[5] + parts[6]
    assert base[index("own_points")] == parts.sum()
    play.score_parts_one(st, 0, DATA.kernel, 1 - seat, parts)
    assert base[index("rival_points")] == parts.sum() - parts[5] - parts[6]


def test_the_weights_file_round_trips_and_a_wrong_feature_list_is_refused(tmp_path: Path) -> None:
    shipped = default_dir("golem") / "apprentice.csv"
    w = read_weights(shipped.parent, apprentice.FEATURES, apprentice.PLAYER_COUNTS, data.MAX_PLAYERS)
    text = weights_text(w, apprentice.FEATURES, apprentice.PLAYER_COUNTS)
    assert text == shipped.read_text(encoding="utf-8")
    folder = tmp_path / "golem"
    shutil.copytree(default_dir("golem"), folder)
    changed = w.copy()
    changed[2, 5] = 0.125
    (folder / "apprentice.csv").write_text(weights_text(changed, apprentice.FEATURES, apprentice.PLAYER_COUNTS))
    assert loader.load(folder).tables.apprentice_w[2, 5] == 0.125
    lines = text.splitlines()
    lines[4] = lines[4].replace(apprentice.FEATURES[2], "own_mana", 1)
    (folder / "apprentice.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=r"apprentice\.csv: line 5: feature 'own_mana', expected 'own_vp'"):
        loader.load(folder)


def test_positions_are_those_of_the_same_games_as_a_run() -> None:
    names = ["search:iterations=6", "apprentice", "balanced"]
    ids, prm = lineup(names)
    games, n = 3, 3
    setup, plays = game_seeds(MASTER_SEED, np.arange(games), np.arange(games))
    seat = np.array([[(g + k) % n for k in range(n)] for g in range(games)])
    pos = apprentice.positions(DATA, n, seat, ids, prm, setup, plays)
    st = play.play_batch(DATA, n, seat, ids, prm, setup, plays)
    assert np.array_equal(pos.win, columns.results(DATA, st)["win"])
    assert np.allclose(pos.win.sum(axis=1), 1.0)
    assert pos.x.dtype == np.float32 and pos.x.shape[1] == NUM_FEATURES
    for g in range(games):
        rows = pos.game == g
        decisions = min(int(st[g]["moves"]), apprentice.MAX_RECORDED)
        assert rows.sum() == decisions * n
        assert pos.seat[rows].tolist() == list(range(n)) * decisions
        last = pos.x[rows][-n:]  # the final position, from every seat's view
        for s in range(n):
            assert np.allclose(last[s], seat_features(st[g : g + 1], s).astype(np.float32))


def test_the_policy_stage_records_each_decisions_options_and_the_move_played() -> None:
    assert apprentice.APPRENTICE.choices is apprentice.choices and apprentice.APPRENTICE.policy_counts == (2, 4)
    ids, prm = lineup(["apprentice"])
    setup, plays = game_seeds(MASTER_SEED, np.arange(40, 43), np.arange(40, 43))
    ch = apprentice.choices(DATA, 2, np.zeros((3, 2), np.int64), ids, prm, setup, plays)
    starts = np.flatnonzero(np.r_[True, np.diff(ch.decision) != 0])
    assert len(starts) == ch.decision[-1] + 1 and set(ch.game.tolist()) == {0, 1, 2}
    assert (np.add.reduceat(ch.chosen.astype(int), starts) == 1).all(), "one move played a decision"
    assert (np.diff(np.r_[starts, len(ch.decision)]) > 1).all() and np.isfinite(ch.x).all()
    # the apprentice played the option of the best logit; the recorded options, re-dealt from another seed, agree
    # on almost every decision (where the hidden cards do not change the best option)
    logits = DATA.tables.apprentice_w[2, 0] + ch.x.astype(np.float64) @ DATA.tables.apprentice_w[2, 1:]
    best = np.array([s + np.argmax(q) for s, q in zip(starts, np.split(logits, starts[1:]), strict=True)])
    agree = (best == np.flatnonzero(ch.chosen)).mean()
    assert agree > 0.9, f"the recorded move is the option the apprentice rated best in {agree:.0%} of decisions"
