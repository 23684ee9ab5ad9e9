"""The Golems apprentice's feature names and player counts (no numba: ``data.py`` reads them to load the weights).

Every feature describes a position from ONE seat's view ("my" = that seat) and reads only what that seat
sees: the display with its gems, every seat's columns, Golems, tucked cards, dust, hand and gems (all public in
Golems), the supply and how many cards the deck still holds, never the deck's order or the cards removed
unseen at setup. The other side is the opponent at 2 players and the automaton in solo (its score and Golem
cards; the features of a seat it does not have are 0). ``value.features`` computes them, in this order.
"""

from __future__ import annotations

PLAYER_COUNTS = (1, 2)
"""Player counts with a column of weights: solo (against the automaton) and 2 players."""

BASE_FEATURES: tuple[str, ...] = (
    # --- my position
    "score",  # my points now (Golems, tucked cards, dust, hand Gem cards and Runes)
    "golems",  # my summoned Golems (also the first tie-break)
    "tucked",  # my tucked cards (the second tie-break)
    "dust",  # my dust (as the dust table counts it)
    "dust_over",  # 1 when my dust is past the end of the dust table (it scores 0 there)
    "hand_vp",  # VP of my Gem cards and Runes in hand
    "gems",  # gems I hold
    "columns",  # resource cards in my columns (wild Runes included)
    "column_types",  # columns I have started (a Rune can only join an existing column)
    "summonable",  # Golems on display I can summon now (columns meet the requirement, row affordable)
    "summon_points",  # points of my best summon now: golem_vp + tuck_vp x the cards it may tuck (0 if none)
    "closest_golem",  # icons I still miss for the Golem on display nearest to summonable (0 = summonable)
    "needed_cards",  # my column cards the Golems on display need (per type up to their largest requirement)
    "potential",  # the collector's worth of my position: points plus dust, column and gem plans
    "affordable",  # display cards I can pay for now
    # --- the other side (the opponent; in solo the automaton)
    "opp_score",  # its points (solo: the automaton's score)
    "opp_golems",  # its Golems (solo: Golem cards the automaton received)
    "opp_tucked",  # its tucked cards
    "opp_dust",  # its dust
    "opp_hand_vp",  # VP of its Gem cards and Runes in hand
    "opp_gems",  # gems it holds (a Reward takes from them when the supply runs short)
    "opp_columns",  # resource cards in its columns
    "opp_summonable",  # Golems on display it can summon now
    "opp_summon_points",  # points of its best summon now
    "opp_closest_golem",  # icons it still misses for its nearest Golem on display
    "opp_potential",  # the collector's worth of its position (solo: the automaton's score)
    # --- margins (mine minus the other side's) and their weight late in the game
    "score_margin",  # score - opp_score
    "potential_margin",  # potential - opp_potential
    "score_margin_late",  # score_margin x progress
    "potential_margin_late",  # potential_margin x progress
    # --- game progress
    "deck_left",  # cards left in the deck (public count)
    "progress",  # 1 - deck_left / cards in the deck after setup: 0 at the start, 1 when it runs out
    "triggered",  # 1 once a row could not be refilled (2 players: the round ends the game)
    "near_end",  # 1 when the deck cannot refill a whole row (2 players) or deal a whole new grid (solo)
    # --- turn order and shared supply
    "to_move",  # my place in the order from the seat to move: 0 = I move next, 1 = the other seat does
    "first_seat",  # 1 when I am the first player (seat 1)
    "supply",  # gems in the supply
    "display_gems",  # gems lying on display cards
    # --- solo
    "picks_left",  # solo: cards I still take from this grid (0 at 2 players)
    "automa_pending",  # solo: points the automaton would receive for the cards left on the grid now
    # --- tempo and the end (2 players; 0 solo)
    "one_card_rows",  # rows holding one card: taking it empties the row (a refill, or the end when the deck is short)
    "refills_left",  # whole rows the deck can still refill: deck_left // row_size
    "richest_card",  # the most gems lying on one display card (what the next taker of it collects)
    "opp_affordable",  # display cards the other side can pay for now
    "score_margin_triggered",  # score_margin x triggered: the lead once the game ends with this round
    "potential_margin_near_end",  # potential_margin x near_end
)
"""The features of a position; the value's features are these and each again times ``progress``."""
NUM_BASE = len(BASE_FEATURES)
CONTEXT: tuple[str, ...] = (
    "score_margin",
    "potential_margin",
    "near_end",
    "triggered",
    "gems",
    "deck_left",
    "opp_score",
    "score",
    "first_seat",
    "opp_gems",
)
"""Base features that every base feature is also multiplied by at 2 players (``NAME_x_CONTEXT``; 0 solo): the pairwise
terms that ranked the search's moves best (held-out agreement 53.4% against 51.6% without them, 53.7% with every
pair)."""
CONTEXT_INDEX = tuple(BASE_FEATURES.index(name) for name in CONTEXT)
FEATURES: tuple[str, ...] = (
    BASE_FEATURES
    + tuple("late_" + name for name in BASE_FEATURES)
    + tuple(f"{name}_x_{ctx}" for ctx in CONTEXT for name in BASE_FEATURES)
)
"""The value's features: the base features, then each times ``progress`` (``late_``), so that every weight moves
linearly from its value at the start (``progress`` 0) to the sum of both at the end (1): a weight per game phase;
then at 2 players each times every ``CONTEXT`` feature in turn (0 solo)."""
NUM_FEATURES = len(FEATURES)
