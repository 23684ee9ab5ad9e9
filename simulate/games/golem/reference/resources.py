"""Resources, Gold, tracks and Students of one seat in the reference engine: the small state changes.

A mixin of :class:`~simulate.games.golem.reference.GolemReference`: its methods read and change the state's attributes.
"""

from __future__ import annotations

from simulate.games.golem.codes import T_AUTO, X_GOLD_PIECE, Decision
from simulate.games.golem.data import GOLD, NUM_SECTIONS, STUDY, VP


class Resources:
    """Resources, Gold, tracks and Students of one seat: the small state changes every rule uses."""

    def _gain(self, s: int, r: int, amount: int) -> None:
        if r < 0 or amount <= 0:
            return
        if r < 3:
            self.res[s][r] += amount
        elif r == GOLD:
            self._gain_gold(s, amount)
        elif r == VP:
            self.vp[s] += amount
        elif r == STUDY:
            self._study_up(s, amount)

    def _pay(self, s: int, r: int, amount: int) -> None:
        if self.res[s][r] < amount:
            raise RuntimeError("payment exceeds the resource held")
        self.res[s][r] -= amount

    def _lose_vp(self, s: int, amount: int) -> int:
        """Lose up to ``amount`` VP (stopping at 0 under vp_floor = zero); returns the VP lost."""
        lost = min(amount, self.vp[s]) if self.rules["vp_floor"] == "zero" else amount
        self.vp[s] -= lost
        return lost

    def _gain_gold(self, s: int, amount: int) -> None:
        """Take ``amount`` Gold, one piece at a time (see ``_gold_piece``)."""
        for _ in range(amount):
            self._push(T_AUTO, s, X_GOLD_PIECE)

    def _gold_piece(self, s: int) -> None:
        """One Gold from the supply onto an unfinished cauldron (the player's choice), or aside if all are full."""
        if self.gold_supply == 0:
            return
        self.gold_supply -= 1
        if any(self._art_need(s, k) > 0 for k in range(4)):
            self._push(Decision.GOLD_PLACE, s)
        else:
            self.loose_gold[s] += 1

    def _study_up(self, s: int, steps: int) -> None:
        self.study[s] = min(self.study_len - 1, self.study[s] + steps)

    def _move_student(self, s: int, dist: int, steps: int) -> None:
        for _ in range(steps):
            if self.student[s][dist] >= NUM_SECTIONS:
                return
            self.student[s][dist] += 1
            if self.student[s][dist] == self.p["menorah_section"] and self.tokens[dist] < 0:
                self.tokens[dist] = s

    def _level(self, s: int) -> int:
        return int(self.t.gt_level[self.track[s]])

    def _dev(self, effect: int) -> int:
        """Golem Development tile index carrying ``effect`` (-1 if none)."""
        for k in range(6):
            if self.t.gdev_effect[k] == effect:
                return k
        return -1

    def _has_gdev(self, s: int, effect: int) -> bool:
        """Seat ``s`` has flipped the Golem Development carrying ``effect``."""
        k = self._dev(effect)
        return k >= 0 and self.gdev[s][k] == 1

    def _reactivates(self, s: int, k: int, effect: int) -> bool:
        """Artifact ``k`` is complete and carries a golden tile showing ``effect``."""
        if not self.art_done[s][k]:
            return False
        for tile in range(5):
            if self.adev_space[s][tile] == k and self.t.adev_effect[tile, self.adev_side[s][tile]] == effect:
                return True
        return False

    def _take_start(self, s: int, tile: int) -> None:
        v = [int(x) for x in self.t.start_tiles[tile]]
        for r in range(3):
            self.res[s][r] += v[r]
        self.vp[s] += v[4]
        self._study_up(s, v[5])
        for dist in range(3):
            self._move_student(s, dist, v[6 + dist])
        self.kept_starts[s].append(tile)
        if v[3]:
            self._gain_gold(s, v[3])

    def _draw_objectives(self, s: int, count: int) -> None:
        self.drawn = [-1, -1]
        for k in range(min(count, 2, len(self.ob_deck))):
            self.drawn[k] = self.ob_deck.pop(0)
        if self.drawn[0] >= 0:
            self._push(Decision.OBJECTIVE, s)

    def _student_income(self, s: int) -> None:
        for dist in range(3):
            sec = self.student[s][dist] - 1
            self.res[s][dist] += int(self.t.street_res[sec])
            self.vp[s] += int(self.t.street_vp[sec])
