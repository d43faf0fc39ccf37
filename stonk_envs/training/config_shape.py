"""The training config's earlier shape, and its translation into today's (for run folders saved before).

Earlier configs held the batched trainer's keys among the common ones (``device``, ``imitation``,
five ``league`` keys), the sb3 trainer's ``env_backend`` at the top, and both trainers' PPO
hyperparameters in one ``ppo`` section; the default trainer was ``sb3``. Today each trainer's
keys live in its own section (``ppo``, ``sb3``). :func:`upgrade` turns a saved config of the
earlier shape into today's, so ``resume`` continues it; :func:`moved_keys` names the earlier
keys in a new config, so ``load_config`` can say where each went.

``sb3.env_backend`` is gone: the sb3 trainer's games run on one batched engine, as
``env_backend: engine`` ran them. :func:`drop_removed` drops it from a saved run that ran so, and
refuses one that ran on PettingZoo envs.
"""

from __future__ import annotations

import copy
from typing import Any

from stonk_envs.configs import keys_set

MOVED = {
    "device": "ppo.device",
    "imitation": "ppo.imitation",
    "env_backend": "sb3.env_backend",
    **{f"league.{key}": f"ppo.league.{key}"
       for key in ("heuristic_players", "mix", "pfsp_power", "exploiter_samples", "exploiter_start")},
}
"""Earlier keys and where they are now."""
REMOVED = {
    "env_backend": "the sb3 trainer's games always run on one batched engine",
    "sb3.env_backend": "the sb3 trainer's games always run on one batched engine",
}
"""Keys that are gone, and why."""
SB3_KEYS = ("learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda", "clip_range", "ent_coef",
            "vf_coef", "max_grad_norm", "net_arch")
"""The earlier ``ppo`` section's keys that the sb3 trainer read (now in ``sb3``)."""


def _pop(mapping: dict, key: str) -> Any:
    *parents, last = key.split(".")
    node = mapping
    for part in parents:
        node = node[part]
    return node.pop(last)


def _put(mapping: dict, key: str, value: Any) -> None:
    *parents, last = key.split(".")
    node = mapping
    for part in parents:
        node = node.setdefault(part, {})
    node[last] = value


def moved_keys(mapping: dict) -> dict[str, str]:
    """The earlier keys that ``mapping`` (a plain nested dict) sets, each with the key it is now."""
    return keys_set(mapping, MOVED)


def removed_keys(mapping: dict) -> dict[str, str]:
    """The removed keys that ``mapping`` (a plain nested dict) sets, each with why it is gone."""
    return keys_set(mapping, REMOVED)


def drop_removed(saved: dict) -> dict:
    """A saved run's config (today's shape) without the removed keys; ``ValueError`` if the run needed them."""
    config = copy.deepcopy(saved)
    backend = config.get("sb3", {}).pop("env_backend", "engine")
    if config.get("trainer") == "sb3" and backend != "engine":
        raise ValueError(f"this run's sb3 trainer played its games on PettingZoo envs (sb3.env_backend: {backend}), "
                         "which this version no longer does, so it cannot continue; train it again")
    return config


def is_earlier_shape(mapping: dict) -> bool:
    """Whether a saved run's config (a complete dump) has the earlier shape (it has no ``sb3`` section)."""
    return "sb3" not in mapping


def upgrade(saved: dict) -> dict:
    """A saved config of the earlier shape in today's: each trainer's keys moved to its section.

    The trainer that did not run drops the keys it ignored. A saved config without ``trainer``
    ran the earlier default, sb3; one without ``env_backend`` ran on the PettingZoo envs.
    """
    config = copy.deepcopy(saved)
    trainer = config.setdefault("trainer", "sb3")
    moved = moved_keys(config)
    if trainer == "sb3":
        earlier = config.pop("ppo", {})
        config["sb3"] = {key: earlier[key] for key in SB3_KEYS if key in earlier}
    for old, new in moved.items():
        value = _pop(config, old)
        if new.split(".")[0] == trainer:
            _put(config, new, value)
    if trainer == "sb3":
        config["sb3"].setdefault("env_backend", "pettingzoo")
    elif config.get("ppo", {}).get("obs_norm") == "auto":  # auto meant running for the batched trainer
        config["ppo"]["obs_norm"] = "running"
    return config
