"""Players: everything that maps observations and action masks to legal actions."""

from stonk_envs.policies.base import Policy, RandomPolicy

__all__ = ["Policy", "RandomPolicy"]
