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
