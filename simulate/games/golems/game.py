"""Golems (ThunderGryph Games 2020) behind the shared game interface (``simulate.game.Game``).

Two players, or one (solo) against the automaton of the rules. In a solo run the seats table has
one row per game: ``score`` is the player's, ``rank`` 1 and ``win`` 1 when the player beats the
automaton (after the tie-breaks), ``rank`` 2 and ``win`` 0 when it loses, ``win`` 0.5 for a
shared tie; the automaton's score is in the games table (``automa_score``).
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import numpy as np

from simulate.apprentice import PLAIN_STYLE
from simulate.game import AdaptationSpec, ChunkTables, Codes, GameInfo, Lineup, PlantedEdit, ReplayPosition, bot_specs
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
from simulate.games.golems import bots as golems_bots
from simulate.games.golems import columns, data, learning, play, search_bot
from simulate.games.golems.data import GolemsData
from simulate.games.golems.reference import GolemsReference, in_hand, public_state
from simulate.games.golems.state import *
from simulate.games.golems.twin import GolemsTwin

DECIDED_BY = ("score", "golems", "tucks", "shared")
EMPTY = "-"  # setup descriptor of a display position, removed card or starting Rune the table does not use
# the opening display by position, the cards removed unseen, the starting Runes by seat (``columns.NUM_SETUP``)
GOLEMS_SETUP_COLUMNS = (
    tuple(f"setup_display_{k + 1:02d}" for k in range(data.MAX_DISPLAY))
    + tuple(f"setup_removed_{k + 1}" for k in range(data.MAX_REMOVED))
    + tuple(f"setup_start_s{s + 1}_{j + 1}" for s in range(data.MAX_PLAYERS) for j in range(data.MAX_START_PER_PLAYER))
)


STAND_IN_NOTE = "the default deck is a labelled STAND-IN (the printed card list is not public)"


class Golems(GameShell):
    """Golems: 2 players, or solo (1) against the automaton."""

    info = GameInfo(
        name="golems",
        title="Golems",
        version=3,
        play_version=2,  # 3: the setup draw's split into opening and hidden order; play is 2's
        public_opening="the opening display and the starting Runes dealt to the seats",
        hidden_order="the cards removed unseen and the order of the rest of the deck",
        chunk_size=50_000,  # half a second of play: a chunk's fixed costs (files, checksums, tallies) stay near 1%
        min_players=1,
        max_players=2,
        description="Golems (ThunderGryph Games 2020): draft cards paid for with gems, summon golems, collect dust; "
        f"2 players, or 1 = solo against the automaton; {STAND_IN_NOTE}",
        bots=bot_specs(
            golems_bots.BOTS, golems_bots.LIMITS, golems_bots.WHOLE_PARAMS, {"style": (PLAIN_STYLE, *data.STYLES)}
        ),
        max_bot_params=golems_bots.MAX_BOT_PARAMS,
        data_files=data.FILES,
        score_parts=columns.SCORE_PARTS,
        score_unit="points",  # what a seat's score counts, in the report's wording
        setup_columns=GOLEMS_SETUP_COLUMNS,
        component_kinds=data.TYPES,
        seat_columns=columns.SEAT_INT16,
        profile_columns=columns.PROFILE,
        profile_forced=("passes",),  # only when no move is legal (RULINGS R14): never flagged as unused
        # weakest to strongest (docs/golems.md); search rungs are played by the standard study (``Study.search_share``)
        skill_ladder=("random", "greedy", "collector", "lookahead", "apprentice", "search:iterations=200", "search"),
        bot_names=MappingProxyType(
            {
                "random": "random player",
                "greedy": "greedy heuristic",
                "collector": "collector heuristic",
                "lookahead": "look-ahead player (rollouts)",
                "apprentice": "apprentice (learned player)",
                "search:iterations=200": "search (200 iterations)",
                "search": "search (400 iterations)",
            }
        ),
        apprentice=learning.APPRENTICE,  # the learned player ``golem train golems`` fits (docs/golems.md)
        game_columns=("decided_by", *columns.GAME_INT16),
        # golem bench: lineups (as for --bots) with their default games per kernel measurement
        bench_lineups={
            "greedy": 100_000,
            "collector": 100_000,
            "greedy,collector": 100_000,
            "lookahead,collector": 400,
            "apprentice": 4000,  # also the apprentice's side of golem bench's apprentice-against-search figure
            "apprentice,collector": 4000,
            "search,collector": 100,
        },
        bench_players=2,
        default_bots="collector",  # --bots when none is given: the recommended lineup (golem games shows it)
        study=read_study("golems"),
        position=ReplayPosition(
            solo_board=("automa_score",),
            board=("turn", "display", "deck", "gem_supply"),
            seat=("gems", "columns", "wild", "golems", "tucked", "dust", "hand", "reserved"),
        ),
        indexed_lists={},
        # The plain component whose gift every value is also compared with (a starting Rune, 1 VP in hand): the rules'
        # own gift to every seat, so the comparison leaves what a card does beyond one more starting Rune.
        value_reference="S1",
        # Component kinds with a causal value design (docs/card-value.md): kind -> the rule option that gives a seat
        # one more copy of a component of that kind at setup (RULINGS.md G1 says where the copy goes).
        value_designs={kind: "gift" for kind in data.TYPES},
        # What-ifs of ``golem value --cost/--reward``: (kind, what) -> the value it changes (``golem values``).
        value_edits={
            ("golem", "cost"): "cards.{id}.requirement",
            ("rune", "reward"): "cards.{id}.vp",
            ("gem", "reward"): "cards.{id}.reward",
        },
        # Planted card edits the strong players must see (``golem check golems --only adaptation``). A Golem card's
        # requirement prices only its summon (taken as a resource it joins a column whatever it needs): the cost edits
        # count summons over the whole game (to round 200, the turn cap's; a summon waits for columns). The apprentice
        # sees the stronger Rune in its mirror games but not against lookahead, which races it for the Rune (its take
        # rises, the apprentice's does not): that edit records the apprentice, the others assert it. The raised cost's
        # take against lookahead starts near the floor (7-12% of 100 games, none once raised): at 40 games a move of
        # the margin is one the printed take can barely make, so that edit plays 100 games and asks a move of 5 points
        # (``python benchmarks/adaptation.py golems`` and ``... golems apprentice --rival-take`` print every take)
        adaptation=AdaptationSpec(
            players=("search", "apprentice"),
            rival="lookahead",
            edits=(
                PlantedEdit("stronger", "R05", (("cards.R05.vp", "12"),), +1, recorded=("apprentice",)),  # 3 VP -> 12
                PlantedEdit(
                    "useless", "J09", (("cards.J09.vp", "0"), ("cards.J09.reward", "0"), ("cards.J09.dust", "0")), -1
                ),
                PlantedEdit("cost cut", "G18", (("cards.G18.requirement", "B"),), +1, use="summon", rounds=200),  # BBDD
                PlantedEdit(
                    "cost raised",
                    "G05",
                    (("cards.G05.requirement", "BBBBCCCC"),),  # BB
                    -1,
                    margin=0.05,
                    use="summon",
                    rounds=200,
                    games=100,
                ),
            ),
            games=40,
        ),
    )

    def component_table(self, d: GolemsData) -> list[dict[str, Any]]:
        """Every card: ``id``, ``kind``, ``text`` (both abilities in words), ``same`` (the text identical copies
        share; a starting Rune is not a copy of a deck Rune), ``deck``, the requirement ``in_<type>``, the columns
        it can join ``out_<type>``, ``out_gems`` (a Reward), ``out_dust``, ``upgrades`` (0) and ``vp`` (a summoned
        Golem's, a Rune's or Gem card's in hand), in data order; the gift copy is left out."""
        t = d.tables
        golem_vp = int(t.params[data.P_GOLEM_VP])
        out = []
        for c, cid in enumerate(d.card_ids):
            if cid.endswith(data.GIFT_SUFFIX):
                continue
            kind = int(t.c_type[c])
            deck = "start" if c in set(t.start_cards[: int(t.params[data.P_NUM_START])].tolist()) else "main"
            joins = np.zeros(len(d.resources), int)
            if kind == data.GOLEM or (kind == data.RUNE and not t.c_wild[c]):
                joins[t.c_res[c]] = 1
            elif kind == data.RUNE:
                joins[:] = 1
            if kind == data.GOLEM:
                text = f"Golem: resource {d.resources[t.c_res[c]]}, or summon for {golem_vp} VP + tucks "
                text += f"(needs {data.requirement_str(d, c)})"
                vp = golem_vp
            elif kind == data.RUNE:
                sym = "any type" if t.c_wild[c] else d.resources[t.c_res[c]]
                text = f"Rune: resource {sym}, or reserve for {int(t.c_vp[c])} VP"
                if deck == "start":
                    text = f"starting Rune: {int(t.c_vp[c])} VP in hand (type {sym})"
                vp = int(t.c_vp[c])
            else:
                gems = int(t.c_reward[c])
                text = (
                    f"Gem card: reward {gems} gem{'s' * (gems != 1)} + {int(t.c_vp[c])} VP, or {int(t.c_dust[c])} dust"
                )
                vp = int(t.c_vp[c])
            out.append(
                {"id": cid, "kind": data.TYPES[kind], "text": text, "same": text, "deck": deck}
                | {f"in_{r}": int(t.c_req[c, k]) for k, r in enumerate(d.resources)}
                | {f"out_{r}": int(joins[k]) for k, r in enumerate(d.resources)}
                | {"out_gems": int(t.c_reward[c]), "out_dust": int(t.c_dust[c]), "upgrades": 0, "vp": vp}
            )
        return out

    data_module = data
    reference_class = GolemsReference
    twin_class = GolemsTwin
    trace_game = staticmethod(play.trace_game)
    # golem bench's search rates: positions of collector 2-player games, every 3rd turn
    search_bench = SearchBench(
        "collector", 17, lambda g, _: 3 * (g % 12), search_bot.search_positions, search_bot.new_search
    )

    def describe_data(self, d: GolemsData) -> dict[str, Any]:
        title = f"{self.info.title} [{d.label}]"
        if not d.provenance["default"]:
            title += f" from {d.provenance['folder']}"
        return {
            "title": title,
            "rules": dict(d.rules),
            "data": dict(d.provenance),
            "table": dict(d.table),
            "solo": dict(d.solo),
            "component_texts": {c["id"]: c["text"] for c in self.component_table(d)},  # beside ids in a value report
            "value_reference": self.info.value_reference,
        }

    def play_chunk(
        self, d: GolemsData, lineup: Lineup, threads: int = 1, check_moves: bool = False, trajectories: bool = False
    ) -> ChunkTables:
        n = lineup.num_players
        rounds = int(d.tables.params[data.P_MAX_TURNS]) // n + 1  # the turn cap ends a game at a round's end
        points = new_trajectories(len(lineup.setup_seeds) if trajectories else 0, rounds if trajectories else 0, n)
        st = play.LOOP.final_records(d, lineup, threads, check_moves, points=points)
        tables = chunk_tables(d, st, n, self.info.score_parts)
        return tables._replace(trajectories=trajectory_lists(*points)) if trajectories else tables

    def replay(self, d: GolemsData, lineup: Lineup, labels: list[str], states: bool = False) -> list[dict[str, Any]]:
        moves, final = play.trace_game(d, *lineup)
        num_players = lineup.num_players
        gifted = int(np.flatnonzero(np.asarray(lineup.seat_bot) == 0)[0])
        ref = GolemsReference(d, num_players, int(lineup.setup_seeds), gifted)
        state = public_state if states else None
        events: list[dict[str, Any]] = [
            {
                "event": "setup",
                "deck": d.label,
                "removed": [d.card_ids[c] for c in ref.deck[: ref.removed]],
                **_board(ref, d, labels),
                **state_field(ref, state),
            }
        ]
        events += move_events(
            ref, moves, num_players, labels, MOVE_NAMES, M_KIND, lambda position: _board(position, d, labels), state
        )
        result = result_event(ref, self.info.score_parts, end_reason(ref, END_REASONS, final["over"][0]), state)
        if num_players == 1:
            result["automa_score"] = ref.automa_vp
        events.append(result)
        return events

    def format_event(self, e: dict[str, Any]) -> str:
        if e["event"] == "setup":
            removed = " ".join(e["removed"]) or "-"
            return f"setup ({e['deck']}); removed unseen: {removed}\n" + _board_text(e)
        if e["event"] == "move":
            return f"turn {e['turn']} (round {e['round']}), {e['bot']}: {e['text']}\n" + _board_text(e)
        lines = [f"game over ({e['end_reason']})"]
        for s, (score, rank, parts) in enumerate(zip(e["scores"], e["ranks"], e["score_parts"], strict=True)):
            detail = ", ".join(f"{k.removeprefix('score_')} {v}" for k, v in parts.items())
            lines.append(f"  seat {s + 1}: {score} points ({detail}), rank {rank}")
        if "automa_score" in e:
            lines.append(f"  automaton: {e['automa_score']} points")
        return "\n".join(lines)


def chunk_tables(d: GolemsData, st: np.ndarray, n: int, score_parts: tuple[str, ...]) -> ChunkTables:
    """The games, seats and components columns of finished games ``st`` (see ``docs/golems.md``)."""
    games, seats, comps = columns.chunk_columns(d, st)
    turns = games.pop("turns")
    setup = games.pop("setup")
    names = d.card_ids + (EMPTY,)  # positions the table does not use hold EMPTY (not null): every descriptor a string
    out_games: dict[str, Any] = {
        "turns": turns,
        "rounds": turns // n,
        "end_reason": Codes(games.pop("end_reason"), END_REASONS),
        "winner_seat": games.pop("winner_seat"),
        "tied": games.pop("tied"),
        "decided_by": Codes(games.pop("decided_by"), DECIDED_BY),
        **games,
    }
    for name, codes in zip(GOLEMS_SETUP_COLUMNS, setup, strict=True):
        out_games[name] = Codes(codes, names)
    out_seats = {name: seats[name] for name in ("score", "rank", "win", *score_parts)}
    out_seats.update((name, seats[name]) for name in columns.SEAT_INT16)
    components = {
        "game": comps["game"],
        "seat": comps["seat"],
        "component": Codes(comps["card"], d.card_ids),
        "kind": Codes(comps["kind"], data.TYPES),
        "turn": comps["turn"],
        "round": comps["turn"] // n,
        "use": Codes(comps["use"], USE_NAMES[:NUM_USES]),
    }
    return ChunkTables(out_games, out_seats, components)


def _board(ref: GolemsReference, d: GolemsData, labels: list[str]) -> dict[str, Any]:
    """The public position after a move: the display with its gems, every seat's tableau and score."""
    scores = ref.scores()
    seats = []
    for s in range(ref.num_players):
        seats.append(
            {
                "seat": s + 1,
                "bot": labels[s],
                "gems": ref.gems[s],
                "columns": {d.resources[t]: ref.col[s][t] for t in range(ref.num_types) if ref.col[s][t]},
                "golems": ref.golems[s],
                "tucked": ref.tucked[s],
                "dust": ref.dust[s],
                "hand": [
                    d.card_ids[c]
                    for c in range(len(ref.owner))
                    if ref.owner[c] == s and in_hand(ref.c_type[c], ref.use[c])
                ],
                "score": scores[s],
            }
        )
    board: dict[str, Any] = {
        "display": [
            [{"card": d.card_ids[c], "gems": g} if c >= 0 else None for c, g in zip(row, gems, strict=True)]
            for row, gems in zip(ref.slot, ref.slot_gems, strict=True)
        ],
        "deck_left": ref.deck_left(),
        "supply": ref.supply,
        "seats": seats,
    }
    if ref.num_players == 1:
        board["automa_score"] = ref.automa_vp
    return board


def _board_text(e: dict[str, Any]) -> str:
    lines = []
    for k, row in enumerate(e["display"]):
        cells = [("--" if c is None else c["card"] + (f"[{c['gems']}]" if c["gems"] else "")) for c in row]
        lines.append(f"  row {k + 1}: {' '.join(f'{x:<7}' for x in cells).rstrip()}")
    lines.append(
        f"  deck {e['deck_left']}, supply {e['supply']}"
        + (f", automaton {e['automa_score']}" if "automa_score" in e else "")
    )
    for s in e["seats"]:
        cols = " ".join(f"{k}{v}" for k, v in s["columns"].items()) or "-"
        lines.append(
            f"  seat {s['seat']} ({s['bot']}): gems {s['gems']}, columns {cols}, golems {s['golems']}, "
            f"tucked {s['tucked']}, dust {s['dust']}, hand {' '.join(s['hand']) or '-'}, score {s['score']}"
        )
    return "\n".join(lines)


GAME = Golems()
