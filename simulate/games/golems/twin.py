"""Golems in both engines at once, for the conformance check's move-by-move comparison
(``simulate.conformance.compare_moves``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulate.gamekit import Twin
from simulate.games.golems.data import GolemsData
from simulate.games.golems.engine import game_init, game_legal_moves, game_step
from simulate.games.golems.reference import GolemsReference, move_key, public_state
from simulate.games.golems.state import MAX_MOVES, MOVE_LEN, U_RESERVE, U_REWARD, U_START, new_state


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

    def seat_view(self, seat: int) -> Any:
        """The public position, the cards the seat holds (the others' are counted) and its legal moves."""
        g = self.reference
        held = [c for c in range(len(g.owner)) if g.owner[c] == seat and g.use[c] in (U_RESERVE, U_REWARD, U_START)]
        return public_state(g), held, sorted(g.legal_actions())
