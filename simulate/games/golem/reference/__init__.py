"""Golem (Cranio Creations 2021) reference engine: one game in plain Python.

The executable form of ``docs/golem.md`` and ``seeds/golem/RULINGS.md``, in OpenSpiel's ``State``
shape: :meth:`GolemReference.current_player`, :meth:`~GolemReference.legal_actions`,
:meth:`~GolemReference.apply_action`, :meth:`~GolemReference.is_terminal`, :meth:`~GolemReference.returns`.

Every decision is one integer action ``0..NUM_ACTIONS-1`` whose meaning depends on the pending
decision (``Decision``), e.g. in ``TURN`` action ``row * 5 + colour`` takes a marble. Compound rules
(an action with its options, an effect with sub-choices) are a stack of tasks: decisions for the
player and automatic steps (``X_*`` internal effects), each a fixed-size row of integers, so that the
state is fixed-size integer arrays and the numba port is mechanical. Chance (marble drops, shuffles)
draws from the engine's own SplitMix64 stream seeded from the setup seed's hidden order; bots never touch it.

This package's top holds the set-up, the OpenSpiel API, scoring and ``describe``; the rules are in the mixins
``reference.rounds``, ``reference.legality``, ``reference.decisions``, ``reference.effects``,
``reference.resources``, ``reference.golems`` and ``reference.developments`` (the sections of the kernel's
``engine`` modules); the codes (``Decision``, the action encoding, ``X_*``) are in ``codes.py``.
"""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

from typing import Any

import numpy as np

from simulate.games.golem.codes import *
from simulate.games.golem.data import *
from simulate.games.golem.reference.decisions import Decisions
from simulate.games.golem.reference.developments import Developments
from simulate.games.golem.reference.effects import Effects
from simulate.games.golem.reference.golems import Golems
from simulate.games.golem.reference.legality import Legality
from simulate.games.golem.reference.resources import Resources
from simulate.games.golem.reference.rounds import RoundDriver
from simulate.rng import opening_seed, order_seed


class Rng:
    """SplitMix64 as in ``simulate.rng`` (same outputs), in plain Python."""

    MASK = (1 << 64) - 1
    GOLDEN = 0x9E3779B97F4A7C15

    def __init__(self, seed: int) -> None:
        self.s = seed & self.MASK

    @staticmethod
    def mix(z: int) -> int:
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & Rng.MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & Rng.MASK
        return z ^ (z >> 31)

    def randint(self, n: int) -> int:
        self.s = (self.s + self.GOLDEN) & self.MASK
        return ((self.mix(self.s) >> 32) * n) >> 32

    def shuffle(self, a: list[int], n: int) -> None:
        self.shuffle_range(a, 0, n)

    def draw_front(self, a: list[int], n: int, k: int) -> None:
        """``simulate.rng.draw_front``: a uniform ordered sample of ``k`` of ``a[:n]`` into ``a[:k]``."""
        for j in range(min(k, n)):
            m = j + self.randint(n - j)
            a[j], a[m] = a[m], a[j]

    def shuffle_range(self, a: list[int], lo: int, hi: int) -> None:
        """``simulate.rng.shuffle_range``: Fisher-Yates shuffle of ``a[lo:hi]``."""
        for k in range(hi - 1, lo, -1):
            j = lo + self.randint(k - lo + 1)
            a[k], a[j] = a[j], a[k]


class GolemReference(RoundDriver, Legality, Decisions, Effects, Resources, Golems, Developments):
    """One game of Golem for ``num_players`` (1-4) from ``setup_seed``; the rule option ``gift`` deals to
    ``gift_seat``."""

    def __init__(self, data: GolemData, num_players: int, setup_seed: int, gift_seat: int = 0) -> None:
        if not 1 <= num_players <= 4:
            raise ValueError(f"Golem is for 1-4 players, not {num_players}")
        self.gift_seat = gift_seat  # the seat the rule option gift deals to (the lineup's first bot)
        t = data.tables
        self.d = data
        self.t = t
        self.p = data.params
        self.rules = data.rules
        self.n = num_players
        # the public opening from ``op``, the hidden order (and later chance) from ``rng``, as in the engine
        op = Rng(int(opening_seed(np.uint64(setup_seed))))
        rng = Rng(int(order_seed(np.uint64(setup_seed))))
        self.chance = Rng(Rng.mix(rng.s ^ 0x5EED))
        intro = data.rules["setup"] == "introductory"
        self._deal_opening(op, rng, intro)
        self._deal_automa(op, rng)
        self._reset_pieces()
        self._drop_all()
        self._deal_action_tiles()
        self._push_phase()
        self._advance()

    def _deal_opening(self, op: Rng, rng: Rng, intro: bool) -> None:
        """Palace, Neighbourhood, Library and decks, turn order, Starting tiles, Objectives, Artifact tiles offered."""
        data, t, n = self.d, self.t, self.n
        # Palace: 3 cards of the I-III deck, then 1 of the IV deck
        if intro:
            self.palace = list(data.intro["characters"])
        else:
            early = [c for c in range(len(t.ch_deck)) if t.ch_deck[c] == 0]
            late = [c for c in range(len(t.ch_deck)) if t.ch_deck[c] == 1]
            op.shuffle(early, len(early))
            op.shuffle(late, len(late))
            self.palace = early[:3] + late[:1]
        # Neighbourhood: 7 of 10 tiles per district in ascending number at sections tile_sections
        self.tiles = [[0] * NUM_TILES for _ in range(3)]
        self.section_tile = [[-1] * (NUM_SECTIONS + 1) for _ in range(3)]
        for dist in range(3):
            if intro:
                chosen = list(data.intro[DISTRICTS[dist]])
            else:
                pool = list(range(NUM_DISTRICT_TILES))
                op.shuffle(pool, NUM_DISTRICT_TILES)
                chosen = sorted(pool[:NUM_TILES])
            for k in range(NUM_TILES):
                self.tiles[dist][k] = chosen[k]
                self.section_tile[dist][self.p["tile_sections"][k]] = chosen[k]
        # Library and Book deck (a queue: the Library's leftmost card returns to the bottom)
        books = list(range(len(t.bk_colour)))
        op.draw_front(books, len(books), 5)
        rng.shuffle_range(books, 5, len(books))
        self.library = books[:5]
        self.book_deck = books[5:]
        # Action tiles
        self.at_deck = list(range(NUM_ACTION_TILES))
        op.draw_front(self.at_deck, NUM_ACTION_TILES, n + 1)
        rng.shuffle_range(self.at_deck, n + 1, NUM_ACTION_TILES)
        self.at_discard: list[int] = []
        self.at_slots = [-1] * 5
        # Objectives
        objs = list(range(len(t.ob_type)))
        rng.shuffle(objs, len(objs))
        self.ob_deck = objs
        # Turn order (seats are table positions; ``order`` the turn order)
        self.order = list(range(n))
        op.shuffle(self.order, n)
        # Starting tiles and Objective hands
        starts = list(range(len(t.start_tiles)))
        op.shuffle(starts, len(starts))
        dealt = data.intro["starting_tiles_dealt"] if intro else self.p["starting_tiles_dealt"]
        self.start_offer = [starts[s * dealt : (s + 1) * dealt] for s in range(n)]
        self.hands = [[self.ob_deck.pop(0) for _ in range(self.p["objectives_dealt"])] for _ in range(n)]
        # Artifact tiles: n tiles, random side up
        arts = list(range(4))
        op.shuffle(arts, 4)
        self.art_offer = [(arts[k], op.randint(2)) for k in range(n)]

    def _deal_automa(self, op: Rng, rng: Rng) -> None:
        """The solo Automa's deck, Strategy tile and place in the turn order, and its counters."""
        data, t, n = self.d, self.t, self.n
        # the solo Automa (an ESTIMATE, RULINGS R32-R36): its card order, Strategy tile, place in the turn order
        self.automa = n == 1 and data.rules["solo_opponent"] == "automa"
        self.au_deck = list(range(len(t.au_rows)))
        self.au_strategy = -1
        self.au_pos = -1
        if self.automa:
            rng.shuffle(self.au_deck, len(self.au_deck))
            self.au_strategy = op.randint(len(t.au_focus))
            self.au_pos = op.randint(n + 1)
        self.au_actions = 0
        self.au_slot = -1  # its Rabbi's Action tile this round
        self.au_eyes: list[int] = []  # marbles it took this round
        self.au_gauge = 0
        self.au_next = 0  # the next threshold
        self.au_laps = 0
        self.au_vp = [0, 0]  # VP of the Main Strategy tile and of the Strategy tile
        self.au_log: list[tuple[int, str]] = []  # the Automa's actions: (round, text), for replays

    def _reset_pieces(self) -> None:
        """Track sizes, marbles, every seat's pieces, tracks and counters, and the round driver at their start."""
        t, n = self.t, self.n
        # Sizes of the tracks and the Cemetery: their tables' numbers of spaces
        self.track_len = int(t.prm[P_GOLEM_TRACK_LEN])
        self.study_len = int(t.prm[P_STUDY_TRACK_LEN])
        self.cemetery_len = int(t.prm[P_CEMETERY_LEN])
        # Marbles of this player count
        self.marbles = list(self.p["marbles_1_2"] if n <= 2 else self.p[f"marbles_{n}"])
        # per seat
        self.res = [[0, 0, 0] for _ in range(n)]
        self.vp = [self.p["starting_vp"]] * n
        self.loose_gold = [0] * n
        self.student = [[1, 1, 1] for _ in range(n)]
        self.golem_loc = [[OFF_BOARD] * 6 for _ in range(n)]
        self.golem_sec = [[0] * 6 for _ in range(n)]
        self.standing = [[1] * 6 for _ in range(n)]
        self.fresh = [[0] * 6 for _ in range(n)]
        self.built = [0] * n
        self.killed = [0] * n
        self.track = [self.p["golem_track_start"]] * n
        self.study = [0] * n
        self.gdev = [[0] * 6 for _ in range(n)]
        self.sdev = [[0] * NUM_STUDY_DEVS for _ in range(n)]
        self.adev_space = [[-1] * 6 for _ in range(n)]  # small tiles: space 0..3; the largest: 0 once placed
        self.adev_side = [[0] * 6 for _ in range(n)]
        self.art_tile = [-1] * n
        self.art_side = [0] * n
        self.art_gold = [[0] * 4 for _ in range(n)]
        self.art_done = [[0] * 4 for _ in range(n)]
        self.col_colour = [[-1] * 4 for _ in range(n)]
        self.col_books = [[[] for _ in range(4)] for _ in range(n)]
        self.objectives: list[list[int]] = [[] for _ in range(n)]
        self.drafted: list[list[int]] = [[] for _ in range(n)]
        self.kept_starts: list[list[int]] = [[] for _ in range(n)]
        self.tokens = [-1, -1, -1]
        self.cemetery = [-1] * MAX_CEMETERY  # owner of each limited space (cemetery.csv's spaces, then unused)
        self.cemetery_count = [0] * n  # own golems in the Cemetery
        self.gold_supply = self.p["gold_supply"]
        self.eyes = [[] for _ in range(n)]
        self.syn = [[0] * 5 for _ in range(5)]  # marbles by row and colour
        self.marble_actions = [0] * n
        self.rabbi_done = [0] * n
        self.actions = [0] * n  # actions taken (or forfeited) this round
        self.pass_tile = [0] * n
        self.passes = [0] * n  # passes this round
        self.rabbi_slot = [-1] * n
        self.perm_queue: list[int] = []
        self.free_control = [0] * n
        self.stats = {k: [0] * n for k in STAT_NAMES}
        self.act_count = [[0] * len(ACT_NAMES) for _ in range(n)]
        self.round = 0
        self.moves = 0
        self.stack: list[list[int]] = []
        self.phase = PH_DRAFT
        self.cursor = 0
        self.pick = 0
        self.step_left = 0
        self.pass_stage = 0  # 0 main phase, 1 passing phase, 2 final passing phase
        self.drawn = [-1, -1]
        self.last_stepped = -1

    # ----------------------------------------------------------------- OpenSpiel State API

    def current_player(self) -> int:
        """Seat to move, or -4 (terminal)."""
        return -4 if self.phase == PH_END else self.stack[-1][1]

    def is_terminal(self) -> bool:
        return self.phase == PH_END

    def decision(self) -> int:
        """The pending ``Decision`` (0 when terminal)."""
        return 0 if self.phase == PH_END else self.stack[-1][0]

    def legal_actions(self) -> list[int]:
        """Legal action integers of the pending decision, ascending."""
        if self.phase == PH_END:
            return []
        return [a for a in range(NUM_ACTIONS) if self._legal(self.stack[-1], a)]

    def apply_action(self, action: int) -> None:
        """Resolve the pending decision with ``action`` (must be legal) and advance to the next one."""
        task = self.stack[-1]
        if not self._legal(task, action):
            raise ValueError(f"illegal action {action} for decision {Decision(task[0]).name}")
        self.stack.pop()
        self.moves += 1
        students = [list(x) for x in self.student]
        self._resolve(task, action)
        self._advance()
        self._count_profile(task, action, students)

    def _count_profile(self, task: list[int], a: int, students: list[list[int]]) -> None:
        """Play-profile stats of one move: a Gold bought by the Artifacts action (3 Coins), a Character bonus paid
        for, and the sections every seat's Students advanced (``students``: their positions before the move)."""
        kind, s = task[0], task[1]
        if kind == Decision.ARTIFACT_ACTION and a == AA_BUY_GOLD:
            self.stats["gold_bought"][s] += 1
        elif kind == Decision.CHARACTER and a == CHARACTER_PAY:
            self.stats["character_bonuses"][s] += 1
        for o in range(self.n):
            for d in range(3):
                self.stats["student_sections"][o] += max(0, self.student[o][d] - students[o][d])

    def returns(self) -> list[float]:
        """1 for the winner, 0 otherwise (ties broken by the final Rabbi order); zeros before the end."""
        return self.wins()

    def __str__(self) -> str:
        lines = [f"round {self.round + 1}, phase {self.phase}, order {self.order}"]
        for s in range(self.n):
            lines.append(
                f"seat {s}: vp {self.vp[s]} clay {self.res[s][0]} coin {self.res[s][1]} know {self.res[s][2]} "
                f"students {self.student[s]} golems {list(zip(self.golem_loc[s], self.golem_sec[s], strict=True))} "
                f"track {self.track[s]} study {self.study[s]}"
            )
        return "\n".join(lines)

    # ----------------------------------------------------------------- scoring

    def score_parts(self) -> list[list[int]]:
        """Per seat: vp (in game), golems, artifacts, books, study, objectives, objective_types, leftover."""
        out = []
        for s in range(self.n):
            red, yellow, blue = self.menorahs(s)
            columns = sum(1 for c in range(4) if self.col_books[s][c])
            met, types = self._objectives_met(s)
            type_vp = self.p["objective_type_vp"][min(len(types), 4)]
            left = sum(self.res[s]) + (self.loose_gold[s] if self.rules["leftover_gold"] == "included" else 0)
            out.append(
                [
                    self.vp[s],
                    self.built[s] * red,
                    sum(self.art_done[s]) * yellow,
                    columns * blue,
                    int(self.t.sd_vp[self.study[s]]),
                    sum(int(self.t.ob_vp[o]) for o in met),
                    type_vp,
                    left // self.p["leftover_per_vp"],
                ]
            )
        return out

    def scores(self) -> list[int]:
        return [sum(p) for p in self.score_parts()]

    def ranks(self) -> list[int]:
        """1-based ranks: score, then the uppermost Rabbi (the final turn order); solo: 2 if the Automa wins."""
        sc = self.scores()
        if self.automa:
            au = self.automa_score()
            return [1 if sc[0] > au or (sc[0] == au and self.au_pos > 0) else 2]
        key = sorted(range(self.n), key=lambda s: (-sc[s], self.order.index(s)))
        rank = [0] * self.n
        for k, s in enumerate(key):
            rank[s] = k + 1
        return rank

    def wins(self) -> list[float]:
        """Each seat's share of the win: 1 for rank 1 (ties are broken by the Rabbi, so there is one winner; solo: 1
        when the player beats the Automa), 0 for the others; zeros before the end."""
        if self.phase != PH_END:
            return [0.0] * self.n
        return [1.0 if r == 1 else 0.0 for r in self.ranks()]

    def automa_parts(self) -> list[int]:
        """The Automa's score: Main Strategy tile VP, Strategy tile VP, and what its Special Developments add."""
        t = self.t
        extra = 0
        for k in range(len(t.au_doubles)):
            if self.au_laps >= int(t.au_unlock[k]):
                extra += self.au_vp[int(t.au_doubles[k])]
        return [self.au_vp[0], self.au_vp[1], extra]

    def automa_score(self) -> int:
        return sum(self.automa_parts())

    def menorahs(self, s: int) -> tuple[int, int, int]:
        """Red, yellow and blue Menorahs of seat ``s`` (Development tiles and Menorah tokens)."""
        t = self.t
        red = sum(int(t.gdev_menorah[k]) for k in range(6) if self.gdev[s][k]) + (self.tokens[RED] == s)
        yellow = sum(int(t.adev_menorah[k]) for k in range(6) if self.adev_space[s][k] >= 0)
        yellow += self.tokens[YELLOW] == s
        blue = sum(int(t.sdev_menorah[k]) for k in range(NUM_STUDY_DEVS) if self.sdev[s][k]) + (self.tokens[BLUE] == s)
        return red, yellow, blue

    def gold_owned(self, s: int) -> int:
        return sum(self.art_gold[s]) + self.loose_gold[s]

    def devs_flipped(self, s: int) -> int:
        return sum(self.gdev[s]) + sum(self.sdev[s]) + sum(1 for k in range(6) if self.adev_space[s][k] >= 0)

    def _objectives_met(self, s: int) -> tuple[list[int], set[int]]:
        t = self.t
        met, types = [], set()
        for o in self.objectives[s]:
            kind, thr = int(t.ob_type[o]), int(t.ob_threshold[o])
            value = (
                self.student[s][RED],
                self.student[s][YELLOW],
                self.student[s][BLUE],
                self.built[s],
                self.gold_owned(s),
                self.devs_flipped(s),
                self.study[s],
                sum(len(c) for c in self.col_books[s]),
                self.killed[s],
            )[kind]
            if value >= thr:
                met.append(o)
                types.add(kind)
        return met, types

    # ----------------------------------------------------------------- describing actions

    def describe(self, action: int) -> str:  # noqa: C901 - one phrase per decision
        """The pending decision resolved by ``action``, as text."""
        task = self.stack[-1]
        kind = Decision(task[0])
        s = task[1]
        a = action
        D = Decision
        if kind == D.TURN:
            if a < MARBLE_OPTIONS:
                return f"marble {MARBLES[a % 5]} from {ROWS[a // 5]} (value {sum(self.syn[a // 5])})"
            if a < PASS_ACTION:
                slot = a - RABBI_BASE
                if slot == PERM_SLOT:
                    return "Rabbi on the permanent space"
                return f"Rabbi on action tile {self.d.action_ids[self.at_slots[slot]]}"
            return "pass"
        if kind in (D.UPGRADE, D.INCOME_UPGRADE):
            return "no upgrade" if a == UPGRADE_SKIP else f"upgrade {_dev_name(a)}"
        if kind == D.GOLEM_ACTION:
            return (
                "done"
                if a == GA_DONE
                else (f"upgrade {_dev_name(a)}" if a < GA_CREATE else f"create a Golem in {DISTRICTS[a - GA_CREATE]}")
            )
        if kind == D.ARTIFACT_ACTION:
            return {AA_BUY_GOLD: "buy a Gold", AA_DONE: "done"}.get(a) or f"upgrade {_dev_name(UP_ART + a)}"
        if kind == D.STUDY_ACTION:
            if a < STUDY_BUY:
                return f"upgrade {_dev_name(UP_STUDY + a)}"
            if a < STUDY_DONE:
                k = a - STUDY_BUY
                return f"buy Book {self.d.book_ids[self.library[k // 4]]} into column {k % 4 + 1}"
            return "done"
        if kind == D.BOOK:
            return (
                "no Book"
                if a == BOOK_SKIP
                else f"buy Book {self.d.book_ids[self.library[a // 4]]} into column {a % 4 + 1}"
            )
        if kind == D.MIRROR:
            return (*(f"mirror {ROWS[k]}" for k in range(NUM_ROW_OPTIONS)), "3 Coins: Study step", "done")[a]
        if kind in (D.MOVE_STEP, D.GOLEM_STEP):
            if kind == D.GOLEM_STEP and a == STEP_STOP:
                return "stop"
            g = a // 2 if kind == D.MOVE_STEP else a // 4
            back = kind == D.GOLEM_STEP and a % 4 >= 2
            where = f"{DISTRICTS[self.golem_loc[s][g]]} {self.golem_sec[s][g]}"
            return f"Golem {g + 1} ({where}) {'back' if back else 'forward'}" + (" paying Knowledge" if a % 2 else "")
        if kind in (D.ACTIVATE, D.KILL, D.COPY_TILE):
            verb = {D.ACTIVATE: "activate", D.KILL: "kill", D.COPY_TILE: "use the tile of"}[kind]
            if a == NUM_GOLEM_OPTIONS:
                return "stop" if kind == D.ACTIVATE else "none"
            return f"{verb} Golem {a + 1} ({DISTRICTS[self.golem_loc[s][a]]} {self.golem_sec[s][a]})"
        if kind in (D.CREATE, D.STUDENT, D.PLACE_GOLEMS, D.BLACK_MARBLE, D.STUDENT_BACK):
            if a == NUM_DISTRICT_OPTIONS:
                return "none"
            return {
                D.CREATE: "create a Golem in {}",
                D.STUDENT: "{} Student forward",
                D.PLACE_GOLEMS: "starting Golems outside {}",
                D.BLACK_MARBLE: "Students forward except {}",
                D.STUDENT_BACK: "{} Student back (black Book)",
            }[kind].format(DISTRICTS[a])
        if kind in (D.DRAFT, D.KEEP):
            cards = self.hands[s] if kind == D.DRAFT else self.drafted[s]
            return f"{'draft' if kind == D.DRAFT else 'discard'} Objective {self.d.objective_ids[cards[a]]}"
        if kind == D.ARTIFACT_TILE:
            tile, side = self.art_offer[a]
            return f"Artifact tile {tile + 1}{'AB'[side]}"
        if kind == D.START_TILES:
            return "Starting tiles " + " ".join(self.d.start_ids[self.start_offer[s][k]] for k in PAIRS[a])
        if kind == D.CHARACTER:
            return "pay for the Character's bonus" if a == CHARACTER_PAY else "take the Coins"
        if kind == D.CEMETERY_SPACE:
            return f"Cemetery space {a + 1}"
        if kind == D.TRACK:
            return ("Golem track up", "Golem track down", "track unchanged")[a]
        if kind == D.OBJECTIVE:
            return f"keep Objective {self.d.objective_ids[self.drawn[a]]}"
        if kind in (D.GOLD_PLACE, D.ARTIFACT_ACTIVATE):
            return (
                "none"
                if a == ART_ACTIVATE_SKIP
                else f"{'Gold onto' if kind == D.GOLD_PLACE else 'activate'} Artifact {a + 1}"
            )
        if kind == D.CHOICE:
            return f"take {task[3]} {('Clay', 'Coins', 'Knowledge')[a]}"
        if kind == D.CONFIRM:
            return f"{'accept' if a == CONFIRM_YES else 'decline'} {EFFECTS[task[2]]}"
        if kind == D.ANY_ACTION:
            return f"{ROWS[a]} action at value {task[3]}"
        if kind == D.REMOVE_MARBLE:
            return f"remove a {MARBLES[a % 5]} marble from {ROWS[a // 5]}"
        if kind == D.IGNORE_CHAR:
            return "ignore the Character's steps" if a else "use the Character's steps"
        if kind == D.WORK_COUNT:
            return f"pay for {a} Golem(s)"
        if kind == D.BOOK_BONUS:
            return (
                "stop"
                if a == BONUS_STOP
                else f"active bonus of Book {self.d.book_ids[self.col_books[s][a // 5][a % 5]]}"
            )
        return f"{kind.name.lower()} {a}"


def public_state(g: GolemReference) -> dict[str, Any]:
    """The public position of ``g`` as plain JSON values (docs/replay.md, replay state schema 1).

    Objectives in hand, the cards of the draft and the Starting tiles offered are hidden: counts only.
    """
    d = g.d
    where = {OFF_BOARD: "player board", CEMETERY: "cemetery"}
    final = g.scores() if g.is_terminal() else g.vp
    seats = [
        {
            "seat": s + 1,
            "score": final[s],
            "vp": g.vp[s],
            "clay": g.res[s][CLAY],
            "coins": g.res[s][COIN],
            "knowledge": g.res[s][KNOWLEDGE],
            "gold_aside": g.loose_gold[s],
            "students": dict(zip(DISTRICTS, g.student[s], strict=True)),
            "golems": [
                f"{DISTRICTS[loc]} {g.golem_sec[s][k]}{'' if g.standing[s][k] else ' lying'}"
                if 0 <= loc < 3
                else where[loc]
                for k, loc in enumerate(g.golem_loc[s])
            ],
            "golems_built": g.built[s],
            "golems_killed": g.killed[s],
            "golem_track": g.track[s],
            "study_track": g.study[s],
            "golem_developments": g.gdev[s][:],
            "study_developments": g.sdev[s][:],
            "artifact_developments": g.adev_space[s][:],
            "artifact_tile": f"{g.art_tile[s] + 1}{'AB'[g.art_side[s]]}" if g.art_tile[s] >= 0 else None,
            "artifact_gold": g.art_gold[s][:],
            "artifacts_done": g.art_done[s][:],
            "book_columns": [[d.book_ids[b] for b in col] for col in g.col_books[s]],
            "objectives": len(g.objectives[s]),
            "marbles": [MARBLES[c] for c in g.eyes[s]],
            "rabbi_tile": (None if g.rabbi_slot[s] < 0 else g.rabbi_slot[s] + 1),
            "pass_tile": g.pass_tile[s] or None,
            "actions_taken": g.actions[s],
        }
        for s in range(g.n)
    ]
    board = {
        "round": min(g.round, 3) + 1 if g.phase >= PH_MOVE else 0,
        "phase": PHASE_NAMES[g.phase],
        "turn_order": [s + 1 for s in g.order],
        "palace": [d.character_ids[c] for c in g.palace],
        "synagogue": {row: dict(zip(MARBLES, g.syn[r], strict=True)) for r, row in enumerate(ROWS)},
        "action_tiles": [d.action_ids[t] if t >= 0 else None for t in g.at_slots],
        "action_pile": len(g.at_deck),
        "action_discard": len(g.at_discard),
        "library": [d.book_ids[b] for b in g.library],
        "book_deck": len(g.book_deck),
        "objective_deck": len(g.ob_deck),
        "gold_supply": g.gold_supply,
        "menorah_tokens": {dist: (None if o < 0 else o + 1) for dist, o in zip(DISTRICTS, g.tokens, strict=True)},
        "cemetery": [None if o < 0 else o + 1 for o in g.cemetery[: g.cemetery_len - 1]],
        "neighbourhood": {
            dist: {str(sec): t + 1 for sec, t in enumerate(g.section_tile[k]) if t >= 0}
            for k, dist in enumerate(DISTRICTS)
        },
    }
    if g.automa:
        board["automa"] = {"gauge": g.au_gauge, "laps": g.au_laps, "vp": sum(g.au_vp)}
    return {"seats": seats, "board": board}


def _dev_name(opt: int) -> str:
    if opt < UP_STUDY:
        return f"golem development {opt + 1}"
    if opt < UP_ART:
        return f"study development {opt - UP_STUDY + 1}"
    if opt == UP_ART:
        return "largest artifact development"
    k = opt - UP_ART - 1
    return f"artifact development {k // 8 + 1} on artifact {(k // 2) % 4 + 1} side {'AB'[k % 2]}"
