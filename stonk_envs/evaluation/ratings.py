"""Ratings of a league of players from game results, with OpenSkill's Plackett-Luce model."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from openskill.models import PlackettLuce


@dataclass(frozen=True)
class Rating:
    """A player's skill estimate: mean, uncertainty and the conservative ``mu - 3 sigma``."""

    mu: float
    sigma: float
    ordinal: float


def rate_games(num_entries: int, seatings: np.ndarray, scores: np.ndarray) -> list[Rating]:
    """Rate entries 0..num_entries-1 from games played in order.

    ``seatings[g, s]`` is the entry in seat s of game g and ``scores[g, s]`` its final score
    (higher is better; equal scores are a tie). Every entry plays at most once per game.
    """
    model = PlackettLuce()
    ratings = [model.rating(name=str(e)) for e in range(num_entries)]
    for seating, game_scores in zip(seatings, scores, strict=True):
        teams = [[ratings[e]] for e in seating]
        updated = model.rate(teams, scores=[float(x) for x in game_scores])
        for e, team in zip(seating, updated, strict=True):
            ratings[e] = team[0]
    return [Rating(float(r.mu), float(r.sigma), float(r.ordinal())) for r in ratings]
