"""Stable-Baselines3 / sb3-contrib actor-critic models (PPO, A2C, MaskablePPO) as players."""

from __future__ import annotations

import numpy as np
import torch
from gymnasium import spaces

from stonk_envs.policies.base import Policy
from stonk_envs.policies.sampling import choose


class SB3Policy(Policy):
    """Plays an SB3 actor-critic model (or its policy network): the best legal action, or a sample.

    The model's observation is the env's ``"observation"`` vector, or a ``Dict`` space with the
    env's keys (``"observation"``, ``"action_mask"``). Illegal actions are masked here, so a
    model trained without masks still plays legally.
    """

    def __init__(self, model, deterministic: bool = True, name: str = "sb3"):
        self.policy = getattr(model, "policy", model)
        self.deterministic = deterministic
        self.name = name
        self.policy.set_training_mode(False)

    def _model_input(self, observations: np.ndarray, masks: np.ndarray):
        space = self.policy.observation_space
        if isinstance(space, spaces.Dict):
            given = {"observation": observations, "action_mask": masks}
            return {key: given[key] for key in space.spaces}
        return observations

    def act(self, observations, masks, rng):
        observations = self.fit_observations(observations)
        policy = self.policy
        obs_tensor, _ = policy.obs_to_tensor(self._model_input(observations, masks))
        with torch.no_grad():
            logits = policy.get_distribution(obs_tensor).distribution.logits
        return choose(logits.cpu().numpy(), masks, rng, self.deterministic)
