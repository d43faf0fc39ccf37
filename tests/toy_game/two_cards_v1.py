"""Two Cards as a PettingZoo environment: ``env``, ``raw_env`` and ``parallel_env``, as the package's games."""

import stonk_envs.render  # noqa: F401  (registers the pictures of render_mode "rgb_array" and "human")
from stonk_envs.core.adapter import env_constructors
from tests.toy_game.game import TwoCards, TwoCardsConfig

GAME, CONFIG = TwoCards, TwoCardsConfig

env, raw_env, parallel_env = env_constructors(GAME, CONFIG)
