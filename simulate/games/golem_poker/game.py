"""Golem (the card game) behind the shared game interface (``simulate.game.Game``).

One game of the run format is one pot: from the antes until someone wins it, over as many deals
as the golem forces. Seat 1 holds the amulet (acts first); the runner's seat rotation moves the
amulet through the lineup, so "position relative to the amulet" is the seat.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from functools import partial
from types import MappingProxyType
from typing import Any

import numpy as np

from simulate.game import ChunkTables, Codes, EquilibriumSpec, GameInfo, Lineup, Lists, ReplayPosition, bot_specs
from simulate.gamekit import (
    GameShell,
    SearchBench,
    end_reason,
    new_trajectories,
    no_components,
    read_study,
    result_event,
    state_field,
    trajectory_lists,
)
from simulate.games.golem_poker import bots as poker_bots
from simulate.games.golem_poker import cfr_game, columns, data, play, policy, search_bot
from simulate.games.golem_poker.evaluator import CATEGORY_NAMES, describe
from simulate.games.golem_poker.reference import GolemPokerReference, card_text, make_record, public_state
from simulate.games.golem_poker.state import *
from simulate.games.golem_poker.twin import GolemPokerTwin
from simulate.search import new_tree

THRESHOLD_BENCH = "tight_passive,tight_aggressive,loose_passive,loose_aggressive"
EQUITY_BENCH_OPPONENTS = "tight_aggressive,loose_aggressive,bluffer"


def _new_search(records: np.ndarray, iterations: int) -> tuple[Any, Any]:
    """The tree and scratch of searches of ``iterations`` from ``records`` (``SearchBench.new_search``)."""
    return new_tree(iterations + 1, MOVE_LEN, search_bot.SEARCH_MOVES), search_bot.new_scratch(records)


class GolemPoker(GameShell):
    """Golem, the five-card draw game against the golem hand, 3-6 players."""

    info = GameInfo(
        name="golem-poker",
        title="Golem (card game)",
        version=2,
        play_version=1,  # 2: the setup draw's split into opening and hidden order; play is 1's
        # every card is dealt face down: no public opening beyond the seats, which the runner rotates
        public_opening="",
        hidden_order="the deal of every pot (all cards, re-deals included)",
        min_players=3,
        max_players=data.MAX_PLAYERS,
        description="Golem: five-card draw against the golem hand built from the discards, 3-6 players",
        bots=bot_specs(poker_bots.BOTS, poker_bots.LIMITS, poker_bots.WHOLE_PARAMS),
        max_bot_params=poker_bots.MAX_BOT_PARAMS,
        data_files=data.FILES,
        score_parts=columns.SCORE_PARTS,
        setup_columns=(),
        component_kinds=(),
        # golem bench: lineups (as for --bots) with their default games per kernel measurement
        bench_lineups={
            THRESHOLD_BENCH: 400_000,
            f"equity,{EQUITY_BENCH_OPPONENTS}": 4_000,
            "equity": 1_000,
            "search,equity,equity,equity": 1_000,
        },
        bench_players=4,
        default_bots="threshold",  # --bots when none is given: the recommended lineup (golem games shows it)
        study=read_study("golem-poker"),
        position=ReplayPosition(
            board=("deal", "phase", "pot", "current_bet", "discard_pile", "deck"),
            seat=("stack", "in", "hand", "bets_paid", "discarded"),
            without_state=("showdown",),
        ),
        indexed_lists={},
        score_unit="chips",  # what a seat's score counts, in the report's wording
        round_word="deal",  # the games table's rounds count deals (a re-deal starts a new one), not betting rounds
        # the outcome a player plays for is net chips, not "finishing above": seat and strategy answers count chips;
        # an answer is settled within ±10 chips a game (about 5% of a 4-player pot of ~200 chips)
        outcome="score",
        outcome_precision=10.0,
        # the summary leads with these, by player count (and again at strong play, the strongest rung measured)
        design_measures=("golem_decides", "golem_win_rate", "long_pot", "house_take"),
        # measures of the balance report: name -> (expression over the games table, meaning[, per]); with ``per``
        # the measure is a ratio of totals over all games, sum(expression) / sum(per)
        report_metrics={
            "house_take": ("house_take", "chips the house takes per pot"),
            "house_take_per_deal": (
                "house_take",
                "chips the house takes per deal (all pots' take over their deals)",
                "rounds",
            ),
            "deals": ("rounds", "deals until the pot is won"),
            "long_pot": ("rounds >= 3", "share of pots that need 3 or more deals"),
            "golem_decides": (
                "golem_wins > 0",
                "share of pots the golem hand decides (it beat the best hand at a showdown and carried the pot over)",
            ),
            "golem_win_rate": ("golem_wins", "share of showdowns the golem won", "showdowns"),
            "golem_wins": ("golem_wins", "deals in the pot that the golem won"),
            "pot": ("pot", "final pot in chips"),
        },
        game_columns=(*(name for name, _ in columns.GAME_COLUMNS[5:]), *columns.DEAL_COLUMNS),
        seat_columns=tuple(name for name, _ in columns.SEAT_COLUMNS[7:]),
        profile_columns=columns.PROFILE,
        # weakest to strongest (docs/golem-poker.md); search rungs are played by the standard study
        # (Study.search_share); cfr on top: it gains chips against search at 3 and 6 players, search loses against it
        # (benchmarks/poker_cfr.py)
        skill_ladder=("random", "threshold", "equity", "search:iterations=100", "search", "cfr"),
        bot_names=MappingProxyType(
            {
                "random": "random player",
                "threshold": "hand-strength threshold player",
                "threshold:discard=0": "threshold player drawing to its own hand",
                "threshold:discard=1": "threshold player spoiling the golem hand",
                "tight_passive": "tight passive player",
                "tight_aggressive": "tight aggressive player",
                "loose_passive": "loose passive player",
                "loose_aggressive": "loose aggressive player",
                "bluffer": "bluffer",
                "equity": "equity player (samples the hidden cards)",
                "search:iterations=100": "search (100 iterations)",
                "search": "search (400 iterations)",
                "cfr": "equilibrium player (CFR policy)",
            }
        ),
        equilibrium=EquilibriumSpec(
            functions=cfr_game.FUNCTIONS,
            explore=cfr_game.explore,
            new_stack=cfr_game.new_stack,
            kernel=lambda d: d.kernel,
            unit=lambda d: float(d.rules["ante"]),
            player_counts=policy.PLAYER_COUNTS,
            rows=policy.ROWS,
            actions=policy.ACTIONS,
            policy_text=policy.policy_text,
            policy_file=policy.FILE,
            provenance_file=policy.PROVENANCE_FILE,
            bot="cfr",
            missing=(1.0, 1e-9, 0.0, 0.0, 0.0),  # as abstraction.choose_action: fold to a bet, else check
            version=policy.VERSION,
            load=partial(data.load, cfr_table=False),
            read_policy=policy.read_policy,
            # the simple exploits self-play never plays, a whole table of one in 30% of traversals: a maniac who raises
            # half the pot or the pot whenever it may, then carries the raise war on by minimum raises (else calls; its
            # tiny weights rank the minimum raise, which rival_legal allows from the first bet, below the half-pot and
            # pot raises and above the call), a calling station who always matches, and a min-raiser who bets and
            # raises the minimum from the round's first bet until the war's WAR_RAISES raises: the cheap war the
            # maniac never wages
            rivals=((0.0, 1e-12, 0.5, 0.5, 1e-9), (0.0, 1.0, 0.0, 0.0, 0.0), (0.0, 1e-9, 0.0, 0.0, 1.0)),
            rival_legal=cfr_game.rival_legal,
            rival_share=0.3,
        ),
    )

    data_module = data
    reference_class = GolemPokerReference
    twin_class = GolemPokerTwin
    trace_game = staticmethod(play.trace_game)
    replay_moves = staticmethod(play.replay_moves)
    decide_moves = staticmethod(play.decide_moves)
    # golem bench's search rates: positions of threshold games, up to 11 decisions in
    search_bench = SearchBench(
        "threshold", 18, lambda g, n: min(g % 12, n - 1), search_bot.search_positions, _new_search
    )

    def describe_data(self, d: data.PokerData) -> dict[str, Any]:
        return {"rules": dict(d.rules), "data": dict(d.provenance), "table": dict(d.table)}

    def play_chunk(
        self, d: data.PokerData, lineup: Lineup, threads: int = 1, check_moves: bool = False, trajectories: bool = False
    ) -> ChunkTables:
        stages = 3 * int(d.tables.params[data.P_MAX_DEALS])  # two betting rounds and a draw a deal
        g = len(lineup.setup_seeds) if trajectories else 0
        points = new_trajectories(g, stages if trajectories else 0, lineup.num_players)
        games, seats, deals = play.play_lineup_columns(d, lineup, threads, points)
        games["end_reason"] = Codes(games["end_reason"], END_REASONS)
        for name in ("final_hand_cat", "final_golem_cat"):
            games[name] = Codes(games[name], CATEGORY_NAMES)
        offsets = deals.pop("offsets")
        for name, values in deals.items():
            games[name] = Lists(offsets, Codes(values, CATEGORY_NAMES) if name.endswith("_cat") else values)
        seats["out"] = Codes(seats["out"], OUT_NAMES)
        return ChunkTables(games, seats, no_components(), trajectory_lists(*points) if trajectories else None)

    def replay(
        self, d: data.PokerData, lineup: Lineup, labels: list[str], states: bool = False
    ) -> list[dict[str, Any]]:
        moves, final = play.trace_game(d, *lineup)
        ace = d.rules["rank_one"] == "high"
        num_players = lineup.num_players
        ref = GolemPokerReference(d, num_players, int(lineup.setup_seeds))
        state = public_state if states else None
        events: list[dict[str, Any]] = [
            {
                "event": "setup",
                "deal": 1,
                "rules": dict(d.rules),
                **_table_view(ref, labels, ace),
                **state_field(ref, state),
            }
        ]
        shown = 0
        for t, mv in enumerate(moves):
            seat = ref.current_player()
            phase = PHASE_NAMES[ref.phase]
            deal = ref.deal
            text = ref.describe(mv)
            pot = ref.pot - ref.paid_bet[seat]
            ref.apply_action(mv)
            pot += ref.paid_bet[seat]  # the pot after this move's chips, before any showdown
            events.append(
                {
                    "event": "move",
                    "turn": t + 1,
                    "deal": deal,
                    "phase": phase,
                    "seat": seat + 1,
                    "bot": labels[seat],
                    "kind": MOVE_NAMES[int(mv[M_KIND])],
                    "text": text,
                    "record": [int(v) for v in mv],
                    "pot": pot,
                    **state_field(ref, state),
                }
            )
            while shown < len(ref.log):
                e = ref.log[shown]
                shown += 1
                events.append(
                    {
                        "event": "showdown",
                        "deal": shown,
                        "hands": [
                            {
                                "seat": s + 1,
                                "bot": labels[s],
                                "hand": " ".join(card_text(c) for c in cs),
                                "value": describe(ref.value_of(cs), ace),
                            }
                            for s, cs in e["hands"].items()
                        ],
                        "best_seats": [s + 1 for s in e["best"]],
                        "best_hand": describe(e["hand"], ace),
                        "golem": "none" if e["golem"] == NO_VALUE else describe(e["golem"], ace),
                        "golem_cards": [card_text(c) for c in e["golem_hand"]],
                        "golem_beaten": bool(e["beaten"]),
                    }
                )
                if not e["beaten"] and not ref.is_terminal():
                    events.append(
                        {"event": "deal", "deal": ref.deal, **_table_view(ref, labels, ace), **state_field(ref, state)}
                    )
        reason = end_reason(ref, END_REASONS, final["over"][0])
        facts = {"pot": ref.pot, "house_take": ref.house_take, "deals": ref.deal}
        events.append(result_event(ref, self.info.score_parts, reason, state, **facts))
        return events

    def random_move(self, ref: GolemPokerReference, rng: np.random.Generator) -> np.ndarray:
        """The reference's uniform random player (``GameShell.random_move``): a uniform legal kind of action, bets and
        raises of 1-4 antes clipped to the legal range, and 0 to ``max_discards`` random cards thrown."""
        keys = ref.legal_actions()
        if keys[0][0] == "discard":
            k = int(rng.integers(ref.max_discards + 1))
            return make_record(DISCARD, cards=int(sum(1 << int(i) for i in rng.choice(5, k, replace=False))))
        key = keys[int(rng.integers(len(keys)))]
        kind = {"fold": FOLD, "match": MATCH, "bet": BET, "raise": RAISE}[key[0]]
        amount = min(max(int(rng.integers(1, 5)) * ref.ante, key[1]), key[2]) if kind in (BET, RAISE) else 0
        return make_record(kind, amount)

    def format_event(self, e: dict[str, Any]) -> str:
        if e["event"] in ("setup", "deal"):
            head = "setup: antes in, deal 1" if e["event"] == "setup" else f"deal {e['deal']} (the golem won)"
            lines = [f"{head}, pot {e['pot']}"]
            for s in e["seats"]:
                lines.append(
                    f"  seat {s['seat']} ({s['bot']}): {s['hand']:<18} {s['value']:<28} stack {s['stack']}"
                    + ("" if s["in"] else "  (out)")
                )
            return "\n".join(lines)
        if e["event"] == "move":
            return f"deal {e['deal']}, {e['phase']}: seat {e['seat']} ({e['bot']}) {e['text']}  [pot {e['pot']}]"
        if e["event"] == "showdown":
            verdict = "beats the golem" if e["golem_beaten"] else "does not beat the golem"
            seats = " and ".join(f"seat {s}" for s in e["best_seats"])
            lines = [f"showdown, deal {e['deal']}:"]
            for h in e["hands"]:
                lines.append(f"  seat {h['seat']} ({h['bot']}): {h['hand']:<18} {h['value']}")
            lines.append(f"  golem: {' '.join(e['golem_cards']) or 'no cards':<18} {e['golem']}")
            lines.append(f"  the best hand ({seats}: {e['best_hand']}) {verdict}")
            return "\n".join(lines)
        lines = [f"pot won ({e['end_reason']}) after {e['deals']} deal(s): pot {e['pot']}, house {e['house_take']}"]
        for s, (score, rank, win) in enumerate(zip(e["scores"], e["ranks"], e["wins"], strict=True)):
            parts = ", ".join(f"{k.removeprefix('score_')} {v}" for k, v in e["score_parts"][s].items())
            lines.append(f"  seat {s + 1}: {score:+d} chips ({parts}), rank {rank}, pot share {win:g}")
        return "\n".join(lines)


def _table_view(ref: GolemPokerReference, labels: list[str], ace: bool) -> dict[str, Any]:
    """Hands, stacks and the pot at the start of a deal."""
    seats = []
    for s in range(ref.num_players):
        hand = ref.hand[s]
        seats.append(
            {
                "seat": s + 1,
                "bot": labels[s],
                "in": bool(ref.active[s]),
                "hand": ref.hand_text(s),
                "value": describe(ref.value_of(hand), ace) if ref.active[s] else "",
                "stack": ref.stack[s],
            }
        )
    return {"pot": ref.pot, "seats": seats}


GAME = GolemPoker()
