"""The policy's input layer: each observation entry divided by its largest possible magnitude."""

from __future__ import annotations

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


class BoundsScaler(BaseFeaturesExtractor):
    """Scales a ``Box`` observation into [-1, 1] using the space's own bounds (no learning)."""

    def __init__(self, observation_space: spaces.Box):
        super().__init__(observation_space, features_dim=int(np.prod(observation_space.shape)))
        low = np.abs(np.nan_to_num(observation_space.low, posinf=1.0, neginf=1.0))
        high = np.abs(np.nan_to_num(observation_space.high, posinf=1.0, neginf=1.0))
        scale = np.maximum(np.maximum(low, high), 1.0).astype(np.float32).reshape(-1)
        self.register_buffer("scale", torch.as_tensor(scale))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return observations.flatten(1) / self.scale
