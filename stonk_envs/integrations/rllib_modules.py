"""RLlib modules: the masked learner's spec, stonk_envs players as frozen modules, saved learners as players.

- :func:`masked_module_spec` is RLlib's own ``ActionMaskingTorchRLModule`` (PPO), which reads
  the ``{"observations", "action_mask"}`` layout of
  :class:`~stonk_envs.integrations.rllib_env.StonkMultiAgentEnv`.
- :class:`PlayerRLModule` plays a stonk_envs player (``"random"``, ``"heuristic"`` or a policy
  file) inside RLlib, as a league member that is never trained.
- :func:`save_rllib_policy` writes a learner module with stonk_envs metadata, and
  :func:`load_rllib_policy` reads it back as a :class:`~stonk_envs.policies.base.Policy`, so
  ``stonk-envs evaluate`` plays it beside the others.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

from stonk_envs.integrations.rllib_env import MASK_KEY, OBS_KEY
from stonk_envs.policies.base import Policy
from stonk_envs.policies.checkpoint import METADATA_MEMBER, make_metadata
from stonk_envs.policies.players import make_player
from stonk_envs.policies.sampling import choose


def masked_module_spec(hidden: list[int]) -> RLModuleSpec:
    """RLlib's action-masking PPO module with ``hidden`` layer sizes (spaces come from the env)."""
    return RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"fcnet_hiddens": list(hidden)})


def player_module_spec(player: str, game: str, num_players: int, env_config: dict | None = None) -> RLModuleSpec:
    """A :class:`PlayerRLModule` playing ``player`` (``"random"``, ``"heuristic"`` or a file)."""
    config = {"player": player, "game": game, "num_players": num_players, "env_config": dict(env_config or {})}
    return RLModuleSpec(module_class=PlayerRLModule, model_config=config)


def _numpy(value: Any) -> np.ndarray:
    return value.detach().cpu().numpy() if isinstance(value, torch.Tensor) else np.asarray(value)


class PlayerRLModule(RLModule):
    """A stonk_envs player as an RLlib module that outputs actions; never trained.

    ``model_config``: ``player``, ``game``, ``num_players``. Keep it out of
    ``policies_to_train``.
    """

    def setup(self):
        config = self.model_config
        self.player = make_player(config["player"], config["game"], config["num_players"])
        self.rng = np.random.default_rng()

    def _forward(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        observations = _numpy(obs[OBS_KEY]).astype(np.float32)
        masks = (_numpy(obs[MASK_KEY]) > 0).astype(np.int8)
        return {Columns.ACTIONS: self.player.act(observations, masks, self.rng)}

    def _forward_train(self, *args, **kwargs):
        raise NotImplementedError("a PlayerRLModule is a fixed player; keep it out of policies_to_train")

    def compile(self, *args, **kwargs):
        """Nothing to compile (called on torch modules)."""


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
        return choose(_numpy(logits), masks, rng, self.deterministic)


def save_rllib_policy(module: RLModule, path: str | os.PathLike, game: str, num_players: int,
                      env_config: dict, extra: dict | None = None) -> Path:
    """Save a learner module to the folder ``path`` with the stonk_envs metadata beside it."""
    path = Path(path)
    space = module.observation_space[OBS_KEY]
    metadata = make_metadata(game, num_players, int(space.shape[0]), int(module.action_space.n), env_config,
                             kind="rllib", extra=extra)
    module.save_to_path(str(path.resolve()))
    (path / METADATA_MEMBER).write_text(json.dumps(metadata, indent=2))
    return path


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
