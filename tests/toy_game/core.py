"""The compiled rules core of Two Cards: one record per game, the functions the engine dispatches to.

The package's compiled entry points (:mod:`stonk_envs.core.dispatch`, the engine's kernels)
cache their machine code for this record type in the package's cache folder, which is keyed by
the package's sources only: after an edit here, delete ``stonk_envs/__pycache__/numba-*``.
"""

import numpy as np
from numba import njit

from stonk_envs.core import rng

MAX_PLAYERS = 3
NUM_CARDS = 5
PASS, BET = 0, 1
NUM_ACTIONS = 2
NOT_YET = -1

STATE_DTYPE = np.dtype(
    [
        ("rng", np.uint64),
        ("n", np.int32),
        ("turn", np.int32),
        ("game_over", np.bool_),
        ("card", np.int8, (MAX_PLAYERS,)),
        ("move", np.int8, (MAX_PLAYERS,)),
        ("chips", np.int32, (MAX_PLAYERS,)),
    ]
)


@njit
def observation_size(n):
    """Own card one-hot, then per seat from one's own: bet, acted."""
    return NUM_CARDS + 2 * n


@njit
def init(s, seed, n):
    s.rng = np.uint64(seed)
    s.n = n
    s.turn = 0
    s.game_over = False
    deck = np.arange(NUM_CARDS)
    rng.shuffle(s, deck, NUM_CARDS)
    for p in range(MAX_PLAYERS):
        s.card[p] = deck[p] if p < n else NOT_YET
        s.move[p] = NOT_YET
        s.chips[p] = 0


@njit
def actors(s, out):
    out[:] = False
    if not s.game_over:
        out[s.turn] = True


@njit
def legal_mask(s, seat, out):
    out[:] = 0
    if not s.game_over and seat == s.turn:
        out[PASS] = 1
        out[BET] = 1


@njit
def observe(s, seat, out):
    out[:] = 0.0
    out[s.card[seat]] = 1.0
    for k in range(s.n):
        q = (seat + k) % s.n
        out[NUM_CARDS + 2 * k] = 1.0 if s.move[q] == BET else 0.0
        out[NUM_CARDS + 2 * k + 1] = 1.0 if s.move[q] != NOT_YET else 0.0


@njit
def step(s, actions, rewards, voids):
    rewards[:] = 0.0
    voids[:] = 0
    s.move[s.turn] = actions[s.turn]
    s.turn += 1
    if s.turn < s.n:
        return False
    best = -1
    pot = 0
    for p in range(s.n):
        if s.move[p] == BET:
            pot += 1
            if best < 0 or s.card[p] > s.card[best]:
                best = p
    for p in range(s.n):
        if s.move[p] == BET:
            s.chips[p] = (pot if p == best else 0) - 1
            rewards[p] = s.chips[p]
    s.turn = 0
    s.game_over = True
    return True


@njit
def state_vector(s, out):
    for p in range(s.n):
        out[p] = s.card[p]
        out[s.n + p] = s.move[p]
    out[2 * s.n] = s.turn
