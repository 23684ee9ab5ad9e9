"""``golem train GAME``: fit a game's apprentice to its search bot by expert iteration.

Iteration 0 plays mirror games of the game's ``teacher`` (its search bot) at every player count of the game's
:class:`simulate.game.ApprenticeSpec`, records after every decision the position from every seat's view and the
seat's final share of the win, and fits one logistic regression per player count (scikit-learn; the features
standardised, the standardisation folded into the weights it writes). Every later iteration plays the
``expert`` (the search with the apprentice's value at its leaves, the weights of the iteration before), and
the apprentice itself (``student``, exploring) against the rival, since a value fitted to the teacher's games
alone never sees the positions its own mistakes lead to (Ross, Gordon and Bagnell 2011, DAgger), and refits on
all positions so far (Anthony, Tian and Barber 2017, "Thinking fast and slow with deep learning and tree
search"). After each fit the apprentice plays the game's ``rival`` (its strongest heuristic bot) and its
``teacher`` (the search) on the same seeds every iteration, seats rotated, and its own mirror games; the weights kept
are those of the strongest iteration against both (:func:`kept_iteration`). A game whose spec
has ``choices`` then refits the weights of its ``policy_counts`` to the teacher's choices (the policy stage: a
conditional logit over the afterstates of each decision's candidate moves, :func:`_fit_policy`).

Everything lands in the output folder: ``positions/`` (one file per iteration and player count), the weights of
every iteration, ``log.csv`` (positions, held-out log loss and accuracy, strength per iteration) and the
result, ``apprentice.csv`` with its provenance ``apprentice.toml``; copy both into a data folder (``--cards``)
or ``seeds/<game>/`` to play with them. A step already on disk is not played again, so an interrupted
training resumes where it stopped (``--resume``), and a fixed ``--seed`` reproduces the weights bit for bit
on the same machine: every game is a pure function of its seeds, and the fit is deterministic.

An *opponent* (``--opponent FILE``: a styles file of one style, such as the ``best_response.toml`` of ``golem
exploit``) joins the training pool, as a policy-space response oracle adds a best response to its population (Lanctot
et al. 2017, PSRO): at the smallest player count, every iteration also plays the teacher against it and (after the
first) the student against it, the opponent in one seat, seats rotated, and the fit learns from those positions too.
The opponent is the style's offsets on the data folder's weights, pinned: as the apprentice is refitted, the opponent
stays the player the exploit search found (it plays as the game's first style, whose offsets each data copy sets to
the pinned weights minus that copy's).
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import multiprocessing
import os
import shutil
import sys
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simulate import __version__
from simulate.apprentice import (
    PROVENANCE_FILE,
    STYLES_FILE,
    WEIGHTS_FILE,
    Style,
    pinned_offsets,
    read_styles,
    read_weights,
    style_names,
    style_weights,
    value_weights,
    weights_text,
)
from simulate.datafiles import DataError, default_dir, sha256
from simulate.game import ApprenticeSpec, Lineup
from simulate.lineup import LineupError, lineup_arrays, parse_lineup, seat_assignment
from simulate.registry import make
from simulate.rng import derive_seed, game_seeds
from simulate.runformat import FAULT_END_REASONS

__all__ = ["STRENGTH_KEYS", "TrainError", "TrainPlan", "kept_iteration", "plan_training", "train"]

HELD_OUT = 0.1
"""Share of each iteration's games whose positions are held out of the fit, to measure it."""
BATCH = 25
"""Games per task of the worker pool."""
_STREAM_TEACHER, _STREAM_STRENGTH, _STREAM_STUDENT, _STREAM_MIRROR = 0x7EAC, 0x57E9, 0x5701, 0x3177
_STREAM_POLICY = 0x9011
_STREAM_OPPONENT = 0x0990
OPPONENT_SHARE = 0.5
"""Games against the opponent (``--opponent``) per teacher game, and per student game."""
POLICY_L2 = 1e-4
"""L2 penalty of the policy fit on the standardised features, per decision (chosen on held-out agreement)."""
MIRROR_GAMES = 200
"""Apprentice mirror games per player count and iteration: the check that its own games end by the rules."""
MAX_ABNORMAL = 0.01
"""Largest share of those games ended by the turn cap for an iteration to be kept."""
STRENGTH_KEYS = ("rival", "teacher")
"""The strength checks of every iteration, by log key: against the game's strongest heuristic bot (``rival``) and
against the search bot it learns from (``teacher``); :func:`kept_iteration` weighs both."""


class TrainError(ValueError):
    """A training that cannot start or continue; the message is one line."""


@dataclass(frozen=True)
class TrainPlan:
    """What a training plays and fits (checked before anything is written)."""

    game: str
    spec: ApprenticeSpec
    data_dir: Path
    rules: dict[str, Any]
    games: int
    iterations: int
    strength_games: int
    seed: int
    workers: int
    out: Path
    overwrite: bool = False
    policy_only: bool = False
    """Only the policy stage, on the data folder's weights (``golem train --policy-only``)."""
    opponent: Style | None = None
    """The opponent in the training pool (``--opponent``; see the module's docstring), and its file."""
    opponent_file: Path | None = None
    counts: tuple[int, ...] = ()
    """The player counts refitted (``--players``), the others' weights kept from the data folder; () for all."""

    @property
    def refitted(self) -> tuple[int, ...]:
        """The player counts whose games the training plays and whose weights it fits."""
        return self.counts or self.spec.player_counts

    @property
    def policy_refitted(self) -> tuple[int, ...]:
        """The counts the policy stage refits: the game's ``policy_counts`` among those refitted."""
        return tuple(n for n in self.spec.policy_counts if not self.counts or n in self.counts)

    @property
    def opponent_players(self) -> int:
        """The player count of the games against the opponent: the smallest refitted (2 or more)."""
        return min((n for n in self.refitted if n >= 2), default=min(self.refitted))

    @property
    def opponent_bot(self) -> str:
        """The bot the opponent plays as: the game's first style, its offsets set by each data copy."""
        return f"apprentice:style={style_names(self.data_dir)[1]}"

    def to_json(self) -> dict[str, Any]:
        return {
            **({"policy_only": True} if self.policy_only else {}),
            **({"opponent": self.opponent._asdict()} if self.opponent is not None else {}),
            **({"refitted_counts": list(self.counts)} if self.counts else {}),
            "game": self.game,
            "data": str(self.data_dir),
            "rules": dict(self.rules),
            "games": self.games,
            "iterations": self.iterations,
            "strength_games": self.strength_games,
            "seed": self.seed,
            "player_counts": list(self.spec.player_counts),
            "teacher": self.spec.teacher,
            "expert": self.spec.expert,
            "rival": self.spec.rival,
            **({"regularization": self.spec.regularization} if self.spec.regularization != 1.0 else {}),
        }


def plan_training(
    game_name: str,
    out: Path,
    *,
    data_dir: Path | None = None,
    rules: dict[str, Any] | None = None,
    games: int | None = None,
    iterations: int | None = None,
    strength_games: int | None = None,
    seed: int = 0,
    workers: int = 1,
    resume: bool = False,
    overwrite: bool = False,
    teacher: str | None = None,
    expert: str | None = None,
    policy_only: bool = False,
    opponent: Path | None = None,
    players: tuple[int, ...] = (),
) -> TrainPlan:
    """Check a training's input, before anything is written; raise :class:`TrainError` naming what is wrong.

    ``teacher`` and ``expert`` replace the game's (``ApprenticeSpec``) bots of iteration 0 and of the later ones.
    ``policy_only`` runs the policy stage alone on the data folder's weights (the other counts keep theirs).
    ``opponent``: a styles file of one style, the opponent in the training pool (see the module's docstring).
    ``players``: the player counts refitted, the others' weights kept from the data folder (() for all).
    """
    game = make(game_name)
    spec: ApprenticeSpec | None = game.info.apprentice
    if spec is None:
        raise TrainError(f"{game_name} has no apprentice to train")
    spec = dataclasses.replace(spec, teacher=teacher or spec.teacher, expert=expert or spec.expert)
    try:
        import sklearn  # noqa: F401
        import tomli_w  # noqa: F401
    except ImportError:
        raise TrainError("golem train needs scikit-learn and tomli-w: pip install 'golem-lab[train]'") from None
    games = spec.games if games is None else games
    iterations = spec.iterations if iterations is None else iterations
    strength_games = spec.strength_games if strength_games is None else strength_games
    if games < 10:
        raise TrainError(f"--games must be at least 10 (games per player count and iteration), not {games:,}")
    if not 1 <= iterations <= 20:
        raise TrainError(f"--iterations must be within 1..20, not {iterations}")
    if strength_games < 0:
        raise TrainError(f"--strength-games must be at least 0, not {strength_games}")
    if not 0 <= seed < 2**63:
        raise TrainError(f"--seed must be within 0..2**63-1, not {seed}")
    if not 1 <= workers <= 64:
        raise TrainError(f"--workers must be within 1..64, not {workers}")
    players = tuple(sorted(set(players)))
    if any(n not in spec.player_counts for n in players):
        wrong = next(n for n in players if n not in spec.player_counts)
        counts = ", ".join(map(str, spec.player_counts))
        raise TrainError(f"--players {wrong}: the {game_name} apprentice has weights for {counts} players")
    if players and policy_only:
        raise TrainError("--players and --policy-only contradict each other: the policy stage refits its own counts")
    if policy_only and (spec.choices is None or not spec.policy_counts):
        raise TrainError(f"{game_name}'s apprentice has no policy stage: train it without --policy-only")
    folder = Path(data_dir) if data_dir is not None else game.data_dir()
    try:
        data = game.load_data(folder, rules or {})
        for bot in (spec.teacher, spec.expert, spec.rival, spec.student, "apprentice"):
            parse_lineup(game, [bot], min(spec.player_counts))
        if policy_only or players:
            read_weights(folder, spec.features, spec.player_counts, game.info.max_players)
        rival = _opponent(game_name, folder, spec, opponent, policy_only) if opponent is not None else None
    except (DataError, LineupError) as e:
        raise TrainError(str(e)) from None
    out = Path(out)
    if resume and overwrite:
        raise TrainError("--resume and --overwrite contradict each other: give one")
    plan = TrainPlan(
        game_name,
        spec,
        folder,
        dict(data.rules),
        games,
        0 if policy_only else iterations,
        strength_games,
        seed,
        workers,
        out,
        overwrite,
        policy_only,
        rival,
        None if opponent is None else Path(opponent),
        players if set(players) != set(spec.player_counts) else (),
    )
    if out.exists() and not out.is_dir():
        raise TrainError(f"{out} is a file, not a folder for the training")
    held = out / "training.json"
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        if not resume:
            raise TrainError(f"{out} is not empty: --resume to finish its training, --overwrite to start afresh")
        if not held.is_file():
            raise TrainError(f"{out} holds no training to resume (no training.json)")
        before = json.loads(held.read_text(encoding="utf-8"))
        now = plan.to_json()
        if before != now:
            changed = ", ".join(sorted(k for k in now if before.get(k) != now[k]))
            raise TrainError(f"{out} holds a training with other settings ({changed}): resume it with those")
    return plan


def _opponent(game_name: str, folder: Path, spec: ApprenticeSpec, path: Path, policy_only: bool) -> Style:
    """The one style of the opponent file ``path``, checked against the apprentice's features; raise
    :class:`TrainError` (or :class:`DataError`) naming what is wrong."""
    path = Path(path)
    if policy_only:
        raise TrainError("--opponent joins the value iterations' games: not with --policy-only")
    if not path.is_file():
        raise TrainError(f"--opponent {path}: no such file (a styles file, e.g. golem exploit's best_response.toml)")
    if not (folder / STYLES_FILE).is_file() or len(style_names(folder)) < 2:
        raise TrainError(f"{game_name}'s apprentice has no strategy style to play an opponent as ({STYLES_FILE})")
    styles = read_styles(path.parent, spec.features, file_name=path.name)
    if len(styles) != 1:
        raise TrainError(f"--opponent {path}: {len(styles)} styles; the opponent is one style")
    return styles[0]


def _pinned_styles(plan: TrainPlan, weights: np.ndarray) -> str:
    """The data folder's ``styles.toml`` with its first style set to play the pinned opponent, on a data copy whose
    apprentice plays ``weights``: the offsets take the copy's weights to the opponent's at ``opponent_players``."""
    import tomli_w

    assert plan.opponent is not None
    spec = plan.spec
    n = plan.opponent_players
    base = read_weights(plan.data_dir, spec.features, spec.player_counts, len(weights) - 1)
    target = style_weights(base, (plan.opponent,), spec.features, spec.player_counts)[1, n]
    styles = tomllib.loads((plan.data_dir / STYLES_FILE).read_text(encoding="utf-8"))
    styles[style_names(plan.data_dir)[1]] = {
        "description": f"the opponent of golem train --opponent ({plan.opponent.name}), its weights pinned",
        "offset": pinned_offsets(target, weights[n], spec.features),
    }
    return tomli_w.dumps(styles)


def _master(seed: int, stream: int, index: int) -> int:
    return int(derive_seed(np.uint64(seed), np.uint64(stream), np.uint64(index)))


def _play_task(task: dict[str, Any]) -> tuple[Any, ...]:
    """A worker's batch: teacher positions (``kind`` "positions") or a strength check's wins (``kind`` "wins")."""
    game = make(task["game"])
    data = game.load_data(Path(task["data"]), task["rules"])
    n = task["players"]
    lineup = parse_lineup(game, task["bots"], n)
    ids, params = lineup_arrays(game, lineup)
    index = np.arange(task["lo"], task["hi"], dtype=np.int64)
    setup, play = game_seeds(task["master"], index, index)
    if task["kind"] == "choices":
        seat_lineup = np.zeros((len(index), n), np.int64)
        ch = game.info.apprentice.choices(data, n, seat_lineup, ids, params, setup, play)
        share = ch.chosen.astype(np.float32) if ch.share is None else ch.share
        return ch.x, ch.decision, ch.chosen, (ch.game + task["lo"]).astype(np.int64), share
    if task["kind"] == "positions":
        seat_lineup = seat_assignment(n, index % n) if len(task["bots"]) > 1 else np.zeros((len(index), n), np.int64)
        pos = game.info.apprentice.positions(data, n, seat_lineup, ids, params, setup, play)
        won = pos.win if pos.ended is None else np.where(pos.ended[:, None], pos.win, 0.0)  # a stall: no winner
        label = won[pos.game, pos.seat].astype(np.float32)
        # each game's wins by table seat and the lineup entry in each seat: the teacher's seat balance, for the log
        return pos.x.astype(np.float32), label, (pos.game + task["lo"]).astype(np.int64), pos.win, seat_lineup
    rotation = index % n
    seat_lineup = seat_assignment(n, rotation) if task["kind"] == "wins" else np.zeros((len(index), n), np.int64)
    tables = game.play_chunk(data, Lineup(n, seat_lineup, ids, params, setup, play))
    if task["kind"] == "mirror":
        reasons = tables.games["end_reason"]
        faults = [k for k, name in enumerate(reasons.categories) if name in FAULT_END_REASONS]
        return (int(np.isin(np.asarray(reasons.codes), faults).sum()),)
    win = np.asarray(tables.seats["win"], np.float64).reshape(len(index), n)
    mine = win[np.arange(len(index))[:, None], np.argwhere(seat_lineup == 0)[:, 1][:, None]].ravel()
    return (mine,)


def _tasks(plan: TrainPlan, kind: str, n: int, bots: list[str], folder: Path, master: int, total: int) -> list[dict]:
    return [
        {
            "kind": kind,
            "game": plan.game,
            "data": str(folder),
            "rules": plan.rules,
            "players": n,
            "bots": bots,
            "master": master,
            "lo": lo,
            "hi": min(lo + BATCH, total),
        }
        for lo in range(0, total, BATCH)
    ]


def _run_tasks(pool: Any, tasks: list[dict], bar: Any) -> list[tuple[Any, ...]]:
    results = []
    for result, task in zip(pool.map(_play_task, tasks), tasks, strict=True):
        results.append(result)
        bar.update(task["hi"] - task["lo"])
    return results


FIT_THREADS = 1
"""BLAS threads of the fit: a sum split over another number of threads rounds otherwise, and the iterations of expert
iteration carry the difference on (1 and 2 threads gave held-out losses 0.59910 and 0.59904 from the same positions),
so the weights are the same on every machine with the same BLAS."""


def _fit(x: np.ndarray, y: np.ndarray, seed: int, c: float = 1.0) -> tuple[np.ndarray, Any]:
    """Logistic regression of the win share on the features: (intercept, weights on the raw features), model."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=FIT_THREADS):
        scaler = StandardScaler().fit(x)
        zz, yy, ww = _as_binary(scaler.transform(x), y)
        model = LogisticRegression(C=c, max_iter=2000, random_state=seed).fit(zz, yy, sample_weight=ww)
    coef = model.coef_[0] / scaler.scale_
    intercept = float(model.intercept_[0] - np.sum(model.coef_[0] * scaler.mean_ / scaler.scale_))
    return np.concatenate([[intercept], coef]), model


def _as_binary(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows, 0/1 labels and weights of win shares ``y``: a shared win (0 < y < 1) is a win weighted y and a loss
    weighted 1 - y, so a classifier's fit and scores see every share."""
    whole = (y == 0.0) | (y == 1.0)
    part = ~whole
    rows = np.concatenate([x[whole], x[part], x[part]])
    labels = np.concatenate([y[whole], np.ones(part.sum()), np.zeros(part.sum())]).astype(np.int8)
    weights = np.concatenate([np.ones(whole.sum()), y[part], 1.0 - y[part]])
    return rows, labels, weights


def _log_loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Held-out log loss, accuracy (the favoured side won) and the constant predictor's log loss."""
    from sklearn.metrics import accuracy_score, log_loss

    if len(y) == 0:
        return math.nan, math.nan, math.nan
    xx, yy, ww = _as_binary(x.astype(np.float64), y)
    p = 1.0 / (1.0 + np.exp(-np.clip(w[0] + xx @ w[1:], -30, 30)))
    loss = log_loss(yy, p, sample_weight=ww, labels=[0, 1])
    acc = accuracy_score(yy, p > 0.5, sample_weight=ww)
    base = log_loss(yy, np.full(len(yy), np.average(yy, weights=ww)), sample_weight=ww, labels=[0, 1])
    return float(loss), float(acc), float(base)


def _wilson(wins: float, n: int) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(wins, n, alpha=0.05, method="wilson")
    return float(lo), float(hi)


def _data_copy(plan: TrainPlan, folder: Path, weights: np.ndarray | None, value: np.ndarray | None = None) -> Path:
    """A copy of the training's data folder whose ``apprentice.csv`` holds ``weights`` (None: as it is) and, for a game
    with a ``value_file``, whose value file holds ``value`` (None: ``weights``, a value fit)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in plan.data_dir.iterdir():
        if path.is_file():
            shutil.copy2(path, folder / path.name)
    spec = plan.spec
    if weights is not None:
        (folder / WEIGHTS_FILE).write_text(weights_text(weights, spec.features, spec.player_counts), encoding="utf-8")
        if spec.value_file:
            v = _kept_value_rows(plan, weights if value is None else value)
            (folder / spec.value_file).write_text(weights_text(v, spec.features, spec.policy_counts), encoding="utf-8")
    if plan.opponent is not None:
        played = read_weights(folder, spec.features, spec.player_counts, make(plan.game).info.max_players)
        (folder / STYLES_FILE).write_text(_pinned_styles(plan, played), encoding="utf-8")
    return folder


def _kept_value_rows(plan: TrainPlan, value: np.ndarray) -> np.ndarray:
    """``value`` with the value rows of the policy counts not refitted (``--players`` without them) read from the
    data folder's value file: their play weights are a policy, so the rows a training carries for them are not a
    value fit."""
    spec = plan.spec
    kept = [n for n in spec.policy_counts if n not in plan.policy_refitted]
    if not kept or plan.policy_only or not (plan.data_dir / spec.value_file).is_file():
        return value
    value = value.copy()
    value[kept] = read_weights(plan.data_dir, spec.features, spec.policy_counts, len(value) - 1, spec.value_file)[kept]
    return value


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def train(plan: TrainPlan, progress: bool = True, say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Play and fit the iterations of ``plan`` (skipping those on disk); write the result; return its summary."""
    from tqdm import tqdm

    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    game = make(plan.game)
    spec = plan.spec
    out = plan.out
    if plan.overwrite and out.is_dir():
        shutil.rmtree(out)  # the input was checked by plan_training
    (out / "positions").mkdir(parents=True, exist_ok=True)
    _write_atomic(out / "training.json", json.dumps(plan.to_json(), indent=2) + "\n")
    started = time.time()
    feature_count = len(spec.features)
    max_players = game.info.max_players
    weights = np.zeros((max_players + 1, feature_count + 1))
    if plan.counts:  # the counts not refitted keep the data folder's weights
        weights = read_weights(plan.data_dir, spec.features, spec.player_counts, max_players)
    log_rows: list[dict[str, Any]] = []
    weights_by_iteration: list[np.ndarray] = []
    best: tuple[int | None, np.ndarray] | None = None
    if plan.policy_only:
        base = read_weights(plan.data_dir, spec.features, spec.player_counts, max_players)
        if spec.value_file and (plan.data_dir / spec.value_file).is_file():  # the value fit the policy came from
            base = value_weights(plan.data_dir, spec.features, spec.policy_counts, max_players, base, spec.value_file)
        best = (None, base)
    smallest = min((n for n in plan.refitted if n >= 2), default=min(plan.refitted))
    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    with ProcessPoolExecutor(max_workers=plan.workers, mp_context=context) as pool:
        for k in range(plan.iterations):
            teacher = spec.teacher if k == 0 else spec.expert
            if k == 0:
                folder = plan.data_dir if plan.opponent is None else _data_copy(plan, out / "data-0", None)
            else:
                folder = _data_copy(plan, out / f"data-{k}", weights)
            for n in plan.refitted:
                path = out / "positions" / f"iteration-{k}-{n}p.npz"
                if not path.is_file():
                    master = _master(plan.seed, _STREAM_TEACHER, 100 * k + n)
                    tasks = _tasks(plan, "positions", n, [teacher], folder, master, plan.games)
                    with tqdm(
                        total=plan.games, unit="game", desc=f"iteration {k}, {n}p, {teacher}", disable=not progress
                    ) as bar:
                        parts = _run_tasks(pool, tasks, bar)
                    _save_positions(path, parts)
                if plan.opponent is not None and n == plan.opponent_players:
                    _opponent_games(plan, pool, k, n, teacher, folder, progress)
                if k > 0 and spec.student_share > 0:
                    _student_games(plan, pool, k, n, folder, progress)
            row: dict[str, Any] = {"iteration": k, "teacher": teacher}
            for n in plan.refitted:
                x_all, y_all, hold_all = [], [], []
                for j in range(k + 1):
                    kinds = ("", "-opponent", "-student", "-student-mirror", "-student-opponent")
                    for name in (f"iteration-{j}-{n}p{x}.npz" for x in kinds):
                        if j > 0 or "student" not in name:
                            d = np.load(out / "positions" / name) if (out / "positions" / name).is_file() else None
                            if d is not None:
                                x_all.append(d["x"])
                                y_all.append(d["y"])
                                hold_all.append((d["game"] % int(1 / HELD_OUT)) == 0)
                x = np.concatenate(x_all)
                y = np.concatenate(y_all).astype(np.float64)
                hold = np.concatenate(hold_all)
                w, _ = _fit(x[~hold], y[~hold], plan.seed, spec.regularization)
                weights[n] = w
                loss, acc, base = _log_loss(w, x[hold], y[hold])
                row[f"positions_{n}p"] = int(len(y))
                row[f"held_out_log_loss_{n}p"] = round(loss, 5)
                row[f"constant_log_loss_{n}p"] = round(base, 5)
                row[f"held_out_accuracy_{n}p"] = round(acc, 4)
            _write_atomic(out / f"weights-{k}.csv", weights_text(weights, spec.features, spec.player_counts))
            folder_k = _data_copy(plan, out / f"data-{k + 1}", weights)
            if plan.strength_games:
                for key, opponent in _strength_opponents(spec):
                    _strength_check(plan, pool, f"iteration {k}", smallest, opponent, key, folder_k, row, progress, say)
            row["mirror_abnormal"] = _mirror_check(plan, pool, k, folder_k, row, progress)
            log_rows.append(row)
            weights_by_iteration.append(weights.copy())
            _write_log(out / "log.csv", log_rows)
    if not plan.policy_only:
        kept_index = kept_iteration(log_rows)
        best = (kept_index, weights_by_iteration[kept_index])
    assert best is not None
    kept, final = best
    strengths = {} if kept is None else log_rows[kept]
    if spec.choices is not None and plan.policy_refitted:
        with ProcessPoolExecutor(max_workers=plan.workers, mp_context=context) as pool:
            final, row = _policy_stage(plan, pool, final, progress, say)
        if row.get("mirror_abnormal", 0.0) <= MAX_ABNORMAL:
            strengths = row
            kept = "policy"
        elif plan.policy_only:
            raise TrainError(
                f"the policy's mirror games stalled (over {MAX_ABNORMAL:.0%} ended by the turn cap): no weights written"
            )
        else:
            final = best[1]
            say("the policy's mirror games stalled: the value weights are kept")
        log_rows.append(row)
        _write_log(out / "log.csv", log_rows)
    _write_atomic(out / WEIGHTS_FILE, weights_text(final, spec.features, spec.player_counts))
    read_weights(out, spec.features, spec.player_counts, max_players)  # what a data folder will read
    if spec.value_file:  # the value fit the policy was refitted from (or the kept weights themselves)
        _write_atomic(
            out / spec.value_file, weights_text(_kept_value_rows(plan, best[1]), spec.features, spec.policy_counts)
        )
        _write_atomic(out / _value_toml(spec.value_file), _value_provenance(plan, game, best[0]))
    summary = {
        "kept_iteration": kept,
        "value_iteration": best[0],
        **{f"strength_vs_{key}": strengths.get(f"strength_vs_{key}", math.nan) for key in STRENGTH_KEYS},
        "seconds": round(time.time() - started, 1),
        "weights_sha256": sha256(out / WEIGHTS_FILE),
    }
    _write_atomic(out / PROVENANCE_FILE, _provenance(plan, game, log_rows, summary))
    return {**summary, "log": log_rows}


def _policy_stage(
    plan: TrainPlan, pool: Any, weights: np.ndarray, progress: bool, say: Callable[[str], None]
) -> tuple[np.ndarray, dict[str, Any]]:
    """The policy stage: ``games`` teacher mirror games per count of ``policy_counts``, the weights of those counts
    refitted to the teacher's choices (:func:`_fit_policy`); the new weights and their log row (held-out agreement
    and log loss against the uniform choice's, strength against the rival, mirror games)."""
    from tqdm import tqdm

    spec = plan.spec
    out = plan.out
    value = weights
    weights = weights.copy()
    row: dict[str, Any] = {"iteration": "policy", "teacher": spec.teacher}
    for n in plan.policy_refitted:
        path = out / "positions" / f"policy-{n}p.npz"
        if not path.is_file():
            master = _master(plan.seed, _STREAM_POLICY, n)
            tasks = _tasks(plan, "choices", n, [spec.teacher], plan.data_dir, master, plan.games)
            with tqdm(total=plan.games, unit="game", desc=f"policy, {n}p, {spec.teacher}", disable=not progress) as bar:
                parts = _run_tasks(pool, tasks, bar)
            offsets = np.cumsum([0] + [int(p[1].max()) + 1 if len(p[1]) else 0 for p in parts])
            tmp = path.with_name(path.stem + ".tmp.npz")
            np.savez(
                tmp,
                x=np.concatenate([p[0] for p in parts]),
                decision=np.concatenate([p[1] + offsets[k] for k, p in enumerate(parts)]),
                chosen=np.concatenate([p[2] for p in parts]),
                game=np.concatenate([p[3] for p in parts]),
                share=np.concatenate([p[4] for p in parts]),
            )
            os.replace(tmp, path)
        d = np.load(path)
        hold = (d["game"] % int(1 / HELD_OUT)) == 0
        w, fit = _fit_policy(d["x"], d["decision"], d["chosen"], hold, d["share"] if "share" in d else None)
        weights[n] = w
        row[f"decisions_{n}p"] = int(d["chosen"].sum())
        row[f"choice_log_loss_{n}p"] = round(fit["log_loss"], 5)
        row[f"uniform_choice_log_loss_{n}p"] = round(fit["uniform_log_loss"], 5)
        row[f"held_out_agreement_{n}p"] = round(fit["agreement"], 4)
        say(
            f"policy, {n} players: the apprentice picks the {spec.teacher}'s move in {100 * fit['agreement']:.1f}% of "
            f"held-out decisions"
        )
    folder = _data_copy(plan, out / "data-policy", weights, value)
    if plan.strength_games:
        for key, opponent in _strength_opponents(spec):
            _strength_check(plan, pool, "policy", min(plan.policy_refitted), opponent, key, folder, row, progress, say)
    row["mirror_abnormal"] = _mirror_check(plan, pool, "policy", folder, row, progress)
    return weights, row


def _fit_policy(
    x: np.ndarray, decision: np.ndarray, chosen: np.ndarray, hold: np.ndarray, share: np.ndarray | None = None
) -> tuple[np.ndarray, dict[str, float]]:
    """Conditional logit of the choices (McFadden): P(move k of a decision) = softmax over its candidates of
    ``w . x_k``, fitted by L-BFGS (scipy) on the standardised features with penalty ``POLICY_L2``, rows of held-out
    decisions (``hold``) left out. The target is ``share`` (a distribution over each decision's candidates, e.g. the
    search's root visit shares, AlphaZero's policy target) when given, else the chosen move. Returns (intercept,
    weights on the raw features) and the held-out figures (log loss and agreement with the chosen move). The
    intercept cancels within a decision; it is set so that the mean candidate's logit is 0."""
    from scipy.optimize import minimize

    x = x.astype(np.float64)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = np.inf  # a feature constant over every candidate teaches nothing
    z = (x - mean) / scale
    starts = np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])
    group = np.cumsum(np.r_[True, decision[1:] != decision[:-1]]) - 1
    picked = starts + np.array([np.flatnonzero(c)[0] for c in np.split(chosen, starts[1:])])
    held = hold[starts]
    target = chosen.astype(np.float64) if share is None else share.astype(np.float64)
    train = ~hold

    def log_likelihoods(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        v = z @ w
        top = np.maximum.reduceat(v, starts)
        e = np.exp(v - top[group])
        total = np.add.reduceat(e, starts)
        return v - (top + np.log(total))[group], e / total[group]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        log_p, p = log_likelihoods(w)
        t = target * train
        grad = t @ z - (np.add.reduceat(t, starts)[group] * p) @ z
        m = (~held).sum()
        return -(t @ log_p) / m + POLICY_L2 * w @ w, -grad / m + 2 * POLICY_L2 * w

    w = minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B", options={"maxiter": 1000}).x
    log_p, p = log_likelihoods(w)
    ll = log_p[picked]
    best = np.maximum.reduceat(p, starts)
    first_best = np.array(
        [s + np.flatnonzero(q == b)[0] for s, q, b in zip(starts, np.split(p, starts[1:]), best, strict=True)]
    )
    sizes = np.diff(np.r_[starts, len(decision)])
    coef = w / scale
    figures = {
        "log_loss": float(-ll[held].mean()),
        "uniform_log_loss": float(np.log(sizes[held]).mean()),
        "agreement": float((first_best == picked)[held].mean()),
    }
    return np.concatenate([[-float(coef @ mean)], coef]), figures


def _strength_opponents(spec: ApprenticeSpec) -> tuple[tuple[str, str], ...]:
    """Each strength check's key (``STRENGTH_KEYS``) and the bot it plays the apprentice against."""
    return tuple(zip(STRENGTH_KEYS, (spec.rival, spec.teacher), strict=True))


def _strength_check(
    plan: TrainPlan,
    pool: Any,
    stage: str,
    n: int,
    opponent: str,
    key: str,
    folder: Path,
    row: dict[str, Any],
    progress: bool,
    say: Callable[[str], None],
) -> None:
    """``strength_games`` games of the apprentice of ``folder`` in one seat against ``opponent`` in the others at ``n``
    players, seats rotated, on the same seeds at every stage; its win share and Wilson interval go into ``row`` as
    ``strength_vs_{key}``, ``..._low`` and ``..._high``."""
    from tqdm import tqdm

    master = _master(plan.seed, _STREAM_STRENGTH, 0 if key == "rival" else 1)
    tasks = _tasks(plan, "wins", n, ["apprentice"] + [opponent] * (n - 1), folder, master, plan.strength_games)
    with tqdm(
        total=plan.strength_games, unit="game", desc=f"{stage}, apprentice vs {opponent}", disable=not progress
    ) as bar:
        wins = np.concatenate([p[0] for p in _run_tasks(pool, tasks, bar)])
    lo, hi = _wilson(float(wins.sum()), len(wins))
    row[f"strength_vs_{key}"] = round(float(wins.mean()), 4)
    row[f"strength_vs_{key}_low"] = round(lo, 4)
    row[f"strength_vs_{key}_high"] = round(hi, 4)
    say(
        f"{stage}: apprentice wins {100 * wins.mean():.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%) of {len(wins):,} "
        f"{n}-player games against {opponent}"
    )


def kept_iteration(rows: Sequence[Mapping[str, Any]], opponents: tuple[str, ...] = STRENGTH_KEYS) -> int:
    """Index of the iteration a training keeps, from its log ``rows``.

    An iteration whose own mirror games stall (``mirror_abnormal`` over ``MAX_ABNORMAL``: a bot that cannot end its own
    games has a bug) is kept only when every iteration stalls, the least stalling first. Of the others, those *as
    strong as the best* against every opponent are eligible: the win share ``strength_vs_{key}`` within the Wilson
    interval of the iteration that wins most against it (at least its ``..._low``). The eligible iteration with the
    highest mean win share over the opponents is kept (with none eligible, a trade-off, the highest mean of all), the
    earlier on a tie; an iteration with no strength check (NaN, or no key) counts 0 and is never out of an interval.
    So an iteration stronger against the rival but clearly weaker against the search it learns from is not kept.
    """
    if not rows:
        raise ValueError("no iterations to keep")
    stall = [float(row.get("mirror_abnormal", 0.0)) for row in rows]
    runs = [k for k, worst in enumerate(stall) if worst <= MAX_ABNORMAL]
    if not runs:
        return min(range(len(rows)), key=lambda k: (stall[k], -_mean_share(rows[k], opponents)))

    def share(k: int, key: str) -> float:
        return float(rows[k].get(f"strength_vs_{key}", math.nan))

    eligible = list(runs)
    for key in opponents:
        measured = [k for k in runs if share(k, key) == share(k, key)]
        if measured:
            top = max(measured, key=lambda k: share(k, key))
            floor = float(rows[top][f"strength_vs_{key}_low"])
            eligible = [k for k in eligible if not share(k, key) < floor]
    return max(eligible or runs, key=lambda k: (_mean_share(rows[k], opponents), -k))


def _mean_share(row: Mapping[str, Any], opponents: tuple[str, ...]) -> float:
    """Mean win share of a log row over ``opponents`` (a check not played counts 0)."""
    shares = [float(row.get(f"strength_vs_{key}", math.nan)) for key in opponents]
    return float(np.mean([v if v == v else 0.0 for v in shares]))


def _mirror_check(plan: TrainPlan, pool: Any, k: int | str, folder: Path, row: dict[str, Any], progress: bool) -> float:
    """Mirror games of the iteration's apprentice at every player count: the largest share that ended abnormally
    (the turn cap: the apprentices stalled), logged per player count."""
    from tqdm import tqdm

    worst = 0.0
    for n in plan.refitted:
        total = MIRROR_GAMES
        tasks = _tasks(plan, "mirror", n, ["apprentice"], folder, _master(plan.seed, _STREAM_MIRROR, n), total)
        with tqdm(total=total, unit="game", desc=f"iteration {k}, {n}p apprentice mirror", disable=not progress) as bar:
            faults = sum(p[0] for p in _run_tasks(pool, tasks, bar))
        row[f"mirror_abnormal_{n}p"] = round(faults / total, 4)
        worst = max(worst, faults / total)
    return worst


def _opponent_games(plan: TrainPlan, pool: Any, k: int, n: int, teacher: str, folder: Path, progress: bool) -> None:
    """Iteration ``k``'s teacher games against the opponent (``OPPONENT_SHARE`` of its teacher games): the opponent in
    one seat, the teacher in the others, seats rotated."""
    from tqdm import tqdm

    path = plan.out / "positions" / f"iteration-{k}-{n}p-opponent.npz"
    if path.is_file():
        return
    total = max(10, round(plan.games * OPPONENT_SHARE))
    master = _master(plan.seed, _STREAM_OPPONENT, 100 * k + n)
    tasks = _tasks(plan, "positions", n, [plan.opponent_bot] + [teacher] * (n - 1), folder, master, total)
    desc = f"iteration {k}, {n}p, {teacher} vs opponent"
    with tqdm(total=total, unit="game", desc=desc, disable=not progress) as bar:
        parts = _run_tasks(pool, tasks, bar)
    _save_positions(path, parts)


def _student_games(plan: TrainPlan, pool: Any, k: int, n: int, folder: Path, progress: bool) -> None:
    """Positions the apprentice itself reaches: the iteration's apprentice (at the spec's ``student`` settings) in one
    seat against the rival, seats rotated, and in every seat (``student_mirrors`` of the games); what the teacher's
    games never show (e.g. a caravan it cannot spend, three apprentices stalling)."""
    from tqdm import tqdm

    spec = plan.spec
    total = max(10, round(plan.games * spec.student_share))
    mirrors = round(total * spec.student_mirrors) if n > 1 else 0
    against = [spec.student] + [spec.rival] * (n - 1) if n > 1 else [spec.student]
    runs = [("student", against, total - mirrors, 0), ("student-mirror", [spec.student], mirrors, 50)]
    if plan.opponent is not None and n == plan.opponent_players:
        bots = [spec.student] + [plan.opponent_bot] * (n - 1)
        runs.append(("student-opponent", bots, round(total * OPPONENT_SHARE), 70))
    for suffix, bots, count, index in runs:
        path = plan.out / "positions" / f"iteration-{k}-{n}p-{suffix}.npz"
        if path.is_file() or count == 0:
            continue
        master = _master(plan.seed, _STREAM_STUDENT, 100 * k + n + index)
        tasks = _tasks(plan, "positions", n, bots, folder, master, count)
        desc = f"iteration {k}, {n}p, {' '.join(bots) if len(bots) > 1 else bots[0] + ' mirror'}"
        with tqdm(total=count, unit="game", desc=desc, disable=not progress) as bar:
            parts = _run_tasks(pool, tasks, bar)
        _save_positions(path, parts)


def _save_positions(path: Path, parts: list[tuple[Any, ...]]) -> None:
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez(
        tmp,
        x=np.concatenate([p[0] for p in parts]),
        y=np.concatenate([p[1] for p in parts]),
        game=np.concatenate([p[2] for p in parts]),
        win=np.concatenate([p[3] for p in parts]),
        lineup=np.concatenate([p[4] for p in parts]),
    )
    os.replace(tmp, path)


def _write_log(path: Path, rows: list[dict[str, Any]]) -> None:
    keys: list[str] = []
    for row in rows:
        keys += [k for k in row if k not in keys]
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, keys)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, path)


def _command(plan: TrainPlan, game: Any) -> str:
    """The ``golem train`` command that refits the weights (options at their defaults left out)."""
    return (
        f"golem train {plan.game}{' --policy-only' if plan.policy_only else ''} --games {plan.games}"
        + ("" if plan.policy_only else f" --iterations {plan.iterations}")
        + f" --strength-games {plan.strength_games} --seed {plan.seed}"
        + (f" --cards {plan.data_dir}" if plan.data_dir.resolve() != default_dir(plan.game).resolve() else "")
        + "".join(f" --rule {k}={v}" for k, v in sorted(plan.rules.items()) if str(v) != str(_default_rule(game, k)))
        + (f" --teacher {plan.spec.teacher}" if plan.spec.teacher != game.info.apprentice.teacher else "")
        + (f" --expert {plan.spec.expert}" if plan.spec.expert != game.info.apprentice.expert else "")
        + (f" --opponent {plan.opponent_file}" if plan.opponent_file is not None else "")
        + "".join(f" --players {n}" for n in plan.counts)
    )


def _opponent_record(plan: TrainPlan) -> dict[str, Any]:
    """The provenance's record of the opponent: its file, style and the player count of its games."""
    assert plan.opponent is not None
    record: dict[str, Any] = {"file": str(plan.opponent_file), "style": plan.opponent.name}
    record["players"] = plan.opponent_players
    record["share"] = OPPONENT_SHARE
    return record | {k: v for k, v in (("offset", plan.opponent.offset), ("scale", plan.opponent.scale)) if v}


def _value_toml(value_file: str) -> str:
    return str(Path(value_file).with_suffix(".toml"))


def _provenance(plan: TrainPlan, game: Any, log_rows: list[dict[str, Any]], summary: dict[str, Any]) -> str:
    """``apprentice.toml``: how the weights were made, and the figures at fitting time (``data_files``: the SHA-256
    of the data the teacher games were played on)."""
    import sklearn
    import tomli_w

    command = _command(plan, game)
    value_files = (plan.spec.value_file, _value_toml(plan.spec.value_file)) if plan.spec.value_file else ()
    files = {
        name: sha256(plan.data_dir / name)
        for name in sorted(p.name for p in plan.data_dir.iterdir() if p.is_file())
        if name not in (WEIGHTS_FILE, PROVENANCE_FILE, *value_files) and not name.endswith(".md")
    }
    fit = {
        "command": command,
        "lab_version": __version__,
        "engine_version": game.info.version,
        "seed": plan.seed,
        "games_per_player_count_and_iteration": plan.games,
        "iterations": plan.iterations,
        "kept_iteration": summary["kept_iteration"],
        "player_counts": list(plan.spec.player_counts),
        "teacher": plan.spec.teacher,
        "expert": plan.spec.expert,
        "rival": plan.spec.rival,
        "strength_games": plan.strength_games,
        **{f"strength_vs_{key}": summary[f"strength_vs_{key}"] for key in STRENGTH_KEYS},
        "seconds": summary["seconds"],
        "scikit_learn": sklearn.__version__,
        "numpy": np.__version__,
        "rules": {k: _toml_scalar(v) for k, v in sorted(plan.rules.items())},
        **({"opponent": _opponent_record(plan)} if plan.opponent is not None else {}),
        "data_files": files,
        "log": [{k: _toml_scalar(v) for k, v in row.items() if v is not None} for row in log_rows],
    }
    header = f"# Provenance of {WEIGHTS_FILE}: the {plan.game} apprentice, by golem train; refit with its command.\n"
    if not plan.policy_only and not plan.counts:
        return header + tomli_w.dumps({"fit": fit})
    # the policy stage (or --players) refits some counts alone: the other counts' weights come from the data folder's
    refitted = plan.spec.policy_counts if plan.policy_only else plan.counts
    fit["policy_counts" if plan.policy_only else "refitted_counts"] = list(refitted)
    fit["base_weights_sha256"] = sha256(plan.data_dir / WEIGHTS_FILE)
    base_toml = plan.data_dir / PROVENANCE_FILE
    prior = tomllib.loads(base_toml.read_text(encoding="utf-8")) if base_toml.is_file() else {}
    base = base_record(prior, refitted)
    header += (
        f"# {'--policy-only' if plan.policy_only else '--players'}: the weights of "
        f"{', '.join(f'{n} players' for n in refitted)} refitted; "
        "the others are those of [base], the fit of the data folder it started from.\n"
    )
    return header + tomli_w.dumps({"fit": fit, **({"base": base} if base else {})})


def base_record(prior: dict[str, Any], refitted: tuple[int, ...]) -> dict[str, Any] | None:
    """The ``[base]`` of a fit that refits the counts ``refitted`` alone, on a data folder whose provenance is
    ``prior``: where the other counts' weights came from. A full prior fit is the base; a partial one (``--players``
    or ``--policy-only``) is too, with its own base nested, unless this fit refits all its counts again (then its own
    base is the base)."""
    fit, base = prior.get("fit"), prior.get("base")
    if not fit:
        return base
    partial = fit.get("policy_counts") or fit.get("refitted_counts")
    if not partial or not base:
        return fit
    return base if set(partial) <= set(refitted) else {**fit, "base": base}


def _value_provenance(plan: TrainPlan, game: Any, iteration: int | None) -> str:
    """The value file's provenance: --policy-only, or --players without a policy count, keeps the data folder's value
    fit, and so its provenance; else the value iteration the training kept (and the rows of the counts kept)."""
    import tomli_w

    value_file = plan.spec.value_file
    assert value_file
    prior = plan.data_dir / _value_toml(value_file)
    if (plan.policy_only or not plan.policy_refitted) and (plan.data_dir / value_file).is_file() and prior.is_file():
        return prior.read_text(encoding="utf-8")  # no value row refitted: the data folder's value fit, as it was
    source = (
        "the data folder's play weights of these counts (it had no value file)"
        if iteration is None
        else f"the value fit of iteration {iteration}, whose weights the policy stage refitted"
    )
    kept = [n for n in plan.spec.policy_counts if n not in plan.policy_refitted]
    if kept and (plan.data_dir / value_file).is_file():
        source += f"; the rows of {', '.join(f'{n} players' for n in kept)} kept from the data folder's value file"
    fit = {"command": _command(plan, game), "lab_version": __version__, "engine_version": game.info.version}
    fit["source"] = source
    header = f"# Provenance of {value_file}: the {plan.game} apprentice's value, by golem train ({PROVENANCE_FILE}).\n"
    return header + tomli_w.dumps({"fit": fit})


def _toml_scalar(v: Any) -> Any:
    """A value TOML can hold: numpy scalars as Python numbers, anything else that is not a number, flag or list as
    its text."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, bool | int | float | str):
        return v
    if isinstance(v, list | tuple):
        return [_toml_scalar(x) for x in v]
    return str(v)


def _default_rule(game: Any, name: str) -> Any:
    option = game.rule_options().get(name)
    return option.default if option is not None else None
