"""Rule tests for the Golems reference engine (``simulate/games/golems/reference.py``).

Each test scripts a position and checks one rule of ``docs/golems.md`` / ``seeds/golems/RULINGS.md``
with exact outcomes. Card ids are those of the shipped stand-in deck (``seeds/golems/cards.csv``):
G01 golem A needs BB, G09 golem A needs AAB, G17 golem A needs AACC, G02 golem B needs CC;
R01 wild rune 2vp, R03 rune A 1vp, R05 rune A 3vp, R06 rune B 1vp; J01 gem +3 0vp 1 dust,
J05 gem +2 1vp 1 dust, J09 gem +1 2vp 2 dust; S1..S4 starting runes A..D, 1vp.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulate.games.golems.data import load
from simulate.games.golems.reference import GolemsReference, IllegalMove, make_record
from simulate.games.golems.state import END_STALLED, END_TRIGGER, RUNNING, U_DISCARD

SETUP_SEED = 20261130  # any seed: the scripted tests overwrite what they depend on
DATA = load()
A, B, C, D = range(4)


# --------------------------------------------------------------------------------- helpers


def cid(card_id: str, data=DATA) -> int:
    return data.card_ids.index(card_id)


def scripted(
    n: int = 2,
    *,
    rules: dict | None = None,
    rows: list[list[str]] | None = None,
    gems: list[int] | None = None,
    cols: dict[int, list[int]] | None = None,
    wild: dict[int, list[int]] | None = None,
    supply: int | None = None,
    deck: list[str] | None = None,
    current: int = 0,
) -> GolemsReference:
    """A fresh game with some fields overwritten.

    ``rows`` replaces display rows from the top: each entry ``"G01"`` or ``"G01:2"`` (2 gems on
    it) or ``"--"`` (empty); ``deck`` replaces the cards still to draw. Card conservation does not
    hold in scripted positions.
    """
    data = load(rules=rules) if rules else DATA
    g = GolemsReference(data, n, SETUP_SEED)
    for k, row in enumerate(rows or []):
        cells = row + ["--"] * (g.row_size - len(row))
        g.slot[k] = [-1 if c == "--" else cid(c.split(":")[0]) for c in cells]
        g.slot_gems[k] = [int(c.split(":")[1]) if ":" in c else 0 for c in cells]
    if gems is not None:
        g.gems = list(gems)
    for s, counts in (cols or {}).items():
        g.col[s] = list(counts)
    for s, counts in (wild or {}).items():
        g.wild[s] = list(counts)
    if supply is not None:
        g.supply = supply
    if deck is not None:
        g.deck = g.deck[: g.deck_pos] + [cid(c) for c in deck]
    g.current = current
    g.turn = current
    return g


def card(row: int, pos: int, ability: str, extra=None) -> np.ndarray:
    key = ("card", row, pos, ability) if extra is None else ("card", row, pos, ability, extra)
    return make_record(key)


def tucks(*counts: int) -> tuple[int, ...]:
    return tuple(counts) + (0,) * (6 - len(counts))


def summons(g: GolemsReference, row: int = 0, pos: int = 0) -> set[tuple[int, ...]]:
    """Tuck vectors of the legal summons of the card at (row, pos)."""
    return {k[4] for k in g.legal_actions() if k[:4] == ("card", row, pos, "summon")}


def total_gems(g: GolemsReference) -> int:
    return g.supply + sum(g.gems) + sum(sum(r) for r in g.slot_gems)


# --------------------------------------------------------------------------------- setup


def test_setup_two_players() -> None:
    g = GolemsReference(DATA, 2, SETUP_SEED)
    assert (g.rows, g.row_size) == (4, 3)
    assert all(g.cards_in_row(r) == 3 for r in range(4))
    assert g.removed == 2 and g.deck_pos == 14 and g.deck_left() == 34
    assert sorted(g.deck) == sorted(int(c) for c in DATA.tables.main_cards)
    assert [c for row in g.slot for c in row] == g.deck[2:14], "dealt row by row after the removed cards"
    assert g.gems == [4, 4] and g.supply == 22 and total_gems(g) == 30
    starts = {cid(s) for s in ("S1", "S2", "S3", "S4")}
    assert all(len(r) == 1 and r[0] in starts for r in g.start_runes)
    assert g.start_runes[0] != g.start_runes[1]
    assert g.rune_vp == [1, 1] and g.rune_cards == [1, 1]
    assert g.scores() == [1, 1]
    assert (g.current, g.turn, g.over) == (0, 0, RUNNING)


def test_setup_solo_grid() -> None:
    g = GolemsReference(DATA, 1, SETUP_SEED)
    assert (g.rows, g.row_size, g.pick_target) == (3, 3, 5)
    assert g.gems == [4] and g.supply == 26
    assert g.deck_pos == 11


def test_setup_is_a_function_of_the_setup_seed() -> None:
    a = GolemsReference(DATA, 2, SETUP_SEED)
    b = GolemsReference(DATA, 2, SETUP_SEED)
    c = GolemsReference(DATA, 2, SETUP_SEED + 1)
    assert a.deck == b.deck and a.start_runes == b.start_runes
    assert a.deck != c.deck


def test_spare_start_runes_into_the_deck() -> None:
    g = GolemsReference(load(rules={"spare_start_runes": "deck"}), 2, SETUP_SEED)
    assert len(g.deck) == 50
    spare = {cid(s) for s in ("S1", "S2", "S3", "S4")} - {r[0] for r in g.start_runes}
    assert spare <= set(g.deck)


# --------------------------------------------------------------------------------- gem action


def test_take_gems_only_with_one_or_fewer() -> None:
    g = scripted(gems=[2, 4])
    assert ("gems",) not in g.legal_actions()
    g = scripted(gems=[1, 4])
    g.apply_action(make_record(("gems",)))
    assert g.gems == [3, 4] and g.supply == 20 and g.gems_taken[0] == 2
    assert (g.current, g.turn) == (1, 1)


def test_take_gems_with_a_short_supply() -> None:
    g = scripted(gems=[0, 4], supply=1)
    g.apply_action(make_record(("gems",)))
    assert g.gems[0] == 1 and g.supply == 0
    g = scripted(rules={"take_gems_short": "forbidden"}, gems=[0, 4], supply=1)
    assert ("gems",) not in g.legal_actions()


# --------------------------------------------------------------------------------- paying for cards


def test_full_row_costs_a_gem_on_each_other_card() -> None:
    g = scripted(rows=[["G01", "J01", "R03"]], gems=[4, 4])
    g.apply_action(card(0, 1, "dust"))
    assert g.slot[0] == [cid("G01"), -1, cid("R03")]
    assert g.slot_gems[0] == [1, 0, 1]
    assert g.gems[0] == 2 and g.gems_paid[0] == 2
    assert total_gems(g) == 30


def test_full_row_needs_two_gems() -> None:
    g = scripted(rows=[["G01", "J01", "R03"]], gems=[1, 4])
    assert not [k for k in g.legal_actions() if k[0] == "card" and k[1] == 0]
    with pytest.raises(IllegalMove):
        g.apply_action(card(0, 0, "resource", A))


def test_two_cards_left_move_the_gem_to_the_other_card() -> None:
    g = scripted(rows=[["G01:1", "--", "R03:1"]], gems=[0, 4])
    g.apply_action(card(0, 0, "resource", A))
    assert g.slot_gems[0] == [0, 0, 2] and g.gems[0] == 0
    assert g.col[0][A] == 1


def test_last_card_takes_its_gems_and_the_row_refills() -> None:
    g = scripted(rows=[["--", "--", "J09:2"]], gems=[0, 4], deck=["G02", "G03", "G04", "G05"])
    g.apply_action(card(0, 2, "reward"))
    assert g.gems[0] == 2 + 1 and g.gems_gained[0] == 2 and g.gems_reward[0] == 1
    assert g.slot[0] == [cid("G02"), cid("G03"), cid("G04")] and g.slot_gems[0] == [0, 0, 0]
    assert g.deck_left() == 1 and not g.triggered


# --------------------------------------------------------------------------------- golems


def test_golem_as_resource_starts_a_column() -> None:
    g = scripted(rows=[["G01"]] + [["G02"]], gems=[4, 4])
    assert ("card", 0, 0, "resource", A) in g.legal_actions()
    g.apply_action(card(0, 0, "resource", A))
    assert g.col[0] == [1, 0, 0, 0] and g.uses[0][0] == 1


def test_summon_needs_the_requirement_and_spends_nothing() -> None:
    g = scripted(rows=[["G01", "J01", "R03"]], gems=[4, 4], cols={0: [0, 1, 0, 0]})
    assert not summons(g)
    g = scripted(rows=[["G01", "J01", "R03"]], gems=[4, 4], cols={0: [0, 2, 0, 0]})
    g.apply_action(card(0, 0, "summon", tucks()))
    assert g.golems[0] == 1 and g.col[0] == [0, 2, 0, 0] and g.tucked[0] == 0
    assert g.score_parts()[0][0] == 2


def test_summon_tucks_up_to_the_requirement() -> None:
    g = scripted(rows=[["G09"]], gems=[0, 4], cols={0: [3, 2, 1, 0]})  # G09 needs AAB
    assert summons(g) == {tucks(a, b) for a in range(3) for b in range(2)}
    g.apply_action(card(0, 0, "summon", tucks(2, 1)))
    assert g.col[0] == [1, 1, 1, 0] and g.tucked[0] == 3 and g.golems[0] == 1
    assert g.score_parts()[0][:2] == [2, 3]


def test_tuck_at_most_three() -> None:
    g = scripted(rows=[["G17"]], gems=[0, 4], cols={0: [2, 0, 2, 0]})  # G17 needs AACC
    assert max(sum(t) for t in summons(g)) == 3 and tucks(2, 0, 2) not in summons(g)


@pytest.mark.parametrize(
    ("rule", "most_a", "b_allowed"),
    [("requirement", 2, False), ("required_types", 3, False), ("any", 3, True)],
)
def test_tuck_limit_option(rule: str, most_a: int, b_allowed: bool) -> None:
    g = scripted(rules={"tuck_limit": rule}, rows=[["G04"]], gems=[0, 4], cols={0: [3, 1, 0, 0]})  # G04 needs AA
    assert max(t[A] for t in summons(g)) == most_a
    assert any(t[B] for t in summons(g)) == b_allowed


def test_wild_rune_tucking_option() -> None:
    pos = dict(rows=[["G04"]], gems=[0, 4], cols={0: [2, 0, 0, 0]}, wild={0: [1, 0, 0, 0]})
    assert max(t[A] for t in summons(scripted(**pos))) == 2
    g = scripted(rules={"wild_tuck": False}, **pos)
    assert max(t[A] for t in summons(g)) == 1
    g.apply_action(card(0, 0, "summon", tucks(1)))
    assert g.col[0][A] == 1 and g.wild[0][A] == 1, "the typed card is tucked, the wild one stays"


# --------------------------------------------------------------------------------- runes


def test_rune_cannot_start_a_column() -> None:
    g = scripted(rows=[["R03", "G02", "G03"]], gems=[5, 4])
    moves = g.legal_actions()
    assert ("card", 0, 0, "resource", A) not in moves
    assert ("card", 0, 0, "reserve") in moves


def test_rune_joins_its_column_and_wild_any_existing_one() -> None:
    g = scripted(rows=[["R03:1", "--", "R01:1"]], gems=[0, 4], cols={0: [1, 0, 1, 0]})
    assert ("card", 0, 0, "resource", A) in g.legal_actions()
    wild = {k[4] for k in g.legal_actions() if k[:4] == ("card", 0, 2, "resource")}
    assert wild == {A, C}
    g.apply_action(card(0, 2, "resource", C))
    assert g.col[0] == [1, 0, 2, 0] and g.wild[0] == [0, 0, 1, 0]


def test_reserve_needs_three_gems_after_paying() -> None:
    g = scripted(rows=[["R05", "G02", "G03"]], gems=[4, 4])  # pays 2: 2 left
    assert ("card", 0, 0, "reserve") not in g.legal_actions()
    g = scripted(rows=[["R05", "G02", "G03"]], gems=[5, 4])
    g.apply_action(card(0, 0, "reserve"))
    assert g.gems[0] == 2 and g.gems_reserve[0] == 1 and g.supply == 23
    assert g.rune_vp[0] == 1 + 3 and g.rune_cards[0] == 2


def test_reserve_check_before_payment_option() -> None:
    g = scripted(rules={"reserve_check": "before_payment"}, rows=[["R05", "G02", "G03"]], gems=[4, 4])
    assert ("card", 0, 0, "reserve") in g.legal_actions()


def test_unusable_rune_forbidden_or_discarded() -> None:
    g = scripted(rows=[["--", "--", "R06"], ["G02"]], gems=[0, 4])
    assert not [k for k in g.legal_actions() if k[:2] == ("card", 0)]
    g = scripted(rules={"unusable_rune": "discard"}, rows=[["--", "--", "R06"], ["G02"]], gems=[0, 4])
    assert [k for k in g.legal_actions() if k[:2] == ("card", 0)] == [("card", 0, 2, "discard")]
    g.apply_action(card(0, 2, "discard"))
    assert g.use[cid("R06")] == U_DISCARD and g.scores()[0] == 1


# --------------------------------------------------------------------------------- gem cards


def test_reward_from_supply_then_opponent() -> None:
    g = scripted(rows=[["--", "--", "J01"]], gems=[0, 4], supply=1)
    g.apply_action(card(0, 2, "reward"))
    assert g.gems == [3, 2] and g.supply == 0 and g.gems_stolen[0] == 2
    assert g.gem_cards[0] == 1 and g.gem_vp[0] == 0
    assert total_gems(g) == 1 + 4 + 0


def test_reward_when_both_run_short() -> None:
    g = scripted(rows=[["--", "--", "J01"]], gems=[0, 1], supply=0)
    g.apply_action(card(0, 2, "reward"))
    assert g.gems == [1, 0]


@pytest.mark.parametrize(("dust", "points"), [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 0), (7, 0)])
def test_dust_table(dust: int, points: int) -> None:
    assert GolemsReference(DATA, 2, SETUP_SEED).dust_points(dust) == points


def test_dust_counts_the_amount_or_the_cards() -> None:
    g = scripted(rows=[["--", "--", "J09"]], gems=[0, 4])
    g.apply_action(card(0, 2, "dust"))
    assert g.dust[0] == 2 and g.score_parts()[0][2] == 3
    g = scripted(rules={"dust_count": "cards"}, rows=[["--", "--", "J09"]], gems=[0, 4])
    g.apply_action(card(0, 2, "dust"))
    assert g.dust[0] == 1 and g.score_parts()[0][2] == 1


# --------------------------------------------------------------------------------- end and scoring


def test_first_player_triggers_and_the_second_plays_once_more() -> None:
    g = scripted(rows=[["--", "--", "J05"], ["G02"]], gems=[0, 0], deck=["G03", "G04"])
    g.apply_action(card(0, 2, "dust"))
    assert g.triggered and g.over == RUNNING and g.current == 1
    assert g.slot[0] == [cid("G03"), cid("G04"), -1], "short_refill = partial deals what is left"
    g.apply_action(make_record(("gems",)))
    assert g.over == END_TRIGGER and g.turn == 2


def test_second_player_trigger_ends_at_once() -> None:
    g = scripted(rows=[["--", "--", "J05"]], gems=[0, 0], deck=[], current=1)
    g.apply_action(card(0, 2, "dust"))
    assert g.over == END_TRIGGER
    g = scripted(rules={"short_refill": "empty"}, rows=[["--", "--", "J05"]], gems=[0, 0], deck=["G03"])
    g.apply_action(card(0, 2, "dust"))
    assert g.triggered and g.slot[0] == [-1, -1, -1]


def test_tie_breaks_golems_then_tucks_then_shared() -> None:
    g = scripted()
    g.golems, g.tucked, g.rune_vp = [1, 0], [0, 2], [0, 0]
    assert g.scores() == [2, 2] and g.wins() == [1.0, 0.0] and g.ranks() == [1, 2]
    g.golems, g.tucked = [1, 1], [1, 0]
    g.gem_vp = [0, 1]
    assert g.scores() == [3, 3] and g.wins() == [1.0, 0.0]
    g.tucked, g.gem_vp = [1, 1], [0, 0]
    assert g.wins() == [0.5, 0.5] and g.ranks() == [1, 1]
    g = scripted(rules={"tie_break": "shared"})
    g.golems, g.tucked, g.rune_vp = [1, 0], [0, 2], [0, 0]
    assert g.wins() == [0.5, 0.5]


def test_a_round_of_passes_ends_the_game() -> None:
    runes = [f"R{k:02d}" for k in range(1, 13)]
    g = scripted(rows=[runes[0:3], runes[3:6], runes[6:9], runes[9:12]], gems=[2, 2])
    assert g.legal_actions() == [("pass",)]
    g.apply_action(make_record(("pass",)))
    g.apply_action(make_record(("pass",)))
    assert g.over == END_STALLED


# --------------------------------------------------------------------------------- solo


def test_solo_automaton_takes_the_rest_of_the_grid() -> None:
    g = scripted(1)
    grid = [c for row in g.slot for c in row]
    for _ in range(5):
        if g.gems[0] <= 1:
            g.apply_action(make_record(("gems",)))
        key = next(k for k in g.legal_actions() if k[0] == "card")
        g.apply_action(make_record(key))
    left = [c for c in grid if g.owner[c] < 0]
    assert len(left) == 4 and g.automa_cards == 4 and g.grids == 2
    expected = sum(2 if DATA.tables.c_type[c] == 0 else int(DATA.tables.c_vp[c]) for c in left)
    assert g.automa_vp == expected
    assert g.picks == 0 and all(g.cards_in_row(r) == 3 for r in range(3))
    assert total_gems(g) == 30


@pytest.mark.parametrize(("rule", "points"), [("supply", 0), ("score", 4)])
def test_solo_gems_on_automaton_cards(rule: str, points: int) -> None:
    rows = [["J01:2", "J02", "J03"], ["--"], ["--"]]
    g = scripted(1, rules={"solo_automa_gems": rule}, rows=rows, gems=[4], deck=[])
    g.picks = 4
    g.apply_action(card(0, 1, "reward"))  # the fifth pick pays a gem onto J01 and J03
    assert g.automa_cards == 2 and g.automa_gems == 4 and g.automa_vp == points
    assert g.over == END_TRIGGER, "no new grid can be dealt"


def test_solo_ends_when_no_grid_can_be_dealt_and_pass_ends_the_grid() -> None:
    g = scripted(1, rows=[["R06", "R07", "R08"], ["--"], ["--"]], gems=[2], deck=[])
    assert g.legal_actions() == [("pass",)]
    g.apply_action(make_record(("pass",)))
    assert g.automa_cards == 3
    g = scripted(1, deck=[])
    g.picks = 4
    g.apply_action(make_record(next(k for k in g.legal_actions() if k[0] == "card")))
    assert g.over == END_TRIGGER


def test_solo_win_against_the_automaton() -> None:
    g = scripted(1)
    g.automa_vp = g.scores()[0] + 1
    assert g.wins() == [0.0] and g.ranks() == [2]
    g.automa_vp = g.scores()[0]
    g.automa_golems = 1
    assert g.wins() == [0.0], "the automaton's Golem cards break the tie"
    g.automa_golems = 0
    assert g.wins() == [0.5]
