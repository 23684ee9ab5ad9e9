"""Golem's components in words, for the value design (``golem value golem``, docs/card-value.md).

:func:`component_table` lists every component a seat can own or use with a short text of what it does, read from
the loaded data, and the columns ``analysis.stats.card_value.dominated_cards`` compares (``in_*`` what it asks,
``out_*`` what it gives, ``upgrades``, ``vp``).
"""

from __future__ import annotations

from typing import Any

from simulate.games.golem import data

KIND_ORDER = ("book", "objective", "development", "artifact", "start", "character")
"""Kinds of :func:`component_table`, in its order; every one but ``character`` has the gift design."""

RES_NAMES = ("Clay", "Coin", "Knowledge", "Gold", "VP", "Study step")
DEV_AREAS = (("golem", "Clay"), ("study", "Knowledge"), ("artifact", "Coins"))
DEV_TEXT = {
    "plain": "no effect",
    "control_cap_2": "at most 2 Knowledge per Golem in Golem Control",
    "kill_double_cemetery": "kill 1 Golem now; Cemetery bonuses doubled",
    "activate_work_extra": "activate 1 Golem now; every Work action activates 1 more free",
    "ignore_character_steps": "may ignore the Character's steps in Golem Movement",
    "create_step_activate": "a created Golem takes 1 step and activates standing",
    "column_clay_coin": "1 Clay and 1 Coin per Book tucked in column 1",
    "column_vp": "2 VP per Book tucked in column 2",
    "column_double": "a Book's immediate bonus doubled in column 3",
    "column_gold": "1 Gold per Book tucked in column 4",
    "study_track_bonus": "more Books per column and Knowledge income",
    "reactivate_red_marble": "reactivate its Artifact on a red marble action",
    "reactivate_first_book": "reactivate its Artifact on a column's first Book",
    "extra_knowledge_2": "its Artifact pays 2 Knowledge more",
    "extra_clay_2": "its Artifact pays 2 Clay more",
    "extra_coin_2": "its Artifact pays 2 Coins more",
}
"""A Development effect in words (a small Artifact tile: its side A, the side the gift places)."""
OBJECTIVE_TEXT = {
    "student_red": "red Student at section {t} or beyond",
    "student_yellow": "yellow Student at section {t} or beyond",
    "student_blue": "blue Student at section {t} or beyond",
    "golems_made": "{t} Golems made",
    "gold": "{t} Gold",
    "developments": "{t} upgraded Developments",
    "study": "Study track at {t}",
    "books": "{t} Books",
    "golems_killed": "{t} Golems killed",
}


BOOK_TEXT = {
    "gain": "gain {a} {res}",
    "trade": "pay {a} {res} for {a2} {res2}",
    "choice": "{a} of any resource",
    "study_up": "Study track +{a}",
    "student_district": "{district} Student +{a}",
    "student_any": "any Student +{a}",
    "golem_track": "Golem track ±{a}",
    "kill_golem": "kill 1 Golem",
    "upgrade": "upgrade a Development, discount {a}",
}
"""A Book effect in words: ``a``, ``a2`` its amounts, ``res``, ``res2`` its resources, ``district`` its Student's."""


def _name(names: tuple[str, ...], k: int) -> str:
    return names[k] if 0 <= k < len(names) else ""


def _book_effect(e: str, a: int, res: int, a2: int, res2: int) -> str:
    """One Book effect in words (``gain 3 Clay``, ``pay 2 Coin for 4 Clay``, ...); an effect not in ``BOOK_TEXT``
    by its name."""
    if e not in BOOK_TEXT:
        return e
    names = {"res": _name(RES_NAMES, res), "res2": _name(RES_NAMES, res2), "district": _name(data.DISTRICTS, res)}
    return BOOK_TEXT[e].format(a=a, a2=a2, **names)


def component_table(d: data.GolemData) -> list[dict[str, Any]]:
    """Every Book, Objective, Development tile, Artifact, Starting tile and Character: ``id``, ``kind``, ``text``,
    ``same`` (the text identical copies share), ``deck``, ``in_*`` / ``out_*`` (what it asks and gives, 0 where
    nothing), ``upgrades`` (0) and ``vp`` (its printed VP), in :data:`KIND_ORDER`."""
    t = d.tables
    rows: list[dict[str, Any]] = []
    for b, bid in enumerate(d.book_ids):
        colour = data.BOOK_COLOURS[t.bk_colour[b]]
        effects = [data.EFFECTS[t.bk_effect[b, w]] for w in (0, 1)]
        now = _book_effect(effects[0], t.bk_a[b, 0], t.bk_res[b, 0], t.bk_a2[b], t.bk_res2[b])
        active = _book_effect(effects[1], t.bk_a[b, 1], t.bk_res[b, 1], 0, 0)
        price = "a Student step back" if t.bk_colour[b] == data.BOOK_BLACK else f"{t.bk_cost[b]} Knowledge"
        row: dict[str, Any] = {"id": bid, "kind": "book", "text": f"{colour} Book ({price}): {now}; active: {active}"}
        row |= {"in_knowledge": int(t.bk_cost[b]), "in_student": int(t.bk_colour[b] == data.BOOK_BLACK)}
        for c in range(4):  # a black Book counts as any one colour
            row[f"out_colour_{data.BOOK_COLOURS[c]}"] = int(t.bk_colour[b] in (c, data.BOOK_BLACK))
        for w, part in enumerate(("now", "active")):
            e = effects[w]
            if e == "trade":
                row[f"in_{part}_{RES_NAMES[t.bk_res[b, w]]}"] = int(t.bk_a[b, w])
                row[f"out_{part}_{RES_NAMES[t.bk_res2[b]]}"] = int(t.bk_a2[b])
            elif e == "gain":
                row[f"out_{part}_{RES_NAMES[t.bk_res[b, w]]}"] = int(t.bk_a[b, w])
            else:
                row[f"out_{part}_{e}"] = max(1, int(t.bk_a[b, w]))
        row["vp"] = int(t.bk_a[b, 0]) if effects[0] == "gain" and t.bk_res[b, 0] == data.VP else 0
        rows.append(row)
    for o, oid in enumerate(d.objective_ids):
        kind = data.OBJECTIVE_TYPES[t.ob_type[o]]
        need = OBJECTIVE_TEXT[kind].format(t=int(t.ob_threshold[o]))
        rows.append(
            {"id": oid, "kind": "objective", "text": f"Objective: {int(t.ob_vp[o])} VP for {need}"}
            | {f"in_{kind}": int(t.ob_threshold[o]), "vp": int(t.ob_vp[o])}
        )
    for area, res in DEV_AREAS:
        menorahs, costs = getattr(t, f"{area[0]}dev_menorah"), getattr(t, f"{area[0]}dev_cost")
        effect = t.adev_effect[:, 0] if area == "artifact" else getattr(t, f"{area[0]}dev_effect")
        for k in range(len(menorahs)):
            what = DEV_TEXT.get(data.EFFECTS[effect[k]], data.EFFECTS[effect[k]])
            cost = f"{int(costs[k])} {res}" if costs[k] else "its Artifact space's Coins"
            rows.append(
                {
                    "id": f"{area}_dev_{k + 1}",
                    "kind": "development",
                    "text": f"{area} Development {k + 1} ({cost}): {int(menorahs[k])} Menorah, {what}",
                    f"in_{res}": int(costs[k]),
                    f"out_menorah_{area}": int(menorahs[k]),
                    f"out_{data.EFFECTS[effect[k]]}": 1,
                    "vp": 0,
                }
            )
    for k in range(4):
        lo, hi = int(t.art[:, :, k, 0].min()), int(t.art[:, :, k, 0].max())
        rows.append(
            {
                "id": f"artifact_{k + 1}",
                "kind": "artifact",
                "text": f"Artifact {k + 1} of the seat's tile completed ({lo if lo == hi else f'{lo}-{hi}'} Gold): "
                "its benefits now and every Income",
                f"out_artifact_{k + 1}": 1,  # no two positions compare: what each pays depends on the tile
                "vp": 0,
            }
        )
    for s, sid in enumerate(d.start_ids):
        v = t.start_tiles[s]
        parts = [f"{int(v[r])} {name}" for r, name in enumerate(RES_NAMES) if v[r]]
        parts += [f"{data.DISTRICTS[k]} Student +{int(v[6 + k])}" for k in range(3) if v[6 + k]]
        rows.append(
            {"id": sid, "kind": "start", "text": "Starting tile: " + ", ".join(parts)}
            | {f"out_{name}": int(v[r]) for r, name in enumerate(RES_NAMES) if v[r]}
            | {f"out_student_{data.DISTRICTS[k]}": int(v[6 + k]) for k in range(3) if v[6 + k]}
            | {"vp": int(v[4])}
        )
    for c, cid in enumerate(d.character_ids):
        marbles = f"{data.MARBLES[t.ch_c1[c]]}+{data.MARBLES[t.ch_c2[c]]}"
        bonus = data.EFFECTS[t.ch_effect[c]].replace("_", " ")
        rows.append(
            {
                "id": cid,
                "kind": "character",
                "text": f"Character ({marbles}, {int(t.ch_move[c])} steps): pay {int(t.ch_cost[c])} Coins for "
                f"{bonus} {int(t.ch_a[c])}/{int(t.ch_b[c])}, or take 3 Coins",
                "in_coin": int(t.ch_cost[c]),
                f"out_{bonus}": int(t.ch_a[c]) + int(t.ch_b[c]),
                "vp": 0,
            }
        )
    columns = sorted({k for r in rows for k in r if k.startswith(("in_", "out_"))})
    deck = {"book": "Book deck", "objective": "Objective deck", "development": "player board"}
    deck |= {"artifact": "Artifact tile", "start": "Starting tiles", "character": "Palace"}
    return [
        {"id": r["id"], "kind": r["kind"], "text": r["text"], "same": r["text"], "deck": deck[r["kind"]]}
        | {c: r.get(c, 0) for c in columns}
        | {"upgrades": 0, "vp": r["vp"]}
        for r in rows
    ]
