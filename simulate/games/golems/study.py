"""Golems' standard study: the runs ``golem study golems`` plays (``simulate.orchestration.studies``), declared as
the game's ``GameInfo.study``."""

from __future__ import annotations

from simulate.game import Study, StudyRun

STUDY = Study(
    game="golems",
    default_games=1_000_000,
    description=(
        "apprentice and collector mirror matches (first-player advantage; the apprentice learned from the search "
        "bot and is the strongest player the study can afford), the heuristic bots and the apprentice against "
        "each other and small look-ahead runs against collector and the apprentice (bot strength), apprentice "
        "games dealing each opening display over 3 hidden deck orders, each played 4 times (setup variance), "
        "the solo mode against its automaton, and the card-value design at 2 players (apprentice games played as "
        "printed and with one more copy of each card dealt at setup to one seat: what each card is worth to its "
        "holder)"
    ),
    runs=(
        StudyRun("golems-2p-apprentice", 2, ("apprentice",), 0.20, purpose="first-player advantage, apprentice"),
        StudyRun("golems-2p-collector", 2, ("collector",), 0.20, purpose="first-player advantage, collector"),
        StudyRun("golems-2p-mixed", 2, ("greedy", "collector"), 0.10, purpose="bot strength"),
        StudyRun("golems-2p-apprentice-collector", 2, ("apprentice", "collector"), 0.05, purpose="bot strength"),
        # The look-ahead bot plays ~550 games/s per core, the apprentice ~5,000, the heuristics ~80,000.
        StudyRun("golems-2p-lookahead", 2, ("collector", "lookahead"), 0.005, purpose="strong reference"),
        StudyRun("golems-2p-apprentice-lookahead", 2, ("apprentice", "lookahead"), 0.005, purpose="bot strength"),
        StudyRun(
            "golems-2p-setups",
            2,
            ("apprentice",),
            0.265,
            games_per_setup=4,
            orders_per_opening=3,
            purpose="setup variance",
        ),
        StudyRun("golems-solo", 1, ("apprentice",), 0.14, purpose="solo mode against the automaton"),
    ),
    ladder=(("random", 0.01), ("greedy", 0.02), ("lookahead", 0.005)),
    ladder_players=(2,),
    value_players=(2,),
    value_share=0.001,  # 1,000 apprentice games an arm, 31 arms (every card group and a baseline): ~30 s
    # the two standout cards again: 2-player search games cost ~85 ms of CPU: ~2 min for the three arms
    value_confirm_games=(("apprentice", 4_000), ("search", 400)),
    styles_share=0.0025,  # 2,500 games a pair of styles (10 pairs): about 10 s of apprentice games on 2 cores
    exploit=(200, 16, 3_000),  # 6,200 apprentice games on one core: docs/studies.md
)
