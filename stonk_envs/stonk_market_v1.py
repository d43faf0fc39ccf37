"""Stonk Market as a PettingZoo environment (Parallel-native; AEC by the usual conversion).

``env(**config)`` is the AEC env with PettingZoo's standard wrappers, ``raw_env`` the AEC env
without them, ``parallel_env`` the Parallel env. ``config`` takes the fields of
:class:`StonkMarketConfig`. ``score_round`` and ``is_all_majorities`` score hand-entered tables.
"""

import stonk_envs.render  # noqa: F401  (registers the pictures of render_mode "rgb_array" and "human")
from stonk_envs.core.adapter import env_constructors
from stonk_envs.games.stonk_market import (
    SUIT_COUNTS,
    SUIT_NAMES,
    StonkMarket,
    StonkMarketConfig,
    is_all_majorities,
    score_round,
)

GAME, CONFIG = StonkMarket, StonkMarketConfig
"""The ``Game`` subclass and the config dataclass behind the envs."""

env, raw_env, parallel_env = env_constructors(GAME, CONFIG)

__all__ = [
    "SUIT_COUNTS",
    "SUIT_NAMES",
    "StonkMarketConfig",
    "env",
    "is_all_majorities",
    "parallel_env",
    "raw_env",
    "score_round",
]
