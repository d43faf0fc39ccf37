"""The contract between a game's compiled rules core and the shared PettingZoo adapter.

A game's state is one record of a numpy structured dtype (struct of arrays). The adapter
holds a record array of shape (1,) and always passes game index 0; the batched engine holds
shape (N,) and loops over the same compiled functions. Each game subclasses :class:`Game`
and fills in the abstract methods, most of which are one call into its compiled core.
"""

from __future__ import annotations

import abc
from typing import ClassVar

import numpy as np

NO_ACTION = -1
"""Entry of the joint action array for a seat whose action is not used this step."""


class Game(abc.ABC):
    """One game's rules, as the shared adapter sees them."""

    name: ClassVar[str]
    """Registry name, e.g. ``"stocks_and_bombs"``; the env id is ``stonk_envs/<name>-v0``."""
    simultaneous: ClassVar[bool]
    """True when every seat acts in every step (ticks); False for one actor at a time."""
    state_dtype: np.dtype
    """The structured dtype of one game's state record."""

    def __init__(self, config):
        self.config = config
        self.num_players: int = config.num_players

    # sizes -----------------------------------------------------------------
    @property
    @abc.abstractmethod
    def num_actions(self) -> int:
        """Size of the ``Discrete`` action space, the same for every seat."""

    @property
    @abc.abstractmethod
    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-entry lower and upper bounds (float32 vectors) of an observation."""

    @property
    @abc.abstractmethod
    def state_size(self) -> int:
        """Length of the flat vector returned by :meth:`state_vector`."""

    # compiled-core hooks -----------------------------------------------------
    @abc.abstractmethod
    def reset(self, states: np.ndarray, i: int, seed: int) -> None:
        """Start a new game in ``states[i]``, seeding its random stream with ``seed``."""

    @abc.abstractmethod
    def actors(self, states: np.ndarray, i: int, out: np.ndarray) -> None:
        """Write into the bool vector ``out`` which seats act in the next step."""

    @abc.abstractmethod
    def legal_mask(self, states: np.ndarray, i: int, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s action mask (int8, all zero when it may not act) into ``out``."""

    @abc.abstractmethod
    def observe(self, states: np.ndarray, i: int, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s observation (float32, from its own seat) into ``out``."""

    @abc.abstractmethod
    def step(
        self,
        states: np.ndarray,
        i: int,
        actions: np.ndarray,
        rewards: np.ndarray,
        voids: np.ndarray,
    ) -> bool:
        """Apply one joint action (int64 per seat, ``NO_ACTION`` where unused).

        Writes each seat's reward into ``rewards`` and a void code of
        :mod:`stonk_envs.core.negotiation` into ``voids``; returns True when the game is over.
        Every used action must be legal under :meth:`legal_mask`.
        """

    @abc.abstractmethod
    def state_vector(self, states: np.ndarray, i: int, out: np.ndarray) -> None:
        """Write the full state, hidden cards included, as a flat float32 vector."""

    @abc.abstractmethod
    def scores(self, states: np.ndarray, i: int) -> np.ndarray:
        """Each seat's game score now (points, or net worth in $K)."""

    # text ------------------------------------------------------------------
    @abc.abstractmethod
    def describe_action(self, seat: int, action: int) -> str:
        """A short human-readable name of ``action`` taken from ``seat``."""

    @abc.abstractmethod
    def why_illegal(self, states: np.ndarray, i: int, seat: int, action: int) -> str:
        """Why ``action`` is illegal for ``seat`` now (called only for illegal actions)."""

    @abc.abstractmethod
    def render(self, states: np.ndarray, i: int, seat: int | None) -> str:
        """The table as ``seat`` sees it, or everything when ``seat`` is None."""
