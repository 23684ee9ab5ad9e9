"""Golem solo: the stand-in Automa (an ESTIMATE, ``seeds/golem/RULINGS.md`` R32-R36).

Scripted positions on the reference engine with exact outcomes, one per Automa rule; the numba engine
against the reference move by move in 1-player games played by the bots; invariants of solo games;
the solo columns of a run.
"""

from __future__ import annotations

import random
import shutil

import numpy as np
import pytest
from test_golem_differential import assert_same, play_both

from simulate.datafiles import DataError
from simulate.games.golem import columns, data, engine, loader, play
from simulate.games.golem.codes import PH_INFLUENCE, RABBI_BASE, Decision
from simulate.games.golem.data import ARTIFACTS, GOLEM_ROW, STUDY_ROW, WORK
from simulate.games.golem.engine.state import new_state
from simulate.games.golem.game import GAME, chunk_tables
from simulate.games.golem.reference import GolemReference
from simulate.lineup import lineup_arrays, parse_lineup

SEED = 3
DATA = loader.load()
T = DATA.tables
THRESHOLDS = [5, 10, 15, 20]  # game.toml automa_thresholds at normal difficulty
MAIN_VP = [1, 2, 3, 4]  # automa_tiles.csv M
STRATEGY_VP = [1, 1, 1, 2]  # automa_tiles.csv S1-S3
BOTS = ("greedy", "golems", "artifacts", "books", "balanced")


def solo(seed: int = SEED, **rules) -> GolemReference:
    """A solo game after setup and round 1's Golem Movement, at the player's first action."""
    g = GolemReference(loader.load(rules=rules) if rules else DATA, 1, seed)
    while g.decision() != Decision.TURN:
        g.apply_action(g.legal_actions()[0])
    return g


def card_with(g: GolemReference, **fields) -> int:
    """Make the round's Automa card the first card with these fields (rabbi_turn, rabbi_top)."""
    for c in range(len(T.au_rows)):
        if all(int(getattr(T, f"au_{k}")[c]) == v for k, v in fields.items()):
            g.au_deck[g.round] = c
            return c
    raise AssertionError(f"no Automa card with {fields}")


def marble_turn(g: GolemReference) -> int:
    """Set up the Automa's next action as a marble action; returns the card."""
    c = card_with(g, rabbi_turn=3)
    g.au_actions = 0
    return c


# ---------------------------------------------------------------- option and setup (R32, R33)


def test_solo_plays_the_automa_by_default_and_not_with_none_or_more_players() -> None:
    assert DATA.rules["solo_opponent"] == "automa"
    assert GolemReference(DATA, 1, SEED).automa
    assert not GolemReference(loader.load(rules={"solo_opponent": "none"}), 1, SEED).automa
    assert not GolemReference(DATA, 2, SEED).automa


def test_without_the_automa_setup_draws_nothing_more() -> None:
    off = GolemReference(loader.load(rules={"solo_opponent": "none"}), 1, SEED)
    on = GolemReference(DATA, 1, SEED)
    assert off.au_deck == list(range(20)) and off.au_pos == -1
    # the Automa's draws come after every other setup draw: the rest of the setup is the same
    for field in ("palace", "tiles", "library", "at_deck", "hands", "start_offer", "art_offer", "syn"):
        assert getattr(on, field) == getattr(off, field), field


def test_setup_shuffles_its_deck_draws_a_strategy_and_a_place() -> None:
    places, strategies = set(), set()
    for k in range(40):
        g = GolemReference(DATA, 1, (k << 32) | k)  # the Strategy tile and place are public opening: high 32 bits
        assert sorted(g.au_deck) == list(range(20))
        places.add(g.au_pos)
        strategies.add(g.au_strategy)
    assert places == {0, 1} and strategies == {0, 1, 2}


# ---------------------------------------------------------------- turns and blocking (R34)


def test_automa_takes_three_actions_a_round_in_the_turn_order() -> None:
    for seed in range(10):
        g = GolemReference(DATA, 1, seed)
        first = g.au_pos == 0
        while g.decision() != Decision.TURN:
            g.apply_action(g.legal_actions()[0])
        assert g.au_actions == (1 if first else 0)  # it acted before the player's first action iff it is first
        g.apply_action(g.legal_actions()[0])
        while g.decision() != Decision.TURN:
            g.apply_action(g.legal_actions()[-1])
        assert g.au_actions == (2 if first else 1)


def test_marble_from_the_fullest_row_ties_by_card_order_colour_by_card_order() -> None:
    g = solo()
    c = marble_turn(g)
    rows = [int(x) for x in T.au_rows[c]]
    colours = [int(x) for x in T.au_colours[c]]
    g.syn = [[0] * 5 for _ in range(5)]
    # the card's last two rows hold 3 marbles each, its first row 2: the tie goes to the earlier of the two
    g.syn[rows[0]] = [1, 1, 0, 0, 0]
    g.syn[rows[3]] = [1, 1, 1, 0, 0]
    g.syn[rows[4]] = [0, 0, 1, 1, 1]
    g._automa_turn()
    want = next(k for k in colours if [1, 1, 1, 0, 0][k])
    assert g.syn[rows[3]][want] == 0 and sum(g.syn[rows[3]]) == 2 and sum(g.syn[rows[4]]) == 3
    assert g.au_eyes == [want]


def test_marble_taken_by_the_automa_lowers_the_players_action_value() -> None:
    g = solo()
    marble_turn(g)
    g.syn = [[0] * 5 for _ in range(5)]
    g.syn[GOLEM_ROW] = [2, 1, 0, 0, 0]
    g._automa_turn()
    assert sum(g.syn[GOLEM_ROW]) == 2  # the player's Golem action is now worth 2, not 3
    assert all(a // 5 == GOLEM_ROW for a in g.legal_actions() if a < 25)


@pytest.mark.parametrize("top", [1, 0])
def test_rabbi_on_the_top_or_bottom_free_tile_blocks_it(top: int) -> None:
    g = solo()
    card_with(g, rabbi_turn=1, rabbi_top=top)
    g.au_actions = 0
    g._automa_turn()
    slot = 0 if top else 1  # with 1 player two tiles are dealt: slots 0 and 1
    assert g.au_slot == slot
    assert RABBI_BASE + slot not in g.legal_actions() and RABBI_BASE + 1 - slot in g.legal_actions()


def test_rabbi_takes_the_free_tile_when_the_player_holds_the_other() -> None:
    g = solo()
    card_with(g, rabbi_turn=1, rabbi_top=1)
    g.au_actions = 0
    g.rabbi_slot[0] = 0
    g._automa_turn()
    assert g.au_slot == 1


@pytest.mark.parametrize(("player_slot", "automa_slot", "place"), [(0, 1, 1), (1, 0, 0), (5, 1, 0)])
def test_next_turn_order_places_the_automa_by_its_rabbi(player_slot: int, automa_slot: int, place: int) -> None:
    g = solo()
    g.rabbi_slot[0] = player_slot
    g.perm_queue = [0] if player_slot == 5 else []
    g.au_slot = automa_slot
    g._end_actions()
    assert g.au_pos == place


# ---------------------------------------------------------------- gauge and scoring (R35)


def test_marble_moves_the_gauge_by_its_action_value_plus_the_focus_bonus() -> None:
    g = solo()
    focus = int(T.au_focus[g.au_strategy])
    other = next(r for r in (WORK, GOLEM_ROW, ARTIFACTS, STUDY_ROW) if r != focus)
    for row, extra in ((other, 0), (focus, int(T.au_bonus[g.au_strategy]))):
        marble_turn(g)
        g.au_gauge, g.au_next = 0, 0
        g.syn = [[0] * 5 for _ in range(5)]
        g.syn[row] = [1, 1, 1, 0, 0]
        g._automa_turn()
        assert g.au_gauge == 3 + extra
    assert int(T.au_bonus[g.au_strategy]) == 1


def test_rabbi_moves_the_gauge_by_its_fixed_value() -> None:
    g = solo()
    card_with(g, rabbi_turn=1)
    g.au_actions, g.au_gauge, g.au_next = 0, 0, 0
    g._automa_turn()
    assert g.au_gauge == DATA.params["automa_rabbi_gauge"] == 2


def test_each_threshold_scores_the_main_and_the_strategy_tile() -> None:
    g = solo()
    g.au_gauge, g.au_next, g.au_vp = 4, 0, [0, 0]
    g._automa_gauge(1)
    assert (g.au_gauge, g.au_next, g.au_vp) == (5, 1, [MAIN_VP[0], STRATEGY_VP[0]])
    g._automa_gauge(10)  # past 10 and 15 in one move
    assert (g.au_gauge, g.au_next) == (15, 3)
    assert g.au_vp == [sum(MAIN_VP[:3]), sum(STRATEGY_VP[:3])]
    g._automa_gauge(4)
    assert g.au_vp == [sum(MAIN_VP[:3]), sum(STRATEGY_VP[:3])]  # 19: no threshold


def test_last_threshold_returns_the_marker_to_the_start() -> None:
    g = solo()
    g.au_gauge, g.au_next, g.au_laps, g.au_vp = 19, 3, 0, [0, 0]
    g._automa_gauge(6)
    assert (g.au_gauge, g.au_next, g.au_laps) == (5, 1, 1)
    assert g.au_vp == [MAIN_VP[3] + MAIN_VP[0], STRATEGY_VP[3] + STRATEGY_VP[0]]


@pytest.mark.parametrize(("laps", "special"), [(0, 0), (1, 7), (2, 7 + 30)])
def test_special_developments_double_a_category_once_unlocked(laps: int, special: int) -> None:
    g = solo()
    g.au_vp = [30, 7]  # main, strategy
    g.au_laps = laps
    # D1 doubles the Strategy tile's VP after 1 lap, D2 the Main tile's after 2 (automa_tiles.csv)
    assert g.automa_parts() == [30, 7, special]
    assert g.automa_score() == 37 + special


@pytest.mark.parametrize(("difficulty", "thresholds"), [("easy", [6, 12, 18, 24]), ("hard", [4, 8, 12, 16])])
def test_difficulty_scales_the_thresholds(difficulty: str, thresholds: list[int]) -> None:
    g = solo(automa_difficulty=difficulty)
    assert g.t.au_thresholds.tolist() == thresholds
    g.au_gauge, g.au_next, g.au_vp = 0, 0, [0, 0]
    g._automa_gauge(thresholds[0] - 1)
    assert g.au_vp == [0, 0]
    g._automa_gauge(1)
    assert g.au_vp == [MAIN_VP[0], STRATEGY_VP[0]]


@pytest.mark.parametrize(("player", "automa", "place", "rank"), [(30, 29, 0, 1), (29, 30, 1, 2), (30, 30, 1, 1),
                                                                 (30, 30, 0, 2)])  # fmt: skip
def test_player_beats_the_automa_on_score_then_uppermost_rabbi(player: int, automa: int, place: int, rank: int) -> None:
    g = solo()
    g.score_parts = lambda: [[player, 0, 0, 0, 0, 0, 0, 0]]
    g.au_vp, g.au_laps, g.au_pos = [automa, 0], 0, place
    assert g.ranks() == [rank]


# ---------------------------------------------------------------- data


def test_loader_names_file_row_and_field_of_automa_tables(tmp_path) -> None:
    folder = tmp_path / "golem"
    shutil.copytree(data.default_dir("golem"), folder)
    path = folder / "automa_cards.csv"
    path.write_text(
        path.read_text().replace("U02,artifacts;study;work;golem;mirror", "U02,artifacts;study;work;work;mirror")
    )
    with pytest.raises(DataError, match=r"automa_cards.csv: line 3: column 'rows': .* each of work"):
        loader.load(folder)
    shutil.copy(data.default_dir("golem") / "automa_cards.csv", path)
    path = folder / "automa_tiles.csv"
    path.write_text(path.read_text().replace("S2,strategy,", "S2,special,"))
    with pytest.raises(DataError, match=r"automa_tiles.csv: line 4: column 'kind': expected 'strategy'"):
        loader.load(folder)


def test_loader_rejects_thresholds_that_do_not_rise(tmp_path) -> None:
    folder = tmp_path / "golem"
    shutil.copytree(data.default_dir("golem"), folder)
    path = folder / "game.toml"
    path.write_text(
        path.read_text().replace("automa_thresholds = [5, 10, 15, 20]", "automa_thresholds = [5, 5, 15, 20]")
    )
    with pytest.raises(DataError, match=r"game.toml: table.automa_thresholds: must rise"):
        loader.load(folder)


def test_automa_tables_are_estimates() -> None:
    note = loader.estimate_note(DATA)
    assert "automa_cards.csv (20 rows)" in note and "automa_tiles.csv (6 rows)" in note
    assert "automa_thresholds" in DATA.provenance["estimated_parameters"]


# ---------------------------------------------------------------- numba engine against the reference


@pytest.mark.parametrize("bot", BOTS)
def test_engines_agree_move_by_move_in_solo_games_with_bots(bot: str) -> None:
    lineup = parse_lineup(GAME, [bot], 1)
    ids, params = lineup_arrays(GAME, lineup)
    mask = np.zeros(64, np.int64)
    for seed in range(3):
        setup_seed, play_seed = 4000 + seed, 77 + seed
        moves, final = play.trace_game(DATA, 1, np.zeros(1), ids, params, setup_seed, play_seed)
        ref = GolemReference(DATA, 1, setup_seed)
        st = new_state(1)
        engine.init_one(st, 0, DATA.kernel, 1, setup_seed, play_seed)
        assert_same(ref, st, "setup")
        for k, a in enumerate(moves):
            engine.mask_one(st, 0, DATA.kernel, mask)
            assert ref.legal_actions() == np.flatnonzero(mask).tolist(), f"{bot} move {k}: legal sets differ"
            ref.apply_action(int(a))
            engine.apply_one(st, 0, DATA.kernel, int(a))
            assert_same(ref, st, f"{bot} move {k + 1}")
        assert ref.is_terminal() and final[0]["error"] == 0
        res = columns.results(DATA, final)
        assert res["automa"][0].tolist() == ref.automa_parts()
        assert res["score"][0, 0] == ref.scores()[0] and res["rank"][0, 0] == ref.ranks()[0]


@pytest.mark.parametrize("rules", [{"automa_difficulty": "hard"}, {"solo_opponent": "none"}])
def test_engines_agree_under_the_automa_options(rules: dict) -> None:
    for seed in range(3):
        ref = play_both(1, 300 + seed, rules)
        assert ref.automa == (rules.get("solo_opponent", "automa") == "automa")


# ---------------------------------------------------------------- invariants


def test_solo_invariants_over_random_games() -> None:
    for seed in range(15):
        g = GolemReference(DATA, 1, 700 + seed)
        rnd = random.Random(seed)
        marbles = sum(g.marbles)
        last = int(T.au_thresholds[-1])
        while not g.is_terminal():
            legal = g.legal_actions()
            g.apply_action(rnd.choice(legal))
            taken = len(g.eyes[0]) + len(g.au_eyes)
            in_syn = sum(map(sum, g.syn))
            if not g.passes[0]:
                assert in_syn + taken == marbles, "marbles conserved within a round"
            assert in_syn + taken <= marbles
            assert 0 <= g.au_gauge < last and 0 <= g.au_next < 4
            assert g.au_actions <= 3 and len(g.au_eyes) <= 2
            if g.phase == PH_INFLUENCE:
                assert g.au_actions == 3 and len(g.au_eyes) == 2, "the Automa takes 2 marbles and 1 Rabbi"
                assert g.au_slot in (0, 1) and g.au_slot != g.rabbi_slot[0]
        assert g.automa_score() >= 0 and g.au_vp[0] >= sum(MAIN_VP) * g.au_laps


# ---------------------------------------------------------------- run columns


def test_solo_run_columns_record_the_automa_and_the_result() -> None:
    lineup = parse_lineup(GAME, ["greedy"], 1)
    ids, params = lineup_arrays(GAME, lineup)
    seeds = np.arange(30, dtype=np.uint64)
    st = play.play_batch(DATA, 1, np.zeros((30, 1), np.int64), ids, params, seeds + 1000, seeds)
    t = chunk_tables(DATA, st, 1)
    score = t.seats["score"]
    automa = t.games["automa_score"]
    assert (automa == t.games["automa_vp_main"] + t.games["automa_vp_strategy"] + t.games["automa_vp_special"]).all()
    assert (t.games["automa_margin"] == score - automa).all()
    beaten = (score > automa) | ((score == automa) & (st["au_pos"] > 0))
    assert (t.seats["win"] == beaten).all() and (t.seats["rank"] == np.where(beaten, 1, 2)).all()
    assert (t.games["winner_seat"] == beaten.astype(int)).all()
    assert 0 < beaten.sum() < 30
    for g in range(3):
        ref = GolemReference(DATA, 1, int(seeds[g] + 1000))
        assert ref.au_strategy == int(st["au_strategy"][g])


def test_multiplayer_runs_have_no_automa_columns_values() -> None:
    lineup = parse_lineup(GAME, ["greedy"], 2)
    ids, params = lineup_arrays(GAME, lineup)
    seeds = np.arange(4, dtype=np.uint64)
    st = play.play_batch(DATA, 2, np.tile(np.arange(2), (4, 1)), ids, params, seeds, seeds)
    t = chunk_tables(DATA, st, 2)
    assert (t.games["automa_score"] == -1).all() and (t.games["automa_laps"] == -1).all()


def test_cli_solo_run_records_the_options_and_the_report_gives_the_margin(tmp_path) -> None:
    import json

    from click.testing import CliRunner

    from simulate.cli import main

    out = tmp_path / "solo"
    args = ["simulate", "golem", "-p", "1", "-n", "200", "--bots", "greedy", "--workers", "1", "-q"]
    result = CliRunner().invoke(main, [*args, "--rule", "automa_difficulty=hard", "--out", str(out)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["rules"]["solo_opponent"] == "automa" and manifest["rules"]["automa_difficulty"] == "hard"
    assert "automa_score" in manifest["columns"]["games"]
    result = CliRunner().invoke(main, ["report", str(out), "--out", str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "report" / "report.md").read_text()
    assert "greedy beats the automaton in" in text and "by a mean margin of" in text
    result = CliRunner().invoke(main, [*args, "--rule", "automa_difficulty=brutal", "--out", str(tmp_path / "x")])
    assert result.exit_code != 0 and "Traceback" not in result.output and "automa_difficulty" in result.output
