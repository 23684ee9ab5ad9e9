"""The Golems numba engine against the plain-Python reference engine, move by move, and invariants.

Games are played by the numba kernel with its bots; their move records are replayed through both
engines (``simulate.conformance.compare_moves`` over ``GolemsTwin``), comparing every record field after every
move and the legal move sets on the way.
Property tests check invariants (gem conservation, card conservation, row sizes, legal columns)
after every move, over random seeds, bots and rule options.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulate.conformance import compare_moves
from simulate.games.golems import bots as B
from simulate.games.golems import data as D
from simulate.games.golems.columns import chunk_columns, results
from simulate.games.golems.engine import game_init, game_step
from simulate.games.golems.play import play_batch, trace_game
from simulate.games.golems.reference import GolemsReference
from simulate.games.golems.state import END_ILLEGAL, MOVE_LEN, U_START, new_state
from simulate.games.golems.twin import GolemsTwin, golems_invariants
from simulate.rng import game_seeds

MASTER_SEED = 20261130
DATA = D.load()
# rule variants: every option off its default at least once
VARIANTS = {
    "default": {},
    "options_a": {
        "tuck_limit": "any",
        "wild_tuck": False,
        "take_gems_short": "forbidden",
        "short_refill": "empty",
        "spare_start_runes": "deck",
        "unusable_rune": "discard",
        "solo_automa_gems": "score",
    },
    "options_b": {
        "tuck_limit": "required_types",
        "reserve_check": "before_payment",
        "dust_count": "cards",
        "tie_break": "shared",
        "solo_short_grid": "partial",
    },
}
LINEUPS = {
    "random": ["random", "random"],
    "heuristic": ["greedy", "collector"],
    "mixed": ["collector", "random"],
    "apprentice": ["apprentice", "collector"],
}
GAMES = 40


def lineup(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.array([B.BOTS[n][0] for n in names])
    params = np.stack([B.default_params(n) for n in names])
    return ids, params


def compare(ref: GolemsReference, st_: np.ndarray, where: str) -> None:
    """Every field the reference names equals the numba record's (``GolemsTwin``'s two views)."""
    rec = st_[0]
    for name, value in ref.to_arrays().items():
        if not np.array_equal(value, rec[name]):
            raise AssertionError(f"{where}: field {name} differs\nreference {value}\nnumba     {rec[name]}")


def check_invariants(rec, data: D.GolemsData, n: int) -> None:
    """Gem and card conservation, row sizes and legal columns in one game record (``golems_invariants``)."""
    assert golems_invariants(rec, data, n) == []


@pytest.mark.parametrize("num_players", [2, 1])
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("style", list(LINEUPS))
def test_engines_agree_move_by_move(num_players: int, variant: str, style: str) -> None:
    data = D.load(rules=VARIANTS[variant])
    ids, params = lineup(LINEUPS[style][:num_players])
    first = 1000 * num_players + 100 * list(LINEUPS).index(style) + 10_000 * list(VARIANTS).index(variant)
    setup, play = game_seeds(MASTER_SEED, np.arange(first, first + GAMES), np.arange(first, first + GAMES))
    total = 0
    for k in range(GAMES):
        moves, final = trace_game(data, num_players, np.arange(num_players), ids, params, setup[k], play[k])
        assert final["over"][0] in (1, 4), "kernel games end by the trigger (or stall), never illegally or capped"
        twin = GolemsTwin(data, num_players, int(setup[k]), int(play[k]))
        check_invariants(twin.record[0], data, num_players)
        total += compare_moves(
            twin,
            moves,
            f"{num_players}p {variant} {style} game {k}",
            legal_every=1 if k < 8 else 5,
        )
        ref = twin.reference
        assert ref.is_terminal()
        res = results(data, final)
        assert res["score"][0].tolist() == ref.scores()
        assert res["win"][0].tolist() == pytest.approx(ref.wins())
        assert res["rank"][0].tolist() == ref.ranks()
        assert res["parts"][0].tolist() == ref.score_parts()
    assert total > GAMES * 15


def test_lookahead_games_agree() -> None:
    ids, params = lineup(["lookahead", "greedy"])
    setup, play = game_seeds(MASTER_SEED, np.arange(3), np.arange(3))
    for k in range(3):
        moves, final = trace_game(DATA, 2, np.arange(2), ids, params, setup[k], play[k])
        ref = GolemsReference(DATA, 2, int(setup[k]))
        for mv in moves:
            ref.apply_action(mv)
        assert ref.is_terminal() and results(DATA, final)["score"][0].tolist() == ref.scores()
        assert ref.to_arrays()["deck"].tolist() == final["deck"][0].tolist(), "rollouts never touch the real deck"


def test_batch_kernel_equals_traced_games() -> None:
    """The batch loop (serial and threaded) plays exactly the games the tracer plays."""
    ids, params = lineup(["greedy", "collector"])
    setup, play = game_seeds(MASTER_SEED, np.arange(64), np.arange(64))
    seat = np.tile(np.arange(2), (64, 1))
    serial = play_batch(DATA, 2, seat, ids, params, setup, play)
    threaded = play_batch(DATA, 2, seat, ids, params, setup, play, threads=2)
    assert serial.tobytes() == threaded.tobytes()
    for k in (0, 17, 63):
        _, one = trace_game(DATA, 2, np.arange(2), ids, params, setup[k], play[k])
        assert one.tobytes() == serial[k : k + 1].tobytes()
    comp = chunk_columns(DATA, serial)[2]
    taken = ((serial["owner"] >= 0) & (serial["use"] != U_START)).sum()
    assert len(comp["card"]) == taken
    for g in (0, 63):
        mine = comp["game"] == g
        assert (np.diff(comp["turn"][mine]) > 0).all(), "one card per turn, in turn order"


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_unchecked_batches_equal_checked_ones(variant: str) -> None:
    """Runs skip the per-move legality check: every bot's moves are legal, so the games are the same."""
    data = D.load(rules=VARIANTS[variant])
    for num_players in (2, 1):
        ids, params = lineup(["random", "greedy", "collector", "apprentice"])
        setup, play = game_seeds(MASTER_SEED, np.arange(300), np.arange(300))
        seat = (np.arange(num_players)[None, :] + np.arange(300)[:, None]) % 4
        checked = play_batch(data, num_players, seat, ids, params, setup, play, check_moves=True)
        assert not (checked["over"] == END_ILLEGAL).any()
        assert play_batch(data, num_players, seat, ids, params, setup, play).tobytes() == checked.tobytes()


@settings(max_examples=60, deadline=None)
@given(
    num_players=st.sampled_from([1, 2]),
    bots=st.lists(st.sampled_from(["random", "greedy", "collector", "apprentice"]), min_size=2, max_size=2),
    # every rule option but the value design's gift (tests/test_golems_value.py), which is no rule of the game
    options=st.fixed_dictionaries({k: st.sampled_from(v[1]) for k, v in D.RULE_OPTIONS.items() if k != "gift"}),
    setup_seed=st.integers(0, 2**64 - 1),
    play_seed=st.integers(0, 2**64 - 1),
)
def test_invariants_hold_after_every_move(num_players, bots, options, setup_seed, play_seed) -> None:
    data = D.load(rules=options)
    ids, params = lineup(bots[:num_players])
    moves, final = trace_game(data, num_players, np.arange(num_players), ids, params, setup_seed, play_seed)
    st_ = new_state(1, data.tables)
    game_init(st_, data.kernel, 0, num_players, np.uint64(setup_seed), np.uint64(play_seed))
    check_invariants(st_[0], data, num_players)
    for mv in moves:
        assert game_step(st_, data.kernel, 0, mv) == 0
        check_invariants(st_[0], data, num_players)
    rec = final[0]
    assert rec["over"] in (1, 4)
    if num_players == 2:
        assert rec["turn"] % 2 == 0, "equal turns"
    res = results(data, final)
    assert (res["parts"].sum(axis=2) == res["score"]).all(), "a score is the sum of its parts"
    assert res["win"].sum() == pytest.approx(1.0 if num_players == 2 else res["win"][0, 0])
    assert 0.0 <= res["win"].sum() <= 1.0


def test_lookahead_does_not_peek_at_the_deck() -> None:
    """The same visible position with the unseen cards in another order gives the same move."""
    from simulate.games.golems.bots import game_choose, new_work

    ids, params = lineup(["lookahead", "collector"])
    setup, play = game_seeds(MASTER_SEED, np.arange(2), np.arange(2))
    shuffler = np.random.default_rng(1)
    out = np.zeros((2, MOVE_LEN), np.int16)
    ws = new_work(1, new_state(1, DATA.tables).dtype)
    compared = 0
    for k in range(2):
        moves, _ = trace_game(DATA, 2, np.arange(2), ids, params, setup[k], play[k])
        st_ = new_state(2, DATA.tables)
        game_init(st_, DATA.kernel, 0, 2, setup[k], play[k])
        for mv in moves:
            if st_[0]["current"] == 0 and st_[0]["deck_len"] - st_[0]["deck_pos"] > 3:
                st_[1] = st_[0]
                rec = st_[1]
                unseen = np.r_[0 : rec["removed"], rec["deck_pos"] : rec["deck_len"]]
                rec["deck"][unseen] = shuffler.permutation(rec["deck"][unseen])
                for g in (0, 1):
                    game_choose(st_, DATA.kernel, g, B.LOOKAHEAD, params, 0, ws)
                    out[g] = ws[0]["mv"]
                assert out[0].tolist() == out[1].tolist()
                compared += 1
            game_step(st_, DATA.kernel, 0, mv)
    assert compared > 20
