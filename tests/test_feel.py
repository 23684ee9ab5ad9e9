"""Game-feel measures on synthetic trajectories with known answers (analysis.stats.feel)."""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from analysis.plots import plot_comeback, plot_ladder_ratings
from analysis.report.feel import _feel_answer
from analysis.stats.feel import comeback, end_triggers, feel_summary, game_length, leader_wins, notable_games
from analysis.stats.ladder import skill_and_luck
from simulate.datafiles import DataError, read_playing_time

matplotlib.use("Agg")
SEED = 29
GAMES = 2000


def _tables(score: np.ndarray, win: np.ndarray, bot: str = "bot") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Trajectories and seats tables of games ``score`` (G, R, n) won as ``win`` (G, n)."""
    g, _, n = score.shape
    game = np.repeat(np.arange(g), n)
    seat = np.tile(np.arange(1, n + 1), g)
    lists = [score[i, :, s] for i, s in zip(game, seat - 1, strict=True)]
    traj = pd.DataFrame({"game": game, "seat": seat, "score": lists})
    seats = pd.DataFrame({"game": game, "seat": seat, "num_players": n, "bot": bot, "win": win.ravel()})
    return traj, seats


def _leader_always_wins(rng: np.random.Generator, rounds: int = 10, n: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """The winner gains 2 a round, the others 0 or 1: it leads alone from round 1 on."""
    winner = rng.integers(n, size=GAMES)
    gains = rng.integers(0, 2, size=(GAMES, rounds, n))
    gains[np.arange(GAMES), :, winner] = 2
    win = np.zeros((GAMES, n))
    win[np.arange(GAMES), winner] = 1.0
    return np.cumsum(gains, axis=1), win


def _coin_flip_at_the_end(rng: np.random.Generator, rounds: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """Seat 1 leads by one until the last round, where a coin flip gives one seat 3 points: the winner."""
    score = np.zeros((GAMES, rounds, 2))
    score[:, :, 0] = 1
    flip = rng.integers(2, size=GAMES)
    score[np.arange(GAMES), -1, flip] += 3
    win = np.zeros((GAMES, 2))
    win[np.arange(GAMES), flip] = 1.0
    return score, win


def test_a_leader_who_always_wins_never_loses_the_lead() -> None:
    traj, seats = _tables(*_leader_always_wins(np.random.default_rng(SEED)))
    row = feel_summary(traj, seats).iloc[0]
    assert row["num_games"] == GAMES and row["rounds"] == 10
    assert row["first_leader"] == 1 and row["half_leader"] == 1
    assert row["lead_changes"] == 0 and row["no_lead_change"] == 1
    assert row["decided"] == pytest.approx(0.1)  # decided in round 1 of 10
    curve = leader_wins(traj, seats)
    assert (curve["leader_win"] == 1).all() and (curve["tied_lead"] == 0).all()
    cells = comeback(traj, seats, rounds=[1, 5])
    assert (cells.loc[cells["deficit"] > 0, "p_win"] == 0).all()
    assert (cells.loc[cells["deficit"] == 0, "p_win"] == 1).all()


def test_a_coin_flip_at_the_last_round_gives_the_leader_half_the_games() -> None:
    traj, seats = _tables(*_coin_flip_at_the_end(np.random.default_rng(SEED)))
    row = feel_summary(traj, seats).iloc[0]
    assert row["first_leader_low"] <= 0.5 <= row["first_leader_high"]
    assert row["first_leader_high"] - row["first_leader_low"] < 0.06
    flips = row["lead_changes"]  # seat 2 takes the lead in the last round of half the games
    assert row["lead_changes_low"] <= 0.5 <= row["lead_changes_high"] and flips == 1 - row["no_lead_change"]
    curve = leader_wins(traj, seats).set_index("round")
    assert curve.loc[6, "leader_win"] == 1
    cells = comeback(traj, seats, rounds=[3]).set_index("deficit")
    assert cells.loc[1, "low"] <= 0.5 <= cells.loc[1, "high"]


def test_a_shared_lead_credits_each_leader_its_share() -> None:
    """Two seats level all game sharing the win: the leader wins half, the lead never changes, no game has a sole
    winner to be decided."""
    score = np.tile(np.arange(1, 5)[None, :, None], (50, 1, 2)).astype(float)
    traj, seats = _tables(score, np.full((50, 2), 0.5))
    row = feel_summary(traj, seats).iloc[0]
    assert row["first_leader"] == 0.5 and row["lead_changes"] == 0 and np.isnan(row["decided"])
    assert (leader_wins(traj, seats)["tied_lead"] == 1).all()


def test_games_are_grouped_by_player_count_and_lineup() -> None:
    rng = np.random.default_rng(SEED)
    a = _tables(*_leader_always_wins(rng), bot="greedy")
    b = _tables(*_coin_flip_at_the_end(rng), bot="random")
    traj = pd.concat([a[0], b[0].assign(game=b[0]["game"] + GAMES)], ignore_index=True)
    seats = pd.concat([a[1], b[1].assign(game=b[1]["game"] + GAMES)], ignore_index=True)
    out = feel_summary(traj, seats).set_index("bots")
    assert out.loc["greedy", "num_players"] == 3 and out.loc["random", "num_players"] == 2
    with pytest.raises(ValueError, match="missing required column"):
        feel_summary(traj.drop(columns="score"), seats)


@pytest.mark.parametrize("p_true", [0.02, 0.05])
def test_comeback_intervals_cover_a_rare_comeback_even_when_the_sample_shows_none(p_true: float) -> None:
    """Seat 2 trails by 1 after round 3 of every game and wins with a planted chance of 2% or 5%; over 300 studies of
    60 games (each its own lineup label), the cell's interval covers the truth in about 95% of them. A percentile
    bootstrap gave a sample without a comeback the interval [0, 0], covering in 70% (2%) or 95% of 60 games."""
    rng = np.random.default_rng(SEED)
    studies, g, rounds = 300, 60, 5
    score = np.zeros((studies * g, rounds, 2))
    score[:, :, 0] = 1.0
    comes_back = rng.random(studies * g) < p_true
    score[comes_back, -1, 1] = 3.0
    win = np.column_stack([~comes_back, comes_back]).astype(float)
    traj, seats = _tables(score, win)
    seats["bot"] = np.repeat([f"study{k:03d}" for k in range(studies)], 2 * g)
    cells = comeback(traj, seats, rounds=[3], min_obs=g)
    behind = cells[cells["deficit"] == 1]
    assert len(behind) == studies and (behind["num_obs"] == g).all()
    covered = (behind["low"] <= p_true) & (p_true <= behind["high"])
    assert covered.mean() > 0.9
    assert (behind["high"] > 0.04).all(), "no comeback in 60 seat-rounds still allows a few percent"


def test_end_triggers_share_with_intervals() -> None:
    games = pd.DataFrame({"num_players": 3, "end_reason": ["trigger"] * 95 + ["turn_cap"] * 5})
    out = end_triggers(games).set_index("end_reason")
    assert out.loc["turn_cap", "share"] == 0.05 and out.loc["turn_cap", "low"] < 0.05 < out.loc["turn_cap", "high"]


def test_plot_comeback_draws_one_line_per_round() -> None:
    traj, seats = _tables(*_coin_flip_at_the_end(np.random.default_rng(SEED)))
    ax = plot_comeback(comeback(traj, seats, rounds=[2, 4]))
    assert len(ax.get_lines()) == 3 and ax.get_xlabel()  # two rounds and the fair share
    plt.close("all")


def test_skill_and_luck_from_a_known_upset_rate() -> None:
    """The strong bot wins 90% of 2-player games: upset 0.1, luck 0.2, spread logit(0.9) inside the intervals."""
    rng = np.random.default_rng(SEED)
    games = 4000
    strong_first = rng.integers(2, size=games).astype(bool)
    strong_wins = rng.random(games) < 0.9
    bot = np.where(np.column_stack([strong_first, ~strong_first]), "strong", "random")
    rank = np.where((bot == "strong") == strong_wins[:, None], 1, 2)
    seats = pd.DataFrame(
        {
            "game": np.repeat(np.arange(games), 2),
            "seat": np.tile([1, 2], games),
            "bot": bot.ravel(),
            "rank": rank.ravel(),
        }
    )
    row = skill_and_luck(seats, ["random", "greedy", "strong"]).iloc[0]
    assert (row["weaker"], row["stronger"]) == ("random", "strong")
    assert row["upset_low"] <= 0.1 <= row["upset_high"] and row["luck_low"] <= 0.2 <= row["luck_high"]
    assert row["spread_low"] <= np.log(9) <= row["spread_high"]
    assert skill_and_luck(seats[seats["bot"] == "strong"], ["random", "strong"]).empty


def test_plot_ladder_ratings_in_rung_order() -> None:
    ratings = pd.DataFrame(
        {"bot": ["strong", "random"], "elo": [1700, 1300], "elo_low": [1650, 1250], "elo_high": [1750, 1350]}
    )
    ax = plot_ladder_ratings(ratings, ["random", "greedy", "strong"])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["random", "strong"]
    plt.close("all")


def test_rows_in_any_order_and_with_any_index_read_alike() -> None:
    traj, seats = _tables(*_coin_flip_at_the_end(np.random.default_rng(SEED)))
    shuffled = seats.sample(frac=1, random_state=SEED).set_axis(np.arange(len(seats)) + 10_000)
    pd.testing.assert_frame_equal(feel_summary(traj, shuffled), feel_summary(traj, seats))


def test_the_first_seat_to_lead_alone_is_read_past_a_level_first_round() -> None:
    """Every seat level after round 1 (the leader-win share there is 1/n by construction), then the eventual winner
    pulls ahead alone: the first to lead alone always wins; the same games with the other seat ahead first: never."""
    rng = np.random.default_rng(SEED)
    winner = rng.integers(2, size=GAMES)
    score = np.zeros((GAMES, 5, 2))
    score[np.arange(GAMES), 1:, winner] = np.arange(1, 5)
    win = np.zeros((GAMES, 2))
    win[np.arange(GAMES), winner] = 1.0
    row = feel_summary(*_tables(score, win)).iloc[0]
    assert row["first_leader"] == 0.5 and row["first_ahead"] == 1 and row["first_ahead_high"] == pytest.approx(1)
    assert 0.99 < row["first_ahead_low"] < 1, "every game alike still leaves an interval (Wilson), not [1, 1]"
    early = score.copy()
    early[np.arange(GAMES), 1, 1 - winner] = 2  # the loser leads alone in round 2, the winner from round 3
    early[np.arange(GAMES), 1, winner] = 0
    row = feel_summary(*_tables(early, win)).iloc[0]
    assert row["first_ahead"] == 0 and row["lead_changes"] == 1
    level = feel_summary(*_tables(np.zeros((50, 3, 2)), np.full((50, 2), 0.5))).iloc[0]
    assert np.isnan(level["first_ahead"])  # no seat ever led alone


def _length_tables(turns: np.ndarray, rounds: np.ndarray, bot: str = "greedy") -> tuple[pd.DataFrame, pd.DataFrame]:
    g = len(turns)
    games = pd.DataFrame({"game": np.arange(g), "num_players": 2, "turns": turns, "rounds": rounds})
    seats = pd.DataFrame({"game": np.repeat(np.arange(g), 2), "bot": bot})
    return games, seats


def test_game_length_in_minutes_at_a_known_pace() -> None:
    """Games of 40 +- 2 turns and 20 rounds at 30 s a turn and 60 s a round: 40 minutes, inside a box of 35-45 and
    longer than a box of 20; the box of 35-45 allows (35 x 60 - 20 x 60) / 40 = 22.5 to 37.5 s a turn."""
    rng = np.random.default_rng(SEED)
    turns = 40 + rng.integers(-2, 3, size=GAMES)
    turns = turns - (turns.mean() - 40).round().astype(int)
    games, seats = _length_tables(turns, np.full(GAMES, 20))
    pace = {"box_minutes": [35, 45], "seconds_per_turn": 30, "seconds_per_round": 60}
    row = game_length(games, seats, pace).iloc[0]
    assert row["bots"] == "greedy" and row["num_games"] == GAMES and row["rounds"] == 20
    expected = (turns.mean() * 30 + 20 * 60) / 60
    assert row["minutes"] == pytest.approx(expected) and row["minutes_low"] < expected < row["minutes_high"]
    assert row["minutes_high"] - row["minutes_low"] < 0.2 and row["verdict"] == "within"
    assert row["implied_low"] == pytest.approx((35 * 60 - 1200) / turns.mean())
    assert row["implied_high"] == pytest.approx((45 * 60 - 1200) / turns.mean())
    short = game_length(games, seats, {**pace, "box_minutes": [20, 20]}).iloc[0]
    assert short["verdict"] == "longer"
    long = game_length(games, seats, {**pace, "box_minutes": [90, 120]}).iloc[0]
    assert long["verdict"] == "shorter"
    bare = game_length(games, seats)
    assert "minutes" not in bare.columns and bare.iloc[0]["turns"] == pytest.approx(turns.mean())


def test_playing_time_files_are_checked(tmp_path) -> None:
    assert read_playing_time(tmp_path) is None  # no file: no box time
    good = (
        'box_minutes = [30, 45]\nbox_source = "the box"\nseconds_per_turn = 20\nseconds_per_round = 0\n'
        'pace_basis = "ESTIMATE"\n'
    )
    (tmp_path / "playing_time.toml").write_text(good)
    assert read_playing_time(tmp_path)["box_minutes"] == [30.0, 45.0]
    for bad, message in [
        (good.replace("[30, 45]", "[45, 30]"), "box_minutes"),
        (good.replace("seconds_per_turn = 20", "seconds_per_turn = 0"), "seconds_per_turn"),
        (good.replace("seconds_per_round = 0", "seconds_per_round = -1"), "seconds_per_round"),
        (good.replace('"the box"', '""'), "box_source"),
        (good + "pace = 3\n", "unknown key"),
        (good.replace('pace_basis = "ESTIMATE"\n', ""), "pace_basis: missing"),
    ]:
        (tmp_path / "playing_time.toml").write_text(bad)
        with pytest.raises(DataError, match=message):
            read_playing_time(tmp_path)


def test_the_shipped_playing_times_name_their_estimates() -> None:
    from simulate.registry import make

    for name in ("century", "golems", "golem"):
        pace = make(name).playing_time()
        assert pace is not None and pace["pace_basis"].startswith("ESTIMATE") and pace["box_source"]
    assert make("golem-poker").playing_time() is None  # a casino game: no box


def _met(pairs: tuple[tuple[str, str, float], ...], games: int = 3000) -> pd.DataFrame:
    """2-player seat rows of each (first, second, chance the first finishes above) pair meeting in its own games."""
    rng = np.random.default_rng(SEED)
    rows, game = [], 0
    for first, second, above in pairs:
        for _ in range(games):
            up = rng.random() < above
            rows += [(game, 1, first, 1 if up else 2), (game, 2, second, 2 if up else 1)]
            game += 1
    return pd.DataFrame(rows, columns=["game", "seat", "bot", "rank"])


def test_skill_and_luck_reads_the_strongest_neighbours_and_every_pair_that_met() -> None:
    """Three rungs, each pair meeting in its own games with a known upset rate: the summary reads the two strongest
    neighbours (greedy and planner: 40% upsets, luck at most 80% for players this close), not random against the best;
    every pair comes in ladder order."""
    seats = _met((("random", "greedy", 0.1), ("greedy", "planner", 0.4), ("random", "planner", 0.05)))
    ladder = ("random", "greedy", "planner")
    out = skill_and_luck(seats, ladder, every_pair=True)
    assert list(zip(out["weaker"], out["stronger"], strict=True)) == [
        ("random", "greedy"),
        ("random", "planner"),
        ("greedy", "planner"),
    ]
    for r, upset in zip(out.itertuples(), (0.1, 0.05, 0.4), strict=True):
        assert r.upset_low <= upset <= r.upset_high and r.luck == pytest.approx(2 * r.upset)
    top = skill_and_luck(seats, ladder)
    assert len(top) == 1 and tuple(top.iloc[0][["weaker", "stronger"]]) == ("greedy", "planner")
    assert top.iloc[0]["luck_low"] <= 0.8 <= top.iloc[0]["luck_high"]


def test_a_declared_weaker_rung_that_wins_is_labelled_the_stronger() -> None:
    """The ladder declares engine above greedy, but greedy finishes above engine in 68% of their seat pairs: the row
    says greedy is the stronger (upset 32%, a positive spread), never "weaker greedy ... -133 Elo"."""
    seats = _met((("greedy", "engine", 0.68),))
    row = skill_and_luck(seats, ("random", "greedy", "engine")).iloc[0]
    assert (row["weaker"], row["stronger"]) == ("engine", "greedy")
    assert row["upset"] == pytest.approx(0.32, abs=0.03) and row["elo_spread"] > 0


def test_the_summary_reads_no_race_into_a_game_of_one_or_two_rounds() -> None:
    """A golem-poker pot lasts 1-2 betting rounds: its first seat ahead is mostly the winner, so the summary line
    gives the length and leaves the lead measures out; a longer game's line reads them."""
    from analysis.report.feel import RACE_ROUNDS, _feel_answer

    row = pd.Series(
        {"num_players": 4, "bots": "search", "num_games": 800, "first_ahead": 1.0, "first_ahead_low": 0.99,
         "first_ahead_high": 1.0, "half_round": 1, "half_leader": 0.86, "lead_changes": 0.0, "no_lead_change": 1.0,
         "decided": 1.0, "rounds": 1.4}
    )  # fmt: skip
    no_length = pd.DataFrame(columns=["num_players", "bots"])
    short = _feel_answer(row, no_length)
    assert "1.4 rounds a game, too few for the lead measures" in short and "lead alone" not in short
    long = _feel_answer(pd.concat([row.drop("rounds"), pd.Series({"rounds": RACE_ROUNDS + 30})]), no_length)
    assert "the first player to lead alone wins 100%" in long
    poker = _feel_answer(row, no_length, race=False, round_word="deal")
    assert "1.4 deals a game" in poker and "rounds" not in poker, "golem-poker's rounds are deals, in its own word"

    # how often the lead never changes: no "never in 0%" that reads as a bug
    def never(share: float) -> str:
        return _feel_answer(long_row.assign(no_lead_change=share).iloc[0], no_length)

    long_row = pd.DataFrame([row.drop("rounds")]).assign(rounds=RACE_ROUNDS + 30, lead_changes=6.8)
    assert "the lead changes 6.8 times a game (at least once in every game); " in never(0.0)
    assert "(never in 0.3%); " in never(0.003) and "(never in 5%); " in never(0.05)


def test_the_notable_games_are_the_planted_comeback_and_a_typical_game() -> None:
    """Seat 1 leads every game by one until a coin flip at the end, except a planted comeback: game 7's winner
    trails by 9 after round 3 and wins; game 11 is the only game of another length."""
    score, win = _coin_flip_at_the_end(np.random.default_rng(SEED), rounds=6)
    score[7] = 0
    score[7, :, 0] = [4, 8, 9, 9, 9, 9]
    score[7, :, 1] = [0, 0, 0, 5, 8, 12]
    win[7] = [0, 1]
    traj, seats = _tables(score, win)
    traj.at[22, "score"] = traj.at[22, "score"][:4]  # game 11 ends after round 4
    traj.at[23, "score"] = traj.at[23, "score"][:4]
    found = notable_games(traj, seats).set_index("kind")
    come = found.loc["comeback"]
    assert (come["game"], come["seat"], come["deficit"], come["round"], come["margin"]) == (7, 2, 9.0, 3, 3.0)
    typical = found.loc["typical"]
    assert typical["rounds"] == 6 and typical["game"] not in (7, 11) and typical["margin"] in (2.0, 4.0)


def test_no_comeback_is_named_where_every_winner_led_throughout() -> None:
    traj, seats = _tables(*_leader_always_wins(np.random.default_rng(SEED)))
    found = notable_games(traj, seats)
    assert list(found["kind"]) == ["typical"]
    assert found.iloc[0]["deficit"] < 0


def test_the_how_it_plays_line_reads_no_race_into_a_game_played_for_chips() -> None:
    """golem-poker's seats play for chips: "the first player to lead alone wins 95%" would describe the result, not
    a race, however many deals a pot takes."""
    row = pd.Series(
        {
            "num_players": 4,
            "bots": "equity",
            "num_games": 400,
            "rounds": 3.3,
            "first_ahead": 0.95,
            "first_ahead_low": 0.92,
            "first_ahead_high": 0.97,
            "half_round": 1,
            "half_leader": 0.34,
            "lead_changes": 0.1,
            "no_lead_change": 0.95,
            "decided": 1.0,
        }
    )
    length = pd.DataFrame({"num_players": [], "bots": []})  # no playing time
    assert "first player to lead alone" in _feel_answer(row, length)
    line = _feel_answer(row, length, race=False)
    assert "lead alone" not in line and "play for their score, not to finish first" in line


def test_the_headline_is_the_strongest_rung_at_its_fewest_players_whatever_the_top_ups() -> None:
    from analysis.report.feel import HEADLINE_GAMES, feel_headline

    summary = pd.DataFrame(
        {
            "bots": ["apprentice", "search", "search", "apprentice + search", "search"],
            "num_players": [2, 2, 4, 2, 3],
            "num_games": [84_000, HEADLINE_GAMES + 1, 3 * HEADLINE_GAMES, 90_000, HEADLINE_GAMES - 1],
        }
    )
    top = feel_headline(summary, ("apprentice", "search"))
    assert (top["bots"], top["num_players"]) == ("search", 2), "more games at 4 players do not move the line"
    assert feel_headline(summary.iloc[[0, 3, 4]], ("apprentice", "search"))["bots"] == "apprentice"
