"""Learned players ("apprentices"): the weights file and the linear afterstate value every game's apprentice plays.

An apprentice scores each candidate move by the value of the position it leads to (its *afterstate*, as in
TD-Gammon): a logistic model of the mover's chance to win, ``sigmoid(w . features)``, over features that the
game computes from what one seat can see (one njit function per game, called alike by the play loop and by the
fitting code, so training and play never disagree). Its weights are game data: ``seeds/<game>/apprentice.csv``,
one column of weights per player count, read into the game's kernel tables like any other table, hashed into
every run's manifest, and refitted by ``golem train GAME`` (:mod:`simulate.orchestration.training`), which
writes them with their provenance (``apprentice.toml``).

The file::

    feature,players_2,players_3
    intercept,-0.41,-0.87
    vp_margin,0.183,0.151
    ...

``intercept`` first, then the game's features in the order the engine computes them; a weight multiplies the
raw feature (the fit's standardisation is folded in). A player count without a column plays with weights 0,
i.e. a uniform choice among its moves (the game declares the counts it ships weights for).

Strategy *styles* (``seeds/<game>/styles.toml``) are the apprentice biased toward a plan a player would name
(Century's ``engine``: build a merchant engine): each changes the weights of every player count, feature by feature,
to ``weight * scale + offset``, and plays as ``apprentice:style=NAME``. The file::

    [engine]
    description = "builds a merchant engine before it buys point cards"
    offset = { own_engine_power = 0.3, engine_x_early = 0.5 }
    scale = { point_card_margin = 0.8 }

Features a style does not name keep their weight (``scale`` 1, ``offset`` 0); ``intercept`` is not a feature a
style may change (it moves every move's value alike).
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from simulate.datafiles import DataError, read_csv, read_toml

__all__ = [
    "PLAIN_STYLE",
    "PROVENANCE_FILE",
    "STYLES_FILE",
    "WEIGHTS_FILE",
    "Style",
    "fit_warning",
    "linear_value",
    "pinned_offsets",
    "read_provenance",
    "read_styles",
    "read_weights",
    "style_names",
    "style_weights",
    "value_weights",
    "softmax_pick",
    "weights_text",
    "win_shares",
]

WEIGHTS_FILE = "apprentice.csv"
PROVENANCE_FILE = "apprentice.toml"
STYLES_FILE = "styles.toml"
PLAIN_STYLE = "plain"
"""The name of style 0: the apprentice's own weights (``apprentice:style=plain`` plays as ``apprentice``)."""
_STYLE_KEYS = ("description", "offset", "scale")


class Style(NamedTuple):
    """A strategy style: its name, what it plays in a line, and the feature -> offset and feature -> scale it puts on
    the apprentice's weights."""

    name: str
    description: str
    offset: dict[str, float]
    scale: dict[str, float]


def _column(n: int) -> str:
    return f"players_{n}"


def read_weights(
    folder: Path,
    features: tuple[str, ...],
    player_counts: tuple[int, ...],
    max_players: int,
    file_name: str = WEIGHTS_FILE,
) -> np.ndarray:
    """The apprentice's weights of a game folder (file ``file_name``): float64 (max_players + 1, len(features) + 1).

    Row ``n`` holds the weights for ``n`` players (intercept first); rows of counts without a column are 0.
    The file must list ``intercept`` and then exactly ``features``, in that order, and a column for each of
    ``player_counts``: a weights file fitted on other features is refused, naming the first row that differs.
    """
    path = Path(folder) / file_name
    columns = ["feature", *(_column(n) for n in player_counts)]
    rows = read_csv(path, columns)
    names = ("intercept", *features)
    if len(rows) != len(names):
        raise DataError(
            f"{path}: {len(rows)} rows, expected {len(names)} (intercept and the engine's {len(features)} features); "
            "refit with 'golem train' or copy the shipped file"
        )
    w = np.zeros((max_players + 1, len(names)), np.float64)
    for k, ((line, row), name) in enumerate(zip(rows, names, strict=True)):
        if row["feature"] != name:
            raise DataError(
                f"{path}: line {line}: feature '{row['feature']}', expected '{name}' (the engine's features have "
                "changed since these weights were fitted: refit with 'golem train')"
            )
        for n in player_counts:
            text = row[_column(n)]
            try:
                value = float(text)
            except ValueError:
                raise DataError(f"{path}: line {line}: column {_column(n)}: '{text}' is not a number") from None
            if not math.isfinite(value):
                raise DataError(f"{path}: line {line}: column {_column(n)}: '{text}' is not a finite number")
            w[n, k] = value
    return w


def value_weights(
    folder: Path,
    features: tuple[str, ...],
    value_counts: tuple[int, ...],
    max_players: int,
    play: np.ndarray,
    file_name: str,
) -> np.ndarray:
    """The apprentice's value weights: the play weights ``play`` (from :func:`read_weights`) with the rows of
    ``value_counts`` read from ``file_name``, the value fit of the counts whose play weights are a policy."""
    value = play.copy()
    counts = list(value_counts)
    value[counts] = read_weights(folder, features, value_counts, max_players, file_name)[counts]
    return value


def weights_text(weights: np.ndarray, features: tuple[str, ...], player_counts: tuple[int, ...]) -> str:
    """The CSV text of ``weights`` (as :func:`read_weights` returns them): shortest round-trip decimals."""
    lines = [",".join(["feature", *(_column(n) for n in player_counts)])]
    for k, name in enumerate(("intercept", *features)):
        lines.append(",".join([name, *(repr(float(weights[n, k])) for n in player_counts)]))
    return "\n".join(lines) + "\n"


def read_styles(
    folder: Path, features: tuple[str, ...], names: tuple[str, ...] | None = None, file_name: str = STYLES_FILE
) -> tuple[Style, ...]:
    """The strategy styles of a game folder (``styles.toml``, or ``file_name``), in file order, checked.

    Each style is a table with a ``description`` and optional ``offset`` and ``scale`` tables of feature -> number;
    an unknown feature, key or a number that is not finite is refused, naming the file, the style and the key.
    ``names``: the styles the game's bots are given by name (those of its shipped folder, :func:`style_names`
    without ``plain``), which the folder must declare, in that order (a bot's style is their index).
    """
    path = Path(folder) / file_name
    conf = read_toml(path)
    styles = []
    for name, table in conf.items():
        where = f"{path}: [{name}]"
        if not isinstance(table, dict):
            raise DataError(f"{where}: a style is a table with a description and offset/scale tables")
        if not name.isidentifier() or name == PLAIN_STYLE:
            raise DataError(f"{where}: a style's name is a word (letters, digits, _), not '{PLAIN_STYLE}'")
        unknown = sorted(set(table) - set(_STYLE_KEYS))
        if unknown:
            raise DataError(f"{where}: unknown key {unknown[0]}; a style has {', '.join(_STYLE_KEYS)}")
        description = table.get("description")
        if not isinstance(description, str) or not description.strip():
            raise DataError(f"{where}: description: a line saying what the style plays")
        parts = {}
        for key in ("offset", "scale"):
            values = table.get(key, {})
            if not isinstance(values, dict):
                raise DataError(f"{where}: {key}: a table of feature = number")
            for feature, value in values.items():
                if feature not in features:
                    raise DataError(f"{where}: {key}.{feature}: not a feature of the apprentice")
                if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                    raise DataError(f"{where}: {key}.{feature}: '{value}' is not a finite number")
            parts[key] = {f: float(v) for f, v in values.items()}
        styles.append(Style(name, description.strip(), parts["offset"], parts["scale"]))
    found = tuple(style.name for style in styles)
    if names is not None and found != tuple(names):
        raise DataError(
            f"{path}: styles {', '.join(found) or '(none)'}; the game's bots know {', '.join(names)} (in that order): "
            "change a style's offsets, not its name or place"
        )
    return tuple(styles)


def style_names(folder: Path, file_name: str = STYLES_FILE) -> tuple[str, ...]:
    """``plain`` and the names of the styles of a game folder, in file order: the values of ``apprentice:style``."""
    return (PLAIN_STYLE, *read_toml(Path(folder) / file_name))


def style_weights(
    plain: np.ndarray, styles: tuple[Style, ...], features: tuple[str, ...], player_counts: tuple[int, ...]
) -> np.ndarray:
    """The weights of every style: float64 (len(styles) + 1, *plain.shape), row 0 ``plain`` (as
    :func:`read_weights` returns it), row k + 1 style k's ``plain * scale + offset`` on the rows of
    ``player_counts`` (the other player counts keep their zeros)."""
    out = np.repeat(plain[None], len(styles) + 1, axis=0)
    counts = list(player_counts)
    for k, style in enumerate(styles, start=1):
        for feature, factor in style.scale.items():
            out[k, counts, features.index(feature) + 1] *= factor
        for feature, offset in style.offset.items():
            out[k, counts, features.index(feature) + 1] += offset
    return out


def pinned_offsets(target: np.ndarray, weights: np.ndarray, features: tuple[str, ...]) -> dict[str, float]:
    """A style's offsets that make an apprentice whose weights at a player count are ``weights`` (intercept first, as a
    row of :func:`read_weights`) play ``target`` there: feature -> ``target - weights``, the features that differ. The
    intercepts are left as they are (a style cannot move one; it moves every move's value alike)."""
    return {f: float(target[k + 1] - weights[k + 1]) for k, f in enumerate(features) if target[k + 1] != weights[k + 1]}


def read_provenance(folder: Path, file_name: str = PROVENANCE_FILE) -> dict[str, Any]:
    """The apprentice's provenance (``apprentice.toml``, or ``file_name``) of a game folder; empty when it has none."""
    path = Path(folder) / file_name
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise DataError(f"{path}: {e}") from None


def fit_warning(
    provenance: dict[str, Any], game: str, version: int, rules: dict[str, Any], play_version: int | None = None
) -> str | None:
    """One line when the weights were fitted on another engine version or other rules than a run's; else None.

    Versions ``play_version..version`` (default: ``version`` alone) play alike (they differ in the setup draw
    only), so weights fitted on any of them fit."""
    fit = provenance.get("fit", {})
    if not fit:
        return None
    what = []
    fitted = fit.get("engine_version")
    if not (isinstance(fitted, int) and (version if play_version is None else play_version) <= fitted <= version):
        what.append(f"engine version {fit.get('engine_version')} (this run: {version})")
    fitted_rules = fit.get("rules", {})
    changed = sorted(k for k in rules if k in fitted_rules and str(fitted_rules[k]) != str(rules[k]))
    if changed:
        what.append("rules " + ", ".join(f"{k}={fitted_rules[k]} (this run: {rules[k]})" for k in changed))
    if not what:
        return None
    return (
        f"the {game} apprentice's weights were fitted on {' and '.join(what)}: its play may be weaker here; "
        f"refit with 'golem train {game}'"
    )


@njit(cache=True, inline="always")
def linear_value(w, f):
    """``w[0] + w[1:] . f``: the apprentice's logit of the position with features ``f`` (w: one weights row)."""
    v = w[0]
    for k in range(f.shape[0]):
        v += w[k + 1] * f[k]
    return v


@njit(cache=True)
def win_shares(logits, n, out):
    """Each of ``n`` seats' chance to win from their logits: the sigmoids, normalised to sum to 1 (into ``out``)."""
    total = 0.0
    for s in range(n):
        x = logits[s]
        p = 1.0 / (1.0 + math.exp(-x)) if x > -700.0 else 0.0
        out[s] = p
        total += p
    if total <= 0.0:
        for s in range(n):
            out[s] = 1.0 / n
        return
    for s in range(n):
        out[s] /= total


@njit(cache=True)
def softmax_pick(values, n, temperature, u):
    """Index of the move to play among ``values[:n]``: the best (first of equals) at temperature 0, else a draw
    with probability proportional to ``exp(value / temperature)`` using the uniform ``u`` in [0, 1)."""
    best = 0
    for k in range(1, n):
        if values[k] > values[best]:
            best = k
    if temperature <= 0.0 or n == 1:
        return best
    top = values[best]
    total = 0.0
    for k in range(n):
        total += math.exp((values[k] - top) / temperature)
    target = u * total
    acc = 0.0
    for k in range(n):
        acc += math.exp((values[k] - top) / temperature)
        if acc > target:
            return k
    return n - 1
