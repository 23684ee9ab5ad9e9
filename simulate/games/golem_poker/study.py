"""golem-poker's standard study: the runs ``golem study golem-poker`` plays (``simulate.orchestration.studies``),
declared as the game's ``GameInfo.study``."""

from __future__ import annotations

from simulate.game import Study, StudyRun, rule_runs

STUDY = Study(
    game="golem-poker",
    default_games=1_000_000,
    description=(
        "threshold mirror matches at 3-6 players (value of each position relative to the amulet, house take, "
        "deals per pot, golem wins), a 4-player mirror of the golem-weakening discard policy beside the "
        "default improving one (golem wins by discard policy), the threshold styles and the bluffer rotated at "
        "6 players (which strategy profits), the two discard policies at one table, a small run with the "
        "sampling equity bot (strong reference), and the 4-player threshold mirror under each balance-relevant "
        "rule option (side by side with the default rules); no setup-variance run: the threshold bots are "
        "deterministic and a replayed deal would repeat the same pot"
    ),
    runs=(
        StudyRun("poker-3p-threshold", 3, ("threshold",), 0.10, purpose="positions and house take, 3 players"),
        StudyRun("poker-4p-threshold", 4, ("threshold",), 0.10, purpose="positions and house take, 4 players"),
        StudyRun("poker-5p-threshold", 5, ("threshold",), 0.10, purpose="positions and house take, 5 players"),
        StudyRun("poker-6p-threshold", 6, ("threshold",), 0.10, purpose="positions and house take, 6 players"),
        StudyRun(
            "poker-4p-weaken",
            4,
            ("threshold:discard=1",),
            0.08,
            purpose="golem wins when every player weakens the golem",
        ),
        StudyRun(
            "poker-6p-styles",
            6,
            ("tight_passive", "tight_aggressive", "loose_passive", "loose_aggressive", "bluffer", "random"),
            0.111,  # 0.131 before the cfr rungs took 0.02
            purpose="which strategy profits",
        ),
        StudyRun(
            "poker-4p-discards",
            4,
            ("threshold:discard=0", "threshold:discard=1", "threshold:discard=0", "threshold:discard=1"),
            0.08,
            purpose="discard policy: improve own hand against weaken the golem",
        ),
        # The equity bot samples hands at every decision: thousands of games per second, not hundreds of thousands.
        StudyRun(
            "poker-4p-equity",
            4,
            ("equity", "tight_aggressive", "loose_passive", "bluffer"),
            0.005,
            purpose="strong reference",
        ),
        *rule_runs(
            "poker-4p",
            4,
            ("threshold",),
            0.04,
            (
                ("golem-tie-player", "golem_tie", "player"),
                ("golem-short-deck", "golem_short", "deck"),
                ("golem-short-none", "golem_short", "none"),
                ("golem-folded-off", "golem_folded", "false"),
                ("penalty-4", "penalty_antes", "4"),
                ("redeal-ante", "redeal_ante", "true"),
                ("rank-one-high", "rank_one", "high"),
            ),
        ),
    ),
    ladder=(("random", 0.008), ("equity", 0.002), ("cfr", 0.01)),  # cfr: a table lookup a decision
    ladder_players=(4, 6),
    search_share=0.002,  # 2,000 games a rung at the default size: a few ms of CPU per game
    # up to 40,000 more games a rung and player count at the default size: a seat's net chips spread about 600 chips
    # a game under the equity player (its pots are large), so ±10 chips takes some 15,000-40,000 games of ~5 ms
    precision_share=0.04,
)
