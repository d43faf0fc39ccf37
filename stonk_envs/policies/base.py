"""The one interface for everything that plays: random, heuristic, SB3 and torch players."""

from __future__ import annotations

import abc

import numpy as np


class Policy(abc.ABC):
    """Maps a batch of observations and action masks to one legal action each.

    ``observations`` is float32 of shape (B, obs_size) and ``masks`` int8 of shape
    (B, num_actions), exactly as the env's ``{"observation", "action_mask"}`` gives them for
    B seats (of one game or of many). Every seat in the batch must have a legal action.
    """

    name: str = "policy"

    @abc.abstractmethod
    def act(self, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Return int64 actions of shape (B,), each legal under its mask."""


class RandomPolicy(Policy):
    """Uniform over the legal actions."""

    name = "random"

    def act(self, observations, masks, rng):
        weights = rng.random(masks.shape) * (masks > 0)
        return weights.argmax(axis=1).astype(np.int64)
