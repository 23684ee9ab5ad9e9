"""Golem in both engines at once, for the conformance check's move-by-move comparison
(``simulate.conformance.compare_moves``): the reference's state and the kernel's record as plain lists in one
layout, queues and length-counted arrays unrolled."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulate.gamekit import Twin
from simulate.games.golem import engine
from simulate.games.golem.codes import NUM_ACTIONS, STAT_NAMES
from simulate.games.golem.data import NUM_AUTOMA_CARDS, GolemData
from simulate.games.golem.engine.state import new_state
from simulate.games.golem.reference import GolemReference, public_state

AUTOMA_FIELDS = (
    "automa", "au_deck", "au_strategy", "au_pos", "au_actions", "au_slot", "au_eyes", "au_gauge", "au_next",
    "au_laps", "au_vp",
)  # fmt: skip
LIST_FIELDS = (
    "order", "palace", "library", "book_deck", "ob_deck", "at_slots", "at_deck", "at_discard", "vp", "loose_gold",
    "built", "killed", "track", "study", "art_tile", "art_side", "tokens", "cemetery", "cemetery_count",
    "marble_actions", "rabbi_done", "actions", "pass_tile", "passes", "rabbi_slot", "perm_queue", "free_control",
    "drawn",
)  # fmt: skip
"""The reference's lists its view copies whole."""
ROW_FIELDS = (
    "section_tile", "hands", "drafted", "objectives", "res", "student", "golem_loc", "golem_sec", "standing",
    "fresh", "gdev", "sdev", "adev_space", "adev_side", "art_gold", "art_done", "col_colour", "eyes", "syn",
    "act_count",
)  # fmt: skip
"""Its lists of rows (by seat, section, tile or column), each row copied."""


def reference_view(g: GolemReference) -> dict[str, Any]:
    """The reference state as plain lists, in the record's layout."""
    return {
        "phase": g.phase,
        "round": g.round,
        "cursor": g.cursor,
        "step_left": g.step_left,
        "pass_stage": g.pass_stage,
        "stack": [list(map(int, t)) for t in g.stack],
        "col_books": [[list(c) for c in x] for x in g.col_books],
        "gold_supply": g.gold_supply,
        "stats": [list(g.stats[k]) for k in STAT_NAMES],
        "chance": g.chance.s,
        "n": g.n,
        **{k: list(getattr(g, k)) for k in LIST_FIELDS},
        **{k: [list(x) for x in getattr(g, k)] for k in ROW_FIELDS},
        **{k: getattr(g, k) if not isinstance(getattr(g, k), list) else list(getattr(g, k)) for k in AUTOMA_FIELDS},
    }


def record_view(r: np.void, n: int) -> dict[str, Any]:
    """The numba record as plain lists, with queues and length-counted arrays unrolled."""

    def q(arr: np.ndarray, head: int, length: int) -> list[int]:
        return [int(arr[(head + k) % arr.shape[0]]) for k in range(length)]

    def seats(field: str) -> list:
        return r[field][:n].tolist()

    return {
        "phase": int(r["phase"]),
        "round": int(r["round"]),
        "cursor": int(r["cursor"]),
        "step_left": int(r["step_left"]),
        "pass_stage": int(r["pass_stage"]),
        "stack": r["stack"][: r["sp"]].tolist(),
        "order": r["order"][:n].tolist(),
        "palace": r["palace"].tolist(),
        "section_tile": r["section_tile"].tolist(),
        "library": r["library"][: r["lib_len"]].tolist(),
        "book_deck": q(r["bk_q"], int(r["bk_head"]), int(r["bk_len"])),
        "ob_deck": q(r["ob_q"], int(r["ob_head"]), int(r["ob_len"])),
        "at_slots": r["at_slots"].tolist(),
        "at_deck": r["at_q"][r["at_head"] : r["at_head"] + r["at_len"]].tolist(),
        "at_discard": r["at_disc"][: r["at_disc_len"]].tolist(),
        "hands": [r["hands"][s][: r["hand_len"][s]].tolist() for s in range(n)],
        "drafted": [r["drafted"][s][: r["drafted_len"][s]].tolist() for s in range(n)],
        "objectives": [r["objectives"][s][: r["obj_len"][s]].tolist() for s in range(n)],
        **{
            k: seats(k)
            for k in (
                "res",
                "vp",
                "loose_gold",
                "student",
                "golem_loc",
                "golem_sec",
                "standing",
                "fresh",
                "built",
                "killed",
                "track",
                "study",
                "gdev",
                "sdev",
                "adev_space",
                "adev_side",
                "art_tile",
                "art_side",
                "art_gold",
                "art_done",
                "col_colour",
                "cemetery_count",
                "marble_actions",
                "rabbi_done",
                "actions",
                "pass_tile",
                "passes",
                "rabbi_slot",
                "free_control",
                "act_count",
            )
        },
        "col_books": [[r["col_books"][s][c][: r["col_len"][s][c]].tolist() for c in range(4)] for s in range(n)],
        "tokens": r["tokens"].tolist(),
        "cemetery": r["cemetery"].tolist(),
        "gold_supply": int(r["gold_supply"]),
        "eyes": [r["eyes"][s][: r["eyes_len"][s]].tolist() for s in range(n)],
        "syn": r["syn"].tolist(),
        "perm_queue": r["perm_queue"][: r["perm_len"]].tolist(),
        "stats": [r["stats"][k][:n].tolist() for k in range(len(STAT_NAMES))],
        "drawn": r["drawn"].tolist(),
        "chance": int(r["chance"][0]),
        "n": int(r["n"]),
        **{k: r[k].tolist() for k in AUTOMA_FIELDS if k not in ("automa", "au_eyes")},
        "automa": bool(r["automa"]),
        "au_eyes": r["au_eyes"][: r["au_eyes_len"]].tolist(),
    }


class GolemTwin(Twin):
    """The kernel's record and the reference of one game; a move is an action code."""

    def __init__(self, d: GolemData, num_players: int, setup_seed: int, play_seed: int) -> None:
        st = new_state(1)
        engine.init_one(st, 0, d.kernel, num_players, np.uint64(setup_seed), np.uint64(play_seed))
        super().__init__(st, GolemReference(d, num_players, setup_seed))
        self.data, self._mask = d, np.zeros(NUM_ACTIONS, np.int64)

    def reference_view(self) -> dict[str, Any]:
        return reference_view(self.reference)

    def kernel_view(self) -> dict[str, Any]:
        return record_view(self.record[0], self.reference.n)

    def kernel_legal(self) -> list:
        engine.mask_one(self.record, 0, self.data.kernel, self._mask)
        return np.flatnonzero(self._mask).tolist()

    def accepts(self, move: Any) -> bool:
        return int(move) in self.reference.legal_actions()

    def kernel_step(self, move: Any) -> bool:
        engine.apply_one(self.record, 0, self.data.kernel, int(move))
        return int(self.record[0]["error"]) == 0

    def step(self, move: Any) -> bool:
        return super().step(int(move))

    def hidden_variant(self, rng: np.random.Generator) -> np.ndarray:
        """The record with what the seat to move cannot see dealt anew: the Book deck and the Action tile pile in
        another order, the other seats' Objectives and the Objective deck re-dealt as one pool (each seat keeps its
        count), the solo Automa's cards of the rounds to come in another order, another chance stream; the bots'
        stream stays. The Objective draft's hands and drafted cards stay: a seat has seen the hands passed to it,
        and no rule says what it must forget."""
        other = self.record.copy()
        r = other[0]
        seat, n = int(engine.current_player(r)), int(r["n"])

        def queue(field: str, head: int, length: int) -> list[int]:
            return [(head + k) % r[field].shape[0] for k in range(length)]

        books = queue("bk_q", int(r["bk_head"]), int(r["bk_len"]))
        r["bk_q"][books] = rng.permutation(r["bk_q"][books])
        deck = queue("ob_q", int(r["ob_head"]), int(r["ob_len"]))
        held = [(o, k) for o in range(n) if o != seat for k in range(int(r["obj_len"][o]))]
        pool = rng.permutation([int(r["ob_q"][i]) for i in deck] + [int(r["objectives"][o, k]) for o, k in held])
        r["ob_q"][deck] = pool[: len(deck)]
        for (o, k), c in zip(held, pool[len(deck) :], strict=True):
            r["objectives"][o, k] = c
        head = int(r["at_head"])
        tiles = slice(head, head + int(r["at_len"]))
        r["at_q"][tiles] = rng.permutation(r["at_q"][tiles])
        if r["automa"]:
            coming = slice(int(r["round"]) + 1, NUM_AUTOMA_CARDS)
            r["au_deck"][coming] = rng.permutation(r["au_deck"][coming])
        r["chance"][0] = rng.integers(1, 2**63, dtype=np.uint64)
        return other

    def seat_view(self, seat: int) -> Any:
        """The public position (others' Objectives and draft cards counted), the seat's own Objectives, draft hand
        and drafted cards, and its legal actions."""
        g = self.reference
        return public_state(g), g.objectives[seat], g.hands[seat], g.drafted[seat], g.legal_actions()
