"""Named values of a game's definition data, and variant data folders with some of them changed.

Every value a game exposes is addressable by a dotted path derived from its data, so the what-if
commands work for any game without a per-game list:

* a cell of a CSV table: ``<file stem>.<row key>.<column>``, the row key being the table's first
  column (``point_cards.P36.vp``); the stem's first word, pluralised, is an alias when it is unique
  (``points.P36.vp``, ``merchants.M09.output``);
* a ``game.toml`` value: ``<section>.<key>`` (``table.start``), and one element of a list as
  ``<section>.<key>.<k>`` with k counted from 1; an element of a list the game declares by seat is
  also ``seat<k>`` (``table.start.seat1``), of a list by player count ``players<n>``
  (``end_trigger.players3``); the section may be left out when the key is unique (``start.seat1``);
* a rule option: ``rules.<name>`` or just ``<name>`` (``tie_break``); rule options are passed to
  the runner (``--rule``), the data files are left as shipped.

An unknown path is a :class:`VariantError` naming the close matches.
"""

from __future__ import annotations

import csv
import difflib
import fnmatch
import json
import re
import shutil
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulate.apprentice_fit import LEARNED_PREFIX
from simulate.datafiles import DataError, read_toml
from simulate.game import Game

__all__ = ["Value", "VariantError", "Variant", "match_values", "resolve_value", "settable_values", "write_variant"]


class VariantError(ValueError):
    """A value path, a component id or a value that cannot be used; the message is one line."""


@dataclass(frozen=True)
class Value:
    """One addressable value of a game's data: where it lives and what it holds now."""

    name: str
    """Canonical path: ``point_cards.P36.vp``, ``table.start.1``, ``rules.tie_break``."""
    kind: str
    """``"cell"`` (a CSV cell), ``"toml"`` (a game.toml value or list element) or ``"rule"``."""
    file: str
    """Data file holding it (``""`` for a rule option)."""
    key: tuple
    """``(row key, column)`` of a cell; the key path (ending with a 0-based list index) of a toml value."""
    value: Any
    """Current value: the cell's text, the toml value with its type, the rule option's value."""
    index: tuple[str, int] | None = None
    """``("seat", k)`` or ``("players", n)`` for an element of a list the game declares by seat or player count."""

    def applies_at(self, num_players: int) -> bool:
        """Whether changing this value can change a game of ``num_players`` players."""
        if self.index is None:
            return True
        axis, number = self.index
        return number <= num_players if axis == "seat" else number == num_players

    def convert(self, text: Any) -> Any:
        """``text`` as a value of this one's type (a cell stays text); ``VariantError`` if it is not."""
        if self.kind == "cell":
            return str(text)
        current = self.value
        if isinstance(current, bool):
            low = str(text).lower()
            if low not in ("true", "false", "1", "0"):
                raise VariantError(f"{self.name}: '{text}' is not true or false")
            return low in ("true", "1")
        if isinstance(current, int):
            try:
                number = float(text)
            except (TypeError, ValueError):
                raise VariantError(f"{self.name}: '{text}' is not a number") from None
            if not number.is_integer():
                raise VariantError(f"{self.name}: '{text}' is not a whole number")
            return int(number)
        if isinstance(current, float):
            try:
                return float(text)
            except (TypeError, ValueError):
                raise VariantError(f"{self.name}: '{text}' is not a number") from None
        if isinstance(current, list):
            raise VariantError(f"{self.name}: set one element at a time ({self.name}.1, {self.name}.2, ...)")
        return str(text)


@dataclass(frozen=True)
class Variant:
    """A changed copy of a game's data: values set, components removed or replaced by copies of others."""

    name: str
    settings: tuple[tuple[str, Any], ...] = ()
    """(canonical value path, new value) pairs."""
    removed: tuple[str, ...] = ()
    """Row keys (component ids) taken out of their table."""
    replaced: tuple[tuple[str, str], ...] = ()
    """(row key, other row key): the row takes the other row's values, keeping its own key."""
    aliases: tuple[tuple[str, str], ...] = ()
    """(canonical value path, the name the user gave it): reports show values as the user named them."""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "settings": {k: v for k, v in self.settings},
            "removed": list(self.removed),
            "replaced": {k: v for k, v in self.replaced},
            "aliases": {k: v for k, v in self.aliases},
        }

    @property
    def is_baseline(self) -> bool:
        return not (self.settings or self.removed or self.replaced)


def _folder(game: Game, folder: str | Path | None) -> Path:
    return Path(folder) if folder is not None else game.data_dir()


def _read_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(newline="", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f)]
    if not rows:
        raise DataError(f"{path}: file is empty")
    header = [h.strip() for h in rows[0]]
    return header, [r for r in rows[1:] if any(v.strip() for v in r)]


def _alias(stem: str) -> str:
    word = stem.split("_")[0]
    return word if word.endswith("s") else word + "s"


def _toml_leaves(conf: Mapping[str, Any], prefix: tuple = ()) -> Iterable[tuple[tuple, Any]]:
    for key, value in conf.items():
        path = (*prefix, key)
        if isinstance(value, Mapping):
            yield from _toml_leaves(value, path)
        else:
            yield path, value


def settable_values(game: Game, folder: str | Path | None = None) -> dict[str, Value]:
    """Every addressable value of ``game``'s data in ``folder`` (default: the shipped data), by every name.

    Canonical names and their aliases map to the same :class:`Value`.
    """
    base = _folder(game, folder)
    out: dict[str, Value] = {}
    aliases: dict[str, list[str]] = {}
    stems = [Path(f).stem for f in game.info.data_files if f.endswith(".csv")]
    for file in game.info.data_files:
        path = base / file
        if file.endswith(".csv"):
            header, rows = _read_rows(path)
            stem = Path(file).stem
            short = _alias(stem)
            names = [stem] + ([short] if short != stem and [_alias(s) for s in stems].count(short) == 1 else [])
            for row in rows:
                for column, text in zip(header[1:], row[1:], strict=False):
                    v = Value(f"{stem}.{row[0].strip()}.{column}", "cell", file, (row[0].strip(), column), text.strip())
                    for n in names:
                        out[f"{n}.{row[0].strip()}.{column}"] = v
        elif file.endswith(".toml"):
            conf = read_toml(path)
            leaves = [(p, v) for p, v in _toml_leaves(conf) if not (p[0] == "rules" and len(p) == 2)]
            for path_keys, value in leaves:
                entries = [(path_keys, value, "")]
                if isinstance(value, list):
                    entries += [((*path_keys, i), item, f".{i + 1}") for i, item in enumerate(value)]
                axis, first = game.info.indexed_lists.get(".".join(path_keys), (None, 1))
                for keys, item, suffix in entries:
                    canonical = ".".join(path_keys) + suffix
                    index = (axis, first + keys[-1]) if axis and suffix else None
                    v = Value(canonical, "toml", file, keys, item, index)
                    out[canonical] = v
                    bases = [".".join(path_keys)] + ([".".join(path_keys[1:])] if len(path_keys) > 1 else [])
                    forms = [b + suffix for b in bases[1:]]
                    if index:
                        forms += [f"{b}.{axis}{index[1]}" for b in bases]
                    for form in forms:
                        aliases.setdefault(form, []).append(canonical)
    for name, opt in game.rule_options().items():
        v = Value(f"rules.{name}", "rule", "", (name,), opt.default)
        out[v.name] = v
        aliases.setdefault(name, []).append(v.name)
    for form, targets in aliases.items():
        if len(set(targets)) == 1 and form not in out:
            out[form] = out[targets[0]]
    return out


def resolve_value(values: Mapping[str, Value], name: str) -> Value:
    """The value called ``name``; ``VariantError`` naming close matches when there is none."""
    if name in values:
        return values[name]
    close = difflib.get_close_matches(name, list(values), n=4, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else "; see 'golem values GAME'"
    return _raise(f"unknown value '{name}'{hint}")


def match_values(values: Mapping[str, Value], pattern: str) -> list[Value]:
    """Values whose name matches a glob pattern (``start.*``), or the one named; in data order, no repeats."""
    if not any(ch in pattern for ch in "*?["):
        return [resolve_value(values, pattern)]
    found: dict[str, Value] = {}
    for name, v in values.items():
        if fnmatch.fnmatchcase(name, pattern) and not isinstance(v.value, list):
            found.setdefault(v.name, v)
    if not found:
        resolve_value(values, pattern.replace("*", "").rstrip("."))
        _raise(f"no value matches '{pattern}'")
    return list(found.values())


def _raise(message: str):
    raise VariantError(message)


def _find_row(game: Game, base: Path, key: str) -> tuple[str, int]:
    """(CSV file, row position) holding row key ``key``."""
    known = []
    for file in game.info.data_files:
        if not file.endswith(".csv"):
            continue
        _, rows = _read_rows(base / file)
        keys = [r[0].strip() for r in rows]
        if key in keys:
            return file, keys.index(key)
        known += keys
    close = difflib.get_close_matches(key, known, n=4)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return _raise(f"unknown component '{key}' of {game.info.name}{hint}")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value))


def _set_toml(text: str, keys: tuple, value: Any, where: str) -> str:
    """``text`` of a TOML file with the value at ``keys`` (section..., key) replaced, comments kept."""
    *sections, key = keys
    lines = text.splitlines(keepends=True)
    section: tuple = ()
    for i, line in enumerate(lines):
        head = re.match(r"\s*\[([^\[\]]+)\]\s*(#.*)?$", line)
        if head:
            section = tuple(s.strip() for s in head.group(1).split("."))
            continue
        m = re.match(rf"(\s*{re.escape(key)}\s*=\s*)(.*?)(\r?\n)?$", line)
        if section != tuple(sections) or not m:
            continue
        rest = m.group(2)
        for end in [p for p, ch in enumerate(rest) if ch == "#"] + [len(rest)]:
            try:
                tomllib.loads(f"x = {rest[:end]}")
            except tomllib.TOMLDecodeError:
                continue
            tail = rest[len(rest[:end].rstrip()) :].rstrip()
            lines[i] = m.group(1) + _toml_value(value) + tail + (m.group(3) or "")
            return "".join(lines)
        break
    return _raise(f"{where}: cannot edit {'.'.join(keys)} (not a one-line 'key = value')")


def write_variant(
    game: Game, variant: Variant, out: str | Path, folder: str | Path | None = None
) -> tuple[Path, dict[str, Any]]:
    """Write ``variant``'s data folder to ``out`` (a copy of ``folder`` with its changes); returns it and its rules.

    Rule-option settings are returned as a rules dict (for ``RunSpec.rules``), not written. The
    folder is loaded by the game before returning, so a value the game rejects raises
    ``VariantError`` with the game's one-line message.
    """
    base = _folder(game, folder)
    values = settable_values(game, base)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for file in game.info.data_files:
        shutil.copy2(base / file, out / file)
    for path in base.glob(f"{LEARNED_PREFIX}*"):  # the learned player's provenance: what its weights were fitted on
        if path.is_file() and not (out / path.name).exists():
            shutil.copy2(path, out / path.name)
    rules: dict[str, Any] = {}
    csv_edits: dict[str, list] = {}
    toml_text: dict[str, str] = {}
    for name, raw in variant.settings:
        v = resolve_value(values, name)
        new = v.convert(raw)
        if v.kind == "rule":
            rules[v.key[0]] = new
        elif v.kind == "cell":
            csv_edits.setdefault(v.file, []).append(("set", v.key, new))
        else:
            text = toml_text.get(v.file) or (out / v.file).read_text(encoding="utf-8")
            if isinstance(v.key[-1], int):
                whole = values[".".join(v.key[:-1])]
                current = list(read_value(text, whole.key))
                current[v.key[-1]] = new
                toml_text[v.file] = _set_toml(text, whole.key, current, str(out / v.file))
            else:
                toml_text[v.file] = _set_toml(text, v.key, new, str(out / v.file))
    for key in variant.removed:
        file, _ = _find_row(game, base, key)
        csv_edits.setdefault(file, []).append(("remove", key, None))
    for key, other in variant.replaced:
        file, _ = _find_row(game, base, key)
        other_file, _ = _find_row(game, base, other)
        if other_file != file:
            _raise(f"cannot replace {key} ({file}) by {other} ({other_file}): not the same table")
        csv_edits.setdefault(file, []).append(("replace", key, other))
    for file, text in toml_text.items():
        (out / file).write_text(text, encoding="utf-8")
    for file, edits in csv_edits.items():
        header, rows = _read_rows(base / file)
        by_key = {r[0].strip(): r for r in rows}
        originals = {k: list(r) for k, r in by_key.items()}
        for action, key, arg in edits:
            if action == "set":
                row, column = key
                by_key[row][header.index(column)] = arg
            elif action == "replace":
                by_key[key][1:] = originals[arg][1:]
        removed = {key for action, key, _ in edits if action == "remove"}
        newline = "\r\n" if b"\r\n" in (base / file).read_bytes() else "\n"
        with (out / file).open("w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f, lineterminator=newline)
            writer.writerow(header)
            writer.writerows(r for r in rows if r[0].strip() not in removed)
    try:
        game.load_data(out, rules)
    except DataError as e:
        raise VariantError(f"variant {variant.name}: {e}") from None
    return out, rules


def read_value(text: str, keys: tuple) -> Any:
    """The value at ``keys`` in TOML ``text``."""
    node: Any = tomllib.loads(text)
    for k in keys:
        node = node[k]
    return node
