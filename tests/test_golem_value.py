"""What a Golem component is worth (docs/card-value.md): the rule option ``gift`` in both engines, the default left
bit-identical, the component table, and ``golem value golem`` end to end."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from digests import tables_digest

from simulate.cli import main
from simulate.conformance import _replay
from simulate.datafiles import DataError
from simulate.games.golem import bots as B
from simulate.games.golem import data as D
from simulate.games.golem import loader
from simulate.games.golem.codes import PH_PLACE
from simulate.games.golem.play import trace_game
from simulate.games.golem.reference import GolemReference
from simulate.games.golem.twin import record_view, reference_view
from simulate.lineup import parse_lineup
from simulate.registry import make
from simulate.rng import game_seeds
from simulate.runner import RunSpec

SEED = 20261204
PLAIN = loader.load()
GIFTS = ("B05", "60", "golem_dev_4", "artifact_dev_3", "artifact_2", "S04")  # no decision of their own
HOLDER_FIELDS = {
    "B05": {"col_books", "col_colour", "res"},  # gain 2 Clay, then its own active bonus: 1 Clay
    "60": {"objectives"},
    "golem_dev_4": {"gdev"},
    "artifact_dev_3": {"adev_space"},
    "artifact_2": {"art_gold", "art_done", "res", "vp", "study"},
    "S04": {"res"},
}
"""The fields of the holder's seat each gift may change (the rest of the position must not differ)."""


def _set_up(d: D.GolemData, n: int, seed: int, holder: int) -> GolemReference:
    """A reference game played to the Golem placement, every setup decision its first legal action."""
    ref = GolemReference(d, n, seed, holder)
    while ref.phase < PH_PLACE:
        ref.apply_action(ref.legal_actions()[0])
    return ref


@pytest.mark.parametrize("gift", GIFTS)
def test_reference_deals_the_gift_to_the_holder_only_and_the_same_deal(gift: str) -> None:
    gifted = loader.load(rules={"gift": gift})
    setup, _ = game_seeds(SEED, np.arange(2), np.arange(2))
    for n in (1, 2, 3):
        for holder in range(n):
            for s in setup:
                got = reference_view(_set_up(gifted, n, int(s), holder))
                want = reference_view(_set_up(PLAIN, n, int(s), holder))
                differs = set()
                for key, value in want.items():
                    if got[key] == value:
                        continue
                    if key == "gold_supply" and gift == "artifact_2":
                        continue
                    assert isinstance(value, list) and len(value) == n, f"{gift}: {key} is not the holder's"
                    others = [k for k in range(n) if k != holder]
                    assert all(got[key][k] == value[k] for k in others), f"{gift}: {key} of another seat changed"
                    differs.add(key)
                assert differs and differs <= HOLDER_FIELDS[gift], (gift, differs)


def test_each_kind_is_dealt_as_the_ruling_says() -> None:
    s = int(game_seeds(SEED, np.arange(1), np.arange(1))[0][0])
    book, plain = _set_up(loader.load(rules={"gift": "B05"}), 2, s, 1), _set_up(PLAIN, 2, s, 1)
    b05 = PLAIN.book_ids.index("B05")
    assert book.col_books[1][0] == [b05] + plain.col_books[1][0] and book.col_colour[1][0] == 0
    assert book.res[1][D.CLAY] == plain.res[1][D.CLAY] + 3, "its immediate 2 Clay and its own active 1 Clay"
    assert b05 in book.library + book.book_deck, "the deck keeps its own copy"
    objective = _set_up(loader.load(rules={"gift": "60"}), 2, s, 1)
    assert objective.objectives[1] == plain.objectives[1] + [PLAIN.objective_ids.index("60")]
    art = _set_up(loader.load(rules={"gift": "artifact_2"}), 2, s, 1)
    need = int(PLAIN.tables.art[art.art_tile[1], art.art_side[1], 1, 0])
    assert art.art_done[1] == [0, 1, 0, 0] and art.art_gold[1][1] == need
    assert art.gold_supply == plain.gold_supply - need, "the Artifact's Gold comes from the supply"
    dev = _set_up(loader.load(rules={"gift": "artifact_dev_6"}), 2, s, 1)
    assert dev.adev_space[1][5] == 0 and dev.menorahs(1)[1] == plain.menorahs(1)[1] + 3
    start = _set_up(loader.load(rules={"gift": "S04"}), 2, s, 0)
    plain0 = _set_up(PLAIN, 2, s, 0)
    assert start.res[0][D.CLAY] == plain0.res[0][D.CLAY] + 2 and start.res[0][D.COIN] == plain0.res[0][D.COIN] + 2


@pytest.mark.parametrize(("gift", "n"), [("B08", 2), ("golem_dev_3", 3), ("S07", 2), ("77", 3)])
def test_kernel_deals_the_gift_to_the_first_bots_seat_and_agrees_with_the_reference(gift: str, n: int) -> None:
    """Whole games traced by the kernel (the gift's own decisions included: B08's choice, S07's Gold) replay in the
    reference dealing to the same seat, position for position at the end."""
    gifted = loader.load(rules={"gift": gift})
    ids = np.array([B.BOTS[name][0] for name in ("balanced", "greedy", "random")[:n]])
    params = np.stack([B.bot_params(name) for name in ("balanced", "greedy", "random")[:n]])
    setup, plays = game_seeds(SEED, np.arange(2), np.arange(2))
    for g, seat_bot in enumerate((np.roll(np.arange(n), 1), np.roll(np.arange(n), -1))):
        holder = int(np.flatnonzero(seat_bot == 0)[0])
        moves, final = trace_game(gifted, n, seat_bot, ids, params, setup[g], plays[g])
        assert int(final[0]["gift_seat"]) == holder
        ref = GolemReference(gifted, n, int(setup[g]), holder)
        for a in moves:
            ref.apply_action(int(a))
        assert ref.is_terminal()
        kernel, reference = record_view(final[0], n), reference_view(ref)
        for key, value in reference.items():
            assert kernel[key] == value, f"{gift}, holder {holder}: field {key} differs"


def test_gift_of_an_unknown_id_or_a_character_is_refused() -> None:
    with pytest.raises(DataError, match="'X99' is not a Book"):
        loader.load(rules={"gift": "X99"})
    with pytest.raises(DataError, match="'43' is a Character"):
        loader.load(rules={"gift": "43"})


def _digest(rules: dict[str, str]) -> str:
    return tables_digest(
        "golem", rules, [(2, ["balanced"], 150), (3, ["greedy", "balanced", "random"], 100), (1, ["balanced"], 100)]
    )


# The tables of 350 games (150 balanced 2-player, 100 greedy/balanced/random 3-player, 100 balanced solo) played by
# the engine before the gift option existed (commit 8070463); Golem's engine version did not change with it.
BEFORE_GIFT = "741b4e850ecb90c24fb37dcce03454d6f66d032b79af2a100d152c9eb0d09009"


def test_default_gift_none_leaves_every_table_bit_identical() -> None:
    assert _digest({}) == _digest({"gift": "none"}) == BEFORE_GIFT


def test_component_table_has_every_kind_with_its_text() -> None:
    game = make("golem")
    table = {c["id"]: c for c in game.component_table(PLAIN)}
    kinds = {c["kind"] for c in table.values()}
    assert kinds == {"book", "objective", "development", "artifact", "start", "character"}
    assert len(table) == 38 + 27 + 18 + 4 + 18 + 12
    assert table["B01"]["text"] == "red Book (1 Knowledge): gain 3 Clay; active: gain 1 Clay"
    assert table["B33"]["text"].startswith("black Book (a Student step back): gain 4 VP")
    assert table["51"]["text"] == "Objective: 2 VP for red Student at section 5 or beyond"
    assert table["golem_dev_4"]["text"] == "golem Development 4 (8 Clay): 3 Menorah, no effect"
    assert table["S04"]["text"] == "Starting tile: 2 Clay, 2 Coin"
    assert set(game.info.value_designs) == kinds - {"character"} and game.info.value_reference in table
    widths = {len(c) for c in table.values()}
    assert len(widths) == 1, "every row has every column (the dominance table compares them)"


@pytest.mark.parametrize("gift", ["B08", "artifact_1"])
def test_replay_of_a_gift_game_reaches_the_kernels_result(gift: str) -> None:
    """The conformance check's replay (reference against kernel, rotated seats) on games with the gift."""
    assert _replay(make("golem"), loader.load(rules={"gift": gift}), SEED) == []


def test_value_command_gives_a_verdict_and_refuses_bad_ids() -> None:
    runner = CliRunner()
    done = runner.invoke(main, ["value", "golem", "B16", "--games", "40", "--bot", "greedy", "-w", "1"])
    assert done.exit_code == 0, done.output
    line = [x for x in done.stdout.splitlines() if x.startswith("B16")]
    assert len(line) == 1 and "B16 (yellow Book (3 Knowledge): gain 3 VP; active: gain 1 VP)" in line[0], line
    assert "40 paired games, bot greedy, 2 players" in line[0] and "beyond a gift of plain S04" in line[0]
    price = runner.invoke(main, ["value", "golem", "--price", "--games", "20", "--bot", "greedy", "-w", "1"])
    assert price.exit_code == 0 and "Strictly dominated" in price.stdout, price.output
    assert "Value for cost, 2 players, greedy (20 paired games a Book;" in price.stdout, price.stdout
    assert "a Book at no price is worth" in price.stdout and "each Knowledge of price adds" in price.stdout
    for args, message in (
        (["golem", "B16", "--price"], "--price values every priced card: name no component"),
        (["golem", "43"], "43 is a character card: no causal value design"),
        (["golem", "X99"], "unknown component 'X99'"),
        (["golem", "golem_dev_1", "--cost", "3"], "has no cost to change"),
    ):
        bad = runner.invoke(main, ["value", *args, "--games", "10"])
        assert bad.exit_code == 1 and message in bad.output and len(bad.output.strip().splitlines()) == 1, bad.output


def test_study_and_report_value_golem_components(tmp_path) -> None:
    from analysis.report import compute_report, render_markdown
    from simulate.orchestration.studies import plan_study
    from simulate.runner import run

    value = [p for p in plan_study("golem", 200_000) if p.purpose.startswith("card value")]
    assert {p.spec.rules.get("gift") for p in value} >= {None, "B01", "51", "golem_dev_1", "artifact_1", "S04"}
    assert len({p.spec.master_seed for p in value}) == 1 and all(p.spec.num_players == 2 for p in value)
    small = [p for p in plan_study("golem", 20_000) if p.purpose.startswith("card value")]
    assert len(small) == len(value) and all(p.spec.num_games == 200 for p in small), "screened at any size"
    lineup = parse_lineup(make("golem"), ["greedy"], 2)
    dirs = []
    books = ("B16", "B01", "B02", "B03", "B08", "B37")  # prices 3, 1, 2, 1, 3 Knowledge and a Student step
    for name, rules in (("base", {}), ("S04", {"gift": "S04"}), *((b, {"gift": b}) for b in books)):
        spec = RunSpec("golem", 2, 40, SEED, lineup, chunk_size=40, rules=rules)
        dirs.append(run(spec, tmp_path / name, workers=1, progress=False))
    report = compute_report(dirs)
    section = next(s for s in report.sections if s.title == "What a card is worth")
    assert section.answers[0].startswith("What a card is worth (causal): "), section.answers
    rows = {row[0]: row for item in section.items if hasattr(item, "rows") for row in item.rows}
    assert rows["B16"][1].startswith("yellow Book (3 Knowledge)") and rows["B16"][4] != "—", "beyond plain S04"
    assert not any("Rule options" in s.title for s in report.sections), "value runs are no rule variants"
    price = [i.text for i in section.items if getattr(i, "text", "").startswith("Value for cost (2 players, greedy)")]
    assert len(price) == 1 and "a Book at no price is worth" in price[0], [
        getattr(i, "text", "") for i in section.items
    ]
    priced = [i for i in section.items if hasattr(i, "rows") and "its price's line (pp)" in i.columns]
    assert len(priced) == 1 and {r[0] for r in priced[0].rows} <= set(books) and len(priced[0].rows) == len(books)
    assert {r[2] for r in priced[0].rows} >= {"3 Knowledge", "1 Student step back"}
    text = render_markdown(report)
    assert "What a card is worth" in text and "yellow Book (3 Knowledge)" in text
