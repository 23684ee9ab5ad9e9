"""Golems' replay page (``simulate.viewkit``): the open display drawn with the cards' texts from the run's data, each
seat's columns, gems and dust; the display's refills as automatic steps."""

from __future__ import annotations

from typing import Any

from simulate.games.golems.data import GEM, GOLEM, GolemsData, card_text
from simulate.viewkit import ReplayedGame, area, back, build_view, card, dealt

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


def replay_view(game: Any, played: ReplayedGame, events: list[dict[str, Any]], explain: bool = False) -> dict[str, Any]:
    """The page's data (``simulate.viewkit.build_view``, ``Game.replay_view``)."""
    d, num_players = played.data, played.num_players
    return build_view(
        events,
        catalogue(d),
        scene,
        [f"seat {k + 1}" for k in range(num_players)],
        narrate=lambda e: (e["event"], e.get("text", "")),
        autos=_refills(events),
    )
