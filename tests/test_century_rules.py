"""Rule tests for the Century: Golem Edition reference engine (``simulate/games/century/reference.py``).

Each test scripts a position and checks one rule of ``docs/century.md`` / ``seeds/century/RULINGS.md``
with exact outcomes; a property test plays random legal games and checks invariants.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.gamekit import TERMINAL
from simulate.games.century.data import COLOURS, P_MAX_ROUNDS, CenturyData, load
from simulate.games.century.reference import (
    CenturyReference,
    IllegalMove,
    make_record,
    move_key,
)
from simulate.games.century.state import (
    ACQUIRE,
    CLAIM,
    END_TRIGGER,
    END_TURN_CAP,
    IN_HAND,
    M_DISCARD,
    NOT_OWNED,
    PASS,
    PLAY,
    PLAYED,
    REST,
    RUNNING,
    new_state,
)

SETUP_SEED = 20240917  # any seed: the scripted tests overwrite what they depend on
DATA = load()
START = ["YYY", "YYYY", "YYYY", "YYYG", "YYYG"]  # starting crystals by seat (rules text, R1-R4)


# --------------------------------------------------------------------------------- helpers


def counts(text: str) -> list[int]:
    """Crystal counts (Y, G, T, M) of a string such as ``"YYGT"``."""
    return [text.count(c) for c in COLOURS]


def mid(card_id: str, data: CenturyData = DATA) -> int:
    return data.merchant_ids.index(card_id)


def pid(card_id: str, data: CenturyData = DATA) -> int:
    return data.point_ids.index(card_id)


def scripted(
    n: int = 2,
    *,
    rules: dict | None = None,
    crystals: dict[int, str] | None = None,
    hand: dict[int, list[str]] | None = None,
    played: dict[int, list[str]] | None = None,
    m_row: list[str] | None = None,
    p_row: list[str] | None = None,
    current: int = 0,
) -> CenturyReference:
    """A fresh game with some fields overwritten, to script a position.

    ``crystals`` replaces a seat's caravan; ``hand`` / ``played`` add cards (by id) to a seat in
    hand / played (the starting cards stay in hand unless listed as played); ``m_row`` / ``p_row``
    replace the face-up rows (by id, padded with empty slots, no crystals on the cards); ``current``
    sets the seat to move and the turn counter to match (round 1). The decks are left as dealt, so
    card conservation does not hold in scripted positions.
    """
    data = load(rules=rules) if rules else DATA
    g = CenturyReference(data, n, SETUP_SEED)
    for seat, text in (crystals or {}).items():
        g.crystals[seat] = counts(text)
    for seat, ids in (hand or {}).items():
        for c in ids:
            g.cards[seat][mid(c)] = IN_HAND
    for seat, ids in (played or {}).items():
        for c in ids:
            g.cards[seat][mid(c)] = PLAYED
    if m_row is not None:
        g.m_row = [mid(c) for c in m_row] + [-1] * (g.merchant_row - len(m_row))
        g.m_row_crystals = [[0, 0, 0, 0] for _ in range(g.merchant_row)]
    if p_row is not None:
        g.p_row = [pid(c) for c in p_row] + [-1] * (g.point_row - len(p_row))
    g.current = current
    g.turn = current
    return g


def play(card: str, times: int = 0, steps: tuple[int, int, int] = (0, 0, 0), discard: str = "") -> np.ndarray:
    return make_record(PLAY, mid(card), times=times, steps=steps, discard=discard)


def acquire(pos: int, pay: str = "", discard: str = "") -> np.ndarray:
    return make_record(ACQUIRE, pos, pay=pay, discard=discard)


def claim(pos: int, discard: str = "") -> np.ndarray:
    return make_record(CLAIM, pos, discard=discard)


def rest() -> np.ndarray:
    return make_record(REST)


def keys(g: CenturyReference) -> set[tuple]:
    return set(g.legal_actions())


def caravan(g: CenturyReference, seat: int) -> str:
    return "".join(c * k for c, k in zip(COLOURS, g.crystals[seat], strict=True))


def with_max_rounds(data: CenturyData, rounds: int) -> CenturyData:
    params = data.tables.params.copy()
    params[P_MAX_ROUNDS] = rounds
    return data._replace(tables=data.tables._replace(params=params))


# --------------------------------------------------------------------------------- setup


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_rows_decks_and_coins(n: int) -> None:
    g = CenturyReference(DATA, n, SETUP_SEED)
    market = [int(c) for c in DATA.tables.market_cards]
    assert sorted(g.m_deck) == market and len(market) == 43
    assert sorted(g.p_deck) == list(range(36))
    assert g.m_row == g.m_deck[:6] and g.m_deck_pos == 6
    assert g.p_row == g.p_deck[:5] and g.p_deck_pos == 5
    assert g.m_row_crystals == [[0, 0, 0, 0]] * 6
    assert g.copper_left == g.silver_left == 2 * n
    assert (g.current, g.turn, g.triggered, g.over) == (0, 0, 0, RUNNING)
    assert g.current_player() == 0


def test_setup_shuffle_follows_the_spec() -> None:
    """The face-up rows drawn from the opening stream (market deck, then point deck), the rest of each deck
    shuffled from the hidden-order stream; a seed sharing the high 32 bits shows the same rows."""
    from simulate.rng import draw_front, opening_seed, order_seed, shuffle_range

    m = np.array(DATA.tables.market_cards, np.int16)
    p = np.arange(36, dtype=np.int16)
    s = np.array([opening_seed(np.uint64(SETUP_SEED))], np.uint64)
    draw_front(s, 0, m, len(m), 6)
    draw_front(s, 0, p, 36, 5)
    s[0] = order_seed(np.uint64(SETUP_SEED))
    shuffle_range(s, 0, m, 6, len(m))
    shuffle_range(s, 0, p, 5, 36)
    g = CenturyReference(DATA, 3, SETUP_SEED)
    assert g.m_deck == m.tolist() and g.p_deck == p.tolist()
    twin = CenturyReference(DATA, 3, (int(SETUP_SEED) & ~0xFFFFFFFF) | ((int(SETUP_SEED) + 1) & 0xFFFFFFFF))
    assert twin.m_deck[:6] == g.m_deck[:6] and twin.p_deck[:5] == g.p_deck[:5], "the same public opening"
    assert twin.m_deck != g.m_deck, "over another hidden order"
    assert CenturyReference(DATA, 4, SETUP_SEED).m_deck == g.m_deck  # a function of the seed only
    assert CenturyReference(DATA, 3, SETUP_SEED + 1).m_deck != g.m_deck


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_starting_crystals_and_hands(n: int) -> None:
    g = CenturyReference(DATA, n, SETUP_SEED)
    assert [caravan(g, k) for k in range(n)] == START[:n]
    for k in range(n):
        owned = {DATA.merchant_ids[c]: s for c, s in enumerate(g.cards[k]) if s != NOT_OWNED}
        assert owned == {"S1": IN_HAND, "S2": IN_HAND}
    first = keys(g)
    assert ("rest",) not in first and ("play", mid("S1")) in first


# --------------------------------------------------------------------------------- play


def test_create_adds_output_and_card_is_played() -> None:
    g = scripted(crystals={0: "YYY"}, hand={0: ["M04"]})
    g.apply_action(play("S1"))
    assert caravan(g, 0) == "YYYYY"
    assert g.cards[0][mid("S1")] == PLAYED
    assert (g.current, g.turn) == (1, 1)
    g.current = 0
    assert ("play", mid("S1")) not in keys(g)
    with pytest.raises(IllegalMove, match="already played"):
        g.apply_action(play("S1"))
    g.apply_action(play("M04"))
    assert caravan(g, 0) == "YYYYYM"


def test_play_card_not_owned_is_illegal() -> None:
    g = scripted()
    with pytest.raises(IllegalMove, match="not owned"):
        g.apply_action(play("M18", times=1))


def test_upgrade_split_over_two_crystals() -> None:
    g = scripted(crystals={0: "YYY"})
    g.apply_action(play("S2", steps=(2, 0, 0)))
    assert caravan(g, 0) == "YGG"


def test_upgrade_stacked_on_one_crystal() -> None:
    g = scripted(crystals={0: "Y"})
    assert ("play", mid("S2"), 1, 1, 0) in keys(g)
    g.apply_action(play("S2", steps=(1, 1, 0)))
    assert caravan(g, 0) == "T"


def test_upgrade_legal_set_is_every_distinct_outcome() -> None:
    g = scripted(crystals={0: "YG"})
    s2 = mid("S2")
    ups = {k[2:] for k in keys(g) if k[:2] == ("play", s2)}
    assert ups == {(1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 1, 1)}


def test_upgrade_fewer_steps_than_allowed() -> None:
    g = scripted(crystals={0: "YYY"})
    g.apply_action(play("S2", steps=(1, 0, 0)))
    assert caravan(g, 0) == "YYG"


def test_upgrade_three_with_upgrade_three_card_only() -> None:
    g = scripted(crystals={0: "YYY"}, hand={0: ["M09"]})
    with pytest.raises(IllegalMove):
        g.apply_action(play("S2", steps=(3, 0, 0)))
    with pytest.raises(IllegalMove):
        g.apply_action(play("S2", steps=(1, 1, 1)))
    g.apply_action(play("M09", steps=(1, 1, 1)))
    assert caravan(g, 0) == "YYM"


def test_upgrade_magenta_cannot_rise() -> None:
    g = scripted(crystals={0: "MM"})
    assert not any(k[:2] == ("play", mid("S2")) for k in keys(g))
    with pytest.raises(IllegalMove):
        g.apply_action(play("S2", steps=(0, 0, 1)))  # no T to lift: M stays M


def test_upgrade_zero_steps_is_illegal() -> None:
    g = scripted(crystals={0: "YYY"})
    with pytest.raises(IllegalMove, match="total 1..2"):
        g.apply_action(play("S2", steps=(0, 0, 0)))
    with pytest.raises(IllegalMove):
        g.apply_action(play("S2", steps=(2, -1, 0)))


def test_upgrade_cannot_lift_crystals_not_held() -> None:
    g = scripted(crystals={0: "YT"})
    with pytest.raises(IllegalMove, match="exceed"):
        g.apply_action(play("S2", steps=(2, 0, 0)))
    with pytest.raises(IllegalMove, match="exceed"):
        g.apply_action(play("S2", steps=(0, 1, 0)))  # no G, and no Y lifted to G first


def test_trade_repeats() -> None:
    g = scripted(crystals={0: "YYYYYYYYYY"}, hand={0: ["M18"]})  # M18: YYYYY -> TTT
    m18 = mid("M18")
    assert {k for k in keys(g) if k[:2] == ("play", m18)} == {("play", m18, 1), ("play", m18, 2)}
    g.apply_action(play("M18", times=2))
    assert caravan(g, 0) == "TTTTTT"


def test_trade_stop_after_any_repetition() -> None:
    g = scripted(crystals={0: "YYYYYY"}, hand={0: ["M10"]})  # M10: YY -> T
    g.apply_action(play("M10", times=2))
    assert caravan(g, 0) == "YYTT"


def test_trade_cannot_overpay_or_skip() -> None:
    g = scripted(crystals={0: "YYYYYYYYYY"}, hand={0: ["M18"]})
    with pytest.raises(IllegalMove, match="possible 1..2"):
        g.apply_action(play("M18", times=3))
    with pytest.raises(IllegalMove):
        g.apply_action(play("M18", times=0))
    g = scripted(crystals={0: "YYYY"}, hand={0: ["M18"]})
    assert not any(k[:2] == ("play", mid("M18")) for k in keys(g))
    with pytest.raises(IllegalMove):
        g.apply_action(play("M18", times=1))


def test_trade_repetitions_are_paid_in_turn() -> None:
    """RULINGS 4: one repetition's output may pay the next one's input (edited card YG -> YYT)."""
    m_in = DATA.tables.m_in.copy()
    m_out = DATA.tables.m_out.copy()
    m_in[mid("M23")] = counts("YG")
    m_out[mid("M23")] = counts("YYT")
    data = DATA._replace(tables=DATA.tables._replace(m_in=m_in, m_out=m_out))
    g = CenturyReference(data, 2, SETUP_SEED)
    g.crystals[0] = counts("YGG")
    g.cards[0][mid("M23")] = IN_HAND
    m23 = mid("M23")
    assert {k for k in keys(g) if k[:2] == ("play", m23)} == {("play", m23, 1), ("play", m23, 2)}
    g.apply_action(play("M23", times=2))
    assert caravan(g, 0) == "YYYTT"


# --------------------------------------------------------------------------------- acquire

ROW = ["M01", "M02", "M03", "M04", "M05", "M06"]


def test_acquire_pays_one_crystal_per_card_to_the_left_in_chosen_order() -> None:
    g = scripted(crystals={0: "YYGT"}, m_row=ROW)
    g.m_deck_pos = 10
    refill = g.m_deck[10]
    g.apply_action(acquire(3, pay="GYT"))
    assert caravan(g, 0) == "Y"
    assert g.cards[0][mid("M04")] == IN_HAND
    assert g.m_row == [mid(c) for c in ["M01", "M02", "M03", "M05", "M06"]] + [refill]
    assert g.m_row_crystals == [counts("G"), counts("Y"), counts("T"), [0] * 4, [0] * 4, [0] * 4]
    assert g.m_deck_pos == 11
    assert g.m_turn[mid("M04")] == 0


def test_acquire_leftmost_is_free() -> None:
    g = scripted(crystals={0: ""}, m_row=ROW)
    assert ("acquire", 0, ()) in keys(g)
    assert not any(k[0] == "acquire" and k[1] > 0 for k in keys(g))
    g.apply_action(acquire(0))
    assert g.cards[0][mid("M01")] == IN_HAND and caravan(g, 0) == ""


def test_acquire_legal_payments_are_multisets() -> None:
    g = scripted(crystals={0: "YGT"}, m_row=ROW)
    assert {k[2] for k in keys(g) if k[:2] == ("acquire", 2)} == {(0, 1), (0, 2), (1, 2)}
    assert {k[2] for k in keys(g) if k[:2] == ("acquire", 3)} == {(0, 1, 2)}
    assert not any(k[:2] == ("acquire", 4) for k in keys(g))
    g = scripted(crystals={0: "YYG"}, m_row=ROW)
    assert {k[2] for k in keys(g) if k[:2] == ("acquire", 2)} == {(0, 0), (0, 1)}


def test_acquire_must_hold_the_payment() -> None:
    g = scripted(crystals={0: "YY"}, m_row=ROW)
    with pytest.raises(IllegalMove, match="cannot pay"):
        g.apply_action(acquire(3, pay="YYY"))
    with pytest.raises(IllegalMove, match="cannot pay"):
        g.apply_action(acquire(2, pay="YG"))
    with pytest.raises(IllegalMove, match="not all in 0..3"):
        g.apply_action(make_record(ACQUIRE, 2, pay=(0, -1)))
    with pytest.raises(IllegalMove, match="no merchant card"):
        g.apply_action(acquire(6))


def test_acquire_takes_the_crystals_on_the_card() -> None:
    g = scripted(crystals={0: "YY"}, m_row=ROW)
    g.m_row_crystals[0] = counts("M")
    g.m_row_crystals[2] = counts("YT")
    g.m_row_crystals[3] = counts("G")
    g.apply_action(acquire(2, pay="YY"))
    assert caravan(g, 0) == "YT"
    # the cards slid left with their crystals; the payment stays on the cards before
    assert g.m_row_crystals[:3] == [counts("YM"), counts("Y"), counts("G")]
    assert g.m_row[2] == mid("M04")


def test_acquire_from_empty_deck_shrinks_the_row() -> None:
    g = scripted(crystals={0: "YYYYY"}, m_row=ROW)
    g.m_deck_pos = len(g.m_deck)
    g.apply_action(acquire(1, pay="Y"))
    assert g.m_row == [mid(c) for c in ["M01", "M03", "M04", "M05", "M06"]] + [-1]
    g.current = 0
    assert not any(k[:2] == ("acquire", 5) for k in keys(g))
    g.apply_action(acquire(4, pay="YYYY"))
    assert g.m_row == [mid(c) for c in ["M01", "M03", "M04", "M05"]] + [-1, -1]
    g.current = 0
    with pytest.raises(IllegalMove, match="no merchant card at row position 5"):
        g.apply_action(acquire(5, pay="YYYYY"))


# --------------------------------------------------------------------------------- rest


def test_rest_returns_all_played_cards() -> None:
    g = scripted(crystals={0: "YY"}, hand={0: ["M10"]}, played={0: ["S1", "S2", "M04"]})
    g.apply_action(rest())
    assert [g.cards[0][mid(c)] for c in ["S1", "S2", "M04", "M10"]] == [IN_HAND] * 4
    assert caravan(g, 0) == "YY" and g.current == 1


def test_rest_needs_a_played_card_by_default() -> None:
    g = scripted()
    assert ("rest",) not in keys(g)
    with pytest.raises(IllegalMove, match="no played card"):
        g.apply_action(rest())


def test_rest_always_legal_with_option_off() -> None:
    g = scripted(rules={"rest_requires_played": False})
    assert ("rest",) in keys(g)
    g.apply_action(rest())
    assert g.turn == 1 and caravan(g, 0) == "YYY"


def test_pass_only_without_any_other_move() -> None:
    g = scripted(crystals={0: ""}, m_row=[], p_row=["P01"])
    with pytest.raises(IllegalMove, match="cannot pass"):
        g.apply_action(make_record(PASS))
    g.cards[0] = [NOT_OWNED] * len(g.cards[0])
    assert g.legal_actions() == [("pass",)]
    g.apply_action(make_record(PASS))
    assert g.current == 1


# --------------------------------------------------------------------------------- claim

P_ROW = ["P01", "P04", "P16", "P36", "P03"]  # YYGG, YYTT, YGTM, YGTMMM, GGGG


def test_claim_pays_exact_colours_and_keeps_the_rest() -> None:
    g = scripted(crystals={0: "YYYGGTM"}, p_row=P_ROW)
    g.p_deck_pos = 20
    refill = g.p_deck[20]
    g.apply_action(claim(2))  # YGTM, 12 VP
    assert caravan(g, 0) == "YYG"
    assert (g.num_points[0], g.point_vp[0]) == (1, 12)
    assert g.p_row == [pid(c) for c in ["P01", "P04", "P36", "P03"]] + [refill]
    assert g.p_owner[pid("P16")] == 0 and g.p_turn[pid("P16")] == 0
    assert g.p_deck_pos == 21


def test_claim_higher_colour_does_not_substitute() -> None:
    g = scripted(crystals={0: "YYGT"}, p_row=P_ROW)
    assert not any(k[0] == "claim" for k in keys(g))
    with pytest.raises(IllegalMove, match="needs exactly YYGG"):
        g.apply_action(claim(0))
    g = scripted(crystals={0: "YYGGT"}, p_row=P_ROW)
    assert {k for k in keys(g) if k[0] == "claim"} == {("claim", 0)}


def test_claim_coins_by_position() -> None:
    row = ["P01", "P02", "P05", "P03", "P10"]  # YYGG YYYGG YYGGG GGGG GGGGG
    g = scripted(n=2, crystals={0: "YYYYGGGGGG"}, p_row=row)
    g.apply_action(claim(0))
    assert (g.copper[0], g.silver[0], g.copper_left, g.silver_left) == (1, 0, 3, 4)
    g.current = 0
    g.crystals[0] = counts("YYYGGGGGGG")
    g.p_row = [pid(c) for c in row]
    g.apply_action(claim(1))
    assert (g.copper[0], g.silver[0], g.copper_left, g.silver_left) == (1, 1, 3, 3)
    g.current = 0
    g.crystals[0] = counts("YYGGGGG")
    g.p_row = [pid(c) for c in row]
    g.apply_action(claim(2))
    assert (g.copper[0], g.silver[0], g.copper_left, g.silver_left) == (1, 1, 3, 3)


def test_silver_moves_left_when_copper_runs_out() -> None:
    g = scripted(n=2, p_row=["P03", "P10", "P01", "P02", "P05"])
    g.copper_left = 1
    g.crystals[0] = counts("GGGG")
    g.apply_action(claim(0))  # the last copper
    assert (g.copper[0], g.copper_left, g.silver_left) == (1, 0, 4)
    g.crystals[1] = counts("YYYGGGGG")
    g.p_row = [pid("P10"), pid("P02"), pid("P01"), pid("P05"), pid("P03")]
    assert "(silver)" in str(g).split("points:")[1].split("[2]")[0]
    g.apply_action(claim(1))  # second position: no silver once copper is gone
    assert (g.silver[1], g.silver_left) == (0, 4)
    g.crystals[0] = counts("GGGGG")
    g.p_row = [pid("P10"), pid("P02"), pid("P01"), pid("P05"), pid("P03")]
    g.apply_action(claim(0))  # leftmost: silver now lies there
    assert (g.copper[0], g.silver[0], g.silver_left) == (1, 1, 3)


def test_no_coin_when_both_piles_are_gone() -> None:
    g = scripted(n=2, crystals={0: "GGGG"})
    g.p_row = [pid("P03"), pid("P10"), pid("P01"), pid("P02"), pid("P05")]
    g.copper_left = g.silver_left = 0
    g.apply_action(claim(0))
    assert (g.copper[0], g.silver[0], g.point_vp[0]) == (0, 0, 8)


def test_second_position_silver_runs_out_before_copper() -> None:
    g = scripted(n=2, crystals={0: "GGGG"})
    g.p_row = [pid("P10"), pid("P03"), pid("P01"), pid("P02"), pid("P05")]
    g.silver_left = 0
    g.apply_action(claim(1))
    assert (g.copper[0], g.silver[0], g.copper_left) == (0, 0, 4)


# --------------------------------------------------------------------------------- caravan limit


def test_caravan_limit_discard_exactly_the_excess() -> None:
    g = scripted(crystals={0: "YYYYYYGGTM"})  # 10, Create 2 makes 12
    for bad in ["", "Y", "YYY"]:
        with pytest.raises(IllegalMove, match="exactly 2"):
            g.apply_action(play("S1", discard=bad))
    with pytest.raises(IllegalMove, match="cannot return"):
        g.apply_action(play("S1", discard="TT"))  # only one T held
    assert g.excess_after(play("S1")) == 2 and g.turn == 0
    g.apply_action(play("S1", discard="GT"))
    assert caravan(g, 0) == "YYYYYYYYGM"


def test_caravan_limit_not_applied_under_the_limit() -> None:
    g = scripted(crystals={0: "YYYYYYYY"})
    with pytest.raises(IllegalMove, match="exactly 0"):
        g.apply_action(play("S1", discard="Y"))
    g.apply_action(play("S1"))
    assert sum(g.crystals[0]) == 10


def test_caravan_limit_checked_after_the_action_resolves() -> None:
    """Crystals taken from an acquired card count; the discard may return them."""
    g = scripted(crystals={0: "YYYYYYYYYY"}, m_row=ROW)
    g.m_row_crystals[1] = counts("MM")
    with pytest.raises(IllegalMove, match="exactly 1"):
        g.apply_action(acquire(1, pay="Y"))
    g.apply_action(acquire(1, pay="Y", discard="Y"))
    assert caravan(g, 0) == "YYYYYYYYMM"


# --------------------------------------------------------------------------------- end of game


def give_points(g: CenturyReference, seat: int, num: int) -> None:
    """Set a seat one claim short (``num`` claimed) and able to claim P03 (GGGG) at position 0."""
    g.num_points[seat] = num
    g.crystals[seat] = counts("GGGG")
    g.p_row[0] = pid("P03")


@pytest.mark.parametrize(("n", "trigger"), [(2, 6), (3, 6), (4, 5), (5, 5)])
def test_end_trigger_card_count(n: int, trigger: int) -> None:
    g = scripted(n=n)
    give_points(g, 0, trigger - 2)
    g.apply_action(claim(0))
    assert g.triggered == 0
    g = scripted(n=n)
    give_points(g, 0, trigger - 1)
    g.apply_action(claim(0))
    assert g.triggered == 1 and not g.is_terminal()


@pytest.mark.parametrize(("n", "seat"), [(2, 0), (3, 1), (4, 3), (5, 2)])
def test_end_trigger_finishes_the_round(n: int, seat: int) -> None:
    g = scripted(n=n, current=seat)
    g.turn = 4 * n + seat  # round 5
    give_points(g, seat, int(DATA.tables.end_trigger[n]) - 1)
    g.apply_action(claim(0))
    for later in range(seat + 1, n):
        assert not g.is_terminal() and g.current_player() == later
        g.apply_action(play("S1"))
    assert g.is_terminal() and g.end_reason == "trigger" and g.over == END_TRIGGER
    assert g.turn == 5 * n and g.turn % n == 0
    assert g.current_player() == TERMINAL and g.legal_actions() == []
    with pytest.raises(IllegalMove, match="over"):
        g.apply_action(play("S1"))


def test_trigger_only_by_a_claim() -> None:
    g = scripted(n=2, current=1)
    g.turn = 1
    g.num_points[1] = 6  # already at the count, but no claim this turn
    g.apply_action(play("S1"))
    assert g.triggered == 0 and not g.is_terminal()


def test_round_cap_ends_the_game() -> None:
    data = with_max_rounds(DATA, 3)
    g = CenturyReference(data, 3, SETUP_SEED)
    for _ in range(8):
        g.apply_action(g.legal_records()[0])  # plays S1, S2, then free acquires: never a claim
    assert not g.is_terminal()
    g.apply_action(g.legal_records()[0])
    assert g.is_terminal() and g.end_reason == "turn_cap" and g.over == END_TURN_CAP and g.turn == 9


# --------------------------------------------------------------------------------- scoring


def test_scoring_parts() -> None:
    g = scripted(n=3, crystals={0: "YYYGTM", 1: "YYYYYYYYYY", 2: "MMMM"})
    g.point_vp = [30, 12, 0]
    g.copper = [2, 0, 0]
    g.silver = [1, 3, 0]
    assert g.score_parts() == [(30, 6, 1, 3), (12, 0, 3, 0), (0, 0, 0, 4)]
    assert g.scores() == [40, 15, 4]
    assert g.ranks() == [1, 2, 3] and g.wins() == [1.0, 0.0, 0.0]
    assert g.returns() == [0.0, 0.0, 0.0]  # not over yet


def test_tie_break_later_seat_wins() -> None:
    g = scripted(n=4, crystals={0: "GG", 1: "G", 2: "GG", 3: ""})
    assert g.scores() == [2, 1, 2, 0]
    assert g.wins() == [0.0, 0.0, 1.0, 0.0]
    assert g.ranks() == [2, 3, 1, 4]
    g.over = END_TRIGGER
    assert g.returns() == [0.0, 0.0, 1.0, 0.0]


def test_tie_break_shared_option() -> None:
    g = scripted(n=4, rules={"tie_break": "shared"}, crystals={0: "GG", 1: "G", 2: "GG", 3: ""})
    assert g.wins() == [0.5, 0.0, 0.5, 0.0]
    assert g.ranks() == [1, 3, 1, 4]


# --------------------------------------------------------------------------------- records and views


def test_move_key_ignores_unused_fields_and_discard() -> None:
    a = make_record(ACQUIRE, 2, pay="GY", discard="Y")
    b = make_record(ACQUIRE, 2, pay="YG")
    b[2:6] = 7  # times and steps are unused by an acquire
    b[6 + 5] = 3  # a payment slot beyond the position
    assert move_key(a, DATA) == move_key(b, DATA) == ("acquire", 2, (0, 1))
    c = play("M18", times=2)
    c[3] = 1
    assert move_key(c, DATA) == ("play", mid("M18"), 2)
    assert move_key(play("M18", times=2)) == ("play", mid("M18"), 2)
    assert move_key(play("S2", steps=(1, 0, 1))) == move_key(play("S2", steps=(1, 0, 1)), DATA)
    assert move_key(play("S1"), DATA) == ("play", 0)
    assert move_key(rest()) == ("rest",) and move_key(claim(3)) == ("claim", 3)


def test_legal_records_match_legal_actions() -> None:
    g = scripted(crystals={0: "YYGTM"}, hand={0: ["M09", "M18", "M37"]}, p_row=P_ROW)
    recs = g.legal_records()
    assert [g.move_key(r) for r in recs] == g.legal_actions()
    assert len(set(g.legal_actions())) == len(recs)
    for r in recs:
        assert int(r[0]) != ACQUIRE or list(r[6 : 6 + int(r[1])]) == sorted(r[6 : 6 + int(r[1])])
        assert not r[M_DISCARD:].any()


def test_to_arrays_matches_state_layout() -> None:
    g = CenturyReference(DATA, 3, SETUP_SEED)
    g.apply_action(acquire(2, pay="YY"))
    arrays = g.to_arrays()
    batch = new_state(1, DATA.tables)
    assert set(arrays) == set(batch.dtype.names) - {"rng"}
    for name, value in arrays.items():
        ref = batch[name][0]
        assert value.shape == ref.shape and value.dtype == ref.dtype, name
    assert arrays["crystals"][3:].sum() == 0 and arrays["cards"][3:].sum() == 0
    assert list(arrays["m_row"][6:]) == [-1, -1] and list(arrays["p_row"][5:]) == [-1, -1, -1]
    assert arrays["crystals"][0].tolist() == [1, 0, 0, 0]
    assert arrays["m_row_crystals"][:2].tolist() == [[1, 0, 0, 0], [1, 0, 0, 0]]
    assert arrays["m_turn"][g.m_deck[2]] == 0 and (arrays["m_turn"] >= 0).sum() == 1
    assert (int(arrays["current"]), int(arrays["turn"]), int(arrays["num_players"])) == (1, 1, 3)


def test_describe_and_str() -> None:
    g = scripted(n=2, crystals={0: "YYYYYYYYYY"}, hand={0: ["M18"]}, m_row=ROW, p_row=P_ROW)
    g.m_row_crystals[3] = counts("GGGG")
    assert g.describe(play("M18", times=1)) == "seat 1 plays M18 (YYYYY->TTT) x1"
    assert g.describe(acquire(3, pay="YYY", discard="Y")) == (
        "seat 1 acquires M04 at position 4 paying Y,Y,Y (gets GGGG); returns Y over the limit"
    )
    assert g.describe(play("S2", steps=(1, 1, 0))) == "seat 1 plays S2 (upgrade 2): Y->G x1, G->T x1"
    assert g.describe(claim(0)) == "seat 1 claims P01 (YYGG, 6 VP) + copper"
    text = str(g)
    assert "M04 create M +GGGG" in text and "seat 2: YYYY" in text and "P36 YGTMMM=20" in text


# --------------------------------------------------------------------------------- random playouts


def check_invariants(g: CenturyReference) -> None:
    n = g.num_players
    for k in range(n):
        assert min(g.crystals[k]) >= 0
        assert sum(g.crystals[k]) <= g.caravan_limit
    assert all(min(c) >= 0 for c in g.m_row_crystals)
    # every market card in exactly one place: deck (undrawn), row, or one player's cards
    market = [int(c) for c in g.data.tables.market_cards]
    places = {c: 0 for c in market}
    for c in g.m_deck[g.m_deck_pos :]:
        places[c] += 1
    for c in g.m_row:
        if c >= 0:
            places[c] += 1
    for k in range(n):
        for c in market:
            places[c] += g.cards[k][c] != NOT_OWNED
    assert set(places.values()) == {1}
    # rows are filled from the left
    for row in (g.m_row, g.p_row):
        assert row == [c for c in row if c >= 0] + [-1] * row.count(-1)
    # every point card in the deck, the row, or claimed
    claimed = [c for c, owner in enumerate(g.p_owner) if owner >= 0]
    assert sorted(g.p_deck[g.p_deck_pos :] + [c for c in g.p_row if c >= 0] + claimed) == list(range(36))
    for k in range(n):
        mine = [c for c in claimed if g.p_owner[c] == k]
        assert g.num_points[k] == len(mine) and g.point_vp[k] == sum(g.p_vp[c] for c in mine)
    assert g.copper_left + sum(g.copper) == 2 * n and g.silver_left + sum(g.silver) == 2 * n
    assert g.copper_left >= 0 and g.silver_left >= 0


def random_discard(g: CenturyReference, record: np.ndarray, rnd: random.Random) -> np.ndarray:
    """Fill the record's discard with the excess, chosen at random among the held crystals."""
    after = g.crystals_after(record)
    excess = max(0, sum(after) - g.caravan_limit)
    pool = [c for c in range(4) for _ in range(after[c])]
    for c in rnd.sample(pool, excess):
        record[M_DISCARD + c] += 1
    return record


def check_random_records(g: CenturyReference, rnd: random.Random) -> None:
    """Random (mostly illegal) records: ``apply_action`` accepts exactly the legal ones."""
    legal = set(g.legal_actions())
    for _ in range(4):
        rec = make_record(
            rnd.randrange(-1, 6),
            rnd.randrange(-1, 9),
            times=rnd.randrange(-1, 4),
            steps=(rnd.randrange(0, 3), rnd.randrange(0, 2), rnd.randrange(0, 2)),
            pay=tuple(rnd.randrange(-1, 4) for _ in range(8)),
        )
        if int(rec[0]) == PLAY:
            rec[1] = rnd.choice([c for c, s in enumerate(g.cards[g.current]) if s] + [rnd.randrange(45)])
        key = move_key(rec, g.data)
        trial = g.copy()
        if key in legal:
            trial.apply_action(random_discard(g, rec, rnd))
        else:
            with pytest.raises(IllegalMove):
                trial.apply_action(rec)


@settings(max_examples=30, deadline=None)
@given(
    setup_seed=st.integers(0, 2**64 - 1),
    n=st.integers(2, 5),
    play_seed=st.integers(0, 2**32 - 1),
)
def test_random_legal_playouts(setup_seed: int, n: int, play_seed: int) -> None:
    rnd = random.Random(play_seed)
    g = CenturyReference(DATA, n, setup_seed)
    cap = g.max_rounds * n
    while not g.is_terminal():
        assert g.turn < cap
        seat = g.current_player()
        recs = g.legal_records()
        assert recs and len({g.move_key(r) for r in recs}) == len(recs)
        if g.turn % 7 == 0:
            check_random_records(g, rnd)
        rec = random_discard(g, rnd.choice(recs), rnd)
        before = g.turn
        g.apply_action(rec)
        assert g.turn == before + 1 and (g.is_terminal() or g.current == (seat + 1) % n)
        check_invariants(g)
    assert g.turn <= cap and g.turn % n == 0
    assert g.end_reason in ("trigger", "turn_cap")
    if g.end_reason == "trigger":
        assert max(g.num_points) >= int(DATA.tables.end_trigger[n])
    for k, parts in enumerate(g.score_parts()):
        assert g.scores()[k] == sum(parts)
        vp = g.point_vp[k] + 3 * g.copper[k] + g.silver[k] + sum(g.crystals[k][1:])
        assert g.scores()[k] == vp
    assert sum(g.wins()) == pytest.approx(1.0) and g.returns() == g.wins()
