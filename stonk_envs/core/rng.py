"""Per-game random stream kept inside the state record (splitmix64).

Every chance event of a game draws from the ``rng`` field of its own state record. The
environment seeds that field from its ``numpy.random.Generator`` at reset, so one game and a
batch of games replay identically from the same seeds, and compiled code needs no global
random state.
"""

import numpy as np
from numba import njit

_GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_TWO_POW_MINUS_53 = 1.0 / 9007199254740992.0


RNG_PARTS = 4
"""The 16-bit parts :func:`write_rng_parts` splits the 64-bit stream into."""


@njit(cache=True)
def write_rng_parts(rng, out):
    """Write the stream ``rng`` as :data:`RNG_PARTS` 16-bit parts into ``out[:4]``: exact in a
    float32 state vector, where the whole 64-bit value would be rounded."""
    for part in range(RNG_PARTS):
        out[part] = (rng >> np.uint64(16 * part)) & np.uint64(0xFFFF)


@njit(cache=True)
def next_u64(s):
    """Advance the record's stream and return 64 random bits."""
    z = s.rng + _GOLDEN_GAMMA
    s.rng = z
    z = (z ^ (z >> np.uint64(30))) * _MIX_1
    z = (z ^ (z >> np.uint64(27))) * _MIX_2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def uniform(s):
    """A float drawn uniformly from [0, 1)."""
    return float(next_u64(s) >> np.uint64(11)) * _TWO_POW_MINUS_53


@njit(cache=True)
def below(s, n):
    """An integer drawn uniformly from 0..n-1."""
    return int(uniform(s) * n)


@njit(cache=True)
def shuffle(s, values, length):
    """Shuffle ``values[:length]`` in place (Fisher-Yates)."""
    for k in range(length - 1, 0, -1):
        j = below(s, k + 1)
        tmp = values[k]
        values[k] = values[j]
        values[j] = tmp


@njit(cache=True)
def permutation(s, out, n):
    """Write a uniformly random permutation of 0..n-1 into ``out[:n]``."""
    for k in range(n):
        out[k] = k
    shuffle(s, out, n)
