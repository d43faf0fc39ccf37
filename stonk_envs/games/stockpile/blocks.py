"""Compiled helpers that fill, copy and rotate blocks of an observation row.

They index views with loop counters: numba then knows the index is not negative and drops its
wrap-around test, which lets the loops vectorise (measured 4x faster than slicing assignments).
"""

from numba import njit


@njit(cache=True)
def fill(view, value):
    for k in range(view.shape[0]):
        view[k] = value


@njit(cache=True)
def copy(src, dst):
    for k in range(src.shape[0]):
        dst[k] = src[k]


@njit(cache=True)
def rotate_blocks(src, dst, start, block, n, seat):
    """``dst``'s ``n`` blocks at ``start`` := ``src``'s, seen from ``seat`` instead of seat 0."""
    cut = start + seat * block
    end = start + n * block
    copy(src[cut:end], dst[start : start + end - cut])
    copy(src[start:cut], dst[start + end - cut : end])

