"""Shared helpers for reading game-definition folders (CSV tables, TOML parameters).

Every error is a :class:`DataError` whose message names the file, row and column, so that the
CLI can print it as one line.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

_PACKAGE = Path(__file__).resolve().parent
SEEDS_DIR = _PACKAGE / "seeds" if (_PACKAGE / "seeds").is_dir() else _PACKAGE.parent / "seeds"
"""The shipped game definitions: ``seeds/`` of the source tree, installed as ``simulate/seeds``."""
PACKAGE_DATA = ("*.csv", "*.toml", "*.md")
"""The kinds of file the package ships from a game's data folder (``pyproject.toml``'s package data)."""


class DataError(ValueError):
    """A game-definition file is missing or malformed."""


def default_dir(game: str) -> Path:
    """The folder holding a game's shipped definition data."""
    return SEEDS_DIR / game


def data_folder(folder: str | Path | None, game: str, what: str) -> Path:
    """The folder a game's data is loaded from: ``folder``, or the game's shipped one when None; a ``DataError``
    saying it is not a folder of ``what`` when it is none."""
    path = Path(folder) if folder is not None else default_dir(game)
    if not path.is_dir():
        raise DataError(f"{path}: not a folder of {what}")
    return path


def sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_csv(path: Path, columns: list[str]) -> list[tuple[int, dict[str, str]]]:
    """Rows of a CSV with exactly the given columns (in any order), as ``(line number, row)`` pairs."""
    if not path.is_file():
        raise DataError(f"{path}: file not found")
    try:
        text = path.read_text(encoding="utf-8-sig")  # a spreadsheet's "CSV UTF-8" starts with a byte-order mark
    except UnicodeDecodeError as e:
        raise DataError(f"{path}: not UTF-8 text (byte {e.start}); save it as UTF-8") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise DataError(f"{path}: file is empty") from None
    header = [h.strip() for h in header]
    missing = [c for c in columns if c not in header]
    if missing:
        raise DataError(f"{path}: line 1: missing column(s) {', '.join(missing)}")
    extra = [h for h in header if h not in columns]
    if extra or len(set(header)) != len(header):
        what = f"unknown column(s) {', '.join(extra)}" if extra else "a column named twice"
        raise DataError(f"{path}: line 1: {what} (the columns are {', '.join(columns)})")
    rows = []
    for line, values in enumerate(reader, start=2):
        if not any(v.strip() for v in values):
            continue
        if len(values) != len(header):
            raise DataError(f"{path}: line {line}: expected {len(header)} fields, found {len(values)}")
        rows.append((line, {h: v.strip() for h, v in zip(header, values, strict=True)}))
    if not rows:
        raise DataError(f"{path}: no data rows")
    return rows


def read_toml(path: Path) -> dict:
    """Parse a TOML file, naming the file in any error."""
    if not path.is_file():
        raise DataError(f"{path}: file not found")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as e:
        raise DataError(f"{path}: not UTF-8 text (byte {e.start}); save it as UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise DataError(f"{path}: {e}") from None


PLAYING_TIME_FILE = "playing_time.toml"
"""A game's playing time at a table (optional): the box's minutes and an estimated pace (docs/game-feel.md)."""
_PLAYING_TIME_KEYS = ("box_minutes", "box_source", "seconds_per_turn", "seconds_per_round", "pace_basis")


def read_playing_time(folder: Path) -> dict[str, Any] | None:
    """The playing time of the game whose data is in ``folder`` (``PLAYING_TIME_FILE``), checked; None without one.

    Returns ``box_minutes`` ([low, high] of the box), ``box_source``, ``seconds_per_turn`` (a turn as a run counts
    it), ``seconds_per_round`` (what happens between rounds) and ``pace_basis`` (where the pace comes from).
    """
    path = Path(folder) / PLAYING_TIME_FILE
    if not path.is_file():
        return None
    conf = read_toml(path)
    unknown = [k for k in conf if k not in _PLAYING_TIME_KEYS]
    if unknown:
        raise DataError(f"{path}: {unknown[0]}: unknown key (the keys are {', '.join(_PLAYING_TIME_KEYS)})")
    missing = [k for k in _PLAYING_TIME_KEYS if k not in conf]
    if missing:
        raise DataError(f"{path}: {missing[0]}: missing")
    box = conf["box_minutes"]
    if not (isinstance(box, list) and len(box) == 2 and all(_positive(v) for v in box) and box[0] <= box[1]):
        raise DataError(f"{path}: box_minutes: give [low, high] minutes, 0 < low <= high (got {box!r})")
    if not _positive(conf["seconds_per_turn"]):
        raise DataError(f"{path}: seconds_per_turn: a number of seconds above 0 (got {conf['seconds_per_turn']!r})")
    per_round = conf["seconds_per_round"]
    if not (_positive(per_round) or (_number(per_round) and per_round == 0)):
        raise DataError(f"{path}: seconds_per_round: a number of seconds, 0 or more (got {per_round!r})")
    for key in ("box_source", "pace_basis"):
        if not (isinstance(conf[key], str) and conf[key].strip()):
            raise DataError(f"{path}: {key}: a sentence saying where the figure comes from")
    return {
        "box_minutes": [float(box[0]), float(box[1])],
        "box_source": conf["box_source"].strip(),
        "seconds_per_turn": float(conf["seconds_per_turn"]),
        "seconds_per_round": float(per_round),
        "pace_basis": conf["pace_basis"].strip(),
    }


BOTS_FILE = "bots.toml"
"""A game's bots (``seeds/<game>/bots.toml``): each ``[bots.<name>]`` with its ``description``, the ``kernel`` it
plays (default: its own name) and its ``params`` in the order the kernel reads them, each ``[default, "help"]`` or a
bare default whose help is the file's ``[help]`` entry of that name; ``[limits]``, each parameter's ``[lowest,
highest]`` by name, and ``whole``, the parameters that count something."""
_BOT_KEYS = ("kernel", "description", "params")


def read_bots(game: str, kernels: tuple[str, ...]) -> tuple[dict, dict[str, tuple[float, float]], frozenset[str]]:
    """The bots of a shipped game (``BOTS_FILE``): its table, name -> (kernel id, description, {param: (default,
    help)}), a bot's kernel id being the index of its kernel's name in ``kernels``; the parameters' limits, name ->
    (lowest, highest); and the names of those that take whole numbers (``simulate.game.bot_specs`` takes all three)."""
    path = default_dir(game) / BOTS_FILE
    conf = read_toml(path)
    shared = conf.get("help", {})
    table = {}
    for name, bot in conf.get("bots", {}).items():
        where = f"{path}: bots.{name}"
        unknown = [k for k in bot if k not in _BOT_KEYS]
        if unknown:
            raise DataError(f"{where}.{unknown[0]}: unknown key (the keys are {', '.join(_BOT_KEYS)})")
        kernel = bot.get("kernel", name)
        if kernel not in kernels:
            raise DataError(f"{where}.kernel: '{kernel}' is not one of {', '.join(kernels)}")
        if not isinstance(bot.get("description"), str):
            raise DataError(f"{where}.description: missing (a line saying how it plays)")
        params = {}
        for key, value in bot.get("params", {}).items():
            pair = value if isinstance(value, list) and len(value) == 2 else (None, None)
            default, help_text = (value, shared.get(key)) if _number(value) else pair
            if not (_number(default) and isinstance(help_text, str)):
                raise DataError(f'{where}.params.{key}: give [default, "help"], or a default with a [help] entry')
            params[key] = (default, help_text)
        table[name] = (kernels.index(kernel), bot["description"], params)
    if not table:
        raise DataError(f"{path}: no [bots.<name>] table")
    limits = {}
    for key, pair in conf.get("limits", {}).items():
        if not (isinstance(pair, list) and len(pair) == 2 and all(_number(v) for v in pair) and pair[0] <= pair[1]):
            raise DataError(f"{path}: limits.{key}: give [lowest, highest]")
        limits[key] = (pair[0], pair[1])
    return table, limits, frozenset(conf.get("whole", ()))


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _positive(v: Any) -> bool:
    return _number(v) and v > 0


def parse_int(path: Path, line: int, column: str, text: str, lo: int, hi: int) -> int:
    """An integer field within ``[lo, hi]``, or a DataError naming file, line and column."""
    try:
        value = int(text)
    except ValueError:
        raise DataError(f"{path}: line {line}: column '{column}': '{text}' is not an integer") from None
    if not lo <= value <= hi:
        raise DataError(f"{path}: line {line}: column '{column}': {value} is outside {lo}..{hi}")
    return value


CAPACITY_STEP = 16
"""Per-card fields of a game record (its state, its kernel tables) are sized to a capacity, not to the deck: the
deck's size rounded up, with at least half a step to spare, to a multiple of this step (:func:`deck_capacity`)."""


def deck_capacity(num_cards: int) -> int:
    """Slots of a per-card record field for a deck of ``num_cards``, the same for every size near the printed deck's.

    A record's numba type holds its fields' shapes, so a deck with a card more or less (a gift, ``golem ablate
    --remove``, a designer's edit) plays the printed deck's compiled kernels instead of compiling them all again; the
    engine keeps the slots past the deck empty."""
    return CAPACITY_STEP * -(-(num_cards + CAPACITY_STEP // 2) // CAPACITY_STEP)


def pack_record(tables, per_card: tuple[str, ...] = ()) -> np.ndarray:
    """One-element structured array holding every array of a NamedTuple of tables.

    numba kernels take ``record[0]`` as one pointer instead of a tuple of arrays, whose fields
    would be copied and reference-counted on every call. Each field named in ``per_card`` holds one row per card:
    its first axis is sized to :func:`deck_capacity` and the rows past the deck are 0, so an edited deck packs to
    the printed deck's layout (the kernels read the card counts from the tables' parameters, not the shapes).
    """
    arrays = [
        _pad(arr, deck_capacity(arr.shape[0])) if name in per_card else arr
        for name, arr in zip(tables._fields, tables, strict=True)
    ]
    fields = [(name, arr.dtype, arr.shape) for name, arr in zip(tables._fields, arrays, strict=True)]
    out = np.zeros(1, np.dtype(fields, align=True))
    for name, arr in zip(tables._fields, arrays, strict=True):
        out[0][name] = arr
    return out


def _pad(arr: np.ndarray, rows: int) -> np.ndarray:
    """``arr`` with zero rows appended up to ``rows``."""
    out = np.zeros((rows, *arr.shape[1:]), arr.dtype)
    out[: arr.shape[0]] = arr
    return out


def resolve_rules(
    path: Path, conf: dict, overrides: dict[str, Any], options: dict[str, tuple[type, tuple, str]]
) -> dict[str, Any]:
    """Rule options in force: the ``[rules]`` table of ``path`` with ``overrides`` on top, validated.

    ``options`` declares each option as ``(type, allowed, help)``: ``allowed`` lists the choices of a
    ``bool`` or ``str`` option and is ``(lo, hi)`` for an ``int`` or ``float`` one. A ``str`` choice in angle
    brackets (``"<merchant card id>"``) stands for any text, which the game's loader checks.
    """
    rules = dict(conf.get("rules", {}))
    for key in rules:
        if key not in options:
            raise DataError(f"{path}: rules.{key}: unknown rule option (known: {', '.join(options)})")
    for key in options:
        if key not in rules:
            raise DataError(f"{path}: rules.{key}: missing")
    out = {key: rule_value(options, key, value, f"{path}: rules.{key}") for key, value in rules.items()}
    for key, value in overrides.items():
        if key not in options:
            raise DataError(f"unknown rule option '{key}' (known: {', '.join(options)})")
        out[key] = rule_value(options, key, value, f"rule option {key}")
    return {key: out[key] for key in options}


def rule_value(options: dict[str, tuple[type, tuple, str]], key: str, value: Any, where: str) -> Any:
    """A rule option's value checked against its type and allowed values (strings are converted)."""
    typ, allowed, _ = options[key]
    if typ is bool:
        if isinstance(value, str):
            value = {"true": True, "false": False, "1": True, "0": False}.get(value.lower(), value)
        if not isinstance(value, bool):
            raise DataError(f"{where}: '{value}' is not one of true, false")
        return value
    if typ is str:
        if value not in allowed and not any(str(a).startswith("<") for a in allowed):
            raise DataError(f"{where}: '{value}' is not one of {', '.join(map(str, allowed))}")
        return value
    lo, hi = allowed
    if isinstance(value, str):
        try:
            value = float(value) if typ is float else int(value)
        except ValueError:
            raise DataError(f"{where}: '{value}' is not a number") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DataError(f"{where}: '{value}' is not a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise DataError(f"{where}: {value} is not a finite number")
    if typ is int:
        if isinstance(value, float) and not value.is_integer():
            raise DataError(f"{where}: {value} is not a whole number")
        value = int(value)
    else:
        value = float(value)
        if abs(value * 100 - round(value * 100)) > 1e-9:
            raise DataError(f"{where}: {value} has more than two decimals")
    if not lo <= value <= hi:
        raise DataError(f"{where}: {value} is outside {lo}..{hi}")
    return value


def rule_choices(options: dict[str, tuple[type, tuple, str]], key: str) -> tuple:
    """Allowed values of a rule option as shown by ``golem games``."""
    typ, allowed, _ = options[key]
    if typ in (int, float):
        return (f"{'integer' if typ is int else 'number'} {allowed[0]}..{allowed[1]}",)
    return allowed
