"""Game-agnostic compiled helpers over batch buffers: action checks and random legal actions."""

import numpy as np
from numba import njit

from stonk_envs.core import rng

RNG_DTYPE = np.dtype([("rng", np.uint64)])
"""A one-field record holding a splitmix64 stream, for :mod:`stonk_envs.core.rng`."""


@njit(cache=True)
def first_illegal(actions, masks, actors, active):
    """Flat index ``i * P + p`` of the first acting seat whose action is illegal, or -1."""
    num_envs, num_seats = actions.shape
    num_actions = masks.shape[2]
    for i in range(num_envs):
        if not active[i]:
            continue
        for p in range(num_seats):
            if actors[i, p]:
                a = actions[i, p]
                if a < 0 or a >= num_actions or masks[i, p, a] == 0:
                    return i * num_seats + p
    return -1


@njit(cache=True)
def random_actions(stream, masks, out):
    """Write a uniformly random legal action of every seat into ``out`` (-1 where none is legal).

    ``stream`` is a record of :data:`RNG_DTYPE`; ``masks`` has shape (B, P, A), ``out`` (B, P).
    """
    num_envs, num_seats, num_actions = masks.shape
    for i in range(num_envs):
        for p in range(num_seats):
            row = masks[i, p]
            count = 0
            for a in range(num_actions):
                count += row[a]
            if count == 0:
                out[i, p] = -1
                continue
            k = rng.below(stream, count)
            for a in range(num_actions):
                if row[a]:
                    if k == 0:
                        out[i, p] = a
                        break
                    k -= 1
