"""Golem-poker's replay page (``simulate.viewkit``): the pot, the deck and the golem's pile drawn, each seat's
stack and the hand the text replay prints (dealt face up to the reader, as ``golem replay`` shows them);
showdowns and re-deals as automatic steps."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulate.games.golem_poker.bots import SEARCH
from simulate.games.golem_poker.data import PokerData
from simulate.games.golem_poker.evaluator import NUM_CARDS
from simulate.games.golem_poker.reference import card_text
from simulate.games.golem_poker.search_bot import engine_move, search_action
from simulate.games.golem_poker.state import MOVE_LEN
from simulate.viewkit import Explainer, ReplayedGame, area, back, build_view, card, explain_moves, search_explainer

_SUITS = {"f": ("flesh", "#f6d5d5"), "c": ("clay", "#eedfcf"), "s": ("stone", "#e4e4e4"), "i": ("iron", "#d6e4f5")}


def catalogue() -> dict[str, dict[str, str]]:
    """Every card: its rank and suit."""
    cards = {}
    for c in range(NUM_CARDS):
        cid = card_text(c)
        suit, colour = _SUITS[cid[-1]]
        cards[cid] = {"name": suit, "text": f"{cid[:-1]} of {suit}", "colour": colour}
    return cards


def scene(st: dict[str, Any], hands: list[str]) -> dict[str, Any]:
    """The pot and the piles; each seat's stack and the hand it was dealt (the text replay's)."""
    b = st["board"]
    board = [
        area(
            f"Deal {b['deal']}, {b['phase']}",
            [back(b["deck"], "deck"), back(b["discard_pile"], "golem's pile")],
            chips=[("pot", b["pot"]), ("bet to match", b["current_bet"])],
        )
    ]
    seats = [
        {
            "note": "" if s["in"] else "out of the deal",
            "areas": [
                area(
                    "Chips",
                    chips=[
                        ("stack", s["stack"]),
                        ("bet so far", s["bets_paid"]),
                        ("cards held", s["hand"]),
                        ("discarded", s["discarded"]),
                    ],
                ),
                area("Hand dealt (before the draw)", [card(c) for c in hands[k].split()]),
            ],
        }
        for k, s in enumerate(st["seats"])
    ]
    return {"board": board, "seats": seats}


def _showdown(e: dict[str, Any]) -> tuple[str, str]:
    hands = "; ".join(f"seat {h['seat']}: {h['hand']} ({h['value']})" for h in e["hands"])
    best = " and ".join(f"seat {s}" for s in e["best_seats"])
    verdict = "beats the golem" if e["golem_beaten"] else "does not beat the golem: the pot stays, a new deal"
    golem = " ".join(e["golem_cards"]) or "no cards"
    return f"Showdown, deal {e['deal']}", f"{hands}; golem: {golem} ({e['golem']}); {best} {verdict}"


def _explainers(game: Any, d: PokerData, record: np.ndarray) -> dict[int, Explainer]:
    """The search's root visits, each tree move (a bet size code) as the engine's move in chips
    (``viewkit.explain_moves``); the ``cfr`` and ``equity`` bots weigh no options to show."""
    out = np.zeros(MOVE_LEN, np.int32)

    def chips(rec: np.ndarray, tree_move: np.ndarray) -> np.ndarray:
        mv = np.zeros(MOVE_LEN, np.int32)
        engine_move(rec[0], d.kernel[0], tree_move, mv)
        return mv

    return {
        SEARCH: search_explainer(
            lambda iterations: game.search_bench.new_search(record, iterations),
            lambda rec, params, tree, sc: bool(search_action(rec, 0, d.kernel[0], params, tree, sc, out)),
            chips,
        )
    }


def replay_view(game: Any, played: ReplayedGame, events: list[dict[str, Any]], explain: bool = False) -> dict[str, Any]:
    """The page's data (``simulate.viewkit.build_view``, ``Game.replay_view``); seat 1 holds the amulet. With
    ``explain`` the options of each ``search`` move."""
    num_players = played.lineup.num_players
    if explain:
        twin = game.new_twin(played.data, num_players, played.lineup.setup_seeds, played.lineup.play_seeds)
        words = twin.reference.describe
        explainers = _explainers(game, played.data, twin.record)
        explain_moves(twin, events, played, explainers, words, move_of=lambda e: np.asarray(e["record"], np.int32))
    hands: list[str] = []
    scenes = {}
    for e in events:  # each position with the hands of the deal it belongs to
        if e["event"] in ("setup", "deal"):
            hands = [s["hand"] for s in e["seats"]]
        if "state" in e:
            scenes[id(e["state"])] = scene(e["state"], hands)
    names = [f"seat {k + 1}" for k in range(num_players)]
    view = build_view(
        events,
        catalogue(),
        lambda st: scenes[id(st)],
        names,
        narrate=lambda e: _showdown(e) if e["event"] == "showdown" else (e["event"], e.get("text", "")),
        head=lambda e: f"Deal {e['deal']}: the golem won the last showdown, so the pot stays and new hands are dealt",
        score_unit="chips",
    )
    return view
