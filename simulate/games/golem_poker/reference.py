"""Golem-poker reference engine: one game (one pot) in plain, readable Python.

This is the executable form of ``docs/golem-poker.md``, written apart from the numba engine
(``engine.py``) so that the two can be compared move by move; it favours clarity over speed. The
shape follows OpenSpiel's ``State``: :meth:`GolemPokerReference.current_player`,
:meth:`~GolemPokerReference.legal_actions`, :meth:`~GolemPokerReference.apply_action`,
:meth:`~GolemPokerReference.is_terminal`, :meth:`~GolemPokerReference.returns` and ``str()``.

Moves are the ``int32`` records of ``state.py`` (``M_KIND``, ``M_AMOUNT``, ``M_CARDS``).
:meth:`~GolemPokerReference.legal_actions` lists the legal kinds as keys: ``('fold',)``,
``('match',)``, ``('bet', lo, hi)`` and ``('raise', lo, hi)`` with the legal amounts, and
``('discard', mask)`` for every legal set of hand positions.

Hands are valued with the tested evaluator's public functions (``evaluate5``, ``best_of``); the
deck is drawn with ``simulate.rng.randint`` so that both engines deal identical cards.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np

from simulate.gamekit import SeatedReference
from simulate.games.golem_poker import evaluator as ev
from simulate.games.golem_poker.data import HAND_SIZE, MAX_DEALS, MAX_PLAYERS, PokerData
from simulate.games.golem_poker.state import *
from simulate.rng import order_seed, randint

BIG_CHIPS = 1_000_000  # the bound of an uncapped bet or raise (as in the engine)
MAX_TURNS = 5000
SUIT_LETTERS = "fcsi"  # flesh, clay, stone, iron


class Kind(IntEnum):
    """Move kinds (``M_KIND``), the same numbers as ``state.py``."""

    FOLD = FOLD
    MATCH = MATCH
    BET = BET
    RAISE = RAISE
    DISCARD = DISCARD


class IllegalMove(ValueError):
    """A move record that is not legal in the current position."""


def make_record(kind: int, amount: int = 0, cards: int = 0) -> np.ndarray:
    """A move record: ``kind`` with a bet or raise ``amount`` in chips or a discard mask ``cards``."""
    mv = new_move()
    mv[M_KIND], mv[M_AMOUNT], mv[M_CARDS] = kind, amount, cards
    return mv


def card_text(c: int) -> str:
    """A card as rank and suit letter, e.g. ``13i`` (13 of iron); ``-`` for none."""
    return "-" if c < 0 else f"{c // 4 + 1}{SUIT_LETTERS[c % 4]}"


class GolemPokerReference(SeatedReference):
    """One game of golem: from the antes until the pot is won.

    Seats are 0..n-1 in turn order; seat 0 holds the amulet and acts first in every round.
    """

    END_REASONS = END_REASONS

    def __init__(self, data: PokerData, num_players: int, setup_seed: int) -> None:
        if not 3 <= num_players <= MAX_PLAYERS:
            raise ValueError(f"golem takes 3-{MAX_PLAYERS} players, not {num_players}")
        self.rules = dict(data.rules)
        self.table = dict(data.table)
        self.num_players = n = num_players
        rules = self.rules
        self.ante = rules["ante"]
        self.min_bet = rules["min_bet_antes"] * self.ante
        self.min_raise = rules["min_raise_antes"] * self.ante
        self.max_bet = rules["max_bet_antes"] * self.ante or None
        self.max_raise = rules["max_raise_antes"] * self.ante or None
        self.max_raises = rules["max_raises"] or None
        self.penalty = rules["penalty_antes"] * self.ante
        self.ace_high = rules["rank_one"] == "high"
        self.credit = rules["cannot_pay"] == "credit"
        self.max_discards = self.table["max_discards"]

        self.dealer_rng = np.array([order_seed(np.uint64(setup_seed))], dtype=np.uint64)  # the dealing stream
        self.over = RUNNING
        self.deal = 1
        self.turn = 0
        self.pot = 0
        self.house_take = 0
        self.stack = [rules["stack_antes"] * self.ante] * n
        self.active = [True] * n
        self.paid_ante = [0] * n
        self.paid_bet = [0] * n
        self.paid_penalty = [0] * n
        self.won = [0] * n
        self.share = [0.0] * n
        self.fold_deal = [0] * n
        self.fold_phase = [OUT_NONE] * n
        self.showdowns = [0] * n
        self.best_hands = [0] * n
        self.penalties = [0] * n
        self.discarded = [0] * n
        self.num_bets = [0] * n
        self.num_raises = [0] * n
        self.num_calls = [0] * n
        self.final_value = [NO_VALUE] * n
        self.num_showdowns = 0
        self.golem_wins = 0
        self.log: list[dict[str, int]] = []  # one entry per showdown
        for s in range(n):
            self._pay(s, self.ante)
            self.paid_ante[s] += self.ante
        self._new_deal()
        self.opening_value = [self.value_of(self.hand[s]) for s in range(n)]

    # ------------------------------------------------------------------ OpenSpiel-style API

    def legal_actions(self) -> list[tuple]:
        """Legal moves of the player to act as keys (see the module docstring)."""
        if self.is_terminal():
            return []
        if self.phase == DRAW:
            return [("discard", m) for m in range(32) if bin(m).count("1") <= self.max_discards]
        keys: list[tuple] = [("fold",)]
        if self.credit or self.to_match() <= max(self.stack[self.current], 0):
            keys.append(("match",))
        lo, hi = self.bet_range()
        if lo <= hi:
            keys.append(("bet", lo, hi))
        lo, hi = self.raise_range()
        if lo <= hi:
            keys.append(("raise", lo, hi))
        return keys

    def is_legal(self, record: Any) -> bool:
        kind, amount, cards = (int(x) for x in record[:3])
        for key in self.legal_actions():
            if key[0] == "discard" and kind == DISCARD and cards == key[1]:
                return True
            if key[0] in ("bet", "raise") and kind == (BET if key[0] == "bet" else RAISE):
                return key[1] <= amount <= key[2]
            if (key[0] == "fold" and kind == FOLD) or (key[0] == "match" and kind == MATCH):
                return True
        return False

    def apply_action(self, record: Any) -> None:
        """Apply a legal move and everything that follows it up to the next decision."""
        if not self.is_legal(record):
            raise IllegalMove(f"{self.describe(record)} is not legal for seat {self.current + 1}")
        kind, amount, cards = (int(x) for x in record[:3])
        s = self.current
        self.turn += 1
        if kind == DISCARD:
            self._discard_and_draw(s, cards)
        elif kind == FOLD:
            self._leave(s, OUT_BET1 if self.phase == BET1 else OUT_BET2)
        elif kind == MATCH:
            owed = self.current_bet - self.bet_in[s]
            if owed > 0:
                self.num_calls[s] += 1
                self.aggr[s] = max(self.aggr[s], 1)
                self._put_bet(s, owed)
        else:
            if kind == BET:
                self.num_bets[s] += 1
                new_bet = amount
            else:
                self.num_raises[s] += 1
                self.raises += 1
                new_bet = self.current_bet + amount
            self.aggr[s] = 2
            self._put_bet(s, new_bet - self.bet_in[s])
            self.current_bet = new_bet
            self.need = [self.active[o] for o in range(self.num_players)]
        self.need[s] = False
        self._continue()
        if not self.is_terminal() and self.turn >= MAX_TURNS:
            self._pay_out([o for o in range(self.num_players) if self.active[o]], END_TURN_CAP)

    def returns(self) -> list[float]:
        """Net chips of each seat (OpenSpiel's returns)."""
        return [float(x) for x in self.scores()]

    # ------------------------------------------------------------------ betting limits

    def to_match(self) -> int:
        return self.current_bet - self.bet_in[self.current]

    def _table_stakes(self) -> int:
        """Largest total anyone may have in this round: what every player still in can match."""
        if self.credit:
            return 8 * BIG_CHIPS
        return min(self.bet_in[o] + max(self.stack[o], 0) for o in range(self.num_players) if self.active[o])

    def bet_range(self) -> tuple[int, int]:
        if self.phase == DRAW or self.current_bet != 0:
            return 1, 0
        hi = min(self._table_stakes(), BIG_CHIPS)
        if self.max_bet:
            hi = min(hi, self.max_bet)
        return self.min_bet, hi

    def raise_range(self) -> tuple[int, int]:
        if self.phase == DRAW or self.current_bet == 0:
            return 1, 0
        if self.max_raises and self.raises >= self.max_raises:
            return 1, 0
        hi = min(self._table_stakes() - self.current_bet, BIG_CHIPS)
        if self.max_raise:
            hi = min(hi, self.max_raise)
        return self.min_raise, hi

    # ------------------------------------------------------------------ flow

    def _draw_card(self) -> int:
        """A uniform pick among the cards not yet dealt (the engine's partial shuffle)."""
        p = self.deck_pos
        j = p + int(randint(self.dealer_rng, 0, 52 - p))
        self.deck[p], self.deck[j] = self.deck[j], self.deck[p]
        self.deck_pos += 1
        return self.deck[p]

    def _new_deal(self) -> None:
        n = self.num_players
        self.deck = list(range(52))
        self.deck_pos = 0
        self.pile: list[tuple[int, int]] = []  # (card, seat that discarded it)
        self.drawn = [-1] * MAX_PLAYERS
        self.aggr = [0] * MAX_PLAYERS  # this deal: 2 bet or raised, 1 matched a bet
        self.hand = [[-1] * HAND_SIZE for _ in range(n)]
        for k in range(HAND_SIZE):
            for s in range(n):
                if self.active[s]:
                    self.hand[s][k] = self._draw_card()
        self._begin(BET1)

    def _begin(self, phase: int) -> None:
        self.phase = phase
        self.current_bet = 0
        self.raises = 0
        self.bet_in = [0] * self.num_players
        self.need = list(self.active)
        self.current = self.need.index(True)

    def _continue(self) -> None:
        players = [o for o in range(self.num_players) if self.active[o]]
        if len(players) == 1:
            self._pay_out(players, END_LAST_PLAYER)
            return
        n = self.num_players
        for step in range(1, n + 1):
            o = (self.current + step) % n
            if self.active[o] and self.need[o]:
                self.current = o
                return
        if self.phase == BET1:
            self._begin(DRAW)
        elif self.phase == DRAW:
            self._begin(BET2)
        else:
            self._showdown()

    def _pay(self, s: int, chips: int) -> None:
        self.stack[s] -= chips
        self.pot += chips

    def _put_bet(self, s: int, chips: int) -> None:
        self._pay(s, chips)
        self.paid_bet[s] += chips
        self.bet_in[s] += chips

    def _leave(self, s: int, how: int) -> None:
        self.active[s] = False
        self.fold_deal[s] = self.deal
        self.fold_phase[s] = how

    def _discard_and_draw(self, s: int, mask: int) -> None:
        thrown = [k for k in range(HAND_SIZE) if mask >> k & 1]
        for k in thrown:
            self.pile.append((self.hand[s][k], s))
        for k in thrown:
            self.hand[s][k] = self._draw_card()
        self.drawn[s] = len(thrown)
        self.discarded[s] += len(thrown)

    def value_of(self, cards: list[int]) -> int:
        return int(ev.evaluate5(np.array([cards]), self.ace_high)[0])

    def golem(self) -> tuple[int, list[int]]:
        """The golem's value and cards this deal (drawing any fill from the deck), NO_VALUE if none."""
        cards = [c for c, owner in self.pile if self.rules["golem_folded"] or self.active[owner]]
        if len(cards) < HAND_SIZE:
            if self.rules["golem_short"] == "none":
                return NO_VALUE, cards
            if self.rules["golem_short"] == "deck":
                cards += [self._draw_card() for _ in range(HAND_SIZE - len(cards))]
        return int(ev.best_of(np.array([cards + [-1]]), self.ace_high, counts=np.array([len(cards)]))[0]), cards

    def _showdown(self) -> None:
        n = self.num_players
        players = [s for s in range(n) if self.active[s]]
        for s in players:
            self.final_value[s] = self.value_of(self.hand[s])
            self.showdowns[s] += 1
        best = max(self.final_value[s] for s in players)
        golem, cards = self.golem()
        beaten = best > golem or (self.rules["golem_tie"] == "player" and best == golem)
        self.log.append(
            {
                "beaten": int(beaten),
                "hand": best,
                "golem": golem,
                "golem_cards": len(cards),
                "players": len(players),
                "golem_hand": cards,
                "hands": {s: list(self.hand[s]) for s in players},
                "best": [s for s in players if self.final_value[s] == best],
            }
        )
        self.num_showdowns += 1
        leaders = [s for s in players if self.final_value[s] == best]
        for s in leaders:
            self.best_hands[s] += 1
        if beaten:
            self._pay_out(leaders, END_SHOWDOWN)
            return
        self.golem_wins += 1
        for s in leaders:
            if self._still_in() > 1:
                self.penalties[s] += 1
                self.paid_penalty[s] += self._forced(s, self.penalty)
        if self.rules["redeal_ante"]:
            for s in range(n):
                if self.active[s] and self._still_in() > 1:
                    self.paid_ante[s] += self._forced(s, self.ante)
        if self._still_in() == 1:
            self._pay_out([s for s in range(n) if self.active[s]], END_LAST_PLAYER)
        elif self.deal >= self.table["max_deals"]:
            self._pay_out([s for s in range(n) if self.active[s]], END_TURN_CAP)
        else:
            self.deal += 1
            self._new_deal()

    def _still_in(self) -> int:
        return sum(self.active)

    def _forced(self, s: int, chips: int) -> int:
        """A payment the rules force; a player who cannot pay it pays what they have and leaves."""
        if self.credit or self.stack[s] >= chips:
            self._pay(s, chips)
            return chips
        paid = max(self.stack[s], 0)
        self._pay(s, paid)
        self._leave(s, OUT_FORCED)
        return paid

    def house_cut(self, pot: int) -> int:
        exact = pot * round(self.rules["house_cut_pct"] * 100)
        rounding = self.rules["house_rounding"]
        if rounding == "down":
            return exact // 10000
        if rounding == "nearest":
            return (exact + 5000) // 10000
        return -((-exact) // 10000)

    def _pay_out(self, winners: list[int], reason: int) -> None:
        if self.rules["player_tie"] == "amulet" and reason != END_TURN_CAP:
            winners = winners[:1]
        self.house_take = self.house_cut(self.pot)
        net = self.pot - self.house_take
        each, odd = divmod(net, len(winners))
        for k, s in enumerate(winners):
            chips = each + (1 if k < odd else 0)
            self.won[s] += chips
            self.stack[s] += chips
            self.share[s] = 1.0 / len(winners)
        self.over = reason

    # ------------------------------------------------------------------ results

    def score_parts(self) -> list[tuple[int, int, int, int]]:
        """Per seat: chips from the pot, -antes, -bets, -penalties (they sum to the net chips)."""
        return [
            (self.won[s], -self.paid_ante[s], -self.paid_bet[s], -self.paid_penalty[s]) for s in range(self.num_players)
        ]

    def scores(self) -> list[int]:
        return [sum(p) for p in self.score_parts()]

    def ranks(self) -> list[int]:
        sc = self.scores()
        return [1 + sum(o > x for o in sc) for x in sc]

    def wins(self) -> list[float]:
        return list(self.share)

    def to_arrays(self) -> dict[str, np.ndarray]:
        """State as the engine's record fields (seats padded to MAX_PLAYERS), for comparison."""
        n = self.num_players

        def seats(values: list, dtype, fill=0) -> np.ndarray:
            out = np.full(MAX_PLAYERS, fill, dtype)
            out[:n] = values
            return out

        hand = np.full((MAX_PLAYERS, HAND_SIZE), -1, np.int8)
        hand[:n] = self.hand
        pile = np.full(MAX_GOLEM, -1, np.int8)
        owner = np.full(MAX_GOLEM, -1, np.int8)
        for k, (c, o) in enumerate(self.pile):
            pile[k], owner[k] = c, o

        def log(key: str, convert=int) -> np.ndarray:
            out = np.zeros(MAX_DEALS, np.int8)
            out[: len(self.log)] = [convert(e[key]) for e in self.log]
            return out

        def category(value: int) -> int:
            return -1 if value == NO_VALUE else value >> ev.CATEGORY_SHIFT

        out = {
            "num_players": np.int8(n),
            "over": np.int8(self.over),
            "deal": np.int16(self.deal),
            "turn": np.int32(self.turn),
            "deck": np.array(self.deck, np.int8),
            "deck_pos": np.int8(self.deck_pos),
            "hand": hand,
            "pile": pile,
            "pile_owner": owner,
            "pile_n": np.int8(len(self.pile)),
            "active": seats([int(a) for a in self.active], np.int8),
            "num_in": np.int8(sum(self.active)),
            "value": seats([self.value_of(h) if h[0] >= 0 else NO_VALUE for h in self.hand], np.int32, NO_VALUE),
            "drawn": np.array(self.drawn, np.int8),
            "aggr": np.array(self.aggr, np.int8),
            "stack": seats(self.stack, np.int64),
            "pot": np.int64(self.pot),
            "paid_ante": seats(self.paid_ante, np.int64),
            "paid_bet": seats(self.paid_bet, np.int64),
            "paid_penalty": seats(self.paid_penalty, np.int64),
            "won": seats(self.won, np.int64),
            "share": seats(self.share, np.float32),
            "house_take": np.int64(self.house_take),
            "fold_deal": seats(self.fold_deal, np.int16),
            "fold_phase": seats(self.fold_phase, np.int8),
            "showdowns": seats(self.showdowns, np.int16),
            "best_hands": seats(self.best_hands, np.int16),
            "penalties": seats(self.penalties, np.int16),
            "discarded": seats(self.discarded, np.int16),
            "num_bets": seats(self.num_bets, np.int16),
            "num_raises": seats(self.num_raises, np.int16),
            "num_calls": seats(self.num_calls, np.int16),
            "opening_value": seats(self.opening_value, np.int32, NO_VALUE),
            "final_value": seats(self.final_value, np.int32, NO_VALUE),
            "num_showdowns": np.int16(self.num_showdowns),
            "golem_wins": np.int16(self.golem_wins),
            "last_hand": np.int32(self.log[-1]["hand"] if self.log else NO_VALUE),
            "last_golem": np.int32(self.log[-1]["golem"] if self.log else NO_VALUE),
            "last_golem_cards": np.int8(self.log[-1]["golem_cards"] if self.log else -1),
            "log_beaten": log("beaten"),
            "log_hand_cat": log("hand", category),
            "log_golem_cat": log("golem", category),
            "log_golem_cards": log("golem_cards"),
            "log_players": log("players"),
            "rng0": self.dealer_rng.copy(),
        }
        if not self.is_terminal():
            out.update(
                {
                    "current": np.int8(self.current),
                    "phase": np.int8(self.phase),
                    "need": seats([int(x) for x in self.need], np.int8),
                    "bet_in": seats(self.bet_in, np.int64),
                    "current_bet": np.int64(self.current_bet),
                    "raises": np.int16(self.raises),
                    "match_ok": np.int8(("match",) in self.legal_actions()),
                    "bet_lo": np.int64(self.bet_range()[0]),
                    "bet_hi": np.int64(self.bet_range()[1]),
                    "raise_lo": np.int64(self.raise_range()[0]),
                    "raise_hi": np.int64(self.raise_range()[1]),
                }
            )
        return out

    # ------------------------------------------------------------------ text

    def describe(self, record: Any) -> str:
        """A move in words, e.g. ``raise 40 to 60`` or ``discard 3f 7c``."""
        kind, amount, cards = (int(x) for x in record[:3])
        if kind == DISCARD:
            if self.is_terminal() or self.phase != DRAW:
                return f"discard mask {cards}"
            thrown = [card_text(self.hand[self.current][k]) for k in range(HAND_SIZE) if cards >> k & 1]
            return "stand pat" if not thrown else "discard " + " ".join(thrown)
        if kind == FOLD:
            return "fold"
        if kind == MATCH:
            owed = 0 if self.is_terminal() else self.to_match()
            return f"match {owed}" if owed > 0 else "check"
        if kind == BET:
            return f"bet {amount}"
        if kind == RAISE:
            return f"raise {amount} to {self.current_bet + amount}"
        return f"unknown move {kind}"

    def hand_text(self, s: int) -> str:
        return " ".join(card_text(c) for c in self.hand[s])

    def __str__(self) -> str:
        lines = [
            f"deal {self.deal}, "
            + (PHASE_NAMES[self.phase] if not self.is_terminal() else self.end_reason)
            + f", pot {self.pot}"
        ]
        for s in range(self.num_players):
            state = "in" if self.active[s] else "out"
            lines.append(f"  seat {s + 1}: {self.hand_text(s):<18} stack {self.stack[s]:>6}  {state}")
        return "\n".join(lines)


def public_state(g: GolemPokerReference) -> dict[str, Any]:
    """The public position of ``g`` as plain JSON values (docs/replay.md, replay state schema 1).

    Hands and the face-down discard pile are hidden: a hand is its size, the pile its count (the showdown events
    show the hands that are revealed).
    """
    scores = g.scores()
    seats = [
        {
            "seat": s + 1,
            "score": scores[s],
            "stack": g.stack[s],
            "in": bool(g.active[s]),
            "hand": sum(1 for c in g.hand[s] if c >= 0),
            "bets_paid": g.paid_bet[s],
            "discarded": g.discarded[s],
        }
        for s in range(g.num_players)
    ]
    board = {
        "deal": g.deal,
        "phase": PHASE_NAMES[g.phase] if not g.is_terminal() else g.end_reason,
        "pot": g.pot,
        "current_bet": g.current_bet,
        "discard_pile": len(g.pile),
        "deck": 52 - g.deck_pos,
    }
    return {"seats": seats, "board": board}
