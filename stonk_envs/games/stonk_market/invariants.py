"""What Stonk Market conserves, checked by the soak on a batch of state records: the hands and the
Exchange card hold each suit's cards exactly (M1a)."""

from __future__ import annotations

import numpy as np

from stonk_envs.games.stonk_market.config import SUIT_COUNTS


def broken(states: np.ndarray, config) -> np.ndarray:
    """Which records (shape (N,)) do not hold each suit's cards exactly in the hands and the Exchange card (M1a)."""
    n = config.num_players
    held = states["hand"][:, :n].astype(np.int64).sum(axis=1)
    held[np.arange(len(states)), states["exchange"]] += 1
    return (held != np.array(SUIT_COUNTS)).any(axis=1) | (states["hand"][:, :n] < 0).any(axis=(1, 2))


def max_steps(config) -> int:
    """The most steps a game may last: every round to its tick cap."""
    return config.num_rounds * config.tick_cap
