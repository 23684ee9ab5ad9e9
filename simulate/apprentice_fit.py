"""Whether a run's learned player was fitted on the data the run plays: the record a run keeps, and its words.

An apprentice (and the search valuing its leaves with it, ``search:leaf=1``) plays what it learned from games of
the data it was fitted on; on other data it plays the edited game as it learned the printed one. Its provenance
(``apprentice.toml``, :mod:`simulate.orchestration.training`) records the SHA-256 of every data file the fit's
games were played on (``data_files``) and the rules in force (``rules``). The fit **covers** a run when every data
file the run plays (its ``data.files``, less the learned player's own weights and provenance) has the SHA-256 the
fit recorded and every rule option in force has the fitted value, the options of the game's value designs (the
extra printed card that ``golem value`` deals, ``gift``) aside. An edit to a file the run does not play (say
``playing_time.toml`` or a notes file) is covered. A fit with no provenance covers nothing that can be checked.

:func:`fit_record` is the record a run writes in its manifest (``apprentice_fit``) when its lineup plays a
learned player; :func:`manifest_fit` reads it back, deriving it from the data files and provenance a manifest
already holds for runs written before the record existed (data files only: their manifests do not say which
rule options are a value design's; a run that recorded no provenance gives none). :func:`fit_words` says it in
one sentence for a command's output, and :func:`fit_caution` for a report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "LEARNED_PREFIX",
    "SEARCH_SKILL",
    "STYLES_FILE",
    "fit_caution",
    "fit_record",
    "fit_words",
    "manifest_fit",
    "plays_learned",
]

LEARNED_PREFIX = "apprentice"
"""Data files named so are the learned player's own (weights, value fit, their provenance), not data it plays on."""
STYLES_FILE = "styles.toml"
"""The learned player's own too: its strategy styles, offsets on its weights (docs/apprentice.md)."""
SEARCH_SKILL = "holds at the skill of search only"
"""The words an answer measured with an apprentice fitted on other data carries (a report's "holds at" answers)."""


def plays_learned(lineup: Iterable[Mapping[str, Any]]) -> bool:
    """Whether a lineup (manifest entries: ``bot``, ``params``) plays a learned player: the apprentice, or a search
    valuing its leaves with the apprentice's weights (``leaf`` above 0)."""
    return any(e.get("bot") == "apprentice" or float(e.get("params", {}).get("leaf", 0.0)) > 0 for e in lineup)


def fit_record(
    fit: Mapping[str, Any],
    files: Mapping[str, str],
    rules: Mapping[str, Any] | None = None,
    design_options: Sequence[str] = (),
    base: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The fit's coverage of a run's data: ``fit`` (``apprentice.toml``'s ``[fit]``), ``files`` (the run's data files
    -> SHA-256), ``rules`` (in force; None: not compared), the rule options to leave aside (``design_options``) and
    ``base`` (the ``[base]`` fit whose weights a ``--policy-only`` or ``--players`` fit kept for the other player
    counts, with its own ``base`` nested where it was partial too: each must cover the data).

    Returns ``covers`` (bool), ``fitted`` (whether the weights have a provenance), ``command`` (the fit's),
    ``files_differ`` (files whose SHA-256 differs from the fit's), ``files_unrecorded`` (files the fit recorded no
    SHA-256 for) and ``rules_differ`` (option -> [fitted, in force]).
    """
    played = sorted(name for name in files if not (name.startswith(LEARNED_PREFIX) or name == STYLES_FILE))
    differ: list[str] = []
    unrecorded: list[str] = []
    rules_differ: dict[str, list[Any]] = {}
    parts = [fit] if fit else []
    while fit and base:  # a partial fit's base may have a base of its own (simulate.orchestration.training.base_record)
        parts.append(base)
        base = base.get("base")
    for part in parts:
        fitted_files = part.get("data_files", {}) or {}
        differ += [n for n in played if n in fitted_files and fitted_files[n] != files[n] and n not in differ]
        unrecorded += [n for n in played if n not in fitted_files and n not in unrecorded]
        fitted_rules = part.get("rules", {}) or {}
        for k, v in sorted((rules or {}).items()):
            if k in fitted_rules and k not in design_options and str(fitted_rules[k]) != str(v):
                rules_differ.setdefault(k, [fitted_rules[k], v])
    has_fit = bool(fit)
    return {
        "covers": has_fit and not (differ or unrecorded or rules_differ),
        "fitted": has_fit,
        "command": str(fit.get("command", "")),
        "files_differ": differ,
        "files_unrecorded": unrecorded,
        "rules_differ": rules_differ,
    }


def manifest_fit(m: Mapping[str, Any]) -> dict[str, Any] | None:
    """A run's :func:`fit_record` (its manifest's ``apprentice_fit``, or derived from the data files and provenance
    of a run written before it existed); None when the run plays no learned player."""
    if not plays_learned(m.get("lineup", [])):
        return None
    if isinstance(m.get("apprentice_fit"), dict):
        return dict(m["apprentice_fit"])
    data = m.get("data", {})
    if not data.get("apprentice"):  # an older run that recorded no provenance: nothing to tell
        return None
    return fit_record(data["apprentice"], data.get("files", {}) or {})


def _what_differs(record: Mapping[str, Any]) -> str:
    parts = []
    if record["files_differ"]:
        verb = " differs" if len(record["files_differ"]) == 1 else " differ"
        parts.append(", ".join(record["files_differ"]) + verb)
    if record["files_unrecorded"]:
        parts.append(", ".join(record["files_unrecorded"]) + " not recorded by the fit")
    if record["rules_differ"]:
        parts.append(
            "rules " + ", ".join(f"{k}={fit} (here: {now})" for k, (fit, now) in record["rules_differ"].items())
        )
    return "; ".join(parts)


def fit_words(record: Mapping[str, Any] | None, game: str, cards: str | None = None) -> str | None:
    """One sentence for a command's output: which apprentice plays, and what its fit means for the answer; None
    when no learned player plays. ``cards`` names the data folder played (for the command that refits)."""
    if record is None:
        return None
    folder = cards or "DIR"
    if record["covers"]:
        return f"apprentice: fitted on this data ({record['command']}); the answer holds at the apprentice's skill."
    if not record["fitted"]:
        where = "its weights have no provenance (apprentice.toml): what they were fitted on is unknown"
    else:
        where = f"fitted on other data ({_what_differs(record)}; by {record['command']})"
    return (
        f"apprentice {where}: it plays this data as it learned that, so the answer was measured with an apprentice "
        f"fitted on other data and {SEARCH_SKILL}; {_refit_hint(game, folder)}."
    )


def _refit_hint(game: str, folder: str) -> str:
    return (
        f"refit it on this data with 'golem train {game} --cards {folder}' (golem simulate, study, sweep, ablate, "
        "balance and value do it with --refit-apprentice)"
    )


def fit_caution(manifests: Sequence[Mapping[str, Any]], label: Callable[[Any], Any], noun: str = "run") -> str:
    """A report's caution about learned players fitted on other data than their runs played ('' when none is):
    ``label`` names a run from its manifest, ``noun`` says what a run stands for (a ``"variant"``)."""
    other = [(m, r) for m in manifests if (r := manifest_fit(m)) is not None and not r["covers"]]
    if not other:
        return ""
    names = ", ".join(str(label(m)) for m, _ in other)
    which = f"every {noun}" if len(other) == len(manifests) else f"{noun}{'s' if len(other) > 1 else ''} {names}"
    what = sorted({_what_differs(r) or "no provenance" for _, r in other})
    return (
        f"The apprentice playing {which} was fitted on other data ({'; '.join(what)}): it plays the edited game as it "
        "learned the other, so these answers were measured with an apprentice fitted on other data and "
        f"{SEARCH_SKILL.replace('holds', 'hold')}; {_refit_hint(str(other[0][0].get('game', 'GAME')), 'DIR')}."
    )
