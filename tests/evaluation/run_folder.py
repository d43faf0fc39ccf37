"""A tiny training run folder for tests: a few saved torch policies as checkpoints."""

from pathlib import Path

import torch

from stonk_envs.policies.checkpoint import make_metadata, save_torch
from stonk_envs.policies.games import game_sizes
from stonk_envs.policies.torch_policy import MaskedMLP


def make_run(run_dir: Path, game: str, steps, num_players: int = 4, env_config: dict | None = None) -> list[Path]:
    """Write ``checkpoints/policy_<step>.pt`` (small random networks, their step in the metadata as a run's)
    for each step; return the files."""
    observation_size, num_actions = game_sizes(game, num_players, env_config)
    files = []
    for step in steps:
        meta = make_metadata(game, num_players, observation_size, num_actions, env_config or {}, kind="torch",
                             extra={"num_timesteps": step})
        torch.manual_seed(step)
        net = MaskedMLP(observation_size, num_actions, (8,))
        files.append(save_torch(net, run_dir / "checkpoints" / f"policy_{step:010d}.pt", meta))
    return files
