"""Century's standard study: the runs ``golem study century`` plays (``simulate.orchestration.studies``), declared as
the game's ``GameInfo.study``."""

from __future__ import annotations

from simulate.game import Study, StudyRun

STUDY = Study(
    game="century",
    default_games=1_000_000,
    description=(
        "apprentice mirror matches at 2-5 players (first-player advantage under the strongest player the study "
        "can afford at this size: the apprentice learned from the search bot), the heuristic bots and the "
        "apprentice rotated through the seats at 3 and 4 players (bot strength), 3-player apprentice games "
        "dealing each public opening over 4 hidden deck orders, each played 3 times (setup variance: opening, "
        "hidden order and the players' own randomness), and mirror matches at every other rung of the skill "
        "ladder (greedy up to the search bot) to say at which skill levels each answer holds, and a paired "
        "card-value design at 3 players (apprentice games played as printed and with one more copy of each "
        "merchant card dealt at setup to one seat: what each card is worth to its holder)"
    ),
    runs=(
        StudyRun("century-2p-mirror", 2, ("apprentice",), 0.14, purpose="first-player advantage, 2 players"),
        StudyRun("century-3p-mirror", 3, ("apprentice",), 0.14, purpose="first-player advantage, 3 players"),
        StudyRun("century-4p-mirror", 4, ("apprentice",), 0.14, purpose="first-player advantage, 4 players"),
        StudyRun("century-5p-mirror", 5, ("apprentice",), 0.14, purpose="first-player advantage, 5 players"),
        # The planner plays ~1,700 games/s per core and the apprentice ~1,000 against ~20,000 for greedy.
        StudyRun("century-3p-mixed", 3, ("greedy", "planner", "apprentice"), 0.05, purpose="bot strength, 3 players"),
        StudyRun(
            "century-4p-mixed",
            4,
            ("greedy", "engine", "planner", "apprentice"),
            0.05,
            purpose="bot strength, 4 players",
        ),
        StudyRun(
            "century-3p-setups",
            3,
            ("apprentice",),
            0.2,
            games_per_setup=3,
            orders_per_opening=4,
            purpose="setup variance",
        ),
    ),
    ladder=(("random", 0.01), ("greedy", 0.02), ("engine", 0.01), ("planner", 0.005)),
    ladder_players=(2, 3, 4),
    # 46 arms (45 merchant cards and the baseline) of 1,000 apprentice games at the default size: ~3 min on 2 cores
    value_players=(3,),
    value_share=0.001,
    # the two standout cards again: ~30 s of apprentice games and ~110 s of CPU of search games (125 ms a game)
    value_confirm_games=(("apprentice", 1_000), ("search", 300)),
    styles_share=0.0025,  # 2,500 games a pair of styles (3 pairs): about 8 s of apprentice games on 2 cores
    exploit=(300, 24, 4_000),  # 11,200 apprentice games on one core: docs/studies.md
)
