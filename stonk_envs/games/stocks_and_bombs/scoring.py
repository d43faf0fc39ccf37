"""Scoring a hand-entered Stocks & Bombs table."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from stonk_envs.games.stocks_and_bombs import core


def score_round(holdings: Sequence[Sequence[tuple[int, int]]], targets: Sequence[int]) -> list[int]:
    """Each player's round score before the STOP penalty.

    ``holdings[p]`` lists the ``(colour, size)`` pieces player p holds, with colours 0..n-1
    (seat p owns colour p) and sizes 1 (Small), 2 (Medium) or 3 (Large); every piece of the
    3n must appear exactly once. ``targets[p]`` is p's target colour. A score may be
    negative; the running total's floor at 0 and the STOP penalty are applied by the game.

    >>> # Blue (0) targets Yellow (1): the example of docs/stocks_and_bombs.md scores 1 for Blue.
    >>> score_round([[(1, 1), (1, 2), (2, 3)], [(3, 1), (0, 2), (3, 3)],
    ...              [(0, 1), (2, 2), (1, 3)], [(2, 1), (0, 3), (3, 2)]], [1, 0, 2, 3])[0]
    1
    """
    n = len(holdings)
    if not core.MAX_PLAYERS >= n >= 1 or len(targets) != n:
        raise ValueError(f"need 1..{core.MAX_PLAYERS} players and one target each, got {n} and {len(targets)}")
    holder = np.full(core.MAX_PIECES, core.NONE, np.int8)
    for p, pieces in enumerate(holdings):
        for colour, size in pieces:
            if not (0 <= colour < n and 1 <= size <= 3):
                raise ValueError(f"player {p} holds ({colour}, {size}): colour must be 0..{n - 1}, size 1..3")
            piece = colour * 3 + size - 1
            if holder[piece] != core.NONE:
                raise ValueError(f"piece (colour {colour}, size {size}) is held twice")
            holder[piece] = p
    missing = [(c, z + 1) for c in range(n) for z in range(3) if holder[c * 3 + z] == core.NONE]
    if missing:
        raise ValueError(f"every piece must be held by someone; missing {missing}")
    for p, t in enumerate(targets):
        if not 0 <= t < n:
            raise ValueError(f"target of player {p} must be a colour 0..{n - 1}, got {t}")
    out = np.zeros(n, np.int32)
    core.round_scores(holder, np.asarray(targets, np.int8), n, out)
    return [int(x) for x in out]
