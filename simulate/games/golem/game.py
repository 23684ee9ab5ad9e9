"""Golem (Cranio Creations 2021) behind the shared game interface (``simulate.game.Game``).

Seats are table positions (seat 1 = the first record seat); the turn order of round 1 is drawn at
setup, so each seat row carries its ``start_position`` (1 = first to act in round 1), the column to
use for first-player advantage.

Solo (1 player, rule ``solo_opponent = automa``): the player plays against the stand-in Automa; the
seat's ``rank`` is 1 and ``win`` 1 when the player beats it (a tie goes to the uppermost Rabbi),
``rank`` 2 and ``win`` 0 otherwise; the Automa's score and its parts are games columns
(``automa_score``, ...; -1 where no Automa plays).
"""

from __future__ import annotations

import random
import time
from itertools import combinations
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from simulate.apprentice import PLAIN_STYLE
from simulate.game import (
    AdaptationSpec,
    ChunkTables,
    Codes,
    GameInfo,
    Lineup,
    PlantedEdit,
    ReplayPosition,
    RuleOption,
    bot_specs,
)
from simulate.gamekit import (
    GameShell,
    SearchBench,
    new_trajectories,
    read_study,
    result_event,
    rule_options,
    state_field,
    trajectory_lists,
)
from simulate.games.golem import apprentice as golem_apprentice
from simulate.games.golem import bots as golem_bots
from simulate.games.golem import columns, components, data, engine, loader, play, search_bot
from simulate.games.golem.codes import ACT_NAMES, STAT_NAMES, Decision
from simulate.games.golem.engine.state import MAX_OBJECTIVES
from simulate.games.golem.reference import GolemReference, public_state
from simulate.games.golem.twin import GolemTwin
from simulate.play import ILLEGAL_MOVE

END_REASONS = ("rules", ILLEGAL_MOVE, "engine_error")
DECIDED_BY = ("score", "rabbi")
AUTOMA_STRATEGIES = ("none", "golems", "artifacts", "books")  # the Strategy tile drawn (automa_tiles.csv S1-S3)
LAYOUTS = tuple(" ".join(str(t) for t in c) for c in combinations(range(1, 11), 7))
LAYOUT_CODE = np.full(1 << 10, -1, np.int32)  # bitmask of a district's seven tiles (0-9) -> its LAYOUTS index
for _i, _c in enumerate(combinations(range(10), 7)):
    LAYOUT_CODE[sum(1 << t for t in _c)] = _i
ARTIFACT_SIDES = tuple(f"{t}{side}" for t in range(1, 5) for side in "AB")
COMPONENT_KINDS = ("book", "objective", "development", "artifact")
DEV_NAMES = (
    tuple(f"golem_dev_{k + 1}" for k in range(6))
    + tuple(f"study_dev_{k + 1}" for k in range(data.NUM_STUDY_DEVS))
    + tuple(f"artifact_dev_{k + 1}" for k in range(6))
)
PROFILE_STATS = ("gold_bought", "character_bonuses", "student_sections")  # seats columns counted by the engine
ART_NAMES = tuple(f"artifact_{k + 1}" for k in range(4))

SETUP_COLUMNS = (
    tuple(f"setup_character_r{k + 1}" for k in range(4))
    + tuple(f"setup_{d}_tiles" for d in data.DISTRICTS)
    + tuple(f"setup_start_s{s + 1}_{k + 1}" for s in range(4) for k in range(4))
    + tuple(f"setup_artifact_s{s + 1}" for s in range(4))
    + ("setup_first_seat",)
)
"""The games table's setup columns: what the opening dealt."""


def opening_library(d: data.GolemData, num_players: int, setup_seed: int) -> frozenset[str]:
    """The Books of the Library a game of setup seed ``setup_seed`` opens with (the adaptation check's market)."""
    return frozenset(d.book_ids[b] for b in GolemReference(d, num_players, setup_seed).library)


def _search_positions(st, tables, params, tree, scratch, out, bare) -> int:
    """``search_bot.search_positions`` as ``simulate.gamekit.time_search`` calls it (Golem's writes no ``out``)."""
    return search_bot.search_positions(st, tables, params, tree, scratch, bare)


class Golem(GameShell):
    """Golem: 1-4 players, four rounds of seven phases."""

    info = GameInfo(
        name="golem",
        title="Golem (Cranio Creations)",
        version=8,
        # 6: the setup draw's split into opening and hidden order; 7: under section_payment=knowledge a Golem short of
        # the Knowledge does not enter VIII-X (R7); 8: the apprentice's features (a waiting Gold seen placed, Artifact
        # and Objective progress) and its refitted weights. The heuristic bots and the search at leaf 0 play as in 5,
        # the apprentice as in 8 only: weights fitted before 8 have other features and do not load.
        play_version=8,
        public_opening=(
            "the Palace Characters, the Neighbourhood tiles, the Library, round 1's Action tiles, the turn order, the "
            "Starting and Artifact tiles offered (solo: the Automa's Strategy tile and place)"
        ),
        hidden_order=(
            "the rest of the Book deck and of the Action tile pile, the Objective deck (hands are private), the solo "
            "Automa's deck, and the chance stream (marble drops from round 1 on, reshuffles)"
        ),
        min_players=1,
        max_players=4,
        description=(
            "Golem (Cranio Creations 2021): marbles, Rabbis, Golems, Books and Artifacts over four rounds; "
            "1-4 players (solo against a stand-in Automa); ESTIMATES stand in for printed values the rules text "
            "does not give (seeds/golem/SOURCES.md)"
        ),
        bots=bot_specs(
            golem_bots.BOTS, golem_bots.LIMITS, golem_bots.WHOLE_PARAMS, {"style": (PLAIN_STYLE, *data.STYLES)}
        ),
        max_bot_params=golem_bots.MAX_BOT_PARAMS,
        data_files=data.FILES,
        score_parts=columns.SCORE_PARTS,
        setup_columns=SETUP_COLUMNS,
        component_kinds=COMPONENT_KINDS,
        score_unit="points",  # what a seat's score counts, in the report's wording
        turn_order_column="start_position",  # the turn order is drawn at setup: seat advantage is by this place
        game_columns=(
            "turns",
            "rounds",
            "end_reason",
            "winner_seat",
            "tied",
            "decided_by",
            "gold_left",
            "automa_score",
            "automa_margin",
            "automa_vp_main",
            "automa_vp_strategy",
            "automa_vp_special",
            "automa_laps",
            "automa_strategy",
            *SETUP_COLUMNS,
        ),  # fmt: skip
        seat_columns=(
            "start_position",
            "menorahs_red",
            "menorahs_yellow",
            "menorahs_blue",
            "golems_built",
            "golems_killed",
            "golems_on_board",
            "golem_track",
            "artifacts",
            "gold",
            "books",
            "book_columns",
            "study",
            "developments_golem",
            "developments_study",
            "developments_artifact",
            "objectives_held",
            "objectives_met",
            "gold_bought",
            "character_bonuses",
            "student_sections",
            "vp_lost_control",
            "vp_lost_overmove",
            "vp_lost_sections",
            "knowledge_control",
            *(f"actions_{a}" for a in ACT_NAMES),
            "students_red",
            "students_yellow",
            "students_blue",
            "clay_left",
            "coins_left",
            "knowledge_left",
        ),  # fmt: skip
        # play profile (docs/golem.md, Run tables): Gold bought, Artifacts completed, Golems created and destroyed,
        # Books, Student sections advanced, Study track, Character bonuses, Objectives met, Mirror and Rabbi actions
        profile_columns=(
            "gold_bought",
            "artifacts",
            "golems_built",
            "golems_killed",
            "books",
            "student_sections",
            "study",
            "character_bonuses",
            "objectives_met",
            "actions_mirror",
            "actions_rabbi",
        ),  # fmt: skip
        skill_ladder=("random", "greedy", "balanced", "apprentice", "search"),  # weakest to strongest (docs/golem.md)
        bot_names=MappingProxyType(
            {
                "random": "random player",
                "greedy": "greedy heuristic",
                "golems": "Golem-line heuristic",
                "artifacts": "Artifact-line heuristic",
                "books": "Book-line heuristic",
                "balanced": "balanced heuristic (all three lines)",
                "apprentice": "apprentice (learned player)",
                "search": "search (50 iterations)",
            }
        ),
        bench_lineups={
            "greedy": 4000,
            "balanced": 4000,
            "balanced,golems,artifacts,books": 4000,
            "random": 20000,
            "apprentice,balanced,balanced,balanced": 400,
            "search,balanced,balanced,balanced": 20,
        },  # fmt: skip
        apprentice=golem_apprentice.APPRENTICE,  # the learned player, and how golem train fits it (docs/golem.md)
        bench_players=4,
        default_bots="balanced",  # --bots when none is given: the recommended lineup (golem games shows it)
        study=read_study("golem"),
        position=ReplayPosition(
            solo_board=("automa",),
            board=(
                "round",
                "phase",
                "turn_order",
                "palace",
                "synagogue",
                "action_tiles",
                "action_pile",
                "action_discard",
                "library",
                "book_deck",
                "objective_deck",
                "gold_supply",
                "menorah_tokens",
                "cemetery",
                "neighbourhood",
            ),
            seat=(
                "vp",
                "clay",
                "coins",
                "knowledge",
                "gold_aside",
                "students",
                "golems",
                "golems_built",
                "golems_killed",
                "golem_track",
                "study_track",
                "golem_developments",
                "study_developments",
                "artifact_developments",
                "artifact_tile",
                "artifact_gold",
                "artifacts_done",
                "book_columns",
                "objectives",
                "marbles",
                "rabbi_tile",
                "pass_tile",
                "actions_taken",
            ),
            without_state=("automa",),
        ),
        indexed_lists={},
        chunk_size=5_000,  # about a second of play: 100,000 games make 20 chunks, shared evenly by 2 workers
        # The plain component whose gift every value is also compared with: a Starting tile of plain resources (2
        # Clay, 2 Coins), one more of what the rules give every seat at setup, so the comparison leaves what a
        # component does beyond a handful of resources (docs/card-value.md).
        value_reference="S04",
        # Component kinds with a causal value design (docs/card-value.md): kind -> the rule option that gives a seat
        # the component from the start (RULINGS.md R39 says how each kind is dealt). A Character is a public Palace
        # card no seat owns: its what-if is ``golem sweep --set characters.<id>.cost=...``.
        value_designs={kind: "gift" for kind in components.KIND_ORDER if kind != "character"},
        # What-ifs of ``golem value --cost/--reward``: (kind, what) -> the value it changes (``golem values``): a
        # Book's Knowledge price or its immediate bonus's amount, an Objective's threshold or VP.
        value_edits={
            ("book", "cost"): "books.{id}.cost",
            ("book", "reward"): "books.{id}.amount",
            ("objective", "cost"): "objectives.{id}.threshold",
            ("objective", "reward"): "objectives.{id}.vp",
        },
        # Value for cost (``golem value golem --price``): a Book's measured value on its printed price, Knowledge or,
        # for a black Book, a Student step back; a Book pays in too many currencies for one VP-for-cost line
        # (docs/card-value.md).
        measured_price={
            "kind": "book",
            "in_knowledge": "Knowledge",
            "in_student": "Student step back",  # a black Book's price
        },
        # Planted Book edits the strong players must see (``golem check golem --only adaptation``). The market is the
        # Library's Books (``value_edits``' paths); no setup column names them, so ``opening_library`` says which a
        # game's opening shows. The components table keeps the Books a seat ends with, not when it bought them: a
        # take counts over the game's four rounds
        adaptation=AdaptationSpec(
            players=("search", "apprentice"),
            rival="balanced",
            edits=(
                PlantedEdit("stronger", "B08", (("books.B08.amount", "12"),), +1),  # gain 2 VP -> 12
                PlantedEdit("useless", "B17", (("books.B17.amount", "0"), ("books.B17.active_amount", "0")), -1),
                PlantedEdit("cost cut", "B22", (("books.B22.cost", "0"),), +1),  # 3 Knowledge -> 0
                PlantedEdit("cost raised", "B21", (("books.B21.cost", "8"),), -1),  # 0 Knowledge -> 8
            ),
            games=30,
            opening=opening_library,
        ),
    )

    twin_class = GolemTwin  # its data load from ``loader`` (its own load_data and rule_options below)
    trace_game = staticmethod(play.trace_game)
    replay_moves = staticmethod(play.replay_moves)
    decide_moves = staticmethod(play.decide_moves)
    # golem bench's search rates: positions of balanced 4-player games, decision 60 and every 9th after it
    search_bench = SearchBench("balanced", 16, lambda g, _: 60 + 9 * (g % 16), _search_positions, search_bot.new_search)

    def component_table(self, d: data.GolemData) -> list[dict[str, Any]]:
        """Every Book, Objective, Development tile, Artifact, Starting tile and Character with its text
        (``components.component_table``)."""
        return components.component_table(d)

    def new_reference(self, d: data.GolemData, num_players: int, setup_seed: int) -> _IntActions:
        return _IntActions(GolemReference(d, num_players, setup_seed))

    def rule_options(self) -> dict[str, RuleOption]:
        return rule_options(data.RULE_OPTIONS, loader.load().rules)

    def load_data(self, folder: Path | None, rules: dict[str, Any]) -> data.GolemData:
        return loader.load(folder, rules)

    def describe_data(self, d: data.GolemData) -> dict[str, Any]:
        title = self.info.title + (" [ESTIMATES in use]" if d.provenance["estimates"] else "")
        if not d.provenance["default"]:
            title += f" from {d.provenance['folder']}"
        return {
            "title": title,
            "rules": dict(d.rules),
            "data": {**d.provenance, "estimate_note": loader.estimate_note(d)},
            "table": dict(d.params),
            "component_texts": {c["id"]: c["text"] for c in self.component_table(d)},  # beside ids in a value report
            "value_reference": self.info.value_reference,
        }

    def play_chunk(
        self, d: data.GolemData, lineup: Lineup, threads: int = 1, check_moves: bool = False, trajectories: bool = False
    ) -> ChunkTables:
        points = new_trajectories(len(lineup.setup_seeds) if trajectories else 0, data.NUM_ROUNDS, lineup.num_players)
        st = play.play_lineup(d, lineup, threads, check_moves, points=points)
        tables = chunk_tables(d, st, lineup.num_players)
        return tables._replace(trajectories=trajectory_lists(*points)) if trajectories else tables

    def replay(
        self, d: data.GolemData, lineup: Lineup, labels: list[str], states: bool = False
    ) -> list[dict[str, Any]]:
        moves, final = play.trace_game(d, *lineup)
        num_players = lineup.num_players
        ref = GolemReference(
            d, num_players, int(lineup.setup_seeds), int(engine.gift_seat(np.asarray(lineup.seat_bot)))
        )
        state = public_state if states else None
        events: list[dict[str, Any]] = [{**_setup_event(ref, d), **state_field(ref, state)}]
        for t, a in enumerate(moves):
            seat = ref.current_player()
            rnd = min(ref.round, 3) + 1 if ref.phase >= 5 else 0  # the round the move belongs to, before it ends one
            text = ref.describe(int(a))
            kind = Decision(ref.decision()).name.lower()
            logged = len(ref.au_log)
            ref.apply_action(int(a))
            events.append(
                {
                    "event": "move",
                    "turn": t + 1,
                    "round": rnd,
                    "seat": seat + 1,
                    "bot": labels[seat],
                    "kind": kind,
                    "text": text,
                    "action": int(a),
                    "vp": list(ref.vp),
                    **state_field(ref, state),
                }
            )
            for rnd, text in ref.au_log[logged:]:  # the solo Automa's actions the move led to
                events.append({"event": "automa", "round": rnd, "text": text})
        reason = "rules" if ref.is_terminal() else "running"
        result = result_event(ref, self.info.score_parts, reason, state, final_order=[s + 1 for s in ref.order])
        if ref.automa:
            result["automa_score"] = ref.automa_score()
            result["automa_parts"] = dict(zip(("main", "strategy", "special"), ref.automa_parts(), strict=True))
        events.append(result)
        return events

    def format_event(self, e: dict[str, Any]) -> str:
        if e["event"] == "setup":
            lines = [
                "setup: Palace " + " ".join(e["characters"]),
                *(f"  {dist} district tiles: {tiles}" for dist, tiles in e["tiles"].items()),
                f"  turn order: seats {' '.join(map(str, e['order']))}",
            ]
            if "automa" in e:
                a = e["automa"]
                lines.append(f"  Automa: {a['strategy']} Strategy tile, place {a['place']} in round 1's turn order")
            return "\n".join(lines)
        if e["event"] == "automa":
            return f"       (round {e['round']}) Automa: {e['text']}"
        if e["event"] == "move":
            rnd = f"round {e['round']}" if e["round"] else "setup"
            return f"{e['turn']:>4} ({rnd}) seat {e['seat']} {e['bot']}: {e['kind']}: {e['text']}  [VP {e['vp']}]"
        lines = [f"game over ({e['end_reason']}); final turn order {e['final_order']}"]
        for s, (score, rank, parts) in enumerate(zip(e["scores"], e["ranks"], e["score_parts"], strict=True)):
            detail = ", ".join(f"{k.removeprefix('score_')} {v}" for k, v in parts.items())
            lines.append(f"  seat {s + 1}: {score} points ({detail}), rank {rank}")
        if "automa_score" in e:
            detail = ", ".join(f"{k} {v}" for k, v in e["automa_parts"].items())
            lines.append(f"  Automa: {e['automa_score']} points ({detail})")
        return "\n".join(lines)

    def reference_random_seconds(
        self, d: data.GolemData, num_players: int, setup_seeds: np.ndarray, play_seeds: np.ndarray
    ) -> tuple[float, int]:
        """Seconds the reference engine takes to play whole games with a uniform random player, and its moves."""
        start = time.perf_counter()
        moves = 0
        for s, p in zip(setup_seeds, play_seeds, strict=True):
            ref = GolemReference(d, num_players, int(s))
            rnd = random.Random(int(p))
            while not ref.is_terminal():
                legal = ref.legal_actions()
                ref.apply_action(legal[rnd.randrange(len(legal))])
                moves += 1
        return time.perf_counter() - start, moves


class _IntActions:
    """A reference game taking the kernel's recorded actions (numpy integers)."""

    def __init__(self, ref: GolemReference) -> None:
        self.ref = ref

    def apply_action(self, a: Any) -> None:
        self.ref.apply_action(int(a))


def _setup_event(ref: GolemReference, d: data.GolemData) -> dict[str, Any]:
    return {
        "event": "setup",
        "characters": [d.character_ids[c] for c in ref.palace],
        "tiles": {dist: " ".join(str(t + 1) for t in ref.tiles[k]) for k, dist in enumerate(data.DISTRICTS)},
        "order": [s + 1 for s in ref.order],
        "starting_tiles": [[d.start_ids[t] for t in offer] for offer in ref.start_offer],
        "artifact_tiles": [f"{t + 1}{'AB'[side]}" for t, side in ref.art_offer],
        **(
            {"automa": {"strategy": AUTOMA_STRATEGIES[ref.au_strategy + 1], "place": ref.au_pos + 1}}
            if ref.automa
            else {}
        ),
    }


def chunk_tables(d: data.GolemData, st: np.ndarray, n: int) -> ChunkTables:
    """The games, seats and components columns of finished games ``st`` (see ``docs/golem.md``)."""
    res = columns.results(d, st)
    g = st.shape[0]
    score = res["score"]
    top = score.max(axis=1)
    tied = (score == top[:, None]).sum(axis=1) > 1
    winner = (np.argmax(res["win"], axis=1) + 1).astype(np.int8)
    au = res["automa"]
    solo = st["automa"] == 1
    automa_score = np.where(solo, au.sum(axis=1), -1).astype(np.int16)
    if n == 1:
        tied = solo & (score[:, 0] == automa_score)
        winner = np.where(res["win"][:, 0] > 0, 1, 0).astype(np.int8)  # solo: 0 = the Automa won
    end = np.where(st["error"] == 0, 0, np.where(st["error"] == 1, 1, 2)).astype(np.int32)
    games: dict[str, Any] = {
        "turns": st["moves"].astype(np.int32),
        "rounds": np.minimum(st["round"], 4).astype(np.int8),
        "end_reason": Codes(end, END_REASONS),
        "winner_seat": winner,
        "tied": tied,
        "decided_by": Codes(tied.astype(np.int32), DECIDED_BY),
        "gold_left": st["gold_supply"].astype(np.int16),
        "automa_score": automa_score,
        "automa_margin": np.where(solo, score[:, 0] - automa_score, 0).astype(np.int16),
        "automa_vp_main": au[:, 0].astype(np.int16),
        "automa_vp_strategy": au[:, 1].astype(np.int16),
        "automa_vp_special": au[:, 2].astype(np.int16),
        "automa_laps": np.where(solo, st["au_laps"], -1).astype(np.int16),
        "automa_strategy": Codes((st["au_strategy"] + 1).astype(np.int32), AUTOMA_STRATEGIES),
    }
    char_names = d.character_ids
    for k in range(4):
        games[f"setup_character_r{k + 1}"] = Codes(st["palace"][:, k].astype(np.int32), char_names)
    for k, dist in enumerate(data.DISTRICTS):
        codes = LAYOUT_CODE[(1 << st["tiles"][:, k, :].astype(np.int64)).sum(axis=1)]
        games[f"setup_{dist}_tiles"] = Codes(codes, LAYOUTS)
    for s in range(4):
        for k in range(4):
            valid = (s < n) & (k < st["start_len"][:, min(s, 3)])
            col = np.where(valid, st["start_offer"][:, min(s, 3), k], -1).astype(np.int32)
            games[f"setup_start_s{s + 1}_{k + 1}"] = Codes(col, d.start_ids)
        if s < n:
            side = (st["art_tile"][:, s] * 2 + st["art_side"][:, s]).astype(np.int32)
        else:
            side = np.full(g, -1, np.int32)
        games[f"setup_artifact_s{s + 1}"] = Codes(side, ARTIFACT_SIDES)
    games["setup_first_seat"] = (st["start_order"][:, 0] + 1).astype(np.int8)

    def seat(field: str) -> np.ndarray:
        return st[field][:, :n].ravel().astype(np.int16)

    position = np.zeros((g, n), np.int8)
    for k in range(n):
        position[np.arange(g), st["start_order"][:, k]] = k + 1
    m_red, m_yellow, m_blue = _menorahs(d, st, n)
    on_board = ((st["golem_loc"][:, :n, :] >= 0) & (st["golem_loc"][:, :n, :] <= 2)).sum(axis=2)
    gold = st["art_gold"][:, :n, :].sum(axis=2) + st["loose_gold"][:, :n]
    col_len = st["col_len"][:, :n, :]
    met = st["stats"][:, STAT_NAMES.index("objectives_met"), :n]
    seats: dict[str, Any] = {
        "score": score.ravel(),
        "rank": res["rank"].ravel(),
        "win": res["win"].ravel(),
        **{name: res["parts"][:, :, k].ravel() for k, name in enumerate(columns.SCORE_PARTS)},
        "start_position": position.ravel(),
        "menorahs_red": m_red.ravel(),
        "menorahs_yellow": m_yellow.ravel(),
        "menorahs_blue": m_blue.ravel(),
        "golems_built": seat("built"),
        "golems_killed": seat("killed"),
        "golems_on_board": on_board.ravel().astype(np.int16),
        "golem_track": seat("track"),
        "artifacts": st["art_done"][:, :n, :].sum(axis=2).ravel().astype(np.int16),
        "gold": gold.ravel().astype(np.int16),
        "books": col_len.sum(axis=2).ravel().astype(np.int16),
        "book_columns": (col_len > 0).sum(axis=2).ravel().astype(np.int16),
        "study": seat("study"),
        "developments_golem": st["gdev"][:, :n, :].sum(axis=2).ravel().astype(np.int16),
        "developments_study": st["sdev"][:, :n, :].sum(axis=2).ravel().astype(np.int16),
        "developments_artifact": (st["adev_space"][:, :n, :] >= 0).sum(axis=2).ravel().astype(np.int16),
        "objectives_held": seat("obj_len"),
        "objectives_met": met.ravel().astype(np.int16),
        **{name: st["stats"][:, STAT_NAMES.index(name), :n].ravel().astype(np.int16) for name in PROFILE_STATS},
        "vp_lost_control": st["stats"][:, STAT_NAMES.index("vp_control"), :n].ravel().astype(np.int16),
        "vp_lost_overmove": st["stats"][:, STAT_NAMES.index("vp_overmove"), :n].ravel().astype(np.int16),
        "vp_lost_sections": st["stats"][:, STAT_NAMES.index("vp_sections"), :n].ravel().astype(np.int16),
        "knowledge_control": st["stats"][:, STAT_NAMES.index("know_control"), :n].ravel().astype(np.int16),
        **{f"actions_{a}": st["act_count"][:, :n, k].ravel().astype(np.int16) for k, a in enumerate(ACT_NAMES)},
        "students_red": st["student"][:, :n, 0].ravel().astype(np.int16),
        "students_yellow": st["student"][:, :n, 1].ravel().astype(np.int16),
        "students_blue": st["student"][:, :n, 2].ravel().astype(np.int16),
        "clay_left": st["res"][:, :n, 0].ravel().astype(np.int16),
        "coins_left": st["res"][:, :n, 1].ravel().astype(np.int16),
        "knowledge_left": st["res"][:, :n, 2].ravel().astype(np.int16),
    }
    return ChunkTables(games, seats, _components(d, st, n))


def _menorahs(d: data.GolemData, st: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = d.tables
    seats = np.arange(n)[None, :]
    red = (st["gdev"][:, :n, :] * t.gdev_menorah[None, None, :]).sum(axis=2) + (st["tokens"][:, 0:1] == seats)
    yellow = ((st["adev_space"][:, :n, :] >= 0) * t.adev_menorah[None, None, :]).sum(axis=2)
    yellow = yellow + (st["tokens"][:, 1:2] == seats)
    blue = (st["sdev"][:, :n, :] * t.sdev_menorah[None, None, :]).sum(axis=2) + (st["tokens"][:, 2:3] == seats)
    return red.astype(np.int16), yellow.astype(np.int16), blue.astype(np.int16)


def _components(d: data.GolemData, st: np.ndarray, n: int) -> dict[str, Any]:
    """One row per Book, kept Objective, upgraded Development and completed Artifact a seat ends with."""
    names = d.book_ids + d.objective_ids + DEV_NAMES + ART_NAMES
    ob0 = len(d.book_ids)
    dev0 = ob0 + len(d.objective_ids)
    art0 = dev0 + len(DEV_NAMES)
    game, seat, comp, kind = [], [], [], []

    def add(mask: np.ndarray, codes: np.ndarray, k: int) -> None:
        gi, si, *_ = np.nonzero(mask)
        game.append(gi)
        seat.append(si)
        comp.append(codes[mask])
        kind.append(np.full(len(gi), k))

    books = st["col_books"][:, :n]  # (G, n, 4, 5)
    held = np.arange(5)[None, None, None, :] < st["col_len"][:, :n, :, None]
    add(held, books.astype(np.int64), 0)
    objs = st["objectives"][:, :n]
    add(np.arange(MAX_OBJECTIVES)[None, None, :] < st["obj_len"][:, :n, None], objs.astype(np.int64) + ob0, 1)
    devs = np.concatenate([st["gdev"][:, :n] > 0, st["sdev"][:, :n] > 0, st["adev_space"][:, :n] >= 0], axis=2)
    add(devs, np.broadcast_to(np.arange(len(DEV_NAMES)) + dev0, devs.shape), 2)
    done = st["art_done"][:, :n] > 0
    add(done, np.broadcast_to(np.arange(4) + art0, done.shape), 3)
    cat = np.concatenate
    rows = sum(len(x) for x in game)
    return {
        "game": cat(game).astype(np.int64),
        "seat": cat(seat).astype(np.int8),
        "component": Codes(cat(comp).astype(np.int32), names),
        "kind": Codes(cat(kind).astype(np.int32), COMPONENT_KINDS),
        # the record keeps what a seat ends with, not when it was taken: -1, as the run format says
        "turn": np.full(rows, -1, np.int32),
        "round": np.full(rows, -1, np.int32),
    }


GAME = Golem()
