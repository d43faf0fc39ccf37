"""sb3-contrib's MaskablePPO built from PPO hyperparameters (the training config's ``sb3`` section)."""

from __future__ import annotations

from typing import Any

from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import Logger

from stonk_envs.policies.sb3_features import BoundsScaler
from stonk_envs.training.config import PPOHyperparameters


def maskable_ppo(venv: Any, ppo: PPOHyperparameters, **overrides: Any) -> MaskablePPO:
    """An MLP MaskablePPO learner on ``venv`` with ``ppo``'s hyperparameters, inputs scaled by bounds, on cpu.

    ``overrides`` are passed to MaskablePPO as they are (e.g. ``seed``, a smaller ``batch_size``).
    Its logger writes nothing until one is set (sb3's default would make an empty ``SB3-<time>``
    folder in the temp directory at every ``learn``).
    """
    settings: dict[str, Any] = {
        "learning_rate": ppo.learning_rate,
        "n_steps": ppo.n_steps,
        "batch_size": ppo.batch_size,
        "n_epochs": ppo.n_epochs,
        "gamma": ppo.gamma,
        "gae_lambda": ppo.gae_lambda,
        "clip_range": ppo.clip_range,
        "ent_coef": ppo.ent_coef,
        "vf_coef": ppo.vf_coef,
        "max_grad_norm": ppo.max_grad_norm,
        "policy_kwargs": {
            "net_arch": {"pi": list(ppo.net_arch), "vf": list(ppo.net_arch)},
            "features_extractor_class": BoundsScaler,
        },
        "device": "cpu",
        "verbose": 0,
    }
    model = MaskablePPO("MlpPolicy", venv, **{**settings, **overrides})
    model.set_logger(Logger(folder=None, output_formats=[]))
    return model
