"""The single-seat self-play view as a Stable-Baselines3 ``VecEnv`` (needs the ``training`` extra).

:class:`SelfPlayVecEnv` steps :class:`~stonk_envs.vector.selfplay.SelfPlay` and gives ``Box``
observations with ``action_masks()``, so ``sb3_contrib.MaskablePPO`` trains on it directly.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from stonk_envs.policies.base import Policy
from stonk_envs.vector.engine import BatchEngine
from stonk_envs.vector.selfplay import SelfPlay


class SelfPlayVecEnv(VecEnv):
    """SB3 ``VecEnv`` of the single-seat view: ``Box`` observations, ``action_masks()``."""

    def __init__(self, engine: BatchEngine, opponent: Policy | None = None, learner_seat: int | None = None,
                 seed: int | None = None, rotate_seats: bool = False):
        self.selfplay = SelfPlay(engine, opponent, learner_seat, seed, rotate_seats)
        self.render_mode = None
        low, high = engine.game.observation_bounds
        super().__init__(engine.num_envs, spaces.Box(low, high, dtype=np.float32), spaces.Discrete(engine.num_actions))
        self._actions: np.ndarray | None = None

    def set_opponent(self, opponent: Policy) -> None:
        """Play the non-learner seats with ``opponent`` from the next step on."""
        self.selfplay.set_opponent(opponent)

    def reset(self) -> np.ndarray:
        self.selfplay.reset(self._seeds[0])
        self._reset_seeds()
        self._reset_options()
        return self.selfplay.learner_obs()[0]

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        if self._actions is None:
            raise ValueError("step_wait() called without step_async()")
        rewards, done, final_obs = self.selfplay.step(self._actions)
        self._actions = None
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i, episode in self.selfplay.pop_episodes(done).items():
            infos[i] = {"terminal_observation": final_obs[i], "episode": episode}
        return self.selfplay.learner_obs()[0], rewards.astype(np.float32), done, infos

    def action_masks(self) -> np.ndarray:
        """Each slot's learner action mask as bools, shape (N, A)."""
        return self.selfplay.learner_obs()[1].astype(np.bool_)

    def close(self) -> None:
        pass

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        value = getattr(self, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        """Call a view method once; an array with one row per slot is split by slot."""
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        if isinstance(result, np.ndarray) and result.shape[:1] == (self.num_envs,):
            return [result[i] for i in self._indices(indices)]
        return [result for _ in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type[gymnasium.Wrapper], indices=None) -> list[bool]:
        return [False for _ in self._indices(indices)]
