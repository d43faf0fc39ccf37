"""What Two Cards conserves: the dealt cards are distinct, and the chips won and lost add up to zero."""

from __future__ import annotations

import numpy as np


def broken(states: np.ndarray, config) -> np.ndarray:
    n = config.num_players
    cards = np.sort(states["card"][:, :n], axis=1)
    repeated = (np.diff(cards, axis=1) == 0).any(axis=1)
    return repeated | (states["chips"][:, :n].sum(axis=1) != 0)


def max_steps(config) -> int:
    return config.num_players
