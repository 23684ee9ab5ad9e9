"""The right player for the data: a run records whether its apprentice was fitted on the data it plays, commands and
reports say so, and ``--refit-apprentice`` fits one on edited data, cached by the data's SHA-256."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from analysis.experiment import learned_fit_caution, measured_skill
from analysis.report import compute_report
from analysis.report.model import Table
from simulate.apprentice import read_provenance
from simulate.apprentice_fit import SEARCH_SKILL, fit_record, fit_words, manifest_fit, plays_learned
from simulate.cli import main
from simulate.datafiles import default_dir, sha256
from simulate.orchestration import refit as R
from simulate.orchestration.card_value import ValueDesign, card_value, value_answer
from simulate.orchestration.experiments import Design, run_experiment
from simulate.registry import make
from simulate.variants import Variant, write_variant

SEED = 3
TINY = R.RefitSettings(
    games=10,
    iterations=1,
    strength_games=0,
    seed=SEED,
    teacher="search:iterations=5",
    expert="search:iterations=5:leaf=1",
)
"""A refit that tests the cache and the provenance, not strength: 10 games of a 5-iteration search a player count."""
STRONGER = ("merchant_cards.M08.output", "YYYYYY")
"""The edit the what-if commands' refits share (a sweep's variant, a value's --reward arm, a balance candidate)."""


@pytest.fixture(scope="module")
def refit_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One refit cache for the module: the what-if commands' tests refit the same edited data once between them."""
    return tmp_path_factory.mktemp("refit-cache")


def tiny_refits(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    """Every refit of the test (by a command's --refit-apprentice) trains :data:`TINY` into ``cache``."""
    real = R.refit_apprentice
    monkeypatch.setattr(R, "refit_apprentice", lambda *a, **k: real(*a, **{**k, "settings": TINY, "cache": cache}))


def edited_deck(where: Path, output: str = "YYYYYY") -> Path:
    """A copy of Century's shipped data with merchant card M08 producing ``output`` (printed: YYYY), its card file
    written as the what-if commands write theirs (so a refit of it is theirs too)."""
    folder = where / f"deck-{output}"
    shutil.copytree(default_dir("century"), folder)
    edit = write_variant(make("century"), Variant("M08", (("merchant_cards.M08.output", output),)), where / "edit")[0]
    assert "M08,market,create,,YYYY,0" in (folder / "merchant_cards.csv").read_text()
    shutil.copy2(edit / "merchant_cards.csv", folder / "merchant_cards.csv")
    shutil.rmtree(edit)
    assert f"M08,market,create,,{output},0" in (folder / "merchant_cards.csv").read_text()
    return folder


def shipped_files(game: str) -> dict[str, str]:
    folder = default_dir(game)
    return {name: sha256(folder / name) for name in make(game).info.data_files}


@pytest.mark.parametrize("game", ["century", "golem", "golems"])
def test_the_shipped_apprentice_covers_the_shipped_data(game: str) -> None:
    prov = read_provenance(default_dir(game))
    record = fit_record(prov["fit"], shipped_files(game), None, ("gift",), prov.get("base"))
    assert record["covers"], record


def test_what_the_fit_covers_is_decided_by_the_played_files_and_rules() -> None:
    fit = read_provenance(default_dir("century"))["fit"]
    files = shipped_files("century")
    rules = dict(fit["rules"])
    assert fit_record(fit, files, rules, ("gift",))["covers"]
    edited = {**files, "merchant_cards.csv": "0" * 64}
    record = fit_record(fit, edited, rules)
    assert not record["covers"] and record["files_differ"] == ["merchant_cards.csv"]
    weights = {**files, "apprentice.csv": "0" * 64}  # the learned player's own file is not data it plays on
    assert fit_record(fit, weights, rules)["covers"]
    styles = {**files, "styles.toml": "0" * 64}  # nor are its strategy styles (offsets on its weights)
    assert fit_record(fit, styles, rules)["covers"]
    other_rules = fit_record(fit, files, {**rules, "tie_break": "shared"})
    assert not other_rules["covers"] and other_rules["rules_differ"] == {"tie_break": ["later_seat", "shared"]}
    gift = {**rules, "gift": "M04"}  # golem value's extra printed card is a value design, not an edit
    assert fit_record(fit, files, gift, ("gift",))["covers"] and not fit_record(fit, files, gift)["covers"]
    unrecorded = {k: v for k, v in fit["data_files"].items() if k != "point_cards.csv"}
    assert fit_record({**fit, "data_files": unrecorded}, files, rules)["files_unrecorded"] == ["point_cards.csv"]
    none = fit_record({}, files, rules)
    assert not none["covers"] and not none["fitted"] and "no provenance" in fit_words(none, "century")
    base = {**fit, "data_files": {**fit["data_files"], "game.toml": "1" * 64}}  # a policy-only fit's other counts
    assert fit_record(fit, files, rules, base=base)["files_differ"] == ["game.toml"]
    nested = {**fit, "base": base}  # a --players fit on a policy-only one: the base's own base must cover too
    assert fit_record(fit, files, rules, base=nested)["files_differ"] == ["game.toml"]


def test_old_manifests_still_give_a_record_or_none() -> None:
    fit = read_provenance(default_dir("century"))["fit"]
    lineup = [{"label": "apprentice", "bot": "apprentice", "params": {}}]
    edited = {**shipped_files("century"), "merchant_cards.csv": "0" * 64}
    old = {"lineup": lineup, "data": {"files": edited, "apprentice": fit}}
    assert manifest_fit(old)["files_differ"] == ["merchant_cards.csv"]
    assert manifest_fit({"lineup": lineup, "data": {"files": edited}}) is None, "no provenance recorded: nothing said"
    assert manifest_fit({**old, "lineup": [{"label": "greedy", "bot": "greedy", "params": {}}]}) is None
    assert plays_learned([{"bot": "search", "params": {"leaf": 1.0}}]) and not plays_learned([{"bot": "search"}])


def _simulate(tmp_path: Path, name: str, *extra: str) -> tuple[CliRunner, object, Path]:
    out = tmp_path / name
    runner = CliRunner()
    args = ["simulate", "century", "-p", "2", "-n", "40", "--bots", "apprentice", "-w", "1", "--out", str(out)]
    return runner, runner.invoke(main, [*args, *extra]), out


def test_an_edited_card_file_is_recorded_and_said_and_the_shipped_data_is_not(tmp_path: Path) -> None:
    deck = edited_deck(tmp_path)
    _, result, edited_run = _simulate(tmp_path, "edited", "--cards", str(deck))
    assert result.exit_code == 0, result.output
    record = json.loads((edited_run / "manifest.json").read_text())["apprentice_fit"]
    assert not record["covers"] and record["files_differ"] == ["merchant_cards.csv"]
    said = result.stderr
    assert "apprentice fitted on other data (merchant_cards.csv differs" in said and SEARCH_SKILL in said
    assert f"golem train century --cards {deck}" in said and "--refit-apprentice" in said

    _, result, shipped_run = _simulate(tmp_path, "shipped")
    assert result.exit_code == 0, result.output
    assert json.loads((shipped_run / "manifest.json").read_text())["apprentice_fit"]["covers"]
    assert "fitted on other data" not in result.stderr

    report = compute_report([edited_run, shipped_run])
    assert "The apprentice playing run edited was fitted on other data (merchant_cards.csv differs)" in report.caution
    assert "hold at the skill of search only" in report.caution
    rows = {
        row[0]: row
        for item in report.appendix
        if isinstance(item, Table) and "apprentice" in item.columns
        for row in item.rows
    }
    assert rows["edited"][-1] == "fitted on other data (merchant_cards.csv)" and rows["shipped"][-1] == (
        "fitted on this data"
    )
    assert compute_report([shipped_run]).caution == "", "the shipped data: no such caution"


def test_bad_refit_input_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "out"
    sweep = ["sweep", "century", "-p", "2", "--set", "points.P36.vp=18", "--out", str(out)]
    for args, message in [
        (["simulate", "century", "-p", "2", "--bots", "greedy", "--out", str(out)], "no apprentice plays"),
        (["simulate", "golem-poker", "-p", "3", "--bots", "search", "--out", str(out)], "no apprentice plays"),
        (["study", "golem-poker", "--runs-dir", str(tmp_path / "s")], "no apprentice to refit"),
        ([*sweep, "--bots", "greedy"], "no apprentice plays"),
        ([*sweep, "--bots", "search"], "no apprentice plays"),
        (["ablate", "century", "-p", "2", "--remove", "M09", "--out", str(out)], "no apprentice plays"),
        (["sweep", "golem-poker", "-p", "3", "--set", "penalty_antes=1", "--out", str(out)], "no apprentice to refit"),
        (["balance", "century", "-p", "2", "--vary", "start.seat1", "--levels", "planner", "--out", str(out)], "no a"),
        (["tune", "century", "-p", "2", "--bot", "greedy", "--field", "planner", "--out", str(out)], "no apprentice"),
        (["value", "century", "M08", "--reward", "Y", "--bot", "greedy,planner", "--out", str(out)], "no apprentice"),
    ]:
        result = runner.invoke(main, [*args, "--refit-apprentice"])
        assert result.exit_code == 1, result.output
        assert message in result.output and len(result.output.strip().splitlines()) == 1, result.output
        assert not out.exists() and not (tmp_path / "s").exists()
    with pytest.raises(R.RefitError, match="no apprentice to refit"):
        R.refit_apprentice("golem-poker", None)


def test_the_refit_is_cached_by_the_data_hash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refit_cache: Path
) -> None:
    cache = refit_cache  # the module's: the what-if commands' tests below reuse this refit of the edited deck
    deck = edited_deck(tmp_path)
    said: list[str] = []
    shipped = R.refit_apprentice("century", None, settings=TINY, cache=cache, progress=False)
    assert shipped.how == "covered" and shipped.folder == default_dir("century") and not any(cache.iterdir())

    first = R.refit_apprentice("century", deck, settings=TINY, cache=cache, progress=False, say=said.append)
    assert first.how == "fitted" and cache in first.folder.parents and "refitting the century apprentice" in said[0]
    fit = read_provenance(first.folder)["fit"]
    assert fit["data_files"]["merchant_cards.csv"] == sha256(deck / "merchant_cards.csv")
    assert f"--cards {deck}" in fit["command"]
    assert (first.folder / "merchant_cards.csv").read_bytes() == (deck / "merchant_cards.csv").read_bytes()
    assert (deck / "apprentice.toml").read_text() != (first.folder / "apprentice.toml").read_text()

    def no_training(*_, **__):
        raise AssertionError("trained again")

    monkeypatch.setattr(R, "train", no_training)
    again = R.refit_apprentice("century", deck, settings=TINY, cache=cache, progress=False)
    assert again.how == "reused" and again.folder == first.folder and again.key == first.key
    (deck / "playing_time.toml").write_text((deck / "playing_time.toml").read_text() + "\n# not played\n")
    assert R.refit_apprentice("century", deck, settings=TINY, cache=cache, progress=False).how == "reused"

    other = edited_deck(tmp_path, "YYYYY")
    with pytest.raises(AssertionError, match="trained again"):  # another edit misses the cache
        R.refit_apprentice("century", other, settings=TINY, cache=cache, progress=False)
    assert R.refit_key("century", other, {}, TINY) != first.key
    with pytest.raises(AssertionError, match="trained again"):  # so do other rules
        R.refit_apprentice("century", deck, {"tie_break": "shared"}, settings=TINY, cache=cache, progress=False)

    # a run on the refitted folder records an apprentice fitted on its data, and says nothing against it
    _, result, run_dir = _simulate(tmp_path, "refitted", "--cards", str(first.folder))
    assert result.exit_code == 0, result.output
    assert json.loads((run_dir / "manifest.json").read_text())["apprentice_fit"]["covers"]
    assert "apprentice: fitted on this data" in result.stderr and "other data" not in result.stderr

    # golem simulate --refit-apprentice plays the cached refit (here of the tiny settings) instead of the folder given
    real = R.refit_apprentice
    monkeypatch.setattr(R, "refit_apprentice", lambda *a, **k: real(*a, **{**k, "settings": TINY, "cache": cache}))
    _, result, run_dir = _simulate(tmp_path, "by-flag", "--cards", str(deck), "--refit-apprentice")
    assert result.exit_code == 0, result.output
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["data"]["folder"] == str(first.folder) and manifest["apprentice_fit"]["covers"]
    assert "apprentice refitted on this data already" in result.stderr


def test_the_refit_key_changes_with_the_apprentice_features(monkeypatch) -> None:
    # a cached refit fitted on other features would be refused at load: another feature list is another key
    info = make("century").info
    before = R.refit_key("century", default_dir("century"), {}, TINY)
    fewer = replace(info, apprentice=replace(info.apprentice, features=info.apprentice.features[:-1]))
    monkeypatch.setattr(R, "make", lambda name: SimpleNamespace(info=fewer))
    assert R.refit_key("century", default_dir("century"), {}, TINY) != before
    monkeypatch.undo()
    # a fit kept by the strength against the rival alone (before 7 Dec 2026) is another key: refitted, not reused
    monkeypatch.setattr(R, "STRENGTH_KEYS", ("rival",))
    assert R.refit_key("century", default_dir("century"), {}, TINY) != before


def test_a_sweep_of_an_edited_card_says_its_variant_was_played_by_an_apprentice_fitted_on_other_data(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refit_cache: Path
) -> None:
    edit = Variant("M08 stronger", (("merchant_cards.M08.output", "YYYYYY"),))
    design = Design("century", 2, ("apprentice",), (Variant("baseline"), edit), num_games=40, seed=SEED)
    exp = run_experiment(design, tmp_path / "sweep", command="golem sweep century ...", workers=1)
    caution = learned_fit_caution(exp)
    assert caution.startswith("The apprentice playing variant M08 stronger was fitted on other data")
    assert (
        "merchant_cards.csv differs" in caution
        and "hold at the skill of search only" in caution
        and "baseline" not in caution
    )
    skill = measured_skill(exp)
    assert skill.startswith("Measured at the skill of apprentice (learned player) (rung 5 of 8")
    assert skill.endswith(
        f"the apprentice playing M08 stronger was fitted on other data, so that answer {SEARCH_SKILL}."
    )
    plain = Design("century", 2, ("greedy",), (Variant("baseline"), edit), num_games=40, seed=SEED)
    greedy = run_experiment(plain, tmp_path / "plain", workers=1)
    assert learned_fit_caution(greedy) == "" and measured_skill(greedy).endswith(
        "hold at that skill level; stronger players may see others."
    )

    # --refit-apprentice: the variant's data gets an apprentice refitted on it (the baseline's own fits), recorded
    tiny_refits(monkeypatch, refit_cache)
    out = tmp_path / "refitted"
    args = ["sweep", "century", "-p", "2", "--bots", "apprentice", "--set", "=".join(STRONGER), "-n", "40"]
    result = CliRunner().invoke(main, [*args, "-w", "1", "--seed", str(SEED), "--refit-apprentice", "--out", str(out)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "experiment.json").read_text())
    assert manifest["design"]["refit_apprentice"] is not None and "--refit-apprentice" in manifest["command"]
    base, edited = manifest["variants"]
    assert base["apprentice_refit"]["how"] == "covered" and edited["apprentice_refit"]["how"] in ("fitted", "reused")
    fit = read_provenance(Path(edited["data"]))["fit"]
    assert fit["data_files"]["merchant_cards.csv"] == sha256(Path(edited["data"]) / "merchant_cards.csv")
    run = json.loads((out / edited["runs"][0] / "manifest.json").read_text())
    assert run["apprentice_fit"]["covers"], "the variant's runs record an apprentice fitted on their data"
    said = result.output
    assert "other data" not in said and SEARCH_SKILL not in said, said
    assert "Measured at the skill of apprentice" in said and "was refitted on its data (--refit-apprentice" in said
    assert f"baseline was fitted on its data ({read_provenance(default_dir('century'))['fit']['command']})" in said

    # golem balance plays every setting it evaluates with an apprentice refitted on it: here the sweep's, reused
    balance = [
        "balance",
        "century",
        "-p",
        "2",
        "--bots",
        "apprentice",
        "--vary",
        "=".join([STRONGER[0], "YYYY,YYYYYY"]),
    ]
    small = ["-n", "20", "--budget", "2", "--confirm-games", "20", "-w", "1", "--refit-apprentice"]
    result = CliRunner().invoke(main, [*balance, *small, "--out", str(tmp_path / "balance")])
    assert result.exit_code == 0, result.output
    assert "apprentice refitted on this data already" in result.output and "other data" not in result.output
    evals = sorted((tmp_path / "balance" / "search" / "evals").glob("*-data"))
    assert len(evals) == 2 and all(
        json.loads((e.with_name(e.name[:-5]) / "manifest.json").read_text())["apprentice_fit"]["covers"] for e in evals
    )


def test_a_value_what_if_says_which_apprentice_played_each_arm_and_refits_it(
    monkeypatch: pytest.MonkeyPatch, refit_cache: Path
) -> None:
    edit = (("reward", STRONGER[1]),)
    design = ValueDesign("century", ("M08",), (2,), ("apprentice",), num_games=40, seed=SEED, edits=edit)
    result = card_value(design, workers=1)
    lines = value_answer(result, design)
    head, printed, edited = result.skill
    assert lines[-3:] == list(result.skill)
    assert head.startswith("Measured at the skill of apprentice (learned player) (rung 5 of 8")
    command = read_provenance(default_dir("century"))["fit"]["command"]
    assert printed.startswith(
        f"The value as printed with bot apprentice was played by an apprentice fitted on its data ({command})"
    )
    assert edited.startswith("The what-if with bot apprentice was played by an apprentice fitted on other data")
    assert "merchant_cards.csv" in edited and SEARCH_SKILL in edited
    plain = ValueDesign("century", ("M08",), (2,), ("apprentice",), num_games=40, seed=SEED)
    assert SEARCH_SKILL not in " ".join(card_value(plain, workers=1).skill), "a gift of a printed card: its fit covers"

    monkeypatch.setenv(R.CACHE_ENV, str(refit_cache))
    refitted = card_value(replace(design, refit=TINY), workers=1).skill
    assert refitted[0] == head and refitted[1] == printed and SEARCH_SKILL not in " ".join(refitted)
    assert refitted[2].startswith(
        "The what-if with bot apprentice was played by an apprentice refitted on its data (--refit-apprentice, cache"
    )
