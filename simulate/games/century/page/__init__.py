"""Century's replay page (``simulate.viewkit``): the rows and caravans drawn, the cards' texts from the run's
data, the rows' re-deals as automatic steps."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simulate.games.century.apprentice import apprentice_action, new_apprentice_scratch
from simulate.games.century.bots import APPRENTICE, SCRATCH_MOVES, SEARCH
from simulate.games.century.data import COLOURS, KIND_CREATE, KIND_UPGRADE, P_COPPER_VP, P_SILVER_VP, CenturyData
from simulate.games.century.search_bot import S_ITERATIONS, new_scratch, search_action
from simulate.games.century.state import MOVE_LEN
from simulate.search import new_tree
from simulate.viewkit import ReplayedGame, area, back, build_view, card, dealt


def _crystals(counts: Any) -> str:
    """Crystals as letters, from counts by colour (a sequence, or a dict keyed by colour letter)."""
    if isinstance(counts, dict):
        counts = [counts[c] for c in COLOURS]
    return "".join(COLOURS[c] * int(counts[c]) for c in range(len(COLOURS))) or "-"


def catalogue(d: CenturyData) -> dict[str, dict[str, str]]:
    """Every card's text from the data: a Merchant card's effect, a Point card's cost and VP."""
    tb = d.tables
    cards = {}
    for m, mid in enumerate(d.merchant_ids):
        kind = int(tb.m_kind[m])
        if kind == KIND_CREATE:
            cards[mid] = {"name": "create", "text": f"+{_crystals(tb.m_out[m])}"}
        elif kind == KIND_UPGRADE:
            cards[mid] = {"name": "upgrade", "text": f"upgrade x{int(tb.m_up[m])}"}
        else:
            cards[mid] = {"name": "trade", "text": f"{_crystals(tb.m_in[m])} → {_crystals(tb.m_out[m])}"}
    for p, pid in enumerate(d.point_ids):
        cards[pid] = {"name": f"{int(tb.p_vp[p])} VP", "text": f"pay {_crystals(tb.p_cost[p])}"}
    return cards


def scene(st: dict[str, Any], d: CenturyData) -> dict[str, Any]:
    """The Point row with its coins, the Merchant row with the crystals on its cards, the decks; each caravan."""
    b = st["board"]
    copper, silver = int(d.tables.params[P_COPPER_VP]), int(d.tables.params[P_SILVER_VP])
    coins = []
    if b["copper_left"]:
        coins.append(f"+copper ({copper} VP)")
    if b["silver_left"]:
        coins.append(f"+silver ({silver} VP)")
    points = [card(p, coins[k] if k < len(coins) else None) for k, p in enumerate(b["point_row"])]
    merchants = [
        card(m["card"], _crystals(m["crystals"]) + " on it" if any(m["crystals"].values()) else None)
        for m in b["merchant_row"]
    ]
    board = [
        area(
            "Point row",
            [*points, back(b["point_deck"], "point deck")],
            chips=[("copper left", b["copper_left"]), ("silver left", b["silver_left"])],
        ),
        area("Merchant row (position 1 free)", [*merchants, back(b["merchant_deck"], "merchant deck")]),
    ]
    seats = [
        {
            "areas": [
                area(
                    "Caravan",
                    chips=[
                        *((c, s["crystals"][c]) for c in COLOURS),
                        ("point cards", s["point_cards"]),
                        ("copper", s["copper"]),
                        ("silver", s["silver"]),
                    ],
                ),
                area("Hand", [card(m) for m in s["hand"]]),
                area("Played (taken back by resting)", [card(m) for m in s["played"]]),
            ]
        }
        for s in st["seats"]
    ]
    return {"board": board, "seats": seats}


def _redeals(events: list[dict[str, Any]]) -> dict[int, list[dict[str, str]]]:
    """The cards dealt into the rows after each move, by event index."""
    out: dict[int, list[dict[str, str]]] = {}
    before = None
    for i, e in enumerate(events):
        if "state" not in e:
            continue
        b = e["state"]["board"]
        if before is not None and e["event"] == "move":
            new_m = dealt([m["card"] for m in before["merchant_row"]], [m["card"] for m in b["merchant_row"]])
            new_p = dealt(before["point_row"], b["point_row"])
            notes = [f"{c} dealt to the Merchant row" for c in new_m] + [f"{c} dealt to the Point row" for c in new_p]
            if notes:
                out[i] = [{"title": "Re-deal", "text": "; ".join(notes) + " (the row slides left, the new card last)"}]
        before = b
    return out


TOP = 4
"""Options shown for a decision a bot explained."""


def _explain(
    game: Any,
    d: CenturyData,
    num_players: int,
    seat_lineup: np.ndarray,
    lineup_ids: np.ndarray,
    lineup_params: np.ndarray,
    setup_seed: int,
    play_seed: int,
    events: list[dict[str, Any]],
) -> None:
    """Add ``explain`` to the moves of ``search`` and ``apprentice`` seats: their decision re-run from the position
    before the move (the kernel's record, stepped with the game's moves), the root's visits or the afterstates'
    values read back. The re-run draws its own random numbers, so its first option can differ from the move played
    (more often with few iterations); the summary then says so."""
    twin = game.new_twin(d, num_players, setup_seed, play_seed)
    out = np.zeros(MOVE_LEN, np.int16)
    scratch: dict[int, Any] = {}
    for e in events:
        if e["event"] != "move":
            continue
        move = np.asarray(e["record"], np.int16)
        k = int(seat_lineup[e["seat"] - 1])
        bot, params = int(lineup_ids[k]), lineup_params[k]
        if bot in (SEARCH, APPRENTICE):
            record = twin.record.copy()  # the decision's own draws leave the game's record as it was
            if bot == SEARCH:
                options = _search_options(record, d, params, out, scratch)
                unit = f"share of {int(params[S_ITERATIONS])} iterations"
            else:
                options = _apprentice_options(record, d, params, out, scratch)
                unit = "the apprentice's chance to win after the move"
            if len(options) > 1:
                played = twin.reference.move_key(move)
                words = [
                    (twin.reference.describe(m).split(" ", 2)[2], v, twin.reference.move_key(m) == played)
                    for m, v in options[:TOP]
                ]
                summary = "; ".join(f"{w}: {v:.0%}" + (" (played)" if p else "") for w, v, p in words)
                if not words[0][2]:
                    summary += "; the re-run, with its own random draws, ranks the move played lower"
                e["explain"] = {"summary": f"{summary} ({unit})", "options": [[w, round(v, 4)] for w, v, _ in words]}
        twin.step(move)


def _search_options(record: np.ndarray, d: CenturyData, params: np.ndarray, out: np.ndarray, scratch: dict) -> list:
    """(move, share of the root's visits) of the search's root moves, most visited first."""
    if SEARCH not in scratch:
        scratch[SEARCH] = (new_tree(int(params[S_ITERATIONS]) + 1, MOVE_LEN, SCRATCH_MOVES), new_scratch(record))
    tree, sc = scratch[SEARCH]
    if search_action(record, 0, d.kernel[0], params, tree, sc, out) == 0:
        return []
    options = []
    c = tree.first_child[0]
    while c >= 0:
        options.append((tree.move[c].copy(), tree.visits[c]))
        c = tree.next_sibling[c]
    total = sum(v for _, v in options) or 1.0
    return sorted(((m, v / total) for m, v in options), key=lambda o: -o[1])


def _apprentice_options(record: np.ndarray, d: CenturyData, params: np.ndarray, out: np.ndarray, scratch: dict) -> list:
    """(move, chance to win) of the apprentice's afterstates, best first."""
    if APPRENTICE not in scratch:
        scratch[APPRENTICE] = new_apprentice_scratch(record)
    sc = scratch[APPRENTICE]
    moves, values = sc[2], sc[5]
    moves[:, 0] = -1  # the decision writes its moves over these
    apprentice_action(record, 0, d.kernel[0], params, sc, out)
    n = int(np.argmax(moves[:, 0] < 0)) if (moves[:, 0] < 0).any() else len(moves)
    options = [(moves[k].copy(), 1.0 / (1.0 + math.exp(-values[k]))) for k in range(n)]
    return sorted(options, key=lambda o: -o[1])


def replay_view(game: Any, played: ReplayedGame, events: list[dict[str, Any]], explain: bool = False) -> dict[str, Any]:
    """The page's data (``simulate.viewkit.build_view``, ``Game.replay_view``); seat k is the k-th to move, as in
    the reports."""
    d, num_players = played.data, played.num_players
    if explain:
        _explain(game, *played[:7], events)
    names = [f"seat {k + 1}" for k in range(num_players)]
    return build_view(
        events,
        catalogue(d),
        lambda st: scene(st, d),
        names,
        narrate=lambda e: (e["event"], e.get("text", "")),
        autos=_redeals(events),
    )
