"""Golem: the numba engine against the reference engine, move by move, and invariant properties.

Random games (every legal action equally likely) at 1-4 players and under each rule option are
played through both engines (``simulate.conformance.compare_moves`` over ``GolemTwin``); after every
move the whole state and the legal action sets must agree.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulate.conformance import compare_moves
from simulate.datafiles import default_dir
from simulate.games.golem import data, engine, loader
from simulate.games.golem.codes import NUM_ACTIONS, PH_END, PH_INFLUENCE, Decision
from simulate.games.golem.data import KNOWLEDGE, RED, YELLOW
from simulate.games.golem.engine.state import new_state
from simulate.games.golem.reference import GolemReference
from simulate.games.golem.twin import GolemTwin, record_view, reference_view

DATA = loader.load()
SEEDS = range(12)


def assert_same(ref: GolemReference, st: np.ndarray, where: str) -> None:
    """The reference position equals the numba record's, field by field (``GolemTwin``'s two views)."""
    a, b = reference_view(ref), record_view(st[0], ref.n)
    for key in a:
        assert a[key] == b[key], f"{where}: field {key}: reference {a[key]} != numba {b[key]}"


def random_moves(twin: GolemTwin, rnd: random.Random) -> Iterator[int]:
    """Moves chosen uniformly among the reference's legal actions, one at a time as the twin advances."""
    while not twin.over():
        yield rnd.choice(twin.reference.legal_actions())


def play_both(
    n: int, seed: int, rules: dict | None = None, check_every: int = 1, d: data.GolemData | None = None
) -> GolemReference:
    """A random game (every legal action equally likely) played in both engines, compared move by move
    (``simulate.conformance.compare_moves``); the reference at its end."""
    d = d or (loader.load(rules=rules) if rules else DATA)
    twin = GolemTwin(d, n, seed, 0)
    compare_moves(twin, random_moves(twin, random.Random(seed * 31 + n)), f"{n}p seed {seed}", view_every=check_every)
    return twin.reference


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_engines_agree_move_by_move(n: int) -> None:
    for seed in SEEDS:
        play_both(n, seed)


@pytest.mark.parametrize(
    "rules",
    [
        {"setup": "introductory"},
        {"overmove": "one_per_step", "section_payment": "knowledge"},
        {"section_payment": "vp", "second_pass": "none"},
        {"vp_floor": "negative", "leftover_gold": "included"},
    ],
)
def test_engines_agree_under_rule_options(rules: dict) -> None:
    for seed in range(4):
        play_both(4, 100 + seed, rules)


@pytest.mark.parametrize("n", [2, 4])
def test_a_used_record_is_set_up_as_a_new_one(n: int) -> None:
    """``init_one`` on a record that has played a game to its end gives the record a new one gets, field by field."""
    used = new_state(1)
    engine.init_one(used, 0, DATA.kernel, 4, np.uint64(5), np.uint64(6))
    mask = np.zeros(NUM_ACTIONS, np.int64)
    rnd = random.Random(n)
    while used["phase"][0] != PH_END:
        engine.mask_one(used, 0, DATA.kernel, mask)
        engine.apply_one(used, 0, DATA.kernel, rnd.choice(np.flatnonzero(mask).tolist()))
    fresh = new_state(1)
    engine.init_one(fresh, 0, DATA.kernel, n, np.uint64(7), np.uint64(8))
    engine.init_one(used, 0, DATA.kernel, n, np.uint64(7), np.uint64(8))
    for name in fresh.dtype.names:
        assert np.array_equal(used[name], fresh[name]), name


def test_knowledge_short_golem_cannot_enter_a_paid_section_in_either_engine() -> None:
    """R7 under ``section_payment=knowledge``: a Golem short of the Knowledge may not enter VIII (no VP instead)."""
    d = loader.load(rules={"section_payment": "knowledge"})
    ref = GolemReference(d, 2, 7)
    st = new_state(1)
    engine.init_one(st, 0, d.kernel, 2, 7, 0)
    mask = np.zeros(NUM_ACTIONS, np.int64)
    while ref.decision() != Decision.MOVE_STEP:  # round 1's Golem Movement
        a = ref.legal_actions()[0]
        ref.apply_action(a)
        engine.apply_one(st, 0, d.kernel, a)
    s, r = ref.current_player(), st[0]
    for know, legal in ((0, [2]), (1, [1, 2])):  # golem 0 into VIII (1 Knowledge) or golem 1 into II (free)
        ref.res[s][KNOWLEDGE] = r["res"][s][KNOWLEDGE] = know
        ref.golem_loc[s][:2] = r["golem_loc"][s][:2] = [RED, YELLOW]
        ref.golem_sec[s][:2] = r["golem_sec"][s][:2] = [7, 1]
        engine.mask_one(st, 0, d.kernel, mask)
        assert ref.legal_actions() == np.flatnonzero(mask).tolist() == legal


def _resized(folder: Path, name: str, change: int) -> None:
    """Table ``name`` of the data folder with one space more (``change`` 1: the last track space repeated, or a
    Cemetery space before the unlimited one) or one fewer (-1: the last track space, or the last limited Cemetery
    space, dropped); spaces numbered again."""
    path = folder / name
    lines = path.read_text().splitlines()
    head, rows = lines[0], lines[1:]
    key = head.split(",")[0]
    at = len(rows) - 1 if key == "space" else len(rows)  # where a space is added or dropped
    if change > 0:
        rows.insert(at, rows[at - 1])
    else:
        del rows[at - 1]
    first = 1 if key == "space" else 0
    rows = [f"{first + k}," + row.split(",", 1)[1] for k, row in enumerate(rows)]
    path.write_text("\n".join([head, *rows]) + "\n")


@pytest.mark.parametrize("name", ["golem_track.csv", "study_track.csv", "cemetery.csv"])
@pytest.mark.parametrize("change", [1, -1])
def test_track_and_cemetery_sizes_follow_their_tables(tmp_path: Path, name: str, change: int) -> None:
    """The number of spaces is data: with a table one space longer or shorter both engines play the same legal
    games, and no marker or Golem goes beyond the table."""
    folder = tmp_path / "golem"
    shutil.copytree(default_dir("golem"), folder)
    _resized(folder, name, change)
    d = loader.load(folder)
    sizes = {"golem_track.csv": 11, "study_track.csv": 10, "cemetery.csv": 6}
    size = sizes[name] + change
    assert [len(pd.read_csv(folder / f)) for f in sizes] == [size if f == name else k for f, k in sizes.items()]
    for seed in range(3):
        ref = play_both(4, 300 + seed, check_every=25, d=d)
        assert max(ref.track) < (size if name == "golem_track.csv" else 11)
        assert max(ref.study) < (size if name == "study_track.csv" else 10)
        used = [k for k, owner in enumerate(ref.cemetery) if owner >= 0]
        assert not used or max(used) < (size if name == "cemetery.csv" else 6) - 1


def test_final_scores_agree() -> None:
    parts = np.zeros(engine.NUM_PARTS, np.int64)
    for seed in range(6):
        ref = play_both(3, 200 + seed, check_every=50)
        st = new_state(1)
        engine.init_one(st, 0, DATA.kernel, 3, 200 + seed, 0)
        # replay the same random moves
        rnd = random.Random((200 + seed) * 31 + 3)
        mask = np.zeros(NUM_ACTIONS, np.int64)
        while st[0]["phase"] != ref.phase or st[0]["round"] < 4:
            engine.mask_one(st, 0, DATA.kernel, mask)
            engine.apply_one(st, 0, DATA.kernel, rnd.choice(np.flatnonzero(mask).tolist()))
        for s in range(3):
            engine_parts_one(st, s, parts)
            assert parts.tolist() == ref.score_parts()[s]


def engine_parts_one(st: np.ndarray, s: int, out: np.ndarray) -> None:
    from simulate.games.golem.play import score_parts_one

    score_parts_one(st, 0, DATA.kernel, s, out)


# ---------------------------------------------------------------- invariant properties


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_invariants_over_random_games(n: int) -> None:
    for seed in range(15):
        g = GolemReference(DATA, n, 500 + seed)
        rnd = random.Random(seed)
        marbles = sum(g.marbles)
        while not g.is_terminal():
            g.apply_action(rnd.choice(g.legal_actions()))
            for s in range(n):
                assert min(g.res[s]) >= 0 and g.vp[s] >= 0, "resources never negative"
                on_board = sum(1 for x in g.golem_loc[s] if 0 <= x <= 2)
                assert on_board <= 6 and g.built[s] <= 4
                assert all(
                    1 <= sec <= 10 for sec, loc in zip(g.golem_sec[s], g.golem_loc[s], strict=True) if 0 <= loc <= 2
                )
                assert 0 <= g.track[s] <= 10 and 0 <= g.study[s] <= 9
                assert all(len(c) <= 5 for c in g.col_books[s])
            # marbles: in the Synagogue + taken + removed by Pass tile 1 = the round's marbles
            taken = sum(len(e) for e in g.eyes)
            assert sum(map(sum, g.syn)) + taken <= marbles
            if g.phase == PH_INFLUENCE:
                assert g.actions == [3] * n, "exactly three actions per player per round"
        assert g.gold_supply + sum(g.gold_owned(s) for s in range(n)) == DATA.params["gold_supply"]


def test_marbles_conserved_without_passing() -> None:
    for seed in range(10):
        g = GolemReference(DATA, 4, 900 + seed)
        rnd = random.Random(seed)
        while not g.is_terminal():
            legal = g.legal_actions()
            no_pass = [a for a in legal if a != 31] if g.decision() == 8 else legal
            g.apply_action(rnd.choice(no_pass or legal))
            if g.decision() == 8 and not any(g.passes):
                assert sum(map(sum, g.syn)) + sum(len(e) for e in g.eyes) == sum(g.marbles)
