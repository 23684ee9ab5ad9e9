"""The effect table of the reference engine: what a tile, Character, Book or development does.

A mixin of :class:`~simulate.games.golem.reference.GolemReference`: its methods read and change the state's attributes.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from simulate.games.golem.codes import *
from simulate.games.golem.data import *


class Effects:
    """The effect table: what a tile, Character, Book or development does, and its confirmed options."""

    def _effect(self, s: int, e: int, a: int, b: int, c: int, x: int) -> None:
        """Apply effect ``e`` (data codes ``E``, internal ``X_*``) for seat ``s``; may push decisions."""
        if e == E["none"] or e == E["plain"]:
            return
        if e >= X_BASE:
            ok = self._internal_step(s, e, a, b, c)
        else:
            ok = self._golem_effect(s, e, a, b, c) or self._resource_effect(s, e, a, b, c, x)
        if not ok:
            raise ValueError(f"effect {EFFECTS[e] if e < len(EFFECTS) else e} has no rule here")

    def _golem_effect(self, s: int, e: int, a: int, b: int, c: int) -> bool:  # noqa: C901 - the Golem part of the effect table
        """Apply effect ``e`` if it moves, creates, kills, activates or develops; False if not one."""
        D = Decision
        auto = self._auto
        if e == E["golem_track"]:
            for _ in range(max(1, a)):
                self._push(D.TRACK, s)
        elif e == E["kill_golem"]:
            self._push(D.KILL, s)
        elif e == E["upgrade"]:
            self._push(D.UPGRADE, s, 0, 7, a, 0)
        elif e == E["create_golem"]:
            self._push(D.CREATE, s, 0, a)
        elif e == E["kill_vp_per_level"]:
            self._seq(s, [(D.KILL, 0), auto(X_VP_PER_LEVEL, a)])
        elif e == E["upgrade_golem"]:
            self._push(D.UPGRADE, s, 0, 1, a, 0)
        elif e == E["create_golem_vp_per_level"]:
            self._seq(s, [(D.CREATE, 0, a), auto(X_VP_PER_LEVEL, b)])
        elif e == E["upgrade_artifact"]:
            self._push(D.UPGRADE, s, 0, 4, a, 0)
        elif e == E["kill_gain"]:
            self._seq(s, [(D.KILL, 0), auto(X_GAIN, a, 0, c)])
        elif e == E["activate_artifact"]:
            for _ in range(max(1, a)):
                self._push(D.ARTIFACT_ACTIVATE, s)
        elif e == E["upgrade_study"]:
            self._push(D.UPGRADE, s, 0, 2, a, 0)
        elif e == E["clay_create_move"]:
            self.res[s][CLAY] += a
            self._seq(s, [(D.CREATE, 0, 0), (D.GOLEM_STEP, 0, 1, max(1, b), 1, -1)])
        elif e == E["kill_vp_clay_per_cemetery"]:
            self._seq(s, [(D.KILL, 0), auto(X_VP_CEMETERY, a, b)])
        elif e == E["upgrade_any_resources"]:
            self._push(D.UPGRADE, s, 0, 7, a, 1)
        elif e == E["move_activate_free_control"]:
            self.free_control[s] = 1
            self.last_stepped = -1
            # the first step picks the golem (x = -2: any golem, then that golem only)
            self._seq(s, [(D.GOLEM_STEP, 0, 0, a, 1, -2), auto(X_ACTIVATE_GOLEM)])
        elif e == E["move_two_activate"]:
            self._seq(s, [(D.GOLEM_STEP, 0, 1, a, 1, -1), (D.ACTIVATE, 0, max(1, b), 0, 0, -1)])
        elif e == E["copy_tile"]:
            self._push(D.COPY_TILE, s)
        elif e == E["upgrade_any_vp"]:
            self.vp[s] += b
            self._push(D.UPGRADE, s, 0, 7, a, 1)
        elif e == E["golem_step_activate"]:
            self._seq(s, [(D.GOLEM_STEP, 0, 1, max(1, a), 0, -1), (D.ACTIVATE, 0, max(1, b), 0, 0, -1)])
        elif e == E["create_golem_red_student"]:
            self._seq(s, [(D.CREATE, 0, a), auto(X_STUDENT, b, 0, RED)])
        elif e == E["kill_vp_per_cemetery"]:
            self._seq(s, [(D.KILL, 0), auto(X_VP_CEMETERY, a, 0)])
        # internal steps
        else:
            return False
        return True

    def _resource_effect(self, s: int, e: int, a: int, b: int, c: int, x: int) -> bool:  # noqa: C901 - the rest of the effect table
        """Apply effect ``e`` if it gains, trades, moves Students or the Study track, or buys Books; else False."""
        D = Decision
        auto = self._auto
        if e == E["gain"]:
            self._gain(s, c, a)
        elif e == E["choice"]:
            self._push(D.CHOICE, s, 0, a)
        elif e in (
            E["trade"],
            E["pay_for_vp"],
            E["pay_for_gold"],
            E["pay_for_students"],
            E["pay_for_study"],
            E["pay_for_vp_study"],
            E["student_back"],
            E["study_down_vp_student"],
        ):
            self._push(D.CONFIRM, s, e, a, b, c, x)
        elif e == E["study_up"]:
            self._study_up(s, a)
        elif e == E["student_district"]:
            self._move_student(s, c, max(1, a))
        elif e == E["student_any"]:
            for _ in range(a):
                self._push(D.STUDENT, s)
        elif e == E["objective_gain"]:
            self._gain(s, c, b)
            self._draw_objectives(s, a)
        elif e == E["student_income"]:
            self._student_income(s)
        elif e == E["buy_book"]:
            self._push(D.BOOK, s, 0, a, 0)
        elif e == E["book_bonuses"]:
            self._push(D.BOOK_BONUS, s, 0, a, 0)
        # Action tiles
        elif e == E["track_vp_knowledge"]:
            self._seq(s, [(D.TRACK, 0), auto(X_VP_PER_LEVEL, a), auto(X_KNOW_PER_LEVEL, b)])
        elif e == E["gold_vp_per_artifact"]:
            self._seq(s, [auto(X_GOLD, a), auto(X_VP_PER_ARTIFACT, b)])
        elif e == E["buy_book_free_card"]:
            self._push(D.BOOK, s, 0, a, 1)
        elif e == E["study_book_bonus"]:
            self._study_up(s, a)
            self._push(D.BOOK_BONUS, s, 0, max(1, b), 0)
        elif e == E["resources_objective"]:
            for r in (CLAY, COIN, KNOWLEDGE):
                self.res[s][r] += a
            self._draw_objectives(s, b)
        elif e == E["student_vp_leftmost"]:
            self._seq(s, [(D.STUDENT, 0), auto(X_VP_LEFTMOST, b)])
        elif e == E["any_marble_action"]:
            self._push(D.ANY_ACTION, s, 0, a)
        # Characters
        elif e == E["gain_gold"]:
            self._gain_gold(s, a)
        elif e == E["study_blue_student"]:
            self._study_up(s, a)
            self._move_student(s, BLUE, b)
        elif e == E["gold_yellow_student"]:
            self._seq(s, [auto(X_GOLD, a), auto(X_STUDENT, b, 0, YELLOW)])
        elif e == E["vp_per_development"]:
            self.vp[s] += a * self.devs_flipped(s)
        elif e == E["vp_times_leftmost"]:
            self.vp[s] += a * min(self.student[s])
        elif e == E["vp_per_track_level"]:
            self.vp[s] += a * self._level(s)
        elif e == E["vp_buy_book"]:
            self.vp[s] += a
            self._push(D.BOOK, s, 0, b, 0)
        else:
            return False
        return True

    def _internal_step(self, s: int, e: int, a: int, b: int, c: int) -> bool:  # noqa: C901 - one branch per step
        """Apply internal step ``e`` (an ``X_*`` code the engine pushes); False if not one."""
        D = Decision
        if e == X_VP_PER_LEVEL:
            self.vp[s] += a * self._level(s)
        elif e == X_KNOW_PER_LEVEL:
            self.res[s][KNOWLEDGE] += a * self._level(s)
        elif e == X_VP_CEMETERY:
            self.vp[s] += a * self.cemetery_count[s]
            self.res[s][CLAY] += b * self.cemetery_count[s]
        elif e == X_VP_LEFTMOST:
            self.vp[s] += max(1, a) * min(self.student[s])
        elif e == X_VP_PER_ARTIFACT:
            self.vp[s] += a * sum(self.art_done[s])
        elif e == X_ROW_ACTION:
            self._row_action(s, a, b)
        elif e == X_STUDENT:
            self._move_student(s, c, a)
        elif e == X_GAIN:
            self._gain(s, c, a)
        elif e == X_ACTIVATE_ART:
            self._activate_artifact(s, a)
        elif e == X_END_ACTION:
            self.fresh[s] = [0] * 6
        elif e == X_ACTIVATE_GOLEM:  # the Golem moved, or with no step taken any standing Golem (R37)
            g = self.last_stepped
            if g < 0:
                self._push(D.ACTIVATE, s, 0, 1, 0, 0, -1)
            elif self.golem_loc[s][g] in (0, 1, 2) and self.standing[s][g]:
                self._push(D.ACTIVATE, s, 0, 1, 0, 0, g)
        elif e == X_GOLD:
            self._gain_gold(s, a)
        elif e == X_GOLD_PIECE:
            self._gold_piece(s)
        elif e == X_OVERMOVE:
            self._overmove(s)
        elif e == X_REDROP:
            self._redrop()
        elif e == X_AFTER_BOOK:
            self._after_book(s, a, b)
        elif e == X_TILE:
            self._tile_effect(s, a, b)
        else:
            return False
        return True

    def _confirmed(self, s: int, e: int, a: int, b: int, c: int, x: int) -> None:
        """An optional effect with a cost or drawback, accepted."""
        if e == E["trade"]:
            self._pay(s, c, a)
            self._gain(s, x, b)
        elif e == E["pay_for_vp"]:
            self._pay(s, c, a)
            self.vp[s] += b
        elif e == E["pay_for_gold"]:
            self._pay(s, c, a)
            self._gain_gold(s, b)
        elif e == E["pay_for_students"]:
            self._pay(s, c, a)
            for _ in range(b):
                self._push(Decision.STUDENT, s)
        elif e == E["pay_for_study"]:
            self._pay(s, c, a)
            self._study_up(s, b)
        elif e == E["pay_for_vp_study"]:
            self._pay(s, c, a)
            self.vp[s] += b
            self._study_up(s, 1)
        elif e == E["student_back"]:
            self.student[s][x] -= 1
            self.vp[s] += a
            self._gain(s, c, b)
        elif e == E["study_down_vp_student"]:
            self.study[s] -= 1
            self.vp[s] += a
            for _ in range(b):
                self._push(Decision.STUDENT, s)
        elif e == E["create_step_activate"]:  # the new Golem x in district a: one step, its tile without lying down
            self.golem_sec[s][x] += 1
            self._push(T_AUTO, s, X_TILE, a, self.golem_sec[s][x])
