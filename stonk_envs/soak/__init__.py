"""Soak tests in the package: many random games, every step checked (``stonk-envs soak``)."""
