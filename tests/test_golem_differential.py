"""Golem: the numba engine against the reference engine, move by move, and invariant properties.

Random games (every legal action equally likely) at 1-4 players and under each rule option are
played through both engines; after every move the whole state and the legal action sets must agree.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulate.datafiles import default_dir
from simulate.games.golem import data, engine
from simulate.games.golem.codes import NUM_ACTIONS, PH_INFLUENCE, STAT_NAMES, Decision
from simulate.games.golem.data import KNOWLEDGE, RED, YELLOW
from simulate.games.golem.reference import GolemReference
from simulate.games.golem.state import new_state

DATA = data.load()
SEEDS = range(12)
AUTOMA_FIELDS = (
    "automa", "au_deck", "au_strategy", "au_pos", "au_actions", "au_slot", "au_eyes", "au_gauge", "au_next",
    "au_laps", "au_vp",
)  # fmt: skip


def ref_view(g: GolemReference) -> dict:
    """The reference state as plain lists, in the record's layout."""
    n = g.n
    return {
        "phase": g.phase,
        "round": g.round,
        "cursor": g.cursor,
        "step_left": g.step_left,
        "pass_stage": g.pass_stage,
        "stack": [list(map(int, t)) for t in g.stack],
        "order": list(g.order),
        "palace": list(g.palace),
        "section_tile": [list(x) for x in g.section_tile],
        "library": list(g.library),
        "book_deck": list(g.book_deck),
        "ob_deck": list(g.ob_deck),
        "at_slots": list(g.at_slots),
        "at_deck": list(g.at_deck),
        "at_discard": list(g.at_discard),
        "hands": [list(h) for h in g.hands],
        "drafted": [list(h) for h in g.drafted],
        "objectives": [list(h) for h in g.objectives],
        "res": [list(x) for x in g.res],
        "vp": list(g.vp),
        "loose_gold": list(g.loose_gold),
        "student": [list(x) for x in g.student],
        "golem_loc": [list(x) for x in g.golem_loc],
        "golem_sec": [list(x) for x in g.golem_sec],
        "standing": [list(x) for x in g.standing],
        "fresh": [list(x) for x in g.fresh],
        "built": list(g.built),
        "killed": list(g.killed),
        "track": list(g.track),
        "study": list(g.study),
        "gdev": [list(x) for x in g.gdev],
        "sdev": [list(x) for x in g.sdev],
        "adev_space": [list(x) for x in g.adev_space],
        "adev_side": [list(x) for x in g.adev_side],
        "art_tile": list(g.art_tile),
        "art_side": list(g.art_side),
        "art_gold": [list(x) for x in g.art_gold],
        "art_done": [list(x) for x in g.art_done],
        "col_colour": [list(x) for x in g.col_colour],
        "col_books": [[list(c) for c in x] for x in g.col_books],
        "tokens": list(g.tokens),
        "cemetery": list(g.cemetery),
        "cemetery_count": list(g.cemetery_count),
        "gold_supply": g.gold_supply,
        "eyes": [list(x) for x in g.eyes],
        "syn": [list(x) for x in g.syn],
        "marble_actions": list(g.marble_actions),
        "rabbi_done": list(g.rabbi_done),
        "actions": list(g.actions),
        "pass_tile": list(g.pass_tile),
        "passes": list(g.passes),
        "rabbi_slot": list(g.rabbi_slot),
        "perm_queue": list(g.perm_queue),
        "free_control": list(g.free_control),
        "stats": [list(g.stats[k]) for k in STAT_NAMES],
        "act_count": [list(x) for x in g.act_count],
        "drawn": list(g.drawn),
        "chance": g.chance.s,
        "n": n,
        **{k: getattr(g, k) if not isinstance(getattr(g, k), list) else list(getattr(g, k)) for k in AUTOMA_FIELDS},
    }


def rec_view(r: np.void, n: int) -> dict:
    """The numba record as plain lists, with queues and length-counted arrays unrolled."""

    def q(arr: np.ndarray, head: int, length: int) -> list[int]:
        return [int(arr[(head + k) % arr.shape[0]]) for k in range(length)]

    def seats(field: str) -> list:
        return r[field][:n].tolist()

    return {
        "phase": int(r["phase"]),
        "round": int(r["round"]),
        "cursor": int(r["cursor"]),
        "step_left": int(r["step_left"]),
        "pass_stage": int(r["pass_stage"]),
        "stack": r["stack"][: r["sp"]].tolist(),
        "order": r["order"][:n].tolist(),
        "palace": r["palace"].tolist(),
        "section_tile": r["section_tile"].tolist(),
        "library": r["library"][: r["lib_len"]].tolist(),
        "book_deck": q(r["bk_q"], int(r["bk_head"]), int(r["bk_len"])),
        "ob_deck": q(r["ob_q"], int(r["ob_head"]), int(r["ob_len"])),
        "at_slots": r["at_slots"].tolist(),
        "at_deck": r["at_q"][r["at_head"] : r["at_head"] + r["at_len"]].tolist(),
        "at_discard": r["at_disc"][: r["at_disc_len"]].tolist(),
        "hands": [r["hands"][s][: r["hand_len"][s]].tolist() for s in range(n)],
        "drafted": [r["drafted"][s][: r["drafted_len"][s]].tolist() for s in range(n)],
        "objectives": [r["objectives"][s][: r["obj_len"][s]].tolist() for s in range(n)],
        **{
            k: seats(k)
            for k in (
                "res",
                "vp",
                "loose_gold",
                "student",
                "golem_loc",
                "golem_sec",
                "standing",
                "fresh",
                "built",
                "killed",
                "track",
                "study",
                "gdev",
                "sdev",
                "adev_space",
                "adev_side",
                "art_tile",
                "art_side",
                "art_gold",
                "art_done",
                "col_colour",
                "cemetery_count",
                "marble_actions",
                "rabbi_done",
                "actions",
                "pass_tile",
                "passes",
                "rabbi_slot",
                "free_control",
                "act_count",
            )
        },
        "col_books": [[r["col_books"][s][c][: r["col_len"][s][c]].tolist() for c in range(4)] for s in range(n)],
        "tokens": r["tokens"].tolist(),
        "cemetery": r["cemetery"].tolist(),
        "gold_supply": int(r["gold_supply"]),
        "eyes": [r["eyes"][s][: r["eyes_len"][s]].tolist() for s in range(n)],
        "syn": r["syn"].tolist(),
        "perm_queue": r["perm_queue"][: r["perm_len"]].tolist(),
        "stats": [r["stats"][k][:n].tolist() for k in range(len(STAT_NAMES))],
        "drawn": r["drawn"].tolist(),
        "chance": int(r["chance"][0]),
        "n": int(r["n"]),
        **{k: r[k].tolist() for k in AUTOMA_FIELDS if k not in ("automa", "au_eyes")},
        "automa": bool(r["automa"]),
        "au_eyes": r["au_eyes"][: r["au_eyes_len"]].tolist(),
    }


def assert_same(ref: GolemReference, st: np.ndarray, where: str) -> None:
    a = ref_view(ref)
    b = rec_view(st[0], ref.n)
    for key in a:
        assert a[key] == b[key], f"{where}: field {key}: reference {a[key]} != numba {b[key]}"


def play_both(
    n: int, seed: int, rules: dict | None = None, check_every: int = 1, d: data.GolemData | None = None
) -> GolemReference:
    d = d or (data.load(rules=rules) if rules else DATA)
    ref = GolemReference(d, n, seed)
    st = new_state(1)
    engine.init_one(st, 0, d.kernel, n, seed, 0)
    assert_same(ref, st, "setup")
    mask = np.zeros(NUM_ACTIONS, np.int64)
    rnd = random.Random(seed * 31 + n)
    move = 0
    while not ref.is_terminal():
        legal = ref.legal_actions()
        engine.mask_one(st, 0, d.kernel, mask)
        assert legal == np.flatnonzero(mask).tolist(), f"move {move}: legal sets differ"
        a = rnd.choice(legal)
        ref.apply_action(a)
        engine.apply_one(st, 0, d.kernel, a)
        move += 1
        if move % check_every == 0 or ref.is_terminal():
            assert_same(ref, st, f"move {move} (action {a})")
        assert st[0]["error"] == 0
    return ref


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


def test_knowledge_short_golem_cannot_enter_a_paid_section_in_either_engine() -> None:
    """R7 under ``section_payment=knowledge``: a Golem short of the Knowledge may not enter VIII (no VP instead)."""
    d = data.load(rules={"section_payment": "knowledge"})
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
    d = data.load(folder)
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
