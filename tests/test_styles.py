"""The apprentice's strategy styles: the styles file, the bot spec ``apprentice:style=NAME``, its play, and the
``golem styles`` command's refusals."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analysis.stats.metagame import META_VERDICTS
from simulate.apprentice import PLAIN_STYLE, STYLES_FILE, read_styles, read_weights, style_names, style_weights
from simulate.cli import main
from simulate.datafiles import DataError, default_dir
from simulate.game import Lineup
from simulate.lineup import LineupError, lineup_arrays, parse_bot, parse_lineup
from simulate.orchestration.styles import APPRENTICE, StylesError, style_bots, style_tables
from simulate.registry import make
from simulate.rng import game_seeds

FEATURES = ("a", "b", "c")
MASTER_SEED = 4545
STYLED_GAMES = ("century", "golem", "golems")
"""Games whose apprentice ships styles."""
PLAYED_GAMES = {"century": 24, "golem": 6, "golems": 24}
"""Games a style plays in the play test (a Golem apprentice game takes a tenth of a second and more)."""


def _folder(tmp_path: Path, text: str) -> Path:
    (tmp_path / STYLES_FILE).write_text(text, encoding="utf-8")
    return tmp_path


def test_a_style_scales_then_offsets_the_weights_of_every_shipped_count(tmp_path: Path) -> None:
    folder = _folder(tmp_path, '[s]\ndescription = "d"\noffset = { a = 0.5, c = -1 }\nscale = { a = 2, b = 0 }\n')
    (style,) = read_styles(folder, FEATURES)
    plain = np.zeros((4, 4))
    plain[2:] = [[0.1, 1.0, 2.0, 3.0], [0.2, 4.0, 5.0, 6.0]]
    w = style_weights(plain, (style,), FEATURES, (2, 3))
    np.testing.assert_array_equal(w[0], plain)
    np.testing.assert_allclose(w[1, 2:], [[0.1, 2.5, 0.0, 2.0], [0.2, 8.5, 0.0, 5.0]])
    np.testing.assert_array_equal(w[1, :2], 0.0)  # counts without weights stay a uniform choice
    assert style_names(folder) == (PLAIN_STYLE, "s")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[s]\ndescription = "d"\noffset = { z = 1 }\n', "offset.z: not a feature"),
        ('[s]\ndescription = "d"\nscale = { a = nan }\n', "not a finite number"),
        ('[s]\ndescription = "d"\noffset = { a = "x" }\n', "not a finite number"),
        ("[s]\noffset = { a = 1 }\n", "description"),
        ('[s]\ndescription = "d"\nbias = 1\n', "unknown key bias"),
        ('[plain]\ndescription = "d"\n', "not 'plain'"),
        ("s = 1\n", "a style is a table"),
    ],
)
def test_a_bad_styles_file_is_refused_naming_the_style(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(DataError, match=message):
        read_styles(_folder(tmp_path, text), FEATURES)


def test_a_folder_must_keep_the_styles_the_bots_know(tmp_path: Path) -> None:
    folder = _folder(tmp_path, '[t]\ndescription = "d"\n[s]\ndescription = "d"\n')
    with pytest.raises(DataError, match="the game's bots know s, t"):
        read_styles(folder, FEATURES, ("s", "t"))


@pytest.mark.parametrize("name", STYLED_GAMES)
def test_shipped_styles_change_only_the_features_they_name(name: str) -> None:
    game = make(name)
    spec = game.info.apprentice
    styles = read_styles(default_dir(name), spec.features)
    assert len(styles) >= 2 and all(s.description for s in styles)
    plain = read_weights(default_dir(name), spec.features, spec.player_counts, game.info.max_players)
    w = style_weights(plain, styles, spec.features, spec.player_counts)
    for k, style in enumerate(styles, start=1):
        named = {spec.features.index(f) + 1 for f in (*style.offset, *style.scale)}
        changed = set(np.flatnonzero((w[k] != plain).any(axis=0)))
        assert changed and changed <= named, style.name
    assert game.info.bots[APPRENTICE].choices["style"] == (PLAIN_STYLE, *(s.name for s in styles))


def test_a_style_is_a_bot_spec_by_name() -> None:
    game = make("century")
    entry = parse_bot(game, "apprentice:style=engine")
    assert entry.label == "apprentice:style=engine"
    assert entry.params["style"] == game.info.bots["apprentice"].choices["style"].index("engine")
    assert parse_bot(game, "apprentice").params["style"] == 0
    with pytest.raises(LineupError, match="unknown style of apprentice 'engin' .*did you mean engine"):
        parse_bot(game, "apprentice:style=engin")
    with pytest.raises(LineupError, match="choose from: plain, "):
        parse_bot(game, "apprentice:style=1")
    assert set(style_bots(game)) == {
        "apprentice",
        *(f"apprentice:style={s}" for s in game.info.bots["apprentice"].choices["style"][1:]),
    }
    with pytest.raises(StylesError, match="no apprentice with strategy styles"):
        style_bots(make("golem-poker"))


def _games(game, data, bots: list[str]) -> np.ndarray:
    num_games = PLAYED_GAMES[game.info.name]
    lineup = parse_lineup(game, bots, 2)
    setup, play = game_seeds(MASTER_SEED, np.arange(num_games), np.arange(num_games))
    tables = game.play_chunk(data, Lineup.in_order(2, *lineup_arrays(game, lineup), setup, play))
    return np.stack([np.asarray(tables.seats[c]) for c in ("score", *game.info.profile_columns)])


@pytest.mark.parametrize("name", STYLED_GAMES)
def test_a_style_plays_its_own_weights(name: str, tmp_path: Path) -> None:
    """A style without offsets plays the plain apprentice's games; the shipped styles play other games."""
    game = make(name)
    folder = tmp_path / name
    shutil.copytree(default_dir(name), folder)
    styles = read_styles(folder, game.info.apprentice.features)
    (folder / STYLES_FILE).write_text("".join(f'[{s.name}]\ndescription = "none"\n' for s in styles))
    shipped, neutral = game.load_data(None, {}), game.load_data(folder, {})
    style = f"apprentice:style={styles[0].name}"
    plain = _games(game, shipped, ["apprentice"])
    np.testing.assert_array_equal(_games(game, neutral, [style]), plain)
    for s in styles:
        assert not np.array_equal(_games(game, shipped, [f"apprentice:style={s.name}"]), plain), s.name


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["styles", "golem-poker", "--out", "{tmp}/o"], "no apprentice with strategy styles"),
        (["styles", "golems", "-p", "3", "--out", "{tmp}/o"], "meta-game of golems is played at 2 players"),
        (["styles", "century", "-p", "1", "--out", "{tmp}/o"], "played at 2 to 5 players"),
        (["styles", "century", "-p", "4", "--games", "3", "--out", "{tmp}/o"], "at least 4 games a table"),
        (["styles", "nogame", "--out", "{tmp}/o"], "unknown game"),
        (["styles", "century", "--out", "{tmp}/file.txt"], "exists and is not a folder"),
    ],
)
def test_styles_command_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    (tmp_path / "file.txt").write_text("x")
    result = CliRunner().invoke(main, [a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code != 0, result.output
    assert message in result.output, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_styles_command_plays_every_pair_and_writes_the_meta_game(tmp_path: Path) -> None:
    out = tmp_path / "styles"
    args = ["styles", "century", "-p", "2", "--games", "6", "--seed", "3", "-w", "1", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    bots = list(style_bots(make("century")))
    assert any(verdict in result.output for verdict in META_VERDICTS)
    matrix = pd.read_csv(out / "matrix.csv")
    assert len(matrix) == len(bots) * (len(bots) - 1) and (matrix["num_games"] == 6).all()
    weights = pd.read_csv(out / "weights.csv")
    assert weights["strategy"].tolist() == bots and weights["weight"].sum() == pytest.approx(1)
    assert set(pd.read_csv(out / "profile.csv")["bot"]) == set(bots)
    assert (out / "styles.md").read_text().startswith("# century: is there a dominant strategy?")
    again = CliRunner().invoke(main, args)
    assert again.exit_code != 0 and "--overwrite" in again.output


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("num_bots", [2, 3, 4, 5])
def test_style_tables_give_every_bot_the_same_seats(num_bots: int, num_players: int) -> None:
    bots = tuple("abcde"[:num_bots])
    tables = style_tables(bots, num_players)
    assert len(set(tables)) == len(tables) and all(len(t) == num_players for t in tables)
    seats = pd.Series([b for t in tables for b in t]).value_counts()
    assert set(seats.index) == set(bots) and seats.nunique() == 1  # no bot sits in more seats than another
    assert all(len(set(t)) == min(num_bots, num_players) for t in tables)  # as many different bots as fit
    met = {frozenset(p) for t in tables for p in itertools.combinations(set(t), 2)}
    assert len(met) == num_bots * (num_bots - 1) // 2  # every pair meets
    if num_players == 2:
        assert tables == list(itertools.combinations(bots, 2))


def test_styles_command_plays_tables_of_more_players(tmp_path: Path) -> None:
    out = tmp_path / "styles"
    args = ["styles", "century", "-p", "4", "--games", "4", "--seed", "3", "-w", "1", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    bots = tuple(style_bots(make("century")))
    tables = style_tables(bots, 4)
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == sorted(
        "-vs-".join(b.replace(":", "-").replace("=", "-") for b in t) for t in tables
    )
    matrix = pd.read_csv(out / "matrix.csv")
    assert (matrix["num_games"] == 4 * len(tables)).all()  # with 3 styles at 4 seats, every pair meets at every table
    assert np.allclose(
        matrix.set_index(["strategy", "opponent"])["win_rate"]
        .unstack()
        .add(matrix.set_index(["opponent", "strategy"])["win_rate"].unstack(), fill_value=0)
        .to_numpy()[~np.eye(len(bots), dtype=bool)],
        1.0,
    )
    text = (out / "styles.md").read_text()
    assert f"4 games a table, {len(tables)} tables mixing the styles ({4 * len(tables)} games" in text
    assert "finishes ahead of the column" in text


def test_exploit_searches_offsets_and_confirms_the_best_on_fresh_games(tmp_path: Path) -> None:
    out = tmp_path / "exploit"
    args = ["exploit", "century", "-p", "2", "--feature", "own_engine_power", "--games", "4", "--budget", "3"]
    args += ["--confirm-games", "6", "-w", "1", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "exploitability of the apprentice" in result.output
    evaluations = pd.read_csv(out / "evaluations.csv")
    assert 1 <= len(evaluations) <= 3 and evaluations.loc[0, "own_engine_power"] == 0  # the apprentice itself first
    (best,) = read_styles(out, make("century").info.apprentice.features, file_name="best_response.toml")
    assert set(best.offset) <= {"own_engine_power"} and not best.scale
    profile = pd.read_csv(out / "profile.csv")
    assert profile.groupby("bot")["seat_games"].first().sum() == 12  # 6 confirmation games, 2 seats
    text = (out / "exploit.md").read_text()
    assert text.startswith("# century, 2 players: exploitability")
    # a game the best response won, to watch: the first confirmation game it won, replayed on a page beside
    seats = pd.read_parquet(out / "confirm" / "seats")
    won = seats[(seats["bot"].astype(str) != "apprentice") & (seats["win"] == 1)]["game"]
    if len(won):
        assert f"Watch it win: best-response-win.html (confirmation game {won.min()})." in text
        page = (out / "best-response-win.html").read_text()
        assert f'"game":{won.min()},' in page and "a game the best response won" in page
    else:
        assert "no game to watch" in text and not (out / "best-response-win.html").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["exploit", "century", "--feature", "nonsense", "--out", "{tmp}/o"], "not a feature of the century"),
        (["exploit", "golem-poker", "--out", "{tmp}/o"], "no apprentice with strategy styles"),
        (["exploit", "century", "-p", "9", "--out", "{tmp}/o"], "takes 2-5 players"),
        (["exploit", "century", "--bound", "0", "--out", "{tmp}/o"], "--bound must be above 0"),
    ],
)
def test_exploit_refuses_bad_input_in_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, [a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code != 0 and message in result.output, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_a_refit_check_sets_the_refitted_apprentice_beside_the_shipped_one(tmp_path: Path) -> None:
    """Planted: the 'refitted' apprentice is the shipped one, so both sides of every measure play the same games."""
    refit = tmp_path / "refit"
    refit.mkdir()
    shutil.copy(default_dir("century") / "apprentice.csv", refit / "apprentice.csv")
    out = tmp_path / "check"
    args = ["exploit", "century", "-p", "2", "--feature", "own_engine_power", "--games", "4", "--budget", "2"]
    args += ["--confirm-games", "6", "--search-games", "2", "-w", "1", "--refit", str(refit), "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1 and "no apprentice refitted with an opponent" in result.output, result.output
    assert not out.exists()
    provenance = '[fit.opponent]\nstyle = "best_response"\nplayers = 2\noffset = { own_engine_power = 0.05 }\n'
    (refit / "apprentice.toml").write_text(provenance)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    table = pd.read_csv(out / "refit.csv").set_index(["measure", "side"])
    for measure in ("best_response", "search", "rival"):
        assert table.loc[(measure, "shipped"), "share"] == table.loc[(measure, "refitted"), "share"], measure
    assert table.loc[("search", "shipped"), "games"] == 2 and table.loc[("head_to_head", "refitted"), "games"] == 6
    assert (out / "fresh" / "best_response.toml").is_file()
    text = (out / "refit.md").read_text()
    assert text.startswith("# century, 2 players: the apprentice refitted against a best response")
    assert "Head to head: the refitted apprentice wins" in text
