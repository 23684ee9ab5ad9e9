"""Golems in both engines at once, for the conformance check's move-by-move comparison
(``simulate.conformance.compare_moves``)."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from typing import Any

import numpy as np

from simulate.gamekit import Twin
from simulate.games.golems.data import P_GEM_TOKENS, GolemsData
from simulate.games.golems.engine import game_init, game_legal_moves, game_step
from simulate.games.golems.reference import GolemsReference, move_key, public_state
from simulate.games.golems.state import *


class GolemsTwin(Twin):
    """The kernel's record and the reference of one game; the views hold the fields the reference's ``to_arrays``
    names."""

    def __init__(self, d: GolemsData, num_players: int, setup_seed: int, play_seed: int) -> None:
        st = new_state(1, d.tables)
        game_init(st, d.kernel, 0, num_players, np.uint64(setup_seed), np.uint64(play_seed))
        super().__init__(st, GolemsReference(d, num_players, setup_seed))
        self.data, self._out = d, np.zeros((MAX_MOVES, MOVE_LEN), np.int16)

    def kernel_legal(self) -> list:
        n = game_legal_moves(self.record, self.data.kernel, 0, self._out)
        return [move_key(self._out[i]) for i in range(n)]

    def accepts(self, move: Any) -> bool:
        return move_key(move) in set(self.reference.legal_actions())

    def kernel_step(self, move: Any) -> bool:
        return game_step(self.record, self.data.kernel, 0, move) == 0

    def invariants(self) -> list[str]:
        """Gems and cards conserved, row sizes, gems only on cards, columns consistent with the cards placed."""
        return golems_invariants(self.record[0], self.data, int(self.reference.num_players))

    def seat_view(self, seat: int) -> Any:
        """The public position, the cards the seat holds (the others' are counted) and its legal moves."""
        g = self.reference
        held = [c for c in range(len(g.owner)) if g.owner[c] == seat and g.use[c] in (U_RESERVE, U_REWARD, U_START)]
        return public_state(g), held, sorted(g.legal_actions())


def golems_invariants(rec: np.void, data: GolemsData, n: int) -> list[str]:
    """The invariants :meth:`GolemsTwin.invariants` checks, of one game record."""
    tokens = int(data.tables.params[P_GEM_TOKENS])
    rows, size = int(rec["rows"]), int(rec["row_size"])
    slot = rec["slot"]
    counts = (slot[:rows, :size] >= 0).sum(axis=1)
    checks = [
        (rec["supply"] >= 0 and (rec["gems"] >= 0).all() and (rec["slot_gems"] >= 0).all(), "a gem count is negative"),
        (rec["supply"] + rec["gems"][:n].sum() + rec["slot_gems"].sum() == tokens, "gems are not conserved"),
        ((rec["gems"][n:] == 0).all(), "a seat beyond the players holds gems"),
        ((slot[rows:] == -1).all() and (slot[:, size:] == -1).all(), "a card lies outside the display's rows"),
        ((counts == rec["row_count"][:rows]).all() and (counts <= size).all(), "a row's count or size is wrong"),
        ((rec["slot_gems"][slot < 0] == 0).all(), "gems lie on an empty slot"),
    ]
    if n == 2:
        full = counts == size
        checks.append(((rec["slot_gems"][:rows][full] == 0).all(), "a full row carries gems"))
        if not rec["triggered"]:
            checks.append(((counts > 0).all(), "an empty row was not refilled while the deck lasts"))
    deck = rec["deck"][: rec["deck_len"]]
    display = slot[slot >= 0].tolist()
    taken = np.flatnonzero(rec["owner"] >= 0).tolist()
    drawn = deck[rec["removed"] : rec["deck_pos"]].tolist()
    from_deck = [c for c in taken if rec["use"][c] != U_START]
    checks.append((not set(display) & set(taken), "a card is both on display and taken"))
    if n == 2:
        checks.append((sorted(display + from_deck) == sorted(drawn), "a drawn card is neither on display nor taken"))
    else:  # the automaton's cards leave the game
        checks.append(
            (
                set(display + from_deck) <= set(drawn)
                and len(drawn) == len(display) + len(from_deck) + rec["automa_cards"],
                "the solo deck does not account for the automaton's cards",
            )
        )
    types = len(data.resources)
    col, wild = rec["col"][:n, :types], rec["wild"][:n, :types]
    checks.append(((wild >= 0).all() and (wild <= col).all(), "a column's wild count is outside 0..its cards"))
    for s in range(n):
        uses = rec["uses"][s]
        checks += [
            (col[s].sum() + rec["tucked"][s] == uses[0] + uses[2], f"seat {s}'s columns miss resource cards"),
            (rec["golems"][s] == uses[1], f"seat {s}'s golems do not match its summons"),
        ]
    nc = len(data.tables.c_type)
    spare = (rec["owner"][nc:] + 1, rec["taken_turn"][nc:] + 1, rec["use"][nc:] + 1, rec["deck"][nc:])
    checks.append((not any(a.any() for a in spare), "a slot past the end of the deck is not empty"))
    return [problem for ok, problem in checks if not ok]
