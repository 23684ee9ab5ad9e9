"""One conformance check for every game: what the shared runner, run format, replay and reports rely on, checked
the same way for each registered game (Pgx's ``api_test``, OpenSpiel's ``games_sim_test``).

``check_game(name)`` runs every check and raises :class:`ConformanceError` listing each failure; a game's own tests
call it in one line and ``tests/test_conformance.py`` runs it over the registry, so a new game is covered by its
registry line. The checks:

- ``data``: the game's data is packaged: its ``data_files`` are in ``seeds/<name>/`` (installed as
  ``simulate/seeds/<name>``), each of a kind the package ships, and the game reads it from there;
- ``declarations``: the game's declared facts agree with each other (player counts, default lineup, skill ladder
  and bench lineups parse, profile columns, outcome, rule options' defaults among their choices, play version);
- ``tables``: at every player count a chunk has one row per game (per seat) in every declared column, ranks in
  1..n, a win share per seat between 0 and 1 that sums to 1 over a game's seats (solo: 0, ½ or 1); with
  trajectories the same games, one trajectory per seat, its last point the seat's final score;
- ``determinism``: the same seeds give the same tables twice, and with two threads as with one;
- ``bots``: every bot, with search budgets cut to their lowest, plays legal moves (games checked move by move end
  by the rules, never by an illegal move or the turn cap);
- ``moves``: the kernel and the reference engine agree on every move (``compare_moves``): the same position field by
  field at the setup and after every move, the same legal moves, and every played move legal, over games of every
  bot at every player count;
- ``hidden``: no bot peeks, for every bot: two games of one public opening over two hidden orders
  (``simulate.rng.game_seeds`` with two orders per opening) and one play seed are played move for move alike while
  the seat to move sees the same (its ``Twin.seat_view``: the public position, its own hidden cards, its legal
  moves). A game whose hidden order deals the seats their own cards (golem-poker's hands, Golem's Objectives)
  never looks alike to a seat in two orders; it is checked at positions instead: at points of a game the bot
  picks its move in the position and in a copy where what the seat to move cannot see is dealt anew
  (``Twin.hidden_variant``, played by the game's ``decide_moves``), and the two must be the same;
- ``replay``: the reference engine, replaying the kernel's moves, reaches the kernel's scores, ranks and wins, and
  every replay event formats as text;
- ``position``: at every player count, ``replay(states=True)`` gives every event a ``state`` of the declared shape
  (``GameInfo.position``: the board's and each seat's fields) but those it declares ``without_state``, and each
  state prints as ``golem replay --state`` prints it;
- ``page``: the replay page's view (``replay_view``, what ``golem replay --html`` draws) has a step per position,
  each with a scene and a position of every seat, the board and the seats' fields as the template reads them;
- ``study``: the game declares its standard study (``GameInfo.study``) and each of its runs plays: its lineup at its
  player count under its rules, ``games`` games, with every table the right length; the ladder's bots are rungs of
  the skill ladder and the player counts the game's (``golem study`` plans and plays it, ``tests/test_toy_game.py``);
- ``timing``: the bench hooks time the reference (and, where the game has one, the kernel) replaying moves;
- ``adaptation``: the strong players see the game's planted card edits (``simulate.adaptation``: a card made
  stronger, useless, cheaper or dearer is taken more or less often, against the strongest heuristic and in mirror
  games); nothing to compare in a game that declares none. It plays its own fixed games, not ``games``.

A check that finds a part missing (no study, a state without the declared fields) fails with a line naming it. The
checks need only the shared surface (``simulate.game.Game``). A game's own differential tests call
:func:`compare_moves` over more games, rule options and its own invariants.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from simulate.adaptation import check_adaptation
from simulate.datafiles import PACKAGE_DATA, DataError, default_dir
from simulate.game import Codes, Game, Lineup, Lists
from simulate.lineup import BotEntry, LineupError, lineup_arrays, parse_lineup
from simulate.registry import make
from simulate.rng import game_seeds
from simulate.runformat import FAULT_END_REASONS
from simulate.runner import RunSpec, plan_games
from simulate.viewkit import format_state

CHECKS = (
    "declarations",
    "data",
    "tables",
    "determinism",
    "bots",
    "moves",
    "hidden",
    "replay",
    "position",
    "page",
    "study",
    "timing",
    "adaptation",
)
SEED = 20261204


class ConformanceError(AssertionError):
    """A game that breaks the shared surface; the message lists every failed check."""


def check_game(name: str, games: int = 6, seed: int = SEED, checks: tuple[str, ...] = CHECKS) -> tuple[str, ...]:
    """Run ``checks`` on game ``name`` with ``games`` games per check and player count; return the checks passed
    (all of ``checks`` but one that found nothing to compare in this game).

    Raises :class:`ConformanceError` naming every failure (all checks run before it is raised)."""
    unknown = sorted(set(checks) - set(CHECKS))
    if unknown:
        raise ValueError(f"unknown conformance checks {unknown}; the checks are {list(CHECKS)}")
    game = make(name)
    data = game.load_data(None, {})
    runs: dict[str, Callable[[], list[str] | None]] = {
        "declarations": lambda: _declarations(game, name),
        "data": lambda: _data(game, name),
        "tables": lambda: _tables(game, data, games, seed),
        "determinism": lambda: _determinism(game, data, games, seed),
        "bots": lambda: _bots(game, data, games, seed),
        "moves": lambda: _moves(game, data, games, seed),
        "hidden": lambda: _hidden(game, data, games, seed),
        "replay": lambda: _replay(game, data, seed),
        "position": lambda: _position(game, data, seed),
        "page": lambda: _page(game, data, seed),
        "study": lambda: _study(game, name, games, seed),
        "timing": lambda: _timing(game, data, seed),
        "adaptation": lambda: check_adaptation(game),
    }
    results = {check: runs[check]() for check in checks}
    failures = [f"{name} {check}: {problem}" for check, found in results.items() for problem in found or []]
    if failures:
        raise ConformanceError("\n".join(failures))
    return tuple(check for check, found in results.items() if found is not None)


def compare_moves(
    twin: Any,
    moves: Iterable,
    where: str = "",
    legal_every: int = 1,
    view_every: int = 1,
    after: Callable[[Any], None] | None = None,
) -> int:
    """Step ``twin`` (a game's ``new_twin``: both engines at the setup) through ``moves``, comparing the two engines'
    positions and checking the game's invariants (``twin.invariants()``) at the setup and every ``view_every``
    moves (and after the last), their legal moves every ``legal_every`` moves, and that each move is legal in both;
    ``after(twin)`` runs after every move (a test's own checks). Returns the number of moves played.

    Raises :class:`ConformanceError` naming the move and the fields that differ."""
    _same_position(twin, f"{where} setup")
    if broken := twin.invariants():
        raise ConformanceError(f"{where} setup: invariants broken: {'; '.join(broken)}")
    t = -1
    for t, mv in enumerate(moves):
        at = f"{where} move {t}"
        if t % legal_every == 0:
            kernel, reference = _keys(twin.kernel_legal()), _keys(twin.reference_legal())
            if kernel != reference:
                raise ConformanceError(
                    f"{at}: legal moves differ: kernel only {sorted(kernel - reference)[:5]}, "
                    f"reference only {sorted(reference - kernel)[:5]}"
                )
        if not twin.accepts(mv):
            raise ConformanceError(f"{at}: the reference refuses the kernel's move {_text(mv)}")
        if not twin.step(mv):
            raise ConformanceError(f"{at}: the kernel refuses its own move {_text(mv)}")
        if (t + 1) % view_every == 0:
            _same_position(twin, at)
            if broken := twin.invariants():
                raise ConformanceError(f"{at}: invariants broken: {'; '.join(broken)}")
        if after is not None:
            after(twin)
    _same_position(twin, f"{where} end")
    if broken := twin.invariants():
        raise ConformanceError(f"{where} end: invariants broken: {'; '.join(broken)}")
    return t + 1


def _keys(moves: Iterable) -> set:
    return {repr(k) for k in moves}


def _text(move: Any) -> str:
    return str(np.asarray(move).tolist())


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray | np.generic) or isinstance(b, np.ndarray | np.generic):
        return np.array_equal(np.asarray(a), np.asarray(b))
    return a == b


def _same_position(twin: Any, where: str) -> None:
    kernel, reference = twin.kernel_view(), twin.reference_view()
    if kernel.keys() != reference.keys():
        raise ConformanceError(
            f"{where}: the views name different fields: kernel only {sorted(kernel.keys() - reference.keys())}, "
            f"reference only {sorted(reference.keys() - kernel.keys())}"
        )
    bad = [name for name in reference if not _equal(kernel[name], reference[name])]
    if bad:
        shown = "; ".join(f"{n}: kernel {_short(kernel[n])} reference {_short(reference[n])}" for n in bad[:3])
        raise ConformanceError(f"{where}: fields {bad} differ ({shown})")


def _short(value: Any) -> str:
    text = str(np.asarray(value).tolist() if isinstance(value, np.ndarray | np.generic) else value)
    return text if len(text) <= 120 else text[:117] + "..."


def _lineup(game: Game, specs: list[str], n: int) -> list[BotEntry]:
    return parse_lineup(game, specs, n)


def _play(game: Game, data, n: int, lineup: list[BotEntry], games: int, seed: int, **kw):
    plan = plan_games(RunSpec(game.info.name, n, games, seed, lineup), 0, games)
    return game.play_chunk(data, plan.lineup(n, *lineup_arrays(game, lineup)), **kw), plan


def _values(column) -> np.ndarray:
    if isinstance(column, Codes):
        return np.asarray(column.codes)
    if isinstance(column, Lists):
        return np.concatenate([np.asarray(column.offsets, np.int64), _values(column.values).astype(np.int64)])
    return np.asarray(column)


def _rows(column) -> int:
    return len(column.offsets) - 1 if isinstance(column, Lists) else len(_values(column))


def _declarations(game: Game, name: str) -> list[str]:
    info, problems = game.info, []
    if info.name != name:
        problems.append(f"GAME.info.name is {info.name!r}, registered as {name!r}")
    if not 1 <= info.min_players <= info.max_players:
        problems.append(f"player counts {info.min_players}-{info.max_players}")
    if not 1 <= info.play_version <= info.version:
        problems.append(f"play_version {info.play_version} not in 1..version {info.version}")
    if info.outcome not in ("win", "score"):
        problems.append(f"outcome {info.outcome!r} is neither 'win' nor 'score'")
    if info.outcome == "score" and not info.outcome_precision:
        problems.append("a 'score' outcome needs outcome_precision")
    if not set(info.profile_forced) <= set(info.profile_columns):
        problems.append(f"profile_forced {sorted(set(info.profile_forced) - set(info.profile_columns))} not profiled")
    if not set(info.design_measures) <= set(info.report_metrics):
        problems.append(f"design_measures {sorted(set(info.design_measures) - set(info.report_metrics))} unknown")
    if not info.min_players <= info.bench_players <= info.max_players:
        problems.append(f"bench_players {info.bench_players} outside the player counts")
    n = max(info.min_players, min(2, info.max_players))
    unnamed = [b for b in info.skill_ladder if b not in info.bot_names]
    if info.skill_ladder and unnamed:
        problems.append(f"bot_names lack the ladder's {unnamed}: the report's first screen names every rung")
    specs = [info.default_bots, *info.skill_ladder, *info.bench_lineups, *info.bot_names]
    for spec in specs:
        try:
            _lineup(game, spec.split(","), info.bench_players if spec in info.bench_lineups else n)
        except LineupError as e:
            problems.append(f"lineup {spec!r}: {e}")
    for option in game.rule_options().values():
        listed = isinstance(option.default, str | bool)  # numeric options describe their range in words
        if listed and option.default not in option.choices:
            problems.append(f"rule option {option.name}: default {option.default!r} not among {option.choices}")
    if info.apprentice is not None:
        counts = [c for c in info.apprentice.player_counts if not info.min_players <= c <= info.max_players]
        if counts:
            problems.append(f"apprentice player counts {counts} outside the game's")
    try:
        game.playing_time()
    except DataError as e:
        problems.append(f"playing time: {e}")
    return problems


def _data(game: Game, name: str) -> list[str]:
    info, folder, packaged = game.info, game.data_dir(), default_dir(name)
    if not info.data_files:
        return ["declares no data_files: the rules' defaults at least ship as seeds/<name>/game.toml"]
    problems = []
    if Path(folder).resolve() != packaged.resolve():
        problems.append(
            f"the data folder is {folder}, not the packaged seeds/{name}/ (drop the data_dir override and move the "
            "files there: docs/adding-a-game.md)"
        )
    for file in info.data_files:
        if not (packaged / file).is_file():
            problems.append(f"data file seeds/{name}/{file} is missing")
        if not any(fnmatch.fnmatch(file, pattern) for pattern in PACKAGE_DATA):
            problems.append(f"data file {file} is not of a kind the package ships ({', '.join(PACKAGE_DATA)})")
    return problems


def _tables(game: Game, data, games: int, seed: int) -> list[str]:
    problems = []
    for n in range(game.info.min_players, game.info.max_players + 1):
        lineup = _lineup(game, [game.info.default_bots], n)
        tables, _ = _play(game, data, n, lineup, games, seed)
        for table, columns, rows in (
            ("games", ("turns", "rounds", "end_reason", *game.info.game_columns, *game.info.setup_columns), games),
            (
                "seats",
                ("score", "rank", "win", *game.info.score_parts, *game.info.seat_columns, *game.info.profile_columns),
                games * n,
            ),
        ):
            got = getattr(tables, table)
            missing = [c for c in columns if c not in got]
            if missing:
                problems.append(f"{n} players: {table} lack {missing}")
            wrong = [c for c, v in got.items() if _rows(v) != rows]
            if wrong:
                problems.append(f"{n} players: {table} columns {wrong} have not {rows} rows")
        problems += _trajectories(game, data, n, lineup, games, seed, tables)
        seats = tables.seats
        if "rank" in seats and "win" in seats:
            rank = np.asarray(seats["rank"]).reshape(games, n)
            win = np.asarray(seats["win"], np.float64).reshape(games, n)
            if (rank < 1).any() or (rank > max(n, 2)).any():
                problems.append(f"{n} players: ranks outside 1..{max(n, 2)}")
            if (win < 0).any() or (win > 1).any():
                problems.append(f"{n} players: win shares outside 0..1")
            if n == 1 and not np.isin(win, (0.0, 0.5, 1.0)).all():
                problems.append("solo: a win is 0, 0.5 or 1")
            if n > 1 and not np.allclose(win.sum(axis=1), 1.0):
                problems.append(f"{n} players: a game's win shares do not sum to 1")
    return problems


def _trajectories(game: Game, data, n: int, lineup: list[BotEntry], games: int, seed: int, plain) -> list[str]:
    """With trajectories the games play the same, and each seat's last point is its final score (in games the rules
    ended)."""
    tables, _ = _play(game, data, n, lineup, games, seed, trajectories=True)
    paths = tables.trajectories
    if paths is None:
        return [f"{n} players: no trajectories when asked for"]
    problems = []
    if differ := _same(plain, tables):
        problems.append(f"{n} players: trajectories change the games ({differ[:5]})")
    offsets, points = np.asarray(paths.offsets), np.asarray(paths.values)
    if len(offsets) != games * n + 1:
        problems.append(f"{n} players: {len(offsets) - 1} trajectories for {games * n} seats")
        return problems
    end = tables.games["end_reason"]
    ended = np.repeat([end.categories[c] == "rules" for c in np.asarray(end.codes)], n)
    score = np.asarray(tables.seats["score"])
    empty = offsets[1:] == offsets[:-1]
    last = np.where(empty, np.iinfo(np.int64).min, points[np.maximum(offsets[1:] - 1, 0)] if len(points) else 0)
    if (last[ended] != score[ended]).any():
        problems.append(f"{n} players: a seat's last trajectory point is not its final score")
    return problems


def _same(a, b) -> list[str]:
    differ = []
    for table in ("games", "seats", "components"):
        x, y = getattr(a, table), getattr(b, table)
        differ += [f"{table}.{c}" for c in x if c not in y or not np.array_equal(_values(x[c]), _values(y[c]))]
    return differ


def _determinism(game: Game, data, games: int, seed: int) -> list[str]:
    n = game.info.bench_players
    lineup = _lineup(game, [game.info.default_bots], n)
    first, _ = _play(game, data, n, lineup, games, seed)
    again, _ = _play(game, data, n, lineup, games, seed)
    threaded, _ = _play(game, data, n, lineup, games, seed, threads=2)
    problems = []
    if differ := _same(first, again):
        problems.append(f"the same seeds played twice differ in {differ[:5]}")
    if differ := _same(first, threaded):
        problems.append(f"two threads differ from one in {differ[:5]}")
    return problems


def _cheapest(game: Game, bot: str) -> str:
    """``bot`` with every budget parameter (iterations, rollouts, samples...) at its lowest accepted value."""
    spec = game.info.bots[bot]
    cuts = [
        f"{k}={spec.limits[k][0]:g}"
        for k in spec.params
        if k in spec.whole and any(word in k for word in ("iteration", "rollout", "sample", "candidate"))
    ]
    return ":".join([bot, *cuts])


def _bots(game: Game, data, games: int, seed: int) -> list[str]:
    problems = []
    n = game.info.bench_players
    for bot in game.info.bots:
        lineup = _lineup(game, [_cheapest(game, bot)], n)
        tables, _ = _play(game, data, n, lineup, games, seed, check_moves=True)
        end = tables.games["end_reason"]
        reasons = [end.categories[c] for c in np.asarray(end.codes)]
        faults = sorted({r for r in reasons if r in FAULT_END_REASONS})
        if faults:
            problems.append(f"bot {bot}: games ended by {faults}")
    return problems


def _moves(game: Game, data, games: int, seed: int) -> list[str]:
    """Games of the default lineup at every player count, and one of every bot (budgets cut) at the bench's count,
    played by the kernel and replayed move by move in both engines."""
    cases = [(n, game.info.default_bots, games) for n in range(game.info.min_players, game.info.max_players + 1)]
    cases += [(game.info.bench_players, _cheapest(game, bot), 1) for bot in game.info.bots]
    problems = []
    for n, bots, count in cases:
        lineup = _lineup(game, [bots], n)
        ids, params = lineup_arrays(game, lineup)
        plan = plan_games(RunSpec(game.info.name, n, count, seed, lineup), 0, count)
        for g in range(count):
            setup_seed, play_seed = int(plan.setup_seed[g]), int(plan.play_seed[g])
            moves, _ = game.trace_game(data, n, plan.seat_lineup[g], ids, params, setup_seed, play_seed)
            twin = game.new_twin(data, n, setup_seed, play_seed)
            try:
                compare_moves(twin, moves, f"{n} players, {bots}, game {g}")
            except ConformanceError as e:
                problems.append(str(e))
                continue
            if not twin.over():
                problems.append(f"{n} players, {bots}, game {g}: the reference's game is not over after the moves")
    return problems


def _hidden(game: Game, data, games: int, seed: int) -> list[str] | None:
    """Every bot (budgets cut), ``games`` pairs of games that share their public opening and play seed but not their
    hidden order: while the seat to move sees the same in both, it must make the same move; and, in a game with
    ``decide_moves``, the same move at positions whose unseen cards are dealt anew (:func:`_hidden_positions`).
    None when no bot met a decision it could be compared on: nothing was compared."""
    n = game.info.bench_players
    setup, play = game_seeds(seed, np.arange(2 * games), np.arange(2 * games), orders_per_opening=2)
    problems, compared = [], {}
    for bot in game.info.bots:
        spec = _cheapest(game, bot)
        ids, params = lineup_arrays(game, _lineup(game, [spec], n))
        compared[bot] = 0
        for j in range(games):
            pair = (int(setup[2 * j]), int(setup[2 * j + 1]))
            moves = [game.trace_game(data, n, np.arange(n), ids, params, s, int(play[2 * j]))[0] for s in pair]
            twins = [game.new_twin(data, n, s, int(play[2 * j])) for s in pair]
            for t in range(min(len(moves[0]), len(moves[1]))):
                seat = twins[0].reference.current_player()
                if twins[0].seat_view(seat) != twins[1].seat_view(seat):
                    break  # the hidden orders now show: the seat may see different things
                if not np.array_equal(np.asarray(moves[0][t]), np.asarray(moves[1][t])):
                    problems.append(
                        f"bot {bot}, pair {j}, move {t}: the seat sees the same in both games but moves "
                        f"{_text(moves[0][t])} in one and {_text(moves[1][t])} in the other: it sees hidden cards"
                    )
                    break
                compared[bot] += 1
                for twin, mv in zip(twins, moves, strict=True):
                    twin.step(mv[t])
        if game.decide_moves is not None:
            compared[bot] += _hidden_positions(game, data, n, ids, params, bot, games, seed, problems)
    if not problems and not any(compared.values()):
        return None
    never = [bot for bot, count in compared.items() if count == 0 and not any(f"bot {bot}," in p for p in problems)]
    if never:
        problems.append(f"bots {never}: no decision seen alike in two hidden orders; nothing was compared")
    return problems


POSITIONS = 8
"""Positions a game at which ``_hidden_positions`` deals the unseen cards anew."""


def _hidden_positions(
    game: Game, data, n: int, ids, params, bot: str, games: int, seed: int, problems: list[str]
) -> int:
    """``games`` games of ``bot`` in every seat: at ``POSITIONS`` points of each, the bot's move in the position and
    in its ``hidden_variant`` (what the seat to move cannot see dealt anew) must be the same. Appends a line to
    ``problems`` for each that differs; returns the positions compared."""
    setup, play = game_seeds(seed + 1, np.arange(games), np.arange(games))
    rng = np.random.default_rng(seed)
    seats, compared = np.arange(n), 0
    for j in range(games):
        s, p = int(setup[j]), int(play[j])
        moves = game.trace_game(data, n, seats, ids, params, s, p)[0]
        twin = game.new_twin(data, n, s, p)
        stride = max(1, len(moves) // POSITIONS)
        for t, mv in enumerate(moves):
            if t % stride == 0:
                variant = twin.hidden_variant(rng)
                if variant is None:
                    return compared
                if not _same_record(variant, twin.record):
                    both = np.concatenate([twin.record, variant])
                    picked = game.decide_moves(data, n, seats, ids, params, s, p, both)
                    if not np.array_equal(picked[0], picked[1]):
                        problems.append(
                            f"bot {bot}, game {j}, move {t}: with only what the seat cannot see dealt anew it moves "
                            f"{_text(picked[1])} instead of {_text(picked[0])}: it sees hidden cards"
                        )
                        break
                    compared += 1
            twin.kernel_step(mv)
    return compared


def _same_record(a: np.ndarray, b: np.ndarray) -> bool:
    """Two game records hold the same values in every field (their padding bytes may differ)."""
    return all(np.array_equal(a[f], b[f]) for f in a.dtype.names)


def _replay(game: Game, data, seed: int) -> list[str]:
    problems = []
    n = game.info.bench_players
    lineup = _lineup(game, [game.info.default_bots], n)
    tables, plan = _play(game, data, n, lineup, 2, seed)
    games = plan.lineup(n, *lineup_arrays(game, lineup))
    labels = [e.label for e in lineup]
    score = np.asarray(tables.seats["score"]).reshape(2, n)
    rank = np.asarray(tables.seats["rank"]).reshape(2, n)
    win = np.asarray(tables.seats["win"], np.float64).reshape(2, n)
    for g in range(2):
        events = game.replay(data, games.replayed(g), labels)
        result = events[-1]
        if result.get("event") != "result":
            problems.append(f"game {g}: the last replay event is not the result")
            continue
        if list(result["scores"]) != score[g].tolist():
            problems.append(f"game {g}: reference scores {result['scores']} against the kernel's {score[g].tolist()}")
        if list(result["ranks"]) != rank[g].tolist():
            problems.append(f"game {g}: reference ranks {result['ranks']} against the kernel's {rank[g].tolist()}")
        if not np.allclose(np.asarray(result["wins"], np.float64), win[g]):
            problems.append(f"game {g}: reference wins {result['wins']} against the kernel's {win[g].tolist()}")
        if any(not isinstance(game.format_event(e), str) for e in events):
            problems.append(f"game {g}: an event does not format as text")
    return problems


def _replayed(game: Game, data, n: int, seed: int, states: bool) -> tuple[list[dict[str, Any]], tuple]:
    """The events of one game of the default lineup at ``n`` players, and the arguments of ``replay``."""
    lineup = _lineup(game, [game.info.default_bots], n)
    plan = plan_games(RunSpec(game.info.name, n, 1, seed, lineup), 0, 1)
    labels = [lineup[k].label for k in plan.seat_lineup[0]]
    args = (data, plan.lineup(n, *lineup_arrays(game, lineup)).replayed(0), labels)
    return game.replay(*args, states=states), args


def _position(game: Game, data, seed: int) -> list[str]:
    position = game.info.position
    for n in range(game.info.min_players, game.info.max_players + 1):
        events, _ = _replayed(game, data, n, seed, states=True)
        for k, e in enumerate(events):
            at = f"{n} players, event {k} ({e.get('event')})"
            if "state" not in e:
                if e.get("event") not in position.without_state:
                    return [f"{at} has no state and is not declared without_state {list(position.without_state)}"]
                continue
            if problems := position.problems(e["state"], n):
                return [f"{at}: {p}" for p in problems]
            try:
                format_state(e["state"])
            except (KeyError, TypeError, AttributeError) as err:
                return [f"{at}: the state does not print as golem replay --state prints it ({err!r})"]
    return []


def _page(game: Game, data, seed: int) -> list[str]:
    n = game.info.bench_players
    events, args = _replayed(game, data, n, seed, states=True)
    view = game.replay_view(*args)
    steps, pool = view.get("steps", []), view.get("pool", [])
    positions = sum("state" in e for e in events)
    if len(steps) != positions:
        return [f"the page has {len(steps)} steps for the replay's {positions} positions"]
    if len(view.get("seat_names", [])) != n:
        return [f"the page names {len(view.get('seat_names', []))} seats, the game has {n}"]
    for k, step in enumerate(steps):
        board, seats = pool[step["state"]["board"]], [pool[i] for i in step["state"]["seats"]]
        scene = step["scene"]
        if not isinstance(board, dict) or [s.get("seat") for s in seats] != list(range(1, n + 1)):
            return [f"step {k}: the position's board or seats are not as the page reads them"]
        if len(scene["seats"]) != n or any("areas" not in s for s in scene["seats"]):
            return [f"step {k}: the scene draws {len(scene['seats'])} seats, the game has {n}"]
        if len(step["scores"]) != n:
            return [f"step {k}: {len(step['scores'])} scores for {n} seats"]
    return []


def _study(game: Game, name: str, games: int, seed: int) -> list[str]:
    info, study = game.info, game.info.study
    if study is None:
        return ["declares no standard study (GameInfo.study: simulate.game.Study, docs/adding-a-game.md)"]
    problems = []
    if study.game != name:
        problems.append(f"the study is declared for {study.game!r}")
    counts = {r.num_players for r in study.runs} | set(study.ladder_players) | set(study.value_players)
    if outside := sorted(c for c in counts if not info.min_players <= c <= info.max_players):
        problems.append(f"player counts {outside} outside {info.min_players}-{info.max_players}")
    if strangers := [bot for bot, _ in study.ladder if bot not in info.skill_ladder]:
        problems.append(f"ladder bots {strangers} are not rungs of the skill ladder")
    if not study.runs or sum(r.share for r in study.runs) > 1 + 1e-9 or min(r.share for r in study.runs) <= 0:
        problems.append("the runs' shares of the study's games are not positive with a sum of at most 1")
    if problems:
        return problems
    for r in study.runs:
        try:
            lineup = _lineup(game, list(r.bots), r.num_players)
            data = game.load_data(None, dict(r.rules))
            tables, _ = _play(game, data, r.num_players, lineup, games, seed)
        except (LineupError, DataError) as e:
            problems.append(f"run {r.name}: {e}")
            continue
        if _rows(tables.seats["score"]) != games * r.num_players:
            problems.append(f"run {r.name}: {_rows(tables.seats['score'])} seat rows for {games} games")
    return problems


def _timing(game: Game, data, seed: int) -> list[str]:
    n = game.info.bench_players
    lineup = _lineup(game, [game.info.default_bots], n)
    plan = plan_games(RunSpec(game.info.name, n, 2, seed, lineup), 0, 2)
    games = Lineup.in_order(n, *lineup_arrays(game, lineup), plan.setup_seed, plan.play_seed)
    problems = []
    seconds, moves = game.reference_replay_seconds(data, games)
    if not (seconds > 0 and moves > 0):
        problems.append(f"reference replay timed {seconds} s for {moves} moves")
    kernel = game.kernel_replay_seconds(data, games)
    if kernel is not None and kernel[1] != moves:
        problems.append(f"the kernel replayed {kernel[1]} moves, the reference {moves}")
    return problems
