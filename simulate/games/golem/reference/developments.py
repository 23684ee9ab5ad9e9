"""Developments, Artifacts and Books in the reference engine: upgrading, activating, buying.

A mixin of :class:`~simulate.games.golem.reference.GolemReference`: its methods read and change the state's attributes.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from simulate.games.golem.codes import *
from simulate.games.golem.data import *


class Developments:
    """Developments, Artifacts and Books: upgrading, activating an Artifact, buying a Book."""

    def _upgrade(self, s: int, opt: int, discount: int, any_res: int) -> None:
        cost, r = self._upgrade_cost(s, opt)
        due = max(0, cost - discount)
        take = min(due, self.res[s][r])
        self.res[s][r] -= take
        due -= take
        for other in (CLAY, COIN, KNOWLEDGE):
            if due and any_res:
                take = min(due, self.res[s][other])
                self.res[s][other] -= take
                due -= take
        if due:
            raise RuntimeError("upgrade not affordable")
        if opt < UP_STUDY:
            self.gdev[s][opt] = 1
            e = int(self.t.gdev_effect[opt])
            if e == E["kill_double_cemetery"]:
                self._push(Decision.KILL, s)
            elif e == E["activate_work_extra"]:
                self._push(Decision.ACTIVATE, s, 0, 1, 0, 0, -1)
        elif opt < UP_ART:
            self.sdev[s][opt - UP_STUDY] = 1
        elif opt == UP_ART:
            self.adev_space[s][5] = 0
        else:
            k = opt - UP_ART - 1
            tile, space, side = k // 8, (k // 2) % 4, k % 2
            self.adev_space[s][tile] = space
            self.adev_side[s][tile] = side

    def _deal_gift(self, s: int) -> None:
        """Rule option ``gift``: seat ``s`` takes the component as its setup reaches the Starting tiles (RULINGS.md
        G1; the kernel's ``engine.developments.deal_gift``)."""
        kind, c = int(self.t.prm[P_GIFT_KIND]), int(self.t.prm[P_GIFT])
        if kind == GIFT_BOOK:  # tucked free in the first column, its bonuses as if bought
            books = self.col_books[s][0]
            first = not books
            books.append(c)
            if int(self.t.bk_colour[c]) != BOOK_BLACK:
                self.col_colour[s][0] = int(self.t.bk_colour[c])
            self._push(T_AUTO, s, X_AFTER_BOOK, 0, int(first))
        elif kind == GIFT_OBJECTIVE:  # kept beside the drafted ones
            self.objectives[s].append(c)
        elif kind == GIFT_GOLEM_DEV:  # upgraded free
            self.gdev[s][c] = 1
        elif kind == GIFT_STUDY_DEV:
            self.sdev[s][c] = 1
        elif kind == GIFT_ARTIFACT_DEV:  # a small tile on Artifact 1, side A; the largest takes no space
            self.adev_space[s][c] = 0
            self.adev_side[s][c] = 0
        elif kind == GIFT_ARTIFACT:  # completed with Gold from the supply, its benefits at once
            take = min(self._art_need(s, c), self.gold_supply)
            self.gold_supply -= take
            self.art_gold[s][c] += take
            if self._art_need(s, c) == 0:
                self.art_done[s][c] = 1
                self._activate_artifact(s, c)
        elif kind == GIFT_START:  # one more Starting tile
            self._take_start(s, c)

    def _activate_artifact(self, s: int, k: int) -> None:
        """Artifact ``k``'s benefits, plus a grey Development on it."""
        v = self.t.art[self.art_tile[s], self.art_side[s], k]
        self.res[s][CLAY] += int(v[1])
        self.res[s][COIN] += int(v[2])
        self.res[s][KNOWLEDGE] += int(v[3])
        self.vp[s] += int(v[4])
        self._study_up(s, int(v[5]))
        for tile in range(5):
            if self.adev_space[s][tile] != k:
                continue
            e = int(self.t.adev_effect[tile, self.adev_side[s][tile]])
            extra = {
                E["extra_knowledge_2"]: (KNOWLEDGE, 2, 0),
                E["extra_knowledge_vp"]: (KNOWLEDGE, 1, 1),
                E["extra_clay_2"]: (CLAY, 2, 0),
                E["extra_clay_vp"]: (CLAY, 1, 1),
                E["extra_coin_2"]: (COIN, 2, 0),
                E["extra_coin_vp"]: (COIN, 1, 1),
            }.get(e)
            if extra:
                self.res[s][extra[0]] += extra[1]
                self.vp[s] += extra[2]

    def _buy_book(self, s: int, pos: int, col: int, discount: int, free_card: int) -> None:
        b = self.library[pos]
        self._pay(s, KNOWLEDGE, self._book_price(s, pos, discount, free_card))
        del self.library[pos]
        if self.book_deck:
            self.library.append(self.book_deck.pop(0))
        books = self.col_books[s][col]
        first = not books
        books.append(b)
        colour = int(self.t.bk_colour[b])
        if colour != BOOK_BLACK:
            self.col_colour[s][col] = colour
        self._push(T_AUTO, s, X_AFTER_BOOK, col, int(first))
        if colour == BOOK_BLACK:
            self._push(Decision.STUDENT_BACK, s)

    def _after_book(self, s: int, col: int, first: int) -> None:
        """A Book placed in ``col``: immediate bonus (doubled by that column's tile), then the column's actives."""
        b = self.col_books[s][col][-1]
        t = self.t
        dev = int(t.sdev_effect[col]) if col < 4 and self.sdev[s][col] else 0
        steps: list[tuple] = []
        times = 2 if dev == E["column_double"] and t.bk_colour[b] != BOOK_BLACK else 1
        for _ in range(times):
            steps.append(self._book_task(b, 0))
        if dev == E["column_clay_coin"]:
            steps += [self._auto(X_GAIN, 1, 0, COIN), self._auto(X_GAIN, 1, 0, CLAY)]
        elif dev == E["column_vp"]:
            steps.append(self._auto(X_GAIN, 2, 0, VP))
        elif dev == E["column_gold"]:
            steps.append(self._auto(X_GAIN, 1, 0, GOLD))
        for other in self.col_books[s][col]:
            steps.append(self._book_task(other, 1))
        if first:
            for k in range(4):
                if self._reactivates(s, k, E["reactivate_first_book"]):
                    steps.append(self._auto(X_ACTIVATE_ART, k))
        self._seq(s, steps)

    def _book_task(self, b: int, which: int) -> tuple:
        t = self.t
        e = int(t.bk_effect[b, which])
        c = int(t.bk_res[b, which])
        if e == E["trade"]:
            return (T_AUTO, e, int(t.bk_a[b, which]), int(t.bk_a2[b]), c, int(t.bk_res2[b]))
        return (T_AUTO, e, int(t.bk_a[b, which]), 0, c, 0)

    def _book_effect(self, s: int, b: int, which: int) -> None:
        task = self._book_task(b, which)
        self._effect(s, *task[1:])
