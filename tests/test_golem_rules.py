"""Golem (Cranio Creations 2021) rules: scripted positions on the reference engine with exact outcomes.

Each test sets up a position (white-box: the reference state's fields), applies the rule through the
engine and checks the result; each would fail if the rule it names were implemented differently.
Rule references are to the project's rules text and ``seeds/golem/RULINGS.md`` (R*).
"""

from __future__ import annotations

import pytest

from simulate.datafiles import DataError
from simulate.games.golem import data, loader
from simulate.games.golem.codes import (
    CEMETERY,
    OFF_BOARD,
    PASS_ACTION,
    PERM_SLOT,
    RABBI_BASE,
    T_AUTO,
    UPGRADE_SKIP,
    X_OVERMOVE,
    Decision,
)
from simulate.games.golem.data import BLACK, BLUE, CLAY, COIN, KNOWLEDGE, RED, WHITE, YELLOW, E
from simulate.games.golem.reference import GolemReference

SEED = 7
DATA = loader.load()


def game(n: int = 2, seed: int = SEED, **rules) -> GolemReference:
    """A game after setup and round 1's Golem Movement (first legal choices), at the first action."""
    g = GolemReference(loader.load(rules=rules) if rules else DATA, n, seed)
    while g.decision() != Decision.TURN:
        g.apply_action(g.legal_actions()[0])
    return g


def clean(g: GolemReference, s: int, clay: int = 0, coin: int = 0, know: int = 0, vp: int = 10) -> None:
    """Seat ``s`` with the given resources, Students in section I and its two starting Golems in red and yellow I."""
    g.res[s] = [clay, coin, know]
    g.vp[s] = vp
    g.student[s] = [1, 1, 1]
    g.golem_loc[s] = [RED, YELLOW, OFF_BOARD, OFF_BOARD, OFF_BOARD, OFF_BOARD]
    g.golem_sec[s] = [1, 1, 0, 0, 0, 0]
    g.standing[s] = [1] * 6
    g.art_gold[s] = [0] * 4
    g.art_done[s] = [0] * 4
    g.loose_gold[s] = 0
    g.study[s] = 0
    g.track[s] = 2
    g.gdev[s] = [0] * 6
    g.sdev[s] = [0] * 6
    g.adev_space[s] = [-1] * 6
    g.col_books[s] = [[], [], [], []]
    g.col_colour[s] = [-1] * 4


def effect(g: GolemReference, s: int, name: str, a: int = 0, b: int = 0, c: int = -1, x: int = 0) -> None:
    """Apply a data effect for seat ``s`` and run it up to its first decision."""
    g._effect(s, E[name], a, b, c, x)
    g._advance()


def answer(g: GolemReference, *actions: int) -> None:
    for a in actions:
        assert a in g.legal_actions(), (Decision(g.decision()).name, a, g.legal_actions())
        g.apply_action(a)


def place_golem(g: GolemReference, s: int, k: int, dist: int, sec: int) -> None:
    g.golem_loc[s][k] = dist
    g.golem_sec[s][k] = sec
    g.standing[s][k] = 1


def set_tile(g: GolemReference, dist: int, sec: int, number: int) -> None:
    """Put Neighbourhood tile ``number`` (1-based) of ``dist`` at section ``sec``."""
    g.section_tile[dist][sec] = number - 1


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize(("n", "total"), [(1, 10), (2, 10), (3, 12), (4, 14)])
def test_marbles_by_player_count(n: int, total: int) -> None:
    g = GolemReference(DATA, n, SEED)
    assert sum(map(sum, g.syn)) == total


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_action_tiles_dealt_players_plus_one(n: int) -> None:
    g = GolemReference(DATA, n, SEED)
    assert sum(1 for x in g.at_slots if x >= 0) == n + 1


def test_palace_three_early_cards_then_one_round_four_card() -> None:
    for seed in range(20):
        g = GolemReference(DATA, 3, seed)
        assert [int(DATA.tables.ch_deck[c]) for c in g.palace] == [0, 0, 0, 1]


def test_introductory_setup_fixes_palace_tiles_and_keeps_both_starting_tiles() -> None:
    d = loader.load(rules={"setup": "introductory"})
    g = GolemReference(d, 2, SEED)
    assert [d.character_ids[c] for c in g.palace] == ["39", "43", "41", "46"]
    assert [x + 1 for x in g.tiles[RED]] == [1, 2, 4, 5, 7, 8, 9]
    assert [x + 1 for x in g.tiles[YELLOW]] == [1, 3, 4, 5, 6, 7, 10]
    assert [x + 1 for x in g.tiles[BLUE]] == [1, 4, 5, 6, 7, 8, 9]
    while g.decision() != Decision.TURN:
        assert g.decision() != Decision.START_TILES
        g.apply_action(g.legal_actions()[0])
    assert all(len(k) == 2 and len(o) == 2 for k, o in zip(g.kept_starts, g.start_offer, strict=True))


def test_standard_neighbourhood_seven_tiles_ascending_on_tile_sections() -> None:
    g = GolemReference(DATA, 2, SEED)
    for dist in range(3):
        assert g.tiles[dist] == sorted(g.tiles[dist]) and len(set(g.tiles[dist])) == 7
        assert [g.section_tile[dist][sec] for sec in DATA.params["tile_sections"]] == g.tiles[dist]


def test_setup_starting_values_and_objective_draft() -> None:
    g = GolemReference(DATA, 3, SEED)
    assert g.vp == [10, 10, 10] and g.track == [2, 2, 2] and g.study == [0, 0, 0]
    # draft: 4 picks each from hands passed left, then keep 3 of 4
    seen = set()
    while g.decision() in (Decision.DRAFT, Decision.KEEP):
        g.apply_action(0)
    for s in range(3):
        assert len(g.objectives[s]) == 3
        seen.update(g.objectives[s])
    assert len(seen) == 9


def test_starting_tiles_choose_two_of_four_and_take_their_contents() -> None:
    g = GolemReference(DATA, 2, SEED)
    while g.decision() != Decision.START_TILES:
        g.apply_action(g.legal_actions()[0])
    s = g.current_player()
    offer = list(g.start_offer[s])
    before = list(g.res[s])
    g.apply_action(5)  # tiles 3 and 4 of the four
    tiles = DATA.tables.start_tiles
    want = [before[r] + int(tiles[offer[2], r]) + int(tiles[offer[3], r]) for r in range(3)]
    assert g.kept_starts[s] == [offer[2], offer[3]]
    assert g.res[s] == want


def test_starting_golems_on_section_one_of_two_different_districts() -> None:
    g = GolemReference(DATA, 2, SEED)
    while g.decision() != Decision.PLACE_GOLEMS:
        g.apply_action(g.legal_actions()[0])
    s = g.current_player()
    g.apply_action(1)  # yellow left empty
    assert g.golem_loc[s][:2] == [RED, BLUE] and g.golem_sec[s][:2] == [1, 1]


def test_artifact_tiles_chosen_in_reverse_turn_order() -> None:
    g = GolemReference(DATA, 3, SEED)
    while g.decision() != Decision.ARTIFACT_TILE:
        g.apply_action(g.legal_actions()[0])
    assert g.current_player() == g.order[2]


# ---------------------------------------------------------------- golem movement


def test_movement_steps_are_track_level_plus_character() -> None:
    g = GolemReference(DATA, 2, SEED)
    while g.decision() != Decision.MOVE_STEP:
        g.apply_action(g.legal_actions()[0])
    s = g.current_player()
    want = int(DATA.tables.gt_level[2]) + int(DATA.tables.ch_move[g.palace[0]])
    assert g.step_left == want
    start = sum(g.golem_sec[s])
    while g.current_player() == s and g.decision() == Decision.MOVE_STEP:
        g.apply_action(g.legal_actions()[0])
    assert sum(g.golem_sec[s]) == start + want


def test_section_entry_costs_paid_in_vp_or_knowledge() -> None:
    g = game()
    s = 0
    clean(g, s, know=5)
    place_golem(g, s, 0, RED, 7)
    g.step_left = 2
    g.stack.append([Decision.MOVE_STEP, s, 0, 0, 0, 0, 0])
    answer(g, 1)  # into VIII paying Knowledge (cost 1)
    assert g.res[s][KNOWLEDGE] == 4 and g.golem_sec[s][0] == 8
    answer(g, 0)  # into IX paying VP (cost 2)
    assert g.vp[s] == 8 and g.golem_sec[s][0] == 9


def test_section_payment_vp_only_option() -> None:
    g = game(section_payment="vp")
    clean(g, 0, know=5)
    place_golem(g, 0, 0, RED, 7)
    g.step_left = 1
    g.stack.append([Decision.MOVE_STEP, 0, 0, 0, 0, 0, 0])
    assert g.legal_actions() == [0, 2]  # golem 0 or 1 paying VP; Knowledge is not allowed


def test_section_payment_knowledge_only_option_never_takes_vp() -> None:
    """R7: under ``knowledge`` a Golem enters VIII-X only by paying the Knowledge; short of it, it stays."""
    g = game(section_payment="knowledge")
    clean(g, 0, know=0)
    place_golem(g, 0, 0, RED, 7)
    g.step_left = 1
    g.stack.append([Decision.MOVE_STEP, 0, 0, 0, 0, 0, 0])
    assert g.legal_actions() == [2]  # only golem 1 (section I -> II, free); golem 0 cannot pay for VIII
    g.res[0][KNOWLEDGE] = 1
    assert g.legal_actions() == [1, 2]  # golem 0 paying its 1 Knowledge, or golem 1
    answer(g, 1)
    assert g.res[0][KNOWLEDGE] == 0 and g.vp[0] == 10 and g.golem_sec[0][0] == 8


def test_section_payment_knowledge_short_steps_are_unusable_steps() -> None:
    """R7 with R8: steps no Golem can pay for are unusable and cost the over-movement penalty, not section VP."""
    g = game(section_payment="knowledge")
    clean(g, 0, know=1, vp=30)
    place_golem(g, 0, 0, RED, 8)  # IX costs 2 Knowledge
    place_golem(g, 0, 1, YELLOW, 9)  # X costs 3
    g.stack += [[T_AUTO, 0, X_OVERMOVE, 0, 0, 0, 0], [Decision.MOVE_STEP, 0, 0, 0, 0, 0, 0]]
    g.step_left = 2
    g._advance()
    assert g.golem_sec[0][:2] == [8, 9] and g.res[0][KNOWLEDGE] == 1
    assert g.vp[0] == 30 - 10 and g.stats["vp_overmove"][0] == 10 and g.stats["vp_sections"][0] == 0


def test_golems_in_section_ten_do_not_move_while_others_can() -> None:
    g = game()
    clean(g, 0)
    place_golem(g, 0, 0, RED, 10)
    g.step_left = 1
    g.stack.append([Decision.MOVE_STEP, 0, 0, 0, 0, 0, 0])
    assert g.legal_actions() == [2]


@pytest.mark.parametrize(
    ("option", "steps", "golems", "loss"),
    [
        ("five_per_step", 1, 2, 5),
        ("five_per_step", 3, 2, 10),
        ("one_per_step", 3, 2, 3),
        ("one_per_step", 7, 1, 5),
    ],
)
def test_over_movement_penalty(option: str, steps: int, golems: int, loss: int) -> None:
    g = game(overmove=option)
    clean(g, 0, vp=30)
    for k in range(2):
        if k < golems:
            place_golem(g, 0, k, k, 10)
        else:
            g.golem_loc[0][k] = CEMETERY
    g.step_left = steps
    g._overmove(0)
    assert g.vp[0] == 30 - loss and g.stats["vp_overmove"][0] == loss


def test_moving_stands_a_lying_golem_up() -> None:
    g = game()
    clean(g, 0)
    g.standing[0][0] = 0
    g._step_golem(0, 0, 0, False)
    assert g.standing[0][0] == 1 and g.golem_sec[0][0] == 2


# ---------------------------------------------------------------- marble actions


def take(g: GolemReference, s: int, row: int, colour: int) -> int:
    """Seat ``s`` takes a marble of ``colour`` added to ``row``; returns the value (the row's marbles, R10a)."""
    g.syn[row][colour] += 1
    value = sum(g.syn[row])
    g.stack[-1][1] = s
    g.apply_action(row * 5 + colour)
    return value


def test_marble_value_and_student_move_by_colour() -> None:
    g = game()
    s = g.current_player()
    clean(g, s)
    g.syn[1] = [1, 1, 0, 0, 0]
    value = take(g, s, 1, RED)  # Golem row
    assert value == 3 and g.res[s][CLAY] == 3
    assert g.student[s] == [2, 1, 1]
    assert g.eyes[s] == [RED]


def test_white_marble_moves_no_student_and_black_moves_two_different() -> None:
    g = game()
    s = g.current_player()
    clean(g, s)
    take(g, s, 4, WHITE)
    assert g.student[s] == [1, 1, 1]
    answer(g, 5)  # Mirror: done
    s2 = g.current_player()
    clean(g, s2)
    take(g, s2, 4, BLACK)
    assert g.decision() == Decision.BLACK_MARBLE
    answer(g, YELLOW)
    assert g.student[s2] == [2, 1, 2]


def test_work_cost_activation_and_lying_golems() -> None:
    g = game()
    s = g.current_player()
    clean(g, s, know=10)
    set_tile(g, RED, 1, 3)  # red tile 3: take 3 Clay
    set_tile(g, YELLOW, 1, 1)  # yellow tile 1: take 2 Coins
    g.syn[0] = [0, 0, 0, 0, 0]
    take(g, s, 0, WHITE)  # Work at value 1
    assert g.legal_actions() == [0, 1, 2]
    answer(g, 2)  # 2 Golems: 3 - 1 Knowledge
    assert g.res[s][KNOWLEDGE] == 8
    answer(g, 0, 1)
    assert g.res[s][CLAY] == 3 and g.res[s][COIN] == 2
    assert g.standing[s][:2] == [0, 0]


def test_work_discount_is_the_action_value() -> None:
    g = game()
    s = g.current_player()
    clean(g, s, know=2)
    g.syn[0] = [1, 1, 0, 0, 0]
    take(g, s, 0, WHITE)  # value 3
    assert 2 in g.legal_actions()  # 2 Golems cost 3 - 3 = 0
    answer(g, 2, 6)
    assert g.res[s][KNOWLEDGE] == 2


def test_golem_action_clay_and_creation_cost_per_golem_in_district() -> None:
    g = game()
    s = g.current_player()
    clean(g, s, clay=10)
    g.syn[1] = [0, 0, 0, 0, 0]
    take(g, s, 1, WHITE)
    assert g.decision() == Decision.GOLEM_ACTION
    answer(g, 6)  # create in red: 3 + 3 (one Golem there), after 1 Clay from the action
    assert g.res[s][CLAY] == 5 and g.golem_loc[s][2] == RED and g.golem_sec[s][2] == 1
    assert g.track[s] == 4 and g.built[s] == 1
    assert 6 not in g.legal_actions()  # one creation per action
    answer(g, 9)


def test_golem_created_in_work_cannot_be_activated_by_that_work() -> None:
    g = game()
    s = g.current_player()
    clean(g, s, clay=10, know=10)
    g.section_tile[YELLOW][1] = -1
    set_tile(g, BLUE, 1, 1)
    set_tile(g, RED, 1, 2)  # red tile 2: create a Golem with a discount of 1
    g.syn[0] = [0, 0, 0, 0, 0]
    take(g, s, 0, WHITE)
    answer(g, 2, 0)  # 2 Golems: golem 0 on red tile 2 first
    answer(g, BLUE)  # create in blue
    assert g.golem_loc[s][2] == BLUE and g.fresh[s][2] == 1
    assert g.legal_actions() == [1, 6]  # the new Golem (2) cannot be activated


def test_artifacts_action_coins_gold_and_completion() -> None:
    g = game()
    s = g.current_player()
    clean(g, s, coin=3)
    g.art_tile[s], g.art_side[s] = 0, 0
    g.art_gold[s] = [1, 0, 0, 0]  # artifact 1 needs 2
    g.syn[2] = [0, 0, 0, 0, 0]
    take(g, s, 2, WHITE)
    answer(g, 41)  # buy Gold for 3 Coins (after 1 Coin from the action)
    assert g.res[s][COIN] == 1
    answer(g, 0)  # onto artifact 1: complete, pays 2 Coins
    assert g.art_done[s][0] == 1 and g.res[s][COIN] == 3
    assert 41 not in g.legal_actions()


def test_study_action_book_price_and_library_shift() -> None:
    g = game()
    s = g.current_player()
    clean(g, s, know=20)
    g.library = [0, 8, 16, 24, 1]  # B01 red cost 1 at position 1
    g.book_deck = [30, 31]
    g.syn[3] = [0, 0, 0, 0, 0]
    take(g, s, 3, WHITE)
    answer(g, 6 + 0 * 4 + 0)  # B01 into column 1: 1 + 1 Knowledge
    assert g.res[s][KNOWLEDGE] == 21 - 2 and g.col_books[s][0] == [0]
    assert g.library == [8, 16, 24, 1, 30]
    assert g.res[s][CLAY] == 3 + 1  # immediate 3 Clay, then its active bonus 1 Clay


def test_book_columns_one_colour_each_and_study_limit() -> None:
    g = game()
    s = 0
    g.col_books[s][0] = [0]
    g.col_colour[s][0] = 0  # red
    assert not g._fits(s, 1, 0)  # limit 1 per column at Study 0
    g.study[s] = 2
    assert g._fits(s, 1, 0)  # a second red Book
    assert not g._fits(s, 8, 0)  # yellow does not join a red column
    assert not g._fits(s, 1, 1)  # no second red column
    assert g._fits(s, 32, 0)  # black joins any column


def test_number_of_book_columns_is_data(tmp_path) -> None:
    """R18: 4 Book columns, a game.toml value; with 3 a Book never goes into the fourth; more than 4 is refused."""
    import shutil

    folder = tmp_path / "golem"
    shutil.copytree(data.default_dir("golem"), folder)
    toml = folder / "game.toml"
    text = toml.read_text()
    assert "book_columns = 4 " in text
    g = game()
    g.study[0] = 2
    assert [g._fits(0, 8, c) for c in range(4)] == [True] * 4
    toml.write_text(text.replace("book_columns = 4 ", "book_columns = 3 "))
    g = GolemReference(loader.load(folder), 2, SEED)
    g.study[0] = 2
    assert [g._fits(0, 8, c) for c in range(4)] == [True, True, True, False]
    assert not g._fits(0, 32, 3)  # not even a black Book
    toml.write_text(text.replace("book_columns = 4 ", "book_columns = 5 "))
    with pytest.raises(DataError, match="book_columns"):
        loader.load(folder)


def test_six_study_developments_the_sixth_on_the_study_track() -> None:
    """Components and setup step i: six Study Developments, five across the top and the final one on the Study
    track; the final one gives 3 blue Menorahs, every other one 1 (blue tops out at 8, like red and yellow), and
    once upgraded it allows more Books per column and raises the income each round (R18a)."""
    t = DATA.tables
    assert len(t.sdev_menorah) == 6 and t.sdev_menorah.tolist() == [1, 1, 1, 1, 1, 3]
    g = game(n=1)
    clean(g, 0, know=20)
    g.col_books[0][0] = [0]
    g.col_colour[0][0] = 0
    assert not g._fits(0, 1, 0)  # Study 0: 1 Book per column
    g.stack.append([Decision.UPGRADE, 0, 0, 2, 0, 0, 0])  # a Study upgrade
    answer(g, 6 + 5)  # the Study-track Development
    assert g.sdev[0][5] == 1 and g.res[0][KNOWLEDGE] == 20 - int(t.sdev_cost[5])
    assert g.menorahs(0)[2] == 3
    limit = DATA.params["study_track_dev_limit"]
    assert limit >= 1 and g._fits(0, 1, 0)  # a second red Book now fits
    know = g.res[0][KNOWLEDGE]
    g._income()
    income = int(t.sd_income[0]) + DATA.params["study_track_dev_income"]
    assert g.res[0][KNOWLEDGE] - know == income
    g.sdev[0] = [1] * 6
    g.tokens = [-1, -1, -1]
    assert g.menorahs(0)[2] == 8


def test_black_book_paid_with_a_student_step_back() -> None:
    g = game()
    s = g.current_player()
    clean(g, s, know=5)
    g.student[s] = [3, 1, 1]
    g.library = [32, 0, 1, 2, 3]  # B33 black: 4 VP
    g.stack.append([Decision.BOOK, s, 0, 0, 0, 0, 0])
    answer(g, 0)
    assert g.decision() == Decision.STUDENT_BACK and g.legal_actions() == [RED]
    answer(g, RED)
    assert g.student[s][RED] == 2 and g.res[s][KNOWLEDGE] == 4  # library position cost only
    assert g.vp[s] == 10 + 4 + 1


def test_book_placement_order_and_double_column() -> None:
    g = game()
    s = g.current_player()
    clean(g, s, know=20)
    g.study[s] = 4
    g.sdev[s][2] = 1  # column 3: double a non-black Book's immediate effect
    g.col_books[s][2] = [12]  # B13 yellow (active +1 Coin)
    g.col_colour[s][2] = 1
    g.library = [8, 0, 1, 2, 3]  # B09 yellow: 3 Coins, active 1 Coin
    g.stack.append([Decision.BOOK, s, 0, 0, 0, 0, 0])
    answer(g, 0 * 4 + 2)
    assert g.res[s][COIN] == 3 * 2 + 1 + 1


def test_mirror_copies_an_action_at_its_value_and_buys_study() -> None:
    g = game()
    s = g.current_player()
    clean(g, s, coin=5)
    g.syn[4] = [0, 1, 0, 0, 0]
    take(g, s, 4, WHITE)  # value 2
    answer(g, 1)  # Golem action at value 2 for 1 Coin
    assert g.res[s][CLAY] == 2 and g.res[s][COIN] == 4
    answer(g, 9)  # Golem action done
    answer(g, 4)  # 3 Coins: Study +1
    assert g.study[s] == 1 and g.res[s][COIN] == 1
    assert g.legal_actions() == [5]


# ---------------------------------------------------------------- Rabbi, passing, turn order


def test_rabbi_tiles_hold_one_rabbi_and_the_permanent_space_any() -> None:
    g = game()
    s = g.current_player()
    g.apply_action(RABBI_BASE + 0)
    while g.current_player() == s and g.decision() != Decision.TURN:
        g.apply_action(g.legal_actions()[-1])
    other = g.current_player()
    assert RABBI_BASE + 0 not in g.legal_actions()
    assert RABBI_BASE + PERM_SLOT in g.legal_actions() and other != s


def test_turn_order_follows_rabbis_top_to_bottom_then_permanent_left_to_right() -> None:
    g = game(n=4)
    g.rabbi_slot = [PERM_SLOT, 3, PERM_SLOT, 1]
    g.perm_queue = [2, 0]
    g._end_actions()
    assert g.order == [3, 1, 2, 0]


def test_passing_tile_one_removes_a_marble_and_passers_act_later() -> None:
    g = game(n=2)
    first, second = g.order
    g.apply_action(PASS_ACTION)
    assert g.pass_tile[first] == 1 and g.passes[first] == 1 and g.current_player() == second
    # the other player has finished their actions: the passing phase begins
    g.stack.pop()
    g.actions[second] = 3
    g._next_turn()
    g._advance()
    assert g.decision() == Decision.REMOVE_MARBLE and g.current_player() == first
    left = sum(map(sum, g.syn))
    g.apply_action(g.legal_actions()[0])
    assert sum(map(sum, g.syn)) == left - 1
    assert g.decision() == Decision.TURN and g.current_player() == first and g.pass_stage == 1
    assert PASS_ACTION in g.legal_actions()  # a second pass is allowed (second_pass = final)


def test_final_passing_phase_forbids_passing() -> None:
    g = game()
    g.pass_stage = 2
    assert PASS_ACTION not in g.legal_actions()
    g2 = game(second_pass="none")
    g2.pass_stage = 1
    assert PASS_ACTION not in g2.legal_actions()


# ---------------------------------------------------------------- characters, income, control


@pytest.mark.parametrize(
    ("eyes", "match"),
    [
        ([YELLOW, RED], True),
        ([RED, YELLOW], True),
        ([WHITE, RED], True),
        ([WHITE, WHITE], True),
        ([RED, RED], False),
        ([BLUE, YELLOW], False),
        ([YELLOW], False),
    ],
)
def test_character_colour_pair_with_white_wild(eyes: list[int], match: bool) -> None:
    g = game()
    g.palace[0] = DATA.character_ids.index("39")  # yellow + red
    g.eyes[0] = eyes
    assert g._matches(0) is match


def test_white_icon_needs_a_white_marble() -> None:
    g = game()
    g.palace[0] = DATA.character_ids.index("42")  # yellow + white
    g.eyes[0] = [YELLOW, RED]
    assert not g._matches(0)
    g.eyes[0] = [RED, WHITE]
    assert not g._matches(0)
    g.eyes[0] = [WHITE, YELLOW]
    assert g._matches(0)


def test_character_pay_for_bonus_or_take_three_coins() -> None:
    g = game()
    g.palace[0] = DATA.character_ids.index("40")  # pay 3 Coins: Study +2
    clean(g, 0, coin=4)
    g.stack.append([Decision.CHARACTER, 0, 0, 0, 0, 0, 0])
    answer(g, 0)
    assert g.res[0][COIN] == 1 and g.study[0] == 2
    clean(g, 0, coin=2)
    g.stack.append([Decision.CHARACTER, 0, 0, 0, 0, 0, 0])
    assert g.legal_actions() == [1]
    answer(g, 1)
    assert g.res[0][COIN] == 5


def test_income_students_artifacts_study_and_golem_track() -> None:
    g = game(n=1)
    clean(g, 0)
    g.student[0] = [5, 2, 8]
    g.art_tile[0], g.art_side[0] = 0, 0
    g.art_done[0] = [1, 0, 0, 0]  # +2 Coins
    g.study[0] = 4
    g.track[0] = 5
    t = DATA.tables
    g._income()
    assert g.res[0][CLAY] == int(t.street_res[4]) + int(t.gt_clay[5])
    assert g.res[0][COIN] == int(t.street_res[1]) + 2
    assert g.res[0][KNOWLEDGE] == int(t.street_res[7]) + int(t.sd_income[4])
    assert g.vp[0] == 10 + int(t.street_vp[4]) + int(t.street_vp[1]) + int(t.street_vp[7]) + int(t.gt_vp[5])


def test_golem_control_knowledge_per_section_ahead() -> None:
    g = game(n=1)
    clean(g, 0, know=10)
    g.student[0] = [2, 5, 1]
    place_golem(g, 0, 0, RED, 6)  # 4 ahead
    place_golem(g, 0, 1, YELLOW, 3)  # behind: 0
    g._control()
    assert g.res[0][KNOWLEDGE] == 6 and g.vp[0] == 10


def test_golem_control_shortfall_spends_all_and_costs_five_per_golem() -> None:
    g = game(n=1)
    clean(g, 0, know=4, vp=20)
    place_golem(g, 0, 0, RED, 4)  # 3
    place_golem(g, 0, 1, YELLOW, 6)  # 5
    place_golem(g, 0, 2, BLUE, 3)  # 2
    g._control()
    # pays 2 then cannot pay 3 fully... the cheapest first: 2 paid, 3 and 5 unpaid
    assert g.res[0][KNOWLEDGE] == 0 and g.vp[0] == 10 and g.stats["vp_control"][0] == 10


def test_golem_control_cap_development_and_free_control_tile() -> None:
    g = game(n=1)
    clean(g, 0, know=10)
    place_golem(g, 0, 0, RED, 8)
    g.gdev[0][0] = 1  # at most 2 per Golem
    g._control()
    assert g.res[0][KNOWLEDGE] == 8
    g.free_control[0] = 1
    g._control()
    assert g.res[0][KNOWLEDGE] == 8


def test_menorah_token_to_the_first_student_in_section_eight() -> None:
    g = game()
    g.student[0][BLUE] = 7
    g.student[1][BLUE] = 7
    g._move_student(1, BLUE, 1)
    g._move_student(0, BLUE, 2)
    assert g.tokens[BLUE] == 1 and g.student[0][BLUE] == 9


def test_student_stops_at_section_ten() -> None:
    g = game()
    g.student[0][RED] = 9
    g._move_student(0, RED, 3)
    assert g.student[0][RED] == 10


# ---------------------------------------------------------------- killing


def test_kill_goes_to_a_free_space_takes_its_bonus_and_lowers_the_track() -> None:
    g = game(n=2)
    clean(g, 0)
    g.track[0] = 4
    effect(g, 0, "kill_golem")
    answer(g, 0)
    # 2 players: spaces 1-3 and the unlimited space 6 (4 and 5 need 3 and 4 players)
    assert g.legal_actions() == [0, 1, 2, 5]
    answer(g, 1)  # 3 Clay
    assert g.golem_loc[0][0] == CEMETERY and g.res[0][CLAY] == 3 and g.track[0] == 3
    assert g.cemetery[1] == 0 and g.killed[0] == 1
    clean(g, 1)
    effect(g, 1, "kill_golem")
    answer(g, 0)
    assert 1 not in g.legal_actions()


def test_kill_double_cemetery_development() -> None:
    g = game(n=2)
    clean(g, 0, clay=10)
    g.stack.append([Decision.UPGRADE, 0, 0, 1, 0, 0, 0])
    answer(g, 1)  # golem development 2: kill now, bonuses doubled
    assert g.decision() == Decision.KILL
    answer(g, 0, 0)  # space 1: 3 Coins, doubled
    assert g.res[0][COIN] == 6 and g.res[0][CLAY] == 10 - 4


# ---------------------------------------------------------------- Neighbourhood tile effects


def test_red_tiles() -> None:
    g = game(n=1)
    clean(g, 0, clay=10)
    effect(g, 0, "create_golem", 3)
    answer(g, BLUE)  # 3 - 3 = 0 Clay
    assert g.res[0][CLAY] == 10 and g.golem_loc[0][2] == BLUE
    g.track[0] = 6  # level 3
    effect(g, 0, "kill_vp_per_level", 1)
    answer(g, 6)  # no kill: VP for the level anyway (R20)
    assert g.vp[0] == 13
    effect(g, 0, "student_back", 4, 3, CLAY, RED)
    assert g.legal_actions() == [1]  # red Student in section I cannot move back
    answer(g, 1)
    g.student[0][RED] = 3
    effect(g, 0, "student_back", 4, 3, CLAY, RED)
    answer(g, 0)
    assert g.student[0][RED] == 2 and g.vp[0] == 17 and g.res[0][CLAY] == 13
    effect(g, 0, "pay_for_vp", 3, 6, CLAY)
    answer(g, 0)
    assert g.res[0][CLAY] == 10 and g.vp[0] == 23


def test_create_golem_then_vp_per_level() -> None:
    g = game(n=1)
    clean(g, 0, clay=5)
    g.track[0] = 2
    effect(g, 0, "create_golem_vp_per_level", 2, 1)
    answer(g, BLUE)  # 3 - 2 = 1 Clay; track 2 -> 4 (level 2)
    assert g.res[0][CLAY] == 4 and g.vp[0] == 10 + 2


def test_upgrade_with_discount_pays_the_rest_in_the_area_resource() -> None:
    g = game(n=1)
    clean(g, 0, clay=1)
    effect(g, 0, "upgrade_golem", 5)
    assert 0 in g.legal_actions() and 3 not in g.legal_actions()  # cost 5: free; cost 8: 3 Clay needed
    answer(g, 0)
    assert g.gdev[0][0] == 1 and g.res[0][CLAY] == 1


def test_yellow_tiles() -> None:
    g = game(n=1)
    clean(g, 0, coin=10)
    g.art_tile[0], g.art_side[0] = 0, 0
    effect(g, 0, "pay_for_gold", 1, 1, COIN)
    answer(g, 0, 3)  # Gold onto artifact 4
    assert g.res[0][COIN] == 9 and g.art_gold[0][3] == 1
    effect(g, 0, "pay_for_students", 4, 2, COIN)
    answer(g, 0, RED, RED)
    assert g.student[0][RED] == 3 and g.res[0][COIN] == 5
    deck = list(g.ob_deck)
    effect(g, 0, "objective_gain", 2, 2, COIN)
    answer(g, 1)
    assert g.objectives[0][-1] == deck[1] and g.ob_deck[-1] == deck[0] and g.res[0][COIN] == 7
    effect(g, 0, "kill_gain", 3, 0, COIN)
    answer(g, 6)  # no kill, Coins anyway (R20)
    assert g.res[0][COIN] == 10
    g.art_done[0] = [0, 1, 0, 0]
    effect(g, 0, "activate_artifact", 1)
    answer(g, 1)
    assert g.res[0][KNOWLEDGE] == 2
    g.student[0] = [5, 1, 1]
    effect(g, 0, "student_income")
    assert g.res[0][CLAY] == int(DATA.tables.street_res[4])


def test_blue_tiles() -> None:
    g = game(n=1)
    clean(g, 0, know=10)
    effect(g, 0, "pay_for_study", 2, 1, KNOWLEDGE)
    answer(g, 0)
    assert g.study[0] == 1 and g.res[0][KNOWLEDGE] == 8
    effect(g, 0, "study_down_vp_student", 3, 1)
    answer(g, 0, YELLOW)
    assert g.study[0] == 0 and g.vp[0] == 13 and g.student[0][YELLOW] == 2
    effect(g, 0, "pay_for_vp_study", 4, 4, KNOWLEDGE)
    answer(g, 0)
    assert g.study[0] == 1 and g.vp[0] == 17 and g.res[0][KNOWLEDGE] == 4
    g.library = [16, 0, 1, 2, 3]  # B17 blue cost 1 at position cost 1
    effect(g, 0, "buy_book", 3)
    answer(g, 0)
    assert g.res[0][KNOWLEDGE] == 4 + 3 + 1  # free (2 - 3 < 0), then 3 + 1 Knowledge
    g.col_books[0][1] = [8]
    effect(g, 0, "book_bonuses", 3)
    answer(g, 0)
    assert 0 not in g.legal_actions()  # each Book once
    answer(g, 5, 20)
    assert g.res[0][KNOWLEDGE] == 9 and g.res[0][COIN] == 1


# ---------------------------------------------------------------- Action tiles and the permanent space


def test_action_tile_track_vp_and_knowledge_per_level() -> None:
    g = game(n=1)
    clean(g, 0)
    g.track[0] = 3
    effect(g, 0, "track_vp_knowledge", 1, 1)
    answer(g, 0)  # up to position 4: level 2
    assert g.vp[0] == 12 and g.res[0][KNOWLEDGE] == 2


def test_action_tile_gold_then_vp_per_completed_artifact() -> None:
    g = game(n=1)
    clean(g, 0)
    g.art_tile[0], g.art_side[0] = 0, 0
    g.art_gold[0] = [1, 0, 0, 0]
    effect(g, 0, "gold_vp_per_artifact", 1, 1)
    answer(g, 0)
    assert g.art_done[0][0] == 1 and g.vp[0] == 11


def test_action_tile_clay_create_and_move() -> None:
    g = game(n=1)
    clean(g, 0)
    effect(g, 0, "clay_create_move", 3, 1)
    answer(g, BLUE)
    assert g.golem_loc[0][2] == BLUE and g.res[0][CLAY] == 0
    answer(g, 2 * 4)  # golem 2 forward
    assert g.golem_sec[0][2] == 2


def test_action_tile_book_without_card_cost() -> None:
    g = game(n=1)
    clean(g, 0, know=5)
    g.library = [18, 0, 1, 2, 3]  # B19 blue cost 3
    effect(g, 0, "buy_book_free_card")
    answer(g, 0)
    assert g.res[0][KNOWLEDGE] == 4  # position cost 1 only


def test_action_tile_kill_then_vp_and_clay_per_cemetery_golem() -> None:
    g = game(n=2)
    clean(g, 0)
    g.golem_loc[0][3] = CEMETERY
    g.cemetery_count[0] = 1
    effect(g, 0, "kill_vp_clay_per_cemetery", 1, 1)
    answer(g, 0, 5)  # unlimited space: no bonus
    assert g.vp[0] == 12 and g.res[0][CLAY] == 2


def test_action_tile_upgrade_any_resources() -> None:
    g = game(n=1)
    clean(g, 0, clay=1, coin=1, know=0)
    effect(g, 0, "upgrade_any_resources", 3)
    answer(g, 0)  # golem development 1: cost 5 - 3 = 2: 1 Clay then 1 Coin
    assert g.res[0] == [0, 0, 0] and g.gdev[0][0] == 1


def test_action_tile_move_activate_and_no_control() -> None:
    g = game(n=1)
    clean(g, 0, know=0, vp=10)
    set_tile(g, RED, 3, 3)
    effect(g, 0, "move_activate_free_control", 4)
    answer(g, 0)  # golem 0 forward
    assert g.legal_actions() == [0, 24]  # the same Golem only
    answer(g, 0, 24)
    answer(g, 0)  # activate it: red tile 3, 3 Clay
    assert g.res[0][CLAY] == 3 and g.standing[0][0] == 0
    g._control()
    assert g.vp[0] == 10


def test_action_tile_up_to_four_steps_allows_none_then_activates_any_standing_golem() -> None:
    """A07 "move 1 Golem up to 4 steps & activate it": 0 steps is "up to 4"; the Golem activated is then any of the
    player's standing Golems (R37)."""
    g = game(n=1)
    clean(g, 0, know=0, vp=10)
    set_tile(g, YELLOW, 1, 1)  # yellow tile 1: 2 Coins
    g.standing[0][0] = 0  # the red Golem lies: only the yellow one may be activated
    effect(g, 0, "move_activate_free_control", 4)
    answer(g, 24)  # no step
    assert Decision(g.decision()) == Decision.ACTIVATE and g.legal_actions() == [1, 6]
    answer(g, 1)
    assert g.res[0][COIN] == 2 and g.standing[0][1] == 0 and g.golem_sec[0][1] == 1


def test_action_tile_move_two_steps_either_way_and_activate() -> None:
    g = game(n=1)
    clean(g, 0)
    g.golem_sec[0][1] = 3
    effect(g, 0, "move_two_activate", 2, 1)
    answer(g, 1 * 4 + 2, 1 * 4 + 2)  # golem 1 back twice
    assert g.golem_sec[0][1] == 1
    assert g.decision() == Decision.ACTIVATE


def test_action_tile_study_and_one_book_bonus() -> None:
    g = game(n=1)
    clean(g, 0)
    g.col_books[0][0] = [0]
    effect(g, 0, "study_book_bonus", 1, 1)
    answer(g, 0)
    assert g.study[0] == 1 and g.res[0][CLAY] == 1 and g.decision() == Decision.TURN


def test_action_tile_copy_a_tile_without_activating() -> None:
    g = game(n=1)
    clean(g, 0)
    g.standing[0][0] = 0
    set_tile(g, RED, 1, 3)
    effect(g, 0, "copy_tile")
    answer(g, 0)
    assert g.res[0][CLAY] == 3 and g.standing[0][0] == 0


def test_action_tile_resources_and_objective() -> None:
    g = game(n=1)
    clean(g, 0)
    before = len(g.objectives[0])
    effect(g, 0, "resources_objective", 1, 2)
    answer(g, 0)
    assert g.res[0] == [1, 1, 1] and len(g.objectives[0]) == before + 1


def test_action_tile_student_then_vp_of_leftmost() -> None:
    g = game(n=1)
    clean(g, 0)
    g.student[0] = [4, 3, 2]
    effect(g, 0, "student_vp_leftmost", 1, 1)
    answer(g, BLUE)
    assert g.vp[0] == 13


def test_permanent_space_any_action_at_value_one() -> None:
    g = game(n=1)
    s = g.current_player()
    clean(g, s)
    g.apply_action(RABBI_BASE + PERM_SLOT)
    assert g.decision() == Decision.ANY_ACTION and g.legal_actions() == [0, 1, 2, 3]
    answer(g, 1)
    assert g.res[s][CLAY] == 1


# ---------------------------------------------------------------- Character bonuses


@pytest.mark.parametrize(
    ("cid", "check"),
    [
        ("42", lambda g: g.loose_gold[0] + sum(g.art_gold[0]) == 2),
        ("44", lambda g: g.study[0] == 1 and g.student[0][BLUE] == 2),
        ("46", lambda g: g.vp[0] == 10 + 2),
        ("47", lambda g: g.vp[0] == 10 + 3 * 2),
        ("48", lambda g: g.vp[0] == 10 + 3 * 1),
    ],
)
def test_character_bonuses_without_choices(cid: str, check) -> None:
    g = game(n=1)
    clean(g, 0, coin=10)
    g.art_tile[0] = -1  # Gold goes aside
    g.student[0] = [2, 3, 2] if cid == "47" else [1, 1, 1]
    g.gdev[0][0] = g.gdev[0][1] = 1 if cid == "46" else 0
    c = DATA.character_ids.index(cid)
    t = DATA.tables
    effect(g, 0, data.EFFECTS[int(t.ch_effect[c])], int(t.ch_a[c]), int(t.ch_b[c]))
    assert check(g)


def test_character_create_golem_and_red_student() -> None:
    g = game(n=1)
    clean(g, 0, clay=2)
    effect(g, 0, "create_golem_red_student", 4, 1)
    answer(g, RED)  # 3 + 3 - 4 = 2 Clay
    assert g.res[0][CLAY] == 0 and g.student[0][RED] == 2


def test_character_kill_and_vp_per_cemetery_golem() -> None:
    g = game(n=1)
    clean(g, 0)
    effect(g, 0, "kill_vp_per_cemetery", 2)
    answer(g, 1, 5)
    assert g.vp[0] == 12


def test_character_upgrade_vp_and_buy_book() -> None:
    g = game(n=1)
    clean(g, 0, know=6)
    effect(g, 0, "upgrade_any_vp", 4, 1)
    assert g.vp[0] == 11
    answer(g, 6)  # study development 1: cost 4 - 4
    assert g.sdev[0][0] == 1 and g.res[0][KNOWLEDGE] == 6
    g.library = [18, 0, 1, 2, 3]
    effect(g, 0, "vp_buy_book", 4, 5)
    answer(g, 0)
    assert g.vp[0] == 15 + 1 and g.res[0][KNOWLEDGE] == 6  # 3 + 1 - 5 < 0: free


def test_character_golem_step_and_two_activations() -> None:
    g = game(n=1)
    clean(g, 0)
    set_tile(g, RED, 2, 1)
    set_tile(g, YELLOW, 1, 1)
    effect(g, 0, "golem_step_activate", 1, 2)
    answer(g, 0)  # golem 0 forward to red II
    answer(g, 0, 1)
    assert g.res[0][CLAY] == 2 and g.res[0][COIN] == 2


# ---------------------------------------------------------------- developments


def test_golem_development_activate_now_and_extra_work_golem() -> None:
    g = game(n=1)
    s = g.current_player()
    clean(g, s, clay=10, know=0)
    set_tile(g, RED, 1, 3)
    set_tile(g, YELLOW, 1, 1)
    g.stack.append([Decision.UPGRADE, s, 0, 1, 0, 0, 0])
    answer(g, 2)  # golem development 3
    answer(g, 0)  # activate golem 0 now
    assert g.res[s][CLAY] == 5 + 3
    g.syn[0] = [0, 0, 0, 0, 0]
    take(g, s, 0, WHITE)
    answer(g, 0)  # pay for none: one free activation
    answer(g, 1)
    assert g.res[s][COIN] == 2


def test_golem_development_created_golem_steps_and_uses_its_tile_standing() -> None:
    g = game(n=1)
    clean(g, 0, clay=10)
    g.gdev[0][5] = 1
    set_tile(g, BLUE, 2, 3)
    g._create(0, BLUE, 0)
    g._advance()
    assert Decision(g.decision()) == Decision.CONFIRM  # "you may take 1 step" (R27)
    answer(g, 0)
    assert g.golem_sec[0][2] == 2 and g.standing[0][2] == 1 and g.res[0][KNOWLEDGE] == 3


def test_golem_development_step_of_a_created_golem_may_be_declined() -> None:
    g = game(n=1)
    clean(g, 0, clay=10)
    g.gdev[0][5] = 1
    set_tile(g, BLUE, 2, 3)
    g._create(0, BLUE, 0)
    g._advance()
    answer(g, 1)
    assert g.golem_sec[0][2] == 1 and g.standing[0][2] == 1 and g.res[0][KNOWLEDGE] == 0


def test_ignore_character_steps_development() -> None:
    g = GolemReference(DATA, 1, SEED)
    while g.decision() != Decision.MOVE_STEP:
        if g.decision() == Decision.PLACE_GOLEMS:
            g.gdev[0][4] = 1
        g.apply_action(g.legal_actions()[0] if g.decision() != Decision.IGNORE_CHAR else 1)
    assert g.step_left == int(DATA.tables.gt_level[2])


def test_artifact_development_on_a_space_with_side_and_reactivation() -> None:
    g = game(n=1)
    s = g.current_player()
    clean(g, s, coin=10)
    g.art_tile[s], g.art_side[s] = 0, 0
    g.art_done[s] = [1, 0, 0, 0]  # +2 Coins
    opt = 1 + (2 * 4 + 0) * 2 + 1  # grey tile 3 on artifact 1, side B (+1 Knowledge +1 VP)
    g.stack.append([Decision.UPGRADE, s, 0, 4, 0, 0, 0])
    answer(g, 12 + opt)
    assert g.res[s][COIN] == 10 - int(DATA.tables.art[0, 0, 0, 6])
    g._activate_artifact(s, 0)
    assert g.res[s][KNOWLEDGE] == 1 and g.vp[s] == 11
    g.stack.append([Decision.UPGRADE, s, 0, 4, 0, 0, 0])
    assert 12 + 1 + (0 * 4 + 0) * 2 not in g.legal_actions()  # space taken
    answer(g, 12 + 1 + (0 * 4 + 1) * 2)  # gold tile 1 side A (red marble) on artifact 2
    g.art_done[s][1] = 1
    coins = g.res[s][COIN]
    g.syn[4] = [0, 0, 0, 0, 0]
    take(g, s, 4, RED)  # a red marble reactivates artifact 2 (+2 Knowledge)
    assert g.res[s][KNOWLEDGE] == 1 + 2 and g.res[s][COIN] == coins


def test_largest_developments_cost_and_menorahs() -> None:
    g = game(n=1)
    clean(g, 0, coin=8)
    assert g._upgrade_cost(0, 12) == (8, COIN)
    g._upgrade(0, 12, 0, 0)
    assert g.menorahs(0) == (0, 3, 0) and g.res[0][COIN] == 0


def test_every_small_artifact_development_reveals_a_yellow_menorah() -> None:
    """Rules, Artifacts: apart from the lowest tile every Artifact Development (the two gold ones too) is double-sided
    and reveals a yellow Menorah when upgraded (R16): yellow tops out at 8, like red."""
    g = game(n=1)
    clean(g, 0)
    g.tokens = [-1, -1, -1]
    g.adev_space[0] = [0, -1, -1, -1, -1, -1]  # gold tile 1 (reactivation) only
    assert g.menorahs(0) == (0, 1, 0)
    g.adev_space[0] = [0, 1, 2, 3, -1, 0]
    g.gdev[0] = [1] * 6
    assert g.menorahs(0) == (8, 1 + 1 + 1 + 1 + 3, 0)
    g.adev_space[0][4] = 0
    assert g.menorahs(0)[1] == 8


def test_upgrade_skip_is_always_legal() -> None:
    g = game(n=1)
    clean(g, 0)
    g.stack.append([Decision.INCOME_UPGRADE, 0, 0, 7, 0, 0, 0])
    assert g.legal_actions() == [UPGRADE_SKIP]


# ---------------------------------------------------------------- scoring


def test_final_scoring_parts() -> None:
    g = game(n=2)
    s = 0
    clean(g, s, clay=7, coin=2, know=1, vp=20)
    g.built[s] = 2
    g.gdev[s] = [1, 0, 0, 1, 0, 0]  # 1 + 3 red Menorahs
    g.tokens = [s, -1, s]  # red and blue Menorah tokens
    g.art_done[s] = [1, 1, 0, 0]
    g.adev_space[s] = [-1, -1, 0, -1, -1, -1]  # one grey tile: 1 yellow Menorah
    g.col_books[s] = [[0], [8], [], []]
    g.sdev[s] = [0, 0, 0, 0, 0, 1]  # the Study-track Development: 3 blue Menorahs
    g.study[s] = 8
    g.objectives[s] = [0, 9]  # student red >= 5 (no), golems made >= 2 (yes)
    g.student[s] = [4, 1, 1]
    parts = g.score_parts()[s]
    assert parts == [20, 2 * 5, 2 * 1, 2 * 4, int(DATA.tables.sd_vp[8]), 2, 0, 2]


def test_objective_type_bonus() -> None:
    g = game(n=1)
    clean(g, 0)
    g.objectives[0] = [0, 3, 6, 9]  # four types
    g.student[0] = [5, 1, 5]
    g.built[0] = 2
    met, types = g._objectives_met(0)
    assert len(types) == 3 and g.score_parts()[0][6] == 5


def test_tie_break_uppermost_rabbi() -> None:
    g = game(n=2)
    for s in range(2):
        clean(g, s, vp=30)
    g.order = [1, 0]
    assert g.ranks() == [2, 1]
    g.order = [0, 1]
    assert g.ranks() == [1, 2]


def test_vp_floor_option() -> None:
    g = game(n=1)
    clean(g, 0, vp=3)
    assert g._lose_vp(0, 5) == 3 and g.vp[0] == 0
    g2 = game(n=1, vp_floor="negative")
    clean(g2, 0, vp=3)
    g2._lose_vp(0, 5)
    assert g2.vp[0] == -2


def test_whole_games_have_three_actions_per_player_per_round() -> None:
    import random

    for n in (1, 2, 3, 4):
        g = GolemReference(DATA, n, SEED + n)
        r = random.Random(n)
        while not g.is_terminal():
            g.apply_action(r.choice(g.legal_actions()))
        assert g.round == 4
        assert all(sum(c[:6]) + c[7] == 12 for c in g.act_count)


# ---------------------------------------------------------------- data loader


def test_loader_names_file_row_and_field(tmp_path) -> None:
    import shutil

    folder = tmp_path / "golem"
    shutil.copytree(data.default_dir("golem"), folder)
    path = folder / "characters.csv"
    text = path.read_text().replace("39,I-III,yellow,red,2,", "39,I-III,purple,red,2,")
    path.write_text(text)
    with pytest.raises(DataError, match=r"characters.csv: line 2: column 'colour1': 'purple'"):
        loader.load(folder)


def test_loader_requires_provenance_for_every_parameter(tmp_path) -> None:
    import shutil

    folder = tmp_path / "golem"
    shutil.copytree(data.default_dir("golem"), folder)
    path = folder / "game.toml"
    path.write_text(path.read_text().replace('gold_price = "rules: Artifacts action, 3 Coins per Gold"\n', ""))
    with pytest.raises(DataError, match="provenance.gold_price"):
        loader.load(folder)


def test_estimates_are_reported() -> None:
    assert DATA.provenance["estimates"] is True
    assert "books.csv (38 rows)" in loader.estimate_note(DATA)


def test_upgrade_artifact_and_study_discounts() -> None:
    g = game(n=1)
    clean(g, 0, coin=1, know=2)
    g.art_tile[0], g.art_side[0] = 0, 0
    effect(g, 0, "upgrade_artifact", 2)
    # a small tile on artifact 1's space costs art[0, 0, 0, 6] = 2: free after the discount of 2
    assert 12 + 1 + (2 * 4 + 0) * 2 in g.legal_actions() and 12 not in g.legal_actions()  # the 8-Coin tile is not
    answer(g, 12 + 1 + (2 * 4 + 0) * 2)
    assert g.res[0][COIN] == 1 and g.adev_space[0][2] == 0
    effect(g, 0, "upgrade_study", 4)
    assert 6 + 2 in g.legal_actions() and 6 + 5 not in g.legal_actions()  # costs 6 and 8: 2 of 2, 4 of 2 Knowledge
    answer(g, 6 + 1)
    assert g.sdev[0][1] == 1 and g.res[0][KNOWLEDGE] == 1


def test_simple_book_effects() -> None:
    g = game(n=1)
    clean(g, 0, coin=2)
    effect(g, 0, "gain", 3, 0, KNOWLEDGE)
    effect(g, 0, "study_up", 1)
    effect(g, 0, "student_district", 1, 0, YELLOW)
    assert g.res[0][KNOWLEDGE] == 3 and g.study[0] == 1 and g.student[0][YELLOW] == 2
    effect(g, 0, "choice", 2)
    answer(g, CLAY)
    assert g.res[0][CLAY] == 2
    effect(g, 0, "trade", 2, 4, COIN, CLAY)  # 2 Coins for 4 Clay
    answer(g, 0)
    assert g.res[0][COIN] == 0 and g.res[0][CLAY] == 6
    effect(g, 0, "golem_track", 1)
    answer(g, 1)
    assert g.track[0] == 1
    effect(g, 0, "student_any", 2)
    answer(g, RED, 3)
    assert g.student[0][RED] == 2


def test_red_tile_student_and_golem_upgrade_on_activation() -> None:
    g = game(n=1)
    clean(g, 0)
    set_tile(g, RED, 1, 4)  # red tile 4: any Student forward
    g._activate(0, 0, True)
    g._advance()
    answer(g, BLUE)
    assert g.student[0][BLUE] == 2 and g.standing[0][0] == 0
