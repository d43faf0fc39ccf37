"""An SB3 / sb3-contrib model zip read without unpickling anything in it.

SB3's own ``load`` unpickles the ``:serialized:`` entries of the zip's ``data`` member (the
spaces, the policy class, its keyword arguments, schedules), so a shared file can run any
code. Here the weights are read with ``torch.load(weights_only=True)``, and the policy is
rebuilt from the readable text SB3 writes beside each pickle (class names, ``net_arch``,
shapes), taking only classes from an allow-list. A model with anything else (a custom policy,
features extractor or activation) is refused unless trusted.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium import spaces

from stonk_envs.policies.weights import check_architecture_fits, check_finite, mlp_parameters
from stonk_envs.safe_load import (
    MAX_JSON_BYTES,
    MAX_TENSOR_FILE_BYTES,
    TRUST_HINT,
    UntrustedFileError,
    check_archive,
    load_tensors,
    parse_json,
    read_member,
)

_CLASS = re.compile(r"<class '([\w.]+)'>")
_BOX = re.compile(r"'(\w+)': Box\([^()]*\((\d+),\), (\w+)\)")
ACTIVATIONS = {
    f"torch.nn.modules.activation.{name}": getattr(torch.nn, name)
    for name in ("Tanh", "ReLU", "ELU", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Mish", "SELU", "Softplus")
}
"""The activation functions a model may name."""
POLICY_CLASSES = {
    ("MaskablePPO", False): ("sb3_contrib.common.maskable.policies", "MaskableActorCriticPolicy"),
    ("MaskablePPO", True): ("sb3_contrib.common.maskable.policies", "MaskableMultiInputActorCriticPolicy"),
    ("PPO", False): ("stable_baselines3.common.policies", "ActorCriticPolicy"),
    ("PPO", True): ("stable_baselines3.common.policies", "MultiInputActorCriticPolicy"),
    ("A2C", False): ("stable_baselines3.common.policies", "ActorCriticPolicy"),
    ("A2C", True): ("stable_baselines3.common.policies", "MultiInputActorCriticPolicy"),
}
"""The policy class of each algorithm, by whether the observation is a ``Dict`` space."""
INFERENCE_ONLY_KWARGS = {"ortho_init", "optimizer_class", "optimizer_kwargs", "normalize_images"}
"""``policy_kwargs`` that do not change what a loaded policy computes."""


def _extractors() -> dict[str, type]:
    from stable_baselines3.common.torch_layers import CombinedExtractor, FlattenExtractor

    from stonk_envs.policies.sb3_features import BoundsScaler

    return {
        "stable_baselines3.common.torch_layers.FlattenExtractor": FlattenExtractor,
        "stable_baselines3.common.torch_layers.CombinedExtractor": CombinedExtractor,
        "stonk_envs.policies.sb3_features.BoundsScaler": BoundsScaler,
        "stonk_envs.training.features.BoundsScaler": BoundsScaler,  # where older zips name it
        "training.features.BoundsScaler": BoundsScaler,
    }


def _untrusted(source: str, why: str) -> UntrustedFileError:
    return UntrustedFileError(f"{source}: refused: {why}; {TRUST_HINT}")


class SB3Zip:
    """The readable parts of an SB3 model zip: ``data`` (JSON) and the tensors of its ``.pth`` members."""

    def __init__(self, path: Path):
        self.path = path
        self.source = str(path)
        try:
            with zipfile.ZipFile(path) as archive:
                check_archive(archive, self.source)
                self.data = parse_json(read_member(archive, "data", MAX_JSON_BYTES, self.source), f"{path}: data")
                self.members = {
                    name: read_member(archive, name, MAX_TENSOR_FILE_BYTES, self.source)
                    for name in archive.namelist() if name.endswith(".pth")
                }
        except zipfile.BadZipFile as err:
            raise ValueError(f"{path}: damaged zip: {err}") from None
        if not isinstance(self.data, dict):
            raise ValueError(f"{path}: its data member is not a JSON object")

    def tensors(self, member: str) -> Any:
        """The tensors in ``<member>.pth`` (``policy``, ``policy.optimizer``), read with ``weights_only``."""
        name = f"{member}.pth"
        if name not in self.members:
            raise ValueError(f"{self.source}: has no {name!r} member")
        return load_tensors(self.members[name], f"{self.source}: {name}")

    def plain(self, key: str, kind: type | tuple[type, ...]) -> Any:
        """The plain JSON value of ``data[key]``; ``ValueError`` when it is missing or not a ``kind``."""
        value = self.data.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise ValueError(f"{self.source}: data field {key!r} is missing or not plain ({value!r:.80})")
        return value

    # ------------------------------------------------------------------ rebuilding the policy
    def _class_named(self, text: Any, allowed: dict[str, Any], what: str) -> Any:
        match = _CLASS.fullmatch(text) if isinstance(text, str) else None
        if match is None or match.group(1) not in allowed:
            raise _untrusted(self.source, f"its {what} {text!r:.120} is not one this package rebuilds")
        return allowed[match.group(1)]

    def _spaces(self, observation_size: int, num_actions: int) -> tuple[spaces.Space, spaces.Discrete]:
        observation, action = self.data.get("observation_space"), self.data.get("action_space")
        if not isinstance(observation, dict) or not isinstance(action, dict):
            raise ValueError(f"{self.source}: data has no readable observation_space and action_space")
        if action.get(":type:") != "<class 'gymnasium.spaces.discrete.Discrete'>" or action.get("n") != str(
            num_actions
        ) or action.get("start", "0") != "0":
            raise ValueError(f"{self.source}: its action space is not Discrete({num_actions}) as its metadata says")
        kind = observation.get(":type:")
        if kind == "<class 'gymnasium.spaces.box.Box'>":
            if observation.get("_shape") != [observation_size]:
                raise ValueError(f"{self.source}: its observation shape {observation.get('_shape')} is not "
                                 f"[{observation_size}] as its metadata says")
            return spaces.Box(-np.inf, np.inf, (observation_size,), np.float32), spaces.Discrete(num_actions)
        if kind == "<class 'gymnasium.spaces.dict.Dict'>":
            sizes = {"observation": observation_size, "action_mask": num_actions}
            found = {key: int(size) for key, size, _ in _BOX.findall(str(observation.get("spaces", "")))}
            if not found or any(sizes.get(key) != size for key, size in found.items()):
                raise _untrusted(self.source, f"its Dict observation space {observation.get('spaces')!r:.160} is "
                                              "not one of the env's 'observation' and 'action_mask' entries")
            boxes = {
                key: spaces.Box(-np.inf, np.inf, (size,), np.float32) if key == "observation"
                else spaces.Box(0, 1, (size,), np.int8)
                for key, size in found.items()
            }
            return spaces.Dict(boxes), spaces.Discrete(num_actions)
        raise _untrusted(self.source, f"its observation space {kind!r} is not a Box or Dict")

    def _policy_kwargs(self) -> dict[str, Any]:
        given = self.data.get("policy_kwargs", {})
        if not isinstance(given, dict):
            raise ValueError(f"{self.source}: data field 'policy_kwargs' is not readable")
        given = {key: value for key, value in given.items() if key not in (":type:", ":serialized:")}
        if unknown := sorted(set(given) - INFERENCE_ONLY_KWARGS - {
            "net_arch", "activation_fn", "features_extractor_class", "features_extractor_kwargs",
            "share_features_extractor",
        }):
            raise _untrusted(self.source, f"its policy_kwargs {unknown} are not ones this package rebuilds")
        kwargs: dict[str, Any] = {}
        if "net_arch" in given:
            net_arch = given["net_arch"]
            layers = net_arch.values() if isinstance(net_arch, dict) else [net_arch]
            if (isinstance(net_arch, dict) and set(net_arch) - {"pi", "vf"}) or not all(
                isinstance(layer, list) and all(isinstance(h, int) and not isinstance(h, bool) and h >= 1
                                                for h in layer) for layer in layers
            ):
                raise ValueError(f"{self.source}: policy_kwargs net_arch {net_arch!r:.120} is not lists of sizes")
            kwargs["net_arch"] = net_arch
        if "activation_fn" in given:
            kwargs["activation_fn"] = self._class_named(given["activation_fn"], ACTIVATIONS, "activation_fn")
        if "features_extractor_class" in given:
            kwargs["features_extractor_class"] = self._class_named(
                given["features_extractor_class"], _extractors(), "features extractor"
            )
        if given.get("features_extractor_kwargs", {}) not in ({}, None):
            raise _untrusted(self.source, "its features_extractor_kwargs are not empty")
        if "share_features_extractor" in given:
            if not isinstance(given["share_features_extractor"], bool):
                raise ValueError(f"{self.source}: policy_kwargs share_features_extractor is not True or False")
            kwargs["share_features_extractor"] = given["share_features_extractor"]
        return kwargs

    def policy(self, algorithm: str, observation_size: int, num_actions: int):
        """The model's policy network, built from allow-listed classes and loaded with its weights."""
        import importlib

        observation_space, action_space = self._spaces(observation_size, num_actions)
        is_dict = isinstance(observation_space, spaces.Dict)
        module_name, class_name = POLICY_CLASSES[(algorithm, is_dict)]
        saved = self.data.get("policy_class", {})
        saved_module = saved.get("__module__") if isinstance(saved, dict) else None
        saved_init = saved.get("__init__", "") if isinstance(saved, dict) else ""
        if saved_module != module_name or not str(saved_init).startswith(f"<function {class_name}.__init__ "):
            raise _untrusted(self.source, f"its policy class ({saved_module}) is not {module_name}.{class_name}")
        kwargs = self._policy_kwargs()
        weights = self.tensors("policy")
        if not isinstance(weights, dict) or not all(isinstance(v, torch.Tensor) for v in weights.values()):
            raise ValueError(f"{self.source}: policy.pth is not a state dict of tensors")
        check_finite(weights, self.source)
        features = observation_size + (num_actions if is_dict and "action_mask" in observation_space.spaces else 0)
        net_arch = kwargs.get("net_arch", {"pi": [64, 64], "vf": [64, 64]})
        pi, vf = (net_arch["pi"], net_arch["vf"]) if isinstance(net_arch, dict) else (net_arch, net_arch)
        check_architecture_fits(mlp_parameters(features, pi, num_actions) + mlp_parameters(features, vf, 1),
                                weights, self.source)
        cls = getattr(importlib.import_module(module_name), class_name)
        policy = cls(observation_space, action_space, lambda _: 0.0, **kwargs)
        try:
            policy.load_state_dict(weights)
        except RuntimeError as err:
            raise ValueError(f"{self.source}: the weights do not fit the policy its data describes: "
                             f"{str(err).splitlines()[0]}") from None
        return policy.eval()

