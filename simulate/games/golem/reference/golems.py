"""Golems in the reference engine: steps, overmoving, creating, killing, Income and Golem Control.

A mixin of :class:`~simulate.games.golem.reference.GolemReference`: its methods read and change the state's attributes.
"""

from __future__ import annotations

from simulate.games.golem.codes import CEMETERY, OFF_BOARD, T_AUTO, X_ACTIVATE_ART, Decision
from simulate.games.golem.data import CLAY, KNOWLEDGE, E


class Golems:
    """Golems: steps, overmoving, creating, killing, Income and Golem Control."""

    def _step_golem(self, s: int, g: int, pay: int, back: bool) -> None:
        self.last_stepped = g
        self.standing[s][g] = 1
        if back:
            self.golem_sec[s][g] -= 1
            return
        cost = int(self.t.street_entry[self.golem_sec[s][g]])
        self.golem_sec[s][g] += 1
        if cost:
            if pay:
                self._pay(s, KNOWLEDGE, cost)
            else:
                self.stats["vp_sections"][s] += self._lose_vp(s, cost)

    def _overmove(self, s: int) -> None:
        """End of a seat's Golem Movement: steps no Golem could use cost VP (all Golems in section X)."""
        left = self.step_left
        self.step_left = 0
        on_board = [g for g in range(6) if self.golem_loc[s][g] in (0, 1, 2)]
        if left <= 0 or not on_board:
            return
        per = self.p["overmove_penalty"] if self.rules["overmove"] == "five_per_step" else 1
        loss = min(left * per, self.p["overmove_penalty"] * len(on_board))
        self.stats["vp_overmove"][s] += self._lose_vp(s, loss)

    def _create(self, s: int, dist: int, discount: int) -> None:
        self._pay(s, CLAY, self._create_cost(s, dist, discount))
        g = self.golem_loc[s].index(OFF_BOARD, 2)
        self.golem_loc[s][g] = dist
        self.golem_sec[s][g] = 1
        self.standing[s][g] = 1
        self.fresh[s][g] = 1
        self.built[s] += 1
        self.track[s] = min(self.track_len - 1, self.track[s] + self.p["golem_track_create"])
        for k in range(4):
            if self._reactivates(s, k, E["reactivate_create_golem"]):
                self._push(T_AUTO, s, X_ACTIVATE_ART, k)
        if self._has_gdev(s, E["create_step_activate"]):
            # the Development's "may": one step, then the tile's effect without lying down, or not (R27)
            self._push(Decision.CONFIRM, s, E["create_step_activate"], dist, 0, 0, g)

    def _kill(self, s: int, g: int, space: int) -> None:
        self.golem_loc[s][g] = CEMETERY
        self.golem_sec[s][g] = 0
        if not self.t.cem_unlimited[space]:
            self.cemetery[space] = s
        self.cemetery_count[s] += 1
        self.killed[s] += 1
        self.track[s] = max(0, self.track[s] - self.p["golem_track_kill"])
        times = 2 if self._has_gdev(s, E["kill_double_cemetery"]) else 1
        bonus = [int(v) * times for v in self.t.cem_bonus[space]]
        for r in range(3):
            self.res[s][r] += bonus[r]
        self.vp[s] += bonus[4]
        if bonus[3]:
            self._gain_gold(s, bonus[3])

    def _activate(self, s: int, g: int, lie_down: bool) -> None:
        if lie_down:
            self.standing[s][g] = 0
        self._tile_effect(s, self.golem_loc[s][g], self.golem_sec[s][g])

    def _tile_effect(self, s: int, dist: int, sec: int) -> None:
        tile = self.section_tile[dist][sec]
        if tile < 0:
            return
        t = self.t
        self._effect(
            s,
            int(t.nb_effect[dist, tile]),
            int(t.nb_a[dist, tile]),
            int(t.nb_b[dist, tile]),
            int(t.nb_res[dist, tile]),
            dist,
        )

    def _income(self) -> None:
        """Income for every seat: Students, completed Artifacts, Study track, Golem track."""
        t = self.t
        for s in self.order:
            self._student_income(s)
            for k in range(4):
                if self.art_done[s][k]:
                    self._activate_artifact(s, k)
            self.res[s][KNOWLEDGE] += int(t.sd_income[self.study[s]]) + self._study_dev_bonus(s, "income")
            self.res[s][CLAY] += int(t.gt_clay[self.track[s]])
            self.vp[s] += int(t.gt_vp[self.track[s]])

    def _control(self) -> None:
        """Golem Control for every seat: Knowledge per section ahead; 5 VP per Golem not fully controlled."""
        for s in range(self.n):
            if self.free_control[s]:
                continue
            cap = 2 if self._has_gdev(s, E["control_cap_2"]) else 99
            costs = sorted(
                min(cap, max(0, self.golem_sec[s][g] - self.student[s][self.golem_loc[s][g]]))
                for g in range(6)
                if self.golem_loc[s][g] in (0, 1, 2)
            )
            unpaid = 0
            for c in costs:
                if self.res[s][KNOWLEDGE] >= c:
                    self.res[s][KNOWLEDGE] -= c
                    self.stats["know_control"][s] += c
                else:
                    unpaid += 1
            if unpaid:
                self.stats["know_control"][s] += self.res[s][KNOWLEDGE]
                self.res[s][KNOWLEDGE] = 0
                self.stats["vp_control"][s] += self._lose_vp(s, unpaid * self.p["control_penalty"])
