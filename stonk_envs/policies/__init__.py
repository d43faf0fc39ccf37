"""Players: everything that maps observations and action masks to legal actions."""

from stonk_envs.policies.base import Policy, RandomPolicy
from stonk_envs.policies.players import HEURISTICS, heuristic_player, make_player

__all__ = ["HEURISTICS", "Policy", "RandomPolicy", "heuristic_player", "make_player"]
