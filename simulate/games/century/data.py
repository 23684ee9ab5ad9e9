"""Century: Golem Edition definition data: card tables and table parameters as numpy arrays."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from simulate import datafiles
from simulate.apprentice import (
    STYLES_FILE,
    WEIGHTS_FILE,
    read_provenance,
    read_styles,
    read_weights,
    style_names,
    style_weights,
)
from simulate.datafiles import DataError

COLOURS = "YGTM"
NUM_COLOURS = 4
MAX_PLAYERS = 5
MAX_MERCHANT_ROW = 8
MAX_POINT_ROW = 8
KIND_CREATE, KIND_UPGRADE, KIND_TRADE = 0, 1, 2
KINDS = {"create": KIND_CREATE, "upgrade": KIND_UPGRADE, "trade": KIND_TRADE}

# Indices into ``CenturyTables.params``.
P_MERCHANT_ROW = 0
P_POINT_ROW = 1
P_CARAVAN_LIMIT = 2
P_COINS_PER_PLAYER = 3
P_COPPER_VP = 4
P_SILVER_VP = 5
P_MAX_ROUNDS = 6
P_REST_REQUIRES_PLAYED = 7
P_TIE_SHARED = 8
P_GIFT = 9  # merchant index of the gift copy (rule option ``gift``), -1 without one
P_NUM_MERCHANT = 10  # merchant cards (the gift copy included); the kernel record's per-card fields hold more slots
P_NUM_START = 11  # starting merchant cards of each player
P_NUM_MARKET = 12  # merchant cards of the market deck
P_NUM_POINT = 13  # point cards
NUM_PARAMS = 14
PER_CARD = ("m_kind", "m_in", "m_out", "m_up", "start_cards", "market_cards", "p_cost", "p_vp")
"""Fields of :class:`CenturyTables` with a row per card: the kernel record sizes them to the deck capacity
(:func:`simulate.datafiles.pack_record`), so a gift or an edited deck plays the printed deck's compiled kernels."""
GIFT_SUFFIX = "*"
"""The gift copy's id is its card's id with this suffix (``M04*``)."""

FILES = ("merchant_cards.csv", "point_cards.csv", "game.toml", WEIGHTS_FILE, STYLES_FILE)

_SEAT_FEATURES = (
    "score",  # points as they stand: point cards, coins, non-yellow crystals
    "point_vp",  # VP of the point cards claimed
    "point_cards",  # point cards claimed
    "yellow",  # crystals in the caravan, by colour
    "green",
    "turquoise",
    "magenta",
    "useful_levels",  # levels (Y 1, G 2, T 3, M 4) of the crystals some point card of the row asks for
    "target_cover",  # share of the greedy target's cost the caravan holds in the right colours
    "row_reach",  # the row's point cards by VP / (1 + distance)^2, summed: what the caravan can soon buy
    "cards_in_hand",  # merchant cards ready to play
    "cards_played",  # merchant cards played since the last rest
    "engine_power",  # square root of the crystal value one play of each owned merchant card adds (bots.card_value)
    "claim_vp",  # the best point card (VP and coin) of the row it can claim now, 0 if none
    "near_cards",  # point cards of the row within two steps of its caravan (bots.distance)
    "best_target",  # the greedy target's value: max over the row of VP / (1 + distance)
    "min_distance",  # steps to the nearest point card of the row (at most 12)
)
APPRENTICE_FEATURES = (
    *(f"own_{name}" for name in _SEAT_FEATURES),
    *(f"rival_{name}" for name in _SEAT_FEATURES),  # the other seat with the highest score
    "score_margin",  # own score minus the rival's
    "point_card_margin",
    "engine_margin",
    "progress",  # point cards of the seat with most, over the end trigger (1 once triggered)
    "score_margin_x_progress",  # the margin counts for more as the end nears
    "engine_x_early",  # own engine power times (1 - progress)
    "triggered",
    "order",  # seats to move before this one, over n - 1 (0: it moves next)
    "last_turn_left",  # the end is triggered and this seat still moves in the last round
    "rounds",  # turns played over the player count
    "crystals_x_rounds",  # own crystals times rounds / 20: what crystals still unspent are worth as time passes
    "useful_levels_x_rounds",  # own useful levels times rounds / 20
    "engine_x_rounds",  # own engine power times rounds / 20
)
"""The apprentice's features of a position from one seat's view (``apprentice.features`` computes them), in the
order of ``apprentice.csv``'s rows."""
APPRENTICE_PLAYERS = (2, 3, 4, 5)
"""Player counts with a column of the apprentice's weights."""
STYLES = style_names(datafiles.default_dir("century"))[1:]
"""The apprentice's strategy styles (``apprentice:style=NAME``), as the shipped ``styles.toml`` declares them."""

RULE_OPTIONS: dict[str, tuple[type, tuple, str]] = {
    "rest_requires_played": (bool, (True, False), "Rest is legal only with a played card to take back"),
    "tie_break": (
        str,
        ("later_seat", "shared"),
        "later_seat: the tied player who acted later wins; shared: tied players share the win",
    ),
    "gift": (
        str,
        ("none", "<merchant card id>"),
        "none, or a merchant card dealt in one more copy at setup to the seat of the lineup's first bot (the "
        "market keeps its own copy; rotated seats move the gift round the table): what the card is worth "
        "(docs/card-value.md)",
    ),
}


class CenturyTables(NamedTuple):
    """Card tables and parameters in the form the kernels take.

    Merchant cards are indexed ``0..num_merchant-1`` in file order, point cards likewise.
    """

    m_kind: np.ndarray  # int8 (num_merchant,)
    m_in: np.ndarray  # int16 (num_merchant, 4)
    m_out: np.ndarray  # int16 (num_merchant, 4)
    m_up: np.ndarray  # int16 (num_merchant,)
    start_cards: np.ndarray  # int16: merchant indices each player starts with
    market_cards: np.ndarray  # int16: merchant indices of the market deck
    p_cost: np.ndarray  # int16 (num_point, 4)
    p_vp: np.ndarray  # int16 (num_point,)
    start_crystals: np.ndarray  # int16 (5, 4) by seat
    end_trigger: np.ndarray  # int16 (6,): point cards that trigger the end, by player count
    crystal_vp: np.ndarray  # int16 (4,)
    params: np.ndarray  # int64 (NUM_PARAMS,), see P_*
    apprentice_w: np.ndarray  # float64 (MAX_PLAYERS + 1, 1 + len(APPRENTICE_FEATURES)): weights by player count
    style_w: np.ndarray  # float64 (1 + styles, MAX_PLAYERS + 1, 1 + features): each style's (0: apprentice_w)


class CenturyData(NamedTuple):
    """Loaded definition: kernel tables plus names and provenance for logs and replays."""

    tables: CenturyTables
    kernel: np.ndarray  # the tables packed as a one-element structured array (pack_record, PER_CARD at capacity)
    merchant_ids: tuple[str, ...]
    point_ids: tuple[str, ...]
    rules: dict[str, Any]
    table: dict[str, Any]
    provenance: dict[str, Any]


def parse_crystals(text: str, where: str) -> np.ndarray:
    """Counts (Y, G, T, M) of a crystal string such as ``"YYGT"``."""
    counts = np.zeros(NUM_COLOURS, dtype=np.int16)
    for ch in text.strip().upper():
        k = COLOURS.find(ch)
        if k < 0:
            raise DataError(f"{where}: '{text}' has '{ch}', not one of {COLOURS}")
        counts[k] += 1
    return counts


def crystals_str(counts) -> str:
    """Crystal string of counts (Y, G, T, M), e.g. ``[2, 1, 0, 0]`` -> ``"YYG"``."""
    return "".join(COLOURS[k] * int(counts[k]) for k in range(NUM_COLOURS))


def crystals_text(counts) -> str:
    """Counts (Y, G, T, M) in words for a card's text, e.g. ``[2, 1, 0, 0]`` -> ``"2Y 1G"``."""
    return " ".join(f"{int(counts[k])}{COLOURS[k]}" for k in range(NUM_COLOURS) if counts[k]) or "nothing"


def load(cards_dir: str | Path | None = None, rules: dict[str, Any] | None = None) -> CenturyData:
    """Load and validate a Century definition folder (default: the shipped ``seeds/century``).

    ``rules`` overrides rule options of the folder's ``game.toml``.
    """
    folder = datafiles.data_folder(cards_dir, "century", "Century card tables")
    m_ids, m_kind, m_in, m_out, m_up, start, market = _merchant_cards(folder / "merchant_cards.csv")
    p_ids, p_cost, p_vp = _point_cards(folder / "point_cards.csv")
    conf = datafiles.read_toml(folder / "game.toml")
    table, rule_values = _game_toml(folder / "game.toml", conf, rules or {})

    params = np.zeros(NUM_PARAMS, dtype=np.int64)
    params[P_MERCHANT_ROW] = table["merchant_row"]
    params[P_POINT_ROW] = table["point_row"]
    params[P_CARAVAN_LIMIT] = table["caravan_limit"]
    params[P_COINS_PER_PLAYER] = table["coins_per_player"]
    params[P_COPPER_VP] = table["copper_vp"]
    params[P_SILVER_VP] = table["silver_vp"]
    params[P_MAX_ROUNDS] = table["max_rounds"]
    params[P_REST_REQUIRES_PLAYED] = int(rule_values["rest_requires_played"])
    params[P_TIE_SHARED] = int(rule_values["tie_break"] == "shared")
    params[P_GIFT] = -1
    gift = rule_values["gift"]
    if gift != "none":
        if gift not in m_ids:
            raise DataError(f"rule option gift: '{gift}' is not a merchant card of {folder / 'merchant_cards.csv'}")
        if len(m_ids) >= 127:
            raise DataError(f"rule option gift: no room for a gift copy beside {len(m_ids)} merchant cards")
        k = m_ids.index(gift)
        params[P_GIFT] = len(m_ids)
        m_ids, m_kind, m_in, m_out, m_up = (
            [*m_ids, f"{gift}{GIFT_SUFFIX}"],
            [*m_kind, m_kind[k]],
            [*m_in, m_in[k]],
            [*m_out, m_out[k]],
            [*m_up, m_up[k]],
        )
    params[P_NUM_MERCHANT], params[P_NUM_START] = len(m_ids), len(start)
    params[P_NUM_MARKET], params[P_NUM_POINT] = len(market), len(p_ids)
    start_crystals = np.stack([parse_crystals(s, f"{folder / 'game.toml'}: table.start") for s in table["start"]])
    end_trigger = np.zeros(6, dtype=np.int16)
    end_trigger[2:6] = table["end_trigger"]
    weights = read_weights(folder, APPRENTICE_FEATURES, APPRENTICE_PLAYERS, MAX_PLAYERS)
    styles = read_styles(folder, APPRENTICE_FEATURES, STYLES)
    tables = CenturyTables(
        m_kind=np.array(m_kind, dtype=np.int8),
        m_in=np.array(m_in, dtype=np.int16).reshape(-1, NUM_COLOURS),
        m_out=np.array(m_out, dtype=np.int16).reshape(-1, NUM_COLOURS),
        m_up=np.array(m_up, dtype=np.int16),
        start_cards=np.array(start, dtype=np.int16),
        market_cards=np.array(market, dtype=np.int16),
        p_cost=np.array(p_cost, dtype=np.int16).reshape(-1, NUM_COLOURS),
        p_vp=np.array(p_vp, dtype=np.int16),
        start_crystals=start_crystals.astype(np.int16),
        end_trigger=end_trigger,
        crystal_vp=np.array(table["crystal_vp"], dtype=np.int16),
        params=params,
        apprentice_w=weights,
        style_w=style_weights(weights, styles, APPRENTICE_FEATURES, APPRENTICE_PLAYERS),
    )
    default = folder.resolve() == datafiles.default_dir("century").resolve()
    provenance = {
        "folder": "seeds/century" if default else str(folder),
        "default": default,
        "estimates": False,
        "files": {name: datafiles.sha256(folder / name) for name in FILES},
        "apprentice": read_provenance(folder).get("fit", {}),
    }
    kernel = datafiles.pack_record(tables, PER_CARD)
    return CenturyData(tables, kernel, tuple(m_ids), tuple(p_ids), rule_values, table, provenance)


def _merchant_cards(path: Path):
    rows = datafiles.read_csv(path, ["id", "deck", "kind", "input", "output", "upgrades"])
    ids, kinds, ins, outs, ups, start, market = [], [], [], [], [], [], []
    for line, r in rows:
        where = f"{path}: line {line}"
        if not r["id"]:
            raise DataError(f"{where}: column 'id': empty")
        if r["id"] in ids:
            raise DataError(f"{where}: column 'id': duplicate id '{r['id']}'")
        kind = KINDS.get(r["kind"])
        if kind is None:
            raise DataError(f"{where}: column 'kind': '{r['kind']}' is not one of {', '.join(KINDS)}")
        if r["deck"] not in ("start", "market"):
            raise DataError(f"{where}: column 'deck': '{r['deck']}' is not 'start' or 'market'")
        c_in = parse_crystals(r["input"], f"{where}: column 'input'")
        c_out = parse_crystals(r["output"], f"{where}: column 'output'")
        up = datafiles.parse_int(path, line, "upgrades", r["upgrades"] or "0", 0, 9)
        if kind == KIND_CREATE and (c_in.sum() or not c_out.sum() or up):
            raise DataError(f"{where}: a create card needs an output and no input or upgrades")
        if kind == KIND_UPGRADE and (c_in.sum() or c_out.sum() or not up):
            raise DataError(f"{where}: column 'upgrades': an upgrade card needs 1..9 upgrades and no crystals")
        if kind == KIND_TRADE and (not c_in.sum() or not c_out.sum() or up):
            raise DataError(f"{where}: a trade card needs both an input and an output")
        if c_in.sum() > 10 or c_out.sum() > 10:
            raise DataError(f"{where}: at most 10 crystals on each side of a card")
        (start if r["deck"] == "start" else market).append(len(ids))
        ids.append(r["id"])
        kinds.append(kind)
        ins.append(c_in)
        outs.append(c_out)
        ups.append(up)
    if not start:
        raise DataError(f"{path}: no starting cards (deck 'start')")
    if len(ids) > 127:
        raise DataError(f"{path}: at most 127 merchant cards")
    return ids, kinds, ins, outs, ups, start, market


def _point_cards(path: Path):
    rows = datafiles.read_csv(path, ["id", "cost", "vp"])
    ids, costs, vps = [], [], []
    for line, r in rows:
        where = f"{path}: line {line}"
        if not r["id"] or r["id"] in ids:
            raise DataError(f"{where}: column 'id': empty or duplicate id '{r['id']}'")
        cost = parse_crystals(r["cost"], f"{where}: column 'cost'")
        if not 1 <= cost.sum() <= 10:
            raise DataError(f"{where}: column 'cost': a point card costs 1..10 crystals")
        ids.append(r["id"])
        costs.append(cost)
        vps.append(datafiles.parse_int(path, line, "vp", r["vp"], 0, 999))
    if len(ids) > 255:
        raise DataError(f"{path}: at most 255 point cards")
    return ids, costs, vps


_TABLE_LIMITS = {
    "merchant_row": (1, MAX_MERCHANT_ROW),
    "point_row": (1, MAX_POINT_ROW),
    "caravan_limit": (1, 99),
    "coins_per_player": (0, 99),
    "copper_vp": (0, 99),
    "silver_vp": (0, 99),
    "max_rounds": (1, 10000),
}


def _game_toml(path: Path, conf: dict, rule_overrides: dict[str, Any]):
    unknown = [k for k in conf if k not in ("table", "rules")]
    if unknown:
        raise DataError(f"{path}: [{unknown[0]}]: unknown section (the sections are [table] and [rules])")
    table = conf.get("table", {})
    known = (*_TABLE_LIMITS, "crystal_vp", "end_trigger", "start")
    unknown = [k for k in table if k not in known]
    if unknown:
        raise DataError(f"{path}: table.{unknown[0]}: unknown table parameter (known: {', '.join(known)})")
    for key, (lo, hi) in _TABLE_LIMITS.items():
        value = table.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
            raise DataError(f"{path}: table.{key}: needs an integer in {lo}..{hi}, found {value!r}")
    _int_list(path, table, "crystal_vp", 4, 0, 99)
    _int_list(path, table, "end_trigger", 4, 1, 99)
    start = table.get("start")
    if not isinstance(start, list) or len(start) != MAX_PLAYERS or not all(isinstance(s, str) for s in start):
        raise DataError(f"{path}: table.start: needs {MAX_PLAYERS} crystal strings, one per seat")
    return table, datafiles.resolve_rules(path, conf, rule_overrides, RULE_OPTIONS)


def _int_list(path: Path, table: dict, key: str, n: int, lo: int, hi: int) -> None:
    value = table.get(key)
    if (
        not isinstance(value, list)
        or len(value) != n
        or not all(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi for v in value)
    ):
        raise DataError(f"{path}: table.{key}: needs {n} integers in {lo}..{hi}, found {value!r}")
