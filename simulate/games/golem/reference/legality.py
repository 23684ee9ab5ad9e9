"""Which actions are legal in the reference engine: one branch per decision, and the costs and fits it checks.

A mixin of :class:`~simulate.games.golem.reference.GolemReference`: its methods read and change the state's attributes.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from simulate.games.golem.codes import *
from simulate.games.golem.data import *


class Legality:
    """Which actions are legal: one branch per decision, and the costs and fits it checks."""

    def _legal(self, task: list[int], a: int) -> bool:  # noqa: C901 - one branch per decision
        kind, s, e, pa, pb, pc, px = task
        n = self.n
        D = Decision
        if kind == D.DRAFT:
            return a < len(self.hands[s])
        if kind == D.KEEP:
            return len(self.drafted[s]) > self.p["objectives_kept"] and a < len(self.drafted[s])
        if kind == D.ARTIFACT_TILE:
            return a < len(self.art_offer)
        if kind == D.START_TILES:
            return a < len(PAIRS) and PAIRS[a][1] < len(self.start_offer[s])
        if kind == D.PLACE_GOLEMS:
            return a < NUM_DISTRICT_OPTIONS
        if kind == D.IGNORE_CHAR:
            return a <= IGNORE_CHARACTER
        if kind == D.MOVE_STEP:
            return self._step_legal(s, a // 2, a % 2, False, a < MOVE_STEP_OPTIONS) and self.step_left > 0
        if kind == D.TURN:
            if a < MARBLE_OPTIONS:
                return self.marble_actions[s] < 2 and self.syn[a // 5][a % 5] > 0
            if a < PASS_ACTION:
                slot = a - RABBI_BASE
                if self.rabbi_done[s]:
                    return False
                if slot == PERM_SLOT:
                    return True
                return (
                    self.at_slots[slot] >= 0
                    and all(self.rabbi_slot[o] != slot for o in range(n))
                    and self.au_slot != slot
                )
            if a == PASS_ACTION:
                if self.pass_stage == 0:
                    return True
                return self.pass_stage == 1 and self.rules["second_pass"] == "final" and self.passes[s] == 1
            return False
        if kind == D.BLACK_MARBLE:
            return a < NUM_DISTRICT_OPTIONS
        if kind == D.WORK_COUNT:
            if a > MAX_WORK or a > self._standing_count(s, False):
                return False
            cost = 0 if a == 0 else max(0, self.p["work_costs"][a - 1] - pa)
            return self.res[s][KNOWLEDGE] >= cost
        if kind == D.ACTIVATE:
            if a == ACTIVATE_STOP:
                return True
            if a > ACTIVATE_STOP:
                return False
            if px >= 0 and a != px:
                return False
            return self.golem_loc[s][a] in (0, 1, 2) and self.standing[s][a] == 1 and not (pb and self.fresh[s][a])
        if kind == D.GOLEM_ACTION:
            if a < GA_CREATE:
                return not (pb & 1) and self._upgrade_legal(s, a, 0, 0)
            if a < GA_DONE:
                return not (pb & 2) and self._create_legal(s, a - GA_CREATE, 0)
            return a == GA_DONE
        if kind == D.ARTIFACT_ACTION:
            if a < ART_OPTIONS:
                return not (pb & 1) and self._upgrade_legal(s, UP_ART + a, 0, 0)
            if a == AA_BUY_GOLD:
                return not (pb & 2) and self.res[s][COIN] >= self.p["gold_price"] and self.gold_supply > 0
            return a == AA_DONE
        if kind == D.STUDY_ACTION:
            if a < STUDY_BUY:
                return not (pb & 1) and self._upgrade_legal(s, UP_STUDY + a, 0, 0)
            if a < STUDY_DONE:
                return not (pb & 2) and self._book_legal(s, (a - STUDY_BUY) // 4, (a - STUDY_BUY) % 4, 0, 0)
            return a == STUDY_DONE
        if kind == D.MIRROR:
            if a < NUM_ROW_OPTIONS:
                return not (pb & 1) and self.res[s][COIN] >= self.p["mirror_cost"]
            if a == MIRROR_STUDY:
                return (
                    not (pb & 2)
                    and self.res[s][COIN] >= self.p["mirror_study_cost"]
                    and self.study[s] < self.study_len - 1
                )
            return a == MIRROR_DONE
        if kind == D.CHARACTER:
            if a == CHARACTER_PAY:
                return self.res[s][COIN] >= int(self.t.ch_cost[self.palace[self.round]])
            return a == CHARACTER_COINS
        if kind in (D.UPGRADE, D.INCOME_UPGRADE):
            if a == UPGRADE_SKIP:
                return True
            if a > UPGRADE_SKIP:
                return False
            area = 1 if a < UP_STUDY else (2 if a < UP_ART else 4)
            return bool(pa & area) and self._upgrade_legal(s, a, pb, pc)
        if kind == D.CREATE:
            return a == CREATE_SKIP or (a < CREATE_SKIP and self._create_legal(s, a, pa))
        if kind == D.KILL:
            return a == KILL_SKIP or (a < KILL_SKIP and self.golem_loc[s][a] in (0, 1, 2))
        if kind == D.CEMETERY_SPACE:
            if a >= self.cemetery_len:
                return False
            if self.t.cem_unlimited[a]:
                return True
            return self.cemetery[a] < 0 and int(self.t.cem_min_players[a]) <= n
        if kind == D.STUDENT:
            return a == STUDENT_SKIP or (a < STUDENT_SKIP and self.student[s][a] < NUM_SECTIONS)
        if kind == D.GOLEM_STEP:
            if a == STEP_STOP:
                return True  # every bonus is optional: the player may stop moving
            if a > STEP_STOP:
                return False
            g, back, pay = a // 4, (a // 2) % 2, a % 2
            if px >= 0 and g != px:
                return False
            if back and not pa & 1:
                return False
            return self._step_legal(s, g, pay, bool(back), True)
        if kind == D.BOOK:
            return a == BOOK_SKIP or (a < BOOK_SKIP and self._book_legal(s, a // 4, a % 4, pa, pb))
        if kind == D.STUDENT_BACK:
            return a < NUM_DISTRICT_OPTIONS and self.student[s][a] > 1
        if kind == D.BOOK_BONUS:
            if a == BONUS_STOP:
                return True
            c, r = a // 5, a % 5
            return a < BONUS_STOP and r < len(self.col_books[s][c]) and not (pb >> a) & 1
        if kind == D.OBJECTIVE:
            return a < NUM_DRAWN_OPTIONS and self.drawn[a] >= 0
        if kind == D.TRACK:
            if a == TRACK_UP:
                return self.track[s] < self.track_len - 1
            if a == TRACK_DOWN:
                return self.track[s] > 0
            return a == TRACK_SKIP
        if kind == D.ARTIFACT_ACTIVATE:
            return a == ART_ACTIVATE_SKIP or (a < ART_ACTIVATE_SKIP and self.art_done[s][a] == 1)
        if kind == D.GOLD_PLACE:
            return a < NUM_ARTIFACT_OPTIONS and self._art_need(s, a) > 0
        if kind == D.CHOICE:
            return a < NUM_CHOICE_OPTIONS
        if kind == D.CONFIRM:
            return a == CONFIRM_NO or (a == CONFIRM_YES and self._confirm_ok(s, e, pa, pb, pc, px))
        if kind == D.COPY_TILE:
            return a == COPY_SKIP or (
                a < COPY_SKIP
                and self.golem_loc[s][a] in (0, 1, 2)
                and self.section_tile[self.golem_loc[s][a]][self.golem_sec[s][a]] >= 0
            )
        if kind == D.ANY_ACTION:
            return a < NUM_ROW_OPTIONS
        if kind == D.REMOVE_MARBLE:
            return a < MARBLE_OPTIONS and self.syn[a // 5][a % 5] > 0
        return False

    def _step_legal(self, s: int, g: int, pay: int, back: bool, in_range: bool) -> bool:
        """Golem ``g`` may take one step (forward, or back), paying with ``pay`` (1 Knowledge) where due."""
        if not in_range or g >= 6 or self.golem_loc[s][g] not in (0, 1, 2):
            return False
        sec = self.golem_sec[s][g]
        if back:
            return sec > 1 and pay == 0
        if sec >= NUM_SECTIONS:
            return False
        cost = int(self.t.street_entry[sec])  # entry cost of section sec + 1
        mode = self.rules["section_payment"]
        if cost == 0:
            return pay == 0
        if pay == 1:
            return mode != "vp" and self.res[s][KNOWLEDGE] >= cost
        return mode != "knowledge"  # R7: a Knowledge section is entered only by paying its Knowledge

    def _standing_count(self, s: int, fresh_ok: bool) -> int:
        return sum(
            1
            for g in range(6)
            if self.golem_loc[s][g] in (0, 1, 2) and self.standing[s][g] and (fresh_ok or not self.fresh[s][g])
        )

    def _create_legal(self, s: int, dist: int, discount: int) -> bool:
        return OFF_BOARD in self.golem_loc[s][2:] and self.res[s][CLAY] >= self._create_cost(s, dist, discount)

    def _create_cost(self, s: int, dist: int, discount: int) -> int:
        own = sum(1 for g in range(6) if self.golem_loc[s][g] == dist)
        return max(0, self.p["golem_cost"] + self.p["golem_extra_cost"] * own - discount)

    def _upgrade_cost(self, s: int, opt: int) -> tuple[int, int]:
        """(cost, resource) of upgrade option ``opt`` (UPGRADE numbering); cost -1 if not available."""
        t = self.t
        if opt < UP_STUDY:
            return (-1 if self.gdev[s][opt] else int(t.gdev_cost[opt])), CLAY
        if opt < UP_ART:
            return (-1 if self.sdev[s][opt - UP_STUDY] else int(t.sdev_cost[opt - UP_STUDY])), KNOWLEDGE
        k = opt - UP_ART
        if k == 0:
            return (-1 if self.adev_space[s][5] >= 0 else int(t.adev_cost[5])), COIN
        tile, space = (k - 1) // 8, ((k - 1) // 2) % 4
        if self.adev_space[s][tile] >= 0 or self.art_tile[s] < 0 or space in self.adev_space[s][:5]:
            return -1, COIN
        return int(t.art[self.art_tile[s], self.art_side[s], space, 6]), COIN

    def _upgrade_legal(self, s: int, opt: int, discount: int, any_res: int) -> bool:
        cost, r = self._upgrade_cost(s, opt)
        if cost < 0:
            return False
        due = max(0, cost - discount)
        return (sum(self.res[s]) if any_res else self.res[s][r]) >= due

    def _study_dev_bonus(self, s: int, what: str) -> int:
        """The Study-track Development's extra Books per column (``what`` "limit") or Knowledge income ("income")
        once upgraded (R18a), else 0."""
        t = self.t
        up = any(self.sdev[s][k] and t.sdev_effect[k] == E["study_track_bonus"] for k in range(NUM_STUDY_DEVS))
        return self.p[f"study_track_dev_{what}"] if up else 0

    def _book_price(self, s: int, pos: int, discount: int, free_card: int) -> int:
        b = self.library[pos]
        card = 0 if free_card or self.t.bk_colour[b] == BOOK_BLACK else int(self.t.bk_cost[b])
        return max(0, card + self.p["library_costs"][pos] - discount)

    def _book_legal(self, s: int, pos: int, col: int, discount: int, free_card: int) -> bool:
        if pos >= len(self.library) or col > 3:
            return False
        b = self.library[pos]
        if self.res[s][KNOWLEDGE] < self._book_price(s, pos, discount, free_card):
            return False
        if self.t.bk_colour[b] == BOOK_BLACK and max(self.student[s]) <= 1:
            return False
        return self._fits(s, b, col)

    def _fits(self, s: int, b: int, col: int) -> bool:
        books = self.col_books[s][col]
        limit = min(int(self.t.sd_limit[self.study[s]]) + self._study_dev_bonus(s, "limit"), self.p["max_study_column"])
        if col >= self.p["book_columns"] or len(books) >= limit:
            return False
        colour = int(self.t.bk_colour[b])
        if colour == BOOK_BLACK:
            return True
        here = self.col_colour[s][col]
        if here >= 0:
            return here == colour
        return all(self.col_colour[s][c] != colour for c in range(4))

    def _confirm_ok(self, s: int, e: int, a: int, b: int, c: int, x: int) -> bool:
        if e in (E["pay_for_vp"], E["pay_for_gold"], E["pay_for_students"], E["pay_for_study"], E["pay_for_vp_study"]):
            return 0 <= c < 3 and self.res[s][c] >= a
        if e == E["trade"]:
            return 0 <= c < 3 and self.res[s][c] >= a
        if e == E["student_back"]:
            return self.student[s][x] > 1
        if e == E["study_down_vp_student"]:
            return self.study[s] > 0
        return True

    def _art_need(self, s: int, k: int) -> int:
        if self.art_tile[s] < 0:
            return 0
        return int(self.t.art[self.art_tile[s], self.art_side[s], k, 0]) - self.art_gold[s][k]

    def _matches(self, s: int) -> bool:
        """Seat ``s``'s two marbles match the round's Character (white marbles are wild)."""
        if len(self.eyes[s]) < 2:
            return False
        c = self.palace[self.round]
        c1, c2 = int(self.t.ch_c1[c]), int(self.t.ch_c2[c])
        m1, m2 = self.eyes[s][0], self.eyes[s][1]

        def fits(m: int, want: int) -> bool:
            return m == want or m == WHITE

        return (fits(m1, c1) and fits(m2, c2)) or (fits(m1, c2) and fits(m2, c1))
