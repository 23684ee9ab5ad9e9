"""Golem (Cranio) on the shared runner and CLI: run tables, estimates in manifests, replays, edited components."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from numba import njit

from simulate.cli import main
from simulate.datafiles import default_dir
from simulate.game import Lineup
from simulate.games.golem import bots as golem_bots
from simulate.games.golem import codes, columns, data, direct_values, engine, heuristics, loader, play, valuation
from simulate.games.golem.codes import STAT_NAMES, Decision
from simulate.games.golem.engine.state import new_pads
from simulate.games.golem.reference import GolemReference
from simulate.registry import make
from simulate.rng import randint

SEED = 3
GAMES = 120


def invoke(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def ok(*args: str):
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    return result


def one_line_error(result, *needles: str) -> None:
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    for needle in needles:
        assert needle in errors[0], result.output


def simulate(out: Path, players: int, bots: str, *extra: str) -> Path:
    ok("simulate", "golem", "-p", str(players), "-n", str(GAMES), "--bots", bots, "--seed", str(SEED),
       "--out", str(out), "--workers", "1", "--chunk-size", "50", "-q", *extra)  # fmt: skip
    return out


def table(run: Path, name: str) -> pd.DataFrame:
    return pd.concat(pd.read_parquet(p) for p in sorted((run / name).glob("*.parquet")))


@pytest.fixture(scope="module")
def four_player_run(tmp_path_factory) -> Path:
    return simulate(tmp_path_factory.mktemp("runs") / "g4", 4, "balanced,greedy,golems,books")


def test_listings_say_estimates_are_used() -> None:
    out = ok("games").output
    assert "golem " in out and "ESTIMATES" in out
    bots = ok("bots", "golem").output
    for name in ("random", "greedy", "golems", "artifacts", "books", "balanced"):
        assert name in bots
    assert "resource=" in bots


def test_four_player_tables(four_player_run: Path) -> None:
    manifest = json.loads((four_player_run / "manifest.json").read_text())
    assert manifest["data"]["estimates"] is True and "ESTIMATES" in manifest["title"]
    assert "books.csv" in manifest["data"]["estimate_note"]
    assert manifest["rules"]["setup"] == "standard"
    game = make("golem")
    games = table(four_player_run, "games")
    seats = table(four_player_run, "seats")
    comps = table(four_player_run, "components")
    assert len(games) == GAMES and len(seats) == 4 * GAMES
    for col in game.info.game_columns:
        assert col in games.columns, col
    for col in (*game.info.seat_columns, *game.info.score_parts, "score", "rank", "win"):
        assert col in seats.columns, col
    assert (games["end_reason"] == "rules").all() and (games["rounds"] == 4).all()
    parts = seats[list(game.info.score_parts)].sum(axis=1)
    assert (parts == seats["score"]).all()
    assert (seats.groupby("game")["win"].sum() == 1).all()
    assert sorted(seats.groupby("game")["start_position"].apply(sorted).iloc[0]) == [1, 2, 3, 4]
    acts = seats[[f"actions_{a}" for a in ("work", "golem", "artifacts", "study", "mirror", "rabbi", "forfeit")]]
    assert (acts.sum(axis=1) == 12).all(), "three actions per round"
    assert (seats["actions_rabbi"] == 4).all()
    assert set(comps["kind"].astype(str)) <= set(game.info.component_kinds)
    books = comps[comps["kind"] == "book"].groupby(["game", "seat"], observed=True).size()
    by_seat = seats.set_index(["game", "seat"])["books"]
    assert (books == by_seat.loc[books.index]).all()
    assert games["setup_red_tiles"].astype(str).str.split().map(len).eq(7).all()


def test_run_rows_match_the_reference_engine(four_player_run: Path) -> None:
    manifest = json.loads((four_player_run / "manifest.json").read_text())
    games = table(four_player_run, "games").set_index("game")
    seats = table(four_player_run, "seats")
    events = json.loads(ok("replay", str(four_player_run), "--game", "7", "--json").output)
    result = events[-1]
    assert result["event"] == "result" and events[0]["event"] == "setup"
    rows = seats[seats["game"] == 7].sort_values("seat")
    assert rows["score"].tolist() == result["scores"]
    assert rows["rank"].tolist() == result["ranks"]
    assert events[0]["characters"] == [games.loc[7, f"setup_character_r{k}"] for k in range(1, 5)]
    assert manifest["num_players"] == 4


def test_replay_text(four_player_run: Path) -> None:
    out = ok("replay", str(four_player_run), "--game", "3").output
    assert out.startswith("setup: Palace") and "game over (rules)" in out and "marble" in out


def test_replay_rounds_hold_each_seats_income_upgrade(four_player_run: Path) -> None:
    """Every seat decides one Income upgrade a round, the last seat's included: it is labelled with its own round,
    not the next one."""
    events = json.loads(ok("replay", str(four_player_run), "--game", "5", "--json").output)
    upgrades = [(e["round"], e["seat"]) for e in events if e.get("kind") == "income_upgrade"]
    assert sorted(upgrades) == [(r, s) for r in range(1, 5) for s in range(1, 5)]


def test_components_alias_runs_edited_tables(tmp_path: Path) -> None:
    folder = tmp_path / "golem"
    shutil.copytree(default_dir("golem"), folder)
    path = folder / "game.toml"
    path.write_text(path.read_text().replace("starting_vp = 10\n", "starting_vp = 30\n"))
    run = simulate(tmp_path / "edited", 2, "greedy", "--components", str(folder))
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["table"]["starting_vp"] == 30 and not manifest["data"]["default"]
    assert table(run, "seats")["score_vp"].mean() > 20


def test_component_errors_are_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "golem"
    shutil.copytree(default_dir("golem"), folder)
    path = folder / "books.csv"
    path.write_text(path.read_text().replace("B05,red,0,gain,2,clay", "B05,red,zero,gain,2,clay"))
    result = invoke("simulate", "golem", "-p", "2", "-n", "10", "--bots", "greedy", "--out", str(tmp_path / "x"),
                    "--components", str(folder), "-q")  # fmt: skip
    one_line_error(result, "books.csv", "line 6", "cost")


def test_rule_option_is_recorded(tmp_path: Path) -> None:
    run = simulate(tmp_path / "intro", 3, "balanced", "--rule", "setup=introductory")
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["rules"]["setup"] == "introductory"
    games = table(run, "games")
    assert (games["setup_character_r1"] == "39").all() and (games["setup_red_tiles"] == "1 2 4 5 7 8 9").all()
    one_line_error(invoke("simulate", "golem", "-p", "2", "-n", "5", "--bots", "greedy", "--rule", "setup=quick",
                          "--out", str(tmp_path / "y"), "-q"), "setup")  # fmt: skip


def test_runs_take_the_games_chunk_size_unless_given(tmp_path: Path) -> None:
    ok("simulate", "golem", "-p", "2", "-n", "4", "--bots", "greedy", "--out", str(tmp_path / "a"), "-q")
    # the game's 5,000 holds only for runs of 40,000 games and more; a short run is cut into 100-game chunks
    assert json.loads((tmp_path / "a" / "manifest.json").read_text())["design"]["chunk_size"] == 100
    ok("simulate", "golem", "-p", "2", "-n", "4", "--bots", "greedy", "--chunk-size", "3", "--out", str(tmp_path / "b"),
       "-q")  # fmt: skip
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["design"]["chunk_size"] == 3 and sorted(manifest["chunks"]) == ["0", "1"]


@pytest.mark.parametrize(
    "names",
    [("balanced", "greedy", "books"), ("search", "balanced", "artifacts"), ("apprentice", "search", "balanced")],
)
def test_kernel_games_replay_identically_on_the_reference(names: tuple[str, ...]) -> None:
    """Every action the bots take (the search bot's and the apprentice's too) is legal on the reference engine, and
    the games end alike."""
    d = loader.load()
    ids = np.array([golem_bots.BOTS[b][0] for b in names])
    over = {"search": {"iterations": 12, "leaf": 1.0 if names[0] == "apprentice" else 0.0}}
    prm = np.array([golem_bots.bot_params(b, over.get(b, {})) for b in names])
    for seed in range(2 if "search" in names else 5):
        moves, final = play.trace_game(d, 3, np.arange(3), ids, prm, seed, seed + 50)
        ref = GolemReference(d, 3, seed)
        for a in moves:
            ref.apply_action(int(a))
            for s in range(3):
                assert min(ref.res[s]) >= 0 and ref.vp[s] >= 0, "resources never negative"
        assert ref.is_terminal()
        res = columns.results(d, final)
        assert res["score"][0].tolist() == ref.scores()
        assert final["stats"][0].tolist() == [ref.stats[k] + [0] * (4 - 3) for k in STAT_NAMES]


def test_checked_and_unchecked_batches_are_equal() -> None:
    d = loader.load()
    names = ("random", "greedy", "golems", "artifacts", "books", "balanced")
    ids = np.array([golem_bots.BOTS[b][0] for b in names])
    prm = np.array([golem_bots.bot_params(b) for b in names])
    seat = np.array([[(g + k) % len(names) for k in range(4)] for g in range(30)])
    seeds = np.arange(30, dtype=np.uint64)
    checked = play.play_batch(d, 4, seat, ids, prm, seeds, seeds + 100, check_moves=True)
    unchecked = play.play_batch(d, 4, seat, ids, prm, seeds, seeds + 100)
    assert (checked["error"] == 0).all() and (checked["phase"] == unchecked["phase"]).all()
    assert checked.tobytes() == unchecked.tobytes()


def test_bot_parameters_are_validated(tmp_path) -> None:
    assert golem_bots.bot_params("balanced", {"red": 2.0})[golem_bots.PARAM_NAMES.index("red")] == 2.0
    with pytest.raises(ValueError, match="no parameter"):
        golem_bots.bot_params("greedy", {"speed": 1.0})
    result = invoke("simulate", "golem", "-p", "2", "-n", "5", "--bot", "greedy:speed=2", "--bot", "random",
                    "--out", str(tmp_path / "never"), "-q")  # fmt: skip
    one_line_error(result, "speed")


@njit
def _marble_values(st, tab, w, out):
    """For each marble the seat to move may take: (the bot's direct value, the value of the played position);
    returns how many were checked and how many of them claim a Menorah token."""
    r = st[0]
    tb = tab[0]
    s = engine.current_player(r)
    mask = np.zeros(64, np.int64)
    scratch = np.zeros(1, st.dtype)
    engine.legal_mask(r, tb, mask)
    checked = 0
    tokens = 0
    for a in range(25):
        out[a, 0] = 0.0
        out[a, 1] = 0.0
        if mask[a] and not heuristics.reactivating(r, tb, s, a % 5):
            out[a, 0] = direct_values.marble_value(r, tb, s, w, a)
            scratch[0] = r
            engine.apply_action(scratch[0], tb, a)
            out[a, 1] = valuation.value(scratch[0], tb, s, w)
            checked += 1
            for c in range(3):
                if scratch[0].tokens[c] != r.tokens[c]:
                    tokens += 1
    return checked, tokens


def test_marble_values_without_play_equal_the_played_positions() -> None:
    d = loader.load()
    names = ("balanced", "golems", "artifacts", "books")
    ids = np.array([golem_bots.BOTS[b][0] for b in names])
    prm = np.array([golem_bots.bot_params(b) for b in names])
    out = np.zeros((25, 2))
    menorah = d.params["menorah_section"]
    checked = np.zeros(2, np.int64)
    for n, seed in ((4, 1), (4, 2), (3, 3), (2, 4), (1, 5)):
        moves, _ = play.trace_game(d, n, np.arange(n), ids[:n], prm[:n], seed, seed + 9)
        st = np.zeros(1, play.new_state(1).dtype)
        engine.init_one(st, 0, d.kernel, n, seed, seed + 9)
        for a in moves:
            if engine.decision(st[0]) == codes.D_TURN:
                near = st.copy()  # every Student one step before the Menorah section, no token claimed
                near[0]["student"][engine.current_player(st[0])] = menorah - 1
                near[0]["tokens"] = -1
                for rec in (st, near):
                    for w in prm:
                        before = rec.tobytes()
                        checked += _marble_values(rec, d.kernel, w, out)
                        assert rec.tobytes() == before  # the record gets its changes back
                        assert out[:, 0].tolist() == out[:, 1].tolist()
            engine.apply_one(st, 0, d.kernel, int(a))
    assert checked[0] > 1000 and checked[1] > 0


@njit
def _direct_values(st, tab, w, out, kinds):
    """For each option of the pending decision that the bots value without play: (the direct value, the value of
    the played position) into ``out``; counts them by decision kind into ``kinds``."""
    r = st[0]
    tb = tab[0]
    s = engine.current_player(r)
    kind = engine.decision(r)
    mask = np.zeros(64, np.int64)
    scratch = np.zeros(1, st.dtype)
    engine.legal_mask(r, tb, mask)
    upgrades = direct_values.upgrade_options(r, kind)
    for a in range(64):
        out[a, 0] = 0.0
        out[a, 1] = 0.0
        if not mask[a] or (kind == codes.D_TURN and a < 25):
            continue
        status, v = direct_values.direct_value(r, tb, s, w, kind, a, upgrades)
        if status != direct_values.PLAY:
            out[a, 0] = v if status == direct_values.VALUED else valuation.value(r, tb, s, w)
            scratch[0] = r
            engine.apply_action(scratch[0], tb, a)
            out[a, 1] = valuation.value(scratch[0], tb, s, w)
            kinds[kind] += 1


def _check_direct_values(d: data.GolemData, games: tuple[tuple[int, int], ...]) -> np.ndarray:
    """Play ``games`` ((players, seed), ...) with the four strategy bots and compare, at every decision, each option
    valued without play with the played position under each bot's weights; returns the count by decision kind."""
    names = ("balanced", "golems", "artifacts", "books")
    ids = np.array([golem_bots.BOTS[b][0] for b in names])
    prm = np.array([golem_bots.bot_params(b) for b in names])
    out = np.zeros((64, 2))
    kinds = np.zeros(64, np.int64)
    for n, seed in games:
        moves, _ = play.trace_game(d, n, np.arange(n), ids[:n], prm[:n], seed, seed + 9)
        st = np.zeros(1, play.new_state(1).dtype)
        engine.init_one(st, 0, d.kernel, n, seed, seed + 9)
        for a in moves:
            for w in prm:
                before = st.tobytes()
                _direct_values(st, d.kernel, w, out, kinds)
                assert st.tobytes() == before  # the record gets its changes back
                assert out[:, 0].tolist() == out[:, 1].tolist(), (engine.decision(st[0]), out[:, 0], out[:, 1])
            engine.apply_one(st, 0, d.kernel, int(a))
    return kinds


def test_options_valued_without_play_equal_the_played_positions() -> None:
    kinds = _check_direct_values(loader.load(), ((4, 1), (4, 2), (3, 3), (2, 4), (1, 5), (4, 6), (4, 7)))
    for kind in (codes.D_MOVE_STEP, codes.D_INCOME_UPGRADE, codes.D_GOLEM_ACTION, codes.D_STUDY_ACTION,
                 codes.D_ARTIFACT_ACTION, codes.D_TURN, codes.D_BOOK):  # fmt: skip
        assert kinds[kind] > 5, (kind, kinds)


def test_rabbi_and_book_effects_valued_without_play_equal_the_played_positions() -> None:
    """Every effect of the vocabulary on every Action tile, and every Book effect on every Book: the Rabbi options
    and Book purchases valued without play still equal the played positions."""
    d = loader.load()
    turns = 0
    for e in range(len(data.EFFECTS)):
        kernel = d.kernel.copy()
        kernel[0]["at_effect"][:] = e
        kernel[0]["at_a"][:] = 1 + e % 3
        kernel[0]["at_b"][:] = 1 + e % 2
        book = data.E[data.BOOK_EFFECTS[e % len(data.BOOK_EFFECTS)]]
        kernel[0]["bk_effect"][:, e % 2] = book
        kernel[0]["bk_res"][:, e % 2] = e % 3  # a resource and a district
        turns += _check_direct_values(d._replace(kernel=kernel), ((4, e),))[codes.D_TURN]
    assert turns > 1000


@njit
def _choose_by_play(r, tb, bot, w, mask, scratch):
    """``bots.choose`` as it would be if every option were played on a copy and valued there."""
    count = engine.legal_mask(r, tb, mask)
    kind = engine.decision(r)
    if count == 1 or bot == golem_bots.RANDOM:
        k = 0 if count == 1 else randint(r.rng, 0, count)
        for a in range(64):
            if mask[a]:
                if k == 0:
                    return a
                k -= 1
    s = engine.current_player(r)
    first = 0
    if kind == codes.D_ARTIFACT_ACTION:
        first = 1
    elif kind == codes.D_UPGRADE or kind == codes.D_INCOME_UPGRADE:
        first = codes.UP_ART + 1
    cheapest = heuristics.cheapest_space(r, tb, s) if first else -1
    best = -1e18
    best_a = -1
    ties = 0
    for a in range(64):
        if not mask[a] or (first and first <= a < first + 40 and ((a - first) // 2) % 4 != cheapest):
            continue
        scratch[0] = r
        engine.apply_action(scratch[0], tb, a)
        v = valuation.value(scratch[0], tb, s, w)
        if v > best + 1e-9:
            best = v
            best_a = a
            ties = 1
        elif v > best - 1e-9:
            ties += 1
            if randint(r.rng, 0, ties) == 0:
                best_a = a
    return best_a


@njit
def _both_choices(st, tab, bot, w, pads):
    """(``bots.choose``'s action, the action of playing every option) from the same record ``st[0]``; the play
    streams they leave are ``st[1]`` and ``st[2]``."""
    st[1] = st[0]
    st[2] = st[0]
    mask = np.zeros(64, np.int64)
    scratch = np.zeros(1, st.dtype)
    a = heuristics.choose(st[1], tab[0], bot, w, pads[0])
    b = _choose_by_play(st[2], tab[0], bot, w, mask, scratch)
    return a, b


def test_bots_choose_as_if_they_played_every_option() -> None:
    d = loader.load()
    names = ("balanced", "golems", "artifacts", "books", "greedy")
    ids = np.array([golem_bots.BOTS[b][0] for b in names])
    prm = np.array([golem_bots.bot_params(b) for b in names])
    pads = new_pads(1)
    decisions = 0
    for n, seed in ((4, 11), (4, 12), (3, 13), (2, 14), (1, 15)):
        seats = np.arange(n) + seed % 2
        moves, _ = play.trace_game(d, n, seats, ids, prm, seed, seed + 5)
        st = play.new_state(3)
        engine.init_one(st, 0, d.kernel, n, seed, seed + 5)
        for a in moves:
            b = seats[engine.current_player(st[0])]
            w = tuple(float(x) for x in prm[b])
            chosen, played = _both_choices(st, d.kernel, ids[b], w, pads)
            assert chosen == played == a
            assert st[1]["rng"][0] == st[2]["rng"][0]
            st[0]["rng"] = st[1]["rng"]  # the play stream as the game went on
            decisions += 1
            engine.apply_one(st, 0, d.kernel, int(a))
    assert decisions > 500


def test_play_profile_counts_the_moves_played() -> None:
    """Gold bought, Character bonuses and Student sections are the traced moves counted on the reference engine:
    an Artifacts-action Gold purchase, a Character bonus paid for, each section a Student advances."""
    d = loader.load()
    names = ("balanced", "artifacts", "books", "random")
    ids = np.array([golem_bots.BOTS[b][0] for b in names])
    prm = np.array([golem_bots.bot_params(b) for b in names])
    games = 8
    seat = np.array([[(g + k) % 4 for k in range(4)] for g in range(games)])
    seeds = np.arange(games, dtype=np.uint64) + 40
    final = play.play_batch(d, 4, seat, ids, prm, seeds, seeds + 7)
    seats = make("golem").play_chunk(d, Lineup(4, seat, ids, prm, seeds, seeds + 7)).seats
    totals = np.zeros(3, np.int64)
    for g in range(games):
        moves, _ = play.trace_game(d, 4, seat[g], ids, prm, int(seeds[g]), int(seeds[g]) + 7)
        ref = GolemReference(d, 4, int(seeds[g]))
        counted = np.zeros((4, 3), np.int64)  # Gold bought, Character bonuses, Student sections
        for a in moves:
            kind, s, text = Decision(ref.decision()), ref.current_player(), ref.describe(int(a))
            before = [list(x) for x in ref.student]
            ref.apply_action(int(a))
            counted[s, 0] += kind == Decision.ARTIFACT_ACTION and text == "buy a Gold"
            counted[s, 1] += kind == Decision.CHARACTER and text == "pay for the Character's bonus"
            for o in range(4):
                counted[o, 2] += sum(max(0, x - y) for x, y in zip(ref.student[o], before[o], strict=True))
        for s in range(4):
            row = 4 * g + s
            got = [int(seats[c][row]) for c in ("gold_bought", "character_bonuses", "student_sections")]
            assert got == counted[s].tolist(), f"game {g} seat {s}"
        assert (seats["gold_bought"][4 * g : 4 * g + 4] <= seats["gold"][4 * g : 4 * g + 4]).all()
        totals += counted.sum(axis=0)
    assert (totals > 0).all()  # every counted mechanism occurs
    assert set(make("golem").info.profile_columns) <= set(seats)
    assert final["stats"].shape[1] == len(STAT_NAMES)
