"""Golem (Cranio Creations 2021) reference engine: one game in plain Python.

The executable form of ``docs/golem.md`` and ``seeds/golem/RULINGS.md``, in OpenSpiel's ``State``
shape: :meth:`GolemState.current_player`, :meth:`~GolemState.legal_actions`,
:meth:`~GolemState.apply_action`, :meth:`~GolemState.is_terminal`, :meth:`~GolemState.returns`.

Every decision is one integer action ``0..NUM_ACTIONS-1`` whose meaning depends on the pending
decision (``Decision``), e.g. in ``TURN`` action ``row * 5 + colour`` takes a marble. Compound rules
(an action with its options, an effect with sub-choices) are a stack of tasks: decisions for the
player and automatic steps (``X_*`` internal effects), each a fixed-size row of integers, so that the
state is fixed-size integer arrays and the numba port is mechanical. Chance (marble drops, shuffles)
draws from the engine's own SplitMix64 stream seeded from the setup seed's hidden order; bots never touch it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simulate.games.golem.codes import (
    AA_BUY_GOLD,
    AA_DONE,
    ACT_FORFEIT,
    ACT_NAMES,
    ACT_PASS,
    ACT_RABBI,
    ACTIVATE_STOP,
    ART_ACTIVATE_SKIP,
    ART_OPTIONS,
    AUTOMA,
    BONUS_STOP,
    BOOK_SKIP,
    CEMETERY,
    CHARACTER_COINS,
    CHARACTER_PAY,
    CONFIRM_NO,
    CONFIRM_YES,
    COPY_SKIP,
    CREATE_SKIP,
    GA_CREATE,
    GA_DONE,
    IGNORE_CHARACTER,
    KILL_SKIP,
    MARBLE_OPTIONS,
    MAX_STACK,
    MAX_WORK,
    MIRROR_DONE,
    MIRROR_STUDY,
    MOVE_STEP_OPTIONS,
    NUM_ACTIONS,
    NUM_ARTIFACT_OPTIONS,
    NUM_CHOICE_OPTIONS,
    NUM_DISTRICT_OPTIONS,
    NUM_DRAWN_OPTIONS,
    NUM_GOLEM_OPTIONS,
    NUM_ROW_OPTIONS,
    OFF_BOARD,
    PAIRS,
    PASS_ACTION,
    PERM_SLOT,
    PH_ACTIONS,
    PH_ARTIFACT,
    PH_DEV,
    PH_DRAFT,
    PH_END,
    PH_INFLUENCE,
    PH_KEEP,
    PH_MOVE,
    PH_PLACE,
    PH_START,
    PHASE_NAMES,
    RABBI_BASE,
    STAT_NAMES,
    STEP_STOP,
    STUDENT_SKIP,
    STUDY_BUY,
    STUDY_DONE,
    T_AUTO,
    TRACK_DOWN,
    TRACK_SKIP,
    TRACK_UP,
    UP_ART,
    UP_STUDY,
    UPGRADE_SKIP,
    X_ACTIVATE_ART,
    X_ACTIVATE_GOLEM,
    X_AFTER_BOOK,
    X_END_ACTION,
    X_GAIN,
    X_GOLD,
    X_GOLD_PIECE,
    X_KNOW_PER_LEVEL,
    X_OVERMOVE,
    X_REDROP,
    X_ROW_ACTION,
    X_STUDENT,
    X_TILE,
    X_VP_CEMETERY,
    X_VP_LEFTMOST,
    X_VP_PER_ARTIFACT,
    X_VP_PER_LEVEL,
    Decision,
)
from simulate.games.golem.data import (
    ARTIFACTS,
    BLACK,
    BLUE,
    BOOK_BLACK,
    CLAY,
    COIN,
    DISTRICTS,
    EFFECTS,
    GOLD,
    GOLEM_ROW,
    KNOWLEDGE,
    MARBLES,
    MAX_CEMETERY,
    MIRROR,
    NUM_ACTION_TILES,
    NUM_DISTRICT_TILES,
    NUM_ROUNDS,
    NUM_SECTIONS,
    NUM_STUDY_DEVS,
    NUM_TILES,
    P_CEMETERY_LEN,
    P_GOLEM_TRACK_LEN,
    P_STUDY_TRACK_LEN,
    RED,
    ROWS,
    STUDY,
    STUDY_ROW,
    VP,
    WHITE,
    WORK,
    YELLOW,
    E,
    GolemData,
)
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


class GolemState:
    """One game of Golem for ``num_players`` (1-4) from ``setup_seed``."""

    def __init__(self, data: GolemData, num_players: int, setup_seed: int) -> None:
        if not 1 <= num_players <= 4:
            raise ValueError(f"Golem is for 1-4 players, not {num_players}")
        t = data.tables
        self.d = data
        self.t = t
        self.p = data.params
        self.rules = data.rules
        n = self.n = num_players
        # the public opening from ``op``, the hidden order (and later chance) from ``rng``, as in the engine
        op = Rng(int(opening_seed(np.uint64(setup_seed))))
        rng = Rng(int(order_seed(np.uint64(setup_seed))))
        self.chance = Rng(Rng.mix(rng.s ^ 0x5EED))
        intro = data.rules["setup"] == "introductory"
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
        self._drop_all()
        self._deal_action_tiles()
        self._push_phase()
        self._advance()

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

    # ----------------------------------------------------------------- phase driver

    def _push(self, kind: int, seat: int, e: int = 0, a: int = 0, b: int = 0, c: int = 0, x: int = 0) -> None:
        if len(self.stack) >= MAX_STACK:
            raise RuntimeError("task stack overflow")
        self.stack.append([kind, seat, e, a, b, c, x])

    def _seq(self, seat: int, steps: list[tuple]) -> None:
        """Push tasks so that they run in the listed order: (kind, e, a, b, c, x)."""
        for st in reversed(steps):
            self._push(st[0], seat, *st[1:])

    @staticmethod
    def _auto(e: int, a: int = 0, b: int = 0, c: int = 0, x: int = 0) -> tuple:
        return (T_AUTO, e, a, b, c, x)

    def _advance(self) -> None:
        """Run automatic steps and phase changes until a decision is pending or the game is over."""
        while True:
            if self.stack:
                top = self.stack[-1]
                if top[0] != T_AUTO:
                    if self._has_legal(top):
                        return
                    self.stack.pop()  # a decision with no legal option is skipped
                    continue
                self.stack.pop()
                self._effect(top[1], top[2], top[3], top[4], top[5], top[6])
                continue
            if self.phase == PH_END:
                return
            self._next_phase()

    def _has_legal(self, task: list[int]) -> bool:
        return any(self._legal(task, a) for a in range(NUM_ACTIONS))

    def _push_phase(self) -> None:
        """Push the decisions of the current phase at ``cursor``."""
        n = self.n
        ph = self.phase
        if ph == PH_DRAFT:
            self._push(Decision.DRAFT, self.order[self.cursor])
        elif ph == PH_KEEP:
            self._push(Decision.KEEP, self.order[self.cursor])
        elif ph == PH_ARTIFACT:
            self._push(Decision.ARTIFACT_TILE, self.order[n - 1 - self.cursor])
        elif ph == PH_START:
            s = self.order[self.cursor]
            if len(self.start_offer[s]) <= self._kept_starts():
                for k in range(len(self.start_offer[s])):
                    self._take_start(s, self.start_offer[s][k])
            else:
                self._push(Decision.START_TILES, s)
        elif ph == PH_PLACE:
            self._push(Decision.PLACE_GOLEMS, self.order[self.cursor])
        elif ph == PH_MOVE:
            s = self.order[self.cursor]
            self.step_left = self._level(s) + int(self.t.ch_move[self.palace[self.round]])
            self._push(T_AUTO, s, X_OVERMOVE)  # the movement's end: the over-movement penalty
            self._push(Decision.MOVE_STEP, s)
            if self._has_gdev(s, E["ignore_character_steps"]):
                self._push(Decision.IGNORE_CHAR, s)
        elif ph == PH_INFLUENCE:
            s = self.order[self.cursor]
            if self._matches(s):
                self._push(Decision.CHARACTER, s)
        elif ph == PH_DEV:
            self._push(Decision.INCOME_UPGRADE, self.order[self.cursor], 0, 7)

    def _next_phase(self) -> None:
        """Advance the cursor or the phase when the stack is empty."""
        n = self.n
        ph = self.phase
        if ph == PH_ACTIONS:
            self._next_turn()
            return
        self.cursor += 1
        if ph == PH_DRAFT and self.cursor == n:
            self.cursor = 0
            self.pick += 1
            # hands pass to the left (the next seat)
            self.hands = [self.hands[(s - 1) % n] for s in range(n)]
            if self.pick == self.p["objectives_dealt"]:
                self.phase = PH_KEEP
        elif self.cursor == n and ph in (PH_KEEP, PH_ARTIFACT, PH_START, PH_PLACE, PH_MOVE, PH_INFLUENCE, PH_DEV):
            self.cursor = 0
            if ph == PH_PLACE:
                self.phase = PH_MOVE
            elif ph == PH_MOVE:
                self._start_actions()
                return
            elif ph == PH_INFLUENCE:
                self._income()
                self.phase = PH_DEV
            elif ph == PH_DEV:
                self._control()
                self._end_round()
                if self.phase == PH_END:
                    return
            else:
                self.phase += 1
        self._push_phase()

    def _kept_starts(self) -> int:
        return len(self.start_offer[0]) if self.rules["setup"] == "introductory" else self.p["starting_tiles_kept"]

    def _start_actions(self) -> None:
        self.phase = PH_ACTIONS
        self.pass_stage = 0
        self.cursor = -1
        self._next_turn()

    def _next_turn(self) -> None:
        """Give the turn to the next player who still acts in this stage of the Actions phase."""
        seq = self._stage_sequence()
        for i in range(len(seq)):  # round robin from the seat after the last to act
            k = (self.cursor + 1 + i) % len(seq)
            if self._acts_now(seq[k]):
                self.cursor = k
                self._begin_turn(seq[k])
                return
        if not self._open_passing_stage():
            self._end_actions()

    def _stage_sequence(self) -> list[int]:
        if self.pass_stage == 0:
            if self.automa:
                return self.order[: self.au_pos] + [AUTOMA] + self.order[self.au_pos :]
            return self.order
        return sorted((s for s in range(self.n) if self.pass_tile[s]), key=lambda s: self.pass_tile[s])

    def _acts_now(self, s: int) -> bool:
        if s == AUTOMA:
            return self.au_actions < 3
        if self.actions[s] >= 3:
            return False
        return self.passes[s] == self.pass_stage

    def _open_passing_stage(self) -> bool:
        """Start the (next) passing phase if a passed player still has actions; False if none."""
        waiting = [s for s in range(self.n) if self.actions[s] < 3 and self.passes[s] > self.pass_stage]
        if not waiting or self.pass_stage == 2:
            return False
        self.pass_stage += 1
        self.cursor = -1
        holder = [s for s in range(self.n) if self.pass_tile[s] == 1]
        if holder and sum(map(sum, self.syn)):
            self._push(T_AUTO, holder[0], X_REDROP)  # re-drop the remaining marbles afterwards
            self._push(Decision.REMOVE_MARBLE, holder[0])
        else:
            self._redrop()
        return True

    def _begin_turn(self, s: int) -> None:
        if s == AUTOMA:
            self._automa_turn()
            return
        if self._has_legal([Decision.TURN, s, 0, 0, 0, 0, 0]):
            self._push(Decision.TURN, s)
        else:
            # nothing to take and passing is over: the remaining marble actions are forfeited
            self.act_count[s][ACT_FORFEIT] += 3 - self.actions[s]
            self.actions[s] = 3

    def _end_actions(self) -> None:
        # Turn order: Rabbis on the tiles top to bottom, then the permanent space left to right
        self.order = [s for slot in range(5) for s in range(self.n) if self.rabbi_slot[s] == slot] + self.perm_queue
        if self.automa:
            self.au_pos = sum(1 for s in range(self.n) if 0 <= self.rabbi_slot[s] < self.au_slot)
        self.phase = PH_INFLUENCE
        self.cursor = 0
        self._push_phase()

    def _end_round(self) -> None:
        self.round += 1
        if self.round == NUM_ROUNDS:
            self.phase = PH_END
            self.stack.clear()
            for s in range(self.n):
                self.stats["objectives_met"][s] = len(self._objectives_met(s)[0])
            return
        # Refresh
        for s in range(self.n):
            self.eyes[s] = []
            self.marble_actions[s] = self.rabbi_done[s] = self.actions[s] = 0
            self.pass_tile[s] = self.passes[s] = 0
            self.rabbi_slot[s] = -1
            self.free_control[s] = 0
        self.perm_queue = []
        self.au_actions = 0
        self.au_slot = -1
        self.au_eyes = []
        self._drop_all()
        self.at_discard += [x for x in self.at_slots if x >= 0]
        self._deal_action_tiles()
        if self.library:
            self.book_deck.append(self.library.pop(0))
            self.library.append(self.book_deck.pop(0))
        self.phase = PH_MOVE
        self.cursor = 0

    # ----------------------------------------------------------------- Synagogue

    def _drop(self, colours: list[int]) -> None:
        weights = self.p["row_weights"]
        total = sum(weights)
        for c in colours:
            r = self.chance.randint(total)
            row = 0
            while r >= weights[row]:
                r -= weights[row]
                row += 1
            self.syn[row][c] += 1

    def _drop_all(self) -> None:
        self.syn = [[0] * 5 for _ in range(5)]
        self._drop([c for c in range(5) for _ in range(self.marbles[c])])

    def _redrop(self) -> None:
        left = [c for r in range(5) for c in range(5) for _ in range(self.syn[r][c])]
        self.syn = [[0] * 5 for _ in range(5)]
        self._drop(left)

    def _deal_action_tiles(self) -> None:
        self.at_slots = [-1] * 5
        for k in range(self.n + 1):
            if not self.at_deck:
                self.at_deck = self.at_discard
                self.at_discard = []
                self.chance.shuffle(self.at_deck, len(self.at_deck))
            self.at_slots[k] = self.at_deck.pop(0)

    # ----------------------------------------------------------------- legality

    def _legal(self, task: list[int], a: int) -> bool:  # noqa: C901 - one branch per decision
        kind, s, e, pa, pb, pc, px = task
        n = self.n
        D = Decision
        if kind == D.DRAFT:
            return a < len(self.hands[s])
        if kind == D.KEEP:
            return len(self.drafted[s]) > self.p["objectives_kept"] and a < len(self.drafted[s])
        if kind == D.ARTIFACT_TILE:
            return a < len(self.art_offer)
        if kind == D.START_TILES:
            return a < len(PAIRS) and PAIRS[a][1] < len(self.start_offer[s])
        if kind == D.PLACE_GOLEMS:
            return a < NUM_DISTRICT_OPTIONS
        if kind == D.IGNORE_CHAR:
            return a <= IGNORE_CHARACTER
        if kind == D.MOVE_STEP:
            return self._step_legal(s, a // 2, a % 2, False, a < MOVE_STEP_OPTIONS) and self.step_left > 0
        if kind == D.TURN:
            if a < MARBLE_OPTIONS:
                return self.marble_actions[s] < 2 and self.syn[a // 5][a % 5] > 0
            if a < PASS_ACTION:
                slot = a - RABBI_BASE
                if self.rabbi_done[s]:
                    return False
                if slot == PERM_SLOT:
                    return True
                return (
                    self.at_slots[slot] >= 0
                    and all(self.rabbi_slot[o] != slot for o in range(n))
                    and self.au_slot != slot
                )
            if a == PASS_ACTION:
                if self.pass_stage == 0:
                    return True
                return self.pass_stage == 1 and self.rules["second_pass"] == "final" and self.passes[s] == 1
            return False
        if kind == D.BLACK_MARBLE:
            return a < NUM_DISTRICT_OPTIONS
        if kind == D.WORK_COUNT:
            if a > MAX_WORK or a > self._standing_count(s, False):
                return False
            cost = 0 if a == 0 else max(0, self.p["work_costs"][a - 1] - pa)
            return self.res[s][KNOWLEDGE] >= cost
        if kind == D.ACTIVATE:
            if a == ACTIVATE_STOP:
                return True
            if a > ACTIVATE_STOP:
                return False
            if px >= 0 and a != px:
                return False
            return self.golem_loc[s][a] in (0, 1, 2) and self.standing[s][a] == 1 and not (pb and self.fresh[s][a])
        if kind == D.GOLEM_ACTION:
            if a < GA_CREATE:
                return not (pb & 1) and self._upgrade_legal(s, a, 0, 0)
            if a < GA_DONE:
                return not (pb & 2) and self._create_legal(s, a - GA_CREATE, 0)
            return a == GA_DONE
        if kind == D.ARTIFACT_ACTION:
            if a < ART_OPTIONS:
                return not (pb & 1) and self._upgrade_legal(s, UP_ART + a, 0, 0)
            if a == AA_BUY_GOLD:
                return not (pb & 2) and self.res[s][COIN] >= self.p["gold_price"] and self.gold_supply > 0
            return a == AA_DONE
        if kind == D.STUDY_ACTION:
            if a < STUDY_BUY:
                return not (pb & 1) and self._upgrade_legal(s, UP_STUDY + a, 0, 0)
            if a < STUDY_DONE:
                return not (pb & 2) and self._book_legal(s, (a - STUDY_BUY) // 4, (a - STUDY_BUY) % 4, 0, 0)
            return a == STUDY_DONE
        if kind == D.MIRROR:
            if a < NUM_ROW_OPTIONS:
                return not (pb & 1) and self.res[s][COIN] >= self.p["mirror_cost"]
            if a == MIRROR_STUDY:
                return (
                    not (pb & 2)
                    and self.res[s][COIN] >= self.p["mirror_study_cost"]
                    and self.study[s] < self.study_len - 1
                )
            return a == MIRROR_DONE
        if kind == D.CHARACTER:
            if a == CHARACTER_PAY:
                return self.res[s][COIN] >= int(self.t.ch_cost[self.palace[self.round]])
            return a == CHARACTER_COINS
        if kind in (D.UPGRADE, D.INCOME_UPGRADE):
            if a == UPGRADE_SKIP:
                return True
            if a > UPGRADE_SKIP:
                return False
            area = 1 if a < UP_STUDY else (2 if a < UP_ART else 4)
            return bool(pa & area) and self._upgrade_legal(s, a, pb, pc)
        if kind == D.CREATE:
            return a == CREATE_SKIP or (a < CREATE_SKIP and self._create_legal(s, a, pa))
        if kind == D.KILL:
            return a == KILL_SKIP or (a < KILL_SKIP and self.golem_loc[s][a] in (0, 1, 2))
        if kind == D.CEMETERY_SPACE:
            if a >= self.cemetery_len:
                return False
            if self.t.cem_unlimited[a]:
                return True
            return self.cemetery[a] < 0 and int(self.t.cem_min_players[a]) <= n
        if kind == D.STUDENT:
            return a == STUDENT_SKIP or (a < STUDENT_SKIP and self.student[s][a] < NUM_SECTIONS)
        if kind == D.GOLEM_STEP:
            if a == STEP_STOP:
                return True  # every bonus is optional: the player may stop moving
            if a > STEP_STOP:
                return False
            g, back, pay = a // 4, (a // 2) % 2, a % 2
            if px >= 0 and g != px:
                return False
            if back and not pa & 1:
                return False
            return self._step_legal(s, g, pay, bool(back), True)
        if kind == D.BOOK:
            return a == BOOK_SKIP or (a < BOOK_SKIP and self._book_legal(s, a // 4, a % 4, pa, pb))
        if kind == D.STUDENT_BACK:
            return a < NUM_DISTRICT_OPTIONS and self.student[s][a] > 1
        if kind == D.BOOK_BONUS:
            if a == BONUS_STOP:
                return True
            c, r = a // 5, a % 5
            return a < BONUS_STOP and r < len(self.col_books[s][c]) and not (pb >> a) & 1
        if kind == D.OBJECTIVE:
            return a < NUM_DRAWN_OPTIONS and self.drawn[a] >= 0
        if kind == D.TRACK:
            if a == TRACK_UP:
                return self.track[s] < self.track_len - 1
            if a == TRACK_DOWN:
                return self.track[s] > 0
            return a == TRACK_SKIP
        if kind == D.ARTIFACT_ACTIVATE:
            return a == ART_ACTIVATE_SKIP or (a < ART_ACTIVATE_SKIP and self.art_done[s][a] == 1)
        if kind == D.GOLD_PLACE:
            return a < NUM_ARTIFACT_OPTIONS and self._art_need(s, a) > 0
        if kind == D.CHOICE:
            return a < NUM_CHOICE_OPTIONS
        if kind == D.CONFIRM:
            return a == CONFIRM_NO or (a == CONFIRM_YES and self._confirm_ok(s, e, pa, pb, pc, px))
        if kind == D.COPY_TILE:
            return a == COPY_SKIP or (
                a < COPY_SKIP
                and self.golem_loc[s][a] in (0, 1, 2)
                and self.section_tile[self.golem_loc[s][a]][self.golem_sec[s][a]] >= 0
            )
        if kind == D.ANY_ACTION:
            return a < NUM_ROW_OPTIONS
        if kind == D.REMOVE_MARBLE:
            return a < MARBLE_OPTIONS and self.syn[a // 5][a % 5] > 0
        return False

    def _step_legal(self, s: int, g: int, pay: int, back: bool, in_range: bool) -> bool:
        """Golem ``g`` may take one step (forward, or back), paying with ``pay`` (1 Knowledge) where due."""
        if not in_range or g >= 6 or self.golem_loc[s][g] not in (0, 1, 2):
            return False
        sec = self.golem_sec[s][g]
        if back:
            return sec > 1 and pay == 0
        if sec >= NUM_SECTIONS:
            return False
        cost = int(self.t.street_entry[sec])  # entry cost of section sec + 1
        mode = self.rules["section_payment"]
        if cost == 0:
            return pay == 0
        if pay == 1:
            return mode != "vp" and self.res[s][KNOWLEDGE] >= cost
        return mode != "knowledge"  # R7: a Knowledge section is entered only by paying its Knowledge

    def _standing_count(self, s: int, fresh_ok: bool) -> int:
        return sum(
            1
            for g in range(6)
            if self.golem_loc[s][g] in (0, 1, 2) and self.standing[s][g] and (fresh_ok or not self.fresh[s][g])
        )

    def _create_legal(self, s: int, dist: int, discount: int) -> bool:
        return OFF_BOARD in self.golem_loc[s][2:] and self.res[s][CLAY] >= self._create_cost(s, dist, discount)

    def _create_cost(self, s: int, dist: int, discount: int) -> int:
        own = sum(1 for g in range(6) if self.golem_loc[s][g] == dist)
        return max(0, self.p["golem_cost"] + self.p["golem_extra_cost"] * own - discount)

    def _upgrade_cost(self, s: int, opt: int) -> tuple[int, int]:
        """(cost, resource) of upgrade option ``opt`` (UPGRADE numbering); cost -1 if not available."""
        t = self.t
        if opt < UP_STUDY:
            return (-1 if self.gdev[s][opt] else int(t.gdev_cost[opt])), CLAY
        if opt < UP_ART:
            return (-1 if self.sdev[s][opt - UP_STUDY] else int(t.sdev_cost[opt - UP_STUDY])), KNOWLEDGE
        k = opt - UP_ART
        if k == 0:
            return (-1 if self.adev_space[s][5] >= 0 else int(t.adev_cost[5])), COIN
        tile, space = (k - 1) // 8, ((k - 1) // 2) % 4
        if self.adev_space[s][tile] >= 0 or self.art_tile[s] < 0 or space in self.adev_space[s][:5]:
            return -1, COIN
        return int(t.art[self.art_tile[s], self.art_side[s], space, 6]), COIN

    def _upgrade_legal(self, s: int, opt: int, discount: int, any_res: int) -> bool:
        cost, r = self._upgrade_cost(s, opt)
        if cost < 0:
            return False
        due = max(0, cost - discount)
        return (sum(self.res[s]) if any_res else self.res[s][r]) >= due

    def _study_dev_bonus(self, s: int, what: str) -> int:
        """The Study-track Development's extra Books per column (``what`` "limit") or Knowledge income ("income")
        once upgraded (R18a), else 0."""
        t = self.t
        up = any(self.sdev[s][k] and t.sdev_effect[k] == E["study_track_bonus"] for k in range(NUM_STUDY_DEVS))
        return self.p[f"study_track_dev_{what}"] if up else 0

    def _book_price(self, s: int, pos: int, discount: int, free_card: int) -> int:
        b = self.library[pos]
        card = 0 if free_card or self.t.bk_colour[b] == BOOK_BLACK else int(self.t.bk_cost[b])
        return max(0, card + self.p["library_costs"][pos] - discount)

    def _book_legal(self, s: int, pos: int, col: int, discount: int, free_card: int) -> bool:
        if pos >= len(self.library) or col > 3:
            return False
        b = self.library[pos]
        if self.res[s][KNOWLEDGE] < self._book_price(s, pos, discount, free_card):
            return False
        if self.t.bk_colour[b] == BOOK_BLACK and max(self.student[s]) <= 1:
            return False
        return self._fits(s, b, col)

    def _fits(self, s: int, b: int, col: int) -> bool:
        books = self.col_books[s][col]
        limit = min(int(self.t.sd_limit[self.study[s]]) + self._study_dev_bonus(s, "limit"), self.p["max_study_column"])
        if col >= self.p["book_columns"] or len(books) >= limit:
            return False
        colour = int(self.t.bk_colour[b])
        if colour == BOOK_BLACK:
            return True
        here = self.col_colour[s][col]
        if here >= 0:
            return here == colour
        return all(self.col_colour[s][c] != colour for c in range(4))

    def _confirm_ok(self, s: int, e: int, a: int, b: int, c: int, x: int) -> bool:
        if e in (E["pay_for_vp"], E["pay_for_gold"], E["pay_for_students"], E["pay_for_study"], E["pay_for_vp_study"]):
            return 0 <= c < 3 and self.res[s][c] >= a
        if e == E["trade"]:
            return 0 <= c < 3 and self.res[s][c] >= a
        if e == E["student_back"]:
            return self.student[s][x] > 1
        if e == E["study_down_vp_student"]:
            return self.study[s] > 0
        return True

    def _art_need(self, s: int, k: int) -> int:
        if self.art_tile[s] < 0:
            return 0
        return int(self.t.art[self.art_tile[s], self.art_side[s], k, 0]) - self.art_gold[s][k]

    def _matches(self, s: int) -> bool:
        """Seat ``s``'s two marbles match the round's Character (white marbles are wild)."""
        if len(self.eyes[s]) < 2:
            return False
        c = self.palace[self.round]
        c1, c2 = int(self.t.ch_c1[c]), int(self.t.ch_c2[c])
        m1, m2 = self.eyes[s][0], self.eyes[s][1]

        def fits(m: int, want: int) -> bool:
            return m == want or m == WHITE

        return (fits(m1, c1) and fits(m2, c2)) or (fits(m1, c2) and fits(m2, c1))

    # ----------------------------------------------------------------- resolving decisions

    def _resolve(self, task: list[int], a: int) -> None:  # noqa: C901 - one branch per decision
        kind, s, e, pa, pb, pc, px = task
        D = Decision
        t = self.t
        if kind == D.DRAFT:
            self.drafted[s].append(self.hands[s].pop(a))
        elif kind == D.KEEP:
            self.ob_deck.append(self.drafted[s].pop(a))
            self.objectives[s] = list(self.drafted[s])
        elif kind == D.ARTIFACT_TILE:
            self.art_tile[s], self.art_side[s] = self.art_offer.pop(a)
        elif kind == D.START_TILES:
            for k in PAIRS[a]:
                self._take_start(s, self.start_offer[s][k])
        elif kind == D.PLACE_GOLEMS:
            g = 0
            for dist in range(NUM_DISTRICT_OPTIONS):
                if dist != a:
                    self.golem_loc[s][g] = dist
                    self.golem_sec[s][g] = 1
                    g += 1
        elif kind == D.IGNORE_CHAR:
            if a == IGNORE_CHARACTER:
                self.step_left -= int(t.ch_move[self.palace[self.round]])
        elif kind == D.MOVE_STEP:
            self._step_golem(s, a // 2, a % 2, False)
            self.step_left -= 1
            if self.step_left > 0:
                self._push(D.MOVE_STEP, s)
        elif kind == D.TURN:
            self._turn(s, a)
        elif kind == D.BLACK_MARBLE:
            for dist in range(NUM_DISTRICT_OPTIONS):
                if dist != a:
                    self._move_student(s, dist, 1)
        elif kind == D.WORK_COUNT:
            if a:
                self._pay(s, KNOWLEDGE, max(0, self.p["work_costs"][a - 1] - pa))
            extra = 1 if self._has_gdev(s, E["activate_work_extra"]) else 0
            if a + extra:
                self._push(D.ACTIVATE, s, 0, a + extra, 1, 0, -1)
        elif kind == D.ACTIVATE:
            if a < ACTIVATE_STOP:
                if pa > 1:
                    self._push(D.ACTIVATE, s, 0, pa - 1, pb, pc, px)
                self._activate(s, a, True)
        elif kind == D.GOLEM_ACTION:
            if a == GA_DONE:
                return
            self._push(D.GOLEM_ACTION, s, 0, 0, pb | (1 if a < GA_CREATE else 2))
            if a < GA_CREATE:
                self._upgrade(s, a, 0, 0)
            else:
                self._create(s, a - GA_CREATE, 0)
        elif kind == D.ARTIFACT_ACTION:
            if a == AA_DONE:
                return
            self._push(D.ARTIFACT_ACTION, s, 0, 0, pb | (1 if a < ART_OPTIONS else 2))
            if a < ART_OPTIONS:
                self._upgrade(s, UP_ART + a, 0, 0)
            else:
                self._pay(s, COIN, self.p["gold_price"])
                self._gain_gold(s, 1)
        elif kind == D.STUDY_ACTION:
            if a == STUDY_DONE:
                return
            self._push(D.STUDY_ACTION, s, 0, 0, pb | (1 if a < STUDY_BUY else 2))
            if a < STUDY_BUY:
                self._upgrade(s, UP_STUDY + a, 0, 0)
            else:
                self._buy_book(s, (a - STUDY_BUY) // 4, (a - STUDY_BUY) % 4, 0, 0)
        elif kind == D.MIRROR:
            if a == MIRROR_DONE:
                return
            self._push(D.MIRROR, s, 0, pa, pb | (1 if a < MIRROR_STUDY else 2))
            if a < MIRROR_STUDY:
                self._pay(s, COIN, self.p["mirror_cost"])
                self._row_action(s, a, pa)
            else:
                self._pay(s, COIN, self.p["mirror_study_cost"])
                self._study_up(s, 1)
        elif kind == D.CHARACTER:
            c = self.palace[self.round]
            if a == CHARACTER_PAY:
                self._pay(s, COIN, int(t.ch_cost[c]))
                self._effect(s, int(t.ch_effect[c]), int(t.ch_a[c]), int(t.ch_b[c]), -1, 0)
            else:
                self.res[s][COIN] += self.p["character_coins"]
        elif kind in (D.UPGRADE, D.INCOME_UPGRADE):
            if a != UPGRADE_SKIP:
                self._upgrade(s, a, pb, pc)
        elif kind == D.CREATE:
            if a < CREATE_SKIP:
                self._create(s, a, pa)
        elif kind == D.KILL:
            if a < KILL_SKIP:
                self._push(D.CEMETERY_SPACE, s, 0, a)
        elif kind == D.CEMETERY_SPACE:
            self._kill(s, pa, a)
        elif kind == D.STUDENT:
            if a < STUDENT_SKIP:
                self._move_student(s, a, 1)
        elif kind == D.GOLEM_STEP:
            if a == STEP_STOP:
                return
            g, back, pay = a // 4, (a // 2) % 2, a % 2
            self._step_golem(s, g, pay, bool(back))
            if pb > 1:
                self._push(D.GOLEM_STEP, s, 0, pa, pb - 1, pc, -1 if px == -1 else g)
        elif kind == D.BOOK:
            if a < BOOK_SKIP:
                self._buy_book(s, a // 4, a % 4, pa, pb)
        elif kind == D.STUDENT_BACK:
            self.student[s][a] -= 1
        elif kind == D.BOOK_BONUS:
            if a < BONUS_STOP:
                if pa > 1:
                    self._push(D.BOOK_BONUS, s, 0, pa - 1, pb | (1 << a))
                b = self.col_books[s][a // 5][a % 5]
                self._book_effect(s, b, 1)
        elif kind == D.OBJECTIVE:
            self.objectives[s].append(self.drawn[a])
            other = self.drawn[1 - a]
            if other >= 0:
                self.ob_deck.append(other)
            self.drawn = [-1, -1]
        elif kind == D.TRACK:
            if a < TRACK_SKIP:
                self.track[s] += 1 if a == TRACK_UP else -1
        elif kind == D.ARTIFACT_ACTIVATE:
            if a < ART_ACTIVATE_SKIP:
                self._activate_artifact(s, a)
        elif kind == D.GOLD_PLACE:
            self.art_gold[s][a] += 1
            if self._art_need(s, a) == 0:
                self.art_done[s][a] = 1
                self._activate_artifact(s, a)
        elif kind == D.CHOICE:
            self.res[s][a] += pa
        elif kind == D.CONFIRM:
            if a == CONFIRM_YES:
                self._confirmed(s, e, pa, pb, pc, px)
        elif kind == D.COPY_TILE:
            if a < COPY_SKIP:
                self._tile_effect(s, self.golem_loc[s][a], self.golem_sec[s][a])
        elif kind == D.ANY_ACTION:
            self._row_action(s, a, pa)
        elif kind == D.REMOVE_MARBLE:
            self.syn[a // 5][a % 5] -= 1

    def _turn(self, s: int, a: int) -> None:
        """A main action: a marble, the Rabbi, or a pass."""
        if a == PASS_ACTION:
            self.passes[s] += 1
            self.act_count[s][ACT_PASS] += 1
            if not self.pass_tile[s]:
                self.pass_tile[s] = 1 + sum(1 for o in range(self.n) if self.pass_tile[o])
            return
        self.actions[s] += 1
        self._push(T_AUTO, s, X_END_ACTION)
        if a < MARBLE_OPTIONS:
            row, colour = a // 5, a % 5
            value = sum(self.syn[row])
            self.syn[row][colour] -= 1
            self.eyes[s].append(colour)
            self.marble_actions[s] += 1
            self.act_count[s][row] += 1
            self._push(T_AUTO, s, X_ROW_ACTION, row, value)
            for k in range(4):  # golden Artifact developments reactivated by this marble's colour
                if colour in (RED, BLUE) and self._reactivates(
                    s, k, E["reactivate_red_marble"] if colour == RED else E["reactivate_blue_marble"]
                ):
                    self._push(T_AUTO, s, X_ACTIVATE_ART, k)
            if colour < 3:
                self._move_student(s, colour, 1)
            elif colour == BLACK:
                self._push(Decision.BLACK_MARBLE, s)
            return
        slot = a - RABBI_BASE
        self.rabbi_done[s] = 1
        self.act_count[s][ACT_RABBI] += 1
        if slot == PERM_SLOT:
            self.perm_queue.append(s)
            self.rabbi_slot[s] = PERM_SLOT
            tile = NUM_ACTION_TILES
        else:
            self.rabbi_slot[s] = slot
            tile = self.at_slots[slot]
        self._effect(s, int(self.t.at_effect[tile]), int(self.t.at_a[tile]), int(self.t.at_b[tile]), -1, 0)

    def _automa_turn(self) -> None:
        """One action of the solo Automa, as its card for the round says (RULINGS R33-R34)."""
        t = self.t
        card = self.au_deck[self.round]
        self.au_actions += 1
        if self.au_actions == int(t.au_rabbi_turn[card]):
            free = [
                k for k in range(5) if self.at_slots[k] >= 0 and all(self.rabbi_slot[s] != k for s in range(self.n))
            ]
            if not free:
                self.au_slot = PERM_SLOT
            else:
                self.au_slot = free[0] if t.au_rabbi_top[card] else free[-1]
            where = "the permanent space" if self.au_slot == PERM_SLOT else f"action tile {self._tile_id(self.au_slot)}"
            self._automa_gauge(self.p["automa_rabbi_gauge"])
            self.au_log.append((self.round + 1, f"Rabbi on {where}; gauge {self.au_gauge}, VP {sum(self.au_vp)}"))
            return
        # a marble from the fullest row (ties: the card's row order), colour by the card's colour order
        row, value = -1, 0
        for k in range(5):
            r = int(t.au_rows[card, k])
            if sum(self.syn[r]) > value:
                row, value = r, sum(self.syn[r])
        if row < 0:
            return
        colour = next(int(c) for c in t.au_colours[card] if self.syn[row][c] > 0)
        self.syn[row][colour] -= 1
        self.au_eyes.append(colour)
        focus = row == int(t.au_focus[self.au_strategy])
        self._automa_gauge(value + (int(t.au_bonus[self.au_strategy]) if focus else 0))
        text = f"marble {MARBLES[colour]} from {ROWS[row]} (value {value}); gauge {self.au_gauge}, VP {sum(self.au_vp)}"
        self.au_log.append((self.round + 1, text))

    def _tile_id(self, slot: int) -> str:
        return self.d.action_ids[self.at_slots[slot]]

    def _automa_gauge(self, steps: int) -> None:
        """The Automa's Resource marker moves up ``steps``; each threshold reached scores both its tiles."""
        t = self.t
        for _ in range(steps):
            self.au_gauge += 1
            k = self.au_next
            if self.au_gauge < int(t.au_thresholds[k]):
                continue
            self.au_vp[0] += int(t.au_vp[0, k])
            self.au_vp[1] += int(t.au_vp[1 + self.au_strategy, k])
            self.au_next = k + 1
            if self.au_next == len(t.au_thresholds):  # the last threshold: back to the start of the gauge
                self.au_next = 0
                self.au_gauge = 0
                self.au_laps += 1

    def _row_action(self, s: int, row: int, value: int) -> None:
        if row == WORK:
            self._push(Decision.WORK_COUNT, s, 0, value)
        elif row == GOLEM_ROW:
            self.res[s][CLAY] += value
            self._push(Decision.GOLEM_ACTION, s)
        elif row == ARTIFACTS:
            self.res[s][COIN] += value
            self._push(Decision.ARTIFACT_ACTION, s)
        elif row == STUDY_ROW:
            self.res[s][KNOWLEDGE] += value
            self._push(Decision.STUDY_ACTION, s)
        elif row == MIRROR:
            self._push(Decision.MIRROR, s, 0, value)

    # ----------------------------------------------------------------- effects

    def _effect(self, s: int, e: int, a: int, b: int, c: int, x: int) -> None:  # noqa: C901 - the effect table
        """Apply effect ``e`` (data codes ``E``, internal ``X_*``) for seat ``s``; may push decisions."""
        D = Decision
        auto = self._auto
        if e == E["none"] or e == E["plain"]:
            return
        if e == E["gain"]:
            self._gain(s, c, a)
        elif e == E["choice"]:
            self._push(D.CHOICE, s, 0, a)
        elif e in (
            E["trade"],
            E["pay_for_vp"],
            E["pay_for_gold"],
            E["pay_for_students"],
            E["pay_for_study"],
            E["pay_for_vp_study"],
            E["student_back"],
            E["study_down_vp_student"],
        ):
            self._push(D.CONFIRM, s, e, a, b, c, x)
        elif e == E["study_up"]:
            self._study_up(s, a)
        elif e == E["student_district"]:
            self._move_student(s, c, max(1, a))
        elif e == E["student_any"]:
            for _ in range(a):
                self._push(D.STUDENT, s)
        elif e == E["golem_track"]:
            for _ in range(max(1, a)):
                self._push(D.TRACK, s)
        elif e == E["kill_golem"]:
            self._push(D.KILL, s)
        elif e == E["upgrade"]:
            self._push(D.UPGRADE, s, 0, 7, a, 0)
        elif e == E["create_golem"]:
            self._push(D.CREATE, s, 0, a)
        elif e == E["kill_vp_per_level"]:
            self._seq(s, [(D.KILL, 0), auto(X_VP_PER_LEVEL, a)])
        elif e == E["upgrade_golem"]:
            self._push(D.UPGRADE, s, 0, 1, a, 0)
        elif e == E["create_golem_vp_per_level"]:
            self._seq(s, [(D.CREATE, 0, a), auto(X_VP_PER_LEVEL, b)])
        elif e == E["upgrade_artifact"]:
            self._push(D.UPGRADE, s, 0, 4, a, 0)
        elif e == E["kill_gain"]:
            self._seq(s, [(D.KILL, 0), auto(X_GAIN, a, 0, c)])
        elif e == E["objective_gain"]:
            self._gain(s, c, b)
            self._draw_objectives(s, a)
        elif e == E["activate_artifact"]:
            for _ in range(max(1, a)):
                self._push(D.ARTIFACT_ACTIVATE, s)
        elif e == E["student_income"]:
            self._student_income(s)
        elif e == E["buy_book"]:
            self._push(D.BOOK, s, 0, a, 0)
        elif e == E["upgrade_study"]:
            self._push(D.UPGRADE, s, 0, 2, a, 0)
        elif e == E["book_bonuses"]:
            self._push(D.BOOK_BONUS, s, 0, a, 0)
        # Action tiles
        elif e == E["track_vp_knowledge"]:
            self._seq(s, [(D.TRACK, 0), auto(X_VP_PER_LEVEL, a), auto(X_KNOW_PER_LEVEL, b)])
        elif e == E["gold_vp_per_artifact"]:
            self._seq(s, [auto(X_GOLD, a), auto(X_VP_PER_ARTIFACT, b)])
        elif e == E["clay_create_move"]:
            self.res[s][CLAY] += a
            self._seq(s, [(D.CREATE, 0, 0), (D.GOLEM_STEP, 0, 1, max(1, b), 1, -1)])
        elif e == E["buy_book_free_card"]:
            self._push(D.BOOK, s, 0, a, 1)
        elif e == E["kill_vp_clay_per_cemetery"]:
            self._seq(s, [(D.KILL, 0), auto(X_VP_CEMETERY, a, b)])
        elif e == E["upgrade_any_resources"]:
            self._push(D.UPGRADE, s, 0, 7, a, 1)
        elif e == E["move_activate_free_control"]:
            self.free_control[s] = 1
            self.last_stepped = -1
            # the first step picks the golem (x = -2: any golem, then that golem only)
            self._seq(s, [(D.GOLEM_STEP, 0, 0, a, 1, -2), auto(X_ACTIVATE_GOLEM)])
        elif e == E["move_two_activate"]:
            self._seq(s, [(D.GOLEM_STEP, 0, 1, a, 1, -1), (D.ACTIVATE, 0, max(1, b), 0, 0, -1)])
        elif e == E["study_book_bonus"]:
            self._study_up(s, a)
            self._push(D.BOOK_BONUS, s, 0, max(1, b), 0)
        elif e == E["copy_tile"]:
            self._push(D.COPY_TILE, s)
        elif e == E["resources_objective"]:
            for r in (CLAY, COIN, KNOWLEDGE):
                self.res[s][r] += a
            self._draw_objectives(s, b)
        elif e == E["student_vp_leftmost"]:
            self._seq(s, [(D.STUDENT, 0), auto(X_VP_LEFTMOST, b)])
        elif e == E["any_marble_action"]:
            self._push(D.ANY_ACTION, s, 0, a)
        # Characters
        elif e == E["upgrade_any_vp"]:
            self.vp[s] += b
            self._push(D.UPGRADE, s, 0, 7, a, 1)
        elif e == E["golem_step_activate"]:
            self._seq(s, [(D.GOLEM_STEP, 0, 1, max(1, a), 0, -1), (D.ACTIVATE, 0, max(1, b), 0, 0, -1)])
        elif e == E["gain_gold"]:
            self._gain_gold(s, a)
        elif e == E["create_golem_red_student"]:
            self._seq(s, [(D.CREATE, 0, a), auto(X_STUDENT, b, 0, RED)])
        elif e == E["study_blue_student"]:
            self._study_up(s, a)
            self._move_student(s, BLUE, b)
        elif e == E["gold_yellow_student"]:
            self._seq(s, [auto(X_GOLD, a), auto(X_STUDENT, b, 0, YELLOW)])
        elif e == E["vp_per_development"]:
            self.vp[s] += a * self.devs_flipped(s)
        elif e == E["vp_times_leftmost"]:
            self.vp[s] += a * min(self.student[s])
        elif e == E["vp_per_track_level"]:
            self.vp[s] += a * self._level(s)
        elif e == E["vp_buy_book"]:
            self.vp[s] += a
            self._push(D.BOOK, s, 0, b, 0)
        elif e == E["kill_vp_per_cemetery"]:
            self._seq(s, [(D.KILL, 0), auto(X_VP_CEMETERY, a, 0)])
        # internal steps
        elif e == X_VP_PER_LEVEL:
            self.vp[s] += a * self._level(s)
        elif e == X_KNOW_PER_LEVEL:
            self.res[s][KNOWLEDGE] += a * self._level(s)
        elif e == X_VP_CEMETERY:
            self.vp[s] += a * self.cemetery_count[s]
            self.res[s][CLAY] += b * self.cemetery_count[s]
        elif e == X_VP_LEFTMOST:
            self.vp[s] += max(1, a) * min(self.student[s])
        elif e == X_VP_PER_ARTIFACT:
            self.vp[s] += a * sum(self.art_done[s])
        elif e == X_ROW_ACTION:
            self._row_action(s, a, b)
        elif e == X_STUDENT:
            self._move_student(s, c, a)
        elif e == X_GAIN:
            self._gain(s, c, a)
        elif e == X_ACTIVATE_ART:
            self._activate_artifact(s, a)
        elif e == X_END_ACTION:
            self.fresh[s] = [0] * 6
        elif e == X_ACTIVATE_GOLEM:  # the Golem moved, or with no step taken any standing Golem (R37)
            g = self.last_stepped
            if g < 0:
                self._push(D.ACTIVATE, s, 0, 1, 0, 0, -1)
            elif self.golem_loc[s][g] in (0, 1, 2) and self.standing[s][g]:
                self._push(D.ACTIVATE, s, 0, 1, 0, 0, g)
        elif e == X_GOLD:
            self._gain_gold(s, a)
        elif e == X_GOLD_PIECE:
            self._gold_piece(s)
        elif e == X_OVERMOVE:
            self._overmove(s)
        elif e == X_REDROP:
            self._redrop()
        elif e == X_AFTER_BOOK:
            self._after_book(s, a, b)
        elif e == X_TILE:
            self._tile_effect(s, a, b)
        else:
            raise ValueError(f"effect {EFFECTS[e] if e < len(EFFECTS) else e} has no rule here")

    def _confirmed(self, s: int, e: int, a: int, b: int, c: int, x: int) -> None:
        """An optional effect with a cost or drawback, accepted."""
        if e == E["trade"]:
            self._pay(s, c, a)
            self._gain(s, x, b)
        elif e == E["pay_for_vp"]:
            self._pay(s, c, a)
            self.vp[s] += b
        elif e == E["pay_for_gold"]:
            self._pay(s, c, a)
            self._gain_gold(s, b)
        elif e == E["pay_for_students"]:
            self._pay(s, c, a)
            for _ in range(b):
                self._push(Decision.STUDENT, s)
        elif e == E["pay_for_study"]:
            self._pay(s, c, a)
            self._study_up(s, b)
        elif e == E["pay_for_vp_study"]:
            self._pay(s, c, a)
            self.vp[s] += b
            self._study_up(s, 1)
        elif e == E["student_back"]:
            self.student[s][x] -= 1
            self.vp[s] += a
            self._gain(s, c, b)
        elif e == E["study_down_vp_student"]:
            self.study[s] -= 1
            self.vp[s] += a
            for _ in range(b):
                self._push(Decision.STUDENT, s)
        elif e == E["create_step_activate"]:  # the new Golem x in district a: one step, its tile without lying down
            self.golem_sec[s][x] += 1
            self._push(T_AUTO, s, X_TILE, a, self.golem_sec[s][x])

    def _gain(self, s: int, r: int, amount: int) -> None:
        if r < 0 or amount <= 0:
            return
        if r < 3:
            self.res[s][r] += amount
        elif r == GOLD:
            self._gain_gold(s, amount)
        elif r == VP:
            self.vp[s] += amount
        elif r == STUDY:
            self._study_up(s, amount)

    def _pay(self, s: int, r: int, amount: int) -> None:
        if self.res[s][r] < amount:
            raise RuntimeError("payment exceeds the resource held")
        self.res[s][r] -= amount

    def _lose_vp(self, s: int, amount: int) -> int:
        """Lose up to ``amount`` VP (stopping at 0 under vp_floor = zero); returns the VP lost."""
        lost = min(amount, self.vp[s]) if self.rules["vp_floor"] == "zero" else amount
        self.vp[s] -= lost
        return lost

    def _gain_gold(self, s: int, amount: int) -> None:
        """Take ``amount`` Gold, one piece at a time (see ``_gold_piece``)."""
        for _ in range(amount):
            self._push(T_AUTO, s, X_GOLD_PIECE)

    def _gold_piece(self, s: int) -> None:
        """One Gold from the supply onto an unfinished cauldron (the player's choice), or aside if all are full."""
        if self.gold_supply == 0:
            return
        self.gold_supply -= 1
        if any(self._art_need(s, k) > 0 for k in range(4)):
            self._push(Decision.GOLD_PLACE, s)
        else:
            self.loose_gold[s] += 1

    def _study_up(self, s: int, steps: int) -> None:
        self.study[s] = min(self.study_len - 1, self.study[s] + steps)

    def _move_student(self, s: int, dist: int, steps: int) -> None:
        for _ in range(steps):
            if self.student[s][dist] >= NUM_SECTIONS:
                return
            self.student[s][dist] += 1
            if self.student[s][dist] == self.p["menorah_section"] and self.tokens[dist] < 0:
                self.tokens[dist] = s

    def _level(self, s: int) -> int:
        return int(self.t.gt_level[self.track[s]])

    def _dev(self, effect: int) -> int:
        """Golem Development tile index carrying ``effect`` (-1 if none)."""
        for k in range(6):
            if self.t.gdev_effect[k] == effect:
                return k
        return -1

    def _has_gdev(self, s: int, effect: int) -> bool:
        """Seat ``s`` has flipped the Golem Development carrying ``effect``."""
        k = self._dev(effect)
        return k >= 0 and self.gdev[s][k] == 1

    def _reactivates(self, s: int, k: int, effect: int) -> bool:
        """Artifact ``k`` is complete and carries a golden tile showing ``effect``."""
        if not self.art_done[s][k]:
            return False
        for tile in range(5):
            if self.adev_space[s][tile] == k and self.t.adev_effect[tile, self.adev_side[s][tile]] == effect:
                return True
        return False

    def _take_start(self, s: int, tile: int) -> None:
        v = [int(x) for x in self.t.start_tiles[tile]]
        for r in range(3):
            self.res[s][r] += v[r]
        self.vp[s] += v[4]
        self._study_up(s, v[5])
        for dist in range(3):
            self._move_student(s, dist, v[6 + dist])
        self.kept_starts[s].append(tile)
        if v[3]:
            self._gain_gold(s, v[3])

    def _draw_objectives(self, s: int, count: int) -> None:
        self.drawn = [-1, -1]
        for k in range(min(count, 2, len(self.ob_deck))):
            self.drawn[k] = self.ob_deck.pop(0)
        if self.drawn[0] >= 0:
            self._push(Decision.OBJECTIVE, s)

    def _student_income(self, s: int) -> None:
        for dist in range(3):
            sec = self.student[s][dist] - 1
            self.res[s][dist] += int(self.t.street_res[sec])
            self.vp[s] += int(self.t.street_vp[sec])

    # ----------------------------------------------------------------- golems

    def _step_golem(self, s: int, g: int, pay: int, back: bool) -> None:
        self.last_stepped = g
        self.standing[s][g] = 1
        if back:
            self.golem_sec[s][g] -= 1
            return
        cost = int(self.t.street_entry[self.golem_sec[s][g]])
        self.golem_sec[s][g] += 1
        if cost:
            if pay:
                self._pay(s, KNOWLEDGE, cost)
            else:
                self.stats["vp_sections"][s] += self._lose_vp(s, cost)

    def _overmove(self, s: int) -> None:
        """End of a seat's Golem Movement: steps no Golem could use cost VP (all Golems in section X)."""
        left = self.step_left
        self.step_left = 0
        on_board = [g for g in range(6) if self.golem_loc[s][g] in (0, 1, 2)]
        if left <= 0 or not on_board:
            return
        per = self.p["overmove_penalty"] if self.rules["overmove"] == "five_per_step" else 1
        loss = min(left * per, self.p["overmove_penalty"] * len(on_board))
        self.stats["vp_overmove"][s] += self._lose_vp(s, loss)

    def _create(self, s: int, dist: int, discount: int) -> None:
        self._pay(s, CLAY, self._create_cost(s, dist, discount))
        g = self.golem_loc[s].index(OFF_BOARD, 2)
        self.golem_loc[s][g] = dist
        self.golem_sec[s][g] = 1
        self.standing[s][g] = 1
        self.fresh[s][g] = 1
        self.built[s] += 1
        self.track[s] = min(self.track_len - 1, self.track[s] + self.p["golem_track_create"])
        for k in range(4):
            if self._reactivates(s, k, E["reactivate_create_golem"]):
                self._push(T_AUTO, s, X_ACTIVATE_ART, k)
        if self._has_gdev(s, E["create_step_activate"]):
            # the Development's "may": one step, then the tile's effect without lying down, or not (R27)
            self._push(Decision.CONFIRM, s, E["create_step_activate"], dist, 0, 0, g)

    def _kill(self, s: int, g: int, space: int) -> None:
        self.golem_loc[s][g] = CEMETERY
        self.golem_sec[s][g] = 0
        if not self.t.cem_unlimited[space]:
            self.cemetery[space] = s
        self.cemetery_count[s] += 1
        self.killed[s] += 1
        self.track[s] = max(0, self.track[s] - self.p["golem_track_kill"])
        times = 2 if self._has_gdev(s, E["kill_double_cemetery"]) else 1
        bonus = [int(v) * times for v in self.t.cem_bonus[space]]
        for r in range(3):
            self.res[s][r] += bonus[r]
        self.vp[s] += bonus[4]
        if bonus[3]:
            self._gain_gold(s, bonus[3])

    def _activate(self, s: int, g: int, lie_down: bool) -> None:
        if lie_down:
            self.standing[s][g] = 0
        self._tile_effect(s, self.golem_loc[s][g], self.golem_sec[s][g])

    def _tile_effect(self, s: int, dist: int, sec: int) -> None:
        tile = self.section_tile[dist][sec]
        if tile < 0:
            return
        t = self.t
        self._effect(
            s,
            int(t.nb_effect[dist, tile]),
            int(t.nb_a[dist, tile]),
            int(t.nb_b[dist, tile]),
            int(t.nb_res[dist, tile]),
            dist,
        )

    def _income(self) -> None:
        """Income for every seat: Students, completed Artifacts, Study track, Golem track."""
        t = self.t
        for s in self.order:
            self._student_income(s)
            for k in range(4):
                if self.art_done[s][k]:
                    self._activate_artifact(s, k)
            self.res[s][KNOWLEDGE] += int(t.sd_income[self.study[s]]) + self._study_dev_bonus(s, "income")
            self.res[s][CLAY] += int(t.gt_clay[self.track[s]])
            self.vp[s] += int(t.gt_vp[self.track[s]])

    def _control(self) -> None:
        """Golem Control for every seat: Knowledge per section ahead; 5 VP per Golem not fully controlled."""
        for s in range(self.n):
            if self.free_control[s]:
                continue
            cap = 2 if self._has_gdev(s, E["control_cap_2"]) else 99
            costs = sorted(
                min(cap, max(0, self.golem_sec[s][g] - self.student[s][self.golem_loc[s][g]]))
                for g in range(6)
                if self.golem_loc[s][g] in (0, 1, 2)
            )
            unpaid = 0
            for c in costs:
                if self.res[s][KNOWLEDGE] >= c:
                    self.res[s][KNOWLEDGE] -= c
                    self.stats["know_control"][s] += c
                else:
                    unpaid += 1
            if unpaid:
                self.stats["know_control"][s] += self.res[s][KNOWLEDGE]
                self.res[s][KNOWLEDGE] = 0
                self.stats["vp_control"][s] += self._lose_vp(s, unpaid * self.p["control_penalty"])

    # ----------------------------------------------------------------- developments, artifacts, books

    def _upgrade(self, s: int, opt: int, discount: int, any_res: int) -> None:
        cost, r = self._upgrade_cost(s, opt)
        due = max(0, cost - discount)
        take = min(due, self.res[s][r])
        self.res[s][r] -= take
        due -= take
        for other in (CLAY, COIN, KNOWLEDGE):
            if due and any_res:
                take = min(due, self.res[s][other])
                self.res[s][other] -= take
                due -= take
        if due:
            raise RuntimeError("upgrade not affordable")
        if opt < UP_STUDY:
            self.gdev[s][opt] = 1
            e = int(self.t.gdev_effect[opt])
            if e == E["kill_double_cemetery"]:
                self._push(Decision.KILL, s)
            elif e == E["activate_work_extra"]:
                self._push(Decision.ACTIVATE, s, 0, 1, 0, 0, -1)
        elif opt < UP_ART:
            self.sdev[s][opt - UP_STUDY] = 1
        elif opt == UP_ART:
            self.adev_space[s][5] = 0
        else:
            k = opt - UP_ART - 1
            tile, space, side = k // 8, (k // 2) % 4, k % 2
            self.adev_space[s][tile] = space
            self.adev_side[s][tile] = side

    def _activate_artifact(self, s: int, k: int) -> None:
        """Artifact ``k``'s benefits, plus a grey Development on it."""
        v = self.t.art[self.art_tile[s], self.art_side[s], k]
        self.res[s][CLAY] += int(v[1])
        self.res[s][COIN] += int(v[2])
        self.res[s][KNOWLEDGE] += int(v[3])
        self.vp[s] += int(v[4])
        self._study_up(s, int(v[5]))
        for tile in range(5):
            if self.adev_space[s][tile] != k:
                continue
            e = int(self.t.adev_effect[tile, self.adev_side[s][tile]])
            extra = {
                E["extra_knowledge_2"]: (KNOWLEDGE, 2, 0),
                E["extra_knowledge_vp"]: (KNOWLEDGE, 1, 1),
                E["extra_clay_2"]: (CLAY, 2, 0),
                E["extra_clay_vp"]: (CLAY, 1, 1),
                E["extra_coin_2"]: (COIN, 2, 0),
                E["extra_coin_vp"]: (COIN, 1, 1),
            }.get(e)
            if extra:
                self.res[s][extra[0]] += extra[1]
                self.vp[s] += extra[2]

    def _buy_book(self, s: int, pos: int, col: int, discount: int, free_card: int) -> None:
        b = self.library[pos]
        self._pay(s, KNOWLEDGE, self._book_price(s, pos, discount, free_card))
        del self.library[pos]
        if self.book_deck:
            self.library.append(self.book_deck.pop(0))
        books = self.col_books[s][col]
        first = not books
        books.append(b)
        colour = int(self.t.bk_colour[b])
        if colour != BOOK_BLACK:
            self.col_colour[s][col] = colour
        self._push(T_AUTO, s, X_AFTER_BOOK, col, int(first))
        if colour == BOOK_BLACK:
            self._push(Decision.STUDENT_BACK, s)

    def _after_book(self, s: int, col: int, first: int) -> None:
        """A Book placed in ``col``: immediate bonus (doubled by that column's tile), then the column's actives."""
        b = self.col_books[s][col][-1]
        t = self.t
        dev = int(t.sdev_effect[col]) if col < 4 and self.sdev[s][col] else 0
        steps: list[tuple] = []
        times = 2 if dev == E["column_double"] and t.bk_colour[b] != BOOK_BLACK else 1
        for _ in range(times):
            steps.append(self._book_task(b, 0))
        if dev == E["column_clay_coin"]:
            steps += [self._auto(X_GAIN, 1, 0, COIN), self._auto(X_GAIN, 1, 0, CLAY)]
        elif dev == E["column_vp"]:
            steps.append(self._auto(X_GAIN, 2, 0, VP))
        elif dev == E["column_gold"]:
            steps.append(self._auto(X_GAIN, 1, 0, GOLD))
        for other in self.col_books[s][col]:
            steps.append(self._book_task(other, 1))
        if first:
            for k in range(4):
                if self._reactivates(s, k, E["reactivate_first_book"]):
                    steps.append(self._auto(X_ACTIVATE_ART, k))
        self._seq(s, steps)

    def _book_task(self, b: int, which: int) -> tuple:
        t = self.t
        e = int(t.bk_effect[b, which])
        c = int(t.bk_res[b, which])
        if e == E["trade"]:
            return (T_AUTO, e, int(t.bk_a[b, which]), int(t.bk_a2[b]), c, int(t.bk_res2[b]))
        return (T_AUTO, e, int(t.bk_a[b, which]), 0, c, 0)

    def _book_effect(self, s: int, b: int, which: int) -> None:
        task = self._book_task(b, which)
        self._effect(s, *task[1:])


def public_state(g: GolemState) -> dict[str, Any]:
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
