"""golem-poker in both engines at once, for the conformance check's move-by-move comparison
(``simulate.conformance.compare_moves``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulate.gamekit import Twin
from simulate.games.golem_poker.data import P_ACE_HIGH, PokerData
from simulate.games.golem_poker.engine import game_init, game_ranges, game_step
from simulate.games.golem_poker.evaluator import eval5
from simulate.games.golem_poker.reference import GolemPokerReference, public_state
from simulate.games.golem_poker.state import DRAW, new_state


class GolemPokerTwin(Twin):
    """The kernel's record and the reference of one game; the views hold the fields the reference's ``to_arrays``
    names (``rng0``: the first word of the record's ``rng``, the deck's shuffle stream)."""

    def __init__(self, d: PokerData, num_players: int, setup_seed: int, play_seed: int) -> None:
        st = new_state(1)
        game_init(st, d.kernel, 0, num_players, np.uint64(setup_seed), np.uint64(play_seed))
        super().__init__(st, GolemPokerReference(d, num_players, setup_seed))
        self.data, self._out = d, np.zeros(6, np.int64)

    def kernel_view(self) -> dict[str, Any]:
        rec = self.record[0]
        return {name: rec["rng"][:1] if name == "rng0" else rec[name] for name in self.reference.to_arrays()}

    def kernel_legal(self) -> list:
        """The kernel's legal ranges as the reference's keys: each discard set, or fold, match, bet and raise with
        their bounds."""
        out = self._out
        game_ranges(self.record, self.data.kernel, 0, out)
        if self.record[0]["phase"] == DRAW:
            return [("discard", m) for m in range(32) if bin(m).count("1") <= out[5]]
        keys: list[tuple] = [("fold",)]
        if out[0]:
            keys.append(("match",))
        if out[1] <= out[2]:
            keys.append(("bet", int(out[1]), int(out[2])))
        if out[3] <= out[4]:
            keys.append(("raise", int(out[3]), int(out[4])))
        return keys

    def accepts(self, move: Any) -> bool:
        return bool(self.reference.is_legal(move))

    def kernel_step(self, move: Any) -> bool:
        return game_step(self.record, self.data.kernel, 0, move) == 0

    def seat_view(self, seat: int) -> Any:
        """The public position (hands counted), the seat's own hand and its legal moves."""
        g = self.reference
        return public_state(g), list(g.hand[seat]), g.legal_actions()

    def hidden_variant(self, rng: np.random.Generator) -> np.ndarray:
        """The record with every card the seat to move has not seen dealt anew: the other seats' hands and their
        discards in the pile trade places at random with the undealt deck, their hand values follow, the dealing
        stream (``rng[0]``) is drawn anew; the seat's own hand and discards and the bots' stream stay."""
        other = self.record.copy()
        r = other[0]
        seat, n = int(r["current"]), int(r["num_players"])
        hands, pile, owner = r["hand"], r["pile"], r["pile_owner"]
        places = [(hands, (o, k)) for o in range(n) if o != seat and hands[o, 0] >= 0 for k in range(hands.shape[1])]
        places += [(pile, (i,)) for i in range(int(r["pile_n"])) if owner[i] != seat]
        dealt = [int(a[i]) for a, i in places]
        pos = int(r["deck_pos"])
        cards = rng.permutation(dealt + r["deck"][pos:].tolist())
        for (a, i), c in zip(places, cards, strict=False):
            a[i] = c
        swap = dict(zip(dealt, cards[: len(dealt)].tolist(), strict=True))
        r["deck"][:pos] = [swap.get(int(c), int(c)) for c in r["deck"][:pos]]
        r["deck"][pos:] = cards[len(dealt) :]
        ace = bool(self.data.kernel[0]["params"][P_ACE_HIGH])
        for o in range(n):
            if o != seat and hands[o, 0] >= 0:
                r["value"][o] = eval5(*(int(c) for c in hands[o]), ace)
        r["rng"][0] = rng.integers(1, 2**63, dtype=np.uint64)
        return other
