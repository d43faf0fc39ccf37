"""Stocks & Bombs rules core (compiled): state, actions, ticks, scoring, observations.

Pieces, ids and relative views are in :mod:`.pieces`; the public memory in :mod:`.memory`;
observations, their bounds and the state vector in :mod:`.observe`.

Action layout for n players (A = 9n^2 + n + 1; 331 at n = 6):

====================  ============================================================
index                 action
====================  ============================================================
0                     WAIT
1 + g * 3n + r        PROPOSE(give my relative piece g, receive relative piece r)
1 + 9n^2 + (j - 1)    ACCEPT the open proposal of relative seat j (1..n-1)
9n^2 + n              STOP
====================  ============================================================
"""

import numpy as np
from numba import njit

from stonk_envs.core import negotiation, rng
from stonk_envs.games.stocks_and_bombs import core as rules  # this module; see core/negotiation.py
from stonk_envs.games.stocks_and_bombs import memory
from stonk_envs.games.stocks_and_bombs.observe import (  # noqa: F401 (the core's views)
    memory_size,
    obs_size,
    observation_bounds,
    observe,
    state_size,
    state_vector,
)
from stonk_envs.games.stocks_and_bombs.pieces import (  # noqa: F401 (the core's piece helpers)
    MAX_PIECES,
    MAX_PLAYERS,
    NONE,
    pips,
    to_absolute_piece,
    to_relative_piece,
)

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64),
        ("n", np.int32),
        ("tick_cap", np.int32),
        ("round_cap", np.int32),
        ("points_to_win", np.int32),
        ("reward_mode", np.int32),
        ("round", np.int32),
        ("tick", np.int32),
        ("round_over", np.bool_),
        ("game_over", np.bool_),
        ("caller", np.int32),
        ("holder", np.int8, (MAX_PIECES,)),
        ("target", np.int8, (MAX_PLAYERS,)),
        ("prop_give", np.int8, (MAX_PLAYERS,)),
        ("prop_recv", np.int8, (MAX_PLAYERS,)),
        ("prop_to", np.int8, (MAX_PLAYERS,)),
        ("seen_give", np.int8, (MAX_PLAYERS,)),
        ("seen_recv", np.int8, (MAX_PLAYERS,)),
        ("moved", np.int32),
        ("totals", np.int32, (MAX_PLAYERS,)),
        ("last_scores", np.int32, (MAX_PLAYERS,)),
        ("memory", np.bool_),
        *memory.MEMORY_FIELDS,
    ]
)


# ---------------------------------------------------------------------------- sizes
@njit(cache=True)
def num_actions(n):
    return 9 * n * n + n + 1


# ---------------------------------------------------------------------------- scoring
@njit(cache=True)
def pips_of_colour(holder, n, player, colour):
    """Pips of ``colour`` that ``player`` holds."""
    total = 0
    for size in range(3):
        if holder[colour * 3 + size] == player:
            total += size + 1
    return total


@njit(cache=True)
def round_scores(holder, target, n, out):
    """Write each player's round score (B6, before the STOP penalty) into ``out[:n]``."""
    for p in range(n):
        t = target[p]
        if t != p:
            out[p] = pips_of_colour(holder, n, p, t) - pips_of_colour(holder, n, t, p)
        else:
            score = 0
            for x in range(n):
                if x != p:
                    mine = pips_of_colour(holder, n, p, x)
                    if mine > 0:
                        score += mine - pips_of_colour(holder, n, x, p)
            out[p] = score


@njit(cache=True)
def score_round_into(s, gains):
    """Score the ending round: totals floored at 0, the STOP penalty (B6b); gains per seat."""
    n = s.n
    scores = np.zeros(n, np.int32)
    round_scores(s.holder, s.target, n, scores)
    best = scores.max()
    for p in range(n):
        before = s.totals[p]
        total = max(0, before + scores[p])
        if p == s.caller and scores[p] < best:
            total = max(0, total - 1)
        s.totals[p] = total
        s.last_scores[p] = scores[p]
        gains[p] = total - before
    memory.record_round_end(s, s.caller != NONE and scores[s.caller] < best)


# ---------------------------------------------------------------------------- setup
@njit(cache=True)
def deal_round(s):
    """Everyone takes back their own three pieces; targets are shuffled and dealt (B2)."""
    n = s.n
    for piece in range(MAX_PIECES):
        s.holder[piece] = piece // 3 if piece < 3 * n else NONE
    for p in range(MAX_PLAYERS):
        s.target[p] = p if p < n else NONE
        s.prop_give[p] = NONE
        s.prop_recv[p] = NONE
        s.prop_to[p] = NONE
        s.seen_give[p] = NONE
        s.seen_recv[p] = NONE
    rng.shuffle(s, s.target, n)
    memory.clear_round(s)
    negotiation.start_round(s)


@njit(cache=True)
def init(s, seed, n, tick_cap, round_cap, points_to_win, reward_mode, with_memory=False):
    """Start a new game in record ``s``; ``with_memory`` appends the public memory to its
    observations (without it they have ``obs_size(n)`` entries)."""
    s.memory = with_memory
    memory.clear_game(s)
    s.tick_cap = tick_cap
    s.round_cap = round_cap
    s.points_to_win = points_to_win
    negotiation.start_game(s, seed, n, reward_mode, rules.deal_round)


# ---------------------------------------------------------------------------- legality
actors = negotiation.every_seat_acts


@njit(cache=True)
def proposal_valid(s, j):
    """j's open proposal exists and both pieces are still where they were."""
    g = s.prop_give[j]
    return g != NONE and s.holder[g] == j and s.holder[s.prop_recv[j]] == s.prop_to[j]


@njit(cache=True)
def can_accept(s, seat, j):
    """``seat`` may accept j's proposal: it is addressed to ``seat`` and still valid."""
    return j != seat and s.prop_give[j] != NONE and s.prop_to[j] == seat and proposal_valid(s, j)


@njit(cache=True)
def legal_mask(s, seat, out):
    """Write ``seat``'s action mask into ``out``."""
    out[:] = 0
    if s.game_over:
        return
    n = s.n
    m = 3 * n
    out[0] = 1
    for g in range(m):
        if s.holder[to_absolute_piece(g, seat, n)] != seat:
            continue
        for r in range(m):
            if s.holder[to_absolute_piece(r, seat, n)] != seat:
                out[1 + g * m + r] = 1
    for jr in range(1, n):
        if can_accept(s, seat, (seat + jr) % n):
            out[m * m + jr] = 1
    out[m * m + n] = 1


# ---------------------------------------------------------------------------- ticks
@njit(cache=True)
def resolve_action(s, seat, action):
    """Carry out one action at its place in the order; False when it has become void."""
    n = s.n
    m = 3 * n
    if action == 0:
        return True
    if action <= m * m:
        g = to_absolute_piece((action - 1) // m, seat, n)
        r = to_absolute_piece((action - 1) % m, seat, n)
        # B4a: addressed to r's holder as seen at the start of the tick; if r moved since, stale.
        if s.holder[g] != seat or s.holder[r] == seat or ((s.moved >> r) & 1) != 0:
            return False
        s.prop_give[seat] = g
        s.prop_recv[seat] = r
        s.prop_to[seat] = s.holder[r]
        memory.record_proposal(s, seat, g, r, s.holder[r])
        return True
    if action < m * m + n:
        j = (seat + action - m * m) % n
        if not can_accept(s, seat, j):
            return False
        if s.prop_give[j] != s.seen_give[j] or s.prop_recv[j] != s.seen_recv[j]:
            return False
        g = s.prop_give[j]
        r = s.prop_recv[j]
        s.holder[g] = seat
        s.holder[r] = j
        s.moved |= (1 << g) | (1 << r)
        memory.record_trade(s, j, seat, g, r)
        for q in range(n):
            if s.prop_give[q] != NONE and not proposal_valid(s, q):
                s.prop_give[q] = NONE
                s.prop_recv[q] = NONE
                s.prop_to[q] = NONE
        return True
    negotiation.call_round_end(s, seat)
    return True


@njit(cache=True)
def game_ends(s):
    """B7, B7a: after a scored round, some total reached the goal or the round cap is reached."""
    return s.totals[: s.n].max() >= s.points_to_win or s.round >= s.round_cap


@njit(cache=True)
def step(s, actions, rewards_out, voids):
    """Resolve one tick of joint actions; returns True when the game is over."""
    n = s.n
    for p in range(n):
        s.seen_give[p] = s.prop_give[p]
        s.seen_recv[p] = s.prop_recv[p]
    s.moved = 0
    if negotiation.play_tick(s, actions, rewards_out, voids, rules.resolve_action):
        scale = float(s.points_to_win)
        negotiation.close_round(s, scale, rewards_out, rules.score_round_into, rules.game_ends, rules.deal_round)
    return s.game_over
