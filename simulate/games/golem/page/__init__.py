"""Golem's replay page (``simulate.viewkit``): the Palace, Synagogue, Action tiles and Library drawn with the
components' texts from the run's data, each seat's board; Income, Golem Control and the round's refresh as
automatic steps; seats numbered by round 1's turn order (as the reports' ``start_position``), the table seat
beside it."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from simulate.games.golem import engine
from simulate.games.golem.apprentice_bot import apprentice_action, new_apprentice_scratch
from simulate.games.golem.bots import APPRENTICE, SEARCH
from simulate.games.golem.data import *
from simulate.games.golem.engine.state import PAD
from simulate.games.golem.reference import GolemReference, public_state
from simulate.games.golem.search_bot import new_scratch, search_action
from simulate.viewkit import (
    Explainer,
    Options,
    ReplayedGame,
    area,
    back,
    build_view,
    card,
    changes,
    explain_moves,
    logit_options,
    search_explainer,
    written,
)

_COLOURS = {"red": "#f6d5d5", "yellow": "#f7edc4", "blue": "#d6e4f5", "green": "#d9eed6", "black": "#dddddd"}


def _effect(code: int, a: int, b: int, res: int | None = None) -> str:
    name = EFFECTS[int(code)].replace("_", " ")
    if name == "none":
        return "nothing"
    what = f" {RESOURCES[int(res)]}" if res is not None and 0 <= int(res) < len(RESOURCES) else ""
    amounts = f" {int(a)}" + (f"/{int(b)}" if int(b) else "") if int(a) or int(b) else ""
    return f"{name}{amounts}{what}"


def catalogue(d: GolemData) -> dict[str, dict[str, str]]:
    """Characters, Action tiles and Books with their effects, from the run's tables."""
    t = d.tables
    cards = {}
    for k, cid in enumerate(d.character_ids):
        cards[cid] = {
            "name": f"{MARBLES[int(t.ch_c1[k])]}/{MARBLES[int(t.ch_c2[k])]}",
            "text": f"move {int(t.ch_move[k])}, cost {int(t.ch_cost[k])}: "
            + _effect(t.ch_effect[k], t.ch_a[k], t.ch_b[k]),
        }
    for k, aid in enumerate(d.action_ids):
        cards[aid] = {"name": "action", "text": _effect(t.at_effect[k], t.at_a[k], t.at_b[k])}
    for k, bid in enumerate(d.book_ids):
        colour = BOOK_COLOURS[int(t.bk_colour[k])]
        now = _effect(t.bk_effect[k][0], t.bk_a[k][0], 0, t.bk_res[k][0])
        active = _effect(t.bk_effect[k][1], t.bk_a[k][1], 0, t.bk_res[k][1])
        cards[bid] = {
            "name": colour,
            "text": f"cost {int(t.bk_cost[k])}: {now}; active: {active}",
            "colour": _COLOURS[colour],
        }
    return cards


def scene(st: dict[str, Any], order: list[int], tracks: tuple[int, int]) -> dict[str, Any]:
    """The board's shared parts and each seat's player board."""
    b = st["board"]
    names = _names(order)
    syn = [
        (f"{row}: " + (" ".join(f"{c[0].upper()}{n}" for c, n in b["synagogue"][row].items() if n) or "-"), "")
        for row in ROWS
    ]
    board = [
        area(
            f"Round {b['round']}, phase {b['phase']}; turn order " + ", ".join(names[s - 1] for s in b["turn_order"]),
            [card(c, f"round {k + 1}") for k, c in enumerate(b["palace"])],
            chips=[("gold supply", b["gold_supply"])],
        ),
        area("Synagogue (marbles by row)", chips=[(label, "") for label, _ in syn]),
        area(
            "Action tiles (top to bottom)",
            [card(a) if a else {"back": 0, "label": "empty"} for a in b["action_tiles"]]
            + [back(b["action_pile"], "action pile")],
        ),
        area(
            "Library",
            [card(x) for x in b["library"]]
            + [back(b["book_deck"], "book deck"), back(b["objective_deck"], "objective deck")],
            chips=[(f"{d} Menorah token", names[o - 1] if o else "free") for d, o in b["menorah_tokens"].items()],
        ),
    ]
    if "automa" in b:
        board.append(area("Automa", chips=[(k, v) for k, v in b["automa"].items()]))
    seats = []
    for s in st["seats"]:
        golems = [(f"Golem {k + 1}", g) for k, g in enumerate(s["golems"])]
        columns = [card(x, f"column {c + 1}") for c, col in enumerate(s["book_columns"]) for x in col]
        seats.append(
            {
                "note": f"Rabbi on tile {s['rabbi_tile']}" if s["rabbi_tile"] else "",
                "areas": [
                    area(
                        "Resources",
                        chips=[
                            ("VP", s["vp"]),
                            ("clay", s["clay"]),
                            ("coins", s["coins"]),
                            ("knowledge", s["knowledge"]),
                            ("gold aside", s["gold_aside"]),
                            ("actions", s["actions_taken"]),
                            ("marbles", " ".join(s["marbles"]) or "-"),
                        ],
                    ),
                    area(
                        "Students and tracks",
                        tracks=[
                            *((f"{c} Student", v, 10) for c, v in s["students"].items()),
                            ("Golem track", s["golem_track"], tracks[0] - 1),
                            ("Study track", s["study_track"], tracks[1] - 1),
                        ],
                    ),
                    area(f"Golems: {s['golems_built']} built, {s['golems_killed']} killed", chips=golems),
                    area(
                        f"Artifact tile {s['artifact_tile']}: Gold per cauldron, done",
                        chips=[
                            (f"cauldron {k + 1}", f"{g} gold{' done' if done else ''}")
                            for k, (g, done) in enumerate(zip(s["artifact_gold"], s["artifacts_done"], strict=True))
                        ]
                        + [
                            ("developments golem", sum(s["golem_developments"])),
                            ("study", sum(s["study_developments"])),
                            ("artifact", sum(1 for x in s["artifact_developments"] if x >= 0)),
                        ],
                    ),
                    area("Books (by column) and Objectives", [*columns, back(s["objectives"], "objectives")]),
                ],
            }
        )
    return {"board": board, "seats": seats}


def _names(order: list[int]) -> list[str]:
    """Seat names by table seat: the place in round 1's turn order, the table seat beside it."""
    place = {seat: k + 1 for k, seat in enumerate(order)}
    return [f"seat {place[t]} (table {t})" for t in range(1, len(order) + 1)]


def _phases(
    d: GolemData, n: int, seat_lineup: np.ndarray, setup_seed: int, events: list[dict[str, Any]], names: list[str]
) -> dict[int, list[dict[str, str]]]:
    """Income, Golem Control and the round's refresh, found by replaying the moves in the reference engine with its
    phase steps watched (the engine runs them between decisions), by the index of the event they happened in."""
    ref = GolemReference(d, n, int(setup_seed), int(engine.gift_seat(np.asarray(seat_lineup))))
    log: list[tuple[str, dict, dict, tuple[str, ...]]] = []

    def watch(name: str, title: str, skip: tuple[str, ...] = ()) -> None:
        step = getattr(ref, name)

        def run() -> None:
            before = public_state(ref)
            step()
            log.append((title, before, public_state(ref), skip))

        setattr(ref, name, run)

    watch("_income", "Income")
    watch("_control", "Golem Control")
    refresh = ("synagogue", "actions_taken", "action_pile", "action_discard", "round")  # all of them renewed
    watch("_end_round", "End of round: marbles dropped anew, Action tiles dealt, the Library slides", refresh)
    out: dict[int, list[dict[str, str]]] = {}
    for i, e in enumerate(events):
        if e["event"] != "move":
            continue
        del log[:]
        ref.apply_action(int(e["action"]))
        autos = [
            {
                "title": title,
                "text": changes(b, a, names, skip=("turn_order", *skip))
                or ("the new round's marbles and tiles are on the board" if skip else "nothing changed"),
            }
            for title, b, a, skip in log
        ]
        if autos:
            out[i] = autos
    return out


def _explainers(game: Any, d: GolemData, record: np.ndarray, num_players: int) -> dict[int, Explainer]:
    """The search's root visits and the apprentice's values of its options, read back (``viewkit.explain_moves``); a
    setup decision (``balanced``'s for both) or a single option has none. Where the apprentice's weights are a policy
    (``data.VALUE_PLAYERS``) its logits rank one decision's options and are no chance to win: its options are then the
    policy's shares (a softmax of the logits); elsewhere the chance to win after each option."""
    apprentice_scratch = functools.cache(lambda: new_apprentice_scratch(record, new_scratch(record, np.zeros(1, PAD))))

    def search(rec: np.ndarray, params: np.ndarray, tree: Any, sc: Any) -> bool:
        tree.first_child[0] = -1  # a decision the search does not search leaves the root without children
        search_action(rec, 0, d.kernel[0], params, tree, sc)
        return True

    def apprentice(rec: np.ndarray, params: np.ndarray) -> Options:
        asc = apprentice_scratch()
        values = asc[5]
        values[:] = np.nan  # the decision writes a value for each of its options, when it has more than one
        apprentice_action(rec, 0, d.kernel[0], params, asc)
        return logit_options(asc[3], values[: written(values)], num_players in VALUE_PLAYERS)

    policy = num_players in VALUE_PLAYERS
    unit = "the apprentice's policy share" if policy else "the apprentice's chance to win after the option"
    return {
        SEARCH: search_explainer(lambda iterations: game.search_bench.new_search(record, iterations), search),
        APPRENTICE: Explainer(apprentice, lambda _: unit),
    }


def _twin(game: Any, played: ReplayedGame) -> Any:
    """The game's twin at its start, its gift seat (rule option ``gift``) the run's."""
    d, one = played.data, played.lineup
    twin = game.new_twin(d, one.num_players, one.setup_seeds, one.play_seeds)
    gift = int(engine.gift_seat(np.asarray(one.seat_bot, np.int64)))
    twin.record["gift_seat"][0] = gift
    twin.reference = GolemReference(d, one.num_players, one.setup_seeds, gift)
    return twin


def replay_view(game: Any, played: ReplayedGame, events: list[dict[str, Any]], explain: bool = False) -> dict[str, Any]:
    """The page's data (``simulate.viewkit.build_view``, ``Game.replay_view``); with ``explain`` the options of each
    ``search`` and ``apprentice`` move."""
    d, num_players = played.data, played.lineup.num_players
    if explain:
        twin = _twin(game, played)
        explain_moves(
            twin,
            events,
            played,
            _explainers(game, d, twin.record, num_players),
            words=lambda m: twin.reference.describe(int(m[0])),
            key=lambda m: int(np.ravel(m)[0]),
            move_of=lambda e: e["action"],
        )
    order = list(events[0]["order"])
    names = _names(order)
    autos = _phases(d, num_players, played.lineup.seat_bot, played.lineup.setup_seeds, events, names)
    result = events[-1]
    parts = "; ".join(
        f"{names[k]}: " + ", ".join(f"{p.removeprefix('score_')} {v}" for p, v in sp.items() if v)
        for k, sp in enumerate(result["score_parts"])
    )
    autos.setdefault(len(events) - 1, []).append({"title": "Final scoring", "text": parts})
    view = build_view(
        events,
        catalogue(d),
        lambda st: scene(st, order, (int(d.tables.prm[P_GOLEM_TRACK_LEN]), int(d.tables.prm[P_STUDY_TRACK_LEN]))),
        names,
        narrate=lambda e: ("Automa" if e["event"] == "automa" else e["event"], e.get("text", "")),
        autos=autos,
        score_unit="VP",
    )
    view["seat_order"] = [s - 1 for s in order]
    return view
