"""Prioritised fictitious self-play: the learner's results against past members, and the draw they set."""

from __future__ import annotations

import numpy as np


class PastResults:
    """The learner's recent win rate against each snapshot or exploiter, and the ``past`` draw it sets.

    Each finished game moves the win rate of every past member in it towards the learner's result
    there (the share of its seats that scored highest, ties included) by ``RATE``; a member starts
    at the equal share ``1 / num_players``. With ``power`` p > 0 a ``past`` seat draws member k with
    weight ``(1 - x_k) ** p`` (prioritised fictitious self-play); with 0, evenly.
    """

    RATE = 0.02
    """Weight of one game's result: the rate follows about the last 50 games of each member."""

    def __init__(self, power: float, num_players: int):
        self.power = power
        self.start = 1.0 / num_players
        self.win_rate: dict[int, float] = {}

    def record(self, members: np.ndarray, learner_won: float) -> None:
        """One finished game: the past members in it and the learner's result (nothing to keep at power 0)."""
        if not self.power:
            return
        for step in np.unique(members).tolist():
            x = self.win_rate.get(step, self.start)
            self.win_rate[step] = x + self.RATE * (learner_won - x)

    def probabilities(self, steps: list[int]) -> np.ndarray | None:
        """Draw probabilities of ``steps`` (``None``: evenly)."""
        if self.power == 0 or not steps:
            return None
        weights = np.array([(1.0 - self.win_rate.get(step, self.start)) ** self.power for step in steps])
        total = weights.sum()
        return weights / total if total > 0 else None

    def forget(self, kept: list[int]) -> None:
        """Drop the results of members no longer kept."""
        self.win_rate = {step: x for step, x in self.win_rate.items() if step in kept}
