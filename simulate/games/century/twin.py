"""Century in both engines at once, for the conformance check's move-by-move comparison
(``simulate.conformance.compare_moves``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulate.gamekit import Twin
from simulate.games.century.data import P_CARAVAN_LIMIT, P_COINS_PER_PLAYER, CenturyData
from simulate.games.century.engine import game_init, game_legal_moves, game_step
from simulate.games.century.reference import CenturyReference, move_key, public_state
from simulate.games.century.state import MAX_MOVES, MOVE_LEN, PLAYED, new_state


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

    def invariants(self) -> list[str]:
        """Crystals within 0 and the caravan limit; every merchant and point card in exactly one place; starting
        cards never lost; claimed VP, coins and card states consistent."""
        return century_invariants(self.record[0], self.data.tables, int(self.record[0]["num_players"]))

    def seat_view(self, seat: int) -> Any:
        """Century hides only the decks' order: the public position and the legal moves."""
        return public_state(self.reference), sorted(self.reference.legal_actions())


def century_invariants(rec: np.void, tb: Any, n: int) -> list[str]:
    """The invariants :meth:`CenturyTwin.invariants` checks, of one game record (``tb``: the card tables)."""
    limit = int(tb.params[P_CARAVAN_LIMIT])
    crystals = rec["crystals"]
    checks = [
        ((crystals >= 0).all(), "a crystal count is negative"),
        ((crystals[:n].sum(axis=1) <= limit).all(), "a caravan holds more than the limit"),
        ((crystals[n:] == 0).all(), "a seat beyond the players holds crystals"),
    ]
    market = tb.market_cards.tolist()
    deck = rec["m_deck"][rec["m_deck_pos"] : len(market)].tolist()
    row = [int(c) for c in rec["m_row"] if c >= 0]
    owned = [m for m in market if (rec["cards"][:n, m] != 0).any()]
    checks += [
        (sorted(deck + row + owned) == sorted(market), "a merchant card is in no place or in two"),
        (all((rec["cards"][:n, m] != 0).sum() <= 1 for m in market), "a merchant card is held by two seats"),
        (all(rec["cards"][s, c] != 0 for s in range(n) for c in tb.start_cards), "a starting card is lost"),
    ]
    p_deck = rec["p_deck"][rec["p_deck_pos"] : len(tb.p_vp)].tolist()
    p_row = [int(c) for c in rec["p_row"] if c >= 0]
    claimed = np.flatnonzero(rec["p_owner"] >= 0).tolist()
    checks.append((sorted(p_deck + p_row + claimed) == list(range(len(tb.p_vp))), "a point card is lost or doubled"))
    for s in range(n):
        mine = np.flatnonzero(rec["p_owner"] == s)
        checks.append(
            (rec["num_points"][s] == len(mine) and rec["point_vp"][s] == tb.p_vp[mine].sum(), f"seat {s}'s points")
        )
    coins = int(tb.params[P_COINS_PER_PLAYER]) * n
    checks += [
        (rec["copper_left"] + rec["copper"][:n].sum() == coins, "copper coins are not conserved"),
        (rec["silver_left"] + rec["silver"][:n].sum() == coins, "silver coins are not conserved"),
        (rec["copper_left"] >= 0 and rec["silver_left"] >= 0, "a coin supply is negative"),
        (np.isin(rec["cards"][:n], (0, 1, PLAYED)).all(), "a card state is not 0, in hand or played"),
    ]
    nm, nk, npt = len(tb.m_kind), len(market), len(tb.p_vp)
    spare = [rec["cards"][:, nm:], rec["owned"][:, nm:] + 1, rec["m_turn"][nm:] + 1, rec["m_deck"][nk:] + 1]
    spare += [rec["p_deck"][npt:] + 1, rec["p_turn"][npt:] + 1, rec["p_owner"][npt:] + 1]
    checks.append((not any(a.any() for a in spare), "a slot past the end of a deck is not empty"))
    return [problem for ok, problem in checks if not ok]
