"""Century in both engines at once, for the conformance check's move-by-move comparison
(``simulate.conformance.compare_moves``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulate.gamekit import Twin
from simulate.games.century.data import CenturyData
from simulate.games.century.engine import game_init, game_legal_moves, game_step
from simulate.games.century.reference import CenturyReference, move_key, public_state
from simulate.games.century.state import MAX_MOVES, MOVE_LEN, new_state


class CenturyTwin(Twin):
    """The kernel's record and the reference of one game; the views hold every record field but the bots' ``rng``."""

    def __init__(self, d: CenturyData, num_players: int, setup_seed: int, play_seed: int) -> None:
        st = new_state(1, d.tables)
        game_init(st, d.kernel, 0, num_players, np.uint64(setup_seed), np.uint64(play_seed))
        super().__init__(st, CenturyReference(d, num_players, setup_seed))
        self.data, self._out = d, np.zeros((MAX_MOVES, MOVE_LEN), np.int16)

    def kernel_view(self) -> dict[str, Any]:
        rec = self.record[0]
        return {name: rec[name] for name in self.record.dtype.names if name != "rng"}

    def reference_view(self) -> dict[str, Any]:
        expected = np.zeros(1, self.record.dtype)  # a field the reference does not set must be 0 in the kernel
        for name, value in self.reference.to_arrays().items():
            expected[name][0] = value
        return {name: expected[0][name] for name in expected.dtype.names if name != "rng"}

    def kernel_legal(self) -> list:
        n = game_legal_moves(self.record, self.data.kernel, 0, self._out)
        return [move_key(self._out[i], self.data) for i in range(n)]

    def accepts(self, move: Any) -> bool:
        return move_key(move, self.data) in set(self.reference.legal_actions())

    def kernel_step(self, move: Any) -> bool:
        return game_step(self.record, self.data.kernel, 0, move) == 0

    def seat_view(self, seat: int) -> Any:
        """Century hides only the decks' order: the public position and the legal moves."""
        return public_state(self.reference), sorted(self.reference.legal_actions())
