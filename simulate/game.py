"""The small interface every game engine offers to the shared runner, CLI and analysis.

A game package (``simulate/games/<name>/``) exposes ``GAME``, an object with the attributes and
methods of :class:`Game`. Engines know rules only; seats, seeds and logging belong to the runner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import numpy as np


@dataclass(frozen=True)
class BotSpec:
    """A bot: its kernel id, a one-line description, and its named numeric parameters."""

    name: str
    bot_id: int
    description: str
    params: dict[str, tuple[float, str]] = field(default_factory=dict)  # name -> (default, help)
    limits: dict[str, tuple[float, float]] = field(default_factory=dict)  # name -> (lowest, highest) accepted
    whole: frozenset[str] = frozenset()  # parameters that count something (turns, samples, raises): whole numbers
    choices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Parameters set by name (``apprentice:style=engine``): name -> the names of the values 0, 1, ..."""


def bot_specs(
    bots: dict[str, tuple[int, str, dict[str, tuple[float, str]]]],
    limits: dict[str, tuple[float, float]],
    whole: frozenset[str] = frozenset(),
    choices: dict[str, tuple[str, ...]] | None = None,
) -> dict[str, BotSpec]:
    """A game's bots from its table (name -> id, description, parameters), its parameters' limits by name, the
    names of the parameters that take whole numbers and those of the parameters set by name (name -> the names of
    its values 0, 1, ...: whole numbers within their count)."""
    named = choices or {}
    return {
        name: BotSpec(
            name,
            bot_id,
            desc,
            dict(params),
            {k: (0.0, len(named[k]) - 1.0) if k in named else limits[k] for k in params},
            (whole | set(named)) & set(params),
            {k: named[k] for k in params if k in named},
        )
        for name, (bot_id, desc, params) in bots.items()
    }


@dataclass(frozen=True)
class RuleOption:
    """A rule option: its default, allowed values and what it decides."""

    name: str
    default: Any
    choices: tuple
    help: str


class Codes(NamedTuple):
    """A dictionary-encoded column: integer codes into ``categories`` (-1 = missing)."""

    codes: np.ndarray
    categories: tuple[str, ...]


class Lists(NamedTuple):
    """A list column: row i holds ``values[offsets[i]:offsets[i + 1]]`` (``offsets`` has one entry per row + 1)."""

    offsets: np.ndarray
    values: np.ndarray | Codes


class ChunkTables(NamedTuple):
    """Columns a game returns for a chunk of games; the runner adds the shared columns.

    ``games`` has one value per game, ``seats`` one per seat per game (game-major, then seat),
    ``components`` one per component acquired (with ``game`` as an offset into the chunk and
    ``seat`` 0-based). ``trajectories`` (asked for with ``play_chunk(..., trajectories=True)``, else None)
    holds one list per seat per game, as ``seats``: the seat's score at the end of every round
    (``simulate.gamekit.trajectory_lists``).
    """

    games: dict[str, np.ndarray | Codes | Lists]
    seats: dict[str, np.ndarray | Codes | Lists]
    components: dict[str, np.ndarray | Codes]
    trajectories: Lists | None = None


@dataclass(frozen=True)
class GamePlan:
    """Seeds and seats of a range of games (planned by the runner, written by the run format)."""

    game: np.ndarray  # int64 game indices
    setup_id: np.ndarray  # int64
    rotation: np.ndarray  # int8
    setup_seed: np.ndarray  # uint64
    play_seed: np.ndarray  # uint64
    seat_lineup: np.ndarray  # (G, n) lineup index per seat

    def lineup(self, num_players: int, bot_ids: np.ndarray, bot_params: np.ndarray) -> Lineup:
        """The planned games as one :class:`Lineup`: their seats and seeds, with the lineup's bots."""
        return Lineup(num_players, self.seat_lineup, bot_ids, bot_params, self.setup_seed, self.play_seed)


class Lineup(NamedTuple):
    """Who plays a batch of games: the seats' bots and each game's seeds, as one record.

    ``Game.play_chunk``, ``Game.replay`` and the replay page take it; it unpacks into the arguments every game's
    play functions take after the data, in this order (``play.trace_game(data, *lineup)``). Seat s of game g holds
    lineup entry ``seat_bot[g, s]`` (a single game: ``seat_bot[s]`` and one seed of each kind).
    """

    num_players: int
    seat_bot: np.ndarray  # (G, n) or (n,): index into bot_ids per seat
    bot_ids: np.ndarray  # (L,) bot ids
    bot_params: np.ndarray  # (L, P) parameter vectors
    setup_seeds: Any  # (G,) uint64, or one seed: the deal
    play_seeds: Any  # (G,) uint64, or one seed: the bots' randomness

    def game(self, g: int) -> Lineup:
        """The lineup of game ``g`` alone: its seats' row and its two seeds."""
        seats = np.asarray(self.seat_bot).reshape(len(self.setup_seeds), self.num_players)
        return self._replace(seat_bot=seats[g], setup_seeds=self.setup_seeds[g], play_seeds=self.play_seeds[g])

    def replayed(self, g: int) -> Lineup:
        """Game ``g`` alone as ``Game.replay`` takes it: its seeds as Python integers."""
        one = self.game(g)
        return one._replace(setup_seeds=int(one.setup_seeds), play_seeds=int(one.play_seeds))

    def part(self, start: int, stop: int) -> Lineup:
        """Games ``start`` to ``stop`` (excluded) of the batch."""
        seats = np.asarray(self.seat_bot).reshape(len(self.setup_seeds), self.num_players)
        setup, play = np.asarray(self.setup_seeds), np.asarray(self.play_seeds)
        return self._replace(seat_bot=seats[start:stop], setup_seeds=setup[start:stop], play_seeds=play[start:stop])

    @classmethod
    def in_order(
        cls, num_players: int, bot_ids: np.ndarray, bot_params: np.ndarray, setup_seeds: Any, play_seeds: Any
    ) -> Lineup:
        """Seat s of every game holds lineup entry s (one seed of each kind: one game)."""
        seats = np.arange(num_players)
        if np.ndim(setup_seeds):
            seats = np.tile(seats, (len(setup_seeds), 1))
        return cls(num_players, seats, bot_ids, bot_params, setup_seeds, play_seeds)


class Positions(NamedTuple):
    """Positions of a batch of games, as an apprentice sees them, and how the games ended (``ApprenticeSpec``).

    Row i is the position after a decision seen from seat ``seat[i]`` of game ``game[i]`` (an index into the
    batch): ``x[i]`` its features. ``win[g, s]`` is seat s's share of game g's win (1, 0, or a share of a tie).
    ``ended[g]`` is False for a game the rules did not end (the turn cap): the trainer counts it as won by no seat,
    so no position learns that a stall pays; None when the game does not say.
    """

    x: np.ndarray  # float32 (N, F)
    game: np.ndarray  # int64 (N,)
    seat: np.ndarray  # int8 (N,)
    win: np.ndarray  # float64 (G, num_players)
    ended: np.ndarray | None = None  # bool (G,)


class Choices(NamedTuple):
    """A bot's decisions in a batch of games, as an apprentice would weigh them (``ApprenticeSpec.choices``).

    Row i is one candidate move of decision ``decision[i]`` (decisions numbered from 0 over the batch, their rows
    contiguous): ``x[i]`` the features of the position the move leads to, from the mover's view; ``chosen[i]`` True
    for the move the bot played (one per decision); ``game[i]`` the game (an index into the batch); ``share[i]`` the
    bot's preference for the move, summing to 1 over a decision (a search's root visit shares), or None (the chosen
    move alone).
    """

    x: np.ndarray  # float32 (N, F)
    decision: np.ndarray  # int64 (N,)
    chosen: np.ndarray  # bool (N,)
    game: np.ndarray  # int64 (N,)
    share: np.ndarray | None = None  # float32 (N,)


class ChoiceLog:
    """A batch's decisions, added one at a time as a game's ``choices`` meets them, then assembled as :class:`Choices`
    (decisions numbered in the order added). ``shares``: every decision comes with the bot's shares."""

    def __init__(self, num_features: int, shares: bool = False) -> None:
        self.num_features, self.shares = num_features, shares
        self._x: list[np.ndarray] = []
        self._chosen: list[np.ndarray] = []
        self._share: list[np.ndarray] = []
        self._game: list[int] = []

    def add(self, x: np.ndarray, chosen: np.ndarray, game: int, share: np.ndarray | None = None) -> None:
        """One decision of game ``game``: its candidates' features ``x`` (rows copied), which of them the bot played
        and, with ``shares``, the bot's share of each."""
        self._x.append(np.array(x, np.float32))
        self._chosen.append(np.array(chosen, bool))
        self._game.append(game)
        if self.shares:
            self._share.append(np.array(share, np.float32))

    def choices(self) -> Choices:
        """The decisions added so far."""
        sizes = np.array([len(c) for c in self._chosen], np.int64)
        decision = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
        game = np.repeat(np.array(self._game, np.int64), sizes)
        if self._x:
            x, chosen = np.concatenate(self._x), np.concatenate(self._chosen)
        else:
            x, chosen = np.zeros((0, self.num_features), np.float32), np.zeros(0, bool)
        share = (np.concatenate(self._share) if self._share else np.zeros(0, np.float32)) if self.shares else None
        return Choices(x, decision, chosen, game, share)


@dataclass(frozen=True)
class PlantedEdit:
    """One card edited in a copy of the game's data, and which way its take should move."""

    name: str
    """Short label: ``stronger``, ``useless``, ``cost cut``, ``cost raised``."""
    card: str
    """The component id whose take is measured (``M08``)."""
    settings: tuple[tuple[str, str], ...]
    """(value path of :mod:`simulate.variants`, new value) pairs: ``(("merchant_cards.M08.output", "MMMM"),)``."""
    direction: int
    """+1: the edited card should be taken more often than the printed one; -1: less often."""
    margin: float = 0.1
    """The least move of the take (a share of games) that counts as seeing the edit."""
    use: str | None = None
    """Count only the takes of this use (a category of the components table's ``use``: ``summon``, a Golems Golem
    card summoned, not taken as a resource, which its requirement does not price); None: every take."""
    rounds: int | None = None
    """The last round (0-based) whose takes count, for this edit (a summon comes late); None: the spec's."""
    games: int | None = None
    """Games per lineup and arm for this edit alone (a take that starts near the floor needs more games to move by the
    margin); None: the spec's ``games``."""
    recorded: tuple[str, ...] = ()
    """Players of ``AdaptationSpec.players`` whose take of this edit is measured but not asserted (a player that sees
    the other edits but misses this one): ``benchmarks/adaptation.py`` prints it."""


@dataclass(frozen=True)
class AdaptationSpec:
    """What a game's adaptation check (``simulate.adaptation``) plays: strong players, their rival, edits, games."""

    players: tuple[str, ...]
    """Bot specs of the strong players whose take is measured (``search``, ``apprentice``)."""
    rival: str
    """The strongest heuristic bot, the other seats of each match (``planner``)."""
    edits: tuple[PlantedEdit, ...]
    recorded: tuple[str, ...] = ()
    """Strong players measured beside ``players`` but not asserted (they miss an edit):
    ``benchmarks/adaptation.py`` prints their figures."""
    num_players: int = 2
    games: int = 40
    """Games per lineup and arm (printed, edited), all with the card in the opening (an edit's own ``games`` first)."""
    rounds: int = 3
    """An acquisition counts in the first ``rounds + 1`` rounds (round indices 0..rounds)."""
    seed: int = 43
    opening: Callable[[Any, int, int], frozenset[str]] | None = None
    """``opening(data, num_players, setup_seed)``: the component ids a game's opening shows, for a market that no
    setup column names (Golem's Library); None: the game's ``setup_columns``."""

    def asserted(self, edit: PlantedEdit) -> tuple[str, ...]:
        """The players whose take of ``edit`` the check asserts: ``players`` but the edit's ``recorded``."""
        return tuple(p for p in self.players if p not in edit.recorded)


@dataclass(frozen=True)
class ApprenticeSpec:
    """A game's learned player: its features and how ``golem train`` fits it (``simulate.orchestration.training``).

    ``positions(data, num_players, seat_lineup, lineup_ids, lineup_params, setup_seeds, play_seeds)`` plays one
    game per seed pair, as ``Game.play_chunk`` does, and returns its :class:`Positions`: after every decision, the
    features of the position from every seat's view.
    """

    features: tuple[str, ...]
    player_counts: tuple[int, ...]
    """Player counts with a column of weights (``apprentice.csv``) and training games of their own."""
    positions: Callable[..., Positions]
    rival: str
    """The strongest heuristic bot: each iteration's strength checks play the apprentice against it and against the
    ``teacher``."""
    teacher: str = "search"
    """The lineup whose games the first fit learns from (one bot for every seat)."""
    expert: str = "search:leaf=1"
    """The search with the apprentice inside: the teacher of every later iteration (expert iteration)."""
    games: int = 1000
    """Teacher games per player count and iteration (``golem train --games``)."""
    student: str = "apprentice:temperature=0.1"
    """The apprentice as it plays the rival in every iteration after the first (its own positions)."""
    student_share: float = 1.0
    """Student games per teacher game."""
    student_mirrors: float = 0.5
    """The share of the student games where the apprentice holds every seat (its own mirror games, where a stall
    shows); the rest put it in one seat against the rival."""
    regularization: float = 1.0
    """The fit's inverse L2 penalty on the standardised features (scikit-learn's ``C``): smaller is smoother."""
    iterations: int = 3
    strength_games: int = 400
    """Games of each of an iteration's strength checks, against the ``rival`` and against the ``teacher`` (rotated
    seats, at the smallest of ``player_counts``)."""
    choices: Callable[..., Choices] | None = None
    """``choices(data, num_players, seat_lineup, lineup_ids, lineup_params, setup_seeds, play_seeds)`` plays one
    game per seed pair and returns the :class:`Choices` of its bots. Given, the training ends with a policy stage:
    the weights of ``policy_counts`` are refitted to the ``teacher``'s choices (a conditional logit over the
    afterstates of each decision's candidate moves), so the apprentice ranks its moves as the search does."""
    policy_counts: tuple[int, ...] = ()
    """Player counts whose weights the policy stage refits (the others keep the value fit)."""
    value_file: str | None = None
    """A data file holding the value fit of ``policy_counts`` (their play weights being a policy), which the search's
    leaf reads (``search:leaf``) and any look-ahead of the apprentice: ``golem train`` writes it beside the weights, and
    in every data copy of a training it holds the value weights the apprentice plays then."""


@dataclass(frozen=True)
class EquilibriumSpec:
    """A game's equilibrium player: the policy table ``golem train`` fits by Monte Carlo CFR (``simulate.cfr``).

    ``functions`` are the game as ``simulate.cfr.iterate`` and ``simulate.cfr.play`` take it (deal, to_act, row, legal,
    step, utility) and ``explore`` the traversal's bound; ``new_stack()`` the states they walk and ``kernel(data)`` the
    tables they read. A payoff is in units of ``unit(data)`` of the game's score (golem-poker: antes of chips).
    ``load(folder, rules)`` reads the data the training plays (without the shipped table it refits, which may be of
    another ``version`` of the abstraction).
    """

    functions: tuple[Callable[..., Any], ...]
    explore: Callable[..., Any]
    new_stack: Callable[[], np.ndarray]
    kernel: Callable[[Any], np.ndarray]
    unit: Callable[[Any], float]
    player_counts: tuple[int, ...]
    rows: int
    """Information sets of each player count's table."""
    actions: tuple[str, ...]
    policy_text: Callable[[np.ndarray], str]
    """The file's text of a table (len(player_counts), rows, len(actions))."""
    policy_file: str
    provenance_file: str
    bot: str
    """The bot that plays the table."""
    missing: tuple[float, ...]
    """The weights the bot plays in an information set its table does not list (normalised over the legal actions)."""
    version: int
    """The abstraction's version, recorded in the provenance file (``abstraction_version``): a game refuses a table
    trained on another."""
    load: Callable[[Path, dict[str, Any]], Any]
    read_policy: Callable[[Path], np.ndarray]
    """The table of a policy file, as ``policy_text`` writes it (``golem train -p`` keeps the other counts' rows)."""
    rivals: tuple[tuple[float, ...], ...] = ()
    """Fixed rivals the training meets (``simulate.cfr.iterate``): each one's action weights, the same everywhere."""
    table_rivals: tuple[tuple[str, Callable[[], np.ndarray]], ...] = ()
    """Fixed rivals that play by information set, each (name, builder of its (rows, actions) weights): met like
    ``rivals`` (the rival of a traversal is drawn uniformly from both)."""
    rival_legal: Callable[..., Any] | None = None
    """The rivals' legal actions, as ``legal`` of ``functions`` (which they are when None): wider where a rival plays a
    move the learners' abstraction does not offer."""
    rival_share: float = 0.0
    """The chance that a traversal is played against a table of one rival (drawn uniformly) rather than self-play."""
    iterations: int = 200_000
    """Iterations per player count (``golem train --iterations``): every player traverses once an iteration."""
    chunk: int = 10_000
    """Iterations per task (a progress step)."""
    response_iterations: int = 20_000
    """Iterations of each seat's best response against the table (the exploitability measure)."""
    response_games: int = 20_000
    """Games that measure each best response's gain (``golem train --games``)."""


@dataclass(frozen=True)
class ReplayPosition:
    """The shape of a game's replay position (``state``, docs/replay.md): what ``golem replay --state``, ``--json``
    and ``--html`` show after every decision, built by the game's ``public_state``.

    A state is ``{"board": {field: value}, "seats": [{"seat": k, "score": s, field: value}, ...]}``, one seat entry
    per seat numbered from 1; ``board`` and ``seat`` name the game's own fields, each present in every state.
    """

    board: tuple[str, ...]
    """The board's fields (empty: a position of seats alone, ``"board": {}``)."""
    seat: tuple[str, ...]
    """Each seat's fields besides ``seat`` and ``score``."""
    solo_board: tuple[str, ...] = ()
    """Board fields of a solo game only (the automated opponent's), on top of ``board``."""
    without_state: tuple[str, ...] = ()
    """Replay events with no position of their own (Golem's ``automa``, golem-poker's ``showdown``): the page shows
    each as an automatic step of the position before it. Every other event of a replay with states carries one."""

    def problems(self, state: Any, num_players: int) -> list[str]:
        """What ``state`` breaks of this shape, one line each (none: it fits)."""
        if not isinstance(state, dict) or set(state) != {"board", "seats"}:
            keys = sorted(state) if isinstance(state, dict) else type(state).__name__
            return [f"a state is {{'board': {{...}}, 'seats': [...]}}, this one has {keys}"]
        out = []
        board = {*self.board, *(self.solo_board if num_players == 1 else ())}
        if not isinstance(state["board"], dict) or set(state["board"]) != board:
            out.append(f"board fields {sorted(state['board'])} are not the declared {sorted(board)}")
        seats = state["seats"]
        if not isinstance(seats, list) or len(seats) != num_players:
            return [*out, f"seats is not a list of {num_players} seat entries"]
        declared = {"seat", "score", *self.seat}
        for k, entry in enumerate(seats):
            if not isinstance(entry, dict) or entry.get("seat") != k + 1 or set(entry) != declared:
                got = sorted(entry) if isinstance(entry, dict) else type(entry).__name__
                out.append(f"seat entry {k + 1} has {got}, declared seat, score and {sorted(self.seat)}")
                break
        return out


@dataclass(frozen=True)
class StudyRun:
    """One run of a study: lineup, player count and share of the study's games."""

    name: str
    """Directory name under the study's runs directory."""
    num_players: int
    bots: tuple[str, ...]
    """One bot for a mirror match, or one per seat (``name[:key=value...]``)."""
    share: float
    """Fraction of the study's games this run plays."""
    games_per_setup: int = 1
    """More than 1: a setup-variance design, each setup replayed this often with seats rotated."""
    orders_per_opening: int = 1
    """More than 1: each public opening dealt over this many hidden orders (setups), each replayed
    ``games_per_setup`` times: the nested design that splits setup variance into opening and hidden order."""
    purpose: str = ""
    rules: tuple[tuple[str, str], ...] = ()
    """Rule options this run changes, ``(name, value)`` pairs (on top of the study's own ``rules``)."""
    seed_group: str = ""
    """Runs of one non-empty group play the same games: the master seed of the group's first run (the arms of a
    paired value design)."""


@dataclass(frozen=True)
class Study:
    """A game's standard study."""

    game: str
    default_games: int
    runs: tuple[StudyRun, ...]
    description: str = ""
    ladder: tuple[tuple[str, float], ...] = ()
    """Skill-ladder rungs the study adds as mirror matches, ``(bot, share)`` at each of ``ladder_players``; a rung
    already played as a mirror match at that count is not played again. The game's ``skill_ladder`` orders them."""
    ladder_players: tuple[int, ...] = ()
    search_share: float = 0.0005
    """Share of each search rung: every rung of the game's ``skill_ladder`` whose bot is ``search`` (a budget such
    as ``search:iterations=25``) joins ``ladder`` with this share, so a game adds a search rung in one line, in
    its ``skill_ladder``."""
    search_precision: float = 0.02
    """After its runs and the round robin of its strong rungs, the study tops up each rung of strong play (the
    strongest rung and every rung not measurably weaker, ``studies.measured_strong``) at each ladder player count
    until every seat's win-rate interval reaches at most this far from its estimate (±2 pp)..."""
    cheap_precision: float = 0.01
    """...and the strongest cheap rung (the strongest non-search rung played as a mirror match at that count, e.g. the
    apprentice) until ±1 pp. A game scored in its ``score_unit`` (``outcome = "score"``) reads both in that unit
    (``studies.outcome_precision``: golem-poker's ±10 and ±5 chips a hand)."""
    precision_share: float = 0.002
    """The most games the top-ups of one rung at one player count may add, as a share of the study's games: the
    budget that keeps a sequential study finite (and, being a count of games, reproducible). 2,000 games at a
    1,000,000-game study: about what ±2 pp needs at 2-4 players; a game with fewer, dearer games (Golem) sets a
    larger share."""
    precision_rounds: int = 3
    """At most this many top-up rounds, each sized from the intervals the previous rounds reached."""
    skill_luck_share: float = 0.002
    """Share of the run of the ladder's two strongest cheap rungs (the two strongest non-search bots of the game's
    ``skill_ladder``) against each other, alternating around the table at the smallest ladder player count: the
    report's skill against luck between close players (``analysis.stats.ladder.skill_and_luck``)."""
    value_players: tuple[int, ...] = ()
    """Player counts of the card-value design (``simulate.orchestration.card_value``, docs/card-value.md): a baseline
    and one run per card group with one more copy of the card dealt at setup to one seat, all on the same games,
    played by the strongest non-search rung of the game's ``skill_ladder``."""
    value_share: float = 0.0
    """Games of each arm of the value design (the screen of every card), as a share of the study's games; these come
    on top of the study's runs."""
    value_min_games: int = 200
    """The fewest games an arm of the screen plays, at any study size (a card that decides games shows in 200 paired
    games; a smaller study still screens every card)."""
    value_confirm: int = 2
    """Cards the study confirms after the screen: those whose value stands out most (the largest effects on the
    holder's win share, detected ones first), played again at the strong rungs (:func:`confirm_runs`)."""
    value_confirm_games: tuple[tuple[str, int], ...] = ()
    """``(bot, games)``: the rungs that confirm the standout cards and the paired games an arm plays at each at the
    study's default size (scaled with the study's games, at least ``value_confirm_min``), on games of their own (e.g.
    more apprentice games and a few hundred of the search bot)."""
    value_confirm_min: int = 50
    """The fewest paired games an arm of the confirmation plays (a card that decides games shows in 50)."""
    strong_rungs: int = 2
    """How many of the strongest rungs of the game's ``skill_ladder`` play each other (with the apprentice, where the
    ladder has one) in the round robin that measures which is strongest (:func:`strong_rungs`)."""
    round_robin_share: float = 0.0003
    """Games of each pair of strong rungs at 2 players, and of each rotated table of them at the other ladder player
    counts, as a share of the study's games: 300 games at a 1,000,000-game study. These come on top of the runs."""
    round_robin_topup_share: float = 0.001
    """The most games the top-up of one pair of strong rungs may add (as a share of the study's games), played only
    where the pair's head-to-head interval still holds 50%."""
    styles_share: float = 0.0
    """Games of each pair of the apprentice's strategy styles (and the plain apprentice) at 2 players, and of each
    table of them at the other ``ladder_players`` (``golem styles -p N``'s tables), as a share of the study's games:
    the report's Strategies at strong play (is there a dominant strategy?, docs/apprentice.md); none for a game whose
    apprentice has no styles. These come on top of the runs."""
    exploit: tuple[int, int, int] = ()
    """The exploit search (a best response to the apprentice, ``simulate.orchestration.exploit``) a study whose
    apprentice has styles runs at 2 players and its ladder's player counts, ``(games a candidate, candidates,
    confirmation games)`` at the study's default size; the games scale with the study's games
    (``studies.exploit_design``). () for none."""


def rule_runs(
    prefix: str, players: int, bots: tuple[str, ...], share: float, options: tuple[tuple[str, str, str], ...]
) -> tuple[StudyRun, ...]:
    """One run per ``(name, option, value)``: the lineup under that rule option, compared with its default-rules run."""
    return tuple(
        StudyRun(f"{prefix}-{name}", players, bots, share, purpose=f"rule option {k}={v}", rules=((k, v),))
        for name, k, v in options
    )


@dataclass(frozen=True)
class GameInfo:
    """What a game is, declared once as data (OpenSpiel's ``GameType`` and ``GameInfo`` in one frozen record): its
    names and versions, players, bots, tables, report wording, replay position and standard study. A game's ``GAME``
    holds it as ``info``; ``simulate.conformance.check_game`` checks the facts against each other and against play.
    """

    name: str
    title: str
    version: int
    """Bumped whenever behaviour changes, recorded in every run."""
    min_players: int
    max_players: int
    description: str
    bots: dict[str, BotSpec]
    max_bot_params: int
    data_files: tuple[str, ...]
    """The files of the game's data folder (``seeds/<name>/``, packaged as ``simulate/seeds/<name>``)."""
    score_parts: tuple[str, ...]
    score_unit: str
    """What a seat's score counts (``"points"``, ``"chips"``): the report's wording."""
    setup_columns: tuple[str, ...]
    component_kinds: tuple[str, ...]
    bench_lineups: dict[str, int]
    """``golem bench``: lineups as for ``--bots`` -> default games per measurement."""
    bench_players: int
    """``golem bench``: player count."""
    default_bots: str
    """``--bots`` when none is given: the recommended lineup (one bot fills every seat)."""
    position: ReplayPosition
    """The replay position's shape (``golem replay --state/--json/--html``)."""
    study: Study | None = None
    """The standard study ``golem study`` plays (``simulate.orchestration.studies``); None: none yet."""
    play_version: int | None = None
    """The earliest engine version whose play (rules and bots, all but the setup draw) this one's equals: a learned
    player fitted on any version from it on still fits (None: ``version``)."""
    game_columns: tuple[str, ...] = ()
    """The game's own columns of the games table (recorded in the manifest)."""
    seat_columns: tuple[str, ...] = ()
    """The game's own columns of the seats table."""
    indexed_lists: Mapping[str, tuple[str, int]] = field(default_factory=dict)
    """game.toml list -> ("seat", 1) or ("players", first count)."""
    round_word: str = "round"
    """What the games table's ``rounds`` count, in the report's words (golem-poker's are deals)."""
    turn_order_column: str | None = None
    """A seats column holding each seat's place in the turn order (1 = first), for a game that draws the turn order
    at setup; None: the table seat is the turn order."""
    report_metrics: Mapping[str, tuple] = field(default_factory=dict)
    """Game-specific measures over the games table: name -> (expression, meaning[, per])."""
    design_measures: tuple[str, ...] = ()
    """The ``report_metrics`` the report's summary leads with."""
    chunk_size: int | None = None
    """Games per chunk when ``--chunk-size`` is not given (None: the runner's default): a slow game takes smaller
    chunks so that a run's chunks spread evenly over the workers."""
    profile_columns: tuple[str, ...] = ()
    """Seats columns counting how often a seat used each of the game's mechanisms: the report's play profile."""
    profile_forced: tuple[str, ...] = ()
    """Those of ``profile_columns`` that count what a player does only when forced or as a penalty: never flagged
    as unused."""
    skill_ladder: tuple[str, ...] = ()
    """Bot names from weakest to strongest: the standard study plays a mirror match at each rung."""
    bot_names: Mapping[str, str] = field(default_factory=dict)
    """Bot specs (``name[:key=value...]``) -> what a designer calls that player, e.g. ``"search:leaf=1:iterations=80"``
    -> ``"expert search (apprentice inside, 80 iterations)"``: the words the report's first screen uses."""
    outcome: str = "win"
    """``"win"`` (the share of games won: the race games) or ``"score"`` (the seat's net score in ``score_unit``,
    e.g. golem-poker's net chips)."""
    outcome_precision: float | None = None
    """In score units: how close an answer's interval must come (like ±2 pp)."""
    public_opening: str = ""
    """What the game draws at setup from the setup seed's opening stream (``simulate.rng.opening_seed``), in words;
    empty: none (every card dealt face down)."""
    hidden_order: str = ""
    """What it draws from the hidden order's stream (``simulate.rng.order_seed``), in words."""
    apprentice: ApprenticeSpec | None = None
    """The learned player and how ``golem train`` fits it; None: none."""
    equilibrium: EquilibriumSpec | None = None
    """The policy table ``golem train`` fits by CFR (a game without apprentice)."""
    value_designs: Mapping[str, str] = field(default_factory=dict)
    """Component kinds with a causal value design (``golem value``, docs/card-value.md): kind -> the rule option
    that deals one seat one more copy of a component of that kind at setup."""
    value_reference: str | None = None
    """A plain component every value is also compared with (None: none)."""
    adaptation: AdaptationSpec | None = None
    """The planted card edits whose take the strong players must see (``simulate.adaptation``); None: none."""
    value_edits: Mapping[tuple[str, str], str] = field(default_factory=dict)
    """What-ifs of ``golem value --cost/--reward``: (component kind, ``cost`` or ``reward``) -> the settable value
    (``golem values``) it changes, ``{id}`` standing for each copy's id."""
    priced_kinds: tuple[str, ...] = ()
    """Kinds whose VP ``golem value --price`` fits against their printed cost."""
    price_unit: str = "unit of cost"
    """What that cost counts, in words ("crystal")."""
    measured_price: Mapping[str, str] = field(default_factory=dict)
    """Value for cost from measured values (``golem value --price`` plays them): the one kind whose printed price
    its value is fitted on, under ``kind``, and its component table's price columns -> the unit in words; empty:
    none."""

    def __post_init__(self) -> None:
        if self.play_version is None:
            object.__setattr__(self, "play_version", self.version)


class Game(Protocol):
    """What a game offers the shared layers: its declared record ``info`` and the methods below, which the game
    writes. ``simulate.gamekit.GameShell``, the base of every game's ``GAME``, derives the rest from them (its data
    folder and playing time, the replay page, the bench's replay timings); its facts are read from ``info`` alone
    (``game.info.min_players``)."""

    info: GameInfo
    """The game's declared facts, its replay position and its standard study."""

    def rule_options(self) -> dict[str, RuleOption]:
        """Rule options with their defaults from the shipped data."""
        ...

    def component_table(self, data: Any) -> list[dict[str, Any]] | None:
        """Each component's ``id``, ``kind``, ``text`` (what it does), ``same`` (the text identical copies share) and
        counts (docs/card-value.md); None: the game has no value design yet."""
        ...

    def load_data(self, folder: Path | None, rules: dict[str, Any]) -> Any:
        """Load and validate definition data; raise ``DataError`` naming file, row and column."""
        ...

    def describe_data(self, data: Any) -> dict[str, Any]:
        """Rules in force and data provenance (files and hashes, estimates used) for the manifest."""
        ...

    def play_chunk(
        self, data: Any, lineup: Lineup, threads: int = 1, check_moves: bool = False, trajectories: bool = False
    ) -> ChunkTables:
        """Play one game per seed pair of ``lineup``; seat s of game g is lineup entry ``lineup.seat_bot[g, s]``.

        ``check_moves`` (``--strict`` runs) checks every move's legality, ending a game with an illegal
        move as ``illegal_move``, in a game whose runs otherwise trust their bots for speed; a legal
        game plays the same either way, and a game that always checks ignores it. ``trajectories`` also
        records every seat's score at the end of every round (``ChunkTables.trajectories``); the games
        play the same either way.
        """
        ...

    def replay(self, data: Any, lineup: Lineup, labels: list[str], states: bool = False) -> list[dict[str, Any]]:
        """The events of the one game of ``lineup`` (``Lineup.replayed``), re-simulated: a setup event, one per move,
        and a result event; ``labels`` name the seats' bots.

        With ``states`` the setup, move and result events (and a game's own table events) carry ``state``, the
        public position after them from the reference engine's ``public_state`` (docs/replay.md).
        """
        ...

    def format_event(self, event: dict[str, Any]) -> str:
        """One event as readable text."""
        ...

    trace_game: Callable[..., tuple[np.ndarray, np.ndarray]]
    """``play.trace_game(data, *lineup)``: the one game of a lineup played by the kernel's bots, its move records and
    its final record (a batch of one)."""

    def new_reference(self, data: Any, num_players: int, setup_seed: int) -> Any:
        """The reference engine's game of ``setup_seed`` in its starting position (``apply_action`` takes the kernel's
        move records); its ``public_state`` builds the replay position (``GameInfo.position``)."""
        ...

    replay_moves: Callable[..., Any] | None
    """``play.replay_moves``: the numba engine applying recorded moves (``golem bench``); None: none."""
    decide_moves: Callable[..., Any] | None
    """``play.decide_moves`` for the no-peeking check at a position (``Twin.hidden_variant``); None: not needed."""

    def new_twin(self, data: Any, num_players: int, setup_seed: int, play_seed: int) -> Any:
        """The game of these seeds in the kernel and the reference engine at its start, stepped together by the
        conformance check (``simulate.gamekit.Twin``)."""
        ...

    def reference_random_seconds(
        self, data: Any, num_players: int, setup_seeds: np.ndarray, play_seeds: np.ndarray
    ) -> tuple[float, int] | None:
        """Seconds and moves of whole games the reference engine plays with a uniform random player; None: not
        measured."""
        ...

    def search_rates(self, data: Any, params: np.ndarray, num_positions: int, repeats: int) -> dict[str, float] | None:
        """One core's search rates for ``golem bench``; None: the game has no search bot."""
        ...
