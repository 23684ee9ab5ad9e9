"""Golem (Cranio Creations 2021) definition data: the codes, sizes and table layouts of ``seeds/golem``.

What the engines, bots and loader share: component counts, colour, resource and effect codes, the rule options,
the kernels' parameter indices (``P_*``) and the tables' record (``GolemTables``, ``GolemData``);
``loader.load`` reads a definition folder into them.

Every component is a CSV table (one row per card, tile or track space) plus ``game.toml`` (table
parameters with their provenance, the introductory setup and the rule options). Each CSV row names
its estimated fields in ``estimated`` and its source in ``source``; values the rules text does not
give are ESTIMATEs (see ``../shared/data/golem-cranio.md``) and runs record that they are in use.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from simulate.apprentice import STYLES_FILE, WEIGHTS_FILE, style_names
from simulate.datafiles import default_dir

MAX_PLAYERS = 4
NUM_ROUNDS = 4
NUM_SECTIONS = 10
NUM_TILES = 7  # Neighbourhood tiles per district in play
NUM_DISTRICT_TILES = 10
NUM_ACTION_TILES = 12
NUM_CHARACTERS = 12
NUM_BOOKS = 38
NUM_OBJECTIVES = 27
NUM_START_TILES = 18
NUM_ARTIFACT_TILES = 4
# Track and Cemetery sizes follow their tables (golem_track.csv, study_track.csv, cemetery.csv); the kernels' arrays
# hold up to these many spaces and read the table's count from ``prm`` (P_GOLEM_TRACK_LEN, ...).
MAX_CEMETERY = 10
MAX_BOOK_COLUMNS = 4  # the record's Book columns and the Book options (position x 4 + column); game.toml book_columns
MAX_GOLEM_TRACK = 20
MAX_STUDY_TRACK = 20
NUM_GOLEM_DEVS = 6
NUM_STUDY_DEVS = 6  # five across the top of the board, the sixth on the Study track (RULINGS R18a)
NUM_ARTIFACT_DEVS = 6
NUM_AUTOMA_CARDS = 20
NUM_AUTOMA_STRATEGIES = 3
NUM_AUTOMA_SPECIALS = 2
NUM_AUTOMA_THRESHOLDS = 4
AUTOMA_TILE_KINDS = ("main", "strategy", "special")
AUTOMA_CATEGORIES = ("main", "strategy")  # what a Special Development tile doubles

RESOURCES = ("clay", "coin", "knowledge", "gold", "vp", "study")
CLAY, COIN, KNOWLEDGE, GOLD, VP, STUDY = range(6)
DISTRICTS = ("red", "yellow", "blue")
RED, YELLOW, BLUE = range(3)
MARBLES = ("red", "yellow", "blue", "white", "black")
WHITE, BLACK = 3, 4
BOOK_COLOURS = ("red", "yellow", "blue", "green", "black")
BOOK_BLACK = 4
ROWS = ("work", "golem", "artifacts", "study", "mirror")
WORK, GOLEM_ROW, ARTIFACTS, STUDY_ROW, MIRROR = range(5)

# Effect vocabulary: every effect a component can carry; the engine implements each by code.
EFFECTS = (
    "none",
    # simple (Books, Neighbourhood tiles)
    "gain",
    "choice",
    "trade",
    "study_up",
    "student_district",
    "student_any",
    "golem_track",
    "kill_golem",
    "upgrade",
    # Neighbourhood tiles
    "create_golem",
    "kill_vp_per_level",
    "upgrade_golem",
    "student_back",
    "pay_for_vp",
    "create_golem_vp_per_level",
    "upgrade_artifact",
    "pay_for_gold",
    "kill_gain",
    "pay_for_students",
    "objective_gain",
    "activate_artifact",
    "student_income",
    "pay_for_study",
    "buy_book",
    "upgrade_study",
    "study_down_vp_student",
    "pay_for_vp_study",
    "book_bonuses",
    # Action tiles and the permanent space
    "track_vp_knowledge",
    "gold_vp_per_artifact",
    "clay_create_move",
    "buy_book_free_card",
    "kill_vp_clay_per_cemetery",
    "upgrade_any_resources",
    "move_activate_free_control",
    "move_two_activate",
    "study_book_bonus",
    "copy_tile",
    "resources_objective",
    "student_vp_leftmost",
    "any_marble_action",
    # Characters
    "upgrade_any_vp",
    "golem_step_activate",
    "gain_gold",
    "create_golem_red_student",
    "study_blue_student",
    "gold_yellow_student",
    "vp_per_development",
    "vp_times_leftmost",
    "vp_per_track_level",
    "vp_buy_book",
    "kill_vp_per_cemetery",
    # Development tiles
    "plain",
    "control_cap_2",
    "kill_double_cemetery",
    "activate_work_extra",
    "ignore_character_steps",
    "create_step_activate",
    "column_clay_coin",
    "column_vp",
    "column_double",
    "column_gold",
    "reactivate_red_marble",
    "reactivate_blue_marble",
    "reactivate_first_book",
    "reactivate_create_golem",
    "extra_knowledge_2",
    "extra_knowledge_vp",
    "extra_clay_2",
    "extra_clay_vp",
    "extra_coin_2",
    "extra_coin_vp",
    "study_track_bonus",
)
E = {name: code for code, name in enumerate(EFFECTS)}
BOOK_EFFECTS = EFFECTS[: EFFECTS.index("create_golem")]  # the simple effects, which Books carry
OBJECTIVE_TYPES = (
    "student_red",
    "student_yellow",
    "student_blue",
    "golems_made",
    "gold",
    "developments",
    "study",
    "books",
    "golems_killed",
)

VALUE_FILE = "apprentice_value.csv"
"""The apprentice's value fit where its weights are a policy (``VALUE_PLAYERS``): the search's leaf reads it."""
FILES = (
    "action_tiles.csv",
    "characters.csv",
    "neighbourhood.csv",
    "books.csv",
    "objectives.csv",
    "starting_tiles.csv",
    "artifacts.csv",
    "developments.csv",
    "streets.csv",
    "golem_track.csv",
    "study_track.csv",
    "cemetery.csv",
    "automa_cards.csv",
    "automa_tiles.csv",
    "game.toml",
    WEIGHTS_FILE,
    VALUE_FILE,
    STYLES_FILE,
)
VALUE_PLAYERS = (2, 4)
"""Player counts with a column in ``VALUE_FILE``: those whose weights the policy stage refits."""

# The apprentice's features (``features.features`` computes them from one seat's view), in the order of the rows of
# ``apprentice.csv``. A seat block describes one seat; the seat's own block counts its Objectives, the rival's
# never (another seat's Objectives are hidden): the rival is the other seat with the highest valuation (solo: the
# Automa, whose block holds its points in ``value``, ``points`` and ``vp`` and 0 elsewhere). A Gold piece waiting
# to be placed (a Gold placement on top of the stack) is seen placed on the cauldron ``balanced`` would choose.
_SEAT_FEATURES = (
    "value",  # balanced's valuation (valuation.value): points now plus the weighted progress, scaled by the rounds left
    "points",  # points if the game ended now (in-game VP, the three lines, Study track, leftovers, own Objectives)
    "vp",  # in-game VP
    "resources",  # Clay + Coins + Knowledge
    "gold",  # Gold owned (on the cauldrons and loose; a Gold bought and not yet placed counts as placed)
    "students",  # sections the three Students have advanced
    "study",  # Study track position
    "red",  # red Menorahs (Golem Developments and the token)
    "golems",  # Golems created
    "yellow",  # yellow Menorahs
    "artifacts",  # Artifacts completed
    "blue",  # blue Menorahs
    "columns",  # Book columns started
    "books",  # Books
    "golems_on_board",  # Golems standing in the districts
    "golem_track",  # Golem track position
    "control_short",  # Knowledge missing for the next Golem Control (balanced's control term)
    "artifact_progress",  # the unfinished Artifacts' shares of their Gold placed (a Gold's worth toward completing one)
    "artifacts_one_short",  # unfinished Artifacts one Gold short of completion
)
APPRENTICE_FEATURES = (
    *(f"own_{name}" for name in _SEAT_FEATURES),
    *(f"rival_{name}" for name in _SEAT_FEATURES),
    "own_objective_points",  # VP of its Objectives met now plus the type bonus (only the seat sees its Objectives)
    "own_objective_progress",  # its unmet Objectives' VP times their share of the threshold reached
    "value_margin",  # own value minus the rival's (solo: minus the Automa's points)
    "points_margin",  # own points minus the rival's
    "next_value_margin",  # own value minus that of the seat after it in the turn order (solo: the Automa)
    "mean_value_margin",  # own value minus the mean of the other seats' (solo: the Automa)
    "rounds_left",  # (4 - round) / 4: 1 in round 1, 0.25 in round 4, 0 at the end
    "round_phase",  # share of the round's phases done (Golem Movement 0 ... Golem Control 1; 0 in setup)
    "value_margin_late",  # value_margin x (1 - rounds_left): a margin counts for more near the end
    "order_place",  # place in the current turn order over n - 1 (0: first, who also wins ties)
    "to_move",  # 1 when this seat makes the next decision
    "actions_left",  # actions this seat has left this round (3 before the Actions phase, 0 after)
    "passed",  # 1 when this seat has passed this round
)
"""The apprentice's features (``features.features``), in the order of ``apprentice.csv``'s rows after the intercept."""
APPRENTICE_PLAYERS = (2, 3, 4)
STYLES = style_names(default_dir("golem"))[1:]
"""The apprentice's strategy styles (``apprentice:style=NAME``), as the shipped ``styles.toml`` declares them."""
"""Player counts with a column of the apprentice's weights. Solo games play the 2-player value fit (``VALUE_FILE``'s
column, not the 2-player policy: against the Automa the chance to win is what counts; the features compare the seat
with the Automa as they compare it with the other seat at 2 players)."""

# name -> (type, choices, help); defaults live in game.toml [rules]
RULE_OPTIONS: dict[str, tuple[type, tuple, str]] = {
    "setup": (
        str,
        ("standard", "introductory"),
        "standard = random Characters, Neighbourhood tiles and 4 Starting tiles (keep 2); "
        "introductory = the rulebook's fixed Characters and tiles, 2 Starting tiles each, both kept",
    ),
    "overmove": (
        str,
        ("five_per_step", "one_per_step"),
        "steps no Golem can use: five_per_step = 5 VP per step (rules text), one_per_step = 1 VP per step; "
        "both at most 5 VP per Golem",
    ),
    "section_payment": (
        str,
        ("choice", "vp", "knowledge"),
        "entering sections VIII-X is paid in VP or Knowledge: the mover's choice, or always one",
    ),
    "second_pass": (
        str,
        ("final", "none"),
        "final = a player may pass again in the passing phase (one final passing phase follows); none = no second pass",
    ),
    "vp_floor": (str, ("zero", "negative"), "losses stop at 0 VP, or VP may go negative"),
    "leftover_gold": (
        str,
        ("excluded", "included"),
        "Gold not on an Artifact cauldron counts as a leftover resource at the end, or not",
    ),
    "solo_opponent": (
        str,
        ("automa", "none"),
        "1-player games: automa = play against the stand-in Automa (an ESTIMATE, automa_*.csv); "
        "none = the normal rules alone (the player always wins)",
    ),
    "automa_difficulty": (
        str,
        ("easy", "normal", "hard"),
        "the Automa's gauge thresholds: easy = automa_difficulty_pct% higher, hard = that much lower",
    ),
    "gift": (
        str,
        ("none", "<component id>"),
        "none, or a component the seat of the lineup's first bot owns from the start, dealt when its setup reaches "
        "the Starting tiles (RULINGS.md R39): a Book tucked free in its first column (its bonuses as if bought), an "
        "Objective kept beside the drafted ones, a Development tile upgraded free (golem_dev_k, study_dev_k, "
        "artifact_dev_k), an Artifact of its tile completed (artifact_k), one more Starting tile; the decks keep "
        "their own copies (rotated seats move the gift round the table): what it is worth (docs/card-value.md)",
    ),
}

TOML_KEYS = {
    "rounds": (4, 4),
    "starting_vp": (0, 100),
    "row_weights": (0, 100),
    "work_costs": (0, 50),
    "golem_cost": (0, 20),
    "golem_extra_cost": (0, 20),
    "gold_price": (0, 20),
    "gold_supply": (0, 200),
    "mirror_cost": (0, 20),
    "mirror_study_cost": (0, 20),
    "library_costs": (0, 20),
    "library_size": (5, 5),
    "character_coins": (0, 20),
    "control_penalty": (0, 50),
    "overmove_penalty": (0, 50),
    "golem_track_start": (0, MAX_GOLEM_TRACK - 1),
    "golem_track_create": (0, 5),
    "golem_track_kill": (0, 5),
    "tile_sections": (1, NUM_SECTIONS),
    "menorah_section": (1, NUM_SECTIONS),
    "objective_type_vp": (0, 100),
    "leftover_per_vp": (1, 100),
    "objectives_dealt": (4, 4),
    "objectives_kept": (1, 4),
    "starting_tiles_dealt": (2, 4),
    "starting_tiles_kept": (1, 2),
    "max_study_column": (1, 5),
    "study_track_dev_limit": (0, 5),
    "study_track_dev_income": (0, 20),
    "book_columns": (1, MAX_BOOK_COLUMNS),
    "marbles_1_2": (0, 9),
    "marbles_3": (0, 9),
    "marbles_4": (0, 9),
    "automa_thresholds": (1, 100),
    "automa_rabbi_gauge": (0, 10),
    "automa_difficulty_pct": (0, 50),
}
LIST_LENGTHS = {
    "row_weights": 5,
    "work_costs": 4,
    "library_costs": 5,
    "tile_sections": NUM_TILES,
    "objective_type_vp": 5,
    "marbles_1_2": 5,
    "marbles_3": 5,
    "marbles_4": 5,
    "automa_thresholds": NUM_AUTOMA_THRESHOLDS,
}


# Indices into ``GolemTables.prm`` (scalar parameters and rule options for the kernels).
(
    P_STARTING_VP,
    P_GOLEM_COST,
    P_GOLEM_EXTRA_COST,
    P_GOLD_PRICE,
    P_GOLD_SUPPLY,
    P_MIRROR_COST,
    P_MIRROR_STUDY_COST,
    P_CHARACTER_COINS,
    P_CONTROL_PENALTY,
    P_OVERMOVE_PENALTY,
    P_TRACK_START,
    P_TRACK_CREATE,
    P_TRACK_KILL,
    P_MENORAH_SECTION,
    P_LEFTOVER_PER_VP,
    P_OBJECTIVES_DEALT,
    P_OBJECTIVES_KEPT,
    P_START_DEALT,
    P_START_KEPT,
    P_MAX_COLUMN,
    P_INTRO_START_DEALT,
    P_INTRO,
    P_OVERMOVE_ONE,
    P_SECTION_PAYMENT,
    P_SECOND_PASS,
    P_VP_FLOOR_ZERO,
    P_LEFTOVER_GOLD,
    P_AUTOMA,
    P_AUTOMA_RABBI_GAUGE,
    P_GOLEM_TRACK_LEN,
    P_STUDY_TRACK_LEN,
    P_CEMETERY_LEN,
    P_BOOK_COLUMNS,
    P_STUDY_DEV_LIMIT,
    P_STUDY_DEV_INCOME,
    P_GIFT_KIND,
    P_GIFT,
    NUM_PARAMS,
) = range(38)
PAY_CHOICE, PAY_VP, PAY_KNOWLEDGE = 0, 1, 2

# Rule option ``gift`` (the value design, docs/card-value.md): ``P_GIFT_KIND`` is what is dealt, ``P_GIFT`` which one
# (a Book, Objective, Starting tile or Artifact index, a Development tile 0-5 of its area).
(
    GIFT_NONE,
    GIFT_BOOK,
    GIFT_OBJECTIVE,
    GIFT_GOLEM_DEV,
    GIFT_STUDY_DEV,
    GIFT_ARTIFACT_DEV,
    GIFT_ARTIFACT,
    GIFT_START,
) = range(8)
GIFT_DEV_PREFIXES = {"golem_dev_": GIFT_GOLEM_DEV, "study_dev_": GIFT_STUDY_DEV, "artifact_dev_": GIFT_ARTIFACT_DEV}


class GolemTables(NamedTuple):
    """Component tables in the form the engines take (integer arrays; codes index the tuples above)."""

    at_effect: np.ndarray  # (13,) action tiles A01-A12, then the permanent space
    at_a: np.ndarray
    at_b: np.ndarray
    ch_deck: np.ndarray  # (12,) 0 = rounds I-III, 1 = round IV
    ch_c1: np.ndarray  # marble colour codes
    ch_c2: np.ndarray
    ch_move: np.ndarray
    ch_cost: np.ndarray
    ch_effect: np.ndarray
    ch_a: np.ndarray
    ch_b: np.ndarray
    nb_effect: np.ndarray  # (3, 10) by district and tile number - 1
    nb_a: np.ndarray
    nb_b: np.ndarray
    nb_res: np.ndarray
    bk_colour: np.ndarray  # (38,)
    bk_cost: np.ndarray
    bk_effect: np.ndarray  # (38, 2): immediate, active
    bk_a: np.ndarray  # (38, 2)
    bk_res: np.ndarray  # (38, 2)
    bk_a2: np.ndarray  # (38,) trade: amount received
    bk_res2: np.ndarray  # (38,) trade: resource received
    ob_type: np.ndarray  # (27,)
    ob_threshold: np.ndarray
    ob_vp: np.ndarray
    start_tiles: np.ndarray  # (18, 9): clay, coin, knowledge, gold, vp, study, student red/yellow/blue
    art: np.ndarray  # (4 tiles, 2 sides, 4 artifacts, 7): gold, clay, coin, knowledge, vp, study, dev_cost
    gdev_menorah: np.ndarray  # (6,)
    gdev_cost: np.ndarray
    gdev_effect: np.ndarray
    sdev_menorah: np.ndarray  # (6,)
    sdev_cost: np.ndarray
    sdev_effect: np.ndarray
    adev_menorah: np.ndarray  # (6,)
    adev_cost: np.ndarray
    adev_effect: np.ndarray  # (6, 2): the two sides
    street_res: np.ndarray  # (10,) by section - 1
    street_vp: np.ndarray
    street_entry: np.ndarray
    gt_level: np.ndarray  # (MAX_GOLEM_TRACK,): P_GOLEM_TRACK_LEN spaces, then zeros
    gt_clay: np.ndarray
    gt_vp: np.ndarray
    sd_limit: np.ndarray  # (MAX_STUDY_TRACK,): P_STUDY_TRACK_LEN spaces, then zeros
    sd_income: np.ndarray
    sd_vp: np.ndarray
    cem_min_players: np.ndarray  # (MAX_CEMETERY,): P_CEMETERY_LEN spaces, then zeros
    cem_bonus: np.ndarray  # (MAX_CEMETERY, 5): clay, coin, knowledge, gold, vp
    cem_unlimited: np.ndarray
    prm: np.ndarray  # int64 (NUM_PARAMS,), see P_*
    row_weights: np.ndarray  # (5,)
    work_costs: np.ndarray  # (4,)
    library_costs: np.ndarray  # (5,)
    tile_sections: np.ndarray  # (7,)
    objective_type_vp: np.ndarray  # (5,)
    marbles: np.ndarray  # (5 player counts 0..4, 5 colours)
    intro_chars: np.ndarray  # (4,) character indices of the introductory Palace
    intro_tiles: np.ndarray  # (3, 7) introductory Neighbourhood tiles (0-based numbers)
    au_rows: np.ndarray  # (20, 5) each Automa card's row priority (row codes)
    au_colours: np.ndarray  # (20, 5) its marble colour priority
    au_rabbi_top: np.ndarray  # (20,) 1 = the topmost free Action tile, 0 = the bottommost
    au_rabbi_turn: np.ndarray  # (20,) which of its 3 actions (1..3) is the Rabbi
    au_vp: np.ndarray  # (4, 4) VP at each threshold: the Main Strategy tile, then the 3 Strategy tiles
    au_focus: np.ndarray  # (3,) each Strategy tile's marble row
    au_bonus: np.ndarray  # (3,) its extra gauge steps for a marble of that row
    au_doubles: np.ndarray  # (2,) each Special Development tile's category (AUTOMA_CATEGORIES)
    au_unlock: np.ndarray  # (2,) gauge laps that unlock it
    au_thresholds: np.ndarray  # (4,) gauge thresholds at the chosen difficulty
    apprentice_w: np.ndarray  # float64 (MAX_PLAYERS + 1, 1 + len(APPRENTICE_FEATURES)): weights by player count
    apprentice_v: np.ndarray  # float64, the same shape: its value (VALUE_FILE's rows, apprentice_w's elsewhere)
    style_w: np.ndarray  # float64 (1 + styles, MAX_PLAYERS + 1, 1 + features): each style's weights (0: apprentice_w)


class GolemData(NamedTuple):
    """A loaded definition: tables, parameters, rule options, names and provenance."""

    tables: GolemTables
    kernel: np.ndarray  # the tables packed as a one-element structured array (pack_record)
    params: dict[str, Any]
    rules: dict[str, Any]
    intro: dict[str, Any]
    character_ids: tuple[str, ...]
    book_ids: tuple[str, ...]
    objective_ids: tuple[str, ...]
    start_ids: tuple[str, ...]
    action_ids: tuple[str, ...]
    provenance: dict[str, Any]
