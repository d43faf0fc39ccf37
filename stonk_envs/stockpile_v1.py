"""Stockpile as a PettingZoo environment (AEC-native, one seat decides per step).

``env(**config)`` is the AEC env with PettingZoo's standard wrappers, ``raw_env`` the AEC env
without them, ``parallel_env`` the Parallel env, in which only the deciding seat's action is
used. ``config`` takes the fields of :class:`StockpileConfig`. ``move_price`` and
``final_scores`` are the pure rule functions of price movement and the end score.
"""

import stonk_envs.render  # noqa: F401  (registers the pictures of render_mode "rgb_array" and "human")
from stonk_envs.core.adapter import env_constructors
from stonk_envs.games.stockpile import Stockpile, StockpileConfig, final_scores, move_price

GAME, CONFIG = Stockpile, StockpileConfig
"""The ``Game`` subclass and the config dataclass behind the envs."""

env, raw_env, parallel_env = env_constructors(GAME, CONFIG)

__all__ = ["StockpileConfig", "env", "final_scores", "move_price", "parallel_env", "raw_env"]
