"""Players: everything that maps observations and action masks to legal actions."""

from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.policies.players import heuristic_player, make_player

__all__ = ["Policy", "RandomPolicy", "heuristic_player", "make_player"]
