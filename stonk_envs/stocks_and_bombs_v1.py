"""Stocks & Bombs as a PettingZoo environment (Parallel-native; AEC by the usual conversion).

``env(**config)`` is the AEC env with PettingZoo's standard wrappers, ``raw_env`` the AEC env
without them, ``parallel_env`` the Parallel env. ``config`` takes the fields of
:class:`StocksAndBombsConfig`.
"""

import stonk_envs.render  # noqa: F401  (registers the pictures of render_mode "rgb_array" and "human")
from stonk_envs.core.adapter import env_constructors
from stonk_envs.games.stocks_and_bombs import StocksAndBombs, StocksAndBombsConfig, score_round

GAME, CONFIG = StocksAndBombs, StocksAndBombsConfig
"""The ``Game`` subclass and the config dataclass behind the envs."""

env, raw_env, parallel_env = env_constructors(GAME, CONFIG)

__all__ = ["StocksAndBombsConfig", "env", "parallel_env", "raw_env", "score_round"]
