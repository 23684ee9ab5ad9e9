"""Golem-poker's ``cfr`` bot: the policy file, the abstraction it reads, what it may see, and that it is not beaten
by the simplest exploits (always folding, always raising, at 3 and 6 players). The CFR core itself is tested on Kuhn
poker in ``tests/test_cfr.py``; the bot's games replayed through the reference engine and its hidden-information
check at positions are in the conformance check (``tests/test_conformance.py``), which covers every registered bot.
"""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats
from test_golem_poker_search import determinise, position

from simulate.cli import main
from simulate.datafiles import DataError, pack_record
from simulate.game import Lineup
from simulate.games.golem_poker import bots as B
from simulate.games.golem_poker import cfr_game
from simulate.games.golem_poker import data as D
from simulate.games.golem_poker import policy as P
from simulate.games.golem_poker.abstraction import abstract_move, info_row, legal_actions, rival_legal_actions
from simulate.games.golem_poker.engine import game_step
from simulate.games.golem_poker.state import BET, BET1, FOLD, M_AMOUNT, M_KIND, MATCH, MOVE_LEN, RAISE
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.orchestration.equilibrium import rival_weights, table_rival_record
from simulate.registry import make
from simulate.rng import game_seeds

DATA = D.load()
GAME = make("golem-poker")
SEED = 20261206
CHECK_FOLD = "threshold:fold_below=1:raise_above=1"  # checks when it can, folds to every bet
MANIAC = "threshold:fold_below=0:raise_above=0:max_raises=20:bet_antes=2"  # bets and raises whenever it may


def decide(st: np.ndarray, data: D.PokerData = DATA) -> np.ndarray:
    """The cfr bot's move for the seat to act in ``st[0]`` (the record is left as it was)."""
    saved = st.copy()
    bp = B.bot_records(np.array([B.CFR]), B.default_params("cfr")[None])[0]
    out = np.zeros(MOVE_LEN, np.int32)
    B.choose_move(st[0], data.kernel[0], bp, out, np.zeros(B.SCRATCH, np.int8), np.full(B.MEMO, -1.0))
    st[:] = saved
    return out


def with_policy(table: np.ndarray) -> D.PokerData:
    tables = DATA.tables._replace(policy=table)
    return DATA._replace(tables=tables, kernel=pack_record(tables))


def test_row_names_number_every_information_set_once() -> None:
    for n in P.PLAYER_COUNTS:
        names = [P.row_name(n, r) for r in range(P.ROWS)]
        assert len(set(names)) == P.ROWS
        assert all(P.parse_row_name(name) == (n, r) for r, name in enumerate(names))


def test_policy_file_round_trip(tmp_path: Path) -> None:
    rng = np.random.default_rng(SEED)
    table = P.empty_policy()
    picked = rng.choice(P.ROWS, 50, replace=False)
    w = rng.random((4, 50, P.NUM_ACTIONS))
    table[:, picked] = w / w.sum(axis=2, keepdims=True)
    path = tmp_path / P.FILE
    path.write_text(P.policy_text(table), encoding="utf-8")
    back = P.read_policy(path)
    assert np.allclose(back, table, atol=1e-4)
    assert (back[:, :, 0] == P.MISSING).sum() == 4 * (P.ROWS - 50)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("n7-0-0-0-3-0-0-0-0-0-0,0,1,0,0,0", "players must be within 3..6"),
        ("n4-0-0-9-3-0-0-0-0-0-0,0,1,0,0,0", "hand must be within 0..7"),
        ("n4-0-0-0-3-0-4-0-0-0-0,0,1,0,0,0", "raises must be within 0..3"),
        ("n4-0-0-0-3-0-0-0-0-0-3,0,1,0,0,0", "stake must be within 0..2"),
        ("n4-0-0-0-3-0-0-0-0-0,0,1,0,0,0", "is not n<players>"),
        ("n4-0-0-0-3-0-0-0-0-0-0,0.5,0.6,0,0,0", "sum to 1"),
        ("n4-0-0-0-3-0-0-0-0-0-0,-1,2,0,0,0", "at least 0"),
    ],
)
def test_a_bad_policy_line_is_named(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / P.FILE
    head = "infoset,fold,match,half_pot,pot,min_raise\nn3-0-0-0-3-0-0-0-0-0-0,0,1,0,0,0\n"
    path.write_text(head + line + "\n", encoding="utf-8")
    with pytest.raises(DataError, match=f"line 3: .*{message}"):
        P.read_policy(path)


def test_shipped_table_covers_the_common_information_sets() -> None:
    table = DATA.tables.policy
    reached = table[:, :, 0] >= 0
    assert reached.sum(axis=1).min() > 300  # every player count's table was trained
    assert np.allclose(table[reached].sum(axis=1), 1.0, atol=1e-3)
    # the first decision of a pot (the amulet, first round, nothing bet, everyone in, an ante at stake) is reached at
    # every hand
    for k, n in enumerate(P.PLAYER_COUNTS):
        for hand in range(len(P.STRENGTH_EDGES) + 1):
            assert reached[k, P.parse_row_name(f"n{n}-0-0-{hand}-3-0-0-0-{min(n - 1, 3) - 1}-0-0")[1]]


@pytest.mark.parametrize("players", [3, 6])
def test_info_row_reads_the_position(players: int) -> None:
    for index in range(20):
        for moves in (0, 4, 9):
            st = position(players, moves, index)
            r = st[0]
            name = P.row_name(players, int(info_row(r, DATA.kernel[0])))
            fields = (int(x) for x in name[1:].split("-"))
            _, pos, phase, _, golem, price, raises, again, opponents, aggression, stake = fields
            seat = int(r["current"])
            assert pos == (0 if seat == 0 else 2 if seat == players - 1 else 1)
            assert phase == (0 if r["phase"] == BET1 else 1)
            assert (golem == 3) == (phase == 0)
            owed = int(r["current_bet"] - r["bet_in"][seat])
            assert (price == 0) == (owed <= 0)
            if owed > 0:  # the pot odds of the match, in the bucket of PRICE_EDGES
                share = owed / (int(r["pot"]) + owed)
                assert price == 1 + sum(share >= e for e in P.PRICE_EDGES)
            assert raises == min(int(r["raises"]), 3)
            assert again == int(r["bet_in"][seat] > 0)
            assert opponents == min(int(r["num_in"]) - 1, 3) - 1
            others = [o for o in range(players) if o != seat and r["active"][o]]
            assert aggression == int(any(r["aggr"][o] == 2 for o in others))
            committed = int(r["paid_ante"][seat] + r["paid_bet"][seat] + r["paid_penalty"][seat])
            share = committed / (committed + max(int(r["stack"][seat]), 0))
            assert stake == sum(share >= e for e in P.STAKE_EDGES)


def test_the_bot_plays_what_its_table_says() -> None:
    """Planted tables: all pot-sized raises, then all folds; the bot follows each where it is legal."""
    raise_all = P.empty_policy()
    raise_all[:] = (0.0, 0.0, 0.0, 1.0, 0.0)
    fold_all = P.empty_policy()
    fold_all[:] = (1.0, 0.0, 0.0, 0.0, 0.0)
    seen = set()
    for index in range(30):
        st = position(4, index % 6, index)
        if st[0]["phase"] not in (0, 2):
            continue
        r = st[0]
        facing = r["current_bet"] - r["bet_in"][r["current"]] > 0
        up = decide(st, with_policy(raise_all))
        if r["current_bet"] == 0:
            assert up[0] == BET and up[1] >= DATA.rules["ante"]
            seen.add("bet")
        elif r["raises"] < P.MAX_RAISES:
            assert up[0] == RAISE
            seen.add("raise")
        down = decide(st, with_policy(fold_all))
        assert down[0] == (FOLD if facing else MATCH)  # folding nothing to call is not an abstract action
        seen.add("fold" if facing else "check")
    assert seen == {"bet", "raise", "fold", "check"}


def test_a_training_rival_bets_and_raises_the_minimum_from_the_first_bet() -> None:
    """The rivals' actions are the learners' and a minimum bet or raise wherever the rules allow one below the war's
    cap; the move it makes is the rules' smallest and the engine takes it."""
    seen = set()
    for index in range(12):
        for moves in (0, 2, 4, 6, 9, 12):
            st = position(6, moves, index)
            r = st[0]
            if r["phase"] not in (0, 2) or r["over"]:
                continue
            learner, rival = np.zeros(P.NUM_ACTIONS, np.bool_), np.zeros(P.NUM_ACTIONS, np.bool_)
            legal_actions(r, DATA.kernel[0], learner)
            rival_legal_actions(r, DATA.kernel[0], rival)
            opening = r["current_bet"] == 0
            may = (
                r["bet_lo"] <= r["bet_hi"] if opening else r["raises"] < P.WAR_RAISES and r["raise_lo"] <= r["raise_hi"]
            )
            assert rival[P.A_MIN] == may
            assert np.array_equal(rival[: P.A_MIN], learner[: P.A_MIN])
            assert not learner[P.A_MIN] or r["raises"] >= P.MAX_RAISES  # the learners' abstraction is unchanged
            if not may:
                continue
            mv = np.zeros(MOVE_LEN, np.int32)
            abstract_move(r, DATA.kernel[0], P.A_MIN, mv)
            assert (mv[M_KIND], mv[M_AMOUNT]) == ((BET, r["bet_lo"]) if opening else (RAISE, r["raise_lo"]))
            assert game_step(st, DATA.kernel, 0, mv) == 0
            seen.add("bet" if opening else "raise")
    assert seen == {"bet", "raise"}


def _checks_or_folds() -> np.ndarray:
    """A rival by information set for the test: folds to a bet in the first betting round, matches in the second."""
    phase = np.indices([size for _, size in P.FIELDS]).reshape(len(P.FIELDS), P.ROWS)[1]
    return np.where(phase[:, None] == 0, [1.0, 1e-12, 0, 0, 0], [0, 1.0, 0, 0, 0])


def test_a_rival_by_information_set_reaches_the_training_after_the_constant_ones() -> None:
    """``rival_weights``: one row a constant rival while none plays by row; with one, the constant rivals repeated at
    every row and the table rival last, row for row; the provenance names it and the digest of its table."""
    spec = GAME.info.equilibrium
    assert rival_weights(spec).shape == (len(spec.rivals), 1, P.NUM_ACTIONS)
    spec = replace(spec, table_rivals=(("checks_or_folds", _checks_or_folds),))
    rivals = rival_weights(spec)
    assert rivals.shape == (len(spec.rivals) + 1, P.ROWS, P.NUM_ACTIONS)
    assert all(np.array_equal(rivals[k], np.tile(w, (P.ROWS, 1))) for k, w in enumerate(spec.rivals))
    assert np.array_equal(rivals[-1], _checks_or_folds())
    (record,) = table_rival_record(spec)
    assert record["name"] == "checks_or_folds" and record["builder"].endswith("._checks_or_folds")
    assert record["sha256"] == hashlib.sha256(_checks_or_folds().tobytes()).hexdigest()


def test_the_traverser_tries_each_action_only_early_in_a_pot_and_a_war() -> None:
    """The training's bound on its tree: every action tried in a pot's first two deals while the round has seen fewer
    than EXPLORED_RAISES raises, one sampled after (a war of minimum raises would otherwise branch at every call)."""
    st = np.zeros(2, position(6, 0, 0).dtype)
    st[0] = position(6, 0, 0)[0]
    for deal in (1, 2, 3):
        for raises in range(8):
            st[0]["deal"], st[0]["raises"] = deal, raises
            assert cfr_game.explore(st, 0, DATA.kernel) == (deal <= 2 and raises < cfr_game.EXPLORED_RAISES)


@pytest.mark.parametrize("moves", [0, 3, 6, 9])
def test_decisions_do_not_depend_on_what_the_seat_cannot_see(moves: int) -> None:
    for index in range(10):
        st0 = position(4, moves, index)
        seat = int(st0[0]["current"])
        first = decide(st0)
        other = determinise(st0, 2000 + index)  # other hands, discards and deck order, the same public state
        other[0]["rng"][0] += 12345
        other[0]["rng"][1] = st0[0]["rng"][1]  # the bot's own stream stays
        other[0]["hand"][seat] = st0[0]["hand"][seat]
        other[0]["value"][seat] = st0[0]["value"][seat]
        assert not np.array_equal(other[0]["hand"], st0[0]["hand"])
        assert np.array_equal(decide(other), first), (index, moves)


def chips_against(field: str, players: int = 3, games: int = 3000, data: D.PokerData = DATA) -> np.ndarray:
    """The cfr bot's net chips a game in one seat (rotated) against ``field`` in the others."""
    ids, params = lineup_arrays(GAME, parse_lineup(GAME, ["cfr"] + [field] * (players - 1), players))
    index = np.arange(games)
    setup, plays = game_seeds(SEED, index, index // players)
    seat_bot = (np.arange(players)[None, :] - (index % players)[:, None]) % players
    tables = GAME.play_chunk(data, Lineup(players, seat_bot, ids, params, setup, plays), check_moves=True)
    scores = np.asarray(tables.seats["score"], float).reshape(games, players)
    end = tables.games["end_reason"]
    assert "illegal_move" not in {end.categories[c] for c in np.unique(np.asarray(end.codes))}
    return scores[index, np.argmax(seat_bot == 0, axis=1)]


def interval(chips: np.ndarray) -> tuple[float, float]:
    lo, hi = stats.t.interval(0.95, len(chips) - 1, loc=chips.mean(), scale=stats.sem(chips))
    return float(lo), float(hi)


CHECK_GAMES = 100_000
"""Games of each check: about a second of play, and a 95% interval of about +-6 chips a hand against the maniacs at 6
players (+-33 at 3,000 games, where even the best threshold exploit of the maniacs hardly showed a gain)."""

SIX_MANIACS_BEAT_IT = pytest.mark.xfail(
    strict=True,
    reason="known weakness: five players who always raise (2 antes at a time, 20 raises a round) beat it at 6 players: "
    "-12.8 [-18.5, -7.2] chips a hand over 100,000 games on this seed (abstraction version 4; version 3 lost -145). "
    "It folds its best hands where its first decision comes after five raises, rows its training never tried "
    "(docs/golem-poker.md)",
)


@pytest.mark.parametrize(
    ("field", "players"),
    [(CHECK_FOLD, 3), (CHECK_FOLD, 6), (MANIAC, 3), pytest.param(MANIAC, 6, marks=SIX_MANIACS_BEAT_IT)],
)
def test_always_folding_or_always_raising_cannot_beat_it(field: str, players: int) -> None:
    chips = chips_against(field, players, CHECK_GAMES)
    assert interval(chips)[0] > 0, (field, players, chips.mean(), interval(chips))


def test_a_table_that_steals_and_folds_to_a_raise_is_beaten_by_always_raising() -> None:
    """The check above can fail: the first table's weakness, planted (open every pot, call a bet, fold to any raise),
    loses to the table that always raises."""
    steal = DATA.tables.policy.copy()
    for k, n in enumerate(P.PLAYER_COUNTS):
        for row in range(P.ROWS):
            _, _, _, _, _, price, raises, *_ = (int(x) for x in P.row_name(n, row)[1:].split("-"))
            steal[k, row] = (0, 0, 1.0, 0, 0) if price == 0 else (1.0, 0, 0, 0, 0) if raises else (0, 1.0, 0, 0, 0)
    chips = chips_against(MANIAC, 3, 1500, with_policy(steal))
    assert interval(chips)[1] < 0, (chips.mean(), interval(chips))


def test_a_table_of_another_abstraction_version_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(GAME.data_dir(), folder)
    prov = folder / P.PROVENANCE_FILE
    text = prov.read_text(encoding="utf-8")
    assert f"abstraction_version = {P.VERSION}" in text
    prov.write_text(text.replace(f"abstraction_version = {P.VERSION}", "abstraction_version = 1"), encoding="utf-8")
    with pytest.raises(DataError, match="trained on abstraction version 1, the cfr bot plays version"):
        D.load(folder)
    assert (D.load(folder, cfr_table=False).tables.policy == P.MISSING).all()  # what a training reads


def test_train_writes_a_deterministic_table(tmp_path: Path) -> None:
    runner = CliRunner()
    outputs = []
    for name in ("a", "b"):
        out = tmp_path / name
        args = ["train", "golem-poker", "--iterations", "300", "--games", "0", "--seed", "3", "-w", "1", "-q"]
        result = runner.invoke(main, [*args, "--out", str(out)])
        assert result.exit_code == 0, result.output
        outputs.append((out / P.FILE).read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1]
    table = P.read_policy(tmp_path / "a" / P.FILE)
    assert (table[:, :, 0] >= 0).sum() > 200
    prov = (tmp_path / "a" / P.PROVENANCE_FILE).read_text(encoding="utf-8")
    keys = ("command", "seed = 3", "iterations = 300", f"engine_version = {GAME.info.version}", "information_sets")
    for key in (*keys, f"abstraction_version = {P.VERSION}", f"rival_share = {GAME.info.equilibrium.rival_share}"):
        assert key in prov
    fit = tomllib.loads(prov)["fit"]  # the rivals as the spec holds them: constant weights, none by information set
    assert fit["rivals"] == [list(w) for w in GAME.info.equilibrium.rivals] and fit["table_rivals"] == []
    # the trained folder plays: a data copy with the new table loads
    folder = tmp_path / "data"
    shutil.copytree(GAME.data_dir(), folder)
    for name in (P.FILE, P.PROVENANCE_FILE):
        shutil.copy2(tmp_path / "a" / name, folder / name)
    assert np.array_equal(D.load(folder).tables.policy, table)
    # and the benchmark measures it in place of the shipped table (--table)
    measured = benchmark().load_data(GAME, tmp_path / "a")
    assert np.array_equal(measured.tables.policy, table)
    assert "--iterations 300" in measured.provenance["cfr_policy"]["command"]


def test_train_players_refits_those_rows_and_keeps_the_others_with_their_provenance(tmp_path: Path) -> None:
    """``-p 6`` changes the 6-player rows alone; a later ``-p 3`` from that table keeps them and says which training
    produced each count's rows."""
    runner = CliRunner()
    args = ["train", "golem-poker", "--iterations", "300", "--games", "0", "-w", "1", "-q"]
    result = runner.invoke(main, [*args, "--seed", "3", "-p", "6", "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    shipped = DATA.tables.policy
    table = P.read_policy(tmp_path / "a" / P.FILE)
    assert np.array_equal(table[:3], shipped[:3])
    assert not np.array_equal(table[3], shipped[3])
    fit = tomllib.loads((tmp_path / "a" / P.PROVENANCE_FILE).read_text(encoding="utf-8"))["fit"]
    shipped_fit = DATA.provenance["cfr_policy"]
    assert fit["trained_counts"] == [6] and fit["command"].endswith("--seed 3 --iterations 300 --games 0 -p 6")
    assert fit["counts"]["6"]["command"] == fit["command"] and fit["counts"]["6"]["iterations"] == 300
    for n in ("3", "4", "5"):
        assert fit["counts"][n]["command"] == shipped_fit.get("counts", {}).get(n, shipped_fit)["command"]
        assert fit["figures"][n] == shipped_fit["figures"][n]
    # the trained table as a data folder, then -p 3 from it: its 6-player rows and their provenance are kept
    folder = tmp_path / "data"
    shutil.copytree(GAME.data_dir(), folder)
    for name in (P.FILE, P.PROVENANCE_FILE):
        shutil.copy2(tmp_path / "a" / name, folder / name)
    result = runner.invoke(
        main, [*args, "--seed", "4", "-p", "3", "--cards", str(folder), "--out", str(tmp_path / "b")]
    )
    assert result.exit_code == 0, result.output
    again = P.read_policy(tmp_path / "b" / P.FILE)
    assert np.array_equal(again[1:], table[1:]) and not np.array_equal(again[0], table[0])
    fit_b = tomllib.loads((tmp_path / "b" / P.PROVENANCE_FILE).read_text(encoding="utf-8"))["fit"]
    assert fit_b["counts"]["6"] == fit["counts"]["6"] and fit_b["counts"]["4"] == fit["counts"]["4"]
    assert fit_b["counts"]["3"]["seed"] == 4


def test_train_takes_one_counts_iterations(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["train", "golem-poker", "--games", "0", "-w", "1", "-q", "-p", "5", "-p", "6"]
    result = runner.invoke(main, [*args, "--iterations", "200", "--iterations", "6=300", "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    log = np.loadtxt(tmp_path / "a" / "log.csv", delimiter=",", skiprows=1, usecols=(0, 1))
    assert {n: log[log[:, 0] == n, 1].max() for n in (5, 6)} == {5: 200, 6: 300}
    fit = tomllib.loads((tmp_path / "a" / P.PROVENANCE_FILE).read_text(encoding="utf-8"))["fit"]
    assert fit["command"] == "golem train golem-poker --seed 0 --iterations 200 --games 0 --iterations 6=300 -p 5 -p 6"
    assert (fit["counts"]["5"]["iterations"], fit["counts"]["6"]["iterations"]) == (200, 300)


def benchmark():
    """``benchmarks/poker_cfr.py`` as a module."""
    spec = importlib.util.spec_from_file_location(
        "poker_cfr", Path(__file__).resolve().parents[1] / "benchmarks" / "poker_cfr.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_refuses_a_folder_without_a_table_or_of_another_version(tmp_path: Path) -> None:
    bench = benchmark()
    (tmp_path / P.FILE).write_text("infoset,fold,match,half_pot,pot,min_raise\n", encoding="utf-8")
    with pytest.raises(DataError, match=f"no {P.PROVENANCE_FILE}"):
        bench.load_data(GAME, tmp_path)
    for name in (P.FILE, P.PROVENANCE_FILE):
        shutil.copy2(GAME.data_dir() / name, tmp_path / name)
    assert np.array_equal(bench.load_data(GAME, tmp_path).tables.policy, DATA.tables.policy)
    prov = tmp_path / P.PROVENANCE_FILE
    prov.write_text(
        prov.read_text(encoding="utf-8").replace(f"abstraction_version = {P.VERSION}", "abstraction_version = 1")
    )
    with pytest.raises(DataError, match="trained on abstraction version 1"):
        bench.load_data(GAME, tmp_path)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--iterations", "0"], "--iterations must be at least 1"),
        (["--teacher", "search"], "--teacher: not an option"),
        (["--games", "-1"], "--games must be at least 0"),
        (["-p", "6", "-p", "7"], "--players 7: golem-poker's table is of 3, 4, 5, 6 players"),
        (["-p", "6", "--rule", "penalty_antes=3"], "trained under other rules (penalty_antes): train every count"),
        (["--iterations", "7=10"], "--iterations 7=10: golem-poker's table is of 3, 4, 5, 6 players"),
        (["-p", "6", "--iterations", "5=10"], "--iterations 5=10: 5 players are not trained (--players)"),
        (["--iterations", "6=0"], "--iterations 6=0: must be at least 1"),
        (["--iterations", "6=x"], "expected N or COUNT=N"),
        (["--iterations", "6=10", "--iterations", "6=20"], "give one N, and one COUNT=N per player count"),
    ],
)
def test_train_refuses_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["train", "golem-poker", "--out", str(tmp_path / "t"), *args])
    assert result.exit_code != 0
    assert message in result.output
    assert not (tmp_path / "t").exists()
