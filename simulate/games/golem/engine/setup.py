"""Setting up one game: deals, drafts and the first decision (njit)."""

# ruff: noqa: F403, F405 - the game's declared codes and layouts come whole from their modules

from __future__ import annotations

import numpy as np
from numba import njit

from simulate.games.golem.codes import OFF_BOARD, PH_DRAFT
from simulate.games.golem.data import *
from simulate.games.golem.engine.decisions import advance
from simulate.games.golem.engine.rounds import _deal_action_tiles, _drop_all, _push_phase
from simulate.games.golem.engine.stack import _ob_pop
from simulate.rng import draw_front, mix64, opening_seed, order_seed, randint, shuffle, shuffle_range


@njit(cache=True)
def init_game(r, tb, n, setup_seed, play_seed):
    """Set up game record ``r`` for ``n`` players from its seeds and run to the first decision."""
    # two setup streams: ``op`` draws the public opening (Palace, Neighbourhood, Library, round 1's Action tiles,
    # turn order, Starting and Artifact tiles, the Automa's Strategy tile and place), ``rng`` the hidden order
    # (the rest of the Book deck and Action tile pile, the Objective deck, the Automa deck); chance follows ``rng``
    op = np.zeros(1, np.uint64)
    op[0] = opening_seed(setup_seed)
    rng = np.zeros(1, np.uint64)
    rng[0] = order_seed(setup_seed)
    r.chance[0] = mix64(rng[0] ^ np.uint64(0x5EED))
    r.rng[0] = play_seed
    r.n = n
    intro = tb.prm[P_INTRO] == 1
    _deal_palace(r, tb, op, intro)
    _deal_neighbourhood(r, tb, op, intro)
    _deal_decks(r, tb, op, rng, n)
    _deal_seats(r, tb, op, n, intro)
    _deal_automa(r, tb, op, rng, n)
    _reset_pieces(r, tb, n)
    r.phase = PH_DRAFT
    r.cursor = 0
    r.sp = 0
    _drop_all(r, tb)
    _deal_action_tiles(r)
    _push_phase(r, tb)
    advance(r, tb)


@njit(cache=True)
def gift_seat(seat_bot):
    """The seat of lineup entry 0 (``seat_bot``: lineup entry per seat), which the rule option ``gift`` deals to
    (``engine.developments.deal_gift``, when its setup reaches the Starting tiles)."""
    for s in range(seat_bot.shape[0]):
        if seat_bot[s] == 0:
            return s
    return 0


@njit(cache=True)
def _deal_palace(r, tb, op, intro):
    """The four Characters of the Palace: the intro's, or three of deck I-III and one of IV."""
    if intro:
        for k in range(4):
            r.palace[k] = tb.intro_chars[k]
    else:
        early = np.zeros(12, np.int64)
        late = np.zeros(12, np.int64)
        ne = 0
        nl = 0
        for c in range(tb.ch_deck.shape[0]):
            if tb.ch_deck[c] == 0:
                early[ne] = c
                ne += 1
            else:
                late[nl] = c
                nl += 1
        shuffle(op, 0, early, ne)
        shuffle(op, 0, late, nl)
        for k in range(3):
            r.palace[k] = early[k]
        r.palace[3] = late[0]


@njit(cache=True)
def _deal_neighbourhood(r, tb, op, intro):
    """Seven Neighbourhood tiles per district (the intro's, or drawn), placed on their sections."""
    for dist in range(3):
        for sec in range(NUM_SECTIONS + 1):
            r.section_tile[dist, sec] = -1
        if intro:
            for k in range(7):
                r.tiles[dist, k] = tb.intro_tiles[dist, k]
        else:
            pool = np.arange(10)
            shuffle(op, 0, pool, 10)
            chosen = np.sort(pool[:7])
            for k in range(7):
                r.tiles[dist, k] = chosen[k]
        for k in range(7):
            r.section_tile[dist, tb.tile_sections[k]] = r.tiles[dist, k]


@njit(cache=True)
def _deal_decks(r, tb, op, rng, n):
    """The Library and Book deck, the Action tile pile and the Objective deck."""
    nb = tb.bk_colour.shape[0]
    books = np.arange(nb)
    draw_front(op, 0, books, nb, 5)
    shuffle_range(rng, 0, books, 5, nb)
    for k in range(5):
        r.library[k] = books[k]
    r.lib_len = 5
    for k in range(5, nb):
        r.bk_q[k - 5] = books[k]
    r.bk_head = 0
    r.bk_len = nb - 5
    at = np.arange(NUM_ACTION_TILES)
    draw_front(op, 0, at, NUM_ACTION_TILES, n + 1)
    shuffle_range(rng, 0, at, n + 1, NUM_ACTION_TILES)
    for k in range(NUM_ACTION_TILES):
        r.at_q[k] = at[k]
    r.at_head = 0
    r.at_len = NUM_ACTION_TILES
    r.at_disc_len = 0
    no = tb.ob_type.shape[0]
    objs = np.arange(no)
    shuffle(rng, 0, objs, no)
    for k in range(no):
        r.ob_q[k] = objs[k]
    r.ob_head = 0
    r.ob_len = no


@njit(cache=True)
def _deal_seats(r, tb, op, n, intro):
    """Turn order, Starting tiles and Objectives offered to each seat, the Artifact tiles offered."""
    order = np.arange(n)
    shuffle(op, 0, order, n)
    for k in range(n):
        r.order[k] = order[k]
        r.start_order[k] = order[k]
    ns = tb.start_tiles.shape[0]
    starts = np.arange(ns)
    shuffle(op, 0, starts, ns)
    dealt = tb.prm[P_INTRO_START_DEALT] if intro else tb.prm[P_START_DEALT]
    for s in range(n):
        r.start_len[s] = dealt
        for k in range(dealt):
            r.start_offer[s, k] = starts[s * dealt + k]
        r.hand_len[s] = tb.prm[P_OBJECTIVES_DEALT]
        for k in range(tb.prm[P_OBJECTIVES_DEALT]):
            r.hands[s, k] = _ob_pop(r)
    arts = np.arange(4)
    shuffle(op, 0, arts, 4)
    for k in range(n):
        r.art_offer[k, 0] = arts[k]
        r.art_offer[k, 1] = randint(op, 0, 2)
    r.art_offer_len = n


@njit(cache=True)
def _deal_automa(r, tb, op, rng, n):
    """The solo Automa's deck, Strategy tile and place in the turn order (its deck unshuffled when off)."""
    r.automa = 1 if n == 1 and tb.prm[P_AUTOMA] == 1 else 0
    r.au_strategy = -1
    r.au_pos = -1
    nc = tb.au_rows.shape[0]
    cards = np.arange(nc)
    if r.automa:
        shuffle(rng, 0, cards, nc)
        r.au_strategy = randint(op, 0, tb.au_focus.shape[0])
        r.au_pos = randint(op, 0, n + 1)
    for k in range(nc):
        r.au_deck[k] = cards[k]
    r.au_slot = -1


@njit(cache=True)
def _reset_pieces(r, tb, n):
    """Marbles, seats' pieces and tracks, Menorah tokens, Cemetery and Gold supply at their starting values."""
    for c in range(5):
        r.marbles[c] = tb.marbles[n, c]
    for s in range(n):
        r.vp[s] = tb.prm[P_STARTING_VP]
        r.track[s] = tb.prm[P_TRACK_START]
        r.art_tile[s] = -1
        r.rabbi_slot[s] = -1
        for d in range(3):
            r.student[s, d] = 1
        for g in range(6):
            r.golem_loc[s, g] = OFF_BOARD
            r.standing[s, g] = 1
            r.adev_space[s, g] = -1
        for c in range(4):
            r.col_colour[s, c] = -1
    for k in range(3):
        r.tokens[k] = -1
    for k in range(MAX_CEMETERY):
        r.cemetery[k] = -1
    r.gold_supply = tb.prm[P_GOLD_SUPPLY]
    r.drawn[0] = -1
    r.drawn[1] = -1
    r.last_stepped = -1
