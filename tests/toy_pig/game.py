"""Pig behind the shared game interface: its data, its plain-Python reference twin, and ``GAME``."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np

import simulate.play as loop
from simulate.datafiles import read_toml, resolve_rules, sha256
from simulate.game import (
    ChunkTables,
    Codes,
    GameInfo,
    Lineup,
    ReplayPosition,
    RuleOption,
    Study,
    StudyRun,
    bot_specs,
)
from simulate.gamekit import (
    NO_POINTS,
    GameShell,
    Twin,
    end_reason,
    new_trajectories,
    no_components,
    ranks_from_scores,
    result_event,
    rule_options,
    state_field,
    trajectory_lists,
    wins_from_scores,
)

from . import engine as E

RULE_OPTIONS = {"target": (str, ("30", "50", "100"), "points that win")}
"""Rule options as ``(type, allowed, help)``; their defaults are the ``[rules]`` of the shipped ``game.toml``."""
MAX_POINTS = 200  # trajectory points kept a game (rounds and the end); Pig's bots need under 40 rounds to 100 points


class PigData(NamedTuple):
    """A loaded definition: the rules in force (Pig has no components) and the data's provenance."""

    target: int
    rules: dict[str, Any]
    provenance: dict[str, Any]  # the folder, whether it is the shipped one, and each data file's SHA-256


class PigReference:
    """The rules once more in plain Python, in OpenSpiel's State shape; moves are the kernel's records."""

    def __init__(self, d: PigData, num_players: int) -> None:
        self.n, self.target = num_players, d.target
        self.score, self.total, self.current, self.won = [0] * num_players, 0, 0, False

    def current_player(self) -> int:
        return self.current

    def legal_actions(self) -> list[int]:
        return [E.ROLL] if self.total == 0 else [E.ROLL, E.BANK]

    def apply_action(self, record: Any) -> None:
        action, die = int(record[0]), int(record[1])
        if action not in self.legal_actions() or self.won:
            raise ValueError(f"illegal move {action} for seat {self.current}")
        if action == E.BANK:
            self.score[self.current] += self.total
            if self.score[self.current] >= self.target:
                self.won = True
                return
        elif die != 1:
            self.total += die
            return
        self.total, self.current = 0, (self.current + 1) % self.n

    def is_terminal(self) -> bool:
        return self.won

    def scores(self) -> list[int]:
        return list(self.score)

    def score_parts(self) -> list[list[int]]:
        return [[s] for s in self.score]

    def ranks(self) -> list[int]:
        return [1 + sum(o > s for o in self.score) for s in self.score]

    def wins(self) -> list[float]:
        top = [s == max(self.score) for s in self.score]
        return [1.0 / sum(top) if t else 0.0 for t in top]


class PigTwin(Twin):
    """One game in the kernel's arrays (row 0) and the reference, for the conformance check."""

    def __init__(self, d: PigData, num_players: int, play_seed: int) -> None:
        st = E.new_state(1)
        E.game_init(st, 0, np.uint64(play_seed))
        super().__init__(st, PigReference(d, num_players))
        self.n, self.target = num_players, d.target

    def kernel_view(self) -> dict[str, Any]:
        st = self.record
        return {
            "score": st.score[0, : self.n].tolist(),
            "total": int(st.total[0]),
            "current": int(st.current[0]),
            "won": bool(st.over[0] == E.END_RULES),
        }

    def reference_view(self) -> dict[str, Any]:
        ref = self.reference
        return {"score": ref.score, "total": ref.total, "current": ref.current, "won": ref.won}

    def kernel_legal(self) -> list:
        return [a for a in (E.ROLL, E.BANK) if E.is_legal(self.record, 0, a)]

    def accepts(self, move: Any) -> bool:
        return int(move[0]) in self.reference.legal_actions()

    def kernel_step(self, move: Any) -> bool:
        E.game_step(self.record, 0, self.n, self.target, int(move[0]), int(move[1]))
        return True

    def seat_view(self, seat: int) -> Any:
        return public_state(self.reference)


def public_state(ref: PigReference) -> dict[str, Any]:
    """The replay position (``Pig.info.position``): the turn's total and the seat to move, each seat's score."""
    return {
        "board": {"turn_total": ref.total, "to_move": ref.current + 1},
        "seats": [{"seat": k + 1, "score": s} for k, s in enumerate(ref.scores())],
    }


def context(d, lineup: Lineup, check=False, points=NO_POINTS):
    """The loop's ``ctx`` (``engine.play_games``); with ``check`` each bot move's legality is checked first."""
    n, seat_lineup, ids, params, _, play_seeds = lineup
    play = np.ascontiguousarray(np.atleast_1d(play_seeds), dtype=np.uint64)
    seats = np.asarray(seat_lineup, np.int64).reshape(len(play), n)
    return (n, d.target, seats, ids, params, play, bool(check), *points)


LOOP = loop.Loop(
    E.play_games, E.play_blocks, lambda d, g: E.new_state(g), lambda st, k: np.zeros(k, E.WORK), context, E.TURN_CAP
)


class Pig(GameShell):
    """Pig: roll or bank, first to the target wins; 2-4 players."""

    info = GameInfo(
        name="pig",
        title="Pig",
        version=1,
        min_players=2,
        max_players=E.MAX_PLAYERS,
        description="Pig, the dice game: roll or bank, first to the target wins; a toy game of the lab's tests",
        bots=bot_specs(
            {
                "random": (E.RANDOM, "banks half the time it may", {}),
                "hold": (E.HOLD, "rolls until the turn holds hold_at points", {"hold_at": (20.0, "points to bank at")}),
            },
            {"hold_at": (1.0, 100.0)},
            frozenset({"hold_at"}),
        ),
        max_bot_params=1,
        data_files=("game.toml",),
        score_parts=("score_banked",),
        score_unit="points",
        setup_columns=(),
        component_kinds=(),
        game_columns=("winner_seat",),
        seat_columns=(),
        profile_columns=("rolls", "banks"),
        skill_ladder=("random", "hold"),
        bot_names=MappingProxyType({"random": "random player", "hold": "hold-at-20 player"}),
        bench_lineups={"hold": 10_000},
        bench_players=2,
        default_bots="hold",
        position=ReplayPosition(board=("turn_total", "to_move"), seat=()),
        study=Study(
            game="pig",
            default_games=20_000,
            description=(
                "hold mirror matches at 2-4 players (first-player advantage) and hold against random (bot strength)"
            ),
            runs=(
                StudyRun("pig-2p-hold", 2, ("hold",), 0.3, purpose="first-player advantage, 2 players"),
                StudyRun("pig-3p-hold", 3, ("hold",), 0.3, purpose="first-player advantage, 3 players"),
                StudyRun("pig-4p-hold", 4, ("hold",), 0.2, purpose="first-player advantage, 4 players"),
                StudyRun("pig-2p-mixed", 2, ("random", "hold"), 0.2, purpose="bot strength, 2 players"),
            ),
            ladder=(("random", 0.05),),
            ladder_players=(2,),
        ),
    )
    trace_game = staticmethod(LOOP.trace_game)

    def new_reference(self, d: PigData, num_players: int, setup_seed: int) -> PigReference:
        return PigReference(d, num_players)

    def new_twin(self, d: PigData, num_players: int, setup_seed: int, play_seed: int) -> PigTwin:
        return PigTwin(d, num_players, play_seed)

    def rule_options(self) -> dict[str, RuleOption]:
        return rule_options(RULE_OPTIONS, self.load_data(None, {}).rules)

    def load_data(self, folder: Path | None, rules: dict[str, Any]) -> PigData:
        """The rules of ``folder`` (None: the shipped data) with ``rules`` on top; ``DataError`` naming the file and
        the option when one is wrong."""
        shipped = self.data_dir()
        folder = Path(folder) if folder is not None else shipped
        path = folder / "game.toml"
        in_force = resolve_rules(path, read_toml(path), rules, RULE_OPTIONS)
        provenance = {
            "folder": str(folder),
            "default": folder.resolve() == shipped.resolve(),
            "files": {name: sha256(folder / name) for name in self.info.data_files},
        }
        return PigData(int(in_force["target"]), in_force, provenance)

    def describe_data(self, d: PigData) -> dict[str, Any]:
        title = self.info.title if d.provenance["default"] else f"{self.info.title} from {d.provenance['folder']}"
        return {"title": title, "rules": dict(d.rules), "data": dict(d.provenance)}

    def play_chunk(self, d, lineup, threads=1, check_moves=False, trajectories=False) -> ChunkTables:
        n, g = lineup.num_players, len(lineup.play_seeds)
        points = new_trajectories(g, MAX_POINTS, n) if trajectories else NO_POINTS
        st, _ = LOOP.batch(d, lineup, threads, check_moves, points=points)
        score = st.score[:, :n]
        win = wins_from_scores(score)
        games = {
            "turns": st.moves.copy(),
            "rounds": (st.turns + n - 1) // n,
            "end_reason": Codes(st.over.astype(np.int32), E.END_REASONS),
            "winner_seat": (np.argmax(win, axis=1) + 1).astype(np.int8),
        }
        seats_table = {
            "score": score.ravel().astype(np.int32),
            "rank": ranks_from_scores(score).ravel(),
            "win": win.ravel(),
            "score_banked": score.ravel().astype(np.int32),
            "rolls": st.rolls[:, :n].ravel().copy(),
            "banks": st.banks[:, :n].ravel().copy(),
        }
        return ChunkTables(games, seats_table, no_components(), trajectory_lists(*points) if trajectories else None)

    def replay(self, d, lineup, labels, states=False) -> list[dict[str, Any]]:
        moves, final = LOOP.trace_game(d, *lineup)
        ref = PigReference(d, lineup.num_players)
        state = public_state if states else None
        events: list[dict[str, Any]] = [{"event": "setup", "target": d.target, **state_field(ref, state)}]
        for t, (action, die) in enumerate(moves):
            seat = ref.current_player()
            ref.apply_action((action, die))
            text = f"rolls {die}" if action == E.ROLL else "banks"
            events.append(
                {
                    "event": "move",
                    "turn": t + 1,
                    "seat": seat + 1,
                    "bot": labels[seat],
                    "text": text,
                    **state_field(ref, state),
                }
            )
        reason = end_reason(ref, E.END_REASONS, final.over[0])
        events.append(result_event(ref, self.info.score_parts, reason, state))
        return events

    def format_event(self, e: dict[str, Any]) -> str:
        if e["event"] == "move":
            return f"move {e['turn']}: seat {e['seat']} ({e['bot']}) {e['text']}"
        if e["event"] == "result":
            return "game over: " + ", ".join(f"seat {s + 1} {v}" for s, v in enumerate(e["scores"]))
        return f"{e['event']}: first to {e.get('target')} points"


GAME = Pig()
