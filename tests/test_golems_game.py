"""Golems on the shared runner and CLI: run tables, solo mapping, replays, user decks and their validation."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simulate.cli import main
from simulate.datafiles import DataError, default_dir
from simulate.games.golems import data as D
from simulate.registry import make

SEED = 5
GAMES = 400


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
    ok(
        "simulate",
        "golems",
        "-p",
        str(players),
        "-n",
        str(GAMES),
        "--bots",
        bots,
        "--seed",
        str(SEED),
        "--out",
        str(out),
        "--workers",
        "1",
        "--chunk-size",
        "150",
        "-q",
        *extra,
    )
    return out


@pytest.fixture(scope="module")
def two_player_run(tmp_path_factory) -> Path:
    return simulate(tmp_path_factory.mktemp("runs") / "g2", 2, "greedy,collector")


@pytest.fixture(scope="module")
def solo_run(tmp_path_factory) -> Path:
    return simulate(tmp_path_factory.mktemp("runs") / "g1", 1, "collector")


def edited_deck(tmp_path: Path) -> Path:
    deck = tmp_path / "deck"
    shutil.copytree(default_dir("golems"), deck)
    return deck


def replace_line(path: Path, start: str, new: str) -> None:
    lines = path.read_text().splitlines()
    lines = [new if line.startswith(start) else line for line in lines]
    path.write_text("\n".join(lines) + "\n")


# --------------------------------------------------------------------------------- listings


def test_listings_label_the_stand_in_deck() -> None:
    assert "stand-in" in ok("games").output
    bots = ok("bots", "golems").output
    for name in ("random", "greedy", "collector", "lookahead"):
        assert name in bots
    assert "STAND-IN" in make("golems").info.description


# --------------------------------------------------------------------------------- run tables


def test_two_player_tables(two_player_run: Path) -> None:
    m = json.loads((two_player_run / "manifest.json").read_text())
    assert m["status"] == "complete" and m["game"] == "golems"
    assert "stand-in" in m["title"]
    assert m["data"]["default"] and m["data"]["estimates"] and "stand-in" in m["data"]["label"]
    assert set(m["data"]["files"]) == {
        "cards.csv",
        "game.toml",
        "apprentice.csv",
        "apprentice.toml",
        "apprentice_value.csv",
        "apprentice_value.toml",
        "styles.toml",
    }
    assert (two_player_run / "data" / "cards.csv").read_bytes() == (default_dir("golems") / "cards.csv").read_bytes()
    assert m["rules"]["tuck_limit"] == "requirement"

    games = pd.read_parquet(two_player_run / "games")
    seats = pd.read_parquet(two_player_run / "seats")
    comp = pd.read_parquet(two_player_run / "components")
    assert len(games) == GAMES and len(seats) == 2 * GAMES
    assert set(games["end_reason"]) <= {"trigger", "stalled"}
    assert (games["turns"] % 2 == 0).all(), "equal turns"
    parts = [c for c in seats.columns if c.startswith("score_")]
    assert parts == ["score_golems", "score_tucks", "score_dust", "score_gems", "score_runes"]
    assert (seats[parts].sum(axis=1) == seats["score"]).all()
    assert np.allclose(seats.groupby("game")["win"].sum(), 1.0)
    shared = games.loc[games["winner_seat"] == -1, "game"]
    assert (seats[seats["game"].isin(shared)]["win"] == 0.5).all()
    assert (seats["score_golems"] == 2 * seats["golems"]).all()
    assert (seats["cards_golem"] == seats["use_golem_resource"] + seats["use_summon"]).all()
    assert (seats["use_dust"] == seats["dust_cards"]).all()
    assert (seats["score_dust"] == seats["dust"].map({0: 0, 1: 1, 2: 3, 3: 6, 4: 10}).fillna(0)).all(), "dust held"
    # components: one row per card taken, its id and kind from the deck
    taken = seats[["cards_golem", "cards_rune", "cards_gem"]].sum(axis=1).sum()
    assert len(comp) == taken
    ids = pd.read_csv(default_dir("golems") / "cards.csv").set_index("id")["type"]
    assert (comp["kind"].astype(str).to_numpy() == ids.loc[comp["component"].astype(str)].to_numpy()).all()
    per_seat = comp.groupby(["game", "seat"]).size()
    cards = seats.set_index(["game", "seat"])[["cards_golem", "cards_rune", "cards_gem"]].sum(axis=1)
    assert (per_seat == cards.loc[per_seat.index]).all()
    # setup descriptors: 12 display cards, 2 removed, one starting Rune per seat, '-' where unused
    row = games.iloc[0]
    display = [row[f"setup_display_{k:02d}"] for k in range(1, 17)]
    assert all(v != "-" for v in display[:12]) and display[12:] == ["-"] * 4
    assert row["setup_removed_1"] != "-" and row["setup_removed_3"] == "-"
    assert row["setup_start_s1_1"] in ("S1", "S2", "S3", "S4") and row["setup_start_s1_2"] == "-"


def test_solo_maps_to_one_seat_against_the_automaton(solo_run: Path) -> None:
    games = pd.read_parquet(solo_run / "games")
    seats = pd.read_parquet(solo_run / "seats")
    assert len(seats) == GAMES and (seats["seat"] == 1).all()
    merged = seats.merge(games[["game", "automa_score", "winner_seat"]], on="game")
    beat = merged["score"] > merged["automa_score"]
    lost = merged["score"] < merged["automa_score"]
    assert (merged.loc[beat, "win"] == 1).all() and (merged.loc[beat, "rank"] == 1).all()
    assert (merged.loc[lost, "win"] == 0).all() and (merged.loc[lost, "rank"] == 2).all()
    assert set(merged.loc[lost, "winner_seat"]) <= {0}
    assert (games["automa_cards"] > 0).all() and (games["grids"] >= 2).all()
    assert games["setup_display_10"].eq("-").all() and games["setup_display_09"].ne("-").all()


def test_replay_prints_the_game(two_player_run: Path) -> None:
    out = ok("replay", str(two_player_run), "--game", "3").output
    assert "setup (DEFAULT stand-in deck" in out and "removed unseen" in out
    assert "turn 1 (round 1)" in out and "game over" in out
    events = json.loads(ok("replay", str(two_player_run), "--game", "3", "--json").output)
    seats = pd.read_parquet(two_player_run / "seats")
    final = seats[seats["game"] == 3].sort_values("seat")
    assert events[-1]["scores"] == final["score"].tolist()
    assert events[-1]["wins"] == pytest.approx(final["win"].tolist())


def test_replay_of_a_solo_game(solo_run: Path) -> None:
    out = ok("replay", str(solo_run), "--game", "0").output
    assert "automaton" in out


# --------------------------------------------------------------------------------- user decks


def test_a_one_card_change_runs_in_one_command(tmp_path: Path, two_player_run: Path) -> None:
    deck = edited_deck(tmp_path)
    replace_line(deck / "cards.csv", "R08,", "R08,main,rune,B,,1,,")  # R08 worth 1 instead of 3
    out = simulate(tmp_path / "edited", 2, "greedy,collector", "--cards", str(deck))
    m = json.loads((out / "manifest.json").read_text())
    assert not m["data"]["default"] and m["data"]["folder"] == str(deck)
    assert (
        m["data"]["files"]["cards.csv"]
        != json.loads((two_player_run / "manifest.json").read_text())["data"]["files"]["cards.csv"]
    )
    assert "R08,main,rune,B,,1,," in (out / "data" / "cards.csv").read_text(), "the run keeps its own copy"
    assert str(deck) in m["title"]
    ok("replay", str(out), "--game", "0")  # replays read the run's copy


def test_rule_override(tmp_path: Path) -> None:
    out = simulate(tmp_path / "r", 2, "random", "--rule", "tuck_limit=any", "--rule", "wild_tuck=false")
    m = json.loads((out / "manifest.json").read_text())
    assert m["rules"]["tuck_limit"] == "any" and m["rules"]["wild_tuck"] is False
    one_line_error(
        invoke(
            "simulate",
            "golems",
            "-p",
            "2",
            "--bots",
            "random",
            "--out",
            str(tmp_path / "x"),
            "--rule",
            "tuck_limit=all",
        ),
        "tuck_limit",
        "requirement",
    )


@pytest.mark.parametrize(
    ("start", "line", "needles"),
    [
        ("G01,", "G01,main,golem,A,BX,,,", ["cards.csv", "line 2", "'requirement'", "'X'"]),
        ("G01,", "G01,main,golem,A,,,,", ["cards.csv", "line 2", "'requirement'"]),
        ("R03,", "R03,main,rune,E,,1,,", ["cards.csv", "line 28", "'resource'", "'E'"]),
        ("R03,", "R03,main,rune,A,,x,,", ["cards.csv", "line 28", "'vp'", "not an integer"]),
        ("J01,", "J01,main,gem,,,0,3,-1", ["cards.csv", "line 38", "'dust'", "outside"]),
        ("J01,", "J01,main,jewel,,,0,3,1", ["cards.csv", "line 38", "'type'", "jewel"]),
        ("J01,", "G01,main,gem,,,0,3,1", ["cards.csv", "line 38", "'id'", "duplicate", "line 2"]),
        ("S1,", "S1,start,golem,A,BB,,,", ["cards.csv", "line 50", "'deck'", "only Runes"]),
        ("G02,", "G02,main,golem,B,CC,3,,", ["cards.csv", "line 3", "'vp'", "must be empty"]),
    ],
)
def test_deck_errors_name_file_line_and_field(tmp_path: Path, start: str, line: str, needles: list[str]) -> None:
    deck = edited_deck(tmp_path)
    replace_line(deck / "cards.csv", start, line)
    with pytest.raises(DataError) as err:
        D.load(deck)
    for needle in needles:
        assert needle in str(err.value), str(err.value)
    result = invoke(
        "simulate",
        "golems",
        "-p",
        "2",
        "-n",
        "10",
        "--bots",
        "random",
        "--cards",
        str(deck),
        "--out",
        str(tmp_path / "run"),
    )
    one_line_error(result, *needles)


@pytest.mark.parametrize(
    ("start", "line", "needles"),
    [
        ("rows =", "rows = 9", ["game.toml", "table.rows", "1..6"]),
        ("resources =", 'resources = ["A", "A"]', ["game.toml", "table.resources"]),
        ("dust_vp =", 'dust_vp = [0, "one"]', ["game.toml", "table.dust_vp"]),
        ("stand_in =", 'stand_in = "yes"', ["game.toml", "deck.stand_in"]),
        ("picks =", "picks = 10", ["game.toml", "solo.picks"]),
        ("tuck_limit =", 'tuck_limit = "all"', ["rules.tuck_limit", "requirement"]),
        ("removed_at_setup =", "removed_at_setup = 4", []),
    ],
)
def test_table_errors_name_the_parameter(tmp_path: Path, start: str, line: str, needles: list[str]) -> None:
    deck = edited_deck(tmp_path)
    replace_line(deck / "game.toml", start, line)
    if not needles:  # a legal change: the deck still loads
        assert D.load(deck).tables.params[D.P_REMOVED] == 4
        return
    with pytest.raises(DataError) as err:
        D.load(deck)
    for needle in needles:
        assert needle in str(err.value), str(err.value)


def test_deck_too_small_and_missing_columns(tmp_path: Path) -> None:
    deck = edited_deck(tmp_path)
    lines = (deck / "cards.csv").read_text().splitlines()
    (deck / "cards.csv").write_text("\n".join(lines[:12] + lines[-4:]) + "\n")
    with pytest.raises(DataError, match="cards.csv: 11 main-deck cards; the setup needs at least 14"):
        D.load(deck)
    (deck / "cards.csv").write_text("id,deck,type\nG01,main,golem\n")
    with pytest.raises(DataError, match="line 1: missing column"):
        D.load(deck)


def test_a_relabelled_real_deck_is_not_an_estimate(tmp_path: Path) -> None:
    deck = edited_deck(tmp_path)
    replace_line(deck / "game.toml", "label =", 'label = "printed deck, transcribed"')
    replace_line(deck / "game.toml", "stand_in =", "stand_in = false")
    d = D.load(deck)
    described = make("golems").describe_data(d)
    assert described["data"]["estimates"] is False and "printed deck, transcribed" in described["title"]


def test_chunk_benchmark_measures_play_and_parquet() -> None:
    """``chunk_rate`` (golem bench's end-to-end figure) times whole chunks: more CPU than the kernel alone."""
    from simulate.bench import _kernel_rate, chunk_rate
    from simulate.lineup import parse_lineup

    game = make("golems")
    data = game.load_data(None, {})
    lineup = parse_lineup(game, ["greedy"], 2)
    whole = chunk_rate(game, data, lineup, 2, 2_000, 3)
    kernel = _kernel_rate(game, data, lineup, 2, 2_000, 3)
    assert whole["games"] == 2_000 and 50 < whole["parquet_bytes_per_game"] < 1_000
    assert whole["cpu_us_per_game"] == pytest.approx(1e6 / whole["games_per_cpu_s"])
    assert whole["games_per_cpu_s"] < kernel["games_per_cpu_s"]


# --------------------------------------------------------------------------------- bots


def test_offer_keeps_the_candidates_tied_for_the_best_in_offer_order() -> None:
    from simulate.games.golems.bots import W_TIES, WORK_LEN, WORK_ROWS, _offer

    work = np.full((WORK_ROWS, WORK_LEN), -9, np.int64)
    nt, best = 0, -1.0e18
    kept = []
    for v, code in ((1.0, 10), (0.5, 11), (1.0 + 1e-12, 12), (2.0, 13), (1.5, 14), (2.0 - 1e-12, 15)):
        nt, best = _offer(work, nt, best, v, code)
        kept.append((nt, best, list(work[W_TIES, :nt])))
    assert kept[2] == (2, 1.0, [10, 12]), "equal within 1e-9: a tie, the first value stays the best"
    assert kept[3] == (1, 2.0, [13]), "a better value drops the earlier ties"
    assert kept[5] == (2, 2.0, [13, 15])
