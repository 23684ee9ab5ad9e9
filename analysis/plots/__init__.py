"""Matplotlib plots of the statistics' tables: ``plot_<thing>(df, ..., ax=None) -> Axes``.

``runs``: plots of one run's or a study's tables; ``experiments``: plots of experiment effects and
searches. Every function is also importable from here (``from analysis import plots``).
"""

from analysis.plots.experiments import (
    plot_effect_forest,
    plot_search_history,
    plot_sweep,
    plot_tradeoff,
    plot_variant_effects,
)
from analysis.plots.runs import (
    plot_comeback,
    plot_component_forest,
    plot_convergence,
    plot_game_lengths,
    plot_head_to_head,
    plot_ladder_ratings,
    plot_ladder_seats,
    plot_leader_wins,
    plot_meta_game,
    plot_ratings,
    plot_score_distributions,
    plot_seat_excess,
    plot_seat_win_rates,
    plot_setup_caterpillar,
    plot_skill_ladder,
)

__all__ = [
    "plot_comeback",
    "plot_component_forest",
    "plot_convergence",
    "plot_effect_forest",
    "plot_game_lengths",
    "plot_head_to_head",
    "plot_ladder_ratings",
    "plot_ladder_seats",
    "plot_leader_wins",
    "plot_meta_game",
    "plot_ratings",
    "plot_score_distributions",
    "plot_search_history",
    "plot_seat_excess",
    "plot_seat_win_rates",
    "plot_setup_caterpillar",
    "plot_skill_ladder",
    "plot_sweep",
    "plot_tradeoff",
    "plot_variant_effects",
]
