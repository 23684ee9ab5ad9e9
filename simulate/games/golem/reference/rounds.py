"""The round driver of the reference engine: phases, turn order and passing, the Synagogue.

A mixin of :class:`~simulate.games.golem.reference.GolemReference`: its methods read and change the state's attributes.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from simulate.games.golem.codes import *
from simulate.games.golem.data import GIFT_NONE, NUM_ROUNDS, P_GIFT_KIND, E


class RoundDriver:
    """The round driver: phases, turn order and passing, the Synagogue."""

    def _push(self, kind: int, seat: int, e: int = 0, a: int = 0, b: int = 0, c: int = 0, x: int = 0) -> None:
        if len(self.stack) >= MAX_STACK:
            raise RuntimeError("task stack overflow")
        self.stack.append([kind, seat, e, a, b, c, x])

    def _seq(self, seat: int, steps: list[tuple]) -> None:
        """Push tasks so that they run in the listed order: (kind, e, a, b, c, x)."""
        for st in reversed(steps):
            self._push(st[0], seat, *st[1:])

    @staticmethod
    def _auto(e: int, a: int = 0, b: int = 0, c: int = 0, x: int = 0) -> tuple:
        return (T_AUTO, e, a, b, c, x)

    def _advance(self) -> None:
        """Run automatic steps and phase changes until a decision is pending or the game is over."""
        while True:
            if self.stack:
                top = self.stack[-1]
                if top[0] != T_AUTO:
                    if self._has_legal(top):
                        return
                    self.stack.pop()  # a decision with no legal option is skipped
                    continue
                self.stack.pop()
                self._effect(top[1], top[2], top[3], top[4], top[5], top[6])
                continue
            if self.phase == PH_END:
                return
            self._next_phase()

    def _has_legal(self, task: list[int]) -> bool:
        return any(self._legal(task, a) for a in range(NUM_ACTIONS))

    def _push_phase(self) -> None:
        """Push the decisions of the current phase at ``cursor``."""
        n = self.n
        ph = self.phase
        if ph == PH_DRAFT:
            self._push(Decision.DRAFT, self.order[self.cursor])
        elif ph == PH_KEEP:
            self._push(Decision.KEEP, self.order[self.cursor])
        elif ph == PH_ARTIFACT:
            self._push(Decision.ARTIFACT_TILE, self.order[n - 1 - self.cursor])
        elif ph == PH_START:
            s = self.order[self.cursor]
            if len(self.start_offer[s]) <= self._kept_starts():
                for k in range(len(self.start_offer[s])):
                    self._take_start(s, self.start_offer[s][k])
            else:
                self._push(Decision.START_TILES, s)
            if s == self.gift_seat and int(self.t.prm[P_GIFT_KIND]) != GIFT_NONE:
                self._deal_gift(s)
        elif ph == PH_PLACE:
            self._push(Decision.PLACE_GOLEMS, self.order[self.cursor])
        elif ph == PH_MOVE:
            s = self.order[self.cursor]
            self.step_left = self._level(s) + int(self.t.ch_move[self.palace[self.round]])
            self._push(T_AUTO, s, X_OVERMOVE)  # the movement's end: the over-movement penalty
            self._push(Decision.MOVE_STEP, s)
            if self._has_gdev(s, E["ignore_character_steps"]):
                self._push(Decision.IGNORE_CHAR, s)
        elif ph == PH_INFLUENCE:
            s = self.order[self.cursor]
            if self._matches(s):
                self._push(Decision.CHARACTER, s)
        elif ph == PH_DEV:
            self._push(Decision.INCOME_UPGRADE, self.order[self.cursor], 0, 7)

    def _next_phase(self) -> None:
        """Advance the cursor or the phase when the stack is empty."""
        n = self.n
        ph = self.phase
        if ph == PH_ACTIONS:
            self._next_turn()
            return
        self.cursor += 1
        if ph == PH_DRAFT and self.cursor == n:
            self.cursor = 0
            self.pick += 1
            # hands pass to the left (the next seat)
            self.hands = [self.hands[(s - 1) % n] for s in range(n)]
            if self.pick == self.p["objectives_dealt"]:
                self.phase = PH_KEEP
        elif self.cursor == n and ph in (PH_KEEP, PH_ARTIFACT, PH_START, PH_PLACE, PH_MOVE, PH_INFLUENCE, PH_DEV):
            self.cursor = 0
            if ph == PH_PLACE:
                self.phase = PH_MOVE
            elif ph == PH_MOVE:
                self._start_actions()
                return
            elif ph == PH_INFLUENCE:
                self._income()
                self.phase = PH_DEV
            elif ph == PH_DEV:
                self._control()
                self._end_round()
                if self.phase == PH_END:
                    return
            else:
                self.phase += 1
        self._push_phase()

    def _kept_starts(self) -> int:
        return len(self.start_offer[0]) if self.rules["setup"] == "introductory" else self.p["starting_tiles_kept"]

    def _start_actions(self) -> None:
        self.phase = PH_ACTIONS
        self.pass_stage = 0
        self.cursor = -1
        self._next_turn()

    def _next_turn(self) -> None:
        """Give the turn to the next player who still acts in this stage of the Actions phase."""
        seq = self._stage_sequence()
        for i in range(len(seq)):  # round robin from the seat after the last to act
            k = (self.cursor + 1 + i) % len(seq)
            if self._acts_now(seq[k]):
                self.cursor = k
                self._begin_turn(seq[k])
                return
        if not self._open_passing_stage():
            self._end_actions()

    def _stage_sequence(self) -> list[int]:
        if self.pass_stage == 0:
            if self.automa:
                return self.order[: self.au_pos] + [AUTOMA] + self.order[self.au_pos :]
            return self.order
        return sorted((s for s in range(self.n) if self.pass_tile[s]), key=lambda s: self.pass_tile[s])

    def _acts_now(self, s: int) -> bool:
        if s == AUTOMA:
            return self.au_actions < 3
        if self.actions[s] >= 3:
            return False
        return self.passes[s] == self.pass_stage

    def _open_passing_stage(self) -> bool:
        """Start the (next) passing phase if a passed player still has actions; False if none."""
        waiting = [s for s in range(self.n) if self.actions[s] < 3 and self.passes[s] > self.pass_stage]
        if not waiting or self.pass_stage == 2:
            return False
        self.pass_stage += 1
        self.cursor = -1
        holder = [s for s in range(self.n) if self.pass_tile[s] == 1]
        if holder and sum(map(sum, self.syn)):
            self._push(T_AUTO, holder[0], X_REDROP)  # re-drop the remaining marbles afterwards
            self._push(Decision.REMOVE_MARBLE, holder[0])
        else:
            self._redrop()
        return True

    def _begin_turn(self, s: int) -> None:
        if s == AUTOMA:
            self._automa_turn()
            return
        if self._has_legal([Decision.TURN, s, 0, 0, 0, 0, 0]):
            self._push(Decision.TURN, s)
        else:
            # nothing to take and passing is over: the remaining marble actions are forfeited
            self.act_count[s][ACT_FORFEIT] += 3 - self.actions[s]
            self.actions[s] = 3

    def _end_actions(self) -> None:
        # Turn order: Rabbis on the tiles top to bottom, then the permanent space left to right
        self.order = [s for slot in range(5) for s in range(self.n) if self.rabbi_slot[s] == slot] + self.perm_queue
        if self.automa:
            self.au_pos = sum(1 for s in range(self.n) if 0 <= self.rabbi_slot[s] < self.au_slot)
        self.phase = PH_INFLUENCE
        self.cursor = 0
        self._push_phase()

    def _end_round(self) -> None:
        self.round += 1
        if self.round == NUM_ROUNDS:
            self.phase = PH_END
            self.stack.clear()
            for s in range(self.n):
                self.stats["objectives_met"][s] = len(self._objectives_met(s)[0])
            return
        # Refresh
        for s in range(self.n):
            self.eyes[s] = []
            self.marble_actions[s] = self.rabbi_done[s] = self.actions[s] = 0
            self.pass_tile[s] = self.passes[s] = 0
            self.rabbi_slot[s] = -1
            self.free_control[s] = 0
        self.perm_queue = []
        self.au_actions = 0
        self.au_slot = -1
        self.au_eyes = []
        self._drop_all()
        self.at_discard += [x for x in self.at_slots if x >= 0]
        self._deal_action_tiles()
        if self.library:
            self.book_deck.append(self.library.pop(0))
            self.library.append(self.book_deck.pop(0))
        self.phase = PH_MOVE
        self.cursor = 0

    # ----------------------------------------------------------------- Synagogue

    def _drop(self, colours: list[int]) -> None:
        weights = self.p["row_weights"]
        total = sum(weights)
        for c in colours:
            r = self.chance.randint(total)
            row = 0
            while r >= weights[row]:
                r -= weights[row]
                row += 1
            self.syn[row][c] += 1

    def _drop_all(self) -> None:
        self.syn = [[0] * 5 for _ in range(5)]
        self._drop([c for c in range(5) for _ in range(self.marbles[c])])

    def _redrop(self) -> None:
        left = [c for r in range(5) for c in range(5) for _ in range(self.syn[r][c])]
        self.syn = [[0] * 5 for _ in range(5)]
        self._drop(left)

    def _deal_action_tiles(self) -> None:
        self.at_slots = [-1] * 5
        for k in range(self.n + 1):
            if not self.at_deck:
                self.at_deck = self.at_discard
                self.at_discard = []
                self.chance.shuffle(self.at_deck, len(self.at_deck))
            self.at_slots[k] = self.at_deck.pop(0)
