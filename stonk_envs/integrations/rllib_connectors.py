"""The vector path's connector pipelines: one array in, one array out, with no per-game walk.

RLlib's default env-to-module pipeline reads each game's last observation back out of its
episode object and batches the items one by one; its module-to-env pipeline splits every output
into per-game items and lists them again. For ``num_envs_per_env_runner`` games of one ``Box``
observation, both are per-game Python loops around what is one array operation. These pipelines
replace them (``add_default_connectors_to_*_pipeline=False``):

- env to module: :class:`StackObservations`, the step's observations as one tensor;
- module to env: RLlib's ``GetActions`` and ``TensorToNumpy``; the env runner indexes the
  resulting arrays per game itself.
"""

from __future__ import annotations

import numpy as np
import torch
from ray.rllib.connectors.common.tensor_to_numpy import TensorToNumpy
from ray.rllib.connectors.connector_v2 import ConnectorV2
from ray.rllib.connectors.module_to_env.get_actions import GetActions
from ray.rllib.core.columns import Columns


class StackObservations(ConnectorV2):
    """The observations of every game as one ``(num_games, size)`` tensor under ``Columns.OBS``.

    The env runner passes the step's observations as a keyword; they are each game's last
    observation in its episode, which is where the default pipeline reads them.
    """

    def __init__(self, input_observation_space=None, input_action_space=None, *, device=None, **kwargs):
        super().__init__(input_observation_space, input_action_space, **kwargs)
        self.device = device

    def __call__(self, *, rl_module, batch, episodes, explore=None, shared_data=None, metrics=None, **kwargs):
        observations = kwargs.get(Columns.OBS)
        if observations is None:
            observations = [episode.get_observations(-1) for episode in episodes]
        batch[Columns.OBS] = torch.as_tensor(np.stack(observations), device=self.device)
        return batch


def env_to_module_connectors(env=None, spaces=None, device=None) -> list[ConnectorV2]:
    """The env-to-module pipeline of ``config.env_runners(env_to_module_connector=...)``."""
    return [StackObservations(device=device)]


def module_to_env_connectors(env=None, spaces=None) -> list[ConnectorV2]:
    """The module-to-env pipeline of ``config.env_runners(module_to_env_connector=...)``."""
    return [GetActions(), TensorToNumpy()]
