"""Golems (ThunderGryph Games 2020) behind the shared game interface (``simulate.game.Game``).

Two players, or one (solo) against the automaton of the rules. In a solo run the seats table has
one row per game: ``score`` is the player's, ``rank`` 1 and ``win`` 1 when the player beats the
automaton (after the tie-breaks), ``rank`` 2 and ``win`` 0 when it loses, ``win`` 0.5 for a
shared tie; the automaton's score is in the games table (``automa_score``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from simulate.game import ChunkTables, Codes, RuleOption, bot_specs
from simulate.gamekit import kernel_traces, move_events, rule_options, time_reference_replay
from simulate.games.golems import bots as golems_bots
from simulate.games.golems import data, play
from simulate.games.golems.reference import GolemsReference
from simulate.games.golems.state import (
    END_REASONS,
    M_KIND,
    MOVE_NAMES,
    NUM_USES,
    U_DISCARD,
    U_DUST,
    U_GOLEM_RESOURCE,
    U_RESERVE,
    U_REWARD,
    U_RUNE_RESOURCE,
    U_START,
    U_SUMMON,
    USE_NAMES,
)

DECIDED_BY = ("score", "golems", "tucks", "shared")
EMPTY = "-"  # setup descriptor of a display position, removed card or starting Rune the table does not use
STAND_IN_NOTE = "the default deck is a labelled STAND-IN (the printed card list is not public)"


class Golems:
    """Golems: 2 players, or solo (1) against the automaton."""

    name = "golems"
    title = "Golems"
    version = 1
    min_players = 1
    max_players = 2
    description = (
        "Golems (ThunderGryph Games 2020): draft cards paid for with gems, summon golems, collect dust; "
        f"2 players, or 1 = solo against the automaton; {STAND_IN_NOTE}"
    )
    bots = bot_specs(golems_bots.BOTS, golems_bots.LIMITS)
    max_bot_params = golems_bots.MAX_BOT_PARAMS
    data_files = data.FILES
    score_parts = play.SCORE_PARTS
    score_unit = "points"  # what a seat's score counts, in the report's wording
    setup_columns = (
        tuple(f"setup_display_{k + 1:02d}" for k in range(data.MAX_DISPLAY))
        + tuple(f"setup_removed_{k + 1}" for k in range(data.MAX_REMOVED))
        + tuple(
            f"setup_start_s{s + 1}_{j + 1}" for s in range(data.MAX_PLAYERS) for j in range(data.MAX_START_PER_PLAYER)
        )
    )
    component_kinds = data.TYPES
    seat_columns = (
        "golems", "tucked", "dust", "dust_cards", "hand_gem_cards", "hand_runes",
        "cards_golem", "cards_rune", "cards_gem", *USE_NAMES[:NUM_USES], "columns_left",
        "gems_taken", "gems_gained", "gems_reward", "gems_stolen", "gems_paid", "gems_reserve", "gems_left",
        "gem_turns", "passes", "turns_played",
    )
    game_columns = (
        "decided_by", "deck_left", "supply_left", "grids",
        "automa_score", "automa_golems", "automa_cards", "automa_gems",
    )
    # golem bench: lineups (as for --bots) with their default games per kernel measurement
    bench_lineups = {"greedy": 100_000, "collector": 100_000, "greedy,collector": 100_000, "lookahead,collector": 400}
    bench_players = 2

    def rule_options(self) -> dict[str, RuleOption]:
        return rule_options(data.RULE_OPTIONS, data.load().rules)

    def load_data(self, folder: Path | None, rules: dict[str, Any]) -> data.GolemsData:
        return data.load(folder, rules)

    def describe_data(self, d: data.GolemsData) -> dict[str, Any]:
        title = f"{self.title} [{d.label}]"
        if not d.provenance["default"]:
            title += f" from {d.provenance['folder']}"
        return {
            "title": title,
            "rules": dict(d.rules),
            "data": dict(d.provenance),
            "table": dict(d.table),
            "solo": dict(d.solo),
        }

    def play_chunk(
        self,
        d: data.GolemsData,
        num_players: int,
        seat_lineup: np.ndarray,
        lineup_ids: np.ndarray,
        lineup_params: np.ndarray,
        setup_seeds: np.ndarray,
        play_seeds: np.ndarray,
        threads: int = 1,
    ) -> ChunkTables:
        n = num_players
        st = play.play_batch(d, n, seat_lineup, lineup_ids, lineup_params, setup_seeds, play_seeds, threads)
        return chunk_tables(d, st, n, self.score_parts)

    def replay(
        self,
        d: data.GolemsData,
        num_players: int,
        seat_lineup: np.ndarray,
        lineup_ids: np.ndarray,
        lineup_params: np.ndarray,
        setup_seed: int,
        play_seed: int,
        labels: list[str],
    ) -> list[dict[str, Any]]:
        moves, final = play.trace_game(d, num_players, seat_lineup, lineup_ids, lineup_params, setup_seed, play_seed)
        ref = GolemsReference(d, num_players, int(setup_seed))
        events: list[dict[str, Any]] = [
            {
                "event": "setup",
                "deck": d.label,
                "removed": [d.card_ids[c] for c in ref.deck[: ref.removed]],
                **_board(ref, d, labels),
            }
        ]
        events += move_events(
            ref, moves, num_players, labels, MOVE_NAMES, M_KIND, lambda position: _board(position, d, labels)
        )
        result: dict[str, Any] = {
            "event": "result",
            "end_reason": END_REASONS[int(final["over"][0])] if ref.is_terminal() else "running",
            "scores": ref.scores(),
            "score_parts": [dict(zip(self.score_parts, p, strict=True)) for p in ref.score_parts()],
            "ranks": ref.ranks(),
            "wins": ref.wins(),
        }
        if num_players == 1:
            result["automa_score"] = ref.automa_vp
        events.append(result)
        return events

    def reference_replay_seconds(
        self,
        d: data.GolemsData,
        num_players: int,
        lineup_ids: np.ndarray,
        lineup_params: np.ndarray,
        setup_seeds: np.ndarray,
        play_seeds: np.ndarray,
    ) -> tuple[float, int]:
        traces = kernel_traces(play.trace_game, d, num_players, lineup_ids, lineup_params, setup_seeds, play_seeds)
        return time_reference_replay(lambda seed: GolemsReference(d, num_players, seed), setup_seeds, traces)

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


def chunk_tables(d: data.GolemsData, st: np.ndarray, n: int, score_parts: tuple[str, ...]) -> ChunkTables:
    """The games, seats and components columns of finished games ``st`` (see ``docs/golems.md``)."""
    res = play.results(d, st)
    g = st.shape[0]
    turns = st["turn"].astype(np.int32)
    games: dict[str, Any] = {
        "turns": turns,
        "rounds": (turns // n).astype(np.int32),
        "end_reason": Codes(st["over"].astype(np.int32), END_REASONS),
        "winner_seat": res["winner"],
        "tied": res["tied"],
        "decided_by": Codes(res["decided"].astype(np.int32), DECIDED_BY),
        "deck_left": (st["deck_len"] - st["deck_pos"]).astype(np.int16),
        "supply_left": st["supply"].astype(np.int16),
        "grids": st["grids"].astype(np.int16),
        "automa_score": st["automa_vp"].astype(np.int16),
        "automa_golems": st["automa_golems"].astype(np.int16),
        "automa_cards": st["automa_cards"].astype(np.int16),
        "automa_gems": st["automa_gems"].astype(np.int16),
    }
    # the opening display is deck[removed : removed + rows * row_size] (dealt row by row, never moved);
    # positions the table does not use hold EMPTY (not null), so every descriptor is a string
    names = d.card_ids + (EMPTY,)
    empty = len(d.card_ids)
    removed = st["removed"].astype(np.int64)
    shown = (st["rows"].astype(np.int64) * st["row_size"]).astype(np.int64)
    last = st["deck"].shape[1] - 1
    idx = np.arange(data.MAX_DISPLAY)[None, :]
    pos = np.minimum(removed[:, None] + idx, last)
    display = np.where(idx < shown[:, None], np.take_along_axis(st["deck"], pos, axis=1), empty)
    for k in range(data.MAX_DISPLAY):
        games[f"setup_display_{k + 1:02d}"] = Codes(display[:, k].astype(np.int32), names)
    for k in range(data.MAX_REMOVED):
        col = np.where(k < removed, st["deck"][:, min(k, last)], empty)
        games[f"setup_removed_{k + 1}"] = Codes(col.astype(np.int32), names)
    for s in range(data.MAX_PLAYERS):
        for j in range(data.MAX_START_PER_PLAYER):
            col = st["start_runes"][:, s, j]
            games[f"setup_start_s{s + 1}_{j + 1}"] = Codes(np.where(col >= 0, col, empty).astype(np.int32), names)

    def seat(field: str) -> np.ndarray:
        return st[field][:, :n].ravel().astype(np.int16)

    uses = st["uses"][:, :n, :].reshape(g * n, NUM_USES).astype(np.int16)
    seats: dict[str, Any] = {
        "score": res["score"].ravel(),
        "rank": res["rank"].ravel(),
        "win": res["win"].ravel(),
        **{name: res["parts"][:, :, k].ravel() for k, name in enumerate(score_parts)},
        "golems": seat("golems"),
        "tucked": seat("tucked"),
        "dust": seat("dust"),
        "dust_cards": seat("dust_cards"),
        "hand_gem_cards": seat("gem_cards"),
        "hand_runes": seat("rune_cards"),
        "cards_golem": uses[:, U_GOLEM_RESOURCE] + uses[:, U_SUMMON],
        "cards_rune": uses[:, U_RUNE_RESOURCE] + uses[:, U_RESERVE] + uses[:, U_DISCARD],
        "cards_gem": uses[:, U_REWARD] + uses[:, U_DUST],
        **{name: uses[:, u] for u, name in enumerate(USE_NAMES[:NUM_USES])},
        "columns_left": st["col"][:, :n, :].sum(axis=2).ravel().astype(np.int16),
        "gems_taken": seat("gems_taken"),
        "gems_gained": seat("gems_gained"),
        "gems_reward": seat("gems_reward"),
        "gems_stolen": seat("gems_stolen"),
        "gems_paid": seat("gems_paid"),
        "gems_reserve": seat("gems_reserve"),
        "gems_left": seat("gems"),
        "gem_turns": seat("gem_turns"),
        "passes": seat("passes"),
        "turns_played": ((turns[:, None] + n - 1 - np.arange(n)[None, :]) // n).ravel().astype(np.int16),
    }

    comp = play.components(st)
    components = {
        "game": comp["game"],
        "seat": comp["seat"],
        "component": Codes(comp["card"], d.card_ids),
        "kind": Codes(d.tables.c_type[comp["card"]].astype(np.int32), data.TYPES),
        "turn": comp["turn"],
        "round": comp["turn"] // n,
        "use": Codes(comp["use"].astype(np.int32), USE_NAMES[:NUM_USES]),
    }
    return ChunkTables(games, seats, components)


def _board(ref: GolemsReference, d: data.GolemsData, labels: list[str]) -> dict[str, Any]:
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
                "hand": [d.card_ids[c] for c in range(len(ref.owner)) if ref.owner[c] == s and ref.use[c] in
                         (U_RESERVE, U_REWARD, U_START)],
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
    lines.append(f"  deck {e['deck_left']}, supply {e['supply']}"
                 + (f", automaton {e['automa_score']}" if "automa_score" in e else ""))
    for s in e["seats"]:
        cols = " ".join(f"{k}{v}" for k, v in s["columns"].items()) or "-"
        lines.append(
            f"  seat {s['seat']} ({s['bot']}): gems {s['gems']}, columns {cols}, golems {s['golems']}, "
            f"tucked {s['tucked']}, dust {s['dust']}, hand {' '.join(s['hand']) or '-'}, score {s['score']}"
        )
    return "\n".join(lines)


GAME = Golems()
