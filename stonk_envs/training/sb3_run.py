"""The sb3-contrib trainer's run: MaskablePPO's learner in :class:`~stonk_envs.training.run_loop.RunLoop`.

The learner holds one seat in each of ``num_envs`` games (the single-seat self-play view
:class:`~stonk_envs.training.sb3_league_env.LeagueVecEnv`); the league's snapshots, the heuristic and
the random player hold the others. Each rollout is one ``MaskablePPO.learn`` call of one
rollout's steps, which continues the model exactly as one long call would. The model, its
optimiser and step count are saved in the policy file; the league, games in play and episode
statistics in the state.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import configure
from stable_baselines3.common.utils import set_random_seed

from stonk_envs.policies import make_player
from stonk_envs.policies.checkpoint import save_sb3
from stonk_envs.policies.sb3_zip import SB3Zip
from stonk_envs.training.config import TrainConfig, torch_thread_count
from stonk_envs.training.league.opponents import League
from stonk_envs.training.run_loop import RunLoop
from stonk_envs.training.sb3_league_env import LeagueVecEnv
from stonk_envs.training.sb3_model import maskable_ppo

WINS_KEPT = 200
"""The learner's recent games whose win rate the training curve shows."""


class SB3Run(RunLoop):
    """One run of MaskablePPO on the single-seat self-play view (see the module docstring)."""

    kind = "sb3"

    def __init__(self, config: TrainConfig):
        super().__init__(config)
        c = config
        torch.set_num_threads(torch_thread_count(c.torch_threads))
        self.league = League(
            c.league.weights(),
            c.league.max_snapshots,
            lambda: make_player("heuristic", c.game, c.num_players),
        )
        self.venv = LeagueVecEnv(c.game, c.num_players, dict(c.env_config), c.num_envs, self.league, c.seed)
        self.obs_size = int(self.venv.observation_space.shape[0])
        self.num_actions = int(self.venv.action_space.n)
        self.model: MaskablePPO | None = None
        self.wins: deque[float] = deque(maxlen=WINS_KEPT)
        """Whether the learner won each of its recent games (kept since the run started or resumed)."""

    # ------------------------------------------------------------------ building
    def new_model(self) -> None:
        set_random_seed(self.config.seed)
        self.model = maskable_ppo(self.venv, self.config.sb3)
        self.league.set_learner(self.model.policy)
        self._attach_logger()

    def load_learner(self, policy_file: Path, state: dict[str, Any]) -> None:
        """Restore the model from ``policy_file`` and the games, league and statistics from ``state``."""
        self.model = _load_model(policy_file, self.venv, self.config)
        if self.model.num_timesteps != state["step"]:
            raise ValueError(f"{policy_file} is at step {self.model.num_timesteps}, its state at {state['step']}")
        self.league.set_learner(self.model.policy)
        self.league.load_state_dict(state["league"])
        self.venv.set_state(state["venv"])
        self.model._last_obs = self.venv.current_obs()
        self.model._last_episode_starts = state["last_episode_starts"]
        self.model.ep_info_buffer = deque(state["ep_info_buffer"], maxlen=self.model._stats_window_size)
        self._attach_logger()

    def _attach_logger(self) -> None:
        self.model.set_logger(configure(str(self.run_dir / "tb"), ["tensorboard"]))

    # ------------------------------------------------------------------ saving
    def save_policy(self, path: Path, metadata: dict[str, Any]) -> Path:
        return save_sb3(self.model, path, metadata)

    def learner_state(self) -> dict[str, Any]:
        return {
            "league": self.league.state_dict(),
            "venv": self.venv.get_state(),
            "last_episode_starts": self.model._last_episode_starts,
            "ep_info_buffer": list(self.model.ep_info_buffer),
        }

    # ------------------------------------------------------------------ training
    def add_snapshot(self) -> None:
        self.league.add_snapshot(self.step)

    def train_rollout(self) -> tuple[int, dict[str, float]]:
        """One rollout of ``sb3.n_steps`` steps in each game, and MaskablePPO's update (its own logger keeps
        the losses)."""
        before = int(self.model.num_timesteps)
        rollout = self.config.num_envs * self.config.sb3.n_steps
        self.model.learn(rollout, callback=WinCounter(self.wins), reset_num_timesteps=False)
        return int(self.model.num_timesteps) - before, {}

    def game_statistics(self) -> dict[str, float]:
        buffer = self.model.ep_info_buffer
        return {
            "episode_reward": float(np.mean([e["r"] for e in buffer])) if buffer else 0.0,
            "win_rate": float(np.mean(self.wins)) if self.wins else 0.0,
        }


class WinCounter(BaseCallback):
    """Records whether the learner won each game that ends during a rollout."""

    def __init__(self, wins: deque[float]):
        super().__init__()
        self.wins = wins

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "win" in info:
                self.wins.append(float(info["win"]))
        return True


def _load_model(policy_file: Path, venv: Any, config: TrainConfig) -> MaskablePPO:
    """The run's MaskablePPO at a checkpoint, rebuilt from the config and the zip's tensors (nothing unpickled)."""
    saved = SB3Zip(policy_file)
    model = maskable_ppo(venv, config.sb3)
    model.set_parameters(
        {"policy": saved.tensors("policy"), "policy.optimizer": saved.tensors("policy.optimizer")}, exact_match=True
    )
    model.num_timesteps = saved.plain("num_timesteps", int)
    model._n_updates = saved.plain("_n_updates", int)
    model._episode_num = saved.plain("_episode_num", int)
    model.ep_success_buffer = deque(maxlen=model._stats_window_size)  # the games report no successes
    return model
