"""Pieces every engine's game interface shares: kernel traces, reference replays, replay events, and
:class:`GameShell`, the base of every game's ``GAME``."""

from __future__ import annotations

import copy
import importlib
import importlib.util
import statistics
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from simulate.datafiles import DataError, default_dir, read_playing_time, read_toml, rule_choices
from simulate.game import ChunkTables, Codes, GameInfo, Lineup, Lists, RuleOption, Study, StudyRun, rule_runs
from simulate.rng import derive_seed, game_seeds
from simulate.viewkit import ReplayedGame, build_view, plain_scene

TERMINAL = -4
"""``current_player()`` of a finished game (OpenSpiel's ``PlayerId.TERMINAL``)."""


class SeatedReference:
    """OpenSpiel's queries of a reference engine whose position holds ``current`` (the seat to move), ``over`` (how
    the game ended: 0 while it runs, else an index of the class's ``END_REASONS``) and read-only ``data``."""

    END_REASONS: tuple[str, ...] = ("running",)
    current: int
    over: int
    data: Any

    def current_player(self) -> int:
        """Seat to move, or ``TERMINAL`` once the game is over."""
        return TERMINAL if self.is_terminal() else self.current

    def is_terminal(self) -> bool:
        """Whether the game has ended."""
        return self.over != 0

    @property
    def end_reason(self) -> str:
        """How the game ended, from ``END_REASONS`` (``'running'`` while it runs)."""
        return self.END_REASONS[self.over]

    def copy(self) -> Any:
        """An independent copy of this game (shares only the read-only ``data``)."""
        return copy.deepcopy(self, {id(self.data): self.data})


STUDY_FILE = "study.toml"
"""A shipped game's standard study (``seeds/<game>/study.toml``): the fields of ``Study``, each run a ``[[runs]]``
(``StudyRun``'s fields) and the runs under one rule option each a ``[[rule_runs]]`` (``rule_runs``' arguments)."""


def _tuples(value: Any) -> Any:
    """TOML's arrays as the tuples the study records hold."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


def read_study(game: str) -> Study:
    """The standard study of the shipped game ``game`` (``STUDY_FILE``), its rule-option runs after its other runs."""
    path = default_dir(game) / STUDY_FILE
    conf = _tuples(read_toml(path))
    try:
        runs = [StudyRun(**run) for run in conf.pop("runs", ())]
        runs += [run for group in conf.pop("rule_runs", ()) for run in rule_runs(**group)]
        return Study(game=game, runs=tuple(runs), **conf)
    except TypeError as e:
        raise DataError(f"{path}: {e}") from None


def kernel_traces(trace_game: Callable, data: Any, lineup: Lineup) -> list[np.ndarray]:
    """The move records of the games of ``lineup`` played by the kernel's bots."""
    return [trace_game(data, *lineup.game(g))[0] for g in range(len(lineup.setup_seeds))]


def replayed_decisions(
    trace_game: Callable, data: Any, lineup: Lineup, start: Callable, play: Callable, stream: int
) -> Iterator[tuple[int, Lineup, np.ndarray, int, np.ndarray, np.uint64]]:
    """The decisions of the games of ``lineup`` as the kernel's bots play them (``trace_game``), replayed in a record
    of one game: yields (g, game g's lineup, the record before decision t, t, the move played, a seed of decision t
    derived from the game's play seed and ``stream``). ``start(one)`` returns the record set up for a game's lineup
    ``one``, ``play(st, move)`` plays a move in it (after the caller has read the decision)."""
    for g in range(len(lineup.setup_seeds)):
        one = lineup.game(g)
        moves, _ = trace_game(data, *one)
        st = start(one)
        for t, mv in enumerate(moves):
            yield g, one, st, t, mv, np.uint64(derive_seed(np.uint64(one.play_seeds), np.uint64(stream), np.uint64(t)))
            play(st, mv)


def time_reference_replay(
    make_reference: Callable[[int], Any], setup_seeds: np.ndarray, traces: list[np.ndarray]
) -> tuple[float, int]:
    """CPU seconds the reference engine takes to apply recorded moves, and how many moves it applied.

    ``make_reference(setup_seed)`` builds a reference game in its starting position. The first game is replayed once
    outside the clock (first-use costs: imports, lazily built tables, helpers compiled on first call), as
    :func:`time_kernel_replay` compiles outside it; CPU time, so a busy machine's waits are not counted.
    """
    _replay_reference(make_reference, setup_seeds[:1], traces[:1])
    start = time.process_time()
    _replay_reference(make_reference, setup_seeds, traces)
    return time.process_time() - start, sum(len(t) for t in traces)


def _replay_reference(make_reference: Callable[[int], Any], setup_seeds: np.ndarray, traces: list[np.ndarray]) -> None:
    for s, moves in zip(setup_seeds, traces, strict=True):
        ref = make_reference(int(s))
        for mv in moves:
            ref.apply_action(mv)


def state_field(ref: Any, state: Callable[[Any], dict[str, Any]] | None) -> dict[str, Any]:
    """``{"state": state(ref)}`` for a replay event, or nothing without ``state``."""
    return {"state": state(ref)} if state else {}


def result_event(
    ref: Any,
    score_parts: tuple[str, ...],
    end_reason: str,
    state: Callable[[Any], dict[str, Any]] | None = None,
    **facts: Any,
) -> dict[str, Any]:
    """The replay's last event: how the game ended, the game's own ``facts`` (the pot, the final order), then the
    reference game ``ref``'s scores, score parts (named by ``score_parts``), ranks and wins (and, given ``state``,
    the public position as ``state``)."""
    return {
        "event": "result",
        "end_reason": end_reason,
        **facts,
        "scores": ref.scores(),
        "score_parts": [dict(zip(score_parts, p, strict=True)) for p in ref.score_parts()],
        "ranks": ref.ranks(),
        "wins": ref.wins(),
        **state_field(ref, state),
    }


def end_reason(ref: Any, reasons: tuple[str, ...], code: int) -> str:
    """The name of end ``code`` (a final record's) in ``reasons`` when the reference game ``ref`` is over, else
    ``"running"`` (a trace cut short)."""
    return reasons[int(code)] if ref.is_terminal() else "running"


def ranks_from_scores(score: np.ndarray) -> np.ndarray:
    """Each seat's rank (G, n) int8 by its score (G, n): 1 + the seats that scored more (equal scores share)."""
    return (1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)).astype(np.int8)


def wins_from_scores(score: np.ndarray) -> np.ndarray:
    """Each seat's share of the win (G, n) float64 by its score (G, n): the seats of the top score share it."""
    top = score == score.max(axis=1, keepdims=True)
    return top / top.sum(axis=1, keepdims=True)


def turn_order(rows: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Component rows (columns ``game`` and ``turn`` among them) in game order, then turn order; rows of one turn
    keep the order they came in (a stable sort)."""
    turn = rows["turn"].astype(np.int64)
    if not len(turn):
        return rows
    low = turn.min()
    # one stable sort of one key (game, then turn): a few times the pace of np.lexsort over the two
    order = np.argsort(rows["game"] * (turn.max() - low + 1) + (turn - low), kind="stable")
    return {name: column[order] for name, column in rows.items()}


def no_components() -> dict[str, np.ndarray | Codes]:
    """The components table of a game whose components are not recorded: every column, no row."""
    empty = np.zeros(0, np.int32)
    return {
        "game": empty.astype(np.int64),
        "seat": empty.astype(np.int8),
        "component": Codes(empty, ()),
        "kind": Codes(empty.copy(), ()),
        "turn": empty.copy(),
        "round": empty.copy(),
    }


def move_events(
    ref: Any,
    moves: np.ndarray,
    num_players: int,
    labels: list[str],
    move_names: tuple[str, ...],
    kind_field: int,
    board: Callable[[Any], dict[str, Any]],
    state: Callable[[Any], dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """One replay event per move, applied to the reference game ``ref`` with the board after it (and, given
    ``state``, the public position after it as ``state``)."""
    events = []
    for t, mv in enumerate(moves):
        seat = ref.current_player()
        text = ref.describe(mv)
        ref.apply_action(mv)
        events.append(
            {
                "event": "move",
                "turn": t + 1,
                "round": t // num_players + 1,
                "seat": seat + 1,
                "bot": labels[seat],
                "kind": move_names[int(mv[kind_field])],
                "text": text,
                "record": [int(v) for v in mv],
                **board(ref),
                **state_field(ref, state),
            }
        )
    return events


def time_kernel_replay(
    replay_moves: Callable,
    data: Any,
    num_players: int,
    setup_seeds: np.ndarray,
    play_seeds: np.ndarray,
    traces: list[np.ndarray],
) -> tuple[float, int]:
    """CPU seconds the numba engine takes to apply recorded moves (compiled outside the clock), and the moves."""
    replay_moves(data, num_players, setup_seeds[:1], play_seeds[:1], traces[:1])
    start = time.process_time()
    replay_moves(data, num_players, setup_seeds, play_seeds, traces)
    return time.process_time() - start, sum(len(t) for t in traces)


def rule_options(options: dict[str, tuple[type, tuple, str]], defaults: dict[str, Any]) -> dict[str, RuleOption]:
    """The game's rule options (declared as ``(type, allowed, help)``) with the shipped defaults."""
    return {
        name: RuleOption(name, defaults[name], rule_choices(options, name), help)
        for name, (_, _, help) in options.items()
    }


def value_for_cost_facts(game: Any, data: Any) -> dict[str, Any]:
    """What a report needs for value for cost, recorded in every run's manifest (``value_for_cost``):
    ``priced_kinds`` and ``price_unit`` (a printed VP fitted on a printed cost), ``measured_price``
    (``GameShell.measured_price``: a measured value fitted on a printed price) and ``cards``, each component's
    ``component``, ``kind`` and number columns (``in_*``, ``out_*``, ``upgrades``, ``vp``; a column a card does not
    name is 0), which the implied prices, the dominance table and the measured line read. Empty without a component
    table."""
    table = game.component_table(data)
    if table is None:
        return {}
    numbers = ("upgrades", "vp")
    cards = [
        {"component": r["id"], "kind": r["kind"]}
        | {k: v for k, v in r.items() if k.startswith(("in_", "out_")) or k in numbers}
        for r in table
    ]
    return {
        "priced_kinds": list(game.info.priced_kinds),
        "price_unit": game.info.price_unit,
        "measured_price": dict(game.info.measured_price),
        "cards": cards,
    }


def time_search(
    search_positions: Callable, st: np.ndarray, tables: Any, params: np.ndarray, tree: Any, scratch: Any, repeats: int
) -> dict[str, float]:
    """One core's search rates over the positions of ``st``: searches and bare rollouts (the same iterations
    without the tree) from the same positions, one after the other in each repeat; medians of the CPU seconds.

    ``search_positions(st, tables, params, tree, scratch, out, bare)`` is the game's benchmark kernel (returns
    the decisions searched); ``params[0]`` is the bot's ``iterations``. The first repeat compiles and is dropped.
    """
    out = np.zeros(tree.move.shape[1], np.int16)
    seconds: dict[bool, list[float]] = {False: [], True: []}
    searched = 0
    for _ in range(repeats + 1):
        for bare in (False, True):
            batch = st.copy()
            t = time.process_time()
            searched = search_positions(batch, tables, params, tree, scratch, out, bare)
            seconds[bare].append(time.process_time() - t)
    search_s = statistics.median(seconds[False][1:])
    bare_s = statistics.median(seconds[True][1:])
    iterations = searched * int(params[0])
    return {
        "decisions": searched,
        "decisions_per_cpu_s": searched / search_s,
        "iterations_per_cpu_s": iterations / search_s,
        "bare_rollouts_per_cpu_s": iterations / bare_s,
        "tree_overhead": search_s / bare_s,
    }


class SearchBench(NamedTuple):
    """What ``golem bench`` times a game's search on (:meth:`GameShell.search_rates`).

    Position g is game g of ``bot`` (its defaults) in each of the ``GameInfo.bench_players`` seats, seeded by
    ``game_seeds(seed, g, g)``, after its first ``depth(g, num_moves)`` moves (of ``num_moves`` traced), in the
    kernel's record (``Twin.record``). ``search_positions(st, tables, params, tree, scratch, out, bare)`` is the
    search's benchmark kernel (:func:`time_search`), given the tree and scratch ``new_search(records, iterations)``
    makes for searches of ``iterations`` from ``records`` (the replay pages' search explainers use it too).
    """

    bot: str
    seed: int
    depth: Callable[[int, int], int]
    search_positions: Callable
    new_search: Callable[[np.ndarray, int], tuple[Any, Any]]


class Twin(ABC):
    """One game held by both engines at once, the kernel's record and the reference twin, stepped together by the
    conformance check's move-by-move comparison (``simulate.conformance.compare_moves``); a game's
    :meth:`GameShell.new_twin` builds it at a setup.

    ``record`` is the kernel's game as a batch of one record, ``reference`` the reference engine's game. The views
    compare field by field (arrays or plain values); by default the kernel's view is the record's fields that the
    reference's ``to_arrays()`` names, and the legal moves are the reference's ``legal_actions()`` keys."""

    def __init__(self, record: np.ndarray, reference: Any) -> None:
        self.record, self.reference = record, reference

    def reference_view(self) -> dict[str, Any]:
        """The reference position, field -> value, in the kernel view's layout."""
        return self.reference.to_arrays()

    def kernel_view(self) -> dict[str, Any]:
        """The kernel position in the reference view's layout."""
        return {name: self.record[0][name] for name in self.reference.to_arrays()}

    def reference_legal(self) -> list:
        """Keys of the reference's legal moves (compared as a set with :meth:`kernel_legal`)."""
        return list(self.reference.legal_actions())

    @abstractmethod
    def kernel_legal(self) -> list:
        """Keys of the kernel's legal moves, in the form :meth:`reference_legal` gives them."""

    @abstractmethod
    def accepts(self, move: Any) -> bool:
        """Whether the reference counts ``move`` (a kernel move record) among its legal moves here."""

    @abstractmethod
    def kernel_step(self, move: Any) -> bool:
        """Play ``move`` in the kernel's record; False when the kernel refuses it."""

    def step(self, move: Any) -> bool:
        """Play ``move`` in both engines; False (and the reference not stepped) when the kernel refuses it."""
        if not self.kernel_step(move):
            return False
        self.reference.apply_action(move)
        return True

    def over(self) -> bool:
        """The reference's game is over."""
        return bool(self.reference.is_terminal())

    def invariants(self) -> list[str]:
        """What the kernel's position breaks of the game's invariants (conservation of cards and tokens, limits),
        one line each; the conformance check asks wherever it compares positions. A game lists its own; none by
        default."""
        return []

    def hidden_variant(self, rng: np.random.Generator) -> np.ndarray | None:
        """A copy of the kernel's record (a batch of one) in which what the seat to move cannot see is dealt anew
        from ``rng`` (the unseen cards' places, the streams that deal them) and all it sees is as it was, its own
        randomness included: a bot's move must be the same in both (the conformance check's ``hidden``). None: the
        game deals no seat its own cards, and two games of one public opening test the same (the default)."""
        return None

    @abstractmethod
    def seat_view(self, seat: int) -> Any:
        """Everything ``seat`` sees of the reference's position (the public position, its own hidden cards and its
        legal moves), comparable with ``==``: a bot's move may depend on this and its own randomness only."""


class GameShell(ABC):
    """The common part of every game's ``GAME`` (``simulate.game.Game``): its declared facts (``info``), its data
    folder (``seeds/<name>/``) and playing time, the replay page over the game's own :meth:`play_chunk` and
    :meth:`replay` (which take the lineup as one ``simulate.game.Lineup``), and the bench's replay timings written once
    over three hooks.

    A game sets ``trace_game`` (``play.trace_game``: one game's move records), ``replay_moves`` (``play.replay_moves``:
    the numba engine applying recorded moves; None when the game has none), ``data_module`` (its data module, whose
    ``load`` and ``RULE_OPTIONS`` give :meth:`load_data` and :meth:`rule_options`), ``reference_class`` (its
    reference engine, built by :meth:`new_reference` in the starting position of a setup seed, taking the kernel's
    move records) and ``twin_class`` (both engines at a game's start, built by :meth:`new_twin` for the conformance
    check's move-by-move comparison); a game whose engines or data are built otherwise overrides those methods."""

    info: GameInfo
    """The game's declared record (``simulate.game.GameInfo``): every fact is read here (``game.info.min_players``)."""
    data_module: ModuleType
    """The game's data module: ``load(folder=None, rules=None)`` and ``RULE_OPTIONS`` (``rule_options``)."""
    reference_class: Callable[[Any, int, int], Any]
    """The reference engine: ``reference_class(data, num_players, setup_seed)``."""
    twin_class: Callable[[Any, int, int, int], Twin]
    """Both engines: ``twin_class(data, num_players, setup_seed, play_seed)`` (:class:`Twin`)."""
    trace_game: Callable | None = None
    replay_moves: Callable | None = None
    random_move: Callable[[Any, np.random.Generator], Any] | None = None
    """The reference engine's uniform random player, the Python twin of the kernel's ``random`` bot, a method of the
    game: ``random_move(ref, rng)`` is the move it plays in reference game ``ref``, drawn from ``rng``, for
    :meth:`reference_random_seconds`; None: the bench plays no random games on the reference."""
    decide_moves: Callable | None = None
    """``play.decide_moves``: the moves the seats to move pick at given records (``simulate.play.decide``), for the
    no-peeking check at a position (:meth:`Twin.hidden_variant`); None in a game whose hidden order deals no seat
    its own cards (there two games of one public opening show the same to a seat, and the check compares those)."""

    def data_dir(self) -> Path:
        """The folder of the game's shipped data (``seeds/<name>``, installed as ``simulate/seeds/<name>``)."""
        return default_dir(self.info.name)

    def playing_time(self) -> dict[str, Any] | None:
        """The box's minutes and the estimated pace from ``playing_time.toml`` in :meth:`data_dir` (``Game``)."""
        return read_playing_time(self.data_dir())

    def component_table(self, data: Any) -> list[dict[str, Any]] | None:
        """Every component a value design can value (``Game``); None: the game has no value design yet."""
        return None

    def rule_options(self) -> dict[str, RuleOption]:
        """The rule options of ``data_module.RULE_OPTIONS``, the shipped data's values as defaults (``Game``)."""
        return rule_options(self.data_module.RULE_OPTIONS, self.data_module.load().rules)

    def load_data(self, folder: Path | None, rules: dict[str, Any]) -> Any:
        """``data_module.load``: the data of ``folder`` (None: the shipped data) with ``rules`` on top (``Game``)."""
        return self.data_module.load(folder, rules)

    @abstractmethod
    def play_chunk(
        self, data: Any, lineup: Lineup, threads: int = 1, check_moves: bool = False, trajectories: bool = False
    ) -> ChunkTables:
        """``Game.play_chunk``: one game per seed pair of ``lineup``; every game supplies it (a game class without it
        cannot be made)."""

    @abstractmethod
    def replay(self, data: Any, lineup: Lineup, labels: list[str], states: bool = False) -> list[dict[str, Any]]:
        """``Game.replay``: the events of the one game of ``lineup``; every game supplies it."""

    def replay_view(self, data: Any, lineup: Lineup, labels: list[str], explain: bool = False) -> dict[str, Any]:
        """What a replay page shows of one game (``Game``): the game's own ``page`` package draws it
        (``simulate/games/<game>/page/``, a subfolder, so that editing the picture never recompiles the game's
        kernels, whose cache key covers the package's own files); a game without one shows each position's numbers
        as counters and events without a position as automatic steps."""
        played = ReplayedGame(data, lineup, labels)
        events = self.replay(data, lineup, labels, states=True)
        package = type(self).__module__.rpartition(".")[0]
        if package and importlib.util.find_spec(f"{package}.page") is not None:
            return importlib.import_module(f"{package}.page").replay_view(self, played, events, explain=explain)
        return build_view(
            events,
            {},
            plain_scene,
            [f"seat {k + 1}" for k in range(lineup.num_players)],
            narrate=lambda e: (e["event"], e.get("text", "")),
        )

    def new_reference(self, data: Any, num_players: int, setup_seed: int) -> Any:
        """The reference engine's game of ``setup_seed`` in its starting position (``apply_action`` takes the
        kernel's move records)."""
        return self.reference_class(data, num_players, setup_seed)

    def new_twin(self, data: Any, num_players: int, setup_seed: int, play_seed: int) -> Twin:
        """The game of these seeds in both engines at its start (:class:`Twin`), for the move-by-move check."""
        return self.twin_class(data, num_players, setup_seed, play_seed)

    def reference_replay_seconds(self, data: Any, lineup: Lineup) -> tuple[float, int]:
        """Seconds the reference engine takes to replay the kernel-played games of ``lineup``, and their moves."""
        traces = kernel_traces(self.trace_game, data, lineup)
        n = lineup.num_players
        return time_reference_replay(lambda seed: self.new_reference(data, n, seed), lineup.setup_seeds, traces)

    def kernel_replay_seconds(self, data: Any, lineup: Lineup) -> tuple[float, int] | None:
        """Seconds the numba engine takes to apply the same recorded moves as the reference, and the moves; None
        for a game without ``replay_moves``."""
        if self.replay_moves is None:
            return None
        traces = kernel_traces(self.trace_game, data, lineup)
        n, setup, play = lineup.num_players, lineup.setup_seeds, lineup.play_seeds
        return time_kernel_replay(self.replay_moves, data, n, setup, play, traces)

    def reference_random_seconds(
        self, data: Any, num_players: int, setup_seeds: np.ndarray, play_seeds: np.ndarray
    ) -> tuple[float, int] | None:
        """Seconds and moves of whole games the reference engine plays with its uniform random player
        (:attr:`random_move`, game g's draws from ``play_seeds[g]``); None for a game without one."""
        if self.random_move is None:
            return None
        start = time.perf_counter()
        moves = 0
        for s, p in zip(setup_seeds, play_seeds, strict=True):
            rng = np.random.default_rng(int(p))
            ref = self.new_reference(data, num_players, int(s))
            while not ref.is_terminal():
                ref.apply_action(self.random_move(ref, rng))
                moves += 1
        return time.perf_counter() - start, moves

    search_bench: SearchBench | None = None
    """The positions and kernel :meth:`search_rates` times; None for a game without a search bot."""

    def bench_positions(self, data: Any, bench: SearchBench, num_positions: int) -> np.ndarray:
        """The kernel's records of ``bench``'s ``num_positions`` positions (:class:`SearchBench`)."""
        n = self.info.bench_players
        spec = self.info.bots[bench.bot]
        row = np.zeros(self.info.max_bot_params)
        row[: len(spec.params)] = [default for default, _ in spec.params.values()]
        games = np.arange(num_positions)
        lineup = Lineup.in_order(n, np.full(n, spec.bot_id), np.stack([row] * n), *game_seeds(bench.seed, games, games))
        records = []
        for g in games:
            one = lineup.game(g)
            moves, _ = self.trace_game(data, *one)
            twin = self.new_twin(data, n, int(one.setup_seeds), int(one.play_seeds))
            for mv in moves[: bench.depth(g, len(moves))]:
                twin.kernel_step(mv)
            records.append(twin.record)
        return np.concatenate(records)

    def search_rates(self, data: Any, params: np.ndarray, num_positions: int, repeats: int) -> dict[str, float] | None:
        """One core's search rates (``golem bench``) from :attr:`search_bench`'s positions: searches and bare rollouts
        (the same iterations without the tree) from the same positions (:func:`time_search`); None for a game
        without a search bot."""
        bench = self.search_bench
        if bench is None:
            return None
        st = self.bench_positions(data, bench, num_positions)
        tree, scratch = bench.new_search(st, int(params[0]))
        return time_search(bench.search_positions, st, data.kernel[0], params, tree, scratch, repeats)


TRAJECTORY_DTYPE = np.int32
"""Type of a trajectory point (a seat's score at a round's end) in the kernels and the run format."""


def new_trajectories(num_games: int, max_points: int, num_players: int) -> tuple[np.ndarray, np.ndarray]:
    """The arrays a game loop fills with trajectories: ``points`` (G, max_points, n) and ``count`` (G,) int32.

    A loop that records trajectories writes seat s's score at the end of game g's k-th round to
    ``points[g, k, s]`` and counts the rounds in ``count[g]`` (never past ``max_points``); ``new_trajectories(0, 0,
    0)`` is the empty pair a loop takes when it records none.
    """
    return np.zeros((num_games, max_points, num_players), TRAJECTORY_DTYPE), np.zeros(num_games, np.int32)


NO_POINTS = new_trajectories(0, 0, 0)
"""The empty trajectory arrays of a game loop that records none."""


def trajectory_lists(points: np.ndarray, count: np.ndarray) -> Lists:
    """Trajectories as one list per seat row (game-major, then seat, as the seats table): row g*n + s holds
    ``points[g, :count[g], s]``."""
    g, r, n = points.shape
    lengths = np.repeat(count.astype(np.int64), n)
    offsets = np.zeros(g * n + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    kept = np.arange(r)[None, None, :] < count[:, None, None]
    return Lists(offsets, points.transpose(0, 2, 1)[np.broadcast_to(kept, (g, n, r))])
