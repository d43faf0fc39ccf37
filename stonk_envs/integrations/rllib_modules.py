"""RLlib modules: the masked learner's spec, stonk_envs players as frozen modules, saved learners as players.

- :func:`masked_module_spec` is RLlib's own ``ActionMaskingTorchRLModule`` (PPO), which reads
  the ``{"observations", "action_mask"}`` layout of
  :class:`~stonk_envs.integrations.rllib_env.StonkMultiAgentEnv`;
  :func:`flat_module_spec` is :class:`FlatMaskingTorchRLModule`, the vector path's learner, which
  reads the ``layout="flat"`` observation of :class:`~stonk_envs.vector.gym_vector.EngineVectorEnv`
  and divides each entry by its bound.
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

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN

from stonk_envs.policies.checkpoint import METADATA_MEMBER, make_metadata, save_torch
from stonk_envs.policies.players import make_player
from stonk_envs.policies.rllib_policy import MASK_KEY, OBS_KEY, as_numpy
from stonk_envs.policies.sb3_features import BoundsScaler
from stonk_envs.policies.torch_policy import MaskedMLP, sample_actions


def masked_module_spec(hidden: list[int]) -> RLModuleSpec:
    """RLlib's action-masking PPO module with ``hidden`` layer sizes (spaces come from the env)."""
    return RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config={"fcnet_hiddens": list(hidden)})


def flat_module_spec(hidden: list[int]) -> RLModuleSpec:
    """:class:`FlatMaskingTorchRLModule` with ``hidden`` layer sizes (spaces come from the env)."""
    return RLModuleSpec(module_class=FlatMaskingTorchRLModule, model_config={"fcnet_hiddens": list(hidden)})


class FlatMaskingTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's PPO module for the ``layout="flat"`` observation: the entries, then the action mask, in one ``Box``.

    RLlib batches and splits a ``Box`` in one array operation, where a ``Dict`` costs a tree walk per
    game (docs/integrations.md, RLlib's speed). The module cuts the mask off, divides each entry by
    its bound (SB3's ``BoundsScaler``: some entries reach 100, which would saturate the first tanh
    layer) and masks the logits. It also reads RLlib's ``{"observations", "action_mask"}`` layout,
    so :class:`~stonk_envs.policies.rllib_policy.RLlibPolicy` plays it.
    """

    def __init__(self, *, observation_space=None, action_space=None, **kwargs):
        a = action_space.n
        self.flat_space = observation_space
        features = gym.spaces.Box(observation_space.low[:-a], observation_space.high[:-a], dtype=np.float32)
        super().__init__(observation_space=features, action_space=action_space, **kwargs)

    def setup(self):
        super().setup()
        self.scaler = BoundsScaler(self.observation_space)
        self.observation_space = self.flat_space  # the env's space again, as RLlib's own masking module does

    def _split(self, batch):
        """The mask and the batch with the scaled entries as its observations (``batch`` itself is kept)."""
        obs = batch[Columns.OBS]
        if isinstance(obs, dict):
            features, mask = obs[OBS_KEY], obs[MASK_KEY]
        else:
            a = self.action_space.n
            features, mask = obs[..., :-a], obs[..., -a:]
        return mask, {**batch, Columns.OBS: self.scaler(features)}

    @staticmethod
    def _masked(outs, mask):
        outs[Columns.ACTION_DIST_INPUTS] = outs[Columns.ACTION_DIST_INPUTS].masked_fill(mask == 0, FLOAT_MIN)
        return outs

    def _forward_inference(self, batch, **kwargs):
        mask, batch = self._split(batch)
        return self._masked(super()._forward_inference(batch, **kwargs), mask)

    def _forward_exploration(self, batch, **kwargs):
        """The masked logits, with the sampled actions and their log-probabilities (RLlib's
        ``GetActions`` then has nothing to do: see :func:`sample_with_logp`)."""
        mask, batch = self._split(batch)
        outs = self._masked(super()._forward_exploration(batch, **kwargs), mask)
        outs[Columns.ACTIONS], outs[Columns.ACTION_LOGP] = sample_with_logp(outs[Columns.ACTION_DIST_INPUTS])
        return outs

    def _forward_train(self, batch, **kwargs):
        mask, batch = self._split(batch)
        return self._masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        if embeddings is None:
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)


def sample_with_logp(logits: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """One action per row of ``(batch, actions)`` logits drawn from their softmax, and its log-probability.

    The same draw as a ``Categorical``, about ten times as fast on masked rows: a masked logit
    is ``FLOAT_MIN``, and torch's ``exp`` of such entries (inside the ``logsumexp`` that
    ``Categorical`` runs) is far slower than ``softmax``. A masked action has probability
    exactly 0, which the inverse-CDF draw of :func:`~stonk_envs.policies.torch_policy.sample_actions` never picks.
    """
    actions = sample_actions(torch.softmax(logits, dim=-1))
    logp = torch.log_softmax(logits, dim=-1).gather(-1, actions.unsqueeze(-1)).squeeze(-1)
    return actions, logp


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
