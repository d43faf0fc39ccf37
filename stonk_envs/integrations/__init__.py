"""Adapters to RL libraries beyond PettingZoo's own: Ray RLlib (``rllib``, the ``rllib`` extra)."""
