"""Golem's codes: decisions, the action encoding, internal steps, phases and counters.

Shared by the kernel (``engine``) and the reference engine (``reference``), so neither imports the
other. Every decision is one integer action ``0..NUM_ACTIONS-1`` whose meaning depends on the
pending ``Decision``; the constants below name each decision's options (a district, a golem, a
Book position, ...) and its closing "skip"/"stop"/"done" option. ``D_*`` and ``E_*`` are the
decision and effect codes as plain ints for numba.
"""

from __future__ import annotations

from enum import IntEnum

from simulate.games.golem.data import NUM_GOLEM_DEVS, NUM_STUDY_DEVS, E

NUM_ACTIONS = 64
MAX_STACK = 32
OFF_BOARD, CEMETERY = -1, 3  # golem location besides districts 0..2
AUTOMA = -2  # the solo Automa's place in a turn sequence (it is not a seat)


class Decision(IntEnum):
    """What the player to move decides; the meaning of the action integer per decision is in ``describe``."""

    DRAFT = 1  # objective card from the hand: hand slot
    KEEP = 2  # objective to discard from the 4 drafted: slot
    ARTIFACT_TILE = 3  # offered artifact tile: index
    START_TILES = 4  # pair of starting tiles: PAIRS index
    PLACE_GOLEMS = 5  # district left without a starting golem
    IGNORE_CHAR = 6  # 0 use the Character's steps, 1 ignore them
    MOVE_STEP = 7  # golem * 2 + pay (0 VP, 1 Knowledge)
    TURN = 8  # row * 5 + colour (marble), 25 + slot (Rabbi; 30 the permanent space), 31 pass
    BLACK_MARBLE = 9  # district whose Student does not move
    WORK_COUNT = 10  # golems paid for (0..4)
    ACTIVATE = 11  # golem, or 6 = stop
    GOLEM_ACTION = 12  # 0..5 upgrade golem dev, 6..8 create in district, 9 done
    ARTIFACT_ACTION = 13  # artifact development option (0..40), 41 buy Gold, 42 done
    STUDY_ACTION = 14  # 0..5 upgrade study dev, 6 + pos * 4 + column buy, 26 done
    MIRROR = 15  # 0..3 row action, 4 study step, 5 done
    CHARACTER = 16  # 0 pay for the bonus, 1 take the Coins
    UPGRADE = 17  # 0..5 golem, 6..11 study, 12 + artifact option, 53 skip
    CREATE = 18  # district, 3 skip
    KILL = 19  # golem, 6 skip
    CEMETERY_SPACE = 20  # space
    STUDENT = 21  # district forward, 3 skip
    GOLEM_STEP = 22  # golem * 4 + back * 2 + pay, 24 stop
    BOOK = 23  # pos * 4 + column, 20 skip
    STUDENT_BACK = 24  # district whose Student pays for a black Book
    BOOK_BONUS = 25  # column * 5 + row, 20 stop
    OBJECTIVE = 26  # 0 / 1: the drawn card kept
    TRACK = 27  # 0 up, 1 down, 2 skip
    ARTIFACT_ACTIVATE = 28  # artifact, 4 skip
    GOLD_PLACE = 29  # artifact
    CHOICE = 30  # resource 0..2
    CONFIRM = 31  # 0 yes, 1 no
    COPY_TILE = 32  # golem, 6 skip
    ANY_ACTION = 33  # row 0..3
    REMOVE_MARBLE = 34  # row * 5 + colour
    INCOME_UPGRADE = 35  # as UPGRADE


# Internal automatic steps (codes after the data effects).
X_BASE = 200
(
    X_VP_PER_LEVEL,
    X_VP_CEMETERY,
    X_VP_LEFTMOST,
    X_VP_PER_ARTIFACT,
    X_ROW_ACTION,
    X_STUDENT,
    X_GAIN,
    X_ACTIVATE_ART,
    X_END_ACTION,
    X_ACTIVATE_GOLEM,
    X_TILE,
    X_AFTER_BOOK,
    X_GOLD,
    X_GOLD_PIECE,
    X_KNOW_PER_LEVEL,
    X_OVERMOVE,
    X_REDROP,
) = range(X_BASE, X_BASE + 17)
T_AUTO = 0  # stack kind of an automatic step

# ----------------------------------------------------------------------------- the action encoding
# The meaning of an action integer depends on the pending decision (see ``Decision``); the option
# numbers of each decision, its "skip"/"stop"/"done" option last.
NUM_DISTRICT_OPTIONS = 3  # PLACE_GOLEMS, BLACK_MARBLE, CREATE, STUDENT, STUDENT_BACK: a district 0..2
NUM_GOLEM_OPTIONS = 6  # ACTIVATE, KILL, COPY_TILE: a golem of the seat 0..5
NUM_ROW_OPTIONS = 4  # MIRROR, ANY_ACTION: the row action work, golem, artifacts, study
NUM_ARTIFACT_OPTIONS = 4  # ARTIFACT_ACTIVATE, GOLD_PLACE: an artifact 0..3
NUM_CHOICE_OPTIONS = 3  # CHOICE: resource clay, coin, knowledge
NUM_DRAWN_OPTIONS = 2  # OBJECTIVE: the drawn card kept
NUM_BOOK_OPTIONS = 20  # BOOK: position * 4 + column; BOOK_BONUS: column * 5 + row
# TURN: row * 5 + colour takes a marble, RABBI_BASE + slot a Rabbi (PERM_SLOT the permanent space), PASS_ACTION
MARBLE_OPTIONS = 25  # row * 5 + colour (TURN, REMOVE_MARBLE)
RABBI_BASE = MARBLE_OPTIONS
PERM_SLOT = 5
PASS_ACTION = RABBI_BASE + PERM_SLOT + 1
# START_TILES: an index into PAIRS of the offered tiles
PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
NUM_PAIRS = len(PAIRS)
# IGNORE_CHAR
USE_CHARACTER, IGNORE_CHARACTER = 0, 1
# MOVE_STEP: golem * 2 + pay (0 VP, 1 Knowledge)
MOVE_STEP_OPTIONS = 2 * NUM_GOLEM_OPTIONS
# WORK_COUNT: golems paid for, 0..MAX_WORK
MAX_WORK = 4
# ACTIVATE, KILL, COPY_TILE: the option after the golems
ACTIVATE_STOP = KILL_SKIP = COPY_SKIP = NUM_GOLEM_OPTIONS
# GOLEM_ACTION: 0..5 upgrade a Golem Development, GA_CREATE + district create, GA_DONE
GA_CREATE = NUM_GOLEM_DEVS
GA_DONE = GA_CREATE + NUM_DISTRICT_OPTIONS
# ARTIFACT_ACTION: an artifact development option 0..ART_OPTIONS-1, AA_BUY_GOLD, AA_DONE
ART_OPTIONS = 41  # 0 = the largest tile, 1 + (tile * 4 + space) * 2 + side for the five small tiles
SMALL_ART_OPTIONS = ART_OPTIONS - 1  # options 1.. of the five small tiles
AA_BUY_GOLD = ART_OPTIONS
AA_DONE = ART_OPTIONS + 1
# UPGRADE, INCOME_UPGRADE: Golem Developments, then Study (UP_STUDY), then the Artifact options (UP_ART), then skip
UP_STUDY = NUM_GOLEM_DEVS
UP_ART = UP_STUDY + NUM_STUDY_DEVS
UPGRADE_SKIP = UP_ART + ART_OPTIONS
# STUDY_ACTION: 0..5 upgrade a Study Development, STUDY_BUY + position * 4 + column buys a Book, STUDY_DONE
STUDY_BUY = NUM_STUDY_DEVS
STUDY_DONE = STUDY_BUY + NUM_BOOK_OPTIONS
# MIRROR: a row action 0..3, MIRROR_STUDY a Study step, MIRROR_DONE
MIRROR_STUDY = NUM_ROW_OPTIONS
MIRROR_DONE = MIRROR_STUDY + 1
# CHARACTER
CHARACTER_PAY, CHARACTER_COINS = 0, 1
# CREATE, STUDENT: a district, then skip
CREATE_SKIP = STUDENT_SKIP = NUM_DISTRICT_OPTIONS
# GOLEM_STEP: golem * 4 + back * 2 + pay, STEP_STOP
STEP_STOP = 4 * NUM_GOLEM_OPTIONS
# BOOK, BOOK_BONUS: the option after the Books
BOOK_SKIP = BONUS_STOP = NUM_BOOK_OPTIONS
# TRACK
TRACK_UP, TRACK_DOWN, TRACK_SKIP = 0, 1, 2
# ARTIFACT_ACTIVATE: an artifact, then skip
ART_ACTIVATE_SKIP = NUM_ARTIFACT_OPTIONS
# CONFIRM
CONFIRM_YES, CONFIRM_NO = 0, 1

# Phases of the round driver.
(
    PH_DRAFT,
    PH_KEEP,
    PH_ARTIFACT,
    PH_START,
    PH_PLACE,
    PH_MOVE,
    PH_ACTIONS,
    PH_INFLUENCE,
    PH_INCOME,
    PH_DEV,
    PH_CONTROL,
    PH_END,
) = range(12)
# Action counters per seat.
ACT_NAMES = ("work", "golem", "artifacts", "study", "mirror", "rabbi", "pass", "forfeit")
ACT_RABBI, ACT_PASS, ACT_FORFEIT = 5, 6, 7
STAT_NAMES = (
    "vp_control", "vp_overmove", "vp_sections", "know_control", "objectives_met",
    "gold_bought", "character_bonuses", "student_sections",
)  # fmt: skip
"""Per-seat counters; the last three are the play profile's (counted by ``apply_action``)."""
ST_VP_CONTROL, ST_VP_OVERMOVE, ST_VP_SECTIONS, ST_KNOW_CONTROL, ST_OBJECTIVES_MET = range(5)
ST_GOLD_BOUGHT, ST_CHARACTER_BONUSES, ST_STUDENT_SECTIONS = range(5, 8)
PHASE_NAMES = (
    "draft", "keep", "artifact", "start", "place", "move", "actions", "influence", "income", "development", "control",
    "end",
)  # fmt: skip

# decisions as plain ints
D_DRAFT = int(Decision.DRAFT)
D_KEEP = int(Decision.KEEP)
D_ARTIFACT_TILE = int(Decision.ARTIFACT_TILE)
D_START_TILES = int(Decision.START_TILES)
D_PLACE_GOLEMS = int(Decision.PLACE_GOLEMS)
D_IGNORE_CHAR = int(Decision.IGNORE_CHAR)
D_MOVE_STEP = int(Decision.MOVE_STEP)
D_TURN = int(Decision.TURN)
D_BLACK_MARBLE = int(Decision.BLACK_MARBLE)
D_WORK_COUNT = int(Decision.WORK_COUNT)
D_ACTIVATE = int(Decision.ACTIVATE)
D_GOLEM_ACTION = int(Decision.GOLEM_ACTION)
D_ARTIFACT_ACTION = int(Decision.ARTIFACT_ACTION)
D_STUDY_ACTION = int(Decision.STUDY_ACTION)
D_MIRROR = int(Decision.MIRROR)
D_CHARACTER = int(Decision.CHARACTER)
D_UPGRADE = int(Decision.UPGRADE)
D_CREATE = int(Decision.CREATE)
D_KILL = int(Decision.KILL)
D_CEMETERY_SPACE = int(Decision.CEMETERY_SPACE)
D_STUDENT = int(Decision.STUDENT)
D_GOLEM_STEP = int(Decision.GOLEM_STEP)
D_BOOK = int(Decision.BOOK)
D_STUDENT_BACK = int(Decision.STUDENT_BACK)
D_BOOK_BONUS = int(Decision.BOOK_BONUS)
D_OBJECTIVE = int(Decision.OBJECTIVE)
D_TRACK = int(Decision.TRACK)
D_ARTIFACT_ACTIVATE = int(Decision.ARTIFACT_ACTIVATE)
D_GOLD_PLACE = int(Decision.GOLD_PLACE)
D_CHOICE = int(Decision.CHOICE)
D_CONFIRM = int(Decision.CONFIRM)
D_COPY_TILE = int(Decision.COPY_TILE)
D_ANY_ACTION = int(Decision.ANY_ACTION)
D_REMOVE_MARBLE = int(Decision.REMOVE_MARBLE)
D_INCOME_UPGRADE = int(Decision.INCOME_UPGRADE)

# effects as plain ints
E_NONE = E["none"]
E_PLAIN = E["plain"]
E_GAIN = E["gain"]
E_CHOICE = E["choice"]
E_TRADE = E["trade"]
E_STUDY_UP = E["study_up"]
E_STUDENT_DISTRICT = E["student_district"]
E_STUDENT_ANY = E["student_any"]
E_GOLEM_TRACK = E["golem_track"]
E_KILL_GOLEM = E["kill_golem"]
E_UPGRADE = E["upgrade"]
E_CREATE_GOLEM = E["create_golem"]
E_KILL_VP_PER_LEVEL = E["kill_vp_per_level"]
E_UPGRADE_GOLEM = E["upgrade_golem"]
E_STUDENT_BACK = E["student_back"]
E_PAY_FOR_VP = E["pay_for_vp"]
E_CREATE_GOLEM_VP_PER_LEVEL = E["create_golem_vp_per_level"]
E_UPGRADE_ARTIFACT = E["upgrade_artifact"]
E_PAY_FOR_GOLD = E["pay_for_gold"]
E_KILL_GAIN = E["kill_gain"]
E_PAY_FOR_STUDENTS = E["pay_for_students"]
E_OBJECTIVE_GAIN = E["objective_gain"]
E_ACTIVATE_ARTIFACT = E["activate_artifact"]
E_STUDENT_INCOME = E["student_income"]
E_PAY_FOR_STUDY = E["pay_for_study"]
E_BUY_BOOK = E["buy_book"]
E_UPGRADE_STUDY = E["upgrade_study"]
E_STUDY_DOWN_VP_STUDENT = E["study_down_vp_student"]
E_PAY_FOR_VP_STUDY = E["pay_for_vp_study"]
E_BOOK_BONUSES = E["book_bonuses"]
E_TRACK_VP_KNOWLEDGE = E["track_vp_knowledge"]
E_GOLD_VP_PER_ARTIFACT = E["gold_vp_per_artifact"]
E_CLAY_CREATE_MOVE = E["clay_create_move"]
E_BUY_BOOK_FREE_CARD = E["buy_book_free_card"]
E_KILL_VP_CLAY_PER_CEMETERY = E["kill_vp_clay_per_cemetery"]
E_UPGRADE_ANY_RESOURCES = E["upgrade_any_resources"]
E_MOVE_ACTIVATE_FREE_CONTROL = E["move_activate_free_control"]
E_MOVE_TWO_ACTIVATE = E["move_two_activate"]
E_STUDY_BOOK_BONUS = E["study_book_bonus"]
E_COPY_TILE = E["copy_tile"]
E_RESOURCES_OBJECTIVE = E["resources_objective"]
E_STUDENT_VP_LEFTMOST = E["student_vp_leftmost"]
E_ANY_MARBLE_ACTION = E["any_marble_action"]
E_UPGRADE_ANY_VP = E["upgrade_any_vp"]
E_GOLEM_STEP_ACTIVATE = E["golem_step_activate"]
E_GAIN_GOLD = E["gain_gold"]
E_CREATE_GOLEM_RED_STUDENT = E["create_golem_red_student"]
E_STUDY_BLUE_STUDENT = E["study_blue_student"]
E_GOLD_YELLOW_STUDENT = E["gold_yellow_student"]
E_VP_PER_DEVELOPMENT = E["vp_per_development"]
E_VP_TIMES_LEFTMOST = E["vp_times_leftmost"]
E_VP_PER_TRACK_LEVEL = E["vp_per_track_level"]
E_VP_BUY_BOOK = E["vp_buy_book"]
E_KILL_VP_PER_CEMETERY = E["kill_vp_per_cemetery"]
E_CONTROL_CAP_2 = E["control_cap_2"]
E_KILL_DOUBLE_CEMETERY = E["kill_double_cemetery"]
E_ACTIVATE_WORK_EXTRA = E["activate_work_extra"]
E_IGNORE_CHARACTER_STEPS = E["ignore_character_steps"]
E_CREATE_STEP_ACTIVATE = E["create_step_activate"]
E_COLUMN_CLAY_COIN = E["column_clay_coin"]
E_COLUMN_VP = E["column_vp"]
E_COLUMN_DOUBLE = E["column_double"]
E_COLUMN_GOLD = E["column_gold"]
E_REACTIVATE_RED_MARBLE = E["reactivate_red_marble"]
E_REACTIVATE_BLUE_MARBLE = E["reactivate_blue_marble"]
E_REACTIVATE_FIRST_BOOK = E["reactivate_first_book"]
E_STUDY_TRACK_BONUS = E["study_track_bonus"]
E_REACTIVATE_CREATE_GOLEM = E["reactivate_create_golem"]
E_EXTRA_KNOWLEDGE_2 = E["extra_knowledge_2"]
E_EXTRA_KNOWLEDGE_VP = E["extra_knowledge_vp"]
E_EXTRA_CLAY_2 = E["extra_clay_2"]
E_EXTRA_CLAY_VP = E["extra_clay_vp"]
E_EXTRA_COIN_2 = E["extra_coin_2"]
E_EXTRA_COIN_VP = E["extra_coin_vp"]
