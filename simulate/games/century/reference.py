"""Century: Golem Edition reference engine: one game in plain, readable Python.

This is the executable form of ``docs/century.md``. It is written independently of the numba
engine (``engine.py``) so that the two can be compared move by move; it favours clarity over speed.
The shape follows OpenSpiel's ``State``: :meth:`CenturyReference.current_player`,
:meth:`~CenturyReference.legal_actions`, :meth:`~CenturyReference.apply_action`,
:meth:`~CenturyReference.is_terminal`, :meth:`~CenturyReference.returns` and ``str()``.

Moves are the ``int16`` records of ``state.py`` (fields ``M_*``). :func:`move_key` turns a record
into a hashable tuple that ignores unused fields and the discard, so legal-move sets of two
engines can be compared as sets:

- ``('play', card)`` create, ``('play', card, times)`` trade, ``('play', card, sY, sG, sT)`` upgrade
- ``('acquire', position, paid)`` with ``paid`` the sorted tuple of the colours paid
- ``('rest',)``, ``('claim', position)``, ``('pass',)``

Numpy is used only at the edges: reading the card tables, the setup shuffle (``simulate.rng``,
so both engines deal identical decks) and :meth:`~CenturyReference.to_arrays`.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np

from simulate.datafiles import deck_capacity
from simulate.gamekit import SeatedReference
from simulate.games.century.data import *
from simulate.games.century.state import *
from simulate.rng import draw_front, opening_seed, order_seed, shuffle_range

COIN_NONE, COIN_COPPER, COIN_SILVER = 0, 1, 2


class Kind(IntEnum):
    """Move kinds (``M_KIND``), the same numbers as ``state.py``."""

    PLAY = PLAY
    ACQUIRE = ACQUIRE
    REST = REST
    CLAIM = CLAIM
    PASS = PASS


class IllegalMove(ValueError):
    """A move record that is not legal in the current position."""


def move_key(record: Any, data: CenturyData | CenturyTables | None = None) -> tuple:
    """Hashable canonical form of a move record, ignoring unused fields and the discard.

    With ``data`` the form of a play follows the card's kind. Without it, it follows the fields
    that are set (``M_TIMES`` > 0: trade; any ``M_STEPS`` > 0: upgrade; else create), which agrees
    for every legal record whose unused fields are zero, as in ``new_move()``.
    """
    rec = [int(x) for x in record]
    kind, arg = rec[M_KIND], rec[M_ARG]
    if kind == PLAY:
        steps = tuple(rec[M_STEPS : M_STEPS + 3])
        if data is not None:
            m_kind = int(_tables(data).m_kind[arg])
            if m_kind == KIND_TRADE:
                return ("play", arg, rec[M_TIMES])
            if m_kind == KIND_UPGRADE:
                return ("play", arg, *steps)
            return ("play", arg)
        if rec[M_TIMES] > 0:
            return ("play", arg, rec[M_TIMES])
        if any(steps):
            return ("play", arg, *steps)
        return ("play", arg)
    if kind == ACQUIRE:
        return ("acquire", arg, tuple(sorted(rec[M_PAY : M_PAY + max(arg, 0)])))
    if kind == CLAIM:
        return ("claim", arg)
    if kind == REST:
        return ("rest",)
    if kind == PASS:
        return ("pass",)
    return ("invalid", kind, arg)


def make_record(
    kind: int,
    arg: int = 0,
    *,
    times: int = 0,
    steps: tuple[int, int, int] = (0, 0, 0),
    pay: tuple[int, ...] | str = (),
    discard: tuple[int, int, int, int] | str = (0, 0, 0, 0),
) -> np.ndarray:
    """Build an ``int16`` move record; ``pay`` and ``discard`` also take strings such as ``"YYG"``."""
    rec = new_move()
    rec[M_KIND] = kind
    rec[M_ARG] = arg
    rec[M_TIMES] = times
    rec[M_STEPS : M_STEPS + 3] = steps
    colours = [COLOURS.index(ch) for ch in pay] if isinstance(pay, str) else list(pay)
    for k, c in enumerate(colours):
        rec[M_PAY + k] = c
    rec[M_DISCARD : M_DISCARD + 4] = _counts(discard) if isinstance(discard, str) else discard
    return rec


class CenturyReference(SeatedReference):
    """One game of Century: Golem Edition, set up from ``setup_seed`` as in ``docs/century.md``.

    The position is held in plain attributes named like the fields of a game record (``state.new_state``) (lists of
    ints, seats ``0..num_players-1``); tests may set them directly to script a position. Rows have
    exactly ``merchant_row`` / ``point_row`` entries, ``-1`` for an empty slot.
    """

    END_REASONS = END_REASONS

    def __init__(self, data: CenturyData, num_players: int, setup_seed: int, gift_seat: int = 0) -> None:
        t = data.tables
        if not 2 <= num_players <= MAX_PLAYERS:
            raise ValueError(f"Century takes 2..{MAX_PLAYERS} players, not {num_players}")
        self.data = data
        self.num_players = num_players
        self.setup_seed = setup_seed
        self.merchant_row = int(t.params[P_MERCHANT_ROW])
        self.point_row = int(t.params[P_POINT_ROW])
        self.caravan_limit = int(t.params[P_CARAVAN_LIMIT])
        self.copper_vp = int(t.params[P_COPPER_VP])
        self.silver_vp = int(t.params[P_SILVER_VP])
        self.max_rounds = int(t.params[P_MAX_ROUNDS])
        self.rest_requires_played = bool(t.params[P_REST_REQUIRES_PLAYED])
        self.tie_shared = bool(t.params[P_TIE_SHARED])
        self.end_trigger = int(t.end_trigger[num_players])
        self.crystal_vp = [int(v) for v in t.crystal_vp]
        self.m_kind = [int(k) for k in t.m_kind]
        self.m_in = [[int(v) for v in row] for row in t.m_in]
        self.m_out = [[int(v) for v in row] for row in t.m_out]
        self.m_up = [int(v) for v in t.m_up]
        self.p_cost = [[int(v) for v in row] for row in t.p_cost]
        self.p_vp = [int(v) for v in t.p_vp]
        num_merchant, num_point = len(self.m_kind), len(self.p_vp)

        # Setup step 1: the face-up rows from the opening stream (market deck, then point deck), the rest of
        # each deck from the order stream.
        m_deck = np.array(t.market_cards, dtype=np.int16)
        p_deck = np.arange(num_point, dtype=np.int16)
        m_shown, p_shown = min(self.merchant_row, len(m_deck)), min(self.point_row, num_point)
        s = np.array([opening_seed(np.uint64(setup_seed))], np.uint64)
        draw_front(s, 0, m_deck, len(m_deck), m_shown)
        draw_front(s, 0, p_deck, num_point, p_shown)
        s[0] = order_seed(np.uint64(setup_seed))
        shuffle_range(s, 0, m_deck, m_shown, len(m_deck))
        shuffle_range(s, 0, p_deck, p_shown, num_point)
        self.m_deck: list[int] = [int(c) for c in m_deck]
        self.p_deck: list[int] = [int(c) for c in p_deck]
        # Step 2: deal the rows.
        self.m_deck_pos = min(self.merchant_row, len(self.m_deck))
        self.m_row: list[int] = self.m_deck[: self.m_deck_pos] + [-1] * (self.merchant_row - self.m_deck_pos)
        self.m_row_crystals: list[list[int]] = [[0] * NUM_COLOURS for _ in range(self.merchant_row)]
        self.p_deck_pos = min(self.point_row, len(self.p_deck))
        self.p_row: list[int] = self.p_deck[: self.p_deck_pos] + [-1] * (self.point_row - self.p_deck_pos)
        # Step 3: coins.
        coins = int(t.params[P_COINS_PER_PLAYER]) * num_players
        self.copper_left = coins
        self.silver_left = coins
        # Step 4: starting crystals by seat and one of each starting card.
        n = num_players
        self.crystals: list[list[int]] = [[int(v) for v in t.start_crystals[k]] for k in range(n)]
        self.cards: list[list[int]] = [[NOT_OWNED] * num_merchant for _ in range(n)]
        for k in range(n):
            for c in t.start_cards:
                self.cards[k][int(c)] = IN_HAND
        # Rule option gift: one more card in the hand of ``gift_seat`` (the seat of the lineup's first bot).
        if t.params[P_GIFT] >= 0:
            self.cards[gift_seat][int(t.params[P_GIFT])] = IN_HAND
        self.num_points = [0] * n
        self.point_vp = [0] * n
        self.copper = [0] * n
        self.silver = [0] * n
        self.m_turn = [-1] * num_merchant
        self.p_turn = [-1] * num_point
        self.p_owner = [-1] * num_point
        self.current = 0
        self.turn = 0
        self.triggered = 0
        self.over = RUNNING

    # ----------------------------------------------------------------------------- queries

    def move_key(self, record: Any) -> tuple:
        """:func:`move_key` with this game's card table."""
        return move_key(record, self.data)

    def legal_actions(self) -> list[tuple]:
        """Canonical legal moves (without discard) as :func:`move_key` tuples; empty when over."""
        return [self.move_key(r) for r in self.legal_records()]

    def legal_records(self) -> list[np.ndarray]:
        """The legal moves as ``int16`` records with a zero discard.

        One record per distinct outcome: trades by repetitions, upgrades by steps (sY, sG, sT),
        acquires by multiset of colours paid (placed in ascending colour order from position 0).
        A record may still need a discard (see :meth:`excess_after`) before it can be applied.
        """
        if self.is_terminal():
            return []
        seat = self.current
        have = self.crystals[seat]
        moves: list[np.ndarray] = []
        for card, status in enumerate(self.cards[seat]):
            if status != IN_HAND:
                continue
            kind = self.m_kind[card]
            if kind == KIND_CREATE:
                moves.append(make_record(PLAY, card))
            elif kind == KIND_TRADE:
                for times in range(1, self._max_times(have, card) + 1):
                    moves.append(make_record(PLAY, card, times=times))
            else:
                for steps in _upgrade_steps(have, self.m_up[card]):
                    moves.append(make_record(PLAY, card, steps=steps))
        for pos, card in enumerate(self.m_row):
            if card < 0:
                continue
            for paid in _multisets(have, pos):
                moves.append(make_record(ACQUIRE, pos, pay=paid))
        if self._can_rest(seat):
            moves.append(make_record(REST))
        for pos, card in enumerate(self.p_row):
            if card >= 0 and _covers(have, self.p_cost[card]):
                moves.append(make_record(CLAIM, pos))
        if not moves:
            moves.append(make_record(PASS))
        return moves

    def crystals_after(self, record: Any) -> list[int]:
        """The mover's caravan (Y, G, T, M) after the action of ``record``, before any discard.

        Raises :class:`IllegalMove` if the action is illegal.
        """
        return self._resolve([int(x) for x in record])

    def excess_after(self, record: Any) -> int:
        """Crystals the mover must return after the action of ``record`` (0 if within the limit)."""
        return max(0, sum(self.crystals_after(record)) - self.caravan_limit)

    # ----------------------------------------------------------------------------- moves

    def apply_action(self, record: Any) -> None:
        """Validate the whole record (action and discard), apply it and end the turn.

        Fields the move kind does not use are ignored. Raises :class:`IllegalMove` (and changes
        nothing) if the move is illegal.
        """
        rec = [int(x) for x in record]
        if len(rec) != MOVE_LEN:
            raise IllegalMove(f"a move record has {MOVE_LEN} fields, not {len(rec)}")
        after = self._resolve(rec)
        discard = rec[M_DISCARD : M_DISCARD + NUM_COLOURS]
        excess = max(0, sum(after) - self.caravan_limit)
        if any(d < 0 for d in discard):
            raise IllegalMove(f"negative discard {discard}")
        if sum(discard) != excess:
            raise IllegalMove(
                f"must return exactly {excess} crystal(s) over the limit of {self.caravan_limit}, "
                f"not {sum(discard)} (caravan after the action: {_crystal_str(after)})"
            )
        if not _covers(after, discard):
            raise IllegalMove(f"cannot return {_crystal_str(discard)}: caravan holds {_crystal_str(after)}")

        seat = self.current
        kind, arg = rec[M_KIND], rec[M_ARG]
        if kind == PLAY:
            self.cards[seat][arg] = PLAYED
        elif kind == ACQUIRE:
            self._acquire(seat, arg, rec[M_PAY : M_PAY + arg])
        elif kind == REST:
            self.cards[seat] = [IN_HAND if s == PLAYED else s for s in self.cards[seat]]
        elif kind == CLAIM:
            self._claim(seat, arg)
        self.crystals[seat] = [a - d for a, d in zip(after, discard, strict=True)]
        self._end_turn(seat, kind)

    def _resolve(self, rec: list[int]) -> list[int]:
        """Check the action part of ``rec`` and return the mover's caravan after it."""
        if self.is_terminal():
            raise IllegalMove(f"the game is over ({self.end_reason})")
        seat = self.current
        have = list(self.crystals[seat])
        kind, arg = rec[M_KIND], rec[M_ARG]
        if kind == PLAY:
            if not 0 <= arg < len(self.m_kind):
                raise IllegalMove(f"no merchant card {arg}")
            if self.cards[seat][arg] != IN_HAND:
                state = "already played" if self.cards[seat][arg] == PLAYED else "not owned"
                raise IllegalMove(f"seat {seat} cannot play {self._m_id(arg)}: {state}")
            return self._play_result(have, arg, rec)
        if kind == ACQUIRE:
            if not 0 <= arg < self.merchant_row or self.m_row[arg] < 0:
                raise IllegalMove(f"no merchant card at row position {arg}")
            paid = rec[M_PAY : M_PAY + arg]
            if any(not 0 <= c < NUM_COLOURS for c in paid):
                raise IllegalMove(f"acquire at position {arg}: payment colours {paid} not all in 0..3")
            cost = _counts(paid)
            if not _covers(have, cost):
                raise IllegalMove(f"cannot pay {_crystal_str(cost)} from {_crystal_str(have)}")
            gain = self.m_row_crystals[arg]
            return [h - c + g for h, c, g in zip(have, cost, gain, strict=True)]
        if kind == REST:
            if not self._can_rest(seat):
                raise IllegalMove(f"seat {seat} has no played card to take back")
            return have
        if kind == CLAIM:
            if not 0 <= arg < self.point_row or self.p_row[arg] < 0:
                raise IllegalMove(f"no point card at row position {arg}")
            cost = self.p_cost[self.p_row[arg]]
            if not _covers(have, cost):
                raise IllegalMove(
                    f"cannot claim {self._p_id(self.p_row[arg])}: needs exactly {_crystal_str(cost)}, "
                    f"caravan holds {_crystal_str(have)}"
                )
            return [h - c for h, c in zip(have, cost, strict=True)]
        if kind == PASS:
            others = [r for r in self.legal_records() if int(r[M_KIND]) != PASS]
            if others:
                raise IllegalMove(f"cannot pass with {len(others)} legal move(s)")
            return have
        raise IllegalMove(f"unknown move kind {kind}")

    def _play_result(self, have: list[int], card: int, rec: list[int]) -> list[int]:
        kind = self.m_kind[card]
        if kind == KIND_CREATE:
            return [h + o for h, o in zip(have, self.m_out[card], strict=True)]
        if kind == KIND_UPGRADE:
            sy, sg, st = rec[M_STEPS : M_STEPS + 3]
            up = self.m_up[card]
            if min(sy, sg, st) < 0 or not 1 <= sy + sg + st <= up:
                raise IllegalMove(f"{self._m_id(card)}: steps {(sy, sg, st)} must be >= 0 and total 1..{up}")
            if sy > have[0] or sg > have[1] + sy or st > have[2] + sg:
                raise IllegalMove(f"{self._m_id(card)}: steps {(sy, sg, st)} exceed {_crystal_str(have)}")
            return [have[0] - sy, have[1] + sy - sg, have[2] + sg - st, have[3] + st]
        times = rec[M_TIMES]
        most = self._max_times(have, card)
        if not 1 <= times <= most:
            raise IllegalMove(
                f"{self._m_id(card)} ({self._card_text(card)}): {times} repetition(s), "
                f"possible 1..{most} from {_crystal_str(have)}"
            )
        for _ in range(times):
            have = [h - i + o for h, i, o in zip(have, self.m_in[card], self.m_out[card], strict=True)]
        return have

    def _max_times(self, have: list[int], card: int) -> int:
        """Most repetitions of a trade, each paid from the caravan left by the previous one.

        Capped at the caravan limit so that a card whose output covers its input (none in the
        default deck) stays finite; no other card can repeat that often from a legal caravan.
        """
        t, cur = 0, list(have)
        c_in, c_out = self.m_in[card], self.m_out[card]
        while t < self.caravan_limit and _covers(cur, c_in):
            cur = [h - i + o for h, i, o in zip(cur, c_in, c_out, strict=True)]
            t += 1
        return t

    def _can_rest(self, seat: int) -> bool:
        return not self.rest_requires_played or PLAYED in self.cards[seat]

    def _acquire(self, seat: int, pos: int, paid: list[int]) -> None:
        for k, colour in enumerate(paid):
            self.m_row_crystals[k][colour] += 1
        card = self.m_row[pos]
        self.cards[seat][card] = IN_HAND
        self.m_turn[card] = self.turn
        del self.m_row[pos]
        del self.m_row_crystals[pos]  # the crystals on it went to the caravan (see _resolve)
        self.m_row.append(self._draw_merchant())
        self.m_row_crystals.append([0] * NUM_COLOURS)

    def _claim(self, seat: int, pos: int) -> None:
        card = self.p_row[pos]
        self.num_points[seat] += 1
        self.point_vp[seat] += self.p_vp[card]
        self.p_turn[card] = self.turn
        self.p_owner[card] = seat
        coin = self._coin_at(pos)
        if coin == COIN_COPPER:
            self.copper_left -= 1
            self.copper[seat] += 1
        elif coin == COIN_SILVER:
            self.silver_left -= 1
            self.silver[seat] += 1
        del self.p_row[pos]
        self.p_row.append(self._draw_point())

    def _coin_at(self, pos: int) -> int:
        """Coin a claim at row position ``pos`` would take now (the silver pile moves left)."""
        if pos == 0:
            if self.copper_left > 0:
                return COIN_COPPER
            return COIN_SILVER if self.silver_left > 0 else COIN_NONE
        if pos == 1 and self.copper_left > 0 and self.silver_left > 0:
            return COIN_SILVER
        return COIN_NONE

    def _draw_merchant(self) -> int:
        if self.m_deck_pos >= len(self.m_deck):
            return -1
        self.m_deck_pos += 1
        return self.m_deck[self.m_deck_pos - 1]

    def _draw_point(self) -> int:
        if self.p_deck_pos >= len(self.p_deck):
            return -1
        self.p_deck_pos += 1
        return self.p_deck[self.p_deck_pos - 1]

    def _end_turn(self, seat: int, kind: int) -> None:
        if kind == CLAIM and self.num_points[seat] >= self.end_trigger:
            self.triggered = 1
        self.turn += 1
        self.current = (seat + 1) % self.num_players
        if self.current == 0:
            if self.triggered:
                self.over = END_TRIGGER
            elif self.turn // self.num_players >= self.max_rounds:
                self.over = END_TURN_CAP

    # ----------------------------------------------------------------------------- scoring

    def score_parts(self) -> list[tuple[int, int, int, int]]:
        """Per seat: (point card VP, copper VP, silver VP, leftover crystal VP)."""
        return [
            (
                self.point_vp[k],
                self.copper[k] * self.copper_vp,
                self.silver[k] * self.silver_vp,
                sum(n * v for n, v in zip(self.crystals[k], self.crystal_vp, strict=True)),
            )
            for k in range(self.num_players)
        ]

    def scores(self) -> list[int]:
        """Score of each seat as the position stands."""
        return [sum(parts) for parts in self.score_parts()]

    def ranks(self) -> list[int]:
        """Place of each seat, 1 = best. Ties: the later seat ranks higher (``later_seat``) or
        tied seats share the better place (``shared``)."""
        sc = self.scores()
        if self.tie_shared:
            return [1 + sum(other > mine for other in sc) for mine in sc]
        order = sorted(range(self.num_players), key=lambda k: (sc[k], k), reverse=True)
        ranks = [0] * self.num_players
        for place, k in enumerate(order):
            ranks[k] = place + 1
        return ranks

    def wins(self) -> list[float]:
        """Win share of each seat: 1 for the winner, or ``1/k`` each for ``k`` tied leaders (shared)."""
        sc = self.scores()
        best = max(sc)
        leaders = [k for k in range(self.num_players) if sc[k] == best]
        if self.tie_shared:
            return [1.0 / len(leaders) if k in leaders else 0.0 for k in range(self.num_players)]
        return [1.0 if k == leaders[-1] else 0.0 for k in range(self.num_players)]

    def returns(self) -> list[float]:
        """OpenSpiel returns: :meth:`wins` once the game is over, zeros before."""
        return self.wins() if self.is_terminal() else [0.0] * self.num_players

    # ----------------------------------------------------------------------------- edges

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Every game-record field but ``rng``, shaped as in ``state.new_state(...)[g][field]``."""
        n, nm, npt = self.num_players, len(self.m_kind), len(self.p_vp)

        def seats(values: list, dtype) -> np.ndarray:
            out = np.zeros((MAX_PLAYERS,) + np.shape(values[0]), dtype)
            out[:n] = values
            return out

        m_row = np.full(MAX_MERCHANT_ROW, -1, np.int16)
        m_row[: self.merchant_row] = self.m_row
        m_row_crystals = np.zeros((MAX_MERCHANT_ROW, NUM_COLOURS), np.int16)
        m_row_crystals[: self.merchant_row] = self.m_row_crystals
        p_row = np.full(MAX_POINT_ROW, -1, np.int16)
        p_row[: self.point_row] = self.p_row
        cm, cp = deck_capacity(nm), deck_capacity(npt)  # per-card fields: the deck capacity, slots past it empty

        def cards(values: list, size: int, dtype, empty: int = -1) -> np.ndarray:
            out = np.full(size, empty, dtype)
            out[: len(values)] = values
            return out

        owned = np.full((MAX_PLAYERS, cm), -1, np.int16)
        num_owned = np.zeros(MAX_PLAYERS, np.int16)
        for k in range(n):
            mine = [c for c, status in enumerate(self.cards[k]) if status != NOT_OWNED]
            owned[k, : len(mine)] = mine
            num_owned[k] = len(mine)
        return {
            "num_players": np.array(n, np.int8),
            "current": np.array(self.current, np.int8),
            "turn": np.array(self.turn, np.int32),
            "triggered": np.array(self.triggered, np.int8),
            "over": np.array(self.over, np.int8),
            "crystals": seats(self.crystals, np.int16),
            "cards": seats([cards(c, cm, np.int8, NOT_OWNED) for c in self.cards], np.int8),
            "owned": owned,
            "num_owned": num_owned,
            "num_points": seats(self.num_points, np.int16),
            "point_vp": seats(self.point_vp, np.int16),
            "copper": seats(self.copper, np.int16),
            "silver": seats(self.silver, np.int16),
            "copper_left": np.array(self.copper_left, np.int16),
            "silver_left": np.array(self.silver_left, np.int16),
            "m_row": m_row,
            "m_row_crystals": m_row_crystals,
            "m_deck": cards(self.m_deck, deck_capacity(len(self.m_deck)), np.int16),
            "m_deck_pos": np.array(self.m_deck_pos, np.int16),
            "p_row": p_row,
            "p_deck": cards(self.p_deck, cp, np.int16),
            "p_deck_pos": np.array(self.p_deck_pos, np.int16),
            "m_turn": cards(self.m_turn, cm, np.int32),
            "p_turn": cards(self.p_turn, cp, np.int32),
            "p_owner": cards(self.p_owner, cp, np.int8),
        }

    def describe(self, record: Any) -> str:
        """One readable line for ``record`` played in the current position (before applying it).

        Seats and row positions are numbered from 1, as in the run tables.
        """
        rec = [int(x) for x in record]
        kind, arg = rec[M_KIND], rec[M_ARG]
        seat = self.current + 1
        if kind == PLAY and 0 <= arg < len(self.m_kind):
            text = f"seat {seat} plays {self._m_id(arg)} ({self._card_text(arg)})"
            if self.m_kind[arg] == KIND_TRADE:
                text += f" x{rec[M_TIMES]}"
            elif self.m_kind[arg] == KIND_UPGRADE:
                steps = rec[M_STEPS : M_STEPS + 3]
                moved = [f"{COLOURS[c]}->{COLOURS[c + 1]} x{s}" for c, s in enumerate(steps) if s]
                text += ": " + (", ".join(moved) or "no steps")
        elif kind == ACQUIRE and 0 <= arg < self.merchant_row:
            card = self.m_row[arg]
            name = self._m_id(card) if card >= 0 else "nothing"
            paid = ",".join(COLOURS[c] if 0 <= c < NUM_COLOURS else "?" for c in rec[M_PAY : M_PAY + arg])
            text = f"seat {seat} acquires {name} at position {arg + 1} "
            text += f"paying {paid}" if arg else "for free"
            gain = self.m_row_crystals[arg]
            if any(gain):
                text += f" (gets {_crystal_str(gain)})"
        elif kind == REST:
            back = [self._m_id(c) for c, s in enumerate(self.cards[self.current]) if s == PLAYED]
            text = f"seat {seat} rests (takes back {', '.join(back) or 'nothing'})"
        elif kind == CLAIM and 0 <= arg < self.point_row:
            card = self.p_row[arg]
            if card < 0:
                text = f"seat {seat} claims nothing at position {arg + 1}"
            else:
                coin = ("", " + copper", " + silver")[self._coin_at(arg)]
                cost = _crystal_str(self.p_cost[card])
                text = f"seat {seat} claims {self._p_id(card)} ({cost}, {self.p_vp[card]} VP){coin}"
        elif kind == PASS:
            text = f"seat {seat} passes"
        else:
            text = f"seat {seat}: invalid move kind {kind} arg {arg}"
        discard = rec[M_DISCARD : M_DISCARD + NUM_COLOURS]
        if any(discard):
            text += f"; returns {_crystal_str(discard)} over the limit"
        return text

    def __str__(self) -> str:
        rounds = self.turn // self.num_players
        head = f"Century: {self.num_players} players, turn {self.turn} (round {rounds + 1}), "
        head += f"seat {self.current + 1} to move" if not self.is_terminal() else f"game over ({self.end_reason})"
        if self.triggered and not self.is_terminal():
            head += ", end triggered"
        lines = [head]
        row = []
        for pos, card in enumerate(self.m_row):
            if card < 0:
                row.append(f"[{pos + 1}] -")
                continue
            on = self.m_row_crystals[pos]
            extra = f" +{_crystal_str(on)}" if any(on) else ""
            row.append(f"[{pos + 1}] {self._m_id(card)} {self._card_text(card)}{extra}")
        lines.append("merchants: " + "  ".join(row) + f"  | deck {len(self.m_deck) - self.m_deck_pos}")
        row = []
        for pos, card in enumerate(self.p_row):
            if card < 0:
                row.append(f"[{pos + 1}] -")
                continue
            coin = ("", " (copper)", " (silver)")[self._coin_at(pos)]
            cost = _crystal_str(self.p_cost[card])
            row.append(f"[{pos + 1}] {self._p_id(card)} {cost}={self.p_vp[card]}{coin}")
        lines.append("points:    " + "  ".join(row) + f"  | deck {len(self.p_deck) - self.p_deck_pos}")
        lines.append(f"coins left: copper {self.copper_left}, silver {self.silver_left}")
        scores = self.scores()
        for k in range(self.num_players):
            hand = " ".join(self._m_id(c) for c, s in enumerate(self.cards[k]) if s == IN_HAND) or "-"
            played = " ".join(self._m_id(c) for c, s in enumerate(self.cards[k]) if s == PLAYED) or "-"
            mark = ">" if k == self.current and not self.is_terminal() else " "
            lines.append(
                f"{mark}seat {k + 1}: {_crystal_str(self.crystals[k]) or '-':<10} "
                f"hand {hand} | played {played} | "
                f"{self.num_points[k]} point cards ({self.point_vp[k]} VP), copper {self.copper[k]}, "
                f"silver {self.silver[k]} | score {scores[k]}"
            )
        return "\n".join(lines)

    def _m_id(self, card: int) -> str:
        return self.data.merchant_ids[card]

    def _p_id(self, card: int) -> str:
        return self.data.point_ids[card]

    def _card_text(self, card: int) -> str:
        kind = self.m_kind[card]
        if kind == KIND_CREATE:
            return f"create {_crystal_str(self.m_out[card])}"
        if kind == KIND_UPGRADE:
            return f"upgrade {self.m_up[card]}"
        return f"{_crystal_str(self.m_in[card])}->{_crystal_str(self.m_out[card])}"


# --------------------------------------------------------------------------------- helpers


def _tables(data: CenturyData | CenturyTables) -> CenturyTables:
    return data.tables if isinstance(data, CenturyData) else data


def _covers(have: list[int], need: list[int]) -> bool:
    return all(h >= n for h, n in zip(have, need, strict=True))


def _counts(colours: Any) -> list[int]:
    """Counts (Y, G, T, M) of a sequence of colour indices or a crystal string."""
    out = [0] * NUM_COLOURS
    for c in colours:
        out[COLOURS.index(c) if isinstance(c, str) else c] += 1
    return out


def _crystal_str(counts: list[int]) -> str:
    return "".join(COLOURS[c] * counts[c] for c in range(NUM_COLOURS))


def _multisets(have: list[int], size: int) -> list[tuple[int, ...]]:
    """Distinct multisets of ``size`` colours drawn from ``have``, each as a sorted colour tuple."""
    out = []

    def rec(colour: int, left: int, chosen: list[int]) -> None:
        if colour == NUM_COLOURS - 1:
            if left <= have[colour]:
                out.append(tuple(chosen + [colour] * left))
            return
        for k in range(min(left, have[colour]) + 1):
            rec(colour + 1, left - k, chosen + [colour] * k)

    rec(0, size, [])
    return out


def _upgrade_steps(have: list[int], up: int) -> list[tuple[int, int, int]]:
    """Every (sY, sG, sT) with 1 <= total <= up that the caravan allows; each is a distinct outcome."""
    out = []
    for sy in range(min(up, have[0]) + 1):
        for sg in range(min(up - sy, have[1] + sy) + 1):
            for st in range(min(up - sy - sg, have[2] + sg) + 1):
                if sy + sg + st >= 1:
                    out.append((sy, sg, st))
    return out


def public_state(g: CenturyReference) -> dict[str, Any]:
    """The public position of ``g`` as plain JSON values (docs/replay.md, replay state schema 1).

    Every Merchant card a seat holds came from its starting hand or the open row, so hands are public; Point
    cards are counted (their VP are in the score).
    """
    d = g.data
    scores = g.scores()
    seats = [
        {
            "seat": s + 1,
            "score": scores[s],
            "crystals": dict(zip(COLOURS, g.crystals[s], strict=True)),
            "hand": [d.merchant_ids[m] for m, v in enumerate(g.cards[s]) if v == IN_HAND],
            "played": [d.merchant_ids[m] for m, v in enumerate(g.cards[s]) if v == PLAYED],
            "point_cards": g.num_points[s],
            "copper": g.copper[s],
            "silver": g.silver[s],
        }
        for s in range(g.num_players)
    ]
    board = {
        "turn": g.turn,
        "merchant_row": [
            {"card": d.merchant_ids[m], "crystals": dict(zip(COLOURS, g.m_row_crystals[k], strict=True))}
            for k, m in enumerate(g.m_row)
            if m >= 0
        ],
        "point_row": [d.point_ids[p] for p in g.p_row if p >= 0],
        "merchant_deck": len(g.m_deck) - g.m_deck_pos,
        "point_deck": len(g.p_deck) - g.p_deck_pos,
        "copper_left": g.copper_left,
        "silver_left": g.silver_left,
    }
    return {"seats": seats, "board": board}
