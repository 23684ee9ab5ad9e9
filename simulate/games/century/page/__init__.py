"""Century's replay page (``simulate.viewkit``): the rows and caravans drawn, the cards' texts from the run's
data, the rows' re-deals as automatic steps."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from simulate.games.century.apprentice import apprentice_action, new_apprentice_scratch
from simulate.games.century.bots import APPRENTICE, SEARCH
from simulate.games.century.data import *
from simulate.games.century.engine import deal_gift
from simulate.games.century.reference import CenturyReference
from simulate.games.century.search_bot import search_action
from simulate.games.century.state import MOVE_LEN
from simulate.viewkit import (
    Explainer,
    Options,
    ReplayedGame,
    area,
    back,
    build_view,
    card,
    dealt,
    explain_moves,
    gift_twin,
    logit_options,
    search_explainer,
)


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


def _explainers(game: Any, d: CenturyData, record: np.ndarray) -> dict[int, Explainer]:
    """The search's root visits and the apprentice's afterstate values, read back (``viewkit.explain_moves``)."""
    out = np.zeros(MOVE_LEN, np.int16)
    scratch = functools.cache(lambda: new_apprentice_scratch(record))

    def apprentice(rec: np.ndarray, params: np.ndarray) -> Options:
        sc = scratch()
        moves, values = sc[2], sc[5]
        moves[:, 0] = -1  # the decision writes its moves over these
        apprentice_action(rec, 0, d.kernel[0], params, sc, out)
        n = int(np.argmax(moves[:, 0] < 0)) if (moves[:, 0] < 0).any() else len(moves)
        return logit_options(moves, values[:n], policy=False)

    return {
        SEARCH: search_explainer(
            lambda iterations: game.search_bench.new_search(record, iterations),
            lambda rec, params, tree, sc: bool(search_action(rec, 0, d.kernel[0], params, tree, sc, out)),
        ),
        APPRENTICE: Explainer(apprentice, lambda _: "the apprentice's chance to win after the move"),
    }


def replay_view(game: Any, played: ReplayedGame, events: list[dict[str, Any]], explain: bool = False) -> dict[str, Any]:
    """The page's data (``simulate.viewkit.build_view``, ``Game.replay_view``); seat k is the k-th to move, as in
    the reports."""
    d, num_players = played.data, played.lineup.num_players
    if explain:
        twin = gift_twin(game, played, d.tables.params[P_GIFT] >= 0, deal_gift, CenturyReference)
        explain_moves(
            twin,
            events,
            played,
            _explainers(game, d, twin.record),
            words=lambda m: twin.reference.describe(m).split(" ", 2)[2],
            key=twin.reference.move_key,
        )
    names = [f"seat {k + 1}" for k in range(num_players)]
    return build_view(
        events,
        catalogue(d),
        lambda st: scene(st, d),
        names,
        narrate=lambda e: (e["event"], e.get("text", "")),
        autos=_redeals(events),
    )
