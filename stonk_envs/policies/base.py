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
    observation_size: int | None = None
    """For a saved policy: the observation size it was trained on (None: not checked)."""
    reads_prefix: bool = False
    """For a saved policy: trained with ``memory=False``, so it can read the memory-free start
    of a longer observation (each game appends its public memory after that layout)."""

    def fit_observations(self, observations: np.ndarray) -> np.ndarray:
        """``observations`` as a saved policy reads them, or a ``ValueError`` naming the mismatch."""
        width = observations.shape[-1]
        if self.observation_size is None or width == self.observation_size:
            return observations
        if self.reads_prefix and width > self.observation_size:
            return observations[..., : self.observation_size]
        trained = "without" if self.reads_prefix else "with"
        raise ValueError(
            f"{self.name} was trained on observations of {self.observation_size} entries ({trained} the "
            f"public memory) and cannot read this game's {width}: play it with the game options it was "
            "trained with (its file's env_config)"
        )

    @abc.abstractmethod
    def act(self, observations: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Return int64 actions of shape (B,), each legal under its mask."""


class RandomPolicy(Policy):
    """Uniform over the legal actions."""

    name = "random"

    def act(self, observations, masks, rng):
        weights = rng.random(masks.shape) * (masks > 0)
        return weights.argmax(axis=1).astype(np.int64)


class CompiledPlayer(Policy):
    """A player whose whole batch is decided by one compiled kernel ``kernel(obs, masks, n, params, out)``.

    A subclass sets ``kernel`` (as a ``staticmethod``) and, in ``__init__``, ``n``, ``obs_size``,
    ``num_actions`` and ``params`` (a tuple of the kernel's constants: numbers, tuples, arrays;
    among them the starts of the observation sections it reads, from its game's table).
    """

    kernel = None
    n: int
    obs_size: int
    num_actions: int
    params: tuple[float, ...]

    def act(self, observations, masks, rng):
        # the kernel reads the first obs_size entries; a game's public memory may follow them
        if observations.ndim != 2 or observations.shape[1] < self.obs_size or masks.shape[1:] != (self.num_actions,):
            raise ValueError(
                f"expected observations of size {self.obs_size} and masks of size {self.num_actions} "
                f"for {self.n} players, got {observations.shape} and {masks.shape}"
            )
        out = np.zeros(len(observations), np.int64)
        self.kernel(np.ascontiguousarray(observations), np.ascontiguousarray(masks), self.n, self.params, out)
        return out
