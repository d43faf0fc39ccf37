"""The former best response: sb3-contrib's MaskablePPO on the engine's single-seat view, a frozen player in the
other seats (``exploit --trainer sb3``; kept for comparison, much slower per sample).
"""

from __future__ import annotations

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from stonk_envs import vector
from stonk_envs.policies import make_player
from stonk_envs.training.config import PPOConfig
from stonk_envs.training.exploit_budget import SB3_NUM_ENVS, Budget
from stonk_envs.training.exploit_target import Target
from stonk_envs.training.sb3_model import maskable_ppo
from stonk_envs.vector.sb3_selfplay import SelfPlayVecEnv


class TrainingProgress(BaseCallback):
    """A progress bar over learner steps, and the mean episode reward of each rollout."""

    def __init__(self, total: int, progress: bool, desc: str):
        super().__init__()
        self.bar = tqdm(total=total, disable=not progress, unit="step", desc=desc)
        self.returns: list[float] = []
        self.curve: list[dict[str, float]] = []

    def _on_step(self) -> bool:
        self.returns += [info["episode"]["r"] for info in self.locals["infos"] if "episode" in info]
        self.bar.update(self.training_env.num_envs)
        return True

    def _on_rollout_end(self) -> None:
        if self.returns:
            self.curve.append({"step": int(self.num_timesteps), "episode_reward": float(np.mean(self.returns))})
            self.bar.set_postfix(reward=f"{self.curve[-1]['episode_reward']:.3f}")
        self.returns = []

    def _on_training_end(self) -> None:
        self.bar.close()


def sb3_settings() -> PPOConfig:
    """The MaskablePPO learner's PPO settings and network: the training schema's defaults."""
    return PPOConfig()


def train_best_response(target: Target, budget: Budget, seed: int, progress: bool) -> tuple[MaskablePPO, list[dict]]:
    """A MaskablePPO learner trained against ``target`` in every other seat, and its reward curve."""
    num_envs = budget.num_envs or SB3_NUM_ENVS
    training_config = {**target.env_config, "reward_mode": budget.reward_mode}
    engine = vector.make(target.game, num_envs, num_players=target.num_players, observe="actors",
                         **training_config)
    frozen = make_player(target.spec, target.game, target.num_players)
    venv = SelfPlayVecEnv(engine, opponent=frozen, seed=seed, rotate_seats=True)
    ppo = sb3_settings()
    model = maskable_ppo(venv, ppo, batch_size=min(ppo.batch_size, num_envs * ppo.n_steps), seed=seed)
    callback = TrainingProgress(budget.timesteps, progress, f"best response to {target.label}")
    model.learn(budget.timesteps, callback=callback)
    return model, callback.curve
