"""Report section on setups: how much the setup decides, and which setup features stand out."""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from analysis import plots
from analysis.report.format import (
    NO_VARIANCE,
    fmt_ci,
    fmt_int,
    fmt_num,
    fmt_p,
    fmt_pct,
    fmt_pct_ci,
    fmt_players,
    is_number,
)
from analysis.report.model import GAMES_DIR, Section, Table, Text, Watch, game_page, make_figure
from analysis.report.provenance import replays_setups
from analysis.run import read_tables
from analysis.stats._util import format_pvalue
from analysis.stats.setups import (
    deal_decides,
    opening_decides,
    setup_balance,
    setup_components,
    setup_feature_effects,
    setup_variance,
)
from simulate.manifest import RunManifest

_TOP_SETUPS = 5

_TOP_FEATURES = 10


def _setup_descriptors(games: pd.DataFrame) -> pd.Series:
    """One text per setup, indexed by setup id: its opening display, 'family: values' for each descriptor family."""
    first = games.drop_duplicates("setup_id")
    families: dict[str, list[str]] = {}
    for column in first.columns:
        if column.startswith("setup_") and column not in ("setup_id", "setup_seed"):
            families.setdefault(re.sub(r"_\d+$", "", column), []).append(column)
    texts = [""] * len(first)
    for family, columns in families.items():
        name = family.removeprefix("setup_").replace("_", " ")
        values = [first[c].astype(object).to_numpy() for c in columns]
        for k, v in enumerate(zip(*values, strict=True)):
            shown = " ".join(str(x) for x in v if not pd.isna(x))
            texts[k] += ("; " if texts[k] else "") + f"{name}: {shown}"
    return pd.Series(texts, index=first["setup_id"].to_numpy())


def build_setup_section(
    seats: pd.DataFrame,
    manifests: Sequence[RunManifest],
    offsets: dict[str, int],
    alpha: float,
    unit: str = "points",
) -> Section | None:
    setup_runs = [m for m in manifests if replays_setups(m.design)]
    if not setup_runs:
        return None
    ids = {m.run_id for m in setup_runs}
    sub = seats.loc[
        seats["run_id"].isin(ids).to_numpy(), ["run_id", "game", "setup_id", "num_players", "seat", "score", "win"]
    ]
    setup_columns = sorted({c for m in setup_runs for c in m.columns.setup})
    games = read_tables(
        setup_runs, "games", ["game", "setup_id", *setup_columns], [offsets[m.run_id] for m in setup_runs]
    )
    section = Section("Setup variance")
    section.items.append(
        Text(
            "Runs that replay each setup several times (seats rotated between replays) show how much the "
            "opening deal decides. A one-way random-effects ANOVA over setups splits each seat's outcome into "
            "between- and within-setup variance; the intraclass correlation (ICC) is the share the setup "
            f"decides, with its exact F interval. Outcomes: the score margin ({unit} over the other seats' mean) "
            "and the win minus the fair share."
        )
    )
    with warnings.catch_warnings():  # identical replays (deterministic bots) are said in words below
        warnings.simplefilter("ignore", RuntimeWarning)
        var = setup_variance(sub, alpha=alpha)
    section.items.append(
        Table(
            [
                "players",
                "seat",
                "outcome",
                "setups",
                "games/setup",
                "ICC (setup)",
                "ICC interval",
                "players' own randomness",
                "setup SD",
                "p (F test)",
            ],
            [
                [
                    str(r.num_players),
                    str(r.seat),
                    r.outcome,
                    fmt_int(r.num_setups),
                    fmt_num(r.games_per_setup, 1),
                    "100% (replays identical)" if r.var_within < NO_VARIANCE else fmt_pct(r.icc, 1),
                    "—" if r.var_within < NO_VARIANCE else fmt_pct_ci(r.icc_low, r.icc_high, 1),
                    "0% (replays identical)" if r.var_within < NO_VARIANCE else fmt_pct(r.share_players, 1),
                    fmt_num(r.sd_between, 2) if r.outcome == "margin" else fmt_num(100 * r.sd_between, 2) + " pp",
                    "—" if r.var_within < NO_VARIANCE else fmt_p(r.pvalue),
                ]
                for r in var.itertuples()
            ],
            "Share of each seat's outcome variance decided by the setup (setup SD: the typical shift a setup "
            f"gives, in {unit} for margins and percentage points for wins).",
        )
    )
    balance = setup_balance(sub, seat=1, outcome="margin", alpha=alpha)
    decides: dict[int, str] = {}
    for n, part in var[(var["outcome"] == "margin") & (var["seat"] == 1)].groupby("num_players"):
        r = part.iloc[0]
        if r.var_within < NO_VARIANCE:
            ahead = balance.loc[balance["num_players"] == n, "advantage"].to_numpy()
            text = (
                f"In {n}-player games every replay of a setup produced the same result (no variance within "
                "setups): the bots play deterministically, so the setup and the seating fix the whole game and "
                "the ICC is 1 by construction; an ICC with an interval needs bots that randomise. Setups still "
                f"differ: across {int(r.num_setups):,} setups seat 1's score margin has a standard deviation of "
                f"{r.sd_between:.1f} {unit}, and seat 1 beats the other seats' mean in {np.mean(ahead > 0):.0%} of "
                f"them ({np.mean(ahead < 0):.0%} behind)."
            )
            decides[n] = (
                f"the setup and seating fix the whole game (the bots never vary a replay); seat 1's score margin "
                f"differs by about ±{r.sd_between:.1f} {unit} between setups"
            )
        elif is_number(r.pvalue) and r.pvalue < alpha:
            text = (
                f"In {n}-player games the setup decides {fmt_pct(r.icc)} ({fmt_pct_ci(r.icc_low, r.icc_high)}) of the "
                f"variance of seat 1's score margin and the players' own randomness (the same setup replayed with "
                f"other play seeds) the other {fmt_pct(r.share_players)}; a typical setup moves the margin by about "
                f"±{r.sd_between:.1f} {unit} (F test {format_pvalue(r.pvalue)}, {int(r.num_setups):,} setups)."
            )
            decides[n] = (
                f"{fmt_pct(r.icc)} ({fmt_pct_ci(r.icc_low, r.icc_high)}) of the spread of seat 1's score margin, the "
                f"players' own randomness the rest; a typical setup moves it by about ±{r.sd_between:.1f} {unit}"
            )
        else:
            text = (
                f"In {n}-player games no setup effect on seat 1's score margin was detected (ICC {fmt_pct(r.icc)}, "
                f"{fmt_pct_ci(r.icc_low, r.icc_high)}; F test {format_pvalue(r.pvalue)})."
            )
            decides[n] = f"no detectable share of seat 1's score margin (ICC {fmt_pct(r.icc)})"
        section.items.append(Text(text, "verdict"))
        section.findings.append(text)
    played = seats.loc[seats["run_id"].isin(ids).to_numpy()]
    who_played = _lineups(played)
    for item in _components_items(sub, setup_runs, offsets, alpha, unit, decides, who_played):
        section.items.append(item)
        if isinstance(item, Text) and item.kind == "verdict":
            section.findings.append(item.text)
    # per lineup (a skill rung in a mirror match): the deal's share is a fact about these players, not the game
    lineup = sub["game"].map(_game_lineups(played)).fillna("the runs' bots")
    dealt = [deal_decides(part, alpha).assign(lineup=label) for label, part in sub.groupby(lineup.to_numpy())]
    per_count = {}
    for frame in dealt:
        for n in frame["num_players"]:
            per_count[n] = per_count.get(n, 0) + 1
    for r in (row for frame in dealt for row in frame.itertuples()):  # the one number a designer asks for
        who = _players_words(r.lineup)
        fixed = _fixed_share(r.decided, r.decided_low, r.decided_high)
        text = (
            f"The deal fixes the winner of {fixed} of {r.num_players}-player games played by {who}: "
            f"two plays of the same setup with other play seeds crown the same seat {fmt_pct(r.agreement)} "
            f"({fmt_pct_ci(r.agreement_low, r.agreement_high)}) of the time, against {fmt_pct(r.chance)} if the deal "
            f"did not matter ({int(r.num_setups):,} setups, {r.replays:.1f} plays each). A deal that fixes its "
            "winner whatever the players draw counts whole; one that only tilts the odds counts about the tilt's "
            "square (at 2 players a 1 pp tilt counts 0.04%)."
        )
        section.items.append(Text(text, "verdict"))
        section.findings.append(text)
        if r.num_players in decides:
            among = f" ({r.lineup})" if per_count[r.num_players] > 1 else ""
            decides[r.num_players] += (
                f"; the deal fixes the winner of {_fixed_share(r.decided, r.decided_low)} of games{among}"
            )

    describe = _setup_descriptors(games)
    run_of = sub.drop_duplicates("setup_id").set_index("setup_id")["run_id"].astype(str)
    first_game = sub.groupby("setup_id")["game"].min()
    labels = {m.run_id: m.label for m in setup_runs}
    for n, part in balance.groupby("num_players", sort=True):
        for title, chosen in (
            ("Most balanced", part.nsmallest(_TOP_SETUPS, "imbalance")),
            ("Least balanced", part.nlargest(_TOP_SETUPS, "imbalance")),
        ):
            rows = []
            for r in chosen.itertuples():
                rid = run_of.get(r.setup_id, "")
                local = int(r.setup_id) - offsets.get(rid, 0)
                rows.append(
                    [
                        labels.get(rid, rid),
                        str(local),
                        str(int(first_game.get(r.setup_id, -1)) - offsets.get(rid, 0)),
                        fmt_int(r.num_games),
                        fmt_num(r.advantage, 2, True),
                        "exact (replays identical)"
                        if abs(r.ci_high - r.ci_low) < NO_VARIANCE
                        else fmt_ci(r.ci_low, r.ci_high, 2, True),
                        fmt_num(r.shrunk, 2, True),
                        str(describe.get(r.setup_id, "")),
                    ]
                )
            section.items.append(
                Table(
                    ["run", "setup", "first game", "games", "seat 1 margin", "interval", "shrunk", "opening display"],
                    rows,
                    f"{title} setups, {fmt_players(n)} (replay one with 'golem replay RUN --game FIRST_GAME', or watch "
                    "it decision by decision with 'golem replay RUN --game FIRST_GAME --html game.html'): seat 1's "
                    "mean score margin in the setup's games, and the "
                    "empirical-Bayes (shrunk) estimate that ranks them.",
                )
            )
        worst = part.nlargest(1, "imbalance").iloc[0]
        first = int(first_game.get(worst.setup_id, -1))
        if first >= 0:
            why = (
                f"Seat 1's mean score margin over its {fmt_int(worst.num_games)} plays is "
                f"{fmt_num(worst.advantage, 1, True)} {unit}, the least balanced of {fmt_int(len(part))} setups by "
                "the shrunk estimate; the page shows its first play."
            )
            title = f"the least balanced setup ({fmt_players(n)})"
            section.items.append(
                Watch(game_page(f"{GAMES_DIR}/least-balanced-setup-{n}p.html", title, why, first, setup_runs, offsets))
            )
        section.items.append(
            make_figure(
                f"setup-caterpillar-{n}p.png",
                f"Seat 1's score margin by setup, {n}-player games, sorted, with intervals.",
                [lambda ax, n=n: plots.plot_setup_caterpillar(balance, ax=ax, num_players=n)],
                size=(8, 4),
            )
        )
    try:
        effects = setup_feature_effects(sub, games, seat=1, outcome="margin", alpha=alpha, correction="holm")
    except ValueError as e:
        section.items.append(Text(f"Setup features were not analysed: {e}."))
        section.answers.append(_setup_answer(decides, {}, who_played))
        return section
    stands_out: dict[int, str] = {}
    for n, part in effects.groupby("num_players", sort=True):
        num_sig = int(part["significant"].sum())
        shown = part.sort_values(["significant", "pvalue"], ascending=[False, True]).head(_TOP_FEATURES)
        if num_sig:
            top = (
                part[part["significant"]]
                .reindex(part[part["significant"]]["effect"].abs().sort_values(ascending=False).index)
                .iloc[0]
            )
            text = (
                f"{num_sig} of {len(part)} opening-row features shift seat 1's score margin in {n}-player games "
                f"after Holm correction; the largest: {_feature_words(top)} ({top.effect:+.2f} {unit}, "
                f"{fmt_ci(top.ci_low, top.ci_high, 2, True)})."
            )
            stands_out[n] = (
                f"of the opening's cards and tiles, {_feature_words(top)} shifts it most ({top.effect:+.2f} {unit}, "
                f"{fmt_ci(top.ci_low, top.ci_high, 2, True)})"
            )
        else:
            text = (
                f"None of {len(part)} opening-row features shifts seat 1's score margin in {n}-player games "
                "detectably after Holm correction."
            )
            stands_out[n] = "no single card or tile of the opening shifts it detectably"
        section.items.append(Text(text, "verdict"))
        section.findings.append(text)
        section.items.append(
            Table(
                [
                    "feature",
                    "setups with",
                    "without",
                    f"effect ({unit})",
                    "adjusted interval",
                    "p (Holm)",
                    "significant",
                ],
                [
                    [
                        _feature_words(r),
                        fmt_int(r.num_setups_with),
                        fmt_int(r.num_setups_without),
                        fmt_num(r.effect, 2, True),
                        fmt_ci(r.ci_low, r.ci_high, 2, True),
                        fmt_p(r.pvalue_adj),
                        "yes" if r.significant else "no",
                    ]
                    for r in shown.itertuples()
                ],
                f"Setup features and seat 1's score margin, {fmt_players(n)}: "
                "setups holding the card in that opening row "
                "against setups without it, one value per setup (Welch t test); p-values Holm-adjusted, intervals "
                "adjusted to match (an interval excludes 0 exactly when the feature is significant).",
            )
        )
    section.answers.append(_setup_answer(decides, stands_out, who_played))
    return section


def _game_lineups(seats: pd.DataFrame) -> pd.Series:
    """Each game's lineup, indexed by game: its distinct bot labels, sorted, joined by ' + ' (one label: a mirror)."""
    if "bot" not in seats.columns or seats.empty:
        return pd.Series(dtype=object)
    return seats.groupby("game")["bot"].agg(lambda b: " + ".join(sorted(set(b.astype(str)))))


def _players_words(lineup: str) -> str:
    """'greedy at every seat, equally matched' for a mirror lineup, else 'a and b, not equally matched'."""
    if " + " not in lineup:
        return f"{lineup} at every seat, equally matched"
    return f"{lineup.replace(' + ', ' and ')}, not equally matched"


def _lineups(seats: pd.DataFrame) -> dict[int, str]:
    """Who played each player count's games, in words (:func:`_players_words`), or the lineups pooled."""
    lineup = _game_lineups(seats)
    if lineup.empty:
        return {}
    count = seats.drop_duplicates("game").set_index("game")["num_players"]
    kinds = lineup.groupby(count.reindex(lineup.index).to_numpy()).agg(lambda x: sorted(set(x)))
    return {
        int(n): _players_words(names[0]) if len(names) == 1 else f"{'; '.join(names)} (pooled)"
        for n, names in kinds.items()
    }


def _fixed_share(share: float, low: float, high: float | None = None) -> str:
    """'about 34% (31–37%)' of games whose winner the deal fixes, or 'no detectable share (at most 2%)' when the
    interval reaches 0: a share that could be nothing is not printed as a finding."""
    if is_number(low) and low <= 0:
        bound = f"at most {fmt_pct(high, 1)}" if high is not None and is_number(high) else "its interval reaches 0"
        return f"no detectable share ({bound})"
    if high is None:
        return f"about {fmt_pct(share, 0)}"
    return f"about {fmt_pct(share, 0)} ({fmt_pct_ci(low, high, 0)})"


def _opening_ids(sub: pd.DataFrame, manifests: Sequence[RunManifest], offsets: dict[str, int]) -> pd.Series:
    """Each game's opening id in a nested run (its setup id over the run's orders per opening, offset like the setup
    ids so they stay unique across runs); -1 in runs that deal every setup its own opening."""
    run = sub["run_id"].astype(str)
    orders = run.map({m.run_id: m.design.orders_per_opening for m in manifests}).astype(np.int64)
    offset = run.map(offsets).fillna(0).astype(np.int64)
    opening = (sub["setup_id"] - offset) // orders + offset
    return opening.where(orders > 1, -1).astype(np.int64)


def _components_items(
    sub: pd.DataFrame,
    manifests: Sequence[RunManifest],
    offsets: dict[str, int],
    alpha: float,
    unit: str,
    decides: dict[int, str],
    who_played: dict[int, str],
) -> list[Text | Table]:
    """The three-way split of nested runs (opening, hidden order, players) and the shares of games whose winner the
    opening and the hidden order fix; adds a clause per player count to ``decides``. Empty without a nested run."""
    nested = sub.assign(opening_id=_opening_ids(sub, manifests, offsets))
    nested = nested[nested["opening_id"].to_numpy() >= 0]
    if nested.empty:
        return []
    facts = next(m.report for m in manifests if m.design.orders_per_opening > 1)
    opening_words = facts.get("public_opening", "")
    hidden_words = facts.get("hidden_order", "") or "the rest of the setup"
    items: list[Text | Table] = [
        Text(
            "Nested runs deal each public opening over several hidden orders, each played several times with other "
            f"play seeds: the opening is {opening_words or 'nothing (every card is dealt face down)'}; the hidden "
            f"order is {hidden_words}. A balanced nested random-effects ANOVA (method of moments) splits each seat's "
            "outcome variance into the opening, the hidden order given the opening, and the players' own randomness "
            "given the whole setup, with percentile bootstrap intervals over openings."
        )
    ]
    parts = setup_components(nested, alpha=alpha)
    if parts.empty:
        return items
    items.append(
        Table(
            ["players", "seat", "outcome", "openings × orders × plays", "public opening", "hidden order", "players"],
            [
                [
                    str(r.num_players),
                    str(r.seat),
                    r.outcome,
                    f"{r.num_openings:,} × {r.orders_per_opening} × {r.plays_per_order}",
                    _share(r, "opening"),
                    _share(r, "order"),
                    "0% (replays identical)" if r.replays_identical else _share(r, "players"),
                ]
                for r in parts.itertuples()
            ],
            "Share of each seat's outcome variance decided by the public opening, by the hidden order and by the "
            f"players' own randomness (each estimate over the sum of the three, shown clipped to 0-100%), with "
            f"{1 - alpha:.0%} bootstrap intervals over openings.",
        )
    )
    alone = opening_decides(nested, alpha).set_index("num_players")
    for n, part in parts[(parts["outcome"] == "margin") & (parts["seat"] == 1)].groupby("num_players"):
        r = part.iloc[0]
        players = (
            "none (every replay of a setup was the same game: deterministic bots)"
            if r.replays_identical
            else _share(r, "players")
        )
        text = (
            f"In {n}-player games the public opening decides {_share(r, 'opening')} of the spread of seat 1's score "
            f"margin, the hidden order {_share(r, 'order')} and the players' own randomness {players} "
            f"({int(r.num_openings):,} openings × {r.orders_per_opening} orders × {r.plays_per_order} plays)."
        )
        if not opening_words:
            text += " The game has no public opening: its share measures nothing but chance."
        items.append(Text(text, "verdict"))
        if n in alone.index:
            a = alone.loc[n]
            who = who_played.get(int(n), "the runs' bots")
            opening = _fixed_share(a.decided, a.decided_low, a.decided_high)
            order = _fixed_share(a.order_decided, a.order_decided_low, a.order_decided_high)
            deal = _fixed_share(a.deal_decided, a.deal_decided_low, a.deal_decided_high)
            text = (
                f"In {n}-player games played by {who}, the public opening fixes the winner of "
                f"{opening} of games and the hidden order of {order} more; the whole deal, their sum, {deal}. Two "
                f"plays of the same opening over different hidden orders crown the same seat {fmt_pct(a.agreement)} "
                f"of the time, against {fmt_pct(a.chance)} if the opening did not matter."
            )
            items.append(Text(text, "verdict"))
            decides[n] = decides.get(n, "") + (
                f"; the public opening decides {fmt_pct(r.share_opening, 0)} of the margin's spread "
                f"and the hidden order {fmt_pct(r.share_order, 0)}, "
                f"and the opening fixes the winner of {_fixed_share(a.decided, a.decided_low)} of games"
            )
    return items


def _share(r: Any, component: str) -> str:
    """'41.2% (38.0–44.5%)': a component's share of the variance with its interval."""
    share = getattr(r, f"share_{component}")
    return (
        f"{fmt_pct(share)} ({fmt_pct_ci(getattr(r, f'share_{component}_low'), getattr(r, f'share_{component}_high'))})"
    )


def _feature_words(row: Any) -> str:
    """A setup feature as a designer reads it: 'P07 (point row)' for the value P07 of the family setup_point,
    'R10 (removed at setup)' for a card of setup_removed."""
    family = str(row.column).removeprefix("setup_").replace("_", " ")
    return f"{row.value} ({family} at setup)" if family == "removed" else f"{row.value} ({family})"


def _setup_answer(decides: dict[int, str], stands_out: dict[int, str], who: dict[int, str]) -> str:
    """The answer to "how much does the setup decide?" in plain words, one clause per player count, each with the
    players it was measured with (``who``, :func:`_lineups`): the share is a fact about these players."""
    parts = []
    for n in sorted(decides):
        players = who.get(n, "").removesuffix(", equally matched")
        part = f"{fmt_players(n)}{f', {players}' if players else ''}: {decides[n]}"
        if n in stands_out:
            part += f"; {stands_out[n]}"
        parts.append(part)
    return "How much the setup decides: " + "; ".join(parts) + "."
