"""Golem's data loader: reads and validates a definition folder (``seeds/golem``) into ``data.GolemData``.

Every error is a ``DataError`` naming the file, line and field. The tables' layout, the codes and the rule options
it checks against live in :mod:`simulate.games.golem.data`; this module only reads the files.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from simulate import datafiles
from simulate.apprentice import read_styles, read_weights, style_weights, value_weights
from simulate.datafiles import DataError
from simulate.games.golem.data import *


def load(folder: str | Path | None = None, rules: dict[str, Any] | None = None) -> GolemData:
    """Load and validate a Golem definition folder (default: the shipped ``seeds/golem``).

    ``rules`` overrides the rule options of the folder's ``game.toml``. Every error is a
    ``DataError`` naming the file, line and field.
    """
    root = datafiles.data_folder(folder, "golem", f"Golem data ({', '.join(FILES)})")
    toml_path = root / "game.toml"
    conf = datafiles.read_toml(toml_path)
    params, estimated_params = _table(toml_path, conf)
    rule_values = datafiles.resolve_rules(toml_path, conf, rules or {}, RULE_OPTIONS)
    reader = _Reader(root)
    action_ids, action_tiles = _read_action_tiles(reader)
    character_ids, characters = _read_characters(reader, root)
    neighbourhood = _read_neighbourhood(reader, root)
    book_ids, books = _read_books(reader, root)
    objective_ids, objectives = _read_objectives(reader)
    start_ids, start_tiles = _read_starting_tiles(reader)
    art = _read_artifacts(reader, root)
    developments = _read_developments(reader)
    tracks, track_lens = _read_tracks(reader, root, toml_path, params)
    intro = _intro(toml_path, conf, character_ids)
    automa = _automa(reader, params, rule_values)
    gift = gift_code(rule_values["gift"], book_ids, objective_ids, start_ids, character_ids, root)
    tables = GolemTables(
        *action_tiles,
        *characters,
        *neighbourhood,
        *books,
        *objectives,
        start_tiles,
        art,
        *developments,
        *tracks,
        *_kernel_params(params, rule_values, intro, track_lens, gift),
        *automa,
        *_apprentice_weights(root),
    )
    estimated_rows = dict(reader.estimated)
    default = root.resolve() == datafiles.default_dir("golem").resolve()
    provenance = {
        "folder": "seeds/golem" if default else str(root),
        "default": default,
        "files": {name: datafiles.sha256(root / name) for name in FILES},
        "estimates": bool(estimated_params) or any(estimated_rows.values()),
        "estimated_parameters": estimated_params,
        "estimated_rows": estimated_rows,
    }
    return GolemData(
        tables,
        datafiles.pack_record(tables),
        params,
        rule_values,
        intro,
        character_ids,
        book_ids,
        objective_ids,
        start_ids,
        action_ids,
        provenance,
    )


def _read_action_tiles(reader: _Reader) -> tuple[tuple[str, ...], tuple[np.ndarray, ...]]:
    """``action_tiles.csv``: ids and (effect, amount, amount2) per tile."""
    rows = reader.rows("action_tiles.csv", ["id", "effect", "amount", "amount2"], NUM_ACTION_TILES + 1)
    action_ids = tuple(r["id"] for _, r in rows)
    at_effect = np.array([reader.effect("action_tiles.csv", ln, r["effect"], EFFECTS) for ln, r in rows], np.int16)
    at_a = np.array([reader.int("action_tiles.csv", ln, r, "amount", 0, 20) for ln, r in rows], np.int16)
    at_b = np.array([reader.int("action_tiles.csv", ln, r, "amount2", 0, 20) for ln, r in rows], np.int16)
    return action_ids, (at_effect, at_a, at_b)


def _read_characters(reader: _Reader, root: Path) -> tuple[tuple[str, ...], tuple[np.ndarray, ...]]:
    """``characters.csv``: ids and (deck, colour1, colour2, movement, cost, effect, amount, amount2) per card."""
    f = "characters.csv"
    rows = reader.rows(
        f, ["id", "deck", "colour1", "colour2", "movement", "cost", "effect", "amount", "amount2"], NUM_CHARACTERS
    )
    character_ids = tuple(r["id"] for _, r in rows)
    ch_deck = np.array([reader.choice(f, ln, r, "deck", ("I-III", "IV")) for ln, r in rows], np.int16)
    if int((ch_deck == 0).sum()) < 3 or int((ch_deck == 1).sum()) < 1:
        raise DataError(f"{root / f}: column 'deck': needs at least 3 'I-III' and 1 'IV' cards")
    ch = {
        k: np.array([reader.choice(f, ln, r, k, MARBLES) for ln, r in rows], np.int16) for k in ("colour1", "colour2")
    }
    ch_move = np.array([reader.int(f, ln, r, "movement", 0, 10) for ln, r in rows], np.int16)
    ch_cost = np.array([reader.int(f, ln, r, "cost", 0, 20) for ln, r in rows], np.int16)
    ch_effect = np.array([reader.effect(f, ln, r["effect"], EFFECTS) for ln, r in rows], np.int16)
    ch_a = np.array([reader.int(f, ln, r, "amount", 0, 20) for ln, r in rows], np.int16)
    ch_b = np.array([reader.int(f, ln, r, "amount2", 0, 20) for ln, r in rows], np.int16)
    return character_ids, (ch_deck, ch["colour1"], ch["colour2"], ch_move, ch_cost, ch_effect, ch_a, ch_b)


def _read_neighbourhood(reader: _Reader, root: Path) -> tuple[np.ndarray, ...]:
    """``neighbourhood.csv``: (effect, amount, amount2, resource), each shaped (district, tile)."""
    f = "neighbourhood.csv"
    rows = reader.rows(f, ["district", "number", "effect", "amount", "amount2", "resource"], 3 * NUM_DISTRICT_TILES)
    nb = np.zeros((4, 3, NUM_DISTRICT_TILES), np.int16)
    seen = set()
    for ln, r in rows:
        d = reader.choice(f, ln, r, "district", DISTRICTS)
        n = reader.int(f, ln, r, "number", 1, NUM_DISTRICT_TILES) - 1
        if (d, n) in seen:
            raise DataError(f"{root / f}: line {ln}: column 'number': tile {r['district']} {n + 1} listed twice")
        seen.add((d, n))
        nb[0, d, n] = reader.effect(f, ln, r["effect"], EFFECTS)
        nb[1, d, n] = reader.int(f, ln, r, "amount", 0, 20)
        nb[2, d, n] = reader.int(f, ln, r, "amount2", 0, 20)
        nb[3, d, n] = reader.resource(f, ln, r, "resource")
    return nb[0], nb[1], nb[2], nb[3]


def _read_books(reader: _Reader, root: Path) -> tuple[tuple[str, ...], tuple[np.ndarray, ...]]:
    """``books.csv``: ids and (colour, cost, effect, amount, resource, amount2, resource2) per Book."""
    f = "books.csv"
    cols = [
        "id",
        "colour",
        "cost",
        "effect",
        "amount",
        "resource",
        "amount2",
        "resource2",
        "active_effect",
        "active_amount",
        "active_resource",
    ]
    rows = reader.rows(f, cols, NUM_BOOKS)
    book_ids = tuple(r["id"] for _, r in rows)
    bk_colour = np.array([reader.choice(f, ln, r, "colour", BOOK_COLOURS) for ln, r in rows], np.int16)
    bk_cost = np.array([reader.int(f, ln, r, "cost", 0, 20) for ln, r in rows], np.int16)
    bk_effect = np.array(
        [
            [E[BOOK_EFFECTS[reader.choice(f, ln, r, k, BOOK_EFFECTS)]] for k in ("effect", "active_effect")]
            for ln, r in rows
        ],
        np.int16,
    )
    bk_a = np.array([[reader.int(f, ln, r, k, 0, 20) for k in ("amount", "active_amount")] for ln, r in rows], np.int16)
    bk_res = np.array(
        [[reader.resource(f, ln, r, k) for k in ("resource", "active_resource")] for ln, r in rows], np.int16
    )
    bk_a2 = np.array([reader.int(f, ln, r, "amount2", 0, 20) for ln, r in rows], np.int16)
    bk_res2 = np.array([reader.resource(f, ln, r, "resource2") for ln, r in rows], np.int16)
    for i, (ln, _) in enumerate(rows):
        e = EFFECTS[bk_effect[i, 0]]
        if e == "gain" and bk_res[i, 0] < 0 or e == "trade" and (bk_res[i, 0] < 0 or bk_res2[i] < 0):
            raise DataError(f"{root / f}: line {ln}: column 'resource': effect '{e}' needs a resource")
        if e == "student_district" and not 0 <= bk_res[i, 0] < 3:
            raise DataError(f"{root / f}: line {ln}: column 'resource': student_district needs red, yellow or blue")
        if EFFECTS[bk_effect[i, 1]] == "gain" and bk_res[i, 1] < 0:
            raise DataError(f"{root / f}: line {ln}: column 'active_resource': effect 'gain' needs a resource")
    return book_ids, (bk_colour, bk_cost, bk_effect, bk_a, bk_res, bk_a2, bk_res2)


def _read_objectives(reader: _Reader) -> tuple[tuple[str, ...], tuple[np.ndarray, ...]]:
    """``objectives.csv``: ids and (type, threshold, vp) per card."""
    f = "objectives.csv"
    rows = reader.rows(f, ["id", "type", "threshold", "vp"], NUM_OBJECTIVES)
    objective_ids = tuple(r["id"] for _, r in rows)
    ob_type = np.array([reader.choice(f, ln, r, "type", OBJECTIVE_TYPES) for ln, r in rows], np.int16)
    ob_threshold = np.array([reader.int(f, ln, r, "threshold", 0, 50) for ln, r in rows], np.int16)
    ob_vp = np.array([reader.int(f, ln, r, "vp", 0, 50) for ln, r in rows], np.int16)
    return objective_ids, (ob_type, ob_threshold, ob_vp)


def _read_starting_tiles(reader: _Reader) -> tuple[tuple[str, ...], np.ndarray]:
    """``starting_tiles.csv``: ids and the (tile, resource or Student) table."""
    f = "starting_tiles.csv"
    st_cols = ["clay", "coin", "knowledge", "gold", "vp", "study", "student_red", "student_yellow", "student_blue"]
    rows = reader.rows(f, ["id", *st_cols], NUM_START_TILES)
    start_ids = tuple(r["id"] for _, r in rows)
    return start_ids, np.array([[reader.int(f, ln, r, k, 0, 20) for k in st_cols] for ln, r in rows], np.int16)


def _read_artifacts(reader: _Reader, root: Path) -> np.ndarray:
    """``artifacts.csv``: the (tile, side, artifact, need) table."""
    f = "artifacts.csv"
    a_cols = ["gold", "clay", "coin", "knowledge", "vp", "study", "dev_cost"]
    rows = reader.rows(f, ["tile", "side", "artifact", *a_cols], NUM_ARTIFACT_TILES * 8)
    art = np.zeros((NUM_ARTIFACT_TILES, 2, 4, len(a_cols)), np.int16)
    seen = set()
    for ln, r in rows:
        key = (
            reader.int(f, ln, r, "tile", 1, 4) - 1,
            reader.choice(f, ln, r, "side", ("A", "B")),
            reader.int(f, ln, r, "artifact", 1, 4) - 1,
        )
        if key in seen:
            raise DataError(
                f"{root / f}: line {ln}: column 'artifact': tile {key[0] + 1} side {r['side']} "
                f"artifact {key[2] + 1} listed twice"
            )
        seen.add(key)
        art[key] = [reader.int(f, ln, r, k, 1 if k == "gold" else 0, 20) for k in a_cols]
    return art


def _read_developments(reader: _Reader) -> tuple[np.ndarray, ...]:
    """``developments.csv``: Golem (menorahs, cost, effect), Study (the same), Artifact (menorahs, cost, effects)."""
    f = "developments.csv"
    rows = reader.rows(
        f,
        ["area", "tile", "menorahs", "cost", "effect", "effect_b"],
        NUM_GOLEM_DEVS + NUM_STUDY_DEVS + NUM_ARTIFACT_DEVS,
    )
    sizes = {"golem": NUM_GOLEM_DEVS, "study": NUM_STUDY_DEVS, "artifact": NUM_ARTIFACT_DEVS}
    dev = {a: np.zeros((4, n), np.int16) for a, n in sizes.items()}
    for ln, r in rows:
        area = ("golem", "study", "artifact")[reader.choice(f, ln, r, "area", ("golem", "study", "artifact"))]
        t = reader.int(f, ln, r, "tile", 1, sizes[area]) - 1
        dev[area][0, t] = reader.int(f, ln, r, "menorahs", 0, 9)
        dev[area][1, t] = reader.int(f, ln, r, "cost", 0, 30)
        dev[area][2, t] = reader.effect(f, ln, r["effect"], EFFECTS)
        dev[area][3, t] = reader.effect(f, ln, r["effect_b"], EFFECTS) if r["effect_b"] else 0
    return (
        dev["golem"][0],
        dev["golem"][1],
        dev["golem"][2],
        dev["study"][0],
        dev["study"][1],
        dev["study"][2],
        dev["artifact"][0],
        dev["artifact"][1],
        np.ascontiguousarray(dev["artifact"][2:4].T),
    )


def _read_tracks(
    reader: _Reader, root: Path, toml_path: Path, params: dict[str, Any]
) -> tuple[tuple[np.ndarray, ...], tuple[int, int, int]]:
    """The board's tracks: streets, Golem track, Study track and Cemetery columns, and the three tracks' lengths."""
    f = "streets.csv"
    rows = reader.rows(f, ["section", "resource", "vp", "golem_entry_cost"], NUM_SECTIONS)
    street = np.array(
        [
            [reader.int(f, ln, r, k, 0, 20) for k in ("resource", "vp", "golem_entry_cost")]
            for ln, r in _ordered(reader, f, rows, "section", 1)
        ],
        np.int16,
    )
    f = "golem_track.csv"
    rows = reader.rows(f, ["position", "level", "income_clay", "income_vp"], 2, MAX_GOLEM_TRACK)
    gt = _padded(
        [
            [reader.int(f, ln, r, k, 0, 20) for k in ("level", "income_clay", "income_vp")]
            for ln, r in _ordered(reader, f, rows, "position", 0)
        ],
        MAX_GOLEM_TRACK,
    )
    golem_track_len = len(rows)
    if params["golem_track_start"] >= golem_track_len:
        raise DataError(
            f"{toml_path}: table.golem_track_start: {params['golem_track_start']} is beyond the last space of "
            f"golem_track.csv ({golem_track_len - 1})"
        )
    f = "study_track.csv"
    rows = reader.rows(f, ["position", "column_limit", "income_knowledge", "end_vp"], 2, MAX_STUDY_TRACK)
    sd = _padded(
        [
            [
                reader.int(f, ln, r, k, 0, 5 if k == "column_limit" else 50)
                for k in ("column_limit", "income_knowledge", "end_vp")
            ]
            for ln, r in _ordered(reader, f, rows, "position", 0)
        ],
        MAX_STUDY_TRACK,
    )
    study_track_len = len(rows)
    f = "cemetery.csv"
    rows = reader.rows(
        f, ["space", "min_players", "clay", "coin", "knowledge", "gold", "vp", "unlimited"], 1, MAX_CEMETERY
    )
    cem = _padded(
        [
            [
                reader.int(f, ln, r, k, 0, 20)
                for k in ("min_players", "clay", "coin", "knowledge", "gold", "vp", "unlimited")
            ]
            for ln, r in _ordered(reader, f, rows, "space", 1)
        ],
        MAX_CEMETERY,
    )
    cemetery_len = len(rows)
    if cem[cemetery_len - 1, 6] != 1:
        raise DataError(f"{root / f}: line {rows[-1][0]}: column 'unlimited': the last space must be unlimited")
    columns = (street[:, 0], street[:, 1], street[:, 2], gt[:, 0], gt[:, 1], gt[:, 2], sd[:, 0], sd[:, 1], sd[:, 2])
    cemetery = (cem[:, 0].copy(), cem[:, 1:6].copy(), cem[:, 6].copy())
    return (*(c.copy() for c in columns), *cemetery), (golem_track_len, study_track_len, cemetery_len)


def _apprentice_weights(root: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The apprentice's play weights (``apprentice.csv``), value weights (``VALUE_FILE``'s columns over them) and the
    weights of its styles (``STYLES_FILE``); solo games play and value by the 2-player value fit
    (``APPRENTICE_PLAYERS``)."""
    w = read_weights(root, APPRENTICE_FEATURES, APPRENTICE_PLAYERS, MAX_PLAYERS)
    v = value_weights(root, APPRENTICE_FEATURES, VALUE_PLAYERS, MAX_PLAYERS, w, VALUE_FILE)
    if 1 not in APPRENTICE_PLAYERS:
        w[1] = v[2]
        v[1] = v[2]
    counts = tuple(sorted({1, *APPRENTICE_PLAYERS}))
    return w, v, style_weights(w, read_styles(root, APPRENTICE_FEATURES, STYLES), APPRENTICE_FEATURES, counts)


def estimate_note(d: GolemData) -> str:
    """One line saying which values are estimates (empty when none are)."""
    if not d.provenance["estimates"]:
        return ""
    files = [f"{name} ({n} rows)" for name, n in d.provenance["estimated_rows"].items() if n]
    params = d.provenance["estimated_parameters"]
    return (
        "ESTIMATES in use (values the rules text does not give): "
        + ", ".join(files)
        + (f"; game.toml: {', '.join(params)}" if params else "")
    )


class _Reader:
    """Reads the CSV tables of one folder, counting the rows that carry estimated values."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.estimated: dict[str, int] = {}

    def rows(
        self, name: str, columns: list[str], count: int, most: int | None = None
    ) -> list[tuple[int, dict[str, str]]]:
        """The table's rows: exactly ``count``, or ``count`` to ``most`` when ``most`` is given."""
        path = self.root / name
        rows = datafiles.read_csv(path, [*columns, "estimated", "source"])
        if most is None and len(rows) != count:
            raise DataError(f"{path}: expected {count} data rows, found {len(rows)}")
        if most is not None and not count <= len(rows) <= most:
            raise DataError(f"{path}: expected {count} to {most} data rows, found {len(rows)}")
        n = 0
        first: dict[str, int] = {}
        for line, r in rows:
            if "id" in columns:
                if r["id"] in first:
                    raise DataError(f"{path}: line {line}: column 'id': '{r['id']}' is also on line {first[r['id']]}")
                first[r["id"]] = line
            flagged = [x for x in r["estimated"].split(";") if x]
            if not flagged:
                raise DataError(f"{path}: line {line}: column 'estimated': empty (use 'none', 'all' or field names)")
            for x in flagged:
                if x not in ("none", "all") and x not in r:
                    raise DataError(f"{path}: line {line}: column 'estimated': '{x}' is not a column")
            if flagged != ["none"]:
                n += 1
            if not r["source"]:
                raise DataError(f"{path}: line {line}: column 'source': empty")
        self.estimated[name] = n
        return rows

    def int(self, name: str, line: int, row: dict[str, str], col: str, lo: int, hi: int) -> int:
        return datafiles.parse_int(self.root / name, line, col, row[col], lo, hi)

    def choice(self, name: str, line: int, row: dict[str, str], col: str, allowed: tuple[str, ...]) -> int:
        if row[col] not in allowed:
            raise DataError(
                f"{self.root / name}: line {line}: column '{col}': '{row[col]}' is not one of {', '.join(allowed)}"
            )
        return allowed.index(row[col])

    def order(self, name: str, line: int, row: dict[str, str], col: str, allowed: tuple[str, ...]) -> list[int]:
        """A priority list: every name of ``allowed`` once, separated by ';'."""
        names = row[col].split(";")
        if sorted(names) != sorted(allowed):
            raise DataError(
                f"{self.root / name}: line {line}: column '{col}': '{row[col]}' must list each of "
                f"{', '.join(allowed)} once, separated by ';'"
            )
        return [allowed.index(x) for x in names]

    def effect(self, name: str, line: int, text: str, allowed: tuple[str, ...]) -> int:
        if text not in allowed:
            raise DataError(f"{self.root / name}: line {line}: column 'effect': unknown effect '{text}'")
        return E[text]

    def resource(self, name: str, line: int, row: dict[str, str], col: str) -> int:
        text = row[col]
        if not text:
            return -1
        if text in RESOURCES:
            return RESOURCES.index(text)
        if text in DISTRICTS:
            return DISTRICTS.index(text)
        raise DataError(
            f"{self.root / name}: line {line}: column '{col}': '{text}' is not one of "
            f"{', '.join(RESOURCES + DISTRICTS)}"
        )


def _kernel_params(
    params: dict[str, Any],
    rules: dict[str, Any],
    intro: dict[str, Any],
    sizes: tuple[int, int, int],
    gift: tuple[int, int],
) -> tuple:
    """The scalar parameters, rule options, the sizes of the tracks and the Cemetery (``sizes``), the gift (kind
    and index, :func:`gift_code`) and the list parameters as kernel arrays."""
    prm = np.zeros(NUM_PARAMS, np.int64)
    prm[P_GOLEM_TRACK_LEN], prm[P_STUDY_TRACK_LEN], prm[P_CEMETERY_LEN] = sizes
    for idx, key in (
        (P_STARTING_VP, "starting_vp"),
        (P_GOLEM_COST, "golem_cost"),
        (P_GOLEM_EXTRA_COST, "golem_extra_cost"),
        (P_GOLD_PRICE, "gold_price"),
        (P_GOLD_SUPPLY, "gold_supply"),
        (P_MIRROR_COST, "mirror_cost"),
        (P_MIRROR_STUDY_COST, "mirror_study_cost"),
        (P_CHARACTER_COINS, "character_coins"),
        (P_CONTROL_PENALTY, "control_penalty"),
        (P_OVERMOVE_PENALTY, "overmove_penalty"),
        (P_TRACK_START, "golem_track_start"),
        (P_TRACK_CREATE, "golem_track_create"),
        (P_TRACK_KILL, "golem_track_kill"),
        (P_MENORAH_SECTION, "menorah_section"),
        (P_LEFTOVER_PER_VP, "leftover_per_vp"),
        (P_OBJECTIVES_DEALT, "objectives_dealt"),
        (P_OBJECTIVES_KEPT, "objectives_kept"),
        (P_START_DEALT, "starting_tiles_dealt"),
        (P_START_KEPT, "starting_tiles_kept"),
        (P_MAX_COLUMN, "max_study_column"),
        (P_BOOK_COLUMNS, "book_columns"),
        (P_STUDY_DEV_LIMIT, "study_track_dev_limit"),
        (P_STUDY_DEV_INCOME, "study_track_dev_income"),
    ):
        prm[idx] = params[key]
    prm[P_INTRO_START_DEALT] = intro["starting_tiles_dealt"]
    prm[P_INTRO] = int(rules["setup"] == "introductory")
    prm[P_OVERMOVE_ONE] = int(rules["overmove"] == "one_per_step")
    prm[P_SECTION_PAYMENT] = ("choice", "vp", "knowledge").index(rules["section_payment"])
    prm[P_SECOND_PASS] = int(rules["second_pass"] == "final")
    prm[P_VP_FLOOR_ZERO] = int(rules["vp_floor"] == "zero")
    prm[P_LEFTOVER_GOLD] = int(rules["leftover_gold"] == "included")
    prm[P_AUTOMA] = int(rules["solo_opponent"] == "automa")
    prm[P_AUTOMA_RABBI_GAUGE] = params["automa_rabbi_gauge"]
    prm[P_GIFT_KIND], prm[P_GIFT] = gift
    marbles = np.array(
        [params["marbles_1_2"], params["marbles_1_2"], params["marbles_1_2"], params["marbles_3"], params["marbles_4"]],
        np.int64,
    )
    return (
        prm,
        np.array(params["row_weights"], np.int64),
        np.array(params["work_costs"], np.int64),
        np.array(params["library_costs"], np.int64),
        np.array(params["tile_sections"], np.int64),
        np.array(params["objective_type_vp"], np.int64),
        marbles,
        np.array(intro["characters"], np.int64),
        np.array([intro[d] for d in DISTRICTS], np.int64),
    )


def gift_code(
    gift: str,
    book_ids: tuple[str, ...],
    objective_ids: tuple[str, ...],
    start_ids: tuple[str, ...],
    character_ids: tuple[str, ...],
    root: Path,
) -> tuple[int, int]:
    """Rule option ``gift`` as (``GIFT_*`` kind, index); ``DataError`` for an id that names no giftable component."""
    if gift == "none":
        return GIFT_NONE, -1
    for ids, kind in ((book_ids, GIFT_BOOK), (objective_ids, GIFT_OBJECTIVE), (start_ids, GIFT_START)):
        if gift in ids:
            return kind, ids.index(gift)
    for prefix, kind in GIFT_DEV_PREFIXES.items():
        k = gift.removeprefix(prefix)
        if gift.startswith(prefix) and k.isdigit() and 1 <= int(k) <= NUM_GOLEM_DEVS:
            return kind, int(k) - 1
    if gift.removeprefix("artifact_") in {"1", "2", "3", "4"}:
        return GIFT_ARTIFACT, int(gift.removeprefix("artifact_")) - 1
    if gift in character_ids:
        raise DataError(
            f"rule option gift: '{gift}' is a Character, a public Palace card no seat owns (RULINGS.md R41); "
            "its what-if is golem sweep --set characters.<id>.cost=..."
        )
    raise DataError(
        f"rule option gift: '{gift}' is not a Book, Objective or Starting tile of {root}, nor golem_dev_1-6, "
        "study_dev_1-6, artifact_dev_1-6 or artifact_1-4"
    )


def automa_thresholds(params: dict[str, Any], difficulty: str) -> list[int]:
    """The Automa's gauge thresholds at ``difficulty``: easy / hard scale them up / down by the percentage."""
    pct = {"easy": params["automa_difficulty_pct"], "normal": 0, "hard": -params["automa_difficulty_pct"]}[difficulty]
    return [(v * (100 + pct) + 50) // 100 for v in params["automa_thresholds"]]


def _automa(reader: _Reader, params: dict[str, Any], rules: dict[str, Any]) -> tuple:
    """The solo Automa's tables (cards, Strategy and Special Development tiles, thresholds) as arrays."""
    f = "automa_cards.csv"
    rows = reader.rows(f, ["id", "rows", "colours", "rabbi", "rabbi_turn"], NUM_AUTOMA_CARDS)
    au_rows = np.array([reader.order(f, ln, r, "rows", ROWS) for ln, r in rows], np.int16)
    au_colours = np.array([reader.order(f, ln, r, "colours", MARBLES) for ln, r in rows], np.int16)
    au_top = np.array([reader.choice(f, ln, r, "rabbi", ("bottom", "top")) for ln, r in rows], np.int16)
    au_turn = np.array([reader.int(f, ln, r, "rabbi_turn", 1, 3) for ln, r in rows], np.int16)
    f = "automa_tiles.csv"
    cols = ["id", "kind", "focus", "gauge_bonus", "vp_1", "vp_2", "vp_3", "vp_4", "doubles", "unlock_lap"]
    rows = reader.rows(f, cols, 1 + NUM_AUTOMA_STRATEGIES + NUM_AUTOMA_SPECIALS)
    kinds = ("main",) + ("strategy",) * NUM_AUTOMA_STRATEGIES + ("special",) * NUM_AUTOMA_SPECIALS
    au_vp = np.zeros((1 + NUM_AUTOMA_STRATEGIES, NUM_AUTOMA_THRESHOLDS), np.int16)
    focus = np.zeros(NUM_AUTOMA_STRATEGIES, np.int16)
    bonus = np.zeros(NUM_AUTOMA_STRATEGIES, np.int16)
    doubles = np.zeros(NUM_AUTOMA_SPECIALS, np.int16)
    unlock = np.zeros(NUM_AUTOMA_SPECIALS, np.int16)
    for k, ((ln, r), want) in enumerate(zip(rows, kinds, strict=True)):
        if AUTOMA_TILE_KINDS[reader.choice(f, ln, r, "kind", AUTOMA_TILE_KINDS)] != want:
            raise DataError(
                f"{reader.root / f}: line {ln}: column 'kind': expected '{want}' (rows: 1 main, "
                f"{NUM_AUTOMA_STRATEGIES} strategy, {NUM_AUTOMA_SPECIALS} special, in that order)"
            )
        if want == "special":
            doubles[k - 1 - NUM_AUTOMA_STRATEGIES] = reader.choice(f, ln, r, "doubles", AUTOMA_CATEGORIES)
            unlock[k - 1 - NUM_AUTOMA_STRATEGIES] = reader.int(f, ln, r, "unlock_lap", 0, 10)
            continue
        for j in range(NUM_AUTOMA_THRESHOLDS):
            au_vp[k, j] = reader.int(f, ln, r, f"vp_{j + 1}", 0, 50)
        if want == "strategy":
            focus[k - 1] = reader.choice(f, ln, r, "focus", ROWS)
            bonus[k - 1] = reader.int(f, ln, r, "gauge_bonus", 0, 10)
    thresholds = automa_thresholds(params, rules["automa_difficulty"])
    if any(b <= a for a, b in zip([0, *thresholds], thresholds, strict=False)):
        raise DataError(
            f"{reader.root / 'game.toml'}: table.automa_thresholds: must rise strictly from 1 "
            f"(at {rules['automa_difficulty']} difficulty: {thresholds})"
        )
    return (
        au_rows,
        au_colours,
        au_top,
        au_turn,
        au_vp,
        focus,
        bonus,
        doubles,
        unlock,
        np.array(thresholds, np.int64),
    )


def _padded(rows: list[list[int]], size: int) -> np.ndarray:
    """A table's rows as a (``size``, columns) array: the rows, then zeros."""
    out = np.zeros((size, len(rows[0])), np.int16)
    out[: len(rows)] = rows
    return out


def _ordered(reader: _Reader, name: str, rows: list, col: str, first: int) -> list:
    """Rows of a track table, checking that ``col`` counts up from ``first``."""
    for k, (line, r) in enumerate(rows):
        reader.int(name, line, r, col, first + k, first + k)
    return rows


def _table(path: Path, conf: dict) -> tuple[dict[str, Any], list[str]]:
    table = conf.get("table")
    prov = conf.get("provenance", {})
    if not isinstance(table, dict):
        raise DataError(f"{path}: missing [table]")
    out: dict[str, Any] = {}
    for key, (lo, hi) in TOML_KEYS.items():
        if key not in table:
            raise DataError(f"{path}: table.{key}: missing")
        value = table[key]
        values = value if isinstance(value, list) else [value]
        if key in LIST_LENGTHS and (not isinstance(value, list) or len(value) != LIST_LENGTHS[key]):
            raise DataError(f"{path}: table.{key}: expected a list of {LIST_LENGTHS[key]} integers")
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise DataError(f"{path}: table.{key}: '{v}' is not an integer in {lo}..{hi}")
        if not isinstance(prov.get(key), str) or prov[key].split(":")[0] not in ("rules", "ESTIMATE"):
            raise DataError(f"{path}: provenance.{key}: missing (a string starting 'rules:' or 'ESTIMATE:')")
        out[key] = value
    for key in table:
        if key not in TOML_KEYS:
            raise DataError(f"{path}: table.{key}: unknown parameter")
    if sum(out["row_weights"]) == 0:
        raise DataError(f"{path}: table.row_weights: all zero")
    if sorted(out["tile_sections"]) != out["tile_sections"] or len(set(out["tile_sections"])) != NUM_TILES:
        raise DataError(f"{path}: table.tile_sections: must be {NUM_TILES} different sections in ascending order")
    if out["starting_tiles_kept"] > out["starting_tiles_dealt"]:
        raise DataError(f"{path}: table.starting_tiles_kept: more than starting_tiles_dealt")
    estimated = [k for k in TOML_KEYS if prov[k].startswith("ESTIMATE")]
    return out, estimated


def _intro(path: Path, conf: dict, character_ids: tuple[str, ...]) -> dict[str, Any]:
    intro = conf.get("introductory")
    if not isinstance(intro, dict):
        raise DataError(f"{path}: missing [introductory]")
    chars = intro.get("characters")
    if not isinstance(chars, list) or len(chars) != NUM_ROUNDS or any(c not in character_ids for c in chars):
        raise DataError(f"{path}: introductory.characters: expected {NUM_ROUNDS} ids from characters.csv")
    out: dict[str, Any] = {"characters": [character_ids.index(c) for c in chars]}
    for d in DISTRICTS:
        tiles = intro.get(d)
        if (
            not isinstance(tiles, list)
            or len(tiles) != NUM_TILES
            or sorted(set(tiles)) != tiles
            or not all(isinstance(t, int) and 1 <= t <= NUM_DISTRICT_TILES for t in tiles)
        ):
            raise DataError(f"{path}: introductory.{d}: expected {NUM_TILES} ascending tile numbers 1..10")
        out[d] = [t - 1 for t in tiles]
    dealt = intro.get("starting_tiles_dealt")
    if not isinstance(dealt, int) or not 1 <= dealt <= 4:
        raise DataError(f"{path}: introductory.starting_tiles_dealt: expected an integer 1..4")
    out["starting_tiles_dealt"] = dealt
    return out
