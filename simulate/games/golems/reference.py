"""Golems reference engine: one game in plain, readable Python.

This is the executable form of ``docs/golems.md`` and ``seeds/golems/RULINGS.md``. It is written
apart from the numba engine (``engine.py``) so that the two can be compared move by move; it
favours clarity over speed. The shape follows OpenSpiel's ``State``:
:meth:`GolemsReference.current_player`, :meth:`~GolemsReference.legal_actions`,
:meth:`~GolemsReference.apply_action`, :meth:`~GolemsReference.is_terminal`,
:meth:`~GolemsReference.returns` and ``str()``.

Moves are the ``int16`` records of ``state.py`` (fields ``M_*``). :func:`move_key` turns a record
into a hashable tuple that ignores the fields its kind does not use:

- ``('gems',)``, ``('pass',)``
- ``('card', row, pos, 'resource', column)``
- ``('card', row, pos, 'summon', tucks)`` with ``tucks`` a tuple of MAX_TYPES counts
- ``('card', row, pos, 'reserve' | 'reward' | 'dust' | 'discard')``

Numpy is used only at the edges: reading the tables, the setup shuffle (``simulate.rng``, so both
engines deal identical decks) and :meth:`~GolemsReference.to_arrays`.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np

from simulate.datafiles import deck_capacity
from simulate.gamekit import SeatedReference
from simulate.games.golems.data import *
from simulate.games.golems.state import *
from simulate.rng import draw_front, opening_seed, order_seed, shuffle, shuffle_range


class Kind(IntEnum):
    """Move kinds (``M_KIND``), the same numbers as ``state.py``."""

    TAKE_GEMS = TAKE_GEMS
    TAKE_CARD = TAKE_CARD
    PASS = PASS


class Ability(IntEnum):
    """Card abilities (``M_ABILITY``)."""

    RESOURCE = RESOURCE
    SUMMON = SUMMON
    RESERVE = RESERVE
    REWARD = REWARD
    DUST = DUST
    DISCARD = DISCARD


class IllegalMove(ValueError):
    """A move record that is not legal in the current position."""


def move_key(record: Any) -> tuple:
    """Hashable canonical form of a move record, ignoring the fields its kind does not use."""
    rec = [int(x) for x in record]
    kind = rec[M_KIND]
    if kind == TAKE_GEMS:
        return ("gems",)
    if kind == PASS:
        return ("pass",)
    if kind != TAKE_CARD:
        return ("invalid", kind)
    row, pos, ability = rec[M_ROW], rec[M_POS], rec[M_ABILITY]
    if ability == RESOURCE:
        return ("card", row, pos, "resource", rec[M_COLUMN])
    if ability == SUMMON:
        return ("card", row, pos, "summon", tuple(rec[M_TUCK : M_TUCK + MAX_TYPES]))
    if 0 <= ability < len(ABILITY_NAMES):
        return ("card", row, pos, ABILITY_NAMES[ability])
    return ("invalid", kind, ability)


def make_record(key: tuple) -> np.ndarray:
    """The ``int16`` move record of a :func:`move_key` tuple (tucks may be shorter than MAX_TYPES)."""
    rec = new_move()
    if key[0] == "gems":
        rec[M_KIND] = TAKE_GEMS
        return rec
    if key[0] == "pass":
        rec[M_KIND] = PASS
        return rec
    _, row, pos, ability, *rest = key
    rec[M_KIND] = TAKE_CARD
    rec[M_ROW] = row
    rec[M_POS] = pos
    rec[M_ABILITY] = ABILITY_NAMES.index(ability)
    if ability == "resource":
        rec[M_COLUMN] = rest[0]
    if ability == "summon":
        for t, x in enumerate(rest[0]):
            rec[M_TUCK + t] = x
    return rec


class GolemsReference(SeatedReference):
    """One game of Golems (``num_players`` 2, or 1 for solo), set up from ``setup_seed``.

    The position is held in plain attributes named like the fields of a game record
    (``state.new_state``): lists of ints, seats ``0..num_players-1``. Tests may set them directly
    to script a position; ``slot`` and ``slot_gems`` are lists of rows of ``row_size`` entries
    (-1 for an empty position).
    """

    END_REASONS = END_REASONS

    def __init__(self, data: GolemsData, num_players: int, setup_seed: int, gift_seat: int = 0) -> None:
        t = data.tables
        p = t.params
        if num_players not in (1, 2):
            raise ValueError(f"Golems takes 1 (solo) or 2 players, not {num_players}")
        self.data = data
        self.num_players = n = num_players
        self.setup_seed = setup_seed
        self.num_types = len(data.resources)
        self.c_type = [int(v) for v in t.c_type]
        self.c_res = [int(v) for v in t.c_res]
        self.c_wild = [bool(v) for v in t.c_wild]
        self.c_req = [[int(v) for v in row[: self.num_types]] for row in t.c_req]
        self.c_vp = [int(v) for v in t.c_vp]
        self.c_reward = [int(v) for v in t.c_reward]
        self.c_dust = [int(v) for v in t.c_dust]
        self.dust_table = [int(v) for v in data.table["dust_vp"]]
        self.take_gems = int(p[P_TAKE_GEMS])
        self.take_max_held = int(p[P_TAKE_MAX_HELD])
        self.take_short_forbidden = bool(p[P_TAKE_SHORT_FORBIDDEN])
        self.reserve_min = int(p[P_RESERVE_MIN])
        self.reserve_cost = int(p[P_RESERVE_COST])
        self.reserve_before = bool(p[P_RESERVE_BEFORE])
        self.tuck_max = int(p[P_TUCK_MAX])
        self.tuck_limit = int(p[P_TUCK_LIMIT])
        self.wild_tuck = bool(p[P_WILD_TUCK])
        self.rune_discard = bool(p[P_RUNE_DISCARD])
        self.refill_empty = bool(p[P_REFILL_EMPTY])
        self.golem_vp = int(p[P_GOLEM_VP])
        self.tuck_vp = int(p[P_TUCK_VP])
        self.max_turns = int(p[P_MAX_TURNS])
        self.tie_shared = bool(p[P_TIE_SHARED])
        self.solo_picks = int(p[P_SOLO_PICKS])
        self.solo_partial = bool(p[P_SOLO_PARTIAL])
        self.automa_golem_vp = int(p[P_AUTOMA_GOLEM_VP])
        self.automa_gems_score = bool(p[P_AUTOMA_GEMS_SCORE])
        self.rows = int(p[P_SOLO_ROWS] if n == 1 else p[P_ROWS])
        self.row_size = int(p[P_SOLO_ROW_SIZE] if n == 1 else p[P_ROW_SIZE])
        num_cards = len(self.c_type)

        self.owner = [-1] * num_cards
        self.taken_turn = [-1] * num_cards
        self.use = [-1] * num_cards
        # Setup 1: shuffle the starting Runes and deal them in seat order.
        gen = np.array([opening_seed(np.uint64(setup_seed))], np.uint64)
        starts = np.array(t.start_cards[: int(p[P_NUM_START])], np.int16)
        shuffle(gen, 0, starts, len(starts))
        per = int(p[P_START_PER_PLAYER])
        self.start_runes = [[int(starts[k * per + j]) for j in range(per)] for k in range(n)]
        for seat, cards in enumerate(self.start_runes):
            for c in cards:
                self.owner[c] = seat
                self.use[c] = U_START
        spare = [int(c) for c in starts[n * per :]] if p[P_SPARE_TO_DECK] else []
        # Step 2: the deck is the spare starting Runes (if kept) then the main deck, shuffled: the opening display
        # from the opening stream, the rest from the order stream, the cards removed unseen put first.
        deck = np.array(spare + [int(c) for c in t.main_cards], np.int16)
        removed = min(int(p[P_REMOVED]), len(deck))
        shown = min(self.rows * self.row_size, len(deck) - removed)
        draw_front(gen, 0, deck, len(deck), shown)
        gen[0] = order_seed(np.uint64(setup_seed))
        shuffle_range(gen, 0, deck, shown, len(deck))
        cards = [int(c) for c in deck]
        self.deck = cards[shown : shown + removed] + cards[:shown] + cards[shown + removed :]
        # Steps 3-4: remove cards unseen, deal the display row by row.
        self.removed = int(p[P_REMOVED])
        self.deck_pos = self.removed
        self.slot = [[-1] * self.row_size for _ in range(self.rows)]
        self.slot_gems = [[0] * self.row_size for _ in range(self.rows)]
        for row in range(self.rows):
            self._deal(row)
        # Step 5: gems.
        self.gems = [int(p[P_STARTING_GEMS])] * n
        self.supply = int(p[P_GEM_TOKENS]) - n * int(p[P_STARTING_GEMS])
        zero = [0] * n
        self.col = [[0] * self.num_types for _ in range(n)]
        self.wild = [[0] * self.num_types for _ in range(n)]
        self.golems, self.tucked, self.dust, self.dust_cards = list(zero), list(zero), list(zero), list(zero)
        self.gem_vp, self.gem_cards = list(zero), list(zero)
        self.rune_vp = [sum(self.c_vp[c] for c in self.start_runes[s]) for s in range(n)]
        self.rune_cards = [len(self.start_runes[s]) for s in range(n)]
        self.gems_taken, self.gems_gained, self.gems_reward = list(zero), list(zero), list(zero)
        self.gems_stolen, self.gems_paid, self.gems_reserve = list(zero), list(zero), list(zero)
        self.gem_turns, self.passes = list(zero), list(zero)
        self.uses = [[0] * NUM_USES for _ in range(n)]
        self.current = 0
        self.turn = 0
        self.triggered = 0
        self.idle = 0
        self.over = RUNNING
        self.picks = 0
        self.pick_target = min(self.solo_picks, self.rows * self.row_size)
        self.grids = 1
        self.automa_vp = self.automa_golems = self.automa_cards = self.automa_gems = 0
        # Rule option gift: one more copy taken by ``gift_seat`` (the seat of the lineup's first bot), used as the
        # rules allow before any turn (RULINGS.md, G1).
        gift = int(p[P_GIFT])
        if gift >= 0:
            self.owner[gift] = gift_seat
            self.use[gift] = U_START
            if self.c_type[gift] == GOLEM:
                self.col[gift_seat][self.c_res[gift]] += 1
            elif self.c_type[gift] == GEM:
                taken = min(self.c_reward[gift], self.supply)
                self.supply -= taken
                self.gems[gift_seat] += taken
                self.gem_vp[gift_seat] += self.c_vp[gift]
                self.gem_cards[gift_seat] += 1
            else:
                self.rune_vp[gift_seat] += self.c_vp[gift]
                self.rune_cards[gift_seat] += 1

    # ----------------------------------------------------------------------------- queries

    def cards_in_row(self, row: int) -> int:
        return sum(1 for c in self.slot[row] if c >= 0)

    def deck_left(self) -> int:
        return len(self.deck) - self.deck_pos

    def payment(self, row: int, pos: int) -> tuple[int, int]:
        """(gems paid, gems received) for taking the card at (row, pos), by the cards left in its row."""
        k = self.cards_in_row(row)
        if k >= 3:  # a full row: one gem on each other card; the card's own gems go to the taker
            return k - 1, self.slot_gems[row][pos]
        if k == 2:  # the card's gems move to the other card
            return 0, 0
        return 0, self.slot_gems[row][pos]  # the last card: take it with its gems

    def legal_actions(self) -> list[tuple]:
        """Canonical legal moves as :func:`move_key` tuples; empty when the game is over."""
        if self.is_terminal():
            return []
        seat = self.current
        moves: list[tuple] = []
        for row in range(self.rows):
            for pos in range(self.row_size):
                card = self.slot[row][pos]
                if card < 0:
                    continue
                paid, received = self.payment(row, pos)
                if self.gems[seat] < paid:
                    continue
                moves.extend(self._card_moves(seat, row, pos, card, self.gems[seat] - paid + received))
        if self._may_take_gems(seat):
            moves.append(("gems",))
        return moves or [("pass",)]

    def _card_moves(self, seat: int, row: int, pos: int, card: int, gems_after: int) -> list[tuple]:
        here = ("card", row, pos)
        kind = self.c_type[card]
        if kind == GEM:
            return [(*here, "reward"), (*here, "dust")]
        if kind == GOLEM:
            moves = [(*here, "resource", self.c_res[card])]
            if self._can_summon(seat, card):
                moves += [(*here, "summon", tucks) for tucks in self._tuck_vectors(seat, card)]
            return moves
        columns = [t for t in range(self.num_types) if self.col[seat][t] > 0]
        if not self.c_wild[card]:
            columns = [t for t in columns if t == self.c_res[card]]
        moves = [(*here, "resource", t) for t in columns]
        if self._may_reserve(seat, gems_after):
            moves.append((*here, "reserve"))
        if not moves and self.rune_discard:
            moves.append((*here, "discard"))
        return moves

    def _may_take_gems(self, seat: int) -> bool:
        if self.gems[seat] > self.take_max_held:
            return False
        return not (self.take_short_forbidden and self.supply < self.take_gems)

    def _may_reserve(self, seat: int, gems_after: int) -> bool:
        held = self.gems[seat] if self.reserve_before else gems_after
        return held >= self.reserve_min and gems_after >= self.reserve_cost

    def _can_summon(self, seat: int, card: int) -> bool:
        return all(self.col[seat][t] >= self.c_req[card][t] for t in range(self.num_types))

    def _tuck_vectors(self, seat: int, card: int) -> list[tuple[int, ...]]:
        """Every legal tuck vector (cards from each column), the empty one included."""
        bounds = []
        for t in range(self.num_types):
            cards = self.col[seat][t] - (0 if self.wild_tuck else self.wild[seat][t])
            need = self.c_req[card][t]
            if self.tuck_limit == TUCK_REQUIREMENT:
                cards = min(cards, need)
            elif self.tuck_limit != TUCK_ANY and need == 0:
                cards = 0
            bounds.append(min(cards, self.tuck_max))
        vectors: list[tuple[int, ...]] = [()]
        for b in bounds:
            vectors = [v + (x,) for v in vectors for x in range(b + 1)]
        pad = (0,) * (MAX_TYPES - self.num_types)
        return [v + pad for v in vectors if sum(v) <= self.tuck_max]

    # ----------------------------------------------------------------------------- moves

    def apply_action(self, record: Any) -> None:
        """Validate and apply a move record, then end the turn. Raises :class:`IllegalMove` if illegal."""
        rec = [int(x) for x in record]
        if len(rec) != MOVE_LEN:
            raise IllegalMove(f"a move record has {MOVE_LEN} fields, not {len(rec)}")
        key = move_key(rec)
        legal = self.legal_actions()
        if key not in legal:
            raise IllegalMove(f"{key} is not legal for seat {self.current + 1}")
        seat = self.current
        if key[0] == "gems":
            got = min(self.take_gems, self.supply)
            self.supply -= got
            self.gems[seat] += got
            self.gems_taken[seat] += got
            self.gem_turns[seat] += 1
        elif key[0] == "pass":
            self.passes[seat] += 1
        else:
            self._take_card(seat, key)
        self._end_turn(key[0])

    def _take_card(self, seat: int, key: tuple) -> None:
        _, row, pos, ability, *rest = key
        card = self.slot[row][pos]
        k = self.cards_in_row(row)
        on_card = self.slot_gems[row][pos]
        others = [p for p in range(self.row_size) if p != pos and self.slot[row][p] >= 0]
        if k >= 3:
            for p in others:
                self.slot_gems[row][p] += 1
            self.gems[seat] += on_card - len(others)
            self.gems_paid[seat] += len(others)
            self.gems_gained[seat] += on_card
        elif k == 2:
            self.slot_gems[row][others[0]] += on_card
        else:
            self.gems[seat] += on_card
            self.gems_gained[seat] += on_card
        self.slot[row][pos] = -1
        self.slot_gems[row][pos] = 0
        self.owner[card] = seat
        self.taken_turn[card] = self.turn
        golem = self.c_type[card] == GOLEM
        if ability == "resource":
            column = rest[0]
            self.col[seat][column] += 1
            if self.c_wild[card]:
                self.wild[seat][column] += 1
            use = U_GOLEM_RESOURCE if golem else U_RUNE_RESOURCE
        elif ability == "summon":
            self.golems[seat] += 1
            for t, x in enumerate(rest[0][: self.num_types]):
                typed = self.col[seat][t] - self.wild[seat][t]
                self.wild[seat][t] -= max(0, x - typed)  # typed cards are tucked first
                self.col[seat][t] -= x
                self.tucked[seat] += x
            use = U_SUMMON
        elif ability == "reserve":
            self.gems[seat] -= self.reserve_cost
            self.supply += self.reserve_cost
            self.gems_reserve[seat] += self.reserve_cost
            self.rune_vp[seat] += self.c_vp[card]
            self.rune_cards[seat] += 1
            use = U_RESERVE
        elif ability == "reward":
            want = self.c_reward[card]
            from_supply = min(want, self.supply)
            self.supply -= from_supply
            stolen = 0
            if self.num_players == 2:
                other = 1 - seat
                stolen = min(want - from_supply, self.gems[other])
                self.gems[other] -= stolen
            self.gems[seat] += from_supply + stolen
            self.gems_reward[seat] += from_supply + stolen
            self.gems_stolen[seat] += stolen
            self.gem_vp[seat] += self.c_vp[card]
            self.gem_cards[seat] += 1
            use = U_REWARD
        elif ability == "dust":
            self.dust[seat] += self.c_dust[card]
            self.dust_cards[seat] += 1
            use = U_DUST
        else:
            use = U_DISCARD
        self.use[card] = use
        self.uses[seat][use] += 1

    def _deal(self, row: int) -> int:
        """Deal cards from the deck into the empty ``row`` until it is full or the deck is out."""
        dealt = 0
        while dealt < self.row_size and self.deck_pos < len(self.deck):
            self.slot[row][dealt] = self.deck[self.deck_pos]
            self.slot_gems[row][dealt] = 0
            self.deck_pos += 1
            dealt += 1
        return dealt

    def _end_turn(self, kind: str) -> None:
        self.turn += 1
        self.idle = self.idle + 1 if kind == "pass" else 0
        if self.num_players == 1:
            self._end_solo_turn(kind)
            return
        for row in range(self.rows):
            if self.cards_in_row(row) > 0:
                continue
            if self.deck_left() >= self.row_size:
                self._deal(row)
            elif self.deck_left() > 0 or not self.triggered:
                self.triggered = 1  # the row cannot be refilled: the end is triggered
                if not self.refill_empty:
                    self._deal(row)
        self.current = (self.current + 1) % self.num_players
        if self.current == 0:  # a round is complete: equal turns
            if self.triggered:
                self.over = END_TRIGGER
            elif self.idle >= self.num_players:  # nobody could move for a whole round
                self.over = END_STALLED
            elif self.turn >= self.max_turns:
                self.over = END_TURN_CAP

    def _end_solo_turn(self, kind: str) -> None:
        if kind == "card":
            self.picks += 1
        if self.picks >= self.pick_target or kind == "pass":  # a player who cannot move ends the grid
            for row in range(self.rows):
                for pos in range(self.row_size):
                    card = self.slot[row][pos]
                    if card < 0:
                        continue
                    self.automa_cards += 1
                    if self.c_type[card] == GOLEM:
                        self.automa_golems += 1
                        self.automa_vp += self.automa_golem_vp
                    else:
                        self.automa_vp += self.c_vp[card]
                    on_card = self.slot_gems[row][pos]
                    self.automa_gems += on_card
                    self.supply += on_card
                    if self.automa_gems_score:
                        self.automa_vp += on_card
                    self.slot[row][pos] = -1
                    self.slot_gems[row][pos] = 0
            grid = self.rows * self.row_size
            if self.deck_left() >= grid or (self.deck_left() > 0 and self.solo_partial):
                dealt = sum(self._deal(row) for row in range(self.rows))
                self.picks = 0
                self.pick_target = min(self.solo_picks, dealt)
                self.grids += 1
            else:
                self.triggered = 1
                self.over = END_TRIGGER
                return
        if self.turn >= self.max_turns:
            self.over = END_TURN_CAP

    # ----------------------------------------------------------------------------- results

    def dust_points(self, dust: int) -> int:
        return self.dust_table[dust] if dust < len(self.dust_table) else 0

    def score_parts(self) -> list[list[int]]:
        """Per seat: [golems, tucks, dust, hand gems, hand runes] points."""
        return [
            [
                self.golem_vp * self.golems[s],
                self.tuck_vp * self.tucked[s],
                self.dust_points(self.dust[s]),
                self.gem_vp[s],
                self.rune_vp[s],
            ]
            for s in range(self.num_players)
        ]

    def scores(self) -> list[int]:
        return [sum(p) for p in self.score_parts()]

    def _keys(self) -> list[tuple[int, ...]]:
        """Comparison keys: (score, Golems, tucked), the automaton last in solo."""
        scores = self.scores()
        keys = [(scores[s], self.golems[s], self.tucked[s]) for s in range(self.num_players)]
        if self.num_players == 1:
            keys.append((self.automa_vp, self.automa_golems, 0))
        if self.tie_shared:
            keys = [(k[0], 0, 0) for k in keys]
        return keys

    def ranks(self) -> list[int]:
        """Rank of each seat (1 best; equal ranks share); in solo, 2 means the automaton won."""
        keys = self._keys()
        return [1 + sum(other > mine for other in keys) for mine in keys][: self.num_players]

    def wins(self) -> list[float]:
        """1 for the winner, 0 otherwise, 1/2 each for a shared tie (solo: against the automaton)."""
        keys = self._keys()
        best = max(keys)
        top = sum(k == best for k in keys)
        return [(1.0 / top if k == best else 0.0) for k in keys][: self.num_players]

    def returns(self) -> list[float]:
        """OpenSpiel-style returns: win share minus the fair share (zero-sum between the two sides)."""
        return [w - 0.5 for w in self.wins()]

    # ----------------------------------------------------------------------------- views

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Every game-record field but ``rng``, shaped as in ``state.new_state(...)[g][field]``."""
        n = self.num_players

        def seats(values: list, dtype, width: int | None = None) -> np.ndarray:
            shape = (MAX_PLAYERS,) if width is None else (MAX_PLAYERS, width)
            out = np.zeros(shape, dtype)
            for s in range(n):
                if width is None:
                    out[s] = values[s]
                else:
                    out[s, : len(values[s])] = values[s]
            return out

        slot = np.full((MAX_ROWS, MAX_ROW_SIZE), -1, np.int16)
        slot_gems = np.zeros((MAX_ROWS, MAX_ROW_SIZE), np.int16)
        row_count = np.zeros(MAX_ROWS, np.int8)
        for row in range(self.rows):
            slot[row, : self.row_size] = self.slot[row]
            slot_gems[row, : self.row_size] = self.slot_gems[row]
            row_count[row] = self.cards_in_row(row)
        num_cards = len(self.c_type)
        size = deck_capacity(num_cards)  # per-card fields: the deck capacity, slots past it empty
        deck = np.zeros(size, np.int16)
        deck[: len(self.deck)] = self.deck

        def cards(values: list, dtype) -> np.ndarray:
            out = np.full(size, -1, dtype)
            out[:num_cards] = values
            return out

        start = np.full((MAX_PLAYERS, MAX_START_PER_PLAYER), -1, np.int16)
        for s in range(n):
            start[s, : len(self.start_runes[s])] = self.start_runes[s]
        scalar = {
            "num_players": (n, np.int8),
            "current": (self.current, np.int8),
            "turn": (self.turn, np.int32),
            "over": (self.over, np.int8),
            "triggered": (self.triggered, np.int8),
            "idle": (self.idle, np.int8),
            "rows": (self.rows, np.int8),
            "row_size": (self.row_size, np.int8),
            "deck_len": (len(self.deck), np.int16),
            "deck_pos": (self.deck_pos, np.int16),
            "removed": (self.removed, np.int16),
            "supply": (self.supply, np.int16),
            "picks": (self.picks, np.int8),
            "pick_target": (self.pick_target, np.int8),
            "grids": (self.grids, np.int16),
            "automa_vp": (self.automa_vp, np.int16),
            "automa_golems": (self.automa_golems, np.int16),
            "automa_cards": (self.automa_cards, np.int16),
            "automa_gems": (self.automa_gems, np.int16),
        }
        out = {name: np.array(v, dt) for name, (v, dt) in scalar.items()}
        for name in (
            "gems",
            "golems",
            "tucked",
            "dust",
            "dust_cards",
            "gem_vp",
            "rune_vp",
            "gem_cards",
            "rune_cards",
            *GEM_COUNTS,
            "gem_turns",
            "passes",
        ):
            out[name] = seats(getattr(self, name), np.int16)
        out["col"] = seats(self.col, np.int16, MAX_TYPES)
        out["wild"] = seats(self.wild, np.int16, MAX_TYPES)
        out["uses"] = seats(self.uses, np.int16, NUM_USES)
        out.update(
            slot=slot,
            slot_gems=slot_gems,
            row_count=row_count,
            deck=deck,
            start_runes=start,
            owner=cards(self.owner, np.int8),
            taken_turn=cards(self.taken_turn, np.int16),
            use=cards(self.use, np.int8),
        )
        return out

    def describe(self, record: Any) -> str:
        """A move in words, for the position before it is applied."""
        key = move_key(record)
        if key[0] == "gems":
            return f"takes {min(self.take_gems, self.supply)} gems"
        if key[0] == "pass":
            return "passes"
        _, row, pos, ability, *rest = key
        card = self.slot[row][pos]
        if card < 0:
            return f"takes an empty position (row {row + 1}, position {pos + 1})"
        paid, received = self.payment(row, pos)
        cost = f"pays {paid}" if paid else "pays nothing"
        if received:
            cost += f", receives {received}"
        text = f"takes {card_text(self.data, card)} from row {row + 1} ({cost}) -> {ability}"
        if ability == "resource":
            text += f" into column {self.data.resources[rest[0]]}"
        elif ability == "summon" and sum(rest[0]):
            tucks = "".join(self.data.resources[t] * x for t, x in enumerate(rest[0][: self.num_types]))
            text += f", tucking {tucks}"
        return text

    def __str__(self) -> str:
        res = self.data.resources
        ids = self.data.card_ids
        lines = [
            f"turn {self.turn}, seat {self.current + 1} to move, supply {self.supply}, "
            f"deck {self.deck_left()}, {self.end_reason}"
        ]
        for row in range(self.rows):
            cells = [
                f"{ids[c]}[{g}]" if c >= 0 and g else (ids[c] if c >= 0 else "--")
                for c, g in zip(self.slot[row], self.slot_gems[row], strict=True)
            ]
            lines.append(f"  row {row + 1}: {' '.join(cells)}")
        scores = self.scores()
        for s in range(self.num_players):
            cols = " ".join(f"{res[t]}{self.col[s][t]}" for t in range(self.num_types))
            lines.append(
                f"  seat {s + 1}: gems {self.gems[s]}, columns {cols}, golems {self.golems[s]}, "
                f"tucked {self.tucked[s]}, dust {self.dust[s]}, score {scores[s]}"
            )
        if self.num_players == 1:
            lines.append(f"  automaton: {self.automa_vp} points from {self.automa_cards} cards")
        return "\n".join(lines)


def in_hand(kind: int, use: int) -> bool:
    """A card of type ``kind`` owned with ``use`` is in its owner's hand (a gifted Golem starts a column instead)."""
    return use in (U_RESERVE, U_REWARD) or (use == U_START and kind != GOLEM)


def public_state(g: GolemsReference) -> dict[str, Any]:
    """The public position of ``g`` as plain JSON values (docs/replay.md, replay state schema 1).

    A hand is counted; only the Runes reserved from the open display are named.
    """
    d = g.data
    scores = g.scores()
    seats = []
    for s in range(g.num_players):
        held = [c for c in range(len(g.owner)) if g.owner[c] == s and in_hand(g.c_type[c], g.use[c])]
        seats.append(
            {
                "seat": s + 1,
                "score": scores[s],
                "gems": g.gems[s],
                "columns": {d.resources[t]: g.col[s][t] for t in range(g.num_types)},
                "wild": {d.resources[t]: g.wild[s][t] for t in range(g.num_types)},
                "golems": g.golems[s],
                "tucked": g.tucked[s],
                "dust": g.dust[s],
                "hand": len(held),
                "reserved": [d.card_ids[c] for c in held if g.use[c] == U_RESERVE],
            }
        )
    board: dict[str, Any] = {
        "turn": g.turn,
        "display": [
            [{"card": d.card_ids[c], "gems": n} if c >= 0 else None for c, n in zip(row, gems, strict=True)]
            for row, gems in zip(g.slot, g.slot_gems, strict=True)
        ],
        "deck": g.deck_left(),
        "gem_supply": g.supply,
    }
    if g.num_players == 1:
        board["automa_score"] = g.automa_vp
    return {"seats": seats, "board": board}
