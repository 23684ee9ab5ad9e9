"""Golems' ``apprentice`` bot (a linear afterstate value learned from the search) and the search's ``leaf``.

The apprentice's games replayed through the reference engine (two players and solo, every rule variant, at
temperature 0 and above), a no-peeking test (only the unseen cards change, the move does not) and its features
(they change with what the seat sees, never with what it cannot), the weights file (round trip, a wrong
feature list refused naming the line), the training positions (the same games as a run, every seat's features
after every move), the search with the apprentice at its leaves, and one known decision with the shipped weights.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from test_golems_differential import VARIANTS, check_invariants, compare
from test_golems_search import card_key, one_winning_card, position, search_params

from simulate.apprentice import read_provenance, read_weights, weights_text
from simulate.datafiles import DataError, default_dir
from simulate.game import Positions
from simulate.games.golems import bots as B
from simulate.games.golems import data as D
from simulate.games.golems.apprentice import game_apprentice, game_features
from simulate.games.golems.columns import results
from simulate.games.golems.engine import game_init, game_step
from simulate.games.golems.features import CONTEXT, FEATURES, NUM_BASE, NUM_FEATURES, PLAYER_COUNTS
from simulate.games.golems.game import GAME
from simulate.games.golems.learning import APPRENTICE, choices, positions
from simulate.games.golems.play import play_batch, trace_game
from simulate.games.golems.reference import GolemsReference, move_key
from simulate.games.golems.state import END_ILLEGAL, RUNNING, new_state
from simulate.games.golems.value import fused_logit
from simulate.orchestration.training import _fit_policy
from simulate.rng import game_seeds

DATA = D.load()
MASTER_SEED = 20261204


def params_of(name: str, **over: float) -> np.ndarray:
    params = B.default_params(name)
    names = list(B.BOTS[name][2])
    for key, value in over.items():
        params[names.index(key)] = value
    return params


def lineup(*bots: tuple[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    return np.array([B.BOTS[name][0] for name, _ in bots]), np.stack([p for _, p in bots])


def apprentice_move(st: np.ndarray, temperature: float = 0.0, data: D.GolemsData = DATA) -> list[int]:
    ws = B.new_work(1, st.dtype)
    _, lookahead, margin, *_ = B.default_params("apprentice")
    game_apprentice(st, data.kernel, 0, temperature, lookahead, margin, ws)
    return ws[0]["mv"].tolist()


def seen_features(st: np.ndarray, seat: int) -> np.ndarray:
    out = np.zeros(NUM_FEATURES)
    game_features(st, DATA.kernel, 0, seat, out)
    return out


def reshuffle_unseen(st: np.ndarray, shuffler: np.random.Generator) -> np.ndarray:
    """A copy of ``st`` with the removed and undrawn cards in another order (all a seat cannot see)."""
    other = st.copy()
    rec = other[0]
    unseen = np.r_[0 : rec["removed"], rec["deck_pos"] : rec["deck_len"]]
    while True:
        rec["deck"][unseen] = shuffler.permutation(rec["deck"][unseen])
        if other.tobytes() != st.tobytes() or len(unseen) < 2:
            return other


# ------------------------------------------------------------------------------------ the look-ahead


def test_the_look_ahead_changes_only_close_two_player_decisions() -> None:
    """``margin`` 0 or ``lookahead`` 1 play as no look-ahead; the default differs at 2 players, never solo."""
    games = 40
    setup, play = game_seeds(MASTER_SEED, np.arange(games), np.arange(games))

    def tables(num_players: int, **over: float) -> bytes:
        ids, params = lineup(("apprentice", params_of("apprentice", **over)))
        seat = np.zeros((games, num_players), np.int64)
        return play_batch(DATA, num_players, seat, ids, params, setup, play).tobytes()

    plain = tables(2, lookahead=0)
    assert tables(2, margin=0) == tables(2, lookahead=1) == plain
    assert tables(2) != plain, "the default looks ahead"
    assert tables(1) == tables(1, lookahead=0), "solo: no look-ahead"


# ------------------------------------------------------------------------------------ legal play


@pytest.mark.parametrize("num_players", [2, 1])
@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_apprentice_games_agree_with_the_reference(num_players: int, variant: str, temperature: float) -> None:
    """Apprentice games replayed move by move through the reference engine, the invariants after every move."""
    data = D.load(rules=VARIANTS[variant])
    ids, params = lineup(
        ("apprentice", params_of("apprentice", temperature=temperature)), ("lookahead", params_of("lookahead"))
    )
    first = 100 * num_players + 10 * list(VARIANTS).index(variant) + int(temperature)
    setup, play = game_seeds(MASTER_SEED, np.arange(first, first + 4), np.arange(first, first + 4))
    seats = np.arange(num_players) if first % 2 else np.arange(num_players)[::-1]
    for k in range(4):
        moves, final = trace_game(data, num_players, seats, ids, params, setup[k], play[k])
        assert final["over"][0] in (1, 4), "apprentice games end by the trigger (or stall), never illegally"
        st_ = new_state(1, data.tables)
        game_init(st_, data.kernel, 0, num_players, setup[k], play[k])
        ref = GolemsReference(data, num_players, int(setup[k]))
        for t, mv in enumerate(moves):
            where = f"{num_players}p {variant} T={temperature} game {k} move {t}"
            assert move_key(mv) in set(ref.legal_actions()), where
            assert game_step(st_, data.kernel, 0, mv) == 0, where
            ref.apply_action(mv)
            compare(ref, st_, where)
            check_invariants(st_[0], data, num_players)
        assert ref.is_terminal() and results(data, final)["score"][0].tolist() == ref.scores()


@pytest.mark.parametrize("num_players", [2, 1])
def test_checked_runs_have_no_illegal_move_and_workers_agree(num_players: int) -> None:
    games = 300
    ids, params = lineup(
        ("apprentice", params_of("apprentice")),
        ("apprentice", params_of("apprentice", temperature=0.3)),
        ("collector", params_of("collector")),
    )
    setup, play = game_seeds(MASTER_SEED, np.arange(games), np.arange(games))
    seat_bot = (np.arange(num_players)[None, :] + np.arange(games)[:, None]) % 3
    one = play_batch(DATA, num_players, seat_bot, ids, params, setup, play, threads=1, check_moves=True)
    assert (one["over"] != END_ILLEGAL).all(), "no apprentice move was illegal"
    two = play_batch(DATA, num_players, seat_bot, ids, params, setup, play, threads=2)
    assert one.tobytes() == two.tobytes(), "unchecked, threaded: the same games"


# ---------------------------------------------------------------------------- hidden information


def test_moves_do_not_depend_on_what_the_seat_cannot_see() -> None:
    """The same visible position with the removed and undrawn cards in another order gives the same move."""
    shuffler = np.random.default_rng(5)
    compared = 0
    for index in range(12):
        num_players = 2 if index % 3 else 1
        st = position(num_players, 2 + 3 * index, 300 + index)
        if st[0]["over"] != RUNNING:
            continue
        other = reshuffle_unseen(st, shuffler)
        for temperature in (0.0, 2.0):
            a, b = st.copy(), other.copy()
            assert apprentice_move(a, temperature) == apprentice_move(b, temperature)
            assert (a["rng"] == b["rng"]).all() and (a["rng"] != st["rng"]).all(), "one draw from each play stream"
        compared += 1
    assert compared >= 10


def test_features_change_only_with_what_the_seat_sees() -> None:
    shuffler = np.random.default_rng(9)
    for index in range(8):
        num_players = 2 if index % 2 else 1
        st = position(num_players, 3 + 4 * index, 400 + index)
        other = reshuffle_unseen(st, shuffler)
        other[0]["rng"][0] ^= 12345  # the play stream is no part of the position either
        for seat in range(num_players):
            assert seen_features(st, seat).tolist() == seen_features(other, seat).tolist()
        # what the seat sees: its gems and the display
        seen = st.copy()
        seen[0]["gems"][0] += 1
        assert seen_features(seen, 0)[FEATURES.index("gems")] == seen_features(st, 0)[FEATURES.index("gems")] + 1
        if num_players == 2:
            assert (
                seen_features(seen, 1)[FEATURES.index("opp_gems")] == seen_features(st, 0)[FEATURES.index("gems")] + 1
            )
        seen = st.copy()
        seen[0]["deck_pos"] += 1  # one card fewer left in the deck: public
        assert (
            seen_features(seen, 0)[FEATURES.index("deck_left")] == seen_features(st, 0)[FEATURES.index("deck_left")] - 1
        )


def test_two_player_features_mirror_between_the_seats() -> None:
    st = position(2, 11, 500)
    mine, theirs = seen_features(st, 0), seen_features(st, 1)
    for name in ("score", "golems", "tucked", "hand_vp", "gems", "columns", "summonable", "potential"):
        assert mine[FEATURES.index(name)] == theirs[FEATURES.index("opp_" + name)], name
    assert mine[FEATURES.index("score_margin")] == -theirs[FEATURES.index("score_margin")]
    assert {mine[FEATURES.index("to_move")], theirs[FEATURES.index("to_move")]} == {0.0, 1.0}
    assert mine[FEATURES.index("first_seat")] == 1.0 and theirs[FEATURES.index("first_seat")] == 0.0
    for name in ("score_margin", "near_end", "first_seat"):  # the pairwise terms: every base feature times each
        product = mine[FEATURES.index("potential")] * mine[FEATURES.index(name)]
        assert mine[FEATURES.index(f"potential_x_{name}")] == product


@pytest.mark.parametrize("num_players", [2, 1])
def test_the_fused_logit_is_the_dot_product_of_the_features(num_players: int) -> None:
    work = np.zeros((B.WORK_ROWS, B.WORK_LEN), np.int64)
    scratch = np.zeros(NUM_FEATURES)
    for turns, index in ((0, 3), (11, 500), (24, 9)):
        st = position(num_players, turns, index)
        for seat in range(num_players):
            for weights in (DATA.kernel[0]["apprentice_w"][num_players], DATA.kernel[0]["apprentice_v"][2]):
                dot = weights[0] + weights[1:] @ seen_features(st, seat)
                fused = fused_logit(st[0], DATA.kernel[0], seat, work, scratch, weights)
                assert fused == pytest.approx(dot, rel=1e-9, abs=1e-9)


# ---------------------------------------------------------------------------------- weights file


def test_weights_round_trip_and_load_into_the_tables(tmp_path: Path) -> None:
    shipped = read_weights(default_dir("golems"), FEATURES, PLAYER_COUNTS, D.MAX_PLAYERS)
    assert shipped.shape == (D.MAX_PLAYERS + 1, NUM_FEATURES + 1)
    assert np.array_equal(DATA.tables.apprentice_w, shipped) and np.array_equal(DATA.kernel[0]["apprentice_w"], shipped)
    w = np.random.default_rng(1).normal(size=shipped.shape)
    w[0] = 0.0  # no column for 0 players
    (tmp_path / "apprentice.csv").write_text(weights_text(w, FEATURES, PLAYER_COUNTS))
    assert np.array_equal(read_weights(tmp_path, FEATURES, PLAYER_COUNTS, D.MAX_PLAYERS), w)
    assert {"apprentice.csv", "apprentice.toml", D.VALUE_FILE, D.VALUE_PROVENANCE_FILE} <= set(D.FILES)
    assert set(DATA.provenance["files"]) == set(D.FILES), "every run hashes the weights"
    assert DATA.provenance["apprentice"] == read_provenance(default_dir("golems")).get("fit", {}), "the fit's record"
    value = read_weights(default_dir("golems"), FEATURES, (2,), D.MAX_PLAYERS, D.VALUE_FILE)
    tables = DATA.kernel[0]
    assert value[2].any() and not value[:2].any()
    assert np.array_equal(tables["apprentice_v"][2], value[2]), "2 players: the value file"
    assert np.array_equal(tables["apprentice_v"][1], tables["apprentice_w"][1]), "solo: the play weights, a value fit"
    fit = read_provenance(default_dir("golems"), D.VALUE_PROVENANCE_FILE)["fit"]
    assert DATA.provenance["apprentice_value"] == fit and fit["games"] == 1000, "the reply value's record"


def test_weights_of_other_features_are_refused_naming_the_line(tmp_path: Path) -> None:
    deck = tmp_path / "deck"
    shutil.copytree(default_dir("golems"), deck)
    path = deck / "apprentice.csv"
    lines = path.read_text().splitlines()
    k = 1 + 1 + FEATURES.index("potential")  # header, intercept, then the features (1-based lines)
    lines[k] = lines[k].replace("potential", "promise", 1)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match=rf"apprentice.csv: line {k + 1}: feature 'promise', expected 'potential'"):
        D.load(deck)
    path.write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(DataError, match="apprentice.csv"):
        D.load(deck)


# ---------------------------------------------------------------------------- training positions


@pytest.mark.parametrize("num_players", [2, 1])
def test_positions_are_every_seats_features_after_every_move_of_the_run_games(num_players: int) -> None:
    games = 5
    ids, params = lineup(("apprentice", params_of("apprentice")), ("collector", params_of("collector")))
    setup, play = game_seeds(MASTER_SEED, np.arange(games), np.arange(games))
    seat_bot = (np.arange(num_players)[None, :] + np.arange(games)[:, None]) % 2
    pos = positions(DATA, num_players, seat_bot, ids, params, setup, play)
    assert isinstance(pos, Positions) and pos.x.dtype == np.float32 and pos.x.shape[1] == NUM_FEATURES
    run = play_batch(DATA, num_players, seat_bot, ids, params, setup, play)
    res = results(DATA, run)
    if num_players == 2:
        assert pos.win.tolist() == res["win"].astype(np.float64).tolist(), "the games of a run"
    else:  # solo: the win graded by the final margin over the automaton
        margin = res["score"][:, 0] - run["automa_vp"]
        assert pos.win[:, 0] == pytest.approx(1 / (1 + np.exp(-margin / 2.0)))
        assert ((pos.win[:, 0] > 0.5) == (res["win"][:, 0] > 0.5)).all() or (margin == 0).any()
    for g in range(games):
        moves, _ = trace_game(DATA, num_players, seat_bot[g], ids, params, setup[g], play[g])
        mine = pos.game == g
        assert mine.sum() == num_players * len(moves)
        assert pos.seat[mine].tolist() == [s for _ in moves for s in range(num_players)]
        st = new_state(1, DATA.tables)
        game_init(st, DATA.kernel, 0, num_players, setup[g], play[g])
        rows = pos.x[mine]
        for t, mv in enumerate(moves):
            game_step(st, DATA.kernel, 0, mv)
            for s in range(num_players):
                expected = seen_features(st, s).astype(np.float32)
                assert rows[t * num_players + s].tolist() == expected.tolist(), f"game {g} move {t} seat {s}"


def test_the_spec_names_the_features_counts_rival_and_policy_choices() -> None:
    assert GAME.info.apprentice is APPRENTICE
    assert APPRENTICE.features == FEATURES and APPRENTICE.player_counts == (1, 2)
    assert APPRENTICE.rival in GAME.info.bots and APPRENTICE.rival == "lookahead"
    ladder = GAME.info.skill_ladder
    assert ladder.index("lookahead") < ladder.index("apprentice") < ladder.index("search:iterations=200")
    assert any(k.startswith("apprentice") for k in GAME.info.bench_lineups)
    assert 20 <= NUM_BASE <= 60 and NUM_FEATURES == (2 + len(CONTEXT)) * NUM_BASE and len(set(FEATURES)) == NUM_FEATURES
    assert APPRENTICE.choices is choices and APPRENTICE.policy_counts == (2,)
    # the policy stage's choices: one chosen move per decision, the one the bot played (its own score, Golems,
    # tucked cards and dust after the move do not depend on the re-dealt unseen cards)
    ids, params = lineup(("collector", params_of("collector")))
    setup, play = game_seeds(MASTER_SEED, np.arange(2), np.arange(2))
    ch = choices(DATA, 2, np.zeros((2, 2), np.int64), ids, params, setup, play)
    starts = np.flatnonzero(np.r_[True, np.diff(ch.decision) != 0])
    assert (np.add.reduceat(ch.chosen.astype(int), starts) == 1).all() and len(starts) == ch.decision[-1] + 1
    assert np.array_equal(ch.share, ch.chosen.astype(np.float32)), "a bot without a tree: its move alone"
    # the search's own preference: its root visit shares in a second search of each decision's position
    ids_s, params_s = lineup(("search", search_params(iterations=20)))
    soft = choices(DATA, 2, np.zeros((1, 2), np.int64), ids_s, params_s, setup[:1], play[:1])
    starts_s = np.flatnonzero(np.r_[True, np.diff(soft.decision) != 0])
    assert (soft.share >= 0).all() and np.add.reduceat(soft.share, starts_s) == pytest.approx(1.0, abs=1e-5)
    mine = [FEATURES.index(name) for name in ("score", "golems", "tucked", "dust")]
    for g in range(2):
        moves, _ = trace_game(DATA, 2, np.zeros(2, np.int64), ids, params, setup[g], play[g])
        st = new_state(1, DATA.tables)
        game_init(st, DATA.kernel, 0, 2, setup[g], play[g])
        after = []
        for mv in moves:
            mover = int(st[0]["current"])
            game_step(st, DATA.kernel, 0, mv)
            after.append(seen_features(st, mover)[mine])
        played = ch.x[ch.chosen & (ch.game == g)][:, mine]
        assert 0 < len(played) <= len(moves)
        assert all(any(np.array_equal(row, a) for a in after) for row in played)
    # its fit (a conditional logit) recovers the weights that drew synthetic choices
    rng = np.random.default_rng(5)
    truth = np.array([1.5, -1.0, 0.0])
    x = rng.normal(size=(4000 * 6, 3))
    decision = np.repeat(np.arange(4000), 6)
    u = (x @ truth).reshape(4000, 6) + rng.gumbel(size=(4000, 6))
    chosen = (u == u.max(axis=1, keepdims=True)).ravel()
    w, fit = _fit_policy(x, decision, chosen, decision % 10 == 0)
    assert w[1:] == pytest.approx(truth, abs=0.12)
    assert fit["log_loss"] < fit["uniform_log_loss"] and fit["agreement"] > 1 / 6
    # and fitted to each decision's choice chances (soft targets, as the search's visit shares), more closely
    e = np.exp((x @ truth).reshape(4000, 6))
    w, _ = _fit_policy(x, decision, chosen, decision % 10 == 0, (e / e.sum(axis=1, keepdims=True)).ravel())
    assert w[1:] == pytest.approx(truth, abs=0.06)


# ------------------------------------------------------------------------- search with the apprentice


@pytest.mark.parametrize("num_players", [2, 1])
@pytest.mark.parametrize("leaf", [1.0, 0.5])
def test_search_with_apprentice_leaves_is_legal(num_players: int, leaf: float) -> None:
    ids, params = lineup(("search", search_params(iterations=25, leaf=leaf)), ("collector", params_of("collector")))
    setup, play = game_seeds(MASTER_SEED, np.arange(700, 702), np.arange(700, 702))
    for k in range(2):
        moves, final = trace_game(DATA, num_players, np.arange(num_players), ids, params, setup[k], play[k])
        assert final["over"][0] in (1, 4)
        ref = GolemsReference(DATA, num_players, int(setup[k]))
        for mv in moves:
            assert move_key(mv) in set(ref.legal_actions())
            ref.apply_action(mv)
        assert ref.is_terminal()


# search:iterations=30 against collector, games 0-3 of seed MASTER_SEED: scores, turns and the play streams'
# last draws (mod 100,000) as main played them before the search had ``leaf`` (commit aaf73f9; this test held
# until engine version 3 dealt other setups from the same seeds, and the games were re-taken then)
BEFORE_LEAF = {
    2: ([[34, 34], [31, 31], [31, 31], [23, 35]], [40, 40, 38, 40], [81641, 83407, 7311, 83920]),
    1: ([[39], [38], [38], [37]], [27, 31, 28, 31], [36287, 66338, 90242, 21497]),
}


@pytest.mark.parametrize("num_players", [2, 1])
def test_search_by_default_plays_the_games_it_played_before_leaf(num_players: int) -> None:
    plain = search_params(iterations=30)
    assert plain[list(B.BOTS["search"][2]).index("leaf")] == 0.0
    ids = np.array([B.SEARCH, B.COLLECTOR])
    setup, play = game_seeds(MASTER_SEED, np.arange(4), np.arange(4))
    seat = np.tile(np.arange(num_players), (4, 1))
    st = play_batch(DATA, num_players, seat, ids, np.stack([plain, params_of("collector")]), setup, play)
    played = (results(DATA, st)["score"].tolist(), st["turn"].tolist(), [int(x) % 100_000 for x in st["rng"][:, 0]])
    assert played == BEFORE_LEAF[num_players]
    # the hand-set weights value a 2-player leaf exactly as the look-ahead's evaluation does (logit = half the
    # worth margin, and the two seats' sigmoids already sum to 1): other weights show that leaf is used
    leaf = np.stack([search_params(iterations=30, leaf=1.0), params_of("collector")])

    def changed(table: str) -> bytes:
        kernel = DATA.kernel.copy()
        kernel[0][table][num_players, 1 + FEATURES.index("score_margin")] = 1.0
        return play_batch(DATA._replace(kernel=kernel), num_players, seat, ids, leaf, setup, play).tobytes()

    assert changed("apprentice_v") != st.tobytes(), "leaf changes the search's play"
    assert changed("apprentice_w") == play_batch(DATA, num_players, seat, ids, leaf, setup, play).tobytes(), (
        "the leaf reads the value weights, not the play weights (at 2 players a policy)"
    )


# ------------------------------------------------------------------------------- a known decision


def test_the_shipped_apprentice_takes_the_only_winning_last_card() -> None:
    st, best = one_winning_card()
    for seed in range(3):
        st[0]["rng"][0] = seed
        ws = B.new_work(1, st.dtype)
        game_apprentice(st.copy(), DATA.kernel, 0, 0.0, *B.default_params("apprentice")[1:3], ws)
        assert card_key(ws[0]["mv"]) == best
