"""Replay positions (``state``, docs/replay.md): every game's public position after every decision.

The golden games of ``tests/golden`` are replayed with ``states=True``: the events are those of the plain replay
plus ``state``, each position is plain JSON in the documented shape, the last one's scores are the result's, what
a game hides is a count, and every field is documented in docs/replay.md.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from analysis.report.render import render_replay
from simulate.game import Lineup
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.registry import make
from simulate.viewkit import changes, logit_options, root_options, search_explainer, written

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))
from regenerate import GOLDEN  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = {  # game -> (players, bots, setup seed, play seed): golden games (tests/golden/regenerate.py)
    "century": (2, ["greedy", "engine"], 20261130, 7),
    "golems": (2, ["greedy", "collector"], 20261130, 7),
    "golem-poker": (4, ["equity", "tight_aggressive", "bluffer", "random"], 1029, 29),
    "golem": (2, ["artifacts", "balanced"], 99, 100),
}


def replay(name: str, states: bool) -> list[dict]:
    n, bots, setup_seed, play_seed = GAMES[name]
    game = make(name)
    lineup = parse_lineup(game, bots, n)
    data = game.load_data(None, {})
    one = Lineup.in_order(n, *lineup_arrays(game, lineup), setup_seed, play_seed)
    return game.replay(data, one, [e.label for e in lineup], states=states)


@pytest.fixture(scope="module", params=list(GAMES))
def replayed(request) -> tuple[str, list[dict], list[dict]]:
    return request.param, replay(request.param, False), replay(request.param, True)


def test_states_add_a_position_and_change_nothing_else(replayed) -> None:
    name, plain, with_states = replayed
    assert [{k: v for k, v in e.items() if k != "state"} for e in with_states] == plain
    positions = [e for e in with_states if "state" in e]
    assert {e["event"] for e in positions} >= {"setup", "move", "result"}
    assert all("state" in e for e in with_states if e["event"] in ("setup", "move", "result"))
    n = GAMES[name][0]
    for e in positions:
        state = json.loads(json.dumps(e["state"], allow_nan=False))  # plain JSON, unchanged by a round trip
        assert state == e["state"] and set(state) == {"seats", "board"}
        assert [s["seat"] for s in state["seats"]] == list(range(1, n + 1))
        assert all(isinstance(s["score"], int) for s in state["seats"])
    assert [s["score"] for s in positions[-1]["state"]["seats"]] == with_states[-1]["scores"]


def test_the_position_follows_the_game(replayed) -> None:
    """Positions differ from one decision to the next (the state is the live one, not a copy of the setup)."""
    name, _, with_states = replayed
    states = [json.dumps(e["state"], sort_keys=True) for e in with_states if "state" in e]
    assert len(set(states)) > len(states) // 3


def test_hidden_information_is_a_count(replayed) -> None:
    name, _, with_states = replayed
    hidden = {"golem": "objectives", "golems": "hand", "golem-poker": "hand"}
    if name not in hidden:
        pytest.skip(f"{name} hides nothing a seat holds")
    counts = [s[hidden[name]] for e in with_states if "state" in e for s in e["state"]["seats"]]
    assert all(isinstance(c, int) for c in counts) and max(counts) > 0


def test_golem_chance_draws_show_as_they_happen() -> None:
    """Golem: the Synagogue's marbles are dropped again at each Refresh, and the Action tiles dealt anew."""
    events = replay("golem", True)
    rounds = {}
    for e in events:
        if "state" in e and e["state"]["board"]["phase"] == "move":
            rounds.setdefault(e["state"]["board"]["round"], e["state"]["board"])
    assert sorted(rounds) == [1, 2, 3, 4]
    drops = [json.dumps(b["synagogue"], sort_keys=True) for b in rounds.values()]
    tiles = [tuple(b["action_tiles"]) for b in rounds.values()]
    assert len(set(drops)) > 1 and len(set(tiles)) == 4
    assert all(sum(sum(row.values()) for row in b["synagogue"].values()) == 10 for b in rounds.values())


def test_every_state_field_is_documented(replayed) -> None:
    name, _, with_states = replayed
    doc = (ROOT / "docs" / "replay.md").read_text()
    section = doc.split(f"### {name}", 1)[1].split("\n### ", 1)[0]
    documented = set(re.findall(r"`([a-z_]+)`", section)) | {"seat", "score"}
    keys = {
        k for e in with_states if "state" in e for part in (e["state"]["board"], *e["state"]["seats"]) for k in part
    }
    assert keys <= documented, sorted(keys - documented)


def view(name: str, bots: list[str] | None = None, explain: bool = False, players: int | None = None) -> dict:
    n, golden_bots, setup_seed, play_seed = GAMES[name]
    n = players or n
    game = make(name)
    lineup = parse_lineup(game, bots or golden_bots, n)
    data = game.load_data(None, {})
    one = Lineup.in_order(n, *lineup_arrays(game, lineup), setup_seed, play_seed)
    return game.replay_view(data, one, [e.label for e in lineup], explain=explain)


def _resolved(v: dict) -> list[dict]:
    pool = v["pool"]
    return [
        {
            "state": {"board": pool[s["state"]["board"]], "seats": [pool[k] for k in s["state"]["seats"]]},
            "board": [pool[k] for k in s["scene"]["board"]],
            "seats": [[pool[k] for k in seat["areas"]] for seat in s["scene"]["seats"]],
        }
        for s in v["steps"]
    ]


@pytest.mark.parametrize("name", list(GAMES))
def test_a_replay_page_holds_every_position_and_draws_only_known_cards(name: str) -> None:
    """``Game.replay_view``: one step per position of the replay, its state unchanged; every face-up card drawn has
    a text in the catalogue; each game shows automatic steps of its own; the last step's scores are the result's."""
    events = replay(name, states=True)
    v = view(name)
    steps = _resolved(v)
    assert [s["state"] for s in steps] == [e["state"] for e in events if "state" in e]
    drawn = {
        c["id"]
        for s in steps
        for a in [*s["board"], *(a for seat in s["seats"] for a in seat)]
        for c in a.get("cards", [])
        if "id" in c
    }
    assert drawn and drawn <= set(v["cards"]) and all(v["cards"][c]["text"] for c in drawn)
    assert len(v["seat_names"]) == len(events[0]["state"]["seats"])
    titles = {a["title"] for s in v["steps"] for a in s["auto"]}
    expected = {
        "century": {"Re-deal"},
        "golems": {"Refill"},
        "golem-poker": {"Showdown, deal 1"},
        "golem": {"Income", "Golem Control", "Final scoring"},
    }[name]
    assert expected <= titles, titles
    assert v["steps"][-1]["scores"] == v["final"]["scores"] == events[-1]["scores"]


def test_golem_control_says_what_it_took() -> None:
    """Golem's automatic steps: four rounds of Income and of Golem Control, each in words of what changed."""
    autos = [a for s in view("golem")["steps"] for a in s["auto"]]
    assert sum(a["title"] == "Income" for a in autos) == 4
    assert sum(a["title"] == "Golem Control" for a in autos) == 4
    assert all(
        re.search(r"seat \d \(table \d\): ", a["text"]) or a["title"].startswith("End of round") for a in autos[:-1]
    )


def test_changes_names_each_number_that_moved() -> None:
    before = {"seats": [{"seat": 1, "score": 3, "vp": 3, "res": {"clay": 1}}], "board": {"gold": 9, "row": ["A"]}}
    after = {"seats": [{"seat": 1, "score": 0, "vp": -7, "res": {"clay": 3}}], "board": {"gold": 8, "row": ["B"]}}
    assert changes(before, after, ["seat 1"]) == "seat 1: vp -10, res clay +2; board: gold -1"
    assert changes(before, before, ["seat 1"]) == ""


def test_century_explains_search_and_apprentice_moves() -> None:
    """``--explain``: each move of a search or apprentice seat with more than one option lists at most four, each
    valued in [0, 1] (the search's shares of its root visits add up to at most 1), best first; the move played is
    the re-run's first option in most decisions (the re-run draws its own random numbers)."""
    v = view("century", ["search:iterations=40", "apprentice"], explain=True)
    moves = [s for s in v["steps"] if s["kind"] == "move"]
    explained = [s for s in moves if "explain" in s]
    assert len(explained) >= len(moves) // 2
    for s in explained:
        values = [val for _, val in s["explain"]["options"]]
        assert 2 <= len(values) <= 4 and all(0 <= x <= 1 for x in values) and values == sorted(values, reverse=True)
        if s["bot"].startswith("search"):
            assert sum(values) <= 1 + 1e-9
    first = [
        s["head"].split(": ", 2)[-1].removeprefix(f"seat {s['seat']} ") == s["explain"]["options"][0][0]
        for s in explained
    ]
    assert sum(first) > len(first) / 2


@pytest.mark.parametrize("gift", ["M08", "M20"])
def test_century_explains_from_the_position_the_run_dealt_with_its_gift(gift: str) -> None:
    """Under the rule option ``gift`` (a merchant card dealt once more to one seat at setup), the re-run starts from
    the run's own position, the gift in the holder's hand: the explained replay finishes (a twin without the gift
    meets a move it cannot play) and the apprentice, which picks its best-valued option, ranks the move it played
    first in nearly every decision (all but ties)."""
    game = make("century")
    lineup = parse_lineup(game, ["apprentice"], 2)
    ids, params = lineup_arrays(game, lineup)
    data = game.load_data(None, {"gift": gift})
    for seeds in [(20261130, 7), (11, 12)]:
        v = game.replay_view(data, Lineup.in_order(2, ids, params, *seeds), [e.label for e in lineup], explain=True)
        explained = [s["explain"] for s in v["steps"] if "explain" in s]
        assert len(explained) >= 50
        assert sum(e["played"] == 0 for e in explained) >= 0.95 * len(explained)


EXPLAINED = [  # (game, players, lineup) replayed with --explain: search seats, the game's apprentice, other bots
    ("golems", 2, ["search:iterations=40", "apprentice"]),
    ("golems", 2, ["apprentice", "collector"]),
    ("golems", 2, ["apprentice:style=runes", "collector"]),  # a style explains its moves by its own weights
    ("golem-poker", 4, ["search:iterations=40", "equity", "threshold", "search:iterations=30"]),
    ("golem", 3, ["search:iterations=20", "apprentice", "balanced"]),
]


@pytest.mark.parametrize(("name", "players", "bots"), EXPLAINED)
def test_search_and_apprentice_moves_explain_their_options(name: str, players: int, bots: list[str]) -> None:
    """``--explain`` beyond Century: at least half of the search and apprentice moves carry their options (a
    decision with one option, or a setup decision another bot takes for them, has none), two to four, valued in
    [0, 1], best first, each in other words; shares (of the search's root visits, of an apprentice's policy) add up
    to 1 when all are shown, to at most 1 when not; the move played is among the options in most decisions; no other
    bot's move carries any."""
    v = view(name, bots, explain=True, players=players)
    moves = [s for s in v["steps"] if s["kind"] == "move"]
    explaining = [s for s in moves if s["bot"].split(":")[0] in ("search", "apprentice")]
    explained = [s for s in moves if "explain" in s]
    assert explaining and len(explained) >= len(explaining) // 2
    assert all(s["bot"].split(":")[0] in ("search", "apprentice") for s in explained)
    assert {s["bot"] for s in explained} == {s["bot"] for s in explaining}
    for s in explained:
        values = [val for _, val in s["explain"]["options"]]
        assert 2 <= len(values) <= 4 and all(0 <= x <= 1 for x in values) and values == sorted(values, reverse=True)
        assert len({w for w, _ in s["explain"]["options"]}) == len(values)
        if "share" in s["explain"]["summary"]:
            assert sum(values) <= 1 + 1e-3
            if len(values) < 4:
                assert sum(values) == pytest.approx(1, abs=2e-3)
    assert sum("(played)" in s["explain"]["summary"] for s in explained) > len(explained) / 2


def test_golems_solo_apprentice_gives_its_chance_to_win() -> None:
    """Solo, the Golems apprentice's options are its chances to win after each move, in [0, 1], best first, the move
    played among them in most decisions."""
    explained = [s for s in view("golems", ["apprentice"], explain=True, players=1)["steps"] if "explain" in s]
    assert len(explained) >= 5
    for s in explained:
        values = [val for _, val in s["explain"]["options"]]
        assert all(0 <= x <= 1 for x in values) and values == sorted(values, reverse=True)
        assert "chance to win" in s["explain"]["summary"]
    assert sum("(played)" in s["explain"]["summary"] for s in explained) > len(explained) / 2


def test_root_options_reads_the_root_visits_as_shares() -> None:
    """A planted tree: root children 3, 2, 1 (listed newest first) with visits 5, 10, 5; node 4 under child 1.
    Shares 0.5, 0.25, 0.25, the tie led by the first tried (node 1), as the search picks; no children, no options."""
    n = 5
    tree = SimpleNamespace(
        first_child=np.array([3, 4, -1, -1, -1]),
        next_sibling=np.array([-1, -1, 1, 2, -1]),
        visits=np.array([20.0, 5.0, 10.0, 5.0, 5.0]),
        move=np.arange(n * 2, dtype=np.int16).reshape(n, 2),
    )
    options = root_options(tree)
    assert [(m.tolist(), v) for m, v in options] == [([4, 5], 0.5), ([2, 3], 0.25), ([6, 7], 0.25)]
    tree.first_child[0] = -1
    assert root_options(tree) == []


def test_search_explainer_reads_the_root_of_the_search_it_reruns() -> None:
    """``search_explainer``: the tree and scratch made once per iteration count (``params[0]``), the re-run's root
    visits as options, each tree move as ``shown`` gives it; a re-run that did not search, no options."""
    made = []

    def new_search(iterations: int) -> tuple[SimpleNamespace, list]:
        made.append(iterations)
        return SimpleNamespace(first_child=np.array([-1, -1]), next_sibling=np.array([-1, -1])), []

    def search(record: np.ndarray, params: np.ndarray, tree: SimpleNamespace, scratch: list) -> bool:
        tree.first_child[0] = 1 if record[0] else -1
        tree.visits, tree.move = np.array([1.0, 1.0]), np.array([[0], [7]], np.int16)
        return bool(record[0])

    explainer = search_explainer(new_search, search, lambda record, move: move * 2)
    options = explainer.options(np.array([1]), np.array([40.0]))
    assert [(m.tolist(), v) for m, v in options] == [([14], 1.0)]
    assert explainer.options(np.array([0]), np.array([40.0])) == []
    assert made == [40] and explainer.unit(np.array([40.0])) == "share of 40 iterations"


def test_logit_options_are_shares_or_chances() -> None:
    """A policy's logits become shares adding up to 1, a value's each its chance; best first; a decision's written
    values are those before the first NaN."""
    moves = np.array([[0], [1], [2]], np.int16)
    logits = np.array([0.0, np.log(3.0), -np.inf])
    shares = logit_options(moves, logits, policy=True)
    assert [(int(m[0]), round(v, 6)) for m, v in shares] == [(1, 0.75), (0, 0.25), (2, 0.0)]
    chances = logit_options(moves, logits[:2], policy=False)
    assert [(int(m[0]), round(v, 6)) for m, v in chances] == [(1, 0.75), (0, 0.5)]
    assert written(np.array([1.0, 2.0, np.nan, 3.0])) == 2 and written(np.zeros(3)) == 3
    # a decision that wrote no value (one option, a setup decision): no options, a policy's as a value's
    assert logit_options(moves, logits[:0], policy=True) == [] == logit_options(moves, logits[:0], policy=False)


@pytest.mark.parametrize("name", ["golem-1p", "golem-4p", "golems-solo", "golem-poker-6p", "century-4p"])
def test_every_golden_game_makes_a_page_of_reasonable_size(name: str) -> None:
    """Solo games (the Automa's actions as automatic steps), 4 and 6 players: a page under 600 KB whose seat
    numbering is one permutation of the table seats, every step with a heading and a scene for every seat."""
    game_name, n, bots, setup_seed, play_seed = GOLDEN[name]
    game = make(game_name)
    lineup = parse_lineup(game, bots, n)
    data = game.load_data(None, {})
    one = Lineup.in_order(n, *lineup_arrays(game, lineup), setup_seed, play_seed)
    v = game.replay_view(data, one, [e.label for e in lineup])
    assert len(render_replay(v, name, "test").encode()) < 600_000
    assert len(set(v["seat_names"])) == n and sorted(v.get("seat_order", range(n))) == list(range(n))
    assert all(s["head"] and len(s["scene"]["seats"]) == n for s in v["steps"])
    if name == "golem-1p":
        assert any(a["title"] == "Automa" and a["text"] for s in v["steps"] for a in s["auto"])


class _PlainCentury(type(make("century"))):
    """Century as a game without a ``page`` package (this test module has none)."""


def test_a_game_without_a_page_package_gets_a_plain_page() -> None:
    """``GameShell.replay_view`` without ``<game>/page``: each position's numbers as counters for the board and every
    seat, the steps and scores as a drawn page has them."""
    n, bots, setup_seed, play_seed = GAMES["century"]
    game = _PlainCentury()
    lineup = parse_lineup(game, bots, n)
    one = Lineup.in_order(n, *lineup_arrays(game, lineup), setup_seed, play_seed)
    v = game.replay_view(game.load_data(None, {}), one, ["a", "b"])
    drawn = view("century")
    assert v["cards"] == {} and len(v["steps"]) == len(drawn["steps"])
    assert [s["scores"] for s in v["steps"]] == [s["scores"] for s in drawn["steps"]]
    board = [v["pool"][s["scene"]["board"][0]] for s in v["steps"]]
    assert all(dict(b["chips"])["copper left"] >= 0 for b in board)
    assert all(len(s["scene"]["seats"]) == n for s in v["steps"])
