"""Game-agnostic compiled helpers over batch buffers: action checks and random legal actions."""

import numpy as np
from numba import njit, prange

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
def _random_legal(stream, row):
    """A uniformly random index of a non-zero entry of ``row``, or -1 when there is none."""
    count = 0
    for a in range(row.shape[0]):
        count += row[a]
    if count == 0:
        return -1
    k = rng.below(stream, count)
    for a in range(row.shape[0]):
        if row[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def random_actions(stream, masks, out):
    """Write a uniformly random legal action of every seat into ``out`` (-1 where none is legal).

    ``stream`` is a record of :data:`RNG_DTYPE`; ``masks`` has shape (B, P, A), ``out`` (B, P).
    """
    for i in range(masks.shape[0]):
        for p in range(masks.shape[1]):
            out[i, p] = _random_legal(stream, masks[i, p])


@njit(cache=True)
def _actor_actions(streams, masks, actors, out, i):
    for p in range(masks.shape[1]):
        out[i, p] = _random_legal(streams[i], masks[i, p]) if actors[i, p] else -1


@njit(cache=True)
def actor_actions_serial(streams, masks, actors, out):
    """A uniformly random legal action for every acting seat of game ``i`` from ``streams[i]``
    (-1 for the seats that do not act)."""
    for i in range(masks.shape[0]):
        _actor_actions(streams, masks, actors, out, i)


@njit(cache=True, parallel=True)
def actor_actions_parallel(streams, masks, actors, out):
    """:func:`actor_actions_serial` over threads."""
    for i in prange(masks.shape[0]):
        _actor_actions(streams, masks, actors, out, np.int64(i))  # signed, as in the serial kernel: one compile
