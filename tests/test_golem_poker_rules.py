"""Rule tests for golem poker: scripted positions with exact outcomes, run on both engines at once.

Every position is played on the plain-Python reference engine and on the numba engine side by
side (``Table``): each move must be legal (or illegal) in both, and every state field must agree
after it. Scripted hands and discard piles are written into both engines; the cards drawn stay
random, so a test that depends on final hands scripts them after the draw. A hypothesis test
plays whole games under random rule options and checks the invariants after every move.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.datafiles import default_dir
from simulate.games.golem_poker import bots as B
from simulate.games.golem_poker import data as D
from simulate.games.golem_poker.engine import game_init, game_step
from simulate.games.golem_poker.evaluator import ONE_PAIR, STRAIGHT, category
from simulate.games.golem_poker.play import trace_game
from simulate.games.golem_poker.reference import GolemPokerReference, IllegalMove, make_record
from simulate.games.golem_poker.state import (
    BET,
    BET1,
    BET2,
    DISCARD,
    DRAW,
    END_LAST_PLAYER,
    END_SHOWDOWN,
    END_TURN_CAP,
    FOLD,
    MATCH,
    NO_VALUE,
    OUT_BET1,
    OUT_BET2,
    OUT_FORCED,
    RAISE,
    RUNNING,
    new_state,
)

SETUP_SEED = 4159  # any seed: the scripted tests overwrite what they depend on
DATA = D.load()
ANTE = 20  # seeds/golem-poker/game.toml
STACK = 100 * ANTE


# --------------------------------------------------------------------------------- helpers


def card(text: str) -> int:
    """``'13i'`` -> the 13 of iron (suits f, c, s, i = flesh, clay, stone, iron)."""
    return 4 * (int(text[:-1]) - 1) + "fcsi".index(text[-1])


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


class Table:
    """One game on both engines, compared field by field after every change."""

    def __init__(self, n: int = 4, data: D.PokerData | None = None, **rules) -> None:
        self.data = data or (D.load(rules=rules) if rules else DATA)
        self.n = n
        self.ref = GolemPokerReference(self.data, n, SETUP_SEED)
        self.st = new_state(1)
        game_init(self.st, self.data.kernel, 0, n, SETUP_SEED, 0)
        self.check()

    @property
    def rec(self):
        return self.st[0]

    def check(self) -> None:
        for name, value in self.ref.to_arrays().items():
            fast = self.rec["rng"][:1] if name == "rng0" else self.rec[name]
            assert np.array_equal(value, fast), f"field {name}: reference {value}, numba {fast}"

    def hands(self, *hands: str | None) -> Table:
        """Script the hands of seats 1, 2, ... (None keeps a seat's hand)."""
        for s, text in enumerate(hands):
            if text is not None:
                cs = cards(text)
                self.ref.hand[s] = list(cs)
                self.rec["hand"][s] = cs
                self.rec["value"][s] = self.ref.value_of(cs)
        self.check()
        return self

    def pile(self, *entries: tuple[str, int]) -> Table:
        """Script the discard pile as (card, 1-based seat) pairs."""
        self.ref.pile = [(card(c), s - 1) for c, s in entries]
        self.rec["pile"][:] = -1
        self.rec["pile_owner"][:] = -1
        for k, (c, s) in enumerate(entries):
            self.rec["pile"][k] = card(c)
            self.rec["pile_owner"][k] = s - 1
        self.rec["pile_n"] = len(entries)
        self.check()
        return self

    def act(self, kind: int, amount: int = 0, mask: int = 0) -> Table:
        mv = make_record(kind, amount, mask)
        assert self.ref.is_legal(mv), f"{self.ref.describe(mv)} should be legal"
        assert game_step(self.st, self.data.kernel, 0, mv) == 0
        self.ref.apply_action(mv)
        self.check()
        return self

    def illegal(self, kind: int, amount: int = 0, mask: int = 0) -> None:
        mv = make_record(kind, amount, mask)
        assert not self.ref.is_legal(mv)
        with pytest.raises(IllegalMove):
            self.ref.apply_action(mv)
        assert game_step(self.st, self.data.kernel, 0, mv) == 1
        self.check()

    def checks(self, times: int | None = None) -> Table:
        """Everyone still to act in this betting round checks or matches (or ``times`` players do)."""
        phase, deal = self.ref.phase, self.ref.deal
        k = 0
        while not self.ref.is_terminal() and self.ref.phase == phase and self.ref.deal == deal:
            if times is not None and k == times:
                break
            self.act(MATCH)
            k += 1
        return self

    def stand_pat(self) -> Table:
        while not self.ref.is_terminal() and self.ref.phase == DRAW:
            self.act(DISCARD, mask=0)
        return self

    def to_second_round(self) -> Table:
        return self.checks().stand_pat()

    @property
    def seat(self) -> int:
        """1-based seat to act."""
        return self.ref.current_player() + 1


def chips_conserved(t: Table) -> None:
    n = t.n
    start = t.data.rules["stack_antes"] * t.data.rules["ante"]
    if t.ref.is_terminal():
        assert sum(t.ref.stack) + t.ref.house_take == n * start
        assert sum(t.ref.scores()) == -t.ref.house_take
    else:
        assert sum(t.ref.stack) + t.ref.pot == n * start


# --------------------------------------------------------------------------------- antes and deal


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_antes_stacks_and_the_deal(n: int) -> None:
    t = Table(n)
    assert t.ref.pot == n * ANTE and t.ref.stack == [STACK - ANTE] * n and t.ref.paid_ante == [ANTE] * n
    dealt = [c for h in t.ref.hand for c in h]
    assert len(dealt) == 5 * n == len(set(dealt)) and t.ref.deck_pos == 5 * n
    # one card at a time from the amulet: card k of seat s is the (k * n + s)-th card drawn
    for s in range(n):
        assert t.ref.hand[s] == [t.ref.deck[k * n + s] for k in range(5)]
    assert sorted(t.ref.deck) == list(range(52))
    assert t.ref.current_player() == 0 and t.ref.phase == BET1 and t.ref.deal == 1


def test_everyone_checks_then_draw_then_second_round_start_at_the_amulet() -> None:
    t = Table(4)
    assert [t.seat] == [1]
    t.checks()
    assert t.ref.phase == DRAW and t.seat == 1
    t.stand_pat()
    assert t.ref.phase == BET2 and t.seat == 1
    t.act(FOLD)  # seat 1 folds in the second round
    t.checks()
    assert t.ref.is_terminal() and t.ref.end_reason == "showdown"
    assert t.ref.fold_phase[0] == OUT_BET2 and t.ref.showdowns == [0, 1, 1, 1]


def test_rounds_start_at_the_first_player_in_from_the_amulet() -> None:
    t = Table(3)
    t.act(FOLD)  # seat 1 (the amulet) folds at once
    assert t.seat == 2
    t.checks()
    assert t.ref.phase == DRAW and t.seat == 2
    t.stand_pat()
    assert t.ref.phase == BET2 and t.seat == 2


# --------------------------------------------------------------------------------- betting


def test_bet_at_least_the_ante_and_raise_at_least_the_ante() -> None:
    t = Table(4)
    t.illegal(BET, ANTE - 1)
    t.illegal(RAISE, ANTE)  # nothing to raise
    t.act(BET, ANTE)
    t.illegal(BET, ANTE)  # a bet is made: match, raise or fold
    t.illegal(RAISE, ANTE - 1)
    t.act(RAISE, ANTE)
    assert t.ref.current_bet == 2 * ANTE and t.ref.raises == 1


def test_minimum_bet_and_raise_options() -> None:
    t = Table(4, min_bet_antes=2, min_raise_antes=3)
    t.illegal(BET, 2 * ANTE - 1)
    t.act(BET, 2 * ANTE)
    t.illegal(RAISE, 3 * ANTE - 1)
    t.act(RAISE, 3 * ANTE)
    assert t.ref.current_bet == 5 * ANTE


def test_a_raise_reopens_the_round_until_everyone_has_matched_or_folded() -> None:
    t = Table(4)
    t.act(BET, ANTE)  # seat 1
    t.act(RAISE, 2 * ANTE)  # seat 2: to 3 antes
    t.act(MATCH)  # seat 3
    t.act(FOLD)  # seat 4
    assert t.seat == 1 and t.ref.phase == BET1
    t.act(MATCH)  # seat 1 adds 2 antes
    assert t.ref.phase == DRAW
    assert t.ref.paid_bet == [3 * ANTE, 3 * ANTE, 3 * ANTE, 0]
    assert t.ref.pot == 4 * ANTE + 9 * ANTE and t.ref.num_calls == [1, 0, 1, 0]
    assert t.ref.fold_phase[3] == OUT_BET1 and t.ref.fold_deal[3] == 1
    chips_conserved(t)


def test_bet_and_raise_caps() -> None:
    t = Table(4, max_bet_antes=2, max_raise_antes=1)
    t.illegal(BET, 2 * ANTE + 1)
    t.act(BET, 2 * ANTE)
    t.illegal(RAISE, ANTE + 1)
    t.act(RAISE, ANTE)


def test_cap_on_the_number_of_raises_per_round() -> None:
    t = Table(4, max_raises=2)
    t.act(BET, ANTE).act(RAISE, ANTE).act(RAISE, ANTE)
    t.illegal(RAISE, ANTE)
    t.act(MATCH).act(MATCH).act(MATCH)
    assert t.ref.phase == DRAW
    t.stand_pat()
    t.act(BET, ANTE).act(RAISE, ANTE)  # the count starts again in the second round
    assert t.ref.raises == 1


def test_no_cap_by_default_but_table_stakes() -> None:
    t = Table(3, stack_antes=5)  # 100 chips, 80 after the ante
    t.illegal(BET, 4 * ANTE + 1)
    t.act(BET, 4 * ANTE)
    t.illegal(RAISE, ANTE)  # nobody could match more
    t.act(MATCH).act(MATCH)
    assert t.ref.stack == [0, 0, 0]
    t.stand_pat()
    t.illegal(BET, ANTE)
    t.act(MATCH)


def test_lone_player_wins_the_pot_less_the_house_cut() -> None:
    t = Table(3)
    t.act(BET, 2 * ANTE).act(FOLD).act(FOLD)
    assert t.ref.end_reason == "last_player" and t.ref.over == END_LAST_PLAYER
    pot = 3 * ANTE + 2 * ANTE
    assert t.ref.house_take == pot * 5 // 100
    assert t.ref.scores() == [pot - pot * 5 // 100 - 3 * ANTE, -ANTE, -ANTE]
    assert t.ref.wins() == [1.0, 0.0, 0.0] and t.ref.ranks() == [1, 2, 2]
    chips_conserved(t)


# --------------------------------------------------------------------------------- the draw


def test_discard_up_to_two_cards_face_down_and_draw_as_many() -> None:
    t = Table(4)
    t.checks()
    before = list(t.ref.hand[0])
    t.illegal(DISCARD, mask=0b00111)
    t.illegal(MATCH)
    t.act(DISCARD, mask=0b10010)
    after = t.ref.hand[0]
    assert [after[k] for k in (0, 2, 3)] == [before[k] for k in (0, 2, 3)]
    assert after[1] not in before and after[4] not in before
    assert t.ref.pile == [(before[1], 0), (before[4], 0)]
    assert t.ref.drawn[:4] == [2, -1, -1, -1] and t.ref.discarded[0] == 2
    t.act(DISCARD, mask=0).act(DISCARD, mask=1).act(DISCARD, mask=0b11000)
    assert t.ref.phase == BET2 and len(t.ref.pile) == 5 and t.ref.deck_pos == 20 + 5
    dealt = [c for h in t.ref.hand for c in h] + [c for c, _ in t.ref.pile]
    assert len(set(dealt)) == 25 and set(dealt) == set(t.ref.deck[:25])


def test_max_discards_is_a_table_parameter(tmp_path: Path) -> None:
    folder = _edited_copy(tmp_path, "max_discards = 2", "max_discards = 3")
    t = Table(4, data=D.load(folder))
    t.checks()
    t.act(DISCARD, mask=0b00111)
    t.illegal(DISCARD, mask=0b01111)


# --------------------------------------------------------------------------------- showdown and golem


def test_best_hand_beating_the_golem_wins_the_pot() -> None:
    t = Table(3).to_second_round()
    t.hands("2f 2c 7s 9i 12f", "3f 3c 8s 10i 13f", "1s 5s 6c 9f 11c")
    t.pile(("2s", 1), ("2i", 2), ("6i", 3))  # golem: pair of 2s, below the pair of 3s
    t.checks()
    assert t.ref.over == END_SHOWDOWN and t.ref.share == [0.0, 1.0, 0.0]
    pot = 3 * ANTE
    assert t.ref.won == [0, pot - pot * 5 // 100, 0]
    assert t.ref.log[0]["beaten"] == 1 and category(t.ref.log[0]["golem"]) == ONE_PAIR
    chips_conserved(t)


def test_golem_is_the_best_five_of_the_discards() -> None:
    t = Table(3).to_second_round()
    t.hands("2f 2c 7s 9i 12f", "3f 3c 8s 10i 13f", "1s 5s 6c 9f 11c")
    # seven discards holding a straight 4-5-6-7-8 and a pair of 12s: the straight counts
    t.pile(("4f", 1), ("5c", 1), ("6i", 2), ("7f", 2), ("8c", 3), ("12s", 3), ("12i", 1))
    t.checks()
    assert t.ref.log[0]["beaten"] == 0 and category(t.ref.log[0]["golem"]) == STRAIGHT
    assert t.ref.over == RUNNING and t.ref.deal == 2


def test_golem_win_penalty_redeal_and_the_same_amulet() -> None:
    t = Table(4)
    t.act(FOLD)  # seat 1 folds: not dealt again
    t.checks().stand_pat()
    t.hands(None, "2f 2c 7s 9i 12f", "3f 3c 8s 10i 13f", "1s 5s 6c 9f 11c")
    t.pile(("4f", 2), ("4c", 3), ("4s", 4))  # trips beat the pair of 3s
    t.checks()
    assert t.ref.deal == 2 and t.ref.golem_wins == 1 and t.ref.over == RUNNING
    assert t.ref.paid_penalty == [0, 0, 2 * ANTE, 0] and t.ref.penalties == [0, 0, 1, 0]
    assert t.ref.paid_ante == [ANTE] * 4, "no new antes by default"
    assert t.ref.pot == 4 * ANTE + 2 * ANTE
    assert t.ref.hand[0] == [-1] * 5 and all(c >= 0 for s in (1, 2, 3) for c in t.ref.hand[s])
    assert t.ref.pile == [] and t.ref.phase == BET1 and t.seat == 2, "same amulet: first player in acts"
    assert sorted(t.ref.deck) == list(range(52)) and t.ref.deck_pos == 15
    chips_conserved(t)


def test_redeal_ante_option() -> None:
    t = Table(3, redeal_ante=True).to_second_round()
    t.hands("2f 2c 7s 9i 12f", "3f 3c 8s 10i 13f", "1s 5s 6c 9f 11c")
    t.pile(("4f", 1), ("4c", 2), ("4s", 3))
    t.checks()
    assert t.ref.paid_ante == [2 * ANTE] * 3 and t.ref.pot == 6 * ANTE + 2 * ANTE


def test_tied_best_hands_each_pay_the_penalty() -> None:
    t = Table(3).to_second_round()
    t.hands("3s 3i 7s 9i 12f", "3f 3c 7f 9c 12s", "1s 5s 6c 9f 11c")
    t.pile(("4f", 1), ("4c", 2), ("4s", 3))
    t.checks()
    assert t.ref.paid_penalty == [2 * ANTE, 2 * ANTE, 0]


def test_golem_tie_does_not_beat_it_by_default() -> None:
    for rule, beaten in (("golem", 0), ("player", 1)):
        t = Table(3, golem_tie=rule).to_second_round()
        t.hands("9f 9c 2s 3i 4f", "5f 6c 7s 10i 12f", "1s 2c 6f 8c 11c")
        t.pile(("9s", 1), ("9i", 2), ("2f", 3), ("3f", 3), ("4c", 1))  # the same pair of 9s with 4-3-2
        t.checks()
        assert t.ref.log[0]["beaten"] == beaten
        assert t.ref.log[0]["hand"] == t.ref.log[0]["golem"]


def test_split_pot_odd_chips_go_from_the_amulet() -> None:
    t = Table(3, ante=7).to_second_round()  # pot 21, cut 1, 20 to split: 10 and 10
    t.hands("13s 13i 7s 9i 12f", "13f 13c 7f 9c 12s", "1s 5s 6c 9f 11c")
    t.pile(("2f", 3))
    t.checks()
    assert t.ref.share == [0.5, 0.5, 0.0] and t.ref.won == [10, 10, 0]
    t = Table(3, ante=8).to_second_round()  # pot 24, cut 1, 23: 12 to seat 2 (nearer the amulet), 11
    t.hands("1s 5s 6c 9f 11c", "13s 13i 7s 9i 12f", "13f 13c 7f 9c 12s")
    t.pile(("2f", 3))
    t.checks()
    assert t.ref.won == [0, 12, 11] and t.ref.ranks() == [3, 1, 2]


def test_player_tie_amulet_option() -> None:
    t = Table(3, player_tie="amulet").to_second_round()
    t.hands("1s 5s 6c 9f 11c", "13s 13i 7s 9i 12f", "13f 13c 7f 9c 12s")
    t.pile(("2f", 3))
    t.checks()
    assert t.ref.share == [0.0, 1.0, 0.0] and t.ref.won[1] == 3 * ANTE - 3


@pytest.mark.parametrize(("rounding", "take"), [("down", 4), ("nearest", 5), ("up", 5)])
def test_house_cut_rounding(rounding: str, take: int) -> None:
    t = Table(3, ante=30, house_rounding=rounding).to_second_round()  # pot 90: 5% is 4.5
    t.hands("13s 13i 7s 9i 12f", "2f 3c 7f 9c 12s", "1s 5s 6c 9f 11c")
    t.checks()
    assert t.ref.house_take == take and t.ref.won[0] == 90 - take


def test_house_cut_percent_option() -> None:
    t = Table(3, ante=40, house_cut_pct=2.5).to_second_round()  # pot 120: 3
    t.hands("13s 13i 7s 9i 12f", "2f 3c 7f 9c 12s", "1s 5s 6c 9f 11c")
    t.checks()
    assert t.ref.house_take == 3


def _golem_of(rules: dict, pile: list[tuple[str, int]]) -> Table:
    t = Table(3, **rules).to_second_round()
    t.hands("2s 5i 7s 9i 12f", "3f 6c 8s 10i 13f", "1s 4s 6f 9f 11c")  # high cards, 13 best
    t.pile(*pile)
    t.checks()
    return t


def test_golem_short_partial_hand() -> None:
    t = _golem_of({}, [("13s", 1), ("13i", 2)])  # a pair of 13s from two cards beats 13-high
    assert t.ref.log[0]["beaten"] == 0 and t.ref.log[0]["golem_cards"] == 2 and t.ref.deal == 2
    t = _golem_of({}, [("13s", 1)])  # a lone 13 without kickers is below any 13-high hand
    assert t.ref.log[0]["beaten"] == 1
    t = _golem_of({}, [])  # no discards at all: every hand beats the empty golem
    assert t.ref.log[0]["beaten"] == 1 and t.ref.log[0]["golem"] == 0


def test_golem_short_none_means_no_golem() -> None:
    t = _golem_of({"golem_short": "none"}, [("13s", 1), ("13i", 2)])
    assert t.ref.log[0]["beaten"] == 1 and t.ref.log[0]["golem"] == NO_VALUE


def test_golem_short_deck_fills_from_the_deck() -> None:
    t = _golem_of({"golem_short": "deck"}, [("13s", 1), ("13i", 2)])
    assert t.ref.log[0]["golem_cards"] == 5
    fill = t.ref.log[0]["golem_hand"][2:]
    assert len(set(fill)) == 3 and not set(fill) & set(cards("13s 13i"))
    assert category(t.ref.log[0]["golem"]) >= ONE_PAIR


def test_folded_players_discards_count_unless_the_option_says_no() -> None:
    for folded, beaten in ((True, 0), (False, 1)):
        t = Table(3, golem_folded=folded).to_second_round()
        t.hands("2s 5i 7s 9i 12f", "3f 6c 8s 10i 13f", "1s 4s 6f 9f 11c")
        t.pile(("13s", 1), ("13i", 1), ("2c", 2))
        t.act(FOLD)  # seat 1, whose discards hold the pair, folds
        t.checks()
        assert t.ref.log[0]["beaten"] == beaten
        assert t.ref.log[0]["golem_cards"] == (3 if folded else 1)


def test_rank_one_low_or_high() -> None:
    for rank_one, winner in (("low", 1), ("high", 0)):
        t = Table(3, rank_one=rank_one).to_second_round()
        t.hands("1s 1i 7s 9i 12f", "13f 13c 7f 9c 12s", "2s 4s 6f 9f 11c")
        t.checks()
        assert t.ref.share[winner] == 1.0
    for rank_one, cat in (("low", 0), ("high", STRAIGHT)):  # 10-11-12-13-1: a straight only with rank 1 high
        t = Table(3, rank_one=rank_one)
        t.hands("10s 11i 12s 13i 1f", "1s 2i 3s 4i 5f")
        assert category(int(t.rec["value"][0])) == cat
        assert category(int(t.rec["value"][1])) == STRAIGHT  # the lowest straight either way


def test_cannot_pay_fold_leaves_the_pot_and_can_end_it() -> None:
    t = Table(3, stack_antes=2).to_second_round()  # 20 chips left, the penalty is 40
    t.hands("2f 2c 7s 9i 12f", "3f 3c 8s 10i 13f", "1s 5s 6c 9f 11c")
    t.pile(("4f", 1), ("4c", 2), ("4s", 3))
    t.checks()
    assert t.ref.fold_phase == [0, OUT_FORCED, 0] and t.ref.paid_penalty == [0, 20, 0]
    assert t.ref.stack[1] == 0 and t.ref.over == RUNNING and t.ref.deal == 2
    chips_conserved(t)
    t = Table(3, stack_antes=2)
    t.act(FOLD).checks().stand_pat()
    t.hands(None, "3f 3c 8s 10i 13f", "1s 5s 6c 9f 11c")
    t.pile(("4f", 2), ("4c", 3), ("4s", 3))
    t.checks()
    assert t.ref.over == END_LAST_PLAYER and t.ref.share == [0.0, 0.0, 1.0]
    chips_conserved(t)


def test_cannot_pay_credit_goes_below_zero() -> None:
    t = Table(3, stack_antes=2, cannot_pay="credit").to_second_round()
    t.hands("2f 2c 7s 9i 12f", "3f 3c 8s 10i 13f", "1s 5s 6c 9f 11c")
    t.pile(("4f", 1), ("4c", 2), ("4s", 3))
    t.checks()
    assert t.ref.stack[1] == -20 and t.ref.active == [True, True, True] and t.ref.deal == 2
    chips_conserved(t)


def test_deal_cap_splits_the_pot_among_the_players_still_in(tmp_path: Path) -> None:
    t = Table(3, data=D.load(_edited_copy(tmp_path, "max_deals = 100", "max_deals = 1"))).to_second_round()
    t.hands("2f 2c 7s 9i 12f", "3f 3c 8s 10i 13f", "1s 5s 6c 9f 11c")
    t.pile(("4f", 1), ("4c", 2), ("4s", 3))
    t.checks()
    assert t.ref.over == END_TURN_CAP and t.ref.share == pytest.approx([1 / 3] * 3)
    chips_conserved(t)


def test_score_parts_sum_to_the_net_chips() -> None:
    t = Table(4)
    t.act(BET, ANTE).act(RAISE, ANTE).act(MATCH).act(FOLD).act(MATCH)
    t.stand_pat().checks()
    for parts, score in zip(t.ref.score_parts(), t.ref.scores(), strict=True):
        assert sum(parts) == score
    assert t.ref.score_parts()[3] == (0, -ANTE, 0, 0)
    chips_conserved(t)


# --------------------------------------------------------------------------------- options and data


def test_rule_options_are_validated_with_names() -> None:
    with pytest.raises(D.DataError, match="golem_tie"):
        D.load(rules={"golem_tie": "maybe"})
    with pytest.raises(D.DataError, match="unknown rule option 'jokers'"):
        D.load(rules={"jokers": 1})
    with pytest.raises(D.DataError, match="ante"):
        D.load(rules={"ante": 0})
    with pytest.raises(D.DataError, match="house_cut_pct"):
        D.load(rules={"house_cut_pct": 5.001})
    assert D.load(rules={"redeal_ante": "true", "ante": "10"}).rules["ante"] == 10


def test_game_toml_errors_name_file_and_field(tmp_path: Path) -> None:
    folder = _edited_copy(tmp_path, "max_deals = 100", "max_deals = 0")
    with pytest.raises(D.DataError, match=r"game.toml: table.max_deals"):
        D.load(folder)
    folder = _edited_copy(tmp_path / "c", "max_deals = 100", "max_deals = 101")
    with pytest.raises(D.DataError, match=r"table.max_deals: needs an integer in 1..100"):
        D.load(folder)  # the state logs at most 100 showdowns per pot
    folder = _edited_copy(tmp_path / "b", 'rank_one = "low"', 'rank_one = "ace"')
    with pytest.raises(D.DataError, match=r"game.toml: rules.rank_one"):
        D.load(folder)


def _edited_copy(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "golem-poker"
    shutil.copytree(default_dir(D.GAME_NAME), folder)
    path = folder / "game.toml"
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    return folder


# --------------------------------------------------------------------------------- invariants

VARIANTS = st.fixed_dictionaries(
    {
        "rank_one": st.sampled_from(["low", "high"]),
        "golem_tie": st.sampled_from(["golem", "player"]),
        "player_tie": st.sampled_from(["split", "amulet"]),
        "golem_short": st.sampled_from(["partial", "deck", "none"]),
        "golem_folded": st.booleans(),
        "redeal_ante": st.booleans(),
        "stack_antes": st.sampled_from([1, 2, 3, 10, 100]),
        "max_raises": st.integers(0, 3),
        "cannot_pay": st.sampled_from(["fold", "credit"]),
        "house_rounding": st.sampled_from(["down", "nearest", "up"]),
        "ante": st.integers(1, 30),
    }
)


def check_invariants(rec, n: int, start: int) -> None:
    stacks = rec["stack"][:n].astype(np.int64)
    paid = (rec["paid_ante"] + rec["paid_bet"] + rec["paid_penalty"])[:n]
    if rec["over"] == RUNNING:
        assert stacks.sum() + rec["pot"] == n * start, "chips are conserved"
        assert rec["pot"] == paid.sum()
    else:
        assert stacks.sum() + rec["house_take"] == n * start, "chips are conserved, less the house take"
        assert rec["won"][:n].sum() == rec["pot"] - rec["house_take"]
        assert abs(rec["share"][:n].sum() - 1) < 1e-6, "the whole pot is won"
    assert sorted(rec["deck"].tolist()) == list(range(52)), "the deck is a permutation"
    dealt = set(rec["deck"][: rec["deck_pos"]].tolist())
    held = [int(c) for s in range(n) for c in rec["hand"][s] if c >= 0]
    pile = rec["pile"][: rec["pile_n"]].tolist()
    assert len(held) + len(pile) == len(set(held) | set(pile)), "no card is in two places"
    assert set(held) | set(pile) <= dealt, "every card in play was dealt from this deal's deck"
    assert rec["num_in"] == rec["active"][:n].sum() >= 1


@settings(max_examples=30, deadline=None)
@given(
    num_players=st.integers(3, 6),
    lineup=st.lists(st.sampled_from(list(B.BOTS)), min_size=6, max_size=6),
    rules=VARIANTS,
    setup_seed=st.integers(0, 2**64 - 1),
    play_seed=st.integers(0, 2**64 - 1),
)
def test_invariants_after_every_move(num_players, lineup, rules, setup_seed, play_seed) -> None:
    data = D.load(rules=rules)
    names = lineup[:num_players]
    ids = np.array([B.BOTS[b][0] for b in names])
    params = np.stack([B.default_params(b) for b in names])
    params[:, 0] = np.where(ids == B.EQUITY, 8, params[:, 0])  # fewer samples: speed only
    moves, final = trace_game(data, num_players, np.arange(num_players), ids, params, setup_seed, play_seed)
    start = rules["stack_antes"] * rules["ante"]
    st_ = new_state(1)
    game_init(st_, data.kernel, 0, num_players, np.uint64(setup_seed), np.uint64(play_seed))
    check_invariants(st_[0], num_players, start)
    for mv in moves:
        assert game_step(st_, data.kernel, 0, mv) == 0
        check_invariants(st_[0], num_players, start)
    assert st_[0]["over"] in (END_SHOWDOWN, END_LAST_PLAYER, END_TURN_CAP), "every pot ends"
    for name in st_.dtype.names:  # the replay draws no bot randomness: all else is the kernel's game
        if name != "rng":
            assert np.array_equal(st_[0][name], final[0][name]), name
    assert st_[0]["rng"][0] == final[0]["rng"][0]
