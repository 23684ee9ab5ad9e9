"""What a replay page shows of a game: each position as a scene to draw, every step in words.

A game's ``replay_view`` (``simulate.game.Game``) turns its replay events (docs/replay.md) into a
:func:`build_view` dict, the one thing the page's template reads; the template knows no game. A scene is
plain JSON::

    {"board": [area, ...], "seats": [{"name": "seat 1", "areas": [area, ...]}, ...]}
    area = {"title": str, "cards": [card, ...], "chips": [[label, value], ...], "tracks": [[label, at, end], ...]}
    card = {"id": "M12", "note": "1Y on it"}      # its text from the view's catalogue ``cards``
         | {"back": 3, "label": "deck"}           # hidden cards: a back and a count

Automatic steps (income, control, re-deals, an opponent the rules play) are ``auto`` entries of the
step they happened in: ``{"title": "Income", "text": "seat 1: clay +2"}``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
from scipy.special import expit, softmax

from simulate.game import Lineup

Scene = dict[str, Any]


def card(card_id: str, note: str | None = None) -> dict[str, Any]:
    """A face-up card of the catalogue, with an optional note (what lies on it, its state)."""
    return {"id": card_id, "note": note} if note else {"id": card_id}


def back(count: int, label: str) -> dict[str, Any]:
    """Hidden cards: one back with their count and what they are."""
    return {"back": int(count), "label": label}


def area(
    title: str,
    cards: Iterable[dict[str, Any]] = (),
    chips: Iterable[tuple[str, Any]] = (),
    tracks: Iterable[tuple[str, int, int]] = (),
) -> dict[str, Any]:
    """One titled part of the picture: cards left to right, counters (label, value) and tracks (label, at, end)."""
    out: dict[str, Any] = {"title": title}
    cards, chips, tracks = list(cards), [list(c) for c in chips], [list(t) for t in tracks]
    if cards:
        out["cards"] = cards
    if chips:
        out["chips"] = chips
    if tracks:
        out["tracks"] = tracks
    return out


def _numbers(value: Any, prefix: str = "") -> dict[str, float]:
    """The numbers of a state value, flattened to dotted keys (lists and strings are left out)."""
    if isinstance(value, bool) or value is None:
        return {}
    if isinstance(value, int | float):
        return {prefix: value}
    if isinstance(value, dict):
        out: dict[str, float] = {}
        for k, v in value.items():
            out.update(_numbers(v, f"{prefix} {k}".strip()))
        return out
    return {}


def _signed(d: float) -> str:
    return f"{d:+g}"


def changes(before: dict[str, Any], after: dict[str, Any], seat_names: Sequence[str], skip: Iterable[str] = ()) -> str:
    """What changed between two ``state`` values, in words: each seat's numbers that moved, then the board's
    (``"seat 1: vp -10, clay +2; board: gold supply -1"``); ``""`` when no number moved. Fields in ``skip`` and
    ``score`` (the seat's score is a field of its own in every game) are left out."""
    skipped = set(skip) | {"seat", "score"}
    parts = []
    for k, (b, a) in enumerate(zip(before["seats"], after["seats"], strict=True)):
        moved = _moved(
            {f: v for f, v in b.items() if f not in skipped}, {f: v for f, v in a.items() if f not in skipped}
        )
        if moved:
            parts.append(f"{seat_names[k]}: {moved}")
    board = _moved(
        {f: v for f, v in before["board"].items() if f not in skipped},
        {f: v for f, v in after["board"].items() if f not in skipped},
    )
    if board:
        parts.append(f"board: {board}")
    return "; ".join(parts)


def _moved(before: dict[str, Any], after: dict[str, Any]) -> str:
    b, a = _numbers(before), _numbers(after)
    return ", ".join(f"{k.replace('_', ' ')} {_signed(a[k] - b.get(k, 0))}" for k in a if a[k] != b.get(k, 0))


def dealt(before: Sequence[Any], after: Sequence[Any]) -> list[Any]:
    """Cards in ``after`` that were not in ``before`` (a row's new cards after a re-deal), in ``after``'s order."""
    seen = list(before)
    out = []
    for c in after:
        if c is not None and c in seen:
            seen.remove(c)
        elif c is not None:
            out.append(c)
    return out


def build_view(
    events: list[dict[str, Any]],
    catalogue: dict[str, dict[str, str]],
    scene: Callable[[dict[str, Any]], Scene],
    seat_names: Sequence[str],
    narrate: Callable[[dict[str, Any]], tuple[str, str]],
    autos: dict[int, list[dict[str, str]]] | None = None,
    head: Callable[[dict[str, Any]], str] | None = None,
    score_unit: str = "points",
) -> dict[str, Any]:
    """The replay page's data: one step per event with a ``state`` (setup, each decision, the game's own table
    events, the result), each with its heading, its automatic steps, its scene and every seat's score.

    ``narrate(event)`` gives (title, text) of an event without a position (an opponent the rules play, a
    showdown), shown as an automatic step of the step before it; ``autos`` maps an event's index to automatic
    steps the game found inside it; ``head(event)`` words an event with a position that is not a move, the
    setup or the result. ``catalogue`` maps each card id to ``{"name", "text"}`` from the run's own data.

    Each step's scene areas, board and seat states are indices into ``pool``, where a part that did not change
    from one step to the next is stored once (a long game's page stays a few hundred KB).
    """
    autos = autos or {}
    steps: list[dict[str, Any]] = []
    for i, e in enumerate(events):
        if "state" not in e:
            if steps:
                title, text = narrate(e)
                steps[-1]["auto"].append({"title": title, "text": text})
            continue
        st = e["state"]
        seat = e.get("seat") if e["event"] == "move" else None
        step = {
            "kind": e["event"],
            "head": _heading(e, seat_names, head),
            "seat": seat,
            "auto": list(autos.get(i, [])),
            "scene": scene(st),
            "scores": [s["score"] for s in st["seats"]],
            "state": st,
        }
        if e["event"] == "move" and e.get("bot"):
            step["bot"] = e["bot"]
        if "explain" in e:
            step["explain"] = e["explain"]
        steps.append(step)
    pool = _Pool()
    for step in steps:  # a part that did not change since the step before is stored once
        step["scene"] = {
            "board": [pool.add(a) for a in step["scene"]["board"]],
            "seats": [{**s, "areas": [pool.add(a) for a in s["areas"]]} for s in step["scene"]["seats"]],
        }
        step["state"] = {
            "board": pool.add(step["state"].get("board", {})),  # a position of seats alone: {}
            "seats": [pool.add(s) for s in step["state"]["seats"]],
        }
    result = next((e for e in events if e["event"] == "result"), None)
    bots = {}
    for e in events:
        if e["event"] == "move" and "seat" in e:
            bots.setdefault(e["seat"], e["bot"])
    return {
        "cards": catalogue,
        "seat_names": list(seat_names),
        "bots": [bots.get(k + 1, "") for k in range(len(seat_names))],
        "score_unit": score_unit,
        "final": {"scores": result["scores"], "ranks": result["ranks"]} if result else None,
        "pool": pool.items,
        "steps": steps,
    }


class ReplayedGame(NamedTuple):
    """One game a page shows: the arguments of ``Game.replay`` (the game's data, the lineup of its one game and the
    seats' labels), handed to a game's ``page.replay_view`` with the game's events."""

    data: Any
    lineup: Lineup
    labels: list[str]


def gift_twin(game: Any, played: ReplayedGame, gift: bool, deal_gift: Callable, reference_class: Callable) -> Any:
    """The twin of a replayed game at its start (``game.new_twin``), with the gift copy (a rule option, when ``gift``)
    dealt as the run dealt it: ``deal_gift(record, tables, seat_bot)`` in the kernel's record, and the reference made
    anew as ``reference_class(data, num_players, setup_seed, seat)``, the seat holding lineup entry 0."""
    d, one = played.data, played.lineup
    twin = game.new_twin(d, one.num_players, one.setup_seeds, one.play_seeds)
    if gift:
        seat_bot = np.asarray(one.seat_bot, np.int64)
        deal_gift(twin.record[0], d.kernel[0], seat_bot)
        twin.reference = reference_class(d, one.num_players, one.setup_seeds, int(np.flatnonzero(seat_bot == 0)[0]))
    return twin


Options = list[tuple[np.ndarray, float]]
"""A decision's options as a bot valued them: (move, value in [0, 1]), best first."""


class Explainer(NamedTuple):
    """How one bot's decision is read back: ``options(record, params)`` re-runs it on ``record`` (a copy of the
    position's kernel record, one game) with the bot's parameter row and returns its :data:`Options` (none or one:
    nothing to explain); ``unit(params)`` says what the values are, e.g. ``"share of 40 iterations"``."""

    options: Callable[[np.ndarray, np.ndarray], Options]
    unit: Callable[[np.ndarray], str]


def root_options(tree: Any) -> Options:
    """(move, share of the root's visits) of each root child of the last search in ``tree`` (a
    ``simulate.search.Tree``), most visited first; among equals the first tried first, as the search picks. Shares
    add up to 1 (none: no search ran). Here, not in ``simulate.search``, whose edits recompile every game's kernels."""
    children = []
    c = tree.first_child[0]
    while c >= 0:
        children.append(c)
        c = tree.next_sibling[c]
    children.reverse()  # listed newest first: the first tried leads among equals
    total = sum(float(tree.visits[c]) for c in children)
    if total <= 0:
        return []
    return sorted(((tree.move[c].copy(), float(tree.visits[c]) / total) for c in children), key=lambda o: -o[1])


def search_explainer(
    new_search: Callable[[int], tuple[Any, Any]],
    search: Callable[[np.ndarray, np.ndarray, Any, Any], bool],
    shown: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
) -> Explainer:
    """How a search bot's decision is read back: ``search(record, params, tree, scratch)`` re-runs it in the tree and
    scratch ``new_search(iterations)`` makes (once for each count; ``params[0]`` is the bot's ``iterations``) and says
    whether it searched (False: a single move, nothing to explain). Its options are the root's visits
    (:func:`root_options`), each tree move as ``shown(record, move)`` gives it (default: as the tree holds it)."""
    made = functools.cache(new_search)

    def options(record: np.ndarray, params: np.ndarray) -> Options:
        tree, scratch = made(int(params[0]))
        if not search(record, params, tree, scratch):
            return []
        return [(shown(record, m), v) for m, v in root_options(tree)] if shown else root_options(tree)

    return Explainer(options, lambda params: f"share of {int(params[0])} iterations")


def logit_options(moves: np.ndarray, logits: np.ndarray, policy: bool) -> Options:
    """(move, value) of ``moves[:n]`` by their ``logits`` (``n`` of them, a learned player's), best first: with
    ``policy`` the policy's shares (a softmax: logits that rank one decision's options), else each one's chance
    (the logistic of its logit). No logits (a decision that wrote none): no options."""
    if not len(logits):
        return []
    values = softmax(logits) if policy else expit(logits)
    return sorted(((moves[k].copy(), float(values[k])) for k in range(len(logits))), key=lambda o: -o[1])


def written(values: np.ndarray) -> int:
    """How many leading ``values`` a decision wrote over the NaN they held before it."""
    unset = np.isnan(values)
    return int(unset.argmax()) if unset.any() else len(values)


TOP = 4
"""Options shown for a decision a bot explained."""


def explain_moves(
    twin: Any,
    events: list[dict[str, Any]],
    played: ReplayedGame,
    explainers: dict[int, Explainer],
    words: Callable[[np.ndarray], str],
    key: Callable[[Any], Any] | None = None,
    move_of: Callable[[dict[str, Any]], Any] | None = None,
) -> None:
    """Add ``explain`` (``{"summary", "options": [[words, value], ...], "unit", "played"}``) to each move event of a
    seat whose bot id has an :class:`Explainer`: the decision re-run from the position before the move (``twin``, a
    ``simulate.gamekit.Twin`` of the game, stepped with each move event's ``move_of(event)``, by default its
    ``record`` as int16), its top :data:`TOP` options in words. ``words(move)`` describes an option's move in the
    twin's position before it; ``key(move)`` tells moves (the options' and the one played) apart (default: their
    words). ``unit`` says what the values are; ``played`` is the index among the options of the move played (None:
    not among them). The re-run draws its own random numbers, so its first option can differ from the move played
    (more often with few iterations); the summary then says so."""
    key = key or words
    move_of = move_of or (lambda e: np.asarray(e["record"], np.int16))
    for e in events:
        if e["event"] != "move":
            continue
        move = move_of(e)
        entry = int(played.lineup.seat_bot[e["seat"] - 1])
        explainer = explainers.get(int(played.lineup.bot_ids[entry]))
        if explainer is not None:
            params = played.lineup.bot_params[entry]
            options = explainer.options(twin.record.copy(), params)  # the game's own record is left as it was
            if len(options) > 1:
                chosen = key(move)
                shown = [(words(m), v, key(m) == chosen) for m, v in options[:TOP]]
                summary = "; ".join(f"{w}: {v:.0%}" + (" (played)" if p else "") for w, v, p in shown)
                if not shown[0][2]:
                    summary += "; the re-run, with its own random draws, ranks the move played lower"
                unit = explainer.unit(params)
                e["explain"] = {
                    "summary": f"{summary} ({unit})",
                    "options": [[w, round(v, 4)] for w, v, _ in shown],
                    "unit": unit,
                    "played": next((k for k, (_, _, p) in enumerate(shown) if p), None),
                }
        twin.step(move)


class _Pool:
    """Distinct JSON values, each stored once; a step refers to them by index."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._index: dict[str, int] = {}

    def add(self, value: Any) -> int:
        key = json.dumps(value, sort_keys=True)
        if key not in self._index:
            self._index[key] = len(self.items)
            self.items.append(value)
        return self._index[key]


def _heading(e: dict[str, Any], seat_names: Sequence[str], head: Callable[[dict[str, Any]], str] | None) -> str:
    if e["event"] == "setup":
        return "Setup"
    if e["event"] == "move":
        rnd = f", round {e['round']}" if e.get("round") else ""
        text = e["text"].removeprefix(f"seat {e['seat']} ")  # the mover is named once, in the page's numbering
        return f"Turn {e['turn']}{rnd}: {seat_names[e['seat'] - 1]} ({e['bot']}): {text}"
    if e["event"] == "result":
        scores = ", ".join(f"{seat_names[k]} {s}" for k, s in enumerate(e["scores"]))
        winners = [seat_names[k] for k, r in enumerate(e["ranks"]) if r == 1]
        return f"Game over ({e.get('end_reason', 'end')}): {scores}; won by {' and '.join(winners) or 'nobody'}"
    return head(e) if head else e["event"]


def plain_scene(st: dict[str, Any]) -> Scene:
    """A scene of any ``state``: its numbers as counters, the board's and each seat's."""

    def chips(fields: dict[str, Any]) -> list[tuple[str, Any]]:
        return [(k.replace("_", " "), v) for k, v in _numbers(fields).items()]

    return {
        "board": [area("Board", chips=chips(st.get("board", {})))],
        "seats": [
            {"areas": [area("Position", chips=chips({k: v for k, v in s.items() if k != "seat"}))]} for s in st["seats"]
        ],
    }


def format_state(state: dict[str, Any]) -> str:
    """A replay ``state`` as indented text: one line for the board, one per seat, values as compact JSON."""

    def line(fields: dict[str, Any]) -> str:
        return "  ".join(
            f"{k}={v if isinstance(v, str) else json.dumps(v, separators=(',', ':'))}" for k, v in fields.items()
        )

    lines = [f"    board: {line(state.get('board', {}))}"]
    lines += [f"    seat {s['seat']}: {line({k: v for k, v in s.items() if k != 'seat'})}" for s in state["seats"]]
    return "\n".join(lines)
