"""The best response's own learner settings, fixed in code: a measurement does not move when a shipped config is
edited.

The values are those of the shipped training configs when they were fixed here: the batched
trainer's network and PPO settings, with each game's number of games side by side and passes
over each rollout. A training run that measures its own checkpoints passes its own settings
instead (:meth:`LearnerSettings.of_run`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from stonk_envs.training.config import PPOConfig, TrainConfig


def _batched_ppo() -> PPOConfig:
    return PPOConfig(learning_rate=5e-4, n_steps=32, batch_size=4096, n_epochs=1, gamma=0.99, gae_lambda=0.95,
                     clip_range=0.2, ent_coef=0.01, vf_coef=0.5, max_grad_norm=0.5, net_arch=[128, 128],
                     obs_norm="running", hidden_precision="auto")


@dataclass(frozen=True)
class LearnerSettings:
    """How the batched best response learns: its games, network and PPO settings, device and threads."""

    num_envs: int = 256
    """Games side by side per seat: the budget's default is this times the player count, so a rollout has as
    many learner samples as a training run's."""
    ppo: PPOConfig = field(default_factory=_batched_ppo)
    """The network and PPO update (``net_arch``, ``hidden_precision`` and the update's settings are read)."""
    device: str = "auto"
    """``auto`` (cuda when torch sees a GPU), ``cpu`` or ``cuda``."""
    torch_threads: int = 0
    """Torch threads; 0: the cores free now, re-counted before every rollout."""

    @classmethod
    def of_run(cls, config: TrainConfig) -> LearnerSettings:
        """A training run's own settings (to measure its checkpoints as it trains)."""
        return cls(config.num_envs, config.ppo, config.ppo.device, config.torch_threads)


NUM_ENVS = {"stockpile": 512}
"""The games that play more games side by side per seat than the default."""
N_EPOCHS = {"stocks_and_bombs": 2}
"""The games whose update passes over each rollout more often than the default."""


def own_settings(game: str) -> LearnerSettings:
    """The best response's settings in ``game`` (a game named in neither table takes the defaults)."""
    ppo = replace(_batched_ppo(), n_epochs=N_EPOCHS.get(game, 1))
    return LearnerSettings(NUM_ENVS.get(game, 256), ppo)
