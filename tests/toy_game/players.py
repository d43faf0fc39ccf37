"""Two Cards' rule-based player: bet with a high card."""

from __future__ import annotations

import numpy as np

from stonk_envs.policies.base import Policy
from tests.toy_game import core


class HighCard(Policy):
    """Bets with one of the two highest cards, passes otherwise."""

    name = "heuristic"

    def __init__(self, num_players: int):
        self.num_players = num_players

    def act(self, observations, masks, rng):
        high = observations[:, core.NUM_CARDS - 2 : core.NUM_CARDS].any(axis=1)
        return np.where(high & (masks[:, core.BET] > 0), core.BET, core.PASS).astype(np.int64)
