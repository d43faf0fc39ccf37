"""A saved RLlib learner module as a :class:`~stonk_envs.policies.base.Policy` (needs the rllib extra).

:func:`load_rllib_policy` reads a folder that :func:`stonk_envs.integrations.rllib_modules.save_rllib_policy`
wrote, so ``stonk-envs evaluate`` plays it beside the other players. The module reads observations in the
layout of RLlib's action-masking module: ``{OBS_KEY: observation, MASK_KEY: float mask}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule

from stonk_envs.policies.base import Policy
from stonk_envs.policies.sampling import choose

OBS_KEY = "observations"
"""The observation key of RLlib's masking module (the PettingZoo envs use ``"observation"``)."""
MASK_KEY = "action_mask"


def as_numpy(value: Any) -> np.ndarray:
    """A torch tensor or array-like as a numpy array."""
    return value.detach().cpu().numpy() if isinstance(value, torch.Tensor) else np.asarray(value)


class RLlibPolicy(Policy):
    """Plays a saved RLlib learner module: the best legal action, or a sample when not deterministic."""

    def __init__(self, module: RLModule, deterministic: bool = True, name: str = "rllib"):
        self.module = module
        self.deterministic = deterministic
        self.name = name

    def act(self, observations, masks, rng):
        observations = self.fit_observations(observations)
        batch = {
            Columns.OBS: {
                OBS_KEY: torch.as_tensor(observations, dtype=torch.float32),
                MASK_KEY: torch.as_tensor(masks, dtype=torch.float32),
            }
        }
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        return choose(as_numpy(logits), masks, rng, self.deterministic)


def load_rllib_policy(path: Path, metadata: dict, deterministic: bool = True) -> RLlibPolicy:
    """The saved learner module in the folder ``path`` as a :class:`Policy` (metadata already checked)."""
    try:
        module = RLModule.from_checkpoint(str(Path(path).resolve()))
    except Exception as error:
        raise ValueError(f"{path}: not a readable RLlib module checkpoint: {error}") from None
    obs_shape = module.observation_space[OBS_KEY].shape
    if obs_shape != (metadata["observation_size"],) or module.action_space.n != metadata["num_actions"]:
        raise ValueError(f"{path}: the module's spaces ({obs_shape}, {module.action_space}) do not match its metadata")
    return RLlibPolicy(module, deterministic=deterministic, name=Path(path).name)
