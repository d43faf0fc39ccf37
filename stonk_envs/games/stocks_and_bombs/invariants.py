"""What Stocks & Bombs conserves, checked by the soak on a batch of state records: every piece has
one holder among the seats; the targets are a permutation of the colours (B2); totals are never
negative (B6b)."""

from __future__ import annotations

import numpy as np


def broken(states: np.ndarray, config) -> np.ndarray:
    """Which records (shape (N,)) have a piece without a holder among the seats, targets that are not a
    permutation of the colours (B2), or a negative total (B6b)."""
    n = config.num_players
    holders = states["holder"][:, : 3 * n]
    targets = np.sort(states["target"][:, :n], axis=1)
    unheld = ((holders < 0) | (holders >= n)).any(axis=1)
    bad_targets = (targets != np.arange(n)).any(axis=1)
    return unheld | bad_targets | (states["totals"][:, :n] < 0).any(axis=1)


def max_steps(config) -> int:
    """The most steps a game may last: every round to its tick cap."""
    return config.round_cap * config.tick_cap
