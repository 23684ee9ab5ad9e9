"""Golems definition data: the deck (``cards.csv``) and table parameters (``game.toml``) as numpy arrays.

The engine depends on no particular card list: every card's type, resource symbol (or wild),
summon requirement, hand VP, gem reward and dust, and every table parameter, come from the
folder loaded here. The shipped folder ``seeds/golems`` holds the fact sheet's DEFAULT deck, a
labelled stand-in until the printed card list is supplied.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from simulate import datafiles
from simulate.apprentice import (
    STYLES_FILE,
    read_provenance,
    read_styles,
    read_weights,
    style_names,
    style_weights,
    value_weights,
)
from simulate.datafiles import DataError
from simulate.games.golems.features import FEATURES, PLAYER_COUNTS

MAX_PLAYERS = 2
MAX_TYPES = 6  # resource types
MAX_ROWS = 6
MAX_ROW_SIZE = 4
MAX_DISPLAY = 16  # rows x row_size, both modes
MAX_REMOVED = 4
MAX_START_PER_PLAYER = 2
MAX_CARDS = 500
MAX_REQUIREMENT = 12  # icons on one Golem
DUST_TABLE = 32  # dust_vp entries kept (more dust than listed scores 0)
WILD = "*"

GOLEM, RUNE, GEM = 0, 1, 2
TYPES = ("golem", "rune", "gem")

# Indices into ``GolemsTables.params``.
P_NUM_TYPES = 0
P_ROWS = 1
P_ROW_SIZE = 2
P_STARTING_GEMS = 3
P_GEM_TOKENS = 4
P_REMOVED = 5
P_START_PER_PLAYER = 6
P_TAKE_GEMS = 7
P_TAKE_MAX_HELD = 8
P_RESERVE_MIN = 9
P_RESERVE_COST = 10
P_TUCK_MAX = 11
P_GOLEM_VP = 12
P_TUCK_VP = 13
P_DUST_LEN = 14
P_MAX_TURNS = 15
P_SOLO_ROWS = 16
P_SOLO_ROW_SIZE = 17
P_SOLO_PICKS = 18
P_AUTOMA_GOLEM_VP = 19
P_NUM_MAIN = 20
P_NUM_START = 21
# rule options
P_TUCK_LIMIT = 22  # TUCK_REQUIREMENT, TUCK_REQUIRED_TYPES or TUCK_ANY
P_WILD_TUCK = 23
P_TAKE_SHORT_FORBIDDEN = 24
P_REFILL_EMPTY = 25
P_SPARE_TO_DECK = 26
P_RUNE_DISCARD = 27
P_RESERVE_BEFORE = 28
P_DUST_CARDS = 29
P_TIE_SHARED = 30
P_AUTOMA_GEMS_SCORE = 31
P_SOLO_PARTIAL = 32
P_GIFT = 33  # card index of the gift copy (rule option ``gift``), -1 without one
NUM_PARAMS = 34
PER_CARD = (
    "c_type",
    "c_res",
    "c_wild",
    "c_req",
    "c_req_packed",
    "c_req_total",
    "c_vp",
    "c_reward",
    "c_dust",
    "main_cards",
    "start_cards",
)
"""Fields of :class:`GolemsTables` with a row per card: the kernel record sizes them to the deck capacity
(:func:`simulate.datafiles.pack_record`), so a gift or an edited deck plays the printed deck's compiled kernels
(the kernels read the counts from ``P_NUM_MAIN``, ``P_NUM_START`` and the state's card slots)."""

TUCK_REQUIREMENT, TUCK_REQUIRED_TYPES, TUCK_ANY = 0, 1, 2

GIFT_SUFFIX = "*"
"""The gift copy's id is its card's id with this suffix (``R05*``)."""

VALUE_FILE = "apprentice_value.csv"
"""The apprentice's value where its weights are a policy (2 players): its look-ahead's reply value and the search's
leaf (``benchmarks/golems_reply_value.py`` fitted the shipped one; ``golem train golems`` writes its own)."""
VALUE_PLAYERS = (2,)
"""Player counts with a column in ``VALUE_FILE``: those whose weights the policy stage refits."""
VALUE_PROVENANCE_FILE = "apprentice_value.toml"
FILES = ("cards.csv", "game.toml", "apprentice.csv", "apprentice.toml", VALUE_FILE, VALUE_PROVENANCE_FILE, STYLES_FILE)
STYLES = style_names(datafiles.default_dir("golems"))[1:]
"""The apprentice's strategy styles (``apprentice:style=NAME``), as the shipped ``styles.toml`` declares them."""
CARD_COLUMNS = ["id", "deck", "type", "resource", "requirement", "vp", "reward", "dust"]

# name -> (type, choices, help); defaults live in game.toml [rules]
RULE_OPTIONS: dict[str, tuple[type, tuple, str]] = {
    "tuck_limit": (
        str,
        ("requirement", "required_types", "any"),
        "cards tucked under a summoned Golem: requirement = each of a required type and no more of a type "
        "than required; required_types = any mix of required types; any = any resource cards (all at most tuck_max)",
    ),
    "wild_tuck": (bool, (True, False), "a wild Rune counts as its column's type when tucking"),
    "take_gems_short": (
        str,
        ("partial", "forbidden"),
        "the gem action with fewer gems in the supply than it takes: partial = take what is left; "
        "forbidden = not allowed",
    ),
    "short_refill": (
        str,
        ("partial", "empty"),
        "a row the deck cannot refill (this triggers the end): partial = deal the cards left; empty = leave it empty",
    ),
    "spare_start_runes": (
        str,
        ("out", "deck"),
        "starting Runes no player was dealt: out = out of play; deck = shuffled into the deck",
    ),
    "unusable_rune": (
        str,
        ("forbidden", "discard"),
        "a Rune whose abilities cannot resolve (no column of its type, too few gems to Reserve): "
        "forbidden = it cannot be taken; discard = it can be taken and is discarded",
    ),
    "reserve_check": (
        str,
        ("after_payment", "before_payment"),
        "when Reserve counts the player's gems: after paying for the card, or before taking it",
    ),
    "dust_count": (
        str,
        ("amount", "cards"),
        "what the 1/3/6/10 dust table counts: the dust amount printed on the cards, or the number of dust cards",
    ),
    "tie_break": (
        str,
        ("rules", "shared"),
        "rules = most summoned Golems, then most tucked cards, then shared; shared = equal scores share the win",
    ),
    "solo_automa_gems": (
        str,
        ("supply", "score"),
        "solo: gems lying on the cards the automaton receives return to the supply, or score 1 point each for it",
    ),
    "solo_short_grid": (
        str,
        ("end", "partial"),
        "solo: when the deck cannot fill a new grid the game ends, or a partial grid is dealt and played",
    ),
    "gift": (
        str,
        ("none", "<card id>"),
        "none, or a card dealt in one more copy at setup to the seat of the lineup's first bot, used as the rules "
        "allow before any turn: a Golem starts its resource column, a Rune goes to the hand, a Gem card goes to the "
        "hand with its Reward's gems from the supply (the deck keeps its own copy; rotated seats move the gift "
        "round the table): what the card is worth (docs/card-value.md)",
    ),
}


class GolemsTables(NamedTuple):
    """Card tables and parameters in the form the kernels take.

    Cards are indexed ``0..num_cards-1`` in file order (main deck and starting Runes alike).
    """

    c_type: np.ndarray  # int8 (N,): GOLEM, RUNE or GEM
    c_res: np.ndarray  # int8 (N,): resource type 0..K-1, -1 for Gem cards and wild Runes
    c_wild: np.ndarray  # int8 (N,): 1 for a wild Rune
    c_req: np.ndarray  # int8 (N, MAX_TYPES): summon requirement of a Golem by type
    c_req_packed: np.ndarray  # uint64 (N,): the requirement, one byte per type (for bots' one-step checks)
    c_req_total: np.ndarray  # int16 (N,): icons in the requirement
    c_vp: np.ndarray  # int16 (N,): hand VP of a Rune or Gem card
    c_reward: np.ndarray  # int16 (N,): gems of a Gem card's Reward
    c_dust: np.ndarray  # int16 (N,): dust of a Gem card (as counted: amount, or 1 with dust_count = cards)
    main_cards: np.ndarray  # int16 (M,): card indices of the main deck
    start_cards: np.ndarray  # int16 (max(S, 1),): card indices of the starting Runes (P_NUM_START valid)
    dust_vp: np.ndarray  # int16 (DUST_TABLE,): points for d dust, d < P_DUST_LEN; 0 beyond
    params: np.ndarray  # int64 (NUM_PARAMS,), see P_*
    apprentice_w: np.ndarray  # float64 (MAX_PLAYERS + 1, 1 + len(FEATURES)): the apprentice's weights by players
    apprentice_v: np.ndarray  # float64, the same shape: its value (VALUE_FILE's rows, apprentice_w's elsewhere)
    style_w: np.ndarray  # float64 (1 + styles, MAX_PLAYERS + 1, 1 + features): each style's weights (0: apprentice_w)


class GolemsData(NamedTuple):
    """Loaded definition: kernel tables plus names and provenance for logs and replays."""

    tables: GolemsTables
    kernel: np.ndarray  # the tables packed as a one-element structured array (pack_record, PER_CARD at capacity)
    card_ids: tuple[str, ...]
    resources: tuple[str, ...]
    rules: dict[str, Any]
    table: dict[str, Any]
    solo: dict[str, Any]
    label: str
    provenance: dict[str, Any]


def load(cards_dir: str | Path | None = None, rules: dict[str, Any] | None = None) -> GolemsData:
    """Load and validate a Golems definition folder (default: the shipped ``seeds/golems``).

    ``rules`` overrides rule options of the folder's ``game.toml``. Every error is a
    ``DataError`` naming the file, line and field.
    """
    folder = datafiles.data_folder(cards_dir, "golems", f"Golems data ({', '.join(FILES)})")
    toml_path = folder / "game.toml"
    conf = datafiles.read_toml(toml_path)
    table, solo, label, stand_in, resources = _game_toml(toml_path, conf)
    rule_values = _rules(toml_path, conf, rules or {})
    cards = _cards(folder / "cards.csv", resources)
    ids, c_type, c_res, c_wild, c_req, c_vp, c_reward, c_dust, main, start = cards
    _check_deck(folder / "cards.csv", table, solo, main, start)
    gift = -1
    if rule_values["gift"] != "none":
        cid = rule_values["gift"]
        if cid not in ids:
            raise DataError(f"rule option gift: '{cid}' is not a card of {folder / 'cards.csv'}")
        if len(ids) >= MAX_CARDS:
            raise DataError(f"rule option gift: no room for a gift copy beside {len(ids)} cards")
        k = ids.index(cid)
        gift = len(ids)  # the copy is in neither deck: only ``engine.deal_gift`` deals it
        ids = [*ids, f"{cid}{GIFT_SUFFIX}"]
        for column in (c_type, c_res, c_wild, c_req, c_vp, c_reward, c_dust):
            column.append(column[k])

    k = len(resources)
    params = np.zeros(NUM_PARAMS, dtype=np.int64)
    params[P_NUM_TYPES] = k
    params[P_ROWS] = table["rows"]
    params[P_ROW_SIZE] = table["row_size"]
    params[P_STARTING_GEMS] = table["starting_gems"]
    params[P_GEM_TOKENS] = table["gem_tokens"]
    params[P_REMOVED] = table["removed_at_setup"]
    params[P_START_PER_PLAYER] = table["start_runes_per_player"]
    params[P_TAKE_GEMS] = table["take_gems"]
    params[P_TAKE_MAX_HELD] = table["take_gems_max_held"]
    params[P_RESERVE_MIN] = table["reserve_min_gems"]
    params[P_RESERVE_COST] = table["reserve_cost"]
    params[P_TUCK_MAX] = table["tuck_max"]
    params[P_GOLEM_VP] = table["golem_vp"]
    params[P_TUCK_VP] = table["tuck_vp"]
    params[P_DUST_LEN] = len(table["dust_vp"])
    params[P_MAX_TURNS] = table["max_turns"]
    params[P_SOLO_ROWS] = solo["rows"]
    params[P_SOLO_ROW_SIZE] = solo["row_size"]
    params[P_SOLO_PICKS] = solo["picks"]
    params[P_AUTOMA_GOLEM_VP] = solo["automa_golem_vp"]
    params[P_NUM_MAIN] = len(main)
    params[P_NUM_START] = len(start)
    params[P_TUCK_LIMIT] = ("requirement", "required_types", "any").index(rule_values["tuck_limit"])
    params[P_WILD_TUCK] = int(rule_values["wild_tuck"])
    params[P_TAKE_SHORT_FORBIDDEN] = int(rule_values["take_gems_short"] == "forbidden")
    params[P_REFILL_EMPTY] = int(rule_values["short_refill"] == "empty")
    params[P_SPARE_TO_DECK] = int(rule_values["spare_start_runes"] == "deck")
    params[P_RUNE_DISCARD] = int(rule_values["unusable_rune"] == "discard")
    params[P_RESERVE_BEFORE] = int(rule_values["reserve_check"] == "before_payment")
    params[P_DUST_CARDS] = int(rule_values["dust_count"] == "cards")
    params[P_TIE_SHARED] = int(rule_values["tie_break"] == "shared")
    params[P_AUTOMA_GEMS_SCORE] = int(rule_values["solo_automa_gems"] == "score")
    params[P_SOLO_PARTIAL] = int(rule_values["solo_short_grid"] == "partial")
    params[P_GIFT] = gift

    dust_vp = np.zeros(DUST_TABLE, dtype=np.int16)
    dust_vp[: len(table["dust_vp"])] = table["dust_vp"]
    dust = np.array(c_dust, dtype=np.int16)
    if rule_values["dust_count"] == "cards":
        dust = np.where(np.array(c_type) == GEM, 1, 0).astype(np.int16)
    req = np.array(c_req, dtype=np.int8).reshape(-1, MAX_TYPES)
    shifts = 8 * np.arange(MAX_TYPES, dtype=np.uint64)
    play_weights = read_weights(folder, FEATURES, PLAYER_COUNTS, MAX_PLAYERS)
    value = value_weights(folder, FEATURES, VALUE_PLAYERS, MAX_PLAYERS, play_weights, VALUE_FILE)
    tables = GolemsTables(
        c_type=np.array(c_type, dtype=np.int8),
        c_res=np.array(c_res, dtype=np.int8),
        c_wild=np.array(c_wild, dtype=np.int8),
        c_req=req,
        c_req_packed=(req.astype(np.uint64) << shifts).sum(axis=1, dtype=np.uint64),
        c_req_total=req.sum(axis=1).astype(np.int16),
        c_vp=np.array(c_vp, dtype=np.int16),
        c_reward=np.array(c_reward, dtype=np.int16),
        c_dust=dust,
        main_cards=np.array(main, dtype=np.int16),
        start_cards=np.array(start or [0], dtype=np.int16),
        dust_vp=dust_vp,
        params=params,
        apprentice_w=play_weights,
        apprentice_v=value,
        style_w=style_weights(play_weights, read_styles(folder, FEATURES, STYLES), FEATURES, PLAYER_COUNTS),
    )
    default = folder.resolve() == datafiles.default_dir("golems").resolve()
    provenance = {
        "folder": "seeds/golems" if default else str(folder),
        "default": default,
        "estimates": stand_in,
        "label": label,
        "files": {name: datafiles.sha256(folder / name) for name in FILES},
        "apprentice": read_provenance(folder).get("fit", {}),  # how the weights were fitted (none: hand-set)
        "apprentice_value": read_provenance(folder, VALUE_PROVENANCE_FILE).get("fit", {}),
    }
    kernel = datafiles.pack_record(tables, PER_CARD)
    return GolemsData(tables, kernel, tuple(ids), resources, rule_values, table, solo, label, provenance)


def requirement_str(data: GolemsData, card: int) -> str:
    """A Golem's requirement as a string such as ``"AAB"``."""
    req = data.tables.c_req[card]
    return "".join(data.resources[t] * int(req[t]) for t in range(len(data.resources)))


def card_text(data: GolemsData, card: int) -> str:
    """One card as short text: ``G05 golem A needs AAB``, ``R01 rune * 2vp``, ``J03 gem +3 0vp 1dust``."""
    t = data.tables
    cid = data.card_ids[card]
    kind = int(t.c_type[card])
    if kind == GOLEM:
        return f"{cid} golem {data.resources[t.c_res[card]]} needs {requirement_str(data, card)}"
    if kind == RUNE:
        sym = WILD if t.c_wild[card] else data.resources[t.c_res[card]]
        return f"{cid} rune {sym} {t.c_vp[card]}vp"
    return f"{cid} gem +{t.c_reward[card]} {t.c_vp[card]}vp {t.c_dust[card]}dust"


# --------------------------------------------------------------------------------- helpers


def _cards(path: Path, resources: tuple[str, ...]):
    rows = datafiles.read_csv(path, CARD_COLUMNS)
    ids: list[str] = []
    c_type, c_res, c_wild, c_req, c_vp, c_reward, c_dust, main, start = [], [], [], [], [], [], [], [], []
    seen: dict[str, int] = {}
    for line, r in rows:
        where = f"{path}: line {line}"
        cid = r["id"]
        if not cid:
            raise DataError(f"{where}: column 'id': empty")
        if cid in seen:
            raise DataError(f"{where}: column 'id': duplicate id '{cid}' (first on line {seen[cid]})")
        if any(ch in cid for ch in " ,;\t"):
            raise DataError(f"{where}: column 'id': '{cid}' has a space or separator")
        seen[cid] = line
        if r["type"] not in TYPES:
            raise DataError(f"{where}: column 'type': '{r['type']}' is not one of {', '.join(TYPES)}")
        kind = TYPES.index(r["type"])
        if r["deck"] not in ("main", "start"):
            raise DataError(f"{where}: column 'deck': '{r['deck']}' is not 'main' or 'start'")
        if r["deck"] == "start" and kind != RUNE:
            raise DataError(f"{where}: column 'deck': only Runes can be starting cards, this is a {r['type']}")
        res, wild, vp, reward, dust = -1, 0, 0, 0, 0
        req = np.zeros(MAX_TYPES, dtype=np.int8)
        if kind == GOLEM:
            res = _resource(where, r["resource"], resources, allow_wild=False)
            text = r["requirement"].replace(" ", "")
            if not text:
                raise DataError(f"{where}: column 'requirement': a golem needs a summon requirement, e.g. 'AAB'")
            if len(text) > MAX_REQUIREMENT:
                raise DataError(f"{where}: column 'requirement': at most {MAX_REQUIREMENT} icons, found {len(text)}")
            for ch in text:
                if ch not in resources:
                    raise DataError(
                        f"{where}: column 'requirement': '{ch}' in '{text}' is not a resource type "
                        f"({', '.join(resources)})"
                    )
                req[resources.index(ch)] += 1
            _empty(where, r, ("vp", "reward", "dust"), "a golem")
        elif kind == RUNE:
            if r["resource"] == WILD:
                wild = 1
            else:
                res = _resource(where, r["resource"], resources, allow_wild=True)
            vp = datafiles.parse_int(path, line, "vp", r["vp"], 0, 99)
            _empty(where, r, ("requirement", "reward", "dust"), "a rune")
        else:
            vp = datafiles.parse_int(path, line, "vp", r["vp"], 0, 99)
            reward = datafiles.parse_int(path, line, "reward", r["reward"], 0, 99)
            dust = datafiles.parse_int(path, line, "dust", r["dust"], 0, 99)
            _empty(where, r, ("resource", "requirement"), "a gem card")
        (main if r["deck"] == "main" else start).append(len(ids))
        ids.append(cid)
        c_type.append(kind)
        c_res.append(res)
        c_wild.append(wild)
        c_req.append(req)
        c_vp.append(vp)
        c_reward.append(reward)
        c_dust.append(dust)
    if len(ids) > MAX_CARDS:
        raise DataError(f"{path}: at most {MAX_CARDS} cards, found {len(ids)}")
    return ids, c_type, c_res, c_wild, c_req, c_vp, c_reward, c_dust, main, start


def _resource(where: str, text: str, resources: tuple[str, ...], allow_wild: bool) -> int:
    if text in resources:
        return resources.index(text)
    allowed = ", ".join(resources) + (f" or {WILD} (wild)" if allow_wild else "")
    raise DataError(f"{where}: column 'resource': '{text}' is not {allowed}")


def _empty(where: str, r: dict[str, str], columns: tuple[str, ...], what: str) -> None:
    for c in columns:
        if r[c] not in ("", "0"):
            raise DataError(f"{where}: column '{c}': must be empty for {what}, found '{r[c]}'")


def _check_deck(path: Path, table: dict, solo: dict, main: list[int], start: list[int]) -> None:
    removed = table["removed_at_setup"]
    need = removed + table["rows"] * table["row_size"]
    if len(main) < need:
        raise DataError(
            f"{path}: {len(main)} main-deck cards; the setup needs at least {need} "
            f"(removed_at_setup {removed} + rows {table['rows']} x row_size {table['row_size']})"
        )
    need_solo = removed + solo["rows"] * solo["row_size"]
    if len(main) < need_solo:
        raise DataError(f"{path}: {len(main)} main-deck cards; the solo setup needs at least {need_solo}")
    per = table["start_runes_per_player"]
    if len(start) < MAX_PLAYERS * per:
        raise DataError(
            f"{path}: {len(start)} starting Runes (deck 'start'); start_runes_per_player = {per} needs "
            f"{MAX_PLAYERS * per}"
        )


_TABLE_LIMITS = {
    "rows": (1, MAX_ROWS),
    "row_size": (2, MAX_ROW_SIZE),
    "starting_gems": (0, 99),
    "gem_tokens": (0, 999),
    "removed_at_setup": (0, MAX_REMOVED),
    "start_runes_per_player": (0, MAX_START_PER_PLAYER),
    "take_gems": (0, 99),
    "take_gems_max_held": (0, 99),
    "reserve_min_gems": (0, 99),
    "reserve_cost": (0, 99),
    "tuck_max": (0, MAX_REQUIREMENT),
    "golem_vp": (0, 99),
    "tuck_vp": (0, 99),
    "max_turns": (2, 10000),
}
_SOLO_LIMITS = {
    "rows": (1, MAX_ROWS),
    "row_size": (2, MAX_ROW_SIZE),
    "picks": (1, MAX_DISPLAY),
    "automa_golem_vp": (0, 99),
}


def _int_field(path: Path, section: str, values: dict, key: str, lo: int, hi: int) -> int:
    value = values.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise DataError(f"{path}: {section}.{key}: needs an integer in {lo}..{hi}, found {value!r}")
    return value


def _game_toml(path: Path, conf: dict):
    deck = conf.get("deck", {})
    label = deck.get("label", "")
    if not isinstance(label, str) or not label.strip():
        raise DataError(f"{path}: deck.label: needs a text naming the deck, found {label!r}")
    stand_in = deck.get("stand_in")
    if not isinstance(stand_in, bool):
        raise DataError(f"{path}: deck.stand_in: needs true or false, found {stand_in!r}")
    table = dict(conf.get("table", {}))
    for key, (lo, hi) in _TABLE_LIMITS.items():
        _int_field(path, "table", table, key, lo, hi)
    resources = table.get("resources")
    if (
        not isinstance(resources, list)
        or not 1 <= len(resources) <= MAX_TYPES
        or not all(isinstance(s, str) and len(s) == 1 and s not in (WILD, ",", " ") for s in resources)
        or len(set(resources)) != len(resources)
    ):
        raise DataError(
            f"{path}: table.resources: needs 1..{MAX_TYPES} distinct one-character names (not '{WILD}'), "
            f"found {resources!r}"
        )
    if table["gem_tokens"] < MAX_PLAYERS * table["starting_gems"]:
        raise DataError(f"{path}: table.gem_tokens: fewer than {MAX_PLAYERS} x starting_gems")
    if table["rows"] * table["row_size"] > MAX_DISPLAY:
        raise DataError(f"{path}: table.rows x table.row_size: at most {MAX_DISPLAY} display cards")
    dust_vp = table.get("dust_vp")
    if (
        not isinstance(dust_vp, list)
        or not 1 <= len(dust_vp) <= DUST_TABLE
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 999 for v in dust_vp)
    ):
        raise DataError(f"{path}: table.dust_vp: needs 1..{DUST_TABLE} integers in 0..999, found {dust_vp!r}")
    solo = dict(conf.get("solo", {}))
    for key, (lo, hi) in _SOLO_LIMITS.items():
        _int_field(path, "solo", solo, key, lo, hi)
    if solo["rows"] * solo["row_size"] > MAX_DISPLAY:
        raise DataError(f"{path}: solo.rows x solo.row_size: at most {MAX_DISPLAY} grid cards")
    if solo["picks"] > solo["rows"] * solo["row_size"]:
        raise DataError(f"{path}: solo.picks: at most the {solo['rows'] * solo['row_size']} cards of the grid")
    unknown = [k for k in table if k not in _TABLE_LIMITS and k not in ("resources", "dust_vp")]
    if unknown:
        raise DataError(f"{path}: table.{unknown[0]}: unknown parameter")
    unknown = [k for k in solo if k not in _SOLO_LIMITS]
    if unknown:
        raise DataError(f"{path}: solo.{unknown[0]}: unknown parameter")
    return table, solo, label.strip(), stand_in, tuple(resources)


def _rules(path: Path, conf: dict, overrides: dict[str, Any]) -> dict[str, Any]:
    return datafiles.resolve_rules(path, conf, overrides, RULE_OPTIONS)
