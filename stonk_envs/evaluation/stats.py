"""Confidence intervals for win rates and win shares."""

from __future__ import annotations

import numpy as np
from scipy.stats import binomtest, norm


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion; (0, 1) when there are no trials."""
    if trials == 0:
        return 0.0, 1.0
    interval = binomtest(int(successes), int(trials)).proportion_ci(confidence_level=confidence, method="wilson")
    return float(interval.low), float(interval.high)


def share_interval(share: float, games: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson interval of a mean win share over ``games`` games.

    A game's share lies in [0, 1], so its variance is at most ``p (1 - p)`` for mean ``p``: the
    binomial score interval at the observed mean is valid for it, and conservative when games tie.
    """
    z = float(norm.ppf(0.5 + confidence / 2))
    denominator = 1 + z * z / games
    centre = (share + z * z / (2 * games)) / denominator
    half = z * np.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, float(centre - half)), min(1.0, float(centre + half))


def share_summary(scores: np.ndarray, seats: np.ndarray) -> dict:
    """The figures of the player in ``seats`` (one per game) from the games' ``scores``: its win share (a w-way
    tie at the top counts 1/w) with the 95% interval, its win rate (shared wins count) with Wilson's, and more."""
    games, num_players = scores.shape
    rows = np.arange(games)
    mine = scores[rows, seats]
    top = scores.max(axis=1)
    at_top = (scores == top[:, None]).sum(axis=1)
    won = mine == top
    share = np.where(won, 1.0 / at_top, 0.0)
    win_share = float(share.mean())
    low, high = share_interval(win_share, games)
    wins, shared_wins = int((won & (at_top == 1)).sum()), int((won & (at_top > 1)).sum())
    ci_low, ci_high = wilson_interval(wins + shared_wins, games)
    equal = 1 / num_players
    return {
        "games": games,
        "win_share": win_share,
        "share_ci_low": low,
        "share_ci_high": high,
        "equal_share": equal,
        "exploitable": low > equal,
        "wins": wins,
        "shared_wins": shared_wins,
        "win_rate": (wins + shared_wins) / games,
        "ci_low": ci_low,
        "ci_high": ci_high,
        "mean_score": float(mine.mean()),
        "seat_win_shares": [float(share[seats == seat].mean()) for seat in range(num_players)],
    }
