"""RLlib modules: the masked learner's spec, stonk_envs players as frozen modules, saved learners as players.

- :func:`masked_module_spec` is RLlib's own ``ActionMaskingTorchRLModule`` (PPO), which reads
  the ``{"observations", "action_mask"}`` layout of
  :class:`~stonk_envs.integrations.rllib_env.StonkMultiAgentEnv`; with ``scaled``, its
  subclass :class:`BoundsMaskingTorchRLModule` first divides each observation entry by its bound.
- :class:`PlayerRLModule` plays a stonk_envs player (``"random"``, ``"heuristic"`` or a policy
  file) inside RLlib, as a league member that is never trained.
- :func:`save_learner_net` writes a learner converted to a torch ``MaskedMLP`` (a policy file
  that loads without trust); :func:`save_rllib_policy` writes a learner module with stonk_envs metadata;
  :func:`stonk_envs.policies.rllib_policy.load_rllib_policy` reads it back as a
  :class:`~stonk_envs.policies.base.Policy`, so ``stonk-envs evaluate`` plays it beside the others.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

from stonk_envs.policies.checkpoint import METADATA_MEMBER, make_metadata, save_torch
from stonk_envs.policies.players import make_player
from stonk_envs.policies.rllib_policy import MASK_KEY, OBS_KEY, as_numpy
from stonk_envs.policies.sb3_features import BoundsScaler
from stonk_envs.policies.torch_policy import MaskedMLP


def masked_module_spec(hidden: list[int], scaled: bool = False) -> RLModuleSpec:
    """RLlib's action-masking PPO module with ``hidden`` layer sizes (spaces come from the env); ``scaled``: the
    :class:`BoundsMaskingTorchRLModule` subclass."""
    module_class = BoundsMaskingTorchRLModule if scaled else ActionMaskingTorchRLModule
    return RLModuleSpec(module_class=module_class, model_config={"fcnet_hiddens": list(hidden)})


class BoundsMaskingTorchRLModule(ActionMaskingTorchRLModule):
    """RLlib's masking PPO module reading each observation entry divided by its bound (SB3's ``BoundsScaler``).

    Some entries of the games' observations reach 100, which saturates the first tanh layer
    (what the learner reaches: docs/integrations.md, RLlib's Measured). The division is part of
    the module, so the env runners and the learner read the same inputs.
    """

    def setup(self):
        super().setup()
        self.scaler = BoundsScaler(self.observation_space[OBS_KEY])

    def _preprocess_batch(self, batch, **kwargs):
        action_mask, batch = super()._preprocess_batch(batch, **kwargs)
        batch[Columns.OBS] = self.scaler(batch[Columns.OBS])
        return action_mask, batch


def player_module_spec(player: str, game: str, num_players: int, env_config: dict | None = None) -> RLModuleSpec:
    """A :class:`PlayerRLModule` playing ``player`` (``"random"``, ``"heuristic"`` or a file)."""
    config = {"player": player, "game": game, "num_players": num_players, "env_config": dict(env_config or {})}
    return RLModuleSpec(module_class=PlayerRLModule, model_config=config)


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
        observations = as_numpy(obs[OBS_KEY]).astype(np.float32)
        masks = (as_numpy(obs[MASK_KEY]) > 0).astype(np.int8)
        return {Columns.ACTIONS: self.player.act(observations, masks, self.rng)}

    def _forward_train(self, *args, **kwargs):
        raise NotImplementedError("a PlayerRLModule is a fixed player; keep it out of policies_to_train")

    def compile(self, *args, **kwargs):
        """Nothing to compile (called on torch modules)."""


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


def save_learner_net(net: MaskedMLP, path: str | os.PathLike, game: str, num_players: int, env_config: dict,
                     extra: dict | None = None) -> Path:
    """Save a learner converted to a :class:`MaskedMLP` as a torch policy file (loads without trust)."""
    sizes = net.hparams
    metadata = make_metadata(game, num_players, sizes["observation_size"], sizes["num_actions"], env_config,
                             kind="torch", extra=extra)
    return save_torch(net, path, metadata)
