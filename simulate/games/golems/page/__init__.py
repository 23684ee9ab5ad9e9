"""Golems' replay page (``simulate.viewkit``): the open display drawn with the cards' texts from the run's data, each
seat's columns, gems and dust; the display's refills as automatic steps."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from simulate.games.golems.apprentice import game_apprentice
from simulate.games.golems.bots import APPRENTICE, SEARCH, new_work
from simulate.games.golems.data import *
from simulate.games.golems.engine import deal_gift
from simulate.games.golems.reference import GolemsReference, move_key
from simulate.games.golems.search_bot import search_action
from simulate.games.golems.state import MOVE_LEN
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
    written,
)

_KINDS = {GOLEM: ("golem", "#f7edc4"), GEM: ("gem", "#d9eed6")}


def catalogue(d: GolemsData) -> dict[str, dict[str, str]]:
    """Every card's text (``data.card_text``), kind and colour."""
    cards = {}
    for k, cid in enumerate(d.card_ids):
        name, colour = _KINDS.get(int(d.tables.c_type[k]), ("rune", "#d6e4f5"))
        cards[cid] = {"name": name, "text": card_text(d, k).removeprefix(cid).strip(), "colour": colour}
    return cards


def scene(st: dict[str, Any]) -> dict[str, Any]:
    """The display row by row with the gems on its cards, the deck and the supply; each seat's tableau."""
    b = st["board"]
    rows = [
        area(
            f"Display row {r + 1}",
            [
                card(c["card"], f"{c['gems']} gems on it" if c["gems"] else None)
                if c
                else {"back": 0, "label": "empty"}
                for c in row
            ],
        )
        for r, row in enumerate(b["display"])
    ]
    supply = area(
        "Supply",
        [back(b["deck"], "deck")],
        chips=[("gems", b["gem_supply"])] + ([("Automa score", b["automa_score"])] if "automa_score" in b else []),
    )
    seats = [
        {
            "areas": [
                area(
                    "Gems, Golems, dust",
                    chips=[("gems", s["gems"]), ("Golems", s["golems"]), ("tucked", s["tucked"]), ("dust", s["dust"])],
                ),
                area(
                    "Columns (cards, wild)",
                    chips=[
                        (f"{r}", f"{n}" + (f" +{s['wild'][r]} wild" if s["wild"][r] else ""))
                        for r, n in s["columns"].items()
                    ],
                ),
                area("Hand and reserved Runes", [back(s["hand"], "in hand"), *(card(c) for c in s["reserved"])]),
            ]
        }
        for s in st["seats"]
    ]
    return {"board": [*rows, supply], "seats": seats}


def _refills(events: list[dict[str, Any]]) -> dict[int, list[dict[str, str]]]:
    out: dict[int, list[dict[str, str]]] = {}
    before = None
    for i, e in enumerate(events):
        if "state" not in e:
            continue
        shown = [c["card"] for row in e["state"]["board"]["display"] for c in row if c]
        if before is not None and e["event"] == "move":
            new = dealt(before, shown)
            if new:
                out[i] = [{"title": "Refill", "text": f"{', '.join(new)} dealt from the deck to the display"}]
        before = shown
    return out


def _explainers(game: Any, d: GolemsData, record: np.ndarray, num_players: int) -> dict[int, Explainer]:
    """The search's root visits and the apprentice's values of its moves, read back (``viewkit.explain_moves``).

    The apprentice is re-run without its 2-player look-ahead, which overwrites the values it compares. Where its
    weights are a policy fitted to the search's choices (``data.VALUE_PLAYERS``) its logits compare one decision's
    moves and are no chance to win: its options are then the policy's shares (a softmax of the logits); solo, the
    chance to win after each move."""
    out = np.zeros(MOVE_LEN, np.int16)
    work = functools.cache(lambda: new_work(1, record.dtype))

    def apprentice(rec: np.ndarray, params: np.ndarray) -> Options:
        ws = work()
        values = ws["values"][0]
        values[:] = np.nan  # the decision writes a value for each of its moves, when it has more than one
        game_apprentice(rec, d.kernel, 0, params[0], 0.0, params[2], ws, int(params[3]))
        return logit_options(ws["moves"][0], values[: written(values)], num_players in VALUE_PLAYERS)

    policy = num_players in VALUE_PLAYERS
    unit = "the apprentice's policy share" if policy else "the apprentice's chance to win after the move"
    return {
        SEARCH: search_explainer(
            lambda iterations: game.search_bench.new_search(record, iterations),
            lambda rec, params, tree, sc: bool(search_action(rec, 0, d.kernel[0], params, tree, sc, out)),
        ),
        APPRENTICE: Explainer(apprentice, lambda _: unit),
    }


def replay_view(game: Any, played: ReplayedGame, events: list[dict[str, Any]], explain: bool = False) -> dict[str, Any]:
    """The page's data (``simulate.viewkit.build_view``, ``Game.replay_view``); with ``explain`` the options of each
    ``search`` and ``apprentice`` move."""
    d, num_players = played.data, played.lineup.num_players
    if explain:
        twin = gift_twin(game, played, d.tables.params[P_GIFT] >= 0, deal_gift, GolemsReference)
        words = twin.reference.describe
        explain_moves(twin, events, played, _explainers(game, d, twin.record, num_players), words=words, key=move_key)
    return build_view(
        events,
        catalogue(d),
        scene,
        [f"seat {k + 1}" for k in range(num_players)],
        narrate=lambda e: (e["event"], e.get("text", "")),
        autos=_refills(events),
    )
