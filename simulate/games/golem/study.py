"""Golem's standard study: the runs ``golem study golem`` plays (``simulate.orchestration.studies``), declared as
the game's ``GameInfo.study``."""

from __future__ import annotations

from simulate.game import Study, StudyRun, rule_runs

STUDY = Study(
    game="golem",
    default_games=200_000,
    description=(
        "apprentice mirror matches at 2-4 players (advantage of each place in the turn order drawn at setup, under "
        "the strongest player the study can afford: the apprentice learned from the search bot), the "
        "three line strategists and the balanced planner rotated at 4 and 2 players (which Menorah line is "
        "strongest), the apprentice against balanced at 2 players (bot strength), 4-player apprentice games "
        "dealing each public opening over 3 hidden orders, each played 4 "
        "times (how much the Characters, Neighbourhood, Starting tiles and Artifact sides decide, and how much "
        "the hidden decks), and the 4-player mirror under the "
        "balance-relevant rule options, apprentice solo games against the stand-in Automa, and the card-value "
        "design at 2 players (apprentice games played as printed and with one component owned from the start by "
        "one seat: what each Book, Objective, Development, Artifact and Starting tile is worth to its holder); the "
        "shipped data contain ESTIMATES of unpublished printed values"
    ),
    runs=(
        # The apprentice plays a 4-player game in about 1.3 ms of CPU, balanced in about 0.5, search in about 0.7 s.
        StudyRun("golem-2p-mirror", 2, ("apprentice",), 0.11, purpose="turn-order advantage, 2 players"),
        StudyRun("golem-3p-mirror", 3, ("apprentice",), 0.11, purpose="turn-order advantage, 3 players"),
        StudyRun("golem-4p-mirror", 4, ("apprentice",), 0.12, purpose="turn-order advantage, 4 players"),
        StudyRun(
            "golem-4p-lines",
            4,
            ("balanced", "golems", "artifacts", "books"),
            0.12,
            purpose="which line is strongest, 4 players",
        ),
        *(
            StudyRun(f"golem-2p-{a}-{b}", 2, (a, b), 0.03, purpose="which line is strongest, 2 players")
            for a, b in (("golems", "artifacts"), ("golems", "books"), ("artifacts", "books"))
        ),
        StudyRun(
            "golem-2p-apprentice-balanced", 2, ("apprentice", "balanced"), 0.02, purpose="bot strength, 2 players"
        ),
        StudyRun(
            "golem-4p-setups",
            4,
            ("apprentice",),
            0.10,
            games_per_setup=4,
            orders_per_opening=3,
            purpose="setup variance",
        ),
        StudyRun("golem-solo", 1, ("apprentice",), 0.04, purpose="solo games against the stand-in Automa"),
        *rule_runs(
            "golem-4p",
            4,
            ("balanced",),
            0.038,
            (
                ("introductory", "setup", "introductory"),
                ("overmove-one", "overmove", "one_per_step"),
                ("no-second-pass", "second_pass", "none"),
                ("vp-negative", "vp_floor", "negative"),
                ("gold-included", "leftover_gold", "included"),
            ),
        ),
    ),
    ladder=(("random", 0.01), ("greedy", 0.01), ("balanced", 0.01)),
    ladder_players=(2, 3, 4),
    search_share=0.002,  # 400 games a rung at the default size: about 0.16 s of CPU per search seat-game
    # up to 2,000 more games a rung and player count at the default size: what ±2 pp needs (docs/studies.md)
    precision_share=0.01,
    value_players=(2,),
    value_share=0.004,  # 800 apprentice games an arm, 106 arms (every component group and a baseline): ~2.5 min
    # the two standout components again: 2-player search games cost ~0.3 s of CPU: ~2.5 min for the three arms
    value_confirm_games=(("apprentice", 1_600), ("search", 150)),
    styles_share=0.0125,  # 2,500 games a pair of styles (3 pairs): about 15 s of apprentice games on 2 cores
    exploit=(200, 16, 3_000),  # 6,200 apprentice games on one core: docs/studies.md
)
