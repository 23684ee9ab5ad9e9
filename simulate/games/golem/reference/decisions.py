"""Resolving a decision in the reference engine: one branch per decision, a main action, the Automa's turn.

A mixin of :class:`~simulate.games.golem.reference.GolemReference`: its methods read and change the state's attributes.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from simulate.games.golem.codes import *
from simulate.games.golem.data import *


class Decisions:
    """Resolving a decision: one branch per decision, a main action, the Automa's turn."""

    def _menu_again(self, kind: int, s: int, pa: int, pb: int, a: int, done: int, second: int) -> bool:
        """Option ``a`` of a two-part action's menu ``kind``: False when it is ``done``; else the menu is asked again
        after it, its ``pb`` marking the part taken (1: an option below ``second``, 2: one from ``second`` on)."""
        if a == done:
            return False
        self._push(kind, s, 0, pa, pb | (1 if a < second else 2))
        return True

    def _resolve(self, task: list[int], a: int) -> None:  # noqa: C901 - one branch per decision
        kind, s, e, pa, pb, pc, px = task
        D = Decision
        t = self.t
        if kind == D.DRAFT:
            self.drafted[s].append(self.hands[s].pop(a))
        elif kind == D.KEEP:
            self.ob_deck.append(self.drafted[s].pop(a))
            self.objectives[s] = list(self.drafted[s])
        elif kind == D.ARTIFACT_TILE:
            self.art_tile[s], self.art_side[s] = self.art_offer.pop(a)
        elif kind == D.START_TILES:
            for k in PAIRS[a]:
                self._take_start(s, self.start_offer[s][k])
        elif kind == D.PLACE_GOLEMS:
            g = 0
            for dist in range(NUM_DISTRICT_OPTIONS):
                if dist != a:
                    self.golem_loc[s][g] = dist
                    self.golem_sec[s][g] = 1
                    g += 1
        elif kind == D.IGNORE_CHAR:
            if a == IGNORE_CHARACTER:
                self.step_left -= int(t.ch_move[self.palace[self.round]])
        elif kind == D.MOVE_STEP:
            self._step_golem(s, a // 2, a % 2, False)
            self.step_left -= 1
            if self.step_left > 0:
                self._push(D.MOVE_STEP, s)
        elif kind == D.TURN:
            self._turn(s, a)
        elif kind == D.BLACK_MARBLE:
            for dist in range(NUM_DISTRICT_OPTIONS):
                if dist != a:
                    self._move_student(s, dist, 1)
        elif kind == D.WORK_COUNT:
            if a:
                self._pay(s, KNOWLEDGE, max(0, self.p["work_costs"][a - 1] - pa))
            extra = 1 if self._has_gdev(s, E["activate_work_extra"]) else 0
            if a + extra:
                self._push(D.ACTIVATE, s, 0, a + extra, 1, 0, -1)
        elif kind == D.ACTIVATE:
            if a < ACTIVATE_STOP:
                if pa > 1:
                    self._push(D.ACTIVATE, s, 0, pa - 1, pb, pc, px)
                self._activate(s, a, True)
        elif kind == D.GOLEM_ACTION:
            if self._menu_again(D.GOLEM_ACTION, s, 0, pb, a, GA_DONE, GA_CREATE):
                if a < GA_CREATE:
                    self._upgrade(s, a, 0, 0)
                else:
                    self._create(s, a - GA_CREATE, 0)
        elif kind == D.ARTIFACT_ACTION:
            if self._menu_again(D.ARTIFACT_ACTION, s, 0, pb, a, AA_DONE, ART_OPTIONS):
                if a < ART_OPTIONS:
                    self._upgrade(s, UP_ART + a, 0, 0)
                else:
                    self._pay(s, COIN, self.p["gold_price"])
                    self._gain_gold(s, 1)
        elif kind == D.STUDY_ACTION:
            if self._menu_again(D.STUDY_ACTION, s, 0, pb, a, STUDY_DONE, STUDY_BUY):
                if a < STUDY_BUY:
                    self._upgrade(s, UP_STUDY + a, 0, 0)
                else:
                    self._buy_book(s, (a - STUDY_BUY) // 4, (a - STUDY_BUY) % 4, 0, 0)
        elif kind == D.MIRROR:
            if self._menu_again(D.MIRROR, s, pa, pb, a, MIRROR_DONE, MIRROR_STUDY):
                if a < MIRROR_STUDY:
                    self._pay(s, COIN, self.p["mirror_cost"])
                    self._row_action(s, a, pa)
                else:
                    self._pay(s, COIN, self.p["mirror_study_cost"])
                    self._study_up(s, 1)
        elif kind == D.CHARACTER:
            c = self.palace[self.round]
            if a == CHARACTER_PAY:
                self._pay(s, COIN, int(t.ch_cost[c]))
                self._effect(s, int(t.ch_effect[c]), int(t.ch_a[c]), int(t.ch_b[c]), -1, 0)
            else:
                self.res[s][COIN] += self.p["character_coins"]
        elif kind in (D.UPGRADE, D.INCOME_UPGRADE):
            if a != UPGRADE_SKIP:
                self._upgrade(s, a, pb, pc)
        elif kind == D.CREATE:
            if a < CREATE_SKIP:
                self._create(s, a, pa)
        elif kind == D.KILL:
            if a < KILL_SKIP:
                self._push(D.CEMETERY_SPACE, s, 0, a)
        elif kind == D.CEMETERY_SPACE:
            self._kill(s, pa, a)
        elif kind == D.STUDENT:
            if a < STUDENT_SKIP:
                self._move_student(s, a, 1)
        elif kind == D.GOLEM_STEP:
            if a == STEP_STOP:
                return
            g, back, pay = a // 4, (a // 2) % 2, a % 2
            self._step_golem(s, g, pay, bool(back))
            if pb > 1:
                self._push(D.GOLEM_STEP, s, 0, pa, pb - 1, pc, -1 if px == -1 else g)
        elif kind == D.BOOK:
            if a < BOOK_SKIP:
                self._buy_book(s, a // 4, a % 4, pa, pb)
        elif kind == D.STUDENT_BACK:
            self.student[s][a] -= 1
        elif kind == D.BOOK_BONUS:
            if a < BONUS_STOP:
                if pa > 1:
                    self._push(D.BOOK_BONUS, s, 0, pa - 1, pb | (1 << a))
                b = self.col_books[s][a // 5][a % 5]
                self._book_effect(s, b, 1)
        elif kind == D.OBJECTIVE:
            self.objectives[s].append(self.drawn[a])
            other = self.drawn[1 - a]
            if other >= 0:
                self.ob_deck.append(other)
            self.drawn = [-1, -1]
        elif kind == D.TRACK:
            if a < TRACK_SKIP:
                self.track[s] += 1 if a == TRACK_UP else -1
        elif kind == D.ARTIFACT_ACTIVATE:
            if a < ART_ACTIVATE_SKIP:
                self._activate_artifact(s, a)
        elif kind == D.GOLD_PLACE:
            self.art_gold[s][a] += 1
            if self._art_need(s, a) == 0:
                self.art_done[s][a] = 1
                self._activate_artifact(s, a)
        elif kind == D.CHOICE:
            self.res[s][a] += pa
        elif kind == D.CONFIRM:
            if a == CONFIRM_YES:
                self._confirmed(s, e, pa, pb, pc, px)
        elif kind == D.COPY_TILE:
            if a < COPY_SKIP:
                self._tile_effect(s, self.golem_loc[s][a], self.golem_sec[s][a])
        elif kind == D.ANY_ACTION:
            self._row_action(s, a, pa)
        elif kind == D.REMOVE_MARBLE:
            self.syn[a // 5][a % 5] -= 1

    def _turn(self, s: int, a: int) -> None:
        """A main action: a marble, the Rabbi, or a pass."""
        if a == PASS_ACTION:
            self.passes[s] += 1
            self.act_count[s][ACT_PASS] += 1
            if not self.pass_tile[s]:
                self.pass_tile[s] = 1 + sum(1 for o in range(self.n) if self.pass_tile[o])
            return
        self.actions[s] += 1
        self._push(T_AUTO, s, X_END_ACTION)
        if a < MARBLE_OPTIONS:
            row, colour = a // 5, a % 5
            value = sum(self.syn[row])
            self.syn[row][colour] -= 1
            self.eyes[s].append(colour)
            self.marble_actions[s] += 1
            self.act_count[s][row] += 1
            self._push(T_AUTO, s, X_ROW_ACTION, row, value)
            for k in range(4):  # golden Artifact developments reactivated by this marble's colour
                if colour in (RED, BLUE) and self._reactivates(
                    s, k, E["reactivate_red_marble"] if colour == RED else E["reactivate_blue_marble"]
                ):
                    self._push(T_AUTO, s, X_ACTIVATE_ART, k)
            if colour < 3:
                self._move_student(s, colour, 1)
            elif colour == BLACK:
                self._push(Decision.BLACK_MARBLE, s)
            return
        slot = a - RABBI_BASE
        self.rabbi_done[s] = 1
        self.act_count[s][ACT_RABBI] += 1
        if slot == PERM_SLOT:
            self.perm_queue.append(s)
            self.rabbi_slot[s] = PERM_SLOT
            tile = NUM_ACTION_TILES
        else:
            self.rabbi_slot[s] = slot
            tile = self.at_slots[slot]
        self._effect(s, int(self.t.at_effect[tile]), int(self.t.at_a[tile]), int(self.t.at_b[tile]), -1, 0)

    def _automa_turn(self) -> None:
        """One action of the solo Automa, as its card for the round says (RULINGS R33-R34)."""
        t = self.t
        card = self.au_deck[self.round]
        self.au_actions += 1
        if self.au_actions == int(t.au_rabbi_turn[card]):
            free = [
                k for k in range(5) if self.at_slots[k] >= 0 and all(self.rabbi_slot[s] != k for s in range(self.n))
            ]
            if not free:
                self.au_slot = PERM_SLOT
            else:
                self.au_slot = free[0] if t.au_rabbi_top[card] else free[-1]
            where = "the permanent space" if self.au_slot == PERM_SLOT else f"action tile {self._tile_id(self.au_slot)}"
            self._automa_gauge(self.p["automa_rabbi_gauge"])
            self.au_log.append((self.round + 1, f"Rabbi on {where}; gauge {self.au_gauge}, VP {sum(self.au_vp)}"))
            return
        # a marble from the fullest row (ties: the card's row order), colour by the card's colour order
        row, value = -1, 0
        for k in range(5):
            r = int(t.au_rows[card, k])
            if sum(self.syn[r]) > value:
                row, value = r, sum(self.syn[r])
        if row < 0:
            return
        colour = next(int(c) for c in t.au_colours[card] if self.syn[row][c] > 0)
        self.syn[row][colour] -= 1
        self.au_eyes.append(colour)
        focus = row == int(t.au_focus[self.au_strategy])
        self._automa_gauge(value + (int(t.au_bonus[self.au_strategy]) if focus else 0))
        text = f"marble {MARBLES[colour]} from {ROWS[row]} (value {value}); gauge {self.au_gauge}, VP {sum(self.au_vp)}"
        self.au_log.append((self.round + 1, text))

    def _tile_id(self, slot: int) -> str:
        return self.d.action_ids[self.at_slots[slot]]

    def _automa_gauge(self, steps: int) -> None:
        """The Automa's Resource marker moves up ``steps``; each threshold reached scores both its tiles."""
        t = self.t
        for _ in range(steps):
            self.au_gauge += 1
            k = self.au_next
            if self.au_gauge < int(t.au_thresholds[k]):
                continue
            self.au_vp[0] += int(t.au_vp[0, k])
            self.au_vp[1] += int(t.au_vp[1 + self.au_strategy, k])
            self.au_next = k + 1
            if self.au_next == len(t.au_thresholds):  # the last threshold: back to the start of the gauge
                self.au_next = 0
                self.au_gauge = 0
                self.au_laps += 1

    def _row_action(self, s: int, row: int, value: int) -> None:
        if row == WORK:
            self._push(Decision.WORK_COUNT, s, 0, value)
        elif row == GOLEM_ROW:
            self.res[s][CLAY] += value
            self._push(Decision.GOLEM_ACTION, s)
        elif row == ARTIFACTS:
            self.res[s][COIN] += value
            self._push(Decision.ARTIFACT_ACTION, s)
        elif row == STUDY_ROW:
            self.res[s][KNOWLEDGE] += value
            self._push(Decision.STUDY_ACTION, s)
        elif row == MIRROR:
            self._push(Decision.MIRROR, s, 0, value)
