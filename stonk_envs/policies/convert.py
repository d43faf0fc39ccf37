"""Convert a saved policy into the safe torch format (a :class:`~stonk_envs.policies.torch_policy.MaskedMLP`).

:func:`convert` reads any policy file or folder ``load_policy`` reads (an SB3 zip, an RLlib
checkpoint folder or a torch policy file) and writes a torch policy file
(``{"metadata", "state_dict"}``, read back with ``weights_only=True``). The conversion is checked
by comparing the logits of both on random observations, and refused when the network is not a
tanh MLP.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn

from stonk_envs.policies.base import Policy
from stonk_envs.policies.checkpoint import load_policy, make_metadata, read_metadata, save_torch
from stonk_envs.policies.torch_policy import MaskedMLP, TorchPolicy

CHECK_SAMPLES = 256
TOLERANCE = 1e-4
"""The largest difference of an action's log-probability between the source and the converted policy."""


def _linear_chain(modules: list[nn.Module], source: str) -> list[nn.Linear]:
    """The Linear layers of ``modules`` in order, each but the last followed by one Tanh; else ValueError."""
    layers: list[nn.Module] = [m for module in modules for m in module.modules() if not list(m.children())]
    linears = [m for m in layers if isinstance(m, nn.Linear)]
    kinds = ["linear" if isinstance(m, nn.Linear) else "tanh" if isinstance(m, nn.Tanh) else type(m).__name__
             for m in layers if not isinstance(m, (nn.Identity, nn.Flatten))]
    expected = ["linear", "tanh"] * (len(linears) - 1) + ["linear"]
    if kinds != expected:
        raise ValueError(f"{source}: cannot convert: its actor is {kinds}, not a tanh MLP")
    return linears


def _sb3_actor(policy: Policy, source: str) -> tuple[list[nn.Linear], torch.Tensor | None]:
    """The actor's Linear layers and the input scale of an SB3 policy network."""
    from stable_baselines3.common.torch_layers import FlattenExtractor

    from stonk_envs.policies.sb3_features import BoundsScaler

    network = policy.policy
    extractor = getattr(network, "pi_features_extractor", network.features_extractor)
    if isinstance(extractor, BoundsScaler):
        scale = extractor.scale.detach().clone()
    elif isinstance(extractor, FlattenExtractor):
        scale = None
    else:
        raise ValueError(f"{source}: cannot convert: its features extractor is {type(extractor).__name__}")
    return _linear_chain([network.mlp_extractor.policy_net, network.action_net], source), scale


def _rllib_actor(policy: Policy, source: str) -> tuple[list[nn.Linear], torch.Tensor | None]:
    """The actor's Linear layers and the input scale of an RLlib module (``FlatMaskingTorchRLModule``'s)."""
    module = policy.module
    encoder = getattr(module.encoder, "actor_encoder", module.encoder)
    scaler = getattr(module, "scaler", None)
    scale = None if scaler is None else scaler.scale.detach().clone()
    return _linear_chain([encoder, module.pi], source), scale


def to_masked_mlp(policy: Policy, source: str) -> MaskedMLP:
    """A :class:`MaskedMLP` computing the logits of ``policy``'s actor (a tanh MLP)."""
    if isinstance(policy, TorchPolicy):
        return policy.net
    from stonk_envs.policies.sb3_policy import SB3Policy

    if isinstance(policy, SB3Policy):
        linears, scale = _sb3_actor(policy, source)
    elif type(policy).__name__ == "RLlibPolicy":
        linears, scale = _rllib_actor(policy, source)
    else:
        raise ValueError(f"{source}: cannot convert a {type(policy).__name__}")
    hidden = [layer.out_features for layer in linears[:-1]]
    net = MaskedMLP(linears[0].in_features, linears[-1].out_features, hidden)
    targets = [m for m in net.body if isinstance(m, nn.Linear)]
    with torch.no_grad():
        for target, layer in zip(targets, linears, strict=True):
            target.weight.copy_(layer.weight)
            target.bias.copy_(layer.bias)
        if scale is not None:  # x / scale into the first layer: W (x / s) = (W / s) x
            targets[0].weight.div_(scale.reshape(1, -1))
    return net.eval()


def check_same_logits(policy: Policy, net: MaskedMLP, source: str, seed: int = 0) -> float:
    """The largest logit difference on random observations; ValueError above :data:`TOLERANCE`."""
    rng = np.random.default_rng(seed)
    size = net.hparams["observation_size"]
    observations = rng.normal(0, 3, (CHECK_SAMPLES, size)).astype(np.float32)
    masks = np.ones((CHECK_SAMPLES, net.hparams["num_actions"]), np.int8)
    with torch.no_grad():
        mine = net(torch.as_tensor(observations), torch.as_tensor(masks)).numpy()
    theirs = policy_logits(policy, observations, masks)
    # logits count up to a constant per row (SB3's are log-probabilities): compare log-softmaxes
    mine, theirs = (torch.log_softmax(torch.as_tensor(x, dtype=torch.float64), -1).numpy() for x in (mine, theirs))
    worst = float(np.max(np.abs(mine - theirs)))
    if not worst <= TOLERANCE:
        raise ValueError(f"{source}: the converted network differs from the source by {worst:.3g} in a logit")
    return worst


def policy_logits(policy: Policy, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The source policy's logits (every action legal)."""
    if isinstance(policy, TorchPolicy):
        with torch.no_grad():
            return policy.net(torch.as_tensor(observations), torch.as_tensor(masks)).numpy()
    if hasattr(policy, "policy"):  # SB3
        network = policy.policy
        obs_tensor, _ = network.obs_to_tensor(policy._model_input(observations, masks))
        with torch.no_grad():
            return network.get_distribution(obs_tensor).distribution.logits.numpy()
    from ray.rllib.core.columns import Columns

    from stonk_envs.policies.rllib_policy import MASK_KEY, OBS_KEY

    batch = {Columns.OBS: {OBS_KEY: torch.as_tensor(observations), MASK_KEY: torch.as_tensor(masks).float()}}
    with torch.no_grad():
        return policy.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].numpy()


def convert(source: str | Path, out: str | Path, trust: bool = False) -> Path:
    """Write ``source``'s policy to ``out`` as a torch policy file; returns ``out``."""
    source = Path(source)
    policy = load_policy(source, trust=trust)
    metadata = read_metadata(source)
    net = to_masked_mlp(policy, str(source))
    check_same_logits(policy, net, str(source))
    converted = make_metadata(
        metadata["game"], metadata["num_players"], metadata["observation_size"], metadata["num_actions"],
        metadata["env_config"], kind="torch",
        extra={**metadata.get("extra", {}), "converted_from": {"kind": metadata["kind"], "file": source.name}},
    )
    converted["observation_version"] = metadata.get("observation_version", converted["observation_version"])
    return save_torch(net, out, converted)
