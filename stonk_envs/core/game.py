"""The contract between a game's compiled rules core and the shared PettingZoo adapter.

A game's state is one record of a numpy structured dtype (struct of arrays). The adapter
holds a record array of shape (1,) and always passes game index 0; the batched engine holds
shape (N,) and loops over the same compiled functions.

A compiled game supplies its core module (``STATE_DTYPE`` and the compiled ``init``,
``actors``, ``legal_mask``, ``observe``, ``step``, ``state_vector``, and optionally
``observe_all``), the arguments its ``init`` takes after the seed, its sizes, its scores and
its text; the base class runs the core through :mod:`stonk_envs.core.dispatch`. A game
written in plain Python (a test stub, say) sets ``state_dtype`` and overrides the core hooks
instead.
"""

from __future__ import annotations

import abc
from types import ModuleType
from typing import ClassVar

import numpy as np

from stonk_envs.core import dispatch

NO_ACTION = -1
"""Entry of the joint action array for a seat whose action is not used this step."""


class Game(abc.ABC):
    """One game's rules, as the shared adapter and the batched engine see them."""

    name: ClassVar[str]
    """Registry name, e.g. ``"stocks_and_bombs"``; the env id is ``stonk_envs/<name>-v1``."""
    simultaneous: ClassVar[bool]
    """True when every seat acts in every step (ticks); False for one actor at a time."""
    core: ClassVar[ModuleType]
    """The compiled rules core; its ``STATE_DTYPE`` is the state record's dtype."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "core" in cls.__dict__:
            dispatch.register_core(cls.core)

    num_actions: int
    """Size of the ``Discrete`` action space, the same for every seat (set by the subclass)."""
    observation_bounds: tuple[np.ndarray, np.ndarray]
    """Per-entry lower and upper bounds (float32 vectors) of an observation (set by the subclass)."""
    state_size: int
    """Length of the flat vector returned by :meth:`state_vector` (set by the subclass)."""
    pass_action: int = 0
    """The single legal no-op that the Parallel env offers a live seat that does not act this
    step (its action is ignored); a turn-based game names its closest "pass" action."""

    def __init__(self, config):
        self.config = config
        self.num_players: int = config.num_players

    @property
    def state_dtype(self) -> np.dtype:
        """The structured dtype of one game's state record."""
        return self.core.STATE_DTYPE

    def init_args(self) -> tuple:
        """The arguments the core's ``init`` takes after the seed, from the config."""
        return ()

    # what each game supplies ------------------------------------------------
    @abc.abstractmethod
    def scores(self, states: np.ndarray, i: int) -> np.ndarray:
        """Each seat's game score now (points, or net worth in $K)."""

    @abc.abstractmethod
    def describe_action(self, seat: int, action: int) -> str:
        """A short human-readable name of ``action`` taken from ``seat``."""

    def name_action(self, states: np.ndarray, i: int, seat: int, action: int, public: bool = False) -> str:
        """``action`` of ``seat`` named in words for the table of ``states[i]`` (the cards it moves, say).

        ``public``: as the other seats may know it, without the hidden cards it moves.
        """
        return self.describe_action(seat, action)

    @abc.abstractmethod
    def why_illegal(self, states: np.ndarray, i: int, seat: int, action: int) -> str:
        """Why ``action`` is illegal for ``seat`` now (called only for illegal actions)."""

    @abc.abstractmethod
    def render(self, states: np.ndarray, i: int, seat: int | None) -> str:
        """The table as ``seat`` sees it, or everything when ``seat`` is None."""

    # the compiled core on states[i] ------------------------------------------
    def reset(self, states: np.ndarray, i: int, seed: int) -> None:
        """Start a new game in ``states[i]``, seeding its random stream with ``seed``."""
        dispatch.init_at(states, i, seed, self.init_args())

    def actors(self, states: np.ndarray, i: int, out: np.ndarray) -> None:
        """Write into the bool vector ``out`` which seats act in the next step."""
        dispatch.actors_at(states, i, out)

    def legal_mask(self, states: np.ndarray, i: int, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s action mask (int8, all zero when it may not act) into ``out``."""
        dispatch.legal_mask_at(states, i, seat, out)

    def observe(self, states: np.ndarray, i: int, seat: int, out: np.ndarray) -> None:
        """Write ``seat``'s observation (float32, from its own seat) into ``out``."""
        dispatch.observe_at(states, i, seat, out)

    def observe_all(self, states: np.ndarray, i: int, out: np.ndarray) -> None:
        """Write every seat's observation into the rows of ``out`` (shape (P, O))."""
        dispatch.observe_all_at(states, i, out)

    def step(self, states: np.ndarray, i: int, actions: np.ndarray, rewards: np.ndarray, voids: np.ndarray) -> bool:
        """Apply one joint action (int64 per seat, ``NO_ACTION`` where unused).

        Writes each seat's reward into ``rewards`` and a void code of
        :mod:`stonk_envs.core.negotiation` into ``voids``; returns True when the game is over.
        Every used action must be legal under :meth:`legal_mask`.
        """
        return dispatch.step_at(states, i, actions, rewards, voids)

    def state_vector(self, states: np.ndarray, i: int, out: np.ndarray) -> None:
        """Write the full state, hidden cards included, as a flat float32 vector."""
        dispatch.state_vector_at(states, i, out)
