"""Reward modes shared by the three games; every mode is zero-sum.

- ``win_loss`` (default): paid once at the end of the game. Each of the w winners gets
  (n - w) / (w (n - 1)) and each loser -1 / (n - 1), so a sole winner gets +1 and an n-way
  tie gives everyone 0.
- ``score_diff``: paid once at the end, (score - mean score) / scale.
- ``round_diff``: paid as each round is scored, (round gain - mean round gain) / scale. Over a
  game it sums to ``score_diff``.
- ``round_diff_close``: ``round_diff``, except for a last round that ended in its first tick (a
  call before anyone could trade, which a leader makes to end the game on its lead): that round
  pays the game's ``win_loss`` result, times a weight (``close_weight``, 1 by default), instead
  of its margin. Games without ticks never close so.
"""

import numpy as np
from numba import njit

REWARD_MODES = ("win_loss", "score_diff", "round_diff", "round_diff_close")
WIN_LOSS, SCORE_DIFF, ROUND_DIFF, ROUND_DIFF_CLOSE = 0, 1, 2, 3


def reward_mode_code(name: str) -> int:
    """The compiled code of a reward mode name; raises ``ValueError`` for an unknown one."""
    if name not in REWARD_MODES:
        raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {name!r}")
    return REWARD_MODES.index(name)


@njit(cache=True)
def win_loss(scores, n, out):
    """Write the zero-sum placement reward of ``scores[:n]`` into ``out[:n]``."""
    best = scores[0]
    for p in range(1, n):
        if scores[p] > best:
            best = scores[p]
    winners = 0
    for p in range(n):
        if scores[p] == best:
            winners += 1
    for p in range(n):
        if winners == n:
            out[p] = 0.0
        elif scores[p] == best:
            out[p] = (n - winners) / (winners * (n - 1.0))
        else:
            out[p] = -1.0 / (n - 1.0)


@njit(cache=True)
def centred(values, n, scale, out):
    """Write (value - mean) / scale of ``values[:n]`` into ``out[:n]``; the sum is zero."""
    mean = 0.0
    for p in range(n):
        mean += values[p]
    mean /= n
    for p in range(n):
        out[p] = (values[p] - mean) / scale


@njit(cache=True)
def pays_result(mode, last, first_tick):
    """Whether the scored round is paid by the game's result: ``round_diff_close``'s closed last round."""
    return mode == ROUND_DIFF_CLOSE and last and first_tick


@njit(cache=True)
def round_end(mode, gains, n, scale, out, result_due=False):
    """Add the reward due when a round is scored, given each seat's round gain.

    ``result_due``: :func:`pays_result` of the round; its margin is then not paid.
    """
    if mode in (ROUND_DIFF, ROUND_DIFF_CLOSE) and not result_due:
        mean = 0.0
        for p in range(n):
            mean += gains[p]
        mean /= n
        for p in range(n):
            out[p] += (gains[p] - mean) / scale


@njit(cache=True)
def game_end(mode, scores, n, scale, out, result_due=False, result_weight=1.0):
    """Add the reward due when the game ends, given each seat's final score.

    ``result_due``: :func:`pays_result` of the last round; the ``win_loss`` result is then paid,
    times ``result_weight``.
    """
    due = np.zeros(n)
    if mode == WIN_LOSS or result_due:
        win_loss(scores, n, due)
    elif mode == SCORE_DIFF:
        centred(scores, n, scale, due)
    weight = result_weight if result_due else 1.0
    for p in range(n):
        out[p] += weight * due[p]
