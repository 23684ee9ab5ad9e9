"""Every registered game passes the one conformance check (``simulate.conformance``), and the check fails a game
that breaks the shared surface."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simulate import conformance
from simulate.conformance import CHECKS, ConformanceError, check_game, compare_moves
from simulate.game import ReplayPosition
from simulate.lineup import lineup_arrays, parse_lineup
from simulate.orchestration.studies import plan_study
from simulate.registry import available_games, make

PRIVATE_DEALS = ("golem", "golem-poker")
"""Games whose hidden order deals the seats their own cards: ``hidden`` checks them at positions whose unseen cards
are dealt anew (``Twin.hidden_variant``)."""


SURFACE = tuple(c for c in CHECKS if c != "adaptation")
"""The checks of the shared surface; ``adaptation`` plays strong players' games and has its own test
(``tests/test_adaptation.py``)."""


@pytest.mark.parametrize("name", sorted(available_games()))
def test_every_game_conforms(name: str) -> None:
    assert check_game(name, games=4, checks=SURFACE) == SURFACE


class _Broken:
    """A registered game with one fault: overrides of its methods or declared facts (``info``), and scores shifted by
    one in its chunks."""

    def __init__(self, game, shift: int = 0, **overrides) -> None:
        facts = {f.name for f in dataclasses.fields(game.info)}
        self._game, self._shift = game, shift
        self._overrides = {k: v for k, v in overrides.items() if k not in facts}
        self.info = dataclasses.replace(game.info, **{k: v for k, v in overrides.items() if k in facts})

    def __getattr__(self, name):
        if name in self._overrides:
            return self._overrides[name]
        return getattr(self._game, name)

    def play_chunk(self, *args, **kwargs):
        tables = self._game.play_chunk(*args, **kwargs)
        if self._shift:
            tables.seats["score"] = np.asarray(tables.seats["score"]) + self._shift
        return tables


def test_a_game_whose_kernel_and_reference_disagree_fails(monkeypatch) -> None:
    monkeypatch.setattr(conformance, "make", lambda name: _Broken(make(name), shift=1))
    with pytest.raises(ConformanceError, match="golems replay: game 0: reference scores"):
        check_game("golems", games=2, checks=("replay",))


def test_bad_declarations_fail(monkeypatch) -> None:
    game = make("golems")
    monkeypatch.setattr(
        conformance,
        "make",
        lambda name: _Broken(
            game,
            profile_forced=("no_such_column",),
            skill_ladder=("random", "no_such_bot", "unnamed_rung"),
            outcome="score",
            apprentice=dataclasses.replace(game.info.apprentice, player_counts=(1, 2, 3)),
        ),
    )
    with pytest.raises(ConformanceError) as raised:
        check_game("golems", checks=("declarations",))
    text = str(raised.value)
    for problem in (
        "profile_forced",
        "no_such_bot",
        "outcome_precision",
        "apprentice player counts [3]",
        "unnamed_rung",
    ):
        assert problem in text


def test_a_missing_declared_column_fails(monkeypatch) -> None:
    game = make("golems")
    monkeypatch.setattr(
        conformance, "make", lambda name: _Broken(game, seat_columns=(*game.info.seat_columns, "nowhere"))
    )
    with pytest.raises(ConformanceError, match=r"seats lack \['nowhere'\]"):
        check_game("golems", games=2, checks=("tables",))


def test_a_game_without_a_study_fails_saying_so(monkeypatch) -> None:
    monkeypatch.setattr(conformance, "make", lambda name: _Broken(make("golems"), study=None))
    with pytest.raises(ConformanceError, match=r"golems study: declares no standard study \(GameInfo.study"):
        check_game("golems", games=2, checks=("study",))


def test_a_study_run_that_cannot_play_fails(monkeypatch) -> None:
    game = make("golems")
    run = dataclasses.replace(game.info.study.runs[0], bots=("no_such_bot",))
    study = dataclasses.replace(game.info.study, runs=(run, *game.info.study.runs[1:]))
    monkeypatch.setattr(conformance, "make", lambda name: _Broken(game, study=study))
    with pytest.raises(ConformanceError, match=f"golems study: run {run.name}: .*no_such_bot"):
        check_game("golems", games=2, checks=("study",))


def test_a_position_unlike_its_declaration_fails(monkeypatch) -> None:
    game = make("golems")
    position = dataclasses.replace(game.info.position, seat=(*game.info.position.seat, "nowhere"))
    monkeypatch.setattr(conformance, "make", lambda name: _Broken(game, position=position))
    with pytest.raises(ConformanceError, match=r"golems position: 1 players, event 0 \(setup\): seat entry 1 has"):
        check_game("golems", checks=("position",))


def test_an_event_without_a_declared_position_fails(monkeypatch) -> None:
    game = make("golems")

    def replay(*args, **kwargs):
        return [
            {k: v for k, v in e.items() if k != "state" or e["event"] != "move"} for e in game.replay(*args, **kwargs)
        ]

    monkeypatch.setattr(conformance, "make", lambda name: _Broken(game, replay=replay))
    with pytest.raises(ConformanceError, match=r"event 1 \(move\) has no state and is not declared without_state"):
        check_game("golems", checks=("position",))


def test_a_page_missing_its_seats_fails(monkeypatch) -> None:
    game = make("golems")

    def replay_view(*args, **kwargs):
        view = game.replay_view(*args, **kwargs)
        view["steps"][0]["scene"]["seats"] = view["steps"][0]["scene"]["seats"][:1]
        return view

    monkeypatch.setattr(conformance, "make", lambda name: _Broken(game, replay_view=replay_view))
    with pytest.raises(ConformanceError, match="golems page: step 0: the scene draws 1 seats, the game has 2"):
        check_game("golems", checks=("page",))


def test_data_outside_the_package_fails(monkeypatch, tmp_path) -> None:
    game = make("golems")
    monkeypatch.setattr(conformance, "make", lambda name: _Broken(game, data_dir=lambda: tmp_path))
    with pytest.raises(ConformanceError, match="golems data: the data folder is .*, not the packaged seeds/golems/"):
        check_game("golems", checks=("data",))
    monkeypatch.setattr(conformance, "make", lambda name: _Broken(game, data_files=(*game.info.data_files, "x.bin")))
    with pytest.raises(ConformanceError) as raised:
        check_game("golems", checks=("data",))
    assert "seeds/golems/x.bin is missing" in str(raised.value) and "not of a kind the package ships" in str(
        raised.value
    )


@pytest.mark.parametrize("name", sorted(available_games()))
def test_every_game_plans_its_standard_study(name: str) -> None:
    """``golem study`` plans every registered game's declared study: every run validated by the runner."""
    planned = plan_study(name, num_games=make(name).info.study.default_games // 100)
    assert planned and all(p.spec.game == name for p in planned)


def test_unknown_checks_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown conformance checks"):
        check_game("golems", checks=("tables", "speed"))


def _golems_game() -> tuple:
    """A traced 2-player Golems game: the game, its data, its moves and a fresh twin at its start."""
    game = make("golems")
    data = game.load_data(None, {})
    lineup = parse_lineup(game, ["greedy"], 2)
    ids, params = lineup_arrays(game, lineup)
    moves, _ = game.trace_game(data, 2, np.arange(2), ids, params, 11, 12)
    return game, data, moves, game.new_twin(data, 2, 11, 12)


def test_engines_that_agree_pass_move_by_move() -> None:
    _, _, moves, twin = _golems_game()
    assert compare_moves(twin, moves) == len(moves) > 10
    assert twin.over()


def test_a_kernel_position_that_drifts_fails() -> None:
    _, _, moves, twin = _golems_game()
    twin.kernel_step(moves[0])  # the kernel one move ahead of the reference
    with pytest.raises(ConformanceError, match="setup: fields .* differ"):
        compare_moves(twin, moves[1:])


def test_legal_moves_that_differ_fail() -> None:
    _, _, moves, twin = _golems_game()
    twin.kernel_legal = lambda: twin.reference_legal()[1:]
    with pytest.raises(ConformanceError, match="move 0: legal moves differ: kernel only \\[\\], reference only"):
        compare_moves(twin, moves)


def test_a_move_the_reference_refuses_fails() -> None:
    game, data, moves, twin = _golems_game()
    twin.accepts = lambda move: False
    with pytest.raises(ConformanceError, match="move 0: the reference refuses"):
        compare_moves(twin, moves)


class _Peeking(_Broken):
    """A game whose bots' first move depends on the hidden order: the first two moves swapped in one of a pair."""

    def trace_game(self, data, n, seats, ids, params, setup_seed, play_seed):
        moves, final = self._game.trace_game(data, n, seats, ids, params, setup_seed, play_seed)
        if setup_seed & 1:
            moves = moves.copy()
            moves[[0, 1]] = moves[[1, 0]]
        return moves, final


def test_a_bot_that_sees_the_hidden_order_fails(monkeypatch) -> None:
    game = make("golems")
    monkeypatch.setattr(conformance, "make", lambda name: _Peeking(game))
    with pytest.raises(ConformanceError, match="golems hidden: bot .* pair .* move 0: the seat sees the same"):
        check_game("golems", games=4, checks=("hidden",))
    monkeypatch.setattr(conformance, "make", lambda name: game)
    assert check_game("golems", games=4, checks=("hidden",)) == ("hidden",)


def test_a_broken_invariant_fails_move_by_move() -> None:
    _, _, moves, twin = _golems_game()
    gems = twin.record[0]["gems"]
    gems[0] += 1  # a gem from nowhere, in the kernel's record
    twin.kernel_view = lambda: twin.reference_view()  # the views agree; only the invariants can notice
    with pytest.raises(ConformanceError, match="setup: invariants broken: gems are not conserved"):
        compare_moves(twin, moves)


def _peeking_decisions(game):
    """``game.decide_moves`` with one fault: a move picked in a record whose unseen cards differ from the first
    record's is another legal-looking move (the first record's move with its first field shifted by one)."""

    def decide(data, n, seats, ids, params, setup_seed, play_seed, records):
        moves = game.decide_moves(data, n, seats, ids, params, setup_seed, play_seed, records)
        for i in range(1, len(records)):
            if any(not np.array_equal(records[i][f], records[0][f]) for f in records.dtype.names):
                moves[i] = moves[0]
                moves[i].flat[0] += 1
        return moves

    return decide


@pytest.mark.parametrize("name", PRIVATE_DEALS)
def test_a_bot_that_sees_unseen_cards_at_a_position_fails(monkeypatch, name: str) -> None:
    game = make(name)
    monkeypatch.setattr(conformance, "make", lambda _: _Broken(game, decide_moves=_peeking_decisions(game)))
    with pytest.raises(ConformanceError, match=f"{name} hidden: bot .* game 0, move 0: with only what the seat"):
        check_game(name, games=1, checks=("hidden",))


@pytest.mark.parametrize("name", PRIVATE_DEALS)
def test_a_hidden_variant_changes_only_what_the_seat_to_move_cannot_see(name: str) -> None:
    """At points of a game the variant differs from the record in the fields a seat cannot see only, field by field
    of the kernel's record: the seat's own hidden cards and the bots' stream stay, each hidden pool keeps its cards,
    and the twin's own record is left as it was."""
    game = make(name)
    data = game.load_data(None, {})
    n = game.info.bench_players
    ids, params = lineup_arrays(game, parse_lineup(game, [game.info.default_bots], n))
    moves, _ = game.trace_game(data, n, np.arange(n), ids, params, 5, 6)
    twin = game.new_twin(data, n, 5, 6)
    rng = np.random.default_rng(3)
    changed = 0
    for t, mv in enumerate(moves):
        if t % 3 == 0:
            before = twin.record.copy()
            variant = twin.hidden_variant(rng)
            assert _fields(twin.record[0], before[0]) == [], "the twin's own record is left as it was"
            changed += bool(_fields(variant[0], before[0]))
            _HIDDEN_CHECKS[name](before[0], variant[0])
        twin.kernel_step(mv)
    assert changed >= len(moves) // 6


def _fields(a, b) -> list[str]:
    """The fields in which records ``a`` and ``b`` differ."""
    return [f for f in a.dtype.names if not np.array_equal(a[f], b[f])]


def _poker_hidden(a, b) -> None:
    seat, n = int(a["current"]), int(a["num_players"])
    hidden = {"hand", "value", "pile", "deck", "rng"}
    assert set(_fields(a, b)) <= hidden
    assert np.array_equal(a["hand"][seat], b["hand"][seat]) and a["value"][seat] == b["value"][seat]
    mine = a["pile_owner"][: a["pile_n"]] == seat
    assert np.array_equal(a["pile"][: a["pile_n"]][mine], b["pile"][: b["pile_n"]][mine])
    assert a["rng"][1] == b["rng"][1], "the bots' stream stays"
    assert sorted(b["deck"].tolist()) == list(range(52))
    pos = int(b["deck_pos"])
    dealt = [int(c) for h in b["hand"][:n] for c in h if c >= 0] + b["pile"][: b["pile_n"]].tolist()
    assert sorted(b["deck"][:pos].tolist()) == sorted(dealt), "the dealt cards stay the deck's first cards"


def _golem_hidden(a, b) -> None:
    from simulate.games.golem import engine

    seat = int(engine.current_player(a))
    hidden = {"bk_q", "ob_q", "objectives", "at_q", "au_deck", "chance"}
    assert set(_fields(a, b)) <= hidden
    assert np.array_equal(a["objectives"][seat], b["objectives"][seat])
    assert np.array_equal(a["rng"], b["rng"]), "the bots' stream stays"
    for field in ("bk_q", "at_q", "au_deck"):
        assert sorted(a[field].tolist()) == sorted(b[field].tolist()), field
    pool = sorted(a["ob_q"].tolist() + a["objectives"].ravel().tolist())
    assert pool == sorted(b["ob_q"].tolist() + b["objectives"].ravel().tolist())


_HIDDEN_CHECKS = {"golem-poker": _poker_hidden, "golem": _golem_hidden}


_POSITION = ReplayPosition(board=("turn",), seat=("hand",), solo_board=("automa",))


def _state(n: int, board: dict | None = None, **seat) -> dict:
    return {
        "board": {"turn": 1} if board is None else board,
        "seats": [{"seat": k + 1, "score": 0, "hand": 2, **seat} for k in range(n)],
    }


def test_a_state_is_held_to_its_declared_shape() -> None:
    assert _POSITION.problems(_state(3), 3) == []
    assert _POSITION.problems(_state(1, {"turn": 1, "automa": 5}), 1) == [], "a solo game adds its own board fields"
    assert "board fields ['turn'] are not the declared ['automa', 'turn']" in _POSITION.problems(_state(1), 1)[0]
    assert "seat entry 1 has ['extra', 'hand', 'score', 'seat']" in _POSITION.problems(_state(2, extra=1), 2)[0]
    assert "not a list of 3 seat entries" in _POSITION.problems(_state(2), 3)[0]
    assert "this one has ['scores']" in _POSITION.problems({"scores": [1, 2]}, 2)[0]
    numbered_from_0 = _state(2)
    numbered_from_0["seats"][0]["seat"] = 0
    assert "seat entry 1" in _POSITION.problems(numbered_from_0, 2)[0]


def test_the_facts_are_read_from_the_declared_record_alone_which_fills_its_play_version() -> None:
    game = make("golems")
    assert not hasattr(game, "min_players") and not hasattr(game, "skill_ladder")  # no forwarding to ``info``
    assert dataclasses.replace(game.info, version=9, play_version=None).play_version == 9
    with pytest.raises(AttributeError, match="no attribute 'no_such_fact'"):
        game.no_such_fact  # noqa: B018
