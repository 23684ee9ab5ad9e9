"""Century: Golem Edition behind the shared game interface (``simulate.game.Game``)."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import threading
from types import MappingProxyType
from typing import Any

import numpy as np

from simulate.apprentice import PLAIN_STYLE
from simulate.game import (
    AdaptationSpec,
    ApprenticeSpec,
    ChunkTables,
    Codes,
    GameInfo,
    Lineup,
    PlantedEdit,
    ReplayPosition,
    bot_specs,
)
from simulate.gamekit import (
    GameShell,
    SearchBench,
    end_reason,
    move_events,
    new_trajectories,
    read_study,
    result_event,
    state_field,
    trajectory_lists,
)
from simulate.games.century import bots as century_bots
from simulate.games.century import columns, data, play, search_bot
from simulate.games.century.data import CenturyData
from simulate.games.century.reference import CenturyReference, public_state
from simulate.games.century.state import *
from simulate.games.century.twin import CenturyTwin

MERCHANT_ROW_DESCRIPTORS = 6
POINT_ROW_DESCRIPTORS = 5
_BATCH = threading.local()
"""``records``: the game records a thread plays its chunks into, one chunk after another (Dask may run
several chunks at once in threads of one process)."""


class Century(GameShell):
    """Century: Golem Edition, 2-5 players."""

    info = GameInfo(
        name="century",
        title="Century: Golem Edition",
        version=5,
        # 4: the setup draw's split into opening and hidden order; 5: the search's leaf credits a bought merchant card
        # by the crystal levels one play of it adds (``card_levels``), no longer a flat ``card_value`` per card. The
        # rules and every other bot play as in 3, and the apprentice's weights (fitted from version 4's search) play the
        # same game as they did: they still fit, and refits from version 5's search were no stronger against search or
        # planner (docs/apprentice.md, "Refitting Century on engine version 5")
        play_version=3,
        public_opening=(
            "the face-up merchant and point rows (the seats' starting crystals and cards are fixed by the data)"
        ),
        hidden_order="the order of the rest of the merchant and point decks",
        min_players=2,
        max_players=5,
        description="Century: Golem Edition (Plan B Games 2017): crystal trading and hand building, 2-5 players",
        bots=bot_specs(
            century_bots.BOTS, century_bots.LIMITS, century_bots.WHOLE_PARAMS, {"style": (PLAIN_STYLE, *data.STYLES)}
        ),
        max_bot_params=century_bots.MAX_BOT_PARAMS,
        data_files=data.FILES,
        score_parts=columns.SCORE_PARTS,
        score_unit="points",  # what a seat's score counts, in the report's wording
        setup_columns=tuple(f"setup_merchant_{k + 1}" for k in range(MERCHANT_ROW_DESCRIPTORS))
        + tuple(f"setup_point_{k + 1}" for k in range(POINT_ROW_DESCRIPTORS)),
        component_kinds=("merchant", "point"),
        # golem bench: --bots -> default games
        bench_lineups={"greedy": 20_000, "planner": 1_000, "apprentice": 2_000, "search": 40},
        bench_players=3,
        default_bots="greedy",  # --bots when none is given: the recommended lineup (golem games shows it)
        study=read_study("century"),
        position=ReplayPosition(
            board=("turn", "merchant_row", "point_row", "merchant_deck", "point_deck", "copper_left", "silver_left"),
            seat=("crystals", "hand", "played", "point_cards", "copper", "silver"),
        ),
        indexed_lists={"table.start": ("seat", 1), "table.end_trigger": ("players", 2)},
        seat_columns=("num_point_cards", "num_merchant_cards", "copper", "silver", "crystals_left", *play.PROFILE),
        profile_columns=play.PROFILE,
        profile_forced=("crystals_discarded",),  # the caravan limit's penalty, not a choice: never flagged as unused
        # weakest to strongest (docs/century.md); search rungs are played by the standard study
        # (``Study.search_share``). The top: the search with the apprentice valuing its leaves, at 80 iterations the CPU
        # per decision of ``search``'s 100, won 69.2% of 2,000 2-player games against ``search`` and 57.8% of 2,000
        # 3-player games against two, with the weights refitted on 5 Dec 2026 (docs/century.md, "The search with the
        # apprentice inside")
        skill_ladder=(
            "random",
            "greedy",
            "engine",
            "planner",
            "apprentice",
            "search:iterations=50",
            "search",
            "search:leaf=1:iterations=80",
        ),
        bot_names=MappingProxyType(
            {
                "random": "random player",
                "greedy": "greedy heuristic",
                "engine": "engine-building heuristic",
                "planner": "planner (looks a few turns ahead)",
                "apprentice": "apprentice (learned player)",
                "search:iterations=50": "search (50 iterations)",
                "search": "search (100 iterations)",
                "search:leaf=1:iterations=80": "expert search (apprentice inside, 80 iterations)",
            }
        ),
        game_columns=("point_cards_left", "merchant_cards_left"),
        apprentice=ApprenticeSpec(
            features=data.APPRENTICE_FEATURES,
            player_counts=data.APPRENTICE_PLAYERS,
            positions=play.positions,
            rival="planner",
            games=400,
        ),
        # The plain card whose gift every value is also compared with (Create 2 ``YY``, a starting card): a card dealt
        # free at setup is worth a tempo whatever it does, and the comparison leaves what this one does beyond that.
        value_reference="S1",
        # Component kinds with a causal value design (docs/card-value.md): kind -> the rule option that gives a seat
        # one more copy of a component of that kind at setup.
        value_designs={"merchant": "gift"},
        # What-ifs of ``golem value --cost/--reward``: (kind, what) -> the value it changes (``golem values``).
        value_edits={
            ("merchant", "cost"): "merchant_cards.{id}.input",
            ("merchant", "reward"): "merchant_cards.{id}.output",  # an upgrade card's: its upgrades
            ("point", "cost"): "point_cards.{id}.cost",
            ("point", "reward"): "point_cards.{id}.vp",
        },
        # Planted card edits the strong players must see (``golem check century --only adaptation``).
        # the apprentice sees the edits in its mirror games, but against planner neither the cut cost nor (at 400
        # games an arm) the stronger card raises its take (it takes about half the cards shown in the first four rounds
        # already): measured, not asserted (``python benchmarks/adaptation.py century apprentice --games 400`` prints
        # its take shares). Why: planner races it for the edited card. In the same matches planner, which leaves the
        # printed card, takes the cut (and the stronger) card often, so the two seats' takes together rise while the
        # apprentice's own does not: it values its afterstate one move ahead and does not see that the card it leaves
        # for a turn may be gone (``--rival-take`` prints planner's take beside it). Refits on today's search adapt
        # but lose strength against planner (issue 43 on the tracker).
        adaptation=AdaptationSpec(
            players=("search",),
            recorded=("apprentice",),
            rival="planner",
            edits=(
                PlantedEdit("stronger", "M08", (("merchant_cards.M08.output", "MMMM"),), +1),  # Create 4 levels -> 16
                PlantedEdit(
                    "useless", "M16", (("merchant_cards.M16.input", "M"), ("merchant_cards.M16.output", "Y")), -1
                ),
                PlantedEdit("cost cut", "M17", (("merchant_cards.M17.input", "YY"),), +1),  # YYYYY -> MM for YY
                PlantedEdit("cost raised", "M16", (("merchant_cards.M16.input", "YYYYYYY"),), -1),  # YYYY -> TM for 7 Y
            ),
            games=20,
        ),
        priced_kinds=("point",),  # a point card's VP against the crystals it costs (``golem value --price``)
        price_unit="crystal",
    )

    def component_table(self, d: CenturyData) -> list[dict[str, Any]]:
        """Every merchant and point card: ``id``, ``kind``, ``text`` (what it does), ``same`` (the text its identical
        copies share), ``deck``, crystals paid ``in_Y`` .. ``in_M`` (a trade's input, a point card's cost) and gained
        ``out_Y`` .. ``out_M``, ``upgrades`` and ``vp``, in data order; the gift copy is left out."""
        t = d.tables
        out = []
        for m, mid in enumerate(d.merchant_ids):
            if mid.endswith(data.GIFT_SUFFIX):
                continue
            if t.m_kind[m] == data.KIND_CREATE:
                text = "gain " + data.crystals_text(t.m_out[m])
            elif t.m_kind[m] == data.KIND_UPGRADE:
                text = f"upgrade {int(t.m_up[m])} steps"
            else:
                text = f"{data.crystals_text(t.m_in[m])} -> {data.crystals_text(t.m_out[m])}"
            deck = "start" if m in set(t.start_cards.tolist()) else "market"
            out.append(
                {"id": mid, "kind": "merchant", "text": text, "same": text, "deck": deck}
                | _counts("in", t.m_in[m])
                | _counts("out", t.m_out[m])
                | {"upgrades": int(t.m_up[m]), "vp": 0}
            )
        for p, pid in enumerate(d.point_ids):
            text = f"{int(t.p_vp[p])} VP for {data.crystals_text(t.p_cost[p])}"
            out.append(
                {"id": pid, "kind": "point", "text": text, "same": text, "deck": "point"}
                | _counts("in", t.p_cost[p])
                | _counts("out", np.zeros(data.NUM_COLOURS))
                | {"upgrades": 0, "vp": int(t.p_vp[p])}
            )
        return out

    data_module = data
    reference_class = CenturyReference
    twin_class = CenturyTwin
    trace_game = staticmethod(play.trace_game)
    replay_moves = staticmethod(play.replay_moves)
    # golem bench's search rates: positions of greedy 3-player games, every 7th turn
    search_bench = SearchBench(
        "greedy", 16, lambda g, _: 7 * (g % 12), search_bot.search_positions, search_bot.new_search
    )

    def describe_data(self, d: CenturyData) -> dict[str, Any]:
        texts = {c["id"]: c["text"] for c in self.component_table(d)}  # a card value report shows them beside ids
        return {
            "rules": dict(d.rules),
            "data": dict(d.provenance),
            "table": dict(d.table),
            "component_texts": texts,
            "value_reference": self.info.value_reference,
        }

    def play_chunk(
        self, d: CenturyData, lineup: Lineup, threads: int = 1, check_moves: bool = False, trajectories: bool = False
    ) -> ChunkTables:
        n, g = lineup.num_players, len(lineup.setup_seeds)
        batch = getattr(_BATCH, "records", None)
        if batch is None or batch.shape[0] != g or batch.dtype != new_state(0, d.tables).dtype:
            batch = _BATCH.records = new_state(g, d.tables)
        rounds = int(d.tables.params[data.P_MAX_ROUNDS]) if trajectories else 0  # the round cap: no game has more
        points = new_trajectories(g if trajectories else 0, rounds, n)
        st, open_m, open_p, counts = play.play_lineup(d, lineup, threads, batch, points)
        res = columns.results(d, st)
        turns = st["turn"]
        games: dict[str, Any] = {
            "turns": turns.astype(np.int32),
            "rounds": (turns // n).astype(np.int32),
            "end_reason": Codes(st["over"].astype(np.int32), END_REASONS),
            "winner_seat": np.where(res["winner"] >= 0, res["winner"] + 1, -1).astype(np.int8),
            "tied": res["tied"],
            "point_cards_left": (d.tables.p_vp.shape[0] - st["p_deck_pos"]).astype(np.int16),
            "merchant_cards_left": (d.tables.market_cards.shape[0] - st["m_deck_pos"]).astype(np.int16),
        }
        for k in range(MERCHANT_ROW_DESCRIPTORS):
            games[f"setup_merchant_{k + 1}"] = Codes(open_m[:, k].astype(np.int32), d.merchant_ids)
        for k in range(POINT_ROW_DESCRIPTORS):
            games[f"setup_point_{k + 1}"] = Codes(open_p[:, k].astype(np.int32), d.point_ids)

        per_seat, comp = columns.seat_and_component_rows(d, st)
        seats = {
            "score": res["score"].ravel(),
            "rank": res["rank"].ravel(),
            "win": res["win"].ravel(),
            **{name: res["parts"][:, :, k].ravel() for k, name in enumerate(self.info.score_parts)},
            "num_point_cards": st["num_points"][:, :n].ravel().astype(np.int16),
            "num_merchant_cards": per_seat["cards"],
            "copper": st["copper"][:, :n].ravel().astype(np.int16),  # copies: the batch is played into again
            "silver": st["silver"][:, :n].ravel().astype(np.int16),
            "crystals_left": per_seat["crystals"],
            **{name: counts[:, :n, k].ravel().astype(np.int16) for k, name in enumerate(play.PROFILE)},
        }
        components = {
            "game": comp["game"],
            "seat": comp["seat"],
            "component": Codes(comp["code"], d.merchant_ids + d.point_ids),
            "kind": Codes(comp["kind"], self.info.component_kinds),
            "turn": comp["turn"],
            "round": (comp["turn"] // n).astype(np.int32, copy=False),
        }
        return ChunkTables(games, seats, components, trajectory_lists(*points) if trajectories else None)

    def replay(self, d: CenturyData, lineup: Lineup, labels: list[str], states: bool = False) -> list[dict[str, Any]]:
        moves, final = play.trace_game(d, *lineup)
        num_players = lineup.num_players
        gifted = int(np.flatnonzero(np.asarray(lineup.seat_bot) == 0)[0])
        ref = CenturyReference(d, num_players, int(lineup.setup_seeds), gifted)
        state = public_state if states else None
        events: list[dict[str, Any]] = [{"event": "setup", **_board(ref, d, labels), **state_field(ref, state)}]
        events += move_events(
            ref, moves, num_players, labels, MOVE_NAMES, M_KIND, lambda position: _board(position, d, labels), state
        )
        events.append(result_event(ref, self.info.score_parts, end_reason(ref, END_REASONS, final["over"][0]), state))
        return events

    def random_move(self, ref: CenturyReference, rng: np.random.Generator) -> np.ndarray:
        """The reference's uniform random player (``GameShell.random_move``): a legal move picked uniformly, and random
        crystals over the limit returned."""
        moves = ref.legal_records()
        mv = moves[rng.integers(len(moves))]
        excess = ref.excess_after(mv)
        if excess:
            held = np.repeat(np.arange(4), ref.crystals_after(mv))
            mv[M_DISCARD : M_DISCARD + 4] = np.bincount(rng.choice(held, excess, replace=False), minlength=4)
        return mv

    def format_event(self, e: dict[str, Any]) -> str:
        if e["event"] == "setup":
            return "setup\n" + _board_text(e)
        if e["event"] == "move":
            return f"turn {e['turn']} (round {e['round']}), {e['bot']}: {e['text']}\n" + _board_text(e)
        lines = [f"game over ({e['end_reason']})"]
        for s, (score, rank, parts) in enumerate(zip(e["scores"], e["ranks"], e["score_parts"], strict=True)):
            detail = ", ".join(f"{k.removeprefix('score_')} {v}" for k, v in parts.items())
            lines.append(f"  seat {s + 1}: {score} points ({detail}), rank {rank}")
        return "\n".join(lines)


def _counts(prefix: str, counts: np.ndarray) -> dict[str, int]:
    """Crystal counts as ``{prefix}_Y`` .. ``{prefix}_M``."""
    return {f"{prefix}_{c}": int(counts[k]) for k, c in enumerate(data.COLOURS)}


def _board(ref: CenturyReference, d: CenturyData, labels: list[str]) -> dict[str, Any]:
    """The public position after a move: caravans, hands, rows, coins and score so far."""
    seats = []
    for s in range(ref.num_players):
        seats.append(
            {
                "seat": s + 1,
                "bot": labels[s],
                "crystals": data.crystals_str(ref.crystals[s]),
                "hand": [d.merchant_ids[m] for m, v in enumerate(ref.cards[s]) if v == IN_HAND],
                "played": [d.merchant_ids[m] for m, v in enumerate(ref.cards[s]) if v not in (0, IN_HAND)],
                "point_cards": ref.num_points[s],
                "score": ref.scores()[s],
            }
        )
    return {
        "seats": seats,
        "merchant_row": [
            {"card": d.merchant_ids[m], "crystals": data.crystals_str(ref.m_row_crystals[k])}
            for k, m in enumerate(ref.m_row)
            if m >= 0
        ],
        "point_row": [d.point_ids[p] for p in ref.p_row if p >= 0],
        "copper_left": ref.copper_left,
        "silver_left": ref.silver_left,
    }


def _board_text(e: dict[str, Any]) -> str:
    row = " ".join(c["card"] + (f"[{c['crystals']}]" if c["crystals"] else "") for c in e["merchant_row"])
    lines = [
        f"  merchants: {row}",
        f"  points:    {' '.join(e['point_row'])}   copper {e['copper_left']} silver {e['silver_left']}",
    ]
    for s in e["seats"]:
        lines.append(
            f"  seat {s['seat']} ({s['bot']}): {s['crystals'] or '-':<10} score {s['score']:>3}  "
            f"points {s['point_cards']}  hand {' '.join(s['hand'])}"
        )
    return "\n".join(lines)


GAME = Century()
